"""Gin Rummy hands settled from the cards: exact tables for every outcome and refusal, and the
engine against the brute-force reference (``reference.py``) on thousands of seeded hands."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.cards import DECK, Card, parse_cards, parse_melds
from rummyref.errors import (
    DuplicateCard,
    ExitCode,
    RuleRefusal,
    RulesetError,
    TooManyWildcards,
    UnreadableInput,
)
from rummyref.games.gin.engine import (
    Ending,
    Outcome,
    Side,
    deadwood,
    defend,
    knock_limit,
    melds_within,
    settle,
)
from rummyref.melding.melds import classify
from rummyref.rules.ruleset import load_ruleset

from .reference import VALUE, defender_best, is_meld, knock, min_deadwood, to_ref

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)

GIN = load_ruleset("gin")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def refs(hand) -> frozenset:
    return frozenset(to_ref(c) for c in hand)


def names(hand) -> list[str]:
    return [str(c) for c in hand]


GOOD_K, GOOD_D = "5H 6H 7H 2S 2D 2C KC KD KS AH", "9S 9D 5C 10S JD QH 4C 6S AD 3C"

# -- exact tables ---------------------------------------------------------------------------

# (knocker, defender, ending, outcome, winner, points, (knocker dw, defender dw), lay-offs)
HANDS = [
    # a knock: the defender lays 4H below 5H 6H 7H, 8H then 9H above it; 3S 4S 5S is its own
    ("5H 6H 7H 2S 2D 2C KC KD KS AH", "8H 9H 4H 3S 4S 5S QC QD 7C 7D", Ending.KNOCK,
     Outcome.KNOCK, Side.KNOCKER, 33, (1, 34), ["4H", "8H", "9H"]),
    # a run the defender holds whole is melded, not laid off (fewest lay-offs among equals)
    ("5H 6H 7H 2S 2D 2C KC KD KS AH", "8H 9H 10H 3S 4S 5S QC QD 7C 7D", Ending.KNOCK,
     Outcome.KNOCK, Side.KNOCKER, 33, (1, 34), []),
    # lay-offs at both ends, two cards each way: 4H then 3H below, 8H then 9H above
    ("5H 6H 7H 2S 2D 2C KC KD KS AH", "3H 4H 8H 9H AS AD 3C 4C 6S 6D", Ending.KNOCK,
     Outcome.KNOCK, Side.KNOCKER, 20, (1, 21), ["4H", "3H", "8H", "9H"]),
    # searched together: 8H 9H laid off and 8S 8D 8C melded beats the group of four 8s (9H left)
    ("5H 6H 7H 2S 2D 2C KC KD KS AH", "8H 9H 8S 8D 8C 3S 4D JC QH 6C", Ending.KNOCK,
     Outcome.KNOCK, Side.KNOCKER, 32, (1, 33), ["8H", "9H"]),
    # the fourth 2 is laid off onto the knocker's group
    ("5H 6H 7H 2S 2D 2C KC KD KS 3H", "2H 9S 9D 5C 10S JD QH 4C 6S AD", Ending.KNOCK,
     Outcome.KNOCK, Side.KNOCKER, 61, (3, 64), ["2H"]),
    # an undercut on equal deadwood: the defender scores the undercut bonus alone
    ("AS 2S 3S 4H 4D 4C 7H 8H 9H 9C", "5D 6D 7D 10C JC QC KC 2C 2D 5C", Ending.KNOCK,
     Outcome.UNDERCUT, Side.DEFENDER, 25, (9, 9), []),
    # an undercut after a lay-off: 4S joins AS 2S 3S (or the 4s), the defender keeps 2C 2H AD
    ("AS 2S 3S 4H 4D 4C 7H 8H 9H 10C", "4S 2C 2H 5D 6D 7D JS QS KS AD", Ending.KNOCK,
     Outcome.UNDERCUT, Side.DEFENDER, 30, (10, 5), ["4S"]),
    # gin: no lay-offs (the defender's 9H stays deadwood); the gin bonus plus all its deadwood
    ("5H 6H 7H 8H 2S 2D 2C KC KD KS", "9H 9S 8D 5C 10S JD QH 4C 6S AD", Ending.GIN,
     Outcome.GIN, Side.KNOCKER, 25 + 72, (0, 72), []),
    # a knock without deadwood is gin
    ("5H 6H 7H 8H 2S 2D 2C KC KD KS", "9H 9S 8D 5C 10S JD QH 4C 6S AD", Ending.KNOCK,
     Outcome.GIN, Side.KNOCKER, 25 + 72, (0, 72), []),
    # big gin: all eleven cards melded; the defender melds 3C 4C 5C
    ("5H 6H 7H 8H 9H 2S 2D 2C KC KD KS", "9S 9D 5C 10S JD QH 4C 6S AD 3C", Ending.BIG_GIN,
     Outcome.BIG_GIN, Side.KNOCKER, 31 + 55, (0, 55), []),
]  # fmt: skip


@pytest.mark.parametrize("knocker, defender, ending, outcome, winner, points, dw, layoffs", HANDS)
def test_a_hand_settles_exactly(knocker, defender, ending, outcome, winner, points, dw, layoffs):
    result = settle(cards(knocker), cards(defender), ending, GIN)
    assert (result.outcome, result.winner, result.points, result.deadwood) == (outcome, winner, points, dw)
    assert [str(lo.card) for lo in result.layoffs] == layoffs
    assert_consistent(result, cards(knocker), cards(defender))
    if ending is Ending.KNOCK:  # the brute-force reference agrees
        assert expected(cards(knocker), cards(defender)) == (outcome, points, dw, len(layoffs))


def assert_consistent(result, knocker, defender):
    """What the result shows adds up: melds are real and from the right hand, every card is in
    exactly one place, each knocker's meld with its lay-offs is still a meld, values agree."""
    k, d = result.knocker, result.defender
    assert sorted(names([c for m in k.melds for c in m.cards] + list(k.deadwood))) == sorted(names(knocker))
    laid = [lo.card for lo in result.layoffs]
    assert sorted(names([c for m in d.melds for c in m.cards] + list(d.deadwood) + laid)) == sorted(names(defender))
    for i, meld in enumerate(k.melds):
        assert classify(meld.cards + tuple(lo.card for lo in result.layoffs if lo.onto == i), False) is not None
    for m in k.melds + d.melds:
        assert is_meld(refs(m.cards))
    assert k.value == sum(VALUE[int(c.rank)] for c in k.deadwood)
    assert d.value == sum(VALUE[int(c.rank)] for c in d.deadwood)


