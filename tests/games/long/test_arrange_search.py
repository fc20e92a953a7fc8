"""The seating search's quick test (:func:`could_be`, worked out from per-piece signatures)
against its plain definition, on random pieces: designations, stated WILDCARDs, aces."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.cards import DECK, WILD, Card, Rank
from rummyref.games.long.arrange import HIGH_ACE, Piece, _holes, could_be
from rummyref.games.long.table import Kind, Laid, Where, read_token

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)


def could_be_plain(pieces, aces_high: bool) -> bool:
    """The definition: one kind said at most; WILDCARDs alone; or one rank with no natural suit
    twice (unless >run said); or (unless >match said) one suit, at most 13 cards, no rank twice
    when read with the ace low or, where aces may be high, high."""
    kinds = {p.laid.kind for p in pieces if p.laid.kind is not None}
    if len(kinds) > 1:
        return False
    fixed = [c for p in pieces if (c := p.fixed) is not None]
    if not fixed:
        return True
    naturals = [p.laid.card for p in pieces if not p.laid.card.is_wild]
    if Kind.RUN not in kinds and all(c.rank == fixed[0].rank for c in fixed) and len(
        {c.suit for c in naturals}
    ) == len(naturals):
        return True
    if Kind.MATCH in kinds or len(pieces) > 13 or any(c.suit != fixed[0].suit for c in fixed):
        return False
    ranks = [int(c.rank) for c in fixed]  # type: ignore[arg-type]
    readings = [ranks] + ([[HIGH_ACE if r == 1 else r for r in ranks]] if aces_high and 1 in ranks else [])
    return any(len(set(r)) == len(r) and max(r) - min(r) < 13 for r in readings)


# natural cards of one suit and of a few ranks, so that both kinds of meld come up
NEAR = [c for c in DECK if c.index < 13 or c.rank in (1, 2, 12, 13)]
laid = st.one_of(
    st.builds(Laid, st.sampled_from(NEAR)),
    st.builds(lambda c, k: Laid(c, kind=k), st.sampled_from(NEAR), st.sampled_from([Kind.RUN, Kind.MATCH])),
    st.builds(lambda c: Laid(WILD, c), st.one_of(st.none(), st.sampled_from(NEAR))),
    st.builds(lambda c, k: Laid(WILD, c, k), st.one_of(st.none(), st.sampled_from(NEAR)),
              st.sampled_from([Kind.RUN, Kind.MATCH])),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(laid, max_size=15), st.booleans())
def test_could_be_agrees_with_its_definition(cards, aces_high):
    pieces = [Piece(i, c, "Bill") for i, c in enumerate(cards)]
    assert could_be(pieces, aces_high) == could_be_plain(pieces, aces_high)


@pytest.mark.parametrize(
    "tokens, expected",
    [
        ("QS KS AS", True),  # Q-K-A
        ("7S 7H W", True),
        ("7S 7H 8S", False),  # neither one rank nor one suit
        ("7S>run 7H", False),  # a run of two suits
        ("7S>run 8S>match", False),  # two kinds said
        ("7S 7S", False),  # no card twice
        ("W W W", True),
        ("W=7H 7H 7D", True),  # a match may hold a WILDCARD said to be a card of it
        ("W=7H 8H 7H", False),  # a run cannot hold the 7H twice
    ],
)
def test_could_be_examples(tokens, expected):
    where = Where("Bill", "--melded")
    pieces = [Piece(i, read_token(t, where, ("Bill",)), "Bill") for i, t in enumerate(tokens.split())]
    assert could_be(pieces, aces_high=True) is expected
    assert could_be_plain(pieces, aces_high=True) is expected


def holes_plain(pieces, aces_high: bool) -> set:
    """The cards missing inside a meld that can only be a run, in the reading with fewest."""
    fixed = [c for p in pieces if (c := p.fixed) is not None]
    kinds = {p.laid.kind for p in pieces if p.laid.kind is not None}
    if not fixed or Kind.RUN not in kinds and all(c.rank == fixed[0].rank for c in fixed):
        return set()
    suit = fixed[0].suit
    ranks = [int(c.rank) for c in fixed]
    best = None
    for reading in [ranks] + ([[HIGH_ACE if r == 1 else r for r in ranks]] if aces_high and 1 in ranks else []):
        holes = {Card(Rank.ACE if x == HIGH_ACE else Rank(x), suit) for x in range(min(reading), max(reading))
                 if x not in reading}  # fmt: skip
        if best is None or len(holes) < len(best):
            best = holes
    return best or set()


@settings(max_examples=300, deadline=None)
@given(st.lists(laid, max_size=10), st.booleans())
def test_holes_agree_with_their_definition(cards, aces_high):
    pieces = [Piece(i, c, "Bill") for i, c in enumerate(cards)]
    assert _holes(pieces, aces_high) == {c.index for c in holes_plain(pieces, aces_high)}
