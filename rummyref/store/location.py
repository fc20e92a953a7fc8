"""Where the record lives: ``--db PATH|URL``, else ``$RUMMYREF_DB``, else the user data directory."""

from __future__ import annotations

import os
from pathlib import Path

ENV = "RUMMYREF_DB"


def resolve(db: str | None) -> str:
    """The SQLAlchemy URL of the database to use."""
    spec = db or os.environ.get(ENV) or ""
    if not spec:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("rummyref", appauthor=False))
        spec = str(folder / "rummyref.db")
    if "://" in spec:
        return spec
    return "sqlite:///" + str(Path(spec).expanduser().absolute())


def file_of(url: str) -> Path | None:
    """The file behind a sqlite URL (None for in-memory)."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):].split("?", 1)[0]
        return Path(path) if path and path != ":memory:" else None
    return None
