"""SPEC §8: a night opened by mistake, with no hand counted, closes as abandoned and does not
count as a Rummy Night; a voided hand is not a dealt hand."""

from __future__ import annotations

from cli_helpers import ref, ref_json


def test_a_night_with_no_hand_closes_as_abandoned_and_does_not_count():
    assert ref("new-session").exit_code == 0
    closed = ref_json("end-session")
    assert closed["abandoned"] and closed["hands"] == 0 and closed["seal"]
    shown = ref("end-session").stderr  # nothing open any more
    assert "no Rummy Night of rummy-2m is open" in shown
    assert ref_json("standings")["nights"] == 0
    assert ref("new-session").exit_code == 0
    text = ref("end-session").stdout
    assert "closed as abandoned and does not count as a Rummy Night" in text
    assert ref_json("verify")["ok"]


def test_a_night_whose_only_hand_was_voided_can_end():
    assert ref("new-session").exit_code == 0
    assert ref("score-hand", "--points", "Bill=5", "--points", "Ben=0", "--points", "Larry=0").exit_code == 0
    assert ref("end-session").exit_code == 4  # mid-round (A4)
    assert ref("void", "1", "--reason", "dealt by mistake").exit_code == 0
    closed = ref_json("end-session")
    assert closed["abandoned"] and closed["hands"] == 0
    assert ref_json("standings")["nights"] == 0
    assert ref_json("verify")["ok"]


# -- audit r2m: an abandoned night counts nowhere; a hand voided earlier is dealt again --------------

P = ["--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3"]


