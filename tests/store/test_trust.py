"""Rows outside the chain are never trusted (docs/operations/data-promises.md, promises 2 and 3):
a write refuses to judge a hand on a cache or a game row changed outside ref, ``ref verify``
judges every hand again from its chained facts, compares the schema exactly with ref's, and
names a damaged file or an unreadable entry with exit 8. Real records, changed with plain SQL
behind ref's back, driven through the CLI."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import ref

PTS = ("--points", "Bill={}", "--points", "Ben={}", "--points", "Larry={}")
TRIGGERS = ("entry_append_only_update", "entry_append_only_delete")


def hand(b: int, n: int, lar: int, *extra: str):
    return ref("score-hand", "-g", "long", *[a.format(v) if "{}" in a else a
                                               for a, v in zip(PTS, (None, b, None, n, None, lar))], *extra)


@pytest.fixture
def long_game(record):
    assert ref("new-session", "-g", "long", "--players", "Bill,Ben,Larry").exit_code == 0
    assert hand(45, -10, 20).exit_code == 0
    return record


def entries(record) -> int:
    with record.raw() as db:
        return db.execute("SELECT COUNT(*) FROM entry").fetchone()[0]


def change(record, *statements: str, triggers: bool = False) -> None:
    with record.raw() as db:
        if triggers:
            for t in TRIGGERS:
                db.drop_trigger(t)
        for sql in statements:
            db.execute(sql)
    if triggers:  # put back as ref creates them
        from rummyref.store.migrations import PG_APPEND_ONLY, V2

        with record.raw() as db:  # (the triggers are V2's: V1 had none, and they were not put back)
            for sql in (PG_APPEND_ONLY[1:3] if db.pg else [s for s in V2 if s.startswith("CREATE TRIGGER")]):
                db.execute(sql)


def verify_fails(*words: str) -> str:
    r = ref("verify")
    assert r.exit_code == 8, r.stdout + r.stderr
    said = " ".join((r.stdout + r.stderr).split())
    for w in words:
        assert w in said, said
    return said


# -- 1. a write trusts nothing outside the chain; verify judges every hand again ---------------


SWAP = ("UPDATE player SET seat = -seat; UPDATE player SET seat = {ben} WHERE name = 'Ben'; "
        "UPDATE player SET seat = {larry} WHERE name = 'Larry'; UPDATE player SET seat = 1 WHERE name = 'Bill'")


@pytest.mark.parametrize("tamper, undo, what", [
    ("UPDATE player_total SET points = points + 1999990 WHERE player_id = (SELECT id FROM player WHERE name = 'Bill')",
     "UPDATE player_total SET points = points - 1999990 WHERE player_id = (SELECT id FROM player WHERE name = 'Bill')",
     "Bill's cached total is not the sum of the results in force"),
    ("UPDATE game SET target = 60", "UPDATE game SET target = 2000000",
     "the game row's target is not the one its chained header states"),
    ("UPDATE game SET ruleset_text = replace(ruleset_text, 'K = 10 }', 'K = 50 }')",
     "UPDATE game SET ruleset_text = replace(ruleset_text, 'K = 50 }', 'K = 10 }')",
     "the game row's ruleset_text is not the one its chained header states"),
    # the roster the write deals and totals by (audit, stop 34: each was written into the chain)
    ("UPDATE player SET opening = 1999999 WHERE name = 'Ben'", "UPDATE player SET opening = 0 WHERE name = 'Ben'",
     "its roster (Ben: name, seat or opening total) is not the one its chained entries state"),
    (SWAP.format(ben=3, larry=2), SWAP.format(ben=2, larry=3), "its roster (Ben, Larry: name, seat or opening total)"),
    # the night's and the game's caches
    ("UPDATE session_total SET points = points + 100 WHERE player_id = (SELECT id FROM player WHERE name = 'Ben')",
     "UPDATE session_total SET points = points - 100 WHERE player_id = (SELECT id FROM player WHERE name = 'Ben')",
     "Ben's cached total of night 1 is not the sum of its results in force"),
    ("UPDATE game_total SET entries = entries + 1", "UPDATE game_total SET entries = entries - 1",
     "its cached count of entries (or the last one's hash) is not the log's"),
    # what a refusal is read from: "game over" (A7) and "no night is open" were exit 4 (stop 35)
    ("UPDATE game SET winner = 'Ben', finished_at = '2026-12-03T08:00:00+00:00'",
     "UPDATE game SET winner = NULL, finished_at = NULL",
     "the game row's end (finished, winner) is not the one its last hand states"),
    ("UPDATE session SET closed_at = '2026-12-03T08:00:00+00:00'", "UPDATE session SET closed_at = NULL",
     "its night 1 is marked closed but its chained entries say otherwise"),
])
def test_a_write_on_rows_changed_outside_ref_is_refused_and_writes_nothing(long_game, tamper, undo, what):
    change(long_game, *tamper.split("; "))
    before = entries(long_game)
    r = hand(5, 2, 3)
    assert r.exit_code == 8, r.stdout + r.stderr
    said = " ".join(r.stderr.split())
    assert what in said and "nothing was written" in said and "run ref verify" in said
    assert entries(long_game) == before
    change(long_game, *undo.split("; "))
    assert hand(5, 2, 3).exit_code == 0
    assert ref("verify").exit_code == 0


def test_a_write_after_an_entry_deleted_from_the_middle_of_the_log_is_refused(long_game):
    """The audit's case (longgame47 #5): a void in the middle of the log deleted (its hand stays
    voided: every total still adds up, the last entry's number and hash are the cache's). The
    write counts the log's entries against the last one's number: exit 8, nothing written."""
    assert hand(12, 30, -5).exit_code == 0
    assert ref("void", "1", "-g", "long", "--reason", "misdeal").exit_code == 0
    assert hand(1, 2, 3).exit_code == 0 and hand(4, 5, 6).exit_code == 0
    with long_game.raw() as db:
        void = db.execute("SELECT seq FROM entry WHERE kind = 'void'").fetchone()[0]
        last = db.execute("SELECT MAX(seq) FROM entry").fetchone()[0]
    change(long_game, f"DELETE FROM entry WHERE kind = 'void' AND seq = {void}", triggers=True)
    before = entries(long_game)
    r = hand(5, 2, 3)
    assert r.exit_code == 8, r.stdout + r.stderr
    said = " ".join(r.stderr.split())
    assert (f"long, its log holds {last - 1} entries but the last is entry {last}: an entry is missing; "
            "nothing was written") in said
    assert entries(long_game) == before
    verify_fails(f"entry {void}: missing: the log jumps to entry {void + 1}")


def test_a_night_ended_on_a_game_row_said_over_outside_ref_is_refused(long_game):
    # one hand of three: only a game over (A7) may end the night mid-round
    change(long_game, "UPDATE game SET winner = 'Ben', finished_at = '2026-12-03T08:00:00+00:00'")
    before = entries(long_game)
    r = ref("end-session", "-g", "long")
    assert r.exit_code == 8, r.stdout + r.stderr
    assert "the game row's end (finished, winner) is not the one its last hand states" in " ".join(r.stderr.split())
    assert entries(long_game) == before


def test_a_game_said_over_before_any_hand_is_exit_8_in_every_write(record):
    assert ref("new-session", "-g", "long", "--players", "Bill,Ben,Larry").exit_code == 0
    change(record, "UPDATE game SET winner = 'Ben', finished_at = '2026-12-03T08:00:00+00:00'")
    before = entries(record)
    for r in (hand(5, 2, 3), ref("end-session", "-g", "long")):
        assert r.exit_code == 8, r.stdout + r.stderr
        assert "the game row says it is over, but no hand of it is recorded" in " ".join(r.stderr.split())
    assert entries(record) == before


def test_a_closed_night_marked_open_outside_ref_is_not_closed_again(long_game):
    assert hand(12, 30, -5).exit_code == 0 and hand(0, 15, 25).exit_code == 0
    assert ref("end-session", "-g", "long").exit_code == 0
    change(long_game, "UPDATE session SET closed_at = NULL")
    before = entries(long_game)
    for r in (ref("end-session", "-g", "long"), hand(5, 2, 3)):
        assert r.exit_code == 8, r.stdout + r.stderr
        assert "its night 1 is marked open but its chained entries say otherwise" in " ".join(r.stderr.split())
    assert entries(long_game) == before
    verify_fails("session")


def test_a_night_ended_on_changed_night_totals_is_refused(long_game):
    assert hand(12, 30, -5).exit_code == 0 and hand(0, 15, 25).exit_code == 0
    change(long_game, "UPDATE session_total SET points = points + 100 "
                      "WHERE player_id = (SELECT id FROM player WHERE name = 'Ben')")
    before = entries(long_game)
    r = ref("end-session", "-g", "long")
    assert r.exit_code == 8 and "Ben's cached total of night 1" in " ".join(r.stderr.split())
    assert entries(long_game) == before


def test_a_hand_scoring_a_player_renamed_outside_ref_is_refused(long_game):
    change(long_game, "UPDATE player SET name = 'Steve' WHERE name = 'Larry'")
    before = entries(long_game)
    r = ref("score-hand", "-g", "long", "--points", "Bill=1", "--points", "Ben=2", "--points", "Steve=3")
    assert r.exit_code == 8, r.stdout + r.stderr
    assert "its roster (Larry, Steve: name, seat or opening total)" in " ".join(r.stderr.split())
    assert entries(long_game) == before


def test_a_player_renamed_after_dealing_is_exit_8_not_a_bug(long_game):
    assert hand(12, 30, -5).exit_code == 0 and hand(0, 15, 25).exit_code == 0  # Larry dealt hand 3
    change(long_game, "UPDATE player SET name = 'Steve' WHERE name = 'Larry'")
    for args in (("standings",), ("end-session", "-g", "long"), ("void", "1", "--reason", "x", "-g", "long")):
        r = ref(*args)
        assert r.exit_code == 8, (args, r.stdout + r.stderr)
        assert "the record was changed outside ref" in r.stderr and "internal error" not in r.stderr


def _bypass_the_write_check(monkeypatch):
    """What a ref without the write's check did: the hand is judged on the changed rows."""
    monkeypatch.setattr("rummyref.store.record.trusted", lambda rec, g, **kw: None)


