"""One valuation (rummyref.rules.values): what each card is worth, held or melded, under each
rule set; scoring, the disputes and the solver agree on every meld; a brute-force property."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from cli_helpers import ref_json
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.cards import RANKS, SUITS, WILD, Card, Rank, parse_card, parse_cards
from rummyref.disputes.engine import pickup_uses
from rummyref.games.long.scoring import score_cards
from rummyref.games.long.table import CardFacts, Laid, PlayerCards
from rummyref.melding.melds import HIGH_ACE, Meld, MeldKind, meld_options
from rummyref.melding.solver import arrange_all, best_melding
from rummyref.melding.solver import meld_value as solver_meld_value
from rummyref.rules import values
from rummyref.rules.ruleset import builtin_path, load_ruleset

R2M = load_ruleset("rummy-2m")
SIMPLE = load_ruleset("simple-rummy")


def house_file(tmp_path: Path, melded: str = '"represented"') -> Path:
    """A house copy of rummy-2m that allows 3 WILDCARDs (and may fix a melded WILDCARD's value)."""
    text = builtin_path("rummy-2m").read_text(encoding="utf-8")
    assert "\nmax = 2\n" in text and '\nmelded = "represented"\n' in text
    text = text.replace("\nmax = 2\n", "\nmax = 3\n").replace('\nmelded = "represented"\n', f"\nmelded = {melded}\n")
    path = tmp_path / "house-3w.toml"
    path.write_text(text, encoding="utf-8")
    return path


def meld(text: str, kind: MeldKind | None = None) -> Meld:
    """The cards as one meld (of ``kind``); ``W 2S 3S=AS``: a run whose WILDCARD is the low ace."""
    if text == "W 2S 3S=AS":
        return Meld(MeldKind.SEQUENCE, (WILD, *parse_cards("2S 3S")), tuple(parse_cards("AS 2S 3S")), low=1)
    options = [m for m in meld_options(parse_cards(text), aces_high=True) if kind in (None, m.kind)]
    assert options, text
    return options[0]


# -- each card, each built-in rule set -------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, card, worth",
    [
        (R2M, "AS", 15), (R2M, "2H", 2), (R2M, "9D", 9), (R2M, "10C", 10), (R2M, "JS", 10), (R2M, "QH", 10),
        (R2M, "KD", 10), (R2M, "W", 15),  # a WILDCARD left in hand: the penalty
        (SIMPLE, "AS", 1), (SIMPLE, "2H", 2), (SIMPLE, "10C", 10), (SIMPLE, "JS", 11), (SIMPLE, "QH", 12),
        (SIMPLE, "KD", 13), (SIMPLE, "W", 0),  # S13
    ],
)  # fmt: skip
def test_a_card_held(ruleset, card, worth):
    assert values.held(parse_card(card), ruleset) == worth


def test_held_total_and_wild_penalty():
    cards = parse_cards("W KS 2C W")
    assert (values.held_total(cards, R2M), values.wild_penalty(cards, R2M)) == (42, 30)
    assert (values.held_total(cards, SIMPLE), values.wild_penalty(cards, SIMPLE)) == (15, 0)


def test_the_low_count_is_the_solvers_count():
    """S13: the count of the unmelded cards of the best melding, J 11 Q 12 K 13, W 0."""
    for hand, count in [("JS QH KD 2C 3C 4C", 36), ("JS QH W", 23), ("KD AC 5S 5H W", 14)]:
        best = best_melding(parse_cards(hand), SIMPLE)
        assert best.count == values.held_total(best.unmelded, SIMPLE) == count


@pytest.mark.parametrize(
    "text, kind, ruleset, each",
    [
        ("AS 2S 3S", None, R2M, (1, 2, 3)),  # an ace at the low end of a run
        ("QS KS AS", None, R2M, (10, 10, 15)),  # an ace high
        ("AS AH AD", None, R2M, (15, 15, 15)),  # a match of aces
        ("W 2S 3S=AS", MeldKind.SEQUENCE, R2M, (1, 2, 3)),  # the WILDCARD is the low ace
        ("QS KS W", MeldKind.SEQUENCE, R2M, (10, 10, 15)),  # the WILDCARD is the high ace
        ("7S 7H W", None, R2M, (7, 7, 7)),
        ("W W W", None, R2M, (15, 15, 15)),  # an all-WILDCARD meld: the WILDCARD value each
        ("W W W", None, SIMPLE, (0, 0, 0)),
        ("JS QS KS", None, SIMPLE, (11, 12, 13)),
        ("AS 2S 3S", None, SIMPLE, (1, 2, 3)),
        ("QS KS AS", None, SIMPLE, (12, 13, 1)),
    ],
)
def test_each_card_where_it_sits(text, kind, ruleset, each):
    m = meld(text, kind)
    assert values.in_meld(m, ruleset) == each
    assert values.meld_value(m, ruleset) == sum(each)


def test_a_fixed_value_for_melded_wildcards():
    fixed = dataclasses.replace(R2M, wild_melded=20)
    assert values.in_meld(meld("7S 7H W"), fixed) == (7, 7, 20)
    assert values.in_meld(meld("W 2S 3S=AS", MeldKind.SEQUENCE), fixed) == (20, 2, 3)
    assert values.in_meld(meld("W W W"), fixed) == (15, 15, 15)  # stands for nothing: its own value


# -- scoring, the disputes and the solver agree ------------------------------------------------

AGREEMENT_MELDS = [
    "W W W",
    "AS 2S W",
    "W 2S 3S",
    "QS KS W",
    "QS W AS",
    "7S 7H W",
    "AS AH W",
    "9D 10D W W",
    "KC W W",
    "5H 6H 7H 8H",
]


