"""What the table asks between hands (issue 14, item 8): who deals next (standings, after every
hand), a session's totals in ``history --session N``, ``history --last N``, a correction shown
beside the hand it corrects, one count of hands everywhere, and the night's summary at
``end-session``. SPEC §8: a voided hand is not a dealt hand."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json


def ok(*args: str) -> str:
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def points(bill: int, ben: int, larry: int) -> dict:
    return ref_json("score-hand", "--points", f"Bill={bill}", "--points", f"Ben={ben}", "--points", f"Larry={larry}")


@pytest.fixture
def night(record, monkeypatch):
    """Rummy Night 1 (on 12 November 2026): four hands by points (Bill, Ben, Larry, Bill dealt)."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")
    ok("new-session")
    for i in range(4):
        points(3 * i + 1, 3 * i + 2, 3 * i + 3)
    return record


def test_who_deals_next_in_the_standings(night):
    st = ref_json("standings")
    assert st["next_dealer"] == "Ben"
    assert "Rummy Night 1 is open: Ben deals the next hand (A3)." in lines(ok("standings"))
    assert points(0, 0, 0)["next_dealer"] == "Larry"  # after every hand, too
    assert ref_json("standings")["next_dealer"] == "Larry"


def test_a_hand_voided_last_is_dealt_again_and_the_night_may_end(night):
    """SPEC §8: a voided hand is not a dealt hand: its dealer deals again, and a night whose
    only uncounted hand was voided can end."""
    v = ref_json("void", "4", "--reason", "misdeal")
    assert v["next_dealer"] == "Bill" and v["round"]["in_round"] == 0
    assert ref_json("standings")["next_dealer"] == "Bill"
    closed = ref_json("end-session")
    assert (closed["hands"], closed["voided"], closed["rounds"]) == (3, 1, 1)  # the void is counted (audit L)
    st = ref_json("standings")
    assert st["next_dealer"] == "Bill" and st["hands"] == 3
    assert "Next Rummy Night: Bill deals first (A3)." in lines(ok("standings"))


def test_one_count_of_hands_everywhere_and_the_night_summary(night):
    # SPEC §8: Ben's hand voided mid-night is dealt again by Ben, first; then the deal goes on
    # where it was (Ben's turn, after Bill's hand 4), and Larry deals to make the rounds full (A4)
    assert ref_json("void", "2", "--reason", "dealt twice")["next_dealer"] == "Ben"
    assert points(13, 14, 15)["dealer"] == "Ben"
    assert points(16, 17, 18)["dealer"] == "Ben"
    assert ref("end-session").stderr.splitlines()[0].startswith(
        "refused (A4): the night cannot end in the middle of a round: Larry still has to")
    assert points(19, 20, 21)["dealer"] == "Larry"
    summary = [line for line in lines(ok("end-session")) if not line.startswith("Seal: ")]
    assert summary == [
        "Rummy Night 1 of rummy-2m is closed: 6 hands, 2 full rounds (1 hand voided).",
        "Night's winner: Larry.",
        "player  night  total",
        "Larry      78     78",
        "Ben        72     72",
        "Bill       66     66",
    ]
    closed = ref_json("history", "--session", "1")["session_totals"]
    assert closed == {"session": 1, "hands": 6, "points": {"Bill": 66, "Ben": 72, "Larry": 78}, "abandoned": False,
                      "counts": True}
    st = ref_json("standings")
    assert st["hands"] == 6 and st["recent_nights"][0]["hands"] == 6
    assert "  night 1 (2026-11-12, 6 hands): winner Larry; Bill 66, Ben 72, Larry 78" in lines(ok("standings"))
    assert lines(ok("history", "--session", "1"))[-1] == "Rummy Night 1: 6 hands; Bill 66, Ben 72, Larry 78 (best: Larry)."


def test_a_correction_is_shown_beside_the_hand_it_corrects(night):
    ok("amend", "1", "--points", "Bill=5", "--points", "Ben=2", "--points", "Larry=3", "--reason", "Bill counted short")
    ok("void", "3", "--reason", "misdeal")
    heads = [line for line in lines(ok("history")) if line.startswith("entry ")]
    assert heads == [
        "entry 3: hand 1, night 1 hand 1, Bill dealt (superseded)",
        "entry 7: hand 1, night 1 hand 1, Bill dealt AMENDS entry 3",
        "entry 4: hand 2, night 1 hand 2, Ben dealt",
        "entry 5: hand 3, night 1 hand 3, Larry dealt (voided)",
        "entry 8: hand 3, night 1 hand 3, Larry dealt VOIDS entry 5",
        "entry 6: hand 4, night 1 hand 4, Bill dealt",
    ]
    # the JSON keeps the log's order (the shape of 0.1; the header and the night's opening are entries 1-2)
    assert [e["seq"] for e in ref_json("history")["entries"]] == [3, 4, 5, 6, 7, 8]


