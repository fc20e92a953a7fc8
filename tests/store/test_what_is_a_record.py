"""Which files are a record, decided before anything is written (audit C, items 1, 4 and 5).

- A SQLite database holding any schema object (a view, not only a table) is not empty: no
  command replaces it with a new record (it once did: new-session took a view-only file for
  an empty database and put a new record in its place).
- Another program's database with a ``meta(key, value)`` table and a ``schema_version`` row
  is not a record: it lacks ref's tables. It was once switched to WAL, then failed with
  "no such table".
- A record whose ``meta.schema_version`` was lowered by hand does not fit its tables: a read
  once re-ran old migrations (appending ``adopt`` entries to the chained log). It is refused
  (exit 8) with nothing written, on both back-ends.

Every case compares the files byte for byte (hashlib), -wal/-shm included.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

from rummyref.store.migrations import APPLICATION_ID, LATEST

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
POINTS = ("--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")


def said(r) -> str:
    return " ".join((r.stdout + r.stderr).split())


def digests(folder: Path) -> dict[str, str]:
    """Every file of the folder, by its SHA-256 (a -wal/-shm left behind shows as a new name)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def make(path: Path, *statements: str) -> None:
    con = sqlite3.connect(path)
    for sql in statements:
        con.execute(sql)
    con.commit()
    con.close()


def an_export(tmp_path: Path) -> Path:
    src, out = tmp_path / "src" / "src.db", tmp_path / "src" / "export.json"
    src.parent.mkdir()
    assert ref("new-session", "--db", str(src)).exit_code == 0
    assert ref("score-hand", "--db", str(src), *POINTS).exit_code == 0
    assert ref("export", "--db", str(src), "-o", str(out)).exit_code == 0
    return out


# -- 1. any schema object: not empty ----------------------------------------------------------

