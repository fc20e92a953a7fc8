"""A SQLite record this user cannot write (its file, its folder or its disk is read-only): read
without a byte written to it or beside it, and every write refused before it begins (exit 6),
saying why. No SQLAlchemy here: ``ref ruling`` and the name completion read this way too.

How such a record is opened, and why (SQLite's rules for a WAL database it may not write:
https://sqlite.org/wal.html#readonly):

- Its ``-wal`` file holds pages (writes not yet moved into the file: a copy taken beside a
  running ref, a terminal killed mid-write): ``mode=ro``. Only SQLite's read of the ``-wal``,
  through the ``-shm`` index and its locks, sees those writes; ``immutable`` would ignore them
  and show the record as it was before them. ``mode=ro`` needs the ``-shm`` file: there
  already, or made by SQLite where the folder can be written. With neither (a file and its
  ``-wal`` alone in a read-only folder) nothing can read the record correctly: it is refused
  (exit 6), saying what to copy where (:func:`cannot_read`).
- Otherwise (no ``-wal``, or an empty one) every committed byte is in the file itself, and it
  is opened ``immutable=1``: no lock taken, no ``-wal`` or ``-shm`` opened, nothing made beside
  it. ``mode=ro`` will not do here: in a folder this user cannot write it fails (SQLite must
  make the ``-shm`` to read a WAL database), and in one it can, it makes the ``-wal`` and the
  ``-shm`` and, read-only, cannot remove them when it closes (they stayed beside the record).

``immutable`` is SQLite's word that nobody changes the file while it is read. This user cannot
(that is why it is read so), and a writer of a WAL record changes the file itself only when it
moves its ``-wal`` into it (a checkpoint). The promise is still checked, not taken on trust: the
file is looked at before the read and after it (:func:`unchanged`), and a read during which
another program (another user, root) wrote to the file is refused with exit 7 (run the command
again), never shown: it may be torn.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from rummyref.store.location import short

IMMUTABLE = "immutable=1"
READ_ONLY = "mode=ro"


@dataclass(frozen=True)
class ReadOnly:
    """How a record this user cannot write is opened (see the module's docstring)."""

    why: str  #: why it cannot be written: "its folder /x is read-only", ...
    query: str  #: :data:`IMMUTABLE` or :data:`READ_ONLY`, for the file's URI
    #: :data:`IMMUTABLE`: the file as it was before the read (:func:`unchanged` compares)
    before: tuple[int, ...] | None = None

    def uri(self, path: Path) -> str:
        return f"{file_uri(path)}?{self.query}"


def file_uri(path: Path) -> str:
    """The ``file:`` URI of ``path`` (any byte of its name quoted), without a query. The name
    is quoted as the bytes the file system holds (:func:`os.fsencode`): a name that is not
    UTF-8 (``r\\xff.db``, which Python holds as a lone surrogate) names that very file."""
    return f"file:{quote(os.fsencode(path.absolute()))}"


def unwritable(path: Path) -> str | None:
    """Why this user cannot write the SQLite record at ``path``, or None if it can: the file,
    or its folder (where SQLite makes the ``-wal`` and ``-shm`` files a write needs), is
    read-only to this user, or the disk is."""
    folder = path.parent
    if os.access(path, os.W_OK) and os.access(folder, os.W_OK):
        return None
    try:
        disk = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        disk = False
    if disk:
        return "it is on a read-only disk"
    if not os.access(path, os.W_OK):
        return "the file is read-only"
    return f"its folder {short(str(folder))} is read-only, and a write makes the record's -wal and -shm files there"


def on_read_only_disk(path: Path) -> bool:
    """Whether ``path`` (a file or folder that exists) is on a file system mounted read-only."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def read_only(path: Path) -> ReadOnly | None:
    """How to open the record at ``path`` if this user cannot write it; None if it can."""
    why = unwritable(path)
    if why is None:
        return None
    if _wal_size(path):
        return ReadOnly(why, READ_ONLY)
    return ReadOnly(why, IMMUTABLE, signature(path))


def cannot_read(path: Path) -> str | None:
    """Why SQLite cannot read the record at ``path`` at all: its ``-wal`` holds pages, and
    there is no ``-shm`` file to read them by, nor can one be made (a read-only folder). None:
    it can."""
    if not _wal_size(path) or path.with_name(path.name + "-shm").exists() or os.access(path.parent, os.W_OK):
        return None
    return (f"its -wal file holds writes not yet in {path.name}, and SQLite reads them only with a -shm "
            "file beside it, which it cannot make in a read-only folder")


def signature(path: Path) -> tuple[int, ...] | None:
    """What shows the file was written: its inode, size and time of last change of content."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def unchanged(path: Path, ro: ReadOnly) -> bool:
    """Was the file left as it was while it was read (always, for a ``mode=ro`` read, which
    SQLite's locks keep whole)?"""
    return ro.before is None or signature(path) == ro.before


def _wal_size(path: Path) -> int:
    try:
        return path.with_name(path.name + "-wal").stat().st_size
    except FileNotFoundError:
        return 0
    except OSError:
        return 1  # there, but not to be looked at: read through SQLite, which says what it finds
