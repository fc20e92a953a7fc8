"""The table as melds (SPEC §7, issue 12): the notation, B5 and B6 in the record, WILDCARDs
stated or chosen, credits that agree with the arrangement card by card, 0.1 records re-read
as history, and the refusals (exit 3 unreadable, exit 4 a rule), each naming player and option."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.cards import SUITS, Card, Rank, parse_card
from rummyref.errors import ExitCode, RuleRefusal, RummyrefError, UnreadableInput
from rummyref.games.long.scoring import facts_from_json, facts_to_json, score_hand
from rummyref.games.long.table import Kind, Laid, Where, read_cards, read_hand, read_melded, read_token
from rummyref.rules.ruleset import load_ruleset

RS = load_ruleset("rummy-2m")
ROSTER = ("Bill", "Ben", "Larry")


def score(melded=(), held=(), claims=(), out=None, roster=ROSTER, wildcards=2):
    facts = read_hand(roster, melded, held, claims, out)
    return facts, score_hand(facts, RS, wildcards, roster)


def points(*args, **kw) -> dict[str, int]:
    return score(*args, **kw)[1].points()


def agrees(facts, s) -> None:
    """The invariants of every scored hand: credits = the arrangement's values, each card
    credited to the player who laid it, no card typed lost."""
    assert sum(p.melded + p.claimed for p in s.scores) == sum(m.value for m in s.arrangement)
    for m in s.arrangement:
        assert sum(c.value for c in m.laid) == m.value
    typed = Counter((str(c.card), n, False) for n, p in facts.players for c in p.laid)
    typed += Counter((str(c.card), n, True) for n, c in facts.claims)
    shown = Counter((c.card, c.by, c.claimed) for m in s.arrangement for c in m.laid)
    assert shown == typed
    for p in s.scores:
        laid = [c for m in s.arrangement for c in m.laid if c.by == p.name]
        assert p.melded == sum(c.value for c in laid if not c.claimed)
        assert p.claimed == sum(c.value for c in laid if c.claimed)


def laid_by(s, card: str) -> tuple[str, int, str]:
    """(who, value, what it counts as) of a card on the table."""
    [c] = [c for m in s.arrangement for c in m.laid if c.card == card]
    return c.by, c.value, c.counts_as


# -- the notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token, laid",
    [
        ("AD", Laid(parse_card("AD"))),
        ("ad>RUN", Laid(parse_card("AD"), kind=Kind.RUN)),
        ("AD>sequence", Laid(parse_card("AD"), kind=Kind.RUN)),
        ("AD>match", Laid(parse_card("AD"), kind=Kind.MATCH)),
        ("AD>set", Laid(parse_card("AD"), kind=Kind.MATCH)),
        ("AD^", Laid(parse_card("AD"), kind=Kind.MATCH)),
        ("AD>larry", Laid(parse_card("AD"), player="Larry")),
        ("AD>2d", Laid(parse_card("AD"), beside=parse_card("2D"))),
        ("W=7H", Laid(parse_card("W"), stands_for=parse_card("7H"))),
        ("joker=♥7>Larry>run", Laid(parse_card("W"), parse_card("7H"), Kind.RUN, "Larry")),
        ("W=KC>KS^", Laid(parse_card("W"), parse_card("KC"), Kind.MATCH, beside=parse_card("KS"))),
    ],
)
def test_tokens_read_and_print_back(token, laid):
    got = read_token(token, Where("Ben", "--melded"), ROSTER)
    assert got == laid
    assert read_token(str(got), Where("Ben", "--melded"), ROSTER) == got


def test_spaces_around_the_marks_are_allowed_and_slash_states_melds():
    groups, stated = read_melded("AS AH AC / AD > run , W = 7H", Where("Bill", "--melded"), ROSTER)
    assert stated and [len(g) for g in groups] == [3, 2]
    assert groups[1] == (Laid(parse_card("AD"), kind=Kind.RUN), Laid(parse_card("W"), parse_card("7H")))
    assert read_melded("7S 7H 7D", Where("Bill", "--melded"), ROSTER)[1] is False
    assert read_melded("AS AH AC /", Where("Bill", "--melded"), ROSTER)[1] is True


def test_a_slash_in_held_or_claim_drops_no_card():
    assert [str(c) for c in read_cards("KS / 2C | 3D", Where("Ben", "--held"))] == ["KS", "2C", "3D"]
    facts = read_hand(ROSTER, ["Bill=8C 9C 10C"], ["Ben=KS / 2C"], ["Larry=JC / QC"])
    assert [str(c) for c in facts.player("Ben").held] == ["KS", "2C"]
    assert [(n, str(c)) for n, c in facts.claims] == [("Larry", "JC"), ("Larry", "QC")]
    _, s = score(["Bill=8C 9C 10C"], ["Ben=KS / 2C"], ["Larry=JC / QC"])
    assert s.points() == {"Bill": 27, "Ben": -12, "Larry": 20}


@pytest.mark.parametrize(
    "melded, held, claims, words",
    [
        (["Ben=AD>"], [], [], ["Ben's AD> (--melded)", "nothing after '>'"]),
        (["Ben=> AD"], [], [], ["Ben's >AD (--melded, card 1, column 1): no card before '>'", "e.g. AD>run"]),
        (["Ben=^"], [], [], ["Ben's ^ (--melded, card 1, column 1): no card before '^'"]),
        (["Ben=AD>Lary"], [], [], ["Ben's AD>Lary (--melded)", "did you mean Larry?"]),
        (["Ben=AD>W"], [], [], ["a WILDCARD does not say which meld"]),
        (["Ben=7H=7S"], [], [], ["Ben's 7H=7S (--melded)", "only a WILDCARD stands for another card"]),
        (["Ben=W=W"], [], [], ["a WILDCARD stands for a natural card"]),
        (["Ben=AD^^"], [], [], ["sideways"]),
        (["Ben=AD>run>match"], [], [], ["two different things", "a run and a match"]),
        (["Ben=5D>2D>3D"], [], [], ["Ben's 5D>2D>3D (--melded)", "beside the 2D and beside the 3D", "5D>2D"]),
        (["Ben=AD>Bill>Larry"], [], [], ["Bill's meld and Larry's", "e.g. AD>Bill"]),
        (["Ben=AD>AD"], [], [], ["cannot join the meld holding itself"]),
        (["Ben=ZZ"], [], [], ["unreadable card 'ZZ' in Ben's --melded cards (card 1, column 1)"]),
        ([], ["Ben=AD>run"], [], ["Ben's AD>run (--held)", "a card left in hand joins no meld"]),
        ([], ["Ben=W=7H"], [], ["Ben's W=7H (--held)"]),
        ([], [], ["Larry="], ["--claim for Larry: which card?"]),
        (["Bill=7S 7H 7D", "Ben=7C>Larry"], [], [], ["Ben's 7C>Larry (--melded): Larry put no other card"]),
        (["Bill=7S 7H 7D", "Ben=8S>9S"], ["Larry=9S"], [], ["the 9S is not on the table (it is in Larry's hand)"]),
        (["Bill=7S 7H 7D", "Ben=8S>9S"], [], [], ["the 9S is not on the table (nobody laid it)"]),
        (["Bill=W=3C 4C 5C", "Ben=6C>3C"], [], [],  # the 3C there is a WILDCARD: >CARD names a card as laid
         ["Ben's 6C>3C (--melded): the 3C on the table is Bill's WILDCARD (W=3C)", "(>Bill)"]),
        (["Bill=7S 7H 7D"], ["Larry=7H"], [], ["the 7H appears twice (in Bill's --melded and Larry's --held)"]),
        (["Bill=W W W 5S"], [], [], ["3 WILDCARDs given, but this game was created with 2 WILDCARDs (fixed at new-session)"]),
    ],
)
def test_unreadable_or_meaningless_input_is_exit_3_naming_player_and_option(melded, held, claims, words):
    with pytest.raises(UnreadableInput) as exc:
        score(melded, held, claims)
    assert exc.value.exit_code == ExitCode.BAD_INPUT
    for w in words:
        assert w in exc.value.message + " " + (exc.value.hint or ""), exc.value.message


# -- B5: a card that fits a run and a match counts for the run ----------------------------------


@pytest.mark.parametrize("roster", list(itertools.permutations(ROSTER)))
def test_issue_example_laid_off_ace_counts_for_the_run_whatever_the_roster_order(roster):
    facts, s = score(["Bill=AS AH AC", "Larry=2D 3D 4D", "Ben=AD"], roster=roster)
    assert s.points() == {"Bill": 45, "Larry": 9, "Ben": 1}
    assert laid_by(s, "AD") == ("Ben", 1, "AD")
    assert sorted((m.kind, m.cards) for m in s.arrangement) == [
        ("group", ("AS", "AH", "AC")), ("sequence", ("AD", "2D", "3D", "4D"))]
    assert any("Ben's AD fits the run and the match" in n and "(B5)" in n for n in s.notes)
    agrees(facts, s)


@pytest.mark.parametrize(
    "ben, where, b5",
    [
        ("W", ("sequence", ("5H", "6H", "7H", "W")), True),  # fits both: the run, by B5's default
        ("W>match", ("group", ("KS", "KH", "KD", "W")), False),  # the table said the match
        ("W=KC", ("group", ("KS", "KH", "KD", "W")), False),  # a W standing for KC fits the match only
        ("W=4H", ("sequence", ("W", "5H", "6H", "7H")), False),  # ... the run only
    ],
)
def test_a_wildcard_laid_off_that_fits_a_run_and_a_match_counts_for_the_run(ben, where, b5):
    facts, s = score(["Bill=5H 6H 7H", "Larry=KS KH KD", f"Ben={ben}"])
    meld = next(m for m in s.arrangement if "W" in m.cards)
    assert (meld.kind, meld.cards) == where
    assert meld.defaulted == (("Ben's W",) if b5 else ())
    assert meld.decided == ("B5" if b5 else "table")
    assert any("Ben's W fits the run and the match KS KH KD" in n and "(B5)" in n for n in s.notes) is b5
    agrees(facts, s)


@pytest.mark.parametrize("roster", list(itertools.permutations(ROSTER)))
def test_issue_example_the_same_with_a_rummy_claim(roster):
    facts, s = score(["Bill=AS AH AC", "Larry=2D 3D 4D"], claims=["Ben=AD"], roster=roster)
    ben = next(p for p in s.scores if p.name == "Ben")
    assert (ben.points, ben.melded, ben.claimed) == (1, 0, 1)
    agrees(facts, s)


@pytest.mark.parametrize("bill, larry", [("AS AH AC /", "2D 3D 4D"), ("AS AH AC", "2D 3D 4D /"),
                                         ("AS AH AC / KS KH KD", "2D 3D 4D / 9C 10C JC")])
def test_issue_example_when_a_player_states_their_own_melds(bill, larry):
    facts, s = score([f"Bill={bill}", f"Larry={larry}", "Ben=AD"])
    assert laid_by(s, "AD") == ("Ben", 1, "AD")
    agrees(facts, s)


@pytest.mark.parametrize(
    "ben, value, meld",
    [
        ("AD>match", 15, ("AS", "AH", "AD", "AC")),
        ("AD^", 15, ("AS", "AH", "AD", "AC")),
        ("AD>Bill", 15, ("AS", "AH", "AD", "AC")),
        ("AD>AC", 15, ("AS", "AH", "AD", "AC")),
        ("AD>run", 1, ("AD", "2D", "3D", "4D")),
        ("AD>Larry", 1, ("AD", "2D", "3D", "4D")),
        ("AD>3D", 1, ("AD", "2D", "3D", "4D")),
        ("AS AH AC / AD", 1, ("AD", "2D", "3D", "4D")),  # Ben's own match, then the AD laid off: B5
    ],
)
def test_the_table_says_where_the_ace_went(ben, value, meld):
    melded = ["Larry=2D 3D 4D", f"Ben={ben}"] + ([] if "AS" in ben else ["Bill=AS AH AC"])
    facts, s = score(melded)
    assert laid_by(s, "AD")[:2] == ("Ben", value)
    assert meld in [m.cards for m in s.arrangement]
    agrees(facts, s)


def test_a_players_own_cards_make_their_own_melds_first():
    # four aces laid by Bill at once are his match: the AD is not a lay-off
    facts, s = score(["Bill=AS AH AC AD", "Larry=2D 3D 4D"])
    assert s.points() == {"Bill": 60, "Ben": 0, "Larry": 9}
    facts, s = score(["Bill=3D 3S 3H 3C 4D 5D 6D"])  # the 3D counts for Bill's own run (B5)
    assert ("3D", "4D", "5D", "6D") in [m.cards for m in s.arrangement]
    agrees(facts, s)


def test_own_cards_are_rearranged_only_when_nothing_else_seats_every_card():
    # the engine would run 7S 8S 9S, leaving 7H 7D nowhere; the match and two lay-offs fit
    facts, s = score(["Bill=7S 7H 7D 8S 9S", "Larry=10S JS QS"])
    assert sorted(m.cards for m in s.arrangement) == [("7S", "7H", "7D"), ("8S", "9S", "10S", "JS", "QS")]
    assert s.points() == {"Bill": 38, "Ben": 0, "Larry": 30}
    agrees(facts, s)


def test_a_stated_wildcard_counts_for_its_rank_when_a_players_matches_go_first():
    # Larry's 2S W=2D 2C was his match; the engine runs W=2D 3D 4D 5D, which leaves 2S 2C
    # nowhere. Taking the matches first must count W=2D as a 2: without it this legal table
    # (found by bench/bench_hunt.py) was refused after the whole search budget
    melded = ["Bill=7C 8C 9C AC JH QH KH JS W KS", "Ben=10C>run QC 6D>Larry 7D W 3H W 5H 6H 7H 8H>run",
              "Larry=2S W=2D 2C JC>Bill JD QD KD 3D 4D 5D 3S 4S 5S 6S>run AS"]
    claims = ["Larry=KC", "Larry=10D>JD", "Bill=10H>run", "Ben=8D>3D", "Bill=10S", "Larry=W"]
    facts, s = score(melded, claims=claims, wildcards=7)
    assert ("2S", "2C", "W") in [m.cards for m in s.arrangement]
    assert ("3D", "4D", "5D", "6D", "7D", "8D") in [m.cards for m in s.arrangement]
    assert s.points() == {"Bill": 119, "Ben": 76, "Larry": 106}
    agrees(facts, s)


def test_an_ace_laid_off_high_on_a_run_its_other_cards_will_reach():
    # 7D 8D W, then 10D, W (JD), QD, KD and AD>7D: read low the AD leaves five holes (2D-6D)
    # no card can fill; read high, the cards to come fill them. The search cut this branch
    # (the reading with the fewest holes is not the one the cards to come fill) and refused
    facts, s = score(["Ben=7D 8D W / KD", "Bill=QD>Ben", "Larry=10D"], claims=["Larry=W", "Larry=AD>7D"],
                     wildcards=7)
    assert [m.cards for m in s.arrangement] == [("7D", "8D", "W", "10D", "W", "QD", "KD", "AD")]
    assert s.points() == {"Bill": 10, "Ben": 34, "Larry": 35}
    agrees(facts, s)


@pytest.mark.parametrize(
    "melded, claims",
    [  # legal tables found by bench/bench_hunt.py, refused by the same cut
        (["Bill=6S W=6C 6D 8C 9C 10C QD>Ben", "Ben=7S 7H 7C / 7D 8D W / KD / QH KH AH",
          "Larry=2C 2H 2S 10D 4S 4C 4H"], ["Ben=2D>2C", "Larry=W", "Larry=AD>7D"]),
        (["Bill=6H>run 7S 8S 9S JS>7S W=QS>run KS 7D 2C 8C>run KC>Ben",
          "Ben=3H 4H 5H 7H>run 8H>Ben 8D 2S W=2D 2H 10C W QC",
          "Larry=9H>3H / 6S>Bill / 10S>run / 4D 5D W=6D / 7C / AC>10C"], ["Bill=10H", "Larry=AS", "Larry=9C>Ben"]),
    ],
)
def test_legal_tables_with_aces_high_are_seated(melded, claims):
    facts, s = score(melded, claims=claims, wildcards=7)
    agrees(facts, s)


def test_lay_offs_chain_on_a_run_and_a_claimed_card_melds_with_the_claimers_own():
    facts, s = score(["Bill=8C 9C 10C", "Ben=QC"], ["Ben=2D"], ["Larry=JC"])
    assert s.points() == {"Bill": 27, "Ben": 8, "Larry": 10}
    facts, s = score(["Bill=9D 10D JD", "Larry=5S 5D"], claims=["Larry=5H"])
    assert s.points() == {"Bill": 29, "Ben": 0, "Larry": 15}
    assert next(p for p in s.scores if p.name == "Larry").claimed == 5
    agrees(facts, s)


# -- WILDCARDs: what they stand for, and who is credited --------------------------------------


def test_issue_example_wildcards_credit_who_laid_them():
    # Ben's W laid off on Larry's kings; Bill's W in his own run: the engine reads it at the
    # high end (7H)
    facts, s = score(["Bill=5H 6H W", "Larry=KS KH KD", "Ben=W>Larry"])
    assert s.points() == {"Bill": 18, "Ben": 10, "Larry": 30}
    assert [c.counts_as for m in s.arrangement for c in m.laid if c.by == "Bill" and c.card == "W"] == ["7H"]
    assert laid_by(s, "KS")[0] == "Larry"
    assert any("Bill's W as 7H: ref's choice" in n for n in s.notes)
    agrees(facts, s)


@pytest.mark.parametrize(
    "bill, ben, points",
    [
        ("5H 6H W=7H", "W>KS", {"Bill": 18, "Ben": 10, "Larry": 30}),
        ("5H 6H W=4H", "W>KS", {"Bill": 15, "Ben": 10, "Larry": 30}),
        ("5H 6H W=4H", "W=KC", {"Bill": 15, "Ben": 10, "Larry": 30}),
        ("5H 6H W=4H", "W^", {"Bill": 15, "Ben": 10, "Larry": 30}),
        # nothing said: B5 puts Ben's W on the run too, above Bill's (7H, then 8H)
        ("5H 6H W", "W", {"Bill": 18, "Ben": 8, "Larry": 30}),
        ("5H 6H W=4H", "W", {"Bill": 15, "Ben": 7, "Larry": 30}),
        ("5H 6H W", "W=4H", {"Bill": 18, "Ben": 4, "Larry": 30}),
    ],
)
def test_the_table_says_what_a_wildcard_stands_for(bill, ben, points):
    facts, s = score([f"Bill={bill}", "Larry=KS KH KD", f"Ben={ben}"])
    assert s.points() == points
    agrees(facts, s)


def test_a_stated_wildcard_that_fits_nowhere_is_refused():
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=5H 6H 7H", "Ben=W=9S"])
    assert "Ben's W=9S (--melded)" in exc.value.message and exc.value.exit_code == ExitCode.REFUSED


def test_a_refusal_asks_the_engine_once_per_set_of_cards(monkeypatch):
    """The trial seatings that look for the designation at fault drop a designation, not a
    card: whether the engine melds the table's cards is worked out once for all of them."""
    from rummyref.melding import solver

    asked: Counter = Counter()
    real = solver.every_card_melds

    def counted(cards, ruleset):
        asked[tuple(sorted(str(c) for c in cards))] += 1
        return real(cards, ruleset)

    monkeypatch.setattr(solver, "every_card_melds", counted)
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=JH QH W / 10H>Bill 7H", "Ben=8D 8S 8H W>match 2C 2H 2D"], claims=["Ben=9H"])
    assert exc.value.message.startswith("Ben's W>match (--melded) cannot be: with it the cards on the table")
    assert asked and max(asked.values()) == 1


