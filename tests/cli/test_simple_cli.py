"""End-to-end: Simple Rummy sessions, games and matches through the real CLI and store (issue 4)."""

from __future__ import annotations

import json

import pytest
from cli_helpers import ref, ref_json, ref_subprocess

PLAYERS = ["--players", "Ann,Bob,Cy"]  # Ann, listed first, deals; Bob plays first: Bob, Cy, Ann


def ok(*args, input=None):
    result = ref(*args, input=input)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def refused(code: int, record, *args, input=None):
    """A refusal exits with ``code`` and writes nothing: the SQLite files (with WAL/SHM) stay byte
    for byte the same (on PostgreSQL: every row of every table)."""
    before = record.snapshot()
    result = ref(*args, input=input)
    assert result.exit_code == code, result.stdout + result.stderr
    assert record.snapshot() == before
    return result


def session(*extra: str):
    """A Simple Rummy session of Ann, Bob and Cy; two cards dealt unless ``extra`` says otherwise."""
    cards = () if "--cards" in extra else ("--cards", "2")
    return ok("new-session", "--ruleset", "simple-rummy", *PLAYERS, *extra, *cards)


# -- the end-of-game table -------------------------------------------------------------------
# (id, session options, score-hand options, exit code, winner, counts (subset), words in the reason/stderr)

