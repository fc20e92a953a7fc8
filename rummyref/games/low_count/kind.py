"""Low-count games (Simple Rummy): the GameKind.

How a low-count game sits in the ledger (no schema of its own):
- the roster only grows (S1 has no closed roster): a newcomer is seated the first time a session
  seats them;
- each session's data holds its table (players in seating order, cards, WILDCARDs, variations),
  who dealt first and who played first, and how that was decided;
- a game is a hand entry whose facts are the hands, the ending, the first player and the full
  result; its results carry the count (S13) and whether the player won, with points = won, so
  the cached totals are game wins and games played;
- the match state (S17) is a fold of the games in force, so amend and void show at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rummyref.cards import Card
from rummyref.errors import RuleRefusal, UnreadableInput
from rummyref.games.base import (
    Closing,
    Opening,
    Recorded,
    Rejudged,
    SessionDeal,
    SessionRequest,
    no_such_hand,
    none_open,
    open_refusals,
)
from rummyref.games.low_count import render
from rummyref.games.low_count.adjudicate import Ending, GameResult, adjudicate
from rummyref.games.low_count.match import S17, MatchState
from rummyref.games.low_count.table import SimpleTable
from rummyref.names import check_reason, skeleton
from rummyref.record import (
    Context,
    Draft,
    EntryKind,
    Game,
    GameHeader,
    HandInForce,
    PlayerResult,
    SessionInfo,
    Summary,
)
from rummyref.rules.ruleset import Method, RuleSet


@dataclass(frozen=True)
class Facts:
    hands: Mapping[str, Sequence[Card]]
    ending: Ending


@dataclass(frozen=True)
class SessionOpened:
    game: str
    ruleset: RuleSet
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
    ruleset: RuleSet  #: the game's rule set (its words: a "game", a house's own)
    kind: EntryKind  #: hand, amend or void
    seq: int
    number: int  #: the game's number in the record (as in ref history)
    session: int
    game_in_session: int
    dealer: str
    result: GameResult | None  #: None for a void
    match: MatchState
    next_dealer: str | None = None  #: who deals the next game at the open session's table
    #: a correction's effect on the matches already decided (S17): (number, who had won it, who
    #: wins it now, or "" when it is no longer decided)
    unwon: tuple[tuple[int, str, str], ...] = ()


@dataclass(frozen=True)
class SessionClosed:
    game: str
    ruleset: RuleSet
    number: int
    games: int
    wins: tuple[tuple[str, int], ...]
    match: MatchState | None
    abandoned: bool = False  #: no game in force: closed as abandoned, it does not count (SPEC §8)


@dataclass(frozen=True)
class Folded:
    """The match state after every game in force, plus what the fold saw."""

    state: MatchState | None
    table: SimpleTable | None  #: the latest session's table
    abandoned: tuple[int, ...]  #: matches left unfinished because the table changed
    games: int
    ruleset: RuleSet  #: the rule set folded by (its words show the standings)


def fold(ruleset: RuleSet, sessions: Sequence[SessionInfo], hands: Sequence[HandInForce]) -> Folded:
    """Every game in force, session by session, folded into the match state. A session that
    seats a different set of players begins a new match (an unfinished one is set aside)."""
    winners: dict[int, list[str | None]] = {}
    played_first: dict[int, list[str | None]] = {}
    firsts: dict[int, str] = {}
    for h in sorted(hands, key=lambda h: h.hand):
        if h.kind == EntryKind.VOID or not h.results:
            continue
        winners.setdefault(h.session, []).append(next((r.name for r in h.results if r.won), None))
        played_first.setdefault(h.session, []).append(h.facts.get("first_player") or None)
        if h.facts.get("first_player"):
            firsts.setdefault(h.session, h.facts["first_player"])
    return fold_winners(ruleset, sessions, winners, firsts, played_first)


def first_at_new_table(players: Sequence[str], options: Mapping[str, Any], state: MatchState | None,
                       ) -> tuple[str, str]:
    """Who plays first at a new table (the first session, or a different set of players) and
    why, before its first game: the player S3 chose from the cards turned up (recorded with the
    session, a fact); else the player S17 names after the last game in force, if seated: its
    winner (why: S17), or after a tie game or a game nobody won the same player again, the one
    who played first in it (why: "tie"), as ``ref end-session`` said; else the player on the
    left of the one listed first, who deals (S6). Derived, not read back from what the session
    said when it opened, so a correction of the last game shows at once. ``state``: the match
    after the last game in force (None: no game yet)."""
    if options.get("turned_up"):
        return options["first_player"], "S3"
    if state is not None and state.first_player in players:
        return state.first_player, S17 if state.last_game_winner is not None else "tie"
    return players[1 % len(players)], "listed"


def counts(session: SessionInfo, winners: Mapping[int, Sequence[str | None]]) -> bool:
    """Whether a session takes part in the matches: the open one, or one with a game in force.
    A session closed with none (abandoned, or every game voided since) is no session (SPEC §8):
    it neither changes the table nor sets a match aside."""
    return session.closed_at is None or bool(winners.get(session.number))


def fold_winners(ruleset: RuleSet, sessions: Sequence[SessionInfo],
                 winners: Mapping[int, Sequence[str | None]],
                 firsts: Mapping[int, str] | None = None,
                 played_first: Mapping[int, Sequence[str | None]] | None = None) -> Folded:
    """The fold itself, over each session's game winners in order (``None``: nobody won). The
    standings and ``ref stats`` both fold here, so they agree on every match. ``firsts``: who
    played first in each session's first game in force (a fact once played); a new table with
    no game yet has its first player worked out (:func:`first_at_new_table`). ``played_first``:
    who played first in each of a session's games, beside ``winners``: after a game nobody won
    that player plays first again (S17), whatever a correction of an earlier game says."""
    played = sum(len(w) for w in winners.values())
    state: MatchState | None = None
    last: set[str] | None = None
    table = None
    abandoned: list[int] = []
    for s in sessions:
        opt = s.options
        if "table" not in opt or not counts(s, winners):
            continue
        players = list(opt["table"]["players"])
        table = opt["table"]
        if state is None or set(players) != last:
            first = (firsts or {}).get(s.number) or first_at_new_table(players, opt, state)[0]
            if state is None:
                state = MatchState.start(players, first, ruleset)
            else:
                state = state.seat(players)
                if state.games:
                    abandoned.append(state.number)
                # the winner of the last game stays the last game's winner (S17): a new table is no game
                state = replace(
                    state, number=state.number + (1 if state.games else 0), games=0,
                    game_wins=tuple((p, 0) for p in players), first_player=first, just_won=None,
                )
        last = set(players)
        said = (played_first or {}).get(s.number, ())
        for i, w in enumerate(winners.get(s.number, [])):
            state = state.after(w, said[i] if i < len(said) else None)
    t = SimpleTable.from_dict(ruleset, table) if table else None
    return Folded(state, t, tuple(abandoned), played, ruleset)


def table_of(ruleset: RuleSet, session: SessionInfo) -> SimpleTable:
    return SimpleTable.from_dict(ruleset, session.options["table"])


def played_in(ctx: Context, old: HandInForce) -> tuple[str, str] | None:
    """A game of an earlier session, and that session, for a correction's refusals about its
    table (("game 1", "session 1")); None for a game of the session open now."""
    s = ctx.open_session
    if s is not None and s.number == old.session:
        return None
    rs = ctx.ruleset
    return f"{rs.hand_word} {old.hand}", f"{rs.session_word} {old.session}"


def _next_dealer(ctx: Context, state: MatchState) -> str | None:
    """Who deals the next game at the open session's table (S6), once ``state`` is in force."""
    s = ctx.open_session
    if s is None:
        return None
    table = table_of(ctx.ruleset, s)
    return table.dealer_for(state.first_player) if state.first_player in table.players else None


