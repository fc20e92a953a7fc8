"""B6 for a card sent to a match by the name of the player whose meld it joined (``>NAME``), and
the meld's own ``shown`` in JSON (audit issue12-round2, findings 1 and 2).

SPEC §7: "A card designated to a match is laid sideways (B6): that run is cut off at that end,
and no later card may extend it there." ``>Gus`` names Gus's meld; where that meld is a match,
the card went on a match, exactly as ``>7S`` or ``^`` says it."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

SEVENS_AND_HEARTS = ["--melded", "Gus=7S 7D 7C", "--melded", "Hal=4H 5H 6H"]
HELD = ["--held", "Gus=", "--held", "Hal=KD", "--held", "Ivy=2C"]


def _game(wildcards: str = "1") -> None:
    assert ref("new-session", "--players", "Gus,Hal,Ivy", "--wildcards", wildcards).exit_code == 0


def _hands() -> int:
    return len(ref_json("history")["entries"])


@pytest.mark.parametrize("named", ["7H>Gus", "7H>7S", "7H^", "7H>match"])
def test_a_claimed_card_sent_to_the_match_cuts_the_run_however_the_meld_was_named(named):
    """Ivy's 7H on Gus's sevens lies sideways: her W=7H may not extend Hal's hearts past it.
    Refused under B6 (exit 4), nothing written, whichever way the table named the match."""
    _game()
    result = ref("score-hand", *SEVENS_AND_HEARTS, "--claim", f"Ivy={named}",
                 "--melded", "Ivy=W=7H>Hal 8H>Hal", *HELD)
    assert result.exit_code == 4, result.stdout + result.stderr
    assert "refused (B6): Ivy's W=7H>Hal (--melded) cannot be: it would extend a run past the 7H " \
           "laid sideways" in " ".join(result.stderr.split())
    assert _hands() == 0


def test_a_laid_off_ace_sent_to_the_aces_by_name_cuts_the_run_at_the_low_end():
    """Cy's AD>Ann on Ann's aces lies sideways: his W=AD may not stand at the low end of Bo's
    2D 3D 4D (the same as AD>AC, B6)."""
    assert ref("new-session", "--players", "Ann,Bo,Cy", "--wildcards", "1").exit_code == 0
    result = ref("score-hand", "--melded", "Ann=AS AH AC", "--melded", "Bo=2D 3D 4D",
                 "--melded", "Cy=AD>Ann / W=AD>2D", "--held", "Ann=", "--held", "Bo=", "--held", "Cy=")
    assert result.exit_code == 4
    assert "refused (B6): Cy's W=AD>2D (--melded) cannot be: it would extend a run past the AD laid " \
           "sideways" in " ".join(result.stderr.split())
    assert _hands() == 0


def test_a_card_sent_to_a_match_by_name_is_shown_and_kept_sideways():
    """Ivy's AD>Gus sits on the aces for 15, shown ``AD^`` in the arrangement, in JSON and in
    ``ref history`` (read back from the record), while what was typed stays ``AD>Gus``."""
    assert ref("new-session", "--players", "Gus,Hal,Ivy").exit_code == 0
    data = ref_json("score-hand", "--melded", "Gus=AS AH AC", "--melded", "Hal=2D 3D 4D", "--melded", "Ivy=AD>Gus",
                    "--held", "Gus=", "--held", "Hal=", "--held", "Ivy=")
    assert data["totals"] == {"Gus": 45, "Hal": 9, "Ivy": 15}
    [aces] = [m for m in data["score"]["arrangement"] if m["kind"] == "group"]
    assert aces["shown"] == "AS AH AC AD^"
    assert [c["shown"] for c in aces["laid"]] == ["AS", "AH", "AD^", "AC"]
    assert aces["typed"] == ["AS", "AH", "AD>Gus", "AC"]
    history = ref("history")
    assert "AS AH AC (Gus) AD^ (Ivy)  [match, 60] said by the table (Ivy's AD>Gus)" in history.stdout
    assert "Ivy: AD^ 15 (match AS AH AC AD^) = 15" in history.stdout
    assert ref("verify").exit_code == 0


def test_a_run_of_the_named_player_still_takes_the_card_by_b5():
    """``>Gus`` where Gus has a run and a match that both take the card: B5, the run, nothing
    laid sideways (the table adds ``^`` when the card went on the match)."""
    assert ref("new-session", "--players", "Gus,Hal,Ivy").exit_code == 0
    data = ref_json("score-hand", "--melded", "Gus=AS AH AC / 2D 3D 4D", "--melded", "Ivy=AD>Gus",
                    "--held", "Gus=", "--held", "Hal=", "--held", "Ivy=")
    assert data["totals"] == {"Gus": 54, "Hal": 0, "Ivy": 1}
    [ad] = [c for m in data["score"]["arrangement"] for c in m["laid"] if c["card"] == "AD"]
    assert ad["shown"] == "AD" and ad["value"] == 1


@pytest.mark.parametrize("wild", ["W>Gus", "W^"])
def test_a_wildcard_on_a_match_of_every_suit_cuts_nothing_off(wild):
    """Gus's sevens and Ivy's claimed 7H hold every suit: Ivy's WILDCARD on them stands for a
    seven already on the table, shown sideways, and cuts no run off (it was refused, blaming a
    run of spades nobody laid)."""
    _game()
    data = ref_json("score-hand", *SEVENS_AND_HEARTS, "--claim", "Ivy=7H>Gus", "--melded", f"Ivy={wild}", *HELD)
    assert data["totals"] == {"Gus": 21, "Hal": 5, "Ivy": 12}
    [sevens] = [m for m in data["score"]["arrangement"] if m["kind"] == "group"]
    assert sevens["shown"] == "7S 7D 7C 7H^* W(=7S)^"
    assert sevens["value"] == 35


def test_two_wildcards_sent_to_a_players_matches_are_both_seated():
    """Ben's two WILDCARDs said to join his own melds (his aces and his twos): each stands for a
    card of a match and lies sideways there; the hand is scored (it was refused)."""
    assert ref("new-session", "--players", "Bill,Ben,Larry", "--wildcards", "2").exit_code == 0
    data = ref_json("score-hand", "--melded", "Ben=AH AS AD 2H 2S 2D W>Ben W>Ben",
                    "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert data["totals"]["Ben"] == sum(m["value"] for m in data["score"]["arrangement"])
    wilds = [c["shown"] for m in data["score"]["arrangement"] for c in m["laid"] if c["card"] == "W"]
    assert len(wilds) == 2 and all(w.endswith("^") for w in wilds)


def test_the_melds_shown_agrees_with_the_printed_arrangement():
    """A meld's own ``shown`` in JSON is the arrangement as printed: a stated ``W=10D`` (not
    ``W(=10D)``, which means ref chose it), a claimed ``JD*``, a sideways ``AD^``."""
    assert ref("new-session", "--players", "Ann,Bo,Cy,Di", "--wildcards", "2").exit_code == 0
    args = ["--melded", "Ann=AS AH AC / 7D 8D 9D", "--held", "Ann=KC", "--melded", "Bo=2D 3D 4D", "--out", "Bo",
            "--melded", "Cy=AD>match W=10D", "--held", "Cy=3S", "--melded", "Di=W>Bo", "--claim", "Di=JD",
            "--held", "Di=5S / 6S"]
    data = ref_json("score-hand", *args)
    assert data["totals"] == {"Ann": 59, "Bo": 9, "Cy": 22, "Di": 4}
    shown = {m["shown"] for m in data["score"]["arrangement"]}
    assert "7D 8D 9D W=10D JD*" in shown and "AS AH AC AD^" in shown
    for m in data["score"]["arrangement"]:
        assert m["shown"].split() == [c["shown"] for c in m["laid"]] or m["kind"] == "group"
    printed = ref("history").stdout
    for m in data["score"]["arrangement"]:
        assert all(card in printed for card in m["shown"].split())


@pytest.mark.parametrize("ben", ["W^", "W>Larry"])
def test_a_bare_wildcard_laid_sideways_cuts_a_run_said_to_hold_its_card(ben):
    """Ben's WILDCARD on Larry's 7S 7D 7C lies sideways as the 7H (the seven missing there), so
    Bill's stated run may not hold a WILDCARD said to be the 7H past it: refused under B6, as
    with ``W=7H^`` said, nothing written (audit stop39 #1: a WILDCARD said to be the 7H
    elsewhere is no natural 7H on the table)."""
    assert ref("new-session", "--wildcards", "2").exit_code == 0
    result = ref("score-hand", "--melded", "Larry=7S 7C 7D", "--melded", f"Ben={ben}",
                 "--melded", "Bill=4H 5H 6H W=7H /", "--held", "Bill=", "--held", "Ben=2C", "--held", "Larry=3C")
    assert result.exit_code == 4, result.stdout
    assert "refused (B6): Bill's meld 4H 5H 6H W=7H (--melded) runs past the 7H laid sideways on a match" \
        in " ".join(result.stderr.split())
    assert _hands() == 0
