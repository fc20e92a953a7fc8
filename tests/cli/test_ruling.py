"""`ref ruling` at the command line (issue 14, item 7): it answers from the game being played,
says which rule set answered, shows no search scores, says when it is not sure, and logs
its misses locally. (How well the search finds rules: tests/rulebook/test_ruling_search.py.)"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json, ref_subprocess
from dbtest import ON_PG

from rummyref.rulebook.book import Hit, load_rulebook, unsure
from rummyref.rulebook.misses import line
from rummyref.store.location import short

NO_GAME = "From rummy-2m and simple-rummy: no game is recorded yet (--ruleset picks one)."


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stderr
    return r


def rummy_night() -> None:
    ok("new-session")  # the house game, rummy-2m, Bill Ben Larry


def simple_rummy_table() -> None:
    ok("new-session", "--game", "friday", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")


def log_lines() -> list[list[str]]:
    path = Path(os.environ["RUMMYREF_RULING_LOG"])
    return [row.split("\t") for row in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


# -- which rule set answers -------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, expected, source_line",
    [
        (rummy_night, "A3", "From rummy-2m: the rule set of game 'rummy-2m' (open now)."),
        (simple_rummy_table, "S3", "From simple-rummy: the rule set of game 'friday' (open now)."),
    ],
    ids=["rummy-night", "simple-rummy"],
)
def test_who_deals_first_answers_from_the_open_game(table, expected, source_line):
    table()
    result = ok("ruling", "who deals first")
    lines = result.stdout.splitlines()
    assert expected in lines[0] or expected in lines[1]  # after "Not sure; maybe:" when unsure
    assert lines[-1] == source_line
    data = ref_json("ruling", "who deals first")
    assert data["rules"][0]["id"] == expected
    assert {r["ruleset"] for r in data["rules"]} == {data["answered_from"]["rulebooks"][0]}
    assert data["answered_from"]["source"] == "game"


def test_the_game_played_last_answers_when_none_is_open():
    simple_rummy_table()
    ok("end-session", "--game", "friday")
    data = ref_json("ruling", "who deals first")
    assert data["rules"][0]["id"] == "S3"
    assert data["answered_from"] == {"rulebooks": ["simple-rummy"], "source": "game", "game": "friday"}
    assert ok("ruling", "who deals first").stdout.splitlines()[-1] == (
        "From simple-rummy: the rule set of game 'friday' (played last).")


def test_ruleset_overrides_the_open_game():
    rummy_night()
    data = ref_json("ruling", "who deals first", "--ruleset", "simple-rummy")
    assert data["rules"][0]["id"] == "S3"
    assert data["answered_from"] == {"rulebooks": ["simple-rummy"], "source": "ruleset", "game": None}
    assert ok("ruling", "who deals first", "-r", "simple-rummy").stdout.splitlines()[-1] == (
        "From simple-rummy: as --ruleset asked.")


def test_game_option_names_the_game():
    rummy_night()
    simple_rummy_table()  # two open: --game decides
    assert ref_json("ruling", "who deals first", "--game", "friday")["rules"][0]["id"] == "S3"
    assert ref_json("ruling", "who deals first", "--game", "rummy-2m")["rules"][0]["id"] == "A3"


def test_several_open_games_answer_from_their_own_rulebooks_and_say_so():
    rummy_night()
    simple_rummy_table()
    result = ok("ruling", "pizza's here")
    assert " ".join(result.stdout.splitlines()[-2:]) == (
        "From rummy-2m and simple-rummy: the rule sets of the games open (rummy-2m and friday; --game picks one).")
    assert ref_json("ruling", "pizza's here")["answered_from"] == {
        "rulebooks": ["rummy-2m", "simple-rummy"], "source": "open", "game": None}


def test_a_gin_table_and_a_simple_rummy_table_open_search_gin_not_the_house_game():
    """Audit, stop 35: with Gin and Simple Rummy open, the default pair (Rummy 2,000,000 and
    Simple Rummy) answered, never Gin: "how much is gin worth" was a sure S13."""
    gin_table()
    simple_rummy_table()
    data = ref_json("ruling", "how much is gin worth")
    assert data["rules"][0]["id"] == "G5"
    assert data["answered_from"] == {"rulebooks": ["gin", "simple-rummy"], "source": "open", "game": None}
    other = ok("ruling", "pizza's here")  # nothing in either: the house game's book, and it says so
    assert other.stdout.startswith("B2 (rummy-2m)")
    assert other.stdout.splitlines()[-1] == "From rummy-2m: nothing in gin or simple-rummy (the games open) matches."


def test_no_record_searches_both_default_rulebooks():
    result = ok("ruling", "pizza's here")
    assert result.stdout.splitlines()[-1] == NO_GAME
    assert ref_json("ruling", "pizza's here")["answered_from"] == {
        "rulebooks": ["rummy-2m", "simple-rummy"], "source": "default", "game": None}


def test_a_question_of_the_other_game_is_answered_from_the_default_books():
    simple_rummy_table()  # nothing in Simple Rummy is about Pete's
    result = ok("ruling", "pizza's here")
    assert result.stdout.startswith("B2 (rummy-2m)")
    assert result.stdout.splitlines()[-1] == (
        "From rummy-2m: nothing in simple-rummy (game 'friday') matches.")


def gin_table() -> None:
    ok("new-session", "--game", "gin1", "--ruleset", "gin", "--players", "Ann,Bob")


def house_gin_table(tmp_path: Path) -> Path:
    """A house copy of the Gin rule set that names no rulebook (its name is its rulebook)."""
    text = (Path(__file__).parents[2] / "data" / "rulesets" / "gin.toml").read_text(encoding="utf-8")
    house = tmp_path / "house.toml"
    house.write_text(text.replace('name = "gin"', 'name = "house"', 1).replace('rulebook = "gin"\n', ""), encoding="utf-8")
    ok("new-session", "--game", "porch", "--ruleset", str(house), "--players", "Ann,Bob")
    return house


@pytest.mark.parametrize(
    "table, args, message, searched",
    [
        (gin_table, [], "no rule of gin, rummy-2m or simple-rummy matches 'xyzzy plugh'",
         "searched gin: the rule set of game 'gin1' (open now); then rummy-2m and simple-rummy."),
        (rummy_night, [], "no rule of rummy-2m or simple-rummy matches 'xyzzy plugh'",
         "searched rummy-2m: the rule set of game 'rummy-2m' (open now); then simple-rummy."),
        (simple_rummy_table, [], "no rule of simple-rummy or rummy-2m matches 'xyzzy plugh'",
         "searched simple-rummy: the rule set of game 'friday' (open now); then rummy-2m."),
        (lambda: None, [], "no rule of rummy-2m or simple-rummy matches 'xyzzy plugh'",
         "searched rummy-2m and simple-rummy: no game is recorded yet (--ruleset picks one)."),
        (rummy_night, ["--ruleset", "gin"], "no rule of gin matches 'xyzzy plugh'",
         "searched gin, as --ruleset asked."),
    ],
    ids=["gin-open", "rummy-2m-open", "simple-rummy-open", "no-record", "ruleset-gin"],
)
def test_a_miss_names_the_rulebooks_searched_and_why(table, args, message, searched):
    table()
    result = ref("ruling", "xyzzy plugh", *args)
    assert result.exit_code == 5 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == "error: " + message
    assert " ".join(lines[1:]).startswith(searched)
    assert "Traceback" not in result.stderr


def test_a_gin_game_answers_from_gin_and_a_rule_id_of_gin_is_found():
    gin_table()
    result = ok("ruling", "can I knock with 10 deadwood")
    assert "(gin)" in result.stdout.splitlines()[0] + result.stdout.splitlines()[1]
    assert result.stdout.splitlines()[-1] == "From gin: the rule set of game 'gin1' (open now)."
    assert ref_json("ruling", "G3")["rules"][0]["id"] == "G3"
    other = ok("ruling", "pizza's here")  # nothing in Gin is about Pete's: the other books answer, and say so
    assert other.stdout.startswith("B2 (rummy-2m)")
    assert other.stdout.splitlines()[-1] == "From rummy-2m and simple-rummy: nothing in gin (game 'gin1') matches."


def test_a_house_rule_set_naming_no_rulebook_answers_from_its_kind(tmp_path):
    house = house_gin_table(tmp_path)
    data = ref_json("ruling", "can I knock with 10 deadwood")
    assert data["answered_from"] == {"rulebooks": ["gin"], "source": "game", "game": "porch"}
    assert data["rules"][0]["ruleset"] == "gin"
    result = ok("ruling", "can I knock with 10 deadwood")
    assert " ".join(result.stdout.splitlines()[-2:]) == (
        "From gin: game 'porch' (open now) plays 'house', scored like gin (ref has no rulebook 'house').")
    assert ref_json("ruling", "G3")["rules"][0]["id"] == "G3"  # not "rummy-2m or simple-rummy have no rule G3"
    miss = ref("ruling", "xyzzy plugh")
    assert miss.stderr.splitlines()[0] == "error: no rule of gin, rummy-2m or simple-rummy matches 'xyzzy plugh'"
    by_file = ref_json("ruling", "can I knock with 10 deadwood", "--ruleset", str(house))
    assert by_file["answered_from"]["rulebooks"] == ["gin"]


@pytest.mark.parametrize("args", [["--game", "nope"], ["--game", "nope", "--db", "/nonexistent/x.db"]])
def test_an_unknown_game_is_not_found(args):
    if "--db" not in args:
        rummy_night()
    result = ref("ruling", "who deals first", *args)
    assert result.exit_code == 5
    assert "nope" in result.stderr and "Traceback" not in result.stderr


_PROBE = ("import sys, json\nfrom rummyref.cli import main\nsys.argv = ['ref', 'ruling', 'who deals first', '--json']\n"
          "try:\n    main()\nexcept SystemExit:\n    pass\n"
          "sys.stderr.write('LOADED=' + json.dumps(sorted(m for m in sys.modules if m.startswith('rummyref.store') "
          "or m in ('sqlalchemy', 'sqlmodel'))))\n")


def _probe(tmp_path) -> tuple[str, list[str]]:
    import subprocess
    import sys

    env = dict(os.environ, RUMMYREF_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=60)
    return json.loads(proc.stdout)["rules"][0]["id"], json.loads(proc.stderr.rpartition("LOADED=")[2])


@pytest.mark.skipif(ON_PG, reason="the record is a SQLite file here")
def test_a_sqlite_record_is_read_without_sqlalchemy_and_no_record_without_the_store(tmp_path):
    # where the record is, read as every command reads --db (rummyref.store.location: no SQLAlchemy)
    where = ["rummyref.store", "rummyref.store.location"]
    assert _probe(tmp_path) == ("S3", where)
    rummy_night()
    # the record read with sqlite3 alone: which game (choice), how to open it (readonly)
    assert _probe(tmp_path) == ("A3", sorted(where + ["rummyref.store.choice", "rummyref.store.readonly"]))


@pytest.mark.skipif(ON_PG, reason="the record is a SQLite file here")
def test_a_file_that_is_not_a_record_falls_back_to_both_rulebooks():
    path = Path(os.environ["RUMMYREF_DB"])
    path.write_text("not a database\n" * 100)
    result = ok("ruling", "pizza's here")
    # the file is named as what it is, not as a record naming no game (audit output46 #6)
    said = f"From rummy-2m and simple-rummy: {short(str(path))} is no record ref can read (--ruleset picks one)."
    assert "".join(result.stdout.split()).endswith("".join(said.split()))  # the path may wrap at a '-'
    assert path.read_text() == "not a database\n" * 100


# -- what the answer shows ----------------------------------------------------------------------


def test_scores_are_hidden_from_people_and_kept_in_json():
    result = ok("ruling", "can I take my discard back")
    assert "score" not in result.stdout and "[" not in result.stdout
    assert all(isinstance(r["score"], float) for r in ref_json("ruling", "can I take my discard back")["rules"])


def _hits(*scores: float, exact: bool = False) -> list[Hit]:
    rules = load_rulebook("rummy-2m").rules
    return [Hit(rules[i], s, exact=exact and i == 0) for i, s in enumerate(scores)]


@pytest.mark.parametrize(
    "scores, exact, expected",
    [
        ((20.0, 5.0, 1.0), False, False),  # a clear winner
        ((20.0, 16.9, 1.0), False, False),  # runner-up under 85% of the best
        ((20.0, 17.0, 1.0), False, True),  # runner-up at 85%: a coin toss
        ((6.9,), False, True),  # a weak match, even alone
        ((6.9, 1.0), False, True),  # a weak match with nothing close (one shared word, as "guy" or "point")
        ((7.0,), False, False),
        ((100.0, 0.0, 0.0), True, False),  # a rule id is never a guess
        ((), False, True),  # nothing at all
    ],
)
def test_unsure_rule(scores, exact, expected):
    assert unsure(_hits(*scores, exact=exact)) is expected


def test_an_unsure_answer_says_so_and_offers_the_next_two():
    data = ref_json("ruling", "who deals first")  # Simple Rummy's S3 and S4, Rummy 2,000,000's A3: too close
    assert data["sure"] is False and len(data["rules"]) == 3
    lines = ok("ruling", "who deals first").stdout.splitlines()
    assert lines[0] == "Not sure; maybe:"
    assert lines[1].startswith(f"{data['rules'][0]['id']} (")
    tail = lines[lines.index("Or maybe:") + 1 :]
    assert [t.split()[0] for t in tail[:2]] == [r["id"] for r in data["rules"][1:]]
    assert "Also possible:" not in lines


def test_a_sure_answer_does_not_hedge():
    data = ref_json("ruling", "pizza's here")
    assert data["sure"] is True
    lines = ok("ruling", "pizza's here").stdout.splitlines()
    assert lines[0].startswith("B2 (rummy-2m)") and "Not sure; maybe:" not in lines


QUESTIONS_80 = ["who deals first", "can I take my discard back", "b4", "rule a7", "stop for a beer mid hand",
                "can I pick up from the rummy line just to lay it on a run", "what happens when the deck runs out"]


@pytest.mark.parametrize("columns", ["80", "200"])
@pytest.mark.parametrize("question", QUESTIONS_80)
def test_every_line_fits_80_columns(question, columns, monkeypatch):
    monkeypatch.setenv("COLUMNS", columns)
    result = ref_subprocess("ruling", question)
    assert result.returncode == 0, result.stderr
    assert max(len(x) for x in (result.stdout + result.stderr).splitlines()) <= 80


# -- the miss log --------------------------------------------------------------------------------


def test_a_question_with_no_match_is_logged():
    result = ref("ruling", "xyzzy plugh")
    assert result.exit_code == 5
    [row] = log_lines()
    assert row[1:] == ["no-match", "rummy-2m,simple-rummy", "-", "xyzzy plugh"]
    assert row[0].endswith("Z") and len(row[0]) == 20


def test_an_unsure_answer_is_logged_with_its_candidates():
    data = ref_json("ruling", "who deals first")
    [row] = log_lines()
    assert row[1:] == ["unsure", "rummy-2m,simple-rummy", " ".join(r["id"] for r in data["rules"]), "who deals first"]


def test_a_sure_answer_and_an_id_are_not_logged():
    ok("ruling", "pizza's here")
    ok("ruling", "B7")
    assert log_lines() == []


def test_in_a_game_the_log_names_its_rulebook():
    simple_rummy_table()
    ref("ruling", "xyzzy plugh")
    assert [row[1:3] for row in log_lines()] == [["no-match", "simple-rummy,rummy-2m"]]


@pytest.mark.parametrize("how", ["flag", "env"])
def test_the_log_can_be_turned_off(how, monkeypatch):
    if how == "env":
        monkeypatch.setenv("RUMMYREF_NO_RULING_LOG", "1")
        args: list[str] = []
    else:
        args = ["--no-log"]
    assert ref("ruling", "xyzzy plugh", *args).exit_code == 5
    assert ok("ruling", "who deals first", *args)
    assert log_lines() == []


def test_a_log_that_cannot_be_written_never_fails_the_ruling(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_RULING_LOG", str(tmp_path))  # a folder: cannot be appended to
    result = ok("ruling", "who deals first")
    assert result.stdout.startswith("Not sure; maybe:") and result.stderr == ""
    assert ref("ruling", "xyzzy plugh").exit_code == 5


def test_the_default_log_sits_next_to_the_default_record(monkeypatch, tmp_path):
    monkeypatch.delenv("RUMMYREF_RULING_LOG")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    from rummyref.rulebook.misses import log_path

    assert log_path() == tmp_path / "data" / "rummyref" / "ruling-misses.log"


def test_a_logged_question_is_one_clean_line():
    from datetime import UTC, datetime

    text = line("can we\tstop\nnow\x1b[31m", "unsure", ["rummy-2m"], ["B1", "A4"], datetime(2026, 11, 30, tzinfo=UTC))
    assert text == "2026-11-30T00:00:00Z\tunsure\trummy-2m\tB1 A4\tcan we stop now [31m\n"


# -- a rule id that names no rule ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["rummy-2m:S7"], "error: rummy-2m has no rule S7"),
        (["B12"], "error: rummy-2m or simple-rummy have no rule B12"),
        (["simple-rummy:S7", "--ruleset", "rummy-2m"], "error: simple-rummy:S7 is not in rummy-2m"),
    ],
)
def test_a_rule_id_naming_no_rule_exits_5(args, message):
    result = ref("ruling", *args)
    assert result.exit_code == 5
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == message


def test_a_book_qualified_id_is_read_in_the_book_it_names():
    data = ref_json("ruling", "simple-rummy:S7")
    assert (data["rules"][0]["id"], data["rules"][0]["ruleset"], data["rules"][0]["match"]) == ("S7", "simple-rummy", "id")
    assert data["sure"] is True


@pytest.mark.parametrize(
    "table, question, expected",
    [
        (gin_table, "what do I get for gin", "G5"),
        (simple_rummy_table, "can I take the whole discard pile", "V6"),
    ],
    ids=["gin-bonus", "spread-out-pile"],
)
def test_table_questions_the_audit_found_answered_from_the_games_own_rule(table, question, expected):
    """Asked at the table of that game (audit, stop 34): "gin" is in nearly every Gin rule, so
    the first question fell through to the house game's B8; the other ranked V4 first."""
    table()
    data = ref_json("ruling", question)
    assert data["rules"][0]["id"] == expected
    assert data["answered_from"]["source"] == "game"


