"""The one Form for a hand's facts, shared by ``score-hand``, ``amend`` and ``ref night``.

A form is a list of questions (keys, in deal or turn order), a reader for each answer, and
the facts the answers make. The options a command was given answer some questions first
(``prefill``); at a terminal the rest are asked, each answer kept as typed so that a fix offers
it back and nothing typed is lost. Pure: no terminal (an :class:`Asker` asks), no database.

A form for correcting a recorded hand also holds the answers as recorded (``recall``): at a
terminal they answer every question before the options override some, so the table changes
only what was wrong; :meth:`QuestionForm.changed` tells whether anything was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rummyref.cards import Card, check_holders, read_cards_of
from rummyref.errors import UnreadableInput
from rummyref.games.base import Asker, Given, ask_until

if TYPE_CHECKING:
    from rummyref.rules.ruleset import RuleSet

Key = tuple[str, str]  #: (what, whose): ("melded", "Bill"), ("out", ""), ("hand", "Ann"), ...


class QuestionForm:
    """Answers by question; each kind's form says which questions and how to read them."""

    options: ClassVar[tuple[str, ...]] = ()  #: the command-line options this form reads
    unit: ClassVar[str] = "hand"  #: what the facts are of, for messages

    def __init__(self) -> None:
        self.texts: dict[Key, str] = {}
        self.asked: set[Key] = set()  #: the answers typed at a prompt (not given as options)
        self.values: dict[Key, Any] = {}
        self.recalled: dict[Key, Any] = {}  #: the answers as recorded (a correction)
        self.recalled_texts: dict[Key, str] = {}

    # -- given by each form ----------------------------------------------------------------
    def keys(self) -> list[Key]:
        raise NotImplementedError

    def question(self, key: Key) -> str:
        raise NotImplementedError

    def read(self, key: Key, answer: str) -> Any:
        raise NotImplementedError

    def facts(self) -> Any:
        raise NotImplementedError

    def prefill(self, given: Given) -> None:
        """Answer what the options say (reading them as the prompts would)."""

    def to_ask(self) -> list[Key]:
        """The questions still open, in order, once the options have been read."""
        return [k for k in self.keys() if k not in self.values]

    def how_to_give(self) -> str:
        """The options that would have answered the open questions (for a refusal off a terminal)."""
        return "the options (see --help)"

    def wildcards(self) -> int:
        return 0

    #: who fixed :meth:`wildcards` (see :class:`rummyref.errors.TooManyWildcards`); None: the rules
    wildcards_fixed: ClassVar[str | None] = "this game was created with"

    def cards_of(self, key: Key, value: Any) -> list[Card]:
        return []

    def takes_none(self, key: Key) -> bool:
        """Whether ``-`` (none) can answer ``key``: where it cannot, a prompt does not offer it."""
        return True

    # -- shared ----------------------------------------------------------------------------
    def pick(self, given: Given, asker: Asker | None) -> QuestionForm:
        """The form that asks this hand: itself (a form that first asks how the hand is told,
        cards or points, returns the one chosen)."""
        return self

    def recall(self, values: dict[Key, Any], texts: dict[Key, str]) -> None:
        """The answers as recorded, for a correction: they answer first at a terminal."""
        self.recalled, self.recalled_texts = dict(values), dict(texts)

    def start(self, given: Given, asker: Asker | None) -> None:
        """Read the options (over the recorded answers, at a terminal); with no terminal,
        every question must be answered by now (refused otherwise). Asks nothing."""
        if asker is not None:
            self.values.update(self.recalled)
            self.texts.update(self.recalled_texts)
        self.prefill(given)
        missing = self.to_ask()
        if missing and asker is None:
            missing = self.settle_unasked(missing)
        if missing and asker is None:
            self.refuse_missing(missing)

    def settle_unasked(self, missing: Sequence[Key]) -> list[Key]:
        """With no terminal, the questions the options answer after all (set here); the others
        are refused. None by default."""
        return list(missing)

    def refuse_missing(self, missing: Sequence[Key]) -> None:
        whose = list(dict.fromkeys(who for _, who in missing if who)) or [what for what, _ in missing]
        raise UnreadableInput(
            f"facts missing for {', '.join(whose)}, and there is no terminal to ask",
            hint=f"give {self.how_to_give()} for every player (or run the command at a terminal to be asked)",
        )

    def fill(self, given: Given, asker: Asker | None) -> Any:
        """The facts: the options first, then the open questions asked (refused with no terminal)."""
        self.start(given, asker)
        if asker is not None:
            self.ask_all(asker)
        return self.facts()

    def changed(self) -> bool:
        """Does any answer differ from the hand as recorded? (Always, for a new hand.)"""
        return not self.recalled or self.values != self.recalled

    def names(self) -> Sequence[str]:
        return [who for _, who in self.keys() if who]

    def ask(self, asker: Asker, key: Key) -> None:
        """Ask one question (offering back what was typed before), keep the answer."""
        typed: list[str] = []

        def check(answer: str) -> Any:
            value = self.read(key, answer)
            typed.append(answer)
            return value

        self.values[key] = ask_until(asker, self.question(key), check, self.texts.get(key, ""),
                                     none=self.takes_none(key))
        self.texts[key] = typed[-1]
        self.asked.add(key)

    def ask_all(self, asker: Asker) -> None:
        """Ask every question not answered yet, in order (``ref night``). The questions are read
        again after each answer: one may settle another (a Gin dead hand asks no upcard)."""
        while (key := next((k for k in self.keys() if k not in self.values), None)) is not None:
            self.ask(asker, key)

    def fix(self, asker: Asker, word: str) -> bool:
        """Ask again the questions ``word`` names (a player, or a question's name such as
        ``out``); False when it names none."""
        keys = self.keys_for(word)
        for key in keys:
            self.values.pop(key, None)
        self.ask_all(asker)
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

    def whose(self, key: Key) -> str:
        """Whose answer ``key`` holds, for a message: "Bill's held cards", "the claims cards"."""
        what, who = key
        return f"{who}'s {what} cards" if who else f"the {what} cards"

    def check_deck(self, key: Key, cards: Sequence[Card]) -> None:
        """One deck: the cards of this answer with every other answer's; a card given twice
        names both holders."""
        held = [(self.whose(k), self.cards_of(k, v)) for k, v in self.values.items() if k != key]
        check_holders(held + [(self.whose(key), cards)], self.wildcards(), self.wildcards_fixed)


