"""A Rummy 2,000,000 hand as the table's melds (SPEC §7): the facts, and the notation that types them.

The record of a hand is every card each player put on the table (melded, laid off on anyone's
meld, or won by a Rummy! claim) and every card each player still holds. A card on the table may
carry what the table said about it; one token per card, extending the cards of SPEC §2:

=============  ===================================================================
``AD``         the card; where it sits is ref's to decide (B5: a run before a match)
``W=7H``       a WILDCARD and the card it stands for
``AD>run``     it counts for a run (B5); also ``>sequence``
``AD>match``   it counts for a match (B5); also ``>group``, ``>set``
``AD^``        laid sideways on a match (B6): the same as ``>match``; the run it could
               have extended is cut off there, and no WILDCARD may stand for it in a run
``AD>Larry``   it joined a meld holding cards Larry laid
``AD>2D``      it joined the meld holding the 2D
=============  ===================================================================

Several ``>`` may follow one card (``W=KC>Larry>match``); spaces around ``=``, ``>`` and ``^``
are allowed. In ``--melded`` a ``/`` splits a player's cards into the melds as laid: each group
of three or more is one meld (others may have laid off on it), a group of one or two cards was
laid off. Without a ``/``, ref arranges the player's cards itself (the engine, runs first) and
the cards left over were laid off. A card with a ``>`` always joined a meld already there.

Everything here is pure: option text and the roster in, frozen facts out; every refusal names
the player, the option and the token. Placing the cards is :mod:`rummyref.games.long.arrange`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rummyref.cards import KIND_WORDS, MELD_SEPARATORS, Card, parse_card
from rummyref.errors import (
    DuplicateCard,
    RuleRefusal,
    TooManyWildcards,
    UnreadableCard,
    UnreadableInput,
)
from rummyref.names import find, resolve_name, shown, suggest

FACTS_VERSION = 2  #: the facts JSON written since the table as melds; a record without one is 0.1's


class Kind(StrEnum):
    """What the table may say a card counts for (B5)."""

    RUN = "run"
    MATCH = "match"


_KIND_WORDS = {word: Kind(kind) for word, kind in KIND_WORDS.items()}  #: ``>run``, ``>set`` ... (B5)


_SLOTS = ("player", "beside", "kind")  #: a card's designations, in the order a record without :attr:`Laid.order` writes them


@dataclass(frozen=True)
class Laid:
    """One card put on the table, with what the table said about it (all optional)."""

    card: Card
    stands_for: Card | None = None  #: ``W=7H``: the natural card a WILDCARD stands for
    kind: Kind | None = None  #: ``>run`` / ``>match`` (``^``): B5's designation
    player: str | None = None  #: ``>NAME``: joined a meld holding cards NAME laid
    beside: Card | None = None  #: ``>2D``: joined the meld holding that card
    #: ``stands_for`` is ref's reading, not the table's: a bare WILDCARD laid sideways on a match
    #: (``W^``) lies as the card it stands for there, and that card cuts the run off (B6)
    read: bool = False
    #: ref's reading, not the table's: the meld the table named (``>NAME``) is a match, so the
    #: card lies sideways on it (B6) as if ``>match`` were said (``kind`` is then MATCH)
    on_match: bool = False
    #: ref's reading, not the table's: a claimed card said to join the meld of a card of its
    #: claimer's own stated group of one or two cards (``AD>AS`` with ``AS AH /``), a group it
    #: may lay a meld with: it sits in the meld that group laid, and lies sideways (B6) only
    #: where it was laid off on that meld, not where it is one of the three that laid it
    to_group: bool = False
    #: typed ``^`` (the same as ``>match``), kept only to name the card as typed
    caret: bool = field(default=False, compare=False)
    #: the designations in the order typed (``player``, ``beside``, ``kind``), kept only to name
    #: the card as typed (``AD>2D>Bill``); a designation not in it (a card read from a record
    #: written before the order was kept) follows in that order, as it was then written
    order: tuple[str, ...] = field(default=(), compare=False)

    @property
    def joins(self) -> bool:
        """The table said where the card went: it joined a meld already there."""
        return self.kind is not None or self.player is not None or self.beside is not None

    @property
    def sideways(self) -> bool:
        """B6: a card designated to a match lies sideways, cutting a run off: ``>match`` (``^``),
        or ``>2D`` naming a card of its own rank (a meld of two cards of a rank is a match),
        unless that card's group may have laid the match with it (:attr:`to_group`: known only
        once the table is seated). A WILDCARD so designated is sideways as the card the table
        said it stands for."""
        counts = self.stands_for if self.card.is_wild else self.card
        if counts is None:
            return False
        if self.kind is Kind.MATCH:
            return True
        return self.beside is not None and self.beside.rank == counts.rank and not self.to_group

    @property
    def cut(self) -> Card:
        """The card a run is cut off at when this one lies sideways: itself, or the card a
        WILDCARD stands for."""
        return self.stands_for if self.card.is_wild and self.stands_for is not None else self.card

    def __str__(self) -> str:
        text = str(self.card) + (f"={self.stands_for}" if self.stands_for and not self.read else "")
        caret = self.caret and self.kind is Kind.MATCH
        targets = {"player": self.player, "beside": self.beside,
                   "kind": self.kind.value if self.kind and not self.on_match and not caret else None}
        for slot in dict.fromkeys([*self.order, *_SLOTS]):
            text += f">{targets[slot]}" if targets[slot] else ""
        return text + ("^" if caret else "")


@dataclass(frozen=True)
class PlayerCards:
    """One player's part of a hand: the cards put on the table, in the groups typed, and the
    cards left in hand. ``stated``: the player split them with ``/`` (the melds as laid)."""

    melded: tuple[tuple[Laid, ...], ...] = ()
    held: tuple[Card, ...] = ()
    stated: bool = False

    @property
    def laid(self) -> tuple[Laid, ...]:
        return tuple(c for g in self.melded for c in g)


@dataclass(frozen=True)
class CardFacts:
    """A hand given as cards: every player in deal order, who went out, the Rummy! claims."""

    players: tuple[tuple[str, PlayerCards], ...]
    out: str | None = None
    claims: tuple[tuple[str, Laid], ...] = ()
    #: the answers typed at a prompt (``melded:NAME``, ``claims``), not given as options: a
    #: message about their cards names the prompt (not a fact of the hand: never compared, kept)
    at_prompt: frozenset[str] = field(default=frozenset(), compare=False)

    form = "cards"

    def option(self, name: str, claimed: bool = False, held: bool = False) -> str:
        """Where the table typed NAME's cards (on the table, or ``held``): the option, or the prompt."""
        if claimed:
            return "the claims prompt" if "claims" in self.at_prompt else "--claim"
        if held:
            return "the held prompt" if f"held:{name}" in self.at_prompt else "--held"
        return "the melded prompt" if f"melded:{name}" in self.at_prompt else "--melded"

    def player(self, name: str) -> PlayerCards:
        return dict(self.players).get(name, PlayerCards())


