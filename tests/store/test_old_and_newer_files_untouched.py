"""A record ref refuses, or only copies, is left byte for byte as it was.

- A record of a NEWER schema (a newer ref's backup: journal mode delete) is refused with exit 6
  by every command, and nothing is written to it: not even the switch to WAL, which comes only
  after the version check.
- ``ref backup`` of a record of an OLDER schema copies it as found (the copy keeps its schema;
  a scratch copy of it is upgraded and verified) and leaves the original untouched: the copy to
  keep before a new ref upgrades the record.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

from rummyref.store.migrations import LATEST

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD = {"schema 1": FIXTURES / "schema_v1.db", "0.1 (schema 2)": FIXTURES / "release_0_1" / "release_0_1.db"}

pytestmark = pytest.mark.sqlite_only("compares the SQLite file's bytes")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _meta(path: Path) -> tuple[str, str]:
    con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return (con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0],
                con.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        con.close()


@pytest.fixture
def newer(tmp_path) -> Path:
    """A record of schema LATEST + 1 in journal mode delete, as a newer ref's backup is."""
    db = tmp_path / "newer.db"
    shutil.copy(FIXTURES / "schema_v1.db", db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(LATEST + 1),))
    con.execute(f"PRAGMA user_version = {LATEST + 1}")
    con.commit()
    con.close()
    return db


@pytest.mark.parametrize("command", [("standings",), ("history",), ("verify",), ("upgrade",), ("export",),
                                     ("backup", "copy.db"), ("score-hand", "--points", "Bill=1", "--points", "Ben=2",
                                                             "--points", "Larry=3")])
def test_a_newer_record_is_refused_and_left_byte_for_byte(newer, tmp_path, command):
    before = digest(newer)
    args = [a if a != "copy.db" else str(tmp_path / "copy.db") for a in command]
    r = ref(*args, "--db", str(newer))
    assert r.exit_code == 6 and "newer than this ref" in r.stderr, r.stderr
    assert digest(newer) == before
    assert _meta(newer) == (str(LATEST + 1), "delete")
    assert not Path(f"{newer}-wal").exists() and not (tmp_path / "copy.db").exists()


@pytest.mark.parametrize("which", list(OLD))
def test_backup_of_an_older_record_copies_it_as_found_and_leaves_it(tmp_path, monkeypatch, which):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-30T18:45:00+00:00")
    db = tmp_path / "old.db"
    shutil.copy(OLD[which], db)
    version, _mode = _meta(db)
    before = digest(db)
    copy = tmp_path / "copy.db"
    r = ref_json("backup", "--db", str(db), str(copy))
    assert digest(db) == before  # the original: not upgraded, not switched to WAL
    assert _meta(copy) == (version, "delete")  # the copy: the record as found, self-contained
    con = sqlite3.connect(copy)
    assert r["entries"] == con.execute("SELECT COUNT(*) FROM entry").fetchone()[0]
    con.close()
    # the copy is the old record: it opens (upgraded then) with the same views as the original
    for game in ("rummy-2m",):
        for what in ("standings", "history"):
            assert ref_json(what, "--db", str(copy), "--game", game) == ref_json(what, "--db", str(db), "--game", game)
    assert ref_json("verify", "--db", str(copy))["ok"]


def test_backup_of_a_changed_older_record_is_refused_and_keeps_nothing(tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(OLD["schema 1"], db)
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER IF EXISTS entry_append_only_update")
    con.execute("UPDATE result SET points = points + 1 WHERE id = 1")
    con.commit()
    con.close()
    before = digest(db)
    r = ref("backup", "--db", str(db), str(tmp_path / "copy.db"))
    assert r.exit_code == 8, r.stderr
    assert digest(db) == before and not (tmp_path / "copy.db").exists()
