"""Every card on the table in exactly one meld: as the table said, else by B5 and the engine (SPEC §7).

The cards of a hand's table are *pieces*: each card with the player who put it there. Every
meld on the table has a *core*, the cards first laid together as a meld: a group of three or
more that a player stated with ``/``, or a meld found among the cards of one player who
stated nothing (with cards the player won by a Rummy! claim), or a group of one or two cards
that a player stated, whole, with cards that player claimed (:class:`Founders`). A core is
never split; every other piece is *loose* (laid off, won by a Rummy! claim, or said to have
joined a meld with ``>``) and joins exactly one meld.

Which cores, for a player who stated nothing (:func:`_attempts`): the engine's arrangement
of the player's own cards (:func:`rummyref.melding.solver.arrange_all`: every card melded if
possible, the most in runs: B5's default); if the loose cards cannot all be seated on that,
the player's matches taken first, and each way without the player's WILDCARDs; then, where
a stated group of one or two cards may lay a meld with its player's claimed cards, with such
groups laying melds (:func:`_group_attempts`: a table that seats with them laid off seats as
before). When none of these seats the table, the founders' test
(:mod:`rummyref.games.long.founders`) asks whether the cards can be split into melds that each
hold three cards that may have laid one, in a row in a run (a no is a certain refusal); then
the exact cover (:mod:`rummyref.games.long.cover`)
first looks for a card that no meld of the table's cards can hold (a certain refusal that
names it), then says whether any seating exists at all: none is a certain refusal; one gives
the cores, which the search then seats best. Only if the cover runs out of steps does the
last resort run: every choice of three of one player's cards as each meld's core (a meld is
laid by one player: SPEC §1, §7). All of it shares one budget of steps; so do
the trial seatings that name the card or the designation at fault in a refusal.

Which arrangement, when several fit (:class:`_Search`): the table's designations are obeyed
(``>run``, ``>match``, ``>NAME``, ``>2D``, ``W=7H``); then the most loose cards that were not
designated sit in runs (B5: undesignated, a card that fits a run or a match counts for the
run); then the first in a fixed order: runs before matches, melds by their cards in suit
order (spades, hearts, diamonds, clubs), never by the roster. Within a meld, an ace reads low
first (A-2-3) and WILDCARDs extend a run at its high end, as the engine reads them; a core's
WILDCARDs keep the core in one piece, and WILDCARDs laid off take the other places in the
order they were typed. A card laid sideways (B6) cuts its run off: no WILDCARD in a run may
stand for it. B5 and B6 are cited, and B6 applied, only where the rule set's rulebook has them
(:meth:`~rummyref.rules.ruleset.RuleSet.game_rule`): 500 Rum's table keeps ref's runs-first
order as ref's own choice, cited as no rule, and a card laid sideways there bars nothing.

Anything that fits nowhere is refused, naming the cards, their players and options, and the
designation at fault when there is one; a card laid sideways that lies where the table said is
not at fault for a run past it: the cards that reach past it are, where that is certain (B6,
:func:`_past_the_cut`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from rummyref.cards import SUITS, WILD, Card, Rank, Suit
from rummyref.errors import RuleRefusal
from rummyref.games.long.table import CardFacts, Kind, Laid, Where
from rummyref.melding.melds import HIGH_ACE, Meld, MeldKind
from rummyref.names import alphabetical
from rummyref.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from rummyref.games.long.cover import CoverMeld

# -- pieces and readings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One card on the table. ``id`` tells identical WILDCARDs apart."""

    id: int
    laid: Laid
    owner: str
    claimed: bool = False
    option: str = ""  #: where it was typed, for messages (default: ``--melded``, ``--claim``)
    group: int = -1  #: the '/' group it was typed in (of a player who stated melds), for messages
    seat: int = 0  #: the player's place in the roster, for messages (never for a choice: :func:`pieces_of`)

    @cached_property
    def fixed(self) -> Card | None:
        """The natural card it counts as, when that is known: itself, or its stated stand-in."""
        return self.laid.stands_for if self.laid.card.is_wild else self.laid.card

    @cached_property
    def fixed_index(self) -> int:
        """The index in the deck of :attr:`fixed`, or -1."""
        return -1 if self.fixed is None else self.fixed.index

    @cached_property
    def sig(self) -> tuple[Kind | None, int, int, int]:
        """What :func:`could_be` needs, worked out once: the designated kind, the rank and suit
        it counts as (0 and -1 when unknown), and its own suit when it is a natural card."""
        f = self.fixed
        natural = not self.laid.card.is_wild
        if f is None or f.rank is None or f.suit is None:
            return self.laid.kind, 0, -1, -1
        suit = SUIT_INDEX[f.suit]
        return self.laid.kind, int(f.rank), suit, suit if natural else -1

    @cached_property
    def rank(self) -> int:
        """The rank it counts as (1 for an ace, 13 for a king), 0 when unknown."""
        return self.sig[1]

    @cached_property
    def suit_no(self) -> int:
        """The index in :data:`~rummyref.cards.SUITS` of the suit it counts as, -1 when unknown."""
        return self.sig[2]

    @property
    def where(self) -> Where:
        return Where(self.owner, self.option or ("--claim" if self.claimed else "--melded"))

    def says(self) -> str:
        return self.where.says(str(self.laid))


@dataclass(frozen=True)
class TableMeld:
    """One meld as it lies on the table: the engine's meld (cards in order, what each WILDCARD
    stands for) and, card by card, the piece that put it there."""

    meld: Meld
    pieces: tuple[Piece, ...]
    core: frozenset[int] = frozenset()  #: the pieces laid as one meld (stated, or the engine's)
    stated: bool = False  #: the core is a group the table stated with '/'
    designated: bool = False  #: the table said something that fixed it (a stated group, >run/>match, W=)


@dataclass(frozen=True)
class Placement:
    melds: tuple[TableMeld, ...]
    notes: tuple[str, ...] = ()


def _card_at(suit: Suit, pos: int) -> Card:
    card = _AT.get((suit, pos))
    if card is None:
        card = _AT[suit, pos] = Card(Rank.ACE if pos == HIGH_ACE else Rank(pos), suit)
    return card


_AT: dict[tuple[Suit, int], Card] = {}  #: the cards made by :func:`_card_at` (a card is immutable)


def _kinds(pieces: Sequence[Piece]) -> set[Kind]:
    return {p.laid.kind for p in pieces if p.laid.kind is not None}


def readings(pieces: Sequence[Piece], core: frozenset[int], aces_high: bool, barred: frozenset[Card]) -> Iterator[TableMeld]:
    """Every way the pieces make one valid meld, preferred first: runs (B5), then a match, then
    WILDCARDs alone; each kind only where no piece was designated to the other."""
    kinds = _kinds(pieces)
    if len(kinds) > 1:
        return
    if Kind.MATCH not in kinds:
        yield from _runs(pieces, core, aces_high, barred)
    if Kind.RUN not in kinds:
        group = _group(pieces, barred)
        if group is not None:
            yield group
    if not kinds and len(pieces) >= 3 and all(p.fixed is None for p in pieces):
        yield _made(Meld(MeldKind.WILD, (WILD,) * len(pieces), (None,) * len(pieces)), pieces)


def readable(pieces: Sequence[Piece], core: frozenset[int], aces_high: bool, barred: frozenset[Card]) -> bool:
    """Whether :func:`readings` has any reading of the pieces (the same tests, no meld made)."""
    kinds = _kinds(pieces)
    if len(kinds) > 1:
        return False
    if Kind.MATCH not in kinds and _run_readable(pieces, core, aces_high, barred):
        return True
    if Kind.RUN not in kinds and len(pieces) >= 3:
        fixed = [c for p in pieces if (c := p.fixed) is not None]
        if fixed and all(c.rank == fixed[0].rank for c in fixed) and _suits_fit(pieces):
            return True
    return not kinds and len(pieces) >= 3 and all(p.fixed is None for p in pieces)


def _ace_ends(fixed: Sequence[tuple[Piece, Card]], aces_high: bool) -> tuple[bool, ...]:
    """Which ends an ace of a run may sit at (``False`` low, ``True`` high), low first. An ace
    said to join the meld of its suit's king (``AD>KD``) sits beside it, high; of its suit's two
    (``AD>2D``), low. None: no reading (an ace said to be beside both)."""
    ends: tuple[bool, ...] = (False, True) if aces_high and any(p.rank == 1 for p, _ in fixed) else (False,)
    if len(ends) == 1:  # aces never high (a house's rule set): >KD names the meld, not the end
        return ends
    for p, c in fixed:
        if c.rank == 1 and (b := p.laid.beside) is not None and b.suit == c.suit and b.rank in (Rank.TWO, Rank.KING):
            ends = tuple(e for e in ends if e == (b.rank == Rank.KING))
    return ends


def _run_readable(pieces: Sequence[Piece], core: frozenset[int], aces_high: bool, barred: frozenset[Card]) -> bool:
    """Whether :func:`_runs` yields any reading (the same loop, the first found)."""
    n = len(pieces)
    fixed = [(p, p.fixed) for p in pieces if p.fixed is not None]
    if not 3 <= n <= 13 or not fixed:
        return False
    s = fixed[0][0].suit_no
    if any(p.suit_no != s for p, _ in fixed) or any(p.laid.card.is_wild and c in barred for p, c in fixed):
        return False
    suit = SUITS[s]
    free = [p for p in pieces if p.fixed is None]
    in_core = any(p.id in core for p in free)
    has_ace = any(p.rank == 1 for p, _ in fixed)
    for high in _ace_ends(fixed, aces_high):
        pos = {p.id: HIGH_ACE if high and p.rank == 1 else p.rank for p, _ in fixed}
        taken = set(pos.values())
        if len(taken) != len(pos):
            continue
        floor, ceiling = ((2, HIGH_ACE) if high else (1, 13)) if has_ace else (1, HIGH_ACE if aces_high else 13)
        lo, hi = min(taken), max(taken)
        starts = range(min(lo, ceiling - n + 1), max(floor, hi - n + 1) - 1, -1)
        if not barred and not in_core:  # any start will do
            if starts:
                return True
            continue
        for start in starts:
            holes = [x for x in range(start, start + n) if x not in taken]
            if barred and any(_card_at(suit, x) in barred for x in holes):
                continue
            if not in_core or next(_wild_places(holes, free, core, pos), None) is not None:
                return True
    return False


def _made(meld: Meld, pieces: Sequence[Piece]) -> TableMeld:
    return TableMeld(meld, tuple(pieces))


def _runs(pieces: Sequence[Piece], core: frozenset[int], aces_high: bool, barred: frozenset[Card]) -> Iterator[TableMeld]:
    n = len(pieces)
    fixed = [(p, p.fixed) for p in pieces if p.fixed is not None]
    if not 3 <= n <= 13 or not fixed:
        return
    s = fixed[0][0].suit_no
    if any(p.suit_no != s for p, _ in fixed) or any(p.laid.card.is_wild and c in barred for p, c in fixed):
        return
    suit = SUITS[s]
    free = [p for p in pieces if p.fixed is None]
    has_ace = any(p.rank == 1 for p, _ in fixed)
    for high in _ace_ends(fixed, aces_high):
        pos = {p.id: HIGH_ACE if high and p.rank == 1 else p.rank for p, _ in fixed}
        taken = set(pos.values())
        if len(taken) != len(pos):
            continue
        floor, ceiling = ((2, HIGH_ACE) if high else (1, 13)) if has_ace else (1, HIGH_ACE if aces_high else 13)
        lo, hi = min(taken), max(taken)
        for start in range(min(lo, ceiling - n + 1), max(floor, hi - n + 1) - 1, -1):  # high end first
            holes = [x for x in range(start, start + n) if x not in taken]
            if barred and any(_card_at(suit, x) in barred for x in holes):
                continue
            for places in _wild_places(holes, free, core, pos):
                at = {**pos, **places}
                ordered = sorted(pieces, key=lambda p: at[p.id])
                cards = tuple(p.laid.card for p in ordered)
                reps = tuple(_card_at(suit, at[p.id]) for p in ordered)
                yield _made(Meld(MeldKind.SEQUENCE, cards, reps, start), ordered)


def _wild_places(holes: list[int], free: list[Piece], core: frozenset[int], pos: dict[int, int]) -> Iterator[dict[int, int]]:
    """The places of the unstated WILDCARDs: a core's keep the core in one piece (the highest
    way first); the others take what is left, low to high, in the order they were typed."""
    mine = [p.id for p in free if p.id in core]
    others = [p.id for p in free if p.id not in core]
    if not mine:
        yield dict(zip(others, holes))
        return
    anchored = sorted(x for i, x in pos.items() if i in core)
    if not anchored:  # a core of WILDCARDs alone is no run
        return
    size, open_ = len(core), set(holes)
    for a in range(anchored[0], anchored[-1] - size, -1):
        need = [x for x in range(a, a + size) if x not in anchored]
        if len(need) == len(mine) and all(x in open_ for x in need) and a + size - 1 >= anchored[-1]:
            yield dict(zip(mine, need)) | dict(zip(others, [x for x in holes if x not in need]))