# Each case names the cards dealt (S1): every hand holds them, the player who went out one more.
H_ANN = "Ann=2H 3H 4H 4S 4D"  # SPEC: 4S 4H 4D melded, 2H 3H left: count 5
H_BOB = "Bob=KS QD 9C 8C 2D"  # nothing melds: 13 + 12 + 9 + 8 + 2 = 44
H_CY = "Cy=AS AD AC 5H 5S"  # AS AD AC melded: 5 + 5 = 10
H_BOB2 = "Bob=KS QD JH 8S 7D"  # 56
C5, C4, C3, C2 = (["--cards", str(n)] for n in (5, 4, 3, 2))
CY_OUT_ONE_LEFT = "Cy=6H 7H 8H 9H 10H 5S"  # a 5-card run and the 5S: count 5
CASES = [
    # S13 counts, S10 lowest count wins when the stock ran out
    ("S13-spec-5", C5, ["--hand", H_ANN, "--hand", H_BOB, "--hand", H_CY], 0, "Ann",
     {"Ann": 5, "Bob": 44, "Cy": 10}, ["S10", "lowest count, 5"]),
    ("S13-faces", C3, ["--hand", "Ann=JS QH KD", "--hand", "Bob=AC 2S 3D", "--hand", "Cy=10D 10S 9H"], 0, "Bob",
     {"Ann": 36, "Bob": 6, "Cy": 29}, ["S10"]),
    ("S13-aces-high-run", C4, ["--hand", "Ann=QH KH AH 2C", "--hand", "Bob=3C 5D 7S 9H", "--hand",
     "Cy=4C 6D 8S 10H"], 0, "Ann", {"Ann": 2, "Bob": 24}, ["S10"]),
    ("S13-no-round-corner", C3, ["--hand", "Ann=KH AH 2H", "--hand", "Bob=3C AD 2S", "--hand", "Cy=4C 5D 6S"], 0,
     "Bob", {"Ann": 16}, ["S10"]),
    ("S10-stock", C2, ["--hand", "Ann=9S 9D", "--hand", "Bob=8S 8D", "--hand", "Cy=7S 7D"], 0, "Cy",
     {"Ann": 18, "Bob": 16, "Cy": 14}, ["S10", "declined the discard pile"]),
    # S9 going out
    ("S9-out-one-left", C5, ["--hand", H_ANN, "--hand", H_BOB, "--hand", CY_OUT_ONE_LEFT, "--out", "Cy"], 0, "Cy",
     {"Cy": 5}, ["S9", "went out"]),
    ("S9-out-all-melded", C5, ["--hand", H_ANN, "--hand", H_BOB, "--hand", "Cy=5C 6C 7C 8S 8D 8H", "--out", "cy"],
     0, "Cy", {"Cy": 0}, ["S9"]),
    ("S9-out-beats-lower-count", C5, ["--hand", "Ann=AC AS 2S 3D 2H", "--hand", H_BOB, "--hand",
     "Cy=5H 6H 7H 8H 9H KH", "--out", "Cy"], 0, "Cy", {"Ann": 9, "Cy": 13}, ["S9"]),
    ("S9-refused-not-out", C5, ["--hand", H_ANN, "--hand", "Bob=KS QD 9C 8C 2D 7S", "--hand", H_CY, "--out", "Bob"],
     4, None, {}, ["refused (S9)", "does not go out", "best arrangement of Bob's hand"]),
    ("S9-refused-two-left", C5, ["--hand", H_ANN, "--hand", H_BOB, "--hand", "Cy=AS AD AC 5H 9S 2C", "--out", "Cy"],
     4, None, {}, ["refused (S9)"]),
    ("S9-refused-a-hand-too-small", C5, ["--hand", H_ANN, "--hand", H_BOB, "--hand", "Cy=AS AD AC 5H", "--out", "Cy"],
     4, None, {}, ["refused (S9)", "Cy's hand has 4 cards", "the player who went out holds 6"]),
    # S11 WILDCARDs when nobody went out
    ("S11-wild-cannot-win", ["--wildcards", "1", *C3], ["--hand", "Ann=2H 3H W", "--hand", "Bob=AS 2D 2C",
     "--hand", "Cy=KS KD 9C"], 0, "Bob", {"Ann": 0, "Bob": 5}, ["S11", "Ann holds a WILDCARD"]),
    ("S11-unmelded-wild-counts-0", ["--wildcards", "1", *C2], ["--hand", "Ann=W 5C", "--hand", "Bob=6C 6D",
     "--hand", "Cy=7C 7D"], 0, "Bob", {"Ann": 5, "Bob": 12}, ["S11"]),
    ("S11-nobody-can-win", ["--players", "Ann,Bob", "--wildcards", "2", *C2], ["--hand", "Ann=W 5H",
     "--hand", "Bob=W 6H"], 0, None, {"Ann": 5, "Bob": 6}, ["S11", "Nobody can win"]),
    ("S11-wild-may-go-out", ["--wildcards", "1", *C3], ["--hand", "Ann=2H 3H W 9C", "--hand", "Bob=AS 2D 5C",
     "--hand", "Cy=KS QC 8D", "--out", "Ann"], 0, "Ann", {"Ann": 9}, ["S9"]),
    # S12 equal low counts: the tied player latest in turn order (furthest to the left of the first player)
    ("S12-bob-cy", C2, ["--hand", "Ann=KS KD", "--hand", "Bob=AS 2D", "--hand", "Cy=AC 2C"], 0, "Cy",
     {"Bob": 3, "Cy": 3}, ["S12", "Bob, Cy, Ann"]),
    ("S12-bob-ann", C2, ["--hand", "Ann=AC 2C", "--hand", "Bob=AS 2D", "--hand", "Cy=KS KD"], 0, "Ann",
     {"Ann": 3, "Bob": 3}, ["S12"]),
    ("S12-other-first-player", ["--first-dealer", "Ann=2C", "--first-dealer", "Bob=3C", "--first-dealer", "Cy=KS",
     *C2], ["--hand", "Ann=AD 2C", "--hand", "Bob=AS 2D", "--hand", "Cy=KD KS"], 0, "Bob", {"Ann": 3, "Bob": 3},
     ["S12", "Ann, Bob, Cy"]),
    ("S12-three-way", C2, ["--hand", "Ann=3C AS", "--hand", "Bob=3D AH", "--hand", "Cy=3H AC"], 0, "Ann",
     {"Ann": 4, "Bob": 4, "Cy": 4}, ["S12"]),
    # S14 dropping out
    ("S14-dropped-low-cannot-win", C2, ["--hand", "Ann=AC AD", "--hand", "Bob=5C 5D", "--hand", "Cy=9C 9D",
     "--dropped", "Ann"], 0, "Bob", {"Ann": 2, "Bob": 10}, ["S14", "dropped out"]),
    ("S14-dropped-no-hand", C2, ["--hand", "Ann=6C 6D", "--hand", "Bob=5C 5D", "--dropped", "Cy"], 0, "Bob",
     {"Ann": 12, "Bob": 10}, ["S14"]),
    ("S14-dropped-cannot-go-out", C2, ["--hand", "Ann=6C 6D", "--hand", "Bob=5C 5D", "--hand", "Cy=2S 3S 4S",
     "--dropped", "Cy", "--out", "Cy"], 4, None, {}, ["refused (S14)"]),
    # S15 tie game
    ("S15-tie", C5, ["--hand", H_ANN, "--hand", H_BOB, "--hand", H_CY, "--tie"], 0, None,
     {"Ann": 5, "Bob": 44, "Cy": 10}, ["S15", "tie game"]),
    ("S15-tie-and-out", C5, ["--hand", H_ANN, "--hand", H_BOB, "--hand", CY_OUT_ONE_LEFT, "--tie", "--out", "Cy"],
     3, None, {}, ["--out and --tie"]),
    # V1 Going Out Major / Minor
    ("V1-major-refuses-one-left", ["--variation", "major", *C5], ["--hand", H_ANN, "--hand", H_BOB,
     "--hand", CY_OUT_ONE_LEFT, "--out", "Cy"], 4, None, {}, ["refused (V1)"]),
    ("V1-major-all-melded", ["--variation", "major", *C5], ["--hand", H_ANN, "--hand", H_BOB,
     "--hand", "Cy=AS AD AC 7H 8H 9H", "--out", "Cy"], 0, "Cy", {"Cy": 0}, ["V1", "Going Out Major"]),
    ("V1-minor-six-card-run", ["--variation", "minor", *C5], ["--hand", H_ANN, "--hand", H_BOB2,
     "--hand", "Cy=3C 4C 5C 6C 7C 8C", "--out", "Cy"], 0, "Cy", {"Cy": 0}, ["V1", "exactly one"]),
    ("V1-minor-not-two-threes", ["--variation", "minor", *C5], ["--hand", H_ANN, "--hand", H_BOB2,
     "--hand", "Cy=5S 5H 5D 9C 10C JC", "--out", "Cy"], 4, None, {}, ["refused (V1)"]),
    ("V1-minor-five-plus-one", ["--variation", "minor", *C5], ["--hand", H_ANN, "--hand", H_BOB,
     "--hand", "Cy=2C 3C 4C 5C 6C KD", "--out", "Cy"], 0, "Cy", {"Cy": 13}, ["V1"]),
    # V2 Go Out
    ("V2-low-count-refused", ["--variation", "go-out", *C5], ["--hand", H_ANN, "--hand", H_BOB, "--hand", H_CY], 4,
     None, {}, ["refused (V2)", "only when someone goes out"]),
    ("V2-out", ["--variation", "go-out", *C5], ["--hand", H_ANN, "--hand", H_BOB, "--hand", CY_OUT_ONE_LEFT,
     "--out", "Cy"], 0, "Cy", {"Cy": 5}, ["S9"]),
    ("V2-tie", ["--variation", "go-out", *C5], ["--hand", H_ANN, "--hand", H_BOB, "--hand", H_CY, "--tie"], 0, None,
     {}, ["S15"]),
    # V3 Sequences Rummy
    ("V3-spec-456-7WW", ["--variation", "sequences", "--wildcards", "3", *C5], ["--hand", H_BOB,
     "--hand", "Ann=9S 9D 10S JC 3C", "--hand", "Cy=4H 5H 6H 7H W W", "--out", "Cy"], 0, "Cy", {"Cy": 0}, ["V3"]),
    ("V3-wild-triple-is-a-sequence", ["--variation", "sequences", "--wildcards", "3", *C5], ["--hand", H_BOB,
     "--hand", "Ann=9S 9D 10S JC 3C", "--hand", "Cy=4H 5H 6H W W W", "--out", "Cy"], 0, "Cy", {"Cy": 0}, ["V3"]),
    ("V3-group-is-not-enough", ["--variation", "sequences", "--wildcards", "3", *C5], ["--hand", H_BOB2,
     "--hand", "Ann=9S 9D 10S 3C 2C", "--hand", "Cy=5S 5H 5D 9C 10C JC", "--out", "Cy"], 4, None, {},
     ["refused (V3)"]),
    ("V3-needs-a-natural-sequence", ["--variation", "sequences", "--wildcards", "3", *C5], ["--hand", H_BOB2,
     "--hand", "Ann=9S 9D 10S 3C 2C", "--hand", "Cy=4H 5H W 8C 9C W", "--out", "Cy"], 4, None, {},
     ["refused (V3)"]),
    ("V3-low-count-still-allowed", ["--variation", "sequences", "--wildcards", "3", *C4], ["--hand",
     "Ann=9S 9D 10S 3C", "--hand", "Bob=8S AC AD 2C", "--hand", "Cy=4H 5H 6H W"], 0, "Bob", {"Bob": 12}, ["S11"]),
    # V5 Four 7's
    ("V5-four-sevens", ["--variation", "four-sevens", *C5], ["--hand", "Ann=AC 2S 3D 4H 6C", "--hand", H_BOB,
     "--hand", "Cy=7S 7H 7D 7C KD", "--four-sevens", "Cy"], 0, "Cy", {"Cy": 13}, ["V5", "four natural 7s"]),
    ("V5-not-in-play", C5, ["--hand", "Ann=AC 2S 3D 4H 6C", "--hand", H_BOB, "--hand", "Cy=7S 7H 7D 7C KD",
     "--four-sevens", "Cy"], 4, None, {}, ["refused (V5)", "not in play"]),
    ("V5-wild-is-no-seven", ["--variation", "four-sevens", "--wildcards", "1", *C5], ["--hand",
     "Ann=AC 2S 3D 4H 6C", "--hand", H_BOB, "--hand", "Cy=7S 7H 7D W KD", "--four-sevens", "Cy"], 4, None, {},
     ["refused (V5)", "missing 7C"]),
    # the facts themselves
    ("S2-too-many-wildcards", ["--wildcards", "1"], ["--hand", "Ann=W 2C", "--hand", "Bob=W 3C", "--hand", "Cy=4C"],
     3, None, {}, ["2 WILDCARDs in the hands", "(fixed at new-session)", "session, S2)"]),
    ("one-deck", [], ["--hand", "Ann=2C 3C", "--hand", "Bob=2C", "--hand", "Cy=4C"], 3, None, {}, ["2C"]),
    ("stranger", [], ["--hand", "Ann=2C", "--hand", "Bob=3C", "--hand", "Cy=4C", "--hand", "Dee=5C"], 3, None, {},
     ["'Dee' (hand) is not at this table"]),
    ("missing-hand-no-terminal", [], ["--hand", "Ann=2C", "--hand", "Bob=3C"], 3, None, {},
     ["no hand given for Cy", "no terminal"]),
]


