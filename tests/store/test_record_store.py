"""The store: location, pragmas, BEGIN IMMEDIATE, schema versions and migrations."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

from rummyref.store.migrations import LATEST

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "schema_v1.db"
V1_TABLES = ("game", "player", "session", "entry", "result")


def dump(path: Path, tables=V1_TABLES) -> dict:
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY id").fetchall() for t in tables}
    finally:
        con.close()


@pytest.mark.sqlite_only("the v1 fixture is a SQLite file (PostgreSQL: test_pg_a_v1_database_is_upgraded_with_every_row_intact)")
def test_schema_v1_fixture_opens_with_every_row_intact(tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(FIXTURE, db)
    before = dump(db)
    assert sqlite3.connect(db).execute("SELECT value FROM meta").fetchone() == ("1",)
    st = ref_json("standings", "--db", str(db))  # the migration runs by itself
    after = dump(db)
    assert {t: rows[:len(before[t])] for t, rows in after.items()} == before  # every v1 row intact
    assert [r[3] for r in after["entry"][len(before["entry"]):]] == ["adopt"]  # v3 appends, changes nothing
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(LATEST),)
    # v2's aggregates were back-filled from the log: amended hand 2 counts, voided hand 5 does not
    totals = {p["name"]: p["total"] for p in st["players"]}
    assert totals == {"Bill": 1_000_000 + 45 + 12 - 7 + 100 - 15, "Ben": -10 + 35 + 8 + 0 + 40, "Larry": 20 - 5 + 60 + 3 + 9}
    assert {p["name"]: p["hands"] for p in st["players"]} == {"Bill": 5, "Ben": 5, "Larry": 5}
    assert st["hands"] == 5 and st["nights"] == 2
    assert {p["name"]: p["nights_won"] for p in st["players"]} == {"Bill": 1, "Ben": 0, "Larry": 1}
    assert ref("verify", "--db", str(db)).exit_code == 0
    # and the upgraded record takes new hands
    assert ref("new-session", "--db", str(db)).exit_code == 0
    h = ref_json("score-hand", "--db", str(db), "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    assert h["hand"] == 7 and h["entry"] == 11  # after the adopt entry (9) and the night's opening (10)
    assert ref("verify", "--db", str(db)).exit_code == 0


@pytest.mark.sqlite_only("sqlite_master (PostgreSQL: test_pg_migrations_run_one_step_at_a_time)")
def test_migrations_run_one_step_at_a_time(tmp_path):
    from rummyref.store.engine import make_engine, migrate, schema_version

    engine = make_engine(str(tmp_path / "m.db"))
    assert migrate(engine, upto=1) == 1
    with engine.connect() as c:
        assert schema_version(c) == 1
        names = {r[0] for r in c.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table'")}
        c.rollback()
    assert "player_total" not in names and "entry" in names
    assert migrate(engine) == LATEST
    engine.dispose()


@pytest.mark.sqlite_only("PRAGMA table_info (PostgreSQL: test_pg_latest_schema_matches_the_models)")
def test_latest_schema_matches_the_models(tmp_path):
    """The DDL of the migrations and the SQLModel tables describe the same columns."""
    from sqlmodel import SQLModel

    import rummyref.store.models  # noqa: F401
    from rummyref.store.engine import make_engine, migrate

    engine = make_engine(str(tmp_path / "s.db"))
    migrate(engine)
    con = sqlite3.connect(tmp_path / "s.db")
    for name, table in SQLModel.metadata.tables.items():
        cols = [r[1] for r in con.execute(f"PRAGMA table_info({name})")]
        assert sorted(cols) == sorted(c.name for c in table.columns), name
    engine.dispose()


@pytest.mark.sqlite_only("edits the file (PostgreSQL: test_pg_a_newer_database_is_refused)")
def test_a_newer_database_is_refused(tmp_path):
    db = tmp_path / "new.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    r = ref("standings", "--db", str(db))
    assert r.exit_code == 6 and "newer" in r.stderr


@pytest.mark.sqlite_only("SQLite pragmas")
def test_every_connection_has_the_pragmas(tmp_path):
    from rummyref.store.engine import BUSY_TIMEOUT_MS, make_engine

    engine = make_engine(str(tmp_path / "p.db"))
    with engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert c.exec_driver_sql("PRAGMA busy_timeout").scalar() == BUSY_TIMEOUT_MS
        c.rollback()
    engine.dispose()


@pytest.mark.sqlite_only("BEGIN IMMEDIATE (PostgreSQL: test_pg_a_write_holds_the_write_lock_from_its_first_statement)")
def test_a_write_holds_the_write_lock_from_its_first_statement(tmp_path):
    """BEGIN IMMEDIATE: while ref's write transaction is open, no other writer can begin."""
    from rummyref.store.record import writing

    db = tmp_path / "w.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    with writing(str(db)) as rec:
        rec.sql("SELECT 1").scalar()  # a read only: a deferred BEGIN would not lock yet
        other = sqlite3.connect(db, timeout=0, isolation_level=None)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        other.close()


