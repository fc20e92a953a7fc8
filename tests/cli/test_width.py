"""Every output fits an 80-column terminal (issue 14, item 5).

A realistic record (three Rummy Nights with table hands, corrections and a ruling; a Simple
Rummy match of four players with variations; a Gin game) is built once; then every command of
the lazy command table (:data:`rummyref.cli.app.COMMANDS`, enumerated, so a new command cannot
be forgotten) runs with representative arguments, and every ``--help`` of every command and
subcommand, at ``COLUMNS=80`` and at ``COLUMNS=200``. At 80 no line of stdout or stderr is
wider than 80; at 200 none is wider than 200 and the output says the same words (wrapping
moves line breaks, never text). Machine output (``--json``, CSV) is exempt: its lines are data.
The night shell (``ref night``) is walked through a pseudo-terminal: its help and a hand.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pexpect
import pytest
from cli_helpers import as_at_a_terminal, ref
from rich.cells import cell_len

from rummyref.cli import common
from rummyref.cli.app import COMMANDS, load_module_commands

pytestmark = pytest.mark.sqlite_only("one record is built and copied for every case")

NOW = "2026-11-12T19:30"

#: Rummy 2,000,000 (game "friday", players Bill, Ben, Larry): hands by cards and by points
HAND_BILL_DEALS = ["--melded", "Bill=7S 7H 7D", "--held", "Bill=KS 2C", "--melded", "Ben=2H 3H 4H 5H",
                   "--out", "Ben", "--held", "Larry=QD JD"]
HAND_BEN_DEALS = ["--points", "Bill=45", "--points", "Ben=-10", "--points", "Larry=20"]
HAND_LARRY_DEALS = ["--melded", "Bill=AS 2S 3S", "--held", "Bill=5D", "--melded", "Ben=QH KH AH", "--held",
                    "Ben=4C", "--melded", "Larry=9D 9C 9H", "--out", "Larry"]
HAND_CLAIM = ["--melded", "Bill=8C 9C 10C", "--out", "Bill", "--held", "Ben=KD KC", "--claim", "Larry=JC",
              "--held", "Larry=3D"]
HAND_WILD = ["--melded", "Bill=4D 5D W", "--held", "Bill=", "--held", "Ben=W 2D", "--melded",
             "Larry=10S JS QS KS", "--out", "Larry"]
HAND_TABLE = ["--melded", "Bill=AS AD AC / 2S 3S 4S", "--out", "Bill", "--held", "Ben=KD QC 9H 9S",
              "--melded", "Larry=6H 7H 8H", "--held", "Larry=2D"]

F = ("--game", "friday")
Q = ("--game", "quick")
G = ("--game", "gin")
SIMPLE = ("--game", "quick", "--ruleset", "simple-rummy")

#: how the record is built, one command each (all must succeed)
BUILD: tuple[tuple[str, ...], ...] = (
    # three Rummy Nights; the third still open
    ("new-session", *F, "--players", "Bill,Ben,Larry", "--wildcards", "2"),
    ("score-hand", *F, *HAND_BILL_DEALS), ("score-hand", *F, *HAND_BEN_DEALS), ("score-hand", *F, *HAND_LARRY_DEALS),
    ("dispute", "claim", *F, "--called", "Bill=Ben", "--touched", "Ben,Bill", "--record"),
    ("end-session", *F),
    ("new-session", *F),
    ("score-hand", *F, *HAND_CLAIM), ("score-hand", *F, *HAND_BEN_DEALS), ("score-hand", *F, *HAND_WILD),
    ("amend", "2", *F, "--reason", "Ben counted his aces twice", *HAND_BEN_DEALS[:4], "--points", "Larry=25"),
    ("void", "5", *F, "--reason", "misdeal: Ben had eleven cards"),
    # Ben deals his voided hand again, then Bill, Ben and Larry: two full rounds (SPEC §8)
    ("score-hand", *F, *HAND_BEN_DEALS), ("score-hand", *F, *HAND_BEN_DEALS), ("score-hand", *F, *HAND_BEN_DEALS),
    ("score-hand", *F, *HAND_BEN_DEALS),
    ("end-session", *F),
    ("new-session", *F),
    ("score-hand", *F, *HAND_TABLE),
    # a Simple Rummy match of four players, with variations; the session still open
    ("new-session", *SIMPLE, "--players", "Ann,Bob,Cy,Dee", "--cards", "5", "--wildcards", "1",
     "--variation", "four-sevens", "--first-dealer", "Ann=KS", "--first-dealer", "Bob=KH",
     "--first-dealer", "Cy=2C", "--first-dealer", "Dee=9D"),
    ("score-hand", *Q, "--hand", "Ann=2H 3H 4H 4S 4D", "--hand", "Bob=5S 6S 7S 2C 3C", "--hand", "Cy=W KD AD 9H AC",
     "--hand", "Dee=QS QC 10H 8D 6C"),
    ("score-hand", *Q, "--hand", "Ann=2D 6D 9C JC KH", "--hand", "Bob=JH 3S 8D 10C QS", "--hand", "Cy=10D 5C 7H 9S 4C",
     "--hand", "Dee=AS 5D 5H 8C 3D", "--tie"),
    ("score-hand", *Q, "--hand", "Ann=KH QH 8S 3D 5D", "--hand", "Bob=AS 2S 3S 6C 10H", "--hand", "Cy=2C 3C 4C 5H 6H 7H",
     "--hand", "Dee=JD JS 9D 4D 6S", "--out", "Cy"),
    ("amend", "3", *Q, "--reason", "Dee had the 9H, not the 9D", "--hand", "Ann=KH QH 8S 3D 5D", "--hand",
     "Bob=AS 2S 3S 6C 10H", "--hand", "Cy=2C 3C 4C 5H 6H 7H", "--hand", "Dee=JD JS 9H 4D 6S", "--out", "Cy"),
    # a Gin game, one hand in
    ("new-session", *G, "--ruleset", "gin", "--players", "Ann,Bob"),
    ("score-hand", *G, "--hand", "Ann=2H 3H 4H 5S 5D 5C 9C 9D 9S AC", "--hand", "Bob=KS QS JS 7C 7D 7H 8H 8D AD 2D",
     "--knock", "Ann", "--melds", "Ann=2H 3H 4H / 5S 5D 5C / 9C 9D 9S"),  # history: the melds as stated
)

#: each command of the table, with representative arguments; exit code expected
RUNS: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = {
    "count": ((3, ("7S", "7H", "7D", "8S", "9S", "10S", "JS", "KD")),  # three games open: which one? (SPEC §8)
              (0, (*F, "7S", "7H", "7D", "8S", "9S", "10S", "JS", "KD")),
              (0, ("--ruleset", "simple-rummy", "2H", "3H", "4H", "4S", "4D", "W", "KC", "QC", "JC", "AC")),
              (0, ("--ruleset", "gin", "QS", "KS", "AS", "2S", "3S", "5H", "5D", "5C", "9H", "10H")),
              (3, ("7S", "7X"))),
    "new-session": ((0, ("--game", "fresh", "--players", "Bill,Ben,Larry", "--opening", "Bill=1250000",
                         "--opening", "Ben=1175000", "--opening", "Larry=1300000", "--wildcards", "1")),
                    (0, ("--game", "fresh", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy,Dee", "--cards", "7",
                         "--wildcards", "2", "--variation", "four-sevens", "--first-dealer", "Ann=KS",
                         "--first-dealer", "Bob=KH", "--first-dealer", "Cy=2C", "--first-dealer", "Dee=KD")),
                    (4, F)),
    "score-hand": ((0, (*F, *HAND_CLAIM)),
                   (0, (*Q, "--hand", "Ann=7S 7H 7D 7C 8C", "--hand", "Bob=JC 2H 3S 4D 5S", "--hand",
                        "Cy=QC 9D 10S KS AH", "--hand", "Dee=9H 9C 6H 6D 2D", "--four-sevens", "Ann")),
                   (0, (*Q, "--hand", "Ann=2S 9H JD QD 4C", "--hand", "Bob=3H 4H 5H 8C 8D", "--hand",
                        "Cy=W 6C 7C KH KD", "--hand", "Dee=10C JC QC 5S 2C")),
                   (0, (*G, "--hand", "Ann=AH 2H 3H 4H 5D 5S 5C KD KS KC", "--hand",
                        "Bob=9C 10C JC 6S 6D 6H 2S 3S 4S 5H", "--gin", "Ann")),
                   (3, (*F, "--held", "Bill=3x", "--points", "Ben=1")),
                   (3, (*F, "--melded", "Bill=8C 9C 10C", "--held", "Ben=8C", "--held", "Larry=2D", "--out", "Bill")),
                   (3, (*F, "--held", "Bill=W W W", "--melded", "Ben=2H 3H 4H", "--held", "Larry=2D",
                        "--out", "Ben"))),
    "end-session": ((0, Q), (4, F)),
    "amend": ((0, ("1", *F, "--reason", "Bill had the KS, not the KD", *HAND_BILL_DEALS)),
              (0, ("1", *Q, "--reason", "a typo in Dee's hand", "--hand", "Ann=2H 3H 4H 4S 4D", "--hand",
                   "Bob=5S 6S 7S 2C 3C", "--hand", "Cy=W KD AD 9H AC", "--hand", "Dee=QS QC 10H 8D 7C")),
              (0, ("1", *G, "--reason", "a knock, not gin", "--hand", "Ann=2H 3H 4H 5S 5D 5C 9C 9D 9S AC",
                   "--hand", "Bob=KS QS JS 7C 7D 7H 8H 8D AD 2D", "--knock", "Ann"))),
    "void": ((0, ("1", *F, "--reason", "misdeal")), (0, ("2", *Q, "--reason", "misdeal")),
             (0, ("1", *G, "--reason", "misdeal"))),
    "night": ((0, F),),  # no terminal, no input: it ends at once; the shell is walked below, in a pty
    "standings": ((0, F), (0, Q), (0, G)),
    "history": ((0, F), (0, (*F, "--session", "2")), (0, Q), (0, G)),
    "verify": ((0, ()),),
    "upgrade": ((0, ()),),
    "export": ((0, ("--output", "{tmp}/all.json")), (0, ("--format", "csv", "--output", "{tmp}/all.csv"))),
    "import": ((0, ("{tmp}/mine.json",)), (5, ("{tmp}/missing.json",))),
    "backup": ((0, ("{tmp}/copy.db",)), (4, ("{tmp}/mine.json",))),
    "first-dealer": ((0, ("Ann=KS", "Bob=KH", "Cy=2C")), (0, ("Ann=5D", "Bob=W W 5C", "Cy=2C", "Dee=5H"))),
    "ruling": ((0, ("who deals first",)), (0, ("can I go out with two threes",)), (0, ("wild card",))),
    "rulings": ((0, F),),
    "stats": ((0, F), (0, Q), (0, G)),
    "chart": ((0, F),),
    "dispute": ((0, ("claim", *F, "--called", "Bill=Ben", "--touched", "Ben,Bill", "--no-record")),
                # three games open: a dispute names the one it means (SPEC §8), else it is refused
                (0, ("claim", *F, "--players", "Ann,Bob", "--called", "Ann=Bob", "--touched", "Ann=Bob",
                     "--no-record")),
                (0, ("designate", *F, "AD", "--table", "2D 3D 4D", "--table", "AS AH AC", "--as", "match",
                     "--no-record")),
                (0, ("pickup", *F, "7H", "--hand", "2C 3D", "--table", "7S 7D 7C", "--no-record")),
                (0, ("discard", *F, "--took", "7H", "--discarded", "7H", "--going-out", "--no-record")),
                (0, ("end-night", *F)),
                (0, ("end-night", *F, "--hands", "4", "--no-record")),
                (3, ("discard", "--took", "7H", "--discarded", "7H", "--no-record"))),
}


def all_help() -> list[tuple[str, ...]]:
    """``--help`` of the root, of every command of the table and of every subcommand of a group."""
    helps: list[tuple[str, ...]] = [("--help",)]
    for entry in COMMANDS:
        command = load_module_commands(entry.module)[entry.name]
        helps.append((entry.name, "--help"))
        for sub in getattr(command, "commands", {}):
            helps.append((entry.name, sub, "--help"))
    return helps


CASES = [pytest.param(code, (name, *args), id=" ".join((name, *args))[:70])
         for name, runs in RUNS.items() for code, args in runs]
HELPS = [pytest.param(0, args, id=" ".join(args)) for args in all_help()]


def test_every_command_of_the_table_is_walked():
    assert sorted(RUNS) == sorted(entry.name for entry in COMMANDS)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The record of :data:`BUILD` (a SQLite file), and an export of it to import elsewhere."""
    where = tmp_path_factory.mktemp("width")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RUMMYREF_DB", str(where / "ref.db"))
        mp.setenv("RUMMYREF_NOW", NOW)
        mp.setenv("COLUMNS", "80")
        for args in BUILD:
            result = ref(*args)
            assert result.exit_code == 0, (args, result.stdout, result.stderr)
        mp.setenv("RUMMYREF_DB", str(where / "mine.db"))
        assert ref("new-session", "--game", "mine", "--players", "Ann,Bob,Cy").exit_code == 0
        assert ref("export", "--output", str(where / "mine.json")).exit_code == 0
    return where


