"""``ref chart`` (issue 8, part 3; issue 14, item 6): what is drawn (the axis, the lines and their
markers, the legend, the projection), the terminal chart and the PNG."""

from __future__ import annotations

import os
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json, ref_subprocess
from test_stats import SIMPLE, ok, simple_games, two_nights

from rummyref.record import Game, Player
from rummyref.stats.chart import (
    NEAR,
    PNG_MARKERS,
    TEXT_MARKERS,
    Crossing,
    LegendEntry,
    NightPoints,
    Series,
    chart_data,
)
from rummyref.stats.compute import HandLine


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


# -- the data behind the chart (pure) ----------------------------------------------------------


@dataclass
class Row:
    name: str
    rank: int
    pace_per_night: float | None
    nights_to_go: int | None
    projected_date: str | None
    points: int | None = None  # the pace as given is the exact one


@dataclass
class Standings:
    over: bool
    nights: int
    players: list


def long_game(*names: str, opening: dict | None = None, target: int = 2_000_000, winner: str | None = None) -> Game:
    opening = opening or {}
    return Game("g", "rummy-2m", target, 0, tuple(Player(n, i, opening.get(n, 0)) for i, n in enumerate(names, 1)),
                "", "2026-12-01" if winner else None, winner)


TWO_NIGHTS = [NightPoints(1, (("Bill", 65), ("Ben", 119), ("Larry", -15))),
              NightPoints(2, (("Bill", 175), ("Ben", 100), ("Larry", 25)))]


def test_a_young_game_shows_the_nights_played_and_labels_the_far_finish():
    """Two nights, the finish 15,835 nights away: the axis is the two nights, the finish a label."""
    st = Standings(False, 2, [Row("Bill", 1, 120.0, 15_833, "2330-05-09"), Row("Ben", 2, 109.5, 18_263, None),
                              Row("Larry", 3, 5.0, None, None)])
    data = chart_data(long_game("Bill", "Ben", "Larry", opening={"Bill": 99_900}), TWO_NIGHTS, st, "total")
    assert (data.by, data.x_label, data.x_range, data.projection_drawn) == ("night", "Rummy Night", (0, 2), False)
    assert data.series == (
        Series("Bill", (0, 1, 2), (99_900, 99_965, 100_140), ((2, 100_140), (15_835, 2_000_100)), 120.0, "o", "o"),
        Series("Ben", (0, 1, 2), (0, 119, 219), ((2, 219), (15_835, 1_733_932)), 109.5, "^", "P"),
        Series("Larry", (0, 1, 2), (0, -15, 10), ((2, 10), (15_835, 79_175)), 5.0, "*", "*"),
    )
    assert data.crossing == Crossing("Bill", 15_835, "2330-05-09")
    label = "projected: Bill reaches 2,000,000 in 15,833 nights (about 2330-05-09)"
    assert data.projection_label == label
    assert data.legend == (
        LegendEntry("player", "o", "Bill 100,140 (+120 a night)"),
        LegendEntry("player", "^", "Ben 219 (+110 a night)"),
        LegendEntry("player", "*", "Larry 10 (+5 a night)"),
        LegendEntry("projection", "->", label),
    )
    assert data.title == "g: total after each night (2 nights)" and data.subtitle == label


def test_a_near_finish_is_drawn_on_the_axis_with_the_target():
    st = Standings(False, 2, [Row("Ann", 1, 150.0, 2, "2026-12-10"), Row("Bo", 2, -20.0, None, None)])
    nights = [NightPoints(1, (("Ann", 100), ("Bo", -20))), NightPoints(2, (("Ann", 200), ("Bo", -20)))]
    data = chart_data(long_game("Ann", "Bo", opening={"Ann": 400}, target=1000), nights, st, "total")
    assert (data.x_range, data.projection_drawn) == ((0, 4), True)
    assert data.series[0].projection == ((2, 700), (4, 1000))
    assert data.series[1].projection == ()  # no pace towards the target: no line
    assert data.projection_label == "projected: Ann reaches 1,000 in 2 nights (about 2026-12-10)"
    assert data.legend == (
        LegendEntry("player", "o", "Ann 700 (+150 a night)"),
        LegendEntry("player", "^", "Bo -40 (-20 a night)"),
        LegendEntry("pace", "o o", "at this pace"),
        LegendEntry("target", "--", "target 1,000"),
        LegendEntry("crossing", "x", "projected finish"),
    )


