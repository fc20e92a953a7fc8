"""Single-meld validity (SPEC §5), independent of the solver."""

from __future__ import annotations

import pytest

from rummyref.cards import parse_cards
from rummyref.melding.melds import MeldKind, classify, is_meld, meld_options

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)


@pytest.mark.parametrize(
    "cards, aces_high, kinds",
    [
        ("7S 7H 7D", True, ["group"]),
        ("7S 7H 7D 7C", True, ["group"]),
        ("7S 7H W", True, ["group"]),
        ("7S 7H W W W", True, ["group"]),
        ("7S 7H 7D 7C W", True, ["group"]),
        ("7S W W W", True, ["sequence", "group"]),
        ("W W W", True, ["wild"]),
        ("W W W W W W W", False, ["wild"]),
        ("W W", True, []),
        ("7S 7H", True, []),
        ("7S 7S 7H", True, []),
        ("AS 2S 3S", False, ["sequence"]),
        ("QS KS AS", True, ["sequence"]),
        ("QS KS AS", False, []),
        ("KS AS 2S", True, []),
        ("KS AS 2S", False, []),
        ("5H 6H W", True, ["sequence"]),
        ("5H W 7H", True, ["sequence"]),
        ("5H W W 8H", True, ["sequence"]),
        ("5H W 8H", True, []),
        ("5H 6H 7S", True, []),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", False, ["sequence"]),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", True, ["sequence", "sequence"]),
        ("W 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", True, []),
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS W", False, ["sequence"]),
        ("JS W W AS", True, ["sequence"]),
        ("JS W AS", True, []),
        ("JS W W AS", False, []),
    ],
)
def test_meld_validity_table(cards, aces_high, kinds):
    options = meld_options(parse_cards(cards), aces_high)
    assert [m.kind.value for m in options] == kinds
    assert is_meld(parse_cards(cards), aces_high) == bool(kinds)


def test_wildcards_say_what_they_stand_for():
    seq = classify(parse_cards("5H W 7H"), True)
    assert seq.describe() == "5H W(=6H) 7H" and seq.low == 5
    assert classify(parse_cards("QS KS W"), True).describe() == "QS KS W(=AS)"
    assert classify(parse_cards("QS KS W"), False).describe() == "W(=JS) QS KS"
    grp = classify(parse_cards("7S 7H W"), True)
    assert grp.kind is MeldKind.GROUP and grp.describe() == "7S 7H W(=7D)"


def test_b5_default_is_the_run_unless_designated():
    cards = parse_cards("AS W W")
    assert classify(cards, True).kind is MeldKind.SEQUENCE
    assert classify(cards, True).ace_low
    assert classify(cards, True, prefer=MeldKind.GROUP).kind is MeldKind.GROUP


def test_ace_high_and_low_flags():
    assert classify(parse_cards("AS 2S 3S"), True).ace_low
    high = classify(parse_cards("QS KS AS"), True)
    assert high.ace_high and not high.ace_low and high.cards[-1] == parse_cards("AS")[0]
