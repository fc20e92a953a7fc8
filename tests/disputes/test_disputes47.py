"""Audit issue12-round8: a dispute reads the table exactly as ``ref score-hand`` does, by asking
the scoring's own seating (SPEC §7: one reading of the table). Each test checks the dispute's
answer against what score-hand credits for the same table (Bill the first meld, Larry the
second, Ben the card)."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json, ref_subprocess


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("RUMMYREF_NOW", "2026-11-12T19:30")


def words(text: str) -> str:
    return " ".join(text.split())


def fresh() -> None:
    r = ref("new-session", "--players", "Bill,Ben,Larry", "--wildcards", "2")
    assert r.exit_code == 0, r.stderr


def scored(table: str, card: str) -> tuple[str, str, int] | None:
    """Where score-hand seats Ben's card on the table (the meld's table cards, the card it is
    read as, its value), or None where it refuses the card (exit 4). Each table meld is stated
    with '/' (the meld as first laid), as a dispute's --table gives it."""
    melds = [m.strip() for m in table.split("/")]
    args = ["score-hand", "--json", "--melded", f"Bill={melds[0]} /", "--melded", f"Ben={card}",
            "--held", "Bill=", "--held", "Ben=", "--held", "Larry="]
    args += ["--melded", f"Larry={melds[1]} /"] if len(melds) > 1 else ["--melded", "Larry="]
    r = ref(*args)
    if r.exit_code == 4:
        return None
    assert r.exit_code == 0, r.stderr
    import json

    for meld in json.loads(r.stdout)["score"]["arrangement"]:
        for laid in meld["laid"]:
            if laid["by"] == "Ben":
                rest = " ".join(x["card"] for x in meld["laid"] if x["by"] != "Ben")
                return rest, laid["as"], laid["value"]
    raise AssertionError("Ben's card is nowhere")


def same_meld(a: str, b: str) -> bool:
    return sorted(a.split()) == sorted(b.split())


# -- 1. the dispute's "unsaid" reading is where score-hand seats the card -----------------------

UNSAID = [
    # table, what score-hand credits (the meld, the card W stands for, its value)
    ("AS 2S 3S / QH KH AH", "AS 2S 3S", "4S", 4),
    ("AH 2H 3H / 9C 10C JC", "AH 2H 3H", "4H", 4),
    ("AS 2S 3S / 5S 6S 7S", "AS 2S 3S", "4S", 4),
    ("5S 6S 7S / 5H 6H 7H", "5S 6S 7S", "8S", 8),
    ("5C 6C 7C / 5H 6H 7H", "5H 6H 7H", "8H", 8),
    ("2D 3D 4D / 2S 3S 4S", "2S 3S 4S", "5S", 5),
    ("2C 3C 4C / 6C 7C 8C", "2C 3C 4C", "5C", 5),
    ("JH QH KH / 2S 3S 4S", "2S 3S 4S", "5S", 5),
]


@pytest.mark.parametrize("table, meld, stands_for, value", UNSAID)
def test_the_dispute_names_the_meld_score_hand_credits(record, table, meld, stands_for, value):
    fresh()
    got = ref_json("dispute", "designate", "W", "--table", table, "--no-record")
    # the table as score-hand reads it (worked out by hand: SPEC §7's order)
    assert scored(table, "W") == (meld, stands_for, value)
    details = got["details"]
    read = details.get("unsaid") or details["counts_for"]
    assert same_meld(read["meld"], meld) and read["stands_for"] == stands_for and read["value"] == value
    text = words(ref("dispute", "designate", "W", "--table", table, "--no-record").stdout)
    if got["outcome"] == "player-says":
        assert f"if the player says nothing, ref's score reads it as the engine does: at the high end of {meld}, " \
               f"{value} point" in text
    else:  # one place worth the same everywhere: the ruling names the meld the score grows
        assert text.startswith(f"W counts for the run {meld}: {value} points.")


