"""Two terminals at once: the optimistic check that catches a hand entered twice.

``ref score-hand`` reads the game (and, at a terminal, asks for the cards) *before* it opens its
write transaction. Meanwhile another terminal may record the very hand being typed. The write
therefore carries what the reader saw -- the number the next hand would get -- and, inside the
``BEGIN IMMEDIATE`` transaction (the write lock held, so nothing can move underneath), checks
that it still holds. If not, the write is refused with :class:`WriteConflict` (exit 7) and
nothing is written; run again and the hand takes the next number.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from rummyref.errors import WriteConflict


@dataclass(frozen=True)
class Position:
    """Where the log of a game stood when a command read it."""

    game: str
    next_hand: int


def position(rec, g) -> Position:
    """The game's position now (call inside a read or the write transaction)."""
    last = rec.sql("SELECT COALESCE(MAX(hand), 0) FROM entry WHERE game_id = :g", g=g.id).scalar()
    return Position(g.name, int(last or 0) + 1)


def expect(rec, g, seen: Position) -> None:
    """Refuse the write if another terminal recorded a hand since ``seen`` was read."""
    now = position(rec, g)
    if now.next_hand == seen.next_hand:
        return
    row = rec.sql(
        "SELECT e.hand, e.dealer, e.seq, e.created_at, s.number FROM entry e LEFT JOIN session s ON s.id = e.session_id "
        "WHERE e.game_id = :g AND e.hand = :h ORDER BY e.seq LIMIT 1",
        g=g.id, h=seen.next_hand,
    ).first()
    hand, night = ("game", "session") if _low_count(g) else ("hand", "Rummy Night")
    what = (
        f"{hand} {row[0]} of {g.name} ({night} {row[4]}, dealt by {row[1]}, entry {row[2]} at {row[3]})"
        if row else f"{hand}s {seen.next_hand} to {now.next_hand - 1} of {g.name}"
    )
    raise WriteConflict(
        f"another terminal recorded {what} while this {hand} was being entered; nothing was written",
        hint=f"check ref history; if yours is a different {hand}, run the command again: it will be {hand} {now.next_hand}",
    )


def _low_count(g) -> bool:
    """Simple Rummy and other low-count games speak of games and sessions, not hands and nights."""
    try:
        return json.loads(g.options or "{}").get("method") == "low-count"
    except (ValueError, AttributeError):
        return False
