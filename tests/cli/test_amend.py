"""Fixing a mistake from the command line (issue 14, items 2 and 4): ``ref amend`` at a
terminal starts from the hand as recorded, shows it, shows before -> after and asks "Record
it?"; ``score-hand`` and ``void`` at a terminal confirm too; Ctrl-C at any of their prompts
exits 130 and writes nothing, the end of input exits 3. Through a real pseudo-terminal
(pexpect) where the terminal matters, in-process (``RUMMYREF_INTERACTIVE=1``) for the exact
texts; the record is checked afterwards with the ordinary commands."""

from __future__ import annotations

import json
import os
import re
import sys
import time

import pexpect
import pytest
from cli_helpers import as_at_a_terminal, ref, ref_json

TIMEOUT = 20
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RECORD_IT = "Record it? (Enter: yes / fix NAME / drop): "
FIX = "Fix which answer? (Bill / Ben / Larry / out / claims / drop): "


class Term:
    """One ``ref ...`` command on a pseudo-terminal; ``said`` is everything it printed."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, COLUMNS="100", TERM="dumb", NO_COLOR="1", RUMMYREF_NOW="2026-11-12T19:30")
        self.child = pexpect.spawn(sys.executable, ["-m", "rummyref", *args], env=env, encoding="utf-8",
                                   timeout=TIMEOUT, dimensions=(50, 100), preexec_fn=as_at_a_terminal)
        self.said = ""

    def expect(self, text: str) -> str:
        self.child.expect_exact(text)
        chunk = ANSI.sub("", self.child.before + self.child.after).replace("\r\n", "\n")
        self.said += chunk
        return chunk

    def answer(self, question: str, text: str) -> str:
        before = self.expect(question)
        self.child.sendline(text)
        return before

    def interrupt(self) -> None:
        """Ctrl-C at the prompt just shown (again if the first one landed before readline waited)."""
        for _ in range(3):
            time.sleep(0.3)
            self.child.sendintr()
            try:
                self.expect("interrupted: nothing was written")
                return
            except pexpect.TIMEOUT:
                continue
        raise AssertionError(f"Ctrl-C did not interrupt; printed so far:\n{self.said}")

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.said += ANSI.sub("", self.child.before).replace("\r\n", "\n")
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -self.child.signalstatus


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def entries(db: str) -> list[tuple[int, str, int]]:
    return [(e["seq"], e["kind"], e["hand"]) for e in ref_json("history", "--db", db)["entries"]]


@pytest.fixture
def two_hands(record):
    """A Rummy Night with hand 1 by points and hand 2 by cards (Ben went out)."""
    db = record.spec
    assert ref("new-session", "--db", db).exit_code == 0
    assert ref("score-hand", "--db", db, "--points", "Bill=10", "--points", "Ben=20", "--points", "Larry=30").exit_code == 0
    r = ref("score-hand", "--db", db, "--melded", "Bill=7S 7H 7D", "--held", "Bill=KS 2C", "--melded", "Ben=AH 2H 3H 4H",
            "--held", "Ben=", "--held", "Larry=QD JD", "--out", "Ben")
    assert r.exit_code == 0, r.stderr
    return db


AS_RECORDED = [
    "Hand 2 as recorded (Rummy Night 1, hand 2 of the night, Ben dealt; entry 4):",
    "    Bill: melded 7S 7H 7D; held KS 2C",
    "    Ben: melded AH 2H 3H 4H; held -",
    "    Larry: melded -; held QD JD",
    "    Ben went out",
    "    scores: Bill 9, Ben 10, Larry -20",
]
LARRY_HELD_QD = [
    "Hand 2, amended, if recorded (before -> after):",
    "player  hand was      now  total was      now",
    "Bill           9  ->    9         19  ->   19",
    "Ben           10  ->   10         30  ->   30",
    "Larry        -20  ->  -10         10  ->   20",
]


# -- through a pseudo-terminal ------------------------------------------------------------------


def test_amend_at_a_terminal_starts_from_the_recorded_hand(two_hands):
    t = Term("amend", "2", "--reason", "Larry held only the QD", "--db", two_hands)
    shown = t.answer(FIX, "larry")
    assert lines(shown)[:6] == AS_RECORDED
    assert "Nothing is changed yet: fix the answers that were wrong" in " ".join(shown.split())
    t.answer("Larry melded or laid off (cards; '/' between melds; blank: none): ", "")
    t.answer("Larry left in hand (cards; blank: none): ", "\x15QD")  # QD JD is offered: Ctrl-U, then QD
    shown = lines(t.answer(RECORD_IT, ""))
    assert shown[shown.index(LARRY_HELD_QD[0]):][:5] == LARRY_HELD_QD
    assert t.finish() == 0
    assert "Hand 2 (amended) of rummy-2m" in t.said
    history = ref_json("history", "--db", two_hands)["entries"]
    assert history[-1]["kind"] == "amend" and history[-1]["reason"] == "Larry held only the QD"
    assert history[-1]["facts"]["players"]["Larry"]["held"] == ["QD"]
    assert history[-1]["facts"]["players"]["Bill"] == history[1]["facts"]["players"]["Bill"]  # kept as recorded


def test_score_hand_at_a_terminal_confirms_and_a_drop_writes_nothing(two_hands):
    points = ("--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")
    t = Term("score-hand", *points, "--db", two_hands)
    shown = t.answer(RECORD_IT, "drop")
    assert "Hand 3 (Larry dealt), if recorded:" in shown
    assert t.finish() == 0
    assert "The hand was dropped: nothing was written." in t.said
    assert len(entries(two_hands)) == 2
    t = Term("score-hand", *points, "--json", "--db", two_hands)
    t.answer(RECORD_IT, "")
    assert t.finish() == 0
    assert entries(two_hands)[-1] == (5, "hand", 3)


@pytest.mark.parametrize("args, prompt", [
    (("score-hand",), "Record this hand as cards or points? [cards/points]: "),
    (("score-hand", "--points", "Bill=1", "--points", "Ben=2"), "Larry's points this hand: "),
    (("amend", "2", "--reason", "x", "--held", "Larry=QD"), RECORD_IT),
    (("amend", "2", "--reason", "x"), FIX),
    (("void", "1", "--reason", "x"), "Record it? (Enter: yes / drop): "),
], ids=["score-hand-form", "score-hand-points", "amend-confirm", "amend-fix", "void-confirm"])
def test_ctrl_c_at_a_prompt_exits_130_and_writes_nothing(two_hands, args, prompt):
    t = Term(*args, "--db", two_hands)
    t.expect(prompt)
    t.interrupt()
    assert t.finish() == 130
    assert "error" not in t.said and "Aborted" not in t.said
    assert len(entries(two_hands)) == 2
    assert ref("verify", "--db", two_hands).exit_code == 0


def test_end_of_input_at_a_prompt_is_exit_3(two_hands):
    t = Term("amend", "2", "--reason", "x", "--db", two_hands)
    t.expect(FIX)
    t.child.sendeof()
    assert t.finish() == 3
    assert "error: no answer to 'Fix which answer': the input ended; nothing was written" in " ".join(t.said.split())
    assert len(entries(two_hands)) == 2


# -- in process, the exact texts (a terminal forced with RUMMYREF_INTERACTIVE=1) -----------------


@pytest.fixture
def at_a_terminal(monkeypatch):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")


def test_amend_options_override_the_recorded_hand(two_hands, at_a_terminal):
    r = ref("amend", "2", "--reason", "Larry held only the QD", "--held", "Larry=QD", "--json", input="\n")
    assert r.exit_code == 0, r.stderr
    assert lines(r.stderr)[:6] == AS_RECORDED
    assert lines(r.stderr)[6:11] == LARRY_HELD_QD
    data = ref_json("history", "--db", two_hands)["entries"][-1]
    assert data["facts"]["out"] == "Ben" and data["facts"]["players"]["Larry"]["held"] == ["QD"]


def test_amend_off_a_terminal_still_needs_the_whole_hand(two_hands, monkeypatch):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "0")
    r = ref("amend", "2", "--reason", "x", "--held", "Larry=QD")
    assert r.exit_code == 3
    assert "facts missing for Bill, Ben, and there is no terminal to ask" in r.stderr
    assert len(entries(two_hands)) == 2


def test_a_points_hand_is_amended_as_points(two_hands, at_a_terminal):
    r = ref("amend", "1", "--reason", "Bill counted short", input="fix bill\n15\n\n")
    assert r.exit_code == 0, r.stderr
    assert "Bill's points this hand [10]: " in r.stderr  # the recorded points offered back
    said = lines(r.stderr)
    assert said[said.index("Bill's points this hand [10]:") + 2:][:4] == [
        "player  hand was      now  total was      now",
        "Bill          10  ->   15         19  ->   24",
        "Ben           20  ->   20         30  ->   30",
        "Larry         30  ->   30         10  ->   10",
    ]
    assert {p["name"]: p["total"] for p in ref_json("standings")["players"]} == {"Bill": 24, "Ben": 30, "Larry": 10}


def test_a_refused_amendment_dropped_exits_with_the_refusal(two_hands, at_a_terminal):
    # Larry cannot have gone out holding cards: refused (exit 4 once dropped), nothing written
    r = ref("amend", "2", "--reason", "x", "--out", "Larry", "--held", "Larry=QD", input="drop\n")
    assert r.exit_code == 4, r.stderr
    assert "Fix which answer? (Bill / Ben / Larry / out / claims / drop)" in r.stderr
    assert "The correction was dropped: nothing was written." in r.stderr
    assert len(entries(two_hands)) == 2


def test_void_at_a_terminal_confirms(two_hands, at_a_terminal):
    r = ref("void", "2", "--reason", "misdeal", input="\n")
    assert r.exit_code == 0, r.stderr
    assert lines(r.stderr)[6:11] == [
        "Hand 2, voided, if recorded (before -> after):",
        "player  hand was       now  total was      now",
        "Bill           9  ->  void         19  ->   10",
        "Ben           10  ->  void         30  ->   20",
        "Larry        -20  ->  void         10  ->   30",
    ]
    assert "Record it? (Enter: yes / drop): " in r.stderr
    assert entries(two_hands)[-1] == (5, "void", 2)


def test_a_simple_rummy_game_amended_at_a_terminal_keeps_the_recorded_hands(record, monkeypatch):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "0")
    assert ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5").exit_code == 0
    game = ("--hand", "Ann=2H 3H 4H 4S 4D", "--hand", "Bob=KS QD 9C 8C 2D", "--hand", "Cy=AS AD AC 6H 7H")
    assert ref_json("score-hand", *game)["winner"] == "Ann"
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    r = ref("amend", "1", "--reason", "Cy had gone out", "--out", "Cy", "--hand", "Cy=AS AD AC 6H 7H 8H", "--json",
            input="\n")
    assert r.exit_code == 0, r.stderr
    assert "Winner: Ann -> Cy." in lines(r.stderr)
    amended = json.loads(r.stdout)
    assert amended["winner"] == "Cy" and amended["counts"] == {"Ann": 5, "Bob": 44, "Cy": 0}
    assert amended["next_dealer"] == "Bob"


def test_what_no_answer_can_fix_is_refused_before_any_question(two_hands, at_a_terminal):
    r = ref("score-hand", "--dealer", "Bill", input="\n")
    assert r.exit_code == 4
    assert "refused (A3): hand 3 of the night is Larry's deal, not Bill's" in r.stderr
    assert "Record this hand as cards or points?" not in r.stderr
    assert ref("end-session", "--game", "rummy-2m").exit_code == 4  # mid-round: the night goes on
    assert ref("new-session", "--ruleset", "rummy-500", "--game", "quick", "--players", "Ann,Bo").exit_code == 0
    r = ref("score-hand", "--game", "quick", "--points", "Ann=600", "--points", "Bo=0", input="\n")
    assert r.exit_code == 0 and ref_json("standings", "--game", "quick")["over"]
    r = ref("score-hand", "--game", "quick", input="\n")
    assert r.exit_code == 4 and "refused (R3): game quick is over: Ann won" in r.stderr
    assert "Record this hand" not in r.stderr
