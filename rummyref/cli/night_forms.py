"""The facts of one hand as ``ref night`` asks for them: one answer per question, each kept
as typed, so that a fix offers it back and nothing already typed is lost.

A form knows its questions (in deal or turn order), how to read each answer (the readers of
:mod:`rummyref.cli.facts` and :mod:`rummyref.cli.simple_record`, shared with ``ref
score-hand``), and how to turn the answers into facts. Pure: no terminal, no database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable

from rummyref.cli import facts as f
from rummyref.cli.simple_record import ENDING_QUESTION, HAND_QUESTION, read_ending, read_hand
from rummyref.cards import Card, check_deck
from rummyref.errors import UnreadableInput

Key = tuple[str, str]  #: (what, whose): ("melded", "Bill"), ("out", ""), ("hand", "Ann"), ...


class Form:
    """Answers by question; subclasses say which questions and how to read them."""

    def __init__(self) -> None:
        self.texts: dict[Key, str] = {}
        self.values: dict[Key, Any] = {}

    # -- to be given by each form ------------------------------------------------------
    def keys(self) -> list[Key]:
        raise NotImplementedError

    def question(self, key: Key) -> str:
        raise NotImplementedError

    def read(self, key: Key, answer: str) -> Any:
        raise NotImplementedError

    def facts(self) -> Any:
        raise NotImplementedError

    # -- shared ------------------------------------------------------------------------
    def names(self) -> Sequence[str]:
        return [who for _, who in self.keys() if who]

    def ask(self, ask: f.Ask, key: Key) -> None:
        """Ask one question (offering back what was typed before), keep the answer."""
        typed: list[str] = []

        def check(answer: str) -> Any:
            value = self.read(key, answer)
            typed.append(answer)
            return value

        self.values[key] = f._ask_until(ask, self.question(key), check, self.texts.get(key, ""))
        self.texts[key] = typed[-1]

    def fill(self, ask: f.Ask) -> None:
        """Ask every question not answered yet, in order."""
        for key in self.keys():
            if key not in self.values:
                self.ask(ask, key)

    def fix(self, ask: f.Ask, word: str) -> bool:
        """Ask again the questions ``word`` names (a player, or a question's name such as
        ``out``); False when it names none."""
        keys = self.keys_for(word)
        for key in keys:
            del self.values[key]
        self.fill(ask)
        return bool(keys)

    def keys_for(self, word: str) -> list[Key]:
        w = word.strip().casefold()
        if not w:
            return []
        exact = [k for k in self.keys() if w in (k[0].casefold(), k[1].casefold())]
        if exact:
            return exact
        return [k for k in self.keys() if k[1] and k[1].casefold().startswith(w)]

    def choices(self) -> str:
        whats = [what for what, who in self.keys() if not who]
        return " / ".join(list(dict.fromkeys(self.names())) + whats)

    def _deck(self, key: Key, cards: Sequence[Card], wildcards: int, where: str) -> None:
        seen = [c for k, v in self.values.items() if k != key for c in self.cards_of(k, v)]
        check_deck(seen + list(cards), wildcards, where=where)

    def cards_of(self, key: Key, value: Any) -> list[Card]:
        return []


class CardsForm(Form):
    """Rummy 2,000,000 by cards: each player's melds and hand in deal order, who went out,
    the Rummy! claims (the questions of ``ref score-hand`` at a terminal)."""

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game

    def keys(self) -> list[Key]:
        per_player = [(what, n) for n in self.game.roster for what in ("melded", "held")]
        return per_player + [("out", ""), ("claims", "")]

    def question(self, key: Key) -> str:
        what, who = key
        return {"melded": f.MELDED_Q, "held": f.HELD_Q, "out": f.OUT_Q, "claims": f.CLAIMS_Q}[what].format(name=who)

    def read(self, key: Key, answer: str) -> Any:
        what, _ = key
        if what == "out":
            return f.read_out(answer, self.game)
        who = key[1]
        value = {"melded": lambda a: f.read_melded(a, who, self.game.roster), "held": lambda a: f.read_held(a, who)}.get(
            what, lambda a: f.read_claims(a, self.game))(answer)
        self._deck(key, self.cards_of(key, value), self.game.wildcards, "already given for this hand")
        return value

    def cards_of(self, key: Key, value: Any) -> list[Card]:
        what = key[0]
        if what == "melded":
            return [c.card for g in value[0] for c in g]
        if what == "held":
            return list(value)
        if what == "claims":
            return [c.card for _, c in value]
        return []

    def facts(self):
        v = self.values
        roster = self.game.roster
        return f.card_facts(self.game, {n: v[("melded", n)] for n in roster}, {n: v[("held", n)] for n in roster},
                            v[("out", "")], v[("claims", "")])


class PointsForm(Form):
    """Rummy 2,000,000 in a hurry: each player's points, in deal order."""

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game

    def keys(self) -> list[Key]:
        return [("points", n) for n in self.game.roster]

    def question(self, key: Key) -> str:
        return f.POINTS_Q.format(name=key[1])

    def read(self, key: Key, answer: str) -> Any:
        return f.read_points(answer, key[1])

    def facts(self):
        from rummyref.games.long.scoring import PointsFacts

        return PointsFacts(tuple((n, self.values[("points", n)]) for n in self.game.roster))


