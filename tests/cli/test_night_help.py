"""``ref night``'s help speaks of the game being played: how its hands are told, when its
session may end (audit: a Gin or Simple Rummy shell listed Rummy 2,000,000's points and A4)."""

from __future__ import annotations

import json

import pytest
from cli_helpers import ref_subprocess


def shell(tmp_path, *opening: str, typed: str = "help\n\nquit\n") -> str:
    r = ref_subprocess("--db", str(tmp_path / "ref.db"), "night", *opening, input=typed,
                       env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    return r.stdout + r.stderr


@pytest.mark.parametrize(
    "opening, word, tellings, ending",
    [
        (("--players", "Bill,Ben,Larry"), "hand", ("cards (or c)", "points (or p)"),
         "end the night (only after full rounds, A4, or when the game is over, A7)"),
        (("--ruleset", "gin", "--players", "Ann,Bob"), "hand", ("cards (or c)",), "end the session (after any hand)"),
        (("--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy"), "game", ("cards (or c)",),
         "end the session (after any game)"),
    ],
)
def test_the_help_lists_what_this_kind_of_game_takes(tmp_path, opening, word, tellings, ending):
    said = shell(tmp_path, *opening)
    flat = " ".join(said.split())
    assert f"Between {word}s:" in said
    for telling in tellings:
        assert telling in said
    if "points (or p)" not in tellings:
        assert "points (or p)" not in said and "A4" not in said
        assert f"(type cards to record the next {word}; help for the commands)" in flat
    else:
        assert "(type cards or points to record the next hand; help for the commands)" in flat
    assert ending in flat
    dealer = "(its dealer deals again)" in flat and "Enter says who deals next" in flat
    assert dealer == ("points (or p)" in tellings)  # only the house game's night names a dealer to come
    # piped, the prompt and the next output share a line: at a terminal, the Enter typed ends it
    assert max(len(line.removeprefix("night> ")) for line in said.splitlines()) <= 80


def test_a_refusal_of_cards_typed_at_a_prompt_names_the_prompt_not_an_option(tmp_path):
    """In ``ref night`` the cards are typed at prompts: a card that fits nowhere is Ben's card
    at the melded prompt, never ``(--melded)``, an option the shell does not have."""
    typed = "cards\nAS AH AC\n\n9C\n\n\n\nBill\n\ndrop\nquit\n"
    said = " ".join(shell(tmp_path, "--players", "Bill,Ben,Larry", typed=typed).split())
    assert "refused: Ben's 9C (the melded prompt) cannot sit in any meld on the table" in said
    assert "--melded" not in said and "--claim" not in said


def test_void_n_in_the_shell_says_what_it_does_to_a_closed_night(tmp_path):
    """As ``ref void`` says it: voiding a hand of a closed night that breaks its full rounds."""
    db = str(tmp_path / "ref.db")
    for args in (("new-session", "--players", "Bill,Ben,Larry"),
                 *[("score-hand", "--points", "Bill=1", "--points", "Ben=2", "--points", "Larry=3")] * 3,
                 ("end-session",)):
        assert ref_subprocess("--db", db, *args).returncode == 0
    said = " ".join(shell(tmp_path, typed="void 2\nslip\n\nquit\n").split())
    assert ("Rummy Night 1 is closed with its rounds no longer full: Ben has dealt 0 hands in force, the "
            "others 1 (A4).") in said
    assert "Recorded: hand 2 voided" in said


def test_cards_held_by_who_went_out_name_the_held_prompt(tmp_path):
    typed = "cards\n7S 8H 9D\nKS 2C\n\n\n\n\nBill\n\ndrop\nquit\n"
    said = " ".join(shell(tmp_path, "--players", "Bill,Ben,Larry", typed=typed).split())
    assert "Bill went out, so Bill holds nothing, but KS 2C were given as left in hand (the held prompt)" in said
    assert "--held" not in said


def test_a_name_not_at_the_table_at_the_ending_prompt_is_asked_again_in_place(tmp_path):
    """Simple Rummy's "How did the game end?": ``out Anne`` is explained and asked again, as
    rummy-2m's "Who went out?" is, not sent on to "Fix which answer?"."""
    typed = "c\nKS QD 2C\n5C 6C 8S\n2H 3H 4H 9C\nout Anne\nout Ann\ndrop\nquit\n"
    said = shell(tmp_path, "--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy", "--cards", "3", typed=typed)
    flat = " ".join(said.split())
    assert "'Anne' (player going out) is not at this table (did you mean Ann?" in flat
    assert flat.count("How did the game end?") == 2 and "Fix which answer?" not in flat
    assert "Winner: Ann." in flat


@pytest.mark.parametrize("opening, fix", [
    (("--players", "Bill,Ben,Larry"), "'fix NAME' (or fix out / claims) asks"),
    (("--ruleset", "simple-rummy", "--players", "Ann,Bob,Cy"), "'fix NAME' (or fix ending) asks"),
    (("--ruleset", "gin", "--players", "Ann,Bob"), "'fix NAME' (or fix ending) asks"),
    (("--ruleset", "gin", "--players", "Ann,Bob", "--variation", "oklahoma"), "'fix NAME' (or fix ending / upcard) asks"),
])
def test_the_help_offers_to_fix_only_the_answers_the_game_has(tmp_path, opening, fix):
    """Audit, stop 36: every game's help offered "fix out / claims / ending"; Simple Rummy and
    Gin refuse out and claims."""
    flat = " ".join(shell(tmp_path, *opening).split())
    assert fix in flat


def test_the_help_says_which_disputes_are_kept_as_precedents(tmp_path):
    """Audit 43: the help said every ``!`` dispute was "kept as a precedent of the night"; a
    question answered (``! end-night``, ``! designate`` with no table) and a tie waiting for its
    judge are not kept (as ``ref dispute`` keeps them), and only a settled ruling is."""
    typed = ("help\n! end-night\n! designate 3D\n! claim --called Bill=Ben=Larry --touched Bill=Ben\n"
             "! claim --called Bill=Ben=Larry --touched Bill=Ben --judge-says Ben\nquit\n")
    flat = " ".join(shell(tmp_path, "--players", "Bill,Ben,Larry", typed=typed).split())
    assert ("! DISPUTE ARGS settle a dispute, as ref dispute does (kept as a precedent of the night when it "
            "settled something; --record keeps any), e.g. ! claim --called Bill=Ben --touched Ben,Bill") in flat
    assert flat.count("Not recorded (it answered a question and settled nothing; --record keeps it).") == 2
    assert flat.count("Not recorded (it waits for a judgment and settled nothing yet; --record keeps it).") == 1
    assert flat.count("Recorded as a precedent of rummy-2m") == 1
    kept = ref_subprocess("--db", str(tmp_path / "ref.db"), "rulings", "--json")
    assert kept.returncode == 0, kept.stderr
    assert [(r["kind"], r["verdict"]) for r in json.loads(kept.stdout)["rulings"]] == [
        ("claim", "Ben wins the Rummy! card.")]


@pytest.mark.parametrize("command", ["new-session", "night"])
def test_the_variation_option_names_gins_oklahoma_and_fits_80_columns(command):
    """Audit rules44 #7: --variation's help named Simple Rummy's variations alone, yet
    `--ruleset gin --variation oklahoma` is how Oklahoma is played."""
    r = ref_subprocess(command, "--help", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    flat = " ".join(r.stdout.split())
    assert "-V, --variation NAME A variation in force: Simple Rummy's" in flat
    assert "Gin's oklahoma" in flat
    assert max(len(line) for line in r.stdout.splitlines()) <= 80
