"""A claimed card said to join the meld of a card of its claimer's own '/' group of one or two
cards (``AD>AS`` with ``AS AH /``): the group laid its meld, and the claimed card is in it
(SPEC §7; docs/guide/the-table-as-melds.md). ``AD>AS`` was refused ("no meld holding the AS
takes the AD": the AD, said to join the meld of a card of its rank, was read as laid sideways
on a match already there, and none was), though it is the first thing a player types for "the
AD joined the AS's meld", and the note for a group laid off suggested ``AD>Larry``, which
does not always say it."""

from __future__ import annotations

from collections import Counter

import pytest

from rummyref.errors import RuleRefusal
from rummyref.games.long.scoring import score_from_json, score_hand, score_to_json
from rummyref.games.long.table import read_hand
from rummyref.rules.ruleset import load_ruleset

RS = load_ruleset("rummy-2m")
ROSTER = ("Bill", "Ben", "Larry")
NOBODY = ("Bill=", "Ben=", "Larry=")
#: Larry's AS AH / and his own runs of spades, diamonds and hearts from the 2; Ben holds the 9C
OWN_RUNS = ["Larry=AS AH / 2S 3S 4S / 2D 3D 4D / 2H 3H 4H"]
BEN_9C = ("Bill=", "Ben=9C", "Larry=")
#: Larry's AS AH / and 5S 5D 5H; Bill's runs from the 2 in spades, hearts and diamonds
BILLS_RUNS = ["Larry=AS AH / 5S 5D 5H", "Bill=2S 3S 4S 2H 3H 4H 2D 3D 4D"]


def score(melded, claims, held=NOBODY, wildcards=2):
    facts = read_hand(ROSTER, melded, held, claims)
    s = score_hand(facts, RS, wildcards, ROSTER)
    assert sum(p.melded + p.claimed for p in s.scores) == sum(m.value for m in s.arrangement)
    typed = Counter((str(c.card), n, False) for n, p in facts.players for c in p.laid)
    typed += Counter((str(c.card), n, True) for n, c in facts.claims)
    assert Counter((c.card, c.by, c.claimed) for m in s.arrangement for c in m.laid) == typed
    return s


def melds(s) -> list[tuple[str, int]]:
    return [(m.cards_shown(), m.value) for m in s.arrangement]


@pytest.mark.parametrize("claim", ["Larry=AD>AS", "Larry=AD>AH", "Larry=AD>AS>Larry"])
def test_a_card_of_the_group_says_the_group_laid_its_meld_with_the_claim(claim):
    """By hand: the match AS AH AD is 15 each, 45 (the AD 15 of it claimed); the runs 2-3-4 are
    9 each: Larry 27 + 45 = 72, Ben -9. The AD lies upright: one of the three that laid it."""
    s = score(OWN_RUNS, [claim], BEN_9C)
    assert s.points() == {"Bill": 0, "Ben": -9, "Larry": 72}
    [larry] = [p for p in s.scores if p.name == "Larry"]
    assert (larry.melded, larry.claimed) == (57, 15)
    assert ("AS AH AD*", 45) in melds(s)
    [match] = [m for m in s.arrangement if m.kind == "group"]
    assert match.decided == "table"
    assert not [n for n in s.notes if "as the '/' says" in n]


def test_where_larry_and_a_card_of_the_group_differ_the_card_puts_the_ad_with_the_as():
    """``>Larry`` says the AD joined a meld holding Larry's cards: his own run of diamonds takes
    it, and the aces are laid off low on his runs (1 each: 9 * 3 + 1 * 3 = 30). ``>AS`` puts it
    with the AS: the match (72). The note on the first says so, and suggests ``AD>AS``."""
    by_name = score(OWN_RUNS, ["Larry=AD>Larry"], BEN_9C)
    assert by_name.points()["Larry"] == 30
    assert ("AD* 2D 3D 4D", 10) in melds(by_name)
    assert [n for n in by_name.notes if "as the '/' says" in n] == [
        "Larry's AS AH / were laid off, as the '/' says; with Larry's claimed AD>Larry they could lay a match "
        "(Larry 72 rather than 30): AD>AS says so"]
    assert score(OWN_RUNS, ["Larry=AD>AS"], BEN_9C).points()["Larry"] == 72


