"""Audit pg47: PostgreSQL's messages and checks.

- #3: a URL holding bytes that are not UTF-8 is bad input (exit 3), escaped, password masked;
- #4: a connection that cannot be made names the record (URL without its password), gives
  libpq's reason on one line and a hint; a URL with an option libpq does not know is a bad
  URL; a permission refusal names the role, a missing schema names the schema, a newer
  schema names the record; no server text (``LINE 1:``, a caret, ``DETAIL:``, ``HINT:``);
- #2: a column of ref's tables retyped (or dropped) outside ref is exit 8, named, in ``ref
  verify`` and in every command, before anything is read or written; ``ref verify`` also
  names a column or an index added or dropped outside ref (#6);
- #5: ``meta`` changed outside ref on a schema holding ref's tables and its function is exit 8,
  as on SQLite; ``postgresql+psycopg2://`` is said to be PostgreSQL through another driver.

The first tests need no server (a closed port, or a URL refused before any connection); the
others run in the PostgreSQL pass (``needs_pg``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from cli_helpers import ref
from dbtest import PG_URL, pg_conninfo, with_schema

needs_pg = pytest.mark.needs_pg
POINTS = ("--points", "Bill=45", "--points", "Ben=-10", "--points", "Larry=20")


def flat(text: str) -> str:
    return " ".join(text.split())


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m rummyref ARGS`` in a real process: the bytes of a str holding surrogates are
    passed as the shell would pass them (``$'\\xff'``)."""
    return subprocess.run([sys.executable, "-m", "rummyref", *args], capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})), timeout=60, errors="replace")


# -- #3: bytes that are not UTF-8 ------------------------------------------------------------------

FF = os.fsdecode(b"\xff")


@pytest.mark.no_record
@pytest.mark.parametrize("where, url, shown", [
    ("--db", f"postgresql://postgres@127.0.0.1:5432/d{FF}", "'postgresql://postgres@127.0.0.1:5432/d\\udcff'"),
    ("--db", f"postgresql://u:pw{FF}xyz@127.0.0.1:5432/x", "in its password ('postgresql://u:***@127.0.0.1:5432/x')"),
    ("$RUMMYREF_DB", f"postgresql://u@127.0.0.1:5432/x?password=pw{FF}xyz",
     "in its password ('postgresql://u@127.0.0.1:5432/x?password=***')"),
])
@pytest.mark.parametrize("debug", ["", "1"])
def test_a_postgresql_url_that_is_not_utf8_is_bad_input(where, url, shown, debug):
    if where == "--db":
        r = run("--db", url, "standings", env={"RUMMYREF_DEBUG": debug})
    else:
        r = run("history", env={"RUMMYREF_DB": url, "RUMMYREF_DEBUG": debug})
    assert r.returncode == 3, r.stderr
    said = flat(r.stderr)
    assert f"error: {where} is a PostgreSQL URL holding bytes that are not UTF-8" in said
    assert shown in said and "check --db / $RUMMYREF_DB" in said
    assert "pw" not in said and "xyz" not in said and "Traceback" not in r.stderr and "internal error" not in said


@pytest.mark.no_record
def test_postgresql_through_another_driver_is_said_so():
    r = ref("--db", "postgresql+psycopg2://ann:secret@db.example/rummy", "standings")
    assert r.exit_code == 6, r.stdout + r.stderr
    said = flat(r.stderr)
    assert "postgresql+psycopg2:// is PostgreSQL through another driver (psycopg2)" in said
    assert "begin the URL with postgresql:// instead" in said and "secret" not in said


# -- #4: connections that cannot be made ---------------------------------------------------------


def _one_line_each(stderr: str) -> None:
    """An error and its hint: no line of libpq's indented, no server text."""
    assert not any(line[:1].isspace() for line in stderr.splitlines()), stderr
    for server_text in ("LINE 1", "^", "DETAIL:", "HINT:", "FATAL:", "Traceback"):
        assert server_text not in stderr, stderr


@pytest.mark.no_record
def test_a_server_that_is_down_is_named_with_a_hint():
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    r = ref("--db", "postgresql://rummy:Sesame99@127.0.0.1:1/rummy", "standings")
    assert r.exit_code == 6, r.stdout + r.stderr
    _one_line_each(r.stderr)
    said = flat(r.stderr)
    assert said.startswith("error: cannot connect to the record at postgresql://rummy:***@127.0.0.1:1/rummy: "
                           "Connection refused. Is the server running on that host"), said
    assert "check that the server is running, and the URL's host and port" in said and "Sesame" not in said


