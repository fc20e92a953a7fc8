"""Issue 12 at the command line, bullet by bullet, with the exact points, winners and exit codes
(the same cases in ``ref night``: tests/cli/test_night_issue12.py). The library-level tests
are in tests/games/long/test_table.py, test_outcome.py, tests/disputes and
tests/games/low_count/test_hand_sizes.py."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

TABLE = ["--melded", "Bill=AS AH AC", "--melded", "Larry=2D 3D 4D"]
NOBODY_HOLDS = ["--held", "Bill=", "--held", "Ben=", "--held", "Larry="]
BILL_FIRST, LARRY_FIRST = "Bill,Ben,Larry", "Larry,Ben,Bill"


def hand(players: str, *args: str, wildcards: str = "2") -> dict:
    """A new game with ``players`` (deal order), one hand scored from ``args``: its JSON."""
    assert ref("new-session", "--players", players, "--wildcards", wildcards).exit_code == 0
    return ref_json("score-hand", *args)


# -- Rummy 2,000,000 scoring: B5 for lay-offs and claims, whatever the roster order -------------------


@pytest.mark.parametrize("players", [BILL_FIRST, LARRY_FIRST])
@pytest.mark.parametrize(
    "ben, points, claimed",
    [
        (["--melded", "Ben=AD"], 1, 0),  # laid off: the run (B5), an ace low is 1
        (["--claim", "Ben=AD"], 1, 1),  # won by a Rummy! claim: the same
        (["--melded", "Ben=AD /"], 1, 0),  # "Ben=AD /": one card laid off, nothing dropped
        (["--melded", "Ben=AD>run"], 1, 0),
        (["--melded", "Ben=AD>match"], 15, 0),
        (["--melded", "Ben=AD^"], 15, 0),  # sideways on the match (B6)
        (["--melded", "Ben=AD>Bill"], 15, 0),  # joined Bill's meld
        (["--melded", "Ben=AD>AC"], 15, 0),  # joined the meld holding the AC
        (["--melded", "Ben=AD>Larry"], 1, 0),
        (["--claim", "Ben=AD>match"], 15, 15),
        (["--claim", "Ben=AD / "], 1, 1),
    ],
)
def test_b5_the_issue_example_ace_laid_off_or_claimed(players, ben, points, claimed):
    data = hand(players, *TABLE, *ben, *NOBODY_HOLDS)
    assert data["totals"] == {"Bill": 45, "Ben": points, "Larry": 9}
    [bens] = [s for s in data["score"]["scores"] if s["name"] == "Ben"]
    assert bens["claimed"] == claimed
    [ad] = [c for m in data["score"]["arrangement"] for c in m["laid"] if c["card"] == "AD"]
    assert ad["by"] == "Ben" and ad["value"] == points


@pytest.mark.parametrize("players", [BILL_FIRST, LARRY_FIRST])
@pytest.mark.parametrize("bill, larry", [("AS AH AC /", "2D 3D 4D"), ("AS AH AC", "2D 3D 4D /"),
                                         ("AS AH AC /", "2D 3D 4D /")])
def test_b5_when_other_players_state_their_own_melds(players, bill, larry):
    data = hand(players, "--melded", f"Bill={bill}", "--melded", f"Larry={larry}", "--melded", "Ben=AD",
                *NOBODY_HOLDS)
    assert data["totals"] == {"Bill": 45, "Ben": 1, "Larry": 9}


def test_b5_the_arrangement_printed_says_who_laid_what_and_why():
    assert ref("new-session", "--players", BILL_FIRST).exit_code == 0
    r = ref("score-hand", *TABLE, "--melded", "Ben=AD", "--held", "Ben=KS", "--held", "Bill=", "--held", "Larry=")
    assert r.exit_code == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert "AS AH AC (Bill) [match, 45] arranged by ref (the engine)" in text
    assert "AD (Ben) 2D 3D 4D (Larry) [run, ace low, 10] by default (runs first, B5): Ben's AD" in text
    assert "Ben: AD 1 (run AD 2D 3D 4D) - KS 10 held = -9" in text
    assert "Bill: AS AH AC 45 (match AS AH AC) = 45" in text
    assert all(len(line) <= 80 for line in r.stdout.splitlines())


@pytest.mark.parametrize(
    "larry, sevens, run, b5",
    [
        ("8C 9C 10C", "7S 7H 7D (Bill) [match, 21]", "7C (Ben) 8C 9C 10C (Larry) [run, 34]", True),
        ("8D 9D 10D", "7S 7H 7D (Bill) 7C (Ben) [match, 28]", "8D 9D 10D (Larry) [run, 27]", False),
    ],
)
def test_b5_default_is_printed_only_on_the_run_it_decided(larry, sevens, run, b5):
    assert ref("new-session", "--players", BILL_FIRST).exit_code == 0
    r = ref("score-hand", "--melded", "Bill=7S 7H 7D", "--melded", "Ben=7C", "--melded", f"Larry={larry}",
            *NOBODY_HOLDS)
    assert r.exit_code == 0, r.stderr
    lines = [" ".join(line.split()) for line in r.stdout.replace("\n      ", " ").splitlines()]
    [match_line] = [line for line in lines if line.startswith(sevens)]
    [run_line] = [line for line in lines if line.startswith(run)]
    assert "B5" not in match_line
    assert ("by default (runs first, B5): Ben's 7C" in run_line) is b5
    assert ("B5" in r.stdout) is b5


# -- WILDCARDs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bill, ben, totals",
    [
        ("5H 6H W", "W>Larry", {"Bill": 18, "Ben": 10, "Larry": 20}),  # the issue's example
        ("5H 6H W=4H", "W>Larry", {"Bill": 15, "Ben": 10, "Larry": 20}),  # the table says what it stands for
        ("5H 6H W", "W", {"Bill": 18, "Ben": 8, "Larry": 20}),  # Ben's bare W: the run (B5), as the 8H
        ("5H 6H W", "W=KC", {"Bill": 18, "Ben": 10, "Larry": 20}),
    ],
)
def test_wildcard_credit_goes_to_who_laid_it(bill, ben, totals):
    data = hand(BILL_FIRST, "--melded", f"Bill={bill}", "--melded", "Larry=KS KH KD", "--melded", f"Ben={ben}",
                "--held", "Bill=", "--held", "Ben=", "--held", "Larry=QD")
    assert data["totals"] == totals
    shown = {m["value"] for m in data["score"]["arrangement"]}
    assert sum(shown) == sum(s["melded"] + s["claimed"] for s in data["score"]["scores"])


def test_wildcard_stated_or_read_is_shown_so():
    assert ref("new-session", "--players", BILL_FIRST, "--wildcards", "2").exit_code == 0
    r = ref("score-hand", "--melded", "Bill=5H 6H W", "--melded", "Larry=KS KH KD", "--melded", "Ben=W=KC",
            "--held", "Bill=", "--held", "Ben=", "--held", "Larry=QD")
    text = " ".join(r.stdout.split())
    assert "5H 6H W(=7H) (Bill) [run, 18] arranged by ref (the engine)" in text
    assert "KS KH KD (Larry) W=KC (Ben) [match, 40] said by the table (Ben's W=KC)" in text


# -- nothing typed is dropped -------------------------------------------------------------------------


def test_cards_after_a_slash_in_held_and_claim_all_count():
    data = hand(BILL_FIRST, *TABLE, "--claim", "Larry=5D / 6D", "--melded", "Ben=AD", "--held", "Ben=KS / 2C",
                "--held", "Bill=", "--held", "Larry=9H | 2H")
    assert data["totals"] == {"Bill": 45, "Ben": 1 - 12, "Larry": 9 + 5 + 6 - 11}


@pytest.mark.parametrize(
    "args, code, words",
    [
        (["--melded", "Ben=AD>Larry>match"], 4, "Ben's AD>Larry>match (--melded) cannot be"),
        (["--melded", "Ben=AD>9S"], 3, "the 9S is not on the table"),
        (["--melded", "Ben=9C"], 4, "Ben's 9C (--melded) cannot sit in any meld"),
        (["--held", "Ben=KS / 2C>run"], 3, "a card left in hand joins no meld"),
    ],
)
def test_a_card_or_designation_that_fits_nowhere_is_refused_and_nothing_written(args, code, words):
    assert ref("new-session", "--players", BILL_FIRST).exit_code == 0
    held = [] if "--held" in args else ["--held", "Ben="]
    r = ref("score-hand", *TABLE, *args, *held, "--held", "Bill=", "--held", "Larry=")
    assert r.exit_code == code, r.stdout + r.stderr
    assert words in " ".join(r.stderr.split())
    assert ref_json("standings")["hands"] == 0


@pytest.mark.parametrize("said", ["Larry=JC>run", "Larry=JC>QC", "Larry=JC>Larry", "Larry=JC>match"])
def test_a_card_said_to_join_a_meld_cannot_be_one_that_laid_it_and_the_refusal_says_so(said):
    """Larry's QC KC and his claimed JC laid a run (ref finds it with nothing said); with '>' the
    JC joined a meld already there, and none is there without it: the designation is named."""
    assert ref("new-session", "--players", BILL_FIRST).exit_code == 0
    none = ("--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    seated = ref_json("score-hand", "--melded", "Larry=QC KC", "--claim", "Larry=JC", *none)
    assert [m["cards"] for m in seated["score"]["arrangement"]] == [["JC", "QC", "KC"]]
    r = ref("score-hand", "--melded", "Larry=QC KC", "--claim", said, *none)
    assert r.exit_code == 4
    assert " ".join(r.stderr.split()).startswith(
        f"refused (B5): Larry's {said.split('=')[1]} (--claim) cannot be: no ")
    said_of = ("takes the JC; it lays a run itself, and '>' says it joined a match already there"  # not a match
               if said.endswith(">match") else
               "takes the JC but one it lays itself, and '>' says a card joined a meld already there")
    assert said_of in " ".join(r.stderr.split())
    assert ref_json("standings")["hands"] == 1


# -- A7 after corrections; a tie past the mark; the opening total ---------------------------------------


def test_a7_an_amend_that_changes_who_leads_past_the_mark_changes_the_winner():
    assert ref("new-session", "--opening", "Bill=1999990", "--opening", "Ben=1999985").exit_code == 0
    first = ref_json("score-hand", "--points", "Bill=20", "--points", "Ben=0", "--points", "Larry=0")
    assert first["over"] and first["winner"] == "Bill"
    amended = ref_json("amend", "1", "--points", "Bill=0", "--points", "Ben=30", "--points", "Larry=0",
                       "--reason", "the points were swapped")
    assert amended["over"] and amended["winner"] == "Ben" and amended["totals"]["Ben"] == 2_000_015
    assert ref_json("standings")["winner"] == "Ben"
    back = ref_json("amend", "1", "--points", "Bill=0", "--points", "Ben=0", "--points", "Larry=0",
                    "--reason", "nobody passed")
    assert not back["over"] and back["winner"] is None
    assert ref("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1").exit_code == 0


def test_a7_a_void_recomputes_the_end():
    assert ref("new-session", "--opening", "Bill=1999990").exit_code == 0
    assert ref_json("score-hand", "--points", "Bill=20", "--points", "Ben=0", "--points", "Larry=0")["over"]
    voided = ref_json("void", "1", "--reason", "misdeal")
    assert not voided["over"] and voided["winner"] is None


def test_a7_a_tie_past_the_mark_ends_at_the_first_hand_with_one_leader_even_below_the_mark():
    assert ref("new-session", "--opening", "Bill=1999990", "--opening", "Ben=1999990").exit_code == 0
    tie = ref_json("score-hand", "--points", "Bill=20", "--points", "Ben=20", "--points", "Larry=0")
    assert not tie["over"] and tie["tied"] == ["Bill", "Ben"]
    again = ref_json("score-hand", "--points", "Bill=-5", "--points", "Ben=-5", "--points", "Larry=0")
    assert not again["over"] and again["tied"] == ["Bill", "Ben"]  # still level, both past the mark
    end = ref_json("score-hand", "--points", "Bill=-60", "--points", "Ben=-50", "--points", "Larry=0")
    assert end["totals"] == {"Bill": 1_999_945, "Ben": 1_999_955, "Larry": 0}  # both below the mark
    assert end["over"] and end["winner"] == "Ben"
    r = ref("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    assert r.exit_code == 4 and "A7" in r.stderr


def test_a7_leaders_still_level_below_the_mark_are_not_said_to_be_past_it():
    assert ref("new-session", "--opening", "Bill=1999990", "--opening", "Ben=1999990").exit_code == 0
    tie = ref("score-hand", "--points", "Bill=10", "--points", "Ben=10", "--points", "Larry=0")
    assert "Bill and Ben are level past the target: play goes on hand by hand (A7)." in " ".join(tie.stdout.split())
    below = ref("score-hand", "--points", "Bill=-85", "--points", "Ben=-85", "--points", "Larry=0")
    said = " ".join(below.stdout.split())
    assert "Bill and Ben are still level after their tie past the target: play goes on" in said
    assert "level past the target" not in said


def test_a7_standings_say_the_leaders_are_still_level_below_the_mark_until_one_leads():
    assert ref("new-session", "--opening", "Bill=1999990", "--opening", "Ben=1999990").exit_code == 0
    ref_json("score-hand", "--points", "Bill=20", "--points", "Ben=20", "--points", "Larry=0")
    ref_json("score-hand", "--points", "Bill=-15", "--points", "Ben=-15", "--points", "Larry=0")
    data = ref_json("standings")  # both at 1,999,995: below the mark, the game not over
    assert not data["over"] and data["tied_leaders"] == ["Bill", "Ben"]
    said = " ".join(ref("standings").stdout.split())
    assert "Bill and Ben are still level after their tie past the target: play goes on (A7)." in said
    ref_json("score-hand", "--points", "Bill=0", "--points", "Ben=5", "--points", "Larry=0")
    after = ref_json("standings")
    assert after["over"] and after["winner"] == "Ben" and after["tied_leaders"] == []
    ref_json("void", "3", "--reason", "misdeal")  # back to the pending tie
    assert ref_json("standings")["tied_leaders"] == ["Bill", "Ben"]


@pytest.mark.parametrize("opening, code", [("2000000", 4), ("2500000", 4), ("1999999", 0)])
def test_a7_an_opening_total_at_or_past_the_target_is_refused(opening, code):
    r = ref("new-session", "--opening", f"Bill={opening}")
    assert r.exit_code == code, r.stderr
    if code:
        assert "refused (A7)" in r.stderr and "at or past the target" in r.stderr
        assert ref("standings").exit_code == 5  # nothing written: there is no record
    else:
        assert ref_json("standings")["players"][0]["total"] == 1_999_999


# -- disputes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("called, touched", [("Bill=Ben=Larry", "Bill=Ben"), ("Bill=Ben", "Bill=Ben=Larry")])
def test_b8_a_player_who_only_touched_or_called_judges_at_the_command_line(called, touched):
    data = ref_json("dispute", "claim", "--called", called, "--touched", touched, "--no-record")
    assert data["outcome"] == "judge-decides" and "Larry must judge it" in data["verdict"]
    judged = ref_json("dispute", "claim", "--called", called, "--touched", touched, "--judge-says", "Ben",
                      "--no-record")
    assert judged["details"]["winner"] == "Ben"


def test_b4_the_issue_example_is_exit_3_and_writes_nothing():
    assert ref("new-session").exit_code == 0
    r = ref("dispute", "pickup", "7H", "--hand", "6H 2C", "--table", "4H 5H")
    assert r.exit_code == 3 and "table meld 1 (4H 5H) is not a valid meld" in r.stderr
    assert ref_json("rulings")["rulings"] == []


def test_b3_going_out_by_discarding_a_rummy_card_is_not_allowed():
    r = ref("dispute", "discard", "--took", "2C", "--discarded", "9S", "--going-out", "--table", "10S JS QS",
            "--no-record")
    assert r.exit_code == 0
    text = " ".join(r.stdout.split())
    assert "Not allowed to go out: 9S is a Rummy! card." in text and "the hand goes on" in text


def test_a_dispute_that_settles_nothing_is_not_a_precedent():
    assert ref("new-session").exit_code == 0
    assert ref("dispute", "end-night").exit_code == 0  # "can we stop?"
    assert ref("dispute", "designate", "AD").exit_code == 0  # no table: only an answer
    assert ref_json("rulings")["rulings"] == []
    assert ref("dispute", "designate", "AD", "--table", "2D 3D 4D", "--table", "AS AH AC").exit_code == 0
    assert len(ref_json("rulings")["rulings"]) == 1
    assert ref("dispute", "end-night", "--record").exit_code == 0
    assert len(ref_json("rulings")["rulings"]) == 2


# -- sessions: a voided hand is dealt again ----------------------------------------------------------


def test_a_voided_hand_is_dealt_again_by_its_dealer():
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", "--points", "Bill=5", "--points", "Ben=0", "--points", "Larry=0").exit_code == 0
    voided = ref_json("void", "1", "--reason", "misdeal")
    assert voided["hand"] == 1
    r = ref("score-hand", "--points", "Bill=1", "--points", "Ben=0", "--points", "Larry=0", "--dealer", "Ben")
    assert r.exit_code == 4 and "Bill's deal" in " ".join(r.stderr.split())
    again = ref_json("score-hand", "--points", "Bill=1", "--points", "Ben=0", "--points", "Larry=0",
                     "--dealer", "Bill")
    assert again["dealer"] == "Bill" and again["next_dealer"] == "Ben"


# -- Simple Rummy: impossible hand sizes --------------------------------------------------------------


FIVE = {"Ann": "2C 3C 4C 9D KD", "Bob": "3D 4D 5D 6D 7D", "Cy": "8S 9S 10S JS QS", "Dee": "KH KC 2S 3S 4S"}
TWELVE = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"


@pytest.mark.parametrize(
    "cards, hands, out, words",
    [
        (5, {**FIVE, "Ann": "2C"}, None, "Ann's hand has 1 card, but with 5 dealt a player who did not go out holds 5"),
        (5, {**FIVE, "Bob": TWELVE}, None, "Bob's hand has 12 cards"),
        (2, {"Ann": "2C", "Bob": "5H 6H", "Cy": "KS QS"}, "Ann",
         "Ann's hand has 1 card, but with 2 dealt the player who went out holds 3"),
    ],
)
def test_simple_rummy_an_impossible_hand_is_refused_exit_4(cards, hands, out, words):
    players = ",".join(hands)
    r = ref("new-session", "--ruleset", "simple-rummy", "--players", players, "--cards", str(cards))
    assert r.exit_code == 0, r.stderr
    args = [a for n, h in hands.items() for a in ("--hand", f"{n}={h}")] + (["--out", out] if out else [])
    r = ref("score-hand", *args)
    assert r.exit_code == 4, r.stdout + r.stderr
    assert words in " ".join(r.stderr.split()), r.stderr
    assert "(S1)" in r.stderr or "(S9)" in r.stderr
    assert ref_json("history")["entries"] == [] or all(e["hand"] is None for e in ref_json("history")["entries"])
