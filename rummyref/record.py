"""Plain, frozen domain objects of the record. The store turns its rows into these inside
the database session; the CLI renders them. Nothing here knows about the database."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any, Sequence

from rummyref.errors import RuleRefusal

NEWCOMER_WORD = "GEDDOWWWT!!"


@dataclass(frozen=True)
class Player:
    name: str
    seat: int  #: deal order, from 1 (A3)
    opening: int = 0  #: the total carried over from paper when the game was created


@dataclass(frozen=True)
class Game:
    name: str
    ruleset: str
    target: int | None
    wildcards: int
    players: tuple[Player, ...]
    created_at: str
    finished_at: str | None = None
    winner: str | None = None
    closed_roster: bool = True  #: A1 (rummy-2m): nobody joins; the house's word for newcomers

    @property
    def roster(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def over(self) -> bool:
        return self.finished_at is not None

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)


@dataclass(frozen=True)
class Night:
    number: int
    opened_at: str
    closed_at: str | None
    hands: int  #: hands dealt so far (voided hands were dealt too)


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str  #: "hand", "amend", "void" (later: "ruling", ...)
    night: int | None
    hand: int | None
    hand_in_night: int | None
    dealer: str | None
    facts: dict[str, Any]
    reason: str | None
    target_seq: int | None
    created_at: str
    prev_hash: str
    hash: str
    results: tuple[tuple[str, int], ...]


def resolve_name(name: str, roster: Sequence[str], game: str, closed: bool = True) -> str:
    """A name as typed -> the roster's spelling. A1: a name not on the roster is refused;
    a near miss gets a "did you mean", a newcomer the house's own word."""
    typed = name.strip()
    for n in roster:
        if n.casefold() == typed.casefold():
            return n
    lowered = {n.casefold(): n for n in roster}
    near = difflib.get_close_matches(typed.casefold(), list(lowered), n=1, cutoff=0.6)
    roster_text = ", ".join(roster)
    if near:
        raise RuleRefusal(
            f"{typed!r} is not on the roster of {game} ({roster_text}); did you mean {lowered[near[0]]}?",
            rule="A1" if closed else None,
            hint=f"the players of {game} are {roster_text}",
        )
    if not closed:
        raise RuleRefusal(
            f"{typed} is not a player of {game} ({roster_text})",
            hint=f"the players of {game} are {roster_text}",
        )
    raise RuleRefusal(
        f"{NEWCOMER_WORD} {typed} is not on the roster of {game} ({roster_text}): no new players may join",
        rule="A1" if closed else None,
        hint="A1: the roster was fixed when the game began; a new game may have a new roster (--game NAME)",
    )
