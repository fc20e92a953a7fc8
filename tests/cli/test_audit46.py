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
