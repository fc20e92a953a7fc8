"""``ref night`` from a pipe, the words around an answer (audit sessions45, item 5): ``-`` refused
at a points question is quoted as typed; a wrong answer to "Record it?" (or "Fix which
answer?") is never offered back for Enter to send again; the end of input in a correction
names the correction, not a hand being typed. Nothing is written in any of them."""

from __future__ import annotations

import os
import subprocess
import sys

from cli_helpers import ref, ref_json


def night(db, typed: list[str], *args: str) -> list[str]:
    """The night's questions (stderr) and what it shows (stdout) in one stream, as at the table."""
    r = subprocess.run([sys.executable, "-m", "rummyref", "--db", str(db), "night", *args],
                       input="\n".join(typed) + "\n", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=60, env={**os.environ, "COLUMNS": "100"})
    assert r.returncode == 0, r.stdout
    return [line.rstrip() for line in r.stdout.splitlines()]


def after(shown: list[str], first: str) -> list[str]:
    return shown[next(i for i, line in enumerate(shown) if line.startswith(first)):]


def test_a_dash_at_a_points_question_is_quoted_as_typed(record):
    shown = night(record.spec, ["points", "12", "-", "3", "4", "drop", "quit"], "--players", "A,B,C")
    assert after(shown, "B's points")[:3] == [
        "B's points this hand:",
        "  B's points: '-' is not a whole number (give a whole number from -10,000 to 10,000 points, e.g. 45",
        "or -10)",
    ]
    assert ref_json("standings")["hands"] == 0  # dropped: nothing written


def test_a_wrong_answer_to_record_it_is_not_offered_back(record):
    """'history' at "Record it?" is explained; the question comes back with nothing offered, so
    Enter records the hand (yes), as the question says, and does not send 'history' again."""
    shown = night(record.spec, ["points", "12", "3", "4", "history", "", "quit"], "--players", "A,B,C")
    assert after(shown, "Record it?")[:4] == [
        "Record it? (Enter: yes / fix NAME / drop):",
        "  'history': answer yes (or Enter), fix ANSWER, or drop (answers to fix: A / B / C)",
        "Record it? (Enter: yes / fix NAME / drop):",
        "Recorded: hand 1 of rummy-2m, hand 1 of the night (entry 3).",
    ]
    assert not any("offered:" in line for line in shown)


def test_a_wrong_answer_to_fix_which_answer_is_not_offered_back(record):
    assert ref("new-session", "--players", "A,B,C").exit_code == 0
    assert ref("score-hand", "--points", "A=12", "--points", "B=3", "--points", "C=4").exit_code == 0
    shown = night(record.spec, ["amend 1", "A had 13", "quit", "drop", "quit"])
    assert after(shown, "Fix which answer?")[:4] == [
        "Fix which answer? (A / B / C / drop):",
        "  'quit': answer fix ANSWER (or just the answer), or drop (answers to fix: A / B / C)",
        "Fix which answer? (A / B / C / drop):",
        "The correction was dropped: nothing was written.",
    ]
    assert not any("offered:" in line for line in shown)


def test_the_end_of_input_in_a_void_names_the_void(record):
    assert ref("new-session", "--players", "A,B,C").exit_code == 0
    assert ref("score-hand", "--points", "A=12", "--points", "B=3", "--points", "C=4").exit_code == 0
    before = record.snapshot()
    shown = night(record.spec, ["undo", "misdeal"])
    assert shown[-3:] == [
        "Record it? (Enter: yes / drop):",
        "End of input (the void of hand 1 was discarded, nothing of it written): Rummy Night 1 of rummy-2m is",
        "still open (ref night resumes it); every recorded hand is kept.",
    ]
    shown = night(record.spec, ["void 1", "misdeal", "history"])  # a wrong answer, then the end
    assert shown[-2].startswith("End of input (the void of hand 1 was discarded, nothing of it written)")
    shown = night(record.spec, ["amend 1", "A had 13", "A", "13"])
    assert shown[-3:] == [
        "Record it? (Enter: yes / fix NAME / drop):",
        "End of input (the amendment of hand 1 was discarded, nothing of it written): Rummy Night 1 of",
        "rummy-2m is still open (ref night resumes it); every recorded hand is kept.",
    ]
    shown = night(record.spec, ["points", "1"])  # a hand being typed: as before
    assert shown[-2].startswith("End of input (the hand being typed was discarded, nothing of it written)")
    assert record.snapshot() == before
