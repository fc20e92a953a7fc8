"""Audit reading45 (stop 45), the commands that read the record: ``ref chart --width`` wider
than the terminal or a pipe, and the lines it prints; ref's own drawing (the chart's frame, the
standings' bar) on a terminal that cannot show UTF-8; ``--json`` with
``--png`` and ``--overwrite`` alone; a Simple Rummy chart with a voided game; the wording.

The width and the encoding are the process's own: those checks run ``python -m rummyref``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from cli_helpers import ref, ref_json

# Ann 212, Bob 454, Cy -41 over two sessions of 500 Rum (the audit's record, worked out by hand)
R5 = [
    ("2026-12-15T20:00", ["new-session", "--game", "r5", "--ruleset", "rummy-500", "--players", "Ann,Bob,Cy",
                          "--wildcards", "2"]),
    (None, ["score-hand", "--game", "r5", "--melded", "Ann=QH KH AH / 9S 9D 9C", "--out", "Ann",
            "--melded", "Bob=2C 3C 4C", "--held", "Bob=W", "--claim", "Bob=JH", "--held", "Cy=5D 6S"]),
    (None, ["score-hand", "--game", "r5", "--points", "Ann=100", "--points", "Bob=200", "--points", "Cy=-30"]),
    (None, ["score-hand", "--game", "r5", "--points", "Ann=10", "--points", "Bob=10", "--points", "Cy=10"]),
    (None, ["end-session", "--game", "r5"]),
    ("2026-12-22T20:00", ["new-session", "--game", "r5"]),
    (None, ["void", "3", "--game", "r5", "--reason", "dup"]),
    (None, ["score-hand", "--game", "r5", "--points", "Ann=50", "--points", "Bob=300", "--points", "Cy=0"]),
    (None, ["amend", "2", "--game", "r5", "--points", "Ann=100", "--points", "Bob=150", "--points", "Cy=-30",
            "--reason", "typo"]),
]


@pytest.fixture
def r5(monkeypatch) -> None:
    for now, args in R5:
        if now:
            monkeypatch.setenv("RUMMYREF_NOW", now)
        done = ref(*args)
        assert done.exit_code == 0, done.stdout + done.stderr


def run(*args: str, **env: str | None) -> subprocess.CompletedProcess[str]:
    """``python -m rummyref ARGS`` with its output piped; ``NAME=None`` takes NAME out."""
    full = {**os.environ, "RUMMYREF_NOW": "2026-12-22T20:00"}
    for name, value in env.items():
        if value is None:
            full.pop(name, None)
        else:
            full[name] = value
    done = subprocess.run([sys.executable, "-m", "rummyref", *args], capture_output=True, env=full, timeout=120)
    encoding = env.get("PYTHONIOENCODING") or "utf-8"
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(encoding),
                                       done.stderr.decode(encoding))


# -- 1. --width is the width, whatever the terminal; the chart is never over its height ---------

LEGEND_123 = [
    "o Ann 212 (+106 a session)   ^ Bob 454 (+227 a session)   * Cy -41 (-21 a session)   o ^ at this pace   "
    "-- target 500",
    "x projected finish",
]


@pytest.mark.parametrize("columns", ["80", None], ids=["COLUMNS=80", "piped"])
def test_chart_width_is_honoured_wider_than_the_terminal_and_the_height_counts_every_line(r5, columns):
    done = run("chart", "--game", "r5", "--width", "123", "--height", "24", COLUMNS=columns)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.rstrip("\n").split("\n")
    assert len(lines) == 24  # was 25: the legend budgeted at 123 columns, printed wrapped at 80
    assert max(len(line) for line in lines) == 123
    assert lines[2] == "   ┌" + "─" * 118 + "┐"  # the frame drawn 123 wide, not 80
    assert lines[-2:] == LEGEND_123


def test_chart_height_is_honoured_taller_than_a_pipe(r5):
    """A pipe has no lines: plotext cut the plot to 24 (27 lines printed for --height 40)."""
    done = run("chart", "--game", "r5", "--height", "40", COLUMNS=None, LINES=None)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.rstrip("\n").split("\n")) == 40


def test_the_default_height_counts_every_line_with_long_names_at_a_wide_width(monkeypatch):
    names = ["Bartholomew Fitzgeraldsx", "Evangeline Montgomeryxyz", "Maximilian Worthingtonab"]
    monkeypatch.setenv("RUMMYREF_NOW", "2026-12-15T20:00")
    assert ref("new-session", "--players", ",".join(names)).exit_code == 0
    for _ in range(3):  # a round: the night may end (A5)
        assert ref("score-hand", *[a for n, v in zip(names, (300, 170, 7)) for a in ("--points", f"{n}={v}")]
                   ).exit_code == 0
    assert ref("end-session").exit_code == 0
    for columns in (None, "80"):
        done = run("chart", "--width", "123", COLUMNS=columns)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.rstrip("\n").split("\n")
        assert len(lines) == 24 and max(len(line) for line in lines) == 123  # was 26 lines, 80 wide


# -- 2. ref's own drawing on a terminal that cannot show UTF-8: ASCII, one for one ------------

ASCII_CHART = """\
r5: total after each session (2 sessions)
projected: Bob reaches 500 in 1 session
   +---------------------------------------------------------------------------+
