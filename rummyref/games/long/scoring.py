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
    from rummyref.games.long.arrange import TableMeld
    from rummyref.games.long.legacy import LegacyCardFacts

__all__ = ["ArrangedMeld", "CardFacts", "HandScore", "LaidCard", "PlayerCards", "PlayerScore", "PointsFacts",
           "card_values_in_meld", "facts_from_json", "score_from_json", "score_shown", "facts_to_json", "held_value", "score_hand", "score_to_json"]


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
    held_cards: tuple[str, ...] = ()  #: the cards left in hand, as recorded


@dataclass(frozen=True)
class LaidCard:
    """One card of a meld on the table, as credited."""

    card: str  #: as laid (``W`` for a WILDCARD)
    counts_as: str  #: the card it counts as (a WILDCARD's stand-in; ``W`` among WILDCARDs alone)
    by: str  #: the player credited: who melded, laid off or claimed it
    value: int
    claimed: bool = False
    typed: str = ""  #: the token as the table typed it (``AD>run``, ``W=7H``, ``7D>match``)
    #: it lies sideways (B6) where ``typed`` does not say so: ``>NAME`` sent it to a match
    on_match: bool = False
    #: it lies upright where ``typed`` says sideways: ``>AS`` sent it to the meld of its
    #: claimer's own group, and it is one of the three that laid it (``AS AH AD*``)
    upright: bool = False

    @property
    def said(self) -> bool:
        """The table said something about the card (``>...``, ``^``, ``W=CARD``)."""
        return "=" in self.typed or ">" in self.typed or self.typed.endswith("^")

    @property
    def shown(self) -> str:
        """The card as the arrangement shows it: ``W=7H`` where the table said what a WILDCARD
        stands for, ``W(=7H)`` where ref read it; ``7D^`` laid sideways (B6); ``*`` claimed."""
        text = self.card
        if self.card == "W" and self.counts_as != "W":
            stated = "=" in self.typed
            text = f"W={self.counts_as}" if stated else f"W(={self.counts_as})"
        if self.on_match or (_sideways(self.typed, self.counts_as) and not self.upright):
            text += "^"
        return text + ("*" if self.claimed else "")


def _lies_on_match(card: Mapping[str, Any], typed: str) -> bool:
    """A kept card shown laid sideways (``^``) where what was typed does not say so: it lies
    sideways by ref's reading (``>NAME`` sent it to a match)."""
    shown = str(card.get("shown", "")).rstrip("*")
    return shown.endswith("^") and not _sideways(typed, card.get("as", ""))


def _lies_upright(card: Mapping[str, Any], typed: str) -> bool:
    """A kept card shown upright where what was typed says sideways: it laid its meld with its
    claimer's group (``AD>AS`` in ``AS AH AD*``)."""
    shown = str(card.get("shown", "")).rstrip("*")
    return bool(shown) and not shown.endswith("^") and _sideways(typed, card.get("as", ""))


def _sideways(typed: str, counts_as: str = "") -> bool:
    """Whether a card as typed (``str`` of its :class:`~rummyref.games.long.table.Laid`) lies
    sideways (B6, :attr:`~rummyref.games.long.table.Laid.sideways`): ``>match``, or ``>2D``
    naming a card of the rank it counts as (a WILDCARD: the card it stands for, said or read)."""
    if typed.endswith("^"):  # typed AD^: laid sideways on a match, the same as AD>match
        typed = typed[:-1] + ">match"
    head, *targets = typed.split(">")
    card, _, stands_for = head.partition("=")
    counts = stands_for or (counts_as if card == "W" and counts_as else card)
    if counts == "W":
        return False
    return any(t == "match" or (t != counts and t[:-1] == counts[:-1] and t[-1:] in "SHDC") for t in targets)


