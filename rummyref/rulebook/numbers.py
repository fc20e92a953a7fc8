"""The numbers a rulebook's rules state, filled in from a rule set.

A rule's title, statement and verdict name each number a rule set file sets by that field's
name, in braces: ``{gin.knock_limit}``, ``{scoring.target}``, ``{cards.values.A}`` (the names
:meth:`~rummyref.rules.ruleset.RuleSet.numbers` gives). When a rulebook is loaded they are
filled from its own rule set (the built-in one of the same name), which gives the rulebook's
words exactly; ``ref ruling`` fills them again from the rule set in force, so a house file
with ``knock_limit = 5`` reads "5 or less" where Gin's rulebook reads "10 or less".

A placeholder may add or take away a number (``{deal.2+1:words}``, the eleven cards of big
gin) and name a form: ``words`` (``ten``; digits past twenty; ``Words``: ``Ten``), ``doubles`` and ``doubled``
(``triples``, ``multiplied by 5``); without one the number is written with its thousands
separated (``2,000,000``). Nothing here reads a file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

PLACEHOLDER = re.compile(r"\{(?P<field>[A-Za-z0-9_.-]+?)(?P<offset>[+-]\d+)?(?::(?P<form>[A-Za-z]+))?\}")

_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen twenty").split()
_TIMES = {2: ("doubles", "doubled"), 3: ("triples", "tripled"), 4: ("quadruples", "quadrupled")}


def _words(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else f"{n:,}"


def _doubles(n: int) -> str:
    return _TIMES[n][0] if n in _TIMES else f"multiplies by {n:,}"


def _doubled(n: int) -> str:
    return _TIMES[n][1] if n in _TIMES else f"multiplied by {n:,}"


FORMS = {"": lambda n: f"{n:,}", "words": _words, "Words": lambda n: _words(n).capitalize(), "doubles": _doubles,
         "doubled": _doubled}


class PlaceholderError(ValueError):
    """A placeholder names no number of the rule set, or a form ref does not know."""


def fields(text: str) -> list[str]:
    """The rule set fields ``text`` names, in order, each once."""
    out: list[str] = []
    for m in PLACEHOLDER.finditer(text):
        if m.group("field") not in out:
            out.append(m.group("field"))
    return out


def fill(text: str, numbers: Mapping[str, int]) -> str:
    """``text`` with each placeholder replaced by its number from ``numbers``."""

    def one(m: re.Match[str]) -> str:
        field, form = m.group("field"), m.group("form") or ""
        if field not in numbers:
            raise PlaceholderError(f"{{{field}}} names no number of the rule set")
        if form not in FORMS:
            raise PlaceholderError(f"{m.group(0)}: unknown form {form!r}; forms are "
                                   + ", ".join(f for f in FORMS if f))
        return FORMS[form](numbers[field] + int(m.group("offset") or 0))

    return PLACEHOLDER.sub(one, text)
