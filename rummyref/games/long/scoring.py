"""Scoring one hand of a melded-minus-held game (Rummy 2,000,000, SPEC §3), from the facts.

The facts are what the table says happened: for each player the cards melded or laid off
during the hand (optionally split into designated melds with ``/``) and the cards left in
hand; who went out; Rummy! claims. The checks: one deck across the whole table, no more
WILDCARDs than the game uses, every melded card part of a valid meld (the cards that
cannot be are named), a player who went out holds nothing. Values come from the rule set.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence

from rummyref.cards import Card, check_deck, format_cards
from rummyref.errors import RuleRefusal, UnreadableInput
from rummyref.melding.melds import Meld, MeldKind, classify
from rummyref.rules import values as card_values
from rummyref.rules.ruleset import RuleSet


@dataclass(frozen=True)
class PlayerCards:
    """One player's cards at the end of a hand. ``melded`` keeps the player's own grouping;
    ``designated`` is true when the player split them with ``/`` (rule B5)."""

    melded: tuple[tuple[Card, ...], ...] = ()
    held: tuple[Card, ...] = ()
    designated: bool = False

    @property
    def melded_cards(self) -> tuple[Card, ...]:
        return tuple(c for g in self.melded for c in g)


@dataclass(frozen=True)
class CardFacts:
    """The facts of a hand given as cards. ``players`` is in deal order."""

    players: tuple[tuple[str, PlayerCards], ...]
    out: str | None = None
    claims: tuple[tuple[str, Card], ...] = ()

    form = "cards"


@dataclass(frozen=True)
class PointsFacts:
    """The facts of a hand given in a hurry: each player's points."""

    points: tuple[tuple[str, int], ...]

    form = "points"


@dataclass(frozen=True)
class PlayerScore:
    name: str
    points: int
    melded: int = 0  #: value of the cards the player melded or laid off
    claimed: int = 0  #: value of the cards won by the player's Rummy! claims
    held: int = 0  #: value of the cards left in hand (WILDCARD penalties included)
    wild_penalty: int = 0  #: the part of ``held`` due to WILDCARDs left in hand


@dataclass(frozen=True)
class ArrangedMeld:
    """One meld of the arrangement used for scoring."""

    kind: str
    cards: tuple[str, ...]
    shown: str  #: cards with what each WILDCARD stands for
    value: int
    designated: bool
    note: str = ""  #: e.g. "ace low: 1", "ace high: 15"


@dataclass(frozen=True)
class HandScore:
    form: str  #: "cards" or "points"
    scores: tuple[PlayerScore, ...]
    arrangement: tuple[ArrangedMeld, ...] = ()
    notes: tuple[str, ...] = ()

    def points(self) -> dict[str, int]:
        return {s.name: s.points for s in self.scores}


def _meld_note(meld: Meld) -> str:
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


