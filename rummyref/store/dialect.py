"""The few things that differ between SQLite and PostgreSQL, for code that is generic over the
schema (export/import): which tables the record has, their columns, keys and foreign keys, and
how a row is inserted (its new id back) or looked up with NULLs compared as values.

Everything takes a SQLAlchemy ``Connection`` and uses named parameters, so the same calls work
on both drivers (sqlite3 takes ``?``, psycopg ``%s``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text


def name(conn) -> str:
    return conn.dialect.name


def table_names(conn) -> list[str]:
    """The record's tables, by name."""
    if name(conn) == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    else:
        sql = ("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
               "AND table_type = 'BASE TABLE' ORDER BY table_name")
    return [r[0] for r in conn.execute(text(sql))]


def columns(conn, table: str) -> list[tuple[str, str]]:
    """``(column, TYPE)`` in declaration order (TYPE upper case: INTEGER, TEXT...)."""
    if name(conn) == "sqlite":
        return [(r[1], (r[2] or "").upper()) for r in conn.exec_driver_sql(f'PRAGMA table_info("{table}")')]
    return [(r[0], r[1].upper()) for r in conn.execute(text(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = :t ORDER BY ordinal_position"), {"t": table})]


def primary_key(conn, table: str) -> tuple[str, ...]:
    if name(conn) == "sqlite":
        info = conn.exec_driver_sql(f'PRAGMA table_info("{table}")').fetchall()
        return tuple(r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5]))
    return tuple(r[0] for r in conn.execute(text(
        "SELECT a.attname FROM pg_index i JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(att, pos) ON true "
        "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.att "
        "WHERE i.indrelid = CAST(:t AS regclass) AND i.indisprimary ORDER BY k.pos"), {"t": _quoted(table)}))


def foreign_keys(conn, table: str) -> tuple[tuple[str, str, str], ...]:
    """``(column, parent table, parent column)`` of each foreign key."""
    if name(conn) == "sqlite":
        return tuple((r[3], r[2], r[4] or "id") for r in conn.exec_driver_sql(f'PRAGMA foreign_key_list("{table}")'))
    return tuple((r[0], r[1], r[2]) for r in conn.execute(text(
        "SELECT a.attname, p.relname, pa.attname FROM pg_constraint c "
        "JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, pcol) ON true "
        "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col "
        "JOIN pg_class p ON p.oid = c.confrelid "
        "JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = k.pcol "
        "WHERE c.contype = 'f' AND c.conrelid = CAST(:t AS regclass) ORDER BY c.conname, a.attnum"),
        {"t": _quoted(table)}))


def insert(conn, table: str, values: dict[str, Any], own_id: str | None = None) -> Any:
    """Insert one row; returns its new ``own_id`` (None without one)."""
    cols = ", ".join(f'"{c}"' for c in values)
    marks = ", ".join(f":p{i}" for i in range(len(values)))
    params = {f"p{i}": v for i, v in enumerate(values.values())}
    sql = f'INSERT INTO "{table}" ({cols}) VALUES ({marks})'
    if own_id is None:
        conn.execute(text(sql), params)
        return None
    return conn.execute(text(f'{sql} RETURNING "{own_id}"'), params).scalar()


def find_same(conn, table: str, values: dict[str, Any], own_id: str | None) -> Any:
    """The ``own_id`` of a row equal to ``values`` column for column (NULL equal to NULL), or None
    (without an own id: True when there is such a row)."""
    same = "IS" if name(conn) == "sqlite" else "IS NOT DISTINCT FROM"
    where = " AND ".join(f'"{c}" {same} :p{i}' for i, c in enumerate(values)) or "1 = 1"
    params = {f"p{i}": v for i, v in enumerate(values.values())}
    what = f'"{own_id}"' if own_id else "1"
    found = conn.execute(text(f"SELECT {what} FROM \"{table}\" WHERE {where} LIMIT 1"), params).scalar()
    return found if own_id or found is None else True


def _quoted(table: str) -> str:
    return '"' + table.replace('"', '""') + '"'
