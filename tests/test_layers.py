"""The shape of the code, checked: imports flow one way (cli -> play -> store -> domain), the
store is a ledger that names no kind of game, the CLI holds no SQL, and only ``games/`` (with
the rule set that names the method) knows which kinds of game there are."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "rummyref"
DOMAIN = ("cards.py", "clock.py", "errors.py", "chain.py", "record.py", "names.py", "rules", "melding", "rulebook", "games",
          "disputes", "stats")


def modules(*parts: str) -> list[Path]:
    found: list[Path] = []
    for part in parts:
        p = PKG / part
        if p.is_file():
            found.append(p)
        elif p.is_dir():
            found += sorted(p.rglob("*.py"))
    return found


def imported(path: Path) -> set[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def rel(path: Path) -> str:
    return str(path.relative_to(PKG.parent))


@pytest.mark.parametrize("path", modules(*DOMAIN), ids=rel)
def test_the_domain_imports_neither_the_store_nor_the_cli(path):
    bad = sorted(m for m in imported(path) if m.startswith(("rummyref.store", "rummyref.cli", "rummyref.play",
                                                             "sqlalchemy", "sqlmodel", "typer")))
    assert not bad, f"{rel(path)} imports {bad}"


@pytest.mark.parametrize("path", modules("store"), ids=rel)
def test_the_store_imports_no_cli_and_no_kind(path):
    bad = sorted(m for m in imported(path)
                 if m.startswith(("rummyref.cli", "rummyref.play", "rummyref.games.long", "rummyref.games.low_count",
                                  "rummyref.games.gin", "typer")))
    assert not bad, f"{rel(path)} imports {bad}"


#: what would show the store knowing a kind of game: its names, its rule-set methods, its words
KIND_WORDS = re.compile(r"low.?count|simple.?rummy|rummy-2m|rummy 2,000,000|melded.minus.held|rummy night|"
                        r"gin rummy|\bgin\b|games\.long|games\.low_count", re.IGNORECASE)


@pytest.mark.parametrize("path", modules("store"), ids=rel)
def test_the_store_names_no_kind_of_game(path):
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if KIND_WORDS.search(line)]
    assert not hits, f"{rel(path)} names a kind of game:\n" + "\n".join(hits)


SQL = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE)\b|\.sql\(|text\(\s*[\"']")


@pytest.mark.parametrize("path", modules("cli"), ids=rel)
def test_the_cli_holds_no_sql(path):
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if SQL.search(line)]
    assert not hits, f"{rel(path)} holds SQL:\n" + "\n".join(hits)


#: asking which kind a game is: the method compared, a kind's name tested, a kind module imported
ASKS = re.compile(r"\.method\s*[!=]=|Method\.(LOW_COUNT|MELDED_MINUS_HELD|GIN)|[\"']low-count[\"']|"
                  r"[\"']melded-minus-held[\"']|is_simple|\.simple\b|games\.(long|low_count|gin)\b")
OUTSIDE_GAMES = [p for p in modules("") if "games" not in p.relative_to(PKG).parts
                 and p.relative_to(PKG).parts[0] != "rules"]


@pytest.mark.parametrize("path", OUTSIDE_GAMES, ids=rel)
def test_nothing_outside_games_asks_which_kind_it_holds(path):
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if ASKS.search(line)]
    assert not hits, f"{rel(path)} asks which kind of game it holds:\n" + "\n".join(hits)


def test_every_method_has_a_kind():
    from rummyref.games.registry import KINDS, kind_of
    from rummyref.rules.ruleset import Method

    assert set(KINDS) == set(Method)
    for method in Method:
        assert kind_of(method).method is method
