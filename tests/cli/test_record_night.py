"""End-to-end: recording Rummy 2,000,000 through the real CLI (issue 3)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from cli_helpers import ref, ref_json, ref_subprocess

from rummyref.store.migrations import LATEST

R = "rummyref.store"


def ok(*args, input=None):
    result = ref(*args, input=input)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def refused(code: int, record, *args, input=None):
    """A refusal exits with ``code`` and writes nothing: the SQLite file stays byte for byte the
    same (on PostgreSQL: every row of every table)."""
    before = record.snapshot()
    result = ref(*args, input=input)
    assert result.exit_code == code, result.stdout + result.stderr
    assert record.snapshot() == before
    return result


def totals():
    st = ref_json("standings")
    return {p["name"]: p["total"] for p in st["players"]}


HAND_CARDS = [
    # hand 1, Bill deals: Ben goes out
    ["--melded", "Bill=7S 7H 7D", "--held", "Bill=KS 2C", "--melded", "Ben=2H 3H 4H 5H", "--out", "Ben",
     "--held", "Larry=QD JD"],
    # hand 3, Larry deals: an ace low (A-2-3) and an ace high (Q-K-A)
    ["--melded", "Bill=AS 2S 3S", "--held", "Bill=5D", "--melded", "Ben=QH KH AH", "--held", "Ben=4C",
     "--melded", "Larry=9D 9C 9H", "--out", "Larry"],
    # hand 4, Bill deals: Larry's Rummy! claim of the JC (laid on Bill's run)
    ["--melded", "Bill=8C 9C 10C", "--out", "Bill", "--held", "Ben=KD KC", "--claim", "Larry=JC",
     "--held", "Larry=3D"],
    # hand 6, Larry deals: a WILDCARD melded (counts the 6D) and one left in hand (penalty 15)
    ["--melded", "Bill=4D 5D W", "--held", "Bill=", "--held", "Ben=W 2D", "--melded", "Larry=10S JS QS KS",
     "--out", "Larry"],
]


def test_a_whole_rummy_night_of_two_rounds(record):
    opened = ok("new-session", "--wildcards", "2")
    assert "Bill deals first" in opened.stdout and "Seating dibs (A2)" in opened.stdout
    h1 = ref_json("score-hand", *HAND_CARDS[0])
    assert h1["dealer"] == "Bill" and h1["next_dealer"] == "Ben"
    assert h1["totals"] == {"Bill": 21 - 12, "Ben": 14, "Larry": -20}
    h2 = ref_json("score-hand", "--points", "Bill=45", "--points", "Ben=-10", "--points", "Larry=20")
    assert h2["dealer"] == "Ben" and h2["score"]["form"] == "points"
    h3 = ref_json("score-hand", *HAND_CARDS[1])
    scores = {s["name"]: s for s in h3["score"]["scores"]}
    assert scores["Bill"]["melded"] == 1 + 2 + 3  # the ace low counts 1
    assert scores["Ben"]["melded"] == 10 + 10 + 15  # the ace high counts 15
    assert scores["Bill"]["points"] == 6 - 5 and scores["Ben"]["points"] == 35 - 4
    notes = [m["note"] for m in h3["score"]["arrangement"]]
    assert "run, ace low" in notes and "run, ace high" in notes
    assert h3["round"]["rounds"] == 1 and h3["next_dealer"] == "Bill"
    h4 = ref_json("score-hand", *HAND_CARDS[2])
    scores = {s["name"]: s for s in h4["score"]["scores"]}
    assert scores["Larry"]["claimed"] == 10 and scores["Larry"]["points"] == 10 - 3
    assert scores["Bill"]["points"] == 27 and scores["Ben"]["points"] == -20

    mid = refused(4, record, "end-session")
    assert "A4" in mid.stderr and "Ben and Larry still have to deal" in " ".join(mid.stderr.split())

    ok("score-hand", "--points", "Bill=0", "--points", "Ben=12", "--points", "Larry=-3")
    h6 = ref_json("score-hand", *HAND_CARDS[3])
    scores = {s["name"]: s for s in h6["score"]["scores"]}
    assert scores["Bill"]["melded"] == 4 + 5 + 6
    assert scores["Ben"]["held"] == 15 + 2 and scores["Ben"]["wild_penalty"] == 15
    assert h6["round"]["rounds"] == 2 and not h6["round"]["in_round"]

    closed = ref_json("end-session")
    assert closed["hands"] == 6 and closed["rounds"] == 2
    expected = {"Bill": 9 + 45 + 1 + 27 + 0 + 15, "Ben": 14 - 10 + 31 - 20 + 12 - 17, "Larry": -20 + 20 + 27 + 7 - 3 + 40}
    assert closed["points"] == expected and closed["winners"] == ["Bill"]
    st = ref_json("standings")
    assert {p["name"]: p["total"] for p in st["players"]} == expected
    assert [p["name"] for p in st["players"]] == ["Bill", "Larry", "Ben"]
    assert [d["name"] for d in st["dibs"]] == ["Bill", "Larry", "Ben"] and st["dibs"][-1]["seat"] == "the floor"
    assert st["recent_nights"][0]["winners"] == ["Bill"]
    assert {p["name"]: p["nights_won"] for p in st["players"]} == {"Bill": 1, "Larry": 0, "Ben": 0}
    assert {p["name"]: p["hands"] for p in st["players"]} == {"Bill": 6, "Ben": 6, "Larry": 6}
    human = ok("standings").stdout
    assert "Seating dibs (A2): Bill first pick; Larry second pick; Ben the floor" in human
    assert ok("verify").exit_code == 0

    # the next night starts with Bill again and the dibs follow the standings
    again = ref_json("new-session")
    assert again["night"] == 2 and again["first_dealer"] == "Bill"
    assert [d["name"] for d in again["dibs"]] == ["Bill", "Larry", "Ben"]


@pytest.fixture
def night(record):
    ok("new-session")
    return record


def test_refused_newcomer_and_near_miss_write_nothing(night):
    r = refused(4, night, "score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Steve=3")
    assert "GEDDOWWWT!!" in r.stderr and "A1" in r.stderr and "Steve" in r.stderr
    r = refused(4, night, "score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Lary=3")
    assert "did you mean Larry?" in r.stderr
    r = refused(4, night, "new-session", "--players", "Bill,Ben,Larry,Steve")
    assert "GEDDOWWWT!!" in r.stderr


def test_refused_duplicate_card_writes_nothing(night):
    r = refused(3, night, "score-hand", "--melded", "Bill=7S 7H 7D", "--held", "Bill=", "--melded", "Ben=7S 8S 9S",
                "--held", "Ben=", "--held", "Larry=2C")
    assert "7S appears twice" in r.stderr


def test_melds_that_cannot_be_arranged_are_named(night):
    r = refused(4, night, "score-hand", "--melded", "Bill=7S 7H 7D KD", "--held", "Bill=", "--held", "Ben=2C",
                "--held", "Larry=3C")
    assert "KD" in r.stderr


def test_who_went_out_holds_nothing(night):
    r = refused(4, night, "score-hand", "--melded", "Bill=7S 7H 7D", "--held", "Bill=2C", "--out", "Bill",
                "--held", "Ben=3C", "--held", "Larry=4C")
    assert "holds nothing" in r.stderr


def test_too_many_wildcards_for_the_game(night):
    r = refused(3, night, "score-hand", "--melded", "Bill=7S 7H W", "--held", "Bill=", "--held", "Ben=3C",
                "--held", "Larry=4C")
    assert "WILDCARD" in r.stderr


def test_missing_facts_without_a_terminal_is_an_error(night):
    r = refused(3, night, "score-hand", "--points", "Bill=4", "--points", "Ben=5")
    assert "Larry" in r.stderr and "no terminal" in r.stderr
    r = refused(3, night, "score-hand", "--melded", "Bill=7S 7H 7D", "--held", "Bill=2C")
    assert "Ben, Larry" in r.stderr


def test_cards_and_points_together_are_refused(night):
    refused(3, night, "score-hand", "--points", "Bill=4", "--melded", "Ben=7S 7H 7D")


def test_wrong_dealer_is_refused_a3(night):
    r = refused(4, night, "score-hand", "--dealer", "Ben", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    assert "A3" in r.stderr and "Bill's deal" in r.stderr


def test_interactive_prompts_in_deal_order_and_re_ask(night, monkeypatch):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    answers = "\n".join([
        "cards",
        "7S 7H 7D", "KS 2C",  # Bill
        "7S 8S 9S", "9S 9S",  # Ben: the 7S again -> asked again; 9S 9S -> twice -> asked again
        "6S 8S 9S", "",  # Ben's melded (readable: judged with the table at the end), nothing held
        "", "QD",  # Larry melded nothing, holds the QD
        "Bob", "Ben",  # who went out: a near miss is asked again
        "",  # no Rummy! claims
    ]) + "\n"
    # 6S 8S 9S is not a run: refused at the end; the table drops the hand (exit 4, the refusal's)
    r = ref("score-hand", "--json", input=answers + "drop\n")
    assert r.exit_code == 4, r.stdout + r.stderr
    assert "Fix which answer? (Bill / Ben / Larry / out / claims / drop)" in r.stderr
    assert "The hand was dropped: nothing was written." in r.stderr and r.stdout == ""
    answers = answers.replace("6S 8S 9S", "7C 8C 9C")
    r = ref("score-hand", "--json", input=answers + "\n")  # Enter: "Record it?" yes
    assert r.exit_code == 0, r.stdout + r.stderr
    # the prompts go to stderr; CliRunner echoes the typed answers on stdout, before the JSON
    data = json.loads(r.stdout[r.stdout.index("{"):])
    assert data["totals"] == {"Bill": 21 - 12, "Ben": 24, "Larry": -10}
    assert "appears twice" in r.stderr
    asked = re.findall(r"(\w+) melded or laid off", r.stderr)
    assert asked == ["Bill", "Ben", "Ben", "Ben", "Larry"]  # deal order; Ben asked again after bad answers


def test_interactive_points(night, monkeypatch):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    r = ref("score-hand", "--points", "Bill=5", "--json", input="x\n-7\n12\n\n")
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "not a whole number" in r.stderr
    data = json.loads(r.stdout[r.stdout.index("{"):])
    assert data["totals"] == {"Bill": 5, "Ben": -7, "Larry": 12}
    assert "Ben's points this hand [x]" in r.stderr  # asked again, the bad answer offered back


def test_designation_b5_aces_as_a_match(night):
    h = ref_json("score-hand", "--melded", "Bill=AS AH AD / 2S 3S 4S", "--held", "Bill=", "--held", "Ben=5C",
                 "--held", "Larry=6C", "--out", "Bill")
    assert h["totals"]["Bill"] == 45 + 9
    assert all(m["designated"] for m in h["score"]["arrangement"])
    # undesignated, the same cards count for runs first (B5's default): A-2-3-4 of spades is a run
    h = ref_json("score-hand", "--melded", "Ben=AS AH AD AC 2S 3S 4S", "--held", "Ben=", "--held", "Bill=5C",
                 "--held", "Larry=6C", "--out", "Ben")
    assert h["score"]["scores"][1]["melded"] == 45 + 1 + 2 + 3 + 4


def test_corrections_append_and_standings_use_them(night):
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=20", "--points", "Larry=30")
    ok("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    refused(3, night, "amend", "1", "--points", "Bill=11", "--points", "Ben=20", "--points", "Larry=30", "--reason", " ")
    a = ref_json("amend", "1", "--points", "Bill=11", "--points", "Ben=20", "--points", "Larry=30", "--reason", "Bill counted short")
    assert a["kind"] == "amend" and a["totals"] == {"Bill": 12, "Ben": 22, "Larry": 33}
    v = ref_json("void", "2", "--reason", "dealt by mistake")
    assert v["totals"] == {"Bill": 11, "Ben": 20, "Larry": 30}
    refused(4, night, "void", "2", "--reason", "again")
    refused(5, night, "void", "9", "--reason", "no such hand")
    hist = ref_json("history")
    kinds = [(e["seq"], e["kind"], e["hand"], e["target_seq"], e["current"]) for e in hist["entries"]]
    assert kinds == [(3, "hand", 1, None, False), (4, "hand", 2, None, False), (5, "amend", 1, 3, True),
                     (6, "void", 2, 4, False)]  # entries 1 and 2: the header and the night's opening
    text = ok("history").stdout
    assert "AMENDS entry 3" in text and "reason: Bill counted short" in text and "(superseded)" in text
    st = ref_json("standings")
    assert {p["name"]: p["hands"] for p in st["players"]} == {"Bill": 1, "Ben": 1, "Larry": 1}
    assert {p["name"]: p["best"] for p in st["players"]} == {"Bill": 11, "Ben": 20, "Larry": 30}
    assert st["hands"] == 1
    ok("verify")
    # SPEC §8: a voided hand is not a dealt hand; voided last, its dealer (Ben) deals again
    assert ref_json("score-hand", "--points", "Bill=0", "--points", "Ben=0", "--points", "Larry=0")["dealer"] == "Ben"


def test_game_ends_when_two_pass_in_one_hand(record):
    ok("new-session", "--opening", "Bill=1999990", "--opening", "Ben=1999980", "--opening", "larry=5")
    text = ok("standings").stdout
    assert "opening balance of 1,999,990" in text
    h = ref_json("score-hand", "--points", "Bill=20", "--points", "Ben=40", "--points", "Larry=1")
    assert h["over"] and h["winner"] == "Ben" and h["totals"]["Bill"] >= 2_000_000
    r = refused(4, record, "score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    assert "A7" in r.stderr
    refused(4, record, "new-session")  # the old game is over: a new one needs a name
    closed = ref_json("end-session")  # mid-round, but the game is over (A7)
    assert closed["ended_early_game_over"] and closed["winners"] == ["Ben"]
    st = ref_json("standings")
    assert st["over"] and st["winner"] == "Ben"
    new = ref_json("new-session", "--game", "second")
    assert new["created"] and new["totals"] == {"Bill": 0, "Ben": 0, "Larry": 0}
    assert ref_json("standings", "--game", "rummy-2m")["winner"] == "Ben"  # history stays
    assert ref_json("standings")["game"] == "second"


def test_exact_tie_past_the_target_plays_on(record):
    ok("new-session", "--opening", "Bill=1999990", "--opening", "Ben=1999990")
    h = ref_json("score-hand", "--points", "Bill=20", "--points", "Ben=20", "--points", "Larry=0")
    assert not h["over"] and h["tied"] == ["Bill", "Ben"]
    h = ref_json("score-hand", "--points", "Bill=-5", "--points", "Ben=3", "--points", "Larry=0")
    assert h["over"] and h["winner"] == "Ben"


def test_one_open_night_per_game_and_names_fixed(night):
    r = refused(4, night, "new-session")
    assert "still open" in r.stderr
    ok("end-session")
    r = refused(4, night, "new-session", "--opening", "Bill=5")
    assert "opening balances" in r.stderr
    r = refused(4, night, "new-session", "--players", "Bill,Ben")
    assert "Larry" in r.stderr


def test_no_record_yet_is_not_found_and_creates_nothing(record):
    for args in (["standings"], ["score-hand", "--points", "Bill=1"], ["end-session"], ["void", "1", "--reason", "x"],
                 ["history"], ["verify"]):
        r = ref(*args)
        assert r.exit_code == 5 and "no record at" in r.stderr, args
    assert not record.exists()


@pytest.mark.sqlite_only("a file that is not a database")
def test_a_file_that_is_not_a_database_is_a_storage_error(db_path):
    db_path.write_bytes(b"this is a shopping list, not a database" * 50)
    r = ref("standings")
    assert r.exit_code == 6 and "Traceback" not in r.stderr


def test_a5_flags_a_gap_over_a_week(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-01-01T20:00:00")
    ok("new-session")
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=20", "--points", "Larry=30")
    monkeypatch.setenv("RUMMYREF_NOW", "2026-01-06T20:00:00")
    st = ref_json("standings")
    assert st["days_since_last_night"] == 5 and not st["overdue"]
    monkeypatch.setenv("RUMMYREF_NOW", "2026-01-12T20:00:00")
    st = ref_json("standings")
    assert st["days_since_last_night"] == 11 and st["overdue"]
    assert "overdue (A5)" in ok("standings").stdout
    larry = next(p for p in st["players"] if p["name"] == "Larry")
    assert larry["pace_per_night"] == 30.0 and larry["nights_to_go"] == 66666
    assert larry["projected_date"] is not None


def test_verify_names_a_tampered_entry(night):
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=20", "--points", "Larry=30")
    ok("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    with night.raw() as con:
        con.execute("UPDATE result SET points = 99 WHERE entry_id = (SELECT id FROM entry WHERE seq = 3) "
                    "AND player_id = (SELECT id FROM player WHERE name = 'Ben')")
    r = ref("verify")
    assert r.exit_code == 8 and "(entry 3, hand 1, Ben)" in r.stderr and "is 99, the chain says 20" in " ".join(r.stderr.split())


def test_verify_notices_a_removed_last_entry(night):
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=20", "--points", "Larry=30")
    ok("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    with night.raw() as con:
        with pytest.raises(night.errors, match="append-only"):  # the log refuses it...
            con.execute("DELETE FROM entry WHERE seq = 4")
        con.rollback()
        con.drop_trigger("entry_append_only_delete")  # ...unless someone works around ref
        con.execute("DELETE FROM result WHERE entry_id = (SELECT id FROM entry WHERE seq = 4)")
        con.execute("DELETE FROM entry WHERE seq = 4")
    r = ref("verify", "--json")
    assert r.exit_code == 8
    problems = json.loads(r.stdout)["problems"]
    assert any("removed" in p["what"] for p in problems)


def test_real_subprocess_against_a_real_file(tmp_path):
    db = tmp_path / "night.db"
    env = {"RUMMYREF_DB": str(tmp_path / "unused.db")}
    assert ref_subprocess("--db", str(db), "new-session", env=env).returncode == 0
    r = ref_subprocess("score-hand", "--db", str(db), *HAND_CARDS[0][:-2], "--held", "Larry=QD JD", "--json", env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["totals"] == {"Bill": 9, "Ben": 14, "Larry": -20}
    r = ref_subprocess("end-session", "--db", str(db), env=env)
    assert r.returncode == 4 and "A4" in r.stderr and "Traceback" not in r.stderr
    r = ref_subprocess("standings", "--db", str(db), "--json", env=env)
    assert json.loads(r.stdout)["players"][0]["name"] == "Ben"
    assert not (tmp_path / "unused.db").exists()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(LATEST)


def test_a_game_of_another_rule_set_keeps_its_own_roster_words(record):
    # Simple Rummy games take their own facts (tests/test_simple_cli.py); the roster words stay theirs.
    ok("new-session", "--game", "friday", "--ruleset", "simple-rummy", "--players", "Ann,Bea,Cy")
    r = refused(3, record, "score-hand", "--game", "friday", "--hand", "Ann=2C 3C 4C", "--hand", "Bea=5D",
                "--hand", "Dee=6H")
    assert "GEDDOWWWT" not in r.stderr and "'Dee' (hand) is not at this table" in r.stderr
    r = refused(3, record, "score-hand", "--game", "friday", "--melded", "Ann=7S 7H 7D", "--held", "Ann=",
                "--held", "Bea=2C", "--held", "Cy=3C")
    assert "--melded, --held are not for Simple Rummy games" in r.stderr
    st = ref_json("standings", "--game", "friday")
    assert "target" not in st and st["match"]["number"] == 1
    assert "friday" in ok("standings", "--game", "friday").stdout


def test_verify_notices_changed_cached_totals(night):
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=20", "--points", "Larry=30")
    ok("verify")
    with night.raw() as con:
        con.execute("UPDATE player_total SET points = points + 1000, nights_won = 3 "
                    "WHERE player_id = (SELECT id FROM player WHERE name = 'Larry')")
    r = ref("verify", "--json")
    assert r.exit_code == 8
    where = [p["where"] for p in json.loads(r.stdout)["problems"]]
    assert where == ["player_total row of Larry, column points", "player_total row of Larry, column nights_won"]
