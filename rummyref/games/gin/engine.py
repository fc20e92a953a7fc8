"""A hand of Gin Rummy settled from the cards (rules G1-G9, G13, G14 of the Gin rulebook).

Pure: no database, no command line. Every number (hand size, card values, aces low, knock
limit, bonuses) comes from the rule set; this module knows only the shape of the game.
Three exact searches:

- **deadwood**: the least deadwood of a hand and one arrangement that reaches it. It is the
  meld engine's ``best_melding`` under the gin rule set (the sum of the values of the unmelded
  cards), so ``ref count --ruleset gin`` and a settled hand never disagree.
- **the defender** (G7): every set of the defender's cards that extends one of the knocker's
  melds a card at a time (8H, then 9H, onto 5H 6H 7H), combined over the knocker's melds without
  sharing a card; the cards not laid off are melded by the deadwood search. The defender keeps
  the least deadwood and, among equal results, lays off the fewest cards (its own melds first).
- **the knocker** (G14): among the arrangements with the least deadwood, the one that leaves the
  defender the fewest deadwood points to shed by laying off (the same as: the defender's greatest
  deadwood after lay-offs), then the fewest cards laid off. Where the table states the melds the
  knocker laid down, those melds are taken as they are and the rest of the hand is deadwood.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations, product

from rummyref.cards import SUITS, Card, Rank, format_cards
from rummyref.errors import (
    DuplicateCard,
    RuleRefusal,
    RulesetError,
    TooManyWildcards,
    UnreadableInput,
)
from rummyref.melding.melds import Meld, MeldKind, classify
from rummyref.melding.solver import GoOut, Solution, best_melding
from rummyref.rules import values
from rummyref.rules.ruleset import GinRules, RuleSet


class Ending(Enum):
    """How the table says the hand ended."""

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big-gin"
    DEAD = "dead"


class Outcome(Enum):
    """The result ref rules (a knock may turn out an undercut, or gin)."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big-gin"
    DEAD = "dead"


class Side(Enum):
    KNOCKER = "knocker"
    DEFENDER = "defender"


@dataclass(frozen=True)
class Arrangement:
    """Melds and the deadwood left over; ``value`` is the deadwood's total."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    value: int

    def describe(self) -> str:
        melds = " / ".join(m.describe() for m in self.melds) or "no meld"
        return f"{melds}; deadwood {format_cards(self.deadwood) or 'none'} ({self.value})"


@dataclass(frozen=True)
class Layoff:
    card: Card
    onto: int  #: the index of the knocker's meld it joins


@dataclass(frozen=True)
class HandResult:
    """A settled hand. ``points`` go to ``winner`` (none in a dead hand)."""

    outcome: Outcome
    winner: Side | None
    points: int
    knock_limit: int | None  #: None: an Oklahoma dead hand whose first upcard was not given (G13)
    knocker: Arrangement
    defender: Arrangement  #: the defender's own melds and deadwood, after lay-offs
    layoffs: tuple[Layoff, ...] = ()

    @property
    def deadwood(self) -> tuple[int, int]:
        """(knocker, defender)."""
        return self.knocker.value, self.defender.value


# -- the numbers --------------------------------------------------------------------------


def gin_rules(rules: RuleSet) -> GinRules:
    if rules.gin is None:
        raise RulesetError(f'{rules.name} is not a Gin rule set (scoring.method = "gin" and a [gin] table)')
    return rules.gin


def hand_size(rules: RuleSet) -> int:
    """G1: the cards dealt to each of the two players."""
    deal = rules.deal_for(2)
    if deal is None:
        raise RulesetError(f"{rules.name}: deal: no entry for 2 players")
    return deal.default


def knock_limit(rules: RuleSet, upcard: Card | None = None) -> int:
    """G4; in Oklahoma (G13, ``upcard`` given) the first upcard's value, or the rule set's
    limit for an ace (0 in the standard game: only gin ends the hand)."""
    gin = gin_rules(rules)
    if upcard is None:
        return gin.knock_limit
    if upcard.rank is None:
        raise UnreadableInput("the first upcard cannot be a WILDCARD", hint="give a card such as 7H")
    return gin.oklahoma_ace_limit if upcard.rank is Rank.ACE else values.held(upcard, rules)


def _value(cards: Sequence[Card], rules: RuleSet) -> int:
    return values.held_total((c for c in cards if c.rank is not None), rules)


# -- deadwood -----------------------------------------------------------------------------


def deadwood(hand: Sequence[Card], rules: RuleSet) -> Arrangement:
    """G3: the least deadwood of the hand, with one arrangement that reaches it."""
    best = best_melding(hand, rules)
    return Arrangement(best.melds, best.unmelded, best.count)


def _arrangement(melds: Sequence[Sequence[Card]], hand: Sequence[Card], rules: RuleSet) -> Arrangement:
    used = {c for m in melds for c in m}
    rest = tuple(sorted((c for c in hand if c not in used), key=Card.sort_key))
    shown = tuple(classify(m, rules.aces_high) for m in melds)
    return Arrangement(tuple(m for m in shown if m is not None), rest, _value(rest, rules))


def melds_within(hand: Sequence[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
    """Every meld the hand's cards can form: groups of 3 and 4, runs of 3 or more."""
    out: list[tuple[Card, ...]] = []
    cards = sorted(hand, key=Card.sort_key)
    for rank in sorted({c.rank for c in cards if c.rank is not None}):
        same = [c for c in cards if c.rank == rank]
        out += [g for k in (3, 4) for g in combinations(same, k)]
    for suit in (s for s in SUITS if any(c.suit == s for c in cards)):
        at = {int(c.rank): c for c in cards if c.suit == suit and c.rank is not None}
        if rules.aces_high and 1 in at:
            at[14] = at[1]  # the ace played high (Q-K-A)
        for low in sorted(at):
            high = low
            while high + 1 in at and high + 1 - low < 13:
                high += 1
                if high - low >= 2:
                    out.append(tuple(at[p] for p in range(low, high + 1)))
    return out


