"""Audit longgame47: which game is the one played last after an import (#1), the way on after a
correction of a finished game (#2), a roster that is not closed (#3), a "did you mean" that names
a player already named (#4), and a seal mistyped."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

ANN_KNOCKS = ["--hand", "Ann=5H 6H 7H 2S 2D 2C KC KD KS AH", "--hand", "Bob=8H 9H 4H 3S 4S 5S QC QD 7C 7D",
              "--knock", "Ann"]  # Ann scores 33
ANN_BIG_GIN = ["--hand", "Ann=AS 2S 3S 4S 5H 6H 7H 8H KC KD KS", "--hand", "Bob=9C 9D 10C JD QH 2C 4D 6S 8S 10S",
               "--big-gin", "Ann"]  # Ann scores 31 + 78 = 109: over (G10)


def ok(*args: str, input: str | None = None) -> str:
    r = ref(*args, input=input)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout


def said(text: str) -> str:
    """The words of a message, its line breaks (at 100 columns) undone."""
    return " ".join(text.split())


def first_line(*args: str) -> str:
    return ok(*args).splitlines()[0]


# -- 1. the game played last: by the time its latest hand was recorded, not by row ids -----------


def old_game_exported(tmp_path, monkeypatch, *, hands: bool = True) -> str:
    """Game ``old``, played in January 2020 in another record, exported: the file's path."""
    old, out = str(tmp_path / "old.db"), str(tmp_path / "old.json")
    monkeypatch.setenv("RUMMYREF_NOW", "2020-01-03T19:30")
    ok("--db", old, "new-session", "--game", "old", "--players", "Ann,Bob")
    if hands:
        ok("--db", old, "score-hand", "--points", "Ann=10", "--points", "Bob=5")
        ok("--db", old, "score-hand", "--points", "Ann=1", "--points", "Bob=2")
    ok("--db", old, "end-session")
    ok("--db", old, "export", "-o", out)
    return out


def friday_played(monkeypatch, *, hands: bool = True) -> None:
    """This year's game ``friday`` in the record (SQLite or PostgreSQL), its night closed."""
    monkeypatch.setenv("RUMMYREF_NOW", "2025-05-02T19:30")
    ok("new-session", "--game", "friday", "--players", "Cy,Dee")
    if hands:
        ok("score-hand", "--points", "Cy=10", "--points", "Dee=5")
        ok("score-hand", "--points", "Cy=1", "--points", "Dee=2")
    ok("end-session")


FRIDAY = "friday (rummy-2m), target 2,000,000: 2 hands over 1 Rummy Night"
OLD = "old (rummy-2m), target 2,000,000: 2 hands over 1 Rummy Night"


def test_an_old_game_imported_is_not_the_game_played_last(tmp_path, monkeypatch):
    """The audit's case: after importing a 2020 game, standings, history, ruling and new-session
    with no --game still mean friday (last hand May 2025); the old game is there by name."""
    exported = old_game_exported(tmp_path, monkeypatch)
    friday_played(monkeypatch)
    assert first_line("standings") == FRIDAY
    ok("import", exported)
    assert first_line("standings") == FRIDAY
    assert first_line("history").startswith("History of friday ")
    assert ref_json("ruling", "who deals first", "--no-log")["answered_from"]["game"] == "friday"
    assert first_line("standings", "--game", "old") == OLD
    monkeypatch.setenv("RUMMYREF_NOW", "2025-05-09T19:30")
    assert first_line("new-session") == "Rummy Night 2 of friday is open."
    ok("end-session")  # closed as abandoned: no play
    assert first_line("standings") == FRIDAY
    # the old game played again, now: it is the one played last
    monkeypatch.setenv("RUMMYREF_NOW", "2025-05-16T19:30")
    ok("new-session", "--game", "old")
    ok("score-hand", "--points", "Ann=3", "--points", "Bob=4")
    ok("score-hand", "--points", "Ann=3", "--points", "Bob=4")
    ok("end-session")
    assert first_line("standings") == "old (rummy-2m), target 2,000,000: 4 hands over 2 Rummy Nights"


