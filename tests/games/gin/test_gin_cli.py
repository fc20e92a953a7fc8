"""Gin Rummy at the command line: a whole game to 100 recorded from the cards, with a knock, a
dead hand, an undercut, gin and big gin, ending in a shutout; exact points at every step."""

from __future__ import annotations

from pathlib import Path

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


BIG = ["--hand", "Ann=AS 2S 3S 4H 5H 6H 7C 8C 9C 10C", "--hand", "Bob=KS QH JD 10S 9H 8D KD QC JH 9S"]


def test_a_correction_that_would_end_the_game_before_later_hands_is_refused(record):
    """G10 after a correction, as A7 (SPEC §8): gin with Bob's 96 of deadwood (121) in hand 1
    would end the game there, with hands 2 and 3 in force after it: refused, nothing written,
    until they are voided (the last first)."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    for _ in range(3):
        ok("score-hand", "--dead")
    before = record.snapshot()
    r = ref("amend", "1", *BIG, "--gin", "Ann", "--reason", "it was gin")
    assert r.exit_code == 4 and r.stdout == ""
    assert " ".join(r.stderr.split()) == (
        "refused (G10): amending hand 1 would end the game at the end of hand 1 (Ann reaches 121, the target is "
        "100), but hands 2 and 3 are in force after it: no hand can be recorded into a finished game "
        "void hands 2 and 3 first (ref void 3, ref void 2), then amend hand 1")
    assert record.snapshot() == before
    ok("void", "3", "--reason", "not played")
    assert ref("amend", "1", *BIG, "--gin", "Ann", "--reason", "it was gin").exit_code == 4
    ok("void", "2", "--reason", "not played")
    amended = ref_json("amend", "1", *BIG, "--gin", "Ann", "--reason", "it was gin")
    assert amended["over"] and amended["game_winner"] == "Ann"
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
    # Gin keeps no deal order: a dealer was accepted and dropped, even one not at the table (audit, stop 34)
    for dealer in ("Zed", "Ann"):
        dealt = ref("score-hand", *KNOCK, "--dealer", dealer)
        assert dealt.exit_code == 3 and f"--dealer {dealer}: not for Gin Rummy" in dealt.stderr
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


#: Ann knocks with 9; Bob has 9 after his own melds: an undercut, Bob scores 25 (G8)
ANN_UNDERCUT = ["--hand", "Ann=2S 3S 4S 5D 6D 7D 8C 9C 10C 9H", "--hand", "Bob=AH 2H 3H 4H KS KH KD KC 4C 5C",
                "--knock", "Ann"]


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_upcard_without_oklahoma_is_refused_and_writes_nothing(record):
    """G13 applies only with the oklahoma variation; without it the knock limit is G4's 10."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    before = record.snapshot()
    r = ref("score-hand", *ANN_UNDERCUT, "--upcard", "5S")
    assert r.exit_code == 4 and r.stdout == ""
    assert " ".join(r.stderr.split()) == (
        "refused (G13): --upcard is for Oklahoma, which game gin does not play: its knock limit is 10 (G4) "
        "leave out --upcard; Oklahoma is chosen when a game is created "
        "(ref new-session --ruleset gin --variation oklahoma --game NEW-NAME)")
    assert ref("score-hand", *ANN_UNDERCUT[:4], "--knock", "Ann", "--upcard", "5X").exit_code == 3  # read first
    assert record.snapshot() == before
    assert ref_json("score-hand", *ANN_UNDERCUT)["knock_limit"] == 10