@pytest.fixture
def short_tmp():
    """A folder with a short name: a path in a message stays one word at 80 columns, as the
    user's own paths do (pytest's tmp_path alone is longer than a line)."""
    where = Path(tempfile.mkdtemp(prefix="w", dir="/tmp"))
    yield where
    shutil.rmtree(where, ignore_errors=True)


def run_at(width: int, args: tuple[str, ...], built, tmp_path, monkeypatch):
    """``ref ARGS`` at a terminal ``width`` columns wide, on a copy of the built record."""
    shutil.copy(built / "ref.db", tmp_path / "ref.db")
    shutil.copy(built / "mine.json", tmp_path / "mine.json")
    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    monkeypatch.setenv("RUMMYREF_NOW", NOW)
    monkeypatch.setenv("COLUMNS", str(width))
    for console in (common.out, common.err):  # created at import, with the width of that moment
        monkeypatch.setattr(console, "_width", width)
    return ref(*(a.replace("{tmp}", str(tmp_path)) for a in args))


def too_wide(text: str, width: int) -> list[str]:
    """The lines wider than ``width`` terminal cells (trailing blanks are not seen)."""
    return [f"{cell_len(line.rstrip()):3}: {line.rstrip()}" for line in text.splitlines()
            if cell_len(line.rstrip()) > width]


