"""Faults the audit of stop 41's changes found (audit stop41, findings 3, 4 and 6): the column
of a card after a comma at the night's claims question, ``AD>KD`` under a house rule set whose
aces are never high, and a lone stated group in the hand shown before an amend."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json, ref_subprocess
from rich.console import Console

from rummyref.errors import RuleRefusal
from rummyref.games.long.render import history_lines
from rummyref.games.long.scoring import score_hand
from rummyref.games.long.table import read_hand
from rummyref.rules.ruleset import load_ruleset

ROSTER = ("Bill", "Ben", "Larry")
LONG = "Larry=2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"


def test_a_card_after_commas_at_the_claims_question_is_at_the_column_typed(tmp_path):
    """``Larry=5D, 6D, W=7``: the 7 is at column 11 after ``Larry=``, as ``--claim`` says."""
    db = str(tmp_path / "ref.db")
    typed = ["cards", "2D 3D 4D", "", "", "", "", "", "", "Larry=5D, 6D, W=7", "Larry=5D, 6D", "", "quit"]
    r = ref_subprocess("--db", db, "night", "--wildcards", "2", input="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stderr
    night = " ".join(r.stderr.split())
    assert "unreadable card '7' in Larry's cards at the claims prompt (card 3, column 11)" in night
    assert ref_json("history", "--db", db)["entries"][-1]["results"] == {"Bill": 9, "Ben": 0, "Larry": 11}
    db2 = str(tmp_path / "two.db")
    assert ref("new-session", "--db", db2, "--wildcards", "2").exit_code == 0
    r2 = ref("score-hand", "--db", db2, "--melded", "Bill=2D 3D 4D", "--claim", "Larry=5D, 6D, W=7",
             "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r2.exit_code == 3
    assert "(card 3, column 11)" in " ".join(r2.stderr.split())


@pytest.fixture
def aces_low(tmp_path: Path):
    text = (Path(__file__).parents[3] / "data" / "rulesets" / "rummy-2m.toml").read_text(encoding="utf-8")
    assert "aces_high = true" in text
    path = tmp_path / "low.toml"
    path.write_text(text.replace("aces_high = true", "aces_high = false"), encoding="utf-8")
    return load_ruleset(str(path))


@pytest.mark.parametrize("ben", ["AD>KD", "W=AD>KD", "AD"])
def test_an_ace_beside_the_king_where_aces_are_never_high_sits_low_in_that_meld(aces_low, ben):
    """Aces never high: ``>KD`` names the meld holding the KD, which takes the AD at its low
    end (1); it was refused as "no meld holding the KD takes the AD"."""
    facts = read_hand(ROSTER, [f"{LONG} /", f"Ben={ben}"], ("Bill=", "Ben=", "Larry="))
    assert score_hand(facts, aces_low, 2, ROSTER).points()["Ben"] == 1


def test_a_wildcard_said_to_be_an_ace_nothing_takes_is_named_with_an():
    with pytest.raises(RuleRefusal) as exc:
        score_hand(read_hand(ROSTER, ["Larry=5D 6D 7D /", "Ben=W=AD>7D"], ("Bill=", "Ben=", "Larry=")),
                   load_ruleset("rummy-2m"), 2, ROSTER)
    assert "takes the W as an AD" in exc.value.message


def test_the_hand_shown_before_an_amend_keeps_a_lone_group_s_slash():
    """``Larry=QC KC /`` (laid off, not his own meld) is shown with its '/' (it was shown as
    ``QC KC``, which reads as Larry's own cards)."""
    facts = {"form": "cards", "version": 2, "out": None, "claims": [],
             "players": {"Bill": {"melded": [["9C", "10C", "JC"]], "held": [], "designated": False},
                         "Ben": {"melded": [], "held": ["4D"], "designated": False},
                         "Larry": {"melded": [["QC", "KC"]], "held": [], "designated": True}}}
    buf = io.StringIO()
    history_lines(facts, [], ROSTER, Console(file=buf, width=80), load_ruleset("rummy-2m"), arranged=False)
    shown = buf.getvalue().splitlines()
    assert "    Larry: melded QC KC /; held -" in shown
    assert "    Bill: melded 9C 10C JC; held -" in shown


@pytest.mark.parametrize("roster", [("Bill", "Zoe", "Émile"), ("Émile", "Bill", "Zoe"), ("Zoe", "Émile", "Bill")])
def test_alphabetical_order_reads_accented_names_by_their_letters(roster):
    """Two bare WILDCARDs laid off on Bill's JH QH KH: the player first in alphabetical order
    gets the lower place (10H, 10), the other the AH (15). Émile comes before Zoe (audit
    stop41, finding 2: by code point É came after z), whatever the roster's order."""
    facts = read_hand(roster, ["Bill=JH QH KH", "Zoe=W", "Émile=W"], ("Bill=", "Émile=", "Zoe="))
    points = score_hand(facts, load_ruleset("rummy-2m"), 2, roster).points()
    assert (points["Émile"], points["Zoe"]) == (10, 15)


def test_a_card_sent_to_a_match_that_lays_a_run_itself_is_told_so():
    """Larry's claimed ``JC^`` with his ``QC KC /``: the JC lays a run with them, not a match;
    the refusal said "no match takes the JC but one it lays itself" (audit stop41, finding 7)."""
    with pytest.raises(RuleRefusal) as exc:
        score_hand(read_hand(ROSTER, ["Larry=QC KC / 5S 5D 5H"], ("Bill=", "Ben=", "Larry="), ["Larry=JC^"]),
                   load_ruleset("rummy-2m"), 2, ROSTER)
    assert exc.value.message == ("Larry's JC^ (--claim) cannot be: no match on the table takes the JC; it lays "
                                 "a run itself, and '^' says it joined a match already there")
    assert exc.value.rule == "B5"


AS_AH = ["Larry=AS AH / 5S 5D 5H", "Bill=2S 3S 4S 2H 3H 4H 2D 3D 4D"]
HELD3 = ("Bill=", "Ben=3C", "Larry=")


def test_a_group_laid_off_that_could_lay_a_meld_worth_otherwise_gets_a_note():
    """Larry's ``AS AH /`` and his claimed AD: the table seats with the aces laid off low on
    Bill's runs (1 each: Larry 18), as the '/' says, and ref lays the group off; laid as a
    match with the AD they are worth 45 (Larry 60). A note says so and how to say it (audit
    stop41, finding 5); said, the table is seated so, with no note."""
    rs = load_ruleset("rummy-2m")
    s = score_hand(read_hand(ROSTER, AS_AH, HELD3, ["Larry=AD"]), rs, 2, ROSTER)
    assert s.points()["Larry"] == 18
    assert [n for n in s.notes if "laid off, as the '/' says" in n] == [
        "Larry's AS AH / were laid off, as the '/' says; with Larry's claimed AD they could lay a match "
        "(Larry 60 rather than 18): AD>AS says so"]
    for claim in ("Larry=AD>AS", "Larry=AD>Larry"):
        said = score_hand(read_hand(ROSTER, AS_AH, HELD3, [claim]), rs, 2, ROSTER)
        assert said.points()["Larry"] == 60
        assert not [n for n in said.notes if "as the '/' says" in n]


def test_no_note_where_the_group_laid_off_is_worth_the_same():
    """Ben's ``8C 9C 10C``, Larry's ``QC KC /`` and claimed JC: laid off on Ben's run or laid as
    Larry's own run, Larry's cards count 30 either way."""
    s = score_hand(read_hand(ROSTER, ["Larry=QC KC / 5S 5D 5H", "Ben=8C 9C 10C"], ("Bill=", "Ben=", "Larry="),
                             ["Larry=JC"]), load_ruleset("rummy-2m"), 2, ROSTER)
    assert s.points()["Larry"] == 45
    assert not [n for n in s.notes if "as the '/' says" in n]
