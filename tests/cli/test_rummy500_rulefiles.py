"""500 Rum and a house's rule set file (audit rummy500-rulefiles, stop 48): findings 1, 4, 7, 8
and 11. ``--ruleset`` for an existing game is never dropped without a word; a ruling states no
number the file does not have; 500 Rum cites its own R3 and no Rummy 2,000,000 rule; points out
of range name the game's own deck; the rulebook says "reaches 500"."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import ref, ref_json, ref_subprocess

from rummyref.rules.resources import data_dir

BUILTIN_500 = data_dir() / "rulesets" / "rummy-500.toml"


def flat(text: str) -> str:
    return " ".join(text.split())


def house_file(tmp_path: Path, name: str, *changes: tuple[str, str]) -> str:
    """A copy of 500 Rum's file named ``name``, with each (old, new) line changed."""
    text = BUILTIN_500.read_text().replace('name = "rummy-500"', f'name = "{name}"')
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"{name}-{len(list(tmp_path.iterdir()))}.toml"
    path.write_text(text)
    return str(path)


@pytest.fixture
def db(record):
    yield record.spec


# -- 1. --ruleset for an existing game -------------------------------------------------------


def test_a_house_file_named_rummy_2m_is_not_silently_dropped_on_the_built_in_game(tmp_path, db):
    assert ref("new-session", "--db", db).exit_code == 0
    for _ in range(3):  # a full round (A4)
        assert ref("score-hand", "--db", db, "--points", "Bill=1", "--points", "Ben=2",
                   "--points", "Larry=3").exit_code == 0
    assert ref("end-session", "--db", db).exit_code == 0
    house = house_file(tmp_path, "rummy-2m", ("target = 500", "target = 300"))
    r = ref("new-session", "--db", db, "--ruleset", house, "--players", "Ann,Bob")
    assert r.exit_code == 4
    said = flat(r.stderr)
    assert said.startswith("refused (A1): GEDDOWWWT!! Ann is not on the roster of rummy-2m")
    assert (f"game rummy-2m already exists and keeps the rules of rummy-2m it was created with; --ruleset {house} "
            "is named rummy-2m, but its rules differ from them: they apply to a new game: --game NEW-NAME "
            f"--ruleset {house}") in said
    r = ref("new-session", "--db", db, "--ruleset", house)
    assert r.exit_code == 0 and "Rummy Night 2 of rummy-2m is open" in r.stdout
    assert "game rummy-2m already exists and keeps the rules of rummy-2m" in flat(r.stderr)
    assert ref_json("standings", "--db", db)["target"] == 2_000_000  # the game keeps its own rules


def test_a_file_edited_since_the_game_began_is_said_in_new_session_and_night(tmp_path, db):
    h = tmp_path / "h.toml"
    h.write_text(BUILTIN_500.read_text().replace('name = "rummy-500"', 'name = "h"'))
    assert ref("new-session", "--db", db, "--ruleset", str(h), "--game", "g", "--players", "Ann,Bob").exit_code == 0
    assert ref("end-session", "--db", db, "--game", "g").exit_code == 0
    h.write_text(h.read_text().replace("target = 500", "target = 250"))
    note = f"game g already exists and keeps the rules of h it was created with; --ruleset {h} is named h"
    r = ref_subprocess("--db", db, "new-session", "--game", "g", "--ruleset", str(h))  # the file read afresh
    assert r.returncode == 0 and "Session 2 of g is open" in r.stdout
    assert note in flat(r.stderr)
    r = ref_subprocess("--db", db, "night", "--game", "g", "--ruleset", str(h), input="quit\n")  # resumed
    assert r.returncode == 0, r.stderr
    assert note in flat(r.stderr)
    # the same file unchanged says nothing
    h.write_text(h.read_text().replace("target = 250", "target = 500"))
    r = ref_subprocess("--db", db, "night", "--game", "g", "--ruleset", str(h), input="quit\n")
    assert r.returncode == 0 and "already exists" not in r.stderr


def test_night_refuses_another_rule_set_for_an_open_game_as_new_session_does(db):
    assert ref("new-session", "--db", db, "--ruleset", "rummy-500", "--game", "g", "--players", "Ann,Bob").exit_code == 0
    r = ref_subprocess("--db", db, "night", "--game", "g", "--ruleset", "rummy-2m", input="quit\n")
    assert r.returncode == 3
    assert flat(r.stderr).startswith("error: game g is played under rummy-500, not rummy-2m")
    assert "resumed" not in r.stdout
    assert ref("end-session", "--db", db, "--game", "g").exit_code == 0
    r = ref("new-session", "--db", db, "--game", "g", "--ruleset", "rummy-2m")
    assert r.exit_code == 3 and "game g is played under rummy-500, not rummy-2m" in flat(r.stderr)


# -- 4. a ruling states only the file's numbers ------------------------------------------------


