"""SPEC §8 for ``ref dispute``: a dispute means the game every command means.

1. With no session open, the game played last decides (its rule set, and its roster for
   ``--players``), found by the same lookup ``ref ruling`` uses; with no record at all,
   Rummy 2,000,000's. ``--game`` naming a game with no session open decides by that game.
2. With several games open, the names the dispute gives pick the game whose roster has them
   (as ``score-hand`` and ``amend`` do), and the ruling is kept there; when they do not tell,
   Rummy 2,000,000's rules answer and nothing is kept, the open games and ``--game`` named.
"""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

SIMPLE_HAND = ("--hand", "Ann=2H 3H 4H 9S 9D 9C 5S", "--hand", "Bob=5C 6C 7C 8C JD QD KD",
               "--hand", "Cy=AS 2S 3S 4S 5D 6D 8H")
NO_B8 = ("error: the claim dispute settles who wins a Rummy! card by Rummy 2,000,000's rules B8 and B11; Simple "
         "Rummy (simple-rummy) has no such rules ask Simple Rummy's own rules with ref ruling --ruleset "
         "simple-rummy \"...\", or settle it by Rummy 2,000,000's rules with --ruleset rummy-2m")


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-27T20:30:00+00:00")


def flat(text: str) -> str:
    return " ".join(text.split())


