"""A game of Gin Rummy to 100, played hand by hand from the cards: totals, boxes, the game
bonus and the shutout, with exact scores (G10-G12)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.cards import parse_cards
from rummyref.errors import ExitCode, RuleRefusal, UnreadableInput
from rummyref.games.gin.engine import Ending, Outcome, settle
from rummyref.games.gin.game import GameScore, HandScore, add, play
from rummyref.rules.ruleset import load_ruleset

GIN = load_ruleset("gin")
ANN, BOB = 0, 1

# (knocker's seat, knocker's cards, defender's cards, ending, outcome, seat that scores, points)
SHUTOUT_GAME = [
    # Ann knocks with 9 (9C); Bob keeps 2C 2D 10S (14): Ann scores 5
    (ANN, "AS 2S 3S 4H 4D 4C 7H 8H 9H 9C", "5D 6D 7D 10C JC QC KC 2C 2D 10S", Ending.KNOCK, Outcome.KNOCK, ANN, 5),
    # Bob knocks with 9; Ann holds 9 too: Ann undercuts for the bonus alone
    (BOB, "AS 2S 3S 4H 4D 4C 7H 8H 9H 9C", "5D 6D 7D 10C JC QC KC 2C 2D 5C", Ending.KNOCK, Outcome.UNDERCUT, ANN, 25),
    # the stock runs down to two cards: nobody scores
    (ANN, "", "", Ending.DEAD, Outcome.DEAD, None, 0),
    # Ann goes gin; Bob keeps AS 3S 4D 5C (13)
    (ANN, "5H 6H 7H 8H 2S 2D 2C KC KD KS", "AS 3S 4D 5C 9S 9D 9C 10D JD QD", Ending.GIN, Outcome.GIN, ANN, 38),
    # Ann goes big gin; Bob melds 3C 4C 5C and keeps 55: Ann reaches 154
    (ANN, "5H 6H 7H 8H 9H 2S 2D 2C KC KD KS", "9S 9D 5C 10S JD QH 4C 6S AD 3C", Ending.BIG_GIN, Outcome.BIG_GIN,
     ANN, 86),
]  # fmt: skip


def hand_scores(game):
    out = []
    for seat, knocker, defender, ending, outcome, scorer, points in game:
        result = settle(parse_cards(knocker), parse_cards(defender), ending, GIN)
        assert (result.outcome, result.points) == (outcome, points)
        score = HandScore.of(result, seat)
        assert score == HandScore(scorer, points)
        out.append(score)
    return out


def test_a_whole_game_to_100_with_every_ending_and_a_shutout():
    game = play(hand_scores(SHUTOUT_GAME), GIN)
    assert game.totals == (154, 0) and game.boxes == (4, 0) and game.hands == 5
    assert game.over and game.winner == ANN and game.shutout
    # 154 + 4 boxes of 25 + the game bonus of 100, doubled by the shutout; Bob has nothing
    assert game.final == ((154 + 100 + 100) * 2, 0) == (708, 0)
    assert game.margin == 708


def test_the_game_is_open_until_a_total_reaches_100():
    scores = hand_scores(SHUTOUT_GAME)
    before = play(scores[:4], GIN)
    assert before.totals == (68, 0) and not before.over and before.final is None and before.margin == 0


def test_a_game_without_a_shutout_gives_each_player_their_boxes():
    hands = [HandScore(BOB, 33), HandScore(None, 0), HandScore(ANN, 97), HandScore(ANN, 5)]
    game = play(hands, GIN)
    assert (game.totals, game.boxes, game.winner, game.shutout) == ((102, 33), (2, 1), ANN, False)
    assert game.final == (102 + 50 + 100, 33 + 25) == (252, 58)
    assert game.margin == 194


def test_no_hand_after_the_game_is_over():
    game = play(hand_scores(SHUTOUT_GAME), GIN)
    with pytest.raises(RuleRefusal, match="the game is over") as exc:
        add(game, HandScore(BOB, 10), GIN)
    assert exc.value.rule == "G10" and exc.value.exit_code == ExitCode.REFUSED


@pytest.mark.parametrize(
    "hand, words",
    [
        (HandScore(None, 5), "a dead hand scores nothing, not 5"),
        (HandScore(ANN, -5), "0 points or more, not seat 0 for -5"),
        (HandScore(2, 10), "seat 0 or 1"),
    ],
)
def test_impossible_hand_scores_are_refused(hand, words):
    with pytest.raises(UnreadableInput, match=words):
        add(GameScore(), hand, GIN)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([ANN, BOB, None]), st.integers(1, 60)), max_size=40))
def test_the_game_ends_at_the_first_hand_that_reaches_the_target(raw):
    hands = [HandScore(w, 0 if w is None else p) for w, p in raw]
    totals = [0, 0]
    for i, hand in enumerate(hands):
        if hand.winner is not None:
            totals[hand.winner] += hand.points
        if max(totals) >= 100:
            hands = hands[: i + 1]
            break
    game = play(hands, GIN)
    assert list(game.totals) == totals and game.hands == len(hands)
    assert game.over == (max(totals) >= 100)
    if game.over:
        assert game.winner is not None and game.final is not None
        loser = 1 - game.winner
        assert game.final[loser] == totals[loser] + 25 * game.boxes[loser]
        plain = totals[game.winner] + 25 * game.boxes[game.winner] + 100
        assert game.final[game.winner] == plain * (2 if game.boxes[loser] == 0 else 1)


def test_a_hand_won_for_0_points_still_earns_its_box():
    """A house's rule set with an undercut bonus of 0: an even knock is an undercut worth 0, and
    the defender still wins the hand and its box (G8, G11; audit, stop 35)."""
    game = add(GameScore(), HandScore(BOB, 0), GIN)
    assert (game.totals, game.boxes, game.hands, game.over) == ((0, 0), (0, 1), 1, False)
