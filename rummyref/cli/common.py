"""Shared pieces of the CLI: consoles, shared options, JSON output, error rendering."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NamedTuple, Optional

import typer
from rich.console import Console

from rummyref import names as _names
from rummyref.cli.completion import complete_game, complete_ruleset

MOST_CELLS = 10_000  #: the widest and tallest terminal believed (as ``ref chart --width``)
DEFAULT_CELLS = (80, 25)  #: the width and height taken when COLUMNS or LINES is 0 (no terminal: rich's own)

# Data goes to stdout, messages to stderr. Width follows COLUMNS (tests pin it).
# No emoji codes: a name or a note with ":smile:" in it prints as typed (and the
# emoji table, 2 ms to import, stays out of every start-up).
class _Stream:
    """Standard output or error as it is when written (tests swap them), each line's trailing
    blank dropped: rich keeps the space at which it wrapped a long line, at the end of the line."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def _file(self) -> Any:
        return getattr(sys, self.name)

    def write(self, text: str) -> int:
        return self._file.write(text.replace(" \n", "\n") if " \n" in text else text)

    def flush(self) -> None:
        self._file.flush()

    def isatty(self) -> bool:
        return self._file.isatty()

    def fileno(self) -> int:
        return self._file.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._file, "encoding", None) or "utf-8"


