"""Reading a game's record for ``ref stats`` and ``ref chart``.

Statistics scan the log (one pass over the entries and the result rows in force), unlike the
standings; the facts are read generically with the database's JSON functions (who went out, the
Rummy! claims, how a Simple Rummy game ended), so a facts payload of any size costs little.
The chart reads only the cached per-night aggregates and the standings' pace.
"""

from __future__ import annotations

import json
import tomllib
from contextlib import contextmanager
from datetime import datetime
from typing import Iterator

from sqlalchemy import text

from rummyref.stats.chart import ChartData, NightPoints, chart_data
from rummyref.errors import NotFound
from rummyref.record import Game, Player
from rummyref.rules.ruleset import parse_ruleset
from rummyref.stats.compute import LOW_COUNT, HandLine, NightLine, StatsInput, milestones_for
from rummyref.store.engine import opened, storage_errors
from rummyref.store.standings import standings

GAME_COLUMNS = "id, name, ruleset, ruleset_text, target, wildcards, options, created_at, finished_at, winner"


@contextmanager
def _connection(db: str | None) -> Iterator:
    with opened(db) as engine, storage_errors():
        with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
            with conn.begin():
                yield conn


def _day(stamp: str | None) -> str | None:
    return datetime.fromisoformat(stamp).astimezone().date().isoformat() if stamp else None


def _game_row(conn, name: str | None):
    if name is None:
        row = conn.execute(text(f"SELECT {GAME_COLUMNS} FROM game ORDER BY id DESC LIMIT 1")).first()
        if row is None:
            raise NotFound("no game has been recorded yet", hint="ref new-session starts one")
        return row
    row = conn.execute(text(f"SELECT {GAME_COLUMNS} FROM game WHERE name = :n"), {"n": name}).first()
    if row is None:
        names = [r[0] for r in conn.execute(text("SELECT name FROM game ORDER BY id"))]
        raise NotFound(f"no game named {name!r}", hint=f"games: {', '.join(names)}" if names else None)
    return row


def _game(conn, g) -> Game:
    players = tuple(
        Player(n, s, o)
        for n, s, o in conn.execute(
            text("SELECT name, seat, opening FROM player WHERE game_id = :g ORDER BY seat"), {"g": g.id}
        )
    )
    closed = bool(json.loads(g.options or "{}").get("closed_roster", True))
    return Game(g.name, g.ruleset, g.target, g.wildcards, players, g.created_at, g.finished_at, g.winner, closed)


def read_stats_input(db: str | None, name: str | None) -> StatsInput:
    with _connection(db) as conn:
        return stats_input(conn, name)


def stats_input(conn, name: str | None) -> StatsInput:
    g = _game_row(conn, name)
    game = _game(conn, g)
    rs = parse_ruleset(tomllib.loads(g.ruleset_text), f"{g.ruleset} (as kept with game {g.name})")
    nights = tuple(
        NightLine(n, _day(opened_at) or "", closed_at is not None)
        for n, opened_at, closed_at in conn.execute(
            text("SELECT number, opened_at, closed_at FROM session WHERE game_id = :g ORDER BY number"), {"g": g.id}
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
    return StatsInput(game, rs.method, rs.match_wins, milestones_for(g.ruleset, g.target), nights, hands)


#: who went out, the Rummy! claims (as JSON text), how a Simple Rummy game ended and by whom
FACTS_SQLITE = ("json_extract(e.facts, '$.out'), json_extract(e.facts, '$.claims'), "
                "json_extract(e.facts, '$.ending.kind'), json_extract(e.facts, '$.ending.player')")
FACTS_PG = ("CAST(e.facts AS json) ->> 'out', CAST(e.facts AS json) ->> 'claims', "
            "CAST(e.facts AS json) #>> '{ending,kind}', CAST(e.facts AS json) #>> '{ending,player}'")


def _marks(pg: bool, sql: str) -> str:
    """The driver's placeholders: sqlite3 takes ``?``, psycopg ``%s``."""
    return sql.replace("?", "%s") if pg else sql


def _hand_line(row, results: list, night_date: str) -> HandLine:
    _id, _kind, hand, night, out, claims, ending_kind, ending_player = row
    if not isinstance(out, str):
        out = ending_player if ending_kind == "went-out" and isinstance(ending_player, str) else None
    claimers: tuple[str, ...] = ()
    if isinstance(claims, str):
        try:
            claimers = tuple(c[0] for c in json.loads(claims) if isinstance(c, list) and c)
        except ValueError:
            claimers = ()
    return HandLine(
        hand=hand,
        night=night,
        date=night_date,
        points=tuple((n, int(p)) for n, p, _c, _w in results),
        counts=tuple((n, int(c)) for n, _p, c, _w in results if c is not None),
        winners=tuple(n for n, _p, _c, w in results if w),
        out=out,
        claims=claimers,
    )


# -- chart ------------------------------------------------------------------------------------


def read_chart(db: str | None, name: str | None) -> ChartData:
    with _connection(db) as conn:
        g = _game_row(conn, name)
        game = _game(conn, g)
        rs = parse_ruleset(tomllib.loads(g.ruleset_text), f"{g.ruleset} (as kept with game {g.name})")
        low = rs.method == LOW_COUNT
        value = "SUM(COALESCE(r.won, 0))" if low else "SUM(r.points)"
        per_night: dict[int, dict[str, int]] = {}
        for number, pname, v in conn.execute(
            text(
                f"SELECT s.number, p.name, {value} FROM result r JOIN entry e ON e.id = r.entry_id "
                "JOIN session s ON s.id = e.session_id JOIN player p ON p.id = r.player_id "
                "WHERE e.game_id = :g AND r.current = 1 GROUP BY s.number, p.id ORDER BY s.number, p.seat"
            )
            if low
            else text(
                "SELECT s.number, p.name, t.points FROM session_total t JOIN session s ON s.id = t.session_id "
                "JOIN player p ON p.id = t.player_id WHERE s.game_id = :g AND t.hands > 0 ORDER BY s.number, p.seat"
            ),
            {"g": g.id},
        ):
            per_night.setdefault(int(number), {})[pname] = int(v or 0)
        nights = tuple(NightPoints(n, tuple(pts.items())) for n, pts in sorted(per_night.items()))
        st = None if low else standings(conn, g.name)
        return chart_data(game, nights, st, "games won" if low else "total")