def test_oklahoma_without_the_upcard_says_to_give_it(record):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob", "--variation", "oklahoma")
    before = record.snapshot()
    r = ref("score-hand", *ANN_UNDERCUT)
    assert r.exit_code == 3
    assert " ".join(r.stderr.split()) == (
        "error: facts missing (the first upcard), and there is no terminal to ask "
        "give --upcard CARD (Oklahoma: the first upcard sets the knock limit, G13), "
        "or run the command at a terminal to be asked")
    r = ref("score-hand", "--hand", "Ann=2S 3S 4S 5D 6D 7D 8C 9C 10C 9H")
    assert r.exit_code == 3
    assert " ".join(r.stderr.split()) == (
        "error: facts missing (Bob's cards, how the hand ended and the first upcard), and there is no terminal "
        "to ask give --hand \"NAME=CARDS\" for Bob, --knock NAME (or --gin, --big-gin, --dead) and --upcard CARD "
        "(Oklahoma: the first upcard sets the knock limit, G13), or run the command at a terminal to be asked")
    assert record.snapshot() == before
    over = ref("score-hand", *ANN_UNDERCUT, "--upcard", "5S")
    assert over.exit_code == 4 and "refused (G13): Ann cannot knock: the least deadwood is 9, over the limit of 5" \
        in " ".join(over.stderr.split())
    assert ref_json("score-hand", *ANN_UNDERCUT, "--upcard", "10S")["knock_limit"] == 10


def test_history_names_who_scored_and_a_void_is_no_dead_hand():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *ANN_UNDERCUT)
    ok("void", "1", "--reason", "misdeal")
    ok("score-hand", *KNOCK, "--knock", "Ann")
    ok("score-hand", "--dead")
    ok("score-hand", *GIN, "--gin", "Ann")
    assert lines(ok("history").stdout) == [
        "History of gin (gin); players: Ann, Bob",
        "entry 3: hand 1, session 1 hand 1 (voided)",
        "    Ann: 2S 3S 4S 5D 6D 7D 8C 9C 10C 9H",
        "    Bob: AH 2H 3H 4H KS KH KD KC 4C 5C",
        "    Ann knocked; undercut: Bob scores 25",
        "entry 4: hand 1, session 1 hand 1 VOIDS entry 3",
        "    reason: misdeal",
        "entry 5: hand 2, session 1 hand 1",
        "    Ann: 2H 3H 4H 5S 5D 5C 9C 9D 9S AC",
        "    Bob: KS QS JS 7C 7D 7H 8H 8D AD 2D",
        "    knock by Ann: Ann scores 18",
        "entry 6: hand 3, session 1 hand 2",
        "    Ann: -",
        "    Bob: -",
        "    dead hand: nobody scores (G9)",
        "entry 7: hand 4, session 1 hand 3",
        "    Ann: AH 2H 3H 4H 5D 5S 5C KD KS KC",
        "    Bob: 9C 10C JC 6S 6D 6H 2S 3S 4S 5H",
        "    gin by Ann: Ann scores 30",
    ]
    missing = ref("void", "9", "--reason", "x")
    assert missing.exit_code == 5
    assert lines(missing.stderr) == ["error: game gin has no hand 9", "hands are numbered 1 to 4"]


# -- audit gin2 -------------------------------------------------------------------------------------

#: Ann knocks with AH (1); the engine lays 5H 6H 7H / 2S 2D 2C / KS KD KC, and Bob lays off 4H 8H 9H
ANN_KNOCKS = ["--hand", "Ann=5H 6H 7H 2S 2D 2C KC KD KS AH", "--hand", "Bob=8H 9H 4H 3S 4S 5S QC QD 7C 7D",
              "--knock", "Ann"]
ANN_MELDS = "Ann=5H 6H 7H / 2S 2D 2C / KC KD KS"


def said(r) -> str:
    """stderr as one line (a long message wraps at 80 columns)."""
    return " ".join(r.stderr.split())


