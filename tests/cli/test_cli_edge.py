"""The CLI edge: exit codes, messages on stderr, never a traceback."""

from __future__ import annotations

import typer
from cli_helpers import ref, ref_subprocess
from typer.testing import CliRunner

from rummyref import __version__
from rummyref.cli.app import RefGroup
from rummyref.errors import ExitCode, NotFound, RuleRefusal, UnreadableCard


def _app_raising(exc: BaseException) -> typer.Typer:
    app = typer.Typer(cls=RefGroup, pretty_exceptions_enable=False)

    @app.command()
    def boom() -> None:
        raise exc

    @app.command()
    def fine() -> None:
        print("ok")

    return app


def test_version():
    result = ref("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"ref (rummyref) {__version__}"


def test_unknown_command_is_a_usage_error():
    result = ref("no-such-command")
    assert result.exit_code == ExitCode.USAGE


def test_errors_become_messages_and_exit_codes():
    runner = CliRunner()
    cases = [
        (UnreadableCard("ZZ", 2, 4, "write a rank and a suit"), ExitCode.BAD_INPUT, "unreadable card 'ZZ'"),
        (RuleRefusal("mid-round", rule="A4"), ExitCode.REFUSED, "refused (A4): mid-round"),
        (NotFound("no game 'x'"), ExitCode.NOT_FOUND, "error: no game 'x'"),
    ]
    for exc, code, text in cases:
        result = runner.invoke(_app_raising(exc), ["boom"])
        assert result.exit_code == code
        assert text in result.stderr and result.stdout == ""
        assert "Traceback" not in result.output


def test_a_bug_is_exit_1_without_a_traceback():
    result = CliRunner().invoke(_app_raising(ZeroDivisionError("oops")), ["boom"])
    assert result.exit_code == ExitCode.INTERNAL
    assert "internal error: ZeroDivisionError: oops" in result.stderr
    assert "Traceback" not in result.output


def test_real_process_version_and_help():
    proc = ref_subprocess("--version")
    assert proc.returncode == 0 and __version__ in proc.stdout
    proc = ref_subprocess("--help")
    assert proc.returncode == 0 and "Usage" in proc.stdout
    proc = ref_subprocess("--no-such-option")
    assert proc.returncode == ExitCode.USAGE and "Traceback" not in proc.stderr
