"""An option given twice is never dropped silently (audit r2m, items 1 and 2): an option that
takes one value, given twice, is refused (exit 3) by every command, naming the option; a
repeatable option given twice for the same player is refused the same way (``--points``,
``--held``, ``--opening``, ``--first-dealer``). Nothing is written, and no record is created."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import ref

POINTS = ["--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3"]


@pytest.fixture
def night(record):
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", *POINTS).exit_code == 0
    return record


def refused(record, *args: str) -> list[str]:
    before = record.snapshot() if record.exists() else None
    r = ref(*args)
    assert r.exit_code == 3, r.stdout + r.stderr
    assert r.stdout == "" and "Traceback" not in r.stderr
    assert (record.snapshot() if record.exists() else None) == before, "a refusal wrote to the record"
    return r.stderr.splitlines()


def test_two_players_out_is_refused_not_the_last_one_kept(night):
    """The audit's case: only one player goes out; --out Ben --out Bill recorded Bill."""
    assert refused(night, "score-hand", "--melded", "Bill=AS AH AC", "--melded", "Ben=2D 3D 4D", "--out", "Ben",
                   "--out", "Bill", "--held", "Bill=", "--held", "Ben=", "--held", "Larry=") == [
        "error: --out was given twice: it takes one NAME",
        "give --out once",
    ]
    # -o and --out=NAME are the same option
    assert refused(night, "score-hand", "-o", "Ben", "--out=Bill", "--held", "Larry=")[0] == (
        "error: --out was given twice: it takes one NAME")


@pytest.mark.parametrize("args, said", [
    (["score-hand", "--dealer", "Ben", "--dealer", "Larry", *POINTS], "--dealer was given twice: it takes one NAME"),
    (["score-hand", "--game", "rummy-2m", "-g", "rummy-2m", *POINTS], "--game was given twice: it takes one NAME"),
    (["score-hand", "--json", "--json", *POINTS], "--json was given twice"),
    (["amend", "1", "--reason", "a", "--reason", "b", *POINTS], "--reason was given twice: it takes one TEXT"),
    (["amend", "1", "--reason", "a", "--out", "Bill", "--out", "Ben", "--held", "Larry="],
     "--out was given twice: it takes one NAME"),
    (["void", "1", "--reason", "a", "--reason", "b"], "--reason was given twice: it takes one TEXT"),
    (["new-session", "--game", "a", "--game", "b"], "--game was given twice: it takes one NAME"),
    (["new-session", "--players", "A,B", "--players", "C,D"], "--players was given twice: it takes one A,B,C"),
    (["new-session", "-w", "1", "--wildcards", "2"], "--wildcards was given twice: it takes one N"),
    (["new-session", "-r", "rummy-2m", "--ruleset", "rummy-500"],
     "--ruleset was given twice: it takes one NAME|PATH"),
    (["night", "--game", "a", "--game", "b"], "--game was given twice: it takes one NAME"),
    (["night", "--cards", "5", "--cards", "7"], "--cards was given twice: it takes one N"),
    (["end-session", "--json", "--json"], "--json was given twice"),
    (["dispute", "end-night", "--hands", "3", "--record", "--no-record"], "--record/--no-record was given twice"),
])
def test_an_option_that_takes_one_value_given_twice_is_refused(night, args, said):
    assert refused(night, *args)[0] == f"error: {said}"


@pytest.mark.parametrize("args", [["new-session", "--wildcards", "1", "--wildcards", "1"],
                                  ["new-session", "--opening", "Bill=5", "--opening", "Bill=5"]])
def test_a_repeat_is_refused_even_with_the_same_value(record, args):
    refused(record, *args)
    assert not record.exists()  # a refused first write leaves no record behind


@pytest.mark.sqlite_only("the message names the files")
def test_the_same_record_twice_is_fine_two_records_are_refused(night, tmp_path):
    db = night.spec
    assert ref("--db", db, "standings", "--db", db).exit_code == 0
    other = str(tmp_path / "other.db")
    said = " ".join(refused(night, "--db", db, "standings", "--db", other))  # long paths wrap
    assert " ".join(said.split()) == (
        f"error: --db was given twice: {db} before the command and {other} after it give --db once")
    assert refused(night, "--db", db, "--db", other, "standings")[0] == (
        "error: --db was given twice: it takes one PATH|URL")


