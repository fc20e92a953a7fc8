"""Every console transcript of the README and of docs/ is real output: run it, compare it, or
rewrite it.

A transcript is a fenced block marked ```` ```console ````: ``$ `` lines are commands (a line
ending in `` \\`` goes on on the next one), the lines after a command are what it printed
(stdout and stderr together, as a terminal shows them) and ``[exit N]`` when it failed. A
block that only shows commands to type, or output that cannot be re-run here (a PostgreSQL
server, a benchmark's database), is marked ```` ```sh ```` or ```` ```text ```` instead.

Each page runs in order in its own fresh home folder (the record is then the default one,
``~/.local/share/rummyref/rummyref.db``), with the clock, the time zone, the width and the
colours pinned (:data:`ENV`). The commands run through ``bash`` with ``ref`` on ``PATH``,
so a page may show ``>/dev/null``, a pipe or ``; echo $?``. An HTML comment steers what follows
it on the page, unseen by a reader::

    <!-- transcript: RUMMYREF_NOW=2026-11-19T19:30 -->   the clock (any NAME=VALUE) from here on
    <!-- transcript: fresh -->                          a new home folder: an empty record

A command that needs a terminal (``ref night``) is run in a pseudo-terminal when an answers
comment precedes its block; the block then holds that one command. The answers are typed one
a line at the prompts, in order: an empty line is Enter alone, ``^D`` is the end of input,
``^C`` is Ctrl-C, and ``^U`` before an answer first clears what ``ref`` offered back::

    <!-- transcript: answers
    7S 7H 7D
    ^U7S 7H 7D

    -->

Compared: every line without its trailing blanks, with dates, times and durations replaced by
placeholders (so a run on another day, or a slower machine, still matches). Written: the output
as printed, with the temporary home folder shown as ``/home/bill``.

    python tests/transcripts.py                  # check every page: a diff per stale command
    python tests/transcripts.py --write          # refresh every page after an intended change
    python tests/transcripts.py docs/guide/a-night.md [--write]     # some pages only

``tests/cli/test_transcripts.py`` runs the check, one test per page.
"""

from __future__ import annotations

import difflib
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


def as_at_a_terminal() -> None:
    """``preexec_fn``: Ctrl-C (SIGINT) at the pseudo-terminal does what it does at a real one,
    even when this script runs in the background of a non-interactive shell."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)

ROOT = Path(__file__).resolve().parent.parent
HOME_SHOWN = "/home/bill"  #: how the temporary home folder is written in the pages
HOME_DIR = Path("/tmp")  #: where the home folders are made: /tmp/rXXXX is as long as HOME_SHOWN
ENV = {"RUMMYREF_NOW": "2026-11-12T19:30", "TZ": "UTC", "COLUMNS": "80", "LINES": "24", "NO_COLOR": "1",
       "TERM": "dumb", "PYTHONUNBUFFERED": "1", "RUMMYREF_INTERACTIVE": "0", "INPUTRC": "/dev/null",
       "LC_ALL": "C.UTF-8"}
TIMEOUT = 120  #: seconds one command may take (a loaded machine; the first ref pays the imports)
IDLE = 0.3  #: seconds of silence after a partial line that mean "ref waits at a prompt"
STUCK = 20  #: seconds the line typed last may stay unanswered before that is an error

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<rest>.*)$")
DIRECTIVE = re.compile(r"^<!-- transcript:(?P<body>.*?)(?P<end>-->)?\s*$")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[+-]\d{2}:?\d{2}|Z)?)?")
CLOCK = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b")
DURATION = re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|µs)\b|\b\d+\.\d+ ?s\b|\b\d+ s\b")
DAYS = re.compile(r"\b\d+ days? ago\b")


class PageError(Exception):
    """A page whose transcripts cannot be read or run (not a stale output: a broken page)."""


# -- reading a page -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    typed: tuple[str, ...]  #: the ``$`` line and its continuation lines, as written
    shown: str  #: the output the page shows (as written, trailing blanks dropped)

    @property
    def text(self) -> str:
        """The command line as bash gets it (``\\``-newline joins the lines)."""
        return "\n".join(self.typed)[2:]


@dataclass(frozen=True)
class Block:
    first: int  #: index of the block's first content line in the page's lines
    last: int  #: index one past its last content line (the closing fence)
    indent: str
    commands: tuple[Command, ...]
    answers: tuple[str, ...] | None  #: typed at the prompts of a pseudo-terminal, or None


@dataclass(frozen=True)
class Setting:
    fresh: bool
    env: tuple[tuple[str, str], ...]


Step = Block | Setting


@dataclass(frozen=True)
class Page:
    path: Path
    lines: tuple[str, ...]
    steps: tuple[Step, ...]

    @property
    def blocks(self) -> list[Block]:
        return [s for s in self.steps if isinstance(s, Block)]

    @property
    def name(self) -> str:
        return str(self.path.relative_to(ROOT)) if self.path.is_relative_to(ROOT) else str(self.path)


def pages(root: Path = ROOT) -> list[Path]:
    """The README and every page of docs/, in a stable order."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def commands_of(lines: list[str], where: str) -> tuple[Command, ...]:
    commands: list[Command] = []
    typed: list[str] = []
    shown: list[str] = []
    going_on = False
    for line in lines:
        if going_on:
            typed.append(line)
            going_on = line.endswith("\\")
            continue
        if line.startswith("$ "):
            if typed:
                commands.append(Command(tuple(typed), clean("\n".join(shown))))
            typed, shown = [line], []
            going_on = line.endswith("\\")
        elif typed:
            shown.append(line)
        elif line.strip():
            raise PageError(f"{where}: a console block must begin with a '$ ' command line, not {line!r}")
    if going_on:
        raise PageError(f"{where}: the last command ends with '\\' but nothing follows")
    if typed:
        commands.append(Command(tuple(typed), clean("\n".join(shown))))
    return tuple(commands)