def test_a_ruling_states_no_two_player_deal_for_a_file_that_deals_none(tmp_path):
    f = house_file(tmp_path, "min3", ("players = [2, 2]\ncards = [13, 13]\ndefault = 13",
                                      "players = [3, 4]\ncards = [10, 10]\ndefault = 10"),
                   ("players = [3, 8]", "players = [5, 8]"), ("min = 2\nmax = 8", "min = 3\nmax = 8"))
    r = ref("ruling", "R4", "--ruleset", f)
    assert r.exit_code == 0, r.stderr
    text = flat(r.stdout)
    assert "With two" not in text and "13" not in text.split("Numbers:")[0]
    assert text.startswith("R4 (rummy-500) Players and the deal Three to eight players. The deal passes to the "
                           "left after every hand.")
    assert "sets players.min = 3, deal.2 = none and deal.3 = 10, where the rulebook says 2, 13 and 7." in text


def test_a_ruling_names_a_changed_melded_joker_and_says_what_it_scores(tmp_path):
    f = house_file(tmp_path, "joker25", ('melded = "represented"', "melded = 25"), ("unmelded = 15", "unmelded = 25"))
    text = flat(ref("ruling", "R1", "--ruleset", f).stdout)
    assert "A melded joker counts 25. A joker left in hand costs 25." in text
    assert "as the card it stands for" not in text
    assert ("sets wildcards.melded = 25 and wildcards.unmelded = 25, where the rulebook says represented and 15."
            in text)
    doc = ref_json("ruling", "R1", "--ruleset", f)
    assert {"field": "wildcards.melded", "value": 25, "rulebook": None} in doc["rules"][0]["numbers"]
    # 500 Rum's own R1 reads as before
    own = flat(ref("ruling", "R1", "--ruleset", "rummy-500").stdout)
    assert "A melded joker counts as the card it stands for. A joker left in hand costs 15." in own
    assert "Numbers:" not in own


# -- 7. 500 Rum cites R3, never Rummy 2,000,000's rules ----------------------------------------


def test_500_rum_cites_r3_on_game_over_and_on_a_finished_games_refusals(db):
    assert ref("new-session", "--db", db, "--ruleset", "rummy-500", "--game", "t", "--players", "Ann,Bob").exit_code == 0
    assert ref("score-hand", "--db", db, "--points", "Ann=300", "--points", "Bob=0").exit_code == 0
    r = ref("score-hand", "--db", db, "--points", "Ann=250", "--points", "Bob=0")
    assert "GAME OVER (R3): Ann wins with 550." in r.stdout
    r = ref("score-hand", "--db", db, "--points", "Ann=1", "--points", "Bob=1")
    assert r.exit_code == 4 and flat(r.stderr).startswith("refused (R3): game t is over: Ann won")
    r = ref("amend", "1", "--db", db, "--points", "Ann=500", "--points", "Bob=0", "--reason", "x")
    assert r.exit_code == 4 and flat(r.stderr).startswith("refused (R3): amending hand 1 would end the game")
    assert "GAME OVER (R3): Ann wins." in ref("standings", "--db", db).stdout
    r = ref_subprocess("--db", db, "night", "--game", "t", input="void 2\nmisdeal\n\nquit\n")
    assert "Why? (the reason is kept in the history):" in r.stderr and "B7" not in r.stderr + r.stdout


def test_a_rule_set_file_with_no_target_cites_no_a7(tmp_path):
    f = house_file(tmp_path, "nt", ("target = 500\n", ""))
    r = ref("count", "2H", "3H", "4H", "--ruleset", f)
    assert r.exit_code == 3
    assert "scoring.target: expected an integer: the total that ends a long game, got" in flat(r.stderr)
    assert "A7" not in r.stderr


def test_rummy_2m_still_cites_b7(db):
    assert ref("new-session", "--db", db).exit_code == 0
    assert ref("score-hand", "--db", db, "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3").exit_code == 0
    r = ref_subprocess("--db", db, "night", input="void 1\nmisdeal\n\nquit\n")
    assert "Why? (the reason is kept in the history, B7):" in r.stderr


# -- 8. the points hint names the game's own deck ----------------------------------------------


@pytest.mark.parametrize("ruleset, jokers, deck", [("rummy-500", "0", "396 points in this game of 500 Rum"),
                                                  ("rummy-500", "2", "426 points in this game of 500 Rum"),
                                                  ("rummy-2m", "2", "426 points in this game of Rummy 2,000,000")])
def test_points_out_of_range_name_the_games_own_deck(db, ruleset, jokers, deck):
    players = "Ann,Bob" if ruleset == "rummy-500" else "Bill,Ben,Larry"
    assert ref("new-session", "--db", db, "--ruleset", ruleset, "--game", "l", "--players", players,
               "--wildcards", jokers).exit_code == 0
    first = players.split(",")[0]
    r = ref("score-hand", "--db", db, "--points", f"{first}=10001", *[a for n in players.split(",")[1:]
                                                                       for a in ("--points", f"{n}=0")])
    assert r.exit_code == 3
    said = flat(r.stderr)
    assert f"{first}'s points: 10001 is out of range; give -10,000 to 10,000 points" in said
    assert f"a hand is never worth more than the whole deck ({deck}); no rule set's deck may be worth over 10,000" \
        in said


# -- 11. "reaches 500" ------------------------------------------------------------------------


def test_500_rum_rulebook_says_the_game_ends_at_500_not_past_it():
    from rummyref.rulebook.book import load_rulebook

    book = load_rulebook("rummy-500")
    assert book.rule("R3").title == "The game ends at 500"
    assert "past 500" not in book.intro and "the first total to reach 500 wins" in flat(book.intro)
