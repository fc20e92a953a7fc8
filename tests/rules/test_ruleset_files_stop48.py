"""A house's rule set file coming in (stop 48's audit, rummy500-rulefiles 2, 3, 5, 6, 9, 10):
a ``[house]`` table an open roster does not read, a variation named twice, players two
``[[deal]]`` lines cover, a rulebook of another kind of game, ``[words]`` that would read as
another kind, a card or hide a character, a path that is no file or a huge one, and the
smaller messages. Each is refused at the CLI (exit 3) naming the file and the key, and the
record stays byte for byte as it was."""

from __future__ import annotations

import os
import re
import tomllib

import pytest
from cli_helpers import ref

from rummyref.rules.ruleset import builtin_path, parse_ruleset

B500 = builtin_path("rummy-500").read_text(encoding="utf-8")
HOUSE = '\n[house]\nsession_word = "Rum Night"\nweekly = true\n'


def said(r) -> str:
    return " ".join(r.stderr.split())


@pytest.fixture
def base(record):
    """A record holding one game, so that a refusal's record can be compared byte for byte."""
    assert ref("new-session", "--game", "base", "--players", "Ann,Bob").exit_code == 0
    return record


def refused(record, *args: str):
    before = record.snapshot()
    r = ref(*args)
    assert (r.exit_code, r.stdout) == (3, ""), r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert record.snapshot() == before, "a refusal wrote to the record"
    return r


