"""How long does seating a hand's table take (the table as melds, SPEC §7)?

Scores seeded random *legal* tables (melds laid by one player, lay-offs and Rummy! claims at
their ends by anyone, WILDCARDs said or not, designations that are true, each player stating
their melds with '/' or not), from small to the whole deck, and a few tables that cannot be
seated (they must be refused quickly). Prints, per size, the median and worst warm time of
``score_hand`` and how many tables needed the last-resort search.

Target: a legal table of any size is seated within 100 ms warm; a table that cannot be
seated is refused within about a second (the search budget).

    python bench/bench_table.py [--tables 300] [--seed 12]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rummyref.cards import SUITS, Card, Rank  # noqa: E402
from rummyref.errors import RummyrefError  # noqa: E402
from rummyref.games.long.scoring import score_hand  # noqa: E402
from rummyref.games.long.table import read_hand  # noqa: E402
from rummyref.rules.ruleset import load_ruleset  # noqa: E402

RS = load_ruleset("rummy-2m")
ROSTER = ("Bill", "Ben", "Larry")
SIZES = {"small (<=12 cards)": (2, 4), "medium (13-30)": (5, 9), "large (31+)": (12, 20)}
REFUSED = [  # tables no arrangement seats: a lone card, two runs short of a WILDCARD, a tangle
    ["Bill=2S 3S 4S", "Ben=9H"],
    ["Bill=2S 3S 5S 6S 8S 9S W", "Ben=2H 3H 5H 6H W"],
    ["Bill=2S 3S 4S / 5S 6S 7S", "Ben=8S 9S 10S JS QS KS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
     "Larry=2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2C 3C 5C 7C 8C W"],
]


def card(suit, pos: int) -> Card:
    return Card(Rank.ACE if pos == 14 else Rank(pos), suit)


def legal_table(rng: random.Random, melds: int) -> tuple[list[str], list[str]]:
    used: set[Card] = set()
    parts: dict[str, list[str]] = {n: [] for n in ROSTER}
    claims: list[str] = []
    wild = 0
    for _ in range(melds * 3):
        if melds <= 0:
            break
        if rng.random() < 0.55:
            n = rng.randint(3, 7)
            suit, start = rng.choice(SUITS), rng.randint(1, 15 - n)
            cards, kind = [card(suit, p) for p in range(start, start + n)], "run"
        else:
            rank = Rank(rng.randint(1, 13))
            cards, kind = [Card(rank, s) for s in rng.sample(SUITS, rng.randint(3, 4))], "match"
        if used.intersection(cards):
            continue
        used.update(cards)
        melds -= 1
        at, owner = rng.randint(0, len(cards) - 3), rng.choice(ROSTER)
        tokens = []
        for c in cards:
            if wild < 2 and rng.random() < 0.1:
                wild += 1
                tokens.append("W" + (f"={c}" if rng.random() < 0.5 else ""))
            else:
                tokens.append(str(c))
        core = tokens[at:at + 3]
        if all(t.startswith("W") for t in core):
            core[0] = str(cards[at])
        parts[owner].append(" ".join(core))
        natural = next(t for t in core if not t.startswith("W"))
        for i, token in enumerate(tokens):
            if at <= i < at + 3:
                continue
            token += rng.choice(["", "", "", f">{kind}", f">{owner}", f">{natural}"])
            who = rng.choice(ROSTER)
            (claims.append(f"{who}={token}") if rng.random() < 0.25 else parts[who].append(token))
    melded = [f"{n}={(' / ' if rng.random() < 0.5 else ' ').join(t)}" for n, t in parts.items() if t]
    return melded, claims


def timed(melded, claims) -> tuple[float, bool]:
    started = time.perf_counter()
    try:
        score_hand(read_hand(ROSTER, melded, (), claims), RS, 2, ROSTER)
        ok = True
    except RummyrefError:
        ok = False
    return time.perf_counter() - started, ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=300, help="random tables per size (default 300)")
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    timed(*legal_table(rng, 3))  # warm up: imports, rule set, caches
    print(f"{'legal tables':22} {'cards':>9} {'median':>9} {'worst':>9}  refused")
    for label, (lo, hi) in SIZES.items():
        times, sizes, refused = [], [], 0
        for _ in range(args.tables):
            melded, claims = legal_table(rng, rng.randint(lo, hi))
            sizes.append(sum(len(t.split("=", 1)[1].replace("/", " ").split()) for t in melded + claims))
            t, ok = timed(melded, claims)
            times.append(t)
            refused += not ok
        print(f"{label:22} {min(sizes):>4}-{max(sizes):<4} {statistics.median(times) * 1000:>7.1f}ms "
              f"{max(times) * 1000:>7.1f}ms  {refused}")
    print("tables that cannot be seated (refused):")
    for melded in REFUSED:
        t, ok = timed(melded, [])
        print(f"  {sum(len(m.split()) for m in melded):>3} cards  {t * 1000:>7.1f}ms  {'SEATED' if ok else 'refused'}")


if __name__ == "__main__":
    main()
