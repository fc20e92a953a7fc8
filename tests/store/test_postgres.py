"""PostgreSQL as the record (issue 7), and what must hold on both back-ends.

Tests marked ``needs_pg`` run in the PostgreSQL pass (``RUMMYREF_TEST_PG``, started by
``.ci/run``); without a server they are skipped with that reason. The others run on whichever
back-end the pass uses: the four writers and the reader, a missing driver, a server that is
not there, the URL forms.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json
from dbtest import ON_PG, pg_conninfo

from rummyref.store.migrations import LATEST

needs_pg = pytest.mark.needs_pg
FIXTURE_V1 = Path(__file__).resolve().parents[1] / "fixtures" / "schema_v1.db"
POINTS = ("--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")


def ok(*args):
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r


# -- the URL, the driver, the server ------------------------------------------------------------


def test_postgresql_urls_mean_the_psycopg_driver():
    from rummyref.store.location import resolve, shown

    assert resolve("postgresql://ann@db.example/rummy") == "postgresql+psycopg://ann@db.example/rummy"
    assert resolve("postgres://ann@db.example/rummy") == "postgresql+psycopg://ann@db.example/rummy"
    assert resolve("postgresql+psycopg://ann@h/r") == "postgresql+psycopg://ann@h/r"
    assert shown(resolve("postgresql://ann:secret@h:5433/r")) == "postgresql://ann:***@h:5433/r"


def test_a_urls_scheme_is_read_in_any_case():
    from rummyref.store.location import resolve

    assert resolve("POSTGRESQL://ann@h/r") == "postgresql+psycopg://ann@h/r"
    assert resolve("Postgres://ann@h/r") == "postgresql+psycopg://ann@h/r"
    assert resolve("SQLite:////tmp/r.db") == "sqlite:////tmp/r.db"
    assert resolve("sqlite+pysqlite:////tmp/r.db") == "sqlite:////tmp/r.db"


@pytest.mark.parametrize("url, code, words", [
    ("mysql://ann:secret@h/r", 6, ["mysql:// is neither", "SQLite file or on a PostgreSQL server"]),
    ("sqlite:///:memory:", 3, ["in-memory database", "keeps nothing"]),
    ("SQLITE://", 3, ["in-memory database"]),
])
@pytest.mark.parametrize("args", [["standings"], ["new-session"], ["ruling", "pizza"]])
def test_a_database_ref_cannot_keep_a_record_in_is_refused_up_front(url, code, words, args, tmp_path):
    """Another kind of server, or an in-memory SQLite database (which kept nothing, and made
    ``standings`` wait for ever), is refused before anything is opened, password masked."""
    r = ref("--db", url, *args)
    assert r.exit_code == code, r.stdout + r.stderr
    for w in words:
        assert w in " ".join(r.stderr.split())
    assert "secret" not in r.stdout + r.stderr and "Traceback" not in r.stderr


def test_a_postgresql_url_without_the_driver_says_which_extra_to_install(monkeypatch):
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "psycopg", None)  # as if psycopg were not installed
        r = ref("--db", "postgresql://ann@127.0.0.1:1/rummy", "standings")
    assert r.exit_code == 6, r.stdout + r.stderr
    assert "psycopg" in r.stderr and "pip install 'rummyref[postgres]'" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_server_that_is_not_there_is_a_storage_error():
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    for args in (["standings"], ["new-session"], ["history"], ["verify"]):
        r = ref("--db", "postgresql://nobody@127.0.0.1:1/rummy", *args)
        assert r.exit_code == 6, (args, r.stdout + r.stderr)
        said = " ".join(r.stderr.split())
        assert "cannot connect to the record at postgresql://nobody@127.0.0.1:1/rummy: Connection refused" in said
        assert "check that the server is running" in said and "Traceback" not in r.stderr


# -- four writers and a reader at once (both back-ends) ----------------------------------------

WRITER = textwrap.dedent("""
    import json, os, random, sys, time
    from typer.testing import CliRunner
    from rummyref.cli.app import app
    runner, want, done, tries = CliRunner(), int(sys.argv[1]), [], 0
    args = ["score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3", "--json"]
    deadline = time.monotonic() + 60
    while not os.path.exists(sys.argv[2]) and time.monotonic() < deadline:
        time.sleep(0.01)  # the reader has read once: the writes happen while it reads
    while len(done) < want and tries < 2000:
        tries += 1
        r = runner.invoke(app, args)
        if r.exit_code == 0:
            done.append(json.loads(r.stdout)["hand"])
        elif r.exit_code == 7:  # another terminal was writing, or recorded first: nothing written, try again
            assert "nothing was written" in r.stderr, r.stderr
            time.sleep(random.uniform(0.005, 0.05))
        else:
            raise SystemExit(f"exit {r.exit_code}: {r.stdout} {r.stderr}")
    print(json.dumps({"hands": done, "tries": tries}))
