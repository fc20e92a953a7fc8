"""``ref dispute end-night --help``: ``--game-over`` means the game is over (A7), not that a
player has passed the target: level leaders past it play on (SPEC §8). Audit sessions45, item 4."""

from __future__ import annotations

from cli_helpers import ref


def test_game_over_says_the_game_is_over():
    r = ref("dispute", "end-night", "--help")
    assert r.exit_code == 0
    said = " ".join(r.stdout.split())
    assert ("--game-over With --hands: the game is over (A7). A player past the target is not enough: "
            "level leaders there play on.") in said
    assert "a player has passed the target" not in said


def test_the_ruling_it_stands_for_is_the_same():
    r = ref("dispute", "end-night", "--hands", "5", "--game-over")
    assert r.exit_code == 0 and r.stdout.startswith("Allowed: the game is over (A7)")