def test_verify_judges_the_status_again_a_write_on_a_changed_total_baked_in(long_game, monkeypatch):
    bill = "(SELECT id FROM player WHERE name = 'Bill')"
    change(long_game, f"UPDATE player_total SET points = points + 1999990 WHERE player_id = {bill}")
    _bypass_the_write_check(monkeypatch)
    assert "GAME OVER" in hand(5, 2, 3).stdout
    change(long_game, f"UPDATE player_total SET points = points - 1999990 WHERE player_id = {bill}")
    verify_fails("long: the game's status: the log says over (Bill won), but its hands in force give not over")


def test_verify_judges_each_hand_again_under_the_chained_rule_set(long_game, monkeypatch):
    change(long_game, "UPDATE game SET ruleset_text = replace(ruleset_text, 'K = 10 }', 'K = 50 }')")
    _bypass_the_write_check(monkeypatch)
    r = ref("score-hand", "-g", "long", "--melded", "Bill=KS KH KD", "--out", "Bill", "--held", "Ben=2C",
            "--held", "Larry=3C")
    assert r.exit_code == 0 and "150" in r.stdout
    change(long_game, "UPDATE game SET ruleset_text = replace(ruleset_text, 'K = 50 }', 'K = 10 }')")
    verify_fails("long: entry 4 (hand 2), Bill: the entry says 150, but its facts under the chained rule set give 30")


