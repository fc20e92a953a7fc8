"""The exact cover of a table (rummyref.games.long.cover) against a brute force over every
split of the cards into melds, on small random tables: it finds a seating exactly when one
exists, every seating it gives is one, a card it calls homeless has no seat in any, and the
seating ref prints agrees (a table is refused exactly when no seating exists)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

from rummyref.errors import RummyrefError
from rummyref.games.long.arrange import Piece, _barred, _Search, _split, founders_of, pieces_of, readable, readings
from rummyref.games.long.cover import COVER_STEPS, UNKNOWN, _Cover, cover, drop_one, homeless, ready
from rummyref.games.long.scoring import score_hand
from rummyref.games.long.table import Where, read_hand, read_token
from rummyref.rules.ruleset import load_ruleset

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)

ROSTER = ("Bill", "Ben")
RANKS = ("A", "2", "3", "4", "5", "6", "Q", "K")
POOL = [f"{r}{s}" for r in RANKS for s in ("H", "S", "D")]


@st.composite
def small_tables(draw) -> tuple[list[str], list[str]]:
    """Up to 8 cards from a small pool (two suits, runs and matches close together), 0-2
    WILDCARDs (some said to stand for a card), random designations, '/' or not, a claim."""
    if draw(st.booleans()):
        cards = draw(st.lists(st.sampled_from(POOL), min_size=3, max_size=7, unique=True))
    else:  # one or two melds, most of the time a seating exists
        cards = []
        for _ in range(draw(st.integers(1, 2))):
            if draw(st.booleans()):
                suit, start = draw(st.sampled_from("HSD")), draw(st.integers(1, 4))
                cards += [f"{RANKS[i]}{suit}" for i in range(start - 1, start - 1 + draw(st.integers(3, 4)))]
            else:
                rank = draw(st.sampled_from(RANKS))
                cards += [f"{rank}{s}" for s in draw(st.permutations("HSD"))]
        cards = list(dict.fromkeys(cards))[:7]
    tokens = []
    for c in cards:
        said = draw(st.sampled_from([">run", ">match", ">Bill", ">Ben", ">2H"]))
        tokens.append(c + (said if draw(st.integers(0, 5)) == 0 else ""))
    for _ in range(draw(st.integers(0, 2))):
        tokens.append("W" + draw(st.sampled_from(["", "", "=3H", "=AS", "=5S"])) + draw(st.sampled_from(["", "", ">Ben"])))
    order = draw(st.permutations(tokens))
    claims = []
    if len(order) > 3 and draw(st.booleans()):
        claims.append(f"{draw(st.sampled_from(ROSTER))}={order[-1]}")
        order = order[:-1]
    cut = draw(st.integers(0, len(order)))
    melded = []
    for name, part in zip(ROSTER, (order[:cut], order[cut:])):
        if not part:
            continue
        if draw(st.integers(0, 2)) == 0:  # stated: '/' between random groups
            groups, i = [], 0
            while i < len(part):
                k = draw(st.integers(1, 4))
                groups.append(" ".join(part[i:i + k]))
                i += k
            melded.append(f"{name}={' / '.join(groups)}")
        else:
            melded.append(f"{name}={' '.join(part)}")
    return melded, claims


@st.composite
def grouped_tables(draw) -> tuple[list[str], list[str]]:
    """A meld of three split between a '/' group of one or two cards of a player who states
    their melds and claimed cards (of that player most often; sometimes said to join a meld:
    the player, a card of the group, a kind, sideways), now and then a WILDCARD in the group,
    and up to three cards more anywhere (the shape of SPEC §7's stated group that lays a meld
    with the player's claimed cards, and the ways it is not one)."""
    if draw(st.booleans()):
        suit, start = draw(st.sampled_from("HSD")), draw(st.integers(0, 3))
        meld = [f"{RANKS[i]}{suit}" for i in range(start, start + 3)]
    else:
        rank = draw(st.sampled_from(RANKS))
        meld = [f"{rank}{s}" for s in draw(st.permutations("HSD"))]
    meld = list(draw(st.permutations(meld)))
    k = draw(st.integers(1, 2))
    group, rest = meld[:k], meld[k:]
    if draw(st.integers(0, 3)) == 0:
        group[0] = "W"
    owner, other = draw(st.permutations(ROSTER))
    claims = []
    for card in rest:
        said = draw(st.sampled_from(["", "", "", ">run", ">match", "^", f">{owner}", f">{other}", f">{group[-1]}"]))
        if said == f">{group[-1]}" and group[-1] == "W":
            said = ""
        claims.append(f"{owner if draw(st.integers(0, 4)) else other}={card}{said}")
    extra = draw(st.lists(st.sampled_from([c for c in POOL if c not in meld]), max_size=3, unique=True))
    mine = [c for c in extra if draw(st.booleans())]
    theirs = [c for c in extra if c not in mine]
    melded = [f"{owner}={' / '.join([' '.join(group)] + mine)}"]
    if theirs:
        melded.append(f"{other}={(' / ' if draw(st.booleans()) else ' ').join(theirs)}")
    return melded, claims


TABLES = st.one_of(small_tables(), grouped_tables())


def _groups(stated, loose) -> list[frozenset[int]]:
    """The '/' groups of one or two cards of a player who stated their melds (the cards not
    said to join a meld): laid off, unless one laid a meld with the player's claimed cards."""
    cored = {(p.owner, p.group) for c in stated for p in c}
    out: dict[tuple[str, int], set[int]] = {}
    for p in loose:
        if p.group >= 0 and not p.claimed and not p.laid.joins and (p.owner, p.group) not in cored:
            out.setdefault((p.owner, p.group), set()).add(p.id)
    return [frozenset(g) for g in out.values()]


def _may_lay(three, groups, own) -> bool:
    """Whether three cards may be the three that laid a meld, as to who laid them and how (SPEC
    §1, §7): one player's; each melded by a player who stated nothing (``own``), or won by a
    claim that said nothing of where it went, or a stated group of one or two cards, whole (one
    group at most), with that player's claimed cards, which may have said they joined that
    group's meld (>the player, >a card of the group; not >run, >match, or sideways)."""
    if len({p.owner for p in three}) > 1:
        return False
    ids = {p.id for p in three}
    inside = [g for g in groups if g & ids]
    if len(inside) > 1 or (inside and not inside[0] <= ids):
        return False
    group_cards = {p.laid.card for p in three if inside and p.id in inside[0]}
    for p in three:
        if p.id in own or (inside and p.id in inside[0]):
            continue
        if not p.claimed:
            return False
        laid = p.laid
        if laid.joins and (not inside or laid.kind is not None or laid.sideways
                           or laid.player not in (None, p.owner)
                           or (laid.beside is not None and laid.beside not in group_cards)):
            return False
    return True


def _rule(stated, own, loose) -> tuple:
    """What :func:`_valid` needs of the table: the stated cores, the small groups, the cards
    melded by players who stated nothing."""
    return [frozenset(p.id for p in c) for c in stated], _groups(stated, loose), {p.id for m in own for p in m}


def _valid(block, rule, aces_high, barred) -> bool:
    """One meld as the module doc defines it."""
    stated_ids, groups, own = rule
    if not all(_Search._joined(p, block) for p in block):
        return False
    ids = {p.id for p in block}
    cores = [c for c in stated_ids if c & ids]
    if any(not c <= ids for c in cores) or len(cores) > 1:
        return False
    if cores:
        return next(readings(block, cores[0], aces_high, barred), None) is not None
    in_groups = {i for g in groups for i in g}
    founders = [p for p in block if p.id in own or p.claimed or p.id in in_groups]
    for three in itertools.combinations(founders, 3):
        if not _may_lay(three, groups, own):
            continue
        core = frozenset(p.id for p in three)
        if next(readings(three, core, aces_high, barred), None) is None:
            continue
        if next(readings(block, core, aces_high, barred), None) is not None:
            return True
    return False


def _partitions(items: list) -> Iterator[list[list]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]
        yield [[first]] + part


def _brute(stated, own, loose, aces_high, barred) -> bool:
    everything = [p for c in stated for p in c] + [p for m in own for p in m] + list(loose)
    rule = _rule(stated, own, loose)
    return any(all(len(b) >= 3 and _valid(b, rule, aces_high, barred) for b in part)
               for part in _partitions(everything))


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES)
# a stated group of two with its player's claimed card lays a meld (with '>' naming the group's
# meld too); not two groups, another player's claim, a claim said to join a run or a match
@example(table=(["Bill=2H 3H / 5S 5D 5H"], ["Bill=AH"]))
@example(table=(["Bill=2H 3H / 5S 5D 5H"], ["Bill=AH>2H"]))
@example(table=(["Bill=2H 3H / 5S 5D 5H"], ["Bill=AH>Bill"]))
@example(table=(["Bill=3H / 5S 5D 5H"], ["Bill=AH 2H"]))
@example(table=(["Bill=2H / 3H / 5S 5D 5H"], ["Bill=AH"]))
@example(table=(["Bill=2H 3H / 5S 5D 5H"], ["Ben=AH"]))
@example(table=(["Bill=2H 3H / 5S 5D 5H"], ["Bill=AH>run"]))
@example(table=(["Bill=5S 5D / 2H"], ["Bill=5H^"]))
def test_the_cover_finds_a_seating_exactly_when_one_exists(rules, table):
    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    exists = _brute(stated, own, loose, ruleset.aces_high, barred)
    event("a seating exists" if exists else "no seating")
    found, _ = cover(stated, own, loose, ruleset.aces_high, barred)
    assert found is not UNKNOWN
    assert (found is not None) == exists
    if found is not None:
        seated = [p.id for m in found for p in m.pieces]
        everything = [p for c in stated for p in c] + [p for m in own for p in m] + list(loose)
        assert sorted(seated) == sorted(p.id for p in everything)
        rule = _rule(stated, own, loose)
        assert all(_valid(list(m.pieces), rule, ruleset.aces_high, barred) for m in found)
    if homeless(stated, own, loose, ruleset.aces_high, barred):
        assert not exists
    if rules == "rummy-2m":  # what ref does with the hand: seated exactly when a seating exists
        try:
            score_hand(facts, ruleset, 2, ROSTER)
            refused = None
        except RummyrefError as exc:
            refused = exc
        assert (refused is None) == exists, refused


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES)
def test_the_cover_with_the_engines_cut_answers_the_same(rules, table):
    """With the rule set, the cover also cuts positions whose cards the engine cannot meld at
    all: the same answer as without it, and as the brute force."""
    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    plain, _ = cover(stated, own, loose, ruleset.aces_high, barred)
    cut, _ = cover(stated, own, loose, ruleset.aces_high, barred, ruleset=ruleset)
    assert cut is not UNKNOWN
    assert (cut is None) == (plain is None) == (not _brute(stated, own, loose, ruleset.aces_high, barred))


