"""A stated group of one or two cards lays a meld with cards its player won by a Rummy! claim
(SPEC §7; docs/guide/the-table-as-melds.md). Larry melded JC QC KC, the JC won by his claim, and
5S 5D 5H; the table typed ``Larry=QC KC / 5S 5D 5H`` and ``Larry=JC``. Before, the '/' made his
QC KC a lay-off with nowhere to go, and the hand was refused. At the command line, with
``--json``, in ``ref amend`` and in ``ref night``, with the exact points; and the refusals."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json
from table_strategies import printed
from test_night import CLAIMS, CONFIRM, HELD, MELD, OUT, PROMPT, Night, flat, night_db  # noqa: F401

PLAYERS = "Bill,Ben,Larry"
NOBODY_HOLDS = ["--held", "Bill=", "--held", "Ben=", "--held", "Larry="]
#: Larry's JC QC KC (the JC claimed) and 5S 5D 5H; Ben lays the 10C off on the run, Bill the 5C
#: on the fives; Bill holds the KS, Larry the 2D
HAND = ["--melded", "Larry=QC KC / 5S 5D 5H", "--claim", "Larry=JC", "--melded", "Ben=10C",
        "--melded", "Bill=5C", "--held", "Bill=KS", "--held", "Ben=", "--held", "Larry=2D"]


@pytest.fixture
def game():
    assert ref("new-session", "--players", PLAYERS, "--wildcards", "2").exit_code == 0


def hands() -> int:
    return sum(e["kind"] == "hand" for e in ref_json("history")["entries"])


def totals() -> dict[str, int]:
    return {p["name"]: p["total"] for p in ref_json("standings")["players"]}


def test_the_slash_no_longer_refuses_the_group_larry_laid_with_his_claimed_card(game):
    """By hand: J Q K are 10 each. Larry melded QC KC 20 and 5S 5D 5H 15 (35), claimed the JC
    10, holds the 2D: 43. Ben's 10C sits on Larry's run: 10. Bill's 5C on Larry's fives, 5,
    less the KS held, 10: -5. The arrangement printed and the credits agree card by card."""
    r = ref("score-hand", *HAND)
    assert r.exit_code == 0, r.stderr
    melds, credits = printed(r.stdout)
    assert [(m["cards"], m["value"], m["how"]) for m in melds] == [
        ([("5S", "Larry"), ("5H", "Larry"), ("5D", "Larry"), ("5C", "Bill")], 20,
         "said by the table (Larry's meld as laid with /)"),
        ([("10C", "Ben"), ("JC*", "Larry"), ("QC", "Larry"), ("KC", "Larry")], 40, "arranged by ref (the engine)"),
    ]
    assert credits == {"Bill": -5, "Ben": 10, "Larry": 43}
    text = " ".join(r.stdout.split())
    assert "Bill: 5C 5 (match 5S 5H 5D 5C) - KS 10 held = -5" in text
    assert "Ben: 10C 10 (run 10C JC* QC KC) = 10" in text
    assert "Larry: 5S 5H 5D 15 (match 5S 5H 5D 5C) + JC* QC KC 30 (run 10C JC* QC KC) - 2D 2 held = 43" in text
    assert totals() == {"Bill": -5, "Ben": 10, "Larry": 43}
    assert ref("verify").exit_code == 0


def test_the_same_hand_with_json_credits_each_card_to_who_laid_it(game):
    result = ref_json("score-hand", *HAND)
    scores = {s["name"]: (s["melded"], s["claimed"], s["held"], s["points"]) for s in result["score"]["scores"]}
    assert scores == {"Bill": (5, 0, 10, -5), "Ben": (10, 0, 0, 10), "Larry": (35, 10, 2, 43)}
    run = next(m for m in result["score"]["arrangement"] if m["kind"] == "sequence")
    assert [(c["card"], c["by"], c["value"], c["claimed"]) for c in run["laid"]] == [
        ("10C", "Ben", 10, False), ("JC", "Larry", 10, True), ("QC", "Larry", 10, False), ("KC", "Larry", 10, False)]
    assert (run["value"], run["decided"], run["stated_by"]) == (40, "engine", None)


def test_the_slash_changes_nothing_the_cards_say(game):
    """The same cards without the '/': the same points."""
    slashed = ref_json("score-hand", "--melded", "Larry=QC KC / 5S 5D 5H", "--claim", "Larry=JC", *NOBODY_HOLDS)
    plain = ref_json("score-hand", "--melded", "Larry=QC KC 5S 5D 5H", "--claim", "Larry=JC", *NOBODY_HOLDS)
    for result in (slashed, plain):
        larry = next(s for s in result["score"]["scores"] if s["name"] == "Larry")
        assert (larry["melded"], larry["claimed"], larry["points"]) == (35, 10, 45)
    assert totals() == {"Bill": 0, "Ben": 0, "Larry": 90}


@pytest.mark.parametrize("claim, how", [
    ("Larry=JC>QC", "said by the table (Larry's JC>QC)"),
    ("Larry=JC>Larry", "said by the table (Larry's JC>Larry)"),
])
def test_a_claim_may_say_it_joined_the_groups_meld(game, claim, how):
    r = ref("score-hand", "--melded", "Larry=QC KC / 5S 5D 5H", "--claim", claim, *NOBODY_HOLDS)
    assert r.exit_code == 0, r.stderr
    assert f"JC* QC KC (Larry)  [run, 30] {how}" in r.stdout
    assert totals()["Larry"] == 45


@pytest.mark.parametrize("args, message", [
    # the claim is the 9C: no meld takes it, and the QC KC have no card to lay one with
    (["--claim", "Larry=9C"],
     "refused: Larry's QC KC (--melded); Larry's 9C (--claim) cannot sit in any meld on the table"),
    # a meld is laid by one player: Ben's claimed JC lays none with Larry's QC KC
    (["--claim", "Ben=JC"],
     "refused: Larry's QC KC (--melded); Ben's JC (--claim) cannot sit in any meld on the table"),
    # '>run' says the JC joined a run already there: there is none
    (["--claim", "Larry=JC>run"],
     "refused (B5): Larry's JC>run (--claim) cannot be: no run on the table takes the JC but one it lays itself, "
     "and '>' says a card joined a meld already there"),
    # one more card that fits nowhere: named alone, the others all sit
    (["--claim", "Larry=JC", "--melded", "Ben=9H"],
     "refused: Ben's 9H (--melded) cannot sit in any meld on the table"),
])
def test_a_wrong_table_is_still_refused_naming_the_card(game, args, message):
    r = ref("score-hand", "--melded", "Larry=QC KC / 5S 5D 5H", *args, *NOBODY_HOLDS)
    assert r.exit_code == 4, r.stdout
    assert " ".join(r.stderr.split()).startswith(message)
    assert hands() == 0


def test_two_groups_never_lay_one_meld(game):
    """``QC / KC`` are two groups: a stated group is never two in one meld."""
    r = ref("score-hand", "--melded", "Larry=QC / KC / 5S 5D 5H", "--claim", "Larry=JC", *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert " ".join(r.stderr.split()).startswith(
        "refused: Larry's QC / KC (--melded); Larry's JC (--claim) cannot sit in any meld on the table")
    assert hands() == 0


def test_amend_to_the_slashed_hand(game):
    """The hand recorded with the 2D in Larry's hand, corrected: the same cards, '/' and all."""
    first = ref_json("score-hand", "--melded", "Larry=QC KC 5S 5D 5H", "--claim", "Larry=JC",
                     "--held", "Bill=", "--held", "Ben=", "--held", "Larry=2D")
    assert first["totals"]["Larry"] == 43
    r = ref("amend", "1", "--melded", "Larry=QC KC / 5S 5D 5H", "--claim", "Larry=JC", *NOBODY_HOLDS,
            "--reason", "Larry held nothing")
    assert r.exit_code == 0, r.stderr
    assert "JC* QC KC (Larry)  [run, 30] arranged by ref (the engine)" in r.stdout
    assert "Larry: 5S 5H 5D 15 (match 5S 5H 5D) + JC* QC KC 30 (run JC* QC KC) = 45" in " ".join(r.stdout.split())
    assert totals()["Larry"] == 45
    wrong = ref("amend", "1", "--melded", "Larry=QC KC / 5S 5D 5H", "--claim", "Larry=9C", *NOBODY_HOLDS,
                "--reason", "a slip")
    assert wrong.exit_code == 4 and "Larry's 9C (--claim)" in " ".join(wrong.stderr.split())
    assert totals()["Larry"] == 45
    assert ref("verify").exit_code == 0


