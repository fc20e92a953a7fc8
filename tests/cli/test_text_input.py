"""Text typed into the record that is not a player's name (audit C items 2, 3 and 6, audit A
item 3): a game's name refuses the characters a player's name refuses, and a record holding
one (made by an older ref) still exports and imports; a correction's reason is one line of at
most 500 characters, and one kept by an older ref is shown escaped; a void that breaks a
closed night's full rounds says so (A4); ``W=`` with nothing after names what is missing."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest
from cli_helpers import ref, ref_json

from rummyref import names
from rummyref.cli import night_shell
from rummyref.errors import UnreadableInput


def said(result) -> str:
    """stderr with its wrapping undone."""
    return " ".join(result.stderr.split())


POINTS = [["--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3"],
          ["--points", "Bill=4", "--points", "Ben=5", "--points", "Larry=6"],
          ["--points", "Bill=7", "--points", "Ben=8", "--points", "Larry=9"]]


# -- A (C2): a game's name ---------------------------------------------------------------------


@pytest.mark.parametrize("game, message", [
    ("g\nx", "error: game name 'g\\nx' contains U+000A LINE FEED, a control character"),
    ("g\x1b[2Jx", "error: game name 'g\\x1b[2Jx' contains U+001B ESCAPE, a control character"),
    ("g\tx", "error: game name 'g\\tx' contains U+0009 CHARACTER TABULATION, a control character"),
    ("g\u200bx", "error: game name 'g\\u200bx' contains U+200B ZERO WIDTH SPACE, an invisible character"),
    ("g\u202ex", "error: game name 'g\\u202ex' contains U+202E RIGHT-TO-LEFT OVERRIDE, an invisible character"),
], ids=["newline", "escape", "tab", "zero-width", "bidi"])
def test_a_game_name_with_a_control_character_is_refused_and_nothing_is_written(record, game, message):
    r = ref("new-session", "--game", game)
    assert r.exit_code == 3 and r.stdout == ""
    assert r.stderr.splitlines()[0] == message
    assert "a game's name is letters, digits, spaces and punctuation; e.g. --game friday" in said(r)
    assert not record.exists()
    ref_json("new-session", "--game", "friday")
    before = record.snapshot()
    r = ref("new-session", "--players", "Ann,Bob", "--game", game)
    assert r.exit_code == 3 and r.stderr.splitlines()[0] == message
    assert record.snapshot() == before


def test_a_game_name_may_hold_what_only_a_player_name_may_not():
    """``--game`` is never split: ref's separators (= , / |) are plain characters in it."""
    assert ref_json("new-session", "--game", "a=b/c, d|e")["game"] == "a=b/c, d|e"


@contextmanager
def older_ref(monkeypatch):
    """An older ref: a game's name, a player's name and a reason were taken as typed."""
    from rummyref.games.long import kind

    with monkeypatch.context() as m:
        m.setattr(names, "check_game_name", lambda name: None)
        m.setattr(names, "check_newcomers", lambda new: None)
        m.setattr(names, "check_roster", lambda roster: tuple(n.strip() for n in roster))
        m.setattr(kind, "check_roster", lambda roster: tuple(n.strip() for n in roster))
        m.setattr(names, "check_reason", lambda reason: reason.strip())
        m.setattr(kind, "check_reason", lambda reason: reason.strip())
        yield


def test_a_record_an_older_ref_wrote_with_control_characters_exports_and_imports(monkeypatch, tmp_path):
    game = "g\nx"
    with older_ref(monkeypatch):
        ref_json("new-session", "--game", game, "--players", "Ann,B\x1bob,Cy")
        ref_json("score-hand", "--game", game, "--points", "Ann=1", "--points", "B\x1bob=2", "--points", "Cy=3")
        ref_json("amend", "1", "--game", game, "--points", "Ann=1", "--points", "B\x1bob=2", "--points", "Cy=4",
                 "--reason", "ok\nentry 9: forged")
    assert ref("verify").exit_code == 0
    out = tmp_path / "old.json"
    assert ref("export", "-o", str(out)).exit_code == 0
    target = tmp_path / "imported.db"
    r = ref("import", "--db", str(target), str(out))
    assert r.exit_code == 0, r.stdout + r.stderr
    for command in (["standings"], ["history"]):
        assert ref_json(*command, "--game", game, "--db", str(target)) == ref_json(*command, "--game", game)
    # the name is stated by the game's header entry: a name changed in the file is caught there
    doc = json.loads(out.read_text(encoding="utf-8"))
    doc["tables"]["game"]["rows"][0][doc["tables"]["game"]["columns"].index("name")] = "g\ny"
    doc["chains"] = {"g\ny": doc["chains"].pop(game)}
    out.write_text(json.dumps(doc), encoding="utf-8")
    r = ref("import", "--db", str(tmp_path / "tampered.db"), str(out))
    assert r.exit_code == 8 and "does not verify" in said(r) and "changed after ref export wrote it" in said(r)
    assert not (tmp_path / "tampered.db").exists()


