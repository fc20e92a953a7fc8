"""Turning ``score-hand`` options (or answers typed at a prompt) into the facts of a hand.

The scripting form: ``--melded "Bill=7S 7H 7D" --held "Bill=KS 2C" --out Ben --claim "Larry=5H"``
(each repeatable, one player per use) or ``--points Bill=45 --points Ben=-10``. When facts are
missing and stdin is a terminal, the missing ones are asked for, player by player in deal order;
a bad answer is asked again with what was typed offered back. With no terminal, missing facts
are an error (exit 3).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Callable, Sequence

from rummyref.cards import Card, check_deck
from rummyref.errors import RummyrefError, UnreadableInput
from rummyref.record import Game, resolve_name
from rummyref.games.long import table
from rummyref.games.long.scoring import CardFacts, PointsFacts

INTERACTIVE_ENV = "RUMMYREF_INTERACTIVE"  #: "1" forces prompting (tests), "0" forbids it


@dataclass
class Given:
    melded: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    out: str | None = None
    claims: list[str] = field(default_factory=list)
    points: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.melded or self.held or self.out or self.claims or self.points)


def split_assignment(text: str, option: str) -> tuple[str, str]:
    if "=" not in text:
        raise UnreadableInput(
            f"{option} {text!r} does not say whose it is", hint=f'write {option} "NAME=..." (one player per use)'
        )
    name, value = text.split("=", 1)
    if not name.strip():
        raise UnreadableInput(f"{option} {text!r}: the name before '=' is missing")
    return name.strip(), value.strip()


def _by_player(values: Sequence[str], option: str, game: Game) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in values:
        name, value = split_assignment(text, option)
        name = resolve_name(name, game.roster, game.name, game.closed_roster)
        if name in out:
            raise UnreadableInput(f"{option} was given twice for {name}", hint="one use per player")
        out[name] = value
    return out


def interactive() -> bool:
    forced = os.environ.get(INTERACTIVE_ENV)
    if forced in ("0", "1"):
        return forced == "1"
    return sys.stdin.isatty()


Ask = Callable[[str, str], str]  # (question, text offered back) -> answer

# The questions, shared by ``ref score-hand`` at a terminal and ``ref night``.
FORM_Q = "Record this hand as cards or points? [cards/points]"
MELDED_Q = "{name} melded or laid off (cards; '/' between melds; blank: none)"
HELD_Q = "{name} left in hand (cards; blank: none)"
OUT_Q = "Who went out? (name; blank: nobody)"
CLAIMS_Q = "Rummy! claims (NAME=CARD, comma between; blank: none)"
POINTS_Q = "{name}'s points this hand"


def prompt_ask(question: str, offered: str) -> str:
    """Ask on the terminal; on a re-ask the previous answer is offered back (pre-filled
    where readline is available, else as the default). Input that ends (EOF, Ctrl-D, Ctrl-C)
    before an answer is bad input (exit 3): nothing is written."""
    import typer

    try:
        return _prompt(question, offered)
    except (typer.Abort, EOFError, KeyboardInterrupt):
        raise UnreadableInput(
            f"no answer to {question.split('?')[0].split(' (')[0]!r}: the input ended; nothing was written",
            hint="give the facts as options (ref score-hand --help), or answer every question",
        ) from None


def _prompt(question: str, offered: str) -> str:
    import typer

    if offered and sys.stdin.isatty():
        try:
            import readline

            readline.set_pre_input_hook(lambda: (readline.insert_text(offered), readline.redisplay()))
            try:
                sys.stderr.write(question + ": ")
                sys.stderr.flush()
                return input()
            finally:
                readline.set_pre_input_hook(None)
        except ImportError:  # pragma: no cover - platform without readline
            pass
    # prompts are messages, not data: they go to stderr (stdout stays clean for --json)
    return typer.prompt(question, default=offered, show_default=bool(offered), err=True)


def _ask_until(ask: Ask, question: str, check: Callable[[str], object], offered: str = "") -> object:
    """Ask until ``check`` accepts the answer; a bad answer is explained and offered back."""
    while True:
        answer = ask(question, offered)
        try:
            return check(answer)
        except RummyrefError as exc:
            from rummyref.cli.common import say

            say(f"  {exc.message}" + (f" ({exc.hint})" if exc.hint else ""))
            offered = answer


def build_facts(game: Game, given: Given, ask: Ask | None = None) -> CardFacts | PointsFacts:
    """The hand's facts from the options; missing ones are asked for when ``ask`` is given."""
    if given.points and (given.melded or given.held or given.out or given.claims):
        raise UnreadableInput(
            "give the hand either as cards (--melded/--held/--out/--claim) or as --points, not both"
        )
    if given.points or (given.empty and ask is not None and wants_points(ask)):
        return _points_facts(game, given, ask)
    return _card_facts(game, given, ask)


def read_form(answer: str) -> bool:
    """``cards`` (or blank) -> False, ``points`` -> True."""
    a = answer.strip().lower() or "cards"
    if a in ("c", "cards", "card"):
        return False
    if a in ("p", "points", "point"):
        return True
    raise UnreadableInput(f"{answer!r}: answer cards or points")


