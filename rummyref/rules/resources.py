"""Where the shipped data files live (inside the installed package, or the source tree)."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def data_dir() -> Path:
    """``rummyref/data`` in an installed wheel; the repository's ``data/`` in a source checkout."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "data", here.parent / "data"):
        if (candidate / "rulesets").is_dir():
            return candidate
    raise FileNotFoundError("rummyref's data files are missing: reinstall rummyref")
