"""Bad input never hurts (issue 6.3): random strings, numbers, names and card lists thrown at every
option and argument of every registered command (walked from the app itself, so commands added
later are covered too), and at the prompts (stdin, with prompting forced on or off).

Always: no traceback, no "internal error", an exit code from the documented table (0, 2-8), and
on every refusal (exit != 0) the database file is byte for byte what it was. The values
include numbers at and past every limit (±2^63, 10^20, -0, 1e3), NUL bytes, names that only
look like the roster's, and 10,000-character arguments (issue 13); a bad --db path is thrown
at every command on its own.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import typer
from cli_helpers import ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from rummyref.cli.app import app

DOCUMENTED = {0, 2, 3, 4, 5, 6, 7, 8}  # 1 is "a bug in ref": never acceptable here
EXAMPLES = 30  #: per command (x 20 commands)
SKIP = {"db", "help"}  # --db would aim the command at another file: the one under test is fixed
runner = CliRunner()


def _leaves(cmd, path=()):
    if hasattr(cmd, "commands"):
        for name, sub in cmd.commands.items():
            yield from _leaves(sub, path + (name,))
    else:
        yield path, cmd


COMMANDS = dict(_leaves(typer.main.get_command(app)))

#: numbers at and past every limit (issue 13): 64-bit edges, 10^20, -0, a float, separators
BOUNDARY = [str(-(2**63)), str(2**63 - 1), str(2**63), str(10**20), "-0", "1e3", "10,000", "10001", "-10001",
            "1" * 400, "0" * 50 + "7"]
#: names that look like the roster's but are not: Cyrillic letters, a zero-width space, a
#: right-to-left override, a NUL, a tab
LOOKALIKES = ["\u0412ill", "B\u0435n", "Bi\u200bll", "\u202eBill", "Bill\x00", "La\trry", "=Bill", "Bill=1=2"]
LONG = ["x" * 10_000, "7S " * 3_000, "Bill=" + "9" * 10_000, "\x00" * 100]
CARDS = ["7S", "10H", "AS", "KD", "W", "QC", "2H", "1S", "11D", "ZZ", "7s", "JOKER", "A♠", "10", "S7", "W W W"]
NAMES = ["Bill", "Ben", "Larry", "bill", "Bi", "Zed", "", " ", "Bill,Ben", "Bill,Ben,Larry", "Ann,Bob,Cy,Dee,Eve"]
words = st.one_of(
    st.text(max_size=12),
    st.sampled_from(CARDS),
    st.sampled_from(NAMES),
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(["-1", "0", "1", "2", "99", "1e3", "1,000", "--json", "-", "/", "=", "rummy-2m", "simple-rummy"]),
    st.sampled_from(BOUNDARY),
    st.sampled_from(LOOKALIKES),
    st.sampled_from(LONG),
)
cards = st.lists(st.sampled_from(CARDS), max_size=6).map(" ".join)
small = st.integers(-200, 200).map(str)
assignment = st.tuples(st.sampled_from(NAMES + LOOKALIKES + ["", "Nobody"]), st.sampled_from(["=", "=", "", "=="]),
                       st.one_of(small, cards, words, st.sampled_from(BOUNDARY))).map("".join)
number = st.integers(0, 6).flatmap(  # mostly small numbers, now and then one at or past a limit
    lambda k: st.sampled_from(BOUNDARY) if k == 6 else st.integers(-3, 12).map(str) if k else words)
value = st.one_of(words, cards, assignment)
filename = st.one_of(st.sampled_from(["export.json", "junk.txt", "missing.json", "copy.db", "sub/dir/x.db", ""]),
                     st.text(alphabet="abcxyz._-", min_size=1, max_size=8))


@st.composite
def arguments(draw, cmd):
    groups: list[list[str]] = []  # an option with its value stays together; the groups come in any order
    for p in cmd.params:
        if p.name in SKIP:
            continue
        kind = getattr(p.type, "name", "")
        strategy = filename if kind == "path" else number if kind in ("int", "integer") else value
        if p.param_type_name == "argument":
            if draw(st.integers(0, 9)) > 0:  # now and then a required argument is missing
                text = draw(strategy)
                groups.append(["--", text] if text.startswith("-") else [text])
            continue
        flag = p.opts[0]
        if getattr(p, "is_flag", False):
            if draw(st.booleans()):
                groups.append([flag])
            continue
        least = 1 if p.required and draw(st.integers(0, 9)) > 0 else 0
        for _ in range(draw(st.integers(least, 3 if p.multiple else 1))):
            text = draw(strategy)
            groups.append([f"{flag}={text}"] if text.startswith("-") else [flag, text])
    groups = draw(st.permutations(groups))
    dashdash = [g for g in groups if g[0] == "--"]  # an argument after "--" must come last
    return [a for g in groups if g[0] != "--" for a in g] + [a for g in dashdash[:1] for a in g]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A record with a night and two hands, a valid export and a junk file, in the cwd."""
    db = tmp_path / "ref.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    for tag in (1, 2):
        assert ref("score-hand", "--db", str(db), "--points", f"Bill={tag}", "--points", "Ben=0", "--points", "Larry=0").exit_code == 0
    assert ref("export", "--db", str(db), "-o", str(tmp_path / "export.json")).exit_code == 0
    (tmp_path / "junk.txt").write_text('{"format": "rummyref-export", "version": 1, "tables": 3}')
    monkeypatch.chdir(tmp_path)
    return db