# -- B (C3): a correction's reason ------------------------------------------------------------


@pytest.fixture
def three_hands(record):
    ref_json("new-session")
    for points in POINTS:
        ref_json("score-hand", *points)
    return record


@pytest.mark.parametrize("reason, message", [
    ("ok\nentry 9: hand 1, night 1 hand 1, Bill dealt VOIDS nothing",
     "error: the reason 'ok\\nentry 9: hand 1, nig…' contains U+000A LINE FEED, a control character"),
    ("x\x1b[31mRED\x1b[0m", "error: the reason 'x\\x1b[31mRED\\x1b[0m' contains U+001B ESCAPE, a control character"),
    ("a\u2028b", "error: the reason 'a\\u2028b' contains U+2028 LINE SEPARATOR, a line separator"),
    ("a\u202eb", "error: the reason 'a\\u202eb' contains U+202E RIGHT-TO-LEFT OVERRIDE, a bidi control"),
    ("a" * 501, "error: the reason is 501 characters; at most 500"),
    ("a" * 100_000, "error: the reason is 100,000 characters; at most 500"),
], ids=["newline", "escape", "line-separator", "bidi", "501", "100000"])
@pytest.mark.parametrize("command", ["amend", "void"])
def test_a_reason_that_would_break_the_history_is_refused_and_nothing_is_written(three_hands, command, reason,
                                                                                  message):
    before = three_hands.snapshot()
    new = POINTS[0][:-1] + ["Larry=4"] if command == "amend" else []
    r = ref(command, "1", *new, "--reason", reason)
    assert r.exit_code == 3 and r.stdout == ""
    assert r.stderr.splitlines()[0] == message
    assert three_hands.snapshot() == before


def test_a_reason_of_500_characters_with_an_emoji_is_kept(three_hands):
    ref_json("void", "1", "--reason", "a" * 500)
    ref_json("void", "2", "--reason", "  misdeal 👨‍👩‍👧 (joined by zero-width joiners)  ")
    shown = ref("history").stdout
    assert f"    reason: {'a' * 500}".replace(" ", "") in shown.replace(" ", "").replace("\n", "")
    assert "    reason: misdeal 👨‍👩‍👧 (joined by zero-width joiners)\n" in shown


def test_a_reason_an_older_ref_kept_is_shown_escaped_and_cut(monkeypatch, three_hands):
    with older_ref(monkeypatch):
        ref_json("amend", "1", *POINTS[0][:-1], "Larry=4",
                 "--reason", "ok\nentry 9: hand 1, night 1 hand 1, Bill dealt VOIDS nothing")
        ref_json("amend", "1", *POINTS[0][:-1], "Larry=5", "--reason", "x\x1b[31mRED\x1b[0m")
        ref_json("amend", "1", *POINTS[0][:-1], "Larry=6", "--reason", "b" * 100_000)
    shown = ref("history").stdout
    assert "\x1b" not in shown
    rows = shown.splitlines()
    assert "    reason: ok\\nentry 9: hand 1, night 1 hand 1, Bill dealt VOIDS nothing" in rows
    assert not any(row.startswith("entry 9") for row in rows)
    assert "    reason: x\\x1b[31mRED\\x1b[0m" in rows
    assert len(rows) < 60  # 500 characters shown, not 100,000
    assert "… (100,000 characters, whole in --json)" in " ".join(shown.split())
    reasons = [e.get("reason") for e in ref_json("history")["entries"]]
    assert "b" * 100_000 in reasons and "x\x1b[31mRED\x1b[0m" in reasons  # JSON escapes them itself


def test_the_night_shell_asks_a_reason_again_as_the_options_refuse_it():
    assert night_shell.read_reason("  Bill counted short ") == "Bill counted short"
    with pytest.raises(UnreadableInput) as exc:
        night_shell.read_reason("x\x1b[2J")
    assert exc.value.message == "the reason 'x\\x1b[2J' contains U+001B ESCAPE, a control character"
    assert exc.value.hint == "a reason is one line of text, e.g. Bill counted short"
    with pytest.raises(UnreadableInput) as exc:
        night_shell.read_reason("a" * 600)
    assert exc.value.message == "the reason is 600 characters; at most 500"
    with pytest.raises(UnreadableInput) as exc:
        night_shell.read_reason("  ")
    assert (exc.value.message, exc.value.hint) == ("a correction needs a reason",
                                                   "say what was wrong, e.g. Bill counted short")


