"""A house's own rule set file (audit of stop 39, rulesets findings 5 and 8) and Gin's JSON:

1. the new-game line shows the rule set's own ``title`` (built-ins print what they always did);
   ``[gin] dead_hand_stock`` is informational (ref never sees the stock) but still checked;
2. a house file may take a built-in's name only when it is a game of that built-in's kind: a
   long game named ``gin`` is refused (exit 3, nothing written); a record that already keeps
   such a rule set stays readable;
3. Gin's ``stats --json`` gives ``best_hand`` null to a player who won no hand, and a void's
   (or a dead hand's) ``deadwood`` and ``layoffs`` are null: those facts do not exist.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

from rummyref.rules.ruleset import builtin_path

KNOCK = ["--hand", "Ann=AS 2S 3S 5H 5D 5C 9H 9D 9C 4H", "--hand", "Bob=KS KH QC QD JC 8S 7D 6C 2C 3D",
         "--knock", "Ann"]


def house(tmp_path: Path, builtin: str, *changes: tuple[str, str], file: str = "house.toml") -> str:
    """A copy of a built-in's file with each (old line, new line) changed."""
    text = builtin_path(builtin).read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / file
    path.write_text(text, encoding="utf-8")
    return str(path)


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r


def first_line(*args: str) -> str:
    return ok(*args).stdout.splitlines()[0]


# -- 1. the title -------------------------------------------------------------------------------


def test_a_house_gin_file_s_title_is_on_the_new_game_line(tmp_path):
    path = house(tmp_path, "gin", ('title = "Gin Rummy"', 'title = "House Gin"'), ("target = 100", "target = 60"))
    assert first_line("new-session", "--ruleset", path, "--players", "Ann,Bob") == (
        "New game gin (House Gin to 60): Ann v Bob.")


def test_a_house_simple_rummy_file_s_title_is_on_the_new_game_line(tmp_path):
    path = house(tmp_path, "simple-rummy", ('name = "simple-rummy"', 'name = "hsr"'),
                 ('title = "Simple Rummy"', 'title = "House Simple"'))
    assert first_line("new-session", "--ruleset", path, "--players", "A,B,C") == "New game hsr (House Simple)."


@pytest.mark.parametrize("ruleset, players, line", [
    ("gin", "Ann,Bob", "New game gin (Gin Rummy to 100): Ann v Bob."),
    ("simple-rummy", "A,B,C", "New game simple-rummy (Simple Rummy)."),
    ("rummy-2m", "Bill,Ben,Larry", "New game rummy-2m (rummy-2m, target 2,000,000, 0 WILDCARDs)"),
])
def test_the_built_ins_print_what_they_always_did(ruleset, players, line):
    assert first_line("new-session", "--ruleset", ruleset, "--players", players) == line


def test_dead_hand_stock_changes_nothing_ref_does_but_is_still_checked(tmp_path):
    """ref never sees the stock: the table says a hand is dead (``--dead``), ref records it."""
    path = house(tmp_path, "gin", ("dead_hand_stock = 2", "dead_hand_stock = 5"))
    ok("new-session", "--ruleset", path, "--players", "Ann,Bob")
    assert ok("score-hand", "--dead").stdout.splitlines()[:2] == [
        "Hand 1 of gin (session 1, entry 3)", "Dead hand: nobody scores (G9)."]
    bad = house(tmp_path, "gin", ("dead_hand_stock = 2", "dead_hand_stock = 53"), file="bad.toml")
    db = tmp_path / "bad.db"
    r = ref("new-session", "--db", str(db), "--ruleset", bad, "--players", "Ann,Bob")
    assert (r.exit_code, r.stdout) == (3, "")
    assert " ".join(r.stderr.split()) == (
        f"error: {bad}: gin.dead_hand_stock: expected an integer from 0 to 52, got 53")
    assert not db.exists()


# -- 2. a built-in's name -----------------------------------------------------------------------


