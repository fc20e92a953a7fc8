"""A black-box audit's small findings, each with the exact words and exit code: Simple Rummy's
going-out arrangement beside its count (V1), hand-size hints true to the variation and the role
(S1, S9, V4, V6, S14), every player dropped, too many WILDCARDs (one deck, exit 3), names given
twice or empty, the rule set's word for a hand, plurals, tables without trailing blanks, and a
void's entry in the history."""

from __future__ import annotations

from cli_helpers import ref, ref_json


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
    """The words of a message, its 80-column wrapping undone."""
    return " ".join(text.split())


def simple(*extra: str) -> None:
    ok("new-session", "--ruleset", "simple-rummy", *extra)


# -- V1 Minor: the count and the arrangement shown are the same melding --------------------------


def test_going_out_minor_shows_the_melding_its_count_is_of():
    simple("--players", "Ann,Bob", "--cards", "5", "--variation", "minor")
    hand = ["--hand", "Ann=2H 3H 4H 5H 6H 7H", "--hand", "Bob=5S 6S 2C 9D KD", "--out", "Ann"]
    shown = ok("score-hand", *hand).stdout
    assert shown.splitlines()[1:4] == [
        "player  count  arrangement               note",
        "Ann         0  2H 3H 4H 5H 6H 7H         went out",
        "Bob        35  unmelded: 5S 6S 9D KD 2C",
    ]
    assert "Ann went out as 2H 3H 4H 5H 6H / left out: 7H; the count above is of the best melding (S13). " \
        "Winner: Ann." in flat(shown)
    ok("void", "1", "--reason", "to record it again as JSON")
    ann = ref_json("score-hand", *hand)["players"][0]
    assert (ann["count"], [m["text"] for m in ann["melds"]], ann["unmelded"]) == (0, ["2H 3H 4H 5H 6H 7H"], [])
    assert ann["going_out"] == {"melds": [{"kind": "sequence", "cards": ["2H", "3H", "4H", "5H", "6H"],
                                           "text": "2H 3H 4H 5H 6H"}], "unmelded": ["7H"]}


def test_no_extra_line_when_the_going_out_is_the_best_melding():
    simple("--players", "Ann,Bob", "--cards", "3")
    shown = ok("score-hand", "--hand", "Ann=2H 3H 4H 9C", "--hand", "Bob=5S 6S 2C", "--out", "Ann").stdout
    assert "Ann         9  2H 3H 4H / unmelded: 9C  went out" in shown and "went out as" not in shown


# -- S1/S9 hand sizes: the hint fits the variation and the player ----------------------------------


def test_hand_size_hints_under_three_card_draw_and_spread_out(record):
    simple("--players", "Ann,Bob,Cy", "--cards", "5", "--variation", "three-card-draw")
    short = refused(4, record, "score-hand", "--hand", "Ann=2H 3H 4H 5H", "--hand", "Bob=5S 6S 2C 9D KD",
                    "--hand", "Cy=AS AD AC 8C 9C")
    assert flat(short.stderr) == (
        "refused (S1): Ann's hand has 4 cards, but with 5 dealt under Three-Card Draw (V4) a player who did not "
        "go out holds at least 5 at the end of a game under Three-Card Draw (V4) a hand may grow during a game, "
        "so only the fewest cards are checked: the cards dealt (5)")
    out = refused(4, record, "score-hand", "--hand", "Ann=2H 3H 4H 5H 6H", "--hand", "Bob=5S 6S 2C 9D KD",
                  "--hand", "Cy=AS AD AC 8C 9C", "--out", "Ann")
    assert flat(out.stderr) == (
        "refused (S9): Ann's hand has 5 cards, but with 5 dealt under Three-Card Draw (V4) the player who went "
        "out holds at least 6 at the end of a game under Three-Card Draw (V4) a hand may grow during a game, so "
        "only the fewest cards are checked: the cards dealt (5) plus the card just drawn")
    assert "one more" not in out.stderr
    ok("end-session")
    ok("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "5", "--variation",
       "spread-out")
    spread = refused(4, record, "score-hand", "--hand", "Ann=2H 3H 4H 5H", "--hand", "Bob=5S 6S 2C 9D KD",
                     "--hand", "Cy=AS AD AC 8C 9C")
    assert flat(spread.stderr).endswith(
        "under Spread-Out Discard Pile (V6) a hand may grow during a game, so only the fewest cards are checked: "
        "the cards dealt (5)")


