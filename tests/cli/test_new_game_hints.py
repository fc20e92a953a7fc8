"""A finished game's hints name its rule set, so that following them starts a game of the same
kind (audit docs-walkthrough #1, #2): Gin's GAME OVER line, its score-hand refusal and its
night; ``ref new-session`` and ``ref night`` on a finished game of any rule set but the default
(``--ruleset rummy-500``, ``--ruleset gin``, ``--ruleset simple-rummy``, ``--ruleset FILE``
for a house's file). The default rummy-2m's hints name no --ruleset. Every refusal of a finished
game says the same words, in every command (audit rules44 #6)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from cli_helpers import ref, ref_json

from rummyref.rules.ruleset import builtin_path, load_ruleset

#: Ann goes gin against 87 of Bob's deadwood: 112, the game over at once, a shutout
SHUTOUT = ["--hand", "Ann=2S 3S 4S 5D 6D 7D 8C 9C 10C JC", "--hand", "Bob=KS KH QD QH JS 10H 9H 8D 6C 4C",
           "--gin", "Ann"]
OPEN_HINT = "start a new game with ref new-session --game NEW-NAME{}; the history of this one stays"


def ok(*args: str, input: str | None = None):
    r = ref(*args, input=input)
    assert r.exit_code == 0, r.stderr
    return r


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def house(tmp_path: Path, name: str, old: str, new: str) -> str:
    """A house's copy of a built-in under the built-in's name, one number changed."""
    text = builtin_path(name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"house-{name}.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


def follow(hint: str, players: str, file: str | None = None) -> dict:
    """Run the ``ref new-session`` a hint names (``--game NEW-NAME``, ``--ruleset`` as given;
    ``FILE`` the house's file), for a new game ``next``: its ``--json``."""
    m = re.search(r"--game (?:NEW-NAME|NAME)([^;]*?)(?:;|\.?$)", " ".join(hint.split()))
    assert m, hint
    args = ["--game", "next", *m.group(1).split()]
    args = [file if a == "FILE" and file else a for a in args]
    if "--players" not in args:
        args += ["--players", players]
    r = ref("new-session", *args, "--json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def refused_to_open(*hint: str) -> None:
    """``ref new-session`` and ``ref night`` on the finished game: exit 4, the hint exactly."""
    for command in ("new-session", "night"):
        r = ref(command)
        assert r.exit_code == 4 and r.stdout == ""
        assert " ".join(r.stderr.split("\n", 1)[1].split()) == " ".join(hint), command


# -- Gin -------------------------------------------------------------------------------------------


def test_a_finished_gin_game_hints_at_gin_and_the_hint_starts_a_gin_game():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    r = ok("score-hand", *SHUTOUT)
    assert lines(r.stdout)[-4:] == [
        "GAME OVER: Ann wins by 474; final with boxes and bonus: Ann 474, Bob 0 (shutout: the winner's score",
        "doubled, G12).",
        "The session may end now: ref end-session.",
        "A new game: ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob."]
    more = ref("score-hand", "--dead")
    assert more.exit_code == 4
    assert " ".join(more.stderr.split()) == ("refused (G10): game gin is over: Ann won start a new game with ref "
                                             "new-session --game NEW-NAME --ruleset gin --players Ann,Bob; the history of "
                                             "this one stays")
    ok("end-session")
    refused_to_open("start a new game with ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob; the history of this one stays")
    doc = follow(more.stderr, "Ann,Bob")
    assert (doc["game"], doc["ruleset"], doc["target"], doc["created"]) == ("next", "gin", 100, True)
    assert ok("standings", "--game", "next").stdout.startswith("next (gin), to 100: 0 hands")


def test_a_correction_that_keeps_a_gin_game_over_names_gin_but_no_session_to_end():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *SHUTOUT)
    ok("end-session")
    r = ok("amend", "1", *SHUTOUT, "--reason", "again")
    assert lines(r.stdout)[-1] == "A new game: ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob."
    assert "may end now" not in r.stdout


def test_a_gin_night_hints_at_gin_once_the_game_is_over():
    hands = SHUTOUT[1].split("=", 1)[1], SHUTOUT[3].split("=", 1)[1]
    r = ok("night", "--ruleset", "gin", "--players", "Ann,Bob", input=f"cards\n{hands[0]}\n{hands[1]}\ngin Ann\n\nend\n")
    assert ("doubled, G12).\nThe game is over: Ann won. Type end to close the session.\n"
            "A new game: ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob.\n") in r.stdout
    refused_to_open("start a new game with ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob; the history of this one stays")


def test_a_finished_oklahoma_game_hints_at_its_variation_and_the_hint_starts_one():
    ok("new-session", "--ruleset", "gin", "--variation", "oklahoma", "--players", "Ann,Bob")
    r = ok("score-hand", *SHUTOUT, "--upcard", "10S")
    assert lines(r.stdout)[-1] == "A new game: ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob --variation oklahoma."
    more = ref("score-hand", "--dead")
    assert more.exit_code == 4
    assert " ".join(more.stderr.split()).endswith(
        "start a new game with ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob --variation oklahoma; the "
        "history of this one stays")
    ok("end-session")
    for command in ("new-session", "night"):
        r = ref(command)
        assert r.exit_code == 4
        assert " ".join(r.stderr.split()).endswith(
            "start a new game with ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob --variation oklahoma; the history of this one stays")
    doc = follow(" ".join(more.stderr.split()), "Ann,Bob")
    assert (doc["game"], doc["ruleset"]) == ("next", "gin")
    # the new game plays Oklahoma: a hand that is not dead must give its upcard
    r = ref("score-hand", "--game", "next", *SHUTOUT)
    assert r.exit_code != 0 and "upcard" in r.stderr


def test_a_house_copy_of_gin_hints_at_its_file(tmp_path):
    path = house(tmp_path, "gin", "target = 100", "target = 60")
    ok("new-session", "--ruleset", path, "--players", "Ann,Bob")
    r = ok("score-hand", *SHUTOUT)
    assert lines(r.stdout)[-1] == "A new game: ref new-session --game NEW-NAME --ruleset FILE --players Ann,Bob."
    more = ref("score-hand", "--dead")
    assert more.exit_code == 4
    assert " ".join(more.stderr.split()).endswith(
        "start a new game with ref new-session --game NEW-NAME --ruleset FILE --players Ann,Bob; the history of this one stays")
    ok("end-session")
    refused_to_open("start a new game with ref new-session --game NEW-NAME --ruleset FILE --players Ann,Bob; the history of this one stays")
    doc = follow(more.stderr, "Ann,Bob", file=path)
    assert (doc["ruleset"], doc["target"]) == ("gin", 60)


# -- ref new-session and ref night on a finished game of another rule set ---------------------------


def test_a_finished_500_rum_game_refuses_to_open_naming_rummy_500():
    ok("new-session", "--ruleset", "rummy-500", "--players", "Ann,Bob", "--opening", "Ann=495")
    ok("score-hand", "--points", "Ann=10", "--points", "Bob=0")
    ok("end-session")
    refused_to_open("start a new game with ref new-session --game NEW-NAME --ruleset rummy-500 --players Ann,Bob; the history of this one "
                    "stays")
    r = ref("new-session")
    doc = follow(r.stderr, "Ann,Bob")
    assert (doc["game"], doc["ruleset"], doc["target"]) == ("next", "rummy-500", 500)


def test_a_finished_house_rummy_2m_game_refuses_to_open_naming_its_file(tmp_path):
    path = house(tmp_path, "rummy-2m", "target = 2_000_000", "target = 100")
    ok("new-session", "--ruleset", path, "--game", "house")
    ok("score-hand", "--points", "Bill=150", "--points", "Ben=0", "--points", "Larry=0")
    ok("end-session")
    refused_to_open("start a new game with ref new-session --game NEW-NAME --ruleset FILE; the history of this one stays")
    doc = follow(ref("new-session").stderr, "Bill,Ben,Larry", file=path)
    assert (doc["ruleset"], doc["target"]) == ("rummy-2m", 100)


def test_a_finished_rummy_2m_game_keeps_its_hint():
    ok("new-session", "--opening", "Bill=1999900")
    ok("score-hand", "--points", "Bill=150", "--points", "Ben=0", "--points", "Larry=0")
    ok("end-session")
    refused_to_open("start a new game with ref new-session --game NEW-NAME; the history of this one stays")
    doc = follow(ref("new-session").stderr, "Bill,Ben,Larry")
    assert (doc["ruleset"], doc["target"]) == ("rummy-2m", 2_000_000)


@pytest.mark.parametrize("name, again", [("simple-rummy", " --ruleset simple-rummy"), ("rummy-500", " --ruleset rummy-500"),
                                         ("gin", " --ruleset gin"), ("rummy-2m", "")])
def test_the_open_refusal_names_every_rule_set_but_the_default(name, again):
    """A Simple Rummy game never ends as a whole (a game is one hand), so no record reaches this
    refusal with it; the refusal itself names it as it names the others."""
    from rummyref.errors import RuleRefusal
    from rummyref.games.base import open_refusals
    from rummyref.games.registry import kind_for

    rs = load_ruleset(name)
    game = SimpleNamespace(over=True, name="g", winner="Ann", options={}, roster=rs.default_players, wildcards=rs.wild_default)
    ctx = SimpleNamespace(game=game, ruleset=rs, open_session=None)
    with pytest.raises(RuleRefusal) as refused:
        open_refusals(ctx, kind_for(rs))  # type: ignore[arg-type]
    assert refused.value.hint == OPEN_HINT.format(again)


def test_following_the_simple_rummy_hint_starts_a_simple_rummy_game():
    doc = follow(OPEN_HINT.format(load_ruleset("simple-rummy").again), "Ann,Bob,Cy")
    assert (doc["game"], doc["ruleset"]) == ("next", "simple-rummy")
    assert ref_json("standings", "--game", "next")["ruleset"] == "simple-rummy"


def test_a_long_game_of_another_rule_set_over_in_a_night_hints_at_its_rule_set():
    r = ok("night", "--ruleset", "rummy-500", "--players", "Ann,Bob", "--opening", "Ann=495",
           input="points\n10\n0\n\nend\n")
    assert ("The game is over (R3): Ann won. Type end to close the session.\n"
            "A new game: ref new-session --game NEW-NAME --ruleset rummy-500 --players Ann,Bob.\n") in r.stdout


def test_the_default_game_over_in_a_night_keeps_its_lines():
    r = ok("night", "--opening", "Bill=1999990", input="points\n20\n0\n0\n\nend\n")
    assert "The game is over (A7): Bill won. Type end to close the night.\n" in r.stdout
    # its GAME OVER footer's hint stands (no --ruleset: the default's), and is not said again
    assert r.stdout.count("A new game") == 1 and "A new game: ref new-session --game NEW-NAME.\n" in r.stdout


def test_the_hint_keeps_the_games_wildcards_and_following_it_starts_the_same_game():
    # audit stop40 #5: a 500 Rum game with 2 WILDCARDs; the hint made one with none
    ok("new-session", "--ruleset", "rummy-500", "--wildcards", "2", "--players", "Ann,Bob,Cy")
    r = ok("score-hand", "--points", "Ann=600", "--points", "Bob=0", "--points", "Cy=0")
    assert " ".join(r.stdout.split()).endswith(
        "A new game: ref new-session --game NEW-NAME --ruleset rummy-500 --players Ann,Bob,Cy --wildcards 2.")
    ok("end-session")
    refused = ref("new-session")
    assert refused.exit_code == 4
    doc = follow(refused.stderr, "nobody")  # the hint names the players: they are not added
    assert (doc["ruleset"], doc["wildcards"], [p["name"] for p in doc["players"]]) == ("rummy-500", 2,
                                                                                       ["Ann", "Bob", "Cy"])


def test_a_finished_gin_game_is_refused_in_the_same_words_by_every_command_as_the_manual_says():
    """Audit rules44 #6: score-hand said "game gin is over (Ann won): it takes no more hands" and
    new-session "game gin is over: Ann won" with half a command; the night said "ref night --game
    NEW-NAME" and "close the night" at a Gin table; the GAME OVER line said NAME. Now one refusal,
    one way to a new game, and docs/guide/gin.md quotes them."""
    refusal = "refused (G10): game gin is over: Ann won"
    hint = "start a new game with ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob; the history of this one stays"
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    assert lines(ok("score-hand", *SHUTOUT).stdout)[-1] == (
        "A new game: ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob.")
    said = {"score-hand": ref("score-hand", "--dead"), "cards in the night": ref("night", input="cards\nq\n")}
    ok("end-session")
    said |= {"new-session": ref("new-session"), "night": ref("night")}
    for command, r in said.items():
        told = " ".join(r.stderr.split())
        if command == "cards in the night":  # the night goes on: its own first step, then the same way
            assert r.exit_code == 0 and f"{refusal} type end to close the session; {hint}" in told
        else:
            assert r.exit_code == 4 and r.stdout == "" and told == f"{refusal} {hint}", command
    manual = " ".join((Path(__file__).parents[2] / "docs" / "guide" / "gin.md").read_text(encoding="utf-8").split())
    assert f"`{refusal}`, then `{hint}`" in manual
    assert "`A new game: ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob.`" in manual


# -- ref standings of a finished game: what comes next, as the hand that ended it said -----------


def test_the_standings_of_a_finished_gin_game_say_what_comes_next():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *SHUTOUT)
    assert lines(ok("standings").stdout)[-2:] == [
        "The session may end now: ref end-session.",
        "A new game: ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob."]
    ok("end-session")
    shown = ok("standings").stdout
    assert "may end now" not in shown  # no session is open
    doc = follow(lines(shown)[-1], "Ann,Bob")
    assert (doc["ruleset"], doc["created"]) == ("gin", True)
    assert "new_game" not in ref_json("standings", "--game", "gin")


def test_the_standings_of_a_finished_long_game_say_what_comes_next():
    ok("new-session", "--ruleset", "rummy-500", "--wildcards", "2", "--players", "Ann,Bob,Cy")
    ok("score-hand", "--points", "Ann=600", "--points", "Bob=0", "--points", "Cy=0")
    shown = lines(ok("standings").stdout)
    hint = "A new game: ref new-session --game NEW-NAME --ruleset rummy-500 --players Ann,Bob,Cy --wildcards 2."
    assert shown[shown.index("The session may end now: ref end-session.") + 1] == hint
    ok("end-session")
    shown = lines(ok("standings").stdout)
    assert hint in shown and not any("may end now" in line for line in shown)
    assert "new_game" not in ref_json("standings")


def test_the_standings_of_a_game_still_on_name_no_new_game():
    ok("new-session", "--opening", "Bill=1999900")
    ok("score-hand", "--points", "Bill=50", "--points", "Ben=0", "--points", "Larry=0")
    shown = ok("standings").stdout
    assert "GAME OVER" not in shown and "A new game" not in shown and "may end now" not in shown
