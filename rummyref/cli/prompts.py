"""Asking at a terminal: whether to ask at all, and how (the Forms of ``rummyref.games`` ask
through an :class:`~rummyref.games.base.Asker`; this is the command line's).

The prompt is ``input()`` itself, not click's: click turns Ctrl-C and the end of input into
the same ``Abort``, and the two must end differently. The end of input before an answer is bad
input (exit 3); Ctrl-C is left to propagate as ``KeyboardInterrupt``, which the CLI's edge
turns into exit 130 with nothing written (``rummyref.cli.app``)."""

from __future__ import annotations

import os
import sys

from rummyref.errors import UnreadableInput

INTERACTIVE_ENV = "RUMMYREF_INTERACTIVE"  #: "1" forces prompting (tests), "0" forbids it
#: said once, the first time a rejected answer is put back on the line for editing
PUT_BACK = "  (the answer is back on the line: edit it, or clear it with Ctrl-U)"


def interactive() -> bool:
    forced = os.environ.get(INTERACTIVE_ENV)
    if forced in ("0", "1"):
        return forced == "1"
    return sys.stdin.isatty()


def prompt_ask(question: str, offered: str) -> str:
    """Ask on the terminal (the question on stderr: stdout stays clean for --json); on a
    re-ask the previous answer is offered back, pre-filled where readline is available,
    else as the default that Enter keeps. Input that ends (EOF, Ctrl-D) before an answer is
    bad input (exit 3): nothing is written. Ctrl-C propagates (exit 130)."""
    try:
        return _prompt(question, offered)
    except EOFError:
        raise UnreadableInput(
            f"no answer to {question.split('?')[0].split(' (')[0]!r}: the input ended; nothing was written",
            hint="give the facts as options (see the command's --help), or answer every question",
        ) from None


_said: set[str] = set()


def _prompt(question: str, offered: str) -> str:
    readline = _readline() if offered else None
    if readline is not None:
        if PUT_BACK not in _said:
            _said.add(PUT_BACK)
            _say(PUT_BACK)

        def offer() -> None:
            readline.insert_text(offered)
            readline.redisplay()

        readline.set_pre_input_hook(offer)
        try:
            _write("".join(fitted(question + ": ")))
            return kept(input(), offered, edited=True)
        finally:
            readline.set_pre_input_hook(None)
    _write("".join(fitted(f"{question} [{offered}]: " if offered else question + ": ")))
    answer = input()
    end_unechoed()
    return kept(answer, offered, edited=False)


NONE_WORD = "-"  #: the answer "none" where an answer is offered (a blank keeps it when nothing is on the line)


def kept(answer: str, offered: str, edited: bool) -> str:
    """The answer given where ``offered`` was offered: with the offered text on the line to
    edit (``edited``), what the line holds; else a blank keeps the offered answer. ``-``
    answers none, whether or not anything was offered (a blank's meaning where nothing is)."""
    if answer.strip() == NONE_WORD:  # none, whether something was offered or not (quoted as typed if refused)
        from rummyref.games.base import NoneTyped

        return NoneTyped()
    if offered and not edited and not answer.strip():
        return offered
    return answer


#: columns left for the answer beside a question; a question longer than the line less these
#: is printed on lines of its own (wrapped to the terminal), and the answer is typed after "> "
ANSWER_ROOM = 12


def fitted(prompt: str) -> tuple[str, str]:
    """``prompt`` as the terminal shows it: ``("", prompt)`` when it leaves room for the answer
    on its line, else the question wrapped on lines of its own and a short prompt."""
    from rich.cells import cell_len

    from rummyref.cli.common import err
    from rummyref.names import in_text
    from rummyref.wrap import fill

    prompt = in_text(prompt)  # a long name in its shown form
    if cell_len(prompt) <= err.width - ANSWER_ROOM:
        return "", prompt
    return fill(prompt.rstrip(), err.width, hang="  ") + "\n", "> "


def _readline():
    """GNU readline when ``input()`` uses it (answers offered back for editing), else None.
    Python's ``input()`` edits the line with readline only when both stdin and stdout are the
    terminal: with stdout piped (``ref night | tee night.log``) nothing would be put back on
    the line, so the answer is offered as the default a blank keeps instead."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    try:
        import readline
    except ImportError:  # pragma: no cover - platform without readline
        return None
    return readline


def end_unechoed() -> None:
    """End the question's line where the answer came from a pipe: nothing echoed it, and the
    next question would run on along the same line of stderr."""
    try:
        if not sys.stdin.isatty():
            sys.stderr.write("\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _write(text: str) -> None:
    try:  # what was printed before the question comes before it, even through a pipe
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    sys.stderr.write(text)
    sys.stderr.flush()


def _say(message: str) -> None:
    from rummyref.cli.common import say

    say(message)


class TerminalAsker:
    """The command line's :class:`~rummyref.games.base.Asker`."""

    def ask(self, question: str, offered: str = "", *, none: bool = True) -> str:
        return prompt_ask(question, offered)  # "-" is not offered in words here: nothing to leave out

    def tell(self, message: str) -> None:
        _say(message)


def asker() -> TerminalAsker | None:
    """An asker when stdin is a terminal (or prompting is forced), else None: missing facts are an error."""
    return TerminalAsker() if interactive() else None
