"""The Gin engine against OpenSpiel's ``GinRummyUtils`` on random deals. Prints agreement counts.

OpenSpiel is an optional extra, never a runtime dependency; it brings numpy and scipy, so it
is best kept in a venv of its own:

    python -m venv /work/venv-gin
    /work/venv-gin/bin/pip install -e '.[gin-compare]'
    /work/venv-gin/bin/python bench/bench_gin_openspiel.py            # 3,000 deals
    /work/venv-gin/bin/python bench/bench_gin_openspiel.py --quick    # 300

Three comparisons, each on half uniform deals and half dense ones (every card from A-5, or
from 3-10 in three suits, so that cards fit several melds and lay-offs are common):

1. deadwood of a 10-card hand: ``deadwood`` against ``min_deadwood``;
2. an 11-card hand after the draw: the least deadwood after the best discard (``deadwood`` of
   each 10-card remainder) against ``min_deadwood``, which takes one arrangement of the eleven
   with the least deadwood and discards its highest deadwood card;
3. the defender's least deadwood after laying off onto the knocker's melds: ``defend``
   against a search that plays ``all_layoffs`` one card at a time, in every order, and counts
   the rest with ``min_deadwood``.

Each kind of disagreement is counted with a reason and one example.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummyref.cards import DECK, Card, format_cards  # noqa: E402
from rummyref.games.gin.engine import deadwood, defend  # noqa: E402
from rummyref.melding.melds import Meld, MeldKind  # noqa: E402
from rummyref.rules.ruleset import load_ruleset  # noqa: E402

try:
    import pyspiel
except ImportError:
    sys.exit("open_spiel is not installed: pip install -e '.[gin-compare]' (in a venv of its own)")

GIN = load_ruleset("gin")
UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
DENSE = [
    [c for c in DECK if int(c.rank) <= 5],  # type: ignore[arg-type]
    [c for c in DECK if c.suit is not None and c.suit.value in "SHD" and 3 <= int(c.rank) <= 10],  # type: ignore[arg-type]
]


def os_card(card: Card) -> int:
    label = "T" if card.rank == 10 else str(card)[0]
    return UTILS.card_int(label + card.suit.value.lower())  # type: ignore[union-attr]


def deal(rng: random.Random, i: int, n: int) -> list[Card]:
    return rng.sample(DECK if i % 2 else DENSE[(i // 2) % 2], n)


def timed(fn, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


# -- 1 and 2: deadwood ----------------------------------------------------------------------


def best_discard(hand: list[Card]) -> int:
    return min(deadwood([c for c in hand if c != out], GIN).value for out in hand)


def compare_deadwood(rng: random.Random, n: int, size: int) -> tuple[Counter, dict, list[float], list[float]]:
    tally: Counter = Counter()
    examples: dict = {}
    ours_t, theirs_t = [], []
    for i in range(n):
        hand = deal(rng, i, size)
        ours, t1 = timed(lambda h: deadwood(h, GIN).value if size == 10 else best_discard(h), hand)
        theirs, t2 = timed(UTILS.min_deadwood, [os_card(c) for c in hand])
        ours_t.append(t1)
        theirs_t.append(t2)
        if ours == theirs:
            tally["agree"] += 1
            continue
        why = "OpenSpiel higher: one arrangement of 11, then its top card" if theirs > ours else "engine higher"
        tally[why] += 1
        examples.setdefault(why, f"{format_cards(hand)}: engine {ours}, OpenSpiel {theirs}")
    return tally, examples, ours_t, theirs_t


# -- 3: lay-offs ------------------------------------------------------------------------------


def os_melds(melds: tuple[Meld, ...]) -> list[int]:
    """OpenSpiel numbers runs of 3 to 5 cards only: a longer run is laid as pieces of 3 to 5
    (the same cards can join it at its two ends either way)."""
    ids = []
    for meld in melds:
        cards = [os_card(c) for c in meld.cards]
        pieces = [cards] if meld.kind is MeldKind.GROUP or len(cards) <= 5 else _split(cards)
        ids += [UTILS.meld_to_int(p) for p in pieces]
    return ids


def _split(cards: list[int]) -> list[list[int]]:
    """Runs of 3 from the low end until 5 or fewer cards are left."""
    out = []
    while len(cards) > 5:
        out.append(cards[:3])
        cards = cards[3:]
    return out + [cards]


def os_defend(meld_ids: list[int], hand: list[int]) -> int:
    """The least deadwood a defender reaches laying off what ``all_layoffs`` offers, in any order."""
    best = UTILS.min_deadwood(hand)
    seen: set[frozenset[int]] = set()

    def walk(laid: list[int], rest: list[int]) -> None:
        nonlocal best
        for card in UTILS.all_layoffs(meld_ids, laid):
            if card in rest and frozenset(laid + [card]) not in seen:
                seen.add(frozenset(laid + [card]))
                left = [c for c in rest if c != card]
                best = min(best, UTILS.min_deadwood(left))
                walk(laid + [card], left)

    walk([], hand)
    return best


def long_chain(melds: tuple[Meld, ...], layoffs) -> bool:
    """Does some run take three or more lay-offs at one end?"""
    for i, meld in enumerate(melds):
        if meld.kind is not MeldKind.SEQUENCE:
            continue
        ranks = [int(lo.card.rank) for lo in layoffs if lo.onto == i]
        low, high = int(meld.cards[0].rank), int(meld.cards[-1].rank)  # type: ignore[arg-type]
        if sum(r < low for r in ranks) >= 3 or sum(r > high for r in ranks) >= 3:
            return True
    return False


def compare_layoffs(rng: random.Random, n: int) -> tuple[Counter, dict, list[float], list[float]]:
    tally: Counter = Counter()
    examples: dict = {}
    ours_t, theirs_t = [], []
    for i in range(n):
        cards = deal(rng, i, 20)
        knocker, defender = cards[:10], cards[10:]
        melds = deadwood(knocker, GIN).melds
        (defence, layoffs), t1 = timed(defend, melds, defender, GIN)
        theirs, t2 = timed(os_defend, os_melds(melds), [os_card(c) for c in defender])
        ours_t.append(t1)
        theirs_t.append(t2)
        if defence.value == theirs:
            tally["agree" if layoffs else "agree (nothing to lay off)"] += 1
            continue
        if defence.value < theirs and long_chain(melds, layoffs):
            why = "engine lower: 3+ cards laid at one end of a run"
        else:
            why = "engine lower" if defence.value < theirs else "engine higher"
        tally[why] += 1
        shown = " / ".join(m.describe() for m in melds)
        laid = format_cards([lo.card for lo in layoffs])
        examples.setdefault(why, f"{shown} <- {format_cards(defender)}: lays {laid}; {defence.value} vs {theirs}")
    return tally, examples, ours_t, theirs_t


def report(title: str, result) -> None:
    tally, examples, ours_t, theirs_t = result
    total = sum(tally.values())
    print(f"\n{title}: {total} deals")
    for why, count in tally.most_common():
        print(f"  {count:6d}  {why}")
    us = statistics.median(ours_t) * 1e6, statistics.median(theirs_t) * 1e6
    print(f"  median time per deal: engine {us[0]:.0f} us, OpenSpiel {us[1]:.0f} us")
    for why, text in examples.items():
        print(f"  e.g. ({why}):")
        while text:
            print("    " + text[:74])
            text = text[74:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="deals per comparison")
    parser.add_argument("--quick", action="store_true", help="300 deals per comparison")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    n = 300 if args.quick else args.hands
    rng = random.Random(args.seed)
    report("1. deadwood, 10 cards", compare_deadwood(rng, n, 10))
    report("2. deadwood after the best discard, 11 cards", compare_deadwood(rng, n, 11))
    report("3. the defender after lay-offs", compare_layoffs(rng, n))


if __name__ == "__main__":
    main()
