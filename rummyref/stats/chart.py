"""What ``ref chart`` draws: each player's total after every Rummy Night, the target and the
projected finish at the standings' pace (``core.session.pace``, read from the standings); and
how it is laid out (the axis, each line's marker, the legend, the projection's label), so that
the terminal chart and the PNG draw the same thing and the tests can read it.

The projection runs every player's line on at their own pace per night until the night the
fastest of them would reach the target: the game ends there (A7), so that is the projected
crossing, with its date (one Rummy Night a week, A5). The projection is drawn on the axis only
when it is near (:data:`NEAR`): after one or two nights the finish is thousands of nights away,
and an axis running there would squeeze the nights played into one dot at 0. Then the axis
shows the nights played and a label says where the pace leads.

Simple Rummy has no target: its chart shows each player's games won, session after session,
or game after game when there is a single session (with the counts in the legend).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Protocol

from rummyref.errors import and_list, plural
from rummyref.names import shown
from rummyref.record import Game, tenths
from rummyref.rules.ruleset import plural_word
from rummyref.stats.compute import HandLine

#: the projection is drawn on the axis when it ends within NEAR times the nights played
NEAR = 3
#: each line's marker, in roster order: in the terminal (a character) and in the PNG (matplotlib's)
#: (twelve: Simple Rummy seats up to ten, so every player has a marker of their own)
TEXT_MARKERS = ("o", "^", "*", "#", "@", "%", "&", "=", "$", "~", "?", "!")
PNG_MARKERS = ("o", "P", "*", "s", "D", "^", "v", "h", "p", "<", "d", "H")


class PacedPlayer(Protocol):
    name: str
    rank: int
    pace_per_night: float | None
    nights_to_go: int | None
    projected_date: str | None
    points: int | None  #: won at the table (the opening balance apart): the exact pace is points / nights


class Standings(Protocol):
    """What the chart projects from: a game's standings toward its target (the kind gives them)."""

    over: bool
    nights: int

    @property
    def players(self) -> Sequence[PacedPlayer]: ...


def _half_up(x: float) -> int:
    """``x`` to the nearest whole number, a half away from zero (47.5 -> 48, 32.5 -> 33), not to
    the even one as Python's formatting does (which showed 47.5 as +48 and 32.5 as +32)."""
    import math

    return int(math.copysign(math.floor(abs(x) + 0.5), x))


@dataclass(frozen=True)
class NightPoints:
    night: int
    points: tuple[tuple[str, int], ...]  #: what each player won that night (points, or games won)


@dataclass(frozen=True)
class Series:
    name: str
    nights: tuple[int, ...]  #: the x values: 0 = the start (opening balance), then each night (or game)
    totals: tuple[int, ...]
    projection: tuple[tuple[int, int], ...] = ()  #: (night, projected total): from now to the crossing
    pace_per_night: float | None = None
    marker: str = "o"  #: in the terminal chart
    png_marker: str = "o"  #: in the PNG
    dropped: tuple[int, ...] = ()  #: by game: the games the player dropped out of (S14)


@dataclass(frozen=True)
class Crossing:
    name: str
    night: int
    date: str | None


@dataclass(frozen=True)
class LegendEntry:
    kind: str  #: "player", "pace" (the projected lines), "target", "crossing", or "projection" (a far finish)
    marker: str  #: as the terminal chart shows it
    label: str


