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
- ``RUMMYREF_TEST_SIGINT=WHEN:N``: a real Ctrl-C (SIGINT sent to the process itself) at the
  N-th write transaction of the process (1: the first; the schema steps of a new record are
  not counted): ``begin`` as its ``BEGIN IMMEDIATE`` starts (nothing is written yet),
  ``commit`` the moment its COMMIT has returned (the write is in the record), the window where
  a Ctrl-C used to be reported as "nothing was written"; ``exit`` as Python exits, once the
  command has said all it had to say; ``step`` once the N-th schema step of an older record
  has committed (its connection handed back), before the next step or the command's own write.
"""

import os
import sys
import time

_ANNOUNCE = os.environ.get("RUMMYREF_TEST_ANNOUNCE") == "1"
_DELAY = float(os.environ.get("RUMMYREF_TEST_DELAY") or 0)
_BARRIER = os.environ.get("RUMMYREF_TEST_BARRIER")
_SIGINT_WHEN, _, _SIGINT_AT = (os.environ.get("RUMMYREF_TEST_SIGINT") or "").partition(":")

if _SIGINT_WHEN:
    import signal

    from sqlalchemy import event
    from sqlalchemy.engine import Engine
    from sqlalchemy.orm import Session

    _at = int(_SIGINT_AT or 1)
    _writes = [0]

    def _ctrl_c():
        os.kill(os.getpid(), signal.SIGINT)

    if _SIGINT_WHEN == "exit":
        import atexit

        atexit.register(_ctrl_c)  # registered first: runs last

    @event.listens_for(Session, "after_begin")
    def _sig_begin(session, transaction, connection):
        # a command's own write: a session on the engine (a schema step's runs on its connection)
        write = (isinstance(session.bind, Engine)
                 and connection.get_execution_options().get("sqlite_begin", "IMMEDIATE") == "IMMEDIATE")
        session.info["rummyref_write"] = write
        if write:
            _writes[0] += 1
            if _SIGINT_WHEN == "begin" and _writes[0] == _at:
                _ctrl_c()

    @event.listens_for(Session, "after_commit")
    def _sig_after_commit(session):
        if session.info.pop("rummyref_write", False) and _SIGINT_WHEN == "commit" and _writes[0] == _at:
            _ctrl_c()

    if _SIGINT_WHEN == "step":
        from sqlalchemy.pool import Pool

        _steps = [0, False]  # schema steps committed; a Ctrl-C due at the next check-in

        @event.listens_for(Engine, "before_cursor_execute")
        def _sig_step_seen(conn, cursor, statement, params, context, executemany):
            if statement.startswith("INSERT INTO meta") and "'schema_version'" in statement:
                conn.info["rummyref_step"] = True

        @event.listens_for(Engine, "commit")
        def _sig_step_commit(conn):
            if conn.info.pop("rummyref_step", False):
                _steps[0] += 1
                _steps[1] = _steps[0] == _at

        @event.listens_for(Pool, "checkin")
        def _sig_step_checkin(dbapi_connection, connection_record):
            if _steps[1]:
                _steps[1] = False
                _ctrl_c()


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
