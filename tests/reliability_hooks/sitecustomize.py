"""Test-only hooks for the crash and race tests (tests/test_reliability_*.py), never shipped.

The tests run the real CLI, ``python -m rummyref ...``, with this folder put FIRST on
PYTHONPATH, so Python imports this ``sitecustomize`` at start-up. Nothing in ``rummyref`` knows
about it; without the variables below it does nothing at all.

- ``RUMMYREF_TEST_ANNOUNCE=1``: write ``@@begin`` to stderr when a write transaction
  (``BEGIN IMMEDIATE``) starts and ``@@commit`` just before it commits, so a test can aim a
  SIGKILL inside the write.
- ``RUMMYREF_TEST_DELAY=SECONDS``: sleep that long before every statement inside a write
  transaction: widens the write so random kills land between its statements.
- ``RUMMYREF_TEST_BARRIER=PATH``: before its first ``BEGIN IMMEDIATE``, create ``PATH.<pid>``
  and wait until ``PATH`` exists: lines two processes up so both have read the game before
  either writes (the race of two terminals).
"""

import os
import sys
import time

_ANNOUNCE = os.environ.get("RUMMYREF_TEST_ANNOUNCE") == "1"
_DELAY = float(os.environ.get("RUMMYREF_TEST_DELAY") or 0)
_BARRIER = os.environ.get("RUMMYREF_TEST_BARRIER")

if _ANNOUNCE or _DELAY or _BARRIER:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    _state = {"in_write": False, "waited": False}

    def _say(text):
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    @event.listens_for(Engine, "before_cursor_execute")
    def _before(conn, cursor, statement, params, context, executemany):
        if statement.startswith("BEGIN IMMEDIATE"):
            if _BARRIER and not _state["waited"]:
                _state["waited"] = True
                open(f"{_BARRIER}.{os.getpid()}", "w").close()
                deadline = time.monotonic() + 20
                while not os.path.exists(_BARRIER) and time.monotonic() < deadline:
                    time.sleep(0.002)
            _state["in_write"] = True
            if _ANNOUNCE:
                _say("@@begin")
        elif _state["in_write"] and _DELAY:
            time.sleep(_DELAY)

    @event.listens_for(Engine, "commit")
    def _commit(conn):
        if _state["in_write"] and _ANNOUNCE:
            _say("@@commit")
        _state["in_write"] = False

    @event.listens_for(Engine, "rollback")
    def _rollback(conn):
        _state["in_write"] = False