def _throw(db: Path, path: tuple[str, ...], args: list[str], stdin: str, interactive: str) -> None:
    before = db.read_bytes()
    env = {"RUMMYREF_DB": str(db), "RUMMYREF_INTERACTIVE": interactive}
    r = runner.invoke(app, [*path, *args], input=stdin, env=env, catch_exceptions=False)
    shown = f"ref {' '.join(path)} {args!r} stdin={stdin!r} -> {r.exit_code}\n{r.stdout}{r.stderr}"
    assert r.exit_code in DOCUMENTED, shown
    assert "Traceback" not in r.stdout + r.stderr and "internal error" not in r.stderr, shown
    if r.exit_code != 0:
        assert db.read_bytes() == before, "a refusal changed the database: " + shown
        assert not [f for f in os.listdir(db.parent) if ".partial-" in f], shown
    else:  # a success may write; start the next example from the same record
        shutil.copy(db, db.with_suffix(".last"))


@pytest.mark.parametrize("path", list(COMMANDS), ids=" ".join)
def test_random_input_to_every_command(workdir, path):
    cmd = COMMANDS[path]

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(args=arguments(cmd), stdin=st.lists(value, max_size=6).map("\n".join), interactive=st.sampled_from(["0", "1"]))
    def throw(args, stdin, interactive):
        _throw(workdir, path, args, stdin, interactive)

    throw()


@pytest.mark.parametrize("path", [p for p, c in COMMANDS.items() if any(x.name == "db" for x in c.params)],
                         ids=" ".join)
@pytest.mark.parametrize("db", ["r\x00.db", "d" * 10_000, "/" + "n" * 300 + "/ref.db"], ids=["nul", "10k", "long-name"])
def test_a_bad_db_path_on_every_command_is_refused_not_a_crash(tmp_path, monkeypatch, path, db):
    """Every command given a --db no file system could take: a clear refusal (3 or 6; 2
    when the command line is incomplete anyway), never a traceback, nothing created."""
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, [*path, "--db", db], catch_exceptions=False)
    assert r.exit_code in (2, 3, 5, 6), f"{path} -> {r.exit_code}\n{r.stdout}{r.stderr}"
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_every_registered_command_is_covered():
    names = {p[0] for p in COMMANDS}
    assert {"score-hand", "new-session", "amend", "void", "export", "import", "backup", "verify"} <= names
