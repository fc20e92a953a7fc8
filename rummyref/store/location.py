"""Where the record lives: ``--db PATH|URL``, else ``$RUMMYREF_DB``, else the user data directory.

A path is a SQLite file; a URL is given to SQLAlchemy as it is, except that ``postgresql://``
and ``postgres://`` mean the psycopg 3 driver (the ``postgres`` extra), not SQLAlchemy's
default psycopg2."""

from __future__ import annotations

import os
from pathlib import Path

ENV = "RUMMYREF_DB"
PG_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


def resolve(db: str | None) -> str:
    """The SQLAlchemy URL of the database to use."""
    spec = db or os.environ.get(ENV) or ""
    if not spec:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("rummyref", appauthor=False))
        spec = str(folder / "rummyref.db")
    if is_postgres(spec):
        return "postgresql+psycopg://" + spec.split("://", 1)[1]
    if "://" in spec:
        return spec
    return "sqlite:///" + str(Path(spec).expanduser().absolute())


def is_postgres(url: str) -> bool:
    return url.startswith(PG_SCHEMES)


def file_of(url: str) -> Path | None:
    """The file behind a sqlite URL (None for in-memory)."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):].split("?", 1)[0]
        return Path(path) if path and path != ":memory:" else None
    return None


def shown(url: str) -> str:
    """The URL as it may be printed (no password)."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True).replace("postgresql+psycopg://", "postgresql://")
    except Exception:  # noqa: BLE001 - only for a message
        return url.split("@")[-1]
