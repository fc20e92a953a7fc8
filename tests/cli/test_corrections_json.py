"""``ref amend --json`` and ``ref void --json`` give the correction's reason in every game
(B7: a correction keeps why it was made), as ``ref history`` keeps it."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

#: per game kind: the session's options, a hand's options, the same hand amended
GAMES = {
    "rummy-2m": (["--players", "Ann,Bob,Cy"],
                 ["--points", "Ann=10", "--points", "Bob=5", "--points", "Cy=0"],
                 ["--points", "Ann=15", "--points", "Bob=5", "--points", "Cy=0"]),
    "gin": (["--ruleset", "gin", "--players", "Ann,Bob"],
            ["--dead"],
            ["--gin", "Ann", "--hand", "Ann=AS 2S 3S 4H 5H 6H 7C 7D 7H 7S",
             "--hand", "Bob=KS KH QC JD 9S 8C 6D 5C 4D 2C"]),
    "simple-rummy": (["--ruleset", "simple-rummy", "--players", "Ann,Bob", "--cards", "7"],
                     ["--out", "Ann", "--hand", "Ann=2C 3C 4C 5H 6H 7H 8H KD",
                      "--hand", "Bob=KS QS JD 10H 8C 6D 2S"],
                     ["--out", "Ann", "--hand", "Ann=2C 3C 4C 5H 6H 7H 8H QD",
                      "--hand", "Bob=KS QS JD 10H 8C 6D 2S"]),
}


@pytest.fixture(autouse=True)
def record(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "0")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_correction_gives_its_reason_in_its_json(game):
    opening, hand, amended = GAMES[game]
    assert ref("new-session", *opening).exit_code == 0
    recorded = ref("score-hand", *hand)
    assert recorded.exit_code == 0, recorded.stderr
    assert "correction_reason" not in ref_json("score-hand", *hand)  # a hand corrects nothing
    amend = ref_json("amend", "1", "--reason", "Bob's 5 was a 15", *amended)
    assert (amend["kind"], amend["correction_reason"]) == ("amend", "Bob's 5 was a 15")
    void = ref_json("void", "2", "--reason", "dealt twice")
    assert (void["kind"], void["correction_reason"]) == ("void", "dealt twice")
    kept = {e["seq"]: e["reason"] for e in ref_json("history")["entries"]}
    assert kept[amend["entry"]] == "Bob's 5 was a 15"
    assert kept[void["entry"]] == "dealt twice"
