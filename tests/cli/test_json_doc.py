"""docs/reference/json.md names the keys of the record commands' ``--json`` exactly (audit O
item 7: ``verify``'s ``seal`` and ``upgrade``'s document were missing)."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import ref, ref_json
from transcripts import ROOT

DOC = ROOT / "docs" / "reference" / "json.md"


def documented(command: str) -> list[str]:
    """The keys the page lists for ``- `COMMAND`: `{"a", "b": [...]}` ``, in order."""
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    m = re.search(rf"- `{command}`: `\{{(.*?)\}}`", text)
    assert m, f"json.md lists no keys for {command}"
    return re.findall(r'"(\w+)"', m.group(1))


@pytest.mark.sqlite_only("ref backup copies a SQLite file")
def test_the_record_commands_give_the_keys_the_page_lists(record, tmp_path):
    assert ref("new-session", "--players", "Ann,Bob").exit_code == 0
    assert list(ref_json("verify")) == documented("verify")
    assert list(ref_json("upgrade")) == documented("upgrade")
    assert list(ref_json("backup", str(tmp_path / "copy.db"))) == documented("backup")
    export = tmp_path / "e.json"
    assert ref("export", "-o", str(export)).exit_code == 0
    imported = ref("--db", str(tmp_path / "other.db"), "import", str(export), "--json")
    assert imported.exit_code == 0, imported.stderr
    assert list(json.loads(imported.stdout)) == documented("import")
