"""The exact going-out search (internal to :mod:`rummyref.melding.solver`).

Can a hand be arranged leaving an allowed number of cards unmelded (none, one, at most
one), with at least ``S`` sequences, ``N`` of them natural (Sequences Rummy, V3; an
all-WILDCARD meld and a card with two WILDCARDs count as sequences, never as natural)?

Like :func:`rummyref.melding.dp.min_cost` it walks the positions A..K (and the ace played
high), one run in progress per suit, the natural cards no run took forming the rank's pool.
Counting sequences changes what the search must keep apart:

- *committed* runs: a natural run the search will count as natural is marked when it starts
  (only while more are needed, only with the next two natural cards of its suit in the hand)
  and never takes a WILDCARD; every other run is uncommitted, and its being natural or not
  does not matter (it counts as a sequence, and can take spare WILDCARDs);
- while the counts are not yet reached, a run may end and a new one of its suit start right
  after it (4-5-6 and 7-8-9 are two sequences, 4-...-9 only one), and two runs of a suit may
  share a position, one with the natural card, one with a WILDCARD standing for it (9-10-J
  beside W(=J)-Q-K): the old run takes the card and the new one starts with a WILDCARD, or,
  for a committed new run, the other way round;
- the pool may make single-card runs (a card and two WILDCARDs), each one sequence; a
  group of the others; and leave one card unmelded.

The search keeps the prunings of ``min_cost`` that hold for counts: a run starts with a
natural card only where another of its suit follows within reach (else it is a single-card
run from the pool); a run starts with a WILDCARD only at the two positions below the top
(elsewhere the WILDCARD moves to the run's high end, or the run starts where the card it
would stand for starts a committed run: the overlap above); a finished run bridges a gap with
a WILDCARD only when a natural card follows at once (else ending it and starting afresh gives
as many sequences for as many WILDCARDs); an ace is kept for Q-K-A only where such a run can
hold another natural card of its suit. Once the counts are reached, runs no longer restart or
overlap (a longer run is never worse). Spare WILDCARDs are placed at the end: three or more
make their own melds (sequences), fewer join an uncommitted run, a group or a single-card
run (an *absorber*), or one stays unmelded where one card must be left.

A state is ``(codes, kept aces, unmelded, absorber, natural sequences, sequences,
WILDCARDs used)`` packed in an int; states another state beats on every count are dropped.
A state that cannot finish within the hand's WILDCARDs is dropped as soon as it is made: the
fewest WILDCARDs the positions left need, from its runs and unmelded card, are worked out once
per check without the condition (:class:`Need`), a lower bound for every search of the check.
A layer is a set of such ints, made in C (each state's moves are addends, sorted, so that
those within the hand's WILDCARDs are a prefix); the way to the answer is found afterwards,
walking back through the layers.
Every point is checked against the brute-force reference in the tests.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import product

from rummyref.cards import DECK
from rummyref.melding import dp
from rummyref.melding.plan import Plan

# per-suit actions (4 bits a suit in an action code); bits 16-20: the pool (_pool_choices)
NONE, NAT, WILD, DEFER, NEW, NEW_NATURAL, WILD_START, OVER_WILD, OVER_NATURAL = range(9)
POOL = 16

# state layout
CODES = 0xFFF  #: per suit 3 bits: run length (0, 1, 2, 3 = three or more) + 4 if committed
DM, U, AB, NC, SC, K = 12, 16, 17, 18, 23, 28
CAP = 31  #: largest count a state holds (a hand of 59 cards has at most 19 sequences)

_TABLES: dict = {}
PRUNE_AT = 64


def _suit_options(code: int, x: int, nxt: int, start: int, commit: int, flags: int):
    """(new code, WILDCARDs, pooled, run ended (0, 1 uncommitted, 2 committed), action)
    for one suit at one position. ``x``: the natural card is here; ``nxt``: the next one
    is in the hand; ``start``/``commit``: a run / a committed run may start here."""
    L, cb = code & 3, code >> 2
    up = 3 if L >= 2 else L + 1
    end = (2 if cb else 1) if L == 3 else 0
    unsat = flags & UNSAT
    opts = []
    if flags & AT14:  # the ace played high: a kept ace must end a run (may, if relaxed)
        if x:
            if L >= 2:
                opts.append((3 | cb << 2, 0, 0, 0, NAT))
            if not (flags & RELAXED and flags & DEFER_OK):
                return opts
            x = 0
        if L in (0, 3):
            opts.append((0, 0, 0, end, NONE))
        if L >= 2 and not cb:
            opts.append((3, 1, 0, 0, WILD))
        return opts
    if x:
        if L:
            opts.append((up | cb << 2, 0, 0, 0, NAT))
        if L in (0, 3):
            opts.append((0, 0, 1, end, NONE))
            if flags & DEFER_OK:
                opts.append((0, 0, 0, end, DEFER))
            if L == 0 or unsat:
                if start:
                    opts.append((1, 0, 0, end, NEW))
                if commit:
                    opts.append((5, 0, 0, end, NEW_NATURAL))
        if unsat and L >= 2:
            opts.append((1, 1, 0, 2 if cb else 1, OVER_WILD))
            if commit and not cb:
                opts.append((5, 1, 0, 1, OVER_NATURAL))
        return opts
    if L in (0, 3):
        opts.append((0, 0, 0, end, NONE))
    wstart = flags & WSTART
    if not cb and L:
        opts.append((up, 1, 0, 0, WILD))
    if wstart and (L == 0 or (L == 3 and unsat)):
        opts.append((1, 1, 0, end, WILD_START))
    if unsat and L >= 2 and not cb:
        opts.append((1, 2, 0, 1, OVER_WILD))
    return opts


def _pool_choices(m: int, counting: bool):
    """(WILDCARDs, unmelded, single-card runs, absorber, pool bits) for the ``m`` natural
    cards of a rank that no run took: ``j`` single-card runs (two WILDCARDs each), a group of
    ``g`` (0 or 2+, with ``max(0, 3 - g)`` WILDCARDs) and at most one card unmelded. Once the
    counts are reached (not ``counting``), single-card runs beside a group are never better
    than the group with them (fewer WILDCARDs)."""
    out = []
    for un in (0, 1):
        for j in range(m - un + 1):
            g = m - un - j
            if g == 1 or (not counting and j and g):
                continue
            gw = max(0, 3 - g) if g else 0
            out.append((2 * j + gw, un, j, 1 if (j or g) else 0, j | (1 if g else 0) << 3 | un << 4))
    return out


# flags of a position
WSTART, LAST, AT14, UNSAT, DEFER_OK, RELAXED = 1, 2, 4, 8, 16, 32


def _key(P: int, Pn: int, SM: int, CM: int, codes: int, flags: int, defer: int, room: int):
    """The arguments of :func:`_table` with only the bits that matter for these runs (more
    cache hits)."""
    finished = fresh = 0
    for i in range(4):
        L = (codes >> 3 * i) & 3
        if not P >> i & 1:
            finished |= (L == 3) << i
        elif L == 0 or (L == 3 and flags & UNSAT):
            fresh |= 1 << i
    return (P, Pn & finished, SM & fresh, CM & P if room else 0, codes, flags, defer, room)


def _table(P: int, Pn: int, SM: int, CM: int, codes: int, flags: int, defer: int, room: int):
    """Joint transitions at one position: (new codes, kept aces, WILDCARDs, unmelded,
    sequences, natural sequences, absorber, action), dominated ones dropped."""
    key = _key(P, Pn, SM, CM, codes, flags, defer, room)
    tab = _TABLES.get(key)
    if tab is not None:
        return tab
    P, Pn, SM, CM, codes, flags, defer, room = key
    per_suit = []
    for i in range(4):
        f = flags | (DEFER_OK if defer >> i & 1 else 0)
        opts = _suit_options((codes >> 3 * i) & 7, P >> i & 1, Pn >> i & 1, SM >> i & 1, CM >> i & 1, f)
        if flags & LAST:
            opts = [o for o in opts if o[0] & 3 in (0, 3)]
        per_suit.append(opts)
    best: dict = {}
    for combo in product(*per_suit):
        c2 = dw = ends = nat = act = dmask = alive = 0
        pooled = []
        for i, (code2, w1, pool, ended, a) in enumerate(combo):
            if flags & LAST and code2 & 3 == 3:
                ended = 2 if code2 >> 2 else 1
                code2 = 0
            if ended:
                ends += 1
                nat += ended == 2
            alive += code2 >> 2
            c2 |= code2 << 3 * i
            dw += w1
            if pool:
                pooled.append(i)
            act |= a << 4 * i
            if a == DEFER and not flags & RELAXED:
                dmask |= 1 << i
        if nat + alive > room:
            continue
        uncommitted_end = 1 if ends > nat else 0
        for pw, un, single, ab, bits in _pool_choices(len(pooled), bool(flags & UNSAT)) if pooled else [(0, 0, 0, 0, 0)]:
            entry = (dw + pw, ends + single, nat, ab | uncommitted_end)
            k = (c2, dmask, un)
            found = best.setdefault(k, {})
            if entry not in found:
                found[entry] = act | bits << POOL
    tab = []
    for (c2, dmask, un), entries in best.items():
        for (dw, sq, nt, ab), act in entries.items():
            if not any(
                (o[0] == dw or (o[0] < dw and o[3])) and o[1] >= sq and o[2] >= nt and o[3] >= ab and (c, o) != (c2, (dw, sq, nt, ab))
                for c in _upgrades(c2)
                for o in best.get((c, dmask, un), ())
            ):
                tab.append((c2, dmask << DM, dw, un, sq, nt, ab, act))
    _TABLES[key] = tab
    return tab


def _upgrades(codes: int) -> list[int]:
    """``codes`` and the codes that dominate it: runs of length 1 or 2 made longer (a run
    of 3+ can do all that a shorter one of the same kind can, and end too)."""
    out = [0]
    for i in range(4):
        c = codes >> 3 * i & 7
        longer = [c] if c & 3 in (0, 3) else [c, (c & 4) | 2, (c & 4) | 3] if c & 3 == 1 else [c, c | 3]
        out = [o | x << 3 * i for o in out for x in longer]
    return out


def _prune(layer, exact_one: bool) -> list[int]:
    """Drop states another state beats: the same kept aces, every run as long or 3+ (of the
    same kind), no more unmelded (the same, when exactly one must be left), no fewer
    sequences or natural ones, an absorber if it has one, and the same WILDCARDs used, or
    fewer with an absorber to take the spare ones.

    The states are grouped by their runs (and kept aces); the counts of a layer, few, are
    numbered, and each group holds the set of its counts as a bitmask. A state is beaten when
    its group holds counts that beat its own, or a group with one suit's run longer holds
    counts as good: one AND a state. (Runs longer in two suits at once are not looked at:
    dropping fewer states is always safe, and gathering those groups cost more than it saved.)"""
    keymask = CODES | 15 << DM | ((1 << U) if exact_one else 0)
    his = list(set(map(U.__rrshift__, layer)))  # the distinct counts, numbered
    n = len(his)
    bit = dict(zip(his, [1 << i for i in range(n)]))
    groups: dict = {}
    get = groups.get
    for s in layer:
        key = s & keymask
        groups[key] = get(key, 0) | bit[s >> U]
    # a state is beaten when its group holds counts that beat it (strong), or a group with
    # one suit's run longer holds counts as good (weak): both tests in one AND, the group's
    # counts in the low n bits and the longer groups' above them
    killer = {h: strong | weak << n for h, (weak, strong) in zip(his, _beaters(his))}
    both = {}
    longer = _LONGER.get
    for key, mask in groups.items():
        keys = longer(key)
        if keys is None:
            keys = _longer(key)
        got = 0
        for k in keys:
            got |= get(k, 0)
        both[key] = mask | got << n
    return [s for s in layer if not both[s & keymask] & killer[s >> U]]


#: the groups of runs with one suit's run longer, by group (kept for the life of the process)
_LONGER: dict = {}


def _longer(key: int) -> tuple[int, ...]:
    out = []
    for i in (0, 3, 6, 9):
        L = (key >> i) & 3
        if L == 1:
            out += [key + (1 << i), key + (2 << i)]
        elif L == 2:
            out.append(key + (1 << i))
    found = _LONGER[key] = tuple(out)
    return found


def _beaters(his: list[int]) -> list[tuple[int, int]]:
    """For each counts (a state shifted right by ``U``), the bitmasks of the counts that beat
    them or are the same (``weak``), and that beat them and are not the same (``strong``)."""
    n = len(his)
    fields = [(h >> (K - U), h & 1, h >> (SC - U) & CAP, h >> (NC - U) & CAP, h >> (AB - U) & 1) for h in his]
    top_sq = max(f[2] for f in fields) + 1
    top_nt = max(f[3] for f in fields) + 1
    top_k = max(f[0] for f in fields) + 1
    sq_at_least = [0] * (top_sq + 1)
    nt_at_least = [0] * (top_nt + 1)
    k_is = [0] * top_k
    k_below_ab = [0] * (top_k + 1)  # with an absorber, fewer WILDCARDs used
    u_zero = ab_one = 0
    for i, (k, u, sq, nt, ab) in enumerate(fields):
        bit = 1 << i
        sq_at_least[sq] |= bit
        nt_at_least[nt] |= bit
        k_is[k] |= bit
        if ab:
            ab_one |= bit
            k_below_ab[k + 1] |= bit
        if not u:
            u_zero |= bit
    for t in range(top_sq - 1, -1, -1):
        sq_at_least[t] |= sq_at_least[t + 1]
    for t in range(top_nt - 1, -1, -1):
        nt_at_least[t] |= nt_at_least[t + 1]
    for t in range(1, top_k + 1):
        k_below_ab[t] |= k_below_ab[t - 1]
    every = (1 << n) - 1
    out = []
    for i, (k, u, sq, nt, ab) in enumerate(fields):
        weak = sq_at_least[sq] & nt_at_least[nt] & (k_is[k] | k_below_ab[k]) & (every if u else u_zero)
        if ab:
            weak &= ab_one
        out.append((weak, weak & ~(1 << i)))
    return out


def _present(masks: Sequence[int], p: int) -> int:
    return dp._present(masks, p) if p <= 13 else 0


def search(
    masks: Sequence[int], w: int, aces_high: bool, allowed: tuple[int, ...], sequences: int, natural: int,
    need: Need | None = None,
):
    """An arrangement meeting the condition, as (plan, WILDCARDs left unmelded, WILDCARDs to
    place), or None when there is none. ``need``: the hand's :class:`Need`, when the caller
    has made it already.

    Aces that may be played high (``dp.deferrable``) are first all *relaxed*: the search may
    play such an ace both low and high, or keep it for Q-K-A and not play it. An answer that
    does neither is exact; "no" is certain. Otherwise the choice that answer points at is
    searched, then every ace low; then a branch and bound fixes one relaxed ace at a time, low
    then high, the one the answer played wrongly first: a partial choice that still has an
    answer is searched further, one that has none is dropped with every choice below it.
    Choices the same but for suits holding the same cards are searched once. Where no choice
    goes out, this usually takes far fewer searches than one per choice (up to 16)."""
    if sequences > CAP or natural > CAP:
        return None
    kept = dp.deferrable(masks, w, aces_high)
    need = need or Need(masks, w, aces_high, allowed)  # shared by every search of this check
    found = _search(masks, w, aces_high, allowed, sequences, natural, kept, 0, need=need)
    if found is None:
        return None
    if _consistent(found[3], kept):
        return found[:3]
    tried: set = set()

    def branch(fixed: int, high: int, acts: list[int]):
        free = kept & ~fixed
        wrong = [i for i in range(4) if free >> i & 1 and (acts[0] >> 4 * i & 15 == DEFER) != (acts[13] >> 4 * i & 15 == NAT)]
        i = wrong[0] if wrong else (free & -free).bit_length() - 1
        bit = 1 << i
        for h in (0, bit):  # low first: most hands that go out play most aces low
            f2, h2 = fixed | bit, high | h
            key = _canonical(f2, h2, masks)
            if key in tried:
                continue  # the same as a choice tried, suits swapped
            tried.add(key)
            got = _search(masks, w, aces_high, allowed, sequences, natural, kept & ~f2, h2, need=need)
            if got is None:
                continue
            if _consistent(got[3], kept & ~f2):
                return got
            deeper = branch(f2, h2, got[3])
            if deeper is not None:
                return deeper
        return None

    # first the choice the relaxed answer points at (every relaxed ace it played high, high):
    # where the hand goes out, it usually does
    acts = found[3]
    guess = sum(1 << i for i in range(4) if kept >> i & 1 and acts[13] >> 4 * i & 15 == NAT)
    found = None
    for h in dict.fromkeys((guess, 0)):  # then every ace low, the usual way
        tried.add(_canonical(kept, h, masks))
        found = found or _search(masks, w, aces_high, allowed, sequences, natural, 0, h, need=need)
    found = found or branch(0, 0, acts)
    return None if found is None else found[:3]


#: the moves of a state at a position, by what the position holds and the condition, then by
#: the state but its WILDCARDs used: kept across searches (they share most positions)
_LOCAL: dict = {}


def _canonical(fixed: int, high: int, masks: Sequence[int]) -> tuple[int, int]:
    """The choice (aces ``fixed``, of them ``high`` played high) with, among suits holding the
    same cards, the first ones high, the next ones fixed low: the same hand and condition,
    suits swapped (the counts do not depend on suits), so it has an arrangement exactly when
    the choice given does."""
    f_out = h_out = 0
    for i in range(4):
        like = [k for k in range(4) if masks[k] == masks[i]]
        if like[0] == i:  # the first suit of its kind
            nh = sum(high >> k & 1 for k in like)
            nf = sum(fixed >> k & 1 for k in like)
            h_out |= sum(1 << k for k in like[:nh])
            f_out |= sum(1 << k for k in like[:nf])
    return f_out, h_out


class _Walk:
    """One search's positions: what is in the hand at each, and the moves of a state there."""

    def __init__(self, masks, w, aces_high, allowed, sequences, natural, free, high, keep) -> None:
        self.masks, self.w, self.aces_high, self.high = masks, w, aces_high, high
        self.allowed, self.sequences, self.natural = allowed, sequences, natural
        self.top = top = 14 if aces_high else 13
        self.exact_one = allowed == (1,)
        self.umax = max(allowed)
        self.limit = (w + 1) << K
        defer = free | keep  # the aces that may be kept at position 1 for Q-K-A
        relaxed = RELAXED if free else 0
        self.relaxed = bool(relaxed)
        starts = dp._start_masks(masks, w, aces_high)
        ext = [m | ((m & 1) << 13) if aces_high else m for m in masks]
        self.at: list = [None]
        for p in range(1, top + 1):
            flags = (WSTART if top - 2 <= p < top else 0) | (LAST if p == top else 0) | (AT14 if p == 14 else 0)
            flags |= relaxed if p in (1, 14) else 0
            P = _present(masks, p)
            if p == 1:
                P &= ~high
            Pn = _present(masks, p + 1) if p < 13 else (_present(masks, 1) if top == 14 else 0)
            CM = sum(1 << i for i, x in enumerate(ext) if (x >> p) & 3 == 3) if p <= 12 else 0
            SM = starts[p] if p <= 13 else 0
            P14 = -1 if keep else high | free  # -1: the aces the state kept
            at = (flags, P if p < 14 else P14, Pn, SM, CM, defer if p in (1, 14) else 0)
            local = _LOCAL.get(at + (self.umax, sequences, natural, self.exact_one))
            if local is None:
                local = _LOCAL[at + (self.umax, sequences, natural, self.exact_one)] = {}
            self.at.append(at + (local,))

    def moves(self, p: int, s: int):
        """The moves of state ``s`` at position ``p``: (the addends in increasing order, the
        action of each addend)."""
        flags, P, Pn, SM, CM, defer, local = self.at[p]
        low = s & LOW
        moves = local.get(low)
        if moves is None:
            if P < 0:
                P = low >> DM & 15
            found = _moves(low, P, Pn, SM, CM, flags, defer, self.umax, self.sequences, self.natural, self.exact_one)
            acts = dict(found)
            moves = local[low] = (tuple(sorted(acts)), acts)
        return moves