def test_with_no_hand_anywhere_the_session_opened_last_by_its_time(tmp_path, monkeypatch):
    """No game has a hand: the game whose latest session opened last, by when it opened, not the
    game whose session rows were imported last."""
    exported = old_game_exported(tmp_path, monkeypatch, hands=False)
    friday_played(monkeypatch, hands=False)
    ok("import", exported)
    assert first_line("standings").startswith("friday (rummy-2m)")
    monkeypatch.setenv("RUMMYREF_NOW", "2025-05-09T19:30")
    assert first_line("new-session") == "Rummy Night 2 of friday is open."


def test_times_with_other_offsets_are_compared_as_times(monkeypatch):
    """20:00 at +13:00 is 07:00 UTC: earlier than 10:00 UTC the same day, though written later
    and though its text sorts after it."""
    monkeypatch.setenv("RUMMYREF_NOW", "2025-05-02T10:00+00:00")
    ok("new-session", "--game", "a", "--players", "Ann,Bob")
    ok("score-hand", "--points", "Ann=1", "--points", "Bob=2")
    ok("score-hand", "--points", "Ann=1", "--points", "Bob=2")
    ok("end-session")
    monkeypatch.setenv("RUMMYREF_NOW", "2025-05-02T20:00+13:00")
    ok("new-session", "--game", "b", "--players", "Cy,Dee")
    ok("score-hand", "--points", "Cy=1", "--points", "Dee=2")
    ok("score-hand", "--points", "Cy=1", "--points", "Dee=2")
    ok("end-session")
    assert first_line("standings").startswith("a (rummy-2m)")


def test_entries_of_the_same_time_go_by_the_order_they_were_written(monkeypatch):
    """A clock pinned (tests, a night entered from paper): the entry written last decides, a
    correction as a hand does."""
    monkeypatch.setenv("RUMMYREF_NOW", "2025-05-02T19:30")
    ok("new-session", "--game", "a", "--players", "Ann,Bob")
    ok("score-hand", "--points", "Ann=1", "--points", "Bob=2")
    ok("score-hand", "--points", "Ann=1", "--points", "Bob=2")
    ok("end-session")
    ok("new-session", "--game", "b", "--players", "Cy,Dee")
    ok("score-hand", "--points", "Cy=1", "--points", "Dee=2")
    ok("score-hand", "--points", "Cy=1", "--points", "Dee=2")
    ok("end-session")
    assert first_line("standings").startswith("b (rummy-2m)")
    ok("amend", "1", "--game", "a", "--reason", "Ann had 3", "--points", "Ann=3", "--points", "Bob=2")
    assert first_line("standings").startswith("a (rummy-2m)")
    ok("new-session", "--game", "b")  # opened, not played: a is still the game played last
    ok("end-session", "--game", "b")
    assert first_line("standings").startswith("a (rummy-2m)")


# -- 2. a correction of a finished game whose night is closed: hints that are accepted ----------

POINTS = ("--points", "Bill=160", "--points", "Ben=20", "--points", "Larry=5")


def finished_and_closed(monkeypatch) -> None:
    monkeypatch.setenv("RUMMYREF_NOW", "2025-06-06T19:30")
    ok("new-session", "--opening", "Bill=1999900", "--opening", "Ben=1999950")
    ok("score-hand", "--points", "Bill=150", "--points", "Ben=20", "--points", "Larry=5")
    ok("end-session")


def test_an_amend_after_the_night_closed_points_to_a_new_game_only(monkeypatch):
    finished_and_closed(monkeypatch)
    amended = ok("amend", "1", "--reason", "Bill had 160", *POINTS).splitlines()
    assert amended[-2:] == ["GAME OVER (A7): Bill wins with 2,000,060.", "A new game: ref new-session --game NEW-NAME."]
    assert "ref end-session" not in " ".join(amended)
    # what it points to is accepted
    monkeypatch.setenv("RUMMYREF_NOW", "2025-06-13T19:30")
    assert first_line("new-session", "--game", "next") == "New game next (rummy-2m, target 2,000,000, 0 WILDCARDs)"


