"""Scoring one hand of a melded-minus-held game (Rummy 2,000,000, SPEC §3 and §7), from the facts.

A hand is given as cards (:class:`~rummyref.games.long.table.CardFacts`: the table's melds,
card by card with the player who laid each, and what each player holds) or, in a hurry, as
each player's points (:class:`PointsFacts`). For cards, every card on the table is seated in
one meld (:mod:`rummyref.games.long.arrange`), valued where it sits, and credited to the
player who put it there; cards held are debited. The arrangement returned is the one
credited, card by card, so what ``ref`` prints and what it counts always agree.

Hands recorded by ref 0.1 (facts without a ``version``) are re-scored as 0.1 scored them
(:mod:`rummyref.games.long.legacy`): their totals are history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from rummyref.cards import Card
from rummyref.errors import RuleRefusal, UnreadableInput
from rummyref.games.long import table as tbl
from rummyref.games.long.table import CardFacts, PlayerCards
from rummyref.melding.melds import Meld, MeldKind
from rummyref.rules import values as card_values
from rummyref.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from rummyref.games.long.legacy import LegacyCardFacts

__all__ = ["ArrangedMeld", "CardFacts", "HandScore", "LaidCard", "PlayerCards", "PlayerScore", "PointsFacts",
           "card_values_in_meld", "facts_from_json", "facts_to_json", "held_value", "score_hand", "score_to_json"]


@dataclass(frozen=True)
class PointsFacts:
    """The facts of a hand given in a hurry: each player's points."""

    points: tuple[tuple[str, int], ...]

    form = "points"


Facts = Union[CardFacts, PointsFacts, "LegacyCardFacts"]


@dataclass(frozen=True)
class PlayerScore:
    name: str
    points: int
    melded: int = 0  #: value of the cards the player melded or laid off
    claimed: int = 0  #: value of the cards won by the player's Rummy! claims
    held: int = 0  #: value of the cards left in hand (WILDCARD penalties included)
    wild_penalty: int = 0  #: the part of ``held`` due to WILDCARDs left in hand


@dataclass(frozen=True)
class LaidCard:
    """One card of a meld on the table, as credited."""

    card: str  #: as laid (``W`` for a WILDCARD)
    counts_as: str  #: the card it counts as (a WILDCARD's stand-in; ``W`` among WILDCARDs alone)
    by: str  #: the player credited: who melded, laid off or claimed it
    value: int
    claimed: bool = False


@dataclass(frozen=True)
class ArrangedMeld:
    """One meld of the arrangement used for scoring."""

    kind: str
    cards: tuple[str, ...]
    shown: str  #: cards with what each WILDCARD stands for
    value: int
    designated: bool
    note: str = ""  #: e.g. "run, ace low", "match"
    laid: tuple[LaidCard, ...] = ()  #: card by card, who is credited with what (empty for 0.1 hands)

    def credits(self) -> str:
        """``Larry 2D 3D 4D (9), Ben AD (1)``: who laid which cards of the meld, for what."""
        by: dict[str, list[LaidCard]] = {}
        for c in self.laid:
            by.setdefault(c.by, []).append(c)
        return ", ".join(
            f"{name} {' '.join(c.card + ('*' if c.claimed else '') for c in cards)} ({sum(c.value for c in cards)})"
            for name, cards in by.items()
        )


@dataclass(frozen=True)
class HandScore:
    form: str  #: "cards" or "points"
    scores: tuple[PlayerScore, ...]
    arrangement: tuple[ArrangedMeld, ...] = ()
    notes: tuple[str, ...] = ()

    def points(self) -> dict[str, int]:
        return {s.name: s.points for s in self.scores}


# -- values ---------------------------------------------------------------------------


def card_values_in_meld(meld: Meld, ruleset: RuleSet) -> tuple[int, ...]:
    """The value of each card of a meld where it sits (one valuation: :mod:`rummyref.rules.values`)."""
    return card_values.in_meld(meld, ruleset)


def held_value(cards: Sequence[Card], ruleset: RuleSet) -> tuple[int, int]:
    """(value of cards left in hand, the part of it that is WILDCARD penalty)."""
    return card_values.held_total(cards, ruleset), card_values.wild_penalty(cards, ruleset)


def meld_note(meld: Meld) -> str:
    if meld.kind is not MeldKind.SEQUENCE:
        return "match" if meld.kind is MeldKind.GROUP else "WILDCARDs"
    if meld.ace_low:
        return "run, ace low"
    if meld.ace_high:
        return "run, ace high"
    return "run"


