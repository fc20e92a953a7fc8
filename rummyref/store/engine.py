"""The engine: one SQLite file, pragmas on every connection, ``BEGIN IMMEDIATE`` writes,
and the migrations that run by themselves when ``ref`` meets an older database."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.pool import NullPool

from rummyref.core.errors import NotFound, StorageError, WriteConflict
from rummyref.store.location import file_of, resolve
from rummyref.store.migrations import LATEST, MIGRATIONS

BUSY_TIMEOUT_MS = 5000


def make_engine(db: str | None, create: bool = True) -> Engine:
    """The engine of the database; with ``create=False`` a missing file is not created
    (commands that only read or correct a record never leave an empty database behind)."""
    url = resolve(db)
    path = file_of(url)
    if path is not None and not create and not path.exists():
        raise NotFound(f"there is no record at {path}", hint="ref new-session starts one (or check --db / $RUMMYREF_DB)")
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the database folder {path.parent}: {exc}") from None
    engine = create_engine(url, poolclass=NullPool)
    if engine.dialect.name == "sqlite":
        _sqlite_listeners(engine)
    return engine


def _sqlite_listeners(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:
        # the driver must not open transactions by itself: we emit BEGIN ourselves
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys = ON")
        mode = cur.execute("PRAGMA journal_mode").fetchone()[0]
        if mode.lower() not in ("wal", "memory"):
            cur.execute("PRAGMA journal_mode = WAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # every write is one BEGIN IMMEDIATE transaction; reads may ask for a deferred one
        mode = conn.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        conn.exec_driver_sql(f"BEGIN {mode}")


def schema_version(conn: Connection) -> int:
    has_meta = conn.exec_driver_sql(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).first()
    if not has_meta:
        return 0
    row = conn.exec_driver_sql("SELECT value FROM meta WHERE key = 'schema_version'").first()
    return int(row[0]) if row else 0


def migrate(engine: Engine, upto: int = LATEST) -> int:
    """Bring the database to ``upto`` (default: the latest schema), one step per transaction."""
    reader = engine.execution_options(sqlite_begin="DEFERRED")
    with reader.connect() as conn:
        version = schema_version(conn)
        conn.rollback()
    if version > LATEST:
        raise StorageError(
            f"the database has schema version {version}, newer than this ref understands ({LATEST})",
            hint="upgrade rummyref to open it",
        )
    while version < upto:
        with engine.begin() as conn:
            version = schema_version(conn)  # another terminal may have migrated meanwhile
            if version >= upto:
                break
            MIGRATIONS[version](conn)
            version += 1
            conn.exec_driver_sql(
                "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(version),),
            )
    return version


@contextmanager
def opened(db: str | None, create: bool = False) -> Iterator[Engine]:
    """An engine on an up-to-date database; storage errors become :class:`StorageError`."""
    engine = make_engine(db, create)
    try:
        with storage_errors():
            migrate(engine)
        yield engine
    finally:
        engine.dispose()


@contextmanager
def storage_errors() -> Iterator[None]:
    try:
        yield
    except OperationalError as exc:
        text = str(exc.orig)
        if "locked" in text or "busy" in text:
            raise WriteConflict(
                "another terminal is writing to the record; nothing was written",
                hint="try again in a moment",
            ) from None
        raise StorageError(f"the database cannot be used: {text}") from None
    except DBAPIError as exc:
        orig = exc.orig
        if isinstance(orig, sqlite3.IntegrityError) and "UNIQUE" in str(orig):
            raise WriteConflict(
                "another terminal recorded at the same moment; nothing was written", hint="try again"
            ) from None
        raise StorageError(f"the database refused the operation: {orig}") from None

