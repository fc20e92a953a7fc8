"""The night's Rummy! claims prompt reads a WILDCARD after a comma in every spelling the card
parser takes (SPEC §2: W, WILD, WILDCARD, JOKER, JK, *), as ``--claim`` does; it was refused as
an unknown player citing A1 ("GEDDOWWWT!! joker is not on the roster": audit issue12-round4,
finding 3). The night is driven by piped stdin, the answers in deal order."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json, ref_subprocess

from rummyref import names


def night(db: str, claims: str, *more: str) -> tuple[str, str]:
    """A new night (2 WILDCARDs): Bill melds 2D 3D 4D, nobody else lays or holds a card, nobody
    went out, then ``claims`` at the claims prompt (``more``: answers after a refusal), recorded."""
    typed = ["cards", "2D 3D 4D", "", "", "", "", "", "", claims, *more, "", "quit"]
    r = ref_subprocess("--db", db, "night", "--wildcards", "2", input="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stderr
    return " ".join(r.stdout.split()), " ".join(r.stderr.split())


@pytest.mark.parametrize("wild", ["W", "w", "joker", "JOKER", "JK", "jk", "*", "wild", "wildcard", "WildCard"])
def test_every_spelling_of_a_wildcard_after_a_comma_is_the_claimer_s_card(tmp_path, wild):
    db = str(tmp_path / "ref.db")
    out, err = night(db, f"Larry=5D, {wild}=6D")
    assert "GEDDOWWWT" not in err and "not on the roster" not in err
    assert "2D 3D 4D (Bill) 5D* W=6D* (Larry) [run, 20] said by the table (Larry's W=6D)" in out
    assert "Larry: 5D* W=6D* 11 (run 2D 3D 4D 5D* W=6D*) = 11" in out
    assert "Recorded: hand 1 of rummy-2m" in out
    entry = ref_json("history", "--db", db)["entries"][-1]
    assert entry["facts"]["claims"] == [["Larry", "5D"], ["Larry", "W=6D"]]
    assert entry["results"] == {"Bill": 9, "Ben": 0, "Larry": 11}


def test_a_wildcard_standing_for_an_ace_after_a_comma_counts_as_the_ace_low(tmp_path):
    db = str(tmp_path / "ref.db")
    out, _ = night(db, "Ben=5D, joker=AD")  # the W is the AD: A-2-3-4-5, the ace low is 1
    assert "Ben: W=AD* 5D* 6 (run W=AD* 2D 3D 4D 5D*) = 6" in out
    assert ref_json("history", "--db", db)["entries"][-1]["results"] == {"Bill": 9, "Ben": 6, "Larry": 0}


def test_a_wildcard_before_any_claimer_says_whose_is_missing_not_a1(tmp_path):
    """``joker=6D, Larry=5D``: the first part is a card, not a player; asked again, the answer
    typed right is recorded."""
    db = str(tmp_path / "ref.db")
    out, err = night(db, "joker=6D, Larry=5D", "Larry=5D, joker=6D")
    assert ("claim 'joker=6D' is a WILDCARD and the card it stands for: it does not say whose it is "
            "(write the claimer's name first, e.g. Bill=joker=6D)") in err
    assert "GEDDOWWWT" not in err
    assert ref_json("history", "--db", db)["entries"][-1]["results"] == {"Bill": 9, "Ben": 0, "Larry": 11}


def test_a_player_an_older_ref_let_be_named_joker_still_claims_by_name(monkeypatch):
    """New names that read as a WILDCARD are refused (names-and-values.md); a roster an older
    ref kept with one goes on, and at the claims prompt ``Joker=`` is that player, whatever the
    case; the other spellings are still a WILDCARD, going on with the claimer before it."""
    with monkeypatch.context() as m:  # an older ref: no check of what a name reads as
        m.setattr(names, "reads_as", lambda name: None)
        assert ref("new-session", "--players", "Bill,Joker,Larry", "--wildcards", "2").exit_code == 0
    typed = ["cards", "2D 3D 4D", "", "", "", "", "", "", "Larry=5D, joker=6D, *=7D", "", "quit"]
    r = ref("night", input="\n".join(typed) + "\n")
    assert r.exit_code == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "2D 3D 4D (Bill) 5D* (Larry) 6D* W=7D* (Joker) [run, 27]" in out
    assert "Joker: 6D* W=7D* 13 (run 2D 3D 4D 5D* 6D* W=7D*) = 13" in out
    assert ref_json("history")["entries"][-1]["results"] == {"Bill": 9, "Joker": 13, "Larry": 5}


def test_a_natural_card_said_to_be_another_after_a_comma_is_refused_for_what_it_is(tmp_path):
    """``Larry=5D, 7H=7S``: the 7H is a card of Larry's claim that says it is another card, which
    only a WILDCARD may (as ``--claim "Larry=7H=7S"`` says), not a player called 7H (A1)."""
    db = str(tmp_path / "ref.db")
    out, err = night(db, "Larry=5D, 7H=7S", "Larry=5D, W=6D")
    assert "only a WILDCARD stands for another card" in err
    assert "GEDDOWWWT" not in err and "not on the roster" not in err
    assert ref_json("history", "--db", db)["entries"][-1]["results"] == {"Bill": 9, "Ben": 0, "Larry": 11}


def test_a_natural_card_before_any_claimer_says_whose_is_missing(tmp_path):
    db = str(tmp_path / "ref.db")
    out, err = night(db, "6D=6D, Larry=5D", "Larry=5D, W=6D")
    assert ("claim '6D=6D' is a card (6D), not a player's name: it does not say whose it is "
            "(write the claimer's name first, e.g. Bill=6D=6D)") in err
    assert "GEDDOWWWT" not in err
    assert ref_json("history", "--db", db)["entries"][-1]["results"] == {"Bill": 9, "Ben": 0, "Larry": 11}


def test_a_claim_with_no_name_gets_the_prompt_s_advice_not_the_option_s(tmp_path):
    """At the prompt several claimers share one answer (a comma between them): the advice is
    not ``--claim``'s "one player per use" (audit issue12-night5, finding 2)."""
    db = str(tmp_path / "ref.db")
    out, err = night(db, "5D", "Larry=5D")
    assert ("claim '5D' has no '=': it does not say whose it is (write the claimer's name first, "
            "e.g. Bill=5D, a comma between claimers)") in err
    assert "one player per use" not in err
    assert ref_json("history", "--db", db)["entries"][-1]["results"] == {"Bill": 9, "Ben": 0, "Larry": 5}


def test_a_designation_at_the_held_prompt_is_told_where_it_goes_at_the_night(tmp_path):
    """``W=7C`` left in hand is refused; the advice names the night's prompts, not options the
    night's user never types; asked again, the hand is recorded."""
    db = str(tmp_path / "ref.db")
    typed = ["cards", "2D 3D 4D", "W=7C", "W", "", "", "", "", "", "", "", "quit"]
    r = ref_subprocess("--db", db, "night", "--wildcards", "2", input="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stderr
    err = " ".join(r.stderr.split())
    assert ("Bill's W=7C (the held prompt): a card left in hand joins no meld and stands for nothing "
            "(give the card alone; say where a card went at the melded prompt or in the Rummy! claims)") in err
    assert "--melded" not in err
    assert ref_json("history", "--db", db)["entries"][-1]["results"] == {"Bill": 9 - 15, "Ben": 0, "Larry": 0}