class LowCountGame:
    """One hand a game; the lowest count (or going out) wins; first to two game wins takes the match."""

    method: ClassVar[Method] = Method.LOW_COUNT
    title: ClassVar[str] = "Simple Rummy"
    folds_rows: ClassVar[bool] = True  #: see GameKind.folds_rows

    def usage(self, command: str, ruleset: RuleSet) -> str:
        return (f'ref {command} --hand "NAME=CARDS" (each final hand) with --out NAME, --four-sevens NAME, '
                "--tie or none (the stock ran out), and --dropped NAME")

    def over_rule(self, ruleset: RuleSet) -> str | None:
        return ruleset.cite("A7")  # where the house rules have it (as every game-over refusal here did)

    def hand_word(self, ruleset: RuleSet) -> str:
        return ruleset.hand_word

    def session_word(self, ruleset: RuleSet) -> str:
        return ruleset.session_word

    def wants_history(self, command: str) -> bool:
        return True  # the match state is a fold of the games in force

    # -- sessions --------------------------------------------------------------------------

    def open_session(self, ctx: Context | None, ruleset: RuleSet, request: SessionRequest) -> Opening:
        from rummyref.games.forms import parse_assignments

        if request.openings:
            raise UnreadableInput(
                "--opening is for a long game begun on paper; a low-count game has no running total")
        if not request.players:
            raise UnreadableInput(
                "name the players in seating order (clockwise): --players Ann,Bob,Cy",
                hint=f"Simple Rummy seats whoever is at the table each {(ctx.ruleset if ctx else ruleset).session_short} (S1)",
            )
        rs = ctx.ruleset if ctx is not None else ruleset
        turned_up = parse_assignments(list(request.first_dealer), whose="--first-dealer cards") if request.first_dealer else None
        table = SimpleTable.create(rs, list(request.players), request.cards, request.wildcards,
                                   list(request.variations))
        header = None
        if ctx is None:
            header = GameHeader(
                name=request.game or rs.name, ruleset=rs.name,
                ruleset_text=rs.kept_text(), target=None,
                wildcards=table.wildcards, players=(),
                options={"closed_roster": False, "full_rounds": False, "method": str(Method.LOW_COUNT)},
            )
            name, known = header.name, {}
            sessions: tuple[SessionInfo, ...] = ()
            hands: tuple[HandInForce, ...] = ()
        else:
            open_refusals(ctx, self)
            name = ctx.game.name
            known = {skeleton(p.name): p.name for p in ctx.game.players}
            sessions, hands = ctx.sessions, ctx.hands()
        for n in table.players:  # the same player, or one who would look the same
            if skeleton(n) in known and known[skeleton(n)] != n:
                raise UnreadableInput(f"{n!r} is written {known[skeleton(n)]!r} in game {name}",
                                      hint=f"spell it {known[skeleton(n)]}")
        newcomers = tuple(n for n in table.players if skeleton(n) not in known)
        before = fold(rs, sessions, hands)
        last_players = set(before.table.players) if before.table else None
        continuing = before.state is not None and last_players == set(table.players)
        fd = None
        if continuing:
            assert before.state is not None
            if turned_up:
                raise RuleRefusal(
                    f"the same players sit down again, so the match goes on: {before.state.first_player} "
                    "plays first, as the winner of the last game (or as before)",
                    rule=S17,
                    hint=f"--first-dealer is for a new table (the first {rs.session_short}, or a different set of players)",
                )
            first = before.state.first_player
            dealer = table.dealer_for(first)
            how = f"{first} plays first as the match goes on ({S17}); the player to their right, {dealer}, deals"
        elif turned_up:
            fd = table.choose_first_dealer(turned_up)
            dealer, first = fd.dealer, table.left_of(fd.dealer)
            how = f"{dealer} deals first: {fd.reason}; {first}, on the dealer's left, plays first (S6)"
        else:
            first, why = first_at_new_table(table.players, {}, before.state)
            dealer = table.dealer_for(first)
            if why == S17:
                how = (f"{first} plays first, as the winner of the last game ({S17}); "
                       f"the player to their right, {dealer}, deals")
            elif why == "tie":
                how = (f"{first} plays first again, as in the last game, which nobody won ({S17}); "
                       f"the player to their right, {dealer}, deals")
            else:
                how = (f"{dealer}, listed first, deals (no cards turned up: --first-dealer applies S3); "
                       f"{first}, on the dealer's left, plays first (S6)")
        options = {
            "table": table.to_dict(),
            "dealer": dealer,
            "first_player": first,
            "how": how,
            "turned_up": None if not turned_up else {n: [str(c) for c in cs] for n, cs in turned_up.items()},
        }
        number = (sessions[-1].number if sessions else 0) + 1
        after = fold(rs, (*sessions, SessionInfo(number, "", None, options)), hands)
        assert after.state is not None
        shown = SessionOpened(name, rs, ctx is None, number, table, dealer, first, how, fd,
                              newcomers if known else (), after.state, before.state is not None and not continuing)
        return Opening(header, newcomers, options, shown)

    def check_session_options(self, ruleset: RuleSet, options: Mapping[str, Any]) -> None:
        """A session's table, rebuilt under the rule set (which re-validates it), and who deals
        and plays first at it."""
        unknown = sorted(set(options) - {"table", "dealer", "first_player", "how", "turned_up"})
        if unknown:
            raise UnreadableInput(f"unknown option {unknown[0]!r}")
        if not isinstance(options.get("table"), dict):
            raise UnreadableInput("a session without its table of players")
        table = SimpleTable.from_dict(ruleset, options["table"])
        for key in ("dealer", "first_player"):
            if key in options and options[key] not in table.players:
                raise UnreadableInput(f"{key} {options[key]!r} is not at the table")

    def tellings(self, ruleset: RuleSet) -> tuple[str, ...]:
        return ("cards",)  # the final hands: no points form

    def keeps_deal_order(self, ruleset: RuleSet) -> bool:
        return True  # the deal passes round the table in seating order

    def full_rounds(self, ruleset: RuleSet) -> bool:
        return False  # a match goes on across sessions: one may end after any game

    def session_deal(self, roster: Sequence[str], log: Sequence[tuple[str, str]]) -> SessionDeal:
        return SessionDeal()  # no full rounds: nothing is ever still to deal

    def rejudge(self, ruleset: RuleSet, game: Game, sessions: Sequence[SessionInfo],
                entries: Sequence[HandInForce], in_force: Sequence[HandInForce]) -> Rejudged:
        """Each game judged again at its session's table; a match's state is a fold of the games'
        winners (no status is kept), so there is no status to judge."""
        from rummyref.cards import parse_cards
        from rummyref.games.low_count.adjudicate import EndingKind

        tables = {s.number: s for s in sessions if "table" in s.options}
        results: dict[int, dict[str, int]] = {}
        for e in entries:
            f = e.facts
            if e.kind == EntryKind.VOID or f.get("form") != "simple" or "ending" not in f or e.session not in tables:
                continue
            end = f["ending"]
            ending = Ending(EndingKind(end["kind"]), end.get("player"), frozenset(end.get("dropped", ())))
            hands = {n: parse_cards(" ".join(cs)) for n, cs in f["hands"].items() if cs is not None}
            result = adjudicate(table_of(ruleset, tables[e.session]), f["first_player"], hands, ending)
            results[e.seq] = {p.name: int(p.name == result.winner) for p in result.players}
        return Rejudged(results, None)

    def close_session(self, ctx: Context) -> Closing:
        s = ctx.open_session
        if s is None:
            raise none_open(ctx.game, ctx.ruleset, self.over_rule(ctx.ruleset))
        # a session with no game in force is closed as abandoned: it does not count (SPEC §8)
        return Closing(ctx.played == 0, s.number)

    def closed(self, ctx: Context, closing: Closing, points, games: int) -> SessionClosed:
        # the match as it stands once the session is closed: an abandoned one is no session (fold)
        sessions = [x for x in ctx.sessions if not (closing.abandoned and x.number == closing.shown)]
        return SessionClosed(ctx.game.name, ctx.ruleset, closing.shown, games, tuple(points),
                             fold(ctx.ruleset, sessions, ctx.hands()).state, closing.abandoned)

    # -- games -----------------------------------------------------------------------------

    def form(self, ctx: Context, hand: int | None = None, style: str = ""):
        from rummyref.games.low_count.form import GameForm

        if style == "points":
            raise UnreadableInput(f"{ctx.ruleset.title} is recorded by the final hands: no points form")
        if hand is None:
            s = ctx.open_session
            if s is None:
                raise RuleRefusal(f"no {ctx.ruleset.session_word} of {ctx.game.name} is open",
                                  hint="ref new-session --players ... opens one")
            folded = fold(ctx.ruleset, ctx.sessions, ctx.hands())
            assert folded.state is not None
            return GameForm(table_of(ctx.ruleset, s), folded.state.first_player)
        old = self._in_force(ctx, hand)
        s = next(x for x in ctx.sessions if x.number == old.session)
        table = table_of(ctx.ruleset, s)
        form = GameForm(table, old.facts.get("first_player") or table.players[0], played_in(ctx, old))
        form.recall_facts(old.facts)  # at a terminal, the game as recorded answers first
        return form

    def check_next(self, ctx: Context, dealer: str | None = None) -> None:
        self._next(ctx, dealer)

    def _next(self, ctx: Context, dealer: str | None) -> tuple[SessionInfo, SimpleTable, str, str]:
        """The open session, its table, who plays first and who deals the next game (S6)."""
        s = ctx.open_session
        if s is None:
            raise RuleRefusal(f"no {ctx.ruleset.session_word} of {ctx.game.name} is open",
                              hint="ref new-session --players ... opens one")
        table = table_of(ctx.ruleset, s)
        folded = fold(ctx.ruleset, ctx.sessions, ctx.hands())
        assert folded.state is not None
        first = folded.state.first_player
        expected = table.dealer_for(first)
        if dealer is not None and table.player(dealer, "dealer") != expected:
            raise RuleRefusal(
                f"this game is {expected}'s deal: {first} plays first, and the dealer sits to their right",
                rule="S6", hint=f"--dealer {expected}, or leave --dealer out",
            )
        return s, table, first, expected

    def adjudicate(self, ctx: Context, facts: Facts, dealer: str | None = None) -> Recorded:
        s, table, first, expected = self._next(ctx, dealer)
        result = adjudicate(table, first, facts.hands, facts.ending)
        number, gis = ctx.position.next_hand, ctx.dealt + 1
        draft = self._draft(EntryKind.HAND, number, gis, expected, result, None, None)
        played = HandInForce(number, s.number, gis, expected, EntryKind.HAND, 0, draft.facts, draft.results)
        state = fold(ctx.ruleset, ctx.sessions, (*ctx.hands(), played)).state
        assert state is not None
        return Recorded(draft, GameRecorded(ctx.game.name, ctx.ruleset, EntryKind.HAND, ctx.position.entries + 1, number,
                                            s.number, gis, expected, result, state, _next_dealer(ctx, state)))

    def correct(self, ctx: Context, hand: int, facts: Facts | None, reason: str) -> Recorded:
        reason = check_reason(reason)  # B7: a reason, one line of text
        old = self._in_force(ctx, hand)
        kind = EntryKind.AMEND if facts is not None else EntryKind.VOID
        result = None
        if facts is not None:
            s = next(x for x in ctx.sessions if x.number == old.session)
            first = old.facts["first_player"]
            result = adjudicate(table_of(ctx.ruleset, s), first, facts.hands, facts.ending, played_in(ctx, old))
        draft = self._draft(kind, hand, old.hand_in_session, old.dealer, result, reason, old.seq)
        hands = [h if h.hand != hand else replace(h, kind=kind, facts=draft.facts, results=draft.results)
                 for h in ctx.hands()]
        state = fold(ctx.ruleset, ctx.sessions, hands).state
        if state is None:  # the only game in force voided, its session closed: no session counts,
            # and the match is as at a new table before its first game (what the open session would show)
            s = next(x for x in ctx.sessions if x.number == old.session)
            players = table_of(ctx.ruleset, s).players
            state = MatchState.start(players, first_at_new_table(players, s.options, None)[0], ctx.ruleset)
        was = fold(ctx.ruleset, ctx.sessions, ctx.hands()).state
        now = {m.number: m.winner for m in state.finished}
        unwon = tuple((m.number, m.winner, now.get(m.number, "")) for m in (was.finished if was else ())
                      if now.get(m.number) != m.winner)
        return Recorded(draft, GameRecorded(ctx.game.name, ctx.ruleset, kind, ctx.position.entries + 1, hand, old.session,
                                            old.hand_in_session, old.dealer or "", result, state,
                                            _next_dealer(ctx, state), unwon))

    def _in_force(self, ctx: Context, hand: int) -> HandInForce:
        """The game to correct, as now in force: it must exist and not be voided (B7)."""
        old, word = ctx.in_force(hand), ctx.ruleset.hand_word
        if old is None:
            raise no_such_hand(ctx, hand)
        if old.kind == EntryKind.VOID:
            raise RuleRefusal(
                f"{word} {hand} was voided (entry {old.seq})",
                rule="B7", hint=f"a voided {word} stays voided; record what happened as a new {word}",
            )
        return old

    def last_in_force(self, ctx: Context) -> int | None:
        s = ctx.open_session
        return next((h.hand for h in reversed(ctx.hands())
                     if s is not None and h.session == s.number and h.kind != EntryKind.VOID), None)

    def show_as_recorded(self, ctx: Context, hand: int, out) -> None:
        old = self._in_force(ctx, hand)
        rs = ctx.ruleset
        out.print(f"{rs.hand_title} {hand} as recorded ({rs.session_word} {old.session}, {rs.hand_word} "
                  f"{old.hand_in_session} of the {rs.session_short}, {old.dealer} dealt; entry {old.seq}):",
                  markup=False)
        render.history_lines(old.facts, (), out)

    def show_change(self, ctx: Context, hand: int, shown: GameRecorded, out) -> None:
        old = self._in_force(ctx, hand)
        before = {r.name: r.count for r in old.results}
        won = next((r.name for r in old.results if r.won), None)
        state = fold(ctx.ruleset, ctx.sessions, ctx.hands()).state
        render.show_change(hand, before, won, state, shown, out)

    @staticmethod
    def _draft(kind, number, gis, dealer, result: GameResult | None, reason, target) -> Draft:
        body: dict[str, Any] = {}
        results: tuple[PlayerResult, ...] = ()
        if result is not None:
            body = {
                "form": "simple",
                "first_player": result.first_player,
                "hands": {p.name: None if p.hand is None else [str(c) for c in p.hand] for p in result.players},
                "ending": result.ending.to_dict(),
                "result": result.to_dict(),
            }
            results = tuple(PlayerResult(p.name, int(p.name == result.winner), p.count, p.name == result.winner)
                            for p in result.players)
        return Draft(kind, number, gis, dealer, body, results, reason, target)

    # -- standings -------------------------------------------------------------------------

    def standings(self, summary: Summary) -> tuple[dict, Folded]:
        ctx = summary.context
        assert ctx is not None, "wants_history: the standings are a fold"
        hands = ctx.hands()
        # S14: a player who dropped out was dealt in but did not play the game out: counted apart,
        # as ref stats counts them
        drops: dict[str, int] = {}
        for h in hands:
            if h.kind != EntryKind.VOID and h.results:
                for n in (h.facts.get("ending") or {}).get("dropped") or ():
                    drops[n] = drops.get(n, 0) + 1
        players = [(a.name, a.hands - drops.get(a.name, 0), a.points, drops.get(a.name, 0))
                   for a in summary.aggregates]
        folded = fold(ctx.ruleset, ctx.sessions, hands)
        open_s = ctx.open_session.number if ctx.open_session else None
        # a session counts once a game in it counts (SPEC §8), as ref stats and the chart count them
        played = len({h.session for h in hands if h.kind != EntryKind.VOID})
        data = render.standings_json(ctx.game.name, ctx.game.ruleset, folded, players, played, open_s)
        # who deals the next game (S6): the player to the right of the one who plays first;
        # between sessions, if the same players sit down again (S17: the match goes on)
        state, table = folded.state, folded.table
        data["next_dealer"] = table.dealer_for(state.first_player) if state and table else None
        data["next_first_player"] = state.first_player if state and table else None
        return data, folded

    # -- stats and charts ------------------------------------------------------------------

    def stats_style(self, ruleset: RuleSet):
        from rummyref.stats.compute import StatsStyle

        def matches(sessions, hands):
            # the standings' own fold: a session with another set of players begins a new match
            winners: dict[int, list[str | None]] = {}
            for h in hands:
                winners.setdefault(h.night, []).append(h.winners[0] if len(h.winners) == 1 else None)
            return fold_winners(ruleset, sessions, winners).state

        return StatsStyle(counts=True, unit=ruleset.hand_word, session=ruleset.session_short,
                          sessions_title=ruleset.session_word + "s", matches=matches if ruleset.match_wins else None,
                          layout="counts")

    def projection(self, summary: Summary) -> None:
        return None  # no target: a low-count chart shows games won, session after session

    # -- showing ---------------------------------------------------------------------------

    def show_opened(self, shown: SessionOpened, out) -> None:
        render.show_opened(shown, out)

    def opened_json(self, shown: SessionOpened) -> dict[str, Any]:
        return render.opened_json(shown)

    def show_recorded(self, shown: GameRecorded, out) -> None:
        render.show_game(shown, out)

    def recorded_json(self, shown: GameRecorded) -> dict[str, Any]:
        return render.game_json(shown)

    def show_closed(self, shown: SessionClosed, out) -> None:
        render.show_closed(shown, out)

    def closed_json(self, shown: SessionClosed) -> dict[str, Any]:
        return render.closed_json(shown)

    def show_standings(self, standings: tuple[dict, Folded], out) -> None:
        render.show_standings(standings[0], standings[1], out)

    def standings_json(self, standings: tuple[dict, Folded]) -> dict[str, Any]:
        return standings[0]

    def show_history_entry(self, facts: Mapping[str, Any], results: Sequence[Any], roster, out,
                           ruleset: RuleSet | None = None) -> None:
        render.history_lines(facts, results, out)

    def show_session_totals(self, ruleset: RuleSet, number: int, hands: int, points, out) -> None:
        render.session_totals(ruleset, number, hands, points, out)

    # -- ref night -------------------------------------------------------------------------

    def preview(self, ctx: Context, shown: GameRecorded, out) -> None:
        first = shown.result.first_player if shown.result else ""
        out.print(f"{shown.ruleset.hand_title} {shown.number}: {shown.dealer} dealt, {first} played first. If recorded:", markup=False)
        if shown.result is not None:
            render.render_game(shown.result, out)

    def show_written(self, shown: GameRecorded, out) -> None:
        word, session = shown.ruleset.hand_word, shown.ruleset.session_short
        out.print(f"Recorded: {word} {shown.number} of {shown.game}, {word} {shown.game_in_session} of the {session} "
                  f"(entry {shown.seq}).", markup=False)
        render.render_match(shown.match, out, word)

    def show_corrected(self, shown: GameRecorded, out) -> None:
        render.unwon(shown, out)

    def announce(self, ctx: Context, out) -> None:
        s = ctx.open_session
        assert s is not None
        state = fold(ctx.ruleset, ctx.sessions, ctx.hands()).state
        assert state is not None
        first = state.first_player
        dealer = table_of(ctx.ruleset, s).dealer_for(first)
        word, session = ctx.ruleset.hand_word, ctx.ruleset.session_short
        out.print(f"Next: {word} {ctx.position.next_hand} ({word} {ctx.dealt + 1} of the {session}): {dealer} deals, "
                  f"{first} plays first.", markup=False)

    def show_resumed(self, ctx: Context, out) -> None:
        s = ctx.open_session
        assert s is not None
        out.print(f"{ctx.ruleset.session_title} {s.number} of {ctx.game.name} resumed: {ctx.ruleset.hands(ctx.played)} "
                  "so far.", markup=False)
        from rummyref.wrap import echo

        echo(out, "Table: " + table_of(ctx.ruleset, s).describe(), hang="  ")
        state = fold(ctx.ruleset, ctx.sessions, ctx.hands()).state
        if state is not None:
            render.render_match(state, out, ctx.ruleset.hand_word)

    def newcomer_hint(self, ctx: Context, players: Sequence[str]) -> str:
        """``ref night --players`` names a newcomer while a session is open: the roster is not
        closed (S1), so the newcomer sits down at the next session of this game, once the open one
        is closed (not in a new game, which would split the table's matches and standings)."""
        rs = ctx.ruleset
        again = " --game " + ctx.game.name if ctx.game.name != rs.name else ""
        return (f"a newcomer joins this game at its next {rs.session_short} (S1): close the open one (ref "
                f"end-session{again}, or end at night>), then ref night{again} --players {','.join(players)} seats "
                "them; ref night without --players resumes the open one")

    def show_short_standings(self, summary: Summary, out) -> None:
        self.show_standings(self.standings(summary), out)