@st.composite
def one_card_more(draw) -> tuple[list[str], list[str]]:
    """One or two melds of the small pool and one card more (a card typed wrong, or one too
    many), the cards shared out between the players, a WILDCARD and a designation now and
    then: most often a table with no seating, but one without some card."""
    cards: list[str] = []
    for _ in range(draw(st.integers(1, 2))):
        if draw(st.booleans()):
            suit, start = draw(st.sampled_from("HSD")), draw(st.integers(1, 4))
            cards += [f"{RANKS[i]}{suit}" for i in range(start - 1, start - 1 + draw(st.integers(3, 4)))]
        else:
            rank = draw(st.sampled_from(RANKS))
            cards += [f"{rank}{s}" for s in draw(st.permutations("HSD"))]
    cards = list(dict.fromkeys(cards))[:7]
    cards.append(draw(st.sampled_from([c for c in POOL if c not in cards])))
    tokens = [c + (draw(st.sampled_from([">run", ">match", ">Bill", ">Ben"])) if draw(st.integers(0, 7)) == 0 else "")
              for c in cards]
    if draw(st.integers(0, 3)) == 0:
        tokens.append("W")
    order = draw(st.permutations(tokens))
    cut = draw(st.integers(0, len(order)))
    return [f"{n}={' '.join(part)}" for n, part in zip(ROSTER, (order[:cut], order[cut:])) if part], []