def test_melds_given_twice_are_refused_never_the_last_one_kept(record):
    """Item 1: ``--melds "Ann=5H 6H 7H" --melds "Ann=..."`` kept the last; the first one would have
    been refused (37 deadwood). Like ``--hand`` twice: exit 3, nothing written."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    before = record.snapshot()
    for first, second in ((ANN_MELDS, ANN_MELDS), ("Ann=5H 6H 7H", ANN_MELDS), (ANN_MELDS, "ann=5H 6H 7H")):
        r = ref("score-hand", *ANN_KNOCKS, "--melds", first, "--melds", second)
        assert (r.exit_code, r.stdout) == (3, ""), r.stderr
        assert lines(r.stderr) == ["error: --melds was given twice for Ann",  # "ann" is Ann
                                   "one --melds per player, '/' between melds: \"Ann=7C 8C 9C / KS KH KD\""]
    hand = ref("score-hand", *ANN_KNOCKS[:2], "--hand", "Ann=5H 6H 7H 2S 2D 2C KC KD KS AH", *ANN_KNOCKS[2:])
    assert (hand.exit_code, lines(hand.stderr)) == (3, ["error: --hand was given twice for Ann", "one --hand per player"])
    # the other player's melds as well: only the player who went out laid any down (one was dropped)
    r = ref("score-hand", *ANN_KNOCKS, "--melds", "Bob=3S 4S 5S", "--melds", ANN_MELDS)
    assert (r.exit_code, said(r)) == (3, "error: --melds was given for Bob and for Ann: only the player who went "
                                         "out laid melds down give --melds once, for the player who went out")
    # a dead hand has no melds laid down (G9): it said "the melds None laid down"
    r = ref("score-hand", "--dead", "--melds", "Ann=5H 6H 7H")
    assert (r.exit_code, lines(r.stderr)) == (3, [
        "error: --melds for Ann, but in a dead hand nobody laid melds down (G9)",
        "leave out --melds for a dead hand"])
    assert record.snapshot() == before
    # once is fine, and scored as stated
    h = ref_json("score-hand", *ANN_KNOCKS, "--melds", ANN_MELDS)
    assert (h["result"], h["winner"], h["points"], h["layoffs"]) == ("knock", "Ann", 33, ["4H", "8H", "9H"])
    # amend reads the same options the same way
    before = record.snapshot()
    r = ref("amend", "1", "--reason", "melds", *ANN_KNOCKS, "--melds", ANN_MELDS, "--melds", ANN_MELDS)
    assert (r.exit_code, lines(r.stderr)[0]) == (3, "error: --melds was given twice for Ann")
    assert record.snapshot() == before


def test_oklahoma_a_dead_hand_needs_no_upcard(record):
    """Item 2: a dead hand sets no knock limit (G9, G13): ``--dead`` alone is recorded; an upcard
    given with it is still read and checked; every other ending still needs it."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob", "--variation", "oklahoma")
    h = ref_json("score-hand", "--dead")
    assert (h["result"], h["winner"], h["points"], h["knock_limit"]) == ("dead", None, 0, None)
    assert lines(ok("score-hand", "--dead").stdout) == [
        "Hand 2 of gin (session 1, entry 4)",
        "Dead hand: nobody scores (G9).",
        "player  total  to go  boxes",
        "Ann         0    100      0",
        "Bob         0    100      0",
    ]
    assert ref_json("score-hand", "--dead", "--upcard", "7H")["knock_limit"] == 7
    before = record.snapshot()
    wild = ref("score-hand", "--dead", "--upcard", "W")
    assert (wild.exit_code, lines(wild.stderr)) == (3, ["error: the first upcard cannot be a WILDCARD",
                                                        "give a card such as 7H"])
    bad = ref("score-hand", "--dead", "--upcard", "5X")
    assert (bad.exit_code, lines(bad.stderr)[0]) == (3, "error: unreadable card '5X' in --upcard (card 1, column 1)")
    knock = ref("score-hand", *ANN_KNOCKS)
    assert (knock.exit_code, said(knock)) == (3, (
        "error: facts missing (the first upcard), and there is no terminal to ask "
        "give --upcard CARD (Oklahoma: the first upcard sets the knock limit, G13), "
        "or run the command at a terminal to be asked"))
    # a correction to a knock needs the upcard too; to a dead hand, not
    assert ref("amend", "1", "--reason", "x", *ANN_KNOCKS).exit_code == 3
    assert record.snapshot() == before
    amended = ref_json("amend", "1", "--reason", "it was a knock", *ANN_KNOCKS, "--upcard", "KH")
    assert (amended["result"], amended["points"], amended["knock_limit"]) == ("knock", 33, 10)
    assert ref_json("amend", "1", "--reason", "it was dead after all", "--dead")["result"] == "dead"
    assert ok("verify").exit_code == 0


