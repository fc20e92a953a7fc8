"""The exact meld engine: best melding, fewest unmelded, going-out checks (SPEC §5).

The library API (documented in the README):

- :func:`best_melding` — the lowest count of unmelded cards and one arrangement that reaches it;
- :func:`fewest_unmelded` — the same, minimising the number of unmelded cards;
- :func:`go_out_check` — can the hand go out (at most one card left, none, exactly one; with
  Sequences Rummy's condition);
- :func:`arrange_all` — an arrangement for scoring melded cards (every card melded if possible,
  most cards in sequences: rule B5's default);
- :func:`meld_value` — what a melded meld is worth (rummy-2m scoring).

Hands are multisets: natural cards are distinct (callers run ``check_deck``), any number of
WILDCARDs. The answer depends only on the multiset, never on the order of the input.

How: hands without WILDCARDs where no card could serve two melds are answered straight
from bitmasks; everything else goes through the dynamic programme over ranks in
:mod:`rummyref.core.meld_dp`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rummyref.core import meld_dp as dp
from rummyref.core.cards import DECK, SUITS, WILD, Card
from rummyref.core.melds import HIGH_ACE, Meld, MeldKind, as_group
from rummyref.core.rulesets import RuleSet

GOING_OUT_MODES = ("at-most-one", "all", "exactly-one")


@dataclass(frozen=True)
class Solution:
    """An arrangement of a hand: melds and the cards left unmelded.

    ``count`` is the sum of the values of the unmelded cards (for :func:`fewest_unmelded`,
    their number)."""

    count: int
    melds: tuple[Meld, ...]
    unmelded: tuple[Card, ...]


@dataclass(frozen=True)
class GoOut:
    """The answer of :func:`go_out_check`. ``arrangement`` goes out when ``ok``; otherwise it is
    the best try (fewest unmelded cards). Its ``count`` is the value of its unmelded cards."""

    ok: bool
    mode: str  #: "at-most-one" | "all" | "exactly-one"
    arrangement: Solution | None
    reason: str


# -- values -------------------------------------------------------------------------------


def card_value(card: Card, ruleset: RuleSet) -> int:
    """What a card counts when it is left unmelded."""
    return ruleset.wild_unmelded if card.rank is None else ruleset.values[card.rank]


def meld_value(meld: Meld, ruleset: RuleSet) -> int:
    """What a melded meld is worth (rummy-2m scoring).

    A natural card counts its value, except an ace at the low end of a sequence (A-2-3...),
    which counts ``ace_low_run_value``. A WILDCARD counts the card it stands for (same ace
    rule) when the rule set says ``melded = "represented"``, else that fixed value; the
    WILDCARDs of an all-WILDCARD meld count the rule set's unmelded WILDCARD value each."""
    total = 0
    low_ace = meld.ace_low
    for card, rep in zip(meld.cards, meld.represents):
        if card.rank is None:
            if rep is None:
                total += ruleset.wild_unmelded
                continue
            if ruleset.wild_melded != "represented":
                total += int(ruleset.wild_melded)
                continue
            card = rep
        if card.rank == 1 and low_ace:
            total += ruleset.ace_low_run_value
        else:
            total += ruleset.values[card.rank]  # type: ignore[index]
    return total


# -- hands as bitmasks --------------------------------------------------------------------

_SUIT_OFFSET = {s._value_: i for i, s in enumerate(SUITS)}  # "S" -> 0 ...


def _masks(cards: Sequence[Card]) -> tuple[list[int], int]:
    masks = [0, 0, 0, 0]
    w = 0
    offs = _SUIT_OFFSET
    for c in cards:
        r = c.rank
        if r is None:
            w += 1
        else:
            masks[offs[c.suit._value_]] |= 1 << (r - 1)  # type: ignore[union-attr]
    return masks, w


def _card(suit: int, pos: int) -> Card:
    return DECK[suit * 13 + (0 if pos == HIGH_ACE else pos - 1)]