def test_the_trials_of_a_refusal_are_cut_by_what_the_engine_said():
    """The trial seatings that look for the card at fault are cut where the engine has said
    the cards left cannot all meld: within their steps they find the one card (before, they ran
    out of steps and the refusal could only list every card)."""
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=8S 9S 10S / 7S>8S / QS>run / 7D / 3H / KH KD W=KS / 10H 10C 10D / 5H 5S 5C",
               "Ben=W>Bill 4H 4S 4C", "Larry=AD W W=3D 6C 7C 8C 4D 5D W JC JH JD"],
              claims=["Larry=8D>run"], wildcards=7)
    assert exc.value.message == ("Bill's 3H (--melded) cannot sit in any meld on the table (every other card can)")
    assert exc.value.exit_code == ExitCode.REFUSED


def test_a_table_without_founders_enough_is_refused_before_the_search(monkeypatch):
    """A table whose cards all meld, but not each meld around three cards that may have laid
    it: refused by the founders' test, with no exact cover searched for it. Before, the cover
    ran out of steps on this one ("too many ways to try"); now a trial seating finds the card."""
    from rummyref.games.long import cover

    searched: list[bool] = []
    real = cover.cover

    def counted(*args, **kwargs):
        searched.append(kwargs.get("ruleset") is not None)  # the seating's own cover, not a trial
        return real(*args, **kwargs)

    monkeypatch.setattr(cover, "cover", counted)
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=W W KD 10D>run 6S 2H 3C 4C 5C 6C 9C>Bill QS KS AS W 4D 5D",
               "Ben=7S 8S W=9S / 6H>Larry / 7H>Larry / 8H>run / 7C>3C KH",
               "Larry=W>Bill / 3H 4H 5H / W>run / 8C"],
              claims=["Ben=AH", "Larry=10C", "Bill=JC", "Larry=2D", "Bill=6D>run"], wildcards=7)
    assert exc.value.message == "Ben's KH (--melded) cannot sit in any meld on the table (every other card can)"
    assert exc.value.exit_code == ExitCode.REFUSED
    assert not any(searched)
    # and so it is: without the KH the table is seated (so it is without Bill's 10D, too)
    score(["Bill=W W KD 10D>run 6S 2H 3C 4C 5C 6C 9C>Bill QS KS AS W 4D 5D",
           "Ben=7S 8S W=9S / 6H>Larry / 7H>Larry / 8H>run / 7C>3C",
           "Larry=W>Bill / 3H 4H 5H / W>run / 8C"],
          claims=["Ben=AH", "Larry=10C", "Bill=JC", "Larry=2D", "Bill=6D>run"], wildcards=7)


