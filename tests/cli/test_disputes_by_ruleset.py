"""Disputes by the open game's rule set, at the command line, with the exact messages (the
black-box audit of ``ref dispute``):

1. ``end-night`` answers as ``ref end-session`` acts for the open game's kind: only a rule set
   whose sessions end after full rounds (Rummy 2,000,000's A4) refuses mid-round;
2. every dispute uses the open game's rule set (or ``--ruleset``); a dispute whose rules the
   rule set does not have is refused (exit 5) naming the rule set, never answered by
   another rule set's rules; a ruling by another rule set than the table's is not kept
   unless asked;
3. ``claim``: facts that cannot all be true (``--completed`` against the orders, a player
   completing with no claim) and a judgment where there is no tie are refused (exit 3);
4. a claim still waiting for the judge or the table settled nothing: not kept unless asked,
   and ``"settled": false`` in its JSON.
"""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-27T20:30:00+00:00")


def flat(text: str) -> str:
    """Lines joined with single spaces (messages wrap at the terminal's width)."""
    return " ".join(text.split())


def ok(*args: str):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def refused(code: int, *args: str) -> str:
    """The refusal's whole message (nothing on stdout), its wrapping undone."""
    result = ref(*args)
    assert result.exit_code == code, result.stdout + result.stderr
    assert result.stdout == ""
    return flat(result.stderr)


def simple_rummy_game() -> None:
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy")
    ok("score-hand", "--hand", "Ann=2H 3H 4H 9S 9D 9C 5S", "--hand", "Bob=5C 6C 7C 8C JD QD KD",
       "--hand", "Cy=AS 2S 3S 4S 5D 6D 8H")


def entries(game: str) -> list[str]:
    """The history's entry lines: what the record holds."""
    return [line for line in ok("history", "--game", game).stdout.splitlines() if line.startswith("entry ")]


# -- 1. end-night answers as end-session acts ---------------------------------------------------


def test_end_night_at_a_simple_rummy_table_allows_what_end_session_does():
    simple_rummy_game()
    result = ok("dispute", "end-night")
    assert result.stdout == (
        "Allowed: Simple Rummy has no full-round rule; the session may end after any game.\n"
        "Why:\n"
        "  1.       no rule of Simple Rummy asks for full rounds (that is Rummy 2,000,000's A4): ref\n"
        "           end-session closes the session after any game\n"
        "From the record: session 1 of simple-rummy, 1 game dealt in this session.\n"
    )
    assert result.stderr == "Not recorded (it answered a question and settled nothing; --record keeps it).\n"
    data = ref_json("dispute", "end-night")
    assert (data["ruleset"], data["outcome"], data["rules"], data["settled"]) == ("simple-rummy", "allowed", [], False)
    assert data["details"] == {"full_rounds": False}
    ok("end-session")  # the command that ends it agrees


def test_end_night_at_a_gin_table_and_a_500_rum_table():
    ok("new-session", "--ruleset", "gin", "--players", "Al,Bo", "--game", "g")
    assert ok("dispute", "end-night").stdout.splitlines()[0] == (
        "Allowed: Gin Rummy has no full-round rule; the session may end after any hand.")
    ok("end-session", "--game", "g")
    ok("new-session", "--ruleset", "rummy-500", "--players", "Al,Bo,Cy", "--game", "five")
    ok("score-hand", "--points", "Al=5", "--points", "Bo=3", "--points", "Cy=1")
    result = ok("dispute", "end-night")
    assert result.stdout.splitlines()[0] == "Allowed: 500 Rum has no full-round rule; the session may end after any hand."
    assert result.stdout.splitlines()[-1] == "From the record: session 1 of five, 1 hand dealt in this session."
    ok("end-session", "--game", "five")


