"""Helpers for driving the real CLI in tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from typer.testing import CliRunner

from rummyref.cli.app import app

runner = CliRunner()


def ref(*args: str, input: str | None = None):
    """Run ``ref ARGS`` in-process (typer's CliRunner); stdout and stderr are separate."""
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def ref_json(*args: str):
    result = ref(*args, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def ref_subprocess(*args: str, input: str | None = None, env: dict | None = None, timeout: float = 60):
    """Run ``python -m rummyref ARGS`` in a real subprocess."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "rummyref", *args],
        input=input,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def as_at_a_terminal() -> None:
    """``preexec_fn`` for a process on a pseudo-terminal: Ctrl-C (SIGINT) does what it does at a
    real terminal, even when the test run itself was started in the background of a
    non-interactive shell (which makes its children ignore SIGINT)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
