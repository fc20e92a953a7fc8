"""Issue 12 in ``ref night`` (a real pseudo-terminal): the same examples as at the command line
(tests/cli/test_issue12.py), with the exact points, winners and what is recorded."""

from __future__ import annotations

from cli_helpers import ref_json
from test_night import CLAIMS, CONFIRM, CONFIRM_VOID, PROMPT, REASON, Night, flat, night_db  # noqa: F401

POINTS_OFFERED = "{}'s points this hand: "


def totals(db: str) -> dict[str, int]:
    return {p["name"]: p["total"] for p in ref_json("standings", "--db", db)["players"]}


def test_the_issue_examples_in_a_night(night_db):  # noqa: F811
    n = Night("--db", night_db, "--wildcards", "2")
    # hand 1: Bill AS AH AC, Larry 2D 3D 4D, Ben lays off the AD: the run (B5), 1 point; Ben's
    # "KS / 2C" at the prompt debits both cards
    n.answer(PROMPT, "cards")
    n.cards(("Bill", "AS AH AC", ""), ("Ben", "AD", "KS / 2C"), ("Larry", "2D 3D 4D", ""))
    shown = flat(n.answer(CONFIRM, ""))
    assert "AD (Ben) 2D 3D 4D (Larry) [run, ace low, 10] by default (runs first, B5): Ben's AD" in shown
    assert "Ben: AD 1 (run AD 2D 3D 4D) - KS 2C 12 held = -11" in shown
    assert "AS AH AC (Bill) [match, 45] arranged by ref (the engine)" in shown
    # hand 2: the WILDCARD example: Bill's W read as the 7H (18), Ben's on Larry's kings (10)
    n.answer(PROMPT, "cards")
    n.cards(("Bill", "5H 6H W", ""), ("Ben", "W>Larry", ""), ("Larry", "KS KH KD", "QD"))
    shown = flat(n.answer(CONFIRM, ""))
    assert "5H 6H W(=7H) (Bill) [run, 18]" in shown and "KS KH KD (Larry) W(=KC)^ (Ben) [match, 40]" in shown
    assert "Bill: 5H 6H W(=7H) 18 (run 5H 6H W(=7H)) = 18" in shown
    # hand 3: claims at the prompt, with a '/' between the cards: none dropped; the AD claimed
    # and designated to the match counts 15 for Ben
    n.answer(PROMPT, "cards")
    n.answer("Bill melded or laid off (cards; '/' between melds; blank: none): ", "AS AH AC / 2S 3S 4S")
    n.answer("Bill left in hand (cards; blank: none): ", "")
    n.answer("Ben melded or laid off (cards; '/' between melds; blank: none): ", "")
    n.answer("Ben left in hand (cards; blank: none): ", "9C / 2C")
    n.answer("Larry melded or laid off (cards; '/' between melds; blank: none): ", "2D 3D 4D")
    n.answer("Larry left in hand (cards; blank: none): ", "")
    n.answer("Who went out? (name; blank: nobody): ", "")
    n.answer(CLAIMS, "Larry=5S / 6S, Ben=AD>match")
    shown = flat(n.answer(CONFIRM, ""))
    assert "AS AH AC (Bill) AD^* (Ben) [match, 60] said by the table" in shown  # ^: sideways (B6)
    assert "Ben: AD^* 15 (match AS AH AC AD^*) - 9C 2C 11 held = 4" in shown
    assert "Larry: 5S* 6S* 11 (run 2S 3S 4S 5S* 6S*) + 2D 3D 4D 9 (run 2D 3D 4D) = 20" in shown
    # the disputes of the issue at the prompt: B4's example refused (nothing recorded), B8's judge,
    # B3's Rummy! card kept in play
    n.answer(PROMPT, '! pickup 7H --hand "6H 2C" --table "4H 5H"')
    shown = flat(n.expect(PROMPT))
    assert "error: table meld 1 (4H 5H) is not a valid meld" in shown and "Recorded" not in shown
    n.child.sendline("! claim --called Bill=Ben=Larry --touched Bill=Ben")
    shown = flat(n.expect(PROMPT))
    assert "A true tie between Bill and Ben: Larry must judge it" in shown
    n.child.sendline("! discard --took 2C --discarded 9S --going-out --table '10S JS QS'")
    shown = flat(n.expect(PROMPT))
    assert "Not allowed to go out: 9S is a Rummy! card." in shown and "the hand goes on" in shown
    n.child.sendline("! designate AD")  # no table: only an answer, no precedent
    shown = flat(n.expect(PROMPT))
    assert "Not recorded (it answered a question and settled nothing" in shown
    n.child.sendline("history")
    shown = flat(n.expect(PROMPT))
    assert "AD (Ben) 2D 3D 4D (Larry) [run, ace low, 10] by default (runs first, B5): Ben's AD" in shown
    assert "Ben: AD^* 15 (match AS AH AC AD^*) - 9C 2C 11 held = 4" in shown
    n.child.sendline("quit")
    assert n.finish() == 0

    assert totals(night_db) == {"Bill": 45 + 18 + 54, "Ben": -11 + 10 + 4, "Larry": 9 + 20 + 20}
    rulings = ref_json("rulings", "--db", night_db)["rulings"]
    # the refused pickup left none, nor the tie still waiting for Larry's judgment (it settled nothing)
    assert [r["kind"] for r in rulings] == ["discard"]
    assert ref_json("verify", "--db", night_db)["ok"]


