"""The answers around a hand in ``ref night``: "Record it?" and "Fix which answer?".

The hand's questions themselves are the kind's Form (:mod:`rummyref.games.forms`), the same
one ``ref score-hand`` and ``ref amend`` use.
"""

from __future__ import annotations

from typing import Callable

from rummyref.errors import UnreadableInput
from rummyref.games.forms import QuestionForm as Form

# -- the answers around a hand --------------------------------------------------------------

YES = ("", "y", "yes", "ok", "record", "write")
DROP = ("n", "no", "drop", "discard")


def read_confirm(answer: str, form: Form) -> tuple[str, str]:
    """The answer to "record it?": ``("yes", "")``, ``("drop", "")`` or ``("fix", WORD)``."""
    a = answer.strip()
    low = a.casefold()
    if low in YES:
        return "yes", ""
    if low in DROP:
        return "drop", ""
    word = a[4:].strip() if low.startswith("fix ") else a
    if form.keys_for(word):
        return "fix", word
    raise UnreadableInput(
        f"{answer!r}: answer yes (or Enter), fix ANSWER, or drop",
        hint=f"answers to fix: {form.choices()}",
    )


def read_fix(answer: str, form: Form) -> tuple[str, str]:
    """After a refusal: ``fix WORD`` (or just the word) or ``drop``."""
    kind, word = read_confirm(answer, form)
    if kind == "yes" and not answer.strip():
        raise UnreadableInput("say which answer to fix", hint=f"answers: {form.choices()}; or drop")
    if kind == "yes":
        raise UnreadableInput(f"{answer!r}: the hand cannot be recorded as it stands",
                              hint=f"fix one of: {form.choices()}; or drop")
    return kind, word


Reader = Callable[[str, Form], tuple[str, str]]
