"""The ways through the record that every command takes (the library; the CLI translates).

Each is one read and one write: the context is read in one transaction, the kind decides
(asking at a terminal through the Form if need be, between the two), and the ledger appends in
one ``BEGIN IMMEDIATE`` transaction that first checks the log still stands where it was read
(exit 7 if another terminal wrote meanwhile). Nothing here knows which kind of game it holds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rummyref.games.base import Asker, GameKind, Given, Recorded, SessionRequest
from rummyref.games.registry import kind_for
from rummyref.record import Context
from rummyref.rules.ruleset import load_ruleset


@dataclass(frozen=True)
class Done:
    """What a command did, for showing: the kind that shows it and its object."""

    kind: GameKind
    shown: Any
    seal: str | None = None  #: the record's seal after the write (end-session prints it)


def context(db: str | None, game: str | None, command: str, names: tuple[str, ...] = ()) -> Context:
    """One read: the game a command means (SPEC §8), with the hands in force if its kind wants them."""
    from rummyref.store.record import reading

    with reading(db) as rec:
        g = rec.game_row(game, names)
        ctx = rec.context(g)
        if ctx.kind.wants_history(command):
            ctx = rec.context(g, history=True)
    return ctx


def _names(given: Given) -> tuple[str, ...]:
    """Player names typed in the options (to tell open games apart, SPEC §8)."""
    found: list[str] = []
    for key in ("melded", "held", "claim", "points", "hand"):
        for item in given.get(key) or ():
            name, sep, _ = str(item).partition("=")
            if sep and name.strip():
                found.append(name.strip())
    for key in ("out", "four_sevens", "dealer"):
        if given.get(key):
            found.append(str(given[key]))
    found += [str(d) for d in given.get("dropped") or ()]
    return tuple(found)


def open_session(db: str | None, request: SessionRequest) -> Done:
    """``new-session``: open a session (creating the game on first use), in one write."""
    from rummyref.store.record import writing

    if request.game is not None and not request.game.strip():
        from rummyref.errors import UnreadableInput

        raise UnreadableInput("--game needs a name", hint="e.g. --game rummy-2m, or leave it out for the latest game")
    with writing(db, create=True) as rec:
        row = _session_game(rec, request)
        if row is None:
            rs = load_ruleset(request.ruleset or "rummy-2m")
            kind = kind_for(rs)
            plan = kind.open_session(None, rs, request)
            assert plan.header is not None
            row = rec.create_game(plan.header)
            seated = rec.seat(row, plan.seat)
            rec.open_session(row, None, dict(plan.options), seated)
            return Done(kind, plan.shown)
        ctx = rec.context(row)
        if request.ruleset and load_ruleset(request.ruleset).name != ctx.ruleset.name:
            from rummyref.errors import UnreadableInput

            raise UnreadableInput(
                f"game {row.name} is played under {row.ruleset}, not {request.ruleset}",
                hint="a new game may use another rule set: --game NEW-NAME",
            )
        kind = ctx.kind
        if kind.wants_history("new-session"):
            ctx = rec.context(row, history=True)
        plan = kind.open_session(ctx, ctx.ruleset, request)
        seated = rec.seat(row, plan.seat)
        rec.open_session(row, ctx.position, dict(plan.options), seated)
        return Done(kind, plan.shown)


def _session_game(rec, request: SessionRequest):
    """The game ``new-session`` opens: named, else (with no --ruleset, or the same rule set) the
    game played last; None when a new game is to be created."""
    if request.game is not None:
        return rec.find_game(request.game)
    last = rec.last_played()
    if last is None:
        return None
    if request.ruleset is None:
        return last
    wanted = load_ruleset(request.ruleset)
    if wanted.name == last.ruleset:
        return last
    return rec.find_game(wanted.name)


def record_hand(db: str | None, game: str | None, given: Given, asker: Asker | None,
                dealer: str | None = None) -> Done:
    """``score-hand``: the next hand from the options (asking for what is missing), in one write."""
    ctx = context(db, game, "score-hand", _names(given))
    kind = ctx.kind
    facts = fill(ctx, None, given, asker, "score-hand")
    result = kind.adjudicate(ctx, facts, dealer)
    return Done(kind, append(db, ctx, result))


def fill(ctx: Context, hand: int | None, given: Given, asker: Asker | None, command: str) -> Any:
    """A hand's facts through the kind's Form: foreign options refused, then the options, then asking."""
    from rummyref.games.base import refuse_foreign

    form = ctx.kind.form(ctx, hand)
    refuse_foreign(given, form.options, ctx.kind, ctx.ruleset.title, command)
    return form.fill(given, asker)


def append(db: str | None, ctx: Context, result: Recorded) -> Any:
    """One write: the draft appended where ``ctx`` was read (exit 7 if the log moved); what to
    show, with the entry's number as the log gave it."""
    from rummyref.store.record import writing

    with writing(db) as rec:
        entry = rec.append(rec.game_row(ctx.game.name), ctx.position, result.draft)
    return replace(result.shown, seq=entry.seq) if hasattr(result.shown, "seq") else result.shown


def correct(db: str | None, game: str | None, hand: int, given: Given | None, reason: str,
            asker: Asker | None, command: str) -> Done:
    """``amend`` (given: the new facts) or ``void`` (None) of a recorded hand, in one write."""
    ctx = context(db, game, command)
    kind = ctx.kind
    facts = None if given is None else fill(ctx, hand, given, asker, command)
    result = kind.correct(ctx, hand, facts, reason)
    return Done(kind, append(db, ctx, result))


def close_session(db: str | None, game: str | None) -> Done:
    """``end-session``: close the open session if the kind allows it, in one write."""
    from rummyref.store.record import writing

    with writing(db) as rec:
        row = rec.game_row(game)
        ctx = rec.context(row)
        kind = ctx.kind
        if kind.wants_history("end-session"):
            ctx = rec.context(row, history=True)
        closing = kind.close_session(ctx)
        s = rec.close_session(row, ctx.position, closing.abandoned)
        points = rec.night_points(s.id)  # type: ignore[arg-type]
        played = rec.session_hands(s.id)  # type: ignore[arg-type]
        from rummyref.store import seal

        return Done(kind, kind.closed(ctx, closing, points, played), seal.current(rec))
