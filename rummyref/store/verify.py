"""``ref verify``: every row of the record, checked against its hash-chained log.

1. The database itself: SQLite's ``integrity_check`` and ``foreign_key_check``; on both
   back-ends, that the append-only triggers and the unique and foreign-key constraints are
   all there and enabled (a dropped constraint lets a second game of one name in). On SQLite,
   the kind of every value (a BLOB where ref writes a text...), on PostgreSQL the type of every
   column (``points`` retyped to text): one found, the rows are not read further
   (:func:`~rummyref.store.integrity.stray_values`).
2. Each game's chain: entries numbered 1, 2, 3... each hash over its content, its results and
   the hash before it; each facts text exactly the one ref writes for what it parses to (the
   hash covers the parsed facts; the database's JSON functions read the text itself).
3. The fold (:func:`rummyref.replay.replay`) of each chain against every row and cache:
   ``game``, ``player``, ``session``, ``result``, ``player_total``, ``session_total`` and
   ``game_total``. A row the chain does not account for (a result pointing at no hand or at
   another game's hand, a player in no header, a night no entry opened) is a problem that
   names its table, row and column.

Read-only; one pass over the tables (a record of 25 years is a few tens of thousands of rows).
"""

from __future__ import annotations

import json
from collections import namedtuple
from dataclasses import dataclass
from typing import Any

from rummyref.chain import GENESIS, EntryKind, entry_hash
from rummyref.replay import ChainEntry, Replayed, replay
from rummyref.store.integrity import around
from rummyref.store.record import Record, entry_payload, facts_text

RECORD = "(record)"  #: the "game" of a problem that belongs to no game


@dataclass(frozen=True)
class Problem:
    game: str
    where: str  #: "entry 12 (hand 11)", "player row 4 (Ben), column opening", ...
    what: str


@dataclass(frozen=True)
class VerifyReport:
    games: int
    entries: int
    problems: tuple[Problem, ...]
    heads: tuple[tuple[str, int, str], ...] = ()  #: each game's (name, last seq, last hash)
    #: False: a value of a kind ref never writes was found, and the rows were not read further
    #: (nor can the seal be: a game's name may be the value)
    readable: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems


_COLUMNS = {
    "game": "id, name, ruleset, ruleset_text, target, wildcards, options, created_at, finished_at, winner",
    "player": "id, game_id, name, seat, opening",
    "session": "id, game_id, number, opened_at, closed_at, options",
    "entry": "id, game_id, seq, kind, session_id, hand, hand_in_session, dealer, facts, reason, target_seq, "
             "created_at, prev_hash, hash",
    "result": "id, entry_id, player_id, points, count, won, current",
    "player_total": "player_id, game_id, points, hands, best, worst, nights_won",
    "session_total": "session_id, player_id, points, hands",
    "game_total": "game_id, hands, entries, head_hash",
}


class _Rows:
    """Every row of the record's tables, as plain objects with attribute access."""

    def __init__(self, rec: Record) -> None:
        self.t: dict[str, list[Any]] = {}
        for table, cols in _COLUMNS.items():
            order = "game_id, seq" if table == "entry" else cols.split(",")[0]
            row = namedtuple(table, [c.strip() for c in cols.split(",")])  # type: ignore[misc]  # plain tuples: fast to read
            self.t[table] = [row(*r) for r in rec.sql(f"SELECT {cols} FROM {table} ORDER BY {order}")]
        self.games = {g.id: g for g in self.t["game"]}
        self.players = {p.id: p for p in self.t["player"]}
        self.sessions = {s.id: s for s in self.t["session"]}
        self.entries = {e.id: e for e in self.t["entry"]}
        self.results_of: dict[int, list[Any]] = {}
        for r in self.t["result"]:
            self.results_of.setdefault(r.entry_id, []).append(r)

    def game_name(self, game_id: Any) -> str:
        g = self.games.get(game_id)
        return g.name if g is not None else RECORD


