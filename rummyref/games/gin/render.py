"""Showing Gin Rummy: the hand's result card by card, the game's score with its boxes, and the
JSON shapes (``result``, ``winner``, ``points``, ``deadwood``, ``layoffs`` for a hand)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummyref.cards import format_cards
from rummyref.games.gin.engine import Ending, HandResult, Outcome, gin_rules
from rummyref.games.gin.game import GameScore
from rummyref.rules.ruleset import RuleSet
from rummyref.wrap import Grid, echo

SAID = {Outcome.KNOCK: "knock", Outcome.UNDERCUT: "undercut", Outcome.GIN: "gin", Outcome.BIG_GIN: "big gin",
        Outcome.DEAD: "dead hand"}


def _names(shown) -> tuple[str, str]:
    """(knocker, defender) of a settled hand."""
    f = shown.facts
    first = f.by if f is not None and f.by else shown.players[0]
    return first, next(n for n in shown.players if n != first)


def winner_name(shown) -> str | None:
    r = shown.result
    if r is None or r.winner is None:
        return None
    knocker, defender = _names(shown)
    return knocker if r.winner.value == "knocker" else defender


def result_json(r: HandResult) -> dict[str, Any]:
    """What the record keeps of the settlement (its facts are the cards; this is for reading back)."""
    return {"outcome": r.outcome.value, "winner": None if r.winner is None else r.winner.value, "points": r.points,
            "knock_limit": r.knock_limit, "deadwood": list(r.deadwood),
            "knocker": r.knocker.describe(), "defender": r.defender.describe(),
            "layoffs": [str(lay.card) for lay in r.layoffs]}


def hand_json(shown) -> dict[str, Any]:
    r = shown.result
    knocker, defender = _names(shown)
    unsettled = r is None or r.outcome is Outcome.DEAD
    data: dict[str, Any] = {
        "game": shown.game, "kind": str(shown.kind), "entry": shown.seq, "hand": shown.hand,
        "session": shown.session, "hand_in_session": shown.hand_in_session,
        "result": None if r is None else r.outcome.value,
        "winner": winner_name(shown),
        "points": 0 if r is None else r.points,
        # a void, or a dead hand (no cards given, no knock), has no deadwood and no lay-offs: null
        "deadwood": None if unsettled else {knocker: r.deadwood[0], defender: r.deadwood[1]},
        "layoffs": None if unsettled else [str(lay.card) for lay in r.layoffs],
        "knock_limit": None if r is None else r.knock_limit,
    }
    # a correction after which the game is no longer over (G10), as a long game's (A7)
    return {**data, **score_json(shown.players, shown.score), "reopened": bool(shown.reopened)}


def score_json(players: Sequence[str], score: GameScore) -> dict[str, Any]:
    return {"totals": dict(zip(players, score.totals)), "boxes": dict(zip(players, score.boxes)),
            "over": score.over, "game_winner": None if score.winner is None else players[score.winner],
            "final": None if score.final is None else dict(zip(players, score.final)), "shutout": score.shutout}


def show_result(shown, out) -> None:
    r = shown.result
    if r is None:
        out.print(f"Its result no longer counts; the {shown.ruleset.hand_word} and the void stay in the history (B7).",
                  markup=False)
        return
    knocker, defender = _names(shown)
    if r.outcome is Outcome.DEAD:
        out.print(f"Dead {shown.ruleset.hand_word}: nobody scores (G9).", markup=False)
        return
    out.print(f"  {knocker}: {r.knocker.describe()}", markup=False)
    laid = f"; laid off {format_cards([lay.card for lay in r.layoffs])}" if r.layoffs else ""
    out.print(f"  {defender}: {r.defender.describe()}{laid}", markup=False)
    out.print(f"{SAID[r.outcome].capitalize()}: {winner_name(shown)} scores {r.points}.", markup=False)


def show_hand(shown, out) -> None:
    word, rs = shown.ruleset.hand_title, shown.ruleset
    title = {"hand": word, "amend": f"{word} amended:", "void": f"{word} voided:"}[str(shown.kind)]
    out.print(f"{title} {shown.hand} of {shown.game} ({rs.session_word} {shown.session}, entry {shown.seq})",
              markup=False)
    show_result(shown, out)
    show_score(shown.players, shown.score, shown.ruleset, out)
    reopened(shown, out)
    if shown.score.over:  # as a long game's footer (A7): a Gin game is never the default's
        if shown.session_open:  # a correction may come after the session closed
            out.print(f"The {rs.session_short} may end now: ref end-session.", markup=False)
        out.print(f"A new game: ref new-session --game NEW-NAME{shown.again}.", markup=False)


def reopened(shown, out) -> None:
    """A correction after which the game is no longer over says so, and who leads now (G10),
    as a long game's does (A7)."""
    if shown.reopened:
        echo(out, f"The game is no longer over (G10): {shown.reopened} no longer wins; "
                  f"{_lead(shown.players, shown.score)}, and the game goes on.")


