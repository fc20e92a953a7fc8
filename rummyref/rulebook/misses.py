"""The local log of rulings ``ref ruling`` could not answer well: questions with no match,
and answers it was not sure of. The table's own words, kept so the rulebooks' aliases and
slang table can grow from them (docs/guide/asking-the-rules.md).

One line per miss, tab-separated: the UTC time (ref's clock: ``$RUMMYREF_NOW`` where set), ``no-match`` or ``unsure``, the rulebooks
searched, the candidate rule ids best first, and the question. The file lives in the user
data folder, next to the default record (``ruling-misses.log``); ``$RUMMYREF_RULING_LOG``
names another file; ``$RUMMYREF_NO_RULING_LOG=1`` (or ``ref ruling --no-log``) turns it off.
Writing it never fails a ruling: a log that cannot be written is skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from rummyref.clock import now

LOG_ENV = "RUMMYREF_RULING_LOG"
OFF_ENV = "RUMMYREF_NO_RULING_LOG"
FILE_NAME = "ruling-misses.log"
MAX_QUESTION = 500  #: characters of a question kept
_BLANKS = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")


def enabled() -> bool:
    return os.environ.get(OFF_ENV, "").strip().lower() not in ("1", "yes", "true", "on")


def log_path() -> Path:
    """Where misses are written: ``$RUMMYREF_RULING_LOG``, else the user data folder."""
    where = os.environ.get(LOG_ENV, "").strip()
    if where:
        return Path(where).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("rummyref", appauthor=False)) / FILE_NAME


def line(question: str, outcome: str, books: Sequence[str], candidates: Sequence[str], when: datetime) -> str:
    text = _BLANKS.sub(" ", question).strip()[:MAX_QUESTION]
    fields = (when.strftime("%Y-%m-%dT%H:%M:%SZ"), outcome, ",".join(books), " ".join(candidates) or "-", text)
    return "\t".join(fields) + "\n"


def log_miss(question: str, outcome: str, books: Sequence[str], candidates: Sequence[str]) -> Path | None:
    """Append one miss; the file written, or None (turned off, or it could not be written)."""
    if not enabled():
        return None
    try:
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = line(question, outcome, books, candidates, now().astimezone(UTC))
        with open(path, "a", encoding="utf-8") as f:
            f.write(entry)
        return path
    except Exception:  # noqa: BLE001 - the log is a help, never a reason to fail a ruling
        return None
