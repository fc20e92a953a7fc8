"""Ctrl-C is reported truly (audit trust43 #2): a real ``python -m rummyref`` gets a real SIGINT
at a chosen moment of its write, through the test-only hook ``RUMMYREF_TEST_SIGINT``
(tests/reliability_hooks): ``begin:N`` as the N-th write transaction starts, ``commit:N`` the
moment its COMMIT has returned, ``exit`` as Python exits.

Before the COMMIT nothing of the write is kept: "interrupted: nothing was written", exit 130.
After it the write stands, and the message says what was recorded and where to see it (it
once said "nothing was written" there too, and the hand typed again counted twice); still
exit 130. Each case checks the record afterwards: the hand is in it exactly once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import as_at_a_terminal, ref, ref_json
from reliability_helpers import env

INTERRUPTED = 130
POINTS = ("--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")


def run(db: str | Path, *args: str, sigint: str, stdin: str = "") -> subprocess.CompletedProcess:
    """``python -m rummyref ARGS`` with a Ctrl-C at ``sigint`` (``begin:N`` / ``commit:N``)."""
    extra = {"RUMMYREF_TEST_SIGINT": sigint, "RUMMYREF_NOW": "2026-11-12T19:30", "COLUMNS": "100"}
    # as at a terminal: a run started in the background of a shell would have its children ignore SIGINT
    return subprocess.run([sys.executable, "-m", "rummyref", *args], input=stdin, capture_output=True, text=True,
                          env=env(db, **extra), timeout=60, preexec_fn=as_at_a_terminal)


def flat(text: str) -> str:
    return " ".join(text.split())


def hands(db: str | Path) -> list[tuple[str, int]]:
    """The record's hand entries (kind, hand number), in log order."""
    return [(e["kind"], e["hand"]) for e in ref_json("history", "--db", str(db))["entries"]
            if e["kind"] in ("hand", "amend", "void")]


def verifies(db: str | Path) -> None:
    r = ref("verify", "--db", str(db))
    assert r.exit_code == 0, r.stdout + r.stderr


@pytest.fixture
def game(record):
    """A game long of Bill, Ben and Larry with its first night open."""
    assert ref("new-session", "--game", "long", "--players", "Bill,Ben,Larry").exit_code == 0
    return record.spec


def test_ctrl_c_just_after_the_commit_says_the_hand_was_recorded(game):
    r = run(game, "score-hand", *POINTS, sigint="commit:1")
    assert r.returncode == INTERRUPTED, r.stderr
    assert "nothing was written" not in r.stderr
    assert "interrupted: hand 1 of long was recorded (entry 3)" in r.stderr
    assert "ref history --game long shows it; do not enter it again (it would count twice)" in r.stderr
    assert hands(game) == [("hand", 1)]  # in the record, once
    verifies(game)


def test_ctrl_c_once_the_command_has_ended_changes_nothing(game):
    r = run(game, "score-hand", *POINTS, sigint="exit")
    assert r.returncode == 0, r.stderr
    assert "Hand 1 of long" in r.stdout and r.stderr == ""  # no traceback, no word of an interrupt
    assert hands(game) == [("hand", 1)]


def test_ctrl_c_as_the_write_begins_writes_nothing_and_says_so(game):
    r = run(game, "score-hand", *POINTS, sigint="begin:1")
    assert r.returncode == INTERRUPTED, r.stderr
    assert "interrupted: nothing was written" in r.stderr and "recorded" not in r.stderr
    assert hands(game) == []
    verifies(game)


