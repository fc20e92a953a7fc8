"""``ref chart``: each player's total night after night, the target and the projected finish;
in the terminal (plotext) and, with ``--png FILE``, as an image (matplotlib, the ``chart`` extra).
Both libraries are imported inside the command only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Optional

import typer

from rummyref.bounds import CHART_HEIGHT, CHART_WIDTH
from rummyref.cli.common import DbOption, GameOption, JsonOption, db_choice, out, print_json, say, write_whole
from rummyref.cli.numbers import bounded
from rummyref.errors import UnreadableInput, and_list


def chart(
    game: GameOption = None,
    png: Annotated[Optional[Path], typer.Option("--png", metavar="FILE", help="Write the chart as a PNG image instead (not with --json; needs matplotlib: pip install 'rummyref[chart]'); never onto the record, nor an existing file without --overwrite.")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="With --png: replace FILE if it exists.")] = False,
    width: Annotated[Optional[int], typer.Option("--width", metavar="N", parser=bounded(CHART_WIDTH, "--width"), help="Width: terminal columns (default: the terminal's), or PNG pixels (default 1000).")] = None,
    height: Annotated[Optional[int], typer.Option("--height", metavar="N", parser=bounded(CHART_HEIGHT, "--height"), help="Height: terminal lines, title and legend included (default 24, or more if the chart needs more), or PNG pixels (default 600). In the terminal, a height too small for the title, the legend and 7 lines of plot is refused, naming the least it needs.")] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Each player's total over the Rummy Nights, with the target line and the projected crossing."""
    from rummyref.games.registry import kind_for
    from rummyref.stats.chart import chart_data
    from rummyref.store.stats import read_chart

    if json_ and png is not None:  # one output or the other: neither is dropped unsaid
        raise UnreadableInput("--json and --png cannot be given together: --json prints the chart's data, "
                              "--png writes its image",
                              hint="give one: ref chart --json for the data, or ref chart --png FILE for the image")
    if json_ and (width is not None or height is not None):  # the data has no size: never ignored unsaid
        given = [o for o, v in (("--width", width), ("--height", height)) if v is not None]
        are, they = ("is", "it sizes") if len(given) == 1 else ("are", "they size")
        raise UnreadableInput(f"{' and '.join(given)} {are} not for --json: --json prints the chart's data, "
                              "which has no size",
                              hint=f"leave {' and '.join(given)} out with --json ({they} the terminal chart and "
                                   "--png FILE)")
    if overwrite and png is None:
        raise UnreadableInput("--overwrite is for --png FILE: without --png no file is written",
                              hint="give --png FILE with it, or leave --overwrite out")
    typed = png
    if png is not None:  # checked before anything is read: a slip (--png rummy.db) must not cost the record
        from rummyref.store.location import destination_check

        if not png.name:
            raise UnreadableInput(f"--png {str(png)!r} is not a file name", hint="e.g. --png chart.png")
        typed, png = png, destination_check(db_choice(db), png, overwrite, "ref chart --png", "chart.png")
    read = read_chart(db_choice(db), game, lambda rs: kind_for(rs).stats_style(rs).counts)
    kind = kind_for(read.ruleset)
    style = kind.stats_style(read.ruleset)
    measure = "games won" if style.counts else "total"
    data = chart_data(read.game, read.nights, kind.projection(read.summary), measure, read.games, style.session,
                      read.ruleset.session_word, read.ruleset.hand_word)
    if json_:
        print_json(data.to_json())
        return
    if data.empty:
        say(f"nothing to chart yet: {data.game} {_nothing_yet(read)}")
        return
    if png is not None:
        missing = write_png(data, png, width or 1000, height or 600, overwrite)
        if missing:
            say(_missing_glyphs(data, missing))
        say(f"chart written to {typed} ({width or 1000}x{height or 600} pixels)")
        return
    columns = width or out.width
    if height is None:
        height = max(24, least_height(data, columns))  # a long legend at a narrow terminal needs more
    # in colour only where the other commands are (a terminal, not TERM=dumb, no NO_COLOR), and
    # through rich as styles: its raw codes counted as text would fold every line of the plot
    colour = out.color_system is not None
    text = terminal_chart(data, columns, height, colour=colour)
    # laid out already, to --width (which may be wider than the terminal, or than 80 in a pipe):
    # printed as it is, never wrapped again at the console's width
    if colour:
        from rich.text import Text

        out.print(Text.from_ansi(text), soft_wrap=True)
    else:
        out.print(text, markup=False, highlight=False, soft_wrap=True)


