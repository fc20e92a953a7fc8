"""``ref backup PATH``: a consistent copy of the record, even while another terminal writes.

SQLite's online backup API copies every page inside one read transaction (a WAL snapshot), so
the copy is the record as it stood at one instant: a hand being written at that moment is
either wholly in the copy or not at all. The copy is written next to PATH under a temporary
name, checked (``PRAGMA integrity_check`` and the checks of ``ref verify``), and only then
renamed to PATH: a crash during the backup never leaves a half copy under the real name.

A record of an older schema is copied as it is, at its own schema, and left as it is (it is
not upgraded first: the backup is the copy to keep before a new ref upgrades it). Its copy is
checked by upgrading a scratch copy of it in a temporary folder and verifying that (every hash
of its chains recomputed), the way ``ref import`` checks an old export.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rummyref.errors import IntegrityError, RuleRefusal, StorageError, WriteConflict
from rummyref.store.engine import BUSY_TIMEOUT_MS, _must_be_record, make_engine, migrate, opened, probe
from rummyref.store.location import destination_check, discard_stale_partials, file_of, is_postgres, resolve, short
from rummyref.store.migrations import LATEST
from rummyref.store.readonly import file_uri, on_read_only_disk, read_only, unchanged


@dataclass(frozen=True)
class BackupMade:
    source: str
    path: str
    bytes: int
    games: int
    entries: int


def backup(db: str | None, dest: Path, overwrite: bool = False) -> BackupMade:
    url = resolve(db)
    source = file_of(url)
    if source is None and is_postgres(url):
        raise StorageError("ref backup copies a SQLite file; a record on a PostgreSQL server is backed up by the server",
                           hint="pg_dump the database, or ref export -o FILE (ref import reads it back)")
    if source is None:
        raise StorageError("only a database file can be backed up", hint="--db PATH of a SQLite file")
    dest = destination_check(db, dest, overwrite, "ref backup")
    found = probe(source)
    _must_be_record(source, found)  # missing (5), not a record (6), schema changed by hand (8): untouched
    if _version(source) >= LATEST:
        with opened(db):  # the record opens (a newer ref's is refused, untouched)
            pass
    # an older record is copied as found, not upgraded first: the copy made before a new
    # ref's first upgrade is the old release's own file
    partial = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    discard_stale_partials(dest)  # the copies of a backup killed before this one
    try:
        _copy(source, partial, dest)
        try:
            games, entries = _check(partial) if _version(partial) >= LATEST else _check_older(partial)
        except sqlite3.DatabaseError as exc:  # the copy of a damaged file is damaged: so is the record
            from rummyref.store.engine import damaged

            raise damaged(f"SQLite: {exc}; {short(str(source))} was copied and checked, and the copy "
                          "was not kept") from None
        _seal(partial)
        _place(partial, dest, overwrite)
    finally:
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)
    return BackupMade(str(source), str(dest), dest.stat().st_size, games, entries)


def _place(partial: Path, dest: Path, overwrite: bool) -> None:
    """Rename the checked copy to ``dest``; without ``overwrite`` by a hard link, which
    refuses a file that appeared at ``dest`` since it was checked."""
    try:
        if overwrite:
            os.replace(partial, dest)
            return
        try:
            os.link(partial, dest)
        except FileExistsError:
            raise RuleRefusal(f"{dest} already exists; nothing was written",
                              hint="choose a new name, or --overwrite to replace it") from None
        except OSError:  # a file system without hard links
            if dest.exists():
                raise RuleRefusal(f"{dest} already exists; nothing was written",
                                  hint="choose a new name, or --overwrite to replace it") from None
            os.replace(partial, dest)
    except OSError as exc:
        raise StorageError(f"cannot write the backup to {dest}: {exc.strerror or exc}") from None


def _copy(source: Path, partial: Path, dest: Path) -> None:
    ro = read_only(source)  # a record this user cannot write: read without a byte written beside it
    try:
        src = sqlite3.connect(ro.uri(source) if ro else source, uri=ro is not None, timeout=BUSY_TIMEOUT_MS / 1000)
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # pages=-1: every page in one step, one consistent snapshot
        finally:
            dst.close()
            src.close()
        if ro is not None and not unchanged(source, ro):
            raise WriteConflict("another program wrote to the record while ref copied it; nothing was written",
                                hint="run the command again")
    except sqlite3.Error as exc:
        raise StorageError(f"cannot write the backup to {short(str(dest))}: {_cause(exc, dest)}; nothing was "
                           "written there", hint="check that its folder can be written and the disk has room") from None
    except OSError as exc:
        raise StorageError(f"cannot write the backup to {short(str(dest))}: {exc.strerror or exc}") from None


def _cause(exc: sqlite3.Error, dest: Path) -> str:
    """What SQLite's words mean at the backup's path ("unable to open database file": the folder
    cannot be written, most often)."""
    said = str(exc)
    if "unable to open" in said and not os.access(dest.parent, os.W_OK):
        if on_read_only_disk(dest.parent):
            return "its folder is on a read-only disk"
        return "its folder cannot be written (permission denied)"
    if "disk is full" in said:
        return "no space left on the device"
    return f"SQLite: {said}"


def _seal(path: Path) -> None:
    """Make the checked copy one self-contained file, flushed to the disk."""
    try:
        con = sqlite3.connect(path)
        try:
            con.execute("PRAGMA journal_mode = DELETE")
        finally:
            con.close()
        with open(path, "rb+") as fh:
            os.fsync(fh.fileno())
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(f"cannot write the backup: {exc}") from None


def _check(path: Path) -> tuple[int, int]:
    from rummyref.store import views
    from rummyref.store.record import reading

    con = sqlite3.connect(path)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()
    if ok != "ok":
        raise IntegrityError(f"the copy failed SQLite's integrity check ({ok}); it was not kept")
    with reading(str(path)) as rec:
        report = views.verify(rec)
    if not report.ok:
        p = report.problems[0]
        raise IntegrityError(
            f"the record does not verify ({p.game}, {p.where}: {p.what}); the copy was not kept",
            hint="ref verify shows every problem",
        )
    return report.games, report.entries


def _version(path: Path) -> int:
    """The schema version in the file's ``meta`` (read only; 0 if there is none)."""
    ro = read_only(path)  # a record this user cannot write: nothing made beside it (immutable)
    try:
        con = sqlite3.connect(ro.uri(path) if ro else f"{file_uri(path)}?mode=ro", uri=True,
                              timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise StorageError(f"cannot read the record's schema version: {exc}; nothing was written") from None
    return int(row[0]) if row is not None and str(row[0]).isdigit() else 0


def _check_older(path: Path) -> tuple[int, int]:
    """Check a copy of an older schema without changing it: SQLite's integrity check on it,
    then ``ref verify``'s checks on an upgraded scratch copy of it. Its own games and entries."""
    con = sqlite3.connect(path)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        games = con.execute("SELECT COUNT(*) FROM game").fetchone()[0]
        entries = con.execute("SELECT COUNT(*) FROM entry").fetchone()[0]
    finally:
        con.close()
    if ok != "ok":
        raise IntegrityError(f"the copy failed SQLite's integrity check ({ok}); it was not kept")
    with tempfile.TemporaryDirectory(prefix="ref-backup-") as folder:
        scratch = Path(folder) / "scratch.db"
        shutil.copyfile(path, scratch)
        engine = make_engine(str(scratch))
        try:
            migrate(engine)
        finally:
            engine.dispose()
        _check(scratch)
    return int(games), int(entries)
