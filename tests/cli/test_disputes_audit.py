"""Disputes at an open table (stop 38's audit): the players are the roster, the game's own
rule set keeps its deck, a card's place at different values is the player's word, every
reading of a pick-up is a use, and two WILDCARDs are two cards."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

from rummyref.cards import parse_cards
from rummyref.disputes.engine import designate_ruling, discard_ruling, pickup_ruling
from rummyref.rules.ruleset import load_ruleset

R2M = load_ruleset("rummy-2m")


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-27T20:30:00+00:00")


def C(text: str):
    return parse_cards(text)


def flat(text: str) -> str:
    return " ".join(text.split())


def ok(*args: str):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


# -- --players at an open night: the roster (A1), in deal order where it is the deal (A3) ---------


@pytest.mark.parametrize("players, words", [
    ("Bill,Ben,Steve", "Steve is not on the roster of rummy-2m"),
    ("Bill,Ben,Lary", "'Lary' is not on the roster of rummy-2m (Bill, Ben, Larry); did you mean Larry?"),
    ("Bill,Ben", "--players leaves out Larry: every player of rummy-2m is at its table"),
])
def test_claim_players_off_the_roster_are_refused_and_nothing_is_written(record, players, words):
    ok("new-session")
    before = record.snapshot()
    result = ref("dispute", "claim", "--players", players, "--called", "Bill", "--touched", "Bill")
    assert result.exit_code == 4 and result.stdout == ""
    assert "refused (A1)" in result.stderr and words in flat(result.stderr)
    assert record.snapshot() == before


def test_claim_players_in_another_case_are_the_roster_and_the_same_dispute(record):
    ok("new-session")
    first = ref_json("dispute", "claim", "--players", "bill,ben,larry", "--called", "Bill", "--touched", "Bill")
    assert first["facts"] == ref_json("dispute", "claim", "--called", "Bill", "--touched", "Bill")["facts"]
    again = ref_json("dispute", "claim", "--players", "LARRY,Bill,ben", "--called", "Bill", "--touched", "Bill")
    assert len(again["precedents"]) == 2 and again["verdict"] == "Bill wins the Rummy! card."


def test_a_tie_with_a_player_left_out_is_not_the_table_deciding(record):
    """B8 (SPEC §8): Larry has no claim and judges; --players cannot leave him out."""
    ok("new-session")
    result = ref("dispute", "claim", "--players", "Bill,Ben", "--called", "Bill=Ben", "--touched", "Bill=Ben",
                 "--table-decides", "Ben")
    assert result.exit_code == 4 and "leaves out Larry" in result.stderr
    judged = ref_json("dispute", "claim", "--called", "Bill=Ben", "--touched", "Bill=Ben", "--judge-says", "Ben")
    assert judged["outcome"] == "judged"


def test_end_night_facts_in_another_deal_order_are_refused(record):
    ok("new-session")
    before = record.snapshot()
    result = ref("dispute", "end-night", "--hands", "1", "--players", "Larry,Ben,Bill", "--record")
    assert result.exit_code == 4 and "refused (A3)" in result.stderr
    assert "is not the deal order of rummy-2m (Bill, Ben, Larry)" in flat(result.stderr)
    assert record.snapshot() == before
    data = ref_json("dispute", "end-night", "--hands", "1", "--players", "bill,ben,larry", "--record")
    assert data["facts"]["roster"] == ["Bill", "Ben", "Larry"] and data["recorded"] is not None


@pytest.mark.parametrize("players, exit_code, words", [
    ("Bill,,Ben", 3, "--players 'Bill,,Ben': name 2 of 3 is empty"),
    ("AS,KH", 3, "'AS' cannot be a name: AD>AS would read as the card AS"),
    ("Ann,ann,Cy", 3, "named twice"),
])
def test_players_are_checked_as_new_session_checks_them(players, exit_code, words):
    """With no record (nothing is written anyway) the names are still names."""
    result = ref("dispute", "end-night", "--hands", "3", "--players", players)
    assert result.exit_code == exit_code and result.stdout == "" and words in flat(result.stderr)


def test_players_of_a_hypothetical_under_another_rule_set_are_free(record):
    """At an open rummy-2m night, a question under Simple Rummy's rules is no precedent of it."""
    ok("new-session")
    data = ref_json("dispute", "end-night", "--hands", "2", "--players", "Ann,Bob", "--ruleset", "simple-rummy")
    assert data["recorded"] is None and data["ruleset"] == "simple-rummy"


# -- --ruleset naming the game's own rule set keeps the game's deck (SPEC §2) ------------------------


def test_the_games_own_rule_set_named_keeps_its_wildcards(record):
    ok("new-session")  # no WILDCARDs
    before = record.snapshot()
    for extra in ((), ("--ruleset", "rummy-2m")):
        result = ref("dispute", "designate", "W", "--table", "4D 5D 6D", *extra)
        assert result.exit_code == 3 and "this game is played without WILDCARDs" in result.stderr
    assert record.snapshot() == before


def test_the_games_own_rule_set_named_keeps_a_one_wildcard_deck(record):
    ok("new-session", "--wildcards", "1")
    result = ref("dispute", "pickup", "7H", "--hand", "W W 7C", "--ruleset", "rummy-2m")
    assert result.exit_code == 3 and result.stdout == ""


# -- designate: a place of one kind at different values is the player's word (B5, SPEC §7) ---------


