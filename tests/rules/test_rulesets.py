"""Rule sets are data: the built-ins load, a house file works, broken files are refused."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from rummyref.errors import ExitCode, NotFound, RulesetError
from rummyref.rules.resources import data_dir
from rummyref.rules.ruleset import BUILTIN, load_ruleset, parse_ruleset

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)


def test_builtins_load_with_the_spec_values():
    r2m = load_ruleset("rummy-2m")
    assert r2m.values[1:] == (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    assert r2m.ace_low_run_value == 1 and r2m.aces_high
    assert (r2m.wild_min, r2m.wild_max, r2m.wild_default, r2m.wild_unmelded) == (0, 2, 0, 15)
    assert r2m.target == 2_000_000 and r2m.default_players == ("Bill", "Ben", "Larry")
    assert r2m.closed_roster and r2m.full_rounds and r2m.wild_limit == 2

    simple = load_ruleset("simple-rummy")
    assert simple.values[1:] == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
    assert simple.wild_unmelded == 0 and simple.match_wins == 2 and simple.target is None
    assert simple.wild_limit == 7
    assert {v.name for v in simple.variations} == {
        "major", "minor", "go-out", "sequences", "three-card-draw", "four-sevens", "spread-out",
    }  # fmt: skip
    assert simple.variation("major").excludes == ("minor",)
    s1 = {(d.players_min, d.players_max): (d.cards_min, d.cards_max) for d in simple.deal}
    assert s1 == {(2, 3): (2, 10), (4, 4): (2, 7), (5, 6): (2, 5), (7, 7): (2, 3), (8, 10): (2, 2)}


def test_rule_sets_are_frozen():
    r = load_ruleset("rummy-2m")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 5  # type: ignore[misc]


def test_data_files_ship_with_the_package():
    for name in BUILTIN:
        assert (data_dir() / "rulesets" / f"{name}.toml").is_file()


def test_a_house_file_by_path(tmp_path):
    text = (data_dir() / "rulesets" / "rummy-2m.toml").read_text()
    text = text.replace('name = "rummy-2m"', 'name = "gin-house"').replace("aces_high = true", "aces_high = false")
    text = text.replace("A = 15", "A = 1").replace("J = 10, Q = 10, K = 10", "J = 10, Q = 10, K = 10")
    path = tmp_path / "gin.toml"
    path.write_text(text)
    house = load_ruleset(str(path))
    assert house.name == "gin-house" and not house.aces_high and house.values[1] == 1


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d["cards"]["values"].__setitem__("K", "ten"), "cards.values.K"),
        (lambda d: d["cards"]["values"].pop("Q"), "cards.values.Q"),
        (lambda d: d["cards"]["values"].__setitem__("Z", 3), "cards.values"),
        (lambda d: d["cards"].__setitem__("aces_high", "yes"), "cards.aces_high"),
        (lambda d: d["wildcards"].__setitem__("max", -1), "wildcards.max"),
        (lambda d: d["wildcards"].__setitem__("melded", "whatever"), "wildcards.melded"),
        (lambda d: d["scoring"].__setitem__("method", "vibes"), "scoring.method"),
        (lambda d: d["scoring"].__setitem__("going_out", "sometimes"), "scoring.going_out"),
        (lambda d: d["deal"][0].__setitem__("cards", [9, 2]), "deal[0].cards"),
        (lambda d: d.pop("cards"), "cards"),
        (lambda d: d.__setitem__("format", 99), "format"),
    ],
)
def test_a_broken_file_is_refused_with_its_path_and_field(tmp_path, edit, field):
    raw = tomllib.loads((data_dir() / "rulesets" / "rummy-2m.toml").read_text())
    edit(raw)
    with pytest.raises(RulesetError) as info:
        parse_ruleset(raw, "house.toml")
    assert str(info.value).startswith(f"house.toml: {field}")
    assert info.value.exit_code == ExitCode.BAD_INPUT


def test_unknown_names_and_missing_files(tmp_path):
    with pytest.raises(NotFound):
        load_ruleset("canasta")
    with pytest.raises(NotFound):
        load_ruleset(str(tmp_path / "nope.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml")
    with pytest.raises(RulesetError) as info:
        load_ruleset(str(bad))
    assert str(bad) in str(info.value)


def test_installed_copy_in_ci():
    """In CI the package is installed non-editable: data must come from inside it."""
    import os

    import rummyref

    if os.environ.get("CI") == "true":
        pkg = Path(rummyref.__file__).resolve().parent
        assert "site-packages" in str(pkg)
        assert data_dir() == pkg / "data"
    else:
        assert data_dir().is_dir()


@pytest.mark.parametrize("line, new, field, char", [
    ('name = "rummy-2m"', 'name = "house\\u001b[31m"', "name", "U+001B ESCAPE"),
    ('session_word = "Rummy Night"', 'session_word = "Rummy\\nNight"', "house.session_word", "U+000A LINE FEED"),
    ('session_word = "Rummy Night"', 'session_word = "Rummy \\u202eNight"', "house.session_word", "U+202E"),
])
def test_a_house_file_whose_texts_would_break_a_line_or_drive_the_terminal_is_refused(tmp_path, line, new, field,
                                                                                      char):
    """Audit, stop 35: a rule set's name, title or words reached the terminal raw (an escape
    turned it red, a newline split the standings' lines)."""
    text = (data_dir() / "rulesets" / "rummy-2m.toml").read_text(encoding="utf-8")
    assert line in text
    path = tmp_path / "house.toml"
    path.write_text(text.replace(line, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as exc:
        load_ruleset(str(path))
    assert f"{path}: {field}: contains {char}" in exc.value.message
    assert exc.value.exit_code == ExitCode.BAD_INPUT


def test_an_import_carrying_such_a_rule_set_is_refused_and_writes_nothing(tmp_path, monkeypatch):
    """The text kept with a game is checked where an export comes in (exit 3), as a house's file is."""
    from cli_helpers import ref

    from rummyref.rules import ruleset

    text = (data_dir() / "rulesets" / "rummy-2m.toml").read_text(encoding="utf-8")
    house = tmp_path / "house.toml"
    house.write_text(text.replace('name = "rummy-2m"', 'name = "house\\u001b[31m"', 1), encoding="utf-8")
    src, copy, out = tmp_path / "src.db", tmp_path / "copy.db", tmp_path / "e.json"
    with monkeypatch.context() as m:  # a record an older ref let the file into
        m.setattr(ruleset, "check_text", lambda raw, source, at="": None)
        ruleset._load.cache_clear()
        assert ref("--db", str(src), "new-session", "--game", "friday", "--ruleset", str(house)).exit_code == 0
        assert ref("--db", str(src), "export", "-o", str(out)).exit_code == 0
    ruleset._load.cache_clear()
    r = ref("--db", str(copy), "import", str(out))
    assert r.exit_code == 3, r.stdout + r.stderr
    assert "contains U+001B ESCAPE" in " ".join(r.stderr.split())
    assert not copy.exists()
