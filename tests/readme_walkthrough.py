"""The README's "Playing a night" walkthrough: run its commands, compare or rewrite their output.

Every ```` ```console ```` block of the section holds ``$ ref ...`` lines, each followed by
the output the command printed (stdout and stderr, as a terminal shows them) and, when it
failed, ``[exit N]``. The commands run in order, in a real subprocess, against a fresh
database, with the clock, the time zone and the width pinned (:data:`ENV`).

    python tests/readme_walkthrough.py           # check: exit 1 and a diff if the README is stale
    python tests/readme_walkthrough.py --write   # refresh the README after an intended change

``tests/test_readme_walkthrough.py`` runs the check. Only trailing whitespace is normalised.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
SECTION = "## Playing a night"
ENV = {"RUMMYREF_NOW": "2026-11-12T19:30", "TZ": "UTC", "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb",
       "PYTHONUNBUFFERED": "1", "RUMMYREF_INTERACTIVE": "0"}
BLOCK = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)


@dataclass(frozen=True)
class Step:
    command: str  #: as written after "$ "
    shown: str  #: the output the README shows (trailing whitespace normalised)


def section(text: str) -> tuple[int, int]:
    """Start and end offsets of the walkthrough section in the README text."""
    start = text.index("\n" + SECTION + "\n") + 1
    nxt = text.find("\n## ", start + len(SECTION))
    return start, (len(text) if nxt < 0 else nxt + 1)


def norm(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.rstrip().splitlines())


def steps_of(block: str) -> list[Step]:
    steps: list[Step] = []
    command, lines = None, []
    for line in block.splitlines():
        if line.startswith("$ "):
            if command is not None:
                steps.append(Step(command, norm("\n".join(lines))))
            command, lines = line[2:], []
        elif command is not None:
            lines.append(line)
    if command is not None:
        steps.append(Step(command, norm("\n".join(lines))))
    return steps


def blocks(text: str) -> list[tuple[re.Match, list[Step]]]:
    start, end = section(text)
    return [(m, steps_of(m.group(1))) for m in BLOCK.finditer(text, start, end)]


def run(command: str, db: Path) -> str:
    """One ``ref`` command in a subprocess; its output as the README shows it."""
    argv = shlex.split(command)
    if not argv or argv[0] != "ref":
        raise ValueError(f"the walkthrough runs ref commands only, not {command!r}")
    env = {**os.environ, **ENV, "RUMMYREF_DB": str(db)}
    done = subprocess.run([sys.executable, "-m", "rummyref", *argv[1:]], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=env, timeout=60)
    shown = done.stdout + (f"[exit {done.returncode}]\n" if done.returncode else "")
    return norm(shown)


def results(text: str) -> list[tuple[Step, str]]:
    """Every step with the output it prints today, run in order on a fresh database."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "ref.db"
        return [(step, run(step.command, db)) for _, steps in blocks(text) for step in steps]


def rewrite(text: str) -> str:
    """The README with every block of the section holding today's output."""
    outputs = iter(actual for _, actual in results(text))
    pieces, last = [], 0
    for m, steps in blocks(text):
        body = "\n\n".join(f"$ {s.command}\n{next(outputs)}".rstrip() for s in steps)
        pieces += [text[last:m.start(1)], body + "\n"]
        last = m.end(1)
    return "".join(pieces) + text[last:]


def main(argv: list[str]) -> int:
    text = README.read_text(encoding="utf-8")
    if "--write" in argv:
        new = rewrite(text)
        README.write_text(new, encoding="utf-8")
        print(f"{README}: walkthrough {'refreshed' if new != text else 'already up to date'}")
        return 0
    stale = [(s, a) for s, a in results(text) if s.shown != a]
    for step, actual in stale:
        print(f"$ {step.command}")
        print("\n".join(difflib.unified_diff(step.shown.splitlines(), actual.splitlines(), "README", "today", lineterm="")))
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
