"""500 Rum (``--ruleset rummy-500``) end to end, the three findings of its audit: Rummy
2,000,000's B5 and B6 are neither applied nor cited where the rulebook lacks them; the deal
passes to the left across sessions (R4: no A3); the GAME OVER hint starts a game of 500 Rum.
Rummy 2,000,000's side of each stays as it was (checked beside it)."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

NOBODY_HOLDS = ["--held", "Ann=", "--held", "Bob=", "--held", "Cat="]
POINTS = ["--points", "Ann=10", "--points", "Bob=20", "--points", "Cat=5"]


def new(ruleset: str = "rummy-500", players: str = "Ann,Bob,Cat", *more: str) -> None:
    r = ref("new-session", "--ruleset", ruleset, "--players", players, *more)
    assert r.exit_code == 0, r.stderr


def flat(text: str) -> str:
    return " ".join(text.split())


# -- 1. B5 and B6 only where the rulebook has them -----------------------------------------------


def test_a_joker_may_stand_for_a_card_laid_sideways_in_500_rum():
    """R5: a joker stands for any card; no B6 cuts Cat's run off at Bob's 7D."""
    new("rummy-500", "Ann,Bob,Cat", "-w", "1")
    doc = ref_json("score-hand", "--melded", "Ann=7S 7H 7C", "--melded", "Cat=4D 5D 6D W=7D /",
                   "--melded", "Bob=7D^", *NOBODY_HOLDS)
    assert {s["name"]: s["points"] for s in doc["score"]["scores"]} == {"Ann": 21, "Bob": 7, "Cat": 22}


def test_a_bare_joker_extends_the_run_at_its_high_end_past_a_sideways_card_in_500_rum():
    new("rummy-500", "Ann,Bob,Cat", "-w", "1")
    r = ref("score-hand", "--melded", "Ann=7S 7H 7C", "--melded", "Cat=4D 5D 6D W", "--melded", "Bob=7D^",
            *NOBODY_HOLDS)
    assert r.exit_code == 0, r.stderr
    text = flat(r.stdout)
    assert "4D 5D 6D W(=7D) (Cat) [run, 22] arranged by ref (the engine)" in text
    assert "Cat: 4D 5D 6D W(=7D) 22 (run 4D 5D 6D W(=7D)) = 22" in text
    assert "B5" not in r.stdout and "B6" not in r.stdout


def test_rummy_2m_still_refuses_a_joker_past_a_sideways_card_under_b6():
    new("rummy-2m", "Ann,Bob,Cat", "-w", "1")
    r = ref("score-hand", "--melded", "Ann=7S 7H 7C", "--melded", "Cat=4D 5D 6D W=7D /", "--melded", "Bob=7D^",
            *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert flat(r.stderr) == ("refused (B6): Cat's meld 4D 5D 6D W=7D (--melded) runs past the 7D laid sideways "
                              "on a match Bob's 7D^ (--melded) cuts the run off there: nothing may join the run "
                              "past it, nor a WILDCARD stand for it; check the meld, and whether the 7D went on a "
                              "match")
    bare = ref_json("score-hand", "--melded", "Ann=7S 7H 7C", "--melded", "Cat=4D 5D 6D W", "--melded", "Bob=7D^",
                    *NOBODY_HOLDS)
    assert {s["name"]: s["points"] for s in bare["score"]["scores"]}["Cat"] == 18  # W(=3D): B6


def test_a_designation_refused_in_500_rum_cites_no_b5():
    new()
    r = ref("score-hand", "--melded", "Ann=7S 7H 7D", "--melded", "Cat=4D 5D 6D", "--melded", "Bob=7C>run",
            *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert r.stderr.splitlines() == [
        "refused: Bob's 7C>run (--melded) cannot be: no run on the table takes the 7C",
        "leave the designation out to let ref place the card, or correct it",
    ]


def test_the_same_designation_in_rummy_2m_cites_b5():
    new("rummy-2m")
    r = ref("score-hand", "--melded", "Ann=7S 7H 7D", "--melded", "Cat=4D 5D 6D", "--melded", "Bob=7C>run",
            *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert flat(r.stderr).startswith("refused (B5): Bob's 7C>run (--melded) cannot be: no run on the table takes")


@pytest.mark.parametrize("stated", ["", " /"])
def test_runs_first_in_500_rum_is_refs_own_default(stated):
    new()
    args = ["--melded", "Ann=AS AH AC", "--melded", f"Cat=2D 3D 4D{stated}", "--melded", "Bob=AD", *NOBODY_HOLDS]
    r = ref("score-hand", *args)
    assert r.exit_code == 0, r.stderr
    text = flat(r.stdout)
    how = ("said by the table (Cat's meld as laid with /); Bob's AD: by default (runs first)" if stated
           else "by default (runs first): Bob's AD")
    assert f"AD (Bob) 2D 3D 4D (Cat) [run, ace low, 10] {how}" in text
    assert ("Note: Bob's AD fits the run and the match AS AH AC: nothing was said, so it counts for the run "
            "(ref's default: runs first); AD>match says otherwise") in text
    assert "Bob: AD 1 (run AD 2D 3D 4D) = 1" in text
    assert "B5" not in r.stdout
    history = ref("history")
    assert history.exit_code == 0 and "B5" not in history.stdout
    assert f"[run, ace low, 10] {how}" in flat(history.stdout)
    doc = ref_json("score-hand", *args)
    run = [m for m in doc["score"]["arrangement"] if m["kind"] == "sequence"][0]
    assert run["decided"] == ("table" if stated else "default") and run["defaulted"] == ["Bob's AD"]
    assert not [n for n in doc["score"]["notes"] if "B5" in n]


def test_rummy_2m_still_cites_b5_for_its_default():
    new("rummy-2m")
    doc = ref_json("score-hand", "--melded", "Ann=AS AH AC", "--melded", "Cat=2D 3D 4D", "--melded", "Bob=AD",
                   *NOBODY_HOLDS)
    run = [m for m in doc["score"]["arrangement"] if m["kind"] == "sequence"][0]
    assert run["decided"] == "B5"
    assert [n for n in doc["score"]["notes"] if "counts for the run (B5)" in n]


def test_designate_and_b5_are_still_not_500_rum_rules():
    new()
    r = ref("dispute", "designate", "AD", "--table", "2D 3D 4D", "--table", "AS AH AC")
    assert r.exit_code == 5
    assert "500 Rum (rummy-500) has no such rules" in flat(r.stderr)
    assert ref("ruling", "B5", "--ruleset", "rummy-500").exit_code == 5


# -- 2. the deal passes to the left across sessions (no A3) ------------------------------------------


def two_hands_then_close(ruleset: str = "rummy-500") -> None:
    new(ruleset)
    for _ in range(2):
        assert ref("score-hand", *POINTS).exit_code == 0
    assert ref("end-session").exit_code == 0


def test_a_new_500_rum_session_is_dealt_by_the_next_player():
    two_hands_then_close()
    st = ref("standings")
    assert "Next session: Cat deals first." in st.stdout
    assert ref_json("standings")["next_dealer"] == "Cat"
    opened = ref("new-session")
    assert opened.exit_code == 0
    assert "Deal order: Ann, Bob, Cat. Cat deals first." in opened.stdout
    wrong = ref("score-hand", "--dealer", "Ann", *POINTS)
    assert wrong.exit_code == 4
    assert wrong.stderr.splitlines() == ["refused: hand 1 of the session is Cat's deal, not Ann's",
                                         "the deal goes Ann, Bob, Cat, no exceptions"]
    r = ref("score-hand", "--dealer", "Cat", *POINTS)
    assert r.exit_code == 0, r.stderr
    assert "Hand 3 of rummy-500: session 2, hand 1 of the session, Cat dealt" in r.stdout
    assert "Next: Ann deals (hand 2 of round 1)." in r.stdout
    assert ref_json("standings")["next_dealer"] == "Ann"


def test_the_json_of_a_new_500_rum_session_names_its_first_dealer():
    two_hands_then_close()
    assert ref_json("new-session")["first_dealer"] == "Cat"


def test_a_void_moves_where_the_next_500_rum_session_starts():
    """SPEC §8: a voided hand was not dealt: the deal passes on from the last hand in force."""
    two_hands_then_close()
    assert ref("void", "2", "--reason", "misdeal").exit_code == 0
    assert "Next session: Bob deals first." in ref("standings").stdout
    assert "Bob deals first." in ref("new-session").stdout
    assert ref("score-hand", "--dealer", "Bob", *POINTS).exit_code == 0
    assert ref("void", "3", "--reason", "entered twice").exit_code == 0
    assert ref_json("standings")["next_dealer"] == "Bob"  # the voided hand's dealer deals again


def test_a_rummy_2m_night_still_starts_with_the_first_seat():
    new("rummy-2m")
    for _ in range(3):  # a night ends after full rounds (A4)
        assert ref("score-hand", *POINTS).exit_code == 0
    assert ref("end-session").exit_code == 0
    assert "Next Rummy Night: Ann deals first (A3)." in ref("standings").stdout
    assert "Ann deals first." in ref("new-session").stdout


# -- 3. GAME OVER: a new game of the same rule set ------------------------------------------------


def test_game_over_in_500_rum_hints_at_its_ruleset():
    new("rummy-500", "Ann,Bob")
    r = ref("score-hand", "--points", "Ann=500", "--points", "Bob=0")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[-3:] == ["GAME OVER (R3): Ann wins with 500.",
                                          "The session may end now: ref end-session.",
                                          "A new game: ref new-session --game NEW-NAME --ruleset rummy-500 --players Ann,Bob."]
    more = ref("score-hand", "--points", "Ann=5", "--points", "Bob=0")
    assert more.exit_code == 4
    assert " ".join(more.stderr.split()).endswith(
        "start a new game with ref new-session --game NEW-NAME --ruleset rummy-500 --players Ann,Bob; the history of this one stays")
    assert ref("end-session").exit_code == 0
    assert ref("new-session", "--game", "g2", "--players", "Ann,Bob", "--ruleset", "rummy-500").stdout.startswith(
        "New game g2 (rummy-500, target 500")


def test_game_over_in_a_500_rum_night_hints_at_its_ruleset():
    r = ref("night", "--ruleset", "rummy-500", "--players", "Ann,Bob", input="points\n500\n0\n\nend\n")
    assert r.exit_code == 0, r.stderr
    assert ("GAME OVER (R3): Ann wins with 500.\nThe session may end now: type end.\n"
            "A new game: ref new-session --game NEW-NAME --ruleset rummy-500 --players Ann,Bob.\n") in r.stdout


def test_game_over_in_rummy_2m_keeps_its_one_line():
    new("rummy-2m", "Ann,Bob,Cat", "--opening", "Ann=1999990")
    r = ref("score-hand", "--points", "Ann=10", "--points", "Bob=0", "--points", "Cat=0")
    assert r.exit_code == 0, r.stderr
    assert " ".join(r.stdout.split("\n")[-3:]).split() == (
        "The night may end now: ref end-session. A new game: ref new-session --game NEW-NAME --players Ann,Bob,Cat.").split()


@pytest.mark.parametrize("name, target", [("rummy-500", "30"), ("rummy-2m", "100")])
def test_game_over_of_a_house_copy_under_a_builtins_name_hints_at_the_file(tmp_path, name, target):
    """A house's copy of a built-in that keeps its name but plays to another target: the hint
    names the file, since the built-in's name would start a game of the built-in's rules
    (audit stop39 #3); the built-in itself keeps its name in the hint (above)."""
    from rummyref.rules.ruleset import builtin_path

    text = builtin_path(name).read_text(encoding="utf-8")
    old = "target = 500" if name == "rummy-500" else "target = 2_000_000"
    assert old in text
    house = tmp_path / "house.toml"
    house.write_text(text.replace(old, f"target = {target}"), encoding="utf-8")
    assert ref("new-session", "--ruleset", str(house), "--players", "Ann,Bob" if name == "rummy-500"
               else "Ann,Bob,Cy").exit_code == 0
    points = ["--points", f"Ann={int(target) + 10}", "--points", "Bob=0"] + (["--points", "Cy=0"] if name == "rummy-2m"
                                                                              else [])
    r = ref("score-hand", *points)
    assert r.exit_code == 0, r.stderr
    players = "Ann,Bob" if name == "rummy-500" else "Ann,Bob,Cy"
    assert r.stdout.splitlines()[-1] == f"A new game: ref new-session --game NEW-NAME --ruleset FILE --players {players}."
    more = ref("score-hand", *points)
    assert more.exit_code == 4
    assert " ".join(more.stderr.split()).endswith(
        f"start a new game with ref new-session --game NEW-NAME --ruleset FILE --players {players}; the history of this one stays")


def test_500_rum_standings_say_sessions_and_leave_out_the_weekly_date():
    """The pace table said the house game's pace/night, nights to go, target date and nights won
    (stop 46): 500 Rum plays sessions, and meets on no weekly rule (A5) to project a date by."""
    assert ref("new-session", "--ruleset", "rummy-500", "--players", "Al,Bo,Cy").exit_code == 0
    assert ref("score-hand", "--points", "Al=50", "--points", "Bo=30", "--points", "Cy=-5").exit_code == 0
    shown = ref("standings").stdout.splitlines()
    assert shown[5:9] == [
        "player  pace/session  sessions to go  best  worst  sessions won",
        "Al              50.0               9    50     50             0",
        "Bo              30.0              16    30     30             0",
        "Cy              -5.0               -    -5     -5             0",
    ]
    assert not any("night" in line for line in shown)
    # Rummy 2,000,000's table is as it was
    assert ref("new-session", "--game", "long", "--players", "Al,Bo,Cy").exit_code == 0
    assert ref("score-hand", "--game", "long", "--points", "Al=50", "--points", "Bo=30", "--points", "Cy=-5"
               ).exit_code == 0
    assert "player  pace/night  nights to go  target date  best  worst  nights won" in ref(
        "standings", "--game", "long").stdout.splitlines()


def test_500_rum_projects_no_date_in_the_json_nor_the_chart():
    """The projection counts one session a week (A5, the house game's): 500 Rum meets on no such
    rule, so neither its standings' JSON nor its chart gives a date; the house game's do."""
    assert ref("new-session", "--ruleset", "rummy-500", "--players", "Al,Bo,Cy").exit_code == 0
    assert ref("score-hand", "--points", "Al=50", "--points", "Bo=30", "--points", "Cy=-5").exit_code == 0
    assert ref("end-session").exit_code == 0
    al = next(p for p in ref_json("standings")["players"] if p["name"] == "Al")
    assert (al["nights_to_go"], al["projected_date"]) == (9, None)
    chart = " ".join(ref("chart").stdout.split())
    assert "projected: Al reaches 500 in 9 sessions" in chart and "(about" not in chart
    assert ref("new-session", "--game", "long", "--players", "Al,Bo,Cy").exit_code == 0
    assert ref("score-hand", "--game", "long", "--points", "Al=50", "--points", "Bo=30", "--points", "Cy=-5"
               ).exit_code == 0
    long = next(p for p in ref_json("standings", "--game", "long")["players"] if p["name"] == "Al")
    assert long["projected_date"] is not None
