"""The database a test runs on: a SQLite file (the default), or, with
``RUMMYREF_TEST_PG=postgresql://USER@HOST:PORT/DB``, a fresh schema of that PostgreSQL database
per test (``conftest.py`` creates it and points ``RUMMYREF_DB`` at it).

:class:`TestRecord` (the ``record`` fixture) gives the few things tests need to see from
outside ``ref``, the same way on both back-ends: has anything been written (``snapshot``),
is there a record at all (``exists``), and a raw connection to change the record behind
``ref``'s back (tamper tests)."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PG_ENV = "RUMMYREF_TEST_PG"
PG_URL = os.environ.get(PG_ENV, "").strip() or None
ON_PG = PG_URL is not None
BACKEND = "postgresql" if ON_PG else "sqlite"


def pg_conninfo(url: str) -> str:
    """A libpq URL for psycopg (no SQLAlchemy driver suffix)."""
    return re.sub(r"^postgres(ql)?(\+psycopg)?://", "postgresql://", url)


def with_schema(url: str, schema: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


class TestRecord:
    """The record of the current test (SQLite file or PostgreSQL schema)."""

    def __init__(self, spec: str, path: Path | None, schema: str | None) -> None:
        self.spec = spec  #: what RUMMYREF_DB / --db says
        self.path = path  #: the SQLite file (None on PostgreSQL)
        self.schema = schema  #: the PostgreSQL schema (None on SQLite)

    @property
    def on_pg(self) -> bool:
        return self.schema is not None

    @property
    def where(self) -> str:
        """How ref names this record in "there is no record at ..."."""
        if self.path is not None:
            return str(self.path)
        from rummyref.store.location import resolve, shown

        return shown(resolve(self.spec))

    def exists(self) -> bool:
        if self.path is not None:
            return self.path.exists()
        with self.raw() as con:
            return bool(con.execute("SELECT to_regclass('meta') IS NOT NULL").fetchone()[0])

    def snapshot(self) -> Any:
        """Everything stored: the SQLite file (and its -wal/-shm) byte for byte; on PostgreSQL
        every row of every table of the schema, plus the triggers and functions."""
        if self.path is not None:
            return {p.name: p.read_bytes() for p in sorted(self.path.parent.glob(self.path.name + "*"))}
        with self.raw() as con:
            tables = [r[0] for r in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s ORDER BY 1", (self.schema,))]
            rows = {t: sorted(map(repr, con.execute(f'SELECT * FROM "{t}"').fetchall())) for t in tables}
            rows["<triggers>"] = sorted(r[0] for r in con.execute(
                "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s", (self.schema,)))
            return rows

    @contextmanager
    def raw(self) -> Iterator[Raw]:
        """A plain driver connection, committed on success (``?`` placeholders on both)."""
        if self.path is not None:
            con = sqlite3.connect(self.path)
        else:
            import psycopg

            con = psycopg.connect(pg_conninfo(PG_URL), options=f"-csearch_path={self.schema}")  # type: ignore[arg-type]
        try:
            yield Raw(con, self.on_pg)
            con.commit()
        finally:
            con.close()

    @property
    def errors(self) -> tuple[type[BaseException], ...]:
        """What the driver raises when the database refuses a statement."""
        if self.on_pg:
            import psycopg

            return (psycopg.Error,)
        return (sqlite3.DatabaseError,)


class Raw:
    def __init__(self, con, pg: bool) -> None:
        self.con, self.pg = con, pg

    def execute(self, sql: str, params: tuple = ()):
        if self.pg:
            sql = sql.replace("?", "%s")
        return self.con.execute(sql, params)

    def rollback(self) -> None:
        self.con.rollback()

    def drop_trigger(self, name: str) -> None:
        self.execute(f"DROP TRIGGER {name} ON entry" if self.pg else f"DROP TRIGGER {name}")