def test_hand_size_hint_for_a_dropped_player(record):
    simple("--players", "Ann,Bob,Cy", "--cards", "5")
    r = refused(4, record, "score-hand", "--hand", "Ann=2H 3H 4H 5H 6H", "--hand", "Bob=5S 6S 2C",
                "--hand", "Cy=AS AD AC 8C 9C", "--dropped", "Bob")
    assert flat(r.stderr) == (
        "refused (S1): Bob's hand has 3 cards, but with 5 dealt a player who dropped out holds 5 or 6 at the end "
        "of a game a player who dropped out holds the cards dealt (5), or one more if they drew first; their "
        "hand need not be given (--dropped NAME alone; at a prompt: dropped)")
    played = refused(4, record, "score-hand", "--hand", "Ann=2H 3H 4H 5H", "--hand", "Bob=5S 6S 2C 9D KD",
                     "--hand", "Cy=AS AD AC 8C 9C")
    assert flat(played.stderr).endswith(
        "a hand ends with the cards dealt (5); the player who went out holds one more, the card just drawn")


# -- S14: somebody must be left to play ------------------------------------------------------------


def test_every_player_dropped_is_refused(record):
    simple("--players", "Ann,Bob,Cy", "--cards", "5")
    said = ("refused (S14): every player dropped out (Ann, Bob, Cy): somebody must be left to play the game "
            "if the whole table agreed to stop, that is a tie game: --tie, with no --dropped (S15)")
    everyone = ["--dropped", "Bob", "--dropped", "Ann", "--dropped", "Cy"]
    assert flat(refused(4, record, "score-hand", *everyone).stderr) == said
    assert flat(refused(4, record, "score-hand", *everyone, "--tie").stderr) == said
    with_hands = ["--hand", "Ann=2H 3H 4H 5H 6H", "--hand", "Bob=5S 6S 2C 3C 4C", "--hand", "Cy=AS AD AC 8C 9C"]
    assert flat(refused(4, record, "score-hand", *with_hands, *everyone).stderr) == said
    two = ref_json("score-hand", "--hand", "Ann=2H 3H 4H 5H 6H", "--dropped", "Bob", "--dropped", "Cy")
    assert two["winner"] == "Ann"


# -- one deck: more WILDCARDs than the session has is an input error, as a card twice is ---------------


def test_too_many_wildcards_is_exit_3_like_a_card_twice(record):
    simple("--players", "Ann,Bob", "--cards", "3", "--wildcards", "1")
    r = refused(3, record, "score-hand", "--hand", "Ann=W W 4H", "--hand", "Bob=5S 6S 2C")
    assert flat(r.stderr) == (
        "error: 2 WILDCARDs in the hands, but this session was opened with 1 WILDCARD (fixed at new-session) "
        "the whole table holds at most 1 WILDCARD (one deck; the number is chosen per session, S2)")
    twice = refused(3, record, "score-hand", "--hand", "Ann=2C 4H 5H", "--hand", "Bob=5S 6S 2C")
    assert twice.stderr.startswith("error: the 2C appears twice")


# -- names ---------------------------------------------------------------------------------------


def test_first_dealer_with_a_name_given_twice():
    for args in (["Ann=5S", "Ann=6S"], ["Ann=5S", "ann=6S", "Bob=7D"]):
        r = ref("first-dealer", *args)
        assert r.exit_code == 3 and r.stdout == ""
        name = args[1].split("=")[0]
        assert r.stderr.splitlines() == [f"error: {name} is named twice ({args[0]!r} and {args[1]!r})",
                                         f'name each player once, with all their cards: e.g. "{name}=W 5S"']


def test_new_session_first_dealer_with_a_name_given_twice(record):
    r = ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob", "--first-dealer", "Ann=5S",
            "--first-dealer", "Ann=6S")
    assert r.exit_code == 3
    assert r.stderr.splitlines()[0] == "error: Ann is named twice ('Ann=5S' and 'Ann=6S')"
    assert not record.exists()