def test_the_knocker_lays_the_melds_that_leave_the_defender_most():
    """G14: three runs or three groups, both 10 deadwood. As runs the defender sheds 6C and 10D
    (16); as groups only 8S (8): ref lays the groups down."""
    knocker, defender = cards("7C 8C 9C 7D 8D 9D 7H 8H 9H KS"), cards("6C 10D JH QS 2S 4S 6S 8S 3D 5D")
    result = settle(knocker, defender, Ending.KNOCK, GIN)
    assert {m.kind.value for m in result.knocker.melds} == {"group"}
    assert (result.points, result.deadwood, [str(lo.card) for lo in result.layoffs]) == (46, (10, 56), ["8S"])
    stated = parse_melds("7C 8C 9C / 7D 8D 9D / 7H 8H 9H")
    as_runs = settle(knocker, defender, Ending.KNOCK, GIN, melds=stated)
    assert (as_runs.points, as_runs.deadwood) == (38, (10, 48))
    assert sorted(str(lo.card) for lo in as_runs.layoffs) == ["10D", "6C"]


def test_stated_melds_leave_the_rest_as_deadwood():
    knocker, defender = cards("5H 6H 7H 8H 2S 2D 2C 3S AC 4D"), cards("9S 9D 5C 10S JD QH 4C 6S AD 3C")
    with pytest.raises(RuleRefusal) as exc:
        settle(knocker, defender, Ending.KNOCK, GIN, names=("Ann", "Bob"), melds=parse_melds("5H 6H 7H / 2S 2D 2C"))
    # the 16 is the stated melds' deadwood, not the hand's least (8, with 5H-8H)
    assert exc.value.message == ("Ann cannot knock: the deadwood of the stated melds is 16, over the limit of 10"
                                 " (the hand's least deadwood is 8)")
    assert exc.value.rule == "G4" and exc.value.hint == "stated: 5H 6H 7H / 2S 2D 2C; deadwood 3S 8H 4D AC (16)"
    # stated melds that are the hand's best: only the one number
    with pytest.raises(RuleRefusal) as exc:
        settle(cards("5H 6H 7H 2S 2D 2C KC KD 9H AH"), defender, Ending.KNOCK, GIN, names=("Ann", "Bob"),
               melds=parse_melds("5H 6H 7H / 2S 2D 2C"))
    assert exc.value.message == "Ann cannot knock: the deadwood of the stated melds is 30, over the limit of 10"
    result = settle(knocker, defender, Ending.KNOCK, GIN, melds=parse_melds("5H 6H 7H 8H / 2S 2D 2C"))
    assert (result.outcome, result.points, result.deadwood) == (Outcome.KNOCK, 47, (8, 55))
    assert names(result.knocker.deadwood) == ["3S", "4D", "AC"]