def written(tmp_path, text: str, name: str = "house.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def new_game(path: str) -> tuple[str, ...]:
    return ("new-session", "--ruleset", path, "--game", "house", "--players", "Ann,Bob")


def edit(text: str, old: str, new: str) -> str:
    changed = re.sub(old, new, text, count=1, flags=re.M)
    assert changed != text, f"the edit {old!r} changed nothing"
    return changed


SR = builtin_path("simple-rummy").read_text(encoding="utf-8")
R2M = builtin_path("rummy-2m").read_text(encoding="utf-8")
GIN = builtin_path("gin").read_text(encoding="utf-8")

#: (the file's text, what the refusal says after the file's path)
REFUSED = [
    # 2: [house] is checked whatever the roster, and an open roster's is refused as unread
    pytest.param(B500 + HOUSE, "house: only a rule set with players.closed_roster = true reads this table",
                 id="house-open-roster"),
    pytest.param(B500 + '\n[house]\nsession_wrod = "Rum Night"\nweekly = "often"\n',
                 'house.weekly: expected true or false, got "often"', id="house-open-bad-type"),
    pytest.param(B500 + "\n[house]\nrules = [1, 2]\n", "house.rules: expected a list of texts, got [1, 2]",
                 id="house-open-bad-list"),
    # 3: a number of players two [[deal]] lines cover; a variation named twice
    pytest.param(edit(edit(edit(B500, r"^players = \[3, 8\]", "players = [2, 8]"), r"^cards = \[13, 13\]",
                           "cards = [12, 12]"), r"^default = 13", "default = 12"),
                 "deal[1].players: [2, 8] covers 2 players, as deal[0].players [2, 2] does", id="deal-overlap"),
    pytest.param(SR + '\n[[variations]]\nname = "major"\nrule = "V9"\ntitle = "Dup"\ngoing_out = "exactly-one"\n',
                 'variations[7].name: "major" is also variations[0].name', id="variation-twice"),
    # 5: a rulebook of a game scored another way
    pytest.param(edit(edit(B500, r'^rulebook = "rummy-500"', 'rulebook = "gin"'), r'^name = "rummy-500"',
                      'name = "rb"'),
                 "rulebook: \"gin\" is the rulebook of Gin Rummy, a gin game, and this file's scoring.method is "
                 "melded-minus-held", id="rulebook-gin-in-500"),
    pytest.param(edit(B500, r'^rulebook = "rummy-500"', 'rulebook = "simple-rummy"'),
                 'rulebook: "simple-rummy" is the rulebook of Simple Rummy, a low-count game', id="rulebook-sr-in-500"),
    pytest.param(edit(GIN, r'^rulebook = "gin"', 'rulebook = "rummy-500"'),
                 'rulebook: "rummy-500" is the rulebook of 500 Rum, a melded-minus-held game', id="rulebook-500-in-gin"),
    # 6: [words]
    pytest.param(edit(B500, r'^group = "match"', 'group = "run"'),
                 'words.group: "run" is also words.sequence', id="words-group-is-sequence"),
    pytest.param(edit(edit(R2M, r'^group = "match"', 'group = "run"'), r'^sequence = "run"', 'sequence = "match"'),
                 "words.group: \"run\" reads as ref's own word for a sequence", id="words-swapped"),
    pytest.param(edit(B500, r'^sequence = "run"', 'sequence = "set"'),
                 "words.sequence: \"set\" reads as ref's own word for a group", id="words-sequence-set"),
    pytest.param(edit(B500, r'^group = "match"', 'group = "7S"'), 'words.group: "7S" reads as the card 7S',
                 id="words-a-card"),
    pytest.param(edit(B500, r'^sequence = "run"', 'sequence = "joker"'),
                 'words.sequence: "joker" reads as a WILDCARD', id="words-a-wildcard"),
    pytest.param(edit(B500, r'^group = "match"', r'group = "ma\\u200btch"'),
                 r'words.group: "ma\u200Btch" contains U+200B ZERO WIDTH SPACE, an invisible character',
                 id="words-invisible"),
    pytest.param(edit(B500, r'^sequence = "run"', r'sequence = "run\\ue000"'),
                 r'words.sequence: "run\uE000" contains U+E000 PRIVATE USE CHARACTER, a private-use character',
                 id="words-private-use"),
    # 10: the smaller messages
    pytest.param(edit(B500, r"^format = 1$", "format = 1.0"),
                 "format: expected 1 (the only rule set format this ref reads), got 1.0", id="format-float"),
    pytest.param(edit(B500, r"^format = 1$", "format = true"),
                 "format: expected 1 (the only rule set format this ref reads), got true", id="format-bool"),
    pytest.param(edit(B500, r"^min = 0$", "min = 3"), "wildcards.min: expected an integer from 0 to wildcards.max (2), "
                 "got 3", id="wildcards-min-over-max"),
    pytest.param(edit(B500, r"^target = 500$", "target = true"),
                 "scoring.target: expected an integer from 1 to 1000000000, got true", id="toml-true"),
    pytest.param(edit(B500, r'^method = "melded-minus-held"', 'method = "500"'),
                 'scoring.method: expected one of melded-minus-held, low-count, gin, got "500"', id="toml-text"),
    pytest.param("", "the file is empty (or holds only comments)", id="empty"),
    pytest.param("# nothing yet\n\n", "the file is empty (or holds only comments)", id="comments-only"),
]


@pytest.mark.parametrize("text, words", REFUSED)
def test_a_house_file_is_refused_naming_the_file_and_the_key(base, tmp_path, text, words):
    path = written(tmp_path, text)
    r = refused(base, *new_game(path))
    assert said(r).startswith(f"error: {path}: {words}"), said(r)


@pytest.mark.parametrize("text", [
    pytest.param(edit(R2M, r'^group = "match"', 'group = "set"'), id="group-set"),  # the same kind: fine
    pytest.param(edit(B500, r'^rulebook = "rummy-500"', 'rulebook = "rummy-2m"'), id="rulebook-same-method"),
    pytest.param(edit(B500, r'^sequence = "run"', 'sequence = "straight"'), id="words-own"),
    pytest.param(edit(R2M, r'^name = "rummy-2m"', 'name = "night"'), id="closed-roster-house"),
])
def test_what_stays_allowed(record, tmp_path, text):
    r = ref(*new_game(written(tmp_path, text)))
    assert r.exit_code == 0, r.stderr


def test_an_open_roster_house_table_a_record_keeps_is_still_read():
    """A game created before stop 48 may keep an open roster's [house] table: read, ignored."""
    raw = tomllib.loads(B500 + '\n[house]\nweekly = "often"\n')
    assert parse_ruleset(raw, "kept").house.weekly is False


# -- 9: what is read at all ------------------------------------------------------------------


def bounded(record, *args: str):
    """``ref ARGS`` in a subprocess that may neither hang nor grow without end (what reading
    ``/dev/zero`` or a FIFO whole did): refused, exit 3, the record as it was."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    before = record.snapshot()
    r = subprocess.run([sys.executable, "-m", "rummyref", *args], capture_output=True, text=True, timeout=30,
                       preexec_fn=limit)
    assert (r.returncode, r.stdout) == (3, ""), r.stdout + r.stderr
    assert record.snapshot() == before, "a refusal wrote to the record"
    return " ".join(r.stderr.split())


def test_a_device_is_refused_before_it_is_read(base):
    assert bounded(base, *new_game("/dev/zero")).startswith("error: /dev/zero: a device, not a rule set file")
    assert bounded(base, "count", "KS", "KH", "KD", "--ruleset", "/dev/zero").startswith(
        "error: /dev/zero: a device, not a rule set file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(base, tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    assert bounded(base, *new_game(str(fifo))).startswith(f"error: {fifo}: a FIFO (a named pipe), not a rule set file")


def test_a_folder_is_refused(base, tmp_path):
    folder = tmp_path / "rules.toml"
    folder.mkdir()
    r = refused(base, *new_game(str(folder)))
    assert said(r).startswith(f"error: {folder}: a folder, not a rule set file")


def test_a_file_over_1_mib_is_refused_before_it_is_read(base, tmp_path):
    path = written(tmp_path, B500 + "#" * (1 << 20) + "\n")
    r = refused(base, *new_game(path))
    assert said(r).startswith(f"error: {path}: over 1,048,576 bytes (1 MiB), the most a rule set file may be")


@pytest.mark.parametrize("path, shown", [
    ("nosuch\x1b[2J.toml", "nosuch\\x1b[2J.toml"),
    ("nosuch\u202e.toml", "nosuch\\u202e.toml"),
])
def test_the_path_is_printed_escaped(base, path, shown):
    r = ref(*new_game(path))
    assert r.exit_code == 5 and "\x1b" not in r.stderr and "\u202e" not in r.stderr
    assert said(r) == f"error: rule set file not found: {shown}"


def test_a_long_path_is_shortened(base):
    path = "a" * 5000 + ".toml"
    r = refused(base, *new_game(path))
    assert path not in r.stderr and len(r.stderr) < 400, r.stderr
    assert "(5,005 characters)" in said(r)


# -- 10: a byte-order mark --------------------------------------------------------------------


def test_a_file_starting_with_a_byte_order_mark_is_read_and_kept_without_it(record, tmp_path):
    path = tmp_path / "notepad.toml"
    path.write_text("\ufeff" + edit(B500, r'^name = "rummy-500"', 'name = "notepad"'), encoding="utf-8")
    r = ref(*new_game(str(path)))
    assert r.exit_code == 0, r.stderr
    r = ref("standings", "--game", "house")  # the kept text is read back
    assert r.exit_code == 0 and "house (notepad), target 500" in r.stdout, r.stdout + r.stderr