def test_the_table_covers_every_end_of_game_rule():
    covered = " ".join(" ".join(c[6]) + " " + c[0] for c in CASES)
    for rule in ("S9", "S10", "S11", "S12", "S13", "S14", "S15", "V1", "V2", "V3", "V5"):
        assert rule in covered, rule
    assert len(CASES) >= 25


@pytest.mark.parametrize("name,session_args,hand_args,code,winner,counts,words", CASES, ids=[c[0] for c in CASES])
def test_end_of_game(record, monkeypatch, name, session_args, hand_args, code, winner, counts, words):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "0")
    args = list(session_args)
    if "--players" in args:  # a case with its own table replaces the default players
        ok("new-session", "--ruleset", "simple-rummy", *args)
    else:
        session(*args)
    if code:
        r = refused(code, record, "score-hand", *hand_args)
        for w in words:
            assert w in r.stderr, (w, r.stderr)
        assert ref_json("standings")["games"] == 0
        return
    r = ok("score-hand", *hand_args, "--json")
    data = json.loads(r.stdout)
    assert data["winner"] == winner
    for n, c in counts.items():
        assert data["counts"][n] == c, (n, data["counts"])
    for w in words:
        assert w in data["reason"] or w in " ".join(data["rules"]), (w, data["reason"])
    assert data["match"]["game_wins"].get(winner, 0) == (1 if winner else 0)
    human = ref("history")
    assert f"winner: {winner or 'none'}" in human.stdout


