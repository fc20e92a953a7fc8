"""Keeping the record for years: ``ref export``, ``ref import``, ``ref backup``.

The store is imported inside each command, never at module level.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from rummyref.cli.common import DbOption, JsonOption, db_choice, print_json, say, write_whole
from rummyref.cli.completion import complete_game
from rummyref.errors import plural

#: export's --game narrows the record to one game; without it, every game is written
ExportGameOption = Annotated[
    Optional[str],
    typer.Option("--game", "-g", metavar="NAME", help="Only this game (default: every game).",
                 autocompletion=complete_game),
]


def export(
    game: ExportGameOption = None,
    format_: Annotated[str, typer.Option("--format", "-f", metavar="json|csv", help="json: the whole record, to import again; csv: per-hand scores for a spreadsheet.")] = "json",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE", help="Write to FILE instead of stdout (never the record itself).", readable=False)] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", "--force", help="With -o: replace FILE if it exists.")] = False,
    db: DbOption = None,
) -> None:
    """Write the record (every game, or --game G) as versioned JSON, or per-hand scores as CSV."""
    import json

    from rummyref.errors import UnreadableInput
    from rummyref.store.location import destination_check

    if format_ not in ("json", "csv"):
        raise UnreadableInput(f"--format {format_!r} is not json or csv")
    if game is not None and not game.strip():
        raise UnreadableInput("--game needs a name", hint="or leave it out to export every game")
    if overwrite and output is None:
        raise UnreadableInput("--overwrite (--force) is for -o FILE: without -o the export goes to stdout "
                              "and no file is written", hint="give -o FILE with it, or leave --overwrite out")
    if output is not None:
        if not output.name:
            raise UnreadableInput(f"-o {str(output)!r} is not a file name", hint="e.g. -o rummyref-export.json")
        output = destination_check(db_choice(db), output, overwrite, "ref export -o", f"rummyref-export.{format_}")

    from rummyref.store import transfer
    from rummyref.store.record import reading

    with reading(db_choice(db)) as rec:
        conn = rec.s.connection()
        if format_ == "json":
            text = json.dumps(transfer.export_record(conn, game), ensure_ascii=False, indent=1) + "\n"
        else:
            text = transfer.export_csv(conn, game)
    if output is None:  # a file's bytes, UTF-8 whatever the terminal's encoding (LC_ALL=C)
        binary = getattr(sys.stdout, "buffer", None)
        if binary is None:
            sys.stdout.write(text)
        else:
            sys.stdout.flush()
            binary.write(text.encode("utf-8"))
        sys.stdout.flush()
    else:
        write_whole(output, text.encode("utf-8"), overwrite)
        say(f"wrote {output} ({len(text.encode('utf-8')):,} bytes)")


def import_(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A JSON file written by ref export.", readable=False)],
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Load a JSON export into this record (checked first; all or nothing; never the same games twice)."""
    from rummyref.store.transfer import import_record

    result = import_record(db_choice(db), file)
    if json_:
        print_json({"games": list(result.games), "rows": result.rows, "entries": result.entries})
    else:
        say(f"imported {', '.join(result.games) or 'no game'}: {plural(result.entries, 'log entry', 'log entries')}, {plural(result.rows, 'row')}; the record verifies")


def backup(
    path: Annotated[Path, typer.Argument(metavar="PATH", help="The file to write the copy to.", readable=False)],
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace PATH if it exists.")] = False,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """A consistent, verified copy of the record (safe while another terminal is writing)."""
    from dataclasses import asdict

    from rummyref.store.backup import backup as make_backup

    made = make_backup(db_choice(db), path, overwrite)
    if json_:
        print_json(asdict(made))
    else:
        say(f"backed up {made.source} to {made.path}: {plural(made.bytes, 'byte')}, {plural(made.entries, 'entry', 'entries')} in {plural(made.games, 'game')}; the copy verifies")


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("import")(import_)
    app.command("backup")(backup)