@pytest.mark.sqlite_only("the file lock (PostgreSQL: test_pg_a_busy_record_is_a_conflict_and_nothing_is_written)")
def test_a_busy_database_is_a_conflict(tmp_path, monkeypatch):
    import rummyref.store.engine as engine_mod

    db = tmp_path / "c.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    monkeypatch.setattr(engine_mod, "BUSY_TIMEOUT_MS", 50)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    before = db.read_bytes()
    r = ref("score-hand", "--db", str(db), "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    other.execute("ROLLBACK")
    other.close()
    assert r.exit_code == 7, r.stdout + r.stderr
    assert db.read_bytes() == before


def test_location_order(tmp_path, monkeypatch):
    from rummyref.store.location import resolve

    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "env.db"))
    assert resolve(str(tmp_path / "opt.db")).endswith("opt.db")
    assert resolve("sqlite:////x/y.db") == "sqlite:////x/y.db"
    assert resolve(None).endswith("env.db")
    monkeypatch.delenv("RUMMYREF_DB")
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *a, **k: str(tmp_path / "data"))
    assert resolve(None) == "sqlite:///" + str(tmp_path / "data" / "rummyref.db")
    # set but empty is not set (as the manual says): the default record; an empty --db is refused
    monkeypatch.setenv("RUMMYREF_DB", "")
    assert resolve(None) == "sqlite:///" + str(tmp_path / "data" / "rummyref.db")


def test_root_level_db_option(tmp_path):
    db = tmp_path / "root.db"
    assert ref("--db", str(db), "new-session").exit_code == 0
    assert db.exists()
    assert ref_json("--db", str(db), "standings")["game"] == "rummy-2m"


def test_commands_that_need_no_database_do_not_load_sqlmodel():
    import subprocess
    import sys

    code = "import sys, rummyref.cli.app; print('sqlmodel' in sys.modules, 'sqlalchemy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def _standings_statements(db) -> list[str]:
    from sqlalchemy import event

    from rummyref.store.engine import make_engine
    from rummyref.store.standings import summary as standings

    engine = make_engine(str(db))
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda c, cur, stmt, *a: seen.append(stmt))
    with engine.connect() as conn:
        standings(conn, None)
        conn.rollback()
    engine.dispose()
    return seen


