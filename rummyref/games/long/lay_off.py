"""One card laid off on a table of melds, read as ``ref score-hand`` reads it (SPEC §7).

The disputes ask "where does this card go?" (B5, B6) and "could this card be played?" (B3).
They answer by asking the scoring's own seating (:func:`rummyref.games.long.arrange.place`),
never a second reading of the table: each table meld is laid whole by a player of its own (so
its WILDCARDs keep it in one piece), and the card is laid off by another player, with what
the table said of it (``>run``, ``>match``). Where the card sits, and for what, is then what
the score credits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummyref.cards import Card
from rummyref.errors import RuleRefusal
from rummyref.games.long.arrange import place
from rummyref.games.long.table import CardFacts, Kind, Laid, PlayerCards
from rummyref.melding.melds import Meld
from rummyref.rules import values as card_values
from rummyref.rules.ruleset import RuleSet

_LAYER = "laid off"  #: the player who lays the card off (no table meld's player: those are "meld N")


@dataclass(frozen=True)
class Seat:
    """Where the score seats the card: the table meld (its index in the table given), the meld
    it makes, the card it stands for there, and its value there."""

    meld: int
    result: Meld
    stands_for: Card
    value: int


def seat(card: Card, table: Sequence[Sequence[Card]], ruleset: RuleSet, kind: str | None = None) -> Seat | None:
    """Where ``ref score-hand`` seats ``card`` laid off on ``table`` (``kind``: "run" or
    "match", as the table said it); None: the score refuses it there (no meld takes it)."""
    players = [(f"meld {i + 1}", PlayerCards(melded=(tuple(Laid(c) for c in m),), stated=True))
               for i, m in enumerate(table)]
    laid = Laid(card, kind=Kind(kind) if kind else None)
    players.append((_LAYER, PlayerCards(melded=((laid,),))))
    try:
        placement = place(CardFacts(players=tuple(players)), ruleset)
    except RuleRefusal:
        return None
    for t in placement.melds:
        for i, piece in enumerate(t.pieces):
            if piece.owner != _LAYER:
                continue
            rep = t.meld.represents[i]
            owners = {p.owner for p in t.pieces if p.owner != _LAYER}
            if rep is None or len(owners) != 1:  # never: a table meld is read whole, the card joins one
                return None
            return Seat(int(owners.pop().split()[1]) - 1, t.meld, rep, card_values.in_meld(t.meld, ruleset)[i])
    return None
