"""Simple Rummy across sessions (audit of session structure, findings 2, 3 and 5): who plays first
at a new table after a session with no game, after a correction of the last game while a new
table waits for its first game, and what ``end-session`` says of a session with no game."""

from __future__ import annotations

from cli_helpers import ref, ref_json

# Bob goes out in game 1 (three cards dealt): Bob wins
BOB_OUT = ("--hand", "Ann=2S 3S 9H", "--hand", "Bob=AH 2H 3H 6C", "--hand", "Cy=4C 5C KD", "--out", "Bob")
# Ann goes out in game 1
ANN_OUT = ("--hand", "Ann=2S 3S 4S 9H", "--hand", "Bob=AH AD 2C", "--hand", "Cy=4C 5C KD", "--out", "Ann")
# ... and as amended: Ann held a 9S, not out, and Bob has the lowest count, 4
ANN_NOT_OUT = ("--hand", "Ann=2S 3S 9S", "--hand", "Bob=AH AD 2C", "--hand", "Cy=4C 5C KD")


def ok(*args: str):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def said(*args: str) -> str:
    return " ".join(ok(*args).stdout.split())


def simple(players: str = "Ann,Bob,Cy"):
    return ok("new-session", "--ruleset", "simple-rummy", "--players", players, "--cards", "3")


def bob_won_then_an_empty_session_with_dee():
    simple()
    ok("score-hand", *BOB_OUT)
    ok("end-session")
    opened = ref_json("new-session", "--players", "Ann,Bob,Cy,Dee", "--cards", "3")
    assert (opened["first_player"], opened["dealer"]) == ("Bob", "Ann")
    # the new table is no game: the last game's winner is still Bob (S17)
    assert opened["match"]["last_game_winner"] == "Bob"
    ok("end-session")


# -- finding 2: an empty session between is no game -----------------------------------------


def test_a_new_table_after_an_empty_session_seats_the_last_winner_first():
    bob_won_then_an_empty_session_with_dee()
    opened = ref_json("new-session", "--players", "Cy,Ann,Bob,Eve", "--cards", "3")
    assert opened["new_match"] is True
    assert (opened["first_player"], opened["dealer"]) == ("Bob", "Ann")  # Ann sits on Bob's right (S6)
    assert opened["how"] == ("Bob plays first, as the winner of the last game (S17); "
                             "the player to their right, Ann, deals")
    assert opened["match"]["last_game_winner"] == "Bob" and opened["match"]["first_player"] == "Bob"
    st = ref_json("standings")
    assert (st["match"]["first_player"], st["match"]["last_game_winner"], st["next_dealer"]) == ("Bob", "Bob", "Ann")
    assert "The record is intact" in said("verify")


def test_the_same_players_after_an_abandoned_session_go_on_with_their_match():
    """The audit's reproduction: an abandoned session does not count (SPEC §8), so the table it
    seated never changed the match: Cy, Ann and Bob go on with match 1, Bob playing first."""
    bob_won_then_an_empty_session_with_dee()
    opened = ref_json("new-session", "--players", "Cy,Ann,Bob", "--cards", "3")
    assert (opened["first_player"], opened["dealer"], opened["new_match"]) == ("Bob", "Ann", False)
    assert opened["how"] == "Bob plays first as the match goes on (S17); the player to their right, Ann, deals"
    m = opened["match"]
    assert (m["number"], m["game_wins"], m["last_game_winner"]) == (1, {"Cy": 0, "Ann": 0, "Bob": 1}, "Bob")
    # Bob's second game win takes match 1, in the standings and in ref stats alike
    ok("score-hand", "--hand", "Cy=4C 5C KD", "--hand", "Ann=2S 3S 9H", "--hand", "Bob=AH 2H 3H 6C", "--out", "Bob")
    st = ref_json("standings")
    assert st["match"]["finished"][0]["winner"] == "Bob" and st["match"]["abandoned"] == []
    won = {p["name"]: p["matches_won"] for p in st["players"]}
    assert won == {p["name"]: p["matches_won"] for p in ref_json("stats")["players"]} == {
        "Ann": 0, "Bob": 1, "Cy": 0, "Dee": 0}
    assert "The record is intact" in said("verify")


