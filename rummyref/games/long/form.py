"""Asking for a long game's hand: options (or answers typed at a prompt) into the facts.

The scripting form: ``--melded "Bill=7S 7H 7D" --held "Bill=KS 2C" --out Ben --claim "Larry=5H"``
(each repeatable, one player per use) or ``--points Bill=45 --points Ben=-10``. When facts are
missing and stdin is a terminal, the missing ones are asked for, player by player in deal order;
a bad answer is asked again with what was typed offered back. With no terminal, missing facts
are an error (exit 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rummyref.cards import Card, format_cards, is_wildcard, parse_card
from rummyref.errors import UnreadableInput
from rummyref.games.base import Asker, Given, ask_until
from rummyref.games.forms import Key, QuestionForm, read_points, split_assignment
from rummyref.games.long import table
from rummyref.games.long.legacy import LegacyCardFacts, as_card_facts
from rummyref.games.long.scoring import CardFacts, PointsFacts
from rummyref.names import find, resolve_name
from rummyref.record import Game


def _by_player(values: Sequence[str], option: str, game: Game) -> dict[str, str]:
    out: dict[str, str] = {}
    pairs = [split_assignment(text, option) for text in values]
    for name, value in pairs:  # a "did you mean" never names a player the option names too
        name = resolve_name(name, game.roster, game.name, game.closed_roster, given=[n for n, _ in pairs])
        if name in out:
            raise UnreadableInput(f"{option} was given twice for {name}", hint="one use per player")
        out[name] = value
    return out


# The questions, shared by ``ref score-hand`` at a terminal and ``ref night``.
FORM_Q = "Record this hand as cards or points? [cards/points]"
MELDED_Q = "{name} melded or laid off (cards; '/' between melds; blank: none)"
HELD_Q = "{name} left in hand (cards; blank: none)"
OUT_Q = "Who went out? (name; blank: nobody)"
CLAIMS_Q = "Rummy! claims (NAME=CARD, comma between; blank: none)"
POINTS_Q = "{name}'s points this hand"


def read_form(answer: str) -> bool:
    """``cards`` (or blank) -> False, ``points`` -> True."""
    a = answer.strip().lower() or "cards"
    if a in ("c", "cards", "card"):
        return False
    if a in ("p", "points", "point"):
        return True
    raise UnreadableInput(f"{answer!r}: answer cards or points")


def read_melded(text: str, who: str, roster: Sequence[str],
                option: str = "--melded") -> tuple[tuple[tuple[table.Laid, ...], ...], bool]:
    """One player's cards on the table, in the notation of :mod:`rummyref.games.long.table`."""
    return table.read_melded(text, table.Where(who, option), roster)


def card_facts(game: Game, melded, held, out: str | None, claims, at_prompt: frozenset[str] = frozenset()
               ) -> CardFacts:
    """Assemble the facts: ``melded[name] = (melds, stated)``, ``held[name] = cards``."""
    return table.assemble(game.roster, melded, held, out, claims, at_prompt)


def read_held(answer: str, who: str = "", option: str = "--held") -> tuple[Card, ...]:
    """Cards left in hand; '/' may separate them and drops nothing."""
    return table.read_cards(answer, table.Where(who, option)) if answer.strip() else ()


#: answers to "who went out?" that mean nobody (unless a player has that name)
NOBODY = ("nobody", "no one", "noone", "none", "-")


def read_out(answer: str, game: Game) -> str | None:
    said = answer.strip()
    if not said or (said.casefold() in NOBODY and said.casefold() not in {n.casefold() for n in game.roster}):
        return None
    return resolve_name(said, game.roster, game.name, game.closed_roster)


def _reads_as_card(token: str) -> bool:
    """Whether the card parser reads ``token`` as a card: a WILDCARD in any spelling, or a
    natural card (``7H=7S`` after a comma is a card that says it is another, not a name)."""
    try:
        parse_card(token)
    except UnreadableInput:
        return False
    return True


