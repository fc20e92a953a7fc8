"""Recording Rummy 2,000,000: ``new-session``, ``score-hand``, ``end-session``, ``amend``, ``void``.

The store (sqlmodel) is imported inside each command, never at module level.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rummyref.cli.common import DbOption, GameOption, JsonOption, RulesetOption, db_choice, print_json

PlayersOption = Annotated[
    Optional[str], typer.Option("--players", "-p", metavar="A,B,C", help="The roster in deal order (A3); fixed for ever once the game exists (A1).")
]
MeldedOption = Annotated[
    list[str], typer.Option("--melded", "-m", metavar='"NAME=CARDS"', help="Cards NAME melded or laid off this hand; '/' between melds designates them (B5). Repeat per player.")
]
HeldOption = Annotated[
    list[str], typer.Option("--held", metavar='"NAME=CARDS"', help="Cards left in NAME's hand at the end (blank after '=' for none). Repeat per player.")
]
OutOption = Annotated[Optional[str], typer.Option("--out", "-o", metavar="NAME", help="Who went out (holds nothing).")]
ClaimOption = Annotated[
    list[str], typer.Option("--claim", "-c", metavar='"NAME=CARD"', help="A Rummy! claim: the card scores for the claimer. Repeatable.")
]
PointsOption = Annotated[
    list[str], typer.Option("--points", metavar="NAME=N", help="In a hurry: NAME's points for the hand instead of cards. Repeat per player.")
]


def _given(melded, held, out, claim, points):
    from rummyref.cli.facts import Given

    return Given(list(melded or []), list(held or []), out, list(claim or []), list(points or []))


def _facts(db: Optional[str], game: Optional[str], given: Given):
    """Read the roster (short read), then build the facts, asking at a terminal if needed."""
    from rummyref.cli.facts import build_facts, interactive, prompt_ask
    from rummyref.store.guard import position
    from rummyref.store.record import reading

    with reading(db) as rec:
        g = rec.game_row(game)
        domain, seen = rec.game(g), position(rec, g)
    return seen, build_facts(domain, given, prompt_ask if interactive() else None)


def new_session(
    game: GameOption = None,
    players: PlayersOption = None,
    ruleset: RulesetOption = None,
    opening: Annotated[
        list[str], typer.Option("--opening", metavar="NAME=TOTAL", help="A game begun on paper: NAME's total so far (only when the game is created).")
    ] = [],  # noqa: B006
    wildcards: Annotated[Optional[int], typer.Option("--wildcards", "-w", help="WILDCARDs in the deck (0-2 for rummy-2m; only when the game is created).")] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Open a Rummy Night (the game is created on first use); print seating dibs (A2) and the deal order (A3)."""
    from rummyref.cli import render_record as r
    from rummyref.cli.facts import _int, split_assignment
    from rummyref.store.record import writing

    if game is not None and not game.strip():
        from rummyref.core.errors import UnreadableInput

        raise UnreadableInput("--game needs a name", hint="e.g. --game rummy-2m, or leave it out for the latest game")
    names = [n.strip() for n in players.split(",") if n.strip()] if players else None
    openings = {}
    for text in opening:
        name, value = split_assignment(text, "--opening")
        openings[name] = _int(value, name)
    with writing(db_choice(db), create=True) as rec:
        result = rec.new_session(game, ruleset, names, openings, wildcards)
    print_json(r.opened_json(result)) if json_ else r.show_opened(result)


def score_hand(
    game: GameOption = None,
    melded: MeldedOption = [],  # noqa: B006
    held: HeldOption = [],  # noqa: B006
    out: OutOption = None,
    claim: ClaimOption = [],  # noqa: B006
    points: PointsOption = [],  # noqa: B006
    dealer: Annotated[Optional[str], typer.Option("--dealer", help="Who dealt (checked against the deal order, A3).")] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Record the next hand of the open Rummy Night, from cards or points; print scores, totals, next dealer."""
    from rummyref.cli import render_record as r
    from rummyref.core.record import resolve_name
    from rummyref.store.guard import expect
    from rummyref.store.record import writing

    db = db_choice(db)
    seen, facts = _facts(db, game, _given(melded, held, out, claim, points))
    with writing(db) as rec:
        g = rec.game_row(seen.game)
        expect(rec, g, seen)  # the hand number is decided here, under the write lock
        domain = rec.game(g)
        who = resolve_name(dealer, domain.roster, g.name, domain.closed_roster) if dealer else None
        result = rec.record_hand(g, facts, who)
    print_json(r.hand_json(result)) if json_ else r.show_hand(result)


def end_session(game: GameOption = None, db: DbOption = None, json_: JsonOption = False) -> None:
    """Close the Rummy Night: only after full rounds (A4), or at once when the game is over (A7)."""
    from rummyref.cli import render_record as r
    from rummyref.store.record import writing

    with writing(db_choice(db)) as rec:
        result = rec.close_night(rec.game_row(game))
    print_json(r.closed_json(result)) if json_ else r.show_closed(result)


ReasonOption = Annotated[str, typer.Option("--reason", help="Why the record is corrected (kept in the history, B7).")]


def amend(
    hand: Annotated[int, typer.Argument(help="The hand number (as in ref history).")],
    reason: ReasonOption,
    game: GameOption = None,
    melded: MeldedOption = [],  # noqa: B006
    held: HeldOption = [],  # noqa: B006
    out: OutOption = None,
    claim: ClaimOption = [],  # noqa: B006
    points: PointsOption = [],  # noqa: B006
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Correct a recorded hand: a new entry with the right facts; the original stays in the history (B7)."""
    from rummyref.cli import render_record as r
    from rummyref.store.record import writing

    db = db_choice(db)
    seen, facts = _facts(db, game, _given(melded, held, out, claim, points))
    with writing(db) as rec:
        result = rec.amend(rec.game_row(seen.game), hand, facts, reason)
    print_json(r.hand_json(result)) if json_ else r.show_hand(result)


def void(
    hand: Annotated[int, typer.Argument(help="The hand number (as in ref history).")],
    reason: ReasonOption,
    game: GameOption = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Void a recorded hand: its scores no longer count; the hand and the void stay in the history (B7)."""
    from rummyref.cli import render_record as r
    from rummyref.store.record import writing

    with writing(db_choice(db)) as rec:
        result = rec.void(rec.game_row(game), hand, reason)
    print_json(r.hand_json(result)) if json_ else r.show_hand(result)


def register(app: typer.Typer) -> None:
    app.command("new-session")(new_session)
    app.command("score-hand")(score_hand)
    app.command("end-session")(end_session)
    app.command("amend")(amend)
    app.command("void")(void)
