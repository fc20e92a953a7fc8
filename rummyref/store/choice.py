"""Which game a command means (SPEC §8), written once for any connection: SQLAlchemy's (the
store, :func:`rummyref.store.select.choose_game`) or the standard library's ``sqlite3``
(:func:`peek_sqlite`, for ``ref ruling``, which must start fast and only needs to know the
game being played; :func:`read_sqlite`, the connection that only reads). No SQLAlchemy here.

A query runner ``q(sql, **params)`` returns rows that can be iterated, with ``.first()`` and
``.all()``; the SQL is plain, with ``:name`` parameters, which both drivers accept.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rummyref.errors import NotFound, SeveralOpen, UnreadableInput
from rummyref.names import escaped
from rummyref.store.readonly import file_uri, read_only, unchanged

Query = Callable[..., Any]


def recordable(name: str) -> bool:
    """Whether a record could hold a game of this name. A name given as bytes that are not
    UTF-8 (``-g $'\\xff'``: Python holds each such byte as a lone surrogate) cannot be stored,
    nor even asked for (the database driver cannot encode it): it names no game, and a lookup
    says so (exit 5), as for any other name not in the record. Every lookup of a game by the
    name a command was given asks here first (:func:`choose`, ``Record.find_game``)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def choose(q: Query, name: str | None, names: Sequence[str] = ()) -> int:
    """The id of the game a command means. Named: that one. Unnamed: the game with an open
    session; if several are open, the one whose roster holds ``names``; if that is still
    ambiguous, a refusal listing them and ``--game``; with none open, the game played last."""
    if name is not None and not name.strip():  # as a new game's name is refused (exit 3)
        raise UnreadableInput("--game needs a name", hint="e.g. --game friday, or leave it out for the latest game")
    if name is not None:
        row = q("SELECT id FROM game WHERE name = :n", n=name).first() if recordable(name) else None
        if row is None:
            all_names = [r[0] for r in q("SELECT name FROM game ORDER BY id")]
            raise NotFound(
                f"no game named {name!r}",
                hint=f"games: {', '.join(map(escaped, all_names))}" if all_names else
                "ref new-session starts the first game",
            )
        return int(row[0])
    open_games = q("SELECT g.id, g.name FROM game g WHERE EXISTS (SELECT 1 FROM session s WHERE s.game_id = g.id "
                   "AND s.closed_at IS NULL) ORDER BY g.id").all()
    if len(open_games) == 1:
        return int(open_games[0][0])
    if len(open_games) > 1:
        wanted = {n.strip().casefold() for n in names if n and n.strip()}
        if wanted:
            fits = []
            for gid, _ in open_games:
                roster = {r[0].casefold() for r in q("SELECT name FROM player WHERE game_id = :g", g=gid)}
                if wanted <= roster:
                    fits.append(int(gid))
            if len(fits) == 1:
                return fits[0]
        listed = ", ".join(escaped(n) for _, n in open_games)  # names edited outside ref: never sent raw
        raise SeveralOpen(
            f"{len(open_games)} games have a session open ({listed}): which one?",
            hint=f"name it with --game, e.g. --game {open_games[-1][1]!r}",
            games=tuple(str(n) for _, n in open_games),
        )
    found = last_played(q)
    if found is None:
        raise NotFound("no game has been recorded yet", hint="ref new-session starts one")
    return found


#: the game played last (SPEC §8, with nothing open): the game whose latest hand or correction
#: (an amend, a void) was recorded last. Sessions opened and closed with no hand, rulings kept
#: as precedents, the header: none of them is play. A game with no hand yet comes after every
#: game with one, by when its latest session was opened, then by when it was created. One row
#: per game, each game's latest entry found by a walk down its own log (the (game_id, seq)
#: index) that stops at its latest hand or correction, and its latest session by the
#: (game_id, number) index: never the whole log. :func:`last_played` orders the rows.
LAST_PLAYED = (
    "SELECT g.id, e.created_at, e.id, s.opened_at, s.id, g.created_at FROM game g "
    "LEFT JOIN entry e ON e.id = (SELECT x.id FROM entry x WHERE x.game_id = g.id AND x.hand IS NOT NULL "
    "AND x.kind IN ('hand', 'amend', 'void') ORDER BY x.seq DESC LIMIT 1) "
    "LEFT JOIN session s ON s.id = (SELECT y.id FROM session y WHERE y.game_id = g.id "
    "ORDER BY y.number DESC LIMIT 1)"
)

_NEVER = datetime.min.replace(tzinfo=UTC)


def recorded_time(text: Any) -> datetime:
    """When a row was recorded, from the ISO time kept as text (the same on SQLite and
    PostgreSQL: ``2025-05-02T19:30:00+00:00``, with the offset of the clock that wrote it). The
    text alone does not order times of different offsets, so it is read as a time; one with no
    offset is UTC, as ref's clock reads ``$RUMMYREF_NOW``. A text that is no time (a record
    changed by hand: ``ref verify`` says so) is the earliest of all."""
    try:
        value = datetime.fromisoformat(str(text))
    except (TypeError, ValueError):
        return _NEVER
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def last_played(q: Query) -> int | None:
    """The game played last (:data:`LAST_PLAYED`); None when no game is recorded. The game
    whose latest hand or correction was recorded at the latest time; entries recorded at the
    same time (a clock pinned by ``$RUMMYREF_NOW``, or within one second) in the order they
    were logged (the entry ids). The ids alone would not do: ``ref import`` appends a game's
    rows with new ids after every row of the record, however old its hands. With no hand in any
    game: the game whose latest session was opened last (its time, then the session's id),
    then the game created last (its time, then its id)."""
    def when(row: Any) -> tuple:
        gid, played_at, played, opened_at, opened, created_at = row
        return (played is not None,
                recorded_time(played_at) if played is not None else _NEVER, played or 0,
                recorded_time(opened_at) if opened is not None else _NEVER, opened or 0,
                recorded_time(created_at), gid)

    rows = q(LAST_PLAYED).all()
    return int(max(rows, key=when)[0]) if rows else None