def _nothing_yet(read) -> str:
    """Why there is nothing to chart, and what to do: with a session open, ``ref new-session``
    is refused (exit 4), so the advice is to record a hand in it (a session with no hand in
    force counts nowhere, SPEC §8)."""
    rs = read.ruleset
    number = read.summary.open_session
    if number is None:
        return f"has no {rs.session_word} counted (ref new-session opens one)"
    return (f"has no {rs.hand_word} in force ({rs.session_word} {number} is open: ref score-hand or ref night "
            f"records a {rs.hand_word})")


def _wrap(text: str, width: int) -> list[str]:
    """A title line wrapped as every line of prose is (a long name in its shown form, whole)."""
    from rummyref.wrap import fill

    return fill(text, width, split_words=True).split("\n")


def text_legend(data, width: int) -> list[str]:
    """The legend under the terminal chart: each entry as "MARKER label", as many to a line as fit
    ``width`` terminal cells; an entry too long for a line is wrapped, never cut (its next lines
    indented under the label). A far projection is the title's second line instead."""
    from rich.cells import cell_len

    from rummyref.wrap import fill

    lines: list[str] = []
    line = ""
    for e in data.legend:
        if e.kind == "projection":
            continue
        item = f"{e.marker} {e.label}"
        if line and cell_len(line) + 3 + cell_len(item) <= width:
            line += "   " + item
            continue
        if line:
            lines.append(line)
        if cell_len(item) <= width:
            line = item
        else:
            indent = " " * (len(e.marker) + 1) if len(e.marker) + 1 <= width // 2 else ""
            lines += fill(item, width, hang=indent, split_words=True).split("\n")
            line = ""
    if line:
        lines.append(line)
    return lines


#: the least lines the plot itself takes: its frame (2), 3 rows of lines, the night numbers and
#: the axis label
PLOT_LINES = 7


def _head(data, width: int) -> list[str]:
    return [part for line in (data.title, data.subtitle) if line for part in _wrap(line, width)]


def least_height(data, width: int) -> int:
    """The fewest terminal lines the chart fits in at ``width`` columns: the title, the legend
    (both wrapped to the width) and :data:`PLOT_LINES` of plot."""
    return len(_head(data, width)) + len(text_legend(data, width)) + PLOT_LINES