681+                                                                  ^  ^   ^ |
500+----------------------------------------------------^--^---^--^-----------x|
   |                                                 ^                        o|
   |                                     ^^^^^^^^^^^^o   o  o   o  o   o  o    |
   |                         oooooooooooooooooooooooo                          |
  0+ooooooooooooooooooooooooo*************************                         |
   ++------------------------+-----------------------+------------------------++
    0                        1                       2                        3
                                      session
o Ann 212 (+106 a session)   ^ Bob 454 (+227 a session)
* Cy -41 (-21 a session)   o ^ at this pace   -- target 500   x projected finish
"""

ASCII_BARS = [
    "1  Bob       454     46  ##################..  90.8%      3     151.3",
    "2  Ann       212    288  ########............  42.4%      3      70.7",
    "3  Cy        -41    541  ....................   0.0%      3     -13.7",
]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_the_chart_frame_and_the_progress_bar_are_ascii_where_utf8_cannot_be_shown(r5, encoding):
    chart = run("chart", "--game", "r5", "--height", "14", COLUMNS="80", PYTHONIOENCODING=encoding)
    assert chart.returncode == 0, chart.stderr
    assert "\n".join(line.rstrip() for line in chart.stdout.split("\n")) == ASCII_CHART  # was \u250c\u2500...
    standings = run("standings", "--game", "r5", COLUMNS="80", PYTHONIOENCODING=encoding)
    assert standings.returncode == 0, standings.stderr
    assert standings.stdout.split("\n")[2:5] == ASCII_BARS  # was \u2588\u2588... (about 170 columns)


def test_every_drawing_command_fits_80_columns_in_ascii_with_no_escape(r5):
    for args in (["standings"], ["stats"], ["history"], ["chart"], ["rulings"], ["count", "7S", "7H", "7D"]):
        done = run(*args, "--game", "r5", COLUMNS="80", PYTHONIOENCODING="ascii")
        assert done.returncode == 0, (args, done.stderr)
        assert "\\u" not in done.stdout and max(len(line) for line in done.stdout.split("\n")) <= 80, args
    assert run("count", "7S", "7H", "7D", PYTHONIOENCODING="ascii").stdout.split("\n")[0] == (
        "hand      7S 7H 7D  [rummy-500]")


def test_a_character_of_the_players_own_is_still_escaped():
    """The escape is for user data (a name), never for ref's drawing: the two at once."""
    import codecs

    from rummyref.cli import _plainly

    codecs.register_error("rummyref-plain", _plainly)
    assert "José ┌─┤│└┬┘ ╭╯ █░ 7♠".encode("ascii", "rummyref-plain") == b"Jos\\xe9 +-+|+++ ++ #. 7S"


# -- 3. --json with --png, --overwrite with no file: refused, exit 3, nothing written ----------


def test_chart_json_with_png_is_refused_and_nothing_is_written(r5, tmp_path):
    target = tmp_path / "j.png"
    done = ref("chart", "--game", "r5", "--json", "--png", str(target))
    assert done.exit_code == 3 and done.stdout == ""
    assert " ".join(done.stderr.split()) == (
        "error: --json and --png cannot be given together: --json prints the chart's data, --png writes its image "
        "give one: ref chart --json for the data, or ref chart --png FILE for the image")
    assert not target.exists()


def test_overwrite_with_no_file_to_write_is_refused(r5):
    done = ref("chart", "--game", "r5", "--overwrite")
    assert done.exit_code == 3 and done.stdout == ""
    assert done.stderr == ("error: --overwrite is for --png FILE: without --png no file is written\n"
                           "give --png FILE with it, or leave --overwrite out\n")
    done = ref("export", "--force")
    assert done.exit_code == 3 and done.stdout == ""
    assert " ".join(done.stderr.split()) == (
        "error: --overwrite (--force) is for -o FILE: without -o the export goes to stdout and no file is written "
        "give -o FILE with it, or leave --overwrite out")


