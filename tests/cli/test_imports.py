"""Commands that must stay light: no sqlmodel / sqlalchemy import, quick start-up.

Each command runs in a fresh interpreter (a subprocess); the probe runs the CLI, then
reports the heavy modules found in ``sys.modules``. Wall time is printed (``pytest -s``)
and held to a generous bound so a busy machine does not make the test flaky; the measured
figures are in the README. Add commands to ``LIGHT_COMMANDS``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

LIGHT_COMMANDS = [
    ["--help"],
    ["--version"],
    ["count", "AS", "2S", "3S"],
    ["count", "7S 7H W W 2C 3C 4C KD", "--ruleset", "simple-rummy", "--json"],
]

_PROBE = (
    "import sys\n"
    "from rummyref.cli.app import main\n"
    "sys.argv = ['ref'] + sys.argv[1:]\n"
    "try:\n    main()\n"
    "except SystemExit as e:\n    code = e.code\n"
    "else:\n    code = 0\n"
    "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlmodel', 'sqlalchemy'))\n"
    "sys.stderr.write(f'\\nHEAVY={heavy} CODE={code}\\n')\n"
)


def _env():
    return dict(os.environ, PYTHONPATH=os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", ""))


@pytest.mark.parametrize("args", LIGHT_COMMANDS, ids=lambda a: " ".join(a))
def test_command_does_not_import_the_database_layer(args):
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, env=_env(), timeout=60
    )
    assert "HEAVY=[] CODE=0" in proc.stderr, proc.stderr[-2000:]


@pytest.mark.parametrize("args", LIGHT_COMMANDS, ids=lambda a: " ".join(a))
def test_command_starts_quickly(args):
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "rummyref", *args], capture_output=True, text=True, env=_env(), timeout=60
        )
        runs.append(time.perf_counter() - started)
        assert proc.returncode == 0, proc.stderr
    best = min(runs)
    print(f"\nref {' '.join(args)}: best of 3 wall {best * 1000:.0f} ms")
    assert best < 1.0