def test_end_night_facts_form_takes_the_rule_set_and_rummy_2m_still_refuses_mid_round():
    allowed = ok("dispute", "end-night", "--hands", "1", "--players", "Ann,Bob,Cy", "--ruleset", "simple-rummy")
    assert allowed.stdout.splitlines()[0] == (
        "Allowed: Simple Rummy has no full-round rule; the session may end after any game.")
    ok("new-session")
    ok("score-hand", "--points", "Bill=45", "--points", "Ben=-10", "--points", "Larry=20")
    result = ok("dispute", "end-night")
    assert result.stdout == (
        "Refused (A4): the round is not over; still to deal: Ben and Larry.\n"
        "Why:\n"
        "  1. A3    deal order Bill, Ben, Larry: 1 of 3 hands of this round dealt\n"
        "  2. A4    the round is not finished: Ben and Larry still have to deal\n"
        "From the record: Rummy Night 1 of rummy-2m, 1 hand dealt tonight.\n"
    )
    assert ref("end-session").exit_code == 4  # the command that would end it agrees


# -- 2. every dispute by the open game's rule set -------------------------------------------------

HINT = ('ask Simple Rummy\'s own rules with ref ruling --ruleset simple-rummy "...", or settle it by '
        "Rummy 2,000,000's rules with --ruleset rummy-2m")

NO_SUCH_RULE = {
    "claim": (["--called", "Ann", "--touched", "Ann"],
              "the claim dispute settles who wins a Rummy! card by Rummy 2,000,000's rules B8 and B11"),
    "designate": (["AD", "--table", "2D 3D 4D", "--table", "AS AH AC", "--as", "match"],
                  "the designate dispute settles whether a card counts for the run or the match by Rummy "
                  "2,000,000's rules B5 and B6"),
    "pickup": (["7H", "--hand", "7S 7D KC"],
               "the pickup dispute settles the use of a card taken from the Rummy Line by Rummy 2,000,000's rule B4"),
    "discard": (["--took", "7H", "--discarded", "7H"],
                "the discard dispute settles how a turn may end by Rummy 2,000,000's rules B3, B4 and B8"),
}


@pytest.mark.parametrize("kind", list(NO_SUCH_RULE))
def test_a_dispute_simple_rummy_does_not_have_is_refused_naming_the_rule_set(kind):
    simple_rummy_game()
    before = entries("simple-rummy")
    args, said = NO_SUCH_RULE[kind]
    rules = "rule" if kind == "pickup" else "rules"
    assert refused(5, "dispute", kind, *args) == (
        f"error: {said}; Simple Rummy (simple-rummy) has no such {rules} {HINT}")
    # the same without a record, by --ruleset
    assert refused(5, "dispute", kind, *args, "--ruleset", "simple-rummy", "--db", "nowhere.db").startswith(
        f"error: {said}; Simple Rummy (simple-rummy) has no such {rules}")
    assert entries("simple-rummy") == before  # nothing written


@pytest.mark.parametrize("kind", list(NO_SUCH_RULE))
def test_a_dispute_gin_does_not_have_is_refused(kind):
    ok("new-session", "--ruleset", "gin", "--players", "Al,Bo")
    args, said = NO_SUCH_RULE[kind]
    args = [a.replace("Ann", "Al") for a in args]
    message = refused(5, "dispute", kind, *args)
    assert message.startswith(f"error: {said}; Gin Rummy (gin) has no such rule")
    assert "ref ruling --ruleset gin" in message


def test_another_rule_set_is_asked_for_and_is_not_kept_as_the_tables_precedent():
    simple_rummy_game()
    result = ok("dispute", "discard", "--took", "7H", "--discarded", "7H", "--ruleset", "rummy-2m")
    assert result.stdout.splitlines()[0] == (
        "Not allowed: 7H, taken from the Rummy Line, must be used, not discarded straight back.")
    assert flat(result.stderr) == ("Not recorded (it was ruled by rummy-2m, not by simple-rummy, the rule set of "
                                   "the game simple-rummy; --record keeps it).")
    data = ref_json("dispute", "discard", "--took", "7H", "--discarded", "7H", "--ruleset", "rummy-2m")
    assert data["ruleset"] == "rummy-2m" and data["recorded"] is None
    # the table's roster is still the table's
    claim = ref_json("dispute", "claim", "--called", "Ann,Bob", "--touched", "Ann,Bob", "--ruleset", "rummy-2m")
    assert claim["facts"]["players"] == ["Ann", "Bob", "Cy"] and claim["details"]["winner"] == "Ann"
    kept = ref_json("dispute", "claim", "--called", "Ann", "--touched", "Ann", "--ruleset", "rummy-2m", "--record")
    assert kept["recorded"]["game"] == "simple-rummy" and kept["ruleset"] == "rummy-2m"


