"""A card laid off on a table of melds, read as the rule set's kind of game scores it.

The disputes (B3, B5, B6) must read the table exactly as the scoring does: they ask the
kind's own seating, found here by the rule set's method and imported on first use (as
:mod:`rummyref.games.in_play` does), not a second reading of their own."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any

from rummyref.cards import Card

#: method (its value) -> "module:function(card, table, ruleset, kind) -> Seat | None"
SEATERS: dict[str, str] = {
    "melded-minus-held": "rummyref.games.long.lay_off:seat",
}


def has_seating(ruleset: Any) -> bool:
    """Does the rule set's kind of game seat cards laid off on a table of melds?"""
    return str(getattr(ruleset.method, "value", ruleset.method)) in SEATERS


def seat(card: Card, table: Sequence[Sequence[Card]], ruleset: Any, kind: str | None = None) -> Any:
    """Where the score seats ``card`` laid off on ``table`` (a ``Seat``: ``meld``, the index of
    the table meld; ``result``, ``stands_for``, ``value``), or None where it refuses it."""
    where = SEATERS[str(getattr(ruleset.method, "value", ruleset.method))]
    module, _, name = where.partition(":")
    return getattr(import_module(module), name)(card, table, ruleset, kind)
