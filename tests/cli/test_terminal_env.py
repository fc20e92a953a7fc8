"""The terminal and the environment (audit, stop 37): a terminal that cannot show UTF-8, a real
terminal's width for ``ref chart``, ``TERM=dumb`` and ``NO_COLOR``, an oversized ``COLUMNS``,
the head-to-head table's headings, and questions answered from a pipe. Real processes: the
encoding, the terminal and the environment are the process's own."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from cli_helpers import as_at_a_terminal

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
GIN_HAND = ["--hand", "José=5H 6H 7H 2S 2D 2C KC KD KS AH", "--hand", "Zoë=8H 9H 4H 3S 4S 5S QC QD 7C 7D"]


#: what decides the terminal's encoding: a test names the ones it sets, the others are unset
ENCODING_VARS = ("LC_ALL", "LC_CTYPE", "LANG", "PYTHONIOENCODING", "PYTHONUTF8")


def run(db: Path, *args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    """``python -m rummyref ARGS`` with the environment given; stdout and stderr as bytes. Where
    the test sets one of :data:`ENCODING_VARS`, the others are unset: what a user types."""
    full = dict(os.environ, RUMMYREF_DB=str(db), RUMMYREF_NOW="2026-11-12T19:30", **env)
    for name in [k for k in full if k in ("NO_COLOR", "FORCE_COLOR") and k not in env]:
        del full[name]
    if any(k in env for k in ENCODING_VARS):
        for name in [k for k in ENCODING_VARS if k not in env]:
            full.pop(name, None)
    return subprocess.run([sys.executable, "-m", "rummyref", *args], capture_output=True, env=full, timeout=120)


def on_a_terminal(db: Path, *args: str, columns: int = 80, **env: str) -> str:
    """What ``ref ARGS`` prints on a terminal ``columns`` wide (a pseudo-terminal)."""
    full = dict(os.environ, RUMMYREF_DB=str(db), RUMMYREF_NOW="2026-11-12T19:30", TERM="xterm-256color", **env)
    for name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
        if name not in env:
            full.pop(name, None)
    child = pexpect.spawn(sys.executable, ["-m", "rummyref", *args], env=full, encoding="utf-8", timeout=120,
                          dimensions=(40, columns), preexec_fn=as_at_a_terminal)
    text = child.read()
    child.close()
    assert child.exitstatus == 0, text
    return text.replace("\r\n", "\n")


@pytest.fixture
def gin_db(tmp_path: Path) -> Path:
    db = tmp_path / "r.db"
    assert run(db, "new-session", "--ruleset", "gin", "--players", "José,Zoë").returncode == 0
    return db


ASCII_TERMINALS = [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C"}, {"LANG": "C"}, {"LC_CTYPE": "C", "LANG": "C.UTF-8"},
                   {"LC_ALL": "POSIX"}, {"LC_ALL": "C", "PYTHONUTF8": "0"}]


@pytest.mark.parametrize("env", ASCII_TERMINALS,
                         ids=["ascii", "LC_ALL=C", "LANG=C", "LC_CTYPE=C", "LC_ALL=POSIX", "C-no-utf8-mode"])
def test_a_terminal_that_cannot_show_utf8_gets_what_it_can_show_and_the_hand_once(gin_db, env):
    done = run(gin_db, "score-hand", *GIN_HAND, "--knock", "José", **env)
    assert done.returncode == 0, done.stderr
    assert b"Jos\\xe9 scores 33" in done.stdout and b"Traceback" not in done.stderr
    count = run(gin_db, "count", "7S", "7H", "7D", **env)
    assert count.returncode == 0 and b"7S 7H 7D" in count.stdout  # the suits as letters, never an error
    standings = run(gin_db, "standings", "--json", **env)
    assert standings.returncode == 0 and b"\\u00e9" in standings.stdout  # JSON's own escape: the same JSON
    assert json.loads(standings.stdout)["players"] == ["José", "Zoë"]
    export = run(gin_db, "export", **env)  # a file's bytes: UTF-8 whatever the terminal
    assert export.returncode == 0 and "José".encode() in export.stdout
    assert json.loads(export.stdout.decode("utf-8"))["format"]
    history = json.loads(run(gin_db, "history", "--json").stdout)
    assert [e["kind"] for e in history["entries"]].count("hand") == 1


@pytest.mark.parametrize("env", [{"LC_ALL": "C"}, {"LC_ALL": "C", "PYTHONUTF8": "0"}], ids=["LC_ALL=C", "no-utf8-mode"])
def test_a_name_typed_in_utf8_in_the_c_locale_is_the_name(tmp_path, env):
    db = tmp_path / "r.db"
    made = run(db, "new-session", "--players", "José,Zoë,Ann", **env)
    assert made.returncode == 0, made.stderr
    players = json.loads(run(db, "standings", "--json").stdout)["players"]
    assert sorted(p["name"] for p in players) == ["Ann", "José", "Zoë"]


def test_the_c_locale_draws_in_ascii_and_an_asked_encoding_wins(tmp_path):
    """Python's UTF-8 mode makes stdout UTF-8 in the C locale (PEP 540): ref still draws in
    ASCII there, as the manual says, unless the user asked for UTF-8 (PYTHONUTF8=1,
    PYTHONIOENCODING). No locale set at all is not the user's word: UTF-8, as Python has it."""
    db = tmp_path / "r.db"
    assert run(db, "new-session", "--players", "Ann,Bob").returncode == 0
    assert run(db, "score-hand", "--points", "Ann=50", "--points", "Bob=10").returncode == 0
    standings = run(db, "standings", LC_ALL="C", COLUMNS="100")
    assert standings.returncode == 0 and standings.stdout.isascii() and b"...." in standings.stdout
    chart = run(db, "chart", LC_ALL="C", COLUMNS="80")
    assert chart.returncode == 0 and chart.stdout.isascii() and b"+---" in chart.stdout
    refused = run(db, "standings", "-g", "nosuch\u2026", LC_ALL="C")
    assert refused.returncode == 5 and refused.stderr.isascii()  # messages too
    for env in ({"LC_ALL": "C", "PYTHONUTF8": "1"}, {"LC_ALL": "C", "PYTHONIOENCODING": "utf-8"},
                {"LANG": "C.UTF-8"}, {"LC_ALL": "C.UTF-8", "LANG": "C"}, {"LANG": ""}):
        shown = run(db, "count", "7S", "8S", "9S", **env)
        assert shown.stdout.decode("utf-8").split("\n")[0].split()[1:4] == ["7♠", "8♠", "9♠"], env


