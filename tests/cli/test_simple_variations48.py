"""Simple Rummy's variations, matches and corrections (audit simple-variations, stop 48):
a correction of an earlier session's game names that session (1), a correction's effect on a
decided match is said before "Record it?" (2) and in ``--json`` (3), a newcomer at ``ref night
--players`` is told to close the open session (5), a new table after a tie game seats the
player S17 names (6), the night's prompts offer only what the table allows (7), and ``ref stats``
head to head fits the terminal (8)."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json, ref_subprocess

ANN_OUT = ("--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--out", "Ann")
BOB_OUT = ("--hand", "Ann=KS QD 9D", "--hand", "Bob=2H 3H 4H 9C", "--out", "Bob")


def flat(text: str) -> str:
    return " ".join(text.split())


def ok(*args: str):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def simple(players: str = "Ann,Bob", *more: str):
    return ok("new-session", "--ruleset", "simple-rummy", "--players", players, "--cards", "3", *more)


def night(*typed: str, args: tuple[str, ...] = ()):
    return ref_subprocess("night", *args, input="\n".join(typed) + "\n")


# -- 1: a correction of an earlier session's game names that session ---------------------------


def session_2_with_wildcards_and_four_sevens():
    simple()
    ok("score-hand", *ANN_OUT)
    ok("end-session")
    ok("new-session", "--players", "Ann,Bob", "--cards", "3", "--wildcards", "3", "--variation", "four-sevens")


def test_a_correction_of_an_earlier_sessions_game_names_its_session_not_this_one():
    session_2_with_wildcards_and_four_sevens()
    r = ref("amend", "1", "--reason", "x", "--hand", "Ann=2H 3H W 9C", "--hand", "Bob=KS QD 9D", "--out", "Ann")
    assert r.exit_code == 3
    said = flat(r.stderr)
    assert "1 WILDCARD in the hands, but game 1 was played in session 1, opened with 0 WILDCARDs (S2)" in said
    assert "this session" not in said and "judged with the table of its session" in said
    r = ref("amend", "1", "--reason", "x", "--hand", "Ann=7H 7S 7D 7C", "--hand", "Bob=KS QD 9D",
            "--four-sevens", "Ann")
    assert r.exit_code == 4
    said = flat(r.stderr)
    assert "refused (V5): Four 7's was not in play in session 1, where game 1 was played" in said
    assert "at this table" not in said and "must be chosen when the session starts" not in said


def test_at_the_night_a_hand_of_an_earlier_session_names_that_session():
    session_2_with_wildcards_and_four_sevens()
    r = night("amend 1", "why", "Ann", "2H 3H W 9C", "drop", "drop", "quit")
    assert "1 WILDCARD given, but game 1 was played in session 1, opened with 0 WILDCARDs" in flat(r.stderr)


# -- 2 and 3: a correction that changes a decided match ----------------------------------------


def ann_won_match_1():
    simple()
    ok("score-hand", *ANN_OUT)
    ok("score-hand", *ANN_OUT)  # Ann wins match 1, 2-0
    ok("score-hand", *BOB_OUT)
    ok("score-hand", *ANN_OUT)


def test_the_night_says_a_decided_match_changes_hands_before_record_it():
    ann_won_match_1()
    r = night("amend 2", "Bob went out", "Ann", "5S 6S 7S", "Bob", "2H 3H 4H 9C", "Ann", "KS QD 9D",
              "ending", "out Bob", "", "quit")
    assert r.returncode == 0, r.stderr
    text = flat(r.stdout)  # the preview, then (once "Record it?" is answered) what was written
    preview = text[text.index("if recorded (before -> after)"):text.index("Recorded: game 2 amended")]
    assert "Match 1 is won by Bob now, not Ann (S17)." in preview


def ann_won_match_1_in_two():
    simple()
    assert ref_json("score-hand", *ANN_OUT)["matches_changed"] == []  # a new game changes none
    ok("score-hand", *ANN_OUT)


def test_the_night_says_a_match_is_no_longer_won_before_a_void_is_recorded():
    ann_won_match_1_in_two()
    r = night("void 2", "misdeal", "drop", "quit")
    text = flat(r.stdout)
    preview = text[text.index("if recorded (before -> after)"):]  # dropped: nothing written after it
    assert "Match 1 is no longer won (S17): Ann no longer wins it; it goes on." in preview
    assert [e["kind"] for e in ref_json("history")["entries"]][-1] == "hand"  # dropped: nothing written


def test_json_of_a_correction_lists_the_matches_it_changed():
    ann_won_match_1_in_two()
    assert ref_json("amend", "1", *ANN_OUT, "--reason", "the same")["matches_changed"] == []
    void = ref_json("void", "2", "--reason", "misdeal")
    assert void["matches_changed"] == [{"number": 1, "was": "Ann", "now": None}]


def test_json_of_an_amend_that_gives_a_match_to_another_player():
    ann_won_match_1()
    amend = ref_json("amend", "2", *BOB_OUT, "--reason", "Bob went out")
    assert amend["matches_changed"] == [{"number": 1, "was": "Ann", "now": "Bob"}]


# -- 5: a newcomer while a session is open ---------------------------------------------------


def test_a_newcomer_at_night_is_told_to_close_the_session_not_to_start_a_game():
    simple("Ann,Bob,Cy")
    r = night("quit", args=("--players", "Ann,Bob,Dee", "--cards", "5"))
    assert r.returncode == 4
    said = flat(r.stderr)
    assert "Dee is not among its players (Ann, Bob, Cy)" in said
    assert "NEW-NAME" not in said
    assert ("close the open one (ref end-session, or end at night>), then ref night --players Ann,Bob,Dee "
            "seats them") in said
    ok("end-session")  # as the hint says: the newcomer sits down in the same game
    r = night("quit", args=("--players", "Ann,Bob,Dee", "--cards", "5"))
    assert r.returncode == 0, r.stderr
    assert "Session 2 of simple-rummy is open" in r.stdout and "Welcome Dee" in r.stdout


# -- 6: a new table after a tie game ----------------------------------------------------------


def test_a_new_table_after_a_tie_seats_first_the_player_s17_names():
    simple("Ann,Bob,Cy")
    ok("score-hand", "--hand", "Ann=KS QD 9D", "--hand", "Bob=2H 3H 4H 9C", "--hand", "Cy=5C 6C 8S", "--out", "Bob")
    ok("score-hand", "--hand", "Ann=KH QC 9H", "--hand", "Bob=2D 3D 5D", "--hand", "Cy=5S 6S 8D", "--tie")
    closed = ref_json("end-session")
    assert closed["match"]["first_player"] == "Bob" and closed["match"]["last_game_winner"] is None
    opened = ref_json("new-session", "--players", "Dee,Ann,Bob,Cy", "--cards", "3")
    assert (opened["first_player"], opened["dealer"]) == ("Bob", "Ann")
    assert opened["how"] == ("Bob plays first again, as in the last game, which nobody won (S17); "
                             "the player to their right, Ann, deals")
    assert opened["match"]["last_game_winner"] is None


# -- 7: the night's prompts -----------------------------------------------------------------


def test_the_ending_question_offers_only_what_the_variations_allow():
    r = night("game", "KS QD 9D", "5C 6C 8S", "2H 3H 4H 9C", "", "four-sevens Ann", "out Ann", "drop", "quit",
              args=("--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3", "--variation", "go-out"))
    said = flat(r.stderr)
    assert "How did the game end? (out NAME/tie):" in said
    assert "blank" not in said and "four-sevens NAME" not in said
    assert "under Go Out (V2) a game ends only when someone goes out" in said  # asked again in place
    assert "Four 7's (V5) is not in play at this table" in said
    assert "Game 1: Ann dealt, Bob played first. If recorded:" in r.stdout + r.stderr


def test_the_ending_question_under_four_sevens_offers_it():
    r = night("game", "KS QD 9D", "5C 6C 8S", "2H 3H 4H 9C", "out Ann", "drop", "quit",
              args=("--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3",
                    "--variation", "four-sevens"))
    assert "How did the game end? (out NAME/four-sevens NAME/tie; blank: stock ran out):" in flat(r.stderr)


def test_a_hand_question_does_not_offer_dash_for_none():
    ann_won_match_1()
    r = night("amend 2", "why", "Ann", "", "drop", "quit")
    said = flat(r.stderr)
    assert "(offered: 2H 3H 4H 9C; Enter keeps it)" in said
    assert "(offered: 2H 3H 4H 9C; Enter keeps it, - for none)" not in said


def test_two_hands_typed_in_each_others_place_can_be_swapped():
    ann_won_match_1()
    r = night("amend 2", "swapped", "Ann", "KS QD 9D", "Bob", "2H 3H 4H 9C", "ending", "out Bob", "", "quit")
    assert r.returncode == 0, r.stderr
    assert "the KS appears twice" in flat(r.stderr)  # judged once every hand is in: then Bob is fixed
    entry = ref_json("history")["entries"][-1]
    assert entry["kind"] == "amend"
    assert entry["facts"]["hands"] == {"Ann": ["KS", "QD", "9D"], "Bob": ["2H", "3H", "4H", "9C"]}


# -- 8: ref stats head to head at 80 columns -------------------------------------------------

TEN = ("Alexandra,Bartholomew,Cornelius,Dorothea,Evangeline,Fitzgerald,Gwendolyn,Hildegard,Isadora,"
       "Jeremiah")


@pytest.fixture
def eighty(monkeypatch):
    import sys

    monkeypatch.setenv("COLUMNS", "80")
    common = sys.modules.get("rummyref.cli.common")
    if common is not None:
        for console in (common.out, common.err):
            monkeypatch.setattr(console, "_width", 80)


def test_head_to_head_of_eleven_players_fits_80_columns(eighty):
    ok("new-session", "--ruleset", "simple-rummy", "--players", TEN, "--wildcards", "3")
    ok("score-hand", "--hand", "Alexandra=AS 2S", "--hand", "Bartholomew=AH 2H", "--hand", "Cornelius=W 3S",
       "--hand", "Dorothea=AD 2D", "--hand", "Evangeline=KS KH", "--hand", "Fitzgerald=QS QH",
       "--hand", "Gwendolyn=JS JH", "--hand", "Hildegard=10S 10H", "--hand", "Isadora=9S 9H",
       "--hand", "Jeremiah=AC 2C")
    ok("end-session")
    ok("new-session", "--players", "Alexandra,Bartholomew,Kassandra", "--cards", "10")
    text = ok("stats").stdout
    assert max(len(line) for line in text.splitlines()) <= 80
    h2h = flat(text[text.index("Head to head"):])
    assert "the columns by number" in h2h and "vs 11" in h2h and "vs Alexandra" not in h2h
    assert "1 Alexandra " in h2h and "11 Kassandra" in h2h


def test_head_to_head_with_short_names_that_fit_keeps_the_names(eighty):
    simple("Ann,Bob")
    ok("score-hand", *ANN_OUT)
    ok("end-session")
    text = ok("stats").stdout
    assert "vs Ann" in text and "the columns by number" not in text
