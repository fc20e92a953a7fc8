"""``ref night`` driven through a real pseudo-terminal (pexpect): GNU readline, Ctrl-C and
end of input behave as at the table. The record is checked afterwards with the ordinary
commands (``ref standings --json``, ``ref history --json``, ``ref rulings --json``)."""

from __future__ import annotations

import os
import re
import sys
import time

import pexpect
import pytest
from cli_helpers import as_at_a_terminal, ref_json

TIMEOUT = 20  # seconds per expected prompt (the first one pays the imports)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

MELD = "{} melded or laid off (cards; '/' between melds; blank: none): "
HELD = "{} left in hand (cards; blank: none): "
POINTS = "{}'s points this hand: "
OUT = "Who went out? (name; blank: nobody): "
CLAIMS = "Rummy! claims (NAME=CARD, comma between; blank: none): "
CONFIRM = "Record it? (Enter: yes / fix NAME / drop): "
PROMPT = "night> "


def flat(text: str) -> str:
    """Lines joined with single spaces (the terminal wraps long messages at its width)."""
    return " ".join(text.split())


class Night:
    """One ``ref night`` process on a pseudo-terminal; ``said`` is everything it printed."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, COLUMNS="100", TERM="dumb", NO_COLOR="1", RUMMYREF_NOW="2026-11-12T19:30")
        self.child = pexpect.spawn(sys.executable, ["-m", "rummyref", "night", *args], env=env,
                                   encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 100), preexec_fn=as_at_a_terminal)
        self.said = ""

    def expect(self, text: str, timeout: float = TIMEOUT) -> str:
        """Wait for ``text``; returns what was printed since the last wait (ANSI stripped)."""
        self.child.expect_exact(text, timeout=timeout)
        chunk = ANSI.sub("", self.child.before + self.child.after).replace("\r\n", "\n")
        self.said += chunk
        return chunk

    def answer(self, question: str, text: str) -> str:
        before = self.expect(question)
        self.child.sendline(text)
        return before

    def cards(self, *per_player: tuple[str, str, str], out: str = "", claims: str = "") -> None:
        for name, melded, held in per_player:
            self.answer(MELD.format(name), melded)
            self.answer(HELD.format(name), held)
        self.answer(OUT, out)
        self.answer(CLAIMS, claims)

    def points(self, **pts: int) -> None:
        for name, value in pts.items():
            self.answer(POINTS.format(name), str(value))

    def interrupt(self, then: str) -> str:
        """Ctrl-C at the prompt just shown, until ``then`` is printed. (A SIGINT landing between
        readline's prompt and its select() only sets a flag until the next signal or key:
        give the child a moment first, and press Ctrl-C again if nothing happened.)"""
        for _ in range(3):
            time.sleep(0.3)
            self.child.sendintr()
            try:
                return self.expect(then, timeout=5)
            except pexpect.TIMEOUT:
                continue
        raise AssertionError(f"Ctrl-C did not lead to {then!r}; printed so far:\n{self.said}")

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.said += ANSI.sub("", self.child.before).replace("\r\n", "\n")
        self.child.close()
        return self.child.exitstatus


@pytest.fixture
def night_db(record):
    yield record.spec  # a SQLite file, or a PostgreSQL schema in the PostgreSQL pass


def test_a_scripted_night_of_six_hands(night_db):
    n = Night("--db", night_db)
    # hand 1 (Bill deals), by cards: a bad card is asked again with the answer offered back
    # (pre-filled by readline: one backspace and a D mend it), a ruling mid-hand
    shown = n.answer(PROMPT, "cards")
    assert "Seating dibs (A2)" in flat(shown) and "Next: hand 1 of Rummy Night 1 (hand 1 of rummy-2m): Bill deals." in flat(shown)
    n.answer(MELD.format("Bill"), "7S 7H 7X")
    n.answer(MELD.format("Bill"), "\x7fD")
    assert "unreadable card '7X'" in flat(n.said)
    n.answer(HELD.format("Bill"), "KS 2C")
    n.answer(MELD.format("Ben"), "AH 2H 3H 4H")
    n.answer(HELD.format("Ben"), "? pizza's here")
    n.answer(HELD.format("Ben"), "")
    assert "B2 (rummy-2m) Pete's delivery" in flat(n.said)
    n.cards(("Larry", "", "QD JD"), out="Ben")
    shown = n.answer(CONFIRM, "")
    assert re.search(r"Bill\s.*\s21 .*\s12 .*\s9 .*\s9\n", shown), shown  # melded 21, held 12: 9
    assert "Arrangement used:" in flat(shown)
    # a refused early end (A4), naming who still has to deal
    shown = n.answer(PROMPT, "end")
    assert "Recorded: hand 1 of rummy-2m, hand 1 of the night (entry 3)." in flat(shown)
    shown = n.expect(PROMPT)
    assert "refused (A4)" in flat(shown) and "Ben and Larry still have to deal" in flat(shown)
    # hand 2 (Ben), by points
    n.child.sendline("points")
    n.points(Bill=45, Ben=-10, Larry=20)
    n.answer(CONFIRM, "y")
    # hand 3 (Larry), by cards, with a designated match, a lay-off and a Rummy! claim;
    # a dispute settled on the way (kept as a precedent of the night)
    n.answer(PROMPT, "cards")
    n.answer(MELD.format("Bill"), "AS AD AC / 2S 3S 4S")
    n.answer(HELD.format("Bill"), "! claim --called Bill=Ben --touched Ben,Bill")
    n.answer(HELD.format("Bill"), "")
    assert "Ben wins the Rummy! card." in flat(n.said)
    n.cards(("Ben", "JC QC KC", "9D"), ("Larry", "5S", "8C"), out="Bill", claims="Larry=10C")
    shown = n.answer(CONFIRM, "")
    assert "2S 3S 4S (Bill) 5S (Larry) [run, 14] said by the table" in flat(shown)
    assert "10C* (Larry) JC QC KC (Ben) [run, 40]" in flat(shown)
    assert "Larry: 5S 5 (run 2S 3S 4S 5S) + 10C* 10 (run 10C* JC QC KC) - 8C 8 held = 7" in flat(shown)
    shown = n.answer(PROMPT, "points")
    assert "Round 1 complete." in flat(shown) and "type end" in flat(shown)
    # hand 4 (Bill), by points: Ctrl-C half-way discards only this hand
    n.answer(POINTS.format("Bill"), "10")
    n.expect(POINTS.format("Ben"))
    shown = n.interrupt("Interrupted:") + n.expect(PROMPT)
    assert "Interrupted: this hand is discarded, nothing was written. The night goes on." in flat(shown)
    assert "Next: hand 4 of Rummy Night 1 (hand 4 of rummy-2m): Bill deals." in flat(shown)
    n.child.sendline("points")
    n.points(Bill=10, Ben=20, Larry=30)
    n.answer(CONFIRM, "")
    # hand 5 (Ben), by cards: a meld that cannot be made is refused, then fixed
    n.answer(PROMPT, "c")
    n.cards(("Bill", "9H 10H KH", "2D"), ("Ben", "5C 5D 5H", ""), ("Larry", "", "KD"), out="Ben")
    shown = n.answer("Fix which answer? (Bill / Ben / Larry / out / claims / drop): ", "fix Bill")
    assert "refused" in flat(shown)
    n.answer(MELD.format("Bill"), "\x15" + "9H 10H JH")
    n.answer(HELD.format("Bill"), "")  # Enter keeps the 2D offered back
    n.answer(CONFIRM, "")
    # hand 6 (Larry), by points; then the night ends after two full rounds
    n.answer(PROMPT, "points")
    n.points(Bill=-5, Ben=15, Larry=25)
    n.answer(CONFIRM, "")
    shown = n.answer(PROMPT, "end")
    assert "Round 2 complete." in flat(shown)
    assert n.finish() == 0
    assert "Rummy Night 1 of rummy-2m is closed: 6 hands, 2 full rounds." in flat(n.said)

    history = ref_json("history", "--db", night_db)
    hands = [e for e in history["entries"] if e["kind"] == "hand"]
    assert [e["dealer"] for e in hands] == ["Bill", "Ben", "Larry"] * 2
    assert [e["results"] for e in hands[:4]] == [
        {"Bill": 9, "Ben": 10, "Larry": -20},
        {"Bill": 45, "Ben": -10, "Larry": 20},
        {"Bill": 54, "Ben": 21, "Larry": 7},
        {"Bill": 10, "Ben": 20, "Larry": 30},
    ]
    assert hands[4]["facts"]["players"]["Bill"] == {"melded": [["9H", "10H", "JH"]], "held": ["2D"], "designated": False}
    standings = ref_json("standings", "--db", night_db)
    totals = {p["name"]: p["total"] for p in standings["players"]}
    assert totals == {name: sum(e["results"][name] for e in hands) for name in ("Bill", "Ben", "Larry")}
    assert standings["open_night"] is None and standings["hands"] == 6
    rulings = ref_json("rulings", "--db", night_db)["rulings"]
    assert [(x["kind"], x["hand_in_night"]) for x in rulings] == [("claim", 3)]


def test_end_of_input_between_hands_keeps_the_night_open(night_db):
    n = Night("--db", night_db, "--opening", "Bill=1000", "--wildcards", "1")
    n.answer(PROMPT, "points")
    n.points(Bill=5, Ben=6, Larry=7)
    n.answer(CONFIRM, "")
    n.expect(PROMPT)
    n.child.sendeof()
    assert n.finish() == 0
    assert "End of input: Rummy Night 1 of rummy-2m is still open (ref night resumes it)" in flat(n.said)
    standings = ref_json("standings", "--db", night_db)
    assert standings["open_night"] == 1 and standings["hands"] == 1
    assert {p["name"]: p["total"] for p in standings["players"]} == {"Bill": 1005, "Ben": 6, "Larry": 7}
    # resumed: the dibs are those of the start of the night; a hand typed half-way is lost
    # at the end of input, and nothing of it is written
    n = Night("--db", night_db)
    shown = n.answer(PROMPT, "cards")
    assert "Rummy Night 1 of rummy-2m resumed: 1 hand recorded tonight." in flat(shown)
    assert "1. Bill (1,000): first pick" in flat(shown)
    n.answer(MELD.format("Bill"), "W 2S 3S")
    n.expect(HELD.format("Bill"))
    n.child.sendeof()
    assert n.finish() == 0
    assert "still open" in flat(n.said)
    assert ref_json("standings", "--db", night_db)["hands"] == 1


def test_a_simple_rummy_night_of_two_games(night_db):
    n = Night("--db", night_db, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5")
    shown = n.answer(PROMPT, "game")
    assert "Ann deals; Bob plays first." in flat(shown)
    n.answer("Bob's final hand (cards; or: dropped): ", "KS QD 9C 8C 2D")
    n.answer("Cy's final hand (cards; or: dropped): ", "AS AD AC 6H 7S")
    n.answer("Ann's final hand (cards; or: dropped): ", "2H 3H 4H 4S 4D 2D")  # the 2D is Bob's: asked again
    assert "2D" in n.expect("Ann's final hand (cards; or: dropped): ")
    n.child.sendline("\x7f\x7f\x7f")  # three backspaces remove " 2D" from the answer offered back
    n.answer("How did the game end?", "")
    shown = n.answer(CONFIRM, "")
    assert "Winner: Ann." in flat(shown)
    shown = n.answer(PROMPT, "g")
    assert "Recorded: game 1 of simple-rummy" in flat(shown) and "game wins Ann 1" in flat(shown)
    n.answer("Ann's final hand (cards; or: dropped): ", "KH QH JD 9S 8D")
    n.answer("Bob's final hand (cards; or: dropped): ", "JS 10C 9C 7H 6D")
    n.answer("Cy's final hand (cards; or: dropped): ", "2S 3S 4S 5S 6S 5H")
    n.answer("How did the game end?", "out Zed")  # not at the table: asked again in place
    shown = n.answer("How did the game end?", "\x15out Cy")
    assert "'Zed' (player going out) is not at this table" in flat(shown)
    shown = n.answer(CONFIRM, "")
    assert "Winner: Cy." in flat(shown)
    n.answer(PROMPT, "end")
    assert n.finish() == 0
    assert "Session 1 of simple-rummy is closed: 2 games" in flat(n.said)
    st = ref_json("standings", "--db", night_db)
    assert st["games"] == 2 and st["open_session"] is None
    assert {p["name"]: p["game_wins"] for p in st["players"]} == {"Ann": 1, "Bob": 0, "Cy": 1}


def test_ctrl_c_between_hands_leaves_the_record_consistent(night_db):
    n = Night("--db", night_db)
    n.answer(PROMPT, "standings")
    shown = n.expect(PROMPT)
    assert "rummy-2m (rummy-2m), target 2,000,000: 0 hands over 0 Rummy Nights" in flat(shown)
    n.child.sendline("bogus")
    assert "'bogus' is not a command here" in n.expect(PROMPT)
    n.interrupt("Interrupted:")
    assert n.finish() == 130
    assert "Interrupted: Rummy Night 1 of rummy-2m is still open" in flat(n.said)
    assert ref_json("standings", "--db", night_db)["open_night"] == 1


REASON = "Why? (the reason is kept in the history, B7): "
#: a rule set whose rulebook has no B7 (Simple Rummy, 500 Rum) cites none (audit rummy500-rulefiles 7)
REASON_UNCITED = "Why? (the reason is kept in the history): "
FIX = "Fix which answer? (Bill / Ben / Larry / out / claims / drop): "
CONFIRM_VOID = "Record it? (Enter: yes / drop): "


def lines(text: str) -> list[str]:
    """The lines printed, trailing spaces removed (tables pad their last column)."""
    return [line.rstrip() for line in text.splitlines()]


def test_undo_amend_and_void_inside_the_night(night_db):
    """Issue 14, item 1: a mistake is fixed at the night prompt, each correction shown as
    recorded and before -> after, and written only on "Record it?"."""
    n = Night("--db", night_db)
    n.answer(PROMPT, "points")
    n.points(Bill=10, Ben=20, Larry=30)
    n.answer(CONFIRM, "")
    n.answer(PROMPT, "cards")
    n.cards(("Bill", "7S 7H 7D", "KS 2C"), ("Ben", "AH 2H 3H 4H", ""), ("Larry", "", "QD JD"), out="Ben")
    n.answer(CONFIRM, "")
    n.answer(PROMPT, "points")
    n.points(Bill=1, Ben=2, Larry=3)
    n.answer(CONFIRM, "")
    # amend 2: the hand as recorded, the reason, nothing changed yet, fix Larry's hand
    n.answer(PROMPT, "amend 2")
    shown = n.answer(REASON, "Larry held only the QD")
    assert lines(shown)[-7:-1] == [
        "Hand 2 as recorded (Rummy Night 1, hand 2 of the night, Ben dealt; entry 4):",
        "    Bill: melded 7S 7H 7D; held KS 2C",
        "    Ben: melded AH 2H 3H 4H; held -",
        "    Larry: melded -; held QD JD",
        "    Ben went out",
        "    scores: Bill 9, Ben 10, Larry -20",
    ]
    shown = n.answer(FIX, "Larry")
    assert "Nothing is changed yet: fix the answers that were wrong" in flat(shown)
    n.answer(MELD.format("Larry"), "")
    shown = n.answer(HELD.format("Larry"), "\x15QD")  # the recorded QD JD is offered: Ctrl-U clears it
    assert "(the answer is back on the line: edit it, or clear it with Ctrl-U)" in shown
    shown = n.answer(CONFIRM, "")
    assert lines(shown)[1:6] == [
        "Hand 2, amended, if recorded (before -> after):",
        "player  hand was      now  total was      now",
        "Bill           9  ->    9         20  ->   20",
        "Ben           10  ->   10         32  ->   32",
        "Larry        -20  ->  -10         13  ->   23",
    ]
    # void 1: no answer to fix, only yes or drop
    shown = n.answer(PROMPT, "void 1")
    assert "Recorded: hand 2 amended (entry 6)." in shown
    n.answer(REASON, "misdeal")
    shown = n.answer(CONFIRM_VOID, "")
    assert "Bill          10  ->  void         20  ->   10" in lines(shown)
    # undo: the last hand counting (3); a reason is required; dropped, then recorded
    shown = n.answer(PROMPT, "undo")
    assert "Recorded: hand 1 voided (entry 7)." in shown
    shown = n.answer(REASON, "")
    assert "Hand 3 as recorded (Rummy Night 1, hand 3 of the night, Larry dealt; entry 5):" in shown
    n.answer(REASON, "entered twice")
    shown = n.answer(CONFIRM_VOID, "drop")
    assert "a correction needs a reason" in n.said
    shown = n.answer(PROMPT, "undo")
    assert "The correction was dropped: nothing was written." in shown
    n.answer(REASON, "entered twice")
    n.answer(CONFIRM_VOID, "y")
    # SPEC §8: a hand voided last is dealt again by its dealer
    shown = n.answer(PROMPT, "amend 1")
    assert "Recorded: hand 3 voided (entry 8)." in shown
    assert "Next: hand 3 of Rummy Night 1 (hand 4 of rummy-2m): Larry deals." in shown
    shown = n.answer(PROMPT, "amend x")
    assert "refused (B7): hand 1 was voided (entry 7)" in shown
    shown = n.answer(PROMPT, "amend 9")
    assert "error: 'amend x': which hand?" in shown
    shown = n.answer(PROMPT, "quit")
    assert "error: game rummy-2m has no hand 9" in shown
    assert n.finish() == 0

    history = ref_json("history", "--db", night_db)["entries"]
    assert [(e["seq"], e["kind"], e["hand"], e["reason"], e["current"]) for e in history] == [
        (3, "hand", 1, None, False), (4, "hand", 2, None, False), (5, "hand", 3, None, False),
        (6, "amend", 2, "Larry held only the QD", True), (7, "void", 1, "misdeal", False),
        (8, "void", 3, "entered twice", False),
    ]
    assert history[3]["facts"]["players"]["Larry"] == {"melded": [], "held": ["QD"], "designated": False}
    standings = ref_json("standings", "--db", night_db)
    assert {p["name"]: p["total"] for p in standings["players"]} == {"Bill": 9, "Ben": 10, "Larry": -10}
    assert standings["hands"] == 1 and standings["next_dealer"] == "Larry"


def test_undo_reaches_only_tonights_hands(night_db):
    for args in (["new-session"], ["score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3"]):
        ref_json(*args, "--db", night_db)
    for _ in range(2):
        ref_json("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3", "--db", night_db)
    ref_json("end-session", "--db", night_db)
    n = Night("--db", night_db)
    n.answer(PROMPT, "undo")
    shown = n.answer(PROMPT, "quit")
    assert "No hand of this night counts yet: nothing to undo (void N corrects an earlier hand)." in flat(shown)
    assert n.finish() == 0
    assert ref_json("standings", "--db", night_db)["hands"] == 3


def test_a_simple_rummy_game_amended_in_the_night(night_db):
    n = Night("--db", night_db, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5")
    n.answer(PROMPT, "game")
    n.answer("Bob's final hand (cards; or: dropped): ", "KS QD 9C 8C 2D")
    n.answer("Cy's final hand (cards; or: dropped): ", "AS AD AC 6H 7H")
    n.answer("Ann's final hand (cards; or: dropped): ", "2H 3H 4H 4S 4D")
    n.answer("How did the game end?", "")
    shown = n.answer(CONFIRM, "")
    assert "Winner: Ann." in flat(shown)
    n.answer(PROMPT, "amend 1")
    shown = n.answer(REASON_UNCITED, "Cy had gone out")
    assert lines(shown)[-7:-1] == [
        "Game 1 as recorded (session 1, game 1 of the session, Ann dealt; entry 3):",
        "    Bob played first; ending: the stock ran out",
        "    Ann: 2H 3H 4H 4S 4D; count 5 (lowest count)",
        "    Bob: KS QD 9C 8C 2D; count 44",
        "    Cy: AS AD AC 6H 7H; count 13",
        "    winner: Ann (S10)",
    ]
    n.answer("Fix which answer? (Bob / Cy / Ann / ending / drop): ", "ending")
    shown = n.answer("How did the game end?", "out Cy")  # Cy went out, so held the card just drawn too
    n.answer("Fix which answer? (Bob / Cy / Ann / ending / drop): ", "Cy")
    n.answer("Cy's final hand (cards; or: dropped): ", " 8H")  # after the answer offered back
    shown = n.answer(CONFIRM, "")
    assert lines(shown)[1:6] == [
        "Game 1, amended, if recorded (before -> after):",
        "player  count was      now",
        "Ann             5  ->    5",
        "Bob            44  ->   44",
        "Cy             13  ->    0",
    ]
    assert "Why: Cy went out: every card melded but at most one; going out wins the game (S9)." in flat(shown)
    assert "Winner: Ann -> Cy." in lines(shown)
    assert ("Match after: match 1: game wins Ann 0, Bob 0, Cy 1 (first to 2 takes the match); Cy plays first "
            "next (S17)") in flat(shown)
    shown = n.answer(PROMPT, "quit")
    assert "Recorded: game 1 amended (entry 4)." in shown
    assert "Next: game 2 (game 2 of the session): Bob deals, Cy plays first." in shown
    assert n.finish() == 0
    st = ref_json("standings", "--db", night_db)
    assert {p["name"]: p["game_wins"] for p in st["players"]} == {"Ann": 0, "Bob": 0, "Cy": 1}
    assert (st["next_dealer"], st["next_first_player"]) == ("Bob", "Cy")


def test_night_shell_edges(night_db):
    """Issue 14, item 10: a stray Enter starts nothing; an answer refused twice as offered is
    cleared; ! help lists no shell-completion options; a refusal names no command-line option."""
    n = Night("--db", night_db, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3")
    n.answer(PROMPT, "")
    shown = n.expect(PROMPT)
    assert lines(shown)[1:3] == ["(type cards to record the next game; help for the commands)",
                                 "Next: game 1 (game 1 of the session): Ann deals, Bob plays first."]
    n.child.sendline("! help")
    shown = n.expect(PROMPT)
    assert "claim      Who wins a Rummy! card" in shown and "completion" not in shown
    n.child.sendline("game")
    n.answer("Bob's final hand (cards; or: dropped): ", "KS QX")
    n.answer("Bob's final hand (cards; or: dropped): ", "")  # the same answer, as offered back
    shown = n.expect("Bob's final hand (cards; or: dropped): ")
    assert "(the same answer again: the line is cleared)" in shown
    assert shown.count("unreadable card 'QX'") == 1  # said once more for the second try, then cleared
    n.child.sendline("KS QD 9C")
    n.answer("Cy's final hand (cards; or: dropped): ", "AS AD AC")
    n.answer("Ann's final hand (cards; or: dropped): ", "2H 3H 5S 9D")
    shown = n.answer("How did the game end?", "out Ann")
    shown = n.answer("Fix which answer? (Bob / Cy / Ann / ending / drop): ", "drop")
    assert "refused (S9): Ann's hand" in flat(shown) and "if nobody went out, the game is judged on counts" in flat(shown)
    assert "--" not in shown
    n.answer(PROMPT, "quit")
    assert n.finish() == 0
    assert ref_json("standings", "--db", night_db)["games"] == 0


# -- the pieces, without a terminal --------------------------------------------------------------


def roster(*names: str):
    from rummyref.record import Game, Player

    return Game("g", "rummy-2m", 2_000_000, 0, tuple(Player(n, i, 0) for i, n in enumerate(names, 1)), "2026-11-12")


def scripted(*answers: str):
    """An Asker that answers from a list and records (question, text offered back)."""
    asked: list[tuple[str, str]] = []
    queue = list(answers)

    class Scripted:
        def ask(self, question: str, offered: str = "") -> str:
            asked.append((question, offered))
            return queue.pop(0)

        def tell(self, message: str) -> None:
            pass

    return Scripted(), asked


def test_a_cards_form_keeps_every_answer_and_offers_it_back_on_a_fix():
    from rummyref.games.long.form import CardsForm

    form = CardsForm(roster("Bill", "Ben"))
    ask, asked = scripted("7S 7H 7X", "7S 7H 7D", "KS", "7S", "8S 9S 10S", "", "ben", "")
    form.ask_all(ask)
    assert asked[1] == (MELD.format("Bill")[:-2], "7S 7H 7X")  # the bad card offered back
    assert asked[3][1] == ""  # 7S again (one deck): refused, Ben's first answer offered back next
    assert asked[4] == (MELD.format("Ben")[:-2], "7S")
    facts = form.facts()
    assert facts.out == "Ben" and dict(facts.players)["Bill"].held[0].rank is not None
    ask, asked = scripted("", "2C")
    assert form.fix(ask, "bill")
    assert asked == [(MELD.format("Bill")[:-2], "7S 7H 7D"), (HELD.format("Bill")[:-2], "KS")]
    assert [str(c) for c in dict(form.facts().players)["Bill"].held] == ["2C"]
    assert not form.keys_for("zed") and form.choices() == "Bill / Ben / out / claims"


@pytest.mark.parametrize("answer, expected", [
    ("", ("yes", "")), ("Y", ("yes", "")), ("drop", ("drop", "")), ("no", ("drop", "")),
    ("fix Ben", ("fix", "Ben")), ("claims", ("fix", "claims")), ("fix la", ("fix", "la")),
])
def test_the_answer_to_record_it(answer, expected):
    from rummyref.cli.night_forms import read_confirm
    from rummyref.games.long.form import CardsForm, PointsForm

    game = roster("Bill", "Ben", "Larry")
    form = CardsForm(game) if answer == "claims" else PointsForm(game)
    assert read_confirm(answer, form) == expected


def test_an_unknown_answer_to_record_it_is_asked_again():
    from rummyref.cli.night_forms import read_confirm, read_fix
    from rummyref.errors import UnreadableInput
    from rummyref.games.long.form import PointsForm

    form = PointsForm(roster("Bill", "Ben"))
    with pytest.raises(UnreadableInput):
        read_confirm("maybe", form)
    with pytest.raises(UnreadableInput):
        read_fix("", form)  # after a refusal, Enter cannot record it


def test_an_unknown_answer_after_a_refusal_is_not_told_to_answer_yes():
    """At "Fix which answer?" Enter and yes record nothing: the hint says fix or drop."""
    from rummyref.cli.night_forms import read_fix
    from rummyref.errors import UnreadableInput
    from rummyref.games.long.form import PointsForm

    form = PointsForm(roster("Bill", "Ben"))
    with pytest.raises(UnreadableInput) as exc:
        read_fix("out Ann", form)
    assert exc.value.message == "'out Ann': answer fix ANSWER (or just the answer), or drop"
    assert "yes" not in exc.value.message and exc.value.hint == f"answers to fix: {form.choices()}"


@pytest.mark.parametrize("answer, larry", [("", ["QD", "JD"]), ("-", [])], ids=["enter-keeps", "dash-none"])
def test_from_a_pipe_enter_keeps_an_offered_answer_and_dash_answers_none(night_db, answer, larry):
    """Audit, stop 35: a script amending a hand answered Enter at Larry's recorded cards and
    they were dropped ("(you typed: QD JD)", then none). Enter keeps what is offered, as
    score-hand's questions do; '-' answers none."""
    from cli_helpers import ref, ref_subprocess

    assert ref("new-session", "--db", night_db).exit_code == 0
    assert ref("score-hand", "--db", night_db, "--melded", "Bill=7S 7H 7D", "--held", "Bill=KS 2C",
               "--melded", "Ben=AH 2H 3H 4H", "--held", "Larry=QD JD", "--out", "Ben").exit_code == 0
    typed = "\n".join(["amend 1", "check", "Larry", "", answer, "y", "quit"]) + "\n"
    r = ref_subprocess("--db", night_db, "night", input=typed)
    assert r.returncode == 0, r.stderr
    assert "(offered: QD JD; Enter keeps it, - for none)" in flat(r.stdout + r.stderr)
    assert "you typed" not in r.stdout + r.stderr
    history = ref_json("history", "--db", night_db)["entries"]
    if larry == ["QD", "JD"]:  # nothing changed: nothing to record
        assert [e["kind"] for e in history] == ["hand"]
    else:
        assert history[-1]["kind"] == "amend" and history[-1]["facts"]["players"]["Larry"]["held"] == larry


