"""Rendering the record's results: a human table on stdout, or one JSON document."""

from __future__ import annotations

from dataclasses import asdict

from rich.table import Table

from rummyref.cli.common import out
from rummyref.games.long.scoring import score_to_json
from rummyref.games.long.nights import seating_dibs


def n(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def _dibs_lines(totals) -> list[str]:
    return [f"  {d.pick}. {d.name} ({n(dict(totals)[d.name])}): {d.seat}" for d in seating_dibs(totals)]


# -- new-session --------------------------------------------------------------------------


def opened_json(r) -> dict:
    g = r.game
    return {
        "game": g.name,
        "ruleset": g.ruleset,
        "target": g.target,
        "wildcards": g.wildcards,
        "created": r.created,
        "night": r.number,
        "players": [{"name": p.name, "seat": p.seat, "opening": p.opening} for p in g.players],
        "totals": dict(r.totals),
        "dibs": [asdict(d) for d in seating_dibs(r.totals)],
        "deal_order": list(g.roster),
        "first_dealer": r.first_dealer,
    }


def show_opened(r) -> None:
    g = r.game
    if r.created:
        out.print(f"New game {g.name} ({g.ruleset}, target {n(g.target)}, {g.wildcards} WILDCARD{'' if g.wildcards == 1 else 's'})", markup=False)
        for p in g.players:
            if p.opening:
                out.print(f"  opening balance (carried from paper): {p.name} {n(p.opening)}", markup=False)
    out.print(f"Rummy Night {r.number} of {g.name} is open.", markup=False)
    out.print("Seating dibs (A2):", markup=False)
    for line in _dibs_lines(r.totals):
        out.print(line, markup=False)
    out.print(f"Deal order (A3): {', '.join(g.roster)}. {r.first_dealer} deals first.", markup=False)


# -- score-hand / amend / void ------------------------------------------------------------


def hand_json(r) -> dict:
    return {
        "game": r.game.name,
        "kind": r.kind,
        "entry": r.seq,
        "hand": r.hand,
        "night": r.night,
        "hand_in_night": r.hand_in_night,
        "dealer": r.dealer,
        **({"score": score_to_json(r.score)} if r.score else {"score": None}),
        "totals": dict(r.totals),
        "next_dealer": r.round.next_dealer if r.round and not r.game.over else None,
        "round": asdict(r.round) if r.round else None,
        "over": r.game.over,
        "winner": r.game.winner,
        "tied": list(r.outcome.tied),
    }


def show_hand(r) -> None:
    title = {"hand": "Hand", "amend": "Hand (amended)", "void": "Hand (voided)"}[r.kind]
    out.print(
        f"{title} {r.hand} of {r.game.name}: Rummy Night {r.night}, hand {r.hand_in_night} of the night, "
        f"{r.dealer} dealt (entry {r.seq})",
        markup=False,
    )
    show_score(r.score, r.game.roster, dict(r.totals))
    footer(r)


def show_score(score, roster, totals) -> None:
    """A hand's scores (``None``: voided) with the totals they make, and the arrangement used
    (``ref score-hand`` after writing; ``ref night`` before asking to write)."""
    table = Table(show_edge=False, pad_edge=False)
    for col in ("player", "melded", "claimed", "held", "hand", "total"):
        table.add_column(col, justify="left" if col == "player" else "right")
    scores = {s.name: s for s in score.scores} if score else {}
    for name in roster:
        s = scores.get(name)
        if s is None:
            table.add_row(name, "", "", "", "void", n(totals[name]))
        elif score.form == "points":
            table.add_row(name, "", "", "", n(s.points), n(totals[name]))
        else:
            held = n(s.held) + (f" (W {s.wild_penalty})" if s.wild_penalty else "")
            table.add_row(name, n(s.melded), n(s.claimed), held, n(s.points), n(totals[name]))
    out.print(table)
    if score and score.arrangement:
        out.print("Arrangement used:", markup=False)
        for m in score.arrangement:
            how = "designated" if m.designated else "by default (runs first, B5)"
            out.print(f"  {m.shown}  [{m.note}, {m.value}] {how}", markup=False)
    for note in (score.notes if score else ()):
        out.print(f"Note: {note}", markup=False)


def footer(r, end: str = "ref end-session") -> None:
    """What comes next: game over (A7), a tie past the target, the next dealer or the end of a round."""
    g = r.game
    if g.over:
        out.print(f"GAME OVER (A7): {g.winner} wins with {n(dict(r.totals)[g.winner])}.", markup=False)
        out.print(f"The night may end now: {end}. A new game: ref new-session --game NAME.", markup=False)
        return
    if r.outcome.tied:
        out.print(
            f"{' and '.join(r.outcome.tied)} are level past the target: play goes on hand by hand (A7).",
            markup=False,
        )
    if r.round is None:
        return
    if r.round.mid_round:
        out.print(
            f"Next: {r.round.next_dealer} deals (hand {r.round.in_round + 1} of round {r.round.rounds + 1}).",
            markup=False,
        )
    else:
        out.print(
            f"Round {r.round.rounds} complete. Next: {r.round.next_dealer} deals, or the night may end ({end}).",
            markup=False,
        )


# -- end-session --------------------------------------------------------------------------


def closed_json(r) -> dict:
    return {
        "game": r.game.name,
        "night": r.number,
        "hands": r.hands,
        "rounds": r.rounds,
        "points": dict(r.points),
        "winners": list(r.winners),
        "ended_early_game_over": r.early,
    }


def show_closed(r) -> None:
    out.print(
        f"Rummy Night {r.number} of {r.game.name} is closed: {r.hands} hand{'s' if r.hands != 1 else ''}, "
        f"{r.rounds} full round{'s' if r.rounds != 1 else ''}"
        + (" (ended mid-round: the game is over, A7)" if r.early else "")
        + ".",
        markup=False,
    )
    for name, pts in r.points:
        out.print(f"  {name}: {n(pts)}", markup=False)
    if r.winners:
        out.print(f"Night's winner: {' and '.join(r.winners)}.", markup=False)
