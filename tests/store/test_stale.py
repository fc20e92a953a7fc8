"""Stale writes (issue 13): the position a command read includes the open night and, for a
correction, the hand's entry in force. Real ``python -m rummyref`` processes, lined up by the
test-only barrier hook (tests/reliability_hooks) so that both have read before either writes."""

from __future__ import annotations

import os
import time
from pathlib import Path

from cli_helpers import ref, ref_json
from reliability_helpers import hand_args, start


def _lined_up(tmp_path: Path, db: Path, *commands: tuple[str, ...], meanwhile=None) -> list[tuple[int, str]]:
    """Start each command, wait until every one has read the record, run ``meanwhile`` (another
    terminal), then let them write; returns (exit code, stderr) of each, in order."""
    barrier = tmp_path / f"barrier{time.monotonic_ns()}"
    procs = [start(db, *c, RUMMYREF_TEST_BARRIER=str(barrier)) for c in commands]
    deadline = time.monotonic() + 30
    while len([f for f in os.listdir(tmp_path) if f.startswith(barrier.name + ".")]) < len(procs):
        assert time.monotonic() < deadline, "the processes never reached their write"
        time.sleep(0.005)
    if meanwhile is not None:
        meanwhile()
    barrier.touch()
    out = []
    for p in procs:
        err = p.stderr.read()
        p.wait(timeout=60)
        p.stderr.close()
        assert "Traceback" not in err, err
        out.append((p.returncode, err))
    return out


def _night(db: Path) -> None:
    assert ref("new-session", "--db", str(db)).exit_code == 0
    for tag in (1, 2, 3):
        assert ref("score-hand", "--db", str(db), *hand_args(tag)).exit_code == 0


def test_a_hand_typed_while_another_terminal_changes_the_night_is_refused(tmp_path):
    db = tmp_path / "r.db"
    _night(db)

    def next_night():  # terminal B ends night 1 and opens night 2 while A types its hand
        assert ref("end-session", "--db", str(db)).exit_code == 0
        assert ref("new-session", "--db", str(db)).exit_code == 0

    [(code, err)] = _lined_up(tmp_path, db, ("score-hand", *hand_args(4)), meanwhile=next_night)
    assert code == 7, err
    assert "changed the night" in err and "Rummy Night 1" in err and "Rummy Night 2 is open" in err
    assert "nothing was written" in err
    st = ref_json("standings", "--db", str(db))
    assert st["hands"] == 3 and st["open_night"] == 2  # A's hand landed nowhere
    assert ref("verify", "--db", str(db)).exit_code == 0


def test_two_amends_of_one_hand_at_once_the_second_is_stale(tmp_path):
    db = tmp_path / "r.db"
    _night(db)
    amend = ("amend", "2", "--reason", "recount")
    results = _lined_up(tmp_path, db, (*amend, *hand_args(20)), (*amend, *hand_args(30)))
    assert sorted(code for code, _ in results) == [0, 7], results
    loser = next(err for code, err in results if code == 7)
    assert "another terminal corrected hand 2" in loser and "nothing was written" in loser
    history = ref_json("history", "--db", str(db))
    assert [e["kind"] for e in history["entries"]].count("amend") == 1  # the first is not silently corrected
    assert ref("verify", "--db", str(db)).exit_code == 0


def test_an_amend_is_not_stale_because_of_other_hands(tmp_path):
    db = tmp_path / "r.db"
    _night(db)
    results = _lined_up(tmp_path, db, ("amend", "1", "--reason", "recount", *hand_args(10)),
                        ("amend", "2", "--reason", "recount", *hand_args(20)), ("score-hand", *hand_args(4)))
    assert [code for code, _ in results[:2]] == [0, 0], results
    # the new hand is stale if an amend wrote first (it was read with the totals before it)
    code, err = results[2]
    assert code == 0 or (code == 7 and "another terminal amended hand" in err), results
    assert ref("verify", "--db", str(db)).exit_code == 0


def test_a_hand_typed_while_another_terminal_voids_one_is_refused(tmp_path):
    """A void gives the deal back to the voided hand's dealer (SPEC §8): a hand read before it
    would be filed as dealt by the next player."""
    db = tmp_path / "r.db"
    _night(db)

    def void():
        assert ref("void", "3", "--db", str(db), "--reason", "misdeal").exit_code == 0

    [(code, err)] = _lined_up(tmp_path, db, ("score-hand", *hand_args(4)), meanwhile=void)
    assert code == 7, err
    assert "another terminal voided hand 3" in err and "nothing was written" in err
    history = ref_json("history", "--db", str(db))
    assert [e["kind"] for e in history["entries"] if e["kind"] in ("hand", "void")] == ["hand"] * 3 + ["void"]
    assert ref("verify", "--db", str(db)).exit_code == 0
    again = ref("score-hand", "--db", str(db), *hand_args(4))  # run again: hand 3's dealer deals it
    assert again.exit_code == 0, again.output
    assert ref_json("history", "--db", str(db))["entries"][-1]["dealer"] == "Larry"


def test_a_hand_typed_while_another_terminal_amends_one_is_refused(tmp_path):
    """An amend changes the totals the new hand was judged by (the game may be over by now)."""
    db = tmp_path / "r.db"
    _night(db)

    def amend():
        assert ref("amend", "2", "--db", str(db), "--reason", "recount", *hand_args(9)).exit_code == 0

    [(code, err)] = _lined_up(tmp_path, db, ("score-hand", *hand_args(4)), meanwhile=amend)
    assert code == 7, err
    assert "another terminal amended hand 2" in err and "ref standings" in err
    assert ref_json("standings", "--db", str(db))["hands"] == 3
    assert ref("verify", "--db", str(db)).exit_code == 0


def test_two_amends_of_one_simple_rummy_game_at_once(tmp_path):
    db = tmp_path / "r.db"
    d = ("--db", str(db), "--game", "friday")
    assert ref("new-session", *d, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "2").exit_code == 0
    assert ref("score-hand", *d, "--hand", "Ann=AC 3C", "--hand", "Bob=5C 7C", "--hand", "Cy=9C JC").exit_code == 0
    amend = ("amend", "1", "--game", "friday", "--reason", "recount")
    results = _lined_up(tmp_path, db, (*amend, "--hand", "Ann=AC 3C", "--hand", "Bob=5C 7C", "--hand", "Cy=2C JC"),
                        (*amend, "--hand", "Ann=KC 3C", "--hand", "Bob=5C 7C", "--hand", "Cy=9C JC"))
    assert sorted(code for code, _ in results) == [0, 7], results
    assert "another terminal corrected game 1" in next(err for code, err in results if code == 7)
    assert ref("verify", "--db", str(db)).exit_code == 0
