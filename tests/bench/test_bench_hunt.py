"""bench/bench_hunt.py runs and prints its table (its figures are measured by running it, never
by a test: a test only checks that the hunt works and reports every function)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FUNCTIONS = [
    "best_melding", "fewest_unmelded", "arrange_all", "go_out at-most-one", "go_out all", "go_out exactly-one",
    "go_out sequences 2/1", "go_out V3 any S/N/mode", "gin deadwood (aces low)", "seat a legal table",
    "seat a changed table", "seat a legal table, <= 2 W", "seat a changed table, <= 2 W", "gin settle (knock)",
]  # fmt: skip


def hunt(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(ROOT / "bench" / "bench_hunt.py"), *args],
                          capture_output=True, text=True, env=env, timeout=600)  # fmt: skip


def test_the_hunt_prints_a_row_and_a_worst_input_per_function():
    done = hunt("--quick", "--hands", "2", "--skip-known", "--seed", "3", "--check")
    assert done.returncode in (0, 1), done.stderr
    out = done.stdout
    assert out.startswith("hunt: seed 3, 2 random hands (+0 known)")
    table, worst = out.split("\nthe worst input of each function:\n")
    rows = table.splitlines()[3:]
    for name in FUNCTIONS:
        row = next((r for r in rows if r.startswith(name)), None)
        assert row is not None, name
        assert f"\n{name}, " in "\n" + worst
    # the hands' rows: 2 random hands tried; the baseline's median beside each
    best = next(r for r in rows if r.startswith("best_melding"))
    assert best.split()[1] == "2"
    assert all(len(line) <= 80 for line in out.splitlines())
    verdict = out.strip().splitlines()[-1]
    assert verdict.startswith("check: worst <= 50 ms: ")
    assert (verdict.endswith("PASS")) == (done.returncode == 0)


def _worst_inputs(out: str) -> list[str]:
    """The input of each worst (its wrapped lines joined), without the function and the
    condition: which of a hand's conditions was the slowest is timing, not the seed."""
    entries: list[str] = []
    for line in out.split("the worst input of each function:")[1].splitlines()[1:]:
        if line.startswith("    ") and entries:
            entries[-1] += " " + line.strip()
        elif " ms: " in line:
            entries.append(line)
    tails = [e.split(" ms: ", 1)[1] for e in entries]
    return [t.rsplit(": ", 1)[-1] for t in tails]


def test_the_same_seed_tries_the_same_inputs():
    first, second = (hunt("--hands", "1", "--skip-known", "--seed", "5").stdout for _ in range(2))
    worst_inputs = _worst_inputs(first)
    assert len(worst_inputs) == len(FUNCTIONS)
    assert sorted(worst_inputs) == sorted(_worst_inputs(second))
