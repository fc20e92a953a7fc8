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
