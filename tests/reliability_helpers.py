"""Shared pieces of the reliability tests: the real CLI in a subprocess (with the test-only hooks
of ``tests/reliability_hooks/sitecustomize.py`` on its path) and the checks of a record file."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

from cli_helpers import ref, ref_json

HOOKS = Path(__file__).parent / "reliability_hooks"
ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("Bill", "Ben", "Larry")


def env(db: str | Path, **extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(HOOKS), str(ROOT), e.get("PYTHONPATH", "")])
    e["RUMMYREF_DB"] = str(db)
    e.update(extra)
    return e


def start(db: str | Path, *args: str, **extra: str) -> subprocess.Popen:
    """``python -m rummyref ARGS`` as a real process (stderr piped, text)."""
    return subprocess.Popen(
        [sys.executable, "-m", "rummyref", *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, env=env(db, **extra),
    )


def hand_args(tag: int) -> list[str]:
    """A hand whose points say which attempt wrote it."""
    return ["--points", f"Bill={tag}", "--points", f"Ben={-tag}", "--points", f"Larry={2 * tag}"]


def check_record(db: Path) -> list[int]:
    """Everything the issue asks of a record after a crash or a race; returns the tags of the
    recorded hands (Bill's points), in hand order."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        hands = con.execute(
            "SELECT e.id, e.hand, e.hand_in_session, e.facts FROM entry e WHERE e.kind = 'hand' ORDER BY e.seq"
        ).fetchall()
        numbers = [h for _, h, _, _ in hands]
        assert numbers == list(range(1, len(hands) + 1)), "hand numbers used twice or skipped"
        assert [his for _, _, his, _ in hands] == numbers  # one night: hand in night == hand
        tags = []
        for eid, _, _, facts in hands:  # wholly there: the entry, its facts and its three results
            res = dict(con.execute(
                "SELECT p.name, r.points FROM result r JOIN player p ON p.id = r.player_id WHERE r.entry_id = ?", (eid,)
            ).fetchall())
            assert set(res) == set(PLAYERS)
            tag = res["Bill"]
            assert res == {"Bill": tag, "Ben": -tag, "Larry": 2 * tag}
            assert '"points"' in facts
            tags.append(tag)
        sums = dict(con.execute(
            "SELECT p.name, p.opening + COALESCE(SUM(r.points), 0) FROM player p "
            "LEFT JOIN result r ON r.player_id = p.id AND r.current = 1 GROUP BY p.id"
        ).fetchall())
    finally:
        con.close()
    st = ref_json("standings", "--db", str(db))
    assert {p["name"]: p["total"] for p in st["players"]} == sums  # totals == sum of recorded hands
    assert st["hands"] == len(tags)
    v = ref("verify", "--db", str(db))
    assert v.exit_code == 0, v.stdout + v.stderr
    assert not [t for t, n in Counter(tags).items() if n > 1], "a hand recorded twice"
    return tags
