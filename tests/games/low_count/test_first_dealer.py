"""Choosing the first dealer (Simple Rummy S3), in the core and through `ref first-dealer`."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tomllib

import pytest
from cli_helpers import ref, ref_json, ref_subprocess

from rummyref.cards import Rank, Suit, parse_cards
from rummyref.errors import DuplicateCard, NotFound, RuleRefusal, RulesetError, TooManyWildcards
from rummyref.rules.first_dealer import first_dealer
from rummyref.rules.ruleset import builtin_path, load_ruleset, parse_ruleset

RS = load_ruleset("simple-rummy")


def deal(**turned_up: str):
    return first_dealer({name: parse_cards(text) for name, text in turned_up.items()}, RS)


# (turned up in seating order, dealer, first player, a phrase of the reason)
CASES = [
    ({"Ann": "KS", "Bob": "QS", "Cy": "2C"}, "Ann", "Bob", "kings outrank queens"),
    ({"Ann": "2H", "Bob": "AS"}, "Ann", "Bob", "2s outrank aces"),  # A is low
    ({"Ann": "10D", "Bob": "JH", "Cy": "9S"}, "Bob", "Cy", "jacks outrank 10s"),
    ({"Ann": "KH", "Bob": "KS", "Cy": "2C"}, "Bob", "Cy", "spades outrank hearts"),
    ({"Ann": "7D", "Bob": "7C"}, "Bob", "Ann", "clubs outrank diamonds"),
    ({"Ann": "7H", "Bob": "7D"}, "Bob", "Ann", "diamonds outrank hearts"),
    ({"Ann": "7C", "Bob": "7S"}, "Bob", "Ann", "spades outrank clubs"),
    ({"Ann": "5H", "Bob": "5D", "Cy": "5C", "Dan": "5S"}, "Dan", "Ann", "spades outrank clubs"),
    ({"Ann": "W W 3C", "Bob": "2S", "Cy": "W 3D"}, "Ann", "Bob", "clubs outrank diamonds"),
    ({"Ann": "4C", "Bob": "W W W QD", "Cy": "JS"}, "Bob", "Cy", "queens outrank jacks"),
]


@pytest.mark.parametrize("turned_up, dealer, first, phrase", CASES)
def test_first_dealer(turned_up, dealer, first, phrase):
    result = deal(**turned_up)
    assert (result.dealer, result.first_player) == (dealer, first)
    assert phrase in result.reason and result.rule == "S3"
    seating = list(turned_up)
    i = seating.index(first)
    assert result.turn_order == tuple(seating[i:] + seating[:i])
    assert result.ranking[0] == dealer


def test_the_reason_names_both_cards():
    result = deal(Ann="KS", Bob="KH", Cy="2C")
    assert result.reason.startswith("Ann's K♠ beats Bob's K♥: equal rank, spades outrank hearts")
    assert result.ranking == ("Ann", "Bob", "Cy")


def test_the_counted_card_is_the_regular_one():
    result = deal(Ann="W W 2C", Bob="AH")
    assert [str(t.card) for t in result.turned_up] == ["2C", "AH"]
    assert result.to_dict()["turned_up"][0] == {"name": "Ann", "turned_up": ["W", "W", "2C"], "card": "2C"}


@pytest.mark.parametrize(
    "turned_up, error, rule",
    [
        ({"Ann": "W", "Bob": "3C"}, RuleRefusal, "S3"),  # no regular card
        ({"Ann": "", "Bob": "3C"}, RuleRefusal, "S3"),
        ({"Ann": "3D 4D", "Bob": "3C"}, RuleRefusal, "S3"),  # dealing stops at the first regular card
        ({"Ann": "3D W", "Bob": "3C"}, RuleRefusal, "S3"),
        ({"Ann": "3D"}, RuleRefusal, "S1"),
        ({f"P{i}": c for i, c in enumerate("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS".split())}, RuleRefusal, "S1"),
        ({"Ann": "3D", "Bob": "3D"}, DuplicateCard, None),
        ({"Ann": "W W W W W W W W 3D", "Bob": "3C"}, TooManyWildcards, None),
    ],
)
def test_refusals(turned_up, error, rule):
    with pytest.raises(error) as exc:
        deal(**turned_up)
    if rule:
        assert exc.value.rule == rule


def test_a_table_with_fewer_wildcards_limits_them():
    with pytest.raises(TooManyWildcards):
        first_dealer({"Ann": parse_cards("W W 3D"), "Bob": parse_cards("3C")}, RS, max_wildcards=1)


def test_rule_set_without_a_first_dealer_rule():
    with pytest.raises(NotFound):
        first_dealer({"Ann": parse_cards("3D"), "Bob": parse_cards("3C")}, load_ruleset("rummy-2m"))


# -- the order is data ---------------------------------------------------------------------


def raw():
    return tomllib.loads(builtin_path("simple-rummy").read_text(encoding="utf-8"))


def test_order_is_read_from_the_data_file():
    order = RS.first_dealer
    assert order.ranks[0] is Rank.KING and order.ranks[-1] is Rank.ACE
    assert order.suits == (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


def test_a_house_may_reverse_the_suit_order():
    data = raw()
    data["first_dealer"]["suit_order"] = ["H", "D", "C", "S"]
    house = parse_ruleset(data, "house.toml")
    result = first_dealer({"Ann": parse_cards("KS"), "Bob": parse_cards("KH")}, house)
    assert result.dealer == "Bob" and "hearts outrank spades" in result.reason


@pytest.mark.parametrize(
    "field, value",
    [
        ("rank_order", ["K", "Q"]),
        ("rank_order", ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "2"]),
        ("suit_order", ["S", "C", "D"]),
        ("suit_order", ["S", "C", "D", "X"]),
        ("rule", 3),
    ],
)
def test_a_broken_first_dealer_table_is_refused(field, value):
    data = copy.deepcopy(raw())
    data["first_dealer"][field] = value
    with pytest.raises(RulesetError) as exc:
        parse_ruleset(data, "house.toml")
    assert f"first_dealer.{field}" in exc.value.message


# -- through the CLI -----------------------------------------------------------------------


def test_cli_human_output():
    result = ref("first-dealer", "Ann=KS", "Bob=KH", "Cy=2C")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["Ann", "K♠", "<-", "deals", "first"]
    assert lines[3].startswith("Ann deals first. Ann's K♠ beats Bob's K♥: equal rank, spades outrank hearts")
    assert lines[4] == "clubs, diamonds, hearts; S3)."  # wrapped at the terminal's width (100 here)
    assert lines[5] == "Bob plays first (the dealer's left); turn order: Bob, Cy, Ann."


def test_cli_json_with_wildcards_first():
    data = ref_json("first-dealer", "Ann=KS", "Bob=QH", "Cy=W W 2C")
    assert data["dealer"] == "Ann" and data["first_player"] == "Bob"
    assert data["turn_order"] == ["Bob", "Cy", "Ann"]
    assert data["turned_up"][2] == {"name": "Cy", "turned_up": ["W", "W", "2C"], "card": "2C"}


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["Ann=KS", "Bob"], 3, "not NAME=CARDS"),
        (["Ann=KS", "Bob=KZ"], 3, "unreadable card"),
        (["Ann=KS", "Bob=KS"], 3, "appears twice"),
        (["Ann=W", "Bob=KS"], 4, "refused (S3)"),
        (["Ann=KS"], 4, "refused (S1)"),
        (["Ann=KS", "Bob=QS", "--ruleset", "rummy-2m"], 5, "no rule for choosing the first dealer"),
    ],
)
def test_cli_refusals(args, code, message):
    result = ref("first-dealer", *args)
    assert result.exit_code == code
    assert message in result.stderr and result.stdout == ""


def test_cli_in_a_subprocess():
    proc = ref_subprocess("first-dealer", "Ann=3D", "Bob=w 3C", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["dealer"] == "Bob"


def test_first_dealer_does_not_load_the_database_layer():
    code = (
        "import sys\n"
        "from rummyref.cli.app import app\n"
        "try:\n"
        "    app(['first-dealer', 'Ann=KS', 'Bob=KH'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('sqlmodel' in sys.modules, 'sqlalchemy' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip().splitlines()[-1] == "False False", proc.stderr
