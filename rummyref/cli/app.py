"""The ``ref`` command: the root Typer app, error translation at the edge, the command table.

Commands are registered lazily: :data:`COMMANDS` names each command, the CLI module
that defines it and its one-line help, so ``ref --help`` and completing a command's
name import no command module, and running a command imports only its own module.
A start-up costs the interpreter, typer and what the command itself needs (see
``bench/bench_startup.py``). ``tests/cli/test_imports.py`` checks that the table
agrees with what the modules register.
"""

from __future__ import annotations

import errno
import importlib
import sys
import traceback
from dataclasses import dataclass
from typing import Annotated, Any, NoReturn

import typer
from typer.core import CompletionItem, TyperArgument, TyperCommand, TyperGroup

from rummyref.cli import version_line
from rummyref.errors import ExitCode, RummyrefError


@dataclass(frozen=True)
class CommandEntry:
    """One line of the command table: what ``ref --help`` shows of a command before loading it."""

    name: str
    module: str  #: under ``rummyref.cli``; its ``register(app)`` adds the command
    summary: str  #: the command's help up to the end of its first sentence


# In --help order. A new command is one line here, and a ``register(app)`` in its module
# that calls ``app.command(NAME)`` (or ``app.add_typer`` for a group of subcommands).
COMMANDS: tuple[CommandEntry, ...] = (
    CommandEntry("count", "count", "Count a hand: best melding, unmelded cards, count, can it go out."),
    CommandEntry("new-session", "record", "Open a session: a Rummy Night (seating dibs A2, deal order A3), a Simple Rummy table (dealer, first player, variations) or a Gin session."),
    CommandEntry("score-hand", "record", "Record the next hand (rummy-2m, Gin) or game (Simple Rummy); print scores, or counts, winner and match."),
    CommandEntry("end-session", "record", "Close the session: a Rummy Night only after full rounds (A4) or when the game is over (A7); Simple Rummy and Gin any time between games or hands."),
    CommandEntry("amend", "record", "Correct a recorded hand (or Simple Rummy game): a new entry with the right facts; the original stays in the history (B7)."),
    CommandEntry("void", "record", "Void a recorded hand (or Simple Rummy game): its result no longer counts; both stay in the history (B7)."),
    CommandEntry("night", "night", "Play a whole night in one process: open (or resume) the session, then each hand's facts, scores and standings; '? TEXT' for a ruling and '! claim ...' for a dispute at any prompt."),
    CommandEntry("standings", "standings", "Standings: a long game's totals, pace and dibs; Simple Rummy's game wins and match state (S17); Gin's score and boxes."),
    CommandEntry("history", "standings", "Every recorded hand with its cards and scores; corrections appear beside the original (B7)."),
    CommandEntry("verify", "verify", "Check the record: nothing changed or removed outside ref, every total and row as the log says (exit 8 if not); print its seal."),
    CommandEntry("upgrade", "verify", "Create or upgrade the record's tables, and nothing else: on a server, the owner role runs it (docs/operations/data-promises.md)."),
    CommandEntry("export", "data", "Write the record (every game, or --game G) as versioned JSON, or per-hand scores as CSV."),
    CommandEntry("import", "data", "Load a JSON export into this record (checked first; all or nothing; never the same games twice)."),
    CommandEntry("backup", "data", "A consistent, verified copy of the record (safe while another terminal is writing)."),
    CommandEntry("first-dealer", "first_dealer", "Who deals first (S3): the highest regular card turned up; and who plays first."),
    CommandEntry("ruling", "ruling", "Find the rule a player means, from free text (typos and slang welcome)."),
    CommandEntry("rulings", "rulings", "The rulings kept as precedents: when, which session and hand, the dispute, the verdict, the facts."),
    CommandEntry("stats", "stats", "Statistics: averages, best and worst hands, go-outs, Rummy! claims, head-to-head, streaks, milestones."),
    CommandEntry("chart", "chart", "Each player's total over the Rummy Nights, with the target line and the projected crossing."),
    CommandEntry("dispute", "dispute", "Settle a dispute from the facts: a Rummy! claim, run or match, a pick-up, a discard, ending the night."),
)  # fmt: skip