def _group(pieces: Sequence[Piece], barred: frozenset[Card]) -> TableMeld | None:
    fixed = [c for p in pieces if (c := p.fixed) is not None]
    naturals = sorted((p for p in pieces if not p.laid.card.is_wild), key=lambda p: p.laid.card.sort_key())
    if len(pieces) < 3 or not fixed or any(c.rank != fixed[0].rank for c in fixed):
        return None
    suits = [p.laid.card.suit for p in naturals]
    if not _suits_fit(pieces):
        return None
    rank = fixed[0].rank
    stated = [p for p in pieces if p.laid.card.is_wild and p.fixed is not None]
    free = [p for p in pieces if p.fixed is None]
    used = set(suits) | {SUITS[p.suit_no] for p in stated}
    spare = [s for s in SUITS if s not in used and Card(rank, s) not in barred] or list(SUITS)
    ordered = naturals + stated + free
    reps = [p.fixed for p in naturals + stated] + [Card(rank, spare[i % len(spare)]) for i in range(len(free))]
    return _made(Meld(MeldKind.GROUP, tuple(p.laid.card for p in ordered), tuple(reps)), ordered)


def _suits_fit(pieces: Sequence[Piece]) -> bool:
    """Whether a match's cards are each of another suit: its natural cards, then each WILDCARD
    said to stand for a card (``W=7H``), in the order typed. A WILDCARD may be said to be a card
    of a suit already there only when the match already holds every suit: it then stands for a
    card already on the table, as a bare WILDCARD there does (SPEC §5: a match is up to four
    natural cards of a rank and any number of WILDCARDs)."""
    seen: set[Suit | None] = set()
    for p in sorted(pieces, key=lambda p: p.laid.card.is_wild):
        c = p.fixed
        if c is None:
            continue
        if c.suit in seen and (not p.laid.card.is_wild or len(seen) < len(SUITS)):
            return False
        seen.add(c.suit)
    return True


SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def could_be(pieces: Sequence[Piece], aces_high: bool) -> bool:
    """Whether the pieces could still be part of one valid meld once more cards join (a
    quick test for the search: the kind, one suit or one rank, no card twice, room for a run:
    one suit, at most 13 cards, no rank twice; an ace low keeps any such ranks within 13)."""
    kinds = 0  # 1: >run said, 2: >match said
    rank0 = suit0 = count = 0
    same_rank = same_suit = True
    suits_seen = ranks = 0
    twice = False
    for p in pieces:
        kind, rank, suit, natural = p.sig
        if kind is not None:
            kinds |= 1 if kind is Kind.RUN else 2
        if not rank:
            continue
        if not count:
            rank0, suit0 = rank, suit
        else:
            same_rank = same_rank and rank == rank0
            same_suit = same_suit and suit == suit0
        count += 1
        if natural >= 0:
            twice = twice or bool(suits_seen >> natural & 1)
            suits_seen |= 1 << natural
        ranks |= 1 << rank
    if kinds == 3:
        return False
    if not count:  # WILDCARDs alone can still become anything
        return True
    if not kinds & 1 and same_rank and not twice:
        return True
    return not kinds & 2 and same_suit and len(pieces) <= 13 and ranks.bit_count() == count


def _run_room(fixed: Sequence[Piece], n: int, aces_high: bool) -> bool:
    if n > 13 or any(p.suit_no != fixed[0].suit_no for p in fixed):
        return False
    ranks = [p.rank for p in fixed]
    for reading in [ranks] + ([[HIGH_ACE if r == 1 else r for r in ranks]] if aces_high and 1 in ranks else []):
        if len(set(reading)) == len(reading) and max(reading) - min(reading) < 13:
            return True
    return False


def _holes(pieces: Sequence[Piece], aces_high: bool) -> set[int]:
    """The cards missing inside a meld that can only be a run (none for one that could still be
    a match, or WILDCARDs alone): the reading with the fewest holes, as card indexes."""
    best: set[int] | None = None
    for holes in _hole_readings(pieces, aces_high):
        if best is None or len(holes) < len(best):
            best = holes
    return best or set()


def _hole_readings(pieces: Sequence[Piece], aces_high: bool) -> list[set[int]]:
    """The holes of :func:`_holes` for each reading of the ace (low, and high where aces may be
    high); no reading for a meld that could still be a match, or WILDCARDs alone."""
    ranks = [sig[1] for p in pieces if (sig := p.sig)[1]]
    if not ranks:
        return []
    if all(r == ranks[0] for r in ranks) and not any(p.sig[0] is Kind.RUN for p in pieces):
        return []
    at = _CARDS_AT[next(p.sig[2] for p in pieces if p.sig[1])]
    out = []
    for reading in [ranks] + ([[HIGH_ACE if r == 1 else r for r in ranks]] if aces_high and 1 in ranks else []):
        taken = set(reading)
        out.append({at[x] for x in range(min(reading), max(reading)) if x not in taken})
    return out


_CARDS_AT = [[_card_at(s, max(x, 1)).index for x in range(HIGH_ACE + 1)] for s in SUITS]  #: by suit, position


def _is_run_possible(pieces: Sequence[Piece], aces_high: bool) -> bool:
    fixed = [p for p in pieces if p.fixed is not None]
    return Kind.MATCH not in _kinds(pieces) and (not fixed or _run_room(fixed, len(pieces), aces_high))


# -- the search ----------------------------------------------------------------------------------


class _Search:
    """The loose pieces onto the cores: the best arrangement (module doc).

    Depth-first over the loose pieces in a fixed order, each trying the melds it could join,
    runs first; a branch is cut when it cannot seat more undesignated cards in runs than the
    best arrangement found, or when a run has holes that the cards left cannot fill."""

    def __init__(self, cores: Sequence[Sequence[Piece]], loose: Sequence[Piece], aces_high: bool,
                 barred: frozenset[Card], budget: Budget | None = None):
        self.cores = sorted((list(c) for c in cores), key=_meld_key)
        self.core_ids = [frozenset(p.id for p in c) for c in self.cores]
        self.loose = sorted(loose, key=lambda p: (p.laid.card.sort_key(), p.id))
        self.aces_high, self.barred = aces_high, barred
        self.melds: list[list[Piece]] = [list(c) for c in self.cores]
        self.home: dict[int, int] = {p.id: i for i, c in enumerate(self.cores) for p in c}
        self.card_piece = {p.laid.card: p.id for c in self.cores for p in c if not p.laid.card.is_wild}
        self.card_piece |= {p.laid.card: p.id for p in self.loose if not p.laid.card.is_wild}
        self.owners_left = [{p.owner for p in self.loose[k:]} for k in range(len(self.loose) + 1)]
        self.free_left = [sum(p.laid.kind is None for p in self.loose[k:]) for k in range(len(self.loose) + 1)]
        self.core_pieces = frozenset(p.id for c in self.cores for p in c)
        self.best: list[TableMeld] | None = None
        self.best_score = -1
        self.budget = budget  #: nodes to visit at most (None: no limit)
        #: the cores each loose piece could join at all (a piece with none: no arrangement); a
        #: claimed card sent to its own group's meld (:attr:`Laid.to_group`), only the core
        #: that group laid
        self.fits = {p.id: [i for i, c in enumerate(self.cores) if could_be(c + [p], aces_high)
                            and (not p.laid.to_group or any(q.laid.card == p.laid.beside for q in c))]
                     for p in self.loose}
        self.read: dict[tuple[int, ...], TableMeld | None] = {}  #: readings met before, by the meld's pieces
        #: for :meth:`_gaps_unfillable`: the plain WILDCARDs from each loose piece on; for each
        #: meld, the loose pieces that could join it (their place in the order, their card); the
        #: holes of each meld met (each reading of the ace) and its WILDCARDs, by its pieces
        self.wild_left = [sum(1 for p in self.loose[k:] if p.laid.card.is_wild and p.fixed is None)
                          for k in range(len(self.loose) + 1)]
        self.fitting: list[list[tuple[int, int]]] = [[] for _ in self.cores]
        for j, p in enumerate(self.loose):
            for i in self.fits[p.id]:
                self.fitting[i].append((j, p.fixed_index))
        self.holes: dict[tuple[int, ...], tuple[list[set[int]], int]] = {}
        self.keys = [tuple(p.id for p in m) for m in self.melds]  #: each meld's pieces (ids), kept by _dfs

    def run(self) -> list[TableMeld] | None:
        """The best arrangement, searched apart for each group of melds that share no loose
        card (nothing one group does changes another, so the best of each is the best of all)."""
        if not all(self.fits.values()):
            return None
        parts = self._parts()
        if len(parts) <= 1:
            self._dfs(0)
            return self.best
        found: list[TableMeld] = []
        for melds, pieces in parts:
            if pieces:
                sub = _Search([self.cores[i] for i in melds], pieces, self.aces_high, self.barred, self.budget)
                best = sub._whole()
            else:
                alone = [self._reading(i, self.cores[i]) for i in melds]
                best = None if any(t is None for t in alone) else [t for t in alone if t is not None]
            if best is None:
                return None
            found += best
        return found

    def _whole(self) -> list[TableMeld] | None:
        self._dfs(0)
        return self.best

    def _parts(self) -> list[tuple[list[int], list[Piece]]]:
        """The melds and loose pieces that hang together: a piece with the melds it could join,
        a piece said to join another card's meld or a player's meld with those pieces."""
        parent: dict[tuple[str, int], tuple[str, int]] = {}

        def root(x: tuple[str, int]) -> tuple[str, int]:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        def join(a: tuple[str, int], b: tuple[str, int]) -> None:
            parent[root(a)] = root(b)

        for i in range(len(self.cores)):
            root(("m", i))
        for p in self.loose:
            for i in self.fits[p.id]:
                join(("p", p.id), ("m", i))
            if p.laid.beside in self.card_piece:
                target = self.card_piece[p.laid.beside]
                join(("p", p.id), ("m", self.home[target]) if target in self.home else ("p", target))
            for q in self.loose:
                if p.laid.player and q.owner == p.laid.player:
                    join(("p", p.id), ("p", q.id))
        groups: dict[tuple[str, int], tuple[list[int], list[Piece]]] = {}
        for i in range(len(self.cores)):
            groups.setdefault(root(("m", i)), ([], []))[0].append(i)
        for p in self.loose:
            groups.setdefault(root(("p", p.id)), ([], []))[1].append(p)
        return list(groups.values())

    def _reading(self, i: int, meld: list[Piece]) -> TableMeld | None:
        key = tuple(p.id for p in meld)
        if key not in self.read:
            first = None
            if all(self._joined(p, meld) for p in meld):
                first = next(readings(meld, self.core_ids[i], self.aces_high, self.barred), None)
            self.read[key] = None if first is None else replace(first, core=self.core_ids[i])
        return self.read[key]

    def _options(self, k: int, p: Piece) -> list[int]:
        beside = self.home.get(self.card_piece.get(p.laid.beside, -1)) if p.laid.beside else None
        ranked = []
        for i in self.fits[p.id]:
            meld = self.melds[i]
            if beside is not None and i != beside:
                continue
            if p.laid.player and p.laid.player not in self.owners_left[k + 1] and not any(
                q.owner == p.laid.player for q in meld
            ):
                continue
            trial = meld + [p]
            if could_be(trial, self.aces_high):
                ranked.append((0 if _is_run_possible(trial, self.aces_high) else 1, i))
        return [i for _, i in sorted(ranked)]

    def _dfs(self, k: int) -> None:
        if self.budget is not None:
            self.budget.spend()
        if self.best is not None and self._bound(k) <= self.best_score:
            return
        if self._gaps_unfillable(k):
            return
        if k == len(self.loose):
            self._leaf()
            return
        p = self.loose[k]
        for i in self._options(k, p):
            self.melds[i].append(p)
            self.home[p.id] = i
            key = self.keys[i]
            self.keys[i] = key + (p.id,)
            self._dfs(k + 1)
            self.keys[i] = key
            del self.home[p.id]
            self.melds[i].pop()

    def _gaps_unfillable(self, k: int) -> bool:
        """A run that can only be a run, with holes no card still to be placed can fill: the
        holes the cards left to seat cannot fill need WILDCARDs, and there are too few."""
        wild = self.wild_left[k]
        need = 0
        for i, meld in enumerate(self.melds):
            key = self.keys[i]
            known = self.holes.get(key)
            if known is None:
                # WILDCARDs in the meld fill holes too
                known = self.holes[key] = (_hole_readings(meld, self.aces_high), sum(1 for p in meld if p.fixed is None))
            readings_, inside = known
            # an ace low and high leave different holes: the reading that needs the fewest
            # WILDCARDs, once the cards still to come are in (not the one with fewest holes now)
            least = None
            for holes in readings_:
                coming = {x for j, x in self.fitting[i] if j >= k and x in holes}
                n = max(0, len(holes - coming) - inside)
                least = n if least is None else min(least, n)
            need += least or 0
            if need > wild:
                return True
        return False

    def _bound(self, k: int) -> int:
        """At most this many undesignated loose cards can end in runs below this node."""
        seated = sum(
            1 for m in self.melds if _is_run_possible(m, self.aces_high)
            for p in m if p.laid.kind is None and p.id not in self.core_pieces
        )  # fmt: skip
        return seated + self.free_left[k]

    def _leaf(self) -> None:
        found = []
        for i, meld in enumerate(self.melds):
            reading = self._reading(i, meld)
            if reading is None:
                return
            found.append(reading)
        score = sum(1 for t in found if t.meld.kind is MeldKind.SEQUENCE
                    for p in t.pieces if p.laid.kind is None and p.id not in self.core_pieces)  # fmt: skip
        if score > self.best_score:
            self.best, self.best_score = found, score

    @staticmethod
    def _joined(p: Piece, meld: Sequence[Piece]) -> bool:
        """``>NAME`` and ``>2D`` hold: the meld has NAME's cards, the 2D."""
        if p.laid.player and not any(q.owner == p.laid.player and q.id != p.id for q in meld):
            return False
        return p.laid.beside is None or any(q.laid.card == p.laid.beside for q in meld)


