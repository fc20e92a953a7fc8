"""Peak memory and time of ``ref import`` of the largest file it accepts (issue 13).

Run from a checkout (Linux, needs /usr/bin/time):

    PYTHONPATH=. python bench/bench_import_memory.py

Builds a synthetic record (points hands, three players; ``bench_standings.build``) big enough
that its export is just under the import limit (16 MiB), exports it, then imports it into a
new file in a fresh process under ``/usr/bin/time -v`` and prints the peak resident set size
(RSS) and the wall time. The file over the limit is also tried: it must be refused at once,
before it is read.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_standings import build  # noqa: E402 (after the sys.path line above)

from rummyref.store.import_checks import MAX_BYTES  # noqa: E402

BYTES_PER_HAND = 1120  #: about, in an export (indent 1): each hand with its score and status, as ref writes it


def ref(*args: str) -> list[str]:
    return [sys.executable, "-m", "rummyref", *args]


def measured(cmd: list[str], env: dict) -> tuple[int, float, int, str]:
    """(exit code, wall seconds, peak RSS in KiB, stderr) of ``cmd`` under /usr/bin/time -v."""
    p = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, env=env, check=False)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", p.stderr)
    seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    return p.returncode, seconds, rss, p.stderr


def main() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory(prefix="ref-bench-import-") as tmp:
        folder = Path(tmp)
        hands = int(MAX_BYTES * 0.97 / BYTES_PER_HAND)
        while True:
            build(folder / "big.db", hands)
            export = folder / "big.json"
            export.unlink(missing_ok=True)
            subprocess.run(ref("export", "--db", str(folder / "big.db"), "-o", str(export)), check=True,
                           capture_output=True, env=env)
            size = export.stat().st_size
            if size <= MAX_BYTES:
                break
            hands = int(hands * MAX_BYTES / size * 0.99)
        code, seconds, rss, err = measured(ref("import", "--db", str(folder / "new.db"), str(export)), env)
        assert code == 0, err
        print(f"import of {size / 2**20:.2f} MiB ({hands:,} hands): peak RSS {rss / 1024:.0f} MiB, {seconds:.1f} s")
        _, _, base_rss, _ = measured([sys.executable, "-c", "import rummyref.cli.app"], env)
        print(f"  (python with ref's CLI loaded, doing nothing: {base_rss / 1024:.0f} MiB)")
        over = folder / "over.json"
        with open(over, "wb") as fh:
            fh.truncate(MAX_BYTES + 1)  # sparse: costs no disk
        code, seconds, rss, err = measured(ref("import", "--db", str(folder / "new2.db"), str(over)), env)
        assert code == 3, err
        print(f"a file of {MAX_BYTES + 1:,} bytes: refused (exit {code}) in {seconds:.2f} s, peak RSS {rss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