@pytest.mark.parametrize(("nights_to_go", "drawn", "x_range"), [
    (NEAR * 2 - 2, True, (0, NEAR * 2)),  # the finish at NEAR times the nights played: drawn
    (NEAR * 2 - 1, False, (0, 2)),  # one night further: a label
    (1, True, (0, 3)),
])
def test_near_means_within_NEAR_times_the_nights_played(nights_to_go, drawn, x_range):
    st = Standings(False, 2, [Row("Bill", 1, 10.0, nights_to_go, None), Row("Ben", 2, 1.0, None, None),
                              Row("Larry", 3, None, None, None)])
    data = chart_data(long_game("Bill", "Ben", "Larry"), TWO_NIGHTS, st, "total")
    assert (data.projection_drawn, data.x_range) == (drawn, x_range)
    night = "night" if nights_to_go == 1 else "nights"
    assert data.projection_label == f"projected: Bill reaches 2,000,000 in {nights_to_go} {night}"
    assert data.legend[2] == LegendEntry("player", "*", "Larry 10")  # no pace: no pace shown


def test_a_finished_game_shows_its_winner_and_no_projection():
    st = Standings(True, 2, [Row("Bill", 1, 120.0, None, None)])
    data = chart_data(long_game("Bill", "Ben", "Larry", winner="Bill"), TWO_NIGHTS, st, "total")
    assert (data.crossing, data.projection_label, data.projection_drawn, data.x_range) == (None, None, False, (0, 2))
    assert data.subtitle == "game over: Bill won"
    assert [e.label for e in data.legend] == ["Bill 240", "Ben 219", "Larry 10"]


def test_every_player_has_a_marker_of_their_own():
    names = [f"P{i}" for i in range(12)]  # Simple Rummy seats up to ten: every one a marker of their own
    data = chart_data(long_game(*names), [NightPoints(1, tuple((n, 5) for n in names))], None, "total")
    assert [s.marker for s in data.series] == list(TEXT_MARKERS)
    assert len(set(TEXT_MARKERS)) == len(set(PNG_MARKERS)) == 12
    assert [s.png_marker for s in data.series] == list(PNG_MARKERS)
    assert [e.marker for e in data.legend] == list(TEXT_MARKERS)
    assert not set(TEXT_MARKERS) & {"x", "-"}  # the crossing and the target have theirs
    # nor is any the frame's ASCII (+ - |, a tick or a corner: a line along the axis read as ticks)
    assert not set(TEXT_MARKERS) & {"+", "-", "|", "/", "\\", "X"}
    assert not set(PNG_MARKERS) & {"X", ">"}  # the crossing and the projection have theirs