@pytest.fixture
def charted(tmp_path: Path) -> Path:
    db = tmp_path / "r.db"
    assert run(db, "new-session", "--players", "Ann,Bob,Cy").returncode == 0
    for _ in range(3):
        assert run(db, "score-hand", "--points", "Ann=50", "--points", "Bob=10", "--points", "Cy=-5").returncode == 0
    assert run(db, "end-session").returncode == 0
    return db


@pytest.mark.parametrize("columns", [80, 40])
def test_the_chart_at_a_real_terminal_fits_it_line_by_line(charted, columns):
    """rich counted plotext's colour codes as text and folded every line of the plot."""
    shown = on_a_terminal(charted, "chart", columns=columns)
    assert "\x1b[" in shown  # in colour, as the other commands are at a terminal
    lines = ANSI.sub("", shown).rstrip("\n").split("\n")
    assert len(lines) <= 24 and max(len(line) for line in lines) <= columns
    frame = [line for line in lines if "┌" in line or "└" in line]
    assert len(frame) == 2 and all(len(line.rstrip()) == columns for line in frame)
    assert all(line.rstrip().endswith(("│", "┤")) for line in lines[lines.index(frame[0]) + 1:lines.index(frame[1])])


@pytest.mark.parametrize("env", [{"TERM": "dumb"}, {"NO_COLOR": "1"}], ids=["TERM=dumb", "NO_COLOR"])
@pytest.mark.parametrize("command", [("chart",), ("standings",), ("ruling", "pizza"), ("standings", "-g", "nosuch")])
def test_plain_terminals_get_no_escape_codes(charted, env, command):
    full = dict(os.environ, RUMMYREF_DB=str(charted), **{"TERM": "xterm-256color", **env})
    for name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
        if name not in env:
            full.pop(name, None)
    child = pexpect.spawn(sys.executable, ["-m", "rummyref", *command], env=full, encoding="utf-8", timeout=120,
                          dimensions=(40, 80), preexec_fn=as_at_a_terminal)
    text = child.read()
    child.close()
    assert text.strip() and "\x1b" not in text


