"""How long does ``ref standings`` take on a 25-year history?

Builds two real databases with the real schema (migrations) and a real hash chain:
- a synthetic 25-year history: 40,000 hands, three players, one Rummy Night a week;
- a short one: 30 hands;
then times ``python -m rummyref standings`` on each (a real subprocess, median of N runs)
side by side with ``python -c "import sqlmodel, typer, rich"``, and prints a table.

Targets (issue 3): 40,000 hands <= 1.3 x the import baseline, and <= 10% over 30 hands.

    python bench/bench_standings.py [--runs 15] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rummyref.chain import GENESIS, entry_hash  # noqa: E402

PLAYERS = ("Bill", "Ben", "Larry")


def build(path: Path, hands: int, seed: int = 2000000) -> float:
    """A history of ``hands`` hands (points form), bulk-inserted in one transaction."""
    from rummyref.rules.ruleset import builtin_path
    from rummyref.store.engine import make_engine, migrate
    from rummyref.store.migrations import rebuild_aggregates

    started = time.perf_counter()
    path.unlink(missing_ok=True)
    engine = make_engine(str(path))
    migrate(engine)
    rng = random.Random(seed)
    per_night = 30 if hands >= 30 else hands
    first = datetime(2001, 1, 4, 19, 0, tzinfo=UTC)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO game (id, name, ruleset, ruleset_text, target, wildcards, options, created_at) "
            "VALUES (1, 'rummy-2m', 'rummy-2m', ?, 2000000, 0, '{}', ?)",
            (builtin_path("rummy-2m").read_text(encoding="utf-8"), first.isoformat()),
        )
        conn.exec_driver_sql(
            "INSERT INTO player (id, game_id, name, seat, opening) VALUES (1, 1, 'Bill', 1, 0), "
            "(2, 1, 'Ben', 2, 0), (3, 1, 'Larry', 3, 0)"
        )
        nights = (hands + per_night - 1) // per_night
        now = datetime.now(UTC)
        start = now - timedelta(weeks=nights)
        sessions = [
            (n, 1, n, (start + timedelta(weeks=n - 1)).isoformat(timespec="seconds"),
             (start + timedelta(weeks=n - 1, hours=4)).isoformat(timespec="seconds"), "{}")
            for n in range(1, nights + 1)
        ]
        entries, results = [], []
        prev = GENESIS
        for h in range(1, hands + 1):
            night = (h - 1) // per_night + 1
            his = (h - 1) % per_night + 1
            points = {p: rng.randint(-40, 90) for p in PLAYERS}
            facts = {"form": "points", "points": points}
            created = (start + timedelta(weeks=night - 1, minutes=7 * his)).isoformat(timespec="seconds")
            dealer = PLAYERS[(his - 1) % 3]
            payload = {
                "game": "rummy-2m", "seq": h, "kind": "hand", "night": night, "hand": h, "hand_in_night": his,
                "dealer": dealer, "facts": facts, "reason": None, "target_seq": None, "created_at": created,
                "results": dict(sorted(points.items())),
            }
            digest = entry_hash(payload, prev)
            entries.append((h, 1, h, "hand", night, h, his, dealer, json.dumps(facts, sort_keys=True),
                            None, None, created, prev, digest))
            results += [(h, i + 1, points[p]) for i, p in enumerate(PLAYERS)]
            prev = digest
        raw = conn.connection.driver_connection
        raw.executemany("INSERT INTO session VALUES (?, ?, ?, ?, ?, ?)", sessions)
        raw.executemany("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", entries)
        raw.executemany("INSERT INTO result (entry_id, player_id, points) VALUES (?, ?, ?)", results)
        rebuild_aggregates(conn)
    engine.dispose()
    return time.perf_counter() - started


def timed(cmd: list[str], runs: int, env: dict) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--hands", type=int, default=40_000)
    ap.add_argument("--keep", type=Path, help="keep the databases in this folder")
    args = ap.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        run(args, args.keep)
    else:
        with tempfile.TemporaryDirectory(prefix="rummyref-bench-") as tmp:
            run(args, Path(tmp))


def run(args: argparse.Namespace, folder: Path) -> None:
    big, small = folder / "history-25y.db", folder / "history-30.db"
    t_big = build(big, args.hands)
    t_small = build(small, 30)
    print(f"built {args.hands:,} hands in {t_big:.1f} s ({big}), 30 hands in {t_small:.2f} s")
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    py = sys.executable
    cases = [
        ('python -c "import sqlmodel, typer, rich"', [py, "-c", "import sqlmodel, typer, rich"]),
        ("ref standings (30 hands)", [py, "-m", "rummyref", "standings", "--db", str(small)]),
        (f"ref standings ({args.hands:,} hands)", [py, "-m", "rummyref", "standings", "--db", str(big)]),
        (f"ref standings --json ({args.hands:,} hands)", [py, "-m", "rummyref", "standings", "--json", "--db", str(big)]),
    ]
    # interleave the runs so that machine noise hits every case alike
    samples: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(args.runs):
        for name, cmd in cases:
            samples[name].append(timed(cmd, 1, env))
    med = {name: statistics.median(v) for name, v in samples.items()}
    base = med[cases[0][0]]
    short = med[cases[1][0]]
    print(f"\nmedian of {args.runs} runs each (seconds)")
    print(f"{'command':<42} {'median':>8} {'x import':>9} {'vs 30 hands':>12}")
    for name, _ in cases:
        print(f"{name:<42} {med[name]:8.3f} {med[name] / base:9.2f} {100 * (med[name] / short - 1):+11.1f}%")
    long_ = med[cases[2][0]]
    ok1, ok2 = long_ <= 1.3 * base, long_ <= 1.1 * short
    print(f"\ntarget <= 1.3 x import baseline: {'met' if ok1 else 'MISSED'} ({long_ / base:.2f}x)")
    print(f"target <= 10% over 30 hands:     {'met' if ok2 else 'MISSED'} ({100 * (long_ / short - 1):+.1f}%)")
    t = time.perf_counter()
    r = subprocess.run([py, "-m", "rummyref", "verify", "--db", str(big)], capture_output=True, text=True, env=env)
    print(f"\n(for information) ref verify on {args.hands:,} hands: {time.perf_counter() - t:.2f} s, exit {r.returncode}")


if __name__ == "__main__":
    main()