# -- readers every kind's options share ---------------------------------------------------------


def split_assignment(text: str, option: str) -> tuple[str, str]:
    """``"NAME=VALUE"`` -> (NAME, VALUE); only the first ``=`` splits (``Ben=W=7H``). The value
    as typed, blanks and all: a card's column counts from just after the ``=``."""
    if "=" not in text:
        raise UnreadableInput(
            f"{option} {text!r} has no '=': it does not say whose it is",
            hint=f'write {option} "NAME=..." (one player per use)'
        )
    name, value = text.split("=", 1)
    if not name.strip():
        raise UnreadableInput(f"{option} {text!r}: the name before '=' is missing")
    return name.strip(), value


def read_points(text: str, name: str, deck: str | None = None) -> int:
    """A whole number of points typed for ``name`` (45, -10, 1,200), within a hand's bounds;
    ``deck`` (:func:`deck_said`) names the game's own deck in the refusal's hint."""
    from dataclasses import replace

    from rummyref.bounds import HAND_POINTS, HAND_POINTS_MAX, bounded_int

    bound = HAND_POINTS if deck is None else replace(
        HAND_POINTS, why=f"a hand is never worth more than the whole deck ({deck}); no rule set's deck may be "
                         f"worth over {HAND_POINTS_MAX:,}")
    return bounded_int(text, f"{name}'s points", bound)


def deck_said(rs: RuleSet, wildcards: int) -> str:
    """What the whole deck of a game is worth, for a hint: ``396 points in this game of 500 Rum``
    (its own WILDCARDs, fixed when it was created)."""
    from dataclasses import replace

    from rummyref.rules.ruleset import deck_worth

    worth = deck_worth(replace(rs, wild_max=wildcards, variations=()))
    return f"{worth:,} points in this game of {rs.title}"


def parse_assignments(items: list[str], what: str = "cards", whose: str = "cards turned up") -> dict[str, list[Card]]:
    """``NAME=CARDS`` arguments, in the order given, into ``{name: cards}``; an unreadable card
    is named as NAME's ``whose`` ("Cy's cards turned up", "Cy's --first-dealer cards")."""
    result: dict[str, list[Card]] = {}
    typed: dict[str, str] = {}  #: casefolded name -> the item that named it first
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise UnreadableInput(
                f"{item!r} is not NAME={what.upper()}",
                hint=f"write each player as NAME={what.upper()}, e.g. Ann=KS or \"Cy=W W 2C\"",
            )
        key = name.strip().casefold()
        if key in typed:
            raise UnreadableInput(
                f"{name.strip()} is named twice ({typed[key]!r} and {item!r})",
                hint=f"name each player once, with all their {what}: e.g. \"{name.strip()}=W 5S\"",
            )
        typed[key] = item
        result[name.strip()] = read_cards_of(text, f"in {name.strip()}'s {whose}")
    return result
