"""``ref night``'s help speaks of the game being played: how its hands are told, when its
session may end (audit: a Gin or Simple Rummy shell listed Rummy 2,000,000's points and A4)."""

from __future__ import annotations

import pytest
from cli_helpers import ref_subprocess


def shell(tmp_path, *opening: str, typed: str = "help\n\nquit\n") -> str:
    r = ref_subprocess("--db", str(tmp_path / "ref.db"), "night", *opening, input=typed,
                       env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    return r.stdout + r.stderr


@pytest.mark.parametrize(
    "opening, word, tellings, ending",
    [
        (("--players", "Bill,Ben,Larry"), "hand", ("cards (or c)", "points (or p)"),
         "end the night (only after full rounds, A4, or when the game is over, A7)"),
        (("--ruleset", "gin", "--players", "Ann,Bob"), "hand", ("cards (or c)",), "end the session (after any hand)"),
        (("--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy"), "game", ("cards (or c)",),
         "end the session (after any game)"),
    ],
)
def test_the_help_lists_what_this_kind_of_game_takes(tmp_path, opening, word, tellings, ending):
    said = shell(tmp_path, *opening)
    flat = " ".join(said.split())
    assert f"Between {word}s:" in said
    for telling in tellings:
        assert telling in said
    if "points (or p)" not in tellings:
        assert "points (or p)" not in said and "A4" not in said
        assert f"(type cards to record the next {word}; help for the commands)" in flat
    else:
        assert "(type cards or points to record the next hand; help for the commands)" in flat
    assert ending in flat
    # piped, the prompt and the next output share a line: at a terminal, the Enter typed ends it
    assert max(len(line.removeprefix("night> ")) for line in said.splitlines()) <= 80
