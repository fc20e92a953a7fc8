"""Whether a table can be seated at all: an exact cover of its pieces by melds (SPEC §7).

:mod:`rummyref.games.long.arrange` chooses the best seating, most trusting first; this module
answers the plainer question it needs before and after: is there any seating at all? A seating
is a split of every piece on the table into melds such that

* each meld has one valid reading (:func:`~rummyref.games.long.arrange.readings`: the kind said
  with ``>run``/``>match``, a WILDCARD's stated card, nothing past a card laid sideways);
* each meld has exactly one *core*, the cards first laid as a meld: a group of three or more
  the table stated with ``/`` (never split, never two in one meld), or three cards of one player
  (a meld is laid by one player) that are a meld on their own, each melded by a player who
  stated nothing or won by a claim that said nothing of where it went, or a stated group of one
  or two cards, whole, with that player's claimed cards (:class:`~rummyref.games.long.arrange.Founders`);
* ``>NAME`` and ``>2D`` hold: the meld has another of NAME's cards, the 2D; a claimed card
  sent to the meld of its claimer's own group of one or two (``AD>AS`` with ``AS AH /``,
  :attr:`~rummyref.games.long.table.Laid.to_group`), the meld that group laid: the AS in its core.

The search is depth-first. At each position it seats the stated group or the card of known
value (natural cards, and WILDCARDs said to stand for one) with the fewest melds left (counted
up to two: a card with none fails the position at once, a card with one is seated before any
guess), the first in a fixed order among equals: stated groups, then the cards that were said
to go somewhere, the fewest neighbours first. It tries every meld that holds it, built from the
cards not yet seated: every run through its place (each place a natural card or a WILDCARD),
every match of its rank, and for a card, a stated group not yet seated with it. A meld takes no
plain WILDCARD (nothing said of it) that it could do without: the WILDCARDs left over when
every card is seated go to the melds seated (or make a meld of their own). The melds are
made as they are tried, the fewest WILDCARDs first; those that cannot be valid whatever cards
fill their places (a ``>NAME`` or ``>2D`` nothing chosen meets, too few founders, ``>run``
among cards of a rank) are counted, a step each, not made. WILDCARDs that
nothing was said of are counted, not told apart, by what the table said of them and who laid
them (who laid them where they may found a meld, or where a ``>NAME`` names the player while a
card said to join that player's meld is left). A position is cut before its search when the engine cannot
meld its cards at all (without the rule set, only where the caller already has the engine's
answer for those cards), when a meld seated leaves out a card or WILDCARD said to join it, or
when a card that lost a neighbour has no meld left. A position that failed once (the cards
left) is remembered and never searched again.

The search takes turns (:data:`TURNS`): runs first, then, briefly, matches first (each meld
of a card tried matches before runs), then runs first to the end of the steps. A table of
matches laid by players who stated nothing often seats at once with matches first, where
runs first try long; a failure is a failure in either order, so the turns share what failed.

The answer is certain either way (a seating, or none), unless the search runs out of its
steps: then it says it does not know, and the caller searches the slower way.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rummyref.cards import SUITS, WILD, Card
from rummyref.games.long.arrange import _CARDS_AT, HIGH_ACE, Piece, _Search, founders_of, readable
from rummyref.games.long.table import Kind
from rummyref.rules.ruleset import RuleSet

COVER_STEPS = 6_000  #: melds tried at most before the search says it does not know
HOMELESS_STEPS = 200  #: melds tried at most for one card before it counts as having a home
LOOK_STEPS = 30  #: melds tried at most, looking ahead, before a card counts as having a home
FEW = 2  #: the melds counted at most for a card, to seat first the card with the fewest
COUNT_STEPS = 300  #: melds tried at most to count a card's (past that it counts as having many)
#: The searches of one cover, in turn, each on the steps given (``None``: the steps left) and
#: starting again from the top: runs tried first (B5's order), then briefly matches first (a
#: table of matches often seats at once that way, where runs first wander long), then runs
#: first again. What one turn learnt of the positions (those that fail, how many melds a card
#: has) holds in every order, so a turn never repeats another's failures.
TURNS: tuple[tuple[bool, int | None], ...] = ((False, 1_000), (True, 2_000), (False, None))


class Unknown:
    """The search ran out of steps: no answer either way."""


UNKNOWN = Unknown()


@dataclass(frozen=True)
class CoverMeld:
    """One meld of a seating: its pieces and the ids of its core."""

    pieces: tuple[Piece, ...]
    core: frozenset[int]


class _OutOfSteps(Exception):
    pass


_UNSEEN: frozenset[int] = frozenset({-1})  #: a meld not yet met (never a core: no piece has id -1)


def cover(stated: Sequence[Sequence[Piece]], own: Sequence[Sequence[Piece]], loose: Sequence[Piece],
          aces_high: bool, barred: frozenset[Card], steps: int = COVER_STEPS, ruleset: RuleSet | None = None,
          fewest_first: bool = True, melds: dict[tuple[int, ...], bool] | None = None,
          turns: Sequence[tuple[bool, int | None]] | None = None, search: _Cover | None = None
          ) -> tuple[list[CoverMeld] | None | Unknown, int]:
    """A seating of every piece (any one), ``None`` when there is none, or :data:`UNKNOWN`;
    and the steps it took. With the ``ruleset``, a position whose cards the engine cannot
    meld at all is cut before it is searched; ``melds`` keeps the engine's answers by the
    cards (their indexes, sorted), shared with the caller. ``turns``: the searches in turn
    (:data:`TURNS`). ``search``: the same pieces made ready by :func:`ready` (what
    :func:`homeless` worked out of the melds is used again)."""
    if search is None:
        search = _Cover(stated, own, loose, aces_high, barred, steps, ruleset)
    search.ruleset = ruleset
    if melds is not None:
        search.melds = melds
    search.fewest_first = fewest_first
    left = steps
    for matches_first, share in TURNS if turns is None else turns:
        given = left if share is None else min(share, left)
        search.restart(given, matches_first)
        try:
            found: list[CoverMeld] | None = search.solve()
        except _OutOfSteps:
            left -= given
            if left <= 0:
                break
            continue
        return found, steps - left + given - max(search.steps, 0)
    return UNKNOWN, steps


def drop_one(stated: Sequence[Sequence[Piece]], own: Sequence[Sequence[Piece]], loose: Sequence[Piece],
             aces_high: bool, barred: frozenset[Card], steps: int, ruleset: RuleSet | None = None,
             melds: dict[tuple[int, ...], bool] | None = None, search: _Cover | None = None
             ) -> tuple[Piece | None, int]:
    """A card of known value (not of a stated meld, nor of a stated group of two cards that may
    lay a meld with a claimed card: without it, the group would be another) without which
    every other piece can be seated, found in one search: at each position the card chosen
    may be left out, once (a card with no meld left is left out at once); and the steps it
    took. ``None`` when no such card is found within the steps. ``search``: the table's
    search after its :func:`cover` said there is no seating (the positions it found to fail,
    with no card left out, fail here too)."""
    if search is None:
        search = _Cover(stated, own, loose, aces_high, barred, steps, ruleset)
    search.ruleset = ruleset
    if melds is not None:
        search.melds = melds
    search.fewest_first = True
    search.restart(steps, False)
    search.dropped = None
    try:
        found = search._dfs((1 << len(search.cores)) - 1, (1 << len(search.fixed)) - 1,
                            tuple(len(c) for c in search.classes), drop=True)
    except _OutOfSteps:
        return None, steps
    return (search.dropped if found is not None else None), steps - max(search.steps, 0)


def ready(stated: Sequence[Sequence[Piece]], own: Sequence[Sequence[Piece]], loose: Sequence[Piece],
          aces_high: bool, barred: frozenset[Card]) -> _Cover:
    """The table's pieces made ready for :func:`homeless` and then :func:`cover`: the melds
    one works out (which cards a meld can hold, and its core) the other needs again."""
    return _Cover(stated, own, loose, aces_high, barred, 0)


def homeless(stated: Sequence[Sequence[Piece]], own: Sequence[Sequence[Piece]], loose: Sequence[Piece],
             aces_high: bool, barred: frozenset[Card], steps: int = HOMELESS_STEPS, search: _Cover | None = None,
             only: frozenset[int] | None = None) -> list[Piece]:
    """The cards that no valid meld of the table's cards can hold, whatever the others do: a
    stated meld (its cards) or a card of known value. Certain, and cheap: each is a card with
    nowhere to go (a card whose search runs out of steps counts as having somewhere).
    ``only``: look at these pieces only (by id; a stated meld when any of its cards is one)."""
    search = search or _Cover(stated, own, loose, aces_high, barred, 0)
    full, wild = (1 << len(search.fixed)) - 1, tuple(len(c) for c in search.classes)
    out: list[Piece] = []
    cores = [(c, frozenset(p.id for p in c)) for c in search.cores]
    for must, core in cores + [([p], None) for p in search.fixed]:
        if only is not None and not any(p.id in only for p in must):
            continue
        # a card with a home: a meld of cards not stated as a meld, or one stated meld and more
        ways = [(must, core)] if core is not None else [(must, None)] + [(c + must, ids) for c, ids in cores]
        if not any(search._holds(m, full, wild, ids, steps) for m, ids in ways):
            out += must
    return out


class _Cover:
    def __init__(self, stated, own, loose, aces_high: bool, barred: frozenset[Card], steps: int,
                 ruleset: RuleSet | None = None) -> None:
        self.aces_high, self.barred, self.steps, self.ruleset = aces_high, barred, steps, ruleset
        self.meldable: dict[tuple[int, int, int], bool] = {}
        self.melds: dict[tuple[int, ...], bool] = {}  #: the engine's answers, by the cards
        self.fewest_first = True  #: seat the card with the fewest melds first (else the first card)
        self.matches_first = False  #: try a card's matches before its runs (else runs first, B5's order)
        self.cores = [list(c) for c in stated]
        core_ids = {p.id for c in stated for p in c}
        others = [p for m in own for p in m] + list(loose)
        #: the cards that may found a meld (:class:`~rummyref.games.long.arrange.Founders`)
        self.founders = founders_of(stated, own, loose, aces_high)
        self.eligible = self.founders.ids
        fixed = [p for p in others if p.fixed is not None and p.id not in core_ids]
        n_wild = sum(1 for p in others if p.fixed is None and p.id not in core_ids)
        self.fixed = sorted(fixed, key=lambda p: (not (p.laid.beside or p.laid.player), _partners(p, fixed, n_wild),
                                                  p.fixed_index, p.id))
        self.bit = {p.id: 1 << i for i, p in enumerate(self.fixed)}
        self.by_card: dict[int, list[Piece]] = {}
        self.by_rank: dict[int, list[Piece]] = {}
        for p in self.fixed:
            self.by_card.setdefault(p.fixed_index, []).append(p)
            self.by_rank.setdefault(p.rank, []).append(p)
        # a WILDCARD's owner matters only to a >NAME naming them: the others are one class
        named = {p.laid.player for c in stated for p in c} | {p.laid.player for p in others}
        classes: dict[tuple, list[Piece]] = {}
        for p in others:
            if p.fixed is None and p.id not in core_ids:
                laid = p.laid
                # a WILDCARD that may found a meld is told apart by its player: a meld is one player's
                # (and, of a stated group of one or two cards that may lay a meld, by its group)
                eligible = p.id in self.eligible
                key = (p.owner if p.owner in named or eligible else None, eligible, laid.kind, laid.player, laid.beside,
                       self.founders.group_of.get(p.id))
                classes.setdefault(key, []).append(p)
        self.classes = list(classes.values())
        self.class_of = {p.id: i for i, c in enumerate(self.classes) for p in c}
        self.core_ids = [frozenset(p.id for p in c) for c in self.cores]
        self.failed: set[tuple[int, int, tuple]] = set()
        self.kin = {p.id: sum(self.bit[o.id] for o in self.fixed
                              if o.fixed.rank == p.fixed.rank or o.fixed.suit == p.fixed.suit)
                    for p in self.fixed}
        self.core_kin = [sum(self.bit[o.id] for o in self.fixed for p in c if p.fixed is not None
                             and (o.fixed.rank == p.fixed.rank or o.fixed.suit == p.fixed.suit)) for c in self.cores]
        # what the table said each card or WILDCARD joined: the cards said to join a card's meld;
        # for each NAME, the cards and WILDCARD classes said to join NAME's meld, and NAME's own
        self.beside: dict[Card, list[Piece]] = {}
        for p in self.fixed:
            if p.laid.beside is not None:
                self.beside.setdefault(p.laid.beside, []).append(p)
        self.beside_mask = sum(self.bit[p.id] for ps in self.beside.values() for p in ps)
        self.joining: dict[str, tuple[int, list[int]]] = {}
        self.owned: dict[str, tuple[int, int, list[int]]] = {}
        for name in {p.laid.player for p in self.fixed} | {c[0].laid.player for c in self.classes}:
            if name is None:
                continue
            self.joining[name] = (sum(self.bit[p.id] for p in self.fixed if p.laid.player == name),
                                  [i for i, c in enumerate(self.classes) if c[0].laid.player == name])
            self.owned[name] = (sum(self.bit[p.id] for p in self.fixed if p.owner == name),
                                sum(1 << k for k, c in enumerate(self.cores) if any(p.owner == name for p in c)),
                                [i for i, c in enumerate(self.classes) if c[0].owner == name])
        self.class_keys = [(c[0].owner, key[1:]) for key, c in classes.items()]
        bases = [b for _, b in self.class_keys]
        self.mergeable = len(set(bases)) < len(bases)
        self.homes: dict[tuple[int, int, int, tuple[int, ...]], bool] = {}
        self.threes: dict[frozenset[int], bool] = {}
        self.plain = [c[0].laid.kind is None and c[0].laid.player is None and c[0].laid.beside is None
                      for c in self.classes]
        self.stated_ids = set(self.core_ids)
        self.path: list[CoverMeld] = []  #: the melds seated above the position searched
        self.dropped: Piece | None = None  #: the card :func:`drop_one` left out
        self.grown: dict[int, CoverMeld] = {}  #: melds of the path with WILDCARDs left added
        self.impure = 0  #: failures that depend on the melds above (never remembered)
        self.counts: dict[tuple[int, int, int, tuple[int, ...]], int] = {}
        self.cores_of: dict[tuple[frozenset[int], frozenset[int] | None], frozenset[int] | None] = {}
        #: a meld's core when it is one the search tries (no spare WILDCARD), else None
        self.usable: dict[tuple[frozenset[int], frozenset[int] | None], frozenset[int] | None] = {}
        self.windows: dict[tuple, list[tuple[list[Piece], list[list[Piece]], int]]] = {}
        self.wild_sets: dict[tuple[int, tuple[int, ...]], list[list[Piece]]] = {}
        self.suit_mask = [sum(self.bit[p.id] for p in self.fixed if p.fixed.suit == suit) for suit in SUITS]
        #: by a card, the cards of its rank, or of its suit within two places (worked out once)
        self.near: dict[Card, int] = {}

    # -- the search ----------------------------------------------------------------------

    def restart(self, steps: int, matches_first: bool) -> None:
        """Search again from the start, on ``steps`` steps, in the order given: what is known
        of the positions (those that fail, the melds a card has) holds whatever the order."""
        self.steps, self.matches_first = steps, matches_first
        self.path, self.grown, self.impure = [], {}, 0

    def solve(self) -> list[CoverMeld] | None:
        found = self._dfs((1 << len(self.cores)) - 1, (1 << len(self.fixed)) - 1, tuple(len(c) for c in self.classes))
        return None if found is None else list(reversed(found))

    def _dfs(self, cm: int, mask: int, wild: tuple[int, ...], drop: bool = False) -> list[CoverMeld] | None:
        key: tuple = (cm, mask, self._canon(mask, wild))
        if drop:  # a position where one card may still be left out (:func:`drop_one`)
            key += (True,)
        if key in self.failed:
            return None
        if (cm or mask) and not drop and not self._meldable(cm, mask, sum(wild)):
            self.failed.add(key)
            return None
        if cm or mask:
            options = self._choose(cm, mask, wild, drop)
        elif any(wild):
            options = self._all_wild(wild)
        else:
            return []
        impure, depth = self.impure, len(self.path)
        for meld, cm2, mask2, wild2 in options:
            if meld is None:  # the card left out: the rest is a plain position
                rest = self._dfs(cm2, mask2, wild2)
                if rest is not None:
                    self.dropped = self.fixed[(mask ^ mask2).bit_length() - 1]
                    return rest
                continue
            if not self._neighbours_housed(meld, cm2, mask2, wild2, drop):
                continue
            self.path.append(meld)
            rest = self._dfs(cm2, mask2, wild2, drop)
            self.path.pop()
            if rest is not None:
                rest.append(self.grown.pop(depth, meld))
                return rest
        if not cm and not mask and any(wild) and all(self.plain[i] for i, w in enumerate(wild) if w):
            if self._absorb([p for c, w in zip(self.classes, wild) for p in c[len(c) - w:]], 0):
                return []
            self.impure += 1  # whether the WILDCARDs left fit depends on the melds above
            return None
        if self.impure == impure:
            self.failed.add(key)
        return None

    def _absorb(self, left: list[Piece], i: int) -> bool:
        """The plain WILDCARDs left each added to a meld already seated (the melds the search
        tries take no WILDCARD they could do without: these are the ones left over)."""
        if i == len(left):
            return True
        ways = []
        for d, meld in enumerate(self.path):
            now = self.grown.get(d, meld)
            pieces = list(now.pieces) + [left[i]]
            self._spend()
            core = self._core(pieces, now.core if now.core in self.stated_ids else None)
            if core is not None:  # first where it is laid off (the meld's core the same)
                ways.append((core != now.core, d, meld, now, CoverMeld(tuple(pieces), core)))
        ways.sort(key=lambda w: w[:2])
        for _, d, meld, now, grown in ways:
            self.grown[d] = grown
            if self._absorb(left, i + 1):
                return True
            if now is meld:
                del self.grown[d]
            else:
                self.grown[d] = now
        return False

    def _canon(self, mask: int, wild: tuple[int, ...]) -> tuple:
        """The WILDCARDs left as the search sees them: those of players no card left is said to
        join (>NAME) are told apart only by what the table said of them (the same positions)."""
        if not self.mergeable:
            return wild
        needed = {name for name, (bits, said) in self.joining.items() if mask & bits or any(wild[i] for i in said)}
        out: dict[tuple, int] = {}
        for i, w in enumerate(wild):
            if w:
                owner, base = self.class_keys[i]
                k = (owner if owner in needed or base[0] else None, base)  # base[0]: it may found a meld
                out[k] = out.get(k, 0) + w
        return tuple(sorted(out.items(), key=repr))

    def _meldable(self, cm: int, mask: int, n_wild: int) -> bool:
        """Whether the engine can meld every card left at all, whoever laid them (a seating of
        them is such a melding): a cheap, certain test that cuts a position before its search."""
        if self.ruleset is None and not self.melds:
            return True
        key = (cm, mask, n_wild)
        if key not in self.meldable:
            from rummyref.melding.solver import every_card_melds

            cards = [self.fixed[i].laid.card for i in range(len(self.fixed)) if mask >> i & 1]
            cards += [p.laid.card for k, c in enumerate(self.cores) if cm >> k & 1 for p in c] + [WILD] * n_wild
            by_cards = tuple(sorted(c.index for c in cards))
            ok = self.melds.get(by_cards)
            if ok is None:
                if self.ruleset is None:  # no engine: only the answers known already cut
                    ok = True
                else:
                    ok = self.melds[by_cards] = every_card_melds(cards, self.ruleset)
            self.meldable[key] = ok
        return self.meldable[key]

    def _choose(self, cm: int, mask: int, wild: tuple[int, ...], drop: bool = False
                ) -> Iterator[tuple[CoverMeld | None, int, int, tuple[int, ...]]]:
        """The melds for the stated meld or the card left with the fewest ways to sit (counted
        up to :data:`FEW`; the first in the fixed order among equals): a card with none fails
        the position at once, a card with one is seated before anything else is guessed.
        ``drop``: one card may still be left out: the card chosen is, after its melds (``None``
        for the meld), and a card with none is left out at once."""
        if drop:
            return self._choose_or_drop(cm, mask, wild)
        best, fewest = None, FEW + 1
        items = [~k for k in range(len(self.cores)) if cm >> k & 1]
        m = mask
        while m:
            low = m & -m
            m ^= low
            items.append(low.bit_length() - 1)
        if not self.fewest_first:
            return self._options(items[0], cm, mask, wild, True)
        for item in items:
            n = self._ways(item, cm, mask, wild)
            if n < fewest:
                best, fewest = item, n
                if n <= 1:
                    break
        if fewest == 0 or best is None:
            return iter(())
        return self._options(best, cm, mask, wild, True)

    def _choose_or_drop(self, cm: int, mask: int, wild: tuple[int, ...]
                        ) -> Iterator[tuple[CoverMeld | None, int, int, tuple[int, ...]]]:
        best, fewest = None, FEW + 1
        items = [~k for k in range(len(self.cores)) if cm >> k & 1]
        m = mask
        while m:
            low = m & -m
            m ^= low
            items.append(low.bit_length() - 1)
        for item in items:
            n = self._ways(item, cm, mask, wild)
            if n < fewest:
                best, fewest = item, n
                if n <= 1:
                    break
        # a card of a stated group of two that may lay a meld with a claimed card is not left
        # out: without it the group would be another (a card of a stated meld is none either)
        droppable = best is not None and best >= 0 and len(self.founders.group_of.get(self.fixed[best].id, ())) < 2
        if best is None or (fewest == 0 and not droppable):
            return  # a stated meld with no meld left: leaving a card out gives it none
        if fewest:
            yield from self._options(best, cm, mask, wild, True)
        if droppable:
            yield None, cm, mask & ~(1 << best), wild

    def _options(self, item: int, cm: int, mask: int, wild: tuple[int, ...], ordered: bool
                 ) -> Iterator[tuple[CoverMeld, int, int, tuple[int, ...]]]:
        """The melds for a stated meld (``~k``) or a card (its index in :attr:`fixed`): a
        card's are a stated meld not yet seated with it and more, or a meld of cards left."""
        if item < 0:
            k = ~item
            for meld, mask2, wild2 in self._melds(self.cores[k], mask, wild, self.core_ids[k], ordered):
                yield meld, cm & ~(1 << k), mask2, wild2
            return
        q = self.fixed[item]
        for k in range(len(self.cores)):
            if cm >> k & 1:
                for meld, mask2, wild2 in self._melds(self.cores[k] + [q], mask, wild, self.core_ids[k], ordered):
                    yield meld, cm & ~(1 << k), mask2, wild2
        for meld, mask2, wild2 in self._melds([q], mask, wild, None, ordered):
            yield meld, cm, mask2, wild2

    def _ways(self, item: int, cm: int, mask: int, wild: tuple[int, ...]) -> int:
        """How many melds the item has (up to :data:`FEW`): kept by the cards of its rank or
        suit, the only ones such a meld can hold (and the stated melds left, for a card)."""
        if item < 0:
            key = (item, 0, mask & self.core_kin[~item], wild)
        else:
            key = (item, cm, mask & self.kin[self.fixed[item].id], wild)
        n = self.counts.get(key)
        if n is None:
            steps = self.steps  # counting is not trying: it takes none of the search's steps
            self.steps = COUNT_STEPS
            try:
                n = sum(1 for _ in itertools.islice(self._options(item, cm, mask, wild, False), FEW))
            except _OutOfSteps:
                n = FEW
            finally:
                self.steps = steps
            self.counts[key] = n
        return n

    def _neighbours_housed(self, meld: CoverMeld, cm: int, mask: int, wild: tuple[int, ...],
                           drop: bool = False) -> bool:
        """Whether every card left that the meld took a neighbour from (its rank, or its suit
        within two places) still has some meld to sit in: a quick look ahead that cuts a branch
        as soon as it strands a card (two cards, where one may still be left out)."""
        cards = {p.laid.card for p in meld.pieces}
        # where a card may still be left out, it may be the one these cuts see: they wait
        if not drop and not self._said_kept(cards, cm, mask, wild):
            return False
        m = 0
        for p in meld.pieces:
            c = p.fixed
            if c is not None:
                near = self.near.get(c)
                if near is None:
                    near = self.near[c] = self._near(c)
                m |= near
        m &= mask
        spare = drop
        while m:
            low = m & -m
            m ^= low
            if not self._has_home(self.fixed[low.bit_length() - 1], cm, mask, wild):
                if not spare:
                    return False
                spare = False
        return True

    def _said_kept(self, cards: set[Card], cm: int, mask: int, wild: tuple[int, ...]) -> bool:
        """Whether what the table said still holds once a meld of ``cards`` is seated: no card
        or WILDCARD said to join it (>2D) is left out of it, and a player named (>NAME) by a
        card or WILDCARD left still has a card left for it to join."""
        if any(w and self.classes[i][0].laid.beside in cards for i, w in enumerate(wild)):
            return False
        if mask & self.beside_mask and any(mask & self.bit[q.id] for c in cards for q in self.beside.get(c, ())):
            return False
        for name, ps in self.joining.items():
            if any(wild[i] for i in ps[1]) or mask & ps[0]:
                if not (mask & self.owned[name][0] or cm & self.owned[name][1]
                        or any(wild[i] for i in self.owned[name][2])):
                    return False
        return True

    def _near(self, c: Card) -> int:
        """The cards of the rank of ``c``, or of its suit within two places (as a bitmask)."""
        out = 0
        for q in self.fixed:
            d = q.fixed
            assert d is not None and d.rank is not None and c.rank is not None
            if d.rank == c.rank or (d.suit == c.suit and abs(int(d.rank) - int(c.rank)) <= 2):
                out |= self.bit[q.id]
        return out

    def _has_home(self, q: Piece, cm: int, mask: int, wild: tuple[int, ...]) -> bool:
        """Some meld of the cards left holds ``q`` (alone, or with a stated meld not yet seated);
        yes, too, when the look runs out of its steps. Only the cards of its rank or suit can
        be in such a meld, so the answer is kept by those."""
        key = (q.id, cm, mask & self.kin[q.id], wild)
        if key not in self.homes:
            self.homes[key] = self._look_for_home(q, cm, mask, wild)
        return self.homes[key]

    def _look_for_home(self, q: Piece, cm: int, mask: int, wild: tuple[int, ...]) -> bool:
        saved = self.steps
        self.steps = min(saved, LOOK_STEPS)
        try:
            for k in range(len(self.cores)):
                if cm >> k & 1 and next(self._melds(self.cores[k] + [q], mask, wild, self.core_ids[k], ordered=False),
                                        None) is not None:
                    return True
            return next(self._melds([q], mask, wild, None, ordered=False), None) is not None
        except _OutOfSteps:
            return True
        finally:
            spent = min(saved, LOOK_STEPS) - max(self.steps, 0)
            self.steps = saved - spent
            if self.steps < 0:
                raise _OutOfSteps

    def _spend(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise _OutOfSteps

    def _holds(self, must: list[Piece], mask: int, wild: tuple[int, ...], core: frozenset[int] | None,
               steps: int) -> bool:
        """Whether some valid meld holds ``must`` (yes, when the steps run out)."""
        self.steps = steps
        try:
            return next(self._melds(must, mask, wild, core, ordered=False), None) is not None
        except _OutOfSteps:
            return True

    # -- the melds that hold the first card left -------------------------------------------

    def _melds(self, must: list[Piece], mask: int, wild: tuple[int, ...], core: frozenset[int] | None,
               ordered: bool = True) -> Iterator[tuple[CoverMeld, int, tuple[int, ...]]]:
        """Every valid meld holding ``must`` (a stated group, or one card), from the cards left:
        runs first (B5), then matches; each with the cards it leaves."""
        fixed = [p for p in must if p.fixed is not None]
        own_wild = [p for p in must if p.fixed is None]
        if not fixed:
            return
        need = self._needs(must, core, wild)
        if ordered:  # the fewest WILDCARDs, then the most cards, runs before matches
            candidates: Iterator[list[Piece] | int] = self._in_order(fixed, own_wild, mask, wild, need)
        else:
            candidates = itertools.chain(self._runs(fixed, own_wild, mask, wild, need),
                                         self._groups(fixed, own_wild, mask, wild, need))
        usable = self.usable
        for pieces in candidates:
            if isinstance(pieces, int):  # that many melds, none valid: a step each, as if tried
                self.steps -= pieces
                if self.steps < 0:
                    self.steps = -1
                    raise _OutOfSteps
                continue
            self._spend()
            key = (frozenset([p.id for p in pieces]), core)
            core_ids = usable.get(key, _UNSEEN)
            if core_ids is _UNSEEN:
                core_ids = self._core(pieces, core)
                if core_ids is not None and self._spare_wild(pieces, core_ids, core):
                    core_ids = None
                usable[key] = core_ids
            if core_ids is None:
                continue
            mask2 = mask
            for p in pieces:
                mask2 &= ~self.bit.get(p.id, 0)
            used = [0] * len(self.classes)
            for p in pieces:
                if p.id in self.class_of:
                    used[self._class_of(p)] += 1
            yield CoverMeld(tuple(pieces), core_ids), mask2, tuple(w - u for w, u in zip(wild, used))

    def _needs(self, must: list[Piece], core: frozenset[int] | None, wild: tuple[int, ...]) -> tuple | None:
        """What every meld holding ``must`` needs besides, for :meth:`_hopeless`: a card of
        each player a card of ``must`` is said to join (>NAME) and has none of in ``must``;
        each card one is said to join (>2D) that ``must`` lacks; for a meld with no stated
        core, the founders (cards that may have laid it) ``must`` has; the kinds said of its
        cards (>run, >match) and how many cards of known value it has. ``None``: nothing."""
        names = {p.laid.player for p in must
                 if p.laid.player and not any(q.owner == p.laid.player and q.id != p.id for q in must)}
        cards = {p.laid.beside for p in must if p.laid.beside is not None and not p.laid.beside.is_wild}
        cards = {c for c in cards if not any(q.laid.card == c for q in must)}
        founders = sum(1 for p in must if p.id in self.eligible) if core is None else None
        kinds = {p.laid.kind for p in must if p.laid.kind is not None}
        if not names and not cards and (founders is None or founders >= 3) and not kinds:
            return None
        # the players a WILDCARD left could be of, and how many WILDCARDs left may found a meld
        owners = {self.classes[i][0].owner for i, w in enumerate(wild) if w}
        eligible = sum(w for i, w in enumerate(wild) if self.classes[i][0].id in self.eligible)
        return names, cards, founders, kinds, sum(1 for p in must if p.fixed is not None), owners, eligible

    def _hopeless(self, need: tuple, more: Sequence[Sequence[Piece]], extra: int, wild: tuple[int, ...],
                  match: bool) -> bool:
        """Whether no meld of ``must`` with one card of each of ``more`` and ``extra``
        WILDCARDs left can be valid (:meth:`_needs`): certain, so the melds need not be made.
        ``match``: the cards are of one rank (else of one suit, each of another rank)."""
        names, cards, founders, kinds, known, owners, eligible = need
        if kinds and (len(kinds) > 1 or known + len(more) >= 2 and (Kind.RUN in kinds) == match):
            return True  # >run and >match; or two cards or more, >run in a match, >match in a run
        for n in names:
            if not (extra and n in owners) and not any(q.owner == n for c in more for q in c):
                return True
        for card in cards:
            if not any(q.laid.card == card for c in more for q in c):
                return True
        if founders is not None and founders < 3:
            could = founders + min(extra, eligible)
            if could + len(more) < 3:
                return True
            if could < 3:
                could += sum(1 for c in more if any(q.id in self.eligible for q in c))
                if could < 3:
                    return True
        return False

    def _spare_wild(self, pieces: list[Piece], core_ids: frozenset[int], core: frozenset[int] | None) -> bool:
        """Whether the meld has a plain WILDCARD (nothing said of it) outside its core that it
        could do without: the meld without it is tried instead, and the WILDCARDs left over at
        the end are added to the melds seated (:meth:`_absorb`)."""
        for k, p in enumerate(pieces):
            if p.id in self.class_of and self.plain[self.class_of[p.id]] and p.id not in core_ids:
                if self._core(pieces[:k] + pieces[k + 1:], core) is not None:
                    return True
        return False

    def _class_of(self, p: Piece) -> int:
        return self.class_of[p.id]

    def _wild_sets(self, n: int, wild: tuple[int, ...]) -> list[list[Piece]]:
        """Every way to take ``n`` WILDCARDs from the classes left (how many of each); worked
        out once for each count and WILDCARDs left."""
        key = (n, wild)
        out = self.wild_sets.get(key)
        if out is None:
            out = self.wild_sets[key] = list(self._walk_wild(n, wild))
        return out

    def _walk_wild(self, n: int, wild: tuple[int, ...]) -> Iterator[list[Piece]]:

        def walk(i: int, left: int) -> Iterator[list[Piece]]:
            if left == 0:
                yield []
                return
            if i == len(self.classes):
                return
            for k in range(min(left, wild[i]), -1, -1):
                start = len(self.classes[i]) - wild[i]  # the first of the class not yet taken
                for rest in walk(i + 1, left - k):
                    yield self.classes[i][start:start + k] + rest

        if n <= sum(wild):
            yield from walk(0, n)

    def _runs(self, fixed: list[Piece], own_wild: list[Piece], mask: int, wild: tuple[int, ...],
              need: tuple | None = None) -> Iterator[list[Piece] | int]:
        for base, spots, own in self._windows(fixed, own_wild, mask, wild):
            yield from self._fill(base, spots, own, wild, need=need)

    def _windows(self, fixed: list[Piece], own_wild: list[Piece], mask: int, wild: tuple[int, ...]
                 ) -> list[tuple[list[Piece], list[list[Piece]], int]]:
        """The places a run holding ``fixed`` may take (each ace reading, each start and length,
        those the WILDCARDs left can fill): its pieces so far, the cards left for each place
        not taken, and the meld's own WILDCARDs."""
        out: list[tuple[list[Piece], list[list[Piece]], int]] = []
        s = fixed[0].suit_no
        if any(p.suit_no != s for p in fixed):
            return out
        # the same for every position with the same cards of the suit left (worked out once)
        key = (tuple(p.id for p in fixed), tuple(p.id for p in own_wild), mask & self.suit_mask[s], sum(wild))
        known = self.windows.get(key)
        if known is not None:
            return known
        self.windows[key] = out
        top = HIGH_ACE if self.aces_high else 13
        readings_of_aces = [False, True] if self.aces_high and any(p.rank == 1 for p in fixed) else [False]
        seen: set[tuple[int, int]] = set()
        free = sum(wild)
        at = _CARDS_AT[s]
        left = [[p for p in self.by_card.get(at[x], ()) if mask & self.bit[p.id]] if x else [] for x in range(top + 1)]
        two = len(readings_of_aces) > 1
        for high in readings_of_aces:
            pos = [HIGH_ACE if high and p.rank == 1 else p.rank for p in fixed]
            if len(set(pos)) != len(pos):
                continue
            taken = set(pos)
            lo, hi = min(pos), max(pos)
            floor = 2 if high else 1
            own = len(own_wild)
            bare = [0] * (top + 1)  # places up to x with no card left for them: WILDCARDs only
            for x in range(1, top + 1):
                bare[x] = bare[x - 1] + (x not in taken and not left[x])
            for length in range(max(3, hi - lo + 1, len(fixed) + own), 14):
                for a in range(max(floor, hi - length + 1), min(lo, top - length + 1) + 1):
                    if bare[a + length - 1] - bare[a - 1] - own > free:
                        continue
                    if two:
                        if (a, length) in seen:
                            continue
                        seen.add((a, length))
                    spots = [left[x] for x in range(a, a + length) if x not in taken]
                    out.append((fixed + own_wild, spots, own))
        return out

    def _fill(self, base: list[Piece], spots: list[list[Piece]], own: int, wild: tuple[int, ...],
              only: int | None = None, need: tuple | None = None) -> Iterator[list[Piece] | int]:
        """Each spot a natural card left or a WILDCARD (the meld's ``own`` first, then others);
        with ``only``, just the ways that take that many WILDCARDs left. Where :meth:`_hopeless`
        says none of a choice of the spots can be valid, their number instead of the melds."""
        bare = sum(1 for c in spots if not c)
        filled = [c for c in spots if c]
        ks = range(0, min(len(filled), sum(wild) + own - bare) + 1) if only is None else [only + own - bare]
        for k in ks:  # naturals left out
            extra = bare + k - own
            if extra < 0 or not 0 <= k <= len(filled):
                continue
            for out in itertools.combinations(range(len(filled)), k):
                kept = [c for i, c in enumerate(filled) if i not in out]
                if need is not None and self._hopeless(need, kept, extra, wild, False):
                    n = len(self._wild_sets(extra, wild))
                    for c in kept:
                        n *= len(c)
                    if n:
                        yield n
                    continue
                for naturals in itertools.product(*kept):
                    for ws in self._wild_sets(extra, wild):
                        yield base + list(naturals) + ws

    def _in_order(self, fixed: list[Piece], own_wild: list[Piece], mask: int, wild: tuple[int, ...],
                  need: tuple | None = None) -> Iterator[list[Piece] | int]:
        """The melds of :meth:`_runs` and :meth:`_groups`, the fewest WILDCARDs left first, then
        the most cards, runs before matches (matches before runs in a turn that tries them
        first, :data:`TURNS`), else in the order they are made: made one level
        (WILDCARDs, cards, kind) at a time, so that a search that takes the first ones never
        makes the rest (the order a sort of all of them gives)."""
        free = sum(wild)
        levels: list[tuple[int, int, int, int, tuple]] = []  # (WILDCARDs, -cards, kind, made, how)
        for base, spots, own in self._windows(fixed, own_wild, mask, wild):
            bare = sum(1 for c in spots if not c)
            n_filled = len(spots) - bare
            for k in range(0, min(n_filled, free + own - bare) + 1):
                if bare + k - own >= 0:
                    levels.append((bare + k - own, -(len(base) - own + len(spots)), 0, len(levels), (base, spots, own)))
        rank = fixed[0].rank
        if all(p.rank == rank for p in fixed):
            mine = {p.id for p in fixed}
            more = [p for p in self.by_rank.get(rank, ()) if mask & self.bit[p.id] and p.id not in mine]
            for k in range(len(more), -1, -1):
                size = len(fixed) + len(own_wild) + k
                for n in range(max(0, 3 - size), free + 1):
                    levels.append((n, -(size + n), 1, len(levels), (more, k)))
        levels.sort(key=(lambda v: (v[0], -v[2], v[1], v[3])) if self.matches_first else None)
        for n, _, kind, _, how in levels:
            if kind == 0:
                base, spots, own = how
                yield from self._fill(base, spots, own, wild, only=n, need=need)
            else:
                more, k = how
                for chosen in itertools.combinations(more, k):
                    if need is not None and self._hopeless(need, [[q] for q in chosen], n, wild, True):
                        if self._wild_sets(n, wild):
                            yield len(self._wild_sets(n, wild))
                        continue
                    for ws in self._wild_sets(n, wild):
                        yield fixed + own_wild + list(chosen) + ws

    def _groups(self, fixed: list[Piece], own_wild: list[Piece], mask: int, wild: tuple[int, ...],
                need: tuple | None = None) -> Iterator[list[Piece] | int]:
        rank = fixed[0].rank
        if any(p.rank != rank for p in fixed):
            return
        mine = {p.id for p in fixed}
        more = [p for p in self.by_rank.get(rank, ()) if mask & self.bit[p.id] and p.id not in mine]
        for k in range(len(more), -1, -1):
            for chosen in itertools.combinations(more, k):
                base = fixed + own_wild + list(chosen)
                for n in range(max(0, 3 - len(base)), sum(wild) + 1):
                    if need is not None and self._hopeless(need, [[q] for q in chosen], n, wild, True):
                        if self._wild_sets(n, wild):
                            yield len(self._wild_sets(n, wild))
                        continue
                    for ws in self._wild_sets(n, wild):
                        yield base + ws

    def _all_wild(self, wild: tuple[int, ...]) -> Iterator[tuple[CoverMeld, int, int, tuple[int, ...]]]:
        """The WILDCARDs left, when no natural card is: one meld of WILDCARDs alone (splitting
        them never helps: a meld of WILDCARDs needs three that may found it, and >NAME a
        card of NAME's)."""
        pieces = [p for c, w in zip(self.classes, wild) for p in c[len(c) - w:]]
        self._spend()
        core_ids = self._core(pieces, None)
        if core_ids is not None:
            yield CoverMeld(tuple(pieces), core_ids), 0, 0, tuple(0 for _ in wild)

    # -- one meld ----------------------------------------------------------------------------

    def _core(self, pieces: list[Piece], stated: frozenset[int] | None) -> frozenset[int] | None:
        """The meld's core if the pieces are a valid meld with one: the stated group, or three
        cards that may found it (natural cards first); ``None`` if they are no such meld.
        Worked out once per meld: the search meets the same melds again and again."""
        key = (frozenset(p.id for p in pieces), stated)
        if key not in self.cores_of:
            self.cores_of[key] = self._work_out_core(pieces, stated)
        return self.cores_of[key]

    def _founds(self, three: tuple[Piece, ...], ids: frozenset[int]) -> bool:
        """Whether the three cards make a meld on their own (worked out once)."""
        ok = self.threes.get(ids)
        if ok is None:
            ok = self.threes[ids] = readable(three, ids, self.aces_high, self.barred)
        return ok

    def _work_out_core(self, pieces: list[Piece], stated: frozenset[int] | None) -> frozenset[int] | None:
        if not all(_Search._joined(p, pieces) for p in pieces if p.laid.player or p.laid.beside):
            return None
        # a claimed card sent to its own group's meld (AD>AS) sits only in the meld that group laid
        bound = {p.laid.beside for p in pieces if p.laid.to_group}
        if stated is not None:
            return stated if not bound and readable(pieces, stated, self.aces_high, self.barred) else None
        founders = [p for p in pieces if p.id in self.eligible]
        if len(founders) < 3:
            return None
        if not readable(pieces, frozenset(), self.aces_high, self.barred):
            return None
        founders.sort(key=lambda p: (p.fixed is None, p.id))  # natural cards first, then as typed
        for three in itertools.combinations(founders, 3):  # one player's three: a meld is laid by one player
            if not three[0].owner == three[1].owner == three[2].owner or not self.founders.three(three):
                continue
            ids = frozenset(p.id for p in three)
            if bound and not bound <= {p.laid.card for p in three}:
                continue
            if not self._founds(three, ids):
                continue
            if all(p.fixed is not None for p in three):
                return ids  # no WILDCARD in the core: the meld reads as it did without one
            if readable(pieces, ids, self.aces_high, self.barred):
                return ids
        return None


def _partners(p: Piece, fixed: list[Piece], n_wild: int) -> int:
    """How many cards could sit beside ``p`` in a meld (a rough count, to seat the cards with
    the fewest first: a card that fits nowhere is found at once)."""
    n = n_wild
    for q in fixed:
        if q is p or q.fixed is None:
            continue
        if q.rank == p.rank:
            n += 1
        elif q.suit_no == p.suit_no and abs(q.rank - p.rank) <= 2:
            n += 1
    return n
