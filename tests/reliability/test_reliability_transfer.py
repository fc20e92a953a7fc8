"""Export, import and backup (issue 6.4 and 6.5)."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json
from reliability_helpers import hand_args, start

from rummyref.store.migrations import LATEST

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "schema_v1.db"
CARDS = ["--melded", "Bill=7S 7H 7D", "--held", "Bill=KS 2C", "--melded", "Ben=2H 3H 4H 5H", "--out", "Ben",
         "--held", "Larry=QD JD"]


def said(result) -> str:
    """stderr with the console's line wrapping undone."""
    return " ".join(result.stderr.split())


def ok(*args):
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r


@pytest.fixture
def record(tmp_path, monkeypatch):
    """A record with two games: nights, hands from cards and points, an amend, a void, openings."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-03-01T20:00:00")
    db = tmp_path / "source.db"
    d = ("--db", str(db))
    ok("new-session", *d, "--wildcards", "1")
    ok("score-hand", *d, *CARDS)
    for tag in (2, 3, 4):
        ok("score-hand", *d, *hand_args(tag))
    ok("amend", *d, "2", *hand_args(20), "--reason", "Ben counted short")
    ok("void", *d, "3", "--reason", "dealt by mistake")
    ok("score-hand", *d, *hand_args(5))  # Larry's voided hand dealt again (SPEC §8)
    ok("score-hand", *d, *hand_args(6))
    ok("score-hand", *d, *hand_args(8))  # the round is full: 2 hands in force each
    ok("end-session", *d)
    monkeypatch.setenv("RUMMYREF_NOW", "2026-03-08T20:00:00")
    ok("new-session", *d)
    ok("score-hand", *d, *hand_args(7))
    ok("new-session", *d, "--game", "paper", "--opening", "Bill=1500000")  # a game begun on paper
    ok("score-hand", *d, "--game", "paper", "--points", "Bill=10", "--points", "Ben=20", "--points", "Larry=30")
    return db


def views(db: Path, game: str | None = None) -> dict:
    g = ("--game", game) if game else ()
    return {
        "standings": ref_json("standings", "--db", str(db), *g),
        "history": ref_json("history", "--db", str(db), *g),
    }


def export(db: Path, *args: str) -> dict:
    r = ok("export", "--db", str(db), *args)
    return json.loads(r.stdout)


def test_export_is_versioned_and_holds_every_table(record):
    doc = export(record)
    assert doc["format"] == "rummyref-export" and doc["version"] == 1 and doc["schema_version"] == LATEST
    con = sqlite3.connect(record)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} - {"meta"}
    assert set(doc["tables"]) == tables
    for t in tables:  # every row, as stored (facts JSON text byte for byte)
        cols = doc["tables"][t]["columns"]
        rows = con.execute(f"SELECT {', '.join(cols)} FROM {t}").fetchall()
        assert sorted(map(tuple, doc["tables"][t]["rows"]), key=repr) == sorted(rows, key=repr)
    assert set(doc["chains"]) == {"rummy-2m", "paper"}
    assert doc["chains"]["rummy-2m"]["entries"] == 14  # with the header, and each night opened and closed


def test_import_into_an_empty_database_gives_identical_views(record, tmp_path):
    file = tmp_path / "all.json"
    ok("export", "--db", str(record), "-o", str(file))
    target = tmp_path / "target.db"
    r = ref_json("import", "--db", str(target), str(file))
    assert sorted(r["games"]) == ["paper", "rummy-2m"] and r["entries"] == 17
    for game in ("rummy-2m", "paper"):
        assert views(target, game) == views(record, game)
    assert ok("verify", "--db", str(target)).stdout == ok("verify", "--db", str(record)).stdout
    assert export(target)["tables"] == export(record)["tables"]  # the very same rows


def test_import_into_a_different_database_renumbers_and_keeps_both(record, tmp_path):
    other = tmp_path / "other.db"
    ok("new-session", "--db", str(other), "--game", "at-home", "--players", "Ann,Bill,Cy")
    ok("score-hand", "--db", str(other), "--game", "at-home", "--points", "Ann=1", "--points", "Bill=2", "--points", "Cy=3")
    mine = views(other, "at-home")
    file = tmp_path / "one.json"
    ok("export", "--db", str(record), "--game", "rummy-2m", "-o", str(file))
    assert set(json.loads(file.read_text())["chains"]) == {"rummy-2m"}  # --game: that game only
    ok("import", "--db", str(other), str(file))
    assert views(other, "rummy-2m") == views(record, "rummy-2m")
    assert views(other, "at-home") == mine
    ok("verify", "--db", str(other))


def test_importing_twice_or_a_contradiction_is_refused_and_writes_nothing(record, tmp_path):
    file = tmp_path / "all.json"
    ok("export", "--db", str(record), "-o", str(file))
    target = tmp_path / "t.db"
    ok("import", "--db", str(target), str(file))
    before = target.read_bytes()
    again = ref("import", "--db", str(target), str(file))
    assert again.exit_code == 7 and "already in the record" in said(again) and "nothing was written" in said(again)
    assert target.read_bytes() == before
    # a different record with a game of the same name
    clash = tmp_path / "clash.db"
    ok("new-session", "--db", str(clash))
    ok("score-hand", "--db", str(clash), *hand_args(77))
    before = clash.read_bytes()
    r = ref("import", "--db", str(clash), str(file))
    assert r.exit_code == 7 and "contradicts the record" in said(r) and "rummy-2m" in said(r)
    assert clash.read_bytes() == before


def _tamper(file: Path, tmp_path: Path, change) -> Path:
    doc = json.loads(file.read_text())
    change(doc)
    out = tmp_path / "tampered.json"
    out.write_text(json.dumps(doc))
    return out


def _entry_col(doc, name):
    return doc["tables"]["entry"]["columns"].index(name)


@pytest.mark.parametrize(
    "change, code, words",
    [
        (lambda d: d.update(format="something-else"), 3, "not a ref export"),
        (lambda d: d.update(version=2), 3, "format version 2"),
        (lambda d: d.update(schema_version=99), 3, "newer than this ref"),
        (lambda d: d["tables"]["entry"]["rows"][0].__setitem__(_entry_col(d, "dealer"), "Larry"), 8, "hash does not match"),
        (lambda d: d["tables"]["result"]["rows"][0].__setitem__(3, 999), 8, "does not verify"),
        (lambda d: d["tables"]["entry"]["rows"].pop(), 8, "nothing was imported"),
        (lambda d: d["tables"]["game"].update(rows="x"), 3, "malformed"),
        (lambda d: d["tables"].update(nonsense={"columns": [], "rows": []}), 3, "not in schema version"),
    ],
)
def test_a_bad_or_changed_file_is_refused_before_anything_is_written(record, tmp_path, change, code, words):
    file = tmp_path / "all.json"
    ok("export", "--db", str(record), "--game", "rummy-2m", "-o", str(file))
    bad = _tamper(file, tmp_path, change)
    target = tmp_path / "target.db"
    ok("new-session", "--db", str(target), "--game", "other")
    before = target.read_bytes()
    r = ref("import", "--db", str(target), str(bad))
    assert r.exit_code == code, r.stderr
    assert words in said(r)
    assert target.read_bytes() == before


def test_a_truncated_log_is_caught_by_the_chains(record, tmp_path):
    """Removing the last entry with its results and totals leaves a valid chain: the file's
    own ``chains`` (entries, head) still catch it."""
    doc = export(record, "--game", "paper")
    entry = doc["tables"]["entry"]
    last = entry["rows"].pop()
    eid = last[entry["columns"].index("id")]
    doc["tables"]["result"]["rows"] = [r for r in doc["tables"]["result"]["rows"] if r[1] != eid]
    for t in ("player_total", "session_total", "game_total"):
        doc["tables"][t]["rows"] = []  # the cached totals are rebuilt by no one: drop them too
    bad = tmp_path / "cut.json"
    bad.write_text(json.dumps(doc))
    r = ref("import", "--db", str(tmp_path / "t.db"), str(bad))
    assert r.exit_code == 8, r.stderr
    assert not (tmp_path / "t.db").exists()


def test_the_first_schema_exports_and_imports(tmp_path):
    old = tmp_path / "old.db"
    shutil.copy(FIXTURE, old)
    file = tmp_path / "old.json"
    ok("export", "--db", str(old), "-o", str(file))  # upgraded on the way
    target = tmp_path / "t.db"
    ok("import", "--db", str(target), str(file))
    assert views(target) == views(old)


def test_csv_has_one_line_per_hand_and_columns_add_up_to_the_totals(record):
    text = ok("export", "--db", str(record), "--format", "csv").stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    main = [r for r in rows if r["game"] == "rummy-2m"]
    assert [r["status"] for r in main] == ["opening", "hand", "amended", "void", "hand", "hand", "hand", "hand",
                                           "hand"]
    assert [r["hand"] for r in main[1:]] == [str(i) for i in range(1, 9)]
    assert main[3]["rummy-2m: Bill"] == ""  # the voided hand counts for nobody
    for game in ("rummy-2m", "paper"):  # the same three play both: a column per game each
        st = ref_json("standings", "--db", str(record), "--game", game)
        for p in st["players"]:
            assert sum(int(r[f"{game}: {p['name']}"] or 0) for r in rows) == p["total"]


def test_export_refusals(record, tmp_path):
    assert ref("export", "--db", str(record), "--format", "xml").exit_code == 3
    assert ref("export", "--db", str(record), "--game", "nope").exit_code == 5
    assert ref("export", "--db", str(tmp_path / "missing.db")).exit_code == 5
    assert not (tmp_path / "missing.db").exists()


# -- backup ---------------------------------------------------------------------------------


def test_backup_while_another_process_writes(tmp_path):
    db = tmp_path / "live.db"
    ok("new-session", "--db", str(db))
    writer = start(db, "score-hand", *hand_args(1))  # a warm-up, so the file is in WAL with hands
    writer.communicate()
    stop = threading.Event()
    written = []

    def keep_writing():
        tag = 100
        while not stop.is_set():
            p = start(db, "score-hand", *hand_args(tag), RUMMYREF_TEST_DELAY="0.0005")
            p.communicate()
            written.append(p.returncode)
            tag += 1

    t = threading.Thread(target=keep_writing)
    t.start()
    copies = []
    try:
        i = 0
        while (len(written) < 2 or i < 4) and i < 60:  # copies all along, until the writer recorded 2 hands
            copy = tmp_path / f"copy{i}.db"
            r = ref_json("backup", "--db", str(db), str(copy))
            assert r["path"] == str(copy)
            copies.append((copy, r["entries"]))
            i += 1
    finally:
        stop.set()
        t.join()
    assert written and set(written) == {0}
    for copy, entries in copies:
        con = sqlite3.connect(copy)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
        assert con.execute("SELECT COUNT(*) FROM entry").fetchone()[0] == entries
        con.close()
        assert ref("verify", "--db", str(copy)).exit_code == 0
    assert len({e for _, e in copies}) >= 2  # the copies caught the writer at work


def test_backup_refusals(tmp_path):
    db = tmp_path / "b.db"
    assert ref("backup", "--db", str(db), str(tmp_path / "x.db")).exit_code == 5  # no record
    ok("new-session", "--db", str(db))
    ok("backup", "--db", str(db), str(tmp_path / "x.db"))
    before = (tmp_path / "x.db").read_bytes()
    r = ref("backup", "--db", str(db), str(tmp_path / "x.db"))
    assert r.exit_code == 4 and "--overwrite" in said(r)  # refused, as export -o is
    assert (tmp_path / "x.db").read_bytes() == before
    assert ref("backup", "--db", str(db), str(db)).exit_code == 4
    assert ref("backup", "--db", str(db), str(tmp_path / "no" / "such" / "x.db")).exit_code == 3
    ok("score-hand", "--db", str(db), *hand_args(1))
    ok("backup", "--db", str(db), "--overwrite", str(tmp_path / "x.db"))
    assert ref_json("standings", "--db", str(tmp_path / "x.db"))["hands"] == 1
    assert not [p for p in tmp_path.iterdir() if "partial" in p.name]


def test_a_table_added_by_a_later_migration_travels_with_its_rows(tmp_path, monkeypatch):
    """Export and import are generic over the schema: a v3 table (here a made-up one hanging
    from the log) is exported and imported with no change to the code, its foreign keys
    renumbered in a database where the ids differ."""
    import rummyref.store.engine as engine_mod
    import rummyref.store.migrations as migrations_mod
    from rummyref.store.engine import make_engine, migrate

    def v3(conn):
        conn.exec_driver_sql("CREATE TABLE note (id INTEGER PRIMARY KEY, entry_id INTEGER NOT NULL "
                             "REFERENCES entry (id), text TEXT NOT NULL)")

    nxt = migrations_mod.LATEST + 1
    monkeypatch.setattr(engine_mod, "MIGRATIONS", (*migrations_mod.MIGRATIONS, v3))
    monkeypatch.setattr(engine_mod, "LATEST", nxt)
    monkeypatch.setattr(migrations_mod, "LATEST", nxt)

    def at_v3(db: Path) -> None:
        engine = make_engine(str(db))
        migrate(engine, upto=nxt)
        engine.dispose()

    source, target = tmp_path / "s.db", tmp_path / "t.db"
    for db in (source, target):
        at_v3(db)
    ok("new-session", "--db", str(target), "--game", "first")  # ids in the target are taken
    ok("score-hand", "--db", str(target), "--game", "first", *hand_args(1))
    ok("new-session", "--db", str(source))
    ok("score-hand", "--db", str(source), *hand_args(5))
    ok("score-hand", "--db", str(source), *hand_args(6))
    con = sqlite3.connect(source)
    con.execute("INSERT INTO note (entry_id, text) SELECT id, 'Ben disputed the count' FROM entry WHERE seq = 2")
    con.commit()
    con.close()
    doc = export(source)
    assert doc["schema_version"] == nxt and doc["tables"]["note"]["rows"]
    file = tmp_path / "v3.json"
    file.write_text(json.dumps(doc))
    ok("import", "--db", str(target), str(file))
    con = sqlite3.connect(target)
    row = con.execute("SELECT g.name, e.seq, e.hash, n.text FROM note n JOIN entry e ON e.id = n.entry_id "
                      "JOIN game g ON g.id = e.game_id").fetchall()
    src_hash = sqlite3.connect(source).execute("SELECT hash FROM entry WHERE seq = 2").fetchone()[0]
    assert row == [("rummy-2m", 2, src_hash, "Ben disputed the count")]
    ok("verify", "--db", str(target))


def test_simple_rummy_games_and_ruling_precedents_round_trip(tmp_path, monkeypatch):
    """Entries of every kind travel: a Simple Rummy game and a ruling kept as a precedent."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-03-01T20:00:00")
    db, target = tmp_path / "mix.db", tmp_path / "mix2.db"
    d = ("--db", str(db))
    ok("new-session", *d)
    ok("score-hand", *d, *hand_args(1))
    assert "Recorded as a precedent" in " ".join(ok("dispute", "claim", *d, "--called", "ben=bill", "--touched", "ben, bill").stderr.split())
    ok("new-session", *d, "--game", "simple", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--wildcards", "1",
       "--cards", "5", "--first-dealer", "Ann=KS", "--first-dealer", "Bob=KH", "--first-dealer", "Cy=2C")
    ok("score-hand", *d, "--game", "simple", "--hand", "Ann=2H 3H 4H 4S 4D", "--hand", "Bob=KS QD 9C 8C 2D",
       "--hand", "Cy=AS AD AC 5H W")
    file = tmp_path / "mix.json"
    ok("export", *d, "-o", str(file))
    kinds = {r[json.loads(file.read_text())["tables"]["entry"]["columns"].index("kind")]
             for r in json.loads(file.read_text())["tables"]["entry"]["rows"]}
    assert {"hand", "ruling"} <= kinds
    ok("import", "--db", str(target), str(file))
    for game in ("rummy-2m", "simple"):
        for command in ("standings", "history", "rulings"):
            assert ref_json(command, "--db", str(target), "--game", game) == ref_json(command, *d, "--game", game)
    assert ok("verify", "--db", str(target)).stdout == ok("verify", *d).stdout


