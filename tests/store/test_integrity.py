"""``ref verify`` asks the database too (issue 13): a hash chain cannot see a broken index or a
missing constraint or trigger. SQLite files edited the way a careless tool would edit them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import chain_record
import pytest
from cli_helpers import ref


@pytest.fixture
def built(tmp_path) -> Path:
    db = tmp_path / "r.db"
    chain_record.build(db)
    return db


def test_a_unique_constraint_removed_and_a_second_game_of_one_name_let_in_is_caught(built):
    con = sqlite3.connect(built)
    con.execute("PRAGMA writable_schema = ON")
    con.execute("UPDATE sqlite_master SET sql = replace(sql, 'name TEXT NOT NULL UNIQUE', 'name TEXT NOT NULL') "
                "WHERE name = 'game'")
    con.execute("DELETE FROM sqlite_master WHERE name = 'sqlite_autoindex_game_1'")
    con.commit()
    con.close()
    con = sqlite3.connect(built)
    con.execute("INSERT INTO game (name, ruleset, ruleset_text, created_at) "
                "SELECT name, ruleset, ruleset_text, created_at FROM game WHERE name = 'long'")
    con.commit()
    con.close()
    r = ref("verify", "--db", str(built))
    assert r.exit_code == 8
    assert "SQLite's integrity check" in r.stdout and "the constraint UNIQUE (name) is missing" in r.stdout


@pytest.mark.parametrize("trigger", ["entry_append_only_update", "entry_append_only_delete"])
def test_a_dropped_append_only_trigger_is_caught(built, trigger):
    con = sqlite3.connect(built)
    con.execute(f"DROP TRIGGER {trigger}")
    con.commit()
    con.close()
    r = ref("verify", "--db", str(built))
    assert r.exit_code == 8 and f"the append-only trigger {trigger} is missing" in r.stdout


def test_a_result_row_pointing_at_no_entry_is_caught_by_the_foreign_key_check(built):
    con = sqlite3.connect(built)  # foreign keys are not enforced on a plain connection
    con.execute("UPDATE result SET entry_id = 9999 WHERE id = (SELECT MIN(id) FROM result)")
    con.commit()
    con.close()
    r = ref("verify", "--db", str(built), "--json")
    assert r.exit_code == 8
    assert "result row" in r.stdout and "points at no entry" in r.stdout
