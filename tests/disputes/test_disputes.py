"""Disputes settled from the facts: every branch of every dispute's reasoning, in core and CLI."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import ref, ref_json

from rummyref.cards import parse_cards
from rummyref.disputes.engine import (
    claim_ruling,
    designate_ruling,
    discard_ruling,
    end_night_ruling,
    parse_order,
    pickup_ruling,
)
from rummyref.errors import NotFound, RuleRefusal, UnreadableInput
from rummyref.rules.ruleset import load_ruleset

R2M = load_ruleset("rummy-2m")
TABLE3 = ["Bill", "Ben", "Larry"]


def C(text: str):
    return parse_cards(text)


def card(text: str):
    return parse_cards(text)[0]


def claim(called, touched="", completed="", players=TABLE3, **kw):
    order = lambda t: parse_order(t, players, "test")  # noqa: E731
    return claim_ruling(players, order(called), order(touched), order(completed), **kw)


# -- B8 / B11 claims ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "called, touched, completed, kw, outcome, winner, rules",
    [
        # a call without a touch, or a touch without a call, is no claim
        ("Bill", "Ben", "", {}, "no-claim", None, ["B11"]),
        # one complete claimant among half-claimants
        ("Ben", "Ben,Bill", "", {}, "awarded", "Ben", ["B11", "B8"]),
        # first to complete both: called and touched first (B8)
        ("Bill,Ben", "Bill,Ben", "", {}, "awarded", "Bill", ["B8"]),
        # crossed orders settled by the stated completion order (B8)
        ("Bill,Ben", "Ben,Bill", "Ben,Bill", {}, "awarded", "Ben", ["B8"]),
        # called together, Ben touched first: Ben either way (B8 or B11)
        ("Bill=Ben", "Ben,Bill", "", {}, "awarded", "Ben", ["B8", "B11"]),
        # completed together, first touch wins (B11)
        ("Bill,Ben", "Ben,Bill", "Ben=Bill", {}, "awarded", "Ben", ["B8", "B11"]),
        # touches simultaneous too: the third player must judge (B8)
        ("Bill=Ben", "Bill=Ben", "", {}, "judge-decides", None, ["B8", "B11"]),
        # ... and the judgment is recorded
        ("Bill=Ben", "Bill=Ben", "", {"judge_says": "ben"}, "judged", "Ben", ["B8", "B11"]),
        # every player claims, all tied: no third player, the table decides
        ("Bill=Ben=Larry", "Bill=Ben=Larry", "", {}, "table-decides", None, ["B8", "B11"]),
        ("Bill=Ben=Larry", "Bill=Ben=Larry", "", {"table_decides": "Larry"}, "table-decided", "Larry", ["B8", "B11"]),
        # every player claims but one was clearly first: B8 settles it, no table needed
        ("Larry,Bill=Ben", "Larry,Bill=Ben", "", {}, "awarded", "Larry", ["B8"]),
        # all called together, two touched first together and one later: the same tie between
        # the first two whichever way the call and the touches interleaved (audit, stop 34)
        ("Bill=Ben=Larry", "Bill=Ben,Larry", "", {}, "table-decides", None, ["B8", "B11"]),
        ("Bill=Ben=Larry", "Bill=Ben,Larry", "", {"table_decides": "Ben"}, "table-decided", "Ben", ["B8", "B11"]),
    ],
)  # fmt: skip
def test_claim_chain(called, touched, completed, kw, outcome, winner, rules):
    result = claim(called, touched, completed, **kw)
    assert result.outcome == outcome
    assert result.details.get("winner") == winner
    assert list(result.rules) == rules
    assert result.chain and all(step.decided for step in result.chain)
    if winner:
        assert result.verdict == f"{winner} wins the Rummy! card."


def test_claim_judge_is_the_player_not_claiming():
    result = claim("Bill=Ben", "Bill=Ben")
    assert result.details["judge"] == ["Larry"]
    assert "Larry must judge" in result.verdict


def test_claim_two_first_touchers_among_three_callers_tie_and_the_fourth_judges():
    players = ["Bill", "Ben", "Larry", "Cy"]
    result = claim("Bill=Ben=Larry", "Bill=Ben,Larry", players=players)
    assert result.outcome == "judge-decides" and result.details == {"tied": ["Bill", "Ben"], "judge": ["Cy"]}
    assert "either way a tie between Bill and Ben" in result.chain[0].decided
    with pytest.raises(UnreadableInput, match="Larry is not one of the tied claimants"):
        claim("Bill=Ben=Larry", "Bill=Ben,Larry", players=players, judge_says="Larry")
    assert claim("Bill=Ben=Larry", "Bill=Ben,Larry", players=players, judge_says="Ben").details["winner"] == "Ben"


def test_claim_with_four_players_has_two_judges():
    result = claim("Ann=Bob", "Ann=Bob", players=["Ann", "Bob", "Cy", "Di"])
    assert result.details["judge"] == ["Cy", "Di"]


@pytest.mark.parametrize(
    "called, touched, completed, kw, message",
    [
        ("Bill,Ben", "Ben,Bill", "", {}, "cannot tell who completed"),  # crossed orders, no --completed
        ("Bill,Bob", "Bill", "", {}, r"'Bob' \(test\) is not at this table"),
        ("Bill,Bill", "Bill", "", {}, "listed twice"),
        ("Bill=Ben", "Bill=Ben", "", {"judge_says": "Larry"}, "Larry is not one of the tied claimants"),
        ("Bill=Ben", "Bill=Ben", "", {"judge_says": "Steve"}, r"'Steve' \(--judge-says\) is not at this table"),
        ("Bill,Ben", "Ben,Bill", "Ben", {}, "--completed does not place Bill"),
        ("", "", "", {}, "nobody called or touched"),
    ],
)
def test_claim_bad_facts(called, touched, completed, kw, message):
    with pytest.raises(UnreadableInput, match=message):
        claim(called, touched, completed, **kw)


def test_claim_key_is_the_same_for_the_same_dispute():
    a = claim("bill=BEN", "ben, bill")
    b = claim("Ben=Bill", "Ben,Bill")
    assert a.key == b.key
    assert a.key != claim("Bill=Ben", "Bill,Ben").key
    assert json.loads(a.key.split("|", 1)[1])["called"] == [["Bill", "Ben"]]


def test_claim_cli_text_and_json():
    result = ref("dispute", "claim", "--called", "Bill=Ben", "--touched", "Ben,Bill")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Ben wins the Rummy! card."
    assert lines[1] == "Why:"
    assert lines[2].startswith("  1. B8 ") and lines[3].startswith("           first (B8)")  # wrapped, hanging
    assert lines[4].startswith("  2. B11 ")
    data = ref_json("dispute", "claim", "--called", "Bill=Ben", "--touched", "Bill=Ben", "--judge-says", "Bill")
    assert data["kind"] == "claim" and data["outcome"] == "judged"
    assert data["details"]["winner"] == "Bill" and data["details"]["judge"] == ["Larry"]
    assert [s["rule"] for s in data["chain"]] == ["B8", "B11", "B8"]
    assert data["key"].startswith("claim|")


def test_claim_cli_every_player_claims_and_table_decides():
    data = ref_json("dispute", "claim", "-p", "Ann,Bob", "--called", "Ann=Bob", "--touched", "Ann=Bob", "--table-decides", "Bob")
    assert data["outcome"] == "table-decided" and data["details"]["winner"] == "Bob"
    assert "the rules are silent" in data["chain"][-2]["decided"]


def test_claim_cli_refuses_unreadable_facts():
    result = ref("dispute", "claim", "--called", "Bill,Ben", "--touched", "Ben,Bill")
    assert result.exit_code == 3
    assert "--completed" in result.stderr
    result = ref("dispute", "claim", "--called", "Bil", "--touched", "Bill")
    assert result.exit_code == 3 and "did you mean Bill" in result.stderr


# -- B5 / B6 run or match ----------------------------------------------------------------------


def test_designate_default_is_the_run():
    r = designate_ruling(card("3D"), [C("4D 5D 6D"), C("3S 3H 3C")], R2M)
    assert r.outcome == "run"
    assert [o["kind"] for o in r.details["options"]] == ["run", "match"]
    assert r.details["cuts_off"] is None
    assert any("nothing was designated" in s.decided for s in r.chain)
    assert r.rules == ("B5", "B6")


def test_designate_match_lays_it_sideways_and_cuts_the_run():
    r = designate_ruling(card("3D"), [C("4D 5D 6D"), C("3S 3H 3C")], R2M, "match")
    assert r.outcome == "match"
    assert r.details["cuts_off"] == "low"
    assert "cut off at its low end" in r.verdict
    assert r.chain[-1].rule == "B6"


def test_designate_ace_scores_1_low_in_the_run_15_in_the_match():
    run = designate_ruling(card("AD"), [C("2D 3D 4D"), C("AS AH AC")], R2M)
    assert (run.details["run_value"], run.details["match_value"]) == (1, 15)
    assert run.details["counts_for"]["value"] == 1
    assert any("changes the score" in s.decided for s in run.chain)
    match = designate_ruling(card("AD"), [C("2D 3D 4D"), C("AS AH AC")], R2M, "match")
    assert match.details["counts_for"]["value"] == 15


def test_designate_high_ace_cuts_the_high_end():
    r = designate_ruling(card("AD"), [C("QD KD JD"), C("AS AH AC")], R2M, "match")
    assert r.details["cuts_off"] == "high"
    assert r.details["run_value"] == 15


def test_designate_wildcard_stands_for_different_cards():
    r = designate_ruling(card("W"), [C("4D 5D 6D"), C("3S 3H 3C")], R2M)
    stands = [(o["kind"], o["stands_for"], o["value"]) for o in r.details["options"]]
    # the run at either end (3D below it, 7D above), the match as its missing 3D
    assert stands == [("run", "3D", 3), ("run", "7D", 7), ("match", "3D", 3)]
    # two places in the run at different values: the player's word; unsaid, the score's 7D
    assert r.outcome == "player-says" and r.details["unsaid"]["stands_for"] == "7D"
    said = designate_ruling(card("W"), [C("4D 5D 6D"), C("3S 3H 3C")], R2M, "match")
    assert (said.details["run_value"], said.details["match_value"]) == (7, 3)  # the run as the score reads it


def test_designate_one_way_and_no_meld():
    one = designate_ruling(card("7D"), [C("4D 5D 6D"), C("3S 3H 3C")], R2M)
    assert one.outcome == "one-way" and "no designation is needed" in one.chain[-1].decided
    none = designate_ruling(card("9C"), [C("4D 5D 6D")], R2M)
    assert none.outcome == "no-meld" and none.details["options"] == []


def test_designate_refusals():
    with pytest.raises(RuleRefusal) as info:
        designate_ruling(card("7D"), [C("4D 5D 6D")], R2M, "match")
    assert info.value.rule == "B5"
    # designated where no meld at all takes the card: the same refusal (was a 'no-meld' ruling)
    with pytest.raises(RuleRefusal, match="3D cannot count for a match") as info:
        designate_ruling(card("3D"), [C("4S 5S 6S")], R2M, "match")
    assert info.value.rule == "B5" and info.value.hint == "no meld on the table takes it"
    with pytest.raises(UnreadableInput, match="not a valid meld"):
        designate_ruling(card("7D"), [C("4D 9S 6D")], R2M)
    with pytest.raises(UnreadableInput, match="appears twice"):
        designate_ruling(card("4D"), [C("4D 5D 6D")], R2M)


@pytest.mark.parametrize("name, typed, otherwise", [
    ("3D", "4D 5D 6D / 3S 3H 3C", "3C 3H 3S / 6D 4D 5D"),
    ("5D", "2D 3D 4D / 6D 7D 8D", "8D 7D 6D / 4D 2D 3D"),  # two runs take it: the same one either way
    ("AD", "AS AH AC / 2D 3D 4D", "4D 3D 2D / AC AH AS"),
])  # fmt: skip
def test_designate_the_same_facts_typed_otherwise_rule_the_same_word_for_word(name, typed, otherwise):
    # a precedent is flagged [ruled differently] when the verdicts differ (audit, stop 34)
    def rule(table: str, designated: str | None):
        try:
            r = designate_ruling(card(name), [C(m) for m in table.split(" / ")], R2M, designated)
        except RuleRefusal as exc:
            return str(exc)
        return r.key, r.outcome, r.verdict, r.chain

    for designated in (None, "run", "match"):
        assert rule(typed, designated) == rule(otherwise, designated)


def test_designate_cli():
    result = ref("dispute", "designate", "3D", "--table", "4D 5D 6D", "--table", "3S 3H 3C", "--as", "match")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("3D counts for the match 3S 3H 3C: 3 points; the run is cut off at its low end (B6).")
    assert "Can join:" in result.stdout
    data = ref_json("dispute", "designate", "AD", "--table", "2D 3D 4D / AS AH AC")
    assert data["outcome"] == "run" and data["details"]["counts_for"]["value"] == 1
    assert data["facts"]["table"] == ["2D 3D 4D", "AS AH AC"]
    assert ref("dispute", "designate", "7D", "--table", "4D 5D 6D", "--as", "match").exit_code == 4
    assert ref("dispute", "designate", "7D", "--table", "4D 5D 6D", "--as", "set").exit_code == 3
    assert ref("dispute", "designate", "7X", "--table", "4D 5D 6D").exit_code == 3


# -- B4 pick-up ----------------------------------------------------------------------------------


def test_pickup_new_meld_with_hand_cards():
    r = pickup_ruling(card("7H"), C("7S 7D KC 2C"), [], R2M)
    assert r.outcome == "legal"
    assert r.details["uses"][0] == {"how": "new meld", "meld": "7S 7H 7D", "from_hand": "7S 7D", "on": None, "value": 21}


def test_pickup_lay_off_with_a_hand_card():
    r = pickup_ruling(card("7H"), C("8H 2C"), [C("9H 10H JH")], R2M)
    assert r.outcome == "legal"
    assert [u["how"] for u in r.details["uses"]] == ["lay off"]
    assert r.details["uses"][0]["on"] == "9H 10H JH"


def test_pickup_alone_on_the_table_is_not_enough():
    r = pickup_ruling(card("7H"), C("2C 3D KS"), [C("7S 7D 7C")], R2M)
    assert r.outcome == "illegal"
    assert any("may not be played alone" in s.decided for s in r.chain)


def test_pickup_with_no_use_at_all():
    r = pickup_ruling(card("7H"), C("2C 3D KS"), [], R2M)
    assert r.outcome == "illegal" and r.details["uses"] == []
    assert len(r.chain) == 1


def test_pickup_lists_every_use_best_first():
    r = pickup_ruling(card("7H"), C("7S 8H 9H W"), [C("4H 5H 6H")], R2M)
    values = [u["value"] for u in r.details["uses"]]
    assert values == sorted(values, reverse=True)
    assert r.details["uses_found"] == len(r.details["uses"]) == 11
    assert {"new meld", "lay off"} == {u["how"] for u in r.details["uses"]}


def test_pickup_big_hand_is_capped_not_slow():
    hand = C("AH 2H 3H 4H 5H 6H 8H 9H 10H JH QH KH W W")
    r = pickup_ruling(card("7H"), hand, [], R2M)
    assert r.outcome == "legal" and r.details["capped"] is True
    assert len(r.details["uses"]) <= 40


def test_pickup_cli():
    result = ref("dispute", "pickup", "7H", "--hand", "7S 8H 9H W", "--table", "4H 5H 6H")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Legal: 7H can be used")
    assert "Legal uses (11, most points first):" in result.stdout
    data = ref_json("dispute", "pickup", "7H", "--hand", "2C 3D", "--table", "7S 7D 7C")
    assert data["outcome"] == "illegal" and data["rules"] == ["B4"]
    assert ref("dispute", "pickup", "7H", "--hand", "7H 2C").exit_code == 3  # one deck


# -- B3 discard ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "took, discarded, going_out, outcome, rules",
    [
        (None, None, False, "illegal", ["B3"]),  # no discard, no end of turn
        ("7H", "7H", True, "illegal", ["B3"]),  # straight back to go out
        ("7H", "7H", False, "illegal", ["B4"]),  # straight back: the taken card was not used
        ("7H", "KC", True, "allowed", ["B3"]),
        (None, "KC", False, "allowed", ["B3"]),
        ("7H", "KS", False, "allowed", ["B3", "B8"]),  # a Rummy! card is discarded all the same
    ],
)
def test_discard(took, discarded, going_out, outcome, rules):
    r = discard_ruling(card(took) if took else None, card(discarded) if discarded else None, going_out, [C("QS JS 10S")], R2M)
    assert r.outcome == outcome
    assert list(r.rules) == rules
    if "B8" in rules:
        assert r.details["rummy_card_on"] == "QS JS 10S"


def test_discard_cli():
    result = ref("dispute", "discard", "--took", "7H", "--discarded", "h7", "--going-out")
    assert result.exit_code == 0
    assert result.stdout.startswith("Not allowed: 7H may not be taken from the Rummy Line")
    data = ref_json("dispute", "discard", "--took", "7H", "--discarded", "KS", "--table", "QS JS 10S")
    assert data["outcome"] == "allowed" and data["details"]["rummy_card_on"] == "QS JS 10S"
    assert ref("dispute", "discard", "--discarded", "7H 8H").exit_code == 3


def test_a_discard_asked_with_no_turn_is_not_kept_but_a_turn_without_a_discard_is():
    """``ref dispute discard`` with no facts asks the rule (B3); with a turn's facts it rules on it."""
    assert ref("new-session", "--players", "Bill,Ben,Larry").exit_code == 0
    asked = ref("dispute", "discard")
    assert asked.stdout.startswith("Not allowed: the turn cannot end without a discard.")
    assert "Not recorded (it answered a question and settled nothing" in asked.stderr
    ruled = ref("dispute", "discard", "--took", "7H")
    assert ruled.stdout.startswith("Not allowed: the turn cannot end without a discard.")
    assert "Recorded as a precedent" in ruled.stderr
    assert len(ref_json("rulings")["rulings"]) == 1


