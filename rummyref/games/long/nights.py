"""Session structure of a long game, as pure functions (rules A2, A3, A4, A5, A7; SPEC §8).

Everything here works on plain values (names in deal order, totals, counts, dates):
the store and the CLI feed it, nothing here knows about either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from rummyref.errors import IntegrityError, RuleRefusal
from rummyref.games.base import deals_to_come


def _outside(what: str) -> IntegrityError:
    """A log that names a player the roster lacks: only a change made outside ``ref`` does that."""
    return IntegrityError(f"the record was changed outside ref: {what}",
                          hint="run ref verify; restore the database from a backup")


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
        who = deals_to_come(state.still_to_deal)
        raise RuleRefusal(
            f"the night cannot end in the middle of a round: {who} still "
            f"{'has' if len(state.still_to_deal) == 1 else 'have'} to deal "
            f"(hand {state.in_round + 1} of {len(roster)} in round {state.rounds + 1})",
            rule="A4",
            hint="A4: every player deals the same number of hands in a night; there is no 'last hand' call",
        )
    return state


@dataclass(frozen=True)
class Deal:
    """One hand dealt tonight: its place in the night, who dealt it, and whether the hand in
    force is a void (a misdeal, a hand entered by mistake: it was not a dealt hand, SPEC §8).
    A list of deals is in the order they were dealt; a void is taken to come before the next
    deal (for a void recorded later, see :func:`deal_state`, which reads the log's order)."""

    hand_in_night: int
    dealer: str
    void: bool = False


#: one step of a night's log, in the order it was recorded: ("hand", dealer) for a hand dealt,
#: ("void", dealer) for a hand of ``dealer`` voided (amendments change no deal and are left out)
Step = tuple[str, str]


@dataclass(frozen=True)
class NightState:
    """Where a night stands once voids are taken out (A3, A4, SPEC §8)."""

    dealt: tuple[tuple[str, int], ...]  #: hands in force each player dealt tonight, in deal order
    voided: int  #: hands voided tonight (they were not dealt hands)
    next_dealer: str
    still_to_deal: tuple[str, ...]  #: who must deal, in this order, for every player to have dealt as often
    owed: tuple[str, ...] = ()  #: whose voided hands are still to be dealt again, in the order they will be

    @property
    def hands(self) -> int:
        """Hands in force tonight."""
        return sum(n for _, n in self.dealt)

    @property
    def rounds(self) -> int:
        """Full rounds in force: every player has dealt this many hands."""
        return min(n for _, n in self.dealt)

    @property
    def mid_round(self) -> bool:
        return bool(self.still_to_deal)

    @property
    def abandoned(self) -> bool:
        """No hand in force: the night may close, and it does not count as a Rummy Night."""
        return self.hands == 0

    def round(self) -> RoundState:
        """The same, as the hand's footer and its JSON show it (``round``)."""
        in_round = self.hands - self.rounds * len(self.dealt)
        return RoundState(self.hands, self.rounds, in_round, self.next_dealer, self.still_to_deal)


def first_seat(roster: Sequence[str], dealt_before: str | None, a3: bool) -> int:
    """The seat that deals a session's first hand. A3 (Rummy 2,000,000's house rule): every
    night starts with the first seat. Without it the deal passes on across sessions as after
    every hand (500 Rum's R4): the seat after the dealer of the game's last hand in force
    before the session (``dealt_before``; the first seat when there is none)."""
    if a3 or dealt_before is None or dealt_before not in roster:
        return 0
    return (list(roster).index(dealt_before) + 1) % len(roster)


def deal_state(roster: Sequence[str], log: Sequence[Step], start: int = 0) -> NightState:
    """A3 and A4 with voids (SPEC §8), folded over the night's log in the order it was recorded.

    The deal goes round the roster. A voided hand is not a dealt hand: its dealer owes the deal
    and deals the next hand after the void; then the rotation resumes where it was. Voided last
    (a misdeal), its dealer simply deals again. Several deals owed at once are dealt the latest
    void first. The night is in full rounds when every player has dealt as many hands in force
    as the others.

    Every record reads: a hand dealt by the rotation's player (as ``ref`` before 0.2.1 dealt after
    a hand voided earlier) moves the rotation on, and the deal owed stays owed. ``start``: the
    seat that deals the session's first hand (:func:`first_seat`)."""
    n = len(roster)
    count = {name: 0 for name in roster}
    owed: list[str] = []
    at = start % n if n else 0  #: the seat whose turn it is in the rotation
    voided = 0
    for kind, dealer in log:
        if dealer not in count:
            raise _outside(f"{dealer} dealt a hand but is not on its roster")
        if kind == "void":
            count[dealer] -= 1
            owed.append(dealer)
            voided += 1
            continue
        count[dealer] += 1
        if owed and owed[-1] == dealer:
            owed.pop()
        elif dealer == roster[at]:
            at = (at + 1) % n
        elif dealer in owed:
            del owed[len(owed) - 1 - owed[::-1].index(dealer)]
        else:  # a deal out of turn that ref did not record: the rotation follows it
            at = (roster.index(dealer) + 1) % n
    due = tuple(reversed(owed))  # the latest void is dealt again first
    first = due[0] if due else roster[at]
    return NightState(tuple((name, count[name]) for name in roster), voided, first, _still(roster, count, due, at),
                      due)


def _still(roster: Sequence[str], count: Mapping[str, int], owed: Sequence[str], at: int) -> tuple[str, ...]:
    """The deals to come (the deals owed, in the order they are due, then the rotation) until
    every player has dealt as many hands in force as the others; () when they already have."""
    c, o, seat = dict(count), list(owed), at
    out: list[str] = []
    for _ in range(len(owed) + len(roster) + 1):
        if len(set(c.values())) <= 1:
            return tuple(out)
        if o:
            who = o.pop(0)
        else:
            who, seat = roster[seat], (seat + 1) % len(roster)
        c[who] += 1
        out.append(who)
    # not reached from a record ref wrote; whoever has dealt fewest, round the table from ``at``
    c, out = dict(count), []
    while len(set(c.values())) > 1:
        who = _next_dealer(roster, c, at)
        out.append(who)
        c[who] += 1
        at = (roster.index(who) + 1) % len(roster)
    return tuple(out)


def night_state(roster: Sequence[str], deals: Sequence[Deal]) -> NightState:
    """:func:`deal_state` of deals in the order they were dealt, each void taken to be recorded
    before the next deal."""
    log: list[Step] = []
    for d in sorted(deals, key=lambda d: d.hand_in_night):
        log.append(("hand", d.dealer))
        if d.void:
            log.append(("void", d.dealer))
    return deal_state(roster, log)


def _next_dealer(roster: Sequence[str], count: Mapping[str, int], start: int) -> str:
    """From seat ``start`` round the table, the first player who has dealt the fewest hands."""
    low = min(count.values())
    return next(roster[(start + i) % len(roster)] for i in range(len(roster)) if count[roster[(start + i) % len(roster)]] == low)


def check_end_of_night(state: NightState, game_over: bool) -> NightState:
    """A4 with voids: a night ends once the hands in force make full rounds (or the game is over,
    A7); a night with no hand in force may always close, as abandoned."""
    if state.mid_round and not game_over:
        who = deals_to_come(state.still_to_deal)
        raise RuleRefusal(
            f"the night cannot end in the middle of a round: {who} still "
            f"{'has' if len(set(state.still_to_deal)) == 1 else 'have'} to deal"
            + (f" ({state.voided} voided hand{'s' if state.voided != 1 else ''} did not count)" if state.voided else ""),
            rule="A4",
            hint="A4: every player deals the same number of hands in a night; a voided hand is dealt again",
        )
    return state


@dataclass(frozen=True)
class Outcome:
    """A7 at the end of a hand."""

    over: bool
    winner: str | None
    passed: tuple[str, ...]  #: everyone at or past the target
    tied: tuple[str, ...]  #: leaders exactly level at or past the target (play goes on)
    ended_at: int | None = None  #: the hand at whose end the game ended (:func:`game_status`)
    after_end: tuple[int, ...] = ()  #: hands in force recorded after the one that ended the game
    level_at: int | None = None  #: the game ended after an exact tie past the target at this hand


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


def check_openings(openings: Mapping[str, int], target: int | None) -> None:
    """A7: an opening total at or past the target is refused: the game would be over before
    it began (SPEC §8)."""
    past = [(n, t) for n, t in openings.items() if target is not None and t >= target]
    if past:
        said = ", ".join(f"{n}'s {t:,}" for n, t in past)
        raise RuleRefusal(
            f"an opening total at or past the target ({target:,}) would end the game before it "
            f"began: {said}",
            rule="A7",
            hint="the game is over once a total passes the target; record a finished game's winner on paper",
        )


def game_status(
    openings: Mapping[str, int], hands: Sequence[tuple[int, Mapping[str, int]]], target: int | None,
    legacy_upto: int = 0,
) -> Outcome:
    """A7 after every hand, amend and void (SPEC §8): a fold over the hands in force, in order.

    ``openings``: each player's opening total; ``hands``: (hand number, points) of each hand
    in force, voided hands left out, amended ones as amended. The game ends at the end of the
    first hand after which a total is at or past the target and one player alone holds the
    greatest total; after an exact tie for the greatest total past the target, at the end of
    the first later hand after which one player leads alone, whatever the totals then are.
    Hands in force after that one (a correction moved the end before them) are named in
    ``after_end``: the caller decides what they mean; ``level_at`` names the hand of the tie
    when the game ended through one.

    ``legacy_upto``: the hands up to this number were played under ref 0.1, whose rule is kept
    for them (history): a tie past the target arms nothing, and the game went on."""
    totals = dict(openings)
    level = False  #: an exact tie past the target has happened: the next sole leader wins
    level_at: int | None = None
    for i, (number, points) in enumerate(hands):
        for name, value in points.items():
            if name not in totals:
                raise _outside(f"hand {number} scores {name}, who is not on its roster")
            totals[name] += value
        best = max(totals.values())
        leaders = tuple(n for n, t in totals.items() if t == best)
        passed = tuple(n for n, t in totals.items() if target is not None and t >= target)
        if number <= legacy_upto:  # 0.1's rule, as its record was played: over at a sole leader past the mark
            if passed and len(leaders) == 1:
                return Outcome(True, leaders[0], passed, (), number, tuple(n for n, _ in hands[i + 1:]))
            continue
        if not (level or passed):
            continue
        if len(leaders) == 1:
            after = tuple(n for n, _ in hands[i + 1:])
            return Outcome(True, leaders[0], passed, (), number, after, level_at)
        level = True
        level_at = number if level_at is None else level_at
    if not level:
        passed = tuple(n for n, t in totals.items() if target is not None and t >= target)
        return Outcome(False, None, passed, ())
    best = max(totals.values())
    return Outcome(False, None, tuple(n for n, t in totals.items() if target is not None and t >= target),
                   tuple(n for n, t in totals.items() if t == best))


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
    n = -(-to_go * nights // points)  # ceil(to_go / (points / nights)) in integers: exact
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
    """A7 at the end of one more hand, given whether leaders were level past the target before
    it (the step :func:`game_status` folds, for a new hand: no history needed).

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