def score_cards(facts: CardFacts, ruleset: RuleSet, wildcards: int) -> HandScore:
    """Score a hand from its cards (SPEC §3). Raises on any inconsistent fact."""
    if ruleset.method != "melded-minus-held":
        raise RuleRefusal(
            f"{ruleset.title} hands are not scored as melded minus held",
            hint="record this game's hands as --points, or with its own commands",
        )
    players = dict(facts.players)
    table: list[Card] = [c for _, p in facts.players for c in p.melded_cards + p.held]
    table += [c for _, c in facts.claims]
    check_deck(table, wildcards, where="across the whole table this hand")
    _check_out(facts)

    # 1. the melds a player designated (B5) are kept as stated
    fixed: list[tuple[Meld, str]] = []  # (meld, owner)
    own: dict[str, list[Card]] = {}  # each player's undesignated melded cards
    for name, p in facts.players:
        for group in p.melded:
            meld = None
            if p.designated and len(group) >= 3:
                meld = classify(group, ruleset.aces_high)
                if meld is None:
                    raise RuleRefusal(
                        f"{name}'s designated meld {format_cards(group)} is not a valid meld",
                        rule="B5",
                        hint="a match is 3+ cards of one rank; a run is 3+ consecutive cards of one suit",
                    )
            if meld is not None:
                fixed.append((meld, name))
            else:
                own.setdefault(name, []).extend(group)
    # who scores each melded card: the player who melded it, or who claimed it
    credit_list = [(c, o) for m, o in fixed for c in m.cards]
    credit_list += [(c, n) for n, cards in own.items() for c in cards]
    credit_list += [(c, n) for n, c in facts.claims]

    # 2. each player's other cards are arranged by the engine, runs first (B5's default); cards
    #    left over (lay-offs on another player's meld, Rummy! claims) extend a designated meld
    #    where they fit, else are arranged with the melds they could join
    notes: list[str] = []
    melds, leftovers = [], [c for _, c in facts.claims]
    for cards in own.values():
        solution = _solve(cards, ruleset)
        melds += list(solution.melds)
        leftovers += list(solution.unmelded)
    fixed_melds = [m for m, _ in fixed]
    if leftovers:  # lay-offs: on a designated meld first, then on the engine's melds
        fixed_melds, leftovers = _extend(fixed_melds, leftovers, ruleset)
        melds, leftovers = _extend(melds, leftovers, ruleset)
    if leftovers:
        melds, fixed_melds, note = _place_leftovers(melds, fixed_melds, leftovers, ruleset)
        if note:
            notes.append(note)

    # 3. value each card where it sits, and credit it to whoever melded (or claimed) it
    arrangement: list[ArrangedMeld] = []
    value_of: dict[Card, list[int]] = {}
    for meld, designated in [(m, True) for m in fixed_melds] + [(m, False) for m in melds]:
        values = card_values.in_meld(meld, ruleset)
        for card, v in zip(meld.cards, values):
            value_of.setdefault(card, []).append(v)
        arrangement.append(_arranged(meld, values, ruleset, designated=designated))
    credit: Counter[str] = Counter()
    claimed: Counter[str] = Counter()
    claim_set = Counter(facts.claims)
    for card, owner in credit_list:
        v = value_of[card].pop(0)
        if claim_set.get((owner, card), 0) > 0:
            claim_set[(owner, card)] -= 1
            claimed[owner] += v
        else:
            credit[owner] += v
    scores = []
    for name, p in facts.players:
        held, penalty = card_values.held_total(p.held, ruleset), card_values.wild_penalty(p.held, ruleset)
        pts = credit[name] + claimed[name] - held
        scores.append(PlayerScore(name, pts, credit[name], claimed[name], held, penalty))
    for name, _ in facts.claims:
        if name not in players:
            raise UnreadableInput(f"{name} claimed a card but is not at the table")
    return HandScore("cards", tuple(scores), tuple(arrangement), tuple(notes))


def _arranged(meld: Meld, values: tuple[int, ...], ruleset: RuleSet, designated: bool) -> ArrangedMeld:
    return ArrangedMeld(
        kind=meld.kind.value,
        cards=tuple(str(c) for c in meld.cards),
        shown=meld.describe(),
        value=sum(values),
        designated=designated,
        note=_meld_note(meld),
    )


def _solve(cards: Sequence[Card], ruleset: RuleSet):
    from rummyref.melding.solver import Solution, arrange_all

    return arrange_all(list(cards), ruleset) if cards else Solution(0, (), ())


def _touches(meld: Meld, cards: Sequence[Card]) -> bool:
    if any(c.is_wild for c in cards) or any(c.is_wild for c in meld.cards):
        return True
    return any(c.rank == m.rank or c.suit == m.suit for c in cards for m in meld.cards)


