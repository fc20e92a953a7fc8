"""How long do ``ref verify`` and ``ref verify --seal`` take on a 25-year history?

Builds the 25-year record of ``bench_standings.py`` (40,000 hands, one Rummy Night a week: the
entries ``ref`` writes, the game's header and each night's opening and closing included), then
times real subprocesses (median of N runs): ``ref verify`` (every hash, the
fold of the whole log, every row compared, SQLite's integrity check) and ``ref verify --seal``
with a seal the record does not contain (the worst case: the whole log is scanned).

    python bench/bench_verify.py [--runs 3] [--hands 40000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_standings import build  # noqa: E402 (after the sys.path line above)


def timed(cmd: list[str], runs: int, env: dict, ok: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, check=False, capture_output=True, env=env, text=True)
        times.append(time.perf_counter() - t)
        assert r.returncode == ok, (cmd, r.returncode, r.stderr)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--hands", type=int, default=40_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rummyref-bench-") as tmp:
        db = Path(tmp) / "history-25y.db"
        built = build(db, args.hands)
        print(f"built {args.hands:,} hands in {built:.1f} s")
        env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
        ref = [sys.executable, "-m", "rummyref"]
        cases = [
            ("ref verify", [*ref, "verify", "--db", str(db)], 0),
            ("ref verify --seal (not there: full scan)", [*ref, "verify", "--db", str(db), "--seal", "0000-0000-00"], 8),
            ("ref standings", [*ref, "standings", "--db", str(db)], 0),
        ]
        print(f"median of {args.runs} runs (seconds)")
        for name, cmd, ok in cases:
            print(f"  {name:<44} {timed(cmd, args.runs, env, ok):7.2f}")


if __name__ == "__main__":
    main()