def _without(stated, own, loose, x):
    """The table's pieces without the piece ``x``."""
    return ([c for c in stated], [[p for p in m if p is not x] for m in own], [p for p in loose if p is not x])


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=st.one_of(small_tables(), grouped_tables(), one_card_more()), after_cover=st.booleans())
def test_the_card_left_out_is_one_without_which_every_other_card_sits(rules, table, after_cover):
    """On a table with no seating, :func:`drop_one` names a card of known value (not of a stated
    meld) only if the brute force seats every other piece without it, and names one whenever
    some such card is one (by the brute force); after the table's own cover (its failures
    known) as on a fresh search."""
    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    aces_high = ruleset.aces_high
    assume(not _brute(stated, own, loose, aces_high, barred))
    search = None
    if after_cover:
        search = ready(stated, own, loose, aces_high, barred)
        assert cover(stated, own, loose, aces_high, barred, ruleset=ruleset, search=search)[0] is None
    odd, _ = drop_one(stated, own, loose, aces_high, barred, COVER_STEPS, ruleset, search=search)
    # not a card of a stated meld, nor of a stated group of two that may lay a meld with a claim
    in_stated = {p.id for c in stated for p in c}
    in_stated |= {i for i, g in founders_of(stated, own, loose).group_of.items() if len(g) == 2}
    droppable = [p for p in [q for m in own for q in m] + list(loose) if p.fixed is not None and p.id not in in_stated]
    could = [p for p in droppable if _brute(*_without(stated, own, loose, p), aces_high, barred)]
    event("a card to leave out" if could else "none")
    if odd is None:
        assert not could, [p.says() for p in could]
    else:
        assert odd in droppable and odd in could, odd.says()


