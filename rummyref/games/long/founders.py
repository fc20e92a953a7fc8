"""A quick, certain "no" for a seating: can the cards be split into melds that each hold three
cards that may have founded it? (SPEC §7, internal.)

Every meld of a seating has a core (:mod:`rummyref.games.long.arrange`): a group the table
stated with ``/``, or three cards laid as a meld by players who stated nothing. A card laid
off, or said to have joined a meld, founds nothing. The engine's test (can every card be
melded at all?) knows nothing of that, so a table whose cards all meld, but not around enough
founders, was only refused after a long search. This module answers a looser question, by
a dynamic programme over the ranks:

    can the cards be split into runs and matches (and WILDCARDs) so that each meld holds at
    least three *founders*?

A founder is a card that may found a meld, or a card of a stated group. Everything else the
table said (``>NAME``, ``>2D``, ``>run``/``>match``, a card laid sideways, a stated group kept
whole) is left out, runs have no length limit, and WILDCARDs left over join any meld. Each
of those only adds ways, so the question is *looser* than the seating's: a seating is such
a split (its cores are three founders in each meld), and a "no" here is a certain "no" there.
A "yes" says nothing. Why the programme may stay small (each is a step of the proof that
every seating is one of the splits it tries; the tests check its answers against a brute force
over every split, and its "no" against the exact cover's):

- runs of one suit whose cards interleave merge into one run: every place the merged run
  lacks a card is a place one of the two lacked, so their WILDCARDs fill it, and it holds
  all the founders of both; so each suit has at most one run open at a time;
- the matches of one rank merge into one match the same way (no match is too big);
- a run or match holds at least as many cards as founders, so once it has three founders it
  has three cards: only its founders count, and ending one with ``f`` founders takes
  ``3 - f`` founding WILDCARDs (where they sit does not matter here);
- so a run carries WILDCARDs across a rank only to take a card of its suit further up, and
  only where its WILDCARDs can reach that card;
- an ace may be read high only where a run can carry a card of its suit up to it (a run of
  the ace and WILDCARDs alone is as good low); an ace that waits for the high end is offered
  there to a run but may also be left out (looser still: no state remembers that it waited);
- a WILDCARD-only meld is WILDCARDs left over.

The search goes depth first (a split is found at once where one exists), then breadth first
with the states another beats dropped (a "no" is found when none is left). A card typed
twice (a natural card and a WILDCARD said to stand for it) is beyond these steps: then the
answer is "yes" (no cut).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

# A state is one int: per suit (3 bits each) the open run (0: none, else 1 + its founders,
# capped at 3); then the rank's match so far (0: none, else 1 + its founders, capped at 3);
# then the WILDCARDs used, founders and others (5 bits each).
_BITS = 3
_SUIT = 7
_POOL = 4 * _BITS
_POOL_MASK = 7 << _POOL
_UF = _POOL + 3
_UO = _UF + 5
_USED_MASK = 1023 << _UF
_MOST_WILD = 31  #: more WILDCARDs than this: no answer (no cut)


def _ending(code: int) -> int:
    """The founding WILDCARDs that end a run or complete a match (code 1 + founders)."""
    return 4 - code if code else 0


ANY, RUN, MATCH, SIDEWAYS = 0, 1, 2, 3  #: what the table said of a card: where it may sit


@cache
def _moves(code: int, card: int, carry: bool, may_wait: bool, ace_high: int
           ) -> tuple[tuple[int, int, int, int], ...]:
    """One suit's moves at one rank: (its new code, the founder flag of a card sent to the
    rank's match or -1, founding WILDCARDs, others). ``card``: -1 none, else its founder flag
    plus twice what the table said of it (:data:`ANY`, :data:`RUN`, :data:`MATCH`, or
    :data:`SIDEWAYS`: a match, and no WILDCARD of a run in its place); ``carry``: a run may
    carry on with a WILDCARD (its WILDCARDs can reach a card above it may take);
    ``may_wait``: the card is an ace that may be read high instead (it is then offered at the
    high end, ``ace_high``: its founder flag there, -1 for none)."""
    out: list[tuple[int, int, int, int]] = []
    end = _ending(code)
    if ace_high >= 0:  # the ace read high, if it waited: it ends a run or makes one
        f = ace_high
        if code:
            out.append((min(code + f, 4), -1, 0, 0))
            out.append((1 + f, -1, end, 0))
            out.append((0, -1, end, 0))
        else:
            out.append((1 + f, -1, 0, 0))
            out.append((0, -1, 0, 0))
    elif card >= 0:
        f, said = card & 1, card >> 1
        in_run, in_match = said in (ANY, RUN), said != RUN
        if code:
            if in_run:
                out.append((min(code + f, 4), -1, 0, 0))  # joins the run
            if carry and said in (ANY, MATCH):  # the card to the match, a WILDCARD in its place
                # (one that founds nothing: a founding one here is no better than the card in
                # the run and that WILDCARD in the match, or at the run's end)
                out.append((code, f, 0, 1))
            if in_match:
                out.append((0, f, end, 0))  # the run ends; the card to the match
            if in_run:
                out.append((1 + f, -1, end, 0))  # the run ends; the card starts one
        else:
            if in_run:
                out.append((1 + f, -1, 0, 0))  # starts a run
            if in_match:
                out.append((0, f, 0, 0))  # to the match
            if may_wait and in_run:
                out.append((0, -1, 0, 0))  # read high, at the end
    elif code:
        if carry:  # carried across with a WILDCARD, for a card to come
            out.append((code, -1, 0, 1))
            out.append((min(code + 1, 4), -1, 1, 0))
        out.append((0, -1, end, 0))
    else:
        out.append((code, -1, 0, 0))
    return tuple(out)


def _at_least(a: int, b: int) -> bool:
    """Whether suit code ``a`` can do all that ``b`` can, at no more cost: a run with as many
    founders (one with three ends free: it can do all that no run can)."""
    if b == 0:
        return a in (0, 4)
    return a >= b


_BETTER = [[_at_least(a, b) for b in range(8)] for a in range(8)]


def could_found(cards: Iterable[tuple[int, int, bool, int]], wild_founders: int, wild_others: int,
                aces_high: bool, matched: dict[int, int] | None = None) -> bool:
    """Whether the cards (suit index 0-3, rank 1-13, founder?, what the table said: :data:`ANY`,
    :data:`RUN`, :data:`MATCH` or :data:`SIDEWAYS`) and the WILDCARDs (that many founders,
    that many not) can be split into melds each holding three founders or more, each card in
    a meld of the kind said (the module doc: a looser question than a seating's; a "no" is
    certain). A meld needs three cards; WILDCARDs left over are free. ``matched``: by rank,
    the WILDCARDs of stated matches of that rank (among the founding ones): they sit in that
    rank's match."""
    matched = matched or {}
    wild_founders -= sum(matched.values())
    if wild_founders > _MOST_WILD or wild_others > _MOST_WILD or wild_founders < 0:
        return True
    at = [[-1] * 4 for _ in range(15)]  # at[rank][suit]: -1 absent, else founder | said << 1
    for suit, rank, founder, said in cards:
        if at[rank][suit] != -1:
            return True  # a card twice: beyond this programme
        at[rank][suit] = int(founder) | said << 1
    top = 14 if aces_high else 13
    if all(at[x][s] == -1 for x in range(1, 14) for s in range(4)):
        return True  # WILDCARDs only: left over, or a meld of their own; nothing to cut
    wild = wild_founders + wild_others
    # a run carries on with a WILDCARD only where its WILDCARDs can reach the next card of its
    # suit that it may take, past no card laid sideways (a card said to go to a match is passed
    # with a WILDCARD in its place); an ace waits for the high end only where a run can carry
    # a card of its suit up to it (a run of the ace and WILDCARDs alone is as good low)
    high = [False] * 4
    carry = [[False] * 4 for _ in range(15)]
    for s in range(4):
        ace = at[1][s]
        if aces_high and ace != -1 and ace >> 1 in (ANY, RUN):
            need = 0
            for r in range(13, 1, -1):
                said = at[r][s] >> 1 if at[r][s] != -1 else -1
                if said in (ANY, RUN):
                    high[s] = True
                    break
                if said == SIDEWAYS:
                    break
                need += 1
                if need > wild:
                    break
        gap, seen = 0, high[s]  # the places to fill up to the next card to take, and whether there is one
        for x in range(13, 0, -1):
            carry[x][s] = seen and 1 + gap <= wild
            said = at[x][s] >> 1 if at[x][s] != -1 else -1
            if said in (ANY, RUN):
                gap, seen = 0, True
            elif said == SIDEWAYS:
                gap, seen = 0, False
            else:
                gap += 1
    steps: list[tuple[int, int, int, bool, bool]] = []  # (shift, card, high ace, carry, may wait)
    for x in range(1, top + 1):
        for s in range(4):
            steps.append((_BITS * s, at[x][s] if x < 14 else -1, at[1][s] & 1 if x == 14 and high[s] else -1,
                          carry[x][s], x == 1 and high[s]))
        steps.append((-1, matched.get(x, 0) if x < 14 else 0, 0, False, False))  # the rank's match
    found = _quick(steps, wild_founders, wild_others)
    if found is not None:
        return found
    return _layers(steps, wild_founders, wild_others)


