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
    ("", []),
])  # fmt: skip
def test_a_comma_between_claimers_and_between_cards(answer, claims):
    assert said(answer) == claims


def test_cards_before_any_claimer_say_whose_is_missing():
    with pytest.raises(UnreadableInput, match="has no '='"):
        said("5D, Larry=6D")