ONE_DECK = "but there is only one deck"


@pytest.mark.parametrize(
    "took, discarded, table, message",
    [
        (None, "8H", ["5H 6H 7H 8H"], f"the 8H appears twice (the discard and the table), {ONE_DECK}"),
        ("8H", "8H", ["8S 8D 8C", "5H 6H 7H 8H"], f"the 8H appears twice (the discard and the table), {ONE_DECK}"),
        # twice on the table, whatever was discarded: said as every dispute says it (audit, stop 37)
        ("7H", "9C", ["8S 8D 8C", "8S 8H 8C"], f"the 8S appears twice (in the table), {ONE_DECK}"),
        (None, "2C", ["8D 8D 8S"], f"the 8D appears twice (in the table), {ONE_DECK}"),
        (None, None, ["8S 8D 8C", "8S 8H 8C"], f"the 8S appears twice (in the table), {ONE_DECK}"),
        ("W", "W", ["W 8D 8C", "5H W 7H"], "3 WILDCARDs given, but the rules allow at most 2"),
        (None, "W", ["W 8D 8C", "5H 6H W"], "3 WILDCARDs given, but the rules allow at most 2"),
    ],
)
def test_discard_facts_are_one_deck(took, discarded, table, message):
    with pytest.raises(UnreadableInput) as info:
        discard_ruling(card(took) if took else None, card(discarded) if discarded else None, True, [C(m) for m in table],
                       R2M)
    assert info.value.message == message