def test_a_dead_hand_scores_nothing():
    result = settle([], [], Ending.DEAD, GIN)
    assert (result.outcome, result.winner, result.points) == (Outcome.DEAD, None, 0)
    given = settle(cards("5H 6H 7H 2S 2D 2C KC KD KS AH"), cards("9S 9D 5C 10S JD QH 4C 6S AD 3C"), Ending.DEAD, GIN)
    assert (given.points, given.deadwood) == (0, (1, 55))  # 3C 4C 5C melds


@pytest.mark.parametrize(
    "upcard, limit", [(None, 10), ("7D", 7), ("KC", 10), ("10S", 10), ("2H", 2), ("AS", 0)]
)
def test_oklahoma_the_first_upcard_sets_the_knock_limit(upcard, limit):
    assert knock_limit(GIN, None if upcard is None else cards(upcard)[0]) == limit


def test_oklahoma_refuses_a_knock_over_the_upcard():
    knocker, defender = cards("AS 2S 3S 4H 4D 4C 7H 8H 9H 9C"), cards("5S 6S 7S 10C JC QC KC 3C 3D 3H")
    with pytest.raises(RuleRefusal, match="over the limit of 7") as exc:
        settle(knocker, defender, Ending.KNOCK, GIN, upcard=cards("7D")[0])
    assert exc.value.rule == "G13"
    assert settle(knocker, defender, Ending.KNOCK, GIN, upcard=cards("9D")[0]).outcome is Outcome.UNDERCUT
    with pytest.raises(RuleRefusal, match="over the limit of 0"):
        settle(cards(GOOD_K), cards(GOOD_D), Ending.KNOCK, GIN, upcard=cards("AD")[0])


# (knocker, defender, ending, error, exit code, rule, words in the message)
REFUSALS = [
    ("5H 6H 7H 2S 2D 2C KC KD 9S AH", "8S 9D 5C 10S JD QH 4C 6S AD 3C", Ending.KNOCK,
     RuleRefusal, ExitCode.REFUSED, "G4", "cannot knock: the least deadwood is 30, over the limit of 10"),
    (GOOD_K, GOOD_D, Ending.GIN, RuleRefusal, ExitCode.REFUSED, "G5", "hand is not gin"),
    ("5H 6H 7H 8H 2S 2D 2C KC KD KS AH", GOOD_D, Ending.BIG_GIN,
     RuleRefusal, ExitCode.REFUSED, "G6", "11 cards are not big gin"),
    (GOOD_K, GOOD_D, Ending.BIG_GIN, RuleRefusal, ExitCode.REFUSED, "G1", "has 10 cards; big gin needs 11"),
    ("5H 6H 7H 8H 2S 2D 2C KC KD KS AH", GOOD_D, Ending.KNOCK,
     RuleRefusal, ExitCode.REFUSED, "G1", "has 11 cards; a knock needs 10"),
    (GOOD_K, "9S 9D 5C 10S JD QH 4C 6S AD", Ending.KNOCK,
     RuleRefusal, ExitCode.REFUSED, "G1", "defender's hand has 9 cards"),
    ("5H 6H 7H 2S 2D 2C KC KD KS KS", GOOD_D, Ending.KNOCK,
     DuplicateCard, ExitCode.BAD_INPUT, None, "the KS appears twice (in the knocker's hand)"),
    (GOOD_K, "9S 9D 5C 10S JD QH 4C 6S AH 3C", Ending.KNOCK,
     DuplicateCard, ExitCode.BAD_INPUT, None, "the AH appears twice (in the knocker's hand and the defender's)"),
    (GOOD_K, "9S 9D 5C 10S JD QH 4C 6S W 3C", Ending.KNOCK,
     TooManyWildcards, ExitCode.BAD_INPUT, None, "the defender's hand: 1 WILDCARD given, but this game is played"),
    (GOOD_K, "9S 9D 5C 10S JD QH 4C 6S AD 3C", Ending.DEAD, None, None, None, None),
]  # fmt: skip


