"""The thin CLI: each command parses, calls the core or the store, and renders.

Command modules must not import the store (sqlmodel) at module level: commands
that need no database must not pay for it (see tests/cli/test_imports.py).

:func:`main` is the ``ref`` entry point. It answers ``ref --version`` before typer
is even imported (typer alone is most of a start-up); everything else runs the app
of :mod:`rummyref.cli.app`, which loads only the module of the command given.
"""

from __future__ import annotations

import os
import sys

from rummyref import __version__


def version_line() -> str:
    return f"ref (rummyref) {__version__}"


def main() -> None:
    """Console-script entry point (and ``python -m rummyref``)."""
    if sys.argv[1:] == ["--version"] and "_REF_COMPLETE" not in os.environ:
        print(version_line())
        return
    import signal

    if hasattr(signal, "SIGPIPE"):  # ``ref ... | head``: end as a shell tool does when the reader
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # stops (exit 141), no error; a write stands
    from rummyref.cli.app import main as run_app

    run_app()
