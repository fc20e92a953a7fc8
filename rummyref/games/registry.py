"""The one registry of game kinds, keyed by the rule set's scoring method (an enum).

python-chess finds a variant by name; here the rule set names its method, so a house file
that scores like Rummy 2,000,000 (a 500 Rum copy, say) is that kind with other numbers. The kind
modules are imported on first use only: ``ref count`` and ``ref ruling`` never load them."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import import_module
from typing import Any

from rummyref.errors import RulesetError
from rummyref.games.base import GameKind
from rummyref.melding.count import Verdict
from rummyref.rules.ruleset import Method, RuleSet

#: method -> "module:class" of its kind
KINDS: dict[Method, str] = {
    Method.MELDED_MINUS_HELD: "rummyref.games.long.kind:LongGame",
    Method.LOW_COUNT: "rummyref.games.low_count.kind:LowCountGame",
    Method.GIN: "rummyref.games.gin.kind:GinGame",
}


@cache
def kind_of(method: Method) -> GameKind:
    try:
        where = KINDS[method]
    except KeyError:
        raise RulesetError(f"no game kind scores by {method.value!r}") from None
    module, _, name = where.partition(":")
    kind: GameKind = getattr(import_module(module), name)()
    return kind


def kind_for(ruleset: RuleSet) -> GameKind:
    """The kind of game a rule set describes."""
    return kind_of(ruleset.method)


#: method -> "module:function" of the kind's own answer to ``ref count``'s "can it go out?",
#: where the rule set's going-out check is not the game's (Gin ends a hand by a knock or gin).
#: A pure function, so that ``ref count`` loads no more than the engine.
VERDICTS: dict[Method, str] = {
    Method.GIN: "rummyref.games.gin.engine:count_verdict",
}


def facts_json(ruleset: RuleSet, facts: Mapping[str, Any]) -> dict[str, Any]:
    """An entry's facts as ``ref history --json`` shows them: as the record keeps them, unless
    the kind shows some differently (a hand recorded in points: its unknown columns null)."""
    shown = getattr(kind_for(ruleset), "facts_json", None)
    return shown(facts) if shown is not None else dict(facts)


def count_verdict(ruleset: RuleSet) -> Verdict | None:
    """The game kind's own going-out verdict for ``ref count``, or None for the rule set's check."""
    where = VERDICTS.get(ruleset.method)
    if where is None:
        return None
    module, _, name = where.partition(":")
    verdict: Verdict = getattr(import_module(module), name)
    return verdict
