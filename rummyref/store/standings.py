"""The standings read: a fixed handful of small indexed queries on the cached aggregates,
whatever the length of the history. Deliberately lean: SQLAlchemy Core on the shared engine
(no ORM models to build), rows turned into the core's frozen objects inside the transaction."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import text

from rummyref.errors import NotFound
from rummyref.record import Game, Player
from rummyref.games.long.standings import NightSummary, PlayerAggregate, Standings, compute_standings, night_winners
from rummyref.store.clock import now
from rummyref.store.engine import opened, storage_errors

RECENT_NIGHTS = 5


def _day(stamp: str | None) -> date | None:
    """The local calendar date of a stored UTC time (a night at 23:00 stays on its own date)."""
    return datetime.fromisoformat(stamp).astimezone().date() if stamp else None


def read_standings(db: str | None, name: str | None) -> Standings:
    with opened(db) as engine, storage_errors():
        with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
            with conn.begin():
                return standings(conn, name)


def standings(conn, name: str | None) -> Standings:
    def q(sql: str, **params):
        return conn.execute(text(sql), params)

    if name is None:
        g = q("SELECT id, name, ruleset, target, wildcards, created_at, finished_at, winner FROM game "
              "ORDER BY id DESC LIMIT 1").first()
        if g is None:
            raise NotFound("no game has been recorded yet", hint="ref new-session starts one")
    else:
        g = q("SELECT id, name, ruleset, target, wildcards, created_at, finished_at, winner FROM game "
              "WHERE name = :n", n=name).first()
        if g is None:
            names = [r[0] for r in q("SELECT name FROM game ORDER BY id")]
            raise NotFound(f"no game named {name!r}", hint=f"games: {', '.join(names)}" if names else None)
    rows = q(
        "SELECT p.name, p.seat, p.opening, t.points, t.hands, t.best, t.worst, t.nights_won "
        "FROM player p JOIN player_total t ON t.player_id = p.id WHERE p.game_id = :g ORDER BY p.seat",
        g=g.id,
    ).all()
    game = Game(g.name, g.ruleset, g.target, g.wildcards, tuple(Player(r[0], r[1], r[2]) for r in rows),
                g.created_at, g.finished_at, g.winner)
    aggs = [PlayerAggregate(r[0], r[2], r[3], r[4], r[5], r[6], r[7]) for r in rows]
    hands = int(q("SELECT hands FROM game_total WHERE game_id = :g", g=g.id).scalar() or 0)
    nights = q(
        "SELECT id, number, opened_at, closed_at FROM session WHERE game_id = :g ORDER BY number DESC LIMIT :k",
        g=g.id, k=RECENT_NIGHTS,
    ).all()
    recent = []
    for s in nights:
        night_rows = q("SELECT p.name, t.points, t.hands FROM session_total t JOIN player p ON p.id = t.player_id "
                       "WHERE t.session_id = :s ORDER BY p.seat", s=s.id).all()
        pts = tuple((r[0], int(r[1])) for r in night_rows)
        played = max((int(r[2]) for r in night_rows), default=0)
        closed = s.closed_at is not None
        recent.append(NightSummary(s.number, _day(s.opened_at).isoformat(), closed,  # type: ignore[union-attr]
                                    played, pts, night_winners(pts, played, closed)))
    open_night = next((s.number for s in nights if s.closed_at is None), None)
    last = _day(nights[0].opened_at) if nights else None
    return compute_standings(game, aggs, hands, nights[0].number if nights else 0, open_night, last, recent,
                             now().astimezone().date())
