"""The end of a Simple Rummy game (S9-S15, V1-V3, V5): who won, and why.

:func:`adjudicate` takes a :class:`~rummyref.games.low_count.table.SimpleTable`, the first player, every
player's final hand and how the game ended (:class:`Ending`), and returns a :class:`GameResult`:
each count with the best melding (S13), the going-out check (S9, V1, V3), and the winner
under S10-S12, S14, S15, V2 and V5, with the reason citing the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rummyref.cards import SUITS, Card, Rank, check_deck, format_cards
from rummyref.errors import DuplicateCard, RuleRefusal, TooManyWildcards, UnreadableInput, and_list, plural
from rummyref.games.low_count.table import GOING_OUT_TEXT, S2, S9, S10, S11, S12, S13, S14, S15, Role, SimpleTable
from rummyref.melding.melds import Meld
from rummyref.melding.solver import Solution, best_melding, go_out_check

# -- how a game ended ----------------------------------------------------------------------


class EndingKind(StrEnum):
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
    ) -> Ending:
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
        """The best melding (S13), the one :attr:`count` is of (as ``melds`` and ``unmelded`` in JSON)."""
        return _arrangement_text(self.melds, self.unmelded)

    def going_out_text(self) -> str:
        """How the player went out, when that is not the arrangement the count is of (V1 Minor:
        a six-card run goes out as five cards and one left out); else ""."""
        g = self.going_out
        if g is None or _same_arrangement(g.melds, g.unmelded, self.melds, self.unmelded):
            return ""
        return _arrangement_text(g.melds, g.unmelded, "left out")

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


def _arrangement_text(melds: Sequence[Meld], unmelded: Sequence[Card], label: str = "unmelded") -> str:
    parts = [m.describe() for m in melds]
    if unmelded:
        parts.append(f"{label}: " + format_cards(unmelded))
    return " / ".join(parts)


def _same_arrangement(melds: Sequence[Meld], unmelded: Sequence[Card], other: Sequence[Meld],
                      other_unmelded: Sequence[Card]) -> bool:
    return (sorted(m.describe() for m in melds) == sorted(m.describe() for m in other)
            and sorted(map(str, unmelded)) == sorted(map(str, other_unmelded)))


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
    played_in: tuple[str, str] | None = None,
) -> GameResult:
    """Judge one game: counts (S13), the claimed ending, and the winner (S9-S15, V1-V3, V5).
    ``played_in``: for a correction of a game of an earlier session, the game and where it was
    played (("game 1", "session 1")): a refusal about its table names that session, not the
    one open now."""
    first = table.player(first_player, "first player")
    order = table.turn_order(first)
    dropped = frozenset(table.player(n, "dropped player") for n in ending.dropped)
    claimant = table.player(ending.player, _who(ending.kind)) if ending.player else None
    ending = Ending(ending.kind, claimant, dropped)
    if dropped and dropped >= set(table.players):  # S10/S14: a game ends with somebody still playing
        raise RuleRefusal(
            f"every player dropped out ({', '.join(p for p in table.players if p in dropped)}): somebody must be "
            "left to play the game",
            rule=S14,
            hint="if the whole table agreed to stop, that is a tie game: --tie, with no --dropped (S15)",
        )
    given = _check_hands(table, hands, dropped, played_in)
    if ending.kind in (EndingKind.WENT_OUT, EndingKind.FOUR_SEVENS) and claimant is None:
        raise UnreadableInput(f"a {ending.kind.value} ending needs the player's name")
    if claimant in dropped:
        raise RuleRefusal(
            f"{claimant} dropped out, so cannot {_DEED[ending.kind]} to end the game",
            rule=S14,
            hint="a dropped player's cards stay face down for the rest of the game",
        )
    for name, cards in given.items():  # S1/S9: only hands a game at this table can end with
        table.check_hand_size(name, len(cards), _role(name, ending))
    solutions = {name: best_melding(cards, table.ruleset) for name, cards in given.items()}
    judge = {
        EndingKind.WENT_OUT: _went_out,
        EndingKind.FOUR_SEVENS: _four_sevens,
        EndingKind.TIE: _tie,
        EndingKind.STOCK: _stock,
    }[ending.kind]
    if ending.kind is EndingKind.FOUR_SEVENS and table.four_sevens_rule is None and played_in:
        raise RuleRefusal(
            f"Four 7's was not in play in {played_in[1]}, where {played_in[0]} was played, so four 7s "
            "did not end it",
            rule="V5",
            hint=f"a correction is judged with the table of its {table.ruleset.session_short}: "
                 "record how it did end (--out NAME, --tie"
                 + (", or none: the stock ran out)" if table.low_count_ending else ")"),
        )
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


def _role(name: str, ending: Ending) -> Role:
    if name in ending.dropped:
        return Role.DROPPED
    if name == ending.player:
        return Role.WENT_OUT if ending.kind is EndingKind.WENT_OUT else Role.FOUR_SEVENS
    return Role.PLAYED


def _who(kind: EndingKind) -> str:
    return {EndingKind.WENT_OUT: "player going out", EndingKind.FOUR_SEVENS: "player with four 7s"}.get(
        kind, "player"
    )


def _check_hands(
    table: SimpleTable, hands: Mapping[str, Sequence[Card]], dropped: frozenset[str],
    played_in: tuple[str, str] | None = None,
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
        # one deck (SPEC §2): a record the deck cannot hold is an input error (exit 3), as a card twice is
        if played_in:  # a correction of an earlier session's game: that session's table, named
            exc.message = (f"{plural(exc.found, 'WILDCARD')} in the hands, but {played_in[0]} was played in {played_in[1]}, opened with "
                           f"{plural(table.wildcards, 'WILDCARD')} ({S2})")
            exc.hint = (f"a correction is judged with the table of its {table.ruleset.session_short}: its whole "
                        f"table held at most {plural(table.wildcards, 'WILDCARD')} (one deck)")
            raise
        exc.message = (f"{plural(exc.found, 'WILDCARD')} in the hands, but this {table.ruleset.session_short} was opened with "
                       f"{plural(table.wildcards, 'WILDCARD')} (fixed at new-session)")
        exc.hint = (f"the whole table holds at most {plural(table.wildcards, 'WILDCARD')} "
                    f"(one deck; the number is chosen per {table.ruleset.session_short}, {S2})")
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
        # the hand goes out on its own; what fails is the sequences asked for, together
        # with the going-out variation's count of cards left out, if one is in force
        rule = table.sequences_rule
        if table.going_out_variation and table.going_out_rule:
            rule = f"{table.sequences_rule} with {table.going_out_rule}"
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
            hint=_best_text(name, solutions[name]) + "; if nobody went out, the game is judged on counts",
        )
    need = GOING_OUT_TEXT[table.going_out]
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
            hint=f"the variation four-sevens must be chosen when the {table.ruleset.session_short} starts",
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
            hint="record who went out, or a tie game everyone agreed to (S15)",
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
        lines.append(f"{and_list(wild)} {'holds' if len(wild) == 1 else 'hold'} a WILDCARD and cannot win ({S11}).")
    if ending.dropped:
        rules.append(S14)
        lines.append(f"{and_list([p for p in order if p in ending.dropped])} dropped out and cannot win ({S14}).")
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
        f"{and_list(tied)} tie at {low}. Play passes to the left, so the tied player furthest to the "
        f"left of the first player ({order[0]}) is the one latest in turn order "
        f"({', '.join(order)}): {winner} wins ({S12})."
    )
    return winner, " ".join(lines), S12, rules, notes, None


