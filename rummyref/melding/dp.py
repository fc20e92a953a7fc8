"""The dynamic programme behind :mod:`rummyref.melding.solver` (internal).

A hand is four 13-bit suit masks (bit ``r-1`` = rank ``r``) plus a number of
WILDCARDs. Positions 1..13 are the ranks A..K; where aces may be high, position 14
is the ace played high: an ace may be *kept* at position 1 (for a run ending Q-K-A)
and must then end a run at position 14.

:func:`min_cost` walks the positions upwards. Its state (one int) is, per suit, the
length of the run in progress (0, 1, 2, 3 or more: two bits a suit), the kept aces,
the WILDCARDs used so far and, for the ARRANGE objective, whether a run holding a
natural card exists. At each position every suit either carries its run on (with its
natural card, or with a WILDCARD where the card is absent), or has no run there (a run
may only stop at length 0 or 3+); the natural cards of the rank that no run took form
one group (completed with ``max(0, 3 - m)`` WILDCARDs) or stay unmelded: grouping only
some of them is never better. Why the search may stay this small (each point is
checked against the brute-force reference in the tests):

- WILDCARDs left over are free: they join a group, extend or split a run, or make
  their own meld; so the programme only spends WILDCARDs that a meld needs;
- a WILDCARD never stands where its natural card is in the hand: swapping the two
  is never worse (two overlapping runs of one suit merge into one, split if long);
- a run only starts with a WILDCARD at the two positions below the top (elsewhere
  the WILDCARD can move to the run's high end), and starts with a natural card only
  where another natural card of its suit is within reach (a run holding one natural
  card is no better than that card grouped with the same two WILDCARDs);
- a finished run bridges a gap with a WILDCARD only when a natural card follows at
  once (a wider gap costs as many WILDCARDs as starting afresh);
- a run never restarts right after a run of 3+ of its suit (one run covers both,
  split into pieces of 3+ when it exceeds 13 cards);
- an ace is kept for high only where a run ending Q-K-A can hold another natural card.

Transition tables are built per (present cards, run lengths, ...) on first use and
cached for the life of the process. Dominated states are dropped (a run of 3+ can do
all that no run can; no more WILDCARDs, no more cost); a ``bound`` drops states
costing more than a known arrangement; ``aces="low"``/``"relaxed"`` give quick upper
and lower bounds without the kept-ace state.

The going-out checks (exactly one card left, Sequences Rummy's counts) have their own search
in :mod:`rummyref.melding.goout`.
"""

from __future__ import annotations

from itertools import product

KS = 13  #: bit offset of the WILDCARDs-used counter in a state
FLAG_RUN = 1 << 12  #: a run holding a natural card exists
BIG = 1 << 20  #: weight of an unmelded card in the arrange objective

# objectives of min_cost
BEST = 0  #: sum of the values of unmelded naturals (values given per rank)
ARRANGE = 2  #: BIG * unmelded + cards melded outside sequences (see _pool_choices)

# per-suit actions (2 bits per suit in an action code; bit 8 = the rank's pool is grouped,
# bits 9-11 = how many of its cards are single-card runs, first suits first)
A_NONE, A_NAT, A_WILD, A_DEFER = 0, 1, 2, 3
GROUPED = 1 << 8
SINGLE = 9

_TABLES: dict = {}
PRUNE_AT = 200  #: prune dominated states when a layer has more than this many


def _suit_options(
    L: int, present: int, nxt: int, start: int, wstart: bool, at14: bool, defer: bool, optional: bool = False
):
    """(new length, WILDCARDs, pooled, natural in run, action) for one suit at one position.

    ``nxt``: the suit's natural card at the next position is in the hand. A finished run
    (3+) only bridges a gap with a WILDCARD when a natural card follows at once (a wider gap
    costs at least as many WILDCARDs as starting afresh) or near the top. ``start``: a new
    run may start here with the natural card (a run holding one natural card only is no
    better than that card grouped with the same two WILDCARDs)."""
    up = 3 if L >= 2 else L + 1
    if at14:
        if present and not optional:  # a deferred ace must end a run
            return [(3, 0, 0, 1, A_NAT)] if L >= 2 else []
        if present:  # relaxed: the ace may end a run, or not
            opts = [(3, 0, 0, 1, A_NAT)] if L >= 2 else []
            if L in (0, 3):
                opts.append((0, 0, 0, 0, A_NONE))
            return opts
        opts = [(0, 0, 0, 0, A_NONE)] if L in (0, 3) else []
        if L >= 2:
            opts.append((3, 1, 0, 0, A_WILD))
        return opts
    if present:
        opts = [(up, 0, 0, 1, A_NAT)] if (L or start) else []
        if L == 0 or L == 3:
            opts.append((0, 0, 1, 0, A_NONE))
            if defer:
                opts.append((0, 0, 0, 0, A_DEFER))
        return opts
    opts = [(0, 0, 0, 0, A_NONE)] if L in (0, 3) else []
    if L in (1, 2) or wstart or (L == 3 and nxt):
        opts.append((up, 1, 0, 0, A_WILD))
    return opts