# -- finding 3: a correction while a new table waits for its first game ---------------------


def ann_won_then_a_new_table():
    simple()
    ok("score-hand", *ANN_OUT)
    ok("end-session")
    opened = ref_json("new-session", "--players", "Ann,Bob,Cy,Dee", "--cards", "3")
    assert (opened["first_player"], opened["dealer"]) == ("Ann", "Dee")


def test_an_amend_of_the_last_game_moves_the_first_player_at_a_new_table():
    ann_won_then_a_new_table()
    out = said("amend", "1", "--reason", "Ann had a 9S, not out", *ANN_NOT_OUT)
    assert "Winner: Bob." in out
    assert out.endswith("Next game: Ann deals, Bob plays first (S6).")
    st = ref_json("standings")
    assert (st["match"]["first_player"], st["match"]["last_game_winner"]) == ("Bob", "Bob")
    assert (st["next_first_player"], st["next_dealer"]) == ("Bob", "Ann")
    assert "Next game: Ann deals, Bob plays first (S6)." in said("standings")
    # the game is dealt as the standings say: Dee's deal is now refused, Ann's taken
    refused = ref("score-hand", "--dealer", "Dee", *ANN_NOT_OUT, "--hand", "Dee=KS KH 5D")
    assert refused.exit_code == 4 and "this game is Ann's deal: Bob plays first" in " ".join(refused.stderr.split())
    game = ref_json("score-hand", "--dealer", "Ann", *ANN_NOT_OUT, "--hand", "Dee=KS KH 5D")
    assert (game["first_player"], game["dealer"]) == ("Bob", "Ann")
    assert "The record is intact" in said("verify")


def test_a_void_of_the_last_game_moves_the_first_player_at_a_new_table():
    simple()
    ok("score-hand", *BOB_OUT)  # game 1: Bob
    ok("score-hand", *ANN_OUT)  # game 2: Ann
    ok("end-session")
    opened = ref_json("new-session", "--players", "Ann,Bob,Cy,Dee", "--cards", "3")
    assert (opened["first_player"], opened["dealer"]) == ("Ann", "Dee")
    voided = ref_json("void", "2", "--reason", "misdeal")
    assert (voided["match"]["first_player"], voided["match"]["last_game_winner"]) == ("Bob", "Bob")
    assert voided["next_dealer"] == "Ann"
    st = ref_json("standings")
    assert (st["match"]["first_player"], st["match"]["last_game_winner"], st["next_dealer"]) == ("Bob", "Bob", "Ann")
    # and with no game left at all, the player listed first deals again (Ann; Bob on her left plays first)
    voided = ref_json("void", "1", "--reason", "misdeal too")
    assert (voided["match"]["first_player"], voided["match"]["last_game_winner"], voided["next_dealer"]) == (
        "Bob", None, "Ann")
    assert "The record is intact" in said("verify")


def test_a_void_of_the_only_game_of_a_closed_session():
    """The session then counts as none (SPEC §8): the match is as before its first game (a void
    of it once crashed: no session counted, so no match state)."""
    simple()
    ok("score-hand", *BOB_OUT)
    ok("end-session")
    voided = ref_json("void", "1", "--reason", "misdeal")
    assert (voided["match"]["first_player"], voided["match"]["last_game_winner"], voided["next_dealer"]) == (
        "Bob", None, None)
    assert ok("standings").stdout.splitlines()[0] == "simple-rummy (simple-rummy): 0 games over 0 sessions"
    assert "The record is intact" in said("verify")


