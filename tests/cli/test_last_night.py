"""The standings' last Rummy Night and its over-a-week warning (A5): only the nights that count
(SPEC §8: a night with no hand in force is no Rummy Night) date it, and a finished game (A7),
whose nights can no longer be held, is never overdue. Audit sessions45, items 1 and 2."""

from __future__ import annotations

from cli_helpers import ref, ref_json

P = ["--points", "Bill=5", "--points", "Ben=1", "--points", "Larry=2"]


def ok(*args: str) -> str:
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def a5(st: dict) -> tuple:
    return st["nights"], st["last_night"], st["days_since_last_night"], st["overdue"]


def one_night_on_the_1st(monkeypatch) -> None:
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-01T19:00")
    ok("new-session")
    for _ in range(3):
        ok("score-hand", *P)
    ok("end-session")


def test_an_open_night_with_no_hand_is_not_the_last_night_and_leaves_the_warning(monkeypatch):
    """A night opened on the 20th with no hand yet: the last Rummy Night is still the 1st, 19
    days ago and overdue, whether the open night stays open or closes as abandoned; the open
    night is listed in progress among the recent nights, dated today."""
    one_night_on_the_1st(monkeypatch)
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-20T19:00")
    before = lines(ok("standings"))
    ok("new-session")
    shown = lines(ok("standings"))
    assert shown[0] == "rummy-2m (rummy-2m), target 2,000,000: 3 hands over 1 Rummy Night"
    assert shown[-5:] == [
        "Last Rummy Night: 2026-11-01 (19 days ago)  ** over a week: Rummy Night is overdue (A5) **",
        "Rummy Night 2 is open: Bill deals the next hand (A3).",
        "Recent nights:",
        "  night 2 (2026-11-20, 0 hands): winner (night in progress); Bill 0, Ben 0, Larry 0",
        "  night 1 (2026-11-01, 3 hands): winner Bill; Bill 15, Ben 3, Larry 6",
    ]
    assert shown[:-5] == before[:-4]  # the same standings as before the night opened
    st = ref_json("standings")
    assert a5(st) == (1, "2026-11-01", 19, True)
    assert st["open_night"] == 2 and [n["number"] for n in st["recent_nights"]] == [2, 1]
    assert [p["projected_date"] for p in st["players"]] == ["4582-03-29", "8415-04-24", None]
    ok("end-session")  # closed as abandoned: the standings say the same of the 1st
    assert lines(ok("standings"))[-4] == shown[-5]
    assert a5(ref_json("standings")) == (1, "2026-11-01", 19, True)


def test_an_open_night_whose_hands_were_all_voided_is_not_the_last_night(monkeypatch):
    """Night 2 opened on the 5th, its one hand voided: the last Rummy Night is the 1st, and the
    pace projects from it (the next night a week after the 1st: the 8th), not from the 5th."""
    one_night_on_the_1st(monkeypatch)
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-05T19:00")
    ok("new-session")
    ok("score-hand", *P)
    ok("void", "4", "--reason", "misdeal")
    shown = lines(ok("standings"))
    assert shown[5:9] == [
        "player  pace/night  nights to go  target date  best  worst  nights won",
        "Bill          15.0       133,333  4582-03-17      5      5           1",  # 2026-11-08 + 7 x 133,332 days
        "Larry          6.0       333,333  8415-04-12      2      2           0",  # 2026-11-08 + 7 x 333,332 days
        "Ben            3.0       666,666  -               1      1           0",
    ]
    assert shown[-5:] == [
        "Last Rummy Night: 2026-11-01 (4 days ago)",
        "Rummy Night 2 is open: Bill deals the next hand (A3).",
        "Recent nights:",
        "  night 2 (2026-11-05, 0 hands): winner (night in progress); Bill 0, Ben 0, Larry 0",
        "  night 1 (2026-11-01, 3 hands): winner Bill; Bill 15, Ben 3, Larry 6",
    ]
    st = ref_json("standings")
    assert a5(st) == (1, "2026-11-01", 4, False)
    assert [p["projected_date"] for p in st["players"]] == ["4582-03-17", "8415-04-12", None]
    ok("score-hand", *P)  # a hand in force: night 2 counts, and is the last
    assert lines(ok("standings"))[-5] == "Last Rummy Night: 2026-11-05 (0 days ago)"
    assert a5(ref_json("standings")) == (2, "2026-11-05", 0, False)


def test_a_new_game_with_no_hand_has_no_last_night(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-20T19:00")
    ok("new-session")
    shown = lines(ok("standings"))
    assert shown[0] == "rummy-2m (rummy-2m), target 2,000,000: 0 hands over 0 Rummy Nights"
    assert shown[-4:] == [
        "Seating dibs (A2): Bill first pick; Ben second pick; Larry the floor",
        "Rummy Night 1 is open: Bill deals the next hand (A3).",
        "Recent nights:",
        "  night 1 (2026-11-20, 0 hands): winner (night in progress); Bill 0, Ben 0, Larry 0",
    ]
    assert a5(ref_json("standings")) == (0, None, None, False)


def test_a_finished_game_is_never_overdue(monkeypatch):
    """A7: no Rummy Night of a finished game can be held, so seven weeks on it is not overdue
    (A5). The days since its last night stay: a fact, without the nag."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-12-04T19:00")
    ok("new-session", "--opening", "Bill=1999990")
    ok("score-hand", "--points", "Bill=20", "--points", "Ben=0", "--points", "Larry=0")
    ok("end-session")
    monkeypatch.setenv("RUMMYREF_NOW", "2027-01-20T19:00")
    shown = lines(ok("standings"))
    assert shown[1] == "GAME OVER (A7): Bill wins."
    assert shown[-4:] == [
        "Last Rummy Night: 2026-12-04 (47 days ago)",
        "A new game: ref new-session --game NEW-NAME.",
        "Recent nights:",
        "  night 1 (2026-12-04, 1 hand): winner Bill; Bill 20, Ben 0, Larry 0",
    ]
    st = ref_json("standings")
    assert (st["over"], *a5(st)) == (True, 1, "2026-12-04", 47, False)
    assert ref("new-session").exit_code == 4  # refused (A7): as it always was
