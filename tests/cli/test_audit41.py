"""The table as melds at the command line: four faults an audit found (stop 41), each with the
exact points, messages and exit codes. SPEC §1, §5, §7; docs/guide/the-table-as-melds.md."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

PLAYERS = "Bill,Ben,Larry"
NOBODY_HOLDS = ["--held", "Bill=", "--held", "Ben=", "--held", "Larry="]


@pytest.fixture(autouse=True)
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    assert ref("new-session", "--players", PLAYERS, "--wildcards", "2").exit_code == 0


def hands() -> int:
    return sum(e["kind"] == "hand" for e in ref_json("history")["entries"])


def credits(result: dict) -> dict[str, int]:
    return {s["name"]: s["points"] for s in result["score"]["scores"]}


# -- a WILDCARD said to be a card of a match that holds every suit (SPEC §5: 1-4 natural cards and
# any number of WILDCARDs) is read as said, as ref reads a bare one there -------------------------


@pytest.mark.parametrize("typed", ["W", "W=7S", "W=7D", "W=7S^", "W=7C>Bill", "W=7H>7S"])
def test_a_wildcard_on_a_match_of_every_suit_may_be_said_to_be_any_of_them(typed):
    result = ref_json("score-hand", "--melded", "Bill=7S 7D 7H 7C", "--melded", f"Ben={typed}", *NOBODY_HOLDS)
    assert credits(result) == {"Bill": 28, "Ben": 7, "Larry": 0}
    [meld] = result["score"]["arrangement"]
    said = typed.split(">")[0].rstrip("^")
    assert meld["kind"] == "group" and meld["value"] == 35
    assert [c["as"] for c in meld["laid"]][-1] == ("7S" if said == "W" else said[2:])


def test_a_hand_with_a_bare_wildcard_there_can_be_corrected_to_say_its_card():
    ref_json("score-hand", "--melded", "Bill=7S 7D 7H 7C", "--melded", "Ben=W", *NOBODY_HOLDS)
    r = ref("amend", "1", "--melded", "Bill=7S 7D 7H 7C", "--melded", "Ben=W=7H", *NOBODY_HOLDS,
            "--reason", "Ben said which")
    assert r.exit_code == 0, r.stderr
    assert "W=7H (Ben)  [match, 35]" in r.stdout
    assert ref("verify").exit_code == 0


def test_a_wildcard_said_to_be_a_card_already_in_a_match_with_a_suit_free_is_refused():
    r = ref("score-hand", "--melded", "Bill=7S 7D 7C", "--melded", "Ben=W=7S", *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert " ".join(r.stderr.split()).startswith(
        "refused: Ben's W=7S (--melded) cannot be: no meld on the table has a place for a 7S")
    assert hands() == 0


@pytest.mark.parametrize("args, whose, card", [
    (["--melded", "Bill=7S 7H 7D W=7H"], "Bill's W=7H (--melded)", "7H"),  # said "with it ... without it"
    (["--melded", "Bill=4S 5S 6S W=5S"], "Bill's W=5S (--melded)", "5S"),
    (["--melded", "Bill=7S 7H 7D", "--claim", "Bill=W=7H"], "Bill's W=7H (--claim)", "7H"),  # likewise
    (["--melded", "Bill=7S 7H 7D 8D 9D W=7H"], "Bill's W=7H (--melded)", "7H"),  # likewise
    (["--melded", "Bill=7S 7H 7D", "--melded", "Ben=W=7H"], "Ben's W=7H (--melded)", "7H"),
    (["--melded", "Bill=4S 5S 6S", "--melded", "Ben=W=5S"], "Ben's W=5S (--melded)", "5S"),
])
def test_a_wildcard_said_to_be_a_card_already_in_its_meld_is_refused_in_one_way(args, whose, card):
    """A match with a suit free has no place for a WILDCARD said to be a card of a suit there,
    as a run has none for a WILDCARD said to be one of its cards: the same words, whoever laid
    the meld and the WILDCARD, and however the WILDCARD came to the table."""
    r = ref("score-hand", *args, *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert " ".join(r.stderr.split()) == (
        f"refused: {whose} cannot be: no meld on the table has a place for a {card} "
        "leave the designation out to let ref place the card, or correct it")
    assert hands() == 0


# -- a meld is laid by one player: cards laid off or claimed by several never make one -----------


@pytest.mark.parametrize("args", [
    ["--melded", "Bill=4S", "--melded", "Ben=4H", "--melded", "Larry=4C"],
    ["--claim", "Bill=4S", "--claim", "Ben=4H", "--claim", "Larry=4C"],
    ["--melded", "Bill=4S /", "--melded", "Ben=4H /", "--melded", "Larry=4C /"],
])
def test_three_cards_of_three_players_are_no_meld(args):
    r = ref("score-hand", *args, *NOBODY_HOLDS)
    assert r.exit_code == 4, r.stdout
    message = " ".join(r.stderr.split())
    assert "cannot sit in any meld on the table" in message
    assert all(f"{who}'s {card}" in message for who, card in (("Bill", "4S"), ("Ben", "4H"), ("Larry", "4C")))
    assert hands() == 0


@pytest.mark.parametrize("bill", ["Bill=7S 7D 7C / QS KS", "Bill=7S 7D 7C QS KS"])
def test_the_slash_does_not_change_whether_a_table_is_legal(bill):
    # Bill's QS KS, Larry's JS and Ben's claimed AS: no three of them are one player's meld
    r = ref("score-hand", "--melded", bill, "--melded", "Larry=JS", "--claim", "Ben=AS", *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert "Bill's QS KS (--melded)" in " ".join(r.stderr.split())
    assert hands() == 0


def test_a_claimed_card_lays_a_meld_with_two_of_the_claimers_own():
    result = ref_json("score-hand", "--melded", "Larry=QC KC", "--claim", "Larry=JC", *NOBODY_HOLDS)
    assert credits(result) == {"Bill": 0, "Ben": 0, "Larry": 30}


# -- B5's note and the note of a choice between runs, both -----------------------------------------


def test_a_card_b5_sent_to_a_run_is_also_told_of_the_other_run():
    table = ["--melded", "Bill=AS AH AC", "--melded", "Ben=2D 3D 4D / JD QD KD"]
    r = ref("score-hand", *table, "--melded", "Larry=AD", *NOBODY_HOLDS)
    assert r.exit_code == 0, r.stderr
    notes = " ".join(r.stdout.split())
    assert ("Note: Larry's AD fits the run and the match AS AH AC: nothing was said, so it counts for the run "
            "(B5); AD>match says otherwise") in notes
    assert ("Note: Larry's AD could join AD 2D 3D 4D (1) or JD QD KD (15): the table did not say which, so ref "
            "chose by its fixed order (runs first, an ace low first, then melds in suit order, the lower first); AD>JD says "
            "otherwise") in notes
    assert "AS AH AC (15)" not in notes  # the match is B5's note's, not named twice
    assert credits(ref_json("score-hand", *table, "--melded", "Larry=AD>JD", *NOBODY_HOLDS))["Larry"] == 15


# -- a card typed with ^ is named as typed --------------------------------------------------------


def test_a_card_typed_sideways_is_named_as_typed():
    r = ref("score-hand", "--melded", "Bill=JS JD JC", "--melded", "Ben=QH KH AH", "--melded", "Larry=JH^ W>Ben",
            *NOBODY_HOLDS)
    assert r.exit_code == 4
    # Larry's W>Ben could only reach Ben's run past the JH: the W is at fault, and the JH^ named as typed
    assert " ".join(r.stderr.split()) == (
        "refused (B6): Larry's W>Ben (--melded) cannot be: it would extend a run past the JH laid sideways "
        "Larry's JH^ (--melded) cuts the run off there: nothing may join the run past it, nor a WILDCARD stand "
        "for it; check where the W went, and whether the JH went on a match")
    result = ref_json("score-hand", "--melded", "Bill=JS JD JC", "--melded", "Larry=JH^", *NOBODY_HOLDS)
    [meld] = result["score"]["arrangement"]
    assert [c["shown"] for c in meld["laid"] if c["by"] == "Larry"] == ["JH^"]
    assert "JH^" in meld["typed"]
    assert ref("verify").exit_code == 0


# -- audit stop40 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ben", ["W^", "W=7S^", "W=7S>match", "W=7S>Bill"])
def test_a_wildcard_laid_sideways_as_a_card_already_there_cuts_no_run_off(ben):
    # on 7S 7H 7D 7C a WILDCARD stands for a card already on the table, however it was said:
    # Larry's run reads its WILDCARD as the 7S at its high end (4+5+6+7)
    result = ref_json("score-hand", "--melded", "Bill=7S 7H 7D 7C", "--melded", "Larry=4S 5S 6S W",
                      "--melded", f"Ben={ben}", *NOBODY_HOLDS)
    assert credits(result) == {"Bill": 28, "Ben": 7, "Larry": 22}


def test_a_card_typed_sideways_is_named_among_what_the_table_said():
    r = ref("score-hand", "--melded", "Bill=JS JD JC", "--melded", "Larry=JH^", *NOBODY_HOLDS)
    assert r.exit_code == 0, r.stderr
    assert "JS JD JC (Bill) JH^ (Larry)  [match, 40] said by the table (Larry's JH^)" in r.stdout


def test_a_wildcard_said_to_be_a_card_already_in_a_match_with_a_suit_free_names_no_run():
    r = ref("score-hand", "--melded", "Bill=7S 7H 7D", "--melded", "Ben=W=7S^", *NOBODY_HOLDS)
    assert r.exit_code == 4
    message = " ".join(r.stderr.split())
    assert message.startswith("refused (B5): Ben's W=7S^ (--melded) cannot be: no match on the table takes the W "
                              "as a 7S")
    assert "run" not in message.split("leave the designation")[0]
    assert hands() == 0


def test_the_refusal_of_a_meld_of_several_players_says_a_meld_is_one_players():
    r = ref("score-hand", "--melded", "Ben=QC KC", "--claim", "Larry=JC", *NOBODY_HOLDS)
    assert r.exit_code == 4
    assert " ".join(r.stderr.split()) == (
        "refused: Ben's QC KC (--melded); Larry's JC (--claim) cannot sit in any meld on the table every card "
        "melded, laid off or claimed must sit in a run (3+ in suit) or a match (3+ of a rank) that one player "
        "laid (three cards of theirs, melded or won by a claim); the others' cards join it")