class _Tangled(Exception):
    """The search gave up: too many ways to try."""


class Budget:
    """How many more steps the last-resort search may take (about a second's worth)."""

    def __init__(self, steps: int) -> None:
        self.steps = steps

    def spend(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise _Tangled


def _meld_key(pieces: Sequence[Piece]) -> tuple:
    """Melds in a fixed order, whoever laid them: by their natural cards in suit and rank order."""
    return tuple(sorted(p.laid.card.sort_key() for p in pieces))


# -- who may have laid a meld ---------------------------------------------------------------------


@dataclass(frozen=True)
class Founders:
    """The cards that may be among the three that laid a meld (its core, when no stated group of
    three or more is): each card melded by a player who stated nothing, each card won by a
    Rummy! claim that said nothing of where it went, and, of a player who stated their melds, a
    stated group of one or two cards with the claimed cards of that player that may lay a meld
    with it. Such a group is laid off, unless it laid a meld with that player's claimed cards:
    the group whole, never two groups in one core (SPEC §7). A claimed card may lay a meld with
    a group when nothing was said of where it went, or only that it joined that group's meld
    (``>NAME`` the claimer, ``>CARD`` a card of the group: of its rank too, ``AD>AS``, where it
    lies upright, :func:`_to_groups`); such a card lays no meld without a group, and one said to
    join a card of the group sits in the meld the group laid."""

    ids: frozenset[int] = frozenset()  #: every card that may be one of a core's three
    group_of: Mapping[int, frozenset[int]] = field(default_factory=dict)  #: a group's card: the group (ids)
    said: frozenset[int] = frozenset()  #: the claimed cards said to join a group's meld
    #: each group with claimed cards that make a meld on their own with it (no card sideways)
    threes: tuple[tuple[Piece, ...], ...] = ()

    def three(self, three: Sequence[Piece]) -> bool:
        """Whether three cards (that may found, of one player) may be a meld's core, as to
        which cards they are: at most one group, whole, and the claimed cards said to join a
        group's meld with the group they name (whether the three are a meld is not asked)."""
        if not self.group_of:
            return True
        group = None
        for p in three:
            g = self.group_of.get(p.id)
            if g is not None:
                if group is not None and g != group:
                    return False
                group = g
        if group is None:
            return not any(p.id in self.said for p in three)
        if not group <= {p.id for p in three}:
            return False
        cards = {p.laid.card for p in three if p.id in group}
        return all(_names(p.laid, cards) for p in three if p.id in self.said)


def _names(laid: Laid, cards: set[Card] | frozenset[Card]) -> bool:
    """Whether what was said of a claimed card names only the meld of a group of these cards
    (nothing said names any): ``>NAME`` of the claimer is checked by the caller."""
    return laid.kind is None and not laid.sideways and (laid.beside is None or laid.beside in cards)


def founders_of(stated: Sequence[Sequence[Piece]], own: Sequence[Sequence[Piece]], loose: Sequence[Piece],
                aces_high: bool = True) -> Founders:
    """The table's :class:`Founders`. A group counts only where its player claimed cards that
    make a meld on their own with it (two for a group of one, one for a group of two; read
    with no card laid sideways: looser, and the cover reads each meld in full); so do those
    claimed cards (:attr:`Founders.threes`)."""
    ids = {p.id for m in own for p in m} | {p.id for p in loose if p.claimed and not p.laid.joins}
    cored = {(p.owner, p.group) for c in stated for p in c}
    groups: dict[tuple[str, int], list[Piece]] = {}
    for p in loose:
        if p.group >= 0 and not p.claimed and not p.laid.joins and (p.owner, p.group) not in cored:
            groups.setdefault((p.owner, p.group), []).append(p)
    if not groups:
        return Founders(frozenset(ids))
    claimed: dict[str, list[Piece]] = {}
    for p in sorted(loose, key=lambda p: (p.laid.card.sort_key(), p.id)):
        if p.claimed and p.laid.player in (None, p.owner):
            claimed.setdefault(p.owner, []).append(p)
    group_of: dict[int, frozenset[int]] = {}
    said: set[int] = set()
    threes: list[tuple[Piece, ...]] = []
    for (owner, _), group in sorted(groups.items()):
        ids_ = frozenset(p.id for p in group)
        if len(group) >= 3:  # a refusal's trial without what was said of a card of a stated meld:
            ids |= ids_  # the meld's cards found, as its player's own would (looser than a stated core)
            continue
        cards = {p.laid.card for p in group}
        naming = [q for q in claimed.get(owner, ()) if _names(q.laid, cards)]
        found = [(*group, *more) for more in itertools.combinations(naming, 3 - len(group))
                 if could_be((*group, *more), aces_high)
                 and readable((*group, *more), frozenset(p.id for p in (*group, *more)), aces_high, frozenset())]
        if not found:
            continue
        threes += found
        group_of.update((p.id, ids_) for p in group)
        ids |= ids_
        ids.update(q.id for t in found for q in t)
        said.update(q.id for t in found for q in t if q.claimed and q.laid.joins)
    return Founders(frozenset(ids), group_of, frozenset(said), tuple(threes))


def _to_groups(typed: list[tuple[Piece, int, bool]], aces_high: bool) -> list[tuple[Piece, int, bool]]:
    """The claimed cards said to join the meld of a card of their claimer's own stated group of
    one or two cards (``AD>AS`` with ``AS AH /``), where they may lay a meld with that group,
    read so (:attr:`Laid.to_group`): the group laid a meld, and the card sits in it (one of
    the three that laid it, or laid off on it); the group's cards are not laid off on another
    player's meld. Where the card may lay no meld with the group (``9C>QC`` with ``QC KC /``),
    it joins the meld where that card sits, as ``>CARD`` says of any card."""
    groups: dict[tuple[str, int], list[Piece]] = {}
    for p, g, stated in typed:
        if stated and not p.claimed:
            groups.setdefault((p.owner, g), []).append(p)
    lone = [p for group in groups.values() if len(group) < 3 and not any(p.laid.joins for p in group)
            for p in group]
    cards = {(p.owner, p.laid.card) for p in lone if not p.laid.card.is_wild}
    said = {p.id: replace(p, laid=replace(p.laid, to_group=True)) for p, _, _ in typed
            if p.claimed and p.laid.kind is None and p.laid.player in (None, p.owner)
            and (p.owner, p.laid.beside) in cards}
    if not said:
        return typed
    pool = lone + [said.get(p.id, p) for p, _, _ in typed if p.claimed]
    laying = {q.id for three in founders_of([], [], pool, aces_high).threes for q in three}
    return [(said[p.id] if p.id in said and p.id in laying else p, g, stated) for p, g, stated in typed]


# -- the phases ----------------------------------------------------------------------------------


def by_name(name: str) -> tuple[str, str, str]:
    """The order in which ref takes the players where two seatings are equally good by every
    rule (whose WILDCARD takes the lower place, whose own melds give way first): their names in
    alphabetical order (accents and case aside: :func:`rummyref.names.alphabetical`), never the
    roster's or the options' order (the same table, seated the same whoever deals)."""
    return alphabetical(name)


def pieces_of(facts: CardFacts) -> list[tuple[Piece, int, bool]]:
    """Every card on the table as a piece, with the index of the group it was typed in (per
    player) and whether that player stated their melds: the players' melded cards in the order
    of :func:`by_name`, each player's as typed, then the claims, likewise by name (each
    claimer's in the order typed). The ids follow that order, so no choice depends on the
    roster's order or on the order of the options."""
    seat = {name: i for i, (name, _) in enumerate(facts.players)}
    out: list[tuple[Piece, int, bool]] = []
    for name, p in sorted(facts.players, key=lambda np: by_name(np[0])):
        for g, group in enumerate(p.melded):
            for laid in group:
                out.append((Piece(len(out), laid, name, option=facts.option(name), group=g if p.stated else -1,
                                  seat=seat[name]), g, p.stated))
    for name, laid in sorted(facts.claims, key=lambda nc: by_name(nc[0])):
        out.append((Piece(len(out), laid, name, claimed=True, option=facts.option(name, claimed=True),
                          seat=seat.get(name, len(seat))), -1, False))
    return out


def place(facts: CardFacts, ruleset: RuleSet) -> Placement:
    """Seat every card the table laid in a meld (the module doc says how), or refuse.

    A card the table sent to a match lies sideways there (B6), however the table named the
    meld: ``>match`` (``^``) and ``>AC`` say so as typed, but ``>NAME`` names a player's meld,
    which is a match only once the table is seated (Larry laid only the aces). A bare WILDCARD
    laid sideways (``W^``, ``W>match``, ``W>AC``, or ``W>NAME`` seated on a match) lies as the
    card it stands for in its match, likewise known only once the table is seated. Such a
    card then cuts its run off like any card laid sideways (B6), so the table is seated again
    with the card read as lying sideways (shown ``AD^``, ``W(=AD)^``, as ref's reading). The
    second seating first tries the first one's cores (:func:`_reseat`)."""
    typed = _to_groups(pieces_of(facts), ruleset.aces_high)
    placement = _place(typed, facts, ruleset)
    read = _sideways_reading(placement)
    if not read:
        return placement
    typed = [(replace(p, laid=read[p.id]) if p.id in read else p, g, stated) for p, g, stated in typed]
    return _place(typed, facts, ruleset, seated=placement)


def _barred(typed: list[tuple[Piece, int, bool]]) -> frozenset[Card]:
    """The cards laid sideways (B6), which no WILDCARD in a run may stand for: each card laid
    sideways, and the card a WILDCARD laid sideways stands for, unless that card is itself on
    the table (``W=7S^`` on 7S 7H 7D 7C): such a WILDCARD stands for a card already there, and
    cuts nothing off (SPEC §5: a WILDCARD may stand for a card that sits elsewhere)."""
    naturals = {p.laid.card for p, _, _ in typed if not p.laid.card.is_wild}
    return frozenset(p.laid.cut for p, _, _ in typed
                     if p.laid.sideways and not (p.laid.card.is_wild and p.laid.cut in naturals))


def _sideways_reading(placement: Placement) -> dict[int, Laid]:
    """The cards the table sent to a match without saying it was one (``>NAME``; ``>AS`` sent to
    the meld of the claimer's own group, laid off on the match that group laid), and the bare
    WILDCARDs laid sideways on a match, each as it then lies: sideways, a WILDCARD as the card
    it stands for there."""
    out: dict[int, Laid] = {}
    # a WILDCARD in a match that stands for a natural card also on the table (a fifth seven)
    # is no card of a run: it cuts nothing off, and stays as ref read it (a WILDCARD said to
    # stand for the card elsewhere, W=7H in a run, is no such card: the run is cut off there)
    there = {p.laid.card for t in placement.melds for p in t.pieces if not p.laid.card.is_wild}
    for t in placement.melds:
        if t.meld.kind is not MeldKind.GROUP:
            continue
        for p, rep in zip(t.pieces, t.meld.represents):
            laid = p.laid
            named = (laid.player is not None or laid.to_group) and not laid.sideways and p.id not in t.core
            if laid.card.is_wild and laid.stands_for is None and (rep is None or rep in there):
                if named:
                    out[p.id] = replace(laid, kind=Kind.MATCH, on_match=True)
                continue
            if laid.card.is_wild and laid.stands_for is None and rep is not None and (
                    named or laid.kind is Kind.MATCH or (laid.beside is not None and laid.beside.rank == rep.rank)):
                laid = replace(laid, stands_for=rep, read=True)
                there.add(rep)  # a second WILDCARD read as the same card is a duplicate
            if named and (laid.stands_for is not None or not laid.card.is_wild):
                laid = replace(laid, kind=Kind.MATCH, on_match=True)
            if laid is not p.laid:
                out[p.id] = laid
    return out


def _place(typed: list[tuple[Piece, int, bool]], facts: CardFacts, ruleset: RuleSet,
           seated: Placement | None = None) -> Placement:
    # B6, where the rulebook has it: a card laid sideways cuts its run off (no WILDCARD past it)
    b6 = ruleset.game_rule("B6") is not None
    barred = _barred(typed) if b6 else frozenset()
    stated, own, loose = _split(typed, facts, ruleset, barred)
    known = _Known(stated_by=frozenset(name for name, player in facts.players if player.stated))
    found = None if seated is None else _reseat(seated, [p for p, _, _ in typed], ruleset.aces_high, barred)
    if found is None:
        found = _seat(stated, own, loose, ruleset, barred, known=known)
    if found is None:
        raise _refusal(stated, own, loose, ruleset, barred, known)
    ids = {frozenset(p.id for p in c) for c in stated}
    melds = tuple(
        replace(t, stated=t.core in ids, designated=t.core in ids or any(p.laid.joins or p.laid.stands_for for p in t.pieces))
        for t in sorted(found, key=lambda t: _meld_key(t.pieces))
    )
    notes = tuple(_notes(melds, ruleset, barred))
    group_note = _group_note(melds, stated, own, loose, ruleset, barred)
    return Placement(melds, notes + ((group_note,) if group_note else ()))


def _group_note(melds: Sequence[TableMeld], stated: list[list[Piece]], own: list[list[Piece]],
                loose: list[Piece], ruleset: RuleSet, barred: frozenset[Card]) -> str | None:
    """A note when a stated group of one or two cards was laid off (the table seats that way,
    and ref lays it off, as the '/' says) but could have laid a meld with its player's claimed
    cards, and that player would then be credited otherwise: how to say so (``AD>AS``: the
    claimed card joined the meld of the group's first card, :func:`_to_groups`)."""
    from rummyref.rules.values import in_meld

    aces_high = ruleset.aces_high
    founders = founders_of(stated, own, loose, aces_high)
    if not founders.threes:
        return None
    threes = {frozenset(p.id for p in three) for three in founders.threes}
    if any(t.core in threes for t in melds):
        return None  # a group laid its meld already
    ways = [_own_ways(mine, ruleset) for mine in own]
    other = None
    try:
        for cores, left in _group_attempts(stated, own, loose, ways, aces_high, barred):
            other = _Search(stated + cores, left, aces_high, barred, Budget(SEARCH_BUDGET)).run()
            if other is not None:
                break
    except _Tangled:
        return None
    laid = next((t for t in other or () if t.core in threes), None)
    if other is None or laid is None:
        return None
    owner = laid.pieces[0].owner

    def credit(seating: Sequence[TableMeld]) -> int:
        return sum(v for t in seating for p, v in zip(t.pieces, in_meld(t.meld, ruleset)) if p.owner == owner)

    here, there = credit(melds), credit(other)
    if here == there:
        return None
    group = sorted((p for p in laid.pieces if p.id in founders.group_of), key=lambda p: p.id)  # as typed
    claims = [p for p in laid.pieces if p.id in laid.core and p.id not in founders.group_of]
    first = group[0].laid.card
    kind = ruleset.meld_word("run" if laid.meld.kind is MeldKind.SEQUENCE else "match")
    were = "was" if len(group) == 1 else "were"
    return (f"{owner}'s {' '.join(str(p.laid) for p in group)} / {were} laid off, as the '/' says; with "
            f"{owner}'s claimed {' '.join(str(p.laid) for p in claims)} {'it' if len(group) == 1 else 'they'} "
            f"could lay a {kind} ({owner} {there} "
            f"rather than {here}): {' '.join(f'{_head(p.laid)}>{first}' for p in claims)} says so")


def _head(laid: Laid) -> str:
    """The card as typed before any '>': ``AD``, ``W``, ``W=AD``."""
    return str(laid.card) + (f"={laid.stands_for}" if laid.stands_for is not None and not laid.read else "")


def _reseat(seated: Placement, pieces: list[Piece], aces_high: bool, barred: frozenset[Card]) -> list[TableMeld] | None:
    """The table seated again on the cores of its first seating, once the cards sent to a match
    are read as lying sideways (:func:`place`); none when that does not seat it (a WILDCARD in
    a run stands for a card now sideways), and the whole seating then runs again.

    The same seating as a second search from scratch would find, and far quicker: what the
    second reading says only narrows where a card may go (a card that lay in a match must lie
    in a match; a WILDCARD stands for the card it stood for), and it changes no count of B5 (those
    cards sat in matches, and now count as designated), so the attempt that seated the table
    first still seats it, with the same best; only an attempt that gave up could differ, and
    where the first seating came from the exact cover, a cover searched again may give other
    cores for the same table (either is a seating; this one keeps the one already shown)."""
    by_id = {p.id: p for p in pieces}
    # each core's cards in the order the meld shows them (which WILDCARD stands for which card)
    cores = [[by_id[q.id] for q in t.pieces if q.id in t.core] for t in seated.melds]
    in_core = {i for t in seated.melds for i in t.core}
    if sum(map(len, cores)) != len(in_core) or not in_core <= by_id.keys():
        return None
    left = [p for p in pieces if p.id not in in_core]
    try:
        return _Search(cores, left, aces_high, barred, Budget(SEARCH_BUDGET)).run()
    except _Tangled:
        return None


@dataclass
class _Known:
    """What one seating has worked out that its refusal asks again: whether the engine melds
    a set of cards (the trials that drop a designation ask it of the same cards), and the
    cards with no meld to sit in."""

    melds: dict[tuple[int, ...], bool] = field(default_factory=dict)
    founded: dict[tuple, bool] = field(default_factory=dict)  #: could_found's answers, by its question
    homeless: list[Piece] | None = None
    search: object | None = None  #: the table's exact cover (:func:`rummyref.games.long.cover.ready`), once made
    #: the founders' test of the whole table (:func:`_all_found`): the looser question's answer
    #: and the whole answer, once asked; a trial that only drops what was said asks no more
    whole: tuple[bool, bool] | None = None
    #: the players who stated their melds with '/' (a card of theirs said nothing of lays no meld)
    stated_by: frozenset[str] = frozenset()


def _seat(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
          barred: frozenset[Card], budget: Budget | None = None, known: _Known | None = None
          ) -> list[TableMeld] | None:
    """The first attempt (:func:`_attempts`) whose cores seat every loose card, best seated.

    After the most trusting attempts, the exact cover (:mod:`rummyref.games.long.cover`)
    says whether any seating exists: none is a certain refusal; one gives the cores the search
    then seats best. Only when the cover runs out of steps does the last resort search on."""
    from rummyref.games.long.cover import UNKNOWN, cover, homeless, ready

    known = known or _Known()
    if not _all_meld(stated, own, loose, ruleset, known):
        return None
    budget = budget or Budget(SEARCH_BUDGET)
    try:
        ways = [_own_ways(mine, ruleset) for mine in own]
        for cores, left in itertools.chain(_attempts(ways, loose),
                                           _group_attempts(stated, own, loose, ways, ruleset.aces_high, barred)):
            found = _Search(stated + cores, left, ruleset.aces_high, barred, budget).run()
            if found is not None:
                return found
        if not _all_found(stated, own, loose, ruleset.aces_high, known):
            return None
        search = known.search = ready(stated, own, loose, ruleset.aces_high, barred)
        known.homeless = homeless(stated, own, loose, ruleset.aces_high, barred, search=search)
        if known.homeless:
            return None
        seating, spent = cover(stated, own, loose, ruleset.aces_high, barred, COVER_STEPS, ruleset,
                               melds=known.melds, search=search)
        budget.steps -= min(spent, COVER_SHARE)
        if seating is None:
            return None
        if seating is not UNKNOWN:
            return _from_cover(seating, stated, ruleset.aces_high, barred, budget)
        for cores, left in _last_resort(stated, own, loose, ways, ruleset, barred, budget):
            found = _Search(stated + cores, left, ruleset.aces_high, barred, budget).run()
            if found is not None:
                return found
    except _Tangled:
        raise RuleRefusal(
            "ref cannot work out how these cards were laid: too many ways to try",
            hint="say which cards were laid together with '/' and where cards went with '>' (AD>run, AD>2D)",
        ) from None
    return None


COVER_STEPS = 50_000  #: melds the exact cover may try (a legal table is seated, not given up on)
COVER_SHARE = 4_000  #: of them, the most taken from the search's steps (what the last resort has left)


def _from_cover(seating, stated: list[list[Piece]], aces_high: bool, barred: frozenset[Card],
                budget: Budget) -> list[TableMeld]:
    """The cover's cores, seated best (B5) by the search; the cover's own melds if the search
    runs out of steps (they are a seating: every meld read as the engine reads it)."""
    stated_ids = {frozenset(p.id for p in c) for c in stated}
    cores = [[p for p in m.pieces if p.id in m.core] for m in seating if m.core not in stated_ids]
    in_core = {p.id for c in stated + cores for p in c}
    left = [p for m in seating for p in m.pieces if p.id not in in_core]
    try:
        found = _Search(stated + cores, left, aces_high, barred, Budget(min(budget.steps, FROM_COVER_STEPS))).run()
    except _Tangled:
        found = None
    if found is not None:
        return found
    out = []
    for m in seating:
        reading = next(readings(m.pieces, m.core, aces_high, barred))
        out.append(replace(reading, core=m.core))
    return out


FROM_COVER_STEPS = 1_000  #: steps to seat the cover's cores best before taking the cover as it is


def _all_meld(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
              known: _Known) -> bool:
    """Whether the engine can meld every card on the table at all, whoever laid it, wherever the
    table said it went and whatever it said a WILDCARD stands for: a seating is such a melding,
    so a table that fails this has none (a quick, certain refusal before any search)."""
    from rummyref.melding.solver import every_card_melds

    cards = [p.laid.card for c in stated for p in c] + [p.laid.card for m in own for p in m]
    cards += [p.laid.card for p in loose]
    key = tuple(sorted(c.index for c in cards))
    if key not in known.melds:
        known.melds[key] = every_card_melds(cards, ruleset)
    return known.melds[key]


def _all_found(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], aces_high: bool,
               known: _Known, close: bool = True, relaxed: bool = False) -> bool:
    """Whether the cards on the table can be split into melds that each hold three founders,
    cards that may have laid a meld, each card in a meld of the kind the table said
    (:mod:`rummyref.games.long.founders`): every meld of a seating has a core, so a table
    that fails this has no seating (a certain refusal, asked before the exact cover searches).
    ``close``: where the looser question says yes, ask the closer one too (three founders in a
    row in a run, an ace read at one end only); ``False`` only to test the looser one.
    ``relaxed``: the table is the whole table with something said of one card dropped (a trial
    of a refusal), which only loosens the question: where the whole table's answer was yes, so
    is this one."""
    from rummyref.games.long.founders import ANY, MATCH, RUN, SIDEWAYS, could_found

    founders = {p.id for c in stated for p in c} | founders_of(stated, own, loose, aces_high).ids
    pieces = [p for c in stated for p in c] + [p for m in own for p in m] + loose
    said: dict[int, int] = {}
    for p in pieces:
        kind = p.laid.kind
        said[p.id] = SIDEWAYS if p.laid.sideways else ANY if kind is None else RUN if kind is Kind.RUN else MATCH
    # a stated meld's cards sit in one meld: a match if two are of a rank, a run if two are of
    # a suit; a card said to join the meld of a card of its rank (>2D) sits with it in a
    # match, of its suit in a run: where nothing else was said of them, that is said of them
    matched: dict[int, int] = {}  # by rank, the WILDCARDs of the stated matches of that rank
    for c in stated:
        fixed = [p for p in c if p.fixed is not None]
        ranks, suits = {p.rank for p in fixed}, {p.suit_no for p in fixed}
        if len(fixed) >= 2 and (len(ranks) == 1) != (len(suits) == 1):
            for p in fixed:
                if said[p.id] == ANY:
                    said[p.id] = MATCH if len(ranks) == 1 else RUN
            if len(ranks) == 1:  # its WILDCARDs sit in the match of its rank
                rank = fixed[0].rank
                matched[rank] = matched.get(rank, 0) + sum(1 for p in c if p.fixed is None)
    typed = {p.laid.card: p for p in pieces if not p.laid.card.is_wild}
    for p in pieces:
        q = typed.get(p.laid.beside) if p.laid.beside is not None else None
        if q is None or q is p or p.fixed is None:
            continue
        same_rank, same_suit = p.fixed.rank == q.laid.card.rank, p.fixed.suit == q.laid.card.suit
        if same_rank != same_suit:
            for r in (p, q):
                if said[r.id] == ANY:
                    said[r.id] = MATCH if same_rank else RUN
    naturals: list[tuple[int, int, bool, int]] = []
    wild = [0, 0]
    for p in pieces:
        # a WILDCARD said to stand for a card also typed (W=10C laid sideways on the tens, the
        # 10C in a run) counts as a WILDCARD: the card's place is the natural card's (looser)
        if p.fixed is None or (p.laid.card.is_wild and p.fixed in typed):
            wild[p.id in founders] += 1
        else:
            naturals.append((p.suit_no, p.rank, p.id in founders, said[p.id]))
    cards, wild_founders, wild_others = tuple(sorted(naturals)), wild[1], wild[0]
    found = (cards, wild_founders, wild_others, tuple(sorted(matched.items())), close)
    if found not in known.founded:  # the looser question first: it is quicker, and most often enough
        whole = known.whole if relaxed else None
        if whole is not None and whole[1]:
            known.founded[found] = True
            return True
        loosely = (whole is not None and whole[0]) or could_found(cards, wild_founders, wild_others, aces_high, matched)
        known.founded[found] = loosely and (
            not close or could_found(cards, wild_founders, wild_others, aces_high, matched, close=True))
        if not relaxed and close and known.whole is None:
            known.whole = (loosely, known.founded[found])
    return known.founded[found]