_typer_argument_metavar = TyperArgument.make_metavar


def _argument_metavar(self: TyperArgument, ctx: Any, *, usage: bool = False) -> str:
    """A required argument in a usage line as click writes it (``ref amend [OPTIONS] HAND``),
    not in typer's braces (``{HAND}``, or ``{hand}`` when it has no metavar)."""
    var = _typer_argument_metavar(self, ctx, usage=usage)
    return var[1:-1] if var.startswith("{") and var.endswith("}") else var


TyperArgument.make_metavar = _argument_metavar  # type: ignore[method-assign]


def _help_wrapper() -> None:
    """How every ``--help`` is wrapped. A word is never broken at its hyphen (``ref end-`` /
    ``session``). A ``\\b`` block (an example) is printed as written, a line to a command,
    so that it can be copied and run; at a terminal too narrow for it, the command goes on
    to the next line after a backslash, still one command to the shell."""
    from typer._click import _textwrap

    base = _textwrap.TextWrapper
    if getattr(base, "ref_help", False):
        return

    class HelpWrapper(base):  # type: ignore[misc, valid-type]
        ref_help = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("break_on_hyphens", False)
            super().__init__(*args, **kwargs)

        def indent_only(self, text: str) -> str:
            room = self.width - len(self.initial_indent)
            return super().indent_only("\n".join(
                piece for line in text.splitlines() for piece in continued(line, room)))

    _textwrap.TextWrapper = HelpWrapper  # type: ignore[misc]

    from typer._click import formatting

    write_dl = formatting.HelpFormatter.write_dl

    def narrow_dl(self: Any, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        """The options' table: at a narrow terminal, a long option's help starts on the next
        line rather than in a column a word wide (no change at 80 columns)."""
        write_dl(self, rows, min(col_max, max(self.width - 30, 8)), col_spacing)

    formatting.HelpFormatter.write_dl = narrow_dl  # type: ignore[method-assign]


def continued(line: str, width: int) -> list[str]:
    """``line`` (a command) as it is, or, wider than ``width``, broken between its words (a
    quoted word stays whole) with a backslash ending every line but the last, and the lines
    after the first indented four more."""
    import re

    if len(line) <= width:
        return [line]
    lead = line[: len(line) - len(line.lstrip())]
    words = re.findall(r"""(?:[^\s"']+|"[^"]*"|'[^']*')+""", line)
    lines: list[str] = []
    current = lead
    for i, word in enumerate(words):
        joined = f"{current} {word}" if current.strip() else current + word
        if current.strip() and len(joined) + (0 if i == len(words) - 1 else 2) > width:
            lines.append(current + " \\")
            current = lead + "    " + word
        else:
            current = joined
    return [*lines, current]


_help_wrapper()


def help_width() -> int:
    """The width ``--help`` is wrapped to: the terminal's (``COLUMNS``) less a margin, at most
    78, and never under :data:`HELP_MIN_WIDTH` (click alone would not go under 50)."""
    import shutil

    return max(min(shutil.get_terminal_size().columns, 80) - 2, HELP_MIN_WIDTH)


#: the narrowest ``--help``, as :data:`rummyref.wrap.MIN_WIDTH` for ref's other output
HELP_MIN_WIDTH = 20


def load_module_commands(module: str) -> dict[str, Any]:
    """The click commands a CLI module registers, by name, built as the root app would build them."""
    holder = typer.Typer(rich_markup_mode=None)
    importlib.import_module(f"rummyref.cli.{module}").register(holder)
    _once_each(holder)
    return dict(typer.main.get_group(holder).commands)


def _once_each(app: typer.Typer) -> None:
    """Every command the app registers (and those of its groups) refuses an option given twice."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):  # typer's default; a command's own class is left alone
            info.cls = RefCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            _once_each(group.typer_instance)


def refuse_repeats(order: list[Any]) -> None:
    """An option that takes one value, given more than once, is refused (exit 3): click would keep
    the last silently (``--out Ben --out Bill``: Bill). ``order`` is the parser's: each parameter
    once per use. Repeatable options (``--points``...) say for themselves what a repeat means."""
    from rummyref.errors import UnreadableInput

    seen: dict[str, int] = {}
    for param in order:
        if getattr(param, "multiple", True) or getattr(param, "count", False) or param.is_eager:
            continue  # an argument, a repeatable option, a counter, --help
        seen[param.name] = seen.get(param.name, 0) + 1
        if seen[param.name] == 2:
            name = "/".join(max(opts, key=len) for opts in (param.opts, param.secondary_opts) if opts)
            takes = f": it takes one {param.metavar}" if getattr(param, "metavar", None) else ""
            raise UnreadableInput(f"{name} was given twice{takes}", hint=f"give {name} once")


#: options whose empty value has a message of its own (``--db ""`` never falls back to the
#: default record; ``--game ""`` is no name), said where they are read
_EMPTY_SAID_ELSEWHERE = frozenset({"db", "game"})


def refuse_empty(opts: dict[str, Any], order: list[Any]) -> None:
    """An option given an empty value (``--dealer ""``, ``-r ""``, ``--players ""``) is
    refused (exit 3), naming the option: never read as a name, a folder or "not given". The
    hint offers to leave it out only where it may be left out (never ``--reason``)."""
    from rummyref.errors import UnreadableInput

    for param in order:
        if getattr(param, "param_type_name", "") != "option" or param.name in _EMPTY_SAID_ELSEWHERE:
            continue
        value = opts.get(param.name)
        values = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            name = max(param.opts, key=len)
            takes = f" (it takes {param.metavar})" if getattr(param, "metavar", None) else ""
            leave = ": it is required" if getattr(param, "required", False) else ", or leave it out"
            raise UnreadableInput(f"{name} was given empty{takes}", hint=f"give {name} a value{leave}")


def _parsing_once(parser: Any, ctx: Any) -> Any:
    """The command's parser, refusing an option given twice or given empty (not while
    completing a line)."""
    parse = parser.parse_args

    def parse_args(args: list[str]) -> Any:
        try:
            opts, largs, order = parse(args)
        except Exception as exc:
            # "Option '--db' requires an argument": click's parser knows no command; with it,
            # the error shows the usage line and "Try 'ref X --help'" as any other usage error
            if _is_usage_error(exc) and getattr(exc, "ctx", False) is None:
                exc.ctx, exc.cmd = ctx, ctx.command  # type: ignore[attr-defined]
            raise
        if not ctx.resilient_parsing:
            refuse_repeats(order)
            refuse_empty(opts, order)
        return opts, largs, order

    parser.parse_args = parse_args
    return parser


class RefCommand(TyperCommand):
    """A command of ``ref``: an option that takes one value may be given once."""

    def make_parser(self, ctx):
        return _parsing_once(super().make_parser(ctx), ctx)


def _is_click_exception(exc: BaseException) -> bool:
    # typer bundles its own click (typer._click); match either by module name.
    return any("click" in klass.__module__ for klass in type(exc).__mro__)


def _usage_error(exc: Exception) -> NoReturn:
    """click's own error (a malformed command line, exit 2), shown as click shows it, but
    ending with its own code even if stderr's reader has gone (not SIGPIPE's 141), and with
    what was typed cut short where it is long (:func:`_shortened`)."""
    import io

    from rummyref.cli.common import err, to_stderr
    from rummyref.wrap import fill

    _negative_number(exc)
    _shortened(exc)
    said = io.StringIO()
    exc.show(file=said)  # type: ignore[attr-defined]
    with to_stderr():
        sys.stderr.write(fill(said.getvalue(), err.width))  # a long line wrapped, as ref's own messages are
    raise typer.Exit(exc.exit_code)  # type: ignore[attr-defined]


def _negative_number(exc: Exception) -> None:
    """``ref amend -1``: a negative number where a command takes a number (``HAND``) reads to
    click as an unknown option. It is refused as any number out of range is, naming the
    argument and its range (exit 3, as ``ref amend 0``), not as an option nobody meant."""
    import re

    from rummyref.cli.common import show_error

    typed = getattr(exc, "option_name", None)
    ctx = getattr(exc, "ctx", None)
    if type(exc).__name__ != "NoSuchOption" or not isinstance(typed, str) or ctx is None:
        return
    if not re.fullmatch(r"-[0-9][0-9,]*", typed):
        return
    for param in ctx.command.params:
        parse = getattr(param.type, "func", None)
        if param.param_type_name != "argument" or parse is None:
            continue
        if not getattr(parse, "__qualname__", "").startswith("bounded."):
            continue
        try:
            parse(typed)
        except RummyrefError as refused:
            show_error(refused)
            raise typer.Exit(int(refused.exit_code)) from None
        return


#: a word of a usage error longer than this (an unknown option, an extra argument) is cut
LONG_WORD = 40


def _shortened(exc: Exception) -> None:
    """What a usage error echoes of the command line, cut as a number out of range is
    (:func:`rummyref.bounds.short`: its start, its end and its length), never whole on one
    line: text where a whole number belongs (``ref void aaaa...``, ``--cards xxxx...``: click's
    message is the value itself), and each long word of any other (``--xxxx...``)."""
    import re

    from rummyref.bounds import short

    message = getattr(exc, "message", None)
    if not isinstance(message, str) or not message:
        return
    if getattr(exc, "param", None) is not None:  # "Invalid value for 'HAND': <what was typed>"
        exc.message = short(message)  # type: ignore[attr-defined]
    else:
        long_word = re.compile(rf"[^\s'\"(),]{{{LONG_WORD + 1},}}")  # a word, without the quotes around it
        exc.message = long_word.sub(lambda m: short(m.group()), message)  # type: ignore[attr-defined]


def _is_usage_error(exc: Exception) -> bool:
    return _is_click_exception(exc) and hasattr(exc, "show") and hasattr(exc, "exit_code")


class RefGroup(TyperGroup):
    """Translates the error tree into a message on stderr and a documented exit code, once."""

    def make_parser(self, ctx):
        return _parsing_once(super().make_parser(ctx), ctx)

    def make_context(self, info_name, args, parent=None, **extra):
        # the root's own options are read before any command runs (``ref --db A --db B ...``)
        from rummyref.cli.common import show_error

        if parent is None:  # the commands below inherit it
            extra.setdefault("terminal_width", help_width())
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except RummyrefError as exc:
            show_error(exc)
            raise typer.Exit(int(exc.exit_code)) from None
        except Exception as exc:
            if _is_usage_error(exc):
                _usage_error(exc)
            raise

    def invoke(self, ctx):
        from rummyref.cli.common import debug_enabled, show_error, tell_error

        try:
            return super().invoke(ctx)
        except RummyrefError as exc:
            show_error(exc)
            raise typer.Exit(int(exc.exit_code)) from None
        except KeyboardInterrupt:  # Ctrl-C: at a prompt (no write began) or once a write committed
            interrupted()
        except (typer.Exit, typer.Abort):
            raise
        except OSError as exc:  # the store translates its own: this is the output (a full disk)
            if exc.errno not in OUTPUT_ERRORS:
                raise
            where = ("give it an output to write to" if exc.errno == errno.EBADF
                     else "free some space, or write elsewhere")
            # what the record now holds, named as after a Ctrl-C, so that nobody enters it twice
            said = what_stands()
            stands = f"{said[0]}, and stands: {said[1]}" if said else "nothing was written to the record"
            tell_error(f"error: the output cannot be written: {exc.strerror or exc}", f"{stands}; {where}")
            raise typer.Exit(int(ExitCode.STORAGE)) from None
        except Exception as exc:  # the last line of defence: never a traceback
            if _is_usage_error(exc):  # a malformed command line: click's words, exit 2
                _usage_error(exc)
            if _is_click_exception(exc):
                raise
            from rummyref.store.location import redact

            tell_error(f"internal error: {type(exc).__name__}: {redact(str(exc))}",
                       "this is a bug in ref; please report it (RUMMYREF_DEBUG=1 shows the details)")
            if debug_enabled():
                traceback.print_exc()
            raise typer.Exit(int(ExitCode.INTERNAL)) from None


#: an output that cannot be written (not a bug): a full disk, a quota, a device error, a
#: standard output that was closed (:func:`rummyref.cli.open_streams`)
OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EBADF})
class _Unloaded(TyperCommand):
    """Stands in for a command of :data:`COMMANDS` until it is looked up: a name and a short help."""

    def __init__(self, entry: CommandEntry) -> None:
        super().__init__(entry.name, help=entry.summary)
        self.module = entry.module


class LazyRefGroup(RefGroup):
    """The root group (click's lazy group pattern): ``self.commands`` starts as the table's
    stand-ins, so the names are known for listing, usage errors and typo suggestions, and
    :meth:`get_command` swaps a stand-in for the real command on first use. Help and
    completion of the command names read the stand-ins and load nothing."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for entry in COMMANDS:
            self.commands.setdefault(entry.name, _Unloaded(entry))

    def get_command(self, ctx, cmd_name):
        cmd = self.commands.get(cmd_name)
        if isinstance(cmd, _Unloaded):
            cmd = self.commands[cmd_name] = load_module_commands(cmd.module)[cmd_name]
        return cmd

    def format_commands(self, ctx, formatter):
        # a plain group over the same entries formats them as typer would, without loading any
        TyperGroup(commands=dict(self.commands)).format_commands(ctx, formatter)

    def shell_complete(self, ctx, incomplete):
        names = [
            CompletionItem(name, help=cmd.get_short_help_str())
            for name, cmd in self.commands.items()
            if name.startswith(incomplete) and not cmd.hidden
        ]
        # the options' completion, skipping TyperGroup's command listing (it would load every command)
        return names + super(TyperGroup, self).shell_complete(ctx, incomplete)


app = typer.Typer(
    cls=LazyRefGroup,
    name="ref",
    help="Scorekeeper and referee for rummy played with a real deck at a real table.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        print(version_line())
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option("--db", metavar="PATH|URL", help="Database for every command (default: $RUMMYREF_DB, else the user data directory)."),
    ] = None,
) -> None:
    """Scorekeeper and referee for rummy played with a real deck at a real table."""
    from rummyref.cli.common import ROOT_OPTIONS

    ROOT_OPTIONS["db"] = db


