"""Gin Rummy at the command line: a whole game to 100 recorded from the cards, with a knock, a
dead hand, an undercut, gin and big gin, ending in a shutout; exact points at every step."""

from __future__ import annotations

from cli_helpers import ref, ref_json

KNOCK = ["--hand", "Ann=2H 3H 4H 5S 5D 5C 9C 9D 9S AC", "--hand", "Bob=KS QS JS 7C 7D 7H 8H 8D AD 2D"]
UNDERCUT = ["--hand", "Bob=2H 3H 4H 5S 5D 5C 9C 9D 9S 8C", "--hand", "Ann=KS QS JS 10S 7H 7D 7C 2C 3C AC"]
GIN = ["--hand", "Ann=AH 2H 3H 4H 5D 5S 5C KD KS KC", "--hand", "Bob=9C 10C JC 6S 6D 6H 2S 3S 4S 5H"]
BIG_GIN = ["--hand", "Ann=AS 2S 3S 4S 7H 7D 7C 10D JD QD KD", "--hand", "Bob=9C 9D 9H 5C 5D 5H 2C 3H 8S 6H"]


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stderr
    return r


def test_a_whole_game_to_100_ends_in_a_shutout():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    h1 = ref_json("score-hand", *KNOCK, "--knock", "Ann")
    assert (h1["result"], h1["winner"], h1["points"]) == ("knock", "Ann", 18)
    assert h1["deadwood"] == {"Ann": 1, "Bob": 19} and h1["layoffs"] == []
    h2 = ref_json("score-hand", "--dead")
    assert (h2["result"], h2["winner"], h2["points"]) == ("dead", None, 0)
    h3 = ref_json("score-hand", *UNDERCUT, "--knock", "Bob")
    assert (h3["result"], h3["winner"], h3["points"]) == ("undercut", "Ann", 33)  # 25 + (8 - 0)
    h4 = ref_json("score-hand", *GIN, "--gin", "Ann")
    assert (h4["result"], h4["winner"], h4["points"]) == ("gin", "Ann", 30)  # 25 + Bob's 5
    assert h4["totals"] == {"Ann": 81, "Bob": 0} and not h4["over"]
    h5 = ref_json("score-hand", *BIG_GIN, "--big-gin", "Ann")
    assert (h5["result"], h5["winner"], h5["points"]) == ("big-gin", "Ann", 50)  # 31 + Bob's 19
    assert h5["over"] and h5["game_winner"] == "Ann" and h5["shutout"]
    assert h5["boxes"] == {"Ann": 4, "Bob": 0}
    assert h5["final"] == {"Ann": (131 + 4 * 25 + 100) * 2, "Bob": 0}
    st = ok("standings").stdout
    assert "GAME OVER: Ann wins by 662" in st and "shutout" in st
    refused = ref("score-hand", *KNOCK, "--knock", "Ann")
    assert refused.exit_code == 4 and "is over" in refused.stderr


def test_a_void_reopens_the_game_and_an_amend_recounts_it():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    for args in (GIN, BIG_GIN):
        ok("score-hand", *args, "--gin" if args is GIN else "--big-gin", "Ann")
    assert not ref_json("standings")["over"]  # 30 + 50
    ok("score-hand", *UNDERCUT, "--knock", "Bob")
    assert ref_json("standings")["over"]  # 80 + 33
    voided = ref_json("void", "3", "--reason", "misdeal")
    assert not voided["over"] and voided["totals"] == {"Ann": 80, "Bob": 0}
    amended = ref_json("amend", "1", "--reason", "it was a knock", *KNOCK, "--knock", "Ann")
    assert amended["result"] == "knock" and amended["totals"] == {"Ann": 68, "Bob": 0}
    assert ok("verify").exit_code == 0


def test_refusals_name_the_player_and_write_nothing(record):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    before = record.snapshot()
    over = ref("score-hand", "--hand", "Ann=2H 3H 4H 5S 5D 5C 9C 9D KS QH", "--hand",
               "Bob=KD QS JS 7C 7D 7H 8H 8D AD 2D", "--knock", "Ann")
    assert over.exit_code == 4 and "refused (G4): Ann cannot knock: the least deadwood is 38, over the limit of 10" in over.stderr
    not_gin = ref("score-hand", *KNOCK, "--gin", "Ann")
    assert not_gin.exit_code == 4 and "Ann's hand is not gin" in not_gin.stderr
    short = ref("score-hand", "--hand", "Ann=2H 3H 4H", "--hand", "Bob=KS QS JS 7C 7D 7H 8H 8D AD 2D",
                "--knock", "Ann")
    assert short.exit_code == 4 and "Ann's hand has 3 cards" in short.stderr
    twice = ref("score-hand", "--hand", "Ann=2H 3H 4H 5S 5D 5C 9C 9D 9S AC", "--hand",
                "Bob=2H QS JS 7C 7D 7H 8H 8D AD 2D", "--knock", "Ann")
    assert twice.exit_code == 3 and "2H" in twice.stderr
    foreign = ref("score-hand", "--melded", "Ann=2H 3H 4H", "--knock", "Ann")
    assert foreign.exit_code == 3 and "--melded is not for Gin Rummy games" in foreign.stderr
    assert record.snapshot() == before


def test_count_answers_deadwood():
    r = ref_json("count", "--ruleset", "gin", "QS KS AS 2H 3H 4H 9C")
    assert r["count"] == 30  # Q-K-A is no run in Gin (aces low): 10 + 10 + 1 + 9


def test_a_gin_hand_in_ref_night():
    answers = "cards\n" + KNOCK[1].split("=", 1)[1] + "\n" + KNOCK[3].split("=", 1)[1] + "\nknock Ann\n\nend\n"
    r = ref("night", "--ruleset", "gin", "--players", "Ann,Bob", input=answers)
    assert r.exit_code == 0, r.stderr
    said = r.stdout + r.stderr
    assert "Knock: Ann scores 18." in said and "Recorded: hand 1 of gin" in said
    assert "Session 1 of gin is closed: 1 hand; points this session: Ann 18, Bob 0." in said
    assert ref_json("standings")["totals"] == {"Ann": 18, "Bob": 0}
