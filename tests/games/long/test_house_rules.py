"""A long game is its rule set: 500 Rum (built in, data only) and a house copy of Rummy
2,000,000's file both play to the end with none of the house's own rules, words or citations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

from rummyref.rules.ruleset import builtin_path, load_ruleset

HOUSE_WORDS = re.compile(r"Rummy Night|dibs|\(A\d\)|\bA[1-7]\b|GEDDOWWWT|the floor", re.IGNORECASE)
#: a session's seal is random letters and digits: "Seal: 75K8-7PW0-A2" names no rule
SEAL = re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}\b")


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stderr
    return r


def no_house(text: str) -> None:
    found = HOUSE_WORDS.findall(SEAL.sub("<seal>", text))
    assert not found, f"house rules leaked into a plain long game: {found}\n{text}"


def five_hundred_copy(tmp_path: Path) -> Path:
    """A house's 500 Rum made from rummy-2m.toml: target 500 and an open roster, nothing else
    (its [house] table left out: an open roster reads none of it, and a file keeping it is refused)."""
    text = builtin_path("rummy-2m").read_text(encoding="utf-8")
    text = text.replace("target = 2_000_000", "target = 500").replace("closed_roster = true", "closed_roster = false")
    text = re.sub(r"(?ms)^\[house\]\n.*?\n\n", "", text)
    assert "\n[house]\n" not in text and "[[deal]]" in text
    path = tmp_path / "our-500.toml"
    path.write_text(text, encoding="utf-8")
    return path


def play_to_the_end(ruleset: str, players: str = "Ann,Bob,Cy") -> dict:
    """Three hands by points then cards; Bob passes 500 in the third. Returns the last hand's JSON."""
    r = ok("new-session", "--ruleset", ruleset, "--game", "club", "--players", players)
    no_house(r.stdout + r.stderr)
    hand = ok("score-hand", "--points", "Ann=120", "--points", "Bob=200", "--points", "Cy=-15")
    no_house(hand.stdout + hand.stderr)
    ok("score-hand", "--points", "Ann=90", "--points", "Bob=240", "--points", "Cy=30")
    st = ok("standings")
    no_house(st.stdout + st.stderr)
    last = ref_json("score-hand", "--melded", "Bob=AS AH AC / 2D 3D 4D", "--held", "Bob=",
                    "--held", "Ann=KS", "--held", "Cy=9D 9C", "--out", "Bob")
    return last


@pytest.mark.parametrize("source", ["builtin", "house-copy"])
def test_a_500_rum_game_runs_from_its_rule_set_alone(source, tmp_path):
    ruleset = "rummy-500" if source == "builtin" else str(five_hundred_copy(tmp_path))
    rs = load_ruleset(ruleset)
    assert rs.target == 500 and not rs.house.rules and not rs.house.seating_dibs
    last = play_to_the_end(ruleset)
    # Bob: AS AH AC = 45, 2D 3D 4D = 9 -> 54; totals Ann 210-10, Bob 440+54, Cy 15-18
    assert last["score"]["scores"][1] == {"name": "Bob", "points": 54, "melded": 54, "claimed": 0, "held": 0,
                                         "wild_penalty": 0}
    assert last["totals"] == {"Ann": 200, "Bob": 494, "Cy": -3}
    assert not last["over"]
    final = ref_json("score-hand", "--points", "Ann=50", "--points", "Bob=6", "--points", "Cy=0")
    assert final["over"] and final["winner"] == "Bob" and final["totals"]["Bob"] == 500
    shown = ok("standings")
    no_house(shown.stdout)
    over = "GAME OVER (R3): Bob wins." if source == "builtin" else "GAME OVER: Bob wins."  # scoring.rule cites R3
    assert over in shown.stdout and "500 hands" not in shown.stdout
    refused = ref("score-hand", "--points", "Ann=1", "--points", "Bob=1", "--points", "Cy=1")
    assert refused.exit_code == 4 and "is over" in refused.stderr
    no_house(refused.stderr)
    closed = ok("end-session")  # the game is over: the session may end mid-round
    no_house(closed.stdout)
    assert ref_json("standings", "--game", "club")["dibs"] == []


def test_the_roster_of_a_500_rum_game_is_open_and_sessions_end_any_time():
    ok("new-session", "--ruleset", "rummy-500", "--game", "club", "--players", "Ann,Bob")
    ok("score-hand", "--points", "Ann=10", "--points", "Bob=20")
    ended = ok("end-session")  # full_rounds = false: no round to finish
    assert "Session 1 of club is closed: 1 hand, 0 full rounds." in ended.stdout
    stranger = ref("new-session", "--game", "club", "--players", "Ann,Zed")
    assert stranger.exit_code == 4 and "GEDDOWWWT" not in stranger.stderr


def test_a_500_rum_opening_past_the_target_is_refused():
    r = ref("new-session", "--ruleset", "rummy-500", "--players", "Ann,Bob", "--opening", "Ann=500")
    assert r.exit_code == 4 and "at or past the target 500" in r.stderr
    no_house(r.stderr)
    house = ref("new-session", "--opening", "Ben=2000000")
    assert house.exit_code == 4 and "refused (A7): Ben's opening total 2,000,000 is at or past the target" in house.stderr


def test_the_house_game_keeps_its_words():
    r = ok("new-session")
    assert "Rummy Night 1 of rummy-2m is open." in r.stdout and "Seating dibs (A2):" in r.stdout
    assert "Deal order (A3): Bill, Ben, Larry." in r.stdout


def test_a_house_copy_of_500_rum_with_other_values(tmp_path):
    """A house variant of a kind is a rule set file alone: target 300, an ace worth 11."""
    text = builtin_path("rummy-500").read_text(encoding="utf-8")
    text = text.replace("target = 500", "target = 300").replace("values = { A = 15,", "values = { A = 11,")
    path = tmp_path / "quick-300.toml"
    path.write_text(text.replace('name = "rummy-500"', 'name = "quick-300"'), encoding="utf-8")
    ok("new-session", "--ruleset", str(path), "--game", "quick", "--players", "Ann,Bob")
    hand = ref_json("score-hand", "--melded", "Ann=AS AH AC", "--held", "Ann=", "--held", "Bob=AD 9C",
                    "--out", "Ann")
    assert hand["totals"] == {"Ann": 33, "Bob": -20}  # three aces at 11; Bob holds an ace (11) and a 9
    final = ref_json("score-hand", "--points", "Ann=270", "--points", "Bob=5")
    assert final["over"] and final["winner"] == "Ann" and final["totals"]["Ann"] == 303
    st = ref_json("standings")
    assert st["target"] == 300 and st["over"] and st["ruleset"] == "quick-300"
