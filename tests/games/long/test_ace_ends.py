"""An ace laid off or claimed on a run it could end at either end (2 ... K): low (1) unless the
table says it sat beside the king (``AD>KD``: high, 15); a note says so where it was not said
(SPEC §3: an ace is 1 at the low end of a run, 15 elsewhere; the-table-as-melds.md, Ties)."""

from __future__ import annotations

import pytest
from cli_helpers import ref

from rummyref.errors import ExitCode, UnreadableInput
from rummyref.games.long.scoring import score_hand
from rummyref.games.long.table import read_hand
from rummyref.rules.ruleset import load_ruleset

RS = load_ruleset("rummy-2m")
ROSTER = ("Bill", "Ben", "Larry")
LONG = "Larry=2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"  # 2+3+...+10 = 54, J Q K 30: 84


def scored(melded, claims=()):
    s = score_hand(read_hand(ROSTER, melded, ("Bill=", "Ben=", "Larry="), claims), RS, 2, ROSTER)
    return s, list(s.notes)


@pytest.mark.parametrize("ben, points, note", [
    ("AD>KD", 15, None),  # beside the king: the high end
    ("W=AD>KD", 15, None),
    ("AD>2D", 1, None),  # beside the two: the low end
    ("AD", 1, "AD>KD says otherwise"),  # not said: low, an ace low first, and a note
    ("W=AD", 1, "W=AD>KD says otherwise"),
    ("AD>5D", 1, "AD>KD says otherwise"),  # the meld said, not the end
    ("AD>run", 1, "AD>KD says otherwise"),
])
def test_an_ace_at_either_end_of_a_run(ben, points, note):
    s, notes = scored([LONG, f"Ben={ben}"])
    assert s.points()["Ben"] == points
    assert s.points()["Larry"] == 84
    run = s.arrangement[0]
    assert run.value == 84 + points
    ends = [n for n in notes if "either end" in n]
    if note is None:
        assert ends == []
    else:
        assert len(ends) == 1 and ends[0].endswith(note), ends
        assert "(1 low, 15 high)" in ends[0] and "chose the low end" in ends[0]


def test_a_claimed_ace_too():
    s, notes = scored([LONG], claims=["Ben=AD>KD"])
    assert s.points()["Ben"] == 15
    s, notes = scored([LONG], claims=["Ben=AD"])
    assert s.points()["Ben"] == 1 and any("AD>KD says otherwise" in n for n in notes)


def test_no_note_where_the_ace_has_one_end():
    s, notes = scored(["Larry=2D 3D 4D", "Ben=AD"])
    assert s.points()["Ben"] == 1 and not any("either end" in n for n in notes)
    s, notes = scored(["Larry=JD QD KD", "Ben=AD>KD"])
    assert s.points()["Ben"] == 15 and not any("either end" in n for n in notes)


def test_beside_the_king_and_the_two_is_refused():
    with pytest.raises(UnreadableInput) as e:
        scored([LONG, "Ben=AD>KD>2D"])
    assert e.value.exit_code == ExitCode.BAD_INPUT


def test_at_the_command_line():
    assert ref("new-session", "--players", "Bill,Ben,Larry", "--wildcards", "2").exit_code == 0
    r = ref("score-hand", "--melded", LONG, "--melded", "Ben=AD>KD", "--held", "Bill=", "--held", "Ben=",
            "--held", "Larry=")
    assert r.exit_code == 0, r.stderr
    assert "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD (Larry) AD (Ben)  [run, ace high, 99]" in r.stdout
    assert "Ben: AD 15 (run" in r.stdout


@pytest.mark.parametrize("melded", [
    [f"{LONG} /", "Ben=W"],  # laid off: the W is Ben's, the run Larry's
    [f"{LONG} W"],  # Larry's own
])
def test_a_bare_wildcard_read_as_the_high_ace_says_how_to_say_it(melded):
    """A bare W on 2D ... KD reads as the AD at the run's high end (a WILDCARD at a run's high
    end): 15. The note names what ref read in the table's notation, W=AD>KD, which gives the
    same points; W=AD alone would sit low (audit stop41, finding 1)."""
    s, notes = scored(melded)
    owner = "Ben" if len(melded) == 2 else "Larry"
    w = next(c for m in s.arrangement for c in m.laid if str(c.card).startswith("W"))
    assert w.value == 15
    assert [n for n in notes if "W as AD" in n] == [
        f"{owner}'s W as AD (high: W=AD>KD): ref's choice (an ace low first, a WILDCARD at a run's "
        "high end); W=CARD says otherwise"]
    said = [m.replace("W", "W=AD>KD") if m.endswith("W") else m for m in melded]
    again, _ = scored(said)
    assert again.points() == s.points()


def test_no_end_in_the_note_where_the_wildcard_ace_has_one_end():
    _, notes = scored(["Larry=JD QD KD /", "Ben=W"])
    assert [n for n in notes if "W as" in n and "high:" in n] == []
