"""Reading the product's TOML data files (rule sets, rulebooks): one place for the errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rummyref.errors import NotFound, RulesetError
from rummyref.rules.resources import data_dir


def locate(kind: str, spec: str, builtin: tuple[str, ...]) -> Path:
    """The file for ``spec``: a built-in name under ``data/<kind>s/`` or a path to a .toml file."""
    if spec in builtin:
        return data_dir() / f"{kind.replace(' ', '')}s" / f"{spec}.toml"
    path = Path(spec)
    if spec.endswith(".toml") or "/" in spec or "\\" in spec or _exists(path):
        return path
    raise NotFound(
        f"no {kind} named {spec[:60]!r}" + ("..." if len(spec) > 60 else ""),
        hint=f"built-in {kind}s: {', '.join(builtin)}; or give the path of a .toml file",
    )


def _exists(path: Path) -> bool:
    """A name no file system could hold (too long, a NUL) is simply no file."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def read_toml(path: Path, kind: str) -> dict[str, Any]:
    """Parse a data file; a missing file is NOT_FOUND, an unreadable one names the file."""
    import tomllib  # here, not at the top: ``ref ruling`` with a cached index parses no TOML

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotFound(f"{kind} file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path}: not valid TOML ({exc})") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # ValueError: a NUL in the path
        raise RulesetError(f"{path}: cannot read the {kind} file ({exc})") from None
