"""Audit help-json-exit: what the command surface promises as a whole (#2, #3, #5, #7; #1 and
#4 in test_help_examples.py)."""

from __future__ import annotations

import pytest
from cli_helpers import ref, ref_json

# -- 2. a bad card of a dispute names the argument it is in ----------------------------------


@pytest.mark.parametrize(("args", "said"), [
    (("pickup", "7H", "--hand", "8H 2C", "--table", "9H 10H JH", "--table", "2S 3S 4X"),
     "unreadable card '4X' in --table 2 (card 3, column 7)"),
    (("designate", "3D", "--table", "4D 5D 6D", "--table", "3S 3H 3X"),
     "unreadable card '3X' in --table 2 (card 3, column 7)"),
    (("designate", "3D", "--table", "4D 5D 6X"), "unreadable card '6X' in --table (card 3, column 7)"),
    (("discard", "--took", "7H", "--discarded", "2X"), "unreadable card '2X' in --discarded (card 1, column 1)"),
    (("discard", "--took", "7X"), "unreadable card '7X' in --took (card 1, column 1)"),
    (("pickup", "7X", "--hand", "8H 2C"), "unreadable card '7X' in CARD (card 1, column 1)"),
    (("pickup", "7H", "--hand", "8H 2X"), "unreadable card '2X' in --hand (card 2, column 4)"),
], ids=lambda v: " ".join(v)[:40] if isinstance(v, tuple) else None)
def test_a_dispute_card_error_names_its_argument(args, said):
    result = ref("dispute", *args)
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {said}\n"), result.stderr
    assert result.stdout == ""


# -- 3. an empty question is refused, and not logged as a miss --------------------------------


@pytest.mark.parametrize("question", ["", "   "])
def test_an_empty_question_is_refused(question, tmp_path, monkeypatch):
    log = tmp_path / "miss.log"
    monkeypatch.setenv("RUMMYREF_RULING_LOG", str(log))
    for extra in ((), ("--json",)):
        result = ref("ruling", question, *extra)
        assert result.exit_code == 3, result.stderr
        assert result.stderr.startswith("error: the question is empty\n"), result.stderr
        assert "ref ruling B7" in result.stderr and result.stdout == ""
    assert not log.exists() or log.read_text() == ""


# -- 5. an option left without its value: the usage line and the hint --------------------------


@pytest.mark.parametrize(("args", "usage", "command"), [
    (("--db",), "Usage: ref [OPTIONS] COMMAND [ARGS]...", "ref"),
    (("standings", "--game"), "Usage: ref standings [OPTIONS]", "ref standings"),
    (("history", "-s"), "Usage: ref history [OPTIONS]", "ref history"),
    (("dispute", "designate", "3D", "--as"), "Usage: ref dispute designate [OPTIONS] CARD", "ref dispute designate"),
], ids=str)
def test_an_option_without_its_value_says_the_usage(args, usage, command):
    result = ref(*args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == usage, result.stderr
    assert lines[1] == f"Try '{command} --help' for help."
    assert lines[-1].startswith(f"Error: Option '{args[-1]}' requires an argument.")


# -- 7. a hand recorded in points: the columns only cards tell are null --------------------------


def test_a_points_hand_has_no_card_columns_in_json():
    assert ref("new-session").exit_code == 0
    unknown = dict.fromkeys(("melded", "claimed", "held", "wild_penalty"))
    hand = ref_json("score-hand", "--points", "Bill=10", "--points", "Ben=-5", "--points", "Larry=20")
    assert hand["score"]["form"] == "points"
    assert [s["points"] for s in hand["score"]["scores"]] == [10, -5, 20]
    assert all({k: s[k] for k in unknown} == unknown for s in hand["score"]["scores"])
    amended = ref_json("amend", "1", "--points", "Bill=10", "--points", "Ben=-5", "--points", "Larry=21",
                       "--reason", "typo")
    assert all({k: s[k] for k in unknown} == unknown for s in amended["score"]["scores"])
    entries = ref_json("history")["entries"]
    for entry in entries:
        assert all({k: s[k] for k in unknown} == unknown for s in entry["facts"]["score"]["scores"])
    assert ref("verify").exit_code == 0  # the record keeps what it kept: only the JSON shows null
    cards = ref_json("score-hand", "--melded", "Bill=AS 2S 3S", "--held", "Ben=KH", "--held", "Larry=QH",
                     "--out", "Bill")
    assert cards["score"]["form"] == "cards"
    assert [s["melded"] for s in cards["score"]["scores"]] == [6, 0, 0]
    assert [s["held"] for s in cards["score"]["scores"]] == [0, 10, 10]
