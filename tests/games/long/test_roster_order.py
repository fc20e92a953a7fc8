"""The order of the roster, and of the options, changes nothing (the-table-as-melds.md).

Where two seatings are equally good by every rule (two players' WILDCARDs that could trade
places, whose own melds give way so that a card laid off can sit), ref takes the players in
alphabetical order of their names (``arrange.by_name``), never in the roster's order or the
order the options were typed: the same table gets the same credits whoever deals."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_strategies import legal_tables

from rummyref.errors import RummyrefError
from rummyref.games.long.scoring import score_hand
from rummyref.games.long.table import read_hand
from rummyref.rules.ruleset import load_ruleset

RS = load_ruleset("rummy-2m")
ROSTER = ("Bill", "Ben", "Larry")
HELD = ("Bill=", "Ben=", "Larry=")


def seated(roster, melded, claims, held=HELD):
    """The points and the arrangement (each meld's cards: card, what it counts as, who laid it)
    of a table, or the refusal's message."""
    try:
        s = score_hand(read_hand(roster, melded, held, claims), RS, 2, roster)
    except RummyrefError as e:
        return "refused", e.message
    melds = Counter(tuple(sorted((c.card, c.counts_as, c.by, c.value) for c in m.laid)) for m in s.arrangement)
    return s.points(), melds


@pytest.mark.parametrize("melded, claims, expected", [
    # two bare WILDCARDs laid off on JH QH KH: the lower place (10H) to Ben, the name first in
    # alphabetical order, the ace high (AH, 15) to Larry, whoever deals first
    (["Bill=JH QH KH", "Ben=W", "Larry=W"], [], {"Bill": 30, "Ben": 10, "Larry": 15}),
    (["Bill=5H 6H 7H", "Larry=W", "Ben=W"], [], {"Bill": 18, "Ben": 8, "Larry": 9}),
    # claims: the order of the --claim options changes nothing (Bill's W the 2H, Larry's the 3H)
    (["Bill=4H 5H 6H"], ["Bill=W", "Larry=AH W"], {"Bill": 17, "Ben": 0, "Larry": 4}),
    (["Bill=4H 5H 6H"], ["Larry=AH W", "Bill=W"], {"Bill": 17, "Ben": 0, "Larry": 4}),
    # Bill's 9S needs a WILDCARD as the 10S before Larry's JS QS KS: Bill's own or Ben's; Bill's
    # own melds give way (Ben's name comes first: his are kept), whoever deals first
    (["Bill=3S 3H 3D W 9S", "Ben=4C 5C 6C W", "Larry=JS QS KS"], [], {"Bill": 28, "Ben": 22, "Larry": 30}),
])
def test_the_same_table_is_credited_alike_in_every_roster_order(melded, claims, expected):
    answers = set()
    for roster in itertools.permutations(ROSTER):
        points, melds = seated(roster, melded, claims)
        assert points == expected, roster
        answers.add(tuple(sorted(melds.items())))
    assert len(answers) == 1


@settings(max_examples=60, deadline=None)
@given(legal_tables(), st.permutations(ROSTER), st.randoms(use_true_random=False))
def test_a_random_table_is_seated_alike_in_any_roster_and_option_order(table, roster, rnd):
    """Any legal table: another roster order, the --melded, --held and --claim options in
    another order, give the same credits and the same arrangement card by card (or the same
    refusal)."""
    melded, held, claims = table
    first = seated(ROSTER, melded, claims, held)
    melded2, held2, claims2 = list(melded), list(held), list(claims)
    for options in (melded2, held2, claims2):
        rnd.shuffle(options)
    again = seated(tuple(roster), melded2, claims2, held2)
    if first[0] == "refused":  # the message lists the cards in the roster's order
        assert again[0] == "refused"
    else:
        assert again == first