# -- an import is checked as strictly as what is typed (issue 13) -----------------------------


@pytest.fixture(scope="module")
def small_export(tmp_path_factory) -> Path:
    """One export for all the tampering below: a night, two hands, a ruling (made once)."""
    folder = tmp_path_factory.mktemp("small")
    d = ("--db", str(folder / "small.db"))
    ok("new-session", *d)
    ok("score-hand", *d, *CARDS)
    ok("score-hand", *d, *hand_args(2))
    ok("export", *d, "-o", str(folder / "small.json"))
    return folder / "small.json"


def _set(table: str, column: str, value, row: int = 0):
    def change(doc):
        part = doc["tables"][table]
        part["rows"][row][part["columns"].index(column)] = value
    return change


def _house_ruleset() -> str:
    from rummyref.rules.ruleset import builtin_path

    return builtin_path("rummy-2m").read_text().replace("{ A = 15,", "{ A = 5000,")


@pytest.mark.parametrize("change, where, words", [
    (_set("result", "points", 1.5), "rows[0] (points)", "1.5 is not a whole number"),
    (_set("result", "points", True), "rows[0] (points)", "True is not a whole number"),
    (_set("result", "points", 2**63), "rows[0] (points)", "does not fit in 64 bits"),
    (_set("result", "points", 10**20), "rows[0] (points)", "does not fit in 64 bits"),
    (_set("result", "points", -(2**63)), "rows[0] (points)", "out of range"),
    (_set("result", "points", 10_001), "rows[0] (points)", "out of range"),
    (_set("player", "opening", 10**13), "$.tables.player.rows[0] (opening)", "out of range"),
    (_set("game", "target", 0), "(target)", "out of range"),
    (_set("game", "wildcards", 99), "(wildcards)", "out of range"),
    (_set("game", "ruleset_text", "name = [unclosed"), "(ruleset_text)", "not a rule set"),
    (_set("game", "ruleset_text", 'format = 1\nname = "x"'), "(ruleset_text)", "cards"),
    (_set("game", "ruleset_text", _house_ruleset()), "(ruleset_text)", "the whole deck is worth"),
    (_set("game", "options", '{"closed_roster": true, "admin": 1}'), "(options)", "unknown option 'admin'"),
    (_set("game", "options", '{"closed_roster": "yes"}'), "(options)", "closed_roster must be bool"),
    (_set("game", "options", "[1, 2]"), "(options)", "expected a JSON object"),
    (_set("game", "options", "{not json"), "(options) is not JSON", ""),
    (_set("session", "options", '{"table": {"players": ["Bill"]}}'), "$.tables.session.rows[0] (options)", ""),
    (_set("session", "options", '{"colour": "red"}'), "(options)", "unknown option 'colour'"),
    (_set("player", "name", "Bi\u0000ll"), "$.tables.player.rows[0] (name)", "NUL"),
    (_set("player", "name", "Bill,Ben"), "(name)", "comma"),
    (_set("player", "name", " Bill"), "(name)", "blank at an end"),
    (_set("player", "name", "x" * 2000), "(name)", "at most 1,000"),
    (_set("player", "name", "bill", row=1), "$.tables.player.rows[1] (name)", "roster twice"),
    (_set("entry", "facts", "[" * 50 + "]" * 50), "(facts)", "nested deeper than 8"),
    (_set("entry", "created_at", "last Friday"), "(created_at)", "not an ISO date"),
    (_set("entry", "hash", "f" * 63), "(hash)", "SHA-256"),
    (_set("entry", "hand", 0), "(hand)", "out of range"),
    (_set("game", "name", None), "$.tables.game.rows[0] (name)", "must not be null"),
    (_set("game", "name", 7), "(name)", "expected a text"),
    (lambda d: d.update(owner="me"), "$.owner", "unknown key"),
    (lambda d: d["tables"]["game"].update(note=[]), "malformed", ""),
    (lambda d: d["tables"]["game"]["columns"].__setitem__(1, "id"), "$.tables.game.columns", "named twice"),
    (lambda d: d["chains"]["rummy-2m"].update(head="nope"), "$.chains.rummy-2m.head", "SHA-256"),
    (lambda d: d["chains"]["rummy-2m"].update(extra=1), "$.chains.rummy-2m", "expected"),
])
def test_every_value_an_import_brings_is_checked_and_named(small_export, tmp_path, change, where, words):
    bad = _tamper(small_export, tmp_path, change)
    target = tmp_path / "target.db"
    ok("new-session", "--db", str(target), "--game", "other")
    before = target.read_bytes()
    r = ref("import", "--db", str(target), str(bad))
    assert r.exit_code == 3, r.stderr
    assert where in said(r) and words in said(r), said(r)
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert target.read_bytes() == before
    assert not (tmp_path / "fresh.db").exists()
    assert ref("import", "--db", str(tmp_path / "fresh.db"), str(bad)).exit_code == 3
    assert not (tmp_path / "fresh.db").exists()  # a refused first import leaves no file


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000 + "]" * 100_000, "nested deeper than 8"),
    ('{"format": "rummyref-export", "version": 1, "schema_version": NaN}', "NaN is not a number"),
    ('{"format": "rummyref-export", "version": 1, "schema_version": ' + "9" * 5000 + "}", "5000 digits"),
    ('{"format": "rummyref-export", "version": 1, "schema_version": 2, "tables": {"game": {"columns": ["id"], '
     '"rows": [[1]]}}, "x": ' + "[" * 5 + "]" * 5 + "}", "unknown key"),
    ("not json at all", "is not JSON"),
])
def test_a_file_that_is_no_export_is_refused_without_a_crash(tmp_path, text, words):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    r = ref("import", "--db", str(tmp_path / "t.db"), str(bad))
    assert r.exit_code == 3, r.stderr
    assert words in said(r) and "RecursionError" not in r.stderr
    assert not (tmp_path / "t.db").exists()


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path):
    from rummyref.store.import_checks import MAX_BYTES

    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(MAX_BYTES + 1)  # sparse: reading it whole would cost 16 MiB of zeros
    r = ref("import", "--db", str(tmp_path / "t.db"), str(big))
    assert r.exit_code == 3 and "at most 16 MiB" in said(r)
    (tmp_path / "latin1.json").write_bytes(b'{"format": "caf\xe9"}')
    r = ref("import", "--db", str(tmp_path / "t.db"), str(tmp_path / "latin1.json"))
    assert r.exit_code == 3 and "not UTF-8" in said(r)
    assert not (tmp_path / "t.db").exists()


