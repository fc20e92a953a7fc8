"""Audit fuzz46: bytes that are not UTF-8 on the command line (a game's name, a player's name,
a record's path), an export cut short inside a text, a long non-number in a usage error, and
``verify --seal --json`` (#1-#5)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json, ref_subprocess

#: what Python makes of the byte 0xff on a command line or in a file name (surrogateescape)
FF = os.fsdecode(b"\xff")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- 1. --game given as bytes that are not UTF-8: no game of that name (exit 5) -----------------------

POINTS = ["--points", "Bill=5", "--points", "Ben=0", "--points", "Larry=12"]
NO_GAME = [
    ["standings"], ["history"], ["stats"], ["chart"], ["rulings"], ["export"], ["end-session"],
    ["score-hand", *POINTS], ["amend", "1", "--reason", "typo", *POINTS], ["void", "1", "--reason", "typo"],
    ["count", "7S", "8S", "9S"], ["ruling", "pizza"],
    ["dispute", "claim", "--called", "Bill,Ben", "--touched", "Bill,Ben"],
    ["dispute", "designate", "3D", "--table", "4D 5D 6D", "--as", "run"],
    ["dispute", "pickup", "7H", "--hand", "7S 7D"],
    ["dispute", "discard", "--took", "7H", "--discarded", "KS"],
    ["dispute", "end-night"],
]


@pytest.fixture
def long_game():
    assert ref("new-session", "--players", "Bill,Ben,Larry").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0


@pytest.mark.parametrize("name", [FF, f"Bill{FF}"])
@pytest.mark.parametrize("args", NO_GAME, ids=lambda a: " ".join(a[:2]))
def test_a_game_named_in_bytes_that_are_not_utf8_is_no_game(long_game, args, name):
    before = ref_json("verify")["seal"]
    r = ref(*args, "--game", name)
    assert r.exit_code == 5, r.stderr
    assert r.stderr.startswith(f"error: no game named {name!r}") or f"no game named {name!r}" in r.stderr, r.stderr
    assert "internal error" not in r.stderr and r.stdout == ""
    assert ref_json("verify")["seal"] == before


@pytest.mark.parametrize("args", [["new-session", "--players", "Ann,Bob"], ["new-session"],
                                  ["night", "--players", "Ann,Bob"]])
def test_a_new_game_named_in_bytes_that_are_not_utf8_is_refused_as_its_name(long_game, args):
    before = ref_json("verify")["seal"]
    r = ref(*args, "--game", f"fri{FF}", input="quit\n")
    assert r.exit_code == 3, r.stderr
    assert "game name 'fri\\udcff' contains U+DCFF SURROGATE, a lone surrogate" in r.stderr
    assert ref_json("verify")["seal"] == before


def test_a_game_name_in_bytes_from_a_real_command_line(long_game):
    """The bytes as a shell passes them (``-g $'\\xff'``), through the real entry point."""
    found = ref_subprocess("standings", "-g", FF)  # subprocess writes the byte 0xff itself
    assert (found.returncode, found.stdout) == (5, ""), found.stderr
    assert found.stderr.startswith("error: no game named '\\udcff'\ngames: rummy-2m")
    new = ref_subprocess("new-session", "-g", FF, "--players", "Ann,Bob")
    assert new.returncode == 3 and "U+DCFF SURROGATE" in new.stderr, new.stderr


def test_a_player_name_in_bytes_that_are_not_utf8_is_escaped_once(long_game):
    r = ref("score-hand", "--points", f"Bill{FF}=5", "--points", "Ben=0", "--points", "Larry=12")
    assert r.exit_code == 4
    assert "refused (A1): 'Bill\\udcff' is not on the roster of rummy-2m" in r.stderr, r.stderr
    assert "\\\\" not in r.stderr
    r = ref("score-hand", "--points", "Bi\x01ll=5", "--points", "Ben=0", "--points", "Larry=12")
    assert "'Bi\\x01ll' is not on the roster" in r.stderr and "('Bi\\x01ll' holds U+0001" in r.stderr, r.stderr
    assert "\\\\" not in r.stderr


def test_a_name_on_an_ascii_terminal_is_escaped_once(long_game):
    r = ref_subprocess("score-hand", "--points", "Bíl=5", "--points", "Ben=0", "--points", "Larry=12",
                       env={"LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    assert r.returncode == 4 and "'B\\xedl' is not on the roster" in r.stderr, r.stderr
    assert "\\\\" not in r.stderr


def test_a_name_not_at_a_simple_rummy_table_is_escaped_once():
    made = ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob", "--cards", "2")
    assert made.exit_code == 0, made.stderr
    r = ref("score-hand", "--hand", f"Ann{FF}=2C 3C", "--hand", "Bob=4C 5C")
    assert r.exit_code == 3 and "'Ann\\udcff' (hand) is not at this table" in r.stderr, r.stderr


# -- 2. a record, or a backup, whose path is not UTF-8: read and written as any other ------------------


def test_a_file_uri_names_the_bytes_of_the_path():
    from rummyref.store.readonly import file_uri

    assert file_uri(Path(os.fsdecode(b"/tmp/r\xff \xc3\xa9.db"))) == "file:/tmp/r%FF%20%C3%A9.db"


@pytest.fixture
def odd_record(db_path, tmp_path):
    """A record whose file name holds the byte 0xff (not UTF-8), with a hand recorded."""
    assert ref("new-session", "--players", "Bill,Ben,Larry").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/r\xff.db"))
    shutil.copy(db_path, odd)
    return odd


def test_commands_that_read_with_sqlite3_read_a_record_whose_path_is_not_utf8(odd_record, tmp_path):
    before = digest(odd_record)
    counted = ref_subprocess("--db", str(odd_record), "count", "7S", "8S", "9S")
    assert counted.returncode == 0 and "[rummy-2m]" in counted.stdout, counted.stderr
    ruled = ref_subprocess("--db", str(odd_record), "ruling", "pizza")
    assert ruled.returncode == 0 and ruled.stdout.startswith("B2 (rummy-2m)"), ruled.stderr
    night = ref_subprocess("--db", str(odd_record), "night", input="? pizza\nquit\n")
    assert night.returncode == 0 and "B2 (rummy-2m)" in night.stdout, night.stderr
    assert "internal error" not in counted.stderr + ruled.stderr + night.stderr
    assert digest(odd_record) == before


def test_a_backup_from_and_to_a_path_that_is_not_utf8(odd_record, tmp_path):
    folder = os.fsencode(tmp_path)
    out = ref_subprocess("--db", str(odd_record), "backup", os.fsdecode(folder + b"/b\xff.db"), "--json")
    assert out.returncode == 0, out.stderr
    made = json.loads(out.stdout)
    assert (made["games"], made["entries"]) == (1, 3)
    assert b"b\xff.db" in os.listdir(folder)  # the file the command was given, byte for byte
    copy = ref_subprocess("--db", os.fsdecode(folder + b"/b\xff.db"), "standings", "--json")
    assert copy.returncode == 0 and {p["name"]: p["total"] for p in json.loads(copy.stdout)["players"]}["Larry"] == 12, copy.stderr
    assert sorted(os.listdir(folder)) == sorted([b"ref.db", b"r\xff.db", b"b\xff.db"])


# -- 3. an export cut short inside a text: cut short, not "nested too deep" --------------------------


CUT = [
    '{"format": "rummyref-export", "version": 1, "x": "[[[[[[[[[',
    '{"format": "rummyref-export", "version": 1, "x": "[[[[[[[[[\\',
    '{"format": "rummyref-export", "version": 1, "x": [1, ',
]


@pytest.mark.parametrize("text", CUT)
def test_a_file_cut_short_is_said_to_be_cut_short(tmp_path, text):
    cut = tmp_path / "t.json"
    cut.write_text(text)
    r = ref("import", "--db", str(tmp_path / "n.db"), str(cut))
    assert r.exit_code == 3, r.stderr
    said = " ".join(r.stderr.split())
    assert said.startswith(f"error: {cut} ends in the middle of its JSON (") and "the file was cut short" in said
    assert "nested" not in said and "nothing was imported" in said
    assert not (tmp_path / "n.db").exists()


def test_an_export_cut_inside_a_ruling_is_said_to_be_cut_short(tmp_path):
    """The audit's case: a real export, cut inside an entry's facts (a JSON text in a string)."""
    assert ref("new-session", "--players", "Bill,Ben,Larry").exit_code == 0
    assert ref("dispute", "claim", "--called", "Bill=Ben", "--touched", "Bill=Ben", "--judge-says", "Bill",
               "--record").exit_code == 0
    whole = tmp_path / "full.json"
    assert ref("export", "-o", str(whole)).exit_code == 0
    text = whole.read_text()
    inside = text.index('\\": [') + 4  # in a JSON text held in a string (the facts), just after a [
    cut = tmp_path / "cut.json"
    cut.write_text(text[:inside] + "[[[[[[[[[[")
    r = ref("import", "--db", str(tmp_path / "n.db"), str(cut))
    assert r.exit_code == 3 and "was cut short" in r.stderr and "nested" not in r.stderr, r.stderr


def test_depth_counts_an_open_string_as_the_end():
    from rummyref.store.import_checks import depth

    assert depth('{"x": "[[[[[[[[[[[[') == 1
    assert depth('{"x": "a\\"[[[[[[[[[[') == 1
    assert depth('{"x": [[["]]]"]]]}') == 4  # a closed string is still skipped


# -- 4. a usage error cuts a long non-number short, and fits the line -----------------------------------


@pytest.mark.parametrize("args, said", [
    (["void", "a" * 100, "--reason", "x"], "Error: Invalid value for 'HAND': aaaaaaaaaaaa...aaaaaaaaaaaa (100 characters)"),
    (["new-session", "--cards", "x" * 5000], "xxxxxxxxxxxx...xxxxxxxxxxxx (5,000 characters)"),
    (["new-session", "-w", "x" * 5000], "xxxxxxxxxxxx...xxxxxxxxxxxx (5,000 characters)"),
    (["history", "--" + "z" * 200], "Error: No such option: --zzzzzzzzzz...zzzzzzzzzzzz (202 characters)"),
])
def test_a_usage_error_shortens_what_was_typed(args, said):
    r = ref_subprocess(*args, env={"COLUMNS": "80"})
    assert r.returncode == 2 and r.stdout == ""
    assert said in " ".join(r.stderr.split()), r.stderr
    assert max(len(line) for line in r.stderr.splitlines()) <= 80, r.stderr


def test_a_short_usage_error_is_as_click_writes_it():
    r = ref("chart", "--width", "abc")
    assert r.exit_code == 2 and r.stderr.endswith("\nError: Invalid value for '--width': abc\n"), r.stderr


# -- 5. verify --seal --json: the report on stdout, exit 8 (json.md says so) -------------------------------


def test_verify_json_reports_a_seal_the_record_does_not_hold(tmp_path):
    other = str(tmp_path / "other.db")
    assert ref("new-session", "--db", other, "--players", "Ann,Bob").exit_code == 0
    foreign = ref_json("verify", "--db", other)["seal"]
    assert ref("new-session", "--players", "Bill,Ben,Larry").exit_code == 0
    r = ref("verify", "--seal", foreign, "--json")
    assert r.exit_code == 8 and "does not contain the state sealed" in r.stderr
    report = json.loads(r.stdout)
    assert (report["ok"], report["problems"], report["sealed"]) == (False, [], {"seal": foreign, "contained": False})
    doc = " ".join((Path(__file__).parents[2] / "docs/reference/json.md").read_text().split())
    assert "The one exception is `ref verify --json`" in doc and '"sealed": {"seal", "contained"}' in doc