@pytest.mark.no_record
@pytest.mark.parametrize("query, why", [
    ("foo=bar", 'invalid connection option "foo"'),
    ("sslmode=bogus", 'invalid sslmode value: "bogus"'),
])
def test_a_url_option_libpq_does_not_take_is_a_bad_url(query, why):
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    r = ref("--db", f"postgresql://rummy:Sesame99@127.0.0.1:1/rummy?{query}", "new-session")
    assert r.exit_code == 6, r.stdout + r.stderr
    _one_line_each(r.stderr)
    said = flat(r.stderr)
    assert f"error: the URL postgresql://rummy:***@127.0.0.1:1/rummy?{query} is not one PostgreSQL can use: {why}" \
        in said
    assert "refused the operation" not in said and "query string" in said and "Sesame" not in said


def test_libpqs_text_is_said_on_one_line():
    from rummyref.store.engine import _libpq_words

    many = ('connection failed: connection to server at "127.0.0.1", port 2 failed: Connection refused\n\t'
            "Is the server running on that host and accepting TCP/IP connections?\n"
            "Multiple connection attempts failed. All failures were:\n- host: '127.0.0.1', port: '1': ...")
    assert _libpq_words(many) == ("Connection refused. Is the server running on that host and accepting TCP/IP "
                                  "connections?")
    assert _libpq_words('connection failed: connection to server at "h", port 5 failed: FATAL:  database "cmp1\n" '
                        "does not exist") == 'database "cmp1\\n" does not exist'
    assert _libpq_words("consuming input failed: server closed the connection unexpectedly\n\tThis probably "
                        "means the server terminated abnormally\n\tbefore or while processing the request.") == \
        ("consuming input failed: server closed the connection unexpectedly. This probably means the server "
         "terminated abnormally before or while processing the request.")


@pytest.mark.no_record
@pytest.mark.parametrize("reason, hint", [
    ('FATAL:  password authentication failed for user "rummy"', "check the user and the password in the URL"),
    ('FATAL:  database "rdb" does not exist', "createdb --owner ROLE NAME"),
    ('FATAL:  role "rummy" does not exist', "createuser makes a role"),
    ('FATAL:  permission denied for database "rdb"', "the role rummy may not connect to that database"),
])
def test_each_connection_failure_has_its_hint(reason, hint):
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    import psycopg

    from rummyref.store.engine import _said, make_engine

    engine = make_engine("postgresql://rummy:Sesame99@127.0.0.1:5/rdb", create=False)
    said = _said(psycopg.OperationalError(f'connection failed: connection to server at "127.0.0.1", port 5 '
                                          f"failed: {reason}"), True, engine, connecting=True)
    assert said.exit_code == 6
    assert said.message == ("cannot connect to the record at postgresql://rummy:***@127.0.0.1:5/rdb: "
                            + reason.split("  ", 1)[1])
    assert hint in (said.hint or "")


# -- on a server ----------------------------------------------------------------------------------


def _psql(record, *statements: str) -> None:
    with record.raw() as con:
        for sql in statements:
            con.execute(sql)


def _refused_8(r, *words: str) -> str:
    assert r.exit_code == 8, r.stdout + r.stderr
    said = flat(r.stderr)
    for w in words:
        assert w in said, said
    assert "Traceback" not in r.stderr and "internal error" not in said
    return said


RETYPED = "table result, column points: is of type {}, where ref creates it integer: its type was changed outside ref"


@needs_pg
@pytest.mark.parametrize("alter, found", [
    ("ALTER TABLE result ALTER COLUMN points TYPE text", "text"),
    ("ALTER TABLE result ALTER COLUMN points TYPE numeric USING points::numeric", "numeric"),
])
def test_pg_a_column_retyped_outside_ref_is_exit_8_in_every_command(record, tmp_path, alter, found):
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    _psql(record, alter)
    if found == "text":
        _psql(record, "UPDATE result SET points = 'abc' WHERE id = (SELECT MIN(id) FROM result)")
    else:
        _psql(record, "UPDATE result SET points = 24.5 WHERE id = (SELECT MIN(id) FROM result)")
    named = RETYPED.format(found)
    before = record.snapshot()
    _refused_8(ref("verify"), f"(record), {named}")
    report = json.loads(ref("verify", "--json").stdout)
    assert report["ok"] is False and report["problems"] == [
        {"game": "(record)", "where": "table result, column points", "what": named.split(": ", 1)[1]}]
    for args in (["stats"], ["history"], ["standings"], ["chart"], ["rulings"], ["export", "-o", str(tmp_path / "x.json")],
                 ["score-hand", *POINTS], ["end-session"]):
        _refused_8(ref(*args), f"the record was changed outside ref: {named}; nothing was written", "run ref verify")
    assert not (tmp_path / "x.json").exists()
    assert record.snapshot() == before


@needs_pg
def test_pg_a_cached_total_retyped_or_a_column_dropped_is_named(record):
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    _psql(record, "ALTER TABLE player_total ALTER COLUMN points TYPE text")
    for args in (["standings"], ["chart"], ["verify"]):
        _refused_8(ref(*args), "table player_total, column points: is of type text, where ref creates it bigint")
    _psql(record, "ALTER TABLE player_total ALTER COLUMN points TYPE bigint USING points::bigint")
    assert ref("verify").exit_code == 0
    _psql(record, "ALTER TABLE result DROP COLUMN won")
    for args in (["history"], ["verify"]):
        _refused_8(ref(*args), "table result, column won: is missing: it was dropped outside ref")