def verify(rec: Record) -> VerifyReport:
    from rummyref.store.integrity import database_problems, stray_values

    problems = [Problem(RECORD, where, what) for where, what in database_problems(rec)]
    stray = stray_values(rec.s.connection())
    if stray:  # a value of a kind ref never writes: no reading of the rows can be trusted until it is put right
        problems += [Problem(game or RECORD, where, what) for game, where, what in stray]
        return VerifyReport(_count(rec, "game"), _count(rec, "entry"), tuple(problems), readable=False)
    rows = _Rows(rec)
    heads = []
    folds: dict[int, Replayed] = {}
    for g in rows.t["game"]:
        chain = [e for e in rows.t["entry"] if e.game_id == g.id]
        entries, chain_problems = _check_chain(rows, g, chain)
        problems += [Problem(g.name, where, what) for where, what in chain_problems]
        fold = folds[g.id] = replay(entries, GENESIS)
        problems += [Problem(g.name, "the log", what) for what in fold.problems]
        problems += [Problem(g.name, where, what) for where, what in _check_game(rows, g, fold)]
        problems += [Problem(g.name, where, what) for where, what in rejudge(entries, fold)]
        if chain:
            heads.append((g.name, chain[-1].seq, chain[-1].hash))
    problems += [Problem(game, where, what) for game, where, what in _check_rows(rows, folds)]
    return VerifyReport(len(rows.t["game"]), len(rows.t["entry"]), tuple(problems), tuple(heads))


def _count(rec: Record, table: str) -> int:
    return int(rec.sql(f"SELECT COUNT(*) FROM {table}").scalar() or 0)


# -- the chain -------------------------------------------------------------------------------


def _check_chain(rows: _Rows, g: Any, chain: list[Any]) -> tuple[list[ChainEntry], list[tuple[str, str]]]:
    nights = {s.id: s.number for s in rows.t["session"] if s.game_id == g.id}
    problems: list[tuple[str, str]] = []
    entries: list[ChainEntry] = []
    prev, expected_seq = GENESIS, 1
    for r in chain:
        where = f"entry {r.seq}" + (f" (hand {r.hand})" if r.hand else "")
        if r.seq != expected_seq:
            problems.append((f"entry {expected_seq}", f"missing: the log jumps to entry {r.seq}"))
        if r.prev_hash != prev:
            problems.append((where, "does not follow the entry before it (chain broken)"))
        results = {_name(rows, x.player_id): x.points for x in rows.results_of.get(r.id, [])}
        night = nights.get(r.session_id)
        try:
            facts = json.loads(r.facts or "{}")
            ok = entry_hash(entry_payload(g.name, night, r, results), r.prev_hash) == r.hash
            stated = _stated_points(facts) if not ok else None
            if stated and stated != results and \
                    entry_hash(entry_payload(g.name, night, r, stated), r.prev_hash) == r.hash:
                results, ok = stated, True  # the entry is intact; a result row was changed: named with the rows
            written = facts_text(facts) == r.facts
        except (ValueError, TypeError):
            facts, ok, written = {}, False, True
        if not ok:
            problems.append((where, "changed outside ref (its hash does not match its content)"))
        if not written:  # the hash covers the parsed facts: the text itself is checked here
            hand = f", hand {r.hand}" if r.hand else ""
            problems.append((f"entry row {r.id} (entry {r.seq}{hand}), column facts",
                             "is not the text ref writes for its facts (a key given twice, say): the "
                             "database may read facts from it that the chain does not vouch for"))
        entries.append(ChainEntry(r.seq, r.kind, night, r.hand, facts if isinstance(facts, dict) else {},
                                  r.created_at, results, r.hash))
        prev, expected_seq = r.hash, r.seq + 1
    return entries, problems


def _stated_points(facts: Any) -> dict[str, int] | None:
    """The points an entry's facts state (a hand given as points, or the score kept beside the
    cards), to tell a changed result row from a changed entry."""
    if not isinstance(facts, dict):
        return None
    if isinstance(facts.get("points"), dict):
        return {str(n): v for n, v in facts["points"].items() if isinstance(v, int)}
    scores = facts.get("score", {}).get("scores") if isinstance(facts.get("score"), dict) else None
    if isinstance(scores, list):
        return {s["name"]: s["points"] for s in scores if isinstance(s, dict) and "name" in s and "points" in s}
    return None


def _name(rows: _Rows, player_id: Any) -> str:
    p = rows.players.get(player_id)
    return p.name if p is not None else f"#{player_id}"


