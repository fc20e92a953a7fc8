"""How long do the light commands take to start, next to importing typer and rich?

Times real subprocesses (``python -m rummyref ARGS``, this checkout's code) against the
baseline ``python -c "import typer, rich.console"``, interleaved in one run (baseline,
command, baseline, command, ...) so that the machine's load weighs on both alike. Each
command's ratio is the median of its runs over the median of the baseline runs paired
with it. Targets (issue 11): ``ref --version`` at most 1.3x, ``ref ruling`` at most 1.6x (issue 14: also
with a record, when it reads the game being played).

Before timing, the package is byte-compiled (as installing it does; the environment may
say PYTHONDONTWRITEBYTECODE) and every command runs once untimed, so ``ref ruling``
finds its index in the cache (a fresh, temporary ``RUMMYREF_CACHE``); one more line
times it with the cache off, to show what the cache saves.

    python bench/bench_startup.py [--rounds 15] [--check]

``--check`` exits 1 when a target fails (without it, the figures are only printed).
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = 'python -c "import typer, rich.console"'


@dataclass(frozen=True)
class Case:
    label: str
    args: tuple[str, ...]
    target: float | None = None  #: the most a ratio to the baseline may be
    env: tuple[tuple[str, str], ...] = ()  #: variables set for this command only


CASES = (
    Case("ref --version", ("--version",), 1.3),
    Case("ref --help", ("--help",)),
    Case("ref count AS 2S 3S", ("count", "AS", "2S", "3S")),
    Case('ref ruling "pizza"', ("ruling", "pizza"), 1.6),
    # with a record, ruling reads the game being played (sqlite3, no SQLAlchemy: issue 14)
    Case('ref ruling "pizza" (a night open)', ("ruling", "pizza"), 1.6, env=(("RUMMYREF_DB", "@TMP@/night.db"),)),
    # for information: what the index cache saves (the rulebooks parsed, the index built)
    Case('ref ruling "pizza" (cache off)', ("ruling", "pizza"), env=(("RUMMYREF_CACHE", "off"),)),
    Case("ref first-dealer --help", ("first-dealer", "--help")),
)


def run_once(argv: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one process; a failing command stops the benchmark."""
    started = time.perf_counter()
    proc = subprocess.run(argv, check=False, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    return wall


def measure(rounds: int, env: dict[str, str]) -> dict[str, tuple[list[float], list[float]]]:
    """Per case: its samples and the baseline samples taken just before each of them."""
    base = [sys.executable, "-c", "import typer, rich.console"]
    ref = [sys.executable, "-m", "rummyref"]
    tmp = env["RUMMYREF_CACHE"]
    run_once(ref + ["new-session"], {**env, "RUMMYREF_DB": f"{tmp}/night.db"})  # a Rummy Night open

    def env_of(case: Case) -> dict[str, str]:
        return {**env, **{k: v.replace("@TMP@", tmp) for k, v in case.env}}

    for case in CASES:  # warm-up: the page cache, the ruling index cache
        run_once(base, env)
        run_once(ref + list(case.args), env_of(case))
    samples: dict[str, tuple[list[float], list[float]]] = {c.label: ([], []) for c in CASES}
    for _ in range(rounds):
        for case in CASES:
            own, paired = samples[case.label]
            paired.append(run_once(base, env))
            own.append(run_once(ref + list(case.args), env_of(case)))
    return samples


def report(samples: dict[str, tuple[list[float], list[float]]], rounds: int) -> bool:
    """Print the table; True when every target holds."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"start-up: {rounds} rounds, interleaved; load average {load}, {os.cpu_count()} CPUs")
    print(f"{'command':<38}{'min ms':>8}{'median ms':>11}{'ratio':>8}  target")
    pooled = [t for _, paired in samples.values() for t in paired]
    print(f"{BASELINE:<38}{min(pooled) * 1e3:8.1f}{statistics.median(pooled) * 1e3:11.1f}"
          f"{1:7.2f}x")
    ok = True
    for case in CASES:
        own, paired = samples[case.label]
        ratio = statistics.median(own) / statistics.median(paired)
        verdict = ""
        if case.target is not None:
            passed = ratio <= case.target
            ok = ok and passed
            verdict = f"<= {case.target}x {'PASS' if passed else 'FAIL'}"
        line = (f"{case.label:<38}{min(own) * 1e3:8.1f}{statistics.median(own) * 1e3:11.1f}"
                f"{ratio:7.2f}x  {verdict}")
        print(line.rstrip())
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15, help="timed runs of each command (default 15)")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target fails")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    compileall.compile_dir(ROOT / "rummyref", quiet=1)
    with tempfile.TemporaryDirectory(prefix="rummyref-bench-") as tmp:
        env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80", RUMMYREF_CACHE=tmp, RUMMYREF_NO_RULING_LOG="1",
                   RUMMYREF_DB=str(Path(tmp) / "none.db"))
        env.pop("_REF_COMPLETE", None)
        ok = report(measure(args.rounds, env), args.rounds)
    if args.check and not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
