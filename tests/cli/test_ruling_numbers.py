"""`ref ruling` states the numbers of the rule set in force (audit "rulesets", finding 7): a game
made from a house's own rule set file is answered with the house's numbers, the numbers
`ref count` and `ref score-hand` use, and a `Numbers:` line names each one the file changes;
the built-in rule sets give the rulebooks' own words. (The placeholders: rummyref.rulebook.numbers.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json
from dbtest import ON_PG

from rummyref.errors import RulesetError
from rummyref.rulebook.book import BUILTIN_RULEBOOKS, load_rulebook, parse_rulebook
from rummyref.rulebook.numbers import PlaceholderError, fill
from rummyref.rules.ruleset import load_ruleset

DATA = Path(__file__).parents[2] / "data"


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stderr
    return r


def house_file(tmp_path: Path, base: str, *changes: tuple[str, str], name: str = "house.toml") -> Path:
    text = (DATA / "rulesets" / f"{base}.toml").read_text(encoding="utf-8")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def house_gin(tmp_path: Path) -> Path:
    """The audit's Gin copy: knock limit 5, a shutout triples (and, here, a game to 60)."""
    return house_file(tmp_path, "gin", ("knock_limit = 10", "knock_limit = 5"),
                      ("shutout_multiplier = 2", "shutout_multiplier = 3"), ("\ntarget = 100", "\ntarget = 60"))


def house_long_game(tmp_path: Path) -> Path:
    """The audit's Rummy 2,000,000 copy: a game to 100, an ace 20, 3 at the low end of a run."""
    return house_file(tmp_path, "rummy-2m", ("target = 2_000_000", "target = 100"), ("A = 15", "A = 20"),
                      ("ace_low_run_value = 1", "ace_low_run_value = 3"))


SHUTOUT_HOUSE = """\
G12 (gin) Shutout
If the loser did not win a single hand in the game, it is a shutout: the
winner's final score, with the game bonus and boxes, is tripled.
Verdict: ref triples the winner's final score when the loser has no box; the
multiplier is in the rule set file.
Numbers: the rule set of game 'gin' sets gin.shutout_multiplier = 3, where the
rulebook says 2.
Related: G10 The game is to 60; G11 Boxes
Enforced by: ref ruling

From gin: the rule set of game 'gin' (open now).
"""


def test_a_house_gin_game_is_ruled_with_its_own_numbers(tmp_path):
    ok("new-session", "--ruleset", str(house_gin(tmp_path)), "-p", "Ann,Bob")
    assert ok("ruling", "shutout").stdout == SHUTOUT_HOUSE
    knock = ok("ruling", "can I knock with 6").stdout.splitlines()
    assert knock[1] == "G4 (gin) Knocking: five or less"
    assert knock[2:5] == [
        "On their turn, after drawing, a player whose deadwood would be 5 or less after a",
        "discard may knock: they discard face down, lay their melds face up and show",
        "their deadwood. The hand ends there.",
    ]
    assert knock[5:7] == [
        "Verdict: A knock with more deadwood than the knock limit (5; in Oklahoma the",
        "first upcard's value, G13) is refused, with the knocker's best arrangement.",
    ]
    assert knock[9:11] == [
        "Numbers: the rule set of game 'gin' sets gin.knock_limit = 5, where the rulebook",
        "says 10.",
    ]
    # the same number count uses: the ruling and the count agree
    count = ok("count", "AS", "2S", "3S", "5H", "5D", "5C", "9H", "9D", "9C", "6H").stdout
    assert count.splitlines()[-1] == "go out    no (knock): deadwood 6, over the knock limit of 5 (G4)"
    g10 = ok("ruling", "G10").stdout.splitlines()
    assert g10[:4] == [
        "G10 (gin) The game is to 60",
        "Hand scores are added up. The game ends after the hand that brings a player to",
        "60 or more; that player wins the game and adds the game bonus of 100.",
        "Verdict: No hand can be recorded into a finished game. Only one player scores in",
    ]
    assert g10[5:7] == ["Numbers: the rule set of game 'gin' sets scoring.target = 60, where the rulebook",
                        "says 100."]


