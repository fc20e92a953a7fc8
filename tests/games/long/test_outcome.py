"""A7 after corrections and A3/A4 with voids (SPEC §8), as pure folds over the hands in force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.errors import ExitCode, IntegrityError, RuleRefusal
from rummyref.games.long.nights import (
    Deal,
    check_end_of_night,
    check_openings,
    deal_state,
    dealer_of,
    game_status,
    night_state,
)

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)

ROSTER = ("Bill", "Ben", "Larry")
TARGET = 2_000_000
START = {"Bill": 1_999_900, "Ben": 1_999_900, "Larry": 0}


def hands(*points: tuple[int, int, int]) -> list[tuple[int, dict[str, int]]]:
    return [(i, dict(zip(ROSTER, p))) for i, p in enumerate(points, 1)]


# -- A7 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "played, over, winner, ended_at, tied, after",
    [
        ([], False, None, None, (), ()),
        ([(50, 20, 0)], False, None, None, (), ()),
        ([(100, 20, 0)], True, "Bill", 1, (), ()),
        ([(150, 120, 0)], True, "Bill", 1, (), ()),  # both past: the greatest total wins
        ([(120, 150, 0)], True, "Ben", 1, (), ()),
        # an exact tie past the mark: play goes on...
        ([(100, 100, 0)], False, None, None, ("Bill", "Ben"), ()),
        ([(100, 100, 0), (5, 5, 0)], False, None, None, ("Bill", "Ben"), ()),
        # ... until one leads alone after a hand, whatever the totals then (both back below the mark)
        ([(100, 100, 0), (-300, -200, 0)], True, "Ben", 2, (), ()),
        # ... even when a third player catches up and leads
        ([(100, 100, 0), (0, 0, 2_000_300)], True, "Larry", 2, (), ()),
        # hands recorded after the end (a correction moved the end earlier) are named
        ([(100, 20, 0), (-500, 0, 0), (1, 1, 1)], True, "Bill", 1, (), (2, 3)),
    ],
)
def test_a7_game_status(played, over, winner, ended_at, tied, after):
    o = game_status(START, hands(*played), TARGET)
    assert (o.over, o.winner, o.ended_at, o.tied, o.after_end) == (over, winner, ended_at, tied, after)


def test_a7_an_amend_that_changes_the_leader_changes_the_winner():
    played = hands((0, 0, 0), (150, 120, 0))
    assert game_status(START, played, TARGET).winner == "Bill"
    amended = [played[0], (2, {"Bill": 120, "Ben": 150, "Larry": 0})]
    assert game_status(START, amended, TARGET).winner == "Ben"
    voided = [played[0]]  # the hand voided: nobody has passed
    assert not game_status(START, voided, TARGET).over


def test_a7_a_tie_past_the_mark_broken_later_by_a_correction_of_the_tie_hand():
    played = hands((100, 100, 0), (10, -10, 0))
    assert game_status(START, played, TARGET).winner == "Bill" and game_status(START, played, TARGET).ended_at == 2
    fixed = [(1, {"Bill": 100, "Ben": 101, "Larry": 0}), played[1]]
    o = game_status(START, fixed, TARGET)
    assert (o.winner, o.ended_at, o.after_end) == ("Ben", 1, (2,))


def test_a7_the_end_after_a_tie_names_the_hand_of_the_tie():
    o = game_status(START, hands((100, 100, 0), (5, 5, 0), (-60, -50, 0), (1, 0, 0)), TARGET)
    assert (o.winner, o.ended_at, o.level_at, o.after_end) == ("Ben", 3, 1, (4,))
    o = game_status(START, hands((100, 20, 0), (1, 0, 0)), TARGET)  # no tie: passed alone
    assert (o.winner, o.ended_at, o.level_at, o.after_end) == ("Bill", 1, None, (2,))


def test_a7_no_target_never_ends():
    assert not game_status({"Ann": 0}, [(1, {"Ann": 10**9})], None).over


def test_a7_an_opening_total_at_or_past_the_target_is_refused():
    check_openings({"Bill": 1_999_999, "Ben": 0}, TARGET)
    check_openings({"Bill": 5_000_000}, None)
    with pytest.raises(RuleRefusal) as exc:
        check_openings({"Bill": 2_000_000, "Ben": 3, "Larry": 2_100_000}, TARGET)
    assert exc.value.rule == "A7" and exc.value.exit_code == ExitCode.REFUSED
    assert "Bill's 2,000,000, Larry's 2,100,000" in exc.value.message


def _reference_a7(openings, played, target):
    """The rule restated plainly: check after every hand, in order."""
    totals = dict(openings)
    level = False
    for number, pts in played:
        for n, v in pts.items():
            totals[n] += v
        best = max(totals.values())
        leaders = [n for n in totals if totals[n] == best]
        if level or any(t >= target for t in totals.values()):
            if len(leaders) == 1:
                return number, leaders[0]
            level = True
    return None, None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[st.sampled_from([-100, -50, 0, 50, 100]) for _ in ROSTER]), max_size=12))
def test_a7_property_against_the_rule_restated(points):
    played = hands(*points)
    o = game_status(START, played, TARGET)
    ended_at, winner = _reference_a7(START, played, TARGET)
    assert (o.ended_at, o.winner, o.over) == (ended_at, winner, ended_at is not None)
    if o.over:
        assert o.after_end == tuple(n for n, _ in played if n > ended_at)


# -- A3 / A4 with voids ---------------------------------------------------------------------------


def deals(*kinds: str) -> list[Deal]:
    """One deal per letter, dealt in turn: h = a hand in force, v = voided."""
    out: list[Deal] = []
    for i, k in enumerate(kinds, 1):
        dealer = night_state(ROSTER, out).next_dealer
        out.append(Deal(i, dealer, void=(k == "v")))
    return out


@pytest.mark.parametrize(
    "played, dealers, next_dealer, still, can_end",
    [
        ("", "", "Bill", (), True),
        ("h", "Bill", "Ben", ("Ben", "Larry"), False),
        ("hhh", "Bill Ben Larry", "Bill", (), True),
        ("v", "Bill", "Bill", (), True),  # the only hand voided: Bill deals again; the night may end
        ("hv", "Bill Ben", "Ben", ("Ben", "Larry"), False),  # Ben's deal did not count: he deals again
        ("hvhh", "Bill Ben Ben Larry", "Bill", (), True),
        ("hhvh", "Bill Ben Larry Larry", "Bill", (), True),
        ("vvv", "Bill Bill Bill", "Bill", (), True),
    ],
)
def test_a3_a4_a_voided_hand_is_dealt_again(played, dealers, next_dealer, still, can_end):
    night = deals(*played)
    assert " ".join(d.dealer for d in night) == dealers
    state = night_state(ROSTER, night)
    assert (state.next_dealer, state.still_to_deal, not state.mid_round) == (next_dealer, still, can_end)
    assert state.voided == played.count("v") and state.hands == played.count("h")


def test_a3_a4_a_hand_voided_after_later_ones_were_dealt():
    # Bill, Ben, Larry dealt; then Ben's hand is voided: Ben owes a deal, and deals next
    night = [Deal(1, "Bill"), Deal(2, "Ben", void=True), Deal(3, "Larry")]
    state = night_state(ROSTER, night)
    assert (state.next_dealer, state.still_to_deal, state.rounds) == ("Ben", ("Ben",), 0)
    with pytest.raises(RuleRefusal) as exc:
        check_end_of_night(state, game_over=False)
    assert exc.value.rule == "A4" and "Ben still has to deal (1 voided hand did not count)" in exc.value.message
    done = night_state(ROSTER, [*night, Deal(4, "Ben")])
    assert check_end_of_night(done, game_over=False).rounds == 1 and not done.abandoned


def test_a4_the_game_over_ends_the_night_mid_round_and_an_empty_night_is_abandoned():
    state = night_state(ROSTER, deals("h"))
    assert check_end_of_night(state, game_over=True) is state
    assert night_state(ROSTER, []).abandoned and night_state(ROSTER, deals("v", "v")).abandoned
    assert not night_state(ROSTER, deals("h", "h", "h")).abandoned


def test_without_voids_the_night_deals_as_a3_always_did():
    night = deals(*"hhhhhhh")
    assert [d.dealer for d in night] == [dealer_of(i, ROSTER) for i in range(1, 8)]
    assert night_state(ROSTER, night).still_to_deal == ("Ben", "Larry")


def test_a_dealer_not_on_the_roster_is_a_record_changed_outside_ref():
    # a log naming a player the roster lacks: exit 8, not an internal error (audit, stop 34)
    for call in (lambda: night_state(ROSTER, [Deal(1, "Steve")]), lambda: deal_state(ROSTER, [("void", "Steve")])):
        with pytest.raises(IntegrityError, match="changed outside ref: Steve dealt a hand but is not on its roster"):
            call()


# -- the log's order: a void recorded after later hands (audit r2m, item 4) -------------------------


def play(*steps: str) -> list[tuple[str, str]]:
    """The night's log: ``h`` a hand dealt by whoever ``deal_state`` says deals next; ``vNAME``
    NAME's hand voided (recorded now, after the hands before it)."""
    log: list[tuple[str, str]] = []
    for step in steps:
        if step == "h":
            log.append(("hand", deal_state(ROSTER, log).next_dealer))
        else:
            log.append(("void", step[1:]))
    return log


