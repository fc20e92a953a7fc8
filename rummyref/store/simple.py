"""Simple Rummy on the record: sessions with their table, games (one hand each), corrections,
and the match state (S17), in the same append-only hash-chained log as Rummy 2,000,000.

How it is kept (no schema change):
- the game row's ``options`` JSON says ``"method": "low-count"``; its roster only grows (S1 has
  no closed roster): a newcomer gets a ``player`` row the first time a session seats them;
- each session's ``options`` JSON holds its table (players in seating order, cards, WILDCARDs,
  variations), who dealt first and who played first, and how that was decided;
- a game is an entry of kind ``hand`` whose facts are the hands, the ending, the first player
  and the full result; its ``result`` rows carry ``count`` (S13), ``won`` (1/0) and
  ``points`` = ``won``, so the cached totals are game wins and games played;
- the match state is a fold of the games in force (:func:`fold`), so ``amend``/``void``
  are reflected at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import select

from rummyref.cards import Card, parse_cards
from rummyref.errors import RuleRefusal, UnreadableInput
from rummyref.games.low_count.match import S17, MatchState
from rummyref.rules.ruleset import RuleSet, load_ruleset
from rummyref.games.low_count.table import SimpleTable
from rummyref.games.low_count.adjudicate import Ending, GameResult, adjudicate
from rummyref.store.clock import stamp
from rummyref.store.models import (
    EntryRow,
    GameRow,
    PlayerRow,
    PlayerTotalRow,
    SessionRow,
)
from rummyref.store.record import Record

METHOD = "low-count"


def is_simple_row(g: GameRow) -> bool:
    return json.loads(g.options or "{}").get("method") == METHOD


def latest_game(rec: Record) -> GameRow | None:
    return rec.s.exec(select(GameRow).order_by(GameRow.id.desc()).limit(1)).first()  # type: ignore[union-attr]


def simple_target(rec: Record, name: str | None, ruleset_spec: str | None) -> tuple[bool, str | None]:
    """Does ``new-session`` concern a Simple Rummy game, and under which name?"""
    if name is not None:
        row = rec.s.exec(select(GameRow).where(GameRow.name == name)).first()
        if row is not None:
            return is_simple_row(row), name
        return bool(ruleset_spec) and load_ruleset(ruleset_spec).method == METHOD, name  # type: ignore[arg-type]
    latest = latest_game(rec)
    if ruleset_spec:
        rs = load_ruleset(ruleset_spec)
        if rs.method != METHOD:
            return False, None
        if latest is not None and is_simple_row(latest) and latest.ruleset == rs.name:
            return True, latest.name
        return True, rs.name
    return (latest is not None and is_simple_row(latest)), None


# -- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionOpened:
    game: str
    created: bool
    number: int
    table: SimpleTable
    dealer: str
    first_player: str
    how: str  #: why this player deals / plays first
    first_dealer: Any  #: the S3 result (FirstDealer) when cards were turned up
    newcomers: tuple[str, ...]
    match: MatchState
    new_match: bool  #: the table changed, so a new match begins (S17)


@dataclass(frozen=True)
class GameRecorded:
    game: str
    kind: str  #: hand, amend or void
    seq: int
    number: int  #: the game's number in the record (as in ref history)
    session: int
    game_in_session: int
    dealer: str
    result: GameResult | None  #: None for a void
    match: MatchState


@dataclass(frozen=True)
class SessionClosed:
    game: str
    number: int
    games: int
    wins: tuple[tuple[str, int], ...]
    match: MatchState


@dataclass(frozen=True)
class Folded:
    """The match state after every game in force, plus what the fold saw."""

    state: MatchState | None
    table: SimpleTable | None  #: the latest session's table
    abandoned: tuple[int, ...]  #: matches left unfinished because the table changed
    games: int


# -- the record ------------------------------------------------------------------------------


class SimpleRecord:
    def __init__(self, rec: Record) -> None:
        self.rec = rec
        self.s = rec.s

    # -- tables and sessions -------------------------------------------------------------

    def ruleset(self, g: GameRow) -> RuleSet:
        return self.rec.ruleset(g)

    def table_of(self, g: GameRow, s: SessionRow) -> SimpleTable:
        return SimpleTable.from_dict(self.ruleset(g), json.loads(s.options or "{}")["table"])

    def sessions(self, g: GameRow) -> list[SessionRow]:
        return list(self.s.exec(select(SessionRow).where(SessionRow.game_id == g.id).order_by(SessionRow.number)))  # type: ignore[arg-type]

    def game_row(self, name: str | None) -> GameRow:
        g = self.rec.game_row(name)
        if not is_simple_row(g):
            raise UnreadableInput(f"game {g.name} is played under {g.ruleset}, not Simple Rummy")
        return g

    def open_session(
        self,
        name: str | None,
        ruleset_spec: str | None,
        players: Sequence[str] | None,
        cards: int | None,
        wildcards: int | None,
        variations: Sequence[str],
        turned_up: Mapping[str, Sequence[Card]] | None,
    ) -> SessionOpened:
        g = self.s.exec(select(GameRow).where(GameRow.name == name)).first() if name else latest_game(self.rec)
        created = g is None
        rs = self.ruleset(g) if g is not None else load_ruleset(ruleset_spec or "simple-rummy")
        if g is not None and ruleset_spec and load_ruleset(ruleset_spec).name != g.ruleset:
            raise UnreadableInput(
                f"game {g.name} is played under {g.ruleset}, not {ruleset_spec}",
                hint="a new game may use another rule set: --game NEW-NAME",
            )
        if not players:
            raise UnreadableInput(
                "name the players in seating order (clockwise): --players Ann,Bob,Cy",
                hint="Simple Rummy seats whoever is at the table each session (S1)",
            )
        table = SimpleTable.create(rs, players, cards, wildcards, variations)
        if g is None:
            g = self._create_game(name or rs.name, rs, table)
        current = self.rec.open_night_row(g.id)  # type: ignore[arg-type]
        if current is not None:
            raise RuleRefusal(
                f"session {current.number} of {g.name} is still open (since {current.opened_at})",
                hint="ref end-session closes it (any time between games); then start the next one",
            )
        before = self.fold(g)
        known = {p.name for p in self.rec.players(g.id)}  # type: ignore[arg-type]
        newcomers = self._seat(g, table.players)
        last_players = set(before.table.players) if before.table else None
        continuing = before.state is not None and last_players == set(table.players)
        fd = None
        if continuing:
            if turned_up:
                raise RuleRefusal(
                    f"the same players sit down again, so the match goes on: {before.state.first_player} "  # type: ignore[union-attr]
                    "plays first, as the winner of the last game (or as before)",
                    rule=S17,
                    hint="--first-dealer is for a new table (the first session, or a different set of players)",
                )
            first = before.state.first_player  # type: ignore[union-attr]
            dealer = table.dealer_for(first)
            how = f"{first} plays first as the match goes on ({S17}); the player to their right, {dealer}, deals"
        elif turned_up:
            fd = table.choose_first_dealer(turned_up)
            dealer, first = fd.dealer, table.left_of(fd.dealer)
            how = f"{dealer} deals first: {fd.reason}; {first}, on the dealer's left, plays first (S6)"
        elif before.state is not None and before.state.first_player in table.players:
            first = before.state.first_player
            dealer = table.dealer_for(first)
            how = (f"{first} plays first, as the winner of the last game (or as before) ({S17}); "
                   f"the player to their right, {dealer}, deals")
        else:
            dealer = table.players[0]
            first = table.left_of(dealer)
            how = (f"{dealer}, listed first, deals (no cards turned up: --first-dealer applies S3); "
                   f"{first}, on the dealer's left, plays first (S6)")
        number = int(self.rec.sql("SELECT COALESCE(MAX(number), 0) FROM session WHERE game_id = :g", g=g.id).scalar()) + 1
        options = {
            "table": table.to_dict(),
            "dealer": dealer,
            "first_player": first,
            "how": how,
            "turned_up": None if not turned_up else {n: [str(c) for c in cs] for n, cs in turned_up.items()},
        }
        s = SessionRow(game_id=g.id, number=number, opened_at=stamp(), options=json.dumps(options, ensure_ascii=False))  # type: ignore[arg-type]
        self.s.add(s)
        self.s.flush()
        for p in self.rec.players(g.id):  # type: ignore[arg-type]
            self.rec.sql("INSERT INTO session_total (session_id, player_id) VALUES (:s, :p)", s=s.id, p=p.id)
        from rummyref.store.header import chain_open

        chain_open(self.rec, g, s, [n for n in table.players if n not in known])
        after = self.fold(g)
        new_match = before.state is not None and not continuing
        return SessionOpened(g.name, created, number, table, dealer, first, how, fd, newcomers, after.state, new_match)  # type: ignore[arg-type]

    def _create_game(self, name: str, rs: RuleSet, table: SimpleTable) -> GameRow:
        from pathlib import Path

        from rummyref.chain import GENESIS
        from rummyref.store.models import GameTotalRow

        row = GameRow(
            name=name, ruleset=rs.name, ruleset_text=Path(rs.source).read_text(encoding="utf-8"), target=None,
            wildcards=table.wildcards, created_at=stamp(),
            options=json.dumps({"closed_roster": False, "full_rounds": False, "method": METHOD}),
        )
        self.s.add(row)
        self.s.flush()
        self.s.add(GameTotalRow(game_id=row.id, head_hash=GENESIS))  # type: ignore[arg-type]
        self.s.flush()
        from rummyref.store.header import chain_header

        chain_header(self.rec, row)  # entry 1: the header, under the chain
        return row

    def _seat(self, g: GameRow, players: Sequence[str]) -> tuple[str, ...]:
        """Add a player row (and zero totals) for everyone seated for the first time."""
        known = {p.name.casefold(): p for p in self.rec.players(g.id)}  # type: ignore[arg-type]
        seat = max((p.seat for p in known.values()), default=0)
        new = []
        for name in players:
            if name.casefold() in known:
                if known[name.casefold()].name != name:
                    raise UnreadableInput(
                        f"{name!r} is written {known[name.casefold()].name!r} in game {g.name}",
                        hint=f"spell it {known[name.casefold()].name}",
                    )
                continue
            seat += 1
            p = PlayerRow(game_id=g.id, name=name, seat=seat)  # type: ignore[arg-type]
            self.s.add(p)
            self.s.flush()
            self.s.add(PlayerTotalRow(player_id=p.id, game_id=g.id))  # type: ignore[arg-type]
            for s in self.sessions(g):
                self.rec.sql("INSERT INTO session_total (session_id, player_id) VALUES (:s, :p)", s=s.id, p=p.id)
            new.append(name)
        self.s.flush()
        return tuple(new) if known else ()

    def close_session(self, g: GameRow) -> SessionClosed:
        s = self.rec.open_night_row(g.id)  # type: ignore[arg-type]
        if s is None:
            raise RuleRefusal(f"no session of {g.name} is open", hint="ref new-session opens one")
        s.closed_at = stamp()
        self.s.add(s)
        self.s.flush()
        from rummyref.store.header import chain_close

        chain_close(self.rec, g, s)
        self.rec.refresh_nights_won(g.id)  # type: ignore[arg-type]
        wins = self.rec.night_points(s.id)  # type: ignore[arg-type]
        games = int(self.rec.sql("SELECT COALESCE(MAX(hands), 0) FROM session_total WHERE session_id = :s", s=s.id).scalar())
        return SessionClosed(g.name, s.number, games, wins, self.fold(g).state)  # type: ignore[arg-type]

    # -- games ---------------------------------------------------------------------------

    def record_game(self, g: GameRow, hands: Mapping[str, Sequence[Card]], ending: Ending,
                    dealer: str | None = None) -> GameRecorded:
        s = self.rec.open_night_row(g.id)  # type: ignore[arg-type]
        if s is None:
            raise RuleRefusal(f"no session of {g.name} is open", hint="ref new-session --players ... opens one")
        table = self.table_of(g, s)
        first = self.fold(g).state.first_player  # type: ignore[union-attr]
        expected = table.dealer_for(first)
        if dealer is not None and table.player(dealer, "dealer") != expected:
            raise RuleRefusal(
                f"this game is {expected}'s deal: {first} plays first, and the dealer sits to their right",
                rule="S6", hint=f"--dealer {expected}, or leave --dealer out",
            )
        result = adjudicate(table, first, hands, ending)
        number = int(self.rec.sql("SELECT COALESCE(MAX(hand), 0) FROM entry WHERE game_id = :g", g=g.id).scalar()) + 1
        gis = self.rec.hands_dealt(s.id) + 1  # type: ignore[arg-type]
        entry = self._write(g, s, "hand", number, gis, expected, result, None, None)
        return GameRecorded(g.name, "hand", entry.seq, number, s.number, gis, expected, result, self.fold(g).state)  # type: ignore[arg-type]

    def amend(self, g: GameRow, number: int, hands: Mapping[str, Sequence[Card]], ending: Ending, reason: str) -> GameRecorded:
        return self._correct(g, number, "amend", hands, ending, reason)

    def void(self, g: GameRow, number: int, reason: str) -> GameRecorded:
        return self._correct(g, number, "void", None, None, reason)

    def stored_game(self, g: GameRow, number: int) -> dict:
        """The facts of game ``number`` as now in force (for prompting an amendment)."""
        return json.loads(self.rec.effective(g, number).facts or "{}")

    def _correct(self, g, number, kind, hands, ending, reason) -> GameRecorded:
        if not reason or not reason.strip():
            raise UnreadableInput("a correction needs a reason", hint='--reason "what was wrong"')
        old = self.rec.effective(g, number)
        if old.kind == "void":
            raise RuleRefusal(
                f"game {number} was voided (entry {old.seq}: {old.reason})",
                rule="B7", hint="a voided game stays voided; record what happened as a new game",
            )
        s = self.s.get(SessionRow, old.session_id)
        result = None
        if hands is not None:
            first = json.loads(old.facts)["first_player"]
            result = adjudicate(self.table_of(g, s), first, hands, ending)  # type: ignore[arg-type]
        old_points = self.rec.results_of(old.id)  # type: ignore[arg-type]
        entry = self._write(g, s, kind, number, old.hand_in_session, old.dealer, result, reason.strip(), old.seq)
        self.rec.sql("UPDATE result SET current = 0 WHERE entry_id = :e", e=old.id)
        self.rec.add_results(g, s.id, None, {n: -v for n, v in old_points.items()}, hands_delta=-1)  # type: ignore[union-attr]
        self.rec.refresh_best_worst(g.id)
        if s.closed_at:  # type: ignore[union-attr]
            self.rec.refresh_nights_won(g.id)
        return GameRecorded(g.name, kind, entry.seq, number, s.number, old.hand_in_session, old.dealer,  # type: ignore[union-attr, arg-type]
                            result, self.fold(g).state)  # type: ignore[arg-type]

    def _write(self, g, s, kind, number, gis, dealer, result: GameResult | None, reason, target) -> EntryRow:
        body: dict[str, Any] = {}
        points: dict[str, int] = {}
        if result is not None:
            body = {
                "form": "simple",
                "first_player": result.first_player,
                "hands": {p.name: None if p.hand is None else [str(c) for c in p.hand] for p in result.players},
                "ending": result.ending.to_dict(),
                "result": result.to_dict(),
            }
            points = {p.name: int(p.name == result.winner) for p in result.players}
        entry = self.rec.append_entry(g, kind, s, number, gis, dealer, body, reason, target, points)
        if result is not None:
            self.rec.add_results(g, s.id, entry.id, points, hands_delta=1)
            ids = {p.name: p.id for p in self.rec.players(g.id)}
            for p in result.players:
                self.rec.sql(
                    "UPDATE result SET count = :c, won = :w WHERE entry_id = :e AND player_id = :p",
                    c=p.count, w=int(p.name == result.winner), e=entry.id, p=ids[p.name],
                )
        self.s.flush()
        return entry

    # -- the match state (S17) -----------------------------------------------------------

    def fold(self, g: GameRow) -> Folded:
        """Every game in force, session by session, folded into the match state. A session that
        seats a different set of players begins a new match (an unfinished one is set aside)."""
        rs = self.ruleset(g)
        winners: dict[int, list[str | None]] = {}
        rows = self.rec.sql(
            "SELECT e.session_id, e.hand, p.name, r.won FROM result r JOIN entry e ON e.id = r.entry_id "
            "JOIN player p ON p.id = r.player_id WHERE e.game_id = :g AND r.current = 1 ORDER BY e.hand, p.seat",
            g=g.id,
        ).all()
        by_hand: dict[int, tuple[int, str | None]] = {}
        for sid, hand, name, won in rows:
            sid0, w = by_hand.get(hand, (sid, None))
            by_hand[hand] = (sid0, name if won else w)
        for hand in sorted(by_hand):
            sid, w = by_hand[hand]
            winners.setdefault(sid, []).append(w)
        state: MatchState | None = None
        last: set[str] | None = None
        table = None
        abandoned: list[int] = []
        for s in self.sessions(g):
            opt = json.loads(s.options or "{}")
            players = list(opt["table"]["players"])
            table = opt["table"]
            if state is None:
                state = MatchState.start(players, opt["first_player"], rs)
            elif set(players) != last:
                state = state.seat(players)
                if state.games:
                    abandoned.append(state.number)
                state = replace(
                    state, number=state.number + (1 if state.games else 0), games=0,
                    game_wins=tuple((p, 0) for p in state.players), first_player=opt["first_player"],
                    last_game_winner=None, just_won=None,
                )
            last = set(players)
            for w in winners.get(s.id, []):
                state = state.after(w)
        t = SimpleTable.from_dict(rs, table) if table else None
        return Folded(state, t, tuple(abandoned), len(by_hand))


def parse_hands(items: Sequence[str]) -> dict[str, list[Card]]:
    """``--hand "NAME=CARDS"`` items into ``{name: cards}`` (a blank hand is allowed for a
    dropped player and refused otherwise by the core)."""
    hands: dict[str, list[Card]] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise UnreadableInput(f"--hand {item!r} is not NAME=CARDS", hint='e.g. --hand "Ann=2H 3H 4H 4S 4D"')
        key = name.strip()
        if key.casefold() in {k.casefold() for k in hands}:
            raise UnreadableInput(f"--hand was given twice for {key}", hint="one --hand per player")
        hands[key] = parse_cards(text) if text.strip() else []
    return hands
