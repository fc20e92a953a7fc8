"""Where a precedent was made, after voids (stop 46): the hand in progress is the next hand to be
recorded, numbered in the game and in the night exactly as that hand is then recorded (a voided
last hand's number in the night is dealt again; the game's numbers never are), in every kind."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

SIMPLE = ["--hand", "Ann=2H 3H 4H 4S 4D", "--hand", "Bob=5S 6S 7S 2C 3C"]
KINDS = {
    "rummy-2m": (["new-session"], ["--points", "Bill=10", "--points", "Ben=5", "--points", "Larry=1"],
                 ["dispute", "claim", "--called", "Ben", "--touched", "Ben"]),
    "simple-rummy": (["new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob", "--cards", "5"], SIMPLE,
                     ["dispute", "end-night", "--record"]),
    "gin": (["new-session", "--ruleset", "gin", "--players", "Ann,Bob"], ["--dead"],
            ["dispute", "end-night", "--record"]),
}


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r


@pytest.mark.parametrize("voided, night_hand", [(("2", "4"), 4), (("2", "3"), 5), (("4", "3"), 3)],
                         ids=["the last and one before", "two before the last", "the last two"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_precedent_after_voids_is_kept_where_the_next_hand_is_recorded(kind, voided, night_hand):
    opening, hand, dispute = KINDS[kind]
    ok(*opening)
    for _ in range(4):
        ok("score-hand", *hand)
    for number in voided:
        ok("void", number, "--reason", "misdeal")
    ok(*dispute)
    [kept] = ref_json("rulings")["rulings"]
    recorded = ref_json("score-hand", *hand)
    if kind == "simple-rummy":
        at = (recorded["number"], recorded["game_in_session"])
    else:
        at = (recorded["hand"], recorded.get("hand_in_night", recorded.get("hand_in_session")))
    assert (kept["hand"], kept["hand_in_night"]) == at == (5, night_hand)