def _mask_cards(masks: Sequence[int]) -> list[Card]:
    out = []
    for i, m in enumerate(masks):
        base = i * 13
        while m:
            low = m & -m
            out.append(DECK[base + low.bit_length() - 1])
            m ^= low
    return out


def _mask_value(masks: Sequence[int], values: Sequence[int]) -> int:
    total = 0
    for m in masks:
        while m:
            low = m & -m
            total += values[low.bit_length()]
            m ^= low
    return total


# -- an arrangement under construction ----------------------------------------------------


class _Plan:
    """Runs (suit, start, positions with a natural) and groups (rank, suits) before they become Melds."""

    def __init__(self) -> None:
        self.runs: list[list] = []  # [suit, start, length, natural positions (set)]
        self.groups: list[list] = []  # [rank, [suits], extra WILDCARDs]
        self.wild_melds: list[int] = []
        self.unmelded: list[Card] = []
        self.wild_unmelded = 0

    def add_run(self, suit: int, positions: list[int], naturals: set[int]) -> None:
        """A run over consecutive ``positions``; split into pieces of 3+ if over 13 cards."""
        if not naturals:
            self.wild_melds.append(len(positions))
            return
        start, n = positions[0], len(positions)
        while n > 13:
            first = n // 2
            self.runs.append([suit, start, first, {p for p in naturals if start <= p < start + first}])
            start, n = start + first, n - first
        self.runs.append([suit, start, n, {p for p in naturals if start <= p < start + n}])

    @property
    def has_meld(self) -> bool:
        return bool(self.runs or self.groups or self.wild_melds)

    def absorb(self, extra: int, keep_natural: int = 0) -> None:
        """Place ``extra`` leftover WILDCARDs into melds (a meld must exist, or extra >= 3).

        Three or more make their own meld(s) of 3+ (every one may count as a sequence); one
        or two join a group, else a run with a WILDCARD already, else a natural run beyond the
        ``keep_natural`` that must stay natural; a run of 13 is split first."""
        if extra <= 0:
            return
        if extra >= 3:
            n = extra // 3
            sizes = [3] * n
            sizes[-1] += extra - 3 * n
            self.wild_melds.extend(sizes)
            return
        if self.groups:
            self.groups[0][2] += extra
            return
        if self.wild_melds:
            self.wild_melds[0] += extra
            return
        natural_runs = [r for r in self.runs if len(r[3]) == r[2]]
        spare = len(natural_runs) - keep_natural
        order = [r for r in self.runs if len(r[3]) != r[2]] + (natural_runs[keep_natural:] if spare > 0 else [])
        if not order:
            order = sorted(self.runs, key=lambda r: -r[2])  # split a long natural run
        for _ in range(extra):
            self._extend(order[0])

    def absorb_into_runs(self, extra: int) -> None:
        """Leftover WILDCARDs extend runs (so they count as cards in sequences)."""
        for _ in range(extra):
            self._extend(min(self.runs, key=lambda r: (r[2] == 13, -r[2])))

    def _extend(self, run: list) -> None:
        suit, start, n, nats = run
        end = start + n - 1
        if n == 13:  # split off the top three, then grow the rest by one
            top = [suit, end - 2, 3, {p for p in nats if p >= end - 2}]
            run[2] = n - 3
            run[3] = {p for p in nats if p < end - 2}
            self.runs.append(top)
            self._extend(run)
            return
        ceiling = 13 if start == 1 else HIGH_ACE if self.aces_high else 13
        floor = 2 if end == HIGH_ACE else 1
        if end < ceiling:
            run[2] = n + 1
        elif start > floor:
            run[1] = start - 1
            run[2] = n + 1

    aces_high = False

    def clone(self) -> "_Plan":
        other = _Plan()
        other.runs = [[r[0], r[1], r[2], set(r[3])] for r in self.runs]
        other.groups = [[g[0], list(g[1]), g[2]] for g in self.groups]
        other.wild_melds = list(self.wild_melds)
        other.unmelded = list(self.unmelded)
        other.wild_unmelded = self.wild_unmelded
        other.aces_high = self.aces_high
        return other

    def split_long_runs(self) -> None:
        """Cut runs of 6+ into pieces of 3 (the last 3-5): more sequences (V3)."""
        out = []
        for suit, start, n, nats in self.runs:
            while n >= 6:
                out.append([suit, start, 3, {p for p in nats if p < start + 3}])
                start, n = start + 3, n - 3
            out.append([suit, start, n, {p for p in nats if p >= start}])
        self.runs = [r for r in out if r[3]] + []
        self.wild_melds += [r[2] for r in out if not r[3]]

    def leave_one_out(self) -> bool:
        """Leave one card of a meld of 4+ unmelded (exactly one card left). False if none."""
        for i, n in enumerate(self.wild_melds):
            if n >= 4:
                self.wild_melds[i] -= 1
                self.wild_unmelded += 1
                return True
        for g in self.groups:
            if len(g[1]) + g[2] >= 4:
                if g[2]:
                    g[2] -= 1
                    self.wild_unmelded += 1
                else:
                    self.unmelded.append(DECK[g[1].pop() * 13 + g[0] - 1])
                return True
        for run in self.runs:
            suit, start, n, nats = run
            if n >= 4 and len(nats) >= 2:
                top = start + n - 1
                run[2] = n - 1
                if top in nats:
                    nats.discard(top)
                    self.unmelded.append(_card(suit, top))
                else:
                    self.wild_unmelded += 1
                if not nats:
                    return False
                return True
        return False

    def sequence_counts(self) -> tuple[int, int]:
        """(sequences incl. all-WILDCARD melds, natural sequences)."""
        natural = sum(1 for r in self.runs if len(r[3]) == r[2])
        return len(self.runs) + len(self.wild_melds), natural

    def melds(self) -> tuple[Meld, ...]:
        out = []
        for suit, start, n, nats in sorted(self.runs, key=lambda r: (r[0], r[1])):
            if not nats:
                out.append(Meld(MeldKind.WILD, (WILD,) * n, (None,) * n))
                continue
            cards, reps = [], []
            for pos in range(start, start + n):
                rep = _card(suit, pos)
                reps.append(rep)
                cards.append(rep if pos in nats else WILD)
            out.append(Meld(MeldKind.SEQUENCE, tuple(cards), tuple(reps), start))
        for rank, suits, extra in sorted(self.groups, key=lambda g: g[0]):
            meld = as_group([DECK[s * 13 + rank - 1] for s in suits] + [WILD] * extra)
            assert meld is not None
            out.append(meld)
        for n in self.wild_melds:
            out.append(Meld(MeldKind.WILD, (WILD,) * n, (None,) * n))
        return tuple(out)

    def unmelded_cards(self) -> tuple[Card, ...]:
        return tuple(sorted(self.unmelded, key=Card.sort_key)) + (WILD,) * self.wild_unmelded


