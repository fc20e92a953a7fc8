"""Two terminals at once (issue 6.2): real ``python -m rummyref score-hand`` processes recording
into the same game at the same moment.

Lined up (the test-only barrier hook holds each process just before its BEGIN IMMEDIATE until
both have read the game), exactly one wins; the other is refused with exit 7, a message that
says another terminal recorded that hand and nothing was written, and its retry succeeds.
Left to the scheduler (three at once, no barrier), each one either records or is refused
the same way. Either way: no hand lost, none recorded twice, no hand number used twice.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json, ref_subprocess
from reliability_helpers import check_record, hand_args, start

pytestmark = pytest.mark.sqlite_only("races writers on the SQLite file its --db names (PostgreSQL: test_postgres.py)")

LINED_UP = 6
FREE = 3


def _finish(p) -> tuple[int, str]:
    err = p.stderr.read()
    p.wait(timeout=60)
    p.stderr.close()
    return p.returncode, err


def _no_crash(err: str) -> None:
    assert "Traceback" not in err and "locked" not in err and "internal error" not in err, err


def test_two_terminals_lined_up_one_wins_the_other_is_told_and_retries(tmp_path):
    db = tmp_path / "race.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    tag, wanted = 0, []
    for round_ in range(LINED_UP):
        barrier = tmp_path / f"barrier{round_}"
        procs = []
        for _ in range(2):
            tag += 1
            wanted.append(tag)
            procs.append((tag, start(db, "score-hand", *hand_args(tag), RUMMYREF_TEST_BARRIER=str(barrier))))
        deadline = time.monotonic() + 30
        while len([f for f in os.listdir(tmp_path) if f.startswith(barrier.name + ".")]) < 2:
            assert time.monotonic() < deadline, "the processes never reached their write"
            time.sleep(0.005)
        barrier.touch()  # both have read "next hand = N": let them write at once
        results = [(t, *_finish(p)) for t, p in procs]
        codes = sorted(code for _, code, _ in results)
        assert codes == [0, 7], results
        for t, code, err in results:
            _no_crash(err)
            if code == 7:
                assert "another terminal recorded hand" in err and "nothing was written" in err, err
                assert "run the command again" in err
                retry = ref_json("score-hand", "--db", str(db), *hand_args(t))  # the retry succeeds
                assert retry["hand"] == len(check_record(db))
    tags = check_record(db)
    assert sorted(tags) == wanted  # every hand once: none lost, none twice


def test_three_terminals_at_the_same_moment(tmp_path):
    db = tmp_path / "free.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    tag, wanted, refused = 0, [], 0
    for _ in range(FREE):
        procs = []
        for _ in range(3):
            tag += 1
            wanted.append(tag)
            procs.append((tag, start(db, "score-hand", *hand_args(tag))))
        finished = [(t, *_finish(p)) for t, p in procs]  # all three done before any retry
        for t, code, err in finished:
            _no_crash(err)
            assert code in (0, 7), err
            if code == 7:
                refused += 1
                assert "nothing was written" in err
                assert ref("score-hand", "--db", str(db), *hand_args(t)).exit_code == 0
    assert sorted(check_record(db)) == wanted
    print(f"\nrace: {FREE * 3} free-running writers, {refused} refused and retried")


def test_two_terminals_opening_the_first_night_of_a_new_record(tmp_path):
    """Both create the database, migrate it and open a night at once: one night, no traceback."""
    for i in range(6):  # a fresh file each time: the WAL switch once raced here (about 1 in 10)
        db = tmp_path / f"new{i}.db"
        procs = [start(db, "new-session") for _ in range(2)]
        results = [_finish(p) for p in procs]
        for _code, err in results:
            _no_crash(err)
        assert sorted(c for c, _ in results) == [0, 4], results  # the second: the night is already open
        assert ref_json("standings", "--db", str(db))["open_night"] == 1  # a night with no hand is no Rummy Night (SPEC §8)
        assert ref("verify", "--db", str(db)).exit_code == 0


def test_a_stale_read_is_refused_in_process(tmp_path, monkeypatch):
    """The same race without processes: the hand is entered while another terminal records."""
    import rummyref.play as play

    db = tmp_path / "stale.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    real = play.prepare

    def slow_typist(*args, **kwargs):
        facts = real(*args, **kwargs)
        other = ref_subprocess("score-hand", "--db", str(db), *hand_args(1))  # the other terminal, meanwhile
        assert other.returncode == 0, other.stderr
        return facts

    monkeypatch.setattr(play, "prepare", slow_typist)
    before = Path(db).read_bytes()
    r = ref("score-hand", "--db", str(db), *hand_args(2))
    assert r.exit_code == 7
    assert "another terminal recorded hand 1 of rummy-2m (Rummy Night 1, dealt by Bill" in r.stderr
    assert "it will be hand 2" in r.stderr
    monkeypatch.setattr(play, "prepare", real)
    assert Path(db).read_bytes() != before  # (only the other terminal's hand)
    assert check_record(db) == [1]


def test_a_stale_simple_rummy_game_is_refused_in_process(tmp_path, monkeypatch):
    """Simple Rummy's score-hand carries the same optimistic check as rummy-2m's."""
    import rummyref.play as play

    db = str(tmp_path / "simple.db")
    opened = ref("new-session", "--db", db, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3")
    assert opened.exit_code == 0, opened.stderr
    game = ["--hand", "Ann=2H 3H 4H 9S", "--hand", "Bob=KS QD JC", "--hand", "Cy=9C 5D 7H"]
    real = play.prepare

    def slow_typist(*args, **kwargs):
        answers = real(*args, **kwargs)
        other = ref_subprocess("score-hand", "--db", db, *game, "--out", "Ann")  # another terminal
        assert other.returncode == 0, other.stderr
        return answers

    monkeypatch.setattr(play, "prepare", slow_typist)
    r = ref("score-hand", "--db", db, *game, "--out", "Ann")
    assert r.exit_code == 7, r.stderr
    assert "another terminal recorded game 1 of" in r.stderr and "nothing was written" in r.stderr
    assert "it will be game 2" in r.stderr
    monkeypatch.setattr(play, "prepare", real)
    history = ref_json("history", "--db", db)
    assert len([e for e in history["entries"] if e.get("kind") == "hand"]) == 1


def test_the_night_shell_refuses_a_stale_hand(tmp_path):
    """ref night shows the next hand's number; if another terminal records meanwhile, the write
    is refused (exit-7 error) instead of recording the same hand twice."""
    from rummyref import play
    from rummyref.cli.night_shell import where
    from rummyref.errors import WriteConflict

    db = str(tmp_path / "night.db")
    assert ref("new-session", "--db", db).exit_code == 0
    ctx = where(db, "rummy-2m")
    assert ctx is not None and ctx.position.next_hand == 1
    form = ctx.kind.form(ctx, None, "points")
    for name, pts in zip(ctx.game.roster, (2, -2, 4)):  # the shape hand_args(2) would give
        form.values[("points", name)] = pts
    other = ref_subprocess("score-hand", "--db", db, *hand_args(1))  # another terminal, meanwhile
    assert other.returncode == 0, other.stderr
    try:
        play.append(db, ctx, ctx.kind.adjudicate(ctx, form.facts()))
    except WriteConflict as exc:
        assert "another terminal recorded hand 1 of rummy-2m" in str(exc)
    else:
        raise AssertionError("the stale hand was written")
    assert check_record(db) == [1]
    fresh = where(db, "rummy-2m")
    play.append(db, fresh, fresh.kind.adjudicate(fresh, form.facts()))  # the retry succeeds
    assert check_record(db) == [1, 2]
