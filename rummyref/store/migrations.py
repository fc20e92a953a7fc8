"""The schema, as an ordered list of migrations (sqlite-utils style).

``MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1``; each one runs in its
own ``BEGIN IMMEDIATE`` transaction together with the version bump in ``meta``, so a
failure leaves the database at the previous version. Never edit a published step: add one.

- v1: games, players, nights (``session``), the append-only ``entry`` log and ``result`` rows;
- v2: cached aggregates (``player_total``, ``session_total``, ``game_total``), back-filled from
  the log, and triggers that refuse UPDATE/DELETE on the log.
- v3: no new table: the header and the nights go under the chain. Each existing game gets an
  ``adopt`` entry at the end of its chain stating its header and nights as found
  (:mod:`rummyref.store.header`); new games state them as they happen.
- v4: the cached totals (``player_total.points``, ``session_total.points``) are 64-bit on
  PostgreSQL too, as :data:`rummyref.bounds.TOTAL` allows (SQLite's ``INTEGER`` always was:
  on SQLite the step only bumps the version).

Every step on SQLite also marks the file itself: ``PRAGMA application_id`` (:data:`APPLICATION_ID`)
and ``PRAGMA user_version`` (the version, kept in the file's header beside ``meta``). A record
made before these marks has both at 0 and opens as before; its next migration marks it.

Before a step runs, :func:`schema_problem` checks that the database holds what the step
expects of the version ``meta`` states (a version lowered by hand would re-run old steps:
append ``adopt`` entries a second time, or fail half-way); a database that does not fit is
refused, and nothing is written.

The statements above are SQLite's, kept exactly as published. PostgreSQL gets the same tables
from :func:`pg_table`: an ``id INTEGER PRIMARY KEY`` (SQLite's rowid) becomes an identity
column, everything else is already portable; its append-only triggers are PL/pgSQL (they also
refuse TRUNCATE, which SQLite does not have).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rummyref.chain import GENESIS
from rummyref.errors import IntegrityError, StorageError

V1 = (
    """CREATE TABLE IF NOT EXISTS meta (
        key TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE game (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        ruleset TEXT NOT NULL,
        ruleset_text TEXT NOT NULL,
        target INTEGER,
        wildcards INTEGER NOT NULL DEFAULT 0,
        options TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        finished_at TEXT,
        winner TEXT
    )""",
    """CREATE TABLE player (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES game (id),
        name TEXT NOT NULL,
        seat INTEGER NOT NULL,
        opening INTEGER NOT NULL DEFAULT 0,
        UNIQUE (game_id, name),
        UNIQUE (game_id, seat)
    )""",
    """CREATE TABLE session (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES game (id),
        number INTEGER NOT NULL,
        opened_at TEXT NOT NULL,
        closed_at TEXT,
        options TEXT NOT NULL DEFAULT '{}',
        UNIQUE (game_id, number)
    )""",
    """CREATE TABLE entry (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES game (id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        session_id INTEGER REFERENCES session (id),
        hand INTEGER,
        hand_in_session INTEGER,
        dealer TEXT,
        facts TEXT NOT NULL DEFAULT '{}',
        reason TEXT,
        target_seq INTEGER,
        created_at TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        UNIQUE (game_id, seq)
    )""",
    "CREATE INDEX ix_entry_hand ON entry (game_id, hand)",
    "CREATE INDEX ix_entry_session ON entry (session_id, hand_in_session)",
    """CREATE TABLE result (
        id INTEGER PRIMARY KEY,
        entry_id INTEGER NOT NULL REFERENCES entry (id),
        player_id INTEGER NOT NULL REFERENCES player (id),
        points INTEGER NOT NULL,
        count INTEGER,
        won INTEGER,
        current INTEGER NOT NULL DEFAULT 1,
        UNIQUE (entry_id, player_id)
    )""",
    "CREATE INDEX ix_result_player ON result (player_id, current)",
)

V2 = (
    """CREATE TABLE player_total (
        player_id INTEGER PRIMARY KEY REFERENCES player (id),
        game_id INTEGER NOT NULL REFERENCES game (id),
        points INTEGER NOT NULL DEFAULT 0,
        hands INTEGER NOT NULL DEFAULT 0,
        best INTEGER,
        worst INTEGER,
        nights_won INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX ix_player_total_game ON player_total (game_id)",
    """CREATE TABLE session_total (
        session_id INTEGER NOT NULL REFERENCES session (id),
        player_id INTEGER NOT NULL REFERENCES player (id),
        points INTEGER NOT NULL DEFAULT 0,
        hands INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (session_id, player_id)
    )""",
    "CREATE INDEX ix_session_total_player ON session_total (player_id)",
    """CREATE TABLE game_total (
        game_id INTEGER PRIMARY KEY REFERENCES game (id),
        hands INTEGER NOT NULL DEFAULT 0,
        entries INTEGER NOT NULL DEFAULT 0,
        head_hash TEXT NOT NULL
    )""",
    """CREATE TRIGGER entry_append_only_update BEFORE UPDATE ON entry
       BEGIN SELECT RAISE(ABORT, 'the log is append-only (B7): record a correction instead'); END""",
    """CREATE TRIGGER entry_append_only_delete BEFORE DELETE ON entry
       BEGIN SELECT RAISE(ABORT, 'the log is append-only (B7): record a correction instead'); END""",
)

# -- the aggregates, computed from the log (v2's back-fill; also `ref verify` and the bench) --

AGGREGATE_QUERIES = {
    "player_total": """
        SELECT p.id AS player_id, p.game_id AS game_id, COALESCE(SUM(r.points), 0) AS points,
               COUNT(r.id) AS hands, MAX(r.points) AS best, MIN(r.points) AS worst
        FROM player p LEFT JOIN result r ON r.player_id = p.id AND r.current = 1
        GROUP BY p.id""",
    "session_total": """
        SELECT s.id AS session_id, p.id AS player_id, COALESCE(SUM(r.points), 0) AS points,
               COUNT(r.id) AS hands
        FROM session s JOIN player p ON p.game_id = s.game_id
        LEFT JOIN entry e ON e.session_id = s.id
        LEFT JOIN result r ON r.entry_id = e.id AND r.player_id = p.id AND r.current = 1
        GROUP BY s.id, p.id""",
    "game_total": f"""
        SELECT g.id AS game_id,
               (SELECT COUNT(DISTINCT e.hand) FROM entry e JOIN result r ON r.entry_id = e.id
                 AND r.current = 1 WHERE e.game_id = g.id) AS hands,
               (SELECT COUNT(*) FROM entry e WHERE e.game_id = g.id) AS entries,
               COALESCE((SELECT e.hash FROM entry e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1),
                        '{GENESIS}') AS head_hash
        FROM game g""",
}

NIGHTS_WON = """
    UPDATE player_total SET nights_won = (
        SELECT COUNT(*) FROM session_total st JOIN session s ON s.id = st.session_id
        WHERE st.player_id = player_total.player_id AND s.closed_at IS NOT NULL AND st.hands > 0
          AND st.points = (SELECT MAX(st2.points) FROM session_total st2 WHERE st2.session_id = st.session_id)
    ){where}"""


def rebuild_aggregates(conn) -> None:
    """Recompute every cached aggregate from the log (inside the caller's transaction)."""
    for table, query in AGGREGATE_QUERIES.items():
        conn.exec_driver_sql(f"DELETE FROM {table}")
        conn.exec_driver_sql(f"INSERT INTO {table} ({_columns(table)}) {query}")
    conn.exec_driver_sql(NIGHTS_WON.format(where=""))


def _columns(table: str) -> str:
    return {
        "player_total": "player_id, game_id, points, hands, best, worst",
        "session_total": "session_id, player_id, points, hands",
        "game_total": "game_id, hands, entries, head_hash",
    }[table]


# -- PostgreSQL ---------------------------------------------------------------------------

_ROWID = re.compile(r"^(\s*)id INTEGER PRIMARY KEY,", re.MULTILINE)


def pg_table(sql: str) -> str:
    """A CREATE statement of the SQLite steps, for PostgreSQL."""
    return _ROWID.sub(r"\1id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,", sql)


PG_APPEND_ONLY = (
    """CREATE FUNCTION entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
           RAISE EXCEPTION 'the log is append-only (B7): record a correction instead'
               USING ERRCODE = 'restrict_violation';
       END $$""",
    """CREATE TRIGGER entry_append_only_update BEFORE UPDATE ON entry
       FOR EACH ROW EXECUTE FUNCTION entry_append_only()""",
    """CREATE TRIGGER entry_append_only_delete BEFORE DELETE ON entry
       FOR EACH ROW EXECUTE FUNCTION entry_append_only()""",
    """CREATE TRIGGER entry_append_only_truncate BEFORE TRUNCATE ON entry
       FOR EACH STATEMENT EXECUTE FUNCTION entry_append_only()""",
)


def _for_dialect(conn, statements: tuple[str, ...]) -> tuple[str, ...]:
    if conn.dialect.name == "sqlite":
        return statements
    if conn.dialect.name == "postgresql":
        tables = tuple(pg_table(s) for s in statements if not s.startswith("CREATE TRIGGER"))
        has_triggers = any(s.startswith("CREATE TRIGGER") for s in statements)
        return tables + (PG_APPEND_ONLY if has_triggers else ())
    raise StorageError(f"rummyref keeps its record in SQLite or PostgreSQL, not {conn.dialect.name}")


def _statements(statements: tuple[str, ...]) -> Callable:
    def step(conn) -> None:
        for sql in _for_dialect(conn, statements):
            conn.exec_driver_sql(sql)

    return step


def _v2(conn) -> None:
    _statements(V2)(conn)
    rebuild_aggregates(conn)


def _v3(conn) -> None:
    from rummyref.store.header import adopt_all  # the store's writer (it imports the engine, hence here)

    adopt_all(conn)


V4_PG = (
    "ALTER TABLE player_total ALTER COLUMN points TYPE BIGINT",
    "ALTER TABLE session_total ALTER COLUMN points TYPE BIGINT",
)


def pg_columns() -> dict[str, dict[str, str]]:
    """``table: {column: type}`` of the latest schema on PostgreSQL, each type as PostgreSQL's
    ``format_type()`` names it (``integer``, ``text``, ``bigint``): the columns the CREATE TABLE
    statements above declare, with :data:`V4_PG`'s changes. ``ref verify`` and every command
    hold the record's columns to it."""
    out: dict[str, dict[str, str]] = {}
    for sql in V1 + V2:
        m = re.match(r"\s*CREATE TABLE (?:IF NOT EXISTS )?(\w+) \((.*)\)\s*$", sql, re.DOTALL)
        if m:
            out[m.group(1)] = {c.group(1): c.group(2).lower() for line in m.group(2).split("\n")
                               if (c := re.match(r"\s*(\w+) (INTEGER|TEXT)\b", line))}
    for sql in V4_PG:
        m = re.match(r"ALTER TABLE (\w+) ALTER COLUMN (\w+) TYPE (\w+)", sql)
        if m:
            out[m.group(1)][m.group(2)] = m.group(3).lower()
    return out


def pg_indexes() -> dict[str, tuple[str, str]]:
    """``index: (table, columns)`` of the plain (not unique) indexes the steps create."""
    return {m.group(1): (m.group(2), m.group(3)) for sql in V1 + V2
            if (m := re.match(r"CREATE INDEX (\w+) ON (\w+) \(([^)]*)\)", sql))}


def _v4(conn) -> None:
    if conn.dialect.name == "postgresql":
        for sql in V4_PG:
            conn.exec_driver_sql(sql)


MIGRATIONS: tuple[Callable, ...] = (_statements(V1), _v2, _v3, _v4)

APPLICATION_ID = 0x52554D59  #: ``PRAGMA application_id`` of a SQLite record ("RUMY")


def mark(conn, version: int) -> None:
    """Stamp a SQLite file as ref's record at ``version`` (in the step's transaction)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")

#: every table the migrations create, dependants first (:func:`unmake` drops them in this order)
TABLES = tuple(reversed([m.group(1) for s in V1 + V2
                         if (m := re.match(r"\s*CREATE TABLE (?:IF NOT EXISTS )?(\w+)", s))]))


def unmake(conn) -> bool:
    """Take back a schema that this command's migrations made in an empty PostgreSQL database
    when the command that needed it was refused (a refusal writes nothing, not even a schema).
    Only while it holds nothing: under an exclusive lock, so that a terminal that started at
    the same time and wrote into it keeps what it wrote. Whether it was taken back."""
    conn.exec_driver_sql(f"LOCK TABLE {', '.join(TABLES)} IN ACCESS EXCLUSIVE MODE")
    if conn.exec_driver_sql("SELECT EXISTS (SELECT 1 FROM game) OR EXISTS (SELECT 1 FROM entry)").scalar():
        return False
    conn.exec_driver_sql(f"DROP TABLE {', '.join(TABLES)} CASCADE")
    conn.exec_driver_sql("DROP FUNCTION IF EXISTS entry_append_only() CASCADE")
    return True
LATEST = len(MIGRATIONS)


# -- does the database hold what its schema version says? ------------------------------------

#: the tables of the first schema, and of every later one (v3 and v4 add no table)
V1_TABLES = frozenset(m.group(1) for s in V1 if (m := re.match(r"\s*CREATE TABLE (?:IF NOT EXISTS )?(\w+)", s)))
ALL_TABLES = frozenset(TABLES)
#: entries only schema v3 and later write: a record at v2 holds none of them
LATER_ENTRIES = ("SELECT 1 FROM entry WHERE kind IN ('header', 'session-open', 'session-close', 'adopt') "
                 "LIMIT 1")


def tables_at(version: int) -> frozenset[str]:
    """ref's tables in a database at ``version`` (0: none; ``meta`` may be there at 0 too)."""
    return frozenset() if version <= 0 else V1_TABLES if version == 1 else ALL_TABLES


def schema_problem(version: int, tables: set[str] | frozenset[str], user_version: int = 0,
                   later_entries: bool = False) -> str | None:
    """Why a database whose ``meta`` states ``version`` does not hold that schema (None: it
    does). ``tables``: every table in it (others' are ignored); ``user_version``: SQLite's
    mark (0 on a record made before it, and on PostgreSQL); ``later_entries``: the log holds
    an entry only v3 and later write (asked only at version 2)."""
    if version > LATEST:
        return None  # a newer ref's record: refused as such by the engine
    if user_version and user_version != version:
        return f"the file itself says version {user_version}"
    have = (set(tables) & ALL_TABLES) - {"meta"}
    want = tables_at(version) - {"meta"}
    if have - want:
        return f"it already has the tables of a later version ({', '.join(sorted(have - want))})"
    if want - have:
        return f"it lacks tables of that version ({', '.join(sorted(want - have))})"
    if version == 2 and later_entries:
        return "its log already holds the entries version 3 writes (header, adopt)"
    return None


def check_schema(conn, version: int) -> None:
    """Refuse (exit 8) a database that does not hold the schema ``version`` says, before a
    migration step runs on it (inside the caller's transaction; reads only)."""
    if conn.dialect.name == "sqlite":
        tables = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table'")}
        user_version = conn.exec_driver_sql("PRAGMA user_version").scalar() or 0
    else:
        tables = {r[0] for r in conn.exec_driver_sql(
            "SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')")}
        user_version = 0
    later = version == 2 and "entry" in tables and conn.exec_driver_sql(LATER_ENTRIES).first() is not None
    problem = schema_problem(version, tables, int(user_version), later)
    if problem is None and version == 3 and conn.dialect.name == "postgresql":
        wide = conn.exec_driver_sql(
            "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = 'player_total' AND column_name = 'points' AND data_type = 'bigint'").first()
        if wide is not None:
            problem = "its cached totals are already those of version 4 (BIGINT)"
    if problem is not None:
        raise altered(version, problem)


def altered(version: int, problem: str) -> IntegrityError:
    return IntegrityError(
        f"the record's schema version is {version}, but {problem}: its schema version was changed "
        "outside ref; nothing was written",
        hint="restore the record from a backup (ref verify tells when it is whole again)")


#: the columns of each of ref's tables, as its steps create them (the same at every version:
#: a later step adds tables, never a column; on PostgreSQL v4 retypes two, renames none)
COLUMNS: dict[str, tuple[str, ...]] = {table: tuple(columns) for table, columns in pg_columns().items()}


def columns_changed(have: dict[str, list[str]]) -> list[str]:
    """What is wrong with the columns of ref's tables, ``have`` holding each table's columns
    as found (``{table: [column, ...]}``; a table not there is not looked at): each column of
    ref's that is gone, named by table, as renamed where one column took its place. A column
    added beside ref's is not said here (``ref verify`` names it)."""
    out: list[str] = []
    for table, found in have.items():
        want = COLUMNS.get(table)
        if want is None:
            continue
        gone = [c for c in want if c not in found]
        new = [c for c in found if c not in want]
        if len(gone) == 1 and len(new) == 1:
            out.append(f"table {table}: its column {gone[0]} was renamed {new[0]}")
        else:
            out += [f"table {table}: its column {c} is gone (dropped or renamed)" for c in gone]
    return out


def tables_gone(version: int, tables: set[str] | frozenset[str], user_version: int = 0) -> list[str]:
    """ref's tables of ``version`` that are not in the database, where that is not a version
    changed by hand: a table of the first schema (every version has it), or any table where the
    file's header states the same version (``user_version``). Empty: none is, or the version
    may be what was changed (:func:`schema_problem` says so)."""
    if version < 1 or version > LATEST:
        return []
    gone = sorted(tables_at(version) - set(tables))
    if any(t in V1_TABLES for t in gone) or (gone and user_version == version):
        return gone
    return []
