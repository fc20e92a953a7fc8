"""Showing a low-count game (Simple Rummy): tables for humans on the console the CLI passes in,
and the JSON shapes of 0.1 (kept for people's scripts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummyref.cards import format_cards, parse_cards
from rummyref.errors import and_list
from rummyref.names import shown
from rummyref.rules.ruleset import RuleSet
from rummyref.wrap import Grid, echo


def opened_json(r) -> dict[str, Any]:
    return {
            "game": r.game,
            "ruleset": r.table.ruleset.name,
            "created": r.created,
            "session": r.number,
            "table": r.table.to_dict(),
            "dealer": r.dealer,
            "first_player": r.first_player,
            "turn_order": list(r.table.turn_order(r.first_player)),
            "how": r.how,
            "first_dealer": None if r.first_dealer is None else r.first_dealer.to_dict(),
            "newcomers": list(r.newcomers),
            "new_match": r.new_match,
            "match": r.match.to_dict(),
        }


def show_opened(r, out) -> None:
    if r.created:
        echo(out, f"New game {shown(r.game)} ({r.table.ruleset.title}).")
    echo(out, f"{r.table.ruleset.session_title} {r.number} of {shown(r.game)} is open.")
    render_table(r.table, out)
    vs = ", ".join(f"{v.title} ({v.rule})" for v in r.table.variations) or "none"
    echo(out, f"Variations in force: {vs}.")
    if r.newcomers:
        echo(out, f"Welcome {', '.join(map(shown, r.newcomers))}: new at this game.")
    if r.new_match:
        echo(out, "The table has changed, so a new match begins (S17).")
    echo(out, f"{shown(r.dealer)} deals; {shown(r.first_player)} plays first. {r.how}.")
    echo(out, f"Turn order (clockwise): {', '.join(map(shown, r.table.turn_order(r.first_player)))}.")
    render_match(r.match, out, r.table.ruleset.hand_word)


def game_json(r) -> dict:
    base = r.result.to_dict() if r.result else {"winner": None, "reason": "voided", "counts": {}}
    return {
        "game": r.game,
        "kind": r.kind,
        "entry": r.seq,
        "number": r.number,
        "session": r.session,
        "game_in_session": r.game_in_session,
        "dealer": r.dealer,
        **base,
        "match": r.match.to_dict(),
        "next_dealer": r.next_dealer,
        # a correction's effect on the matches already decided (S17): who had won each, who wins
        # it now (null: it is no longer won, it goes on); [] when it changes no decided match
        "matches_changed": [{"number": n, "was": was, "now": now or None} for n, was, now in r.unwon],
    }


def show_game(r, out) -> None:
    title = {"hand": "", "amend": " (amended)", "void": " (voided)"}[r.kind]
    rs = r.ruleset
    word = rs.hand_word
    head = (f"{rs.hand_title} {r.number}{title} of {shown(r.game)} ({rs.session_word} {r.session}, {word} "
            f"{r.game_in_session} of the {rs.session_short}): "
            f"{shown(r.dealer)} dealt")
    if r.result:
        head += f", {shown(r.result.first_player)} played first"
    echo(out, head + ".")
    if r.result:
        render_game(r.result, out)
    else:
        echo(out, f"Its result no longer counts; the {word} and the void stay in the history (B7).")
    unwon(r, out)
    render_match(r.match, out, word)
    show_next(r.next_dealer, r.match.first_player, out, f"Next {word}")


def unwon(r, out) -> None:
    """A correction that undid a match's end says so, as a long game's does (A7): once written,
    and before, in the preview the table confirms (:func:`show_change`)."""
    for number, was, now in r.unwon:
        echo(out, f"Match {number} is no longer won (S17): {shown(was)} no longer wins it; it goes on." if not now else
                  f"Match {number} is won by {shown(now)} now, not {shown(was)} (S17).")


def show_next(dealer: str | None, first: str, out, when: str = "Next game") -> None:
    """Who deals the next game and who plays first in it (S6, S17)."""
    if dealer:
        echo(out, f"{when}: {shown(dealer)} deals, {shown(first)} plays first (S6).")


def show_change(hand: int, counts: Mapping[str, int | None], won: str | None, state, r, out) -> None:
    """A correction before it is written: each count, the winner and the match, before -> after.
    ``counts``/``won``/``state``: as now in force; ``r``: the correction (a GameRecorded)."""
    what = "voided" if r.result is None else "amended"
    echo(out, f"{r.ruleset.hand_title} {hand}, {what}, if recorded (before -> after):")
    after = {p.name: p.count for p in r.result.players} if r.result else {}
    grid = Grid().column("player", name=True).column("count was", right=True).column("").column("now", right=True)
    for name, count in counts.items():
        new = ("-" if after.get(name) is None else str(after[name])) if r.result else "void"
        grid.row(name, "-" if count is None else str(count), "->", new)
    grid.print(out)
    if r.result is not None:
        echo(out, f"Why: {r.result.reason}", hang="  ")
    winner = r.result.winner if r.result else None
    same = " (no change)" if winner == won else ""
    echo(out, f"Winner: {shown(won or 'none')} -> {shown(winner or 'none')}{same}.")
    word = r.ruleset.hand_word
    if state is not None and state.summary(word) != r.match.summary(word):
        echo(out, "Match now: " + state.summary(word), hang="  ")
        echo(out, "Match after: " + r.match.summary(word), hang="  ")
    unwon(r, out)  # a decided match changing hands is said before "Record it?", as after


def session_winners(wins) -> list[str]:
    """Who won the most games of the session (none if nobody won a game)."""
    best = max((v for _, v in wins), default=0)
    return [n for n, v in wins if v == best] if best else []


def closed_json(r) -> dict[str, Any]:
    return {"game": r.game, "session": r.number, "games": r.games, "game_wins": dict(r.wins),
            "winners": session_winners(r.wins), "match": r.match.to_dict() if r.match else None,
            "abandoned": r.abandoned}


def show_closed(r, out) -> None:
    rs = r.ruleset
    if r.abandoned:  # as a Rummy Night's: no game counted, and it does not count (SPEC §8)
        echo(out, f"{rs.session_title} {r.number} of {shown(r.game)} is closed: {rs.hands(0)}.")
        echo(out, f"No {rs.hand_word} counted: the {rs.session_short} is closed as abandoned and does not count "
                  f"as a {rs.session_word}.")
        if r.match:
            render_match(r.match, out, rs.hand_word)
        return
    wins = ", ".join(f"{shown(n)} {v}" for n, v in r.wins)
    echo(out, f"{rs.session_title} {r.number} of {shown(r.game)} is closed: {rs.hands(r.games)}; "
              f"{rs.hand_word} wins this {rs.session_short}: {wins}.")
    best = session_winners(r.wins)
    if best:
        echo(out, f"Most {rs.hand_words} won this {rs.session_short}: {and_list([shown(b) for b in best])}.")
    if r.match:
        render_match(r.match, out, rs.hand_word)


def standings_json(game: str, ruleset: str, folded, players, sessions: int, open_session) -> dict:
    state = folded.state
    return {
        "game": game,
        "ruleset": ruleset,
        "games": folded.games,
        "sessions": sessions,
        "open_session": open_session,
        "table": folded.table.to_dict() if folded.table else None,
        "players": [
            {"name": n, "games": played, "games_dropped": dropped, "game_wins": wins,
             "matches_won": dict(state.matches_won).get(n, 0) if state else 0,
             "at_table": bool(folded.table and n in folded.table.players)}
            for n, played, wins, dropped in players
        ],
        "match": None if state is None else {**state.to_dict(), "abandoned": list(folded.abandoned)},
    }


def show_standings(d: Mapping[str, Any], folded, out) -> None:
    rs = folded.ruleset
    echo(out, f"{shown(d['game'])} ({d['ruleset']}): {rs.hands(d['games'])} over {rs.sessions(d['sessions'])}"
              + (f"; {rs.session_word} {d['open_session']} is open" if d["open_session"] else ""))
    if folded.table:
        echo(out, "Table: " + folded.table.describe(), hang="  ")
    m = d["match"]
    away = folded.table is not None and not all(p["at_table"] for p in d["players"])  # no table: none away
    grid = Grid().column("player", name=True)
    if away:
        grid.column("", spare=1)  # "(not at the table)"
    drops = any(p["games_dropped"] for p in d["players"])
    for c in (rs.hand_words, "dropped", "won", "this match", "matches"):
        if c != "dropped" or drops:
            grid.column(c, right=True)
    for p in d["players"]:
        now = str(m["game_wins"].get(p["name"], "-")) if m else "-"
        dropped = [str(p["games_dropped"])] if drops else []
        grid.row(p["name"], *([] if not away else ["" if p["at_table"] else "(not at the table)"]), str(p["games"]),
                 *dropped, str(p["game_wins"]), now, str(p["matches_won"]))
    grid.print(out)
    if drops:
        echo(out, f"{rs.hand_words}: played to the end; dropped: dropped out (S14), not counted as played.")
    if folded.state:
        render_match(folded.state, out, rs.hand_word)
        when = f"Next {rs.hand_word}" + ("" if d["open_session"] else ", if the same players sit down")
        show_next(d.get("next_dealer"), folded.state.first_player, out, when)
        for f in m["finished"]:
            out.print(f"  match {f['number']}: {shown(f['winner'])} won {f['score']} in {rs.hands(f['games'])}",
                      markup=False)
        for n in m["abandoned"]:
            echo(out, f"  match {n}: left unfinished when the table changed")


def history_lines(facts: Mapping[str, Any], results, out) -> None:
    """One Simple Rummy game in ``ref history``: first player, hands, counts, winner. A void
    has no game of its own: its entry says what it voided, and nothing more."""
    if "result" not in facts:  # a void's facts are the match's state only
        return
    res = facts["result"]
    echo(out, f"{shown(str(facts.get('first_player')))} played first; ending: {_ending_text(facts.get('ending', {}))}",
         indent="    ", hang="      ")
    for p in res.get("players", []):
        hand = "(not shown)" if p["hand"] is None else format_cards(parse_cards(" ".join(p["hand"])))
        count = "-" if p["count"] is None else p["count"]
        note = f" ({p['note']})" if p["note"] else ""
        echo(out, f"{shown(p['name'])}: {hand}; count {count}{note}", indent="    ", hang="      ")
    echo(out, f"winner: {shown(res.get('winner') or 'none')} ({res.get('rule')})", indent="    ", hang="      ")


def session_totals(rs: RuleSet, number: int, hands: int, wins, out) -> None:
    """A session's totals under its history: the games that count and each player's game wins."""
    most = session_winners(wins)
    text = ", ".join(f"{shown(n)} {v}" for n, v in wins)
    echo(out, f"{rs.session_title} {number}: {rs.hands(hands)}; {rs.hand_word} wins {text}"
              + (f" (most: {and_list([shown(b) for b in most])})" if most else "") + ".", hang="  ")


def _ending_text(e: Mapping[str, Any]) -> str:
    kind = e.get("kind", "?")
    text = {"went-out": f"{shown(str(e.get('player')))} went out", "four-sevens": f"{shown(str(e.get('player')))} laid four 7s",
            "tie": "tie game", "stock-exhausted": "the stock ran out"}.get(kind, kind)
    if e.get("dropped"):
        text += f"; dropped: {', '.join(map(shown, e['dropped']))}"
    return text


def render_table(table, out) -> None:
    """A :class:`~rummyref.games.low_count.table.SimpleTable` for humans (stdout)."""
    echo(out, table.describe(), hang="  ")


def render_game(result, out) -> None:
    """A :class:`~rummyref.games.low_count.adjudicate.GameResult` for humans: one row per player, then the verdict."""
    grid = (Grid().column("player", name=True).column("count", right=True).column("arrangement", wrap=True)
            .column("note", wrap=True))
    for p in result.players:
        count = "-" if p.count is None else str(p.count)
        grid.row(p.name, count, p.arrangement_text() if p.hand is not None else "(not shown)", p.note)
    grid.print(out)
    for p in result.players:
        went = p.going_out_text()
        if went:
            echo(out, f"{shown(p.name)} went out as {went}; the count above is of the best melding (S13).",
                 hang="  ")
    echo(out, f"Winner: {shown(result.winner or 'none')}. {result.reason}")


def render_match(state, out, word: str = "game") -> None:
    """A :class:`~rummyref.games.low_count.match.MatchState` for humans; ``word``: the rule
    set's word for a game."""
    text = state.summary(word)
    echo(out, text[0].upper() + text[1:])
