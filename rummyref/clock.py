"""ref's clock. ``$RUMMYREF_NOW`` (an ISO date or time) pins it: for tests, and to enter a past
session from paper with its real date. The record's times and the ruling miss log's both read
it (:mod:`rummyref.store.clock` is this clock, for the store)."""

from __future__ import annotations

import os
from datetime import UTC, datetime

from rummyref.errors import UnreadableInput

NOW_ENV = "RUMMYREF_NOW"


def now() -> datetime:
    pinned = os.environ.get(NOW_ENV)
    if pinned:
        try:
            value = datetime.fromisoformat(pinned)
        except ValueError:
            raise UnreadableInput(f"{NOW_ENV}={pinned!r} is not an ISO date or time") from None
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.now(UTC)


def stamp() -> str:
    return now().isoformat(timespec="seconds")