# -- sessions --------------------------------------------------------------------------------


def test_new_session_prints_dealer_first_player_and_variations():
    r = session("--cards", "7", "--wildcards", "3", "--variation", "sequences", "--variation", "four-sevens")
    out = r.stdout
    assert "Session 1 of simple-rummy is open." in out
    assert "Variations in force: Sequences Rummy (V3), Four 7's (V5)." in out
    assert "Ann deals; Bob plays first." in out and "Turn order (clockwise): Bob, Cy, Ann." in out


def test_first_dealer_from_turned_up_cards():
    data = ref_json("new-session", "--ruleset", "simple-rummy", *PLAYERS, "--first-dealer", "Ann=5D",
                    "--first-dealer", "Bob=W 9C", "--first-dealer", "Cy=9S", "--wildcards", "1")
    assert data["dealer"] == "Cy" and data["first_player"] == "Ann"  # 9S beats 9C: spades first (S3)
    assert data["first_dealer"]["dealer"] == "Cy"
    assert data["turn_order"] == ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize(
    "args,code,words",
    [
        (["--players", "Ann"], 4, "refused (S1)"),
        (["--players", ",".join(f"P{i}" for i in range(11))], 4, "refused (S1)"),
        (["--players", "A,B,C,D", "--cards", "8"], 4, "refused (S1)"),
        (["--players", "A,B,C,D,E,F,G,H", "--cards", "3"], 4, "refused (S1)"),
        (["--players", "A,B,C", "--wildcards", "4"], 4, "refused (S2)"),
        (["--players", "A,B,C", "--variation", "sequences", "--wildcards", "2"], 4, "refused (S2)"),
        (["--players", "A,B,C", "--variation", "major", "--variation", "minor"], 4, "exclude each other"),
        (["--players", "A,B,C", "--variation", "pinochle"], 5, "spread-out"),
        (["--players", "A,B,a"], 3, "named twice"),
        (["--players", "A,B,C", "--opening", "A=10"], 3, "--opening is for a long game"),
        (["--players", "A,B,C", "--first-dealer", "A=KS"], 3, "no cards turned up for B, C"),
    ],
)
def test_session_refusals_write_nothing(record, args, code, words):
    session("--game", "other")  # the database exists; refusals must leave it as it is
    r = refused(code, record, "new-session", "--ruleset", "simple-rummy", "--game", "g2", *args)
    assert words in r.stderr


def test_end_session_any_time_and_a_new_table_later(record):
    session()
    ok("score-hand", "--hand", "Ann=AC AD", "--hand", "Bob=2C 2D", "--hand", "Cy=3C 3D")
    r = ok("end-session")  # one game, not a "full round": allowed in Simple Rummy
    assert "Session 1 of simple-rummy is closed: 1 game" in r.stdout
    # a different set of players: a newcomer (Dee) and an absentee (Cy); other cards, WILDCARDs, variations
    data = ref_json("new-session", "--players", "Dee,Ann,Bob", "--cards", "3", "--wildcards", "2",
                    "--variation", "go-out")
    assert data["newcomers"] == ["Dee"] and data["new_match"] is True
    assert data["table"]["variations"] == ["go-out"] and data["dealer"] == "Dee" and data["first_player"] == "Ann"
    assert data["match"]["number"] == 2 and data["match"]["first_player"] == "Ann"
    refused(4, record, "score-hand", "--hand", "Dee=AS AH KC", "--hand", "Ann=2S 2H KD",
            "--hand", "Bob=3S 3H KH")  # V2 now
    g = ref_json("score-hand", "--hand", "Dee=AS AH KC", "--hand", "Ann=2S 3S 4S 9D", "--hand", "Bob=5S 5H KH",
                 "--out", "Ann")
    assert g["winner"] == "Ann" and g["first_player"] == "Ann" and g["dealer"] == "Dee"
    st = ref_json("standings")
    assert [p["name"] for p in st["players"]] == ["Ann", "Bob", "Cy", "Dee"]
    assert {p["name"]: p["at_table"] for p in st["players"]} == {"Ann": True, "Bob": True, "Cy": False, "Dee": True}
    assert st["match"]["abandoned"] == [1]  # match 1 (Ann 1-0) was left unfinished when the table changed
    ok("verify")


