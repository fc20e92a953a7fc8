"""The database under the record: intact pages, the constraints and the append-only triggers.

A hash chain says nothing about a corrupted index (SQLite then let a second game of one name
in, and the chains still verified), nor about a table whose owner disabled its triggers. So
``ref verify`` also asks the database: SQLite's ``integrity_check`` and ``foreign_key_check``;
on both back-ends, that every unique and foreign-key constraint of the schema is declared and
that the triggers refusing UPDATE and DELETE on the log are there (on PostgreSQL: enabled for
ordinary sessions, and running the function ref created, unchanged; and every column and plain
index of ref's tables as ref created it, :func:`pg_columns`).
"""

from __future__ import annotations

import re
from functools import cache

from rummyref.store import dialect

#: (table, columns) that must be unique: the natural keys everything else relies on
UNIQUE = (
    ("game", ("name",)), ("player", ("game_id", "name")), ("player", ("game_id", "seat")),
    ("session", ("game_id", "number")), ("entry", ("game_id", "seq")), ("result", ("entry_id", "player_id")),
)
#: (table, column, parent table) of every foreign key
FOREIGN = (
    ("player", "game_id", "game"), ("session", "game_id", "game"), ("entry", "game_id", "game"),
    ("entry", "session_id", "session"), ("result", "entry_id", "entry"), ("result", "player_id", "player"),
    ("player_total", "player_id", "player"), ("player_total", "game_id", "game"),
    ("session_total", "session_id", "session"), ("session_total", "player_id", "player"),
    ("game_total", "game_id", "game"),
)
TRIGGERS = {"sqlite": ("entry_append_only_update", "entry_append_only_delete"),
            "postgresql": ("entry_append_only_update", "entry_append_only_delete", "entry_append_only_truncate")}


def database_problems(rec) -> list[tuple[str, str]]:
    """``(where, what)`` for everything wrong with the database itself."""
    conn = rec.s.connection()
    out: list[tuple[str, str]] = []
    if conn.dialect.name == "sqlite":
        for (msg,) in conn.exec_driver_sql("PRAGMA integrity_check"):
            if msg != "ok":
                out.append(("the database file", f"SQLite's integrity check: {msg}"))
        for table, rowid, parent, _fk in conn.exec_driver_sql("PRAGMA foreign_key_check"):
            out.append((f"{table} row {rowid}", f"points at no {parent} row"))
    tables = set(dialect.table_names(conn))
    for table, cols in UNIQUE:
        if table in tables and cols not in _unique(conn, table):
            out.append((f"table {table}", f"the constraint UNIQUE ({', '.join(cols)}) is missing"))
    for table, col, parent in FOREIGN:
        if table in tables and (col, parent) not in {(c, p) for c, p, _ in dialect.foreign_keys(conn, table)}:
            out.append((f"table {table}", f"the foreign key {col} -> {parent} is missing"))
    out += _schema_objects(conn)
    have = _triggers(conn)
    replaced = False
    for name in TRIGGERS.get(conn.dialect.name, ()):
        state, body = have.get(name, ("D", None))
        if state == "R":
            out.append(("table entry", f"the append-only trigger {name} is disabled: it was set to fire "
                                       "only in replica sessions (ENABLE REPLICA TRIGGER)"))
        elif state not in ENABLED:
            out.append(("table entry", f"the append-only trigger {name} is missing or disabled"))
        elif body is not None and _words(body) != _words(_created_body()):
            replaced = True
    if replaced:
        out.append(("table entry", "the function entry_append_only() the append-only triggers run is not "
                                   "the one ref created: it was replaced, and may let the log be changed"))
    return out


#: ``pg_trigger.tgenabled`` of a trigger that fires in ordinary sessions: O (origin and local,
#: the default) or A (always). D is disabled; R fires only when session_replication_role is replica.
ENABLED = ("O", "A")


def _created_body() -> str:
    """The body of ``entry_append_only()`` as the migration creates it (between its ``$$``)."""
    from rummyref.store.migrations import PG_APPEND_ONLY

    return PG_APPEND_ONLY[0].split("$$")[1]


def _words(sql: str) -> list[str]:
    return sql.split()


