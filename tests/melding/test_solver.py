"""The meld engine (rummyref.melding.solver) against the brute-force reference, properties, goldens."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import Reference, is_meld, to_ref

from rummyref.cards import DECK, WILD, Card, parse_cards
from rummyref.melding.melds import Meld, MeldKind, meld_options
from rummyref.melding.solver import (
    GOING_OUT_MODES,
    Solution,
    arrange_all,
    best_melding,
    every_card_melds,
    fewest_unmelded,
    go_out_check,
    meld_value,
)
from rummyref.rules.ruleset import load_ruleset
from rummyref.rules.values import held as card_value

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)

SIMPLE = load_ruleset("simple-rummy")
R2M = load_ruleset("rummy-2m")
#: gin-style values, aces low only, a costly unmelded WILDCARD (a house's own table)
GIN = dataclasses.replace(
    SIMPLE, name="gin", values=(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), aces_high=False, wild_unmelded=25
)
#: some cards worth nothing: melds that save nothing must still be found where they matter
ZERO = dataclasses.replace(
    R2M, name="zero", values=(0, 0, 2, 0, 4, 5, 0, 7, 8, 9, 0, 10, 10, 0), wild_unmelded=3
)
RULESETS = {"simple-rummy": SIMPLE, "rummy-2m": R2M, "gin": GIN, "zero": ZERO}
ALLOWED = {"at-most-one": (0, 1), "all": (0,), "exactly-one": (1,)}
V3_CONDITIONS = ((0, 0), (2, 1), (1, 1), (2, 0))


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# -- shared checks ----------------------------------------------------------------------------


def assert_arrangement(sol: Solution, hand: list[Card], ruleset) -> None:
    """Every meld is valid (by the reference's check and core.melds'), every card used once."""
    used: list[Card] = []
    for meld in sol.melds:
        naturals = [to_ref(c) for c in meld.cards if not c.is_wild]
        wilds = len(meld.cards) - len(naturals)
        assert is_meld(naturals, wilds, ruleset.aces_high), meld
        assert meld_options(list(meld.cards), ruleset.aces_high), meld
        for card, rep in zip(meld.cards, meld.represents):
            if not card.is_wild:
                assert rep == card, meld  # a natural card stands for itself
            elif meld.kind is not MeldKind.WILD:
                assert rep is not None and not rep.is_wild, meld
        used.extend(meld.cards)
    used.extend(sol.unmelded)
    assert sorted(map(str, used)) == sorted(map(str, hand))


def seq_counts(sol: Solution) -> tuple[int, int]:
    seqs = sum(1 for m in sol.melds if m.kind in (MeldKind.SEQUENCE, MeldKind.WILD))
    natural = sum(1 for m in sol.melds if m.kind is MeldKind.SEQUENCE and m.is_natural)
    return seqs, natural


def random_hand(rng: random.Random, max_cards: int, max_wild: int) -> list[Card]:
    """Small hands, often dense (few suits, nearby ranks, aces with Q-K) so melds compete."""
    n = rng.randint(0, max_cards)
    w = rng.randint(0, min(max_wild, n))
    style = rng.random()
    if style < 0.3:
        pool = list(DECK)
    elif style < 0.6:
        pool = [c for c in DECK if c.rank <= 6 or c.rank >= 11]
    else:
        suits = rng.sample(range(4), rng.randint(1, 2))
        low = rng.randint(1, 9)
        pool = [
            c for c in DECK if c.index // 13 in suits and (low <= c.rank < low + 6 or c.rank in (1, 12, 13))
        ]
        if len(pool) < n - w:
            pool = list(DECK)
    hand = rng.sample(pool, n - w) + [WILD] * w
    rng.shuffle(hand)
    return hand


def compare_with_reference(hand: list[Card], ruleset) -> None:
    ref = Reference(hand, ruleset)
    best = best_melding(hand, ruleset)
    assert_arrangement(best, hand, ruleset)
    assert best.count == ref.best()
    assert best.count == sum(card_value(c, ruleset) for c in best.unmelded)

    few = fewest_unmelded(hand, ruleset)
    assert_arrangement(few, hand, ruleset)
    assert few.count == len(few.unmelded) == ref.fewest()

    for mode in GOING_OUT_MODES:
        for sequences, natural in V3_CONDITIONS:
            check = go_out_check(hand, ruleset, mode, sequences, natural)
            assert check.ok == ref.goes_out(mode, sequences, natural), (mode, sequences, natural, check.reason)
            assert check.arrangement is not None
            assert_arrangement(check.arrangement, hand, ruleset)
            if check.ok:
                assert len(check.arrangement.unmelded) in ALLOWED[mode]
                seqs, nats = seq_counts(check.arrangement)
                assert seqs >= sequences and nats >= natural

    arranged = arrange_all(hand, ruleset)
    assert_arrangement(arranged, hand, ruleset)
    in_sequences = sum(len(m) for m in arranged.melds if m.kind is MeldKind.SEQUENCE)
    assert (len(arranged.unmelded), in_sequences) == ref.arrange()


# -- the engine against the exhaustive reference -------------------------------------------


@pytest.mark.parametrize("ruleset_name", sorted(RULESETS))
@pytest.mark.parametrize("chunk", range(3))
def test_engine_matches_brute_force_reference(ruleset_name, chunk):
    """Random hands of up to 9 cards with 0-3 WILDCARDs: 250 per case, 3000 in all."""
    rng = random.Random(f"{ruleset_name}-{chunk}")
    ruleset = RULESETS[ruleset_name]
    for _ in range(250):
        hand = random_hand(rng, 9, 3)
        compare_with_reference(hand, ruleset)


@pytest.mark.parametrize("ruleset_name", ["simple-rummy", "gin", "rummy-2m"])
def test_engine_matches_reference_with_many_wildcards(ruleset_name):
    """Fewer hands, 4-7 WILDCARDs among up to 10 cards (Sequences Rummy plays with up to 7)."""
    rng = random.Random(f"many-{ruleset_name}")
    ruleset = RULESETS[ruleset_name]
    for _ in range(100):
        n_wild = rng.randint(4, 7)
        hand = random_hand(rng, 10 - n_wild, 0) + [WILD] * n_wild
        rng.shuffle(hand)
        compare_with_reference(hand, ruleset)


# -- properties ---------------------------------------------------------------------------------

hands = st.builds(
    lambda naturals, wilds: list(naturals) + [WILD] * wilds,
    st.lists(st.sampled_from(DECK), unique=True, max_size=16),
    st.integers(0, 4),
)
rulesets = st.sampled_from(sorted(RULESETS))


@settings(max_examples=60, deadline=None)
@given(hands, rulesets, st.randoms(use_true_random=False))
def test_arrangements_are_valid_and_order_does_not_matter(hand, name, rnd):
    ruleset = RULESETS[name]
    best = best_melding(hand, ruleset)
    assert_arrangement(best, hand, ruleset)
    assert best.count == sum(card_value(c, ruleset) for c in best.unmelded)
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert best_melding(shuffled, ruleset) == best  # the same answer, not only the same count
    few = fewest_unmelded(hand, ruleset)
    assert_arrangement(few, hand, ruleset)
    assert fewest_unmelded(shuffled, ruleset) == few
    assert few.count == len(few.unmelded) <= len(best.unmelded)
    assert best.count <= sum(card_value(c, ruleset) for c in few.unmelded)
    arranged = arrange_all(hand, ruleset)
    assert_arrangement(arranged, hand, ruleset)
    assert len(arranged.unmelded) == few.count


@settings(max_examples=40, deadline=None)
@given(hands, rulesets, st.sampled_from(DECK))
def test_one_more_card_costs_at_most_its_value(hand, name, extra):
    ruleset = RULESETS[name]
    before = best_melding(hand, ruleset).count
    if extra not in hand:
        assert best_melding(hand + [extra], ruleset).count <= before + card_value(extra, ruleset)
    assert best_melding(hand + [WILD], ruleset).count <= before + ruleset.wild_unmelded
    assert fewest_unmelded(hand + [WILD], ruleset).count <= fewest_unmelded(hand, ruleset).count + 1


@settings(max_examples=40, deadline=None)
@given(hands, rulesets)
def test_going_out_modes_agree(hand, name):
    ruleset = RULESETS[name]
    fewest = fewest_unmelded(hand, ruleset).count
    loose = go_out_check(hand, ruleset, "at-most-one")
    assert loose.ok == (fewest <= 1)
    assert go_out_check(hand, ruleset, "all").ok == (fewest == 0)
    minor = go_out_check(hand, ruleset, "exactly-one")
    if minor.ok:
        assert loose.ok and len(minor.arrangement.unmelded) == 1
    if fewest == 1:
        assert minor.ok
    v3 = go_out_check(hand, ruleset, "at-most-one", sequences=2, natural_sequences=1)
    if v3.ok:
        assert loose.ok
        seqs, nats = seq_counts(v3.arrangement)
        assert seqs >= 2 and nats >= 1


# -- goldens ------------------------------------------------------------------------------------

WHOLE_DECK_7W = " ".join(str(c) for c in DECK) + " W" * 7


@pytest.mark.parametrize(
    "hand, ruleset, count",
    [
        ("2H 3H 4H 4S 4D", SIMPLE, 5),  # SPEC: the 4H serves one meld only
        ("2H 3H 4H 4S 4D", R2M, 5),
        ("QS KS AS", SIMPLE, 0),  # Q-K-A where aces may be high
        ("QS KS AS", R2M, 0),
        ("QS KS AS", GIN, 21),  # aces low only: no meld
        ("KS AS 2S", SIMPLE, 16),  # never round the corner
        ("KS AS 2S", R2M, 27),
        ("7S 7H W W W", SIMPLE, 0),
        ("7S 7H W W", R2M, 0),
        ("W W W", SIMPLE, 0),
        ("W W W", GIN, 0),
        ("W W", R2M, 30),  # no meld: each WILDCARD costs its penalty
        ("W W", SIMPLE, 0),
        ("W", GIN, 25),
        ("", SIMPLE, 0),
        ("5H 6H W 8H 7H 7S 7D", SIMPLE, 0),  # the WILDCARD stands for the 7H that sits in the group
        ("AS 5D 9C", R2M, 29),  # an unmelded ace counts 15
        ("AS 2S 3S KD", R2M, 10),
        ("10H AH W W W", SIMPLE, 0),  # 10-J-Q-K-A with three WILDCARDs
        ("AS AH AD 2S 3S", R2M, 5),  # the group of aces beats A-2-3 (AH AD left: 30)
        ("AS AH 2S 3S", R2M, 15),  # the ace goes to the run; AH is left
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", SIMPLE, 0),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS W", SIMPLE, 0),
        (WHOLE_DECK_7W, SIMPLE, 0),
        (WHOLE_DECK_7W, GIN, 0),
    ],
)
def test_golden_counts(hand, ruleset, count):
    hand_cards = cards(hand)
    sol = best_melding(hand_cards, ruleset)
    assert sol.count == count
    assert_arrangement(sol, hand_cards, ruleset)


def test_golden_arrangements():
    sol = best_melding(cards("2H 3H 4H 4S 4D"), SIMPLE)
    assert [str(c) for c in sol.unmelded] == ["2H", "3H"]
    assert [m.kind for m in sol.melds] == [MeldKind.GROUP]
    sol = best_melding(cards("7S 7H W W W"), SIMPLE)
    assert [m.kind for m in sol.melds] == [MeldKind.GROUP] and len(sol.melds[0]) == 5
    assert all(rep is not None and int(rep.rank) == 7 for rep in sol.melds[0].represents)
    sol = best_melding(cards("W W W"), SIMPLE)
    assert [m.kind for m in sol.melds] == [MeldKind.WILD]
    sol = best_melding(cards("QS KS AS"), SIMPLE)
    assert sol.melds[0].kind is MeldKind.SEQUENCE and sol.melds[0].ace_high


@pytest.mark.parametrize(
    "hand, mode, sequences, natural, ok",
    [
        # V1 Minor: exactly one card left out
        ("4H 5H 6H 7H 8H 9H", "exactly-one", 0, 0, True),  # a six-card run goes out minor
        ("4H 5H 6H 7S 7D 7C", "exactly-one", 0, 0, False),  # two 3-card melds do not
        ("4H 5H 6H 7H 8H KS", "exactly-one", 0, 0, True),  # a 5-card meld plus one card
        ("4H 5H 6H 7S 7D 7C 7H", "exactly-one", 0, 0, True),  # 4H-5H-6H + 7S-7D-7C, 7H left out
        ("7S 7H 7D W", "exactly-one", 0, 0, True),  # the WILDCARD is the card left out
        ("", "exactly-one", 0, 0, False),
        ("KS", "exactly-one", 0, 0, True),
        # V1 Major: every card melded
        ("4H 5H 6H 7S 7D 7C", "all", 0, 0, True),
        ("4H 5H 6H 7S 7D KC", "all", 0, 0, False),
        ("", "all", 0, 0, True),
        # S9: at most one card left
        ("4H 5H 6H 7S 7D KC", "at-most-one", 0, 0, False),
        ("4H 5H 6H 7S 7D 7C KC", "at-most-one", 0, 0, True),
        # V3 Sequences Rummy: two sequences or more, one natural
        ("4H 5H 6H 7H W W", "at-most-one", 2, 1, True),
        ("4H 5H 6H 7S 7D 7C", "at-most-one", 2, 1, False),  # one sequence only
        ("4H 5H 6H W W W", "at-most-one", 2, 1, True),  # an all-WILDCARD meld counts as a sequence
        ("4H 5H W 7S 8S W", "at-most-one", 2, 1, False),  # two sequences, neither natural
        ("4H 5H 6H 7H 8H 9H", "at-most-one", 2, 1, True),  # a six-card run splits in two
        ("9H 10H JH QH KH W", "all", 2, 1, True),  # W(=JH)-Q-K beside 9-10-J, or 8-9-10 + J-Q-K
        ("W W W W W W", "all", 2, 1, False),  # WILDCARD melds are never natural
        ("W W W W W W 2C 3C 4C", "all", 2, 1, True),
        # found by the random comparison: A-2-3-4-5 with three WILDCARDs in the gap
        ("QC W JC 5D W 5C AD W W", "exactly-one", 2, 0, True),
        ("W W W QD 8D W AH 8S W", "exactly-one", 2, 0, True),
    ],
)
def test_golden_going_out(hand, mode, sequences, natural, ok):
    check = go_out_check(cards(hand), SIMPLE, mode, sequences, natural)
    assert check.ok is ok, check.reason
    assert check.mode == mode
    if ok:
        assert len(check.arrangement.unmelded) in ALLOWED[mode]
        seqs, nats = seq_counts(check.arrangement)
        assert seqs >= sequences and nats >= natural
    else:
        assert check.reason


def test_going_out_reasons_name_the_cards():
    check = go_out_check(cards("2H 3H 4H 4S 4D 9C KD"), SIMPLE)
    assert not check.ok
    assert check.reason == "at least 4 cards stay unmelded (fewest: 2H 3H KD 9C)"
    assert [str(c) for c in check.arrangement.unmelded] == ["2H", "3H", "KD", "9C"]
    minor = go_out_check(cards("4H 5H 6H 7S 7D 7C"), SIMPLE, "exactly-one")
    assert "exactly one" in minor.reason
    v3 = go_out_check(cards("4H 5H 6H 7S 7D 7C"), SIMPLE, sequences=2, natural_sequences=1)
    assert "sequences" in v3.reason
    with pytest.raises(ValueError):
        go_out_check(cards("4H"), SIMPLE, "sideways")


@pytest.mark.parametrize(
    "hand, in_sequences, unmelded",
    [
        ("7H 8H 9H 7S 7D 7C", 3, ""),
        ("AS 2S 3S AH AD", 3, "AH AD"),  # B5: the ace counts for the run
        ("5H 6H 7H 8H W", 5, ""),  # the spare WILDCARD extends the run
        ("7S 7H 7D W", 0, ""),
        ("9C KD", 0, "KD 9C"),  # unmelded cards in suit order
    ],
)
def test_arrange_all_prefers_sequences(hand, in_sequences, unmelded):
    sol = arrange_all(cards(hand), R2M)
    assert sum(len(m) for m in sol.melds if m.kind is MeldKind.SEQUENCE) == in_sequences
    assert " ".join(str(c) for c in sol.unmelded) == unmelded


@pytest.mark.parametrize(
    "meld, value",
    [
        ("AS 2S 3S", 6),  # an ace low in a run counts 1
        ("QS KS AS", 35),  # high: 15
        ("AS AH AD", 45),
        ("7S 7H W", 21),
        ("W W W", 45),  # an all-WILDCARD meld: the WILDCARD value each
    ],
)
def test_meld_value_rummy_2m(meld, value):
    sol = best_melding(cards(meld), R2M)
    assert len(sol.melds) == 1 and not sol.unmelded
    assert meld_value(sol.melds[0], R2M) == value


def test_meld_value_wildcard_counts_what_it_stands_for():
    low = Meld(MeldKind.SEQUENCE, (WILD, *cards("2S 3S")), tuple(cards("AS 2S 3S")), low=1)
    assert meld_value(low, R2M) == 6  # the WILDCARD is the low ace: 1
    high = Meld(MeldKind.SEQUENCE, (*cards("QS KS"), WILD), tuple(cards("QS KS AS")), low=12)
    assert meld_value(high, R2M) == 35  # the high ace: 15


def test_meld_value_fixed_wildcard():
    fixed = dataclasses.replace(R2M, wild_melded=20)
    sol = best_melding(cards("7S 7H W"), fixed)
    assert meld_value(sol.melds[0], fixed) == 34


def test_big_hands_shortcuts_agree_with_the_plain_search():
    """Big hands take shortcuts (greedy arrangement, bound-0 search, one search per choice of
    aces played high); the plain exact programme must agree with the count they give."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding.plan import hand_masks as _masks

    rng = random.Random("big")
    checked = 0
    while checked < 12:
        hand = rng.sample(DECK, rng.randint(12, 36)) + [WILD] * rng.randint(1, 5)
        masks, w = _masks(hand)
        if meld_dp.deferrable(masks, w, True).bit_count() < 2:
            continue
        checked += 1
        best = best_melding(hand, SIMPLE)
        assert_arrangement(best, hand, SIMPLE)
        plain = meld_dp.min_cost(masks, w, True, SIMPLE.values, meld_dp.BEST)
        assert best.count == plain[0]


