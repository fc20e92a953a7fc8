"""Issue 14, items 3 and 9 at the command line, with the exact messages: every card error names
whose cards and which option (or prompt), a duplicate names both holders; and the wording
(``Hand 5 (amended)``, the WILDCARDs fixed at new-session, the rule set's own meld words, one
plural helper, real metavars). The same forms serve ``ref night``: one case through a pty."""

from __future__ import annotations

import pytest
from cli_helpers import ref
from test_night import MELD, PROMPT, Night, flat, night_db  # noqa: F401

HINT = "write a rank (A, 2-10, J, Q, K; T means 10)"


def first_line(result) -> str:
    """The error's first sentence, its line breaks (wrapped at 80 columns) undone."""
    assert result.exit_code == 3, result.stdout + result.stderr
    assert result.stdout == ""
    return flat(result.stderr).split(" write a rank")[0].split(" each card exists once")[0] \
        .split(" take out every W")[0].split(" use at most")[0].split(" the whole table holds")[0]


# -- item 3: errors say whose cards are wrong, at every option -------------------------------------

RUMMY_2M = ["--melded", "Bill=AS AH AC", "--held", "Ben=", "--held", "Larry="]


@pytest.mark.parametrize("args, said", [
    (RUMMY_2M + ["--held", "Bill=3x"], "error: unreadable card '3x' in Bill's --held cards (card 1, column 1)"),
    (RUMMY_2M + ["--held", "Bill=KS 3x"], "error: unreadable card '3x' in Bill's --held cards (card 2, column 4)"),
    (["--melded", "Bill=AS AH 3x", "--held", "Bill=", "--held", "Ben=", "--held", "Larry="],
     "error: unreadable card '3x' in Bill's --melded cards (card 3, column 7)"),
    (RUMMY_2M + ["--held", "Bill=", "--claim", "Ben=W=3x"],
     "error: unreadable card '3x' in Ben's --claim cards (card 1, column 3)"),  # the 3x's column, after W=
    (RUMMY_2M + ["--held", "Bill=AS"],
     "error: the AS appears twice (in Bill's --melded and Bill's --held), but there is only one deck"),
    (RUMMY_2M + ["--held", "Bill=W"],
     "error: 1 WILDCARD given, but this game was created with 0 WILDCARDs (fixed at new-session)"),
], ids=["held", "held-second-card", "melded", "claim", "duplicate", "wildcard"])
def test_rummy_2m_card_errors_name_player_and_option(args, said):
    assert ref("new-session").exit_code == 0
    assert first_line(ref("score-hand", *args)) == said


def test_a_wildcard_too_many_says_the_number_was_fixed_at_new_session():
    assert ref("new-session", "--wildcards", "1").exit_code == 0
    r = ref("score-hand", *RUMMY_2M, "--held", "Bill=W W")
    assert first_line(r) == "error: 2 WILDCARDs given, but this game was created with 1 WILDCARD (fixed at new-session)"
    assert "use at most 1 WILDCARD (W)" in flat(r.stderr)


SIMPLE = ["--ruleset", "simple-rummy", "--players", "Ann,Cy,Dee", "--game", "sr", "--cards", "2"]
STOCK_RAN_OUT = ["--hand", "Ann=9S 9D", "--hand", "Cy=8S 8D", "--hand", "Dee=7S 7D"]


@pytest.mark.parametrize("hands, said", [
    (["Ann=3x", "Cy=2C", "Dee=4D"], "error: unreadable card '3x' in Ann's --hand cards (card 1, column 1)"),
    (["Ann=2C 3D", "Cy=2C", "Dee=4D"],
     "error: the 2C appears twice (in Ann's --hand cards and Cy's --hand cards), but there is only one deck"),
    (["Ann=2C 2C", "Cy=3C", "Dee=4D"], "error: the 2C appears twice (in Ann's --hand cards), but there is only one deck"),
    (["Ann=W", "Cy=3C", "Dee=4D"],
     "error: 1 WILDCARD in the hands, but this session was opened with 0 WILDCARDs (fixed at new-session)"),
], ids=["unreadable", "duplicate-two-players", "duplicate-one-player", "wildcard"])
def test_simple_rummy_hand_errors_name_player_and_option(hands, said):
    assert ref("new-session", *SIMPLE).exit_code == 0
    args = [a for h in hands for a in ("--hand", h)]
    assert first_line(ref("score-hand", "--game", "sr", *args)) == said


