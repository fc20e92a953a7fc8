"""A going-out arrangement never reads a WILDCARD as a card the same hand holds in another run
of the suit when the same cards sit in runs side by side (audit rules44 #8: Sequences Rummy's
``4H 5H 6H 7H W W`` went out as ``4H W(=5H) W(=6H) / 5H 6H 7H``; the rulebook's V3 reads it
``4H 5H 6H / 7H W W``). The check's answer, its counts and the cards left out are unchanged."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.cards import DECK, WILD, parse_cards
from rummyref.melding.melds import MeldKind
from rummyref.melding.plan import Plan
from rummyref.melding.solver import go_out_check
from rummyref.rules.ruleset import load_ruleset

SIMPLE = load_ruleset("simple-rummy")


def shown(cards: str, mode: str = "at-most-one", sequences: int = 2, natural: int = 1) -> list[str]:
    found = go_out_check(parse_cards(cards), SIMPLE, mode, sequences, natural)
    assert found.ok and found.arrangement is not None
    return [m.describe() for m in found.arrangement.melds]


@pytest.mark.parametrize("cards, melds", [
    ("4H 5H 6H 7H W W", ["4H 5H 6H", "7H W(=8H) W(=9H)"]),  # the rulebook's V3 example
    ("W W 5C 6C 7C 8C", ["5C 6C 7C", "8C W(=9C) W(=10C)"]),
    ("2H 3H 4H 5H 6H W", ["2H 3H 4H", "5H 6H W(=7H)"]),
    # found by the property below: a run's natural cards as the plan kept them named places
    # past its ends (AS 2S 3S of the run below it), and the runs were left overlapping
    ("AS 2S 3S 4S 5S 6S 9S 7S W W", ["AS 2S 3S", "4S 5S 6S 7S", "9S W(=10S) W(=JS)"]),
])
@pytest.mark.parametrize("mode", ["at-most-one", "all"])
def test_the_wildcards_stand_for_cards_the_hand_does_not_hold(cards, melds, mode):
    assert shown(cards, mode) == melds


def test_runs_that_hold_a_place_twice_are_set_side_by_side_and_others_left_alone():
    plan = Plan()
    plan.runs = [[2, 4, 3, {4, 5, 6}], [2, 5, 3, {7}]]  # 4H 5H 6H / W(=5H) W(=6H) 7H
    plan.untangle()
    assert sorted((r[1], r[2], sorted(r[3])) for r in plan.runs) == [(4, 3, [4, 5, 6]), (7, 3, [7])]
    apart_already = Plan()
    apart_already.runs = [[2, 1, 3, {1, 2}], [2, 10, 3, {10, 11, 12}]]  # AH 2H W / 10H JH QH
    apart_already.untangle()
    assert apart_already.runs == [[2, 1, 3, {1, 2}], [2, 10, 3, {10, 11, 12}]]
    other_suits = Plan()
    other_suits.runs = [[2, 4, 3, {4}], [1, 4, 3, {4, 5, 6}]]  # 4H W W / 4D 5D 6D
    other_suits.untangle()
    assert other_suits.runs == [[2, 4, 3, {4}], [1, 4, 3, {4, 5, 6}]]


@settings(max_examples=300, deadline=None)
@given(suit=st.sampled_from("SHDC"), ranks=st.sets(st.integers(1, 13), min_size=3, max_size=8),
       wild=st.integers(0, 3), others=st.lists(st.sampled_from(DECK), max_size=4, unique=True),
       mode=st.sampled_from(["at-most-one", "all", "exactly-one"]),
       condition=st.sampled_from([(2, 1), (2, 0), (3, 1), (2, 2), (3, 2)]))
def test_a_going_out_arrangement_is_the_same_going_out_read_plainly(suit, ranks, wild, others, mode, condition):
    """Dense one-suit hands (where runs overlap), under Sequences Rummy's condition (V3): the
    answer, the sequences and natural ones (at least as asked), and the cards left out are
    those of a valid going out; no run's WILDCARD stands for a card the hand holds when two
    runs of the suit could sit apart. (Without the condition a going out is the count's own
    arrangement, the best melding, shown as the engine found it.)"""
    cards = [c for c in parse_cards(" ".join(f"{'A23456789TJQK'[r - 1].replace('T', '10')}{suit}" for r in ranks))]
    cards += [c for c in others if c not in cards] + [WILD] * wild
    found = go_out_check(cards, SIMPLE, mode, *condition)
    if not found.ok:
        return
    melds = found.arrangement.melds
    placed = sorted([str(c) for m in melds for c in m.cards] + [str(c) for c in found.arrangement.unmelded])
    assert placed == sorted(str(c) for c in cards)  # every card once
    runs = [m for m in melds if m.kind in (MeldKind.SEQUENCE, MeldKind.WILD)]
    assert len(runs) >= condition[0]
    assert sum(1 for m in runs if m.kind is MeldKind.SEQUENCE and m.is_natural) >= condition[1]
    left = len(found.arrangement.unmelded)
    assert left in {"all": (0,), "at-most-one": (0, 1), "exactly-one": (1,)}[mode]
    runs_of_suit = [m for m in melds if m.kind is MeldKind.SEQUENCE]
    for i, a in enumerate(runs_of_suit):
        for b in runs_of_suit[i + 1:]:
            same = [m for m in runs_of_suit if m.represents[0].suit == a.represents[0].suit]
            if places(a) & places(b) and b in same and len(same) == 2:  # (a third may stand in the way)
                assert not apart(a, b), (a.describe(), b.describe())


def places(m) -> set[int]:
    return set(range(m.low, m.low + len(m.cards)))


def apart(a, b) -> bool:
    """Brute force: could the natural cards of runs ``a`` and ``b`` sit in two runs of as many
    places in all, side by side, with as many natural runs (every pair of places tried)?"""
    nats = {m.low + k for m in (a, b) for k, c in enumerate(m.cards) if not c.is_wild}
    total, before = len(a.cards) + len(b.cards), a.is_natural + b.is_natural
    spans = [set(range(s, s + n)) for n in range(3, 14) for s in range(1, 16 - n)]
    return any(len(x) + len(y) == total and not x & y and nats <= x | y and nats & x and nats & y
               and (x <= nats) + (y <= nats) >= before
               for x in spans for y in spans if max(x) <= 13 or min(x) >= 2 if max(y) <= 13 or min(y) >= 2)
