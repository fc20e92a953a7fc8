"""The seam between the ledger and a game's rules: one :class:`GameKind` per scoring method.

Every command that records goes the same way::

    ctx    = store.context(game)                      # one read: header, rule set, position
    facts  = ctx.kind.form(ctx).fill(given, asker)    # the same Form for score-hand, amend, ref night
    result = ctx.kind.adjudicate(ctx, facts)          # pure: the draft to append and what to show
    store.append(ctx.position, result.draft)          # one write; the ledger knows no rules

A kind is found from the rule set's method (``rummyref.games.registry``), never by asking
which game a command holds: nothing outside ``games/`` branches on the kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rummyref.errors import RummyrefError, UnreadableInput, and_list
from rummyref.record import Context, Draft, Game, GameHeader, HandInForce, SessionInfo, Status, Summary
from rummyref.rules.ruleset import Method, RuleSet

if TYPE_CHECKING:
    from rich.console import Console

#: The options a command was given, by option name (``melded``, ``hand``, ``points`` ...): what
#: the user typed, before any kind has read it. Empty values mean "not given".
Given = Mapping[str, Any]


class Asker(Protocol):
    """How a Form asks at a terminal (the CLI's prompt, or ``ref night``'s line editor)."""

    def ask(self, question: str, offered: str = "", *, none: bool = True) -> str:
        """``none`` False: ``-`` (none) is no answer to this question, so it is not offered."""
        ...

    def tell(self, message: str) -> None: ...


class NoneTyped(str):
    """The answer none, typed as ``-`` (the Asker's word for it): an empty answer to every
    check, quoted as typed when a check refuses it."""

    typed = "-"


def ask_until(asker: Asker, question: str, check: Callable[[str], Any], offered: str = "",
              offer_back: bool = True, none: bool = True) -> Any:
    """Ask until ``check`` accepts the answer; a bad answer is explained and offered back to
    edit. The same bad answer sent back unchanged (Enter on the line as offered) is not
    offered a third time: the line comes back empty, so Enter alone never loops.
    ``offer_back`` False: a choice whose Enter means something of its own ("Record it?":
    yes), where a bad answer offered back would make Enter send it again: never offered.
    ``none`` False: the question takes no ``-`` (none), and the asker does not offer it."""
    rejected = None
    while True:
        answer = asker.ask(question, offered) if none else asker.ask(question, offered, none=False)
        try:
            return check(answer)
        except RummyrefError as exc:
            message = exc.message
            if isinstance(answer, NoneTyped):  # '-' refused: say what was typed, not ''
                message = message.replace("''", repr(answer.typed), 1)
            asker.tell(f"  {message}" + (f" ({exc.hint})" if exc.hint else ""))
            if not offer_back:
                continue
            if answer == rejected:
                asker.tell("  (the same answer again: the line is cleared)")
                offered, rejected = "", None
            else:
                offered = rejected = answer


def given_options(given: Given) -> list[str]:
    """The options that were given (non-empty), by name."""
    return [k for k, v in given.items() if v not in (None, False, "", [], ())]


def refuse_foreign(given: Given, own: Sequence[str], kind: GameKind, ruleset: RuleSet, command: str) -> None:
    """Options that belong to another kind of game are refused with this kind's usage (exit 3)."""
    title = ruleset.title
    foreign = [k for k in given_options(given) if k not in own]
    if foreign:
        flags = ", ".join("--" + k.replace("_", "-") for k in foreign)
        raise UnreadableInput(
            f"{flags} {'is' if len(foreign) == 1 else 'are'} not for {title} games",
            hint=f"{title}: {kind.usage(command, ruleset)}",
        )


@dataclass(frozen=True)
class SessionRequest:
    """``new-session``'s options as typed (``ref night`` takes the same ones)."""

    game: str | None = None
    players: tuple[str, ...] | None = None
    ruleset: str | None = None
    openings: Mapping[str, int] = field(default_factory=dict)
    wildcards: int | None = None
    cards: int | None = None
    variations: tuple[str, ...] = ()
    first_dealer: tuple[str, ...] = ()


@dataclass(frozen=True)
class Opening:
    """What opening a session writes, decided by the kind: a new game's header (None: the game
    exists), newcomers to seat, the session's own data, and what to show."""

    header: GameHeader | None
    seat: tuple[str, ...]
    options: Mapping[str, Any]
    shown: Any


@dataclass(frozen=True)
class Recorded:
    """A hand (or a correction) adjudicated: the draft to append, and what to show."""

    draft: Draft
    shown: Any


@dataclass(frozen=True)
class Closing:
    """Closing a session: whether it counts (an empty one is abandoned), and what to show."""

    abandoned: bool
    shown: Any


@dataclass(frozen=True)
class SessionDeal:
    """Who has dealt what in an open session, read from its log (A3, A4, SPEC §8's voids)."""

    dealt: tuple[tuple[str, int], ...] = ()  #: hands in force each player dealt, in deal order
    still_to_deal: tuple[str, ...] = ()  #: who must deal, in order, for full rounds
    owed: tuple[str, ...] = ()  #: whose voided hands are still to be dealt again
    rounds: int = 0  #: full rounds in force
    abandoned: bool = False  #: no hand in force


def deals_owed(still: Sequence[str]) -> list[str]:
    """Who still has to deal, in order: ``[Bob, Cy]``; when a player owes more than one deal
    (voided hands), each with the count: ``[Bob (1 hand), Cy (2 hands)]``."""
    counts: dict[str, int] = {}
    for name in still:
        counts[name] = counts.get(name, 0) + 1
    if all(n == 1 for n in counts.values()):
        return list(still)
    return [f"{name} ({n} hand{'s' if n != 1 else ''})" for name, n in counts.items()]


def deals_to_come(still: Sequence[str]) -> str:
    """Who still has to deal, in a sentence, as every list of names is joined (:func:`and_list`):
    ``Bob and Cy``, ``Ann, Bob and Cy``; ``Bob (1 hand) and Cy (2 hands)``."""
    return and_list(deals_owed(still))


def round_completed(hands: int, still: Sequence[str], players: int) -> int:
    """The round the deals still to come complete: every player has then dealt this many hands."""
    return (hands + len(still)) // players


@dataclass(frozen=True)
class Rejudged:
    """A game's hands judged again from their chained facts alone (``ref verify``): each entry's
    results as the kind's own scoring gives them under the chained rule set, and the game's status
    from the hands in force. An entry whose facts the kind cannot judge again (a hand of 0.1, kept
    as history) is left out; ``status`` None: not judged."""

    results: Mapping[int, Mapping[str, int]]  #: seq -> each player's points
    status: Status | None


class Form(Protocol):
    """Asks for a hand's facts: the options first, then (at a terminal) what is missing."""

    options: ClassVar[tuple[str, ...]]

    def fill(self, given: Given, asker: Asker | None) -> Any: ...

    def pick(self, given: Given, asker: Asker | None) -> Any:
        """The :class:`~rummyref.games.forms.QuestionForm` that asks this hand (a form that
        first asks how the hand is told returns the one chosen): ``ref night`` and the
        terminal's "Record it?" fix its answers one by one."""
        ...


class GameKind(Protocol):
    """One kind of game: how its hands are told, judged, shown and summed up."""

    method: ClassVar[Method]
    title: ClassVar[str]
    #: its fold of the history reads each hand's own rows (who won, a count), not only the points
    #: (whose sums the caches keep): a write that folds them has every entry checked (exit 8)
    folds_rows: ClassVar[bool]

    def usage(self, command: str, ruleset: RuleSet) -> str:
        """How to give a hand of this kind on the command line (for refusals), with the rule
        set's numbers (Gin: the cards dealt)."""
        ...

    def hand_word(self, ruleset: RuleSet) -> str:
        """What one recorded unit is called: "hand" (a long game) or "game" (Simple Rummy)."""
        ...

    def session_word(self, ruleset: RuleSet) -> str: ...

    def over_rule(self, ruleset: RuleSet) -> str | None:
        """The rule a finished game's refusals cite (no hand, no session after the end): A7 where
        the rule set's house rules have it, G10 in Gin; None: no rule to cite."""
        ...

    def wants_history(self, command: str) -> bool:
        """Does ``command`` need the hands in force in its context (a fold), or only totals?"""
        ...

    def open_session(self, ctx: Context | None, ruleset: RuleSet, request: SessionRequest) -> Opening: ...

    def form(self, ctx: Context, hand: int | None = None, style: str = "") -> Any:
        """The Form for the next hand, or (``hand``) for correcting a recorded one; ``style``
        ("cards", "points") when the table chose how to tell the hand (``ref night``)."""
        ...

    def check_next(self, ctx: Context, dealer: str | None = None) -> None:
        """Refuse at once what no answer could fix (the game is over, no session is open, the
        wrong dealer): checked before the first question, and again by ``adjudicate``."""
        ...

    def adjudicate(self, ctx: Context, facts: Any, dealer: str | None = None) -> Recorded: ...

    def correct(self, ctx: Context, hand: int, facts: Any | None, reason: str) -> Recorded:
        """An amendment (facts) or a void (None) of hand ``hand``: ctx has the hands in force."""
        ...

    # -- correcting at a terminal (``ref amend``, ``ref night``'s undo / amend N / void N) -------

    def last_in_force(self, ctx: Context) -> int | None:
        """The last hand still counting in the open session (``undo`` voids it); None: none."""
        ...

    def show_as_recorded(self, ctx: Context, hand: int, out: Console) -> None:
        """Hand ``hand`` as now in force, before it is corrected (refused if there is no such
        hand, or it was voided: B7)."""
        ...

    def show_change(self, ctx: Context, hand: int, shown: Any, out: Console) -> None:
        """A correction before it is written (``shown``: what ``correct`` made of it): each
        player's result and the game's state, before -> after."""
        ...

    def show_session_totals(self, ruleset: RuleSet, number: int, hands: int, points: Sequence[tuple[str, int]],
                            out: Console) -> None:
        """``ref history --session N``'s last line: the session's hands and each player's result."""
        ...

    def full_rounds(self, ruleset: RuleSet) -> bool:
        """Does a session of this kind end only after full rounds (A4)? ``close_session`` then
        refuses mid-round (unless the game is over), and ``ref dispute end-night`` answers as
        ``close_session`` acts."""
        ...

    def keeps_deal_order(self, ruleset: RuleSet) -> bool:
        """Does ref keep a deal order for this kind (A3, S4)? Gin keeps none (G15): its
        ``new-session`` refuses ``--first-dealer``, and so does ``ref dispute end-night``."""
        ...

    def tellings(self, ruleset: RuleSet) -> tuple[str, ...]:
        """The ways ``ref night`` takes a hand of this kind, as its forms' styles: "cards"
        (the cards, or the final hands), "points" (in a hurry: each player's points)."""
        ...

    def session_deal(self, roster: Sequence[str], log: Sequence[tuple[str, str]]) -> SessionDeal:
        """Where the deal of a session stands, from its hands and voids in the log's order
        (what ``close_session`` judges by, for ``ref dispute end-night``); a kind with no
        full-round rule has nothing still to deal."""
        ...

    def close_session(self, ctx: Context) -> Closing: ...

    def rejudge(self, ruleset: RuleSet, game: Game, sessions: Sequence[SessionInfo],
                entries: Sequence[HandInForce], in_force: Sequence[HandInForce]) -> Rejudged:
        """For ``ref verify``: every scoring entry (``entries``, in log order) judged again from its
        facts by the code the write uses, and the status after the hands in force (SPEC §8). Cheap
        enough for a 25-year log: a hand told by its cards is valued again as it was arranged (the
        arrangement is part of the chained facts), not searched for again."""
        ...

    def check_session_options(self, ruleset: RuleSet, options: Mapping[str, Any]) -> None:
        """Refuse session data this kind never writes (an import is checked as strictly as input)."""
        ...

    def closed(self, ctx: Context, closing: Closing, points: Sequence[tuple[str, int]], played: int) -> Any:
        """What to show once the session is closed (its points and hands as the ledger summed them)."""
        ...

    def standings(self, summary: Summary) -> Any:
        """The standings from the cached totals (and the hands in force, if ``wants_history``)."""
        ...

    def stats_style(self, ruleset: RuleSet) -> Any:
        """How ``ref stats`` judges this kind's hands and sessions (a StatsStyle)."""
        ...

    def projection(self, summary: Summary) -> Any:
        """The standings ``ref chart`` projects from toward the target (None: no target)."""
        ...

    # -- showing (the CLI passes its console; JSON shapes are the kind's) ---------------------

    def show_opened(self, shown: Any, out: Console) -> None: ...

    def opened_json(self, shown: Any) -> dict[str, Any]: ...

    def show_recorded(self, shown: Any, out: Console) -> None: ...

    def recorded_json(self, shown: Any) -> dict[str, Any]: ...

    def show_closed(self, shown: Any, out: Console) -> None: ...

    def closed_json(self, shown: Any) -> dict[str, Any]: ...

    def show_standings(self, standings: Any, out: Console) -> None: ...

    def standings_json(self, standings: Any) -> dict[str, Any]: ...

    def show_history_entry(self, facts: Mapping[str, Any], results: Sequence[Any], roster: Sequence[str],
                           out: Console, ruleset: RuleSet | None = None) -> None:
        """One entry of ``ref history``, in the words of ``ruleset``, the game's rule set (not
        given: the kind's built-in one)."""
        ...

    # -- ref night ---------------------------------------------------------------------------

    def preview(self, ctx: Context, shown: Any, out: Console) -> None:
        """A hand's result before it is recorded (``ref night`` asks "Record it?" after it)."""
        ...

    def show_written(self, shown: Any, out: Console) -> None:
        """What ``ref night`` says once the hand is written."""
        ...

    def show_corrected(self, shown: Any, out: Console) -> None:
        """What ``ref night`` says once a correction is written, after its ``Recorded:`` line:
        what ``ref void`` and ``ref amend`` say of a game (or match) whose end it undid."""
        ...

    def announce(self, ctx: Context, out: Console) -> None:
        """The line before ``night>``: the next hand and who deals (or that the game is over)."""
        ...

    def show_resumed(self, ctx: Context, out: Console) -> None:
        """``ref night`` on a session already open."""
        ...

    def show_short_standings(self, summary: Summary, out: Console) -> None:
        """The standings ``ref night`` shows after each hand."""
        ...


def again(game: Game, ruleset: RuleSet) -> str:
    """What ``ref new-session --game NAME`` needs to start another game like ``game``: its rule
    set's (:attr:`~rummyref.rules.ruleset.RuleSet.again`), its players where they are not the
    rule set's own, its WILDCARDs where they are not the rule set's default, and the variations
    it was created with (Gin's ``--variation oklahoma``): else following the hint starts
    another kind of game, or is refused for want of players."""
    out = ruleset.again
    if tuple(game.roster) != tuple(ruleset.default_players):
        out += f" --players {','.join(game.roster)}"
    if game.wildcards != ruleset.wild_default:
        out += f" --wildcards {game.wildcards}"
    return out + "".join(f" --variation {v}" for v in game.options.get("variations", ()))


def new_game(game: Game, ruleset: RuleSet) -> str:
    """``ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob``: the command that starts
    another game like ``game`` (:func:`again`), as every "game over" line and refusal gives it."""
    return f"ref new-session --game NEW-NAME{again(game, ruleset)}"


def over_refusal(game: Game, ruleset: RuleSet, rule: str | None, first: str = "") -> RummyrefError:
    """The refusal of anything more in a finished game (a hand, a session, the night's next hand),
    in the same words in every command and every game kind: ``refused (G10): game gin is over:
    Ann won``, then the way to a new game of the same kind (``first``: what to do before it)."""
    from rummyref.errors import RuleRefusal

    return RuleRefusal(f"game {game.name} is over: {game.winner} won", rule=rule,
                       hint=f"{first}start a new game with {new_game(game, ruleset)}; the history of this one stays")


def opens_one(game: Game, ruleset: RuleSet, rule: str | None, opens: str = "ref new-session opens one") -> str:
    """The hint when no session of ``game`` is open: ``opens`` while the game goes on; once it
    is over (A7, G10) no session of it can open, so the way on is a new game (:func:`new_game`)."""
    if not game.over:
        return opens
    return (f"game {game.name} is over{f' ({rule})' if rule else ''}: {game.winner} won; "
            f"start a new game with {new_game(game, ruleset)}")


def none_open(game: Game, ruleset: RuleSet, rule: str | None, opens: str = "ref new-session opens one") -> RummyrefError:
    """No session of ``game`` is open: refused, with the way on (:func:`opens_one`)."""
    from rummyref.errors import RuleRefusal

    return RuleRefusal(f"no {ruleset.session_word} of {game.name} is open",
                       hint=opens_one(game, ruleset, rule, opens))


def open_refusals(ctx: Context, kind: GameKind) -> None:
    """What no kind of game allows when a session opens: a finished game, a session still open."""
    from rummyref.errors import RuleRefusal

    g = ctx.game
    if g.over:  # another rule set's game: its --ruleset, or the new game would be the default's
        raise over_refusal(g, ctx.ruleset, kind.over_rule(ctx.ruleset))
    current = ctx.open_session
    if current is not None:
        from rummyref.rulebook.precedents import local_time

        word = kind.session_word(ctx.ruleset)
        raise RuleRefusal(
            f"{word} {current.number} of {g.name} is still open (since {local_time(current.opened_at)})",
            hint=f"record its {ctx.ruleset.hand_words}, or close it with ref end-session",
        )


def no_session_options(options: Mapping[str, Any]) -> None:
    """For kinds that keep no data of their own with a session."""
    if options:
        raise UnreadableInput(f"unknown option {sorted(options)[0]!r}")


def last_session(ctx: Context) -> SessionInfo | None:
    return ctx.sessions[-1] if ctx.sessions else None


def no_such_hand(ctx: Context, hand: int) -> RummyrefError:
    """The refusal of a hand number never recorded (exit 5), in the rule set's word for a hand
    ("game 9" in Simple Rummy), with the numbers there are."""
    from rummyref.errors import NotFound

    word = ctx.ruleset.hand_word
    last = max((h.hand for h in ctx.hands()), default=0)
    hint = (f"{ctx.ruleset.hand_words} are numbered 1 to {last}" if last > 1 else f"the only {word} so far is {word} 1" if last
            else f"no {word} has been recorded yet")
    return NotFound(f"game {ctx.game.name} has no {word} {hand}", hint=hint)
