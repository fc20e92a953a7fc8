"""Two terminals at once: the optimistic check that catches a write made on a stale read.

``ref score-hand`` (and ``amend``, and the night shell) read the game (and, at a terminal, ask
for the cards) *before* opening the write transaction. Meanwhile another terminal may record
the very hand being typed, end the night and open the next one, or correct the same hand. The
write therefore carries what the reader saw -- the :class:`Position`: the number the next hand
would get, the night open at the time and, for a correction, the hand's entry in force -- and,
inside the ``BEGIN IMMEDIATE`` transaction (the write lock held, so nothing can move
underneath), checks that it still holds. If not, the write is refused with
:class:`WriteConflict` (exit 7) and nothing is written; run again on the fresh record.

``ref void`` reads and writes in one transaction, so it cannot act on a stale read.
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
    night: int | None  #: the number of the night open then (None: none was open)
    entry: int | None = None  #: for a correction: the seq of the corrected hand's entry in force


def position(rec, g, hand: int | None = None) -> Position:
    """The game's position now (call inside a read or the write transaction); with ``hand``,
    the entry now in force for that hand too."""
    last = rec.sql("SELECT COALESCE(MAX(hand), 0) FROM entry WHERE game_id = :g", g=g.id).scalar()
    night = rec.sql("SELECT number FROM session WHERE game_id = :g AND closed_at IS NULL", g=g.id).scalar()
    entry = None
    if hand is not None:
        entry = rec.sql("SELECT MAX(seq) FROM entry WHERE game_id = :g AND hand = :h", g=g.id, h=hand).scalar()
    return Position(g.name, int(last or 0) + 1, None if night is None else int(night),
                    None if entry is None else int(entry))


def expect(rec, g, seen: Position, hand: int | None = None) -> None:
    """Refuse the write if, since ``seen`` was read, another terminal recorded a hand or changed
    the open night (a new hand), or corrected ``hand`` (a correction: new hands and nights do
    not concern it)."""
    now = position(rec, g, hand)
    words = ("game", "session") if _low_count(g) else ("hand", "Rummy Night")
    if hand is None and now.next_hand != seen.next_hand:
        _another_hand(rec, g, seen, now, words)
    if hand is None and now.night != seen.night:
        _another_night(g, seen, now, words)
    if hand is not None and now.entry != seen.entry:
        raise WriteConflict(
            f"another terminal corrected {words[0]} {hand} of {g.name} (entry {now.entry}) while this "
            f"correction was being entered (it read entry {seen.entry}); nothing was written",
            hint=f"check ref history; if yours is still needed, run the command again on {words[0]} {hand} as it is now",
        )


def _another_hand(rec, g, seen: Position, now: Position, words: tuple[str, str]) -> None:
    row = rec.sql(
        "SELECT e.hand, e.dealer, e.seq, e.created_at, s.number FROM entry e LEFT JOIN session s ON s.id = e.session_id "
        "WHERE e.game_id = :g AND e.hand = :h ORDER BY e.seq LIMIT 1",
        g=g.id, h=seen.next_hand,
    ).first()
    hand, night = words
    what = (
        f"{hand} {row[0]} of {g.name} ({night} {row[4]}, dealt by {row[1]}, entry {row[2]} at {row[3]})"
        if row else f"{hand}s {seen.next_hand} to {now.next_hand - 1} of {g.name}"
    )
    raise WriteConflict(
        f"another terminal recorded {what} while this {hand} was being entered; nothing was written",
        hint=f"check ref history; if yours is a different {hand}, run the command again: it will be {hand} {now.next_hand}",
    )


def _another_night(g, seen: Position, now: Position, words: tuple[str, str]) -> None:
    hand, night = words
    was = f"{night} {seen.night}" if seen.night is not None else f"no {night}"
    is_ = f"{night} {now.night} is open" if now.night is not None else f"no {night} is open"
    raise WriteConflict(
        f"another terminal changed the night of {g.name} while this {hand} was being entered: it was read "
        f"with {was} open, now {is_}; nothing was written",
        hint=f"check ref standings; if the {hand} belongs to the night now open, run the command again",
    )


def _low_count(g) -> bool:
    """Simple Rummy and other low-count games speak of games and sessions, not hands and nights."""
    try:
        return json.loads(g.options or "{}").get("method") == "low-count"
    except (ValueError, AttributeError):
        return False