def test_same_players_continue_the_match_and_keep_the_first_player(record):
    session()
    ok("score-hand", "--hand", "Ann=9C 9D", "--hand", "Bob=8C 8D", "--hand", "Cy=AC AD")  # Cy wins
    ok("end-session")
    r = refused(4, record, "new-session", "--players", "Cy,Bob,Ann", "--first-dealer", "Ann=KS",
                "--first-dealer", "Bob=2C", "--first-dealer", "Cy=3C")
    assert "refused (S17)" in r.stderr
    data = ref_json("new-session", "--players", "Cy,Bob,Ann", "--cards", "5")  # new seating, same people
    assert data["new_match"] is False and data["first_player"] == "Cy" and data["dealer"] == "Ann"
    assert data["match"]["game_wins"]["Cy"] == 1


def test_a_second_session_while_one_is_open_is_refused(record):
    session()
    r = refused(4, record, "new-session", *PLAYERS)
    assert "session 1 of simple-rummy is still open" in r.stderr


# -- a whole match ---------------------------------------------------------------------------

MATCH = [
    # (hands and ending, expected first player, winner)
    (["--hand", "Ann=AC AD", "--hand", "Bob=5C 5D", "--hand", "Cy=9C 9D"], "Bob", "Ann"),
    (["--hand", "Ann=2D 2H", "--hand", "Bob=6D 6H", "--hand", "Cy=10D 10H", "--tie"], "Ann", None),
    (["--hand", "Ann=KH QH", "--hand", "Bob=JH JS", "--hand", "Cy=2S 3S 4S", "--out", "Cy"], "Ann", "Cy"),
    (["--hand", "Ann=7S 7H 7D", "--hand", "Bob=JS JD", "--hand", "Cy=QS QD", "--out", "Ann"], "Cy", "Ann"),
]


def test_a_whole_match_through_the_cli():
    session()
    for number, (args, first, winner) in enumerate(MATCH, 1):
        g = ref_json("score-hand", *args)
        assert (g["number"], g["first_player"], g["winner"]) == (number, first, winner)
    assert g["match"]["just_won"] == {"number": 1, "winner": "Ann", "score": "2-1-0",
                                      "game_wins": {"Ann": 2, "Bob": 0, "Cy": 1}, "games": 4}
    st = ref_json("standings")
    assert st["games"] == 4
    assert {p["name"]: (p["games"], p["game_wins"], p["matches_won"]) for p in st["players"]} == {
        "Ann": (4, 2, 1), "Bob": (4, 0, 0), "Cy": (4, 1, 0)}
    m = st["match"]
    assert m["number"] == 2 and m["games"] == 0 and m["first_player"] == "Ann"
    assert m["finished"][0]["winner"] == "Ann" and m["finished"][0]["score"] == "2-1-0"
    human = ok("standings").stdout
    assert "match 1: Ann won 2-1-0 in 4 games" in human and "Ann plays first next (S17)" in human
    # the next match: Ann (the last winner) plays first, Cy dealt
    g = ref_json("score-hand", "--hand", "Ann=9H 9S", "--hand", "Bob=AH AS", "--hand", "Cy=KC KD")
    assert g["first_player"] == "Ann" and g["dealer"] == "Cy" and g["match"]["number"] == 2
    history = ok("history").stdout
    assert "game 2, session 1 game 2, Cy dealt" in history and "ending: tie game" in history
    ok("verify")


