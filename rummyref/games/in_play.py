"""Which of a rule set's variations are in play at a game's table, for ``ref ruling``.

Each kind keeps its variations in its own data: Simple Rummy's table is chosen per session,
Gin's variations once per game. The kind's reading is a small pure function, found here by
the rule set's method and imported on first use, so that ``ref ruling`` loads no kind module
(the registry of kinds costs a tenth of a second to import)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

#: method (its value) -> "module:function(game_options, session_options) -> names in play"
READERS: dict[str, str] = {
    "low-count": "rummyref.games.low_count.in_play:in_play",
    "gin": "rummyref.games.gin.in_play:in_play",
}


def variations_in_play(ruleset: Any, game_options: Mapping[str, Any],
                       session_options: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The names of ``ruleset``'s variations in play (the game's own data about itself and
    about its latest session); ``()`` for a rule set with no variations, ``None`` when the
    kind cannot tell."""
    if not ruleset.variations:
        return ()
    where = READERS.get(str(getattr(ruleset.method, "value", ruleset.method)))
    if where is None:
        return None
    module, _, name = where.partition(":")
    names = getattr(import_module(module), name)(game_options, session_options)
    known = {v.name for v in ruleset.variations}
    return None if names is None else tuple(n for n in names if n in known)


def rules_off(ruleset: Any, in_play: tuple[str, ...] | None) -> frozenset[str]:
    """The rules (ids) of the variations not in play: none chosen under that rule (Simple
    Rummy's V1 is one rule for two variations, Major and Minor)."""
    if in_play is None:
        return frozenset()
    on = {v.rule for v in ruleset.variations if v.name in in_play}
    return frozenset(v.rule for v in ruleset.variations if v.rule not in on)
