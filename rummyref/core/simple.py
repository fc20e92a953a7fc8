"""Simple Rummy: the table (S1, S2, variations) and the end of a game (S9-S15, V1-V3, V5).

Pure domain code: no storage, no CLI. A :class:`SimpleTable` is built once per session by
:meth:`SimpleTable.create`, which refuses anything S1, S2 or the variations forbid. A game
(one hand) is then judged by :func:`adjudicate` from each player's final hand and how the
game ended (:class:`Ending`). Matches (S17) are in :mod:`rummyref.core.match`.

Every number comes from the rule set's data file: player counts and deal sizes (S1),
WILDCARD bounds (S2), card values (S13), the going-out mode and each variation's effect.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Mapping, Sequence

from rummyref.core.cards import Card, Rank, SUITS, check_deck, format_cards
from rummyref.core.errors import DuplicateCard, RuleRefusal, TooManyWildcards, UnreadableInput
from rummyref.core.melds import Meld
from rummyref.core.rulesets import RuleSet, Variation
from rummyref.core.solver import Solution, best_melding, go_out_check

# The product's own rule numbers for Simple Rummy (SPEC §4); the rulebook states each.
S1, S2, S9, S10, S11, S12, S13, S14, S15 = "S1", "S2", "S9", "S10", "S11", "S12", "S13", "S14", "S15"

_MODE_TEXT = {
    "at-most-one": "every card melded but at most one",
    "all": "every card melded",
    "exactly-one": "every card melded but exactly one",
}


# -- names ---------------------------------------------------------------------------------


def _check_names(players: Sequence[str]) -> tuple[str, ...]:
    names = tuple(p.strip() for p in players)
    for p in names:
        if not p or any(ch in p for ch in "=,/|"):
            raise UnreadableInput(
                f"{p!r} is not a usable player name",
                hint="a name is a non-empty word without = , / or |, e.g. Ann",
            )
    seen: dict[str, str] = {}
    for p in names:
        if p.casefold() in seen:
            raise UnreadableInput(
                f"{p!r} is named twice at the table (as {seen[p.casefold()]!r} already)",
                hint="every player needs a different name",
            )
        seen[p.casefold()] = p
    return names


def resolve_name(name: str, players: Sequence[str], what: str = "player") -> str:
    """The table's spelling of ``name`` (case does not matter), or a "did you mean" refusal."""
    wanted = name.strip().casefold()
    for p in players:
        if p.casefold() == wanted:
            return p
    close = difflib.get_close_matches(name.strip(), list(players), n=1, cutoff=0.6)
    maybe = f"did you mean {close[0]}? " if close else ""
    raise UnreadableInput(
        f"{name!r} ({what}) is not at this table",
        hint=f"{maybe}players at this table: {', '.join(players)}",
    )


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
    ) -> "SimpleTable":
        """A validated table. ``cards``/``wildcards`` None take the rule set's defaults."""
        if ruleset.method != "low-count":
            raise UnreadableInput(
                f"rule set {ruleset.name!r} is not a low-count game like Simple Rummy",
                hint="use --ruleset simple-rummy (or a house file with scoring.method = \"low-count\")",
            )
        names = _check_names(players)
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
                f"{cards} cards each is outside the deal for {n} players",
                rule=S1,
                hint=f"with {n} players deal {_range(deal.cards_min, deal.cards_max)} cards each",
            )
        wmin, wmax, why = _wild_range(ruleset, chosen)
        wildcards = max(ruleset.wild_default, wmin) if wildcards is None else wildcards
        if not wmin <= wildcards <= wmax:
            raise RuleRefusal(
                f"{wildcards} WILDCARDs is outside {why}",
                rule=S2,
                hint=f"use {_range(wmin, wmax)} WILDCARDs{_wild_note(ruleset, chosen)}",
            )
        if n * cards >= 52 + wildcards:
            raise RuleRefusal(f"{n} hands of {cards} cards leave no stock", rule=S1)
        return cls(ruleset, names, cards, wildcards, chosen)

    @classmethod
    def from_dict(cls, ruleset: RuleSet, data: Mapping[str, Any]) -> "SimpleTable":
        """Rebuild (and re-validate) a table from :meth:`to_dict`'s output."""
        return cls.create(
            ruleset, data["players"], data.get("cards"), data.get("wildcards"), data.get("variations", ())
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
        return v.going_out if v else self.ruleset.going_out  # type: ignore[return-value]

    @property
    def going_out_rule(self) -> str:
        v = self.going_out_variation
        return v.rule if v else S9

    @property
    def going_out_text(self) -> str:
        v = self.going_out_variation
        text = _MODE_TEXT[self.going_out]
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
        return resolve_name(name, self.players, what)

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
        from rummyref.core.first_dealer import first_dealer

        given = {self.player(name, "turned-up cards"): tuple(cards) for name, cards in turned_up.items()}
        missing = [p for p in self.players if p not in given]
        if missing:
            raise UnreadableInput(
                f"no cards turned up for {', '.join(missing)}",
                hint="list the cards turned up for every player at the table",
            )
        return first_dealer({p: given[p] for p in self.players}, self.ruleset, self.wildcards)

    def describe(self) -> str:
        vs = ", ".join(f"{v.title} ({v.rule})" for v in self.variations) or "none"
        return (
            f"{len(self.players)} players ({', '.join(self.players)}), {self.cards} cards each, "
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


# -- how a game ended ----------------------------------------------------------------------


class EndingKind(str, Enum):
    WENT_OUT = "went-out"  #: S9
    FOUR_SEVENS = "four-sevens"  #: V5
    TIE = "tie"  #: S15, agreed by everyone
    STOCK = "stock-exhausted"  #: S10: the player in turn declined the discard pile


@dataclass(frozen=True)
class Ending:
    """How a game ended, plus who had dropped out (S14) by then."""

    kind: EndingKind = EndingKind.STOCK
    player: str | None = None  #: who went out / laid the four 7s
    dropped: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_options(
        cls,
        out: str | None = None,
        four_sevens: str | None = None,
        tie: bool = False,
        dropped: Iterable[str] = (),
    ) -> "Ending":
        """From ``--out NAME``, ``--four-sevens NAME``, ``--tie``, ``--dropped NAME...``
        (at most one of the first three; none of them means S10, the stock ran out)."""
        given = [flag for flag, on in (("--out", out), ("--four-sevens", four_sevens), ("--tie", tie)) if on]
        if len(given) > 1:
            raise UnreadableInput(
                f"{' and '.join(given)} cannot both describe how one game ended",
                hint="give one of --out NAME, --four-sevens NAME, --tie; or none when the stock ran out",
            )
        kind = EndingKind.WENT_OUT if out else EndingKind.FOUR_SEVENS if four_sevens else (
            EndingKind.TIE if tie else EndingKind.STOCK
        )
        return cls(kind, out or four_sevens, frozenset(dropped))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "player": self.player, "dropped": sorted(self.dropped)}


# -- the result of a game ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerResult:
    name: str
    hand: tuple[Card, ...] | None  #: None: a dropped player whose cards were not recorded
    count: int | None  #: S13, with the best melding; None without a hand
    melds: tuple[Meld, ...] = ()
    unmelded: tuple[Card, ...] = ()
    eligible: bool = False  #: could this player win, given how the game ended
    note: str = ""  #: why (not): "went out", "holds a WILDCARD (S11)", "dropped out (S14)"
    dropped: bool = False
    going_out: Solution | None = None  #: the going-out arrangement of the player who went out

    def arrangement_text(self) -> str:
        arr = self.going_out or self
        parts = [m.describe() for m in arr.melds]
        if arr.unmelded:
            parts.append("unmelded: " + format_cards(arr.unmelded))
        return " / ".join(parts) if parts else ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "count": self.count,
            "melds": [_meld_dict(m) for m in self.melds],
            "unmelded": [str(c) for c in self.unmelded],
            "eligible": self.eligible,
            "note": self.note,
            "dropped": self.dropped,
            "going_out": None
            if self.going_out is None
            else {
                "melds": [_meld_dict(m) for m in self.going_out.melds],
                "unmelded": [str(c) for c in self.going_out.unmelded],
            },
        }