# -- the aces played high: branch and bound against the plain programme ------------------------

ace_hands = st.builds(
    lambda aces, rest, wilds: list(dict.fromkeys(aces + rest)) + [WILD] * wilds,
    st.lists(st.sampled_from([c for c in DECK if c.rank == 1]), min_size=1, max_size=4),
    st.lists(st.sampled_from([c for c in DECK if c.rank in (1, 2, 3, 9, 10, 11, 12, 13)]), max_size=18),
    st.integers(0, 5),
)


@settings(max_examples=80, deadline=None)
@given(ace_hands, st.sampled_from(["rummy-2m", "simple-rummy"]))
def test_branch_and_bound_over_high_aces_is_exact(hand, name):
    """The search that fixes the aces played high one by one (a relaxed search at each node)
    finds the optimum of the plain programme, which keeps the aces in its state: for the
    count (best_melding, fewest_unmelded) and for arrange_all's objective."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding import solver as meld_solver
    from rummyref.melding.plan import hand_masks as _masks

    ruleset = RULESETS[name]
    masks, w = _masks(hand)
    for values in (ruleset.values, tuple(meld_solver.FEWEST_WEIGHT + v for v in ruleset.values)):
        plain = meld_dp.min_cost(masks, w, True, values, meld_dp.BEST)
        split = meld_solver._by_high_aces(masks, w, True, values, plain[0])
        assert split is not None and split[0] == plain[0]
        assert meld_solver._by_high_aces(masks, w, True, values, plain[0] - 1) is None
    n_nat = sum(m.bit_count() for m in masks)

    def final_key(s: int, c: int) -> tuple[int, int]:
        return meld_solver._arrange_cost(c // meld_dp.BIG, c % meld_dp.BIG, bool(s & meld_dp.FLAG_RUN), w, n_nat), s

    plain = meld_dp.min_cost(masks, w, True, None, meld_dp.ARRANGE, final_key=final_key)
    best = final_key(plain[1], plain[0])[0]
    split = meld_solver._by_high_aces(masks, w, True, None, best, meld_dp.ARRANGE, final_key)
    assert split is not None and final_key(split[1], split[0])[0] == best
    assert meld_solver._by_high_aces(masks, w, True, None, best - 1, meld_dp.ARRANGE, final_key) is None


def test_arrange_all_on_big_hands_with_aces_agrees_with_the_plain_search(monkeypatch):
    """arrange_all takes the branch and bound from 12 natural cards: its arrangement is as good
    as the plain programme's (as many cards left out, as many in sequences)."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding import solver as meld_solver
    from rummyref.melding.plan import hand_masks as _masks

    def shape(sol: Solution) -> tuple[int, int]:
        return len(sol.unmelded), sum(len(m.cards) for m in sol.melds if m.kind is MeldKind.SEQUENCE)

    rng = random.Random("big-arrange")
    hands = []
    while len(hands) < 6:
        hand = rng.sample(DECK, rng.randint(12, 30)) + [WILD] * rng.randint(0, 5)
        if meld_dp.deferrable(*_masks(hand), True).bit_count() >= 2:
            hands.append(hand)
    fast = [arrange_all(h, SIMPLE) for h in hands]
    for h, sol in zip(hands, fast):
        assert_arrangement(sol, h, SIMPLE)
    monkeypatch.setattr(meld_solver, "SPLIT_ACES_FROM", 10**6)
    assert [shape(s) for s in fast] == [shape(arrange_all(h, SIMPLE)) for h in hands]


