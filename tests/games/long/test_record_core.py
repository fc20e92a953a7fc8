"""The pure core of the record: scoring from facts, the session structure, names, the chain."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from rummyref.chain import GENESIS, entry_hash
from rummyref.errors import DuplicateCard, RuleRefusal
from rummyref.games.long.nights import (
    check_end_of_session,
    dealer_of,
    game_outcome,
    pace,
    round_state,
    seating_dibs,
)
from rummyref.games.long.scoring import (
    PointsFacts,
    facts_from_json,
    facts_to_json,
    score_hand,
)
from rummyref.games.long.table import read_hand
from rummyref.names import resolve_name
from rummyref.rules.ruleset import load_ruleset

RS = load_ruleset("rummy-2m")
ROSTER = ("Bill", "Ben", "Larry")


def facts(out=None, claims=(), **players):
    """The hand as score-hand's options would give it: NAME=(melded, held)."""
    melded = [f"{n}={m}" for n, (m, _h) in players.items() if m]
    held = [f"{n}={h}" for n, (_m, h) in players.items() if h]
    return read_hand(ROSTER, melded, held, [f"{n}={c}" for n, c in claims], out)


@pytest.mark.parametrize(
    "melded, value",
    [
        ("AS 2S 3S", 6),  # ace low: 1
        ("QS KS AS", 35),  # ace high: 15
        ("AS AH AD", 45),  # a match of aces: 15 each
        ("7S 8S W", 7 + 8 + 9),  # the WILDCARD counts the card it stands for
        ("10H JH QH KH", 40),
    ],
)
def test_melded_values(melded, value):
    score = score_hand(facts(Bill=(melded, "")), RS, 2, ROSTER)
    assert score.scores[0].melded == value


@pytest.mark.parametrize("held, value, penalty", [("KS 2C", 12, 0), ("AS", 15, 0), ("W 3C", 18, 15), ("W W", 30, 30)])
def test_held_values(held, value, penalty):
    s = score_hand(facts(Ben=("", held)), RS, 2, ROSTER).scores[1]
    assert (s.held, s.wild_penalty, s.points) == (value, penalty, -value)


def test_b5_a_card_for_run_or_match_counts_for_the_run_unless_designated():
    undesignated = score_hand(facts(Bill=("3D 3S 3H 3C 4D 5D 6D", "")), RS, 0, ROSTER)
    kinds = sorted((m.kind, len(m.cards)) for m in undesignated.arrangement)
    assert kinds == [("group", 3), ("sequence", 4)]  # the 3D went to the run
    designated = score_hand(facts(Bill=("3D 3S 3H 3C / 4D 5D 6D", "")), RS, 0, ROSTER)
    kinds = sorted((m.kind, len(m.cards)) for m in designated.arrangement)
    assert kinds == [("group", 4), ("sequence", 3)]
    assert all(m.designated for m in designated.arrangement)


def test_lay_offs_and_claims_arranged_across_the_table():
    f = facts(Bill=("8C 9C 10C", ""), Ben=("QC", "2D"), claims=[("Larry", "JC")])
    score = score_hand(f, RS, 0, ROSTER)
    assert [s.points for s in score.scores] == [27, 10 - 2, 10]
    assert score.scores[2].claimed == 10


def test_one_deck_across_the_table():
    with pytest.raises(DuplicateCard):
        score_hand(facts(Bill=("7S 7H 7D", ""), Larry=("", "7S")), RS, 0, ROSTER)


def test_unmeldable_cards_are_named():
    with pytest.raises(RuleRefusal, match="KD"):
        score_hand(facts(Bill=("7S 7H 7D KD", "")), RS, 0, ROSTER)


def test_points_need_every_player():
    assert score_hand(PointsFacts((("Bill", 3), ("Ben", 4), ("Larry", -1))), RS, 0, ROSTER).points() == {
        "Bill": 3, "Ben": 4, "Larry": -1}


def test_facts_round_trip_through_json():
    f = facts(out="Larry", claims=[("Ben", "5H")], Bill=("AS AH AD / 2S 3S 4S", "KS"), Larry=("9D 9C 9H", ""))
    assert facts_from_json(facts_to_json(f), ROSTER) == f


def test_dealer_and_rounds():
    assert [dealer_of(i, ROSTER) for i in range(1, 8)] == ["Bill", "Ben", "Larry", "Bill", "Ben", "Larry", "Bill"]
    s = round_state(4, ROSTER)
    assert (s.rounds, s.in_round, s.next_dealer, s.still_to_deal) == (1, 1, "Ben", ("Ben", "Larry"))
    assert not round_state(6, ROSTER).mid_round


def test_a4_end_check():
    check_end_of_session(3, ROSTER, game_over=False)
    check_end_of_session(0, ROSTER, game_over=False)
    with pytest.raises(RuleRefusal, match="Larry still has to deal") as exc:
        check_end_of_session(5, ROSTER, game_over=False)
    assert exc.value.rule == "A4"
    assert check_end_of_session(5, ROSTER, game_over=True).mid_round