def _meld_dict(m: Meld) -> dict[str, Any]:
    return {"kind": m.kind.value, "cards": [str(c) for c in m.cards], "text": m.describe()}


@dataclass(frozen=True)
class GameResult:
    winner: str | None
    reason: str
    rule: str  #: the rule that decided the winner (or that there is none)
    rules: tuple[str, ...]  #: every rule cited, in order
    ending: Ending
    first_player: str
    turn_order: tuple[str, ...]
    players: tuple[PlayerResult, ...]

    @property
    def counts(self) -> dict[str, int]:
        return {p.name: p.count for p in self.players if p.count is not None}

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "rule": self.rule,
            "rules": list(self.rules),
            "ending": self.ending.to_dict(),
            "first_player": self.first_player,
            "turn_order": list(self.turn_order),
            "counts": self.counts,
            "players": [p.to_dict() for p in self.players],
        }


# -- adjudication --------------------------------------------------------------------------


def adjudicate(
    table: SimpleTable,
    first_player: str,
    hands: Mapping[str, Sequence[Card]],
    ending: Ending = Ending(),
) -> GameResult:
    """Judge one game: counts (S13), the claimed ending, and the winner (S9-S15, V1-V3, V5)."""
    first = table.player(first_player, "first player")
    order = table.turn_order(first)
    dropped = frozenset(table.player(n, "dropped player") for n in ending.dropped)
    claimant = table.player(ending.player, _who(ending.kind)) if ending.player else None
    ending = Ending(ending.kind, claimant, dropped)
    given = _check_hands(table, hands, dropped)
    if ending.kind in (EndingKind.WENT_OUT, EndingKind.FOUR_SEVENS) and claimant is None:
        raise UnreadableInput(f"a {ending.kind.value} ending needs the player's name")
    if claimant in dropped:
        raise RuleRefusal(
            f"{claimant} dropped out, so cannot {_DEED[ending.kind]} to end the game",
            rule=S14,
            hint="a dropped player's cards stay face down for the rest of the game",
        )
    solutions = {name: best_melding(cards, table.ruleset) for name, cards in given.items()}
    judge = {
        EndingKind.WENT_OUT: _went_out,
        EndingKind.FOUR_SEVENS: _four_sevens,
        EndingKind.TIE: _tie,
        EndingKind.STOCK: _stock,
    }[ending.kind]
    winner, reason, rule, rules, notes, going_out = judge(table, order, given, solutions, ending)
    players = []
    for name in table.players:
        sol = solutions.get(name)
        players.append(
            PlayerResult(
                name=name,
                hand=given.get(name),
                count=None if sol is None else sol.count,
                melds=() if sol is None else sol.melds,
                unmelded=() if sol is None else sol.unmelded,
                eligible=notes[name][0],
                note=notes[name][1],
                dropped=name in dropped,
                going_out=going_out if name == claimant else None,
            )
        )
    return GameResult(winner, reason, rule, tuple(rules), ending, first, order, tuple(players))