def test_the_card_left_out_of_a_dense_table_is_the_one_typed_wrong():
    """Larry's 9D fits no meld that leaves every other card a place (his run W=7D W 9D takes
    the WILDCARD his 7C needs; no 8D or JD): a refusal names it, not the whole table's 25 cards."""
    with pytest.raises(RummyrefError) as exc:
        score_hand(read_hand(("Bill", "Ben", "Larry"),
                             ["Bill=AC 2C 3C 5H 5D 5S 8H 8C 8S KC KH KS 6S 6H 6C", "Ben=KD / QC QD QH",
                              "Larry=W W=7D 7C 10C 10S 10D 5C>Bill 9D"], (), ()),
                   load_ruleset("rummy-2m"), 2, ("Bill", "Ben", "Larry"))
    assert exc.value.message == "Larry's 9D (--melded) cannot sit in any meld on the table (every other card can)"


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES)
def test_the_founders_test_never_refuses_a_table_with_a_seating(rules, table):
    """A seating's melds each hold a core, three founders (or a stated group), three in a row
    in a run: the founders' test (rummyref.games.long.founders), looser and closer questions
    alike, answers a looser question than the seating's, so it says no only where the brute
    force finds no seating."""
    from rummyref.games.long.arrange import _all_found, _Known

    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    found = _all_found(stated, own, loose, ruleset.aces_high, _Known())
    exists = _brute(stated, own, loose, ruleset.aces_high, barred)
    event("a seating exists" if exists else "refused by the founders' test" if not found else "no seating")
    if exists:
        assert found


#: a legal table (issue 12) the search gave up on, "too many ways to try": its cover takes
#: some 20,000 steps (277,000 before the fewest-first order and the cuts)
TANGLE = (["Bill=W W 6C / 2S / 3D / 9D 10D JD / 6H 7H 8H",
           "Ben=KD KH KC 2D W 2H 6D 7D 8D 4S 5S 6S 9S JS>run",
           "Larry=AC W AS 7C KS W 9H>Bill JH 8S>Ben"],
          ["Ben=5D", "Ben=5H>6H", "Bill=W>6H", "Ben=QH", "Ben=7S", "Ben=10S", "Bill=QS>4S"])


