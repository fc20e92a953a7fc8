"""Audit disputes45: the --completed hint (#4), a card taken laid on a run (#5), designate's
places (#8), and "table" never cited as a rule (#11)."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json


def refused(*args: str):
    r = ref(*args)
    assert r.exit_code == 3 and r.stdout == "", (r.exit_code, r.stdout, r.stderr)
    return r.stderr


def words(text: str) -> str:
    return " ".join(text.split())


# -- 4. the --completed hint names the players of the dispute, in orders the facts allow ---------


def test_the_completed_hint_names_the_tables_own_players():
    err = refused("dispute", "claim", "--players", "Ann,Bob,Cy", "--called", "Ann=Bob,Cy", "--touched", "Cy,Ann=Bob")
    assert words(err) == (
        "error: cannot tell who completed both the call and the touch first among Ann, Bob and Cy "
        'say it with --completed, e.g. --completed "Ann=Bob,Cy" (Ann and Bob together first) or '
        '"Cy,Ann=Bob" (Cy first)')


def test_the_completed_hint_suggests_only_orders_the_facts_allow():
    err = refused("dispute", "claim", "--called", "Bill,Ben", "--touched", "Bill=Ben")
    assert words(err) == (
        "error: cannot tell who completed both the call and the touch first among Bill and Ben "
        'say it with --completed, e.g. --completed "Bill,Ben" (Bill first) or "Bill=Ben" (Bill and Ben together)')
    # Ben first is the order ref refuses: Bill called first and they touched together
    assert "Ben cannot have completed both first" in refused(
        "dispute", "claim", "--called", "Bill,Ben", "--touched", "Bill=Ben", "--completed", "Ben,Bill")


@pytest.mark.parametrize(
    "players, called, touched",
    [("Ann,Bob,Cy", "Ann=Bob,Cy", "Cy,Ann=Bob"), ("Bill,Ben,Larry", "Bill,Ben", "Bill=Ben"),
     ("Ann,Bob,Cy,Dee", "Ann,Bob,Cy,Dee", "Bob,Ann,Cy,Dee"), ("Ann,Bob,Cy", "Ann,Bob,Cy", "Cy,Bob,Ann")],
)
def test_every_order_the_hint_suggests_is_answered(players, called, touched):
    import re

    args = ("dispute", "claim", "--players", players, "--called", called, "--touched", touched)
    hint = words(refused(*args))
    suggested = re.findall(r'"([^"]+)" \(', hint)
    assert len(suggested) == 2
    for order in suggested:
        assert ref(*args, "--completed", order, "--no-record").exit_code == 0, order


# -- 5. a card taken and laid on a run lies next to a card of the hand (B4) -----------------------


def pickup(*args: str):
    r = ref("dispute", "pickup", *args, "--no-record")
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_a_hand_card_at_the_other_end_of_the_run_does_not_use_the_card_taken():
    assert words(pickup("4H", "--hand", "8H KS", "--table", "5H 6H 7H")) == (
        "Not legal: 4H cannot be used with any card of the taker's hand. Why: "
        "1. B4 no meld holds 4H together with at least one card of the hand "
        "2. B4 4H could be laid on 5H 6H 7H by itself, but a card taken from the Rummy Line may not be played alone "
        "3. B4 8H could be laid on 5H 6H 7H too, but not next to 4H: a card of the hand laid apart from it in the run "
        "does not use it")
    data = ref_json("dispute", "pickup", "4H", "--hand", "8H KS", "--table", "5H 6H 7H", "--no-record")
    assert data["outcome"] == "illegal" and data["details"]["uses"] == []


def test_a_hand_card_next_to_the_card_taken_uses_it_and_may_bring_one_for_the_other_end():
    assert pickup("4H", "--hand", "3H 8H", "--table", "5H 6H 7H").splitlines()[-3:] == [
        "Legal uses (2, most points first):",
        "  lay off on 5H 6H 7H: 3H 4H 5H 6H 7H 8H  (from hand: 3H 8H; 15 points)",
        "  lay off on 5H 6H 7H: 3H 4H 5H 6H 7H  (from hand: 3H; 7 points)",
    ]
    assert words(pickup("8H", "--hand", "9H", "--table", "5H 6H 7H")).startswith(
        "Legal: 8H can be used with the taker's own cards (lay it off with 9H on 5H 6H 7H -> 5H 6H 7H 8H 9H). Why:")


def test_a_wildcard_of_the_hand_is_seated_next_to_the_card_taken():
    assert words(pickup("4H", "--hand", "W", "--table", "5H 6H 7H")).startswith(
        "Legal: 4H can be used with the taker's own cards (lay it off with W on 5H 6H 7H -> W(=3H) 4H 5H 6H 7H). Why:")


def test_a_wildcard_on_the_table_is_not_moved_to_make_room():
    # 5H 6H 7H W(=8H) 9H would move the W another player laid as 6H
    assert words(pickup("6H", "--hand", "9H", "--table", "5H W 7H")) == (
        "Not legal: 6H cannot be used with any card of the taker's hand. Why: "
        "1. B4 no meld holds 6H together with at least one card of the hand")


# -- 8. designate: one run is named once, and a card another player laid is never moved ---------


def designate(*args: str):
    r = ref("dispute", "designate", *args, "--no-record")
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_the_tables_ace_at_the_low_end_stays_there():
    assert words(designate("KD", "--table", "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD")) == (
        "KD counts for the run AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD: 10 points. Why: "
        "1. B5 KD can join the run AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD (as KD, 10 points) "
        "2. B5 only a run takes it, so no designation is needed "
        "Can join: the run AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD -> AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD (10)")
    data = ref_json("dispute", "designate", "KD", "--table", "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD", "--no-record")
    assert [o["becomes"] for o in data["details"]["options"]] == ["AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"]


def test_one_run_with_two_ends_is_named_once_with_both_ends():
    out = words(designate("AD", "--table", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"))
    assert ("1. B5 AD can join the run 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD (as AD, 1 point at its low end; "
            "as AD, 15 points at its high end)") in out


def test_the_place_decides_which_run_grows_only_where_there_are_two_runs():
    # the run named is the one ref score-hand grows: spades before hearts (SPEC §7; round8 #1)
    assert words(designate("W", "--table", "AH 2H 3H", "--table", "AS 2S 3S")) == (
        "W counts for the run AS 2S 3S: 4 points. Why: "
        "1. B5 W can join the run AH 2H 3H (as 4H, 4 points); the run AS 2S 3S (as 4S, 4 points) "
        "2. B5 only a run takes it, and it is worth 4 points wherever it goes: the place decides only which run grows "
        "Can join: the run AH 2H 3H -> AH 2H 3H W(=4H) (4) the run AS 2S 3S -> AS 2S 3S W(=4S) (4)")


def test_a_wildcard_the_table_laid_is_not_moved_to_take_a_card():
    # 6H would take the place of the W laid as 6H: it joins no meld (the W is not moved to 8H)
    assert words(designate("6H", "--table", "5H W 7H")).startswith(
        "6H cannot be laid on any meld on the table. Why: 1. B5 6H joins no meld on the table")


# -- 11. the table's decision is no rule: "table" is never cited ----------------------------------

TIE3 = ("dispute", "claim", "--called", "Bill=Ben=Larry", "--touched", "Bill=Ben=Larry", "--table-decides", "Ben")


def test_the_tables_decision_is_a_step_with_no_rule():
    r = ref(*TIE3, "--no-record")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[-1] == "  4.       the table decided for Ben; the decision is recorded"
    data = ref_json(*TIE3, "--no-record")
    assert data["rules"] == ["B8", "B11"]
    assert data["chain"][-1] == {"rule": "", "decided": "the table decided for Ben; the decision is recorded"}


def test_ref_rulings_cites_the_rules_alone():
    assert ref("new-session").exit_code == 0
    assert ref(*TIE3).exit_code == 0
    out = ref("rulings").stdout
    assert "    Ben wins the Rummy! card (B8, B11)" in out.splitlines()
    [kept] = ref_json("rulings")["rulings"]
    assert kept["rules"] == ["B8", "B11"] and kept["ruling"]["rules"] == ["B8", "B11"]


def test_a_precedent_kept_citing_table_reads_as_citing_the_rules_alone():
    from rummyref.rulebook.precedents import Precedent

    old = Precedent("rummy-2m", 3, "2026-11-27T20:30:00", 1, 1, 1, {
        "kind": "claim", "outcome": "table-decided", "verdict": "Ben wins the Rummy! card.",
        "rules": ["B8", "B11", "table"], "facts": {}})
    assert old.rules == ("B8", "B11")
    assert old.cited() == "Ben wins the Rummy! card (B8, B11)"
    assert old.to_dict()["rules"] == ["B8", "B11"]
    assert old.to_dict()["ruling"]["rules"] == ["B8", "B11", "table"]  # what was stored stays as it was
