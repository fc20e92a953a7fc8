"""Audit stats-charts (stop 48): names drawn literally in the PNG and matplotlib's warnings in
ref's words (1, 3), milestones passed in one hand ordered by total (2), averages rounded half up
(5), the terminal chart's scale at small heights (6), the legend's projection markers (7), the
narrow milestones and Gin tables (8)."""

from __future__ import annotations

import re

import pytest
from cli_helpers import ref_json, ref_subprocess
from test_stats import ok

# -- 1 and 3: the PNG ---------------------------------------------------------------------------


def _texts_of_the_png(monkeypatch, *args: str) -> list:
    """Run ``ref chart --png`` in-process and keep the figure's texts (before it is closed)."""
    pytest.importorskip("matplotlib")
    from matplotlib import pyplot
    from matplotlib.text import Text

    kept: list = []
    close = pyplot.close

    def keep(fig=None):
        if fig is not None:
            kept.extend(t for t in fig.findobj(Text) if t.get_text())
        return close(fig)

    monkeypatch.setattr(pyplot, "close", keep)
    ok("chart", *args)
    return kept


def test_png_draws_names_with_dollars_and_backslashes_as_typed(tmp_path, monkeypatch):
    """'Al$\\x$' crashed the PNG (exit 1, mathtext's "Unknown symbol"); 'Mo$e$' was drawn "Moe"."""
    ok("new-session", "-g", "pay$\\x$day", "--players", "Al$\\x$,Mo$e$")
    ok("score-hand", "-g", "pay$\\x$day", "--points", "Al$\\x$=10", "--points", "Mo$e$=20")
    texts = _texts_of_the_png(monkeypatch, "-g", "pay$\\x$day", "--png", str(tmp_path / "c.png"))
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"
    shown = {t.get_text() for t in texts}
    assert any(s.startswith("Al$\\x$ 10") for s in shown) and any(s.startswith("Mo$e$ 20") for s in shown)
    assert any(s.startswith("pay$\\x$day: total") for s in shown)
    assert all(not t.get_parse_math() for t in texts)  # never read as TeX