def test_corrections_are_reflected_in_the_match():
    session()
    for args, _, _ in MATCH:
        ok("score-hand", *args)
    # game 4 is corrected: Ann did not go out after all; Cy has the lowest count and takes the match
    g = ref_json("amend", "4", "--reason", "Ann had no third seven", "--hand", "Ann=7S 7H",
                 "--hand", "Bob=JS AC", "--hand", "Cy=2H 3C")
    assert g["kind"] == "amend" and g["winner"] == "Cy" and g["first_player"] == "Cy"
    assert g["counts"] == {"Ann": 14, "Bob": 12, "Cy": 5}
    st = ref_json("standings")
    m = st["match"]
    assert m["number"] == 2 and m["first_player"] == "Cy"
    assert [(f["winner"], f["score"]) for f in m["finished"]] == [("Cy", "2-1-0")]
    assert {p["name"]: p["matches_won"] for p in st["players"]} == {"Ann": 0, "Bob": 0, "Cy": 1}
    # void game 1: Ann's first win no longer counts
    v = ref_json("void", "1", "--reason", "misdeal")
    assert v["kind"] == "void" and v["winner"] is None
    st = ref_json("standings")
    assert {p["name"]: p["game_wins"] for p in st["players"]} == {"Ann": 0, "Bob": 0, "Cy": 2}
    assert st["games"] == 3
    history = ok("history").stdout
    assert "AMENDS entry 6" in history and "VOIDS entry 3" in history and "reason: misdeal" in history
    ok("verify")


def test_interactive_prompting_for_missing_hands(monkeypatch):
    session()
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    # Bob's first answer repeats a card and is asked again; Cy's hand; blank ending: the stock ran out
    r = ref("score-hand", "--hand", "Ann=AC AD", "--json", input="2C 2C\n5C 5D\n3C 3D\n\n\n")
    assert r.exit_code == 0, r.stdout + r.stderr
    data = json.loads(r.stdout[r.stdout.index("{"):])  # CliRunner echoes the typed answers first
    assert data["counts"] == {"Ann": 2, "Bob": 10, "Cy": 6} and data["winner"] == "Ann"
    assert data["ending"]["kind"] == "stock-exhausted"
    asked = r.stderr
    assert asked.index("Bob's final hand") < asked.index("appears twice") < asked.index("Cy's final hand") < asked.index(
        "How did the game end?")


def test_a_player_who_dropped_out_can_be_answered_at_the_prompt(monkeypatch):
    """S14 at a terminal: "dropped" as the hand; the player's cards stay face down and cannot win."""
    session()
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    r = ref("score-hand", "--hand", "Ann=KC QD", "--json", input="dropped\n5C 5D\n\n\n")
    assert r.exit_code == 0, r.stdout + r.stderr
    data = json.loads(r.stdout[r.stdout.index("{"):])
    assert data["ending"]["dropped"] == ["Bob"]
    assert "Bob" not in data["counts"] and data["winner"] == "Cy"


def test_the_night_form_takes_dropped_as_a_hand():
    from rummyref.games.low_count.adjudicate import adjudicate
    from rummyref.games.low_count.form import GameForm
    from rummyref.games.low_count.table import SimpleTable
    from rummyref.rules.ruleset import load_ruleset

    table = SimpleTable.create(load_ruleset("simple-rummy"), ["Ann", "Bob", "Cy"], cards=3)
    form = GameForm(table, "Ann")
    answers = {("hand", "Ann"): "KC QD JH", ("hand", "Bob"): "dropped", ("hand", "Cy"): "5C 5D 6S", ("ending", ""): ""}
    for key in form.keys():
        form.values[key] = form.read(key, answers[key])
    facts = form.facts()
    hands, ending = facts.hands, facts.ending
    assert set(hands) == {"Ann", "Cy"} and ending.dropped == frozenset({"Bob"})
    assert adjudicate(table, "Ann", hands, ending).winner == "Cy"


# -- the rule sets do not leak ---------------------------------------------------------------


def test_rummy_2m_options_are_refused_for_simple_rummy(record):
    session()
    r = refused(3, record, "score-hand", "--melded", "Ann=7S 7H 7D", "--held", "Bob=2C", "--held", "Cy=3C")
    assert "--melded, --held are not for Simple Rummy games" in r.stderr
    assert "--hand" in r.stderr
    r = refused(3, record, "score-hand", "--points", "Ann=1", "--points", "Bob=2", "--points", "Cy=3")
    assert "--points is not for Simple Rummy games" in r.stderr


