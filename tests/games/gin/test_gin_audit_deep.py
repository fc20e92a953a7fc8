"""Audit gin-deep: what ref shows around a Gin score. The shutout's factor as the rule set has
it (1), the stated melds and the Oklahoma upcard in the history (2), no session statistics in
``ref stats --json`` (3), the rule set's hand size in every message (4), G10 cited wherever a
finished game is refused (5). The JSON shapes (6) are checked in tests/cli/test_json_doc.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

GIN_TOML = Path(__file__).parents[3] / "data" / "rulesets" / "gin.toml"

#: Ann goes gin against 87 of Bob's deadwood: 112, the game over at once, a shutout
SHUTOUT = ["--hand", "Ann=2S 3S 4S 5D 6D 7D 8C 9C 10C JC", "--hand", "Bob=KS KH QD QH JS 10H 9H 8D 6C 4C",
           "--gin", "Ann"]


def house(tmp_path: Path, name: str, *changes: tuple[str, str]) -> str:
    """A house copy of gin.toml named ``name``, with each (old line, new line) changed."""
    text = GIN_TOML.read_text(encoding="utf-8").replace('name = "gin"', f'name = "{name}"', 1)
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def ok(*args: str, input: str | None = None):
    r = ref(*args, input=input)
    assert r.exit_code == 0, r.stderr
    return r


def one_line(text: str) -> str:
    """A message as one line (a long one wraps at 80 columns)."""
    return " ".join(text.split())


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


# -- 1. the shutout's factor --------------------------------------------------------------------

@pytest.mark.parametrize("factor, final, said", [
    (2, 474, " (shutout: the winner's score doubled, G12)"),
    (3, 711, " (shutout: the winner's score tripled, G12)"),
    (4, 948, " (shutout: the winner's score multiplied by 4, G12)"),
    (1, 237, ""),  # nothing is multiplied: nothing is said of it
])
def test_the_game_over_line_names_the_rule_sets_shutout_factor(tmp_path, factor, final, said):
    rs = house(tmp_path, f"x{factor}", ("shutout_multiplier = 2", f"shutout_multiplier = {factor}"))
    ok("new-session", "--ruleset", rs, "--players", "Ann,Bob")
    expected = (f"GAME OVER: Ann wins by {final}; final with boxes and bonus: Ann {final}, Bob 0{said}.")
    hand = ok("score-hand", *SHUTOUT).stdout
    next_steps = (" The session may end now: ref end-session. A new game: ref new-session --game NEW-NAME "
                  "--ruleset FILE --players Ann,Bob.")
    assert one_line(hand).endswith(expected + next_steps)  # (112 + 25 + 100) x the factor
    assert "doubled" not in hand or factor == 2
    assert one_line(ok("standings").stdout).endswith(expected + next_steps)
    assert ref_json("standings")["shutout"] is True  # the loser won no hand, whatever the factor


# -- 2. the history shows what set the score ---------------------------------------------------

RUNS = ["--hand", "Ann=7C 8C 9C 7D 8D 9D 7H 8H 9H KS", "--hand", "Bob=6C 10D JH QS 2S 4S 6S 8S 3D 5D",
        "--knock", "Ann"]


def test_history_shows_the_stated_melds_beside_the_hand_they_amend():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *RUNS)  # ref lays the groups down: 46
    ok("amend", "1", *RUNS, "--melds", "Ann=7C 8C 9C / 7D 8D 9D / 7H 8H 9H", "--reason", "Ann laid runs")  # 38
    assert lines(ok("history").stdout) == [
        "History of gin (gin); players: Ann, Bob",
        "entry 3: hand 1, session 1 hand 1 (superseded)",
        "    Ann: 7C 8C 9C 7D 8D 9D 7H 8H 9H KS",
        "    Bob: 6C 10D JH QS 2S 4S 6S 8S 3D 5D",
        "    knock by Ann: Ann scores 46",
        "entry 4: hand 1, session 1 hand 1 AMENDS entry 3",
        "    reason: Ann laid runs",
        "    Ann: 7C 8C 9C 7D 8D 9D 7H 8H 9H KS",
        "    Bob: 6C 10D JH QS 2S 4S 6S 8S 3D 5D",
        "    Ann's melds, as stated: 7C 8C 9C / 7D 8D 9D / 7H 8H 9H",
        "    knock by Ann: Ann scores 38",
    ]


def test_the_night_shows_the_stated_melds_in_the_hand_as_recorded():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *RUNS, "--melds", "Ann=7C 8C 9C / 7D 8D 9D / 7H 8H 9H")
    r = ref("night", input="amend 1\n")
    said = lines(r.stdout + r.stderr)
    start = said.index("Hand 1 as recorded (session 1; entry 3):")
    assert said[start + 1:start + 5] == [
        "    Ann: 7C 8C 9C 7D 8D 9D 7H 8H 9H KS",
        "    Bob: 6C 10D JH QS 2S 4S 6S 8S 3D 5D",
        "    Ann's melds, as stated: 7C 8C 9C / 7D 8D 9D / 7H 8H 9H",
        "    knock by Ann: Ann scores 38",
    ]


OKLAHOMA = ["--hand", "Cy=2S 3S 4S 5D 6D 7D 8C 9C 10C 9H", "--hand", "Dee=AH 2H 3H 4H KS KH KD KC 4C 6C",
            "--knock", "Cy"]


def test_history_shows_the_oklahoma_upcard_and_the_limit_it_set():
    ok("new-session", "--ruleset", "gin", "--variation", "oklahoma", "--players", "Cy,Dee")
    ok("score-hand", *OKLAHOMA, "--upcard", "9S")
    ok("score-hand", *OKLAHOMA, "--upcard", "10S")
    ok("score-hand", "--dead", "--upcard", "AS")  # read and kept; a dead hand has no limit to set
    ok("score-hand", "--dead")
    assert lines(ok("history").stdout)[1:] == [
        "entry 3: hand 1, session 1 hand 1",
        "    Cy: 2S 3S 4S 5D 6D 7D 8C 9C 10C 9H",
        "    Dee: AH 2H 3H 4H KS KH KD KC 4C 6C",
        "    first upcard 9S: knock limit 9 (G13)",
        "    knock by Cy: Cy scores 1",
        "entry 4: hand 2, session 1 hand 2",
        "    Cy: 2S 3S 4S 5D 6D 7D 8C 9C 10C 9H",
        "    Dee: AH 2H 3H 4H KS KH KD KC 4C 6C",
        "    first upcard 10S: knock limit 10 (G13)",
        "    knock by Cy: Cy scores 1",
        "entry 5: hand 3, session 1 hand 3",
        "    Cy: -",
        "    Dee: -",
        "    first upcard AS",
        "    dead hand: nobody scores (G9)",
        "entry 6: hand 4, session 1 hand 4",
        "    Cy: -",
        "    Dee: -",
        "    dead hand: nobody scores (G9)",
    ]


def test_a_long_name_stated_melds_line_wraps_within_80_columns(monkeypatch):
    from rummyref.cli import common

    monkeypatch.setenv("COLUMNS", "80")
    for console in (common.out, common.err):  # created at import, with the width of that moment
        monkeypatch.setattr(console, "_width", 80)
    long = "Annabelle-Maximiliane-Fitzgerald"  # 32 characters: every line shows it shortened
    ok("new-session", "--ruleset", "gin", "--players", f"{long},Bob")
    ok("score-hand", "--hand", f"{long}=AS 2S 3S 4S 7H 7D 7C 10D JD QD KD",
       "--hand", "Bob=9C 9D 9H 5C 5D 5H 2C 3H 8S 6H", "--big-gin", long,
       "--melds", f"{long}=AS 2S 3S 4S / 7H 7D 7C / 10D JD QD KD")
    out = lines(ok("history").stdout)
    assert all(len(line) <= 80 for line in out), out
    start = next(i for i, line in enumerate(out) if "'s melds, as stated:" in line)
    assert one_line(" ".join(out[start:start + 2])) == (
        "Annabelle-Maxim…ane-Fitzgerald's melds, as stated: AS 2S 3S 4S / 7H 7D 7C / 10D JD QD KD")
    assert out[start].startswith("    ") and out[start + 1].startswith("      ")  # hanging under it


# -- 3. stats --json: what does not apply to Gin is null ---------------------------------------

def test_stats_json_has_no_session_figures_for_gin():
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", "--hand", "Ann=5H 6H 7H 2S 2D 2C KC KD KS AH",
       "--hand", "Bob=8H 9H 4H 3S 4S 5S QC QD 7C 7D", "--knock", "Ann")  # Ann 33
    ok("end-session")
    ok("new-session")
    ok("score-hand", "--hand", "Ann=2S 3S 4S 5D 6D 7D 8C 9C 10C 5H",
       "--hand", "Bob=AH 2H 3H KS KH KD QC QD QS 5C", "--knock", "Ann")  # 5 v 5: Bob undercuts, 25
    st = ref_json("stats")
    assert st["head_to_head"] is None
    for p in st["players"]:
        assert {k: p[k] for k in ("nights_won", "longest_night_streak", "current_night_streak",
                                  "average_per_night", "worst_hand")} == dict.fromkeys(
            ("nights_won", "longest_night_streak", "current_night_streak", "average_per_night", "worst_hand"))
    ann, bob = st["players"]
    assert (ann["points"], ann["hands_won"], ann["go_outs"], ann["average_per_hand"]) == (33, 1, 2, 16.5)
    assert (bob["points"], bob["hands_won"], bob["best_hand"]) == (25, 1, {"value": 25, "hand": 2, "night": 2})
    assert ann["nights_played"] == 2 and ann["claims_won"] == 0 and ann["longest_hand_streak"] == 1


def test_stats_json_of_a_long_game_keeps_its_session_figures():
    ok("new-session", "--players", "Ann,Bob")
    ok("score-hand", "--points", "Ann=10", "--points", "Bob=5")
    st = ref_json("stats")
    assert st["head_to_head"] == [
        {"player": "Ann", "opponent": "Bob", "won": 0, "lost": 0, "level": 0},
        {"player": "Bob", "opponent": "Ann", "won": 0, "lost": 0, "level": 0}]
    ann = st["players"][0]
    assert (ann["nights_won"], ann["longest_night_streak"], ann["average_per_night"]) == (0, 0, 10.0)
    assert ann["worst_hand"] == {"value": 10, "hand": 1, "night": 1}


# -- 4. the rule set's hand size ---------------------------------------------------------------

def seven(tmp_path: Path) -> str:
    return house(tmp_path, "gin7", ("cards = [10, 10]", "cards = [7, 7]"), ("default = 10\n", "default = 7\n"))


def test_messages_give_the_rule_sets_hand_size(tmp_path, record):
    ok("new-session", "--ruleset", seven(tmp_path), "--players", "Ann,Bob")
    before = record.snapshot()
    gin = ref("score-hand", "--hand", "Ann=2S 3S 4S 5D 6D 7D 8C", "--hand", "Bob=AH 2H 3H KS KH KD 5C", "--gin", "Ann")
    assert gin.exit_code == 4 and one_line(gin.stderr) == (
        "refused (G5): Ann's hand is not gin: 2S 3S 4S / 5D 6D 7D; deadwood 8C (8) "
        "gin needs all 7 cards melded; with deadwood 10 or less it is a knock")
    big = ref("score-hand", "--hand", "Ann=2S 3S 4S 5D 6D 7D 8C KC", "--hand", "Bob=AH 2H 3H KS KH KD 5C",
              "--big-gin", "Ann")
    assert big.exit_code == 4 and one_line(big.stderr) == (
        "refused (G6): Ann's 8 cards are not big gin: 2S 3S 4S / 5D 6D 7D; deadwood 8C KC (18) "
        "big gin needs all 8 cards melded, before any discard")
    foreign = ref("score-hand", "--points", "Ann=3")
    assert foreign.exit_code == 3 and one_line(foreign.stderr) == (
        "error: --points is not for Gin Rummy games "
        'Gin Rummy: ref score-hand --hand "NAME=7 CARDS" --hand "NAME=7 CARDS" with --knock NAME, --gin NAME, '
        '--big-gin NAME (8 cards) or --dead; --melds "NAME=MELDS" states what was laid down')
    assert record.snapshot() == before
    cards = ref("new-session", "--ruleset", seven(tmp_path), "--players", "Cy,Dee", "--game", "g", "--cards", "7")
    assert cards.exit_code == 3 and one_line(cards.stderr) == (
        "error: --cards: not for Gin Rummy Gin is two players, 7 cards each, no WILDCARDs, a game to the target")


def test_the_shipped_rule_set_still_says_10_and_11(record):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    foreign = ref("score-hand", "--points", "Ann=3")
    assert 'ref score-hand --hand "NAME=10 CARDS" --hand "NAME=10 CARDS"' in one_line(foreign.stderr)
    assert "--big-gin NAME (11 cards)" in one_line(foreign.stderr)
    help_ = one_line(ref("score-hand", "--help").stdout)
    assert "Gin: NAME went big gin (all 11 cards in the shipped rule set: one more than dealt)." in help_


def test_the_night_asks_for_the_rule_sets_big_gin(tmp_path):
    answers = "cards\n2S 3S 4S 5D 6D 7D 8C\nAH 2H 3H KS KH KD 5C\nknock Ann\n\nend\n"
    r = ok("night", "--ruleset", seven(tmp_path), "--players", "Ann,Bob", input=answers)
    assert "Ann's cards (the knocker's after the discard; big gin: all 8):" in r.stderr
    assert "all 11" not in r.stdout + r.stderr
    assert "Undercut: Bob scores 28." in r.stdout + r.stderr  # 25 + (8 - 5)


# -- 5. a finished game: G10 cited everywhere -------------------------------------------------

def test_a_finished_game_is_refused_citing_g10(record):
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *SHUTOUT)
    ok("end-session")
    before = record.snapshot()
    for command in ("new-session", "night"):
        r = ref(command)
        assert r.exit_code == 4 and r.stdout == ""
        assert one_line(r.stderr) == ("refused (G10): game gin is over: Ann won start a new game with ref new-session "
                                      "--game NEW-NAME --ruleset gin --players Ann,Bob; the history of this one stays")
    dead = ref("score-hand", "--dead")  # the same words (audit rules44 #6)
    assert dead.exit_code == 4 and one_line(dead.stderr) == one_line(r.stderr)
    assert record.snapshot() == before


def test_cards_after_the_game_over_hand_in_the_night_cites_g10():
    answers = "cards\n" + SHUTOUT[1].split("=", 1)[1] + "\n" + SHUTOUT[3].split("=", 1)[1] + "\ngin Ann\n\ncards\nend\n"
    r = ok("night", "--ruleset", "gin", "--players", "Ann,Bob", input=answers)
    said = one_line(r.stdout + r.stderr)
    assert ("refused (G10): game gin is over: Ann won type end to close the session; start a new game with ref "
            "new-session --game NEW-NAME --ruleset gin --players Ann,Bob; the history of this one stays") in said


def test_a_finished_long_game_still_cites_a7_where_its_house_rules_have_it(record):
    """The seam: the long game's refusal is unchanged (A7 where the rule set's house rules have it)."""
    from rummyref.games.registry import kind_for
    from rummyref.rules.ruleset import load_ruleset

    for name in ("rummy-2m", "simple-rummy", "gin"):
        rs = load_ruleset(name)
        assert kind_for(rs).over_rule(rs) == ("G10" if name == "gin" else rs.cite("A7"))
    assert load_ruleset("rummy-2m").cite("A7") == "A7"


# -- a correction that ends the game --------------------------------------------------------------

#: Ann goes gin against 47 of Bob's deadwood: 72, the game goes on
SMALL = ["--hand", "Ann=AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "--hand", "Bob=2H 2D 3C 4H 5D 6C 7H 8D 9C AH",
         "--gin", "Ann"]


def test_a_correction_that_ends_the_game_says_the_open_session_may_end(record):
    """As the hand that ends a game does (and as ``ref standings`` then does): the session
    still open may end. Once it has closed, a correction names only the new game."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", *SMALL)
    ended = one_line(ok("amend", "1", "--reason", "Bob's hand mistyped", *SHUTOUT).stdout)
    assert "GAME OVER: Ann wins" in ended
    assert ended.endswith("The session may end now: ref end-session. A new game: ref new-session "
                          "--game NEW-NAME --ruleset gin --players Ann,Bob.")
    assert "The session may end now: ref end-session." in ok("standings").stdout
    ok("end-session")
    again = one_line(ok("amend", "1", "--reason", "once more", *SHUTOUT).stdout)
    assert "GAME OVER: Ann wins" in again and "may end" not in again
    assert again.endswith("A new game: ref new-session --game NEW-NAME --ruleset gin --players Ann,Bob.")
