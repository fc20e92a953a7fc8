"""The long game to a target (Rummy 2,000,000, 500 Rum and house copies): the GameKind.

Every rule the ledger used to decide lives here: the roster (A1), the deal order (A3), the end
of a session (A4) and of the game (A7). Which of them the house cites, and what a session is
called, is the rule set's data (``[house]``): a 500 Rum table has none of the house's words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rummyref.errors import RuleRefusal, UnreadableInput
from rummyref.games.base import (
    Closing,
    Opening,
    Recorded,
    Rejudged,
    SessionDeal,
    SessionRequest,
    again,
    deals_to_come,
    no_session_options,
    no_such_hand,
    none_open,
    open_refusals,
    over_refusal,
    round_completed,
)
from rummyref.games.long import render
from rummyref.games.long.nights import (
    Outcome,
    RoundState,
    Step,
    deal_state,
    dealer_of,
    first_seat,
    game_status,
    next_status,
)
from rummyref.games.long.scoring import (
    CardFacts,
    HandScore,
    PointsFacts,
    facts_from_json,
    facts_to_json,
    rescore,
    score_hand,
    score_to_json,
)
from rummyref.games.long.standings import Standings, from_summary
from rummyref.names import check_reason, check_roster, find, keeps_its_table, resolve_name, suggest
from rummyref.record import (
    Context,
    Draft,
    EntryKind,
    Game,
    GameHeader,
    HandInForce,
    PlayerResult,
    SessionInfo,
    Status,
    Summary,
)
from rummyref.rules.ruleset import Method, RuleSet, load_ruleset

Facts = CardFacts | PointsFacts


@dataclass(frozen=True)
class NightOpened:
    game: Game
    ruleset: RuleSet
    created: bool
    number: int
    totals: tuple[tuple[str, int], ...]
    first_dealer: str


@dataclass(frozen=True)
class HandRecorded:
    game: Game  #: after the hand
    ruleset: RuleSet
    kind: EntryKind  #: hand, amend or void
    seq: int
    hand: int
    night: int
    hand_in_night: int
    dealer: str
    score: HandScore | None  #: None for a void
    totals: tuple[tuple[str, int], ...]
    round: RoundState | None  #: the night's state after the hand (None for a correction of a closed night)
    outcome: Outcome
    #: a void left its closed night with no hand in force: the night now counts nowhere (SPEC §8)
    night_emptied: bool = False
    #: a void left its closed night with rounds not full (A4): the hands in force each player
    #: dealt in it, in seat order (the night is over: nothing is refused, nobody deals in it)
    night_not_full: tuple[tuple[str, int], ...] = ()
    night_was_full: bool = False  #: ... and they were full before this void
    #: a correction after which the game is over no more (A7): who had won it
    reopened: str = ""
    #: the night of :attr:`night_not_full` (0: :attr:`night`): the night the game ended in, when
    #: a correction of an earlier night reopened the game
    not_full_night: int = 0
    #: a night of the game is open once the entry is written (a correction may come after the
    #: last night closed: then no night may end, and the way on is the next night or a new game)
    night_open: bool = True


@dataclass(frozen=True)
class NightClosed:
    game: Game
    ruleset: RuleSet
    number: int
    hands: int
    rounds: int
    points: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    early: bool  #: ended mid-round because the game is over (A7)
    voided: int = 0  #: hands dealt that were voided and not dealt again (not in ``hands``)
    totals: tuple[tuple[str, int], ...] = ()  #: the game's totals after the session
    abandoned: bool = False  #: no hand counted: it does not count as a session (SPEC §8)


class LongGame:
    """Scores are cards melded minus cards held; totals race to the rule set's target."""

    method: ClassVar[Method] = Method.MELDED_MINUS_HELD
    title: ClassVar[str] = "long-game"
    folds_rows: ClassVar[bool] = False  #: see GameKind.folds_rows

    def usage(self, command: str, ruleset: RuleSet) -> str:
        return (f'ref {command} --melded "NAME=CARDS" --held "NAME=CARDS" [--out NAME] [--claim "NAME=CARD"] '
                "(or --points NAME=N)")

    def over_rule(self, ruleset: RuleSet) -> str | None:
        # the game ends past the target: a house rule (A7), else the rule set's own (500 Rum's R3)
        return ruleset.cite("A7") or ruleset.over_rule

    def hand_word(self, ruleset: RuleSet) -> str:
        return ruleset.hand_word

    def session_word(self, ruleset: RuleSet) -> str:
        return ruleset.session_word

    def wants_history(self, command: str) -> bool:
        return command in ("amend", "void")

    # -- sessions --------------------------------------------------------------------------

    def open_session(self, ctx: Context | None, ruleset: RuleSet, request: SessionRequest) -> Opening:
        extra = [name for name, v in (("cards", request.cards), ("variation", request.variations),
                                      ("first-dealer", request.first_dealer)) if v]
        if extra:
            raise UnreadableInput(
                f"{', '.join('--' + e for e in extra)} {'is' if len(extra) == 1 else 'are'} not for "
                f"{ruleset.title}",
                hint="those set up a low-count table (e.g. --ruleset simple-rummy)",
            )
        if ctx is None:
            header = self._header(ruleset, request)
            game = Game(header.name, header.ruleset, header.target, header.wildcards,
                        tuple(_player(n, i, o) for i, (n, o) in enumerate(header.players, 1)), "",
                        closed_roster=ruleset.closed_roster)
            totals = tuple((n, o) for n, o in header.players)
            shown = NightOpened(game, ruleset, True, 1, totals, dealer_of(1, game.roster))  # a new game
            return Opening(header, (), {}, shown)
        g = ctx.game
        if request.openings:
            raise RuleRefusal(f"game {g.name} already exists: opening balances are set only when a game is created")
        if request.wildcards is not None and request.wildcards != g.wildcards:
            raise RuleRefusal(
                f"game {g.name} uses {g.wildcards} WILDCARD{'' if g.wildcards == 1 else 's'}: the number is fixed "
                "when the game is created",
                hint=f"a new game may use another number: --game NEW-NAME{ruleset.again} --wildcards N",
            )
        if request.players:
            # an open roster (no A1) is no open table: the game keeps the players it began with
            new_table = f"ref new-session --game NEW-NAME{ruleset.again} --players ..."
            named = [resolve_name(n, g.roster, g.name, g.closed_roster, given=request.players, new_table=new_table)
                     for n in request.players]
            missing = [n for n in g.roster if n not in named]
            if missing:
                raise RuleRefusal(
                    f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} on the roster of {g.name} "
                    f"and must play every {ruleset.session_short}",
                    rule=ruleset.cite("A1"),
                    hint=f"the roster is {', '.join(g.roster)}" if g.closed_roster else keeps_its_table(g.name, new_table),
                )
            if named != list(g.roster):
                raise RuleRefusal(
                    f"the deal order of {g.name} is {', '.join(g.roster)}, not {', '.join(named)}: "
                    "it is fixed when the game is created",
                    rule=ruleset.cite("A3"),
                    hint=f"name the players in that order, or leave out --players (the deal goes "
                    f"{', '.join(g.roster)}, no exceptions)",
                )
        open_refusals(ctx, self)
        number = (ctx.sessions[-1].number if ctx.sessions else 0) + 1
        first = g.roster[_first_seat(ctx)]  # A3: the first seat; else the deal passes on from the last hand
        return Opening(None, (), {}, NightOpened(g, ruleset, False, number, ctx.totals, first))

    def _header(self, rs: RuleSet, request: SessionRequest) -> GameHeader:
        roster = list(check_roster(request.players or rs.default_players))
        if not roster:
            raise UnreadableInput(f"{rs.title} has no default players", hint="name them: --players A,B,C")
        if not rs.players_min <= len(roster) <= rs.players_max:
            raise RuleRefusal(f"{rs.title} is for {rs.players_min} to {rs.players_max} players, not {len(roster)}")
        wild = rs.wild_default if request.wildcards is None else request.wildcards
        if not rs.wild_min <= wild <= rs.wild_max:
            raise RuleRefusal(f"{rs.title} uses {rs.wild_min} to {rs.wild_max} WILDCARDs, not {wild}")
        name = request.game or rs.name
        opening = {_in_new_roster(n, roster, name): v for n, v in request.openings.items()}
        if rs.target is not None:
            past = [n for n, v in opening.items() if v >= rs.target]
            if past:
                raise RuleRefusal(
                    f"{past[0]}'s opening total {opening[past[0]]:,} is at or past the target {rs.target:,}: "
                    "the game would be over before it began",
                    rule=rs.cite("A7") or rs.over_rule,
                    hint="an opening total must be below the target",
                )
        return GameHeader(
            name=name,
            ruleset=rs.name,
            ruleset_text=rs.kept_text(),
            target=rs.target,
            wildcards=wild,
            players=tuple((n, opening.get(n, 0)) for n in roster),
            options={"closed_roster": rs.closed_roster, "full_rounds": rs.full_rounds},
        )

    def check_session_options(self, ruleset: RuleSet, options: Mapping[str, Any]) -> None:
        no_session_options(options)

    def tellings(self, ruleset: RuleSet) -> tuple[str, ...]:
        return ("cards", "points")

    def keeps_deal_order(self, ruleset: RuleSet) -> bool:
        return True  # A3: the roster is the deal order

    def full_rounds(self, ruleset: RuleSet) -> bool:
        return ruleset.full_rounds  # A4 (Rummy 2,000,000); 500 Rum may stop after any hand

    def session_deal(self, roster: Sequence[str], log: Sequence[tuple[str, str]]) -> SessionDeal:
        state = deal_state(roster, log)
        return SessionDeal(state.dealt, state.still_to_deal, state.owed, state.rounds, state.abandoned)

    def rejudge(self, ruleset: RuleSet, game: Game, sessions: Sequence[SessionInfo],
                entries: Sequence[HandInForce], in_force: Sequence[HandInForce]) -> Rejudged:
        results = {}
        for e in entries:
            if e.kind != EntryKind.VOID and e.facts:
                again = rescore(e.facts, ruleset, game.roster)
                if again is not None:
                    results[e.seq] = again
        played = [(h.hand, results.get(h.seq, {r.name: r.points for r in h.results}))
                  for h in in_force if h.kind != EntryKind.VOID]
        outcome = game_status({p.name: p.opening for p in game.players}, played, game.target)
        return Rejudged(results, Status(outcome.over, outcome.winner))

    def close_session(self, ctx: Context) -> Closing:
        g, rs = ctx.game, ctx.ruleset
        s = ctx.open_session
        if s is None:
            raise none_open(g, rs, self.over_rule(rs))
        state = _night(ctx)
        if self.full_rounds(rs) and state.mid_round and not g.over:
            who = deals_to_come(state.still_to_deal)
            where = (f"{rs.hand_word} {state.in_round + 1} of {len(g.roster)} in round {state.rounds + 1}"
                     if state.in_round < len(g.roster) and len(set(state.still_to_deal)) == len(state.still_to_deal)
                     else f"round {round_completed(state.hands, state.still_to_deal, len(g.roster))}")
            raise RuleRefusal(
                f"the {rs.session_short} cannot end in the middle of a round: {who} still "
                f"{'has' if len(set(state.still_to_deal)) == 1 else 'have'} to deal ({where})",
                rule=rs.cite("A4"),
                hint=(f"{'A4: ' if rs.cite('A4') else ''}every player deals the same number of "
                      f"{rs.hand_words} in a {rs.session_short}; there is no 'last {rs.hand_word}' call"),
            )
        # a night opened by mistake, with no hand counted, is closed as abandoned (SPEC §8)
        return Closing(ctx.played == 0, (s.number, state))

    def closed(self, ctx: Context, closing: Closing, points, hands: int) -> NightClosed:
        number, state = closing.shown
        best = max((p for _, p in points), default=0)
        winners = tuple(n for n, p in points if p == best) if hands else ()
        early = state.mid_round and ctx.game.over  # only A7 ends a session mid-round
        # one count of hands everywhere: the hands that count, as standings and history show them
        # every hand of the night voided, the last one too (its number is dealt again)
        voided = deal_state(ctx.game.roster, ctx.session_log).voided
        return NightClosed(ctx.game, ctx.ruleset, number, hands, state.rounds, tuple(points), winners, early,
                           voided, ctx.totals, closing.abandoned)

    # -- hands -----------------------------------------------------------------------------

    def form(self, ctx: Context, hand: int | None = None, style: str = ""):
        from rummyref.games.forms import deck_said
        from rummyref.games.long.form import CardsForm, HandForm, PointsForm

        deck = deck_said(ctx.ruleset, ctx.game.wildcards)  # the game's own, in an out-of-range hint
        if hand is not None:  # a correction: the hand as recorded answers first at a terminal
            old = self._in_force(ctx, hand)
            return HandForm(ctx.game, facts_from_json(old.facts, ctx.game.roster), deck)
        if style == "cards":
            return CardsForm(ctx.game)
        return PointsForm(ctx.game, deck) if style == "points" else HandForm(ctx.game, deck=deck)

    def check_next(self, ctx: Context, dealer: str | None = None) -> None:
        g, rs = ctx.game, ctx.ruleset
        if g.over:
            raise over_refusal(g, rs, self.over_rule(rs))
        s = ctx.open_session
        if s is None:
            raise RuleRefusal(f"no {rs.session_word} of {g.name} is open", hint="ref new-session opens one")
        his = ctx.dealt + 1
        state = deal_state(g.roster, ctx.session_log, _first_seat(ctx))
        expected = state.next_dealer
        if dealer is not None:
            who = resolve_name(dealer, g.roster, g.name, g.closed_roster)
            if who != expected:
                redeal = f"; {expected}'s voided {rs.hand_word} is dealt again first" if state.owed else ""
                raise RuleRefusal(
                    f"{rs.hand_word} {his} of the {rs.session_short} is {expected}'s deal, not {who}'s",
                    rule=rs.cite("A3"),
                    hint=f"the deal goes {', '.join(g.roster)}, no exceptions{redeal}",
                )

    def adjudicate(self, ctx: Context, facts: Facts, dealer: str | None = None) -> Recorded:
        self.check_next(ctx, dealer)
        g, rs, s = ctx.game, ctx.ruleset, ctx.open_session
        assert s is not None
        his = ctx.dealt + 1
        expected = _night(ctx).next_dealer
        score = score_hand(facts, rs, g.wildcards, g.roster)
        points = score.points()
        totals = tuple((n, t + points.get(n, 0)) for n, t in ctx.totals)
        outcome = next_status(totals, g.target, ctx.status.tied if ctx.status else ())
        draft = Draft(
            EntryKind.HAND, ctx.position.next_hand, his, expected,
            {**facts_to_json(facts), "score": score_to_json(score)},
            tuple(PlayerResult(n, points[n]) for n in g.roster if n in points),
            status=_status(outcome),
        )
        after = _after(g, outcome)
        shown = HandRecorded(after, rs, EntryKind.HAND, _next_seq(ctx), draft.hand or 0, s.number, his, expected,
                             score, totals, _night(ctx, ("hand", expected)), outcome)
        return Recorded(draft, shown)

    def correct(self, ctx: Context, hand: int, facts: Facts | None, reason: str) -> Recorded:
        g, rs = ctx.game, ctx.ruleset
        reason = check_reason(reason)  # B7: a reason, one line of text
        old = self._in_force(ctx, hand)
        kind = EntryKind.AMEND if facts is not None else EntryKind.VOID
        score = None
        results: tuple[PlayerResult, ...] = ()
        body: dict[str, Any] = {}
        if facts is not None:
            score = score_hand(facts, rs, g.wildcards, g.roster)
            pts = score.points()
            results = tuple(PlayerResult(n, pts[n]) for n in g.roster if n in pts)
            body = {**facts_to_json(facts), "score": score_to_json(score)}
        hands = [h if h.hand != hand else replace(h, kind=kind, results=results) for h in ctx.hands()]
        openings = {p.name: p.opening for p in g.players}
        in_force = [(h.hand, {r.name: r.points for r in h.results}) for h in hands if h.kind != EntryKind.VOID]
        # hands ref 0.1 wrote (no status stated) keep 0.1's end-of-game rule: their game went on
        legacy = max((h.hand for h in hands if "status" not in h.facts and h.kind != EntryKind.VOID), default=0)
        outcome = game_status(openings, in_force, g.target, legacy)
        running = dict(openings)
        for _, pts in in_force:
            for n, v in pts.items():
                running[n] = running.get(n, 0) + v
        totals = tuple((n, running.get(n, 0)) for n in g.roster)
        if outcome.over and outcome.after_end:
            raise _ends_before(ctx, hand, kind, outcome, openings, in_force)
        draft = Draft(kind, hand, old.hand_in_session, old.dealer, body, results, reason, old.seq,
                      _status(outcome))
        s = next(x for x in ctx.sessions if x.number == old.session)
        # SPEC §8: the voided hand's dealer deals the next hand (a correction of a closed night deals nothing)
        voided: tuple[Step, ...] = (("void", old.dealer or ""),) if facts is None else ()
        state = _night(ctx, *voided) if s.closed_at is None else None
        emptied = s.closed_at is not None and facts is None and not any(
            h.session == old.session and h.kind != EntryKind.VOID for h in hands)
        not_full: tuple[tuple[str, int], ...] = ()
        was_full = False
        night, reopened = s, g.over and not outcome.over
        if reopened and ctx.sessions[-1].closed_at is not None:
            # reopened (A7): the night the game ended in may have closed mid-round, which only
            # the end of the game allowed; it stays closed, its rounds not full (A4, SPEC §8)
            night = ctx.sessions[-1]
        if (night.closed_at is not None and (facts is None or reopened) and not emptied
                and self.full_rounds(rs)):
            after = _dealt(g.roster, hands, night.number)  # A4 (SPEC §8): said, not refused: the night is over
            if len({n for _, n in after}) > 1:
                not_full, was_full = after, len({n for _, n in _dealt(g.roster, ctx.hands(), night.number)}) == 1
        shown = HandRecorded(_after(g, outcome), rs, kind, _next_seq(ctx), hand, old.session, old.hand_in_session,
                             old.dealer or "", score, totals, state, outcome, emptied, not_full, was_full,
                             g.winner or "" if g.over and not outcome.over else "", night.number,
                             ctx.open_session is not None)
        return Recorded(draft, shown)

    def _in_force(self, ctx: Context, hand: int) -> HandInForce:
        """The hand to correct, as now in force: it must exist and not be voided (B7)."""
        old, word = ctx.in_force(hand), ctx.ruleset.hand_word
        if old is None:
            raise no_such_hand(ctx, hand)
        if old.kind == EntryKind.VOID:
            raise RuleRefusal(
                f"{word} {hand} was voided (entry {old.seq})",
                rule=ctx.ruleset.game_rule("B7"),
                hint=f"a voided {word} stays voided; record what happened as a new {word}",
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
                  f"{old.hand_in_session} of the {rs.session_short}, {old.dealer} dealt; entry {old.seq}):", markup=False)
        render.history_lines(old.facts, [(r.name, r.points) for r in old.results], ctx.game.roster, out, rs,
                             arranged=False)

    def show_change(self, ctx: Context, hand: int, shown: HandRecorded, out) -> None:
        old = self._in_force(ctx, hand)
        render.show_change(ctx.game, {r.name: r.points for r in old.results}, dict(ctx.totals), shown, out)

    # -- standings -------------------------------------------------------------------------

    def standings(self, summary: Summary) -> Standings:
        return from_summary(summary)

    # -- stats and charts ------------------------------------------------------------------

    def stats_style(self, ruleset: RuleSet):
        from rummyref.stats.compute import StatsStyle

        title = ruleset.session_word + "s"
        return StatsStyle(counts=False, unit=ruleset.hand_word, session=ruleset.session_short, sessions_title=title)

    def projection(self, summary: Summary) -> Standings | None:
        """The standings whose pace the chart projects toward the target."""
        return from_summary(summary) if summary.game.target else None

    # -- showing ---------------------------------------------------------------------------

    def show_opened(self, shown: NightOpened, out) -> None:
        render.show_opened(shown, out)

    def opened_json(self, shown: NightOpened) -> dict[str, Any]:
        return render.opened_json(shown)

    def show_recorded(self, shown: HandRecorded, out) -> None:
        render.show_hand(shown, out)

    def recorded_json(self, shown: HandRecorded) -> dict[str, Any]:
        return render.hand_json(shown)

    def show_closed(self, shown: NightClosed, out) -> None:
        render.show_closed(shown, out)

    def closed_json(self, shown: NightClosed) -> dict[str, Any]:
        return render.closed_json(shown)

    def show_standings(self, standings: Any, out) -> None:
        render.show_standings(standings, out)

    def standings_json(self, standings: Any) -> dict[str, Any]:
        return standings.to_json()

    def facts_json(self, facts: Mapping[str, Any]) -> dict[str, Any]:
        """A hand's facts as ``ref history --json`` shows them: its score as ``score-hand --json``
        shows it (:func:`~rummyref.games.long.scoring.score_shown`)."""
        from rummyref.games.long.scoring import score_shown

        kept = facts.get("score")
        return {**facts, "score": score_shown(kept)} if isinstance(kept, Mapping) else dict(facts)

    def show_history_entry(self, facts: Mapping[str, Any], results: Sequence[Any], roster: Sequence[str],
                           out, ruleset: RuleSet | None = None) -> None:
        render.history_lines(facts, results, roster, out, ruleset or load_ruleset("rummy-2m"))

    def show_session_totals(self, ruleset: RuleSet, number: int, hands: int, points, out) -> None:
        render.session_totals(ruleset, number, hands, points, out)

    # -- ref night -------------------------------------------------------------------------

    def preview(self, ctx: Context, shown: HandRecorded, out) -> None:
        out.print(f"{shown.ruleset.hand_title} {shown.hand} ({shown.dealer} dealt), if recorded:", markup=False)
        render.show_score(shown.score, shown.game.roster, dict(shown.totals), out, shown.ruleset)

    def show_written(self, shown: HandRecorded, out) -> None:
        word = shown.ruleset.hand_word
        out.print(f"Recorded: {word} {shown.hand} of {shown.game.name}, {word} {shown.hand_in_night} of the "
                  f"{shown.ruleset.session_short} (entry {shown.seq}).", markup=False)
        render.emptied(shown, out)
        render.not_full(shown, out)
        if shown.game.over or shown.outcome.tied or (shown.round and not shown.round.mid_round):
            render.footer(shown, out, end="type end")  # mid-round, the next prompt says who deals

    def show_corrected(self, shown: HandRecorded, out) -> None:
        render.reopened(shown, out)

    def announce(self, ctx: Context, out) -> None:
        g, rs = ctx.game, ctx.ruleset
        if g.over:
            out.print(f"The game is over{render.over_cited(rs)}: {g.winner} won. Type end to close the "
                      f"{rs.session_short}.", markup=False)
            if more := again(g, rs):  # another rule set's game: its --ruleset, as the GAME OVER footer says
                out.print(f"A new game: ref new-session --game NEW-NAME{more}.", markup=False)
            return
        s = ctx.open_session
        assert s is not None
        out.print(f"Next: {rs.hand_word} {ctx.dealt + 1} of {rs.session_word} {s.number} ({rs.hand_word} "
                  f"{ctx.position.next_hand} of "
                  f"{g.name}): {_night(ctx).next_dealer} deals.", markup=False)

    def show_resumed(self, ctx: Context, out) -> None:
        g, rs = ctx.game, ctx.ruleset
        s = ctx.open_session
        assert s is not None
        out.print(f"{render.cap(rs.session_word)} {s.number} of {g.name} resumed: {rs.hands(ctx.played)} recorded "
                  f"{render.this_session(rs)}.", markup=False)
        if rs.house.seating_dibs:
            tonight = dict(ctx.session_points)
            began = tuple((n, v - tonight.get(n, 0)) for n, v in ctx.totals)
            out.print(f"Seating dibs{render.cited(rs, 'A2')}, from the standings when the {rs.session_short} began:",
                      markup=False)
            for line in render._dibs_lines(began):
                out.print(line, markup=False)
        out.print(f"Deal order{render.cited(rs, 'A3')}: {', '.join(g.roster)}.", markup=False)

    def show_short_standings(self, summary: Summary, out) -> None:
        render.short_standings(from_summary(summary), out)


