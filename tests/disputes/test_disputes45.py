"""Audit disputes45: the --completed hint (#4), a card taken laid on a run (#5), designate's
places (#8), and "table" never cited as a rule (#11)."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json


def refused(*args: str):
    r = ref(*args)
    assert r.exit_code == 3 and r.stdout == "", (r.exit_code, r.stdout, r.stderr)
    return r.stderr


def words(text: str) -> str:
    return " ".join(text.split())


# -- 4. the --completed hint names the players of the dispute, in orders the facts allow ---------


def test_the_completed_hint_names_the_tables_own_players():
    err = refused("dispute", "claim", "--players", "Ann,Bob,Cy", "--called", "Ann=Bob,Cy", "--touched", "Cy,Ann=Bob")
    assert words(err) == (
        "error: cannot tell who completed both the call and the touch first among Ann, Bob and Cy "
        'say it with --completed, e.g. --completed "Ann=Bob,Cy" (Ann and Bob together first) or '
        '"Cy,Ann=Bob" (Cy first)')


def test_the_completed_hint_suggests_only_orders_the_facts_allow():
    err = refused("dispute", "claim", "--called", "Bill,Ben", "--touched", "Bill=Ben")
    assert words(err) == (
        "error: cannot tell who completed both the call and the touch first among Bill and Ben "
        'say it with --completed, e.g. --completed "Bill,Ben" (Bill first) or "Bill=Ben" (Bill and Ben together)')
    # Ben first is the order ref refuses: Bill called first and they touched together
    assert "Ben cannot have completed both first" in refused(
        "dispute", "claim", "--called", "Bill,Ben", "--touched", "Bill=Ben", "--completed", "Ben,Bill")


@pytest.mark.parametrize(
    "players, called, touched",
    [("Ann,Bob,Cy", "Ann=Bob,Cy", "Cy,Ann=Bob"), ("Bill,Ben,Larry", "Bill,Ben", "Bill=Ben"),
     ("Ann,Bob,Cy,Dee", "Ann,Bob,Cy,Dee", "Bob,Ann,Cy,Dee"), ("Ann,Bob,Cy", "Ann,Bob,Cy", "Cy,Bob,Ann")],
)
def test_every_order_the_hint_suggests_is_answered(players, called, touched):
    import re

    args = ("dispute", "claim", "--players", players, "--called", called, "--touched", touched)
    hint = words(refused(*args))
    suggested = re.findall(r'"([^"]+)" \(', hint)
    assert len(suggested) == 2
    for order in suggested:
        assert ref(*args, "--completed", order, "--no-record").exit_code == 0, order