@settings(max_examples=40, deadline=None)
@given(
    st.sets(st.sampled_from([1, 2, 3, 4, 7, 9, 10, 11, 12, 13]), min_size=3, max_size=7),
    st.lists(st.sampled_from(range(4)), min_size=2, max_size=4, unique=True),
    st.integers(0, 7),
)
def test_branch_and_bound_with_suits_holding_the_same_cards(ranks, suits, wilds):
    """Suits holding the same cards are interchangeable, so only the first of them play their
    aces high: the optimum is still the plain programme's (count and arrange objective)."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding import solver as meld_solver
    from rummyref.melding.plan import hand_masks as _masks

    hand = [c for c in DECK if c.rank in ranks | {1} and c.index // 13 in suits] + [WILD] * wilds
    masks, w = _masks(hand)
    plain = meld_dp.min_cost(masks, w, True, SIMPLE.values, meld_dp.BEST)
    assert meld_solver._by_high_aces(masks, w, True, SIMPLE.values, plain[0])[0] == plain[0]
    n_nat = len(hand) - wilds

    def final_key(s: int, c: int) -> tuple[int, int]:
        return meld_solver._arrange_cost(c // meld_dp.BIG, c % meld_dp.BIG, bool(s & meld_dp.FLAG_RUN), w, n_nat), s

    plain = meld_dp.min_cost(masks, w, True, None, meld_dp.ARRANGE, final_key=final_key)
    best = final_key(plain[1], plain[0])[0]
    split = meld_solver._by_high_aces(masks, w, True, None, best, meld_dp.ARRANGE, final_key)
    assert split is not None and final_key(split[1], split[0])[0] == best


@settings(max_examples=40, deadline=None)
@given(
    st.sets(st.sampled_from([2, 3, 4, 9, 10, 11, 12, 13]), min_size=2, max_size=6),
    st.lists(st.sampled_from(range(4)), min_size=2, max_size=4, unique=True),
    st.integers(0, 6),
    st.sampled_from(GOING_OUT_MODES),
    st.integers(0, 4),
    st.integers(0, 2),
)
def test_going_out_search_with_suits_holding_the_same_cards(ranks, suits, wilds, mode, sequences, natural):
    """The going-out search tries one choice of aces played high per set of choices that are
    the same with suits of the same cards swapped: each choice has an arrangement exactly when
    the one it is taken for has; the search answers as the plain programme (which keeps the
    aces in its state), and as the brute-force reference on small hands."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding import goout as meld_goout
    from rummyref.melding.plan import hand_masks as _masks

    natural = min(natural, sequences)
    hand = [c for c in DECK if c.rank in ranks | {1} and c.index // 13 in suits] + [WILD] * wilds
    masks, w = _masks(hand)
    allowed = ALLOWED[mode]

    def fixed(high: int) -> bool:
        return meld_goout._search(masks, w, True, allowed, sequences, natural, 0, high) is not None

    kept = meld_dp.deferrable(masks, w, True)
    for high in range(16):
        if high & kept == high:
            assert fixed(high) == fixed(meld_goout._canonical(kept, high, masks)[1]), high
    plain = meld_goout._search(masks, w, True, allowed, sequences, natural, 0, 0, meld_dp.deferrable(masks, w, True))
    found = meld_goout.search(masks, w, True, allowed, sequences, natural)
    assert (found is not None) == (plain is not None)
    if len(hand) <= 10:
        assert go_out_check(hand, SIMPLE, mode, sequences, natural).ok == Reference(hand, SIMPLE).goes_out(
            mode, sequences, natural
        )


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.sampled_from(DECK), min_size=5, max_size=9),
    st.integers(0, 3),
    st.sampled_from(GOING_OUT_MODES),
    st.integers(1, 3),
    st.integers(0, 2),
)
def test_going_out_with_aces_of_every_suit_against_the_reference(cards, wilds, mode, sequences, natural):
    """Hands holding the four aces (every choice of aces played high may be tried): the
    going-out search answers as the plain programme and as the brute-force reference."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding import goout as meld_goout
    from rummyref.melding.plan import hand_masks as _masks

    natural = min(natural, sequences)
    hand = sorted({c for c in DECK if c.rank == 1} | cards, key=lambda c: c.index) + [WILD] * wilds
    masks, w = _masks(hand)
    allowed = ALLOWED[mode]
    plain = meld_goout._search(masks, w, True, allowed, sequences, natural, 0, 0, meld_dp.deferrable(masks, w, True))
    found = meld_goout.search(masks, w, True, allowed, sequences, natural)
    assert (found is not None) == (plain is not None)
    if len(hand) <= 10:
        assert go_out_check(hand, SIMPLE, mode, sequences, natural).ok == Reference(hand, SIMPLE).goes_out(
            mode, sequences, natural
        )


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.sampled_from([c for c in DECK if c.rank != 1]), min_size=6, max_size=16),
    st.integers(0, 4),
    st.sampled_from(GOING_OUT_MODES),
    st.integers(1, 4),
    st.integers(0, 2),
    st.integers(0, 15),
    st.integers(0, 15),
)
def test_a_relaxed_no_holds_for_every_choice_below_it(cards, wilds, mode, sequences, natural, fixed, high):
    """The branch and bound over aces played high drops a partial choice (some aces fixed low
    or high, the rest relaxed) when its search finds nothing: that "no" must hold for every
    full choice that agrees with it. And a relaxed answer that plays its relaxed aces
    consistently is a real arrangement: the choice it makes has one too."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding import goout as meld_goout
    from rummyref.melding.plan import hand_masks as _masks

    natural = min(natural, sequences)
    hand = sorted({c for c in DECK if c.rank == 1} | cards, key=lambda c: c.index) + [WILD] * wilds
    masks, w = _masks(hand)
    allowed = ALLOWED[mode]
    kept = meld_dp.deferrable(masks, w, True)
    fixed &= kept
    high &= fixed
    free = kept & ~fixed
    partial = meld_goout._search(masks, w, True, allowed, sequences, natural, free, high)
    leaves = [h for h in range(16) if h & kept == h and h & fixed == high]
    found = [h for h in leaves if meld_goout._search(masks, w, True, allowed, sequences, natural, 0, h) is not None]
    if partial is None:
        assert not found
    elif meld_goout._consistent(partial[3], free):
        chosen = high | sum(1 << i for i in range(4) if free >> i & 1 and partial[3][13] >> 4 * i & 15 == meld_goout.NAT)
        assert chosen in found


