"""B6 in a refusal: a card laid past a card laid sideways is the card at fault, not the card
laid sideways (audit issue12-round6, finding 1); and B5's note of a WILDCARD the table said a
card of (finding 3). SPEC §7; rulebook B5, B6; docs/guide/the-table-as-melds.md."""

from __future__ import annotations

import pytest

from rummyref.errors import ExitCode, RuleRefusal
from rummyref.games.long.scoring import score_hand
from rummyref.games.long.table import read_hand
from rummyref.rules.ruleset import load_ruleset

RS = load_ruleset("rummy-2m")
FOUR = ("Bill", "Ben", "Larry", "Pete")


def score(melded=(), claims=(), roster=FOUR, wildcards=2):
    facts = read_hand(roster, melded, [f"{n}=" for n in roster], claims, None)
    return score_hand(facts, RS, wildcards, roster)


def refused(melded=(), claims=(), roster=FOUR, wildcards=2) -> RuleRefusal:
    with pytest.raises(RuleRefusal) as exc:
        score(melded, claims, roster, wildcards)
    assert exc.value.exit_code == ExitCode.REFUSED
    return exc.value


def cut_hint(sideways: str, what: str, card: str) -> str:
    return (f"{sideways} cuts the run off there: nothing may join the run past it, nor a WILDCARD stand for "
            f"it; check {what}, and whether the {card} went on a match")


# -- the card laid past the sideways card is named, with B6 ------------------------------------------

ACES = ["Bill=2S 2H 2C", "Larry=3D 4D 5D"]


@pytest.mark.parametrize("roster", [FOUR, ("Pete", "Ben", "Bill", "Larry"), ("Bill", "Larry", "Pete", "Ben")])
@pytest.mark.parametrize("pete", ["AD", "AD>3D", "AD>run", "AD>Larry", "AD /"])
def test_a_card_laid_past_a_sideways_card_is_named_not_the_sideways_card(pete, roster):
    """Ben's 2D^ lies on the twos, as the rules allow; Pete's AD could only reach Larry's run
    past it. The refusal names Pete's AD, whatever Pete said of it and whoever deals; it told
    the table to drop Ben's ``^`` (and the table it then records breaks B6)."""
    e = refused([*ACES, "Ben=2D^", f"Pete={pete}"], roster=roster)
    typed = pete.replace(" /", "")
    assert e.rule == "B6"
    assert e.message == f"Pete's {typed} (--melded) cannot be: it would extend a run past the 2D laid sideways"
    assert e.hint == cut_hint("Ben's 2D^ (--melded)", "where the AD went", "2D")
    # the 2D^ is legal where it stands: without the AD the table is seated as said
    s = score([*ACES, "Ben=2D^", "Pete="], roster=roster)
    assert [c.shown for m in s.arrangement for c in m.laid if c.by == "Ben"] == ["2D^"]


@pytest.mark.parametrize("ben, pete, blamed, said", [
    (["Ben=2D>match"], ["Pete=AD"], "Pete's AD (--claim)", "Ben's 2D>match (--melded)"),
    (["Ben=2D>2S"], ["Pete=AD>Larry"], "Pete's AD>Larry (--claim)", "Ben's 2D>2S (--melded)"),
])
def test_a_claimed_card_past_a_sideways_card_is_named(ben, pete, blamed, said):
    e = refused([*ACES, *ben, "Pete="], claims=pete)
    assert (e.rule, e.message) == ("B6", f"{blamed} cannot be: it would extend a run past the 2D laid sideways")
    assert e.hint.startswith(f"{said} cuts the run off there")


def test_a_card_past_a_claimed_sideways_card_is_named():
    e = refused([*ACES, "Ben=", "Pete=AD"], claims=["Ben=2D^"])
    assert (e.rule, e.message) == ("B6", "Pete's AD (--melded) cannot be: it would extend a run past the 2D laid "
                                         "sideways")
    assert e.hint.startswith("Ben's 2D^ (--claim) cuts the run off there")


