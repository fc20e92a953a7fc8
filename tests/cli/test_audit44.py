"""The table as melds at the command line: what an acceptance-style audit found (stop 44,
issue12-round6 #4, #5), with the exact points, messages and exit codes. SPEC §7."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

PLAYERS = "Bill,Ben,Larry"


@pytest.fixture(autouse=True)
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "0")
    assert ref("new-session", "--players", PLAYERS, "--wildcards", "2").exit_code == 0


def hands() -> int:
    return sum(e["kind"] == "hand" for e in ref_json("history")["entries"])


# -- who went out and melded nothing of their own ----------------------------------------------

TABLE = ["--melded", "Bill=AS AH AC", "--melded", "Larry=2D 3D 4D", "--held", "Bill=", "--held", "Larry="]


def test_out_with_a_claim_and_no_melded_is_a_whole_hand():
    """Ben claimed the AD, laid it on Larry's run (B5: the run, 1) and went out: ``--out Ben``
    says he holds nothing, as ``--held "Ben="`` does, and he melded nothing of his own. It was
    refused as facts missing for Ben (exit 3), though ``--held`` alone completes a player."""
    result = ref_json("score-hand", *TABLE, "--claim", "Ben=AD", "--out", "Ben")
    scores = {s["name"]: (s["melded"], s["claimed"], s["held"], s["points"]) for s in result["score"]["scores"]}
    assert scores == {"Bill": (45, 0, 0, 45), "Ben": (0, 1, 0, 1), "Larry": (9, 0, 0, 9)}
    assert hands() == 1
    assert ref("verify").exit_code == 0


def test_out_says_only_what_held_says():
    """``--out`` completes only the player who went out: another player with no ``--held`` is
    still missing, and nothing is written."""
    r = ref("score-hand", "--melded", "Bill=AS AH AC", "--held", "Bill=", "--out", "Ben")
    assert r.exit_code == 3
    assert "facts missing for Larry, and there is no terminal to ask" in r.stderr
    assert hands() == 0


def test_at_a_terminal_who_went_out_is_still_asked_what_they_melded(monkeypatch):
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    r = ref("score-hand", *TABLE, "--out", "Ben", input="5S 6S 7S\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "Ben melded or laid off" in r.stderr
    assert hands() == 1
    assert "Ben    │     18 │" in r.stdout  # 5S 6S 7S


# -- a card's article ------------------------------------------------------------------------------


@pytest.mark.parametrize(("melded", "typed", "said"), [
    ("Bill=AS AH AC W=AS", "Bill's W=AS", "an AS"),
    ("Bill=5H 7H W=8H", "Bill's W=8H", "an 8H"),
    ("Bill=4S 5S 6S W=5S", "Bill's W=5S", "a 5S"),
])
def test_a_wildcard_with_no_place_is_named_with_its_article(melded, typed, said):
    r = ref("score-hand", "--melded", melded, "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.exit_code == 4
    assert " ".join(r.stderr.split()).startswith(
        f"refused: {typed} (--melded) cannot be: no meld on the table has a place for {said} ")
    assert hands() == 0


# -- of two runs of one suit, the lower first ---------------------------------------------------


@pytest.mark.parametrize(("low", "high"), [("Bill", "Ben"), ("Ben", "Bill")])
def test_a_bare_wildcard_goes_on_the_lower_run_of_a_suit_whoever_laid_it(low, high):
    """Larry's bare W with 2C 3C 4C and 8C 9C 10C down: B5's fixed order takes the lower run of
    the clubs (the 5C, 5), not the higher (the JC, 10), nor the one whose player's name comes
    first; the note says the order as it is (audit issue12-round6 #2)."""
    r = ref("score-hand", "--melded", f"{low}=2C 3C 4C", "--melded", f"{high}=8C 9C 10C", "--melded", "Larry=W",
            "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.exit_code == 0, r.stderr
    shown = " ".join(r.stdout.split())
    assert "Larry: W(=5C) 5 (run 2C 3C 4C W(=5C)) = 5" in shown
    assert ("so ref chose by its fixed order (runs first, an ace low first, then melds in suit order, the lower "
            "first); W>8C says otherwise") in shown
