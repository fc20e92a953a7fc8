"""The founders' test (rummyref.games.long.founders) against a brute force over every split of
the cards into melds of three founders or more: the same answer where no ace may be read high,
and never a "no" where a split exists (an ace read high may be left out: looser, never wrong).
The closer question (three founders in a row in a run, an ace read high where it waited)
against its own brute force: the same answer, aces and all. That a "no" is a certain "no" for
a seating is checked against the seating's brute force in test_cover.py."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from table_strategies import ROSTER, legal_tables

from rummyref.games.long.founders import ANY, MATCH, RUN, SIDEWAYS, could_found

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)

#: (suit index, rank): two or three suits, ranks close together at both ends (aces high or low)
SMALL = [(s, r) for s in range(3) for r in (1, 2, 3, 4, 5, 11, 12, 13)]

Card = tuple[int, int, bool, int]


def _brute(cards: list[Card], wild_founders: int, wild_others: int, aces_high: bool, close: bool = False) -> bool:
    """Every split of the cards into runs and matches, each with the WILDCARDs it takes (those
    it lacks in its places, and more), each holding three cards and three founders or more,
    each card in a meld of the kind said (a run has no WILDCARD in the place of a card laid
    sideways); WILDCARDs left over are free. ``close``: a run holds three founders *in a row*
    (:func:`_row_of_three`)."""
    if len({(s, r) for s, r, _, _ in cards}) < len(cards):
        return True
    sideways = {(s, r) for s, r, _, said in cards if said == SIDEWAYS}

    def readings(meld: tuple[Card, ...]) -> list[list[tuple[int, bool]]]:
        """The places a run of these cards takes (each with its founder flag), each way the
        aces read; none if they are no run."""
        if len({s for s, _, _, _ in meld}) != 1 or any(said in (MATCH, SIDEWAYS) for _, _, _, said in meld):
            return []
        suit = meld[0][0]
        ways = [[(r, f) for _, r, f, _ in meld]]
        if aces_high and any(r == 1 for _, r, _, _ in meld):
            ways.append([(14 if r == 1 else r, f) for _, r, f, _ in meld])
        return [sorted(rd) for rd in ways if len({x for x, _ in rd}) == len(rd)
                and not any((suit, 1 if x == 14 else x) in sideways
                            for x in range(min(x for x, _ in rd), max(x for x, _ in rd)))]

    def run_takes(meld: tuple[Card, ...], a: int, b: int) -> bool:
        """Whether a run of these cards with ``a`` founding and ``b`` other WILDCARDs is one."""
        for rd in readings(meld):
            gaps = rd[-1][0] - rd[0][0] + 1 - len(rd)
            if not close:
                if sum(f for _, f in rd) + a >= 3 and len(rd) + a + b >= 3 and a + b >= gaps:
                    return True
            elif _row_of_three(rd, a, b):
                return True
        return False

    def split(left: list[Card], wf: int, wo: int) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        for k in range(len(rest) + 1):
            for more in itertools.combinations(rest, k):
                meld = (first, *more)
                founders = sum(f for _, _, f, _ in meld)
                match = len({r for _, r, _, _ in meld}) == 1 and all(said != RUN for _, _, _, said in meld)
                others = [c for c in rest if c not in more]
                for a in range(wf + 1):
                    for b in range(wo + 1):
                        is_match = match and founders + a >= 3 and len(meld) + a + b >= 3
                        if (is_match or run_takes(meld, a, b)) and split(others, wf - a, wo - b):
                            return True
        return False

    return split(cards, wild_founders, wild_others)


def _row_of_three(places: list[tuple[int, bool]], a: int, b: int) -> bool:
    """A run of cards at these places (with their founder flags), ``a`` founding WILDCARDs and
    ``b`` others: three places in a row, each a founder, or a founding WILDCARD (in a gap,
    before or after the cards) or paid for a card that founds nothing (two runs merged: one's
    WILDCARD where the other has a card); the other gaps take any WILDCARDs left."""
    at = dict(places)
    lo, hi = places[0][0], places[-1][0]
    gaps = hi - lo + 1 - len(places)
    for w in range(lo - 3, hi + 2):
        row = range(w, w + 3)
        cost = sum(0 if at.get(x) else 1 for x in row)  # a founder: free; a gap, an end, a card that founds nothing: one
        gaps_in_row = sum(1 for x in row if lo <= x <= hi and x not in at)
        if cost <= a and gaps - gaps_in_row <= a - cost + b:
            return True
    return False


@settings(max_examples=800, deadline=None)
@given(picked=st.lists(st.sampled_from(SMALL), min_size=1, max_size=8, unique=True),
       founders=st.lists(st.booleans(), min_size=8, max_size=8),
       said=st.lists(st.sampled_from([ANY, ANY, ANY, RUN, MATCH, SIDEWAYS]), min_size=8, max_size=8),
       wild_founders=st.integers(0, 3), wild_others=st.integers(0, 2), aces_high=st.booleans())
def test_the_founders_test_is_the_brute_force_split(picked, founders, said, wild_founders, wild_others, aces_high):
    cards = [(s, r, f, k) for (s, r), f, k in zip(picked, founders, said)]
    exists = _brute(cards, wild_founders, wild_others, aces_high)
    answer = could_found(cards, wild_founders, wild_others, aces_high)
    if exists:
        assert answer  # never a "no" where a split exists
    if not aces_high or not any(r == 1 for _, r, _, _ in cards):
        assert answer == exists


#: for the closer question: two suits, ranks in a row at both ends (founders in a row or not)
CLOSE = [(s, r) for s in range(2) for r in (1, 2, 3, 4, 5, 6, 7, 12, 13)]


@settings(max_examples=800, deadline=None)
# a WILDCARD paid for the place of a card that founds nothing; an ace at both ends; two rows
@example(picked=[(0, 5), (0, 6), (0, 7)], founders=[True, False, True] + [True] * 5, said=[ANY] * 8,
         wild_founders=1, wild_others=0, aces_high=False)
@example(picked=[(0, 1), (0, 2), (0, 13)], founders=[True] * 8, said=[ANY] * 8, wild_founders=2, wild_others=0,
         aces_high=True)
@example(picked=[(1, 2), (1, 3), (1, 6), (1, 7)], founders=[True] * 8, said=[ANY] * 8, wild_founders=2,
         wild_others=0, aces_high=False)
@given(picked=st.lists(st.sampled_from(CLOSE), min_size=1, max_size=8, unique=True),
       founders=st.lists(st.booleans(), min_size=8, max_size=8),
       said=st.lists(st.sampled_from([ANY, ANY, ANY, RUN, MATCH, SIDEWAYS]), min_size=8, max_size=8),
       wild_founders=st.integers(0, 3), wild_others=st.integers(0, 2), aces_high=st.booleans())
def test_the_closer_question_is_its_brute_force_split(picked, founders, said, wild_founders, wild_others, aces_high):
    """Three founders in a row in each run, an ace read high only where it waited: the same
    answer as the brute force, aces and all; and never a yes where the looser test says no."""
    cards = [(s, r, f, k) for (s, r), f, k in zip(picked, founders, said)]
    answer = could_found(cards, wild_founders, wild_others, aces_high, close=True)
    assert answer == _brute(cards, wild_founders, wild_others, aces_high, close=True)
    if answer:
        assert could_found(cards, wild_founders, wild_others, aces_high)


@pytest.mark.parametrize(("cards", "wild_founders", "wild_others", "loose", "close"), [
    # founders 5 and 7 around a 6 laid off, and a 9 founder: three founders, none in a row
    ([(0, 5, True), (0, 6, False), (0, 7, True), (0, 8, False), (0, 9, True)], 0, 0, True, False),
    # ... a founding WILDCARD is paid for the 6's place (two runs merged): 5 W(6) 7 in a row
    ([(0, 5, True), (0, 6, False), (0, 7, True), (0, 8, False), (0, 9, True)], 1, 0, True, True),
    # ... a WILDCARD that founds nothing pays for nothing
    ([(0, 5, True), (0, 6, False), (0, 7, True), (0, 8, False), (0, 9, True)], 0, 1, True, False),
    # 5 6 founders and two WILDCARDs, one founding: W 5 6 (or 5 6 W) in a row, the other after
    ([(1, 5, True), (1, 6, True), (1, 9, False)], 1, 1, True, True),
    # two founders apart: 5 . . 8 founders, 6 and 7 WILDCARDs: both must found
    ([(1, 5, True), (1, 8, True)], 1, 1, True, False),
    ([(1, 5, True), (1, 8, True)], 2, 0, True, True),
])
def test_a_run_needs_three_founders_in_a_row_in_the_closer_question(cards, wild_founders, wild_others, loose, close):
    cards = [(*c, ANY) for c in cards]
    assert could_found(cards, wild_founders, wild_others, False) == loose
    assert could_found(cards, wild_founders, wild_others, False, close=True) == close


def test_an_ace_is_read_low_or_high_not_both_in_the_closer_question():
    """AS 2S KS, all founders, two founding WILDCARDs, aces high: A 2 W and W K A would take
    the ace twice; A 2 W and K W W, or W K A and 2 W W, take three WILDCARDs. The looser
    test does not remember whether the ace waited for the high end, so it may count it at
    both ends (yes); the closer one says no. With three WILDCARDs, both say yes."""
    cards = [(0, 1, True, ANY), (0, 2, True, ANY), (0, 13, True, ANY)]
    assert could_found(cards, 2, 0, True)
    assert not could_found(cards, 2, 0, True, close=True)
    assert could_found(cards, 3, 0, True, close=True)


@pytest.mark.parametrize(("cards", "wild_founders", "wild_others", "expected"), [
    # a run of three founders; a card laid off on it
    ([(0, 5, True), (0, 6, True), (0, 7, True), (0, 8, False)], 0, 0, True),
    # a run with two founders: a third founder is a WILDCARD that may found, not one laid off
    ([(0, 5, True), (0, 6, True), (0, 7, False)], 0, 1, False),
    ([(0, 5, True), (0, 6, True), (0, 7, False)], 1, 0, True),
    # a match of founders, and two cards laid off on melds that are not there
    ([(0, 7, True), (1, 7, True), (2, 7, True), (0, 8, False), (0, 9, False)], 0, 0, False),
    # ... the run 7-8-9 takes them if a 7 goes to it, but it holds one founder
    ([(0, 7, True), (1, 7, True), (2, 7, True), (3, 7, True), (0, 8, False), (0, 9, False)], 0, 0, False),
    # ... with two WILDCARDs that may found it, the match left lacks one; with three, none lacks
    ([(0, 7, True), (1, 7, True), (2, 7, True), (0, 8, False), (0, 9, False)], 2, 0, False),
    ([(0, 7, True), (1, 7, True), (2, 7, True), (0, 8, False), (0, 9, False)], 3, 0, True),
    # a run carried across a gap with a WILDCARD: 3 W 5 6 of one suit, founders 3, 5, 6
    ([(1, 3, True), (1, 5, True), (1, 6, True), (1, 7, False)], 0, 1, True),
    ([(1, 3, True), (1, 5, True), (1, 6, True), (1, 7, False)], 0, 0, False),
    # the 5 goes to the match of 5s (it needs its founder), and a WILDCARD that founds nothing
    # takes its place in the run 2-7, which reaches the 6 and 7 laid off
    ([(0, 2, True), (0, 3, True), (0, 4, True), (0, 5, True), (0, 6, False), (0, 7, False), (1, 5, True),
      (2, 5, True)], 0, 1, True),
    ([(0, 2, True), (0, 3, True), (0, 4, True), (0, 5, True), (0, 6, False), (0, 7, False), (1, 5, True),
      (2, 5, True)], 0, 0, False),
    # a card said to go to a match sits in no run: 5S 6S and 7S>match make no run
    ([(0, 5, True), (0, 6, True), (0, 7, True, MATCH)], 0, 0, False),
    ([(0, 5, True), (0, 6, True), (0, 7, True, MATCH)], 3, 0, True),
    # 5S 6S W 8S takes a WILDCARD in the place of the 7S that went to the match of 7s ...
    ([(0, 5, True), (0, 6, True), (0, 8, True), (0, 7, True, MATCH), (1, 7, True), (2, 7, True)], 0, 1, True),
    # ... but not of a 7S laid sideways on it (B6): the run is cut off there
    ([(0, 5, True), (0, 6, True), (0, 8, True), (0, 7, True, SIDEWAYS), (1, 7, True), (2, 7, True)], 0, 1, False),
    # a card said to go to a run sits in no match
    ([(0, 9, True, RUN), (1, 9, True), (2, 9, True)], 0, 0, False),
    ([(0, 9, True), (1, 9, True), (2, 9, True)], 0, 0, True),
    # the ace high: Q K A of one suit, all founders
    ([(2, 12, True), (2, 13, True), (2, 1, True)], 0, 0, True),
    # WILDCARDs alone, and nothing at all
    ([], 3, 0, True),
    ([], 0, 0, True),
])
def test_the_founders_test_on_tables_worked_by_hand(cards, wild_founders, wild_others, expected):
    cards = [c if len(c) == 4 else (*c, ANY) for c in cards]
    for aces_high in (False, True):
        if expected and not aces_high and any(r == 1 for _, r, _, _ in cards) and any(r == 13 for _, r, _, _ in cards):
            continue  # Q K A is a run only with aces high
        assert could_found(cards, wild_founders, wild_others, aces_high) == expected


def test_the_wildcards_of_a_stated_match_sit_in_the_match_of_its_rank():
    """7H 7D and a WILDCARD stated as a match, 7C, and 8S 9S of one player: the WILDCARD could
    found a run 8S 9S W only if it were free; it sits in the match of 7s."""
    cards = [(1, 7, True, MATCH), (2, 7, True, MATCH), (3, 7, True, ANY), (0, 8, True, ANY), (0, 9, True, ANY)]
    assert could_found(cards, 1, 0, True)
    assert not could_found(cards, 1, 0, True, matched={7: 1})
    assert could_found(cards, 2, 0, True, matched={7: 1})


@settings(max_examples=200, deadline=None)
@given(table=legal_tables(wildcards=7))
def test_a_legal_table_always_passes_the_founders_test(table):
    """Random legal tables (every meld a core of three laid by one player, the rest laid off,
    claimed or said to join it; up to 7 WILDCARDs): they have a seating, so the test says yes."""
    from rummyref.games.long.arrange import _all_found, _barred, _Known, _split, pieces_of
    from rummyref.games.long.table import read_hand
    from rummyref.rules.ruleset import load_ruleset

    melded, held, claims = table
    ruleset = load_ruleset("rummy-2m")
    facts = read_hand(ROSTER, melded, held, claims)
    typed = pieces_of(facts)
    barred = _barred(typed)
    stated, own, loose = _split(typed, facts, ruleset, barred)
    assert _all_found(stated, own, loose, ruleset.aces_high, _Known())
