"""Bad input refused, nothing lost by a slip (issue 13): bounded numbers, the --db path,
passwords never shown, export and backup never onto the record, CSV cells a spreadsheet
cannot run, files that are not a record left alone, and a refused first write that leaves no
file. Every refusal here is checked at the CLI, with the record byte for byte as it was."""

from __future__ import annotations

import csv
import io
import os
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummyref.bounds import HAND_POINTS, OPENING, TOTAL, Bound, bounded_int
from rummyref.errors import UnreadableInput
from rummyref.store.migrations import LATEST

BIG = [str(-(2**63)), str(2**63), str(10**20), "9" * 10_000]
POINTS = ["--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3"]


def said(r) -> str:
    return " ".join(r.stderr.split())


@pytest.fixture
def night(record):
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    return record


def refused(record, code: int, *args: str, input: str | None = None):
    before = record.snapshot()
    r = ref(*args, input=input)
    assert r.exit_code == code, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert record.snapshot() == before, "a refusal wrote to the record"
    return r


# -- numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", BIG)
@pytest.mark.parametrize("args, what", [
    (["score-hand", "--points", "Bill={}", "--points", "Ben=0", "--points", "Larry=0"], "Bill's points"),
    (["new-session", "--game", "paper", "--opening", "Ann={}", "--players", "Ann,Bob"], "--opening Ann"),
    (["new-session", "--game", "w", "--wildcards", "{}"], "--wildcards"),
    (["new-session", "--game", "s", "--ruleset", "simple-rummy", "--players", "A,B", "--cards", "{}"], "--cards"),
    (["void", "{}", "--reason", "x"], "HAND"),
    (["amend", "{}", "--reason", "x", *POINTS], "HAND"),
    (["rulings", "--session", "{}"], "--session"),
    (["history", "--session", "{}"], "--session"),
    (["dispute", "end-night", "--hands", "{}", "--no-record"], "--hands"),
    (["chart", "--width", "{}"], "--width"),
])
def test_every_number_typed_is_bounded_and_refused_with_exit_3(night, args, what, value):
    args = [a.format(value) for a in args]
    tries = [args]
    if value.startswith("-") and args[0] in ("void", "amend"):
        # as typed (`ref amend -1`: not an unknown option), and after --
        tries.append([args[0], *args[2:], "--", value])
    for typed in tries:
        r = refused(night, 3, *typed)
        assert f"{what}:" in said(r) and "out of range" in said(r)
        assert len(r.stderr) < 400  # a 10,000-digit number is not echoed whole


@pytest.mark.parametrize("args", [["amend", "-1", "--reason", "x", *POINTS], ["void", "-2", "--reason", "x"],
                                  ["void", "--reason", "x", "-1,000"]])
def test_a_negative_hand_number_is_out_of_range_not_an_unknown_option(night, args):
    r = refused(night, 3, *args)
    assert said(r).startswith("error: HAND: -") and "give 1 to 1,000,000,000" in said(r)
    assert "No such option" not in r.stderr


@pytest.mark.parametrize("args", [["void", "-x", "--reason", "x"], ["history", "-1"]])
def test_other_unknown_options_stay_usage_errors(night, args):
    assert "No such option" in refused(night, 2, *args).stderr


def test_the_limits_themselves_are_accepted_one_past_them_refused(night):
    ok = ref_json("score-hand", "--points", "Bill=10,000", "--points", "Ben=-10000", "--points", "Larry=0")
    assert ok["totals"]["Bill"] == 10_001
    refused(night, 3, "score-hand", "--points", "Bill=10001", "--points", "Ben=0", "--points", "Larry=0")
    assert ref("new-session", "--game", "paper", "--players", "Ann,Bob", "--opening", f"Bob={-10**9}").exit_code == 0


def test_a_number_that_is_not_one_stays_a_usage_error(night):
    r = refused(night, 2, "new-session", "--game", "w", "--wildcards", "x")
    assert "Invalid value for '--wildcards'" in r.stderr


