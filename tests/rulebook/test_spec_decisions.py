"""The decisions of SPEC §7-§8 are stated in the rulebooks, in the product's words, and
``ref ruling`` finds them from the words a player would use."""

from __future__ import annotations

import pytest
from cli_helpers import ref_json

from rummyref.rulebook.book import load_rulebook, search


@pytest.mark.parametrize(
    "question, rule",
    [
        ("laid off ace, run or match", "rummy-2m:B5"),
        ("what does the joker stand for", "rummy-2m:B5"),
        ("which meld did the card join", "rummy-2m:B5"),
        ("voided hand who deals", "rummy-2m:A3"),
        ("night opened by mistake", "rummy-2m:A4"),
        ("tie past two million", "rummy-2m:A7"),
        ("can an opening total be past the target", "rummy-2m:A7"),
        ("a correction ends the game before the last hand", "rummy-2m:A7"),
        ("go out with a rummy card", "rummy-2m:B3"),
        ("the table meld is not a real meld", "rummy-2m:B4"),
        ("who may judge a tie", "rummy-2m:B8"),
        ("how is a hand scored", "rummy-2m:B5"),
        ("who gets credit for a card laid off", "rummy-2m:B5"),
        ("can two players start a meld together", "rummy-2m:B5"),
        ("sideways card in the record", "rummy-2m:B6"),
        ("hand has the wrong number of cards", "simple-rummy:S1"),
    ],
)
def test_ruling_finds_each_decision(question, rule):
    assert search(question)[0].rule.ref == rule
    book = rule.split(":")[0]
    assert search(question, book)[0].rule.ref == rule


@pytest.mark.parametrize(
    "book, rule, words",
    [
        ("rummy-2m", "A3", ["voided hand", "deals again"]),
        ("rummy-2m", "A4", ["abandoned", "does not count as a Rummy Night"]),
        ("rummy-2m", "A7", ["after every amend and every void", "even if that hand takes everyone back below",
                            "opening total", "refused", "would end at an earlier hand than the last one in force",
                            "Void those later hands first"]),
        ("rummy-2m", "B3", ["Going out with a Rummy! card (one that could be played", "is not allowed", "the hand goes on"]),
        ("rummy-2m", "B4", ["not a real run or match is refused"]),
        ("rummy-2m", "B5", ["W=7H", "AD>run", "counts for the run", "credited to the player who put it down",
                            "exactly one meld", "15 anywhere else", "count against that player",
                            "No card typed is ever dropped", "A meld is laid down by one player",
                            "players in alphabetical order", "unless the table says AD>KD"]),
        ("rummy-2m", "B6", ["AD^", "no WILDCARD in a run may stand for it"]),
        ("rummy-2m", "B8", ["only called, or only touched, has none and may judge"]),
        ("simple-rummy", "S1", ["the player who went out one more", "(V4)", "(V6)", "naming the player"]),
    ],
)
def test_each_decision_is_in_the_verdict(book, rule, words):
    verdict = load_rulebook(book).rule(rule).verdict
    for w in words:
        assert w in verdict, (rule, w)


def test_ref_ruling_answers_with_the_decision():
    data = ref_json("ruling", "what does the joker stand for", "--ruleset", "rummy-2m")
    text = str(data)
    assert "B5" in text and "W=7H" in text
