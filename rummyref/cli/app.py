"""The ``ref`` command: the root Typer app, error translation at the edge, command registry."""

from __future__ import annotations

import importlib
import sys
import traceback
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from rummyref import __version__
from rummyref.errors import ExitCode, RummyrefError


def _is_click_exception(exc: BaseException) -> bool:
    # typer bundles its own click (typer._click); match either by module name.
    return any("click" in klass.__module__ for klass in type(exc).__mro__)


class RefGroup(TyperGroup):
    """Translates the error tree into a message on stderr and a documented exit code, once."""

    def list_commands(self, ctx):  # keep the registry's order in --help
        return list(self.commands)

    def invoke(self, ctx):
        from rummyref.cli.common import debug_enabled, err, show_error

        try:
            return super().invoke(ctx)
        except RummyrefError as exc:
            show_error(exc)
            raise typer.Exit(int(exc.exit_code)) from None
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:  # noqa: BLE001 - the last line of defence: never a traceback
            if _is_click_exception(exc):  # usage errors: click prints them, exit 2
                raise
            from rummyref.store.location import redact

            err.print(f"internal error: {type(exc).__name__}: {redact(str(exc))}", markup=False, style="bold red")
            err.print("this is a bug in ref; please report it (RUMMYREF_DEBUG=1 shows the details)", markup=False)
            if debug_enabled():
                traceback.print_exc()
            raise typer.Exit(int(ExitCode.INTERNAL)) from None


app = typer.Typer(
    cls=RefGroup,
    name="ref",
    help="Scorekeeper and referee for rummy played with a real deck at a real table.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        print(f"ref (rummyref) {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        Optional[bool],
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = None,
    db: Annotated[
        Optional[str],
        typer.Option("--db", metavar="PATH|URL", help="Database for every command (default: $RUMMYREF_DB, else the user data directory)."),
    ] = None,
) -> None:
    """Scorekeeper and referee for rummy played with a real deck at a real table."""
    from rummyref.cli.common import ROOT_OPTIONS

    ROOT_OPTIONS["db"] = db


# Command modules, in --help order. Each module defines ``register(app)``.
# They import nothing heavy at module level (no sqlmodel): see tests/test_imports.py.
COMMAND_MODULES: tuple[str, ...] = (
    "rummyref.cli.count",
    "rummyref.cli.record",
    "rummyref.cli.night",
    "rummyref.cli.standings",
    "rummyref.cli.verify",
    "rummyref.cli.data",
    "rummyref.cli.simple",
    "rummyref.cli.ruling",
    "rummyref.cli.dispute",
    "rummyref.cli.rulings",
    "rummyref.cli.stats",
    "rummyref.cli.chart",
)

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    """Console-script entry point."""
    try:
        app(prog_name="ref")  # also under ``python -m rummyref``: shell completion uses $_REF_COMPLETE
    except KeyboardInterrupt:  # pragma: no cover - interactive
        print("interrupted: nothing was written", file=sys.stderr)
        sys.exit(130)
