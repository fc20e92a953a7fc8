"""Shell completion (issue 8, part 4): typer's mechanism, with callbacks for names."""

from __future__ import annotations

import subprocess
import sys

import pytest
from cli_helpers import ref, ref_subprocess

from rummyref.cli import completion as c


def complete(words: str, env: dict | None = None) -> list[str]:
    """What bash would offer for the last word of ``words`` (a real ``python -m rummyref``)."""
    parts = words.split(" ")
    result = ref_subprocess(env={"_REF_COMPLETE": "complete_bash", "COMP_WORDS": words,
                                 "COMP_CWORD": str(len(parts) - 1), **(env or {})})
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return [line for line in result.stdout.splitlines() if line]


@pytest.fixture
def game():
    assert ref("new-session", "--game", "weekly").exit_code == 0
    assert ref("new-session", "--game", "table", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy").exit_code == 0


def test_commands_and_subcommands():
    assert complete("ref st") == ["standings", "stats"]
    assert complete("ref dispute ") == ["claim", "designate", "pickup", "discard", "end-night"]
    assert "--png" in complete("ref chart --")


@pytest.mark.parametrize(
    "words, offered",
    [
        ("ref score-hand --game weekly --points B", ["Bill=", "Ben="]),
        ("ref score-hand --game weekly --melded ", ["Bill=", "Ben=", "Larry="]),
        ("ref score-hand --game weekly --held L", ["Larry="]),
        ("ref score-hand --game weekly --claim Ben=", []),  # the cards are the player's to type
        ("ref score-hand --game weekly --out ", ["Bill", "Ben", "Larry"]),
        ("ref score-hand --out ", ["Ann", "Bob", "Cy"]),  # no --game: the latest game
        ("ref amend 3 --game table --points C", ["Cy="]),
        ("ref new-session --game weekly --players Bill,", ["Bill,Ben", "Bill,Larry"]),
        ("ref standings --game ", ["table", "weekly"]),
        ("ref stats --game w", ["weekly"]),
        ("ref new-session --ruleset ", ["gin", "rummy-2m", "rummy-500", "simple-rummy"]),
        ("ref dispute claim --players Ann,", ["Ann,Bob", "Ann,Cy"]),
        ("ref dispute claim --judge-says L", []),  # latest game is the Simple Rummy table
        ("ref dispute claim --judge-says A", ["Ann"]),
    ],
)
def test_names_from_the_record(game, words, offered):
    assert complete(words) == offered


def test_root_db_option_is_used(tmp_path, game):
    other = tmp_path / "other.db"
    assert ref("--db", str(other), "new-session", "--game", "club", "--players", "Zed,Yan", "--ruleset",
               "simple-rummy").exit_code == 0
    assert complete(f"ref --db {other} score-hand --out ") == ["Zed", "Yan"]
    assert complete(f"ref stats --db {other} --game ") == ["club"]
    assert complete(f"ref --db {other} score-hand --dropped ") == ["Zed", "Yan"]
    assert complete(f"ref --db {other} score-hand --four-sevens Y") == ["Yan"]
    assert complete(f"ref --db {other} score-hand --hand Z") == ["Zed="]
    assert complete("ref new-session --ruleset simple-rummy --variation m") == ["major", "minor"]


def test_a_missing_or_broken_database_offers_nothing(tmp_path, db_path):
    assert complete("ref score-hand --points B") == []
    assert complete("ref stats --game ") == []
    assert not db_path.exists()  # completion never creates the record
    db_path.write_bytes(b"this is not a database" * 100)
    assert complete("ref score-hand --out ") == []
    assert complete("ref standings --game ") == []
    # without a record, disputes still complete the rule set's players
    assert complete("ref dispute claim --judge-says B") == ["Bill", "Ben"]


def test_callbacks_never_raise():
    class Broken:
        @property
        def params(self):
            raise RuntimeError("boom")

    assert c.complete_player(Broken(), "B") == []
    assert c.complete_game(Broken(), "") == []
    assert c.complete_ruleset(None, "simple") == ["simple-rummy"]
    assert c.complete_variation(None, "") == ["major", "minor", "go-out", "sequences", "three-card-draw",
                                              "four-sevens", "spread-out"]
    assert c.complete_variation(None, "major,s") == ["major,sequences", "major,spread-out"]
    assert c.complete_assignment(None, None) == []  # no database in this test: nothing to offer


def test_completion_is_light():
    """A name completion answers without SQLAlchemy (plain sqlite3)."""
    code = ("import sys; from rummyref.cli.completion import complete_player, complete_game; "
            "complete_player(None, 'B'); complete_game(None, ''); "
            "print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'plotext', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_cli_itself_loads_no_plotting_or_database_library():
    code = ("import sys; import rummyref.cli.app; "
            "print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'plotext', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_zsh_and_fish(game):
    zsh = ref_subprocess(env={"_REF_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "ref score-hand --out B"})
    assert zsh.returncode == 0 and zsh.stdout.count("\n") >= 1 and "Ann" not in zsh.stdout
    fish = ref_subprocess(env={"_REF_COMPLETE": "complete_fish", "_TYPER_COMPLETE_ARGS": "ref standings --game ",
                               "_TYPER_COMPLETE_FISH_ACTION": "get-args"})
    assert fish.returncode == 0 and "table" in fish.stdout and "weekly" in fish.stdout


@pytest.mark.parametrize("shell, marker", [("bash", "_REF_COMPLETE=complete_bash"), ("zsh", "compdef"),
                                           ("fish", "complete --command ref")])
def test_show_completion(shell, marker):
    # at a real prompt typer detects the shell (shellingham); this variable makes it take the name given
    result = ref_subprocess("--show-completion", shell, env={"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert result.returncode == 0 and marker in result.stdout


def test_install_completion_for_bash(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    result = ref_subprocess("--install-completion", "bash",
                            env={"HOME": str(home), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert result.returncode == 0, result.stderr
    script = home / ".bash_completions" / "ref.sh"
    assert "_REF_COMPLETE=complete_bash" in script.read_text()
    assert str(script) in (home / ".bashrc").read_text()


def test_a_real_bash_runs_the_installed_script(tmp_path, game):
    """The script of --show-completion, sourced in bash, completing through a `ref` on the PATH."""
    import os
    import shutil

    bash = shutil.which("bash")
    assert bash, "bash is needed for this test"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "ref"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rummyref "$@"\n')
    wrapper.chmod(0o755)
    script = ref_subprocess("--show-completion", "bash", env={"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}).stdout
    (tmp_path / "ref.sh").write_text(script)
    driver = (f'source "{tmp_path / "ref.sh"}"; COMP_WORDS=(ref score-hand --game weekly --points B); COMP_CWORD=5; '
              '_ref_completion ref B --points; printf "%s\\n" "${COMPREPLY[@]}"')
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    result = subprocess.run([bash, "--norc", "-c", driver], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Bill=", "Ben="]
