"""The CLI edge: exit codes, messages on stderr, never a traceback."""

from __future__ import annotations

import pytest
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


def test_a_reader_that_stops_early_ends_ref_quietly_as_a_shell_tool():
    """``ref ruling b7 | head -1``: the closed pipe ends ref as SIGPIPE ends a shell tool (141 in
    the shell), with nothing on stderr: not "a bug in ref" (exit 1)."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-m", "rummyref", "ruling", "b7", "--ruleset", "rummy-2m"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader is gone before ref prints
    said = child.stderr.read()
    assert child.wait(timeout=60) == -13 and said == b""  # killed by SIGPIPE: 128 + 13 in a shell


@pytest.mark.sqlite_only("the record is a file that must not appear")
@pytest.mark.parametrize(("args", "code"), [(["new-session", "--opening", "Bill=1000000001"], 3),
                                            (["new-session", "--wildcards", "x"], 2),
                                            (["new-session", "--ruleset", "no-such-rules"], 5)])
def test_an_error_whose_reader_has_gone_still_ends_with_its_own_code(tmp_path, args, code):
    """Audit O item 8: ``ref ... 2>&1 | head -1`` gave 141 (killed by SIGPIPE while the error's
    second line was written) instead of the error's exit code. Real processes: one whose stderr
    is closed before it writes, and the shell pipeline as the audit ran it."""
    import subprocess
    import sys

    db = tmp_path / "p.db"
    child = subprocess.Popen([sys.executable, "-m", "rummyref", "--db", str(db), *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stderr.close()  # the reader is gone before ref says anything
    assert child.stdout.read() == b""
    assert child.wait(timeout=60) == code
    command = " ".join([sys.executable, "-m", "rummyref", "--db", str(db), *args])
    for _ in range(3):  # head may close the pipe before or after the second line: either way
        shell = subprocess.run(["bash", "-c", f"{command} 2>&1 | head -1; echo ${{PIPESTATUS[0]}}"],
                               capture_output=True, text=True, timeout=60)
        first, status = shell.stdout.splitlines()
        assert status == str(code) and first.strip(), shell.stdout
    assert not db.exists()


def test_an_output_that_cannot_be_written_is_not_a_bug(tmp_path):
    import os

    if not os.path.exists("/dev/full"):
        import pytest

        pytest.skip("no /dev/full here")
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "rummyref", "ruling", "b7", "--ruleset", "rummy-2m"],
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == int(ExitCode.STORAGE)
    assert r.stderr.splitlines()[0] == "error: the output cannot be written: No space left on device"
    assert "bug" not in r.stderr


def test_an_option_without_an_equals_sign_says_what_is_missing():
    assert ref("new-session").exit_code == 0
    r = ref("score-hand", "--melded", "Bill")
    assert r.exit_code == 3
    assert r.stderr.splitlines()[0] == "error: --melded 'Bill' has no '=': it does not say whose it is"