@pytest.mark.parametrize(("melded", "refused"), [
    # 5H>5S sits with the 5S, so both in a match: the run 2H 3H 4H 5H that would found the 5H
    # is no home for it, and 6S 7S are left without a third founder
    (["Bill=5S 6S 7S 2H 3H 4H", "Ben=5H>5S / KD KC KH"], True),
    (["Bill=5S 6S 7S 2H 3H 4H", "Ben=5H / KD KC KH"], False),
    # Ben's stated 7H 7D 7S 7C is a match: its 7H founds no run 7H 8H 9H for Bill
    (["Bill=8H 9H", "Ben=7H 7D 7S 7C / KS KD KC"], True),
    (["Bill=7H 8H 9H", "Ben=7D 7S 7C / KS KD KC"], False),
    # the WILDCARD of Ben's stated match 7H 7D W sits in it: none is left for Bill's 8S 9S
    (["Bill=7C 8S 9S", "Ben=7H 7D W / KS KD KC"], True),
    (["Bill=7C 8S 9S W", "Ben=7H 7D W / KS KD KC"], False),
])
def test_the_founders_test_knows_what_a_stated_meld_and_a_card_joined_say_of_the_kind(melded, refused):
    """A stated meld of two cards of a rank is a match (its WILDCARDs in it), of a suit a run;
    a card said to join the meld of a card of its rank sits with it in a match (of its suit,
    in a run)."""
    from rummyref.games.long.arrange import _all_found, _barred, _Known, _split, pieces_of

    facts = read_hand(ROSTER, melded, (), ())
    typed = pieces_of(facts)
    barred = _barred(typed)
    stated, own, loose = _split(typed, facts, RS, barred)
    assert _all_found(stated, own, loose, RS.aces_high, _Known()) is not refused
    if refused:
        with pytest.raises(RuleRefusal):
            score(melded, wildcards=7)