def _in_new_roster(typed: str, roster: Sequence[str], game: str) -> str:
    """An --opening's name, in the roster of the game being created: nobody else can have a total
    (A1 does not apply yet: the roster is still being named)."""
    found = find(typed, roster)
    if found is not None:
        return found
    near = suggest(typed, roster)
    maybe = f"did you mean {near}? " if near else ""
    raise UnreadableInput(
        f"{typed} is not in the roster being created for {game} ({', '.join(roster)})",
        hint=f"{maybe}--opening is for the players of the new game: name them with --players A,B,C",
    )


def _player(name: str, seat: int, opening: int):
    from rummyref.record import Player

    return Player(name, seat, opening)


def _dealt(roster: Sequence[str], hands: Sequence[HandInForce], night: int) -> tuple[tuple[str, int], ...]:
    """The hands in force each player dealt in ``night`` (A4), in seat order."""
    count = dict.fromkeys(roster, 0)
    for h in hands:
        if h.session == night and h.kind != EntryKind.VOID and h.dealer in count:
            count[h.dealer] += 1
    return tuple(count.items())


def _first_seat(ctx: Context) -> int:
    """The seat that deals the open session's first hand (the next session's, when none is
    open): the first seat under A3, else the seat after the game's last hand in force (R4)."""
    return first_seat(ctx.game.roster, ctx.dealt_before, ctx.ruleset.cite("A3") is not None)