def test_a_target_changed_for_one_write_is_found_by_verify(long_game, monkeypatch):
    change(long_game, "UPDATE game SET target = 60")
    _bypass_the_write_check(monkeypatch)
    assert "GAME OVER" in hand(20, 0, 0).stdout
    change(long_game, "UPDATE game SET target = 2000000")
    verify_fails("the game's status: the log says over (Bill won), but its hands in force give not over")


def test_a_whole_record_of_every_kind_judges_again_as_written(tmp_path):
    import chain_record

    db = tmp_path / "all.db"
    chain_record.build(db)
    r = ref("verify", "--db", str(db))
    assert r.exit_code == 0, r.stdout + r.stderr


# -- 2. the schema, exactly -------------------------------------------------------------------


SQLITE_ONLY = pytest.mark.skipif(bool(os.environ.get("RUMMYREF_TEST_PG")), reason="a SQLite file's schema")


@SQLITE_ONLY
@pytest.mark.parametrize("statements, words", [
    (["DROP TRIGGER entry_append_only_update",
      "CREATE TRIGGER entry_append_only_update BEFORE UPDATE ON entry WHEN 0 BEGIN SELECT RAISE(ABORT, 'x'); END"],
     ["trigger entry_append_only_update: is not the one ref creates", "WHEN 0"]),
    (["DROP TRIGGER entry_append_only_update",
      "CREATE TRIGGER entry_append_only_update BEFORE UPDATE OF prev_hash ON entry "
      "BEGIN SELECT RAISE(ABORT, 'the log is append-only'); END"],
     ["trigger entry_append_only_update: is not the one ref creates", "OF prev_hash"]),
    (["DROP TRIGGER entry_append_only_delete",
      "CREATE TRIGGER entry_append_only_delete BEFORE DELETE ON entry BEGIN SELECT 1; /* RAISE */ END"],
     ["trigger entry_append_only_delete: is not the one ref creates"]),
    (["CREATE TRIGGER evil AFTER INSERT ON result BEGIN UPDATE result SET points = points + 100 "
      "WHERE id = new.id; END"],
     ["trigger evil: on table result: is not part of ref's schema (added outside ref)"]),
    (["CREATE VIEW v AS SELECT * FROM entry"], ["view v: is not part of ref's schema"]),
    (["CREATE TABLE notes (x)"], ["table notes: is not part of ref's schema"]),
    (["DROP INDEX ix_entry_hand"], ["index ix_entry_hand: is missing"]),
    (["ALTER TABLE entry ADD COLUMN note TEXT"], ["table entry: is not the one ref creates", "note TEXT"]),
])
def test_verify_and_backup_refuse_a_schema_that_is_not_refs(long_game, tmp_path, statements, words):
    change(long_game, *statements)
    verify_fails(*words)
    r = ref("backup", str(tmp_path / "copy.db"))
    assert r.exit_code == 8, r.stdout + r.stderr
    assert "the copy was not kept" in " ".join(r.stderr.split()) and not (tmp_path / "copy.db").exists()