def test_from_a_pipe_every_question_goes_to_stderr_whatever_the_names_length(tmp_path):
    """Audit, stop 35: a short question went to stdout (input's prompt), a long one to stderr
    (wrapped on lines of its own): a script reading stdout got some questions and not others."""
    from cli_helpers import ref_subprocess

    typed = "\n".join(["cards", "7S 7H 7D", "", "", "2C", "", "QH", "Bill", "", "", "end"]) + "\n"
    r = ref_subprocess("--db", str(tmp_path / "ref.db"), "night", "-p",
                       "Bill,Ben,Christopher Columbus-Montgomery-Fitzgerald", input=typed)
    assert r.returncode == 0, r.stderr
    for question in ("night>", "Bill melded or laid off", "Ben left in hand", "Who went out?", "Record it?"):
        assert question not in r.stdout and question in r.stderr, question
    assert "melded or laid off" not in r.stdout
    assert "Recorded: hand 1 of rummy-2m" in r.stdout  # what was written: the shell's output


def test_players_who_are_not_the_open_games_are_refused_not_ignored(night_db):
    """Audit, stop 36: after the README's `ref night`, `ref night --players Ann,Bob,Cy` ("a new
    game with your own roster") resumed Bill, Ben and Larry's night with a one-line "(--players
    ignored)". Names that are not the open game's are refused (exit 4), and --game starts one."""
    from cli_helpers import ref, ref_subprocess

    assert ref("new-session", "--db", night_db).exit_code == 0
    r = ref_subprocess("--db", night_db, "night", "--players", "Ann,Bob,Cy", input="quit\n")
    assert r.returncode == 4
    assert flat(r.stderr).startswith("refused: Rummy Night 1 of rummy-2m is open, and Ann, Bob, Cy are not among "
                                     "its players (Bill, Ben, Larry)")
    assert "--game NEW-NAME starts a new game" in flat(r.stderr) and "resumed" not in r.stdout
    r = ref_subprocess("--db", night_db, "night", "--players", "Ann,Bob,Cy", "--game", "friday", input="quit\n")
    assert r.returncode == 0 and "New game friday" in r.stdout
    # the open game's own players (any case) resume it, as before
    r = ref_subprocess("--db", night_db, "night", "--game", "rummy-2m", "--players", "bill,BEN,Larry", input="quit\n")
    assert r.returncode == 0 and "Rummy Night 1 of rummy-2m resumed" in r.stdout