def _night(ctx: Context, *more: Step) -> RoundState:
    """Where the open session's deal stands (A3, A4 with voids, SPEC §8), after ``more`` steps."""
    return deal_state(ctx.game.roster, (*ctx.session_log, *more), _first_seat(ctx)).round()


def _ends_before(ctx: Context, hand: int, kind: EntryKind, outcome: Outcome, openings: Mapping[str, int],
                 in_force: Sequence[tuple[int, Mapping[str, int]]]) -> RuleRefusal:
    """A7 (SPEC §8): a correction after which the game would end at a hand before the last one
    in force is refused: the later hands would have been recorded into a finished game. They
    are voided first (the last first), then the correction is made again."""
    rs, word = ctx.ruleset, ctx.ruleset.hand_word
    end, winner, later = outcome.ended_at, outcome.winner or "", outcome.after_end
    running = dict(openings)
    for number, points in in_force:
        for name, value in points.items():
            running[name] = running.get(name, 0) + value
        if number == end:
            break
    if outcome.level_at is None:
        why = f"{winner} alone has the greatest total at or past the target, {running[winner]:,}"
    else:
        why = (f"after the tie past the target at {word} {outcome.level_at}, {winner} leads alone with "
               f"{running[winner]:,}")
    hands = f"{rs.hand_words if len(later) > 1 else word} {_and([str(n) for n in later])}"
    verb = "amend" if kind == EntryKind.AMEND else "void"
    commands = ", ".join(f"ref void {n}" for n in reversed(later))
    then = f" first ({commands}), then {verb} {word} {hand}" if hand not in later else f" ({commands})"
    return RuleRefusal(
        f"{verb}ing {word} {hand} would end the game at the end of {word} {end} ({why}), but {hands} "
        f"{'is' if len(later) == 1 else 'are'} in force after it: no {word} can be recorded into a finished game",
        rule=rs.cite("A7") or rs.over_rule,
        hint=f"void {hands}{then}",
    )


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _status(outcome: Outcome) -> Status:
    return Status(outcome.over, outcome.winner, outcome.tied)


def _after(g: Game, outcome: Outcome) -> Game:
    return replace(g, finished_at=("now" if outcome.over else None), winner=outcome.winner)


def _next_seq(ctx: Context) -> int:
    return ctx.position.entries + 1
