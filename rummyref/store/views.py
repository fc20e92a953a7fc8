"""Reading the record: history, and verify (the standings live in ``store.standings``)."""

from __future__ import annotations

from dataclasses import dataclass
from sqlmodel import select

from rummyref.chain import GENESIS, entry_hash
from rummyref.errors import NotFound
from rummyref.record import Entry, Game
from rummyref.rules.ruleset import RuleSet
from rummyref.store.migrations import AGGREGATE_QUERIES
from rummyref.store.models import EntryRow, GameRow, SessionRow
from rummyref.store.record import Record, entry_payload, to_entry

@dataclass(frozen=True)
class HistoryLine:
    entry: Entry
    current: bool  #: the hand's record in force (not superseded by a later correction); a ruling: always


@dataclass(frozen=True)
class History:
    game: Game
    lines: tuple[HistoryLine, ...]
    ruleset: RuleSet


def history(rec: Record, name: str | None, night: int | None) -> History:
    g = rec.game_row(name)
    game = rec.game(g)
    nights = {s.id: s.number for s in rec.s.exec(select(SessionRow).where(SessionRow.game_id == g.id))}
    query = select(EntryRow).where(EntryRow.game_id == g.id)
    if night is not None:
        sid = next((i for i, n in nights.items() if n == night), None)
        if sid is None:
            word = rec.ruleset(g).session_word
            raise NotFound(f"game {g.name} has no {word} {night}", hint=f"{word}s 1 to {max(nights.values(), default=0)}")
        query = query.where(EntryRow.session_id == sid)
    rows = list(rec.s.exec(query.order_by(EntryRow.seq)))  # type: ignore[arg-type]
    results: dict[int, dict[str, int]] = {}
    current: set[int] = set()
    ids = [r.id for r in rows]
    for entry_id, pname, pts, cur in _results(rec, g.id):  # type: ignore[arg-type]
        if entry_id in ids or night is None:
            results.setdefault(entry_id, {})[pname] = pts
            if cur:
                current.add(entry_id)
    last_of_hand: dict[int, int] = {}
    for r in rows:
        last_of_hand[r.hand] = r.seq  # type: ignore[index]
    lines = tuple(
        HistoryLine(
            to_entry(r, nights.get(r.session_id), results.get(r.id, {})),  # type: ignore[arg-type]
            r.kind == "ruling" or (last_of_hand.get(r.hand) == r.seq and r.kind != "void"),  # type: ignore[arg-type]
        )
        for r in rows
    )
    return History(game, lines, rec.ruleset(g))


def _results(rec: Record, game_id: int):
    return rec.sql(
        "SELECT r.entry_id, p.name, r.points, r.current FROM result r JOIN player p ON p.id = r.player_id "
        "WHERE p.game_id = :g ORDER BY p.seat",
        g=game_id,
    )


# -- verify ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    game: str
    where: str  #: "entry 12 (hand 11)", "player_total of Ben", ...
    what: str


@dataclass(frozen=True)
class VerifyReport:
    games: int
    entries: int
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(rec: Record) -> VerifyReport:
    problems: list[Problem] = []
    games = list(rec.s.exec(select(GameRow).order_by(GameRow.id)))
    entries = 0
    for g in games:
        nights = {s.id: s.number for s in rec.s.exec(select(SessionRow).where(SessionRow.game_id == g.id))}
        results: dict[int, dict[str, int]] = {}
        for entry_id, pname, pts, _cur in _results(rec, g.id):  # type: ignore[arg-type]
            results.setdefault(entry_id, {})[pname] = pts
        prev, expected_seq = GENESIS, 1
        rows = list(rec.s.exec(select(EntryRow).where(EntryRow.game_id == g.id).order_by(EntryRow.seq)))  # type: ignore[arg-type]
        for r in rows:
            entries += 1
            where = f"entry {r.seq}" + (f" (hand {r.hand})" if r.hand else "")
            if r.seq != expected_seq:
                problems.append(Problem(g.name, f"entry {expected_seq}", f"missing: the log jumps to entry {r.seq}"))
            if r.prev_hash != prev:
                problems.append(Problem(g.name, where, "does not follow the entry before it (chain broken)"))
            try:
                payload = entry_payload(g.name, nights.get(r.session_id), r, results.get(r.id, {}))  # type: ignore[arg-type]
                ok = entry_hash(payload, r.prev_hash) == r.hash
            except (ValueError, TypeError):
                ok = False
            if not ok:
                problems.append(Problem(g.name, where, "changed outside ref (its hash does not match its content)"))
            prev, expected_seq = r.hash, r.seq + 1
        problems += _check_aggregates(rec, g, prev, len(rows))
        problems += _check_current(rec, g, rows)
    return VerifyReport(len(games), entries, tuple(problems))


