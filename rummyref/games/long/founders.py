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

The *closer* question (``close=True``) is asked where the looser one says yes: it is nearer
the seating's, still looser, and costs more states:

- a core is three cards that are a meld on their own, so a run must hold three founders *in a
  row*: three places one after another, each a founder or a founding WILDCARD (in a gap, or
  before or after the run's cards); a run's code is then the founders' places in a row at its
  end, and a card that founds nothing breaks them;
- but where two runs merged (above), a founding WILDCARD of one may stand where the other has
  a card: so a founding WILDCARD may be paid for the place of a card that founds nothing;
- an ace that waits for the high end must be read there: each suit's field remembers it.

It gives up (``True``, no cut) after :data:`MOST_STATES` states, a few milliseconds.

The search goes depth first (a split is found at once where one exists), then breadth first
with the states another beats dropped (a "no" is found when none is left). A card typed
twice (a natural card and a WILDCARD said to stand for it): the second counts as a WILDCARD,
which may stand for any card (looser).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

# A state is one int: per suit (4 bits each) the open run (0: none, else 1 + its founders,
# capped at 3; in the closer question, 1 + the founders' places at its end, 4 once it has a
# core) and, in the closer question, whether the suit's ace waits to be read high (bit 3);
# then the rank's match so far (0: none, else 1 + its founders, capped at 3); then the
# WILDCARDs used, founders and others (5 bits each).
_BITS = 4
_SUIT = 15
_WAITS = 8  #: in a suit's field: its ace waits to be read high (the closer question)
_POOL = 4 * _BITS
_POOL_MASK = 7 << _POOL
_UF = _POOL + 3
_UO = _UF + 5
_USED_MASK = 1023 << _UF
_MOST_WILD = 31  #: more WILDCARDs than this: no answer (no cut)


def _ending(code: int) -> int:
    """The founding WILDCARDs that end a run or complete a match (code 1 + founders, or 1 +
    the founders' places at a run's end: as many places more after it)."""
    code &= 7
    return 4 - code if code else 0


ANY, RUN, MATCH, SIDEWAYS = 0, 1, 2, 3  #: what the table said of a card: where it may sit
Step = tuple[int, int, int, bool, bool, bool]  #: (shift, card, high ace, carry, may wait, closer?)


def _joins(code: int, f: int, close: bool) -> list[tuple[int, int]]:
    """A run (``code``, no ace waiting) takes a natural card at its next place (``f``: a
    founder): its new code and the founding WILDCARDs paid. Looser: the founders add up. Closer:
    a card that founds nothing breaks the founders' places, unless a founding WILDCARD is paid
    for its place (see the module doc: runs that interleave merged)."""
    if not close:
        return [(min(code + f, 4), 0)]
    if code == 4 or f:
        return [(min(code + 1, 4), 0)]
    return [(1, 0), (min(code + 1, 4), 1)]


def _passed(code: int, close: bool) -> int:
    """A run (``code``) takes a WILDCARD that founds nothing at its next place: looser, its
    founders are as they were; closer, the founders' places in a row are broken (a core kept)."""
    return code if not close or code == 4 else 1


def _starts(f: int, close: bool) -> list[tuple[int, int]]:
    """A run starts with a natural card: its code and the founding WILDCARDs paid. Closer: with
    founding WILDCARDs in the places below it, or one paid for its own place."""
    if not close:
        return [(1 + f, 0)]
    return ([] if f else [(1, 0)]) + [(min(2 + k, 4), k + 1 - f) for k in range(3)]


@cache
def _moves(code: int, card: int, carry: bool, may_wait: bool, ace_high: int, close: bool = False
           ) -> tuple[tuple[int, int, int, int], ...]:
    """One suit's moves at one rank: (its new code, the founder flag of a card sent to the
    rank's match or -1, founding WILDCARDs, others). ``card``: -1 none, else its founder flag
    plus twice what the table said of it (:data:`ANY`, :data:`RUN`, :data:`MATCH`, or
    :data:`SIDEWAYS`: a match, and no WILDCARD of a run in its place); ``carry``: a run may
    carry on with a WILDCARD (its WILDCARDs can reach a card above it may take);
    ``may_wait``: the card is an ace that may be read high instead (it is then offered at the
    high end, ``ace_high``: its founder flag there, -1 for none). ``close``: the closer
    question (the module doc); the code's bit :data:`_WAITS` says the ace waited."""
    out: list[tuple[int, int, int, int]] = []
    waits, code = code & _WAITS, code & 7
    end = _ending(code)
    if ace_high >= 0 and (waits or not close):  # the ace read high: it joins the run, or starts one
        f = ace_high
        if code:
            out += [(new, -1, paid, 0) for new, paid in _joins(code, f, close)]
            out += [(new, -1, end + paid, 0) for new, paid in _starts(f, close)]
            if not close:
                out.append((0, -1, end, 0))  # looser: it need not have waited
        else:
            out += [(new, -1, paid, 0) for new, paid in _starts(f, close)]
            if not close:
                out.append((0, -1, 0, 0))
    elif card >= 0:
        f, said = card & 1, card >> 1
        in_run, in_match = said in (ANY, RUN), said != RUN
        if code:
            if in_run:  # joins the run
                out += [(waits | new, -1, paid, 0) for new, paid in _joins(code, f, close)]
            if carry and said in (ANY, MATCH):  # the card to the match, a WILDCARD in its place
                # (one that founds nothing: a founding one here is no better than the card in
                # the run and that WILDCARD in the match, or at the run's end, or paid for it)
                out.append((waits | _passed(code, close), f, 0, 1))
            if in_match:
                out.append((waits, f, end, 0))  # the run ends; the card to the match
            if in_run:  # the run ends; the card starts one
                out += [(waits | new, -1, end + paid, 0) for new, paid in _starts(f, close)]
        else:
            if in_run:  # starts a run
                out += [(waits | new, -1, paid, 0) for new, paid in _starts(f, close)]
            if in_match:
                out.append((waits, f, 0, 0))  # to the match
            if may_wait and in_run:
                out.append((_WAITS if close else 0, -1, 0, 0))  # read high, at the end
    elif code:
        if carry:  # carried across with a WILDCARD, for a card to come
            out.append((waits | _passed(code, close), -1, 0, 1))
            out.append((waits | min(code + 1, 4), -1, 1, 0))
        out.append((waits, -1, end, 0))
    else:
        out.append((waits, -1, 0, 0))
    return tuple(dict.fromkeys(out))


def _at_least(a: int, b: int) -> bool:
    """Whether suit code ``a`` can do all that ``b`` can, at no more cost: a run with as many
    founders, or founders' places at its end (one with three ends free, or a core: it can do all
    that no run can); an ace that waits in both or neither."""
    if a & _WAITS != b & _WAITS:
        return False
    a, b = a & 7, b & 7
    if b == 0:
        return a in (0, 4)
    return a >= b


_BETTER = [[_at_least(a, b) for b in range(16)] for a in range(16)]


def could_found(cards: Iterable[tuple[int, int, bool, int]], wild_founders: int, wild_others: int,
                aces_high: bool, matched: dict[int, int] | None = None, close: bool = False) -> bool:
    """Whether the cards (suit index 0-3, rank 1-13, founder?, what the table said: :data:`ANY`,
    :data:`RUN`, :data:`MATCH` or :data:`SIDEWAYS`) and the WILDCARDs (that many founders,
    that many not) can be split into melds each holding three founders or more, each card in
    a meld of the kind said (the module doc: a looser question than a seating's; a "no" is
    certain). A meld needs three cards; WILDCARDs left over are free. ``matched``: by rank,
    the WILDCARDs of stated matches of that rank (among the founding ones): they sit in that
    rank's match. ``close``: the closer question (the module doc), which gives up (``True``)
    after :data:`MOST_STATES` states."""
    matched = matched or {}
    wild_founders -= sum(matched.values())
    if wild_founders < 0:
        return True
    at = [[-1] * 4 for _ in range(15)]  # at[rank][suit]: -1 absent, else founder | said << 1
    for suit, rank, founder, said in cards:
        if at[rank][suit] != -1:  # a card twice (a WILDCARD said to stand for a card typed too):
            if founder:  # the second counts as a WILDCARD, that may stand for anything (looser)
                wild_founders += 1
            else:
                wild_others += 1
            continue
        at[rank][suit] = int(founder) | said << 1
    if wild_founders > _MOST_WILD or wild_others > _MOST_WILD:
        return True
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
    steps: list[Step] = []
    for x in range(1, top + 1):
        for s in range(4):
            steps.append((_BITS * s, at[x][s] if x < 14 else -1, at[1][s] & 1 if x == 14 and high[s] else -1,
                          carry[x][s], x == 1 and high[s], close))
        steps.append((-1, matched.get(x, 0) if x < 14 else 0, 0, False, False, close))  # the rank's match
    found = _quick(steps, wild_founders, wild_others)
    if found is not None:
        return found
    return _layers(steps, wild_founders, wild_others, MOST_STATES if close else None)


QUICK_STEPS = 200  #: states the depth-first search visits before the layered search takes over
MOST_STATES = 1_500  #: states the closer question looks at before it gives up (a few ms)


@cache
def _table(move: Step) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """One step's moves by the suit's code and the match's (``code * 8 + match``): what each
    adds to a state with those fields cleared (the WILDCARDs used included), and the founding
    and other WILDCARDs it takes."""
    shift, card, high, carry, may_wait, close = move
    out: list[tuple[tuple[int, int, int], ...]] = []
    for code in range(16):
        for pool in range(8):
            ways = []
            if code & 7 <= 4 and pool <= 4 and (close or not code & _WAITS):
                for new, pooled, a, b in _moves(code, card, carry, may_wait, high, close):
                    match = pool if pooled < 0 else (min(pool + pooled, 4) if pool else 1 + pooled)
                    ways.append((new << shift | match << _POOL | a << _UF | b << _UO, a, b))
            out.append(tuple(ways))
    return tuple(out)


def _step(state: int, move: Step, wild_founders: int, wild_others: int
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
        code = state >> _BITS * s & _SUIT
        if code & _WAITS:
            return False
        uf += _ending(code)
    return uf <= wild_founders


def _quick(steps: list[Step], wild_founders: int, wild_others: int) -> bool | None:
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


def _layers(steps: list[Step], wild_founders: int, wild_others: int, most: int | None = None) -> bool:
    """Breadth first: all the states after each step, those beaten by another dropped
    (:func:`_prune`); "no" when none is left. After ``most`` states, "yes" (no answer)."""
    layer = {0}
    seen = 0
    for move in steps:
        shift = move[0]
        seen += len(layer)
        if most is not None and seen > most:
            return True
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
