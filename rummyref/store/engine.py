"""The engine: a SQLite file (the default) or a PostgreSQL server, the same guarantees on both,
and the migrations that run by themselves when ``ref`` meets an older database.

- SQLite: pragmas on every connection (foreign keys, WAL, a 5 s busy timeout); every write is one
  ``BEGIN IMMEDIATE`` transaction (one writer at a time), reads are deferred.
- PostgreSQL: every write transaction first takes the record's transaction-level advisory lock
  (:data:`WRITE_LOCK`, scoped to the database and schema), so writers queue exactly as
  ``BEGIN IMMEDIATE`` makes them queue on SQLite: one writer at a time, each seeing everything
  committed before it. Waiting is bounded by ``lock_timeout`` (5 s, like SQLite's busy timeout);
  past it the write is refused with exit 7 and nothing is written. Reads run in REPEATABLE READ,
  one snapshot for the whole read (totals and hands always agree). Migrations are writes, so
  two terminals starting at once on a fresh server upgrade it once.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.pool import NullPool

from rummyref.errors import NotFound, StorageError, WriteConflict
from rummyref.store.location import file_of, is_postgres, resolve, shown
from rummyref.store.migrations import LATEST, MIGRATIONS

BUSY_TIMEOUT_MS = 5000
WRITE_LOCK = 0x52554D  #: first key of the PostgreSQL advisory lock of writers ("RUM")
PG_EXTRA_HINT = "install the PostgreSQL extra: pip install 'rummyref[postgres]'"


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
    if is_postgres(url):
        _need_driver()
    try:
        # a file is opened afresh each time; a server connection is kept for the whole command
        pool = {"pool_size": 1, "max_overflow": 8} if is_postgres(url) else {"poolclass": NullPool}
        engine = create_engine(url, **pool)
    except Exception as exc:  # noqa: BLE001 - a URL SQLAlchemy cannot use (unknown dialect, bad syntax)
        raise StorageError(f"cannot use the database {shown(url)}: {exc}") from None
    if engine.dialect.name == "sqlite":
        _sqlite_listeners(engine)
    elif engine.dialect.name == "postgresql":
        _pg_listeners(engine)
    return engine


def _need_driver() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise StorageError("a PostgreSQL URL needs the psycopg driver, which is not installed",
                           hint=PG_EXTRA_HINT) from None


def _sqlite_listeners(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:
        # the driver must not open transactions by itself: we emit BEGIN ourselves
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys = ON")
        _wal(cur)
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # every write is one BEGIN IMMEDIATE transaction; reads may ask for a deferred one
        mode = conn.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        conn.exec_driver_sql(f"BEGIN {mode}")


def _wal(cur) -> None:
    """Switch the file to WAL (once per file; it persists). SQLite answers "database is locked"
    at once, without its busy handler, when another terminal is switching the same new file at
    the same moment: wait for that one (as the busy timeout would) and look again."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        mode = cur.execute("PRAGMA journal_mode").fetchone()[0]
        if mode.lower() in ("wal", "memory"):
            return
        try:
            cur.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _pg_listeners(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:
        with dbapi_conn.cursor() as cur:
            cur.execute(f"SET lock_timeout = {BUSY_TIMEOUT_MS}")
        dbapi_conn.commit()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # the same execution option as on SQLite says whether this transaction writes
        if conn.get_execution_options().get("sqlite_begin", "IMMEDIATE") == "IMMEDIATE":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK}, hashtext(current_schema()))")
        else:
            conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")


def schema_version(conn: Connection) -> int:
    if conn.dialect.name == "sqlite":
        has_meta = conn.exec_driver_sql(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
        ).first()
    else:
        # a query on the catalog itself (this statement's snapshot), not to_regclass(): a name
        # lookup may answer from this connection's cache, which has not yet heard of a table
        # that another terminal created while this one waited for the write lock
        has_meta = conn.exec_driver_sql(
            "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relname = 'meta')"
        ).scalar()
    if not has_meta:
        return 0
    row = conn.exec_driver_sql("SELECT value FROM meta WHERE key = 'schema_version'").first()
    if row is None:
        return 0
    try:
        return int(row[0])
    except ValueError:
        raise StorageError(f"the record's schema version {row[0]!r} is not a number: the database was "
                           "changed outside ref", hint="restore it from a backup") from None


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
            conn.execute(
                text("INSERT INTO meta (key, value) VALUES ('schema_version', :v) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
                {"v": str(version)},
            )
    return version


def record_exists(db: str | None) -> bool:
    """Is there a record in this (server) database? (A file's existence is checked without the store.)"""
    engine = make_engine(db, create=False)
    try:
        with storage_errors():
            return not is_empty(engine)
    finally:
        engine.dispose()


def is_empty(engine: Engine) -> bool:
    """No record at all in this database (a server database nobody has used yet)."""
    with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
        version = schema_version(conn)
        conn.rollback()
    return version == 0


@contextmanager
def opened(db: str | None, create: bool = False) -> Iterator[Engine]:
    """An engine on an up-to-date database; storage errors become :class:`StorageError`.
    On a server, ``create=False`` refuses a database that holds no record yet, as a missing
    file is refused."""
    engine = make_engine(db, create)
    try:
        with storage_errors():
            if not create and engine.dialect.name != "sqlite" and is_empty(engine):
                raise NotFound(f"there is no record at {shown(str(engine.url))}",
                               hint="ref new-session starts one (or check --db / $RUMMYREF_DB)")
            migrate(engine)
        yield engine
    finally:
        engine.dispose()


BUSY_STATES = {"55P03", "40001", "40P01"}  #: lock_not_available, serialization_failure, deadlock_detected


@contextmanager
def storage_errors() -> Iterator[None]:
    try:
        yield
    except DBAPIError as exc:
        orig = exc.orig
        state = getattr(orig, "sqlstate", None)
        text_ = str(orig).strip()
        if state in BUSY_STATES or (isinstance(exc, OperationalError) and ("locked" in text_ or "busy" in text_)):
            raise WriteConflict(
                "another terminal is writing to the record; nothing was written",
                hint="try again in a moment",
            ) from None
        if (isinstance(orig, sqlite3.IntegrityError) and "UNIQUE" in text_) or state == "23505":
            raise WriteConflict(
                "another terminal recorded at the same moment; nothing was written", hint="try again"
            ) from None
        if isinstance(exc, OperationalError):
            raise StorageError(f"the database cannot be used: {text_}") from None
        raise StorageError(f"the database refused the operation: {text_}") from None
