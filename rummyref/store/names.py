"""Names for shell completion: games and players, read with the standard ``sqlite3`` module
only (no SQLAlchemy: a completion must answer in a few milliseconds), read-only, and never
raising: a missing or unreadable database simply has no names."""

from __future__ import annotations

import sqlite3

from rummyref.store.location import file_of, resolve


def _query(db: str | None, sql: str, params: tuple = ()) -> list[str]:
    try:
        path = file_of(resolve(db))
        if path is None or not path.is_file():
            return []
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=0.2)
        try:
            return [str(r[0]) for r in conn.execute(sql, params)]
        finally:
            conn.close()
    except Exception:  # noqa: BLE001 - completion never fails, it only has nothing to offer
        return []


def game_names(db: str | None) -> list[str]:
    """Every game, the latest first."""
    return _query(db, "SELECT name FROM game ORDER BY id DESC")


def player_names(db: str | None, game: str | None) -> list[str]:
    """The players of a game (default: the latest), in deal order."""
    if game:
        return _query(
            db, "SELECT p.name FROM player p JOIN game g ON g.id = p.game_id WHERE g.name = ? ORDER BY p.seat", (game,)
        )
    return _query(
        db,
        "SELECT name FROM player WHERE game_id = (SELECT MAX(id) FROM game) ORDER BY seat",
    )