def opening_fence(line: str) -> tuple[str, str, str] | None:
    """``(indent, fence, info)`` when the line opens a fenced code block (CommonMark: the info
    string of a backtick fence holds no backtick, so ```` ```sh ```` in a sentence is not one)."""
    m = FENCE.match(line)
    if not m or (m.group("fence")[0] == "`" and "`" in m.group("rest")):
        return None
    words = m.group("rest").split()
    return m.group("indent"), m.group("fence"), words[0] if words else ""


def closes(line: str, fence: str) -> bool:
    """Whether the line closes a block opened by ``fence`` (as long a run of its character, or longer)."""
    stripped = line.strip()
    return stripped.startswith(fence) and not stripped.strip(fence[0])


def read_page(path: Path) -> Page:
    lines = path.read_text(encoding="utf-8").split("\n")
    steps: list[Step] = []
    answers: tuple[str, ...] | None = None
    i = 0
    while i < len(lines):
        where = f"{path}:{i + 1}"
        directive = DIRECTIVE.match(lines[i])
        fence = opening_fence(lines[i])
        if directive:
            words = directive.group("body").split()
            if words[:1] == ["answers"]:
                if directive.group("end") or len(words) > 1:
                    raise PageError(f"{where}: the answers go one a line below '<!-- transcript: answers'")
                end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "-->"), None)
                if end is None:
                    raise PageError(f"{where}: the answers are not closed by a '-->' line")
                answers = tuple(line.rstrip() for line in lines[i + 1:end])
                i = end + 1
                continue
            if not directive.group("end"):
                raise PageError(f"{where}: a transcript setting is one line, closed by '-->'")
            env = []
            for word in words:
                name, eq, value = word.partition("=")
                if word != "fresh" and not (eq and name.isidentifier()):
                    raise PageError(f"{where}: {word!r} is neither 'fresh' nor NAME=VALUE")
                if eq:
                    env.append((name, value))
            steps.append(Setting("fresh" in words, tuple(env)))
        elif fence:
            indent, mark, info = fence
            end = next((j for j in range(i + 1, len(lines)) if closes(lines[j], mark)), None)
            if end is None:
                raise PageError(f"{where}: the code block is not closed")
            if info == "console":
                body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:end]]
                commands = commands_of(body, where)
                if answers is not None and len(commands) != 1:
                    raise PageError(f"{where}: a block typed at a terminal holds one command")
                steps.append(Block(i + 1, end, indent, commands, answers))
            elif answers is not None:
                raise PageError(f"{where}: the answers above belong to a ```console block, not ```{info}")
            answers = None
            i = end + 1
            continue
        i += 1
    if answers is not None:
        raise PageError(f"{path}: answers with no ```console block after them")
    return Page(path, tuple(lines), tuple(steps))


# -- normalising --------------------------------------------------------------------------------


def clean(text: str) -> str:
    """Trailing blanks off every line, blank lines off the end."""
    return "\n".join(line.rstrip() for line in text.rstrip().split("\n")) if text.strip() else ""


def comparable(text: str) -> str:
    """What must match between the page and today's run: dates, times and durations aside."""
    for pattern, placeholder in ((DATE, "<date>"), (DAYS, "<n> days ago"), (CLOCK, "<time>"),
                                 (DURATION, "<duration>")):
        text = pattern.sub(placeholder, text)
    return text


# -- running ------------------------------------------------------------------------------------


