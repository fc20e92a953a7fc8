"""Start-up: the lazy command table, and what each light command imports.

The root group knows every command from ``COMMANDS`` (name, module, one-line help)
and imports a command's module only when that command runs. The table must agree
with what the modules really register, or ``ref --help`` would drift from the
commands. Each light command runs in a fresh interpreter; the probe reports the
modules it loaded. (How fast they start is measured by bench/bench_startup.py,
never here.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import typer
from cli_helpers import ref
from typer.testing import CliRunner

from rummyref import __version__
from rummyref.cli.app import COMMANDS, RefGroup, load_module_commands, root

COMMAND_MODULES = {f"rummyref.cli.{entry.module}" for entry in COMMANDS}
#: what every command may load of the CLI besides its own module
SHARED = {"rummyref.cli", "rummyref.cli.app", "rummyref.cli.common", "rummyref.cli.completion"}

_PROBE = (
    "import json, sys\n"
    "from rummyref.cli import main\n"
    "sys.argv = ['ref'] + sys.argv[1:]\n"
    "try:\n    main()\n"
    "except SystemExit as e:\n    code = e.code or 0\n"
    "else:\n    code = 0\n"
    "sys.stderr.write('\\nPROBE=' + json.dumps({'code': code, 'modules': sorted(sys.modules)}) + '\\n')\n"
)


def probe(*args: str, env: dict[str, str] | None = None) -> tuple[str, set[str]]:
    """Run ``ref ARGS`` through the console-script entry point in a fresh interpreter:
    its stdout and the modules it had loaded when it finished."""
    full_env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **(env or {}))
    if "://" in full_env.get("RUMMYREF_DB", ""):
        # The budget is the SQLite record's (read with the standard library); a record on a
        # server (the PostgreSQL pass) needs its driver, so the probe looks at a file instead.
        full_env["RUMMYREF_DB"] = os.path.join(tempfile.mkdtemp(prefix="probe-"), "ref.db")
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True,
                          env=full_env, timeout=60)
    report = json.loads(proc.stderr.rpartition("PROBE=")[2])
    assert report["code"] == 0, proc.stderr[-2000:]
    return proc.stdout, set(report["modules"])


#: the store's modules a light command may load: where the record is (``--db`` read once, for
#: every command, by ``rummyref.store.location``, which imports no SQLAlchemy)
WHERE = {"rummyref.store", "rummyref.store.location"}


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in ("sqlmodel", "sqlalchemy")
                  or (m.startswith("rummyref.store") and m not in WHERE))


def cli_modules(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith("rummyref.cli")}


# -- the table agrees with the modules ---------------------------------------------------


def test_table_names_are_unique():
    names = [entry.name for entry in COMMANDS]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("module", sorted({entry.module for entry in COMMANDS}))
def test_table_matches_what_the_module_registers(module):
    real = load_module_commands(module)
    listed = {entry.name: entry.summary for entry in COMMANDS if entry.module == module}
    assert sorted(real) == sorted(listed), f"rummyref/cli/{module}.py registers {sorted(real)}"
    for name, summary in listed.items():
        shown = real[name].get_short_help_str(limit=10_000)  # the help up to its first sentence
        assert summary == shown, f"COMMANDS says of {name!r}: {summary!r}; the command says {shown!r}"
        assert not real[name].hidden


def _eager_app() -> typer.Typer:
    """The root app as it was built before: every module registered up front."""
    app = typer.Typer(cls=RefGroup, name="ref", no_args_is_help=True, rich_markup_mode=None)
    app.callback()(root)
    for module in dict.fromkeys(entry.module for entry in COMMANDS):
        __import__(f"rummyref.cli.{module}", fromlist=["register"]).register(app)
    return app


@pytest.mark.parametrize("columns", ["80", "60"])
def test_help_lists_the_commands_as_the_eager_app_did(columns):
    eager = CliRunner().invoke(_eager_app(), ["--help"], env={"COLUMNS": columns})
    lazy = CliRunner().invoke(__import__("rummyref.cli.app", fromlist=["app"]).app, ["--help"],
                              env={"COLUMNS": columns})
    assert eager.exit_code == lazy.exit_code == 0
    section = lazy.stdout.partition("Commands:")[2]
    assert section == eager.stdout.partition("Commands:")[2]
    listed = [line.split()[0] for line in section.splitlines() if line.startswith("  ") and line[2] != " "]
    assert listed == [entry.name for entry in COMMANDS]


def test_a_mistyped_command_still_gets_a_suggestion():
    result = ref("stnadings")
    assert result.exit_code == 2
    assert "Did you mean 'standings'?" in result.stderr


# -- what the light commands import ------------------------------------------------------


@pytest.mark.parametrize(
    "args, own",
    [
        (["--help"], None),
        (["count", "AS", "2S", "3S"], "count"),
        (["count", "7S 7H W W 2C 3C 4C KD", "--ruleset", "simple-rummy", "--json"], "count"),
        (["ruling", "pizza"], "ruling"),
        (["ruling", "B7", "--ruleset", "rummy-2m", "--json"], "ruling"),
        (["first-dealer", "--help"], "first_dealer"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else "",
)
def test_a_light_command_imports_only_its_own_module(args, own, tmp_path):
    _, modules = probe(*args, env={"RUMMYREF_CACHE": str(tmp_path)})
    assert heavy(modules) == []
    expected = SHARED | ({f"rummyref.cli.{own}"} if own else set())
    assert cli_modules(modules) <= expected, sorted(cli_modules(modules) - expected)
    if own:
        assert f"rummyref.cli.{own}" in modules


def test_version_answers_before_typer_is_imported():
    out, modules = probe("--version")
    assert out.strip() == f"ref (rummyref) {__version__}"
    assert "typer" not in modules and "rich" not in modules
    assert cli_modules(modules) == {"rummyref.cli"}


def test_version_through_typer_prints_the_same_line(tmp_path):
    """``--version`` among other options is typer's eager option: same answer."""
    out, modules = probe("--db", str(tmp_path / "x.db"), "--version")
    assert out.strip() == f"ref (rummyref) {__version__}"
    assert "typer" in modules and heavy(modules) == []
    assert not (tmp_path / "x.db").exists()


def test_ruling_with_a_cached_index_parses_no_toml(tmp_path):
    env = {"RUMMYREF_CACHE": str(tmp_path)}
    first, cold = probe("ruling", "pizza", env=env)
    assert "tomllib" in cold  # built from the rulebooks, then kept
    assert len(list(Path(tmp_path).glob("ruling-index-*.pickle"))) == 1
    second, warm = probe("ruling", "pizza", env=env)
    assert second == first
    assert "tomllib" not in warm and "hashlib" not in warm


def test_completing_command_names_loads_no_command(tmp_path):
    out, modules = probe(env={"_REF_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "ref s"})
    assert cli_modules(modules) & COMMAND_MODULES == set()
    assert "standings" in out and "score-hand" in out and "stats" in out
    assert '"stats":"Statistics\\\\: averages, best and worst..."' in out  # with its short help