def _meld_sets(melds: list[tuple[Card, ...]]) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """Every set of melds that share no card (each set once)."""

    def walk(start: int, used: frozenset[Card], chosen: tuple[tuple[Card, ...], ...]):
        yield chosen
        for i in range(start, len(melds)):
            if used.isdisjoint(melds[i]):
                yield from walk(i + 1, used | set(melds[i]), chosen + (melds[i],))

    return walk(0, frozenset(), ())


def least_deadwood_arrangements(hand: Sequence[Card], rules: RuleSet) -> Iterator[Arrangement]:
    """The deadwood search's arrangement first, then every arrangement with as little deadwood."""
    first = deadwood(hand, rules)
    yield first
    total = _value(hand, rules)
    for melds in _meld_sets(melds_within(hand, rules)):
        if total - sum(_value(m, rules) for m in melds) == first.value:
            yield _arrangement(melds, hand, rules)


def discard_order(card: Card, rules: RuleSet) -> tuple[int, int, int]:
    """The order in which ``ref count`` prefers discards that leave equal deadwood: the highest
    card first, by its Gin value, then its rank (K, Q, J, 10 are all worth 10), then its suit,
    spades above hearts above diamonds above clubs (the order ``SUITS`` lists them)."""
    if card.rank is None or card.suit is None:
        return (0, 0, 0)  # no WILDCARD in Gin (G1); never reached
    return (-_value([card], rules), -int(card.rank), card.suit.index)


def count_verdict(hand: Sequence[Card], best: Solution, rules: RuleSet) -> GoOut:
    """``ref count``'s "can it go out?" for a Gin hand: gin (G5), a knock (G4), or neither; with
    the eleven cards held after the draw, big gin (G6) or the discard that leaves the least
    deadwood. Oklahoma's limit (G13) depends on the upcard, so the standard one is used."""
    size, limit = hand_size(rules), knock_limit(rules)
    if len(hand) not in (size, size + 1):
        return GoOut(False, "knock", best, f"a Gin hand holds {size} cards, {size + 1} after the draw (G1); "
                                             f"this one has {len(hand)}")
    if len(hand) == size + 1 and best.count == 0 and not best.unmelded:
        return GoOut(True, "big-gin", best, f"all {size + 1} cards melded, no discard (G6)")
    discard = None
    if len(hand) == size + 1:  # the discard that leaves the least deadwood (the highest card among equals)
        options = []
        for card in sorted(set(hand), key=Card.sort_key):
            rest = list(hand)
            rest.remove(card)
            options.append((best_melding(rest, rules), card))
        best, discard = min(options, key=lambda o: (o[0].count, discard_order(o[1], rules)))
    then = f"discard {discard}, " if discard is not None else ""
    if best.count == 0:
        return GoOut(True, "gin", best, f"{then}every card melded (G5)")
    if best.count <= limit:
        return GoOut(True, "knock", best, f"{then}deadwood {best.count}, the knock limit is {limit} (G4)")
    return GoOut(False, "knock", best, f"{then}deadwood {best.count}, over the knock limit of {limit} (G4)")


