"""A record made by the 0.1 release opens, upgrades without loss and verifies (issue 13).

``tests/fixtures/release_0_1/`` holds a file made by 0.1 (two games: Rummy 2,000,000 with an
opening balance, amends, a void and a ruling, two closed nights; Simple Rummy with an amend and
a void, a session open) and what 0.1 printed for it. Upgraded (migration v3 appends one
``adopt`` entry per game), it shows the same standings, history and rulings -- every field 0.1
had, with the same value -- verifies, and from then on its header is under the chain.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

from rummyref.store.migrations import LATEST

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "release_0_1"
MADE_AT = "2026-11-30T18:45:00+00:00"  #: the clock when 0.1 printed the JSON (days since the last night)
GAMES = {"rummy-2m": "rummy-2m", "Friday Simple": "Friday_Simple"}
#: what 0.2 shows differently on purpose (docs/changelog.md): a Simple Rummy game a player
#: dropped out of (S14) is no longer a game played in standings; it counts in games_dropped
CHANGED = {("Friday Simple", "standings"): [".players[0].games: 2 -> 1"]}
#: stop 48 (docs/reference/json.md): a hand recorded in points says null, not 0, for the
#: cards it never recorded (melded, claimed, held, the WILDCARD penalty)
POINTS_NULL = re.compile(r"^\.entries\[(\d+)\]\.facts\.score\.scores\[\d+\]\.(melded|claimed|held|wild_penalty): 0 -> None$")


def on_purpose(diffs: list[str], got) -> list[str]:
    """The differences left once those of a points hand's unrecorded cards are taken out (each
    checked to be of a hand recorded in points)."""
    left = []
    for d in diffs:
        m = POINTS_NULL.match(d)
        if m and got["entries"][int(m.group(1))]["facts"].get("form") == "points":
            continue
        left.append(d)
    return left


def same_fields(old, new, path="") -> list[str]:
    """Where ``new`` differs from ``old`` in a field ``old`` has (fields only ``new`` has are new)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [d for k in old for d in (same_fields(old[k], new[k], f"{path}.{k}") if k in new else [f"{path}.{k} is gone"])]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [d for i, (a, b) in enumerate(zip(old, new)) for d in same_fields(a, b, f"{path}[{i}]")]
    return [] if old == new else [f"{path}: {old!r} -> {new!r}"]


