"""docs/reference/ruleset-format.md documents every key the rule set loader reads, and every
table of the built-in files (audit O item 4: ``[gin]``, ``[gin.oklahoma]`` and ``[house]`` were
missing). The loader's keys are read from its source: every literal key given to the reader
(``table.int("knock_limit")``, ``.str``, ``.bool``, ``.strs``, ``.pair``, ``.table``,
``.list_of_tables``, ``.data.get``) in rummyref/rules/ruleset.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rummyref.rules import ruleset
from rummyref.rules.ruleset import BUILTIN, builtin_path

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "ruleset-format.md"
READS = {"int", "str", "bool", "strs", "pair", "table", "list_of_tables", "get"}


def loader_keys() -> set[str]:
    tree = ast.parse(Path(ruleset.__file__).read_text(encoding="utf-8"))
    keys = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in READS
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            keys.add(node.args[0].value)
    return keys


def documented_keys() -> set[str]:
    """Every `key` the page names after its "## The fields" heading, in a table's first column,
    in a `[table]` heading line, or in the prose of an optional table."""
    text = DOC.read_text(encoding="utf-8").split("## The fields", 1)[1]
    return set(re.findall(r"`\[{0,2}([a-z_]+(?:\.[a-z_]+)?)\]{0,2}`", text))


def test_every_key_the_loader_reads_is_documented():
    keys = loader_keys()
    assert {"knock_limit", "ace_limit", "session_word", "seating_dibs", "oklahoma", "house"} <= keys
    doc = documented_keys()
    spelled = doc | {part for d in doc for part in d.split(".")}
    missing = sorted(k for k in keys if k not in spelled and k not in ruleset._RANK_KEYS)
    assert not missing, f"ruleset-format.md does not document {missing}"


def test_every_table_of_the_built_in_files_is_documented():
    import tomllib

    doc = documented_keys()
    for name in BUILTIN:
        data = tomllib.loads(builtin_path(name).read_text(encoding="utf-8"))
        for key, value in data.items():
            assert key in doc, f"{name}.toml: [{key}] is not documented"
            if isinstance(value, dict):
                for sub in value:
                    assert sub in doc or f"{key}.{sub}" in doc or key == "cards" and sub == "values", (name, key, sub)


def test_every_built_in_rule_set_is_named_where_the_manual_lists_them():
    text = DOC.read_text(encoding="utf-8")
    readme = (DOC.parents[2] / "README.md").read_text(encoding="utf-8")
    for name in BUILTIN:
        assert f"`{name}.toml`" in text and f"`{name}`" in readme, name
