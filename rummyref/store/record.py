"""The ledger: games, sessions and the hash-chained log of hands, each write in one transaction.

The ledger knows no game's rules. A kind (``rummyref.games``) decides everything about a hand
and hands the ledger a :class:`~rummyref.record.Draft`; the ledger appends it to the game's
hash-chained ``entry`` log, writes its ``result`` rows and updates the cached aggregates in the
same ``BEGIN IMMEDIATE`` transaction, after checking that the log still stands where the command
read it (:mod:`rummyref.store.guard`). A refusal raises before the transaction commits: nothing
is written. Reads build a :class:`~rummyref.record.Context` in one transaction.

Every committed write is noted in :data:`COMMITTED` (the entries it appended), so that a Ctrl-C
is reported truly: from the end of a write's work until the note is made, SIGINT is held
(:class:`_CtrlCHeld`), and delivered once it is known whether the write stands.
"""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy import text
from sqlmodel import Session, col, select

from rummyref.chain import GENESIS, entry_hash
from rummyref.errors import NotFound
from rummyref.record import (
    Context,
    Draft,
    Entry,
    EntryKind,
    Game,
    GameHeader,
    HandInForce,
    Player,
    PlayerResult,
    Position,
    SessionInfo,
    Status,
)
from rummyref.rules.ruleset import RuleSet
from rummyref.store.choice import recordable
from rummyref.store.clock import stamp
from rummyref.store.engine import must_be_writable, opened, storage_errors
from rummyref.store.guard import expect, expect_entry, trusted
from rummyref.store.migrations import NIGHTS_WON
from rummyref.store.models import (
    EntryRow,
    GameRow,
    GameTotalRow,
    PlayerRow,
    PlayerTotalRow,
    ResultRow,
    SessionRow,
    row_id,
)
from rummyref.store.select import HANDS_DEALT, LAST_DEALER, SESSION_LOG, _last_played, _parsed, choose_game

#: a session number past every game's sessions (a 32-bit integer, as the column holds)
SESSIONS_PAST_ANY = 2**31 - 1


@dataclass(frozen=True)
class Written:
    """One entry a committed write appended (or, ``kind`` "import", a game an import brought):
    what ``ref`` names when a Ctrl-C lands after the commit."""

    game: str
    kind: str  #: an entry kind (``hand``, ``amend``, ``session-open`` ...) or ``import``
    seq: int | None = None
    hand: int | None = None
    session: int | None = None
    rules: tuple[str, str] | None = None  #: the game's rule set, name and text (for its words)

    @property
    def words(self) -> tuple[str, str]:
        """What the game calls a hand and a session (read only when asked: a Ctrl-C)."""
        try:
            rules = _parsed(self.rules[0], self.rules[1], self.game) if self.rules else None
        except Exception:  # noqa: BLE001 - only words: the ledger's own are as true
            rules = None
        return (rules.hand_word, rules.session_word) if rules else ("hand", "session")


#: every write this process committed, in order, each as the entries it appended (a write that
#: appended none, a dispute not kept, is an empty tuple): what stands after a Ctrl-C
COMMITTED: list[tuple[Written, ...]] = []