def test_an_earlier_hand_voided_is_dealt_again_next_then_the_rotation_resumes():
    """The audit's night: Bill, Ben; Bill's hand 1 voided; Bill deals again, then Larry, and the
    round is full with every player's hand in force (before: Larry, then the night could end
    with Bill having dealt no hand that counts)."""
    log = play("h", "h", "vBill")
    state = deal_state(ROSTER, log)
    assert (state.next_dealer, state.still_to_deal, state.owed, state.hands, state.rounds) == (
        "Bill", ("Bill", "Larry"), ("Bill",), 1, 0)
    log = play("h", "h", "vBill", "h", "h", "h")
    assert [d for k, d in log if k == "hand"] == ["Bill", "Ben", "Bill", "Larry", "Bill"]
    state = deal_state(ROSTER, log[:-1])
    assert (state.dealt, state.still_to_deal, state.rounds, state.voided) == (
        (("Bill", 1), ("Ben", 1), ("Larry", 1)), (), 1, 1)
    assert state.round().in_round == 0 and not state.round().mid_round


@pytest.mark.parametrize("steps, dealers, still", [
    # Bill Ben Larry Bill, then Ben's hand 2 voided: Ben deals it again, and the rotation (Ben's turn) goes on
    (("h", "h", "h", "h", "vBen", "h", "h"), "Bill Ben Larry Bill Ben Ben", ("Larry",)),
    # the last hand voided (a misdeal): its dealer deals again, as always
    (("h", "h", "h", "vLarry", "h"), "Bill Ben Larry Larry", ()),
    # two deals owed at once: the latest void first
    (("h", "h", "h", "vBill", "vLarry", "h"), "Bill Ben Larry Larry", ("Bill",)),
    # every hand voided: nothing is owed for A4 (the night may end as abandoned), the voids are dealt again
    (("h", "vBill"), "Bill", ()),
    (("h", "h", "vBen", "vBill"), "Bill Ben", ()),
])
def test_deals_owed_and_the_rounds(steps, dealers, still):
    log = play(*steps)
    assert " ".join(d for k, d in log if k == "hand") == dealers
    assert deal_state(ROSTER, log).still_to_deal == still


