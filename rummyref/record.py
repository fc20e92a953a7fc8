"""Plain, frozen domain objects of the record. The store turns its rows into these inside
the database session; the CLI renders them. Nothing here knows about the database."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