@pytest.mark.parametrize("melded", ['"represented"', "5"])
@pytest.mark.parametrize("text", AGREEMENT_MELDS)
def test_scoring_disputes_and_solver_agree_on_every_meld(tmp_path, text, melded):
    """With a house rule set allowing 3 WILDCARDs: the value scoring credits for a meld, the
    value ``ref dispute pickup`` gives the same meld made from the card taken and the hand,
    and the solver's meld value are one number. (0.1's pickup valued W W W at 0.)"""
    rs = load_ruleset(house_file(tmp_path, melded))
    cards = parse_cards(text)
    players = (("Ann", PlayerCards(melded=(tuple(Laid(c) for c in cards),), stated=True)), ("Bob", PlayerCards()))
    score = score_cards(CardFacts(players), rs, 3, ("Ann", "Bob"))
    (arranged,) = score.arrangement
    assert score.scores[0].melded == arranged.value

    taken, hand = cards[0], cards[1:]
    uses, _capped = pickup_uses(taken, hand, [], rs)
    same = [u for u in uses if u.how == "new meld" and u.meld.describe() == arranged.shown]
    assert same, [u.meld.describe() for u in uses]
    assert sorted(same[0].from_hand, key=Card.sort_key) == sorted(hand, key=Card.sort_key)

    (solved,) = arrange_all(cards, rs).melds
    assert solved.describe() == arranged.shown
    assert same[0].value == arranged.value == solver_meld_value(solved, rs) == values.meld_value(solved, rs)


def test_ref_dispute_pickup_and_score_hand_value_w_w_w_alike(tmp_path):
    """The bug of issue 11, at the command line: a game under the house rule set, W W W melded."""
    house = str(house_file(tmp_path))
    ref_json("new-session", "--ruleset", house, "--wildcards", "3")
    scored = ref_json("score-hand", "--melded", "Bill=W W W", "--held", "Ben=", "--held", "Larry=5C", "--out", "Bill")
    assert scored["score"]["scores"][0]["melded"] == 45
    ruling = ref_json("dispute", "pickup", "W", "--hand", "W W", "--no-record")
    assert [u["value"] for u in ruling["details"]["uses"]] == [45]


# -- a brute-force recomputation ----------------------------------------------------------------


def _position_value(pos: int, rs) -> int:
    """Independent of rules.values: a sequence position's worth (1 = ace low, 14 = ace high)."""
    if pos == 1:
        return rs.ace_low_run_value
    return rs.values[1] if pos == HIGH_ACE else rs.values[pos]


def brute_force(m: Meld, rs) -> int:
    """The meld's value recomputed from its kind and shape, never from ``represents``' ace flags."""
    n_wild = sum(c.rank is None for c in m.cards)
    fixed = rs.wild_melded if isinstance(rs.wild_melded, int) else None
    if m.kind is MeldKind.WILD:
        return n_wild * rs.wild_unmelded
    if m.kind is MeldKind.GROUP:
        rank = next(c.rank for c in m.cards if c.rank is not None)
        naturals = (len(m.cards) - n_wild) * rs.values[rank]
        return naturals + n_wild * (rs.values[rank] if fixed is None else fixed)
    total = 0
    for pos, card in zip(range(m.low, m.low + len(m.cards)), m.cards):
        total += _position_value(pos, rs) if card.rank is not None or fixed is None else fixed
    return total


@st.composite
def rulesets(draw):
    worth = st.integers(0, 30)
    return dataclasses.replace(
        R2M,
        values=(0, *draw(st.lists(worth, min_size=13, max_size=13))),
        ace_low_run_value=draw(worth),
        wild_unmelded=draw(worth),
        wild_melded=draw(st.one_of(st.just("represented"), worth)),
        aces_high=draw(st.booleans()),
    )


@st.composite
def melds(draw, aces_high: bool):
    """A random valid meld: a group, a sequence (some cards replaced by WILDCARDs) or WILDCARDs."""
    kind = draw(st.sampled_from(["group", "sequence", "wild"]))
    if kind == "wild":
        cards = [WILD] * draw(st.integers(3, 6))
    elif kind == "group":
        rank = draw(st.sampled_from(RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True))
        n_wild = draw(st.integers(max(0, 3 - len(suits)), 3))
        cards = [Card(rank, s) for s in suits] + [WILD] * n_wild
    else:
        top = 14 if aces_high else 13
        length = draw(st.integers(3, 8))
        start = draw(st.integers(1, top - length + 1))
        suit = draw(st.sampled_from(SUITS))
        cards = [Card(Rank.ACE if p == HIGH_ACE else Rank(p), suit) for p in range(start, start + length)]
        wild_at = draw(st.sets(st.integers(0, length - 1), max_size=length - 1))
        cards = [WILD if i in wild_at else c for i, c in enumerate(cards)]
    order = draw(st.permutations(cards))
    options = meld_options(order, aces_high)
    assert options, order
    return draw(st.sampled_from(options))


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_meld_value_matches_a_brute_force_recomputation(data):
    rs = data.draw(rulesets())
    m = data.draw(melds(rs.aces_high))
    assert values.meld_value(m, rs) == brute_force(m, rs)
    assert len(values.in_meld(m, rs)) == len(m.cards)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_held_total_matches_a_brute_force_recomputation(data):
    rs = data.draw(rulesets())
    cards = data.draw(st.lists(st.sampled_from((*[Card(r, s) for r in RANKS for s in SUITS], WILD)), max_size=15))
    expected = sum(rs.wild_unmelded if c is WILD or c.rank is None else rs.values[int(c.rank)] for c in cards)
    assert values.held_total(cards, rs) == expected
