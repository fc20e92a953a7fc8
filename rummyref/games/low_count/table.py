"""Simple Rummy's table: players, deal, WILDCARDs and variations (S1, S2, V1-V7).

Pure domain code: no storage, no CLI. A :class:`SimpleTable` is built once per session by
:meth:`SimpleTable.create`, which refuses anything S1, S2 or the variations forbid, and knows
what is in force. A game (one hand) is judged by :func:`rummyref.games.low_count.adjudicate.adjudicate`;
the first dealer (S3) is :mod:`rummyref.rules.first_dealer`; matches (S17) :mod:`rummyref.games.low_count.match`.

Every number comes from the rule set's data file: player counts and deal sizes (S1),
WILDCARD bounds (S2), card values (S13), the going-out mode and each variation's effect.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rummyref import names as player_names
from rummyref.cards import Card
from rummyref.errors import RuleRefusal, UnreadableInput, plural
from rummyref.rules.ruleset import RuleSet, Variation

# The product's own rule numbers for Simple Rummy (SPEC §4); the rulebook states each.
S1, S2, S9, S10, S11, S12, S13, S14, S15 = "S1", "S2", "S9", "S10", "S11", "S12", "S13", "S14", "S15"

#: variations under which a hand may grow by more than one card a turn: only the lower bound
#: of a hand's size is checked (V4 Three-Card Draw: two a turn; V6 Spread-Out: any number)
GROWING_HANDS = ("V4", "V6")


class Role(Enum):
    """What a player did at the end of a game, which sets the size of the hand recorded."""

    PLAYED = "a player who did not go out"  #: holds the cards dealt (the turn ended with a discard)
    WENT_OUT = "the player who went out"  #: holds one more: the card just drawn (S9)
    FOUR_SEVENS = "the player who laid down the four 7s"  #: at or during the turn: dealt, or one more (V5)
    DROPPED = "a player who dropped out"  #: before or after drawing: the cards dealt, or one more (S14)


GOING_OUT_TEXT = {
    "at-most-one": "every card melded but at most one",
    "all": "every card melded",
    "exactly-one": "every card melded but exactly one",
}


# -- the table -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SimpleTable:
    """One Simple Rummy table: players in seating order (clockwise), cards dealt to each,
    WILDCARDs in the deck and the variations in force. Build it with :meth:`create`."""

    ruleset: RuleSet
    players: tuple[str, ...]
    cards: int
    wildcards: int
    variations: tuple[Variation, ...] = ()

    # -- construction, with every refusal of S1, S2 and the variations ------------------

    @classmethod
    def create(
        cls,
        ruleset: RuleSet,
        players: Sequence[str],
        cards: int | None = None,
        wildcards: int | None = None,
        variations: Iterable[str] = (),
        *,
        stored: bool = False,
    ) -> SimpleTable:
        """A validated table. ``cards``/``wildcards`` None take the rule set's defaults.
        ``stored``: the players come from a table already recorded, whose names were checked
        when it was created (perhaps by an older ref), so they are taken as written."""
        if ruleset.method != "low-count":
            raise UnreadableInput(
                f"rule set {ruleset.name!r} is not a low-count game like Simple Rummy",
                hint="use --ruleset simple-rummy (or a house file with scoring.method = \"low-count\")",
            )
        names = tuple(players) if stored else player_names.check_roster(players)
        chosen = _variations(ruleset, variations)
        n = len(names)
        if not ruleset.players_min <= n <= ruleset.players_max:
            raise RuleRefusal(
                f"{n} player{'s' if n != 1 else ''} at the table; {ruleset.title} is for "
                f"{ruleset.players_min} to {ruleset.players_max}",
                rule=S1,
                hint=f"name {ruleset.players_min} to {ruleset.players_max} players in seating order",
            )
        deal = ruleset.deal_for(n)
        if deal is None:
            raise RuleRefusal(f"the rule set gives no deal size for {n} players", rule=S1)
        cards = deal.default if cards is None else cards
        if not deal.cards_min <= cards <= deal.cards_max:
            raise RuleRefusal(
                f"{plural(cards, 'card')} each is outside the deal for {n} players",
                rule=S1,
                hint=f"with {n} players deal {_range(deal.cards_min, deal.cards_max)} cards each",
            )
        wmin, wmax, why = _wild_range(ruleset, chosen)
        wildcards = max(ruleset.wild_default, wmin) if wildcards is None else wildcards
        if not wmin <= wildcards <= wmax:
            raise RuleRefusal(
                f"{plural(wildcards, 'WILDCARD')} is outside {why}",
                rule=S2,
                hint=f"use {_range(wmin, wmax)} WILDCARDs{_wild_note(ruleset, chosen)}",
            )
        if n * cards >= 52 + wildcards:
            raise RuleRefusal(f"{n} hands of {plural(cards, 'card')} leave no stock", rule=S1)
        return cls(ruleset, names, cards, wildcards, chosen)

    @classmethod
    def from_dict(cls, ruleset: RuleSet, data: Mapping[str, Any]) -> SimpleTable:
        """Rebuild (and re-validate) a table from :meth:`to_dict`'s output."""
        return cls.create(
            ruleset, data["players"], data.get("cards"), data.get("wildcards"), data.get("variations", ()),
            stored=True,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.name,
            "players": list(self.players),
            "cards": self.cards,
            "wildcards": self.wildcards,
            "variations": list(self.variation_names),
            "going_out": self.going_out,
            "low_count_ending": self.low_count_ending,
            "sequences_to_go_out": self.sequences_to_go_out,
            "natural_sequences_to_go_out": self.natural_sequences_to_go_out,
            "four_sevens": self.four_sevens,
        }

    # -- what is in force ----------------------------------------------------------------

    @property
    def variation_names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.variations)

    def _first(self, predicate) -> Variation | None:
        return next((v for v in self.variations if predicate(v)), None)

    @property
    def going_out_variation(self) -> Variation | None:
        """The variation that sets the going-out mode (V1 Major or Minor), if any."""
        return self._first(lambda v: v.going_out is not None)

    @property
    def going_out(self) -> str:
        """The going-out mode: a variation's (V1 Major "all", Minor "exactly-one"), else S9's."""
        v = self.going_out_variation
        return v.going_out if v is not None and v.going_out is not None else self.ruleset.going_out

    @property
    def going_out_rule(self) -> str:
        v = self.going_out_variation
        return v.rule if v else S9

    @property
    def going_out_text(self) -> str:
        v = self.going_out_variation
        text = GOING_OUT_TEXT[self.going_out]
        return f"{text} ({v.title}, {v.rule})" if v else f"{text} ({S9})"

    @property
    def low_count_ending(self) -> bool:
        """False under Go Out (V2): only going out ends a game."""
        return self._first(lambda v: not v.low_count_ending) is None

    @property
    def low_count_rule(self) -> str:
        v = self._first(lambda v: not v.low_count_ending)
        return v.rule if v else S10

    @property
    def sequences_to_go_out(self) -> int:
        return max([v.sequences_to_go_out for v in self.variations] + [0])

    @property
    def natural_sequences_to_go_out(self) -> int:
        return max([v.natural_sequences_to_go_out for v in self.variations] + [0])

    @property
    def sequences_rule(self) -> str | None:
        v = self._first(lambda v: v.sequences_to_go_out or v.natural_sequences_to_go_out)
        return v.rule if v else None

    @property
    def four_sevens(self) -> bool:
        return self.four_sevens_rule is not None

    @property
    def four_sevens_rule(self) -> str | None:
        v = self._first(lambda v: v.four_sevens_wins)
        return v.rule if v else None

    # -- seating -------------------------------------------------------------------------

    def player(self, name: str, what: str = "player") -> str:
        return player_names.at_table(name, self.players, what)

    def left_of(self, name: str) -> str:
        """The next player clockwise (to the left): the one who plays after ``name``."""
        i = self.players.index(self.player(name))
        return self.players[(i + 1) % len(self.players)]

    def right_of(self, name: str) -> str:
        i = self.players.index(self.player(name))
        return self.players[(i - 1) % len(self.players)]

    def turn_order(self, first_player: str) -> tuple[str, ...]:
        """Everyone in playing order (clockwise) starting with ``first_player``."""
        i = self.players.index(self.player(first_player, "first player"))
        return self.players[i:] + self.players[:i]

    def dealer_for(self, first_player: str) -> str:
        """Who deals a game that ``first_player`` plays first in: the player to their right (S6)."""
        return self.right_of(first_player)

    def choose_first_dealer(self, turned_up: Mapping[str, Sequence[Card]]):
        """S3 for this table: every player's turned-up cards (names as at the table, any
        order); the result lists them in seating order. WILDCARDs: at most the table's."""
        from rummyref.rules.first_dealer import first_dealer

        given = {self.player(name, "turned-up cards"): tuple(cards) for name, cards in turned_up.items()}
        missing = [p for p in self.players if p not in given]
        if missing:
            raise UnreadableInput(
                f"no cards turned up for {', '.join(missing)}",
                hint="list the cards turned up for every player at the table",
            )
        return first_dealer({p: given[p] for p in self.players}, self.ruleset, self.wildcards, "--first-dealer cards")

    @property
    def growing_hands(self) -> Variation | None:
        """V4 or V6, when in force: hands may hold more than the cards dealt plus one."""
        return self._first(lambda v: v.rule in GROWING_HANDS)

    def hand_sizes(self, role: Role) -> tuple[int, int | None]:
        """S1/S9 (SPEC §8): the fewest and most cards a player's recorded hand may hold at the
        end of a game (``None``: no most, under V4 or V6)."""
        low = self.cards + (1 if role is Role.WENT_OUT else 0)
        high = self.cards + (0 if role is Role.PLAYED else 1)
        return low, None if self.growing_hands else high

    def check_hand_size(self, name: str, size: int, role: Role) -> None:
        """Refuse a hand no game at this table could end with, naming the player, the size
        given and the sizes possible."""
        low, high = self.hand_sizes(role)
        if low <= size and (high is None or size <= high):
            return
        if high is None:
            possible = f"at least {low}"
        else:
            possible = str(low) if low == high else f"{low} or {high}"
        why = f"under {self.growing_hands.title} ({self.growing_hands.rule}) " if self.growing_hands else ""
        raise RuleRefusal(
            f"{name}'s hand has {size} card{'s' if size != 1 else ''}, but with {self.cards} dealt "
            f"{why}{role.value} holds {possible} at the end of a game",
            rule=S9 if role is Role.WENT_OUT else S1,
            hint=self._size_hint(role),
        )

    def _size_hint(self, role: Role) -> str:
        """Why those sizes, for ``role`` at this table (SPEC §8: S1/S9, V4, V6, S14)."""
        dealt = f"the cards dealt ({self.cards})"
        grow = self.growing_hands
        if grow is not None:
            more = " plus the card just drawn" if role is Role.WENT_OUT else ""
            return (f"under {grow.title} ({grow.rule}) a hand may grow during a game, so only the fewest cards "
                    f"are checked: {dealt}{more}")
        if role is Role.DROPPED:
            return (f"a player who dropped out holds {dealt}, or one more if they drew first; their hand need not "
                    "be given (--dropped NAME alone; at a prompt: dropped)")
        if role is Role.FOUR_SEVENS:
            return f"a hand ends with {dealt}; the player who laid down the four 7s may hold one more, the card just drawn"
        return f"a hand ends with {dealt}; the player who went out holds one more, the card just drawn"

    def describe(self) -> str:
        vs = ", ".join(f"{v.title} ({v.rule})" for v in self.variations) or "none"
        return (
            f"{len(self.players)} players ({', '.join(player_names.shown(p, among=self.players) for p in self.players)}), {plural(self.cards, 'card')} each, "
            f"{self.wildcards} WILDCARD{'s' if self.wildcards != 1 else ''}; variations: {vs}; "
            f"going out: {self.going_out_text}"
        )