def test_an_amend_that_changes_the_winner_after_the_night_closed(monkeypatch):
    """Ben passed alone (Larry's 5 kept him below); the amend gives Bill the hand and the game."""
    monkeypatch.setenv("RUMMYREF_NOW", "2025-06-06T19:30")
    ok("new-session", "--opening", "Bill=1999900", "--opening", "Ben=1999950")
    ok("score-hand", "--points", "Bill=50", "--points", "Ben=60", "--points", "Larry=5")
    ok("end-session")
    amended = ok("amend", "1", "--reason", "Bill had 150", "--points", "Bill=150", "--points", "Ben=60",
                 "--points", "Larry=5").splitlines()
    assert amended[-2:] == ["GAME OVER (A7): Bill wins with 2,000,050.", "A new game: ref new-session --game NEW-NAME."]


def test_an_amend_with_the_night_open_still_says_it_may_end(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2025-06-06T19:30")
    ok("new-session", "--opening", "Bill=1999900", "--opening", "Ben=1999950")
    ok("score-hand", "--points", "Bill=150", "--points", "Ben=20", "--points", "Larry=5")
    amended = ok("amend", "1", "--reason", "Bill had 160", *POINTS).splitlines()
    assert amended[-2:] == ["GAME OVER (A7): Bill wins with 2,000,060.",
                            "The night may end now: ref end-session. A new game: ref new-session --game NEW-NAME."]
    ok("end-session")


def test_end_session_of_a_finished_game_with_no_night_open_points_to_a_new_game(record, monkeypatch):
    finished_and_closed(monkeypatch)
    ok("amend", "1", "--reason", "Bill had 160", *POINTS)
    before = record.snapshot()
    r = ref("end-session")
    assert r.exit_code == 4
    assert said(r.stderr) == ("refused: no Rummy Night of rummy-2m is open game rummy-2m is over (A7): Bill won; "
                              "start a new game with ref new-session --game NEW-NAME")
    assert record.snapshot() == before
    # a night closed while the game goes on: the next night, as before
    monkeypatch.setenv("RUMMYREF_NOW", "2025-06-13T19:30")
    ok("new-session", "--game", "next")
    ok("end-session")
    r = ref("end-session", "--game", "next")
    assert (r.exit_code, said(r.stderr)) == (4, "refused: no Rummy Night of next is open ref new-session opens one")


def test_dispute_record_at_a_finished_game_points_to_a_new_game(record, monkeypatch):
    finished_and_closed(monkeypatch)
    before = record.snapshot()
    r = ref("dispute", "claim", "--called", "Bill,Ben", "--record")
    assert r.exit_code == 4
    assert said(r.stderr).endswith(
        "refused: --record: no session is open in any game to keep the ruling in leave --record out: the dispute "
        "is answered and not kept; game rummy-2m is over (A7): Bill won; start a new game with ref new-session "
        "--game NEW-NAME")
    r = ref("dispute", "end-night")
    assert r.exit_code == 5
    assert said(r.stderr) == (
        "error: no session is open in any game game rummy-2m is over (A7): Bill won; start a new game with "
        "ref new-session --game NEW-NAME; or give the facts instead: ref dispute end-night --hands N "
        "[--players A,B,C]")
    assert record.snapshot() == before


def test_a_finished_gin_game_with_no_session_open_points_to_a_new_gin_game(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2025-06-06T19:30")
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *ANN_KNOCKS)
    ok("score-hand", *ANN_BIG_GIN)
    ok("end-session")
    r = ref("end-session")
    assert (r.exit_code, said(r.stderr)) == (
        4, "refused: no session of gin is open game gin is over (G10): Ann won; start a new game with "
           "ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob")
    assert first_line("new-session", "--game", "NEW-NAME", "--ruleset", "gin", "--players", "Ann,Bob").startswith(
        "New game NEW-NAME")


# -- 3. a roster that is not closed still keeps the table it started with ----------------------

NEW_TABLE = ("game five keeps the table it started with; a new table starts a new game: "
             "ref new-session --game NEW-NAME --ruleset rummy-500 --players ...")


@pytest.fixture
def five(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2025-02-01T19:30")
    ok("new-session", "--game", "five", "--ruleset", "rummy-500", "--players", "Ann,Bob,Cy")
    ok("score-hand", "--points", "Ann=10", "--points", "Bob=5", "--points", "Cy=1")
    ok("end-session")
    monkeypatch.setenv("RUMMYREF_NOW", "2025-02-08T19:30")


def test_a_newcomer_at_an_open_roster_is_told_a_new_table_is_a_new_game(five, record):
    before = record.snapshot()
    r = ref("new-session", "--game", "five", "--players", "Ann,Bob,Cy,Dee")
    assert (r.exit_code, said(r.stderr)) == (4, f"refused: Dee is not a player of five (Ann, Bob, Cy) {NEW_TABLE}")
    r = ref("new-session", "--game", "five", "--players", "Ann,Bob")
    assert (r.exit_code, said(r.stderr)) == (
        4, f"refused: Cy is on the roster of five and must play every session {NEW_TABLE}")
    assert record.snapshot() == before
    # a slip is still a slip
    r = ref("new-session", "--game", "five", "--players", "Ann,Bob,Cyy")
    assert (r.exit_code, said(r.stderr)) == (
        4, "refused: 'Cyy' is not on the roster of five (Ann, Bob, Cy); did you mean Cy? "
           "the players of five are Ann, Bob, Cy")
    # the hint is followed: accepted, a new 500 Rum game at the new table
    made = ok("new-session", "--game", "five-b", "--ruleset", "rummy-500", "--players", "Ann,Bob,Cy,Dee")
    assert made.splitlines()[0].startswith("New game five-b (rummy-500")


# -- 4. a "did you mean" never names a player already named in the same command ----------------

NEWCOMER = ("refused (A1): GEDDOWWWT!! Eve is not on the roster of long (Ann, Bob, Cy, Dee): no new players may "
            "join A1: the roster was fixed when the game began; a new game may have a new roster: "
            "ref new-session --game NEW-NAME --players ...")
EVERYONE = ("--points", "Ann=1", "--points", "Bob=1", "--points", "Cy=1", "--points", "Dee=1")


@pytest.fixture
def long_game(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2024-01-05T19:30")
    ok("new-session", "--game", "long", "--players", "Ann,Bob,Cy,Dee")
    for _ in range(4):
        ok("score-hand", *EVERYONE)
    ok("end-session")


def test_a_newcomer_beside_the_whole_roster_in_new_session_is_a_newcomer(long_game, record):
    before = record.snapshot()
    r = ref("new-session", "--players", "Ann,Bob,Cy,Dee,Eve")
    assert (r.exit_code, said(r.stderr)) == (4, NEWCOMER)
    r = ref("new-session", "--players", "Eve,Ann,Bob,Cy,Dee")  # wherever it is named
    assert (r.exit_code, said(r.stderr)) == (4, NEWCOMER)
    # with Dee not named, Eve may be a slip for Dee
    r = ref("new-session", "--players", "Ann,Bob,Cy,Eve")
    assert (r.exit_code, said(r.stderr)) == (
        4, "refused (A1): 'Eve' is not on the roster of long (Ann, Bob, Cy, Dee); did you mean Dee? "
           "the players of long are Ann, Bob, Cy, Dee")
    assert record.snapshot() == before


def test_a_newcomer_beside_the_whole_roster_in_amend_and_score_hand_is_a_newcomer(long_game, record, monkeypatch):
    before = record.snapshot()
    r = ref("amend", "1", "--reason", "ok", *EVERYONE, "--points", "Eve=3")
    assert (r.exit_code, said(r.stderr)) == (4, NEWCOMER)
    r = ref("amend", "1", "--reason", "ok", "--points", "Ann=1", "--points", "Bob=1", "--points", "Cy=1",
            "--points", "Eve=3")
    assert r.exit_code == 4 and "did you mean Dee?" in said(r.stderr)
    assert record.snapshot() == before
    monkeypatch.setenv("RUMMYREF_NOW", "2024-01-12T19:30")
    ok("new-session")
    r = ref("score-hand", "--points", "Eve=3", *EVERYONE)
    assert (r.exit_code, said(r.stderr)) == (4, NEWCOMER)


# -- the seal: no check character, so a typo is named as a possibility --------------------------


def test_a_mistyped_seal_suggests_a_typo(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2025-06-06T19:30")
    ok("new-session")
    ok("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    seal = ref_json("verify")["seal"]
    ok("verify", "--seal", seal)
    typo = seal[:-1] + ("0" if seal[-1] != "0" else "1")
    r = ref("verify", "--seal", typo)
    assert r.exit_code == 8
    assert said(r.stderr).endswith(
        f"restore the copy that was sealed {typo}, or a later one; or check the code for a typo")