@pytest.mark.skipif(not os.environ.get("RUMMYREF_TEST_PG"), reason="PostgreSQL's triggers and rules")
@pytest.mark.parametrize("statements, words", [
    (["CREATE FUNCTION evil() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
      "CREATE TRIGGER evil BEFORE INSERT ON result FOR EACH ROW EXECUTE FUNCTION evil()"],
     ["trigger evil: on table result: is not part of ref's schema (added outside ref)"]),
    (["DROP TRIGGER entry_append_only_update ON entry",
      "CREATE TRIGGER entry_append_only_update BEFORE UPDATE OF prev_hash ON entry "
      "FOR EACH ROW EXECUTE FUNCTION entry_append_only()"],
     ["trigger entry_append_only_update: is not the one ref creates", "OF prev_hash"]),
    (["CREATE RULE keep AS ON DELETE TO result DO INSTEAD NOTHING"],
     ["rule keep: on table result: is not part of ref's schema (added outside ref)"]),
])
def test_verify_refuses_a_trigger_or_rule_added_on_postgresql(long_game, statements, words):
    change(long_game, *statements)
    verify_fails(*words)


# -- 3. a damaged file --------------------------------------------------------------------------


def _file(record) -> Path:
    if record.on_pg:
        pytest.skip("a SQLite file")
    return record.path


def test_a_damaged_page_is_exit_8_with_the_backup_hint_in_every_command(long_game):
    path = _file(long_game)
    with sqlite3.connect(path) as con:
        page = con.execute("PRAGMA page_size").fetchone()[0]
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'entry'").fetchone()[0]
    before = path.read_bytes()
    with open(path, "r+b") as fh:
        fh.seek(page * (root - 1))
        fh.write(b"\x0d" + b"\xff" * 7)
    for args in (("verify",), ("standings",), ("history",), ("score-hand", "-g", "long", *PTS)):
        r = ref(*[a.format(1) for a in args])
        said = " ".join(r.stderr.split())
        assert r.exit_code == 8, (args, r.stderr)
        assert "the database file is damaged" in said and "restore the record from a backup" in said
    assert path.read_bytes()[page * root:] == before[page * root:]  # nothing written


def test_a_truncated_record_is_said_to_be_damaged_not_foreign(long_game):
    path = _file(long_game)
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    os.truncate(path, 8192)
    for args in (("verify",), ("standings",)):
        r = ref(*args)
        said = " ".join(r.stderr.split())
        assert r.exit_code == 8, r.stderr
        assert "is a ref record, but the file is damaged" in said and "restore the record from a backup" in said


# -- 4. an entry whose facts are not JSON -------------------------------------------------------


