"""SQLModel tables of the latest schema (the DDL itself lives in ``migrations``; a test checks
that both agree). Rows never leave the store: ``record`` and ``views`` turn them into the
frozen domain objects of ``rummyref.record``."""

from __future__ import annotations

from typing import Optional, Protocol

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel


class _Stored(Protocol):
    id: Optional[int]


def row_id(row: _Stored) -> int:
    """The id of a row read from the database or flushed to it: it has one then (a row only
    built has none, and asking for it is a bug)."""
    if row.id is None:
        raise AssertionError(f"{type(row).__name__} has no id: it was never stored")
    return row.id


class Meta(SQLModel, table=True):
    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


class GameRow(SQLModel, table=True):
    __tablename__ = "game"
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    ruleset: str
    ruleset_text: str
    target: Optional[int] = None
    wildcards: int = 0
    options: str = "{}"
    created_at: str
    finished_at: Optional[str] = None
    winner: Optional[str] = None


class PlayerRow(SQLModel, table=True):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "name"), UniqueConstraint("game_id", "seat"))
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    name: str
    seat: int
    opening: int = 0


class SessionRow(SQLModel, table=True):
    __tablename__ = "session"
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    number: int
    opened_at: str
    closed_at: Optional[str] = None
    options: str = "{}"


class EntryRow(SQLModel, table=True):
    __tablename__ = "entry"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    seq: int
    kind: str
    session_id: Optional[int] = Field(default=None, foreign_key="session.id")
    hand: Optional[int] = None
    hand_in_session: Optional[int] = None
    dealer: Optional[str] = None
    facts: str = "{}"
    reason: Optional[str] = None
    target_seq: Optional[int] = None
    created_at: str
    prev_hash: str
    hash: str


class ResultRow(SQLModel, table=True):
    __tablename__ = "result"
    __table_args__ = (UniqueConstraint("entry_id", "player_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    entry_id: int = Field(foreign_key="entry.id")
    player_id: int = Field(foreign_key="player.id")
    points: int
    count: Optional[int] = None
    won: Optional[int] = None
    current: int = 1


class PlayerTotalRow(SQLModel, table=True):
    __tablename__ = "player_total"
    player_id: int = Field(primary_key=True, foreign_key="player.id")
    game_id: int = Field(foreign_key="game.id")
    points: int = 0
    hands: int = 0
    best: Optional[int] = None
    worst: Optional[int] = None
    nights_won: int = 0


class SessionTotalRow(SQLModel, table=True):
    __tablename__ = "session_total"
    session_id: int = Field(primary_key=True, foreign_key="session.id")
    player_id: int = Field(primary_key=True, foreign_key="player.id")
    points: int = 0
    hands: int = 0


class GameTotalRow(SQLModel, table=True):
    __tablename__ = "game_total"
    game_id: int = Field(primary_key=True, foreign_key="game.id")
    hands: int = 0
    entries: int = 0
    head_hash: str