@pytest.mark.parametrize(("code", "args"), CASES + HELPS)
def test_fits_80_columns(code, args, built, short_tmp, monkeypatch):
    result = run_at(80, args, built, short_tmp, monkeypatch)
    assert result.exit_code == code, result.stdout + result.stderr
    assert result.stdout.strip() or result.stderr.strip()
    wide = too_wide(result.stdout, 80) + too_wide(result.stderr, 80)
    assert not wide, "\n".join(wide)


@pytest.mark.parametrize(("code", "args"), CASES + HELPS)
def test_at_200_columns_nothing_is_lost(code, args, built, short_tmp, monkeypatch):
    (short_tmp / "wide").mkdir()
    wide = run_at(200, args, built, short_tmp / "wide", monkeypatch)
    narrow = run_at(80, args, built, short_tmp, monkeypatch)
    assert wide.exit_code == narrow.exit_code == code
    assert not too_wide(wide.stdout, 200) and not too_wide(wide.stderr, 200)
    if args[0] not in DRAWN:
        assert words(wide.stdout, short_tmp) == words(narrow.stdout, short_tmp)
        assert words(wide.stderr, short_tmp) == words(narrow.stderr, short_tmp)


# -- the same record, its players named as nobody reads them whole, or as rich markup -------------

LONG = "Maximilian-" + "Bartholomew" * 8 + "Z"  #: 100 characters, no blank: no line has room for it
WIDE = "鈴木" + "山田太郎" * 24 + "花子"  #: 100 characters, 200 terminal cells
#: Bill, Ann, Larry and Cy of :data:`BUILD` and :data:`RUNS`, renamed
RENAMED = {"Bill": LONG, "Ann": WIDE, "Larry": "[b]Larry", "Cy": "Cy [the kid]"}


