"""The Gin rule set as data: the numbers of the standard game, field-named refusals of a broken
``[gin]`` table, and ``ref count --ruleset gin`` answering deadwood (aces low, J Q K 10)."""

from __future__ import annotations

import json
import random
import tomllib

import pytest
from cli_helpers import ref, ref_json

from rummyref.cards import DECK, format_cards
from rummyref.errors import ExitCode, RulesetError
from rummyref.rules.resources import data_dir
from rummyref.rules.ruleset import GinRules, load_ruleset, parse_ruleset

from .reference import min_deadwood, to_ref

GIN = load_ruleset("gin")


def test_the_standard_numbers():
    assert GIN.values[1:] == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    assert not GIN.aces_high and GIN.wild_limit == 0 and GIN.method == "gin" and GIN.target == 100
    assert (GIN.players_min, GIN.players_max) == (2, 2)
    deal = GIN.deal_for(2)
    assert deal is not None and (deal.cards_min, deal.cards_max) == (10, 10)
    assert GIN.gin == GinRules(
        knock_limit=10, undercut_bonus=25, gin_bonus=25, big_gin_bonus=31, box_bonus=25, game_bonus=100,
        shutout_multiplier=2, dead_hand_stock=2, oklahoma_ace_limit=0,
    )  # fmt: skip
    assert [v.name for v in GIN.variations] == ["oklahoma"] and GIN.rulebook == "gin"


def test_other_rule_sets_have_no_gin_table():
    assert load_ruleset("rummy-2m").gin is None and load_ruleset("simple-rummy").gin is None


def _raw(name: str = "gin") -> dict:
    return tomllib.loads((data_dir() / "rulesets" / f"{name}.toml").read_text())


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d["gin"].__setitem__("knock_limit", "ten"), "gin.knock_limit"),
        (lambda d: d["gin"].__setitem__("undercut_bonus", -5), "gin.undercut_bonus"),
        (lambda d: d["gin"].pop("big_gin_bonus"), "gin.big_gin_bonus"),
        (lambda d: d["gin"].__setitem__("shutout_multiplier", 0), "gin.shutout_multiplier"),
        (lambda d: d["gin"]["oklahoma"].pop("ace_limit"), "gin.oklahoma.ace_limit"),
        (lambda d: d["gin"].pop("oklahoma"), "gin.oklahoma"),
        (lambda d: d.pop("gin"), "gin"),
        (lambda d: d["scoring"].pop("target"), "scoring.target"),
    ],
)
def test_a_broken_gin_table_is_refused_naming_the_field(edit, field):
    raw = _raw()
    edit(raw)
    with pytest.raises(RulesetError) as info:
        parse_ruleset(raw, "house.toml")
    assert str(info.value).startswith(f"house.toml: {field}:")
    assert info.value.exit_code == ExitCode.BAD_INPUT


def test_a_gin_table_belongs_to_the_gin_method_only():
    raw = _raw("simple-rummy")
    raw["gin"] = _raw()["gin"]
    with pytest.raises(RulesetError, match='house.toml: gin: only a rule set with scoring.method = "gin"'):
        parse_ruleset(raw, "house.toml")


def test_a_house_gin_file_changes_the_numbers(tmp_path):
    text = (data_dir() / "rulesets" / "gin.toml").read_text()
    path = tmp_path / "house-gin.toml"
    path.write_text(text.replace("knock_limit = 10", "knock_limit = 7").replace('name = "gin"', 'name = "house"'))
    house = load_ruleset(str(path))
    assert house.gin is not None and house.gin.knock_limit == 7 and house.name == "house"


@pytest.mark.parametrize(
    "hand, count, melds",
    [
        ("AS 2S 3S 4C 4D 4H KC QD JH 10H", 40, [["AS", "2S", "3S"], ["4H", "4D", "4C"]]),
        ("QS KS AS 2H 3H", 26, []),  # aces are low only: Q K A is no run
        ("AH 2H 3H JS QS KS 5D 5C 5H 9C", 9, [["AH", "2H", "3H"], ["JS", "QS", "KS"], ["5H", "5D", "5C"]]),
    ],
)
def test_count_answers_deadwood(hand, count, melds):
    data = ref_json("count", hand, "--ruleset", "gin")
    assert data["ruleset"] == "gin" and data["count"] == count
    assert sorted(map(sorted, data["melds"])) == sorted(map(sorted, melds))