@pytest.mark.sqlite_only("the same file written several ways")
def test_the_same_file_written_two_ways_is_one_record(night, tmp_path, monkeypatch):
    """Audit O item 6: ``ref --db /tmp/x/o1.db standings --db ./o1.db`` was refused as two records."""
    db = Path(night.spec)
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.db").symlink_to(db)
    monkeypatch.chdir(db.parent)
    for other in (f"./{db.name}", db.name, f"sub/../{db.name}", str(tmp_path / "link.db")):
        r = ref("--db", str(db), "standings", "--db", other)
        assert r.exit_code == 0, (other, r.stderr)
        assert "Bill" in r.stdout
    refused(night, "--db", str(db), "standings", "--db", "./other.db")
    assert not (db.parent / "other.db").exists()


def test_the_same_url_twice_is_one_record_and_its_password_is_not_shown():
    from rummyref.store.location import same_record

    assert same_record("postgres://u@h/d", "postgresql://u@h/d")
    assert not same_record("postgresql://u@h/d", "postgresql://u@h/e")
    r = ref("--db", "postgresql://u:s3cret@h/d", "standings", "--db", "postgresql://u:s3cret@h/e")
    assert r.exit_code == 3 and "s3cret" not in r.stderr and "--db was given twice" in r.stderr


def test_an_opening_total_given_twice_for_a_player_is_refused(record):
    """Item 2: --opening Bill=5 --opening Bill=7 kept 7."""
    assert refused(record, "new-session", "--opening", "Bill=5", "--opening", "Bill=7") == [
        "error: --opening was given twice for Bill",
        "one use per player",
    ]
    assert refused(record, "night", "--opening", "Bill=5", "--opening", "bill=7")[0] == (
        "error: --opening was given twice for bill")
    assert not record.exists()


def test_an_opening_total_for_a_name_not_in_the_new_roster_says_so(record):
    """Item 5: the roster is being created, not fixed: say who is in it and how to name players."""
    assert refused(record, "new-session", "--opening", "Steve=5") == [
        "error: Steve is not in the roster being created for rummy-2m (Bill, Ben, Larry)",
        "--opening is for the players of the new game: name them with --players A,B,C",
    ]
    assert refused(record, "new-session", "--players", "Ann,Bob", "--game", "paper", "--opening", "Anne=5") == [
        "error: Anne is not in the roster being created for paper (Ann, Bob)",
        "did you mean Ann? --opening is for the players of the new game: name them with --players A,B,C",
    ]
    assert not record.exists()
    assert ref("new-session", "--players", "Ann,Bob", "--opening", "bob=5").exit_code == 0


def test_first_dealer_cards_given_twice_for_a_player_are_refused(record):
    """Simple Rummy S3: Ann's KS was dropped for her 2C, and Cy dealt."""
    assert refused(record, "new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "7",
                   "--first-dealer", "Ann=KS", "--first-dealer", "Ann=2C", "--first-dealer", "Bob=3C",
                   "--first-dealer", "Cy=4C") == [
        "error: Ann is named twice ('Ann=KS' and 'Ann=2C')",
        'name each player once, with all their cards: e.g. "Ann=W 5S"',
    ]
    r = ref("first-dealer", "Ann=KS", "ann=2C", "Bob=3C")
    assert (r.exit_code, r.stderr.splitlines()[0]) == (3, "error: ann is named twice ('Ann=KS' and 'ann=2C')")


def test_repeatable_options_still_repeat(night):
    """Two Rummy! claims by one player, two variations, every player's --points: as before."""
    r = ref("score-hand", "--melded", "Bill=7S 8S 9S", "--held", "Bill=", "--out", "Bill", "--held", "Ben=KD",
            "--held", "Larry=2C", "--claim", "Larry=10S", "--claim", "Larry=6S")
    assert r.exit_code == 0, r.stderr
    assert ref("new-session", "--game", "s", "--ruleset", "simple-rummy", "--players", "A,B", "--cards", "7",
               "-V", "major", "--variation", "go-out").exit_code == 0