def test_reads_name_an_entry_whose_facts_are_not_json(long_game):
    change(long_game, "UPDATE entry SET facts = '{bad' WHERE seq = 3", triggers=True)
    for args in (("history", "-g", "long"), ("stats", "-g", "long"), ("verify",)):
        r = ref(*args)
        assert r.exit_code == 8, (args, r.stdout, r.stderr)
        assert "internal error" not in r.stderr
    said = " ".join(ref("history", "-g", "long").stderr.split())
    assert "long, entry 3: its JSON text does not parse" in said and "run ref verify" in said


# -- 5. verify names what was changed, where it differs ------------------------------------------


def test_a_changed_result_row_is_named_not_the_correct_cache(long_game):
    change(long_game, "UPDATE result SET points = 99 WHERE points = 45")
    said = verify_fails("result row", "(entry 3, hand 1, Bill), column points: is 99, the chain says 45")
    assert "player_total" not in said and "its hash does not match" not in said


def test_a_changed_rule_set_line_is_shown_where_it_differs(long_game):
    change(long_game, "UPDATE game SET ruleset_text = replace(ruleset_text, 'K = 10 }', 'K = 50 }')")
    verify_fails("column ruleset_text: line", "'J = 10, Q = 10, K = 50 }', the chain says", "'J = 10, Q = 10, K = 10 }'")


# -- 6. a killed first import leaves nothing behind ---------------------------------------------


def test_stale_temporary_files_of_a_killed_command_are_removed(tmp_path):
    import chain_record

    src = tmp_path / "src.db"
    chain_record.build(src)
    dump = tmp_path / "x.json"
    assert ref("export", "--db", str(src), "-o", str(dump)).exit_code == 0
    folder = tmp_path / "new"
    folder.mkdir()
    dead = 2**22 + 12345  # beyond pid_max's default: no such process
    stale = [folder / f".r.db.new-{dead}{s}" for s in ("", "-journal", "-wal", "-shm")]
    for f in stale:
        f.write_bytes(b"half")
    mine = folder / f".r.db.new-{os.getpid()}x"  # not of the pattern: left alone
    mine.write_bytes(b"")
    assert ref("import", "--db", str(folder / "r.db"), str(dump)).exit_code == 0
    assert not any(f.exists() for f in stale) and mine.exists()


# -- stop 36: the entries a write reads, hashed again (audit of changes made outside ref) ----


def _refused(before: int, record, *results) -> None:
    for r in results:
        assert r.exit_code == 8, r.stdout + r.stderr
        assert "nothing was written" in " ".join(r.stderr.split())
    assert entries(record) == before


def test_a_dealer_changed_outside_ref_is_exit_8_not_a_wrong_or_refused_deal(long_game):
    """Hand 1 was Bill's deal. Changed to Ben's, the next hand was written as dealt by Bill
    (exit 0), and Ben, whose deal it really is, got "not your deal" (exit 4)."""
    change(long_game, "UPDATE entry SET dealer = 'Ben' WHERE hand = 1", triggers=True)
    before = entries(long_game)
    _refused(before, long_game, hand(5, 2, 3), hand(5, 2, 3, "--dealer", "Ben"), ref("end-session", "-g", "long"))
    assert "entry 3 (hand 1) is not what its hash states" in " ".join(hand(5, 2, 3).stderr.split())


def test_a_night_renumbered_or_forged_outside_ref_is_exit_8(long_game):
    before = entries(long_game)
    change(long_game, "UPDATE session SET number = 7")
    _refused(before, long_game, hand(5, 2, 3), ref("end-session", "-g", "long"), ref("new-session", "-g", "long"))
    change(long_game, "UPDATE session SET number = 1")
    assert hand(5, 2, 3).exit_code == 0 and hand(1, 1, 1).exit_code == 0  # a full round (A4)
    assert ref("end-session", "-g", "long").exit_code == 0
    change(long_game, "INSERT INTO session (game_id, number, opened_at, options) "
                      "SELECT id, 2, '2026-12-04T10:00:00+00:00', '{}' FROM game")
    before = entries(long_game)
    r = hand(5, 2, 3)
    _refused(before, long_game, r)
    assert "its night 2 was opened by no chained entry" in " ".join(r.stderr.split())


SIMPLE = ("--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=KS QD 9D", "--hand", "Cy=5C 6C 8S", "--out", "Ann")