def test_the_hand_typed_in_a_night(night_db):  # noqa: F811
    """At the prompts: the 9C typed as Larry's claim is refused, naming it at the claims prompt
    (and the cards left with no meld: Ben's 10C, Larry's QC KC); fixed to the JC, the hand is
    recorded with the points worked out above."""
    n = Night("--db", night_db, "--players", PLAYERS, "--wildcards", "2")
    n.answer(PROMPT, "cards")
    for name, melded, held in (("Bill", "5C", "KS"), ("Ben", "10C", ""), ("Larry", "QC KC / 5S 5D 5H", "2D")):
        n.answer(MELD.format(name), melded)
        n.answer(HELD.format(name), held)
    n.answer(OUT, "")
    n.answer(CLAIMS, "Larry=9C")
    shown = flat(n.answer("Fix which answer? (Bill / Ben / Larry / out / claims / drop): ", "claims"))
    assert ("refused: Ben's 10C (the melded prompt); Larry's QC KC (the melded prompt); Larry's 9C (the claims "
            "prompt) cannot sit in any meld on the table") in shown
    n.answer(CLAIMS, "\x15" + "Larry=JC")
    shown = flat(n.answer(CONFIRM, ""))
    assert "10C (Ben) JC* QC KC (Larry) [run, 40] arranged by ref (the engine)" in shown
    assert "Larry: 5S 5H 5D 15 (match 5S 5H 5D 5C) + JC* QC KC 30 (run 10C JC* QC KC) - 2D 2 held = 43" in shown
    n.expect(PROMPT)
    n.child.sendline("quit")
    assert n.finish() == 0
    standings = ref_json("standings", "--db", night_db)
    assert {p["name"]: p["total"] for p in standings["players"]} == {"Bill": -5, "Ben": 10, "Larry": 43}


