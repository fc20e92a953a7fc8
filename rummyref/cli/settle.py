"""Settling a dispute against the record: find the game it means (SPEC §8) and its open session,
decide by that game's rule set, show the earlier rulings of the same dispute (its precedents),
and keep the new ruling as one while the session is open.

Without a database file nothing is opened or created (and the store is not even imported):
the dispute is answered from the facts given, and the answer says it was not recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from rummyref.cli.common import db_choice, err, out, print_json
from rummyref.names import shown
from rummyref.wrap import echo

NoRecordOption = Annotated[
    Optional[bool],
    typer.Option("--record/--no-record", help="Keep this ruling as a precedent of the open session, or not "
                 "(default: kept when it settled something at the table; a question answered is not)."),
]

NightGameOption = Annotated[
    Optional[str],
    typer.Option("--game", "-g", metavar="NAME", help="The game whose rule set decides and whose open session keeps the ruling (default: the one open, else the one played last)."),
]

Decide = Callable[[Any], Any]  #: (Table | Played | None) -> DisputeResult


def _where_kept(db: Optional[str]):
    """Where the record is (a file, or a server URL without its password) and whether it exists
    (a file is checked without loading the store; a server database is asked). Unlike
    :func:`rummyref.cli.common.record_file`, which never asks a server (``ref ruling`` and
    ``ref count`` answer without the store), a dispute opens the store when there is a record,
    so it may ask the server first."""
    from rummyref.store.location import file_of, resolve, shown

    url = resolve(db)
    path = file_of(url)
    if path is not None or not url.startswith("postgresql"):
        try:
            return path, (path is None or path.exists())
        except OSError as exc:  # a name the file system cannot hold
            from rummyref.errors import StorageError
            from rummyref.store.location import short

            raise StorageError(f"cannot use the database {short(str(path))}: {exc.strerror or exc}") from None
    from rummyref.store.engine import record_exists

    return shown(url), record_exists(db)


def settle(
    decide: Decide,
    *,
    game: Optional[str],
    db: Optional[str],
    no_record: Optional[bool],
    as_json: bool,
    extra: Callable[[Any, Any], list[str]] | None = None,
    need_table: str | None = None,
    names: Sequence[str] = (),
    ruleset: str | None = None,
) -> None:
    """Decide the dispute by the game it means (SPEC §8, as every command chooses it: ``names``
    are the players the facts name), record it when that game's session is open, and show it
    all. ``decide`` is given the open session (a ``Table``), else the game played (a ``Played``:
    its rule set and roster decide, nothing is kept), else None (no record, or no game meant).
    ``extra(result, table)``: more lines for the human output; ``need_table``: the facts
    come from the open night, so there must be one (its text: how to give the facts instead).
    ``ruleset``: the ``--ruleset`` given, to tell a house file named like the game's rule set
    but with other rules (:func:`same_rules`) from the game's own.

    A game that is over (A7) has no hand still to come: a ruling there is answered and not
    kept, and ``--record`` is refused (exit 4, nothing written)."""
    from rummyref.errors import NotFound, UnreadableInput

    db = db_choice(db)
    record = no_record  # the option is --record/--no-record: True, False, or None (when it settled something)
    path, exists = _where_kept(db)
    played, table, why, earlier, kept = None, None, "", [], None
    if not exists:
        if need_table:
            raise NotFound(f"there is no record at {path}", hint=f"{need_table} (or check --db / $RUMMYREF_DB)")
        if record:
            raise NotFound(f"--record: there is no record at {path} to keep the ruling in",
                           hint="leave --record out: the dispute is answered and not kept (or check --db)")
        why = f"there is no record at {path}"
        result = decide(None)
    else:
        from rummyref.store import precedents as p
        from rummyref.store.readonly import unwritable
        from rummyref.store.record import reading, writing

        # a record this user cannot write is still read: the ruling is given, and not kept (unless
        # --record asked for it: then the write is refused, exit 6, saying why)
        locked = unwritable(path) if record is None and isinstance(path, Path) and path.is_file() else None
        with (reading(db) if record is False or locked else writing(db)) as rec:
            try:
                played, why = p.find_table(rec, game, names, strict=need_table is not None)
            except (NotFound, UnreadableInput) as exc:
                raise type(exc)(exc.message, hint="; ".join(filter(None, [exc.hint, need_table]))) from None
            table = played if isinstance(played, p.Table) else None
            result = decide(played)
            earlier = p.same_dispute(rec, result.key)
            # kept by default when it settled something at this table, by this table's rules
            own = table is None or (result.ruleset == table.ruleset.name and same_rules(ruleset, table))
            over = _over(table) if table is not None and record is not False else None
            if over is not None and record:
                _refuse_record(table)
            if table is None and record:
                _refuse_record(None, why, played)
            keep = record if record is not None else result.settled and own and over is None
            if table is not None and keep and locked:
                why = f"the record cannot be written: {locked}"
            elif table is not None and keep:
                kept = p.record_ruling(rec, table, result.to_dict())
            elif table is not None and record is False:
                why = "--no-record"
            elif over is not None:
                why = over
            elif table is not None:
                why = (f"{result.why_not_settled}; --record keeps it" if not result.settled else
                       f"it was ruled by {result.ruleset}, not by {table.ruleset.name}, the rule set of the game "
                       f"{table.game.name}; --record keeps it" if result.ruleset != table.ruleset.name else
                       f"it was ruled by --ruleset {ruleset}: named {result.ruleset}, but its rules differ from "
                       f"those the game {table.game.name} keeps; --record keeps it")
    if record is False and exists:
        why = "--no-record"
    show(result, played, kept, why, earlier, as_json, extra(result, played) if extra else [])


def same_rules(name: str | None, played: Any) -> bool:
    """Whether ``--ruleset`` (``name``, a rule set's name or a file) leaves the game's own rules
    in force: not given, or the very rules kept with the game. A house file named like the
    game's rule set whose values differ (an ace of 11 where the game's is 15) is another rule
    set, as ``ref count`` and ``ref ruling`` read it: its values rule, and the ruling is not the
    table's (not kept unless ``--record``)."""
    if name is None or played is None:
        return True
    from rummyref.rules.ruleset import load_ruleset

    return load_ruleset(name) == played.ruleset