def renamed(args: tuple[str, ...]) -> tuple[str, ...]:
    import re

    return tuple(re.sub(r"\b(Bill|Ann|Larry|Cy)\b", lambda m: RENAMED[m.group()], a) for a in args)


@pytest.fixture(scope="module")
def built_renamed(tmp_path_factory):
    """The record of :data:`BUILD` with its players :data:`RENAMED`."""
    where = tmp_path_factory.mktemp("renamed")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RUMMYREF_DB", str(where / "ref.db"))
        mp.setenv("RUMMYREF_NOW", NOW)
        mp.setenv("COLUMNS", "80")
        for args in map(renamed, BUILD):
            result = ref(*args)
            assert result.exit_code == 0, (args, result.stdout, result.stderr)
        mp.setenv("RUMMYREF_DB", str(where / "mine.db"))
        assert ref("new-session", "--game", "mine", "--players", f"{WIDE},Bob,Cy [the kid]").exit_code == 0
        assert ref("export", "--output", str(where / "mine.json")).exit_code == 0
    return where


def names_shown(text: str, rulebook: bool = False) -> None:
    """Every line of ``text`` names a long-named player by the one shown form
    (:func:`rummyref.names.shown`), whole on its line, never the whole name nor a piece of it
    folded onto the next line; a name like rich markup is printed as typed, whole on its line
    (``rulebook``: the text quotes the rulebook, whose rule A3 names Bill, Ben and Larry)."""
    import re

    from rummyref.names import shown

    for name in (LONG, WIDE):
        form = shown(name)
        head = form.split("…")[0]
        assert name not in text.replace("\n", ""), text
        assert text.count(head) == text.count(form), (form, text)
    for name, bare in (("Cy [the kid]", "Cy"),) if rulebook else (("[b]Larry", "Larry"), ("Cy [the kid]", "Cy")):
        assert len(re.findall(rf"\b{bare}\b", text)) == text.count(name), (name, text)