#: how a meld of the arrangement was decided (``ArrangedMeld.decided``)
DECIDED_BY_TABLE = "table"  #: the table said it: a meld stated with '/', or a designation in it
DECIDED_BY_B5 = "B5"  #: a card laid off or claimed that also fits a match counts for the run
DECIDED_BY_DEFAULT = "default"  #: the same, by ref's runs-first order, where the rulebook has no B5
DECIDED_BY_ENGINE = "engine"  #: nothing said and no choice between a run and a match: the engine


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
    decided: str = ""  #: DECIDED_BY_TABLE, _B5 (_DEFAULT) or _ENGINE ("" for a 0.1 hand)
    defaulted: tuple[str, ...] = ()  #: the cards B5 sent to this run (``Ben's AD``)
    stated: str = ""  #: the player who stated the meld as first laid with '/' ("": nobody)

    def kind_word(self) -> str:
        """The meld's kind in the house's words: run, match (or WILDCARDs alone)."""
        return {"sequence": "run", "group": "match"}.get(self.kind, self.kind)

    def in_order(self) -> tuple[LaidCard, ...]:
        """The cards as shown: a run in its order; a match (whose order means nothing) with each
        player's cards together, players in the order their first card comes."""
        if self.kind != "group":
            return self.laid
        first = {c.by: i for i, c in reversed(list(enumerate(self.laid)))}
        return tuple(sorted(self.laid, key=lambda c: first[c.by]))

    def cards_shown(self) -> str:
        """The meld's cards as the arrangement shows them (``5H 6H W=7H W(=8H)``)."""
        return " ".join(c.shown for c in self.in_order()) if self.laid else self.shown

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
    by_default = DECIDED_BY_B5 if ruleset.game_rule("B5") else DECIDED_BY_DEFAULT
    credit: Counter[str] = Counter()
    claimed: Counter[str] = Counter()
    arrangement = []
    for t in placement.melds:
        values = card_values_in_meld(t.meld, ruleset)
        laid = []
        for piece, rep, value in zip(t.pieces, t.meld.represents, values):
            (claimed if piece.claimed else credit)[piece.owner] += value
            counts_as = str(rep) if rep else "W"
            laid.append(LaidCard(str(piece.laid.card), counts_as, piece.owner, value, piece.claimed, str(piece.laid),
                                 piece.laid.on_match, piece.laid.to_group and not piece.laid.sideways))
        defaulted = _run_by_b5(t, placement.melds, ruleset)
        decided = DECIDED_BY_TABLE if t.designated else by_default if defaulted else DECIDED_BY_ENGINE
        arrangement.append(ArrangedMeld(t.meld.kind.value, tuple(str(c) for c in t.meld.cards), t.meld.describe(),
                                        sum(values), t.designated, meld_note(t.meld), tuple(laid), decided, defaulted,
                                        _stated_by(t)))
    scores = []
    for name, p in facts.players:
        held, penalty = held_value(p.held, ruleset)
        scores.append(PlayerScore(name, credit[name] + claimed[name] - held, credit[name], claimed[name], held, penalty,
                                  tuple(str(c) for c in p.held)))
    return HandScore("cards", tuple(scores), tuple(arrangement), placement.notes)


def _stated_by(t: TableMeld) -> str:
    """Who stated the meld's first cards with '/' ("" when nobody did)."""
    return next((p.owner for p in t.pieces if p.id in t.core), "") if t.stated else ""


def _run_by_b5(t: TableMeld, melds: Sequence[TableMeld], ruleset: RuleSet) -> tuple[str, ...]:
    """The cards of a run that B5's default put there: laid off or claimed, nothing said about
    them, and a match on the table could have taken them too (``Ben's AD``; ``Ben's W=AS``, a
    WILDCARD as the table said it)."""
    from rummyref.games.long.arrange import _head, b5_match

    if t.meld.kind is not MeldKind.SEQUENCE:
        return ()
    return tuple(f"{p.owner}'s {_head(p.laid)}" for p in t.pieces if b5_match(p, t, melds, ruleset.aces_high))


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
                "shown": m.cards_shown(),
                "value": m.value,
                "designated": m.designated,
                "decided": m.decided or None,
                "stated_by": m.stated or None,
                "defaulted": list(m.defaulted),
                "note": m.note,
                "laid": [{"card": c.card, "as": c.counts_as, "by": c.by, "value": c.value, "claimed": c.claimed,
                          "shown": c.shown} for c in m.laid],
                "typed": [c.typed for c in m.laid],
            }
            for m in score.arrangement
        ],
        "notes": list(score.notes),
    }


