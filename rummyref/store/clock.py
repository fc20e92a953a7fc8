"""The clock of the record: ref's one clock (:mod:`rummyref.clock`), ``$RUMMYREF_NOW`` pinning it."""

from __future__ import annotations

from rummyref.clock import NOW_ENV, now, stamp

__all__ = ["NOW_ENV", "now", "stamp"]