def test_an_empty_player_name_is_refused(record):
    cases = {"A1,,A2": "name 2 of 3 is empty", "A1,A2,": "name 3 of 3 is empty", ",A1,A2": "name 1 of 3 is empty"}
    for players, said in cases.items():
        for command in ("new-session", "night"):
            r = ref(command, "--players", players, input="")
            assert r.exit_code == 3, (command, players, r.stderr)
            assert r.stderr.splitlines() == [f"error: --players {players!r}: {said}",
                                             "name every player, separated by commas: --players Ann,Bob,Cy"]
    for command in ("new-session", "night"):  # given empty: refused as every option given empty is
        r = ref(command, "--players", "", input="")
        assert r.exit_code == 3, (command, r.stderr)
        assert r.stderr.splitlines() == ["error: --players was given empty (it takes A,B,C)",
                                         "give --players a value, or leave it out"]
    assert not record.exists()


# -- the rule set's words, plurals, tables ---------------------------------------------------------


def test_a_game_that_is_not_there_is_called_a_game(record):
    simple("--players", "Ann,Bob", "--cards", "3")
    none = refused(5, record, "void", "1", "--reason", "x")
    assert none.stderr.splitlines() == ["error: game simple-rummy has no game 1", "no game has been recorded yet"]
    ok("score-hand", "--hand", "Ann=2H 3H 4H", "--hand", "Bob=5S 6S 2C")
    one = refused(5, record, "void", "9", "--reason", "x")
    assert one.stderr.splitlines() == ["error: game simple-rummy has no game 9", "the only game so far is game 1"]
    ok("score-hand", "--hand", "Ann=2H 3H 4H", "--hand", "Bob=5S 6S 2C")
    two = refused(5, record, "amend", "9", "--reason", "x", "--hand", "Ann=2H 3H 4H", "--hand", "Bob=5S 6S 2C")
    assert two.stderr.splitlines() == ["error: game simple-rummy has no game 9", "games are numbered 1 to 2"]


def test_one_card_each_is_singular(record):
    r = ref("new-session", "--ruleset", "simple-rummy", "--players", "Ann,Bob", "--cards", "1")
    assert r.exit_code == 4
    assert r.stderr.splitlines() == ["refused (S1): 1 card each is outside the deal for 2 players",
                                     "with 2 players deal 2 to 10 cards each"]


def test_tables_have_no_trailing_blanks():
    simple("--players", "Ann,Bob", "--cards", "3")
    shown = ok("score-hand", "--hand", "Ann=2H 3H 4H", "--hand", "Bob=5S 6S 2C").stdout
    assert "player  count  arrangement         note\n" in shown
    assert "Bob        13  unmelded: 5S 6S 2C\n" in shown
    for command in (["standings"], ["stats"], ["history"]):
        text = ok(*command).stdout
        assert all(line == line.rstrip() for line in text.splitlines()), (command, text)
    ok("new-session", "--game", "friday", "--players", "Bill,Ben,Larry")
    ok("score-hand", "--game", "friday", "--points", "Bill=10", "--points", "Ben=5", "--points", "Larry=0")
    for command in (["standings", "--game", "friday"], ["stats", "--game", "friday"]):
        text = ok(*command).stdout
        assert all(line == line.rstrip() for line in text.splitlines()), (command, text)


def test_a_voided_game_in_the_history_is_only_its_reason():
    simple("--players", "Ann,Bob", "--cards", "3")
    ok("score-hand", "--hand", "Ann=2H 3H 4H", "--hand", "Bob=5S 6S 2C")
    ok("void", "1", "--reason", "misdeal")
    assert [line.rstrip() for line in ok("history").stdout.splitlines()] == [
        "History of simple-rummy (simple-rummy); players: Ann, Bob",
        "entry 3: game 1, session 1 game 1, Ann dealt (voided)",
        "    Bob played first; ending: the stock ran out",
        "    Ann: 2H 3H 4H; count 0 (lowest count)",
        "    Bob: 5S 6S 2C; count 13",
        "    winner: Ann (S10)",
        "entry 4: game 1, session 1 game 1, Ann dealt VOIDS entry 3",
        "    reason: misdeal",
    ]