def ok(*args: str) -> str:
    r = ref(*args)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_an_abandoned_night_is_not_the_last_night_nor_a_recent_one_nor_counted(monkeypatch):
    """Item 3: a real night on 1 November, one abandoned on 20 November. The last Rummy Night is
    the 1st, 19 days ago, overdue (A5); the abandoned night is in no count, list or chart."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-01T19:30")
    ok("new-session")
    for _ in range(3):
        ok("score-hand", *P)
    ok("end-session")
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-20T19:30")
    ok("new-session")
    assert ref_json("end-session")["abandoned"]
    shown = lines(ok("standings"))
    assert shown[0] == "rummy-2m (rummy-2m), target 2,000,000: 3 hands over 1 Rummy Night"
    assert shown[-4:] == [
        "Last Rummy Night: 2026-11-01 (19 days ago)  ** over a week: Rummy Night is overdue (A5) **",
        "Next Rummy Night: Bill deals first (A3).",
        "Recent nights:",
        "  night 1 (2026-11-01, 3 hands): winner Larry; Bill 3, Ben 6, Larry 9",
    ]
    st = ref_json("standings")
    assert (st["nights"], st["last_night"], st["days_since_last_night"], st["overdue"]) == (1, "2026-11-01", 19, True)
    assert [n["number"] for n in st["recent_nights"]] == [1]
    assert lines(ok("stats"))[0] == "Statistics of rummy-2m (rummy-2m): 3 hands in force, 1 Rummy Night (1 closed)"
    stats = ref_json("stats")
    assert (stats["nights"], stats["closed_nights"]) == (1, 1)
    assert [p["nights_played"] for p in stats["players"]] == [1, 1, 1]
    chart = ref_json("chart")
    assert chart["nights"] == 1 and chart["series"][0]["nights"] == [0, 1]
    # the next real night keeps its own number (the abandoned one keeps 2 in the history) and is
    # the second that counts: drawn second, counted second, paced over two nights
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-21T19:30")
    assert lines(ok("new-session"))[0] == "Rummy Night 3 of rummy-2m is open."
    for _ in range(3):
        ok("score-hand", *P)
    ok("end-session")
    st = ref_json("standings")
    assert (st["nights"], st["last_night"], st["overdue"]) == (2, "2026-11-21", False)
    assert [n["number"] for n in st["recent_nights"]] == [3, 1]
    assert st["players"][0]["pace_per_night"] == 9.0  # Larry: 18 points over 2 nights
    assert lines(ok("stats"))[0] == "Statistics of rummy-2m (rummy-2m): 6 hands in force, 2 Rummy Nights (2 closed)"
    chart = ref_json("chart")
    assert chart["nights"] == 2 and chart["x_range"] == [0, 2]
    assert chart["series"][2]["nights"] == [0, 1, 2] and chart["series"][2]["totals"] == [0, 9, 18]
    assert chart["crossing"]["night"] == 2 + st["players"][0]["nights_to_go"]
    assert lines(ok("history", "--session", "2"))[-2:] == [
        "Rummy Night 2: 0 hands; Bill 0, Ben 0, Larry 0.",
        "Closed as abandoned (no hand in force): it does not count as a Rummy Night.",
    ]
    assert ref_json("verify")["ok"]


# -- audit gin2: the history of an abandoned night says so -------------------------------------------


def test_the_history_of_an_abandoned_night_says_it_was_abandoned(monkeypatch):
    """Item 4: ``ref history --session 2`` of a night closed with no hand in force said only
    "0 hands"; it now says the night was abandoned and does not count (SPEC §8), in JSON too."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-01T19:30")
    ok("new-session")
    for _ in range(3):
        ok("score-hand", *P)
    ok("end-session")
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-20T19:30")
    ok("new-session")
    assert lines(ok("history", "--session", "2")) == [  # open, no hand yet: not abandoned (yet)
        "History of rummy-2m (rummy-2m); players in deal order: Bill, Ben, Larry",
        "Rummy Night 2: 0 hands; Bill 0, Ben 0, Larry 0.",
    ]
    assert ref_json("history", "--session", "2")["session_totals"]["abandoned"] is False
    ok("end-session")
    assert lines(ok("history", "--session", "2")) == [
        "History of rummy-2m (rummy-2m); players in deal order: Bill, Ben, Larry",
        "Rummy Night 2: 0 hands; Bill 0, Ben 0, Larry 0.",
        "Closed as abandoned (no hand in force): it does not count as a Rummy Night.",
    ]
    shown = ref_json("history", "--session", "2")
    assert shown["entries"] == []
    assert shown["session_totals"] == {"session": 2, "hands": 0, "points": {"Bill": 0, "Ben": 0, "Larry": 0},
                                       "abandoned": True, "counts": False}
    assert lines(ok("history", "--session", "1"))[-1] == "Rummy Night 1: 3 hands; Bill 3, Ben 6, Larry 9 (best: Larry)."
    assert ref_json("history", "--session", "1")["session_totals"]["abandoned"] is False


