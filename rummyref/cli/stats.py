"""``ref stats``: statistics of a game from its record in force (after amends and voids)."""

from __future__ import annotations

import typer

from rummyref.cli.common import DbOption, GameOption, JsonOption, db_choice, out, print_json
from rummyref.errors import plural
from rummyref.names import escaped, shown
from rummyref.rules.ruleset import plural_word
from rummyref.wrap import Grid

HEAD_SHOWN = 12  #: the widest name heading a head-to-head column (wider: the columns are numbered)


def _n(value) -> str:
    if value is None:
        return "-"
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def _hand(ref, word: str = "hand") -> str:
    return "-" if ref is None else f"{ref.value:,} ({word} {ref.hand:,})"


def _column(grid: Grid, head: str) -> None:
    """A column of the statistics: where 80 columns are short, a streak loses its "(now N)"
    and a best or worst hand its "(hand N)" (the worst first), rather than a cell being cut."""
    spare = 1 if head.startswith("worst") else 2 if head.startswith("best") else 3 if "streak" in head else 0
    grid.column(head, right=head != "player", name=head == "player", spare=spare,
                short=(lambda cell: cell.split(" (")[0]) if spare else None)


def _left_out(grid: Grid, head: str, order: int) -> None:
    """A column of the statistics left out, said under the table, where 80 columns are still
    short once every cell has its short form (a 30-cell name, averages of -10,000.0): the
    least needed first (``order``), as in ``ref standings``."""
    grid.column(head, right=True, spare=order)


def stats(game: GameOption = None, db: DbOption = None, json_: JsonOption = False) -> None:
    """Statistics: averages, best and worst hands, go-outs, Rummy! claims, head-to-head, streaks, milestones."""
    from rummyref.games.registry import kind_for
    from rummyref.stats.compute import compute_stats
    from rummyref.store.stats import read_stats_input

    st = compute_stats(read_stats_input(db_choice(db), game, lambda rs: kind_for(rs).stats_style(rs)))
    if json_:
        print_json(st.to_json())
        return
    show_stats(st)


def show_stats(st) -> None:
    style = st.style
    low = style.counts
    unit, session = style.unit, style.session  # the rule set's words (a house's "deal", "sitting")
    what = plural_word(unit)
    out.print(
        f"Statistics of {escaped(st.game)} ({escaped(st.ruleset)}): {plural(st.hands, style.unit)} in force, "
        f"{plural(st.nights, style.sessions_title.removesuffix('s'), style.sessions_title)} "
        f"({st.closed_nights:,} closed)",
        markup=False,
    )
    if not st.hands:  # a hand recorded and voided was recorded: it is only not in force
        out.print(f"No {what} in force ({plural(st.voided, unit)} voided)." if st.voided else
                  f"No {what} recorded yet.", markup=False)
    if style.layout == "gin":
        _show_gin(st)
        _show_milestones(st)
        return
    scoring = Grid()
    night = plural_word(session)
    heads: tuple[str, ...] = ("player", what, "dropped", night) if low else ("player", what, night)
    heads += ("avg count", "best count", "worst count") if low else (
        f"avg/{unit}", f"avg/{session}", f"best {unit}", f"worst {unit}")
    leave_out = {f"avg/{session}": 4, night: 5}  # then, those shortened: worst, best
    for c in heads:
        if c in leave_out and not low:
            _left_out(scoring, c, leave_out[c])
        else:
            _column(scoring, c)
    for p in st.players:
        row = [p.name, _n(p.hands), _n(p.games_dropped), _n(p.nights_played)] if low else [
            p.name, _n(p.hands), _n(p.nights_played)]
        row += [_n(p.average_count)] if low else [_n(p.average_per_hand), _n(p.average_per_night)]
        row += [_hand(p.best_hand, unit), _hand(p.worst_hand, unit)]
        scoring.row(*row)
    scoring.print(out)
    winning = Grid()
    heads = ("player", f"{what} won", "matches won", "went out") if low else (
        "player", f"{what} won", "went out", "Rummy! won")
    heads += (f"{night} won", f"{session} streak", f"{unit} streak")
    for c in heads:
        _column(winning, c)
    for p in st.players:
        row = [p.name, _n(p.games_won), _n(p.matches_won), _n(p.go_outs)] if low else [
            p.name, _n(p.hands_won), _n(p.go_outs), _n(p.claims_won)]
        row += [_n(p.nights_won), f"{p.longest_night_streak} (now {p.current_night_streak})",
                f"{p.longest_hand_streak} (now {p.current_hand_streak})"]
        winning.row(*row)
    winning.print(out)
    if low:
        out.print(f"{what.capitalize()}: played to the end; dropped: dropped out (S14), not counted as played.",
                  markup=False)
        out.print(f"A {unit} goes to its recorded winner, a {session} to the most {what} won (ties: all of them);",
                  markup=False)
    else:
        out.print(f"A {unit} goes to its best score, a {session} to the most points (ties: all of them);",
                  markup=False)
    out.print(f"streaks: the most {night} ({what}) won in a row, and the run going on now.", markup=False)
    _show_head_to_head(st)
    _show_milestones(st)


