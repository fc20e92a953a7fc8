"""Writing the record: games, Rummy Nights, hands and corrections, each in one transaction.

Every change appends to the game's hash-chained ``entry`` log, writes its ``result`` rows and
updates the cached aggregates in the same ``BEGIN IMMEDIATE`` transaction, so the standings
never need to read the history. A refusal raises before the transaction commits: nothing
is written.
"""

from __future__ import annotations

import json
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from sqlalchemy import text
from sqlmodel import Session, select

from rummyref.chain import GENESIS, entry_hash
from rummyref.errors import NotFound, RuleRefusal, UnreadableInput
from rummyref.record import Entry, Game, Night, Player, resolve_name
from rummyref.rules.ruleset import RuleSet, load_ruleset, parse_ruleset
from rummyref.games.long.scoring import CardFacts, HandScore, PointsFacts, facts_to_json, score_hand, score_to_json
from rummyref.games.long.nights import Outcome, RoundState, check_end_of_session, dealer_of, game_outcome, round_state
from rummyref.store.clock import stamp
from rummyref.store.engine import opened, storage_errors
from rummyref.store.models import EntryRow, GameRow, GameTotalRow, PlayerRow, PlayerTotalRow, ResultRow, SessionRow
from rummyref.store.migrations import NIGHTS_WON

@contextmanager
def writing(db: str | None, create: bool = False) -> Iterator["Record"]:
    """One write transaction (BEGIN IMMEDIATE) on an up-to-date database (created if asked)."""
    with opened(db, create) as engine, storage_errors():
        with Session(engine, expire_on_commit=False, autoflush=False) as session:
            with session.begin():
                yield Record(session)


@contextmanager
def reading(db: str | None) -> Iterator["Record"]:
    """A read-only (deferred) transaction."""
    with opened(db) as engine, storage_errors():
        with Session(engine.execution_options(sqlite_begin="DEFERRED"), autoflush=False) as session:
            with session.begin():
                yield Record(session)
                session.rollback()


# -- results of the operations -------------------------------------------------------------


@dataclass(frozen=True)
class NightOpened:
    game: Game
    created: bool
    number: int
    totals: tuple[tuple[str, int], ...]
    first_dealer: str


@dataclass(frozen=True)
class HandRecorded:
    game: Game  #: after the hand
    kind: str  #: hand, amend or void
    seq: int
    hand: int
    night: int
    hand_in_night: int
    dealer: str
    score: HandScore | None  #: None for a void
    totals: tuple[tuple[str, int], ...]
    round: RoundState | None  #: the night's state after the hand (None for a correction of a closed night)
    outcome: Outcome


@dataclass(frozen=True)
class NightClosed:
    game: Game
    number: int
    hands: int
    rounds: int
    points: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    early: bool  #: ended mid-round because the game is over (A7)