@pytest.fixture
def old(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RUMMYREF_NOW", MADE_AT)
    db = tmp_path / "release_0_1.db"
    shutil.copy(HERE / "release_0_1.db", db)
    return db


def test_a_0_1_record_upgrades_with_the_same_standings_history_and_rulings(old):
    con = sqlite3.connect(old)
    before = {t: con.execute(f"SELECT * FROM {t} ORDER BY id").fetchall() for t in ("game", "player", "session", "entry", "result")}
    con.close()
    for game, stem in GAMES.items():
        for what in ("standings", "history"):
            want = json.loads((HERE / f"{what}_{stem}.json").read_text())
            got = ref_json(what, "--db", str(old), "--game", game)
            assert on_purpose(same_fields(want, got), got) == CHANGED.get((game, what), []), (game, what)
            if what == "standings" and "games_dropped" in str(got):  # the drops only moved columns
                assert [p["games"] + p["games_dropped"] for p in got["players"]] == [p["games"] for p in want["players"]]
    assert ref_json("rulings", "--db", str(old)) == json.loads((HERE / "rulings.json").read_text())
    con = sqlite3.connect(old)
    after = {t: con.execute(f"SELECT * FROM {t} ORDER BY id").fetchall() for t in before}
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(LATEST)
    kinds = con.execute("SELECT g.name, e.seq, e.kind FROM entry e JOIN game g ON g.id = e.game_id "
                        "WHERE e.id > ? ORDER BY e.id", (len(before["entry"]),)).fetchall()
    con.close()
    assert {t: rows[:len(before[t])] for t, rows in after.items()} == before  # nothing before changed
    assert kinds == [("rummy-2m", 10, "adopt"), ("Friday Simple", 6, "adopt")]  # appended at each chain's end
    check = ref_json("verify", "--db", str(old))
    assert check["ok"] and check["entries"] == len(before["entry"]) + 2 and check["games"] == 2


def test_the_adopted_header_is_under_the_chain_from_the_upgrade_on(old):
    assert ref("verify", "--db", str(old)).exit_code == 0
    con = sqlite3.connect(old)
    con.execute("UPDATE player SET opening = 1999999 WHERE name = 'Bill'")  # Bill's paper total, doctored
    con.commit()
    con.close()
    r = ref("verify", "--db", str(old))
    assert r.exit_code == 8 and "column opening" in r.stdout and "1200" in r.stdout


def test_an_upgraded_record_takes_new_nights_and_verifies(old):
    d = ("--db", str(old), "--game", "rummy-2m")
    assert ref("new-session", *d).exit_code == 0
    h = ref_json("score-hand", *d, "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    assert (h["hand"], h["entry"]) == (7, 12)  # after the adopt entry (10) and the night's opening (11)
    assert ref("verify", "--db", str(old)).exit_code == 0
    history = ref_json("history", *d)
    assert [e["kind"] for e in history["entries"]][-1] == "hand"  # bookkeeping entries are not history lines


def test_a_0_1_cards_hand_is_corrected_from_its_recorded_cards(old):
    """Audit, stop 35: ``amend 1`` of a 0.1 hand given as cards was an internal error in
    ``ref night`` (KeyError), and at a terminal every answer started blank (Enter at each
    question recorded 0 for everybody). The recorded cards are offered back, as for a hand of
    today: Ben's 4C held is fixed to the 5C, the rest kept as 0.1 recorded it."""
    from cli_helpers import ref_subprocess

    typed = "\n".join(["amend 1", "Ben held 5C", "Ben", "", "5C", "", "quit"]) + "\n"
    r = ref_subprocess("--db", str(old), "night", "--game", "rummy-2m", input=typed)
    assert r.returncode == 0 and "internal error" not in r.stderr, r.stderr
    assert "Nothing is changed yet" in " ".join(r.stderr.split())
    amended = ref_json("history", "--db", str(old), "--game", "rummy-2m")["entries"][-1]
    assert (amended["kind"], amended["hand"]) == ("amend", 1)
    assert amended["facts"]["players"]["Ben"]["melded"] == [["KH", "QH", "JH"]]
    assert amended["facts"]["players"]["Ben"]["held"] == ["5C"]
    assert amended["facts"]["players"]["Bill"]["melded"] == [["7S", "7H", "7D"], ["AS", "2S", "3S"]]
    totals = {p["name"]: p["total"] for p in ref_json("standings", "--db", str(old), "--game", "rummy-2m")["players"]}
    assert totals == {"Bill": 1244, "Ben": 93, "Larry": -8}  # Ben 36 -> 35, nobody else moved
    assert ref("verify", "--db", str(old)).exit_code == 0


def test_0_1_games_that_later_rules_refuse_are_history_and_the_record_verifies(tmp_path):
    """Audit, stop 35: a genuine 0.1 Simple Rummy record with a hand of the wrong size and a
    game every player dropped out of (both accepted by 0.1) failed ``verify`` as "changed
    outside ref" (exit 8), and ``backup`` would not keep a copy: its games were judged again
    under rules added since. The hands before the entry that adopted the record are history."""
    db = tmp_path / "s.db"
    shutil.copy(HERE / "simple_beyond_later_rules.db", db)
    assert ref("verify", "--db", str(db)).exit_code == 0
    assert ref("backup", "--db", str(db), str(tmp_path / "copy.db")).exit_code == 0
    st = ref_json("standings", "--db", str(db))
    assert {p["name"]: p["game_wins"] for p in st["players"]} == {"Ann": 1, "Bob": 0, "Cy": 0}
    # a game recorded now is judged by today's rules, and verify judges it again
    assert ref("score-hand", "--db", str(db), "--hand", "Ann=AS 2S 3S 4H 5H 6H 7H 9C", "--hand",
               "Bob=KC QC 2D 4D 7C 8H 10S", "--hand", "Cy=3C 5C 6C JD QD KD 2H", "--out", "Ann").exit_code == 0
    assert ref("verify", "--db", str(db)).exit_code == 0


def test_a_0_1_game_that_went_on_after_a_tie_past_the_target_can_be_corrected(tmp_path):
    """Audit, stop 35: 0.1 let the game go on after an exact tie past the target; today's A7
    (SPEC §8) would have ended it at hand 2. The game takes new hands, yet every amend and
    void was refused ("would end the game at the end of hand 2"), each void asking for the
    other first. The hands 0.1 wrote keep 0.1's rule for the end of the game."""
    db = tmp_path / "t.db"
    shutil.copy(HERE / "tie_past_target.db", db)
    d = ("--db", str(db))
    assert ref("verify", *d).exit_code == 0
    assert ref_json("standings", *d)["over"] is False
    assert ref("score-hand", *d, "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1").exit_code == 0
    for args in (("amend", "4", "--reason", "Bill had 2", "--points", "Bill=2", "--points", "Ben=1", "--points",
                  "Larry=1"),
                 ("amend", "3", "--reason", "same again", "--points", "Bill=5", "--points", "Ben=0", "--points",
                  "Larry=0"),
                 ("void", "4", "--reason", "entered twice")):
        r = ref(*args, *d)
        assert r.exit_code == 0, (args, r.stderr)
    st = ref_json("standings", *d)
    assert st["over"] is False and st["hands"] == 3
    assert {p["name"]: p["total"] for p in st["players"]} == {"Bill": 1_999_985, "Ben": 1_999_970, "Larry": 0}
    # an amend of a 0.1 hand that makes a sole leader past the mark there ends the game there,
    # by 0.1's rule as by today's: the later hands must go first
    r = ref("amend", "1", "--reason", "Ben had 19", "--points", "Bill=20", "--points", "Ben=19", "--points", "Larry=0",
            *d)
    assert r.exit_code == 4 and "would end the game at the end of hand 1" in " ".join(r.stderr.split())
    assert ref("verify", *d).exit_code == 0