@pytest.mark.parametrize("args, said", [
    (["--hand", "Al=3x", "--knock", "Al"], "error: unreadable card '3x' in Al's --hand cards (card 1, column 1)"),
    (["--hand", "Al=2C 3C", "--hand", "Bo=2C", "--knock", "Al"],
     "error: the 2C appears twice (in Al's --hand cards and Bo's --hand cards), but there is only one deck"),
    (["--hand", "Al=2C", "--hand", "Bo=4D", "--melds", "Al=2C 3x", "--knock", "Al"],
     "error: unreadable card '3x' in Al's --melds cards (card 2, column 4)"),
    (["--hand", "Al=2C", "--hand", "Bo=4D", "--upcard", "3x", "--knock", "Al"],
     "error: unreadable card '3x' in --upcard (card 1, column 1)"),
    (["--hand", "Al=2C 3C", "--hand", "Bo=W", "--knock", "Al"],
     "error: Bo's hand: 1 WILDCARD given, but this game is played without WILDCARDs"),
], ids=["unreadable", "duplicate-both-hands", "melds", "upcard", "wildcard"])
def test_gin_card_errors_name_player_and_option(args, said):
    assert ref("new-session", "--ruleset", "gin", "--players", "Al,Bo", "--game", "g").exit_code == 0
    assert first_line(ref("score-hand", "--game", "g", *args)) == said


@pytest.mark.parametrize("args, said", [
    (["first-dealer", "Ann=KS", "Cy=3x"], "error: unreadable card '3x' in Cy's cards turned up (card 1, column 1)"),
    (["first-dealer", "Ann=KS", "Cy=KS"],
     "error: the KS appears twice (in Ann's cards turned up and Cy's cards turned up), but there is only one deck"),
    (["new-session", *SIMPLE, "--first-dealer", "Ann=KS", "--first-dealer", "Cy=x", "--first-dealer", "Dee=2C"],
     "error: unreadable card 'x' in Cy's --first-dealer cards (card 1, column 1)"),
    (["new-session", *SIMPLE, "--first-dealer", "Ann=KS", "--first-dealer", "Cy=KS", "--first-dealer", "Dee=2C"],
     "error: the KS appears twice (in Ann's --first-dealer cards and Cy's --first-dealer cards), "
     "but there is only one deck"),
], ids=["first-dealer-unreadable", "first-dealer-duplicate", "new-session-unreadable", "new-session-duplicate"])
def test_first_dealer_card_errors_name_player_and_option(args, said):
    assert first_line(ref(*args)) == said


# -- item 3 at a prompt (score-hand at a terminal asks the questions ref night asks) --------------


@pytest.fixture
def at_a_terminal(monkeypatch):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")


@pytest.mark.parametrize("new, answers, said", [
    (["--ruleset", "simple-rummy", "--players", "Ann,Cy", "--game", "t"], "3x\n2C 3D\n2C\n",
     ["unreadable card '3x' in Cy's cards at the final hand prompt (card 1, column 1)",
      "the 2C appears twice (in Cy's hand and Ann's hand), but there is only one deck"]),
    (["--ruleset", "gin", "--players", "Al,Bo", "--game", "t"], "3x\n2C 3C\n2C\n",
     ["unreadable card '3x' in Al's cards at the hand prompt (card 1, column 1)",
      "the 2C appears twice (in Al's hand and Bo's hand), but there is only one deck"]),
    (["--game", "t"], "cards\nAS AH 3x\nAS AH AC\n\nAS\n",
     ["unreadable card '3x' in Bill's cards at the melded prompt (card 3, column 7)",
      "the AS appears twice (in Bill's melded cards and Ben's melded cards), but there is only one deck"]),
], ids=["simple-rummy", "gin", "rummy-2m"])
def test_card_errors_at_a_prompt_name_player_and_prompt(at_a_terminal, new, answers, said):
    assert ref("new-session", *new).exit_code == 0
    r = ref("score-hand", "--game", "t", input=answers)  # input runs out: nothing written
    for text in said:
        assert text in flat(r.stderr)
    assert ref("history", "--game", "t", "--json").stdout.count('"entry"') == 0