# -- reading the notation ------------------------------------------------------------------------

_SPACED = re.compile(r"\s*([=>])\s*|\s+(?=\^)")
_TOKENS = re.compile(r"[^\s,/|]+|[/|]")


@dataclass(frozen=True)
class Where:
    """Whose option a token came from, for every message about it."""

    player: str
    option: str  #: ``--held`` (an option), or a prompt's name (``the held prompt``)

    def says(self, token: str) -> str:
        return f"{self.player}'s {token} ({self.option})"

    def at(self, token: str, position: int, column: int) -> str:
        """``says`` with the token's place: "Ben's W= (--melded, card 1, column 1)"."""
        return f"{self.player}'s {token} ({self.option}, card {position}, column {column})"

    def cards(self) -> str:
        """Whose cards and where typed: "Bill's --held cards", "Bill's cards at the held prompt"."""
        if self.option.startswith("-"):
            return f"{self.player}'s {self.option} cards"
        return f"{self.player}'s cards at {self.option}"


def _closed_up(text: str) -> tuple[str, list[int]]:
    """``text`` with the spaces around = > ^ taken out (``W = 7H`` -> ``W=7H``), and for each of
    its characters the column (1-based) where it was typed."""
    kept: list[str] = []
    columns: list[int] = []
    last = 0
    for m in _SPACED.finditer(text):
        kept.append(text[last:m.start()])
        columns += range(last + 1, m.start() + 1)
        if m.group(1):
            kept.append(m.group(1))
            columns.append(m.start(1) + 1)
        last = m.end()
    kept.append(text[last:])
    columns += range(last + 1, len(text) + 1)
    return "".join(kept), columns