def _show_gin(st) -> None:
    """Gin's tables: one game to the target, hand by hand. A hand goes to the player who scored
    it; no session is won and nothing is claimed, so neither is shown (nor a worst hand: a hand
    lost scores 0)."""
    style = st.style
    unit = style.unit
    what, night = plural_word(unit), plural_word(style.session)
    scoring = Grid()
    for c in ("player", what, night, "points", f"avg/{unit}", f"best {unit}"):
        if c in (night, f"avg/{unit}"):  # a narrow terminal: the best hand shortened, then these left out
            _left_out(scoring, c, 4 if c == night else 5)
        else:
            _column(scoring, c)
    for p in st.players:
        best = _hand(p.best_hand, unit) if p.hands_won else "-"
        scoring.row(p.name, _n(p.hands), _n(p.nights_played), _n(p.points), _n(p.average_per_hand), best)
    scoring.print(out)
    winning = Grid()
    for c in ("player", f"{what} won", "went out", f"{unit} streak"):
        _column(winning, c)
    for p in st.players:
        winning.row(p.name, _n(p.hands_won), _n(p.go_outs), f"{p.longest_hand_streak} (now {p.current_hand_streak})")
    winning.print(out)
    for line in (f"Points: won in the {what}, before the boxes and the game bonus (G10, G11).",
                 f"A {unit} goes to the player who scored it (a dead {unit} to nobody); went out:",
                 f"ended the {unit} by a knock (undercut or not), gin or big gin;",
                 f"streak: the most {what} won in a row, and the run going on now."):
        out.print(line, markup=False)


def _show_head_to_head(st) -> None:
    from rich.cells import cell_len

    names = [p.name for p in st.players]
    if len(names) < 2 or not st.closed_nights or st.head_to_head is None:
        return
    night = plural_word(st.style.session)
    # what decides a night: points, or games won (in the rule set's word for a game)
    score = f"{plural_word(st.style.unit)} won" if st.night_score == "games won" else st.night_score
    # a column a player, headed by the name where every name is short and the table fits the
    # terminal; else by the player's number, the players numbered down the side (a name is never
    # cut below the form that can be typed back), and where even that is too wide, the columns in
    # blocks, each as many as fit, the players down the side of each
    pairs = {(h.player, h.opponent): h for h in st.head_to_head}
    rows = [["-" if a == b else f"{pairs[a, b].won}-{pairs[a, b].lost}-{pairs[a, b].level}" for b in names]
            for a in names]
    side = max(cell_len(shown(n, among=names)) for n in names)

    def wide(heads: list[str]) -> list[int]:
        return [max(cell_len(h), *(cell_len(r[j]) for r in rows)) for j, h in enumerate(heads)]

    named = [f"vs {shown(n, among=names)}" for n in names]
    numbered = (any(cell_len(shown(n, among=names)) > HEAD_SHOWN for n in names)
                or side + sum(w + 2 for w in wide(named)) > out.width)
    heads = [f"vs {i}" for i in range(1, len(names) + 1)] if numbered else named
    widths = wide(heads)
    fixed = side + (len(str(len(names))) + 2 if numbered else 0)
    blocks: list[list[int]] = [[]]
    for j, w in enumerate(widths):
        if blocks[-1] and fixed + sum(widths[k] + 2 for k in blocks[-1]) + w + 2 > out.width:
            blocks.append([])
        blocks[-1].append(j)
    out.print(f"Head to head (closed {night} won-lost-level, on {score}"
              f"{'; the columns by number' if numbered else ''}):", markup=False)
    for b, block in enumerate(blocks):
        if b:
            out.print("", markup=False)
        grid = Grid()
        if numbered:
            grid.column("#", right=True)
        grid.column("", name=True)
        for j in block:
            grid.column(heads[j], right=True)
        for i, a in enumerate(names, 1):
            grid.row(*([str(i)] if numbered else []), a, *(rows[i - 1][j] for j in block))
        grid.print(out)


def _show_milestones(st) -> None:
    if not st.milestones:
        return
    out.print("Milestones (who got there, in order):", markup=False)
    grid = Grid()
    # where the width is short, the hand, then the night column is left out (said under the table)
    # and "2,000,000 (target)" takes two lines; "opening balance" stands in the date column, which
    # always stays: a row passed by its opening balance never reads as an unknown hand
    grid.column("milestone", right=True, wrap=True)
    grid.column("player", name=True)
    grid.column(st.style.unit, right=True, spare=1)
    grid.column(st.style.session, right=True, spare=2)
    grid.column("date")
    for m in st.milestones:
        label = f"{m.threshold:,}" + (" (target)" if m.is_target else "")
        if not m.hits:
            grid.row(label, "not reached yet", "", "", "")
        for i, h in enumerate(m.hits):
            when = ("", "", "opening balance") if h.hand is None else (f"{h.hand:,}", f"{h.night:,}", h.date or "")
            grid.row(label if i == 0 else "", h.name, *when)
    grid.print(out)


def register(app: typer.Typer) -> None:
    app.command("stats")(stats)