QUICK_STEPS = 200  #: states the depth-first search visits before the layered search takes over


@cache
def _table(move: tuple[int, int, int, bool, bool]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """One step's moves by the suit's code and the match's (``code * 8 + match``): what each
    adds to a state with those fields cleared (the WILDCARDs used included), and the founding
    and other WILDCARDs it takes."""
    shift, card, high, carry, may_wait = move
    out: list[tuple[tuple[int, int, int], ...]] = []
    for code in range(8):
        for pool in range(8):
            ways = []
            if code <= 4 and pool <= 4:
                for new, pooled, a, b in _moves(code, card, carry, may_wait, high):
                    match = pool if pooled < 0 else (min(pool + pooled, 4) if pool else 1 + pooled)
                    ways.append((new << shift | match << _POOL | a << _UF | b << _UO, a, b))
            out.append(tuple(ways))
    return tuple(out)


def _step(state: int, move: tuple[int, int, int, bool, bool], wild_founders: int, wild_others: int
          ) -> list[int]:
    """The states one step leads to from ``state`` (within the WILDCARDs), cheapest first."""
    shift = move[0]
    spare_f, spare_o = wild_founders - (state >> _UF & 31), wild_others - (state >> _UO & 31)
    if shift < 0:  # the rank's match, with the founding WILDCARDs it lacks
        pool, held = state >> _POOL & 7, move[1]  # held: the WILDCARDs of stated matches of the rank
        if not pool and not held:
            return [state]
        need = max(0, 3 - (pool - 1 if pool else 0) - held)
        return [(state & ~_POOL_MASK) + (need << _UF)] if need <= spare_f else []
    base = state & ~(_SUIT << shift) & ~_POOL_MASK
    ways = _table(move)[(state >> shift & _SUIT) * 8 + (state >> _POOL & 7)]
    return [base + add for add, a, b in ways if a <= spare_f and b <= spare_o]


def _ends(state: int, wild_founders: int) -> bool:
    """Whether every run still open can end (no ace still waiting) within the WILDCARDs."""
    uf = state >> _UF & 31
    for s in range(4):
        uf += _ending(state >> _BITS * s & _SUIT)
    return uf <= wild_founders


def _quick(steps: list[tuple[int, int, int, bool, bool]], wild_founders: int, wild_others: int) -> bool | None:
    """Depth first, each state that failed remembered: a split found at once where there is
    one (``True``); ``False`` when all was searched; ``None`` after :data:`QUICK_STEPS` states."""
    failed: dict[tuple[int, int], list[tuple[int, int]]] = {}  # the WILDCARDs used, by step and codes

    def beaten(k: int, state: int) -> bool:  # a state as good but for fewer WILDCARDs failed
        known = failed.get((k, state & ~_USED_MASK))
        if not known:
            return False
        uf, uo = state >> _UF & 31, state >> _UO & 31
        return any(a <= uf and b <= uo for a, b in known)

    budget = QUICK_STEPS
    stack: list[tuple[int, int, list[int]]] = [(0, 0, _step(0, steps[0], wild_founders, wild_others))]
    while stack:
        k, state, todo = stack[-1]
        if not todo:
            failed.setdefault((k, state & ~_USED_MASK), []).append((state >> _UF & 31, state >> _UO & 31))
            stack.pop()
            continue
        new = todo.pop(0)
        if k + 1 == len(steps):
            if _ends(new, wild_founders):
                return True
            continue
        if beaten(k + 1, new):
            continue
        budget -= 1
        if budget < 0:
            return None
        stack.append((k + 1, new, _step(new, steps[k + 1], wild_founders, wild_others)))
    return False


def _layers(steps: list[tuple[int, int, int, bool, bool]], wild_founders: int, wild_others: int) -> bool:
    """Breadth first: all the states after each step, those beaten by another dropped
    (:func:`_prune`); "no" when none is left."""
    layer = {0}
    for move in steps:
        shift = move[0]
        if shift >= 0 and move[1] < 0 and move[2] < 0 and not any(state >> shift & _SUIT for state in layer):
            continue  # nothing of the suit here, and no run to carry or end
        step: set[int] = set()
        if shift < 0:
            for state in layer:
                step.update(_step(state, move, wild_founders, wild_others))
            layer = step
        else:
            table = _table(move)
            clear = ~(_SUIT << shift) & ~_POOL_MASK
            for state in layer:
                spare_f, spare_o = wild_founders - (state >> _UF & 31), wild_others - (state >> _UO & 31)
                base = state & clear
                for add, a, b in table[(state >> shift & _SUIT) * 8 + (state >> _POOL & 7)]:
                    if a <= spare_f and b <= spare_o:
                        step.add(base + add)
            layer = _prune(step, shift)
        if not layer:
            return False
    return any(_ends(state, wild_founders) for state in layer)


def _prune(states: set[int], shift: int) -> set[int]:
    """The states that no other beats: the same but for one suit's code (the suit just
    moved) and the WILDCARDs used, with a code at least as good and no more WILDCARDs."""
    groups: dict[int, list[int]] = {}
    mask = ~(_SUIT << shift) & ~_USED_MASK
    for state in states:
        key = state & mask
        known = groups.get(key)
        if known is None:
            groups[key] = [state]
        else:
            known.append(state)
    out: set[int] = set()
    better = _BETTER
    for entries in groups.values():
        if len(entries) == 1:
            out.add(entries[0])
            continue
        # a state that beats another uses no more WILDCARDs and has a code at least as good:
        # in this order it comes first, so each is checked against those kept before it
        ranked = sorted(((e >> _UF & 31) + (e >> _UO & 31), -(e >> shift & _SUIT), e) for e in entries)
        kept: list[tuple[int, int, int, int]] = []
        for _, neg, state in ranked:
            c, uf, uo = -neg, state >> _UF & 31, state >> _UO & 31
            if not any(better[c2][c] and uf2 <= uf and uo2 <= uo for c2, uf2, uo2, _ in kept):
                kept.append((c, uf, uo, state))
                out.add(state)
    return out