@pytest.mark.parametrize("larry", ["5D 6D W=7D 8D /", "5D 6D W=7D 8D", "5D 6D W 8D", "5D 6D W 8D /"])
def test_a_meld_run_past_a_sideways_card_is_named_alike_with_or_without_a_slash(larry):
    """The same table gets the same reason whether Larry typed a '/' or not, and whether his
    WILDCARD was said to be the 7D or not (it named Ben's 7D^ without the '/')."""
    e = refused(["Bill=7S 7H 7C", "Ben=7D^", f"Larry={larry}"], roster=FOUR[:3])
    assert e.rule == "B6"
    assert e.message == (f"Larry's meld {larry.replace(' /', '')} (--melded) runs past the 7D laid sideways "
                         "on a match")
    assert e.hint == cut_hint("Ben's 7D^ (--melded)", "the meld", "7D")


@pytest.mark.parametrize("melded, roster, message, sideways", [
    # a bare WILDCARD said to join the run, both ends of the run laid sideways
    (["Bill=AS AC AD / 5S 5C 5D", "Larry=2H 3H 4H /", "Ben=AH^ 5H^", "Pete=W>run"], FOUR,
     "Pete's W>run (--melded) cannot be: it would extend a run past the AH laid sideways", "Ben's AH^"),
    # the natural card past the 8H is named; Pete's WILDCARD can go below the 5H
    (["Bill=8S 8D 8C", "Larry=5H 6H 7H", "Ben=8H^", "Pete=W 9H"], FOUR,
     "Pete's 9H (--melded) cannot be: it would extend a run past the 8H laid sideways", "Ben's 8H^"),
    (["Bill=8S 8D 8C", "Larry=5H 6H 7H", "Ben=8H^", "Pete=W 10H"], FOUR,
     "Pete's 10H (--melded) cannot be: it would extend a run past the 8H laid sideways", "Ben's 8H^"),
    (["Zed=5S 5H 5D / 6C 7C 8C", "Amy=5C 9C^", "Max=9S 9H 9D", "Bo=4C 10C W=3C"], ("Zed", "Amy", "Max", "Bo"),
     "Bo's 10C (--melded) cannot be: it would extend a run past the 9C laid sideways", "Amy's 9C^"),
    # two cards past it, named as typed
    (["Bill=6S 6H 6C", "Larry=7D 8D 9D", "Ben=6D^", "Pete=5D 4D"], FOUR,
     "Pete's 5D 4D (--melded) cannot be: they would extend a run past the 6D laid sideways", "Ben's 6D^"),
])
def test_the_cards_past_the_sideways_card_are_named(melded, roster, message, sideways):
    e = refused(melded, roster=roster)
    assert (e.rule, e.message) == ("B6", message)
    assert e.hint.startswith(f"{sideways} (--melded) cuts the run off there")


@pytest.mark.parametrize("melded, claims, message", [
    (["Amy=AS 2S 3S 4S", "Bo=5H 5D 5C", "Cy=5S>match"], ["Dee=W=6S>AS"],
     "Dee's W=6S>AS (--claim) cannot be: it would extend a run past the 5S laid sideways"),
    (["Amy=6S 6D 6C", "Bo=AH 2H 3H 4H 5H", "Cy=6H>match KC KS KH", "Dee=W=7H"], [],
     "Dee's W=7H (--melded) cannot be: it would extend a run past the 6H laid sideways"),
])
def test_a_wildcard_said_to_be_a_card_past_a_sideways_card_is_refused_under_b6(melded, claims, message):
    """A WILDCARD said to be a card no meld takes but a run past a card laid sideways: the reason
    is B6 (it said "no meld on the table has a place for a 7H", citing no rule)."""
    e = refused(melded, claims, roster=("Amy", "Bo", "Cy", "Dee"))
    assert (e.rule, e.message) == ("B6", message)