def test_a_run_needs_three_founders_in_a_row_so_the_table_is_refused_before_any_search(monkeypatch):
    """Ben laid 8C 9C and KC among his cards, and laid off 10C and QC; Bill claimed the JC.
    The clubs 8-K hold four cards that may found a meld, but never three in a row (10C and QC
    were laid off): no meld of them was ever laid (a core is a meld on its own), unless Ben's
    WILDCARD stood in one, and Ben's 3S needs it (3S W 5S, his own). Every card has some meld
    to sit in, taken alone; the founders' closer question says over the ranks that they cannot
    all, so the table is refused without the exact cover's search (which would say the same)."""
    import rummyref.games.long.cover as cover_module
    from rummyref.games.long.arrange import _all_found, _barred, _Known, _seat, _split, pieces_of

    melded = ["Bill=5D 5C 5H", "Ben=KD KH KS W 8C 9C 10C>Ben QC>Ben KC 3S 5S"]
    claims = ["Bill=JC"]
    facts = read_hand(ROSTER, melded, (), claims)
    typed = pieces_of(facts)
    barred = _barred(typed)
    stated, own, loose = _split(typed, facts, RS, barred)
    assert not cover_module.homeless(stated, own, loose, RS.aces_high, barred)
    assert _all_found(stated, own, loose, RS.aces_high, _Known(), close=False)  # founders enough, not in a row
    assert not _all_found(stated, own, loose, RS.aces_high, _Known())

    def no_search(*args, **kwargs):
        raise AssertionError("the exact cover searched")

    with monkeypatch.context() as m:
        m.setattr(cover_module, "cover", no_search)
        assert _seat(stated, own, loose, RS, barred) is None
    found, _ = cover_module.cover(stated, own, loose, RS.aces_high, barred)
    assert found is None  # the exact cover agrees: no seating
    # what the table said is tried first: without Ben's >Ben the 10C founds the clubs with the
    # 8C 9C, the WILDCARD is Ben's 4S, and every card sits (without the 3S, too: the WILDCARD
    # founds the clubs; the designation is named, as the guide says, before a card)
    with pytest.raises(RuleRefusal, match=r"Ben's 10C>Ben \(--melded\) cannot be: with it the cards on the table "
                                          r"cannot all sit in melds; without it they can"):
        score(melded, claims=claims)
    for without in (["Bill=5D 5C 5H", "Ben=KD KH KS W 8C 9C 10C QC>Ben KC 3S 5S"],
                     ["Bill=5D 5C 5H", "Ben=KD KH KS W 8C 9C 10C>Ben QC>Ben KC 5S"]):
        agrees(*score(without, claims=claims))


def test_a_meld_of_wildcards_alone_credits_each_at_the_wildcards_own_value():
    """A house rule set with more than 2 WILDCARDs may see W W W laid: it stands for no card,
    so each WILDCARD in it counts its own value (15), credited to whoever laid it, the one laid
    off on it too; the credits and the arrangement agree card by card."""
    facts, s = score(["Bill=W W W", "Ben=5S 6S 7S W>Bill"], ["Bill=", "Ben=", "Larry=KS"], wildcards=7)
    agrees(facts, s)
    assert s.points() == {"Bill": 45, "Ben": 18 + 15, "Larry": -10}
    [wild] = [m for m in s.arrangement if all(c.card == "W" for c in m.laid)]
    assert wild.value == 60 and [(c.by, c.value) for c in wild.laid] == [("Bill", 15)] * 3 + [("Ben", 15)]
    # without the designation the fourth WILDCARD is B5's: the run, as the card it stands for (8S)
    facts, s = score(["Bill=W W W", "Ben=5S 6S 7S W"], ["Bill=", "Ben=", "Larry=KS"], wildcards=7)
    agrees(facts, s)
    assert s.points() == {"Bill": 45, "Ben": 18 + 8, "Larry": -10}


def test_a_wildcard_in_an_ace_low_run_is_worth_one():
    _, s = score(["Bill=W=AS 2S 3S"])
    assert s.points()["Bill"] == 6 and laid_by(s, "W") == ("Bill", 1, "AS")


# -- B6: a card laid sideways cuts the run off -----------------------------------------------------


def test_b6_a_sideways_card_bars_the_run_past_it():
    facts, s = score(["Bill=4D 5D 6D W", "Ben=7D^", "Larry=7S 7H 7C"])
    assert [c.counts_as for m in s.arrangement for c in m.laid if c.card == "W"] == ["3D"]  # not the 7D
    assert s.points() == {"Bill": 18, "Ben": 7, "Larry": 21}
    agrees(facts, s)
    # without the sideways card the engine's reading stands: the W extends the run at its high end
    _, s = score(["Bill=4D 5D 6D W", "Larry=7S 7H 7C"])
    assert [c.counts_as for m in s.arrangement for c in m.laid if c.card == "W"] == ["7D"]
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=4D 5D 6D W=7D /", "Ben=7D^", "Larry=7S 7H 7C"])
    assert exc.value.rule == "B6" and "Bill's meld 4D 5D 6D W=7D (--melded)" in exc.value.message
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=4D 5D 6D", "Ben=7D^ W=7D>run", "Larry=7S 7H 7C"])
    assert exc.value.rule == "B6" and "Ben's W=7D>run (--melded)" in exc.value.message


@pytest.mark.parametrize("ben", ["AD>AC", "AD>match", "AD^"])
def test_b6_a_card_designated_to_the_match_by_a_card_of_its_rank_lies_sideways(ben):
    """``AD>AC`` puts the AD in the meld of the AC, a card of its rank: a match, so it lies
    sideways like ``AD^``, and no WILDCARD in the diamonds run may stand for it (SPEC §7, B6)."""
    facts, s = score(["Bill=AS AH AC", "Larry=W 2D 3D 4D", f"Ben={ben}"], wildcards=1)
    assert [c.counts_as for m in s.arrangement for c in m.laid if c.card == "W"] == ["5D"]  # not the AD
    assert s.points() == {"Bill": 45, "Ben": 15, "Larry": 14}
    assert [c.shown for m in s.arrangement for c in m.laid if c.card == "AD"] == ["AD^"]
    agrees(facts, s)
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=AS AH AC", "Larry=W=AD 2D 3D 4D /", f"Ben={ben}"], wildcards=1)
    assert exc.value.rule == "B6" and "Larry's meld W=AD 2D 3D 4D (--melded)" in exc.value.message