def test_a_dash_is_none_at_once_and_nobody_went_out_is_nobody(tmp_path):
    """Audit, stop 36: '-' at a card question was "unreadable card '-'" the first time, then
    silently none on the put-back; "nobody" at "Who went out? (name; blank: nobody)" got A1's
    "GEDDOWWWT!! nobody is not on the roster". Both now mean none, at once."""
    from cli_helpers import ref_subprocess

    db = str(tmp_path / "ref.db")
    typed = "\n".join(["cards", "7S 7H 7D", "KS", "-", "2C", "-", "QH", "nobody", "-", "", "end"]) + "\n"
    r = ref_subprocess("--db", db, "night", input=typed)
    assert r.returncode == 0, r.stderr
    assert "unreadable" not in r.stderr and "GEDDOWWWT" not in r.stderr
    entry = ref_json("history", "--db", db)["entries"][0]
    players = entry["facts"]["players"]
    assert players["Ben"]["melded"] == [] and players["Larry"]["melded"] == [] and entry["facts"].get("out") is None
    assert entry["results"] == {"Bill": 21 - 10, "Ben": -2, "Larry": -10}


def test_a_player_named_nobody_still_goes_out():
    from rummyref.games.long.form import read_out
    from rummyref.record import Game, Player

    def game(*names: str) -> Game:
        return Game("g", "rummy-2m", 2_000_000, 0, tuple(Player(n, i, 0) for i, n in enumerate(names)), "")

    plain = game("Bill", "Ben", "Larry")
    assert [read_out(a, plain) for a in ("  Nobody ", "no one", "-", "", "ben")] == [None, None, None, None, "Ben"]
    assert read_out("nobody", game("Bill", "Nobody", "Larry")) == "Nobody"