def test_an_ace_that_fits_two_runs_at_different_values_is_the_players_word():
    r = designate_ruling(C("AD")[0], [C("2D 3D 4D"), C("JD QD KD")], R2M)
    assert r.outcome == "player-says" and not r.settled
    assert r.verdict == ("AD can count 1 point or 15 points: the player says which run it joins (1 point at the "
                         "low end of 2D 3D 4D; 15 points at the high end of JD QD KD).")
    assert r.details["unsaid"]["value"] == 1 and r.details["counts_for"] is None
    assert [p["value"] for p in r.details["places"]] == [1, 15]


def test_an_ace_at_either_end_of_one_long_run_is_the_players_word():
    r = designate_ruling(C("AD")[0], [C("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")], R2M)
    assert r.outcome == "player-says"
    assert "at the low end of" in r.verdict and "at the high end of" in r.verdict


def test_one_value_in_either_run_is_settled():
    r = designate_ruling(C("5D")[0], [C("2D 3D 4D"), C("6D 7D 8D")], R2M)
    assert r.outcome == "one-way" and r.settled and r.verdict == "5D counts for the run 2D 3D 4D: 5 points."
    assert "the place decides only which run grows" in r.chain[-1].decided


def test_sideways_names_every_run_it_cuts_off():
    r = designate_ruling(C("10H")[0], [C("10S 10D 10C"), C("JH QH KH"), C("7H 8H 9H")], R2M, "match")
    assert r.outcome == "match"
    assert r.verdict == ("10H counts for the match 10S 10D 10C: 10 points; the run 7H 8H 9H is cut off at its high "
                         "end and the run JH QH KH at its low end (B6).")
    assert r.details["runs_cut_off"] == [{"run": "7H 8H 9H", "end": "high"}, {"run": "JH QH KH", "end": "low"}]


def test_run_or_match_with_runs_at_different_values_asks_which_run():
    r = designate_ruling(C("AD")[0], [C("2D 3D 4D"), C("JD QD KD"), C("AS AH AC")], R2M)
    assert r.outcome == "player-says"
    m = designate_ruling(C("AD")[0], [C("2D 3D 4D"), C("JD QD KD"), C("AS AH AC")], R2M, "match")
    assert m.outcome == "match" and m.details["counts_for"]["value"] == 15
    assert "1 point or 15 points in a run, 15 points in the match" in " ".join(s.decided for s in m.chain)


def test_a_question_of_where_is_not_kept_by_default(record):
    ok("new-session")
    before = record.snapshot()
    result = ref("dispute", "designate", "AD", "--table", "2D 3D 4D", "--table", "JD QD KD")
    assert result.exit_code == 0
    assert "it waits for the player to say where the card goes" in flat(result.stderr)
    assert record.snapshot() == before


# -- pickup: every reading is a use; a capped search says so -------------------------------------


def test_pickup_lists_the_ace_high_reading():
    r = pickup_ruling(C("AD")[0], C("KD"), [C("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD")], R2M)
    # AD at the low end (1 point) with KD at the high end is no use: AD would lie apart from
    # KD, laid by itself (B4, audit disputes45 #5); only the ace high, next to KD, uses it
    assert [u["value"] for u in r.details["uses"]] == [25]
    assert "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD" in r.verdict


def test_pickup_best_use_and_a_capped_search_said():
    r = pickup_ruling(C("7H")[0], C("AH 2H 3H 4H 5H 6H 8H 9H 10H JH QH KH 7S 7D 7C W W"), [], R2M)
    assert r.details["capped"] and r.details["uses"][0]["value"] == 99
    assert any("only the first 12 relevant hand cards were tried" in s.decided for s in r.chain)


# -- discard: W taken and W discarded in a deck of two WILDCARDs ----------------------------------


def test_two_wildcards_the_ruling_is_for_the_same_card_and_settles_nothing():
    w = C("W")[0]
    r = discard_ruling(w, w, going_out=True, ruleset=R2M)  # the rule set's limit: 2
    assert r.outcome == "illegal" and not r.settled
    assert r.verdict.startswith("If it is the same WILDCARD: not allowed: W may not be taken")
    assert "the facts do not say whether the W discarded is the one taken" in r.chain[-1].decided


def test_one_wildcard_it_is_the_same_card(record):
    ok("new-session", "--wildcards", "1")
    data = ref_json("dispute", "discard", "--took", "W", "--discarded", "W", "--going-out")
    assert data["outcome"] == "illegal" and data["settled"] and data["recorded"] is not None
    assert data["verdict"].startswith("Not allowed: W may not be taken")


def test_two_wildcards_at_the_table_is_not_kept_by_default(record):
    ok("new-session", "--wildcards", "2")
    before = record.snapshot()
    result = ref("dispute", "discard", "--took", "W", "--discarded", "W", "--going-out")
    assert result.exit_code == 0 and result.stdout.startswith("If it is the same WILDCARD")
    assert record.snapshot() == before


def test_a_question_aside_may_name_another_table(record):
    """--no-record: nothing is kept, so the players are the question's (as before the audit)."""
    ok("new-session")
    data = ref_json("dispute", "claim", "--players", "Ann,Bob", "--called", "Ann=Bob", "--touched", "Ann=Bob",
                    "--no-record")
    assert data["outcome"] == "table-decides" and data["recorded"] is None