def test_a_legal_tangle_is_seated_with_every_card_credited_to_its_player():
    from rummyref.games.long.arrange import place

    ruleset = load_ruleset("rummy-2m")
    roster = ("Bill", "Ben", "Larry")
    melded, claims = TANGLE
    facts = read_hand(roster, melded, (), claims)
    # the seating is one by the definition (every meld valid, every card once)
    typed = pieces_of(facts)
    barred = _barred(typed)
    stated, own, loose = _split(typed, facts, ruleset, barred)
    rule = _rule(stated, own, loose)
    melds = place(facts, ruleset).melds
    assert sorted(p.id for t in melds for p in t.pieces) == [p.id for p, _, _ in typed]
    assert all(_valid(list(t.pieces), rule, ruleset.aces_high, barred) for t in melds)
    score = score_hand(facts, ruleset, 7, roster)
    # by hand, B5's seating (each meld laid by one player): Bill melds W W 6C (+ Larry's 7C: the
    # Ws 4C 5C) 4+5+6, 9D 10D JD 29, 6H 7H 8H 21, 2S 2 (the 2s Ben's 2H 2D W laid), 3D 3 (3D W
    # 5D-8D) = 70, and claims W>6H (the hearts 5H-KH: the W is the 10H) 10 and QS>4S (the spades
    # 4S-KS) 10 = 20; Ben melds KD KH KC 2D W (the 2C, with his 2H 2D: a 2) 2H 6D 7D 8D 4S 5S 6S
    # 9S JS = 91 and claims 5D 5H QH 7S 10S = 37; Larry melds AC W (the AH, with his AS AC: an
    # ace, 15) AS 7C KS W(4D) 9H JH 8S = 93
    assert [(s.name, s.melded, s.claimed, s.points) for s in score.scores] == [
        ("Bill", 70, 20, 90), ("Ben", 91, 37, 128), ("Larry", 93, 0, 93)]
    for s, name in zip(score.scores, roster):
        laid = [c for m in score.arrangement for c in m.laid if c.by == name]
        assert sum(c.value for c in laid if not c.claimed) == s.melded
        assert sum(c.value for c in laid if c.claimed) == s.claimed


@settings(max_examples=400, deadline=None)
@given(tokens=st.lists(st.sampled_from(POOL + ["AH", "KH", "QH", "W", "W=2H", "W=KH", "W=AS", "2H>run", "2S>match"]),
                       min_size=1, max_size=6),
       core_size=st.integers(0, 4), aces_high=st.booleans(), barred=st.sets(st.sampled_from(["2H", "3H", "KH", "AS"])))
def test_readable_says_whether_there_is_a_reading(tokens, core_size, aces_high, barred):
    """``readable`` (what the cover asks) answers as ``readings`` does, cores and cards laid
    sideways included."""
    where = Where("Bill", "--melded")
    pieces = [Piece(i, read_token(t, where, ROSTER), "Bill") for i, t in enumerate(tokens)]
    core = frozenset(p.id for p in pieces[:core_size])
    cut = frozenset(read_token(c, where, ROSTER).card for c in barred)
    assert readable(pieces, core, aces_high, cut) == (next(readings(pieces, core, aces_high, cut), None) is not None)


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES)
def test_turns_that_stop_and_start_again_answer_exactly(rules, table):
    """Turns of a few steps each, in both orders, sharing what failed: the same answer as the
    brute force (a failure learnt in one order holds in the other)."""
    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    turns = ((True, 2), (False, 3), (True, 5), (False, 8), (True, 13), (False, None))
    found, spent = cover(stated, own, loose, ruleset.aces_high, barred, ruleset=ruleset, turns=turns)
    assert found is not UNKNOWN and spent <= COVER_STEPS
    assert (found is not None) == _brute(stated, own, loose, ruleset.aces_high, barred)
    if found is not None:
        everything = [p for c in stated for p in c] + [p for m in own for p in m] + list(loose)
        assert sorted(p.id for m in found for p in m.pieces) == sorted(p.id for p in everything)


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES)
def test_the_cover_after_the_homeless_test_answers_as_a_fresh_one(rules, table):
    """The seating asks :func:`homeless` and then the cover of the same pieces made ready once
    (the melds one works out, the other uses again): the same cards without a home, and the
    same seating in the same steps, as each asked afresh."""
    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    search = ready(stated, own, loose, ruleset.aces_high, barred)
    shared = homeless(stated, own, loose, ruleset.aces_high, barred, search=search)
    assert shared == homeless(stated, own, loose, ruleset.aces_high, barred)
    again = cover(stated, own, loose, ruleset.aces_high, barred, ruleset=ruleset, melds={}, search=search)
    fresh = cover(stated, own, loose, ruleset.aces_high, barred, ruleset=ruleset, melds={})
    assert again[1] == fresh[1]
    assert again[0] == fresh[0] or again[0] is fresh[0]


#: a table no seating fits (a card changed: without Larry's >10D the AD sits in his aces), where
#: the engine's cut saves the cover most of its steps
NO_SEATING = (["Bill=9D>run / 2S 2D 2C / 8S 9S 10S / 4S>4H", "Ben=6H W=7H 8H 7S>8S JS 8C 9C 10C",
               "Larry=10H>Ben 10D JD W W KD>Larry QS 4H 4C 4D 7C>run JC 5D W=6D 7D W=3D W 3H 3C AH AD>10D"], [])


