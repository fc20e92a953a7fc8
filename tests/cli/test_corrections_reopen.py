"""A correction that undoes the end of a game says so, in every kind (audit sessions45, item 3):
Gin as Rummy 2,000,000 does (G10 for A7), before it is written (``ref night``) and when it is
(``ref void``, ``ref amend``, ``--json`` ``reopened``); Simple Rummy of a match already won (S17)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from cli_helpers import ref, ref_json

ANN_KNOCKS = ["--hand", "Ann=5H 6H 7H 2S 2D 2C KC KD KS AH", "--hand", "Bob=8H 9H 4H 3S 4S 5S QC QD 7C 7D",
              "--knock", "Ann"]  # Ann scores 33
ANN_BIG_GIN = ["--hand", "Ann=AS 2S 3S 4S 5H 6H 7H 8H KC KD KS", "--hand", "Bob=9C 9D 10C JD QH 2C 4D 6S 8S 10S",
               "--big-gin", "Ann"]  # Ann scores 31 + 78 = 109


def ok(*args: str) -> str:
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def gin_over() -> None:
    """Ann 33 + 109 = 142: over at hand 2; final 142 + 100 + 2 boxes x 25 = 292, doubled (shutout): 584."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *ANN_KNOCKS)
    assert ref_json("score-hand", *ANN_BIG_GIN)["final"] == {"Ann": 584, "Bob": 0}


def night(db, typed: list[str]) -> list[str]:
    """``ref night`` from a pipe, its questions (stderr) and answers (stdout) in one stream, as typed."""
    r = subprocess.run([sys.executable, "-m", "rummyref", "--db", str(db), "night"], input="\n".join(typed) + "\n",
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60,
                       env={**os.environ, "COLUMNS": "100"})
    assert r.returncode == 0, r.stdout
    return lines(r.stdout)


def between(shown: list[str], first: str, last: str) -> list[str]:
    start = next(i for i, line in enumerate(shown) if line.startswith(first))
    return shown[start:next(i for i in range(start, len(shown)) if shown[i].startswith(last)) + 1]


def test_a_gin_void_that_reopens_the_game_says_so_before_it_is_written(record):
    gin_over()
    before = record.snapshot()
    shown = night(record.spec, ["undo", "misdeal", "drop", "quit"])
    assert between(shown, "Hand 2, ", "Record it?") == [
        "Hand 2, voided, if recorded:",
        "Its result no longer counts; the hand and the void stay in the history (B7).",
        "  Ann: 142 -> 33",
        "  Bob: 0 -> 0",
        "The game would no longer be over (G10): Ann leads with 33, and play goes on.",
        "Record it? (Enter: yes / drop):",
    ]
    assert record.snapshot() == before  # dropped: nothing written


def test_a_gin_void_that_reopens_the_game_says_so_when_it_is_written(record):
    gin_over()
    assert lines(ok("void", "2", "--reason", "misdeal")) == [
        "Hand voided: 2 of gin (session 1, entry 5)",
        "Its result no longer counts; the hand and the void stay in the history (B7).",
        "player  total  to go  boxes",
        "Ann        33     67      1",
        "Bob         0    100      0",
        "The game is no longer over (G10): Ann no longer wins; Ann leads with 33, and the game goes on.",
    ]
    assert ok("standings").splitlines()[0] == "gin (gin), to 100: 1 hand; session 1 is open"


def test_a_gin_correction_says_reopened_in_json(record):
    gin_over()
    voided = ref_json("void", "2", "--reason", "misdeal")
    assert (voided["over"], voided["game_winner"], voided["final"], voided["reopened"]) == (False, None, None, True)
    again = ref_json("score-hand", *ANN_KNOCKS)  # Ann 66: a hand, not a correction
    assert again["reopened"] is False
    amended = ref_json("amend", "3", "--reason", "it was big gin", *ANN_BIG_GIN)  # 33 + 109 = 142: over again
    assert (amended["over"], amended["game_winner"], amended["reopened"]) == (True, "Ann", False)
    amended = ref_json("amend", "3", "--reason", "a knock after all", *ANN_KNOCKS)  # 66: open again
    assert (amended["kind"], amended["totals"], amended["over"], amended["reopened"]) == (
        "amend", {"Ann": 66, "Bob": 0}, False, True)