def read_claims(answer: str, game: Game, option: str = "--claim") -> list[tuple[str, table.Laid]]:
    """``Larry=5H, Ben=7S``: each claimer's cards (a comma between claimers). Between one
    claimer's cards a comma is a blank, as everywhere (``Larry=5D,6D``): a part with no
    ``NAME=`` goes on with the claimer before it. ``W=7H`` is a card, in every spelling the
    card parser reads as a WILDCARD (``joker=7H``, ``*=7H``: SPEC §2), unless a player on the
    roster is so named (one kept from before such names were refused): then it is the player."""
    groups: list[list[str]] = []
    for part in answer.split(","):
        if not part.strip():
            continue
        head = part.split("=", 1)[0].strip()
        card = "=" in part and _reads_as_card(head) and find(head, game.roster) is None
        if card and not groups:  # "W=7H, Larry=5D": a card, before anyone's name
            what = ("a WILDCARD and the card it stands for" if is_wildcard(head)
                    else f"a card ({head}), not a player's name")
            raise UnreadableInput(f"claim {part.strip()!r} is {what}: it does not say whose it is",
                                  hint=f"write the claimer's name first, e.g. {game.roster[0]}={part.strip()}")
        if ("=" in part and not card) or not groups:
            groups.append([part])
        else:
            groups[-1].append(part)  # as typed: its columns count
    out = []
    for first, *more in groups:
        if "=" not in first:  # the prompt's advice, not --claim's (one claimer per use)
            raise UnreadableInput(f"claim {first.strip()!r} has no '=': it does not say whose it is",
                                  hint=f"write the claimer's name first, e.g. {game.roster[0]}={first.strip()}, "
                                       "a comma between claimers")
        name, _ = split_assignment(first, "claim")
        name = resolve_name(name, game.roster, game.name, game.closed_roster)
        # the cards as --claim "NAME=..." reads them, commas kept: a card's column is where typed
        cards = ",".join([first.split("=", 1)[1], *more])
        out += [(name, c) for c in table.read_claimed(cards, table.Where(name, option), game.roster)]
    return out




class CardsForm(QuestionForm):
    """A hand by cards: each player's melds and hand in deal order, who went out, the Rummy!
    claims. From the options: a player is complete with --melded or --held given, and --held
    given (or the player went out); the rest is asked, then who went out and the claims."""

    options: ClassVar[tuple[str, ...]] = ("melded", "held", "out", "claim", "dealer")

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def keys(self) -> list[Key]:
        per_player = [(what, n) for n in self.game.roster for what in ("melded", "held")]
        return per_player + [("out", ""), ("claims", "")]

    def question(self, key: Key) -> str:
        what, who = key
        return {"melded": MELDED_Q, "held": HELD_Q, "out": OUT_Q, "claims": CLAIMS_Q}[what].format(name=who)

    def read(self, key: Key, answer: str) -> Any:
        what, who = key
        if what == "out":
            return read_out(answer, self.game)
        value: Any
        prompt = f"the {what} prompt"
        if what == "melded":
            value = read_melded(answer, who, self.game.roster, prompt)
        elif what == "held":
            value = read_held(answer, who, prompt)
        else:
            value = read_claims(answer, self.game, prompt)
        self.check_deck(key, self.cards_of(key, value))
        return value

    def wildcards(self) -> int:
        return self.game.wildcards

    def whose(self, key: Key) -> str:
        return "the Rummy! claims" if key[0] == "claims" else super().whose(key)

    def cards_of(self, key: Key, value: Any) -> list[Card]:
        what = key[0]
        if what == "melded":
            return [c.card for g in value[0] for c in g]
        if what == "held":
            return list(value)
        if what == "claims":
            return [c.card for _, c in value]
        return []

    def prefill(self, given: Given) -> None:
        game = self.game
        if given.get("points"):
            raise UnreadableInput(
                "give the hand either as cards (--melded/--held/--out/--claim) or as --points, not both")
        melded = {n: read_melded(t, n, game.roster)
                  for n, t in _by_player(given.get("melded") or (), "--melded", game).items()}
        held = {n: read_held(t, n) for n, t in _by_player(given.get("held") or (), "--held", game).items()}
        out = resolve_name(given["out"], game.roster, game.name, game.closed_roster) if given.get("out") else None
        claims: list[tuple[str, table.Laid]] = []
        for text in given.get("claim") or ():
            name, cards = split_assignment(text, "--claim")
            name = resolve_name(name, game.roster, game.name, game.closed_roster)
            claims += [(name, c) for c in table.read_claimed(cards, table.Where(name, "--claim"), game.roster)]
        complete = [n for n in game.roster if (n in melded or n in held) and (n in held or n == out)]
        typed = {("melded", n): t.strip() for n, t in _by_player(given.get("melded") or (), "--melded", game).items()}
        typed |= {("held", n): t.strip() for n, t in _by_player(given.get("held") or (), "--held", game).items()}
        for n, v in melded.items():
            self.values[("melded", n)] = v
        for n, h in held.items():
            self.values[("held", n)] = h
        if out is not None:  # who went out holds nothing, unless the options say otherwise
            self.values[("held", out)] = held.get(out, ())
            typed.setdefault(("held", out), "")
        self.texts.update(typed)
        for n in complete:
            self.values.setdefault(("melded", n), ((), False))
        if given.get("out") or len(complete) == len(game.roster):
            self.values[("out", "")] = out
        if claims or len(complete) == len(game.roster):
            self.values[("claims", "")] = claims

    def how_to_give(self) -> str:
        return '--melded "NAME=cards" and --held "NAME=cards" (or --out NAME)'

    def settle_unasked(self, missing: Sequence[Key]) -> list[Key]:
        """Off a terminal, ``--out NAME`` with no ``--melded`` for NAME says what ``--held "NAME="``
        does: NAME melded nothing of their own (a Rummy! claim may still be theirs), as a player
        given only ``--held`` did. At a terminal NAME is asked instead: who went out mostly melded."""
        out = self.values.get(("out", ""))
        left = []
        for key in missing:
            if key == ("melded", out):
                self.values[key] = ((), False)
                self.texts[key] = ""
            else:
                left.append(key)
        return left

    def recall_facts(self, facts: CardFacts) -> None:
        """The hand's cards as recorded, each as it would be typed (``/`` where designated)."""
        values: dict[Key, Any] = {}
        texts: dict[Key, str] = {}
        for n, p in facts.players:
            values[("melded", n)] = (p.melded, p.stated)
            text = (" / " if p.stated else " ").join(" ".join(str(c) for c in g) for g in p.melded)
            # one group stated (``QC KC /``: laid off, not the player's own) keeps its '/'
            texts[("melded", n)] = text + " /" if p.stated and len(p.melded) == 1 else text
            values[("held", n)] = p.held
            texts[("held", n)] = format_cards(p.held)
        values[("out", "")], texts[("out", "")] = facts.out, facts.out or ""
        values[("claims", "")] = list(facts.claims)
        texts[("claims", "")] = ", ".join(f"{n}={c}" for n, c in facts.claims)  # Laid prints in the notation
        self.recall(values, texts)

    def facts(self) -> CardFacts:
        v = self.values
        roster = self.game.roster
        prompted = frozenset(f"{what}:{who}" if who else what for what, who in self.asked)
        return card_facts(self.game, {n: v[("melded", n)] for n in roster}, {n: v[("held", n)] for n in roster},
                          v[("out", "")], v[("claims", "")], prompted)


