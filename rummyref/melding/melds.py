"""Melds: groups ("matches"), sequences ("runs") and all-WILDCARD melds (SPEC §5).

This module judges one meld on its own. The solver (``rummyref.melding.solver``)
finds the best arrangement of a whole hand.

Validity, precisely:
- a *group* is 1-4 natural cards of one rank plus any number of WILDCARDs, 3+ cards;
- a *sequence* is natural cards of one suit plus WILDCARDs filling gaps or extending
  the ends, 3+ cards, all inside A..K (ace low) or, where aces may be high, inside
  2..A (Q-K-A): at most 13 cards, never K-A-2;
- three or more WILDCARDs alone are a meld.
A WILDCARD may stand for a card that sits elsewhere in the hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rummyref.cards import SUITS, WILD, Card, Rank, Suit

HIGH_ACE = 14  #: the position of an ace played high (Q-K-A)


class MeldKind(StrEnum):
    GROUP = "group"
    SEQUENCE = "sequence"
    WILD = "wild"  #: three or more WILDCARDs alone


@dataclass(frozen=True)
class Meld:
    """A valid meld. ``represents[i]`` is the natural card ``cards[i]`` stands for
    (itself for a natural card; ``None`` for a WILDCARD in an all-WILDCARD meld).
    Sequences list their cards from low to high; ``low`` is the position of the
    lowest card (1 = ace low, 14 = ace high)."""

    kind: MeldKind
    cards: tuple[Card, ...]
    represents: tuple[Card | None, ...]
    low: int = 0

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def is_natural(self) -> bool:
        return not any(c.is_wild for c in self.cards)

    @property
    def ace_low(self) -> bool:
        return self.kind is MeldKind.SEQUENCE and self.low == 1

    @property
    def ace_high(self) -> bool:
        return self.kind is MeldKind.SEQUENCE and self.low + len(self.cards) - 1 == HIGH_ACE

    def describe(self) -> str:
        """``7S 7H W(=7D)``: the cards, with what each WILDCARD stands for."""
        parts = []
        for card, rep in zip(self.cards, self.represents):
            parts.append(f"W(={rep})" if card.is_wild and rep is not None else str(card))
        return " ".join(parts)


def _pos_to_rank(pos: int) -> Rank:
    return Rank.ACE if pos == HIGH_ACE else Rank(pos)


def as_group(cards: Sequence[Card]) -> Meld | None:
    """The cards as a group, or None if they are not one."""
    naturals = [c for c in cards if not c.is_wild]
    wilds = len(cards) - len(naturals)
    if len(cards) < 3 or not naturals:
        return None
    rank = naturals[0].rank
    suits = [c.suit for c in naturals]
    if any(c.rank != rank for c in naturals) or len(set(suits)) != len(suits):
        return None
    missing = [s for s in SUITS if s not in suits] or list(SUITS)
    naturals.sort(key=lambda c: c.sort_key())
    reps: list[Card | None] = list(naturals)
    reps += [Card(rank, missing[i % len(missing)]) for i in range(wilds)]
    return Meld(MeldKind.GROUP, tuple(naturals) + (WILD,) * wilds, tuple(reps))


def as_sequence(cards: Sequence[Card], aces_high: bool) -> Meld | None:
    """The cards as a sequence, or None. Where both are possible, ace low is chosen
    first; WILDCARDs not needed for gaps extend the high end first."""
    for meld in sequence_options(cards, aces_high):
        return meld
    return None


def sequence_options(cards: Sequence[Card], aces_high: bool) -> list[Meld]:
    """Every distinct reading of the cards as a sequence (ace low first, then ace high)."""
    naturals = [c for c in cards if not c.is_wild]
    n = len(cards)
    if n < 3 or n > 13 or not naturals:
        return []
    suit = naturals[0].suit
    if suit is None or any(c.suit != suit for c in naturals):
        return []
    ranks = [int(c.rank) for c in naturals if c.rank is not None]
    if len(set(ranks)) != len(ranks):
        return []
    options = []
    readings = [ranks]
    if aces_high and 1 in ranks:
        readings.append([HIGH_ACE if r == 1 else r for r in ranks])
    for positions in readings:
        lo, hi = min(positions), max(positions)
        if hi - lo + 1 > n:
            continue
        if hi == HIGH_ACE:
            floor, ceiling = 2, HIGH_ACE
        elif aces_high and lo >= 2:
            floor, ceiling = 2, HIGH_ACE
        else:
            floor, ceiling = 1, 13
        # extend high first, then low, within [floor, ceiling]
        extra = n - (hi - lo + 1)
        top = min(ceiling, hi + extra)
        start = top - n + 1
        if start < floor:
            continue
        options.append(_build_sequence(suit, start, n, naturals))
    return options


def _build_sequence(suit: Suit, start: int, n: int, naturals: list[Card]) -> Meld:
    by_pos = {}
    for c in naturals:
        if c.rank is None:
            continue
        pos = int(c.rank)
        if pos == 1 and not (start <= 1 < start + n):
            pos = HIGH_ACE
        by_pos[pos] = c
    cards, reps = [], []
    for pos in range(start, start + n):
        rep = Card(_pos_to_rank(pos), suit)
        cards.append(by_pos.get(pos, WILD))
        reps.append(rep)
    return Meld(MeldKind.SEQUENCE, tuple(cards), tuple(reps), start)


def run_seats(meld: Meld, aces_high: bool) -> list[Meld]:
    """The same run with its spare WILDCARDs seated at the other places its ends allow, the
    natural cards where they are (``4H 5H W`` is also ``W 4H 5H``); empty for any other meld.
    :func:`meld_options` seats them high first; a player laying the cards may seat them low."""
    if meld.kind is not MeldKind.SEQUENCE or meld.is_natural:
        return []
    at = [meld.low + i for i, c in enumerate(meld.cards) if not c.is_wild]
    naturals = [c for c in meld.cards if not c.is_wild]
    n = len(meld.cards)
    ace_high = HIGH_ACE in at
    floor = 2 if ace_high else 1
    ceiling = HIGH_ACE if ace_high or (aces_high and 1 not in at) else 13
    suit = naturals[0].suit
    assert suit is not None  # a run's natural cards have a suit
    return [_build_sequence(suit, start, n, naturals)
            for start in range(max(floor, at[-1] - n + 1), min(at[0], ceiling - n + 1) + 1) if start != meld.low]


def as_wild(cards: Sequence[Card]) -> Meld | None:
    if len(cards) >= 3 and all(c.is_wild for c in cards):
        return Meld(MeldKind.WILD, tuple(cards), (None,) * len(cards))
    return None


def meld_options(cards: Sequence[Card], aces_high: bool) -> list[Meld]:
    """Every reading of the cards as one meld; sequences first (rule B5's default)."""
    wild = as_wild(cards)
    if wild is not None:
        return [wild]
    options = sequence_options(cards, aces_high)
    group = as_group(cards)
    if group is not None:
        options.append(group)
    return options


def classify(cards: Sequence[Card], aces_high: bool, prefer: MeldKind | None = None) -> Meld | None:
    """The cards as one valid meld, or None. Where they could be either kind the
    sequence is chosen (B5) unless ``prefer`` says otherwise."""
    options = meld_options(cards, aces_high)
    if prefer is not None:
        for m in options:
            if m.kind is prefer:
                return m
    return options[0] if options else None


def is_meld(cards: Iterable[Card], aces_high: bool) -> bool:
    return bool(meld_options(list(cards), aces_high))
