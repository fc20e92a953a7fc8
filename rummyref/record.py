"""Plain, frozen domain objects of the record. The store turns its rows into these inside
the database session; the CLI renders them. Nothing here knows about the database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from rummyref.chain import EntryKind

__all__ = ["EntryKind"]  # the one enum of entry kinds lives with the chain

if TYPE_CHECKING:
    from rummyref.games.base import GameKind
    from rummyref.rules.ruleset import RuleSet



CORRECTIONS = (EntryKind.AMEND, EntryKind.VOID)



def tenths(numerator: int, denominator: int) -> float:
    """``numerator / denominator`` to one decimal, a half away from zero (58 / 8 = 7.25 -> 7.3,
    -7.25 -> -7.3) as a pencil or a calculator rounds, computed exactly from the integers (never
    from a float, whose 7.25 Python rounds to the even 7.2). Every average ref shows goes through it."""
    from decimal import ROUND_HALF_UP, Decimal

    return float((Decimal(numerator) / Decimal(denominator)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))

@dataclass(frozen=True)
class Player:
    name: str
    seat: int  #: deal order, from 1 (A3)
    opening: int = 0  #: the total carried over from paper when the game was created


@dataclass(frozen=True)
class Game:
    name: str
    ruleset: str
    target: int | None
    wildcards: int
    players: tuple[Player, ...]
    created_at: str
    finished_at: str | None = None
    winner: str | None = None
    closed_roster: bool = True  #: A1 (rummy-2m): nobody joins; the house's word for newcomers
    options: Mapping[str, Any] = field(default_factory=dict, compare=False)  #: the kind's own header data

    def __post_init__(self) -> None:
        from rummyref.names import meet, meet_text

        meet(self.roster)  # a line of text names a long-named player as tables do (names.in_text)
        meet_text(self.name, self.ruleset)  # edited outside ref to hold an escape sequence: shown escaped

    @property
    def roster(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def over(self) -> bool:
        return self.finished_at is not None

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)


@dataclass(frozen=True)
class Night:
    number: int
    opened_at: str
    closed_at: str | None
    hands: int  #: hands dealt so far (voided hands were dealt too)


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str  #: "hand", "amend", "void" (later: "ruling", ...)
    night: int | None
    hand: int | None
    hand_in_night: int | None
    dealer: str | None
    facts: dict[str, Any]
    reason: str | None
    target_seq: int | None
    created_at: str
    prev_hash: str
    hash: str
    results: tuple[tuple[str, int], ...]


# -- the ledger's vocabulary: what a command reads (a Context) and writes (a Draft) -----------


@dataclass(frozen=True)
class Position:
    """Where the log of a game stood when a command read it; the write checks it still does
    (another terminal may have written meanwhile: exit 7)."""

    game: str
    next_hand: int
    session: int | None  #: the open session's number (None: none open)
    entries: int = field(default=0, compare=False)  #: entries in the log (rulings do not make a hand stale)
    #: the latest entry of a hand (a hand, an amend, a void): a correction meanwhile may end the
    #: game, or give the deal back to a voided hand's dealer, so a hand read before it is stale
    last_hand_entry: int = 0


@dataclass(frozen=True)
class SessionInfo:
    number: int
    opened_at: str
    closed_at: str | None
    options: Mapping[str, Any]  #: the kind's own data about the session (Simple Rummy: its table)


@dataclass(frozen=True)
class PlayerResult:
    """One player's line of a hand's result, as the ledger keeps it."""

    name: str
    points: int  #: added to the player's totals
    count: int | None = None  #: a low count (Simple Rummy S13), if the kind keeps one
    won: bool | None = None  #: won the hand (Simple Rummy), if the kind keeps it


@dataclass(frozen=True)
class HandInForce:
    """A hand as now in force (its latest entry): what folds over the history read."""

    hand: int
    session: int
    hand_in_session: int
    dealer: str | None
    kind: EntryKind  #: HAND, AMEND or VOID (a voided hand has no results)
    seq: int
    facts: Mapping[str, Any]
    results: tuple[PlayerResult, ...]


@dataclass(frozen=True)
class Status:
    """Whether the game is over, and who won (decided by the kind, kept by the ledger)."""

    over: bool = False
    winner: str | None = None
    tied: tuple[str, ...] = ()  #: leaders level past the target: play goes on until one leads (A7)


@dataclass(frozen=True)
class Draft:
    """What one write appends: an entry and its results. The ledger checks nothing of the rules:
    the kind has decided everything, including the game's status after the entry."""

    kind: EntryKind
    hand: int | None
    hand_in_session: int | None
    dealer: str | None
    facts: Mapping[str, Any]
    results: tuple[PlayerResult, ...] = ()
    reason: str | None = None
    target_seq: int | None = None  #: a correction: the entry it supersedes (checked: exit 7 if stale)
    status: Status | None = None  #: the game's status after this entry (None: unchanged)

    def points(self) -> dict[str, int]:
        return {r.name: r.points for r in self.results}


