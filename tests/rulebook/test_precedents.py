"""Precedents (issue 5, SPEC §6): disputes settled during an open Rummy Night are kept in the
record, listed by ``ref rulings``, shown again beside the same dispute, and never touch a total."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-27T20:30:00+00:00")


def flat(text: str) -> str:
    """Lines joined with single spaces (prose wraps at the terminal's width)."""
    return " ".join(text.split())


def ok(*args):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def hand(bill: int, ben: int, larry: int):
    return ok("score-hand", "--points", f"Bill={bill}", "--points", f"Ben={ben}", "--points", f"Larry={larry}")


# one dispute of each kind, as typed at the table
DISPUTES = {
    "claim": ["claim", "--called", "Bill=Ben", "--touched", "Ben,Bill"],
    "designate": ["designate", "AD", "--table", "2D 3D 4D", "--table", "AS AH AC", "--as", "match"],
    "pickup": ["pickup", "7H", "--hand", "7S 7D KC"],
    "discard": ["discard", "--took", "7H", "--discarded", "7H", "--going-out"],
    "end-night": ["end-night", "--hands", "4", "--record"],  # a question answered: kept only when asked
}


def dispute(kind: str, *more: str):
    return ok("dispute", *DISPUTES[kind], *more)


def rulings(*args) -> list[dict]:
    return ref_json("rulings", *args)["rulings"]


# -- recorded during an open night ------------------------------------------------------------


def test_a_ruling_during_an_open_night_is_kept_with_the_night_and_the_hand():
    ok("new-session")
    hand(10, 20, -5)
    hand(5, 5, 5)
    said = dispute("claim")
    assert said.stdout.startswith("Ben wins the Rummy! card.")
    assert "Recorded as a precedent of rummy-2m: night 1, hand 3 (3rd of the night)" in said.stderr
    [r] = rulings()
    assert (r["night"], r["hand"], r["hand_in_night"], r["kind"]) == (1, 3, 3, "claim")
    assert r["verdict"] == "Ben wins the Rummy! card." and r["rules"] == ["B8", "B11"]
    assert r["summary"] == "called Bill=Ben; touched Ben, Bill"
    assert r["when"] == "2026-11-27T20:30:00+00:00" and r["key"].startswith("claim|")
    assert r["ruling"]["outcome"] == "awarded" and r["ruling"]["details"]["winner"] == "Ben"

    # the second night: hand numbers go on across nights, the hand in the night starts again
    hand(0, 0, 0)
    ok("end-session")
    ok("new-session")
    hand(1, 2, 3)
    dispute("pickup")
    later = rulings()
    assert [(x["night"], x["hand"], x["hand_in_night"], x["kind"]) for x in later] == [
        (1, 3, 3, "claim"), (2, 5, 2, "pickup"),
    ]  # fmt: skip
    assert [x["night"] for x in rulings("--session", "2")] == [2]
    shown = ok("rulings").stdout
    assert "Rulings of rummy-2m (2):" in shown
    assert "night 1, hand 3 (3rd of the night): claim" in shown
    assert "    Ben wins the Rummy! card (B8, B11)" in shown
    assert "night 2, hand 5 (2nd of the night): pickup" in shown
    assert "facts: took 7H; hand 7S 7D KC" in shown


def test_every_dispute_kind_is_recorded_with_its_json():
    ok("new-session")
    for kind in DISPUTES:
        data = ref_json("dispute", *DISPUTES[kind])
        assert data["kind"] == kind
        assert data["recorded"]["night"] == 1 and data["recorded"]["hand"] == 1
        assert data["recorded"]["key"] == data["key"] and data["not_recorded"] is None
    assert [r["kind"] for r in rulings()] == list(DISPUTES)
    assert [r["entry"] for r in rulings()] == [3, 4, 5, 6, 7]  # after the header and the night's opening


# -- the same dispute again ----------------------------------------------------------------------


def test_the_same_dispute_again_shows_its_precedents():
    ok("new-session")
    hand(10, 20, -5)
    first = ref_json("dispute", *DISPUTES["claim"])
    assert first["precedents"] == []
    hand(1, 1, 1)
    # the same facts, typed another way (case, spaces, = order): the same dispute
    again = ok("dispute", "claim", "--called", "ben = bill", "--touched", "BEN, bill")
    assert "precedent: night 1, hand 2 (2nd of the night): Ben wins the Rummy! card (B8, B11)" in again.stdout
    third = ref_json("dispute", *DISPUTES["claim"])
    assert [(p["night"], p["hand"]) for p in third["precedents"]] == [(1, 2), (1, 3)]
    assert all(p["verdict"] == third["verdict"] for p in third["precedents"])
    # another dispute has no precedent
    other = ok("dispute", "claim", "--called", "Larry", "--touched", "Larry")
    assert "precedent:" not in other.stdout
    # after the night: answered, not recorded, the precedents still shown
    hand(0, 0, 0)
    ok("end-session")
    later = ok("dispute", *DISPUTES["claim"])
    assert later.stdout.count("precedent: night 1") == 3
    assert "Not recorded (no session is open in any game)" in later.stderr


def test_a_precedent_ruled_differently_is_flagged(tmp_path):
    """A house that edits its rule set may rule the same dispute differently later: the
    precedent (from another game) is shown all the same, flagged."""
    ok("new-session", "--game", "old")
    ok("dispute", *DISPUTES["designate"], "--game", "old")
    data = ref_json("dispute", *DISPUTES["designate"], "--game", "old")
    assert [(p["game"], p["hand"]) for p in data["precedents"]] == [("old", 1)]
    ok("end-session", "--game", "old")
    from rummyref.rules.ruleset import load_ruleset

    text = Path(load_ruleset("rummy-2m").source).read_text(encoding="utf-8")
    house = tmp_path / "house.toml"
    house.write_text(text.replace("values = { A = 15,", "values = { A = 20,"), encoding="utf-8")
    ok("new-session", "--game", "new", "--ruleset", str(house))
    changed = ok("dispute", *DISPUTES["designate"], "--game", "new")
    assert changed.stdout.startswith("AD counts for the match AS AH AC: 20 points")
    assert ("precedent: game old, night 1, hand 1 (1st of the night): AD counts for the match AS AH AC: "
            "15 points; the run is cut off at its low end (B5, B6) [ruled differently]") in flat(changed.stdout)


def test_a_precedent_of_a_game_with_a_long_name_is_cut_to_fit_80_columns(monkeypatch):
    """Audit, stop 35: a precedent of another game printed its 100-character name whole (a
    103-column line); names are cut as everywhere in prose, head and tail around an ellipsis."""
    long_name = "Friday-" + "z" * 93
    ok("new-session", "--game", long_name)
    ok("dispute", "claim", "--called", "Bill", "--touched", "Bill", "--game", long_name)
    ok("new-session", "--game", "other")
    from rummyref.cli import common

    for console in (common.out, common.err):
        monkeypatch.setattr(console, "_width", 80)
    said = ok("dispute", "claim", "--called", "Bill", "--touched", "Bill", "--game", "other").stdout
    assert "precedent: game Friday-zzzzzzzz…zzzzzzzzzzzzzz, night 1, hand 1" in flat(said)
    assert max(map(len, said.splitlines())) <= 80


# -- no open night, no database ------------------------------------------------------------------


def test_without_an_open_night_it_answers_and_records_nothing(record):
    ok("new-session")
    for _ in range(3):
        hand(1, 2, 3)
    ok("end-session")
    before = record.snapshot()
    for kind in DISPUTES:
        if "--record" in DISPUTES[kind]:  # asked to keep it, with nowhere to keep it: refused (docs46 #4)
            refused = ref("dispute", *DISPUTES[kind])
            assert (refused.exit_code, refused.stdout) == (4, "")
            assert "--record: no session is open in any game to keep the ruling in" in flat(refused.stderr)
            continue
        result = dispute(kind)
        assert result.stdout.strip() and "Why:" in result.stdout
        assert "Not recorded (no session is open in any game)" in result.stderr
        data = ref_json("dispute", *DISPUTES[kind])
        assert data["recorded"] is None and data["not_recorded"] == "no session is open in any game"
    assert record.snapshot() == before
    assert rulings() == []


def test_no_record_flag_answers_without_writing(record):
    ok("new-session")
    hand(1, 2, 3)
    dispute("claim")
    before = record.snapshot()
    result = dispute("claim", "--no-record")
    assert "precedent: night 1, hand 2" in result.stdout
    assert "Not recorded (--no-record)" in result.stderr
    assert record.snapshot() == before
    assert len(rulings()) == 1


def test_without_a_database_file_none_is_created(record):
    assert not record.exists()
    for kind in DISPUTES:
        if "--record" in DISPUTES[kind]:  # asked to keep it, with no record: refused, nothing created
            refused = ref("dispute", *DISPUTES[kind])
            assert (refused.exit_code, refused.stdout) == (5, "")
            assert f"--record: there is no record at {record.where}" in flat(refused.stderr)
            continue
        result = dispute(kind)
        assert "Why:" in result.stdout
        assert f"Not recorded (there is no record at {record.where})" in flat(result.stderr)
        assert ref_json("dispute", *DISPUTES[kind], "--game", "anything")["recorded"] is None
    assert not record.exists()
    assert ref("rulings").exit_code == 5
    assert not record.exists()


def test_without_a_database_file_the_store_is_not_even_loaded(tmp_path):
    code = (
        "import sys\n"
        "from rummyref.cli.app import app\n"
        "try:\n"
        "    app(['dispute', 'claim', '--called', 'Bill', '--touched', 'Bill'])\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0, e.code\n"
        "print('sqlmodel' in sys.modules, 'sqlalchemy' in sys.modules, file=sys.stderr)\n"
    )
    env = {"RUMMYREF_DB": str(tmp_path / "none.db"), "PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Bill wins the Rummy! card.")
    assert done.stderr.strip().splitlines()[-1] == "False False"
    assert not (tmp_path / "none.db").exists()


def test_rule_lookups_are_not_recorded():
    ok("new-session")
    assert ok("ruling", "we both slapped the rummy card").stdout
    assert rulings() == []
    assert ref_json("verify")["entries"] == 2  # the header and the night's opening


# -- which game ----------------------------------------------------------------------------------


def test_the_game_is_chosen_or_the_only_one_with_an_open_night():
    ok("new-session", "--game", "house", "--players", "Ann,Bob,Cy")
    ok("new-session", "--game", "club")
    # two nights open: the names given pick the game whose roster has them (SPEC §8)
    result = ok("dispute", "claim", "--called", "Bill", "--touched", "Bill", "--players", "Bill,Ben,Larry")
    assert result.stderr == "Recorded as a precedent of club: night 1, hand 1 (1st of the night) (entry 3).\n"
    # no names: refused, as every command refuses (SPEC §8), naming the games and --game
    result = ref("dispute", "discard", "--discarded", "KS")
    assert (result.exit_code, result.stdout) == (3, "")
    assert flat(result.stderr) == ("error: 2 games have a session open (house, club): which one? name it "
                                   "with --game, e.g. --game 'club'")
    # the roster of the chosen game is the table's (Ann, Bob, Cy: no --players needed)
    data = ref_json("dispute", "claim", "--called", "Ann=Bob", "--touched", "Ann=Bob", "--game", "house")
    assert data["facts"]["players"] == ["Ann", "Bob", "Cy"] and data["outcome"] == "judge-decides"
    assert data["recorded"] is None  # a tie waiting for Cy's judgment settled nothing yet
    data = ref_json("dispute", "claim", "--called", "Ann=Bob", "--touched", "Ann=Bob", "--judge-says", "Bob",
                    "--game", "house")
    assert data["recorded"]["game"] == "house"
    assert [r["kind"] for r in rulings("--game", "house")] == ["claim"]
    # A4 from the record needs to know which night
    which = ref("dispute", "end-night")
    assert which.exit_code == 3 and "2 games have a session open (house, club): which one?" in which.stderr
    assert end_night("--game", "house")["facts"]["roster"] == ["Ann", "Bob", "Cy"]
    assert [r["kind"] for r in rulings("--game", "club")] == ["claim"]
    # an unknown game: a slip, refused as every command refuses it (exit 5), never answered
    unknown = ref("dispute", "discard", "--discarded", "KS", "--game", "hosue")
    assert (unknown.exit_code, unknown.stdout) == (5, "")
    assert flat(unknown.stderr) == "error: no game named 'hosue' games: house, club"
    # one night left open: it is the table's
    ok("end-session", "--game", "club")
    assert ref_json("dispute", "discard", "--discarded", "KS")["recorded"]["game"] == "house"


def test_rulings_errors():
    assert ref("rulings").exit_code == 5  # no record yet
    ok("new-session")
    assert ok("rulings").stdout.strip() == "No ruling has been recorded in rummy-2m."
    missing = ref("rulings", "--session", "4")
    assert missing.exit_code == 5 and "no Rummy Night 4" in missing.stderr
    assert ref("rulings", "--game", "nope").exit_code == 5


# -- A4 from the open night ----------------------------------------------------------------------


def end_night(*args) -> dict:
    return ref_json("dispute", "end-night", *args)


def test_end_night_reads_the_open_night():
    ok("new-session")
    start = end_night()
    assert start["outcome"] == "allowed" and start["facts"]["hands_in_session"] == 0
    hand(10, 20, 30)
    refused = ok("dispute", "end-night")
    assert refused.stdout.startswith("Refused (A4): the round is not over; still to deal: Ben and Larry.")
    assert "From the record: Rummy Night 1 of rummy-2m, 1 hand dealt tonight." in refused.stdout
    assert ref("end-session").exit_code == 4  # the command that would end it agrees
    hand(1, 1, 1)
    data = end_night()
    assert data["outcome"] == "refused" and data["details"]["still_to_deal"] == ["Larry"]
    assert data["rules"] == ["A3", "A4"] and data["recorded"] is None  # "can we stop?" settles nothing
    assert "settled nothing" in data["not_recorded"]
    kept = ref_json("dispute", "end-night", "--record")
    assert kept["recorded"]["hand"] == 3
    hand(1, 1, 1)
    assert end_night()["outcome"] == "allowed"
    hand(1, 1, 1)
    assert end_night()["details"]["still_to_deal"] == ["Ben", "Larry"]
    # the facts form still answers without the record
    assert end_night("--hands", "3", "--no-record")["outcome"] == "allowed"


def test_end_night_when_the_game_is_over_a7():
    ok("new-session", "--opening", "Bill=1999990")
    hand(50, 0, 0)  # Bill passes 2,000,000 in the night's first hand
    data = end_night()
    assert data["outcome"] == "allowed" and data["facts"]["game_over"] is True
    assert data["rules"] == ["A7"]
    assert "the game is over." in ok("dispute", "end-night").stdout
    ok("end-session")


def test_end_night_needs_a_night_or_the_facts(record):
    missing = ref("dispute", "end-night")
    assert missing.exit_code == 5 and "there is no record at" in missing.stderr
    assert not record.exists()
    ok("new-session")
    ok("end-session")
    closed = ref("dispute", "end-night")
    assert closed.exit_code == 5 and "no session is open in any game" in closed.stderr and "--hands" in closed.stderr
    mixed = ref("dispute", "end-night", "--players", "Ann,Bob")
    assert mixed.exit_code == 3 and "--players goes with --hands N" in mixed.stderr


# -- where, in the game's own words --------------------------------------------------------------


def test_where_is_told_in_the_words_of_the_games_rule_set():
    from rummyref.rulebook.precedents import precedent_from
    from rummyref.rules.ruleset import load_ruleset

    facts = {"kind": "end-night", "verdict": "Allowed.", "key": "k",
             "facts": {"hands_in_session": 1, "roster": ["Ann", "Bob"]},
             "at": {"night": 1, "hand": 2, "hand_in_night": 2}}
    told = {name: precedent_from("g", 4, "2026-11-27T20:30:00+00:00", 1, facts, load_ruleset(name))
            for name in ("rummy-2m", "simple-rummy", "gin", "rummy-500")}
    assert {name: p.where() for name, p in told.items()} == {
        "rummy-2m": "night 1, hand 2 (2nd of the night)",  # unchanged
        "simple-rummy": "session 1, game 2 (2nd of the session)",
        "gin": "session 1, hand 2 (2nd of the session)",
        "rummy-500": "session 1, hand 2 (2nd of the session)",
    }
    assert {name: p.summary for name, p in told.items()} == {
        "rummy-2m": "1 hand tonight, deal order Ann, Bob",
        "simple-rummy": "1 game this session, deal order Ann, Bob",
        "gin": "1 hand this session, deal order Ann, Bob",
        "rummy-500": "1 hand this session, deal order Ann, Bob",
    }
    assert told["simple-rummy"].to_dict()["night"] == 1  # the JSON keeps its keys


def test_a_simple_rummy_precedent_says_session_and_game():
    from rummyref.rulebook.precedents import local_time

    at = local_time("2026-11-27T20:30:00+00:00")
    ok("new-session", "--game", "friday", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    ok("score-hand", "--hand", "Ann=2H 3H 4H 9S 9D 9C 5S", "--hand", "Bob=5C 6C 7C 8C JD QD KD",
       "--hand", "Cy=AS 2S 3S 4S 5D 6D 8H")
    first = ok("dispute", "end-night", "--record")
    assert first.stderr == "Recorded as a precedent of friday: session 1, game 2 (2nd of the session) (entry 4).\n"
    again = ok("dispute", "end-night", "--record")
    assert again.stdout.splitlines()[-2:] == [
        "precedent: session 1, game 2 (2nd of the session): Allowed: Simple Rummy has no full-round rule; the",
        "  session may end after any game",
    ]
    assert ok("rulings").stdout == (
        "Rulings of friday (2):\n"
        f"entry 4, {at}, session 1, game 2 (2nd of the session): end-night\n"
        "    Allowed: Simple Rummy has no full-round rule; the session may end after any game\n"
        "    facts: 1 game this session, deal order Ann, Bob, Cy\n"
        f"entry 5, {at}, session 1, game 2 (2nd of the session): end-night\n"
        "    Allowed: Simple Rummy has no full-round rule; the session may end after any game\n"
        "    facts: 1 game this session, deal order Ann, Bob, Cy\n"
    )
    assert ok("rulings", "--session", "1").stdout.splitlines()[0] == "Rulings of friday, session 1 (2):"
    missing = ref("rulings", "--session", "2")
    assert missing.exit_code == 5 and missing.stderr.splitlines()[0] == "error: game friday has no session 2"
    assert ok("history").stdout.splitlines()[-6:] == [
        "entry 4: ruling during session 1, game 2 (2nd of the session): end-night",
        "    Allowed: Simple Rummy has no full-round rule; the session may end after any game",
        "    facts: 1 game this session, deal order Ann, Bob, Cy",
        "entry 5: ruling during session 1, game 2 (2nd of the session): end-night",
        "    Allowed: Simple Rummy has no full-round rule; the session may end after any game",
        "    facts: 1 game this session, deal order Ann, Bob, Cy",
    ]
    # asked by Rummy 2,000,000's rules at this table and kept: still this game's words, and shown
    # so beside the same dispute at a Rummy Night
    kept = ok("dispute", "discard", "--discarded", "KS", "--ruleset", "rummy-2m", "--record")
    assert kept.stderr == "Recorded as a precedent of friday: session 1, game 2 (2nd of the session) (entry 6).\n"
    ok("end-session", "--game", "friday")
    ok("new-session", "--game", "house")
    hand(1, 2, 3)
    house = ok("dispute", "discard", "--discarded", "KS")
    assert house.stdout.splitlines()[-2:] == [
        "precedent: game friday, session 1, game 2 (2nd of the session): Allowed: discarding KS ends the turn",
        "  (B3)",
    ]
    assert house.stderr == "Recorded as a precedent of house: night 1, hand 2 (2nd of the night) (entry 4).\n"


def test_a_gin_precedent_says_session_and_hand():
    ok("new-session", "--ruleset", "gin", "--players", "Al,Bo", "--game", "g")
    ok("score-hand", "--game", "g", "--dead")
    kept = ok("dispute", "end-night", "--record")
    assert kept.stderr == "Recorded as a precedent of g: session 1, hand 2 (2nd of the session) (entry 4).\n"
    assert [(r["night"], r["hand"], r["hand_in_night"], r["summary"]) for r in rulings()] == [
        (1, 2, 2, "1 hand this session, players Al, Bo")]  # Gin keeps no deal order (G15)
    assert "entry 4: ruling during session 1, hand 2 (2nd of the session): end-night" in ok("history").stdout


# -- the log stays a log of hands ----------------------------------------------------------------


def test_rulings_change_no_total_and_verify_passes():
    ok("new-session")
    hand(10, 20, -5)
    hand(40, -10, 0)
    standings = ref_json("standings")
    history = ref_json("history")
    for kind in DISPUTES:
        dispute(kind)
    dispute("claim")
    assert ref_json("standings") == standings
    check = ref_json("verify")
    assert check["ok"] and check["entries"] == 2 + 2 + 6
    # the hand count and the next hand's number ignore the rulings
    h3 = ref_json("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    assert (h3["hand"], h3["hand_in_night"], h3["dealer"]) == (3, 3, "Larry")
    assert ref_json("standings")["hands"] == standings["hands"] + 1
    # a correction of a hand recorded before the rulings still finds the hand
    amended = ref_json("amend", "2", "--reason", "misread", "--points", "Bill=4", "--points", "Ben=-1", "--points", "Larry=0")
    assert amended["hand"] == 2 and amended["totals"] == {"Bill": 15, "Ben": 20, "Larry": -4}
    assert ref("amend", "4", "--reason", "x", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1").exit_code == 5
    assert ref_json("verify")["ok"]
    entries = ref_json("history")["entries"]
    kinds = [e["kind"] for e in entries]
    assert kinds == ["hand", "hand"] + ["ruling"] * 6 + ["hand", "amend"]
    assert all(e["hand"] is None and e["results"] == {} for e in entries if e["kind"] == "ruling")
    assert [e["current"] for e in entries[:2]] == [True, False]  # hand 2 was amended
    assert [e["current"] for e in history["entries"]] == [True, True]  # before the amendment
    shown = ok("history").stdout
    assert "entry 5: ruling during night 1, hand 3 (3rd of the night): claim" in shown
    assert "(superseded)" in shown.split("entry 5:")[0]  # hand 2, amended; no ruling is marked superseded
    assert "(superseded)" not in shown.split("entry 5:")[1].split("entry 11:")[0]


def test_verify_sees_a_ruling_changed_outside_ref(record):
    ok("new-session")
    hand(1, 2, 3)
    dispute("claim")
    with record.raw() as raw:
        raw.drop_trigger("entry_append_only_update")
        facts = json.loads(raw.execute("SELECT facts FROM entry WHERE kind = 'ruling'").fetchone()[0])
        facts["verdict"] = "Bill wins the Rummy! card."
        raw.execute("UPDATE entry SET facts = ? WHERE kind = 'ruling'", (json.dumps(facts),))
    bad = ref("verify")
    assert bad.exit_code == 8 and "entry 4" in bad.stdout and "hash does not match" in bad.stdout
