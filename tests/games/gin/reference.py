"""A brute-force reference for Gin Rummy, written apart from the engine and slow on purpose.

Cards are ``(rank, suit)`` pairs (rank 1..13, suit 0..3). The standard game's numbers are
written out here, not read from the rule set file:

- a meld is 3 or 4 cards of one rank, or 3 or more cards of one suit with consecutive ranks
  (ace low only: rank 1 is never above 13);
- deadwood: every partition of the hand into melds and single cards, least total of the single
  cards' values (A 1, 2-10 face, J Q K 10);
- lay-offs: every subset of the defender's cards, every way to share it among the knocker's
  melds so that each meld with its share is still one meld (a run grows at its ends, so the
  cards can always be laid one at a time); the rest of the defender's hand by least deadwood;
- the knocker: every partition with the least deadwood, the one leaving the defender the
  greatest deadwood, then the fewest cards laid off.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, pairwise

from rummyref.cards import SUITS, Card

Ref = tuple[int, int]
VALUE = {r: min(r, 10) for r in range(1, 14)}


def to_ref(card: Card) -> Ref:
    assert card.rank is not None and card.suit is not None
    return int(card.rank), SUITS.index(card.suit)


def is_meld(cards) -> bool:
    cards = list(cards)
    if len(cards) < 3:
        return False
    ranks = sorted(r for r, _ in cards)
    suits = {s for _, s in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(suits) == len(cards)
    return len(suits) == 1 and all(b == a + 1 for a, b in pairwise(ranks))


def partitions(cards: frozenset[Ref]):
    """Every way to split the cards into melds and single cards: (melds, singles)."""
    if not cards:
        yield (), ()
        return
    first = min(cards)
    rest = cards - {first}
    for melds, singles in partitions(rest):
        yield melds, singles + (first,)
    near = sorted(c for c in rest if c[0] == first[0] or c[1] == first[1])
    for k in range(2, len(near) + 1):
        for others in combinations(near, k):
            meld = frozenset((first,) + others)
            if is_meld(meld):
                for melds, singles in partitions(rest - meld):
                    yield melds + (meld,), singles


@cache
def min_deadwood(cards: frozenset[Ref]) -> int:
    return min(sum(VALUE[r] for r, _ in singles) for _, singles in partitions(cards))


def _shares(cards: tuple[Ref, ...], melds: tuple[frozenset[Ref], ...]) -> bool:
    """Can every card join one of the melds so that each meld stays a meld?"""
    if not melds:
        return not cards
    head, tail = melds[0], melds[1:]
    for k in range(len(cards) + 1):
        for mine in combinations(cards, k):
            if (not mine or is_meld(head | set(mine))) and _shares(tuple(c for c in cards if c not in mine), tail):
                return True
    return False


def _may_join(card: Ref, meld: frozenset[Ref]) -> bool:
    """A card can only ever join a group of its rank or a run of its suit."""
    ranks = {r for r, _ in meld}
    suits = {s for _, s in meld}
    return card[0] in ranks if len(ranks) == 1 else card[1] in suits


def defender_best(knocker_melds, defender: frozenset[Ref]) -> tuple[int, int]:
    """(least deadwood after lay-offs and own melds, fewest cards laid off to reach it)."""
    melds = tuple(frozenset(m) for m in knocker_melds)
    joinable = sorted(c for c in defender if any(_may_join(c, m) for m in melds))
    best = (min_deadwood(defender), 0)
    for k in range(1, len(joinable) + 1):
        for laid in combinations(joinable, k):
            if _shares(laid, melds):
                best = min(best, (min_deadwood(defender - set(laid)), k))
    return best


def knock(knocker: frozenset[Ref], defender: frozenset[Ref]) -> tuple[int, int, int]:
    """(knocker's deadwood, defender's deadwood, cards laid off) after a knock."""
    least = min_deadwood(knocker)
    best: tuple[int, int] | None = None
    for melds, singles in partitions(knocker):
        if sum(VALUE[r] for r, _ in singles) != least:
            continue
        value, laid = defender_best(melds, defender)
        if best is None or (-value, laid) < (-best[0], best[1]):
            best = (value, laid)
    assert best is not None
    return least, best[0], best[1]