#: the fields of a state a Need looks at: the runs' lengths (not whether committed), unmelded
NEED_KEY = (CODES & ~0o4444) | 1 << U


class Need:
    """The fewest WILDCARDs the positions after ``p`` need, from a state's runs and unmelded
    card, whatever the condition: the same walk with no sequences to count and every ace
    that may be played high relaxed. Every move of a search maps to one of this walk's that
    uses no more WILDCARDs (a committed run is a run; a run that restarts or overlaps, one
    that carries on; single-card runs beside a group, the group with them; an ace played
    high, a relaxed one), so a state whose WILDCARDs used and this need pass the hand's
    cannot finish and is dropped. Worked out on first need and kept for every search of a
    check (the states of a hand's searches share most of their runs)."""

    def __init__(self, masks: Sequence[int], w: int, aces_high: bool, allowed: tuple[int, ...]) -> None:
        self.walk = _Walk(masks, w, aces_high, allowed, 0, 0, dp.deferrable(masks, w, aces_high), 0, 0)
        self.top = self.walk.top
        self.memo: list[dict] = [{} for _ in range(self.top + 1)]

    def least(self) -> int:
        """At least how many WILDCARDs the hand needs to go out (the condition aside, the
        aces relaxed: a lower bound)."""
        known = self.memo[0].get(0)
        return self._fill(0, 0) if known is None else known

    def within(self, p: int, states, w: int) -> list[int]:
        """The states (after position ``p``) that may finish within ``w`` WILDCARDs."""
        known = self.memo[p].get
        out: list[int] = []
        keep = out.append
        for s in states:
            key = s & NEED_KEY
            n = known(key)
            if n is None:
                n = self._fill(p, key)
            if (s >> K) + n <= w:
                keep(s)
        return out

    def _fill(self, p: int, key: int) -> int:
        if p == self.top:
            return 0
        best = 99  # no way on: the hand cannot finish from here
        memo = self.memo[p + 1]
        for delta in self.walk.moves(p + 1, key)[0]:
            t = key + delta
            dw = t >> K
            if dw >= best:
                break  # the addends are in increasing order of WILDCARDs
            k2 = t & NEED_KEY
            n = memo.get(k2)
            if n is None:
                n = self._fill(p + 1, k2)
            if dw + n < best:
                best = dw + n
        self.memo[p][key] = best
        return best


