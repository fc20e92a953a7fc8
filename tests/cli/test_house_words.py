"""A house's own ``[words]`` (docs/reference/ruleset-format.md) in every message (audit of
rule sets, finding 6): a copy of rummy-2m.toml that says ``deal`` for a hand, ``set`` for a
group (match) and ``straight`` for a sequence (run) is told in those words by score-hand,
amend, standings, history, end-session, the disputes and ``ref night``; JSON keeps ref's
own values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import ref
from test_night import MELD, PROMPT, Night, flat, night_db  # noqa: F401

from rummyref.rules.resources import data_dir

HAND = ["--melded", "Bill=AS 2S 3S", "--held", "Bill=KS", "--melded", "Ben=9H 9D 9C", "--out", "Ben",
        "--held", "Larry=QD JD"]


@pytest.fixture
def words(tmp_path: Path) -> str:
    text = (data_dir() / "rulesets" / "rummy-2m.toml").read_text(encoding="utf-8")
    text = (text.replace("[words]\n", '[words]\nhand = "deal"\n').replace('group = "match"', 'group = "set"')
            .replace('sequence = "run"', 'sequence = "straight"'))
    path = tmp_path / "words.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def ok(*args: str) -> str:
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout


def test_score_hand_says_the_house_words(words):
    ok("new-session", "--ruleset", words)
    out = ok("score-hand", *HAND).splitlines()
    assert out[0] == "Deal 1 of rummy-2m: Rummy Night 1, deal 1 of the night, Bill dealt (entry 3)"
    assert out[1] == "player ┃ melded ┃ claimed ┃ held ┃ deal ┃ total"
    assert out[6:] == [
        "Arrangement used: each card with who laid it",
        "  AS 2S 3S (Bill)  [straight, ace low, 6] arranged by ref (the engine)",
        "  9H 9D 9C (Ben)  [set, 27] arranged by ref (the engine)",
        "Credits (each card where it sits, minus the cards held):",
        "  Bill: AS 2S 3S 6 (straight AS 2S 3S) - KS 10 held = -4",
        "  Ben: 9H 9D 9C 27 (set 9H 9D 9C) = 27",
        "  Larry: nothing laid - QD JD 20 held = -20",
        "Next: Ben deals (deal 2 of round 1).",
    ]


def test_the_json_keeps_refs_own_values(words):
    ok("new-session", "--ruleset", words)
    data = json.loads(ok("score-hand", *HAND, "--json"))
    assert [(m["kind"], m["note"]) for m in data["score"]["arrangement"]] == [
        ("sequence", "run, ace low"), ("group", "match")]
    assert "hand" in data and "hand_in_night" in data


def test_standings_amend_history_and_end_session_say_the_house_words(words):
    ok("new-session", "--ruleset", words)
    ok("score-hand", *HAND)
    standings = ok("standings").splitlines()
    assert standings[0] == "rummy-2m (rummy-2m), target 2,000,000: 1 deal over 1 Rummy Night"
    assert standings[1].split()[-2:] == ["deals", "avg/deal"]
    assert "Rummy Night 1 is open: Ben deals the next deal (A3)." in standings
    assert standings[-1].startswith("  night 1 (") and standings[-1].endswith(
        ", 1 deal): winner (night in progress); Bill -4, Ben 27, Larry -20")
    amended = ok("amend", "1", *HAND[:2], "--held", "Bill=", *HAND[4:], "--reason", "KS was melded").splitlines()
    assert amended[0] == "Deal 1 (amended) of rummy-2m: Rummy Night 1, deal 1 of the night, Bill dealt (entry 4)"
    assert "  Bill: AS 2S 3S 6 (straight AS 2S 3S) = 6" in amended
    history = ok("history").splitlines()
    assert "entry 4: deal 1, night 1 deal 1, Bill dealt AMENDS entry 3" in history
    assert "      AS 2S 3S (Bill)  [straight, ace low, 6] arranged by ref (the engine)" in history
    assert "      Ben: 9H 9D 9C 27 (set 9H 9D 9C) = 27" in history
    assert ok("history", "--session", "1").splitlines()[-1].startswith("Rummy Night 1: 1 deal; ")
    r = ref("void", "1", "--reason", "misdeal")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("Deal 1 (voided) of rummy-2m")
    r = ref("void", "1", "--reason", "again")
    assert r.exit_code == 4
    assert flat(r.stderr) == ("refused (B7): deal 1 was voided (entry 5) a voided deal stays voided; record what "
                              "happened as a new deal")


def test_end_session_counts_deals(words):
    ok("new-session", "--ruleset", words, "--players", "Bill,Ben")
    for _ in range(2):
        ok("score-hand", "--points", "Bill=10", "--points", "Ben=5")
    assert ok("end-session").splitlines()[0] == "Rummy Night 1 of rummy-2m is closed: 2 deals, 1 full round."


def test_dispute_designate_says_the_house_words(words):
    r = ref("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--ruleset", words, "--no-record")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == [
        "AD counts for the straight 2D 3D 4D: 1 point.",
        "Why:",
        "  1. B5    AD can join the straight 2D 3D 4D (as AD, 1 point); the set AS AH AC (as AD, 15 points)",
        "  2. B5    nothing was designated, so AD counts for the straight 2D 3D 4D",
        "  3. B5    the choice changes the score: 1 point in the straight, 15 points in the set",
        "  4. B6    not played on the set, so nothing is laid sideways and the straight stays open",
        "Can join:",
        "  the straight 2D 3D 4D -> AD 2D 3D 4D (1)",
        "  the set AS AH AC -> AS AH AD AC (15)",
    ]
    said = ref("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--ruleset", words, "--no-record",
               "--as", "set")
    assert said.stdout.splitlines()[0] == ("AD counts for the set AS AH AC: 15 points; the straight is cut off at "
                                           "its low end (B6).")
    data = json.loads(ref("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--ruleset", words,
                          "--no-record", "--as", "set", "--json").stdout)
    assert data["facts"]["designated"] == "match" and data["outcome"] == "match"
    bad = ref("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--ruleset", words, "--no-record",
              "--as", "run2")
    assert bad.exit_code == 3
    assert flat(bad.stderr) == "error: --as: 'run2' is neither straight nor set use --as straight or --as set"


def test_the_built_in_words_are_unchanged():
    ok("new-session")
    out = ok("score-hand", *HAND).splitlines()
    assert out[0] == "Hand 1 of rummy-2m: Rummy Night 1, hand 1 of the night, Bill dealt (entry 3)"
    assert "  AS 2S 3S (Bill)  [run, ace low, 6] arranged by ref (the engine)" in out
    assert "  Ben: 9H 9D 9C 27 (match 9H 9D 9C) = 27" in out
    assert ok("standings").splitlines()[0] == "rummy-2m (rummy-2m), target 2,000,000: 1 hand over 1 Rummy Night"


def test_ref_night_says_the_house_words(words, night_db):  # noqa: F811
    n = Night("--db", night_db, "--ruleset", words)
    shown = n.answer(PROMPT, "cards")
    assert "Next: deal 1 of Rummy Night 1 (deal 1 of rummy-2m): Bill deals." in flat(shown)
    n.answer(MELD.format("Bill"), "AS 2S 3S")
    n.answer("Bill left in hand (cards; blank: none): ", "KS")
    n.answer(MELD.format("Ben"), "9H 9D 9C")
    n.answer("Ben left in hand (cards; blank: none): ", "")
    n.answer(MELD.format("Larry"), "")
    n.answer("Larry left in hand (cards; blank: none): ", "QD JD")
    n.answer("Who went out? (name; blank: nobody): ", "Ben")
    n.answer("Rummy! claims (NAME=CARD, comma between; blank: none): ", "")
    preview = n.answer("Record it? (Enter: yes / fix NAME / drop): ", "")
    assert "Deal 1 (Bill dealt), if recorded:" in preview
    assert "[straight, ace low, 6]" in preview and "(set 9H 9D 9C)" in preview
    written = n.answer(PROMPT, "end")  # mid-round: refused (A4), in the house's words
    assert "Recorded: deal 1 of rummy-2m, deal 1 of the night (entry 3)." in flat(written)
    refused = n.expect(PROMPT)
    assert "there is no 'last deal' call" in flat(refused)
    n.child.sendeof()
    n.finish()


