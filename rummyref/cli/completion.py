"""Shell completion callbacks (typer's ``autocompletion=``) for names the table types often:
players (``--points Bill=``, ``--out``, ``--players A,B``), games (``--game``), rule sets
(``--ruleset``) and variations (``--variation``).

Each callback is fast (plain ``sqlite3``, no SQLAlchemy) and never raises: with no database
or a broken one it offers nothing. Imported by CLI modules at load time, so it imports
nothing heavy at module level.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def _matching(candidates: Iterable[str], incomplete: str) -> list[str]:
    low = (incomplete or "").casefold()
    seen: dict[str, None] = {}
    for c in candidates:
        if c.casefold().startswith(low):
            seen.setdefault(c)
    return list(seen)


def _safe(fn):
    """A completion callback that returns [] instead of raising, whatever happens."""

    def wrapper(ctx: Any = None, incomplete: str = "") -> list[str]:
        try:
            return fn(ctx, incomplete or "")
        except Exception:  # noqa: BLE001 - completion must never break the shell
            return []

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _param(ctx: Any, name: str) -> Any:
    """A value already typed on the command line (this command's, else the root's: --db)."""
    while ctx is not None:
        value = (getattr(ctx, "params", None) or {}).get(name)
        if value:
            return value
        ctx = getattr(ctx, "parent", None)
    return None


def _players(ctx: Any) -> list[str]:
    """The players of the game named by --game (default: the latest) in the record."""
    from rummyref.store.names import player_names

    return player_names(_param(ctx, "db"), _param(ctx, "game"))


def _table_players(ctx: Any) -> list[str]:
    """Commands that need no record (disputes): the latest game's players, else the rule set's."""
    names = _players(ctx)
    if not names:
        from rummyref.rules.ruleset import load_ruleset

        names = list(load_ruleset(_param(ctx, "ruleset") or "rummy-2m").default_players)
    return names


def _complete_table_player(ctx: Any, incomplete: str) -> list[str]:
    return _matching(_table_players(ctx), incomplete)


def _complete_table_player_list(ctx: Any, incomplete: str) -> list[str]:
    return _last_of_list(_table_players(ctx), incomplete)


def _complete_player(ctx: Any, incomplete: str) -> list[str]:
    return _matching(_players(ctx), incomplete)


def _complete_assignment(ctx: Any, incomplete: str) -> list[str]:
    """``NAME=...`` values: offer ``Bill=`` (the rest is cards or points, typed by hand)."""
    if "=" in incomplete:
        return []
    return [f"{n}=" for n in _matching(_players(ctx), incomplete)]


def _last_of_list(names: Iterable[str], incomplete: str) -> list[str]:
    """``A,B,C`` lists: complete the last item, leaving out the ones already given."""
    head, _, last = incomplete.rpartition(",")
    given = {n.strip().casefold() for n in head.split(",") if n.strip()}
    prefix = f"{head}," if head else ""
    return [prefix + n for n in _matching(names, last.strip()) if n.casefold() not in given]


def _complete_player_list(ctx: Any, incomplete: str) -> list[str]:
    return _last_of_list(_players(ctx), incomplete)


def _complete_game(ctx: Any, incomplete: str) -> list[str]:
    from rummyref.store.names import game_names

    return _matching(game_names(_param(ctx, "db")), incomplete)


def _complete_ruleset(ctx: Any, incomplete: str) -> list[str]:
    from rummyref.rules.resources import data_dir

    names = sorted(p.stem for p in (data_dir() / "rulesets").glob("*.toml"))
    return _matching(names, incomplete)


def _complete_variation(ctx: Any, incomplete: str) -> list[str]:
    """Variation names of the rule set given (default simple-rummy); a comma list completes its last item."""
    from rummyref.rules.ruleset import load_ruleset

    names = [v.name for v in load_ruleset(_param(ctx, "ruleset") or "simple-rummy").variations]
    return _last_of_list(names, incomplete)


complete_player = _safe(_complete_player)
complete_table_player = _safe(_complete_table_player)
complete_table_player_list = _safe(_complete_table_player_list)
complete_assignment = _safe(_complete_assignment)
complete_player_list = _safe(_complete_player_list)
complete_game = _safe(_complete_game)
complete_ruleset = _safe(_complete_ruleset)
complete_variation = _safe(_complete_variation)
