"""``AD>AS``: a claimed card said to join the meld of a card of its claimer's own '/' group of
one or two cards lays that group's meld with it (SPEC §7; docs/guide/the-table-as-melds.md).
Larry melded ``AS AH / 2S 3S 4S / 2D 3D 4D / 2H 3H 4H`` and claimed the AD; Ben holds the 9C.
``AD>AS`` was refused ("no meld holding the AS takes the AD"), and the note on the hand with a
bare AD suggested ``AD>Larry``, which puts the AD on Larry's own run of diamonds. At the
command line, with ``--json``, in ``ref history``, ``ref amend`` and ``ref night``."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json
from table_strategies import printed
from test_night import CLAIMS, CONFIRM, HELD, MELD, OUT, PROMPT, Night, flat, night_db  # noqa: F401

PLAYERS = "Bill,Ben,Larry"
LARRY = "Larry=AS AH / 2S 3S 4S / 2D 3D 4D / 2H 3H 4H"
HELD_9C = ["--held", "Bill=", "--held", "Ben=9C", "--held", "Larry="]
#: By hand: the match AS AH AD, 15 each, 45 (the AD's 15 claimed); the runs 2-3-4, 9 each, 27;
#: Larry 72. Laid off low on his runs, the aces are 1 each: 27 + 3 = 30. Ben holds 9: -9.
MATCH, LAID_OFF = 72, 30
NOTE = ("Note: Larry's AS AH / were laid off, as the '/' says; with Larry's claimed AD they could lay a match "
        "(Larry 72 rather than 30): AD>AS says so")


@pytest.fixture
def game():
    assert ref("new-session", "--players", PLAYERS).exit_code == 0


def totals() -> dict[str, int]:
    return {p["name"]: p["total"] for p in ref_json("standings")["players"]}


def test_ad_to_the_as_lays_the_match_of_aces(game):
    r = ref("score-hand", "--melded", LARRY, "--claim", "Larry=AD>AS", *HELD_9C)
    assert r.exit_code == 0, r.stderr
    melds, credits = printed(r.stdout)
    assert [(m["cards"], m["value"], m["how"]) for m in melds][0] == (
        [("AS", "Larry"), ("AH", "Larry"), ("AD*", "Larry")], 45, "said by the table (Larry's AD>AS)")
    assert credits == {"Bill": 0, "Ben": -9, "Larry": MATCH}
    text = flat(r.stdout)
    assert ("Larry: AS AH AD* 45 (match AS AH AD*) + 2S 3S 4S 9 (run 2S 3S 4S) + 2H 3H 4H 9 (run 2H 3H 4H) "
            "+ 2D 3D 4D 9 (run 2D 3D 4D) = 72") in text
    assert "as the '/' says" not in text
    assert totals() == {"Bill": 0, "Ben": -9, "Larry": MATCH}
    history = flat(ref("history", "--last", "1").stdout)
    assert "AS AH AD* (Larry) [match, 45] said by the table (Larry's AD>AS)" in history
    assert ref("verify").exit_code == 0


def test_ad_to_larry_and_to_the_as_differ_and_the_note_says_which(game):
    """``AD>Larry``: his run of diamonds holds his cards and takes the AD; the note says what
    the match would be worth and suggests ``AD>AS``, which, typed, lays it."""
    r = ref("score-hand", "--melded", LARRY, "--claim", "Larry=AD>Larry", *HELD_9C)
    assert r.exit_code == 0, r.stderr
    assert "AD* 2D 3D 4D (Larry) [run, ace low, 10]" in flat(r.stdout)
    assert totals()["Larry"] == LAID_OFF
    r = ref("score-hand", "--melded", LARRY, "--claim", "Larry=AD", *HELD_9C)
    assert NOTE in flat(r.stdout)
    assert totals()["Larry"] == 2 * LAID_OFF
    r = ref("score-hand", "--melded", LARRY, "--claim", "Larry=AD>AS", *HELD_9C)
    assert r.exit_code == 0, r.stderr
    assert totals()["Larry"] == 2 * LAID_OFF + MATCH


def test_the_same_with_json(game):
    result = ref_json("score-hand", "--melded", LARRY, "--claim", "Larry=AD>AH", *HELD_9C)
    scores = {s["name"]: (s["melded"], s["claimed"], s["held"], s["points"]) for s in result["score"]["scores"]}
    assert scores == {"Bill": (0, 0, 0, 0), "Ben": (0, 0, 9, -9), "Larry": (57, 15, 0, MATCH)}
    match = next(m for m in result["score"]["arrangement"] if m["kind"] == "group")
    assert [(c["card"], c["by"], c["value"], c["claimed"], c["shown"]) for c in match["laid"]] == [
        ("AS", "Larry", 15, False, "AS"), ("AH", "Larry", 15, False, "AH"), ("AD", "Larry", 15, True, "AD*")]
    assert match["typed"] == ["AS", "AH", "AD>AH"]
    assert (match["value"], match["decided"]) == (45, "table")
    assert result["score"]["notes"] == []


def test_amend_the_bare_ad_to_ad_to_the_as(game):
    first = ref_json("score-hand", "--melded", LARRY, "--claim", "Larry=AD", *HELD_9C)
    assert first["totals"]["Larry"] == LAID_OFF
    r = ref("amend", "1", "--melded", LARRY, "--claim", "Larry=AD>AS", *HELD_9C, "--reason", "Larry laid the aces")
    assert r.exit_code == 0, r.stderr
    assert "AS AH AD* (Larry) [match, 45] said by the table (Larry's AD>AS)" in flat(r.stdout)
    assert totals() == {"Bill": 0, "Ben": -9, "Larry": MATCH}
    assert ref("verify").exit_code == 0


def test_the_hand_typed_in_a_night(night_db):  # noqa: F811
    """At the claims prompt, ``Larry=AD>AS`` reads as ``--claim`` reads it."""
    n = Night("--db", night_db, "--players", PLAYERS)
    n.answer(PROMPT, "cards")
    for name, melded, held in (("Bill", "", ""), ("Ben", "", "9C"), ("Larry", LARRY.split("=", 1)[1], "")):
        n.answer(MELD.format(name), melded)
        n.answer(HELD.format(name), held)
    n.answer(OUT, "")
    n.answer(CLAIMS, "Larry=AD>AS")
    shown = flat(n.answer(CONFIRM, ""))
    assert "AS AH AD* (Larry) [match, 45] said by the table (Larry's AD>AS)" in shown
    assert "Larry: AS AH AD* 45 (match AS AH AD*)" in shown
    n.expect(PROMPT)
    n.child.sendline("quit")
    assert n.finish() == 0
    standings = ref_json("standings", "--db", night_db)
    assert {p["name"]: p["total"] for p in standings["players"]} == {"Bill": 0, "Ben": -9, "Larry": MATCH}
