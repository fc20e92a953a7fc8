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

A rule stated under a rule set that sets no such number (a house file dealing no two-player
game has no ``deal.2``) never borrows the rulebook's figure: each sentence naming a number the
rule set leaves unset is left out. A field in :data:`OPTIONAL` may be unset in the rulebook's
own rule set too (500 Rum's melded joker counts as the card it stands for: no
``wildcards.melded``); the form ``unset`` (``{wildcards.melded:unset}``) writes nothing and
keeps its sentence only while the number is unset, so a rulebook can say what holds without
it ("A melded joker counts as the card it stands for{wildcards.melded:unset}.") beside the
sentence stating it ("A melded joker counts {wildcards.melded}.").
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


#: fields a rule set may leave unset, with what that means in the file's own words
OPTIONAL = {"wildcards.melded": "represented"}
UNSET = "unset"  #: the form that writes nothing, in a sentence stated only while its number is unset
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def shown_value(field: str, value: int | None) -> str:
    """A number as the Numbers line names it: digits, or what an unset field means."""
    return OPTIONAL.get(field, "none") if value is None else f"{value:,}"


class PlaceholderError(ValueError):
    """A placeholder names no number of the rule set, or a form ref does not know."""


def fields(text: str) -> list[str]:
    """The rule set fields ``text`` names, in order, each once."""
    out: list[str] = []
    for m in PLACEHOLDER.finditer(text):
        if m.group("field") not in out:
            out.append(m.group("field"))
    return out


def fill(text: str, numbers: Mapping[str, int | None], lenient: bool = False) -> str:
    """``text`` with each placeholder replaced by its number from ``numbers``. A field absent
    from ``numbers`` (or None) is refused, unless it is :data:`OPTIONAL` or ``lenient`` (a rule
    stated under a house's rule set): then each sentence naming it is left out, and a sentence
    with an ``unset`` form is kept only while its number is unset."""

    def value(m: re.Match[str]) -> int | None:
        field, form = m.group("field"), m.group("form") or ""
        if form not in FORMS and form != UNSET:
            raise PlaceholderError(f"{m.group(0)}: unknown form {form!r}; forms are "
                                   + ", ".join([*(f for f in FORMS if f), UNSET]))
        if numbers.get(field) is None and not lenient and field not in OPTIONAL:
            raise PlaceholderError(f"{{{field}}} names no number of the rule set")
        return numbers.get(field)

    def kept(sentence: str) -> bool:
        for m in PLACEHOLDER.finditer(sentence):
            unset = value(m) is None
            if unset != (m.group("form") == UNSET):
                return False
        return True

    def one(m: re.Match[str]) -> str:
        v = value(m)
        return "" if v is None else FORMS[m.group("form") or ""](v + int(m.group("offset") or 0))

    for m in PLACEHOLDER.finditer(text):
        value(m)  # an unknown form or field is refused even in a sentence left out
    if all(kept(s) for s in _SENTENCE.split(text)):
        return PLACEHOLDER.sub(one, text)
    parts = re.split(r"(?<=[.!?])(\s+)", text)
    out = ""
    for i in range(0, len(parts), 2):
        if kept(parts[i]):
            out += (parts[i - 1] if out and i else "") + PLACEHOLDER.sub(one, parts[i])
    return out