@pytest.fixture
def simple_game(record):
    assert ref("new-session", "-g", "s", "-r", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3").exit_code == 0
    assert ref("score-hand", "-g", "s", *SIMPLE).exit_code == 0
    return record


def test_a_game_won_flag_or_a_sessions_table_changed_outside_ref_is_exit_8(simple_game):
    """Who won a Simple Rummy game decides who plays first next and the match (S17); the
    session's table decides the WILDCARDs and the cards dealt. Both were built on (exit 0)."""
    before = entries(simple_game)
    change(simple_game, "UPDATE result SET won = 1 - won")
    r = ref("score-hand", "-g", "s", *SIMPLE)
    _refused(before, simple_game, r, ref("end-session", "-g", "s"))
    assert "Ann's result row (count, won) is not the one the entry states" in " ".join(r.stderr.split())
    change(simple_game, "UPDATE result SET won = 1 - won")
    change(simple_game, "UPDATE session SET options = replace(options, '\"cards\": 3', '\"cards\": 4')")
    r = ref("score-hand", "-g", "s", *SIMPLE)
    _refused(before, simple_game, r)
    assert "its night 1's own data (its table) is not the one its chained opening states" in " ".join(r.stderr.split())
    change(simple_game, "UPDATE session SET options = replace(options, '\"cards\": 4', '\"cards\": 3')")
    assert ref("score-hand", "-g", "s", *SIMPLE).exit_code == 0 and ref("verify").exit_code == 0


def test_a_gin_hand_won_flag_changed_outside_ref_is_exit_8(record):
    """Gin folds the score and the game's end from who won each hand: a flag cleared outside
    ref wrote a hand that ends the game as not over."""
    assert ref("new-session", "-g", "gin", "-r", "gin", "--players", "Dee,Eve").exit_code == 0
    knock = ("--knock", "Eve", "--hand", "Eve=AS 2S 3S 5H 5D 5C 9C 9D 9H 4D",
             "--hand", "Dee=KS QH JD 10C 8S 7H 6D 4C 3H 2D")
    assert ref("score-hand", "-g", "gin", *knock).exit_code == 0
    change(record, "UPDATE result SET won = 0")
    before = entries(record)
    _refused(before, record, ref("score-hand", "-g", "gin", *knock))


def test_a_refusal_by_name_on_a_roster_changed_outside_ref_is_exit_8(long_game):
    """A real player got "GEDDOWWWT!! Ben is not on the roster" (exit 4) once Ben's row was
    renamed: the refusal now runs the write's check first."""
    change(long_game, "UPDATE player SET name = 'Benjamin' WHERE name = 'Ben'")
    before = entries(long_game)
    r = hand(5, 2, 3)
    _refused(before, long_game, r)
    assert "GEDDOWWWT" not in r.stderr


def test_verify_names_a_deleted_result_row_not_its_intact_entry(long_game):
    change(long_game, "DELETE FROM result WHERE points = 45")
    said = verify_fails("entry 3: its result for Bill has no result row")
    assert "its hash does not match" not in said


def test_a_record_cut_short_is_left_as_it_was_side_files_too(tmp_path):
    """Audit, stop 36: each refusal said "it was left as it was", but the first one made an
    empty -wal and a -shm beside the file."""
    db = tmp_path / "r.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    assert ref("score-hand", "--db", str(db), "--points", "Bill=45", "--points", "Ben=-10",
               "--points", "Larry=20").exit_code == 0
    cut = tmp_path / "cut.db"
    cut.write_bytes(db.read_bytes()[:40000])
    for args in (("verify",), ("standings",), ("backup", str(tmp_path / "b.db")), ("export", "-o", str(tmp_path / "e.json"))):
        r = ref("--db", str(cut), *args)
        assert r.exit_code == 8, r.stdout + r.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.db", "r.db"], args


# -- stop 43: what every reader reads is what the chain vouches for (audit trust43) -------------

CARDS = ("--melded", "Bill=7S 7H 7D", "--held", "Bill=KS 2C", "--melded", "Ben=AH 2H 3H 4H", "--out", "Ben",
         "--held", "Larry=QD JD")
CLAIM = ("dispute", "claim", "-g", "long", "--called", "Bill=Ben", "--touched", "Ben,Bill")
TWICE = "is not the text ref writes for its facts (a key given twice, say)"


def prepend(kind: str, keys: str) -> str:
    """SQL giving the facts of ``kind``'s entries a key (or keys) twice: first, before their own."""
    return f"UPDATE entry SET facts = '{{{keys}, ' || substr(facts, 2) WHERE kind = '{kind}'"


