"""Tampering with plain SQL, generated from the schema (issue 13, "Changes ref verify does not see").

The tables and columns are read from the database itself, so a column added by a later
migration is tampered with too, without a change here. For every column of every table, on a
few rows of a record with both game kinds, amends, voids, a ruling and a finished game, the
value is changed one way at a time (the append-only triggers dropped first and put back after,
as a careful attacker would); then one row is added to each table. Each change that alters
what ``standings`` or ``history`` show must be caught by ``ref verify`` (exit 8); a change that
verify lets through must alter nothing shown and be listed in :data:`HARMLESS` with the reason.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import chain_record
import pytest
from cli_helpers import ref, ref_subprocess

from rummyref.store.migrations import V2

TRIGGERS = tuple(s for s in V2 if s.startswith("CREATE TRIGGER"))

#: (table, column) -> why changing it with SQL does not matter (verify may let it through)
HARMLESS = {
    ("result", "id"): "a row id: nothing refers to a result row, and no view shows it",
    ("entry", "id"): "a row id of an entry with no result rows (header, night, ruling): nothing refers to it "
                     "and no view shows it; --seal reads entries in id order, but any state it finds is made "
                     "of entries the chains still hold, so a moved id cannot hide a rollback",
    ("meta", "+row"): "meta keeps the schema version; ref reads no other key",
}

ROWS_PER_COLUMN = 3  #: the first, a middle and the last row of each table


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("tamper") / "record.db"
    chain_record.build(db)
    assert ref("verify", "--db", str(db)).exit_code == 0
    return db, chain_record.views(db)


def _schema(con: sqlite3.Connection) -> dict[str, list[tuple[str, str, bool, bool]]]:
    """table -> [(column, TYPE, not null, in the primary key)], read from the file."""
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    return {t: [(c[1], (c[2] or "").upper(), bool(c[3]), bool(c[5])) for c in con.execute(f'PRAGMA table_info("{t}")')]
            for t in tables}


def _changes(value: Any, type_: str, notnull: bool) -> list[tuple[str, Any]]:
    """Plausible changes of one stored value (what an editor of the file would type)."""
    out: list[tuple[str, Any]] = []
    if value is None:
        out.append(("set", 1 if type_ == "INTEGER" else "2026-01-01T00:00:00+00:00"))
    elif isinstance(value, int):
        out.append(("+1", value + 1))
    else:
        out.append(("edit", _edit(value)))
    if value is not None and not notnull:
        out.append(("NULL", None))
    if value is not None:  # the same value as raw bytes (a BLOB), which ref never writes (stop 43)
        out.append(("blob", str(value).encode()))
    return out


def _edit(text: str) -> str:
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        if "closed_roster" in data:
            data["closed_roster"] = not data["closed_roster"]
        elif data:
            key = min(data)
            data[key] = "changed" if data[key] != "changed" else "again"
        else:
            data["changed"] = 1
        return json.dumps(data)
    try:
        when = datetime.fromisoformat(text)
        return (when - timedelta(days=1)).isoformat(timespec="seconds")
    except ValueError:
        pass
    if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
        return text[:-1] + ("0" if text[-1] != "0" else "1")
    if text.startswith("[rules]") or "\n" in text:  # a rule set's text: the ace is worth 150
        return text.replace("15", "150", 1) if "15" in text else text + "\n# changed\n"
    return text + "x"


def _rows(con: sqlite3.Connection, table: str) -> list[int]:
    ids = [r[0] for r in con.execute(f'SELECT rowid FROM "{table}" ORDER BY rowid')]
    picks = {ids[0], ids[len(ids) // 2], ids[-1]} if ids else set()
    return sorted(picks)


def _tamper(path: Path, sql: str, params: tuple) -> None:
    con = sqlite3.connect(path)
    try:
        for name in ("entry_append_only_update", "entry_append_only_delete"):
            con.execute(f"DROP TRIGGER IF EXISTS {name}")
        con.execute(sql, params)
        for trig in TRIGGERS:  # put back: the triggers are there, as ref left them
            con.execute(trig)
        con.commit()
    finally:
        con.close()


def _verdict(path: Path, baseline: str, what: str) -> tuple[bool, bool]:
    """(caught by verify, alters what standings/history show)."""
    r = ref("verify", "--db", str(path))
    assert r.exit_code in (0, 6, 8), f"{what}: verify exit {r.exit_code}\n{r.stdout}{r.stderr}"
    caught = r.exit_code != 0
    return caught, (not caught) and chain_record.views(path) != baseline


def _add_row(con: sqlite3.Connection, table: str) -> tuple[str, tuple]:
    """An INSERT of a plausible extra row: a copy of the last row with new keys."""
    cols = [c for c in con.execute(f'PRAGMA table_info("{table}")')]
    names = [c[1] for c in cols]
    row = dict(zip(names, con.execute(f'SELECT * FROM "{table}" ORDER BY rowid DESC LIMIT 1').fetchone()))
    fks = {f[3]: (f[2], f[4]) for f in con.execute(f'PRAGMA foreign_key_list("{table}")')}
    pk = [c[1] for c in sorted((c for c in cols if c[5]), key=lambda c: c[5])]
    if len(pk) == 1 and pk[0] not in fks and cols[names.index(pk[0])][2].upper() == "INTEGER":
        row[pk[0]] = con.execute(f'SELECT MAX("{pk[0]}") + 1 FROM "{table}"').fetchone()[0]
    uniques = [[i[2] for i in con.execute(f'PRAGMA index_info("{x[1]}")')]
               for x in con.execute(f'PRAGMA index_list("{table}")') if x[2]]
    for key in uniques + [pk]:
        free = [c for c in key if c not in fks and c != "id"]
        for c in free:
            row[c] = row[c] + 1000 if isinstance(row[c], int) else f"{row[c]} 2"
        if not free and all(c in fks for c in key):  # a key of parents only: another pair of parents
            options = [[r[0] for r in con.execute(f'SELECT "{fks[c][1]}" FROM "{fks[c][0]}"')] for c in key]
            taken = set(con.execute(f'SELECT {", ".join(key)} FROM "{table}"').fetchall())
            combo = next((p for p in _product(options) if p not in taken), None)
            if combo is None:  # every parent has its row: one for a parent that is not there
                combo = (max(options[0]) + 1, *(o[0] for o in options[1:]))
            row.update(zip(key, combo))
    placeholders = ", ".join("?" for _ in names)
    return f'INSERT INTO "{table}" ({", ".join(names)}) VALUES ({placeholders})', tuple(row[n] for n in names)


def _product(options: list[list[Any]]) -> list[tuple]:
    combos: list[tuple] = [()]
    for values in options:
        combos = [c + (v,) for c in combos for v in values]
    return combos


@pytest.mark.slow
def test_every_column_of_every_table_changed_with_sql(template, tmp_path):
    db, baseline = template
    con = sqlite3.connect(db)
    schema = _schema(con)
    tries: list[tuple[str, str, int, str, Any]] = []
    for table, cols in schema.items():
        rows = _rows(con, table)
        for name, type_, notnull, _pk in cols:
            for rowid in rows:
                value = con.execute(f'SELECT "{name}" FROM "{table}" WHERE rowid = ?', (rowid,)).fetchone()[0]
                for label, new in _changes(value, type_, notnull):
                    tries.append((table, name, rowid, label, new))
    adds = {t: _add_row(con, t) for t in schema}
    con.close()
    assert {"game", "player", "session", "entry", "result", "player_total", "session_total", "game_total"} <= set(schema)

    caught, refused, let_through, missed = 0, 0, set(), []
    copy = tmp_path / "t.db"
    for table, name, rowid, label, new in tries:
        shutil.copy(db, copy)
        try:
            _tamper(copy, f'UPDATE "{table}" SET "{name}" = ? WHERE rowid = ?', (new, rowid))
        except sqlite3.IntegrityError:  # a key taken by another row: a value nobody has
            if not isinstance(new, int):
                refused += 1
                continue
            shutil.copy(db, copy)
            try:
                _tamper(copy, f'UPDATE "{table}" SET "{name}" = ? WHERE rowid = ?', (new + 1000, rowid))
            except sqlite3.IntegrityError:
                refused += 1
                continue  # the schema itself refuses it (NOT NULL, UNIQUE): not a tamper that can happen
        what = f"{table}.{name} row {rowid} {label}"
        hit, shown = _verdict(copy, baseline, what)
        caught += hit
        if shown:
            missed.append(what)
        elif not hit:
            let_through.add((table, name))
    for table, (sql, params) in adds.items():
        shutil.copy(db, copy)
        _tamper(copy, sql, params)
        hit, shown = _verdict(copy, baseline, f"a row added to {table}")
        caught += hit
        if shown:
            missed.append(f"a row added to {table}")
        elif not hit:
            let_through.add((table, "+row"))
    total = len(tries) + len(adds) - refused
    print(f"\ntampers tried: {total} (and {refused} the schema refuses); caught by verify: {caught}; "
          f"let through (harmless): {total - caught - len(missed)} in {sorted(let_through)}")
    assert not missed, f"verify let these through, and they change what ref shows: {missed}"
    assert let_through <= set(HARMLESS), f"let through, with no reason listed: {sorted(let_through - set(HARMLESS))}"
    assert caught >= total - 10  # nearly everything is caught outright


def test_a_rolled_back_copy_is_caught_by_the_seal(template, tmp_path):
    """An older backup copied over the record verifies (its chain is whole); the seal printed
    after the later night does not match it."""
    db, _ = template
    old = tmp_path / "old.db"
    shutil.copy(db, old)
    now = tmp_path / "now.db"
    shutil.copy(db, now)
    chain_record.points(now, "long", 3, 3, 3, "score-hand")
    sealed = json.loads(ref("verify", "--db", str(now), "--json").stdout)["seal"]
    shutil.copy(old, now)  # the rollback
    assert ref("verify", "--db", str(now)).exit_code == 0  # the chain cannot see it
    r = ref("verify", "--db", str(now), "--seal", sealed)
    assert r.exit_code == 8 and "does not contain the state sealed" in r.stderr


def test_a_changed_rule_set_text_is_shown_by_the_line_that_differs(template, tmp_path):
    """The stored rule set file is some 70 lines: the finding names the line changed, on both
    streams, within 80 columns, not the whole file twice."""
    db, _ = template
    path = tmp_path / "rules.db"
    shutil.copy(db, path)
    con = sqlite3.connect(path)
    text = con.execute("SELECT ruleset_text FROM game ORDER BY id LIMIT 1").fetchone()[0]
    con.close()
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("unmelded = "))
    lines[n] = "unmelded = 0"
    _tamper(path, "UPDATE game SET ruleset_text = ? WHERE id = (SELECT MIN(id) FROM game)",
            ("\n".join(lines) + "\n",))
    r = ref_subprocess("verify", "--db", str(path), env={"COLUMNS": "80"})  # a terminal of 80 columns
    assert r.returncode == 8
    said = " ".join(r.stdout.split())
    assert f"column ruleset_text: line {n + 1} is 'unmelded = 0', the chain says 'unmelded = " in said
    assert "format = 1" not in r.stdout + r.stderr  # the rest of the file is not printed
    assert max(len(line) for line in (r.stdout + r.stderr).splitlines()) <= 80


def test_a_difference_in_long_texts_names_the_first_line():
    from rummyref.store.verify import _difference

    assert _difference("a", "b") == "is 'a', the chain says 'b'"
    assert _difference(3, 4) == "is 3, the chain says 4"
    assert _difference("x\ny\nz", "x\nq\nz") == "line 2 is 'y', the chain says 'q'"
    assert _difference("x\ny", "x\ny\nz") == "line 3 is (no such line), the chain says 'z' (2 lines, the chain's 3)"
    long = "v" * 100
    assert _difference(long, "w") == f"line 1 is {'v' * 60!r}..., the chain says 'w'"