@pytest.mark.parametrize("stdin, stdout, edits", [(True, True, True), (True, False, False), (False, True, False)])
def test_an_answer_is_put_back_on_the_line_only_where_input_edits_it(monkeypatch, stdin, stdout, edits):
    """Audit, stop 36: with stdout piped (``ref night | tee night.log``) Python's input() uses
    no readline, so "the answer is back on the line" left it empty and Enter erased a recorded
    answer. Only with both streams the terminal is the line edited; else a blank keeps it."""
    import sys

    from rummyref.cli import night_shell, prompts

    monkeypatch.setattr(sys.stdin, "isatty", lambda: stdin, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: stdout, raising=False)
    assert (prompts._readline() is not None) is edits
    assert (night_shell._readline() is not None) is edits
    assert prompts.kept("", "2C", edited=False) == "2C" and prompts.kept("-", "", edited=False) == ""


def test_a_gin_amendment_shows_the_hand_as_it_will_be_settled(tmp_path):
    """Audit, stop 36: amending a Gin hand in ref night showed only the totals before and
    after; the table could not check the melds, deadwood and lay-offs before it was written."""
    from cli_helpers import ref_subprocess

    typed = "\n".join(["c", "5H 6H 7H 2S 2D 2C KC KD KS AH", "8H 9H 4H 3S 4S 5S QC QD 7C 7D", "knock ann", "",
                       "amend 1", "Bob had the 6D", "Bob", "8H 9H 4H 3S 4S 5S QC QD 7C 6D", "drop", "quit"]) + "\n"
    r = ref_subprocess("--db", str(tmp_path / "r.db"), "night", "--ruleset", "gin", "--players", "Ann,Bob",
                       input=typed)
    assert r.returncode == 0, r.stderr
    said = flat(r.stdout)
    shown = said[said.index("Hand 1, amended, if recorded:"):]
    assert "Bob: 3S 4S 5S; deadwood 6D QD 7C QC (33); laid off 4H 8H 9H" in shown
    assert "Knock: Ann scores 32." in shown and "Ann: 33 -> 32" in shown