# -- variations in play (stop 36) ---------------------------------------------------------------


def test_a_variation_the_table_does_not_play_is_said_not_in_play():
    """A Simple Rummy table with no variation asked about V1 gets it said first that the table
    does not play it. "can I go out with two cards left" is S9's question (stop 38), V1 beside
    it marked not in play."""
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "7", "--game", "friday")
    lines = ok("ruling", "can we play going out minor").stdout.splitlines()
    assert lines[0].startswith("V1 (simple-rummy)")
    assert lines[1] == "Not in play at this table: game 'friday' plays no variation."
    data = ref_json("ruling", "can I go out with two cards left")
    flags = {r["id"]: r["in_play"] for r in data["rules"]}
    assert data["rules"][0]["id"] == "S9"
    assert flags["V1"] is False and all(v is None for k, v in flags.items() if k.startswith("S"))
    assert "  V1  (simple-rummy) Variation: Going Out Major or Minor (not in play)" in ok(
        "ruling", "can I go out with two cards left").stdout.splitlines()


def test_a_variation_in_play_is_said_in_play_and_the_others_not():
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "7", "--game", "friday",
       "--variation", "minor")
    v1 = ok("ruling", "V1").stdout.splitlines()
    assert v1[1] == "In play at this table: game 'friday' plays Going Out Minor (V1)."
    v4 = ok("ruling", "three card draw").stdout.splitlines()
    assert v4[0].startswith("V4 ") and v4[1] == "Not in play at this table: game 'friday' plays Going Out Minor (V1)."
    assert "  V1  (simple-rummy) Variation: Going Out Major or Minor (in play)" in v4
    assert {r["id"]: r["in_play"] for r in ref_json("ruling", "three card draw")["rules"]}["V4"] is False
    # --ruleset asks the rulebook, not the table: nothing is said of play
    assert ref_json("ruling", "three card draw", "--ruleset", "simple-rummy")["rules"][0]["in_play"] is None
    assert "play at this table" not in ok("ruling", "three card draw", "--ruleset", "simple-rummy").stdout


@pytest.mark.parametrize("variation, said", [((), "Not in play at this table: game 'porch' plays no variation."),
                                             (("--variation", "oklahoma"),
                                              "In play at this table: game 'porch' plays Oklahoma Gin (G13).")])
def test_gin_says_whether_oklahoma_is_played(variation, said):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob", "--game", "porch", *variation)
    lines = ok("ruling", "G13").stdout.splitlines()
    assert lines[0].startswith("G13 (gin)") and lines[1] == said


def test_the_house_game_has_no_variation_to_speak_of():
    rummy_night()
    data = ref_json("ruling", "who deals first")
    assert all(r["in_play"] is None for r in data["rules"])
    assert "play at this table" not in ok("ruling", "who deals first").stdout
