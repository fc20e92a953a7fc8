"""Shared fixtures: every test gets its own database (a SQLite file in a temp folder, or a
fresh PostgreSQL schema with ``RUMMYREF_TEST_PG``, see ``dbtest.py``) and a fixed-width console."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid

import pytest
from dbtest import ON_PG, PG_ENV, PG_URL, TestRecord, pg_conninfo, with_schema
from hypothesis import HealthCheck, settings

# One hypothesis profile for CI: derandomized (the same examples every run, so a red CI is
# reproducible and never a fluke of the draw), no deadline (a loaded 2-core runner).
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: a memory file system for the tests' temp folders, where the machine has one with room to spare
MEMORY_TMP = "/dev/shm"


def _temp_in_memory() -> None:
    """Every test's record is a real SQLite file, written with the syncs ``ref`` asks for; on a
    disk those syncs cost some 15% of the tests' time when it is quiet, half when it is busy. Where the machine has a memory file
    system with room (2 GiB free; a container's 64 MB one is passed over) and ``TMPDIR`` is not
    set, the temp folders (``tmp_path``, and those of every ``ref`` a test starts) go there:
    the same files and the same calls, each sync done at once. ``TMPDIR=/tmp pytest`` runs them
    on the disk."""
    if os.environ.get("TMPDIR") or not os.path.isdir(MEMORY_TMP) or not os.access(MEMORY_TMP, os.W_OK):
        return
    if shutil.disk_usage(MEMORY_TMP).free < 2 << 30:
        return
    os.environ["TMPDIR"] = MEMORY_TMP
    tempfile.tempdir = None  # read TMPDIR again


_temp_in_memory()

#: test folders whose tests kill and race real processes: marked slow (pytest -m "not slow" skips them)
SLOW_FOLDERS = ("reliability",)


@pytest.fixture(scope="session")
def _pg_admin():
    """One autocommit connection to the test server for the whole run (creates/drops schemas)."""
    if not ON_PG:
        yield None
        return
    import psycopg

    con = psycopg.connect(pg_conninfo(PG_URL), autocommit=True)  # type: ignore[arg-type]
    yield con
    con.close()


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch, _pg_admin, request):
    """Point the database at a temp folder (or a new PostgreSQL schema); pin the console width; no colour."""
    schema = None
    if ON_PG:
        schema = f"t_{uuid.uuid4().hex[:16]}"
        _pg_admin.execute(f"CREATE SCHEMA {schema}")
        monkeypatch.setenv("RUMMYREF_DB", with_schema(PG_URL, schema))  # type: ignore[arg-type]
    else:
        monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    monkeypatch.setenv("RUMMYREF_RULING_LOG", str(tmp_path / "ruling-misses.log"))  # never the user's own
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("RUMMYREF_DEBUG", raising=False)
    # The CLI's consoles take their width from COLUMNS once, when first imported: pin them too,
    # whichever test (or module fixture, at another width) happened to import them first.
    common = sys.modules.get("rummyref.cli.common")
    if common is not None:
        for console in (common.out, common.err):
            monkeypatch.setattr(console, "_width", 100)
    yield
    if schema is not None:
        _pg_admin.execute(f"DROP SCHEMA {schema} CASCADE")
    if request.node.get_closest_marker("no_record") is not None:
        # the mark's promise, checked on every run: the PostgreSQL pass skips these tests
        assert not (tmp_path / "ref.db").exists(), "marked no_record, yet it opened a record: remove the mark"


@pytest.fixture
def record(tmp_path) -> TestRecord:
    """The record of this test, on whichever back-end the run uses."""
    spec = os.environ["RUMMYREF_DB"]
    if ON_PG:
        return TestRecord(spec, None, spec.rsplit("%3D", 1)[1])
    return TestRecord(spec, tmp_path / "ref.db", None)


@pytest.fixture
def db_path(tmp_path):
    """The SQLite file of this test: a test that reads or writes the file itself is SQLite-only."""
    if ON_PG:
        pytest.skip("SQLite-only: the test reads or writes the database file itself (db_path)")
    return tmp_path / "ref.db"


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only(why): the test is about SQLite's file itself")
    config.addinivalue_line("markers", "needs_pg: the test needs a PostgreSQL server (RUMMYREF_TEST_PG)")
    config.addinivalue_line("markers", "slow: takes over ~5 s (kills, races, hunts); pytest -m 'not slow' skips them")
    config.addinivalue_line("markers", "no_record: the test opens no record (pure functions, the engine): the "
                                       "PostgreSQL pass skips it, the SQLite pass checks it opened none")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(part in SLOW_FOLDERS for part in item.path.parts):
            item.add_marker(pytest.mark.slow)
        mark = item.get_closest_marker("sqlite_only")
        if mark is not None and ON_PG:
            why = mark.args[0] if mark.args else "about the SQLite file itself"
            item.add_marker(pytest.mark.skip(reason=f"SQLite-only: {why}"))
        if item.get_closest_marker("no_record") is not None and ON_PG:
            item.add_marker(pytest.mark.skip(reason="opens no record: the SQLite pass runs it"))
        if item.get_closest_marker("needs_pg") is not None and not ON_PG:
            item.add_marker(pytest.mark.skip(reason=f"needs a PostgreSQL server: set {PG_ENV}=postgresql://... "
                                                    "(.ci/run starts one)"))


def pytest_report_header(config):
    import rummyref

    where = (f"PostgreSQL at {PG_URL} (a fresh schema per test)" if ON_PG
             else f"SQLite files (the PostgreSQL pass is not run here: {PG_ENV} is not set)")
    return [f"rummyref {rummyref.__version__} from {os.path.dirname(rummyref.__file__)}", f"database: {where}"]


#: root without the capabilities that override file permissions (``as_user``)
CAPS = "-dac_override,-dac_read_search,-fowner"
SETPRIV = ("setpriv", f"--bounding-set={CAPS}", f"--inh-caps={CAPS}", "--")


@pytest.fixture(scope="session")
def as_user(tmp_path_factory) -> tuple[str, ...]:
    """What to put before a command so that file permissions bind it: nothing for a user; for
    root, setpriv without the capabilities that override them (checked: it cannot make a file
    in a read-only folder). Skipped where that cannot be had: a test of a read-only record run
    as root without it would prove nothing."""
    import shutil
    import subprocess

    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("run as root, and no setpriv to drop root's override of file permissions")
    folder = tmp_path_factory.mktemp("permissions")
    folder.chmod(0o555)
    try:
        made = subprocess.run([*SETPRIV, "touch", str(folder / "x")], capture_output=True)
    finally:
        folder.chmod(0o755)
    if made.returncode == 0:
        pytest.skip("setpriv did not make file permissions bind root here")
    return SETPRIV