@dataclass(frozen=True)
class ChartData:
    game: str
    ruleset: str
    measure: str  #: "total" or "games won"
    target: int | None
    nights: int
    over: bool
    winner: str | None
    series: tuple[Series, ...]
    crossing: Crossing | None
    by: str = "night"  #: what one step on the x-axis is: "night", "session" or "game"
    x_label: str = "Rummy Night"
    x_range: tuple[int, int] = (0, 0)  #: the axis drawn
    projection_drawn: bool = False  #: the projected lines (and the target) are on the axis
    projection_label: str | None = None  #: where the pace leads, in words
    legend: tuple[LegendEntry, ...] = ()
    #: the rule set's words for a game (a hand) and a session in a sentence, for the printed
    #: title only: the JSON keeps ref's own values (``measure``: ``games won``)
    unit: str = "game"
    session: str = "session"

    @property
    def empty(self) -> bool:
        return self.nights == 0

    @property
    def measured(self) -> str:
        """The measure in the rule set's words (``games won``, a house's ``deals won``)."""
        return self.measure if self.measure == "total" else f"{plural_word(self.unit)} won"

    @property
    def title(self) -> str:
        """What is drawn (first line of the chart's title)."""
        if self.by == "game":  # the games in force: a voided one's number is on the axis, with no point
            played = self.series[0].nights[1:] if self.series else ()
            voided = [f"{n:,}" for n in range(self.x_range[0] + 1, self.x_range[1] + 1) if n not in played]
            gap = (f"; {self.unit if len(voided) == 1 else plural_word(self.unit)} {and_list(voided)} voided"
                   if voided else "")
            return (f"{self.game}: {self.measured} after each {self.unit} of the {self.session} "
                    f"({_plural(len(played), self.unit, plural_word(self.unit))}{gap})")
        return f"{self.game}: {self.measured} after each {self.by} ({_plural(self.nights, self.by)})"

    @property
    def subtitle(self) -> str | None:
        """The second line: the winner of a finished game, or where the pace leads."""
        if self.over and self.winner:
            return f"game over: {self.winner} won"
        return self.projection_label

    def to_json(self) -> dict:
        data = asdict(self)
        del data["unit"], data["session"]  # words for the printed title, not data
        return data


_plural = plural  # one helper for every count in words (rummyref.errors.plural)


def chart_data(game: Game, nights: Sequence[NightPoints], st: Standings | None, measure: str,
               games: Sequence[HandLine] | None = None, session_word: str = "night",
               session_title: str = "Rummy Night", unit: str = "game") -> ChartData:
    """The chart of a game: by night (``session_word``: what a sitting is called in a sentence,
    ``session_title`` on the axis), or by game when ``games`` (the games of a single session of a
    low-count kind) are given; ``unit``: the rule set's word for a game counted as won."""
    if games:
        return _by_game(game, nights, games, measure, unit, session_word)
    start = {p.name: (p.opening if measure == "total" else 0) for p in game.players}
    running = dict(start)
    lines: dict[str, tuple[list[int], list[int]]] = {n: ([0], [v]) for n, v in start.items()}
    for night in nights:
        for name, pts in night.points:
            running[name] = running.get(name, 0) + pts
        for name, total in running.items():
            xs, ys = lines.setdefault(name, ([], []))
            xs.append(night.night)
            ys.append(total)
    last = nights[-1].night if nights else 0
    crossing = _crossing(st, st.nights) if st is not None and not st.over and game.target else None
    drawn = crossing is not None and crossing.night <= NEAR * max(last, 1)
    series = []
    legend = []
    for i, (name, (xs, ys)) in enumerate(lines.items()):
        row = next((p for p in st.players if p.name == name), None) if st else None
        pace = row.pace_per_night if row else None
        # the standings show the pace to 0.1; the line goes on at the exact one (points / nights)
        exact = row.points / st.nights if (row is not None and st is not None and st.nights and pace is not None
                                            and row.points is not None) else pace
        proj: tuple[tuple[int, int], ...] = ()
        if crossing and exact is not None and exact > 0:
            ahead = crossing.night - last
            proj = ((last, ys[-1]), (crossing.night, round(ys[-1] + exact * ahead)))
        s = Series(name, tuple(xs), tuple(ys), proj, pace, *_markers(i))
        series.append(s)
        label = f"{shown(name)} {ys[-1]:,}"
        if measure != "total":
            label = f"{shown(name)}: {_plural(ys[-1], unit, plural_word(unit))} won"
        elif pace is not None and not game.over:
            label += f" ({_half_up(exact if exact is not None else pace):+,d} a {session_word})"
        legend.append(LegendEntry("player", s.marker, label))
    projected: str | None = None
    if crossing:
        ahead = crossing.night - last
        when = f" (about {crossing.date})" if crossing.date else ""
        projected = f"projected: {crossing.name} reaches {game.target:,} in {_plural(ahead, session_word)}{when}"
    if projected and not drawn:
        legend.append(LegendEntry("projection", "->", projected))  # off the axis: arrows in the PNG
    if drawn:
        # each projected line is drawn with its player's marker: the legend shows those markers
        # (one player's twice, as a dotted line of it)
        marks = [s.marker for s in series if s.projection] or [series[0].marker]
        legend += [LegendEntry("pace", " ".join(marks if len(marks) > 1 else marks * 2), "at this pace"),
                   LegendEntry("target", "--", f"target {game.target:,}"),
                   LegendEntry("crossing", "x", "projected finish")]
    end = crossing.night if drawn and crossing else last
    by = session_word
    return ChartData(
        game=game.name,
        ruleset=game.ruleset,
        measure=measure,
        target=game.target,
        nights=len(nights),
        over=game.over,
        winner=game.winner,
        series=tuple(series),
        crossing=crossing,
        by=by,
        x_label=session_title,
        x_range=(0, end),
        projection_drawn=drawn,
        projection_label=projected,
        legend=tuple(legend),
        unit=unit,
        session=session_word,
    )


