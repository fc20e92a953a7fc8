"""Tamper evidence: each recorded entry carries a SHA-256 over a canonical JSON of its
content and the hash of the entry before it (one chain per game), and the record as a whole
has a short **seal**: a code for the heads of all its chains, to be kept off the machine.

Pure: no database here. The store appends and checks; this module says what a hash and a
seal are, so that ``ref verify`` and the writers can never disagree about them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from rummyref.errors import UnreadableInput

GENESIS = "0" * 64


class EntryKind(StrEnum):
    """What an entry of the log records. Every fact a user sees is stated by one of them."""

    HEADER = "header"  #: seq 1 of a game: name, rule set and its text, target, WILDCARDs, options, roster
    SESSION_OPEN = "session-open"  #: a night opened: its number, date, options, newcomers seated
    SESSION_CLOSE = "session-close"  #: a night closed: its number and date
    HAND = "hand"  #: a hand (Simple Rummy: a game) and its results
    AMEND = "amend"  #: a correction of a hand
    VOID = "void"  #: a hand that does not count
    RULING = "ruling"  #: a precedent
    ADOPT = "adopt"  #: a 0.1 record upgraded: the header and nights as found, stated once

    @property
    def scores(self) -> bool:
        """Entries that decide a hand's result in force (the last one of the hand wins)."""
        return self in (EntryKind.HAND, EntryKind.AMEND, EntryKind.VOID)


#: entries that only state the header and the nights (``ref history`` lists the others)
BOOKKEEPING = frozenset({EntryKind.HEADER, EntryKind.SESSION_OPEN, EntryKind.SESSION_CLOSE, EntryKind.ADOPT})


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(payload: dict[str, Any], prev_hash: str) -> str:
    text = canonical({"entry": payload, "prev": prev_hash})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- the seal ------------------------------------------------------------------------------

#: Crockford's base32: digits and capitals without I, L, O, U (no 0/O or 1/I/L confusion aloud)
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SEAL_CHARS = 10  #: 50 bits: a wrong or forged seal matches by chance once in 10^15
_READ_AS = {"O": "0", "I": "1", "L": "1"}


def seal(heads: Mapping[str, tuple[int, str]]) -> str:
    """The seal of a record whose games' chains end at ``heads`` (game -> (seq, hash)),
    written ``XXXX-XXXX-XX``. Games with no entry yet are left out."""
    text = canonical(sorted([name, seq, h] for name, (seq, h) in heads.items() if seq > 0))
    value = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> (64 - 5 * SEAL_CHARS)
    chars = "".join(ALPHABET[(value >> (5 * i)) & 31] for i in reversed(range(SEAL_CHARS)))
    return f"{chars[:4]}-{chars[4:8]}-{chars[8:]}"


def read_seal(typed: str) -> str:
    """A seal as typed (any case, with or without dashes or spaces; O read as 0, I and L as 1)
    -> its canonical form; anything else is refused, naming the character."""
    chars = "".join(c for c in typed.upper() if c not in "- ")
    chars = "".join(_READ_AS.get(c, c) for c in chars)
    bad = next((c for c in chars if c not in ALPHABET), None)
    if bad is not None:
        raise UnreadableInput(f"--seal {typed!r}: {bad!r} is not a character of a seal",
                              hint=f"a seal is {SEAL_CHARS} of {ALPHABET}, e.g. 7K2M-QX4P-9D")
    if len(chars) != SEAL_CHARS:
        raise UnreadableInput(f"--seal {typed!r} has {len(chars)} characters, not {SEAL_CHARS}",
                              hint="as ref printed it, e.g. 7K2M-QX4P-9D")
    return f"{chars[:4]}-{chars[4:8]}-{chars[8:]}"