def test_the_cover_made_ready_before_cuts_by_the_engine_as_a_fresh_one():
    ruleset = load_ruleset("rummy-2m")
    facts = read_hand(("Bill", "Ben", "Larry"), NO_SEATING[0], (), NO_SEATING[1])
    typed = pieces_of(facts)
    barred = _barred(typed)
    stated, own, loose = _split(typed, facts, ruleset, barred)
    search = ready(stated, own, loose, ruleset.aces_high, barred)
    assert homeless(stated, own, loose, ruleset.aces_high, barred, search=search) == []
    found, spent = cover(stated, own, loose, ruleset.aces_high, barred, ruleset=ruleset, melds={}, search=search)
    assert found is None and (found, spent) == cover(stated, own, loose, ruleset.aces_high, barred, ruleset=ruleset,
                                                     melds={})
    _, uncut = cover(stated, own, loose, ruleset.aces_high, barred, melds={})
    assert uncut > 2 * spent  # without the engine's cut


#: a table of matches laid by players who stated nothing, with cards said to join them (since a
#: meld is laid by one player, the 5S and AD are Ben's and the 10C Larry's, so that runs first
#: still wander long)
MATCHES = (["Bill=4S 4D W /", "Ben=W=5D 5H 5C 3D 3C 3S 7S W 7C W 2H 2D 2S>Ben KS>match JC JD W JH>Ben 6D>match "
            "10H 10D 5S AD", "Larry=3H QS W QH KC KD KH 9C 9S 9D AH W 10C 8D 8C 8S 6C 6H 6S"], ["Ben=QD"])


def test_a_table_of_matches_is_seated_in_the_turn_that_tries_matches_first():
    ruleset = load_ruleset("rummy-2m")
    facts = read_hand(("Bill", "Ben", "Larry"), *MATCHES[:1], (), MATCHES[1])
    typed = pieces_of(facts)
    barred = _barred(typed)
    stated, own, loose = _split(typed, facts, ruleset, barred)
    found, spent = cover(stated, own, loose, ruleset.aces_high, barred, 50_000, ruleset)
    assert found not in (None, UNKNOWN) and 1_000 < spent <= 3_000  # the runs-first turn, then matches first
    # runs first only, as before the turns: over five times the steps
    found, spent_runs_first = cover(stated, own, loose, ruleset.aces_high, barred, 50_000, ruleset,
                                    turns=((False, None),))
    assert found not in (None, UNKNOWN) and spent_runs_first > 5 * spent


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@pytest.mark.parametrize("matches_first", [False, True])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES)
def test_the_melds_in_order_are_the_sorted_melds(rules, matches_first, table):
    """The cover makes the melds of a position one level at a time: the same melds, in the
    order a stable sort of all of them (fewest WILDCARDs, most cards, runs first, or matches
    first in a turn that tries them first) gives."""
    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    search = _Cover(stated, own, loose, ruleset.aces_high, barred, 0)
    search.matches_first = matches_first
    mask, wild = (1 << len(search.fixed)) - 1, tuple(len(c) for c in search.classes)
    for must in [[p] for p in search.fixed] + search.cores:
        fixed = [p for p in must if p.fixed is not None]
        own_wild = [p for p in must if p.fixed is None]
        if not fixed:
            continue
        raw = [(c, 0) for c in search._runs(fixed, own_wild, mask, wild)]
        raw += [(c, 1) for c in search._groups(fixed, own_wild, mask, wild)]
        if matches_first:
            raw.sort(key=lambda r: (sum(1 for p in r[0] if p.id in search.class_of), -r[1], -len(r[0])))
        else:
            raw.sort(key=lambda r: (sum(1 for p in r[0] if p.id in search.class_of), -len(r[0]), r[1]))
        got = [[p.id for p in c] for c in search._in_order(fixed, own_wild, mask, wild)]
        assert got == [[p.id for p in c] for c, _ in raw]


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES, drop=st.integers(0, 8))
def test_the_melds_counted_not_made_are_none_of_them_valid(rules, table, drop):
    """The melds the cover counts instead of making them (a >NAME or >2D no card of the choice
    meets, too few founders) are never valid: the same valid melds, in the same order, for the
    same steps as when every one is made and tried."""
    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    counted = _Cover(stated, own, loose, ruleset.aces_high, barred, 0)
    made = _Cover(stated, own, loose, ruleset.aces_high, barred, 0)
    made._needs = lambda must, core, wild: None  # type: ignore[method-assign]
    mask = ((1 << len(counted.fixed)) - 1) & ~(1 << drop)
    wild = tuple(len(c) for c in counted.classes)
    musts = [([p], None) for p in counted.fixed] + list(zip(counted.cores, counted.core_ids))
    musts += [(c + [p], ids) for c, ids in zip(counted.cores, counted.core_ids) for p in counted.fixed]
    for must, core in musts:
        for ordered in (True, False):
            found = []
            for search in (counted, made):
                search.steps = 10**9
                melds = [([p.id for p in m.pieces], sorted(m.core), mask2, wild2)
                         for m, mask2, wild2 in search._melds(must, mask, wild, core, ordered)]
                found.append((melds, search.steps))
            assert found[0] == found[1]


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES)
def test_a_trial_without_what_was_said_of_a_card_asks_a_looser_founders_question(rules, table):
    """A refusal's trial drops what the table said of one card (``_swapped``). The founders'
    test of such a trial is never stricter than the whole table's: where the whole table
    passes, so does the trial, and the trial asked as ``relaxed`` (skipping what the whole
    table's answer already settles) answers as the trial asked afresh."""
    from rummyref.games.long.arrange import _all_found, _Known, _swapped
    from rummyref.games.long.table import Laid

    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    everything = [p for c in stated for p in c] + [p for m in own for p in m] + list(loose)
    said = [p for p in everything if p.laid.joins or p.laid.stands_for]
    assume(said)
    stated_by = frozenset(name for name, player in facts.players if player.stated)
    known = _Known(stated_by=stated_by)
    whole = _all_found(stated, own, loose, ruleset.aces_high, known)
    event(f"whole table passes: {whole}")
    assert known.whole is not None and known.whole[1] == whole
    for p in said:
        trial = _swapped(stated, own, loose, p, replace(p, laid=Laid(p.laid.card)), stated_by)
        fresh = _all_found(*trial, ruleset.aces_high, _Known())
        assert fresh or not whole, p.says()
        assert _all_found(*trial, ruleset.aces_high, known, relaxed=True) == fresh, p.says()


