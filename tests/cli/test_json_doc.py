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


def documented_for_gin(command: str) -> list[str]:
    """The keys the page lists for a Gin game under ``## `ref COMMAND` ``: the first
    ``Gin Rummy ...: `{"a", "b"}` `` there (audit gin-deep item 6: Gin's shapes were missing)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## `ref {command}`")
    section = " ".join(text[start:text.find("\n## ", start + 1)].split())
    m = re.search(r"Gin Rummy.*?`\{(.*?)\}`", section)
    assert m, f"json.md lists no Gin keys for {command}"
    return re.findall(r'"(\w+)"', m.group(1))


GIN_KNOCK = ["--hand", "Ann=5H 6H 7H 2S 2D 2C KC KD KS AH", "--hand", "Bob=8H 9H 4H 3S 4S 5S QC QD 7C 7D",
             "--knock", "Ann"]


def test_a_gin_game_gives_the_keys_the_page_lists(record):
    assert list(ref_json("new-session", "--ruleset", "gin", "--players", "Ann,Bob")) == documented_for_gin(
        "new-session")
    hand = ref_json("score-hand", *GIN_KNOCK)
    assert list(hand) == documented_for_gin("score-hand")
    assert (hand["result"], hand["winner"], hand["points"], hand["layoffs"]) == ("knock", "Ann", 33,
                                                                                 ["4H", "8H", "9H"])
    # a correction gives its reason too (json.md says so for every game)
    correction = [*documented_for_gin("score-hand"), "correction_reason"]
    assert list(ref_json("amend", "1", *GIN_KNOCK, "--reason", "again")) == correction
    assert list(ref_json("standings")) == documented_for_gin("standings")
    void = ref_json("void", "1", "--reason", "misdeal")
    assert list(void) == correction
    assert {k: void[k] for k in ("result", "winner", "points", "deadwood", "layoffs", "knock_limit")} == {
        "result": None, "winner": None, "points": 0, "deadwood": None, "layoffs": None, "knock_limit": None}
    assert list(ref_json("end-session")) == documented_for_gin("end-session")
    facts = ref_json("history")["entries"][0]["facts"]
    assert {"form", "hands", "ending", "by", "melds", "upcard", "result"} <= set(facts)
    assert (facts["form"], facts["by"], facts["melds"], facts["upcard"]) == ("gin", "Ann", None, None)
