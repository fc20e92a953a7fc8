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


# -- #5: ref count given a stated split says it was not used; the miss log's clock ---------------


@pytest.mark.parametrize("typed, mark", [(("10H JH / QH KH",), "/"), (("10H", "JH", "|", "QH", "KH"), "|")])
def test_count_says_the_split_typed_was_not_used(typed, mark):
    r = ok("count", *typed)
    assert r.stdout == ok("count", "10H", "JH", "QH", "KH").stdout  # the same count: the split is not a melding
    assert " ".join(r.stderr.split()) == (f"ref count arranges the hand itself: the {mark!r} between cards was not "
                                          "used; the best melding is shown")
    as_json = ref("count", *typed, "--json")
    assert as_json.exit_code == 0 and json.loads(as_json.stdout)["melds"] == [["10H", "JH", "QH", "KH"]]
    assert "was not used" in as_json.stderr
    assert ok("count", "10H", "JH", "QH", "KH").stderr == ""


def test_count_jsonl_says_it_once_naming_the_first_line():
    r = ref("count", "--jsonl", input="2H 3H 4H\nAS / AD\n7S | 7H 7D\n")
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 3
    assert " ".join(r.stderr.split()) == ("ref count arranges the hand itself: the '/' between cards was not used "
                                          "(first on line 2); the best melding is shown")


def test_the_ruling_miss_log_is_stamped_by_refs_clock(tmp_path, monkeypatch):
    log = tmp_path / "misses.log"
    monkeypatch.delenv("RUMMYREF_NO_RULING_LOG")
    monkeypatch.setenv("RUMMYREF_RULING_LOG", str(log))
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")
    ref("ruling", "zzqx frobnicate the wombat")
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T20:30+01:00")  # an offset: the log is in UTC
    ref("ruling", "zzqx frobnicate the wombat")
    stamps = [entry.split("\t")[0] for entry in log.read_text(encoding="utf-8").splitlines()]
    assert stamps == ["2026-11-12T19:30:00Z", "2026-11-12T19:30:00Z"]