def test_the_json_names_the_rule_set_that_ruled():
    ok("new-session")
    for args in (["discard", "--took", "7H", "--discarded", "7H"], ["claim", "--called", "Bill", "--touched", "Bill"],
                 ["pickup", "7H", "--hand", "7S 7D"], ["end-night"]):
        assert ref_json("dispute", *args)["ruleset"] == "rummy-2m", args


# -- 3. a claim's facts must agree ------------------------------------------------------------------

REORDER = ("a player completes by calling and touching: correct the orders, or leave --completed out (it is "
           "needed only when the orders cross)")


@pytest.mark.parametrize("args, message", [
    (["--called", "Bill,Ben", "--touched", "Bill,Ben", "--completed", "Ben,Bill"],
     "error: --completed puts Ben before Bill, but by --called and --touched Bill called and touched before Ben: "
     f"Ben cannot have completed both first {REORDER}"),
    (["--called", "Bill,Ben", "--touched", "Bill,Ben", "--completed", "Bill=Ben"],
     "error: --completed puts Ben together with Bill, but by --called and --touched Bill called and touched before "
     f"Ben: Bill completed both first {REORDER}"),
    (["--called", "Bill=Ben", "--touched", "Ben,Bill", "--completed", "Bill,Ben"],
     "error: --completed puts Bill before Ben, but by --called and --touched Ben and Bill called at the same moment "
     f"and Ben touched first: Bill cannot have completed both first {REORDER}"),
    (["--called", "Bill=Ben", "--touched", "Bill=Ben", "--completed", "Bill,Ben"],
     "error: --completed puts Bill before Ben, but --called and --touched say Bill and Ben called at the same moment "
     'and touched at the same moment: they completed both together write them together ("Bill=Ben"), or leave '
     "--completed out"),
    (["--called", "Bill,Ben", "--touched", "Bill,Ben", "--completed", "Bill,Ben,Larry"],
     "error: --completed lists Larry, who has no claim (Larry neither called nor touched): only a player who both "
     "called and touched completes both list in --completed only the players who both called and touched"),
    (["--called", "Bill,Ben", "--touched", "Bill,Ben,Larry", "--completed", "Bill,Ben,Larry"],
     "error: --completed lists Larry, who has no claim (Larry touched but did not call): only a player who both "
     "called and touched completes both list in --completed only the players who both called and touched"),
    (["--called", "Bill,Ben", "--touched", "Bill,Ben", "--judge-says", "Ben"],
     "error: --judge-says Ben: there is no tie to judge: Bill completed the call and the touch first (B8) leave it "
     "out; --judge-says and --table-decides only record who won a true tie (B8)"),
    (["--called", "Bill=Ben", "--touched", "Ben,Bill", "--judge-says", "Bill"],
     "error: --judge-says Bill: there is no tie to judge: Ben touched first, which decides it (B8, B11) leave it "
     "out; --judge-says and --table-decides only record who won a true tie (B8)"),
    (["--called", "Bill", "--touched", "Bill", "--table-decides", "Bill"],
     "error: --table-decides Bill: there is no tie to decide: Bill is the only player who both called and touched "
     "leave it out; --judge-says and --table-decides only record who won a true tie (B8)"),
    (["--called", "Bill=Ben", "--touched", "Bill=Ben", "--table-decides", "Ben"],
     "error: --table-decides Ben: the table decides only when every player claims; Larry, with no claim, judges "
     "this tie (B8) record the judgment with --judge-says (Bill and Ben)"),
    (["--called", "Bill=Ben=Larry", "--touched", "Bill=Ben=Larry", "--judge-says", "Ben"],
     "error: --judge-says Ben: nobody can judge this tie, because every player claims (B8) the rules are silent and "
     "the table decides: record its decision with --table-decides (Bill, Ben and Larry)"),
], ids=["completed-reversed", "completed-together", "completed-against-first-touch", "completed-apart",
        "completed-no-claim", "completed-half-claim", "judge-no-tie", "judge-first-touch", "table-no-tie",
        "table-with-a-judge", "judge-everyone-claims"])
