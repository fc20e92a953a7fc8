"""Prose for a terminal of any width (80 columns included): long lines wrapped at word
boundaries, a list item's continuation lines hanging under its text.

Cards, names and rule numbers are never split (no word is broken, nor at a hyphen). Machine
output (``--json``, CSV) is never wrapped: only what a person reads goes through here.
"""

from __future__ import annotations

import re
from typing import Any

from rich.cells import cell_len

MIN_WIDTH = 20  #: narrower than this, wrapping would leave a word a line: keep going at 20


def fill(text: str, width: int, indent: str = "", hang: str | None = None, *, split_words: bool = False) -> str:
    """``text`` wrapped to ``width`` terminal cells (a CJK character takes two): the first line
    begins with ``indent``, the next ones with ``hang`` (default: ``indent``). Each line of
    ``text`` is wrapped on its own; a word is never broken (cards, names and rule numbers stay
    whole), so a word wider than the line has a line of its own, unless ``split_words`` (free
    text such as a correction's reason), which cuts such a word to the line. A long player's
    name is written in its shown form (:func:`rummyref.names.in_text`), and a name holding a
    blank is never broken at it."""
    from rummyref.names import in_text

    text = in_text(text)  # a long name in its shown form, before the line is measured
    finder = _word()
    hang = indent if hang is None else hang
    width = max(width, MIN_WIDTH)
    room = max(width - cell_len(hang), 1)
    wrapped = []
    for i, line in enumerate(text.split("\n")):
        lines: list[str] = []
        current = indent if i == 0 else hang
        fresh = True
        words = finder.findall(line.rstrip())
        if split_words:
            words = [piece for word in words for piece in _pieces(word, room)]
        for n, word in enumerate(words):
            if not fresh and cell_len(current) + cell_len(word) > width:
                lines.append(current)
                current, fresh = hang, True
            current += word.lstrip() if fresh and n else word
            fresh = False
        lines.append(current if not fresh else current.rstrip())
        wrapped.append("\n".join(lines))
    return "\n".join(wrapped)


def _word() -> re.Pattern[str]:
    """What :func:`fill` keeps on one line: a word with the blanks before it, a player's name
    holding a blank (:func:`rummyref.names.kept_whole`) being one word with what it touches."""
    from rummyref.names import kept_whole

    names = kept_whole()
    if not names:
        return _WORD
    return re.compile(r"\s*(?:\S*?(?:" + "|".join(map(re.escape, names)) + r")\S*|\S+)")


_WORD = re.compile(r"\s*\S+")


def _pieces(word: str, room: int) -> list[str]:
    """``word`` (with the blanks before it) cut into pieces of at most ``room`` cells."""
    if cell_len(word) <= room:
        return [word]
    pieces, current = [], ""
    for ch in word:
        if current.strip() and cell_len(current + ch) > room:
            pieces.append(current)
            current = ""
        current += ch
    return [*pieces, current]


def echo(console: Any, text: str, *, indent: str = "", hang: str | None = None, style: str | None = None,
         split_words: bool = False) -> None:
    """Print ``text`` on a rich ``console`` wrapped to its width (see :func:`fill`), as typed (no markup),
    measured as the console writes it (:func:`written`)."""
    from rummyref.names import in_text

    text = written(console, in_text(text))
    console.print(fill(text, console.width, indent, hang, split_words=split_words), markup=False, soft_wrap=True,
                  style=style, highlight=False)


def written(console: Any, text: str) -> str:
    """``text`` as ``console`` writes it (``...`` for ``…`` and ``Jos\\xe9`` for ``José`` on a
    terminal that cannot show UTF-8): what a line or a table is measured in."""
    as_written = getattr(console, "as_written", None)
    return as_written(text) if as_written is not None else text


