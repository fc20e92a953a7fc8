"""A hint that starts a new game names the game's rule set where it is not the default one:
followed as written, ``--game NEW-NAME`` alone would start a Rummy 2,000,000 game (the hints of
the WILDCARDs' number, Gin's variations, ``ref night`` with other players, and A1's newcomer)."""

from __future__ import annotations

from cli_helpers import ref


def said(text: str) -> str:
    return " ".join(text.split())


def test_another_number_of_jokers_in_500_rum_names_its_rule_set():
    assert ref("new-session", "--game", "five", "--ruleset", "rummy-500", "--players", "Ann,Bob").exit_code == 0
    assert ref("score-hand", "--points", "Ann=5", "--points", "Bob=1").exit_code == 0
    assert ref("end-session").exit_code == 0
    r = ref("new-session", "--game", "five", "--wildcards", "2")
    assert r.exit_code == 4
    assert "a new game may use another number: --game NEW-NAME --ruleset rummy-500 --wildcards N" in said(r.stderr)


def test_another_number_of_wildcards_in_the_house_game_needs_no_rule_set():
    assert ref("new-session", "--game", "long", "--players", "Ann,Bob").exit_code == 0
    assert ref("score-hand", "--points", "Ann=5", "--points", "Bob=1").exit_code == 0
    assert ref("score-hand", "--points", "Ann=5", "--points", "Bob=1").exit_code == 0
    assert ref("end-session").exit_code == 0
    r = ref("new-session", "--game", "long", "--wildcards", "2")
    assert r.exit_code == 4
    assert "a new game may use another number: --game NEW-NAME --wildcards N" in said(r.stderr)


def test_other_gin_variations_name_gin():
    assert ref("new-session", "--game", "g", "--ruleset", "gin", "--players", "Ann,Bob").exit_code == 0
    r = ref("new-session", "--game", "g", "--variation", "oklahoma")
    assert r.exit_code in (3, 4), r.stderr
    assert "a new game may play others: --game NEW-NAME --ruleset gin --variation NAME" in said(r.stderr)


def test_a_newcomer_of_the_house_game_is_shown_the_whole_command():
    assert ref("new-session", "--game", "long", "--players", "Ann,Bob").exit_code == 0
    assert ref("score-hand", "--points", "Ann=5", "--points", "Bob=1").exit_code == 0
    assert ref("score-hand", "--points", "Ann=5", "--points", "Bob=1").exit_code == 0
    assert ref("end-session").exit_code == 0
    r = ref("new-session", "--game", "long", "--players", "Ann,Bob,Steve")
    assert r.exit_code == 4
    assert said(r.stderr).endswith(
        "a new game may have a new roster: ref new-session --game NEW-NAME --players ...")


def test_ref_night_with_other_players_at_an_open_500_rum_session_names_its_rule_set():
    assert ref("new-session", "--game", "five", "--ruleset", "rummy-500", "--players", "Ann,Bob").exit_code == 0
    r = ref("night", "--players", "Ann,Zed", input="")
    assert r.exit_code == 4, r.stdout + r.stderr
    assert "--game NEW-NAME --ruleset rummy-500 starts a new game with its own players" in said(r.stderr)
