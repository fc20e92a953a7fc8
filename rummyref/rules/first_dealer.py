"""Choosing the first dealer (Simple Rummy S3) from the cards turned up for each player.

Cards are dealt face up to each player until each has a regular card (a WILDCARD turned up
is passed over). The highest regular card deals first; the order of ranks and the suit
order that breaks ties are the rule set's data (``[first_dealer]``). The player to the
dealer's left plays first, and play goes clockwise (S6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummyref.cards import Card, Rank, Suit, check_holders, format_cards
from rummyref.errors import NotFound, RuleRefusal, UnreadableInput
from rummyref.rules.ruleset import FirstDealerOrder, RuleSet

_RANK_NAMES = {
    Rank.ACE: "aces", Rank.JACK: "jacks", Rank.QUEEN: "queens", Rank.KING: "kings",
} | {r: f"{int(r)}s" for r in Rank if 2 <= int(r) <= 10}  # fmt: skip
_SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}


@dataclass(frozen=True)
class TurnedUp:
    name: str
    cards: tuple[Card, ...]  #: as turned up, WILDCARDs first
    card: Card  #: the regular card that counts

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "turned_up": [str(c) for c in self.cards], "card": str(self.card)}


@dataclass(frozen=True)
class FirstDealer:
    dealer: str
    first_player: str  #: the dealer's left (next clockwise)
    turn_order: tuple[str, ...]  #: clockwise from the first player
    reason: str
    rule: str
    turned_up: tuple[TurnedUp, ...]  #: in seating order
    ranking: tuple[str, ...]  #: players from the highest card to the lowest
    order: FirstDealerOrder | None = field(default=None, repr=False, compare=False)  #: the rule set's order

    def reason_shown(self, show: Callable[[str], str]) -> str:
        """:attr:`reason` with each name as ``show`` gives it (a long name cut for a line)."""
        if self.order is None:
            return self.reason
        by_name = {t.name: t for t in self.turned_up}
        return _reason(by_name[self.ranking[0]], by_name[self.ranking[1]], self.order, show)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "first_player": self.first_player,
            "turn_order": list(self.turn_order),
            "reason": self.reason,
            "rule": self.rule,
            "ranking": list(self.ranking),
            "turned_up": [t.to_dict() for t in self.turned_up],
        }


def first_dealer(
    turned_up: Mapping[str, Sequence[Card]],
    ruleset: RuleSet,
    max_wildcards: int | None = None,
    whose: str = "cards turned up",
) -> FirstDealer:
    """Who deals first and why. ``turned_up`` lists the players in seating order (clockwise),
    each with the cards turned up for them in order. ``max_wildcards`` defaults to the most
    any table of the rule set may use."""
    order = ruleset.first_dealer
    if order is None:
        raise NotFound(
            f"rule set {ruleset.name!r} has no rule for choosing the first dealer",
            hint="use --ruleset simple-rummy, or add a [first_dealer] table to the rule set file",
        )
    n = len(turned_up)
    if not ruleset.players_min <= n <= ruleset.players_max:
        raise RuleRefusal(
            f"{n} player{'s' if n != 1 else ''} given; {ruleset.title} is for "
            f"{ruleset.players_min} to {ruleset.players_max}",
            rule="S1",
        )
    seen: set[str] = set()
    players: list[TurnedUp] = []
    for name, cards in turned_up.items():
        if not name.strip() or name.casefold() in seen:
            raise UnreadableInput(f"player name {name!r} is empty or given twice", hint="give each player once")
        seen.add(name.casefold())
        players.append(_counted(name.strip(), tuple(cards), order.rule))
    limit = ruleset.wild_limit if max_wildcards is None else max_wildcards
    check_holders([(f"{p.name}'s {whose}", p.cards) for p in players], limit,
                  None if max_wildcards is None else f"this {ruleset.session_short} was opened with")
    ranked = sorted(players, key=lambda p: _strength(p.card, order))
    best = ranked[0]
    i = players.index(best)
    seating = [p.name for p in players]
    first = seating[(i + 1) % n]
    turn = tuple(seating[(i + 1) % n :] + seating[: (i + 1) % n])
    return FirstDealer(
        dealer=best.name,
        first_player=first,
        turn_order=turn,
        reason=_reason(best, ranked[1], order),
        rule=order.rule,
        turned_up=tuple(players),
        ranking=tuple(p.name for p in ranked),
        order=order,
    )


def _counted(name: str, cards: tuple[Card, ...], rule: str) -> TurnedUp:
    regular = [i for i, c in enumerate(cards) if not c.is_wild]
    if not regular:
        raise RuleRefusal(
            f"no regular card turned up for {name} ({format_cards(cards) or 'no cards'})",
            rule=rule,
            hint="cards are dealt face up until each player has a regular card; list them all",
        )
    if regular[0] != len(cards) - 1:
        raise RuleRefusal(
            f"{name}'s cards go on after the first regular card, {cards[regular[0]]} "
            f"({format_cards(cards)})",
            rule=rule,
            hint="dealing stops at a player's first regular card: list only WILDCARDs before it, then it",
        )
    return TurnedUp(name, cards, cards[-1])


def _strength(card: Card, order: FirstDealerOrder) -> tuple[int, int]:
    """Smaller is stronger."""
    return order.ranks.index(card.rank), order.suits.index(card.suit)


def _reason(best: TurnedUp, second: TurnedUp, order: FirstDealerOrder, show: Callable[[str], str] = str) -> str:
    b, s = best.card, second.card
    assert b.rank is not None and b.suit is not None and s.rank is not None and s.suit is not None  # the regular cards that count, never WILDCARDs
    head = f"{show(best.name)}'s {b.pretty()} beats {show(second.name)}'s {s.pretty()}"
    if b.rank == s.rank:
        return (
            f"{head}: equal rank, {_SUIT_NAMES[b.suit]} outrank {_SUIT_NAMES[s.suit]} "
            f"(suits rank {', '.join(_SUIT_NAMES[x] for x in order.suits)}; {order.rule})"
        )
    return (
        f"{head}, the next best card: {_RANK_NAMES[b.rank]} outrank {_RANK_NAMES[s.rank]} "
        f"(ranks run {' '.join(r.label for r in order.ranks)}, highest first; {order.rule})"
    )
