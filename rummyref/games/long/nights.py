"""Session structure of a long game, as pure functions (rules A2, A3, A4, A5, A7).

Everything here works on plain values (names in deal order, totals, counts, dates):
the store and the CLI feed it, nothing here knows about either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Sequence

from rummyref.errors import RuleRefusal


def dealer_of(hand_in_session: int, roster: Sequence[str]) -> str:
    """A3: the dealer of the N-th hand of a night (1-based); every night starts with the first seat."""
    if hand_in_session < 1:
        raise ValueError("hands are numbered from 1")
    return roster[(hand_in_session - 1) % len(roster)]


@dataclass(frozen=True)
class RoundState:
    """Where a night stands: how many hands and full rounds, and who deals next."""

    hands: int
    rounds: int  #: full rounds completed
    in_round: int  #: hands dealt in the round under way (0 = between rounds)
    next_dealer: str
    still_to_deal: tuple[str, ...]  #: who must still deal to finish the round under way

    @property
    def mid_round(self) -> bool:
        return self.in_round != 0


def round_state(hands_in_session: int, roster: Sequence[str]) -> RoundState:
    n = len(roster)
    in_round = hands_in_session % n
    return RoundState(
        hands=hands_in_session,
        rounds=hands_in_session // n,
        in_round=in_round,
        next_dealer=roster[in_round],
        still_to_deal=tuple(roster[in_round:]) if in_round else (),
    )


def check_end_of_session(hands_in_session: int, roster: Sequence[str], game_over: bool) -> RoundState:
    """A4: a night ends only after full rounds; A7 (the game is over) is the one exception."""
    state = round_state(hands_in_session, roster)
    if state.mid_round and not game_over:
        who = ", ".join(state.still_to_deal)
        raise RuleRefusal(
            f"the night cannot end in the middle of a round: {who} still "
            f"{'has' if len(state.still_to_deal) == 1 else 'have'} to deal "
            f"(hand {state.in_round + 1} of {len(roster)} in round {state.rounds + 1})",
            rule="A4",
            hint="A4: every player deals the same number of hands in a night; there is no 'last hand' call",
        )
    return state


@dataclass(frozen=True)
class Outcome:
    """A7 at the end of a hand."""

    over: bool
    winner: str | None
    passed: tuple[str, ...]  #: everyone at or past the target
    tied: tuple[str, ...]  #: leaders exactly level at or past the target (play goes on)


def game_outcome(totals: Sequence[tuple[str, int]], target: int | None) -> Outcome:
    """A7: a total at or past the target ends the game; the greatest total wins;
    leaders exactly level play on hand by hand until one leads at the end of a hand."""
    if target is None or not totals:
        return Outcome(False, None, (), ())
    passed = tuple(name for name, total in totals if total >= target)
    if not passed:
        return Outcome(False, None, (), ())
    best = max(total for _, total in totals)
    leaders = tuple(name for name, total in totals if total == best)
    if len(leaders) > 1:
        return Outcome(False, None, passed, leaders)
    return Outcome(True, leaders[0], passed, ())


def ranks(totals: Sequence[tuple[str, int]]) -> dict[str, int]:
    """Competition ranking by total (equal totals share a rank)."""
    ordered = sorted((t for _, t in totals), reverse=True)
    return {name: ordered.index(total) + 1 for name, total in totals}


@dataclass(frozen=True)
class Dibs:
    pick: int
    name: str
    seat: str  #: "first pick", "second pick", ..., "the floor"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def seating_dibs(totals: Sequence[tuple[str, int]]) -> tuple[Dibs, ...]:
    """A2: first place picks a seat first, then second place...; last place sits on the floor.
    Equal totals keep deal order (the order of ``totals``)."""
    order = sorted(range(len(totals)), key=lambda i: (-totals[i][1], i))
    out = []
    for pick, i in enumerate(order, 1):
        last = pick == len(order) and len(order) > 1
        seat = "the floor" if last else f"{_ORDINALS[pick - 1] if pick <= len(_ORDINALS) else str(pick)} pick"
        out.append(Dibs(pick, totals[i][0], seat))
    return tuple(out)


@dataclass(frozen=True)
class Pace:
    """Points per Rummy Night so far and when the target would be reached at that pace."""

    per_night: float | None
    nights_to_go: int | None  #: None: never at this pace (or no nights yet)
    projected: date | None


def pace(points: int, nights: int, to_go: int, last_night: date | None, today: date) -> Pace:
    """Pace from the points won at the table (opening balances excluded) over the nights played;
    the projection assumes one Rummy Night a week (A5), the next one no earlier than today."""
    if nights <= 0:
        return Pace(None, None, None)
    per_night = points / nights
    if to_go <= 0:
        return Pace(per_night, 0, None)
    if per_night <= 0:
        return Pace(per_night, None, None)
    n = math.ceil(to_go / per_night)
    start = max(today, (last_night or today) + timedelta(days=7))
    try:
        projected: date | None = start + timedelta(days=7 * (n - 1))
    except OverflowError:  # beyond the calendar (year 9999) at this pace
        projected = None
    return Pace(per_night, n, projected)


@dataclass(frozen=True)
class Gap:
    days: int | None
    overdue: bool  #: A5: more than a week since the last Rummy Night


def gap_since(last_night: date | None, today: date, week: int = 7) -> Gap:
    if last_night is None:
        return Gap(None, False)
    days = (today - last_night).days
    return Gap(days, days > week)


def next_status(totals: Sequence[tuple[str, int]], target: int | None, tied_before: Sequence[str] = ()) -> Outcome:
    """A7 at the end of a hand, given whether leaders were level past the target before it.

    After an exact tie for the greatest total past the mark, the game ends at the end of the
    first later hand after which one player leads alone, whatever the totals then are (SPEC §8)."""
    outcome = game_outcome(totals, target)
    if outcome.over or outcome.tied or not tied_before or not totals:
        return outcome
    best = max(t for _, t in totals)
    leaders = tuple(n for n, t in totals if t == best)
    if len(leaders) == 1:
        return Outcome(True, leaders[0], outcome.passed, ())
    return Outcome(False, None, outcome.passed, leaders)


def fold_status(
    openings: dict[str, int],
    hands: Sequence[tuple[int, dict[str, int]]],
    target: int | None,
    roster: Sequence[str],
) -> tuple[Outcome, tuple[tuple[str, int], ...]]:
    """A7 recomputed from the hands in force, in order (after an amend or a void): the outcome
    at the end of the first hand that ends the game (or after the last hand), and the totals now."""
    running = {n: openings.get(n, 0) for n in roster}
    outcome = Outcome(False, None, (), ())
    final: Outcome | None = None
    for _, points in hands:
        for n, p in points.items():
            running[n] = running.get(n, 0) + p
        if final is None:
            outcome = next_status(tuple(running.items()), target, outcome.tied)
            if outcome.over:
                final = outcome
    totals = tuple((n, running[n]) for n in roster)
    return (final or outcome), totals
