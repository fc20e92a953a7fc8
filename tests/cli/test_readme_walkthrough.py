"""The README's "Playing a night" walkthrough is real: every command of the section runs, in
order, against a fresh database, and prints exactly what the README shows (trailing
whitespace aside). After an intended change: ``python tests/readme_walkthrough.py --write``."""

from __future__ import annotations

import difflib

from readme_walkthrough import README, blocks, results


def test_the_walkthrough_covers_a_night():
    text = README.read_text(encoding="utf-8")
    commands = [s.command for _, steps in blocks(text) for s in steps]
    assert commands[0].startswith("ref new-session")
    assert commands[-1].startswith("ref standings")
    kinds = [c.split()[1] for c in commands]
    assert kinds.count("score-hand") >= 3 and "ruling" in kinds and kinds.count("end-session") == 2
    assert any("--points" in c for c in commands) and any("--melded" in c for c in commands)
    early = kinds.index("end-session")
    assert 0 < early < len(kinds) - 1 and "score-hand" in kinds[early:]


def test_every_command_prints_what_the_readme_shows():
    text = README.read_text(encoding="utf-8")
    stale = []
    for step, actual in results(text):
        if step.shown != actual:
            diff = difflib.unified_diff(step.shown.splitlines(), actual.splitlines(), "README", "today", lineterm="")
            stale.append(f"$ {step.command}\n" + "\n".join(diff))
    assert not stale, "README walkthrough is stale (python tests/readme_walkthrough.py --write):\n" + "\n\n".join(stale)