def _lead(players: Sequence[str], score: GameScore) -> str:
    """``Ann leads with 33``, or ``Ann and Bob are level at 33``."""
    best = max(score.totals)
    leaders = [name for name, total in zip(players, score.totals) if total == best]
    return f"{leaders[0]} leads with {best:,}" if len(leaders) == 1 else f"{' and '.join(leaders)} are level at {best:,}"


def show_game_change(players: Sequence[str], before: GameScore, after: GameScore, out) -> None:
    """What a correction, before it is written, does to the end of the game (G10), as a long
    game's preview says it (A7)."""
    if after.over and after.winner is not None and (not before.over or before.winner != after.winner):
        out.print(f"The game would be over (G10): {players[after.winner]} wins by {after.margin:,}.", markup=False)
    elif before.over and not after.over:
        out.print(f"The game would no longer be over (G10): {_lead(players, after)}, and play goes on.",
                  markup=False)
    elif after.over and after.winner is not None and after.final is not None and after.final != before.final:
        # the same winner, another final (G10-G12): the new one, as the GAME OVER line gives it
        final = ", ".join(f"{n} {v:,}" for n, v in zip(players, after.final))
        was = f"not {before.margin:,}" if before.margin != after.margin else "as before"
        out.print(f"The game would still be over (G10): {players[after.winner]} wins by {after.margin:,}, {was}; "
                  f"final with boxes and bonus: {final}.", markup=False)


def show_score(players: Sequence[str], score: GameScore, rs: RuleSet, out) -> None:
    grid = Grid().column("player", name=True).column("total", right=True).column("to go", right=True)
    grid.column("boxes", right=True)
    target = rs.target or 0
    for i, name in enumerate(players):
        grid.row(name, f"{score.totals[i]:,}", f"{max(target - score.totals[i], 0):,}", str(score.boxes[i]))
    grid.print(out)
    if score.over and score.final is not None and score.winner is not None:
        said = shutout_said(rs)
        shut = f" (shutout: the winner's score {said}, G12)" if score.shutout and said else ""
        final = ", ".join(f"{n} {v:,}" for n, v in zip(players, score.final))
        out.print(f"GAME OVER: {players[score.winner]} wins by {score.margin:,}; final with boxes and bonus: "
                  f"{final}{shut}.", markup=False)


def shutout_said(rs: RuleSet) -> str | None:
    """What a shutout does to the winner's final score (G12), in words, from the rule set's
    factor: "doubled", "tripled", "multiplied by N"; None for a factor of 1 (nothing is done)."""
    factor = gin_rules(rs).shutout_multiplier
    if factor == 1:
        return None
    return {2: "doubled", 3: "tripled"}.get(factor, f"multiplied by {factor:,}")


def opened_json(shown) -> dict[str, Any]:
    g = shown.game
    return {"game": g.name, "ruleset": g.ruleset, "target": g.target, "created": shown.created,
            "session": shown.number, "players": list(g.roster), "variations": list(shown.variations),
            **score_json(g.roster, shown.score)}


