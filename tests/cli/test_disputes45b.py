"""``ref dispute`` at the edges: what the audit disputes45 found (#2, #3, #6, #7, #9, #10), with
the exact messages and exit codes, and that a refusal writes nothing."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

RUMMY_2M = Path(__file__).resolve().parents[2] / "data" / "rulesets" / "rummy-2m.toml"


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


def state(db: Path) -> tuple[str, dict]:
    """The record's bytes and its history: what a refusal must leave as it found them."""
    return hashlib.sha256(db.read_bytes()).hexdigest(), ref_json("history")


def refused(db: Path, code: int, *args: str) -> str:
    """``ref ARGS`` refused with ``code``, nothing on stdout, the record unchanged and intact."""
    before = state(db)
    r = ref(*args)
    assert (r.exit_code, r.stdout) == (code, ""), r.stdout + r.stderr
    assert state(db) == before
    assert ref("verify").exit_code == 0
    return r.stderr


def rulings() -> list[dict]:
    return ref_json("rulings")["rulings"]


# -- #2: a house file named like the game's rule set, with other values -------------------------


@pytest.fixture
def house_file(tmp_path) -> Path:
    text = RUMMY_2M.read_text(encoding="utf-8")
    assert "A = 15," in text
    path = tmp_path / "h.toml"
    path.write_text(text.replace("A = 15,", "A = 11,"), encoding="utf-8")  # the name stays rummy-2m
    return path


DESIGNATE = ("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--as", "match")


def test_a_house_file_named_like_the_games_rule_set_rules_by_its_own_values(house_file):
    """The file's ace is 11: the dispute says 11, as ``ref count`` and ``ref ruling`` read the
    file; it is not the table's rule set, so the ruling is not kept (it was kept, with 15)."""
    ok("new-session")
    r = ok(*DESIGNATE, "--ruleset", str(house_file))
    assert r.stdout.startswith("AD counts for the match AS AH AC: 11 points;")
    assert "  the match AS AH AC -> AS AH AD AC (11)\n" in r.stdout
    assert " ".join(r.stderr.split()) == (f"Not recorded (it was ruled by --ruleset {house_file}: named rummy-2m, "
                                          "but its rules differ from those the game rummy-2m keeps; --record keeps it).")
    assert rulings() == []
    assert "count     21\n" in ok("count", "AS", "KD", "--ruleset", str(house_file)).stdout
    assert "11 in a match" in ok("ruling", "B5", "--ruleset", str(house_file)).stdout
    # the game's own rule set, named: the game's values, and kept
    r = ok(*DESIGNATE, "--ruleset", "rummy-2m")
    assert r.stdout.startswith("AD counts for the match AS AH AC: 15 points;")
    assert r.stderr == "Recorded as a precedent of rummy-2m: night 1, hand 1 (1st of the night) (entry 3).\n"


def test_a_house_file_with_other_values_is_kept_only_with_record(house_file):
    ok("new-session")
    r = ok(*DESIGNATE, "--ruleset", str(house_file), "--record")
    assert r.stderr == "Recorded as a precedent of rummy-2m: night 1, hand 1 (1st of the night) (entry 3).\n"
    assert [x["verdict"].split(";")[0] for x in rulings()] == ["AD counts for the match AS AH AC: 11 points"]


def test_a_house_file_with_other_values_does_not_hold_the_closed_roster(house_file):
    """Not the table's rule set, so ``--players`` may name another table (a question aside),
    as with a rule set of another name."""
    ok("new-session")
    r = ok("dispute", "claim", "--players", "Ann,Bob", "--called", "Ann", "--touched", "Ann",
           "--ruleset", str(house_file))
    assert r.stdout.startswith("Ann wins the Rummy! card.")
    assert rulings() == []


# -- #3: end-night's facts with no record, at every rule set ------------------------------------


@pytest.mark.parametrize(("name", "title", "word"), [
    ("gin", "Gin Rummy", "hand"), ("simple-rummy", "Simple Rummy", "game"), ("rummy-500", "500 Rum", "hand")])
def test_end_night_facts_with_no_record_need_no_players_where_any_hand_may_end(record, name, title, word):
    r = ref("dispute", "end-night", "--ruleset", name, "--hands", "2")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith(f"Allowed: {title} has no full-round rule; the session may end after any {word}.\n")
    assert "the roster is empty" not in r.stderr
    assert " ".join(r.stderr.split()) == f"Not recorded (there is no record at {record})."
    assert not record.exists()


def test_end_night_facts_with_no_record_use_the_rule_sets_default_players(record):
    r = ok("dispute", "end-night", "--hands", "2", "--json")
    import json

    facts = json.loads(r.stdout)["facts"]
    assert (facts["roster"], facts["first_dealer"]) == (["Bill", "Ben", "Larry"], "Bill")