def test_a_house_gin_game_in_json_names_the_numbers_it_changes(tmp_path):
    ok("new-session", "--ruleset", str(house_gin(tmp_path)), "-p", "Ann,Bob")
    rule = ref_json("ruling", "G12")["rules"][0]
    assert rule["statement"].endswith("with the game bonus and boxes, is tripled.")
    assert rule["verdict"].startswith("ref triples the winner's final score")
    assert rule["numbers"] == [{"field": "gin.shutout_multiplier", "value": 3, "rulebook": 2}]
    see_also = ref_json("ruling", "G12")["rules"][1]
    assert (see_also["id"], see_also["title"]) == ("G10", "The game is to 60")
    assert see_also["numbers"] == [{"field": "scoring.target", "value": 60, "rulebook": 100}]
    assert "numbers" not in ref_json("ruling", "G2")["rules"][0]  # a rule stating no number


def test_a_house_long_game_copy_by_ruleset_states_its_target_and_ace(tmp_path):
    house = str(house_long_game(tmp_path))
    a7 = ok("ruling", "A7", "--ruleset", house).stdout
    assert a7.startswith("A7 (rummy-2m) The game ends past 100; the biggest total wins\n"
                         "The game is over once any player's total goes beyond the 100 mark.")
    assert "Verdict: When a hand leaves any total at 100 or more, the game ends with that\n" in a7
    assert "2,000,000" not in a7.replace("where\nthe rulebook says 2,000,000.", "")
    assert ("Numbers: the rule set 'rummy-2m' (--ruleset) sets scoring.target = 100, where\n"
            "the rulebook says 2,000,000.\n") in a7
    b5 = " ".join(ok("ruling", "B5", "--ruleset", house).stdout.split())
    assert "under the rummy-2m values an ace is worth 3 at the low end of a run but 20 in a match." in b5
    assert "(an ace 3 at the low end of a run, A-2-3, and 20 anywhere else)" in b5
    assert ("Numbers: the rule set 'rummy-2m' (--ruleset) sets cards.ace_low_run_value = 3 and "
            "cards.values.A = 20, where the rulebook says 1 and 15.") in b5
    assert " 15 " not in b5.split("Numbers:")[0]


def test_a_house_long_game_being_played_ends_where_its_ruling_says(tmp_path):
    ok("new-session", "--ruleset", str(house_long_game(tmp_path)))
    a7 = ok("ruling", "the game ends when").stdout
    assert "A7 (rummy-2m) The game ends past 100; the biggest total wins" in a7
    assert "Numbers: the rule set of game 'rummy-2m' sets scoring.target = 100" in a7


def test_a_number_said_in_words_keeps_them_and_the_numbers_line_gives_the_games(tmp_path):
    house = str(house_file(tmp_path, "gin", ('J = 10', 'J = 11')))
    g3 = ok("ruling", "G3", "--ruleset", house).stdout
    assert "jack, queen and king 10 each." in " ".join(g3.split())
    assert ("Numbers: the rule set 'gin' (--ruleset) sets cards.values.J = 11, where the rulebook says 10."
            in " ".join(g3.split()))


def test_open_games_with_different_numbers_keep_the_rulebooks_and_say_so(tmp_path):
    ok("new-session", "--game", "porch", "--ruleset", str(house_gin(tmp_path)), "-p", "Ann,Bob")
    ok("new-session", "--game", "gin1", "--ruleset", "gin", "-p", "Ann,Bob")
    lines = ok("ruling", "G12").stdout.splitlines()
    assert lines[2] == "winner's final score, with the game bonus and boxes, is doubled."
    assert lines[5] == "Numbers: the games open play different numbers here; --game picks one."
    assert "is tripled." in ok("ruling", "G12", "--game", "porch").stdout


def test_another_games_rule_keeps_its_rulebooks_numbers(tmp_path):
    ok("new-session", "--ruleset", str(house_gin(tmp_path)), "-p", "Ann,Bob")
    other = ok("ruling", "pizza's here").stdout  # Rummy 2,000,000's B2: not this game's rules
    assert other.startswith("B2 (rummy-2m)") and "Numbers:" not in other


