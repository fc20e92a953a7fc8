"""Where the record lives: ``--db PATH|URL``, else ``$RUMMYREF_DB``, else the user data directory.

A path is a SQLite file; a URL is given to SQLAlchemy as it is, except that ``postgresql://``
and ``postgres://`` mean the psycopg 3 driver (the ``postgres`` extra), not SQLAlchemy's
default psycopg2, and that a password holding an unencoded ``@`` is encoded for it.

Also here, because every message that shows a database must go through them: :func:`shown`
(the URL with its password masked, in every form it can be written) and :func:`redact`
(the same for any text, e.g. a driver's error), and :func:`destination_check`, which keeps
``ref export -o`` and ``ref backup`` off the record's own files.

No SQLAlchemy here: the CLI calls these without loading the store.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from urllib.parse import quote, unquote

from rummyref.errors import RuleRefusal, StorageError, UnreadableInput

ENV = "RUMMYREF_DB"
PG_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
SQLITE_SCHEMES = ("sqlite://", "sqlite+pysqlite://")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
SPEC_MAX = 4096  #: characters of a --db path or URL (Linux's PATH_MAX)
MASK = "***"
COMPANIONS = ("-wal", "-shm", "-journal")  #: the files SQLite keeps beside a database


def resolve(db: str | None, follow: bool = True) -> str:
    """The SQLAlchemy URL of the database to use. A file's path that is a symbolic link is
    followed to the file it points at (``follow=False``: the path as given), so that every
    command reads, writes and starts the record in the link's target, never beside it or in
    place of the link."""
    spec, source = (db, "--db") if db else (os.environ.get(ENV) or "", f"${ENV}")
    if not spec:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("rummyref", appauthor=False))
        spec, source = str(folder / "rummyref.db"), "the default database path"
    _check_spec(spec, source)
    scheme = _SCHEME.match(spec)
    if scheme:  # a URL's scheme is read in any case (RFC 3986): POSTGRESQL:// is postgresql://
        spec = scheme.group(1).lower() + spec[scheme.end(1):]
    if is_postgres(spec):
        _must_be_utf8(spec, source)
        return "postgresql+psycopg://" + _encoded_userinfo(spec.split("://", 1)[1])
    if scheme:
        driver = _OTHER_DRIVER.match(spec)
        if driver:
            raise StorageError(
                f"cannot use the database {escaped(shown(spec))}: {driver.group(0)} is PostgreSQL through "
                f"another driver ({driver.group(1)}); ref talks to PostgreSQL through psycopg 3",
                hint="begin the URL with postgresql:// instead (the rest as it is); the driver is the "
                     "PostgreSQL extra: pip install 'rummyref[postgres]'",
            )
        if not spec.startswith(SQLITE_SCHEMES):
            raise StorageError(
                f"cannot use the database {shown(spec)}: ref keeps its record in a SQLite file or on a "
                f"PostgreSQL server, and {scheme.group(1).lower()}:// is neither",
                hint="give a file's path (or sqlite:///PATH), or a postgresql://user@host/db URL",
            )
        spec = "sqlite://" + spec.split("://", 1)[1]
        path = file_of(spec)
        if path is None:
            raise UnreadableInput(f"{source} names an in-memory database ({short(spec)}), which keeps nothing "
                                  "once ref exits", hint="give the path of a file (or sqlite:///PATH)")
        if follow and path.is_symlink():
            query = spec.split("?", 1)[1:]
            spec = "sqlite:///" + str(_through_link(path)) + "".join("?" + q for q in query)
        return spec
    try:
        path = Path(spec).expanduser().absolute()
    except (OSError, RuntimeError) as exc:  # no current folder, an unknown ~user
        raise StorageError(f"cannot use the database path {short(spec)}: {exc}") from None
    return "sqlite:///" + str(_through_link(path) if follow else path)


def _through_link(path: Path) -> Path:
    """The file a symbolic link at ``path`` points at (made there if it is not yet: a link
    made ahead, e.g. into a synced folder); ``path`` itself if it is no link, or a loop
    (refused when it is read). A link into a folder that does not exist is refused (exit 6):
    ref creates a missing folder of the path it is given, not of a link's target."""
    try:
        if not path.is_symlink():
            return path
        target = Path(os.path.realpath(path))
        if target.is_symlink() or not target.is_absolute():  # a loop: probe() names it
            return path
        if not target.parent.is_dir():
            raise StorageError(f"{short(str(path))} is a symbolic link to {short(str(target))}, whose folder "
                               "does not exist; nothing was written",
                               hint="create that folder, or point the link (or --db / $RUMMYREF_DB) elsewhere")
    except OSError as exc:
        raise StorageError(f"cannot use the database path {short(str(path))}: {exc.strerror or exc}") from None
    return target


