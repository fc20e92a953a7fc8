"""Prose for a terminal of any width (80 columns included): long lines wrapped at word
boundaries, a list item's continuation lines hanging under its text.

Cards, names and rule numbers are never split (no word is broken, nor at a hyphen). Machine
output (``--json``, CSV) is never wrapped: only what a person reads goes through here.
"""

from __future__ import annotations

import textwrap
from typing import Any

MIN_WIDTH = 20  #: narrower than this, wrapping would leave a word a line: keep going at 20


def fill(text: str, width: int, indent: str = "", hang: str | None = None) -> str:
    """``text`` wrapped to ``width`` columns: the first line begins with ``indent``, the next ones
    with ``hang`` (default: ``indent``). Each line of ``text`` is wrapped on its own."""
    hang = indent if hang is None else hang
    wrapped = []
    for i, line in enumerate(text.split("\n")):
        first = indent if i == 0 else hang
        wrapped.append(textwrap.fill(line, width=max(width, MIN_WIDTH), initial_indent=first, subsequent_indent=hang,
                                     break_long_words=False, break_on_hyphens=False) or first.rstrip())
    return "\n".join(wrapped)


def echo(console: Any, text: str, *, indent: str = "", hang: str | None = None, style: str | None = None) -> None:
    """Print ``text`` on a rich ``console`` wrapped to its width (see :func:`fill`), as typed (no markup)."""
    console.print(fill(text, console.width, indent, hang), markup=False, soft_wrap=True, style=style, highlight=False)


def print_table(console: Any, table: Any) -> None:
    """Print a rich ``table`` on ``console`` with no trailing spaces: rich pads every cell to its
    column's width, the last one too, which leaves a left-aligned last column padded out to the
    widest cell. Each line is printed as rendered (styles kept), its trailing blanks cut."""
    from rich.text import Text

    for line in console.render_lines(table, console.options, pad=False):
        text = Text(end="\n")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
        text.rstrip()
        console.print(text, soft_wrap=True, highlight=False)