class _Rows:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self.cursor = cursor

    def __iter__(self):
        return iter(self.cursor)

    def first(self) -> Any:
        return self.cursor.fetchone()

    def all(self) -> list[Any]:
        return self.cursor.fetchall()


def peek_sqlite(path: Path, name: str | None) -> tuple[str, str, str, bool, dict, dict]:
    """The game a command means in the SQLite record at ``path``, read-only through ``sqlite3``:
    its name, its rule set's name and text, whether a session is open, and the kind's own data
    about the game and about its latest session (JSON objects; ``{}`` where there is none). A
    record this cannot read (an older schema, a locked or foreign file) raises
    ``sqlite3.Error``: the caller then asks the store, which knows how to migrate and what to say."""
    def peek(con: sqlite3.Connection) -> tuple[str, str, str, bool, dict, dict]:
        def q(sql: str, **params: Any) -> _Rows:
            return _Rows(con.execute(sql, params))

        gid = choose(q, name)
        row = q("SELECT name, ruleset, ruleset_text, options FROM game WHERE id = :g", g=gid).first()
        is_open = q("SELECT 1 FROM session WHERE game_id = :g AND closed_at IS NULL", g=gid).first() is not None
        last = q("SELECT options FROM session WHERE game_id = :g ORDER BY number DESC LIMIT 1", g=gid).first()
        return (str(row[0]), str(row[1]), str(row[2]), is_open, json_object(row[3]),
                json_object(last[0] if last else None))

    return read_sqlite(path, peek, timeout=5)


def read_sqlite(path: Path, read: Callable[[sqlite3.Connection], Any], timeout: float) -> Any:
    """What ``read`` finds in the SQLite file at ``path``, read through a connection that writes
    nothing to the file and leaves nothing beside it that was not there before.

    A connection opened read-only (``mode=ro``) cannot remove the ``-wal`` and ``-shm`` files
    that SQLite makes to read a WAL record, even when it is the last to close: they stayed
    beside the record. So, where :func:`_may_tidy` allows it, the file is opened for writing
    (``mode=rw``, never created) with ``PRAGMA query_only`` on, which refuses every write: the
    last connection to close then removes both, as SQLite always does. A record this user
    cannot write (its file, folder or disk read-only) is opened as
    :mod:`rummyref.store.readonly` says (``immutable`` when every committed byte is in the
    file, which makes nothing beside it; ``mode=ro`` when its ``-wal`` holds pages). Else (a
    ``-wal`` holding pages, a ``-journal``), or where SQLite cannot open it for writing, it is
    read ``mode=ro``. A busy or locked record raises at once (``sqlite3.OperationalError``), and so
    does a record another program wrote to while it was read without locks: waiting and what
    to say are the caller's (the store's)."""
    ro = read_only(path)
    if ro is not None:
        con = sqlite3.connect(ro.uri(path), uri=True, timeout=timeout)
    else:
        tidy = _opened_to_tidy(file_uri(path), timeout) if _may_tidy(path) else None
        con = tidy or sqlite3.connect(f"{file_uri(path)}?mode=ro", uri=True, timeout=timeout)
    try:
        found = read(con)
    finally:
        con.close()
    if ro is not None and not unchanged(path, ro):
        raise sqlite3.OperationalError("another program wrote to the record while it was read")
    return found


def _opened_to_tidy(uri: str, timeout: float) -> sqlite3.Connection | None:
    """The file at ``uri`` opened ``mode=rw`` with ``PRAGMA query_only`` on, its header read (so
    SQLite has opened what it needs beside it); None where SQLite cannot open it so (a disk or
    folder it cannot write after all). A busy or locked file raises, as anything else does."""
    con = None
    try:
        con = sqlite3.connect(f"{uri}?mode=rw", uri=True, timeout=timeout)
        con.execute("PRAGMA query_only = ON")
        con.execute("PRAGMA schema_version").fetchone()
        return con
    except BaseException as exc:
        if con is not None:
            con.close()
        if not isinstance(exc, sqlite3.OperationalError) or "locked" in str(exc) or "busy" in str(exc):
            raise
        return None


def _may_tidy(path: Path) -> bool:
    """Whether :func:`read_sqlite` may open the file for writing, to leave nothing beside it: this
    user can write the file and its folder, and SQLite would find nothing to write into the
    file when the connection closes (a ``-wal`` file of pages is moved into the file by the last
    connection to close it, and a ``-journal`` file is rolled back into it; with either there,
    the file is read ``mode=ro`` and what is beside it is left as it was)."""
    try:
        wal = path.with_name(path.name + "-wal").stat().st_size
    except FileNotFoundError:
        wal = 0
    except OSError:
        return False
    if wal or os.path.lexists(path.with_name(path.name + "-journal")):
        return False
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def json_object(text: Any) -> dict:
    """A JSON object kept as text by ref (a game's or a session's options); ``{}`` for none, or
    for anything else (what it holds is only read, never trusted, here)."""
    if not isinstance(text, str):
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
