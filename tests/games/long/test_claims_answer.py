"""The Rummy! claims answer of ``ref night`` (and ``score-hand`` at a terminal): a comma between
claimers, and between one claimer's cards as everywhere else (SPEC §2; audit, stop 34)."""

from __future__ import annotations

import pytest

from rummyref.errors import UnreadableInput
from rummyref.games.long.form import read_claims
from rummyref.record import Game, Player

GAME = Game("g", "rummy-2m", 2_000_000, 2, tuple(Player(n, i) for i, n in enumerate(("Bill", "Ben", "Larry"), 1)), "")


def said(answer: str) -> list[tuple[str, str]]:
    return [(name, str(laid)) for name, laid in read_claims(answer, GAME)]


@pytest.mark.parametrize("answer, claims", [
    ("Larry=5D", [("Larry", "5D")]),
    ("Larry=5D 6D, Ben=9D", [("Larry", "5D"), ("Larry", "6D"), ("Ben", "9D")]),
    ("Larry=5D,6D, Ben=9D", [("Larry", "5D"), ("Larry", "6D"), ("Ben", "9D")]),  # was: '6D' has no '='
    ("Larry=5D, W=7H, ben=9D>run", [("Larry", "5D"), ("Larry", "W=7H"), ("Ben", "9D>run")]),
    ("Larry=W=7H,5D", [("Larry", "W=7H"), ("Larry", "5D")]),
    # every spelling the card parser reads as a WILDCARD (SPEC §2), not only W (audit issue12-round4, 3)
    ("Larry=5D, joker=7H, Ben=9D", [("Larry", "5D"), ("Larry", "W=7H"), ("Ben", "9D")]),
    ("Larry=5D, * = 7H, JK=8H, wild=9H", [("Larry", "5D"), ("Larry", "W=7H"), ("Larry", "W=8H"), ("Larry", "W=9H")]),
    ("Ben=9D, Wildcard=7H", [("Ben", "9D"), ("Ben", "W=7H")]),
    ("", []),
])  # fmt: skip
def test_a_comma_between_claimers_and_between_cards(answer, claims):
    assert said(answer) == claims


def test_cards_before_any_claimer_say_whose_is_missing():
    with pytest.raises(UnreadableInput, match="has no '='"):
        said("5D, Larry=6D")


def test_a_wildcard_before_any_claimer_says_whose_is_missing():
    with pytest.raises(UnreadableInput, match="claim 'JOKER=7H' is a WILDCARD and the card it stands for: "
                                              "it does not say whose it is"):
        said("JOKER=7H, Larry=5D")


def test_a_roster_name_an_older_ref_kept_wins_over_the_wildcard_word():
    """A new name that reads as a WILDCARD is refused (rummyref.names.reads_as); a roster kept
    from before may hold one, and its player is named as before."""
    old = Game("g", "rummy-2m", 2_000_000, 2, tuple(Player(n, i) for i, n in enumerate(("Bill", "W", "Joker"), 1)), "")
    got = [(name, str(laid)) for name, laid in read_claims("Bill=5D, w=6D, joker=7D, *=8D", old)]
    assert got == [("Bill", "5D"), ("W", "6D"), ("Joker", "7D"), ("Joker", "W=8D")]
