"""A record this user cannot write (audit trust43 #5): on read-only media, in a read-only folder,
or a read-only file. Every command that only reads answers as it does on a writable record and
leaves the folder as it was (no -wal, no -shm); ``ref backup`` copies it; every write is refused
with exit 6, saying that the record cannot be written and why, and nothing is written.

Real processes, run as a user whom the file permissions bind: as root (whom they do not), through
``setpriv`` without the capabilities that override them; skipped where that cannot be had.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import ref

from rummyref.store.location import short

pytestmark = pytest.mark.sqlite_only("the permissions of the SQLite file and its folder")

NOW = "2026-11-12T19:30"

#: commands that only read, each with what its output must show
READS = [
    (("standings",), "Larry"),
    (("history",), "hand 2"),
    (("history", "--json"), '"entries"'),
    (("stats",), "went out"),
    (("chart",), "total after each night"),
    (("rulings",), "B8"),
    (("verify",), "The record is intact"),
    (("export",), '"tables"'),
    (("ruling", "card laid is card played"), "A card laid is a card played"),
    (("count", "7S 8S 9S"), "7♠ 8♠ 9♠"),
    (("dispute", "claim", "--called", "Bill=Ben", "--touched", "Ben,Bill", "--no-record"), "precedent: night 1"),
]
#: commands that write, each refused
WRITES = [
    ("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3"),
    ("new-session", "-g", "another", "--players", "Ann,Bob"),
    ("end-session",),
    ("dispute", "claim", "--called", "Bill=Ben", "--touched", "Ben,Bill", "--record"),
    ("void", "1", "--reason", "dealt twice"),
]


def run(prefix: tuple[str, ...], db: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "RUMMYREF_DB": str(db), "RUMMYREF_NOW": NOW}
    return subprocess.run([*prefix, sys.executable, "-m", "rummyref", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def state(folder: Path) -> dict[str, str]:
    """Every file in the folder, with a digest of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def rec(tmp_path, monkeypatch) -> Path:
    """A record alone in its folder: a night open, two hands, a ruling kept."""
    path = tmp_path / "rec" / "r.db"
    path.parent.mkdir()
    monkeypatch.setenv("RUMMYREF_DB", str(path))
    monkeypatch.setenv("RUMMYREF_NOW", NOW)
    assert ref("new-session", "--players", "Bill,Ben,Larry").exit_code == 0
    assert ref("score-hand", "--melded", "Bill=7S 7H 7D", "--held", "Bill=KS 2C", "--melded", "Ben=AH 2H 3H 4H",
               "--out", "Ben", "--held", "Larry=QD JD").exit_code == 0
    assert ref("score-hand", "--points", "Bill=9", "--points", "Ben=8", "--points", "Larry=7").exit_code == 0
    assert ref("dispute", "claim", "--called", "Bill=Ben", "--touched", "Ben,Bill").exit_code == 0
    assert [p.name for p in path.parent.iterdir()] == ["r.db"]
    return path


def read_only(rec: Path, what: str) -> None:
    if what == "folder":
        rec.parent.chmod(0o555)
    else:
        rec.chmod(0o444)


def writable(rec: Path) -> None:
    rec.parent.chmod(0o755)
    rec.chmod(0o644)


WHY = {"folder": "its folder {} is read-only, and a write makes the record's -wal and -shm files there",
       "file": "the file is read-only"}


@pytest.mark.parametrize("what", ["folder", "file"])
def test_every_read_of_a_read_only_record_answers_as_before_and_leaves_nothing(rec, as_user, what):
    before = {args: run(as_user, rec, *args) for args, _ in READS}
    for args, shows in READS:
        assert before[args].returncode == 0 and shows in before[args].stdout, (args, before[args].stderr)
    files = state(rec.parent)
    read_only(rec, what)
    try:
        for args, _ in READS:
            now = run(as_user, rec, *args)
            assert (now.returncode, now.stdout) == (0, before[args].stdout), (args, now.stderr)
            assert state(rec.parent) == files, args  # no -wal, no -shm, the record byte for byte
    finally:
        writable(rec)


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_dispute_on_a_read_only_record_is_ruled_and_says_why_it_was_not_kept(rec, as_user, what):
    files = state(rec.parent)
    read_only(rec, what)
    try:
        r = run(as_user, rec, "dispute", "claim", "--called", "Bill=Ben", "--touched", "Ben,Bill")
        assert state(rec.parent) == files
    finally:
        writable(rec)
    said = " ".join(r.stderr.split())
    assert r.returncode == 0 and "Ben wins the Rummy! card" in r.stdout, r.stderr
    why = WHY[what].format(short(str(rec.parent)))
    assert f"Not recorded (the record cannot be written: {why})." in said


@pytest.mark.parametrize("what", ["folder", "file"])
def test_every_write_on_a_read_only_record_is_refused_saying_why(rec, as_user, what):
    files = state(rec.parent)
    read_only(rec, what)
    try:
        for args in WRITES:
            r = run(as_user, rec, *args)
            said = " ".join(r.stderr.split())
            assert r.returncode == 6, (args, said)
            assert f"error: the record {short(str(rec))} cannot be written: " \
                   f"{WHY[what].format(short(str(rec.parent)))}; nothing was changed" in said, (args, said)
            assert "copy it with ref backup" in said and "internal error" not in said
            assert state(rec.parent) == files, args
    finally:
        writable(rec)
    assert ref("verify").exit_code == 0