""")

READER = textwrap.dedent("""
    import json, sys, time
    from typer.testing import CliRunner
    from rummyref.cli.app import app
    runner, reads, deadline = CliRunner(), [], time.monotonic() + 120
    stop, ready = sys.argv[1], sys.argv[2]
    import os
    while time.monotonic() < deadline:
        last = os.path.exists(stop)
        r = runner.invoke(app, ["standings", "--json"])
        assert r.exit_code == 0, r.stdout + r.stderr
        st = json.loads(r.stdout)
        reads.append([st["hands"], {p["name"]: [p["total"], p["hands"]] for p in st["players"]}])
        open(ready, "a").close()
        if last:
            break
    print(json.dumps(reads))
""")


def test_four_writers_and_a_reader_lose_nothing_and_always_agree(tmp_path):
    """Four processes record hands into the same game at once while a fifth reads the standings in
    a loop: every hand is kept once with its own number, and every read is consistent (each
    player's total is exactly the sum of the hands that read counted)."""
    writers, each = 4, 6
    ok("new-session")
    env = dict(os.environ)
    stop = tmp_path / "stop"
    ready = tmp_path / "ready"  # the reader's first read is done: the writers start
    reader = subprocess.Popen([sys.executable, "-c", READER, str(stop), str(ready)], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(each), str(ready)], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(writers)]
    outs = [p.communicate(timeout=240) for p in procs]
    stop.touch()
    r_out, r_err = reader.communicate(timeout=240)
    for p, (_out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert "Traceback" not in err
    assert reader.returncode == 0, r_err
    numbers = sorted(n for out, _ in outs for n in json.loads(out)["hands"])
    total = writers * each
    assert numbers == list(range(1, total + 1))  # no hand lost, no number used twice
    reads = json.loads(r_out)
    assert any(0 < hands < total for hands, _ in reads)  # reads really happened while the writers wrote
    seen = 0
    for hands, players in reads:
        assert hands >= seen  # the record only grows
        seen = hands
        assert players == {"Bill": [hands, hands], "Ben": [2 * hands, hands], "Larry": [3 * hands, hands]}
    assert reads[-1][0] == total  # the last read (after every writer) sees every hand
    history = ref_json("history")
    assert [e["hand"] for e in history["entries"] if e["kind"] == "hand"] == list(range(1, total + 1))
    assert ref_json("verify")["ok"]


# -- PostgreSQL: the schema, its versions, the write lock ----------------------------------------


def _engine():
    from rummyref.store.engine import make_engine

    return make_engine(None)


@needs_pg
def test_pg_migrations_run_one_step_at_a_time(record):
    from rummyref.store.engine import migrate, schema_version

    engine = _engine()
    assert migrate(engine, upto=1) == 1
    with engine.connect() as c:
        assert schema_version(c) == 1
        names = {r[0] for r in c.exec_driver_sql(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        c.rollback()
    assert "player_total" not in names and {"game", "player", "session", "entry", "result", "meta"} <= names
    assert migrate(engine) == LATEST
    engine.dispose()
    with record.raw() as con:
        triggers = {r[0] for r in con.execute(
            "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE c.relname = 'entry' AND NOT t.tgisinternal")}
    assert triggers == {"entry_append_only_update", "entry_append_only_delete", "entry_append_only_truncate"}


@needs_pg
def test_pg_latest_schema_matches_the_models(record):
    from sqlmodel import SQLModel

    import rummyref.store.models  # noqa: F401
    from rummyref.store.engine import migrate

    engine = _engine()
    migrate(engine)
    engine.dispose()
    with record.raw() as con:
        for name, table in SQLModel.metadata.tables.items():
            cols = [r[0] for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = ?", (name,))]
            assert sorted(cols) == sorted(c.name for c in table.columns), name


@needs_pg
def test_pg_a_newer_database_is_refused(record):
    ok("new-session")
    with record.raw() as con:
        con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    r = ref("standings")
    assert r.exit_code == 6 and "newer" in r.stderr


@needs_pg
def test_pg_the_log_is_append_only(record):
    ok("new-session")
    ok("score-hand", *POINTS)
    for sql in ("UPDATE entry SET reason = 'x'", "DELETE FROM entry", "TRUNCATE entry CASCADE"):
        with record.raw() as con:
            with pytest.raises(record.errors, match="append-only"):
                con.execute(sql)
            con.rollback()
    assert ref_json("verify")["ok"]


@needs_pg
def test_pg_a_v1_database_is_upgraded_with_every_row_intact(record):
    """The v1 fixture's rows, loaded into a PostgreSQL database at schema v1: today's ref upgrades
    it (back-filling the totals) exactly as it upgrades the SQLite file."""
    from rummyref.store.engine import migrate

    engine = _engine()
    migrate(engine, upto=1)
    engine.dispose()
    src = sqlite3.connect(FIXTURE_V1)
    tables = ("game", "player", "session", "entry", "result")
    before = {t: src.execute(f"SELECT * FROM {t} ORDER BY id").fetchall() for t in tables}
    with record.raw() as con:
        for t in tables:
            cols = [d[1] for d in src.execute(f"PRAGMA table_info({t})")]
            for row in before[t]:
                con.execute(f"INSERT INTO {t} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})", row)
            con.execute(f"SELECT setval(pg_get_serial_sequence('{t}', 'id'), (SELECT MAX(id) FROM {t}))")
    src.close()
    st = ref_json("standings")  # the migration runs by itself
    with record.raw() as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(LATEST),)
        after = {t: [tuple(r) for r in con.execute(f"SELECT * FROM {t} ORDER BY id").fetchall()] for t in tables}
    assert {t: rows[:len(before[t])] for t, rows in after.items()} == before  # every v1 row intact
    assert [r[3] for r in after["entry"][len(before["entry"]):]] == ["adopt"]  # v3 appends, changes nothing
    totals = {p["name"]: p["total"] for p in st["players"]}
    assert totals == {"Bill": 1_000_000 + 45 + 12 - 7 + 100 - 15, "Ben": -10 + 35 + 8 + 0 + 40, "Larry": 20 - 5 + 60 + 3 + 9}
    assert st["hands"] == 5 and st["nights"] == 2
    assert {p["name"]: p["nights_won"] for p in st["players"]} == {"Bill": 1, "Ben": 0, "Larry": 1}
    assert ref("verify").exit_code == 0
    ok("new-session")
    h = ref_json("score-hand", *POINTS)
    assert h["hand"] == 7 and h["entry"] == 11  # after the adopt entry (9) and the night's opening (10)
    assert ref("verify").exit_code == 0


@needs_pg
def test_pg_a_write_holds_the_write_lock_from_its_first_statement(record):
    """As BEGIN IMMEDIATE on SQLite: while ref's write transaction is open, no other writer can begin."""
    from rummyref.store.engine import WRITE_LOCK
    from rummyref.store.record import writing

    ok("new-session")
    lock = f"SELECT pg_try_advisory_xact_lock({WRITE_LOCK}, hashtext(current_schema()))"
    with writing(None) as rec:
        rec.sql("SELECT 1").scalar()
        with record.raw() as other:
            assert other.execute(lock).fetchone()[0] is False
            other.rollback()
    with record.raw() as other:  # and it is released with the transaction
        assert other.execute(lock).fetchone()[0] is True


@needs_pg
def test_pg_a_busy_record_is_a_conflict_and_nothing_is_written(record, monkeypatch):
    import rummyref.store.engine as engine_mod

    ok("new-session")
    monkeypatch.setattr(engine_mod, "BUSY_TIMEOUT_MS", 200)
    before = record.snapshot()
    with record.raw() as other:  # another terminal in the middle of its write
        other.execute(f"SELECT pg_advisory_xact_lock({engine_mod.WRITE_LOCK}, hashtext(current_schema()))")
        started = time.monotonic()
        r = ref("score-hand", *POINTS)
        waited = time.monotonic() - started
        other.rollback()
    assert r.exit_code == 7, r.stdout + r.stderr
    assert "another terminal is writing" in r.stderr and "nothing was written" in r.stderr
    assert waited >= 0.2
    assert record.snapshot() == before
    assert ref_json("score-hand", *POINTS)["hand"] == 1  # once it is free


@needs_pg
def test_pg_reads_do_not_wait_for_a_writer(record):
    ok("new-session")
    ok("score-hand", *POINTS)
    from rummyref.store.engine import WRITE_LOCK

    with record.raw() as other:
        other.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK}, hashtext(current_schema()))")
        assert ref_json("standings")["hands"] == 1
        assert ref("history").exit_code == 0
        other.rollback()


@needs_pg
def test_pg_first_start_by_four_terminals_at_once_migrates_once(record):
    """Four terminals open four games at once on an empty database: the schema is created once
    (the migrations queue on the write lock), and every game is there."""
    env = dict(os.environ)
    procs = [subprocess.Popen([sys.executable, "-m", "rummyref", "new-session", "--game", f"g{i}"], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with record.raw() as con:
        assert con.execute("SELECT value FROM meta").fetchall() == [(str(LATEST),)]
        assert sorted(r[0] for r in con.execute("SELECT name FROM game")) == ["g0", "g1", "g2", "g3"]
    assert ref_json("verify")["games"] == 4


@needs_pg
def test_pg_a_missing_record_is_not_created_by_readers(record):
    for args in (["standings"], ["history"], ["verify"], ["rulings"], ["end-session"]):
        r = ref(*args)
        assert r.exit_code == 5 and f"there is no record at {record.where}" in " ".join(r.stderr.split()), args
    assert not record.exists()
    ok("new-session")
    assert record.exists()


def test_the_database_the_suite_runs_on(record):
    """Says which back-end this pass uses (and checks the fixture agrees with it)."""
    assert record.on_pg == ON_PG
    ok("new-session")
    with record.raw() as con:
        assert con.execute("SELECT COUNT(*) FROM game").fetchone()[0] == 1
    if ON_PG:
        assert os.environ["RUMMYREF_DB"].startswith("postgresql://") and pg_conninfo(os.environ["RUMMYREF_DB"])
    else:
        assert Path(os.environ["RUMMYREF_DB"]).exists()


def test_the_schema_reads_the_same_on_both_back_ends(record):
    """What export/import learn from the database itself: tables, columns, keys, foreign keys."""
    from rummyref.store import dialect
    from rummyref.store.engine import make_engine

    ok("new-session")
    engine = make_engine(None)
    with engine.connect() as conn:
        names = dialect.table_names(conn)
        assert names == sorted(["game", "player", "session", "entry", "result", "meta", "player_total",
                                "session_total", "game_total"])
        assert dialect.columns(conn, "player") == [("id", "INTEGER"), ("game_id", "INTEGER"), ("name", "TEXT"),
                                                   ("seat", "INTEGER"), ("opening", "INTEGER")]
        assert dialect.primary_key(conn, "session_total") == ("session_id", "player_id")
        assert dialect.primary_key(conn, "entry") == ("id",)
        assert sorted(dialect.foreign_keys(conn, "result")) == [("entry_id", "entry", "id"), ("player_id", "player", "id")]
        assert dialect.foreign_keys(conn, "game") == ()
        new = dialect.insert(conn, "game", {"name": "g2", "ruleset": "r", "ruleset_text": "", "target": None,
                                            "created_at": "2026-01-01"}, own_id="id")
        assert new == 2
        assert dialect.find_same(conn, "game", {"name": "g2", "target": None}, "id") == 2
        assert dialect.find_same(conn, "game", {"name": "g2", "target": 5}, "id") is None
        assert dialect.insert(conn, "meta", {"key": "k", "value": "v"}) is None
        conn.rollback()
    engine.dispose()


# -- moving a record: SQLite -> PostgreSQL -> SQLite (ref export / ref import) ---------------------


def _views(db: str) -> dict:
    out = {}
    for game in ("long", "friday"):
        out[game] = {
            "standings": ref_json("standings", "--db", db, "--game", game),
            "history": ref_json("history", "--db", db, "--game", game),
            "rulings": ref_json("rulings", "--db", db, "--game", game),
        }
    return out


def _laptop(db: str) -> None:
    """A record with two games: Rummy 2,000,000 over two nights (a correction, a void, a ruling)
    and a Simple Rummy session."""
    ok("new-session", "--db", db, "--game", "long", "--opening", "Bill=1000")
    for pts in ((10, 20, -5), (7, 0, 3), (40, -10, 15)):
        ok("score-hand", "--db", db, "--game", "long", "--points", f"Bill={pts[0]}", "--points", f"Ben={pts[1]}",
           "--points", f"Larry={pts[2]}")
    ok("amend", "2", "--db", db, "--game", "long", "--points", "Bill=8", "--points", "Ben=0", "--points", "Larry=3",
       "--reason", "Bill's run was one short")
    ok("dispute", "claim", "--db", db, "--game", "long", "--called", "Bill", "--touched", "Bill")
    ok("end-session", "--db", db, "--game", "long")
    ok("new-session", "--db", db, "--game", "long")
    ok("score-hand", "--db", db, "--game", "long", *POINTS)
    ok("void", "4", "--db", db, "--game", "long", "--reason", "misdeal")
    ok("new-session", "--db", db, "--game", "friday", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy",
       "--cards", "2")
    ok("score-hand", "--db", db, "--game", "friday", "--hand", "Ann=9C 9D", "--hand", "Bob=8C 8D", "--hand", "Cy=AC AD")


@needs_pg
def test_pg_export_from_sqlite_import_into_postgresql_and_back_gives_identical_record(record, tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-27T19:30")
    laptop, back = str(tmp_path / "laptop.db"), str(tmp_path / "back.db")
    server = record.spec
    _laptop(laptop)
    before = _views(laptop)
    ok("export", "--db", laptop, "-o", str(tmp_path / "laptop.json"))
    ok("import", "--db", server, str(tmp_path / "laptop.json"))
    assert _views(server) == before  # the same standings, history (hashes included) and rulings
    assert ref_json("verify", "--db", server)["ok"]
    ok("export", "--db", server, "-o", str(tmp_path / "server.json"))
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("laptop.json", "server.json"))
    assert a["tables"] == b["tables"] and a["chains"] == b["chains"]  # row for row, as stored
    assert ref("export", "--db", server, "--format", "csv").stdout == ref("export", "--db", laptop, "--format", "csv").stdout
    ok("import", "--db", back, str(tmp_path / "server.json"))
    assert _views(back) == before
    twice = ref("import", "--db", server, str(tmp_path / "laptop.json"))
    assert twice.exit_code == 7 and "already in the record" in " ".join(twice.stderr.split())
    # the server's record goes on: a new hand takes the next number there
    assert ref_json("score-hand", "--db", server, "--game", "long", *POINTS)["hand"] == 5
    stale = ref("import", "--db", server, str(tmp_path / "laptop.json"))  # an older export: the server holds it
    assert stale.exit_code == 7 and "the record's log holds the file's" in " ".join(stale.stderr.split())
    r = ref("backup", "--db", server, str(tmp_path / "copy.db"))
    assert r.exit_code == 6 and "pg_dump" in r.stderr and not (tmp_path / "copy.db").exists()


def test_name_completion_on_either_back_end_and_never_an_error(record):
    from rummyref.store import names

    assert names.game_names(None) == [] and not record.exists()  # no record: nothing offered, nothing created
    ok("new-session", "--game", "club", "--players", "Zed,Yan", "--ruleset", "simple-rummy")
    assert names.game_names(None) == ["club"]
    assert names.player_names(None, "club") == ["Zed", "Yan"]
    started = time.monotonic()
    assert names.game_names("postgresql://nobody@127.0.0.1:1/rummy") == []  # no server there
    assert time.monotonic() - started < 5


@needs_pg
def test_pg_a_refused_first_write_takes_back_the_schema_it_made(record):
    """On an empty server database, the first write migrates, then is refused: the schema is
    taken back (a refusal writes nothing). Once a game is in it, a refusal takes nothing back,
    and ``unmake`` (what a refused first write of another terminal would ask) keeps it all."""
    from rummyref.store.engine import make_engine
    from rummyref.store.migrations import unmake

    r = ref("new-session", "--opening", "Steve=5")  # Steve is in no roster: refused inside the write
    assert r.exit_code == 3 and not record.exists()
    ok("new-session")
    before = record.snapshot()
    assert ref("new-session", "--game", "club", "--opening", "Steve=5").exit_code == 3
    assert record.snapshot() == before
    engine = make_engine(record.spec, False)
    try:
        with engine.begin() as conn:
            assert unmake(conn) is False
    finally:
        engine.dispose()
    assert record.snapshot() == before


# -- no password in a URL no parser takes; the triggers' state and function; refusals in words ------

UNPARSABLE = (
    "postgresql://pw:SECRET2@127.0.0.1:abc/pwdb",  # a port that is not a number
    "postgresql://pw:SECRETc@h1:5432,h2:5432/pwdb",  # libpq's multi-host form
    "postgres://pw:SECRETd@127.0.0.1:x1/pwdb",
    "postgresql://pw:SECRETe@127.0.0.1:56393:5/pwdb",  # two ports
    "postgresql://pw:SECRETf@[::1/pwdb",  # an unclosed bracket
    "postgresql://pw:SEC@RETg@[::1:5432/pwdb",  # an unencoded @ as well
)


def _secret(url: str) -> str:
    return url.split("://", 1)[1].split(":", 1)[1].rsplit("@", 1)[0]


@pytest.mark.parametrize("url", UNPARSABLE)
def test_redact_masks_the_password_of_a_url_no_parser_takes(url):
    from rummyref.store.location import redact, resolve, shown

    secret = _secret(url)
    for text in (redact(f"cannot use the database {url}: boom"), redact(url), shown(resolve(url)),
                 redact(f"x {resolve(url)} y", resolve(url))):
        assert secret not in text and "SEC" not in text and "***" in text, text
    assert redact(f"cannot use {url}: boom").endswith("@" + url.rsplit("@", 1)[1] + ": boom")


@pytest.mark.parametrize("url", UNPARSABLE)
def test_no_password_is_shown_when_a_postgresql_url_cannot_be_read(url, monkeypatch):
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    assert "SEC" in _secret(url)
    runs = [ref("--db", url, "standings"), ref("--db", url, "verify", "--json")]
    monkeypatch.setenv("RUMMYREF_DB", url)
    runs.append(ref("new-session"))
    for r in runs:
        assert r.exit_code == 6, r.stdout + r.stderr
        assert "SEC" not in r.stdout + r.stderr and "***" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
    if ":abc/" in url:
        assert "the port must be a number" in " ".join(runs[0].stderr.split())


@needs_pg
def test_pg_verify_reports_a_trigger_enabled_for_replicas_only(record):
    ok("new-session")
    ok("score-hand", *POINTS)
    with record.raw() as con:  # fires only when session_replication_role = replica: the log is open
        con.execute("ALTER TABLE entry ENABLE REPLICA TRIGGER entry_append_only_delete")
    r = ref("verify")
    assert r.exit_code == 8, r.stdout + r.stderr
    out = " ".join(r.stdout.split())
    assert "entry_append_only_delete is disabled" in out and "replica" in out
    assert "entry_append_only_update" not in out
    with record.raw() as con:  # ENABLE ALWAYS still guards ordinary sessions
        con.execute("ALTER TABLE entry ENABLE ALWAYS TRIGGER entry_append_only_delete")
    assert ref("verify").exit_code == 0


@needs_pg
def test_pg_verify_reports_a_replaced_trigger_function(record):
    ok("new-session")
    ok("score-hand", *POINTS)
    with record.raw() as con:
        con.execute("CREATE OR REPLACE FUNCTION entry_append_only() RETURNS trigger LANGUAGE plpgsql "
                    "AS $$ BEGIN RETURN OLD; END $$")
    r = ref("verify")
    assert r.exit_code == 8, r.stdout + r.stderr
    out = " ".join(r.stdout.split())
    assert out.count("entry_append_only() the append-only triggers run is not the one ref created") == 1  # once, not per trigger
    r = ref("verify", "--json")
    assert r.exit_code == 8 and json.loads(r.stdout)["ok"] is False


def _plain_refusal(r, *words: str) -> str:
    """exit 6, the words, a hint, and no SQL statement or caret quoted."""
    assert r.exit_code == 6, r.stdout + r.stderr
    err = " ".join(r.stderr.split())
    assert "LINE 1" not in r.stderr and "^" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    for w in words:
        assert w in err, err
    assert len(r.stderr.strip().splitlines()) >= 2  # the message, then the hint
    return err


@needs_pg
def test_pg_a_search_path_naming_no_schema_is_said_in_words(record):
    from dbtest import PG_URL, with_schema

    url = with_schema(pg_conninfo(PG_URL), "no_such_schema_" + record.schema)  # type: ignore[arg-type]
    err = _plain_refusal(ref("--db", url, "new-session"), "search_path", "CREATE SCHEMA",
                         f"names the schema no_such_schema_{record.schema}, which does not exist")
    assert "nothing was written" in err


@needs_pg
def test_pg_a_foreign_meta_table_is_said_in_words(record):
    with record.raw() as con:
        con.execute("CREATE TABLE meta (id INTEGER, data TEXT)")
    for args in (["standings"], ["new-session"]):
        _plain_refusal(ref(*args), "not a ref record")