def same_record(a: str, b: str) -> bool:
    """Whether two ``--db`` values name the same record: the same file however the path is
    written (``./r.db``, ``/tmp/x/r.db``, a symlink), or the same URL once normalised
    (``postgres://`` is ``postgresql://``)."""
    if a == b:
        return True
    url_a, url_b = resolve(a), resolve(b)
    if url_a == url_b:
        return True
    file_a, file_b = file_of(url_a), file_of(url_b)
    if file_a is None or file_b is None:
        return False
    if file_a.exists() and file_b.exists():
        return os.path.samefile(file_a, file_b)
    return _real(file_a) == _real(file_b)


def _check_spec(spec: str, source: str) -> None:
    """A path or URL no file system or server could take is bad input, said before any use."""
    if "\x00" in spec:
        raise UnreadableInput(f"{source} holds a NUL character, which no file name or URL may contain",
                              hint="check --db / $RUMMYREF_DB")
    if len(spec) > SPEC_MAX:
        raise UnreadableInput(f"{source} is {len(spec):,} characters long; a database path or URL "
                              f"is at most {SPEC_MAX:,}", hint="check --db / $RUMMYREF_DB")


#: PostgreSQL named with a driver ref does not use (``postgresql+psycopg2://``, ``postgres+asyncpg://``)
_OTHER_DRIVER = re.compile(r"postgres(?:ql)?\+([A-Za-z0-9_.-]+)://")


def _must_be_utf8(spec: str, source: str) -> None:
    """A PostgreSQL URL holding bytes that are not UTF-8 (``--db $'postgresql://h/d\\xff'``:
    Python holds each such byte as a lone surrogate) cannot be given to a server: refused
    (exit 3), the value escaped and its password masked."""
    def stray(text: str) -> bool:
        return any("\udc80" <= c <= "\udcff" for c in text)

    if stray(spec):
        masked = shown(spec)
        where = "" if stray(masked) else " in its password"
        raise UnreadableInput(f"{source} is a PostgreSQL URL holding bytes that are not UTF-8{where} "
                              f"({short(repr(masked), 100)}), which no server can be given",
                              hint="write the URL in UTF-8 (a terminal or a script set to another encoding "
                                   "sends other bytes); check --db / $RUMMYREF_DB")


def escaped(text: str) -> str:
    """``text`` with each control character (a line feed in a URL) and each lone surrogate (a
    byte that was not UTF-8) escaped as Python writes it (``\\n``, ``\\udcff``): a message
    stays one line, and shows what was there."""
    return "".join(c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   if (c < " " or c == "\x7f" or "\ud800" <= c <= "\udfff") else c for c in text)


def is_postgres(url: str) -> bool:
    return url.startswith(PG_SCHEMES)