def _pool_choices(obj: int, m: int) -> list[tuple[int, int, int, int]]:
    """What becomes of the ``m`` natural cards of a rank that no run took:
    (WILDCARDs, unmelded, extra cost, action bits).

    BEST: one group of them all (with ``max(0, 3 - m)`` WILDCARDs) or all unmelded;
    grouping only some is never cheaper. ARRANGE counts, besides ``BIG`` per unmelded
    card, every card melded outside a sequence, so a card with two WILDCARDs is a
    single-card run (``7S W W`` reads 7-8-9 of spades: three cards in a sequence, cost 0):
    ``j`` of the cards become such runs and the other ``r`` form a group (``r`` is 0 or
    2+; a group of one is a single-card run), costing ``r`` plus its WILDCARDs. Leaving
    some unmelded while others use WILDCARDs is never better than grouping them all."""
    if not m:
        return [(0, 0, 0, 0)]
    if obj == BEST:
        return [(max(0, 3 - m), 0, 0, GROUPED), (0, m, 0, 0)]
    out = [(0, m, 0, 0)]
    for j in range(m + 1):
        r = m - j
        if r == 1:
            continue
        gw = max(0, 3 - r) if r else 0
        out.append((2 * j + gw, 0, r + gw if r else 0, GROUPED | j << SINGLE))
    return out


def _dominates(a, b) -> bool:
    """Table entry a is at least as good as b from the same state: every suit's new run length
    equal or 3+, no more WILDCARDs, no more cost, same deferred aces and flag."""
    (ca, dwa, dma, fla, sa), (cb, dwb, dmb, flb, sb) = a, b
    if dwa > dwb or sa > sb or dma != dmb or fla != flb:
        return False
    for i in range(4):
        la, lb = (ca >> 2 * i) & 3, (cb >> 2 * i) & 3
        if la != lb and la != 3:
            return False
    return True


def _table(obj: int, P: int, Pn: int, SM: int, codes: int, flags: int):
    """Joint transitions at one position: list of (delta state, unmelded, extra cost, flag, action).

    P: suits whose natural card is here; Pn: ... at the next position; SM: suits where a run
    may start with the natural card here."""
    # keep only the bits that matter for these run lengths (more cache hits)
    finished = fresh = 0
    for i in range(4):
        L = (codes >> 2 * i) & 3
        if L == 3 and not (P >> i) & 1:
            finished |= 1 << i
        if L == 0 and (P >> i) & 1:
            fresh |= 1 << i
    Pn &= finished
    SM &= fresh
    key = (obj, P, Pn, SM, codes, flags)
    tab = _TABLES.get(key)
    if tab is not None:
        return tab
    wstart, last, at14 = flags & 1, flags & 2, flags & 4
    defer_mask = flags >> 4
    per_suit = []
    for i in range(4):
        opts = _suit_options(
            (codes >> 2 * i) & 3,
            (P >> i) & 1,
            (Pn >> i) & 1,
            (SM >> i) & 1,
            bool(wstart),
            bool(at14),
            bool(defer_mask >> i & 1),
            bool(flags & RELAXED and flags >> (4 + i) & 1),  # at 14: this suit's ace may stay unused
        )
        if last:
            opts = [o for o in opts if o[0] in (0, 3)]
        per_suit.append(opts)
    best: dict = {}
    for combo in product(*per_suit):
        c2 = dw = m = nat = act = dmask = 0
        for i, (L2, w1, pooled, n1, a) in enumerate(combo):
            c2 |= L2 << 2 * i
            dw += w1
            m += pooled
            nat += n1
            act |= a << 2 * i
            if a == A_DEFER and not flags & RELAXED:
                dmask |= 1 << i
        for gw, unm, extra, grp in _pool_choices(obj, m):
            fl = FLAG_RUN if obj == ARRANGE and (nat or grp >> SINGLE) else 0
            score = unm * BIG + extra if obj == ARRANGE else unm
            k = (c2, dw + gw, dmask, fl)
            old = best.get(k)
            if old is None or score < old[0]:
                best[k] = (score, act | grp, unm, extra)
    keys = list(best)
    kept = []
    for k in keys:
        mine = k + (best[k][0],)
        if any(o != k and _dominates(o + (best[o][0],), mine) for o in keys):
            continue
        kept.append(k)
    tab = []
    for k in kept:
        c2, dw, dmask, fl = k
        _score, act, unm, extra = best[k]
        tab.append(((c2 - codes) + (dmask << 8) + (dw << KS), unm, extra, fl, act))
    _TABLES[key] = tab
    return tab