@pytest.mark.parametrize(
    "took, discarded, table, outcome",
    [
        ("8H", "8H", [], "illegal"),  # taken and thrown straight back: one card, B3's own question
        ("8H", "9C", ["5H 6H 7H 8H"], "allowed"),  # the card taken was used at once (B4): on the table
        ("W", "9C", ["W 8D 8C", "5H W 7H"], "allowed"),  # the W taken is one of the table's
        ("W", "2C", ["W 8D 8C", "5H 6H W"], "allowed"),
    ],
)
def test_discard_facts_that_can_all_be_true_are_answered(took, discarded, table, outcome):
    r = discard_ruling(card(took), card(discarded), False, [C(m) for m in table], R2M)
    assert r.outcome == outcome


def test_discard_cli_refuses_a_card_in_two_places_and_keeps_nothing(record):
    assert ref("new-session").exit_code == 0
    before = record.snapshot()
    for args in (["--discarded", "8H", "--going-out", "--table", "5H 6H 7H 8H"],
                 ["--took", "8H", "--discarded", "8H", "--table", "8S 8D 8C / 5H 6H 7H 8H"]):
        r = ref("dispute", "discard", *args)
        assert (r.exit_code, r.stdout) == (3, "")
        assert " ".join(r.stderr.split()) == (
            f"error: the 8H appears twice (the discard and the table), {ONE_DECK} "
            "each card exists once; check for a typo in one of them")
    wild = ref("dispute", "discard", "--discarded", "W", "--table", "W 8D 8C / 5H 6H W")
    assert (wild.exit_code, wild.stdout) == (3, "")
    # the game was opened with no WILDCARDs: its deck holds none (SPEC §2)
    assert wild.stderr.splitlines()[0] == "error: 3 WILDCARDs given, but this game is played without WILDCARDs"
    for args in (("designate", "W", "--table", "5H 6H 7H"), ("pickup", "7H", "--hand", "W 8H")):
        one = ref("dispute", *args)
        assert (one.exit_code, one.stdout) == (3, "")
        assert one.stderr.splitlines()[0] == "error: 1 WILDCARD given, but this game is played without WILDCARDs"
    # the game's own rule set, named: still the game's deck (stop 38's audit)
    own = ref("dispute", "discard", "--discarded", "W", "--table", "W 8D 8C / 5H 6H W", "--ruleset", "rummy-2m")
    assert own.stderr.splitlines()[0] == "error: 3 WILDCARDs given, but this game is played without WILDCARDs"
    assert record.snapshot() == before
    assert ref_json("rulings")["rulings"] == []
    # taking a card and discarding it straight back is B3's question: answered, and kept
    back = ref_json("dispute", "discard", "--took", "8H", "--discarded", "8H")
    assert (back["outcome"], back["rules"]) == ("illegal", ["B4"])
    assert [r["kind"] for r in ref_json("rulings")["rulings"]] == ["discard"]