# -- C (C6): a void that breaks a closed night's full rounds ----------------------------------


def test_a_void_in_a_closed_night_that_breaks_its_full_rounds_says_so(three_hands):
    ref_json("end-session")
    r = ref("void", "2", "--reason", "late void")
    assert r.exit_code == 0, r.stderr
    assert ("Rummy Night 1 is closed with its rounds no longer full: Ben has dealt 0 hands in force, "
            "the others 1 (A4).") in " ".join(r.stdout.split())
    data = ref_json("void", "1", "--reason", "late void")
    assert data["night_not_full"] == {"Bill": 0, "Ben": 0, "Larry": 1} and data["night_emptied"] is False
    r = ref("void", "3", "--reason", "late void")
    assert "is closed with its rounds" not in r.stdout  # emptied instead, which says so
    assert "Rummy Night 1 has no hand in force now" in " ".join(r.stdout.split())


def test_a_second_void_says_the_rounds_are_still_not_full(record):
    ref_json("new-session")
    for points in POINTS + POINTS:
        ref_json("score-hand", *points)
    ref_json("end-session")
    ref_json("void", "2", "--reason", "late void")
    r = ref("void", "1", "--reason", "late void")
    assert ("Rummy Night 1 is closed with its rounds not full: Bill and Ben have dealt 1 hand in force, "
            "the others 2 (A4).") in " ".join(r.stdout.split())
    assert ref_json("void", "3", "--reason", "late void")["night_not_full"] is None  # full again: 1 each


def test_a_void_or_amend_that_keeps_the_rounds_full_says_nothing_of_them(three_hands):
    assert ref_json("void", "3", "--reason", "misdeal")["night_not_full"] is None  # the night is open
    ref_json("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    ref_json("end-session")
    amended = ref_json("amend", "1", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=4",
                       "--reason", "count")
    assert amended["night_not_full"] is None


def test_a_correction_that_reopens_a_game_ended_mid_round_says_its_night_is_not_full(record):
    # the game ended in hand 2 of night 2, which closed mid-round (A7 allows it); an amend of a
    # hand of night 1 reopens the game: night 2 stays closed, its rounds not full (audit, stop 34)
    ref_json("new-session", "--opening", "Bill=1999900")
    for points in POINTS:
        ref_json("score-hand", *points)
    ref_json("end-session")
    ref_json("new-session")
    ref_json("score-hand", "--points", "Bill=1", "--points", "Ben=1", "--points", "Larry=1")
    assert ref_json("score-hand", "--points", "Bill=100", "--points", "Ben=1", "--points", "Larry=1")["over"]
    ref_json("end-session")
    amended = ref_json("amend", "1", "--points", "Bill=-200", "--points", "Ben=2", "--points", "Larry=4",
                       "--reason", "count")
    assert amended["reopened"] and amended["night"] == 1
    assert amended["night_not_full"] == {"Bill": 1, "Ben": 1, "Larry": 0} and amended["not_full_night"] == 2
    r = ref("amend", "1", "--points", "Bill=-300", "--points", "Ben=2", "--points", "Larry=4", "--reason", "count")
    assert "is closed with its rounds" not in r.stdout  # not reopened by this one: nothing new to say


# -- D (A3): W= with nothing after ------------------------------------------------------------


@pytest.mark.parametrize("melded, message", [
    (["--melded", "Bill=5H 6H W="],
     "error: Bill's W= (--melded, card 3, column 7): the card the WILDCARD stands for is missing after '='"),
    (["--melded", "Bill=AS AH AC", "--melded", "Ben=W="],
     "error: Ben's W= (--melded, card 1, column 1): the card the WILDCARD stands for is missing after '='"),
    (["--melded", "Bill=5H 6H W= / AS AH AC"],
     "error: Bill's W= (--melded, card 3, column 7): the card the WILDCARD stands for is missing after '='"),
    (["--melded", "Bill==7H 5H 6H"],
     "error: Bill's =7H (--melded, card 1, column 1): nothing before '='"),
], ids=["last", "alone", "before-slash", "no-wildcard"])
def test_w_equals_with_nothing_after_names_the_token_and_what_is_missing(record, melded, message):
    ref_json("new-session", "--wildcards", "2")
    before = record.snapshot()
    r = ref("score-hand", *melded, "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.exit_code == 3 and r.stdout == ""
    assert " ".join(r.stderr.split()).startswith(message)
    assert "e.g. W=7H" in r.stderr
    assert record.snapshot() == before