def test_a_house_rule_set_with_full_rounds_and_no_default_players_asks_for_them(tmp_path, record):
    text = RUMMY_2M.read_text(encoding="utf-8")
    assert 'default = ["Bill", "Ben", "Larry"]' in text
    path = tmp_path / "nobody.toml"
    path.write_text(text.replace('default = ["Bill", "Ben", "Larry"]', "default = []"), encoding="utf-8")
    r = ref("dispute", "end-night", "--hands", "2", "--ruleset", str(path))
    assert (r.exit_code, r.stdout) == (3, "")
    assert r.stderr == ("error: no players: Rummy 2,000,000 (rummy-2m) names no default players, and its night "
                        "ends only\nafter full rounds\ngive the players in deal order: --players A,B,C\n")


# -- #6: end-night's facts are a table the rule set can have ------------------------------------


def test_gin_end_night_refuses_three_players_and_a_first_dealer(record):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    assert refused(record, 3, "dispute", "end-night", "--hands", "3", "--players", "Ann,Bob,Cy") == (
        "error: --players: Gin Rummy is for 2 players, not 3\nname 2 players\n")
    assert refused(record, 3, "dispute", "end-night", "--hands", "3", "--players", "Ann,Bob",
                   "--first-dealer", "Bob") == (
        "error: --first-dealer: not for Gin Rummy\nGin Rummy keeps no deal order: leave --first-dealer out\n")
    assert refused(record, 3, "dispute", "end-night", "--hands", "3", "--first-dealer", "Bob", "--record") == (
        "error: --first-dealer: not for Gin Rummy\nGin Rummy keeps no deal order: leave --first-dealer out\n")
    assert rulings() == []


def test_a_gin_end_night_precedent_speaks_of_no_deal_order():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    r = ok("dispute", "end-night", "--hands", "3", "--record", "--json")
    import json

    assert json.loads(r.stdout)["facts"]["first_dealer"] is None
    ok("dispute", "end-night", "--record")
    assert [x["summary"] for x in rulings()] == ["3 hands this session, players Ann, Bob",
                                                   "0 hands this session, players Ann, Bob"]
    assert "deal order" not in ok("rulings").stdout


@pytest.mark.parametrize(("args", "message"), [
    (("--players", "Ann", "--ruleset", "simple-rummy"),
     "error: --players: Simple Rummy is for 2 to 10 players, not 1\nname 2 to 10 players in deal order\n"),
    (("--players", "Ann"),
     "error: --players: Rummy 2,000,000 is for 2 to 8 players, not 1\nname 2 to 8 players in deal order\n"),
    (("--players", "A,B,C,D,E,F,G,H,I"),
     "error: --players: Rummy 2,000,000 is for 2 to 8 players, not 9\nname 2 to 8 players in deal order\n"),
    (("--players", "Ann,Bob,Cy", "--ruleset", "gin"),
     "error: --players: Gin Rummy is for 2 players, not 3\nname 2 players\n"),
    (("--first-dealer", "Ann", "--players", "Ann,Bob", "--ruleset", "gin"),
     "error: --first-dealer: not for Gin Rummy\nGin Rummy keeps no deal order: leave --first-dealer out\n"),
])
def test_end_night_facts_a_rule_set_cannot_have_are_refused_with_no_record(record, args, message):
    r = ref("dispute", "end-night", "--hands", "2", *args)
    assert (r.exit_code, r.stdout, r.stderr) == (3, "", message)
    assert not record.exists()


def test_end_night_facts_within_the_limits_are_answered():
    assert ok("dispute", "end-night", "--hands", "2", "--players", "Ann,Bob",
              "--ruleset", "simple-rummy").stdout.startswith("Allowed: Simple Rummy has no full-round rule")
    assert ok("dispute", "end-night", "--hands", "2", "--players", "Ann,Bob").stdout.startswith(
        "Allowed: 1 full round played.")


# -- #7: "From the record" counts the hands as A3 does ------------------------------------------


