"""Audit G, items 1, 2, 5 and 6: names and tokens nobody reads whole.

1. ``ref first-dealer`` checks its players' names as every roster's are checked (exit 3);
2. a long roster name (up to NAME_MAX allowed) is cut with an ellipsis in standings, history
   and score-hand, so that every line fits 80 columns; ``--json`` keeps the whole name;
5. an unreadable card is repeated cut, with its length, however long it was typed;
6. ``ref count ""`` (no cards at all) is a usage error, exit 2, as ``ref count`` is.
"""

from __future__ import annotations

import json

import pytest
from cli_helpers import ref, ref_subprocess
from rich.cells import cell_len

from rummyref.errors import TOKEN_SHOWN
from rummyref.names import NAME_MAX

# -- 1. first-dealer's names ---------------------------------------------------------------

BAD_NAMES = [
    ("An\x1b[31mn", "error: player name 'An\\x1b[31mn' contains U+001B ESCAPE, a control character"),
    ("Ann\nEvil", "error: player name 'Ann\\nEvil' contains U+000A LINE FEED, a control character"),
    ("Ann\u200b", "error: player name 'Ann\\u200b' contains U+200B ZERO WIDTH SPACE, an invisible"),
    ("A" * 3000, "error: 'AAAAAAAAAAAAAAAAAAAAAAA…' cannot be a name: 3,000 characters, at most"),
    ("A" * (NAME_MAX + 1), "cannot be a name: 101 characters, at most"),
    ("AS", "error: 'AS' cannot be a name: AD>AS would read as the card AS"),
    ("Bo>b", "error: 'Bo>b' cannot be a name: '>' is the table's own mark (AD>NAME, AD^)"),
]


@pytest.mark.parametrize("name, words", BAD_NAMES, ids=["escape", "line-feed", "zero-width", "3000", "101",
                                                         "card", "mark"])
def test_first_dealer_refuses_the_names_a_roster_refuses(name, words):
    r = ref("first-dealer", f"{name}=KS", "Bob=QS")
    assert r.exit_code == 3, r.stdout + r.stderr
    assert r.stdout == ""
    assert words in r.stderr.replace("\n", " ") or words in r.stderr
    assert "Evil deals" not in r.stderr and "\x1b" not in r.stderr
    assert len(r.stderr) < 400  # the 3,000 characters are not repeated


def test_first_dealer_refuses_look_alike_names_and_an_unreadable_card_never_repeats_a_bad_name():
    r = ref("first-dealer", "Ann=KS", "\u0410nn=QS")
    assert r.exit_code == 3
    assert "'Аnn' is named twice: it looks the same as 'Ann', by U+0410 CYRILLIC" in r.stderr
    r = ref("first-dealer", "Ann\nEvil=XX", "Bob=QS")  # the name is checked before its cards
    assert r.exit_code == 3 and "U+000A LINE FEED" in r.stderr and "\nEvil" not in r.stderr


def test_first_dealer_with_a_long_name_fits_80_columns_and_json_keeps_the_name():
    long = "Maximiliana" * 9  # 99 characters: allowed
    r = ref_subprocess("first-dealer", f"{long}=KS", "Bob=QS", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    assert all(cell_len(line) <= 80 for line in r.stdout.splitlines()), r.stdout
    assert "MaximilianaMaxi…anaMaximiliana deals first." in r.stdout
    r = ref("first-dealer", f"{long}=KS", "Bob=QS", "--json")
    assert json.loads(r.stdout)["dealer"] == long


def test_first_dealer_still_reads_good_names_as_before():
    r = ref("first-dealer", " José =KS", "Bob=KH")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0] == "José  K♠  <- deals first"


# -- 2. long names within 80 columns -------------------------------------------------------


def test_a_99_character_name_keeps_standings_history_and_score_hand_within_80_columns(tmp_path):
    long = "Maximiliana" * 9
    assert len(long) == 99 < NAME_MAX
    env = {"COLUMNS": "80", "RUMMYREF_NOW": "2026-03-20T12:00", "RUMMYREF_INTERACTIVE": "0",
           "RUMMYREF_DB": str(tmp_path / "long.db")}
    shown: dict[str, str] = {}

    def run(*args: str) -> str:
        r = ref_subprocess(*args, env=env)
        assert r.returncode == 0, r.stderr
        too_wide = [line for line in (r.stdout + r.stderr).splitlines() if cell_len(line) > 80]
        assert not too_wide, f"ref {' '.join(args)}: {too_wide}"
        shown[" ".join(args)] = r.stdout
        return r.stdout

    run("new-session", "--players", f"{long},Ben,Larry")
    run("score-hand", "--points", f"{long}=10", "--points", "Ben=5", "--points", "Larry=-3")
    run("score-hand", "--points", f"{long}=10", "--points", "Ben=5", "--points", "Larry=-3")
    hand = run("score-hand", "--melded", f"{long}=2S 3S 4S", "--out", long, "--held", "Ben=KS", "--held", "Larry=QS")
    assert "2S 3S 4S (MaximilianaMaxi…anaMaximiliana)" in hand
    run("end-session")
    standings = run("standings")
    assert not any(line.strip().endswith("%") and line.strip() == line.strip().split()[-1]
                   for line in standings.splitlines())  # the progress stays on its player's line
    assert sum("0.0%" in line for line in standings.splitlines()) == 3
    history = run("history", "--session", "1")
    assert "      MaximilianaMaxi…anaMaximiliana: 2S 3S 4S 9 (run 2S 3S 4S) = 9" in history
    run("history")
    run("stats")
    data = json.loads(ref_subprocess("standings", "--json", env=env).stdout)
    assert long in json.dumps(data, ensure_ascii=False)
    data = json.loads(ref_subprocess("history", "--json", env=env).stdout)
    assert any(p["name"] == long for p in data["players"])


# -- 5. a long unreadable card is cut ------------------------------------------------------


def test_an_unreadable_card_is_repeated_cut_with_its_length():
    r = ref("count", "x" * 300)
    assert r.exit_code == 3
    assert f"unreadable card {'x' * (TOKEN_SHOWN - 1) + '…'!r} (300 characters; card 1, column 1)" in \
        r.stderr.replace("\n", " ")
    assert "x" * TOKEN_SHOWN not in r.stderr
    r = ref("count", "7S", "7x")  # a short one is repeated whole, as before
    assert "error: unreadable card '7x' (card 2, column 4)" in r.stderr


def test_count_jsonl_gives_a_short_error_for_a_huge_line():
    r = ref("count", "--jsonl", input="x" * 1_000_000 + "\nAS\n")
    assert r.exit_code == 0
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    assert first["error"] == f"unreadable card {'x' * (TOKEN_SHOWN - 1) + '…'!r} (1,000,000 characters; card 1, column 1)"
    assert first["line"] == 1 and second["count"] == 15


# -- 6. no cards at all is a usage error ---------------------------------------------------


@pytest.mark.parametrize("args", [(), ("",), ("  ",), ("", ""), (" , ",)], ids=["none", "empty", "blank", "two", "comma"])
def test_count_with_no_cards_at_all_is_a_usage_error(args):
    r = ref("count", *args)
    assert r.exit_code == 2, r.stdout
    assert "give the hand's cards (or --jsonl)" in r.stderr
    assert r.stdout == ""


def test_count_jsonl_keeps_a_blank_line_as_an_empty_hand():
    r = ref("count", "--jsonl", input="AS 2S 3S 9D\n\n")
    assert r.exit_code == 0
    assert [json.loads(line)["count"] for line in r.stdout.splitlines()] == [9, 0]