SEARCH_BUDGET = 10_000  #: steps the search may take (the cover's first 4,000 among them) before asking the table to say more


MOST_ATTEMPTS = 64  #: combinations of the players' own arrangements tried before the last resort


def _attempts(ways: list[list[tuple[list[list[Piece]], list[Piece]]]], loose: list[Piece]
              ) -> Iterator[tuple[list[list[Piece]], list[Piece]]]:
    """The melds taken as first laid among the cards of the players who stated none (the
    stated melds aside), and the cards to seat on the melds, most trusting first.

    Each such player's own cards are arranged among themselves: by the engine (runs first,
    B5's default), then with the matches taken first (a player who laid three or four of a
    rank laid a match), each also without the player's WILDCARDs (the engine may have used
    one to fill a gap a card laid off fills). Every player keeps the first way until that
    fails, then the fewest players change way first. Last, every way of choosing three cards
    of one player's for each meld as first laid (a claimed card with two of the claimer's own,
    too), in a fixed order."""
    combos = sorted(itertools.product(*[range(len(w)) for w in ways]), key=lambda c: (sum(1 for i in c if i), c))
    for combo in combos[:MOST_ATTEMPTS]:
        cores = [c for w, i in zip(ways, combo) for c in w[i][0]]
        yield cores, list(loose) + [p for w, i in zip(ways, combo) for p in w[i][1]]