def _plan_from_actions(masks: Sequence[int], acts: list[int], rich: bool, aces_high: bool) -> _Plan:
    """Turn the programme's per-position actions into runs, groups and unmelded cards."""
    plan = _Plan()
    plan.aces_high = aces_high
    bits, amask = (3, 7) if rich else (2, 3)
    for suit in range(4):
        current: list[int] = []
        nats: set[int] = set()
        for p, act in enumerate(acts, start=1):
            a = (act >> bits * suit) & amask
            if rich and a >= 6:  # the run ends here; a new one starts with WILDCARDs over its end
                current.append(p)
                if p == HIGH_ACE or (masks[suit] >> (p - 1)) & 1:
                    nats.add(p)
                plan.add_run(suit, current, nats)
                current, nats = list(range(p - (a - 6), p + 1)), set()
                continue
            in_run = a in (1, 2) or (rich and a in (4, 5))
            new_run = rich and a in (4, 5)
            if current and (not in_run or new_run):
                plan.add_run(suit, current, nats)
                current, nats = [], set()
            if in_run:
                current.append(p)
                if a in (1, 4):
                    nats.add(p)
        if current:
            plan.add_run(suit, current, nats)
    grouped_bit = 1 << 12 if rich else dp.GROUPED
    high = 0  # aces that end a run at position 14 are not at position 1
    if len(acts) >= 14:
        high = sum(1 << s for s in range(4) if (acts[13] >> bits * s) & amask in (1, 4))
    for p, act in enumerate(acts, start=1):
        if p > 13:
            continue
        pooled = []
        for suit in range(4):
            if (masks[suit] >> (p - 1)) & 1 and (act >> bits * suit) & amask == 0:
                if p == 1 and high >> suit & 1:
                    continue
                pooled.append(suit)
        if not pooled:
            continue
        if act & grouped_bit:
            plan.groups.append([p, pooled, max(0, 3 - len(pooled))])
        else:
            plan.unmelded.extend(DECK[s * 13 + p - 1] for s in pooled)
    return plan


