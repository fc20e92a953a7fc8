"""Stop 38's audit of exit codes: a closed standard output or error, an option given empty,
a folder for a chart's image, ``ref count``'s usage error at 80 columns."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from cli_helpers import ref

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_closed(args: list[str], db: str, close: int) -> subprocess.CompletedProcess:
    """``python -m rummyref ARGS`` with standard output (1) or error (2) closed, as ``>&-``."""
    env = {**os.environ, "RUMMYREF_DB": db, "COLUMNS": "80"}
    return subprocess.run(["bash", "-c", f'exec "$@" {close}>&-', "-", sys.executable, "-m", "rummyref", *args],
                          capture_output=True, env=env, cwd=ROOT, timeout=60)


def test_a_closed_standard_output_is_exit_6_without_a_traceback_and_the_write_stands(tmp_path):
    db = str(tmp_path / "t.db")
    assert ref("new-session", "--db", db).exit_code == 0
    for args, code in ((["standings"], 6), (["count", "AS", "--json"], 6),
                       (["score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3"], 6),
                       (["--version"], 6), (["standings", "--game", "nosuch"], 5)):
        done = run_closed(args, db, close=1)
        assert done.returncode == code, (args, done.stderr)
        assert b"Traceback" not in done.stderr
        if code == 6:
            assert b"error: the output cannot be written: standard output is closed" in done.stderr
        said = " ".join(done.stderr.decode().split())
        if args[0] == "score-hand":  # what stands is named, so that nobody enters it twice (audit output46 #8)
            assert "hand 1 of rummy-2m was recorded (entry 3), and stands" in said
            assert "do not enter it again" in said
        elif args == ["standings"]:
            assert "nothing was written to the record" in said
    history = ref("history", "--db", db, "--json")
    assert history.exit_code == 0 and '"hand": 1' in history.stdout  # the hand scored stands


def test_a_closed_standard_error_keeps_the_data_and_the_exit_code(tmp_path):
    db = str(tmp_path / "t.db")
    assert ref("new-session", "--db", db).exit_code == 0
    done = run_closed(["standings", "--json"], db, close=2)
    assert done.returncode == 0 and done.stdout.startswith(b"{")
    assert run_closed(["standings", "--game", "nosuch"], db, close=2).returncode == 5


@pytest.mark.parametrize("args, option", [
    (("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3", "--dealer", ""), "--dealer"),
    (("score-hand", "-m", "Bill=AS 2S 3S", "--held", "Ben=", "--held", "Larry=", "--out", ""), "--out"),
    (("count", "AS", "-r", ""), "--ruleset"),
    (("ruling", "pizza", "--ruleset", ""), "--ruleset"),
    (("dispute", "claim", "--called", "Bill=Ben", "--touched", "Bill=Ben", "--judge-says", ""), "--judge-says"),
    (("dispute", "claim", "--called", "Bill", "--touched", "Bill", "--players", ""), "--players"),
    (("dispute", "end-night", "--hands", "2", "--players", " "), "--players"),
    (("score-hand", "--melded", "", "--points", "Bill=1"), "--melded"),
])
def test_an_option_given_empty_is_refused_naming_it_and_nothing_is_written(record, args, option):
    assert ref("new-session").exit_code == 0
    before = record.snapshot()
    result = ref(*args)
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr.startswith(f"error: {option} was given empty")
    assert f"give {option} a value, or leave it out" in result.stderr
    assert record.snapshot() == before


@pytest.mark.parametrize("args, option", [
    (("void", "1", "--reason", "   "), "--reason"),
    (("amend", "1", "--points", "Bill=2", "--points", "Ben=0", "--points", "Larry=0", "--reason", ""), "--reason"),
    (("dispute", "pickup", "7S", "--hand", ""), "--hand"),
])
def test_a_required_option_given_empty_is_never_told_to_be_left_out(record, args, option):
    """Leaving out a required option is a usage error (exit 2): the hint asks for a value."""
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", "--points", "Bill=1", "--points", "Ben=0", "--points", "Larry=0").exit_code == 0
    before = record.snapshot()
    result = ref(*args)
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr.startswith(f"error: {option} was given empty")
    assert f"give {option} a value: it is required" in result.stderr and "leave it out" not in result.stderr
    assert record.snapshot() == before
    at = args.index(option)
    assert ref(*args[:at], *args[at + 2:]).exit_code == 2  # left out: the usage error the hint must not offer


@pytest.mark.parametrize("option, words", [("--game", "error: --game needs a name"),
                                           ("--db", "error: --db was given empty")])
def test_db_and_game_given_empty_keep_their_own_words(record, option, words):
    assert ref("new-session").exit_code == 0
    result = ref("standings", option, "")
    assert result.exit_code == 3 and result.stderr.startswith(words)


def test_a_folder_for_the_charts_image_is_exit_3_as_for_export(record, tmp_path):
    assert ref("new-session").exit_code == 0
    ref("score-hand", "--points", "Bill=10", "--points", "Ben=0", "--points", "Larry=5")
    folder = tmp_path / "d1"
    folder.mkdir()
    for args in (("chart", "--png", str(folder)), ("export", "-o", str(folder))):
        result = ref(*args)
        assert (result.exit_code, result.stdout) == (3, ""), (args, result.stderr)
        assert "is a folder" in result.stderr


@pytest.mark.parametrize("args", [("",), ("AS", "--jsonl")])
def test_counts_usage_errors_fit_80_columns(args, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    result = ref("count", *args)
    assert result.exit_code == 2
    assert max(len(line) for line in result.stderr.splitlines()) <= 80, result.stderr
