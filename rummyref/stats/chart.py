"""What ``ref chart`` draws: each player's total after every Rummy Night, the target, and the
projected finish at the standings' pace (``core.session.pace``, read from the standings).

The projection runs every player's line on at their own pace per night until the night the
fastest of them would reach the target: the game ends there (A7), so that is the projected
crossing, with its date (one Rummy Night a week, A5). Simple Rummy has no target: its chart
shows each player's games won, night after night.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Protocol

from rummyref.record import Game


class PacedPlayer(Protocol):
    name: str
    rank: int
    pace_per_night: float | None
    nights_to_go: int | None
    projected_date: str | None


class Standings(Protocol):
    """What the chart projects from: a game's standings toward its target (the kind gives them)."""

    over: bool
    nights: int

    @property
    def players(self) -> Sequence[PacedPlayer]: ...


@dataclass(frozen=True)
class NightPoints:
    night: int
    points: tuple[tuple[str, int], ...]  #: what each player won that night (points, or games won)


@dataclass(frozen=True)
class Series:
    name: str
    nights: tuple[int, ...]  #: 0 = the start (opening balance), then each night
    totals: tuple[int, ...]
    projection: tuple[tuple[int, int], ...] = ()  #: (night, projected total): from now to the crossing
    pace_per_night: float | None = None


@dataclass(frozen=True)
class Crossing:
    name: str
    night: int
    date: str | None


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

    @property
    def empty(self) -> bool:
        return self.nights == 0

    def to_json(self) -> dict:
        return asdict(self)


def chart_data(game: Game, nights: Sequence[NightPoints], st: Standings | None, measure: str) -> ChartData:
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
    series = []
    for name, (xs, ys) in lines.items():
        row = next((p for p in st.players if p.name == name), None) if st else None
        pace = row.pace_per_night if row else None
        proj: tuple[tuple[int, int], ...] = ()
        if crossing and pace is not None and pace > 0:
            ahead = crossing.night - last
            proj = ((last, ys[-1]), (crossing.night, round(ys[-1] + pace * ahead)))
        series.append(Series(name, tuple(xs), tuple(ys), proj, pace))
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
    )


def _crossing(st: Standings, last: int) -> Crossing | None:
    """The first projected crossing of the target (the standings' nights to go and date)."""
    ahead = [p for p in st.players if p.nights_to_go]
    if not ahead:
        return None
    first = min(ahead, key=lambda p: (p.nights_to_go, p.rank))
    return Crossing(first.name, last + first.nights_to_go, first.projected_date)  # type: ignore[operator]