MOST_GROUP_ATTEMPTS = 16  #: choices of the stated groups that lay a meld with a claimed card, tried in turn


def _group_attempts(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece],
                    ways: list[list[tuple[list[list[Piece]], list[Piece]]]], aces_high: bool,
                    barred: frozenset[Card]) -> Iterator[tuple[list[list[Piece]], list[Piece]]]:
    """After the attempts where every stated group of one or two cards was laid off: such
    groups each laid a meld with claimed cards of their player (:class:`Founders`), the fewest
    groups first, in a fixed order; the other players' cards as the engine arranges them. None
    at all on a table without such a group."""
    founders = founders_of(stated, own, loose, aces_high)
    if not founders.threes:
        return
    by_group: dict[frozenset[int], list[tuple[Piece, ...]]] = {}
    for three in founders.threes:  # by group, in a fixed order; each a meld on its own, B6 and all
        if readable(three, frozenset(p.id for p in three), aces_high, barred):
            by_group.setdefault(founders.group_of[three[0].id], []).append(three)
    choices = list(by_group.values())
    picks = (chosen for k in range(1, len(choices) + 1) for which in itertools.combinations(choices, k)
             for chosen in itertools.product(*which))
    for cores in itertools.islice(picks, MOST_GROUP_ATTEMPTS):
        taken = [p.id for t in cores for p in t]
        if len(set(taken)) < len(taken):  # a claimed card lays one meld
            continue
        left = [p for p in loose if p.id not in taken] + [p for w in ways for p in w[0][1]]
        yield [list(t) for t in cores] + [c for w in ways for c in w[0][0]], left


def _last_resort(stated, own: list[list[Piece]], loose: list[Piece], ways, ruleset: RuleSet,
                 barred: frozenset[Card], budget: Budget) -> Iterator[tuple[list[list[Piece]], list[Piece]]]:
    """Every way of choosing three cards for each meld as first laid (see :func:`_attempts`)."""
    founders = founders_of(stated, own, loose, ruleset.aces_high)
    pools = [p for mine in own for p in mine] + [p for p in loose if p.id in founders.ids]
    settled = [p for p in loose if p.id not in founders.ids]
    likely = [frozenset(q.id for q in m) for w in ways for m in w[0][0]]  # the engine's own melds
    yield from _founders(stated, pools, settled, ruleset.aces_high, barred, budget, likely, founders)


def _own_ways(mine: list[Piece], ruleset: RuleSet) -> list[tuple[list[list[Piece]], list[Piece]]]:
    """The distinct ways (melds, cards left) to arrange one player's own cards (see above)."""
    ways: list[tuple[list[list[Piece]], list[Piece]]] = []
    wild = [p for p in mine if p.fixed is None]
    for matches_first in (False, True):
        for keep_wild in (True, False):
            if not keep_wild and not wild:
                continue
            pieces = mine if keep_wild else [p for p in mine if p not in wild]
            melds, left = _matches(pieces) if matches_first else ([], list(pieces))
            found, rest = engine_arrangement(left, ruleset)
            way = (melds + found, rest + ([] if keep_wild else wild))
            if all({frozenset(q.id for q in m) for m in way[0]} != {frozenset(q.id for q in m) for m in w[0]}
                   for w in ways):
                ways.append(way)
    return ways


def _matches(pieces: list[Piece]) -> tuple[list[list[Piece]], list[Piece]]:
    """Three or four cards of a rank as a match (a WILDCARD said to stand for a card of the
    rank, ``W=2D``, counts as one, beside a natural card); the rest."""
    by_rank: dict[Rank, list[Piece]] = {}
    for p in pieces:
        if p.fixed is not None and p.fixed.rank is not None:
            by_rank.setdefault(p.fixed.rank, []).append(p)
    melds = [g for g in by_rank.values() if len(g) >= 3 and any(not p.laid.card.is_wild for p in g)]
    taken = {p.id for g in melds for p in g}
    return melds, [p for p in pieces if p.id not in taken]


def _kinds_of(three: Sequence[Piece]) -> set[Kind]:
    """What three cards that make a meld on their own may be: two natural cards or more of one
    rank, a match; of several ranks, a run; else (one natural card) either."""
    ranks = {p.rank for p in three if p.fixed is not None}
    fixed = sum(p.fixed is not None for p in three)
    if len(ranks) > 1:
        return {Kind.RUN}
    return {Kind.MATCH} if fixed >= 2 else {Kind.RUN, Kind.MATCH}


def _triples(order: list[Piece], aces_high: bool, barred: frozenset[Card],
             founders: Founders = Founders()) -> dict[int, list[tuple[Piece, ...]]]:
    """Every three cards of one player that make a meld on their own, by their first card (of a
    stated group, the group whole: :meth:`Founders.three`)."""
    triples: dict[int, list[tuple[Piece, ...]]] = {p.id: [] for p in order}
    for i, a in enumerate(order):
        mine = [q for q in order[i + 1:] if q.owner == a.owner]
        for j, b in enumerate(mine):
            if not could_be((a, b), aces_high):  # two that no meld holds: no three with them is one
                continue
            for c in mine[j + 1:]:
                three = (a, b, c)
                if not could_be(three, aces_high):  # a quick test that every meld passes
                    continue
                if founders.three(three) and readable(three, frozenset(p.id for p in three), aces_high, barred):
                    triples[a.id].append(three)
    return triples


def _unseatable(stated, triples: dict[int, list[tuple[Piece, ...]]], pieces: list[Piece], aces_high: bool) -> list[Piece]:
    """The cards that can neither be among the three that first laid a meld, nor join any meld
    that could have been laid (a quick, certain test: they fit nowhere)."""
    threes = [t for ts in triples.values() for t in ts]
    founding = {q.id for t in threes for q in t}
    melds = [list(c) for c in stated] + [list(t) for t in threes]
    return [p for p in pieces if p.id not in founding
            and not any(could_be(m + [p], aces_high) for m in melds if all(q.id != p.id for q in m))]  # fmt: skip


def _founders(stated, pools: list[Piece], settled: list[Piece], aces_high: bool, barred: frozenset[Card],
              budget: Budget, likely: list[frozenset[int]], founders: Founders = Founders()
              ) -> Iterator[tuple[list[list[Piece]], list[Piece]]]:
    """Choices of the melds as first laid: disjoint threes of one player's cards, each a meld on its own;
    every other card of ``pools`` laid off (each must fit some meld). Threes inside a meld of
    the engine's arrangement of a player's own cards (``likely``) are tried first."""
    order = sorted(pools, key=lambda p: (p.laid.card.sort_key(), p.id))
    triples = _triples(order, aces_high, barred, founders)
    for ts in triples.values():
        ts.sort(key=lambda t: not any({q.id for q in t} <= m for m in likely))
    if _unseatable(stated, triples, order + settled, aces_high):
        return
    homes = [list(c) for c in stated]
    threes = [t for ts in triples.values() for t in ts]
    chosen: list[list[Piece]] = []
    used: set[int] = set()
    off: list[Piece] = []
    # a card said to have joined the meld of another (>2D) must fit any three that 2D is among
    by_card = {q.laid.card: q.id for q in order if not q.laid.card.is_wild}
    followers: dict[int, list[Piece]] = {}
    for q in order + settled:
        if q.laid.beside in by_card:
            followers.setdefault(by_card[q.laid.beside], []).append(q)

    joins: dict[int, list[tuple[Piece, ...]]] = {}

    def joinable(p: Piece) -> list[tuple[Piece, ...]]:
        """The threes without ``p`` that ``p`` could join (worked out once per card)."""
        if p.id not in joins:
            joins[p.id] = [t for t in threes if all(q.id != p.id for q in t) and could_be(list(t) + [p], aces_high)]
        return joins[p.id]

    took: dict[tuple[int, ...], bool] = {}  # could_be, by the pieces' ids (this search's pieces only)

    def fits(p: Piece) -> bool:
        for m in homes + chosen:
            key = tuple(q.id for q in m) + (p.id,)
            ok = took.get(key)
            if ok is None:
                ok = took[key] = could_be(m + [p], aces_high)
            if ok:
                return True
        return False

    def holds_followers(three: tuple[Piece, ...]) -> bool:
        ids = {q.id for q in three}
        return all(f.id in ids or (f.id not in used and could_be(list(three) + [f], aces_high))
                   for q in three for f in followers.get(q.id, ()))

    def walk(k: int) -> Iterator[tuple[list[list[Piece]], list[Piece]]]:
        budget.spend()
        if k == len(order):
            if all(fits(p) for p in off + settled):
                yield [list(c) for c in chosen], off + settled
            return
        p = order[k]
        if p.id in used:
            yield from walk(k + 1)
            return
        for three in triples[p.id]:
            if any(q.id in used for q in three) or not holds_followers(three):
                continue
            chosen.append(list(three))
            used.update(q.id for q in three)
            yield from walk(k + 1)
            used.difference_update(q.id for q in three)
            chosen.pop()
        if fits(p) or any(all(q.id not in used for q in t) for t in joinable(p)):
            off.append(p)
            yield from walk(k + 1)
            off.pop()

    yield from walk(0)


def _split(typed, facts: CardFacts, ruleset: RuleSet, barred: frozenset[Card]):
    """The stated cores; the cards of each player who stated nothing (not said to join a meld);
    and the loose cards: laid off (a stated group of one or two cards among them, which may yet
    lay a meld with its player's claimed cards: :class:`Founders`), claimed, or said to have
    joined a meld."""
    cores: list[list[Piece]] = []
    own: list[list[Piece]] = []
    loose = [p for p, _, _ in typed if p.laid.joins or p.claimed]
    for name, player in sorted(facts.players, key=lambda np: by_name(np[0])):
        mine = [(p, g) for p, g, _ in typed if p.owner == name and not p.claimed and not p.laid.joins]
        if not player.stated:
            own.append([p for p, _ in mine])
            continue
        for g in sorted({g for _, g in mine}):
            group = [p for p, gg in mine if gg == g]
            if len(group) < 3:
                loose += group
            elif next(readings(group, frozenset(p.id for p in group), ruleset.aces_high, barred), None) is None:
                if uncut := next(readings(group, frozenset(p.id for p in group), ruleset.aces_high, frozenset()), None):
                    # the card the meld reaches past: a WILDCARD in it stands for it (W=7D, or a bare W)
                    cut = sorted({str(c) for p, c in zip(uncut.pieces, uncut.meld.represents)
                                  if p.laid.card.is_wild and c in barred})
                    side = next((q for q, _, _ in typed if q.laid.sideways and str(q.laid.cut) in cut), None)
                    raise RuleRefusal(
                        f"{name}'s meld {' '.join(str(p.laid) for p in group)} ({facts.option(name)}) runs past the "
                        f"{' '.join(cut) or 'card'} laid sideways on a {ruleset.meld_word('match')}",
                        rule=ruleset.game_rule("B6"),
                        hint=_cut_hint(side, "the meld", ruleset) if side else
                        f"a card laid sideways cuts its {ruleset.meld_word('run')} off: no WILDCARD may stand "
                        f"for it in the {ruleset.meld_word('run')}",
                    )
                raise RuleRefusal(
                    f"{name}'s meld {' '.join(str(p.laid) for p in group)} ({facts.option(name)}) is not a valid meld",
                    hint=f"a {ruleset.meld_word('match')} is 3+ cards of one rank, a {ruleset.meld_word('run')} "
                         "3+ cards in suit order; a '/' separates the melds as laid, and cards laid off on others' melds",
                )  # fmt: skip
            else:
                cores.append(group)
    return cores, own, loose