def test_a_single_session_of_simple_rummy_is_charted_game_by_game():
    game = Game("table", "simple-rummy", None, 0, (Player("Ann", 1, 0), Player("Bob", 2, 0), Player("Cy", 3, 0)), "")
    won = {1: "Ann", 2: "Bob", 3: "Bob", 4: "Ann"}
    counts = {1: (0, 34, 19), 2: (36, 4, 24), 3: (14, 8, 4), 4: (1, None, 27)}
    hands = [HandLine(h, 1, "d", tuple((n, int(n == won[h])) for n in ("Ann", "Bob", "Cy")),
                      tuple((n, c) for n, c in zip(("Ann", "Bob", "Cy"), counts[h]) if c is not None),
                      (won[h],), dropped=("Bob",) if h == 4 else ()) for h in range(1, 5)]
    nights = [NightPoints(1, (("Ann", 2), ("Bob", 2), ("Cy", 0)))]
    data = chart_data(game, nights, None, "games won", hands, "session", "session")
    assert (data.by, data.x_label, data.x_range, data.crossing, data.projection_label) == (
        "game", "game", (0, 4), None, None)
    assert data.series == (
        Series("Ann", (0, 1, 2, 3, 4), (0, 1, 1, 1, 2), (), None, "o", "o"),
        Series("Bob", (0, 1, 2, 3, 4), (0, 0, 1, 2, 2), (), None, "^", "P", (4,)),
        Series("Cy", (0, 1, 2, 3, 4), (0, 0, 0, 0, 0), (), None, "*", "*"),
    )
    assert data.legend == (
        LegendEntry("player", "o", "Ann: 2 games won, average count 12.8"),
        LegendEntry("player", "^", "Bob: 2 games won, average count 15.3, dropped out of 1 game"),
        LegendEntry("player", "*", "Cy: 0 games won, average count 18.5"),
    )
    assert data.title == "table: games won after each game of the session (4 games)"


# -- the terminal chart --------------------------------------------------------------------------

GOLDEN_TWO_NIGHTS = """\
rummy-2m: total after each night (2 nights)
projected: Bill reaches 2,000,000 in 749 nights (about 2041-03-29)
       ┌───────────────────────────────────────────────────────────────────────┐
100,000┤                                   oooooooooooooooooooooooooooooooooooo│
       │ooooooooooooooooooooooooooooooooooo                                    │
       │                                                                       │
       │                                                                       │
 75,000┤                                                                       │
       │                                                                       │
       │                                                                       │
       │                                                                       │
 50,000┤                                                                       │
       │                                                                       │
       │                                                                       │
 25,000┤                                                                       │
       │                                                                       │
       │                                                                       │
       │                                                                       │
      0┤^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^│
       └┬──────────────────────────────────┬──────────────────────────────────┬┘
        0                                  1                                  2
                                      Rummy Night
o Bill 100,074 (+2,537 a night)   ^ Ben 529 (+265 a night)
* Larry 0 (+0 a night)
"""

PINNED = {"COLUMNS": "80", "LINES": "24", "TZ": "UTC", "NO_COLOR": "1", "RUMMYREF_NOW": "2026-11-20T19:30"}


