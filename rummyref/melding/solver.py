"""The exact meld engine: best melding, fewest unmelded, going-out checks (SPEC §5).

The library API (documented in the README):

- :func:`best_melding` — the lowest count of unmelded cards and one arrangement that reaches it;
- :func:`fewest_unmelded` — the same, minimising the number of unmelded cards;
- :func:`go_out_check` — can the hand go out (at most one card left, none, exactly one; with
  Sequences Rummy's condition);
- :func:`arrange_all` — an arrangement for scoring melded cards (every card melded if possible,
  most cards in sequences: rule B5's default);
- :func:`meld_value` — what a melded meld is worth (from :mod:`rummyref.rules.values`, the one
  valuation, re-exported here for the library API the README documents).

Hands are multisets: natural cards are distinct (callers run ``check_deck``), any number of
WILDCARDs. The answer depends only on the multiset, never on the order of the input.

How: hands without WILDCARDs where no card could serve two melds are answered straight
from bitmasks; everything else goes through the dynamic programme over ranks in
:mod:`rummyref.melding.dp`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummyref.cards import WILD, Card
from rummyref.melding import dp, goout
from rummyref.melding import plan as mp
from rummyref.melding.melds import Meld
from rummyref.rules import values as card_values
from rummyref.rules.ruleset import RuleSet

GOING_OUT_MODES = ("at-most-one", "all", "exactly-one")
meld_value = card_values.meld_value  #: the library API the README documents; valued in one place


@dataclass(frozen=True)
class Solution:
    """An arrangement of a hand: melds and the cards left unmelded.

    ``count`` is the sum of the values of the unmelded cards (for :func:`fewest_unmelded`,
    their number)."""

    count: int
    melds: tuple[Meld, ...]
    unmelded: tuple[Card, ...]


@dataclass(frozen=True)
class GoOut:
    """The answer of :func:`go_out_check`. ``arrangement`` goes out when ``ok``; otherwise it is
    the best try (fewest unmelded cards). Its ``count`` is the value of its unmelded cards."""

    ok: bool
    mode: str  #: "at-most-one" | "all" | "exactly-one"
    arrangement: Solution | None
    reason: str


# -- the searches ---------------------------------------------------------------------------


BIG_HAND = 24  #: natural cards from which an exact search at bound 0 is tried first
ARRANGE_FIRST = 12  #: cards from which a going-out check tries the arrange plan before its search
WIDE = 3  #: WILDCARDs to spare (beyond goout.Need's least) from which it does so
SPLIT_ACES_FROM = 12  #: natural cards from which hands with 2+ aces that may be high are split
FEWEST_WEIGHT = 1 << 24  #: per unmelded card, when minimising their number (value breaks ties)


def _search_plan(masks: list[int], w: int, ruleset: RuleSet, fewest: bool = False) -> tuple[mp.Plan, int]:
    """One optimal arrangement of the natural cards (lowest count, or ``fewest`` unmelded
    then lowest count) and the number of WILDCARDs it leaves over (not yet placed)."""
    aces_high = ruleset.aces_high
    if w == 0:
        plan = mp.direct_plan(masks, aces_high)
        if plan is not None:
            melded = mp.melded_masks(plan)
            plan.unmelded = mp.mask_cards([m & ~x for m, x in zip(masks, melded)])
            return plan, 0
    values = card_values.natural_values(ruleset)
    if fewest:
        values = tuple(FEWEST_WEIGHT + v for v in values)
    quick, bound, quick_left = mp.greedy_plan(masks, w, aces_high, values)
    if bound == 0:
        return quick, quick_left

    def search(limit: int, aces: str = "exact"):
        return dp.min_cost(masks, w, aces_high, values, dp.BEST, bound=limit, aces=aces)

    found = None
    kept_aces = dp.deferrable(masks, w, aces_high).bit_count()
    n_naturals = sum(m.bit_count() for m in masks)
    if w and n_naturals >= BIG_HAND:
        found = search(0, "low" if kept_aces else "exact")  # dense hands: often every card melds
    if found is None and kept_aces >= 2 and n_naturals >= SPLIT_ACES_FROM:
        found = _by_high_aces(masks, w, aces_high, values, bound)
    if found is None:
        found = search(bound)
    assert found is not None
    _cost, state, acts = found
    return mp.plan_from_actions(masks, acts, aces_high), w - (state >> dp.KS)


def _by_high_aces(masks, w: int, aces_high: bool, values, bound: int, obj: int = dp.BEST, final_key=None):
    """Aces that may be kept for Q-K-A runs multiply the search's states. Instead, a branch and
    bound over the aces: a search with some aces played high, some free to play high or not at
    no cost (a relaxation: a lower bound for every way of choosing them), the others low. Its
    answer is exact when it plays high exactly the free aces it keeps; otherwise one ace it
    plays inconsistently is fixed, high first where the relaxed answer played it high, then
    low, each branch looking only for something cheaper than the best so far, a branch
    stopping once its lower bound is reached. Of suits holding the same cards, only the first
    ones play their aces high (the others' choices are the same arrangements, suits swapped).

    None when nothing costs ``bound`` or less. With ``final_key`` (the arrange objective) an
    answer is valued by its final key, never below its running cost, so the bound on the
    running cost drops nothing that could be cheaper."""

    def value(found) -> int:
        return found[0] if final_key is None else final_key(found[1], found[0])[0]

    def solve(high: int, free: int, limit: int):
        aces = "mixed" if free else "fixed"
        found = dp.min_cost(masks, w, aces_high, values, obj, bound=limit, final_key=final_key, aces=aces,
                            high=high, free=free)
        if found is None or value(found) > limit:
            return None
        wrong = _inconsistent_aces(found[2]) & free
        if not wrong:
            return found
        floor = value(found)
        i = (wrong & -wrong).bit_length() - 1
        rest = free & ~(1 << i)
        low = candidates & ~high & ~free  # decided: not played high
        branches = []
        # suits with the same cards are interchangeable: of such suits, those whose aces are
        # played high are the first ones (any other choice is the same arrangement, suits swapped)
        if not below[i] & low:
            branches.append((high | 1 << i | below[i], rest & ~below[i]))
        if not above[i] & high:
            branches.append((high, rest & ~above[i]))
        if not _high_aces(found[2]) >> i & 1:
            branches.reverse()  # the relaxed answer's choice first
        best = None
        for h, f in branches:
            got = solve(h, f, limit)
            if got is not None:
                best, limit = got, value(got) - 1
                if value(got) <= floor:
                    break
        return best

    candidates = dp.deferrable(masks, w, aces_high)
    below = [sum(1 << k for k in range(i) if masks[k] == masks[i]) & candidates for i in range(4)]
    above = [sum(1 << k for k in range(i + 1, 4) if masks[k] == masks[i]) & candidates for i in range(4)]
    return solve(0, candidates, bound)


def _inconsistent_aces(acts: list[int]) -> int:
    """In a relaxed search: the suits whose ace is kept at position 1 but does not end a run at
    14, or ends one there without being kept."""
    if len(acts) < 14:
        return 0
    out = 0
    for i in range(4):
        kept = (acts[0] >> 2 * i) & 3 == dp.A_DEFER
        high = (acts[13] >> 2 * i) & 3 == dp.A_NAT
        if kept != high:
            out |= 1 << i
    return out


def _high_aces(acts: list[int]) -> int:
    """The suits whose ace ends a run at position 14."""
    if len(acts) < 14:
        return 0
    return sum(1 << i for i in range(4) if (acts[13] >> 2 * i) & 3 == dp.A_NAT)


def _optimal_plan(masks: list[int], w: int, ruleset: RuleSet, fewest: bool = False) -> mp.Plan:
    """:func:`_search_plan` with the leftover WILDCARDs placed."""
    plan, left = _search_plan(masks, w, ruleset, fewest)
    if plan.has_meld or left >= 3:
        plan.absorb(left)
    elif left:
        # no meld: the WILDCARDs stay unmelded, unless a meld of worthless cards exists
        if not fewest:
            alt = _optimal_plan(masks, w, ruleset, fewest=True)
            if alt.has_meld and _plan_cost(alt, ruleset) <= _plan_cost(plan, ruleset) + left * card_values.held(WILD, ruleset):
                return alt
        plan.wild_unmelded = left
    return plan


def _plan_cost(plan: mp.Plan, ruleset: RuleSet) -> int:
    """The count of the plan's unmelded cards (its natural cards and left-over WILDCARDs)."""
    return card_values.held_total(plan.unmelded, ruleset) + plan.wild_unmelded * card_values.held(WILD, ruleset)


def _solution(plan: mp.Plan, count: int) -> Solution:
    return Solution(count, plan.melds(), plan.unmelded_cards())


def best_melding(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """The arrangement with the lowest count: the sum of the held values of the unmelded cards
    (:func:`rummyref.rules.values.held`: the rank's value; a WILDCARD ``wild_unmelded``)."""
    masks, w = mp.hand_masks(cards)
    plan = _optimal_plan(masks, w, ruleset)
    return _solution(plan, _plan_cost(plan, ruleset))


def fewest_unmelded(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """The arrangement with the fewest unmelded cards; ``count`` is their number."""
    masks, w = mp.hand_masks(cards)
    plan = _optimal_plan(masks, w, ruleset, fewest=True)
    return _solution(plan, len(plan.unmelded) + plan.wild_unmelded)


def every_card_melds(cards: Sequence[Card], ruleset: RuleSet) -> bool:
    """Whether every card of the hand, WILDCARDs too, can be melded: ``fewest_unmelded(...)
    .count == 0``, answered the cheap way first. A quick arrangement that melds every card
    says yes; the search at bound 0 (no unmelded card allowed) with the aces relaxed says no
    when it finds nothing (a relaxation: nothing cheaper exists with the aces decided), and
    yes when no ace may be kept for high (then it is exact); only the rest go to the full
    search. Most hands a seating of the table asks about are answered by one of the first
    two (a no costs a tenth of the full search's)."""
    masks, w = mp.hand_masks(cards)
    values = tuple(FEWEST_WEIGHT + v for v in card_values.natural_values(ruleset))

    def wildcards_fit(left: int) -> bool:  # WILDCARDs left over join a meld, or make one
        return left == 0 or left >= 3 or any(masks)

    _quick, cost, left = mp.greedy_plan(masks, w, ruleset.aces_high, values)
    if cost == 0:
        return wildcards_fit(left)
    exact = not dp.deferrable(masks, w, ruleset.aces_high)
    state = dp.all_melded(masks, w, ruleset.aces_high, aces="low" if exact else "relaxed")
    if state is None:
        return False
    if exact:
        return wildcards_fit(w - (state >> dp.KS))
    return _melded_with_aces(masks, w)  # natural cards there: WILDCARDs left over fit


def _melded_with_aces(masks: list[int], w: int) -> bool:
    """Whether every natural card melds with the aces that may be high decided: some choice of
    those played high (Q-K-A) melds everything. Every ace low first (most often the answer);
    then a search over the choices, each branch cut by the relaxation (the aces not yet
    decided free to be high or not: a "no" there is a "no" for every choice in it), one ace
    decided at a time, low first. Of suits holding the same cards, only the first ones play
    their aces high (the other choices are the same, suits swapped)."""
    candidates = dp.deferrable(masks, w, True)
    below = [sum(1 << k for k in range(i) if masks[k] == masks[i]) & candidates for i in range(4)]
    above = [sum(1 << k for k in range(i + 1, 4) if masks[k] == masks[i]) & candidates for i in range(4)]

    def melds(high: int, free: int) -> bool:
        if not free:
            return high != 0 and dp.all_melded(masks, w, True, "fixed", high) is not None
        if dp.all_melded(masks, w, True, "mixed", high, free) is None:
            return False
        i = (free & -free).bit_length() - 1
        rest = free & ~(1 << i)
        low = candidates & ~high & ~free  # decided: not played high
        if not above[i] & high and melds(high, rest & ~above[i]):
            return True
        return not below[i] & low and melds(high | 1 << i | below[i], rest & ~below[i])

    if dp.all_melded(masks, w, True, "fixed") is not None:
        return True  # every ace low: most often the answer, so asked first
    return melds(0, candidates)


def _allowed(mode: str) -> tuple[int, ...]:
    try:
        return {"at-most-one": (0, 1), "all": (0,), "exactly-one": (1,)}[mode]
    except KeyError:
        raise ValueError(f"unknown going-out mode {mode!r}; modes: {', '.join(GOING_OUT_MODES)}") from None


def go_out_check(
    cards: Sequence[Card],
    ruleset: RuleSet,
    mode: str = "at-most-one",
    sequences: int = 0,
    natural_sequences: int = 0,
) -> GoOut:
    """Can the hand go out? ``mode``: at most one card left unmelded (S9, the default), none
    ("all", V1 Major) or exactly one ("exactly-one", V1 Minor). ``sequences`` and
    ``natural_sequences`` add Sequences Rummy's condition (V3): that many sequences or more,
    that many of them natural (no WILDCARD); an all-WILDCARD meld counts as a sequence but
    never as a natural one.

    The fewest-unmelded arrangement answers most hands (reshaped when needed: a long run split,
    one card of a long meld left out); the rest go to an exact search."""
    allowed = _allowed(mode)
    masks, w = mp.hand_masks(cards)
    v3 = bool(sequences or natural_sequences)
    raw, left = _search_plan(masks, w, ruleset, fewest=True)
    fewest = raw.clone()
    if fewest.has_meld or left >= 3:
        fewest.absorb(left)
    else:
        fewest.wild_unmelded = left
    best_try = _solution(fewest, _plan_cost(fewest, ruleset))
    n_left = len(best_try.unmelded)
    if n_left > max(allowed):
        return GoOut(False, mode, best_try, _fail_reason(best_try, mode, sequences, natural_sequences, len(cards)))
    if not v3 and n_left in allowed:
        return GoOut(True, mode, best_try, _ok_reason(mode, n_left))
    if natural_sequences and not _has_natural_run(masks, ruleset.aces_high):
        reason = "no natural sequence (three cards or more in a row of one suit, no WILDCARD) in the hand"
        return GoOut(False, mode, best_try, reason)
    quick = _reshape(raw, left, allowed, sequences, natural_sequences)
    need = goout.Need(masks, w, ruleset.aces_high, allowed)
    if quick is None and len(cards) >= ARRANGE_FIRST and w - need.least() >= WIDE:
        # WILDCARDs to spare: many ways to play, a wide search; arrange_all's arrangement
        # reshaped answers most such hands first (with few to spare, the search is narrow:
        # it drops the states that cannot finish, and is the cheaper)
        quick = _reshape(*_arrange_plan(masks, w, ruleset, raw), allowed, sequences, natural_sequences)
    if quick is not None:
        quick.untangle()
        solution = _solution(quick, _plan_cost(quick, ruleset))
        return GoOut(True, mode, solution, _ok_reason(mode, len(solution.unmelded)))
    found = goout.search(masks, w, ruleset.aces_high, allowed, sequences, natural_sequences, need)
    if found is not None:
        plan, unmelded_wilds, to_place = found
        plan.wild_unmelded = unmelded_wilds
        plan.absorb(to_place, natural_sequences)
        plan.untangle()
        solution = _solution(plan, _plan_cost(plan, ruleset))
        return GoOut(True, mode, solution, _ok_reason(mode, len(solution.unmelded)))
    return GoOut(False, mode, best_try, _fail_reason(best_try, mode, sequences, natural_sequences, len(cards)))


def _has_natural_run(masks: Sequence[int], aces_high: bool) -> bool:
    for m in masks:
        x = m | ((m & 1) << 13) if aces_high else m
        if x & (x >> 1) & (x >> 2):
            return True
    return False


def _reshape(raw: mp.Plan, left: int, allowed, sequences: int, natural: int) -> mp.Plan | None:
    """Try to turn a fewest-unmelded arrangement (``left`` WILDCARDs not placed) into one that
    goes out: long runs split for Sequences Rummy, one WILDCARD or one card of a long meld
    left out for exactly one. None when this quick route fails (the exact search decides)."""
    for leave_wild in (0, 1):
        plan = raw.clone()
        if sequences or natural:
            plan.split_long_runs()
        rest = left - leave_wild
        if rest < 0:
            continue
        if rest and not (plan.has_meld or rest >= 3):
            continue
        plan.wild_unmelded = leave_wild
        plan.absorb(rest, natural)
        n = len(plan.unmelded) + plan.wild_unmelded
        if n == 0 and 0 not in allowed and not plan.leave_one_out():
            continue
        n = len(plan.unmelded) + plan.wild_unmelded
        if n not in allowed:
            continue
        seqs, nats = plan.sequence_counts()
        if seqs >= sequences and nats >= natural:
            return plan
    return None


def _ok_reason(mode: str, left: int) -> str:
    if left == 0:
        return "every card melds"
    return "every card melds but one"


_MODE_CLAUSE = {"all": "and every card melded", "at-most-one": "and at most one card left out",
                "exactly-one": "and exactly one card left out"}


def _fail_reason(best: Solution, mode: str, sequences: int, natural_sequences: int, n: int) -> str:
    left = len(best.unmelded)
    names = " ".join(str(c) for c in best.unmelded)
    if (mode == "all" and left > 0) or left > 1:
        # the cards named are those of the fewest-unmelded arrangement (``GoOut.arrangement``),
        # which may meld some of them differently from the lowest-count one
        return f"at least {left} card{'s' if left != 1 else ''} stay{'' if left != 1 else 's'} unmelded (fewest: {names})"
    if mode == "exactly-one" and n == 0:
        return "an empty hand has no card to leave out"
    if sequences or natural_sequences:
        return (
            f"no arrangement has {sequences} sequences or more with {natural_sequences} natural"
            f" (no WILDCARD) among them {_MODE_CLAUSE[mode]}"
        )
    return "every card melds, but going out this way needs exactly one card left out"


def arrange_all(cards: Sequence[Card], ruleset: RuleSet) -> Solution:
    """An arrangement for scoring melded cards (rule B5's default): every card melded if
    possible, with the most cards in sequences (WILDCARDs included); otherwise the fewest
    unmelded cards, and ``unmelded`` names the cards left out. ``count`` is their value.

    The programme minimises ``BIG`` per unmelded card plus one per card melded outside a
    sequence (in a group, or a WILDCARD left over with no run to extend), a cost that only
    grows position by position, so states costing more than a bound can be dropped. The
    fewest-unmelded arrangement, costed the same way, is a bound (``cap``); but dense hands
    put nearly every card in a sequence, so the search first allows no card outside
    sequences, then 1, 3, 7... (each search is exact whenever its answer is within its own
    bound: anything cheaper was within it too), and ends at ``cap`` at the latest. With aces
    that may be played high in a hand of 12 natural cards or more, the search is one branch
    and bound over those aces (:func:`_by_high_aces`) from ``cap`` (its own bound tightens as
    it finds arrangements): a pass at a lower bound that fails costs a whole tree, and
    lower bounds make each of its searches little cheaper."""
    masks, w = mp.hand_masks(cards)
    plan, left = _arrange_plan(masks, w, ruleset)
    if plan.has_meld or left >= 3:
        if plan.runs:
            plan.absorb_into_runs(left)
        else:
            plan.absorb(left)
    else:
        plan.wild_unmelded = left
    return _solution(plan, _plan_cost(plan, ruleset))


def _arrange_plan(masks: list[int], w: int, ruleset: RuleSet, fewest: mp.Plan | None = None) -> tuple[mp.Plan, int]:
    """:func:`arrange_all`'s arrangement of the natural cards, and the WILDCARDs it leaves
    over (to extend its runs). ``fewest``: the fewest-unmelded arrangement of the natural
    cards (:func:`_search_plan`), when the caller has it already (it bounds the search)."""
    aces_high = ruleset.aces_high
    if w == 0:
        plan = mp.direct_plan(masks, aces_high)
        if plan is not None:
            melded = mp.melded_masks(plan)
            plan.unmelded = mp.mask_cards([m & ~x for m, x in zip(masks, melded)])
            return plan, 0
    n_nat = sum(m.bit_count() for m in masks)

    def final_key(s: int, c: int) -> tuple[int, int]:
        return _arrange_cost(c // dp.BIG, c % dp.BIG, bool(s & dp.FLAG_RUN), w, n_nat), s

    by_aces = bool(dp.deferrable(masks, w, aces_high)) and n_nat >= SPLIT_ACES_FROM

    def search(bound: int):
        if by_aces:
            return _by_high_aces(masks, w, aces_high, None, bound, dp.ARRANGE, final_key)
        return dp.min_cost(masks, w, aces_high, None, dp.ARRANGE, bound=bound, final_key=final_key)

    if fewest is None:
        fewest, _left = _search_plan(masks, w, ruleset, fewest=True)
    cap = _plan_arrange_cost(fewest, w, n_nat)
    slack = cap if by_aces else 0
    while True:
        bound = min(cap, len(fewest.unmelded) * dp.BIG + slack)
        found = search(bound)
        if found is not None and final_key(found[1], found[0])[0] <= bound:
            break
        slack = 2 * slack + 1
    _cost, state, acts = found
    plan = mp.plan_from_actions(masks, acts, aces_high)
    left = w - (state >> dp.KS)
    if plan.runs:  # WILDCARDs on their own go into sequences too
        left += sum(plan.wild_melds)
        plan.wild_melds = []
    return plan, left


def _arrange_cost(unmelded: int, outside: int, has_run: bool, w: int, n_nat: int) -> int:
    """The arrange objective of an arrangement with ``unmelded`` natural cards, ``outside``
    cards in groups and a natural card in a run or not. With such a run, WILDCARDs not in a
    group extend it (in sequences); without one, no natural card and no WILDCARD is in a
    sequence, and with no meld at all fewer than three WILDCARDs stay unmelded."""
    if has_run:
        return unmelded * dp.BIG + outside
    if unmelded < n_nat or w >= 3:
        return unmelded * dp.BIG + n_nat - unmelded + w
    return (unmelded + w) * dp.BIG


def _plan_arrange_cost(plan: mp.Plan, w: int, n_nat: int) -> int:
    """The arrange objective of an arrangement from :func:`_search_plan` (an upper bound)."""
    outside = sum(len(suits) + extra for _rank, suits, extra in plan.groups if len(suits) > 1)
    has_run = bool(plan.runs) or any(len(suits) == 1 for _rank, suits, _extra in plan.groups)
    return _arrange_cost(len(plan.unmelded), outside, has_run, w, n_nat)
