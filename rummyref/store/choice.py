"""Which game a command means (SPEC §8), written once for any connection: SQLAlchemy's (the
store, :func:`rummyref.store.select.choose_game`) or the standard library's ``sqlite3``
(:func:`peek_sqlite`, for ``ref ruling``, which must start fast and only needs to know the
game being played). No SQLAlchemy here.

A query runner ``q(sql, **params)`` returns rows that can be iterated, with ``.first()`` and
``.all()``; the SQL is plain, with ``:name`` parameters, which both drivers accept.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rummyref.errors import NotFound, SeveralOpen, UnreadableInput

Query = Callable[..., Any]


def choose(q: Query, name: str | None, names: Sequence[str] = ()) -> int:
    """The id of the game a command means. Named: that one. Unnamed: the game with an open
    session; if several are open, the one whose roster holds ``names``; if that is still
    ambiguous, a refusal listing them and ``--game``; with none open, the game played last."""
    if name is not None and not name.strip():  # as a new game's name is refused (exit 3)
        raise UnreadableInput("--game needs a name", hint="e.g. --game friday, or leave it out for the latest game")
    if name is not None:
        row = q("SELECT id FROM game WHERE name = :n", n=name).first()
        if row is None:
            all_names = [r[0] for r in q("SELECT name FROM game ORDER BY id")]
            raise NotFound(
                f"no game named {name!r}",
                hint=f"games: {', '.join(all_names)}" if all_names else "ref new-session starts the first game",
            )
        return int(row[0])
    open_games = q("SELECT g.id, g.name FROM game g WHERE EXISTS (SELECT 1 FROM session s WHERE s.game_id = g.id "
                   "AND s.closed_at IS NULL) ORDER BY g.id").all()
    if len(open_games) == 1:
        return int(open_games[0][0])
    if len(open_games) > 1:
        wanted = {n.strip().casefold() for n in names if n and n.strip()}
        if wanted:
            fits = []
            for gid, _ in open_games:
                roster = {r[0].casefold() for r in q("SELECT name FROM player WHERE game_id = :g", g=gid)}
                if wanted <= roster:
                    fits.append(int(gid))
            if len(fits) == 1:
                return fits[0]
        listed = ", ".join(n for _, n in open_games)
        raise SeveralOpen(
            f"{len(open_games)} games have a session open ({listed}): which one?",
            hint=f"name it with --game, e.g. --game {open_games[-1][1]!r}",
            games=tuple(str(n) for _, n in open_games),
        )
    found = last_played(q)
    if found is None:
        raise NotFound("no game has been recorded yet", hint="ref new-session starts one")
    return found


#: the game played last (SPEC §8, with nothing open): the game whose latest hand or correction
#: (an amend, a void) was recorded last. Sessions opened and closed with no hand, rulings kept
#: as precedents, the header: none of them is play. A game with no hand yet comes after every
#: game with one, by its latest session's opening (the session ids keep the order in which
#: they were opened, finer than their timestamps), then by its creation. One statement, each
#: game's latest entry found by a walk down its own log (the (game_id, seq) index) that stops
#: at its latest hand or correction: the entry ids keep the order in which entries were
#: recorded, across games.
LAST_PLAYED = (
    "SELECT id FROM (SELECT g.id AS id, "
    "(SELECT e.id FROM entry e WHERE e.game_id = g.id AND e.hand IS NOT NULL "
    "AND e.kind IN ('hand', 'amend', 'void') ORDER BY e.seq DESC LIMIT 1) AS played, "
    "(SELECT MAX(s.id) FROM session s WHERE s.game_id = g.id) AS opened FROM game g) AS latest "
    "ORDER BY COALESCE(played, 0) DESC, COALESCE(opened, 0) DESC, id DESC LIMIT 1"
)


def last_played(q: Query) -> int | None:
    """The game played last (:data:`LAST_PLAYED`); None when no game is recorded."""
    row = q(LAST_PLAYED).first()
    return int(row[0]) if row else None


class _Rows:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self.cursor = cursor

    def __iter__(self):
        return iter(self.cursor)

    def first(self) -> Any:
        return self.cursor.fetchone()

    def all(self) -> list[Any]:
        return self.cursor.fetchall()


def peek_sqlite(path: Path, name: str | None) -> tuple[str, str, str, bool, dict, dict]:
    """The game a command means in the SQLite record at ``path``, read-only through ``sqlite3``:
    its name, its rule set's name and text, whether a session is open, and the kind's own data
    about the game and about its latest session (JSON objects; ``{}`` where there is none). A
    record this cannot read (an older schema, a locked or foreign file) raises
    ``sqlite3.Error``: the caller then asks the store, which knows how to migrate and what to say."""
    con = sqlite3.connect(f"file:{quote(str(path.absolute()))}?mode=ro", uri=True, timeout=5)
    try:
        def q(sql: str, **params: Any) -> _Rows:
            return _Rows(con.execute(sql, params))

        with con:
            gid = choose(q, name)
            row = q("SELECT name, ruleset, ruleset_text, options FROM game WHERE id = :g", g=gid).first()
            is_open = q("SELECT 1 FROM session WHERE game_id = :g AND closed_at IS NULL", g=gid).first() is not None
            last = q("SELECT options FROM session WHERE game_id = :g ORDER BY number DESC LIMIT 1", g=gid).first()
    finally:
        con.close()
    return str(row[0]), str(row[1]), str(row[2]), is_open, json_object(row[3]), json_object(last[0] if last else None)


def json_object(text: Any) -> dict:
    """A JSON object kept as text by ref (a game's or a session's options); ``{}`` for none, or
    for anything else (what it holds is only read, never trusted, here)."""
    if not isinstance(text, str):
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
