"""The record as a SQLite file, audit record-files (stop 48), findings 1, 2 and 7 (the others:
tests/cli/test_record_files48.py).

1. Another program's SQLite database whose tables carry ref's names (``meta`` with a
   ``schema_version`` row, ``game``, ``player``...) but not ref's columns is not a record:
   every command refused it with SQLite's "no such column" after switching it to WAL (the
   file's header rewritten), and ``ref backup`` crashed (exit 1). It is judged by its
   columns before a byte is written: exit 6, "not a ref record", the file byte for byte.
2. A column of ref's tables dropped or renamed outside ref (and a table renamed) is named
   by table and column, exit 8, by every command, before anything is read or written: it was
   exit 6 "cannot be used: no such column", and ``ref export`` wrote a file its own import
   then called tampered. A renamed table was blamed on a changed schema version.
7. Names read from a record edited outside ref are printed escaped everywhere: ``verify``'s
   report, the "which game?" error, headers (stats, history, rulings), CSV cells.

Every refusal compares the folder's files byte for byte (a -wal/-shm left shows as a new name).
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import ref

from rummyref.store.migrations import LATEST

POINTS = ("--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")


def said(r) -> str:
    return " ".join((r.stdout + r.stderr).split())


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def edit(path: Path, *statements: str) -> None:
    con = sqlite3.connect(path)
    for sql in statements:
        con.execute(sql)
    con.commit()
    con.close()


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    """An export of a small record, made once (``ref import`` is one of the commands tried)."""
    folder = tmp_path_factory.mktemp("src")
    src, out = folder / "src.db", folder / "export.json"
    assert ref("new-session", "--db", str(src)).exit_code == 0
    assert ref("score-hand", "--db", str(src), *POINTS).exit_code == 0
    assert ref("export", "--db", str(src), "-o", str(out)).exit_code == 0
    return out


# -- 1. ref's table names, another program's columns -------------------------------------------

FOREIGN = {
    "the five tables of the first schema": (1, ("game", "player", "session", "entry", "result")),
    "all eight tables, at the latest version": (LATEST, ("game", "player", "session", "entry", "result",
                                                         "player_total", "session_total", "game_total")),
}
COMMANDS = [["standings"], ["history"], ["verify"], ["stats"], ["score-hand", *POINTS], ["new-session"],
            ["upgrade"], ["backup", "copy.db"], ["import", "EXPORT"], ["export", "-o", "out.json"]]


@pytest.mark.sqlite_only("another program's SQLite file")
@pytest.mark.parametrize("shape", list(FOREIGN))
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_another_programs_database_with_refs_table_names_is_left_byte_for_byte(tmp_path, monkeypatch, export,
                                                                              shape, args):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    version, tables = FOREIGN[shape]
    db = work / "other.db"
    edit(db, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
         f"INSERT INTO meta VALUES ('schema_version', '{version}')",
         *(sql for t in tables for sql in (f"CREATE TABLE {t} (id INTEGER PRIMARY KEY, data TEXT)",
                                           f"INSERT INTO {t} (data) VALUES ('precious')")))
    before = digests(work)
    r = ref(*[str(export) if a == "EXPORT" else a for a in args], "--db", str(db), input="")
    assert r.exit_code == 6, r.stdout + r.stderr
    assert "other.db is a SQLite database of another program" in said(r)
    assert "not a ref record" in said(r) and "has no column" in said(r) and "left as it was" in said(r)
    assert "no such column" not in said(r) and "internal error" not in said(r)
    assert digests(work) == before  # bytes 19-20 too (no switch to WAL); no copy.db, out.json, -wal, -shm
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()


@pytest.mark.sqlite_only("the marks in the SQLite header")
@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_a_record_made_before_the_marks_still_opens_and_upgrades(tmp_path, record, journal):
    """ref's tables and ref's columns, no mark in the header (a record of an early release):
    still a record, in either journal mode, and its next write marks it."""
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    edit(record.path, "PRAGMA user_version = 0", "PRAGMA application_id = 0", f"PRAGMA journal_mode = {journal}")
    assert ref("standings").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    r = ref("verify")
    assert r.exit_code == 0, r.stdout + r.stderr
    con = sqlite3.connect(record.path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


# -- 2. a column (or a table) of ref's renamed or dropped ---------------------------------------

CHANGED = {
    "a column dropped": ("ALTER TABLE result DROP COLUMN won", "table result: its column won is gone"),
    "a column renamed": ("ALTER TABLE session RENAME COLUMN options TO opts",
                         "table session: its column options was renamed opts"),
    "a table renamed": ("ALTER TABLE game RENAME TO game_old", "its table game was renamed game_old"),
    "a table dropped": ("DROP TABLE game_total", "its table game_total is gone"),
}
EVERY = [["verify"], ["standings"], ["history"], ["stats"], ["chart"], ["export", "-o", "out.json"],
         ["export", "--format", "csv", "-o", "out.csv"], ["backup", "copy.db"], ["score-hand", *POINTS],
         ["new-session"], ["upgrade"], ["import", "EXPORT"]]


@pytest.mark.sqlite_only("a SQLite schema changed with sqlite3")
@pytest.mark.parametrize("change", list(CHANGED))
@pytest.mark.parametrize("args", EVERY, ids=lambda a: "-".join(a[:2]))
def test_a_column_or_table_changed_outside_ref_is_named_exit_8_nothing_written(tmp_path, monkeypatch, export,
                                                                                change, args):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    db = work / "r.db"
    assert ref("new-session", "--db", str(db), "--game", "other").exit_code == 0
    assert ref("score-hand", "--db", str(db), *POINTS).exit_code == 0
    sql, named = CHANGED[change]
    edit(db, sql)
    before = digests(work)
    r = ref(*[str(export) if a == "EXPORT" else a for a in args], "--db", str(db), input="")
    assert r.exit_code == 8, r.stdout + r.stderr
    assert "r.db: the record was changed outside ref: " + named in said(r)
    assert "nothing was written" in said(r)
    assert "no such column" not in said(r) and "schema version" not in said(r)
    assert digests(work) == before  # no export, no copy, no -wal/-shm: the record byte for byte


# -- 7. names from an edited record, escaped -----------------------------------------------------

ESC_GAME = "rummy\x1b]0;pwned\x07"
ESC_PLAYER = "Bill\x1b[31mRED"


@pytest.fixture
def edited(record):
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    assert ref("new-session", "--game", "gin", "--ruleset", "gin", "--players", "Dee,Eve").exit_code == 0
    edit(record.path, f"UPDATE player SET name = '{ESC_PLAYER}' WHERE id = 1",
         f"UPDATE game SET name = '{ESC_GAME}' WHERE id = 1")
    return record


def _clean(r, *shown: str) -> None:
    text = r.stdout + r.stderr
    assert "\x1b" not in text and "\x07" not in text, text
    for s in shown:
        assert s in text, text


@pytest.mark.sqlite_only("a name changed with sqlite3")
def test_verify_prints_names_from_an_edited_record_escaped(edited):
    r = ref("verify")
    assert r.exit_code == 8
    _clean(r, "rummy\\x1b]0;pwned\\x07: entry 1:", "player row 1 (Bill\\x1b[31mRED)")


@pytest.mark.sqlite_only("a name changed with sqlite3")
def test_which_game_names_the_open_games_escaped(edited):
    r = ref("standings")
    assert r.exit_code != 0
    _clean(r, "2 games have a session open (rummy\\x1b]0;pwned\\x07, gin): which one?")
    r = ref("standings", "--game", "nosuch")
    assert r.exit_code == 5
    _clean(r, "games: rummy\\x1b]0;pwned\\x07, gin")


@pytest.mark.sqlite_only("a name changed with sqlite3")
@pytest.mark.parametrize("args, shown", [
    pytest.param(["stats"], "Statistics of rummy\\x1b]0;pwned\\x07 (rummy-2m)", id="stats"),
    pytest.param(["history"], "History of rummy\\x1b]0;pwned\\x07 (rummy-2m)", id="history"),
    pytest.param(["rulings"], "No ruling has been recorded in rummy\\x1b]0;pwned\\x07.", id="rulings"),
    pytest.param(["export", "--format", "csv"], "Bill\\x1b[31mRED,Ben,Larry", id="csv"),
])
def test_headers_and_csv_cells_show_an_edited_name_escaped(edited, args, shown):
    r = ref(*args, "--game", ESC_GAME)
    assert r.exit_code == 0, r.stdout + r.stderr
    _clean(r, shown)
