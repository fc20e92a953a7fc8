"""``ref chart``: each player's total night after night, the target and the projected finish;
in the terminal (plotext) and, with ``--png FILE``, as an image (matplotlib, the ``chart`` extra).
Both libraries are imported inside the command only."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from rummyref.bounds import CHART_HEIGHT, CHART_WIDTH
from rummyref.cli.common import DbOption, GameOption, JsonOption, db_choice, out, print_json, say
from rummyref.cli.numbers import bounded
from rummyref.errors import UnreadableInput


def chart(
    game: GameOption = None,
    png: Annotated[Optional[Path], typer.Option("--png", metavar="FILE", help="Also write the chart as a PNG image (needs matplotlib: pip install 'rummyref[chart]').", dir_okay=False)] = None,
    width: Annotated[Optional[int], typer.Option("--width", parser=bounded(CHART_WIDTH, "--width"), help="Width: terminal columns (default: the terminal's), or PNG pixels (default 1000).")] = None,
    height: Annotated[Optional[int], typer.Option("--height", parser=bounded(CHART_HEIGHT, "--height"), help="Height: terminal lines (default 24), or PNG pixels (default 600).")] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Each player's total over the Rummy Nights, with the target line and the projected crossing."""
    from rummyref.games.registry import kind_for
    from rummyref.stats.chart import chart_data
    from rummyref.store.stats import read_chart

    read = read_chart(db_choice(db), game)
    kind = kind_for(read.ruleset)
    measure = "games won" if kind.stats_style(read.ruleset).counts else "total"
    data = chart_data(read.game, read.nights, kind.projection(read.summary), measure)
    if json_:
        print_json(data.to_json())
        return
    if data.empty:
        say(f"nothing to chart yet: {data.game} has no Rummy Night recorded (ref new-session opens one)")
        return
    if png is not None:
        write_png(data, png, width or 1000, height or 600)
        say(f"chart written to {png} ({width or 1000}x{height or 600} pixels)")
        return
    out.print(_title(data), markup=False)
    out.print(terminal_chart(data, width or out.width, height or 24), markup=False, highlight=False)


def _title(data) -> str:
    """One or two lines: what is drawn; the projected crossing (or the winner)."""
    what, night = ("games won", "session") if data.measure == "games won" else ("total", "night")
    head = f"{data.game}: {what} after each {night}"
    if data.over:
        return f"{head} (game over: {data.winner} won)"
    if data.crossing:
        when = f", about {data.crossing.date}" if data.crossing.date else ""
        return f"{head}\nat this pace {data.crossing.name} reaches the target on night {data.crossing.night:,}{when}"
    return head


def terminal_chart(data, width: int, height: int) -> str:
    import plotext as plt

    plt.clear_figure()
    plt.plotsize(width, height)
    plt.theme("clear")
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    ys: list[float] = []
    for i, s in enumerate(data.series):
        plt.plot(list(s.nights), list(s.totals), label=s.name, marker="braille", color=_colour(i))
        ys += s.totals
    for i, s in enumerate(data.series):
        if s.projection:
            plt.plot([x for x, _ in s.projection], [y for _, y in s.projection], label=f"{s.name} at pace",
                     marker="dot", color=_colour(i))
            ys += [y for _, y in s.projection]
    if data.target:
        end = max([data.crossing.night if data.crossing else 0] + [s.nights[-1] for s in data.series])
        plt.plot([0, end], [data.target, data.target], label=f"target {data.target:,}", marker="-", color="red")
        ys.append(data.target)
    if data.crossing:
        plt.scatter([data.crossing.night], [data.target], marker="x", color="red")
    xs = [x for s in data.series for x in s.nights + tuple(n for n, _ in s.projection)]
    plt.xticks(*_ticks(min(xs), max(xs), 6, whole=True))
    plt.yticks(*_ticks(min(ys), max(ys), max(3, min(6, height // 4))))
    plt.xlabel("session" if data.measure == "games won" else "Rummy Night")
    text = plt.build()
    return text if colour else plt.uncolorize(text)


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


def write_png(data, path: Path, width: int, height: int) -> None:
    try:
        import matplotlib
    except ImportError:
        raise UnreadableInput(
            "--png needs matplotlib, which is not installed",
            hint="pip install 'rummyref[chart]' (or pip install matplotlib)",
        ) from None
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    dpi = 100
    fig, ax = plt.subplots(figsize=(width / dpi, height / dpi), dpi=dpi)
    try:
        for s in data.series:
            dots = "o" if len(s.nights) <= 30 else None  # a short history: show each night
            (line,) = ax.plot(s.nights, s.totals, label=s.name, linewidth=1.8, marker=dots, markersize=4)
            if s.projection:
                ax.plot([x for x, _ in s.projection], [y for _, y in s.projection], linestyle="--",
                        color=line.get_color(), alpha=0.7, label=f"{s.name} at pace ({s.pace_per_night:,.0f}/night)")
        if data.target:
            ax.axhline(data.target, color="red", linewidth=1, label=f"target {data.target:,}")
        if data.crossing:
            ax.plot([data.crossing.night], [data.target], marker="X", markersize=10, color="red", linestyle="none")
            when = f"\n{data.crossing.date}" if data.crossing.date else ""
            ax.annotate(f"{data.crossing.name}: night {data.crossing.night:,}{when}",
                        (data.crossing.night, data.target), textcoords="offset points", xytext=(-20, -48),
                        ha="right", fontsize=9, bbox={"boxstyle": "round", "fc": "white", "alpha": 0.8})
        ax.set_title(_title(data), fontsize=10)
        ax.set_xlabel("session" if data.measure == "games won" else "Rummy Night")
        ax.set_ylabel("games won" if data.measure == "games won" else "total points")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:,.0f}"))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:,.0f}"))
        if data.target:
            ax.set_ylim(top=data.target * 1.06)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left", fontsize=8)
        fig.tight_layout()
        try:
            fig.savefig(path, format="png", dpi=dpi)
        except OSError as exc:
            from rummyref.errors import StorageError

            raise StorageError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def register(app: typer.Typer) -> None:
    app.command("chart")(chart)