@pytest.mark.parametrize(
    "totals, over, winner, tied",
    [
        ([("Bill", 1_999_999), ("Ben", 5)], False, None, ()),
        ([("Bill", 2_000_000), ("Ben", 5)], True, "Bill", ()),
        ([("Bill", 2_000_010), ("Ben", 2_000_020), ("Larry", 0)], True, "Ben", ()),
        ([("Bill", 2_000_010), ("Ben", 2_000_010), ("Larry", 0)], False, None, ("Bill", "Ben")),
        ([("Bill", 2_000_010), ("Ben", 2_000_010), ("Larry", 2_000_011)], True, "Larry", ()),
    ],
)
def test_a7_outcome(totals, over, winner, tied):
    o = game_outcome(totals, 2_000_000)
    assert (o.over, o.winner, o.tied) == (over, winner, tied)


def test_a2_dibs():
    dibs = seating_dibs([("Bill", 10), ("Ben", 30), ("Larry", 20)])
    assert [(d.name, d.seat) for d in dibs] == [("Ben", "first pick"), ("Larry", "second pick"), ("Bill", "the floor")]


def test_pace_projection_assumes_a_weekly_night():
    p = pace(points=300, nights=3, to_go=1000, last_night=date(2026, 1, 1), today=date(2026, 1, 3))
    assert p.per_night == 100 and p.nights_to_go == 10
    assert p.projected == date(2026, 1, 8) + timedelta(days=63)  # next night a week after the last, then nine more weeks
    assert pace(points=-5, nights=2, to_go=10, last_night=None, today=date(2026, 1, 1)).nights_to_go is None


@pytest.mark.parametrize("points, nights, to_go, want", [
    (13, 3, 65, 15),  # 15 nights of 13/3 make exactly 65: floating point said 15.000000000000002 -> 16
    (115, 7, 115_000, 7_000), (1, 3, 1, 3), (2, 3, 1, 2), (7, 1, 1_999_999, 285_715),
])
def test_nights_to_go_is_exact_where_the_pace_reaches_the_target_on_the_night(points, nights, to_go, want):
    """Audit, stop 35: nights to go (and the target date) were one night late where
    ``to_go / (points / nights)`` is a whole number."""
    got = pace(points=points, nights=nights, to_go=to_go, last_night=None, today=date(2026, 1, 1)).nights_to_go
    assert got == want
    assert got * points >= to_go * nights > (got - 1) * points  # the first night at or past the target


def test_names_are_resolved_against_the_roster():
    assert resolve_name("larry", ROSTER, "g") == "Larry"
    with pytest.raises(RuleRefusal, match="did you mean Bill"):
        resolve_name("Bil", ROSTER, "g")
    with pytest.raises(RuleRefusal, match="GEDDOWWWT!!") as exc:
        resolve_name("Steve", ROSTER, "g")
    assert exc.value.rule == "A1"


def test_the_hash_covers_content_and_the_previous_entry():
    a = entry_hash({"seq": 1, "x": [1, 2]}, GENESIS)
    assert a == entry_hash({"x": [1, 2], "seq": 1}, GENESIS)  # canonical: key order does not matter
    assert a != entry_hash({"seq": 1, "x": [1, 3]}, GENESIS)
    assert a != entry_hash({"seq": 1, "x": [1, 2]}, a)


def test_lay_offs_on_designated_melds_keep_the_designation():
    f = facts(Bill=("AS AH AD / 2S 3S 4S", ""), Ben=("5S", "9C"), Larry=("AC", ""))
    score = score_hand(f, RS, 0, ROSTER)
    assert [s.melded for s in score.scores] == [45 + 9, 5, 15]
    assert sorted((m.kind, len(m.cards)) for m in score.arrangement) == [("group", 4), ("sequence", 4)]
    assert all(m.designated for m in score.arrangement)


def test_each_players_cards_are_arranged_on_their_own_first():
    # Larry's 7H belongs with his sevens, not with Ben's hearts run
    f = facts(Ben=("8H 9H 10H", ""), Larry=("7C 7D 7H", ""))
    kinds = sorted((m.kind, m.cards) for m in score_hand(f, RS, 0, ROSTER).arrangement)
    assert kinds == [("group", ("7H", "7D", "7C")), ("sequence", ("8H", "9H", "10H"))]


def test_a_claimed_card_joins_the_meld_it_fits_and_nothing_else_moves():
    f = facts(Bill=("KH KD KC 2S 3S 4S", ""), Larry=("AD 2D 3D W", ""), claims=[("Ben", "KS")])
    score = score_hand(f, RS, 1, ROSTER)
    cards = sorted(m.cards for m in score.arrangement)
    assert ("KS", "KH", "KD", "KC") in cards and ("2S", "3S", "4S") in cards
    assert [s.melded for s in score.scores] == [30 + 9, 0, 1 + 2 + 3 + 4]
    assert score.scores[1].claimed == 10
