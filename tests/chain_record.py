"""A record with everything the chain must cover (tests/store/test_tamper.py, test_seal.py):
both game kinds, amends, voids, a ruling, closed and open nights, an opening balance, a
newcomer seated in a later Simple Rummy session, and a game that is over (finished, winner)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import ref

PTS = ("--points", "Bill={}", "--points", "Ben={}", "--points", "Larry={}")


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, (args, r.stdout, r.stderr)
    return r


def points(db: Path, game: str, b: int, n: int, lar: int, *extra: str):
    args = [a.format(v) if "{}" in a else a for a, v in zip(PTS, (None, b, None, n, None, lar))]
    return ok(*extra, "--db", str(db), "--game", game, *args)


def build(db: Path) -> None:
    d = ("--db", str(db))
    ok("new-session", *d, "--game", "long", "--opening", "Bill=100")
    ok("score-hand", *d, "--game", "long", "--melded", "Bill=7S 7H 7D", "--held", "Bill=KS 2C",
       "--melded", "Ben=AH 2H 3H 4H", "--out", "Ben", "--held", "Larry=QD JD")
    points(db, "long", 45, -10, 20, "score-hand")
    points(db, "long", 5, 6, 7, "score-hand")
    points(db, "long", 40, -10, 20, "amend", "2", "--reason", "Bill counted short")
    ok("dispute", "claim", *d, "--game", "long", "--called", "Bill=Ben", "--touched", "Ben,Bill")
    ok("end-session", *d, "--game", "long")
    ok("new-session", *d, "--game", "long")
    points(db, "long", 1, 2, 3, "score-hand")
    ok("void", *d, "--game", "long", "4", "--reason", "misdeal")
    points(db, "long", 9, 8, 7, "score-hand")
    simple = (*d, "--game", "friday")
    ok("new-session", *simple, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "2")
    ok("score-hand", *simple, "--hand", "Ann=AC 3C", "--hand", "Bob=5C 7C", "--hand", "Cy=9C JC")
    ok("score-hand", *simple, "--hand", "Ann=2D 4D", "--hand", "Bob=6D 8D", "--hand", "Cy=10D QD", "--tie")
    ok("amend", *simple, "2", "--reason", "not a tie", "--hand", "Ann=2D 4D", "--hand", "Bob=6D 8D", "--hand",
       "Cy=10D QD")
    ok("score-hand", *simple, "--hand", "Ann=KH QH", "--hand", "Bob=JH 9H", "--hand", "Cy=2S 3S 4S", "--out", "Cy")
    ok("void", *simple, "1", "--reason", "misdeal")
    ok("end-session", *simple)
    ok("new-session", *simple, "--players", "Ann,Bob,Cy,Dee")
    ok("new-session", *d, "--game", "paper", "--opening", "Ben=1999990")
    points(db, "paper", 1, 20, 3, "score-hand")  # Ben passes 2,000,000: the game is over (A7)


GAMES = ("long", "friday", "paper")


def views(db: Path) -> str:
    """Everything ``standings`` and ``history`` show of every game, as one JSON text."""
    shown = {}
    for g in GAMES:
        for what in ("standings", "history"):
            r = ref(what, "--db", str(db), "--game", g, "--json")
            shown[f"{what} {g}"] = json.loads(r.stdout) if r.exit_code == 0 else f"exit {r.exit_code}"
    return json.dumps(shown, sort_keys=True)
