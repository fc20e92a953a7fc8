"""Audit output46: what every command promises about its output and its errors (#2-#9)."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json, ref_subprocess

# -- 2. COLUMNS=0 is no width: the default 80, not a width of 0 that prints nothing -----------------


@pytest.mark.parametrize("columns", ["0", "-5", "abc"])
def test_a_width_of_nothing_is_the_default_width(columns):
    env = {"COLUMNS": columns, "LINES": "0"}
    made = ref_subprocess("new-session", "-p", "Bill,Ben,Larry", env=env)
    assert made.returncode == 0 and made.stdout.startswith("New game rummy-2m"), made.stderr
    refused = ref_subprocess("score-hand", "--points", "Bill=1", "--points", "Ben=2", env=env)
    assert refused.returncode == 3
    assert refused.stderr.startswith("error: facts missing for Larry, and there is no terminal to ask\n")
    recorded = ref_subprocess("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3", env=env)
    assert recorded.returncode == 0 and recorded.stdout.startswith("Hand 1 of rummy-2m: Rummy Night 1"), recorded.stdout
    assert max(len(line) for line in recorded.stdout.splitlines()) <= 80
    chart = ref_subprocess("chart", "--width", "80", "--height", "20", env=env)
    assert chart.returncode == 0 and len(chart.stdout.splitlines()) == 20
    missing = ref_subprocess("standings", "-g", "nope", env=env)
    assert missing.returncode == 5 and missing.stderr.startswith("error: ")


# -- 3. a terminal that cannot show UTF-8: tables measured as they are written ----------------------

LONG = "Worthington-Fitzgerald-Montgomery-Senior"
ROSTER = ["José", "Ann", f"{LONG}-José", "王" * 19, LONG]


def test_tables_keep_their_columns_in_ascii():
    assert ref("new-session", "-p", ",".join(ROSTER)).exit_code == 0
    points = [a for n, p in zip(ROSTER, [12, 5, 4, 1, 0]) for a in ("--points", f"{n}={p}")]
    assert ref("score-hand", *points).exit_code == 0
    env = {"PYTHONIOENCODING": "ascii", "LC_ALL": "C", "COLUMNS": "80"}
    standings = ref_subprocess("standings", env=env)
    assert standings.returncode == 0, standings.stderr
    lines = standings.stdout.splitlines()
    assert all(line.isascii() and len(line) <= 80 for line in lines), [ln for ln in lines if len(ln) > 80]
    race = lines[1:7]
    assert race[0].startswith("#  player ")
    # every row's total ends under the heading's "total": the columns line up
    ends = {line.index("total") + len("total") for line in race[:1]}
    assert {len(line[:line.index("  1,9") if "  1,9" in line else line.index("  2,0")].rstrip()) for line in race[1:]} == ends
    assert r"  Worthington-Fi...enior-Jos\xe9  " in standings.stdout  # 30 cells, cut after escaping
    assert r"  \u738b\u738b\u...b\u738b\u738b  " in standings.stdout
    hand = ref_subprocess("score-hand", *points, env=env)
    rows = hand.stdout.splitlines()[1:]
    assert len({row.index("|") for row in rows if "|" in row}) == 1  # one column of rules
    assert all(len(row) <= 80 for row in rows)
    # the ASCII form of a long name, as the table shows it, is typed back
    assert ref("score-hand", *points[:-1], "Worthington-Fi...gomery-Senior=0").exit_code == 0


# -- 4. and 5. the stats and a hand's scores fit 80 columns at the extremes the limits allow ---------


def cells_wide(text: str) -> int:
    from rich.cells import cell_len

    return max(cell_len(line) for line in text.splitlines())


def test_stats_leaves_a_column_out_and_says_so(monkeypatch):
    from rummyref.cli import common

    names = [f"{'W' * 99}{i}" for i in range(8)]
    assert ref("new-session", "-p", ",".join(names)).exit_code == 0
    points = [a for n in names for a in ("--points", f"{n}=-10000")]
    for _ in range(2):
        assert ref("score-hand", *points).exit_code == 0
    monkeypatch.setattr(common.out, "_width", 80)
    text = ref("stats").stdout
    assert cells_wide(text) <= 80
    assert "  (avg/night: left out at this width; a wider terminal or --json shows it)" in text
    assert "avg/hand" in text and "-10,000.0" in text
    monkeypatch.setattr(common.out, "_width", 100)
    assert "left out" not in ref("stats").stdout  # at 100 columns every column is shown
    assert ref_json("stats")["players"][0]["average_per_night"] == -20000


def test_a_hand_of_the_points_form_drops_its_empty_columns_at_80(monkeypatch):
    from rummyref.cli import common

    long = "Worthington-Fitzgerald-Montgomery-Senior"
    assert ref("new-session", "-p", f"{long},Ben", "--opening", "Ben=-1000000000").exit_code == 0
    monkeypatch.setattr(common.out, "_width", 80)
    text = ref("score-hand", "--points", f"{long}=-10000", "--points", "Ben=-10000").stdout
    assert cells_wide(text) <= 80
    assert "Ben                            │        │      │ -10,000 │ -1,000,010,000" in text
    assert "claimed" not in text and "left out" not in text  # an empty column hides nothing
    monkeypatch.setattr(common.out, "_width", 100)
    text = ref("score-hand", "--points", f"{long}=-10000", "--points", "Ben=-10000").stdout
    assert "┃ claimed ┃" in text  # where there is room, the table as ever