# -- scoring ----------------------------------------------------------------------------


def score_points(facts: PointsFacts, roster: Sequence[str]) -> HandScore:
    given = dict(facts.points)
    missing = [n for n in roster if n not in given]
    if missing:
        raise UnreadableInput(f"no points given for {', '.join(missing)}", hint="give --points NAME=N for every player")
    return HandScore("points", tuple(PlayerScore(n, given[n]) for n in roster))


def score_cards(facts: CardFacts, ruleset: RuleSet, wildcards: int, roster: Sequence[str]) -> HandScore:
    """Score a hand from the table's melds (SPEC §7). Raises on any inconsistent fact, naming
    the player and the option: nothing the table typed is ever dropped."""
    from rummyref.games.long.arrange import place

    _check_method(ruleset)
    tbl.check_facts(facts, roster, wildcards)
    placement = place(facts, ruleset)
    credit: Counter[str] = Counter()
    claimed: Counter[str] = Counter()
    arrangement = []
    for t in placement.melds:
        values = card_values_in_meld(t.meld, ruleset)
        laid = []
        for piece, rep, value in zip(t.pieces, t.meld.represents, values):
            (claimed if piece.claimed else credit)[piece.owner] += value
            laid.append(LaidCard(str(piece.laid.card), str(rep) if rep else "W", piece.owner, value, piece.claimed))
        arrangement.append(ArrangedMeld(t.meld.kind.value, tuple(str(c) for c in t.meld.cards), t.meld.describe(),
                                        sum(values), t.designated, meld_note(t.meld), tuple(laid)))
    scores = []
    for name, p in facts.players:
        held, penalty = held_value(p.held, ruleset)
        scores.append(PlayerScore(name, credit[name] + claimed[name] - held, credit[name], claimed[name], held, penalty))
    return HandScore("cards", tuple(scores), tuple(arrangement), placement.notes)


def _check_method(ruleset: RuleSet) -> None:
    if ruleset.method != "melded-minus-held":
        raise RuleRefusal(
            f"{ruleset.title} hands are not scored as melded minus held",
            hint="record this game's hands as --points, or with its own commands",
        )


def score_hand(facts: Facts, ruleset: RuleSet, wildcards: int, roster: Sequence[str]) -> HandScore:
    if isinstance(facts, PointsFacts):
        return score_points(facts, roster)
    if isinstance(facts, CardFacts):
        return score_cards(facts, ruleset, wildcards, roster)
    from rummyref.games.long.legacy import score_legacy

    return score_legacy(facts, ruleset, wildcards)


# -- facts <-> JSON (the record keeps facts as canonical JSON) -----------------------------


def facts_to_json(facts: Facts) -> dict[str, Any]:
    if isinstance(facts, PointsFacts):
        return {"form": "points", "points": {n: p for n, p in facts.points}}
    if isinstance(facts, CardFacts):
        return tbl.facts_to_json(facts)
    from rummyref.games.long.legacy import legacy_to_json

    return legacy_to_json(facts)


def facts_from_json(data: Mapping[str, Any], roster: Sequence[str]) -> Facts:
    """The facts a record keeps, back: points; cards with a ``version`` (the table as melds);
    cards without one, as ref 0.1 recorded them (re-scored as 0.1 did)."""
    if data["form"] == "points":
        return PointsFacts(tuple((n, int(data["points"][n])) for n in roster if n in data["points"]))
    if "version" in data:
        if data["version"] != tbl.FACTS_VERSION:
            raise UnreadableInput(f"hand facts of version {data['version']!r}: this ref reads up to {tbl.FACTS_VERSION}",
                                  hint="a newer ref wrote this record; upgrade ref to read it")
        return tbl.facts_from_json(data, roster)
    from rummyref.games.long.legacy import legacy_from_json

    return legacy_from_json(data, roster)


def score_to_json(score: HandScore) -> dict[str, Any]:
    return {
        "form": score.form,
        "scores": [
            {
                "name": s.name,
                "points": s.points,
                "melded": s.melded,
                "claimed": s.claimed,
                "held": s.held,
                "wild_penalty": s.wild_penalty,
            }
            for s in score.scores
        ],
        "arrangement": [
            {
                "kind": m.kind,
                "cards": list(m.cards),
                "shown": m.shown,
                "value": m.value,
                "designated": m.designated,
                "note": m.note,
                "laid": [{"card": c.card, "as": c.counts_as, "by": c.by, "value": c.value, "claimed": c.claimed}
                         for c in m.laid],
            }
            for m in score.arrangement
        ],
        "notes": list(score.notes),
    }
