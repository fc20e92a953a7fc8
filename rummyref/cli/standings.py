"""``ref standings`` and ``ref history``. Kept lean: standings reads only the cached aggregates."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Optional

import typer

from rummyref.bounds import NIGHT_NUMBER
from rummyref.cli.common import DbOption, GameOption, JsonOption, db_choice, out, print_json
from rummyref.cli.numbers import bounded

BAR = 20


def _n(value) -> str:
    if value is None:
        return "-"
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def _bar(progress: float | None) -> str:
    if progress is None:
        return ""
    full = int(round(progress * BAR))
    return "█" * full + "░" * (BAR - full) + f" {progress * 100:5.1f}%"


def standings(game: GameOption = None, db: DbOption = None, json_: JsonOption = False) -> None:
    """Standings: rummy-2m's totals, pace and dibs; Simple Rummy's game wins and match state (S17)."""
    from rummyref.store.standings import read_standings

    st = read_standings(db_choice(db), game)
    if st.target is None:  # no target to race to: a Simple Rummy game (matches, S17)
        from rummyref.cli import simple_record

        if simple_record.standings(db_choice(db), st.game, json_):
            return
    if json_:
        print_json(st.to_json())
        return
    _show_standings(st)


def _show_standings(st) -> None:
    from rich.table import Table

    head = f"{st.game} ({st.ruleset}), target {_n(st.target)}: {st.hands:,} hands over {st.nights} Rummy Nights"
    out.print(head, markup=False)
    if st.over:
        out.print(f"GAME OVER (A7): {st.winner} wins.", markup=False)
    elif st.tied_leaders:
        out.print(f"{' and '.join(st.tied_leaders)} are level past the target: play goes on (A7).", markup=False)
    race = Table(box=None, pad_edge=False, header_style="bold")
    for c in ("#", "player", "total", "to go", "progress", "hands", "avg/hand"):
        race.add_column(c, justify="left" if c in ("player", "progress") else "right")
    for p in st.players:
        race.add_row(str(p.rank), p.name, _n(p.total), _n(p.to_go), _bar(p.progress), _n(p.hands), _n(p.average))
    out.print(race)
    for p in st.players:
        if p.opening:
            out.print(f"  {p.name}'s total includes an opening balance of {_n(p.opening)} (carried from paper)", markup=False)
    pace = Table(box=None, pad_edge=False, header_style="bold")
    for c in ("player", "pace/night", "nights to go", "target date", "best", "worst", "nights won"):
        pace.add_column(c, justify="left" if c in ("player", "target date") else "right")
    for p in st.players:
        pace.add_row(p.name, _n(p.pace_per_night), _n(p.nights_to_go), p.projected_date or "-",
                     _n(p.best), _n(p.worst), _n(p.nights_won))
    out.print(pace)
    out.print("Seating dibs (A2): " + "; ".join(f"{d.name} {d.seat}" for d in st.dibs), markup=False)
    if st.days_since_last_night is not None:
        flag = "  ** over a week: Rummy Night is overdue (A5) **" if st.overdue else ""
        out.print(f"Last Rummy Night: {st.last_night} ({st.days_since_last_night} days ago){flag}", markup=False)
    if st.open_night:
        out.print(f"Rummy Night {st.open_night} is open.", markup=False)
    if st.recent_nights:
        out.print("Recent nights:", markup=False)
        for night in st.recent_nights:
            who = " and ".join(night.winners) if night.winners else ("(night in progress)" if not night.closed else "-")
            pts = ", ".join(f"{n} {_n(v)}" for n, v in night.points)
            out.print(f"  night {night.number} ({night.date}, {night.hands} hands): winner {who}; {pts}", markup=False)


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
    g = h.game
    order = "players" if not g.closed_roster else "players in deal order"
    out.print(f"History of {g.name} ({g.ruleset}); {order}: {', '.join(g.roster)}", markup=False)
    for p in g.players:
        if p.opening:
            out.print(f"  opening balance (carried from paper): {p.name} {_n(p.opening)}", markup=False)
    voided = {line.entry.target_seq for line in h.lines if line.entry.kind == "void"}
    simple = any(line.entry.facts.get("form") == "simple" for line in h.lines)
    for line in h.lines:
        e = line.entry
        if e.kind == "ruling":  # a precedent (rummyref.rulebook.precedents): no hand, no scores
            _show_ruling(e)
            continue
        tag = {"hand": "", "amend": f" AMENDS entry {e.target_seq}", "void": f" VOIDS entry {e.target_seq}"}.get(e.kind, f" {e.kind}")
        state = "" if line.current or e.kind == "void" else (" (voided)" if e.seq in voided else " (superseded)")
        where = f"game {e.hand}, session {e.night} game" if simple else f"hand {e.hand}, night {e.night} hand"
        out.print(f"entry {e.seq}: {where} {e.hand_in_night}, {e.dealer} dealt{tag}{state}", markup=False)
        if e.reason:
            out.print(f"    reason: {e.reason}", markup=False)
        facts = e.facts
        if facts.get("form") == "simple":
            from rummyref.cli.simple_record import history_lines

            history_lines(facts, e.results)
            continue
        if facts.get("form") == "cards":
            for name in g.roster:
                p = facts["players"].get(name)
                if p is None:
                    continue
                melded = " / ".join(" ".join(m) for m in p["melded"]) or "-"
                held = " ".join(p["held"]) or "-"
                out.print(f"    {name}: melded {melded}; held {held}", markup=False)
            extra = []
            if facts.get("out"):
                extra.append(f"{facts['out']} went out")
            extra += [f"{n} claimed {c} (Rummy!)" for n, c in facts.get("claims", [])]
            if extra:
                out.print("    " + "; ".join(extra), markup=False)
        if e.results:
            out.print("    scores: " + ", ".join(f"{n} {_n(v)}" for n, v in e.results), markup=False)


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