def test_a_night_abandoned_after_its_only_hand_was_voided_shows_both_and_says_so(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-01T19:30")
    ok("new-session")
    ok("score-hand", *P)
    ok("void", "1", "--reason", "dealt by mistake")
    ok("end-session")
    assert lines(ok("history", "--session", "1")) == [
        "History of rummy-2m (rummy-2m); players in deal order: Bill, Ben, Larry",
        "entry 3: hand 1, night 1 hand 1, Bill dealt (voided)",
        "    scores: Bill 1, Ben 2, Larry 3",
        "entry 4: hand 1, night 1 hand 1, Bill dealt VOIDS entry 3",
        "    reason: dealt by mistake",
        "Rummy Night 1: 0 hands; Bill 0, Ben 0, Larry 0.",
        "Closed as abandoned (no hand in force): it does not count as a Rummy Night.",
    ]
    assert ref_json("history", "--session", "1")["session_totals"]["abandoned"] is True


def test_a_night_closed_with_hands_all_voided_since_counts_nowhere(monkeypatch, record):
    """A night closed with three hands, each voided after it closed: no hand in force, so it
    counts no more than a night closed as abandoned (SPEC §8): not in the standings' count, the
    last night's date, the recent nights, ref stats or ref chart; its history says so. Nothing new
    is written to tell it (it is read from the hands in force), and ref verify still passes."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")
    ok("new-session")
    for _ in range(3):
        ok("score-hand", *P)
    ok("end-session")
    for hand in ("1", "2", "3"):
        ok("void", hand, "--reason", "wrong game")
    shown = lines(ok("standings"))
    assert shown[0] == "rummy-2m (rummy-2m), target 2,000,000: 0 hands over 0 Rummy Nights"
    assert shown[-2:] == [
        "Seating dibs (A2): Bill first pick; Ben second pick; Larry the floor",
        "Next Rummy Night: Bill deals first (A3).",
    ]  # no "Last Rummy Night", no "Recent nights"
    st = ref_json("standings")
    assert (st["nights"], st["last_night"], st["days_since_last_night"], st["overdue"], st["recent_nights"]) == (
        0, None, None, False, [])
    assert [p["pace_per_night"] for p in st["players"]] == [None, None, None]
    assert lines(ok("stats"))[0] == "Statistics of rummy-2m (rummy-2m): 0 hands in force, 0 Rummy Nights (0 closed)"
    stats = ref_json("stats")
    assert (stats["nights"], stats["closed_nights"]) == (0, 0)
    assert ref_json("chart")["nights"] == 0
    assert lines(ok("history", "--session", "1"))[-2:] == [
        "Rummy Night 1: 0 hands; Bill 0, Ben 0, Larry 0.",
        "Every hand voided since it closed (no hand in force): it does not count as a Rummy Night.",
    ]
    assert ref_json("history", "--session", "1")["session_totals"] == {
        "session": 1, "hands": 0, "points": {"Bill": 0, "Ben": 0, "Larry": 0}, "abandoned": False, "counts": False}
    assert ref_json("verify")["ok"]
    # the next night is the first that counts (it keeps its own number: 2), and the empty one
    # leaves no gap in the chart
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-20T19:30")
    assert lines(ok("new-session"))[0] == "Rummy Night 2 of rummy-2m is open."
    for _ in range(3):
        ok("score-hand", *P)
    ok("end-session")
    st = ref_json("standings")
    assert (st["nights"], st["last_night"], [n["number"] for n in st["recent_nights"]]) == (1, "2026-11-20", [2])
    assert (st["players"][0]["name"], st["players"][0]["pace_per_night"]) == ("Larry", 9.0)  # 9 points, 1 night
    assert lines(ok("stats"))[0] == "Statistics of rummy-2m (rummy-2m): 3 hands in force, 1 Rummy Night (1 closed)"
    chart = ref_json("chart")
    assert chart["nights"] == 1 and chart["series"][2]["nights"] == [0, 1] and chart["series"][2]["totals"] == [0, 9]
    assert ref_json("history", "--session", "2")["session_totals"]["counts"] is True
    before = record.snapshot()
    assert ref("standings").exit_code == 0 and record.snapshot() == before  # reading writes nothing
    assert ref_json("verify")["ok"]


def test_a_night_emptied_after_it_closed_is_not_the_last_night(monkeypatch):
    """A5: a real night on 1 November, a second on 10 November all of whose hands are voided
    later: the last Rummy Night is still the 1st, and overdue on the 20th."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-01T19:30")
    ok("new-session")
    for _ in range(3):
        ok("score-hand", *P)
    ok("end-session")
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-10T19:30")
    ok("new-session")
    for _ in range(3):
        ok("score-hand", *P)
    ok("end-session")
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-20T19:30")
    assert ref_json("void", "4", "--reason", "wrong game")["night_emptied"] is False
    said = " ".join(ok("void", "5", "--reason", "wrong game").split())
    assert "has no hand in force now" not in said  # hand 6 of night 2 is still in force
    said = " ".join(ok("void", "6", "--reason", "wrong game").split())
    assert ("Rummy Night 2 has no hand in force now: it counts as no Rummy Night (not among the nights "
            "played, nor the last one).") in said
    shown = lines(ok("standings"))
    assert shown[0] == "rummy-2m (rummy-2m), target 2,000,000: 3 hands over 1 Rummy Night"
    assert shown[-4:] == [
        "Last Rummy Night: 2026-11-01 (19 days ago)  ** over a week: Rummy Night is overdue (A5) **",
        "Next Rummy Night: Bill deals first (A3).",
        "Recent nights:",
        "  night 1 (2026-11-01, 3 hands): winner Larry; Bill 3, Ben 6, Larry 9",
    ]
    assert lines(ok("stats"))[0] == "Statistics of rummy-2m (rummy-2m): 3 hands in force, 1 Rummy Night (1 closed)"
    assert ref_json("chart")["nights"] == 1
    assert ref_json("verify")["ok"]


