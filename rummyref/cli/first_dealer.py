"""``ref first-dealer``: who deals first from the cards turned up (S3); needs no database."""

from __future__ import annotations

from typing import Annotated

import typer

from rummyref.cards import Card, format_cards
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

    result = first_dealer(checked_names(turned_up), load_ruleset(ruleset or "simple-rummy"))
    if json:
        print_json(result.to_dict())
        return
    from rich.cells import cell_len

    from rummyref.names import shown

    width = max(cell_len(shown(t.name)) for t in result.turned_up)
    for t in result.turned_up:
        cards = format_cards(t.cards, pretty=True)
        mark = "  <- deals first" if t.name == result.dealer else ""
        name = shown(t.name)
        echo(out, f"{name}{' ' * (width - cell_len(name))}  {cards}{mark}", hang=" " * (width + 2))
    echo(out, f"{shown(result.dealer)} deals first. {result.reason_shown(shown)}.")
    echo(out, f"{shown(result.first_player)} plays first (the dealer's left); turn order: "
              f"{', '.join(map(shown, result.turn_order))}.")


def checked_names(turned_up: list[str]) -> dict[str, list[Card]]:
    """``NAME=CARDS`` arguments read, each name passing the checks every new roster's names
    pass (exit 3): no control, invisible or unassigned character and none of ref's separators
    (:func:`rummyref.names.check_name`), at most :data:`rummyref.names.NAME_MAX` characters,
    nothing ``>NAME`` would read as a card or a kind (:func:`rummyref.names.check_newcomers`),
    no two names that look the same (:func:`rummyref.names.check_roster`). The names are
    checked before the cards, so no error repeats a name that could break its line."""
    from rummyref.names import check_name, check_newcomers, check_roster

    for item in turned_up:
        name, sep, _ = item.partition("=")
        if sep and name.strip():
            check_name(name)
            check_newcomers([name])
    read = parse_assignments(turned_up)
    return dict(zip(check_roster(read), read.values(), strict=True))


def register(app: typer.Typer) -> None:
    app.command("first-dealer")(first_dealer_command)
