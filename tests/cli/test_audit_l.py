"""Black-box audit L of rummy-2m, each finding with its exact words, credits and exit code: the
deal order typed to a new night (A3), a W=CARD refusal's rule, the go-out line of ``ref count``,
a choice among several melds said in a note, the night's summary with a void, a game reopened by
a void, a night with no hand in the standings, trailing blanks, and names joined in prose."""

from __future__ import annotations

from cli_helpers import ref


def ok(*args: str):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def refused(code: int, record, *args: str):
    """Exit ``code``, nothing on stdout, nothing written."""
    before = record.snapshot()
    result = ref(*args)
    assert result.exit_code == code, result.stdout + result.stderr
    assert result.stdout == ""
    assert record.snapshot() == before
    return result


def flat(text: str) -> str:
    return " ".join(text.split())


# -- 4. the deal order typed to a new night of an existing game (A3) ---------------------------


def test_a_new_night_in_another_order_is_refused_citing_a3(record):
    ok("new-session")
    ok("end-session")
    r = refused(4, record, "new-session", "--players", "Larry,Ben,Bill")
    assert flat(r.stderr) == (
        "refused (A3): the deal order of rummy-2m is Bill, Ben, Larry, not Larry, Ben, Bill: it is "
        "fixed when the game is created name the players in that order, or leave out --players "
        "(the deal goes Bill, Ben, Larry, no exceptions)"
    )
    r = refused(4, record, "new-session", "--players", "Larry,Ben")
    assert r.stderr.startswith("refused (A1): Bill is on the roster of rummy-2m")
    same = ok("new-session", "--players", "bill,ben,larry").stdout
    assert "Deal order (A3): Bill, Ben, Larry. Bill deals first." in same
    ok("end-session")
    assert "Deal order (A3): Bill, Ben, Larry." in ok("new-session").stdout


# -- 5. a WILDCARD said to stand for a card no meld has a place for is not B5 ------------------


def test_a_wildcard_standing_for_a_card_nothing_takes_cites_the_wildcard_rule(record):
    ok("new-session", "--wildcards", "2")
    r = refused(4, record, "score-hand", "--melded", "Bill=4S 5S 6S W=5S", "--held", "Bill=", "--held", "Ben=",
                "--held", "Larry=")
    assert flat(r.stderr) == (
        "refused (rummy-500:R5): Bill's W=5S (--melded) cannot be: no meld on the table has a place for a 5S "
        "leave the designation out to let ref place the card, or correct it"
    )
    r = refused(4, record, "score-hand", "--melded", "Bill=4S 5S 6S W=7S", "--melded", "Ben=W=9S",
                "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.stderr.startswith("refused (rummy-500:R5): Ben's W=9S (--melded) cannot be: no meld on the table")
    # where a card went is still B5's
    r = refused(4, record, "score-hand", "--melded", "Bill=4S 5S 6S", "--melded", "Ben=7S>match",
                "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.stderr.startswith("refused (B5): Ben's 7S>match (--melded) cannot be")
    assert ref("ruling", "--no-log", "-r", "rummy-500", "R5").stdout.startswith("R5 (rummy-500) Jokers")