def test_a_hand_voided_earlier_is_dealt_again_by_its_dealer_before_the_night_may_end(monkeypatch):
    """Item 4 (SPEC §8): Bill's hand 1 voided after Ben's hand 2: Bill deals the next hand, then
    Larry; only then is the round full. The hands already recorded keep their deals."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")
    ok("new-session")
    ok("score-hand", *P)
    ok("score-hand", *P)
    assert lines(ok("void", "1", "--reason", "x"))[-1] == "Next: Bill deals (hand 2 of round 1)."
    assert "Rummy Night 1 is open: Bill deals the next hand (A3)." in lines(ok("standings"))
    wrong = ref("score-hand", *P, "--dealer", "Larry")
    assert (wrong.exit_code, lines(wrong.stderr)) == (4, [
        "refused (A3): hand 3 of the night is Bill's deal, not Larry's",
        "the deal goes Bill, Ben, Larry, no exceptions; Bill's voided hand is dealt again first",
    ])
    shown = lines(ok("score-hand", *P))
    assert shown[0] == "Hand 3 of rummy-2m: Rummy Night 1, hand 3 of the night, Bill dealt (entry 6)"
    assert shown[-1] == "Next: Larry deals (hand 3 of round 1)."
    early = ref("end-session")
    assert (early.exit_code, lines(early.stderr)[0]) == (
        4, "refused (A4): the night cannot end in the middle of a round: Larry still has to deal (hand 3 of 3 in")
    asked = ref_json("dispute", "end-night")  # the dispute answers as end-session acts
    assert (asked["outcome"], asked["details"]["still_to_deal"]) == ("refused", ["Larry"])
    shown = lines(ok("score-hand", *P))
    assert shown[-1] == "Round 1 complete. Next: Bill deals, or the night may end (ref end-session)."
    assert ref_json("dispute", "end-night")["outcome"] == "allowed"
    closed = lines(ok("end-session"))
    assert closed[0] == "Rummy Night 1 of rummy-2m is closed: 3 hands, 1 full round (1 hand voided)."
    heads = [line for line in lines(ok("history")) if line.startswith("entry ")]
    assert heads == [
        "entry 3: hand 1, night 1 hand 1, Bill dealt (voided)",
        "entry 5: hand 1, night 1 hand 1, Bill dealt VOIDS entry 3",
        "entry 4: hand 2, night 1 hand 2, Ben dealt",
        "entry 6: hand 3, night 1 hand 3, Bill dealt",
        "entry 7: hand 4, night 1 hand 4, Larry dealt",
    ]
    assert ref_json("verify")["ok"]


def test_voiding_the_only_hand_says_no_hand_counts_not_round_0_complete(monkeypatch):
    """Item 5."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")
    ok("new-session")
    ok("score-hand", *P)
    assert lines(ok("void", "1", "--reason", "dealt by mistake"))[-2:] == [
        "No hand counts tonight: the night may end as abandoned (ref end-session).",
        "Next: Bill deals.",
    ]


