"""The thin CLI: each command parses, calls the core or the store, and renders.

Command modules must not import the store (sqlmodel) at module level: commands
that need no database must not pay for it (see tests/cli/test_imports.py).

:func:`main` is the ``ref`` entry point. It answers ``ref --version`` before typer
is even imported (typer alone is most of a start-up); everything else runs the app
of :mod:`rummyref.cli.app`, which loads only the module of the command given.
"""

from __future__ import annotations

import errno
import io
import os
import sys

from rummyref import __version__


def version_line() -> str:
    return f"ref (rummyref) {__version__}"


#: what a terminal that cannot show a character gets instead (``7S`` for ``7♠``); ref's own
#: drawing, the lines of a frame or a table and the blocks of a bar, is drawn in ASCII one
#: character for one (:func:`_drawn`); any other character it cannot show is written as an
#: escape (``Jos\xe9``), never an error
_PLAIN = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C", "…": "...",
          "–": "-", "—": "-", "−": "-", "×": "x", "→": "->", "←": "<-", "≤": "<=", "≥": ">=", "·": "."}
_ASCII = {"ascii", "us-ascii", "ansi_x3.4-1968", "646"}
#: what is tried on each stream: a suit, a letter of a name, ``…``, a frame's line and a bar's blocks
_PROBE = "♠é…─█░"


def _drawn(c: str) -> str | None:
    """A character of a drawing in ASCII, as wide as it: the box lines of the chart's frame and
    of a table (``-``, ``|``, ``+`` where lines meet), the blocks of the standings' progress bar
    (``#`` filled, ``.`` light). None for any other character."""
    import unicodedata

    if "\u2500" <= c <= "\u257f":  # box drawing
        words = set(unicodedata.name(c, "").split())
        if "DIAGONAL" in words:
            return "X" if "CROSS" in words else ("/" if "UPPER RIGHT" in unicodedata.name(c) else "\\")
        across = words & {"LEFT", "RIGHT", "HORIZONTAL"}
        down = words & {"UP", "DOWN", "VERTICAL"}
        return "+" if across and down else ("-" if across else "|")
    if "\u2580" <= c <= "\u259f":  # block elements: the light shade is the bar's empty part
        return "." if c == "░" else ("%" if c == "▒" else "#")
    return None


def _plainly(exc: UnicodeError) -> tuple[str, int]:
    assert isinstance(exc, UnicodeEncodeError)
    return _instead(exc.object[exc.start:exc.end]), exc.end


def _instead(text: str) -> str:
    """What a terminal that cannot show ``text``'s characters gets instead (:data:`_PLAIN`, a
    drawing's ASCII, else an escape)."""
    return "".join(_PLAIN.get(c) or _drawn(c) or c.encode("ascii", "backslashreplace").decode("ascii")
                   for c in text)


def as_written(text: str, encoding: str) -> str:
    """``text`` as a stream of ``encoding`` writes it (see :func:`fit_streams`): itself where
    every character can be shown, else each one that cannot replaced as :func:`_plainly`
    does. A table or a line is measured in this form, so that it keeps its columns."""
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return "".join(c if _encodes(c, encoding) else _instead(c) for c in text)
    except LookupError:
        pass
    return text


def _encodes(c: str, encoding: str) -> bool:
    try:
        c.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


#: the codesets a locale named C or POSIX may state (``C``, ``POSIX``, ``C.ascii``): ASCII
_C_CODESETS = {"", "ascii", "us-ascii", "ansi_x3.4-1968", "646"}
#: what Python writes in ``LC_CTYPE`` when it coerces a C locale (PEP 538): not the user's word
_COERCED = {"C.UTF-8", "C.utf8", "UTF-8"}