@pytest.mark.parametrize("command, said", [
    (["void", "1", "--reason", "dealt twice"], "interrupted: hand 1 of long was voided (entry 4)"),
    (["amend", "1", "--reason", "Ben counted short", *POINTS[:2], "--points", "Ben=5", *POINTS[4:]],
     "interrupted: hand 1 of long was amended (entry 4)"),
])
def test_ctrl_c_after_a_correction_committed_names_it(game, command, said):
    assert ref("score-hand", *POINTS).exit_code == 0
    r = run(game, *command, sigint="commit:1")
    assert r.returncode == INTERRUPTED, r.stderr
    assert said in r.stderr and "ref history --game long shows it" in r.stderr
    assert hands(game) == [("hand", 1), (command[0], 1)]


def a_round() -> None:
    """Bill, Ben and Larry each deal once: the night may end (A4)."""
    for tag in (1, 4, 7):
        assert ref("score-hand", "--points", f"Bill={tag}", "--points", f"Ben={tag + 1}",
                   "--points", f"Larry={tag + 2}").exit_code == 0


def test_ctrl_c_after_end_session_committed_says_the_night_was_closed(game):
    a_round()
    r = run(game, "end-session", sigint="commit:1")
    assert r.returncode == INTERRUPTED, r.stderr
    assert "interrupted: Rummy Night 1 of long was closed (entry 6)" in r.stderr
    assert "ref verify shows the record's seal" in r.stderr
    assert ref_json("standings", "--db", game)["open_night"] is None


def test_ctrl_c_after_a_ruling_was_kept_says_so(game):
    r = run(game, "dispute", "claim", "--called", "Bill=Ben", "--touched", "Ben,Bill", sigint="commit:1")
    assert r.returncode == INTERRUPTED, r.stderr
    assert "interrupted: the ruling was kept as a precedent of long (entry 3)" in r.stderr
    assert "ref rulings --game long shows it" in r.stderr
    assert len(ref_json("rulings", "--db", game)["rulings"]) == 1


@pytest.mark.sqlite_only("a record file made by the command itself")
def test_ctrl_c_after_the_first_write_of_a_new_record_waits_until_its_file_is_in_place(tmp_path):
    db = tmp_path / "new" / "r.db"
    r = run(db, "new-session", "--game", "long", "--players", "Bill,Ben,Larry", sigint="commit:1")
    assert r.returncode == INTERRUPTED, r.stderr
    assert "interrupted: game long was started and its Rummy Night 1 opened (entry 2)" in r.stderr
    assert "ref standings --game long shows it" in r.stderr
    assert sorted(p.name for p in db.parent.iterdir()) == ["r.db"]  # put in place, no temporary file left
    assert ref_json("standings", "--db", str(db))["open_night"] == 1
    verifies(db)


@pytest.mark.sqlite_only("a record file made by the command itself")
def test_ctrl_c_after_an_import_committed_says_what_was_imported(game, tmp_path):
    assert ref("score-hand", *POINTS).exit_code == 0
    export, target = tmp_path / "long.json", tmp_path / "copy.db"
    assert ref("export", "-o", str(export)).exit_code == 0
    r = run(target, "import", str(export), sigint="commit:1")
    assert r.returncode == INTERRUPTED, r.stderr
    assert "interrupted: game long was imported" in r.stderr
    assert "importing the file again is refused" in r.stderr
    assert hands(target) == [("hand", 1)]
    assert ref("import", "--db", str(target), str(export)).exit_code == 7  # as the message says


# -- ref night: its shell writes hands too -----------------------------------------------------

HAND = "points\n1\n2\n3\n\n"  #: a hand by points, recorded at "Record it?"


def test_night_ctrl_c_just_after_a_hand_committed_says_it_was_recorded_and_goes_on(game):
    r = run(game, "night", sigint="commit:1", stdin=HAND + "history\nquit\n")
    said = flat(r.stdout + r.stderr)
    assert r.returncode == 0, said
    assert ("Interrupted: hand 1 of long was recorded (entry 3); history shows it; do not enter it again "
            "(it would count twice). The night goes on.") in said
    assert "discarded" not in said and "nothing was written" not in said
    assert "Next: hand 2 of Rummy Night 1" in said  # the night went on from the recorded hand
    assert hands(game) == [("hand", 1)]