@dataclass
class Shell:
    """The environment one page runs in: a home folder, the clock and ``ref`` on PATH."""

    root: Path
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        bin_dir = self.root / "bin"
        bin_dir.mkdir()
        shim = bin_dir / "ref"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rummyref "$@"\n', encoding="utf-8")
        shim.chmod(0o755)
        inherited = {k: v for k, v in os.environ.items() if not k.startswith(("RUMMYREF_", "XDG_", "PYTEST_"))}
        self.env = {**inherited, **ENV, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
        self.fresh()

    def fresh(self) -> None:
        self.env["HOME"] = str(new_home(self.root))

    @property
    def home(self) -> str:
        return self.env["HOME"]

    def shown(self, text: str) -> str:
        return clean(text.replace(self.home, HOME_SHOWN))

    def run(self, command: Command) -> str:
        try:
            done = subprocess.run(["bash", "-c", command.text], check=False, cwd=self.home, env=self.env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise PageError(f"{command.text!r} did not finish within {TIMEOUT} s") from None
        return self.shown(with_exit(done.stdout.decode("utf-8", errors="replace"), done.returncode))

    def run_at_terminal(self, command: Command, answers: tuple[str, ...]) -> str:
        """The command in a pseudo-terminal, each answer typed once it waits at a prompt."""
        import pexpect

        env = {**self.env, "RUMMYREF_INTERACTIVE": "1"}
        # readline gets a wide terminal so that it never scrolls a long answer sideways; ref
        # itself formats for COLUMNS (80)
        child = pexpect.spawn("bash", ["-c", command.text], cwd=self.home, env=env, encoding="utf-8",
                              codec_errors="replace", dimensions=(24, 400), timeout=TIMEOUT, preexec_fn=as_at_a_terminal)
        screen = Screen()
        try:
            for n, answer in enumerate(answers, 1):
                if not wait_for_prompt(child, screen, first=n == 1):
                    raise PageError(f"{command.text!r} ended after {n - 1} of the {len(answers)} answers; "
                                    f"it printed:\n{screen.text()}")
                type_answer(child, answer)
            if wait_for_prompt(child, screen, first=not answers):
                raise PageError(f"{command.text!r} still asks after the {len(answers)} answers: "
                                f"{screen.partial()!r}; it printed:\n{screen.text()}")
        finally:
            child.close(force=True)
        code = child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0)
        return self.shown(with_exit(screen.text(), code))


def with_exit(printed: str, code: int) -> str:
    """The output, and ``[exit N]`` on a line of its own when the command failed."""
    printed = printed.rstrip()
    return printed + (("\n" if printed else "") + f"[exit {code}]" if code else "")


def new_home(root: Path) -> Path:
    """An empty home folder whose path is as long as :data:`HOME_SHOWN`, so that a message
    naming a file there wraps in the page as it wrapped in the run. (A link in ``root`` lets
    the page's cleanup find it; elsewhere than /tmp the lengths may differ, which only moves
    a line break.)"""
    if HOME_DIR.is_dir() and os.access(HOME_DIR, os.W_OK):
        for _ in range(1000):
            home = HOME_DIR / f"r{secrets.token_hex(2)}"
            try:
                home.mkdir(mode=0o700)
            except FileExistsError:
                continue
            (root / home.name).symlink_to(home)
            return home
    return Path(tempfile.mkdtemp(dir=root))


def wait_for_prompt(child, screen: Screen, first: bool) -> bool:
    """Read until ``ref`` waits at a prompt (True) or ends (False).

    A prompt is a line left unfinished, then silence: ``ref``'s own output is line-buffered
    on a terminal, so an unfinished line is only ever a question waiting for its answer. The
    answer typed last must have been echoed first (a line ended since), or the old prompt
    would be taken for the next one."""
    import pexpect

    lines_before = screen.ended
    started = time.monotonic()
    while time.monotonic() < started + TIMEOUT:
        try:
            screen.feed(child.read_nonblocking(65536, timeout=IDLE))
        except pexpect.TIMEOUT:
            if screen.partial() and (first or screen.ended > lines_before):
                return True
            if screen.partial() and time.monotonic() > started + STUCK:
                raise PageError(f"the answer typed at {screen.partial()!r} was not taken (nothing more was "
                                f"printed); printed so far:\n{screen.text()}") from None
        except pexpect.EOF:
            return False
    raise PageError(f"nothing asked within {TIMEOUT} s; printed so far:\n{screen.text()}")


def type_answer(child, answer: str) -> None:
    if answer == "^D":
        child.sendeof()
    elif answer == "^C":
        child.sendintr()
    elif answer.startswith("^U"):
        child.send("\x15" + answer[2:] + "\r")
    else:
        child.send(answer + "\r")


class Screen:
    """The lines a terminal shows for a stream of output: carriage returns, backspaces and
    readline's redrawing applied, escape sequences dropped."""

    TOKEN = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z@])|\x1b[()][0-9A-Za-z]|\x1b[=>78]|[\r\n\b\t\x07]|[^\x1b\r\n\b\t\x07]+")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.line: list[str] = []
        self.col = 0

    @property
    def ended(self) -> int:
        return len(self.lines)

    def feed(self, data: str) -> None:
        for m in self.TOKEN.finditer(data):
            tok = m.group(0)
            if tok == "\n":
                self.lines.append("".join(self.line).rstrip())
                self.line, self.col = [], 0
            elif tok == "\r":
                self.col = 0
            elif tok == "\b":
                self.col = max(0, self.col - 1)
            elif tok == "\t":
                self.put(" " * (8 - self.col % 8))
            elif m.group(2) == "K":  # erase to the end of the line
                del self.line[self.col:]
            elif m.group(2) == "C":
                self.col += int(m.group(1) or 1)
            elif m.group(2) == "D":
                self.col = max(0, self.col - int(m.group(1) or 1))
            elif not tok.startswith(("\x1b", "\x07")):
                self.put(tok)

    def put(self, text: str) -> None:
        if self.col > len(self.line):
            self.line.extend(" " * (self.col - len(self.line)))
        self.line[self.col:self.col + len(text)] = list(text)
        self.col += len(text)

    def partial(self) -> str:
        return "".join(self.line).rstrip()

    def text(self) -> str:
        return "\n".join([*self.lines, self.partial()])