# -- the fast path: no WILDCARD, no card wanted by two melds --------------------------------

_LOW13 = (1 << 13) - 1


def _direct(masks: Sequence[int], aces_high: bool) -> _Plan | None:
    """Without WILDCARDs: every card that can meld, if no card could serve two melds."""
    a, b, c, d = masks
    g3 = (a & b & (c | d)) | (c & d & (a | b))  # ranks with 3+ cards
    plan = _Plan()
    plan.aces_high = aces_high
    for suit, m in enumerate(masks):
        if aces_high and m & 1:
            x = m | (1 << 13)
        else:
            x = m
        t = x & (x >> 1) & (x >> 2)
        e = t | (t << 1) | (t << 2)
        if not e:
            continue
        if e & 1 and e >> 13 & 1:
            return None  # the ace is wanted low and high
        low = (e | (e >> 13)) & _LOW13
        if low & g3:
            return None  # a card is wanted by a run and by a group
        # each maximal stretch of e is one run
        while e:
            lowbit = e & -e
            start = lowbit.bit_length()
            run_len = 0
            y = e >> (start - 1)
            while y & 1:
                run_len += 1
                y >>= 1
            positions = list(range(start, start + run_len))
            plan.add_run(suit, positions, set(positions))
            e &= ~(((1 << run_len) - 1) << (start - 1))
    rank_bits = g3
    while rank_bits:
        lowbit = rank_bits & -rank_bits
        r = lowbit.bit_length()
        plan.groups.append([r, [s for s in range(4) if masks[s] >> (r - 1) & 1], 0])
        rank_bits ^= lowbit
    return plan


