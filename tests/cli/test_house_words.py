"""A house's own ``[words]`` (docs/reference/ruleset-format.md) in every message (audit of
rule sets, finding 6): a copy of rummy-2m.toml that says ``deal`` for a hand, ``set`` for a
group (match) and ``straight`` for a sequence (run) is told in those words by score-hand,
amend, standings, history, end-session, the disputes and ``ref night``; JSON keeps ref's
own values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import ref
from test_night import MELD, PROMPT, Night, flat, night_db  # noqa: F401

from rummyref.rules.resources import data_dir

HAND = ["--melded", "Bill=AS 2S 3S", "--held", "Bill=KS", "--melded", "Ben=9H 9D 9C", "--out", "Ben",
        "--held", "Larry=QD JD"]


@pytest.fixture
def words(tmp_path: Path) -> str:
    text = (data_dir() / "rulesets" / "rummy-2m.toml").read_text(encoding="utf-8")
    text = (text.replace("[words]\n", '[words]\nhand = "deal"\n').replace('group = "match"', 'group = "set"')
            .replace('sequence = "run"', 'sequence = "straight"'))
    path = tmp_path / "words.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def ok(*args: str) -> str:
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout


def test_score_hand_says_the_house_words(words):
    ok("new-session", "--ruleset", words)
    out = ok("score-hand", *HAND).splitlines()
    assert out[0] == "Deal 1 of rummy-2m: Rummy Night 1, deal 1 of the night, Bill dealt (entry 3)"
    assert out[1] == "player ┃ melded ┃ claimed ┃ held ┃ deal ┃ total"
    assert out[6:] == [
        "Arrangement used: each card with who laid it",
        "  AS 2S 3S (Bill)  [straight, ace low, 6] arranged by ref (the engine)",
        "  9H 9D 9C (Ben)  [set, 27] arranged by ref (the engine)",
        "Credits (each card where it sits, minus the cards held):",
        "  Bill: AS 2S 3S 6 (straight AS 2S 3S) - KS 10 held = -4",
        "  Ben: 9H 9D 9C 27 (set 9H 9D 9C) = 27",
        "  Larry: nothing laid - QD JD 20 held = -20",
        "Next: Ben deals (deal 2 of round 1).",
    ]


def test_the_json_keeps_refs_own_values(words):
    ok("new-session", "--ruleset", words)
    data = json.loads(ok("score-hand", *HAND, "--json"))
    assert [(m["kind"], m["note"]) for m in data["score"]["arrangement"]] == [
        ("sequence", "run, ace low"), ("group", "match")]
    assert "hand" in data and "hand_in_night" in data


def test_standings_amend_history_and_end_session_say_the_house_words(words):
    ok("new-session", "--ruleset", words)
    ok("score-hand", *HAND)
    standings = ok("standings").splitlines()
    assert standings[0] == "rummy-2m (rummy-2m), target 2,000,000: 1 deal over 1 Rummy Night"
    assert standings[1].split()[-2:] == ["deals", "avg/deal"]
    assert "Rummy Night 1 is open: Ben deals the next deal (A3)." in standings
    assert standings[-1].startswith("  night 1 (") and standings[-1].endswith(
        ", 1 deal): winner (night in progress); Bill -4, Ben 27, Larry -20")
    amended = ok("amend", "1", *HAND[:2], "--held", "Bill=", *HAND[4:], "--reason", "KS was melded").splitlines()
    assert amended[0] == "Deal 1 (amended) of rummy-2m: Rummy Night 1, deal 1 of the night, Bill dealt (entry 4)"
    assert "  Bill: AS 2S 3S 6 (straight AS 2S 3S) = 6" in amended
    history = ok("history").splitlines()
    assert "entry 4: deal 1, night 1 deal 1, Bill dealt AMENDS entry 3" in history
    assert "      AS 2S 3S (Bill)  [straight, ace low, 6] arranged by ref (the engine)" in history
    assert "      Ben: 9H 9D 9C 27 (set 9H 9D 9C) = 27" in history
    assert ok("history", "--session", "1").splitlines()[-1].startswith("Rummy Night 1: 1 deal; ")
    r = ref("void", "1", "--reason", "misdeal")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("Deal 1 (voided) of rummy-2m")
    r = ref("void", "1", "--reason", "again")
    assert r.exit_code == 4
    assert flat(r.stderr) == ("refused (B7): deal 1 was voided (entry 5) a voided deal stays voided; record what "
                              "happened as a new deal")


def test_end_session_counts_deals(words):
    ok("new-session", "--ruleset", words, "--players", "Bill,Ben")
    for _ in range(2):
        ok("score-hand", "--points", "Bill=10", "--points", "Ben=5")
    assert ok("end-session").splitlines()[0] == "Rummy Night 1 of rummy-2m is closed: 2 deals, 1 full round."


def test_dispute_designate_says_the_house_words(words):
    r = ref("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--ruleset", words, "--no-record")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == [
        "AD counts for the straight 2D 3D 4D: 1 point.",
        "Why:",
        "  1. B5    AD can join the straight 2D 3D 4D (as AD, 1 point); the set AS AH AC (as AD, 15 points)",
        "  2. B5    nothing was designated, so AD counts for the straight 2D 3D 4D",
        "  3. B5    the choice changes the score: 1 point in the straight, 15 points in the set",
        "  4. B6    not played on the set, so nothing is laid sideways and the straight stays open",
        "Can join:",
        "  the straight 2D 3D 4D -> AD 2D 3D 4D (1)",
        "  the set AS AH AC -> AS AH AD AC (15)",
    ]
    said = ref("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--ruleset", words, "--no-record",
               "--as", "set")
    assert said.stdout.splitlines()[0] == ("AD counts for the set AS AH AC: 15 points; the straight is cut off at "
                                           "its low end (B6).")
    data = json.loads(ref("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--ruleset", words,
                          "--no-record", "--as", "set", "--json").stdout)
    assert data["facts"]["designated"] == "match" and data["outcome"] == "match"
    bad = ref("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--ruleset", words, "--no-record",
              "--as", "run2")
    assert bad.exit_code == 3
    assert flat(bad.stderr) == "error: --as: 'run2' is neither straight nor set use --as straight or --as set"


def test_the_built_in_words_are_unchanged():
    ok("new-session")
    out = ok("score-hand", *HAND).splitlines()
    assert out[0] == "Hand 1 of rummy-2m: Rummy Night 1, hand 1 of the night, Bill dealt (entry 3)"
    assert "  AS 2S 3S (Bill)  [run, ace low, 6] arranged by ref (the engine)" in out
    assert "  Ben: 9H 9D 9C 27 (match 9H 9D 9C) = 27" in out
    assert ok("standings").splitlines()[0] == "rummy-2m (rummy-2m), target 2,000,000: 1 hand over 1 Rummy Night"


def test_ref_night_says_the_house_words(words, night_db):  # noqa: F811
    n = Night("--db", night_db, "--ruleset", words)
    shown = n.answer(PROMPT, "cards")
    assert "Next: deal 1 of Rummy Night 1 (deal 1 of rummy-2m): Bill deals." in flat(shown)
    n.answer(MELD.format("Bill"), "AS 2S 3S")
    n.answer("Bill left in hand (cards; blank: none): ", "KS")
    n.answer(MELD.format("Ben"), "9H 9D 9C")
    n.answer("Ben left in hand (cards; blank: none): ", "")
    n.answer(MELD.format("Larry"), "")
    n.answer("Larry left in hand (cards; blank: none): ", "QD JD")
    n.answer("Who went out? (name; blank: nobody): ", "Ben")
    n.answer("Rummy! claims (NAME=CARD, comma between; blank: none): ", "")
    preview = n.answer("Record it? (Enter: yes / fix NAME / drop): ", "")
    assert "Deal 1 (Bill dealt), if recorded:" in preview
    assert "[straight, ace low, 6]" in preview and "(set 9H 9D 9C)" in preview
    written = n.answer(PROMPT, "end")  # mid-round: refused (A4), in the house's words
    assert "Recorded: deal 1 of rummy-2m, deal 1 of the night (entry 3)." in flat(written)
    refused = n.expect(PROMPT)
    assert "there is no 'last deal' call" in flat(refused)
    n.child.sendeof()
    n.finish()




# -- the session word in Gin and Simple Rummy; ref stats and ref chart -------------------------
# [words] has no session key: a sitting's name is the house's [house] session_word (and
# session_short), which a rule set file may give with a closed roster (docs/reference/
# ruleset-format.md). Gin and Simple Rummy said "Session N" whatever the file said.

GIN_KNOCK = ["--hand", "Ann=5H 6H 7H 2S 2D 2C KC KD KS AH", "--hand", "Bob=8H 9H 4H 3S 4S 5S QC QD 7C 7D",
             "--knock", "Ann"]
SIMPLE = ["--hand", "Ann=AC AD", "--hand", "Bob=2C 2D", "--hand", "Cy=3C 3D"]


def _house_copy(tmp_path: Path, name: str) -> str:
    """A copy of a built-in rule set whose house calls a hand a deal and a session a sitting."""
    text = (data_dir() / "rulesets" / f"{name}.toml").read_text(encoding="utf-8")
    text = (text.replace("closed_roster = false", "closed_roster = true").replace("[words]\n", '[words]\nhand = "deal"\n')
            + '\n[house]\nsession_word = "Sitting"\nsession_short = "sitting"\n')
    path = tmp_path / f"{name}-house.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def gin_words(tmp_path: Path) -> str:
    return _house_copy(tmp_path, "gin")


@pytest.fixture
def simple_words(tmp_path: Path) -> str:
    return _house_copy(tmp_path, "simple-rummy")


def test_gin_says_the_house_session_word(gin_words):
    assert ok("new-session", "--ruleset", gin_words, "--players", "Ann,Bob").splitlines()[1] == (
        "Sitting 1 of gin is open.")
    assert ok("score-hand", *GIN_KNOCK).splitlines()[0] == "Deal 1 of gin (Sitting 1, entry 3)"
    assert ok("standings").splitlines()[0] == "gin (gin), to 100: 1 deal; Sitting 1 is open"
    assert ok("history", "--session", "1").splitlines()[-1] == "Sitting 1: 1 deal; points Ann 33, Bob 0"
    assert ok("end-session").splitlines()[0] == (
        "Sitting 1 of gin is closed: 1 deal; points this sitting: Ann 33, Bob 0.")
    r = ref("end-session")
    assert r.exit_code == 4
    assert flat(r.stderr) == "refused: no Sitting of gin is open ref new-session opens one"
    data = json.loads(ok("standings", "--json"))
    assert data["sessions"] == 1 and data["open_session"] is None  # the JSON keeps ref's own keys


def test_simple_rummy_says_the_house_session_word(simple_words):
    opened = ok("new-session", "--ruleset", simple_words, "--players", "Ann,Bob,Cy", "--cards", "2").splitlines()
    assert opened[1] == "Sitting 1 of simple-rummy is open."
    assert ok("score-hand", *SIMPLE).splitlines()[0] == (
        "Deal 1 of simple-rummy (Sitting 1, deal 1 of the sitting): Ann dealt, Bob played first.")
    assert ok("standings").splitlines()[0] == "simple-rummy (simple-rummy): 1 deal over 1 Sitting; Sitting 1 is open"
    assert ok("history", "--session", "1").splitlines()[-1] == (
        "Sitting 1: 1 deal; deal wins Ann 1, Bob 0, Cy 0 (most: Ann).")
    assert ok("end-session").splitlines()[:2] == [
        "Sitting 1 of simple-rummy is closed: 1 deal; deal wins this sitting: Ann 1, Bob 0, Cy 0.",
        "Most deals won this sitting: Ann.",
    ]
    r = ref("new-session", "--cards", "2")
    assert r.exit_code == 3
    assert r.stderr.splitlines()[-1] == "Simple Rummy seats whoever is at the table each sitting (S1)"
    ok("new-session", "--players", "Ann,Bob,Cy", "--cards", "2")
    r = ref("score-hand", "--hand", "Ann=AC W", "--hand", "Bob=2C 2D", "--hand", "Cy=3C 3D")
    assert r.exit_code == 3
    assert flat(r.stderr).startswith("error: 1 WILDCARD in the hands, but this sitting was opened with 0 WILDCARDs")


def test_simple_rummy_abandoned_sitting(simple_words):
    ok("new-session", "--ruleset", simple_words, "--players", "Ann,Bob,Cy", "--cards", "2")
    assert ok("end-session").splitlines()[:2] == [
        "Sitting 1 of simple-rummy is closed: 0 deals.",
        "No deal counted: the sitting is closed as abandoned and does not count as a Sitting.",
    ]
    r = ref("chart")
    assert r.exit_code == 0 and r.stdout == ""
    assert flat(r.stderr) == "nothing to chart yet: simple-rummy has no Sitting counted (ref new-session opens one)"


def test_stats_and_chart_say_the_house_words_simple(simple_words):
    ok("new-session", "--ruleset", simple_words, "--players", "Ann,Bob,Cy", "--cards", "2")
    ok("score-hand", *SIMPLE)
    ok("end-session")
    assert ok("stats").splitlines() == [
        "Statistics of simple-rummy (simple-rummy): 1 deal in force, 1 Sitting (1 closed)",
        "player  deals  dropped  sittings  avg count  best count  worst count",
        "Ann         1        0         1        2.0  2 (deal 1)   2 (deal 1)",
        "Bob         1        0         1        4.0  4 (deal 1)   4 (deal 1)",
        "Cy          1        0         1        6.0  6 (deal 1)   6 (deal 1)",
        "player  deals won  matches won  went out  sittings won  sitting streak  deal streak",
        "Ann             1            0         0             1       1 (now 1)    1 (now 1)",
        "Bob             0            0         0             0       0 (now 0)    0 (now 0)",
        "Cy              0            0         0             0       0 (now 0)    0 (now 0)",
        "Deals: played to the end; dropped: dropped out (S14), not counted as played.",
        "A deal goes to its recorded winner, a sitting to the most deals won (ties: all of them);",
        "streaks: the most sittings (deals) won in a row, and the run going on now.",
        "Head to head (closed sittings won-lost-level, on deals won):",
        "     vs Ann  vs Bob  vs Cy",
        "Ann       -   1-0-0  1-0-0",
        "Bob   0-1-0       -  0-0-1",
        "Cy    0-1-0   0-0-1      -",
    ]
    lines = ok("chart").splitlines()
    assert lines[0] == "simple-rummy: deals won after each deal of the sitting (1 deal)"
    assert lines[-3].strip() == "deal"
    assert lines[-2:] == ["o Ann: 1 deal won, average count 2.0   ^ Bob: 0 deals won, average count 4.0",
                          "* Cy: 0 deals won, average count 6.0"]
    data = json.loads(ok("chart", "--json"))
    assert data["measure"] == "games won" and data["by"] == "game"  # ref's own values
    assert "unit" not in data and "session" not in data


def test_stats_say_the_house_words_gin(gin_words):
    ok("new-session", "--ruleset", gin_words, "--players", "Ann,Bob")
    ok("score-hand", *GIN_KNOCK)
    assert ok("stats").splitlines()[:12] == [
        "Statistics of gin (gin): 1 deal in force, 1 Sitting (0 closed)",
        "player  deals  sittings  points  avg/deal    best deal",
        "Ann         1         1      33      33.0  33 (deal 1)",
        "Bob         1         1       0       0.0            -",
        "player  deals won  went out  deal streak",
        "Ann             1         1    1 (now 1)",
        "Bob             0         0    0 (now 0)",
        "Points: won in the deals, before the boxes and the game bonus (G10, G11).",
        "A deal goes to the player who scored it (a dead deal to nobody); went out:",
        "ended the deal by a knock (undercut or not), gin or big gin;",
        "streak: the most deals won in a row, and the run going on now.",
        "Milestones (who got there, in order):",
    ]


def test_stats_say_the_house_words_long(words):
    ok("new-session", "--ruleset", words, "--players", "Bill,Ben")
    for _ in range(2):
        ok("score-hand", "--points", "Bill=10", "--points", "Ben=5")
    ok("end-session")
    assert ok("stats").splitlines()[:9] == [
        "Statistics of rummy-2m (rummy-2m): 2 deals in force, 1 Rummy Night (1 closed)",
        "player  deals  nights  avg/deal  avg/night    best deal   worst deal",
        "Bill        2       1      10.0       20.0  10 (deal 1)  10 (deal 1)",
        "Ben         2       1       5.0       10.0   5 (deal 1)   5 (deal 1)",
        "player  deals won  went out  Rummy! won  nights won  night streak  deal streak",
        "Bill            2         0           0           1     1 (now 1)    2 (now 2)",
        "Ben             0         0           0           0     0 (now 0)    0 (now 0)",
        "A deal goes to its best score, a night to the most points (ties: all of them);",
        "streaks: the most nights (deals) won in a row, and the run going on now.",
    ]


def test_simple_rummy_match_lines_say_the_house_word_for_a_game(simple_words):
    """The match line (S17) counts the house's games in its word: ``deal wins``, at
    new-session, score-hand, standings and end-session (audit stop39 #2: it said ``game wins``
    two lines below ``deal wins this sitting``)."""
    match0 = "Match 1: deal wins Ann 0, Bob 0, Cy 0 (first to 2 takes the match); Bob plays first next (S17)"
    match1 = "Match 1: deal wins Ann 1, Bob 0, Cy 0 (first to 2 takes the match); Ann plays first next (S17)"
    assert match0 in ok("new-session", "--ruleset", simple_words, "--players", "Ann,Bob,Cy", "--cards", "2")
    assert match1 in ok("score-hand", *SIMPLE)
    assert match1 in ok("standings")
    closed = ok("end-session")
    assert match1 in closed and "game wins" not in closed