def test_a_folder_given_for_a_file_is_hinted_with_the_commands_own_file_name(r5, tmp_path):
    chart = ref("chart", "--game", "r5", "--png", str(tmp_path))
    assert chart.exit_code == 3 and chart.stderr.split("\n")[1] == "give the path of a file, e.g. FOLDER/chart.png"
    export = ref("export", "-o", str(tmp_path), "--format", "csv")
    assert export.exit_code == 3
    assert export.stderr.split("\n")[1] == "give the path of a file, e.g. FOLDER/rummyref-export.csv"


# -- 4. a Simple Rummy chart with a voided game: its number kept, the title says why ------------


def test_a_voided_game_keeps_its_number_on_the_axis_and_the_title_says_so(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-14T15:00")
    assert ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3").exit_code == 0
    for hands, out in ((("Ann=2H 3H 4H 9C", "Bob=KS QD 9D", "Cy=5C 6C 8S"), "Ann"),
                       (("Ann=KH QC JD", "Bob=AS 2S 3S 4D", "Cy=10D 10C 4S"), "Bob"),
                       (("Ann=2D 3C 9S", "Bob=5D 6D 7D 8H", "Cy=AD AC 2C"), "Bob")):
        assert ref("score-hand", *[a for h in hands for a in ("--hand", h)], "--out", out).exit_code == 0
    assert ref("void", "2", "--reason", "x").exit_code == 0
    first = ref("chart", "--height", "14").stdout.split("\n")[0]
    assert first == "simple-rummy: games won after each game of the session (2 games; game 2 voided)"
    data = ref_json("chart")
    assert data["x_range"] == [0, 3] and data["series"][1]["nights"] == [0, 1, 3]  # history's numbers


# -- 5. wording -----------------------------------------------------------------------------


def test_simple_rummy_history_of_a_session_says_game_and_names_only_its_players(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-14T15:00")
    assert ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3").exit_code == 0
    assert ref("score-hand", "--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S",
               "--out", "Ann").exit_code == 0
    assert ref("end-session").exit_code == 0
    assert ref("new-session", "--players", "Ann,Bob,Cy,Dee").exit_code == 0
    assert ref("end-session").exit_code == 0
    first = ref("history", "--session", "1").stdout.split("\n")
    assert first[-2] == "Session 1: 1 game; game wins Ann 1, Bob 0, Cy 0 (most: Ann)."  # no Dee 0
    assert ref_json("history", "--session", "1")["session_totals"]["points"] == {"Ann": 1, "Bob": 0, "Cy": 0}
    second = ref("history", "--session", "2").stdout.split("\n")
    assert second[-3:] == ["Session 2: 0 games; game wins Ann 0, Bob 0, Cy 0, Dee 0.",
                           "Closed as abandoned (no game in force): it does not count as a session.", ""]


def test_a_wrapped_scores_line_of_the_history_is_indented(monkeypatch):
    names = ["Bartholomew Fitzgeraldsx", "Evangeline Montgomeryxyz", "Maximilian Worthingtonab"]
    monkeypatch.setenv("COLUMNS", "80")
    from rummyref.cli.common import out

    monkeypatch.setattr(out, "_width", 80)
    assert ref("new-session", "--players", ",".join(names)).exit_code == 0
    assert ref("score-hand", *[a for n, v in zip(names, (30, 24, -9)) for a in ("--points", f"{n}={v}")]
               ).exit_code == 0
    assert ref("history").stdout.split("\n")[3:5] == [
        "    scores: Bartholomew Fitzgeraldsx 30, Evangeline Montgomeryxyz 24,",
        "      Maximilian Worthingtonab -9",
    ]


def test_chart_json_with_a_size_is_refused_as_with_png(r5):
    """The data has no size: --width and --height with --json were taken without a word (stop 46)."""
    done = ref("chart", "--game", "r5", "--json", "--width", "60")
    assert done.exit_code == 3 and done.stdout == ""
    assert done.stderr == ("error: --width is not for --json: --json prints the chart's data, which has no size\n"
                           "leave --width out with --json (it sizes the terminal chart and --png FILE)\n")
    done = ref("chart", "--game", "r5", "--json", "--width", "60", "--height", "30")
    assert done.exit_code == 3 and done.stdout == ""
    assert " ".join(done.stderr.split()) == (
        "error: --width and --height are not for --json: --json prints the chart's data, which has no size "
        "leave --width and --height out with --json (they size the terminal chart and --png FILE)")
    assert ref("chart", "--game", "r5", "--json").exit_code == 0