def _search(masks, w, aces_high, allowed, sequences, natural, free, high, keep=0, need=None):
    """One search, the aces ``free`` relaxed, the aces ``high`` played high, every other
    played low: (plan, WILDCARDs left, WILDCARDs to place, actions) or None. With ``keep``
    (the tests' plain programme) those aces are each kept for Q-K-A or not, the choice held in
    the state: exact, and slower. ``need``: a :class:`Need` of the same hand, to drop the
    states that cannot finish (the tests' plain programme goes without)."""
    walk = _Walk(masks, w, aces_high, allowed, sequences, natural, free, high, keep)
    top, limit, exact_one, relaxed = walk.top, walk.limit, walk.exact_one, walk.relaxed
    layer: list[int] | set[int] = {0}
    layers = []
    for p in range(1, top + 1):
        # every state's moves, in C: the addends are sorted, so those that keep the
        # WILDCARDs used within the hand's are a prefix
        new: set = set()
        add = new.update
        known = walk.at[p][-1].get
        for s in layer:
            moves = known(s & LOW)
            if moves is None:
                moves = walk.moves(p, s)
            deltas = moves[0]
            cut = bisect_left(deltas, limit - s)
            if cut == len(deltas):
                add(map(s.__add__, deltas))
            elif cut:
                add(map(s.__add__, deltas[:cut]))
        layers.append(layer)
        if need is not None and p < top:  # drop the states that cannot finish within the hand's WILDCARDs
            new = need.within(p, new, w)
        layer = _prune(new, exact_one) if len(new) > PRUNE_AT else new
        if not layer:
            return None
    first = None
    for s in sorted(layer):
        choice = _leftover(s, w, allowed, sequences, natural)
        if choice is None:
            continue
        acts = _walk_back(walk, layers, s)
        found = (choice, acts)
        if not relaxed or _consistent(acts, free):
            break
        first = first or found
    else:
        if first is None:
            return None
        found = first
    (left, place), acts = found
    return _plan(masks, acts, aces_high, high), left, place, acts