@pytest.mark.parametrize("reread_fails", [False, True], ids=["record-read-again", "record-unreachable"])
def test_a_write_the_record_cannot_take_keeps_the_hand_for_another_try(monkeypatch, capsys, reread_fails):
    """A server down at "Record it?" (exit 6 for a command) refuses the write; the shell keeps
    the hand's answers and asks again, even when the record cannot be read again either."""
    from rummyref import play
    from rummyref.cli import night_shell
    from rummyref.errors import IntegrityError, StorageError

    class Settle:  # "Record it?" answered yes each time it is asked
        def __init__(self, term, what):
            pass

        def __call__(self, form, judge, preview):
            return "the hand"

    tries: list[str] = []

    def append(db, ctx, result):
        tries.append(ctx)
        if len(tries) == 1:
            raise StorageError("the database cannot be used: connection refused")
        return f"written with {ctx}"

    def reread():
        if reread_fails:
            raise StorageError("the database cannot be used: connection refused")
        return "read again"

    written: list[str] = []
    monkeypatch.setattr(night_shell, "Settle", Settle)
    monkeypatch.setattr(play, "append", append)
    ctx = type("Ctx", (), {"ruleset": type("R", (), {"hand_word": "hand"})()})()
    night_shell._settle_and_write(None, ctx, None, None, None, written.append, reread, None)
    assert len(tries) == 2 and written == [f"written with {ctx if reread_fails else 'read again'}"]
    assert "the hand's answers are kept" in capsys.readouterr().err

    def broken():
        raise IntegrityError("the record was changed outside ref")

    tries.clear()
    with pytest.raises(IntegrityError):  # a record changed outside ref still ends the night
        night_shell._settle_and_write(None, ctx, None, None, None, written.append, broken, None)