def _downgrades(codes: int) -> list[int]:
    """The codes that ``codes`` dominates, itself included: any run length where it has 3+."""
    out = [codes]
    for i in range(4):
        if (codes >> 2 * i) & 3 == 3:
            out = [c & ~(3 << 2 * i) | k << 2 * i for c in out for k in range(4)]
    return out


DOWNGRADES = [_downgrades(c) for c in range(256)]
LOW_BITS = (1 << KS) - 1


def prune(layer: dict, w: int) -> dict:
    """Drop dominated states: another state with the same deferred aces and flag, every suit's
    run length equal or 3+, no more WILDCARDs used and no more cost. The states come by
    WILDCARDs used, then most runs of 3+ first, so a state is checked against those kept
    before it: each kept state marks, with its cost, every run-length pattern it dominates."""
    beaten: dict = {}  # low bits -> the lowest cost of a state kept so far that dominates them
    out = {}
    flip = LOW_BITS
    get = beaten.get
    for key in sorted([s ^ flip for s in layer]):
        s = key ^ flip
        c = layer[s]
        low = s & flip
        m = get(low)
        if m is not None and m <= c:
            continue
        out[s] = c
        hi = low - (s & 255)
        for down in DOWNGRADES[s & 255]:
            x = hi | down
            m = get(x)
            if m is None or c < m:
                beaten[x] = c
    return out


RELAXED = 8  #: flag: aces kept for high cost nothing and need not be used; any ace may end high


def _flags(p: int, top: int, defer_mask: int) -> int:
    f = 0
    if p >= top - 2 and p < top:
        f |= 1
    if p == top:
        f |= 2
    if p == 14:
        f |= 4
    if p == 1:
        f |= defer_mask << 4
    return f


def _present(masks, p: int) -> int:
    b = p - 1
    return ((masks[0] >> b) & 1) | ((masks[1] >> b) & 1) << 1 | ((masks[2] >> b) & 1) << 2 | ((masks[3] >> b) & 1) << 3


def deferrable(masks, w: int, aces_high: bool, strict: bool = True) -> int:
    """Aces worth keeping for a run that ends Q-K-A.

    Such a run must hold another natural card of the ace's suit; bridging a gap of four or
    more positions costs as many WILDCARDs as grouping the ace (A W W) and completing the
    rest apart, so (``strict``) that card is a 10, J, Q or K within reach of the WILDCARDs;
    without WILDCARDs, Q and K both. Not strict: any ace, when WILDCARDs exist."""
    if not aces_high:
        return 0
    d = 0
    reach = max(9, 12 - w)  # lowest bit (rank - 1) a useful run ending at the high ace reaches
    for i, m in enumerate(masks):
        if not m & 1:
            continue
        if (m >> 11) & 3 == 3 or (w and (not strict or m >> reach)):
            d |= 1 << i
    return d


