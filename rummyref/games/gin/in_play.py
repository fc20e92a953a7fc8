"""Gin's variations in play: chosen once, when the game was created (G13: Oklahoma)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def in_play(game_options: Mapping[str, Any], session_options: Mapping[str, Any]) -> tuple[str, ...] | None:
    names = game_options.get("variations", ())
    return tuple(n for n in names if isinstance(n, str)) if isinstance(names, list | tuple) else None