class SimpleForm(Form):
    """Simple Rummy: every final hand in turn order, then how the game ended."""

    def __init__(self, table, first: str) -> None:
        super().__init__()
        self.table, self.first = table, first

    def keys(self) -> list[Key]:
        return [("hand", n) for n in self.table.turn_order(self.first)] + [("ending", "")]

    def question(self, key: Key) -> str:
        return HAND_QUESTION.format(name=key[1]) if key[0] == "hand" else ENDING_QUESTION

    def read(self, key: Key, answer: str) -> Any:
        if key[0] == "ending":
            return read_ending(answer)
        seen = [c for k, v in self.values.items() if k != key for c in self.cards_of(k, v)]
        return read_hand(answer, seen, self.table)

    def cards_of(self, key: Key, value: Any) -> list[Card]:
        return list(value) if key[0] == "hand" and value is not None else []

    def facts(self):
        from dataclasses import replace

        hands = {who: v for (what, who), v in self.values.items() if what == "hand" and v is not None}
        dropped = frozenset(who for (what, who), v in self.values.items() if what == "hand" and v is None)
        return hands, replace(self.values[("ending", "")], dropped=dropped)  # S14: "dropped" as the hand


# -- the answers around a hand --------------------------------------------------------------

YES = ("", "y", "yes", "ok", "record", "write")
DROP = ("n", "no", "drop", "discard")


def read_confirm(answer: str, form: Form) -> tuple[str, str]:
    """The answer to "record it?": ``("yes", "")``, ``("drop", "")`` or ``("fix", WORD)``."""
    a = answer.strip()
    low = a.casefold()
    if low in YES:
        return "yes", ""
    if low in DROP:
        return "drop", ""
    word = a[4:].strip() if low.startswith("fix ") else a
    if form.keys_for(word):
        return "fix", word
    raise UnreadableInput(
        f"{answer!r}: answer yes (or Enter), fix ANSWER, or drop",
        hint=f"answers to fix: {form.choices()}",
    )


def read_fix(answer: str, form: Form) -> tuple[str, str]:
    """After a refusal: ``fix WORD`` (or just the word) or ``drop``."""
    kind, word = read_confirm(answer, form)
    if kind == "yes" and not answer.strip():
        raise UnreadableInput("say which answer to fix", hint=f"answers: {form.choices()}; or drop")
    if kind == "yes":
        raise UnreadableInput(f"{answer!r}: the hand cannot be recorded as it stands",
                              hint=f"fix one of: {form.choices()}; or drop")
    return kind, word


Reader = Callable[[str, Form], tuple[str, str]]
