"""Asking for a low-count game's facts: each final hand and how the game ended.

The options first (``--hand "NAME=CARDS"``, ``--out``, ``--four-sevens``, ``--tie``,
``--dropped``); at a terminal, the missing hands, then the ending, are asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from rummyref.cards import Card, check_holders, parse_cards, read_cards_of
from rummyref.errors import RuleRefusal, UnreadableInput
from rummyref.games.base import Given
from rummyref.games.forms import Key, QuestionForm
from rummyref.games.low_count.adjudicate import Ending, EndingKind
from rummyref.games.low_count.table import SimpleTable

HAND_QUESTION = "{name}'s final hand (cards; or: dropped)"
DROPPED_WORDS = ("dropped", "dropped out", "drop out")
WILDCARDS_FIXED = "this {session} was opened with"  #: S2: the WILDCARDs of a session's games
ENDING_QUESTION = "How did the game end? (out NAME/four-sevens NAME/tie; blank: stock ran out)"


def ending_question(table: SimpleTable) -> str:
    """:data:`ENDING_QUESTION` as the table's variations allow: ``four-sevens NAME`` only under
    Four 7's (V5), the blank (the stock ran out) only where the lowest count can win (not
    under Go Out, V2)."""
    answers = "/".join(["out NAME", *(["four-sevens NAME"] if table.four_sevens else []), "tie"])
    return f"How did the game end? ({answers}" + ("; blank: stock ran out)" if table.low_count_ending else ")")


def _allowed(ending: Ending, table: SimpleTable, played_in: tuple[str, str] | None = None) -> Ending:
    """An ending answered at the prompt that the table's variations refuse is refused there, so
    it is asked again in place (as the adjudication would refuse it, V2 / V5)."""
    if ending.kind is EndingKind.STOCK and not table.low_count_ending:
        raise RuleRefusal(f"under Go Out ({table.low_count_rule}) a game ends only when someone goes out; the "
                          "lowest count does not win", rule=table.low_count_rule,
                          hint="answer out NAME, or tie: everyone agreed to end it (S15)")
    if ending.kind is EndingKind.FOUR_SEVENS and not table.four_sevens:
        where = "at this table" if played_in is None else f"in {played_in[1]}, where {played_in[0]} was played"
        raise RuleRefusal(f"Four 7's (V5) is not in play {where}, so four 7s do not end the game", rule="V5",
                          hint="answer " + ending_question(table).split("(", 1)[1].rstrip(")"))
    return ending


def _parse_ending(answer: str):
    words = answer.split()
    if not words:
        return ("stock", None)
    kind = words[0].lower()
    if kind == "tie" and len(words) == 1:
        return ("tie", None)
    if kind in ("out", "four-sevens") and len(words) == 2:
        return (kind, words[1])
    raise UnreadableInput(f"{answer!r}: answer out NAME, four-sevens NAME, tie, or leave it blank")


def read_hand(answer: str, seen: Sequence[tuple[str, Sequence[Card]]], table, name: str = "",
              fixed: str | None = None) -> list[Card] | None:
    """``name``'s final hand typed at a prompt: at least one card, one deck with the hands
    ``seen`` (``(whose, cards)``); or ``dropped`` (S14: the player dropped out, cards face down): None."""
    if answer.strip().casefold() in DROPPED_WORDS:
        return None
    cards = read_cards_of(answer, f"in {name}'s cards at the final hand prompt")
    if not cards:
        raise UnreadableInput(f"{name}'s final hand must have at least one card", hint="type the cards, or: dropped")
    check_holders([*seen, (f"{name}'s hand", cards)], table.wildcards,
                  fixed or WILDCARDS_FIXED.format(session=table.ruleset.session_short))
    return cards


def read_ending(answer: str, dropped=frozenset()):
    """How the game ended, typed at a prompt (see :data:`ENDING_QUESTION`)."""
    kind, who = _parse_ending(answer)
    kinds = {"stock": EndingKind.STOCK, "tie": EndingKind.TIE, "out": EndingKind.WENT_OUT,
             "four-sevens": EndingKind.FOUR_SEVENS}
    return Ending(kinds[kind], who, dropped)


def ending_text(ending: Ending) -> str:
    """An ending as it is answered at the prompt (see :data:`ENDING_QUESTION`)."""
    return {EndingKind.WENT_OUT: f"out {ending.player}", EndingKind.FOUR_SEVENS: f"four-sevens {ending.player}",
            EndingKind.TIE: "tie"}.get(ending.kind, "")


def _typed_hands(items: Sequence[str]) -> dict[str, str]:
    """``--hand`` items as typed, by name (offered back when the table fixes a hand)."""
    return {name.strip(): text.strip() for name, _, text in (item.partition("=") for item in items)}





def parse_hands(items: Sequence[str]) -> dict[str, list[Card]]:
    """``--hand "NAME=CARDS"`` items into ``{name: cards}`` (a blank hand is allowed for a
    dropped player and refused otherwise by the adjudication)."""
    hands: dict[str, list[Card]] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise UnreadableInput(f"--hand {item!r} is not NAME=CARDS", hint='e.g. --hand "Ann=2H 3H 4H 4S 4D"')
        key = name.strip()
        if key.casefold() in {k.casefold() for k in hands}:
            raise UnreadableInput(f"--hand was given twice for {key}", hint="one --hand per player")
        hands[key] = read_cards_of(text, f"in {key}'s --hand cards") if text.strip() else []
    return hands


class GameForm(QuestionForm):
    """The facts of one game at ``table``, ``first`` playing first: every final hand in turn
    order (or "dropped", S14), then how the game ended (asked only when some hand was)."""

    options: ClassVar[tuple[str, ...]] = ("hand", "out", "four_sevens", "tie", "dropped", "dealer")
    unit: ClassVar[str] = "game"

    def __init__(self, table: SimpleTable, first: str, played_in: tuple[str, str] | None = None) -> None:
        super().__init__()
        self.table, self.first = table, first
        #: a correction of a game of an earlier session: (the game, its session), named when a
        #: hand breaks that session's table (not the one open now)
        self.played_in = played_in
        self.dropped_given: frozenset[str] = frozenset()

    def keys(self) -> list[Key]:
        return [("hand", n) for n in self.table.turn_order(self.first)] + [("ending", "")]

    def question(self, key: Key) -> str:
        return HAND_QUESTION.format(name=key[1]) if key[0] == "hand" else ending_question(self.table)

    def read(self, key: Key, answer: str) -> Any:
        if key[0] == "ending":
            ending = read_ending(answer)
            if ending.player is not None:  # a name not at the table is asked again, in place
                what = "player going out" if ending.kind is EndingKind.WENT_OUT else "player with four 7s"
                ending = replace(ending, player=self.table.player(ending.player, what))
            return _allowed(ending, self.table, self.played_in)
        # one deck with the hands typed so far; a hand still as recorded (a correction) is judged
        # with the others once every answer is in (the adjudication), so two hands typed in each
        # other's place can be swapped one after the other
        seen = [(self.whose(k), self.cards_of(k, v)) for k, v in self.values.items()
                if k != key and not (k in self.recalled and self.recalled[k] == v)]
        fixed = None if self.played_in is None else f"{self.played_in[0]} was played in {self.played_in[1]}, opened with"
        return read_hand(answer, seen, self.table, key[1], fixed)

    def cards_of(self, key: Key, value: Any) -> list[Card]:
        return list(value) if key[0] == "hand" and value is not None else []

    def whose(self, key: Key) -> str:
        return f"{key[1]}'s hand" if key[0] == "hand" else super().whose(key)

    def takes_none(self, key: Key) -> bool:
        # a hand has a card at least (or: dropped); the ending's none is the stock running out,
        # which Go Out refuses (V2)
        return key[0] == "ending" and self.table.low_count_ending

    def prefill(self, given: Given) -> None:
        table = self.table
        ending = Ending.from_options(given.get("out"), given.get("four_sevens"), bool(given.get("tie")),
                                     list(given.get("dropped") or ()))
        hands = parse_hands(list(given.get("hand") or ()))
        check_holders([(f"{n}'s --hand cards", cards) for n, cards in hands.items()], None)  # S2: adjudicated
        for n, cards in hands.items():
            self.values[("hand", table.player(n, "hand"))] = cards
        self.dropped_given = frozenset(table.player(n, "dropped player") for n in ending.dropped)
        for n in self.dropped_given:
            self.values.setdefault(("hand", n), None)
        for n, text in _typed_hands(list(given.get("hand") or ())).items():
            self.texts[("hand", table.player(n, "hand"))] = text
        missing_hands = [k for k in self.to_ask() if k[0] == "hand"]
        if given.get("out") or given.get("four_sevens") or given.get("tie"):
            self.values[("ending", "")] = ending
            self.texts[("ending", "")] = ending_text(ending)
        elif not missing_hands:  # every hand given and no ending: the stock ran out (unless recorded)
            self.values.setdefault(("ending", ""), ending)

    def how_to_give(self) -> str:
        return '--hand "NAME=CARDS"'

    def refuse_missing(self, missing: Sequence[Key]) -> None:
        hands = [n for what, n in missing if what == "hand"]
        raise UnreadableInput(
            f"no hand given for {', '.join(hands)}, and there is no terminal to ask",
            hint='give --hand "NAME=CARDS" for every player still in the game (or run ref score-hand at a terminal)',
        )

    def recall_facts(self, facts: Mapping[str, Any]) -> None:
        """The game as recorded: each final hand (None: dropped, S14) and how it ended."""
        values: dict[Key, Any] = {}
        texts: dict[Key, str] = {}
        for name, cards in facts["hands"].items():
            values[("hand", name)] = None if cards is None else parse_cards(" ".join(cards))
            texts[("hand", name)] = DROPPED_WORDS[0] if cards is None else " ".join(cards)
        e = facts["ending"]
        ending = Ending(EndingKind(e["kind"]), e.get("player"), frozenset(e.get("dropped") or ()))
        values[("ending", "")], texts[("ending", "")] = ending, ending_text(ending)
        self.recall(values, texts)

    def facts(self):
        from rummyref.games.low_count.kind import Facts

        hands = {who: v for (what, who), v in self.values.items() if what == "hand" and v is not None}
        asked_dropped = {who for (what, who), v in self.values.items() if what == "hand" and v is None}
        dropped = frozenset(asked_dropped | set(self.dropped_given))
        return Facts(hands, replace(self.values[("ending", "")], dropped=dropped))  # S14: "dropped" as the hand
