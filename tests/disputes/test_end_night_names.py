"""end-night names who still deals as every list of names in prose is joined (stop 46): "Ben and
Larry", "Ann, Ben and Cy"; a precedent kept before, with the names joined by commas, reads the
same, so the same ruling is not flagged as ruled differently."""

from __future__ import annotations

from cli_helpers import ref

from rummyref.rulebook.precedents import Precedent


def test_the_refusal_joins_the_names_in_prose():
    r = ref("dispute", "end-night", "--hands", "1", "--players", "Dee,Ann,Ben,Cy")
    assert r.stdout.splitlines()[0] == "Refused (A4): the round is not over; still to deal: Ann, Ben and Cy."
    r = ref("dispute", "end-night", "--hands", "2", "--players", "Dee,Ann,Ben,Cy")
    assert r.stdout.splitlines()[0] == "Refused (A4): the round is not over; still to deal: Ben and Cy."
    r = ref("dispute", "end-night", "--hands", "3", "--players", "Dee,Ann,Ben,Cy")
    assert r.stdout.splitlines()[0] == "Refused (A4): the round is not over; still to deal: Cy."


def _kept(verdict: str, kind: str = "end-night") -> Precedent:
    return Precedent("rummy-2m", 4, "2026-11-27T20:30:00", 1, 2, 2, {
        "kind": kind, "outcome": "refused", "verdict": verdict, "rules": ["A3", "A4"], "facts": {}})


def test_a_precedent_kept_before_reads_in_todays_words():
    old = _kept("Refused (A4): the round is not over; still to deal: Ben, Larry.")
    assert old.verdict == "Refused (A4): the round is not over; still to deal: Ben and Larry."
    assert old.to_dict()["ruling"]["verdict"].endswith("Ben, Larry.")  # what was stored stays as it was
    owed = _kept("Refused: the round is not over; still to deal: Bob (1 hand), Cy (2 hands), Dee.")
    assert owed.verdict == "Refused: the round is not over; still to deal: Bob (1 hand), Cy (2 hands) and Dee."
    for same in ("Refused (A4): the round is not over; still to deal: Ben and Larry.",
                 "Refused (A4): the round is not over; still to deal: Ben."):
        assert _kept(same).verdict == same
    other = _kept("Refused (A4): the round is not over; still to deal: Ben, Larry.", kind="claim")
    assert other.verdict.endswith("Ben, Larry.")  # only end-night's refusal is read again