def test_simple_rummy_options_are_refused_for_rummy_2m(record):
    ok("new-session", "--game", "long")  # rummy-2m: Bill, Ben, Larry
    r = refused(3, record, "score-hand", "--hand", "Bill=7S 7H 7D")
    assert "--hand is not for Rummy 2,000,000 games" in r.stderr and "--melded" in r.stderr
    r = refused(3, record, "score-hand", "--tie", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    assert "--tie is not for Rummy 2,000,000 games" in r.stderr
    ok("end-session", "--game", "long")
    r = refused(3, record, "new-session", "--game", "long", "--cards", "7", "--variation", "major")
    assert "--cards, --variation are not for Rummy 2,000,000" in r.stderr


def test_rummy_2m_keeps_its_rules_beside_a_simple_rummy_game(record):
    session("--game", "quick")
    ok("new-session", "--game", "long")  # rummy-2m
    ok("score-hand", "--game", "long", "--points", "Bill=10", "--points", "Ben=0", "--points", "Larry=5")
    r = refused(4, record, "end-session", "--game", "long")  # A4: still a full round in rummy-2m
    assert "A4" in r.stderr
    r = refused(4, record, "new-session", "--game", "long", "--players", "Bill,Ben,Larry,Dee")
    assert "GEDDOWWWT" in r.stderr  # A1: the closed roster
    ok("score-hand", "--game", "quick", "--hand", "Ann=AC AD", "--hand", "Bob=2C 2D", "--hand", "Cy=3C 3D")
    ok("end-session", "--game", "quick")  # Simple Rummy: any time between games
    opened = ref_json("new-session", "--game", "quick", "--players", "Ann,Bob,Cy,Dee")  # newcomers are welcome
    assert opened["newcomers"] == ["Dee"] and opened["new_match"] is True
    assert opened["first_player"] == "Ann" and opened["dealer"] == "Dee"  # Ann won the last game (S17)
    assert ref_json("standings", "--game", "long")["target"] == 2_000_000
    assert ref_json("standings", "--game", "quick")["match"]["number"] == 2
    ok("verify")


# -- a real process on a real file -----------------------------------------------------------


def test_subprocess_against_a_real_file(tmp_path):
    db = tmp_path / "table.db"
    env = {"RUMMYREF_DB": str(tmp_path / "unused.db"), "RUMMYREF_INTERACTIVE": "0"}
    r = ref_subprocess("--db", str(db), "new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy",
                       "--variation", "minor", "--cards", "5", env=env)
    assert r.returncode == 0, r.stderr
    r = ref_subprocess("--db", str(db), "score-hand", "--hand", "Ann=2H 3H 4H 4S 4D", "--hand", H_BOB2,
                       "--hand", "Cy=3C 4C 5C 6C 7C 8C", "--out", "Cy", "--json", env=env)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["winner"] == "Cy" and data["counts"]["Ann"] == 5 and data["match"]["first_player"] == "Cy"
    before = db.read_bytes()
    r = ref_subprocess("--db", str(db), "score-hand", "--hand", "Ann=AS 2S 3D 4H 6C", "--hand", H_BOB2,
                       "--hand", "Cy=5S 5H 5D 9C 10C JC", "--out", "Cy", env=env)
    assert r.returncode == 4 and "refused (V1)" in r.stderr and db.read_bytes() == before
    r = ref_subprocess("--db", str(db), "verify", env=env)
    assert r.returncode == 0 and not (tmp_path / "unused.db").exists()


def test_the_dealer_is_checked_when_given(record):
    session()
    hands = ("--hand", "Ann=AC AD", "--hand", "Bob=2C 2D", "--hand", "Cy=3C 3D")
    r = refused(4, record, "score-hand", "--dealer", "Bob", *hands)
    assert "refused (S6)" in r.stderr and "Ann's deal" in r.stderr
    assert ref_json("score-hand", "--dealer", "ann", *hands)["dealer"] == "Ann"


def test_a_player_who_dropped_out_is_not_counted_as_playing_in_standings_or_stats():
    """S14: standings count a drop apart, as ref stats does (the two agree player by player)."""
    ok("new-session", "--ruleset", "simple-rummy", *PLAYERS)
    ok("score-hand", "--out", "Ann", "--dropped", "Cy", "--hand", "Ann=2S 3S 4S 5S 6S 7S 8S 9S",
       "--hand", "Bob=KS QD JC 9H 8D 2C 3C")
    st = ref_json("standings")
    assert {p["name"]: (p["games"], p["games_dropped"]) for p in st["players"]} == {
        "Ann": (1, 0), "Bob": (1, 0), "Cy": (0, 1)}
    stats = {p["name"]: p for p in ref_json("stats")["players"]}
    for p in st["players"]:
        assert (stats[p["name"]]["games_played"], stats[p["name"]]["games_dropped"]) == (p["games"], p["games_dropped"])
    human = ok("standings").stdout.splitlines()
    assert human[human.index("player  games  dropped  won  this match  matches") + 3].split() == [
        "Cy", "0", "1", "0", "0", "0"]
    assert "dropped: dropped out (S14), not counted as played." in ok("standings").stdout


def test_a_new_table_after_a_game_nobody_won_seats_its_first_player_first_if_seated(record):
    """S17: after a tie game the same player plays first, at a new table too (stop 48, audit
    simple-variations #6: ref end-session said "Bob plays first next", and then the first player
    listed dealt); when that player is not seated, the first player listed deals."""
    session("--cards", "3")
    ok("score-hand", "--hand", "Ann=2S 3S 4S", "--hand", "Bob=5H 6H 8C", "--hand", "Cy=9D 10D KC", "--tie")
    assert "Bob plays first next (S17)" in " ".join(ok("end-session").stdout.split())
    r = ok("new-session", "--players", "Dee,Ann,Cy", "--cards", "3")  # Bob is not at this table
    assert "winner of the last game" not in r.stdout and "Dee, listed first, deals" in r.stdout
    ok("end-session")  # no game: abandoned, it does not count
    r = ok("new-session", "--players", "Dee,Ann,Bob", "--cards", "3")
    assert "Dee, listed first, deals" not in r.stdout
    assert ("Ann deals; Bob plays first. Bob plays first again, as in the last game, which nobody won (S17)"
            in " ".join(r.stdout.split()))
    data = ref_json("standings")
    assert data["match"]["game_wins"] == {"Dee": 0, "Ann": 0, "Bob": 0}  # Cy is not in this match
    assert data["match"]["first_player"] == "Bob" and data["next_dealer"] == "Ann"
    assert "Cy 0" not in ref("standings").stdout


def test_a_new_table_seats_the_last_winner_first_and_says_so(record):
    session()
    ok("score-hand", "--hand", "Ann=9C 9D", "--hand", "Bob=8C 8D", "--hand", "Cy=AC AD")  # Cy wins
    ok("end-session")
    data = ref_json("new-session", "--players", "Dee,Cy,Bob", "--cards", "3")
    assert data["first_player"] == "Cy" and data["dealer"] == "Dee"  # Cy plays on Dee's left
    assert "as the winner of the last game (S17)" in data["how"]


def test_sequences_with_minor_going_out_blames_both_rules(record):
    """V3's sequences and V1 Minor's exactly one card left out: the hand holds two sequences,
    but not with one card left out; the refusal names both rules."""
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob", "--cards", "5",
       "--variation", "sequences", "--variation", "minor", "--wildcards", "3")
    r = refused(4, record, "score-hand", "--hand", "Ann=2H 3H 4H W W W", "--hand", "Bob=9S 9D KC QC 2C",
                "--out", "Ann")
    assert "refused (V3 with V1)" in r.stderr
    assert "and exactly one card left out" in " ".join(r.stderr.split())


