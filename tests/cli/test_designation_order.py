"""A card is named as typed (the-table-as-melds.md, "When ref refuses a hand"): its designations
in the order typed, in a refusal, the arrangement, the history and ``--json``; and an unreadable
card's column points at the card, also after ``W=`` (audit issue12-round4, finding 4). A record
written before the order was kept reads, shows and verifies as before."""

from __future__ import annotations

import itertools

import pytest
from cli_helpers import ref, ref_json

from rummyref.games.long.table import Where, facts_from_json, facts_to_json, read_hand, read_token

ROSTER = ("Bill", "Ben", "Larry")
TABLE = ["--melded", "Bill=AS AH AC", "--melded", "Larry=2D 3D 4D"]
NOBODY_HOLDS = ["--held", "Bill=", "--held", "Ben=", "--held", "Larry="]


def words(text: str) -> str:
    return " ".join(text.split())


def test_a_refusal_names_the_designations_in_the_order_typed():
    assert ref("new-session", "--wildcards", "2").exit_code == 0
    r = ref("score-hand", *TABLE, "--melded", "Ben=AD>2D>Bill", *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert words(r.stderr).startswith("refused (B5): Ben's AD>2D>Bill (--melded) cannot be: no meld of Bill's "
                                      "holding the 2D takes the AD")
    r = ref("score-hand", *TABLE, "--melded", "Ben=AD > Bill > 2D", *NOBODY_HOLDS)  # the other order, spaced
    assert r.exit_code == 4 and "refused (B5): Ben's AD>Bill>2D (--melded) cannot be" in words(r.stderr)
    assert ref_json("history")["entries"] == []  # nothing written


def test_a_recorded_hand_names_them_in_the_order_typed_and_verifies():
    assert ref("new-session", "--wildcards", "2").exit_code == 0
    r = ref("score-hand", *TABLE, "--melded", "Ben=AD>match>Bill", "--claim", "Larry=5D>2D>Larry",
            "--claim", "Larry=W=6D>run>Larry", *NOBODY_HOLDS)
    assert r.exit_code == 0, r.stderr
    said = "said by the table (Ben's AD>match>Bill)"
    assert f"AS AH AC (Bill) AD^ (Ben) [match, 60] {said}" in words(r.stdout)
    assert "(Larry's 5D>2D>Larry, Larry's W=6D>run>Larry)" in words(r.stdout)
    history = ref("history")
    assert said in words(history.stdout)
    entry = ref_json("history")["entries"][-1]
    assert entry["facts"]["players"]["Ben"]["melded"] == [["AD>match>Bill"]]
    assert entry["facts"]["claims"] == [["Larry", "5D>2D>Larry"], ["Larry", "W=6D>run>Larry"]]
    assert [m["typed"] for m in entry["facts"]["score"]["arrangement"]] == [
        ["AS", "AH", "AD>match>Bill", "AC"], ["2D", "3D", "4D", "5D>2D>Larry", "W=6D>run>Larry"]]
    assert entry["results"] == {"Bill": 45, "Ben": 15, "Larry": 9 + 5 + 6}
    assert ref("verify").exit_code == 0


@pytest.mark.parametrize("typed, place", [
    ("W=7", "card 1, column 3"),  # was column 1: the W's, not the 7's
    ("KH W=7", "card 2, column 6"),
    ("KH W = 7", "card 2, column 8"),
    ("KH  W  =  7", "card 2, column 11"),
    ("W = 7H 5X", "card 2, column 8"),  # a card after a spaced '=': was column 6
    ("W=7H>Bill 5X", "card 2, column 11"),
])  # fmt: skip
def test_an_unreadable_card_s_column_points_at_it(typed, place):
    assert ref("new-session", "--wildcards", "2").exit_code == 0
    r = ref("score-hand", *TABLE, "--melded", f"Ben={typed}", *NOBODY_HOLDS)
    assert r.exit_code == 3
    bad = "7" if typed.endswith("7") else "5X"
    assert words(r.stderr).startswith(f"error: unreadable card '{bad}' in Ben's --melded cards ({place})")


@pytest.mark.parametrize("option, typed, place", [
    ("--melded", "Ben=  KH 5X", "card 2, column 6"),  # was column 4: the blanks after '=' count
    ("--melded", "Ben=   KH   5X  ", "card 2, column 9"),
    ("--melded", "  Ben =  W=7", "card 1, column 5"),  # from just after the '=', whatever is before it
    ("--held", "Ben=  KH 5X", "card 2, column 6"),
    ("--claim", "Ben=  W=5X", "card 1, column 5"),
    ("--claim", "Ben= 5D,  W = 5X", "card 2, column 11"),
])  # fmt: skip
def test_a_card_s_column_counts_the_blanks_after_the_name(option, typed, place):
    assert ref("new-session", "--wildcards", "2").exit_code == 0
    held = ["--held", "Bill=", "--held", "Larry="] if option == "--held" else NOBODY_HOLDS
    r = ref("score-hand", *TABLE, option, typed, *held)
    assert r.exit_code == 3
    bad = "7" if typed.endswith("7") else "5X"
    assert words(r.stderr).startswith(f"error: unreadable card '{bad}' in Ben's {option} cards ({place})")


def test_a_card_s_column_counts_the_blanks_in_a_gin_hand():
    assert ref("new-session", "--ruleset", "gin", "--players", "Al,Bo").exit_code == 0
    r = ref("score-hand", "--hand", "Al=  KS 3x", "--knock", "Al")
    assert r.exit_code == 3
    assert words(r.stderr).startswith("error: unreadable card '3x' in Al's --hand cards (card 2, column 6)")


@pytest.mark.parametrize("answers, said", [
    (["cards", "  AS AH 3x"], "in Bill's cards at the melded prompt (card 3, column 9)"),
    (["cards", "2D 3D 4D", "", "", "", "", "", "", "Larry=  5D,  W=7"],
     "in Larry's cards at the claims prompt (card 2, column 10)"),  # was column 8
])  # fmt: skip
def test_a_card_s_column_at_a_prompt_counts_the_blanks_typed(monkeypatch, answers, said):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")  # the questions ref night asks
    assert ref("new-session", "--wildcards", "2").exit_code == 0
    r = ref("score-hand", input="\n".join(answers) + "\n")  # the input runs out: nothing written
    assert said in words(r.stderr)


# -- records: the order is the text kept; one written before reads as it was written ----------------


@pytest.mark.parametrize("targets", list(itertools.permutations([">Bill", ">2D", ">match"])))
def test_every_order_reads_and_writes_back_as_typed(targets):
    token = "W=AD" + "".join(targets)
    laid = read_token(token, Where("Ben", "--melded"), ROSTER)
    assert str(laid) == token
    assert laid == read_token("W=AD>Bill>2D>match", Where("Ben", "--melded"), ROSTER)  # the same facts


def test_a_record_written_before_the_order_was_kept_reads_as_written():
    """An older ref wrote the designations player, card, kind (``AD>Bill>2D``, ``AD>Larry^``):
    read back, they are written and shown the same, so its arrangement and hash chain check."""
    old = {"form": "cards", "version": 2, "out": None,
           "players": {"Ben": {"melded": [["AD>Bill>2D", "KD>Larry^"]], "designated": False, "held": []}},
           "claims": [["Larry", "W=6D>Larry>run"]]}
    facts = facts_from_json(old, ROSTER)
    assert facts_to_json(facts)["players"]["Ben"]["melded"] == old["players"]["Ben"]["melded"]
    assert facts_to_json(facts)["claims"] == old["claims"]
    typed = read_hand(ROSTER, melded=["Ben=AD>2D>Bill KD>Larry^"], claims=["Larry=W=6D>run>Larry"])
    assert (typed.player("Ben"), typed.claims) == (facts.player("Ben"), facts.claims)  # the same facts, either order
    assert facts_to_json(typed)["players"]["Ben"]["melded"] == [["AD>2D>Bill", "KD>Larry^"]]
