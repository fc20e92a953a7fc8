"""Reading the product's TOML data files (rule sets, rulebooks): one place for the errors."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from rummyref.errors import NotFound, RulesetError
from rummyref.rules.resources import data_dir

#: The largest data file read (a built-in rulebook is about 32 KB, a rule set 3 KB): a path
#: that is no file (``/dev/zero``, a FIFO) or a huge one is refused before anything is read.
FILE_MAX = 1 << 20
#: Characters of a path a message shows whole; a longer one is shown by its start and its end.
PATH_SHOWN = 120
_BOM = "\ufeff"  #: a UTF-8 byte-order mark, as Windows Notepad starts a file: read past


def locate(kind: str, spec: str, builtin: tuple[str, ...]) -> Path:
    """The file for ``spec``: a built-in name under ``data/<kind>s/`` or a path to a .toml file."""
    if spec in builtin:
        return data_dir() / f"{kind.replace(' ', '')}s" / f"{spec}.toml"
    path = Path(spec)
    if spec.endswith(".toml") or "/" in spec or "\\" in spec or _exists(path):
        return path
    raise NotFound(
        f"no {kind} named {spec[:60]!r}" + ("..." if len(spec) > 60 else ""),
        hint=f"built-in {kind}s: {', '.join(builtin)}; or give the path of a .toml file",
    )


def _exists(path: Path) -> bool:
    """A name no file system could hold (too long, a NUL) is simply no file."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def shown_path(path: str | Path) -> str:
    """A data file's path as a message shows it: each character that would break the line or
    reach the terminal as a command escaped (``\\x1b``, ``\\udcff`` for a byte that was not
    UTF-8), and a path over :data:`PATH_SHOWN` characters cut to its start and its end."""
    from rummyref.names import printable

    text = str(path)
    escaped = printable(text, most=len(text))
    if len(escaped) <= PATH_SHOWN:
        return escaped
    half = (PATH_SHOWN - 3) // 2
    return f"{escaped[:half]}...{escaped[-half:]} ({len(text):,} characters)"


def _kind_of_file(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_text(path: Path, kind: str) -> str:
    """A data file's text, a UTF-8 byte-order mark read past. Refused (exit 3, naming the file
    as :func:`shown_path` shows it) before anything is read: what is no regular file (a folder,
    a device such as ``/dev/zero``, a FIFO) or is over :data:`FILE_MAX` bytes; a missing file
    is NOT_FOUND (exit 5)."""
    where = shown_path(path)
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer (regular files ignore it)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise NotFound(f"{kind} file not found: {where}") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise RulesetError(f"{where}: cannot read the {kind} file ({why})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RulesetError(f"{where}: {_kind_of_file(st.st_mode)}, not a {kind} file",
                               hint=f"give the path of a {kind} file (.toml)")
        too_big = RulesetError(f"{where}: over {FILE_MAX:,} bytes (1 MiB), the most a {kind} file may be",
                               hint="a built-in file is a few kilobytes: is this the file meant?")
        if st.st_size > FILE_MAX:
            raise too_big
        data = b""
        while len(data) <= FILE_MAX:
            chunk = os.read(fd, FILE_MAX + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as exc:
        raise RulesetError(f"{where}: cannot read the {kind} file ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(data) > FILE_MAX:  # it grew after it was looked at
        raise too_big
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError(f"{where}: cannot read the {kind} file ({exc})") from None
    return text[1:] if text.startswith(_BOM) else text


def read_toml(path: Path, kind: str) -> dict[str, Any]:
    """Parse a data file; a missing file is NOT_FOUND, an unreadable one names the file."""
    return parse_toml(read_text(path, kind), path)


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    """``text`` (read from ``path``) parsed; not TOML: exit 3, naming the file."""
    import tomllib  # here, not at the top: ``ref ruling`` with a cached index parses no TOML

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{shown_path(path)}: not valid TOML ({exc})") from None
