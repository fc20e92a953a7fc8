"""Whole-number options and arguments, read against :mod:`rummyref.bounds` as the command line
is parsed.

click would read ``--wildcards 99999999999999999999`` as a perfectly good Python integer, and
a 10,000-digit one as "not a valid int", echoed whole. :func:`bounded` reads the number
itself: a number out of range is bad input, exit 3, like a number typed at a prompt (the
message names the option and the range, and cuts a long number short); text that is no whole
number at all (``--wildcards x``) stays click's usage error, exit 2, as for any malformed
command line; a number whose thousands are badly grouped (``--wildcards 1,0``) is bad input,
exit 3, never read as 10.
"""

from __future__ import annotations

from collections.abc import Callable

from rummyref.bounds import Bound, bounded_int, is_number_like


def bounded(bound: Bound, what: str) -> Callable[[str], int]:
    """``parser=bounded(WILDCARDS, "--wildcards")`` on a typer option or argument."""

    def parse(text: str) -> int:
        if not is_number_like(text):
            raise ValueError(text)  # click: "Invalid value for '--wildcards': x", exit 2
        return bounded_int(text, what, bound)  # badly grouped (1,0) or out of range: exit 3

    return parse