def test_a_correction_after_the_new_tables_first_game_leaves_who_played_first():
    """Who played first in a game already played is a fact: after a tie game at the new table
    (the same player plays first again, S17) a correction of the earlier game changes nothing."""
    ann_won_then_a_new_table()
    tie = ref_json("score-hand", "--hand", "Ann=2S 3S 9H", "--hand", "Bob=AH AD 2C", "--hand", "Cy=4C 5C KD",
                   "--hand", "Dee=KS KH 5D", "--tie")
    assert tie["winner"] is None and tie["first_player"] == "Ann"
    amended = ref_json("amend", "1", "--reason", "Ann had a 9S, not out", *ANN_NOT_OUT)
    assert amended["match"]["first_player"] == "Ann" and amended["next_dealer"] == "Dee"
    assert ref_json("standings")["next_dealer"] == "Dee"


# a tie everyone agreed to (S15), three cards dealt
TIE = ("--hand", "Ann=2S 3S 9H", "--hand", "Bob=AH 2C 6C", "--hand", "Cy=4C 5C KD", "--tie")
# Cy goes out
CY_OUT = ("--hand", "Ann=2S 3S 9H", "--hand", "Bob=AH 2C 8D", "--hand", "Cy=4C 5C 6C KD", "--out", "Cy")


def test_after_a_tie_the_player_who_played_first_in_it_plays_first_whatever_a_correction_says():
    """The same players sit down again (the match goes on) and their first game is a tie: Bob,
    the winner of the game before, played first in it, so Bob plays first again (S17). A
    correction of that earlier game (Cy went out, not Bob) changes the match score, but not
    who played first in the tie game, and so not who plays first after it."""
    simple()
    ok("score-hand", *BOB_OUT)  # game 1: Bob
    ok("end-session")
    opened = ref_json("new-session", "--players", "Ann,Bob,Cy", "--cards", "3")
    assert (opened["first_player"], opened["dealer"], opened["new_match"]) == ("Bob", "Ann", False)
    tie = ref_json("score-hand", *TIE)  # game 2, the session's first: a tie, Bob played first
    assert (tie["winner"], tie["first_player"]) == (None, "Bob")
    out = said("amend", "1", "--reason", "Cy went out, not Bob", *CY_OUT)
    assert "Winner: Cy." in out
    assert out.endswith("Match 1: game wins Ann 0, Bob 0, Cy 1 (first to 2 takes the match); Bob plays first "
                        "next (S17) Next game: Ann deals, Bob plays first (S6).")
    st = ref_json("standings")
    assert (st["match"]["first_player"], st["match"]["last_game_winner"]) == ("Bob", None)
    assert (st["next_first_player"], st["next_dealer"]) == ("Bob", "Ann")
    assert "Next game: Ann deals, Bob plays first (S6)." in said("standings")
    refused = ref("score-hand", "--dealer", "Bob", *TIE)  # the deal the corrected winner would give
    assert refused.exit_code == 4 and "this game is Ann's deal: Bob plays first" in " ".join(refused.stderr.split())
    game = ref_json("score-hand", "--dealer", "Ann", *CY_OUT)  # game 3: Cy wins it, and the match
    assert (game["first_player"], game["dealer"], game["winner"]) == ("Bob", "Ann", "Cy")
    assert game["match"]["finished"][0]["winner"] == "Cy"
    assert "The record is intact" in said("verify")


def test_after_a_tie_a_void_of_an_earlier_game_leaves_who_plays_first():
    simple()
    ok("score-hand", *BOB_OUT)  # game 1: Bob
    ok("score-hand", *CY_OUT)  # game 2: Cy (Bob played first)
    ok("end-session")
    ok("new-session", "--players", "Cy,Ann,Bob", "--cards", "3")
    tie = ref_json("score-hand", *TIE)  # game 3: a tie, Cy played first
    assert tie["first_player"] == "Cy"
    voided = ref_json("void", "2", "--reason", "misdeal")  # Bob won the last game in force before the tie
    assert (voided["match"]["game_wins"], voided["match"]["first_player"]) == ({"Ann": 0, "Bob": 1, "Cy": 0}, "Cy")
    assert voided["next_dealer"] == "Bob"  # Bob sits on Cy's right at the table Cy, Ann, Bob (S6)
    st = ref_json("standings")
    assert (st["next_first_player"], st["next_dealer"]) == ("Cy", "Bob")
    assert "The record is intact" in said("verify")


