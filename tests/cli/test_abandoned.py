"""SPEC §8: a night opened by mistake, with no hand counted, closes as abandoned and does not
count as a Rummy Night; a voided hand is not a dealt hand."""

from __future__ import annotations

from cli_helpers import ref, ref_json


def test_a_night_with_no_hand_closes_as_abandoned_and_does_not_count():
    assert ref("new-session").exit_code == 0
    closed = ref_json("end-session")
    assert closed["abandoned"] and closed["hands"] == 0 and closed["seal"]
    shown = ref("end-session").stderr  # nothing open any more
    assert "no Rummy Night of rummy-2m is open" in shown
    assert ref_json("standings")["nights"] == 0
    assert ref("new-session").exit_code == 0
    text = ref("end-session").stdout
    assert "closed as abandoned and does not count as a Rummy Night" in text
    assert ref_json("verify")["ok"]


def test_a_night_whose_only_hand_was_voided_can_end():
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", "--points", "Bill=5", "--points", "Ben=0", "--points", "Larry=0").exit_code == 0
    assert ref("end-session").exit_code == 4  # mid-round (A4)
    assert ref("void", "1", "--reason", "dealt by mistake").exit_code == 0
    closed = ref_json("end-session")
    assert closed["abandoned"] and closed["hands"] == 0
    assert ref_json("standings")["nights"] == 0
    assert ref_json("verify")["ok"]
