"""One small error tree for the whole product, and the exit codes it maps to.

Every error a user can cause is a :class:`RummyrefError`. The CLI catches it once,
at the edge, prints its message (and hint) to stderr and exits with its code.
Anything else escaping is a bug: the CLI still prints no traceback, but exits
with :attr:`ExitCode.INTERNAL` and asks for a report.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum


class ExitCode(IntEnum):
    """Documented exit codes of ``ref`` (see the README's table)."""

    OK = 0
    INTERNAL = 1  #: a bug in ref: please report it
    USAGE = 2  #: the command line itself is wrong (unknown option, missing argument)
    BAD_INPUT = 3  #: unreadable input: a card, a name, a number, a file
    REFUSED = 4  #: readable, but the rules forbid it (A1 newcomer, A4 mid-round end, ...)
    NOT_FOUND = 5  #: no such game, session, hand or rule set
    STORAGE = 6  #: the database cannot be opened, read or written
    CONFLICT = 7  #: conflicts with the record (another terminal wrote first; an import already there); nothing written
    INTEGRITY = 8  #: ref verify found the record changed outside ref


class RummyrefError(Exception):
    """Base of every error a user can cause. ``hint`` says what would be valid."""

    exit_code: ExitCode = ExitCode.BAD_INPUT

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n{self.hint}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 hand``, ``2 hands``, ``1,000 hands``: the count and the word, plural unless one."""
    return f"{count:,} " + (word if count == 1 else many or f"{word}s")


def and_list(items: Iterable[str], last: str = "and") -> str:
    """``Bill``, ``Bill and Ben``, ``Bill, Ben and Larry``: names (or anything) joined in prose
    (``last="or"``: ``gin, rummy-2m or simple-rummy``)."""
    items = list(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else "".join(items)


# -- unreadable: the text could not be understood ---------------------------------------


class UnreadableInput(RummyrefError):
    """Input that cannot be read at all."""

    exit_code = ExitCode.BAD_INPUT


class SeveralOpen(UnreadableInput):
    """No game named, and several have a session open: which one? (SPEC §8)"""

    def __init__(self, message: str, *, hint: str | None = None, games: tuple[str, ...] = ()) -> None:
        super().__init__(message, hint=hint)
        self.games = games  #: the open games' names, oldest first


class CardError(UnreadableInput):
    """Base of the card errors: unreadable token, duplicate card, too many WILDCARDs."""


TOKEN_SHOWN = 24  #: characters of an unreadable card an error repeats; a longer one is cut, with its length


class UnreadableCard(CardError):
    """``where`` names whose cards and which option or prompt: "in Bill's --held cards". A
    token longer than :data:`TOKEN_SHOWN` characters is cut with an ellipsis and its length is
    said, so that one error stays one line whatever was typed (or piped to ``count --jsonl``);
    :attr:`token` keeps it whole."""

    def __init__(self, token: str, position: int, column: int, hint: str, where: str = "") -> None:
        place = f" {where}" if where else ""
        shown, length = repr(token), ""
        if len(token) > TOKEN_SHOWN:
            shown, length = repr(token[: TOKEN_SHOWN - 1] + "…"), f"{len(token):,} characters; "
        super().__init__(
            f"unreadable card {shown}{place} ({length}card {position}, column {column})", hint=hint
        )
        self.token = token
        self.position = position
        self.column = column


class DuplicateCard(CardError):
    def __init__(self, card: str, where: str = "") -> None:
        place = f" ({where})" if where else ""
        super().__init__(
            f"the {card} appears twice{place}, but there is only one deck",
            hint="each card exists once; check for a typo in one of them",
        )
        self.card = card


class TooManyWildcards(CardError):
    """More WILDCARDs than allowed. ``fixed``: who fixed the number, e.g. "this game was created
    with" (the default: a game's number, chosen at new-session); None: the rule set's limit."""

    def __init__(self, found: int, allowed: int, fixed: str | None = "this game was created with") -> None:
        given = f"{plural(found, 'WILDCARD')} given"
        if fixed is None:
            limit = "this game is played without WILDCARDs" if allowed == 0 else f"the rules allow at most {allowed}"
            message = f"{given}, but {limit}"
        else:
            message = f"{given}, but {fixed} {plural(allowed, 'WILDCARD')} (fixed at new-session)"
        hint = "take out every W" if allowed == 0 else f"use at most {plural(allowed, 'WILDCARD')} (W)"
        super().__init__(message, hint=hint)
        self.found = found
        self.allowed = allowed


class RulesetError(UnreadableInput):
    """A rule set or rulebook data file that is missing or invalid."""


# -- illegal: readable, but the rules forbid it -------------------------------------------


class RuleRefusal(RummyrefError):
    """Readable input that the rules forbid. ``rule`` is the rule id cited (A4, S1, ...)."""

    exit_code = ExitCode.REFUSED

    def __init__(self, message: str, *, rule: str | None = None, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.rule = rule


# -- ambiguous / unknown ----------------------------------------------------------------


class AmbiguousInput(RummyrefError):
    """Input that could mean more than one thing."""

    exit_code = ExitCode.BAD_INPUT


class NotFound(RummyrefError):
    exit_code = ExitCode.NOT_FOUND


# -- storage -----------------------------------------------------------------------------


class StorageError(RummyrefError):
    exit_code = ExitCode.STORAGE


class WriteConflict(StorageError):
    exit_code = ExitCode.CONFLICT


class IntegrityError(StorageError):
    exit_code = ExitCode.INTEGRITY
