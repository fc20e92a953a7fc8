"""Gin Rummy: the GameKind. A game is one race to the rule set's target (100); each hand is
settled from both players' cards by the engine (knock, undercut, gin, big gin, dead), and the
game's end and final scores (boxes, game bonus, shutout) are a fold of the hands in force."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rummyref.cards import Card, parse_card, parse_cards
from rummyref.errors import RuleRefusal, UnreadableInput, and_list
from rummyref.games.base import (
    Closing,
    Opening,
    Recorded,
    Rejudged,
    SessionDeal,
    SessionRequest,
    again,
    new_game,
    no_session_options,
    no_such_hand,
    none_open,
    open_refusals,
    over_refusal,
)
from rummyref.games.gin import render
from rummyref.games.gin.engine import Ending, HandResult, hand_size, knock_limit, settle
from rummyref.games.gin.game import GameScore, HandScore, play
from rummyref.names import check_reason, check_roster
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


@dataclass(frozen=True)
class Facts:
    hands: Mapping[str, tuple[Card, ...]]  #: each player's cards (the knocker's after the discard)
    ending: Ending
    by: str | None  #: who knocked or went gin (None: a dead hand)
    melds: tuple[tuple[Card, ...], ...] | None = None  #: the melds the knocker laid down, if stated
    upcard: Card | None = None  #: Oklahoma (G13): the first upcard


@dataclass(frozen=True)
class GinHand:
    """A hand settled, with the game after it."""

    game: str
    ruleset: RuleSet
    kind: EntryKind
    seq: int
    hand: int
    session: int
    hand_in_session: int
    players: tuple[str, str]
    facts: Facts | None  #: None for a void
    result: HandResult | None
    score: GameScore
    again: str = ""  #: what a new game of the same kind needs (:func:`rummyref.games.base.again`)
    #: a correction after which the game is no longer over: who had won it (G10); "" otherwise
    reopened: str = ""
    #: a session of the game is open once this is written (a correction may come after it closed)
    session_open: bool = True


@dataclass(frozen=True)
class GinOpened:
    game: Game
    ruleset: RuleSet
    created: bool
    number: int
    variations: tuple[str, ...]
    score: GameScore


@dataclass(frozen=True)
class GinClosed:
    game: str
    ruleset: RuleSet
    number: int
    hands: int
    points: tuple[tuple[str, int], ...]
    score: GameScore


@dataclass(frozen=True)
class GinStandings:
    game: Game
    ruleset: RuleSet
    sessions: int
    open_session: int | None
    score: GameScore


def fold(ruleset: RuleSet, players: Sequence[str], hands: Sequence[HandInForce]) -> GameScore:
    """The game after every hand in force (voided hands do not count)."""
    seat = {name: i for i, name in enumerate(players)}
    scores = []
    for h in hands:
        if h.kind == EntryKind.VOID or not h.results:
            continue
        winner = next((r for r in h.results if r.won), None)
        scores.append(HandScore(None, 0) if winner is None else HandScore(seat[winner.name], winner.points))
    return play(scores, ruleset)


def _ends_before(ruleset: RuleSet, players: Sequence[str], hands: Sequence[HandInForce], hand: int,
                 kind: EntryKind) -> RuleRefusal | None:
    """G10 after a correction (as A7, SPEC §8): the game must not end at a hand before the last
    one in force, or the later hands would have been recorded into a finished game. They are
    voided first (the last first), then the correction is made again."""
    from rummyref.games.gin.game import add

    seat = {name: i for i, name in enumerate(players)}
    played = [h for h in hands if h.kind != EntryKind.VOID and h.results]
    game = GameScore()
    for i, h in enumerate(played):
        if game.over:  # a record written before this check: its end was already past
            return None
        winner = next((r for r in h.results if r.won), None)
        game = add(game, HandScore(None, 0) if winner is None else HandScore(seat[winner.name], winner.points),
                   ruleset)
        later = [x.hand for x in played[i + 1:]]
        if game.over and later:
            word = ruleset.hand_word
            name = players[game.winner] if game.winner is not None else ""
            many = len(later) > 1
            hands_text = f"{ruleset.hand_words if many else word} {_and([str(n) for n in later])}"
            verb = "amend" if kind == EntryKind.AMEND else "void"
            commands = ", ".join(f"ref void {n}" for n in reversed(later))
            then = f" first ({commands}), then {verb} {word} {hand}" if hand not in later else f" ({commands})"
            return RuleRefusal(
                f"{verb}ing {word} {hand} would end the game at the end of {word} {h.hand} ({name} reaches "
                f"{game.totals[game.winner or 0]}, the target is {ruleset.target}), but {hands_text} "
                f"{'are' if many else 'is'} in force after it: no {word} can be recorded into a finished game",
                rule="G10",
                hint=f"void {hands_text}{then}",
            )
    return None


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def facts_json(f: Facts) -> dict[str, Any]:
    return {"form": "gin", "hands": {n: [str(c) for c in cs] for n, cs in f.hands.items()},
            "ending": f.ending.value, "by": f.by,
            "melds": None if f.melds is None else [[str(c) for c in m] for m in f.melds],
            "upcard": None if f.upcard is None else str(f.upcard)}


def facts_from_json(data: Mapping[str, Any]) -> Facts:
    melds = data.get("melds")
    return Facts({n: tuple(parse_cards(" ".join(cs))) for n, cs in data["hands"].items()}, Ending(data["ending"]),
                 data.get("by"), None if melds is None else tuple(tuple(parse_cards(" ".join(m))) for m in melds),
                 parse_card(data["upcard"]) if data.get("upcard") else None)


def _settle(game: Game, ruleset: RuleSet, facts: Facts) -> tuple[HandResult, tuple[PlayerResult, ...]]:
    """A hand settled from its facts (the write and ``ref verify`` alike)."""
    players = game.roster
    if facts.ending is Ending.DEAD:
        first, second = players
    else:
        first = facts.by or players[0]
        second = next(n for n in players if n != first)
    result = settle(facts.hands.get(first, ()), facts.hands.get(second, ()), facts.ending, ruleset,
                    names=(first, second), melds=facts.melds, upcard=facts.upcard)
    if facts.ending is Ending.DEAD and facts.upcard is None and _oklahoma(game):
        result = replace(result, knock_limit=None)  # G13: no upcard given, no limit set (none was needed)
    winner = None if result.winner is None else (first if result.winner.value == "knocker" else second)
    deadwood = dict(zip((first, second), result.deadwood))
    return result, tuple(PlayerResult(n, result.points if n == winner else 0, deadwood[n], n == winner)
                         for n in players)


class GinGame:
    """Two players; each hand is settled from the cards; the first to the target wins the game."""

    method: ClassVar[Method] = Method.GIN
    title: ClassVar[str] = "Gin Rummy"
    folds_rows: ClassVar[bool] = True  #: see GameKind.folds_rows

    def usage(self, command: str, ruleset: RuleSet) -> str:
        size = hand_size(ruleset)  # G1: the rule set's deal
        return (f'ref {command} --hand "NAME={size} CARDS" --hand "NAME={size} CARDS" with --knock NAME, '
                f'--gin NAME, --big-gin NAME ({size + 1} cards) or --dead; --melds "NAME=MELDS" states what was '
                'laid down')

    def over_rule(self, ruleset: RuleSet) -> str | None:
        return "G10"  # no hand can be recorded into a finished game

    def hand_word(self, ruleset: RuleSet) -> str:
        return ruleset.hand_word

    def session_word(self, ruleset: RuleSet) -> str:
        return ruleset.session_word

    def wants_history(self, command: str) -> bool:
        return True  # the game's score is a fold of the hands in force

    # -- sessions --------------------------------------------------------------------------

    def open_session(self, ctx: Context | None, ruleset: RuleSet, request: SessionRequest) -> Opening:
        extra = [name for name, v in (("opening", request.openings), ("cards", request.cards),
                                      ("first-dealer", request.first_dealer)) if v]
        if extra or request.wildcards:
            flags = ", ".join("--" + e for e in extra + (["wildcards"] if request.wildcards else []))
            raise UnreadableInput(f"{flags}: not for {ruleset.title}",
                                  hint=f"Gin is two players, {hand_size(ruleset)} cards each, no WILDCARDs, "
                                       "a game to the target")
        for v in request.variations:
            ruleset.variation(v)  # an unknown variation is refused, naming the ones there are
        if ctx is None:
            players = check_roster(request.players or ())
            if len(players) != 2:
                raise RuleRefusal(f"{ruleset.title} is for two players, not {len(players)}", rule="G1",
                                  hint="name them: --players Ann,Bob")
            header = GameHeader(request.game or ruleset.name, ruleset.name,
                                ruleset.kept_text(), ruleset.target, 0,
                                tuple((n, 0) for n in players),
                                {"closed_roster": False, "full_rounds": False, "variations": list(request.variations)})
            game = Game(header.name, header.ruleset, header.target, 0, (), "", options=header.options)
            game = replace(game, players=tuple(_player(n, i) for i, n in enumerate(players, 1)))
            return Opening(header, (), {}, GinOpened(game, ruleset, True, 1, request.variations, GameScore()))
        if request.variations and tuple(request.variations) != tuple(ctx.game.options.get("variations", ())):
            raise RuleRefusal(f"game {ctx.game.name}'s variations were chosen when it was created",
                              hint=f"a new game may play others: --game NEW-NAME{ruleset.again} --variation NAME")
        if request.players:
            from rummyref.names import keeps_its_table, resolve_name

            new_table = f"ref new-session --game NEW-NAME{ruleset.again} --players ..."
            named = {resolve_name(n, ctx.game.roster, ctx.game.name, False, given=request.players,
                                  new_table=new_table) for n in request.players}
            if named != set(ctx.game.roster):
                raise RuleRefusal(f"game {ctx.game.name} is between {and_list(ctx.game.roster)}",
                                  hint=keeps_its_table(ctx.game.name, new_table))
        open_refusals(ctx, self)
        number = (ctx.sessions[-1].number if ctx.sessions else 0) + 1
        score = fold(ctx.ruleset, ctx.game.roster, ctx.hands())
        variations = tuple(ctx.game.options.get("variations", ()))
        return Opening(None, (), {}, GinOpened(ctx.game, ctx.ruleset, False, number, variations, score))

    def check_session_options(self, ruleset: RuleSet, options: Mapping[str, Any]) -> None:
        no_session_options(options)

    def tellings(self, ruleset: RuleSet) -> tuple[str, ...]:
        return ("cards",)  # both hands: no points form

    def keeps_deal_order(self, ruleset: RuleSet) -> bool:
        return False  # G15: the deal is the table's own custom

    def full_rounds(self, ruleset: RuleSet) -> bool:
        return False  # a session may end after any hand

    def session_deal(self, roster: Sequence[str], log: Sequence[tuple[str, str]]) -> SessionDeal:
        return SessionDeal()  # no full rounds: nothing is ever still to deal

    def close_session(self, ctx: Context) -> Closing:
        s = ctx.open_session
        if s is None:
            raise none_open(ctx.game, ctx.ruleset, self.over_rule(ctx.ruleset))
        return Closing(False, s.number)

    def closed(self, ctx: Context, closing: Closing, points: Sequence[tuple[str, int]], played: int) -> GinClosed:
        return GinClosed(ctx.game.name, ctx.ruleset, closing.shown, played, tuple(points),
                         fold(ctx.ruleset, ctx.game.roster, ctx.hands()))

    # -- hands -----------------------------------------------------------------------------

    def form(self, ctx: Context, hand: int | None = None, style: str = ""):
        from rummyref.games.gin.form import GinForm

        if style == "points":
            raise UnreadableInput(f"{ctx.ruleset.title} is recorded by both hands: no points form")
        form = GinForm(ctx.game, _oklahoma(ctx.game), knock_limit(ctx.ruleset), hand_size(ctx.ruleset))
        old = ctx.in_force(hand) if hand is not None and ctx.history is not None else None
        if old is not None and old.facts.get("form") == "gin":
            form.recall_facts(facts_from_json(old.facts))  # at a terminal, the hand as recorded answers first
        return form

    def check_next(self, ctx: Context, dealer: str | None = None) -> None:
        g = ctx.game
        if dealer:  # Gin keeps no deal order to check a dealer against (nor --first-dealer)
            raise UnreadableInput(f"--dealer {dealer}: not for {ctx.ruleset.title}",
                                  hint="Gin keeps no deal order: leave --dealer out")
        if g.over:
            raise over_refusal(g, ctx.ruleset, self.over_rule(ctx.ruleset))
        if ctx.open_session is None:
            raise RuleRefusal(f"no {ctx.ruleset.session_word} of {g.name} is open", hint="ref new-session opens one")

    def last_in_force(self, ctx: Context) -> int | None:
        s = ctx.open_session
        return next((h.hand for h in reversed(ctx.hands())
                     if s is not None and h.session == s.number and h.kind != EntryKind.VOID), None)

    def show_as_recorded(self, ctx: Context, hand: int, out) -> None:
        old = ctx.in_force(hand)
        if old is None:
            raise no_such_hand(ctx, hand)
        if old.kind == EntryKind.VOID:
            raise RuleRefusal(f"{ctx.ruleset.hand_word} {hand} was voided (entry {old.seq})", rule="B7")
        out.print(f"{ctx.ruleset.hand_title} {hand} as recorded ({ctx.ruleset.session_word} {old.session}; entry {old.seq}):",
                  markup=False)
        render.history_lines(old.facts, (), out, ctx.ruleset, ctx.game.roster)

    def show_change(self, ctx: Context, hand: int, shown: GinHand, out) -> None:
        # the hand as it will be settled (a void: that its result no longer counts), then the totals
        what = "voided" if shown.kind == EntryKind.VOID else "amended"
        out.print(f"{ctx.ruleset.hand_title} {hand}, {what}, if recorded:", markup=False)
        render.show_result(shown, out)
        before = fold(ctx.ruleset, ctx.game.roster, ctx.hands())
        after = shown.score
        for i, name in enumerate(ctx.game.roster):
            out.print(f"  {name}: {before.totals[i]:,} -> {after.totals[i]:,}", markup=False)
        render.show_game_change(ctx.game.roster, before, after, out)

    def show_session_totals(self, ruleset: RuleSet, number: int, hands: int, points, out) -> None:
        pts = ", ".join(f"{n} {v:,}" for n, v in points)
        out.print(f"{ruleset.session_title} {number}: {ruleset.hands(hands)}; points {pts}", markup=False)

    def _settle(self, ctx: Context, facts: Facts) -> tuple[HandResult, tuple[PlayerResult, ...]]:
        return _settle(ctx.game, ctx.ruleset, facts)

    def rejudge(self, ruleset: RuleSet, game: Game, sessions: Sequence[SessionInfo],
                entries: Sequence[HandInForce], in_force: Sequence[HandInForce]) -> Rejudged:
        again = {e.seq: _settle(game, ruleset, facts_from_json(e.facts))[1] for e in entries
                 if e.kind != EntryKind.VOID and e.facts.get("form") == "gin"}
        hands = [replace(h, results=again.get(h.seq, h.results)) for h in in_force]
        return Rejudged({seq: {r.name: r.points for r in rs} for seq, rs in again.items()},
                        _status(fold(ruleset, game.roster, hands), game.roster))


    def adjudicate(self, ctx: Context, facts: Facts, dealer: str | None = None) -> Recorded:
        g = ctx.game
        self.check_next(ctx, dealer)
        s = ctx.open_session
        assert s is not None
        result, results = self._settle(ctx, facts)
        number, his = ctx.position.next_hand, ctx.dealt + 1
        played = HandInForce(number, s.number, his, None, EntryKind.HAND, 0, {}, results)
        score = fold(ctx.ruleset, g.roster, (*ctx.hands(), played))
        draft = Draft(EntryKind.HAND, number, his, None, {**facts_json(facts), "result": render.result_json(result)},
                      results, status=_status(score, g.roster))
        return Recorded(draft, GinHand(g.name, ctx.ruleset, EntryKind.HAND, ctx.position.entries + 1, number,
                                       s.number, his, _pair(g.roster), facts, result, score, again(g, ctx.ruleset)))

    def correct(self, ctx: Context, hand: int, facts: Facts | None, reason: str) -> Recorded:
        g = ctx.game
        reason = check_reason(reason)  # B7: a reason, one line of text
        old = ctx.in_force(hand)
        if old is None:
            raise no_such_hand(ctx, hand)
        if old.kind == EntryKind.VOID:
            word = ctx.ruleset.hand_word
            raise RuleRefusal(f"{word} {hand} was voided (entry {old.seq})", rule="B7",
                              hint=f"a voided {word} stays voided; record what happened as a new {word}")
        kind = EntryKind.AMEND if facts is not None else EntryKind.VOID
        result: HandResult | None = None
        results: tuple[PlayerResult, ...] = ()
        body: dict[str, Any] = {}
        if facts is not None:
            result, results = self._settle(ctx, facts)
            body = {**facts_json(facts), "result": render.result_json(result)}
        hands = [h if h.hand != hand else replace(h, kind=kind, results=results) for h in ctx.hands()]
        refusal = _ends_before(ctx.ruleset, g.roster, hands, hand, kind)
        if refusal is not None:
            raise refusal
        score = fold(ctx.ruleset, g.roster, hands)
        was = fold(ctx.ruleset, g.roster, ctx.hands())
        reopened = g.roster[was.winner] if was.over and was.winner is not None and not score.over else ""
        draft = Draft(kind, hand, old.hand_in_session, None, body, results, reason, old.seq,
                      _status(score, g.roster))
        return Recorded(draft, GinHand(g.name, ctx.ruleset, kind, ctx.position.entries + 1, hand, old.session,
                                       old.hand_in_session, _pair(g.roster), facts, result, score,
                                       again(g, ctx.ruleset), reopened, ctx.open_session is not None))

    # -- standings, stats ------------------------------------------------------------------

    def standings(self, summary: Summary) -> GinStandings:
        ctx = summary.context
        assert ctx is not None, "wants_history: the game's score is a fold"
        return GinStandings(ctx.game, ctx.ruleset, len(ctx.sessions),
                            ctx.open_session.number if ctx.open_session else None,
                            fold(ctx.ruleset, ctx.game.roster, ctx.hands()))

    def stats_style(self, ruleset: RuleSet):
        from rummyref.stats.compute import StatsStyle

        return StatsStyle(counts=False, unit=ruleset.hand_word, session=ruleset.session_short,
                          sessions_title=ruleset.session_word + "s", layout="gin", recorded_winners=True,
                          sessions_won=False, worst_hand=False)  # the game is won, a hand lost scores 0

    def projection(self, summary: Summary) -> None:
        return None

    # -- showing ---------------------------------------------------------------------------

    def show_opened(self, shown: GinOpened, out) -> None:
        render.show_opened(shown, out)

    def opened_json(self, shown: GinOpened) -> dict[str, Any]:
        return render.opened_json(shown)

    def show_recorded(self, shown: GinHand, out) -> None:
        render.show_hand(shown, out)

    def recorded_json(self, shown: GinHand) -> dict[str, Any]:
        return render.hand_json(shown)

    def show_closed(self, shown: GinClosed, out) -> None:
        render.show_closed(shown, out)

    def closed_json(self, shown: GinClosed) -> dict[str, Any]:
        return render.closed_json(shown)

    def show_standings(self, standings: GinStandings, out) -> None:
        render.show_standings(standings, out)

    def standings_json(self, standings: GinStandings) -> dict[str, Any]:
        return render.standings_json(standings)

    def show_history_entry(self, facts: Mapping[str, Any], results: Sequence[Any], roster: Sequence[str],
                           out, ruleset: RuleSet | None = None) -> None:
        render.history_lines(facts, results, out, ruleset or load_ruleset("gin"), roster)

    def preview(self, ctx: Context, shown: GinHand, out) -> None:
        out.print(f"{shown.ruleset.hand_title} {shown.hand}, if recorded:", markup=False)
        render.show_result(shown, out)

    def show_written(self, shown: GinHand, out) -> None:
        out.print(f"Recorded: {shown.ruleset.hand_word} {shown.hand} of {shown.game} (entry {shown.seq}).", markup=False)

    def show_corrected(self, shown: GinHand, out) -> None:
        render.reopened(shown, out)

    def announce(self, ctx: Context, out) -> None:
        g = ctx.game
        if g.over:
            out.print(f"The game is over: {g.winner} won. Type end to close the {ctx.ruleset.session_short}.",
                      markup=False)
            out.print(f"A new game: {new_game(g, ctx.ruleset)}.", markup=False)
            return
        out.print(f"Next: {ctx.ruleset.hand_word} {ctx.position.next_hand} of {g.name} ({' v '.join(g.roster)}).", markup=False)

    def show_resumed(self, ctx: Context, out) -> None:
        s = ctx.open_session
        assert s is not None
        out.print(f"{ctx.ruleset.session_title} {s.number} of {ctx.game.name} resumed.", markup=False)
        render.show_score(ctx.game.roster, fold(ctx.ruleset, ctx.game.roster, ctx.hands()), ctx.ruleset, out)

    def show_short_standings(self, summary: Summary, out) -> None:
        render.show_standings(self.standings(summary), out, next_steps=False)


def _oklahoma(game: Game) -> bool:
    """Does the game play Oklahoma (G13: the first upcard sets each hand's knock limit)?"""
    return "oklahoma" in game.options.get("variations", ())


def _pair(roster: Sequence[str]) -> tuple[str, str]:
    return (roster[0], roster[1])


def _player(name: str, seat: int):
    from rummyref.record import Player

    return Player(name, seat, 0)


def _status(score: GameScore, roster: Sequence[str]) -> Status:
    return Status(score.over, None if score.winner is None else roster[score.winner])
