"""``ref standings`` and ``ref history``. Kept lean: standings reads only the cached aggregates."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Optional

import typer

from rummyref.bounds import HANDS_SHOWN, NIGHT_NUMBER
from rummyref.cli.common import DbOption, GameOption, JsonOption, db_choice, out, print_json
from rummyref.cli.numbers import bounded
from rummyref.wrap import echo


def standings(game: GameOption = None, db: DbOption = None, json_: JsonOption = False) -> None:
    """Standings: a long game's totals, pace and dibs; Simple Rummy's game wins and match state (S17); Gin's score and boxes."""
    from rummyref.games.registry import kind_for
    from rummyref.store.standings import read_summary

    summary = read_summary(db_choice(db), game, lambda rs: kind_for(rs).wants_history("standings"))
    kind = kind_for(summary.ruleset)
    st = kind.standings(summary)
    if json_:
        print_json(kind.standings_json(st))
    else:
        kind.show_standings(st, out)


def history(
    game: GameOption = None,
    session: Annotated[Optional[int], typer.Option("--session", "-s", metavar="N", parser=bounded(NIGHT_NUMBER, "--session"), help="Only this session (Rummy Night) by number, with its totals.")] = None,
    last: Annotated[int | None, typer.Option("--last", "-n", metavar="N", parser=bounded(HANDS_SHOWN, "--last"), help="Only the last N hands (or games), with their corrections.")] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Every recorded hand with its cards and scores; corrections appear beside the original (B7)."""
    from rummyref.store import views
    from rummyref.store.record import reading

    with reading(db_choice(db)) as rec:
        h = views.history(rec, game, session)
    lines = last_hands(h.lines, last) if last else h.lines
    # the night's totals, from all its hands: --last shows fewer, never a night of fewer hands
    totals = session_totals(h.lines, h.seated or h.game.roster) if session is not None else None
    abandoned = session in h.abandoned  # closed with no hand in force: it does not count (SPEC §8)
    emptied = session in h.emptied  # closed with hands, all voided since: it does not count either
    if json_:
        from rummyref.games.registry import facts_json

        data: dict = {
            "game": h.game.name,
            "players": [asdict(p) for p in h.game.players],
            "entries": [{**asdict(line.entry), "facts": facts_json(h.ruleset, line.entry.facts),
                         "results": dict(line.entry.results), "current": line.current}
                        for line in lines],
        }
        if totals is not None:
            data["session_totals"] = {"session": session, "hands": totals[0], "points": dict(totals[1]),
                                      "abandoned": abandoned, "counts": not (abandoned or emptied)}
        print_json(data)
        return
    _show_history(h, lines)
    if totals is not None and session is not None:
        from rummyref.games.registry import kind_for

        kind_for(h.ruleset).show_session_totals(h.ruleset, session, totals[0], totals[1], out)
        if abandoned:
            out.print(f"Closed as abandoned (no {h.ruleset.hand_word} in force): it does not count as a "
                      f"{h.ruleset.session_word}.", markup=False)
        elif emptied:
            out.print(f"Every {h.ruleset.hand_word} voided since it closed (no {h.ruleset.hand_word} in force): it "
                      f"does not count as a {h.ruleset.session_word}.", markup=False)


def last_hands(lines, n: int):
    """The entries of the last ``n`` hands (their corrections included), and the rulings since."""
    hands = sorted({line.entry.hand for line in lines if line.entry.hand is not None})[-n:]
    kept = set(hands)
    first = min((line.entry.seq for line in lines if line.entry.hand in kept), default=None)
    return tuple(line for line in lines
                 if line.entry.hand in kept or (line.entry.hand is None and first is not None
                                                 and line.entry.seq > first))


def session_totals(lines, roster) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The hands that count among ``lines`` and each player's points from them (seat order)."""
    points = dict.fromkeys(roster, 0)
    hands = 0
    for line in lines:
        e = line.entry
        if e.hand is None or not line.current:
            continue
        hands += 1
        for name, value in e.results:
            points[name] = points.get(name, 0) + value
    return hands, tuple(points.items())


def beside(lines):
    """The entries in log order, but each correction (B7) right after the hand it corrects."""
    corrections: dict[int, list] = {}
    originals = {line.entry.hand for line in lines if line.entry.kind == "hand"}
    for line in lines:
        if line.entry.kind in ("amend", "void") and line.entry.hand in originals:
            corrections.setdefault(line.entry.hand, []).append(line)
    ordered = []
    for line in lines:
        e = line.entry
        if e.kind in ("amend", "void") and e.hand in originals:
            continue
        ordered.append(line)
        if e.kind == "hand":
            ordered += corrections.get(e.hand, [])
    return ordered


def _show_history(h, lines) -> None:
    from rummyref.games.registry import kind_for
    from rummyref.names import printable

    g, rs = h.game, h.ruleset
    kind = kind_for(rs)
    unit, night = rs.hand_word, rs.session_short
    order = "players" if not g.closed_roster else "players in deal order"
    out.print(f"History of {g.name} ({g.ruleset}); {order}: {', '.join(g.roster)}", markup=False)
    for p in g.players:
        if p.opening:
            out.print(f"  opening balance (carried from paper): {p.name} {p.opening:,}", markup=False)
    voided = {line.entry.target_seq for line in lines if line.entry.kind == "void"}
    for line in beside(lines):
        e = line.entry
        if e.kind == "ruling":  # a precedent (rummyref.rulebook.precedents): no hand, no scores
            _show_ruling(e, rs)
            continue
        tag = {"hand": "", "amend": f" AMENDS entry {e.target_seq}", "void": f" VOIDS entry {e.target_seq}"}.get(e.kind, f" {e.kind}")
        state = "" if line.current or e.kind == "void" else (" (voided)" if e.seq in voided else " (superseded)")
        dealt = f", {e.dealer} dealt" if e.dealer else ""
        out.print(f"entry {e.seq}: {unit} {e.hand}, {night} {e.night} {unit} {e.hand_in_night}{dealt}{tag}{state}",
                  markup=False)
        if e.reason:  # a reason kept by an older ref may hold a line break or an escape: shown escaped
            echo(out, f"reason: {printable(e.reason)}", indent="    ", hang="      ", split_words=True)
        kind.show_history_entry(e.facts, e.results, g.roster, out, ruleset=rs)


def _show_ruling(e, rs) -> None:
    from rummyref.rulebook.precedents import precedent_from
    from rummyref.wrap import echo

    p = precedent_from("", e.seq, e.created_at, e.night, e.facts, rs)  # told in the game's words
    echo(out, f"entry {e.seq}: ruling during {p.where()}: {p.kind}", hang="    ")  # wrapped as ref rulings wraps it
    echo(out, p.cited(), indent="    ")  # each rule cited once, as ref rulings cites it
    echo(out, f"facts: {p.summary}", indent="    ", hang="      ")


def register(app: typer.Typer) -> None:
    app.command("standings")(standings)
    app.command("history")(history)