def test_a_correction_leaves_a_first_dealer_chosen_by_the_cards():
    simple()
    ok("score-hand", *ANN_OUT)
    ok("end-session")
    opened = ref_json("new-session", "--players", "Ann,Bob,Cy,Dee", "--cards", "3", "--first-dealer", "Ann=2C",
                      "--first-dealer", "Bob=3C", "--first-dealer", "Cy=KS", "--first-dealer", "Dee=4C")
    assert (opened["dealer"], opened["first_player"]) == ("Cy", "Dee")
    amended = ref_json("amend", "1", "--reason", "Ann had a 9S, not out", *ANN_NOT_OUT)
    assert (amended["match"]["first_player"], amended["next_dealer"]) == ("Dee", "Cy")


# -- finding 5: end-session of a session with no game in force --------------------------------


def test_end_session_with_no_game_says_it_is_abandoned_as_history_does():
    simple()
    out = said("end-session")
    assert out.startswith("Session 1 of simple-rummy is closed: 0 games. No game counted: the session is closed "
                          "as abandoned and does not count as a session.")
    assert "Closed as abandoned (no game in force): it does not count as a session." in said(
        "history", "--session", "1")
    simple()
    closed = ref_json("end-session")
    assert closed["abandoned"] is True and closed["games"] == 0 and closed["match"] is None
    assert ref_json("history", "--session", "2")["session_totals"]["abandoned"] is True


def test_end_session_after_every_game_was_voided_is_abandoned_and_one_with_a_game_is_not():
    simple()
    ok("score-hand", *BOB_OUT)
    ok("void", "1", "--reason", "misdeal")
    closed = ref_json("end-session")
    assert closed["abandoned"] is True and closed["games"] == 0
    assert ref_json("history", "--session", "1")["session_totals"]["abandoned"] is True
    simple()
    ok("score-hand", *BOB_OUT)
    closed = ref_json("end-session")
    assert closed["abandoned"] is False and closed["games"] == 1
    out = said("history", "--session", "2")
    assert "abandoned" not in out
    assert "The record is intact" in said("verify")


def test_an_abandoned_close_shows_the_match_as_it_goes_on():
    simple()
    ok("score-hand", *BOB_OUT)
    ok("end-session")
    ok("new-session", "--players", "Ann,Bob,Cy,Dee", "--cards", "3")
    out = said("end-session")
    assert "closed as abandoned" in out
    assert ("abandoned and does not count as a session. Match 1: game wins Ann 0, Bob 1, Cy 0 (first to 2 takes "
            "the match); Bob plays first next (S17) Seal: ") in out
    st = said("standings")
    assert st.startswith("simple-rummy (simple-rummy): 1 game over 1 session Table: 3 players (Ann, Bob, Cy)")
    assert "Next game, if the same players sit down: Ann deals, Bob plays first (S6)." in st


# -- audit gin46, finding 1: a match after a match at a new table is among that table ----------


def test_the_matches_after_a_new_tables_first_match_are_among_its_players_only():
    """Ann, Bob and Cy play a game; then Ann and Bob alone play three matches. Each of them is
    between Ann and Bob (2-0), never with Cy, who is not seated, at 0."""
    simple()
    ok("score-hand", *ANN_OUT)
    ok("end-session")
    simple("Bob,Ann")
    two = ("--hand", "Ann=2S 3S 4S 9H", "--hand", "Bob=JC 2H 3D", "--out", "Ann")
    for _ in range(4):
        done = ref_json("score-hand", *two)
    assert list(done["match"]["game_wins"]) == ["Bob", "Ann"]  # the table's seating order
    st = ref_json("standings")
    assert st["match"]["game_wins"] == {"Bob": 0, "Ann": 0}
    assert [(m["number"], m["winner"], m["score"]) for m in st["match"]["finished"]][-2:] == [
        (2, "Ann", "2-0"), (3, "Ann", "2-0")]
    assert "Cy 0" not in said("standings")
    assert "The record is intact" in said("verify")