# -- lay-offs -------------------------------------------------------------------------------


def extensions(meld: Meld, hand: Sequence[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
    """Every set of the hand's cards that can be laid off onto ``meld``, each card joining a
    valid meld at its turn (so chains: 8H, then 9H onto 5H 6H 7H), in laying order; the
    empty set first."""
    first = meld.cards[0]
    near = [c for c in hand if c.rank == first.rank or c.suit == first.suit]
    found: dict[frozenset[Card], tuple[Card, ...]] = {frozenset(): ()}
    frontier: list[tuple[Card, ...]] = [()]
    while frontier:
        grown = []
        for laid in frontier:
            for card in near:
                key = frozenset(laid + (card,))
                if card in laid or key in found:
                    continue
                if classify(meld.cards + laid + (card,), rules.aces_high) is not None:
                    found[key] = laid + (card,)
                    grown.append(found[key])
        frontier = grown
    return list(found.values())


def defend(knocker_melds: Sequence[Meld], hand: Sequence[Card], rules: RuleSet) -> tuple[Arrangement, tuple[Layoff, ...]]:
    """G7: the defender's least deadwood with lay-offs onto ``knocker_melds`` and own melds,
    searched together; among equal results the fewest cards laid off."""
    options = [extensions(m, hand, rules) for m in knocker_melds]
    seen: set[frozenset[Card]] = set()
    best: tuple[tuple[int, int], Arrangement, tuple[Layoff, ...]] | None = None
    for combo in product(*options):
        laid = frozenset(c for chain in combo for c in chain)
        if len(laid) != sum(len(chain) for chain in combo) or laid in seen:
            continue
        seen.add(laid)
        rest = deadwood([c for c in hand if c not in laid], rules)
        key = (rest.value, len(laid))
        if best is None or key < best[0]:
            layoffs = tuple(Layoff(c, i) for i, chain in enumerate(combo) for c in chain)
            best = (key, rest, layoffs)
    assert best is not None  # the empty lay-off is always an option
    return best[1], best[2]


def _knock(
    knocker: Sequence[Card], defender: Sequence[Card], rules: RuleSet, stated: Arrangement | None
) -> tuple[Arrangement, Arrangement, tuple[Layoff, ...]]:
    """G14: the knocker's arrangement that leaves the defender the greatest deadwood, then the
    fewest lay-offs; with it the defender's best result."""
    candidates = iter([stated]) if stated is not None else least_deadwood_arrangements(knocker, rules)
    best = None
    for arrangement in candidates:
        defence, layoffs = defend(arrangement.melds, defender, rules)
        key = (-defence.value, len(layoffs))
        if best is None or key < best[0]:
            best = (key, arrangement, defence, layoffs)
        if not layoffs:  # the defender sheds nothing: no arrangement does better
            break
    assert best is not None
    return best[1], best[2], best[3]


# -- checks -------------------------------------------------------------------------------


def _check_cards(hands: Sequence[Sequence[Card]], names: Sequence[str], rules: RuleSet) -> None:
    """One deck without WILDCARDs (G1): no card twice, in one hand or across both."""
    holder: dict[Card, str] = {}
    for hand, name in zip(hands, names):
        wild = sum(c.is_wild for c in hand)
        if wild > rules.wild_limit:
            error = TooManyWildcards(wild, rules.wild_limit, None)
            error.message = f"{name}'s hand: {error.message}"
            raise error
        for card in hand:
            if card in holder:
                raise DuplicateCard(str(card), f"in {holder[card]}'s hand" + ("" if holder[card] == name else f" and {name}'s"))
            if not card.is_wild:
                holder[card] = name


def _check_size(hand: Sequence[Card], size: int, name: str, what: str, rules: RuleSet) -> None:
    if len(hand) != size:
        dealt = hand_size(rules)
        raise RuleRefusal(
            f"{name}'s hand has {len(hand)} card{'s' if len(hand) != 1 else ''}; {what} needs {size}",
            rule="G1",
            hint=f"each player's hand is given as the {dealt} cards held after the last discard;"
            f" big gin is the knocker's {dealt + 1} cards, before any discard",
        )


def stated_arrangement(melds: Sequence[Sequence[Card]], hand: Sequence[Card], name: str, rules: RuleSet) -> Arrangement:
    """The melds the table says a player laid down: valid melds of cards in the player's hand,
    no card twice; the rest of the hand is deadwood."""
    used: set[Card] = set()
    for cards in melds:
        meld = classify(cards, rules.aces_high)
        if meld is None or meld.kind is MeldKind.WILD:
            raise UnreadableInput(
                f"{name}'s stated meld {format_cards(cards)} is not a valid meld",
                hint="a meld is 3 or 4 cards of one rank, or 3 or more in a row of one suit (aces low)",
            )
        for card in cards:
            if card not in hand:
                raise UnreadableInput(f"the {card} of {name}'s stated melds is not in {name}'s hand")
            if card in used:
                raise DuplicateCard(str(card), f"in {name}'s stated melds")
            used.add(card)
    return _arrangement(melds, hand, rules)


# -- settling a hand ----------------------------------------------------------------------


def settle(
    knocker: Sequence[Card],
    defender: Sequence[Card],
    ending: Ending,
    rules: RuleSet,
    *,
    names: tuple[str, str] = ("the knocker", "the defender"),
    melds: Sequence[Sequence[Card]] | None = None,
    upcard: Card | None = None,
) -> HandResult:
    """Settle a hand from both players' cards (G4-G9): the knocker's hand after the discard
    (all its cards, one more than dealt, for big gin), the defender's as dealt (G1: the rule
    set's deal). ``melds``: the melds the knocker laid down,
    when the table states them. ``upcard``: the first upcard when Oklahoma (G13) is played.
    A dead hand needs no cards; cards given are checked and counted, and nobody scores.
    A knock without deadwood is gin (G5). Refused: a knock over the limit, gin or big gin that
    is not, a hand of the wrong size, a card twice, a WILDCARD."""
    gin = gin_rules(rules)
    size = hand_size(rules)
    _check_cards((knocker, defender), names, rules)
    # the same cards in any order give the same result, ties included
    knocker, defender = sorted(knocker, key=Card.sort_key), sorted(defender, key=Card.sort_key)
    limit = knock_limit(rules, upcard)
    if ending is Ending.DEAD:
        for hand, name in zip((knocker, defender), names):
            if hand:
                _check_size(hand, size, name, "a dead hand", rules)
        return HandResult(Outcome.DEAD, None, 0, limit, deadwood(knocker, rules), deadwood(defender, rules))
    big = ending is Ending.BIG_GIN
    _check_size(knocker, size + big, names[0], "big gin" if big else f"a {ending.value}", rules)
    _check_size(defender, size, names[1], f"the defender of a {ending.value}", rules)
    stated = None if melds is None else stated_arrangement(melds, knocker, names[0], rules)
    best = deadwood(knocker, rules) if stated is None else stated
    if big or best.value == 0:
        if best.value:
            raise RuleRefusal(
                f"{names[0]}'s {size + 1} cards are not big gin: {best.describe()}",
                rule="G6",
                hint=f"big gin needs all {size + 1} cards melded, before any discard",
            )
        outcome, bonus = (Outcome.BIG_GIN, gin.big_gin_bonus) if big else (Outcome.GIN, gin.gin_bonus)
        beaten = deadwood(defender, rules)  # no lay-offs after gin (G7)
        return HandResult(outcome, Side.KNOCKER, bonus + beaten.value, limit, best, beaten)
    if ending is Ending.GIN:
        raise RuleRefusal(
            f"{names[0]}'s hand is not gin: {best.describe()}",
            rule="G5",
            hint=f"gin needs all {size} cards melded; with deadwood {limit} or less it is a knock",
        )
    if best.value > limit:
        rule = "G13" if upcard is not None else "G4"
        if stated is None:
            raise RuleRefusal(
                f"{names[0]} cannot knock: the least deadwood is {best.value}, over the limit of {limit}",
                rule=rule, hint=f"best arrangement: {best.describe()}",
            )
        least = deadwood(knocker, rules).value  # the stated melds need not be the hand's best
        also = f" (the hand's least deadwood is {least})" if least < best.value else ""
        raise RuleRefusal(
            f"{names[0]} cannot knock: the deadwood of the stated melds is {best.value}, over the limit of "
            f"{limit}{also}",
            rule=rule, hint=f"stated: {best.describe()}",
        )
    arrangement, defence, layoffs = _knock(knocker, defender, rules, stated)
    margin = defence.value - arrangement.value
    if margin > 0:
        return HandResult(Outcome.KNOCK, Side.KNOCKER, margin, limit, arrangement, defence, layoffs)
    points = gin.undercut_bonus - margin
    return HandResult(Outcome.UNDERCUT, Side.DEFENDER, points, limit, arrangement, defence, layoffs)
