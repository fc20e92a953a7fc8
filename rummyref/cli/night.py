"""``ref night``: the whole evening in one process (the database layer is loaded once).

It opens the session (or resumes the open one), shows the seating dibs, then loops between
hands: each hand's facts are asked for player by player (:mod:`rummyref.cli.night_forms`),
the scores are shown, and the hand is written in one transaction once confirmed. At any
prompt ``? TEXT`` asks for a ruling and ``! DISPUTE ...`` settles a dispute (kept as a
precedent when it settled something, as ``ref dispute`` keeps it); neither loses the hand's
answers. The loop itself is in :mod:`rummyref.cli.night_shell`; this module stays light (no
store import at module level).
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rummyref.bounds import CARDS_DEALT, WILDCARDS
from rummyref.cli.common import DbOption, GameOption, RulesetOption, db_choice
from rummyref.cli.numbers import bounded
from rummyref.cli.record import PlayersOption


def night(
    game: GameOption = None,
    players: PlayersOption = None,
    ruleset: RulesetOption = None,
    opening: Annotated[list[str], typer.Option("--opening", metavar="NAME=TOTAL", help="A game begun on paper: NAME's total so far (only when the game is created).")] = [],  # noqa: B006
    wildcards: Annotated[Optional[int], typer.Option("--wildcards", "-w", metavar="N", parser=bounded(WILDCARDS, "--wildcards"), help="WILDCARDs in the deck (as for new-session).")] = None,
    cards: Annotated[Optional[int], typer.Option("--cards", metavar="N", parser=bounded(CARDS_DEALT, "--cards"), help="Simple Rummy: cards dealt to each player (S1).")] = None,
    variation: Annotated[list[str], typer.Option("--variation", "-V", metavar="NAME", help="A variation in force: Simple Rummy's (major, minor, ...) or Gin's oklahoma. Repeatable.")] = [],  # noqa: B006
    first_dealer: Annotated[list[str], typer.Option("--first-dealer", metavar='"NAME=CARDS"', help="Simple Rummy: the cards NAME turned up to choose the first dealer (S3).")] = [],  # noqa: B006
    db: DbOption = None,
) -> None:
    """Play a whole night in one process: open (or resume) the session, then each hand's facts, scores and standings; '? TEXT' for a ruling and '! claim ...' for a dispute at any prompt."""
    from rummyref.cli.night_shell import run
    from rummyref.cli.record import session_request

    request = session_request(game, players, ruleset, opening, wildcards, cards, variation, first_dealer)
    raise typer.Exit(run(request, db_choice(db)))


def register(app: typer.Typer) -> None:
    app.command("night")(night)