def test_a_gin_amend_that_reopens_or_ends_the_game_says_so(record):
    gin_over()
    # Bob's cards were better: big gin scores 31 + 10 (10S) = 41, Ann 74: no longer over
    bob = "2C 3C 4C 5D 6D 7D 9H 9S 9C 10S"
    shown = night(record.spec, ["amend 2", "wrong cards", "Bob", bob, "drop", "quit"])
    assert between(shown, "Hand 2, ", "Record it?")[-4:] == [
        "  Ann: 142 -> 74",
        "  Bob: 0 -> 0",
        "The game would no longer be over (G10): Ann leads with 74, and play goes on.",
        "Record it? (Enter: yes / fix NAME / drop):",
    ]
    assert lines(ok("amend", "2", "--reason", "wrong cards", "--hand", "Ann=AS 2S 3S 4S 5H 6H 7H 8H KC KD KS",
                    "--hand", f"Bob={bob}", "--big-gin", "Ann"))[-4:] == [
        "player  total  to go  boxes",
        "Ann        74     26      2",
        "Bob         0    100      0",
        "The game is no longer over (G10): Ann no longer wins; Ann leads with 74, and the game goes on.",
    ]
    # and the other way: an amend that ends the game at the last hand says so before it is written
    ok("void", "2", "--reason", "misdeal after all")  # Ann 33
    ok("score-hand", *ANN_KNOCKS)  # hand 3: Ann 66
    ok("score-hand", *ANN_KNOCKS)  # hand 4: Ann 99
    bob = "8H 9H 4H 3S 4S 5S QC QD JC 7D"  # deadwood 7D QD JC QC (37): Ann scores 36, 102
    shown = night(record.spec, ["amend 4", "Bob had a jack", "Bob", bob, "drop", "quit"])
    assert between(shown, "Hand 4, ", "Record it?")[-4:] == [
        "  Ann: 99 -> 102",
        "  Bob: 0 -> 0",
        "The game would be over (G10): Ann wins by 554.",  # 102 + 100 + 3 x 25 = 277, doubled
        "Record it? (Enter: yes / fix NAME / drop):",
    ]


def test_a_gin_void_that_leaves_the_game_open_says_nothing_of_its_end(record):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *ANN_KNOCKS)
    ok("score-hand", *ANN_KNOCKS)
    shown = night(record.spec, ["void 2", "misdeal", "drop", "quit"])
    assert between(shown, "Hand 2, ", "Record it?") == [
        "Hand 2, voided, if recorded:",
        "Its result no longer counts; the hand and the void stay in the history (B7).",
        "  Ann: 66 -> 33",
        "  Bob: 0 -> 0",
        "Record it? (Enter: yes / drop):",
    ]
    said = ok("void", "2", "--reason", "misdeal")
    assert "no longer over" not in said
    assert json.loads(ok("history", "--json"))["entries"][-1]["kind"] == "void"


# -- Simple Rummy: a match already won ------------------------------------------------------------

MATCH = [  # Ann wins game 1, game 2 is a tie, Cy wins game 3, Ann wins game 4 and match 1 (2-1-0)
    ["--hand", "Ann=AC AD", "--hand", "Bob=5C 5D", "--hand", "Cy=9C 9D"],
    ["--hand", "Ann=2D 2H", "--hand", "Bob=6D 6H", "--hand", "Cy=10D 10H", "--tie"],
    ["--hand", "Ann=KH QH", "--hand", "Bob=JH JS", "--hand", "Cy=2S 3S 4S", "--out", "Cy"],
    ["--hand", "Ann=7S 7H 7D", "--hand", "Bob=JS JD", "--hand", "Cy=QS QD", "--out", "Ann"],
]


def simple_match() -> None:
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "2")
    for args in MATCH:
        ok("score-hand", *args)


def test_a_simple_rummy_void_that_undoes_a_match_says_so(record):
    simple_match()
    assert lines(ok("void", "4", "--reason", "misdeal")) == [
        "Game 4 (voided) of simple-rummy (session 1, game 4 of the session): Bob dealt.",
        "Its result no longer counts; the game and the void stay in the history (B7).",
        "Match 1 is no longer won (S17): Ann no longer wins it; it goes on.",
        "Match 1: game wins Ann 1, Bob 0, Cy 1 (first to 2 takes the match); Cy plays first next (S17)",
        "Next game: Bob deals, Cy plays first (S6).",
    ]
    assert ref_json("standings")["match"]["finished"] == []