@pytest.mark.parametrize(("code", "args"), CASES)
def test_long_wide_and_markup_names_fit_whole_and_literal(code, args, built_renamed, short_tmp, monkeypatch):
    result = run_at(80, renamed(args), built_renamed, short_tmp, monkeypatch)
    assert result.exit_code == code, result.stdout + result.stderr
    wide = too_wide(result.stdout, 80) + too_wide(result.stderr, 80)
    assert not wide, "\n".join(wide)
    names_shown(result.stdout + result.stderr, rulebook=args[0] == "ruling")


#: commands that draw to the terminal's width (their axes scale): only their width is checked
DRAWN = ("chart",)


def words(text: str, tmp_path) -> set[str]:
    """The words of an output, whatever its line breaks, the padding and order of its columns
    (a narrow layout may stack them) and the test's folder."""
    text = text.replace(str(tmp_path / "wide"), "TMP").replace(str(tmp_path), "TMP")
    return {w for w in text.split() if any(c.isalnum() for c in w)}


# -- the night shell, in a pseudo-terminal 80 (or 200) columns wide ------------------------------------

ANSI = r"\x1b\[[0-9;?]*[A-Za-z]"


def night_at(width: int, db: str, *args: str) -> pexpect.spawn:
    env = dict(os.environ, COLUMNS=str(width), TERM="dumb", NO_COLOR="1", RUMMYREF_NOW=NOW, RUMMYREF_DB=db)
    return pexpect.spawn(sys.executable, ["-m", "rummyref", "night", *args], env=env, encoding="utf-8",
                         timeout=30, dimensions=(50, width), preexec_fn=as_at_a_terminal)