@settings(max_examples=80, deadline=None)
@given(
    st.sets(st.sampled_from(DECK), min_size=6, max_size=30),
    st.integers(0, 7),
    st.sampled_from(GOING_OUT_MODES),
    st.integers(0, 4),
    st.integers(0, 2),
    st.integers(0, 15),
    st.integers(0, 15),
    st.booleans(),
)
def test_the_wildcards_needed_never_drop_a_state_that_can_finish(
    cards, wilds, mode, sequences, natural, fixed, high, aces_high
):
    """The going-out search drops the states whose WILDCARDs used and the fewest the positions
    left need (``Need``, worked out without the condition, every ace relaxed) pass the hand's.
    That bound may never change an answer: for any choice of aces (relaxed, fixed low or
    high), the search with it finds an arrangement exactly when the search without it does,
    and what it finds meets the condition. And the need from the start is the fewest
    WILDCARDs the hand needs: with one fewer, no search goes out."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding import goout as meld_goout
    from rummyref.melding.plan import hand_masks as _masks

    natural = min(natural, sequences)
    hand = sorted(cards, key=lambda c: c.index) + [WILD] * wilds
    masks, w = _masks(hand)
    allowed = ALLOWED[mode]
    kept = meld_dp.deferrable(masks, w, aces_high)
    fixed &= kept
    high &= fixed
    need = meld_goout.Need(masks, w, aces_high, allowed)
    args = (masks, w, aces_high, allowed, sequences, natural, kept & ~fixed, high)
    bounded = meld_goout._search(*args, need=need)
    plain = meld_goout._search(*args)
    assert (bounded is None) == (plain is None)
    if bounded is not None:
        plan, left, place, _acts = bounded
        assert left in (0, 1) and place >= 0
        assert len(plan.unmelded) + left <= max(allowed)
    least = need.least()
    if 0 < least <= w:
        fewer = (masks, least - 1, aces_high, allowed, 0, 0, kept, 0)
        assert meld_goout._search(*fewer) is None


# -- every card melds: the yes/no the seating of a table asks -----------------------------------

dense_hands = st.builds(
    lambda cards, wilds: cards + [WILD] * wilds,
    st.lists(st.sampled_from([c for c in DECK if c.rank in (1, 2, 3, 4, 5, 10, 11, 12, 13)]), unique=True,
             max_size=30),
    st.integers(0, 7),
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(hands, dense_hands), st.sampled_from(["rummy-2m", "simple-rummy", "gin"]))
def test_every_card_melds_is_fewest_unmelded_at_zero(hand, name):
    """The cheap yes/no (a quick arrangement, then the search at bound 0 with the aces
    relaxed, then the full search) answers what the full search does."""
    ruleset = RULESETS[name]
    assert every_card_melds(hand, ruleset) == (fewest_unmelded(hand, ruleset).count == 0)


def test_every_card_melds_takes_each_way_and_agrees(monkeypatch):
    """On a seeded sample of dense hands, every way of answering is taken (the quick
    arrangement, a no from the relaxed search, the exact search where no ace may be played
    high, the search over the aces that may be), and every answer is the full search's."""
    from rummyref.melding import dp as meld_dp

    rng = random.Random(12)
    ways: dict[str, int] = {}
    real_all_melded = meld_dp.all_melded

    def all_melded(*args, **kwargs):
        found = real_all_melded(*args, **kwargs)
        aces = kwargs.get("aces", args[3] if len(args) > 3 else "exact")
        way = "relaxed no" if aces == "relaxed" and found is None else aces
        ways[way] = ways.get(way, 0) + 1
        return found

    hands_ = []
    for _ in range(400):
        pool = [c for c in DECK if c.rank in (1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13)]
        hands_.append(rng.sample(pool, rng.randint(10, 32)) + [WILD] * rng.randint(0, 4))
    expected = [fewest_unmelded(h, R2M).count == 0 for h in hands_]
    monkeypatch.setattr(meld_dp, "all_melded", all_melded)
    got, quick = [], 0
    for h in hands_:
        before = sum(ways.values())
        got.append(every_card_melds(h, R2M))
        quick += sum(ways.values()) == before  # the quick arrangement answered alone
    assert got == expected
    assert True in got and False in got
    assert quick > 0 and ways.get("relaxed no", 0) > 0 and ways.get("low", 0) > 0  # no ace may be high
    assert ways.get("mixed", 0) > 0 and ways.get("fixed", 0) > 0  # the aces decided one by one


@settings(max_examples=150, deadline=None)
@given(st.one_of(hands, dense_hands), st.booleans(), st.sampled_from(["low", "relaxed", "exact", "fixed", "mixed"]),
       st.integers(0, 15), st.integers(0, 15))
def test_the_yes_or_no_search_ends_where_the_search_at_bound_zero_does(hand, aces_high, aces, high, free):
    """``all_melded`` keeps no cost and no way back, yet ends in the state the search at
    bound 0 answers with (or neither finds one), in every mode of the aces."""
    from rummyref.melding import dp as meld_dp
    from rummyref.melding.plan import hand_masks as _masks

    masks, w = _masks(hand)
    may = meld_dp.deferrable(masks, w, aces_high)
    high, free = high & may, free & may & ~high
    values = tuple((1 << 24) + v for v in SIMPLE.values)
    found = meld_dp.min_cost(masks, w, aces_high, values, meld_dp.BEST, bound=0, aces=aces, high=high, free=free)
    assert meld_dp.all_melded(masks, w, aces_high, aces, high, free) == (None if found is None else found[1])
