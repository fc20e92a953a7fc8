"""How long do ``ref stats`` and ``ref chart`` take on a 25-year history?

Reuses the generator of ``bench_standings.py`` (40,000 hands, three players, one Rummy Night
a week, real schema and hash chain), then times real subprocesses (median of N runs):
``ref stats``, ``ref stats --json``, ``ref chart``, ``ref chart --png``, a name completion,
next to ``ref standings`` and the bare import baseline.

    python bench/bench_stats.py [--runs 5] [--hands 40000] [--keep DIR]
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
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from bench_standings import build  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--hands", type=int, default=40_000)
    ap.add_argument("--keep", type=Path, help="keep the database in this folder")
    args = ap.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        run(args, args.keep)
    else:
        with tempfile.TemporaryDirectory(prefix="rummyref-bench-") as tmp:
            run(args, Path(tmp))


def run(args: argparse.Namespace, folder: Path) -> None:
    db = folder / "history-25y.db"
    print(f"built {args.hands:,} hands in {build(db, args.hands):.1f} s ({db})")
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100", RUMMYREF_DB=str(db))
    py = sys.executable
    ref = [py, "-m", "rummyref"]
    cases = [
        ('python -c "import sqlmodel, typer, rich"', [py, "-c", "import sqlmodel, typer, rich"], {}),
        ("ref standings", ref + ["standings"], {}),
        ("ref stats", ref + ["stats"], {}),
        ("ref stats --json", ref + ["stats", "--json"], {}),
        ("ref chart", ref + ["chart"], {}),
        ("ref chart --png", ref + ["chart", "--png", str(folder / "chart.png"), "--overwrite"], {}),
        ("completion: score-hand --points B<TAB>", ref,
         {"_REF_COMPLETE": "complete_bash", "COMP_WORDS": "ref score-hand --points B", "COMP_CWORD": "3"}),
    ]
    samples: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    for _ in range(args.runs):
        for name, cmd, extra in cases:
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env={**env, **extra})
            samples[name].append(time.perf_counter() - t)
    base = statistics.median(samples[cases[0][0]])
    print(f"\nmedian of {args.runs} runs each, {args.hands:,} hands (seconds)")
    print(f"{'command':<42} {'median':>8} {'x import':>9}")
    for name, _, _ in cases:
        med = statistics.median(samples[name])
        print(f"{name:<42} {med:8.3f} {med / base:9.2f}")
    sys.path.insert(0, str(ROOT))
    from rummyref.games.registry import kind_for
    from rummyref.stats.compute import compute_stats
    from rummyref.store.stats import read_stats_input

    t = time.perf_counter()
    inp = read_stats_input(str(db), None, lambda rs: kind_for(rs).stats_style(rs))  # as ref stats reads it
    t_read = time.perf_counter() - t
    t = time.perf_counter()
    compute_stats(inp)
    t_compute = time.perf_counter() - t
    print(f"\nin-process: reading the log {t_read:.2f} s, computing the statistics {t_compute:.2f} s")


if __name__ == "__main__":
    main()
