"""Asking for a Gin hand: both players' cards, how it ended, and (if stated) the melds laid down.

Options first (``--hand "NAME=CARDS"``, ``--knock NAME`` / ``--gin NAME`` / ``--big-gin NAME`` /
``--dead``, ``--melds "NAME=MELDS"``, ``--upcard CARD`` in Oklahoma); at a terminal the rest is
asked: each hand, then how the hand ended, then (Oklahoma, unless the hand was dead) the upcard.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rummyref.cards import Card, check_holders, parse_card, parse_melds, read_cards_of
from rummyref.errors import RuleRefusal, UnreadableCard, UnreadableInput, and_list
from rummyref.games.base import Given
from rummyref.games.forms import Key, QuestionForm, split_assignment
from rummyref.games.gin.engine import Ending
from rummyref.names import at_table
from rummyref.record import Game

HAND_Q = "{name}'s cards (the knocker's after the discard; big gin: all {big})"
ENDING_Q = "How did the hand end? (knock NAME / gin NAME / big-gin NAME / dead)"
UPCARD_Q = "The first upcard (Oklahoma: it sets the knock limit)"
WORDS = {"knock": Ending.KNOCK, "gin": Ending.GIN, "big-gin": Ending.BIG_GIN, "dead": Ending.DEAD}
#: what a name is given for, as a name not at the table is told
BY = {Ending.KNOCK: "knocker", Ending.GIN: "player going gin", Ending.BIG_GIN: "player going big gin"}


def _read(parse: Any, text: str, where: str) -> Any:
    """``parse(text)``, an unreadable card named with ``where`` ("in Al's --melds cards")."""
    try:
        return parse(text)
    except UnreadableCard as exc:
        raise UnreadableCard(exc.token, exc.position, exc.column, exc.hint or "", where) from None


class GinForm(QuestionForm):
    options: ClassVar[tuple[str, ...]] = ("hand", "knock", "gin", "big_gin", "dead", "melds", "upcard")
    wildcards_fixed = None  # G1: Gin is played without WILDCARDs

    def __init__(self, game: Game, oklahoma: bool, knock_limit: int = 10, hand_size: int = 10) -> None:
        super().__init__()
        self.game, self.oklahoma, self.knock_limit = game, oklahoma, knock_limit
        self.hand_size = hand_size  #: G1: the cards dealt each (the rule set's deal); big gin holds one more
        self.melds: tuple[tuple[Card, ...], ...] | None = None

    def keys(self) -> list[Key]:
        """Both hands, how the hand ended and, in Oklahoma, the first upcard: not for a dead hand,
        which has no knock limit to set (G9, G13); an upcard given for one is still read and checked."""
        keys = [("hand", n) for n in self.game.roster] + [("ending", "")]
        return keys + ([("upcard", "")] if self.oklahoma and not self._dead() else [])

    def _dead(self) -> bool:
        ending = self.values.get(("ending", ""))
        return ending is not None and ending[0] is Ending.DEAD

    def question(self, key: Key) -> str:
        return {"hand": HAND_Q, "ending": ENDING_Q, "upcard": UPCARD_Q}[key[0]].format(name=key[1],
                                                                                   big=self.hand_size + 1)

    def who(self, name: str, what: str = "player") -> str:
        """The roster's spelling of a name typed for this hand; a name not at the table is
        unreadable input (exit 3) with a "did you mean", as in Simple Rummy."""
        return at_table(name, self.game.roster, what)

    def read(self, key: Key, answer: str) -> Any:
        what = key[0]
        if what == "hand":
            cards = tuple(read_cards_of(answer, f"in {key[1]}'s cards at the hand prompt"))
            self.check_deck(key, cards)
            return cards
        if what == "upcard":
            return _read(parse_card, answer.strip(), "at the upcard prompt")
        words = answer.split()
        if words and words[0].lower() == "dead" and len(words) == 1:
            return (Ending.DEAD, None)
        if len(words) == 2 and words[0].lower() in WORDS:
            ending = WORDS[words[0].lower()]
            return (ending, self.who(words[1], BY.get(ending, "player")))
        raise UnreadableInput(f"{answer!r}: answer knock NAME, gin NAME, big-gin NAME or dead")

    def cards_of(self, key: Key, value: Any) -> list[Card]:
        return list(value) if key[0] == "hand" else []

    def whose(self, key: Key) -> str:
        return f"{key[1]}'s hand" if key[0] == "hand" else super().whose(key)

    def prefill(self, given: Given) -> None:
        for item in given.get("hand") or ():
            name, text = split_assignment(item, "--hand")
            key = ("hand", self.who(name, "hand"))
            if key in self.values:
                raise UnreadableInput(f"--hand was given twice for {key[1]}", hint="one --hand per player")
            self.values[key] = tuple(read_cards_of(text, f"in {key[1]}'s --hand cards"))
        check_holders([(f"{k[1]}'s --hand cards", self.cards_of(k, v)) for k, v in self.values.items()], None)  # G1: the engine
        endings = [(Ending.KNOCK, given.get("knock")), (Ending.GIN, given.get("gin")),
                   (Ending.BIG_GIN, given.get("big_gin")), (Ending.DEAD, given.get("dead"))]
        chosen = [(e, v) for e, v in endings if v]
        if len(chosen) > 1:
            raise UnreadableInput("a hand ends one way: give one of --knock, --gin, --big-gin, --dead")
        if chosen:
            ending, by = chosen[0]
            self.values[("ending", "")] = (ending, None if ending is Ending.DEAD else self.who(str(by), BY[ending]))
        stated: str | None = None  # whose --melds: one player's, given once (never the last one silently)
        for item in given.get("melds") or ():
            name, text = split_assignment(item, "--melds")
            who = self.who(name, "melds")
            if stated == who:
                raise UnreadableInput(f"--melds was given twice for {who}",
                                      hint=f"one --melds per player, '/' between melds: \"{who}=7C 8C 9C / KS KH KD\"")
            if stated is not None:
                raise UnreadableInput(f"--melds was given for {stated} and for {who}: only the player who went out "
                                      "laid melds down", hint="give --melds once, for the player who went out")
            stated = self._melds_by = who
            self.melds = tuple(tuple(m) for m in _read(parse_melds, text, f"in {who}'s --melds cards") if m)
        if given.get("upcard"):
            upcard = _read(parse_card, str(given["upcard"]).strip(), "in --upcard")
            if not self.oklahoma:  # G13 applies only with the variation; G4's limit stands
                raise RuleRefusal(
                    f"--upcard is for Oklahoma, which game {self.game.name} does not play: its knock limit is "
                    f"{self.knock_limit} (G4)", rule="G13",
                    hint="leave out --upcard; Oklahoma is chosen when a game is created "
                         "(ref new-session --ruleset gin --variation oklahoma --game NEW-NAME)")
            self.values[("upcard", "")] = upcard

    def to_ask(self) -> list[Key]:
        return [k for k in super().to_ask() if not (self._dead() and k[0] == "hand")]

    def recall_facts(self, facts) -> None:
        """A recorded hand's answers (for an amendment at a terminal)."""
        values: dict[Key, Any] = {("hand", n): tuple(cs) for n, cs in facts.hands.items() if cs}
        values[("ending", "")] = (facts.ending, facts.by)
        if facts.upcard is not None and self.oklahoma:
            values[("upcard", "")] = facts.upcard
        texts = {k: (" ".join(str(c) for c in v) if k[0] == "hand" else
                     (f"{v[0].value} {v[1]}" if v[1] else v[0].value) if k[0] == "ending" else str(v))
                 for k, v in values.items()}
        self.recall(values, texts)
        self.melds = facts.melds

    def how_to_give(self) -> str:
        return '--hand "NAME=CARDS" and --knock NAME (or --gin, --big-gin, --dead)'

    def refuse_missing(self, missing: Sequence[Key]) -> None:
        """Name what is missing (whose cards, how the hand ended, the upcard) and the option for each."""
        hands = [who for what, who in missing if what == "hand"]
        whats, gives = [], []
        if hands:
            whats.append(and_list(f"{n}'s cards" for n in hands))
            gives.append(f'--hand "NAME=CARDS" for {and_list(hands)}')
        if ("ending", "") in missing:
            whats.append("how the hand ended")
            gives.append("--knock NAME (or --gin, --big-gin, --dead)")
        if ("upcard", "") in missing:
            whats.append("the first upcard")
            gives.append("--upcard CARD (Oklahoma: the first upcard sets the knock limit, G13)")
        listed, options = and_list(whats), and_list(gives)
        raise UnreadableInput(f"facts missing ({listed}), and there is no terminal to ask",
                              hint=f"give {options}, or run the command at a terminal to be asked")

    def facts(self):
        from rummyref.games.gin.kind import Facts

        ending, by = self.values[("ending", "")]
        if self.melds is not None and by is None and hasattr(self, "_melds_by"):  # G9: nobody went out
            raise UnreadableInput(f"--melds for {self._melds_by}, but in a dead hand nobody laid melds down (G9)",
                                  hint="leave out --melds for a dead hand")
        if self.melds is not None and getattr(self, "_melds_by", by) != by:
            raise UnreadableInput(f"--melds are the melds {by} laid down when going out, not {self._melds_by}'s",
                                  hint=f"give {by}'s melds, '/' between them (--melds \"{by}=7C 8C 9C / KS KH KD\"),"
                                       f" or leave out --melds and ref lays down {by}'s best melds (G14)")
        hands = {n: self.values.get(("hand", n), ()) for n in self.game.roster}
        return Facts(hands, ending, by, self.melds, self.values.get(("upcard", "")))