def test_standings_do_not_grow_with_the_history(tmp_path, monkeypatch):
    """The same statements (each an indexed lookup) for 3 hands in 1 night and 36 hands in 12 nights."""
    small, big = tmp_path / "small.db", tmp_path / "big.db"
    for db, nights in ((small, 1), (big, 12)):
        for night in range(nights):
            monkeypatch.setenv("RUMMYREF_NOW", f"2026-01-{night + 1:02d}T20:00:00")
            assert ref("new-session", "--db", str(db)).exit_code == 0
            for _ in range(3):
                r = ref("score-hand", "--db", str(db), "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
                assert r.exit_code == 0
            assert ref("end-session", "--db", str(db)).exit_code == 0
    a, b = _standings_statements(small), _standings_statements(big)
    assert len(b) == len(a) + 4  # 5 recent nights shown instead of 1 (one lookup each), then no more
    # never the log, but for its latest hand's entry (one indexed row: a tie past the target
    # still pending below the mark, A7), the same whatever the history's length
    # (the game meant, with nothing open: the game played last, each game's log walked down
    # from its latest entry to its latest hand; test_the_game_played_last_is_found_by_indexes)
    from rummyref.store.choice import LAST_PLAYED

    assert b.count(LAST_PLAYED) == 1
    latest = [s for s in b if "entry" in s and "e.dealer" not in s and s != LAST_PLAYED]
    assert len(latest) == 1 and "ORDER BY seq DESC LIMIT 1" in latest[0], latest
    # and the dealer of the latest hand in force (a deal that carries on across sessions, 500
    # Rum's R4): an indexed walk from the latest hand down, never the log
    dealer = [s for s in b if "e.dealer" in s]
    assert len(dealer) == 1 and "ORDER BY e.hand DESC LIMIT 1" in dealer[0], dealer
    assert not any("result" in s for s in b)


@pytest.mark.sqlite_only("SQLite's query plan")
def test_the_game_played_last_is_found_by_indexes(tmp_path):
    """One statement; each game's entries are read through the (game_id, seq) index from its
    latest down (a walk that stops at its latest hand or correction), never the whole log; that
    entry (its time) and the latest session are then read by their ids."""
    import sqlite3

    from rummyref.store.choice import LAST_PLAYED

    db = tmp_path / "t.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    con = sqlite3.connect(db)
    plan = [row[3] for row in con.execute(f"EXPLAIN QUERY PLAN {LAST_PLAYED}")]
    con.close()
    walks = [p for p in plan if p.startswith(("SCAN x", "SEARCH x", "SCAN y", "SEARCH y"))]
    assert walks == ["SEARCH x USING INDEX sqlite_autoindex_entry_1 (game_id=?)",
                     "SEARCH y USING COVERING INDEX sqlite_autoindex_session_1 (game_id=?)"], plan
    rows = [p for p in plan if p.startswith(("SCAN e", "SEARCH e", "SCAN s", "SEARCH s"))]
    assert rows == ["SEARCH e USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
                    "SEARCH s USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN"], plan


def test_standings_do_not_load_the_orm(tmp_path):
    import subprocess
    import sys

    db = tmp_path / "o.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    code = (
        "import sys\nfrom rummyref.cli.app import app\n"
        f"try:\n    app(['standings', '--db', {str(db)!r}])\nexcept SystemExit:\n    pass\n"
        "print('ORM', 'sqlmodel' in sys.modules, 'sqlalchemy.orm' in sys.modules, file=sys.stderr)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "ORM False False" in r.stderr, r.stderr


def test_a_wal_file_that_vanishes_while_looked_at_does_not_make_the_record_missing(tmp_path, monkeypatch):
    """The last writer to close a record checkpoints and deletes its -wal file: a look that saw
    the -wal exist and then could not stat it once called the whole record missing, so `ref
    backup` beside a terminal at work said "there is no record" (a race seen in CI)."""
    from rummyref.store.engine import FileKind, probe

    db = tmp_path / "r.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists()
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda self, *a, **k: True if self == wal else real_exists(self, *a, **k))
    assert probe(db).kind is FileKind.RECORD


def test_a_cached_total_holds_the_largest_total_a_record_allows(record):
    """``bounds.TOTAL`` reaches about 10^13: the cached totals are 64-bit on either back-end
    (v4 widens PostgreSQL's, which were 32-bit)."""
    from rummyref.bounds import TOTAL

    assert ref("new-session").exit_code == 0
    assert ref("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3").exit_code == 0
    with record.raw() as con:
        con.execute("UPDATE player_total SET points = ?", (TOTAL.hi,))
        con.execute("UPDATE session_total SET points = ?", (TOTAL.lo,))
    with record.raw() as con:
        assert con.execute("SELECT MIN(points), MAX(points) FROM player_total").fetchone() == (TOTAL.hi, TOTAL.hi)
        assert con.execute("SELECT MIN(points), MAX(points) FROM session_total").fetchone() == (TOTAL.lo, TOTAL.lo)
