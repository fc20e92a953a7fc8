"""Simple Rummy on the record: the Simple-Rummy side of ``new-session``, ``score-hand``,
``end-session``, ``amend``, ``void``, ``standings`` and ``history``.

The commands themselves live in ``cli/record.py`` and ``cli/standings.py``; each one asks
:func:`simple_game` (or :func:`rummyref.store.simple.simple_target`) which rule set the game
follows and hands Simple Rummy games to this module. The store is imported inside functions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rummyref.cli.common import out, print_json
from rummyref.cli.simple import (
    parse_assignments,
    render_game,
    render_match,
    render_table,
)
from rummyref.cards import Card, check_deck, format_cards, parse_cards
from rummyref.errors import UnreadableInput

HAND_QUESTION = "{name}'s final hand (cards; or: dropped)"
DROPPED_WORDS = ("dropped", "dropped out", "drop out")
ENDING_QUESTION = "How did the game end? (out NAME / four-sevens NAME / tie; blank: the stock ran out)"


# -- which game, which options -------------------------------------------------------------


def simple_game(db: str | None, game: str | None) -> bool:
    """A short read: is the chosen game (default: the latest) a Simple Rummy game?"""
    from rummyref.store.record import reading
    from rummyref.store.simple import is_simple_row

    with reading(db) as rec:
        return is_simple_row(rec.game_row(game))


def refuse_options(game_kind: str, command: str, **given: Any) -> None:
    """Options of the other rule set are refused with a clear message (exit 3)."""
    used = [name for name, value in given.items() if value]
    if not used:
        return
    flags = ", ".join("--" + u.replace("_", "-") for u in used)
    if game_kind == "simple":
        raise UnreadableInput(
            f"{flags} {'is' if len(used) == 1 else 'are'} for Rummy 2,000,000; this game is Simple Rummy",
            hint=f'Simple Rummy: ref {command} --hand "NAME=CARDS" (each final hand) with --out NAME, '
            "--four-sevens NAME, --tie or none (the stock ran out), and --dropped NAME",
        )
    raise UnreadableInput(
        f"{flags} {'is' if len(used) == 1 else 'are'} for Simple Rummy; this game is played under rummy-2m",
        hint=f'Rummy 2,000,000: ref {command} --melded "NAME=CARDS" --held "NAME=CARDS" [--out NAME] '
        "(or --points NAME=N)",
    )


# -- new-session ---------------------------------------------------------------------------


def open_session(rec, name, ruleset, players, openings, wildcards, cards, variations, first_dealer):
    from rummyref.store.simple import SimpleRecord

    if openings:
        raise UnreadableInput("--opening is for Rummy 2,000,000 (a long game begun on paper); Simple Rummy has no running total")
    turned = parse_assignments(first_dealer) if first_dealer else None
    return SimpleRecord(rec).open_session(name, ruleset, players, cards, wildcards, variations, turned)


def show_opened(r, as_json: bool) -> None:
    if as_json:
        print_json({
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
        })
        return
    if r.created:
        out.print(f"New game {r.game} (Simple Rummy).", markup=False)
    out.print(f"Session {r.number} of {r.game} is open.", markup=False)
    render_table(r.table)
    vs = ", ".join(f"{v.title} ({v.rule})" for v in r.table.variations) or "none"
    out.print(f"Variations in force: {vs}.", markup=False)
    if r.newcomers:
        out.print(f"Welcome {', '.join(r.newcomers)}: new at this game.", markup=False)
    if r.new_match:
        out.print("The table has changed, so a new match begins (S17).", markup=False)
    out.print(f"{r.dealer} deals; {r.first_player} plays first. {r.how}.", markup=False, soft_wrap=True)
    out.print(f"Turn order (clockwise): {', '.join(r.table.turn_order(r.first_player))}.", markup=False)
    render_match(r.match)


# -- score-hand / amend / void -------------------------------------------------------------


def _ending(out_: str | None, four_sevens: str | None, tie: bool, dropped: Sequence[str]):
    from rummyref.games.low_count.adjudicate import Ending

    return Ending.from_options(out_, four_sevens, tie, dropped)


def _parse_ending(answer: str):
    words = answer.split()
    if not words:
        return ("stock", None)
    kind = words[0].lower()
    if kind == "tie" and len(words) == 1:
        return ("tie", None)
    if kind in ("out", "four-sevens") and len(words) == 2:
        return (kind, words[1])
    raise UnreadableInput(f"{answer!r}: answer out NAME, four-sevens NAME, tie, or leave it blank")


def gather(table, first: str, hand_items: Sequence[str], ending, ask, ending_given: bool):
    """Hands from ``--hand``; missing ones (and, then, the ending) asked for at a terminal."""
    from rummyref.cli.facts import _ask_until
    from rummyref.store.simple import parse_hands

    hands = {table.player(n, "hand"): cards for n, cards in parse_hands(hand_items).items()}
    dropped = {table.player(n, "dropped player") for n in ending.dropped}
    missing = [p for p in table.turn_order(first) if p not in hands and p not in dropped]
    if missing and ask is None:
        raise UnreadableInput(
            f"no hand given for {', '.join(missing)}, and there is no terminal to ask",
            hint='give --hand "NAME=CARDS" for every player still in the game (or run ref score-hand at a terminal)',
        )
    for n in missing:
        seen = [c for cs in hands.values() for c in cs]
        answer = _ask_until(ask, HAND_QUESTION.format(name=n), lambda a, seen=seen: read_hand(a, seen, table))
        if answer is None:  # S14: dropped out; the cards stay face down
            dropped.add(n)
        else:
            hands[n] = answer
    if dropped != set(ending.dropped):
        from dataclasses import replace

        ending = replace(ending, dropped=frozenset(dropped))
    if missing and not ending_given:
        ending = _ask_until(ask, ENDING_QUESTION, lambda a: read_ending(a, ending.dropped))  # type: ignore[assignment]
    return hands, ending


def read_hand(answer: str, seen: Sequence[Card], table) -> list[Card] | None:
    """A final hand typed at a prompt: at least one card, one deck with ``seen``; or
    ``dropped`` (S14: the player dropped out, cards face down): None."""
    if answer.strip().casefold() in DROPPED_WORDS:
        return None
    cards = parse_cards(answer)
    if not cards:
        raise UnreadableInput("a final hand has at least one card")
    check_deck(list(seen) + cards, table.wildcards, where="already given for this game")
    return cards


def read_ending(answer: str, dropped=frozenset()):
    """How the game ended, typed at a prompt (see :data:`ENDING_QUESTION`)."""
    from rummyref.games.low_count.adjudicate import Ending, EndingKind

    kind, who = _parse_ending(answer)
    kinds = {"stock": EndingKind.STOCK, "tie": EndingKind.TIE, "out": EndingKind.WENT_OUT,
             "four-sevens": EndingKind.FOUR_SEVENS}
    return Ending(kinds[kind], who, dropped)


def record_game(db, game, hand_items, out_, four_sevens, tie, dropped, dealer):
    """Read the table (short read), gather the facts (asking at a terminal), then write."""
    from rummyref.cli.facts import interactive, prompt_ask
    from rummyref.errors import RuleRefusal
    from rummyref.store.guard import expect, position
    from rummyref.store.record import reading, writing
    from rummyref.store.simple import SimpleRecord

    ending = _ending(out_, four_sevens, tie, dropped)
    with reading(db) as rec:
        sr = SimpleRecord(rec)
        g = sr.game_row(game)
        s = rec.open_night_row(g.id)
        if s is None:
            raise RuleRefusal(f"no session of {g.name} is open", hint="ref new-session --players ... opens one")
        table, first, name = sr.table_of(g, s), sr.fold(g).state.first_player, g.name
        seen = position(rec, g)
    hands, ending = gather(table, first, hand_items, ending, prompt_ask if interactive() else None,
                           bool(out_ or four_sevens or tie))
    with writing(db) as rec:
        sr = SimpleRecord(rec)
        g = sr.game_row(name)
        expect(rec, g, seen)  # another terminal may have recorded this game meanwhile (exit 7)
        return sr.record_game(g, hands, ending, dealer)


def amend_game(db, game, number, hand_items, out_, four_sevens, tie, dropped, reason):
    from rummyref.cli.facts import interactive, prompt_ask
    from rummyref.store.guard import expect, position
    from rummyref.store.record import reading, writing
    from rummyref.store.simple import SimpleRecord

    ending = _ending(out_, four_sevens, tie, dropped)
    with reading(db) as rec:
        sr = SimpleRecord(rec)
        g = sr.game_row(game)
        old = rec.effective(g, number)
        seen = position(rec, g, number)
        from rummyref.store.models import SessionRow

        table = sr.table_of(g, rec.s.get(SessionRow, old.session_id))
        first = json.loads(old.facts or "{}").get("first_player") or table.players[0]
        name = g.name
    hands, ending = gather(table, first, hand_items, ending, prompt_ask if interactive() else None,
                           bool(out_ or four_sevens or tie))
    with writing(db) as rec:
        sr = SimpleRecord(rec)
        g = sr.game_row(name)
        expect(rec, g, seen, number)  # two amendments of one game at once: the second is stale (exit 7)
        return sr.amend(g, number, hands, ending, reason)


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
    }


def show_game(r, as_json: bool) -> None:
    if as_json:
        print_json(game_json(r))
        return
    title = {"hand": "Game", "amend": "Game (amended)", "void": "Game (voided)"}[r.kind]
    head = f"{title} {r.number} of {r.game} (session {r.session}, game {r.game_in_session} of the session): {r.dealer} dealt"
    if r.result:
        head += f", {r.result.first_player} played first"
    out.print(head + ".", markup=False, soft_wrap=True)
    if r.result:
        render_game(r.result)
    else:
        out.print("Its result no longer counts; the game and the void stay in the history (B7).", markup=False)
    render_match(r.match)


def void_game(rec, game, number, reason):
    from rummyref.store.simple import SimpleRecord

    sr = SimpleRecord(rec)
    return sr.void(sr.game_row(game), number, reason)


# -- end-session ---------------------------------------------------------------------------


def show_closed(r, as_json: bool, seal: str | None = None) -> None:
    if as_json:
        print_json({"game": r.game, "session": r.number, "games": r.games, "game_wins": dict(r.wins),
                    "match": r.match.to_dict() if r.match else None, "seal": seal})
        return
    wins = ", ".join(f"{n} {v}" for n, v in r.wins)
    out.print(f"Session {r.number} of {r.game} is closed: {r.games} game{'s' if r.games != 1 else ''}; "
              f"game wins this session: {wins}.", markup=False, soft_wrap=True)
    if r.match:
        render_match(r.match)
    if seal is not None:
        from rummyref.cli.verify import show_seal

        show_seal(seal)


# -- standings and history -----------------------------------------------------------------


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
            {"name": n, "games": played, "game_wins": wins,
             "matches_won": dict(state.matches_won).get(n, 0) if state else 0,
             "at_table": bool(folded.table and n in folded.table.players)}
            for n, played, wins in players
        ],
        "match": None if state is None else {**state.to_dict(), "abandoned": list(folded.abandoned)},
    }


def standings(db, game, as_json: bool) -> bool:
    """Show a Simple Rummy game's standings; False (nothing shown) for any other game."""
    from rummyref.store.record import reading
    from rummyref.store.simple import SimpleRecord, is_simple_row

    with reading(db) as rec:
        sr = SimpleRecord(rec)
        g = rec.game_row(game)
        if not is_simple_row(g):
            return False
        folded = sr.fold(g)
        players = [tuple(r) for r in rec.sql(
            "SELECT p.name, t.hands, t.points FROM player p JOIN player_total t ON t.player_id = p.id "
            "WHERE p.game_id = :g ORDER BY p.seat", g=g.id)]
        sessions = sr.sessions(g)
        open_s = next((s.number for s in sessions if s.closed_at is None), None)
        data = standings_json(g.name, g.ruleset, folded, players, len(sessions), open_s)
    if as_json:
        print_json(data)
    else:
        _show_standings(data, folded)
    return True