# -- the hands judged again ------------------------------------------------------------------


def rejudge(entries: list[ChainEntry], fold: Replayed) -> list[tuple[str, str]]:
    """Each hand's results judged again from its chained facts under the chained rule set and
    target, by the game's kind (the code the write uses), and whether the game is over and who
    won from the hands in force (SPEC §8): a write that trusted a row changed outside the chain
    (a cached total, the game row's rule-set text or target) baked a wrong result or status into
    a hashed entry, and only this finds it. The first difference of each kind is reported."""
    from rummyref.errors import RummyrefError
    from rummyref.games.registry import kind_for
    from rummyref.record import Game, HandInForce, Player, PlayerResult, SessionInfo
    from rummyref.store.select import _parsed

    h = fold.header
    if h is None:
        return []  # reported by the fold
    scoring = [e for e in entries if e.hand is not None and e.kind in (EntryKind.HAND, EntryKind.AMEND, EntryKind.VOID)]
    kinds = {k.value: k for k in EntryKind}
    hands = [HandInForce(e.hand, e.night or 0, 0, None, kinds[e.kind], e.seq, e.facts,
                         tuple(PlayerResult(n, v) for n, v in e.results.items())) for e in scoring if e.hand]
    latest = {x.hand: x for x in hands}
    players = tuple(Player(p.name, p.seat, p.opening) for p in sorted(fold.players.values(), key=lambda p: p.seat))
    game = Game(h.name, h.ruleset, h.target, h.wildcards, players, h.created_at,
                closed_roster=bool(h.options.get("closed_roster", True)), options=h.options)
    nights = [SessionInfo(n.number, n.opened_at, n.closed_at, n.options) for _, n in sorted(fold.nights.items())]
    try:
        ruleset = _parsed(h.ruleset, h.ruleset_text, h.name)
        # the hands 0.1 wrote (before the entry that adopted its record) are history: never
        # judged again (0.1 accepted games that later rules refuse); they count as recorded
        adopted = max((e.seq for e in entries if e.kind == EntryKind.ADOPT), default=0)
        judged = [x for x in hands if x.seq > adopted]
        again = kind_for(ruleset).rejudge(ruleset, game, nights, judged, [latest[k] for k in sorted(latest)])
    except (RummyrefError, KeyError, TypeError, ValueError) as exc:
        why = exc.message if isinstance(exc, RummyrefError) else f"{type(exc).__name__}: {exc}"
        return [("its hands", f"cannot be judged again from their facts under the chained rule set ({why})")]
    out: list[tuple[str, str]] = []
    for x in hands:
        want = again.results.get(x.seq)
        have = {r.name: r.points for r in x.results}
        if want is None or want == have:
            continue
        name = next(n for n in sorted(set(have) | set(want), key=lambda n: game.roster.index(n)
                                      if n in game.roster else 99) if have.get(n) != want.get(n))
        out.append((f"entry {x.seq} (hand {x.hand}), {name}",
                    f"the entry says {_points(have.get(name))}, but its facts under the chained rule set "
                    f"give {_points(want.get(name))}: the result was judged on rows changed outside the chain"))
        break
    stated = all("status" in e.facts for e in scoring)  # a 0.1 log states none: its end is history
    if again.status is not None and stated and scoring:
        have_s = (fold.finished_at is not None, fold.winner if fold.finished_at is not None else None)
        want_s = (again.status.over, again.status.winner if again.status.over else None)
        if have_s != want_s:
            out.append(("the game's status", f"the log says {_status(*have_s)}, but its hands in force give "
                                             f"{_status(*want_s)} (A7, SPEC §8)"))
    return out


def _points(v: int | None) -> str:
    return "no result" if v is None else f"{v:,}"


def _status(over: bool, winner: str | None) -> str:
    return f"over ({winner} won)" if over else "not over"


# -- the rows against the fold -----------------------------------------------------------------


def _differ(where: str, column: str, have: Any, want: Any) -> list[tuple[str, str]]:
    if have == want:
        return []
    return [(f"{where}, column {column}", _difference(have, want))]


LONG = 60  #: a text longer than this (or of several lines) is shown by the part of its first line that differs


