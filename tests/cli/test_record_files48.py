"""Audit record-files (stop 48): the record as a file on disk. A seal checked on a record its
games were merged into (#3); a --db that is a symbolic link (#4); --overwrite onto a named pipe
or a symlink, and backups onto the record's -wal through a link (#5, #6); a newer export of a
game already in the record (#8); a killed backup's leftovers (#9); wording (#10). Real files,
real processes where the audit used them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import ref, ref_subprocess

pytestmark = pytest.mark.sqlite_only("the record's files themselves")


def said(text: str) -> str:
    return " ".join(text.split())


class Ran:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run(*args: str, db: Path | str | None = None, real: bool = False) -> Ran:
    """``ref ARGS`` in this process, or (``real``) in a process of its own."""
    full = (*(("--db", str(db)) if db is not None else ()), *args)
    if real:
        p = ref_subprocess(*full)
        return Ran(p.returncode, p.stdout, p.stderr)
    r = ref(*full)
    return Ran(r.exit_code, r.stdout, r.stderr)


def seal_of(db: Path) -> str:
    r = ref("--db", str(db), "verify", "--json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)["seal"]


# -- #3: a seal after a merge ------------------------------------------------------------------


def test_a_seal_still_matches_once_its_game_is_merged_into_a_record_with_another_game(tmp_path):
    club, home = tmp_path / "club.db", tmp_path / "home.db"
    assert ref("--db", str(club), "new-session", "--game", "club", "--players", "X,Y").exit_code == 0
    assert ref("--db", str(home), "new-session", "--game", "home", "--players", "Ann,Bob").exit_code == 0
    assert ref("--db", str(home), "score-hand", "--points", "Ann=3", "--points", "Bob=4").exit_code == 0
    sealed = seal_of(home)
    assert ref("--db", str(home), "export", "-o", str(tmp_path / "home.json")).exit_code == 0
    assert ref("--db", str(club), "import", str(tmp_path / "home.json")).exit_code == 0
    r = ref("--db", str(club), "verify", "--seal", sealed)
    assert r.exit_code == 0, r.stdout + r.stderr
    assert f"It contains the state sealed {sealed}." in r.stdout
    # the merged record grows on: still contains it; a seal it never had is still refused
    assert ref("--db", str(club), "score-hand", "--game", "home", "--points", "Ann=1", "--points", "Bob=2").exit_code == 0
    assert ref("--db", str(club), "score-hand", "--game", "club", "--points", "X=1", "--points", "Y=2").exit_code == 0
    assert ref("--db", str(club), "verify", "--seal", sealed).exit_code == 0
    assert ref("--db", str(club), "verify", "--seal", "7K2M-QX4P-9D").exit_code == 8


def test_a_seal_of_two_games_merged_later_into_a_record_still_matches(tmp_path):
    """The sealed record's two games were written in the same second, interleaved; the merge
    puts one game's rows after the other's: every order within the second is tried."""
    home, club = tmp_path / "home.db", tmp_path / "club.db"
    d = ("--db", str(home))
    assert ref(*d, "new-session", "--game", "a", "--players", "Ann,Bob").exit_code == 0
    assert ref(*d, "new-session", "--game", "b", "--ruleset", "simple-rummy", "--players", "Cy,Dee").exit_code == 0
    assert ref(*d, "score-hand", "--game", "a", "--points", "Ann=3", "--points", "Bob=4").exit_code == 0
    sealed = seal_of(home)
    assert ref(*d, "score-hand", "--game", "a", "--points", "Ann=3", "--points", "Bob=4").exit_code == 0
    assert ref("--db", str(club), "new-session", "--game", "club", "--players", "X,Y").exit_code == 0
    assert ref(*d, "export", "-o", str(tmp_path / "h.json")).exit_code == 0
    assert ref("--db", str(club), "import", str(tmp_path / "h.json")).exit_code == 0
    assert ref("--db", str(club), "verify", "--seal", sealed).exit_code == 0


def test_a_seal_printed_before_this_change_still_verifies_on_its_own_record(tmp_path):
    """The seal itself is unchanged: a code an earlier ref printed (computed here as it did,
    over every game's head) still matches the unmerged record, at every state of its log."""
    from rummyref.chain import seal

    db = tmp_path / "r.db"
    assert ref("--db", str(db), "new-session", "--players", "Ann,Bob").exit_code == 0
    con = __import__("sqlite3").connect(db)
    rows = con.execute("SELECT g.name, e.seq, e.hash FROM entry e JOIN game g ON g.id = e.game_id "
                       "ORDER BY e.id").fetchall()
    con.close()
    early = seal({rows[-1][0]: (rows[-1][1], rows[-1][2])})
    assert ref("--db", str(db), "score-hand", "--points", "Ann=1", "--points", "Bob=2").exit_code == 0
    assert ref("--db", str(db), "verify", "--seal", early).exit_code == 0


# -- #4: --db through a symbolic link ------------------------------------------------------------


def test_a_dangling_link_is_created_through_by_every_command_that_starts_a_record(tmp_path):
    for i, command in enumerate((["new-session", "--players", "Ann,Bob"], ["upgrade"], ["import", "EXPORT"])):
        link, target = tmp_path / f"link{i}.db", tmp_path / f"real{i}.db"
        link.symlink_to(target)
        if command[0] == "import":
            src = tmp_path / "src.db"
            assert run("new-session", "--players", "Ann,Bob", db=src).returncode == 0
            assert run("export", "-o", str(tmp_path / "e.json"), db=src).returncode == 0
            command = ["import", str(tmp_path / "e.json")]
        r = run(*command, db=link)
        assert r.returncode == 0, r.stderr
        assert "same moment" not in r.stderr
        assert link.is_symlink() and os.readlink(link) == str(target)
        assert target.is_file() and target.stat().st_size > 0
        assert run("standings", db=link).returncode in (0, 5)  # upgrade makes a record with no game yet
        assert run("verify", db=link).returncode == 0


def test_a_night_through_a_dangling_link_starts_the_record_in_its_target(tmp_path):
    link, target = tmp_path / "rummy.db", tmp_path / "real.db"
    link.symlink_to(target)
    r = subprocess.run([sys.executable, "-m", "rummyref", "--db", str(link), "night", "--players", "Ann,Bob"],
                       input="end\n", capture_output=True, text=True, timeout=60)
    assert "same moment" not in r.stderr
    assert link.is_symlink() and target.is_file()
    assert run("verify", db=link).returncode == 0


def test_a_link_to_an_empty_file_gets_the_record_in_the_file_and_is_kept(tmp_path):
    synced = tmp_path / "synced"
    synced.mkdir()
    (synced / "rummy.db").write_bytes(b"")
    link = tmp_path / "home.db"
    link.symlink_to(Path("synced") / "rummy.db")
    r = run("new-session", "--players", "Ann,Bob", db=link)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink()
    assert (synced / "rummy.db").stat().st_size > 0
    assert run("verify", db=synced / "rummy.db").returncode == 0


def test_a_link_into_a_missing_folder_is_refused_naming_the_link(tmp_path):
    link = tmp_path / "r.db"
    link.symlink_to(tmp_path / "nowhere" / "x.db")
    r = run("new-session", "--players", "Ann,Bob", db=link)
    assert r.returncode == 6
    assert "is a symbolic link to" in said(r.stderr) and "whose folder does not exist" in said(r.stderr)
    assert not (tmp_path / "nowhere").exists() and link.is_symlink()


# -- #5, #6: what --overwrite and backup write onto ------------------------------------------------


@pytest.fixture
def rec(tmp_path) -> Path:
    db = tmp_path / "r.db"
    assert ref("--db", str(db), "new-session", "--players", "Ann,Bob").exit_code == 0
    return db


@pytest.mark.parametrize("command", [["export", "-o"], ["backup"]])
def test_overwrite_never_replaces_a_named_pipe(rec, tmp_path, command):
    pipe = tmp_path / "out.pipe"
    os.mkfifo(pipe)
    r = run(*command, str(pipe), "--overwrite", db=rec, real=True)
    assert r.returncode == 4, r.stderr
    assert "is a named pipe (FIFO), not a regular file" in said(r.stderr)
    assert "nothing was written" in said(r.stderr)
    assert pipe.is_fifo()


@pytest.mark.parametrize("command", [["export", "-o"], ["backup"]])
def test_overwrite_writes_through_a_symbolic_link_and_keeps_it(rec, tmp_path, command):
    target, link = tmp_path / "target.out", tmp_path / "latest.out"
    target.write_text("old\n")
    link.symlink_to("target.out")
    r = run(*command, str(link), "--overwrite", db=rec)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == "target.out"
    assert target.read_bytes() != b"old\n" and target.stat().st_size > 100
    assert run(*command, str(link), db=rec).returncode == 4  # without --overwrite: it exists


@pytest.mark.parametrize("dest", ["r.db-wal", "r.db-shm", "r.db-journal", "link.db-wal", "R.DB-WAL"])
def test_backup_never_onto_the_records_files_through_a_linked_db(rec, tmp_path, dest):
    link = tmp_path / "link.db"
    link.symlink_to("r.db")
    r = run("backup", str(tmp_path / dest), db=link)
    assert r.returncode == 4, r.stderr
    assert "is the record itself (or one of its files)" in said(r.stderr)
    assert not (tmp_path / dest).exists()


def test_backup_never_onto_a_link_to_the_records_wal(rec, tmp_path):
    (tmp_path / "lwal").symlink_to("r.db-wal")
    r = run("backup", str(tmp_path / "lwal"), "--overwrite", db=rec)
    assert r.returncode == 4 and "is the record itself" in said(r.stderr)
    assert not (tmp_path / "r.db-wal").exists()


# -- #8: a newer export of a game already in the record ------------------------------------------


def test_a_newer_export_of_the_same_game_is_said_to_continue_it(tmp_path):
    laptop, server = tmp_path / "laptop.db", tmp_path / "server.db"
    d = ("--db", str(laptop))
    assert ref(*d, "new-session", "--players", "Ann,Bob,Cy").exit_code == 0
    assert ref(*d, "score-hand", "--points", "Ann=1", "--points", "Bob=2", "--points", "Cy=3").exit_code == 0
    assert ref(*d, "export", "-o", str(tmp_path / "week1.json")).exit_code == 0
    assert ref("--db", str(server), "import", str(tmp_path / "week1.json")).exit_code == 0
    assert ref(*d, "score-hand", "--points", "Ann=1", "--points", "Bob=2", "--points", "Cy=3").exit_code == 0
    assert ref(*d, "export", "-o", str(tmp_path / "week2.json")).exit_code == 0
    before = server.read_bytes()
    r = ref("--db", str(server), "import", str(tmp_path / "week2.json"))
    assert r.exit_code == 7
    text = said(r.stderr)
    assert "contradicts" not in text and "different log" not in text
    assert ("continues game rummy-2m: the record already holds 3 entries of this game, and the file the same 3 "
            "followed by 1 more; ref import does not add entries to a game already in a record; nothing was "
            "written") in text
    assert "import it into a new database" in text
    assert server.read_bytes() == before


# -- #9: a killed backup's leftovers ---------------------------------------------------------------


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_a_later_backup_removes_the_copies_a_killed_one_left(rec, tmp_path):
    dead = _dead_pid()
    left = [tmp_path / f".b1.db.partial-{dead}{end}" for end in ("", "-wal", "-shm")]
    left.append(tmp_path / f".dated-2026.db.partial-{dead}")
    for f in left:
        f.write_bytes(b"x" * 100)
    alive = tmp_path / f".b1.db.partial-{os.getpid()}"  # a backup still running: kept
    alive.write_bytes(b"y")
    theirs = tmp_path / "notes.partial-1"  # not a name ref gives
    theirs.write_bytes(b"z")
    r = run("backup", str(tmp_path / "b2.db"), db=rec, real=True)
    assert r.returncode == 0, r.stderr
    assert [f for f in left if f.exists()] == []
    assert alive.exists() and theirs.exists()


# -- #10: wording ------------------------------------------------------------------------------------


def test_importing_an_empty_file_says_it_is_empty(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    r = ref("--db", str(tmp_path / "r.db"), "import", str(empty))
    assert r.exit_code == 3
    assert said(r.stderr).startswith(f"error: {empty} is empty: it holds no JSON")
    assert "$" not in r.stderr
    assert not (tmp_path / "r.db").exists()


@pytest.mark.skipif(not Path("/proc/version").exists(), reason="no /proc")
def test_a_system_file_whose_size_reads_0_is_not_called_empty():
    r = run("standings", db="/proc/version")
    assert r.returncode == 6
    assert "empty file" not in r.stderr and "may start a record" not in r.stderr
    assert "a file the system makes (its size reads 0, but it is not empty)" in said(r.stderr)


def test_a_night_closed_by_another_terminal_is_called_a_rummy_night(tmp_path):
    import pexpect
    from cli_helpers import as_at_a_terminal

    db = tmp_path / "r.db"
    env = dict(os.environ, COLUMNS="100", TERM="dumb", NO_COLOR="1")
    child = pexpect.spawn(sys.executable, ["-m", "rummyref", "--db", str(db), "night", "--players", "Ann,Bob"],
                          env=env, encoding="utf-8", timeout=30, dimensions=(50, 100), preexec_fn=as_at_a_terminal)
    child.expect_exact("night> ")
    closed = run("end-session", db=db, real=True)
    assert closed.returncode == 0, closed.stderr
    child.sendline("end")
    child.expect(pexpect.EOF)
    text = said(child.before.replace("\r\n", "\n"))
    child.close()
    assert "The session of" not in text
    assert "Rummy Night 1 of rummy-2m is closed." in text


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder on a read-only mount (a bind mount of a folder of the test's, remounted
    read-only): needs root; skipped where it cannot be made."""
    src, ro = tmp_path / "src", tmp_path / "ro"
    src.mkdir()
    ro.mkdir()
    if subprocess.run(["mount", "--bind", str(src), str(ro)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here (not root)")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(ro)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only here")
        yield ro
    finally:
        subprocess.run(["umount", str(ro)], capture_output=True)


def test_a_new_record_on_a_read_only_disk_is_said_to_be_on_one(read_only_folder):
    r = run("new-session", "--players", "Ann,Bob", db=read_only_folder / "new.db")
    assert r.returncode == 6
    assert "its folder is on a read-only disk; nothing was changed" in said(r.stderr)
    assert "permission denied" not in r.stderr