class Record:
    def __init__(self, session: Session) -> None:
        self.s = session

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``: for the few statements that differ."""
        return self.s.get_bind().dialect.name

    def sql(self, query: str, **params):
        return self.s.connection().execute(text(query), params)

    # -- games -----------------------------------------------------------------------

    def game_row(self, name: str | None) -> GameRow:
        if name is not None:
            row = self.s.exec(select(GameRow).where(GameRow.name == name)).first()
            if row is None:
                names = [g for g in self.s.exec(select(GameRow.name)).all()]
                raise NotFound(
                    f"no game named {name!r}",
                    hint=f"games: {', '.join(names)}" if names else "ref new-session starts the first game",
                )
            return row
        row = self.s.exec(select(GameRow).order_by(GameRow.id.desc()).limit(1)).first()  # type: ignore[union-attr]
        if row is None:
            raise NotFound("no game has been recorded yet", hint="ref new-session starts one")
        return row

    def players(self, game_id: int) -> list[PlayerRow]:
        return list(self.s.exec(select(PlayerRow).where(PlayerRow.game_id == game_id).order_by(PlayerRow.seat)))

    def game(self, row: GameRow) -> Game:
        players = tuple(Player(p.name, p.seat, p.opening) for p in self.players(row.id))  # type: ignore[arg-type]
        closed = bool(json.loads(row.options or "{}").get("closed_roster", True))
        return Game(row.name, row.ruleset, row.target, row.wildcards, players, row.created_at, row.finished_at,
                    row.winner, closed)

    def ruleset(self, row: GameRow) -> RuleSet:
        """The rule set as it was when the game began (its text is kept with the game)."""
        return parse_ruleset(tomllib.loads(row.ruleset_text), f"{row.ruleset} (as kept with game {row.name})")

    def create_game(
        self,
        name: str | None,
        ruleset_spec: str | None,
        players: Sequence[str] | None,
        openings: dict[str, int],
        wildcards: int | None,
    ) -> GameRow:
        rs = load_ruleset(ruleset_spec or "rummy-2m")
        roster = list(players or rs.default_players)
        if not roster:
            raise UnreadableInput(f"{rs.title} has no default players", hint="name them: --players A,B,C")
        if len({n.casefold() for n in roster}) != len(roster):
            raise UnreadableInput(f"a name appears twice in --players {','.join(roster)}")
        if not rs.players_min <= len(roster) <= rs.players_max:
            raise RuleRefusal(
                f"{rs.title} is for {rs.players_min} to {rs.players_max} players, not {len(roster)}"
            )
        wild = rs.wild_default if wildcards is None else wildcards
        if not rs.wild_min <= wild <= rs.wild_max:
            raise RuleRefusal(f"{rs.title} uses {rs.wild_min} to {rs.wild_max} WILDCARDs, not {wild}")
        name = name or rs.name
        opening = {resolve_name(n, roster, name, rs.closed_roster): v for n, v in openings.items()}
        row = GameRow(
            name=name,
            ruleset=rs.name,
            ruleset_text=Path(rs.source).read_text(encoding="utf-8"),
            target=rs.target,
            wildcards=wild,
            options=json.dumps({"closed_roster": rs.closed_roster, "full_rounds": rs.full_rounds}),
            created_at=stamp(),
        )
        self.s.add(row)
        self.s.flush()
        for seat, n in enumerate(roster, 1):
            p = PlayerRow(game_id=row.id, name=n, seat=seat, opening=opening.get(n, 0))  # type: ignore[arg-type]
            self.s.add(p)
            self.s.flush()
            self.s.add(PlayerTotalRow(player_id=p.id, game_id=row.id))  # type: ignore[arg-type]
        self.s.add(GameTotalRow(game_id=row.id, head_hash=GENESIS))  # type: ignore[arg-type]
        self.s.flush()
        from rummyref.store.header import chain_header

        chain_header(self, row)  # entry 1: the header, under the chain
        return row

    def totals(self, game_id: int) -> tuple[tuple[str, int], ...]:
        rows = self.sql(
            "SELECT p.name, p.opening + t.points FROM player p JOIN player_total t ON t.player_id = p.id "
            "WHERE p.game_id = :g ORDER BY p.seat",
            g=game_id,
        )
        return tuple((n, int(v)) for n, v in rows)

    # -- nights ----------------------------------------------------------------------

    def open_night_row(self, game_id: int) -> SessionRow | None:
        return self.s.exec(
            select(SessionRow).where(SessionRow.game_id == game_id, SessionRow.closed_at.is_(None))  # type: ignore[union-attr]
        ).first()

    def night(self, row: SessionRow) -> Night:
        return Night(row.number, row.opened_at, row.closed_at, self.hands_dealt(row.id))  # type: ignore[arg-type]

    def hands_dealt(self, session_id: int) -> int:
        v = self.sql(
            "SELECT MAX(hand_in_session) FROM entry WHERE session_id = :s AND kind = 'hand'", s=session_id
        ).scalar()
        return int(v or 0)

    def new_session(
        self,
        name: str | None,
        ruleset_spec: str | None,
        players: Sequence[str] | None,
        openings: dict[str, int],
        wildcards: int | None,
    ) -> NightOpened:
        row = self._find_or_create(name, ruleset_spec, players, openings, wildcards)
        created = row[1]
        g = row[0]
        game = self.game(g)
        if g.finished_at:
            raise RuleRefusal(
                f"game {g.name} is over: {g.winner} won",
                rule="A7",
                hint="start a new game with --game NEW-NAME; the history of this one stays",
            )
        current = self.open_night_row(g.id)  # type: ignore[arg-type]
        if current is not None:
            raise RuleRefusal(
                f"Rummy Night {current.number} of {g.name} is still open (since {current.opened_at})",
                hint="record its hands, or close it with ref end-session",
            )
        number = int(self.sql("SELECT COALESCE(MAX(number), 0) FROM session WHERE game_id = :g", g=g.id).scalar()) + 1
        s = SessionRow(game_id=g.id, number=number, opened_at=stamp())  # type: ignore[arg-type]
        self.s.add(s)
        self.s.flush()
        for p in self.players(g.id):  # type: ignore[arg-type]
            self.sql("INSERT INTO session_total (session_id, player_id) VALUES (:s, :p)", s=s.id, p=p.id)
        from rummyref.store.header import chain_open

        chain_open(self, g, s)
        return NightOpened(game, created, number, self.totals(g.id), dealer_of(1, game.roster))  # type: ignore[arg-type]

    def _find_or_create(self, name, ruleset_spec, players, openings, wildcards) -> tuple[GameRow, bool]:
        if name is None:
            exists = self.s.exec(select(GameRow).order_by(GameRow.id.desc()).limit(1)).first()  # type: ignore[union-attr]
        else:
            exists = self.s.exec(select(GameRow).where(GameRow.name == name)).first()
        if exists is None:
            return self.create_game(name, ruleset_spec, players, openings, wildcards), True
        game = self.game(exists)
        closed = game.closed_roster
        if ruleset_spec and load_ruleset(ruleset_spec).name != exists.ruleset:
            raise UnreadableInput(
                f"game {exists.name} is played under {exists.ruleset}, not {ruleset_spec}",
                hint="a new game may use another rule set: --game NEW-NAME",
            )
        if openings:
            raise RuleRefusal(
                f"game {exists.name} already exists: opening balances are set only when a game is created"
            )
        if wildcards is not None and wildcards != exists.wildcards:
            raise RuleRefusal(f"game {exists.name} uses {exists.wildcards} WILDCARDs, chosen when it was created")
        if players:
            named = [resolve_name(n, game.roster, exists.name, closed) for n in players]
            missing = [n for n in game.roster if n not in named]
            if missing:
                raise RuleRefusal(
                    f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} on the roster of {exists.name} "
                    "and must play every night",
                    rule="A1" if closed else None,
                    hint=f"the roster is {', '.join(game.roster)}",
                )
        return exists, False

    def close_night(self, g: GameRow) -> NightClosed:
        s = self.open_night_row(g.id)  # type: ignore[arg-type]
        if s is None:
            raise RuleRefusal(f"no Rummy Night of {g.name} is open", hint="ref new-session opens one")
        game = self.game(g)
        dealt = self.hands_dealt(s.id)  # type: ignore[arg-type]
        state = check_end_of_session(dealt, game.roster, game_over=game.over)
        s.closed_at = stamp()
        self.s.add(s)
        self.s.flush()
        from rummyref.store.header import chain_close

        chain_close(self, g, s)
        self.refresh_nights_won(g.id)  # type: ignore[arg-type]
        points = self.night_points(s.id)  # type: ignore[arg-type]
        hands = int(self.sql("SELECT COALESCE(MAX(hands), 0) FROM session_total WHERE session_id = :s", s=s.id).scalar())
        best = max((p for _, p in points), default=0)
        winners = tuple(n for n, p in points if p == best) if hands else ()
        return NightClosed(game, s.number, dealt, state.rounds, points, winners, state.mid_round)

    def night_points(self, session_id: int) -> tuple[tuple[str, int], ...]:
        rows = self.sql(
            "SELECT p.name, t.points FROM session_total t JOIN player p ON p.id = t.player_id "
            "WHERE t.session_id = :s ORDER BY p.seat",
            s=session_id,
        )
        return tuple((n, int(v)) for n, v in rows)

    def refresh_nights_won(self, game_id: int) -> None:
        self.sql(NIGHTS_WON.format(where=" WHERE game_id = :g"), g=game_id)

    # -- hands -----------------------------------------------------------------------

    def record_hand(self, g: GameRow, facts: CardFacts | PointsFacts, dealer: str | None = None) -> HandRecorded:
        game = self.game(g)
        if g.finished_at:
            raise RuleRefusal(
                f"game {g.name} is over ({g.winner} won): it takes no more hands",
                rule="A7",
                hint="start a new game with ref new-session --game NEW-NAME",
            )
        s = self.open_night_row(g.id)  # type: ignore[arg-type]
        if s is None:
            raise RuleRefusal(f"no Rummy Night of {g.name} is open", hint="ref new-session opens one")
        his = self.hands_dealt(s.id) + 1  # type: ignore[arg-type]
        expected = dealer_of(his, game.roster)
        if dealer is not None and dealer != expected:
            raise RuleRefusal(
                f"hand {his} of the night is {expected}'s deal, not {dealer}'s",
                rule="A3",
                hint=f"the deal goes {', '.join(game.roster)}, no exceptions",
            )
        score = score_hand(facts, self.ruleset(g), g.wildcards, game.roster)
        hand = int(self.sql("SELECT COALESCE(MAX(hand), 0) FROM entry WHERE game_id = :g", g=g.id).scalar()) + 1
        body = {**facts_to_json(facts), "score": score_to_json(score)}
        entry = self.append_entry(g, "hand", s, hand, his, expected, body, None, None, score.points())
        self.add_results(g, s.id, entry.id, score.points(), hands_delta=1)  # type: ignore[arg-type]
        return self._after(g, "hand", entry, s, score)

    def effective(self, g: GameRow, hand: int) -> EntryRow:
        row = self.s.exec(
            select(EntryRow)
            .where(EntryRow.game_id == g.id, EntryRow.hand == hand)
            .order_by(EntryRow.seq.desc())  # type: ignore[union-attr]
            .limit(1)
        ).first()
        if row is None:
            last = self.sql("SELECT MAX(hand) FROM entry WHERE game_id = :g", g=g.id).scalar()
            raise NotFound(
                f"game {g.name} has no hand {hand}",
                hint=f"hands are numbered 1 to {last}" if last else "no hand has been recorded yet",
            )
        return row

    def amend(self, g: GameRow, hand: int, facts: CardFacts | PointsFacts, reason: str) -> HandRecorded:
        return self._correct(g, hand, "amend", facts, reason)

    def void(self, g: GameRow, hand: int, reason: str) -> HandRecorded:
        return self._correct(g, hand, "void", None, reason)

    def _correct(self, g: GameRow, hand: int, kind: str, facts, reason: str) -> HandRecorded:
        if not reason or not reason.strip():
            raise UnreadableInput("a correction needs a reason", hint='--reason "what was wrong"')
        old = self.effective(g, hand)
        if old.kind == "void":
            raise RuleRefusal(
                f"hand {hand} was voided (entry {old.seq}: {old.reason})",
                rule="B7",
                hint="a voided hand stays voided; record what happened as a new hand",
            )
        game = self.game(g)
        s = self.s.get(SessionRow, old.session_id)
        score = None
        points: dict[str, int] = {}
        body: dict = {}
        if facts is not None:
            score = score_hand(facts, self.ruleset(g), g.wildcards, game.roster)
            points = score.points()
            body = {**facts_to_json(facts), "score": score_to_json(score)}
        entry = self.append_entry(g, kind, s, hand, old.hand_in_session, old.dealer, body, reason.strip(), old.seq, points)
        old_points = self.results_of(old.id)  # type: ignore[arg-type]
        self.sql("UPDATE result SET current = 0 WHERE entry_id = :e", e=old.id)
        self.add_results(g, s.id, None, {n: -v for n, v in old_points.items()}, hands_delta=-1)  # type: ignore[union-attr]
        if points:
            self.add_results(g, s.id, entry.id, points, hands_delta=1)  # type: ignore[union-attr]
        self.refresh_best_worst(g.id)  # type: ignore[arg-type]
        if s.closed_at:  # type: ignore[union-attr]
            self.refresh_nights_won(g.id)  # type: ignore[arg-type]
        return self._after(g, kind, entry, s, score)

    def results_of(self, entry_id: int) -> dict[str, int]:
        rows = self.sql(
            "SELECT p.name, r.points FROM result r JOIN player p ON p.id = r.player_id WHERE r.entry_id = :e",
            e=entry_id,
        )
        return {n: int(v) for n, v in rows}

    def _after(self, g: GameRow, kind: str, entry: EntryRow, s, score) -> HandRecorded:
        totals = self.totals(g.id)  # type: ignore[arg-type]
        outcome = game_outcome(totals, g.target)
        if outcome.over and not g.finished_at:
            g.finished_at, g.winner = entry.created_at, outcome.winner
        elif not outcome.over and g.finished_at:  # a correction can reopen a finished game
            g.finished_at, g.winner = None, None
        self.s.add(g)
        self.s.flush()
        game = self.game(g)
        state = round_state(self.hands_dealt(s.id), game.roster) if not s.closed_at else None
        return HandRecorded(
            game, kind, entry.seq, entry.hand, s.number, entry.hand_in_session, entry.dealer,  # type: ignore[arg-type]
            score, totals, state, outcome,
        )

    # -- the log and the aggregates (used by store.simple and store.precedents too) ---------

    def append_entry(self, g, kind, s, hand, his, dealer, body, reason, target_seq, points) -> EntryRow:
        """Append one entry to the game's hash-chained log (inside the caller's write transaction)."""
        last = self.sql(
            "SELECT seq, hash FROM entry WHERE game_id = :g ORDER BY seq DESC LIMIT 1", g=g.id
        ).first()
        seq, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
        row = EntryRow(
            game_id=g.id, seq=seq, kind=kind, session_id=s.id if s else None, hand=hand, hand_in_session=his,
            dealer=dealer, facts=json.dumps(body, sort_keys=True, ensure_ascii=False), reason=reason,
            target_seq=target_seq, created_at=stamp(), prev_hash=prev, hash="",
        )
        row.hash = entry_hash(entry_payload(g.name, s.number if s else None, row, points), prev)
        self.s.add(row)
        self.s.flush()
        self.sql(
            "UPDATE game_total SET entries = entries + 1, head_hash = :h WHERE game_id = :g", h=row.hash, g=g.id
        )
        return row

    def add_results(self, g: GameRow, session_id: int, entry_id: int | None, points: dict[str, int], hands_delta: int):
        ids = {p.name: p.id for p in self.players(g.id)}  # type: ignore[arg-type]
        for name, pts in points.items():
            pid = ids[name]
            if entry_id is not None:
                self.s.add(ResultRow(entry_id=entry_id, player_id=pid, points=pts))  # type: ignore[arg-type]
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
        if points:
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
