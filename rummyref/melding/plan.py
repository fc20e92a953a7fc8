"""Arrangements under construction (internal to :mod:`rummyref.melding.solver`).

Hands as suit bitmasks; :class:`Plan` (runs, groups, all-WILDCARD melds, unmelded cards)
turned into ``Meld`` objects; the programme's actions turned into a plan; the direct answer
for hands without WILDCARDs where no card is wanted by two melds; a quick greedy arrangement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummyref.cards import DECK, SUITS, WILD, Card
from rummyref.melding import dp
from rummyref.melding.melds import HIGH_ACE, Meld, MeldKind, as_group

# -- hands as bitmasks --------------------------------------------------------------------

SUIT_OFFSET = {s._value_: i for i, s in enumerate(SUITS)}  # "S" -> 0 ...


def hand_masks(cards: Sequence[Card]) -> tuple[list[int], int]:
    masks = [0, 0, 0, 0]
    w = 0
    offs = SUIT_OFFSET
    for c in cards:
        r, s = c.rank, c.suit
        if r is None or s is None:
            w += 1
        else:
            masks[offs[s._value_]] |= 1 << (r - 1)
    return masks, w


def card_at(suit: int, pos: int) -> Card:
    return DECK[suit * 13 + (0 if pos == HIGH_ACE else pos - 1)]


def mask_cards(masks: Sequence[int]) -> list[Card]:
    out = []
    for i, m in enumerate(masks):
        base = i * 13
        while m:
            low = m & -m
            out.append(DECK[base + low.bit_length() - 1])
            m ^= low
    return out


# -- an arrangement under construction ----------------------------------------------------


def _overlap(a: list, b: list) -> bool:
    """Do two runs of a suit hold a place twice (a WILDCARD of one where the other has the card)?"""
    return a[1] < b[1] + b[2] and b[1] < a[1] + a[2]


def _held(run: list) -> set[int]:
    """The places of a run that hold a natural card (its set may name places past its ends)."""
    return {p for p in run[3] if run[1] <= p < run[1] + run[2]}


def _side_by_side(a: list, b: list, ceiling: int, others: Sequence[list] = ()) -> list[list] | None:
    """Two runs of ``a``'s suit over the same natural cards and as many places in all, one below
    the other (no place held twice, nor one of the ``others``), each with a natural card and
    as many natural runs as ``a`` and ``b``; the WILDCARDs as high as they go. None if there
    are none."""
    held_a, held_b = _held(a), _held(b)
    suit, nats, total = a[0], held_a | held_b, a[2] + b[2]
    before = (len(held_a) == a[2]) + (len(held_b) == b[2])
    best: tuple | None = None
    for n1 in range(3, total - 2):
        n2 = total - n1
        if n1 > 13 or n2 > 13:
            continue
        for s1 in range(1, ceiling - n1 + 2):
            low = {p for p in nats if p < s1 + n1}
            if not low or min(nats) < s1:
                continue
            high = nats - low
            if not high:
                continue
            for s2 in range(s1 + n1, ceiling - n2 + 2):
                if min(high) < s2 or max(high) > s2 + n2 - 1:
                    continue
                if any(_overlap(r, [suit, s1, n1]) or _overlap(r, [suit, s2, n2]) for r in others):
                    continue
                natural = (len(low) == n1) + (len(high) == n2)
                if natural >= before and (best is None or (natural, s1, s2) > best[0]):
                    best = ((natural, s1, s2), [[suit, s1, n1, low], [suit, s2, n2, high]])
    return None if best is None else best[1]


class Plan:
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

    def add_single(self, suit: int, pos: int) -> None:
        """A run of one natural card and two WILDCARDs, placed as ``as_sequence`` reads it:
        an ace low (A-2-3), else the WILDCARDs above the card as far as the ceiling allows."""
        start = 1 if pos == 1 else min(HIGH_ACE if self.aces_high else 13, pos + 2) - 2
        self.runs.append([suit, start, 3, {pos}])

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

    def clone(self) -> Plan:
        other = Plan()
        other.runs = [[r[0], r[1], r[2], set(r[3])] for r in self.runs]
        other.groups = [[g[0], list(g[1]), g[2]] for g in self.groups]
        other.wild_melds = list(self.wild_melds)
        other.unmelded = list(self.unmelded)
        other.wild_unmelded = self.wild_unmelded
        other.aces_high = self.aces_high
        return other

    def untangle(self) -> None:
        """Two runs of a suit where a WILDCARD of one stands for a card the other holds
        (``4H W(=5H) W(=6H) / 5H 6H 7H``) become two runs side by side of the same cards, as
        many of them natural as before, the WILDCARDs as high as they go (``4H 5H 6H / 7H W
        W``): the same sequences, counts and cards left out, read as a table reads them."""
        ceiling = HIGH_ACE if self.aces_high else 13
        again = True
        while again:
            again = False
            for i in range(len(self.runs)):
                for j in range(i + 1, len(self.runs)):
                    a, b = self.runs[i], self.runs[j]
                    if a[0] == b[0] and _overlap(a, b):
                        # the pair set apart may not overlap a third run of the suit: each
                        # change leaves fewer places held twice, so this ends
                        others = [r for k, r in enumerate(self.runs) if k not in (i, j) and r[0] == a[0]]
                        pair = _side_by_side(a, b, ceiling, others)
                        if pair is not None:
                            self.runs[i], self.runs[j] = pair
                            again = True

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
                    self.unmelded.append(card_at(suit, top))
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
                rep = card_at(suit, pos)
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


def plan_from_actions(masks: Sequence[int], acts: list[int], aces_high: bool) -> Plan:
    """Turn the programme's per-position actions into runs, groups and unmelded cards."""
    plan = Plan()
    plan.aces_high = aces_high
    for suit in range(4):
        current: list[int] = []
        nats: set[int] = set()
        for p, act in enumerate(acts, start=1):
            a = (act >> 2 * suit) & 3
            in_run = a in (dp.A_NAT, dp.A_WILD)
            if current and not in_run:
                plan.add_run(suit, current, nats)
                current, nats = [], set()
            if in_run:
                current.append(p)
                if a == dp.A_NAT:
                    nats.add(p)
        if current:
            plan.add_run(suit, current, nats)
    high = 0  # aces that end a run at position 14 are not at position 1
    if len(acts) >= 14:
        high = sum(1 << s for s in range(4) if (acts[13] >> 2 * s) & 3 == dp.A_NAT)
    for p, act in enumerate(acts, start=1):
        if p > 13:
            continue
        pooled = []
        for suit in range(4):
            if (masks[suit] >> (p - 1)) & 1 and (act >> 2 * suit) & 3 == dp.A_NONE:
                if p == 1 and high >> suit & 1:
                    continue
                pooled.append(suit)
        if not pooled:
            continue
        if act & dp.GROUPED:
            single = (act >> dp.SINGLE) & 7
            for suit in pooled[:single]:
                plan.add_single(suit, p)
            if pooled[single:]:
                plan.groups.append([p, pooled[single:], max(0, 3 - len(pooled) + single)])
        else:
            plan.unmelded.extend(DECK[s * 13 + p - 1] for s in pooled)
    return plan