def test_night_ctrl_c_as_a_hand_is_written_discards_it(game):
    r = run(game, "night", sigint="begin:1", stdin=HAND + "quit\n")
    said = flat(r.stdout + r.stderr)
    assert "Interrupted: this hand is discarded, nothing was written. The night goes on." in said
    assert hands(game) == []


def test_night_ctrl_c_after_a_void_committed_says_it_was_voided(game):
    assert ref("score-hand", *POINTS).exit_code == 0
    r = run(game, "night", sigint="commit:1", stdin="void 1\ndealt twice\n\nquit\n")
    said = flat(r.stdout + r.stderr)
    assert "Interrupted: hand 1 of long was voided (entry 4); history shows it. The night goes on." in said
    assert hands(game) == [("hand", 1), ("void", 1)]


def test_night_ctrl_c_after_end_committed_says_the_night_was_closed(game):
    a_round()
    r = run(game, "night", sigint="commit:1", stdin="end\n")
    said = flat(r.stdout + r.stderr)
    assert r.returncode == INTERRUPTED, said
    assert "Interrupted: Rummy Night 1 of long was closed (entry 6); ref standings --game long shows it" in said
    assert "still open" not in said and "nothing was written" not in said
    assert ref_json("standings", "--db", game)["open_night"] is None


@pytest.mark.sqlite_only("a record file made by the command itself")
def test_night_ctrl_c_after_it_started_a_new_record_says_so(tmp_path):
    db = tmp_path / "r.db"
    r = run(db, "night", "--game", "long", "--players", "Bill,Ben,Larry", sigint="commit:1")
    assert r.returncode == INTERRUPTED, r.stderr
    assert "interrupted: game long was started and its Rummy Night 1 opened (entry 2)" in r.stderr
    assert ref_json("standings", "--db", str(db))["open_night"] == 1


# -- a record an older ref made: each schema step stands on its own (noticed, stop 44 #7) --------

SCHEMA_V1 = Path(__file__).resolve().parents[1] / "fixtures" / "schema_v1.db"


def schema_version(db: Path) -> int:
    """Read straight from the file: any ref command would finish the upgrade first."""
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])
    finally:
        con.close()


@pytest.mark.sqlite_only("a schema 1 record file")
@pytest.mark.parametrize("command", [("upgrade",), ("score-hand", "--game", "rummy-2m", *POINTS)])
def test_ctrl_c_after_a_schema_step_says_the_record_was_upgraded_that_far(tmp_path, command):
    import shutil

    db = tmp_path / "old.db"
    shutil.copy(SCHEMA_V1, db)
    before = len(ref_json("history", "--db", str(shutil.copy(SCHEMA_V1, tmp_path / "twin.db")))["entries"])
    r = run(db, *command, sigint="step:1")  # schema 1 -> 2 committed; 2 -> 3 not begun
    assert r.returncode == INTERRUPTED, r.stderr
    assert "nothing was written" not in r.stderr
    assert ("interrupted: the record was upgraded to schema version 2 of 4; nothing else was written\n"
            "ref upgrade finishes the upgrade (each step stands on its own)") in r.stderr
    assert schema_version(db) == 2
    assert len(ref_json("history", "--db", str(db))["entries"]) == before  # no hand: its write never ran
    verifies(db)


@pytest.mark.sqlite_only("a schema 1 record file")
def test_ctrl_c_after_the_last_schema_step_says_the_record_is_upgraded(tmp_path):
    import shutil

    db = tmp_path / "old.db"
    shutil.copy(SCHEMA_V1, db)
    r = run(db, "upgrade", sigint="step:3")
    assert r.returncode == INTERRUPTED, r.stderr
    assert ("interrupted: the record was upgraded to schema version 4; nothing else was written\n"
            "ref verify checks it") in r.stderr
    assert schema_version(db) == 4
    verifies(db)