def test_a_record_of_0_2_0_reads_the_same_deals_and_owes_the_deal_spec_8_requires():
    """0.2.0 dealt on after a hand voided earlier (Bill Ben, Bill's voided, then Larry): the deals
    recorded stay as they are, and Bill still owes his: he deals next, and the round is full."""
    log = [("hand", "Bill"), ("hand", "Ben"), ("void", "Bill"), ("hand", "Larry")]
    state = deal_state(ROSTER, log)
    assert (state.next_dealer, state.still_to_deal, state.hands) == ("Bill", ("Bill",), 2)
    assert not deal_state(ROSTER, [*log, ("hand", "Bill")]).mid_round
    # an old night whose later deal happened to fall to the owing player reads as full rounds
    log = [("hand", "Bill"), ("hand", "Ben"), ("hand", "Larry"), ("void", "Bill"), ("hand", "Bill")]
    assert deal_state(ROSTER, log).still_to_deal == ()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.just("h"), st.sampled_from(["v0", "v1", "v2", "v3"])), max_size=20))
def test_following_the_deal_always_comes_back_to_full_rounds(steps):
    """Whatever is voided when, dealing as ``ref`` says reaches full rounds within the deals it
    names as still to deal, and the counts of hands in force never go below 0."""
    log: list[tuple[str, str]] = []
    for step in steps:
        if step == "h":
            log.append(("hand", deal_state(ROSTER, log).next_dealer))
            continue
        in_force = [d for k, d in log if k == "hand"]
        for k, d in log:
            if k == "void":
                in_force.remove(d)
        if in_force:
            log.append(("void", in_force[int(step[1:]) % len(in_force)]))
    state = deal_state(ROSTER, log)
    assert min(n for _, n in state.dealt) >= 0
    for who in state.still_to_deal:
        assert deal_state(ROSTER, log).next_dealer == who
        log.append(("hand", who))
    assert not deal_state(ROSTER, log).mid_round