def _greedy(masks: Sequence[int], w: int, aces_high: bool, values: Sequence[int]) -> tuple[_Plan, int, int]:
    """A quick arrangement (an upper bound for the exact search): natural runs, then groups,
    then WILDCARDs spent where they meld the most value each. Returns (plan, natural cost,
    WILDCARDs left)."""
    plan = _Plan()
    plan.aces_high = aces_high
    left = list(masks)
    for suit, m in enumerate(masks):
        x = m
        t = x & (x >> 1) & (x >> 2)
        e = t | (t << 1) | (t << 2)
        if aces_high and m & 1 and not e & 1:
            y = (m >> 1) | ((m & 1) << 12)  # bit j = position j + 2
            t = y & (y >> 1) & (y >> 2)
            if (t | (t << 1) | (t << 2)) >> 12 & 1:
                e = (t | (t << 1) | (t << 2)) << 1  # bit j = position j + 1
        while e:
            lowbit = e & -e
            start = lowbit.bit_length()
            n = 0
            while (e >> (start - 1 + n)) & 1:
                n += 1
            positions = list(range(start, start + n))
            plan.add_run(suit, positions, set(positions))
            e &= ~(((1 << n) - 1) << (start - 1))
            for p in positions:
                left[suit] &= ~(1 << (0 if p == HIGH_ACE else p - 1))
    a, b, c, d = left
    g3 = (a & b & (c | d)) | (c & d & (a | b))
    bits = g3
    while bits:
        lowbit = bits & -bits
        r = lowbit.bit_length()
        suits = [s for s in range(4) if left[s] >> (r - 1) & 1]
        plan.groups.append([r, suits, 0])
        for s in suits:
            left[s] &= ~lowbit
        bits ^= lowbit
    budget = w
    while budget and any(left):
        best = None  # (gain per wild, gain, wilds, action)
        for r in range(1, 14):
            suits = [s for s in range(4) if left[s] >> (r - 1) & 1]
            if len(suits) == 2:
                cand = (values[r], 2 * values[r], 1, ("group", r, suits))
                if best is None or cand[:2] > best[:2]:
                    best = cand
            elif len(suits) == 1 and budget >= 2:
                cand = (values[r] / 2, values[r], 2, ("group", r, suits))
                if best is None or cand[:2] > best[:2]:
                    best = cand
        for run in plan.runs:  # a card two places beyond a run's end: one WILDCARD between
            suit, start, n, nats = run
            for pos, new_start in ((start + n + 1, start), (start - 2, start - 2)):
                if 1 <= pos <= 13 and n + 2 <= 13 and left[suit] >> (pos - 1) & 1:
                    cand = (values[pos], values[pos], 1, ("extend", run, pos, new_start))
                    if best is None or cand[:2] > best[:2]:
                        best = cand
        for suit, m in enumerate(left):
            for gap in (1, 2):
                pairs = m & (m >> gap)
                while pairs:
                    lowbit = pairs & -pairs
                    r = lowbit.bit_length()
                    gain = values[r] + values[r + gap]
                    cand = (gain, gain, 1, ("run", suit, r, gap))
                    if best is None or cand[:2] > best[:2]:
                        best = cand
                    pairs ^= lowbit
        if best is None:
            break
        _ratio, _gain, cost, action = best
        if action[0] == "extend":
            _, run, pos, new_start = action
            run[1], run[2] = new_start, run[2] + 2
            run[3].add(pos)
            left[run[0]] &= ~(1 << (pos - 1))
        elif action[0] == "group":
            _, r, suits = action
            plan.groups.append([r, suits, cost])
            for s in suits:
                left[s] &= ~(1 << (r - 1))
        else:
            _, suit, r, gap = action
            start = r if r + 2 <= 13 else 11
            plan.add_run(suit, [start, start + 1, start + 2], {r, r + gap})
            left[suit] &= ~((1 << (r - 1)) | (1 << (r + gap - 1)))
        budget -= cost
    plan.unmelded = _mask_cards(left)
    cost = sum(values[card.rank] for card in plan.unmelded)  # type: ignore[index]
    return plan, cost, budget


def _melded_masks(plan: _Plan) -> list[int]:
    melded = [0, 0, 0, 0]
    for suit, _start, _n, nats in plan.runs:
        for p in nats:
            melded[suit] |= 1 << (0 if p == HIGH_ACE else p - 1)
    for rank, suits, _ in plan.groups:
        for s in suits:
            melded[s] |= 1 << (rank - 1)
    return melded


# -- the searches ---------------------------------------------------------------------------


BIG_HAND = 24  #: natural cards from which an exact search at bound 0 is tried first
SPLIT_ACES_FROM = 12  #: natural cards from which hands with 2+ aces that may be high are split
FEWEST_WEIGHT = 1 << 24  #: per unmelded card, when minimising their number (value breaks ties)