def _difference(have: Any, want: Any) -> str:
    """``is X, the chain says Y``; of two long texts (a rule set file), only the first line that
    differs, with its number, so that the finding fits a few lines of a terminal."""
    if not (isinstance(have, str) and isinstance(want, str)) or (
            max(len(have), len(want)) <= LONG and "\n" not in have + want):
        return f"is {have!r}, the chain says {want!r}"
    ours, theirs = have.splitlines(), want.splitlines()
    n = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))

    if n >= len(ours) or n >= len(theirs):
        shown = ("(no such line)" if n >= len(ours) else around(ours[n], "")[0],
                 "(no such line)" if n >= len(theirs) else around(theirs[n], "")[0])
    else:
        shown = around(ours[n], theirs[n])  # the part around the first difference: seen where it is
    counts = f" ({len(ours)} lines, the chain's {len(theirs)})" if len(ours) != len(theirs) else ""
    return f"line {n + 1} is {shown[0]}, the chain says {shown[1]}{counts}"


def _json(text: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text  # unreadable: compares unequal to anything the chain says


def _check_game(rows: _Rows, g: Any, fold: Replayed) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    where = f"game row {g.id}"
    h = fold.header
    if h is not None:
        for col, want in (("name", h.name), ("ruleset", h.ruleset), ("ruleset_text", h.ruleset_text),
                          ("target", h.target), ("wildcards", h.wildcards), ("created_at", h.created_at)):
            out += _differ(where, col, getattr(g, col), want)
        out += _differ(where, "options", _json(g.options), dict(h.options))
    out += _differ(where, "finished_at", g.finished_at, fold.finished_at)
    out += _differ(where, "winner", g.winner, fold.winner)
    seen = set()
    for p in (p for p in rows.t["player"] if p.game_id == g.id):
        seen.add(p.name)
        seat = fold.players.get(p.name)
        pw = f"player row {p.id} ({p.name})"
        if seat is None:
            out.append((pw, "is in no header and was seated by no night's entry"))
            continue
        out += _differ(pw, "seat", p.seat, seat.seat) + _differ(pw, "opening", p.opening, seat.opening)
    out += [(f"player {n}", "is on the roster the chain states, but has no player row") for n in fold.players
            if n not in seen]
    numbers = set()
    for s in (s for s in rows.t["session"] if s.game_id == g.id):
        numbers.add(s.number)
        night = fold.nights.get(s.number)
        sw = f"session row {s.id} (night {s.number})"
        if night is None:
            out.append((sw, "no entry opened this night"))
            continue
        out += _differ(sw, "opened_at", s.opened_at, night.opened_at)
        out += _differ(sw, "closed_at", s.closed_at, night.closed_at)
        out += _differ(sw, "options", _json(s.options), dict(night.options))
    out += [(f"night {n}", "an entry opened it, but there is no session row") for n in fold.nights if n not in numbers]
    return out


def _check_rows(rows: _Rows, folds: dict[int, Replayed]) -> list[tuple[str, str, str]]:
    """The rows that hang from a game: results and the three caches."""
    out: list[tuple[str, str, str]] = []
    for table in ("player", "session", "entry"):
        for r in rows.t[table]:
            if r.game_id not in rows.games:
                out.append((RECORD, f"{table} row {r.id}, column game_id", f"points at no game ({r.game_id})"))
    for e in rows.t["entry"]:
        s = rows.sessions.get(e.session_id) if e.session_id is not None else None
        if e.session_id is not None and (s is None or s.game_id != e.game_id):
            out.append((rows.game_name(e.game_id), f"entry row {e.id} (entry {e.seq}), column session_id",
                        f"points at {'no night' if s is None else 'a night of game ' + rows.game_name(s.game_id)}"))
    seen_results: set[tuple[int, int, str]] = set()
    for r in rows.t["result"]:
        where = f"result row {r.id}"
        e, p = rows.entries.get(r.entry_id), rows.players.get(r.player_id)
        if e is None:
            out.append((RECORD, f"{where}, column entry_id", f"points at no entry ({r.entry_id})"))
            continue
        game = rows.game_name(e.game_id)
        if p is None or p.game_id != e.game_id:
            what = f"points at no player ({r.player_id})" if p is None else \
                f"is {p.name} of game {rows.game_name(p.game_id)}, but entry {e.seq} is of game {game}"
            out.append((game, f"{where}, column player_id", what))
            continue
        fold = folds.get(e.game_id)
        want = fold.results.get((e.seq, p.name)) if fold else None
        if want is None:
            out.append((game, where, f"entry {e.seq} has no result for {p.name} in the chain"))
            continue
        seen_results.add((e.game_id, e.seq, p.name))
        for col, have, w in (("points", r.points, want.points), ("count", r.count, want.count),
                             ("won", r.won, want.won), ("current", r.current, int(want.current))):
            hand = f", hand {e.hand}" if e.hand else ""
            out += [(game, *d) for d in _differ(f"{where} (entry {e.seq}{hand}, {p.name})", col, have, w)]
    for gid, fold in folds.items():
        for seq, name in fold.results:
            if (gid, seq, name) not in seen_results:
                out.append((rows.game_name(gid), f"entry {seq}", f"its result for {name} has no result row"))
    out += _check_player_totals(rows, folds)
    out += _check_session_totals(rows, folds)
    out += _check_game_totals(rows, folds)
    return out


def _check_player_totals(rows: _Rows, folds: dict[int, Replayed]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    have = set()
    for t in rows.t["player_total"]:
        p = rows.players.get(t.player_id)
        where = f"player_total row of player {t.player_id}"
        if p is None or t.game_id != p.game_id:
            out.append((RECORD, f"{where}, column {'player_id' if p is None else 'game_id'}",
                        "does not match a player of that game"))
            continue
        have.add(p.id)
        want = folds[p.game_id].player_totals.get(p.name) if p.game_id in folds else None
        if want is None:
            continue  # the player row itself is reported
        where = f"player_total row of {p.name}"
        for col in ("points", "hands", "best", "worst", "nights_won"):
            out += [(rows.game_name(p.game_id), *d) for d in _differ(where, col, getattr(t, col), getattr(want, col))]
    out += [(rows.game_name(p.game_id), f"player {p.name}", "has no player_total row")
            for p in rows.t["player"] if p.id not in have]
    return out


def _check_session_totals(rows: _Rows, folds: dict[int, Replayed]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    have = set()
    for t in rows.t["session_total"]:
        s, p = rows.sessions.get(t.session_id), rows.players.get(t.player_id)
        where = f"session_total row ({t.session_id}, {t.player_id})"
        if s is None or p is None or s.game_id != p.game_id:
            out.append((RECORD, where, "does not join a night and a player of the same game"))
            continue
        have.add((s.id, p.id))
        fold = folds.get(s.game_id)
        want = fold.night_totals.get((s.number, p.name)) if fold else None
        game = rows.game_name(s.game_id)
        if want is None:
            out.append((game, where, f"night {s.number} and {p.name} are not both in the chain"))
            continue
        where = f"session_total row of night {s.number}, {p.name}"
        out += [(game, *d) for d in _differ(where, "points", t.points, want[0]) + _differ(where, "hands", t.hands, want[1])]
    for s in rows.t["session"]:
        for p in rows.t["player"]:
            if p.game_id == s.game_id and (s.id, p.id) not in have:
                out.append((rows.game_name(s.game_id), f"night {s.number}, {p.name}", "has no session_total row"))
    return out


def _check_game_totals(rows: _Rows, folds: dict[int, Replayed]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    have = set()
    for t in rows.t["game_total"]:
        fold = folds.get(t.game_id)
        if fold is None:
            out.append((RECORD, f"game_total row of game {t.game_id}", "points at no game"))
            continue
        have.add(t.game_id)
        game, where = rows.game_name(t.game_id), "game_total row"
        if t.entries > fold.entries:
            out.append((game, f"{where}, column entries",
                        f"records {t.entries} entries but the log holds {fold.entries}: entries were removed"))
        else:
            out += [(game, *d) for d in _differ(where, "entries", t.entries, fold.entries)]
        out += [(game, *d) for d in _differ(where, "hands", t.hands, fold.hands) + _differ(where, "head_hash", t.head_hash, fold.head)]
    out += [(g.name, "game_total", "the game has no game_total row") for g in rows.t["game"] if g.id not in have]
    return out
