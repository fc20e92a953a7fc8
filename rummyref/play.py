"""The ways through the record that every command takes (the library; the CLI translates).

Each is one read and one write: the context is read in one transaction, the kind decides
(asking at a terminal through the Form if need be, between the two), and the ledger appends in
one ``BEGIN IMMEDIATE`` transaction that first checks the log still stands where it was read
(exit 7 if another terminal wrote meanwhile). Nothing here knows which kind of game it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from rummyref.errors import RuleRefusal, UnreadableInput
from rummyref.games.base import Asker, GameKind, Given, Recorded, SessionRequest
from rummyref.games.registry import kind_for
from rummyref.record import Context
from rummyref.rules.ruleset import load_ruleset

if TYPE_CHECKING:
    from rummyref.games.forms import QuestionForm

Judge = Callable[[Any], Recorded]  #: a hand's facts -> the kind's verdict (adjudicate, or correct)


class Confirm(Protocol):
    """How a terminal settles a hand before the write: show the hand as recorded (``hand``: a
    correction), ask the open questions, show the result, ask "Record it?" (the table may fix
    answers). The result to write, or None: the table dropped it and nothing is written."""

    def __call__(self, ctx: Context, hand: int | None, form: QuestionForm | None, judge: Judge) -> Recorded | None:
        ...


@dataclass(frozen=True)
class Done:
    """What a command did, for showing: the kind that shows it and its object."""

    kind: GameKind
    shown: Any
    seal: str | None = None  #: the record's seal after the write (end-session prints it)
    reason: str | None = None  #: an amend's or a void's reason (B7), for its JSON
    #: said on stderr: what the command did not do as asked (a --ruleset file whose rules differ
    #: from those the game keeps: the game keeps its own)
    note: str | None = None


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
    for key in ("melded", "held", "claim", "points", "hand", "melds"):
        for item in given.get(key) or ():
            name, sep, _ = str(item).partition("=")
            if sep and name.strip():
                found.append(name.strip())
    for key in ("out", "four_sevens", "dealer", "knock", "gin", "big_gin"):
        if given.get(key):
            found.append(str(given[key]))
    found += [str(d) for d in given.get("dropped") or ()]
    return tuple(found)


def open_session(db: str | None, request: SessionRequest) -> Done:
    """``new-session``: open a session (creating the game on first use), in one write."""
    from rummyref.names import check_game_name, check_newcomers
    from rummyref.store.record import writing

    if request.game is not None and not request.game.strip():
        raise UnreadableInput("--game needs a name", hint="e.g. --game rummy-2m, or leave it out for the latest game")
    if request.ruleset:
        load_ruleset(request.ruleset)  # a rule set that cannot be read is refused before the record is touched
    with writing(db, create=True) as rec:
        row = _session_game(rec, request)
        if row is None:
            rs = load_ruleset(request.ruleset or "rummy-2m")
            kind = kind_for(rs)
            plan = kind.open_session(None, rs, request)
            assert plan.header is not None
            check_newcomers([n for n, _ in plan.header.players] + list(plan.seat))  # the new roster
            check_game_name(plan.header.name)
            row = rec.create_game(plan.header)
            seated = rec.seat(row, plan.seat)
            rec.open_session(row, None, dict(plan.options), seated)
            return Done(kind, plan.shown)
        ctx = rec.context(row)
        note = ruleset_kept(row.name, ctx.ruleset, request.ruleset)
        kind = ctx.kind
        if kind.wants_history("new-session"):
            ctx = rec.context(row, history=True)
            rec.history = kind.folds_rows
        try:
            plan = kind.open_session(ctx, ctx.ruleset, request)
        except (RuleRefusal, UnreadableInput) as exc:
            from rummyref.store.guard import trusted

            trusted(rec, row, history=rec.history)  # "still open", "over": read from rows changed outside ref?
            raise noted(exc, note) from None
        check_newcomers([n for n in plan.seat if n not in ctx.game.roster], ctx.game.roster)  # only new names
        seated = rec.seat(row, plan.seat)
        rec.open_session(row, ctx.position, dict(plan.options), seated)
        return Done(kind, plan.shown, note=note)


def ruleset_kept(game: str, kept: Any, given: str | None) -> str | None:
    """``--ruleset`` given for an existing game (``new-session``, ``ref night``): never silently
    dropped. Another rule set than the game's is refused (exit 3); a file named like the game's
    rule set whose rules differ from those the game keeps (a house's copy keeping a built-in's
    name, or a file edited since the game was created: the comparison ``ref dispute`` makes,
    :func:`rummyref.cli.settle.same_rules`) is said: the game keeps its own rules, and the
    file's rules apply to a new game. None: nothing to say."""
    if not given:
        return None
    wanted = load_ruleset(given)
    if wanted.name != kept.name:
        raise UnreadableInput(
            f"game {game} is played under {kept.name}, not {given}",
            hint="a new game may use another rule set: --game NEW-NAME",
        )
    if wanted == kept:
        return None
    return (f"game {game} already exists and keeps the rules of {kept.name} it was created with; "
            f"--ruleset {given} is named {wanted.name}, but its rules differ from them: they apply to "
            f"a new game: --game NEW-NAME --ruleset {given}")


def noted(exc: Any, note: str | None) -> Any:
    """A refusal with ``note`` (:func:`ruleset_kept`) first in its hint: why the game's own
    rules, not the file's, refused."""
    if note:
        exc.hint = note if not exc.hint else f"{note}; {exc.hint}"
    return exc