def test_an_oversized_columns_is_taken_as_the_widest_terminal(charted):
    done = run(charted, "chart", COLUMNS="99999999999")
    assert done.returncode == 0, done.stderr[-500:]
    assert max(len(line) for line in done.stdout.decode().split("\n")) == 10_000


def test_head_to_head_numbers_its_columns_rather_than_cut_a_name(tmp_path):
    db = tmp_path / "r.db"
    long = "Worthington-Fitzgerald-Montgomery-Senior"
    assert run(db, "new-session", "--players", f"{long},Christopher Columbus-Smith,Ann").returncode == 0
    for _ in range(3):
        assert run(db, "score-hand", "--points", f"{long}=50", "--points", "Christopher Columbus-Smith=10",
                   "--points", "Ann=-5").returncode == 0
    assert run(db, "end-session").returncode == 0
    text = run(db, "stats", COLUMNS="80").stdout.decode()
    table = text[text.index("Head to head"):text.index("Milestones")].splitlines()
    assert table[0].endswith("; the columns by number):")
    assert table[1].split() == ["#", "vs", "1", "vs", "2", "vs", "3"]
    assert table[2].split()[:2] == ["1", "Worthington-Fit…tgomery-Senior"]
    assert table[3].split()[:3] == ["2", "Christopher", "Columbus-Smith"]
    assert "Worthi…enior" not in text and all(len(line) <= 80 for line in table)
    short = tmp_path / "s.db"
    assert run(short, "new-session", "--players", "Ann,Bob").returncode == 0
    assert run(short, "score-hand", "--points", "Ann=5", "--points", "Bob=1").returncode == 0
    assert run(short, "score-hand", "--points", "Ann=5", "--points", "Bob=1").returncode == 0
    assert run(short, "end-session").returncode == 0
    text = run(short, "stats").stdout.decode()
    assert text[text.index("Head to head"):].splitlines()[1].split() == ["vs", "Ann", "vs", "Bob"]


def test_questions_answered_from_a_pipe_each_end_their_line(tmp_path):
    db = tmp_path / "r.db"
    full = dict(os.environ, RUMMYREF_DB=str(db), RUMMYREF_NOW="2026-11-12T19:30", COLUMNS="80")
    done = subprocess.run([sys.executable, "-m", "rummyref", "night", "--players", "José,Zoë,李"],
                          input=b"points\n45\n-10\n20\n\nquit\n", capture_output=True, env=full, timeout=120)
    assert done.returncode == 0, done.stderr
    err = done.stderr.decode().splitlines()
    assert max(len(line) for line in err) <= 80
    assert "José's points this hand: " in err and "Record it? (Enter: yes / fix NAME / drop): " in err
    score = subprocess.run([sys.executable, "-m", "rummyref", "score-hand", "--points", "José=1"],
                           input=b"-5\n3\n\n", capture_output=True, env=dict(full, RUMMYREF_INTERACTIVE="1"), timeout=120)
    assert score.returncode == 0, score.stderr
    asked = [line for line in score.stderr.decode().splitlines() if "points" in line]
    assert len(asked) == 2 and all(line.endswith(": ") for line in asked), asked