@pytest.mark.parametrize("claim, note", [
    ("Larry=AD", "AD>AS says so"),
    ("Larry=W", "W>AS says so"),
    ("Larry=W=AD", "W=AD>AS says so"),
])
def test_the_note_for_a_group_laid_off_suggests_what_lays_the_meld(claim, note):
    """What the note suggests, typed, lays the match: Larry 60 (the aces 45 and the fives 15)."""
    s = score(BILLS_RUNS, [claim])
    [said] = [n for n in s.notes if "as the '/' says" in n]
    assert said.endswith(f": {note}")
    suggested = claim.split("=", 1)[0] + "=" + note.split()[0]
    again = score(BILLS_RUNS, [suggested])
    assert again.points()["Larry"] == 60
    assert not [n for n in again.notes if "as the '/' says" in n]


def test_a_wildcard_sent_to_the_group_stands_for_the_card_it_lays_the_match_with():
    """``W>AS``: the WILDCARD, read as the AD (the one ace left), is one of the three, upright."""
    s = score(BILLS_RUNS, ["Larry=W>AS"])
    assert ("AS AH W(=AD)*", 45) in melds(s)
    assert s.points()["Larry"] == 60


def test_a_second_card_sent_to_the_group_is_laid_off_on_its_match_sideways():
    """Two claims to the aces: one lays the match with them, the other is laid off on it, sideways
    (B6): four aces 60, the fives 15: Larry 75."""
    s = score(BILLS_RUNS, ["Larry=AD>AS", "Larry=AC>AH"])
    assert ("AS AH AD* AC^*", 60) in melds(s)
    assert s.points()["Larry"] == 75


def test_the_kept_arrangement_shows_the_card_upright_again():
    """``ref history`` shows the arrangement kept with the hand: the AD upright there too."""
    s = score(BILLS_RUNS, ["Larry=AD>AS"])
    kept = score_from_json(score_to_json(s))
    assert [m.cards_shown() for m in kept.arrangement] == [m.cards_shown() for m in s.arrangement]
    assert "AS AH AD*" in [m.cards_shown() for m in kept.arrangement]


def test_another_players_card_sent_to_the_group_joins_the_meld_where_that_card_sits():
    """Ben's 5S>AS is not Larry's claim: it joins the meld where the AS sits, as before. With
    Larry's bare AD the aces are laid off low on Bill's runs and Ben's 5S on the spades (AS 2S
    3S 4S 5S: Ben 5, Larry 1 + 1 + 1 + 27); with Larry's AD>AS the AS is in the match of aces,
    which takes no 5S: Ben's designation is refused. Ben's AC>AS joins the match, sideways."""
    table = ["Larry=AS AH / 9S 9D 9H", "Bill=2S 3S 4S 2H 3H 4H 2D 3D 4D", "Ben=5S>AS"]
    s = score(table, ["Larry=AD"])
    assert ("AS 2S 3S 4S 5S", 15) in melds(s)
    assert s.points() == {"Bill": 27, "Ben": 5, "Larry": 30}
    with pytest.raises(RuleRefusal) as exc:
        score(table, ["Larry=AD>AS"])
    assert exc.value.message == "Ben's 5S>AS (--melded) cannot be: no meld holding the AS takes the 5S"
    s = score(BILLS_RUNS, ["Larry=AD>AS", "Ben=AC>AS"])
    assert ("AS AH AD* AC^*", 60) in melds(s)
    assert s.points() == {"Bill": 27, "Ben": 15, "Larry": 60}


