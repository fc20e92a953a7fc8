"""Stop 38's audit of sessions: end-night's precedent after a void keeps the facts it rests on,
and deals owed twice are said with their counts and the round they complete."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-27T20:30:00+00:00")
    monkeypatch.setenv("COLUMNS", "80")


def ok(*args: str):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def flat(text: str) -> str:
    return " ".join(text.split())


def hand(a: int, b: int, c: int):
    return ok("score-hand", "--points", f"Ann={a}", "--points", f"Bob={b}", "--points", f"Cy={c}")


def test_end_night_after_a_void_keeps_the_hands_in_force_and_the_deals_owed(record):
    ok("new-session", "--players", "Ann,Bob,Cy")
    hand(1, 1, 1), hand(2, 2, 2), hand(3, 3, 3)
    ok("void", "2", "--reason", "misdeal")
    asked = ref_json("dispute", "end-night", "--record")
    assert asked["verdict"] == "Refused (A4): the round is not over; still to deal: Bob."
    assert asked["facts"] == {"roster": ["Ann", "Bob", "Cy"], "hands_in_session": 2, "game_over": False,
                              "first_dealer": "Ann", "ruleset": "rummy-2m", "dealt": {"Ann": 1, "Bob": 0, "Cy": 1},
                              "owed": ["Bob"]}
    # three hands dealt and no void are other facts: no precedent of them, nothing ruled differently
    other = ref_json("dispute", "end-night", "--hands", "3", "--players", "Ann,Bob,Cy", "--record")
    assert other["verdict"] == "Allowed: 1 full round played." and other["precedents"] == []
    again = ref_json("dispute", "end-night", "--record")
    assert [p["verdict"] for p in again["precedents"]] == [asked["verdict"]]
    listed = flat(ok("rulings").stdout)
    assert "facts: 2 hands in force tonight, deal order Ann, Bob, Cy; voided, dealt again: Bob" in listed
    assert "facts: 3 hands tonight, deal order Ann, Bob, Cy" in listed


def test_deals_owed_twice_are_counted_and_the_round_they_complete_named(record):
    ok("new-session", "--players", "Ann,Bob,Cy", "--opening", "Ann=1999900", "--opening", "Bob=1999900",
       "--opening", "Cy=1999900")
    for points in ((-50, 0, 0), (40, 30, 0), (0, 60, 0), (100, 5, 0), (20, 0, 0)):
        hand(*points)
    ok("void", "3", "--reason", "middle")
    assert ok("void", "5", "--reason", "last").stdout.splitlines()[-1] == "Next: Bob deals (round 2)."
    refused = ref("end-session")
    assert refused.exit_code == 4
    assert flat(refused.stderr).startswith(
        "refused (A4): the night cannot end in the middle of a round: Bob (1 hand) and Cy (2 hands) still have "
        "to deal (round 2)")
    asked = ref_json("dispute", "end-night")
    assert asked["verdict"] == "Refused (A4): the round is not over; still to deal: Bob (1 hand) and Cy (2 hands)."
    assert asked["details"]["still_to_deal"] == ["Bob", "Cy", "Cy"]


def test_one_deal_each_still_reads_as_before(record):
    ok("new-session", "--players", "Ann,Bob,Cy")
    hand(1, 1, 1)
    assert ok("standings").exit_code == 0
    refused = ref("end-session")
    assert flat(refused.stderr).startswith(
        "refused (A4): the night cannot end in the middle of a round: Bob and Cy still have to deal (hand 2 of 3 "
        "in round 1)")


def test_who_still_has_to_deal_reads_alike_in_end_session_and_the_dispute(record):
    """Audit 43: ``ref end-session`` said "Bob, Cy still have to deal" and the dispute's chain
    "Bob and Cy still have to deal": names are joined with "and" in both. The dispute's verdict
    lists them after "still to deal:" as it always has (a precedent compares verdicts word for
    word: an end-night kept by an earlier release must not read as ruled differently)."""
    ok("new-session", "--players", "Ann,Bob,Cy")
    hand(1, 1, 1)
    refused = ref("end-session")
    assert refused.exit_code == 4
    assert flat(refused.stderr).startswith(
        "refused (A4): the night cannot end in the middle of a round: Bob and Cy still have to deal")
    asked = ref_json("dispute", "end-night")
    assert [s["decided"] for s in asked["chain"]][-1] == "the round is not finished: Bob and Cy still have to deal"
    assert asked["verdict"] == "Refused (A4): the round is not over; still to deal: Bob and Cy."
    ok("void", "1", "--reason", "misdeal")
    hand(1, 1, 1), hand(2, 2, 2)
    ok("void", "2", "--reason", "misdeal")  # Ann's hand dealt again: she deals it once more (SPEC §8)
    assert flat(ref("end-session").stderr).startswith(
        "refused (A4): the night cannot end in the middle of a round: Ann and Cy still have to deal")
    asked = ref_json("dispute", "end-night")
    assert [s["decided"] for s in asked["chain"]][-1] == "the round is not finished: Ann and Cy still have to deal"
    assert asked["verdict"] == "Refused (A4): the round is not over; still to deal: Ann and Cy."