def _markers(i: int) -> tuple[str, str]:
    return TEXT_MARKERS[i % len(TEXT_MARKERS)], PNG_MARKERS[i % len(PNG_MARKERS)]


def _by_game(game: Game, nights: Sequence[NightPoints], games: Sequence[HandLine], measure: str,
             unit: str = "game", session: str = "session") -> ChartData:
    """A single session of a low-count game: games won after each game, and the counts."""
    names = list(dict.fromkeys([p.name for p in game.players] + [n for h in games for n, _ in h.points]))
    at_table = [n for n in names if any(n == m for h in games for m, _ in h.points)]
    first = games[0].hand - 1
    series, legend = [], []
    for i, name in enumerate(at_table):
        xs, ys, total = [first], [0], 0
        counts: list[int] = []
        dropped: list[int] = []
        for h in games:
            total += dict(h.points).get(name, 0)
            xs.append(h.hand)
            ys.append(total)
            if name in h.dropped:
                dropped.append(h.hand)
            elif name in dict(h.counts):
                counts.append(dict(h.counts)[name])
        s = Series(name, tuple(xs), tuple(ys), (), None, *_markers(i), tuple(dropped))
        series.append(s)
        label = f"{shown(name)}: {_plural(total, unit, plural_word(unit))} won"
        if counts:
            label += f", average count {tenths(sum(counts), len(counts)):,.1f}"
        if dropped:
            label += f", dropped out of {_plural(len(dropped), unit, plural_word(unit))}"
        legend.append(LegendEntry("player", s.marker, label))
    return ChartData(
        game=game.name,
        ruleset=game.ruleset,
        measure=measure,
        target=None,
        nights=len(nights),
        over=game.over,
        winner=game.winner,
        series=tuple(series),
        crossing=None,
        by="game",
        x_label=unit,
        x_range=(first, games[-1].hand),
        legend=tuple(legend),
        unit=unit,
        session=session,
    )


def _crossing(st: Standings, last: int) -> Crossing | None:
    """The first projected crossing of the target (the standings' nights to go and date)."""
    ahead = [(n, p.rank, p) for p in st.players if (n := p.nights_to_go)]
    if not ahead:
        return None
    nights, _, first = min(ahead, key=lambda a: a[:2])
    return Crossing(first.name, last + nights, first.projected_date)