def _walk_back(walk: _Walk, layers: list, s: int) -> list[int]:
    """The actions of a way to the final state ``s``: at each position, back to the first
    state of the layer before that has a move to the state reached."""
    acts = []
    for p in range(len(layers), 0, -1):
        known = walk.at[p][-1].get
        for t in layers[p - 1]:
            moves = known(t & LOW)
            act = None if moves is None else moves[1].get(s - t)
            if act is not None:
                acts.append(act)
                s = t
                break
        else:  # pragma: no cover - every state of a layer was reached from the one before
            raise AssertionError("no way back")
    acts.reverse()
    return acts


def _consistent(acts: list[int], free: int) -> bool:
    """In a relaxed search: every relaxed ace kept at position 1 ends a run at 14, and no
    other does."""
    return all(
        (acts[0] >> 4 * i & 15 == DEFER) == (acts[13] >> 4 * i & 15 == NAT) for i in range(4) if free >> i & 1
    )


LOW = (1 << K) - 1  #: a state but the WILDCARDs used
_MOVES: dict = {}


def _moves(
    low: int, P: int, Pn: int, SM: int, CM: int, flags: int, defer: int, umax: int, sequences: int, natural: int, exact_one: bool
):
    """The transitions of every state whose fields but the WILDCARDs used are ``low``, as
    (addend to the state, action): counts capped, moves leaving too many cards unmelded
    dropped, of moves to the same state the one using the fewest WILDCARDs. Built on first
    use from the joint table and kept for the life of the process."""
    codes, u, ab, nc, sc = low & CODES, low >> U & 1, low >> AB & 1, low >> NC & CAP, low >> SC & CAP
    room = natural - nc
    if sc < sequences or nc < natural:
        flags |= UNSAT
    key = _key(P, Pn, SM, CM, codes, flags, defer, room) + (low, umax, sequences, natural, exact_one)
    moves = _MOVES.get(key)
    if moves is not None:
        return moves
    best: dict = {}
    dm = low & 15 << DM
    for c2, dm2, dw, du, dsq, dnt, dab, act in _table(P, Pn, SM, CM, codes, flags, defer, room):
        u2 = u + du
        if u2 > umax:
            continue
        target = (
            c2 | dm | dm2 | u2 << U | (ab | dab) << AB | min(nc + dnt, natural) << NC | min(sc + dsq, sequences) << SC
        )
        old = best.get(target)
        if old is None or dw < old[0]:
            best[target] = (dw, act)
    moves = []
    by_codes: dict = {}
    for target, (dw, _act) in best.items():
        by_codes.setdefault(target & CODES, []).append((target >> CODES.bit_length(), dw))
    for target, (dw, act) in best.items():
        if not any(
            _beats(t2, d2, target >> CODES.bit_length(), dw, exact_one)
            for c in _upgrades(target & CODES)
            for t2, d2 in by_codes.get(c, ())
            if (c, t2, d2) != (target & CODES, target >> CODES.bit_length(), dw)
        ):
            moves.append((target - low + (dw << K), act))
    _MOVES[key] = moves
    return moves