def test_a_simple_rummy_table_in_an_import_is_rebuilt_under_its_rule_set(tmp_path, monkeypatch):
    db = tmp_path / "s.db"
    ok("new-session", "--db", str(db), "--game", "simple", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    doc = export(db)
    part = doc["tables"]["session"]
    col = part["columns"].index("options")
    options = json.loads(part["rows"][0][col])
    options["table"]["cards"] = 99  # S1: 2-10 cards for three players
    part["rows"][0][col] = json.dumps(options)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    r = ref("import", "--db", str(tmp_path / "t.db"), str(bad))
    assert r.exit_code == 3 and "$.tables.session.rows[0] (options)" in said(r), said(r)


# -- stop 36: the records audit ---------------------------------------------------------------


def test_a_backup_of_a_damaged_record_is_exit_8_not_an_internal_error(record, tmp_path):
    """A damaged page in the middle: verify and export said "damaged" (exit 8), but backup
    was "internal error: DatabaseError" (exit 1)."""
    bad = tmp_path / "bad.db"
    data = bytearray(record.read_bytes())
    data[4096 * 10:4096 * 11] = b"A" * 4096
    bad.write_bytes(bytes(data))
    r = ref("backup", "--db", str(bad), str(tmp_path / "copy.db"))
    assert r.exit_code == 8, r.stdout + r.stderr
    assert "the database file is damaged" in said(r) and "the copy was not kept" in said(r)
    assert not (tmp_path / "copy.db").exists() and not [p for p in tmp_path.iterdir() if "partial" in p.name]


@pytest.mark.parametrize("where", ["before", "after"])
def test_an_empty_db_option_is_refused_never_the_main_record(record, tmp_path, monkeypatch, where):
    """``ref --db "$UNSET" import f.json`` imported into $RUMMYREF_DB (the main record)."""
    main = tmp_path / "main.db"
    shutil.copy(record, main)
    monkeypatch.setenv("RUMMYREF_DB", str(main))
    before = main.read_bytes()
    args = ["--db", "", "standings"] if where == "before" else ["standings", "--db", ""]
    r = ref(*args)
    assert r.exit_code == 3 and "--db was given empty: it names no record" in said(r)
    exported = tmp_path / "paper.json"
    ok("export", "--db", str(record), "--game", "paper", "-o", str(exported))
    assert ref("import", "--db", "", str(exported)).exit_code == 3
    assert main.read_bytes() == before


def test_an_export_with_no_game_or_a_game_renamed_in_it_is_said_so(tmp_path):
    empty = tmp_path / "empty.db"
    ok("upgrade", "--db", str(empty))
    ok("export", "--db", str(empty), "-o", str(tmp_path / "e.json"))
    r = ref("import", "--db", str(tmp_path / "new.db"), str(tmp_path / "e.json"))
    assert r.exit_code == 3 and "holds no game: there is nothing to import" in said(r)
    assert not (tmp_path / "new.db").exists()
    ok("new-session", "--db", str(tmp_path / "one.db"))
    ok("export", "--db", str(tmp_path / "one.db"), "-o", str(tmp_path / "one.json"))
    doc = json.loads((tmp_path / "one.json").read_text())
    game = doc["tables"]["game"]
    game["rows"][0][game["columns"].index("name")] = "friday"
    (tmp_path / "renamed.json").write_text(json.dumps(doc))
    r = ref("import", "--db", str(tmp_path / "new.db"), str(tmp_path / "renamed.json"))
    assert r.exit_code == 8
    assert "its chains name game 'rummy-2m', which its tables do not hold" in said(r)
    assert "None" not in r.stderr and "{" not in r.stderr


def test_csv_gives_a_name_in_two_games_a_column_per_game(tmp_path):
    """Audit, stop 36: Ann of a Simple Rummy game and Ann of a Gin game shared one column: a
    game win (1) and 33 Gin points added up to 34."""
    db = ("--db", str(tmp_path / "r.db"))
    ok("new-session", *db, "-g", "sr", "-r", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3")
    ok("score-hand", *db, "-g", "sr", "--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S",
       "--out", "Ann")
    ok("new-session", *db, "-g", "g", "-r", "gin", "--players", "Ann,Dee")
    ok("score-hand", *db, "-g", "g", "--knock", "Ann", "--hand", "Ann=AS 2S 3S 5H 5D 5C 9C 9D 9H 4D",
       "--hand", "Dee=KS QH JD 10C 8S 7H 6D 4C 3H 2D")
    rows = list(csv.DictReader(io.StringIO(ok("export", *db, "--format", "csv").stdout)))
    assert "Ann" not in rows[0] and {"sr: Ann", "g: Ann", "Bob", "Dee"} <= set(rows[0])
    total = {col: sum(int(r[col]) for r in rows if r[col]) for col in ("sr: Ann", "g: Ann")}
    assert total == {"sr: Ann": 1, "g: Ann": 66}