@pytest.mark.parametrize("knocker, defender, ending, error, code, rule, words", REFUSALS)
def test_refusals_name_what_and_whose(knocker, defender, ending, error, code, rule, words):
    if error is None:
        settle(cards(knocker), cards(defender), ending, GIN)
        return
    with pytest.raises(error) as exc:
        settle(cards(knocker), cards(defender), ending, GIN)
    assert exc.value.exit_code == code and words in str(exc.value)
    if rule:
        assert exc.value.rule == rule


def test_refusals_use_the_players_names():
    with pytest.raises(RuleRefusal, match="Ann cannot knock"):
        settle(cards("5H 6H 7H 2S 2D 2C KC KD 9H AH"), cards(GOOD_D), Ending.KNOCK, GIN, names=("Ann", "Bob"))
    with pytest.raises(RuleRefusal, match="Bob's hand has 9 cards"):
        settle(cards(GOOD_K), cards(GOOD_D)[:9], Ending.KNOCK, GIN, names=("Ann", "Bob"))


@pytest.mark.parametrize(
    "melds, error, words",
    [
        ("5H 6H 8H", UnreadableInput, "Ann's stated meld 5H 6H 8H is not a valid meld"),
        ("5H 6H 7H / 2S 2D 2H", UnreadableInput, "the 2H of Ann's stated melds is not in Ann's hand"),
        ("5H 6H 7H / 9S 9D 9C", UnreadableInput, "the 9S of Ann's stated melds is not in Ann's hand"),
        ("KC KD KS / KC KD KS", DuplicateCard, "the KC appears twice (in Ann's stated melds)"),
    ],
)
def test_stated_melds_are_checked(melds, error, words):
    with pytest.raises(error) as exc:
        settle(cards(GOOD_K), cards(GOOD_D), Ending.KNOCK, GIN, names=("Ann", "Bob"), melds=parse_melds(melds))
    assert words in str(exc.value) and exc.value.exit_code == ExitCode.BAD_INPUT


def test_other_rule_sets_are_not_gin():
    with pytest.raises(RulesetError, match="not a Gin rule set"):
        settle(cards(GOOD_K), cards(GOOD_D), Ending.KNOCK, load_ruleset("rummy-2m"))


# -- against the brute-force reference ------------------------------------------------------

SUB_DECK = [c for c in DECK if c.suit is not None and c.suit.value in "SHD" and 3 <= int(c.rank) <= 10]


def random_hands(seed: int, n: int, size: int = 10):
    rng = random.Random(seed)
    for i in range(n):
        yield rng.sample(DECK if i % 2 else SUB_DECK, size)


@pytest.mark.parametrize("seed", range(4))
def test_deadwood_equals_the_reference_on_random_hands(seed):
    """1,000 hands of 10 and 11 cards per seed: half dealt from the whole deck, half from a
    dense 24-card part of it (3 suits, 3 to 10), where most cards could join two melds."""
    for hand in random_hands(seed, 500):
        assert deadwood(hand, GIN).value == min_deadwood(refs(hand)), hand
    for hand in random_hands(100 + seed, 500, 11):
        assert deadwood(hand, GIN).value == min_deadwood(refs(hand)), hand


def test_melds_within_finds_every_meld():
    rng = random.Random(7)
    for _ in range(300):
        hand = rng.sample(SUB_DECK if rng.random() < 0.5 else DECK, 11)
        found = {frozenset(to_ref(c) for c in m) for m in melds_within(hand, GIN)}
        every = {
            frozenset(s)
            for k in range(3, 12)
            for s in combinations(sorted(refs(hand)), k)
            if is_meld(s)
        }
        assert found == every


