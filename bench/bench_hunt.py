"""A seeded hunt for the slowest hands of every engine function (issue 12).

Every engine function must answer any hand, up to the whole deck plus 7 WILDCARDs, within
50 ms warm. The hunt throws random dense hands at each (18..52 natural cards, 0..7 WILDCARDs,
many cards from few ranks or suits, rule sets rummy-2m and simple-rummy with aces high, and
gin with aces low), random legal tables at the seating of the table as melds (melds, lay-offs,
Rummy! claims, W and W=CARD, >run, >match, >NAME, >CARD, up to the whole deck), the same
tables with one card changed (most of them cannot be seated and are refused), both with up to
7 WILDCARDs and, apart, with no more than rummy-2m allows (2: what a table playing the shipped
rule sets meets), random Gin knocks at the settling of a hand, and the slowest hands ever
found (``KNOWN``).

Each input is run once untimed (the engine builds its transition tables on first use and
keeps them: the warm figure is the one that counts), then timed; a time over 5 ms is timed
twice more and the least kept (another engineer's process is noise, not the engine); an
input over two seconds cold is timed once (a worst row of one timing can be far off: a table
timed once at 1.5 s took 0.46 s, best of three).
``best_melding`` on the same cards is timed beside every function: the baseline.

    PYTHONPATH=. python bench/bench_hunt.py --seed 7 --seconds 300
    PYTHONPATH=. python bench/bench_hunt.py --hands 2000 --check    # exit 1 if a worst > 50 ms
    PYTHONPATH=. python bench/bench_hunt.py --quick                 # a few hundred inputs

Prints, per function: inputs tried, median, p99 and worst time, the baseline's median and
worst on the same inputs, then the input that gave each worst (as ``ref`` reads it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummyref.cards import DECK, SUITS, WILD, Card, Rank, parse_cards  # noqa: E402
from rummyref.errors import RummyrefError  # noqa: E402
from rummyref.games.gin import engine as gin  # noqa: E402
from rummyref.games.long.scoring import score_hand  # noqa: E402
from rummyref.games.long.table import read_hand  # noqa: E402
from rummyref.melding.solver import arrange_all, best_melding, fewest_unmelded, go_out_check  # noqa: E402
from rummyref.rules.ruleset import RuleSet, load_ruleset  # noqa: E402

TARGET = 0.050  #: seconds, warm, for every function on any input
RETIME = 0.005  #: a time over this is timed twice more, the least kept
SLOW = 2.0  #: an input slower than this, cold, is timed once warm (the hunt's time stays bounded)
ROSTER = ("Bill", "Ben", "Larry")

#: the slowest inputs met while hunting: (function, rule set, hand); always run first
KNOWN = [
    ("*", "simple-rummy", "KH 2H 4C 8C 9D AH 2D 5H 10S 6S 6C JH 7H 7C 3S AS 9C KD AD 5D 9S 10D 4D JS QD AC JC "
     "9H 4H 3C W W W W W"),
    ("*", "simple-rummy", "8D JS 5H 3D 7D 3C JH AD AC KD QC 10D 5S QH 6D 7H 4S 6C AS KC 9C 4D 4C AH 2D 2S 9S 5D "
     "2C 7S W W W W W W"),
    ("*", "simple-rummy", "7H AH AD AC 7S 9H 10S 8H JS 9C 4S QC 5H 10D 2D 3S 3C 6H 5D KD QH 2C 6D 6C JH 4C JC 8D "
     "AS 2S W W W W"),
    ("*", "simple-rummy", "QS 4D QH 9S 7H 6D 10C 5H JC 3D 4S 5C 4H 7D 5D 7C 9D 5S 2H 7S AH 3H KD 9C 6S KS 10S "
     "10D 2C JS 8H 9H 4C 2S 3C AS 6C W W W"),
    # found by this hunt (seed 11): arrange_all 265 ms, then a V3 check (4 sequences, exactly one)
    ("*", "simple-rummy", "5H 7S JD 6D 7H KH QC 8S 10C 9S 2S AD 7D 10D 8H QS 3S AC 8C AH 3C 10S KC 5D 2D 5C "
     "3D 9H 4H JH W W W"),
    ("*", "rummy-2m", "AD QC 4H 8S 9D AC 10H 7C 7H 5C 4S QS 10S 10D 9H 7S 8C 7D W W W W W W"),
    ("*", "simple-rummy", "9S 9D JD QC AC 7D 3C 4S AH JH 7C 4H QS 7H 9H 3D JS QD 7S 4C AD 9C 4D 3H JC AS 3S "
     "QH W W W W W W W"),
    # found by hunts of engine3 (seeds 7, 11): going-out checks the relaxed search says may go
    # out while no choice of aces played high does (every choice searched), and arrange_all's
    # slowest; a "go_out V3 S/N mode" entry is also run with that condition
    ("go_out V3 2/2 at-most-one", "simple-rummy", "6H 6C 5D 10S 7H 7S 5C 2S AH AS 2C QD JH JS JC 3H 7C 10D AD 2D "
     "9C 4S 2H 3C 4H AC W W W W W W"),
    ("go_out V3 4/1 at-most-one", "rummy-2m", "QH 2S 3H AS 4C QD 2D 4D 7C 9H 6D 7S 5D AH 9D KS JC 9C 9S 4H 8H JD "
     "8S 3S 7H 4S AC AD 8D W W W W"),
    ("go_out V3 4/2 at-most-one", "rummy-2m", "4H KD 10C 3C JH 7H JS 6D 5C QD 3D 4C 7S AD 3S 7D KC AS KS 6S 10S "
     "3H 6H AC AH 4S W W W W"),
    ("arrange_all", "rummy-2m", "5C 8D 4H 7D QH 7C KD 9D 5S QS 8C 3D 8S KH 2H AS AH AC 10S 6C 9C 6H 2S JS 4D 9H 8H "
     "JH 2C 3S 7S JC 6S 5H 3C 4C 10D AD W W"),
    ("arrange_all", "rummy-2m", "JH 5D 10S 9H 5S 10C 2C QS 4H 2S 9S 6H 2D KD 7S 3C 6C AH 6S 2H 6D KC AS QC 10D 7C "
     "7H JD 8C JS W W W"),
]
#: tables that cannot be seated (refused), and the slowest legal ones found
KNOWN_TABLES: list[tuple[list[str], list[str]]] = [
    (["Bill=2S 3S 4S", "Ben=9H"], []),
    (["Bill=2S 3S 5S 6S 8S 9S W", "Ben=2H 3H 5H 6H W"], []),
    (["Bill=2S 3S 4S / 5S 6S 7S", "Ben=8S 9S 10S JS QS KS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
      "Larry=2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2C 3C 5C 7C 8C W"], []),
    # found by this hunt (seed 11): a legal table refused after 2.2 s, a changed one after 4.4 s
    (["Bill=W QC KC / W=8C>run / 9C>QC / 10C", "Ben=7S 8S 9S 2S>7S 4S>Ben 6C 7C 3H 3D W=3C 4D W 6D",
      "Larry=8D 9D 10D JD>run 3S 5S 4H W 6H W>4H 10H JH QH KH"], ["Larry=AS", "Ben=6S>7S", "Larry=9H>10H"]),
    (["Bill=10H>JH 3C 4C 5C 7D 8D 9D 6D>Bill 9S 10S JS 7S 8S>Bill 4D 4H W",
      "Ben=JH QH KH / W / W=KD / W / 6S / 2H 2C 2D / KC>9C", "Larry=8H>run 9H AH W>3C 10D QD 5S 9C 10C JC QC>run KD"],
     ["Ben=7H", "Larry=7C>run", "Bill=8C"]),
    # legal tables refused after the whole budget ("too many ways to try"): the first seats
    # since a stated W=2D counts as a 2 among a player's matches; on the second the last
    # resort still tries 137 choices of cores that each let every loose card fit, none all at once
    (["Bill=7C 8C 9C AC JH QH KH JS W KS", "Ben=10C>run QC 6D>Larry 7D W 3H W 5H 6H 7H 8H>run",
      "Larry=2S W=2D 2C JC>Bill JD QD KD 3D 4D 5D 3S 4S 5S 6S>run AS"],
     ["Larry=KC", "Larry=10D>JD", "Bill=10H>run", "Ben=8D>3D", "Bill=10S", "Larry=W"]),
    (["Bill=6S>run KS 6H 7H 8H 9H>Bill 3D W 3C 10C 7D>Ben JD",
      "Ben=2C 2S 2D 4D 4C 4H 5D 5C W AS>run W=7C 8C 9C JC QC>Ben AC 8D 9D W",
      "Larry=JH QH KH 10H>JH AH>Larry 10S JS QS W 8S QD"], ["Ben=9S", "Bill=6C>8C", "Larry=W"]),
    # issue 12: a legal table refused "too many ways to try" (the cover needed 277,000 steps);
    # seated since branch seat2 (some 25,000 steps)
    (["Bill=W W 6C / 2S / 3D / 9D 10D JD / 6H 7H 8H", "Ben=KD KH KC 2D W 2H 6D 7D 8D 4S 5S 6S 9S JS>run",
      "Larry=AC W AS 7C KS W 9H>Bill JH 8S>Ben"],
     ["Ben=5D", "Ben=5H>6H", "Bill=W>6H", "Ben=QH", "Ben=7S", "Ben=10S", "Bill=QS>4S"]),
    # found by this hunt (seed 2026, 150 s, stop 26): a legal table seated after about 0.9 s,
    # and a changed one refused after about 0.55 s (the cover's search, both)
    (["Bill=W 8C 7D>run 8D>run W 2D 2S 8S 5H 6H 7H",
      "Ben=9C 10C JC / 5C / W=9D>4D / 10D / 9S 10S JS / 6S>run / QS>Ben / W>run / W / 3H 3S 3C",
      "Larry=W=3D 4D W / 6D / 7S / AS AH AC / 8H / JH / KC KS KH / QD QC QH"],
     ["Larry=6C", "Bill=JD", "Bill=9H>Bill"]),
    (["Bill=6D 10D 8H 9H 10H W=JH 4H 5H W", "Ben=JD QD KD 8D 4C 5C 6C 2C 8C>run 9C AH>4H 7H W KC KH",
      "Larry=3C>4C / 2H>run / W=3H / 2S 3S W / 6S JH"],
     ["Ben=5D>JD", "Larry=7D", "Bill=9D", "Ben=7C", "Ben=10C>Ben", "Bill=AS>run", "Ben=W>Larry"]),
]


@dataclass
class Tally:
    """The times of one function and of the baseline on the same inputs."""

    times: list[float] = field(default_factory=list)
    base: list[float] = field(default_factory=list)
    worst: tuple[float, str] = (0.0, "")
    outcomes: dict[str, int] = field(default_factory=dict)

    def add(self, t: float, base: float, what: str, outcome: str = "") -> None:
        self.times.append(t)
        self.base.append(base)
        if t > self.worst[0]:
            self.worst = (t, what)
        if outcome:
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    """Warm time of ``fn()``: once untimed, then timed (three times when slow, the least)."""
    started = time.perf_counter()
    try:
        result: object = fn()
    except RummyrefError as exc:
        result = exc
    cold = time.perf_counter() - started
    best = None
    for _ in range(3 if cold < SLOW else 1):
        started = time.perf_counter()
        try:
            fn()
        except RummyrefError:
            pass
        t = time.perf_counter() - started
        best = t if best is None else min(best, t)
        if best <= RETIME:
            break
    assert best is not None
    return best, result


def text(cards) -> str:
    return " ".join(str(c) for c in cards)


# -- inputs ------------------------------------------------------------------------------


def dense_hand(rng: random.Random, lo: int = 18, hi: int = 52, wild: int = 7) -> list[Card]:
    """18..52 natural cards, mostly from a few ranks or a few suits, and 0..7 WILDCARDs."""
    style = rng.random()
    if style < 0.35:
        ranks = rng.sample(range(1, 14), rng.randint(6, 13))
        pool = [c for c in DECK if c.rank in ranks]
    elif style < 0.7:
        suits = rng.sample(range(4), rng.randint(2, 4))
        pool = [c for c in DECK if c.index // 13 in suits]
    else:
        pool = list(DECK)
    n = rng.randint(min(lo, len(pool)), min(hi, len(pool)))
    return rng.sample(pool, n) + [WILD] * rng.randint(0, wild)


def _card(suit, pos: int) -> Card:
    return Card(Rank.ACE if pos == 14 else Rank(pos), suit)


def legal_table(rng: random.Random, melds: int, wild_limit: int) -> tuple[list[str], list[str]]:
    """A table some play could have produced: melds laid by one player (three cards), every
    other card laid off or claimed by anyone, WILDCARDs said (W=7H) or not, designations
    that are true (>run, >match, >NAME, >CARD), each player stating melds with '/' or not."""
    used: set[Card] = set()
    parts: dict[str, list[str]] = {n: [] for n in ROSTER}
    claims: list[str] = []
    wild = 0
    for _ in range(melds * 4):
        if melds <= 0:
            break
        if rng.random() < 0.55:
            n = rng.randint(3, 9)
            suit, start = rng.choice(SUITS), rng.randint(1, 15 - n)
            cards, kind = [_card(suit, p) for p in range(start, start + n)], "run"
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
            if wild < wild_limit and rng.random() < 0.12:
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


def perturbed(rng: random.Random, table: tuple[list[str], list[str]]) -> tuple[list[str], list[str]]:
    """The table with one card changed for a card not on it, or one more such card laid off:
    most such tables cannot be seated."""
    melded, claims = table
    on_table = {t.split("=")[0].split(">")[0] for m in melded + claims for t in m.split("=", 1)[1].split()}
    spare = [str(c) for c in DECK if str(c) not in on_table]
    if not spare:
        return melded, claims
    new = rng.choice(spare)
    i = rng.randrange(len(melded))
    name, cards = melded[i].split("=", 1)
    tokens = cards.split()
    spots = [k for k, t in enumerate(tokens) if t[0] != "W" and t != "/"]
    if rng.random() < 0.5 or not spots:
        tokens.append(new)
    else:
        tokens[rng.choice(spots)] = new
    return melded[:i] + [f"{name}={' '.join(tokens)}"] + melded[i + 1:], claims


def table_cards(table: tuple[list[str], list[str]]) -> list[Card]:
    """The cards of a table as one hand (for the baseline)."""
    out = []
    for m in table[0] + table[1]:
        for t in m.split("=", 1)[1].replace("/", " ").split():
            out += parse_cards(t.split(">")[0].split("=")[0])
    return out


def gin_knock(rng: random.Random, rules: RuleSet) -> tuple[list[Card], list[Card]]:
    """A knocker's ten cards with deadwood within the knock limit, and a defender's ten."""
    while True:
        pool = rng.sample(DECK, 20)
        knocker = pool[:10]
        if gin.deadwood(knocker, rules).value <= gin.knock_limit(rules):
            return knocker, pool[10:]
        # make it meld more: swap in cards next to a knocker's card
        for _ in range(30):
            c = rng.choice(knocker)
            near = [d for d in DECK if d not in pool and (d.rank == c.rank or (d.suit == c.suit and abs(d.rank - c.rank) <= 2))]
            if not near:
                continue
            j = rng.randrange(10)
            pool[j] = rng.choice(near)
            knocker = pool[:10]
            if len(set(pool)) == 20 and gin.deadwood(knocker, rules).value <= gin.knock_limit(rules):
                return knocker, pool[10:]


# -- the functions -----------------------------------------------------------------------


def hand_functions(rng: random.Random) -> dict[str, Callable[[list[Card], RuleSet], object]]:
    s, n, mode = rng.randint(1, 4), 0, rng.choice(["at-most-one", "exactly-one", "all"])
    n = rng.randint(0, min(s, 2))
    return {
        "best_melding": best_melding,
        "fewest_unmelded": fewest_unmelded,
        "arrange_all": arrange_all,
        "go_out at-most-one": lambda h, r: go_out_check(h, r, "at-most-one"),
        "go_out all": lambda h, r: go_out_check(h, r, "all"),
        "go_out exactly-one": lambda h, r: go_out_check(h, r, "exactly-one"),
        "go_out sequences 2/1": lambda h, r: go_out_check(h, r, "at-most-one", 2, 1),
        f"go_out V3 {s}/{n} {mode}": lambda h, r: go_out_check(h, r, mode, s, n),
    }


def row_name(name: str) -> str:
    return "go_out V3 any S/N/mode" if name.startswith("go_out V3") else name


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--hands", type=int, default=None, help="random hands to try (tables and knocks: a quarter as many)")
    ap.add_argument("--seconds", type=float, default=None, help="hunt this long instead (default 60)")
    ap.add_argument("--quick", action="store_true", help="a short hunt: 200 hands unless --hands says")
    ap.add_argument("--skip-known", action="store_true", help="random inputs only (not KNOWN, KNOWN_TABLES)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a function's worst exceeds 50 ms")
    args = ap.parse_args(argv)
    hands = args.hands if args.hands is not None else (200 if args.quick else None)
    seconds = args.seconds if args.seconds is not None else (None if hands is not None else 60.0)
    rng = random.Random(args.seed)
    rulesets = {name: load_ruleset(name) for name in ("rummy-2m", "simple-rummy", "gin")}
    long_rs = rulesets["rummy-2m"]
    tallies: dict[str, Tally] = {}

    def tally(name: str) -> Tally:
        return tallies.setdefault(name, Tally())

    def one_hand(cards: list[Card], rs_name: str, funcs) -> None:
        rs = rulesets[rs_name]
        base, _ = timed(lambda: best_melding(cards, rs))
        what = f"{rs_name}: {text(cards)}"
        for name, fn in funcs.items():
            t, _ = timed(lambda fn=fn: fn(cards, rs))
            tally(row_name(name)).add(t, base, f"{name}, {what}")
        naturals = [c for c in cards if not c.is_wild]
        gin_rs = rulesets["gin"]
        gbase, _ = timed(lambda: best_melding(naturals, gin_rs))
        t, _ = timed(lambda: gin.deadwood(naturals, gin_rs))
        tally("gin deadwood (aces low)").add(t, gbase, f"gin: {text(naturals)}")

    def one_table(table: tuple[list[str], list[str]], label: str, wild: int = 7) -> None:
        melded, claims = table
        cards = table_cards(table)
        base, _ = timed(lambda: best_melding(cards, long_rs))
        t, result = timed(lambda: score_hand(read_hand(ROSTER, melded, (), claims), long_rs, wild, ROSTER))
        outcome = "refused" if isinstance(result, RummyrefError) else "seated"
        shown = " ".join(f'--melded "{m}"' for m in melded) + "".join(f' --claim "{c}"' for c in claims)
        tally(label).add(t, base, f"{len(cards)} cards, {outcome}: {shown}", outcome)

    def one_knock(knocker: list[Card], defender: list[Card]) -> None:
        rs = rulesets["gin"]
        base, _ = timed(lambda: best_melding(knocker + defender, rs))
        t, result = timed(lambda: gin.settle(knocker, defender, gin.Ending.KNOCK, rs))
        tally("gin settle (knock)").add(t, base, f"knocker {text(knocker)}; defender {text(defender)}")

    started = time.perf_counter()
    if not args.skip_known:
        for fname, rs_name, hand_text in KNOWN:
            funcs = hand_functions(rng)
            funcs["go_out V3 4/0 exactly-one"] = lambda h, r: go_out_check(h, r, "exactly-one", 4, 0)
            if fname.startswith("go_out V3 "):  # the condition it was found slowest with
                seqs, nat = map(int, fname.split()[2].split("/"))
                funcs[fname] = lambda h, r, m=fname.split()[3], s=seqs, n=nat: go_out_check(h, r, m, s, n)
            one_hand(parse_cards(hand_text), rs_name, funcs)
        for table in KNOWN_TABLES:
            one_table(table, "seat a table, any (known)")
    tried = 0
    while True:
        if hands is not None and tried >= hands:
            break
        if seconds is not None and time.perf_counter() - started >= seconds:
            break
        rs_name = "rummy-2m" if tried % 2 else "simple-rummy"
        one_hand(dense_hand(rng), rs_name, hand_functions(rng))
        if tried % 4 == 0:
            table = legal_table(rng, rng.randint(1, 20), 7)
            one_table(table, "seat a legal table")
            one_table(perturbed(rng, table), "seat a changed table")
            # at the rule set's own limit (the house game and 500 Rum: 2 WILDCARDs at most)
            limit = long_rs.wild_max
            table = legal_table(rng, rng.randint(1, 20), limit)
            one_table(table, f"seat a legal table, <= {limit} W", limit)
            one_table(perturbed(rng, table), f"seat a changed table, <= {limit} W", limit)
            one_knock(*gin_knock(rng, rulesets["gin"]))
        tried += 1
    elapsed = time.perf_counter() - started

    known = 0 if args.skip_known else len(KNOWN)
    print(f"hunt: seed {args.seed}, {tried} random hands (+{known} known), {elapsed:.0f} s, "
          f"Python {sys.version.split()[0]}")
    print("warm times in ms; baseline: best_melding on the same cards")
    print(f"{'function':30} {'tried':>6} {'median':>7} {'p99':>7} {'worst':>7}  {'base med':>8} {'worst':>6}")
    failed = []
    for name, tl in tallies.items():
        times = sorted(tl.times)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        label = name + (f" ({', '.join(f'{v} {k}' for k, v in sorted(tl.outcomes.items()))})" if tl.outcomes else "")
        if len(label) > 30:
            print(label)
            label = ""
        print(f"{label:30} {len(times):>6} {statistics.median(times) * 1e3:>7.2f} {p99 * 1e3:>7.2f} "
              f"{tl.worst[0] * 1e3:>7.1f}  {statistics.median(tl.base) * 1e3:>8.2f} {max(tl.base) * 1e3:>6.1f}")
        if tl.worst[0] > TARGET:
            failed.append(name)
    print("\nthe worst input of each function:")
    for name, tl in tallies.items():
        lines = textwrap.wrap(f"{name}, {tl.worst[0] * 1e3:.1f} ms: {tl.worst[1]}", 78, subsequent_indent="    ",
                              break_on_hyphens=False)
        print("\n".join(lines))
    if args.check:
        print(f"\ncheck: worst <= {TARGET * 1e3:.0f} ms: " + ("FAIL " + ", ".join(failed) if failed else "PASS"))
        return 1 if failed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