def test_a_ruling_kept_as_a_precedent_says_what_the_score_then_does(record):
    """Two runs take the W at the same value: the ruling settles which run grows, and the
    precedent kept names the run the score grows (hearts before clubs)."""
    fresh()
    got = ref_json("dispute", "designate", "W", "--table", "AC 2C 3C / AH 2H 3H")
    assert scored("AC 2C 3C / AH 2H 3H", "W") == ("AH 2H 3H", "4H", 4)
    assert got["outcome"] == "one-way" and got["verdict"] == "W counts for the run AH 2H 3H: 4 points."
    assert [r["verdict"] for r in ref_json("rulings")["rulings"]] == ["W counts for the run AH 2H 3H: 4 points."]


def test_equal_points_at_several_places_are_the_players_word_and_not_kept(record):
    fresh()
    got = ref_json("dispute", "designate", "W", "--table", "5C 6C 7C / 5H 6H 7H")
    assert got["outcome"] == "player-says" and got["details"]["unsaid"]["meld"] == "5H 6H 7H"
    assert ref_json("rulings")["rulings"] == []


def test_in_a_night_the_designate_ruling_and_the_hand_after_it_agree(tmp_path):
    db = str(tmp_path / "ref.db")
    typed = ['! designate W --table "AS 2S 3S / QH KH AH"',
             "cards", "AS 2S 3S", "", "W", "", "QH KH AH", "", "", "", "", "quit"]
    r = ref_subprocess("--db", db, "night", "--wildcards", "2", input="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stderr
    out = words(r.stdout)
    assert "ref's score reads it as the engine does: at the high end of AS 2S 3S, 4 points" in out
    assert "at the low end of QH KH AH, 10 points" not in out.split("if the player says nothing")[1].split(".")[0]
    assert ref_json("history", "--db", db)["entries"][-1]["results"] == {"Bill": 6, "Ben": 4, "Larry": 35}


# -- 2. a WILDCARD in a table meld keeps it in one piece: no Rummy! card goes in its place --------

KEPT_WHOLE = [("9D", "8D W 10D"), ("4H", "3H W 5H"), ("2S", "AS W 3S"), ("KC", "QC W AC"), ("9D", "8D W 10D JD")]


@pytest.mark.parametrize("card, table", KEPT_WHOLE)
def test_going_out_with_a_card_no_meld_takes_is_allowed(record, card, table):
    fresh()
    assert scored(table, card) is None  # score-hand refuses it laid off there (exit 4)
    got = ref_json("dispute", "discard", "--discarded", card, "--going-out", "--table", table, "--no-record")
    assert got["outcome"] == "allowed" and "rummy_card_on" not in got["details"]
    assert got["verdict"] == f"Allowed: discarding {card} ends the turn and the hand."


@pytest.mark.parametrize("card, table, stands_for, value", [
    ("JD", "8D W 10D", "JD", 10), ("7D", "8D W 10D", "7D", 7), ("9D", "8D W 10D / 9S 9H 9C", "9D", 9)])
def test_a_real_rummy_card_is_still_refused_where_score_hand_seats_it(record, card, table, stands_for, value):
    fresh()
    seated = scored(table, card)
    assert seated is not None and seated[1:] == (stands_for, value)
    got = ref_json("dispute", "discard", "--discarded", card, "--going-out", "--table", table, "--no-record")
    assert got["outcome"] == "illegal"
    assert same_meld(got["details"]["rummy_card_on"], seated[0])


def test_in_a_night_the_discard_ruling_allows_going_out(tmp_path):
    db = str(tmp_path / "ref.db")
    typed = ["! discard --discarded 9D --going-out --table '8D W 10D'", "quit"]
    r = ref_subprocess("--db", db, "night", "--wildcards", "2", input="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stderr
    assert "Allowed: discarding 9D ends the turn and the hand." in words(r.stdout)
    assert "Rummy! card" not in r.stdout


# -- 3. a WILDCARD laid sideways lies as the card it stands for: it cuts only the run next to it ----


def test_a_wildcard_on_the_kings_cuts_no_hearts_run(record):
    fresh()
    got = ref_json("dispute", "designate", "W", "--table", "5H 6H 7H / KS KH KD", "--as", "match", "--no-record")
    assert got["outcome"] == "match" and got["verdict"] == "W counts for the match KS KH KD: 10 points."
    assert got["details"]["cuts_off"] is None and got["details"]["runs_cut_off"] == []
    assert got["chain"][-1] == {"rule": "B6", "decided": "laid on the match it goes sideways as the KC: no run on "
                                                        "the table takes the KC, so no run is cut off"}
    # and score-hand lets a later 8H extend the hearts run, the W sideways as the KC
    r = ref("score-hand", "--json", "--melded", "Bill=5H 6H 7H", "--melded", "Larry=KS KH KD", "--melded",
            "Ben=W>match", "--claim", "Larry=8H", "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.exit_code == 0, r.stderr
    import json

    shown = [m["shown"] for m in json.loads(r.stdout)["score"]["arrangement"]]
    assert sorted(shown) == ["5H 6H 7H 8H*", "KS KH KD W(=KC)^"]


def test_a_wildcard_on_the_eights_cuts_the_hearts_run_off(record):
    fresh()
    got = ref_json("dispute", "designate", "W", "--table", "5H 6H 7H / 8S 8D 8C", "--as", "match", "--no-record")
    assert got["verdict"] == "W counts for the match 8S 8D 8C: 8 points; the run is cut off at its high end (B6)."
    assert got["details"]["runs_cut_off"] == [{"run": "5H 6H 7H", "end": "high"}]
    # score-hand: the 8H the W lies as is barred from the hearts run (B6)
    r = ref("score-hand", "--melded", "Bill=5H 6H 7H", "--melded", "Larry=8S 8D 8C", "--melded", "Ben=W>match",
            "--claim", "Larry=9H", "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.exit_code == 4 and "W>match" in r.stderr, (r.stdout, r.stderr)


# -- 4. a WILDCARD's places at the low end of a run are listed too ---------------------------------


@pytest.mark.parametrize("table, verdict", [
    ("2C 3C 4C / 6C 7C 8C", "W can count 1 point or 9 points: the player says which run it joins (1 point at the "
                            "low end of 2C 3C 4C; 5 points at the high end of 2C 3C 4C; 5 points at the low end of "
                            "6C 7C 8C; 9 points at the high end of 6C 7C 8C)."),
    ("2C 3C 4C / 2S 2H 2D", "W can count 1 point or 5 points: the player says which run it joins (1 point at the "
                            "low end of 2C 3C 4C; 5 points at the high end of 2C 3C 4C)."),
])
def test_a_wildcard_may_join_a_run_at_its_low_end(record, table, verdict):
    fresh()
    got = ref_json("dispute", "designate", "W", "--table", table, "--no-record")
    assert got["verdict"] == verdict
    low = {"meld": "2C 3C 4C", "kind": "run", "becomes": "W(=AC) 2C 3C 4C", "stands_for": "AC", "value": 1}
    assert got["details"]["options"][0] == low and low in got["details"]["places"]
    # score-hand accepts the place said: W=AC below Bill's 2C 3C 4C, 1 point
    assert scored(table, "W=AC") == ("2C 3C 4C", "AC", 1)
    # unsaid, the score's own place (a WILDCARD extends a run at its high end)
    assert got["details"]["unsaid"] == {**scored_option(table), "kind": "run"}


def scored_option(table: str) -> dict[str, object]:
    meld, stands_for, value = scored(table, "W")  # type: ignore[misc]
    becomes = f"{meld} W(={stands_for})"
    return {"meld": meld, "becomes": becomes, "stands_for": stands_for, "value": value}


def test_a_wildcard_on_one_run_is_worth_what_its_end_says(record):
    fresh()
    got = ref_json("dispute", "designate", "W", "--table", "JH QH KH", "--no-record")
    assert [(o["stands_for"], o["value"]) for o in got["details"]["options"]] == [("10H", 10), ("AH", 15)]
    assert got["outcome"] == "player-says" and got["details"]["unsaid"]["stands_for"] == "AH"
    assert scored("JH QH KH", "W")[1:] == ("AH", 15)  # type: ignore[index]
    assert scored("JH QH KH", "W=10H")[1:] == ("10H", 10)  # type: ignore[index]