#: the columns a hand recorded in points does not know (its text leaves them blank)
CARD_COLUMNS = ("melded", "claimed", "held", "wild_penalty")


def score_shown(data: Mapping[str, Any]) -> dict[str, Any]:
    """A score as ``--json`` shows it (:func:`score_to_json`'s, as the record keeps it): a hand
    recorded in points has ``null``, not 0, for the columns only cards would tell."""
    if data.get("form") != "points":
        return dict(data)
    return {**data, "scores": [{**s, **dict.fromkeys(CARD_COLUMNS)} for s in data.get("scores", ())]}


def score_from_json(data: Mapping[str, Any], held: Mapping[str, Sequence[str]] | None = None) -> HandScore:
    """:func:`score_to_json`'s output back, as the record keeps it beside the facts (``held``:
    each player's cards left in hand, from the facts). What was credited when the hand was
    written: ``ref history`` shows it without scoring the hand again."""
    held = held or {}
    scores = tuple(
        PlayerScore(s["name"], s["points"], s.get("melded", 0), s.get("claimed", 0), s.get("held", 0),
                    s.get("wild_penalty", 0), tuple(held.get(s["name"], ())))
        for s in data.get("scores", ())
    )
    arrangement = tuple(
        ArrangedMeld(
            m["kind"], tuple(m["cards"]), m["shown"], m["value"], bool(m.get("designated")), m.get("note", ""),
            tuple(LaidCard(c["card"], c["as"], c["by"], c["value"], bool(c.get("claimed")), typed,
                           _lies_on_match(c, typed), _lies_upright(c, typed))
                  for c, typed in zip(m.get("laid", ()), list(m.get("typed", ())) + [""] * len(m.get("laid", ())))),
            m.get("decided") or "", tuple(m.get("defaulted", ())), m.get("stated_by") or "",
        )
        for m in data.get("arrangement", ())
    )
    return HandScore(data.get("form", "cards"), scores, arrangement, tuple(data.get("notes", ())))


def rescore(data: Mapping[str, Any], ruleset: RuleSet, roster: Sequence[str]) -> dict[str, int] | None:
    """A recorded hand's points again, from its chained facts under ``ruleset`` (``ref verify``):
    points as given; a hand told by its cards valued again card by card as it was arranged (each
    laid card where it sits, to whom it was credited; the cards held), with the valuation the
    scoring uses. None for a hand of 0.1 (its totals are history)."""
    from rummyref.cards import parse_card
    from rummyref.melding.melds import MeldKind

    if data.get("form") == "points":  # score_points, without its objects: 40,000 hands of them
        given = data["points"]
        return {n: int(given[n]) for n in roster if n in given}
    if "version" not in data:
        return None
    facts = tbl.facts_from_json(data, roster)
    points: Counter[str] = Counter()
    for m in data["score"]["arrangement"]:
        laid = m["laid"]
        cards = tuple(parse_card(c["card"]) for c in laid)
        reps = tuple(None if c["as"] == "W" else parse_card(c["as"]) for c in laid)
        meld = Meld(MeldKind(m["kind"]), cards, reps, 1 if m.get("note") == "run, ace low" else 0)
        for c, value in zip(laid, card_values_in_meld(meld, ruleset)):
            points[c["by"]] += value
    for name, p in facts.players:
        points[name] -= held_value(p.held, ruleset)[0]
    return {name: points[name] for name, _ in facts.players}
