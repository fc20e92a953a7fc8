"""Precedents in the record: where the table is (the open session), keeping a ruling as an
entry of kind ``ruling`` in the game's hash-chained log, and finding rulings again.

A ruling entry has a session but no hand number, no hand-in-night, no dealer and no result
rows: ``hands_dealt``, the next hand number, the totals, ``ref verify`` and the history all
keep counting hands only. Where the table was lives in the entry's facts (``at``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rummyref.errors import NotFound, UnreadableInput
from rummyref.record import Game
from rummyref.rulebook.precedents import KIND, Precedent, precedent_from, ruling_facts
from rummyref.rules.ruleset import RuleSet
from rummyref.store.models import GameRow, SessionRow, row_id
from rummyref.store.record import Record
from rummyref.store.select import _parsed


@dataclass(frozen=True)
class Played:
    """The game a dispute means (SPEC §8): its rule set and roster decide, even with no session
    of it open (then nothing is kept)."""

    game: Game
    ruleset: RuleSet  #: as kept with the game

    @property
    def roster(self) -> tuple[str, ...]:
        return self.game.roster

    def opens_one(self, opens: str = "ref new-session opens one") -> str:
        """The way to a session where a ruling can be kept: a session of this game, or, once the
        game is over (A7), a new game (:func:`rummyref.games.base.opens_one`)."""
        from rummyref.games.base import opens_one
        from rummyref.games.registry import kind_for

        return opens_one(self.game, self.ruleset, kind_for(self.ruleset).over_rule(self.ruleset), opens)


@dataclass(frozen=True)
class Table(Played):
    """The open session a dispute is settled in (and kept in)."""

    night: int
    hands_dealt: int  #: hands dealt tonight so far (A4 counts them)
    hand: int  #: the hand in progress: the next hand to be recorded (game-wide number)
    hand_in_night: int  #: that hand's number within the night
    _game_row: GameRow = field(repr=False, compare=False)
    _session_row: SessionRow = field(repr=False, compare=False)
    #: the session's hands and voids in the log's order (who deals: SPEC §8's voids)
    session_log: tuple[tuple[str, str], ...] = ()


def find_table(rec: Record, game: str | None, names: Sequence[str] = (),
               strict: bool = False) -> tuple[Played | None, str]:
    """The game a dispute means, as every command chooses it (SPEC §8, :meth:`Record.game_row`:
    ``game``; else the one game with a session open, or of several the one whose roster has
    ``names``; else the game played last), with its open session when it has one.

    Returns ``(table, "")`` with the session open; ``(played, why)`` when the game has none (its
    rule set and roster decide, nothing is kept); ``(None, why)`` when no game is recorded yet.
    Raised as every command raises them: several games open and the names do not tell which
    (UnreadableInput: it lists them and ``--game``), an unknown ``game`` (NotFound). With
    ``strict`` there must be an open session: NotFound otherwise."""
    try:
        g = rec.game_row(game, names)
    except UnreadableInput:
        raise  # several open, the names do not tell: SPEC §8's refusal, never another game's rules
    except NotFound as exc:
        if strict or game is not None:
            raise  # a --game that names no game is a slip, not a question for the default rules
        return None, exc.message
    s = rec.open_night_row(row_id(g))
    if s is None:
        why = f"no {rec.ruleset(g).session_word} of {g.name} is open" if game is not None else "no session is open in any game"
        played = Played(rec.game(g), rec.ruleset(g))
        if strict:
            raise NotFound(why, hint=played.opens_one())
        return played, why
    dealt = rec.hands_dealt(row_id(s))
    return Table(rec.game(g), rec.ruleset(g), s.number, dealt, rec.position(g).next_hand, dealt + 1, g, s,
                 session_log=rec.session_log(row_id(s))), ""


def record_ruling(rec: Record, table: Table, ruling: dict[str, Any]) -> Precedent:
    """Append the ruling to the game's log (in the caller's write transaction)."""
    body = ruling_facts(ruling, table.night, table.hand, table.hand_in_night)
    g, s = table._game_row, table._session_row
    row = rec.append_entry(g, KIND, s, None, None, None, body, None, None, {})
    return precedent_from(g.name, row.seq, row.created_at, s.number, body, table.ruleset)


#: a ruling entry, with its game's rule set (a precedent is told in the words of its own game)
_SELECT = (
    "SELECT g.name, e.seq, e.created_at, s.number, e.facts, g.ruleset, g.ruleset_text FROM entry e "
    "JOIN game g ON g.id = e.game_id LEFT JOIN session s ON s.id = e.session_id WHERE e.kind = :kind"
)


def _precedents(rows, key: str | None = None) -> list[Precedent]:
    """The rulings of ``rows`` (of the dispute ``key`` only, if given). The facts are read here,
    by Python, as ``ref history`` and ``ref verify`` read them: never by the database's JSON
    functions, which read a text with a key given twice otherwise (a ruling is a few per night)."""
    out = []
    for name, seq, when, night, text_, ruleset, rules in rows:
        facts = json.loads(text_ or "{}")
        if key is None or (isinstance(facts, dict) and facts.get("key") == key):
            out.append(precedent_from(name, seq, when, night, facts, _parsed(ruleset, rules, name)))
    return out


def same_dispute(rec: Record, key: str) -> list[Precedent]:
    """Every earlier ruling of the same dispute (same key), in every game, oldest first."""
    return _precedents(rec.sql(_SELECT + " ORDER BY e.created_at, g.id, e.seq", kind=KIND), key)


def rulings(rec: Record, game: str | None, night: int | None) -> tuple[Game, RuleSet, list[Precedent]]:
    """The rulings of a game (default: the latest game), optionally of one night, in order,
    with the game's rule set (whose words tell where each was ruled)."""
    g = rec.game_row(game)
    query, params = _SELECT + " AND e.game_id = :g", {"kind": KIND, "g": g.id}
    if night is not None:
        known = rec.sql("SELECT number FROM session WHERE game_id = :g AND number = :n", g=g.id, n=night).first()
        if known is None:
            last = rec.sql("SELECT COALESCE(MAX(number), 0) FROM session WHERE game_id = :g", g=g.id).scalar()
            word = rec.ruleset(g).session_word
            raise NotFound(f"game {g.name} has no {word} {night}", hint=f"{word}s 1 to {last}" if last else f"no {word} yet")
        query, params = query + " AND s.number = :n", {**params, "n": night}
    return rec.game(g), rec.ruleset(g), _precedents(rec.sql(query + " ORDER BY e.seq", **params))