@pytest.mark.parametrize("book", BUILTIN_RULEBOOKS)
def test_the_built_in_rule_sets_state_the_rulebooks_own_words(book):
    for rule in load_rulebook(book).rules:
        data = ref_json("ruling", f"{book}:{rule.id}", "--ruleset", book)["rules"][0]
        assert (data["title"], data["statement"], data["verdict"]) == (rule.title, rule.statement, rule.verdict)
        assert "numbers" not in data
        assert "Numbers:" not in ok("ruling", f"{book}:{rule.id}", "--ruleset", book).stdout
        assert "{" not in rule.title + rule.statement + rule.verdict


def test_the_rulebooks_are_read_with_their_own_rule_sets_numbers():
    g4 = load_rulebook("gin").rule("G4")
    assert g4.title == "Knocking: ten or less" and g4.written[0] == "Knocking: {gin.knock_limit:words} or less"
    assert load_rulebook("rummy-2m").rule("A7").title == "The game ends past 2,000,000; the biggest total wins"
    same, changed = g4.under(load_ruleset("gin").numbers())
    assert same is g4 and changed == []


@pytest.mark.parametrize(
    "text, numbers, expected",
    [
        ("{n}", {"n": 2_000_000}, "2,000,000"),
        ("{n:words} and {n+1:words}", {"n": 10}, "ten and eleven"),
        ("{n:Words}", {"n": 2}, "Two"),
        ("{n:words}", {"n": 21}, "21"),
        ("ref {n:doubles}; is {n:doubled}", {"n": 2}, "ref doubles; is doubled"),
        ("ref {n:doubles}; is {n:doubled}", {"n": 3}, "ref triples; is tripled"),
        ("ref {n:doubles}; is {n:doubled}", {"n": 5}, "ref multiplies by 5; is multiplied by 5"),
        ("no placeholder", {}, "no placeholder"),
    ],
)
def test_placeholders_are_filled(text, numbers, expected):
    assert fill(text, numbers) == expected


@pytest.mark.parametrize("text", ["{gin.nope}", "{scoring.target:loud}"])
def test_a_placeholder_naming_no_number_or_form_is_refused(text):
    with pytest.raises(PlaceholderError):
        fill(text, {"scoring.target": 100})


@pytest.mark.parametrize(
    "where, value, message",
    [
        ("verdict", "the limit is {gin.knock_limitt}",
         r"house.toml: rules\[3\] \(G4\).verdict: \{gin.knock_limitt\} names no number of the rule set"),
        ("numbers", ["gin.nope"], r"house.toml: rules\[3\] \(G4\).numbers: 'gin.nope' names no number"),
    ],
)
def test_a_rulebook_placeholder_naming_no_number_is_refused_with_file_and_field(where, value, message):
    import tomllib

    raw = tomllib.loads((DATA / "rulebooks" / "gin.toml").read_text(encoding="utf-8"))
    raw["rules"][3][where] = value
    with pytest.raises(RulesetError, match=message):
        parse_rulebook(raw, "house.toml")


_PROBE = ("import sys, json\nfrom rummyref.cli import main\nsys.argv = ['ref', 'ruling', 'G4', '--ruleset', sys.argv[1]]\n"
          "try:\n    main()\nexcept SystemExit:\n    pass\n"
          "sys.stderr.write('LOADED=' + json.dumps(sorted(m for m in sys.modules if m.startswith('rummyref.store') "
          "or m.split('.')[0] in ('sqlalchemy', 'sqlmodel'))))\n")


@pytest.mark.skipif(ON_PG, reason="no record file here")
def test_a_house_file_ruling_with_no_record_loads_no_database_layer(tmp_path):
    house = house_gin(tmp_path)
    env = dict(os.environ, RUMMYREF_CACHE=str(tmp_path / "cache"), RUMMYREF_DB=str(tmp_path / "none.db"),
               COLUMNS="100")
    proc = subprocess.run([sys.executable, "-c", _PROBE, str(house)], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.stdout.startswith("G4 (gin) Knocking: five or less\n"), proc.stderr
    assert json.loads(proc.stderr.rpartition("LOADED=")[2]) == []