@dataclass(frozen=True)
class GameHeader:
    """A new game as the ledger keeps it: everything but the rules' meaning."""

    name: str
    ruleset: str
    ruleset_text: str
    target: int | None
    wildcards: int
    players: tuple[tuple[str, int], ...]  #: (name, opening total) in seat order
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """Everything a command knows of a game, read in one transaction: the header, the rule set
    (parsed once), where the log stands, the totals and the sessions; the hands in force only
    when the kind asked for them (``history``)."""

    game: Game
    ruleset: RuleSet
    position: Position
    totals: tuple[tuple[str, int], ...]  #: openings included, seat order
    sessions: tuple[SessionInfo, ...]
    dealt: int  #: hands entered in the open session (voided ones included)
    history: tuple[HandInForce, ...] | None = None
    session_points: tuple[tuple[str, int], ...] = ()  #: the open session's points so far
    status: Status | None = None  #: as the latest hand entry stated it (None: no hand yet)
    played: int = 0  #: hands that count in the open session (``dealt`` less those voided mid-session)
    #: the open session's hands and voids, in the log's order: ("hand" or "void", dealer) (A3/A4, SPEC §8)
    session_log: tuple[tuple[str, str], ...] = ()
    #: the dealer of the game's last hand in force before the open session (before the next one
    #: when none is open); None: no such hand
    dealt_before: str | None = None

    @property
    def kind(self) -> GameKind:
        from rummyref.games.registry import kind_for

        return kind_for(self.ruleset)

    @property
    def open_session(self) -> SessionInfo | None:
        last = self.sessions[-1] if self.sessions else None
        return last if last is not None and last.closed_at is None else None

    def hands(self) -> tuple[HandInForce, ...]:
        if self.history is None:
            raise RuntimeError("this context was read without the hands in force")
        return self.history

    def in_force(self, hand: int) -> HandInForce | None:
        return next((h for h in self.hands() if h.hand == hand), None)


# -- what the standings read: the cached aggregates, never the history -----------------------


@dataclass(frozen=True)
class PlayerAggregate:
    name: str
    opening: int
    points: int  #: won at the table (opening balance excluded)
    hands: int
    best: int | None
    worst: int | None
    nights_won: int


@dataclass(frozen=True)
class NightSummary:
    number: int
    date: str
    closed: bool
    hands: int
    points: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]  #: best score of the night (closed nights with hands only)


def night_winners(points: Sequence[tuple[str, int]], hands: int, closed: bool) -> tuple[str, ...]:
    if not closed or hands == 0 or not points:
        return ()
    best = max(p for _, p in points)
    return tuple(n for n, p in points if p == best)




@dataclass(frozen=True)
class Summary:
    """A game's cached totals, read with a fixed handful of queries whatever the history's length."""

    game: Game
    ruleset: RuleSet
    aggregates: tuple[PlayerAggregate, ...]
    hands: int
    sessions: int
    open_session: int | None
    last_session: date | None
    recent: tuple[NightSummary, ...]
    today: date
    context: Context | None = None  #: with the hands in force, when the kind asked for them
    dealt: int = 0  #: hands dealt in the open session (SPEC §8: a voided hand is not dealt)
    session_log: tuple[tuple[str, str], ...] = ()  #: the open session's hands and voids (:attr:`Context.session_log`)
    tied: tuple[str, ...] = ()  #: leaders level since a tie past the target, as the latest hand's entry says (A7)
    dealt_before: str | None = None  #: :attr:`Context.dealt_before`
