"""The seal (issue 13): a short code for the heads of every chain of the record, printed by
``end-session`` and ``verify``; ``verify --seal CODE`` fails when the record no longer contains
that state: the last hands deleted, an older copy put in its place, or the history rebuilt with
fresh hashes -- the changes no unkeyed chain can see by itself."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import chain_record
import pytest
from cli_helpers import ref, ref_json
from hypothesis import given
from hypothesis import strategies as st

from rummyref.chain import ALPHABET, GENESIS, entry_hash, read_seal, seal
from rummyref.errors import UnreadableInput
from rummyref.store.migrations import V2, rebuild_aggregates

heads = st.dictionaries(st.text(min_size=1, max_size=12), st.tuples(st.integers(1, 10**6), st.text("0123456789abcdef", min_size=64, max_size=64)), max_size=5)


@given(heads)
def test_a_seal_is_ten_readable_characters_and_reads_back_however_typed(h):
    code = seal(h)
    assert len(code) == 12 and code[4] == code[9] == "-"
    assert set(code.replace("-", "")) <= set(ALPHABET)
    assert read_seal(code) == code
    assert read_seal(code.lower().replace("-", " ")) == code
    assert read_seal(code.replace("0", "o").replace("1", "l")) == code  # read aloud, written by hand


def test_a_seal_depends_on_every_head():
    h = {"long": (5, "a" * 64), "friday": (9, "b" * 64)}
    assert seal(h) == seal(dict(reversed(h.items())))  # not on the order of the games
    assert seal(h) != seal({**h, "long": (5, "c" * 64)}) != seal({**h, "long": (4, "a" * 64)})
    assert seal(h) != seal({"long": (5, "a" * 64)})


@pytest.mark.parametrize("typed, words", [("7K2M-QX4P-9", "9 characters"), ("7K2M-QX4P-9U", "'U'"),
                                          ("", "0 characters"), ("7K2M_QX4P_9D", "'_'")])
def test_an_unreadable_seal_is_refused_naming_the_problem(typed, words):
    with pytest.raises(UnreadableInput, match=words):
        read_seal(typed)


@pytest.fixture
def built(tmp_path) -> Path:
    db = tmp_path / "r.db"
    chain_record.build(db)
    return db


def _seal(db: Path) -> str:
    return ref_json("verify", "--db", str(db))["seal"]


def test_end_session_prints_the_seal_verify_prints(built):
    d = ("--db", str(built))
    while (r := ref("end-session", *d, "--game", "long", "--json")).exit_code == 4:  # A4: full rounds
        chain_record.points(built, "long", 1, 1, 1, "score-hand")
    assert r.exit_code == 0 and json.loads(r.stdout)["seal"] == _seal(built)
    ref("new-session", *d, "--game", "long")
    text = ref("end-session", *d, "--game", "friday").stdout
    line = next(x for x in text.splitlines() if x.startswith("Seal: "))
    assert line.startswith(f"Seal: {_seal(built)} (keep it off this machine") and len(line) <= 80
    shown = ref("verify", *d).stdout
    assert f"Seal: {_seal(built)}" in shown


def test_a_later_record_still_contains_an_earlier_seal(built):
    early = _seal(built)
    chain_record.points(built, "long", 1, 2, 3, "score-hand")
    assert _seal(built) != early
    r = ref("verify", "--db", str(built), "--seal", early.lower())
    assert r.exit_code == 0 and f"contains the state sealed {early}" in r.stdout
    assert ref_json("verify", "--db", str(built), "--seal", early)["sealed"] == {"seal": early, "contained": True}


def test_an_unreadable_seal_reads_nothing(tmp_path):
    r = ref("verify", "--db", str(tmp_path / "none.db"), "--seal", "hello")
    assert r.exit_code == 3 and "--seal 'hello'" in r.stderr and not (tmp_path / "none.db").exists()


def _raw(db: Path):
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER entry_append_only_update")
    con.execute("DROP TRIGGER entry_append_only_delete")
    return con


def _finish(db: Path) -> None:
    """As a careful attacker leaves it: caches rebuilt from the log, triggers back."""
    from sqlalchemy import create_engine

    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        rebuild_aggregates(conn)
        for trig in (s for s in V2 if s.startswith("CREATE TRIGGER")):
            conn.exec_driver_sql(trig)
    engine.dispose()


def test_deleting_the_last_hands_is_caught_by_the_seal_alone(built):
    chain_record.points(built, "long", 4, 5, 6, "score-hand")
    sealed = _seal(built)
    chain_record.points(built, "long", 7, 8, 9, "score-hand")
    con = _raw(built)
    gid = con.execute("SELECT id FROM game WHERE name = 'long'").fetchone()[0]
    last = con.execute("SELECT MAX(seq) FROM entry WHERE game_id = ?", (gid,)).fetchone()[0]
    for seq in (last, last - 1):  # the last two hands, as if never played
        eid = con.execute("SELECT id FROM entry WHERE game_id = ? AND seq = ?", (gid, seq)).fetchone()[0]
        con.execute("DELETE FROM result WHERE entry_id = ?", (eid,))
        con.execute("DELETE FROM entry WHERE id = ?", (eid,))
    con.commit()
    con.close()
    _finish(built)
    assert ref("verify", "--db", str(built)).exit_code == 0  # a consistent, shorter chain
    r = ref("verify", "--db", str(built), "--seal", sealed)
    assert r.exit_code == 8 and "rolled back" in r.stderr


def test_a_history_rebuilt_with_fresh_hashes_is_caught_by_the_seal_alone(built):
    sealed = _seal(built)
    con = _raw(built)
    gid = con.execute("SELECT id FROM game WHERE name = 'long'").fetchone()[0]
    nights = dict(con.execute("SELECT id, number FROM session WHERE game_id = ?", (gid,)).fetchall())
    # hand 3: Larry's points doubled, and every hash from there on recomputed, as the code does
    from rummyref.store.record import entry_payload

    class Row:
        def __init__(self, **kw):
            self.__dict__.update(kw)

    cols = [c[1] for c in con.execute("PRAGMA table_info(entry)")]
    prev = GENESIS
    for values in con.execute("SELECT * FROM entry WHERE game_id = ? ORDER BY seq", (gid,)).fetchall():
        row = Row(**dict(zip(cols, values)))
        if row.hand == 3 and row.kind == "hand":  # facts and result alike, so the hand judges again the same
            facts = json.loads(row.facts)
            facts["points"]["Larry"] *= 2
            row.facts = json.dumps(facts, sort_keys=True, ensure_ascii=False)
            con.execute("UPDATE entry SET facts = ? WHERE id = ?", (row.facts, row.id))
            con.execute("UPDATE result SET points = points * 2 WHERE entry_id = ? AND player_id = "
                        "(SELECT id FROM player WHERE name = 'Larry' AND game_id = ?)", (row.id, gid))
        results = dict(con.execute("SELECT p.name, r.points FROM result r JOIN player p ON p.id = r.player_id "
                                   "WHERE r.entry_id = ?", (row.id,)).fetchall())
        h = entry_hash(entry_payload("long", nights.get(row.session_id), row, results), prev)
        con.execute("UPDATE entry SET prev_hash = ?, hash = ? WHERE id = ?", (prev, h, row.id))
        prev = h
    con.commit()
    con.close()
    _finish(built)
    con = sqlite3.connect(built)
    con.execute("UPDATE game_total SET head_hash = ? WHERE game_id = ?", (prev, gid))
    con.commit()
    con.close()
    assert ref("verify", "--db", str(built)).exit_code == 0  # an unkeyed chain, rebuilt: it cannot tell
    r = ref("verify", "--db", str(built), "--seal", sealed)
    assert r.exit_code == 8 and "rebuilt" in r.stderr
    assert json.loads(ref("verify", "--db", str(built), "--seal", sealed, "--json").stdout)["sealed"]["contained"] is False
