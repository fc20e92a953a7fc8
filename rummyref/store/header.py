"""The bookkeeping entries: what puts the game's header and its nights under the chain.

A game's first entry states its header (``header``); opening and closing a night append
``session-open`` and ``session-close``. The rows of ``game``, ``player`` and ``session`` stay
as they were (every reader uses them), but ``ref verify`` now recomputes each of their columns
from these entries (:mod:`rummyref.replay`), so editing one with plain SQL is seen.

A record made before these entries existed (0.1, schema v2) gets one ``adopt`` entry per
game at the end of its chain when it is upgraded (migration v3): it states the header and
the nights as found at that moment. Appending changes nothing before it, so the entries of
0.1 keep their hashes; the adopted facts are proven from the upgrade on, not before.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rummyref.chain import EntryKind
from rummyref.replay import (
    Header,
    Night,
    Seat,
    adopt_facts,
    header_facts,
    session_close_facts,
    session_open_facts,
)
from rummyref.store.models import GameRow, PlayerRow, SessionRow, row_id
from rummyref.store.record import Record


def header_of(g: GameRow) -> Header:
    return Header(g.name, g.ruleset, g.ruleset_text, g.target, g.wildcards, json.loads(g.options or "{}"),
                  g.created_at)


def _seats(players: Sequence[PlayerRow]) -> list[Seat]:
    return [Seat(p.name, p.seat, p.opening) for p in players]


def header_body(g: GameRow, players: Sequence[PlayerRow]) -> dict:
    """The facts of a game's ``header`` entry: its row as created and its roster."""
    return header_facts(header_of(g), _seats(players))


def open_body(s: SessionRow, seated: Sequence[PlayerRow] = ()) -> dict:
    """The facts of a ``session-open`` entry; ``seated``: the rows of the players it seated."""
    return session_open_facts(s.number, s.opened_at, json.loads(s.options or "{}"), _seats(seated))


def close_body(s: SessionRow) -> dict:
    """The facts of a ``session-close`` entry (the night's row once closed)."""
    abandoned = json.loads(s.options or "{}").get("closed_as") == "abandoned"
    assert s.closed_at is not None  # called once the night is closed
    return session_close_facts(s.number, s.closed_at, abandoned)


def chain_header(rec: Record, g: GameRow) -> None:
    """Entry 1 of a new game (in the caller's write transaction, after its player rows)."""
    body = header_body(g, rec.players(row_id(g)))
    rec.append_entry(g, EntryKind.HEADER.value, None, None, None, None, body, None, None, {})


def chain_open(rec: Record, g: GameRow, s: SessionRow, seated: Sequence[str] = ()) -> None:
    """A night opened; ``seated``: the players whose rows this opening added (an open roster)."""
    new = [p for p in rec.players(row_id(g)) if p.name in set(seated)]
    rec.append_entry(g, EntryKind.SESSION_OPEN.value, s, None, None, None, open_body(s, new), None, None, {})


def chain_close(rec: Record, g: GameRow, s: SessionRow) -> None:
    rec.append_entry(g, EntryKind.SESSION_CLOSE.value, s, None, None, None, close_body(s), None, None, {})


def adopt_all(conn) -> None:
    """Migration v3: an ``adopt`` entry at the end of every game's chain (inside the migration's
    transaction, on the migration's connection)."""
    from sqlmodel import Session, col, select

    with Session(bind=conn, autoflush=False) as session:
        rec = Record(session)
        for g in session.exec(select(GameRow).order_by(col(GameRow.id))):
            nights = session.exec(select(SessionRow).where(SessionRow.game_id == row_id(g)).order_by(col(SessionRow.number)))
            found = [Night(s.number, s.opened_at, s.closed_at, json.loads(s.options or "{}")) for s in nights]
            body = adopt_facts(header_of(g), _seats(rec.players(row_id(g))), found)
            rec.append_entry(g, EntryKind.ADOPT.value, None, None, None, None, body, None, None, {})
        session.flush()