def _tokens(text: str, roster: Sequence[str] = ()) -> Iterator[tuple[tuple[int, ...], str]]:
    """(columns, token) pairs, separators included: the column where each character of the
    token was typed (the first is the token's own). Spaces around = > ^ are not separators. A
    player's name with spaces in it after ``>`` (``7C>Mary Ann``) is one token with its card,
    where the words that follow complete a name of ``roster`` and the first word alone names
    nothing else."""
    closed, at = _closed_up(text)
    found = [(tuple(at[m.start():m.end()]), m.group(0)) for m in _TOKENS.finditer(closed)]
    spaced = [n for n in roster if len(n.split()) > 1]
    i = 0
    while i < len(found):
        columns, token = found[i]
        words = len(_named(token, found[i + 1:], spaced, roster)) if spaced and ">" in token else 0
        if words:
            token = " ".join([token] + [t for _, t in found[i + 1:i + 1 + words]])
        yield columns, token
        i += 1 + words


def _named(token: str, after: list[tuple[tuple[int, ...], str]], spaced: Sequence[str], roster: Sequence[str]) -> list[str]:
    """The tokens after ``token`` that complete the name of a player with spaces in it begun
    after its last ``>`` (the most that do), or none."""
    start = token.rsplit(">", 1)[1].rstrip("^")
    if not start or start.casefold() in _KIND_WORDS or find(start, roster) is not None:
        return []
    most = max(len(n.split()) for n in spaced) - 1
    words: list[str] = []
    best: list[str] = []
    for _, t in after[:most]:
        if t in MELD_SEPARATORS:
            break
        words.append(t)
        if find(" ".join([start, *words]).rstrip("^"), roster) in spaced:
            best = list(words)
    return best


def read_token(token: str, where: Where, roster: Sequence[str], position: int = 1,
               column: int | Sequence[int] = 1) -> Laid:
    """One card token: ``CARD[=CARD](>TARGET)*[^]`` (see the module's table). ``column``: where
    it was typed, or where each of its characters was (a message points at the card it is about)."""
    columns = (column,) if isinstance(column, int) else tuple(column)
    column = columns[0] if columns else 1
    sideways = token.endswith("^")
    body = token.rstrip("^")
    if token.count("^") > 1 or "^" in body:
        raise UnreadableInput(f"{where.says(token)}: '^' marks a card laid sideways, once, at its end",
                              hint="e.g. 3D^ (the 3D sideways on the match of 3s, B6)")
    head, *targets = body.split(">")
    card_text, _, rep_text = head.partition("=")
    if not head and (targets or sideways):  # "Ben=> AD": the card is missing before the '>'
        mark = "'>'" if targets else "'^'"
        raise UnreadableInput(f"{where.at(token, position, column)}: no card before {mark}",
                              hint="write the card, then where it went, e.g. AD>run, AD>Bill, AD>2D or AD^")
    if "=" in head and not card_text:
        raise UnreadableInput(f"{where.at(token, position, column)}: nothing before '='",
                              hint="W=CARD: the WILDCARD, then the card it stands for, e.g. W=7H")
    card = _card(card_text, where, token, position, column)
    stands_for = None
    if "=" in head:
        if card.is_wild and not rep_text:
            raise UnreadableInput(f"{where.at(token, position, column)}: the card the WILDCARD stands for "
                                  "is missing after '='",
                                  hint="write the card after '=', e.g. W=7H, or W alone and ref reads it")
        if not card.is_wild:
            raise UnreadableInput(f"{where.says(token)}: only a WILDCARD stands for another card",
                                  hint=f"write the card alone ({card}), or W=CARD for a WILDCARD")
        at = len(card_text) + 1  # where the card the WILDCARD stands for begins in the token
        stands_for = _card(rep_text, where, token, position, columns[at] if at < len(columns) else column + at)
        if stands_for.is_wild:
            raise UnreadableInput(f"{where.says(token)}: a WILDCARD stands for a natural card", hint="e.g. W=7H")
    fields: dict[str, Any] = {"kind": Kind.MATCH} if sideways else {}
    order: list[str] = []
    for target in targets:
        slot, value = _target(target, where, token, roster)
        if slot in fields and fields[slot] != value:
            raise _two_targets(slot, fields[slot], value, where, token)
        fields[slot] = value
        order += [] if slot in order else [slot]
    laid = Laid(card, stands_for, **fields, caret=sideways, order=tuple(order))
    if laid.beside is not None and laid.beside == card:
        raise UnreadableInput(f"{where.says(token)}: a card cannot join the meld holding itself",
                              hint="name another card of the meld it joined, e.g. AD>2D")
    return laid