INTERRUPTED = 130  #: Ctrl-C (128 + SIGINT), as shells report it


def interrupted() -> NoReturn:
    """Ctrl-C: exit 130, saying what the record holds. A command writes in one transaction after
    its last question, so an interrupt at a prompt (or before the write) leaves the record as it
    was: "nothing was written". One that lands once the write has committed (while its result is
    shown) says what stands and where to see it, so that nobody types the hand again and counts it
    twice. Click would report it as "Aborted!" and exit 1."""
    said = what_stands()
    if said is None:
        print("\ninterrupted: nothing was written", file=sys.stderr)
    else:
        print(f"\ninterrupted: {said[0]}\n{said[1]}", file=sys.stderr)
    sys.exit(INTERRUPTED)


def _committed() -> list:
    """The writes this process committed (:data:`rummyref.store.record.COMMITTED`), each the
    entries it appended; empty when the store was never even loaded."""
    record = sys.modules.get("rummyref.store.record")
    return record.COMMITTED if record is not None else []


def written_mark() -> int:
    """Where the writes committed so far end: :func:`what_stands` from here names only later ones."""
    return len(_committed())


def committed_kinds(since: int = 0) -> set[str]:
    """The kinds of entry appended by the writes committed from the ``since``-th on."""
    return {w.kind for commit in _committed()[since:] for w in commit}