def test_a_card_that_lays_no_meld_with_the_group_joins_the_meld_where_that_card_sits():
    """Larry's claimed 8C>QC lays no meld with his QC KC: it joins the meld where the QC sits,
    Ben's run 9C 10C JC, with the QC KC laid off (8 + 10 + 10, Larry 28 and his fives 15)."""
    s = score(["Larry=QC KC / 5S 5D 5H", "Ben=9C 10C JC"], ["Larry=8C>QC"])
    assert ("8C* 9C 10C JC QC KC", 57) in melds(s)
    assert s.points() == {"Bill": 0, "Ben": 29, "Larry": 43}


def test_a_card_of_the_group_lays_the_run_where_the_group_could_be_laid_off():
    """``JC>QC`` with Ben's 8C 9C 10C down: Larry's JC QC KC are his own run (30), Ben's 27;
    the bare JC lays them off on Ben's run, the same points."""
    s = score(["Larry=QC KC / 5S 5D 5H", "Ben=8C 9C 10C"], ["Larry=JC>QC"])
    assert ("JC* QC KC", 30) in melds(s) and ("8C 9C 10C", 27) in melds(s)
    assert s.points() == {"Bill": 0, "Ben": 27, "Larry": 45}


def test_a_refusal_where_the_group_lays_its_meld_gives_the_true_reason():
    """Larry's KD>KS: his KS KH lay the match of kings with it; then Ben's AS>KS has no place
    (the KS is in a match). Without the KD's designation the kings are laid off on Bill's runs
    and every card sits. The reason said "no meld holding the KS takes the KD": the match does."""
    table = ["Larry=KS KH / 5S 5D 5H", "Bill=QS JS 10S QH JH 10H QD JD 10D", "Ben=AS>KS"]
    for claim in ("Larry=KD>KS", "Larry=KD>Larry"):
        with pytest.raises(RuleRefusal) as exc:
            score(table, [claim])
        assert exc.value.message == (f"Larry's {claim.split('=')[1]} (--claim) cannot be: with it the cards on the "
                                     "table cannot all sit in melds; without it they can")
        assert exc.value.rule == "B5"
    assert score(table, ["Larry=KD"]).points() == {"Bill": 90, "Ben": 15, "Larry": 45}


@pytest.mark.parametrize(("melded", "claims", "group"), [
    (OWN_RUNS, ["Larry=AD>match"], "AS AH"),
    (["Larry=AS / 2S 3S 4S / 2D 3D 4D / 2H 3H 4H"], ["Larry=AD>match", "Larry=AC"], "AS"),
])
def test_a_claim_said_to_join_a_match_it_lays_with_the_group_says_so(melded, claims, group):
    """Larry's AD>match with his AS AH /: '>match' says the AD joined a match already there,
    and none is: the AD lays the match of aces itself, with the group. The reason said only "no
    match on the table takes the AD"; now it says why, and how to say it (``AD>AS``)."""
    with pytest.raises(RuleRefusal) as exc:
        score(melded, claims, BEN_9C)
    assert exc.value.message == (
        f"Larry's AD>match (--claim) cannot be: no match on the table takes the AD; it lays a match itself "
        f"with Larry's {group} /, and '>' says it joined a match already there")
    assert exc.value.rule == "B5"
    assert exc.value.hint == f"say AD>AS for the match it lays with {group}"
    said = [c.replace("AD>match", "AD>AS") for c in claims]
    assert ("AS AH AD*" if group == "AS AH" else "AS AD* AC*", 45) in melds(score(melded, said, BEN_9C))


def test_a_claim_said_to_join_a_run_is_not_told_to_lay_the_groups_match():
    """AD>run: the AD joins Larry's run of diamonds, and the group is laid off on his runs
    (Larry 30: the runs 1-2-3-4 are 10 each, the AD's 1 of it claimed)."""
    s = score(OWN_RUNS, ["Larry=AD>run"], BEN_9C)
    assert s.points() == {"Bill": 0, "Ben": -9, "Larry": 30}