@pytest.mark.parametrize("rules", ["rummy-2m", "simple-rummy"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=TABLES, data=st.data())
def test_the_homeless_test_of_some_cards_is_the_whole_test_on_them(rules, table, data):
    """``homeless(only=...)`` (a refusal's trial asks whether the cards with no meld still
    have none) gives the cards of the whole test that are among those asked of, a stated meld
    whole when any card of it is."""
    ruleset = load_ruleset(rules)
    melded, claims = table
    try:
        facts = read_hand(ROSTER, melded, (), claims)
        typed = pieces_of(facts)
        barred = _barred(typed)
        stated, own, loose = _split(typed, facts, ruleset, barred)
    except RummyrefError:
        assume(False)
        return
    everything = [p for c in stated for p in c] + [p for m in own for p in m] + list(loose)
    asked = frozenset(data.draw(st.sets(st.sampled_from(sorted(p.id for p in everything)))))
    full = homeless(stated, own, loose, ruleset.aces_high, barred)
    group = {p.id: {q.id for q in c} for c in stated for p in c}
    expected = [p for p in full if p.id in asked or group.get(p.id, set()) & asked]
    assert homeless(stated, own, loose, ruleset.aces_high, barred, only=asked) == expected



def test_the_homeless_test_of_some_cards_looks_at_those_only():
    ruleset = load_ruleset("rummy-2m")
    facts = read_hand(ROSTER, ["Bill=9H 9D 9C / 2H 3H 4H", "Ben=9S>2H 5H"], (), [])
    stated, own, loose = _split(pieces_of(facts), facts, ruleset, frozenset())
    ids = {str(p.laid.card): p.id for p in [q for c in stated for q in c] + [q for m in own for q in m] + loose}

    def shown(*cards: str) -> list[str]:
        only = frozenset(ids[c] for c in cards)
        return [str(p.laid.card) for p in homeless(stated, own, loose, ruleset.aces_high, frozenset(), only=only)]

    assert shown() == [] and shown("5H", "2H") == []
    assert shown("9S") == shown("9S", "5H", "9H") == ["9S"]