def _unique(conn, table: str) -> set[tuple[str, ...]]:
    """Column sets with a unique index or constraint (the primary key included)."""
    found: set[tuple[str, ...]] = {dialect.primary_key(conn, table)}
    if conn.dialect.name == "sqlite":
        for row in conn.exec_driver_sql(f'PRAGMA index_list("{table}")'):
            if row[2]:  # unique
                info = conn.exec_driver_sql(f'PRAGMA index_info("{row[1]}")').fetchall()
                found.add(tuple(r[2] for r in sorted(info)))
        return found
    rows = conn.exec_driver_sql(
        "SELECT array_agg(a.attname ORDER BY k.pos) FROM pg_constraint c "
        "JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
        "JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(att, pos) ON true "
        "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.att "
        "WHERE n.nspname = current_schema() AND t.relname = %(t)s AND c.contype IN ('u', 'p') "
        "GROUP BY c.oid", {"t": table})
    return found | {tuple(r[0]) for r in rows}


def _normal(sql: str | None) -> str | None:
    return None if sql is None else " ".join(sql.split())


def _sqlite_schema() -> dict[tuple[str, str], tuple[str, str | None]]:
    """``(type, name): (table, SQL)`` of every object ref's migrations create in a SQLite file:
    every step of the engine's list, run once on an empty database in memory."""
    from rummyref.store import engine

    return _made_by(tuple(engine.MIGRATIONS))