def _two_targets(slot: str, first: Any, then: Any, where: Where, token: str) -> UnreadableInput:
    """``5D>2D>3D``, ``AD>Bill>Ben``, ``7H>run^``: one target of each sort, and what to give."""
    said = f"{where.says(token)} says two different things about where the card went"
    if slot == "beside":
        return UnreadableInput(f"{said}: beside the {first} and beside the {then}",
                               hint=f"one card of the meld it joined is enough, e.g. {token.split('>')[0]}>{first}")
    if slot == "player":
        return UnreadableInput(f"{said}: {first}'s meld and {then}'s", hint=f"name one player whose meld it joined, e.g. {token.split('>')[0]}>{first}")
    return UnreadableInput(f"{said}: a run and a match",
                           hint="give one kind (>run or >match; ^ is the match, laid sideways)")


def _card(text: str, where: Where, token: str, position: int, column: int) -> Card:
    try:
        return parse_card(text, position, column)
    except UnreadableCard as exc:
        raise UnreadableCard(text, position, column, exc.hint or "", f"in {where.cards()}") from None


def _target(text: str, where: Where, token: str, roster: Sequence[str]) -> tuple[str, Any]:
    """``run``/``match`` (and synonyms), a card, or a player's name, in that order: a name that
    reads as a kind word or a card cannot join a roster (:func:`rummyref.names.reads_as`)."""
    if not text:
        raise UnreadableInput(f"{where.says(token)}: nothing after '>'",
                              hint="after > write run, match, a player's name or a card of the meld")
    word = text.casefold()
    if word in _KIND_WORDS:
        return "kind", _KIND_WORDS[word]
    try:
        card = parse_card(text)
    except UnreadableCard:
        card = None
    if card is not None:
        if card.is_wild:
            raise UnreadableInput(f"{where.says(token)}: a WILDCARD does not say which meld",
                                  hint="name a natural card of the meld it joined, e.g. >KS")
        return "beside", card
    name = find(text, roster)  # as a name is typed anywhere: any case, or as ref shows a long one
    if name is not None:
        return "player", name
    near = suggest(text, roster)
    maybe = f"did you mean {shown(near, among=roster)}? " if near else ""
    raise UnreadableInput(
        f"{where.says(token)}: {text!r} is not run, match, a card or a player",
        hint=f"{maybe}after > write run, match, one of {', '.join(shown(n, among=roster) for n in roster)}, or "
             "a card of the meld it joined",
    )


def read_melded(text: str, where: Where, roster: Sequence[str]) -> tuple[tuple[tuple[Laid, ...], ...], bool]:
    """``--melded`` for one player: the groups as typed and whether ``/`` split them."""
    groups: list[list[Laid]] = [[]]
    position = 0
    for columns, token in _tokens(text, roster):
        if token in MELD_SEPARATORS:
            groups.append([])
            continue
        position += 1
        groups[-1].append(read_token(token, where, roster, position, columns))
    stated = len(groups) > 1
    return tuple(tuple(g) for g in groups if g), stated


def read_cards(text: str, where: Where) -> tuple[Card, ...]:
    """``--held`` for one player: plain cards; a ``/`` or ``|`` may separate them (it means
    nothing in a hand, and no card after it is dropped). A designation here is refused."""
    cards: list[Card] = []
    for columns, token in _tokens(text):
        if token in MELD_SEPARATORS:
            continue
        laid = read_token(token, where, (), len(cards) + 1, columns) if not re.search(r"[>^]", token) else None
        if laid is None or laid.stands_for is not None:
            went = ("in --melded or --claim" if where.option.startswith("-")
                    else "at the melded prompt or in the Rummy! claims")
            raise UnreadableInput(f"{where.says(token)}: a card left in hand joins no meld and stands for nothing",
                                  hint=f"give the card alone; say where a card went {went}")
        cards.append(laid.card)
    return tuple(cards)


def read_claimed(text: str, where: Where, roster: Sequence[str]) -> tuple[Laid, ...]:
    """``--claim`` for one player: the cards won by Rummy! claims, designations allowed;
    spaces, commas or ``/`` between them."""
    groups, _ = read_melded(text, where, roster)
    cards = tuple(c for g in groups for c in g)
    if not cards:
        raise UnreadableInput(f"{where.option} for {where.player}: which card?", hint='e.g. --claim "Larry=5H"')
    return cards


# -- the whole hand from the options --------------------------------------------------------------


