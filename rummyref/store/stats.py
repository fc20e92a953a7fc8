"""Reading a game's record for ``ref stats`` and ``ref chart``.

Statistics scan the log (one pass over the entries and the result rows in force), unlike the
standings; the facts are read generically with the database's JSON functions (who went out, the
Rummy! claims, how a game ended), so a facts payload of any size costs little. They read what
``ref history`` and the hash read (Python's parse) because ``ref verify`` requires each facts text
to be the one ref writes, each key once (SQLite's JSON functions take the first of a key given
twice, Python the last). Reading the facts in Python instead costs 2-3 times as much on a
40,000-hand log (0.39 s against 0.12 s for the scan, measured at stop 43).
The chart reads only the cached per-session aggregates and the standings' totals.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text

from rummyref.record import Game, Player, SessionInfo, Summary
from rummyref.rules.ruleset import RuleSet
from rummyref.stats.chart import NightPoints
from rummyref.stats.compute import HandLine, NightLine, StatsInput, StatsStyle, milestones_for
from rummyref.store.engine import opened, storage_errors
from rummyref.store.select import ABANDONED_PATTERN, COUNTS, PLAYED, _parsed, choose_game
from rummyref.store.standings import summary

GAME_COLUMNS = "id, name, ruleset, ruleset_text, target, wildcards, options, created_at, finished_at, winner"


@contextmanager
def _connection(db: str | None) -> Iterator:
    with opened(db) as engine, storage_errors(engine):
        with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
            with conn.begin():
                yield conn


def _day(stamp: str | None) -> str | None:
    return datetime.fromisoformat(stamp).astimezone().date().isoformat() if stamp else None


def _game_row(conn, name: str | None):
    """The game's row: named, or the one a command means (SPEC §8)."""
    gid = choose_game(conn, name)
    return conn.execute(text(f"SELECT {GAME_COLUMNS} FROM game WHERE id = :g"), {"g": gid}).first()


def _game(conn, g) -> Game:
    players = tuple(
        Player(n, s, o)
        for n, s, o in conn.execute(
            text("SELECT name, seat, opening FROM player WHERE game_id = :g ORDER BY seat"), {"g": g.id}
        )
    )
    options = json.loads(g.options or "{}")
    closed = bool(options.get("closed_roster", True))
    return Game(g.name, g.ruleset, g.target, g.wildcards, players, g.created_at, g.finished_at, g.winner, closed,
                options)


def read_stats_input(db: str | None, name: str | None, style: Callable[[RuleSet], StatsStyle]) -> StatsInput:
    """Every hand in force, read generically; ``style`` (the kind's) says how to judge them."""
    with _connection(db) as conn:
        return stats_input(conn, name, style)


def stats_input(conn, name: str | None, style: Callable[[RuleSet], StatsStyle]) -> StatsInput:
    g = _game_row(conn, name)
    game = _game(conn, g)
    rs = _parsed(g.ruleset, g.ruleset_text, g.name)
    nights = tuple(  # a session with no hand in force does not count (SPEC §8)
        NightLine(n, _day(opened_at) or "", closed_at is not None)
        for n, opened_at, closed_at in conn.execute(
            text(f"SELECT number, opened_at, closed_at FROM session WHERE game_id = :g AND {PLAYED} "
                 "ORDER BY number"), {"g": g.id, **ABANDONED_PATTERN}
        )
    )
    sessions = tuple(  # every session, as the standings fold them (the kind's data: a table)
        SessionInfo(n, o, c, _options(opts))
        for n, o, c, opts in conn.execute(
            text("SELECT number, opened_at, closed_at, options FROM session WHERE game_id = :g ORDER BY number"),
            {"g": g.id},
        )
    )
    night_date = {n.number: n.date for n in nights}
    raw = conn.connection.driver_connection  # plain driver rows: 3x faster on a long log than Row objects
    pg = conn.dialect.name == "postgresql"
    results: dict[int, list] = {}
    for entry_id, pname, pts, count, won in raw.execute(
        _marks(pg, "SELECT r.entry_id, p.name, r.points, r.count, r.won FROM result r JOIN player p ON p.id = r.player_id "
                   "WHERE p.game_id = ? AND r.current = 1 ORDER BY r.entry_id, p.seat"),
        (g.id,),
    ):
        results.setdefault(entry_id, []).append((pname, pts, count, won))
    last: dict[int, tuple] = {}
    facts = FACTS_PG if pg else FACTS_SQLITE
    for row in raw.execute(
        _marks(pg, f"SELECT e.id, e.kind, e.hand, s.number, {facts} "
                   "FROM entry e JOIN session s ON s.id = e.session_id "
                   "WHERE e.game_id = ? AND e.hand IS NOT NULL ORDER BY e.seq"),
        (g.id,),
    ):
        last[row[2]] = row
    hands = tuple(
        _hand_line(row, results.get(row[0], []), night_date.get(row[3], ""))
        for _hand, row in sorted(last.items())
        if row[1] != "void"
    )
    voided = sum(1 for row in last.values() if row[1] == "void")  # a hand's last word is its void (B7)
    return StatsInput(game, str(rs.method), style(rs), milestones_for(g.ruleset, g.target), nights, hands,
                      sessions, voided)