def test_a_simple_rummy_amend_that_gives_a_match_to_another_says_so(record):
    simple_match()
    shown = lines(ok("amend", "4", "--reason", "Ann had no third seven", "--hand", "Ann=7S 7H",
                     "--hand", "Bob=JS AC", "--hand", "Cy=2H 3C"))
    assert shown[-4:] == [
        "Match 1 is won by Cy now, not Ann (S17).",
        "Cy wins match 1, 2-1-0 (S17); match 2: game wins Ann 0, Bob 0, Cy 0 (first to 2 takes the match); Cy",
        "plays first next (S17)",
        "Next game: Bob deals, Cy plays first (S6).",
    ]
    said = ok("void", "2", "--reason", "not played")  # a tie game: no match changes hands
    assert "Match 1 is" not in said


# -- ref night says it once written too, and a final that changes (stop 46) ------------------------


def test_a_night_void_that_reopens_a_gin_game_says_so_once_recorded(record):
    """``ref void`` says the game goes on; the night's ``Recorded:`` line says it too (it said only
    the preview's "would no longer be over")."""
    gin_over()
    shown = night(record.spec, ["undo", "misdeal", "", "quit"])
    assert between(shown, "Recorded: ", "The game")[-2:] == [
        "Recorded: hand 2 voided (entry 5).",
        "The game is no longer over (G10): Ann no longer wins; Ann leads with 33, and the game goes on.",
    ]


def test_a_night_amend_that_reopens_a_long_game_says_so_once_recorded(record):
    ok("new-session", "--opening", "Bill=1999990")
    ok("score-hand", "--points", "Bill=20", "--points", "Ben=5", "--points", "Larry=1")  # over: 2,000,010
    shown = night(record.spec, ["amend 1", "Bill had 5", "Bill", "5", "", "quit"])
    at = shown.index("Recorded: hand 1 amended (entry 4).")
    assert " ".join(shown[at + 1:at + 3]) == ("The game is no longer over (A7): Bill no longer wins; Bill leads "
                                               "with 1,999,995, and the game goes on.")


def test_a_night_correction_that_keeps_nothing_of_the_end_says_nothing_once_recorded(record):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *ANN_KNOCKS)
    ok("score-hand", *ANN_KNOCKS)
    shown = night(record.spec, ["void 2", "misdeal", "", "quit"])
    at = shown.index("Recorded: hand 2 voided (entry 5).")
    assert not shown[at + 1].startswith("The game")


def test_a_gin_amend_that_changes_the_final_but_not_the_winner_says_the_new_final(record):
    gin_over()  # Ann wins by 584
    bob = "9C 9D 9H JD QH 2C 4D 6S 8S 10S"  # a group of nines: 50 deadwood, big gin 81, Ann 114
    shown = night(record.spec, ["amend 2", "Bob had three nines", "Bob", bob, "drop", "quit"])
    assert between(shown, "Hand 2, ", "Record it?")[-5:] == [
        "  Ann: 142 -> 114",
        "  Bob: 0 -> 0",
        "The game would still be over (G10): Ann wins by 528, not 584; final with boxes and bonus: Ann 528,",
        "Bob 0.",
        "Record it? (Enter: yes / fix NAME / drop):",
    ]
    assert "The correction was dropped: nothing was written." in shown
    # the same amend at the command line: its GAME OVER line gives the same final
    said = ok("amend", "2", "--reason", "Bob had three nines", *ANN_BIG_GIN[:2], "--hand", f"Bob={bob}", "--big-gin",
              "Ann")
    assert "GAME OVER: Ann wins by 528; final with boxes and bonus: Ann 528, Bob 0" in " ".join(said.split())


def test_a_night_void_that_undoes_a_simple_rummy_match_says_so_once_recorded(record):
    simple_match()
    shown = night(record.spec, ["void 4", "misdeal", "", "quit"])
    at = shown.index("Recorded: game 4 voided (entry 7).")
    assert shown[at + 1] == "Match 1 is no longer won (S17): Ann no longer wins it; it goes on."
