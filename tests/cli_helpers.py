"""Helpers for driving the real CLI in tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import typer.main
import typer.testing
from typer.testing import CliRunner

from rummyref.cli.app import app

runner = CliRunner()

_built: dict[typer.Typer, object] = {}


def _command_once(typer_app: typer.Typer):
    """The click command of ``typer_app``, built on its first run in this test process and kept.
    ``ref`` builds it once per process, as here; typer's runner would build it again on every
    call (inspecting every option of every command: a quarter of the tests' time).
    A command is a description: nothing of a run stays on it (its commands, loaded on first
    use, are the ones ``ref`` loads)."""
    if typer_app not in _built:
        _built[typer_app] = typer.main.get_command(typer_app)
    return _built[typer_app]


# typer's runner looks the command up through this name (typer 0.26-0.28); should a release
# rename it, this says so at once rather than leave the suite slow without a word
assert hasattr(typer.testing, "_get_command"), "typer's runner no longer builds through _get_command"
typer.testing._get_command = _command_once  # type: ignore[attr-defined]


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