def _show_standings(d: Mapping[str, Any], folded) -> None:
    from rich.table import Table

    out.print(f"{d['game']} ({d['ruleset']}): {d['games']} games over {d['sessions']} session"
              f"{'s' if d['sessions'] != 1 else ''}" + (f"; session {d['open_session']} is open" if d["open_session"] else ""),
              markup=False)
    if folded.table:
        out.print("Table: " + folded.table.describe(), markup=False, soft_wrap=True)
    m = d["match"]
    grid = Table(box=None, pad_edge=False, header_style="bold")
    for c in ("player", "games", "game wins", "this match", "matches won"):
        grid.add_column(c, justify="left" if c == "player" else "right")
    for p in d["players"]:
        now = str(m["game_wins"].get(p["name"], 0)) if m else "-"
        grid.add_row(p["name"] + ("" if p["at_table"] else " (not at the table)"), str(p["games"]),
                     str(p["game_wins"]), now, str(p["matches_won"]))
    out.print(grid)
    if folded.state:
        render_match(folded.state)
        for f in m["finished"]:
            out.print(f"  match {f['number']}: {f['winner']} won {f['score']} in {f['games']} games", markup=False)
        for n in m["abandoned"]:
            out.print(f"  match {n}: left unfinished when the table changed", markup=False)


def history_lines(facts: Mapping[str, Any], results) -> None:
    """One Simple Rummy game in ``ref history``: first player, hands, counts, winner."""
    res = facts.get("result", {})
    out.print(f"    {facts.get('first_player')} played first; ending: {_ending_text(facts.get('ending', {}))}", markup=False)
    for p in res.get("players", []):
        hand = "(not shown)" if p["hand"] is None else format_cards(parse_cards(" ".join(p["hand"])))
        count = "-" if p["count"] is None else p["count"]
        note = f" ({p['note']})" if p["note"] else ""
        out.print(f"    {p['name']}: {hand}; count {count}{note}", markup=False)
    out.print(f"    winner: {res.get('winner') or 'none'} ({res.get('rule')})", markup=False)


def _ending_text(e: Mapping[str, Any]) -> str:
    kind = e.get("kind", "?")
    text = {"went-out": f"{e.get('player')} went out", "four-sevens": f"{e.get('player')} laid four 7s",
            "tie": "tie game", "stock-exhausted": "the stock ran out"}.get(kind, kind)
    if e.get("dropped"):
        text += f"; dropped: {', '.join(e['dropped'])}"
    return text