def terminal_chart(data, width: int, height: int, colour: bool = False) -> str:
    """The title, the plot and the legend, in at most ``width`` columns and ``height`` lines: the
    plot takes what the title and the legend leave. A height that leaves the plot fewer than
    :data:`PLOT_LINES` lines is refused (exit 3), naming the least the chart needs."""
    import plotext as plt

    head = _head(data, width)
    legend = text_legend(data, width)
    least = len(head) + len(legend) + PLOT_LINES
    if height < least:
        raise UnreadableInput(
            f"--height {height:,} is too small for this chart at {width:,} columns: it needs at least "
            f"{least:,} lines (title {len(head)}, legend {len(legend)}, plot {PLOT_LINES})",
            hint=f"give --height {least:,} or more (a wider --width may need fewer)",
        )
    plt.clear_figure()
    plt.limit_size(False, False)  # the size asked, never cut to the terminal's (nor to 80 x 24 in a pipe)
    plt.plotsize(width, height - len(head) - len(legend))
    plt.theme("clear")
    lo, hi = data.x_range
    ys: list[float] = []
    if data.projection_drawn:  # the target first: the lines near it are drawn over it
        plt.plot([lo, hi], [data.target, data.target], marker="-", color="red")
        ys.append(data.target)
    for i, s in reversed(list(enumerate(data.series))):  # the first player's line drawn last, on top
        plt.plot(list(s.nights), list(s.totals), marker=s.marker, color=_colour(i))
        ys += s.totals
    if data.projection_drawn:
        columns = max(width - 12, 10)  # about the plot's columns, less the y-axis labels
        for i, s in enumerate(data.series):
            if s.projection:
                (x0, y0), (x1, y1) = s.projection[0], s.projection[-1]
                # a marker every 3 columns or so, each player's a little further on: lines that run
                # together still show every player's marker in turn
                steps = max(2, int(columns * (x1 - x0) / max(hi - lo, 1) / 3))
                at = [(k - i / len(data.series)) / steps for k in range(1, steps + 1)]
                plt.scatter([x0 + (x1 - x0) * f for f in at], [y0 + (y1 - y0) * f for f in at], marker=s.marker,
                            color=_colour(i))
                ys.append(y1)
        if data.crossing:
            plt.scatter([data.crossing.night], [data.target], marker="x", color="red")
    plt.xlim(lo, hi)
    rows = height - len(head) - len(legend) - 4  # the plot's rows, inside its frame
    count = max(3, min(6, height // 4))
    if data.measure != "total" and max(ys) - min(ys) < 2 * count:
        count = min(int(max(ys) - min(ys)) + 1, rows)  # a few games won: every whole number (that fits)
    yticks = _ends(*_inside(*_ticks(min(ys), max(ys), count, whole=data.measure != "total"), min(ys), max(ys)),
                   min(ys), max(ys), rows)
    plt.yticks(*yticks)
    # the night numbers: as many as fit the columns the y-axis labels leave, each apart from the next
    columns = width - max(len(label) for label in yticks[1]) - 2
    xcount = max(2, min(6, columns // (len(f"{hi:,.0f}") + 3)))
    plt.xticks(*_inside(*_ticks(lo, hi, xcount, whole=True), lo, hi))
    plt.xlabel(data.x_label)
    text = plt.build()
    text = text if colour else plt.uncolorize(text)
    return "\n".join(head + [text.rstrip("\n")] + legend)


def _inside(values: list[float], labels: list[str], lo: float, hi: float) -> tuple[list[float], list[str]]:
    """The ticks on the axis: plotext prints one beyond the range on the row (or the column) after
    the axis, over the other axis's labels. The nearest is kept if none is inside."""
    kept = [(v, t) for v, t in zip(values, labels) if lo <= v <= hi]
    if not kept:
        kept = [min(zip(values, labels), key=lambda vt: abs(vt[0] - lo))]
    return [v for v, _ in kept], [t for _, t in kept]


def _ends(values: list[float], labels: list[str], lo: float, hi: float, rows: int) -> tuple[list[float], list[str]]:
    """The y-axis labels with the top row (the leader's line, or the target) and the bottom row
    labelled, each with its own value, where no round value falls on that row: a few rows (a small
    --height, totals a billion apart) keep their scale. A round value on a row an end takes is
    dropped (plotext would print both labels over each other)."""
    if rows < 3 or hi <= lo:
        return values, labels

    def row(v: float) -> int:
        return round((v - lo) / (hi - lo) * (rows - 1))

    kept = dict(zip(values, labels))
    for end in (hi, lo):
        if not any(row(v) == row(end) for v in kept):
            kept = {v: t for v, t in kept.items() if abs(row(v) - row(end)) > 0 or v == end}
            kept[end] = f"{end:,.0f}"
    ordered = sorted(kept)
    return ordered, [kept[v] for v in ordered]


_COLOURS = ("blue", "green", "orange", "magenta", "cyan", "yellow", "white", "gray")


def _colour(i: int) -> str:
    return _COLOURS[i % len(_COLOURS)]


def _ticks(lo: float, hi: float, count: int, whole: bool = False) -> tuple[list[float], list[str]]:
    """Round, readable tick values between lo and hi (e.g. 0, 500,000, 1,000,000);
    ``whole``: whole numbers only (night numbers)."""
    import math

    span = max(hi - lo, 1)
    raw = span / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    if whole:
        step = max(1, round(step))
    start = math.floor(lo / step) * step
    values = [start + i * step for i in range(int((hi - start) / step) + 2) if start + i * step <= hi + step / 2]
    return values, [f"{v:,.0f}" if step >= 1 else f"{v:,.1f}" for v in values]


def write_png(data, path: Path, width: int, height: int, overwrite: bool = False) -> list[str]:
    """The chart as a PNG file, written whole or not at all (:func:`write_whole`); the characters
    of the names no installed font could draw (shown as boxes), in the order met."""
    try:
        import matplotlib
    except ImportError:
        raise UnreadableInput(
            "--png needs matplotlib, which is not installed",
            hint="pip install 'rummyref[chart]' (or pip install matplotlib)",
        ) from None
    import warnings

    matplotlib.use("Agg")
    # names are drawn as typed, never read as TeX ($...$: mathtext), and matplotlib's own warnings
    # (a glyph the font lacks, a layout too tight at a small size) never reach the user raw: a
    # missing glyph is said once, in ref's words, by the caller
    with matplotlib.rc_context({"text.usetex": False, "text.parse_math": False, "font.sans-serif": _fonts()}), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _draw_png(data, path, width, height, overwrite)
    missing: list[str] = []
    for w in caught:
        found = _GLYPH.search(str(w.message))
        if found and chr(int(found.group(1))) not in missing:
            missing.append(chr(int(found.group(1))))
    return missing


#: matplotlib's warning for a character none of the fonts has: "Glyph 26446 (...) missing from font(s) ..."
_GLYPH = re.compile(r"Glyph (\d+) .*missing from")

#: fonts tried after matplotlib's own (DejaVu Sans) for the characters it lacks, where installed:
#: CJK and other scripts a name may be written in
_FALLBACK_FONTS = ("Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Sans CJK TC", "Noto Sans CJK KR",
                   "Source Han Sans", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Droid Sans Fallback",
                   "Microsoft YaHei", "SimHei", "MS Gothic", "Yu Gothic", "Malgun Gothic", "PingFang SC",
                   "Hiragino Sans", "Apple SD Gothic Neo", "Arial Unicode MS", "Noto Sans", "Noto Sans Symbols")


def _missing_glyphs(data, missing: list[str]) -> str:
    """The warning for characters no installed font has, once, naming whose names hold them."""
    from rummyref.names import shown

    whose = [shown(n) for n in [data.game, *(s.name for s in data.series)] if any(c in n for c in missing)]
    them = "it" if len(missing) == 1 else "them"
    return (f"warning: no font installed here has the character{'s' if len(missing) > 1 else ''} "
            f"{and_list(missing)} (in {and_list(whose)}): the image shows {them} as empty boxes; the chart "
            f"is written all the same (a font such as Noto Sans CJK, once installed, draws {them})")


def _fonts() -> list[str]:
    """DejaVu Sans, then each fallback font installed (matplotlib takes a glyph it lacks from the
    next font of the list)."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    return ["DejaVu Sans"] + [f for f in _FALLBACK_FONTS if f in installed]


def _draw_png(data, path: Path, width: int, height: int, overwrite: bool) -> None:
    from matplotlib import pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    dpi = 100
    fig, ax = plt.subplots(figsize=(width / dpi, height / dpi), dpi=dpi)
    try:
        colours = {}
        for i, s in enumerate(data.series):
            every = max(1, len(s.nights) // 12)  # about a dozen markers a line, staggered between lines
            (line,) = ax.plot(s.nights, s.totals, linewidth=1.8, marker=s.png_marker, markersize=6,
                              markevery=(i * every // max(len(data.series), 1) % every, every),
                              zorder=3 + len(data.series) - i)  # the first player's line on top
            colours[s.name] = line.get_color()
            for x in s.dropped:  # S14: the game the player dropped out of
                y = s.totals[s.nights.index(x)]
                ax.plot([x], [y], marker=s.png_marker, markersize=11, markerfacecolor="white",
                        color=line.get_color(), linestyle="none", zorder=20)
                ax.annotate("dropped out", (x, y), textcoords="offset points", xytext=(0, -16), ha="center",
                            fontsize=8, color=line.get_color())
            if data.projection_drawn and s.projection:
                ax.plot([x for x, _ in s.projection], [y for _, y in s.projection], linestyle="--",
                        color=line.get_color(), alpha=0.7)
        lo, hi = data.x_range
        handles = []
        for e, s in zip(data.legend, data.series):
            handles.append(Line2D([], [], color=colours[s.name], marker=s.png_marker, markersize=6, label=e.label))
        for e in data.legend[len(data.series):]:
            if e.kind == "pace":
                handles.append(Line2D([], [], color="gray", linestyle="--", label=e.label))
            elif e.kind == "target":
                handles.append(Line2D([], [], color="red", linewidth=1, label=e.label))
            elif e.kind == "crossing":
                handles.append(Line2D([], [], color="red", marker="X", markersize=9, linestyle="none", label=e.label))
            elif e.kind == "projection":
                label = e.label.replace("projected: ", "projected, at this pace:\n")
                handles.append(Line2D([], [], color="gray", linestyle="--", marker=">", label=label))
        if data.projection_drawn and data.target:
            ax.axhline(data.target, color="red", linewidth=1)
            ax.set_ylim(top=data.target * 1.06)
        if data.projection_drawn and data.crossing:
            ax.plot([data.crossing.night], [data.target], marker="X", markersize=10, color="red", linestyle="none")
            when = f" ({data.crossing.date})" if data.crossing.date else ""
            ax.annotate(f"{data.crossing.name}: night {data.crossing.night:,}{when}", (data.crossing.night, data.target),
                        textcoords="offset points", xytext=(-12, 5), ha="right", va="bottom", fontsize=9)
        right = 0.0
        if data.projection_label and data.crossing and not data.projection_drawn:
            right = _projection_arrows(ax, data, colours)  # the label is in the legend, not the title
            title = data.title
        else:
            title = data.title + (f"\n{data.subtitle}" if data.subtitle else "")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(data.x_label)
        ax.set_ylabel("total points" if data.measure == "total" else data.measured)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:,.0f}"))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:,.0f}"))
        if data.measure != "total":
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        pad = max(hi - lo, 1) * 0.03
        ax.set_xlim(lo - pad, hi + right + pad)
        ax.grid(True, alpha=0.3)
        ax.legend(handles=handles, loc="best", fontsize=8)
        fig.tight_layout()
        import io

        image = io.BytesIO()
        fig.savefig(image, format="png", dpi=dpi)
        write_whole(path, image.getvalue(), overwrite)
    finally:
        plt.close(fig)


def _projection_arrows(ax, data, colours) -> float:
    """A far finish, off the axis: each line goes on a little way as a dashed arrow at its pace
    (the legend says where it leads). The width taken to the right of the last night."""
    lo, hi = data.x_range
    stub = max(hi - lo, 1) * 0.2
    for s in data.series:
        if s.pace_per_night is None or s.name not in colours:
            continue
        x, y = s.nights[-1], s.totals[-1]
        ax.plot([x + stub], [y + s.pace_per_night * stub], alpha=0)  # the axis makes room for the arrow
        ax.annotate("", xy=(x + stub, y + s.pace_per_night * stub), xytext=(x, y),
                    arrowprops={"arrowstyle": "-|>", "linestyle": "--", "color": colours[s.name], "lw": 1.5,
                                "shrinkA": 0, "shrinkB": 0})
    return stub


def register(app: typer.Typer) -> None:
    app.command("chart")(chart)