def engine_arrangement(pieces: Sequence[Piece], ruleset: RuleSet) -> tuple[list[list[Piece]], list[Piece]]:
    """The engine's arrangement of the pieces (every card melded if possible, most in runs):
    its melds, and the pieces it left out. A stated WILDCARD goes in as the card it stands for
    (unless that card is among the pieces: then it is left out for the search to seat)."""
    from rummyref.melding.solver import arrange_all

    naturals = {p.laid.card for p in pieces if not p.laid.card.is_wild}
    by_card: dict[Card, Piece] = {p.laid.card: p for p in pieces if not p.laid.card.is_wild}
    wilds, aside = [], []
    for p in pieces:
        if not p.laid.card.is_wild:
            continue
        if (stands_for := p.fixed) is None:
            wilds.append(p)
        elif stands_for in naturals or stands_for in by_card:
            aside.append(p)
        else:
            by_card[stands_for] = p
    cards = list(by_card) + [WILD] * len(wilds)
    if not cards:
        return [], aside
    solution = arrange_all(cards, ruleset)
    spare = iter(wilds)

    def piece(card: Card) -> Piece:
        return next(spare) if card.is_wild else by_card[card]

    melds = [[piece(c) for c in m.cards] for m in solution.melds]
    left = [piece(c) for c in solution.unmelded]
    return melds, left + list(spare) + aside


# -- refusals ------------------------------------------------------------------------------------


def _refusal(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
             barred: frozenset[Card], known: _Known) -> RuleRefusal:
    """Why the cards cannot all be seated: a card that fits nowhere, something the table said
    that cannot hold (the cards sit without it), or the cards laid off and claimed together."""
    from rummyref.games.long.cover import homeless

    aces_high = ruleset.aces_high
    everything = [p for c in stated for p in c] + [p for mine in own for p in mine] + loose
    founders = founders_of(stated, own, loose, aces_high)
    pools = sorted([p for mine in own for p in mine] + [p for p in loose if p.id in founders.ids],
                   key=lambda p: (p.laid.card.sort_key(), p.id))
    triples = _triples(pools, aces_high, barred, founders)
    stranded = _unseatable(stated, triples, [p for p in everything if not any(p in c for c in stated)], aces_high)
    for p in stranded:
        if not p.laid.joins:
            continue
        bare = replace(p, laid=Laid(p.laid.card))
        if not _unseatable(stated, triples, [bare], aces_high):
            laying = _lays_with_group(stated, own, loose, p, bare, known.stated_by, aces_high, ruleset.game_rule("B5"))
            if laying is not None:  # Larry's AD>match with his AS AH /: the AD lays that match
                return laying
            return _blame(p, _nothing_takes(p), rule=ruleset.game_rule("B5"))
        twin = _stood_for(p, everything)
        if twin is not None and twin.laid.card.is_wild and twin.owner == p.laid.player:
            # Ben's 5D>Bill where Bill's W=5D holds the 5D's place
            return _blame(p, f"{_nothing_takes(p)}: {twin.says()} already stands for the "
                             f"{p.fixed} there", rule=ruleset.wild_rule)
        # said nothing of, the card would be one of the three that laid a meld: what the table
        # said (>run, >2D, >NAME) is of a meld already there, and there is none without it
        trial = _swapped(stated, own, loose, p, bare, known.stated_by)
        said_nothing = founders_of(*trial, aces_high)  # a card of a stated group joins its group again
        mine = [q for q in trial[2] if q.id in said_nothing.ids and q.id != p.id]
        founding = _triples(sorted([q for m in trial[1] for q in m if q.id != p.id] + mine + [bare],
                                   key=lambda q: (q.laid.card.sort_key(), q.id)), aces_high, barred, said_nothing)
        if not _unseatable(stated, founding, [bare], aces_high):
            lays = {k for three in itertools.chain.from_iterable(founding.values())
                    if any(q.id == bare.id for q in three) for k in _kinds_of(three)}
            if p.laid.kind is not None and p.laid.kind not in lays:  # JC^ where the JC lays a run
                other = next(iter(lays)).value
                mark = "^" if p.laid.caret else ">"
                return _blame(p, f"{_nothing_takes(p)}; it lays a {other} itself, and '{mark}' says it joined "
                                 f"a {p.laid.kind.value} already there", rule=ruleset.game_rule("B5"))
            return _blame(p, f"{_nothing_takes(p)} but one it lays itself, and '>' says a card joined a meld "
                             "already there", rule=ruleset.game_rule("B5"))
    if not stranded:
        stranded = known.homeless if known.homeless is not None else homeless(stated, own, loose, aces_high, barred)
        for p in stranded:
            if p.laid.joins or p.laid.stands_for:
                bare = replace(p, laid=Laid(p.laid.card))
                if bare.id not in {q.id for q in homeless(*_swapped(stated, own, loose, p, bare, known.stated_by), aces_high, barred)}:
                    if p.laid.stands_for in barred and _cut_at_fault(stated, own, loose, ruleset, barred, p,
                                                                     Budget(DIAGNOSIS_BUDGET), known):
                        return _past_sideways(p, ruleset)
                    side = _cut_before(stated, own, loose, p, everything, aces_high, barred, known)
                    if side is not None:  # Pete's W=6S>AS, where Ben's 5S^ cuts the run off
                        return _beyond(side, [p], None, ruleset)
                    return _blame(p, _nothing_takes(p), rule=_said_rule(p, ruleset))
    if stranded and any(p.laid.joins or p.laid.stands_for for p in everything):
        # a card with no meld may have one but for what the table said of another card
        # (Ben's AD>match leaves Larry's 2D 3D no run): a trial seating without it tells
        try:
            blamed = _said_at_fault(stated, own, loose, ruleset, barred, everything, Budget(DIAGNOSIS_BUDGET), known,
                                    stranded=frozenset(p.id for p in stranded))
        except _NoMoreTrials:
            blamed = None
        if blamed is not None:
            return blamed
    if stranded:
        return RuleRefusal(
            f"{_listing(stranded)} cannot sit in any meld on the table",
            hint=_every_card_sits(ruleset),
        )
    try:
        blamed = _culprit(stated, own, loose, ruleset, barred, everything, Budget(DIAGNOSIS_BUDGET), known)
    except _NoMoreTrials:
        blamed = None
    return blamed or RuleRefusal(
        f"these cards cannot all sit in melds on the table: {_listing(loose + [p for m in own for p in m])}",
        hint="check the cards; '/' separates the melds as laid, > says where a card went",
    )


def _lays_with_group(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], p: Piece, bare: Piece,
                     stated_by: frozenset[str], aces_high: bool, rule: str | None) -> RuleRefusal | None:
    """For a claimed card said to join a run or a match already there (``AD>match``) that no
    such meld takes: if, said nothing of, it lays a meld of that kind with its claimer's stated
    group of one or two cards (``AS AH /``), the refusal says so and how to say it (``AD>AS``:
    :func:`_to_groups`); else none."""
    if not p.claimed or p.laid.kind is None:
        return None
    founders = founders_of(*_swapped(stated, own, loose, p, bare, stated_by), aces_high)
    for three in founders.threes:
        if bare.id not in {q.id for q in three} or p.laid.kind not in _kinds_of(three):
            continue
        group = sorted((q for q in three if q.id in founders.group_of), key=lambda q: q.id)  # as typed
        kind = p.laid.kind.value
        cards = " ".join(str(q.laid) for q in group)
        return RuleRefusal(
            f"{p.says()} cannot be: no {kind} on the table takes the {p.laid.card}; it lays a {kind} itself "
            f"with {p.owner}'s {cards} /, and '>' says it joined a {kind} already there",
            rule=rule,
            hint=f"say {_head(p.laid)}>{group[0].laid.card} for the {kind} it lays with {cards}",
        )
    return None


def _swapped(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], p: Piece, bare: Piece,
             stated_by: frozenset[str] = frozenset()) -> tuple[list[list[Piece]], list[list[Piece]], list[Piece]]:
    """The table's pieces with ``bare`` in place of ``p``: a card laid off only because of what
    was said of it, by a player who stated no melds, is then one of that player's own again
    (it may be one of the three that laid a meld, as :func:`_split` reads it)."""

    def swap(ps: list[Piece]) -> list[Piece]:
        return [bare if q is p else q for q in ps]

    if p in loose and not p.claimed and not bare.laid.joins and p.owner not in stated_by:
        return [list(c) for c in stated], [list(m) for m in own] + [[bare]], [q for q in loose if q is not p]
    return [swap(c) for c in stated], [swap(m) for m in own], swap(loose)


def _culprit(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
             barred: frozenset[Card], everything: list[Piece], budget: Budget, known: _Known) -> RuleRefusal | None:
    """Something the table said that cannot hold, or the one card that fits nowhere, found by
    trial seatings without it (on the refusal's budget of steps)."""
    from rummyref.games.long.cover import _Cover, drop_one

    blamed = _said_at_fault(stated, own, loose, ruleset, barred, everything, budget, known)
    if blamed is not None:
        return blamed
    aces_high = ruleset.aces_high
    if budget.steps <= 0:
        raise _NoMoreTrials
    odd, spent = drop_one(stated, own, loose, aces_high, barred, min(budget.steps, DROP_STEPS), ruleset, known.melds,
                          search=known.search if isinstance(known.search, _Cover) else None)
    budget.steps -= spent
    if odd is not None:
        return _odd_one(odd, ruleset)
    for p in loose:
        if p.fixed is None and _try(stated, own, [q for q in loose if q is not p], ruleset, barred, budget, known):
            return _odd_one(p, ruleset)
    return None


def _said_at_fault(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
                   barred: frozenset[Card], everything: list[Piece], budget: Budget, known: _Known,
                   stranded: frozenset[int] = frozenset()) -> RuleRefusal | None:
    """Something the table said (a designation, a WILDCARD's card) without which the cards
    are seated, found by trial seatings (on the refusal's budget of steps); for a card laid
    sideways, the cards a run would then reach past it with, where certain (B6:
    :func:`_past_the_cut`), before the card's own designation. ``stranded``: the
    cards (by id) that have no meld on the table as said: a trial where one of them still has
    none has no seating (certain, and cheaper to ask than the trial)."""
    from rummyref.games.long.cover import homeless

    aces_high = ruleset.aces_high
    said = [p for p in everything if p.laid.joins or p.laid.stands_for]
    # a WILDCARD past a sideways card first (B6); then what was said of the cards laid off or
    # claimed (and of a player's cards that the engine melds with none of the player's others)
    # before what was said of the melds laid: a lay-off is the likelier slip
    laid_off = {p.id for p in loose}
    for mine in own:
        if any(p.laid.joins or p.laid.stands_for for p in mine):
            laid_off |= {p.id for p in engine_arrangement(mine, ruleset)[1]}
    # a card laid sideways that cuts a run off next: a card laid past it is at fault before
    # what was said of that card (B6: _past_the_cut)
    said.sort(key=lambda p: (p.laid.stands_for not in barred, not (p.laid.sideways and p.laid.cut in barred),
                             p.id not in laid_off))
    # a claimed card that may lay a meld with its claimer's group as said (AD>AS, AD>Larry with
    # AS AH /) has a meld that takes it: the table fails elsewhere with it there
    laying = {q.id for three in founders_of(stated, own, loose, aces_high).threes for q in three}
    for p in said:
        bare = replace(p, laid=Laid(p.laid.card))
        free = barred - {p.laid.cut} if p.laid.sideways else barred
        trial = _swapped(stated, own, loose, p, bare, known.stated_by)
        if stranded and homeless(*trial, aces_high, free, only=stranded):
            continue
        seating = _trial(*trial, ruleset, free, budget, known, relaxed=True)
        if seating is not None:
            found = [list(m.pieces) for m in seating]
            upright: list[CoverMeld] | None = None
            side = _on_a_named_match(p, everything) if ruleset.game_rule("B6") is not None else None
            if side is not None:
                # Cy's 6C>Ann where Ann laid only the sixes: the card lies sideways on her match
                # (B6), as ref reads it once seated; a card laid past it is at fault, as with 6C^
                past = _past_the_cut(*_swapped(stated, own, loose, p, side, known.stated_by), ruleset,
                                     barred | {side.laid.cut}, side, seating, budget, known)
                if past is not None:
                    return past
            if p.laid.sideways and p.laid.cut in barred:
                # the table seats with the card upright: if a run then reaches past its place,
                # the card that does so is at fault (B6), not the card laid sideways; a
                # WILDCARD said to be a card (W=7C^) is seated upright as that card first
                seatings = [seating]
                if p.laid.card.is_wild and not p.laid.read:
                    upright = _upright(stated, own, loose, ruleset, barred, p, budget, known)
                    seatings = [upright, seating] if upright is not None else seatings
                for tried in seatings:
                    past = _past_the_cut(stated, own, loose, ruleset, barred, p, tried, budget, known)
                    if past is not None:
                        return past
            if p.laid.stands_for in barred:
                cut = (upright is not None if p.laid.sideways and not p.laid.read
                       else _cut_at_fault(stated, own, loose, ruleset, barred, p, budget, known))
                if cut:
                    return _past_sideways(p, ruleset)
                # Ben's W=KC^ where the table seats with the W as another card, but not as
                # the KC, sideways or not: what the WILDCARD stands for is at fault, not B6
                return _blame(p, "with it the cards on the table cannot all sit in melds; without it they can",
                              rule=ruleset.wild_rule)
            others = [[q for q in m if q.id != p.id] for m in found]
            if p.laid.stands_for is not None and not p.laid.joins:
                # a WILDCARD said to be a card: a meld as it lies must take it (Bill's W=7H with
                # his 7S 7H 7D: only a 7C there would leave the match room for it), as the run
                # 4S 5S 6S has no place for a W=5S; both are told so, alike
                takes = any(readable(m + [p], frozenset(), aces_high, free) for m in others if m)
            else:
                takes = any(could_be(m + [p], aces_high) and _Search._joined(p, m + [p]) for m in others if m)
            if p.id not in laying and not takes:
                return _blame(p, _nothing_takes(p), rule=_said_rule(p, ruleset))
            return _blame(p, "with it the cards on the table cannot all sit in melds; without it they can",
                          rule=ruleset.game_rule("B6") if p.laid.sideways else _said_rule(p, ruleset))
    return None


