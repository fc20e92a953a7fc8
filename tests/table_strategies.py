"""Random legal Rummy 2,000,000 tables (SPEC §7) for the property tests: melds, lay-offs,
Rummy! claims, WILDCARDs (stated or not), designations true of the table, cards laid sideways,
and cards left in hand. Also reading what ``ref`` printed back, to check it against the credits."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import strategies as st

from rummyref.cards import SUITS, Card, Rank

ROSTER = ("Bill", "Ben", "Larry")


def _run(suit, start, n):
    return [Card(Rank.ACE if p == 14 else Rank(p), suit) for p in range(start, start + n)]


@st.composite
def legal_tables(draw, roster=ROSTER, wildcards=2):
    """``(melded, held, claims)`` as ``score-hand`` options: the melds on the table (a core of
    three laid by one player, the other cards laid off or claimed by anyone, with or without a
    designation that is true of the table: the kind, a player of the core, a card of the core,
    ``^`` on a match; one or two of the core's three now and then won by its player's claim, the
    rest a group of their own), some cards as WILDCARDs (``W=CARD`` or a bare ``W``), each player
    stating their melds with '/' or not; and cards left in hand, none on the table."""
    used: set[Card] = set()
    melds = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            n = draw(st.integers(3, 6))
            cards = _run(draw(st.sampled_from(SUITS)), draw(st.integers(1, 15 - n)), n)
            kind = "run"
        else:
            rank = Rank(draw(st.integers(1, 13)))
            cards = [Card(rank, s) for s in draw(st.permutations(SUITS))[: draw(st.integers(3, 4))]]
            kind = "match"
        if not used.intersection(cards):
            used.update(cards)
            melds.append((kind, cards))
    wild = 0
    parts: dict[str, list[str]] = {n: [] for n in roster}
    claims = []
    for kind, cards in melds:
        core_at = draw(st.integers(0, len(cards) - 3))
        owner = draw(st.sampled_from(roster))
        tokens = []
        for card in cards:
            token = str(card)
            if wild < wildcards and draw(st.integers(0, 6)) == 0:
                wild += 1
                token = "W" + (f"={card}" if draw(st.booleans()) else "")
            tokens.append(token)
        core = tokens[core_at:core_at + 3]
        if all(t.startswith("W") for t in core):
            used.difference_update(cards)
            continue
        naturals = [t for t in core if not t.startswith("W")]
        marks = ["", "", f">{kind}", f">{owner}", f">{naturals[0]}"]
        if draw(st.integers(0, 3)) == 0:  # the owner won one or two of the three by a Rummy! claim
            won = draw(st.sets(st.integers(0, 2), min_size=1, max_size=2))
            claims += [f"{owner}={t}" for i, t in enumerate(core) if i in won]
            core = [t for i, t in enumerate(core) if i not in won]
        parts[owner].append(" ".join(core))
        for i, token in enumerate(tokens):
            if core_at <= i < core_at + 3:
                continue
            how = draw(st.sampled_from(marks + (["^"] if kind == "match" and token[0] != "W" else [])))
            who = draw(st.sampled_from(roster))
            if draw(st.integers(0, 3)) == 0:
                claims.append(f"{who}={token}{how}")
            else:
                parts[who].append(token + how)
    melded = []
    for name, texts in parts.items():
        if texts:
            melded.append(f"{name}={(' / ' if draw(st.booleans()) else ' ').join(texts)}")
    spare = sorted((Card(r, s) for r in Rank for s in SUITS if Card(r, s) not in used), key=Card.sort_key)
    held = []
    for name in roster:
        cards = [str(c) for c in draw(st.lists(st.sampled_from(spare), max_size=3, unique=True))]
        spare = [c for c in spare if str(c) not in cards]
        if wild < wildcards and draw(st.integers(0, 5)) == 0:
            wild += 1
            cards.append("W")
        held.append(f"{name}={' '.join(cards)}")
    return melded, held, claims


MELD_LINE = re.compile(r"^  (?P<cards>.+?) +\[(?P<note>[^\]]+), (?P<value>-?[\d,]+)\](?P<how>.*)$")
CREDIT_LINE = re.compile(r"^  (?P<name>\w+): (?P<terms>.*) = (?P<points>-?[\d,]+)$")
OWNED = re.compile(r"(?P<cards>(?:\S+ )+?)\((?P<who>\w+)\)")


def printed(text: str) -> tuple[list[dict], dict[str, int]]:
    """The melds and the credit lines of an arrangement as printed (continuation lines joined):
    ``[{cards: [(card, who)], value, note, how}]`` and ``{player: points}``."""
    logical: list[str] = []
    for line in text.splitlines():
        if line.startswith("      ") and logical:
            logical[-1] += " " + line.strip()
        else:
            logical.append(line)
    melds, credits = [], {}
    section = None
    for line in logical:
        if line.startswith("Arrangement used:"):
            section = "melds"
        elif line.startswith("Credits"):
            section = "credits"
        elif not line.startswith("  "):
            section = None
        elif section == "melds" and (m := MELD_LINE.match(line)):
            owned = [(c, o["who"]) for o in OWNED.finditer(m["cards"] + " ") for c in o["cards"].split()]
            melds.append({"cards": owned, "value": int(m["value"].replace(",", "")), "note": m["note"],
                          "how": m["how"].strip()})
        elif section == "credits" and (c := CREDIT_LINE.match(line)):
            credits[c["name"]] = int(c["points"].replace(",", ""))
    return melds, credits


def bare(shown: str) -> str:
    """A card as printed, without its marks: ``W(=7H)`` and ``W=7H`` -> ``W``, ``7D^*`` -> ``7D``."""
    return "W" if shown.startswith("W") else shown.rstrip("^*")


def typed_cards(melded, claims) -> Counter:
    """Every card put on the table, as (card, player)."""
    out: Counter = Counter()
    for text in list(melded) + list(claims):
        name, cards = text.split("=", 1)
        for token in re.split(r"[\s/]+", cards.strip()):
            if token:
                out[("W" if token.startswith("W") else re.split(r"[>^=]", token)[0], name)] += 1
    return out