def test_b6_a_card_said_to_join_a_card_of_another_rank_is_not_sideways():
    """``AD>2D`` joins the run: nothing lies sideways, the engine's reading stands."""
    _, s = score(["Bill=AS AH AC", "Larry=2D 3D 4D", "Ben=AD>2D"])
    assert [c.shown for m in s.arrangement for c in m.laid if c.card == "AD"] == ["AD"]
    assert s.points()["Ben"] == 1


def test_b6_a_wildcard_laid_sideways_as_a_card_cuts_the_run_off_there():
    """``W=KC>KS^``: a WILDCARD as the KC on the kings, sideways: Larry's run may not read its
    WILDCARD as the KC (it reads the 9C: 39, not 40), and ``W=KC`` in his run is refused,
    as for a natural ``KC^``."""
    for ben in ("W=KC>KS^", "KC^"):
        facts, s = score(["Bill=KS KH KD", "Larry=10C JC QC W /", f"Ben={ben}"], wildcards=2)
        assert s.points()["Larry"] == 39, ben
        agrees(facts, s)
    _, s = score(["Bill=KS KH KD", "Larry=10C JC QC W /", "Ben=W=KC>KS^"], wildcards=2)
    assert [c.shown for m in s.arrangement for c in m.laid if c.by == "Ben"] == ["W=KC^"]
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=KS KH KD", "Larry=10C JC QC W=KC /", "Ben=W=KC>KS^"], wildcards=2)
    assert exc.value.rule == "B6"


@pytest.mark.parametrize("pete, shown", [("W^", "W(=AD)^"), ("W>match", "W(=AD)^"), ("W>AC", "W(=AD)^"),
                                          ("W=AD^", "W=AD^")])
def test_b6_a_bare_wildcard_laid_sideways_cuts_the_run_off_at_the_card_it_stands_for(pete, shown):
    """``W^`` on the aces reads the AD there (the only ace missing), and lies sideways as the AD:
    Ben's WILDCARD on the diamonds J-Q-K may not read the AD (15) but the 10D (10), as with
    ``W=AD^`` said (SPEC §7, B6). The table typed no card for it: ``W(=AD)^``, ref's reading."""
    facts, s = score(["Bill=JD QD KD", "Larry=AS AH AC", f"Pete={pete}", "Ben=W"],
                     roster=("Bill", "Ben", "Larry", "Pete"), wildcards=2)
    assert {c.by: (c.shown, c.value) for m in s.arrangement for c in m.laid if c.card == "W"} == {
        "Pete": (shown, 15), "Ben": ("W(=10D)", 10)}
    assert s.points() == {"Bill": 30, "Ben": 10, "Larry": 45, "Pete": 15}
    agrees(facts, s)
    # ``W>Larry`` says whose meld: Larry laid only the aces, so the WILDCARD went to a match and
    # lies sideways there as the AD, as with ``W^`` (B6: a card played on a match)
    facts, s = score(["Bill=JD QD KD", "Larry=AS AH AC", "Pete=W>Larry", "Ben=W"],
                     roster=("Bill", "Ben", "Larry", "Pete"), wildcards=2)
    assert {c.by: (c.shown, c.value) for m in s.arrangement for c in m.laid if c.card == "W"} == {
        "Pete": ("W(=AD)^", 15), "Ben": ("W(=10D)", 10)}
    agrees(facts, s)


def test_b6_a_bare_wildcard_said_to_join_a_card_seated_in_a_run_is_not_sideways():
    """``W>2D`` joins the run: it lies as a card of the run, nothing is cut off."""
    _, s = score(["Bill=AS AH AC", "Larry=2D 3D 4D", "Ben=W>2D"], wildcards=1)
    ben = [c for m in s.arrangement for c in m.laid if c.by == "Ben"]
    assert [c.shown for c in ben] in (["W(=AD)"], ["W(=5D)"])


@pytest.mark.parametrize("ben", ["AD>4D", "AD>Larry"])
def test_a_card_the_table_placed_is_not_said_to_be_b5s_default(ben):
    """``AD>4D`` and ``AD>Larry`` say which meld (Larry's only meld is the run): the run is
    the table's, not B5's default, and no note says that nothing was said."""
    _, s = score(["Bill=AS AH AC", "Larry=2D 3D 4D", f"Ben={ben}"])
    run = next(m for m in s.arrangement if m.kind == "sequence")
    assert run.decided == "table" and run.defaulted == ()
    assert not [n for n in s.notes if "B5" in n]
    assert s.points()["Ben"] == 1


def test_b5s_default_among_the_melds_of_the_player_named():
    """``AD>Larry`` where Larry laid the run and the match: the table said whose, not which
    kind, so B5 puts it in Larry's run and says so; a match of Bill's is no alternative."""
    _, s = score(["Bill=AS AH AC", "Larry=2D 3D 4D", "Ben=AD>Larry"])
    assert not [n for n in s.notes if "B5" in n]
    _, s = score(["Larry=AS AH AC 2D 3D 4D", "Ben=AD>Larry"])
    assert [n for n in s.notes if "B5" in n] and s.points()["Ben"] == 1


def test_the_designation_blamed_is_the_lay_offs_before_a_meld_laid():
    """Two WILDCARDs said to be the 7H: Bill's is in his meld 5H 6H W=7H, Ben's lies alone
    (a lay-off): Ben's is the one named, though dropping either would seat the table."""
    with pytest.raises(RuleRefusal) as exc:
        score(["Ben=W=7H", "Bill=5H 6H W=7H", "Larry=KS KH KD"])
    assert exc.value.message.startswith("Ben's W=7H (--melded) cannot be")


# -- refusals by the rules (exit 4) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "melded, claims, words",
    [
        (["Bill=4D 5D 6D", "Ben=AD>match", "Larry=7S 7H 7C"], [], ["Ben's AD>match (--melded)",
                                                                   "no match on the table takes the AD"]),
        (["Bill=4D 5D 6D", "Ben=7D>Larry>run", "Larry=7S 7H 7C"], [], ["Ben's 7D>Larry>run (--melded)"]),
        (["Bill=4D 5D 6D", "Ben=9C"], [], ["Ben's 9C (--melded) cannot sit in any meld"]),
        (["Bill=4D 5D 6D"], ["Larry=KS"], ["Larry's KS (--claim) cannot sit in any meld"]),
        (["Bill=7S 7H 7D KD / 2C 3C 4C"], [], ["Bill's meld 7S 7H 7D KD (--melded) is not a valid meld"]),
    ],
)
def test_a_table_the_rules_forbid_is_exit_4_naming_player_and_option(melded, claims, words):
    with pytest.raises(RuleRefusal) as exc:
        score(melded, claims=claims)
    assert exc.value.exit_code == ExitCode.REFUSED
    for w in words:
        assert w in exc.value.message, exc.value.message


def test_the_player_who_went_out_holds_nothing():
    with pytest.raises(RuleRefusal, match="Bill went out, so Bill holds nothing, but KS was given"):
        score(["Bill=7S 7H 7D"], ["Bill=KS"], out="Bill")


# -- the record: version 2, and 0.1 records as history --------------------------------------------


