"""SPEC §8: which game a command means without --game."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stderr
    return r


def two_tables() -> None:
    """A Rummy Night open (the house game), then a Simple Rummy table opened and closed."""
    ok("new-session")
    ok("new-session", "--game", "friday", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    ok("end-session", "--game", "friday")


def test_the_game_with_an_open_session_is_meant():
    two_tables()
    hand = ref_json("score-hand", "--points", "Bill=10", "--points", "Ben=5", "--points", "Larry=0")
    assert hand["game"] == "rummy-2m" and hand["hand"] == 1
    assert ref_json("standings")["game"] == "rummy-2m"


def test_with_several_open_the_names_given_decide():
    two_tables()
    ok("new-session", "--game", "friday", "--players", "Ann,Bob,Cy")
    game = ref_json("score-hand", "--hand", "Ann=2H 3H 4H 5H 6H 7H 8H 9H", "--hand", "Bob=KS QD 2C 3C 4C 5C 6C",
                    "--hand", "Cy=9C 5D 7S 8S 10S JS KD", "--out", "Ann")
    assert game["game"] == "friday" and game["winner"] == "Ann"
    hand = ref_json("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    assert hand["game"] == "rummy-2m"


def test_with_several_open_and_no_names_the_refusal_lists_them(record):
    two_tables()
    ok("new-session", "--game", "friday", "--players", "Ann,Bob,Cy")
    before = record.snapshot()
    r = ref("standings")
    assert r.exit_code == 3
    assert "2 games have a session open (rummy-2m, friday): which one?" in r.stderr and "--game" in r.stderr
    assert ref("end-session").exit_code == 3
    assert record.snapshot() == before


def test_with_nothing_open_the_game_played_last():
    """Played last: the game whose latest hand (or correction) was recorded last. A game opened
    and closed with no hand was not played: it is meant only when no game has a hand."""
    ok("new-session", "--game", "friday", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    ok("end-session", "--game", "friday")
    assert ref_json("standings")["game"] == "friday"  # no game has a hand: the session opened last
    ok("new-session", "--game", "rummy-2m")
    ok("end-session", "--game", "rummy-2m")
    assert ref_json("standings")["game"] == "rummy-2m"
    ok("new-session", "--game", "rummy-2m")
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=5", "--points", "Larry=0")
    ok("score-hand", "--points", "Bill=1", "--points", "Ben=5", "--points", "Larry=0")
    ok("score-hand", "--points", "Bill=2", "--points", "Ben=5", "--points", "Larry=0")
    ok("end-session")
    ok("new-session", "--game", "friday", "--players", "Ann,Bob,Cy")
    ok("end-session", "--game", "friday")  # opened and closed with no game played
    assert ref_json("standings")["game"] == "rummy-2m"


def overlapping_tables() -> None:
    """The audit's case: sr's session opens first and big's night second, but sr's game 1 is
    played after big's night has closed; then nothing is open."""
    ok("new-session", "-g", "sr", "-r", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5")
    ok("new-session", "-g", "big")
    for _ in range(3):
        ok("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    ok("end-session", "-g", "big")
    ok("score-hand", "--hand", "Ann=2H 3H 4H 5H 6H 8C", "--hand", "Bob=5S 6S 9D KD 2C",
       "--hand", "Cy=10D 5C 7H 9S 4C", "--out", "Ann")
    ok("end-session")


SR_VOIDED = [
    "Game 1 (voided) of sr (session 1, game 1 of the session): Ann dealt.",
    "Its result no longer counts; the game and the void stay in the history (B7).",
    "Match 1: game wins Ann 0, Bob 0, Cy 0 (first to 2 takes the match); Bob plays first next (S17)",
]


def _played_last_is_sr() -> None:
    assert ok("standings").stdout.splitlines()[0] == "sr (simple-rummy): 1 game over 1 session"
    assert ok("history").stdout.splitlines()[0] == "History of sr (simple-rummy); players: Ann, Bob, Cy"
    assert ref_json("ruling", "who deals first", "--no-log")["answered_from"]["game"] == "sr"
    big = ok("history", "--game", "big").stdout
    voided = ok("void", "1", "--reason", "misdeal")
    assert voided.stdout.splitlines() == SR_VOIDED
    assert ok("history", "--game", "big").stdout == big and "voided" not in big
    assert ok("standings", "--game", "big").stdout.splitlines()[0] == (
        "big (rummy-2m), target 2,000,000: 3 hands over 1 Rummy Night")
    assert ok("standings").stdout.splitlines()[0] == "sr (simple-rummy): 0 games over 0 sessions"


def test_overlapping_sessions_the_game_whose_hand_was_recorded_last():
    """The audit's case: big's night opened last, but sr's game 1 was recorded last: standings,
    history, ruling and void (no --game) all mean sr, and big's hand 1 is untouched."""
    overlapping_tables()
    _played_last_is_sr()


def test_a_night_closed_as_abandoned_is_not_played():
    """big's night opened and closed with no hand after sr's game (SPEC §8: it does not count
    as a Rummy Night): sr is still the game played last."""
    overlapping_tables()
    ok("new-session", "-g", "big")
    assert ok("end-session").stdout.splitlines()[0] == "Rummy Night 2 of big is closed: 0 hands, 0 full rounds."
    _played_last_is_sr()


def test_a_correction_is_play():
    """A void recorded last makes its game the one played last."""
    overlapping_tables()
    ok("void", "2", "--game", "big", "--reason", "entered by mistake")
    assert ok("standings").stdout.splitlines()[0] == "big (rummy-2m), target 2,000,000: 2 hands over 1 Rummy Night"
    r = ref("void", "1", "--reason", "misdeal")
    assert r.exit_code == 0 and r.stdout.startswith("Hand 1 (voided) of big"), r.stdout + r.stderr


# -- ref count counts by the game being played --------------------------------------------------


def test_count_counts_by_the_rule_set_of_the_game_being_played():
    """At a Simple Rummy table, `ref count` uses Simple Rummy's rules (its words and values)
    without --ruleset; --ruleset and --game still choose."""
    ok("new-session", "--game", "friday", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    assert ref_json("count", "2S 3S 4S KD")["ruleset"] == "simple-rummy"
    assert "sequence" in ok("count", "2S 3S 4S KD").stdout
    assert ref_json("count", "2S 3S 4S KD", "--ruleset", "rummy-2m")["ruleset"] == "rummy-2m"
    ok("end-session", "--game", "friday")
    assert ref_json("count", "2S 3S 4S KD")["ruleset"] == "simple-rummy"  # played last
    ok("new-session", "--game", "house", "--ruleset", "rummy-2m")  # a Rummy Night open: meant now
    assert ref_json("count", "2S 3S 4S KD")["ruleset"] == "rummy-2m"
    assert "run" in ok("count", "2S 3S 4S KD").stdout
    assert ref_json("count", "2S 3S 4S KD", "--game", "friday")["ruleset"] == "simple-rummy"


def test_count_with_no_record_counts_by_the_house_game_and_a_missing_game_is_an_error(tmp_path):
    assert ref_json("count", "2S 3S 4S KD")["ruleset"] == "rummy-2m"
    r = ref("count", "2S 3S 4S", "--game", "nosuch")
    assert r.exit_code != 0 and "nosuch" in r.stderr and "Traceback" not in r.stderr


def test_count_with_several_games_open_is_refused_naming_them(record):
    """SPEC §8: count gives no names, so with several games open it is refused (exit 3) as
    standings is, listing the games and --game; it never counts by a third rule set."""
    ok("new-session", "-g", "sr", "-r", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5")
    ok("new-session", "-g", "g", "-r", "gin", "--players", "Dan,Eve")
    several = ["error: 2 games have a session open (sr, g): which one?", "name it with --game, e.g. --game 'g'"]
    assert ref("standings").stderr.splitlines() == several
    assert ref("count", "7S").exit_code == 3  # (a read leaves SQLite's -wal and -shm files)
    before = record.snapshot()
    for args in (("7S 8S 9S KD",), ("7S 8S 9S KD", "--json"), ("--jsonl",)):
        r = ref("count", *args, input="7S 8S 9S KD\n")
        assert (r.exit_code, r.stdout) == (3, "")
        assert r.stderr.splitlines() == [several[0], several[1] + " (or a rule set with --ruleset)"]
    assert record.snapshot() == before
    assert ref_json("count", "7S 8S 9S KD", "--game", "sr")["count"] == 13
    assert ref_json("count", "7S 8S 9S KD", "--ruleset", "rummy-2m")["count"] == 10
    ok("end-session", "-g", "g")  # one open: counted by its rules
    assert ref_json("count", "7S 8S 9S KD")["ruleset"] == "simple-rummy"


def test_amend_with_several_open_is_the_game_of_the_names_given(record):
    """The audit's case: amend found "2 games open, which one?" although only one roster had Ann and
    Bob; the names given pick the game, as score-hand's do. void gives no names: it still asks."""
    ok("new-session")
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob", "--cards", "3")
    ok("score-hand", "--hand", "Ann=2H 3H 4H", "--hand", "Bob=5S 6S 2C")
    amended = ref_json("amend", "1", "--reason", "Bob had 7C", "--hand", "Ann=2H 3H 4H", "--hand", "Bob=5S 6S 7C")
    assert (amended["game"], amended["kind"], amended["counts"]) == ("simple-rummy", "amend", {"Ann": 0, "Bob": 18})
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=5", "--points", "Larry=0")
    amended = ref_json("amend", "1", "--reason", "Larry had 3", "--points", "Bill=10", "--points", "Ben=5",
                       "--points", "Larry=3")
    assert (amended["game"], amended["totals"]) == ("rummy-2m", {"Bill": 10, "Ben": 5, "Larry": 3})
    before = record.snapshot()
    r = ref("void", "1", "--reason", "misdeal")
    assert r.exit_code == 3
    assert r.stderr.splitlines() == ["error: 2 games have a session open (rummy-2m, simple-rummy): which one?",
                                     "name it with --game, e.g. --game 'simple-rummy'"]
    stranger = ref("amend", "1", "--reason", "x", "--hand", "Zed=2H 3H 4H")
    assert stranger.exit_code == 3 and "which one?" in stranger.stderr
    assert record.snapshot() == before


def test_a_gin_amend_is_found_by_the_knocker_alone():
    ok("new-session")
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", "--game", "gin", "--dead")
    amended = ref_json("amend", "1", "--reason", "Ann knocked", "--knock", "Ann",
                       "--hand", "Ann=2H 3H 4H 5S 5D 5C 9C 9D 9S AC", "--hand", "Bob=KS QS JS 7C 7D 7H 8H 8D AD 2D")
    assert (amended["game"], amended["result"], amended["points"]) == ("gin", "knock", 18)


@pytest.mark.parametrize("command", [("standings",), ("history",), ("stats",), ("export",), ("new-session",),
                                     ("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")])
@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_game_name_is_unreadable_everywhere(command, blank):
    """``--game ""`` is no name (exit 3) in every command, as for a new game, not a game not found."""
    two_tables()
    r = ref(*command, "--game", blank)
    assert r.exit_code == 3, r.stderr
    assert "--game needs a name" in r.stderr