def test_rulings_cite_each_rule_once(record):
    """A verdict that ends citing a rule itself is not cited again: ``(B3, B8)``, not
    ``(B3) (B3, B8)`` (ref rulings, ref history, and a precedent beside a dispute)."""
    assert ref("new-session").exit_code == 0
    rummy_card = ["discard", "--took", "2C", "--discarded", "9S", "--going-out", "--table", "10S JS QS"]
    match = ["designate", "AD", "--table", "2D 3D 4D / AS AH AC", "--as", "match"]
    assert ref("dispute", *rummy_card).exit_code == 0
    assert ref("dispute", *match).exit_code == 0
    shown = " ".join(ref("rulings").stdout.split())
    assert ("Not allowed to go out: 9S is a Rummy! card. Discard it, the hand goes on, and wait for a card that "
            "can be discarded (B3, B8) facts:") in shown
    assert "AD counts for the match AS AH AC: 15 points; the run is cut off at its low end (B5, B6) facts:" in shown
    history = " ".join(ref("history").stdout.split())
    assert "can be discarded (B3, B8) facts:" in history and "at its low end (B5, B6) facts:" in history
    again = " ".join(ref("dispute", *rummy_card, "--no-record").stdout.split())
    assert "wait for a card that can be discarded (B3, B8)" in again
    for text in (shown, history, again):
        assert ") (B" not in text