def test_a_full_progress_bar_means_the_target_is_reached(monkeypatch):
    """Item 5: 99.5% drew all 20 blocks (and 99.96% would have said 100.0%)."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")
    ok("new-session", "--opening", "Bill=1990000", "--opening", "Ben=1999999")
    assert lines(ok("standings"))[1:4] == [
        "#  player      total      to go  progress                     hands  avg/hand",
        "1  Ben     1,999,999          1  ███████████████████░  99.9%      0         -",
        "2  Bill    1,990,000     10,000  ███████████████████░  99.5%      0         -",
    ]
    ok("score-hand", "--points", "Bill=0", "--points", "Ben=1", "--points", "Larry=0")
    assert lines(ok("standings"))[3] == "1  Ben     2,000,000          0  ████████████████████ 100.0%      1       1.0"


def test_an_open_night_with_no_hand_yet_is_not_counted_by_stats_either(monkeypatch):
    """Audit, stop 35: stats said "2 Rummy Nights (1 closed)" where standings and the chart
    said 1: the night just opened has no hand yet (SPEC §8)."""
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-05T19:30")
    assert ref("new-session").exit_code == 0
    for pts in (("10", "0", "0"), ("0", "10", "0"), ("0", "0", "10")):
        assert ref("score-hand", *[a for n, v in zip(("Bill", "Ben", "Larry"), pts)
                                   for a in ("--points", f"{n}={v}")]).exit_code == 0
    assert ref("end-session").exit_code == 0
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")
    assert ref("new-session").exit_code == 0
    stats = ref_json("stats")
    assert stats["nights"] == ref_json("standings")["nights"] == 1
    assert {p["nights_played"] for p in stats["players"]} == {1}
    assert "3 hands in force, 1 Rummy Night (1 closed)" in ref("stats").stdout
    assert ref("score-hand", "--points", "Bill=1", "--points", "Ben=0", "--points", "Larry=0").exit_code == 0
    assert ref_json("stats")["nights"] == 2  # a hand in it: it counts


def test_a_finished_game_projects_no_nights_to_go(monkeypatch):
    """Audit, stop 35: after GAME OVER the losers were still given 99,999 nights to go and a
    date in the year 3943; no hand can be recorded into a finished game (A7)."""
    assert ref("new-session", "--opening", "Bill=1999900").exit_code == 0
    assert ref("score-hand", "--points", "Bill=100", "--points", "Ben=20", "--points", "Larry=10").exit_code == 0
    st = ref_json("standings")
    assert st["over"]
    assert {(p["nights_to_go"], p["projected_date"]) for p in st["players"]} == {(None, None)}
    assert [p["pace_per_night"] for p in st["players"]] == [100.0, 20.0, 10.0]


def test_history_of_a_night_with_last_keeps_the_nights_totals():
    """Audit, stop 35: ``history --session 1 --last 1`` printed "Rummy Night 1: 1 hand; Bill 25,
    Ben 25, Larry -40 (best: Bill and Ben)" for a night of 3 hands that Bill won."""
    assert ref("new-session").exit_code == 0
    for pts in ((80, 0, -20), (-30, 15, 45), (25, 25, -40)):
        assert ref("score-hand", *[a for n, v in zip(("Bill", "Ben", "Larry"), pts)
                                   for a in ("--points", f"{n}={v}")]).exit_code == 0
    assert ref("end-session").exit_code == 0
    whole = ref("history", "--session", "1").stdout.splitlines()[-1]
    assert whole == "Rummy Night 1: 3 hands; Bill 75, Ben 40, Larry -15 (best: Bill)."
    assert ref("history", "--session", "1", "--last", "1").stdout.splitlines()[-1] == whole
    data = ref_json("history", "--session", "1", "--last", "1")
    assert len({e["hand"] for e in data["entries"]}) == 1
    assert data["session_totals"]["hands"] == 3 and data["session_totals"]["points"] == {"Bill": 75, "Ben": 40,
                                                                                         "Larry": -15}