_DEED = {EndingKind.WENT_OUT: "go out", EndingKind.FOUR_SEVENS: "lay down four 7s"}


def _who(kind: EndingKind) -> str:
    return {EndingKind.WENT_OUT: "player going out", EndingKind.FOUR_SEVENS: "player with four 7s"}.get(
        kind, "player"
    )


def _check_hands(
    table: SimpleTable, hands: Mapping[str, Sequence[Card]], dropped: frozenset[str]
) -> dict[str, tuple[Card, ...]]:
    """Every player not dropped has a non-empty hand; names are at the table; one deck."""
    given: dict[str, tuple[Card, ...]] = {}
    for raw, cards in hands.items():
        name = table.player(raw, "hand")
        if name in given:
            raise UnreadableInput(f"two hands given for {name}", hint="give each player's hand once")
        given[name] = tuple(cards)
    missing = [p for p in table.players if p not in given and p not in dropped]
    if missing:
        raise UnreadableInput(
            f"no hand given for {', '.join(missing)}",
            hint="give every player's final hand (a player who dropped out may be left out)",
        )
    empty = [p for p, cards in given.items() if not cards and p not in dropped]
    if empty:
        raise UnreadableInput(f"the hand given for {', '.join(empty)} has no cards")
    holder: dict[Card, str] = {}
    for name, cards in given.items():
        for card in cards:
            if card.is_wild:
                continue
            if card in holder:
                where = f"in {holder[card]}'s hand" + ("" if holder[card] == name else f" and {name}'s")
                raise DuplicateCard(str(card), where)
            holder[card] = name
    try:
        check_deck([c for cards in given.values() for c in cards], table.wildcards, "the whole table")
    except TooManyWildcards as exc:
        exc.message = f"{exc.found} WILDCARDs in the hands, but this table plays with {table.wildcards} ({S2})"
        exc.hint = f"the whole table holds at most {table.wildcards} WILDCARD{'s' if table.wildcards != 1 else ''}"
        raise
    return given


def _best_text(name: str, sol: Solution) -> str:
    melds = " / ".join(m.describe() for m in sol.melds) or "no meld"
    left = format_cards(sol.unmelded) or "nothing"
    return f"best arrangement of {name}'s hand: {melds}; unmelded: {left} (count {sol.count})"


