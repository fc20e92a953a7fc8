"""Asking at a terminal: whether to ask at all, and how (the Forms of ``rummyref.games`` ask
through an :class:`~rummyref.games.base.Asker`; this is the command line's)."""

from __future__ import annotations

import os
import sys

from rummyref.errors import UnreadableInput

INTERACTIVE_ENV = "RUMMYREF_INTERACTIVE"  #: "1" forces prompting (tests), "0" forbids it


def interactive() -> bool:
    forced = os.environ.get(INTERACTIVE_ENV)
    if forced in ("0", "1"):
        return forced == "1"
    return sys.stdin.isatty()


def prompt_ask(question: str, offered: str) -> str:
    """Ask on the terminal; on a re-ask the previous answer is offered back (pre-filled
    where readline is available, else as the default). Input that ends (EOF, Ctrl-D)
    before an answer is bad input (exit 3): nothing is written."""
    import typer

    try:
        return _prompt(question, offered)
    except (typer.Abort, EOFError):
        raise UnreadableInput(
            f"no answer to {question.split('?')[0].split(' (')[0]!r}: the input ended; nothing was written",
            hint="give the facts as options (ref score-hand --help), or answer every question",
        ) from None


def _prompt(question: str, offered: str) -> str:
    import typer

    if offered and sys.stdin.isatty():
        try:
            import readline

            def offer() -> None:
                readline.insert_text(offered)
                readline.redisplay()

            readline.set_pre_input_hook(offer)
            try:
                sys.stderr.write(question + ": ")
                sys.stderr.flush()
                return input()
            finally:
                readline.set_pre_input_hook(None)
        except ImportError:  # pragma: no cover - platform without readline
            pass
    # prompts are messages, not data: they go to stderr (stdout stays clean for --json)
    return typer.prompt(question, default=offered, show_default=bool(offered), err=True)


class TerminalAsker:
    """The command line's :class:`~rummyref.games.base.Asker`."""

    def ask(self, question: str, offered: str = "") -> str:
        return prompt_ask(question, offered)

    def tell(self, message: str) -> None:
        from rummyref.cli.common import say

        say(message)


def asker() -> TerminalAsker | None:
    """An asker when stdin is a terminal (or prompting is forced), else None: missing facts are an error."""
    return TerminalAsker() if interactive() else None
