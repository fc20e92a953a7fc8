"""bench/bench_standings.py builds its 25-year history in bulk, and every entry of it is the
one ``ref`` itself writes: the same rows, byte for byte, hashes included, as the same hands
recorded through ``ref new-session``, ``score-hand --points`` and ``end-session`` at the same
times. So ``ref verify`` passes on it (it exited 8 while the builder left out the header and
the nights' entries)."""

from __future__ import annotations

import sqlite3
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_standings import PLAYERS, build  # noqa: E402

from rummyref import play  # noqa: E402
from rummyref.cli.app import app  # noqa: E402
from rummyref.games.base import SessionRequest  # noqa: E402

START = datetime(2001, 1, 4, 19, 0, tzinfo=UTC)
TABLES = {
    "game": "id", "player": "id", "session": "id", "entry": "id", "result": "id",
    "player_total": "player_id", "session_total": "session_id, player_id", "game_total": "game_id",
}


def rows(db: Path) -> dict[str, list[tuple]]:
    con = sqlite3.connect(db)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY {order}").fetchall() for t, order in TABLES.items()}
    finally:
        con.close()


def at(night: int, minutes: int = 0) -> str:
    return (START + timedelta(weeks=night - 1, minutes=minutes)).isoformat(timespec="seconds")


def test_the_bulk_history_is_what_ref_writes_row_for_row(tmp_path, monkeypatch):
    bulk = tmp_path / "bulk.db"
    build(bulk, 7, seed=5, start=START, per_night=3)  # nights 1 and 2 closed, night 3 left open mid-round
    built = rows(bulk)
    points = {e[5]: e for e in built["entry"] if e[3] == "hand"}
    by_hand: dict[int, dict[str, int]] = {}
    names = {p[0]: p[2] for p in built["player"]}
    for r in built["result"]:
        entry = next(e for e in built["entry"] if e[0] == r[1])
        by_hand.setdefault(entry[5], {})[names[r[2]]] = r[3]
    assert sorted(points) == list(range(1, 8))

    real = str(tmp_path / "real.db")
    hand = 0
    for night in (1, 2, 3):
        monkeypatch.setenv("RUMMYREF_NOW", at(night))
        play.open_session(real, SessionRequest(players=PLAYERS if night == 1 else None))
        for his in range(1, 4 if night < 3 else 2):
            hand += 1
            monkeypatch.setenv("RUMMYREF_NOW", at(night, 7 * his))
            given = {"points": [f"{n}={v}" for n, v in by_hand[hand].items()]}
            assert play.record_hand(real, None, given, None) is not None
        if night < 3:
            monkeypatch.setenv("RUMMYREF_NOW", at(night, 4 * 60))
            play.close_session(real, None)
    assert rows(Path(real)) == built
    kinds = [e[3] for e in built["entry"]]
    assert kinds == ["header", "session-open", "hand", "hand", "hand", "session-close", "session-open",
                     "hand", "hand", "hand", "session-close", "session-open", "hand"]


def test_ref_verify_passes_on_the_bench_history(tmp_path):
    db = tmp_path / "history.db"
    build(db, 95, seed=7)  # 3 full nights of 30 hands, a 4th open mid-round (5 hands)
    done = CliRunner().invoke(app, ["verify", "--db", str(db)])
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("The record is intact: 103 entries in 1 game;")
    con = sqlite3.connect(db)
    assert con.execute("SELECT number, closed_at IS NULL FROM session ORDER BY number").fetchall() == [
        (1, 0), (2, 0), (3, 0), (4, 1)]
    con.close()
