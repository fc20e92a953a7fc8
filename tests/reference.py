"""An exhaustive brute-force reference for the meld engine (independent of the engine).

It enumerates every set partition of a hand into blocks that are either one valid meld or
one unmelded card (WILDCARDs are interchangeable, so it partitions the multiset), with its
own meld validity check, and records every achievable outcome. Memoised on the cards that
remain, so hands of 9-10 cards take milliseconds. Slow and simple on purpose.

Cards here are ``(rank, suit)`` pairs (rank 1..13, suit 0..3) or ``None`` for a WILDCARD.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

from rummyref.cards import SUITS, Card


def to_ref(card: Card):
    return None if card.rank is None else (int(card.rank), SUITS.index(card.suit))


def seq_reading(naturals, wilds: int, aces_high: bool) -> bool:
    """Can the natural cards plus ``wilds`` WILDCARDs be read as one sequence?"""
    n = len(naturals) + wilds
    if n < 3 or n > 13 or not naturals:
        return False
    if len({s for _, s in naturals}) != 1:
        return False
    ranges = [(1, 13)] + ([(2, 14)] if aces_high else [])
    for lo_bound, hi_bound in ranges:
        for start in range(lo_bound, hi_bound - n + 2):
            window = range(start, start + n)
            positions = set()
            ok = True
            for r, _ in naturals:
                pos = r if r in window else (14 if r == 1 and 14 in window else None)
                if pos is None or pos in positions:
                    ok = False
                    break
                positions.add(pos)
            if ok:
                return True
    return False


def group_reading(naturals, wilds: int) -> bool:
    n = len(naturals) + wilds
    return n >= 3 and bool(naturals) and len({r for r, _ in naturals}) == 1 and len(naturals) <= 4


def is_meld(naturals, wilds: int, aces_high: bool) -> bool:
    if len(naturals) + wilds < 3:
        return False
    if not naturals:
        return True
    return group_reading(naturals, wilds) or seq_reading(naturals, wilds, aces_high)


@dataclass(frozen=True)
class Outcome:
    cost: int  #: value of the unmelded cards
    unmelded: int  #: number of unmelded cards
    seqs: int  #: melds that may count as sequences (capped at 3)
    natural: int  #: natural sequences (capped at 3)
    seq_cards: int  #: cards in blocks read as sequences (not all-WILDCARD blocks)


def outcomes(cards, values, wild_value: int, aces_high: bool) -> set[Outcome]:
    """Every outcome of every way to split the hand into melds and unmelded cards."""
    naturals = tuple(sorted(c for c in cards if c is not None))
    wilds = sum(1 for c in cards if c is None)

    @cache
    def go(rest: tuple, w: int) -> frozenset:
        out = set()
        if not rest:
            for u in range(w + 1):
                a = w - u
                if 0 < a < 3:
                    continue
                for k in range(0 if a == 0 else 1, a // 3 + 1):  # k all-WILDCARD melds
                    out.add((u * wild_value, u, min(k, 3), 0, 0))
            return frozenset(out)
        c, others = rest[0], rest[1:]
        for cost, unm, s, n, sc in go(others, w):
            out.add((cost + values[c[0]], unm + 1, s, n, sc))
        mates = [x for x in others if x[0] == c[0] or x[1] == c[1]]
        for size in range(len(mates) + 1):
            for chosen in combinations(mates, size):
                block = (c,) + chosen
                left = tuple(x for x in others if x not in chosen)
                for j in range(w + 1):
                    if not is_meld(block, j, aces_high):
                        continue
                    seq = seq_reading(block, j, aces_high)
                    for cost, unm, s, n, sc in go(left, w - j):
                        out.add(
                            (
                                cost,
                                unm,
                                min(s + seq, 3),
                                min(n + (seq and j == 0), 3),
                                sc + (len(block) + j if seq else 0),
                            )
                        )
        return frozenset(out)

    return {Outcome(*o) for o in go(naturals, wilds)}


class Reference:
    """Answers the engine's questions from the set of all outcomes."""

    def __init__(self, cards: list[Card], ruleset) -> None:
        self.outs = outcomes(
            [to_ref(c) for c in cards], ruleset.values, ruleset.wild_unmelded, ruleset.aces_high
        )

    def best(self) -> int:
        return min(o.cost for o in self.outs)

    def fewest(self) -> int:
        return min(o.unmelded for o in self.outs)

    def goes_out(self, mode: str, sequences: int = 0, natural: int = 0) -> bool:
        allowed = {"at-most-one": (0, 1), "all": (0,), "exactly-one": (1,)}[mode]
        return any(
            o.unmelded in allowed and o.seqs >= sequences and o.natural >= natural for o in self.outs
        )

    def arrange(self) -> tuple[int, int]:
        """(fewest unmelded, most cards in sequences among those arrangements)."""
        fewest = self.fewest()
        return fewest, max(o.seq_cards for o in self.outs if o.unmelded == fewest)
