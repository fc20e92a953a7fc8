"""An export written at an older schema imports (docs/operations/data-promises.md §6).

``tests/fixtures/release_0_1/export_0_1.json`` was written by the 0.1 release itself (schema 2)
and ``tests/fixtures/export_schema_v1.json`` is one at schema 1 (see
``tests/fixtures/make_old_exports.md``). The import upgrades its scratch copy, which appends an
``adopt`` entry per game; the file's own ``chains`` are checked before that, at its schema. So
it imports, shows what its source shows, verifies, is refused a second time (exit 7), and a file
changed by one byte is still refused (exit 8) with nothing written.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NOW = "2026-11-30T18:45:00+00:00"
CASES = {
    "0.1 (schema 2)": (FIXTURES / "release_0_1" / "export_0_1.json", FIXTURES / "release_0_1" / "release_0_1.db",
                       ("rummy-2m", "Friday Simple")),
    "schema 1": (FIXTURES / "export_schema_v1.json", FIXTURES / "schema_v1.db", ("rummy-2m",)),
}


@pytest.fixture(params=list(CASES))
def case(request, tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", NOW)
    export, source, games = CASES[request.param]
    src = tmp_path / "source.db"
    shutil.copy(source, src)
    return export, src, games


def _views(db: list[str], game: str) -> dict:
    return {what: ref_json(what, *db, "--game", game) for what in ("standings", "history")}


def test_an_old_export_imports_and_shows_what_its_source_shows(record, case):
    export, src, games = case
    r = ref("import", str(export))
    assert r.exit_code == 0, r.stderr
    check = ref_json("verify")
    assert check["ok"] and check["games"] == len(games)
    for game in games:
        assert _views([], game) == _views(["--db", str(src)], game), game
    again = ref("import", str(export))
    assert again.exit_code == 7 and "already in the record" in again.stderr


def _one_byte(text: str, where: str) -> str:
    """``text`` with one digit of a score changed: a result row's points, or a hand's facts."""
    if where == "result":
        m = re.compile(r"\n     (\d+),\n     null").search(text, text.index('"result"'))
    else:
        m = re.search(r'\\"(?:points|Bill)\\": (\d)', text)
    assert m is not None
    i = m.start(1)
    return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1:]


@pytest.mark.parametrize("where", ["result", "facts"])
def test_an_old_export_changed_by_one_byte_is_refused(record, case, tmp_path, where):
    export, _src, _games = case
    bad = tmp_path / "bad.json"
    bad.write_text(_one_byte(export.read_text(), where))
    r = ref("import", str(bad))
    assert r.exit_code == 8 and "nothing was imported" in r.stderr, r.stderr
    assert ref("import", str(export)).exit_code == 0  # nothing of the bad file was written


def test_an_old_export_with_a_log_cut_short_is_refused(record, case, tmp_path):
    import json

    export, _src, _games = case
    doc = json.loads(export.read_text())
    entries = doc["tables"]["entry"]
    seq = entries["columns"].index("seq")
    game = entries["columns"].index("game_id")
    last = max(entries["rows"], key=lambda row: (row[game] == entries["rows"][0][game], row[seq]))
    entries["rows"].remove(last)
    result = doc["tables"]["result"]
    result["rows"] = [row for row in result["rows"] if row[result["columns"].index("entry_id")] != last[0]]
    bad = tmp_path / "cut.json"
    bad.write_text(json.dumps(doc))
    r = ref("import", str(bad))
    assert r.exit_code == 8 and "entries were removed" in r.stderr, r.stderr


def test_an_old_export_imported_again_later_or_onto_its_own_upgraded_record_is_already_there(case, tmp_path,
                                                                                            monkeypatch):
    """Audit, stop 36: imported again an hour later (or onto the record its release wrote, once
    upgraded), a 0.1 export was said to "contradict the record ... a different log": the
    upgrade made for each import appends an adopt entry stamped with its own hour."""
    export, src, games = case
    db = tmp_path / "r.db"
    assert ref("import", "--db", str(db), str(export)).exit_code == 0
    monkeypatch.setenv("RUMMYREF_NOW", "2027-01-01T10:00:00+00:00")
    for target in (db, src):
        if target == src:
            assert ref("upgrade", "--db", str(src)).exit_code == 0
        r = ref("import", "--db", str(target), str(export))
        said = " ".join(r.stderr.split())
        assert r.exit_code == 7 and "is already in the record" in said and "contradicts" not in said, said


def test_an_older_export_of_a_game_that_went_on_is_already_there(tmp_path):
    db = tmp_path / "r.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    assert ref("export", "--db", str(db), "-o", str(tmp_path / "old.json")).exit_code == 0
    assert ref("score-hand", "--db", str(db), "--points", "Bill=1", "--points", "Ben=2",
               "--points", "Larry=3").exit_code == 0
    r = ref("import", "--db", str(db), str(tmp_path / "old.json"))
    assert r.exit_code == 7 and "the record's log holds the file's" in " ".join(r.stderr.split())
