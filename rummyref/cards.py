"""Cards as typed at the table, and the one parser that reads them (SPEC §2).

Cards are frozen value objects made from two enums. Text enters only through
:func:`parse_cards` / :func:`parse_melds`; ``str(card)`` prints the canonical
notation back (``AS``, ``10H``, ``W``), which the parser reads again.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from rummyref.errors import DuplicateCard, TooManyWildcards, UnreadableCard


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        return _RANK_LABEL[self]


_RANK_LABEL = {r: str(int(r)) for r in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
RANKS: tuple[Rank, ...] = tuple(Rank)


@dataclass(frozen=True, slots=True)
class Card:
    """A card: a natural card (rank and suit) or a WILDCARD (neither).

    WILDCARDs are interchangeable, so every WILDCARD equals every other one.
    """

    rank: Rank | None = None
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise ValueError("a card has both a rank and a suit, or neither (a WILDCARD)")

    @property
    def is_wild(self) -> bool:
        return self.rank is None

    @property
    def index(self) -> int:
        """0-51 for natural cards (suit-major: spades A..K, hearts, diamonds, clubs); 52 for WILDCARD."""
        if self.rank is None or self.suit is None:
            return 52
        return _SUIT_INDEX[self.suit] * 13 + int(self.rank) - 1

    @classmethod
    def from_index(cls, index: int) -> Card:
        if index == 52:
            return WILD
        return _BY_INDEX[index]

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "W"
        return f"{_RANK_LABEL[self.rank]}{self.suit.value}"

    def pretty(self) -> str:
        """The card with a suit symbol, for display: ``A♠``, ``10♥``, ``W``."""
        if self.rank is None or self.suit is None:
            return "W"
        return f"{_RANK_LABEL[self.rank]}{_SUIT_SYMBOL[self.suit]}"

    def __repr__(self) -> str:
        return f"Card({self})"

    def sort_key(self) -> tuple[int, int]:
        """Suit then rank, WILDCARDs last."""
        if self.rank is None or self.suit is None:
            return (4, 0)
        return (_SUIT_INDEX[self.suit], int(self.rank))


WILD = Card()
_BY_INDEX = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
DECK: tuple[Card, ...] = _BY_INDEX

# -- the parser ---------------------------------------------------------------------------

WILD_WORDS = frozenset({"W", "WILD", "WILDCARD", "JOKER", "JK", "*"})
_RANK_WORDS = {label: rank for rank, label in _RANK_LABEL.items()} | {"T": Rank.TEN}
_SUIT_WORDS = {
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}  # fmt: skip
_RANK_RE = "10|[2-9]|[TJQKA]"
_SUIT_RE = "[SHDC♠♤♥♡♦♢♣♧]"
_CARD_RE = re.compile(rf"^(?:(?P<r1>{_RANK_RE})(?P<s1>{_SUIT_RE})|(?P<s2>{_SUIT_RE})(?P<r2>{_RANK_RE}))$")
_TOKEN_RE = re.compile(r"[^\s,/|]+|[/|]")
MELD_SEPARATORS = frozenset("/|")

#: The words the table notation (SPEC §7) reads after ``>`` as the kind of meld a card counts
#: for (B5), case-insensitively, each with its kind: ``AD>run``, ``AD>set``. A player may not be
#: named one (:func:`rummyref.names.reads_as`).
KIND_WORDS = {"run": "run", "sequence": "run", "seq": "run",
              "match": "match", "group": "match", "set": "match"}  # fmt: skip

VALID_CARD_HINT = (
    "write a rank (A, 2-10, J, Q, K; T means 10) and a suit (S, H, D, C or ♠ ♥ ♦ ♣), "
    "in either order, e.g. 10H, h10, ♥5, 5♥; a WILDCARD is W, WILD, WILDCARD, JOKER, JK or *"
)


def _spelled(token: str) -> str:
    """A token as the parser reads it: no surrounding blanks, no emoji variation selector, upper case."""
    return token.strip().replace("\ufe0f", "").upper()


def is_wildcard(token: str) -> bool:
    """Whether the card parser reads ``token`` as a WILDCARD: any spelling of :data:`WILD_WORDS`
    (``W``, ``wild``, ``Joker``, ``JK``, ``*``), in any case."""
    return _spelled(token) in WILD_WORDS


def parse_card(token: str, position: int = 1, column: int = 1) -> Card:
    """Read one card token. ``position`` and ``column`` are for the error message (1-based)."""
    text = _spelled(token)
    if text in WILD_WORDS:
        return WILD
    m = _CARD_RE.match(text)
    if m is None:
        raise UnreadableCard(token, position, column, _hint_for(text))
    rank = _RANK_WORDS[m.group("r1") or m.group("r2")]
    suit = _SUIT_WORDS[m.group("s1") or m.group("s2")]
    return Card(rank, suit)


def _hint_for(text: str) -> str:
    if text.startswith("1") and not text.startswith("10") and len(text) == 2:
        return f"an ace is A (did you mean A{text[1:]}?); " + VALID_CARD_HINT
    if text and all(ch in _SUIT_WORDS for ch in text):
        return "that is only a suit; " + VALID_CARD_HINT
    if text in _RANK_WORDS:
        return "that is only a rank, the suit is missing; " + VALID_CARD_HINT
    return VALID_CARD_HINT


def parse_melds(text: str) -> list[list[Card]]:
    """Read cards, split into groups where the player wrote ``/`` or ``|``.

    Empty groups (``7S 8S 9S /``) are dropped. Text with no separator is one group.
    """
    groups: list[list[Card]] = [[]]
    position = 0
    for m in _TOKEN_RE.finditer(text):
        token = m.group(0)
        if token in MELD_SEPARATORS:
            groups.append([])
            continue
        position += 1
        groups[-1].append(parse_card(token, position, m.start() + 1))
    return [g for g in groups if g] if len(groups) > 1 else groups


def parse_cards(text: str) -> list[Card]:
    """Read a list of cards; any ``/`` or ``|`` separators are ignored."""
    return [card for group in parse_melds(text) for card in group]


def check_deck(cards: Iterable[Card], max_wildcards: int, where: str = "",
               fixed: str | None = None) -> None:
    """One physical deck: no natural card twice, no more WILDCARDs than the game uses
    (``fixed``: who fixed that number, see :class:`TooManyWildcards`; None: the rule set)."""
    counts = Counter(cards)
    for card, n in counts.items():
        if not card.is_wild and n > 1:
            raise DuplicateCard(str(card), where)
    wild = counts.get(WILD, 0)
    if wild > max_wildcards:
        raise TooManyWildcards(wild, max_wildcards, fixed)


def read_cards_of(text: str, where: str) -> list[Card]:
    """:func:`parse_cards`, an unreadable card named with ``where``, whose cards and which
    option or prompt: "unreadable card '3x' in Bill's --hand cards (card 1, column 1)"."""
    try:
        return parse_cards(text)
    except UnreadableCard as exc:
        raise UnreadableCard(exc.token, exc.position, exc.column, exc.hint or "", where) from None


def check_holders(held: Iterable[tuple[str, Iterable[Card]]], max_wildcards: int | None,
                  fixed: str | None = None) -> None:
    """One deck across several holders (``(whose, cards)``, e.g. ("Ann's --hand cards", ...)):
    a card given twice names both holders, or the one who holds it twice. ``max_wildcards``
    None: the WILDCARDs are counted elsewhere."""
    first: dict[Card, str] = {}
    wild = 0
    for whose, cards in held:
        for card in cards:
            if card.is_wild:
                wild += 1
                continue
            if card in first:
                both = whose if first[card] == whose else f"{first[card]} and {whose}"
                raise DuplicateCard(str(card), f"in {both}")
            first[card] = whose
    if max_wildcards is not None and wild > max_wildcards:
        raise TooManyWildcards(wild, max_wildcards, fixed)


def format_cards(cards: Sequence[Card], pretty: bool = False) -> str:
    return " ".join(c.pretty() if pretty else str(c) for c in cards)