def test_from_the_record_counts_the_hands_in_force_after_voids():
    ok("new-session")
    for _ in range(4):
        ok("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    ok("void", "4", "--reason", "misdeal")
    ok("void", "2", "--reason", "oops")
    r = ok("dispute", "end-night")
    assert r.stdout == (
        "Refused (A4): the round is not over; still to deal: Ben.\n"
        "Why:\n"
        "  1. A3    hands in force dealt: Bill 1, Ben 0, Larry 1 (a voided hand is dealt again: Ben, Bill)\n"
        "  2. A4    the round is not finished: Ben still has to deal\n"
        "From the record: Rummy Night 1 of rummy-2m, 2 hands in force tonight (4 dealt, 2 voided).\n"
    )


def test_from_the_record_without_a_void_says_the_hands_dealt():
    ok("new-session")
    ok("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    assert ok("dispute", "end-night").stdout.endswith(
        "From the record: Rummy Night 1 of rummy-2m, 1 hand dealt tonight.\n")


# -- #9: an empty place in the facts is refused, with its column --------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (("pickup", "3D", "--hand", ",,"),
     "error: --hand ',,': no card in it, only separators\ngive the taker's own cards, e.g. --hand \"7S 7D KC\"\n"),
    (("claim", "--called", "Bill==Ben", "--touched", "Bill"),
     "error: --called 'Bill==Ben': no name before the '=' at column 6\n"),
    (("claim", "--called", ",Bill", "--touched", "Bill"),
     "error: --called ',Bill': no name before the ',' at column 1\n"),
    (("claim", "--called", "Bill", "--touched", "Bill="),
     "error: --touched 'Bill=': no name after the '=' at column 5\n"),
    (("claim", "--called", "Bill,Ben", "--touched", "Ben,Bill", "--completed", "Ben;;Bill"),
     "error: --completed 'Ben;;Bill': no name before the ';' at column 5\n"),
    (("designate", "3D", "--table", "/"),
     "error: --table '/': no card before the '/' at column 1\n"),
    (("designate", "3D", "--table", "4D 5D 6D /"),
     "error: --table '4D 5D 6D /': no card after the '/' at column 10\n"),
    (("pickup", "3D", "--hand", "4D 5D", "--table", "7S 8S 9S || 2H 3H 4H"),
     "error: --table '7S 8S 9S || 2H 3H 4H': no card before the '|' at column 11\n"),
    (("discard", "--took", "7H", "--discarded", "KS", "--table", ","),
     "error: --table ',': no card in it\ngive the cards of the meld, e.g. 7S 8S 9S\n"),
])
def test_an_empty_place_in_the_facts_is_refused(record, args, message):
    ok("new-session")
    err = refused(record, 3, "dispute", *args)
    assert err.startswith(message)
    assert rulings() == []


def test_the_hint_of_an_empty_place_in_an_order():
    r = ref("dispute", "claim", "--called", "Bill==Ben", "--touched", "Bill")
    assert r.stderr.splitlines()[1] == (
        'list the players in order, e.g. "Bill,Ben"; join players who acted together with =, e.g. "Bill=Ben"')


def test_orders_and_tables_with_blanks_are_still_read():
    """Blanks around names and cards are no empty place."""
    ok("new-session")
    assert ok("dispute", "claim", "--called", " Bill = Ben ", "--touched", "Ben , Bill").stdout.startswith(
        "Ben wins the Rummy! card.")
    assert ok("dispute", "designate", "3D", "--table", "4D 5D 6D / 3S 3H 3C").stdout.startswith("3D counts for the run")


# -- #10: a game that is over keeps no ruling ---------------------------------------------------


@pytest.fixture
def over(record):
    ok("new-session", "--opening", "Bill=1999990")
    ok("score-hand", "--points", "Bill=20", "--points", "Ben=5", "--points", "Larry=0")
    return record


OVER = ("Not recorded (the game rummy-2m is over (A7): its hand 2 will never be played, so no hand can keep\n"
        "the ruling).\n")


@pytest.mark.parametrize("dispute", [("claim", "--called", "Ben", "--touched", "Ben"), ("end-night",),
                                     ("discard", "--took", "7H", "--discarded", "KS")])
def test_a_dispute_at_a_finished_game_is_answered_and_not_kept(over, dispute):
    before = state(over)
    r = ok("dispute", *dispute)
    assert r.stdout and r.stderr == OVER
    assert state(over) == before
    assert rulings() == []


@pytest.mark.parametrize("dispute", [("claim", "--called", "Ben", "--touched", "Ben"), ("end-night",)])
def test_record_at_a_finished_game_is_refused(over, dispute):
    assert refused(over, 4, "dispute", *dispute, "--record") == (
        "refused (A7): --record: the game rummy-2m is over: its hand 2 will never be played, so no hand can\n"
        "keep the ruling\nleave --record out: the dispute is answered and not kept\n")
    assert rulings() == []


def test_no_record_at_a_finished_game_says_so(over):
    assert ok("dispute", "claim", "--called", "Ben", "--touched", "Ben", "--no-record").stderr == (
        "Not recorded (--no-record).\n")


def test_a_finished_gin_game_keeps_no_ruling_either(tmp_path, record):
    text = (RUMMY_2M.parent / "gin.toml").read_text(encoding="utf-8")
    assert "target = 100" in text
    short = tmp_path / "short-gin.toml"
    short.write_text(text.replace("target = 100", "target = 30"), encoding="utf-8")
    ok("new-session", "--ruleset", str(short), "--players", "Ann,Bob")
    ok("score-hand", "--hand", "Ann=5H 6H 7H 2S 2D 2C KC KD KS AH",
       "--hand", "Bob=8H 9H 4H 3S 4S 5S QC QD 7C 7D", "--knock", "Ann")  # Ann 33: past 30
    r = ok("dispute", "end-night")
    assert r.stderr == ("Not recorded (the game gin is over (G10): its hand 2 will never be played, so no hand can "
                        "keep the\nruling).\n")
    assert refused(record, 4, "dispute", "end-night", "--record").startswith("refused (G10): --record: the game gin")
    assert rulings() == []