def wants_points(ask: Ask) -> bool:
    return bool(_ask_until(ask, FORM_Q, read_form))


def _int(text: str, name: str) -> int:
    try:
        return int(text.replace(",", "").replace("_", "").strip())
    except ValueError:
        raise UnreadableInput(f"{name}'s points {text!r} are not a whole number", hint="e.g. 45 or -10") from None


read_points = _int  #: (answer, name) -> the whole number of points


def _points_facts(game: Game, given: Given, ask: Ask | None) -> PointsFacts:
    raw = _by_player(given.points, "--points", game)
    points = {n: _int(v, n) for n, v in raw.items()}
    missing = [n for n in game.roster if n not in points]
    if missing and ask is None:
        raise _missing(missing, "--points NAME=N")
    for n in missing:
        points[n] = _ask_until(ask, POINTS_Q.format(name=n), lambda a, n=n: _int(a, n))  # type: ignore[arg-type]
    return PointsFacts(tuple((n, points[n]) for n in game.roster))


def _missing(names: Sequence[str], how: str) -> UnreadableInput:
    return UnreadableInput(
        f"facts missing for {', '.join(names)}, and there is no terminal to ask",
        hint=f"give {how} for every player (or run ref score-hand at a terminal to be asked)",
    )


def read_melded(text: str, who: str, roster: Sequence[str]) -> tuple[tuple[tuple[table.Laid, ...], ...], bool]:
    """One player's cards on the table, in the notation of :mod:`rummyref.games.long.table`."""
    return table.read_melded(text, table.Where(who, "--melded"), roster)


def _laid_cards(value) -> list[Card]:
    return [c.card for g in value[0] for c in g]


def _card_facts(game: Game, given: Given, ask: Ask | None) -> CardFacts:
    melded_txt = _by_player(given.melded, "--melded", game)
    held_txt = _by_player(given.held, "--held", game)
    out = resolve_name(given.out, game.roster, game.name, game.closed_roster) if given.out else None
    claims = []
    for text in given.claims:
        name, cards = split_assignment(text, "--claim")
        name = resolve_name(name, game.roster, game.name, game.closed_roster)
        claims += [(name, c) for c in table.read_claimed(cards, table.Where(name, "--claim"), game.roster)]
    melded = {n: read_melded(t, n, game.roster) for n, t in melded_txt.items()}
    held = {n: read_held(t, n) for n, t in held_txt.items()}

    def complete(n: str) -> bool:
        return (n in melded or n in held) and (n in held or n == out)

    missing = [n for n in game.roster if not complete(n)]
    if missing and ask is None:
        raise _missing(missing, '--melded "NAME=cards" and --held "NAME=cards" (or --out NAME)')
    if missing:
        seen = [c for m in melded.values() for c in _laid_cards(m)] + [c for h in held.values() for c in h]
        seen += [c.card for _, c in claims]

        def fresh(cards: Sequence[Card]) -> None:
            check_deck(seen + list(cards), game.wildcards, where="already given for this hand")

        for n in missing:
            if n not in melded:
                melded[n] = _ask_until(ask, MELDED_Q.format(name=n),  # type: ignore[arg-type]
                                       lambda a: _checked(read_melded(a, n, game.roster), fresh))
                seen += _laid_cards(melded[n])
            if n not in held and n != out:
                held[n] = _ask_until(ask, HELD_Q.format(name=n),  # type: ignore[arg-type]
                                     lambda a: _checked_held(a, n, fresh))
                seen += list(held[n])
        if given.out is None:
            out = _ask_until(ask, OUT_Q, lambda a: read_out(a, game))  # type: ignore[assignment]
        if not given.claims:
            claims = _ask_until(ask, CLAIMS_Q, lambda a: read_claims(a, game))  # type: ignore[assignment]
    return card_facts(game, melded, held, out, claims)


def card_facts(game: Game, melded, held, out: str | None, claims) -> CardFacts:
    """Assemble the facts: ``melded[name] = (melds, stated)``, ``held[name] = cards``."""
    return table.assemble(game.roster, melded, held, out, claims)


def _checked(value, fresh):
    fresh(_laid_cards(value))
    return value


def read_held(answer: str, who: str = "") -> tuple[Card, ...]:
    """Cards left in hand; '/' may separate them and drops nothing."""
    return table.read_cards(answer, table.Where(who, "--held")) if answer.strip() else ()


def _checked_held(answer: str, who: str, fresh) -> tuple[Card, ...]:
    cards = read_held(answer, who)
    fresh(cards)
    return cards


def read_out(answer: str, game: Game) -> str | None:
    return resolve_name(answer.strip(), game.roster, game.name, game.closed_roster) if answer.strip() else None


def read_claims(answer: str, game: Game) -> list[tuple[str, table.Laid]]:
    """``Larry=5H, Ben=7S``: each claimer's cards (a comma between claimers)."""
    out = []
    for part in answer.split(","):
        if not part.strip():
            continue
        name, cards = split_assignment(part, "claim")
        name = resolve_name(name, game.roster, game.name, game.closed_roster)
        out += [(name, c) for c in table.read_claimed(cards, table.Where(name, "--claim"), game.roster)]
    return out