def _beats(a: int, da: int, b: int, db: int, exact_one: bool) -> bool:
    """Does the move to a (a state shifted past its codes, using ``da`` WILDCARDs) beat the
    move to b, the runs of a being as long?"""
    base = CODES.bit_length()
    if a & 15 != b & 15:
        return False
    ua, ub = a >> (U - base) & 1, b >> (U - base) & 1
    if ua > ub or (exact_one and ua != ub):
        return False
    aba, abb = a >> (AB - base) & 1, b >> (AB - base) & 1
    if aba < abb or not (da == db or (da < db and aba)):
        return False
    return a >> (NC - base) & CAP >= b >> (NC - base) & CAP and a >> (SC - base) & CAP >= b >> (SC - base) & CAP


def _leftover(s: int, w: int, allowed: tuple[int, ...], sequences: int, natural: int):
    """How the spare WILDCARDs of a final state are placed: (left unmelded, to place) or None."""
    spare = w - (s >> K)
    u, ab, nc, sc = s >> U & 1, s >> AB & 1, s >> NC & CAP, s >> SC & CAP
    if nc < natural:
        return None
    for left in (0, 1):
        if left > spare or u + left not in allowed:
            continue
        placed = spare - left
        if 0 < placed < 3 and not ab:
            continue
        if sc + placed // 3 >= sequences:
            return left, placed
    return None