# -- A4 ending the night ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hands, over, first, outcome, still",
    [
        (0, False, None, "allowed", None),
        (3, False, None, "allowed", None),
        (6, False, None, "allowed", None),
        (4, False, None, "refused", ["Ben", "Larry"]),
        (5, False, None, "refused", ["Larry"]),
        (5, True, None, "allowed", None),  # A7: the game is over
        (1, False, "Ben", "refused", ["Larry", "Bill"]),  # the night began with Ben's deal
    ],
)
def test_end_night(hands, over, first, outcome, still):
    r = end_night_ruling(TABLE3, hands, over, first)
    assert r.outcome == outcome
    assert r.details.get("still_to_deal") == still
    assert r.rules[-1] == ("A7" if over else "A4")
    assert r.allowed is (outcome == "allowed")


def test_end_night_bad_facts():
    with pytest.raises(UnreadableInput):
        end_night_ruling([], 3, False)
    with pytest.raises(UnreadableInput):
        end_night_ruling(TABLE3, -1, False)


def test_end_night_cli():
    result = ref("dispute", "end-night", "--hands", "4")
    assert result.exit_code == 0
    assert result.stdout.startswith("Refused (A4): the round is not over; still to deal: Ben and Larry.")
    data = ref_json("dispute", "end-night", "--hands", "2", "--players", "Ann,Bob")
    assert data["outcome"] == "allowed" and data["facts"]["roster"] == ["Ann", "Bob"]