def test_claim_facts_that_cannot_all_be_true_are_refused(args, message):
    ok("new-session")
    assert refused(3, "dispute", "claim", *args) == message
    assert ok("rulings").stdout.strip() == "No ruling has been recorded in rummy-2m."


@pytest.mark.parametrize("args, verdict", [
    # the orders cross: --completed tells
    (["--called", "Bill,Ben", "--touched", "Ben,Bill", "--completed", "Ben,Bill"], "Ben wins the Rummy! card."),
    # called together, Ben touched first: together is possible (both touched before the call)
    (["--called", "Bill=Ben", "--touched", "Ben,Bill", "--completed", "Bill=Ben"], "Ben wins the Rummy! card."),
    # --completed agreeing with the orders is no contradiction
    (["--called", "Bill,Ben", "--touched", "Bill,Ben", "--completed", "Bill,Ben"], "Bill wins the Rummy! card."),
    (["--called", "Bill=Ben", "--touched", "Bill=Ben", "--judge-says", "Ben"], "Ben wins the Rummy! card."),
])
def test_claim_facts_that_agree_are_ruled(args, verdict):
    assert ok("dispute", "claim", *args).stdout.splitlines()[0] == verdict


# -- 4. a claim waiting for the judge or the table settled nothing -----------------------------------


def test_a_tie_waiting_for_the_judge_is_not_kept_and_says_it_settled_nothing():
    ok("new-session")
    result = ok("dispute", "claim", "--called", "Bill=Ben", "--touched", "Bill=Ben")
    assert result.stdout.splitlines()[0] == (
        "A true tie between Bill and Ben: Larry must judge it (record it with --judge-says).")
    assert flat(result.stderr) == (
        "Not recorded (it waits for a judgment and settled nothing yet; --record keeps it).")
    data = ref_json("dispute", "claim", "--called", "Bill=Ben", "--touched", "Bill=Ben")
    assert (data["outcome"], data["settled"], data["recorded"]) == ("judge-decides", False, None)
    assert ok("rulings").stdout.strip() == "No ruling has been recorded in rummy-2m."
    # asked to keep it: kept, and still truthfully unsettled
    kept = ref_json("dispute", "claim", "--called", "Bill=Ben", "--touched", "Bill=Ben", "--record")
    assert kept["recorded"]["entry"] == 3 and kept["settled"] is False
    # the judgment settles it: kept by default
    judged = ok("dispute", "claim", "--called", "Bill=Ben", "--touched", "Bill=Ben", "--judge-says", "Ben")
    assert judged.stdout.splitlines()[0] == "Ben wins the Rummy! card."
    assert flat(judged.stderr) == ("Recorded as a precedent of rummy-2m: night 1, hand 1 (1st of the night) "
                                   "(entry 4).")
    assert ref_json("rulings", "--game", "rummy-2m")["rulings"][-1]["ruling"]["settled"] is True


def test_a_tie_the_table_must_decide_is_not_kept():
    ok("new-session", "--players", "Ann,Bob", "--game", "duo", "--ruleset", "rummy-2m")
    data = ref_json("dispute", "claim", "--called", "Ann=Bob", "--touched", "Ann=Bob")
    assert (data["outcome"], data["settled"], data["recorded"]) == ("table-decides", False, None)
    assert data["not_recorded"] == "it waits for a judgment and settled nothing yet; --record keeps it"
    decided = ref_json("dispute", "claim", "--called", "Ann=Bob", "--touched", "Ann=Bob", "--table-decides", "Bob")
    assert (decided["outcome"], decided["settled"], decided["recorded"]["game"]) == ("table-decided", True, "duo")