@pytest.mark.parametrize("larry, pete", [("5D 6D W 8D", "4D"), ("5D 6D W 8D 9D", "4D"), ("5D 6D W 8D", "9D")])
def test_a_players_own_cards_on_both_sides_of_the_sideways_card_are_named_as_a_meld(larry, pete):
    """Larry's own cards lie on both sides of the 7D, and alone make melds only through its
    place: his meld is named, whatever else joined it (Pete's 4D or 9D)."""
    e = refused(["Bill=7S 7H 7C", "Ben=7D^", f"Larry={larry}", f"Pete={pete}"])
    assert (e.rule, e.message) == ("B6", f"Larry's meld {larry} (--melded) runs past the 7D laid sideways on a match")


def test_a_wildcard_laid_sideways_as_a_card_is_seated_upright_as_that_card_to_find_the_card_past_it():
    """Bo's W=7C^ on the kings' table: upright it is still the 7C, and Cy's claimed 6C is the
    card past it (a bare WILDCARD upright went to the kings, and Bo's W=7C^ was named)."""
    e = refused(["Amy=8C 9C 10C JC QC /", "Bo=W=7C^ KH KD KC", "Cy=W>run", "Dee=7S 7H 7D"], ["Cy=6C"],
                roster=("Amy", "Bo", "Cy", "Dee"))
    assert (e.rule, e.message) == ("B6", "Cy's 6C (--claim) cannot be: it would extend a run past the 7C laid "
                                         "sideways")
    assert e.hint == cut_hint("Bo's W=7C^ (--melded)", "where the 6C went", "7C")


def test_where_the_card_past_it_is_not_certain_the_run_is_named_never_the_sideways_card():
    """Larry's claimed 6D W 8D lay a run only through the 7D's place; no card of it alone is
    certain to be the one: the refusal names the run's cards under B6, not Ben's 7D^."""
    e = refused(["Bill=7S 7H 7C", "Ben=7D^", "Larry="], ["Larry=6D", "Larry=W", "Larry=8D"], roster=FOUR[:3])
    assert (e.rule, e.message) == ("B6", "Larry's 6D W 8D (--claim) cannot all sit in melds with the 7D laid "
                                         "sideways: they would make a run past it")
    assert e.hint == cut_hint("Ben's 7D^ (--melded)", "where those cards went", "7D")


def test_a_sideways_card_is_named_only_where_it_lays_the_run_itself():
    """Ben's 2D^ with Larry's 3D 4D 5D and Pete's AD: Pete's AD is named. Where the card laid
    sideways is one of the three that laid the run (Ben's AD^ with his 2D 3D), no card lies past
    it: its designation is at fault, as before."""
    e = refused([*ACES, "Ben=2D^", "Pete=AD"])
    assert e.message.startswith("Pete's AD (--melded) cannot be")
    e = refused(["Bill=AS AH AC", "Ben=AD^ 2D 3D"], roster=FOUR[:3])
    assert (e.rule, e.message) == ("B6", "Ben's AD^ (--melded) cannot be: with it the cards on the table cannot "
                                         "all sit in melds; without it they can")


# -- B5's note of a WILDCARD the table said a card of ------------------------------------------------


def test_no_b5_note_for_a_stated_wildcard_only_the_run_can_take():
    """``W=AS`` with Larry's AS AH AC: the match has no place for a second AS (``W=AS>match`` is
    refused), so B5 chose nothing: no note, and the run is the table's."""
    s = score(["Larry=AS AH AC", "Bill=2S 3S 4S", "Ben=W=AS"], roster=FOUR[:3])
    assert s.notes == ()
    [run] = [m for m in s.arrangement if m.kind == "sequence"]
    assert (run.decided, run.defaulted) == ("table", ())
    assert s.points() == {"Bill": 9, "Ben": 1, "Larry": 45}


def test_a_b5_note_of_a_stated_wildcard_shows_it_as_typed():
    """Where the match has a place for it too, the note says what the table said (``W=AS``), and
    that it did not say which meld."""
    s = score(["Larry=AH AD AC", "Bill=2S 3S 4S", "Ben=W=AS"], roster=FOUR[:3])
    assert s.notes == ("Ben's W=AS fits the run and the match AH AD AC: the table did not say which, so it "
                       "counts for the run (B5); W=AS>match says otherwise",)
    [run] = [m for m in s.arrangement if m.kind == "sequence"]
    assert run.defaulted == ("Ben's W=AS",)


