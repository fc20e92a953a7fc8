"""Audit rules44: `ref ruling` sends the table's phrases to the rule a player means.

1. A game's own rulebook that only guesses ("Not sure") gives way to a sure rule of the house
   rules (Rummy 2,000,000's rulebook) that holds at any table: "can I take back my discard" at a
   Simple Rummy table is B7, not V4 (a variation not even in play). A sure own answer always
   wins, and a house rule of the house game's own play (its deal order, its empty deck) never
   answers at another game's table.
2. A miss suggests a phrasing the rulebook searched answers, and names a built-in rulebook not
   searched that has the rule ("undercut" with no record: gin's G8, --ruleset gin).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

from rummyref.rulebook.book import Hit, house_answers, load_rulebook


def ok(*args: str):
    r = ref(*args)
    assert r.exit_code == 0, r.stderr
    return r


def simple_rummy_table() -> None:
    ok("new-session", "--game", "friday", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5")


def gin_table() -> None:
    ok("new-session", "--game", "porch", "--ruleset", "gin", "--players", "Ann,Bob")


def rummy_night() -> None:
    ok("new-session")


def words(text: str) -> str:
    return " ".join(text.split())


# -- 1. the house rules answer where the game's own rulebook only guesses -----------------------


@pytest.mark.parametrize(
    "table, question, own_book, guesses",
    [
        (simple_rummy_table, "can I take back my discard", "simple-rummy", ["V4", "V2"]),
        (simple_rummy_table, "card laid is card played", "simple-rummy", ["S9", "S17"]),
        (gin_table, "card laid is card played", "gin", ["G7", "G10"]),
    ],
    ids=["take-back-simple-rummy", "card-laid-simple-rummy", "card-laid-gin"],
)
def test_a_sure_house_rule_answers_where_the_games_own_rulebook_only_guesses(table, question, own_book, guesses):
    table()
    game = "friday" if own_book == "simple-rummy" else "porch"
    data = ref_json("ruling", "--no-log", question)
    assert [r["id"] for r in data["rules"]] == ["B7", *guesses]
    assert [r["ruleset"] for r in data["rules"]] == ["rummy-2m", own_book, own_book]
    assert data["sure"] is True
    assert data["answered_from"] == {"rulebooks": ["rummy-2m", own_book], "source": "house-rules", "game": game}
    text = ok("ruling", "--no-log", question).stdout
    lines = text.splitlines()
    assert lines[0] == "B7 (rummy-2m) A card laid is a card played"  # no "Not sure; maybe:": the answer is sure
    tail = lines[lines.index("Or maybe:") + 1 :]  # the game's own guesses, as --json lists them
    assert [t.split()[0] for t in tail[:2]] == guesses and all(f"({own_book})" in t for t in tail[:2])
    assert "Also possible:" not in lines
    assert words(text).endswith(
        f"From rummy-2m, the house rules: {own_book} (game '{game}') has no rule for it; its nearest guesses "
        'are under "Or maybe".')


def test_the_games_own_guess_keeps_saying_whether_its_table_plays_it():
    simple_rummy_table()
    lines = ok("ruling", "--no-log", "can I take back my discard").stdout.splitlines()
    assert "  V4  (simple-rummy) Variation: Three-Card Draw (not in play)" in lines
    assert not any(line.startswith("Not in play at this table") for line in lines)  # B7 is no variation of it
    assert {r["id"]: r["in_play"] for r in ref_json("ruling", "--no-log", "can I take back my discard")["rules"]} == {
        "B7": None, "V4": False, "V2": False}


@pytest.mark.parametrize(
    "table, question, expected",
    [
        (simple_rummy_table, "who deals next", "S17"),  # A3 (Bill, Ben, Larry) is the house game's deal order
        (gin_table, "the deck ran out", "G9"),  # B9 is the house game's empty deck
        (gin_table, "can I go out without discarding", "G6"),  # B3 rules the house game's Rummy Line
    ],
)
def test_a_house_rule_of_the_house_games_own_play_never_answers_at_another_games_table(table, question, expected):
    table()
    data = ref_json("ruling", "--no-log", question)
    assert data["sure"] is False and data["answered_from"]["source"] == "game"
    assert data["rules"][0]["id"] == expected
    assert {r["ruleset"] for r in data["rules"]} == {data["answered_from"]["rulebooks"][0]}


@pytest.mark.parametrize(
    "table, question, expected",
    [(simple_rummy_table, "what's a king worth", "S13"), (gin_table, "undercut", "G8"),
     (gin_table, "what's a king worth", "G3"),  # Gin's own count (10), never Simple Rummy's S13 (13)
     (gin_table, "same count, who wins", "G8"), (gin_table, "what do we play to", "G10"),
     (rummy_night, "can I take back my discard", "B7")],
)
def test_a_sure_answer_of_the_games_own_rulebook_always_wins(table, question, expected):
    table()
    data = ref_json("ruling", "--no-log", question)
    assert data["sure"] is True and data["answered_from"]["source"] == "game"
    assert data["rules"][0]["id"] == expected


def test_nothing_changes_at_the_house_games_own_table():
    rummy_night()  # its own rulebook is the house rules: an unsure answer stays unsure, from it
    data = ref_json("ruling", "--no-log", "how many jokers")
    assert data["sure"] is False
    assert data["answered_from"] == {"rulebooks": ["rummy-2m"], "source": "game", "game": "rummy-2m"}


def test_the_house_rules_answer_is_sure_so_not_logged_and_a_guess_names_both_books_searched():
    simple_rummy_table()
    ok("ruling", "can I take back my discard")
    log = Path(__import__("os").environ["RUMMYREF_RULING_LOG"])
    assert not log.exists()
    ok("ruling", "who deals next")  # a guess: the house rules were asked too
    [row] = [line.split("\t") for line in log.read_text(encoding="utf-8").splitlines()]
    assert row[1:] == ["unsure", "simple-rummy,rummy-2m", "S17 V4 S4", "who deals next"]


def test_the_night_prompt_answers_the_same():
    simple_rummy_table()
    result = ref("night", "--game", "friday", input="? can I take back my discard\nq\n")
    assert "B7 (rummy-2m) A card laid is a card played" in result.stdout + result.stderr


def _hits(book: str, *pairs: tuple[str, float]) -> list[Hit]:
    rules = load_rulebook(book)
    return [Hit(rules.rule(rid), score) for rid, score in pairs]


@pytest.mark.parametrize(
    "own, house, expected",
    [
        ((("V4", 8.1), ("V2", 6.9)), (("B7", 21.0), ("B3", 10.3)), True),  # the audit's case
        ((("S3", 11.4), ("S4", 10.8)), (("B7", 13.0), ("B3", 4.0)), False),  # the own best 88% of B7's: a coin toss
        ((("S9", 6.6),), (("B7", 16.8), ("B4", 15.0)), False),  # B7 not a clear winner among the house rules
        ((("S9", 6.6),), (("B7", 6.9),), False),  # a weak house rule is no surer than the own guess
        ((("S17", 5.7),), (("A3", 14.0), ("A1", 5.4)), False),  # A3: the house game's deal order
        ((("S10", 5.0),), (("B9", 29.8),), False),  # B9: the house game's empty deck (score-hand)
        ((("S13", 20.0), ("S2", 3.0)), (("B7", 40.0),), False),  # a sure own answer always wins
    ],
)
def test_house_answers(own, house, expected):
    assert house_answers(_hits("simple-rummy", *own), _hits("rummy-2m", *house)) is expected


# -- 2. a miss suggests what the rulebook searched does answer ---------------------------------


def _suggested(stderr: str) -> str:
    found = re.search(r'e\.g\. "([^"]+)"', words(stderr))
    assert found, stderr
    return found.group(1)


@pytest.mark.parametrize("args", [["--ruleset", "gin"], ["--ruleset", "simple-rummy"], ["--ruleset", "rummy-500"], []])
def test_a_miss_suggests_a_phrasing_the_rulebook_searched_answers_surely(args):
    miss = ref("ruling", "--no-log", "xyzzy plugh", *args)
    assert miss.exit_code == 5 and miss.stdout == ""
    phrase = _suggested(miss.stderr)
    assert phrase != "can I take my discard back"
    data = ref_json("ruling", "--no-log", phrase, *args)
    assert data["sure"] is True
    assert data["rules"][0]["ruleset"] == (args[1] if args else "rummy-2m")


def test_the_audits_miss_with_ruleset_gin_suggests_a_gin_question():
    miss = ref("ruling", "--no-log", "can I take my discard back", "--ruleset", "gin")
    assert miss.exit_code == 5
    said = words(miss.stderr)
    assert 'e.g. "We both have 6, who gets the points?"' in said  # G8's own typical question
    assert "rummy-2m has it: B7 A card laid is a card played (--ruleset rummy-2m asks it)." in said
    assert ref_json("ruling", "--no-log", "We both have 6, who gets the points?", "--ruleset", "gin")["rules"][0]["id"] == "G8"


def test_a_game_tables_miss_suggests_its_own_rulebooks_phrasing():
    gin_table()
    miss = ref("ruling", "--no-log", "xyzzy plugh")
    assert miss.exit_code == 5
    data = ref_json("ruling", "--no-log", _suggested(miss.stderr))
    assert data["sure"] is True and data["answered_from"]["source"] == "game"
    assert data["rules"][0]["ruleset"] == "gin"


def test_with_no_record_a_miss_names_the_rulebook_that_has_it_and_how_to_ask():
    miss = ref("ruling", "--no-log", "undercut")
    assert miss.exit_code == 5 and miss.stdout == ""
    assert miss.stderr.splitlines()[0] == "error: no rule of rummy-2m or simple-rummy matches 'undercut'"
    assert "gin has it: G8 Knock points and the undercut (--ruleset gin asks it)." in words(miss.stderr)
    asked = ref_json("ruling", "--no-log", "undercut", "--ruleset", "gin")
    assert asked["rules"][0]["id"] == "G8" and asked["sure"] is True


def test_a_miss_names_no_other_rulebook_when_none_is_sure():
    miss = ref("ruling", "--no-log", "xyzzy plugh")
    assert " has it: " not in words(miss.stderr)


# -- 3. the Rummy Line: a card taken to be played by itself is B4 --------------------------------


def test_at_a_rummy_night_taking_the_top_card_to_play_it_by_itself_is_b4():
    rummy_night()
    lines = ok("ruling", "--no-log", "can I take the top card and play it by itself").stdout.splitlines()
    assert lines[0].startswith("B4 (rummy-2m) A card taken from the Rummy Line must be used")  # sure: no "Not sure"
    assert lines[lines.index("Also possible:") + 1].startswith("  B3  (rummy-2m)")


# -- 4. Gin: who deals is the table's own custom (G15), as ref enforces it ----------------------


@pytest.mark.parametrize("question", ["who deals next", "who deals the next hand", "whose turn is it to deal"])
def test_at_a_gin_table_who_deals_is_g15(question):
    gin_table()
    data = ref_json("ruling", "--no-log", question)
    assert data["rules"][0]["id"] == "G15" and data["sure"] is True
    assert data["answered_from"]["source"] == "game"  # not A3's Bill, Ben and Larry
    lines = ok("ruling", "--no-log", question).stdout.splitlines()
    assert lines[0] == "G15 (gin) Who deals: the table's own custom"


def test_whose_deal_is_it_at_a_gin_table_is_g15_first():
    gin_table()  # one word the rules use ("deal"), shared with G1's deal: G15 first, not sure
    assert ref_json("ruling", "--no-log", "whose deal is it")["rules"][0]["id"] == "G15"


def test_g15_says_what_ref_does_with_a_gin_dealer():
    """G15 states what the Gin game kind enforces: no deal order, --dealer and --first-dealer
    refused (exit 3), no dealer in the record."""
    rule = words(ok("ruling", "--no-log", "--ruleset", "gin", "G15").stdout)
    assert "ref keeps no deal order for Gin" in rule and "the table's own custom" in rule
    assert "ref score-hand refuses --dealer at a Gin table and ref new-session refuses --first-dealer" in rule
    first = ref("new-session", "--ruleset", "gin", "--players", "Ann,Bob", "--first-dealer", "Ann=KS")
    assert first.exit_code == 3 and "--first-dealer: not for Gin Rummy" in first.stderr
    gin_table()
    dealer = ref("score-hand", "--dead", "--dealer", "Ann")
    assert dealer.exit_code == 3 and "Gin keeps no deal order" in dealer.stderr
    hand = ref_json("score-hand", "--dead")
    assert not [key for key in hand if "deal" in key]  # the record keeps no dealer for a Gin hand


# -- 5. a player's name is a name, not a word to match (audit disputes45 #1) --------------------

CAN_PLAY = ["can Steve play", "can Mike play", "let Steve play", "can Bob play", "can Dave play tonight"]


@pytest.mark.parametrize("question", CAN_PLAY)
@pytest.mark.parametrize("table", [rummy_night, None], ids=["rummy-night", "no-record"])
def test_someone_named_asking_to_play_is_the_closed_roster(table, question):
    if table:
        table()
    lines = ok("ruling", "--no-log", question).stdout.splitlines()
    assert lines[0] == "A1 (rummy-2m) Closed roster: nobody new joins"  # sure: no "Not sure; maybe:"
    data = ref_json("ruling", "--no-log", question)
    assert data["sure"] is True and data["rules"][0]["id"] == "A1"


@pytest.mark.parametrize(
    "text, names",
    [("can Steve play", {"steve"}), ("can Mike play", {"mike"}),  # a name, never the typo "make"
     ("Steve wants in", {"steve"}), ("can Bob play", {"bob"}),  # Bob only in a sample question of S1
     ("can Larry play", set()), ("Pete's here with the pizza", set()),  # names the rules use
     ("Discrad twice?", set()), ("can I lay the Ace high", set()), ("GEDDOWWWT", set()),
     ("can steve play", set())],  # lower case: no telling a name from a word
)
def test_a_name_is_a_capitalised_word_the_rules_do_not_use(text, names):
    from rummyref.rulebook.book import _names, build_index

    assert _names(build_index(), text) == names


def test_a_name_stands_for_another_player_and_is_never_repaired():
    from rummyref.rulebook.book import explain

    query = explain("can Mike play")
    assert query.repaired == {}
    assert {t: w for t, w in query.weights.items() if "_" not in t} == {"anoth": 0.7, "player": 0.7, "play": 1.0}


def test_two_names_are_players_at_the_table_and_say_no_more_than_she_and_he():
    from rummyref.rulebook.book import explain

    named = explain("Ann went out, does Bob count his cards", "simple-rummy").weights
    assert named == explain("she went out, does he count his cards", "simple-rummy").weights
    assert "anoth" not in named and "player" not in named


def test_a_name_with_no_word_of_the_rules_finds_nothing():
    miss = ref("ruling", "--no-log", "who is Taylor Swift")
    assert miss.exit_code == 5 and miss.stdout == ""