# -- the fast path: no WILDCARD, no card wanted by two melds --------------------------------

LOW13 = (1 << 13) - 1


def direct_plan(masks: Sequence[int], aces_high: bool) -> Plan | None:
    """Without WILDCARDs: every card that can meld, if no card could serve two melds."""
    a, b, c, d = masks
    g3 = (a & b & (c | d)) | (c & d & (a | b))  # ranks with 3+ cards
    plan = Plan()
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
        low = (e | (e >> 13)) & LOW13
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


def greedy_plan(masks: Sequence[int], w: int, aces_high: bool, values: Sequence[int]) -> tuple[Plan, int, int]:
    """A quick arrangement (an upper bound for the exact search): natural runs, then groups,
    then WILDCARDs spent where they meld the most value each. Returns (plan, natural cost,
    WILDCARDs left)."""
    plan = Plan()
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
        best: Any = None  # (gain per WILDCARD, gain, WILDCARDs used, action): the greediest step
        for r in range(1, 14):
            suits = [s for s in range(4) if left[s] >> (r - 1) & 1]
            if len(suits) == 2:
                cand: Any = (values[r], 2 * values[r], 1, ("group", r, suits))
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
    plan.unmelded = mask_cards(left)
    cost = sum(values[int(card.rank)] for card in plan.unmelded if card.rank is not None)
    return plan, cost, budget


def melded_masks(plan: Plan) -> list[int]:
    melded = [0, 0, 0, 0]
    for suit, _start, _n, nats in plan.runs:
        for p in nats:
            melded[suit] |= 1 << (0 if p == HIGH_ACE else p - 1)
    for rank, suits, _ in plan.groups:
        for s in suits:
            melded[s] |= 1 << (rank - 1)
    return melded