def show_opened(shown, out) -> None:
    g = shown.game
    if shown.created:
        vs = f"; {', '.join(shown.variations)}" if shown.variations else ""
        out.print(f"New game {g.name} ({shown.ruleset.title} to {g.target:,}{vs}): {' v '.join(g.roster)}.", markup=False)
    out.print(f"{shown.ruleset.session_title} {shown.number} of {g.name} is open.", markup=False)
    show_score(g.roster, shown.score, shown.ruleset, out)


def closed_json(shown) -> dict[str, Any]:
    return {"game": shown.game, "session": shown.number, "hands": shown.hands, "points": dict(shown.points)}


def show_closed(shown, out) -> None:
    pts = ", ".join(f"{n} {v:,}" for n, v in shown.points)
    rs = shown.ruleset
    out.print(f"{rs.session_title} {shown.number} of {shown.game} is closed: {rs.hands(shown.hands)}; "
              f"points this {rs.session_short}: {pts}.", markup=False)


def standings_json(st) -> dict[str, Any]:
    g = st.game
    return {"game": g.name, "ruleset": g.ruleset, "target": g.target, "sessions": st.sessions,
            "open_session": st.open_session, "hands": st.score.hands, "players": list(g.roster),
            **score_json(g.roster, st.score)}


def show_standings(st, out, next_steps: bool = True) -> None:
    """``ref standings`` of a Gin game; ``next_steps``: once it is over, what comes next (the
    night says so in its own words)."""
    g = st.game
    out.print(f"{g.name} ({g.ruleset}), to {g.target:,}: {st.ruleset.hands(st.score.hands)}"
              + (f"; {st.ruleset.session_word} {st.open_session} is open" if st.open_session else ""), markup=False)
    show_score(g.roster, st.score, st.ruleset, out)
    if next_steps and st.score.over:  # what comes next, as the hand that ended the game said it (G10)
        from rummyref.games.base import new_game

        if st.open_session:
            out.print(f"The {st.ruleset.session_short} may end now: ref end-session.", markup=False)
        out.print(f"A new game: {new_game(g, st.ruleset)}.", markup=False)


def history_lines(facts: Mapping[str, Any], results: Sequence[Any], out, rs: RuleSet,
                  roster: Sequence[str] = ()) -> None:
    """One Gin hand in ``ref history``: both hands as typed, then how it ended and who scored
    (the knocker is ``by``; an undercut scores for the defender, G8). A void has no hand: its
    entry says what it voided, and nothing more."""
    if facts.get("form") != "gin":  # a void's facts are the game's status only
        return
    hands = facts.get("hands", {})
    for name, cards in hands.items():
        out.print(f"    {name}: {' '.join(cards) or '-'}", markup=False)
    knocker = facts.get("by") or ""
    if facts.get("melds") is not None:  # G14: the melds the table said were laid down, not ref's choice
        laid = " / ".join(" ".join(m) for m in facts["melds"]) or "none"
        echo(out, f"{knocker}'s melds, as stated: {laid}", indent="    ", hang="      ")
    result = facts.get("result", {})
    outcome = Outcome(result.get("outcome", Ending(facts.get("ending", "dead")).value))
    if facts.get("upcard"):  # G13: the first upcard set the knock limit
        limit = result.get("knock_limit")
        sets = f": knock limit {limit} (G13)" if limit is not None and outcome is not Outcome.DEAD else ""
        out.print(f"    first upcard {facts['upcard']}{sets}", markup=False)
    if outcome is Outcome.DEAD:
        out.print(f"    dead {rs.hand_word}: nobody scores (G9)", markup=False)
        return
    defender = next((n for n in (*roster, *hands) if n != knocker), "")
    winner = knocker if result.get("winner") == "knocker" else defender
    how = f"{knocker} knocked; undercut" if outcome is Outcome.UNDERCUT else f"{SAID[outcome]} by {knocker}"
    out.print(f"    {how}: {winner} scores {result.get('points', 0)}", markup=False)