# -- every result is recordable ------------------------------------------------------------------


def test_results_are_frozen_and_serialisable():
    results = [
        claim("Bill", "Bill"),
        designate_ruling(card("3D"), [C("4D 5D 6D")], R2M),
        pickup_ruling(card("7H"), C("7S 7D"), [], R2M),
        discard_ruling(card("7H"), card("KS")),
        end_night_ruling(TABLE3, 3, False),
    ]
    for r in results:
        with pytest.raises(AttributeError):
            r.verdict = "x"  # type: ignore[misc]
        d = r.to_dict()
        assert json.loads(json.dumps(d)) == d
        assert d["key"].startswith(r.kind + "|")
    assert len({r.key for r in results}) == len(results)


@pytest.mark.parametrize("sub", ["claim", "designate", "pickup", "discard", "end-night"])
def test_every_dispute_help_has_an_example(sub):
    result = ref("dispute", sub, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and f"ref dispute {sub}" in result.stdout


# -- SPEC §8 decisions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "called, touched, judge",
    [
        ("Bill=Ben=Larry", "Bill=Ben", ["Larry"]),  # Larry only called: no claim, so he judges (B8)
        ("Bill=Ben", "Bill=Ben=Larry", ["Larry"]),  # Larry only touched: the same
    ],
)
def test_b8_a_player_who_only_called_or_only_touched_may_judge_the_tie(called, touched, judge):
    result = claim(called, touched)
    assert result.outcome == "judge-decides" and result.details["judge"] == judge
    assert "Larry must judge it" in result.verdict
    assert claim(called, touched, judge_says="Ben").details == {"winner": "Ben", "judge": judge}