class Grid:
    """A table for a terminal: every cell literal text (a name like ``[b]Ann`` is shown as
    typed, never read as rich markup), names in their shown form (:func:`rummyref.names.shown`,
    told apart within their column), and nothing cut. A column is ``name``d, ``wrap``s (long
    prose such as a hand's arrangement) or keeps its width (numbers, names: never cut);
    ``spare`` columns give way first, in order, when the table is wider than the terminal:
    an empty one is left out (it hides nothing), then each takes its ``short`` form if it
    has one, then those with none are left out, and last those shortened; a line under the
    table names the columns left out that held something."""

    def __init__(self, *, boxed: bool = False) -> None:

        self.boxed = boxed  # rules between the columns and under the heading (a hand's scores)
        self.table = self._new()
        self._names: list[int] = []
        self._spare: list[tuple[int, int, Any]] = []  # (priority, column, short form)

    def column(self, head: str, *, right: bool = False, name: bool = False, wrap: bool = False,
               spare: int = 0, short: Any = None) -> Grid:
        from rich.text import Text

        index = len(self.table.columns)
        self.table.add_column(Text(head), justify="right" if right else "left", no_wrap=not wrap)
        if name:
            self._names.append(index)
        if spare:
            self._spare.append((spare, index, short))
        return self

    def row(self, *cells: Any) -> None:
        self.table.add_row(*cells)

    def print(self, console: Any) -> None:
        """The table on ``console``, fitted to its width (see :func:`print_table`)."""
        from rich.text import Text

        from rummyref.names import shown

        columns = self.table.columns
        cells = [[str(c) for c in col._cells] for col in columns]
        # measured as written: on a terminal that cannot show UTF-8 a name is cut after its
        # letters are escaped, around "..." (names.shown), and every cell is as wide as printed
        for i in self._names:
            cells[i] = [shown(c, among=cells[i]) for c in cells[i]]
        cells = [[written(console, c) for c in col] for col in cells]
        heads = [written(console, str(col.header)) for col in columns]
        dropped: set[int] = set()

        def fits() -> bool:
            return _needed(self.table, heads, cells, dropped) <= console.width

        def widest(i: int) -> int:
            return max(map(cell_len, cells[i]), default=0)

        def wrap_heads() -> None:  # headings wider than their cells, a word a line, the widest first
            wide = sorted((i for i, h in enumerate(heads) if " " in h and cell_len(h) > widest(i)),
                          key=lambda i: widest(i) - cell_len(heads[i]))
            for i in wide:
                if fits():
                    break
                heads[i] = heads[i].replace(" ", "\n")

        wrap_heads()
        spare = sorted(self._spare, key=lambda s: s[0])
        quiet: set[int] = set()
        for _, i, _short in spare:  # an empty spare column goes first, unsaid: it hides nothing
            if fits():
                break
            if not any(c.strip() for c in cells[i]):
                dropped.add(i)
                quiet.add(i)
        for _, i, short in spare:  # then the short forms, least needed first
            if fits():
                break
            if short is not None:
                cells[i] = [written(console, short(c)) for c in cells[i]]
        wrap_heads()
        for _, i, short in spare:  # then the spare columns with no short form are left out
            if fits():
                break
            if short is None:
                dropped.add(i)
        for _, i, _short in spare:  # last, those shortened too
            if fits():
                break
            dropped.add(i)
        fitted = self._new()
        for i, col in enumerate(columns):
            if i not in dropped:
                fitted.add_column(Text(heads[i]), justify=col.justify, no_wrap=col.no_wrap)
        kept = [cells[i] for i in range(len(columns)) if i not in dropped]
        for row in zip(*kept):
            fitted.add_row(*(Text(c) for c in row))
        print_table(console, fitted, _needed(self.table, heads, cells, dropped))
        said = dropped - quiet
        if said:  # never silently: say which, and where they are
            left = ", ".join(" ".join(heads[i].split()) for i in sorted(said))
            console.print(fill(f"  ({left}: left out at this width; a wider terminal or --json shows "
                               f"{'them' if len(said) > 1 else 'it'})", console.width, hang="   "),
                          markup=False, highlight=False)

    def _new(self) -> Any:
        from rich.table import Table

        if self.boxed:
            return Table(show_edge=False, pad_edge=False)
        return Table(box=None, pad_edge=False, header_style="bold")


def _needed(table: Any, heads: list[str], cells: list[list[str]], dropped: set[int]) -> int:
    """The narrowest ``table`` can be printed with nothing cut: each kept column as wide as its
    widest cell (or, where it wraps, its longest word), two cells apart."""
    from rich.cells import cell_len

    widths = []
    for i, col in enumerate(table.columns):
        if i in dropped:
            continue
        texts = [*heads[i].split("\n"), *cells[i]]
        if col.no_wrap:
            widths.append(max(cell_len(t) for t in texts))
        else:
            widths.append(max((cell_len(w) for t in texts for w in t.split()), default=0))
    return sum(widths) + (3 if table.box else 2) * max(len(widths) - 1, 0)


def print_table(console: Any, table: Any, needed: int = 0) -> None:
    """Print a rich ``table`` on ``console`` with no trailing spaces: rich pads every cell to its
    column's width, the last one too, which leaves a left-aligned last column padded out to the
    widest cell. Each line is printed as rendered (styles kept), its trailing blanks cut.
    ``needed``: the width below which the table would cut a cell; a narrower console gets the
    table that wide (a long line, never a number cut short)."""
    from rich.text import Text

    options = console.options.update_width(max(console.width, needed))
    for line in console.render_lines(table, options, pad=False):
        text = Text(end="\n")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
        text.rstrip()
        console.print(text, soft_wrap=True, highlight=False)