def test_terminal_chart_of_two_nights_at_80_columns(monkeypatch):
    for k, v in PINNED.items():
        monkeypatch.setenv(k, v)
    two_nights()
    result = ref_subprocess("chart", env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    assert [line.rstrip() for line in result.stdout.splitlines()] == GOLDEN_TWO_NIGHTS.splitlines()
    assert len(result.stdout.splitlines()) == 24  # --height (24 lines) is the whole of it


def test_terminal_chart_of_a_near_finish_has_the_target_the_crossing_and_a_marker_a_player():
    ok("new-session", "--opening", "Bill=1990000", "--opening", "Ben=1980000", "--opening", "Larry=1900000")
    for _ in range(3):
        ok("score-hand", "--points", "Bill=1500", "--points", "Ben=1000", "--points", "Larry=5")
    ok("end-session")
    data = ref_json("chart")
    assert data["projection_drawn"] and data["x_range"] == [0, data["crossing"]["night"]]
    text = ok("chart", "--width", "80", "--height", "24").stdout
    lines = text.splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert lines[0] == "rummy-2m: total after each night (1 night)"
    assert lines[1].startswith("projected: Bill reaches 2,000,000 in 2 nights (about ")
    assert lines[-3:] == ["o Bill 1,994,500 (+4,500 a night)   ^ Ben 1,983,000 (+3,000 a night)",
                          "* Larry 1,900,015 (+15 a night)   o ^ * at this pace   -- target 2,000,000",
                          "x projected finish"]
    plot = "\n".join(lines[2:-5])
    assert "x" in plot and "---" in plot and "o" in plot and "^" in plot
    assert "\x1b[" not in text  # no colour codes when not at a terminal


def test_chart_json_is_the_standings_pace():
    two_nights()
    data = ref_json("chart")
    series = {s["name"]: s for s in data["series"]}
    assert series["Bill"]["nights"] == [0, 1, 2]
    assert series["Bill"]["totals"] == [95_000, 95_000 + 4064, 95_000 + 4064 + 1010]
    assert series["Larry"]["totals"] == [0, -10, 0]
    assert [s["marker"] for s in data["series"]] == ["o", "^", "*"]
    standings = {p["name"]: p for p in ref_json("standings")["players"]}
    crossing = data["crossing"]
    assert crossing["name"] == "Bill"
    assert crossing["night"] == 2 + standings["Bill"]["nights_to_go"]
    assert crossing["date"] == standings["Bill"]["projected_date"]
    end_night, end_total = series["Bill"]["projection"][-1]
    assert end_night == crossing["night"] and end_total >= 2_000_000
    assert (data["x_range"], data["projection_drawn"]) == ([0, 2], False)
    assert data["projection_label"] == (f"projected: Bill reaches 2,000,000 in {standings['Bill']['nights_to_go']:,} "
                                        f"nights (about {crossing['date']})")


# -- the PNG ---------------------------------------------------------------------------------------


def test_png_is_a_real_png_of_the_requested_size(tmp_path):
    two_nights()
    out = tmp_path / "race.png"
    result = ok("chart", "--png", str(out), "--width", "800", "--height", "500")
    assert png_size(out) == (800, 500)
    assert "chart written to" in result.stderr and result.stdout == ""
    ok("chart", "--png", str(tmp_path / "default.png"))
    assert png_size(tmp_path / "default.png") == (1000, 600)


def test_png_of_one_night_and_of_one_simple_rummy_session(tmp_path):
    ok("new-session")
    ok("score-hand", "--points", "Bill=40", "--points", "Ben=35", "--points", "Larry=-10")  # a night under way
    ok("chart", "--png", str(tmp_path / "one.png"), "--width", "640", "--height", "400")
    assert png_size(tmp_path / "one.png") == (640, 400)
    simple_session()
    ok("chart", "--game", "simple-rummy", "--png", str(tmp_path / "simple.png"))
    assert png_size(tmp_path / "simple.png") == (1000, 600)


def test_png_of_a_long_history_with_the_projection_drawn(tmp_path):
    from rummyref.cli.chart import write_png

    nights = [NightPoints(n, (("Bill", 760), ("Ben", 750))) for n in range(1, 1335)]
    st = Standings(False, 1334, [Row("Bill", 1, 760.0, 1298, "2051-09-25"), Row("Ben", 2, 750.0, 1333, None)])
    data = chart_data(long_game("Bill", "Ben"), nights, st, "total")
    assert data.projection_drawn and data.x_range == (0, 2632)
    write_png(data, tmp_path / "y25.png", 900, 500)
    assert png_size(tmp_path / "y25.png") == (900, 500)


# -- errors ------------------------------------------------------------------------------------------


def test_no_data_says_so(tmp_path):
    result = ref("chart")
    assert result.exit_code == 5 and "no record" in result.stderr
    ok("new-session")
    result = ok("chart")
    assert "nothing to chart yet" in result.stderr and result.stdout == ""
    assert not (tmp_path / "x.png").exists()


def test_an_open_night_with_no_hand_in_force_says_to_record_one():
    """Audit 43: with a night open and no hand in force (none yet, or the only one voided), the
    chart sent the user to ``ref new-session``, which is refused (exit 4) while a night is open."""
    ok("new-session", "--players", "Bill,Ben,Larry")
    said = ("nothing to chart yet: rummy-2m has no hand in force (Rummy Night 1 is open: ref score-hand or ref "
            "night records a hand)")
    result = ok("chart")
    assert " ".join(result.stderr.split()) == said and result.stdout == ""
    ok("score-hand", "--points", "Bill=20", "--points", "Ben=1", "--points", "Larry=1")
    ok("void", "1", "--reason", "a slip")
    result = ok("chart")
    assert " ".join(result.stderr.split()) == said and result.stdout == ""
    assert ref("new-session").exit_code == 4  # what it used to advise
    ok("end-session")  # closed as abandoned: a new night is what comes next
    result = ok("chart")
    assert " ".join(result.stderr.split()) == (
        "nothing to chart yet: rummy-2m has no Rummy Night counted (ref new-session opens one)")


def test_png_without_matplotlib_is_a_clear_error(tmp_path, monkeypatch):
    two_nights()
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    result = ref("chart", "--png", str(tmp_path / "x.png"))
    assert result.exit_code == 3
    assert "--png needs matplotlib" in result.stderr and "rummyref[chart]" in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_unwritable_png_is_a_storage_error(tmp_path):
    two_nights()
    result = ref("chart", "--png", str(tmp_path / "no" / "such" / "folder.png"))
    assert result.exit_code == 3 and "there is no folder" in result.stderr  # as export -o and backup
    result = ref("chart", "--png", "/proc/rummyref-chart.png")  # a folder nobody may write in, even root
    assert result.exit_code == 6 and "cannot write" in result.stderr


# -- Simple Rummy ------------------------------------------------------------------------------------


def simple_session() -> None:
    """One session of Simple Rummy through the real commands: Ann, Bob, Bob win; then Bob drops out
    (S14) and Ann goes out."""
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3")
    ok("score-hand", "--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S", "--out", "Ann")
    ok("score-hand", "--hand", "Ann=KH QC JD", "--hand", "Bob=AS 2S 3S 4D", "--hand", "Cy=10D 10C 4S", "--out", "Bob")
    ok("score-hand", "--hand", "Ann=2D 3C 9S", "--hand", "Bob=5D 6D 7D 8H", "--hand", "Cy=AD AC 2C", "--out", "Bob")
    ok("score-hand", "--hand", "Ann=AH 2S 3S 4S", "--hand", "Cy=8C 8D JH", "--dropped", "Bob", "--out", "Ann")


GOLDEN_SIMPLE_SESSION = """\
simple-rummy: games won after each game of the session (4 games)
 ┌─────────────────────────────────────────────────────────────────────────────┐
2┤                                                         ^^^^^^^^^^^^^^^^^^^o│
 │                                                   ^^^^^^             oooooo │
 │                                             ^^^^^^             oooooo       │
1┤                   ooooooooooooooooooooooooooooooooooooooooooooo             │
 │               oooo               ^^^^                                       │
 │          ooooo              ^^^^^                                           │
 │     ooooo              ^^^^^                                                │
0┤ooooo^^^^^^^^^^^^^^^^^^^*****************************************************│
 └┬──────────────────┬──────────────────┬──────────────────┬──────────────────┬┘
  0                  1                  2                  3                  4
                                      game
o Ann: 2 games won, average count 15.0
^ Bob: 2 games won, average count 15.3, dropped out of 1 game
* Cy: 0 games won, average count 18.5
"""


def test_a_single_simple_rummy_session_is_charted_game_by_game():
    simple_session()
    data = ref_json("chart")
    assert (data["by"], data["x_range"], data["measure"]) == ("game", [0, 4], "games won")
    assert {s["name"]: (s["totals"], s["dropped"]) for s in data["series"]} == {
        "Ann": ([0, 1, 1, 1, 2], []), "Bob": ([0, 0, 1, 2, 2], [4]), "Cy": ([0, 0, 0, 0, 0], [])}
    text = ok("chart", "--width", "80", "--height", "16").stdout
    assert [line.rstrip() for line in text.splitlines()] == GOLDEN_SIMPLE_SESSION.splitlines()
    # and the statistics agree: Bob played 3 games, dropped out of 1
    bob = next(p for p in ref_json("stats")["players"] if p["name"] == "Bob")
    assert (bob["games_played"], bob["games_dropped"], bob["average_count"]) == (3, 1, 15.3)


def test_simple_rummy_over_several_sessions_charts_games_won_by_session():
    simple_games(SIMPLE)
    data = ref_json("chart", "--game", "table")
    assert data["measure"] == "games won" and data["target"] is None and data["crossing"] is None
    assert (data["by"], data["x_label"], data["x_range"]) == ("session", "session", [0, 2])
    assert {s["name"]: s["totals"] for s in data["series"]} == {"Ann": [0, 2, 2], "Bob": [0, 1, 1], "Cy": [0, 0, 2]}
    assert [e["label"] for e in data["legend"]] == ["Ann: 2 games won", "Bob: 1 game won", "Cy: 2 games won"]
    text = ok("chart", "--game", "table", "--width", "70", "--height", "16").stdout
    lines = text.splitlines()
    assert lines[0] == "table: games won after each session (2 sessions)" and "target" not in text
    assert lines[-1] == "o Ann: 2 games won   ^ Bob: 1 game won   * Cy: 2 games won"
    assert max(len(line) for line in lines) <= 70


# -- the terminal chart keeps --width and --height (audit G, items 3 and 4) --------------------------


def _young() -> object:
    """Two nights, the finish far off: a two-line title and long y-axis labels (100,000)."""
    st = Standings(False, 2, [Row("Bill", 1, 120.0, 15_833, "2330-05-09"), Row("Ben", 2, 109.5, 18_263, None),
                              Row("Larry", 3, 5.0, None, None)])
    return chart_data(long_game("Bill", "Ben", "Larry", opening={"Bill": 99_900}), TWO_NIGHTS, st, "total")


def _near() -> object:
    """The finish drawn on the axis, with the target and the crossing, and a negative total."""
    st = Standings(False, 2, [Row("Ann", 1, 150.0, 2, "2026-12-10"), Row("Bo", 2, -20.0, None, None)])
    nights = [NightPoints(1, (("Ann", 100), ("Bo", -20))), NightPoints(2, (("Ann", 200), ("Bo", -20)))]
    return chart_data(long_game("Ann", "Bo", opening={"Ann": 400}, target=1000), nights, st, "total")


def _crowd() -> object:
    """Eight players with long names over eleven nights: a long legend, totals below 0 (-5,000)."""
    names = [f"Maximiliana{i}" * 2 for i in range(8)]
    nights = [NightPoints(n, tuple((name, (i - 3) * 97 * (1 if n % 2 else -1) + 150 * i) for i, name in enumerate(names)))
              for n in range(1, 12)]
    return chart_data(long_game(*names, opening={names[0]: -5_000}), nights, None, "total")


def _simple() -> object:
    game = Game("table", "simple-rummy", None, 0, (Player("Ann", 1, 0), Player("Bob", 2, 0), Player("Cy", 3, 0)), "")
    nights = [NightPoints(1, (("Ann", 2), ("Bob", 1), ("Cy", 0))), NightPoints(2, (("Ann", 0), ("Bob", 3), ("Cy", 2)))]
    return chart_data(game, nights, None, "games won")


CHARTS = {"young": _young, "near": _near, "crowd": _crowd, "simple": _simple}


def _legend_words(data) -> list[str]:
    return [w for e in data.legend if e.kind != "projection" for w in f"{e.marker} {e.label}".split()]


def _bare(lines: list[str]) -> str:
    return "".join("".join(lines).split())


def _parts(text: str) -> tuple[list[str], list[str], list[str], str, list[str]]:
    """head, plot rows (with the frame), the x-axis numbers row, the x-axis label row, legend."""
    lines = text.split("\n")
    top = next(i for i, line in enumerate(lines) if "┌" in line)
    bottom = next(i for i, line in enumerate(lines) if "└" in line)
    return lines[:top], lines[top:bottom + 1], [lines[bottom + 1]], lines[bottom + 2], lines[bottom + 3:]


def _check_axes(data, frame: list[str], numbers: str, label: str, width: int) -> None:
    column = frame[0].index("┌")
    assert frame[-1].index("└") == column
    ys = []
    for row in frame[1:-1]:
        assert row[column] in "│┤" and row.rstrip()[-1] == "│", row
        left = row[:column]
        if row[column] == "┤":  # a y-axis label, right-aligned against the axis
            assert left.strip() and left == left.strip().rjust(column), row
            ys.append(float(left.strip().replace(",", "")))
        else:
            assert not left.strip(), row  # no label where no tick is
    assert ys == sorted(ys, reverse=True)  # top to bottom, largest first
    lo, hi = data.x_range
    xs = [int(t.replace(",", "")) for t in numbers.split()]
    assert xs and xs == sorted(set(xs)) and all(lo <= x <= hi for x in xs), numbers  # night numbers only
    assert numbers[:column].strip() == "" or xs[0] == lo  # nothing but night numbers under the y-axis labels
    assert label.strip() == data.x_label


@pytest.mark.parametrize("width", range(20, 121, 3))
@pytest.mark.parametrize("name", CHARTS)
def test_every_height_and_width_is_kept_or_refused_naming_the_least(name, width):
    from rummyref.cli.chart import PLOT_LINES, least_height, terminal_chart
    from rummyref.errors import UnreadableInput

    data = CHARTS[name]()
    least = least_height(data, width)
    for height in range(8, 45):
        if height < least:
            with pytest.raises(UnreadableInput) as refused:
                terminal_chart(data, width, height)
            assert f"needs at least {least:,} lines" in str(refused.value) and refused.value.exit_code == 3
            continue
        text = terminal_chart(data, width, height)
        lines = text.split("\n")
        assert len(lines) <= height, (height, text)
        assert max(len(line) for line in lines) <= width, (width, text)
        head, frame, (numbers,), label, legend = _parts(text)
        assert len(frame) + 2 >= PLOT_LINES
        assert _bare(head) == _bare([data.title, data.subtitle or ""])
        assert _bare(legend) == _bare(_legend_words(data))  # every entry whole, wrapped (a long name broken)
        _check_axes(data, frame, numbers, label, width)


def test_the_least_height_at_80_columns_is_small():
    from rummyref.cli.chart import least_height

    assert least_height(_young(), 80) == 2 + 2 + 7
    assert least_height(_simple(), 80) == 1 + 1 + 7


GOLDEN_NARROW = """\
g: total after each night (2
nights)
projected: Bill reaches
2,000,000 in 15,833 nights
(about 2330-05-09)
       ┌─────────────────────┐
100,000┤ooooooooooooooooooooo│
       │                     │
 50,000┤                     │
      0┤^^^^^^^^^^^^^^^^^^^^^│
       └┬─────────┬─────────┬┘
        0         1         2
             Rummy Night
o Bill 100,140 (+120 a night)
^ Ben 219 (+110 a night)
* Larry 10 (+5 a night)"""


def test_a_narrow_short_chart_exactly():
    from rummyref.cli.chart import terminal_chart

    text = terminal_chart(_young(), 30, 16)
    assert "\n".join(line.rstrip() for line in text.split("\n")) == GOLDEN_NARROW


def test_a_long_legend_entry_is_wrapped_not_cut():
    from rummyref.cli.chart import text_legend

    assert text_legend(_young(), 20) == ["o Bill 100,140 (+120", "  a night)", "^ Ben 219 (+110 a", "  night)",
                                         "* Larry 10 (+5 a", "  night)"]


def test_a_height_too_small_is_refused_with_the_least_it_needs():
    two_nights()
    result = ref("chart", "--width", "80", "--height", "8")
    assert result.exit_code == 3 and result.stdout == ""
    assert "--height 8 is too small" in result.stderr and "at least 11 lines" in result.stderr
    assert len(ok("chart", "--width", "80", "--height", "11").stdout.splitlines()) == 11
    narrow = ok("chart", "--width", "20").stdout.splitlines()  # the default height grows to what it needs
    assert len(narrow) >= 24 and max(len(line) for line in narrow) <= 20


def test_png_never_overwrites_the_record_nor_a_file_without_overwrite(tmp_path, record):
    """Audit, stop 35: ``ref chart --png "$RUMMYREF_DB"`` replaced the record with a PNG
    (every hand lost), and any existing file was replaced without a word."""
    ok("new-session")
    ok("score-hand", "--points", "Bill=45", "--points", "Ben=-10", "--points", "Larry=20")
    before = ok("history", "--json").stdout
    if record.path is not None:  # a SQLite file: the record itself, and its -wal, are refused
        for target in (record.path, Path(str(record.path) + "-wal")):
            r = ref("chart", "--png", str(target), "--overwrite")
            assert r.exit_code == 4, r.stdout + r.stderr
            assert "is the record itself (or one of its files); nothing was written" in " ".join(r.stderr.split())
        assert ok("history", "--json").stdout == before
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    r = ref("chart", "--png", str(notes))
    assert r.exit_code == 4 and "already exists; nothing was written" in " ".join(r.stderr.split())
    assert notes.read_text() == "my notes\n"
    ok("chart", "--png", str(notes), "--overwrite")
    assert png_size(notes) == (1000, 600)
    assert not list(tmp_path.glob(".*partial*"))


def test_the_legend_rounds_half_paces_alike_and_the_projection_uses_the_exact_pace(monkeypatch):
    """Audit, stop 35: paces of 47.5 and 32.5 showed as +48 and +32 (half to even), and the
    projection went on at the pace rounded to 0.1."""
    for night in ("2026-11-05T19:30", "2026-11-12T19:30"):
        monkeypatch.setenv("RUMMYREF_NOW", night)
        ok("new-session", *(("--players", "Bill,Ben,Larry") if night.startswith("2026-11-05") else ()))
        first = (45, 95, 65) if night.startswith("2026-11-05") else (45, 0, 0)
        for pts in (first, (0, 0, 0), (0, 0, 0)):
            ok("score-hand", *[a for n, v in zip(("Bill", "Ben", "Larry"), pts) for a in ("--points", f"{n}={v}")])
        ok("end-session")
    legend = ok("chart").stdout.splitlines()[-1]
    assert "^ Ben 95 (+48 a night)" in legend and "* Larry 65 (+33 a night)" in legend
    data = ref_json("chart")
    ben = next(s for s in data["series"] if s["name"] == "Ben")
    (x0, y0), (x1, y1) = ben["projection"]
    assert y1 == 95 + round(47.5 * (x1 - x0))  # 47.5 a night, not the 47.5 rounded to 0.1 of a longer history


def test_the_chart_of_one_session_counts_the_games_in_force_not_a_voided_one(monkeypatch):
    """Audit, stop 35: with game 2 voided and played again, the title said "(3 games)"."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-14T15:00")
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3")
    first = ("--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S", "--out", "Ann")
    second = ("--hand", "Ann=KH QC JD", "--hand", "Bob=AS 2S 3S 4D", "--hand", "Cy=10D 10C 4S", "--out", "Bob")
    ok("score-hand", *first)
    ok("score-hand", *second)
    ok("void", "2", "--reason", "misdeal")
    ok("score-hand", *second)
    assert "after each game of the session (2 games; game 2 voided)" in ok("chart", "--height", "14").stdout.splitlines()[0]
