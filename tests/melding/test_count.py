"""``ref count``: human output, --json, --jsonl, refusals."""

from __future__ import annotations

import json

import pytest
from cli_helpers import ref, ref_json

pytestmark = pytest.mark.no_record  # pure: run once, on SQLite (tests/conftest.py)


def test_count_shows_melds_unmelded_count_and_going_out():
    result = ref("count", "2H", "3H", "4H", "4S", "4D")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("hand") and "[rummy-2m]" in lines[0]
    assert "meld      match  4♠ 4♥ 4♦" in result.stdout
    assert "unmelded  2♥ 3♥" in result.stdout
    assert "count     5" in result.stdout
    assert "go out    no (at-most-one): at least 2 cards stay unmelded (fewest: 2H 3H)" in result.stdout


def test_count_shows_what_each_wildcard_stands_for():
    result = ref("count", "7S 7H W W", "--ruleset", "simple-rummy")
    assert result.exit_code == 0, result.stderr
    assert "7♠ 7♥ W(=7♦) W(=7♣)" in result.stdout
    assert "go out    yes" in result.stdout


@pytest.mark.parametrize(
    "args, count, melds, unmelded, can_go_out",
    [
        (["2H 3H 4H 4S 4D"], 5, [["4S", "4H", "4D"]], ["2H", "3H"], False),
        (["QS", "KS", "AS", "5H"], 5, [["QS", "KS", "AS"]], ["5H"], True),
        (["QS,KS,AS", "-r", "simple-rummy"], 0, [["QS", "KS", "AS"]], [], True),
        (["W W W", "-r", "simple-rummy"], 0, [["W", "W", "W"]], [], True),
        (["W W"], 30, [], ["W", "W"], False),  # rummy-2m: an unmelded WILDCARD costs 15
        (["h10 ♥j", "QH"], 0, [["10H", "JH", "QH"]], [], True),
    ],
)
def test_count_json(args, count, melds, unmelded, can_go_out):
    data = ref_json("count", *args)
    assert data["count"] == count
    assert data["melds"] == melds
    assert data["unmelded"] == unmelded
    assert data["can_go_out"] is can_go_out
    assert len(data["meld_kinds"]) == len(melds)
    assert data["ruleset"] in ("rummy-2m", "simple-rummy")


def test_count_json_wildcard_representation():
    data = ref_json("count", "5H 6H W 8H 7H 7S 7D", "--ruleset", "simple-rummy")
    assert data["count"] == 0 and data["unmelded"] == []
    assert sorted(data["meld_kinds"]) == ["group", "sequence"]
    reps = [r for r in data["represents"] if "W" in data["melds"][data["represents"].index(r)]]
    assert reps and all(None not in r for r in reps)


@pytest.mark.parametrize(
    "args, message",
    [
        (["AS", "AS"], "appears twice"),
        (["W W W"], "at most 2"),  # rummy-2m has two WILDCARDs at most
        (["W W W W W W W W", "-r", "simple-rummy"], "at most 7"),
        (["1S"], "unreadable card '1S'"),
    ],
)
def test_count_refuses_bad_hands(args, message):
    result = ref("count", *args)
    assert result.exit_code == 3
    assert message in result.stderr
    assert result.stdout == ""


def test_count_accepts_seven_wildcards_in_simple_rummy():
    data = ref_json("count", "W W W W W W W 2C", "-r", "simple-rummy")
    assert data["count"] == 0 and data["can_go_out"] is True


def test_count_without_cards_is_a_usage_error():
    result = ref("count")
    assert result.exit_code == 2


def test_count_unknown_ruleset():
    result = ref("count", "AS", "--ruleset", "poker")
    assert result.exit_code == 5


def test_count_jsonl_one_object_per_line_errors_in_place():
    lines = ["AS 2S 3S", "", "XX 3", "7S 7H W W W", "AS AS", "QS KS AS 9D"]
    result = ref("count", "--jsonl", "-r", "simple-rummy", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stderr
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objs) == len(lines)
    assert objs[0]["count"] == 0 and objs[0]["melds"] == [["AS", "2S", "3S"]]
    assert objs[1]["cards"] == [] and objs[1]["count"] == 0  # a blank line is an empty hand
    assert "unreadable card 'XX'" in objs[2]["error"] and objs[2]["line"] == 3
    assert objs[3]["count"] == 0 and objs[3]["can_go_out"] is True
    assert "appears twice" in objs[4]["error"]
    assert objs[5]["count"] == 9 and objs[5]["can_go_out"] is True


def test_count_jsonl_refuses_cards_as_arguments():
    assert ref("count", "--jsonl", "AS", input="").exit_code == 2