def test_a_facts_text_with_a_key_given_twice_fails_verify_and_the_seal(record):
    """The hash covers the facts as Python parses them (the last of a key given twice wins);
    SQLite's JSON functions, which ``ref stats`` reads with, take the first. With ``out`` and
    ``claims`` given twice, stats showed Bill out and a Rummy! card Larry never claimed, the
    ruling's ``key`` given twice hid the precedent, and verify said intact with the same seal."""
    assert ref("new-session", "-g", "long", "--players", "Bill,Ben,Larry").exit_code == 0
    assert ref("score-hand", "-g", "long", *CARDS).exit_code == 0
    assert ref(*CLAIM).exit_code == 0
    sealed = json.loads(ref("verify", "--json").stdout)["seal"]
    change(record, prepend("hand", '"out": "Bill", "claims": [["Larry", "7S"]]'), prepend("ruling", '"key": "x"'),
           triggers=True)
    said = verify_fails(f"(entry 3, hand 1), column facts: {TWICE}", f"(entry 4), column facts: {TWICE}")
    assert "its hash does not match" not in said  # every hash still checks: the texts alone differ
    r = ref("verify", "--seal", sealed)
    assert r.exit_code == 8 and "column facts" in " ".join(r.stderr.split())
    r = ref(*CLAIM, "--no-record")  # the precedent is found by the key the chain vouches for
    assert r.exit_code == 0 and "precedent: night 1, hand 2" in " ".join(r.stdout.split()), r.stdout + r.stderr


def test_a_gin_knock_given_to_another_player_by_a_key_given_twice_fails_verify(record):
    """Eve knocked; ``"by": "Dee"`` put before the facts moved "went out" to Dee in ``ref stats``."""
    assert ref("new-session", "-g", "gin", "-r", "gin", "--players", "Dee,Eve").exit_code == 0
    assert ref("score-hand", "-g", "gin", "--knock", "Eve", "--hand", "Eve=AS 2S 3S 5H 5D 5C 9C 9D 9H 4D",
               "--hand", "Dee=KS QH JD 10C 8S 7H 6D 4C 3H 2D").exit_code == 0
    change(record, prepend("hand", '"by": "Dee"'), triggers=True)
    said = verify_fails("gin: entry row", f"(entry 3, hand 1), column facts: {TWICE}")
    assert "its hash does not match" not in said


def test_an_export_carrying_a_key_given_twice_is_not_imported(long_game, tmp_path):
    """The doctored facts travelled: exported, edited, imported, and the new record verified."""
    file = tmp_path / "all.json"
    assert ref("export", "-o", str(file)).exit_code == 0
    doc = json.loads(file.read_text())
    entry = doc["tables"]["entry"]
    facts, hand_col = entry["columns"].index("facts"), entry["columns"].index("hand")
    row = next(r for r in entry["rows"] if r[hand_col] == 1)
    row[facts] = '{"points": {"Bill": 99, "Ben": 0, "Larry": 0}, ' + row[facts][1:]  # its own come after
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    fresh = tmp_path / "new.db"
    before = long_game.snapshot()
    for target in (str(fresh), long_game.spec):  # a new record, and one that holds the game already
        r = ref("import", "--db", target, str(bad))
        said = " ".join(r.stderr.split())
        assert r.exit_code == 8 and f"(entry 3, hand 1), column facts: {TWICE}" in said and "nothing was imported" in said
    assert not fresh.exists() and long_game.snapshot() == before


@pytest.mark.sqlite_only("a BLOB in a column of texts or whole numbers: PostgreSQL's typed columns hold none")
@pytest.mark.parametrize("sql, where", [
    ("UPDATE game SET name = CAST(name AS BLOB)", "long, game row 1, column name: holds a BLOB (raw bytes), "
                                                  "where ref writes a text"),
    ("UPDATE result SET points = CAST('45' AS BLOB) WHERE points = 45",
     "long, result row 1, column points: holds a BLOB (raw bytes), where ref writes a whole number"),
    ("UPDATE player SET name = CAST(name AS BLOB) WHERE name = 'Ben'", "long, player row 2 (Ben), column name: "
                                                                       "holds a BLOB"),
    ("UPDATE game SET ruleset_text = CAST(ruleset_text AS BLOB)", "long, game row 1, column ruleset_text: holds a BLOB"),
])
def test_a_value_stored_as_a_blob_is_exit_8_naming_its_column_not_an_internal_error(long_game, tmp_path, sql, where):
    """ref writes texts and whole numbers only. A BLOB was "internal error" (exit 1) in verify,
    backup, the reads and score-hand, or was shown as ``b'long'``."""
    change(long_game, sql)
    before = long_game.path.read_bytes(), entries(long_game)
    for args in (("verify",), ("backup", str(tmp_path / "copy.db")), ("history",), ("stats",),
                 ("score-hand", *PTS)):
        r = ref(*[a.format(1) for a in args])
        said = " ".join((r.stdout + r.stderr).split())
        assert r.exit_code == 8, (args, said)
        assert where in said and "internal error" not in said, (args, said)
        assert ("does not verify" if args[0] == "backup" else "changed outside ref") in said, (args, said)
    assert (long_game.path.read_bytes(), entries(long_game)) == before and not (tmp_path / "copy.db").exists()
    if "game row" in where or "player row" in where:  # the standings read the names
        r = ref("standings")
        assert r.exit_code == 8 and where in " ".join(r.stderr.split())


