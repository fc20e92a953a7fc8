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


def test_a_wildcard_standing_for_a_card_nothing_takes_is_not_cited_as_b5(record):
    ok("new-session", "--wildcards", "2")
    r = refused(4, record, "score-hand", "--melded", "Bill=4S 5S 6S W=5S", "--held", "Bill=", "--held", "Ben=",
                "--held", "Larry=")
    assert flat(r.stderr) == (
        "refused: Bill's W=5S (--melded) cannot be: no meld on the table has a place for a 5S "
        "leave the designation out to let ref place the card, or correct it"
    )
    r = refused(4, record, "score-hand", "--melded", "Bill=4S 5S 6S W=7S", "--melded", "Ben=W=9S",
                "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.stderr.startswith("refused: Ben's W=9S (--melded) cannot be: no meld on the table")
    # where a card went is still B5's
    r = refused(4, record, "score-hand", "--melded", "Bill=4S 5S 6S", "--melded", "Ben=7S>match",
                "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.stderr.startswith("refused (B5): Ben's 7S>match (--melded) cannot be")
    assert ref("ruling", "--no-log", "-r", "rummy-500", "R5").stdout.startswith("R5 (rummy-500) Jokers")


# -- 3. ref count: the go-out line never calls a card shown melded unmeldable ------------------


def test_count_shows_the_melding_its_go_out_verdict_is_of():
    shown = ok("count", "AS 2S 3S KD AH W").stdout
    assert shown.splitlines()[1:] == [
        "meld      match  A♠ A♥ W(=A♦)",
        "unmelded  2♠ 3♠ K♦",
        "count     15",
        "go out    no (at-most-one): at least 2 cards stay unmelded (fewest: AH KD)",
        "  melding run  A♠ 2♠ 3♠ W(=4♠)",
        "  leaving A♥ K♦",
    ]
    import json

    data = json.loads(ok("count", "AS 2S 3S KD AH W", "--json").stdout)
    assert (data["melds"], data["unmelded"], data["count"]) == ([["AS", "AH", "W"]], ["2S", "3S", "KD"], 15)
    assert data["going_out_reason"] == "at least 2 cards stay unmelded (fewest: AH KD)"
    assert data["going_out_melds"] == [["AS", "2S", "3S", "W"]]
    assert data["going_out_represents"] == [["AS", "2S", "3S", "4S"]]
    assert data["going_out_unmelded"] == ["AH", "KD"]
    # one melding for both: no second one shown, no extra keys
    same = ok("count", "2H 3H 4H 4S 4D").stdout
    assert "melding" not in same and "leaving" not in same
    assert "going_out_melds" not in json.loads(ok("count", "2H 3H 4H 4S 4D", "--json").stdout)


# -- 2. a choice among several melds that changes a card's value is said in a note -------------


def _credits(shown: str) -> list[str]:
    lines = shown.splitlines()
    return [line.strip() for line in lines[lines.index("Credits (each card where it sits, minus the cards held):") + 1:]
            if line.startswith("  ") and not line.startswith("   ")][:3]


def test_a_wildcard_for_a_match_with_two_matches_down_says_ref_chose():
    ok("new-session", "--wildcards", "2")
    shown = ok("score-hand", "--melded", "Bill=KC KS KH", "--melded", "Larry=9S 9H 9D", "--melded", "Ben=W>match",
               "--held", "Bill=", "--held", "Ben=", "--held", "Larry=").stdout
    assert _credits(shown) == ["Bill: KS KH KC 30 (match KS KH KC) = 30",
                               "Ben: W(=9C)^ 9 (match 9S 9H 9D W(=9C)^) = 9",
                               "Larry: 9S 9H 9D 27 (match 9S 9H 9D W(=9C)^) = 27"]
    assert ("Note: Ben's W>match could join 9S 9H 9D W(=9C)^ (9) or KS KH KC (10): the table did not say which, "
            "so ref chose by its fixed order (runs first, an ace low first, then melds in suit order, the lower first); W>KS says "
            "otherwise") in flat(shown)
    ok("void", "1", "--reason", "try the kings")
    shown = ok("score-hand", "--melded", "Bill=KC KS KH", "--melded", "Larry=9S 9H 9D", "--melded", "Ben=W>KS",
               "--held", "Bill=", "--held", "Ben=", "--held", "Larry=").stdout
    assert "Ben: W(=KD)^ 10 (match KS KH KC W(=KD)^) = 10" in _credits(shown)
    assert "Note:" not in shown


def test_an_ace_that_fits_two_runs_says_ref_chose_low():
    ok("new-session")
    shown = ok("score-hand", "--melded", "Bill=2S 3S 4S / JS QS KS", "--melded", "Ben=AS",
               "--held", "Bill=", "--held", "Ben=", "--held", "Larry=").stdout
    assert "Ben: AS 1 (run AS 2S 3S 4S) = 1" in _credits(shown)
    assert ("Note: Ben's AS could join AS 2S 3S 4S (1) or JS QS KS (15): the table did not say which, so ref "
            "chose by its fixed order (runs first, an ace low first, then melds in suit order, the lower first); AS>JS says "
            "otherwise") in flat(shown)
    ok("void", "1", "--reason", "high")
    shown = ok("score-hand", "--melded", "Bill=2S 3S 4S / JS QS KS", "--melded", "Ben=AS>JS",
               "--held", "Bill=", "--held", "Ben=", "--held", "Larry=").stdout
    assert "Ben: AS 15 (run JS QS KS AS) = 15" in _credits(shown)
    assert "Note:" not in shown


def test_no_note_when_the_other_place_is_worth_the_same():
    ok("new-session", "--wildcards", "1")
    shown = ok("score-hand", "--melded", "Bill=JS JH JD", "--melded", "Larry=QS QH QD", "--melded", "Ben=W>match",
               "--held", "Bill=", "--held", "Ben=", "--held", "Larry=").stdout
    assert "Ben: W(=JC)^ 10 (match JS JH JD W(=JC)^) = 10" in _credits(shown)
    assert "Note:" not in shown


# -- 6. small output faults ----------------------------------------------------------------------


def _points(*values: int) -> list[str]:
    out = []
    for name, v in zip(("Bill", "Ben", "Larry"), values):
        out += ["--points", f"{name}={v}"]
    return out


def test_a_night_whose_last_hand_was_voided_says_so_when_it_closes():
    ok("new-session")
    for _ in range(4):
        ok("score-hand", *_points(10, 10, 10))
    ok("void", "4", "--reason", "misdeal")
    closed = ok("end-session")
    assert closed.stdout.splitlines()[:2] == [
        "Rummy Night 1 of rummy-2m is closed: 3 hands, 1 full round (1 hand voided).",
        "Night's winner: Bill, Ben and Larry.",
    ]


def test_end_session_json_counts_the_void_too():
    ok("new-session")
    for _ in range(4):
        ok("score-hand", *_points(10, 20, 10))
    ok("void", "4", "--reason", "misdeal")
    import json

    data = json.loads(ok("end-session", "--json").stdout)
    assert (data["hands"], data["rounds"], data["voided"], data["winners"]) == (3, 1, 1, ["Ben"])


def test_voiding_the_hand_that_ended_the_game_says_it_goes_on():
    ok("new-session", "--opening", "Bill=1999990")
    assert "GAME OVER (A7): Bill wins with 2,000,010." in ok("score-hand", *_points(20, 10, 10)).stdout
    shown = ok("void", "1", "--reason", "entered by mistake").stdout
    assert ("The game is no longer over (A7): Bill no longer wins; Bill leads with 1,999,990, and the game goes "
            "on.") in flat(shown)
    assert "GAME OVER" not in shown
    import json

    ok("score-hand", *_points(20, 10, 10))
    data = json.loads(ok("void", "2", "--reason", "again", "--json").stdout)
    assert (data["over"], data["reopened"]) == (False, True)


def test_a_night_open_with_no_hand_is_no_rummy_night_in_the_standings():
    ok("new-session")
    assert ok("standings").stdout.splitlines()[0] == "rummy-2m (rummy-2m), target 2,000,000: 0 hands over 0 Rummy Nights"
    ok("score-hand", *_points(10, 10, 10))
    assert ok("standings").stdout.splitlines()[0] == "rummy-2m (rummy-2m), target 2,000,000: 1 hand over 1 Rummy Night"


def test_level_leaders_are_named_in_prose():
    from rummyref.errors import and_list
    from rummyref.games.long.render import level

    assert and_list(["Bill"]) == "Bill" and and_list([]) == ""
    assert and_list(["Bill", "Ben"]) == "Bill and Ben"
    assert level(["Bill", "Ben", "Larry"], {"Bill": 5, "Ben": 5, "Larry": 5}, 1) == "Bill, Ben and Larry are level past the target"


def test_no_output_line_ends_in_a_blank(monkeypatch):
    """Rich keeps the space at which it wrapped a long line: it is dropped on stdout as on stderr."""
    from rummyref.cli.common import out

    monkeypatch.setattr(out, "width", 80)  # the console's width was read from COLUMNS (100) at import
    outputs = [ok("new-session").stdout, ok("standings").stdout, ok("end-session").stdout]
    ok("new-session", "--game", "tie", "--opening", "Bill=1999990", "--opening", "Ben=1999990")
    outputs.append(ok("score-hand", "--game", "tie", *_points(20, 20, 0)).stdout)
    outputs.append(ok("standings", "--game", "tie").stdout)
    text = "".join(outputs)
    assert "does not count as a Rummy Night." in flat(text) and "play goes on hand by hand" in text
    assert [line for line in text.splitlines() if line != line.rstrip()] == []
