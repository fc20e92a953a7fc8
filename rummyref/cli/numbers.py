"""Whole-number options and arguments, checked against :mod:`rummyref.bounds` while the command
line is read.

click reads ``--wildcards 99999999999999999999`` as a perfectly good Python integer; the
range check below refuses it with exit 3 (bad input) before the command runs, like a number
typed at a prompt. Text that is no integer at all (``--wildcards x``) stays click's usage
error, exit 2, as for any malformed command line.
"""

from __future__ import annotations

from collections.abc import Callable

from rummyref.bounds import Bound


def within(bound: Bound, what: str) -> Callable[[int | None], int | None]:
    """A typer callback: the value given for ``what`` (``--wildcards``, ``HAND``), or exit 3
    outside ``bound``. An option left out (None) is left alone."""

    def check(value: int | None) -> int | None:
        return None if value is None else bound.check(value, what)

    return check
