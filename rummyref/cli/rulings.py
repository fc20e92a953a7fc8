"""``ref rulings``: the precedents, i.e. the disputes settled while a session (a Rummy Night) was open.

The store is imported inside the command, never at module level.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rummyref.bounds import NIGHT_NUMBER
from rummyref.cli.common import DbOption, GameOption, JsonOption, db_choice, out, print_json
from rummyref.cli.numbers import bounded
from rummyref.wrap import echo


def rulings(
    game: GameOption = None,
    session: Annotated[Optional[int], typer.Option("--session", "-s", metavar="N", parser=bounded(NIGHT_NUMBER, "--session"), help="Only this session (Rummy Night), by number.")] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """The rulings kept as precedents: when, which session and hand, the dispute, the verdict, the facts.

    Examples:

    \b
      ref rulings

    \b
      ref rulings --game rummy-2m --session 3 --json
    """
    from rummyref.store import precedents
    from rummyref.store.record import reading

    with reading(db_choice(db)) as rec:
        game_, rules, found = precedents.rulings(rec, game, session)
    if json_:
        print_json({"game": game_.name, "session": session, "rulings": [p.to_dict() for p in found]})
        return
    _show(game_.name, rules.session_word, session, found)


def _show(game: str, session_word: str, session: int | None, found) -> None:
    from rummyref.rulebook.precedents import local_time

    where = f"{game}" + (f", {session_word} {session}" if session is not None else "")
    if not found:
        out.print(f"No ruling has been recorded in {where}.", markup=False)
        return
    out.print(f"Rulings of {where} ({len(found)}):", markup=False)
    for p in found:
        echo(out, f"entry {p.entry}, {local_time(p.when)}, {p.where()}: {p.kind}", hang="    ")
        echo(out, p.cited(), indent="    ")
        echo(out, f"facts: {p.summary}", indent="    ", hang="      ")


def register(app: typer.Typer) -> None:
    app.command("rulings")(rulings)
