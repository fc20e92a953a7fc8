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
