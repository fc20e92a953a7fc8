"""A7 after corrections (SPEC §3 A7, §8): an amend or a void after which the game would end at
a hand before the last hand in force is refused (exit 4, nothing written): the later hands
would have been played in a finished game. They are voided first, then the correction is made.
A correction after which the game ends at the last hand in force, or does not end, is
recorded, and the winner recomputed. At the command line, at a terminal and in ``ref night``."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

import rummyref.games.long.kind as long_kind

OPENINGS = ("--opening", "Bill=1999990", "--opening", "Ben=1999980")


def points(bill: int, ben: int, larry: int = 0) -> list[str]:
    return ["--points", f"Bill={bill}", "--points", f"Ben={ben}", "--points", f"Larry={larry}"]


def ok(*args: str) -> None:
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr


def flat(text: str) -> str:
    return " ".join(text.split())


def totals() -> dict[str, int]:
    return {p["name"]: p["total"] for p in ref_json("standings")["players"]}


def kinds() -> list[tuple[str, int]]:
    return [(e["kind"], e["hand"]) for e in ref_json("history")["entries"]]


@pytest.fixture
def ben_leads(record):
    """The issue's game: hand 1 takes Bill to 1,999,995; hand 2 puts Ben ahead (1,999,995) and
    nobody is at the target."""
    ok("new-session", *OPENINGS)
    ok("score-hand", *points(5, 0))
    ok("score-hand", *points(-100, 15))
    return record


BILL_AT_HAND_1 = ("refused (A7): amending hand 1 would end the game at the end of hand 1 (Bill alone has the "
                  "greatest total at or past the target, 2,000,010), but hand 2 is in force after it: no hand "
                  "can be recorded into a finished game")


def test_an_amend_that_ends_the_game_before_the_last_hand_is_refused(ben_leads):
    before = ben_leads.snapshot()
    r = ref("amend", "1", *points(20, 0), "--reason", "Bill had 20")
    assert r.exit_code == 4 and r.stdout == ""
    assert flat(r.stderr) == f"{BILL_AT_HAND_1} void hand 2 first (ref void 2), then amend hand 1"
    assert ben_leads.snapshot() == before
    st = ref_json("standings")
    assert not st["over"] and st["winner"] is None
    assert totals() == {"Bill": 1_999_895, "Ben": 1_999_995, "Larry": 0}
    # as the hint says: hand 2 voided, hand 1 amended: the game ends at hand 1, the last in force
    ok("void", "2", "--reason", "played after the end")
    amended = ref_json("amend", "1", *points(20, 0), "--reason", "Bill had 20")
    assert amended["over"] and amended["winner"] == "Bill" and amended["totals"]["Bill"] == 2_000_010
    assert kinds() == [("hand", 1), ("hand", 2), ("void", 2), ("amend", 1)]
    r = ref("score-hand", *points(1, 1))
    assert r.exit_code == 4 and "refused (A7): game rummy-2m is over: Bill won" in r.stderr
    assert ref_json("verify")["ok"]


def test_the_json_refusal_is_the_same_and_writes_nothing(ben_leads):
    before = ben_leads.snapshot()
    r = ref("amend", "1", *points(20, 0), "--reason", "Bill had 20", "--json")
    assert r.exit_code == 4 and r.stdout == ""
    assert flat(r.stderr).startswith(BILL_AT_HAND_1)
    assert ben_leads.snapshot() == before


def test_several_later_hands_are_named_and_voided_last_first(ben_leads):
    ok("score-hand", *points(0, -10))  # hand 3: Ben 1,999,985, still below the mark
    before = ben_leads.snapshot()
    r = ref("amend", "1", *points(20, 0), "--reason", "Bill had 20")
    assert r.exit_code == 4
    assert flat(r.stderr) == (
        "refused (A7): amending hand 1 would end the game at the end of hand 1 (Bill alone has the greatest "
        "total at or past the target, 2,000,010), but hands 2 and 3 are in force after it: no hand can be "
        "recorded into a finished game void hands 2 and 3 first (ref void 3, ref void 2), then amend hand 1")
    assert ben_leads.snapshot() == before
    ok("void", "3", "--reason", "after the end")
    ok("void", "2", "--reason", "after the end")
    assert ref_json("amend", "1", *points(20, 0), "--reason", "Bill had 20")["winner"] == "Bill"


def test_a_correction_that_ends_the_game_at_the_last_hand_is_recorded(ben_leads):
    # hand 2 amended: Ben passes the mark at hand 2, the last hand in force: recorded as before
    amended = ref_json("amend", "2", *points(-100, 25), "--reason", "Ben had 25")
    assert amended["over"] and amended["winner"] == "Ben" and amended["totals"]["Ben"] == 2_000_005
    # and one after which the game does not end at all
    back = ref_json("amend", "2", *points(-100, 15), "--reason", "15 after all")
    assert not back["over"] and back["winner"] is None


@pytest.fixture
def bill_climbs(record):
    """Hand 1 takes Bill down to 1,999,940, hand 2 back up to 1,999,980, hand 3 takes Ben down:
    without hand 1, Bill would pass the mark at hand 2."""
    ok("new-session", *OPENINGS)
    ok("score-hand", *points(-50, 0))
    ok("score-hand", *points(40, 0))
    ok("score-hand", *points(0, -10))
    return record


def test_a_void_that_ends_the_game_before_the_last_hand_is_refused(bill_climbs):
    before = bill_climbs.snapshot()
    r = ref("void", "1", "--reason", "misdeal")
    assert r.exit_code == 4 and r.stdout == ""
    assert flat(r.stderr) == (
        "refused (A7): voiding hand 1 would end the game at the end of hand 2 (Bill alone has the greatest "
        "total at or past the target, 2,000,030), but hand 3 is in force after it: no hand can be recorded "
        "into a finished game void hand 3 first (ref void 3), then void hand 1")
    assert bill_climbs.snapshot() == before
    assert not ref_json("standings")["over"]
    ok("void", "3", "--reason", "after the end")
    voided = ref_json("void", "1", "--reason", "misdeal")
    assert voided["over"] and voided["winner"] == "Bill" and voided["totals"]["Bill"] == 2_000_030


def test_a_void_or_amend_refused_at_a_terminal_is_shown_once(bill_climbs, monkeypatch):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    before = bill_climbs.snapshot()
    r = ref("void", "1", "--reason", "misdeal", input="\n")
    assert r.exit_code == 4
    assert r.stderr.count("refused (A7)") == 1 and "Record it?" not in r.stderr
    r = ref("amend", "1", "--reason", "Bill had 10", "--points", "Bill=10", input="drop\n")
    assert r.exit_code == 4
    assert ("refused (A7): amending hand 1 would end the game at the end of hand 1 (Bill alone has the greatest "
            "total at or past the target, 2,000,000), but hands 2 and 3 are in force after it") in flat(r.stderr)
    assert "Fix which answer? (Bill / Ben / Larry / drop)" in r.stderr
    assert "The correction was dropped: nothing was written." in r.stderr
    assert bill_climbs.snapshot() == before


# -- the tie path: after an exact tie past the mark, the first sole leader wins ---------------------


@pytest.fixture
def level(record):
    """Bill and Ben level past the mark after hands 1 and 2; Ben leads alone after hand 3."""
    ok("new-session", "--opening", "Bill=1999990", "--opening", "Ben=1999990")
    ok("score-hand", *points(20, 20))
    ok("score-hand", *points(5, 5))
    ended = ref_json("score-hand", *points(-60, -50))
    assert ended["over"] and ended["winner"] == "Ben"
    return record


def test_a_tie_broken_earlier_by_an_amend_is_refused(level):
    before = level.snapshot()
    r = ref("amend", "2", *points(5, 4), "--reason", "Ben had 4")
    assert r.exit_code == 4 and r.stdout == ""
    assert flat(r.stderr) == (
        "refused (A7): amending hand 2 would end the game at the end of hand 2 (after the tie past the target "
        "at hand 1, Bill leads alone with 2,000,015), but hand 3 is in force after it: no hand can be "
        "recorded into a finished game void hand 3 first (ref void 3), then amend hand 2")
    assert level.snapshot() == before
    st = ref_json("standings")
    assert st["over"] and st["winner"] == "Ben"  # as it was


def test_a_tie_undone_by_an_amend_of_the_tie_hand_is_refused(level):
    before = level.snapshot()
    r = ref("amend", "1", *points(20, 19), "--reason", "Ben had 19")
    assert r.exit_code == 4
    assert flat(r.stderr) == (
        "refused (A7): amending hand 1 would end the game at the end of hand 1 (Bill alone has the greatest "
        "total at or past the target, 2,000,010), but hands 2 and 3 are in force after it: no hand can be "
        "recorded into a finished game void hands 2 and 3 first (ref void 3, ref void 2), then amend hand 1")
    assert level.snapshot() == before


def test_a_tie_path_correction_at_the_last_hand_changes_the_winner(level):
    amended = ref_json("amend", "3", *points(-50, -60), "--reason", "the points were swapped")
    assert amended["over"] and amended["winner"] == "Bill"
    assert ref_json("standings")["winner"] == "Bill"


# -- ref night: the same refusals, in the shell's words; the shell goes on -----------------------------


def test_in_a_night_an_amend_and_a_void_that_end_the_game_early_are_refused(bill_climbs):
    before = bill_climbs.snapshot()
    answers = ("amend 1\nBill had 10\nBill\n10\ndrop\n"  # refused: the answers may be fixed, or dropped
               "void 1\nmisdeal\n"  # refused before "Record it?": the shell goes on
               "standings\nquit\n")
    r = ref("night", input=answers)
    assert r.exit_code == 0, r.stderr
    said = flat(r.stdout + r.stderr)
    assert ("refused (A7): amending hand 1 would end the game at the end of hand 1 (Bill alone has the greatest "
            "total at or past the target, 2,000,000), but hands 2 and 3 are in force after it: no hand can be "
            "recorded into a finished game void hands 2 and 3 first (void 3, void 2), then amend hand 1") in said
    assert "The correction was dropped: nothing was written." in said
    void = ("refused (A7): voiding hand 1 would end the game at the end of hand 2 (Bill alone has the greatest "
            "total at or past the target, 2,000,030), but hand 3 is in force after it: no hand can be recorded "
            "into a finished game void hand 3 first (void 3), then void hand 1")
    assert said.count(void) == 1
    assert "Recorded:" not in said
    assert bill_climbs.snapshot() == before


def test_in_a_night_the_later_hand_voided_first_then_the_correction_is_recorded(bill_climbs):
    r = ref("night", input="void 3\nafter the end\n\nvoid 1\nmisdeal\n\nend\n")
    assert r.exit_code == 0, r.stderr
    said = flat(r.stdout + r.stderr)
    assert "Recorded: hand 3 voided" in said and "Recorded: hand 1 voided" in said
    assert "The game is over (A7): Bill won." in said
    st = ref_json("standings")
    assert st["over"] and st["winner"] == "Bill"


# -- a record written before the refusal existed stays readable and can be put right --------------------


def test_a_record_already_past_its_end_is_read_and_put_right(ben_leads, monkeypatch):
    """Before this refusal, the issue's amend was recorded: the game ended at hand 1 with hand 2
    in force. Such a record reads as it is; only new writes are checked."""
    real = long_kind.game_status

    def unchecked(*args, **kw):
        from dataclasses import replace

        return replace(real(*args, **kw), after_end=())

    monkeypatch.setattr(long_kind, "game_status", unchecked)
    ok("amend", "1", *points(20, 0), "--reason", "Bill had 20")
    monkeypatch.setattr(long_kind, "game_status", real)
    st = ref_json("standings")
    assert st["over"] and st["winner"] == "Bill"
    assert ref("history").exit_code == 0 and ref_json("verify")["ok"]
    before = ben_leads.snapshot()
    r = ref("amend", "2", *points(-100, 16), "--reason", "Ben had 16")
    assert r.exit_code == 4
    assert flat(r.stderr) == (
        "refused (A7): amending hand 2 would end the game at the end of hand 1 (Bill alone has the greatest "
        "total at or past the target, 2,000,010), but hand 2 is in force after it: no hand can be recorded "
        "into a finished game void hand 2 (ref void 2)")
    assert ben_leads.snapshot() == before
    voided = ref_json("void", "2", "--reason", "played after the end")
    assert voided["over"] and voided["winner"] == "Bill" and voided["totals"]["Bill"] == 2_000_010