def test_facts_round_trip_through_json_with_a_version():
    facts = read_hand(ROSTER, ["Bill=AS AH AC / 5H 6H W=7H", "Larry=2D 3D 4D KS KH KD", "Ben=AD>run W>KS"],
                      ["Ben=QS / 2C"], ["Larry=8H>run"])
    data = facts_to_json(facts)
    assert data["version"] == 2 and data["players"]["Ben"]["melded"] == [["AD>run", "W>KS"]]
    assert data["claims"] == [["Larry", "8H>run"]]
    again = facts_from_json(json.loads(json.dumps(data)), ROSTER)
    assert again == facts
    assert score_hand(again, RS, 2, ROSTER) == score_hand(facts, RS, 2, ROSTER)


RECORDS_0_1 = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "records_0_1.json").read_text())


def test_hands_recorded_by_0_1_re_score_to_the_totals_stored():
    assert len(RECORDS_0_1) == 60
    for r in RECORDS_0_1:
        facts = facts_from_json(r["facts"], r["roster"])
        assert "version" not in r["facts"]
        assert score_hand(facts, RS, 2, r["roster"]).points() == r["points"]
        assert facts_to_json(facts) == r["facts"]
    # history keeps 0.1's answers, even against B5: the ace went to the match in that roster order
    assert RECORDS_0_1[0]["points"]["Ben"] == 15 and RECORDS_0_1[1]["points"]["Ben"] == 1


def test_a_newer_record_is_refused_rather_than_misread():
    with pytest.raises(UnreadableInput, match="version 3"):
        facts_from_json({"form": "cards", "version": 3, "players": {}}, ROSTER)


# -- the property: credits = arrangement, card by card; nothing lost --------------------------------


def _run(suit, start, n):
    return [Card(Rank.ACE if p == 14 else Rank(p), suit) for p in range(start, start + n)]


@st.composite
def legal_tables(draw):
    """Melds laid on the table (a core of three by one player, lay-offs at the ends by anyone,
    some claimed), WILDCARDs standing in (said or not), designations that are true of the table;
    each player stating their melds with '/' or not."""
    used: set[Card] = set()
    melds = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            n = draw(st.integers(3, 6))
            cards = _run(draw(st.sampled_from(SUITS)), draw(st.integers(1, 15 - n)), n)
            kind = "run"
        else:
            rank = Rank(draw(st.integers(1, 13)))
            cards = [Card(rank, s) for s in draw(st.permutations(SUITS))[: draw(st.integers(3, 4))]]
            kind = "match"
        if not used.intersection(cards):
            used.update(cards)
            melds.append((kind, cards))
    wild = 0
    parts: dict[str, list[str]] = {n: [] for n in ROSTER}
    claims = []
    for kind, cards in melds:
        core_at = draw(st.integers(0, len(cards) - 3))
        owner = draw(st.sampled_from(ROSTER))
        tokens = []
        for card in cards:
            token = str(card)
            if wild < 2 and draw(st.integers(0, 6)) == 0:
                wild += 1
                token = "W" + (f"={card}" if draw(st.booleans()) else "")
            tokens.append(token)
        core = tokens[core_at:core_at + 3]
        if all(t.startswith("W") for t in core):
            continue
        parts[owner].append(" ".join(core))
        naturals = [t for t in core if not t.startswith("W")]
        for i, token in enumerate(tokens):
            if core_at <= i < core_at + 3:
                continue
            how = draw(st.sampled_from(["", "", f">{kind}", f">{owner}", f">{naturals[0]}"]))
            who = draw(st.sampled_from(ROSTER))
            if draw(st.integers(0, 3)) == 0:
                claims.append(f"{who}={token}{how}")
            else:
                parts[who].append(token + how)
    melded = []
    for name, texts in parts.items():
        if texts:
            melded.append(f"{name}={(' / ' if draw(st.booleans()) else ' ').join(texts)}")
    return melded, claims


@settings(max_examples=150, deadline=None)
@given(legal_tables())
def test_property_credits_equal_the_arrangement_card_by_card(table):
    melded, claims = table
    facts, s = score(melded, claims=claims)
    agrees(facts, s)


# -- at the command line -------------------------------------------------------------------------------