def test_a7_in_a_night_a_tie_past_the_mark_then_an_amend_changes_the_winner(night_db):  # noqa: F811
    n = Night("--db", night_db, "--opening", "Bill=1999990", "--opening", "Ben=1999990")
    n.answer(PROMPT, "points")
    n.points(Bill=20, Ben=20, Larry=0)
    shown = flat(n.answer(CONFIRM, ""))
    n.answer(PROMPT, "points")
    assert "Bill and Ben are level past the target: play goes on hand by hand (A7)" in flat(n.said)
    # the next hand takes both below the mark: the game ends all the same, Ben leads alone
    n.points(Bill=-60, Ben=-50, Larry=0)
    n.answer(CONFIRM, "")
    shown = flat(n.expect(PROMPT))
    assert "GAME OVER (A7): Ben wins with 1,999,960." in shown
    # an amend that puts Bill ahead makes Bill the winner
    n.child.sendline("amend 2")
    n.answer(REASON, "the points were swapped")
    n.answer("Fix which answer? (Bill / Ben / Larry / drop): ", "Bill")
    n.answer(POINTS_OFFERED.format("Bill"), "\x15-50")
    n.answer(CONFIRM, "fix Ben")
    n.answer(POINTS_OFFERED.format("Ben"), "\x15-60")
    shown = flat(n.answer(CONFIRM, ""))
    assert "The game would be over (A7): Bill wins with 1,999,960." in shown
    shown = flat(n.answer(PROMPT, "quit"))
    assert n.finish() == 0
    standings = ref_json("standings", "--db", night_db)
    assert standings["over"] and standings["winner"] == "Bill"
    assert totals(night_db) == {"Bill": 1_999_960, "Ben": 1_999_950, "Larry": 0}


def test_a_voided_hand_is_dealt_again_in_a_night_and_the_night_may_end(night_db):  # noqa: F811
    n = Night("--db", night_db)
    n.answer(PROMPT, "points")
    n.points(Bill=5, Ben=0, Larry=0)
    n.answer(CONFIRM, "")
    n.answer(PROMPT, "void 1")
    n.answer(REASON, "dealt by mistake")
    n.answer(CONFIRM_VOID, "")
    shown = flat(n.expect(PROMPT))
    assert "Next: hand 1 of Rummy Night 1 (hand 2 of rummy-2m): Bill deals." in shown
    n.child.sendline("end")
    assert n.finish() == 0
    assert "closed as abandoned and does not count as a Rummy Night" in flat(n.said)
    assert ref_json("standings", "--db", night_db)["nights"] == 0


def test_a7_in_a_night_an_opening_total_at_the_target_is_refused(night_db):  # noqa: F811
    n = Night("--db", night_db, "--opening", "Bill=2000000")
    assert n.finish() == 4
    assert "refused (A7): Bill's opening total 2,000,000 is at or past the target 2,000,000" in flat(n.said)
    n = Night("--db", night_db, "--opening", "Bill=1999999")
    n.answer(PROMPT, "quit")
    assert n.finish() == 0
    assert totals(night_db)["Bill"] == 1_999_999


def test_simple_rummy_in_a_night_an_impossible_hand_is_refused_and_asked_again(night_db):  # noqa: F811
    n = Night("--db", night_db, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5")
    n.answer(PROMPT, "game")
    n.answer("Bob's final hand (cards; or: dropped): ", "2C")
    n.answer("Cy's final hand (cards; or: dropped): ", "AS AD AC 6H 7S")
    n.answer("Ann's final hand (cards; or: dropped): ", "2H 3H 4H 4S 4D")
    n.answer("How did the game end?", "")
    shown = flat(n.answer("Fix which answer?", "Bob"))
    assert ("refused (S1): Bob's hand has 1 card, but with 5 dealt a player who did not go out holds 5 at the "
            "end of a game") in shown
    n.answer("Bob's final hand (cards; or: dropped): ", "\x15KS QD 9C 8C 2C")
    shown = flat(n.answer(CONFIRM, ""))
    assert "Winner: Ann." in shown
    n.answer(PROMPT, "quit")
    assert n.finish() == 0
    st = ref_json("standings", "--db", night_db)
    assert st["games"] == 1 and {p["name"]: p["game_wins"] for p in st["players"]} == {"Ann": 1, "Bob": 0, "Cy": 0}