def test_an_answer_at_the_prompt_is_bounded_and_asked_again(night, monkeypatch):
    """The same reader serves ``score-hand`` at a terminal and ``ref night`` (PointsForm)."""
    from cli_helpers import ref as run

    from rummyref.games.long.form import PointsForm

    monkeypatch.setenv("RUMMYREF_INTERACTIVE", "1")
    r = run("score-hand", "--points", "Bill=5", "--json", input=f"{10**20}\n-7\n12\n\n")
    assert r.exit_code == 0, r.stderr
    assert "Ben's points: 100000000000000000000 is out of range" in said(r)
    assert {p["name"]: p["total"] for p in ref_json("standings")["players"]}["Ben"] == 2 - 7
    form = PointsForm.__new__(PointsForm)
    with pytest.raises(UnreadableInput, match="out of range"):
        form.read(("points", "Bill"), str(2**63))


@settings(max_examples=300, deadline=None)
@given(n=st.one_of(st.integers(-(10**25), 10**25), st.sampled_from([-(2**63), 2**63 - 1, 2**63, 0, 10_000, 10_001])),
       style=st.sampled_from(["{}", "{:,}", "{:_}", " {} ", "+{}"]),
       bound=st.sampled_from([HAND_POINTS, OPENING, TOTAL, Bound(1, 10**9, "", "")]))
def test_bounded_int_agrees_with_the_plain_comparison(n, style, bound):
    text = style.format(n) if not (style == "+{}" and n < 0) else str(n)
    if lo_ok := bound.lo <= n <= bound.hi:
        assert bounded_int(text, "x", bound) == n
    else:
        with pytest.raises(UnreadableInput, match="out of range"):
            bounded_int(text, "x", bound)
    assert lo_ok == (bound.lo <= n <= bound.hi)


@pytest.mark.parametrize("text", ["", "-", "1e3", "1.5", "0x10", "١٢", "12a", "--5", "nan"])
def test_text_that_is_no_whole_number_is_refused(text):
    with pytest.raises(UnreadableInput, match="not a whole number"):
        bounded_int(text, "Bill's points", HAND_POINTS)


@pytest.mark.parametrize(("text", "n"), [("1,000", 1000), ("2,000,000", 2_000_000), ("-1,000", -1000),
                                         ("1_000", 1000), ("+12,345", 12345), ("100", 100), ("0,100", 100)])
def test_thousands_well_grouped_are_read(text, n):
    assert bounded_int(text, "--opening Bill", OPENING) == n


@pytest.mark.parametrize("text", ["1,0", "10,00", "1,0000", "1,000_000", "1,,000", "1,", "10_0", "-1,00"])
def test_thousands_badly_grouped_are_refused(text):
    with pytest.raises(UnreadableInput, match="groups of three digits") as refusal:
        bounded_int(text, "--opening Bill", OPENING)
    assert refusal.value.message.startswith(f"--opening Bill: {text!r} ")


@pytest.mark.parametrize("argv", [("--wildcards", "1,0"), ("--wildcards", "10,00"), ("--opening", "Bill=1,0")])
def test_a_badly_grouped_number_on_the_command_line_is_refused_exit_3(record, argv):
    r = refused(record, 3, "new-session", "--players", "Bill,Ben", *argv)
    name = argv[0] + (" Bill" if argv[0] == "--opening" else "")
    assert f"{name}: {argv[1].partition('=')[2] or argv[1]!r} is not a whole number" in said(r)


def test_a_house_rule_set_whose_deck_is_worth_too_much_is_refused(record, tmp_path):
    from rummyref.rules.ruleset import builtin_path

    house = tmp_path / "house.toml"
    house.write_text(builtin_path("rummy-2m").read_text().replace("{ A = 15,", "{ A = 5000,"))
    assert "A = 5000" in house.read_text()
    r = refused(record, 3, "new-session", "--ruleset", str(house))
    assert "the whole deck is worth" in said(r) and "at most 10,000" in said(r)


# -- the --db path ---------------------------------------------------------------------------


def test_a_path_of_10000_characters_or_with_nul_is_refused(record):
    r = refused(record, 3, "standings", "--db", "a" * 10_000)
    assert "--db is 10,000 characters long" in said(r)
    r = refused(record, 3, "new-session", "--db", "ref\x00.db")
    assert "NUL" in said(r)