def _range(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo} to {hi}"


def _variations(ruleset: RuleSet, names: Iterable[str] | str) -> tuple[Variation, ...]:
    """The named variations (``--variation major --variation go-out`` or ``major,go-out``)."""
    if isinstance(names, str):
        names = [names]
    wanted = [part for name in names for part in name.split(",") if part.strip()]
    chosen: list[Variation] = []
    for name in wanted:
        v = ruleset.variation(name.strip().lower())  # NotFound lists the valid names
        if v not in chosen:
            chosen.append(v)
    for v in chosen:
        for other in chosen:
            clash = other.name in v.excludes or (
                v is not other and v.going_out and other.going_out and v.going_out != other.going_out
            )
            if clash:
                raise RuleRefusal(
                    f"the variations {v.name} ({v.title}) and {other.name} ({other.title}) exclude each other",
                    rule=v.rule,
                    hint=f"choose one of {v.name} and {other.name}",
                )
    return tuple(chosen)


def _wild_range(ruleset: RuleSet, chosen: Sequence[Variation]) -> tuple[int, int, str]:
    lo, hi, why = ruleset.wild_min, ruleset.wild_max, f"{ruleset.title}'s {_range(ruleset.wild_min, ruleset.wild_max)}"
    for v in chosen:
        if v.wildcards_min is not None or v.wildcards_max is not None:
            lo = v.wildcards_min if v.wildcards_min is not None else lo
            hi = v.wildcards_max if v.wildcards_max is not None else hi
            why = f"{v.title}'s {_range(lo, hi)} ({v.rule})"
    return lo, hi, why


def _wild_note(ruleset: RuleSet, chosen: Sequence[Variation]) -> str:
    notes = [
        f"{v.name}: {_range(v.wildcards_min or 0, v.wildcards_max or 0)}"
        for v in ruleset.variations
        if v not in chosen and v.wildcards_max is not None
    ]
    return f" (with variation {'; '.join(notes)})" if notes else ""