def _start_masks(masks, w: int, aces_high: bool) -> list[int]:
    """Per position, the suits where a run may start with the natural card: another natural
    card of the suit follows within reach (the next two, without WILDCARDs)."""
    ext = [m | ((m & 1) << 13) if aces_high else m for m in masks]
    out = [0] * 15
    for p in range(1, 14):
        sm = 0
        for i, x in enumerate(ext):
            after = x >> p  # bit 0 = position p + 1
            if (after & 3 == 3) if w == 0 else (after & ((2 << min(3, w)) - 1)):
                sm |= 1 << i
        out[p] = sm
    return out


_POSITIONS: dict = {}


def _position(obj: int, P: int, Pn: int, SM: int, flags: int) -> dict:
    """The transitions at one position (what is in the hand there, its flags), by the run
    lengths of a state: kept across searches (the joint tables themselves are shared)."""
    key = (obj, P, Pn, SM, flags)
    pos = _POSITIONS.get(key)
    if pos is None:
        pos = _POSITIONS[key] = {}
    return pos


_FOLDED: dict = {}


def _within(raw, v: int, low: int, room: int) -> list:
    """A position's transitions from states whose low bits are ``low`` and that have ``room``
    WILDCARDs left, in their order: those taking no more WILDCARDs than that (the others
    would pass the hand's), each with the cost of an unmelded card (``v``) folded in."""
    return [(ds, unm * v + extra, fl, act) for ds, unm, extra, fl, act in raw if (low + ds) >> KS <= room]


def _folded(obj: int, P: int, Pn: int, SM: int, flags: int, v: int) -> dict:
    """:func:`_position`'s transitions with the cost of an unmelded card at the position (``v``)
    folded in: (delta state, cost, flag, action), by the run lengths of a state (its low bits)
    and the WILDCARDs it has left (:func:`_within`: the transitions that need more are left
    out, so the search never makes a state past the hand's WILDCARDs)."""
    key = (obj, P, Pn, SM, flags, v)
    pos = _FOLDED.get(key)
    if pos is None:
        pos = _FOLDED[key] = {}
    return pos


def min_cost(
    masks,
    w: int,
    aces_high: bool,
    values,
    obj: int,
    bound: int | None = None,
    final_key=None,
    aces: str = "exact",
    high: int = 0,
    free: int = 0,
):
    """Minimise the objective. Returns (cost, final state, per-position actions) or None.

    ``values[p]`` is the cost of an unmelded natural at position p (BEST). States whose
    cost exceeds ``bound`` are dropped (exact as long as the optimum is within it).
    ``aces``: "exact"; "low" (no ace is kept for high: an upper bound); "relaxed" (an ace may
    be kept for high at no cost and need not be used, and any such ace may end a high run even
    if it was used low: a lower bound, without the per-suit state of kept aces); "fixed": the
    aces of the suits in the mask ``high`` are played high (they must end a Q-K-A run), the
    others are not (exact for that choice, again without the kept-ace state); "mixed": the
    aces of ``high`` are played high, those of ``free`` relaxed, the others not played high (a
    lower bound for every choice that plays ``high`` high and only aces of ``free`` besides).
    """
    top = 14 if aces_high else 13
    dmask = 0 if aces in ("low", "fixed") else free if aces == "mixed" else deferrable(masks, w, aces_high)
    relaxed = RELAXED if aces in ("relaxed", "mixed") else 0
    starts = _start_masks(masks, w, aces_high)
    if bound is None:
        bound = 1 << 62
    layer = {0: 0}
    backs = []
    for p in range(1, top + 1):
        flags = _flags(p, top, dmask)
        if p in (1, 14):
            flags |= relaxed
        if p == 14 and relaxed:
            flags |= dmask << 4  # these aces may end a high run or not
        v = (values[p] if p <= 13 else values[1]) if obj == BEST else BIG
        new: dict = {}
        back: dict = {}
        if p == 14:
            P14 = high | dmask if aces in ("fixed", "relaxed", "mixed") else -1  # -1: the state's kept aces
            ptab = _position(obj, P14, 0, 0, flags)
            folded = _folded(obj, P14, 0, 0, flags, v)
            get = new.get
            for s, c in layer.items():
                room = w - (s >> KS)
                key = s & 0xFFF
                tab = folded.get(key | room << 12)
                if tab is None:
                    raw = ptab.get(key)
                    if raw is None:
                        raw = ptab[key] = _table(obj, P14 if P14 >= 0 else (s >> 8) & 15, 0, 0, s & 255, flags)
                    tab = folded[key | room << 12] = _within(raw, v, key, room)
                for ds, cost, fl, act in tab:
                    s2 = (s + ds) | fl
                    c2 = c + cost
                    old = get(s2)
                    if old is None or c2 < old:
                        new[s2] = c2
                        back[s2] = (s, act)
        else:
            P = _present(masks, p)
            if p == 1:
                P &= ~high
            Pn = _present(masks, p + 1) if p < 13 else (_present(masks, 1) if top == 14 else 0)
            SM = starts[p]
            ptab = _position(obj, P, Pn, SM, flags)
            folded = _folded(obj, P, Pn, SM, flags, v)
            get = new.get
            for s, c in layer.items():
                room = w - (s >> KS)
                low = s & 255
                tab = folded.get(low | room << 8)
                if tab is None:
                    raw = ptab.get(low)
                    if raw is None:
                        raw = ptab[low] = _table(obj, P, Pn, SM, low, flags)
                    tab = folded[low | room << 8] = _within(raw, v, low, room)
                for ds, cost, fl, act in tab:
                    c2 = c + cost
                    if c2 > bound:
                        continue
                    s2 = (s + ds) | fl
                    old = get(s2)
                    if old is None or c2 < old:
                        new[s2] = c2
                        back[s2] = (s, act)
        layer = prune(new, w) if len(new) > PRUNE_AT else new
        backs.append(back)
        if not layer:
            return None
    if final_key is None:
        best_s = min(layer, key=lambda s: (layer[s], s))
    else:
        best_s = min(layer, key=lambda s: final_key(s, layer[s]))
    acts = []
    s = best_s
    for back in reversed(backs):
        s, act = back[s]
        acts.append(act)
    acts.reverse()
    return layer[best_s], best_s, acts