class PointsForm(QuestionForm):
    """A hand in a hurry: each player's points, in deal order."""

    options: ClassVar[tuple[str, ...]] = ("points", "dealer")
    deck: str | None = None  #: what the game's whole deck is worth, for an out-of-range hint

    def __init__(self, game: Game, deck: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.deck = deck

    def keys(self) -> list[Key]:
        return [("points", n) for n in self.game.roster]

    def question(self, key: Key) -> str:
        return POINTS_Q.format(name=key[1])

    def read(self, key: Key, answer: str) -> Any:
        return read_points(answer, key[1], self.deck)

    def prefill(self, given: Given) -> None:
        for n, v in _by_player(given.get("points") or (), "--points", self.game).items():
            self.values[("points", n)] = read_points(v, n, self.deck)
            self.texts[("points", n)] = v

    def recall_facts(self, facts: PointsFacts) -> None:
        """The points as recorded."""
        self.recall({("points", n): p for n, p in facts.points}, {("points", n): str(p) for n, p in facts.points})

    def how_to_give(self) -> str:
        return "--points NAME=N"

    def facts(self) -> PointsFacts:
        return PointsFacts(tuple((n, self.values[("points", n)]) for n in self.game.roster))


class HandForm:
    """``score-hand``'s and ``amend``'s form: cards, or points when --points is given (at a
    terminal with nothing given, the table is asked which). Correcting a recorded hand
    (``recorded``), the hand is told the way it was recorded unless the options tell it the
    other way, and at a terminal its recorded answers come first."""

    options: ClassVar[tuple[str, ...]] = ("melded", "held", "out", "claim", "points", "dealer")

    def __init__(self, game: Game, recorded: Any = None, deck: str | None = None) -> None:
        self.game = game
        self.recorded = recorded
        self.deck = deck

    def pick(self, given: Given, asker: Asker | None) -> QuestionForm:
        chosen = [k for k in ("melded", "held", "out", "claim", "points") if given.get(k)]
        points = bool(given.get("points"))
        if points and len(chosen) > 1:
            raise UnreadableInput(
                "give the hand either as cards (--melded/--held/--out/--claim) or as --points, not both")
        if not chosen and self.recorded is not None:
            points = isinstance(self.recorded, PointsFacts)
        elif not chosen and asker is not None:
            points = bool(ask_until(asker, FORM_Q, read_form))
        if points:
            pform = PointsForm(self.game, self.deck)
            if isinstance(self.recorded, PointsFacts):
                pform.recall_facts(self.recorded)
            return pform
        cform = CardsForm(self.game)
        if isinstance(self.recorded, CardFacts):
            cform.recall_facts(self.recorded)
        elif isinstance(self.recorded, LegacyCardFacts):  # a 0.1 hand: its cards, offered back as typed
            cform.recall_facts(as_card_facts(self.recorded))
        return cform

    def fill(self, given: Given, asker: Asker | None) -> CardsFacts:
        return self.pick(given, asker).fill(given, asker)


CardsFacts = CardFacts | PointsFacts
