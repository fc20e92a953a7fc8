"""Two terminals at once: the optimistic check that catches a hand entered twice.

``ref score-hand`` reads the game (and, at a terminal, asks for the cards) *before* it opens its
write transaction. Meanwhile another terminal may record the very hand being typed, or close
the session and open the next. The write therefore carries what the reader saw (a
:class:`~rummyref.record.Position`: the number the next hand would get, the open session, and
the latest entry of a hand: an amend or a void meanwhile may end the game or give the deal back)
and, inside the ``BEGIN IMMEDIATE`` transaction (the write lock held, so nothing can move
underneath), checks that it still holds. A correction also carries the entry it supersedes. If
not, the write is refused with :class:`WriteConflict` (exit 7) and nothing is written; run
again.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    if now.next_hand == seen.next_hand:  # no new hand: one was corrected (amended or voided)
        fix = rec.sql(
            "SELECT e.kind, e.hand, e.seq, e.created_at FROM entry e WHERE e.game_id = :g AND e.hand IS NOT NULL "
            "ORDER BY e.seq DESC LIMIT 1", g=g.id,
        ).first()
        did = {"amend": "amended", "void": "voided"}.get(str(fix[0]), "recorded") if fix else "corrected"
        where = f" {hand} {fix[1]} (entry {fix[2]} at {fix[3]})" if fix else f" a {hand}"
        raise WriteConflict(
            f"another terminal {did}{where} of {g.name} while this {hand} was being entered; nothing was written",
            hint="check ref standings (who deals next, whether the game is over), then run the command again",
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


#: What a write reads beyond the log, each row that disagrees with what the log states (one
#: statement): a player's cached total, the open night's cached totals, the game's cached count
#: of entries and last hash against the results in force and the entries, and the log's number
#: of entries against the number of its last (an entry missing in the middle); the chained header and the
#: entries that seat players (the game row and the roster are checked against them); the game's
#: last scoring entry (its stated status is the game's: over or not, who won).
UNTRUSTED = (
    "SELECT 'total', p.name, NULL FROM player p JOIN player_total t ON t.player_id = p.id "
    "WHERE p.game_id = :g AND (t.points, t.hands) <> (SELECT COALESCE(SUM(r.points), 0), COUNT(r.id) "
    "FROM result r WHERE r.player_id = p.id AND r.current = 1) "
    # the open night's (what a hand and the night's close read), its entries first (an index)
    "UNION ALL SELECT 'night', p.name, CAST(s.number AS TEXT) FROM session s "
    "JOIN session_total st ON st.session_id = s.id JOIN player p ON p.id = st.player_id "
    "WHERE s.game_id = :g AND s.closed_at IS NULL AND (st.points, st.hands) <> "
    "(SELECT COALESCE(SUM(r.points), 0), COUNT(r.id) FROM entry e CROSS JOIN result r "
    "WHERE r.entry_id = e.id AND e.session_id = s.id AND r.player_id = st.player_id AND r.current = 1) "
    "UNION ALL SELECT 'game', NULL, NULL FROM game_total gt WHERE gt.game_id = :g AND ("
    "gt.entries <> COALESCE((SELECT MAX(e.seq) FROM entry e WHERE e.game_id = :g), 0) "
    "OR gt.head_hash <> COALESCE((SELECT e.hash FROM entry e WHERE e.game_id = :g ORDER BY e.seq DESC LIMIT 1), "
    "gt.head_hash)) "
    # the log's entries are numbered 1, 2, 3...: as many as the last one's number, else one is
    # missing (one scan of the (game_id, seq) index: a few ms on a 40,000-hand log)
    "UNION ALL SELECT 'gap', CAST(COUNT(*) AS TEXT), CAST(MAX(e.seq) AS TEXT) FROM entry e WHERE e.game_id = :g "
    "HAVING COUNT(*) <> MAX(e.seq) "
    # the open nights and the last: open exactly when no entry closed them (a night an entry
    # opened; the nights of a 0.1 record, stated by its adopt entry, are left to ref verify)
    "UNION ALL SELECT 'closed', CASE WHEN s.closed_at IS NULL THEN 'open' ELSE 'closed' END, "
    "CAST(s.number AS TEXT) FROM session s WHERE s.game_id = :g AND "
    "(s.closed_at IS NULL OR s.number = (SELECT MAX(x.number) FROM session x WHERE x.game_id = :g)) AND "
    "EXISTS (SELECT 1 FROM entry e WHERE e.session_id = s.id AND e.kind = 'session-open') AND "
    "(CASE WHEN s.closed_at IS NULL THEN 1 ELSE 0 END) = "
    "(SELECT COUNT(*) FROM entry e WHERE e.session_id = s.id AND e.kind = 'session-close') "
    # entries with no hand: the header, the nights, the rulings (an index)
    "UNION ALL SELECT 'chained', e.kind, e.facts FROM entry e WHERE e.game_id = :g AND e.hand IS NULL "
    "AND (e.kind IN ('header', 'adopt') OR (e.kind = 'session-open' AND e.facts NOT LIKE '%\"seated\": []%')) "
    "UNION ALL SELECT 'status', e.kind, e.facts FROM entry e WHERE e.game_id = :g AND e.seq = "
    "(SELECT x.seq FROM entry x WHERE x.game_id = :g AND x.hand IS NOT NULL AND x.kind IN ('hand', 'amend', 'void') "
    "ORDER BY x.seq DESC LIMIT 1)"
)


def trusted(rec: Record, g: GameRow, seating: Sequence[str] = (), history: bool = False) -> None:
    """Refuse a write (exit 8, nothing written) that would rest on rows changed outside ``ref``:
    a write judges a hand by the cached totals, the roster (who deals, the opening totals) and
    the game row (its rule set, whether it is over), and bakes the outcome into a hashed entry.
    One statement, inside the write's transaction (:data:`UNTRUSTED`): the caches against the
    results in force, the game row and the roster against the entries that state them; then
    the entries the write reads (:func:`_rests_on`) hashed again.
    ``seating``: players seated by this very write, not yet chained (a night that opens states them).
    ``history``: the write folds every hand's own rows (who won, a count; the kind says so), so
    every entry is read. A fold of the points alone rests on the caches, checked above."""
    import json

    from rummyref.errors import IntegrityError
    from rummyref.replay import Header
    from rummyref.store.models import row_id

    def refuse(what: str) -> IntegrityError:
        return IntegrityError(f"the record was changed outside ref: {g.name}, {what}; nothing was written",
                              hint="run ref verify; restore the database from a backup")

    roster: dict[str, tuple[int, int]] = {}
    header_seen = status_seen = False
    for what, name, facts in rec.sql(UNTRUSTED, g=g.id):
        if what == "total":
            raise refuse(f"{name}'s cached total is not the sum of the results in force")
        if what == "night":
            raise refuse(f"{name}'s cached total of night {facts} is not the sum of its results in force")
        if what == "closed":
            raise refuse(f"its night {facts} is marked {name} but its chained entries say otherwise")
        if what == "game":
            raise refuse("its cached count of entries (or the last one's hash) is not the log's")
        if what == "gap":
            raise refuse(f"its log holds {name} entries but the last is entry {facts}: an entry is missing")
        try:
            data = json.loads(facts)
        except (TypeError, ValueError):
            raise refuse(f"its {name} entry is unreadable") from None
        if what == "status":
            status_seen = True
            _check_status(g, data.get("status") if isinstance(data, dict) else None, refuse)
            continue
        try:
            seats = data["players"] if name in ("header", "adopt") else data["seated"]
            roster.update({p["name"]: (int(p["seat"]), int(p["opening"])) for p in seats})
            if name in ("header", "adopt") and not header_seen:
                header_seen = True
                _check_game_row(g, Header.from_json(data["game"]), refuse)
        except (ValueError, KeyError, TypeError):
            raise refuse(f"its {name} entry is unreadable") from None
    if not status_seen and (g.finished_at is not None or g.winner is not None):  # no hand: not over
        raise refuse("the game row says it is over, but no hand of it is recorded")
    if header_seen:
        rows = {p.name: (p.seat, p.opening) for p in rec.players(row_id(g)) if p.name not in seating}
        if rows != roster:
            who = sorted(set(rows) ^ set(roster)) or sorted(n for n in rows if rows[n] != roster[n])
            raise refuse(f"its roster ({', '.join(who)}: name, seat or opening total) is not the one its "
                         "chained entries state")
    _rests_on(rec, g, refuse, history)


#: The entries a write reads, with their nights: those of the open nights and of the last one
#: (who deals, how far the round is, the night's own data), or with ``history`` every entry.
_ENTRIES = ("SELECT e.id, e.seq, e.kind, e.hand, e.hand_in_session, e.dealer, e.facts, e.reason, e.target_seq, "
            "e.created_at, e.prev_hash, e.hash, s.number AS night, s.options AS night_options, s.id AS night_id "
            "FROM entry e LEFT JOIN session s ON s.id = e.session_id WHERE e.game_id = :g")
_RECENT = (" AND e.session_id IN (SELECT s.id FROM session s WHERE s.game_id = :g AND (s.closed_at IS NULL OR "
           "s.number = (SELECT MAX(x.number) FROM session x WHERE x.game_id = :g)))")
#: the open nights and the last, each with whether an entry opened it, and whether the game was
#: adopted from 0.1 (whose nights no entry opened: its adopt entry states them)
_NIGHTS = ("SELECT s.number, EXISTS (SELECT 1 FROM entry e WHERE e.session_id = s.id AND e.kind = 'session-open'), "
           "EXISTS (SELECT 1 FROM entry e WHERE e.game_id = :g AND e.kind = 'adopt') FROM session s "
           "WHERE s.game_id = :g AND (s.closed_at IS NULL OR s.number = "
           "(SELECT MAX(x.number) FROM session x WHERE x.game_id = :g))")


def _rests_on(rec: Record, g: GameRow, refuse, history: bool) -> None:
    """The entries the write reads, hashed again as ``ref verify`` hashes them (each field, its
    night's number, its results by player name): an entry's dealer, kind or place in its night
    (who deals next, A3/A4), a night renumbered, a result row's player renamed or deleted, all
    change the hash. Each result row's count and won flag against the entry's facts (the
    ``columns`` the ledger chained beside them; the folds of some kinds of game read them),
    and each night's own data (its table) against the entry that opened it. A night no entry
    opened is a forgery, but in a game adopted from 0.1 (its nights are stated by the adopt entry)."""
    import json

    from rummyref.chain import entry_hash
    from rummyref.store.record import entry_payload

    for number, opened, adopted in rec.sql(_NIGHTS, g=g.id):
        if not opened and not adopted:
            raise refuse(f"its night {number} was opened by no chained entry")
    rows = rec.sql(_ENTRIES + ("" if history else _RECENT) + " ORDER BY e.seq", g=g.id).all()
    if not rows:
        return
    ids = ", ".join(str(int(r.id)) for r in rows)
    results: dict[int, dict[str, tuple[int, int | None, bool | None]]] = {}
    for entry_id, name, points, count, won in rec.sql(
            "SELECT r.entry_id, p.name, r.points, r.count, r.won FROM result r JOIN player p ON p.id = r.player_id "
            f"WHERE r.entry_id IN ({ids})"):
        results.setdefault(entry_id, {})[name] = (points, count, won)
    for r in rows:
        mine = results.get(r.id, {})
        where = f"entry {r.seq}" + (f" (hand {r.hand})" if r.hand else "")
        try:
            facts = json.loads(r.facts or "{}")
            same = entry_hash(entry_payload(g.name, r.night, r, {n: v[0] for n, v in mine.items()}),
                              r.prev_hash) == r.hash
        except (TypeError, ValueError):
            same, facts = False, None
        if not same:
            raise refuse(f"{where} is not what its hash states (its fields, night or result rows)")
        columns = facts.get("columns") if isinstance(facts, dict) else None
        if isinstance(columns, dict):
            for name, (_points, count, won) in mine.items():
                said = columns.get(name)
                if not isinstance(said, dict) or (count, None if won is None else int(won)) != (
                        said.get("count"), said.get("won")):
                    raise refuse(f"{where}: {name}'s result row (count, won) is not the one the entry states")
        if r.kind == "session-open" and isinstance(facts, dict):
            try:
                options = json.loads(r.night_options or "{}")
            except ValueError:
                options = None
            kept = {k: v for k, v in options.items() if k != "closed_as"} if isinstance(options, dict) else options
            if kept != facts.get("options"):
                raise refuse(f"its night {r.night}'s own data (its table) is not the one its chained opening states")


def _check_game_row(g: GameRow, h, refuse) -> None:
    import json

    try:
        options = json.loads(g.options or "{}")
    except ValueError:
        options = g.options
    row = (g.name, g.ruleset, g.ruleset_text, g.target, g.wildcards, options)
    for col, have, want in zip(("name", "ruleset", "ruleset_text", "target", "wildcards", "options"), row,
                               (h.name, h.ruleset, h.ruleset_text, h.target, h.wildcards, dict(h.options))):
        if have != want:
            raise refuse(f"the game row's {col} is not the one its chained header states")


def _check_status(g: GameRow, status, refuse) -> None:
    """The game's row says over (and who won) exactly when its last scoring entry states it
    (an entry of 0.1, which states none, is left to ``ref verify``)."""
    if not isinstance(status, dict):
        return
    over = bool(status.get("over"))
    if (g.finished_at is not None) != over or (over and g.winner != status.get("winner")):
        raise refuse("the game row's end (finished, winner) is not the one its last hand states")