def test_a_session_closed_with_no_game_counts_nowhere_and_is_said_to_be_abandoned(monkeypatch):
    """Audit, stop 35: the standings said "1 game over 2 sessions" where stats and the chart
    said 1, and the history called the empty session "every hand voided since it closed"."""
    from cli_helpers import ref, ref_json

    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-14T15:00")
    assert ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3").exit_code == 0
    assert ref("score-hand", "--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S",
               "--out", "Ann").exit_code == 0
    assert ref("end-session").exit_code == 0
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-28T15:00")
    assert ref("new-session", "--players", "Ann,Bob,Cy", "--cards", "3").exit_code == 0
    assert ref("end-session").exit_code == 0
    assert ref_json("standings")["sessions"] == ref_json("stats")["nights"] == 1
    assert ref("standings").stdout.splitlines()[0] == "simple-rummy (simple-rummy): 1 game over 1 session"
    said = " ".join(ref("history", "--session", "2").stdout.split())
    assert "Closed as abandoned (no game in force): it does not count as a session." in said
    assert ref_json("history", "--session", "2")["session_totals"]["abandoned"] is True


def _matches_won(command: str) -> dict[str, int]:
    return {p["name"]: p["matches_won"] for p in ref_json(command)["players"]}


def test_stats_set_a_match_aside_where_the_standings_do(monkeypatch):
    """Audit, stop 35: when Dee sat down, the standings set match 1 aside (Ann had one game win)
    and began match 2, but ``ref stats`` folded every game as one match and gave Ann a match."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-14T15:00")
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3")
    ok("score-hand", "--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S", "--out", "Ann")
    ok("end-session")
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-21T15:00")
    ok("new-session", "--players", "Ann,Bob,Cy,Dee", "--cards", "3")
    ok("score-hand", "--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S",
       "--hand", "Dee=10D 10C 4S", "--out", "Ann")
    assert _matches_won("stats") == _matches_won("standings") == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}
    # the same four again: the match goes on (S17), and Ann's second win takes it, in both
    ok("score-hand", "--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S",
       "--hand", "Dee=10D 10C 4S", "--out", "Ann")
    assert _matches_won("stats") == _matches_won("standings") == {"Ann": 1, "Bob": 0, "Cy": 0, "Dee": 0}
    text = ok("stats").stdout
    row = [line.split() for line in text.splitlines() if line.startswith("Ann ")][1]  # the second table
    assert row[:4] == ["Ann", "3", "1", "3"]  # games won 3, matches won 1, went out 3


def test_a_session_still_open_is_said_to_be_open_since_a_local_time(tmp_path):
    """Audit, stop 36: the refusal printed the stored UTC stamp ("2026-11-12T19:30:00+00:00")
    to a player in New York; times are shown in local time, as everywhere else."""
    db = str(tmp_path / "r.db")
    env = {"TZ": "America/New_York", "RUMMYREF_NOW": "2026-11-13T00:30"}
    opened = ref_subprocess("--db", db, "new-session", "--ruleset", "simple-rummy", *PLAYERS, "--cards", "2", env=env)
    assert opened.returncode == 0, opened.stderr
    r = ref_subprocess("--db", db, "new-session", *PLAYERS, "--cards", "2", env=env)
    assert r.returncode == 4
    assert "session 1 of simple-rummy is still open (since 2026-11-12 19:30)" in " ".join(r.stderr.split())