@pytest.mark.parametrize("typed, offered", [
    ("Larry=QC KC /", "QC KC /"), ("Larry=QC KC / 5S 5D 5H", "QC KC / 5S 5D 5H"), ("Larry=QC KC", "QC KC"),
])
def test_an_amend_offers_a_stated_group_back_with_its_slash(typed, offered):
    """Found with this fix: ``ref amend`` at a terminal offered ``Larry=QC KC /`` back as
    ``QC KC`` (no '/'); kept as offered, the player no longer stated the group. The text offered
    reads back as the same facts."""
    from rummyref.games.long.form import CardsForm
    from rummyref.games.long.table import read_hand
    from rummyref.record import Game, Player

    roster = ("Bill", "Ben", "Larry")
    game = Game("g", "rummy-2m", 2_000_000, 0, tuple(Player(n, i, 0) for i, n in enumerate(roster, 1)), "2026-11-12")
    facts = read_hand(roster, [typed], ("Bill=", "Ben=", "Larry="))
    form = CardsForm(game)
    form.recall_facts(facts)
    form.texts.update(form.recalled_texts)
    assert form.texts[("melded", "Larry")] == offered
    again = read_hand(roster, [f"Larry={offered}"], ("Bill=", "Ben=", "Larry="))
    assert again.player("Larry") == facts.player("Larry")
