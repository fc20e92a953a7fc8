"""Players' names at the command line (issue 13): invisible, look-alike and separator names are
refused with exit 3 before anything is written; NFC and NFD spellings are one name."""

from __future__ import annotations

import unicodedata

import pytest
from cli_helpers import ref, ref_json

NFC_JOSE = unicodedata.normalize("NFC", "José")
NFD_JOSE = unicodedata.normalize("NFD", "José")

BAD_ROSTERS = [
    ("Ann,Bo\u200bb,Cy", "U+200B ZERO WIDTH SPACE"),
    ("Ann,\u0410nn,Cy", "U+0410 CYRILLIC CAPITAL LETTER A"),  # "Ann" and "Аnn"
    ("Bi=ll,Ben,Larry", "U+003D EQUALS SIGN"),
    ("Ann,Bob\u202e,Cy", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("Ann,ann,Cy", "named twice"),
]


@pytest.mark.parametrize("ruleset", ["rummy-2m", "simple-rummy"])
@pytest.mark.parametrize("players, words", BAD_ROSTERS, ids=[w for _, w in BAD_ROSTERS])
def test_new_session_refuses_a_bad_roster_and_creates_no_record(record, players, words, ruleset):
    r = ref("new-session", "--ruleset", ruleset, "--players", players)
    assert r.exit_code == 3, r.stdout + r.stderr
    assert words in r.stderr and "Traceback" not in r.stderr
    assert not record.exists()  # not even an empty database file


def test_ref_night_refuses_a_bad_roster_before_the_database_is_touched(record):
    r = ref("night", "--players", "Bi=ll,Ben,Larry", input="")
    assert r.exit_code == 3 and "U+003D EQUALS SIGN" in r.stderr
    assert not record.exists()


def test_a_roster_refused_on_an_existing_record_leaves_it_as_it_was(record):
    ref_json("new-session", "--game", "first", "--players", "Ann,Bob,Cy")
    before = record.snapshot()
    r = ref("new-session", "--game", "second", "--players", "Ann,\u0410nn,Cy")
    assert r.exit_code == 3 and "named twice" in r.stderr
    assert record.snapshot() == before


def test_nfc_and_nfd_spellings_are_one_player(record):
    opened = ref_json("new-session", "--players", f"{NFD_JOSE},Ann")
    assert [p["name"] for p in opened["players"]] == [NFC_JOSE, "Ann"]  # stored in NFC
    ref_json("score-hand", "--points", f"{NFC_JOSE}=5", "--points", "Ann=-5")
    ref_json("score-hand", "--points", f"{NFD_JOSE}=7", "--points", "Ann=0")
    totals = {p["name"]: p["total"] for p in ref_json("standings")["players"]}
    assert totals == {NFC_JOSE: 12, "Ann": -5}


def test_a_look_alike_of_a_roster_name_gets_a_did_you_mean(record):
    ref_json("new-session", "--players", "Ann,Bob")
    r = ref("score-hand", "--points", "\u0410nn=5", "--points", "Bob=0")
    assert r.exit_code == 4 and "did you mean Ann?" in r.stderr


def test_simple_rummy_a_look_alike_newcomer_is_the_player_already_seated(record):
    ref_json("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    ref_json("end-session")
    before = record.snapshot()
    r = ref("new-session", "--ruleset", "simple-rummy", "--players", "\u0410nn,Bob,Cy")
    assert r.exit_code == 3 and "is written 'Ann'" in r.stderr
    assert record.snapshot() == before


# -- names that AD>NAME would read as a kind of meld or a card ---------------------------------

NOTATION_ROSTERS = [
    ("rummy-2m", "Bill,Run,Larry", "'Run' cannot be a name: AD>Run would read as the kind of meld (run)",
     "Runa or Run-2"),
    ("rummy-2m", "W,AS,Larry", "'W' cannot be a name: AD>W would read as a WILDCARD", "Wa or W-2"),
    ("rummy-500", "Ann,set,Cy", "'set' cannot be a name: AD>set would read as the kind of meld (match)",
     "seta or set-2"),
    ("simple-rummy", "Ann,Bob,10h", "'10h' cannot be a name: AD>10h would read as the card 10H", "10ha or 10h-2"),
    ("gin", "Ann,AD", "'AD' cannot be a name: KS>AD would read as the card AD", "ADa or AD-2"),
]


def said(result) -> str:
    """stderr with its line wrapping undone."""
    return " ".join(result.stderr.split())


@pytest.mark.parametrize("ruleset, players, message, spellings", NOTATION_ROSTERS,
                         ids=[r for r, *_ in NOTATION_ROSTERS])
def test_new_session_refuses_a_name_that_reads_as_a_kind_or_a_card(record, ruleset, players, message, spellings):
    r = ref("new-session", "--ruleset", ruleset, "--players", players)
    assert r.exit_code == 3, r.stdout + r.stderr
    assert said(r) == f"error: {message} spell the name another way, e.g. {spellings}"
    assert not record.exists()  # not even an empty database file


def test_ref_night_refuses_a_name_that_reads_as_a_card_and_writes_nothing(record):
    r = ref("night", "--players", "W,AS,Larry", input="")
    assert r.exit_code == 3 and "'W' cannot be a name: AD>W would read as a WILDCARD" in said(r)
    assert not record.exists()


def test_a_new_game_with_such_a_name_leaves_the_record_as_it_was(record):
    ref_json("new-session", "--game", "first", "--players", "Ann,Bob,Cy")
    before = record.snapshot()
    r = ref("new-session", "--game", "second", "--players", "Ann,Match,Cy")
    assert r.exit_code == 3
    assert "'Match' cannot be a name: AD>Match would read as the kind of meld (match)" in said(r)
    assert record.snapshot() == before


def test_simple_rummy_refuses_such_a_newcomer_and_writes_nothing(record):
    ref_json("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    ref_json("end-session")
    before = record.snapshot()
    r = ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy,Joker")
    assert r.exit_code == 3 and "'Joker' cannot be a name: AD>Joker would read as a WILDCARD" in said(r)
    assert record.snapshot() == before


def test_a_designation_reaches_a_player_whose_name_passed(record):
    """The issue's hand with Run spelt Runa: Larry's AD>Runa joins Runa's aces (15), not the run."""
    ref_json("new-session", "--players", "Bill,Runa,Larry")
    data = ref_json("score-hand", "--melded", "Bill=2D 3D 4D", "--melded", "Runa=AH AS AC",
                    "--melded", "Larry=AD>Runa", "--held", "Bill=", "--held", "Runa=", "--held", "Larry=")
    assert data["totals"] == {"Bill": 9, "Runa": 45, "Larry": 15}


def test_a_record_already_holding_such_a_name_stays_usable(record, monkeypatch):
    """Only names joining a roster are checked: a roster written by an older ref is not
    re-checked when it is read, scored, or seated again."""
    from rummyref import names

    with monkeypatch.context() as older_ref:  # an older ref, without the check
        older_ref.setattr(names, "check_newcomers", lambda new: None)
        ref_json("new-session", "--game", "long", "--players", "Bill,Run,Larry")
        ref_json("new-session", "--game", "simple", "--ruleset", "simple-rummy", "--players", "Ann,Set,Cy")
        ref_json("end-session", "--game", "simple")
    data = ref_json("score-hand", "--game", "long", "--melded", "Bill=2D 3D 4D", "--melded", "Run=AH AS AC",
                    "--melded", "Larry=AD>AS", "--held", "Bill=", "--held", "Run=", "--held", "Larry=")
    assert data["totals"] == {"Bill": 9, "Run": 45, "Larry": 15}
    assert [p["name"] for p in ref_json("standings", "--game", "long")["players"]] == ["Run", "Larry", "Bill"]
    assert ref_json("history", "--game", "long")["entries"]
    opened = ref_json("new-session", "--game", "simple", "--ruleset", "simple-rummy", "--players", "Set,Ann,Cy")
    assert opened["table"]["players"] == ["Set", "Ann", "Cy"] and opened["newcomers"] == []
    ref_json("end-session", "--game", "simple")
    before = record.snapshot()
    r = ref("new-session", "--game", "simple", "--ruleset", "simple-rummy", "--players", "Set,Ann,Cy,Run")
    assert r.exit_code == 3 and "'Run' cannot be a name" in said(r)  # a newcomer is checked
    assert record.snapshot() == before


def test_a_name_or_game_name_too_long_to_export_is_refused_at_the_start_and_nothing_is_written(record):
    """A name ref accepts must survive its own export and import (which reads at most 1,000):
    a new name or game name is at most 100 characters."""
    long = "A" * 1001
    r = ref("new-session", "--players", f"{long},Bob")
    assert r.exit_code == 3 and r.stdout == "" and "1,001 characters, at most 100" in r.stderr
    r = ref("new-session", "--game", "G" * 1500)
    assert r.exit_code == 3 and "1,500 characters; at most 100" in r.stderr
    assert not record.exists()
    assert ref("new-session", "--players", f"{'A' * 100},Bob").exit_code == 0
