"""``ref verify``: the hash chain and the cached aggregates against the log."""

from __future__ import annotations

from dataclasses import asdict

import typer

from rummyref.cli.common import DbOption, JsonOption, db_choice, out, print_json


def verify(db: DbOption = None, json_: JsonOption = False) -> None:
    """Check that no entry was changed or removed outside ref, and that the totals match the log (exit 8 if not)."""
    from rummyref.errors import IntegrityError
    from rummyref.store import views
    from rummyref.store.record import reading

    with reading(db_choice(db)) as rec:
        report = views.verify(rec)
    if json_:
        print_json({"ok": report.ok, "games": report.games, "entries": report.entries,
                    "problems": [asdict(p) for p in report.problems]})
    elif report.ok:
        out.print(f"The record is intact: {report.entries} entries in {report.games} games, hash chain and totals check.", markup=False)
    else:
        for p in report.problems:
            out.print(f"{p.game}: {p.where}: {p.what}", markup=False)
    if not report.ok:
        first = report.problems[0]
        raise IntegrityError(
            f"the record was changed outside ref: {first.game}, {first.where}: {first.what}"
            + (f" (and {len(report.problems) - 1} more)" if len(report.problems) > 1 else ""),
            hint="restore the database from a backup; ref never edits a recorded entry",
        )


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
