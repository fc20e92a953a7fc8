"""Audit docs46, "the manual as written": ``--record`` with nowhere to keep the ruling, ``ref
count`` given a stated split, and the ruling miss log's clock."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json


@pytest.fixture(autouse=True)
def record(tmp_path, monkeypatch):
    db = tmp_path / "ref.db"
    monkeypatch.setenv("RUMMYREF_DB", str(db))
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "0")
    monkeypatch.setenv("RUMMYREF_NO_RULING_LOG", "1")
    return db


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r


def digest(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


# -- #4: --record with no session open is refused, as at a finished game ------------------------


@pytest.fixture
def closed(record):
    ok("new-session")
    for _ in range(3):
        ok("score-hand", "--points", "Bill=1", "--points", "Ben=0", "--points", "Larry=0")
    ok("end-session")
    return record


@pytest.mark.parametrize("dispute", [("claim", "--called", "Bill", "--touched", "Bill"), ("end-night", "--hands", "3"),
                                     ("pickup", "7S", "--hand", "7H 7D"), ("claim", "--called", "Bill",
                                                                            "--touched", "Bill", "--json")])
def test_record_with_no_session_open_is_refused_and_nothing_written(closed, dispute):
    before = digest(closed)
    r = ref("dispute", *dispute, "--record")
    assert (r.exit_code, r.stdout) == (4, "")
    assert r.stderr == ("refused: --record: no session is open in any game to keep the ruling in\n"
                        "leave --record out: the dispute is answered and not kept; ref new-session opens a session\n")
    assert digest(closed) == before and ref_json("rulings")["rulings"] == []
    named = ref("dispute", *dispute, "--record", "--game", "rummy-2m")
    assert named.exit_code == 4 and "no Rummy Night of rummy-2m is open to keep the ruling in" in named.stderr
    without = ok("dispute", *dispute)  # without --record: answered, and said not kept, as before
    assert without.stdout and "no session is open in any game" in without.stderr


def test_record_with_no_record_at_all_is_refused_and_nothing_created(record):
    r = ref("dispute", "claim", "--called", "Bill", "--touched", "Bill", "--record")
    assert (r.exit_code, r.stdout) == (5, "")
    said = " ".join(r.stderr.split())
    assert said.startswith(f"error: --record: there is no record at {record} to keep the ruling in")
    assert not record.exists()
    assert ok("dispute", "claim", "--called", "Bill", "--touched", "Bill").stdout.startswith("Bill wins")
    assert not record.exists()


def test_record_with_a_session_open_still_keeps_it(record):
    ok("new-session")
    r = ok("dispute", "end-night", "--record")
    assert r.stderr.startswith("Recorded as a precedent of rummy-2m")
    assert len(ref_json("rulings")["rulings"]) == 1