@cache
def _made_by(steps: tuple) -> dict[tuple[str, str], tuple[str, str | None]]:
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    db = create_engine("sqlite://", poolclass=StaticPool)
    with db.begin() as conn:
        for step in steps:
            step(conn)
        rows = conn.exec_driver_sql("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    db.dispose()
    return {(t, n): (tb, _normal(sql)) for t, n, tb, sql in rows if not n.startswith(_SQLITE_OWN)}


#: objects SQLite itself may add (ANALYZE's statistics): not ref's, and harmless
_SQLITE_OWN = ("sqlite_stat", "sqlite_sequence")


def _schema_objects(conn) -> list[tuple[str, str]]:
    """Every table, index, trigger and view exactly as ref creates it (SQLite), or, on PostgreSQL,
    no trigger or rule on ref's tables but the append-only triggers as ref creates them: a
    trigger added outside ref (on ``result``, say) would change what a later write of ref stores."""
    if conn.dialect.name != "sqlite":
        return _pg_objects(conn)
    want = _sqlite_schema()
    have = {(t, n): (tb, _normal(sql)) for t, n, tb, sql in conn.exec_driver_sql(
        "SELECT type, name, tbl_name, sql FROM sqlite_master") if not n.startswith(_SQLITE_OWN)}
    out: list[tuple[str, str]] = []
    for (kind, name), (table, sql) in sorted(have.items()):
        if (kind, name) not in want:
            on = f"on table {table}: " if kind in ("trigger", "index") else ""
            out.append((f"{kind} {name}", f"{on}is not part of ref's schema (added outside ref): "
                                          f"{around(sql or '', '')[0]}"))
        elif want[(kind, name)] != (table, sql):
            ours, theirs = around(sql or "", want[(kind, name)][1] or "")
            out.append((f"{kind} {name}", f"is not the one ref creates: it is {ours}, ref creates {theirs}"))
    out += [(f"{kind} {name}", "is missing") for kind, name in sorted(set(want) - set(have))
            if kind != "trigger"]  # a missing trigger is said below
    return out


def _pg_objects(conn) -> list[tuple[str, str]]:
    from rummyref.store.migrations import PG_APPEND_ONLY, TABLES

    want = {m.group(1): str(_normal(sql)).replace(" ON entry ", " ON {schema}.entry ") for sql in PG_APPEND_ONLY[1:]
            if (m := re.match(r"CREATE TRIGGER (\w+)", sql))}
    out: list[tuple[str, str]] = []
    for name, table, definition, schema in conn.exec_driver_sql(
            "SELECT t.tgname, c.relname, pg_get_triggerdef(t.oid), n.nspname FROM pg_trigger t "
            "JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND c.relname = ANY(%(t)s) "
            "ORDER BY c.relname, t.tgname", {"t": list(TABLES)}):
        expected = want.get(name) if table == "entry" else None
        if expected is None:
            out.append((f"trigger {name}", f"on table {table}: is not part of ref's schema (added outside ref): "
                                           f"{around(_normal(definition) or '', '')[0]}"))
        elif _normal(definition) != expected.format(schema=schema):
            ours, theirs = around(_normal(definition) or "", expected.format(schema=schema))
            out.append((f"trigger {name}", f"is not the one ref creates: it is {ours}, ref creates {theirs}"))
    for name, table in conn.exec_driver_sql(
            "SELECT rulename, tablename FROM pg_rules WHERE schemaname = current_schema() AND tablename = ANY(%(t)s)",
            {"t": list(TABLES)}):
        out.append((f"rule {name}", f"on table {table}: is not part of ref's schema (added outside ref)"))
    return out + pg_columns(conn)[1] + _pg_indexes(conn)


_PG_COLUMNS = ("SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a "
               "JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
               "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname = ANY(%(t)s) "
               "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum")


def pg_columns(conn) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The columns of ref's tables on PostgreSQL against the ones ref created
    (:func:`~rummyref.store.migrations.pg_columns`), one read of the catalog: ``(changed, added)``,
    each ``(where, what)``. Changed: a column of another type (text or numeric where ref reads a
    whole number: every read of it would break, or show what the chain does not say) or one
    that is gone. Added: a column ref does not create (``ADD COLUMN note text``). A missing
    table is said by the schema's own check."""
    from rummyref.store.migrations import pg_columns as created

    want = created()
    have: dict[str, dict[str, str]] = {}
    for table, column, type_ in conn.exec_driver_sql(_PG_COLUMNS, {"t": list(want)}):
        have.setdefault(table, {})[column] = type_
    changed: list[tuple[str, str]] = []
    added: list[tuple[str, str]] = []
    for table, columns in want.items():
        if table not in have:
            continue
        for column, type_ in columns.items():
            found = have[table].get(column)
            if found is None:
                changed.append((f"table {table}, column {column}", "is missing: it was dropped outside ref"))
            elif found != type_:
                changed.append((f"table {table}, column {column}",
                                f"is of type {found}, where ref creates it {type_}: its type was changed outside ref"))
        added += [(f"table {table}, column {column}", f"is not part of ref's schema (added outside ref): {column} "
                                                      f"{type_}") for column, type_ in have[table].items()
                  if column not in columns]
    return changed, added


_PG_INDEXES = ("SELECT i.relname, t.relname, pg_get_indexdef(i.oid) FROM pg_catalog.pg_index x "
               "JOIN pg_catalog.pg_class i ON i.oid = x.indexrelid JOIN pg_catalog.pg_class t ON t.oid = x.indrelid "
               "JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace "
               "WHERE n.nspname = current_schema() AND t.relname = ANY(%(t)s) "
               "AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conindid = i.oid) ORDER BY i.relname")
_PG_INDEX = re.compile(r"CREATE INDEX (\S+) ON (?:\S+\.)?(\S+) USING btree \(([^)]*)\)$")


def _pg_indexes(conn) -> list[tuple[str, str]]:
    """The plain indexes on ref's tables (the unique ones are checked with the constraints) against
    the ones ref creates: one missing, one that is not ref's, one changed."""
    from rummyref.store.migrations import TABLES, pg_indexes

    want = pg_indexes()
    out: list[tuple[str, str]] = []
    seen = set()
    for name, table, definition in conn.exec_driver_sql(_PG_INDEXES, {"t": list(TABLES)}):
        seen.add(name)
        m = _PG_INDEX.match(definition)
        if name not in want:
            out.append((f"index {name}", f"on table {table}: is not part of ref's schema (added outside ref): "
                                         f"{around(definition, '')[0]}"))
        elif m is None or (m.group(2), m.group(3)) != want[name]:
            it = f"on {m.group(2)} ({m.group(3)})" if m is not None else around(definition, "")[0]
            out.append((f"index {name}", f"is not the one ref creates: it is {it}, ref creates it on "
                                         f"{want[name][0]} ({want[name][1]})"))
    out += [(f"index {name}", "is missing") for name in sorted(set(want) - seen)]
    return out


WIDE = 60  #: characters of a text shown around its first difference


def around(have: str, want: str) -> tuple[str, str]:
    """Two texts shown by the part around their first difference (each quoted, ``...`` where
    cut), so that a difference at the end of a long line is seen."""
    n = next((i for i, (a, b) in enumerate(zip(have, want)) if a != b), min(len(have), len(want)))
    start = max(0, n - WIDE // 3)

    def part(text: str) -> str:
        cut = text[start:start + WIDE]
        return ("..." if start else "") + repr(cut) + ("..." if start + WIDE < len(text) else "")

    return part(have), part(want)


def _triggers(conn) -> dict[str, tuple[str, str | None]]:
    """``name: (tgenabled, body of the function it runs)`` of the triggers on ``entry`` (on
    SQLite: ``("O", None)`` for each trigger that raises)."""
    if conn.dialect.name == "sqlite":
        return {name: ("O", None) for (name,) in conn.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'entry'")}  # exactly: above
    return {name: (str(state), body or "") for name, state, body in conn.exec_driver_sql(
        "SELECT t.tgname, t.tgenabled::text, p.prosrc FROM pg_trigger t "
        "JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
        "LEFT JOIN pg_proc p ON p.oid = t.tgfoid "
        "WHERE n.nspname = current_schema() AND c.relname = 'entry'")}


# -- values of a kind ref never stores --------------------------------------------------------

#: each table a game's rows live in: how one of its rows is named, and the id of its game (SQL
#: over the row ``t``; every value read is a text or an id, whatever the row holds)
_ROWS = {
    "game": ("'game row ' || t.id", "t.id"),
    "player": ("'player row ' || t.id || ' (' || CAST(t.name AS TEXT) || ')'", "t.game_id"),
    "session": ("'session row ' || t.id || ' (night ' || CAST(t.number AS TEXT) || ')'", "t.game_id"),
    "entry": ("'entry row ' || t.id || ' (entry ' || CAST(t.seq AS TEXT) || ')'", "t.game_id"),
    "result": ("'result row ' || t.id", "(SELECT e.game_id FROM entry e WHERE e.id = t.entry_id)"),
    "player_total": ("'player_total row of player ' || CAST(t.player_id AS TEXT)", "t.game_id"),
    "session_total": ("'session_total row (' || CAST(t.session_id AS TEXT) || ', ' || "
                      "CAST(t.player_id AS TEXT) || ')'", "(SELECT s.game_id FROM session s WHERE s.id = t.session_id)"),
    "game_total": ("'game_total row'", "t.game_id"),
}
#: the storage class ref writes in a column of each declared type (its tables have no other)
_WRITES = {"INTEGER": "integer", "TEXT": "text"}
#: SQLite's storage classes, in words: what a column holds, what ref writes to it
_KINDS = {"integer": "a whole number", "text": "a text", "real": "a REAL (a number with a fraction)",
          "blob": "a BLOB (raw bytes)"}


def stray_values(conn, first: bool = False) -> list[tuple[str | None, str, str]]:
    """``(game, where, what)`` for each value stored as another kind than ref stores in its
    column (SQLite's ``typeof()``: a BLOB where ref writes a text, a text or a fraction where it
    writes a whole number). ref writes only texts and whole numbers (and NULL where a column
    may be empty); a value of another kind was put there outside ref, and no reading of it can
    be trusted. ``first``: stop at the first one. ``game`` is None when the row is of no game.
    On PostgreSQL every column is typed, and holds no other kind: a column whose type is not the
    one ref created (``ALTER COLUMN points TYPE text``), or that is gone, is what is found
    (:func:`pg_columns`; game None)."""
    if conn.dialect.name != "sqlite":
        changed = pg_columns(conn)[0]
        return [(None, where, what) for where, what in changed[:1 if first else None]]
    out: list[tuple[str | None, str, str]] = []
    tables = set(dialect.table_names(conn))
    for table, (row, game_id) in _ROWS.items():
        if table not in tables:
            continue
        declared = {r[1]: (r[2] or "").upper() for r in conn.exec_driver_sql(f'PRAGMA table_info("{table}")')}
        want = {c: _WRITES[t] for c, t in declared.items() if t in _WRITES}
        kinds = ", ".join(f'typeof(t."{c}")' for c in want)
        wrong = " OR ".join(f"typeof(t.\"{c}\") NOT IN ('{k}', 'null')" for c, k in want.items())
        query = (f"SELECT {row}, (SELECT CAST(g.name AS TEXT) FROM game g WHERE g.id = {game_id}), {kinds} "
                 f'FROM "{table}" t WHERE {wrong} ORDER BY t.rowid' + (" LIMIT 1" if first else ""))
        for where, game, *have in conn.exec_driver_sql(query):
            for (column, kind), found in zip(want.items(), have):
                if found not in (kind, "null"):
                    out.append((game, f"{where or table + ' row'}, column {column}",
                                f"holds {_KINDS.get(found, found)}, where ref writes {_KINDS[kind]}"))
            if first and out:
                return out
    return out