@pytest.mark.sqlite_only("a file name")
def test_a_file_name_too_long_for_the_file_system_is_a_storage_error(tmp_path):
    for command in ("standings", "new-session"):
        r = ref(command, "--db", str(tmp_path / ("x" * 300) / "ref.db"))
        assert r.exit_code == 6 and "File name too long" in said(r), r.stderr
    assert list(tmp_path.iterdir()) == []


# -- passwords -------------------------------------------------------------------------------

SECRET = "Sw0rdf1sh-9"
URLS = [
    f"postgresql://alice:{SECRET}@127.0.0.1:1/club",
    f"postgresql://alice@127.0.0.1:1/club?password={SECRET}",
    f"postgresql://alice@127.0.0.1:1/club?sslmode=disable&password={SECRET}&connect_timeout=2",
    f"postgresql://alice:{SECRET[:4]}@{SECRET[4:]}@127.0.0.1:1/club",  # an unencoded @
    f"postgresql://alice:{SECRET[:4]}%40{SECRET[4:]}@127.0.0.1:1/club",  # the same, encoded
    f"postgres://alice:{SECRET[:4]}?{SECRET[4:]}@127.0.0.1:1/club",  # an unencoded ?
    f"postgres://alice:{SECRET[:4]}%2F{SECRET[4:]}@127.0.0.1:1/club",  # an encoded /
]


def _pieces(url: str) -> list[str]:
    """The password and every piece of it a parser could cut it into."""
    from urllib.parse import unquote

    return [SECRET, SECRET[:4], SECRET[4:], unquote(SECRET)] if SECRET[:4] in url else [SECRET]


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("args", [["standings", "--db", "{}"], ["--db", "{}", "history"], ["backup", "--db", "{}", "x.db"],
                                  ["dispute", "end-night", "--db", "{}"], ["--db", "{}", "--help"],
                                  ["new-session", "--db", "{}"]])