def knock_deal(rng: random.Random) -> tuple[list[Card], list[Card]]:
    """A knocker's hand made of melds and low cards; a defender's hand of melds too (often),
    cards next to the knocker's (so that lay-offs are frequent) and any cards."""
    deck = list(DECK)
    knocker = _melds_from(deck, rng.choice((6, 7, 8)), rng)
    low = [c for c in deck if c not in knocker and int(c.rank) <= 4]  # type: ignore[arg-type]
    knocker += rng.sample(low, 10 - len(knocker))
    deck = [c for c in deck if c not in knocker]
    defender = _melds_from(deck, rng.choice((0, 3, 6)), rng, most=9)
    near = [
        c for c in deck
        if c not in defender
        and any(c.rank == k.rank or (c.suit == k.suit and abs(int(c.rank) - int(k.rank)) <= 2) for k in knocker)  # type: ignore[arg-type]
    ]  # fmt: skip
    defender += rng.sample(near, min(len(near), rng.randint(1, 10 - len(defender))))
    defender += rng.sample([c for c in deck if c not in defender], 10 - len(defender))
    return knocker, defender


def _melds_from(deck: list[Card], at_least: int, rng: random.Random, most: int = 10) -> list[Card]:
    """Random melds of the deck's cards: at least ``at_least`` cards, at most ``most``."""
    chosen: list[Card] = []
    while len(chosen) < at_least:
        free = [c for c in deck if c not in chosen]
        chosen += rng.choice([m for m in melds_within(free, GIN) if len(chosen) + len(m) <= most])
    return chosen


def expected(knocker, defender) -> tuple[Outcome, int, tuple[int, int], int] | None:
    """The reference's verdict: (outcome, points, deadwood, cards laid off), or None to refuse."""
    k, d = refs(knocker), refs(defender)
    if min_deadwood(k) > 10:
        return None
    if min_deadwood(k) == 0:
        return Outcome.GIN, 25 + min_deadwood(d), (0, min_deadwood(d)), 0
    kd, dd, laid = knock(k, d)
    if dd > kd:
        return Outcome.KNOCK, dd - kd, (kd, dd), laid
    return Outcome.UNDERCUT, kd - dd + 25, (kd, dd), laid


def check_against_reference(knocker, defender):
    want = expected(knocker, defender)
    if want is None:
        with pytest.raises(RuleRefusal):
            settle(knocker, defender, Ending.KNOCK, GIN)
        return want
    result = settle(knocker, defender, Ending.KNOCK, GIN)
    assert (result.outcome, result.points, result.deadwood, len(result.layoffs)) == want, (knocker, defender)
    assert_consistent(result, knocker, defender)
    return want


def test_the_order_of_the_cards_does_not_matter():
    rng = random.Random(11)
    for _ in range(100):
        knocker, defender = knock_deal(rng)
        try:
            first = settle(knocker, defender, Ending.KNOCK, GIN)
        except RuleRefusal:
            continue
        rng.shuffle(knocker)
        rng.shuffle(defender)
        assert settle(knocker, defender, Ending.KNOCK, GIN) == first


@pytest.mark.parametrize("seed", range(3))
def test_knocks_equal_the_reference_on_random_deals(seed):
    """400 constructed knocks per seed, each one settled by the engine and by brute force."""
    rng = random.Random(seed)
    outcomes = []
    for _ in range(400):
        want = check_against_reference(*knock_deal(rng))
        outcomes.append(None if want is None else (want[0], want[3] > 0))
    # the deals exercise every branch: knocks, undercuts, gin, refusals, with and without lay-offs
    assert {(Outcome.KNOCK, True), (Outcome.KNOCK, False), (Outcome.UNDERCUT, True), None} <= set(outcomes)


LOW_DECK = [c for c in DECK if int(c.rank) <= 5]  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(st.permutations(LOW_DECK))
def test_dense_deals_equal_the_reference(deck):
    """Both hands from the 20 cards A-5: every card fits a group and a run, deadwood is low,
    undercuts after lay-offs are common."""
    check_against_reference(deck[:10], deck[10:20])


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_lay_offs_equal_the_reference(seed):
    """The defender's search alone, onto the melds of a constructed knocker's hand."""
    knocker, defender = knock_deal(random.Random(seed))
    melds = deadwood(knocker, GIN).melds
    defence, layoffs = defend(melds, defender, GIN)
    assert (defence.value, len(layoffs)) == defender_best([refs(m.cards) for m in melds], refs(defender))
