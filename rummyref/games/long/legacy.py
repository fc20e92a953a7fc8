"""Hands recorded by ref 0.1, scored exactly as 0.1 scored them: they are history.

0.1 kept a hand's facts without a ``version``: each player's melded cards (split by ``/``
when designated) and held cards, and the Rummy! claims. Its scoring did not follow B5 for
cards laid off or claimed (the first meld in roster order took them) and could credit a
WILDCARD to the wrong player. A record keeps the totals it gave, so a 0.1 hand read again is
scored by this copy of the 0.1 code, unchanged; new hands are scored by the table as melds
(:mod:`rummyref.games.long.arrange`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummyref.cards import Card, check_deck, format_cards
from rummyref.errors import RuleRefusal, UnreadableInput
from rummyref.games.long.scoring import (
    ArrangedMeld,
    HandScore,
    PlayerScore,
    card_values_in_meld,
    held_value,
    meld_note,
)
from rummyref.melding.melds import Meld, classify
from rummyref.rules.ruleset import RuleSet


@dataclass(frozen=True)
class LegacyPlayerCards:
    """One player's cards at the end of a hand. ``melded`` keeps the player's own grouping;
    ``designated`` is true when the player split them with ``/`` (rule B5)."""

    melded: tuple[tuple[Card, ...], ...] = ()
    held: tuple[Card, ...] = ()
    designated: bool = False

    @property
    def melded_cards(self) -> tuple[Card, ...]:
        return tuple(c for g in self.melded for c in g)


@dataclass(frozen=True)
class LegacyCardFacts:
    """The facts of a hand given as cards. ``players`` is in deal order."""

    players: tuple[tuple[str, LegacyPlayerCards], ...]
    out: str | None = None
    claims: tuple[tuple[str, Card], ...] = ()

    form = "cards"


def score_legacy(facts: LegacyCardFacts, ruleset: RuleSet, wildcards: int) -> HandScore:
    """Score a 0.1 hand from its cards exactly as 0.1 did. Raises on any inconsistent fact."""
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
        values = card_values_in_meld(meld, ruleset)
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
        held, penalty = held_value(p.held, ruleset)
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
        note=meld_note(meld),
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


def _check_out(facts: LegacyCardFacts) -> None:
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


def legacy_to_json(facts: LegacyCardFacts) -> dict:
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


def legacy_from_json(data: Mapping, roster: Sequence[str]) -> LegacyCardFacts:
    from rummyref.cards import parse_card

    players = []
    for n in roster:
        p = data["players"].get(n)
        if p is None:
            continue
        players.append(
            (
                n,
                LegacyPlayerCards(
                    tuple(tuple(parse_card(c) for c in g) for g in p["melded"]),
                    tuple(parse_card(c) for c in p["held"]),
                    bool(p["designated"]),
                ),
            )
        )
    claims = tuple((n, parse_card(c)) for n, c in data.get("claims", []))
    return LegacyCardFacts(tuple(players), data.get("out"), claims)


def as_card_facts(facts: LegacyCardFacts):
    """A 0.1 hand's cards as today's facts would hold them, to be offered back when the hand is
    corrected (``/`` where the player split the melds; no designation, which 0.1 had none of).
    The recorded hand itself stays scored as 0.1 scored it: this is only where an amend starts."""
    from rummyref.games.long.table import CardFacts, Laid, PlayerCards

    players = tuple((name, PlayerCards(tuple(tuple(Laid(c) for c in g) for g in p.melded), p.held, p.designated))
                    for name, p in facts.players)
    return CardFacts(players, facts.out, tuple((name, Laid(c)) for name, c in facts.claims))
