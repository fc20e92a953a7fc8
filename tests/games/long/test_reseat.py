"""The second seating of a table (a card sent to a match read as lying sideways, B6) starts
from the first seating's cores (:func:`rummyref.games.long.arrange._reseat`): it must seat the
table exactly as a second seating from scratch does, and refuse it the same way."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_strategies import ROSTER, legal_tables

from rummyref.errors import RummyrefError
from rummyref.games.long import arrange
from rummyref.games.long.table import read_hand
from rummyref.rules.ruleset import load_ruleset

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)

RULESET = load_ruleset("rummy-2m")


def seated(melded, claims, from_scratch: bool = False, roster=ROSTER) -> str:
    """The placement as text (every meld, card by card, who laid it, and the notes), or the
    refusal's message; ``from_scratch``: the second seating searches again from nothing."""
    facts = read_hand(roster, melded, (), claims)
    patch = mock.patch.object(arrange, "_reseat", return_value=None) if from_scratch else mock.MagicMock()
    with patch:
        try:
            placement = arrange.place(facts, RULESET)
        except RummyrefError as e:
            return f"refused: {e} ({e.hint})"
    return repr([(t.meld, [(p.id, p.owner, str(p.laid)) for p in t.pieces], sorted(t.core), t.stated, t.designated)
                 for t in placement.melds]) + repr(placement.notes)


def reseated(melded, claims, roster=ROSTER) -> list:
    """What each call of :func:`arrange._reseat` gave in a seating of the table."""
    given_back = []
    real = arrange._reseat

    def spy(*args):
        given_back.append(real(*args))
        return given_back[-1]

    with mock.patch.object(arrange, "_reseat", spy):
        seated(melded, claims, roster=roster)
    return given_back


# tables seated twice (a card sent to a player's match, a bare WILDCARD on a match); the first
# is the hunt's (bench/bench_hunt.py, seed 7): a 43-card table that took two covers of 2,400 steps
TWICE = [
    (["Bill=8H 8S 9S 10S 4D>Larry 6H 6S 6C W=6D 5H 5S 5D 3H 8C 9C 10C KC>run 8D 2H 2S 2C",
      "Ben=10H JH QH / KH / 5C>match / 3C 3S 3D / AC>AS",
      "Larry=7H 7S 7C 4S 4C 4H JC>run JD QD KD 10D 2D AS AD AH 6D"],
     ["Larry=W", "Ben=QC", "Ben=9D>JD"]),
    (["Bill=7S 7D 7C", "Ben=7H>Bill", "Larry=4H 5H 6H"], []),
    (["Bill=7S 7D 7C", "Ben=W>Bill", "Larry=4H 5H 6H"], []),
    (["Bill=KS KH KD / 9C 10C JC", "Ben=W^ / QC>run"], []),
    # the engine's order of a core's WILDCARDs (shown 6C W(=6S) W(=6D)), not the typed one, kept
    (["Ben=W=6D W=6S 6C", "Larry=KD KS KH / KC>Larry"], []),
]


@pytest.mark.parametrize("melded, claims", TWICE)
def test_a_table_seated_twice_is_seated_on_the_first_cores(melded, claims):
    calls = reseated(melded, claims)
    assert calls and all(found is not None for found in calls)  # the search from scratch never ran
    assert seated(melded, claims) == seated(melded, claims, from_scratch=True)


def test_a_wildcard_past_a_card_now_sideways_falls_back_to_the_whole_seating():
    # Gus laid only the sevens: the 7H>Gus lies sideways, so Ivy's W=7H cannot stand in the run
    roster = ("Gus", "Hal", "Ivy")
    melded = ["Gus=7S 7D 7C", "Hal=8H 9H 10H", "Ivy=7H>Gus W=7H>Hal"]
    refused = seated(melded, [], roster=roster)
    assert refused.startswith("refused: Ivy's W=7H>Hal (--melded) cannot be")
    assert reseated(melded, [], roster=roster) == [None]  # the first cores do not seat it: searched again
    assert refused == seated(melded, [], from_scratch=True, roster=roster)


@settings(max_examples=120, deadline=None)
@given(table=legal_tables(wildcards=4), extra=st.sampled_from(["", "Ben=7H>Bill", "Larry=W^", "Bill=KC>Ben"]))
def test_the_first_cores_seat_as_a_second_seating_from_scratch(table, extra):
    melded, _, claims = table
    claims = claims + ([extra] if extra else [])
    first, covered = seated_noting_the_cover(melded, claims)
    scratch = seated(melded, claims, from_scratch=True)
    if not covered:
        assert first == scratch
    else:  # the exact cover chose the cores: either seating is one, and the first is kept
        assert first.startswith("refused") == scratch.startswith("refused")


def seated_noting_the_cover(melded, claims, roster=ROSTER) -> tuple[str, bool]:
    """The table seated as :func:`seated` shows it, and whether the exact cover chose any
    cores on the way (then the first seating's cores are kept: :func:`arrange._reseat`)."""
    real, calls = arrange._from_cover, []

    def spy(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    with mock.patch.object(arrange, "_from_cover", spy):
        return seated(melded, claims, roster=roster), bool(calls)


def test_cores_the_cover_chose_are_kept_when_the_table_is_seated_again():
    # Bill's own cards meld no way that seats the 3S, so the cover chose the cores: the fours
    # and fives as matches. A search from scratch after Larry's W^ is read as lying sideways
    # may choose runs (4D 5D W, 4C 5C W), another seating; the one already shown is kept
    melded, claims = ["Bill=5D 5C W 4D 4C W 3S"], ["Bill=W", "Bill=W", "Larry=W^"]
    first, covered = seated_noting_the_cover(melded, claims)
    assert covered and reseated(melded, claims) != [None]
    assert "(Card(4D), Card(4C), Card(W)), represents=(Card(4D), Card(4C), Card(4S))" in first
    assert "(Card(5D), Card(5C), Card(W)), represents=(Card(5D), Card(5C), Card(5S))" in first
    assert not seated(melded, claims, from_scratch=True).startswith("refused")