def ok(*args: str):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def simple_rummy_played(game: str = "friday") -> None:
    ok("new-session", "--game", game, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    ok("score-hand", "--game", game, *SIMPLE_HAND)
    ok("end-session", "--game", game)


# -- 1. nothing open: the game played last ----------------------------------------------------------


def test_with_nothing_open_the_game_played_last_decides(record):
    simple_rummy_played()
    before = record.snapshot()
    result = ok("dispute", "end-night", "--hands", "2")
    assert result.stdout == (
        "Allowed: Simple Rummy has no full-round rule; the session may end after any game.\n"
        "Why:\n"
        "  1.       no rule of Simple Rummy asks for full rounds (that is Rummy 2,000,000's A4): ref\n"
        "           end-session closes the session after any game\n"
    )
    assert result.stderr == "Not recorded (no session is open in any game).\n"
    data = ref_json("dispute", "end-night", "--hands", "2")
    assert (data["ruleset"], data["facts"]["roster"], data["recorded"]) == ("simple-rummy", ["Ann", "Bob", "Cy"], None)
    assert data["not_recorded"] == "no session is open in any game"
    # Simple Rummy has no B8: refused by the game's rules, never answered by Rummy 2,000,000's
    claim = ref("dispute", "claim", "--called", "Ann=Bob", "--touched", "Ann,Bob")
    assert (claim.exit_code, claim.stdout, flat(claim.stderr)) == (5, "", NO_B8)
    designate = ref("dispute", "designate", "AD", "--table", "2D 3D 4D")
    assert designate.exit_code == 5 and "Simple Rummy (simple-rummy) has no such rule" in flat(designate.stderr)
    # --ruleset rummy-2m: that rule set, with the game's roster
    asked = ok("dispute", "claim", "--called", "Ann=Bob", "--touched", "Ann,Bob", "--ruleset", "rummy-2m")
    assert asked.stdout.splitlines()[0] == "Ann wins the Rummy! card."
    assert asked.stderr == "Not recorded (no session is open in any game).\n"
    data = ref_json("dispute", "claim", "--called", "Cy", "--touched", "Cy", "--ruleset", "rummy-2m")
    assert (data["ruleset"], data["facts"]["players"]) == ("rummy-2m", ["Ann", "Bob", "Cy"])
    assert record.snapshot() == before  # nothing open: nothing kept


def test_the_game_played_last_is_the_one_ref_ruling_answers_from():
    ok("new-session", "--game", "house", "--players", "Ann,Bob,Cy")
    ok("end-session", "--game", "house")
    data = ref_json("dispute", "claim", "--called", "Bob", "--touched", "Bob")
    assert (data["ruleset"], data["facts"]["players"], data["verdict"]) == (
        "rummy-2m", ["Ann", "Bob", "Cy"], "Bob wins the Rummy! card.")
    simple_rummy_played()  # now Simple Rummy was played last
    assert ref_json("ruling", "who deals first")["answered_from"]["game"] == "friday"
    assert ref_json("dispute", "end-night", "--hands", "1")["ruleset"] == "simple-rummy"
    assert ref("dispute", "claim", "--called", "Bob", "--touched", "Bob").exit_code == 5
    ok("new-session", "--game", "house")  # the house game again, opened and closed: abandoned, not played
    ok("end-session", "--game", "house")
    assert ref_json("ruling", "who deals first")["answered_from"]["game"] == "friday"
    assert ref("dispute", "claim", "--called", "Bob", "--touched", "Bob").exit_code == 5
    ok("new-session", "--game", "house")  # now a hand of the house game is recorded last
    for _ in range(3):
        ok("score-hand", "--points", "Ann=5", "--points", "Bob=0", "--points", "Cy=3")
    ok("end-session", "--game", "house")
    assert ref_json("ruling", "who deals first")["answered_from"]["game"] == "house"
    assert ref_json("dispute", "claim", "--called", "Bob", "--touched", "Bob")["facts"]["players"] == ["Ann", "Bob", "Cy"]


def test_game_naming_a_game_with_no_session_open_decides_by_that_game():
    simple_rummy_played()
    ok("new-session", "--game", "house")  # a Rummy Night open in another game
    result = ok("dispute", "end-night", "--hands", "2", "--game", "friday")
    assert result.stdout.splitlines()[0] == "Allowed: Simple Rummy has no full-round rule; the session may end after any game."
    assert result.stderr == "Not recorded (no session of friday is open).\n"
    assert ref("dispute", "claim", "--called", "Ann", "--touched", "Ann", "--game", "friday").exit_code == 5
    # the open night is the table's without --game
    data = ref_json("dispute", "end-night", "--hands", "2")
    assert (data["ruleset"], data["facts"]["roster"]) == ("rummy-2m", ["Bill", "Ben", "Larry"])


def test_with_no_record_rummy_2m_decides(record):
    data = ref_json("dispute", "claim", "--called", "Ben", "--touched", "Ben")
    assert (data["ruleset"], data["facts"]["players"]) == ("rummy-2m", ["Bill", "Ben", "Larry"])
    assert ref_json("dispute", "end-night", "--hands", "2")["details"]["still_to_deal"] == ["Larry"]
    assert not record.exists()


# -- 2. several open: the names given ----------------------------------------------------------------


def two_open() -> None:
    """A Rummy Night of the house (Ann, Bob, Cy) and a Simple Rummy session (Dee, Eve, Fay), both open."""
    ok("new-session", "--game", "house", "--players", "Ann,Bob,Cy")
    ok("new-session", "--game", "friday", "--ruleset", "simple-rummy", "--players", "Dee,Eve,Fay")


def test_with_several_open_the_names_given_pick_the_game():
    two_open()
    result = ok("dispute", "claim", "--called", "Ann=Bob", "--touched", "bob, ann")
    assert result.stdout == (
        "Bob wins the Rummy! card.\n"
        "Why:\n"
        "  1. B8    Ann and Bob called at the same moment; Bob touched first, so either Bob completed both\n"
        "           first (B8) or they completed together and the first touch decides (B11)\n"
        "  2. B11   either way the first touch wins: Bob wins the card\n"
    )
    assert result.stderr == "Recorded as a precedent of house: night 1, hand 1 (1st of the night) (entry 3).\n"
    judged = ref_json("dispute", "claim", "--called", "Ann=Bob", "--touched", "Ann=Bob", "--judge-says", "Ann")
    assert judged["recorded"]["game"] == "house" and judged["facts"]["players"] == ["Ann", "Bob", "Cy"]
    # --players names the table (the facts form of end-night too)
    data = ref_json("dispute", "end-night", "--hands", "1", "--players", "Dee,Eve,Fay")
    assert (data["ruleset"], data["outcome"]) == ("simple-rummy", "allowed")
    data = ref_json("dispute", "end-night", "--hands", "1", "--first-dealer", "Bob")
    assert (data["ruleset"], data["facts"]["roster"], data["details"]["still_to_deal"]) == (
        "rummy-2m", ["Ann", "Bob", "Cy"], ["Cy", "Ann"])
    # the Simple Rummy table's names: its rule set, which has no B8
    claim = ref("dispute", "claim", "--called", "Dee", "--touched", "Dee")
    assert claim.exit_code == 5 and "Simple Rummy (simple-rummy) has no such rules" in flat(claim.stderr)


def test_with_several_open_and_nothing_to_tell_them_apart(record):
    two_open()
    before = record.snapshot()
    # SPEC §8: still ambiguous, so refused as every command refuses it, never decided by the
    # default rules (exit 3, nothing written)
    result = ref("dispute", "discard", "--discarded", "KS")
    assert (result.exit_code, result.stdout) == (3, "")
    assert flat(result.stderr) == ("error: 2 games have a session open (house, friday): which one? name it "
                                   "with --game, e.g. --game 'friday'")
    # names of both tables: still ambiguous
    mixed = ref("dispute", "claim", "--called", "Ann,Dee", "--touched", "Ann")
    assert mixed.exit_code == 3 and flat(mixed.stderr) == (
        "error: 2 games have a session open (house, friday): which one? name it with --game, e.g. --game 'friday'")
    which = ref("dispute", "end-night")
    assert which.exit_code == 3 and which.stdout == ""
    assert flat(which.stderr) == (
        "error: 2 games have a session open (house, friday): which one? name it with --game, e.g. --game "
        "'friday'; or give the facts instead: ref dispute end-night --hands N [--players A,B,C]")
    assert record.snapshot() == before


def test_an_unknown_game_or_open_games_the_names_do_not_tell_apart_are_refused_not_answered():
    """Audit O item 5: the guide said these were answered from the facts (``Not recorded``)."""
    ok("new-session", "--game", "a", "--players", "Ann,Bob")
    ok("new-session", "--game", "b", "--players", "Cy,Di")
    unknown = ref("dispute", "end-night", "--hands", "3", "--game", "zz")
    assert unknown.exit_code == 5 and unknown.stdout == ""
    assert flat(unknown.stderr).startswith("error: no game named 'zz'") and "Not recorded" not in unknown.stderr
    several = ref("dispute", "end-night", "--hands", "3")
    assert several.exit_code == 3 and several.stdout == "" and "--game" in several.stderr
    assert ref("dispute", "end-night", "--hands", "2", "--players", "Ann,Bob").exit_code == 0