@pytest.mark.parametrize("melded, note", [
    (["Bill=AS AH AD", "Ben=W=AC^", "Larry=2C 3C 4C", "Pete=AC"],
     "Pete's AC fits the run and the match AS AH AD W=AC^: nothing was said, so it counts for the run (B5); "
     "AC>match says otherwise"),
    (["Bill=2S 2H 2C", "Ben=2D^", "Larry=3D 4D 5D", "Pete=W"],
     "Pete's W fits the run and the match 2S 2H 2C 2D^: nothing was said, so it counts for the run (B5); "
     "W>match says otherwise"),
])
def test_a_note_shows_the_match_as_the_arrangement_does(melded, note):
    """A stated WILDCARD as typed (``W=AC^``, not ``W(=AC)``), a card laid sideways with its
    ``^``, each player's cards together, as the arrangement prints the match."""
    s = score(melded)
    assert s.notes == (note,)
    [match] = [m for m in s.arrangement if m.kind == "group"]
    assert note.split("the match ")[1].startswith(match.cards_shown())


# -- a card sent to a player's match by name lies sideways too (audit issue12-round7 #1) --------------


@pytest.mark.parametrize("roster", [FOUR, ("Pete", "Ben", "Bill", "Larry")])
@pytest.mark.parametrize("how", ["melded", "claimed"])
def test_a_card_past_a_card_sent_to_a_match_by_name_is_named_not_that_card(how, roster):
    """``2D>Bill`` where Bill laid only the twos: the 2D lies sideways on Bill's match, as ref
    reads it once seated, and Pete's AD could only reach Larry's run past it. The refusal names
    Pete's AD (B6), as for ``2D^``; it blamed the ``>Bill`` (B5) and told the table to drop it,
    and the table then recorded the 2D on the run, the opposite of what it said."""
    ben, claims = (["Ben=2D>Bill"], []) if how == "melded" else (["Ben="], ["Ben=2D>Bill"])
    e = refused([*ACES, *ben, "Pete=AD"], claims=claims, roster=roster)
    option = "--melded" if how == "melded" else "--claim"
    assert (e.rule, e.message) == ("B6", "Pete's AD (--melded) cannot be: it would extend a run past the 2D laid "
                                         "sideways")
    assert e.hint == cut_hint(f"Ben's 2D>Bill ({option})", "where the AD went", "2D")


@pytest.mark.parametrize("dan", ["Dan=5C", "Dan=4C 5C", "Dan=4C 5C /"])
def test_cards_past_a_card_sent_to_a_match_by_name_are_named_at_any_table(dan):
    roster = ("Ann", "Bo", "Cy", "Dan")
    e = refused(["Ann=6S 6D 6H", "Bo=7C 8C 9C", "Cy=6C>Ann 10C", dan], roster=roster)
    cards = dan.split("=")[1].replace(" /", "")
    verb = "it would" if " " not in cards else "they would"
    assert (e.rule, e.message) == ("B6", f"Dan's {cards} (--melded) cannot be: {verb} extend a run past the 6C "
                                         "laid sideways")


def test_a_card_sent_by_name_to_a_player_with_a_run_that_takes_it_is_seated_there():
    """Ann laid the sixes and a club run: ``6C>Ann`` may join her run (B5: the run), and Dan's
    5C then joins it too; nothing is refused."""
    s = score(["Ann=6S 6D 6H 7C 8C 9C", "Cy=6C>Ann", "Dan=5C"], roster=("Ann", "Bo", "Cy", "Dan"))
    run = next(m for m in s.arrangement if any(c.shown == "5C" for c in m.laid))
    assert [c.shown for c in run.laid] == ["5C", "6C", "7C", "8C", "9C"]
