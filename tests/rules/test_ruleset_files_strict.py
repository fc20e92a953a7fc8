"""A house's rule set file coming in (stop 38's audit): a field ref does not read, a long game
with no target, a Gin deal missing for its players, a low-count game with no match, and Gin's
numbers past what a record holds are refused (exit 3) naming the file and the field, before
anything is written; a rule set a record already keeps is read as it was accepted."""

from __future__ import annotations

import re
import tomllib

import pytest
from cli_helpers import ref

from rummyref.errors import RulesetError
from rummyref.rules.ruleset import BUILTIN, builtin_path, load_ruleset, parse_ruleset


def house(tmp_path, name: str, edit) -> str:
    text = edit(builtin_path(name).read_text(encoding="utf-8"))
    path = tmp_path / f"house-{name}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_every_shipped_file_passes_the_strict_reading(name):
    parse_ruleset(tomllib.loads(builtin_path(name).read_text(encoding="utf-8")), name, strict=True)


@pytest.mark.parametrize("name, edit, field", [
    ("rummy-500", lambda t: re.sub(r"(?m)^target = 500$", "targett = 300", t), "scoring.targett"),
    ("gin", lambda t: t.replace("knock_limit = 10", "knock_limit = 10\nknock_limt = 5"), "gin.knock_limt"),
    ("rummy-2m", lambda t: t + "\n[oops]\nx = 1\n", "oops"),
])
def test_a_field_ref_does_not_read_is_refused_naming_it(tmp_path, name, edit, field):
    path = house(tmp_path, name, edit)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert info.value.message == f"{path}: {field}: ref reads no such field"
    assert "docs/reference/ruleset-format.md" in (info.value.hint or "")


@pytest.mark.parametrize("name, edit, words", [
    ("rummy-2m", lambda t: re.sub(r"(?m)^target = 2_000_000\n", "", t),
     "scoring.target: expected an integer: the total that ends a long game, got '<missing>'"),
    ("simple-rummy", lambda t: re.sub(r"(?m)^match_wins = 2\n", "", t),
     "scoring.match_wins: expected an integer from 1: the game wins that take a match, got '<missing>'"),
    ("gin", lambda t: t.replace("players = [2, 2]", "players = [3, 3]"),
     "deal: no [[deal]] entry for 2 players (players.min 2 to players.max 2)"),
    ("gin", lambda t: t.replace("gin_bonus = 25", "gin_bonus = 99999999999999999999"),
     "gin.gin_bonus: expected an integer from 0 to 1000, got 99999999999999999999"),
    ("gin", lambda t: t.replace("shutout_multiplier = 2", "shutout_multiplier = 1000000000000"),
     "gin.shutout_multiplier: expected an integer from 1 to 10, got 1000000000000"),
    ("gin", lambda t: t.replace("game_bonus = 100", "game_bonus = 9223372036854775807"),
     "gin.game_bonus: expected an integer from 0 to 10000, got 9223372036854775807"),
])
def test_a_game_that_could_not_be_played_is_refused_before_anything_is_written(tmp_path, name, edit, words, monkeypatch):
    path = house(tmp_path, name, edit)
    assert open(path).read() != builtin_path(name).read_text(encoding="utf-8"), "the edit changed nothing"
    db = tmp_path / "t.db"
    players = {"gin": "Ann,Bob", "simple-rummy": "Ann,Bob,Cy"}.get(name, "Bill,Ben,Larry")
    result = ref("new-session", "--db", str(db), "--ruleset", path, "--players", players)
    assert (result.exit_code, result.stdout) == (3, "")
    # blanks and line ends aside: a path as long as the line is folded where the line ends
    assert "".join(result.stderr.split()).startswith("".join(f"error: {path}: {words}".split()))
    assert not db.exists()


def test_a_rule_set_a_record_keeps_is_read_as_it_was_accepted():
    """Stored rule sets are parsed without ``strict``: an older record's game stays readable."""
    raw = tomllib.loads(builtin_path("gin").read_text(encoding="utf-8"))
    raw["gin"]["gin_bonus"] = 50_000
    raw["scoring"]["typo"] = 1
    assert parse_ruleset(raw, "kept").gin.gin_bonus == 50_000
    with pytest.raises(RulesetError):
        parse_ruleset(raw, "coming in", strict=True)