def _on_a_named_match(p: Piece, everything: Sequence[Piece]) -> Piece | None:
    """For ``p``, a natural card sent to a player's meld with nothing said of its kind
    (``6C>Ann``): where that player laid a card of its rank and none of its suit, no run of
    theirs can hold it, so it lies sideways on their match (B6), as ref reads it once the table
    is seated (:func:`_sideways_reading`): the card so read; else none."""
    laid = p.laid
    if laid.player is None or laid.kind is not None or laid.beside is not None or laid.card.is_wild or laid.sideways:
        return None
    theirs = [q.laid.card for q in everything if q.owner == laid.player and not q.laid.card.is_wild]
    if not any(c.rank == laid.card.rank for c in theirs) or any(c.suit == laid.card.suit for c in theirs):
        return None
    return replace(p, laid=replace(laid, kind=Kind.MATCH, on_match=True))


def _cut_at_fault(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
                  barred: frozenset[Card], p: Piece, budget: Budget, known: _Known) -> bool:
    """For ``p``, a WILDCARD said to be a card a run is cut off at: whether the cut is what
    fails (B6). A WILDCARD past another card laid sideways: always. One that lies sideways
    itself as a card the table named (``W=KC^``): only if the table seats with it still that
    card but not sideways (``W=KC``); if not, what it stands for is at fault, and no run
    needs the card. A trial that runs out of steps says nothing of B6."""
    if not p.laid.sideways or p.laid.read:
        return True
    return _upright(stated, own, loose, ruleset, barred, p, budget, known) is not None


def _upright(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
             barred: frozenset[Card], p: Piece, budget: Budget, known: _Known) -> list[CoverMeld] | None:
    """For ``p``, a WILDCARD laid sideways as a card (``W=KC^``): a trial seating of the table
    with it still that card, upright (``W=KC``); none when there is none, or the trial runs out
    of steps."""
    unsided = replace(p, laid=Laid(p.laid.card, stands_for=p.laid.stands_for, player=p.laid.player))
    trial = _swapped(stated, own, loose, p, unsided, known.stated_by)
    try:
        return _trial(*trial, ruleset, barred - {p.laid.cut}, budget, known, relaxed=True)
    except _NoMoreTrials:
        return None


def _past_the_cut(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
                  barred: frozenset[Card], p: Piece, seating: Sequence[CoverMeld], budget: Budget,
                  known: _Known) -> RuleRefusal | None:
    """For ``p``, a card laid sideways (B6) without which (upright) the table seats as
    ``seating``: if a run there reaches past the place of the card ``p`` lies sideways as, the
    refusal (B6) names what reaches past it; else none (the designation is then at fault, as
    :func:`_said_at_fault` says).

    The run: in the seating one meld alone breaks once ``p`` lies sideways again, a run
    through that card's place (``p`` upright in it, or a WILDCARD standing for it). Where
    ``p`` is one of the three that laid it, none. Where the own cards of the player who laid
    it lie on both sides of the card (or one stands for it), and that player's own cards
    alone make melds only through the card's place, that player's meld is named, as a stated
    one is (:func:`_split`). Else the run's core (the cards that laid it) lies on one side, and
    the cards on the other side (and a WILDCARD in the card's place) reached past it: they are
    named where without them the table seats as said, ``p`` sideways (a natural card, or one a
    WILDCARD was said to be, alone where the table seats without it alone: a bare WILDCARD
    beside it can go elsewhere). Where none of that is certain, the run's cards are named as
    what cannot all sit with the card sideways; never the card laid sideways."""
    aces_high, cut = ruleset.aces_high, p.laid.cut
    free = barred - {cut}
    broken = []
    for m in seating:
        pieces = [p if q.id == p.id else q for q in m.pieces]
        if not (readable(pieces, m.core, aces_high, barred) and all(_Search._joined(q, pieces) for q in pieces)):
            broken.append(m)
    if len(broken) != 1:
        return None
    meld = broken[0]
    run = next((r for r in readings(list(meld.pieces), meld.core, aces_high, free)
                if r.meld.kind is MeldKind.SEQUENCE and cut in r.meld.represents), None)
    if run is None:
        return None
    at = run.meld.represents.index(cut)
    there, core = run.pieces[at], meld.core
    below, above = run.pieces[:at], run.pieces[at + 1:]
    if there.id == p.id and p.id in core:
        return None  # Ben's AD^ with his 2D 3D: the AD lays the run, and the designation is at fault
    # which side the run was laid on: its core's cards of known place (a bare WILDCARD in it
    # may stand elsewhere, W(=JC) as well as W(=8C))
    low = any(q.id in core and q.fixed is not None for q in below)
    high = any(q.id in core and q.fixed is not None for q in above)
    if not low and not high:
        return None
    owner = next(q.owner for q in run.pieces if q.id in core)
    own_ids = {q.id for mine in own for q in mine if q.owner == owner}
    mine = sorted((q for q in run.pieces if q.id in own_ids), key=lambda q: q.id)  # as typed
    placed = {q.id for q in run.pieces if q.id in own_ids and q.fixed is not None}
    fixed_there = there.fixed is not None and there.id in own_ids  # Larry's W=7D in his own run
    if fixed_there or (low and high) or ({q.id for q in below} & placed and {q.id for q in above} & placed):
        # the meld as laid reaches past the card: its player's own cards alone say so
        try:  # the player's own cards of the run, alone
            if (mine and _try([], [mine], [], ruleset, barred, budget, known) is None
                    and _try([], [mine], [], ruleset, free, budget, known) is not None):
                return _beyond(p, mine, mine, ruleset)
        except _NoMoreTrials:
            return _cannot_all_sit(p, run.pieces, ruleset)
        if fixed_there or (low and high):
            return _cannot_all_sit(p, run.pieces, ruleset)
    # the cards past it, and a WILDCARD in its place (but a bare one of the core: it moves)
    past = list(above if low else below) + ([there] if there.id != p.id and there.id not in core else [])
    if not past:
        return None  # the run ends at the card: it needs the card itself, not a card past it
    # the cards to leave out to see the table seat as said: the natural ones first
    fixed = [q for q in past if q.fixed is not None]
    for without in ([fixed] if fixed and len(fixed) < len(past) else []) + [past]:
        ids = {q.id for q in without}
        if not _seats_without(seating, p, ids, aces_high, barred):
            rest = ([c for c in stated], [[q for q in m if q.id not in ids] for m in own],
                    [q for q in loose if q.id not in ids])
            try:
                if _try(*rest, ruleset, barred, budget, known) is None:
                    continue
            except _NoMoreTrials:
                break
        return _beyond(p, sorted(without, key=lambda q: q.id), None, ruleset)
    return _cannot_all_sit(p, run.pieces, ruleset)


def _cannot_all_sit(p: Piece, run: Sequence[Piece], ruleset: RuleSet) -> RuleRefusal:
    """B6 refused, where which card reaches past ``p`` is not certain: the cards of the run
    that would reach past it (all but ``p``)."""
    cards = [q for q in run if q.id != p.id]
    return RuleRefusal(f"{_listing(cards)} cannot all sit in melds with the {p.laid.cut} laid sideways: "
                       f"they would make a {ruleset.meld_word('run')} past it", rule=ruleset.game_rule("B6"),
                       hint=_cut_hint(p, "where those cards went", ruleset))


def _seats_without(seating: Sequence[CoverMeld], p: Piece, ids: set[int], aces_high: bool,
                   barred: frozenset[Card]) -> bool:
    """Whether the trial seating, the pieces ``ids`` taken out and ``p`` back as said (on a
    match), is a seating of the table as said: each meld valid on its core, what was said of
    each card held. A quick, certain yes (a no says nothing: a trial seating then asks)."""
    melds: list[tuple[list[Piece], frozenset[int]]] = []
    for m in seating:
        if p.id in m.core:
            return False
        melds.append(([q for q in m.pieces if q.id not in ids and q.id != p.id], m.core))

    def holds(pieces: list[Piece], core: frozenset[int]) -> bool:
        return (len(pieces) >= 3 and readable(pieces, core, aces_high, barred)
                and all(_Search._joined(q, pieces) for q in pieces if q.laid.player or q.laid.beside))

    for k, (pieces, core) in enumerate(melds):  # p on a match that takes it as said
        if holds(pieces + [p], core) and all(holds(*m) for j, m in enumerate(melds) if j != k):
            return True
    return False


def _cut_before(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], p: Piece,
                everything: Sequence[Piece], aces_high: bool, barred: frozenset[Card], known: _Known) -> Piece | None:
    """For ``p``, a card that no meld takes as the table said it: a card laid sideways (B6)
    that upright would give it a meld (a run past that card's place), if there is one; with it
    sideways, the run is cut off there. Certain, and cheap (:func:`~.cover.homeless`)."""
    from rummyref.games.long.cover import homeless

    for q in everything:
        if q is p or not q.laid.sideways or q.laid.cut not in barred:
            continue
        upright = replace(q, laid=Laid(q.laid.card, stands_for=q.laid.stands_for))  # a WILDCARD still that card
        trial = _swapped(stated, own, loose, q, upright, known.stated_by)
        if not homeless(*trial, aces_high, barred - {q.laid.cut}, only=frozenset({p.id})):
            return q
    return None


def _beyond(p: Piece, blamed: Sequence[Piece], meld: Sequence[Piece] | None, ruleset: RuleSet) -> RuleRefusal:
    """B6 refused: ``blamed`` extend a run past the card ``p`` lies sideways as (``meld``: the
    meld of the player who laid the run, named whole)."""
    c, run, match = p.laid.cut, ruleset.meld_word("run"), ruleset.meld_word("match")
    rule = ruleset.game_rule("B6")

    def hint(what: str) -> str:
        return _cut_hint(p, what, ruleset)

    if meld is not None:
        first = meld[0]
        return RuleRefusal(f"{first.owner}'s meld {' '.join(str(q.laid) for q in meld)} ({first.where.option}) "
                           f"runs past the {c} laid sideways on a {match}", rule=rule, hint=hint("the meld"))
    if len(blamed) == 1:
        card = blamed[0].laid.card
        return RuleRefusal(f"{blamed[0].says()} cannot be: it would extend a {run} past the {c} laid sideways",
                           rule=rule, hint=hint(f"where the {card} went"))
    return RuleRefusal(f"{_listing(blamed)} cannot be: they would extend a {run} past the {c} laid sideways",
                       rule=rule, hint=hint("where those cards went"))


def _cut_hint(p: Piece, what: str, ruleset: RuleSet) -> str:
    """The hint of a run refused past ``p``, a card laid sideways (B6): what to check."""
    run = ruleset.meld_word("run")
    return (f"{p.says()} cuts the {run} off there: nothing may join the {run} past it, nor a WILDCARD "
            f"stand for it; check {what}, and whether the {p.laid.cut} went on a {ruleset.meld_word('match')}")


def _stood_for(p: Piece, everything: Sequence[Piece]) -> Piece | None:
    """Another piece on the table that counts as the same card as ``p`` (a WILDCARD said to be
    it, or the card itself when ``p`` is such a WILDCARD), if there is one."""
    return next((q for q in everything if q is not p and p.fixed is not None and q.fixed == p.fixed), None)