def test_count_answers_the_reference_deadwood_on_random_hands():
    rng = random.Random(5)
    hands = [rng.sample(DECK, 10) for _ in range(200)]
    result = ref("count", "--ruleset", "gin", "--jsonl", input="\n".join(format_cards(h) for h in hands) + "\n")
    assert result.exit_code == 0, result.stderr
    counts = [json.loads(line)["count"] for line in result.stdout.splitlines()]
    assert counts == [min_deadwood(frozenset(map(to_ref, h))) for h in hands]


@pytest.mark.parametrize(
    "hand, ok, mode, reason",
    [
        ("2H 3H 4H 5S 5D 5C KD KS 9C 8C", False, "knock", "deadwood 37, over the knock limit of 10 (G4)"),
        ("2H 3H 4H 5S 5D 5C 9C 10C JC 10S", True, "knock", "deadwood 10, the knock limit is 10 (G4)"),
        ("2H 3H 4H 5S 5D 5C 6C 7C 9C 8C", True, "gin", "every card melded (G5)"),
        # eleven cards, after the draw: the discard that leaves the least deadwood, or big gin
        ("2H 3H 4H 5S 5D 5C KD KS 9C 8C 10C", True, "knock", "discard KS, deadwood 10, the knock limit is 10 (G4)"),
        ("2H 3H 4H 5S 5D 5C 6C 7C 9C 8C KC", True, "gin", "discard KC, every card melded (G5)"),
        ("2H 3H 4H 5S 5D 5C 6C 7C 9C 8C 10C", True, "big-gin", "all 11 cards melded, no discard (G6)"),
        # among discards that leave equal deadwood, the highest card: value, then rank, then suit (S H D C)
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S KD 10D", True, "knock", "discard KD, deadwood 10, the knock limit is 10 (G4)"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S QH KH", True, "knock", "discard KH, deadwood 10, the knock limit is 10 (G4)"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S KD JS", True, "knock", "discard KD, deadwood 10, the knock limit is 10 (G4)"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S JC JH", True, "knock", "discard JH, deadwood 10, the knock limit is 10 (G4)"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10C 10H", True, "knock", "discard 10H, deadwood 10, the knock limit is 10 (G4)"),
        ("2H 3H 4H", False, "knock", "a Gin hand holds 10 cards, 11 after the draw (G1); this one has 3"),
    ],
)
def test_count_says_whether_a_gin_hand_can_knock_or_go_gin(hand, ok, mode, reason):
    data = ref_json("count", hand, "--ruleset", "gin")
    assert (data["can_go_out"], data["going_out_mode"], data["going_out_reason"]) == (ok, mode, reason)
    shown = ref("count", hand, "--ruleset", "gin")
    assert f"go out    {'yes' if ok else 'no'} ({mode}): {reason}" in shown.stdout.splitlines()


def test_count_knocks_as_the_reference_deadwood_says_on_random_hands():
    rng = random.Random(8)
    hands = [rng.sample(DECK, rng.choice((10, 11))) for _ in range(120)]
    result = ref("count", "--ruleset", "gin", "--jsonl", input="\n".join(format_cards(h) for h in hands) + "\n")
    assert result.exit_code == 0, result.stderr
    for hand, line in zip(hands, result.stdout.splitlines()):
        data = json.loads(line)
        cards = frozenset(map(to_ref, hand))
        least = (min_deadwood(cards) if len(hand) == 10
                 else 0 if min_deadwood(cards) == 0 else min(min_deadwood(cards - {c}) for c in cards))
        assert data["can_go_out"] == (least <= 10), (hand, data)
        assert data["going_out_mode"] == ("big-gin" if len(hand) == 11 and min_deadwood(cards) == 0
                                          else "gin" if least == 0 else "knock")


def test_count_refuses_a_wildcard_in_gin():
    result = ref("count", "W AS 2S", "--ruleset", "gin")
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "played without WILDCARDs" in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    "question, rule",
    [("undercut", "G8"), ("can I lay off after gin", "G5"), ("oklahoma", "G13"), ("skunk", "G12")],
)
def test_ruling_finds_the_gin_rulebook(question, rule, monkeypatch):
    monkeypatch.setenv("RUMMYREF_CACHE", "off")
    data = ref_json("ruling", "--ruleset", "gin", question)
    assert data["rules"][0]["id"] == rule and data["rules"][0]["ruleset"] == "gin"
