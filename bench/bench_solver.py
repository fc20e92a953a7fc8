"""Benchmark of the meld engine (in-process, pure Python). Prints a table.

Run from a checkout:

    PYTHONPATH=. python bench/bench_solver.py            # full run (about a minute)
    PYTHONPATH=. python bench/bench_solver.py --quick    # fewer hands

Each case times ``best_melding`` per hand (median, p90, max). The engine builds its
transition tables lazily and keeps them for the life of the process, so every case is run
twice: a cold pass (first use, tables being built) and the reported warm pass. The worst
hands are constructed dense hands plus the slowest of many random dense hands (searched
with the seed given).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummyref.cards import DECK, WILD, Card, parse_cards  # noqa: E402
from rummyref.melding.solver import best_melding, fewest_unmelded, go_out_check  # noqa: E402
from rummyref.rules.ruleset import load_ruleset  # noqa: E402

#: the slowest hands met while hunting (random dense hands, aces high, several minutes)
FOUND = [
    "KH 2H 4C 8C 9D AH 2D 5H 10S 6S 6C JH 7H 7C 3S AS 9C KD AD 5D 9S 10D 4D JS QD AC JC 9H 4H 3C W W W W W",
    "8D JS 5H 3D 7D 3C JH AD AC KD QC 10D 5S QH 6D 7H 4S 6C AS KC 9C 4D 4C AH 2D 2S 9S 5D 2C 7S W W W W W W",
    "7H AH AD AC 7S 9H 10S 8H JS 9C 4S QC 5H 10D 2D 3S 3C 6H 5D KD QH 2C 6D 6C JH 4C JC 8D AS 2S W W W W",
    "QS 4D QH 9S 7H 6D 10C 5H JC 3D 4S 5C 4H 7D 5D 7C 9D 5S 2H 7S AH 3H KD 9C 6S KS 10S 10D 2C JS 8H 9H 4C 2S 3C AS 6C W W W",
]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def hand(ranks: str, suits: str = "SHDC", wilds: int = 0, drop: str = "") -> list[Card]:
    lo, hi = ranks.split("-")
    chosen = RANKS[RANKS.index(lo) : RANKS.index(hi) + 1]
    text = " ".join(f"{r}{s}" for s in suits for r in chosen)
    cards = [c for c in parse_cards(text) if str(c) not in drop.split()]
    return cards + [WILD] * wilds


def time_calls(fn, hands, ruleset) -> list[float]:
    out = []
    for h in hands:
        started = time.perf_counter()
        fn(h, ruleset)
        out.append(time.perf_counter() - started)
    return out


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms"


def row(name: str, times: list[float], target: str = "") -> str:
    times = sorted(times)
    med = statistics.median(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return f"| {name} | {len(times)} | {fmt(med)} | {fmt(p90)} | {fmt(times[-1])} | {target} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ruleset", default="simple-rummy")
    args = parser.parse_args()
    ruleset = load_ruleset(args.ruleset)
    rng = random.Random(args.seed)
    n10, n20, nsearch = (1000, 100, 100) if args.quick else (10000, 1000, 600)

    cases = [
        ("random 10 cards, no WILDCARD", [rng.sample(DECK, 10) for _ in range(n10)], "median ≤ 15 µs"),
        ("random 20 cards incl. 3 WILDCARDs", [rng.sample(DECK, 17) + [WILD] * 3 for _ in range(n20)], "median ≤ 1 ms"),
    ]
    print(f"# best_melding, rule set {ruleset.name}, Python {sys.version.split()[0]}\n")
    print("| case | hands | median | p90 | max | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, hands, target in cases:
        cold = time_calls(best_melding, hands, ruleset)
        warm = time_calls(best_melding, hands, ruleset)
        print(row(name, warm, target))
        print(row("  (same, cold: first use, tables being built)", cold))

    worst = [
        ("A-5 in every suit (20 cards)", hand("A-5")),
        ("A-8 in every suit + 3 W", hand("A-8", wilds=3)),
        ("A-8 in every suit + 3 W, no 4S 7H", hand("A-8", wilds=3, drop="4S 7H")),
        ("A-8 in every suit + 7 W", hand("A-8", wilds=7)),
        ("A-K of two suits", hand("A-K", "SH")),
        ("A-K of two suits + 2 W", hand("A-K", "SH", wilds=2)),
        ("8-A (high) in every suit + 3 W", hand("8-K", wilds=3) + parse_cards("AS AH AD AC")),
        ("whole deck", list(DECK)),
        ("whole deck + 7 W", list(DECK) + [WILD] * 7),
        ("whole deck but the 7s + 2 W", [c for c in DECK if c.rank != 7] + [WILD] * 2),
        ("all 2s, 4s, 5s, 7s, 8s, 10s, Js, Ks, As + 3 W", [c for c in DECK if c.rank in (1, 2, 4, 5, 7, 8, 10, 11, 13)] + [WILD] * 3),
    ] + [(f"found by search #{i + 1}", parse_cards(text)) for i, text in enumerate(FOUND)]
    print("\n| worst cases (constructed) | cards | best_melding | fewest_unmelded | count |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, h in worst:
        best_melding(h, ruleset)  # warm the tables
        t_best = min(time_calls(best_melding, [h] * 3, ruleset))
        t_few = min(time_calls(fewest_unmelded, [h] * 3, ruleset))
        print(f"| {name} | {len(h)} | {fmt(t_best)} | {fmt(t_few)} | {best_melding(h, ruleset).count} |")

    # search: random dense hands (many cards from a few ranks or suits, 0-7 WILDCARDs)
    found = []
    for _ in range(nsearch):
        style = rng.random()
        if style < 0.4:
            ranks = rng.sample(range(1, 14), rng.randint(5, 9))
            pool = [c for c in DECK if c.rank in ranks]
        elif style < 0.7:
            suits = rng.sample(range(4), rng.randint(2, 3))
            pool = [c for c in DECK if c.index // 13 in suits]
        else:
            pool = list(DECK)
        n = rng.randint(min(15, len(pool)), len(pool))
        h = rng.sample(pool, n) + [WILD] * rng.randint(0, 7)
        t = min(time_calls(best_melding, [h] * 2, ruleset))
        found.append((t, h))
    found.sort(key=lambda x: -x[0])
    times = [t for t, _ in found]
    print(f"\n{row(f'random dense hands, 15-52 cards + 0-7 W (search of {nsearch})', times)}")
    print("\nslowest found:")
    for t, h in found[:5]:
        print(f"- {fmt(t)}: {len(h)} cards: {' '.join(str(c) for c in h)}")

    print("\n| going-out checks (warm) | exactly-one | Sequences Rummy (V3) |")
    print("| --- | ---: | ---: |")
    for name, h in worst[:3] + worst[-6:]:
        go_out_check(h, ruleset, "exactly-one")
        t1 = min(time_calls(lambda x, r: go_out_check(x, r, "exactly-one"), [h], ruleset) for _ in range(2))
        t2 = min(
            time_calls(lambda x, r: go_out_check(x, r, sequences=2, natural_sequences=1), [h], ruleset)
            for _ in range(2)
        )
        print(f"| {name} | {fmt(t1[0])} | {fmt(t2[0])} |")


if __name__ == "__main__":
    main()
