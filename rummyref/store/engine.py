"""The engine: a SQLite file (the default) or a PostgreSQL server, the same guarantees on both,
and the migrations that run by themselves when ``ref`` meets an older database.

- SQLite: pragmas on every connection (foreign keys, WAL, a 5 s busy timeout; no WAL switch on a
  record of a newer schema, which is refused untouched); every write is one
  ``BEGIN IMMEDIATE`` transaction (one writer at a time), reads are deferred.
- PostgreSQL: every write transaction first takes the record's transaction-level advisory lock
  (:data:`WRITE_LOCK`, scoped to the database and schema), so writers queue exactly as
  ``BEGIN IMMEDIATE`` makes them queue on SQLite: one writer at a time, each seeing everything
  committed before it. Waiting is bounded by ``lock_timeout`` (5 s, like SQLite's busy timeout);
  past it the write is refused with exit 7 and nothing is written. Reads run in REPEATABLE READ,
  one snapshot for the whole read (totals and hands always agree). Migrations are writes, so
  two terminals starting at once on a fresh server upgrade it once.

Which files are a record (:func:`probe`, read without writing a byte: no WAL switch, no
-wal/-shm left; one look at ``sqlite_master`` and the header's marks): a SQLite file whose
``meta`` table holds a schema version and which has ref's tables with ref's columns (or ref's
``application_id``). Any command refuses (exit 6) a file that is not one, and leaves it as
it was (no WAL switch: :func:`_ours` again on each connection); a record whose tables do not
fit its schema version (changed by hand), or one of whose tables or columns was renamed or
dropped, is refused with exit 8, naming it, before any migration, read or write. Only a command that writes (``create=True``:
new-session, import, ``ref night``) starts a record, and only in a new file, a 0-byte one
or a SQLite database with no schema object at all (no table, view, index or trigger). It builds the record under a temporary name in the same folder and
puts it in place (a hard link, which never replaces anything) only once its first write has
committed: a refused first write leaves no file behind. Terminals creating a record in the
same folder at once take turns (a lock on the folder); the later one then finds the record
made and writes to it as to any record.

On PostgreSQL the schema on the search_path is judged the same way (:func:`pg_found`, one
read of the catalog): ref's tables and ``meta``, or nothing of its own at all; any other
schema is refused with exit 6 by every command before a row or a table is written (ref's
tables with its function ``entry_append_only()`` but no schema version in ``meta``: ref's
record changed outside ref, exit 8). Every command then checks the types of ref's columns
(:func:`_must_keep_its_columns`, exit 8). A connection that cannot be made is said with the
record's URL and libpq's reason on one line (:func:`_unreachable`).
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import stat
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.pool import NullPool

from rummyref.errors import IntegrityError, NotFound, RummyrefError, StorageError, WriteConflict
from rummyref.store.location import escaped, file_of, is_postgres, redact, resolve, short, shown
from rummyref.store.migrations import (
    ALL_TABLES,
    APPLICATION_ID,
    COLUMNS,
    LATER_ENTRIES,
    LATEST,
    MIGRATIONS,
    V1_TABLES,
    altered,
    check_schema,
    columns_changed,
    mark,
    schema_problem,
    tables_gone,
    unmake,
)
from rummyref.store.readonly import ReadOnly, cannot_read, read_only, unchanged, unwritable

#: SQLAlchemy logs (to stderr, traceback and all, where nothing else handles it) a connection it
#: failed to close: a Ctrl-C landing there is reported as every Ctrl-C is, never as a traceback
logging.getLogger("sqlalchemy").addHandler(logging.NullHandler())

BUSY_TIMEOUT_MS = 5000
WRITE_LOCK = 0x52554D  #: first key of the PostgreSQL advisory lock of writers ("RUM")
PG_EXTRA_HINT = "install the PostgreSQL extra: pip install 'rummyref[postgres]'"
NO_RECORD_HINT = "ref new-session starts one (or check --db / $RUMMYREF_DB)"
SQLITE_HEADER = b"SQLite format 3\x00"


def make_engine(db: str | None, create: bool = True) -> Engine:
    """The engine of the database; with ``create=False`` a missing file is not created
    (commands that only read or correct a record never leave an empty database behind).
    A SQLite record this user cannot write is opened read-only (:mod:`rummyref.store.readonly`):
    nothing is written to it or beside it, and a write is refused (:func:`must_be_writable`)."""
    url = resolve(db)
    path = file_of(url)
    if path is not None and not create and probe(path).kind is FileKind.MISSING:
        raise NotFound(f"there is no record at {short(str(path))}", hint=NO_RECORD_HINT)
    if path is not None:
        _make_folders(path.parent)
    if is_postgres(url):
        _need_driver()
    ro = _read_only(path)
    if ro is not None and path is not None:
        _must_be_readable(path)
    try:
        # a file is opened afresh each time; a server connection is kept for the whole command
        pool: dict = {"pool_size": 1, "max_overflow": 8} if is_postgres(url) else {"poolclass": NullPool}
        if ro is not None and path is not None:
            uri = ro.uri(path)
            pool["creator"] = lambda: sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
        engine = create_engine(url, **pool)
    except Exception as exc:  # noqa: BLE001 - a URL SQLAlchemy cannot use (unknown dialect, bad syntax)
        hint = ("check the URL's host and port: the port must be a number, and several hosts "
                "are written ?host=h1:5432&host=h2:5432") if isinstance(exc, ValueError) else None
        raise StorageError(f"cannot use the database {shown(url)}: {redact(str(exc), url)}", hint=hint) from None
    if engine.dialect.name == "sqlite":
        _sqlite_listeners(engine, ro is not None)
        if ro is not None:
            _READ_ONLY[engine] = ro
    elif engine.dialect.name == "postgresql":
        _pg_listeners(engine)
    return engine


def _read_only(path: Path | None) -> ReadOnly | None:
    """How to open the SQLite file at ``path`` if this user cannot write it (None: it can, or
    there is no file yet, or it is not one: the commands that use it say so)."""
    try:
        return read_only(path) if path is not None and path.is_file() else None
    except OSError:
        return None


def _must_be_readable(path: Path) -> None:
    """Refuse (exit 6) a record SQLite cannot read here (:func:`~rummyref.store.readonly.cannot_read`),
    saying what to copy where: it is not damaged, and is left as it was."""
    unreadable = cannot_read(path)
    if unreadable:
        raise StorageError(f"the database {short(str(path))} cannot be read here: {unreadable}; it was left as "
                           "it was", hint=f"copy {path.name} and {path.name}-wal together into a folder you can "
                                       "write and open the copy there, or make this folder writable")


#: the engines of the SQLite records this user cannot write, and how each is opened
_READ_ONLY: weakref.WeakKeyDictionary[Engine, ReadOnly] = weakref.WeakKeyDictionary()


def must_be_writable(engine: Engine, what: str = "") -> None:
    """Refuse (exit 6) a write on a SQLite record this user cannot write, before it begins and
    saying why; ``what``: why the command writes, where it is not plainly a write."""
    ro = _READ_ONLY.get(engine)
    if ro is None:
        return
    where = short(str(engine.url.database))
    raise StorageError(f"the record {where} cannot be written: {ro.why}{what}; nothing was changed",
                       hint=READ_ONLY_HINT)


READ_ONLY_HINT = ("commands that only read (standings, history, verify, backup...) work on it as it is; to "
                  "write, make the file and its folder writable, or copy it with ref backup and write to the copy")


def _need_driver() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise StorageError("a PostgreSQL URL needs the psycopg driver, which is not installed",
                           hint=PG_EXTRA_HINT) from None


def _sqlite_listeners(engine: Engine, read_only: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:
        # the driver must not open transactions by itself: we emit BEGIN ourselves
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys = ON")
        if read_only:  # opened immutable or mode=ro: already WAL, and no write may begin on it
            cur.execute("PRAGMA query_only = ON")
        elif not _newer(cur) and _ours(cur):  # a newer ref's record is refused by migrate(), another
            _wal(cur)  # program's file by the command: not a byte written to either, journal mode included
        cur.close()
        dbapi_conn.row_factory = _checked  # every row read on this connection passes here

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # every write is one BEGIN IMMEDIATE transaction; reads may ask for a deferred one
        mode = conn.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        conn.exec_driver_sql(f"BEGIN {mode}")


class StrayValue(IntegrityError):
    """A value read from the record is of a kind ref never stores in its column (a BLOB, or a
    text or a fraction where ref writes a whole number): it was put there outside ref.
    :func:`storage_errors` names its table, row and column (exit 8)."""


#: every column ref declares INTEGER, in every table (a whole number or NULL, nothing else);
#: a test holds it to the tables of a new record
WHOLE_NUMBERS = frozenset({
    "id", "game_id", "player_id", "session_id", "entry_id", "target", "wildcards", "seat", "opening", "number",
    "seq", "hand", "hand_in_session", "target_seq", "points", "count", "won", "current", "hands", "best", "worst",
    "nights_won", "entries",
})
#: the last statement read: its columns (``cursor.description``), the kinds of row found
#: right in it (each row's value types, as a tuple), and which of its columns are
#: :data:`WHOLE_NUMBERS`; replaced whole for each new statement (threads may share it)
_LAST_READ: list[tuple[object, set[tuple[type, ...]], tuple[int, ...]]] = [((), set(), ())]
_WHOLE = (int, type(None))


def _checked(cursor, row: tuple) -> tuple:
    """The row factory of every SQLite connection of the record: the one place every row read
    (by the ORM, by plain SQL, by ``ref stats``' raw cursor) passes, checked once, here. A
    BLOB read as a text or a number would be shown as ``b'Ben'``, compared unequal to every
    name, or break the code that reads it (once "internal error"); so would a text where a
    whole number belongs (``points`` holding ``'abc'``). A column is known by its name in the
    statement (``r.points``, ``t.hands``...): the same names in every table, each a whole
    number wherever it is; an expression (``COUNT(*)``, ``json_extract(...)``) is not looked at.

    Fast: a statement's rows come in a few kinds (a NULL here or there), each judged once; a
    row costs the tuple of its value types and one look-up (~0.15 us more than the BLOB check
    alone, on a 40,000-hand log ~25 ms of ``ref stats``)."""
    description = cursor.description
    last = _LAST_READ[0]
    if last[0] is not description:
        last = (description, set(), tuple(i for i, c in enumerate(description or ()) if c[0] in WHOLE_NUMBERS))
        _LAST_READ[0] = last
    kinds = tuple(map(type, row))
    if kinds in last[1]:
        return row
    if bytes in kinds:
        raise StrayValue("the record was changed outside ref: a value in it is stored as raw bytes (a BLOB), "
                         "which ref never writes; nothing was written",
                         hint="run ref verify; restore the database from a backup")
    for i in last[2]:
        if kinds[i] not in _WHOLE:
            raise StrayValue(f"the record was changed outside ref: its column {description[i][0]} holds "
                             f"{short(repr(row[i]), 30)}, where ref writes a whole number; nothing was written",
                             hint="run ref verify; restore the database from a backup")
    last[1].add(kinds)
    return row


def _newer(cur) -> bool:
    """Is this file a record of a schema newer than this ref's (its header's ``user_version``
    or its ``meta``)? Read only: :func:`migrate` refuses it, and a refused file is left byte
    for byte as it was, journal mode included."""
    try:
        if (cur.execute("PRAGMA user_version").fetchone()[0] or 0) > LATEST:
            return True
        if cur.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone() is None:
            return False
        row = cur.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.Error:
        return False  # not a shape ref knows: the checks after this refuse it
    return row is not None and str(row[0]).isdigit() and int(row[0]) > LATEST


def _ours(cur) -> bool:
    """May this file be switched to WAL: ref's mark in its header, no schema object at all (a
    record being made), or (a record made before the mark) ref's tables with ref's columns?
    The same judgement as :func:`probe`'s, which every command makes first; here again, read
    only, because the switch writes the file's header and another program's file is left as
    it was (a table named ``game`` proves nothing)."""
    try:
        app_id = cur.execute("PRAGMA application_id").fetchone()[0]
        if app_id:
            return bool(app_id == APPLICATION_ID)
        tables = {r[0] for r in cur.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return (cur.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is None
                    and not cur.execute("PRAGMA user_version").fetchone()[0])
        columns = {t: [r[1] for r in cur.execute(f'PRAGMA table_info("{t}")')] for t in V1_TABLES & tables}
    except sqlite3.Error:
        return False
    return V1_TABLES <= tables and not columns_changed(columns)


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
    except ValueError:  # exit 8 as on SQLite: ref's own record, changed outside ref
        raise IntegrityError(f"the record {named(conn.engine)}: its schema version {escaped(repr(row[0]))} is not "
                             "a number: the record was changed outside ref; nothing was written",
                             hint="restore the record from a backup; it was left as it was") from None


def migrate(engine: Engine, upto: int = LATEST) -> int:
    """Bring the database to ``upto`` (default: the latest schema), one step per transaction."""
    reader = engine.execution_options(sqlite_begin="DEFERRED")
    with reader.connect() as conn:
        if conn.dialect.name == "postgresql":
            must_be_ours(conn)  # another program's schema: refused before its meta is even read
        version = schema_version(conn)
        conn.rollback()
    if version > LATEST:
        raise StorageError(
            f"the record {named(engine)} has schema version {version}, newer than this ref understands "
            f"({LATEST}); it was left as it was",
            hint="upgrade rummyref to open it (pip install --upgrade rummyref)",
        )
    if version < upto:  # before the first write: does the database hold what its version says?
        with reader.connect() as conn:
            try:
                check_schema(conn, version)
            except IntegrityError:
                now = schema_version(conn)  # another terminal may have migrated since the version was read:
                if now == version:  # its step, not a change made outside ref (four terminals' first start)
                    raise
                version = now
            conn.rollback()
    if version < upto:
        must_be_writable(engine, f" (it was made by an older ref, at schema version {version}, and this ref "
                                 "upgrades it before anything else, which writes to it)")
    existing = version >= 1  # a record made by an older ref: its steps are news (a new one's are not)
    while version < upto:
        version, stepped = _step(engine, upto, existing)
        if not stepped:
            break
    return version


#: the schema steps this process committed, each the version it brought the record to: what
#: stands after a Ctrl-C (``ref upgrade``'s, or any command's first open of an older record)
UPGRADED: list[int] = []


def _step(engine: Engine, upto: int, note: bool) -> tuple[int, bool]:
    """One schema step in its own transaction, unless another terminal took the record to
    ``upto`` meanwhile: (the version now, whether this process stepped). Once committed the step
    is noted in :data:`UPGRADED` (``note``: a record that existed) before a Ctrl-C that came
    during the COMMIT is let through."""
    from rummyref.store.record import _CtrlCHeld

    held = _CtrlCHeld()
    try:
        with engine.begin() as conn:
            version = schema_version(conn)  # another terminal may have migrated meanwhile
            if version >= upto:
                return version, False
            if version == 0 and conn.dialect.name == "postgresql":
                must_be_ours(conn)  # still empty, under the write lock: no DDL beside another's tables
            check_schema(conn, version)  # each step runs only on the schema it was written for
            MIGRATIONS[version](conn)
            version += 1
            conn.execute(
                text("INSERT INTO meta (key, value) VALUES ('schema_version', :v) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
                {"v": str(version)},
            )
            mark(conn, version)
            held.hold()  # from here a Ctrl-C waits for the COMMIT
        if note:
            UPGRADED.append(version)
    except BaseException:
        held.release(deliver=False)  # rolled back: nothing of this step was written
        raise
    held.release(deliver=True)
    return version, True


def record_exists(db: str | None) -> bool:
    """Is there a record in this (server) database? (A file's existence is checked without the store.)"""
    engine = make_engine(db, create=False)
    try:
        with storage_errors(engine):
            return not is_empty(engine)
    finally:
        engine.dispose()


def is_empty(engine: Engine) -> bool:
    """No record at all in this database (a server database nobody has used yet). On
    PostgreSQL a schema holding another program's objects is refused here (exit 6)."""
    with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
        if conn.dialect.name == "postgresql":
            empty = must_be_ours(conn).kind is FileKind.EMPTY
        else:
            empty = schema_version(conn) == 0
        conn.rollback()
    return empty


#: one look at the catalog of the schema on the search_path: its tables, views, sequences
#: (relations other than indexes), functions and types, and the columns of its ``meta``;
#: objects an extension installed there (pgcrypto in ``public``, say) are not the schema's own
_PG_NOT_EXTENSION = ("NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.classid = '{cat}'::regclass "
                     "AND d.objid = {obj} AND d.deptype = 'e')")
PG_LOOK = f"""
SELECT n.nspname,
  ARRAY(SELECT c.relkind::text || ' ' || c.relname::text FROM pg_catalog.pg_class c
        WHERE c.relnamespace = n.oid AND c.relkind NOT IN ('i', 'I', 't')
          AND {_PG_NOT_EXTENSION.format(cat='pg_catalog.pg_class', obj='c.oid')} ORDER BY c.relname),
  ARRAY(SELECT p.proname::text FROM pg_catalog.pg_proc p
        WHERE p.pronamespace = n.oid AND {_PG_NOT_EXTENSION.format(cat='pg_catalog.pg_proc', obj='p.oid')}
        ORDER BY p.proname),
  ARRAY(SELECT t.typname::text FROM pg_catalog.pg_type t
        WHERE t.typnamespace = n.oid AND t.typrelid = 0 AND t.typcategory <> 'A'
          AND {_PG_NOT_EXTENSION.format(cat='pg_catalog.pg_type', obj='t.oid')} ORDER BY t.typname),
  ARRAY(SELECT a.attname::text FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = n.oid AND c.relname = 'meta' AND c.relkind IN ('r', 'p')
          AND a.attnum > 0 AND NOT a.attisdropped)
FROM pg_catalog.pg_namespace n WHERE n.nspname = current_schema()"""

#: ref's trigger function: with ref's tables, a schema is ref's record (its mark, as a SQLite file's header)
PG_MARK = "entry_append_only"

_PG_KINDS = {"r": "table", "p": "table", "v": "view", "m": "materialized view", "S": "sequence",
             "f": "foreign table", "c": "type"}


def pg_found(conn: Connection) -> Found:
    """What the schema on the search_path is, the way :func:`_looked_at` tells a SQLite file:
    a record (ref's tables of the first schema and a ``meta`` of ref's shape stating a
    version), empty (no table, view, sequence, function or type of its own), or another
    program's. Reads only."""
    row = conn.exec_driver_sql(PG_LOOK).first()
    if row is None:
        raise no_schema(conn.engine)
    schema, relations, functions, types, meta_columns = row
    rels = [tuple(r.split(" ", 1)) for r in relations]
    tables = {name for kind, name in rels if kind in ("r", "p")}
    if V1_TABLES <= tables and {"key", "value"} <= set(meta_columns) and schema_version(conn) >= 1:
        return Found(FileKind.RECORD)
    if V1_TABLES - {"meta"} <= tables and PG_MARK in functions:
        # ref's tables and its append-only function (made from version 2 on), as a SQLite file with
        # ref's mark in its header: ref's own record, whose meta was changed outside ref (exit 8)
        said = "its meta table holds no schema version" if meta_columns else "its meta table is gone"
        raise IntegrityError(f"the database {named(conn.engine)} holds ref's tables and its function "
                             f"{PG_MARK}(), but {said}: the record was changed outside ref; nothing was written",
                             hint="restore the record from a backup; it was left as it was")
    if not rels and not functions and not types:
        return Found(FileKind.EMPTY, f"an empty schema {schema}")
    things = sorted(f"{_PG_KINDS.get(kind, 'relation')} {name}" for kind, name in rels
                    if kind != "S" or not tables)  # a table's sequences say nothing more
    things += [f"function {name}" for name in functions] + [f"type {name}" for name in types]
    if tables and all(t.startswith("table ") for t in things):
        names = sorted(tables)
        return Found(FileKind.FOREIGN, f"a PostgreSQL schema {schema} of other tables ("
                     + ", ".join(names[:3]) + (", ..." if len(names) > 3 else "") + ")")
    return Found(FileKind.FOREIGN, f"a PostgreSQL schema {schema} of another program ("
                 + ", ".join(things[:3]) + (", ..." if len(things) > 3 else "") + ")")


def must_be_ours(conn: Connection) -> Found:
    """:func:`pg_found`, refusing (exit 6) a schema that is neither a record nor empty:
    ref never writes a row or creates a table beside another program's objects."""
    found = pg_found(conn)
    if found.kind is FileKind.FOREIGN:
        raise StorageError(f"the database {shown(str(conn.engine.url))} is {found.what}, not a ref record; "
                           "it was left as it was",
                           hint="check --db / $RUMMYREF_DB; ref keeps its record in an empty database "
                                "(or a schema of its own, named on the search_path)")
    return found


@contextmanager
def opened(db: str | None, create: bool = False, columns: bool = True) -> Iterator[Engine]:
    """An engine on an up-to-date record; storage errors become :class:`StorageError`.

    ``create=False``: there must be a record (a missing file or an empty server database is
    exit 5, a file that is not a record exit 6). ``create=True`` (a command that writes) may
    start one in a new or 0-byte file (see the module's docstring). No message leaves here
    with a password in it. On PostgreSQL the columns of ref's tables are checked first
    (:func:`_must_keep_its_columns`; ``columns=False``: ``ref verify``, which reports them)."""
    url = resolve(db)
    path = file_of(url)
    try:
        if path is not None:
            found = probe(path)
            if create and found.kind in (FileKind.MISSING, FileKind.EMPTY):
                with _creating(db, path) as engine:
                    yield engine
                return
            _must_be_record(path, found)
        with _existing(db, create, columns) as engine:
            yield engine
    except RummyrefError as exc:
        if is_postgres(url):
            exc.message, exc.hint = redact(exc.message, url), exc.hint and redact(exc.hint, url)
            exc.args = (exc.message,)
        raise


@contextmanager
def _existing(db: str | None, create: bool, columns: bool = True) -> Iterator[Engine]:
    engine = make_engine(db, create)
    try:
        with storage_errors(engine):
            fresh = engine.dialect.name != "sqlite" and is_empty(engine)
            if fresh and not create:
                raise NotFound(f"there is no record at {shown(str(engine.url))}", hint=NO_RECORD_HINT)
            migrate(engine)
            if columns and engine.dialect.name == "postgresql":
                _must_keep_its_columns(engine)
        try:
            yield engine
            ro = _READ_ONLY.get(engine)
            if ro is not None and engine.url.database and not unchanged(Path(engine.url.database), ro):
                # read without SQLite's locks (immutable): what was read may be torn, and is not shown
                raise WriteConflict("another program wrote to the record while ref read it; nothing was written",
                                    hint="run the command again")
        except RummyrefError:
            if fresh:  # a refused first write on an empty server database: not even a schema
                try:
                    with engine.begin() as conn:
                        unmake(conn)
                except Exception:  # noqa: BLE001 - the refusal is the answer; a schema left is harmless
                    pass
            raise
    finally:
        engine.dispose()


def _must_keep_its_columns(engine: Engine) -> None:
    """Refuse (exit 8), before anything is read or written, a PostgreSQL record one of whose
    columns is not of the type ref created (its owner retyped it: ``ALTER COLUMN points TYPE
    text``) or is gone: SQLite's row check (:func:`_checked`) finds such a value as it is read,
    on PostgreSQL the column's type says it for every row at once (one read of the catalog)."""
    found = stray_value(engine)
    if found is not None:
        raise found


# -- is this file a record? -------------------------------------------------------------------


class FileKind(Enum):
    MISSING = "missing"
    EMPTY = "empty"  #: 0 bytes, or a SQLite database with no schema object at all
    RECORD = "record"  #: a schema version in ``meta`` and ref's tables (see :func:`_looked_at`)
    FOREIGN = "foreign"  #: anything else: never ref's to change


@dataclass(frozen=True)
class Found:
    kind: FileKind
    what: str = ""  #: for EMPTY and FOREIGN: what the file is, for the refusal
    problem: str | None = None  #: for RECORD: why its schema does not fit its version (exit 8)


def probe(path: Path) -> Found:
    """What the file at ``path`` is, read without writing anything to it or beside it.

    Without a -wal file every committed byte is in the file itself, so it is opened
    ``immutable`` (no lock, no -shm, no journal); with one (a terminal is using the record,
    or one was killed mid-write) it is opened read-only, through SQLite's locks."""
    try:
        st = path.stat()
        try:  # one look: a -wal file may vanish at any moment (the last writer checkpoints it)
            live = path.with_name(path.name + "-wal").stat().st_size > 0
        except FileNotFoundError:
            live = False
        if not stat.S_ISREG(st.st_mode):
            return Found(FileKind.FOREIGN, "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file")
        if st.st_size == 0 and not live:
            try:  # a file the system makes (/proc/...) says 0 bytes, and is not empty
                with open(path, "rb") as fh:
                    empty = not fh.read(1)
            except PermissionError:
                empty = True
            if empty:
                return Found(FileKind.EMPTY, "an empty file (0 bytes)")
            return Found(FileKind.FOREIGN, "a file the system makes (its size reads 0, but it is not empty)")
        if not live:
            with open(path, "rb") as fh:
                if fh.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                    return Found(FileKind.FOREIGN, "not a SQLite database")
    except FileNotFoundError:
        return Found(FileKind.MISSING)
    except OSError as exc:
        raise StorageError(f"cannot use the database {short(str(path))}: {exc.strerror or exc}") from None
    # Immutable first when no -wal is seen (no lock, nothing written beside the file); but a
    # terminal may start writing between the look and the read, and an immutable read of a file
    # being written can see a torn page: read it once more through SQLite's locks before
    # calling it foreign.
    if live:
        _must_be_readable(path)  # not a damaged file: one SQLite cannot read in this folder
    modes = ("mode=ro",) if live else ("immutable=1", "mode=ro")
    beside = [path.with_name(path.name + end) for end in ("-wal", "-shm")]
    there = [p.exists() for p in beside]
    for i, mode in enumerate(modes):
        try:
            con = sqlite3.connect(f"{path.as_uri()}?{mode}", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
            try:
                found = _looked_at(con)
            finally:
                con.close()
            break
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise WriteConflict("another terminal is writing to the record; nothing was written",
                                    hint="try again in a moment") from None
            if i + 1 < len(modes):
                continue
            _tidy(beside, there)
            return _unreadable(path, exc)
        except sqlite3.DatabaseError as exc:
            if i + 1 < len(modes):
                continue
            _tidy(beside, there)
            return _unreadable(path, exc)
    return found


def _tidy(beside: list[Path], there: list[bool]) -> None:
    """Remove the ``-wal``/``-shm`` files that SQLite's read of a file it could not read made
    (empty, they were not there before): a refused file is left as it was, side files too."""
    wal, shm = beside
    try:
        if not there[0] and wal.exists() and wal.stat().st_size == 0:
            wal.unlink()
            if not there[1]:
                shm.unlink(missing_ok=True)
    except OSError:
        pass


def _unreadable(path: Path, exc: Exception) -> Found:
    """A SQLite file SQLite cannot read: another program's, or (its header carries ref's
    ``application_id``) a record that was damaged: exit 8, restore it from a backup."""
    try:
        with open(path, "rb") as fh:
            header = fh.read(100)
    except OSError:
        header = b""
    if len(header) == 100 and int.from_bytes(header[68:72], "big") == APPLICATION_ID:
        raise IntegrityError(f"{short(str(path))} is a ref record, but the file is damaged (SQLite: {exc}); "
                             "it was left as it was", hint=DAMAGED_HINT)
    return Found(FileKind.FOREIGN, f"not a database ref can read ({exc})")


def _looked_at(con: sqlite3.Connection) -> Found:
    """What an open SQLite database is: a record, empty, or another program's.

    A record: a schema version in ``meta`` and ref's tables of the first schema (or ref's
    ``application_id``). ``meta`` alone proves nothing: another program may keep one too.
    Empty: no schema object at all (no table, view, index or trigger) and no mark in the
    header. A record whose tables do not fit its schema version (a version changed by hand)
    is a record with a ``problem``: refused with exit 8 before anything runs."""
    objects = con.execute("SELECT type, name FROM sqlite_master").fetchall()
    user_version, app_id = (con.execute(f"PRAGMA {p}").fetchone()[0] for p in ("user_version", "application_id"))
    tables = {name for kind, name in objects if kind == "table"}
    row = _first(con, "SELECT value FROM meta WHERE key = 'schema_version'") if "meta" in tables else None
    version = int(row[0]) if row is not None and str(row[0]).isdigit() else 0
    ours = app_id in (0, APPLICATION_ID) and (app_id == APPLICATION_ID or V1_TABLES <= tables)
    columns = {t: _columns(con, t) for t in sorted(tables & ALL_TABLES)} if ours else {}
    changed = [escaped(c) for c in columns_changed(columns)]
    if ours and app_id != APPLICATION_ID and changed:
        # no mark in the header: ref's table names alone (another program may use them too) do
        # not make it a record, its columns must be ref's as well; judged before a byte is written
        table, column = next((t, c) for t, have in columns.items() for c in COLUMNS[t] if c not in have)
        return Found(FileKind.FOREIGN, f"a SQLite database of another program (its tables have ref's names, "
                                       f"but its table {table} has no column {column})")
    if version >= 1 and ours:
        gone = tables_gone(version, tables, user_version)
        if gone:
            return Found(FileKind.RECORD, problem=_tables_gone(con, gone, tables))
        if changed:
            return Found(FileKind.RECORD, problem=f"the record was changed outside ref: {'; '.join(changed)}; "
                                                  "nothing was written")
        later = version == 2 and "entry" in tables and _first(con, LATER_ENTRIES) is not None
        problem = schema_problem(version, tables, user_version, later)
        return Found(FileKind.RECORD, problem=problem and altered(version, problem).message)
    if app_id == APPLICATION_ID and V1_TABLES - {"meta"} <= tables:  # ref's mark and tables, no version
        said = "its meta table is gone" if "meta" not in tables else "its meta table holds no schema version"
        return Found(FileKind.RECORD, problem=f"the file carries ref's mark and ref's tables, but {said}: the record "
                                              "was changed outside ref; nothing was written")
    if not objects and not user_version and not app_id:
        return Found(FileKind.EMPTY, "an empty SQLite database")
    shown_ = [name for kind, name in objects if not name.startswith("sqlite_")] or [f"application_id {app_id}"
                                                                                    if app_id else "a user_version"]
    kinds = {kind for kind, name in objects if not name.startswith("sqlite_")}
    names = ", ".join(sorted(shown_)[:3]) + (", ..." if len(shown_) > 3 else "")
    if kinds == {"table"}:
        return Found(FileKind.FOREIGN, f"a SQLite database of other tables ({names})")
    things = ", ".join(sorted(f"{kind} {name}" for kind, name in objects if not name.startswith("sqlite_"))[:3])
    return Found(FileKind.FOREIGN, f"another program's SQLite database ({things or names})")


def _columns(con: sqlite3.Connection, table: str) -> list[str]:
    """The columns of ``table`` as the file holds them (read only: ``PRAGMA table_info``)."""
    return [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]


def _tables_gone(con: sqlite3.Connection, gone: list[str], tables: set[str]) -> str:
    """Why a record lacks ``gone`` (ref's tables), named as such, not as a schema version
    changed: a table of another name holding exactly its columns was renamed, others dropped."""
    said = []
    for table in gone:
        want = list(COLUMNS[table])
        to = next((t for t in sorted(tables - ALL_TABLES) if not t.startswith("sqlite_")
                   and _columns(con, t) == want), None)
        said.append(f"its table {table} was renamed {escaped(to)}" if to else
                    f"its table {table} is gone (dropped or renamed)")
    return f"the record was changed outside ref: {'; '.join(said)}; nothing was written"


def _first(con: sqlite3.Connection, sql: str) -> tuple | None:
    """The first row, or None where the table is not shaped as ref's (another program's ``meta``)."""
    try:
        return con.execute(sql).fetchone()
    except sqlite3.OperationalError as exc:
        if "no such column" in str(exc):
            return None
        raise


def starts_afresh(db: str | None) -> bool:
    """Is ``db`` a file where a command that writes (``create=True``) would start a record: a new
    file, a 0-byte one, or a SQLite database with no schema object? Read without writing a byte."""
    path = file_of(resolve(db))
    return path is not None and probe(path).kind in (FileKind.MISSING, FileKind.EMPTY)


def refuse_foreign(db: str | None) -> None:
    """A file that is not ours (another program's database, a text file, a folder) is refused
    before anything is written to it (exit 6); a missing or empty file, or a record, passes."""
    path = file_of(resolve(db))
    if path is not None:
        found = probe(path)
        if found.kind is FileKind.FOREIGN or found.problem:
            _must_be_record(path, found)


def _must_be_record(path: Path, found: Found) -> None:
    if found.problem:
        raise IntegrityError(f"{short(str(path))}: {found.problem}",
                             hint="restore the record from a backup; the file was left as it was")
    if found.kind is FileKind.MISSING:
        raise NotFound(f"there is no record at {short(str(path))}", hint=NO_RECORD_HINT)
    if found.kind is not FileKind.RECORD:
        raise StorageError(f"{short(str(path))} is {found.what}, not a ref record; it was left as it was",
                           hint="check --db / $RUMMYREF_DB" + (
                               "; ref new-session or ref night (or ref import) may start a record in an empty file"
                               if found.kind is FileKind.EMPTY else ""))


# -- starting a record: nothing at the real name until the first write has committed ---------


@contextmanager
def _creating(db: str | None, path: Path) -> Iterator[Engine]:
    made = _make_folders(path.parent)
    done = False
    try:
        with _folder_lock(path.parent):
            found = probe(path)  # again: another terminal may have made it while this one waited
            if found.kind in (FileKind.MISSING, FileKind.EMPTY):
                with _built(path, found) as engine:
                    yield engine
                done = True
        if not done:
            _must_be_record(path, found)
            with _existing(db, True) as engine:
                yield engine
            done = True
    finally:
        if not done:
            for folder in reversed(made):  # the folders this command made for nothing
                try:
                    folder.rmdir()
                except OSError:
                    break


@contextmanager
def _built(path: Path, found: Found) -> Iterator[Engine]:
    """A new record under a temporary name beside ``path``, put at ``path`` on success."""
    temp = path.with_name(f".{path.name}.new-{os.getpid()}")
    _discard_stale(path)
    _discard(temp)
    try:
        engine = make_engine(str(temp))
        try:
            with storage_errors(path=path):
                migrate(engine)
            yield engine
        finally:
            engine.dispose()
        _settle(temp)
        _publish(temp, path, found)
    finally:
        _discard(temp)


def _settle(temp: Path) -> None:
    """Fold the WAL into the file and flush it: one self-contained file to link into place."""
    try:
        con = sqlite3.connect(temp)
        try:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            con.close()
        with open(temp, "rb+") as fh:
            os.fsync(fh.fileno())
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(f"cannot write the new record {short(str(temp))}: {exc}") from None


def _publish(temp: Path, path: Path, found: Found) -> None:
    clash = WriteConflict(f"another program created {short(str(path))} at the same moment; nothing was written",
                          hint="run the command again")
    try:
        if found.kind is FileKind.MISSING:
            try:
                os.link(temp, path)  # never replaces a file that appeared meanwhile
            except FileExistsError:
                raise clash from None
            except OSError:  # a file system without hard links
                if path.exists():
                    raise clash from None
                os.replace(temp, path)
        else:  # the empty file this command was pointed at, unless it changed meanwhile
            if probe(path).kind is not FileKind.EMPTY:
                raise clash
            os.replace(temp, path)
        _fsync_folder(path.parent)
    except OSError as exc:
        raise StorageError(f"cannot write the record {short(str(path))}: {exc.strerror or exc}") from None


def _discard_stale(path: Path) -> None:
    """The temporary files of a command that was killed while it made ``path`` (``.NAME.new-PID``
    and its -wal, -shm, -journal), when that process is gone: called under the folder's lock."""
    prefix = f".{path.name}.new-"
    try:
        names = [p.name for p in path.parent.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _running(int(pid)):
            _discard(path.with_name(prefix + pid))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it exists
        return True
    return True


def _discard(temp: Path) -> None:
    for leftover in (temp, *(temp.with_name(temp.name + s) for s in ("-wal", "-shm", "-journal"))):
        try:
            leftover.unlink(missing_ok=True)
        except OSError:
            pass


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; the ones created, outermost first."""
    made: list[Path] = []
    probe_at = folder
    try:
        while not probe_at.exists():
            made.append(probe_at)
            probe_at = probe_at.parent
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create the database folder {short(str(folder))}: {exc.strerror or exc}") from None
    return list(reversed(made))


@contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """Creators of a record in ``folder`` take turns (an advisory lock on the folder itself,
    released by the system if the process dies). Where folders cannot be locked, the hard
    link of :func:`_publish` still refuses the second of two creators (exit 7)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise WriteConflict(f"another terminal is creating a record in {short(str(folder))}; "
                                        "nothing was written", hint="try again in a moment") from None
                time.sleep(0.01)
            except OSError:  # a file system without locks
                break
        yield
    finally:
        os.close(fd)


BUSY_STATES = {"55P03", "40001", "40P01"}  #: lock_not_available, serialization_failure, deadlock_detected


DAMAGED_HINT = ("restore the record from a backup (ref backup makes one; see docs/operations/"
                "backup-and-export.md); ref verify --db BACKUP checks a copy first")


def damaged(what: str) -> IntegrityError:
    """The database file itself is damaged (SQLite says "malformed"): exit 8, restore a backup."""
    return IntegrityError(f"the database file is damaged ({what}); nothing was written", hint=DAMAGED_HINT)


#: SQLSTATEs of a JSON text PostgreSQL cannot read (invalid_text_representation, invalid_json_text)
JSON_STATES = {"22P02", "22032"}


@contextmanager
def storage_errors(engine: Engine | None = None, path: Path | None = None) -> Iterator[None]:
    """Database errors said in words, with their exit codes; given the ``engine``, a stored JSON
    text that does not parse (an entry's facts changed outside ref) names its entry (exit 8).
    ``path``: the SQLite file the words name (else the engine's)."""
    import json

    try:
        yield
    except json.JSONDecodeError:
        raise unreadable_json(engine) from None
    except StrayValue as exc:
        raise stray_value(engine) or exc from None
    except (TypeError, ValueError, ArithmeticError):
        # a value the row factory does not see (read through an expression: MAX(hands), a
        # SUM...) of a kind ref never stores breaks the code that reads it: named, exit 8
        # (found by reading the record again: only on this way out, never on the way in)
        found = _stray_or_none(engine)
        if found is None:
            raise
        raise found from None
    except DBAPIError as exc:  # ``statement`` None: no statement ran, the connection was not made
        raise _said(exc.orig, isinstance(exc, OperationalError), engine, path,
                    connecting=exc.statement is None) from None
    except sqlite3.Error as exc:  # a raw driver cursor (ref stats reads plain rows for speed)
        raise _said(exc, isinstance(exc, sqlite3.OperationalError), engine, path) from None
    except Exception as exc:
        if type(exc).__module__.startswith("psycopg"):
            raise _said(exc, False, engine) from None
        raise


def _said(orig: BaseException | None, operational: bool, engine: Engine | None,
          path: Path | None = None, connecting: bool = False) -> StorageError:
    """A database error said in words, with its exit code; ``connecting``: raised before any
    statement ran (the connection could not be made)."""
    state = getattr(orig, "sqlstate", None)
    text_ = str(orig).strip()
    server = engine is not None and engine.dialect.name == "postgresql"
    if server and (connecting or state in LOST_STATES or (state is None and operational)):
        return _unreachable(orig, engine, connecting)
    if server and state is not None and state[:2] in ("22", "42") and state != "42501":
        changed = _stray_or_none(engine)  # a column retyped outside ref (sum(text) does not exist)
        if changed is not None:
            return changed
    if "malformed JSON" in text_ or (state in JSON_STATES and "json" in text_.lower()):
        return unreadable_json(engine)
    if "malformed" in text_:
        return damaged(f"SQLite: {text_}")
    if state in BUSY_STATES or (operational and ("locked" in text_ or "busy" in text_)):
        return WriteConflict(
            "another terminal is writing to the record; nothing was written",
            hint="try again in a moment",
        )
    if (isinstance(orig, sqlite3.IntegrityError) and "UNIQUE" in text_) or state == "23505":
        return WriteConflict("another terminal recorded at the same moment; nothing was written", hint="try again")
    refusal = _server_refusal(state, _primary(orig, text_), engine)
    if refusal is not None:
        return refusal
    if operational and "readonly" in text_.replace(" ", "").replace("-", ""):
        where = f" {short(str(engine.url.database))}" if engine is not None and engine.url.database else ""
        file = engine is not None and engine.url.get_backend_name() == "sqlite" and engine.url.database
        why = unwritable(Path(file)) if file else None  # said, where it can be told
        return StorageError(
            f"the database{where} cannot be written ({why or redact(text_)}); nothing was changed",
            hint="a hand, a night, or the upgrade of a record made by an older ref (done the first time a "
                 "newer ref opens it) writes to it: make the file and its folder writable, or copy it with "
                 "ref backup and open the copy")
    if path is None and engine is not None and engine.url.database and engine.url.get_backend_name() == "sqlite":
        path = Path(str(engine.url.database))
    if operational and path is not None:
        where = short(str(path))
        if "unable to open" in text_ and not os.access(path.parent if not path.exists() else path, os.W_OK):
            from rummyref.store.readonly import on_read_only_disk

            which = path.parent if not path.exists() else path
            why = ("is on a read-only disk" if on_read_only_disk(which) else "cannot be written (permission denied)")
            return StorageError(f"the database {where} cannot be opened: its {'folder' if not path.exists() else 'file'} "
                                f"{why}; nothing was changed",
                                hint="choose a folder you can write to (--db PATH), or make this one writable")
        if "disk is full" in text_ or "disk I/O" in text_:
            return StorageError(f"the database {where} cannot be written: {redact(text_)} (no space left on the "
                                "device?); nothing was changed", hint="free some space, or choose another --db PATH")
        return StorageError(f"the database {where} cannot be used: {redact(text_)}")
    said = escaped(redact(_primary(orig, text_)))  # never the statement, a caret or a HINT line
    whose = f" {named(engine)}" if server else ""
    if operational:
        return StorageError(f"the database{whose} cannot be used: {said}")
    return StorageError(f"the database{whose} refused the operation: {said}",
                        hint="ref verify checks the record (a table changed outside ref is named)" if server else None)


def unreadable_json(engine: Engine | None) -> IntegrityError:
    """Exit 8 for a stored JSON text that does not parse, naming the first entry (or game or
    night) whose text it is, found by reading them again on a new connection."""
    import json

    found = "a stored JSON text does not parse"
    if engine is not None:
        with engine.connect() as conn:
            for where, value in conn.exec_driver_sql(
                    "SELECT g.name || ', entry ' || e.seq, e.facts FROM entry e JOIN game g ON g.id = e.game_id "
                    "UNION ALL SELECT g.name || ', game row', g.options FROM game g "
                    "UNION ALL SELECT g.name || ', night ' || s.number, s.options FROM session s "
                    "JOIN game g ON g.id = s.game_id"):
                try:
                    json.loads(value or "{}")
                except ValueError:
                    found = f"{where}: its JSON text does not parse"
                    break
    return IntegrityError(f"the record was changed outside ref: {found}; nothing was written",
                          hint="run ref verify; restore the database from a backup")


def stray_value(engine: Engine | None) -> IntegrityError | None:
    """Exit 8 naming the first value of a kind ref never stores (a BLOB read by a command), found
    by reading the record again on a new connection (:func:`~rummyref.store.integrity.stray_values`)."""
    from rummyref.store.integrity import stray_values

    if engine is None:
        return None
    with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:  # a read: never the write lock
        found = stray_values(conn, first=True)
        conn.rollback()
    if not found:
        return None
    game, where, what = found[0]
    return IntegrityError(f"the record was changed outside ref: {game + ', ' if game else ''}{where}: {what}; "
                          "nothing was written", hint="run ref verify; restore the database from a backup")


def _stray_or_none(engine: Engine | None) -> IntegrityError | None:
    """:func:`stray_value`, or None where the record cannot even be read for it."""
    try:
        return stray_value(engine)
    except Exception:  # noqa: BLE001 - the error being raised says more than this one
        return None


def _primary(orig: object, text_: str) -> str:
    """The server's message without the statement it quotes (``LINE 1: ...`` and a caret) and
    without its ``DETAIL:``/``HINT:`` lines."""
    diag = getattr(orig, "diag", None)
    primary = getattr(diag, "message_primary", None)
    return str(primary) if primary else text_.split("\n", 1)[0]


def named(engine: Engine | None) -> str:
    """The record as a message names it: the URL without its password, or the file's path."""
    if engine is None:
        return "(unknown)"
    if engine.dialect.name == "sqlite":
        return short(str(engine.url.database or ""))
    return escaped(shown(str(engine.url)))


def _role(engine: Engine | None) -> str:
    user = engine.url.username if engine is not None else None
    return f"the role {escaped(user)}" if user else "the database role"


#: SQLSTATEs of a connection lost or refused by the server itself (class 08; 57P01-57P03: the
#: server shutting down or starting up)
LOST_STATES = {"08000", "08003", "08006", "08001", "08004", "57P01", "57P02", "57P03"}
#: libpq's words for a URL it cannot use: an unknown parameter, a bad value of a known one
_BAD_URL = re.compile(r"invalid connection option|invalid URI|missing \"=\"|invalid percent-encoded|"
                      r"unterminated quoted string|invalid \w+ value|invalid value for parameter|"
                      r"unrecognized configuration parameter|invalid integer value|invalid port number", re.I)
BAD_URL_HINT = ("libpq's parameters go in the URL's query string, as postgresql://user@host:5432/db?sslmode=require "
                "or ?options=-csearch_path%3Dclub (docs/operations/postgresql.md); check --db / $RUMMYREF_DB")


def _unreachable(orig: object, engine: Engine | None, connecting: bool) -> StorageError:
    """A PostgreSQL connection that could not be made, or was lost, said in words: the record's
    URL (no password), libpq's reason on one line, and what to check."""
    url = engine.url.render_as_string(hide_password=False) if engine is not None else None
    said = _libpq_words(redact(str(orig), url))  # every spelling of the password masked, should libpq quote it
    where = named(engine)
    if _BAD_URL.search(said):
        return StorageError(f"the URL {where} is not one PostgreSQL can use: {said}", hint=BAD_URL_HINT)
    if not connecting:
        return StorageError(f"the connection to the record at {where} was lost: {said}",
                            hint="run the command again once the server answers (ref history shows what "
                                 "was written)")
    low = said.lower()
    if "password" in low or "authentication failed" in low:
        hint = ("check the user and the password in the URL (a / in a password is written %2F), or "
                "?password=... or ~/.pgpass")
    elif re.search(r'database ".*" does not exist', said):
        hint = ("check the database's name at the end of the URL; on the server, createdb --owner ROLE NAME "
                "makes it (docs/operations/postgresql.md)")
    elif re.search(r'role ".*" does not exist', said):
        hint = "check the user in the URL; on the server, createuser makes a role (docs/operations/postgresql.md)"
    elif "permission denied" in low or "not permitted to log in" in low:
        hint = f"{_role(engine)} may not connect to that database: ask the server's owner (GRANT CONNECT)"
    else:
        hint = "check that the server is running, and the URL's host and port (--db / $RUMMYREF_DB)"
    return StorageError(f"cannot connect to the record at {where}: {said}", hint=hint)


def _libpq_words(text: str) -> str:
    """libpq's text on one line: the last attempt's reason without the prefix the URL already
    says (``connection failed: connection to server at "h", port 5432 failed:``, ``FATAL:``), its
    indented second line joined to the first, control characters escaped (a line feed in a
    database's name)."""
    text = text.strip().split("\nMultiple connection attempts failed", 1)[0]
    text = re.sub(r"^connection (?:failed|is bad): ", "", text)
    text = re.sub(r"^connection to server (?:at|on) .*?, port \d+ failed: ", "", text)
    text = re.sub(r"^connection to server on socket \S+ failed: ", "", text)
    text = re.sub(r"\b(?:FATAL|ERROR):\s+", "", text)
    lines = re.split(r"\n[ \t]+", text)
    joined = lines[0]
    for line in lines[1:]:  # a sentence that goes on, or a new one
        line = line.strip()
        joined += " " if joined[-1:] in ".:;,?!" or line[:1].islower() else ". "
        joined += line
    return escaped(joined)


def _search_path(engine: Engine | None) -> str | None:
    """The schema the URL's ``options=-csearch_path=...`` names, if it names one."""
    options = engine.url.query.get("options") if engine is not None else None
    found = re.search(r"search_path\s*=\s*([^\s,]+)", " ".join(options) if isinstance(options, tuple)
                      else options or "")
    return found.group(1) if found else None


NO_SCHEMA_HINT = ("create the schema (CREATE SCHEMA name) or correct options=-csearch_path%3D... in the URL; "
                  "an app role needs USAGE on it, and the owner must run ref upgrade first")


def no_schema(engine: Engine | None, said: str = "") -> StorageError:
    """The search_path names no schema that exists and this role may use."""
    schema = _search_path(engine)
    which = f"names the schema {escaped(schema)}, which does not exist or {_role(engine)} may not use" \
        if schema else f"names no schema that exists and {_role(engine)} may use"
    return StorageError(f"the database {named(engine)} has no schema to keep the record in{said}: its "
                        f"search_path {which}; nothing was written", hint=NO_SCHEMA_HINT)


def _server_refusal(state: str | None, primary: str, engine: Engine | None = None) -> StorageError | None:
    """A PostgreSQL refusal said in words, with what to do (no SQL, no caret), or None."""
    said = escaped(redact(primary))
    if state == "3F000":  # invalid_schema_name: the search_path names no schema that exists
        return no_schema(engine, f" ({said})")
    where = f" in the database {named(engine)}" if engine is not None else ""
    if state == "42501":  # insufficient_privilege
        return StorageError(f"{_role(engine)} may not do this{where} ({said}); nothing was written",
                            hint="if the record is not set up yet, run ref upgrade as the owner first "
                                 "(docs/operations/postgresql.md); else ask the owner for the grants")
    if state in ("42703", "42P01", "42804"):  # undefined column or table, a column of another type
        return StorageError(f"the database{' ' + named(engine) if engine is not None else ''} holds tables "
                            f"that are not a ref record's ({said}); nothing was written",
                            hint="give --db an empty database (or schema) or a ref record")
    return None
