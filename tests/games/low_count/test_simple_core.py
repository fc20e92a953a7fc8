"""Simple Rummy's pure core: table setup (S1, S2, variations), end-of-game adjudication
(S9-S15, V1-V3, V5) and the match fold (S17)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.cards import DECK, WILD, parse_cards
from rummyref.errors import (
    DuplicateCard,
    ExitCode,
    NotFound,
    RuleRefusal,
    TooManyWildcards,
    UnreadableInput,
)
from rummyref.games.low_count.adjudicate import Ending, EndingKind, adjudicate
from rummyref.games.low_count.match import MatchState, fold_matches
from rummyref.games.low_count.table import SimpleTable
from rummyref.rules.ruleset import load_ruleset

RS = load_ruleset("simple-rummy")
FOUR = ["Ann", "Bob", "Cy", "Dan"]


def table(players=FOUR, cards=5, wildcards=3, variations=()):
    return SimpleTable.create(RS, players, cards, wildcards, variations)


# -- table setup: S1 ------------------------------------------------------------------------

# The SPEC's S1 table, written out independently of the data file it checks.
S1_TABLE = {2: (2, 10), 3: (2, 10), 4: (2, 7), 5: (2, 5), 6: (2, 5), 7: (2, 3), 8: (2, 2), 9: (2, 2), 10: (2, 2)}


def names(n):
    return [f"P{i}" for i in range(1, n + 1)]


@pytest.mark.parametrize("n", sorted(S1_TABLE))
def test_s1_deal_bounds_for_every_player_count(n):
    lo, hi = S1_TABLE[n]
    assert SimpleTable.create(RS, names(n), lo, 0).cards == lo
    assert SimpleTable.create(RS, names(n), hi, 0).cards == hi
    for bad in (lo - 1, hi + 1):
        with pytest.raises(RuleRefusal) as exc:
            SimpleTable.create(RS, names(n), bad, 0)
        assert exc.value.rule == "S1"
        assert f"{n} players" in exc.value.message
        assert exc.value.exit_code == ExitCode.REFUSED
        assert str(lo) in exc.value.hint and str(hi) in exc.value.hint


@pytest.mark.parametrize("n", [0, 1, 11, 12])
def test_s1_player_count_outside_2_to_10_is_refused(n):
    with pytest.raises(RuleRefusal) as exc:
        SimpleTable.create(RS, names(n), 2, 0)
    assert exc.value.rule == "S1"
    assert "2 to 10" in exc.value.message


def test_default_deal_and_wildcards_come_from_the_data():
    t = SimpleTable.create(RS, ["Ann", "Bob", "Cy"])
    assert (t.cards, t.wildcards) == (7, 0)
    assert SimpleTable.create(RS, names(8)).cards == 2
    assert SimpleTable.create(RS, names(3), variations=["sequences"]).wildcards == 3


# -- table setup: S2 and variations ---------------------------------------------------------


@pytest.mark.parametrize(
    "variations, ok, bad",
    [((), (0, 3), (4,)), (("sequences",), (3, 7), (2, 8)), (("sequences", "minor"), (3, 7), (0, 8))],
)
def test_s2_wildcard_bounds(variations, ok, bad):
    for w in ok:
        assert SimpleTable.create(RS, FOUR, 5, w, variations).wildcards == w
    for w in bad:
        with pytest.raises(RuleRefusal) as exc:
            SimpleTable.create(RS, FOUR, 5, w, variations)
        assert exc.value.rule == "S2"
        assert f"{w} WILDCARDs" in exc.value.message


def test_s2_refusal_hint_mentions_sequences_rummy_range():
    with pytest.raises(RuleRefusal) as exc:
        SimpleTable.create(RS, FOUR, 5, 5)
    assert "0 to 3" in exc.value.hint and "sequences: 3 to 7" in exc.value.hint


@pytest.mark.parametrize("pair", [["major", "minor"], ["minor", "major"], ["MAJOR", "go-out", "minor"]])
def test_major_and_minor_exclude_each_other(pair):
    with pytest.raises(RuleRefusal) as exc:
        SimpleTable.create(RS, FOUR, 5, 0, pair)
    assert exc.value.rule == "V1"
    assert "major" in exc.value.message and "minor" in exc.value.message


def test_unknown_variation_lists_the_valid_names():
    with pytest.raises(NotFound) as exc:
        SimpleTable.create(RS, FOUR, 5, 0, ["mayor"])
    assert exc.value.exit_code == ExitCode.NOT_FOUND
    for name in ("major", "minor", "go-out", "sequences", "three-card-draw", "four-sevens", "spread-out"):
        assert name in exc.value.hint


@pytest.mark.parametrize("players", [["Ann", "ann"], ["Ann", ""], ["Ann", "B=b"]])
def test_bad_player_names(players):
    with pytest.raises(UnreadableInput):
        SimpleTable.create(RS, players, 5, 0)


def test_what_is_in_force_comes_from_the_variation_data():
    plain = table(variations=())
    assert (plain.going_out, plain.going_out_rule, plain.low_count_ending, plain.four_sevens) == (
        "at-most-one",
        "S9",
        True,
        False,
    )
    every = table(wildcards=4, variations=["major", "go-out", "sequences", "four-sevens", "spread-out"])
    assert every.going_out == "all" and every.going_out_rule == "V1"
    assert table(variations=["minor"]).going_out == "exactly-one"
    assert not every.low_count_ending and every.low_count_rule == "V2"
    assert (every.sequences_to_go_out, every.natural_sequences_to_go_out, every.sequences_rule) == (2, 1, "V3")
    assert every.four_sevens and every.four_sevens_rule == "V5"
    d = every.to_dict()
    assert d["variations"] == ["major", "go-out", "sequences", "four-sevens", "spread-out"]
    assert SimpleTable.from_dict(RS, d) == every


def test_seating_and_turn_order():
    t = table()
    assert t.left_of("Dan") == "Ann" and t.right_of("ann") == "Dan"
    assert t.turn_order("Cy") == ("Cy", "Dan", "Ann", "Bob")
    assert t.dealer_for("Ann") == "Dan"
    with pytest.raises(UnreadableInput) as exc:
        t.turn_order("Bobb")
    assert "did you mean Bob" in exc.value.hint


# -- end of game: the table-driven cases ----------------------------------------------------

# Each case: id, table options, first player, hands, ending, and what must come out:
# ("win", winner or None, rule, {name: count}) or ("refuse", error class, rule).
BASE = dict(cards=5, wildcards=3, variations=())
MINOR = dict(cards=5, wildcards=0, variations=("minor",))
MAJOR = dict(cards=5, wildcards=0, variations=("major",))
GO_OUT = dict(cards=5, wildcards=0, variations=("go-out",))
SEQ = dict(cards=5, wildcards=3, variations=("sequences",))
SEVENS = dict(cards=5, wildcards=1, variations=("four-sevens",))
OTHERS = {"Bob": "JS QH 10D 8C 6D", "Cy": "JD 10C 5D 3S AC", "Dan": "JC 8D 6S 3C 3D"}  # 47, 30, 31
OTHERS4 = {"Bob": "JS QH 10D 8C", "Cy": "JD 10C 5D 3S", "Dan": "JC 8D 6S 3C"}  # four cards each
TWO = dict(BASE, cards=2)  # every hand two cards (three for the player who went out)
S12_HANDS = {"Ann": "KS KH", "Bob": "QS QH", "Cy": "5H AD", "Dan": "5S AH"}


def hands(**given):
    merged = {**OTHERS, **{k: v for k, v in given.items() if v is not None}}
    return {k: v for k, v in merged.items() if k not in given or given[k] is not None}


CASES = [
    # S10 + S13: stock exhausted, lowest count wins; the best melding decides the count
    ("S10 S13 spec example 2-3-4H 4S 4D counts 5", BASE, "Ann", hands(Ann="2H 3H 4H 4S 4D"), {},
     ("win", "Ann", "S10", {"Ann": 5, "Bob": 47, "Cy": 30, "Dan": 31})),
    ("S13 face cards J 11 Q 12 K 13", BASE, "Ann", hands(Ann="JH QC KS 9H 9C"), {},
     ("win", "Cy", "S10", {"Ann": 54})),
    ("S13 aces count 1", BASE, "Ann", hands(Ann="AS AH 2D 4C 2H"), {},
     ("win", "Ann", "S10", {"Ann": 10})),
    ("S13 the group or the run: lower count chosen", BASE, "Ann", hands(Ann="7H 7S 7D 8H 9H"), {},
     ("win", "Ann", "S10", {"Ann": 14})),
    ("S7 Q-K-A counts as a run", BASE, "Ann", hands(Ann="QS KS AS 2D 4C"), {},
     ("win", "Ann", "S10", {"Ann": 6})),
    ("S7 K-A-2 is no run", BASE, "Ann", hands(Ann="KS AS 2S 4H 9C"), {},
     ("win", "Ann", "S10", {"Ann": 29})),
    # S11: caught with a WILDCARD
    ("S11 lowest count holds a WILDCARD", BASE, "Ann", hands(Ann="5H 6H W 9C 2S"), {},
     ("win", "Cy", "S10", {"Ann": 11, "Cy": 30})),
    ("S11 three WILDCARDs melded still bar the holder", BASE, "Ann", hands(Ann="W W W 2D 4D"), {},
     ("win", "Cy", "S10", {"Ann": 0})),
    ("S11 everyone holds a WILDCARD: no winner", dict(TWO, players=["Ann", "Bob", "Cy"]), "Ann",
     {"Ann": "2H W", "Bob": "3H W", "Cy": "4H W"}, {},
     ("win", None, "S11", {"Ann": 2, "Bob": 3, "Cy": 4})),
    # S12: equal low counts, latest in turn order from the first player wins
    ("S12 Cy and Dan tie, Dan later from Ann", TWO, "Ann", S12_HANDS, {},
     ("win", "Dan", "S12", {"Cy": 6, "Dan": 6})),
    ("S12 first player Dan tied loses to Cy", TWO, "Dan", S12_HANDS, {},
     ("win", "Cy", "S12", {"Cy": 6, "Dan": 6})),
    ("S12 first player Cy: Dan is later", TWO, "Cy", S12_HANDS, {},
     ("win", "Dan", "S12", {"Cy": 6, "Dan": 6})),
    ("S12 three-way tie, first Bob: Ann latest", TWO, "Bob",
     {"Ann": "5H AS", "Bob": "5S AD", "Cy": "5D AH", "Dan": "KC QC"}, {},
     ("win", "Ann", "S12", {"Ann": 6, "Bob": 6, "Cy": 6, "Dan": 25})),
    ("S12 with S11: the WILDCARD holder is out of the tie", TWO, "Ann",
     {"Ann": "4H AS", "Bob": "4S AD", "Cy": "4D W", "Dan": "KC QC"}, {},
     ("win", "Bob", "S12", {"Cy": 4})),
    # S14: dropping out
    ("S14 dropped player with the lowest count cannot win", BASE, "Ann", hands(Ann="AS 2H 4H 4C 6H"),
     {"dropped": ["Ann"]}, ("win", "Cy", "S10", {"Ann": 17})),
    ("S14 dropped player's hand may be absent", BASE, "Ann", hands(Ann=None), {"dropped": ["ann"]},
     ("win", "Cy", "S10", {"Cy": 30})),
    ("S14 a dropped player cannot go out", BASE, "Ann", hands(Ann="2H 3H 4H"),
     {"out": "Ann", "dropped": ["Ann"]}, ("refuse", RuleRefusal, "S14")),
    ("S14 + S11 nobody left who can win", dict(TWO, players=["Ann", "Bob", "Cy"]), "Ann",
     {"Ann": "2H 5C", "Cy": "3H W"}, {"dropped": ["Ann", "Bob"]}, ("win", None, "S11", {"Ann": 7, "Cy": 3})),
    # S15: a tie game everyone agreed to
    ("S15 tie agreed: no winner", BASE, "Ann", hands(Ann="2H 3H 4H 5H 6H"), {"tie": True},
     ("win", None, "S15", {"Ann": 0})),
    ("S15 tie agreed is allowed under Go Out", GO_OUT, "Ann", hands(Ann="2H 3H 4H KS QS"),
     {"tie": True}, ("win", None, "S15", {})),
    # S9: going out, every card melded but at most one
    ("S9 all cards melded", BASE, "Bob", hands(Ann="5H 6H 7H 9S 9D 9C"), {"out": "Ann"},
     ("win", "Ann", "S9", {"Ann": 0})),
    ("S9 one card left over is fine", BASE, "Bob", hands(Ann="5H 6H 7H 8H 9H KS"), {"out": "Ann"},
     ("win", "Ann", "S9", {"Ann": 13})),
    ("S9 two cards left is no go-out", BASE, "Bob", hands(Ann="5H 6H 7H 8H KS QD"), {"out": "Ann"},
     ("refuse", RuleRefusal, "S9")),
    ("S9 going out with a WILDCARD wins (S11 is for no go-out)", BASE, "Bob", hands(Ann="5H W 7H 8H 9H 9C"),
     {"out": "ann"}, ("win", "Ann", "S9", {"Ann": 9})),
    ("S9 the card left over may be a WILDCARD", BASE, "Bob", hands(Ann="5H 6H 7H 9S 9D W"), {"out": "Ann"},
     ("win", "Ann", "S9", {"Ann": 0})),
    # V1 Major: every card melded
    ("V1 Major all melded goes out", MAJOR, "Bob", hands(Ann="5H 6H 7H 9S 9D 9C"), {"out": "Ann"},
     ("win", "Ann", "V1", {"Ann": 0})),
    ("V1 Major one card left is refused", MAJOR, "Bob", hands(Ann="5H 6H 7H 8H 9H KD"),
     {"out": "Ann"}, ("refuse", RuleRefusal, "V1")),
    # V1 Minor: exactly one card left out
    ("V1 Minor a 6-card run goes out", MINOR, "Bob", hands(Ann="2H 3H 4H 5H 6H 7H"), {"out": "Ann"},
     ("win", "Ann", "V1", {"Ann": 0})),
    ("V1 Minor two 3-card melds do not", MINOR, "Bob", hands(Ann="2H 3H 4H 9S 9D 9C"), {"out": "Ann"},
     ("refuse", RuleRefusal, "V1")),
    ("V1 Minor 5-card meld plus one card", MINOR, "Bob", hands(Ann="5H 6H 7H 8H 9H KS"), {"out": "Ann"},
     ("win", "Ann", "V1", {"Ann": 13})),
    ("V1 Minor four of a kind plus one", dict(MINOR, cards=4), "Bob", {**OTHERS4, "Ann": "9S 9D 9C 9H 2D"},
     {"out": "Ann"}, ("win", "Ann", "V1", {"Ann": 2})),
    # V2 Go Out: only going out ends the game
    ("V2 a low-count ending is refused", GO_OUT, "Ann", hands(Ann="2H 3H 4H 4S 4D"), {},
     ("refuse", RuleRefusal, "V2")),
    ("V2 going out still wins", GO_OUT, "Ann", hands(Ann="2H 3H 4H 5H 6H 4S"), {"out": "Ann"},
     ("win", "Ann", "S9", {"Ann": 4})),
    # V3 Sequences Rummy: two sequences, one natural
    ("V3 spec 4-5-6H + 7H W W goes out", SEQ, "Bob", hands(Ann="4H 5H 6H 7H W W"), {"out": "Ann"},
     ("win", "Ann", "V3", {"Ann": 0})),
    ("V3 two groups are not enough", SEQ, "Bob", hands(Ann="4S 4D 4C 9S 9D 9H"), {"out": "Ann"},
     ("refuse", RuleRefusal, "V3")),
    ("V3 no natural sequence", SEQ, "Bob", hands(Ann="4H W 6H 8S W 10S"), {"out": "Ann"},
     ("refuse", RuleRefusal, "V3")),
    ("V3 all-WILDCARD meld counts as a sequence", SEQ, "Bob", hands(Ann="4H 5H 6H W W W"),
     {"out": "Ann"}, ("win", "Ann", "V3", {"Ann": 0})),
    ("V3 one natural sequence alone is not enough", SEQ, "Bob", hands(Ann="4H 5H 6H 7H 8H KS"),
     {"out": "Ann"}, ("refuse", RuleRefusal, "V3")),
    ("V3 a low-count ending is still allowed", SEQ, "Ann", hands(Ann="4H 5H 6H 2C 2S"), {},
     ("win", "Ann", "S10", {"Ann": 4})),
    # V5 Four 7's
    ("V5 four natural 7s win at once", SEVENS, "Bob", hands(Ann="7S 7H 7D 7C 2D"), {"four_sevens": "Ann"},
     ("win", "Ann", "V5", {"Ann": 2})),
    ("V5 not in force: refused", BASE, "Bob", hands(Ann="7S 7H 7D 7C 2D"), {"four_sevens": "Ann"},
     ("refuse", RuleRefusal, "V5")),
    ("V5 a WILDCARD is not a natural 7", SEVENS, "Bob", hands(Ann="7S 7H 7D W 2D"), {"four_sevens": "Ann"},
     ("refuse", RuleRefusal, "V5")),
    # validation: one deck, every hand, names at the table, one ending
    ("a hand is missing", BASE, "Ann", hands(Dan=None), {}, ("refuse", UnreadableInput, None)),
    ("the same card in two hands", BASE, "Ann", hands(Ann="JS 2H"), {}, ("refuse", DuplicateCard, None)),
    ("more WILDCARDs than the table uses", dict(BASE, wildcards=1), "Ann", hands(Ann="W 2H", Bob="W 3H"),
     {}, ("refuse", TooManyWildcards, None)),
    ("a hand for a name not at the table", BASE, "Ann", {**hands(Ann="2H"), "Eve": "3H"}, {},
     ("refuse", UnreadableInput, None)),
    ("went out and tie at once", BASE, "Ann", hands(Ann="2H 3H 4H"), {"out": "Ann", "tie": True},
     ("refuse", UnreadableInput, None)),
]


def _run(options, first, given, ending):
    opts = dict(options)
    players = opts.pop("players", FOUR)
    t = table(players=players, **opts)
    parsed = {name: parse_cards(text) for name, text in given.items()}
    return adjudicate(t, first, parsed, Ending.from_options(**ending))


def test_at_least_thirty_cases_cover_every_rule():
    assert len(CASES) >= 30
    cited = " ".join(c[0] for c in CASES)
    for rule in ("S9", "S10", "S11", "S12", "S13", "S14", "S15", "V1", "V2", "V3", "V5"):
        assert rule in cited


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_end_of_game(case):
    _, options, first, given, ending, expected = case
    if expected[0] == "refuse":
        _, error, rule = expected
        with pytest.raises(error) as exc:
            _run(options, first, given, ending)
        if rule:
            assert exc.value.rule == rule
        return
    _, winner, rule, counts = expected
    result = _run(options, first, given, ending)
    assert result.winner == winner, result.reason
    assert result.rule == rule
    assert rule in result.reason
    for name, count in counts.items():
        assert result.counts[name] == count, name
    data = json.loads(json.dumps(result.to_dict()))
    assert {"winner", "reason", "rule", "counts"} <= set(data)
    assert data["winner"] == winner


def test_the_spec_count_example_shows_its_arrangement():
    result = _run(BASE, "Ann", hands(Ann="2H 3H 4H 4S 4D"), {})
    ann = result.players[0]
    assert ann.count == 5
    # the group 4-4-4 leaves 2H 3H (5); the run 2-3-4H would leave 4S 4D (8)
    assert [m.kind.value for m in ann.melds] == ["group"]
    assert sorted(str(c) for c in ann.unmelded) == ["2H", "3H"]
    assert ann.eligible and ann.note == "lowest count"


def test_refused_go_out_shows_the_best_the_hand_can_do():
    with pytest.raises(RuleRefusal) as exc:
        _run(MINOR, "Bob", hands(Ann="2H 3H 4H 9S 9D 9C"), {"out": "Ann"})
    assert "exactly one" in exc.value.message
    assert "unmelded: nothing (count 0)" in exc.value.hint


def test_went_out_arrangement_is_the_going_out_one():
    result = _run(MINOR, "Bob", hands(Ann="2H 3H 4H 5H 6H 7H"), {"out": "Ann"})
    ann = result.to_dict()["players"][0]
    assert len(ann["going_out"]["unmelded"]) == 1
    assert sum(len(m["cards"]) for m in ann["going_out"]["melds"]) == 5
    assert ann["note"] == "went out" and result.players[0].arrangement_text()


def test_reason_states_the_s12_reading():
    result = _run(TWO, "Ann", S12_HANDS, {})
    assert "furthest to the left of the first player (Ann)" in result.reason
    assert "latest in turn order (Ann, Bob, Cy, Dan)" in result.reason
    notes = {p.name: p.note for p in result.players}
    assert notes["Dan"] == "lowest count, wins the tie (S12)"
    assert notes["Cy"] == "lowest count, loses the tie (S12)"


def test_s11_and_s14_are_explained_per_player():
    result = _run(TWO, "Ann", {"Ann": "AS AH", "Bob": "2S W", "Cy": "3S AD", "Dan": "4S AC"}, {"dropped": ["Ann"]})
    notes = {p.name: (p.eligible, p.note) for p in result.players}
    assert notes == {
        "Ann": (False, "dropped out (S14)"),
        "Bob": (False, "holds a WILDCARD (S11)"),
        "Cy": (True, "lowest count"),
        "Dan": (True, ""),
    }
    assert result.winner == "Cy" and result.rules == ("S10", "S13", "S11", "S14")


def test_ending_kinds():
    assert Ending.from_options().kind is EndingKind.STOCK
    assert Ending.from_options(tie=True).kind is EndingKind.TIE
    assert Ending.from_options(four_sevens="Ann").kind is EndingKind.FOUR_SEVENS
    assert Ending.from_options(out="Ann", dropped=["Bob"]).to_dict() == {
        "kind": "went-out",
        "player": "Ann",
        "dropped": ["Bob"],
    }


# -- matches (S17) --------------------------------------------------------------------------


def test_a_whole_match_three_games_a_tie_won_2_1():
    t = table(players=["Ann", "Bob", "Cy"], cards=3, wildcards=1)
    state = MatchState.start(t.players, "Bob", RS)  # Ann dealt first; Bob is on her left
    firsts, winners = [], []
    games = [
        ({"Ann": "2H 3H 4H AS", "Bob": "KS KH KD", "Cy": "9S 10D JC"}, {"out": "Ann"}),
        ({"Ann": "5C 6C 2D", "Bob": "7D 8D 3S", "Cy": "9C 9D 4S"}, {"tie": True}),
        ({"Ann": "QS KC JH", "Bob": "AD 2S 3D", "Cy": "3C 4D 5S"}, {}),
        ({"Ann": "4H 4S 4D", "Bob": "JD QD W", "Cy": "10C 10S 9H"}, {}),
    ]
    for hands, ending in games:
        firsts.append(state.first_player)
        result = adjudicate(t, state.first_player, {k: parse_cards(v) for k, v in hands.items()},
                            Ending.from_options(**ending))
        winners.append(result.winner)
        state = state.after(result)
    assert winners == ["Ann", None, "Bob", "Ann"]
    assert firsts == ["Bob", "Ann", "Ann", "Bob"]
    assert state.just_won is not None
    assert (state.just_won.winner, state.just_won.score, state.just_won.games) == ("Ann", "2-1-0", 4)
    assert dict(state.matches_won) == {"Ann": 1, "Bob": 0, "Cy": 0}
    # the next match has begun; the winner of the last game plays first
    assert (state.number, state.games, state.first_player) == (2, 0, "Ann")
    assert dict(state.game_wins) == {"Ann": 0, "Bob": 0, "Cy": 0}
    data = state.to_dict()
    assert data["just_won"]["score"] == "2-1-0" and data["matches_won"]["Ann"] == 1
    assert "Ann wins match 1, 2-1-0 (S17)" in state.summary()


def test_match_fold_over_several_matches():
    state = fold_matches(["Ann", "Bob"], "Ann", 2, ["Bob", "Bob", None, "Ann", "Bob", "Ann", None])
    assert [m.winner for m in state.finished] == ["Bob", "Ann"]
    assert [m.score for m in state.finished] == ["2-0", "2-1"]
    assert dict(state.matches_won) == {"Ann": 1, "Bob": 1}
    assert state.first_player == "Ann"  # the last game was a tie: same first player as before
    assert (state.number, state.games, state.just_won) == (3, 1, None)


def test_match_refuses_unknown_winner():
    with pytest.raises(UnreadableInput):
        MatchState.start(["Ann", "Bob"], "Ann", 2).after("Eve")
    with pytest.raises(UnreadableInput):
        MatchState.start(["Ann", "Bob"], "Eve", 2)


def test_game_and_match_render_for_humans():
    from rummyref.cli.common import out
    from rummyref.games.low_count.render import render_game, render_match

    hands_ = {"Ann": "2H 3H 4H 4S 4D", "Bob": "W 9C 9S 5C 2S", "Cy": "KC KD QS JH 10H", "Dan": "AC 7C 8S 10S JS"}
    result = _run(BASE, "Ann", hands_, {"dropped": ["Dan"]})
    with out.capture() as cap:
        render_game(result, out)
        render_match(MatchState.start(FOUR, "Ann", RS).after(result), out)
    text = " ".join(cap.get().split())  # prose wraps at the console's width
    assert "4S 4H 4D / unmelded: 2H 3H" in text and "holds a WILDCARD (S11)" in text
    assert "Winner: Ann." in text
    assert "Match 1: game wins Ann 1, Bob 0, Cy 0, Dan 0" in text and "Ann plays first next (S17)" in text


def test_first_dealer_for_a_table():
    t = table()
    result = t.choose_first_dealer(
        {"dan": parse_cards("4D"), "Cy": parse_cards("KH"), "Ann": parse_cards("W 3C"), "Bob": parse_cards("KS")}
    )
    assert [p.name for p in result.turned_up] == FOUR
    assert (result.dealer, result.first_player) == ("Bob", "Cy")
    assert t.left_of(result.dealer) == result.first_player
    with pytest.raises(UnreadableInput):
        t.choose_first_dealer({"Ann": parse_cards("3C")})
    with pytest.raises(TooManyWildcards):
        table(wildcards=0).choose_first_dealer(
            {"Dan": parse_cards("4D"), "Cy": parse_cards("KH"), "Ann": parse_cards("W 3C"), "Bob": parse_cards("KS")}
        )


def test_variations_may_be_comma_separated_or_a_single_text():
    assert table(variations="major,go-out").variation_names == ("major", "go-out")
    assert table(variations=["minor", "Minor"]).variation_names == ("minor",)


def test_match_seats_a_newcomer_with_no_wins():
    state = MatchState.start(["Ann", "Bob"], "Ann", 2).after("Bob").seat(["Ann", "Bob", "Cy"])
    assert dict(state.game_wins) == {"Ann": 0, "Bob": 1, "Cy": 0}
    state = state.after("Cy").after("Cy")
    assert state.just_won.winner == "Cy" and state.just_won.score == "2-1-0"
    assert dict(state.matches_won) == {"Ann": 0, "Bob": 0, "Cy": 1}


# -- a property: on a low-count ending the verdict follows S11, S12, S14 -----------------------



@settings(max_examples=40, deadline=None)
@given(
    deck=st.permutations(list(DECK) + [WILD] * 3),
    sizes=st.lists(st.integers(5, 6), min_size=4, max_size=4),
    first=st.sampled_from(FOUR),
    dropped=st.sets(st.sampled_from(FOUR), max_size=2),
)
def test_low_count_verdict_property(deck, sizes, first, dropped):
    sizes = [n if p in dropped else 5 for p, n in zip(FOUR, sizes)]  # a dropped player may hold one more
    t = table()
    hands_, i = {}, 0
    for name, n in zip(FOUR, sizes):
        hands_[name], i = deck[i : i + n], i + n
    result = adjudicate(t, first, hands_, Ending.from_options(dropped=dropped))
    can_win = [p for p in t.turn_order(first) if p not in dropped and WILD not in hands_[p]]
    if not can_win:
        assert result.winner is None
        return
    low = min(result.counts[p] for p in can_win)
    tied = [p for p in can_win if result.counts[p] == low]
    assert result.winner == tied[-1]
    assert result.rule == ("S12" if len(tied) > 1 else "S10")