_ZERO: dict = {}


def all_melded(masks, w: int, aces_high: bool, aces: str = "exact", high: int = 0, free: int = 0) -> int | None:
    """Whether every natural card can be melded: :func:`min_cost` (BEST) at ``bound=0`` asked
    only yes or no. Its final state with the fewest WILDCARDs used (the one ``min_cost``
    answers with), or None. No cost is kept (every state left costs nothing) and no way back:
    only the transitions that leave no card unmelded and fit the WILDCARDs left, by the run
    lengths of a state and those WILDCARDs, each state's added to the next layer at once."""
    top = 14 if aces_high else 13
    dmask = 0 if aces in ("low", "fixed") else free if aces == "mixed" else deferrable(masks, w, aces_high)
    relaxed = RELAXED if aces in ("relaxed", "mixed") else 0
    starts = _start_masks(masks, w, aces_high)
    layer = {0}
    for p in range(1, top + 1):
        flags = _flags(p, top, dmask)
        if p in (1, 14):
            flags |= relaxed
        if p == 14 and relaxed:
            flags |= dmask << 4
        if p == 14:
            P, Pn, SM, bits = (high | dmask if aces in ("fixed", "relaxed", "mixed") else -1), 0, 0, 0xFFF
        else:
            P, Pn, SM, bits = _present(masks, p) & ~(high if p == 1 else 0), 0, starts[p], 255
            Pn = _present(masks, p + 1) if p < 13 else (_present(masks, 1) if top == 14 else 0)
        key = (P, Pn, SM, flags)
        zero = _ZERO.get(key)
        if zero is None:
            zero = _ZERO[key] = {}
        new: set[int] = set()
        add = new.update
        for s in layer:
            low = (s & bits) | (w - (s >> KS)) << 12  # the run lengths (and kept aces), the WILDCARDs left
            moves = zero.get(low)
            if moves is None:
                raw = _table(BEST, P if P >= 0 else (s >> 8) & 15, Pn, SM, s & 255, flags)
                room, base = w - (s >> KS), s & bits
                # no flag is set for BEST (FLAG_RUN is the arrange objective's): the new state is s + ds
                moves = zero[low] = [ds for ds, unm, extra, _fl, _act in raw
                                     if not unm and not extra and (base + ds) >> KS <= room]
            add(map(s.__add__, moves))
        if len(new) > PRUNE_AT:
            new = set(prune(dict.fromkeys(new, 0), w))
        if not new:
            return None
        layer = new
    return min(layer)
