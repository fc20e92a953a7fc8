"""Two terminals at once: the optimistic check that catches a hand entered twice.

``ref score-hand`` reads the game (and, at a terminal, asks for the cards) *before* it opens its
write transaction. Meanwhile another terminal may record the very hand being typed, or close
the session and open the next. The write therefore carries what the reader saw (a
:class:`~rummyref.record.Position`: the number the next hand would get and the open session)
and, inside the ``BEGIN IMMEDIATE`` transaction (the write lock held, so nothing can move
underneath), checks that it still holds. A correction also carries the entry it supersedes. If
not, the write is refused with :class:`WriteConflict` (exit 7) and nothing is written; run
again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummyref.errors import WriteConflict
from rummyref.record import Position

if TYPE_CHECKING:
    from rummyref.store.models import GameRow
    from rummyref.store.record import Record


def expect(rec: Record, g: GameRow, seen: Position) -> None:
    """Refuse the write if another terminal changed the game's position since ``seen`` was read."""
    now = rec.position(g)
    if now == seen:
        return
    rs = rec.ruleset(g)
    hand, night = rs.hand_word, rs.session_word
    if now.session != seen.session:
        was = f"{night} {seen.session}" if seen.session else f"no {night}"
        became = f"{night} {now.session} is open" if now.session else f"no {night} is open"
        raise WriteConflict(
            f"another terminal changed the {rs.session_short} of {g.name} while this {hand} was being entered: "
            f"it was read with {was} open, now {became}; nothing was written",
            hint=f"check ref standings; if the {hand} belongs to the {rs.session_short} now open, run the command again",
        )
    row = rec.sql(
        "SELECT e.hand, e.dealer, e.seq, e.created_at, s.number FROM entry e LEFT JOIN session s ON s.id = e.session_id "
        "WHERE e.game_id = :g AND e.hand = :h ORDER BY e.seq LIMIT 1",
        g=g.id, h=seen.next_hand,
    ).first()
    what = (
        f"{hand} {row[0]} of {g.name} ({night} {row[4]}, dealt by {row[1]}, entry {row[2]} at {row[3]})"
        if row else f"{hand}s {seen.next_hand} to {now.next_hand - 1} of {g.name}"
    )
    raise WriteConflict(
        f"another terminal recorded {what} while this {hand} was being entered; nothing was written",
        hint=f"check ref history; if yours is a different {hand}, run the command again: it will be {hand} {now.next_hand}",
    )


def expect_entry(game: str, word: str, hand: int, current_seq: int, seen_seq: int | None) -> None:
    """Refuse a correction of ``hand`` if its record changed since the command read it
    (two amends of the same hand at once: the second is stale)."""
    if seen_seq is not None and seen_seq != current_seq:
        raise WriteConflict(
            f"another terminal corrected {word} {hand} of {game} (entry {current_seq}) while this correction was "
            f"being entered (it read entry {seen_seq}); nothing was written",
            hint=f"check ref history; if yours is still needed, run the command again on {word} {hand} as it is now",
        )


#: a player whose cached total is not the sum of the results in force, or a game row whose rule
#: set, target, WILDCARDs or options are not those its chained header states (one statement)
UNTRUSTED = (
    "SELECT p.name, NULL FROM player p JOIN player_total t ON t.player_id = p.id "
    "WHERE p.game_id = :g AND (t.points, t.hands) <> (SELECT COALESCE(SUM(r.points), 0), COUNT(r.id) "
    "FROM result r WHERE r.player_id = p.id AND r.current = 1) "
    "UNION ALL SELECT NULL, (SELECT e.facts FROM entry e WHERE e.game_id = :g AND e.kind IN ('header', 'adopt') "
    "ORDER BY e.seq LIMIT 1)"
)


def trusted(rec: Record, g: GameRow) -> None:
    """Refuse a write (exit 8, nothing written) that would rest on rows changed outside ``ref``:
    a write judges a hand by the cached totals and the rule set kept on the game row, and bakes
    the outcome into a hashed entry. One statement, inside the write's transaction: each player's
    cached total against the results in force, the game row against its chained header."""
    import json

    from rummyref.errors import IntegrityError
    from rummyref.replay import Header

    def refuse(what: str) -> IntegrityError:
        return IntegrityError(f"the record was changed outside ref: {g.name}, {what}; nothing was written",
                              hint="run ref verify; restore the database from a backup")

    for name, facts in rec.sql(UNTRUSTED, g=g.id):
        if name is not None:
            raise refuse(f"{name}'s cached total is not the sum of the results in force")
        if facts is None:
            continue  # no header entry: verify says so
        try:
            h = Header.from_json(json.loads(facts)["game"])
        except (ValueError, KeyError, TypeError):
            raise refuse("its header entry is unreadable") from None
        try:
            options = json.loads(g.options or "{}")
        except ValueError:
            options = g.options
        row = (g.name, g.ruleset, g.ruleset_text, g.target, g.wildcards, options)
        for col, have, want in zip(("name", "ruleset", "ruleset_text", "target", "wildcards", "options"), row,
                                   (h.name, h.ruleset, h.ruleset_text, h.target, h.wildcards, dict(h.options))):
            if have != want:
                raise refuse(f"the game row's {col} is not the one its chained header states")