Resolve = Callable[[str], str]  #: a name as typed -> the roster's spelling (or a refusal)


def split_assignment(text: str, option: str) -> tuple[str, str]:
    """``"NAME=VALUE"`` -> (NAME, VALUE); only the first ``=`` splits (``Ben=W=7H``). The value
    as typed, blanks and all: a card's column counts from just after the ``=``."""
    if "=" not in text:
        raise UnreadableInput(f"{option} {text!r} does not say whose it is",
                              hint=f'write {option} "NAME=..." (one player per use)')
    name, value = text.split("=", 1)
    if not name.strip():
        raise UnreadableInput(f"{option} {text!r}: the name before '=' is missing")
    return name.strip(), value


def read_hand(
    roster: Sequence[str],
    melded: Sequence[str] = (),
    held: Sequence[str] = (),
    claims: Sequence[str] = (),
    out: str | None = None,
    resolve: Resolve | None = None,
) -> CardFacts:
    """The facts of a hand from ``score-hand``'s options (each ``"NAME=CARDS"``): one
    ``--melded`` and one ``--held`` per player at most, any number of ``--claim``. Players
    not named put nothing down and hold nothing. ``resolve`` spells a typed name the roster's
    way (default: :func:`rummyref.names.resolve_name`, A1's refusal for a newcomer)."""
    spell = resolve or (lambda name: resolve_name(name, roster, "this game"))
    laid: dict[str, tuple[tuple[tuple[Laid, ...], ...], bool]] = {}
    for text in melded:
        name, value = _whose(text, "--melded", spell, laid)
        laid[name] = read_melded(value, Where(name, "--melded"), roster)
    kept: dict[str, tuple[Card, ...]] = {}
    for text in held:
        name, value = _whose(text, "--held", spell, kept)
        kept[name] = read_cards(value, Where(name, "--held"))
    won: list[tuple[str, Laid]] = []
    for text in claims:
        name, value = split_assignment(text, "--claim")
        name = spell(name)
        won += [(name, c) for c in read_claimed(value, Where(name, "--claim"), roster)]
    return assemble(roster, laid, kept, spell(out) if out else None, won)


def _whose(text: str, option: str, spell: Resolve, seen: Mapping[str, object]) -> tuple[str, str]:
    name, value = split_assignment(text, option)
    name = spell(name)
    if name in seen:
        raise UnreadableInput(f"{option} was given twice for {name}", hint="one use per player")
    return name, value


def assemble(
    roster: Sequence[str],
    melded: Mapping[str, tuple[tuple[tuple[Laid, ...], ...], bool]],
    held: Mapping[str, tuple[Card, ...]],
    out: str | None,
    claims: Sequence[tuple[str, Laid]],
    at_prompt: frozenset[str] = frozenset(),
) -> CardFacts:
    """The facts in deal order, from each player's parts (as :func:`read_melded` and
    :func:`read_cards` return them); ``at_prompt``: see :attr:`CardFacts.at_prompt`."""
    players = tuple(
        (n, PlayerCards(melded.get(n, ((), False))[0], tuple(held.get(n, ())), melded.get(n, ((), False))[1]))
        for n in roster
    )
    return CardFacts(players, out, tuple(claims), at_prompt)


# -- checks on the facts as a whole ---------------------------------------------------------------


def where_cards(facts: CardFacts) -> Iterator[tuple[Card, Where]]:
    """Every card typed for the hand, with whose option it came from."""
    for name, p in facts.players:
        for laid in p.laid:
            yield laid.card, Where(name, facts.option(name))
        for card in p.held:
            yield card, Where(name, facts.option(name, held=True))
    for name, laid in facts.claims:
        yield laid.card, Where(name, facts.option(name, claimed=True))


def check_facts(facts: CardFacts, roster: Sequence[str], wildcards: int) -> None:
    """One deck, no more WILDCARDs than the game uses, names on the roster, the player who
    went out holds nothing, and every designation refers to something on the table."""
    for name in [n for n, _ in facts.players] + [n for n, _ in facts.claims] + ([facts.out] if facts.out else []):
        if name not in roster:
            raise UnreadableInput(f"{name} is not at the table", hint=f"the players are {', '.join(roster)}")
    first: dict[Card, Where] = {}
    for card, where in where_cards(facts):
        if card.is_wild:
            continue
        if card in first:
            other = first[card]
            raise DuplicateCard(str(card), f"in {other.player}'s {other.option} and {where.player}'s {where.option}")
        first[card] = where
    wild = Counter(c.is_wild for c, _ in where_cards(facts))[True]
    if wild > wildcards:
        raise TooManyWildcards(wild, wildcards)
    if facts.out is not None and facts.player(facts.out).held:
        held = facts.player(facts.out).held
        raise RuleRefusal(
            f"{facts.out} went out, so {facts.out} holds nothing, but {' '.join(map(str, held))} "
            f"{'was' if len(held) == 1 else 'were'} given as left in hand ({facts.option(facts.out, held=True)})",
            hint="a player who went out melded every card (the last one may have been discarded)",
        )
    _check_referents(facts, first)