def what_stands(since: int = 0, shell: bool = False) -> tuple[str, str] | None:
    """What the writes this process committed (from the ``since``-th on) put in the record, and
    how to see it: ``(message, hint)``, or None when none wrote anything. ``shell``: in the words
    of ``ref night``'s own commands (``history``, not ``ref history --game NAME``)."""
    commits = [c for c in _committed()[since:] if c]
    if not commits:
        return None if shell else _upgraded()
    message, hint = _stands(commits[-1], shell)
    if len(commits) > 1:
        message += " (and " + ("1 earlier write stands)" if len(commits) == 2 else f"{len(commits) - 1} earlier writes stand)")
    return message, hint


def _upgraded() -> tuple[str, str] | None:
    """The schema steps this process committed to a record an older ref made (its first open
    upgrades it, one step per transaction, each standing on its own), in words; None if none."""
    engine = sys.modules.get("rummyref.store.engine")
    steps = engine.UPGRADED if engine is not None else []
    if not steps:
        return None
    latest = engine.LATEST  # type: ignore[union-attr]
    if steps[-1] >= latest:
        return (f"the record was upgraded to schema version {steps[-1]}; nothing else was written",
                "ref verify checks it")
    return (f"the record was upgraded to schema version {steps[-1]} of {latest}; nothing else was written",
            "ref upgrade finishes the upgrade (each step stands on its own)")