def _options(text_: str | None) -> dict:
    """A session's own data (JSON text written by ref; the kind reads it)."""
    data = json.loads(text_ or "{}")
    return data if isinstance(data, dict) else {}


#: who went out, the Rummy! claims (as JSON text), how a game ended and by whom, who dropped out
#: (as JSON text), and who ended the hand where the facts say so as ``by`` (a knock, say)
FACTS_SQLITE = ("json_extract(e.facts, '$.out'), json_extract(e.facts, '$.claims'), "
                "json_extract(e.facts, '$.ending.kind'), json_extract(e.facts, '$.ending.player'), "
                "json_extract(e.facts, '$.ending.dropped'), json_extract(e.facts, '$.by')")
FACTS_PG = ("CAST(e.facts AS json) ->> 'out', CAST(e.facts AS json) ->> 'claims', "
            "CAST(e.facts AS json) #>> '{ending,kind}', CAST(e.facts AS json) #>> '{ending,player}', "
            "CAST(e.facts AS json) #>> '{ending,dropped}', CAST(e.facts AS json) ->> 'by'")


def _marks(pg: bool, sql: str) -> str:
    """The driver's placeholders: sqlite3 takes ``?``, psycopg ``%s``."""
    return sql.replace("?", "%s") if pg else sql


def _hand_line(row, results: list, night_date: str) -> HandLine:
    _id, _kind, hand, night, out, claims, ending_kind, ending_player, dropped, by = row
    if not isinstance(out, str):
        out = ending_player if ending_kind == "went-out" and isinstance(ending_player, str) else None
    if out is None and isinstance(by, str):
        out = by  # the player who ended the hand (and went out), whoever then scored
    claimers = tuple(c[0] for c in _json_list(claims) if isinstance(c, list) and c)
    return HandLine(
        hand=hand,
        night=night,
        date=night_date,
        points=tuple((n, int(p)) for n, p, _c, _w in results),
        counts=tuple((n, int(c)) for n, _p, c, _w in results if c is not None),
        winners=tuple(n for n, _p, _c, w in results if w),
        out=out,
        claims=claimers,
        dropped=tuple(n for n in _json_list(dropped) if isinstance(n, str)),
    )


def _json_list(value) -> list:
    """A JSON array read from the facts (as text); anything else is an empty list."""
    if not isinstance(value, str):
        return []
    try:
        data = json.loads(value)
    except ValueError:
        return []
    return data if isinstance(data, list) else []


# -- chart ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartRead:
    """What ``ref chart`` reads: each session's points (a kind that scores by wins keeps 1 a win),
    and the cached totals for the kind to project from; ``games``: the hands in force of the one
    session played, when the caller asked for them (else empty)."""

    game: Game
    ruleset: RuleSet
    nights: tuple[NightPoints, ...]
    summary: Summary
    games: tuple[HandLine, ...] = ()


def read_chart(db: str | None, name: str | None, by_game: Callable[[RuleSet], bool] | None = None) -> ChartRead:
    """The chart's figures; ``by_game(ruleset)`` true: with a single session played, its games too
    (a scan of that one session's hands, as ``ref stats`` reads them)."""
    with _connection(db) as conn:
        g = _game_row(conn, name)
        game = _game(conn, g)
        # each night is drawn at its place among the nights that count: a session with no hand in
        # force (SPEC §8) is not one, and leaves no gap on the axis (the pace's nights count the same ones)
        place = {int(number): i for i, (number,) in enumerate(conn.execute(
            text(f"SELECT number FROM session WHERE game_id = :g AND {COUNTS} ORDER BY number"),
            {"g": g.id, **ABANDONED_PATTERN}), 1)}
        per_night: dict[int, dict[str, int]] = {}
        for number, pname, v in conn.execute(
            text(
                "SELECT s.number, p.name, t.points FROM session_total t JOIN session s ON s.id = t.session_id "
                "JOIN player p ON p.id = t.player_id WHERE s.game_id = :g AND t.hands > 0 ORDER BY s.number, p.seat"
            ),
            {"g": g.id},
        ):
            if int(number) in place:
                per_night.setdefault(place[int(number)], {})[pname] = int(v or 0)
        nights = tuple(NightPoints(n, tuple(pts.items())) for n, pts in sorted(per_night.items()))
        rs = _parsed(g.ruleset, g.ruleset_text, g.name)
        games: tuple[HandLine, ...] = ()
        if len(nights) == 1 and by_game is not None and by_game(rs):
            games = stats_input(conn, g.name, lambda _rs: StatsStyle()).hands
        return ChartRead(game, rs, nights, summary(conn, g.name), games)