def printed(child: pexpect.spawn, typed: list[str]) -> list[str]:
    """What the shell printed, line by line, each line typed at a prompt taken off its line
    (an answer is as wide as the player types it; the prompt before it is measured)."""
    import re

    text = re.sub(ANSI, "", child.before).replace("\r\n", "\n")
    lines = []
    for line in text.split("\n"):
        for shown in line.split("\r"):  # readline redraws a long answer over its line, scrolled
            shown = shown.replace("\b", "").rstrip()
            for answer in typed:
                if answer and shown.endswith(answer):
                    shown = shown[: -len(answer)].rstrip()
            lines.append(shown)
    return lines


#: (wait for, then type): the help, the dispute help, a hand by cards, standings, a refusal, quit
NIGHT_WALK = (
    ("night> ", "help"), ("night> ", "! help"), ("night> ", "! claim --help"), ("night> ", "? who deals first"),
    ("night> ", "cards"),
    ("Bill melded or laid off", "AS AD AC / 2S 3S 4S"), ("Bill left in hand", ""),
    ("Ben melded or laid off", "7S 7H 7X"), ("Ben melded or laid off", "\x157S 7H 7D"),
    ("Ben left in hand", "KD QC 9H 9S"),
    ("Larry melded or laid off", "6C 7C 8C"), ("Larry left in hand", "2D"),
    ("Who went out?", "Bill"), ("Rummy! claims", "Larry=5S"), ("Record it?", ""),
    ("night> ", "standings"), ("night> ", "history"), ("night> ", "nonsense"), ("night> ", "end"),
    ("night> ", "quit"),
)


@pytest.mark.parametrize("width", [80, 200])
def test_the_night_shell_fits(width, built, tmp_path):
    shutil.copy(built / "ref.db", tmp_path / "ref.db")
    child = night_at(width, str(tmp_path / "ref.db"), "--game", "friday")
    typed = [answer.lstrip("\x15") for _, answer in NIGHT_WALK]
    shown: list[str] = []
    for wait, answer in NIGHT_WALK:
        child.expect_exact(wait)
        shown += printed(child, typed)
        child.sendline(answer)
    child.expect(pexpect.EOF)
    shown += printed(child, typed)
    child.close()
    assert child.exitstatus == 0, "\n".join(shown)
    assert "Recorded: hand 12 of friday" in " ".join(" ".join(shown).split()), "\n".join(shown)
    wide = [f"{cell_len(line):3}: {line}" for line in shown if cell_len(line) > width]
    assert not wide, "\n".join(wide)


def test_the_night_shell_shows_long_and_markup_names_whole(built_renamed, tmp_path):
    """:data:`NIGHT_WALK` with the players :data:`RENAMED`: every question, result, standings
    and history line names them by their shown form, whole and literal, within 80 columns."""
    from rummyref.names import shown

    shutil.copy(built_renamed / "ref.db", tmp_path / "ref.db")
    child = night_at(80, str(tmp_path / "ref.db"), "--game", "friday")
    walk = [(renamed((wait,))[0].replace(LONG, shown(LONG)), renamed((answer,))[0]) for wait, answer in NIGHT_WALK]
    typed = [answer.lstrip("\x15") for _, answer in walk]
    lines: list[str] = []
    for wait, answer in walk:
        child.expect_exact(wait)
        lines += printed(child, typed)
        child.sendline(answer)
    child.expect(pexpect.EOF)
    lines += printed(child, typed)
    child.close()
    assert child.exitstatus == 0, "\n".join(lines)
    assert "Recorded: hand 12 of friday" in " ".join(" ".join(lines).split()), "\n".join(lines)
    wide = [f"{cell_len(line):3}: {line}" for line in lines if cell_len(line) > 80]
    assert not wide, "\n".join(wide)
    names_shown("\n".join(lines), rulebook=True)  # "? who deals first" quotes rule A3