def test_b8_the_table_decides_only_when_every_player_has_a_claim():
    assert claim("Bill=Ben=Larry", "Bill=Ben=Larry").outcome == "table-decides"
    with pytest.raises(UnreadableInput, match="Larry is not one of the tied claimants"):
        claim("Bill=Ben=Larry", "Bill=Ben", judge_says="Larry")


@pytest.mark.parametrize(
    "ruling",
    [
        lambda t: designate_ruling(card("7H"), t, R2M),
        lambda t: pickup_ruling(card("7H"), C("6H 2C"), t, R2M),
        lambda t: discard_ruling(card("7H"), card("KS"), False, t, R2M),
    ],
    ids=["designate", "pickup", "discard"],
)
def test_b4_b5_every_dispute_refuses_a_table_meld_that_is_no_meld(ruling):
    with pytest.raises(UnreadableInput) as exc:
        ruling([C("4H 5H")])
    assert exc.value.message == "table meld 1 (4H 5H) is not a valid meld"
    assert ruling([C("4H 5H 3H")]).kind in ("designate", "pickup", "discard")


@pytest.mark.parametrize("sub", [["pickup", "7H", "--hand", "6H 2C"], ["designate", "7H"],
                                 ["discard", "--took", "7H", "--discarded", "KS"]])
def test_b4_the_issue_example_at_the_command_line_is_exit_3(sub):
    r = ref("dispute", *sub, "--table", "4H 5H", "--no-record")
    assert r.exit_code == 3 and "table meld 1 (4H 5H) is not a valid meld" in r.stderr


def test_b3_going_out_by_discarding_a_rummy_card_is_refused_discard_it_and_wait():
    r = discard_ruling(card("2C"), card("9S"), True, [C("10S JS QS")], R2M)
    assert r.outcome == "illegal" and r.allowed is False
    assert r.verdict.startswith("Not allowed to go out: 9S is a Rummy! card.")
    assert "the hand goes on" in r.verdict and "wait for a card that can be discarded" in r.verdict
    assert r.details["rummy_card_on"] == "10S JS QS" and r.rules == ("B3", "B8")
    # the same discard not going out is a discard like any other; going out with another card ends the hand
    assert discard_ruling(card("2C"), card("9S"), False, [C("10S JS QS")], R2M).outcome == "allowed"
    ends = discard_ruling(card("2C"), card("4D"), True, [C("10S JS QS")], R2M)
    assert ends.outcome == "allowed" and "and the hand" in ends.verdict