def _over(table: Any, cite: bool = True) -> str | None:
    """Why nothing is kept at a game that is over (A7), or None while it is still played."""
    if not table.game.over:
        return None
    from rummyref.games.registry import kind_for

    rs = table.ruleset
    kind = kind_for(rs)
    rule, word = kind.over_rule(rs), kind.hand_word(rs)
    return (f"the game {shown(table.game.name)} is over{f' ({rule})' if rule and cite else ''}: its {word} "
            f"{table.hand} will never be played, so no {word} can keep the ruling")


def _refuse_record(table: Any, why: str = "", played: Any = None) -> None:
    """``--record`` at a game that is over, or with no session open to keep it in (``why``,
    ``table`` None; ``played``: the game meant, if any, whose way on the hint gives: a session
    of it, or a new game once it is over): refused (exit 4), nothing written."""
    from rummyref.errors import RuleRefusal
    from rummyref.games.registry import kind_for

    hint = "leave --record out: the dispute is answered and not kept"
    if table is None:
        opens = "ref new-session opens a session"
        if played is not None:  # once its game is over, no session of it can open: a new game
            opens = played.opens_one(opens)
        raise RuleRefusal(f"--record: {why} to keep the ruling in", hint=f"{hint}; {opens}")
    raise RuleRefusal(f"--record: {_over(table, cite=False)}", rule=kind_for(table.ruleset).over_rule(table.ruleset),
                      hint=hint)


def show(result, played, kept, why: str, earlier, as_json: bool, extra: list[str]) -> None:
    game = played.game.name if played else None  # precedents of other games name theirs
    if as_json:
        print_json({
            **result.to_dict(),
            "recorded": {k: v for k, v in kept.to_dict().items() if k != "ruling"} if kept else None,
            "not_recorded": None if kept else why,
            "precedents": [e.to_dict() for e in earlier],
        })  # fmt: skip
    else:
        echo(out, result.verdict, style="bold")
        out.print("Why:", markup=False)
        for i, step in enumerate(result.chain, 1):
            head = f"  {i}. {step.rule:<5} "
            echo(out, step.decided, indent=head, hang=" " * len(head))
        for line in extra:
            echo(out, line, hang="  ")
        for e in earlier:
            differs = "" if e.outcome == result.outcome and e.verdict == result.verdict else "  [ruled differently]"
            echo(out, f"precedent: {e.line(game)}{differs}", hang="  ")
    message = f"Recorded as a precedent of {shown(kept.game)}: {kept.where()} (entry {kept.entry})." if kept else f"Not recorded ({why})."
    echo(err, message)