def ascii_locale() -> bool:
    """Whether the user's locale says the terminal shows ASCII only: ``LC_ALL``, else
    ``LC_CTYPE``, else ``LANG`` (the first one set) names the C or POSIX locale. Python turns on
    its UTF-8 mode in that locale (PEP 540), so stdout's encoding alone reads UTF-8. A user who
    asks for an encoding (``PYTHONIOENCODING``, ``PYTHONUTF8``, ``-X utf8``) gets it; no locale
    set at all is not the user's word, and stays as Python has it (UTF-8)."""
    env = os.environ
    if env.get("PYTHONIOENCODING") or env.get("PYTHONUTF8") or "utf8" in sys._xoptions:
        return False
    if not sys.flags.utf8_mode:  # the locale's own encoding is the streams' (tried in fit_streams)
        return False
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name)
        if name == "LC_CTYPE" and value in _COERCED:
            value = _as_started("LC_CTYPE")
        if not value:
            continue
        base, _, codeset = value.partition("@")[0].partition(".")
        return base in ("C", "POSIX") and codeset.lower() in _C_CODESETS
    return False


def _as_started(name: str) -> str | None:
    """A variable as the process was started with it, before Python's locale coercion rewrote
    it (``LC_CTYPE=C`` reads ``C.UTF-8`` in :data:`os.environ`): Linux keeps the first
    environment in ``/proc/self/environ``. None where it was not set or cannot be read."""
    try:
        with open("/proc/self/environ", "rb") as f:
            first = f.read()
    except OSError:
        return None
    key = name.encode() + b"="
    for entry in first.split(b"\0"):
        if entry.startswith(key):
            return entry[len(key):].decode("ascii", "replace")
    return None


def fit_streams() -> None:
    """A terminal whose encoding cannot show every character (``LC_ALL=C``,
    ``PYTHONIOENCODING=ascii``): output gets what it can show (:data:`_PLAIN`, escapes), never
    an error after a hand was written; an ASCII stdin, and arguments the locale could not decode
    (``LC_ALL=C`` with ``PYTHONUTF8=0``), are read as UTF-8 where their bytes are UTF-8 (a name
    typed as José). In the C or POSIX locale (:func:`ascii_locale`) stdout and stderr are
    ASCII, whatever Python's UTF-8 mode made them."""
    import codecs

    plain = ascii_locale()
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            if plain and (stream.encoding or "").lower() not in _ASCII:
                codecs.register_error("rummyref-plain", _plainly)
                stream.reconfigure(encoding="ascii", errors="rummyref-plain")
                continue
            _PROBE.encode(stream.encoding or "utf-8")
        except UnicodeEncodeError:
            codecs.register_error("rummyref-plain", _plainly)
            stream.reconfigure(errors="rummyref-plain")
        except (AttributeError, LookupError, ValueError):  # not a text stream of the standard kind: as it is
            pass
    encoding = (getattr(sys.stdin, "encoding", None) or "").lower()
    if encoding in _ASCII and hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
    if any("\udc80" <= c <= "\udcff" for a in sys.argv for c in a):
        sys.argv = [_utf8(a) for a in sys.argv]


def _utf8(arg: str) -> str:
    try:
        return arg.encode(sys.getfilesystemencoding(), "surrogateescape").decode("utf-8")
    except UnicodeError:  # not UTF-8 either: as the locale read it (a name check refuses it)
        return arg


class _Closed(io.TextIOBase):
    """Standard output started closed (``ref standings >&-``, a daemon's descriptor): a write
    fails as a full disk's does, so the command ends with exit 6 saying so (what it wrote
    to the record stands), never with a traceback."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def isatty(self) -> bool:
        return False


def open_streams() -> None:
    """Standard output or error that the caller closed: output fails as it would on a full
    disk (:class:`_Closed`); messages go nowhere, and the command still ends with its own
    exit code (its data still on stdout)."""
    if sys.stdout is None:
        sys.stdout = _Closed()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the process's life


def main() -> None:
    """Console-script entry point (and ``python -m rummyref``)."""
    open_streams()
    if sys.argv[1:] == ["--version"] and "_REF_COMPLETE" not in os.environ:
        try:
            print(version_line())
        except OSError as exc:  # stdout closed or full: said as every command says it
            print(f"error: the output cannot be written: {exc.strerror or exc}", file=sys.stderr)
            sys.exit(6)
        return
    fit_streams()
    import signal

    if hasattr(signal, "SIGPIPE"):  # ``ref ... | head``: end as a shell tool does when the reader
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # stops (exit 141), no error; a write stands
    from rummyref.cli.app import main as run_app

    run_app()