class _CtrlCHeld:
    """SIGINT held from the end of a write's work (before its COMMIT) until the write is known
    to stand (noted in :data:`COMMITTED`) or to be refused; a Ctrl-C meanwhile is delivered
    then. Without it an interrupt landing just after the COMMIT (or, for a new record, while
    its file is put in place) could not be told from one before it. Only the main thread
    handles signals: elsewhere nothing is held."""

    def __init__(self) -> None:
        self.previous: object = None
        self.caught = False
        self.active = False

    def hold(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        try:
            self.previous = signal.signal(signal.SIGINT, self._caught)
        except (ValueError, OSError):  # pragma: no cover - no signals here (an embedded interpreter)
            return
        self.active = True

    def _caught(self, signum, frame) -> None:
        self.caught = True

    def release(self, deliver: bool) -> None:
        """Put the handler back; with ``deliver``, act on a Ctrl-C that came meanwhile (Python's
        own handler raises KeyboardInterrupt)."""
        if not self.active:
            return
        self.active = False
        previous = self.previous if self.previous is not None else signal.SIG_DFL
        signal.signal(signal.SIGINT, previous)  # type: ignore[arg-type]
        if not (self.caught and deliver):
            return
        if callable(previous):
            previous(signal.SIGINT, None)
        elif previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


@contextmanager
def writing(db: str | None, create: bool = False) -> Iterator[Record]:
    """One write transaction (BEGIN IMMEDIATE) on an up-to-date database (created if asked).
    Once committed (a new record: once its file is in place), the write is noted in
    :data:`COMMITTED` before a Ctrl-C that came during the commit is let through."""
    held = _CtrlCHeld()
    try:
        with opened(db, create) as engine, storage_errors(engine):
            must_be_writable(engine)  # a record this user cannot write: refused before anything is asked of it
            with Session(engine, expire_on_commit=False, autoflush=False) as session:
                with session.begin():
                    rec = Record(session)
                    yield rec
                    held.hold()  # from here a Ctrl-C waits: the COMMIT, and a new record's file put in place
        COMMITTED.append(tuple(rec.wrote))
    except BaseException:
        held.release(deliver=False)  # refused, or failed: the error says so (nothing was written)
        raise
    held.release(deliver=True)


def must_write(db: str | None, what: str = "") -> None:
    """Refuse (exit 6), before anything is asked, a record this user cannot write, as
    :func:`writing` would when the write came: for a command that reads first and writes later
    (``ref night`` resuming a session, whose first write comes only after a hand is typed)."""
    with opened(db) as engine:
        must_be_writable(engine, what)


@contextmanager
def reading(db: str | None, columns: bool = True) -> Iterator[Record]:
    """A read-only (deferred) transaction; ``columns=False``: a PostgreSQL record whose columns
    are not ref's is opened all the same (``ref verify`` reports them)."""
    with opened(db, columns=columns) as engine, storage_errors(engine):
        with Session(engine.execution_options(sqlite_begin="DEFERRED"), autoflush=False) as session:
            with session.begin():
                yield Record(session)
                session.rollback()


class Record:
    """The ledger, inside one transaction."""

    def __init__(self, session: Session) -> None:
        self.s = session
        #: the write about to be made folds every hand in force (its kind says so, per command):
        #: the check of what it rests on then reads every entry (:func:`~rummyref.store.guard.trusted`)
        self.history = False
        #: what this write appended, noted in :data:`COMMITTED` once it commits
        self.wrote: list[Written] = []

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``: for the few statements that differ."""
        return self.s.get_bind().dialect.name

    def sql(self, query: str, **params):
        return self.s.connection().execute(text(query), params)

    # -- which game (SPEC §8) ----------------------------------------------------------------

    def game_row(self, name: str | None, names: Sequence[str] = ()) -> GameRow:
        """The game a command means (SPEC §8; see :func:`choose_game`)."""
        return self._row(choose_game(self.s.connection(), name, names))

    def last_played(self) -> GameRow | None:
        found = _last_played(self.s.connection())
        return self._row(found) if found is not None else None

    def find_game(self, name: str) -> GameRow | None:
        if not recordable(name):  # no game's name (bytes that are not UTF-8): a new game's, refused as such
            return None
        return self.s.exec(select(GameRow).where(GameRow.name == name)).first()

    def _row(self, game_id: int) -> GameRow:
        row = self.s.get(GameRow, game_id)
        assert row is not None
        return row

    # -- reading a game ----------------------------------------------------------------------

    def players(self, game_id: int) -> list[PlayerRow]:
        return list(self.s.exec(select(PlayerRow).where(PlayerRow.game_id == game_id).order_by(col(PlayerRow.seat))))

    def game(self, row: GameRow) -> Game:
        players = tuple(Player(p.name, p.seat, p.opening) for p in self.players(row_id(row)))
        options = json.loads(row.options or "{}")
        closed = bool(options.get("closed_roster", True))
        return Game(row.name, row.ruleset, row.target, row.wildcards, players, row.created_at, row.finished_at,
                    row.winner, closed, options)

    def ruleset(self, row: GameRow) -> RuleSet:
        """The rule set as it was when the game began (its text is kept with the game), parsed once."""
        return _parsed(row.ruleset, row.ruleset_text, row.name)

    def position(self, g: GameRow) -> Position:
        """Where the game's log stands now."""
        last, entries, changed = self.sql(
            "SELECT COALESCE(MAX(hand), 0), COUNT(*), COALESCE(MAX(CASE WHEN hand IS NOT NULL THEN seq END), 0) "
            "FROM entry WHERE game_id = :g", g=g.id).first() or (0, 0, 0)
        s = self.open_night_row(row_id(g))
        return Position(g.name, int(last or 0) + 1, s.number if s else None, int(entries or 0), int(changed or 0))

    def context(self, g: GameRow, history: bool = False) -> Context:
        """Everything a command needs of game ``g`` (the hands in force only if ``history``)."""
        sessions = tuple(
            SessionInfo(s.number, s.opened_at, s.closed_at, json.loads(s.options or "{}"))
            for s in self.s.exec(select(SessionRow).where(SessionRow.game_id == row_id(g)).order_by(col(SessionRow.number)))
        )
        open_row = self.open_night_row(row_id(g))
        dealt = self.hands_dealt(row_id(open_row)) if open_row else 0
        return Context(self.game(g), self.ruleset(g), self.position(g), self.totals(row_id(g)), sessions, dealt,
                       self.in_force(g) if history else None,
                       self.night_points(row_id(open_row)) if open_row else (),
                       self.last_status(g),
                       self.session_hands(row_id(open_row)) if open_row else 0,
                       self.session_log(row_id(open_row)) if open_row else (),
                       self.dealt_before(g, open_row.number if open_row else None))

    def dealt_before(self, g: GameRow, number: int | None) -> str | None:
        """The dealer of the game's last hand in force in a session before ``number`` (None: in
        any session)."""
        dealer = self.sql(LAST_DEALER, g=g.id, n=number if number is not None else SESSIONS_PAST_ANY).scalar()
        return str(dealer) if dealer else None

    def last_status(self, g: GameRow) -> Status | None:
        """The game's status as the latest entry that states one says (ties pending past the target)."""
        row = self.sql("SELECT facts FROM entry WHERE game_id = :g AND hand IS NOT NULL ORDER BY seq DESC LIMIT 1",
                       g=g.id).first()
        st = json.loads(row[0] or "{}").get("status") if row else None
        return Status(bool(st["over"]), st.get("winner"), tuple(st.get("tied", ()))) if st else None

    def in_force(self, g: GameRow) -> tuple[HandInForce, ...]:
        """Every hand as now in force (its latest entry), in hand order, with its results."""
        latest: dict[int, tuple] = {}
        for row in self.sql(
            "SELECT e.id, e.hand, s.number, e.hand_in_session, e.dealer, e.kind, e.seq, e.facts FROM entry e "
            "JOIN session s ON s.id = e.session_id WHERE e.game_id = :g AND e.hand IS NOT NULL ORDER BY e.seq",
            g=g.id,
        ):
            latest[row[1]] = tuple(row)
        results: dict[int, list[PlayerResult]] = {}
        for eid, name, pts, count, won in self.sql(
            "SELECT r.entry_id, p.name, r.points, r.count, r.won FROM result r JOIN player p ON p.id = r.player_id "
            "WHERE p.game_id = :g AND r.current = 1 ORDER BY p.seat", g=g.id,
        ):
            results.setdefault(eid, []).append(
                PlayerResult(name, int(pts), None if count is None else int(count), None if won is None else bool(won)))
        return tuple(
            HandInForce(hand, number, his, dealer, EntryKind(kind), seq, json.loads(facts or "{}"),
                        tuple(results.get(eid, ())))
            for eid, hand, number, his, dealer, kind, seq, facts in (latest[h] for h in sorted(latest))
        )

    def totals(self, game_id: int) -> tuple[tuple[str, int], ...]:
        rows = self.sql(
            "SELECT p.name, p.opening + t.points FROM player p JOIN player_total t ON t.player_id = p.id "
            "WHERE p.game_id = :g ORDER BY p.seat",
            g=game_id,
        )
        return tuple((n, int(v)) for n, v in rows)

    def open_night_row(self, game_id: int) -> SessionRow | None:
        return self.s.exec(
            select(SessionRow).where(SessionRow.game_id == game_id, col(SessionRow.closed_at).is_(None))
        ).first()

    def hands_dealt(self, session_id: int) -> int:
        """How far the session's hands are numbered: the last hand in force (a hand voided last
        is numbered again). Who deals them is :meth:`session_log`'s fold (SPEC §8)."""
        return int(self.sql(HANDS_DEALT, s=session_id).scalar() or 0)

    def session_log(self, session_id: int) -> tuple[tuple[str, str], ...]:
        """The session's hands and voids in the log's order, with their dealers (A3, A4, SPEC §8)."""
        return tuple((str(k), str(d or "")) for k, d in self.sql(SESSION_LOG, s=session_id))

    def night_points(self, session_id: int) -> tuple[tuple[str, int], ...]:
        rows = self.sql(
            "SELECT p.name, t.points FROM session_total t JOIN player p ON p.id = t.player_id "
            "WHERE t.session_id = :s ORDER BY p.seat",
            s=session_id,
        )
        return tuple((n, int(v)) for n, v in rows)

    def session_hands(self, session_id: int) -> int:
        return int(self.sql("SELECT COALESCE(MAX(hands), 0) FROM session_total WHERE session_id = :s",
                            s=session_id).scalar())

    def effective(self, g: GameRow, hand: int) -> EntryRow:
        row = self.s.exec(
            select(EntryRow)
            .where(EntryRow.game_id == g.id, EntryRow.hand == hand)
            .order_by(col(EntryRow.seq).desc())
            .limit(1)
        ).first()
        if row is None:
            last = self.position(g).next_hand - 1
            raise NotFound(
                f"game {g.name} has no hand {hand}",
                hint=f"hands are numbered 1 to {last}" if last else "no hand has been recorded yet",
            )
        return row

    def results_of(self, entry_id: int) -> dict[str, int]:
        rows = self.sql(
            "SELECT p.name, r.points FROM result r JOIN player p ON p.id = r.player_id WHERE r.entry_id = :e",
            e=entry_id,
        )
        return {n: int(v) for n, v in rows}

    # -- writing -----------------------------------------------------------------------------

    def create_game(self, header: GameHeader) -> GameRow:
        row = game_row(header, stamp())
        self.s.add(row)
        self.s.flush()
        self.s.add(GameTotalRow(game_id=row_id(row), head_hash=GENESIS))
        self.s.flush()
        self.seat(row, [n for n, _ in header.players], dict(header.players))
        from rummyref.store.header import chain_header

        chain_header(self, row)  # entry 1: the header, under the chain
        return row

    def seat(self, g: GameRow, names: Sequence[str], openings: dict[str, int] | None = None) -> tuple[str, ...]:
        """Player rows (and zero totals) for names not yet in the game, seated after the others;
        the names seated now."""
        known = {p.name for p in self.players(row_id(g))}
        seat = len(known)
        new: list[str] = []
        sessions = [s.id for s in self.s.exec(select(SessionRow).where(SessionRow.game_id == g.id))]
        for n in names:
            if n in known:
                continue
            seat += 1
            p = PlayerRow(game_id=row_id(g), name=n, seat=seat, opening=(openings or {}).get(n, 0))
            self.s.add(p)
            self.s.flush()
            self.s.add(PlayerTotalRow(player_id=row_id(p), game_id=row_id(g)))
            for sid in sessions:
                self.sql("INSERT INTO session_total (session_id, player_id) VALUES (:s, :p)", s=sid, p=p.id)
            new.append(n)
        self.s.flush()
        return tuple(new)

    def open_session(self, g: GameRow, seen: Position | None, options: dict, seated: Sequence[str] = ()) -> int:
        """Open the next session of ``g`` (``seen``: the position the command read, checked);
        ``seated``: the players this opening seated for the first time (stated in the chain)."""
        if seen is not None:
            expect(self, g, seen)
        trusted(self, g, seating=seated, history=self.history)
        number = int(self.sql("SELECT COALESCE(MAX(number), 0) FROM session WHERE game_id = :g", g=g.id).scalar()) + 1
        s = SessionRow(game_id=row_id(g), number=number, opened_at=stamp(),
                       options=json.dumps(options, ensure_ascii=False))
        self.s.add(s)
        self.s.flush()
        for p in self.players(row_id(g)):
            self.sql("INSERT INTO session_total (session_id, player_id) VALUES (:s, :p)", s=s.id, p=p.id)
        from rummyref.store.header import chain_open

        chain_open(self, g, s, seated)
        return number

    def close_session(self, g: GameRow, seen: Position, abandoned: bool = False) -> SessionRow:
        expect(self, g, seen)
        trusted(self, g, history=self.history)
        s = self.open_night_row(row_id(g))
        assert s is not None, "the kind checked that a session is open"
        s.closed_at = stamp()
        if abandoned:  # opened by mistake, no hand counted: it does not count as a session (SPEC §8)
            s.options = json.dumps({**json.loads(s.options or "{}"), "closed_as": "abandoned"}, ensure_ascii=False)
        self.s.add(s)
        self.s.flush()
        from rummyref.store.header import chain_close

        chain_close(self, g, s)
        self.refresh_nights_won(row_id(g))
        return s

    def append(self, g: GameRow, seen: Position, draft: Draft) -> EntryRow:
        """Append a hand, or a correction of one, exactly as the kind drafted it. A hand must land
        where the command read the log; a correction only needs its hand unchanged since then
        (other hands, or another night, do not make it stale)."""
        trusted(self, g, history=self.history)
        if draft.kind in (EntryKind.AMEND, EntryKind.VOID):
            return self._correct(g, draft)
        expect(self, g, seen)
        s = self.open_night_row(row_id(g))
        assert s is not None, "the kind checked that a session is open"
        entry = self.append_entry(g, draft.kind, s, draft.hand, draft.hand_in_session, draft.dealer,
                                  chained_body(draft), draft.reason, None, draft.points())
        self.add_results(g, row_id(s), row_id(entry), draft.results, hands_delta=1)
        self._status(g, draft, entry)
        return entry

    def _correct(self, g: GameRow, draft: Draft) -> EntryRow:
        assert draft.hand is not None
        old = self.effective(g, draft.hand)
        expect_entry(g.name, self.ruleset(g).hand_word, draft.hand, old.seq, draft.target_seq)
        s = self.s.get(SessionRow, old.session_id)
        assert s is not None
        entry = self.append_entry(g, draft.kind, s, draft.hand, old.hand_in_session, old.dealer, chained_body(draft),
                                  draft.reason, old.seq, draft.points())
        old_points = self.results_of(row_id(old))
        self.sql("UPDATE result SET current = 0 WHERE entry_id = :e", e=old.id)
        self.add_results(g, row_id(s), None, tuple(PlayerResult(n, -v) for n, v in old_points.items()), hands_delta=-1)
        if draft.results:
            self.add_results(g, row_id(s), row_id(entry), draft.results, hands_delta=1)
        self.refresh_best_worst(row_id(g))
        if s.closed_at:
            self.refresh_nights_won(row_id(g))
        self._status(g, draft, entry)
        return entry

    def _status(self, g: GameRow, draft: Draft, entry: EntryRow) -> None:
        if draft.status is None:
            return
        if draft.status.over and not g.finished_at:
            g.finished_at, g.winner = entry.created_at, draft.status.winner
        elif draft.status.over and g.winner != draft.status.winner:
            g.winner = draft.status.winner
        elif not draft.status.over and g.finished_at:  # a correction can reopen a finished game
            g.finished_at, g.winner = None, None
        self.s.add(g)
        self.s.flush()

    def refresh_nights_won(self, game_id: int) -> None:
        self.sql(NIGHTS_WON.format(where=" WHERE game_id = :g"), g=game_id)

    # -- the log and the aggregates (used by store.precedents too) ----------------------------

    def append_entry(self, g, kind, s, hand, his, dealer, body, reason, target_seq, points) -> EntryRow:
        """Append one entry to the game's hash-chained log (inside the caller's write transaction)."""
        last = self.sql(
            "SELECT seq, hash FROM entry WHERE game_id = :g ORDER BY seq DESC LIMIT 1", g=g.id
        ).first()
        seq, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
        created = stamp()
        facts, digest = chained_entry(g.name, s.number if s else None, seq, prev, kind, hand, his, dealer, body,
                                      reason, target_seq, created, points)
        row = EntryRow(
            game_id=g.id, seq=seq, kind=str(kind), session_id=s.id if s else None, hand=hand, hand_in_session=his,
            dealer=dealer, facts=facts, reason=reason, target_seq=target_seq, created_at=created, prev_hash=prev,
            hash=digest,
        )
        self.s.add(row)
        self.s.flush()
        self.sql(
            "UPDATE game_total SET entries = entries + 1, head_hash = :h WHERE game_id = :g", h=row.hash, g=g.id
        )
        self.wrote.append(Written(g.name, str(kind), seq, hand, s.number if s else None, (g.ruleset, g.ruleset_text)))
        return row

    def add_results(self, g: GameRow, session_id: int, entry_id: int | None, results: Sequence[PlayerResult],
                    hands_delta: int) -> None:
        ids = {p.name: row_id(p) for p in self.players(row_id(g))}
        for r in results:
            pid, pts = ids[r.name], r.points
            if entry_id is not None:
                self.s.add(ResultRow(entry_id=entry_id, player_id=pid, points=pts, count=r.count,
                                     won=None if r.won is None else int(r.won)))
                self.sql(
                    "UPDATE player_total SET points = points + :v, hands = hands + 1, "
                    "best = CASE WHEN best IS NULL OR best < :v THEN :v ELSE best END, "
                    "worst = CASE WHEN worst IS NULL OR worst > :v THEN :v ELSE worst END WHERE player_id = :p",
                    v=pts, p=pid,
                )
            else:
                self.sql(
                    "UPDATE player_total SET points = points + :v, hands = hands + :d WHERE player_id = :p",
                    v=pts, d=hands_delta, p=pid,
                )
            self.sql(
                "UPDATE session_total SET points = points + :v, hands = hands + :d "
                "WHERE session_id = :s AND player_id = :p",
                v=pts, d=hands_delta, s=session_id, p=pid,
            )
        if results:
            self.sql("UPDATE game_total SET hands = hands + :d WHERE game_id = :g", d=hands_delta, g=g.id)
        self.s.flush()

    def refresh_best_worst(self, game_id: int) -> None:
        self.sql(
            "UPDATE player_total SET "
            "best = (SELECT MAX(points) FROM result r WHERE r.player_id = player_total.player_id AND r.current = 1), "
            "worst = (SELECT MIN(points) FROM result r WHERE r.player_id = player_total.player_id AND r.current = 1) "
            "WHERE game_id = :g",
            g=game_id,
        )


def game_row(header: GameHeader, created_at: str) -> GameRow:
    """The game row of a new game, as :meth:`Record.create_game` stores it."""
    return GameRow(
        name=header.name,
        ruleset=header.ruleset,
        ruleset_text=header.ruleset_text,
        target=header.target,
        wildcards=header.wildcards,
        options=json.dumps(dict(header.options), ensure_ascii=False),
        created_at=created_at,
    )


def chained_entry(game: str, night: int | None, seq: int, prev: str, kind, hand, his, dealer, body, reason,
                  target_seq, created_at: str, points: dict[str, int]) -> tuple[str, str]:
    """Entry ``seq`` of ``game``'s log after the entry whose hash is ``prev``, as
    :meth:`Record.append_entry` stores it: its facts text and its hash (pure: nothing is read or
    written; the benchmarks build their histories with it)."""
    facts = facts_text(body)
    fields = SimpleNamespace(seq=seq, kind=str(kind), hand=hand, hand_in_session=his, dealer=dealer, facts=facts,
                             reason=reason, target_seq=target_seq, created_at=created_at)
    return facts, entry_hash(entry_payload(game, night, fields, points), prev)


def facts_text(body: Any) -> str:
    """The one text ref stores for an entry's facts (every version of ref has written it so):
    the keys sorted, each once, non-ASCII letters as they are. ``ref verify`` requires each
    stored text to be exactly this text of what it parses to: the hash covers the parsed facts,
    and the database's own JSON functions (``ref stats``) must read the same facts from it."""
    return json.dumps(body, sort_keys=True, ensure_ascii=False)


def chained_body(draft: Draft) -> dict:
    """The facts as the chain keeps them: the kind's facts, plus what the ledger's rows hold beyond
    the points (each player's count and win, the game's status after the entry), so that
    ``ref verify`` can recompute every row from the chain alone."""
    body = dict(draft.facts)
    if any(r.count is not None or r.won is not None for r in draft.results):
        body["columns"] = {r.name: {"count": r.count, "won": None if r.won is None else int(r.won)}
                           for r in draft.results}
    if draft.status is not None:
        body["status"] = {"over": draft.status.over, "winner": draft.status.winner, "tied": list(draft.status.tied)}
    return body


def entry_payload(game: str, night: int | None, row, points: dict[str, int]) -> dict:
    """What an entry's hash covers: every recorded field (by name, not by row id) and its results."""
    return {
        "game": game,
        "seq": row.seq,
        "kind": row.kind,
        "night": night,
        "hand": row.hand,
        "hand_in_night": row.hand_in_session,
        "dealer": row.dealer,
        "facts": json.loads(row.facts or "{}"),
        "reason": row.reason,
        "target_seq": row.target_seq,
        "created_at": row.created_at,
        "results": dict(sorted(points.items())),
    }


def to_entry(row: EntryRow, night: int | None, results: dict[str, int]) -> Entry:
    return Entry(
        row.seq, row.kind, night, row.hand, row.hand_in_session, row.dealer, json.loads(row.facts or "{}"),
        row.reason, row.target_seq, row.created_at, row.prev_hash, row.hash, tuple(results.items()),
    )