def _check_current(rec: Record, g: GameRow, rows: list[EntryRow]) -> list[Problem]:
    last: dict[int, EntryRow] = {}
    for r in rows:
        if r.hand is not None:
            last[r.hand] = r
    want = {r.id for r in last.values() if r.kind != "void"}
    have = {
        e for (e,) in rec.sql(
            "SELECT DISTINCT r.entry_id FROM result r JOIN entry e ON e.id = r.entry_id "
            "WHERE e.game_id = :g AND r.current = 1", g=g.id,
        )
    }
    if want != have:
        bad = sorted((want ^ have) - {None})
        seqs = [r.seq for r in rows if r.id in bad]
        return [Problem(g.name, f"results of entries {seqs}", "marked in force or superseded wrongly")]
    return []


def _check_aggregates(rec: Record, g: GameRow, head: str, count: int) -> list[Problem]:
    problems = []
    names = dict(rec.sql("SELECT id, name FROM player WHERE game_id = :g", g=g.id).all())
    fresh = {
        r[0]: tuple(r[2:6])
        for r in rec.sql(AGGREGATE_QUERIES["player_total"] + " HAVING p.game_id = :g", g=g.id)
    }
    stored = {
        r[0]: tuple(r[1:])
        for r in rec.sql("SELECT player_id, points, hands, best, worst FROM player_total WHERE game_id = :g", g=g.id)
    }
    for pid, want in fresh.items():
        if stored.get(pid) != want:
            problems.append(
                Problem(g.name, f"player_total of {names[pid]}", f"is {stored.get(pid)}, the log says {want} (points, hands, best, worst)")
            )
    sess = {
        (r[0], r[1]): tuple(r[2:])
        for r in rec.sql(AGGREGATE_QUERIES["session_total"].replace("GROUP BY", "WHERE s.game_id = :g GROUP BY"), g=g.id)
    }
    stored_s = {
        (r[0], r[1]): tuple(r[2:])
        for r in rec.sql(
            "SELECT t.session_id, t.player_id, t.points, t.hands FROM session_total t JOIN session s ON s.id = t.session_id "
            "WHERE s.game_id = :g", g=g.id,
        )
    }
    for key, want in sess.items():
        if stored_s.get(key) != want:
            problems.append(Problem(g.name, f"session_total of {names[key[1]]}", f"is {stored_s.get(key)}, the log says {want}"))
    for pid, have, want in rec.sql(
        "SELECT t.player_id, t.nights_won, (SELECT COUNT(*) FROM session_total st JOIN session s ON s.id = st.session_id "
        "WHERE st.player_id = t.player_id AND s.closed_at IS NOT NULL AND st.hands > 0 AND st.points = "
        "(SELECT MAX(st2.points) FROM session_total st2 WHERE st2.session_id = st.session_id)) "
        "FROM player_total t WHERE t.game_id = :g", g=g.id,
    ):
        if have != want:
            problems.append(Problem(g.name, f"nights won by {names[pid]}", f"is {have}, the nights say {want}"))
    gt = rec.sql("SELECT hands, entries, head_hash FROM game_total WHERE game_id = :g", g=g.id).first()
    want_gt = rec.sql(AGGREGATE_QUERIES["game_total"] + " WHERE g.id = :g", g=g.id).first()
    if gt is None or tuple(gt) != tuple(want_gt[1:]):
        what = f"is {tuple(gt) if gt else None}, the log says {tuple(want_gt[1:])}"
        if gt is not None and gt[1] > count:
            what = f"records {gt[1]} entries but the log holds {count}: entries were removed"
        problems.append(Problem(g.name, "game_total", what))
    return problems
