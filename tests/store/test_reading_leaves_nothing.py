"""The commands that only read a SQLite record (``ref ruling``, ``ref count``, ``?`` in ``ref
night``, a name completion) write nothing to it and leave nothing beside it: no ``-wal``, no
``-shm`` that was not there before. A record this user cannot write is still read, as before;
a ``-wal`` file holding a writer's pages is read, and left as it was, never moved into the record.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import ref_subprocess

from rummyref.store import choice
from rummyref.store.choice import peek_sqlite
from rummyref.store.names import game_names, player_names

pytestmark = pytest.mark.sqlite_only("looks at the SQLite file and what lies beside it")

READS = {
    "ref ruling": (("ruling", "card laid is card played"), None, "A card laid is a card played"),
    "ref count": (("count", "7S 8S 9S"), None, "run  7♠ 8♠ 9♠"),
    "? in ref night": (("night",), "? card laid is card played\n", "A card laid is a card played"),
}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def rec(tmp_path, monkeypatch) -> Path:
    """A record with a night open, alone in its folder; no process holds it open."""
    path = tmp_path / "rec" / "r.db"
    path.parent.mkdir()
    monkeypatch.setenv("RUMMYREF_DB", str(path))
    made = ref_subprocess("new-session", "--players", "Bill,Ben,Larry")
    assert made.returncode == 0, made.stderr
    assert os.listdir(path.parent) == ["r.db"]
    return path


@pytest.mark.parametrize("command", READS)
def test_a_command_that_only_reads_leaves_the_record_alone_and_nothing_beside_it(rec, command):
    args, typed, said = READS[command]
    before = digest(rec)
    result = ref_subprocess(*args, input=typed)
    assert result.returncode == 0, result.stderr
    assert said in result.stdout
    assert "the rule set of game 'rummy-2m'" in result.stdout or command == "ref count"
    assert os.listdir(rec.parent) == ["r.db"]
    assert digest(rec) == before


def test_a_name_completion_leaves_nothing_beside_the_record(rec):
    assert game_names(str(rec)) == ["rummy-2m"]
    assert player_names(str(rec), None) == ["Bill", "Ben", "Larry"]
    assert os.listdir(rec.parent) == ["r.db"]


def test_a_read_only_record_and_folder_are_still_read(rec, as_user):
    before = digest(rec)
    rec.chmod(0o444)
    rec.parent.chmod(0o555)
    try:  # as a user the permissions bind (root through setpriv: else it would prove nothing)
        result = subprocess.run([*as_user, sys.executable, "-m", "rummyref", "ruling", "card laid is card played"],
                                capture_output=True, text=True, env=dict(os.environ), timeout=120)
        beside = {p.name: p.stat().st_size for p in rec.parent.iterdir() if p != rec}
    finally:
        rec.parent.chmod(0o755)
        rec.chmod(0o644)
    assert result.returncode == 0, result.stderr
    assert "A card laid is a card played" in result.stdout
    assert "the rule set of game 'rummy-2m'" in result.stdout
    assert digest(rec) == before
    assert beside == {}  # the folder takes nothing: no -wal, no -shm


def test_a_record_this_user_cannot_write_is_read_read_only(rec, monkeypatch):
    # what a read-only disk, file or folder looks like to this user (root may write anything):
    # every committed byte is in the file (no -wal), so it is read immutable, nothing made beside it
    monkeypatch.setattr(choice.os, "access", lambda path, mode: False)
    opened = []
    real = sqlite3.connect
    monkeypatch.setattr(choice.sqlite3, "connect", lambda database, **kw: opened.append(database) or real(database, **kw))
    assert peek_sqlite(rec, None)[:2] == ("rummy-2m", "rummy-2m")
    assert [d.rpartition("?")[2] for d in opened] == ["immutable=1"]
    assert os.listdir(rec.parent) == ["r.db"]


def test_a_record_another_program_wrote_to_while_it_was_read_without_locks_is_not_taken(rec, monkeypatch):
    """An immutable read takes no lock: a write by someone who may (root, another user) moved
    into the file meanwhile can make what was read torn. It is refused, for the caller (which
    asks the store, and says so) to try again."""
    monkeypatch.setattr(choice.os, "access", lambda path, mode: False)

    def read_while_another_writes(con):
        names = con.execute("SELECT name FROM game").fetchall()
        other = sqlite3.connect(rec)
        other.execute("UPDATE session SET options = '{\"touched\": true}'")
        other.commit()
        other.close()  # the last connection: its write is moved into the file itself
        return names

    with pytest.raises(sqlite3.OperationalError, match="another program wrote to the record while it was read"):
        choice.read_sqlite(rec, read_while_another_writes, timeout=1)


def test_a_record_that_cannot_be_opened_for_writing_is_read_read_only(rec, monkeypatch):
    opened = []
    real = sqlite3.connect

    def connect(database, **kw):
        opened.append(database.rpartition("?")[2])
        if database.endswith("mode=rw"):
            raise sqlite3.OperationalError("unable to open database file")
        return real(database, **kw)

    monkeypatch.setattr(choice.sqlite3, "connect", connect)
    assert peek_sqlite(rec, None)[:2] == ("rummy-2m", "rummy-2m")
    assert opened == ["mode=rw", "mode=ro"]


def test_the_connection_that_reads_refuses_to_write(rec):
    def write(con):
        con.execute("UPDATE game SET name = 'x'")

    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        choice.read_sqlite(rec, write, timeout=1)
    assert os.listdir(rec.parent) == ["r.db"]


def test_a_wal_holding_pages_is_read_and_left_as_it_was(rec, tmp_path):
    # a terminal killed with a hand in the -wal file, not yet in the record: a copy taken while
    # it is held open, with the writer's pages only in the -wal
    held = sqlite3.connect(rec)
    try:
        held.execute("PRAGMA wal_autocheckpoint = 0")
        held.execute("INSERT INTO session (game_id, number, opened_at, options) "
                     "SELECT game_id, number + 1, opened_at, '{\"seen\": true}' FROM session")
        held.commit()
        killed = tmp_path / "killed"
        killed.mkdir()
        for name in ("r.db", "r.db-wal"):
            shutil.copy(rec.parent / name, killed / name)
    finally:
        held.close()
    path = killed / "r.db"
    before, wal = digest(path), digest(killed / "r.db-wal")
    assert os.stat(killed / "r.db-wal")[stat.ST_SIZE] > 0
    name, _, _, is_open, _, last = peek_sqlite(path, None)
    assert (name, is_open, last) == ("rummy-2m", True, {"seen": True})  # the pages in the -wal, read
    assert digest(path) == before and digest(killed / "r.db-wal") == wal


def test_the_store_refuses_a_read_another_program_wrote_into_meanwhile(rec, monkeypatch):
    from rummyref.errors import ExitCode, WriteConflict
    from rummyref.store.record import reading

    monkeypatch.setattr(os, "access", lambda path, mode: False)  # read immutable, as for a read-only folder
    with pytest.raises(WriteConflict, match="another program wrote to the record while ref read it") as refused:
        with reading(str(rec)) as r:
            assert r.sql("SELECT name FROM game").all() == [("rummy-2m",)]
            other = sqlite3.connect(rec)
            other.execute("UPDATE session SET options = '{\"touched\": true}'")
            other.commit()
            other.close()
    assert refused.value.exit_code == ExitCode.CONFLICT
    assert os.listdir(rec.parent) == ["r.db"]