def _went_out(table, order, given, solutions, ending):
    name = ending.player
    cards = given.get(name)
    if cards is None:
        raise UnreadableInput(f"{name} went out, but no hand was given for {name}")
    check = go_out_check(cards, table.ruleset, mode=table.going_out)
    rule = table.going_out_rule
    if check.ok and table.sequences_rule:
        rule = table.sequences_rule
        check = go_out_check(
            cards,
            table.ruleset,
            mode=table.going_out,
            sequences=table.sequences_to_go_out,
            natural_sequences=table.natural_sequences_to_go_out,
        )
    if not check.ok:
        raise RuleRefusal(
            f"{name}'s hand {format_cards(cards)} does not go out: {check.reason}",
            rule=rule,
            hint=_best_text(name, solutions[name]) + "; without --out the game is judged on counts",
        )
    need = _MODE_TEXT[table.going_out]
    if table.going_out_variation:
        need += f", as {table.going_out_variation.title} requires"
    if table.sequences_rule:
        need += (
            f", with at least {table.sequences_to_go_out} sequences, "
            f"{table.natural_sequences_to_go_out} of them natural"
        )
    rules = [S9] + [r for r in (table.going_out_rule, table.sequences_rule) if r and r != S9]
    notes = {p: (p == name, "went out" if p == name else "") for p in table.players}
    _mark_dropped(notes, ending.dropped)
    reason = f"{name} went out: {need}; going out wins the game ({', '.join(rules)})."
    return name, reason, rules[-1], rules, notes, check.arrangement


def _four_sevens(table, order, given, solutions, ending):
    rule = table.four_sevens_rule
    name = ending.player
    if rule is None:
        raise RuleRefusal(
            "Four 7's is not in play at this table, so four 7s do not end the game",
            rule="V5",
            hint="the variation four-sevens must be chosen when the session starts",
        )
    cards = given.get(name, ())
    sevens = {Card(Rank.SEVEN, s) for s in SUITS}
    missing = [str(c) for c in sorted(sevens - set(cards), key=Card.sort_key)]
    if missing:
        raise RuleRefusal(
            f"{name} does not hold all four natural 7s (missing {' '.join(missing)})",
            rule=rule,
            hint="only the four regular 7s count; a WILDCARD cannot stand in for one",
        )
    notes = {p: (p == name, "laid down the four 7s" if p == name else "") for p in table.players}
    _mark_dropped(notes, ending.dropped)
    reason = f"{name} laid down all four natural 7s: under Four 7's that wins at once ({rule})."
    return name, reason, rule, [rule], notes, None


def _tie(table, order, given, solutions, ending):
    notes = {p: (False, "tie game") for p in table.players}
    _mark_dropped(notes, ending.dropped)
    reason = f"Everyone agreed to a tie game: the game has no winner ({S15})."
    return None, reason, S15, [S15], notes, None


def _mark_dropped(notes, dropped) -> None:
    for p in dropped:
        notes[p] = (False, f"dropped out ({S14})")


def _stock(table, order, given, solutions, ending):
    if not table.low_count_ending:
        raise RuleRefusal(
            "under Go Out a game ends only when someone goes out; the lowest count does not win",
            rule=table.low_count_rule,
            hint="record who went out (--out NAME), or a tie game everyone agreed to (--tie)",
        )
    notes: dict[str, tuple[bool, str]] = {}
    for p in order:
        if p in ending.dropped:
            notes[p] = (False, f"dropped out ({S14})")
        elif any(c.is_wild for c in given[p]):
            notes[p] = (False, f"holds a WILDCARD ({S11})")
        else:
            notes[p] = (True, "")
    rules = [S10, S13]
    lines = [f"Nobody went out; the player in turn declined the discard pile, so the lowest count wins ({S10}, {S13})."]
    barred = [p for p in order if not notes[p][0]]
    wild = [p for p in barred if p not in ending.dropped]
    if wild:
        rules.append(S11)
        lines.append(f"{_names(wild)} {'holds' if len(wild) == 1 else 'hold'} a WILDCARD and cannot win ({S11}).")
    if ending.dropped:
        rules.append(S14)
        lines.append(f"{_names([p for p in order if p in ending.dropped])} dropped out and cannot win ({S14}).")
    eligible = [p for p in order if notes[p][0]]
    if not eligible:
        lines.append("Nobody can win: the game has no winner.")
        return None, " ".join(lines), S11 if wild else S14, rules, notes, None
    low = min(solutions[p].count for p in eligible)
    tied = [p for p in eligible if solutions[p].count == low]
    winner = tied[-1]
    for p in tied:
        tie = "" if len(tied) == 1 else f", {'wins' if p == winner else 'loses'} the tie ({S12})"
        notes[p] = (True, "lowest count" + tie)
    if len(tied) == 1:
        lines.append(f"{winner} has the lowest count, {low}, and wins.")
        return winner, " ".join(lines), S10, rules, notes, None
    rules.append(S12)
    lines.append(
        f"{_names(tied)} tie at {low}. Play passes to the left, so the tied player furthest to the "
        f"left of the first player ({order[0]}) is the one latest in turn order "
        f"({', '.join(order)}): {winner} wins ({S12})."
    )
    return winner, " ".join(lines), S12, rules, notes, None


def _names(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
