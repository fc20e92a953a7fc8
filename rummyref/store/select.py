"""Which game a command means, and its rule set parsed once: SQLAlchemy Core only, so the
lean reads (standings, stats, chart) share them without loading the ORM."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import lru_cache

from sqlalchemy import text

from rummyref.rules.ruleset import RuleSet, parse_ruleset
from rummyref.store.choice import choose, json_object, last_played

#: a session's hands dealt, as its hands are numbered: the highest hand-in-session whose latest
#: entry is not a void (a hand voided last is numbered again). Who deals is SESSION_LOG's fold.
HANDS_DEALT = (
    "SELECT MAX(e.hand_in_session) FROM entry e WHERE e.session_id = :s AND e.hand IS NOT NULL "
    "AND e.kind <> 'void' AND e.seq = (SELECT MAX(x.seq) FROM entry x WHERE x.game_id = e.game_id AND x.hand = e.hand)"
)


#: a session's hands and voids in the log's order, with their dealers: what the kind folds to
#: know who deals next and whether the rounds are full (A3, A4, SPEC §8)
SESSION_LOG = ("SELECT kind, dealer FROM entry WHERE session_id = :s AND hand IS NOT NULL "
               "AND kind IN ('hand', 'void') ORDER BY seq")

#: the dealer of the game's last hand in force before session number ``:n`` (every session's when
#: ``:n`` is past the last): where the deal stood when that session opened, for a game whose deal
#: carries on across sessions (the kind decides). Indexed: the hands from the latest down, each
#: checked against the entries after it (the latest hand's: a few), never the whole log
LAST_DEALER = (
    "SELECT e.dealer FROM entry e JOIN session s ON s.id = e.session_id WHERE e.game_id = :g AND s.number < :n "
    "AND e.hand IS NOT NULL AND e.kind <> 'void' "
    "AND NOT EXISTS (SELECT 1 FROM entry x WHERE x.game_id = e.game_id AND x.hand = e.hand AND x.seq > e.seq) "
    "ORDER BY e.hand DESC LIMIT 1"
)

#: a session closed as abandoned (SPEC §8: it does not count as a session), with its parameter:
#: ``closed_as`` takes no other value, however the record's JSON is spaced
ABANDONED = "COALESCE(options, '') LIKE :abandoned"
ABANDONED_PATTERN = {"abandoned": '%"closed_as"%'}

#: a session that counts as one (SPEC §8), in a query ``FROM session``: not closed as abandoned,
#: and open or with a hand in force. A night closed with hands, all of which were voided later,
#: has none left and counts no more than an abandoned one. Read from the cached per-session
#: totals (``session_total.hands``: the hands in force, which ``ref verify`` recomputes from the
#: log), so nothing new is written and every record, old or new, reads the same. Takes
#: :data:`ABANDONED_PATTERN`.
COUNTS = (f"NOT {ABANDONED} AND (session.closed_at IS NULL OR EXISTS (SELECT 1 FROM session_total st "
          "WHERE st.session_id = session.id AND st.hands > 0))")
#: a session that has counted so far: :data:`COUNTS` with a hand in force, open or
#: closed (a session open with no hand yet does not count, SPEC §8). Takes :data:`ABANDONED_PATTERN`.
PLAYED = (f"NOT {ABANDONED} AND EXISTS (SELECT 1 FROM session_total st "
          "WHERE st.session_id = session.id AND st.hands > 0)")


def choose_game(conn, name: str | None, names: Sequence[str] = ()) -> int:
    """The id of the game a command means (see :func:`rummyref.store.choice.choose`)."""
    return choose(lambda sql, **params: conn.execute(text(sql), params), name, names)


def _last_played(conn) -> int | None:
    """The game played last (see :func:`rummyref.store.choice.last_played`)."""
    return last_played(lambda sql, **params: conn.execute(text(sql), params))


@lru_cache(maxsize=16)
def _parsed(name: str, text_: str, game: str) -> RuleSet:
    return parse_ruleset(tomllib.loads(text_), f"{name} (as kept with game {game})")




def game_ruleset(db: str | None, name: str | None) -> tuple[str, RuleSet, bool, dict, dict]:
    """The game a command means (as :func:`choose_game` chooses it), read in one short
    transaction: its name, its rule set as kept with it, whether a session is open, and the
    kind's own data about the game and its latest session (as
    :func:`rummyref.store.choice.peek_sqlite` reads them). For ``ref ruling`` and ``ref count``,
    which answer from the game being played."""
    from rummyref.store.engine import opened, storage_errors

    with opened(db) as engine, storage_errors(engine):
        with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
            with conn.begin():
                gid = choose_game(conn, name)
                g = conn.execute(text("SELECT name, ruleset, ruleset_text, options FROM game WHERE id = :g"),
                                 {"g": gid}).one()
                is_open = conn.execute(text("SELECT 1 FROM session WHERE game_id = :g AND closed_at IS NULL"),
                                       {"g": gid}).first() is not None
                last = conn.execute(text("SELECT options FROM session WHERE game_id = :g ORDER BY number DESC LIMIT 1"),
                                    {"g": gid}).first()
    return (str(g.name), _parsed(g.ruleset, g.ruleset_text, g.name), is_open, json_object(g.options),
            json_object(last[0] if last else None))
