"""Simple Rummy's variations in play: those of the latest session's table (V1-V7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def in_play(game_options: Mapping[str, Any], session_options: Mapping[str, Any]) -> tuple[str, ...] | None:
    table = session_options.get("table")
    if not isinstance(table, Mapping):
        return None  # no session yet: no table, so nothing is in play or out of it
    names = table.get("variations", ())
    return tuple(n for n in names if isinstance(n, str)) if isinstance(names, list | tuple) else None
