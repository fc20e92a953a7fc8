"""Which game a command means, and its rule set parsed once: SQLAlchemy Core only, so the
lean reads (standings, stats, chart) share them without loading the ORM."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import lru_cache

from sqlalchemy import text

from rummyref.errors import NotFound, UnreadableInput
from rummyref.rules.ruleset import RuleSet, parse_ruleset

#: a session's hands dealt (SPEC §8): the highest hand-in-session whose latest entry is not a
#: void. Voided last, its dealer deals again; voided earlier, the deal goes on.
HANDS_DEALT = (
    "SELECT MAX(e.hand_in_session) FROM entry e WHERE e.session_id = :s AND e.hand IS NOT NULL "
    "AND e.kind <> 'void' AND e.seq = (SELECT MAX(x.seq) FROM entry x WHERE x.game_id = e.game_id AND x.hand = e.hand)"
)


def choose_game(conn, name: str | None, names: Sequence[str] = ()) -> int:
    """The id of the game a command means. Named: that one. Unnamed: the game with an open
    session; if several are open, the one whose roster holds ``names``; if that is still
    ambiguous, a refusal listing them and ``--game``; with none open, the game played last."""

    def q(sql: str, **params):
        return conn.execute(text(sql), params)

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
        raise UnreadableInput(
            f"{len(open_games)} games have a session open ({listed}): which one?",
            hint=f"name it with --game, e.g. --game {open_games[-1][1]!r}",
        )
    found = _last_played(conn)
    if found is None:
        raise NotFound("no game has been recorded yet", hint="ref new-session starts one")
    return found


def _last_played(conn) -> int | None:
    """The game whose latest session opened last (the session ids keep the order in which they were
    opened, finer than their timestamps); a game with none yet comes by its creation."""
    row = conn.execute(text(
        "SELECT g.id FROM game g ORDER BY COALESCE((SELECT MAX(s.id) FROM session s WHERE s.game_id = g.id), 0) DESC, "
        "g.id DESC LIMIT 1"
    )).first()
    return int(row[0]) if row else None


@lru_cache(maxsize=16)
def _parsed(name: str, text_: str, game: str) -> RuleSet:
    return parse_ruleset(tomllib.loads(text_), f"{name} (as kept with game {game})")




def game_rulebook(db: str | None, name: str | None) -> tuple[str, str, bool]:
    """The game a command means (as :func:`choose_game` chooses it), read in one short
    transaction: its name, the rulebook of its rule set, and whether a session is open.
    For ``ref ruling``, which answers from the game being played."""
    from rummyref.store.engine import opened, storage_errors

    with opened(db) as engine, storage_errors():
        with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
            with conn.begin():
                gid = choose_game(conn, name)
                g = conn.execute(text("SELECT name, ruleset, ruleset_text FROM game WHERE id = :g"), {"g": gid}).one()
                is_open = conn.execute(text("SELECT 1 FROM session WHERE game_id = :g AND closed_at IS NULL"),
                                       {"g": gid}).first() is not None
    return str(g.name), _parsed(g.ruleset, g.ruleset_text, g.name).rulebook, is_open
