"""Names for shell completion: games and players, read with the standard ``sqlite3`` module
only (no SQLAlchemy: a completion must answer in a few milliseconds), read-only, and never
raising: a missing or unreadable database simply has no names. On a PostgreSQL server, psycopg
alone does the same."""

from __future__ import annotations

from rummyref.store.choice import read_sqlite
from rummyref.store.location import file_of, is_postgres, resolve


def _query(db: str | None, sql: str, params: tuple = ()) -> list[str]:
    try:
        url = resolve(db)
        if is_postgres(url):
            return _pg_query(url, sql, params)
        path = file_of(url)
        if path is None or not path.is_file():
            return []
        return read_sqlite(path, lambda conn: [str(r[0]) for r in conn.execute(sql, params)], timeout=0.2)
    except Exception:  # noqa: BLE001 - completion never fails, it only has nothing to offer
        return []


def _pg_query(url: str, sql: str, params: tuple) -> list[str]:
    """The same on a PostgreSQL server: psycopg alone, a short connect timeout, a read-only transaction."""
    import psycopg

    conninfo = "postgresql://" + url.split("://", 1)[1]
    with psycopg.connect(conninfo, connect_timeout=2) as conn:
        conn.read_only = True
        return [str(r[0]) for r in conn.execute(sql.replace("?", "%s"), params)]


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