def test_a_password_never_appears_in_any_message(url, args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = ref(*[a.format(url) for a in args])
    assert r.exit_code in (0, 5, 6), r.stdout + r.stderr
    shown = r.stdout + r.stderr
    for piece in _pieces(url):
        assert piece not in shown, shown
    assert "Traceback" not in shown and "internal error" not in shown
    if r.exit_code and args[0] != "backup" and "needs the psycopg driver" not in said(r):
        assert "127.0.0.1" in said(r)  # the server is named, its password is not


def test_the_unencoded_at_reaches_the_server_as_the_password(monkeypatch):
    from rummyref.store.location import resolve

    assert resolve("postgresql://a:p@ss@h:5/db").endswith("a:p%40ss@h:5/db")
    assert resolve("postgresql://a:p%40ss@h:5/db").endswith("a:p%40ss@h:5/db")  # already encoded: as is
    assert resolve("postgresql://a@h:5/db?options=-csearch_path%3Dx") == "postgresql+psycopg://a@h:5/db?options=-csearch_path%3Dx"


@settings(max_examples=200, deadline=None)
@given(password=st.text(alphabet="abcXYZ0189@:/?&=%#+ !$", min_size=8, max_size=20),
       form=st.sampled_from(["userinfo", "query", "encoded"]))
def test_shown_and_redact_hide_any_password(password, form):
    from urllib.parse import quote

    from rummyref.store.location import redact, resolve, shown

    assume(not any(part in password for part in ("alice", "db.example", "club")))
    assume(not password.startswith("&") and "&" not in password.replace("&", "", 1) or form != "query")
    url = {"userinfo": f"postgresql://alice:{password}@db.example:5432/club",
           "query": f"postgresql://alice@db.example:5432/club?password={password}",
           "encoded": f"postgresql://alice:{quote(password, safe='')}@db.example:5432/club"}[form]
    try:
        resolved = resolve(url)
    except UnreadableInput:
        return
    for text in (shown(resolved), redact(f"cannot connect to {resolved}: failed", resolved)):
        assert password not in text and quote(password, safe="") not in text, text
        assert "db.example" in text


# -- export and backup: never onto the record -------------------------------------------------


@pytest.mark.sqlite_only("the record's own file")
@pytest.mark.parametrize("spelling", ["same", "dotdot", "symlink", "hardlink", "wal", "shm", "upper-wal"])
@pytest.mark.parametrize("command", [["export", "-o"], ["export", "--overwrite", "-o"], ["backup", "--overwrite"]])
def test_export_or_backup_onto_the_record_is_always_refused(night, db_path, tmp_path, spelling, command):
    target = {"same": db_path, "dotdot": tmp_path / "sub" / ".." / db_path.name, "symlink": tmp_path / "link.db",
              "hardlink": tmp_path / "hard.db", "wal": Path(f"{db_path}-wal"), "shm": Path(f"{db_path}-shm"),
              "upper-wal": Path(f"{db_path}-WAL")}[spelling]
    (tmp_path / "sub").mkdir()
    if spelling == "symlink":
        target.symlink_to(db_path)
    if spelling == "hardlink":
        os.link(db_path, target)
    r = refused(night, 4, *command, str(target))
    assert "is the record itself" in said(r) and "nothing was written" in said(r)
    assert ref("verify").exit_code == 0


@pytest.mark.parametrize("command", ["export", "backup"])
def test_an_existing_file_is_replaced_only_with_overwrite(night, tmp_path, command, monkeypatch):
    if command == "backup" and night.on_pg:
        pytest.skip("ref backup copies a SQLite file")
    other = tmp_path / "keep.txt"
    other.write_text("my notes")
    args = ["export", "-o"] if command == "export" else ["backup"]
    r = refused(night, 4, *args, str(other))
    assert "already exists" in said(r) and "--overwrite" in said(r)
    assert other.read_text() == "my notes"
    flag = "--force" if command == "export" else "--overwrite"
    assert ref(*args[:1], flag, *args[1:], str(other)).exit_code == 0
    assert other.read_bytes() != b"my notes"
    assert not [p for p in tmp_path.iterdir() if ".partial-" in p.name]


# -- CSV -------------------------------------------------------------------------------------


@pytest.mark.parametrize("value, cell", [("=1+1", "'=1+1"), ("+Bob", "'+Bob"), ("-Cy", "'-Cy"), ("@SUM(A1)", "'@SUM(A1)"),
                                         ("\tx", "'\\tx"), ("\rx", "'\\rx"), ("Ann", "Ann"), (-10, -10), (0, 0),
                                         (None, ""), ("Ann\x1b[31m", "Ann\\x1b[31m")])  # a control character: escaped
def test_csv_cells_that_a_spreadsheet_would_run_are_escaped(value, cell):
    from rummyref.store.transfer import csv_cell

    assert csv_cell(value) == cell


def test_csv_export_escapes_names_but_keeps_negative_numbers(record):
    assert ref("new-session", "--game", "@home", "--players", "@Ann,+Bob,-Cy").exit_code == 0
    assert ref("score-hand", "--game", "@home", "--points", "@Ann=-10", "--points", "+Bob=5",
               "--points", "-Cy=0").exit_code == 0
    text = ref("export", "--format", "csv").stdout
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][-3:] == ["'@Ann", "'+Bob", "'-Cy"]
    hand = next(r for r in rows if r[5] == "hand")
    assert hand[0] == "'@home" and hand[-3:] == ["-10", "5", "0"]  # numbers stay numbers
    assert not any(c and c[0] in "=+-@\t\r" and not c.lstrip("-").isdigit() for r in rows for c in r)


# -- files that are not a record --------------------------------------------------------------

READERS = [["standings"], ["history"], ["verify"], ["stats"], ["chart"], ["rulings"], ["export"],
           ["backup", "copy.db"], ["score-hand", *POINTS], ["end-session"], ["void", "1", "--reason", "x"]]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def _foreign(path: Path, wal: bool) -> None:
    con = sqlite3.connect(path)
    if wal:
        con.execute("PRAGMA journal_mode = WAL")
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.execute("INSERT INTO recipes VALUES ('soup')")
    con.commit()
    con.close()


