"""Standings of a long game, computed from cached aggregates only (never from history)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import date

from rummyref.games.base import new_game
from rummyref.games.long.nights import (
    Dibs,
    Step,
    deal_state,
    first_seat,
    game_outcome,
    gap_since,
    pace,
    ranks,
    seating_dibs,
)
from rummyref.record import Game, NightSummary, PlayerAggregate, Summary, night_winners, tenths  # noqa: F401 (re-export)
from rummyref.rules.ruleset import RuleSet


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    seat: int
    total: int
    opening: int
    points: int
    to_go: int | None
    progress: float | None  #: 0..1 toward the target
    hands: int
    average: float | None
    best: int | None
    worst: int | None
    nights_won: int
    pace_per_night: float | None
    nights_to_go: int | None
    projected_date: str | None


@dataclass(frozen=True)
class Standings:
    game: str
    ruleset: str
    target: int | None
    over: bool
    winner: str | None
    tied_leaders: tuple[str, ...]
    hands: int
    nights: int
    open_night: int | None
    last_night: str | None
    days_since_last_night: int | None
    overdue: bool  #: A5: more than seven days since the last Rummy Night, in a game not over (A7)
    players: tuple[StandingRow, ...]
    dibs: tuple[Dibs, ...]
    recent_nights: tuple[NightSummary, ...]
    next_dealer: str | None = None  #: who deals the next hand (A3); None once the game is over
    rules: RuleSet | None = field(default=None, compare=False)  #: for the words; not in the JSON
    #: once the game is over, the command that starts another like it (not in the JSON)
    new_game: str | None = field(default=None, compare=False)

    def to_json(self) -> dict:
        data = asdict(replace(self, rules=None))
        data.pop("rules")
        data.pop("new_game")
        return data


def compute_standings(
    game: Game,
    aggregates: Sequence[PlayerAggregate],
    hands: int,
    nights: int,
    open_night: int | None,
    last_night: date | None,
    recent: Sequence[NightSummary],
    today: date,
    rules: RuleSet | None = None,
    session_log: Sequence[Step] = (),
    tied: Sequence[str] = (),
    dealt_before: str | None = None,
) -> Standings:
    """``session_log``: the open session's hands and voids in the log's order (the next dealer
    follows A3 from there, SPEC §8 for voids; with no session open, the first seat deals first).
    ``tied``: the leaders level since a tie past the target, as the latest hand left them: the
    game goes on until one leads alone even below the mark (A7, SPEC §8). ``dealt_before``: the
    dealer of the last hand in force before the open (or next) session: without A3 the deal
    passes on from there (:func:`~rummyref.games.long.nights.first_seat`)."""
    totals = [(a.name, a.opening + a.points) for a in aggregates]
    rank_of = ranks(totals)
    outcome = game_outcome(totals, game.target)
    if not outcome.tied and tied and not game.over:
        outcome = replace(outcome, tied=tuple(tied))
    gap = gap_since(last_night, today)
    rows = []
    for a, (_, total) in zip(aggregates, totals):
        to_go = max(game.target - total, 0) if game.target else None
        p = pace(a.points, nights, to_go or 0, last_night, today) if game.target else None
        rows.append(
            StandingRow(
                rank=rank_of[a.name],
                name=a.name,
                seat=game.player(a.name).seat,
                total=total,
                opening=a.opening,
                points=a.points,
                to_go=to_go,
                progress=min(max(total / game.target, 0.0), 1.0) if game.target else None,
                hands=a.hands,
                average=tenths(a.points, a.hands) if a.hands else None,
                best=a.best,
                worst=a.worst,
                nights_won=a.nights_won,
                pace_per_night=tenths(a.points, nights) if p and p.per_night is not None else None,
                # a finished game projects nothing: no hand can be recorded into it (A7)
                nights_to_go=p.nights_to_go if p and not game.over else None,
                # a date only where the house meets weekly (A5): the projection counts a session a week
                projected_date=(p.projected.isoformat() if p and p.projected and not game.over
                                and (rules is None or rules.house.weekly) else None),
            )
        )
    rows.sort(key=lambda r: (r.rank, r.seat))
    return Standings(
        game=game.name,
        ruleset=game.ruleset,
        target=game.target,
        over=game.over,
        winner=game.winner,
        tied_leaders=outcome.tied,
        hands=hands,
        nights=nights,
        open_night=open_night,
        last_night=last_night.isoformat() if last_night else None,
        days_since_last_night=gap.days,
        # no Rummy Night of a finished game can be held (A7): the days since stay, a fact; the flag goes
        overdue=gap.overdue and not game.over,
        players=tuple(rows),
        dibs=seating_dibs(totals) if rules is None or rules.house.seating_dibs else (),
        recent_nights=tuple(recent),
        next_dealer=None if game.over else deal_state(
            game.roster, session_log if open_night else (),
            first_seat(game.roster, dealt_before, rules is None or rules.cite("A3") is not None)).next_dealer,
        rules=rules,
        new_game=new_game(game, rules) if game.over and rules is not None else None,
    )


def from_summary(s: Summary) -> Standings:
    """The standings of a long game from the ledger's cached totals."""
    return compute_standings(s.game, s.aggregates, s.hands, s.sessions, s.open_session, s.last_session,
                             s.recent, s.today, s.ruleset, s.session_log, s.tied, s.dealt_before)