def test_history_last_n(night):
    ok("amend", "3", "--points", "Bill=0", "--points", "Ben=0", "--points", "Larry=0", "--reason", "x")
    data = ref_json("history", "--last", "2")
    assert [(e["seq"], e["hand"]) for e in data["entries"]] == [(5, 3), (6, 4), (7, 3)]
    heads = [line for line in lines(ok("history", "-n", "1")) if line.startswith("entry ")]
    assert heads == ["entry 6: hand 4, night 1 hand 4, Bill dealt"]
    wrong = ref("history", "--last", "0")
    assert wrong.exit_code == 3  # out of range (1 to 10^9): bad input
    # a count of hands, not a hand's number (audit output46 #8)
    assert "a count of the last hands to show, from 1" in " ".join(wrong.stderr.split())


def test_the_night_shell_history_of_the_night_has_its_totals(night):
    assert lines(ok("history", "-s", "1"))[-1] == "Rummy Night 1: 4 hands; Bill 22, Ben 26, Larry 30 (best: Larry)."


def test_simple_rummy_between_games(record):
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5")
    st = ref_json("standings")
    assert (st["next_dealer"], st["next_first_player"]) == ("Ann", "Bob")
    r = ok("score-hand", "--hand", "Ann=2H 3H 4H 4S 4D", "--hand", "Bob=KS QD 9C 8C 2D", "--hand", "Cy=AS AD AC 6H 7H")
    assert lines(r)[-1] == "Next game: Cy deals, Ann plays first (S6)."
    assert "Next game: Cy deals, Ann plays first (S6)." in lines(ok("standings"))
    closed = lines(ok("end-session"))
    assert closed[:2] == ["Session 1 of simple-rummy is closed: 1 game; game wins this session: Ann 1, Bob 0, Cy 0.",
                          "Most games won this session: Ann."]
    st = ref_json("standings")
    assert (st["next_dealer"], st["next_first_player"]) == ("Cy", "Ann")
    assert "Next game, if the same players sit down: Cy deals, Ann plays first (S6)." in lines(ok("standings"))
    assert lines(ok("history", "--session", "1"))[-1] == "Session 1: 1 game; game wins Ann 1, Bob 0, Cy 0 (most: Ann)."
    assert ref_json("history", "--session", "1")["session_totals"] == {
        "session": 1, "hands": 1, "points": {"Ann": 1, "Bob": 0, "Cy": 0}, "abandoned": False, "counts": True}
    ok("new-session", "--players", "Ann,Bob,Cy", "--cards", "5")
    ok("score-hand", "--hand", "Ann=KS QD 9C 8C 2D", "--hand", "Bob=2H 3H 4H 4S 4D", "--hand", "Cy=AS AD AC 6H 7H")
    closed_json = ref_json("end-session")
    assert closed_json["game_wins"] == {"Ann": 0, "Bob": 1, "Cy": 0} and closed_json["winners"] == ["Bob"]


def test_no_next_dealer_once_the_game_is_over(record):
    ok("new-session", "--opening", "Bill=1999990")
    assert points(20, 0, 0)["over"]
    st = ref_json("standings")
    assert st["over"] and st["next_dealer"] is None
    assert not [line for line in lines(ok("standings")) if "deals" in line]


def test_a_long_recent_night_line_wraps_under_itself_at_80_columns(record, monkeypatch):
    """Standings at 80 columns: a recent night's line too long for one line goes on indented
    under itself, never back at column 0 where it would read as a new line."""
    from rummyref.cli import common

    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")
    ok("new-session", "--players", "Bartholomew,Benedict,Lawrence")
    ok("score-hand", "--points", "Bartholomew=400", "--points", "Benedict=-345", "--points", "Lawrence=99")
    for console in (common.out, common.err):
        monkeypatch.setattr(console, "_width", 80)
    shown = lines(ok("standings"))
    at = shown.index("Recent nights:")
    assert shown[at + 1:at + 3] == [
        "  night 1 (2026-11-12, 1 hand): winner (night in progress); Bartholomew 400,",
        "    Benedict -345, Lawrence 99"]