def _stands(commit: tuple, shell: bool) -> tuple[str, str]:
    """One committed write, in words (see :class:`rummyref.store.record.Written`)."""
    import shlex

    from rummyref.names import shown

    first = commit[0]
    kinds = {w.kind: w for w in commit}
    game, name = shown(first.game), first.game
    hand_word, session_word = first.words

    def see(command: str) -> str:
        return command if shell else f"ref {command} --game {shlex.quote(name)}"

    if "import" in kinds:
        games = [shown(w.game) for w in commit]
        return (f"{'games' if len(games) > 1 else 'game'} {', '.join(games)} "
                f"{'were' if len(games) > 1 else 'was'} imported",
                f"{see('standings')} shows it; importing the file again is refused")
    for kind, done, again in (("hand", "recorded", "; do not enter it again (it would count twice)"),
                              ("amend", "amended", ""), ("void", "voided", "")):
        if kind in kinds:
            w = kinds[kind]
            return f"{hand_word} {w.hand} of {game} was {done} (entry {w.seq})", f"{see('history')} shows it{again}"
    if "ruling" in kinds:
        return (f"the ruling was kept as a precedent of {game} (entry {kinds['ruling'].seq})",
                f"{see('rulings')} shows it")
    if "session-close" in kinds:
        w = kinds["session-close"]
        closed = f"ref standings --game {shlex.quote(name)}"  # (the night's shell has ended)
        return (f"{session_word} {w.session} of {game} was closed (entry {w.seq})",
                f"{closed} shows it; ref verify shows the record's seal")
    if "session-open" in kinds:
        w = kinds["session-open"]
        opened = f"game {game} was started and its {session_word} {w.session} opened" if "header" in kinds \
            else f"{session_word} {w.session} of {game} was opened"
        return (f"{opened} (entry {w.seq})", f"{see('standings')} shows it")
    return f"entry {commit[-1].seq} of {game} was written", f"{see('history')} shows it"


def main() -> None:
    """Run the app (``ref --version`` is answered earlier, by :func:`rummyref.cli.main`). Once
    the command has ended (its output and its message said), a Ctrl-C changes nothing: without
    this, one landing while Python shuts down would end a command that wrote and showed its hand
    with exit 130 and no word."""
    import signal

    try:
        try:
            app(prog_name="ref")  # also under ``python -m rummyref``: shell completion uses $_REF_COMPLETE
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    except KeyboardInterrupt:  # outside a command (while typer parses or loads it), or as it ended
        interrupted()