def _search_plan(masks: list[int], w: int, ruleset: RuleSet, fewest: bool = False) -> tuple[_Plan, int]:
    """One optimal arrangement of the natural cards (lowest count, or ``fewest`` unmelded
    then lowest count) and the number of WILDCARDs it leaves over (not yet placed)."""
    aces_high = ruleset.aces_high
    if w == 0:
        plan = _direct(masks, aces_high)
        if plan is not None:
            melded = _melded_masks(plan)
            plan.unmelded = _mask_cards([m & ~x for m, x in zip(masks, melded)])
            return plan, 0
    values = tuple(FEWEST_WEIGHT + v for v in ruleset.values) if fewest else ruleset.values
    quick, bound, quick_left = _greedy(masks, w, aces_high, values)
    if bound == 0:
        return quick, quick_left

    def search(limit: int, aces: str = "exact"):
        return dp.min_cost(masks, w, aces_high, values, dp.BEST, bound=limit, aces=aces)

    found = None
    kept_aces = dp.deferrable(masks, w, aces_high).bit_count()
    n_naturals = sum(m.bit_count() for m in masks)
    if w and n_naturals >= BIG_HAND:
        found = search(0, "low" if kept_aces else "exact")  # dense hands: often every card melds
    if found is None and kept_aces >= 2 and n_naturals >= SPLIT_ACES_FROM:
        found = _by_high_aces(masks, w, aces_high, values, bound)
    if found is None:
        found = search(bound)
    assert found is not None
    _cost, state, acts = found
    return _plan_from_actions(masks, acts, False, aces_high), w - (state >> dp.KS)


def _by_high_aces(masks, w: int, aces_high: bool, values, bound: int):
    """Aces that may be kept for Q-K-A runs multiply the search's states. Instead: a lower bound
    with aces free to play high (exact if it keeps only aces it plays high), then one search per
    choice of the aces played high (none first, then the relaxed answer's choice), each only
    looking for something cheaper than the best so far, until the lower bound is reached."""
    relaxed = dp.min_cost(masks, w, aces_high, values, dp.BEST, bound=bound, aces="relaxed")
    if relaxed is None:
        return None
    if _aces_consistent(relaxed[2]):
        return relaxed
    floor = relaxed[0]
    candidates = dp.deferrable(masks, w, aces_high)
    hinted = _high_aces(relaxed[2]) & candidates
    subsets = list(dict.fromkeys([0, hinted] + [d for d in range(1, 16) if d & candidates == d]))
    best = None
    limit = bound
    for high in subsets:
        found = dp.min_cost(masks, w, aces_high, values, dp.BEST, bound=limit, aces="fixed", high=high)
        if found is not None and (best is None or found[0] < best[0]):
            best = found
            if best[0] <= floor:
                break
            limit = best[0] - 1
    return best


def _high_aces(acts: list[int]) -> int:
    """The suits whose ace ends a run at position 14."""
    if len(acts) < 14:
        return 0
    return sum(1 << i for i in range(4) if (acts[13] >> 2 * i) & 3 == dp.A_NAT)


def _aces_consistent(acts: list[int]) -> bool:
    """In a relaxed search: every ace kept at position 1 ends a run at 14, and no other does."""
    if len(acts) < 14:
        return True
    for i in range(4):
        kept = (acts[0] >> 2 * i) & 3 == dp.A_DEFER
        high = (acts[13] >> 2 * i) & 3 == dp.A_NAT
        if kept != high:
            return False
    return True


def _optimal_plan(masks: list[int], w: int, ruleset: RuleSet, fewest: bool = False) -> _Plan:
    """:func:`_search_plan` with the leftover WILDCARDs placed."""
    plan, left = _search_plan(masks, w, ruleset, fewest)
    if plan.has_meld or left >= 3:
        plan.absorb(left)
    elif left:
        # no meld: the WILDCARDs stay unmelded, unless a meld of worthless cards exists
        if not fewest:
            alt = _optimal_plan(masks, w, ruleset, fewest=True)
            if alt.has_meld and _plan_cost(alt, ruleset) <= _plan_cost(plan, ruleset) + left * ruleset.wild_unmelded:
                return alt
        plan.wild_unmelded = left
    return plan


def _plan_cost(plan: _Plan, ruleset: RuleSet) -> int:
    return sum(ruleset.values[c.rank] for c in plan.unmelded) + plan.wild_unmelded * ruleset.wild_unmelded  # type: ignore[index]


def _solution(plan: _Plan, count: int) -> Solution:
    return Solution(count, plan.melds(), plan.unmelded_cards())