class _Console(Console):
    """A console of ref's: text printed as typed, never read as markup (a name like
    ``Cy [the kid]`` or a card list like ``[7S 8S]``), and each long player's name in its shown
    form (:func:`rummyref.names.in_text`), whatever line names it. A line naming a player
    whose name holds a blank is wrapped here (:func:`rummyref.wrap.fill`), which never breaks
    it inside the name, where rich would. ``NO_COLOR``: plain text, no styles at all (rich
    would drop the colours and keep the bold). ``COLUMNS`` and ``LINES`` are taken up to
    :data:`MOST_CELLS` (a chart is drawn to the width: ``COLUMNS=99999999999`` is no width),
    and 0 as no width at all: 80 columns and 25 lines, as a value that is not a number is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if os.environ.get("NO_COLOR"):
            kwargs["color_system"] = None
        super().__init__(*args, **kwargs)

    @property
    def size(self) -> Any:
        dims = Console.size.fget(self)  # type: ignore[attr-defined]
        if 0 < dims.width <= MOST_CELLS and 0 < dims.height <= MOST_CELLS:
            return dims
        # COLUMNS=0 (some CI runners, docker exec without a tty) would be a width of 0, on
        # which rich prints nothing at all, errors included: no width is the default width
        width = dims.width if dims.width > 0 else DEFAULT_CELLS[0]
        height = dims.height if dims.height > 0 else DEFAULT_CELLS[1]
        return type(dims)(min(width, MOST_CELLS), min(height, MOST_CELLS))

    @size.setter
    def size(self, new_size: Any) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]

    def as_written(self, text: str) -> str:
        """``text`` as this console's stream writes it: on a terminal that cannot show UTF-8,
        ``...`` for ``…``, ``S`` for ``♠``, ``Jos\\xe9`` for ``José`` (:func:`rummyref.cli.as_written`);
        a line or a table is measured in this form (:class:`rummyref.wrap.Grid`)."""
        from rummyref.cli import as_written

        return as_written(text, getattr(self.file, "encoding", None) or "utf-8") if text and not text.isascii() else text

    def print(self, *objects: Any, **kwargs: Any) -> None:
        from rummyref.names import in_text, kept_whole

        texts = [self.as_written(in_text(o)) if isinstance(o, str) else o for o in objects]
        wraps = not kwargs.get("soft_wrap", self.soft_wrap) and not kwargs.get("no_wrap")
        if wraps and len(texts) == 1 and isinstance(texts[0], str) and any(n in texts[0] for n in kept_whole()):
            from rummyref.wrap import fill

            texts, kwargs["soft_wrap"] = [fill(texts[0], self.width, split_words=True)], True
        super().print(*texts, **kwargs)


class _ErrConsole(_Console):
    """The console of stderr. rich meets a closed pipe by pointing *stdout* at /dev/null and
    exiting 1; here the writer is told (:func:`tell_error` keeps the error's own exit code)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more to a reader who has gone
        raise BrokenPipeError


out = _Console(file=_Stream("stdout"), markup=False, highlight=False, soft_wrap=False, emoji=False)
err = _ErrConsole(file=_Stream("stderr"), stderr=True, markup=False, highlight=False, emoji=False)
_names.write_with(out.as_written)  # a long name cut as the terminal writes it (ASCII where UTF-8 cannot be shown)

# -- shared options, declared once ------------------------------------------------------

JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout.")]
RulesetOption = Annotated[
    Optional[str],
    typer.Option(
        "--ruleset",
        "-r",
        metavar="NAME|PATH",
        help="Rule set: rummy-2m, simple-rummy, rummy-500, gin, or the path of a house's own .toml file.",
        autocompletion=complete_ruleset,
    ),
]
DbOption = Annotated[
    Optional[str],
    typer.Option(
        "--db",
        metavar="PATH|URL",
        help="Database file or URL (default: $RUMMYREF_DB, else the user data directory).",
        show_default=False,
    ),
]
GameOption = Annotated[
    Optional[str],
    typer.Option("--game", "-g", metavar="NAME", autocompletion=complete_game,
                 help="Game name (default: the one with a session open; with several, the one whose roster has "
                      "the names given; else the one played last)."),
]


# ``ref --db X COMMAND``: the root option, used when the command's own --db is not given.
ROOT_OPTIONS: dict[str, Any] = {"db": None}


def db_choice(db: Optional[str]) -> Optional[str]:
    """The database chosen on the command line: the command's --db, else the root's --db
    (else None: $RUMMYREF_DB, then the user data directory, decided by the store). Two different
    records, one before the command and one after it, are refused (exit 3): neither is dropped.
    The same record written two ways (``/tmp/x/r.db`` and ``./r.db``) is one record."""
    root = ROOT_OPTIONS["db"]
    if db == "" or root == "":  # --db "$UNSET": never the main record by default
        from rummyref.errors import UnreadableInput

        raise UnreadableInput("--db was given empty: it names no record",
                              hint="give the record's path or URL, or leave --db out ($RUMMYREF_DB, else the "
                                   "default record)")
    if db and root and db != root:
        from rummyref.errors import UnreadableInput
        from rummyref.store.location import same_record, shown

        if not same_record(root, db):
            raise UnreadableInput(f"--db was given twice: {shown(root)} before the command and {shown(db)} "
                                  f"after it", hint="give --db once")
    return db or root


def print_json(data: Any) -> None:
    """Write one JSON document to stdout (UTF-8, no ASCII escaping; ``\\u00e9`` escapes where
    stdout cannot show a character, as in ``LC_ALL=C``: the same JSON either way)."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, ensure_ascii=True, indent=2)
    except LookupError:
        pass
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def say(message: str) -> None:
    """A message for the human (stderr), never data."""
    err.print(message, markup=False)


def show_error(exc: Any) -> None:
    """A :class:`RummyrefError` as every command shows it: ``refused (RULE): ...`` or
    ``error: ...`` on stderr, then the hint (``RefGroup`` and ``ref night`` share it)."""
    from rummyref.errors import ExitCode
    from rummyref.store.location import redact  # no password is ever shown, whatever raised

    rule = getattr(exc, "rule", None)
    prefix = f"refused ({rule}): " if rule else ("refused: " if exc.exit_code == ExitCode.REFUSED else "error: ")
    tell_error(prefix + redact(exc.message), redact(exc.hint) if exc.hint else None)


def tell_error(message: str, hint: str | None = None) -> None:
    """An error message and its hint on stderr, the reader perhaps gone (:func:`to_stderr`)."""
    with to_stderr():
        err.print(message, markup=False, style="bold red")
        if hint:
            err.print(hint, markup=False)


@contextmanager
def to_stderr() -> Iterator[None]:
    """Writing an error message. When no one reads stderr any more (``ref ... 2>&1 | head -1``
    closed the pipe mid-message), the rest is dropped quietly and the command still ends with
    the error's own exit code: being killed by SIGPIPE (exit 141) is for data on stdout cut
    short, never for an error."""
    import signal

    pipe = getattr(signal, "SIGPIPE", None)
    before = signal.signal(pipe, signal.SIG_IGN) if pipe is not None else None
    try:
        yield
        sys.stderr.flush()
    except BrokenPipeError:
        # nothing more reaches the closed pipe, not even Python's own flush at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
    finally:
        if pipe is not None:
            signal.signal(pipe, before)


def debug_enabled() -> bool:
    return os.environ.get("RUMMYREF_DEBUG", "") not in ("", "0")


# -- the game being played, for the commands that need no store -------------------------------


def record_file(db: str | None) -> tuple[bool, Path | None]:
    """Is there a record where the store would look (``--db``, ``$RUMMYREF_DB``, the user data
    folder), and its SQLite file? Told without loading the store; a server URL may hold one:
    (True, None)."""
    from rummyref.store.location import file_of, resolve  # the one reading of --db (no SQLAlchemy)

    url = resolve(db)
    path = file_of(url)
    if path is None:  # a server
        return True, None
    try:
        return path.is_file(), path
    except (OSError, ValueError):  # a name no file system can hold: no record there
        return False, None


class GameRules(NamedTuple):
    """The game a command means, as ``ref ruling`` and ``ref count`` need it."""

    name: str
    ruleset: Any  #: its :class:`~rummyref.rules.ruleset.RuleSet`, as kept with the game
    is_open: bool
    #: the names of the rule set's variations in play at its table (latest session), or None
    #: where the kind of game keeps none
    in_play: tuple[str, ...] | None


def game_ruleset(db: str | None, path: Path | None, game: str | None) -> GameRules:
    """The game meant, its rule set as kept with it, whether it is open and the variations in
    play: read from a SQLite record with the standard library (no SQLAlchemy to load: ``ref
    ruling`` and ``ref count`` start fast), else by the store."""
    from rummyref.games.in_play import variations_in_play

    if path is not None:
        import sqlite3

        from rummyref.store.choice import peek_sqlite

        try:
            name, ruleset, text, is_open, options, last = peek_sqlite(path, game)
        except sqlite3.Error:
            pass  # an older schema, a locked or foreign file: the store knows what to do
        else:
            import tomllib

            from rummyref.rules.ruleset import parse_ruleset

            rules = parse_ruleset(tomllib.loads(text), f"{ruleset} (as kept with game {name})")
            return GameRules(name, rules, is_open, variations_in_play(rules, options, last))
    from rummyref.store.select import game_ruleset as stored

    name, rules, is_open, options, last = stored(db, game)
    return GameRules(name, rules, is_open, variations_in_play(rules, options, last))


def write_whole(path: Path, data: bytes, overwrite: bool) -> None:
    """Write a file whole or not at all (a temporary name, then into place). Without
    ``overwrite`` it goes into place by a hard link, which fails rather than replace a
    file that appeared since :func:`rummyref.store.location.destination_check` looked."""
    from rummyref.errors import RuleRefusal, StorageError
    from rummyref.store.location import discard_stale_partials

    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    discard_stale_partials(path)
    try:
        with open(partial, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if overwrite:
            os.replace(partial, path)
        else:
            try:
                os.link(partial, path)
            except FileExistsError:
                raise RuleRefusal(f"{path} already exists; nothing was written",
                                  hint="choose a new name, or --overwrite to replace it") from None
            except OSError:  # a file system without hard links
                if path.exists():
                    raise RuleRefusal(f"{path} already exists; nothing was written",
                                      hint="choose a new name, or --overwrite to replace it") from None
                os.replace(partial, path)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        partial.unlink(missing_ok=True)
