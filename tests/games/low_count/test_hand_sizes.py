"""S1/S9 hand sizes (SPEC §8): a recorded hand must be one a game at the table can end with.

Without Three-Card Draw (V4) or Spread-Out (V6) every hand holds the cards dealt, the player
who went out one more (the card just drawn); laying down the four 7s (V5) or dropping out
(S14) may happen before or after drawing. V4 and V6 keep only the lower bound."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

from rummyref.cards import parse_cards
from rummyref.errors import ExitCode, RuleRefusal
from rummyref.games.low_count.adjudicate import Ending, adjudicate
from rummyref.games.low_count.table import Role, SimpleTable
from rummyref.rules.ruleset import load_ruleset

RS = load_ruleset("simple-rummy")
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def table(cards, variations=(), players=FIVE, wildcards=0):
    return SimpleTable.create(RS, players, cards, wildcards, variations)


@pytest.mark.parametrize(
    "cards, variations, role, sizes",
    [
        (5, (), Role.PLAYED, (5, 5)),
        (5, (), Role.WENT_OUT, (6, 6)),
        (5, (), Role.FOUR_SEVENS, (5, 6)),
        (5, (), Role.DROPPED, (5, 6)),
        (2, (), Role.WENT_OUT, (3, 3)),
        (5, ("three-card-draw",), Role.PLAYED, (5, None)),
        (5, ("spread-out",), Role.WENT_OUT, (6, None)),
        (3, ("spread-out", "minor"), Role.DROPPED, (3, None)),
    ],
)
def test_the_sizes_a_hand_may_have(cards, variations, role, sizes):
    assert table(cards, variations).hand_sizes(role) == sizes


def run(t, hands, first="Ann", **ending):
    return adjudicate(t, first, {n: parse_cards(h) for n, h in hands.items()}, Ending.from_options(**ending))


FIVE_HANDS = {"Ann": "2C 3C 4C 9D KD", "Bob": "5H 6H 7H 8S 8D", "Cy": "AS AH JD QS 2D",
              "Dee": "10S 10H 10C 4S 6C", "Eve": "9S 9H 3D 5S 7C"}  # fmt: skip


TWELVE = "2H 3H 4H 5H 6H 7H 8S 8D 8C JC QC KC"  # melds whole: count 0


def test_a_five_card_table_takes_five_card_hands():
    assert run(table(5), FIVE_HANDS).winner == "Dee"  # 4S 6C left: 10


@pytest.mark.parametrize(
    "who, hand, ending, rule, said",
    [
        # the examples: one card for Ann, twelve for Bob, at a 5-card table
        ("Ann", "2C", {}, "S1", "Ann's hand has 1 card, but with 5 dealt a player who did not go out holds 5"),
        ("Bob", TWELVE, {}, "S1", "Bob's hand has 12 cards"),
        ("Ann", "2C 3C 4C 9D", {}, "S1", "holds 5 at the end of a game"),
        ("Ann", "2C 3C 4C 9D KD", {"out": "Ann"}, "S9", "the player who went out holds 6"),
        ("Ann", "2C 3C 4C 9D KD KC KH", {"out": "Ann"}, "S9", "Ann's hand has 7 cards"),
        ("Ann", "2C 3C 4C 9D", {"dropped": ["Ann"]}, "S1", "a player who dropped out holds 5 or 6"),
        ("Ann", "2C 3C 4C 9D KD KC KH", {"dropped": ["Ann"]}, "S1", "holds 5 or 6"),
    ],
)
def test_an_impossible_hand_is_refused_naming_player_size_and_sizes_possible(who, hand, ending, rule, said):
    with pytest.raises(RuleRefusal) as exc:
        run(table(5), {**FIVE_HANDS, who: hand}, **ending)
    assert exc.value.rule == rule and exc.value.exit_code == ExitCode.REFUSED
    assert said in exc.value.message


def test_going_out_holding_one_card_with_two_dealt_is_refused():
    t = table(2, players=["Ann", "Bob", "Cy"])
    with pytest.raises(RuleRefusal, match="Ann's hand has 1 card, but with 2 dealt the player who went out holds 3"):
        run(t, {"Ann": "KS", "Bob": "2H 9C", "Cy": "3D 8S"}, out="Ann")
    assert run(t, {"Ann": "KS KH KD", "Bob": "2H 9C", "Cy": "3D 8S"}, out="Ann").winner == "Ann"


def test_the_right_sizes_for_each_way_a_game_ends():
    t = table(5, ("four-sevens",), wildcards=0)
    out = {**FIVE_HANDS, "Ann": "2C 3C 4C KD KH KC"}
    assert run(t, out, out="Ann").winner == "Ann"
    sevens = {**FIVE_HANDS, "Bob": "5H 6H 8H 8S 8D", "Eve": "7S 7H 7D 7C 9S"}
    assert run(t, sevens, four_sevens="Eve").winner == "Eve"
    assert run(t, {**sevens, "Eve": "7S 7H 7D 7C 9S 9H"}, four_sevens="Eve").winner == "Eve"
    dropped = {**FIVE_HANDS, "Bob": "5H 6H 7H 8S 8D 8C"}  # dropped after drawing: one more
    assert run(t, dropped, dropped=["Bob"]).winner == "Dee"
    assert run(t, {n: h for n, h in FIVE_HANDS.items() if n != "Bob"}, dropped=["Bob"]).winner == "Dee"


@pytest.mark.parametrize("variation", ["three-card-draw", "spread-out"])
def test_v4_and_v6_check_only_the_lower_bound(variation):
    t = table(5, (variation,))
    big = {**FIVE_HANDS, "Bob": TWELVE}
    assert run(t, big).counts["Bob"] == 0
    with pytest.raises(RuleRefusal) as exc:
        run(t, {**FIVE_HANDS, "Ann": "2C 3C 4C 9D"})
    assert "at least 5" in exc.value.message and exc.value.rule == "S1"


# -- at the command line -------------------------------------------------------------------------


def test_score_hand_refuses_an_impossible_hand_and_writes_nothing():
    assert ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3").exit_code == 0
    bad = ref("score-hand", "--hand", "Ann=2C", "--hand", "Bob=5H 6H 7H", "--hand", "Cy=KS QS JS 10S")
    assert bad.exit_code == 4
    assert "Ann's hand has 1 card, but with 3 dealt a player who did not go out holds 3" in bad.stderr
    good = ref_json("score-hand", "--hand", "Ann=2C 9D KD", "--hand", "Bob=5H 6H 7H", "--hand", "Cy=KS QS JS 10S",
                    "--out", "Cy")
    assert good["winner"] == "Cy" and good["number"] == 1  # the refused hand left no trace