def best_melding(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """The arrangement with the lowest count: the sum of the values of the unmelded cards
    (``ruleset.values``; an unmelded WILDCARD counts ``ruleset.wild_unmelded``)."""
    masks, w = _masks(cards)
    plan = _optimal_plan(masks, w, ruleset)
    return _solution(plan, _plan_cost(plan, ruleset))


def fewest_unmelded(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """The arrangement with the fewest unmelded cards; ``count`` is their number."""
    masks, w = _masks(cards)
    plan = _optimal_plan(masks, w, ruleset, fewest=True)
    return _solution(plan, len(plan.unmelded) + plan.wild_unmelded)


def _allowed(mode: str) -> tuple[int, ...]:
    try:
        return {"at-most-one": (0, 1), "all": (0,), "exactly-one": (1,)}[mode]
    except KeyError:
        raise ValueError(f"unknown going-out mode {mode!r}; modes: {', '.join(GOING_OUT_MODES)}") from None


def _leftover_choice(state, w: int, allowed, sequences: int, natural_sequences: int, v3: bool):
    """How the WILDCARDs left after the programme can be placed: (unmelded, absorbed) or None."""
    _codes, _dm, k, unm, seq, nat, ab = state
    r = w - k
    for u in (0, 1):
        if u > r or unm + u not in allowed:
            continue
        a = r - u
        extra_seq = a // 3 if a >= 3 else 0
        if 0 < a < 3 and not (ab or (v3 and nat > natural_sequences) or (not v3 and nat)):
            continue
        if seq + extra_seq >= sequences and nat >= natural_sequences:
            return u, a
    return None


def go_out_check(
    cards: Sequence[Card],
    ruleset: RuleSet,
    mode: str = "at-most-one",
    sequences: int = 0,
    natural_sequences: int = 0,
) -> GoOut:
    """Can the hand go out? ``mode``: at most one card left unmelded (S9, the default), none
    ("all", V1 Major) or exactly one ("exactly-one", V1 Minor). ``sequences`` and
    ``natural_sequences`` add Sequences Rummy's condition (V3): that many sequences or more,
    that many of them natural (no WILDCARD); an all-WILDCARD meld counts as a sequence but
    never as a natural one.

    The fewest-unmelded arrangement answers most hands (reshaped when needed: a long run split,
    one card of a long meld left out); the rest go to an exact search."""
    allowed = _allowed(mode)
    masks, w = _masks(cards)
    v3 = bool(sequences or natural_sequences)
    raw, left = _search_plan(masks, w, ruleset, fewest=True)
    fewest = raw.clone()
    if fewest.has_meld or left >= 3:
        fewest.absorb(left)
    else:
        fewest.wild_unmelded = left
    best_try = _solution(fewest, _plan_cost(fewest, ruleset))
    n_left = len(best_try.unmelded)
    if n_left > max(allowed):
        return GoOut(False, mode, best_try, _fail_reason(best_try, mode, sequences, natural_sequences, len(cards)))
    if not v3 and n_left in allowed:
        return GoOut(True, mode, best_try, _ok_reason(mode, n_left))
    if natural_sequences and not _has_natural_run(masks, ruleset.aces_high):
        reason = "no natural sequence (three cards or more in a row of one suit, no WILDCARD) in the hand"
        return GoOut(False, mode, best_try, reason)
    quick = _reshape(raw, left, allowed, sequences, natural_sequences)
    if quick is not None:
        solution = _solution(quick, _plan_cost(quick, ruleset))
        return GoOut(True, mode, solution, _ok_reason(mode, len(solution.unmelded)))

    def accept(state):
        return _leftover_choice(state, w, allowed, sequences, natural_sequences, v3) is not None

    found = dp.feasible(
        masks, w, ruleset.aces_high, accept, sequences, natural_sequences + 1, v3, exact_unmelded=(allowed == (1,))
    )
    if found is not None:
        state, acts = found
        u, a = _leftover_choice(state, w, allowed, sequences, natural_sequences, v3)  # type: ignore[misc]
        plan = _plan_from_actions(masks, acts, True, ruleset.aces_high)
        plan.wild_unmelded = u
        plan.absorb(a, natural_sequences)
        solution = _solution(plan, _plan_cost(plan, ruleset))
        return GoOut(True, mode, solution, _ok_reason(mode, len(solution.unmelded)))
    return GoOut(False, mode, best_try, _fail_reason(best_try, mode, sequences, natural_sequences, len(cards)))


def _has_natural_run(masks: Sequence[int], aces_high: bool) -> bool:
    for m in masks:
        x = m | ((m & 1) << 13) if aces_high else m
        if x & (x >> 1) & (x >> 2):
            return True
    return False


def _reshape(raw: _Plan, left: int, allowed, sequences: int, natural: int) -> _Plan | None:
    """Try to turn a fewest-unmelded arrangement (``left`` WILDCARDs not placed) into one that
    goes out: long runs split for Sequences Rummy, one WILDCARD or one card of a long meld
    left out for exactly one. None when this quick route fails (the exact search decides)."""
    for leave_wild in (0, 1):
        plan = raw.clone()
        if sequences or natural:
            plan.split_long_runs()
        rest = left - leave_wild
        if rest < 0:
            continue
        if rest and not (plan.has_meld or rest >= 3):
            continue
        plan.wild_unmelded = leave_wild
        plan.absorb(rest, natural)
        n = len(plan.unmelded) + plan.wild_unmelded
        if n == 0 and 0 not in allowed and not plan.leave_one_out():
            continue
        n = len(plan.unmelded) + plan.wild_unmelded
        if n not in allowed:
            continue
        seqs, nats = plan.sequence_counts()
        if seqs >= sequences and nats >= natural:
            return plan
    return None


def _ok_reason(mode: str, left: int) -> str:
    if left == 0:
        return "every card melds"
    return "every card melds but one"


def _fail_reason(best: Solution, mode: str, sequences: int, natural_sequences: int, n: int) -> str:
    left = len(best.unmelded)
    names = " ".join(str(c) for c in best.unmelded)
    if (mode == "all" and left > 0) or left > 1:
        return f"{left} card{'s' if left != 1 else ''} cannot be melded: {names}"
    if mode == "exactly-one" and n == 0:
        return "an empty hand has no card to leave out"
    if sequences or natural_sequences:
        return (
            f"no arrangement has {sequences} sequences or more with {natural_sequences} natural"
            " (no WILDCARD) among them"
        )
    return "every card melds, but going out this way needs exactly one card left out"


def arrange_all(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """An arrangement for scoring melded cards (rule B5's default): every card melded if
    possible, with the most cards in sequences (WILDCARDs included); otherwise the fewest
    unmelded cards, and ``unmelded`` names the cards left out. ``count`` is their value."""
    masks, w = _masks(cards)
    aces_high = ruleset.aces_high
    if w == 0:
        plan = _direct(masks, aces_high)
        if plan is not None:
            melded = _melded_masks(plan)
            plan.unmelded = _mask_cards([m & ~x for m, x in zip(masks, melded)])
            return _solution(plan, _plan_cost(plan, ruleset))
    n_nat = sum(m.bit_count() for m in masks)

    def final_key(s: int, c: int):
        unm = (c + dp.BIG // 2) // dp.BIG  # the cost is unm*BIG + (small terms)
        left = w - (s >> dp.KS)
        wild_left = left if (unm == n_nat and left < 3) else 0
        seq_cards = (unm * dp.BIG - c) + w if s & dp.FLAG_RUN else 0
        return (unm + wild_left, -seq_cards, s)

    found = dp.min_cost(masks, w, aces_high, None, dp.ARRANGE, final_key=final_key)
    assert found is not None
    _cost, state, acts = found
    plan = _plan_from_actions(masks, acts, False, aces_high)
    left = w - (state >> dp.KS)
    if plan.has_meld or left >= 3:
        if plan.runs:
            plan.absorb_into_runs(left)
        else:
            plan.absorb(left)
    else:
        plan.wild_unmelded = left
    return _solution(plan, _plan_cost(plan, ruleset))
