"""The answers around a hand, at any terminal: "Record it?", "Fix which answer?", and the
loop between them (:func:`settle`), shared by ``ref night`` and by ``score-hand``, ``amend``
and ``void`` run at a terminal.

The hand's questions themselves are the kind's Form (:mod:`rummyref.games.forms`), the same
one off a terminal; the kind judges and shows. Nothing is written here: the loop returns the
verdict the table accepted, or None when it dropped the hand.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from rummyref.cli.common import say, show_error
from rummyref.errors import RummyrefError, UnreadableInput
from rummyref.games.base import Asker, Recorded, ask_until
from rummyref.games.forms import QuestionForm as Form

if TYPE_CHECKING:
    from rich.console import Console

    from rummyref.record import Context

# -- the answers around a hand --------------------------------------------------------------

YES = ("", "y", "yes", "ok", "record", "write")
DROP = ("n", "no", "drop", "discard")
CONFIRM_Q = "Record it? (Enter: yes / fix NAME / drop)"
CONFIRM_PLAIN_Q = "Record it? (Enter: yes / drop)"  #: a void: there is no answer to fix


def read_confirm(answer: str, form: Form | None) -> tuple[str, str]:
    """The answer to "record it?": ``("yes", "")``, ``("drop", "")`` or ``("fix", WORD)``."""
    a = answer.strip()
    low = a.casefold()
    if low in YES:
        return "yes", ""
    if low in DROP:
        return "drop", ""
    word = a[4:].strip() if low.startswith("fix ") else a
    if form is not None and form.keys_for(word):
        return "fix", word
    if form is None:
        raise UnreadableInput(f"{answer!r}: answer yes (or Enter), or drop")
    raise UnreadableInput(
        f"{answer!r}: answer yes (or Enter), fix ANSWER, or drop",
        hint=f"answers to fix: {form.choices()}",
    )


def read_fix(answer: str, form: Form) -> tuple[str, str]:
    """After a refusal (or before any change to a recorded hand): ``fix WORD`` (or just the
    word) or ``drop``."""
    try:
        kind, word = read_confirm(answer, form)
    except UnreadableInput:  # "yes" is no answer here: the hand cannot be recorded as it stands
        raise UnreadableInput(f"{answer!r}: answer fix ANSWER (or just the answer), or drop",
                              hint=f"answers to fix: {form.choices()}") from None
    if kind == "yes" and not answer.strip():
        raise UnreadableInput("say which answer to fix", hint=f"answers: {form.choices()}; or drop")
    if kind == "yes":
        raise UnreadableInput(f"{answer!r}: the hand cannot be recorded as it stands",
                              hint=f"fix one of: {form.choices()}; or drop")
    return kind, word


# -- the loop -----------------------------------------------------------------------------------


class Settle:
    """Judge the answers, show the verdict, ask "Record it?"; a refusal asks which answer to
    fix. ``refused``: the refusal standing when the table dropped the hand (its exit code is
    the command's), else None."""

    def __init__(self, asker: Asker, unit: str) -> None:
        self.asker, self.unit = asker, unit
        self.refused: RummyrefError | None = None

    def __call__(self, form: Form | None, judge: Callable[[Any], Recorded],
                 preview: Callable[[Recorded], None]) -> Recorded | None:
        while True:
            result, self.refused, fixing = None, None, True
            if form is not None and not form.changed():
                say(f"Nothing is changed yet: fix the answers that were wrong ({form.choices()}), or drop.")
            else:
                try:
                    result = judge(None if form is None else form.facts())
                    preview(result)
                    fixing = False
                except RummyrefError as exc:
                    if form is None:  # nothing to fix (a void): the refusal ends the command, shown once by its caller
                        raise
                    show_error(exc)
                    self.refused = exc
            if fixing:
                assert form is not None
                question = f"Fix which answer? ({form.choices()} / drop)"
            else:
                question = CONFIRM_Q if form is not None else CONFIRM_PLAIN_Q
            # a choice: Enter is yes (or asks which answer), so a bad answer is never offered back to resend
            answer, word = ask_until(self.asker, question, partial(_read, form=form, fixing=fixing),
                                     offer_back=False)
            if answer == "drop":
                say(f"The {self.unit} was dropped: nothing was written.")
                return None
            if answer == "fix" or result is None:
                assert form is not None
                form.fix(self.asker, word)
                continue
            return result


def _read(answer: str, form: Form | None, fixing: bool) -> tuple[str, str]:
    if fixing:
        assert form is not None
        return read_fix(answer, form)
    return read_confirm(answer, form)


class TableConfirm:
    """The terminal's :class:`~rummyref.play.Confirm` for ``score-hand``, ``amend`` and ``void``:
    everything it shows is a message (stderr), the command's output stays its own."""

    def __init__(self, asker: Asker, console: Console) -> None:
        self.asker, self.console = asker, console
        self.settle: Settle | None = None

    @property
    def refused(self) -> RummyrefError | None:
        return self.settle.refused if self.settle else None

    def __call__(self, ctx: Context, hand: int | None, form: Form | None,
                 judge: Callable[[Any], Recorded]) -> Recorded | None:
        kind, out = ctx.kind, self.console
        if hand is not None:
            kind.show_as_recorded(ctx, hand, out)
        if form is not None:
            form.ask_all(self.asker)
        self.settle = Settle(self.asker, kind.hand_word(ctx.ruleset) if hand is None else "correction")
        if hand is None:
            return self.settle(form, judge, lambda r: kind.preview(ctx, r.shown, out))
        return self.settle(form, judge, lambda r: kind.show_change(ctx, hand, r.shown, out))