def test_a_card_error_in_ref_night_names_player_and_prompt(night_db):  # noqa: F811
    n = Night("--db", night_db)
    n.answer(PROMPT, "cards")
    n.answer(MELD.format("Bill"), "AS AH 3x")
    shown = flat(n.expect(MELD.format("Bill")))
    assert "unreadable card '3x' in Bill's cards at the melded prompt (card 3, column 7)" in shown
    n.child.sendintr()
    n.child.close(force=True)


# -- item 9: wording ----------------------------------------------------------------------------


def test_an_amended_hand_is_hand_n_amended():
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", "--points", "Bill=10", "--points", "Ben=5", "--points", "Larry=1").exit_code == 0
    r = ref("amend", "1", "--reason", "Bill counted short", "--points", "Bill=15", "--points", "Ben=5",
            "--points", "Larry=1")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("Hand 1 (amended) of rummy-2m: Rummy Night 1, hand 1 of the night")
    r = ref("void", "1", "--reason", "misdeal")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("Hand 1 (voided) of rummy-2m")


def test_an_amended_game_is_game_n_amended():
    assert ref("new-session", *SIMPLE).exit_code == 0
    assert ref("score-hand", "--game", "sr", *STOCK_RAN_OUT).exit_code == 0
    r = ref("amend", "1", "--game", "sr", "--reason", "Cy had the 8H", "--hand", "Ann=9S 9D", "--hand", "Cy=8S 8H",
            "--hand", "Dee=7S 7D")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("Game 1 (amended) of sr (session 1, game 1 of the session)")


@pytest.mark.parametrize("ruleset, run, match", [
    ("rummy-2m", "run", "match"), ("rummy-500", "run", "match"),
    ("simple-rummy", "sequence", "group"), ("gin", "run", "group"),
])
def test_count_uses_the_rule_sets_own_meld_words(ruleset, run, match):
    r = ref("count", "2S 3S 4S 7H 7D 7C", "--ruleset", ruleset)
    assert r.exit_code == 0, r.stderr
    width = max(len(run), len(match))
    assert r.stdout.splitlines()[1:3] == [f"meld      {run:<{width}}  2♠ 3♠ 4♠", f"meld      {match:<{width}}  7♥ 7♦ 7♣"]


def test_count_refuses_wildcards_past_the_rule_sets_limit():
    r = ref("count", "W W W 2S")
    assert first_line(r) == "error: 3 WILDCARDs given, but the rules allow at most 2"


def test_one_of_everything_is_singular():
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", "--points", "Bill=10", "--points", "Ben=5", "--points", "Larry=1").exit_code == 0
    assert ref("stats").stdout.splitlines()[0] == (
        "Statistics of rummy-2m (rummy-2m): 1 hand in force, 1 Rummy Night (0 closed)")
    assert flat(ref("verify").stdout).startswith("The record is intact: 3 entries in 1 game;")


def test_one_game_of_simple_rummy_is_singular():
    assert ref("new-session", *SIMPLE).exit_code == 0
    assert ref("score-hand", "--game", "sr", *STOCK_RAN_OUT).exit_code == 0
    assert ref("stats", "--game", "sr").stdout.splitlines()[0] == (
        "Statistics of sr (simple-rummy): 1 game in force, 1 session (0 closed)")


def test_chart_help_shows_real_metavars():
    text = ref("chart", "--help").stdout
    assert "--width N " in text and "--height N " in text
    assert "<parse>" not in text.lower() and "PARSE" not in text
