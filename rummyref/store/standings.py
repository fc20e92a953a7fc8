"""The standings read: a fixed handful of small indexed queries on the cached aggregates,
whatever the length of the history. Deliberately lean: SQLAlchemy Core on the shared engine
(no ORM models to build), rows turned into frozen domain objects inside the transaction. A
kind whose standings are a fold of the hands (a match) asks for them too."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime

from sqlalchemy import text

from rummyref.record import Game, NightSummary, Player, PlayerAggregate, Summary, night_winners
from rummyref.rules.ruleset import RuleSet
from rummyref.store.clock import now
from rummyref.store.engine import opened, storage_errors
from rummyref.store.select import (
    ABANDONED_PATTERN,
    COUNTS,
    HANDS_DEALT,
    LAST_DEALER,
    PLAYED,
    SESSION_LOG,
    _parsed,
    choose_game,
)

RECENT_NIGHTS = 5


def _day(stamp: str | None) -> date | None:
    """The local calendar date of a stored UTC time (a night at 23:00 stays on its own date)."""
    return _date_of(stamp) if stamp else None


def _date_of(stamp: str) -> date:
    return datetime.fromisoformat(stamp).astimezone().date()


def read_summary(db: str | None, name: str | None, history: Callable[[RuleSet], bool] = lambda rs: False) -> Summary:
    """The game's cached totals; with its hands in force too when ``history(rule set)`` says so."""
    with opened(db) as engine, storage_errors(engine):
        with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
            with conn.begin():
                s = summary(conn, name)
        if history(s.ruleset):
            from rummyref.store.record import reading

            with reading(db) as rec:
                s = replace(s, context=rec.context(rec.game_row(s.game.name), history=True))
        return s


def summary(conn, name: str | None) -> Summary:
    def q(sql: str, **params):
        return conn.execute(text(sql), params)

    gid = choose_game(conn, name)
    g = q("SELECT id, name, ruleset, ruleset_text, target, wildcards, created_at, finished_at, winner, options "
          "FROM game WHERE id = :g", g=gid).first()
    rows = q(
        "SELECT p.name, p.seat, p.opening, t.points, t.hands, t.best, t.worst, t.nights_won "
        "FROM player p JOIN player_total t ON t.player_id = p.id WHERE p.game_id = :g ORDER BY p.seat",
        g=g.id,
    ).all()
    options = json.loads(g.options or "{}")
    game = Game(g.name, g.ruleset, g.target, g.wildcards, tuple(Player(r[0], r[1], r[2]) for r in rows),
                g.created_at, g.finished_at, g.winner, bool(options.get("closed_roster", True)), options)
    aggs = tuple(PlayerAggregate(r[0], r[2], r[3], r[4], r[5], r[6], r[7]) for r in rows)
    hands = int(q("SELECT hands FROM game_total WHERE game_id = :g", g=g.id).scalar() or 0)
    nights = q(  # the recent nights: those that count (SPEC §8), and the open one, listed "in progress"
        f"SELECT id, number, opened_at, closed_at FROM session WHERE game_id = :g AND {COUNTS} "
        "ORDER BY number DESC LIMIT :k",
        g=g.id, k=RECENT_NIGHTS, **ABANDONED_PATTERN,
    ).all()
    recent = []
    for s in nights:
        night_rows = q("SELECT p.name, t.points, t.hands FROM session_total t JOIN player p ON p.id = t.player_id "
                       "WHERE t.session_id = :s ORDER BY p.seat", s=s.id).all()
        pts = tuple((r[0], int(r[1])) for r in night_rows)
        played = max((int(r[2]) for r in night_rows), default=0)
        closed = s.closed_at is not None
        recent.append(NightSummary(s.number, _date_of(s.opened_at).isoformat(), closed,
                                    played, pts, night_winners(pts, played, closed)))
    open_night = next((s.number for s in nights if s.closed_at is None), None)
    open_id = next((s.id for s in nights if s.closed_at is None), None)
    dealt = int(q(HANDS_DEALT, s=open_id).scalar() or 0) if open_id is not None else 0
    log = tuple((str(k), str(d or "")) for k, d in q(SESSION_LOG, s=open_id)) if open_id is not None else ()
    # the last session is the latest that counts (SPEC §8): one open with no hand in force, or
    # one whose hands were all voided, is none, so it neither dates the last session nor clears
    # the over-a-week warning (A5)
    last = _day(q(f"SELECT opened_at FROM session WHERE game_id = :g AND {PLAYED} ORDER BY number DESC LIMIT 1",
                  g=g.id, **ABANDONED_PATTERN).scalar())
    before = open_night if open_night is not None else int(
        q("SELECT COALESCE(MAX(number), 0) FROM session WHERE game_id = :g", g=g.id).scalar() or 0) + 1
    dealt_before = q(LAST_DEALER, g=g.id, n=before).scalar()
    counted = int(q(f"SELECT COUNT(*) FROM session WHERE game_id = :g AND {PLAYED}", g=g.id,
                    **ABANDONED_PATTERN).scalar() or 0)
    latest = q("SELECT facts FROM entry WHERE game_id = :g AND hand IS NOT NULL ORDER BY seq DESC LIMIT 1",
               g=g.id).scalar()
    status = json.loads(latest or "{}").get("status") or {}
    return Summary(game, _parsed(g.ruleset, g.ruleset_text, g.name), aggs, hands, counted,
                   open_night, last, tuple(recent), now().astimezone().date(), dealt=dealt, session_log=log,
                   tied=tuple(status.get("tied", ())), dealt_before=str(dealt_before) if dealt_before else None)