def _untouched(db: str | None, game: str, history: bool = False) -> None:
    """Before a refusal read from the rows (the game is over, no night is open, whose deal it
    is): exit 8 instead when those rows were changed outside ``ref`` (the write's own check,
    :func:`rummyref.store.guard.trusted`, read-only). Only a refusal pays for it."""
    from rummyref.store.guard import trusted
    from rummyref.store.record import reading

    with reading(db) as rec:
        trusted(rec, rec.game_row(game), history=history)


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
                dealer: str | None = None, confirm: Confirm | None = None) -> Done | None:
    """``score-hand``: the next hand from the options (asking for what is missing), in one
    write; with ``confirm`` (a terminal) only once the table said so (None: dropped)."""
    ctx = context(db, game, "score-hand", _names(given))
    kind = ctx.kind
    history = kind.wants_history("score-hand") and kind.folds_rows  # what the write's check reads

    def judge(facts: Any) -> Recorded:
        return kind.adjudicate(ctx, facts, dealer)

    with _refusals_checked(db, ctx.game.name, history):
        kind.check_next(ctx, dealer)
        form = prepare(ctx, None, given, asker, "score-hand")
        result = _settled(ctx, None, form, judge, asker, confirm)
    return None if result is None else Done(kind, append(db, ctx, result, history))


@contextmanager
def _refusals_checked(db: str | None, game: str, history: bool) -> Iterator[None]:
    """A refusal read from the rows (the game is over, not your deal, a name not on the roster,
    a hand too big for the table) is exit 8 instead when those rows were changed outside ref:
    the write's own check runs first (:func:`_untouched`). Only a refusal pays for it."""
    try:
        yield
    except (RuleRefusal, UnreadableInput):
        _untouched(db, game, history)
        raise


def prepare(ctx: Context, hand: int | None, given: Given, asker: Asker | None, command: str) -> QuestionForm:
    """The form of a hand (``hand``: a recorded one, whose answers come first at a terminal),
    with the options read: foreign options refused, and (with no terminal) missing facts.
    Nothing is asked yet but how the hand is told (cards or points), where that is open."""
    from rummyref.games.base import refuse_foreign

    form = ctx.kind.form(ctx, hand)
    refuse_foreign(given, form.options, ctx.kind, ctx.ruleset, command)
    chosen: QuestionForm = form.pick(given, asker)
    chosen.start(given, asker)
    return chosen


def _settled(ctx: Context, hand: int | None, form: QuestionForm | None, judge: Judge, asker: Asker | None,
             confirm: Confirm | None) -> Recorded | None:
    """The verdict to write: at once, or once the terminal's ``confirm`` says so."""
    if confirm is not None:
        return confirm(ctx, hand, form, judge)
    if form is not None and asker is not None:
        form.ask_all(asker)
    return judge(None if form is None else form.facts())


def append(db: str | None, ctx: Context, result: Recorded, history: bool = False) -> Any:
    """One write: the draft appended where ``ctx`` was read (exit 7 if the log moved); what to
    show, with the entry's number as the log gave it. ``history``: the draft was judged on every
    hand in force (so the write's check reads every entry)."""
    from rummyref.store.record import writing

    with writing(db) as rec:
        rec.history = history
        entry = rec.append(rec.game_row(ctx.game.name), ctx.position, result.draft)
    return replace(result.shown, seq=entry.seq) if hasattr(result.shown, "seq") else result.shown


def correct(db: str | None, game: str | None, hand: int, given: Given | None, reason: str,
            asker: Asker | None, command: str, confirm: Confirm | None = None) -> Done | None:
    """``amend`` (given: the new facts; at a terminal, over the recorded ones) or ``void``
    (None) of a recorded hand, in one write; with ``confirm``, once the table said so."""
    from rummyref.names import check_reason

    reason = check_reason(reason)  # before the record is touched (exit 3)
    ctx = context(db, game, command, _names(given or {}))
    kind = ctx.kind
    history = kind.wants_history(command) and kind.folds_rows  # what the write's check reads

    def judge(facts: Any) -> Recorded:
        return kind.correct(ctx, hand, facts, reason)

    with _refusals_checked(db, ctx.game.name, history):
        form = None if given is None else prepare(ctx, hand, given, asker, command)
        result = _settled(ctx, hand, form, judge, asker, confirm)
    if result is None:
        return None
    return Done(kind, append(db, ctx, result, history), reason=result.draft.reason)


def close_session(db: str | None, game: str | None) -> Done:
    """``end-session``: close the open session if the kind allows it, in one write."""
    from rummyref.store.guard import trusted
    from rummyref.store.models import row_id
    from rummyref.store.record import writing

    with writing(db) as rec:
        row = rec.game_row(game)
        ctx = rec.context(row)
        kind = ctx.kind
        if kind.wants_history("end-session"):
            ctx = rec.context(row, history=True)
            rec.history = kind.folds_rows
        try:
            closing = kind.close_session(ctx)
        except RuleRefusal:
            trusted(rec, row, history=rec.history)  # a refusal read from rows changed outside ref is exit 8
            raise
        s = rec.close_session(row, ctx.position, closing.abandoned)
        points = rec.night_points(row_id(s))
        played = rec.session_hands(row_id(s))
        from rummyref.store import seal

        return Done(kind, kind.closed(ctx, closing, points, played), seal.current(rec))
