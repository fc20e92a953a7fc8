"""The range of every whole number a user can give ``ref``, in one place.

Python's integers have no limit, SQLite's and PostgreSQL's stop at 2^63 - 1, and a total
that passes that limit turns into a float or an overflow: one huge number could poison the
record for good. So every number typed (an option, an argument, an answer at a prompt, a
value in an import) is read here and refused with exit 3 outside a range that makes sense
for the game, before anything is written. The ranges are chosen so that no total can ever
leave 64 bits: at most 10^9 hands of at most 10,000 points on top of an opening of at most
10^9 stays below 1.1 * 10^13, six orders of magnitude below 2^63 (SQLite); on PostgreSQL
the columns are 32-bit, which openings and targets fit (see docs/operations/input-and-limits.md).

``docs/operations/input-and-limits.md`` lists each range and why; keep the two in step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rummyref.errors import UnreadableInput

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Bound:
    """The accepted range ``lo..hi`` (inclusive) and, for the refusal, what it measures."""

    lo: int
    hi: int
    unit: str  #: "points", "WILDCARDs": how the range reads in a message
    why: str  #: one sentence: why the range ends there

    def describe(self) -> str:
        return f"{self.lo:,} to {self.hi:,} {self.unit}".rstrip()

    def check(self, value: int, what: str) -> int:
        """``value`` itself, or :class:`UnreadableInput` naming ``what`` and the range."""
        if not self.lo <= value <= self.hi:
            raise UnreadableInput(f"{what}: {short(str(value))} is out of range; give {self.describe()}",
                                  hint=self.why)
        return value


#: The most a card-scored hand of any rule set can be worth (a rule set whose whole deck
#: could be worth more is refused when it is loaded), so typed points share the same limit.
HAND_POINTS_MAX = 10_000
#: The most WILDCARDs any rule set may use (the rule-set loader's own limit).
WILDCARDS_MAX = 54
#: One deck and the most WILDCARDs.
DECK_CARDS_MAX = 52 + WILDCARDS_MAX

HAND_POINTS = Bound(-HAND_POINTS_MAX, HAND_POINTS_MAX, "points",
                    "a hand is never worth more than the whole deck (426 points in Rummy "
                    "2,000,000); no rule set's deck may be worth over 10,000")
OPENING = Bound(-(10**9), 10**9, "points",
                "an opening balance is a total carried over from paper; 10^9 is far past any target "
                "(and fits the record's columns on every back-end)")
TARGET = Bound(1, 10**9, "points", "a game's target is at most 10^9 points")
HAND_NUMBER = Bound(1, 10**9, "", "hands are numbered from 1; a billion hands is more than any table will play")
HANDS_SHOWN = Bound(1, 10**9, "", "a count of the last hands to show, from 1; a billion hands is more than any "
                   "table will play")
NIGHT_NUMBER = Bound(1, 10**9, "", "sessions are numbered from 1; a billion is more than any table will meet")
HANDS_PLAYED = Bound(0, 10**9, "hands", "a session cannot have played more than a billion hands")
WILDCARDS = Bound(0, WILDCARDS_MAX, "WILDCARDs", f"no rule set may use more than {WILDCARDS_MAX} WILDCARDs")
CARDS_DEALT = Bound(0, DECK_CARDS_MAX, "cards",
                    f"no hand can hold more cards than a deck with the most WILDCARDs ({DECK_CARDS_MAX})")
UNMELDED_COUNT = Bound(0, HAND_POINTS_MAX, "", "a count of unmelded cards is at most a whole deck's worth")
#: A cached total: an opening plus every hand, each at its limit.
TOTAL = Bound(OPENING.lo + HAND_NUMBER.hi * HAND_POINTS.lo, OPENING.hi + HAND_NUMBER.hi * HAND_POINTS.hi,
              "points", "a total is an opening balance plus at most 10^9 hands of at most 10,000 points")
CHART_WIDTH = Bound(20, 10_000, "", "a chart is 20 to 10,000 columns (or pixels) wide")
CHART_HEIGHT = Bound(8, 10_000, "", "a chart is 8 to 10,000 lines (or pixels) high")
ROW_ID = Bound(1, INT64_MAX, "", "a row id is a positive 64-bit integer")
STORED = Bound(INT64_MIN, INT64_MAX, "", "the database stores 64-bit integers")

_SEPARATORS = str.maketrans("", "", ",_")  # 1,000 and 1_000 are both a thousand
#: Written as a number: a sign, then digits and separators (whether they group well is told apart).
_NUMBER_LIKE = re.compile(r"[+-]?[0-9][0-9,_]*")
#: A whole number as accepted: plain digits, or groups of three after the first, all split by
#: the same separator (``1,000``, ``2_000_000``; not ``1,0``, ``10,00`` or ``1,000_000``).
_WHOLE = re.compile(r"[+-]?(?:[0-9]+|[0-9]{1,3}(?P<sep>[,_])[0-9]{3}(?:(?P=sep)[0-9]{3})*)")
_DIGITS_MAX = 30  # past this many significant digits no range here can hold the number


def bounded_int(text: str, what: str, bound: Bound) -> int:
    """A whole number as typed (``-10``, ``+5``, ``1,000``), within ``bound``.

    ``what`` names the number in the refusal (``"Bill's points"``, ``"--opening Ann"``).
    Unreadable text, badly grouped thousands (``1,0``) and numbers out of range are all
    :class:`UnreadableInput` (exit 3); a number of any length is refused without being
    converted, so even a 10,000-digit answer costs nothing and is never "too large to convert"."""
    cleaned = text.strip().translate(_SEPARATORS)
    if is_number_like(text) and not _WHOLE.fullmatch(text.strip()):
        raise UnreadableInput(f"{what}: {short(text.strip())!r} is not a whole number: a separator "
                              f"(, or _) sets off groups of three digits",
                              hint=f"write it without separators, or as 1,000 or 2,000,000; give {bound.describe()}")
    if not is_whole(text):
        raise UnreadableInput(f"{what}: {short(text)!r} is not a whole number",
                              hint=f"give a whole number from {bound.describe()}, e.g. 45 or -10"
                              if bound.lo < 0 else f"give a whole number from {bound.describe()}")
    if len(cleaned.lstrip("+-").lstrip("0")) > _DIGITS_MAX:
        raise UnreadableInput(f"{what}: {short(text.strip())} is out of range; give {bound.describe()}",
                              hint=bound.why)
    return bound.check(int(cleaned), what)


def is_whole(text: str) -> bool:
    """Is ``text`` written as a whole number (of any size), its thousands well grouped?"""
    return bool(_WHOLE.fullmatch(text.strip()))


def is_number_like(text: str) -> bool:
    """Is ``text`` digits and separators, however grouped (``1,0`` is: a number badly written)?"""
    return bool(_NUMBER_LIKE.fullmatch(text.strip()))


def short(text: str, keep: int = 24) -> str:
    """A number as typed, cut to fit a message (a 10,000-digit answer is not echoed whole)."""
    return text if len(text) <= keep else f"{text[:keep // 2]}...{text[-keep // 2:]} ({len(text):,} characters)"
