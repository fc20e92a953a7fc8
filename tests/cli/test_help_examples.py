"""Every example of every ``--help`` is a whole command, as it runs (audit help-json-exit #1),
and ``--help`` is wrapped to the terminal's width below click's 50 columns too (#4).

Click rewraps a help's paragraphs, examples included: at 80 columns ``ref dispute claim``'s
examples went on to a second line, so that a copied line ran a broken command, and prose was
split at a hyphen inside a command name (``ref end-`` / ``session``)."""

from __future__ import annotations

import re
import shlex

import pytest
from cli_helpers import ref

from rummyref.cli.app import COMMANDS, app, load_module_commands


def all_help() -> list[tuple[str, ...]]:
    """``--help`` of the root, of every command of the table and of every subcommand of a group."""
    helps: list[tuple[str, ...]] = [("--help",)]
    for entry in COMMANDS:
        command = load_module_commands(entry.module)[entry.name]
        helps.append((entry.name, "--help"))
        for sub in getattr(command, "commands", {}):
            helps.append((entry.name, sub, "--help"))
    return helps


HELPS = [pytest.param(args, id=" ".join(args)) for args in all_help()]


def help_at(width: int, args: tuple[str, ...], monkeypatch) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(width))
    result = ref(*args)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


def examples(lines: list[str]) -> list[str]:
    """The commands the help shows (lines starting ``ref ``), a line ending in a backslash
    joined to the next as the shell would."""
    found: list[str] = []
    joining = False
    for line in lines:
        if joining:
            found[-1] = found[-1][:-1].rstrip() + " " + line.strip()
        elif line.strip().startswith(("ref ", "printf ")):
            found.append(line.strip())
        joining = bool(found) and found[-1].endswith("\\")
    return found


def options_of(path: list[str]) -> tuple[object, set[str]]:
    """The click command at ``path`` (``["dispute", "claim"]``) and every option it takes."""
    import typer.main

    command = typer.main.get_command(app)
    opts: set[str] = set()
    for name in path:
        command = command.get_command(None, name) if hasattr(command, "get_command") else command
        assert command is not None, path
    for param in command.params:
        opts.update(param.opts, param.secondary_opts)
    return command, opts


@pytest.mark.parametrize("args", HELPS)
def test_every_example_is_one_whole_command_at_80_columns(args, monkeypatch):
    lines = help_at(80, args, monkeypatch)
    for line in lines:
        assert not re.search(r"\w-$", line), f"a word split at its hyphen: {line!r}"
        assert len(line) <= 78, line
    for line in lines:
        if line.strip().startswith("ref "):
            assert not line.endswith("\\"), f"an example continued at 80 columns: {line!r}"
    for example in examples(lines):
        words = shlex.split(example)
        if "|" in words:  # printf ... | ref count --jsonl
            words = words[words.index("|") + 1:]
        assert words[0] == "ref", example
        path = [w for w in words[1:3] if not w.startswith("-")]
        command, opts = options_of(path[:1])
        if hasattr(command, "get_command") and len(path) > 1:
            command, opts = options_of(path[:2])
        for word in words[1:]:
            if word.startswith("-"):
                assert word.split("=")[0] in opts, f"{example}: no option {word} of ref {' '.join(path)}"


def test_the_claim_examples_as_printed(monkeypatch):
    lines = help_at(80, ("dispute", "claim", "--help"), monkeypatch)
    assert examples(lines) == [
        "ref dispute claim --called Bill,Ben --touched Bill,Ben",
        'ref dispute claim --called "Bill=Ben" --touched "Ben,Bill"',
        "ref dispute claim --called Bill=Ben --touched Bill=Ben --judge-says Ben",
    ]
    text = "\n".join(help_at(80, ("dispute", "end-night", "--help"), monkeypatch))
    assert "ref end-session would act" in " ".join(text.split())
    assert "ref end-\n" not in text


@pytest.mark.parametrize("args", [("--help",), ("score-hand", "--help"), ("dispute", "claim", "--help"),
                                  ("count", "--help")], ids=str)
def test_help_honours_a_narrow_terminal(args, monkeypatch):
    """At 40 columns help is 38 wide (click alone stopped at 50); an example too long for
    the line goes on after a backslash, the same command to the shell."""
    narrow = help_at(40, args, monkeypatch)
    assert max(len(line) for line in narrow) <= 40, "\n".join(narrow)
    assert examples(narrow) == examples(help_at(80, args, monkeypatch))
