"""``ref chart`` (issue 8, part 3): the terminal chart and the PNG."""

from __future__ import annotations

import struct
import sys

from cli_helpers import ref, ref_json
from test_stats import SIMPLE, ok, simple_games, two_nights


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_terminal_chart_has_the_players_the_target_and_the_projection():
    two_nights()
    result = ok("chart", "--width", "90", "--height", "22")
    text = result.stdout
    for part in ("Bill", "Ben", "Larry", "target 2,000,000", "Bill at pace", "Rummy Night", "2,000,000"):
        assert part in text, part
    assert "\x1b[" not in text  # no colour codes when not at a terminal
    assert "at this pace Bill reaches the target on night" in text
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 90 and len(lines) >= 20


def test_chart_json_is_the_standings_pace():
    two_nights()
    data = ref_json("chart")
    series = {s["name"]: s for s in data["series"]}
    assert series["Bill"]["nights"] == [0, 1, 2]
    assert series["Bill"]["totals"] == [95_000, 95_000 + 4064, 95_000 + 4064 + 1010]
    assert series["Larry"]["totals"] == [0, -10, 0]
    standings = {p["name"]: p for p in ref_json("standings")["players"]}
    crossing = data["crossing"]
    assert crossing["name"] == "Bill"
    assert crossing["night"] == 2 + standings["Bill"]["nights_to_go"]
    assert crossing["date"] == standings["Bill"]["projected_date"]
    end_night, end_total = series["Bill"]["projection"][-1]
    assert end_night == crossing["night"] and end_total >= 2_000_000


def test_png_is_a_real_png_of_the_requested_size(tmp_path):
    two_nights()
    out = tmp_path / "race.png"
    result = ok("chart", "--png", str(out), "--width", "800", "--height", "500")
    assert png_size(out) == (800, 500)
    assert "chart written to" in result.stderr and result.stdout == ""
    ok("chart", "--png", str(tmp_path / "default.png"))
    assert png_size(tmp_path / "default.png") == (1000, 600)


def test_no_data_says_so(tmp_path):
    result = ref("chart")
    assert result.exit_code == 5 and "no record" in result.stderr
    ok("new-session")
    result = ok("chart")
    assert "nothing to chart yet" in result.stderr and result.stdout == ""
    assert not (tmp_path / "x.png").exists()


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
    assert result.exit_code == 6 and "cannot write" in result.stderr


def test_simple_rummy_charts_games_won():
    simple_games(SIMPLE)
    data = ref_json("chart", "--game", "table")
    assert data["measure"] == "games won" and data["target"] is None and data["crossing"] is None
    assert {s["name"]: s["totals"] for s in data["series"]} == {"Ann": [0, 2, 2], "Bob": [0, 1, 1], "Cy": [0, 0, 2]}
    text = ok("chart", "--game", "table", "--width", "70", "--height", "16").stdout
    assert "table: games won after each session" in text and "Ann" in text and "target" not in text