def test_without_oklahoma_an_upcard_is_refused_even_for_a_dead_hand(record):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    before = record.snapshot()
    r = ref("score-hand", "--dead", "--upcard", "7H")
    assert (r.exit_code, said(r).split(":")[0]) == (4, "refused (G13)")
    assert record.snapshot() == before
    assert ref_json("score-hand", "--dead")["knock_limit"] == 10  # G4


def test_oklahoma_a_dead_hand_in_ref_night_is_not_asked_the_upcard():
    """At the prompts: hand 1 is dead (no upcard question); hand 2 is a knock (asked, 10S)."""
    answers = ("cards\n\n\ndead\n\n"
               "cards\n" + ANN_UNDERCUT[1].split("=", 1)[1] + "\n" + ANN_UNDERCUT[3].split("=", 1)[1]
               + "\nknock Ann\n10S\n\nend\n")
    r = ref("night", "--ruleset", "gin", "--players", "Ann,Bob", "--variation", "oklahoma", input=answers)
    assert r.exit_code == 0, r.stderr
    shown = r.stdout + r.stderr
    assert shown.count("The first upcard (Oklahoma: it sets the knock limit):") == 1
    assert "Dead hand: nobody scores (G9)." in shown and "Undercut: Bob scores 25." in shown
    assert "Session 1 of gin is closed: 2 hands; points this session: Ann 0, Bob 25." in shown


