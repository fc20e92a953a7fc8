"""``ref stats`` (issue 8, part 2): statistics from the record in force, both rule sets."""

from __future__ import annotations

import json
import re

from cli_helpers import ref, ref_json
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.record import Game, Player
from rummyref.stats.compute import POINTS_STYLE, HandLine, NightLine, StatsInput, compute_stats, milestones_for


def ok(*args):
    result = ref(*args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result


def two_nights() -> None:
    """Bill starts at 95,000 (carried from paper). Night 1: a hand from cards (Bill goes out,
    Ben wins the 5D by a Rummy! claim), two from points. Night 2: hand 5 is voided, hand 6 amended;
    Ben deals again (SPEC §8: his voided hand was not a dealt hand) and nobody scores in hand 7."""
    ok("new-session", "--opening", "Bill=95000")
    ok("score-hand", "--melded", "Bill=7S 8S 9S / KH KD KC", "--held", "Bill=", "--melded", "Ben=2D 3D 4D",
       "--held", "Ben=5C", "--held", "Larry=QS JH", "--out", "Bill", "--claim", "Ben=5D")
    ok("score-hand", "--points", "Bill=4000", "--points", "Ben=40", "--points", "Larry=5")
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=40", "--points", "Larry=5")
    ok("end-session")
    ok("new-session")
    ok("score-hand", "--points", "Bill=1000", "--points", "Ben=40", "--points", "Larry=5")
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=9000", "--points", "Larry=5")
    ok("score-hand", "--points", "Bill=10", "--points", "Ben=4000", "--points", "Larry=5")
    ok("void", "5", "--reason", "dealt from a short deck")
    ok("amend", "6", "--reason", "Ben's 4000 was 400", "--points", "Bill=10", "--points", "Ben=400", "--points", "Larry=5")
    ok("score-hand", "--dealer", "Ben", "--points", "Bill=0", "--points", "Ben=0", "--points", "Larry=0")
    ok("end-session")


def by_name(stats: dict) -> dict:
    return {p["name"]: p for p in stats["players"]}


def test_stats_of_a_rummy_2m_game_respect_corrections():
    two_nights()
    s = ref_json("stats")
    assert (s["hands"], s["nights"], s["closed_nights"], s["night_score"]) == (6, 2, 2, "points")
    p = by_name(s)
    # hand 1 from the cards: Bill 24 + 30 = 54; Ben 9 melded + 5 claimed - 5 held = 9; Larry -20
    assert p["Bill"]["points"] == 54 + 4000 + 10 + 1000 + 10
    assert p["Ben"]["points"] == 9 + 40 + 40 + 40 + 400  # the void and the amend count, not the originals
    assert p["Larry"]["points"] == -20 + 5 + 5 + 5 + 5
    assert p["Bill"]["average_per_hand"] == round(5074 / 6, 1)
    assert p["Bill"]["average_per_night"] == 5074 / 2
    assert p["Ben"]["best_hand"] == {"value": 400, "hand": 6, "night": 2}
    assert p["Ben"]["worst_hand"] == {"value": 0, "hand": 7, "night": 2}
    assert p["Larry"]["worst_hand"] == {"value": -20, "hand": 1, "night": 1}
    assert (p["Bill"]["go_outs"], p["Ben"]["go_outs"], p["Ben"]["claims_won"], p["Bill"]["claims_won"]) == (1, 0, 1, 0)
    # hands won: 1 Bill, 2 Bill, 3 Ben, 4 Bill, 6 Ben (5 is void), 7 all three (level at 0)
    assert (p["Bill"]["hands_won"], p["Ben"]["hands_won"], p["Larry"]["hands_won"]) == (4, 3, 1)
    assert (p["Bill"]["longest_hand_streak"], p["Bill"]["current_hand_streak"]) == (2, 1)
    assert (p["Ben"]["longest_hand_streak"], p["Ben"]["current_hand_streak"]) == (2, 2)
    assert (p["Bill"]["nights_won"], p["Bill"]["longest_night_streak"], p["Bill"]["current_night_streak"]) == (2, 2, 2)
    assert p["Ben"]["nights_won"] == 0 and p["Ben"]["games_won"] is None
    h2h = {(h["player"], h["opponent"]): (h["won"], h["lost"], h["level"]) for h in s["head_to_head"]}
    assert h2h["Bill", "Ben"] == (2, 0, 0) and h2h["Ben", "Bill"] == (0, 2, 0) and h2h["Ben", "Larry"] == (2, 0, 0)
    # the standings agree on the figures they share
    standing = {r["name"]: r for r in ref_json("standings")["players"]}
    for name in ("Bill", "Ben", "Larry"):
        assert standing[name]["points"] == p[name]["points"]
        assert standing[name]["nights_won"] == p[name]["nights_won"]
        assert standing[name]["best"] == p[name]["best_hand"]["value"]
    m = {x["threshold"]: x for x in s["milestones"]}
    assert list(m) == [100_000, 500_000, 1_000_000, 2_000_000] and m[2_000_000]["is_target"]
    assert m[100_000]["first"] == "Bill"
    hit = m[100_000]["hits"][0]
    assert (hit["hand"], hit["night"], hit["total"]) == (4, 2, 95_000 + 4064 + 1000) and len(hit["date"]) == 10
    assert m[500_000]["hits"] == []


def test_stats_human_output():
    two_nights()
    text = ok("stats").stdout
    for part in ("Statistics of rummy-2m", "6 hands in force", "avg/hand", "Rummy! won", "400 (hand 6)",
                 "Head to head", "2-0-0", "Milestones (who got there, in order):",
                 "2,000,000 (target)  not reached yet"):
        assert part in text, part


def test_an_opening_balance_past_a_milestone_counts_from_the_start():
    ok("new-session", "--opening", "Larry=600000")
    ok("score-hand", "--points", "Bill=5", "--points", "Ben=5", "--points", "Larry=5")
    m = {x["threshold"]: x for x in ref_json("stats")["milestones"]}
    assert m[500_000]["hits"] == [{"name": "Larry", "hand": None, "night": None, "date": None, "total": 600_000}]
    assert re.search(r"500,000 +Larry +opening balance", ok("stats").stdout)


def test_milestones_of_long_names_fit_80_columns(monkeypatch):
    # 'opening balance' stands in the date column, which stays: with a 30-cell name the hand column
    # gives way, never the words (audit, stop 34; stop 48)
    from rummyref.cli import common

    monkeypatch.setattr(common.out, "_width", 80)
    for name in ("Bartholomew Extraordinarily", "Bartholomew Extraordinarily Xyz"):
        ok("new-session", "-g", name[-3:], "--players", f"Christopher Columbus Longname,{name},Larry",
           "--opening", f"{name}=1999990")
        ok("score-hand", "-g", name[-3:], "--points", "Christopher Columbus Longname=10", "--points", f"{name}=10",
           "--points", "Larry=5")
        text = ok("stats", "-g", name[-3:]).stdout
        milestones = text[text.index("Milestones"):]
        assert max(map(len, milestones.splitlines())) <= 80, milestones
        assert re.search(r"1,000,000 +Bartholomew.*? +opening balance\n", text)
        assert re.search(r"2,000,000 \(target\) +Bartholomew.*? +1 +1 +\d{4}-", text)


def test_no_game_and_unknown_game():
    result = ref("stats")
    assert result.exit_code == 5 and "no record" in result.stderr
    ok("new-session")
    assert "No hands recorded yet" in ok("stats").stdout
    result = ref("stats", "--game", "nope")
    assert result.exit_code == 5 and "no game named 'nope'" in result.stderr


def test_hands_all_voided_are_not_no_hands_recorded():
    """Audit 43: after a hand was recorded and voided, ``ref stats`` said "No hands recorded yet."
    (its header said, rightly, 0 hands in force)."""
    ok("new-session", "--players", "Bill,Ben,Larry")
    assert ok("stats").stdout.splitlines()[1] == "No hands recorded yet."
    ok("score-hand", "--points", "Bill=20", "--points", "Ben=1", "--points", "Larry=1")
    ok("void", "1", "--reason", "a slip")
    lines = ok("stats").stdout.splitlines()
    assert lines[:2] == ["Statistics of rummy-2m (rummy-2m): 0 hands in force, 0 Rummy Nights (0 closed)",
                         "No hands in force (1 hand voided)."]
    s = ref_json("stats")
    assert (s["hands"], s["voided"], s["nights"]) == (0, 1, 0)
    for _ in range(2):
        ok("score-hand", "--points", "Bill=20", "--points", "Ben=1", "--points", "Larry=1")
    ok("void", "3", "--reason", "a slip")
    assert ok("stats").stdout.splitlines()[1].split() == ["player", "hands", "nights", "avg/hand", "avg/night",
                                                          "best", "hand", "worst", "hand"]
    assert (ref_json("stats")["hands"], ref_json("stats")["voided"]) == (1, 2)


# -- Simple Rummy, built through the store layer (hands are games; results carry count and won) ---


def simple_session(players: tuple[str, ...], first: str = "Ann") -> dict:
    """A Simple Rummy session's own data, as ``ref new-session`` writes it (its table)."""
    table = {"ruleset": "simple-rummy", "players": list(players), "cards": 7, "wildcards": 1, "variations": [],
             "going_out": "at-most-one", "low_count_ending": True, "sequences_to_go_out": 0,
             "natural_sequences_to_go_out": 0, "four_sevens": False}
    return {"table": table, "dealer": players[-1], "first_player": first, "how": "test", "turned_up": None}


def simple_games(games: list[tuple], per_night: int = 3) -> None:
    """A simple-rummy table of Ann, Bob, Cy: each game is (counts, winner, who went out[, who
    dropped out]), appended through the ledger as drafts (the kind's adjudication is tested
    elsewhere); a dropped player's count is None (cards face down, S14)."""
    from pathlib import Path

    from rummyref.record import Draft, EntryKind, GameHeader, PlayerResult
    from rummyref.rules.ruleset import load_ruleset
    from rummyref.store.record import writing

    rs = load_ruleset("simple-rummy")
    header = GameHeader("table", rs.name, Path(rs.source).read_text(encoding="utf-8"), None, 0,
                        (("Ann", 0), ("Bob", 0), ("Cy", 0)),
                        {"closed_roster": False, "full_rounds": False, "method": "low-count"})
    with writing(None, create=True) as rec:
        rec.create_game(header)
    for start in range(0, len(games), per_night):
        with writing(None) as rec:
            g = rec.game_row("table")
            rec.open_session(g, None, simple_session(("Ann", "Bob", "Cy")))
            for his, (counts, winner, out, *dropped) in enumerate(games[start:start + per_night], 1):
                ending = {"kind": "went-out" if out else "stock-exhausted", "player": out,
                          "dropped": list(dropped[0]) if dropped else []}
                body = {"form": "simple", "hands": {}, "ending": ending, "winner": winner}
                results = tuple(PlayerResult(n, int(n == winner), c, n == winner) for n, c in counts.items())
                rec.append(g, rec.position(g), Draft(EntryKind.HAND, start + his, his, "Ann", body, results))
            if len(games[start:start + per_night]) % 3 == 0:
                rec.close_session(g, rec.position(g))


SIMPLE = [
    ({"Ann": 0, "Bob": 12, "Cy": 30}, "Ann", "Ann"),
    ({"Ann": 20, "Bob": 0, "Cy": 7}, "Bob", "Bob"),
    ({"Ann": 0, "Bob": 5, "Cy": 9}, "Ann", "Ann"),  # Ann takes match 1, 2-1
    ({"Ann": 4, "Bob": 3, "Cy": 3}, "Cy", None),  # stock ran out: Cy on S12
    ({"Ann": 3, "Bob": 3, "Cy": 3}, None, None),  # a tie game: nobody
    ({"Ann": 10, "Bob": 8, "Cy": 0}, "Cy", "Cy"),  # Cy takes match 2, 2-0
]


def test_simple_rummy_stats_count_games_and_matches_won():
    simple_games(SIMPLE)
    s = ref_json("stats", "--game", "table")
    assert s["method"] == "low-count" and s["night_score"] == "games won" and s["milestones"] == []
    p = by_name(s)
    assert [p[n]["games_won"] for n in ("Ann", "Bob", "Cy")] == [2, 1, 2]
    assert [p[n]["matches_won"] for n in ("Ann", "Bob", "Cy")] == [1, 0, 1]
    assert [p[n]["go_outs"] for n in ("Ann", "Bob", "Cy")] == [2, 1, 1]
    assert p["Ann"]["average_count"] == round((0 + 20 + 0 + 4 + 3 + 10) / 6, 1)
    assert p["Cy"]["best_hand"] == {"value": 0, "hand": 6, "night": 2}  # the lowest count is the best
    assert p["Cy"]["worst_hand"] == {"value": 30, "hand": 1, "night": 1}
    assert p["Ann"]["average_per_hand"] is None
    # night 1: Ann 2 games, Bob 1, Cy 0; night 2: Cy 2, Ann 0, Bob 0
    assert (p["Ann"]["nights_won"], p["Cy"]["nights_won"], p["Bob"]["nights_won"]) == (1, 1, 0)
    assert (p["Cy"]["longest_hand_streak"], p["Cy"]["current_hand_streak"]) == (1, 1)
    h2h = {(h["player"], h["opponent"]): (h["won"], h["lost"], h["level"]) for h in s["head_to_head"]}
    assert h2h["Ann", "Bob"] == (1, 0, 1) and h2h["Cy", "Ann"] == (1, 1, 0)
    text = ok("stats", "--game", "table").stdout
    assert "games won" in text and "matches won" in text and "6 games in force" in text
    assert "0 (game 6)" in text and "sessions won" in text and "A game goes to its recorded winner" in text


def test_simple_rummy_voided_game_is_left_out():
    simple_games(SIMPLE)
    from rummyref.record import Draft, EntryKind
    from rummyref.store.record import writing

    with writing(None) as rec:
        g = rec.game_row("table")
        target = rec.effective(g, 6).seq
        rec.append(g, rec.position(g), Draft(EntryKind.VOID, 6, None, None, {}, (), "Cy's 7s were a miscount", target))
    p = by_name(ref_json("stats", "--game", "table"))
    assert [p[n]["games_won"] for n in ("Ann", "Bob", "Cy")] == [2, 1, 1]
    assert p["Cy"]["matches_won"] == 0


SIMPLE_DROPS = [
    ({"Ann": 0, "Bob": 12, "Cy": 30}, "Ann", "Ann"),
    ({"Ann": 20, "Bob": None, "Cy": 0}, "Cy", "Cy", ["Bob"]),  # Bob dropped out (S14)
    ({"Ann": 5, "Bob": 0, "Cy": 9}, "Bob", "Bob"),
    ({"Ann": None, "Bob": None, "Cy": 0}, "Cy", "Cy", ["Ann", "Bob"]),  # session 2: both dropped out
    ({"Ann": 6, "Bob": 0, "Cy": 4}, "Bob", "Bob"),
]


def test_simple_rummy_stats_count_drops_apart_from_games_played():
    simple_games(SIMPLE_DROPS)
    s = ref_json("stats", "--game", "table")
    assert s["hands"] == 5
    p = by_name(s)
    rows = {n: (p[n]["hands"], p[n]["games_played"], p[n]["games_dropped"], p[n]["nights_played"],
                p[n]["games_won"], p[n]["average_count"]) for n in ("Ann", "Bob", "Cy")}
    assert rows == {
        "Ann": (4, 4, 1, 2, 1, 7.8),  # (0 + 20 + 5 + 6) / 4
        "Bob": (3, 3, 2, 2, 2, 4.0),  # (12 + 0 + 0) / 3
        "Cy": (5, 5, 0, 2, 2, 8.6),  # (30 + 0 + 9 + 0 + 4) / 5
    }
    # a drop is no count to judge: Bob's best and worst are from the games he played out
    assert p["Bob"]["best_hand"] == {"value": 0, "hand": 3, "night": 1}
    assert p["Bob"]["worst_hand"] == {"value": 12, "hand": 1, "night": 1}
    # ... but the game was dealt to him: a drop ends a run of games won (won, dropped, won: 1 in a row)
    assert (p["Bob"]["longest_hand_streak"], p["Bob"]["current_hand_streak"]) == (1, 1)
    assert (p["Cy"]["longest_hand_streak"], p["Cy"]["current_hand_streak"]) == (1, 0)
    text = ok("stats", "--game", "table").stdout
    assert re.search(r"^player +games +dropped +sessions +avg count", text, re.M)
    assert re.search(r"^Ann +4 +1 +2 +7\.8 +0 \(game 1\) +20 \(game 2\)$", text, re.M)
    assert re.search(r"^Bob +3 +2 +2 +4\.0 +0 \(game 3\) +12 \(game 1\)$", text, re.M)
    assert "dropped: dropped out (S14), not counted as played" in text


def test_points_games_have_no_drop_figures():
    ok("new-session")
    ok("score-hand", "--points", "Bill=5", "--points", "Ben=5", "--points", "Larry=5")
    p = by_name(ref_json("stats"))
    assert (p["Bill"]["hands"], p["Bill"]["games_played"], p["Bill"]["games_dropped"]) == (1, None, None)
    assert "dropped" not in ok("stats").stdout


# -- Gin: one game to 100, hand by hand ---------------------------------------------------------


def gin_game() -> None:
    """Session 1: Ann goes gin (30), a dead hand. Session 2: Bob knocks and is undercut (Ann 33),
    Ann knocks (18)."""
    ok("new-session", "--ruleset", "gin", "--players", "Ann,Bob")
    ok("score-hand", "--hand", "Ann=AH 2H 3H 4H 5D 5S 5C KD KS KC", "--hand", "Bob=9C 10C JC 6S 6D 6H 2S 3S 4S 5H",
       "--gin", "Ann")
    ok("score-hand", "--dead")
    ok("end-session")
    ok("new-session")
    ok("score-hand", "--hand", "Bob=2H 3H 4H 5S 5D 5C 9C 9D 9S 8C", "--hand", "Ann=KS QS JS 10S 7H 7D 7C 2C 3C AC",
       "--knock", "Bob")
    ok("score-hand", "--hand", "Ann=2H 3H 4H 5S 5D 5C 9C 9D 9S AC", "--hand", "Bob=KS QS JS 7C 7D 7H 8H 8D AD 2D",
       "--knock", "Ann")


def test_gin_stats_count_knocks_and_gin_as_going_out_and_a_dead_hand_as_won_by_nobody():
    """Audit B item 3: "went out" was 0 for a player who knocked and went gin; a dead hand was
    won by both players (the best score of the hand, 0 and 0)."""
    gin_game()
    s = ref_json("stats")
    assert (s["method"], s["hands"], s["nights"], s["closed_nights"]) == ("gin", 4, 2, 1)
    p = by_name(s)
    # went out: Ann's gin and knock; Bob's knock, though he was undercut
    assert (p["Ann"]["go_outs"], p["Bob"]["go_outs"]) == (2, 1)
    # hands won: 1 (gin) and 3 (the undercut) and 4 Ann; the dead hand 2 nobody
    assert (p["Ann"]["hands_won"], p["Bob"]["hands_won"]) == (3, 0)
    assert (p["Ann"]["longest_hand_streak"], p["Ann"]["current_hand_streak"]) == (2, 2)
    assert (p["Ann"]["points"], p["Ann"]["best_hand"]) == (81, {"value": 33, "hand": 3, "night": 2})
    assert p["Ann"]["claims_won"] == 0 and p["Ann"]["games_won"] is None
    assert [m["threshold"] for m in s["milestones"]] == [100]


def test_gin_stats_have_a_table_of_their_own():
    """No Rummy! won, no avg/night, no night won by the most points, no head to head on points."""
    gin_game()
    assert ok("stats").stdout.splitlines() == [
        "Statistics of gin (gin): 4 hands in force, 2 sessions (1 closed)",
        "player  hands  sessions  points  avg/hand    best hand",
        "Ann         4         2      81      20.3  33 (hand 3)",
        "Bob         4         2       0       0.0            -",
        "player  hands won  went out  hand streak",
        "Ann             3         2    2 (now 2)",
        "Bob             0         1    0 (now 0)",
        "Points: won in the hands, before the boxes and the game bonus (G10, G11).",
        "A hand goes to the player who scored it (a dead hand to nobody); went out:",
        "ended the hand by a knock (undercut or not), gin or big gin;",
        "streak: the most hands won in a row, and the run going on now.",
        "Milestones (who got there, in order):",
        "   milestone  player           hand  session  date",
        "100 (target)  not reached yet",
    ]


# -- the pure computation --------------------------------------------------------------------


def game(*names: str, target: int | None = 2_000_000, opening: dict | None = None) -> Game:
    opening = opening or {}
    return Game("g", "rummy-2m", target, 0, tuple(Player(n, i, opening.get(n, 0)) for i, n in enumerate(names, 1)), "")


def test_milestones_come_from_the_data_file_below_the_target():
    assert milestones_for("rummy-2m", 2_000_000) == (100_000, 500_000, 1_000_000, 2_000_000)
    assert milestones_for("rummy-2m", 300_000) == (100_000, 300_000)
    assert milestones_for("house-rules", 5000) == (5000,)
    assert milestones_for("simple-rummy", None) == ()


def test_a_milestone_reached_twice_counts_the_first_time_only():
    g = game("A", "B", target=300)
    hands = [HandLine(1, 1, "d1", (("A", 150), ("B", 0))), HandLine(2, 1, "d1", (("A", -100), ("B", 120))),
             HandLine(3, 1, "d1", (("A", 60), ("B", 100)))]
    s = compute_stats(StatsInput(g, "melded-minus-held", POINTS_STYLE, (100, 300), (NightLine(1, "d1", False),), tuple(hands)))
    hits = {m.threshold: [(h.name, h.hand) for h in m.hits] for m in s.milestones}
    assert hits == {100: [("A", 1), ("B", 2)], 300: []}


def test_ties_share_hands_and_nights():
    g = game("A", "B")
    hands = (HandLine(1, 1, "d", (("A", 5), ("B", 5))), HandLine(2, 2, "d", (("A", 1), ("B", 3))))
    nights = (NightLine(1, "d", True), NightLine(2, "d", True))
    s = compute_stats(StatsInput(g, "melded-minus-held", POINTS_STYLE, (), nights, hands))
    a, b = s.players
    assert (a.hands_won, b.hands_won, a.nights_won, b.nights_won) == (1, 2, 1, 2)
    assert (b.longest_night_streak, b.current_night_streak, a.current_night_streak) == (2, 2, 0)


nights_st = st.lists(
    st.lists(st.tuples(st.integers(-50, 120), st.integers(-50, 120), st.integers(-50, 120)), min_size=1, max_size=4),
    min_size=1, max_size=6,
)


@settings(max_examples=60, deadline=None)
@given(nights_st)
def test_properties(nights_points):
    g = game("A", "B", "C")
    hands, n = [], 0
    for night, hand_points in enumerate(nights_points, 1):
        for pts in hand_points:
            n += 1
            hands.append(HandLine(n, night, "d", tuple(zip("ABC", pts))))
    nights = tuple(NightLine(i, "d", True) for i in range(1, len(nights_points) + 1))
    s = compute_stats(StatsInput(g, "melded-minus-held", POINTS_STYLE, (), nights, tuple(hands)))
    pairs = {(h.player, h.opponent): h for h in s.head_to_head}
    for (a, b), h in pairs.items():
        other = pairs[b, a]
        assert (h.won, h.lost, h.level) == (other.lost, other.won, other.level)
        assert h.won + h.lost + h.level == len(nights)
    assert sum(p.hands_won for p in s.players) >= len(hands)
    assert sum(p.nights_won for p in s.players) >= len(nights)
    for p, name in zip(s.players, "ABC"):
        assert p.points == sum(dict(h.points)[name] for h in hands)
        assert p.current_hand_streak <= p.longest_hand_streak <= p.hands_won
        assert p.best_hand.value >= p.worst_hand.value
    json.dumps(s.to_json())