def test_score_hand_records_the_issue_examples():
    assert ref("new-session", "--wildcards", "2").exit_code == 0
    data = ref_json("score-hand", "--melded", "Bill=AS AH AC", "--melded", "Larry=2D 3D 4D",
                    "--melded", "Ben=AD", "--held", "Ben=KS / 2C", "--held", "Bill=", "--held", "Larry=")
    assert data["totals"] == {"Bill": 45, "Ben": 1 - 12, "Larry": 9}
    run = next(m for m in data["score"]["arrangement"] if m["kind"] == "sequence")
    assert {"card": "AD", "as": "AD", "by": "Ben", "value": 1, "claimed": False, "shown": "AD"} in run["laid"]
    assert any("(B5)" in n for n in data["score"]["notes"])
    data = ref_json("score-hand", "--melded", "Bill=5H 6H W", "--melded", "Larry=KS KH KD",
                    "--melded", "Ben=W>Larry", "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert data["score"]["scores"][0]["melded"] == 18 and data["score"]["scores"][1]["melded"] == 10
    history = ref_json("history")["entries"]
    assert history[1]["facts"]["version"] == 2
    assert history[1]["facts"]["players"]["Ben"]["melded"] == [["W>Larry"]]
    assert ref("verify").exit_code == 0


@pytest.mark.parametrize(
    "args, code, words",
    [
        (["--melded", "Ben=AD>Lary"], 3, ["Ben's AD>Lary (--melded)", "did you mean Larry?"]),
        (["--held", "Ben=AD>run"], 3, ["Ben's AD>run (--held)"]),
        (["--melded", "Ben=AD>Larry>match"], 4, ["Ben's AD>Larry>match (--melded) cannot be", "(B5)"]),
        (["--melded", "Ben=9C"], 4, ["Ben's 9C (--melded) cannot sit in any meld"]),
    ],
)
def test_score_hand_refusals_write_nothing(args, code, words):
    assert ref("new-session").exit_code == 0
    base = ["--melded", "Bill=AS AH AC", "--melded", "Larry=2D 3D 4D", "--held", "Bill=", "--held", "Larry="]
    r = ref("score-hand", *base, *args, *([] if "--held" in args else ["--held", "Ben="]))
    assert r.exit_code == code, r.stdout + r.stderr
    for w in words:
        assert w in " ".join(r.stderr.split())
    assert ref_json("standings")["hands"] == 0


def test_everything_raised_is_a_rummyref_error_for_any_typed_text():
    for text in ["AD>", ">", "^", "W=", "=7H", "AD>>run", "AD=^", "10H>10H", "AD>Bill>Ben", "W>", "AD^>run"]:
        try:
            score(["Bill=AS AH AC", "Larry=2D 3D 4D", f"Ben={text}"])
        except RummyrefError as exc:
            assert exc.exit_code in (ExitCode.BAD_INPUT, ExitCode.REFUSED), text


def test_the_notation_at_the_prompts(monkeypatch):
    """At a terminal the same notation is read; a bad answer is asked again, naming the token."""
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    assert ref("new-session").exit_code == 0
    r = ref("score-hand", "--melded", "Bill=AS AH AC", "--melded", "Larry=2D 3D 4D", "--held", "Bill=",
            "--held", "Larry=", "--json", input="AD>Lary\nAD>match\nKS / 2C\n\nLarry=5D>2D\n\n")
    assert r.exit_code == 0, r.stderr
    assert "Ben's AD>Lary (the melded prompt): 'Lary' is not run, match, a card or a player" in " ".join(r.stderr.split())
    data = json.loads(r.stdout[r.stdout.index("{"):])
    assert data["totals"] == {"Bill": 45, "Ben": 15 - 12, "Larry": 9 + 5}
    assert data["score"]["scores"][2]["claimed"] == 5


def test_a_card_that_fits_nowhere_is_named_among_many():
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=AS AH AC", "Larry=2D 3D 4D", "Ben=AD>match"], claims=["Larry=9D", "Larry=5D>2D"])
    assert exc.value.message == "Larry's 9D (--claim) cannot sit in any meld on the table"


def test_a_wildcard_laid_sideways_as_a_card_also_in_a_run_leaves_the_run_its_card():
    """Bill's W=10C>match lies sideways on Ben's tens; Larry's natural 10C sits in his run. The
    founders' test took the WILDCARD's place for the 10C's, so the run looked cut at the 10C
    and this legal table was refused once the sixes (Bill's 6C won by a Rummy! claim) sent it
    past the trusting attempts."""
    facts, s = score(["Bill=6H 6S W=10C>match", "Ben=10H 10D 10S", "Larry=9C 8C W=JC 10C"], claims=["Bill=6C"])
    assert sorted(m.cards for m in s.arrangement) == [("10S", "10H", "10D", "W"), ("6S", "6H", "6C"),
                                                      ("8C", "9C", "10C", "W")]
    assert s.points() == {"Bill": 12 + 10 + 6, "Ben": 30, "Larry": 27 + 10}
    assert [(p.melded, p.claimed) for p in s.scores] == [(22, 6), (30, 0), (37, 0)]
    agrees(facts, s)


@pytest.mark.parametrize("melded, blamed, rule", [
    (["Bill=AS AH AC", "Ben=AD>match 2D 3D"], "Ben's AD>match (--melded)", "B6"),
    (["Bill=AS AH AC", "Ben=AD^ 2D 3D"], "Ben's AD^ (--melded)", "B6"),
    (["Bill=5H 6H 7H", "Ben=8H>run 8S 8D"], "Ben's 8H>run (--melded)", "B5"),
    (["Bill=AS AH AC", "Ben=AD>AS 2D 3D"], "Ben's AD>AS (--melded)", "B6"),
])
def test_a_designation_that_leaves_other_cards_no_meld_is_named_not_those_cards(melded, blamed, rule):
    """Without Ben's designation his card lays a meld with his own cards left over (AD 2D 3D,
    8H 8S 8D): the refusal names the designation (as typed), not the cards it strands."""
    with pytest.raises(RuleRefusal) as exc:
        score(melded)
    assert exc.value.message == (f"{blamed} cannot be: with it the cards on the table cannot all sit in melds; "
                                 "without it they can")
    assert exc.value.rule == rule
    seated = [m.replace(">match", "").replace("^", "").replace(">run", "").replace(">AS", "") for m in melded]
    facts, s = score(seated)
    agrees(facts, s)


@pytest.mark.parametrize("melded, claims, listed, alone, points", [
    (["Bill=4S", "Ben=4H", "Larry=4C"], [], "Bill's 4S (--melded); Ben's 4H (--melded); Larry's 4C (--melded)",
     "Bill=4S 4H 4C", 12),
    ([], ["Bill=4S", "Ben=4H", "Larry=4C"], "Bill's 4S (--claim); Ben's 4H (--claim); Larry's 4C (--claim)",
     "Bill=4S 4H 4C", 12),
    (["Bill=4S", "Ben=4H"], ["Larry=4C"], "Bill's 4S (--melded); Ben's 4H (--melded); Larry's 4C (--claim)",
     "Bill=4S 4H 4C", 12),
    (["Bill=5S", "Ben=6S", "Larry=7S"], [], "Bill's 5S (--melded); Ben's 6S (--melded); Larry's 7S (--melded)",
     "Bill=5S 6S 7S", 18),
    (["Bill=5S", "Ben=W", "Larry=7S"], [], "Bill's 5S (--melded); Ben's W (--melded); Larry's 7S (--melded)",
     "Bill=5S W 7S", 18),
    # Bill's QS KS, Larry's JS, Ben's claimed AS: no three of them one player's, '/' or not
    (["Bill=7S 7D 7C / QS KS", "Larry=JS"], ["Ben=AS"],
     "Bill's QS KS (--melded); Larry's JS (--melded); Ben's AS (--claim)", "Bill=7S 7D 7C / QS KS JS AS", 21 + 45),
    (["Bill=7S 7D 7C QS KS", "Larry=JS"], ["Ben=AS"],
     "Bill's QS KS (--melded); Larry's JS (--melded); Ben's AS (--claim)", "Bill=7S 7D 7C QS KS JS AS", 21 + 45),
])
def test_cards_of_three_players_lay_no_meld_between_them(melded, claims, listed, alone, points):
    """A meld is laid by one player (SPEC §1, §7): the three cards that first laid it are one
    player's. Single cards laid off or claimed by three players lay none between them, and the
    refusal names every one (before, the table was seated, and Bill's QS KS with Larry's JS a
    run only when Bill did not state his melds with '/'). The same cards laid by one player
    are seated."""
    with pytest.raises(RuleRefusal) as exc:
        score(melded, claims=claims)
    assert exc.value.exit_code == ExitCode.REFUSED
    assert exc.value.message == f"{listed} cannot sit in any meld on the table"
    facts, s = score([alone])
    assert s.points() == {"Bill": points, "Ben": 0, "Larry": 0}
    agrees(facts, s)


def test_a_refusal_lists_a_players_stated_groups_apart():
    """Larry stated QC KC / W: two lay-offs with nowhere to go, not one QC KC W (a run)."""
    with pytest.raises(RuleRefusal) as exc:
        score(["Larry=QC KC / W"])
    assert exc.value.message == "Larry's QC KC / W (--melded) cannot sit in any meld on the table"


@pytest.mark.parametrize("melded, claims, run_or_match, points", [
    # a group of two and the claimed card: J Q K, 10 each; Larry's fives 15 more
    (["Larry=QC KC / 5S 5D 5H"], ["Larry=JC"], ("JC", "QC", "KC"), {"Larry": 45}),
    # a group of one and two claimed cards, a run and a match
    (["Larry=KC / 5S 5D 5H"], ["Larry=JC QC"], ("JC", "QC", "KC"), {"Larry": 45}),
    (["Larry=KC / 5S 5D 5H"], ["Larry=KS", "Larry=KH"], ("KS", "KH", "KC"), {"Larry": 45}),
    # the claimed ace below the group: low, 1 (2 + 3 + 15 melded, 1 claimed)
    (["Larry=2H 3H / 5S 5D 5H"], ["Larry=AH"], ("AH", "2H", "3H"), {"Larry": 21}),
    # a WILDCARD in the group keeps the three in one piece: the KC, 10
    (["Larry=QC W / 5S 5D 5H"], ["Larry=JC"], ("JC", "QC", "W"), {"Larry": 45}),
    # queens and kings on the table: the group is not split between them, it laid the run
    (["Bill=QS QH QD / KS KH KD", "Larry=QC KC"], ["Larry=JC"], ("JC", "QC", "KC"), {"Bill": 60, "Larry": 30}),
    # the claim said it joined the group's meld: >a card of the group, >the claimer
    (["Larry=QC KC / 5S 5D 5H"], ["Larry=JC>QC"], ("JC", "QC", "KC"), {"Larry": 45}),
    (["Larry=QC KC / 5S 5D 5H"], ["Larry=JC>Larry"], ("JC", "QC", "KC"), {"Larry": 45}),
])
def test_a_stated_group_of_one_or_two_cards_lays_a_meld_with_its_players_claimed_cards(melded, claims, run_or_match,
                                                                                       points):
    """SPEC §7: a '/' group of one or two cards is laid off, unless it laid a meld with cards
    its player won by a claim: the three are the meld's core, the group whole. Before, the '/'
    made the group a lay-off, and the hand was refused. Every card credited to who laid it."""
    from rummyref.games.long.arrange import place

    melded = [m if " / " in m else m + " /" for m in melded]  # every player states the melds
    facts, s = score(melded, claims=claims)
    assert s.points() == {"Bill": 0, "Ben": 0, "Larry": 0} | points
    agrees(facts, s)
    [meld] = [t for t in place(facts, RS).melds if tuple(str(p.laid.card) for p in t.pieces) == run_or_match]
    assert meld.core == frozenset(p.id for p in meld.pieces) and not meld.stated
    assert {p.owner for p in meld.pieces} == {"Larry"}


def test_a_stated_group_is_still_laid_off_where_it_can_be():
    """Where the table seats with the group laid off, as before the group could lay a meld,
    it is laid off: the QC and KC on Bill's queens and kings (a group laid off may be split),
    Larry's QC KC and claimed AC on Ben's 9C 10C JC (one run of six, Ben's)."""
    facts, s = score(["Bill=QS QH QD / KS KH KD", "Larry=QC KC / 5S 5D 5H"])
    assert s.points() == {"Bill": 60, "Ben": 0, "Larry": 35}
    assert laid_by(s, "QC")[0] == laid_by(s, "KC")[0] == "Larry"
    assert {tuple(m.cards) for m in s.arrangement} == {("QS", "QH", "QD", "QC"), ("KS", "KH", "KD", "KC"),
                                                       ("5S", "5H", "5D")}
    facts, s = score(["Ben=9C 10C JC", "Larry=QC KC / 5S 5D 5H"], claims=["Larry=AC"])
    assert [(m.cards, m.value) for m in s.arrangement if m.kind == "sequence"] == [
        (("9C", "10C", "JC", "QC", "KC", "AC"), 9 + 10 + 10 + 10 + 10 + 15)]
    agrees(facts, s)


@pytest.mark.parametrize("melded, claims, listed", [
    # the claim is the 9C, not the JC: nothing takes it, and the QC KC have no card to lay a meld with
    (["Larry=QC KC / 5S 5D 5H"], ["Larry=9C"], "Larry's QC KC (--melded); Larry's 9C (--claim)"),
    # a meld is laid by one player: Ben's claimed JC and Larry's group lay none
    (["Larry=QC KC / 5S 5D 5H"], ["Ben=JC"], "Larry's QC KC (--melded); Ben's JC (--claim)"),
    # two groups never lay one meld
    (["Larry=QC / KC / 5S 5D 5H"], ["Larry=JC"], "Larry's QC / KC (--melded); Larry's JC (--claim)"),
])
def test_a_stated_group_with_no_claimed_card_to_lay_a_meld_with_is_refused(melded, claims, listed):
    with pytest.raises(RuleRefusal) as exc:
        score(melded, claims=claims)
    assert exc.value.exit_code == ExitCode.REFUSED
    assert exc.value.message == f"{listed} cannot sit in any meld on the table"


def test_a_refusal_beside_a_group_that_lays_a_meld_names_the_cards_at_fault():
    with pytest.raises(RuleRefusal) as exc:
        score(["Larry=QC KC / 5S 5D 5H", "Ben=9H"], claims=["Larry=JC"])
    assert exc.value.message == "Ben's 9H (--melded) cannot sit in any meld on the table"
    # a card of a group of two typed too many (Larry's group was the KC alone, with his KS KH):
    # no three of his lay a meld as typed, and the refusal lists them all, the QC among them
    with pytest.raises(RuleRefusal) as exc:
        score(["Larry=QC KC / 5S 5D 5H"], claims=["Larry=KS", "Larry=KH"])
    assert exc.value.message == "Larry's QC KC (--melded); Larry's KS KH (--claim) cannot sit in any meld on the table"


def test_a_card_sent_to_a_meld_whose_wildcard_stands_for_it_names_that_wildcard():
    """Ben's 5D>Bill where Bill's W=5D holds the 5D's place: the refusal names the WILDCARD, not
    "a meld it lays itself" (the 5D lays nothing)."""
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=3D 4D W=5D", "Ben=5D>Bill"], wildcards=1)
    assert exc.value.message == ("Ben's 5D>Bill (--melded) cannot be: no meld of Bill's takes the 5D: "
                                 "Bill's W=5D (--melded) already stands for the 5D there")
    assert exc.value.exit_code == 4


def test_a_wildcard_laid_sideways_where_a_run_needs_it_is_named_with_b6():
    """Ben's W=5D^ lies on Bill's fives as said, and cuts off the 5D that Larry's 3D 4D need
    to join his 6D 7D 8D: the cards past the 5D are at fault (B6), not the WILDCARD, which is
    legal where it stands (it was named, and told to drop its '^': audit issue12-round6,
    finding 1). Where the WILDCARD itself lays the run with Ben's 4D 6D, it is named."""
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=5S 5H 5C / 7H 8H W=9H", "Larry=3D 4D / 6D 7D 8D", "Ben=W=5D^"], wildcards=2)
    assert exc.value.rule == "B6"
    assert exc.value.message == ("Larry's 3D 4D (--melded) cannot be: they would extend a run past the 5D "
                                 "laid sideways")
    assert exc.value.hint.startswith("Ben's W=5D^ (--melded) cuts the run off there")
    score(["Bill=5S 5H 5C / 7H 8H W=9H", "Larry=6D 7D 8D /", "Ben=W=5D^"], wildcards=2)  # legal where it stands
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=5S 5H 5C", "Ben=4D 6D W=5D^"], wildcards=2)
    assert exc.value.rule == "B6"
    assert exc.value.message == ("Ben's W=5D^ (--melded) cannot be: it lies sideways as the 5D, cutting "
                                 "off a run that needs the 5D; without that the cards on the table all sit "
                                 "in melds")


def test_a_wildcard_laid_sideways_where_no_run_needs_it_is_not_blamed_on_b6():
    """Ben's W=KC^ on Larry's kings, and Bill's claimed QS (the JS was meant): the table seats
    only with the W as the JS, not as the KC, sideways or not. No run needs the KC, so the
    reason is not B6's cut-off run but what the WILDCARD was said to be (audit
    issue12-night5, finding 1)."""
    with pytest.raises(RuleRefusal) as exc:
        score(["Bill=5H 6H W=4H", "Ben=W=KC^", "Larry=KS KH KD / 8S 9S 10S"],
              held=["Ben=3C"], claims=["Bill=QS"], out="Larry", wildcards=2)
    assert exc.value.rule != "B6"
    assert exc.value.message == ("Ben's W=KC^ (--melded) cannot be: with it the cards on the table "
                                 "cannot all sit in melds; without it they can")
    assert exc.value.exit_code == 4


def test_a_wildcard_laid_sideways_as_a_card_a_run_already_holds_is_seated():
    """B6 bars a WILDCARD in a run from standing for a card that lies sideways; a WILDCARD laid
    sideways as the 5D where Larry's run holds the natural 5D cuts off no run (SPEC §5: it may
    stand for a card that sits elsewhere), as ``W=5D`` on the fives without the mark."""
    for ben in ("W=5D^", "W=5D>match", "W=5D"):
        facts, s = score(["Bill=5S 5H 5C", "Larry=3D 4D 5D 6D", f"Ben={ben}"], wildcards=2)
        assert s.points() == {"Bill": 15, "Ben": 5, "Larry": 18}, ben
        agrees(facts, s)