def test_a_name_not_at_the_table_is_unreadable_input_with_a_did_you_mean(record):
    """Audit B item 4: ``--knock Cy`` was exit 4 ("Cy is not a player of gin") citing no rule.
    Gin's roster is not closed, so no rule is broken: like Simple Rummy, a name not at the table is
    unreadable input (exit 3), naming what it was given for, with a "did you mean" when one is near."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    before = record.snapshot()
    hands = ANN_KNOCKS[:4]
    cases = [
        ([*hands, "--knock", "Cy"], "'Cy' (knocker)", "players at this table: Ann, Bob"),
        ([*hands, "--gin", "Cy"], "'Cy' (player going gin)", "players at this table: Ann, Bob"),
        ([*hands, "--big-gin", "Cy"], "'Cy' (player going big gin)", "players at this table: Ann, Bob"),
        ([*hands, "--knock", "Anne"], "'Anne' (knocker)", "did you mean Ann? players at this table: Ann, Bob"),
        (["--hand", "Cy=5H 6H 7H 2S 2D 2C KC KD KS AH", *hands[2:], "--knock", "Ann"], "'Cy' (hand)",
         "players at this table: Ann, Bob"),
        (["--hand", "Bbo=5H 6H 7H 2S 2D 2C KC KD KS AH", *hands[2:], "--knock", "Ann"], "'Bbo' (hand)",
         "did you mean Bob? players at this table: Ann, Bob"),
        ([*ANN_KNOCKS, "--melds", "Cy=5H 6H 7H"], "'Cy' (melds)", "players at this table: Ann, Bob"),
    ]
    for args, who, hint in cases:
        r = ref("score-hand", *args)
        assert (r.exit_code, r.stdout, lines(r.stderr)) == (3, "", [f"error: {who} is not at this table", hint])
    assert record.snapshot() == before
    # at the prompts the same name is asked again, and a name at the table is taken
    answers = "cards\n" + "\n".join(a.split("=", 1)[1] for a in hands[1::2]) + "\nknock Cy\nknock ann\n\nend\n"
    night = ref("night", input=answers)
    assert night.exit_code == 0, night.stderr
    assert "'Cy' (knocker) is not at this table" in night.stdout + night.stderr
    assert "Knock: Ann scores 33." in night.stdout
    # a correction reads the names the same way
    before = record.snapshot()
    amend = ref("amend", "1", "--reason", "x", *hands, "--knock", "Cy")
    assert (amend.exit_code, lines(amend.stderr)) == (3, ["error: 'Cy' (knocker) is not at this table",
                                                          "players at this table: Ann, Bob"])
    assert record.snapshot() == before


THREE_NINES = ["--hand", "Ann=7C 8C 9C 7D 8D 9D 7H 8H 9H KS", "--hand", "Bob=6C 10D JH QS 2S 4S 6S 8S 3D 5D"]


def test_melds_stated_refusals_say_what_was_stated_and_what_would_do(record):
    """Audit B item 6: too few melds stated said "the least deadwood is 34" (the hand's least is
    10; 34 is what the stated melds leave); --melds for the defender had no hint line."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    before = record.snapshot()
    r = ref("score-hand", *THREE_NINES, "--knock", "Ann", "--melds", "Ann=7C 8C 9C / 7D 8D 9D")
    assert (r.exit_code, r.stdout, said(r)) == (4, "", (
        "refused (G4): Ann cannot knock: the deadwood of the stated melds is 34, over the limit of 10 "
        "(the hand's least deadwood is 10) stated: 7C 8C 9C / 7D 8D 9D; deadwood KS 7H 8H 9H (34)"))
    for ending in ("--knock", "--gin"):
        r = ref("score-hand", *THREE_NINES, ending, "Ann", "--melds", "Bob=7C 8C 9C / 7D 8D 9D / 7H 8H 9H")
        assert (r.exit_code, r.stdout, said(r)) == (3, "", (
            "error: --melds are the melds Ann laid down when going out, not Bob's "
            "give Ann's melds, '/' between them (--melds \"Ann=7C 8C 9C / KS KH KD\"), "
            "or leave out --melds and ref lays down Ann's best melds (G14)"))
    assert record.snapshot() == before
    h = ref_json("score-hand", *THREE_NINES, "--knock", "Ann", "--melds", "Ann=7C 8C 9C / 7D 8D 9D / 7H 8H 9H")
    assert (h["result"], h["points"], h["deadwood"]) == ("knock", 38, {"Ann": 10, "Bob": 48})


def test_a_house_undercut_bonus_of_0_records_the_even_knock_with_its_box(tmp_path):
    """A house copy of gin.toml with ``undercut_bonus = 0``: Ann knocks with 5, Bob holds 5 too,
    an undercut worth 0; Bob wins the hand and its box (G8, G11). It was exit 3 with a repr."""
    text = (Path(__file__).parents[3] / "data" / "rulesets" / "gin.toml").read_text(encoding="utf-8")
    house = tmp_path / "housegin.toml"
    house.write_text(text.replace("undercut_bonus = 25", "undercut_bonus = 0", 1)
                     .replace('name = "gin"', 'name = "housegin"', 1), encoding="utf-8")
    ok("new-session", "--ruleset", str(house), "--players", "Ann,Bob")
    h = ref_json("score-hand", "--hand", "Ann=2S 3S 4S 5D 6D 7D 8C 9C 10C 5H",
                 "--hand", "Bob=AH 2H 3H KS KH KD QC QD QH 5C", "--knock", "Ann")
    assert (h["result"], h["winner"], h["points"]) == ("undercut", "Bob", 0)
    assert h["boxes"] == {"Ann": 0, "Bob": 1} and h["totals"] == {"Ann": 0, "Bob": 0}
    assert ref("verify").exit_code == 0