NOT_EMPTY = {
    "a view": ("CREATE VIEW my_report AS SELECT 'precious' AS x",),
    "a table and its index and trigger": (
        "CREATE TABLE t (x)", "CREATE INDEX ix_t ON t (x)",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END"),
    "a meta table of other columns": ("CREATE TABLE meta (a, b)", "INSERT INTO meta VALUES (1, 2)"),
    "only a mark in the header": ("PRAGMA user_version = 7",),
    "another program's application_id": ("PRAGMA application_id = 1234",),
}
STARTERS = [["new-session"], ["night"], ["import", "EXPORT"], ["upgrade"], ["standings"], ["verify"],
            ["backup", "copy.db"]]


@pytest.mark.sqlite_only("a SQLite file that holds a view")
@pytest.mark.parametrize("held", list(NOT_EMPTY))
@pytest.mark.parametrize("args", STARTERS, ids=lambda a: a[0])
def test_a_database_holding_any_schema_object_is_never_taken_for_empty(tmp_path, monkeypatch, held, args):
    export = an_export(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    db = work / "view.db"
    make(db, *NOT_EMPTY[held])
    before, inode = digests(work), db.stat().st_ino
    r = ref(*[str(export) if a == "EXPORT" else a for a in args], "--db", str(db), input="")
    assert r.exit_code == 6, r.stdout + r.stderr
    assert "not a ref record" in said(r) and "left as it was" in said(r)
    assert "empty" not in said(r)
    assert digests(work) == before and db.stat().st_ino == inode  # byte for byte, not replaced, no -wal/-shm


@pytest.mark.sqlite_only("a SQLite file that holds a view")
def test_the_view_survives_and_a_truly_empty_database_still_takes_a_record(tmp_path):
    view, empty = tmp_path / "view.db", tmp_path / "empty.db"
    make(view, "CREATE VIEW my_report AS SELECT 'precious' AS x")
    make(empty, "CREATE TABLE gone (x)", "DROP TABLE gone")  # a database with nothing left in it
    assert ref("new-session", "--db", str(view)).exit_code == 6
    con = sqlite3.connect(view)
    assert con.execute("SELECT x FROM my_report").fetchall() == [("precious",)]
    con.close()
    r = ref("standings", "--db", str(empty))
    assert r.exit_code == 6 and "an empty SQLite database" in said(r)
    assert ref("new-session", "--db", str(empty)).exit_code == 0
    assert ref_json("standings", "--db", str(empty))["open_night"] == 1  # a night with no hand is no Rummy Night (SPEC §8)


@pytest.mark.sqlite_only("the file itself")
@pytest.mark.parametrize("blank", ["a 0-byte file", "an empty SQLite database"])
@pytest.mark.parametrize("starter", ["new-session", "night"])
def test_night_starts_a_record_where_new_session_does(tmp_path, blank, starter):
    """Audit trust43 #4: ``ref night`` refused a 0-byte file or an empty database (exit 6) where
    the manual says it starts a record, as ``new-session`` does."""
    db = tmp_path / "blank.db"
    if blank == "a 0-byte file":
        db.touch()
    else:
        make(db, "CREATE TABLE gone (x)", "DROP TABLE gone")
    before = db.read_bytes()
    refused = ref(starter, "--db", str(db), "--players", "Ann,Ann", input="quit\n")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert db.read_bytes() == before  # a refused first write: the file as it was
    r = ref(starter, "--db", str(db), "--game", "z", "--players", "Ann,Bob", input="quit\n")
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "New game z" in said(r) and "Rummy Night 1 of z is open" in said(r)
    assert ref_json("standings", "--db", str(db))["open_night"] == 1
    assert ref("verify", "--db", str(db)).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("blank.db-")) == ["blank.db"]


# -- 4. a meta table with a schema version is not enough -------------------------------------


@pytest.mark.sqlite_only("another program's SQLite file")
@pytest.mark.parametrize("version", ["1", "2", str(LATEST)])
@pytest.mark.parametrize("args", [["standings"], ["history"], ["verify"], ["score-hand", *POINTS],
                                  ["new-session"], ["upgrade"], ["backup", "copy.db"]], ids=lambda a: a[0])
def test_another_programs_database_with_a_meta_schema_version_is_not_a_record(tmp_path, monkeypatch, version, args):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "foreign.db"
    make(db, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
         f"INSERT INTO meta VALUES ('schema_version', '{version}')", "CREATE TABLE customers (name)")
    before = digests(tmp_path)
    r = ref(*args, "--db", str(db))
    assert r.exit_code == 6, r.stdout + r.stderr
    assert "not a ref record" in said(r) and "left as it was" in said(r)
    assert "no such table" not in said(r)
    assert digests(tmp_path) == before  # bytes 19-20 too: no switch to WAL
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()


# -- 5. a schema version lowered by hand -------------------------------------------------------


def _lower(record, version: int, unmarked: bool = False) -> None:
    with record.raw() as con:
        con.execute(f"UPDATE meta SET value = '{version}' WHERE key = 'schema_version'")
    if unmarked:  # as a record made before ref marked its files
        make(record.path, "PRAGMA user_version = 0", "PRAGMA application_id = 0")


def _a_record() -> None:
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0


@pytest.mark.parametrize("version", [1, 2, 3])
@pytest.mark.parametrize("args", [["standings"], ["history"], ["verify"], ["upgrade"], ["score-hand", *POINTS],
                                  ["new-session"]], ids=lambda a: a[0])
def test_a_lowered_schema_version_is_refused_and_nothing_is_written(record, version, args):
    _a_record()
    _lower(record, version)
    before = record.snapshot()
    r = ref(*args)
    assert r.exit_code == 8, r.stdout + r.stderr
    assert f"schema version is {version}" in said(r) and "changed outside ref" in said(r)
    assert record.snapshot() == before  # no migration re-run, no adopt entry, no version bump


@pytest.mark.sqlite_only("the marks in the SQLite header")
@pytest.mark.parametrize("change", ["UPDATE meta SET value = 'four'", "DELETE FROM meta", "DROP TABLE meta",
                                    "UPDATE meta SET key = 'schema_versionx'"])
@pytest.mark.parametrize("args", [["standings"], ["verify"], ["score-hand", *POINTS], ["new-session"]],
                         ids=lambda a: a[0])
def test_a_marked_record_whose_meta_row_was_changed_is_exit_8_not_another_programs(tmp_path, record, change, args):
    """Audit, stop 35: ref's mark and ref's tables, the version row gone or unreadable, was
    "another program's SQLite database (index ix_entry_hand, ...)", exit 6, "check --db"."""
    _a_record()
    make(record.path, change)
    before = digests(tmp_path)
    r = ref(*args)
    assert r.exit_code == 8, r.stdout + r.stderr
    assert "carries ref's mark and ref's tables" in said(r) and "changed outside ref" in said(r)
    assert "another program" not in said(r)
    assert digests(tmp_path) == before


@pytest.mark.sqlite_only("the marks in the SQLite header")
@pytest.mark.parametrize("version", [1, 2])
def test_a_lowered_version_is_refused_in_a_record_made_before_the_marks(tmp_path, record, version):
    """Without ``user_version`` the tables (v1) or the log (v2: header entries) tell."""
    _a_record()
    _lower(record, version, unmarked=True)
    before = digests(tmp_path)
    r = ref("standings")
    assert r.exit_code == 8 and "changed outside ref" in said(r), r.stdout + r.stderr
    assert digests(tmp_path) == before
    _lower(record, LATEST)  # put back as it was: the record is whole again
    assert ref("verify").exit_code == 0


def test_a_migration_checks_the_schema_it_expects_before_it_runs(record):
    """The engine itself (not only the look at the file): a step never runs on a database
    that does not hold the schema of the version ``meta`` states."""
    from rummyref.errors import IntegrityError
    from rummyref.store.engine import make_engine, migrate

    _a_record()
    _lower(record, 2)
    before = record.snapshot()
    engine = make_engine(record.spec)
    try:
        with pytest.raises(IntegrityError, match="changed outside ref"):
            migrate(engine)
    finally:
        engine.dispose()
    assert record.snapshot() == before


# -- old records still open and upgrade ---------------------------------------------------------


@pytest.mark.sqlite_only("fixtures made by older schemas")
@pytest.mark.parametrize("fixture", ["schema_v1.db", "release_0_1/release_0_1.db"])
@pytest.mark.parametrize("first", [["upgrade"], ["standings"]], ids=lambda a: a[0])
def test_a_record_made_before_the_marks_still_opens_and_is_marked_by_its_upgrade(tmp_path, fixture, first):
    db = tmp_path / "old.db"
    shutil.copy(FIXTURES / fixture, db)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 0
    con.close()
    assert ref(*first, "--db", str(db)).exit_code == 0
    assert ref("verify", "--db", str(db)).exit_code == 0
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    con.close()


@pytest.mark.sqlite_only("the marks in the SQLite header")
def test_a_new_record_carries_ref_s_marks(tmp_path):
    db = tmp_path / "new.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    con.close()


def test_a_record_that_cannot_be_written_says_so_with_what_to_do():
    """Audit, stop 35: a 0.1 record on storage ref cannot write failed every read (it must be
    upgraded first) with only "attempt to write a readonly database"."""
    from rummyref.errors import ExitCode
    from rummyref.store.engine import _said

    exc = _said(sqlite3.OperationalError("attempt to write a readonly database"), True, None)
    assert exc.exit_code == ExitCode.STORAGE
    assert exc.message == "the database cannot be written (attempt to write a readonly database); nothing was changed"
    assert "make the file and its folder writable, or copy it with ref backup" in (exc.hint or "")


@pytest.mark.sqlite_only("the record's file, opened by the test itself")
def test_a_version_read_before_another_terminal_migrated_is_not_a_change_outside_ref(tmp_path, monkeypatch):
    """CI, stop 35 (four terminals' first start on PostgreSQL): a terminal read version 1, another
    migrated, and the first then found "the tables of a later version": exit 8 for a record
    nobody touched. The version is read again with the tables before anything is refused."""
    from rummyref.store import engine as eng

    db = str(tmp_path / "r.db")
    assert ref("--db", db, "new-session").exit_code == 0
    real, calls = eng.schema_version, []

    def read_before_the_other_terminal_migrated(conn):
        calls.append(conn)
        return 1 if len(calls) == 1 else real(conn)

    monkeypatch.setattr(eng, "schema_version", read_before_the_other_terminal_migrated)
    engine = eng.make_engine(db, create=False)
    try:
        assert eng.migrate(engine) == LATEST
    finally:
        engine.dispose()
    assert len(calls) >= 2