@pytest.mark.sqlite_only("the file itself")
@pytest.mark.parametrize("kind", ["empty", "foreign", "foreign-wal", "text", "folder"])
@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
def test_a_command_on_a_file_that_is_not_a_record_leaves_it_as_it_was(tmp_path, monkeypatch, kind, args):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "club.db"
    if kind == "empty":
        target.touch()
    elif kind == "text":
        target.write_text("shopping list\n")
    elif kind == "folder":
        target.mkdir()
    else:
        _foreign(target, kind == "foreign-wal")
    before = _files(tmp_path)
    r = ref(*args, "--db", str(target))
    assert r.exit_code == 6, r.stdout + r.stderr
    assert "not a ref record" in said(r) and "left as it was" in said(r)
    assert _files(tmp_path) == before  # byte for byte, and no -wal/-shm/journal beside it
    if kind.startswith("foreign"):
        con = sqlite3.connect(target)
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == ("wal" if kind == "foreign-wal" else "delete")
        assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["recipes"]
        con.close()


@pytest.mark.sqlite_only("the file itself")
@pytest.mark.parametrize("kind", ["foreign", "foreign-wal", "text", "folder"])
def test_upgrade_never_writes_a_schema_into_a_file_that_is_not_ours(tmp_path, kind):
    target = tmp_path / "club.db"
    if kind == "text":
        target.write_text("shopping list\n")
    elif kind == "folder":
        target.mkdir()
    else:
        _foreign(target, kind == "foreign-wal")
    before = _files(tmp_path)
    r = ref("upgrade", "--db", str(target))
    assert r.exit_code == 6 and r.stdout == ""
    assert "club.db" in said(r) and "not a ref record" in said(r) and "left as it was" in said(r)
    assert _files(tmp_path) == before
    assert ref("new-session", "--db", str(target)).exit_code == 6  # and so it stays not ours


@pytest.mark.sqlite_only("the file itself")
def test_upgrade_makes_a_record_of_a_new_or_empty_file(tmp_path):
    empty = tmp_path / "empty.db"
    empty.touch()
    for db in (empty, tmp_path / "new.db"):
        assert ref_json("upgrade", "--db", str(db)) == {"schema_version": LATEST, "was": 0}
        assert ref_json("upgrade", "--db", str(db)) == {"schema_version": LATEST, "was": LATEST}


@pytest.mark.sqlite_only("the file itself")
def test_a_write_command_starts_a_record_in_an_empty_file_never_in_a_foreign_one(tmp_path):
    empty, foreign = tmp_path / "empty.db", tmp_path / "foreign.db"
    empty.touch()
    _foreign(foreign, False)
    before = foreign.read_bytes()
    assert ref("new-session", "--db", str(foreign)).exit_code == 6
    assert foreign.read_bytes() == before
    assert ref("new-session", "--db", str(empty), "--players", "Ann,Ann").exit_code == 3
    assert empty.read_bytes() == b""  # a refused first write: still the empty file
    assert ref("new-session", "--db", str(empty)).exit_code == 0
    assert ref_json("standings", "--db", str(empty))["open_night"] == 1  # a night with no hand is no Rummy Night (SPEC §8)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db", "foreign.db"]


@pytest.mark.sqlite_only("the file itself")
@pytest.mark.parametrize("args", [["new-session", "--players", "Ann,Ann"], ["new-session", "--ruleset", "nope"],
                                  ["new-session", "--wildcards", "3"], ["new-session", "--opening", "Zed=5"],
                                  ["import", "missing.json"]])
def test_a_refused_first_write_leaves_no_file_and_no_folder(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "new" / "deeper" / "ref.db"
    r = ref(*args, "--db", str(db))
    assert r.exit_code in (3, 4, 5), r.stdout + r.stderr
    assert list(tmp_path.iterdir()) == []  # no file, no -wal/-shm, no temporary, no folder


@pytest.mark.sqlite_only("the file itself")
def test_a_first_write_that_succeeds_leaves_only_the_record(tmp_path):
    db = tmp_path / "made" / "ref.db"
    assert ref("new-session", "--db", str(db)).exit_code == 0
    assert [p.name for p in db.parent.iterdir()] == ["ref.db"]
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    assert ref("score-hand", "--db", str(db), *POINTS).exit_code == 0
    assert ref("verify", "--db", str(db)).exit_code == 0