def test_b3_going_out_with_a_rummy_card_at_the_command_line():
    data = ref_json("dispute", "discard", "--took", "2C", "--discarded", "9S", "--going-out", "--table", "10S JS QS")
    assert data["outcome"] == "illegal" and "Rummy! card" in data["verdict"]


@pytest.mark.parametrize(
    "result, settled",
    [
        (lambda: claim("Bill", "Bill"), True),
        (lambda: claim("Bill=Ben", "Bill=Ben"), False),  # waiting for Larry's judgment
        (lambda: claim("Bill=Ben", "Bill=Ben", judge_says="Ben"), True),
        (lambda: claim("Ann=Bob", "Ann=Bob", players=["Ann", "Bob"]), False),  # waiting for the table
        (lambda: designate_ruling(card("3D"), [C("4D 5D 6D"), C("3S 3H 3C")], R2M), True),
        (lambda: designate_ruling(card("3D"), [], R2M), False),  # no table: only an answer
        (lambda: pickup_ruling(card("7H"), C("7S 7D"), [], R2M), True),
        (lambda: discard_ruling(card("7H"), card("KS")), True),
        (lambda: end_night_ruling(TABLE3, 3, False), False),  # "can we stop?"
        (lambda: end_night_ruling(TABLE3, 4, False), False),
    ],
)
def test_each_ruling_says_whether_it_settled_something_at_the_table(result, settled):
    r = result()
    assert r.settled is settled and r.to_dict()["settled"] is settled
    assert "settled" not in r.key  # the same dispute is the same dispute, settled or not


def test_settled_is_in_the_json_of_ref_dispute():
    assert ref_json("dispute", "end-night", "--hands", "3", "--no-record")["settled"] is False
    assert ref_json("dispute", "claim", "--called", "Bill", "--touched", "Bill", "--no-record")["settled"] is True


# -- the rule set's own rules (the audit of ref dispute) -------------------------------------------


@pytest.mark.parametrize("name", ["simple-rummy", "gin", "rummy-500"])
def test_a_rule_set_without_the_b_rules_has_no_such_dispute(name):
    rs = load_ruleset(name)
    bill = parse_order("Bill", TABLE3, "test")
    for ruling in (lambda: claim_ruling(TABLE3, bill, bill, ruleset=rs),
                   lambda: designate_ruling(card("3D"), [C("4D 5D 6D")], rs),
                   lambda: pickup_ruling(card("7H"), C("7S 7D"), [], rs),
                   lambda: discard_ruling(card("7H"), card("KS"), ruleset=rs)):
        with pytest.raises(NotFound, match=re.escape(f"{rs.title} ({name}) has no such rule")):
            ruling()


@pytest.mark.parametrize("name, word", [("simple-rummy", "game"), ("gin", "hand"), ("rummy-500", "hand")])
def test_end_night_without_full_rounds_may_end_after_any_hand(name, word):
    r = end_night_ruling(TABLE3[:2] if name == "gin" else TABLE3, 4, False, ruleset=load_ruleset(name))  # Gin: two (G1)
    assert r.outcome == "allowed" and r.rules == () and r.ruleset == name and not r.settled
    assert r.verdict.endswith(f"may end after any {word}.")


def test_every_ruling_names_its_rule_set():
    assert discard_ruling(card("7H"), card("KS")).ruleset == "rummy-2m"
    assert claim("Bill", "Bill").ruleset == "rummy-2m"
    assert end_night_ruling(TABLE3, 4, False).to_dict()["ruleset"] == "rummy-2m"


@pytest.mark.parametrize("args, where", [
    (("pickup", "7H", "--hand", "7H KS"), "7H appears twice (in the card taken and the hand)"),
    (("pickup", "7H", "--hand", "7C 8H 9H KS", "--table", "7S 7D 7C"), "7C appears twice (in the hand and the table)"),
    (("pickup", "7H", "--hand", "KS 8H KS"), "KS appears twice (in the hand)"),
    (("designate", "7H", "--table", "7H 7S 7D"), "7H appears twice (in the card and the table)"),
])
def test_a_card_given_twice_names_the_places_it_is_in(args, where):
    r = ref("dispute", *args, "--no-record")
    assert (r.exit_code, r.stdout) == (3, "")
    assert " ".join(r.stderr.split()).startswith(f"error: the {where}, {ONE_DECK}")
