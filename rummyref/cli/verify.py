"""``ref verify``: the database, the hash chains, and every row recomputed from the chains;
with ``--seal``, that the record still contains the state a seal was printed for."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

import typer

from rummyref.cli.common import DbOption, JsonOption, db_choice, out, print_json
from rummyref.errors import plural
from rummyref.names import escaped
from rummyref.wrap import echo

SealOption = Annotated[
    str | None,
    typer.Option("--seal", metavar="CODE", help="A seal printed earlier (by end-session or verify): "
                 "fail (exit 8) if the record no longer contains that state (rolled back, rebuilt)."),
]


def verify(db: DbOption = None, seal: SealOption = None, json_: JsonOption = False) -> None:
    """Check the record: nothing changed or removed outside ref, every total and row as the log says (exit 8 if not); print its seal."""
    from rummyref.chain import read_seal
    from rummyref.errors import IntegrityError
    from rummyref.store import seal as seals
    from rummyref.store import views
    from rummyref.store.record import reading

    code = read_seal(seal) if seal is not None else None  # an unreadable code: exit 3 before any read
    with reading(db_choice(db), columns=False) as rec:  # a column retyped outside ref: reported below
        report = views.verify(rec)
        now = seals.current(rec) if report.readable else None
        found = seals.contains(rec, code) if code is not None and report.ok else None
    if json_:
        data: dict[str, Any] = {"ok": report.ok and found is not False, "games": report.games, "entries": report.entries,
                "seal": now, "problems": [asdict(p) for p in report.problems]}
        if code is not None:
            data["sealed"] = {"seal": code, "contained": found}
        print_json(data)
    elif report.ok and found is False:
        echo(out, f"The hash chains and every row check, but the record does not contain the state sealed {code}.")
        out.print(f"Seal now: {now}", markup=False)
    elif report.ok:
        echo(out, f"The record is intact: {plural(report.entries, 'entry', 'entries')} in "
                  f"{plural(report.games, 'game')}; the database, "
                  "the hash chains and every row and total check.")
        out.print(f"Seal: {now}", markup=False)
        if found:
            out.print(f"It contains the state sealed {code}.", markup=False)
    else:
        for p in report.problems:
            echo(out, escaped(f"{p.game}: {p.where}: {p.what}"), hang="  ")  # quotes the record's text
    if not report.ok:
        first = report.problems[0]
        raise IntegrityError(
            escaped(f"the record was changed outside ref: {first.game}, {first.where}: {first.what}")
            + (f" (and {len(report.problems) - 1} more)" if len(report.problems) > 1 else ""),
            hint="restore the database from a backup; ref never edits a recorded entry",
        )
    if found is False:
        raise IntegrityError(
            f"the record does not contain the state sealed {code}: it was rolled back (hands removed, "
            "an older copy put in its place) or its history was rebuilt",
            # a seal has no check character: a code mistyped reads as a record rolled back
            hint=f"its seal now is {now}; restore the copy that was sealed {code}, or a later one; "
                 "or check the code for a typo",
        )


def show_seal(code: str) -> None:
    """The seal after a night: to be kept off this machine (written down, photographed)."""
    out.print(f"Seal: {code} (keep it off this machine; ref verify --seal checks it)", markup=False)


def upgrade(db: DbOption = None, json_: JsonOption = False) -> None:
    """Create or upgrade the record's tables, and nothing else: on a server, the owner role runs it (docs/operations/data-promises.md)."""
    from rummyref.store.engine import (
        make_engine,
        migrate,
        must_be_ours,
        refuse_foreign,
        schema_version,
        storage_errors,
    )

    refuse_foreign(db_choice(db))  # never a schema written into another program's file
    engine = make_engine(db_choice(db), create=True)
    try:
        with storage_errors(engine):
            with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
                if conn.dialect.name == "postgresql":
                    must_be_ours(conn)  # never a schema written into another program's (exit 6)
                before = schema_version(conn)
                conn.rollback()
            after = migrate(engine)
    finally:
        engine.dispose()
    if json_:
        return print_json({"schema_version": after, "was": before})
    out.print(f"The record's schema is at version {after}" + (f" (was {before})." if before != after else "."),
              markup=False)


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
    app.command("upgrade")(upgrade)