# -- checking and writing -----------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    block: Block
    command: Command
    actual: str  #: today's output, as it would be written

    @property
    def stale(self) -> bool:
        return comparable(self.command.shown) != comparable(self.actual)

    def diff(self) -> str:
        return "\n".join(difflib.unified_diff(self.command.shown.split("\n"), self.actual.split("\n"),
                                              "the page", "today", lineterm=""))


def results(page: Page) -> Iterator[Result]:
    """Every command of the page with what it prints today, run in order."""
    root = Path(tempfile.mkdtemp(prefix="ref-"))
    try:
        shell = Shell(root)
        for step in page.steps:
            if isinstance(step, Setting):
                if step.fresh:
                    shell.fresh()
                shell.env.update(step.env)
                continue
            for command in step.commands:
                if step.answers is not None:
                    actual = shell.run_at_terminal(command, step.answers)
                else:
                    actual = shell.run(command)
                yield Result(step, command, actual)
    finally:
        for link in root.iterdir():
            if link.is_symlink():
                shutil.rmtree(link.resolve(), ignore_errors=True)
        shutil.rmtree(root, ignore_errors=True)


def rewritten(page: Page, done: list[Result]) -> str:
    """The page with every transcript holding today's output (the rest of the page untouched)."""
    lines = list(page.lines)
    for block in reversed(page.blocks):
        body: list[str] = []
        for r in (r for r in done if r.block is block):
            output = r.actual.split("\n") if r.actual else []
            odd = [line for line in output if line.startswith("$ ") or line.lstrip().startswith(("```", "~~~"))]
            if odd:
                raise PageError(f"{page.name}: the output of {r.command.text!r} has a line that would be read "
                                f"as a command or end the block: {odd[0]!r}; show it in a ```text block")
            if body:
                body.append("")
            body += [*r.command.typed, *output]
        lines[block.first:block.last] = [block.indent + line if line else line for line in body]
    return "\n".join(lines)


def check(paths: list[Path], write: bool) -> int:
    """Check (or rewrite) the pages: 0 when all are up to date (or written), 1 when some are
    stale, 2 when some could not be read or run. A broken page does not stop the others."""
    stale_pages = broken = 0
    for path in paths:
        try:
            page = read_page(path)
            done = list(results(page))
            new = rewritten(page, done)
        except PageError as e:
            print(f"error: {e}", file=sys.stderr)
            broken += 1
            continue
        stale = [r for r in done if r.stale]
        if write:
            if new != "\n".join(page.lines):
                path.write_text(new, encoding="utf-8")
            print(f"{page.name}: {len(done)} commands, {len(stale)} refreshed")
            continue
        for r in stale:
            print(f"{page.name}: $ {r.command.text}\n{r.diff()}\n")
        stale_pages += bool(stale)
    return 2 if broken else 1 if stale_pages else 0


def main(argv: list[str]) -> int:
    write = "--write" in argv
    named = [Path(a).resolve() for a in argv if a != "--write"]
    unknown = [a for a in argv if a.startswith("-") and a != "--write"]
    missing = [str(p) for p in named if not p.is_file()]
    if unknown or missing:
        usage = [line.strip() for line in (__doc__ or "").splitlines() if "python tests/transcripts.py" in line]
        print("usage:\n  " + "\n  ".join(usage), file=sys.stderr)
        print(f"error: {'unknown option ' + unknown[0] if unknown else 'no such page ' + missing[0]}",
              file=sys.stderr)
        return 2
    return check(named or pages(), write)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