def _check_referents(facts: CardFacts, placed: Mapping[Card, Where]) -> None:
    """``>NAME`` needs cards NAME put on the table; ``>2D`` needs the 2D on the table."""
    on_table = {c: w for c, w in placed.items() if w.option not in ("--held", "the held prompt")}
    stood = {laid.stands_for: (laid, w) for laid, w in laid_cards(facts) if laid.card.is_wild and laid.stands_for}
    layers = Counter(name for name, p in facts.players for _ in p.laid) + Counter(n for n, _ in facts.claims)
    for laid, where in laid_cards(facts):
        if laid.player is not None and layers[laid.player] - (laid.player == where.player) < 1:
            raise UnreadableInput(f"{where.says(str(laid))}: {laid.player} put no other card on the table",
                                  hint=f"name a player whose meld the {laid.card} joined, or leave >{laid.player} out")
        if laid.beside is not None and laid.beside not in on_table and laid.beside in stood:
            wild, at = stood[laid.beside]
            raise UnreadableInput(
                f"{where.says(str(laid))}: the {laid.beside} on the table is {at.player}'s WILDCARD "
                f"({wild.card}={laid.beside}); '>' names a card laid as itself",
                hint=f"name another card of that meld, or whose meld it is (>{at.player})")
        if laid.beside is not None and laid.beside not in on_table:
            held_by = placed.get(laid.beside)
            why = f"it is in {held_by.player}'s hand" if held_by else "nobody laid it"
            raise UnreadableInput(f"{where.says(str(laid))}: the {laid.beside} is not on the table ({why})",
                                  hint="after > name a card of the meld it joined, or run, match, a player")


def laid_cards(facts: CardFacts) -> Iterator[tuple[Laid, Where]]:
    """Every card on the table (melded, laid off or claimed) with whose option it came from."""
    for name, p in facts.players:
        for laid in p.laid:
            yield laid, Where(name, facts.option(name))
    for name, laid in facts.claims:
        yield laid, Where(name, facts.option(name, claimed=True))


# -- facts <-> JSON (version 2) ------------------------------------------------------------------


def facts_to_json(facts: CardFacts) -> dict[str, Any]:
    """The facts as the record keeps them: cards as the notation writes them back."""
    return {
        "form": "cards",
        "version": FACTS_VERSION,
        "players": {
            n: {"melded": [[str(c) for c in g] for g in p.melded], "designated": p.stated, "held": [str(c) for c in p.held]}
            for n, p in facts.players
        },
        "out": facts.out,
        "claims": [[n, str(c)] for n, c in facts.claims],
    }


def facts_from_json(data: Mapping[str, Any], roster: Sequence[str]) -> CardFacts:
    """:func:`facts_to_json`'s output back (players in deal order)."""
    players = {}
    for n in roster:
        p = data["players"].get(n)
        if p is None:
            continue
        where = Where(n, "record")
        melded = tuple(tuple(read_token(t, where, roster) for t in g) for g in p["melded"])
        players[n] = (melded, bool(p.get("designated", False)))
    held = {n: tuple(parse_card(c) for c in data["players"][n]["held"]) for n in roster if n in data["players"]}
    claims = [(n, read_token(t, Where(n, "record"), roster)) for n, t in data.get("claims", [])]
    return assemble([n for n in roster if n in data["players"]], players, held, data.get("out"), claims)


__all__ = [
    "FACTS_VERSION",
    "CardFacts",
    "Kind",
    "Laid",
    "PlayerCards",
    "Where",
    "assemble",
    "check_facts",
    "facts_from_json",
    "facts_to_json",
    "laid_cards",
    "read_cards",
    "read_claimed",
    "read_hand",
    "read_melded",
    "read_token",
    "split_assignment",
]  # fmt: skip
