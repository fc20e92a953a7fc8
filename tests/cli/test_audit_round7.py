"""A card sent to a player's match by name (``6C>Ann``, Ann laid only the sixes) lies sideways
there (B6), as ``6C^`` does: a card laid past it is the card refused, at the command line and in
``ref night`` (audit issue12-round7, finding 1). SPEC §7; guide/the-table-as-melds.md, B6."""

from __future__ import annotations

from cli_helpers import ref, ref_json, ref_subprocess

REASON = ("refused (B6): Dan's 5C ({where}) cannot be: it would extend a run past the 6C laid sideways "
          "Cy's 6C>Ann ({where}) cuts the run off there: nothing may join the run past it, nor a WILDCARD "
          "stand for it; check where the 5C went, and whether the 6C went on a match")


def flat(text: str) -> str:
    return " ".join(text.split())


def test_score_hand_names_the_card_laid_past_a_card_sent_to_a_match_by_name(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    assert ref("new-session", "--players", "Ann,Bo,Cy,Dan", "--wildcards", "2").exit_code == 0
    before = ref_json("history")
    r = ref("score-hand", "--melded", "Ann=6S 6D 6H", "--melded", "Bo=7C 8C 9C", "--melded", "Cy=6C>Ann",
            "--melded", "Dan=5C", "--held", "Ann=", "--held", "Bo=", "--held", "Cy=", "--held", "Dan=")
    assert (r.exit_code, r.stdout) == (4, "")
    assert flat(r.stderr) == REASON.format(where="--melded")
    assert ref_json("history") == before


def test_night_names_the_card_laid_past_a_card_sent_to_a_match_by_name(tmp_path):
    """The same table in ``ref night``: refused at the prompt naming Dan's 5C; Dan's 5C then
    held, the hand is recorded with the 6C sideways on Ann's sixes."""
    db = str(tmp_path / "ref.db")
    typed = ["cards", "6S 6D 6H", "", "7C 8C 9C", "", "6C>Ann", "", "5C", "", "", "",
             "Dan", "-", "5C", "", "quit"]
    r = ref_subprocess("--db", db, "night", "--wildcards", "2", "--players", "Ann,Bo,Cy,Dan",
                       input="\n".join(typed) + "\n", env={"COLUMNS": "100"})
    assert r.returncode == 0, r.stderr
    err = flat(r.stderr)
    assert REASON.format(where="the melded prompt") in err, err
    assert "Cy's 6C>Ann (the melded prompt) cannot be" not in err
    assert "6S 6H 6D (Ann) 6C^ (Cy) [match, 24]" in flat(r.stdout)
    [hand] = [e for e in ref_json("history", "--db", db)["entries"] if e["kind"] == "hand"]
    assert hand["results"] == {"Ann": 18, "Bo": 24, "Cy": 6, "Dan": -5}
