"""The one card parser (SPEC §2): every spelling, the error tree, canonical printing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.cards import (
    DECK,
    WILD,
    Card,
    Rank,
    Suit,
    check_deck,
    format_cards,
    parse_card,
    parse_cards,
    parse_melds,
)
from rummyref.errors import (
    CardError,
    DuplicateCard,
    ExitCode,
    TooManyWildcards,
    UnreadableCard,
)

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)

TEN_H = Card(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize(
    "token, expected",
    [
        ("10h", TEN_H),
        ("H10", TEN_H),
        ("th", TEN_H),
        ("Ht", TEN_H),
        ("10♥", TEN_H),
        ("♡10", TEN_H),
        ("♥T", TEN_H),
        ("5♥\ufe0f", Card(Rank.FIVE, Suit.HEARTS)),
        ("as", Card(Rank.ACE, Suit.SPADES)),
        ("♠A", Card(Rank.ACE, Suit.SPADES)),
        ("Kd", Card(Rank.KING, Suit.DIAMONDS)),
        ("♢Q", Card(Rank.QUEEN, Suit.DIAMONDS)),
        ("jC", Card(Rank.JACK, Suit.CLUBS)),
        ("♧2", Card(Rank.TWO, Suit.CLUBS)),
        ("♣9", Card(Rank.NINE, Suit.CLUBS)),
        ("W", WILD),
        ("wild", WILD),
        ("WildCard", WILD),
        ("joker", WILD),
        ("JK", WILD),
        ("*", WILD),
    ],
)
def test_every_spelling_reads(token, expected):
    assert parse_card(token) == expected


def test_separators_spaces_commas_and_meld_bars():
    assert parse_melds("7s 7h,7d / 2c,3c,4c|5d 6d 7d") == [
        parse_cards("7S 7H 7D"),
        parse_cards("2C 3C 4C"),
        parse_cards("5D 6D 7D"),
    ]
    assert parse_cards("7s 7h / 7d") == parse_cards("7S 7H 7D")
    assert parse_melds("") == [[]]
    assert parse_melds("AS 2S 3S /") == [parse_cards("AS 2S 3S")]


@pytest.mark.parametrize(
    "text, token, position, column",
    [
        ("AS ZZ 3H", "ZZ", 2, 4),
        ("11H", "11H", 1, 1),
        ("AS, 2S, 1S", "1S", 3, 9),
        ("7s 7h / 7x", "7x", 3, 9),
        ("H", "H", 1, 1),
        ("Q", "Q", 1, 1),
        ("10", "10", 1, 1),
        ("ASH", "ASH", 1, 1),
    ],
)
def test_unreadable_token_says_which_where_and_what_is_valid(text, token, position, column):
    with pytest.raises(UnreadableCard) as info:
        parse_cards(text)
    err = info.value
    assert (err.token, err.position, err.column) == (token, position, column)
    assert f"card {position}" in str(err) and repr(token) in str(err)
    assert "rank" in err.hint and "suit" in err.hint and "W" in err.hint
    assert err.exit_code == ExitCode.BAD_INPUT


def test_hint_for_an_ace_typed_as_one():
    with pytest.raises(UnreadableCard) as info:
        parse_cards("1H")
    assert "AH" in info.value.hint


def test_canonical_notation_round_trips_the_whole_deck():
    assert len(set(DECK)) == 52
    for card in DECK:
        assert parse_card(str(card)) == card
        assert parse_card(card.pretty()) == card
        assert Card.from_index(card.index) == card
    assert str(WILD) == "W" and WILD.index == 52 and Card.from_index(52) == WILD


def test_cards_are_frozen_value_objects():
    card = parse_card("QS")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    assert parse_card("♠q") == card and hash(parse_card("sq")) == hash(card)
    with pytest.raises(ValueError):
        Card(Rank.ACE, None)


def test_one_deck_and_wildcard_limits():
    check_deck(parse_cards("AS 2S W W"), max_wildcards=2)
    with pytest.raises(DuplicateCard) as dup:
        check_deck(parse_cards("AS 2S as"), max_wildcards=2, where="Bill's melds")
    assert "AS" in str(dup.value) and "Bill's melds" in str(dup.value)
    with pytest.raises(TooManyWildcards) as many:
        check_deck(parse_cards("W W W"), max_wildcards=2)
    assert (many.value.found, many.value.allowed) == (3, 2)
    assert isinstance(dup.value, CardError) and isinstance(many.value, CardError)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK + (WILD,)), max_size=20), st.sampled_from([" ", ", ", ","]))
def test_printing_then_parsing_gives_the_same_cards(cards, sep):
    assert parse_cards(sep.join(str(c) for c in cards)) == cards
    assert parse_cards(format_cards(cards, pretty=True)) == cards


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_any_text_reads_or_raises_a_card_error(text):
    try:
        cards = parse_cards(text)
    except CardError:
        return
    assert all(isinstance(c, Card) for c in cards)