def test_a_record_in_a_read_only_folder_is_backed_up_and_the_copy_is_a_whole_record(rec, as_user, tmp_path):
    files = state(rec.parent)
    copy = tmp_path / "copy.db"
    read_only(rec, "folder")
    try:
        r = run(as_user, rec, "backup", str(copy))
        assert state(rec.parent) == files
    finally:
        writable(rec)
    assert r.returncode == 0, r.stderr
    assert "the copy verifies" in " ".join(r.stderr.split())
    for args in (("verify",), ("history",), ("standings",)):
        assert run((), copy, *args).stdout == run((), rec, *args).stdout


def with_pages_in_its_wal(rec: Path, into: Path) -> Path:
    """A copy of the record (the file, its -wal and its -shm) taken while a hand sat in the -wal
    file only: another connection held the record open, so ref could not move it into the file."""
    held = sqlite3.connect(rec)
    try:
        held.execute("SELECT COUNT(*) FROM entry").fetchone()  # a reader: ref's last close does not checkpoint
        assert ref("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3").exit_code == 0
        into.mkdir()
        for name in ("r.db", "r.db-wal", "r.db-shm"):
            shutil.copy(rec.parent / name, into / name)
    finally:
        held.close()
    assert (into / "r.db-wal").stat().st_size > 0
    return into / "r.db"


def test_a_record_whose_wal_holds_a_hand_is_read_with_that_hand_in_a_read_only_folder(rec, as_user, tmp_path):
    copy = with_pages_in_its_wal(rec, tmp_path / "copied")
    files = state(copy.parent)
    files.pop("r.db-shm")  # SQLite's shared memory: any reader writes its marks there
    read_only(copy, "folder")
    try:
        r = run(as_user, copy, "history")
        now = state(copy.parent)
        assert now.pop("r.db-shm") and now == files  # the file and its -wal byte for byte, nothing made
    finally:
        writable(copy)
    assert r.returncode == 0, r.stderr
    assert "hand 3" in r.stdout  # the hand in the -wal only, read


def test_a_wal_holding_pages_without_its_shm_in_a_read_only_folder_is_refused_saying_what_to_copy(rec, as_user,
                                                                                                  tmp_path):
    copy = with_pages_in_its_wal(rec, tmp_path / "copied")
    (copy.parent / "r.db-shm").unlink()
    files = state(copy.parent)
    read_only(copy, "folder")
    try:
        r = run(as_user, copy, "history")
        assert state(copy.parent) == files
    finally:
        writable(copy)
    said = " ".join(r.stderr.split())
    assert r.returncode == 6, said
    assert f"the database {short(str(copy))} cannot be read here: its -wal file holds writes not yet in r.db" in said
    assert "copy r.db and r.db-wal together into a folder you can write" in said


def test_a_read_only_record_of_an_older_schema_says_it_must_be_upgraded_and_is_backed_up(as_user, tmp_path):
    old = tmp_path / "old" / "v1.db"
    old.parent.mkdir()
    shutil.copy(Path(__file__).resolve().parents[1] / "fixtures" / "schema_v1.db", old)
    copy = tmp_path / "copy.db"
    files = state(old.parent)
    read_only(old, "folder")
    try:
        r = run(as_user, old, "standings")
        backed = run(as_user, old, "backup", str(copy))
        assert state(old.parent) == files
    finally:
        writable(old)
    said = " ".join(r.stderr.split())
    assert r.returncode == 6, said
    assert "cannot be written: its folder" in said and "it was made by an older ref, at schema version 1" in said
    assert backed.returncode == 0, backed.stderr
    assert run((), copy, "verify").returncode == 0


@pytest.mark.parametrize("what", ["folder", "file"])
def test_the_night_resumed_on_a_read_only_record_is_refused_before_a_hand_is_asked(rec, as_user, what):
    """Audit output46 #7: ``ref night`` resumed the open night, asked for a whole hand and only at
    "Record it?" said that the record cannot be written (and exited 0). It is refused at the
    start, as every other write is (exit 6), with nothing asked and nothing written."""
    files = state(rec.parent)
    read_only(rec, what)
    try:
        r = subprocess.run([*as_user, sys.executable, "-m", "rummyref", "night"], input="points\n1\n2\n3\n\nquit\n",
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "RUMMYREF_DB": str(rec), "RUMMYREF_NOW": NOW})
        said = " ".join(r.stderr.split())
        assert r.returncode == 6, said
        assert f"error: the record {short(str(rec))} cannot be written: " \
               f"{WHY[what].format(short(str(rec.parent)))}; nothing was changed" in said
        assert "points" not in said.casefold() and "Record it?" not in said and r.stdout == ""
        assert state(rec.parent) == files
    finally:
        writable(rec)
    assert ref("verify").exit_code == 0