@needs_pg
@pytest.mark.parametrize("statements, words", [
    (["ALTER TABLE result ADD COLUMN note text"],
     "table result, column note: is not part of ref's schema (added outside ref): note text"),
    (["DROP INDEX ix_entry_hand"], "index ix_entry_hand: is missing"),
    (["CREATE INDEX ix_mine ON result (points)"], "index ix_mine: on table result: is not part of ref's schema"),
    (["DROP INDEX ix_result_player", "CREATE INDEX ix_result_player ON result (player_id)"],
     "index ix_result_player: is not the one ref creates: it is on result (player_id), ref creates it on "
     "result (player_id, current)"),
])
def test_pg_verify_names_a_column_or_an_index_changed_outside_ref(record, statements, words):
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    assert ref("verify").exit_code == 0
    _psql(record, *statements)
    r = ref("verify")
    assert r.exit_code == 8, r.stdout + r.stderr
    assert words in flat(r.stdout)
    assert ref("standings").exit_code == 0  # harmless to a read: said by verify, as on SQLite


@needs_pg
def test_pg_a_server_error_is_said_without_its_sql(record):
    assert ref("new-session").exit_code == 0
    _psql(record, "ALTER TABLE result ADD COLUMN note text NOT NULL DEFAULT 'x'",
          "ALTER TABLE result ALTER COLUMN note DROP DEFAULT")
    before = record.snapshot()
    r = ref("score-hand", *POINTS)
    assert r.exit_code == 6, r.stdout + r.stderr
    _one_line_each(r.stderr)
    said = flat(r.stderr)
    assert f"error: the database {record.where} refused the operation: null value in column" in said, said
    assert "ref verify checks the record" in said and "Failing row" not in said
    assert record.snapshot() == before


@needs_pg
@pytest.mark.parametrize("statements, words", [
    (["UPDATE meta SET value = 'abc' WHERE key = 'schema_version'"],
     "its schema version 'abc' is not a number: the record was changed outside ref; nothing was written"),
    (["DELETE FROM meta"], "holds ref's tables and its function entry_append_only(), but its meta table holds no "
                           "schema version: the record was changed outside ref; nothing was written"),
    (["DROP TABLE meta"], "but its meta table is gone: the record was changed outside ref"),
])
def test_pg_refs_own_meta_changed_outside_ref_is_exit_8_as_on_sqlite(record, statements, words):
    assert ref("new-session").exit_code == 0
    _psql(record, *statements)
    before = record.snapshot()
    for args in (["standings"], ["new-session"], ["verify"], ["upgrade"]):
        said = _refused_8(ref(*args), words, "restore the record from a backup")
        assert "another program" not in said and record.where in said
    assert record.snapshot() == before


@needs_pg
def test_pg_a_newer_schema_names_the_record(record):
    assert ref("new-session").exit_code == 0
    _psql(record, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    r = ref("standings")
    assert r.exit_code == 6, r.stdout + r.stderr
    assert f"error: the record {record.where} has schema version 99, newer than this ref understands" \
        in flat(r.stderr)


@needs_pg
def test_pg_a_permission_refusal_names_the_role_and_the_database(record, _pg_admin):
    role = f"{record.schema}_guest"
    _pg_admin.execute(f"CREATE ROLE {role} LOGIN")
    try:
        url = with_schema(re.sub(r"//[^@/]*@", f"//{role}@", pg_conninfo(PG_URL)), record.schema)  # type: ignore[arg-type]
        _pg_admin.execute(f"GRANT USAGE ON SCHEMA {record.schema} TO {role}")
        r = ref("--db", url, "new-session")
        assert r.exit_code == 6, r.stdout + r.stderr
        _one_line_each(r.stderr)
        said = flat(r.stderr)
        assert f"error: the role {role} may not do this in the database postgresql://{role}@" in said, said
        assert "permission denied for schema" in said and "nothing was written" in said
    finally:
        _pg_admin.execute(f"DROP OWNED BY {role}")
        _pg_admin.execute(f"DROP ROLE {role}")


@needs_pg
def test_pg_a_line_feed_in_the_database_name_is_escaped(record):
    url = pg_conninfo(PG_URL) + "_nosuch\n"  # type: ignore[operator]
    r = ref("--db", url, "standings")
    assert r.exit_code == 6, r.stdout + r.stderr
    _one_line_each(r.stderr)
    said = flat(r.stderr)
    assert 'rummyref_test_nosuch%0A: database "rummyref_test_nosuch\\n" does not exist' in said or \
        '_nosuch\\n" does not exist' in said, said
    assert "createdb" in said