def _extend(melds: list[Meld], leftovers: list[Card], ruleset: RuleSet) -> tuple[list[Meld], list[Card]]:
    """Lay left-over cards on melds where they fit, keeping each meld's kind (B5); repeated
    until no card fits any more (so 6S then 5S both extend 2S 3S 4S)."""
    melds, rest = list(melds), list(leftovers)
    progress = True
    while rest and progress:
        progress, still = False, []
        for card in rest:
            for i, meld in enumerate(melds):
                longer = classify(list(meld.cards) + [card], ruleset.aces_high, prefer=meld.kind)
                if longer is not None and longer.kind is meld.kind:
                    melds[i], progress = longer, True
                    break
            else:
                still.append(card)
        rest = still
    return melds, rest


def _place_leftovers(melds, fixed, leftovers, ruleset):
    """Arrange the left-over cards with the melds they could join; then with the designated
    melds too; then refuse, naming the cards that cannot be melded."""
    reopen = [m for m in melds if _touches(m, leftovers)]
    keep = [m for m in melds if not _touches(m, leftovers)]
    solution = _solve(leftovers + [c for m in reopen for c in m.cards], ruleset)
    if not solution.unmelded:
        return keep + list(solution.melds), fixed, ""
    if fixed:
        everything = leftovers + [c for m in reopen for c in m.cards] + [c for m in fixed for c in m.cards]
        merged = _solve(everything, ruleset)
        if not merged.unmelded:
            note = "the designated melds could not all be kept: the engine arranged them with the cards laid off"
            return keep + list(merged.melds), [], note
    raise RuleRefusal(
        f"these melded cards cannot be part of any valid meld on the table: {format_cards(solution.unmelded)}",
        hint="every card melded or laid off must sit in a match (3+ of a rank) or a run (3+ in suit)",
    )


def _check_out(facts: CardFacts) -> None:
    names = [n for n, _ in facts.players]
    if facts.out is None:
        return
    if facts.out not in names:
        raise UnreadableInput(f"{facts.out} went out but is not at the table")
    p = dict(facts.players)[facts.out]
    if p.held:
        raise RuleRefusal(
            f"{facts.out} went out, so {facts.out} holds nothing, but {format_cards(p.held)} "
            f"{'was' if len(p.held) == 1 else 'were'} given as left in hand",
            hint="a player who went out melded every card (the last one may have been discarded)",
        )


def score_hand(facts: CardFacts | PointsFacts, ruleset: RuleSet, wildcards: int, roster: Sequence[str]) -> HandScore:
    if isinstance(facts, PointsFacts):
        return score_points(facts, roster)
    return score_cards(facts, ruleset, wildcards)


# -- facts <-> JSON (the record keeps facts as canonical JSON) -----------------------------


def facts_to_json(facts: CardFacts | PointsFacts) -> dict:
    if isinstance(facts, PointsFacts):
        return {"form": "points", "points": {n: p for n, p in facts.points}}
    return {
        "form": "cards",
        "players": {
            n: {
                "melded": [[str(c) for c in g] for g in p.melded],
                "designated": p.designated,
                "held": [str(c) for c in p.held],
            }
            for n, p in facts.players
        },
        "out": facts.out,
        "claims": [[n, str(c)] for n, c in facts.claims],
    }


def facts_from_json(data: Mapping, roster: Sequence[str]) -> CardFacts | PointsFacts:
    from rummyref.cards import parse_card

    if data["form"] == "points":
        return PointsFacts(tuple((n, int(data["points"][n])) for n in roster if n in data["points"]))
    players = []
    for n in roster:
        p = data["players"].get(n)
        if p is None:
            continue
        players.append(
            (
                n,
                PlayerCards(
                    tuple(tuple(parse_card(c) for c in g) for g in p["melded"]),
                    tuple(parse_card(c) for c in p["held"]),
                    bool(p["designated"]),
                ),
            )
        )
    claims = tuple((n, parse_card(c)) for n, c in data.get("claims", []))
    return CardFacts(tuple(players), data.get("out"), claims)


def score_to_json(score: HandScore) -> dict:
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
            }
            for m in score.arrangement
        ],
        "notes": list(score.notes),
    }
