"""Reading the record: history, and verify (the standings live in ``store.standings``)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlmodel import col, select

from rummyref.chain import BOOKKEEPING
from rummyref.errors import NotFound
from rummyref.record import Entry, Game
from rummyref.rules.ruleset import RuleSet
from rummyref.store.models import EntryRow, SessionRow, row_id
from rummyref.store.record import Record, to_entry
from rummyref.store.verify import Problem, VerifyReport, verify


@dataclass(frozen=True)
class HistoryLine:
    entry: Entry
    current: bool  #: the hand's record in force (not superseded by a later correction); a ruling: always


@dataclass(frozen=True)
class History:
    game: Game
    lines: tuple[HistoryLine, ...]
    ruleset: RuleSet
    #: the sessions closed as abandoned, by number: no hand in force, not a session (SPEC §8)
    abandoned: frozenset[int] = frozenset()
    #: the sessions closed with hands, every one of which was voided since: no hand in force, not a
    #: session either (SPEC §8), though not closed as abandoned
    emptied: frozenset[int] = frozenset()
    #: with a session asked: the players seated by then, in seat order (a newcomer of a later
    #: session is not among its players); None for the whole history
    seated: tuple[str, ...] | None = None


def history(rec: Record, name: str | None, night: int | None) -> History:
    g = rec.game_row(name)
    game = rec.game(g)
    sessions = list(rec.s.exec(select(SessionRow).where(SessionRow.game_id == g.id)))
    nights = {s.id: s.number for s in sessions}
    dealt = {int(sid) for (sid,) in rec.sql(  # the sessions where any hand was ever recorded
        "SELECT DISTINCT session_id FROM entry WHERE game_id = :g AND hand IS NOT NULL AND session_id IS NOT NULL",
        g=g.id)}
    # closed as abandoned, or closed with no hand ever (a kind may mark none when it closes)
    abandoned = frozenset(s.number for s in sessions if json.loads(s.options or "{}").get("closed_as") == "abandoned"
                          or (s.closed_at is not None and s.id not in dealt))
    in_force = {int(sid) for (sid,) in rec.sql(  # the cached hands in force of each session (as standings reads them)
        "SELECT DISTINCT t.session_id FROM session_total t JOIN session s ON s.id = t.session_id "
        "WHERE s.game_id = :g AND t.hands > 0", g=g.id)}
    emptied = frozenset(s.number for s in sessions
                        if s.closed_at is not None and s.number not in abandoned and s.id not in in_force)
    # the header and the nights' openings and closings are shown by standings, not as lines here
    query = select(EntryRow).where(EntryRow.game_id == g.id, col(EntryRow.kind).not_in(sorted(k.value for k in BOOKKEEPING)))
    if night is not None:
        sid = next((i for i, n in nights.items() if n == night), None)
        if sid is None:
            word = rec.ruleset(g).session_word
            raise NotFound(f"game {g.name} has no {word} {night}", hint=f"{word}s 1 to {max(nights.values(), default=0)}")
        query = query.where(EntryRow.session_id == sid)
    rows = list(rec.s.exec(query.order_by(col(EntryRow.seq))))
    results: dict[int | None, dict[str, int]] = {}  # by entry id (a row read always has one)
    current: set[int] = set()
    ids = [r.id for r in rows]
    for entry_id, pname, pts, cur in _results(rec, row_id(g)):
        if entry_id in ids or night is None:
            results.setdefault(entry_id, {})[pname] = pts
            if cur:
                current.add(entry_id)
    last_of_hand: dict[int | None, int] = {}  # by hand (None: the entries of no hand)
    for r in rows:
        last_of_hand[r.hand] = r.seq
    lines = tuple(
        HistoryLine(
            to_entry(r, nights.get(r.session_id), results.get(r.id, {})),
            r.kind == "ruling" or (last_of_hand.get(r.hand) == r.seq and r.kind != "void"),
        )
        for r in rows
    )
    return History(game, lines, rec.ruleset(g), abandoned, emptied,
                   None if night is None else _seated_by(rec, row_id(g), night, game))


def _seated_by(rec: Record, game_id: int, night: int, game: Game) -> tuple[str, ...]:
    """The players seated by session ``night``: the header's, and each session's newcomers up to
    it, as the chained entries state them; in seat order."""
    names: set[str] = set()
    for kind, facts in rec.sql("SELECT kind, facts FROM entry WHERE game_id = :g AND hand IS NULL AND "
                               "kind IN ('header', 'adopt', 'session-open')", g=game_id):
        try:
            data = json.loads(facts)
            if kind == "session-open" and int(data["session"]) > night:
                continue
            names.update(p["name"] for p in data["players" if kind != "session-open" else "seated"])
        except (TypeError, ValueError, KeyError):
            return game.roster  # an entry not as ref writes it (verify says so): every player
    return tuple(n for n in game.roster if n in names) or game.roster


def _results(rec: Record, game_id: int):
    return rec.sql(
        "SELECT r.entry_id, p.name, r.points, r.current FROM result r JOIN player p ON p.id = r.player_id "
        "WHERE p.game_id = :g ORDER BY p.seat",
        g=game_id,
    )


# -- verify (rummyref.store.verify; kept importable from here for backup and import) --------

__all__ = ["History", "HistoryLine", "Problem", "VerifyReport", "history", "verify"]