@pytest.mark.parametrize("builtin, name, players, words", [
    ("rummy-2m", "gin", "Bill,Ben,Larry",
     "name: 'gin' is the built-in Gin Rummy's name, a gin game, and this file's scoring.method is "
     "melded-minus-held a melded-minus-held rule set takes a name of its own, or the name of a built-in "
     "of its kind (rummy-2m or rummy-500), never simple-rummy or gin"),
    ("rummy-2m", "simple-rummy", "Bill,Ben,Larry",
     "name: 'simple-rummy' is the built-in Simple Rummy's name, a low-count game, and this file's "
     "scoring.method is melded-minus-held a melded-minus-held rule set takes a name of its own, or the "
     "name of a built-in of its kind (rummy-2m or rummy-500), never simple-rummy or gin"),
    ("gin", "rummy-2m", "Ann,Bob",
     "name: 'rummy-2m' is the built-in Rummy 2,000,000's name, a melded-minus-held game, and this "
     "file's scoring.method is gin a gin rule set takes a name of its own, or the name of a built-in of "
     "its kind (gin), never rummy-2m, simple-rummy or rummy-500"),
    ("simple-rummy", "rummy-500", "A,B,C",
     "name: 'rummy-500' is the built-in 500 Rum's name, a melded-minus-held game, and this file's "
     "scoring.method is low-count a low-count rule set takes a name of its own, or the name of a "
     "built-in of its kind (simple-rummy), never rummy-2m, rummy-500 or gin"),
])
def test_a_house_file_taking_the_name_of_another_kind_of_game_is_refused(tmp_path, builtin, name, players,
                                                                         words):
    path = house(tmp_path, builtin, (f'name = "{builtin}"', f'name = "{name}"'))
    db = tmp_path / "t.db"
    r = ref("new-session", "--db", str(db), "--ruleset", path, "--players", players)
    assert (r.exit_code, r.stdout) == (3, "")
    # blanks and line ends aside: a path as long as the line is folded where the line ends
    assert "".join(r.stderr.split()) == "".join(f"error: {path}: {words}".split())
    assert not db.exists()
    r = ref("count", "--db", str(db), "--ruleset", path, "AS", "2S", "3S")  # wherever the file is read
    assert (r.exit_code, r.stdout) == (3, "")
    assert not db.exists()


@pytest.mark.parametrize("builtin, name, players, line", [
    ("rummy-2m", "rummy-2m", "Bill,Ben,Larry", "New game rummy-2m (rummy-2m, target 100, 0 WILDCARDs)"),
    ("rummy-2m", "rummy-500", "Bill,Ben,Larry", "New game rummy-500 (rummy-500, target 100, 0 WILDCARDs)"),
    ("gin", "gin", "Ann,Bob", "New game gin (Gin Rummy to 100): Ann v Bob."),
    ("simple-rummy", "simple-rummy", "A,B,C", "New game simple-rummy (Simple Rummy)."),
])
def test_a_house_copy_may_keep_a_built_in_s_name_of_its_own_kind(tmp_path, builtin, name, players, line):
    path = house(tmp_path, builtin, (f'name = "{builtin}"', f'name = "{name}"'),
                 *([("target = 2_000_000", "target = 100")] if builtin == "rummy-2m" else []))
    assert first_line("new-session", "--ruleset", path, "--players", players) == line


def test_a_record_already_keeping_such_a_rule_set_stays_readable(tmp_path, monkeypatch):
    """Only a file coming in is refused: a game an older ref let in is read as it was accepted."""
    from rummyref.rules import ruleset

    path = house(tmp_path, "rummy-2m", ('name = "rummy-2m"', 'name = "gin"'))
    with monkeypatch.context() as m:  # a record an older ref wrote
        m.setattr(ruleset, "_own_kind_name", lambda rs, top: None)
        ok("new-session", "--ruleset", path)
    ruleset._load.cache_clear()  # the file read again, as a new game would read it
    assert ref_json("standings")["ruleset"] == "gin"
    hand = ok("score-hand", "--points", "Bill=10", "--points", "Ben=50", "--points", "Larry=0").stdout
    assert hand.splitlines()[0].startswith("Hand 1 of gin:")
    assert first_line("stats") == "Statistics of gin (gin): 1 hand in force, 1 Rummy Night (0 closed)"
    assert ok("verify").exit_code == 0
    r = ref("new-session", "--ruleset", path, "--game", "other")  # a new game from that file: refused
    assert (r.exit_code, r.stdout) == (3, "")
    assert f"error: {path}: name: 'gin' is the built-in Gin Rummy's name" in " ".join(r.stderr.split())


# -- 3. Gin's JSON: what does not exist is null ------------------------------------------------


def test_gin_best_hand_is_null_for_a_player_who_won_no_hand():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *KNOCK)  # Ann 72
    ok("score-hand", "--dead")
    players = {p["name"]: p for p in ref_json("stats")["players"]}
    assert (players["Ann"]["best_hand"], players["Ann"]["hands_won"]) == ({"value": 72, "hand": 1, "night": 1}, 1)
    assert (players["Bob"]["best_hand"], players["Bob"]["hands_won"], players["Bob"]["hands"]) == (None, 0, 2)


def test_gin_void_and_dead_hand_have_no_deadwood_and_no_layoffs():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    dead = ref_json("score-hand", "--dead")
    assert {k: dead[k] for k in ("result", "winner", "points", "deadwood", "layoffs", "knock_limit")} == {
        "result": "dead", "winner": None, "points": 0, "deadwood": None, "layoffs": None, "knock_limit": 10}
    knock = ref_json("score-hand", *KNOCK)
    assert (knock["deadwood"], knock["layoffs"]) == ({"Ann": 4, "Bob": 76}, [])
    void = ref_json("void", "2", "--reason", "misdeal")
    assert {k: void[k] for k in ("result", "winner", "points", "deadwood", "layoffs", "knock_limit")} == {
        "result": None, "winner": None, "points": 0, "deadwood": None, "layoffs": None, "knock_limit": None}