def _plan(masks: Sequence[int], acts: list[int], aces_high: bool, high: int) -> Plan:
    """Turn the search's per-position actions into runs, groups and unmelded cards."""
    plan = Plan()
    plan.aces_high = aces_high
    for suit in range(4):
        current: list[int] = []
        nats: set[int] = set()
        for p, act in enumerate(acts, start=1):
            a = act >> 4 * suit & 15
            if a in (NAT, WILD):
                current.append(p)
                if a == NAT:
                    nats.add(p)
                continue
            if a in (OVER_WILD, OVER_NATURAL):
                current.append(p)
                if a == OVER_WILD and masks[suit] >> (p - 1) & 1:
                    nats.add(p)
            if current:
                plan.add_run(suit, current, nats)
                current, nats = [], set()
            if a in (NEW, NEW_NATURAL, OVER_NATURAL):
                current, nats = [p], {p}
            elif a in (WILD_START, OVER_WILD):
                current = [p]
        if current:
            plan.add_run(suit, current, nats)
    for p, act in enumerate(acts, start=1):
        if p > 13:
            continue
        pooled = [s for s in range(4) if masks[s] >> (p - 1) & 1 and act >> 4 * s & 15 == NONE]
        if p == 1:
            pooled = [s for s in pooled if not high >> s & 1]
        if not pooled:
            continue
        bits = act >> POOL
        single, grouped, left = bits & 7, bits >> 3 & 1, bits >> 4 & 1
        for suit in pooled[:single]:
            plan.add_single(suit, p)
        rest = pooled[single:]
        if left:
            plan.unmelded.append(DECK[rest[-1] * 13 + p - 1])
            rest = rest[:-1]
        if grouped:
            plan.groups.append([p, rest, max(0, 3 - len(rest))])
        else:
            assert not rest
    return plan
