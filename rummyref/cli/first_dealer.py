"""``ref first-dealer``: who deals first from the cards turned up (S3); needs no database."""

from __future__ import annotations

from typing import Annotated

import typer

from rummyref.cards import format_cards
from rummyref.cli.common import JsonOption, RulesetOption, out, print_json
from rummyref.games.forms import parse_assignments
from rummyref.wrap import echo


def first_dealer_command(
    turned_up: Annotated[
        list[str],
        typer.Argument(
            metavar="NAME=CARDS...",
            help='Each player in seating order (clockwise) with the cards turned up, e.g. Ann=KS "Cy=W 2C".',
        ),
    ],
    ruleset: RulesetOption = None,
    json: JsonOption = False,
) -> None:
    """Who deals first (S3): the highest regular card turned up; and who plays first."""
    from rummyref.rules.first_dealer import first_dealer
    from rummyref.rules.ruleset import load_ruleset

    result = first_dealer(parse_assignments(turned_up), load_ruleset(ruleset or "simple-rummy"))
    if json:
        print_json(result.to_dict())
        return
    width = max(len(t.name) for t in result.turned_up)
    for t in result.turned_up:
        shown = format_cards(t.cards, pretty=True)
        mark = "  <- deals first" if t.name == result.dealer else ""
        echo(out, f"{t.name:<{width}}  {shown}{mark}", hang=" " * (width + 2))
    echo(out, f"{result.dealer} deals first. {result.reason}.")
    echo(out, f"{result.first_player} plays first (the dealer's left); turn order: {', '.join(result.turn_order)}.")


def register(app: typer.Typer) -> None:
    app.command("first-dealer")(first_dealer_command)