@pytest.mark.sqlite_only("a value of another kind in a typed column: PostgreSQL refuses it")
def test_verify_names_a_text_or_a_fraction_where_ref_writes_a_whole_number(long_game):
    change(long_game, "UPDATE result SET points = 'lots' WHERE points = 45",
           "UPDATE player_total SET points = 9.5 WHERE player_id = 3")
    verify_fails("long: result row 1, column points: holds a text, where ref writes a whole number",
                 "long: player_total row of player 3, column points: holds a REAL (a number with a fraction), "
                 "where ref writes a whole number")


# -- stop 44: a text or a fraction where ref writes a whole number, read by any command ------------

WHOLE = "where ref writes a whole number"


@pytest.mark.sqlite_only("a value of another kind in a typed column: PostgreSQL refuses it")
@pytest.mark.parametrize("sql, where, commands", [
    # read by name (r.points): history and stats broke on it, "internal error" (audit trust43 #5)
    ("UPDATE result SET points = 'abc' WHERE points = 45", "long, result row 1, column points: holds a text",
     (("history",), ("history", "--json"), ("stats",), ("stats", "--json"), ("score-hand", *PTS))),
    ("UPDATE result SET points = 4.5 WHERE points = 45", "long, result row 1, column points: holds a REAL",
     (("history",), ("stats",))),
    # the cached totals the standings and the chart read
    ("UPDATE player_total SET points = 'lots' WHERE player_id = 1",
     "long, player_total row of player 1, column points: holds a text",
     (("standings",), ("standings", "--json"), ("chart",), ("score-hand", *PTS))),
    # read through an expression (MAX(hands)), where no column name says what it is
    ("UPDATE session_total SET hands = 'x' WHERE player_id = 1", "long, session_total row (1, 1), column hands",
     (("standings",), ("chart",), ("score-hand", *PTS))),
])
def test_a_value_of_another_kind_in_a_whole_number_column_is_exit_8_naming_it(long_game, sql, where, commands):
    change(long_game, sql)
    before = long_game.path.read_bytes(), entries(long_game)
    for args in commands:
        r = ref(*[a.format(1) for a in args])
        said = " ".join((r.stdout + r.stderr).split())
        assert r.exit_code == 8, (args, said)
        assert "internal error" not in said and "nothing was written" in said, (args, said)
        if args[0] == "score-hand":  # the write's own check may see it first (a total that is not the sum)
            assert "the record was changed outside ref: long," in said, said
        else:
            assert f"the record was changed outside ref: {where}" in said and WHOLE in said, (args, said)
    assert (long_game.path.read_bytes(), entries(long_game)) == before


@pytest.mark.no_record
def test_the_whole_number_columns_the_row_factory_checks_are_every_integer_column_of_a_record(tmp_path):
    from rummyref.store.engine import WHOLE_NUMBERS

    path = tmp_path / "fresh.db"
    assert ref("--db", str(path), "new-session", "--players", "A,B").exit_code == 0
    con = sqlite3.connect(path)
    try:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        integer = {c[1] for t in tables for c in con.execute(f'PRAGMA table_info("{t}")') if c[2].upper() == "INTEGER"}
        text_ = {c[1] for t in tables for c in con.execute(f'PRAGMA table_info("{t}")') if c[2].upper() != "INTEGER"}
    finally:
        con.close()
    path.unlink()
    assert WHOLE_NUMBERS == integer and not WHOLE_NUMBERS & text_  # a name means one kind in every table
