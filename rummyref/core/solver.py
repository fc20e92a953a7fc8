"""The exact meld engine: best melding, fewest unmelded, going-out checks (SPEC §5).

First version: an exhaustive search (correct, slow on big hands). The API is final.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterator, Sequence

from rummyref.core.cards import WILD, Card
from rummyref.core.melds import Meld, MeldKind, as_wild, meld_options
from rummyref.core.rulesets import RuleSet

GOING_OUT_MODES = ("at-most-one", "all", "exactly-one")


@dataclass(frozen=True)
class Solution:
    count: int  #: sum of the values of the unmelded cards (or their number, for fewest_unmelded)
    melds: tuple[Meld, ...]
    unmelded: tuple[Card, ...]


@dataclass(frozen=True)
class GoOut:
    ok: bool
    mode: str
    arrangement: Solution | None
    reason: str


def card_value(card: Card, ruleset: RuleSet) -> int:
    """What a card counts when it is left unmelded."""
    return ruleset.wild_unmelded if card.is_wild else ruleset.value(card.rank)  # type: ignore[arg-type]


def meld_value(meld: Meld, ruleset: RuleSet) -> int:
    """What a melded meld is worth (rummy-2m scoring)."""
    total = 0
    for card, rep in zip(meld.cards, meld.represents):
        if card.is_wild:
            if rep is None:
                total += ruleset.wild_unmelded
                continue
            if ruleset.wild_melded != "represented":
                total += int(ruleset.wild_melded)
                continue
            card = rep
        if meld.kind is MeldKind.SEQUENCE and int(card.rank) == 1 and meld.ace_low:  # type: ignore[arg-type]
            total += ruleset.ace_low_run_value
        else:
            total += ruleset.value(card.rank)  # type: ignore[arg-type]
    return total


# -- exhaustive search (first version) ---------------------------------------------------


def _arrangements(naturals: list[Card], wilds: int, aces_high: bool) -> Iterator[tuple[list[Meld], list[Card]]]:
    """Every arrangement: melds plus unmelded cards (WILDCARDs included)."""
    if not naturals:
        for left in range(wilds + 1):
            rest = wilds - left
            if rest == 0:
                yield [], [WILD] * left
            elif rest >= 3:
                yield [as_wild([WILD] * rest)], [WILD] * left  # type: ignore[list-item]
                if rest >= 6:
                    for a in range(3, rest - 2):
                        yield [as_wild([WILD] * a), as_wild([WILD] * (rest - a))], [WILD] * left  # type: ignore[list-item]
        return
    c, rest = naturals[0], naturals[1:]
    for melds, unmelded in _arrangements(rest, wilds, aces_high):
        yield melds, [c] + unmelded
    mates = [x for x in rest if x.rank == c.rank or x.suit == c.suit]
    for k in range(0, min(len(mates), 12) + 1):
        for chosen in combinations(mates, k):
            for w in range(0, wilds + 1):
                cards = [c, *chosen] + [WILD] * w
                for meld in meld_options(cards, aces_high):
                    left = [x for x in rest if x not in chosen]
                    for melds, unmelded in _arrangements(left, wilds - w, aces_high):
                        yield [meld] + melds, unmelded


def _solution(melds: list[Meld], unmelded: list[Card], count: int) -> Solution:
    return Solution(count, tuple(melds), tuple(sorted(unmelded, key=Card.sort_key)))


def _split(cards: Sequence[Card]) -> tuple[list[Card], int]:
    naturals = sorted((c for c in cards if not c.is_wild), key=Card.sort_key)
    return naturals, len(cards) - len(naturals)


def _search(cards: Sequence[Card], ruleset: RuleSet, key, accept=lambda m, u: True) -> tuple[list[Meld], list[Card]] | None:
    naturals, wilds = _split(cards)
    best = None
    best_key = None
    for melds, unmelded in _arrangements(naturals, wilds, ruleset.aces_high):
        if not accept(melds, unmelded):
            continue
        k = key(melds, unmelded)
        if best_key is None or k < best_key:
            best, best_key = (melds, unmelded), k
    return best


def _cost(unmelded: Sequence[Card], ruleset: RuleSet) -> int:
    return sum(card_value(c, ruleset) for c in unmelded)


def best_melding(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """The arrangement with the lowest count of unmelded cards."""
    melds, unmelded = _search(cards, ruleset, lambda m, u: (_cost(u, ruleset), len(u)))  # type: ignore[misc]
    return _solution(melds, unmelded, _cost(unmelded, ruleset))


def fewest_unmelded(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """The arrangement with the fewest unmelded cards (count = that number)."""
    melds, unmelded = _search(cards, ruleset, lambda m, u: (len(u), _cost(u, ruleset)))  # type: ignore[misc]
    return _solution(melds, unmelded, len(unmelded))


def _seq_counts(melds: Sequence[Meld]) -> tuple[int, int]:
    seqs = sum(1 for m in melds if m.kind in (MeldKind.SEQUENCE, MeldKind.WILD))
    natural = sum(1 for m in melds if m.kind is MeldKind.SEQUENCE and m.is_natural)
    return seqs, natural


def go_out_check(
    cards: Sequence[Card],
    ruleset: RuleSet,
    mode: str = "at-most-one",
    sequences: int = 0,
    natural_sequences: int = 0,
) -> GoOut:
    """Can the hand go out under ``mode`` (and V3's sequence condition)?"""
    if mode not in GOING_OUT_MODES:
        raise ValueError(f"unknown going-out mode {mode!r}")
    allowed = {"at-most-one": (0, 1), "all": (0,), "exactly-one": (1,)}[mode]

    def accept(melds, unmelded):
        if len(unmelded) not in allowed:
            return False
        s, n = _seq_counts(melds)
        return s >= sequences and n >= natural_sequences

    found = _search(cards, ruleset, lambda m, u: (len(u), _cost(u, ruleset)), accept)
    if found is not None:
        return GoOut(True, mode, _solution(*found, _cost(found[1], ruleset)), "the hand goes out")
    best = fewest_unmelded(cards, ruleset)
    return GoOut(False, mode, best, _reason(best, mode, sequences, natural_sequences, len(cards)))


def _reason(best: Solution, mode: str, sequences: int, natural_sequences: int, n: int) -> str:
    left = len(best.unmelded)
    names = " ".join(str(c) for c in best.unmelded)
    if mode == "exactly-one" and left == 0:
        return "every card melds, but going out minor needs exactly one card left out"
    if (mode == "all" and left > 0) or left > 1:
        return f"{left} card{'s' if left != 1 else ''} cannot be melded: {names}"
    if mode == "exactly-one" and n == 0:
        return "an empty hand has no card to leave out"
    if sequences or natural_sequences:
        return (
            f"no arrangement has {sequences} sequences or more with {natural_sequences} natural"
            " (without WILDCARD) among them"
        )
    return "no arrangement leaves exactly one card out"


def arrange_all(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """Meld every card if possible, most cards in sequences; else fewest unmelded."""

    def key(melds, unmelded):
        in_seq = sum(len(m) for m in melds if m.kind is MeldKind.SEQUENCE)
        return (len(unmelded), -in_seq, _cost(unmelded, ruleset))

    melds, unmelded = _search(cards, ruleset, key)  # type: ignore[misc]
    return _solution(melds, unmelded, _cost(unmelded, ruleset))
