"""``ref standings`` and ``ref history``. Kept lean: standings reads only the cached aggregates."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Optional

import typer

from rummyref.bounds import NIGHT_NUMBER
from rummyref.cli.common import DbOption, GameOption, JsonOption, db_choice, out, print_json
from rummyref.cli.numbers import bounded

def standings(game: GameOption = None, db: DbOption = None, json_: JsonOption = False) -> None:
    """Standings: a long game's totals, pace and dibs; Simple Rummy's game wins and match state (S17)."""
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
    session: Annotated[Optional[int], typer.Option("--session", "-s", parser=bounded(NIGHT_NUMBER, "--session"), help="Only this Rummy Night (by number).")] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Every recorded hand with its cards and scores; corrections appear beside the original (B7)."""
    from rummyref.store import views
    from rummyref.store.record import reading

    with reading(db_choice(db)) as rec:
        h = views.history(rec, game, session)
    if json_:
        print_json(
            {
                "game": h.game.name,
                "players": [asdict(p) for p in h.game.players],
                "entries": [{**asdict(line.entry), "results": dict(line.entry.results), "current": line.current}
                            for line in h.lines],
            }
        )
        return
    _show_history(h)


def _show_history(h) -> None:
    from rummyref.games.registry import kind_for

    g, rs = h.game, h.ruleset
    kind = kind_for(rs)
    unit, night = rs.hand_word, rs.session_short
    order = "players" if not g.closed_roster else "players in deal order"
    out.print(f"History of {g.name} ({g.ruleset}); {order}: {', '.join(g.roster)}", markup=False)
    for p in g.players:
        if p.opening:
            out.print(f"  opening balance (carried from paper): {p.name} {p.opening:,}", markup=False)
    voided = {line.entry.target_seq for line in h.lines if line.entry.kind == "void"}
    for line in h.lines:
        e = line.entry
        if e.kind == "ruling":  # a precedent (rummyref.rulebook.precedents): no hand, no scores
            _show_ruling(e)
            continue
        tag = {"hand": "", "amend": f" AMENDS entry {e.target_seq}", "void": f" VOIDS entry {e.target_seq}"}.get(e.kind, f" {e.kind}")
        state = "" if line.current or e.kind == "void" else (" (voided)" if e.seq in voided else " (superseded)")
        dealt = f", {e.dealer} dealt" if e.dealer else ""
        out.print(f"entry {e.seq}: {unit} {e.hand}, {night} {e.night} {unit} {e.hand_in_night}{dealt}{tag}{state}",
                  markup=False)
        if e.reason:
            out.print(f"    reason: {e.reason}", markup=False)
        kind.show_history_entry(e.facts, e.results, g.roster, out)


def _show_ruling(e) -> None:
    from rummyref.rulebook.precedents import precedent_from

    p = precedent_from("", e.seq, e.created_at, e.night, e.facts)
    out.print(f"entry {e.seq}: ruling during {p.where()}: {p.kind}", markup=False)
    rules = f" ({', '.join(p.rules)})" if p.rules else ""
    out.print(f"    {p.verdict.rstrip('.')}{rules}", markup=False)
    out.print(f"    facts: {p.summary}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("standings")(standings)
    app.command("history")(history)