def file_of(url: str) -> Path | None:
    """The file behind a sqlite URL (None for in-memory)."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):].split("?", 1)[0]
        return Path(path) if path and path != ":memory:" else None
    return None


def short(text: str, keep: int = 60) -> str:
    """A path cut to fit a message line: its start and its end."""
    return text if len(text) <= keep else f"{text[:keep // 2 - 2]}...{text[-(keep // 2 - 1):]}"


# -- passwords ------------------------------------------------------------------------------

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]*")
#: ``password=VALUE`` inside a URL known whole: the value runs to the next ``&name=`` or the end
_QUERY_PASSWORD = re.compile(r"(?i)([?&]password=)(.*?)(?=&[A-Za-z_]+=|$)", re.DOTALL)
#: ``password=VALUE`` in a query string or a libpq connection string; the value runs to the
#: next ``&name=`` (a password may hold a bare ``&``), a blank or a quote
_PASSWORD_PARAM = re.compile(r"(?i)(\bpassword=)(.*?)(?=&[A-Za-z_]+=|[\s'\"]|$)")


_HOST = re.compile(r"(?:\[[0-9A-Fa-f:.]*\]|[A-Za-z0-9._~%-]*)(?::[0-9]*)?(?=[/?#]|$)")


def _userinfo(rest: str) -> tuple[str, str] | None:
    """``(userinfo, host and the rest)`` of what follows ``scheme://``, or None without one.

    A password may hold an unencoded ``@`` (or ``?``): the host is taken to begin after the
    last ``@`` that is followed by something shaped like a host (and port), then the path,
    the query or the end."""
    for at in (i for i in range(len(rest) - 1, -1, -1) if rest[i] == "@"):
        if _HOST.match(rest, at + 1):
            return rest[:at], rest[at + 1:]
    return None


def _any_userinfo(rest: str) -> tuple[str, str] | None:
    """As :func:`_userinfo`, and for a URL no parser takes (a port that is not a number, an
    unclosed ``[``, libpq's ``h1:5432,h2:5432``): then the userinfo runs to the last ``@``
    before the first blank. Used to mask: masking too much is harmless, too little is not."""
    parts = _userinfo(rest)
    if parts is None and "@" in rest:
        at = rest.rfind("@")
        parts = rest[:at], rest[at + 1:]
    return parts


def _encoded_userinfo(rest: str) -> str:
    """``user:p@ss@host/db`` -> ``user:p%40ss@host/db``: SQLAlchemy splits at the first ``@``
    and would take ``ss@host`` for the host (and print part of the password in its error);
    a ``?`` in a password would cut it short the same way. Already encoded text stays as it
    is. A userinfo holding a ``/`` is left alone: the ``@`` may as well be in the query (a
    password with a ``/`` must be written %2F)."""
    parts = _userinfo(rest)
    if parts is None or "/" in parts[0]:
        return rest
    user, colon, password = parts[0].partition(":")
    encoded = _quoted(user) + (colon + _quoted(password) if colon else "")
    return f"{encoded}@{parts[1]}"


def _quoted(text: str) -> str:
    """``text`` decoded, then percent-encoded whole (a byte that was not UTF-8, held as a lone
    surrogate, as its own ``%XX``: never an error)."""
    return quote(unquote(text, errors="surrogateescape"), safe="", errors="surrogateescape")


def _mask_url(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    parts = _any_userinfo(rest) if sep else None
    if parts is not None and ":" in parts[0]:
        rest = f"{parts[0].split(':', 1)[0]}:{MASK}@{parts[1]}"
    return _QUERY_PASSWORD.sub(rf"\g<1>{MASK}", f"{scheme}{sep}{rest}")


def secrets(url: str) -> set[str]:
    """Every spelling of the password(s) in ``url``: as written, decoded and encoded."""
    found: set[str] = set()
    rest = url.partition("://")[2]
    parts = _any_userinfo(rest)
    if parts is not None and ":" in parts[0]:
        found.add(parts[0].split(":", 1)[1])
    found.update(m.group(2) for m in _QUERY_PASSWORD.finditer(url))
    spelled = {s for raw in found for s in (raw, unquote(raw), _quoted(raw))}
    return {s for s in spelled if len(s) >= 3}  # a shorter one would mask letters of every word


def shown(url: str) -> str:
    """The URL as it may be printed: no password, in any of its forms."""
    masked = _mask_url(url.replace("postgresql+psycopg://", "postgresql://"))
    for secret in sorted(secrets(url), key=len, reverse=True):
        masked = masked.replace(secret, MASK)
    return masked


def redact(text: str, url: str | None = None) -> str:
    """``text`` with the password of every URL and every ``password=`` in it masked; given
    the ``url`` in use, also every spelling of its password wherever it appears (a driver's
    error may quote a piece of it)."""
    text = _URL.sub(lambda m: _mask_url(m.group(0)), text)
    text = _PASSWORD_PARAM.sub(rf"\g<1>{MASK}", text)
    for secret in sorted(secrets(url) if url else (), key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


# -- files ref writes beside the record ------------------------------------------------------


def destination_check(db: str | None, dest: Path, overwrite: bool, command: str,
                      example: str = "rummyref-copy") -> Path:
    """The absolute path ``command`` (``ref export -o``, ``ref backup``) may write to;
    ``example``: a file name the command would write, for the hint when a folder is given.

    Refused (exit 4, nothing written): the record itself or one of its -wal/-shm/-journal
    files, however spelled (a symlink -- of the destination or of ``--db`` --, a hard link,
    ``..``, another case), always; a special file (a named pipe, a device, a socket), always:
    it is not a file to put a copy in place of; any other existing file unless ``overwrite``.
    A destination that is a symbolic link is written through (with ``overwrite``): the path
    returned is the link's target, which the copy replaces, and the link is kept."""
    _check_spec(str(dest), command)
    dest = dest.expanduser().absolute()
    try:
        if dest.is_dir():
            raise UnreadableInput(f"{short(str(dest))} is a folder",
                                  hint=f"give the path of a file, e.g. FOLDER/{example}")
        exists = dest.exists() or dest.is_symlink()
        sources = [file_of(resolve(db, follow=False)), file_of(resolve(db))]
        if any(s is not None and _is_record_file(dest, s.absolute()) for s in sources):
            raise RuleRefusal(f"{short(str(dest))} is the record itself (or one of its files); "
                              "nothing was written", hint=f"{command} never writes onto the record: choose another path")
        special = _special(dest)
        if special:
            raise RuleRefusal(f"{short(str(dest))} is {special}, not a regular file; {command} writes a new "
                              "file and puts it in place whole, and never replaces one; nothing was written",
                              hint=_SPECIAL_HINT.get(command, "give the path of a regular file"))
        if exists and not overwrite:
            raise RuleRefusal(f"{short(str(dest))} already exists; nothing was written",
                              hint="choose a new name, or --overwrite to replace it")
        if dest.is_symlink():  # write through the link: its target is replaced, the link kept
            target = Path(os.path.realpath(dest))
            if not target.parent.is_dir():
                raise UnreadableInput(f"{short(str(dest))} is a symbolic link into a folder that does not exist "
                                      f"({short(str(target.parent))})", hint="create it first, or choose another path")
            return target
        if not dest.parent.is_dir():
            raise UnreadableInput(f"there is no folder {short(str(dest.parent))}", hint="create it first")
    except OSError as exc:
        raise StorageError(f"cannot use {short(str(dest))}: {exc.strerror or exc}") from None
    return dest


_SPECIAL_HINT = {"ref export -o": "leave -o out: ref export writes to stdout (ref export > PIPE)",
                 "ref backup": "give the path of a regular file (a new one, or one to replace with --overwrite)"}


def _special(path: Path) -> str:
    """What a file that is there but not a regular file (after symbolic links) is; "" for a
    regular file, a folder, or nothing (a dangling link)."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return ""
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a loop of symbolic links"
        raise
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return ""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _is_record_file(dest: Path, source: Path) -> bool:
    names = [source] + [source.with_name(source.name + s) for s in COMPANIONS]
    for name in names:
        if dest.exists() and name.exists() and os.path.samefile(dest, name):
            return True
    # a file not there yet (a -wal between two commands), spelled through the folder's links
    # and through the destination's own link (SQLite names the -wal after the resolved file)
    spelled = {_real(dest).casefold(), os.path.realpath(dest).casefold()}
    return any(_real(name).casefold() in spelled or os.path.realpath(name).casefold() in spelled for name in names)


def _real(path: Path) -> str:
    """The path with its folder's symlinks and ``..`` resolved (the file itself need not exist)."""
    return str(path.parent.resolve() / path.name)


_PARTIAL = re.compile(r"\..+\.partial-([0-9]+)(-wal|-shm|-journal)?")


def discard_stale_partials(dest: Path) -> None:
    """The temporary copies that a ``ref backup`` or ``ref export -o`` killed while it wrote
    (``.NAME.partial-PID`` and its -wal, -shm, -journal) left in ``dest``'s folder, when that
    process is gone: removed before the next copy is made there (to any name: a killed backup
    to a dated name is never made again)."""
    try:
        names = [p.name for p in dest.parent.iterdir() if ".partial-" in p.name]
    except OSError:
        return
    for name in names:
        match = _PARTIAL.fullmatch(name)
        if match is None:
            continue
        pid = int(match.group(1))
        if pid == os.getpid() or _running(pid):
            continue
        try:
            dest.with_name(name).unlink(missing_ok=True)
        except OSError:
            pass


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it exists
        return True
    return True
