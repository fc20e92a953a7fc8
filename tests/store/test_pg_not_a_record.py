"""Which PostgreSQL schemas are a record, decided before any DDL (audit J, items 1, 2 and 5).

The schema on the search_path is ref's the way a SQLite file is: it holds ref's tables and a
``meta`` of ref's shape stating a version (a record), or nothing of its own at all (empty: the
first write starts a record there). Anything else is another program's: every command refuses
it with exit 6 ("not a ref record; it was left as it was"), writes no row into it and creates
no table beside its own. It once was taken over: another program's ``meta(key, value)`` got
``schema_version = 4`` and ref's tables were created next to it; another program's
``game``/``player`` tables, or a foreign ``meta`` stating version 2, were told "changed
outside ref" (exit 8), which is for a record.
"""

from __future__ import annotations

import json

import pytest
from cli_helpers import ref

from rummyref.store.migrations import ALL_TABLES

needs_pg = pytest.mark.needs_pg

FOREIGN = {
    "another program's meta": (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
        "INSERT INTO meta VALUES ('owner', 'otherapp')",
    ),
    "a meta stating schema version 2": (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
        "INSERT INTO meta VALUES ('schema_version', '2')",
    ),
    "a meta stating the latest version": (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
        "INSERT INTO meta VALUES ('schema_version', '4')",
    ),
    "a meta of another shape": (
        "CREATE TABLE meta (id INT PRIMARY KEY, data TEXT)",
        "INSERT INTO meta VALUES (1, 'x')",
    ),
    "other tables": (
        "CREATE TABLE users (id INT PRIMARY KEY, name TEXT)",
        "INSERT INTO users VALUES (1, 'x')",
    ),
    "another program's game and player": (
        "CREATE TABLE game (id INT PRIMARY KEY, title TEXT)",
        "CREATE TABLE player (id INT, nick TEXT)",
        "INSERT INTO game VALUES (1, 'chess')",
    ),
    "a view only": ("CREATE VIEW answer AS SELECT 42 AS n",),
    "a sequence only": ("CREATE SEQUENCE tickets",),
    "a function only": ("CREATE FUNCTION one() RETURNS int LANGUAGE sql AS 'SELECT 1'",),
}


def _export(tmp_path) -> str:
    src, out = tmp_path / "src.db", tmp_path / "export.json"
    assert ref("new-session", "--db", str(src)).exit_code == 0
    assert ref("export", "--db", str(src), "-o", str(out)).exit_code == 0
    return str(out)


def _commands(tmp_path):
    return {
        "new-session": ("new-session", "--players", "A,B"),
        "import": ("import", _export(tmp_path)),
        "upgrade": ("upgrade",),
        "standings": ("standings",),
        "verify": ("verify",),
    }


@needs_pg
@pytest.mark.parametrize("case", sorted(FOREIGN))
def test_pg_another_programs_schema_is_refused_and_left_as_it_was(record, tmp_path, case):
    with record.raw() as con:
        for sql in FOREIGN[case]:
            con.execute(sql)
    before = record.snapshot()
    for name, args in _commands(tmp_path).items():
        r = ref(*args)
        said = " ".join((r.stdout + r.stderr).split())
        assert r.exit_code == 6, (name, said)
        assert "not a ref record" in said and "left as it was" in said, (name, said)
        assert record.snapshot() == before, name  # no row written, no table, trigger or function made
    with record.raw() as con:
        tables = {r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        functions = {r[0] for r in con.execute(
            "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = current_schema()")}
    created = (tables & ALL_TABLES) - {t for sql in FOREIGN[case] for t in ALL_TABLES if f" {t} (" in sql}
    assert not created and "entry_append_only" not in functions


@needs_pg
def test_pg_an_empty_schema_still_starts_a_record_and_a_record_still_opens(record):
    with record.raw() as con:
        con.execute("CREATE EXTENSION IF NOT EXISTS plpgsql")  # lives in pg_catalog: not the schema's own
    assert ref("standings").exit_code == 5  # empty: no record yet
    r = ref("new-session", "--players", "A,B")
    assert r.exit_code == 0, r.stdout + r.stderr
    r = ref("upgrade", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["was"] == json.loads(r.stdout)["schema_version"]
    with record.raw() as con:  # another program's table beside a record does not make it foreign
        con.execute("CREATE TABLE notes (id INT)")
    assert ref("standings").exit_code == 0
    assert ref("verify").exit_code == 0
