"""Shared fixtures: every test gets its own database folder and a fixed-width console."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """Point the database at a temp folder; pin the console width; no colour."""
    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("RUMMYREF_DEBUG", raising=False)
    yield


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "ref.db"


def pytest_report_header(config):
    import rummyref

    return f"rummyref {rummyref.__version__} from {os.path.dirname(rummyref.__file__)}"
