"""Audit output46 #1: ``--completed`` naming only some of the claimants. It was an internal
error (KeyError, exit 1). Now the order it gives is chained with what the calls and touches
say (B8: whoever called and touched first completed first): where that tells who completed
first, the claim is ruled; where it cannot, it is refused (exit 3) naming who is missing."""

from __future__ import annotations

import pytest
from cli_helpers import ref

from rummyref.disputes.engine import claim_ruling, parse_order
from rummyref.errors import UnreadableInput

TABLE3 = ["Bill", "Ben", "Larry"]


def claim(called: str, touched: str, completed: str, players=TABLE3):
    order = lambda t: parse_order(t, players, "test")  # noqa: E731
    return claim_ruling(players, order(called), order(touched), order(completed))


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    "called, touched, completed, winner, chain",
    [
        # the guide's own case: Bill called first, Ben touched first, Ben completed first
        ("Bill,Ben", "Ben,Bill", "Ben,Bill", "Ben", ["B8 Ben completed the call and the touch first: Ben wins the card"]),
        # ... with Larry claiming too, last in both orders: the table names only the two it must order
        ("Bill,Ben,Larry", "Ben,Bill,Larry", "Ben,Bill", "Ben",
         ["B8 Ben completed the call and the touch first: Ben wins the card"]),
        ("Bill,Ben,Larry", "Ben,Bill,Larry", "Bill,Ben", "Bill",
         ["B8 Bill completed the call and the touch first: Bill wins the card"]),
        # the orders decide alone; --completed names the first and agrees
        ("Bill,Ben", "Bill,Ben", "Bill", "Bill", ["B8 Bill completed the call and the touch first: Bill wins the card"]),
        # called together, Bill touched first: Bill either way
        ("Ben=Bill", "Bill,Ben", "Bill", "Bill",
         ["B8 Bill and Ben called at the same moment; Bill touched first, so either Bill completed both first (B8) "
          "or they completed together and the first touch decides (B11)",
          "B11 either way the first touch wins: Bill wins the card"]),
        # given together, the rest after them in both orders: the first touch between the two (B11)
        ("Bill,Ben,Larry", "Ben,Bill,Larry", "Ben=Bill", "Ben",
         ["B8 Bill and Ben completed the call and the touch at the same moment: a tie",
          "B11 on a tie the first touch wins: Ben touched first and wins the card"]),
    ],
)  # fmt: skip
def test_a_partial_completed_order_is_ruled_where_it_decides(called, touched, completed, winner, chain):
    result = claim(called, touched, completed)
    assert result.outcome == "awarded"
    assert result.verdict == f"{winner} wins the Rummy! card."
    assert [f"{s.rule} {s.decided}" for s in result.chain] == chain


def test_a_chain_through_a_player_left_out():
    """Ann completed before Bob (given); Bob called and touched before Cy: Ann before Cy too."""
    players = ["Ann", "Bob", "Cy", "Dee"]
    result = claim("Bob,Cy,Ann,Dee", "Ann,Bob,Cy,Dee", "Ann,Bob", players=players)
    assert result.verdict == "Ann wins the Rummy! card."


@pytest.mark.parametrize(
    "called, touched, completed, message, hint",
    [
        ("Bill,Ben", "Ben,Bill", "Bill",
         "--completed does not place Ben: the orders alone cannot tell who completed both the call and the "
         "touch first among Bill and Ben",
         'place Ben in --completed too, e.g. --completed "Bill,Ben" (Bill first) or "Ben,Bill" (Ben first)'),
        ("Bill,Ben,Larry", "Ben,Bill,Larry", "Bill",
         "--completed does not place Ben: the orders alone cannot tell who completed both the call and the "
         "touch first among Bill and Ben",
         'place Ben in --completed too, e.g. --completed "Bill,Ben,Larry" (Bill first) or "Ben,Bill,Larry" '
         "(Ben first)"),
        # the examples keep what was given: Larry before Bill
        ("Bill,Ben,Larry", "Larry,Ben,Bill", "Larry,Bill",
         "--completed does not place Ben: the orders alone cannot tell who completed both the call and the "
         "touch first among Ben and Larry",
         'place Ben in --completed too, e.g. --completed "Larry,Ben,Bill" (Larry first)'),
        ("Bill,Ben,Larry", "Ben,Larry,Bill", "Larry",
         "--completed does not place Bill and Ben: the orders alone cannot tell who completed both the call "
         "and the touch first among Bill and Ben",
         'place Bill and Ben in --completed too, e.g. --completed "Bill,Ben,Larry" (Bill first) or '
         '"Ben,Larry,Bill" (Ben first)'),
    ],
)  # fmt: skip
def test_a_partial_completed_order_that_cannot_decide_is_refused_naming_who_is_missing(
    called, touched, completed, message, hint
):
    with pytest.raises(UnreadableInput) as caught:
        claim(called, touched, completed)
    assert caught.value.message == message
    assert caught.value.hint == hint


def test_a_pair_it_names_must_still_agree():
    with pytest.raises(UnreadableInput, match="--completed puts Larry before Bill"):
        claim("Bill,Ben,Larry", "Ben,Bill,Larry", "Larry,Bill")


@pytest.mark.parametrize(
    "args, code, out",
    [
        (("--called", "Bill,Ben", "--touched", "Bill,Ben", "--completed", "Bill"), 0, "Bill wins the Rummy! card."),
        (("--called", "Ben=Bill", "--touched", "Bill,Ben", "--completed", "Bill"), 0, "Bill wins the Rummy! card."),
        (("--called", "Bill,Ben,Larry", "--touched", "Ben,Bill,Larry", "--completed", "Ben,Bill"), 0,
         "Ben wins the Rummy! card."),
        (("--called", "Bill,Ben", "--touched", "Ben,Bill", "--completed", "Bill"), 3, ""),
    ],
)  # fmt: skip
def test_the_audits_commands(args, code, out):
    r = ref("dispute", "claim", *args, "--no-record")
    assert r.exit_code == code, r.stderr
    assert r.stdout.splitlines()[:1] == ([out] if out else [])
    assert "internal error" not in r.stderr
    if code:
        assert words(r.stderr).startswith("error: --completed does not place Ben")