#: the commands owned elsewhere whose options still lack a metavar (reported; the lead merges)
METAVAR_PENDING: tuple[str, ...] = ()


@pytest.mark.parametrize("args", [p.values[1] for p in HELPS], ids=[p.id for p in HELPS])
def test_every_option_and_argument_has_a_real_metavar(args):
    """No ``<str>``, ``<parse>`` (typer's fallbacks) nor ``{hand}`` / ``{FILE}`` in any --help."""
    if args[0] in METAVAR_PENDING:
        pytest.skip(f"ref {args[0]} is another engineer's file (issue 14, item 9)")
    import re

    shown = ref(*args).stdout
    assert not re.findall(r"<\w+>|\{\w+\}", shown), shown


def test_a_long_reason_hangs_under_its_indent_and_fits(record, monkeypatch):
    """A correction's reason (up to 500 characters, one word or many) is wrapped under its
    indent in ``ref history``, and a word wider than the line is cut to it."""
    monkeypatch.setenv("COLUMNS", "80")
    for console in (common.out, common.err):  # created at import, with the width of that moment
        monkeypatch.setattr(console, "_width", 80)
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *HAND_BEN_DEALS).exit_code == 0
    words = " ".join(["miscounted"] * 40)
    assert ref("amend", "1", *HAND_BEN_DEALS[:-1], "Larry=21", "--reason", words).exit_code == 0
    assert ref("amend", "1", *HAND_BEN_DEALS, "--reason", "x" * 500).exit_code == 0
    lines = ref("history").stdout.splitlines()
    assert [line for line in lines if cell_len(line) > 80] == []
    start = next(i for i, line in enumerate(lines) if line.startswith("    reason: miscounted"))
    assert lines[start + 1].startswith("      miscounted")  # hanging under the reason's text
    assert "".join(line.strip() for line in lines if set(line.strip()) == {"x"}) == "x" * 500


def test_a_long_question_of_the_night_shell_has_its_own_lines(tmp_path):
    """With a long name the question would leave no room to type on its line: it is printed on
    lines of its own, within the width, and the answer follows a short ``> ``."""
    db = str(tmp_path / "long.db")
    name = "Christopher Columbus"
    env = dict(os.environ, COLUMNS="80", RUMMYREF_NOW=NOW, RUMMYREF_DB=db)
    import subprocess

    subprocess.run([sys.executable, "-m", "rummyref", "new-session", "--players", f"{name},Ben,Larry"],
                   env=env, check=True, capture_output=True)
    child = night_at(80, db)
    child.expect_exact("night> ")
    child.sendline("cards")
    child.expect_exact(f"{name} melded or laid off")
    child.expect_exact("> ")
    lines = printed(child, [])
    child.sendline("? who deals")  # a ruling asked at the prompt: the question is asked again
    child.expect_exact(f"{name} melded or laid off")
    child.expect_exact("> ")
    child.sendline("7S 7H 7D")
    child.expect_exact(f"{name} left in hand")
    child.close(force=True)  # nothing recorded
    assert all(cell_len(line) <= 80 for line in lines), lines
    assert any(line.endswith("blank: none):") for line in lines), lines  # the question, whole, then "> "


def test_a_dispute_in_a_game_of_a_long_name_fits(record, monkeypatch):
    """A game's name may be 100 characters without a space: the dispute's "From the record"
    line and the stderr line that keeps the precedent show it cut, head and tail."""
    for console in (common.out, common.err):
        monkeypatch.setattr(console, "_width", 80)
    game = "G" * 100
    assert ref("new-session", "--game", game).exit_code == 0
    for args in (("end-night",), ("claim", "--called", "Bill,Ben", "--touched", "Bill,Ben")):
        r = ref("dispute", *args)
        assert r.exit_code == 0, r.stderr
        assert [line for line in (r.stdout + r.stderr).splitlines() if cell_len(line) > 80] == []
        assert "GGG…GGG" in r.stdout + r.stderr