def _past_sideways(p: Piece, ruleset: RuleSet) -> RuleRefusal:
    """B6 refused: a WILDCARD said to be a card that lies sideways (no run may hold it)."""
    c, run = p.laid.stands_for, ruleset.meld_word("run")
    if p.laid.sideways:  # Ben's W=5D^ where Larry's 3D 4D 6D need a 5D
        return _blame(p, f"it lies sideways as the {c}, cutting off a {run} that needs the {c}; without that "
                         "the cards on the table all sit in melds", rule="B6")
    return _blame(p, f"it would extend a {run} past the {c} laid sideways", rule="B6")


def _every_card_sits(ruleset: RuleSet) -> str:
    """The hint of a card that sits in no meld, in the rule set's words."""
    return (f"every card melded, laid off or claimed must sit in a {ruleset.meld_word('run')} (3+ in suit) "
            f"or a {ruleset.meld_word('match')} (3+ of a rank) that one player laid (three cards of theirs, "
            "melded or won by a claim); the others' cards join it")


def _odd_one(p: Piece, ruleset: RuleSet) -> RuleRefusal:
    return RuleRefusal(
        f"{p.says()} cannot sit in any meld on the table (every other card can)",
        hint=_every_card_sits(ruleset),
    )


DROP_STEPS = 3_000  #: steps for the one search for a card without which every other card sits
DIAGNOSIS_STEPS = 1_000  #: steps for each trial that looks for the card or the designation at fault
DIAGNOSIS_BUDGET = 3_000  #: steps for all the trials of one refusal; then the reason is the cards


class _NoMoreTrials(Exception):
    """The trials of one refusal have spent their steps."""


def _try(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
         barred: frozenset[Card], budget: Budget, known: _Known, relaxed: bool = False) -> list[list[Piece]] | None:
    """A trial seating for a diagnosis (any seating: the exact cover's), on a small budget
    taken from the refusal's; one that gives up counts as none. ``relaxed``: the table is the
    whole table with something said of one card dropped (:func:`_all_found`)."""
    seating = _trial(stated, own, loose, ruleset, barred, budget, known, relaxed)
    return None if seating is None else [list(m.pieces) for m in seating]


def _trial(stated: list[list[Piece]], own: list[list[Piece]], loose: list[Piece], ruleset: RuleSet,
           barred: frozenset[Card], budget: Budget, known: _Known, relaxed: bool = False) -> list[CoverMeld] | None:
    """:func:`_try`'s seating, each meld with its core."""
    from rummyref.games.long.cover import cover

    if budget.steps <= 0:
        raise _NoMoreTrials
    if not _all_meld(stated, own, loose, ruleset, known) or not _all_found(stated, own, loose, ruleset.aces_high,
                                                                            known, relaxed=relaxed):
        return None
    # the plain order, cut only by what the engine has said of the cards already (a trial is
    # small: new questions to the engine and the fewest-first choice cost more than they save)
    found, spent = cover(stated, own, loose, ruleset.aces_high, barred, min(DIAGNOSIS_STEPS, budget.steps),
                         fewest_first=False, melds=known.melds)
    budget.steps -= spent
    if not isinstance(found, list):  # none, or the trial gave up
        return None
    return found


def _said_rule(p: Piece, ruleset: RuleSet) -> str | None:
    """The rule a refused designation is cited under: B5 for where a card went (run or match,
    whose meld, beside which card), where the rulebook has it (else none); for what a WILDCARD
    stands for (``W=5S`` alone) the rule set's rule for WILDCARDs (``[wildcards] rule``), if it
    names one (else none)."""
    if p.laid.stands_for is not None and not p.laid.joins:
        return ruleset.wild_rule
    return ruleset.game_rule("B5")


def _nothing_takes(p: Piece) -> str:
    laid, card = p.laid, p.laid.card
    if laid.stands_for is not None and not laid.joins:
        return f"no meld on the table has a place for {_a(laid.stands_for)}"
    where = [f"no {laid.kind.value}" if laid.kind else "no meld"]
    where += [f"of {laid.player}'s"] if laid.player else []
    where += [f"holding the {laid.beside}"] if laid.beside else []
    where += [] if laid.player or laid.beside else ["on the table"]
    return " ".join(where) + f" takes the {card}" + (f" as {_a(laid.stands_for)}" if laid.stands_for else "")


def _a(card: Card) -> str:
    """``a 7H``, ``an AD``, ``an 8S``: the card with its article, as it is said."""
    return ("an " if str(card)[0] in "A8" else "a ") + str(card)


def _blame(p: Piece, why: str, rule: str | None) -> RuleRefusal:
    return RuleRefusal(f"{p.says()} cannot be: {why}", rule=rule,
                       hint="leave the designation out to let ref place the card, or correct it")


def _listing(pieces: Sequence[Piece]) -> str:
    """``Larry's QC KC / W (--melded); Ben's 9C (--claim)``: each player's cards as typed, '/'
    between the groups a player stated."""
    by: dict[Where, dict[int, list[str]]] = {}
    for p in sorted(pieces, key=lambda p: (p.claimed, p.seat)):  # stable: each player's as typed
        by.setdefault(p.where, {}).setdefault(p.group, []).append(str(p.laid))
    return "; ".join(f"{w.player}'s {' / '.join(' '.join(cards) for cards in groups.values())} ({w.option})"
                     for w, groups in by.items())


# -- notes: what ref decided where the table said nothing ---------------------------------------


def b5_match(p: Piece, t: TableMeld, melds: Sequence[TableMeld], aces_high: bool) -> TableMeld | None:
    """The match that B5's default passed over for ``p``, a card of the run ``t``: a card laid
    off or claimed, its kind not said, that a match on the table could have taken as well, as
    far as the table said where it went (``>NAME``: one of NAME's melds; ``>2D``: none, the
    table said the meld). A WILDCARD nothing was said of fits every match; one said to stand
    for a card fits only that card's. ``None``: B5 decided nothing for it."""
    if p.laid.kind is not None or p.laid.beside is not None or p.id in t.core:
        return None
    for m in melds:
        trial = list(m.pieces) + [p]
        # a WILDCARD said to be a card fits a match only where the match has a place for it
        # (the AS with AS AH AC: none, the match has no place for a second AS)
        if m.meld.kind is MeldKind.GROUP and could_be(trial, aces_high) and _suits_fit(trial):
            if p.laid.player is None or any(q.owner == p.laid.player for q in m.pieces):
                return m
    return None


def _shown(t: TableMeld) -> str:
    """The meld's cards as the arrangement shows them (a match with each player's cards
    together: :meth:`~rummyref.games.long.scoring.ArrangedMeld.in_order`): a WILDCARD as the
    table said it (``W=7H``) or as ref read it (``W(=7H)``), a card laid sideways with its
    ``^`` (:attr:`~rummyref.games.long.scoring.LaidCard.shown`, without the claims' ``*``)."""
    from rummyref.games.long.scoring import LaidCard

    cards = [LaidCard(str(p.laid.card), str(rep) if rep is not None else "W", p.owner, 0, False, str(p.laid),
                      p.laid.on_match, p.laid.to_group and not p.laid.sideways)
             for p, rep in zip(t.pieces, t.meld.represents)]
    if t.meld.kind is MeldKind.GROUP:
        first = {c.by: i for i, c in reversed(list(enumerate(cards)))}
        cards.sort(key=lambda c: first[c.by])
    return " ".join(c.shown for c in cards)


def _notes(melds: Sequence[TableMeld], ruleset: RuleSet, barred: frozenset[Card]) -> Iterator[str]:
    aces_high = ruleset.aces_high
    run, match = ruleset.meld_word("run"), ruleset.meld_word("match")  # the rule set's words; >match is notation
    why = ruleset.game_rule("B5") or f"ref's default: {ruleset.meld_words('run')} first"  # B5 where the rulebook has it
    for t in melds:
        b5 = set()
        if t.meld.kind is MeldKind.SEQUENCE:
            for p in t.pieces:
                if (other := b5_match(p, t, melds, aces_high)) is not None:
                    b5.add(p.id)
                    head = _head(p.laid)  # W=AS where the table said what the WILDCARD is
                    said = "nothing was said" if head == str(p.laid.card) else "the table did not say which"
                    yield (f"{p.owner}'s {head} fits the {run} and the {match} {_shown(other)}: "
                           f"{said}, so it counts for the {run} ({why}); {head}>match says otherwise")
        for p in t.pieces:  # a card B5 sent to the run may have had another run to choose (its note is of the match)
            if note := _choice_note(p, t, melds, ruleset, barred, runs_only=p.id in b5):
                yield note
            if note := _ace_end_note(p, t, ruleset, barred):
                yield note
        chosen = [(p, rep) for p, rep in zip(t.pieces, t.meld.represents) if p.laid.card.is_wild and p.fixed is None]
        if chosen and len({tuple(r.meld.represents) for r in readings(t.pieces, t.core, aces_high, barred)}) > 1:
            said = ", ".join(f"{p.owner}'s W as {rep}{_high_end(p, rep, t)}" for p, rep in chosen if rep is not None)
            yield (f"{said}: ref's choice (an ace low first, a WILDCARD at a {run}'s high end); "
                   "W=CARD says otherwise")


def _high_end(p: Piece, rep: Card, t: TableMeld) -> str:
    """For a WILDCARD read as the ace at the high end of a run that spans its whole suit (where
    the ace could sit at either end): how to say that ace (``W=AD`` alone sits low)."""
    if rep.rank != Rank.ACE or len(t.pieces) != 13 or t.pieces[-1] is not p:
        return ""
    return f" (high: W={rep}>{Card(Rank.KING, rep.suit)})"


def _ace_end_note(p: Piece, t: TableMeld, ruleset: RuleSet, barred: frozenset[Card]) -> str | None:
    """A note when ``p``, an ace laid off or claimed on the run ``t`` (or a WILDCARD said to be
    one), could sit at either end of it and would count otherwise there: the table did not say
    which end (``AD>KD``: high, beside the king; ``AD>2D``: low), so ref read it low first."""
    if t.meld.kind is not MeldKind.SEQUENCE or p.id in t.core or p.fixed is None or p.fixed.rank != Rank.ACE:
        return None
    if p.laid.beside is not None and p.laid.beside.suit == p.fixed.suit and p.laid.beside.rank in (Rank.TWO, Rank.KING):
        return None
    from rummyref.rules.values import in_meld

    values = {in_meld(r.meld, ruleset)[r.pieces.index(p)]
              for r in readings(t.pieces, t.core, ruleset.aces_high, barred) if r.meld.kind is MeldKind.SEQUENCE}
    here = in_meld(t.meld, ruleset)[t.pieces.index(p)]
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    end, beside = ("low", Card(Rank.KING, p.fixed.suit)) if here == low else ("high", Card(Rank.TWO, p.fixed.suit))
    said = p.laid.card if not p.laid.card.is_wild else f"W={p.fixed}"
    return (f"{p.owner}'s {p.laid} could sit at either end of {_shown(t)} ({low} low, {high} high): the "
            f"table did not say which, so ref chose the {end} end (an ace low first); {said}>{beside} says otherwise")


def _choice_note(p: Piece, t: TableMeld, melds: Sequence[TableMeld], ruleset: RuleSet,
                 barred: frozenset[Card], runs_only: bool = False) -> str | None:
    """A note when ``p``, a card laid off or claimed into ``t``, could as well have joined
    another meld on the table (as far as the table said where it went) and would count
    otherwise there: the table did not say which, ref chose by its fixed order (module doc).
    ``runs_only``: the other runs only (B5's note already names the match)."""
    if p.id in t.core or p.laid.beside is not None:
        return None
    from rummyref.rules.values import in_meld

    aces_high = ruleset.aces_high
    rest = [q for q in t.pieces if q.id != p.id]
    if next(readings(rest, t.core, aces_high, barred), None) is None:
        return None  # the meld needs the card: it could go nowhere else alone
    bare = replace(p, laid=replace(p.laid, stands_for=None, read=False)) if p.laid.read else p
    here = in_meld(t.meld, ruleset)[t.pieces.index(p)]
    elsewhere = []
    for m in melds:
        trial = [*m.pieces, bare]
        if m is t or (runs_only and m.meld.kind is MeldKind.GROUP):
            continue
        if not could_be(trial, aces_high) or not _Search._joined(bare, trial):
            continue
        r = next(readings(trial, m.core, aces_high, barred - {p.laid.cut}), None)
        if r is None:
            continue
        there = in_meld(r.meld, ruleset)[r.pieces.index(bare)]
        if there != here:
            elsewhere.append((m, there))
    if not elsewhere:
        return None
    other = ", ".join(f"{_shown(m)} ({there})" for m, there in elsewhere)
    first = elsewhere[0][0]
    to = next((str(q.laid.card) for q in first.pieces if not q.laid.card.is_wild),
              "run" if first.meld.kind is MeldKind.SEQUENCE else "match")  # a meld of WILDCARDs alone
    return (f"{p.owner}'s {bare.laid} could join {_shown(t)} ({here}) or {other}: the table did "
            f"not say which, so ref chose by its fixed order ({ruleset.meld_words('run')} first, an ace low first, then melds "
            f"in suit order, the lower first); {bare.laid.card}>{to} says otherwise")