def test_png_says_a_missing_glyph_once_in_refs_words_and_no_raw_warning(tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib import font_manager

    ok("new-session", "-g", "c", "--players", "李小龍,Bo")
    ok("score-hand", "-g", "c", "--points", "李小龍=10", "--points", "Bo=5")
    done = ref_subprocess("chart", "-g", "c", "--png", str(tmp_path / "c.png"))
    assert done.returncode == 0 and (tmp_path / "c.png").exists()
    assert "Warning" not in done.stderr and "chart.py" not in done.stderr and "tight_layout" not in done.stderr
    said = " ".join(done.stderr.split())
    if any("CJK" in f.name or "Hei" in f.name for f in font_manager.fontManager.ttflist):
        assert "warning" not in said  # a fallback font draws the name
    else:
        assert said.count("warning: no font installed here has the characters 李, 小 and 龍 (in 李小龍)") == 1
        assert "empty boxes" in said
    assert said.endswith(f"chart written to {tmp_path / 'c.png'} (1000x600 pixels)")
    small = ref_subprocess("chart", "-g", "c", "--png", str(tmp_path / "t.png"), "--width", "20", "--height", "8")
    assert small.returncode == 0 and "Warning" not in small.stderr and "tight_layout" not in small.stderr
    ok("new-session", "-g", "d", "--players", "Ann,Bo")
    ok("score-hand", "-g", "d", "--points", "Ann=10", "--points", "Bo=5")
    plain = ref_subprocess("chart", "-g", "d", "--png", str(tmp_path / "d.png"), "--width", "20", "--height", "8")
    assert plain.returncode == 0
    # blanks and line ends aside: a path as long as the line is folded where the line ends
    assert "".join(plain.stderr.split()) == "".join(f"chart written to {tmp_path / 'd.png'} (20x8 pixels)".split())


# -- 2: milestones passed in one hand --------------------------------------------------------------


def test_players_passing_a_mark_in_the_same_hand_come_by_their_totals_as_a7_decides(tmp_path):
    text = open("data/rulesets/rummy-2m.toml", encoding="utf-8").read()
    (tmp_path / "r.toml").write_text(text.replace("target = 2_000_000", "target = 200_000"), encoding="utf-8")
    ok("new-session", "-g", "t2", "--ruleset", str(tmp_path / "r.toml"), "--players", "Bill,Ben,Larry",
       "--opening", "Bill=199950", "--opening", "Ben=199960")
    ok("score-hand", "-g", "t2", "--points", "Bill=60", "--points", "Ben=90", "--points", "Larry=10")
    assert ref_json("standings", "-g", "t2")["winner"] == "Ben"
    target = ref_json("stats", "-g", "t2")["milestones"][-1]
    assert [h["name"] for h in target["hits"]] == ["Ben", "Bill"] and target["first"] == "Ben"
    assert re.search(r"200,000 \(target\) +Ben .*\n +Bill ", ok("stats", "-g", "t2").stdout)


def test_openings_past_a_milestone_come_greatest_first_and_equal_totals_by_seat():
    ok("new-session", "-g", "o", "--players", "Bill,Ben,Larry", "--opening", "Bill=100500",
       "--opening", "Ben=150000")
    ok("score-hand", "-g", "o", "--points", "Bill=10", "--points", "Ben=10", "--points", "Larry=10")
    m = ref_json("stats", "-g", "o")["milestones"][0]
    assert [h["name"] for h in m["hits"]] == ["Ben", "Bill"] and m["first"] == "Ben"
    ok("new-session", "-g", "e", "--players", "Bill,Ben", "--opening", "Bill=99990", "--opening", "Ben=99980")
    ok("score-hand", "-g", "e", "--points", "Bill=10", "--points", "Ben=20")  # both 100,000: by seat
    m = ref_json("stats", "-g", "e")["milestones"][0]
    assert [h["name"] for h in m["hits"]] == ["Bill", "Ben"] and m["first"] == "Bill"


# -- 5: averages ------------------------------------------------------------------------------------


def test_averages_round_half_up_in_text_and_json():
    from rummyref.record import tenths

    assert (tenths(58, 8), tenths(81, 4), tenths(54, 8), tenths(-58, 8), tenths(1, 3)) == (7.3, 20.3, 6.8, -7.3, 0.3)
    ok("new-session", "--players", "Ann,Bob")
    for p in (10, 10, 10, 10, 10, 4, 4, 0):
        ok("score-hand", "--points", f"Ann={p}", "--points", "Bob=0")
    lines = ok("stats").stdout.splitlines()
    assert re.match(r"Ann +8 +1 +7\.3 +58\.0 ", lines[2]), lines[2]
    assert ref_json("stats")["players"][0]["average_per_hand"] == 7.3
    assert ref_json("standings")["players"][0]["average"] == 7.3


# -- 6 and 7: the terminal chart -----------------------------------------------------------------


def test_the_top_and_bottom_rows_keep_their_labels_at_a_small_height(tmp_path):
    text = open("data/rulesets/rummy-2m.toml", encoding="utf-8").read()
    (tmp_path / "b.toml").write_text(text.replace("target = 2_000_000", "target = 1_000_000_000"), encoding="utf-8")
    ok("new-session", "-g", "big", "--ruleset", str(tmp_path / "b.toml"), "--players", "Al,Mo",
       "--opening", "Al=999999999", "--opening", "Mo=-1000000000")
    ok("score-hand", "-g", "big", "--points", "Al=-5", "--points", "Mo=10")
    for height in (12, 14, 24):
        lines = ok("chart", "-g", "big", "--width", "80", "--height", str(height)).stdout.splitlines()
        plot = [line for line in lines if line.rstrip().endswith(("│", "|"))]
        labels = [re.match(r" *(-?[\d,]+)[┤+]", line) for line in plot]
        assert labels[0] and labels[0].group(1) == "999,999,999", plot[0]  # the top row: Al's line
        assert labels[-1] and labels[-1].group(1) == "-1,000,000,000"
        assert sum(1 for m in labels if m) >= 2


def test_the_legend_shows_each_projected_lines_marker():
    ok("new-session", "--opening", "Bill=1990000", "--opening", "Ben=1980000", "--opening", "Larry=1900000")
    for _ in range(3):
        ok("score-hand", "--points", "Bill=1500", "--points", "Ben=1000", "--points", "Larry=-5")
    ok("end-session")
    data = ref_json("chart")
    pace = next(e for e in data["legend"] if e["kind"] == "pace")
    assert pace["marker"] == "o ^"  # Larry's pace is negative: no projected line, no marker
    text = ok("chart", "--width", "80", "--height", "24").stdout
    assert "o ^ at this pace" in text and "o o at this pace" not in text


# -- 8: narrow terminals ---------------------------------------------------------------------------


def test_at_40_columns_the_opening_balance_stays_and_gin_fits(monkeypatch):
    from rummyref.cli import common

    ok("new-session", "-g", "o", "--opening", "Bill=250000", "--players", "Bill,Ben,Larry")
    ok("score-hand", "-g", "o", "--points", "Bill=1", "--points", "Ben=0", "--points", "Larry=0")
    ok("new-session", "-g", "gin", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", "-g", "gin", "--hand", "Ann=AH 2H 3H 4H 5D 5S 5C KD KS KC",
       "--hand", "Bob=9C 10C JC 6S 6D 6H 2S 3S 4S 5H", "--gin", "Ann")
    monkeypatch.setattr(common.out, "_width", 40)
    text = ok("stats", "-g", "o").stdout
    assert re.search(r"100,000 +Bill +opening balance\n", text), text
    gin = ok("stats", "-g", "gin").stdout
    scoring = gin.split("player  hands won")[0].splitlines()
    assert max(len(line) for line in scoring) <= 40, scoring
    assert any(line.startswith("Ann ") and "30.0" in line for line in scoring)  # avg/hand kept
    milestones = gin[gin.index("Milestones"):].splitlines()
    assert max(len(line) for line in milestones) <= 40, milestones
    monkeypatch.setattr(common.out, "_width", 80)
    assert re.search(r"100,000 +Bill +opening balance\n", ok("stats", "-g", "o").stdout)
