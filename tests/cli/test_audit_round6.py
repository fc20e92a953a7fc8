"""The table as melds at the command line and in ``ref night``: what a refusal blames under B6,
and B5's note of a WILDCARD the table said a card of (audit issue12-round6, findings 1 and 3).
SPEC §7; rulebook B5, B6; docs/guide/the-table-as-melds.md."""

from __future__ import annotations

from cli_helpers import ref, ref_json, ref_subprocess


def flat(text: str) -> str:
    return " ".join(text.split())


def test_score_hand_names_the_card_laid_past_the_sideways_card(tmp_path, monkeypatch):
    """Ben's 2D^ on Bill's twos, Larry's 3D 4D 5D and Pete's AD: the AD could only have gone on
    the run past the 2D. Refused under B6 (exit 4), naming Pete's AD; nothing written."""
    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    assert ref("new-session", "--players", "Bill,Ben,Larry,Pete", "--wildcards", "2").exit_code == 0
    before = ref_json("history")
    r = ref("score-hand", "--melded", "Bill=2S 2H 2C", "--melded", "Larry=3D 4D 5D", "--melded", "Ben=2D^",
            "--melded", "Pete=AD", "--held", "Bill=", "--held", "Ben=KC", "--held", "Larry=", "--held", "Pete=9C")
    assert r.exit_code == 4
    assert r.stdout == ""
    assert flat(r.stderr) == (
        "refused (B6): Pete's AD (--melded) cannot be: it would extend a run past the 2D laid sideways "
        "Ben's 2D^ (--melded) cuts the run off there: nothing may join the run past it, nor a WILDCARD stand "
        "for it; check where the AD went, and whether the 2D went on a match")
    assert ref_json("history") == before
    # without the AD, the 2D^ is seated where it stands, sideways on the twos
    r = ref("score-hand", "--melded", "Bill=2S 2H 2C", "--melded", "Larry=3D 4D 5D", "--melded", "Ben=2D^",
            "--melded", "Pete=", "--held", "Bill=", "--held", "Ben=KC", "--held", "Larry=", "--held", "Pete=AD 9C")
    assert r.exit_code == 0, r.stderr
    assert "2S 2H 2C (Bill) 2D^ (Ben) [match, 8]" in flat(r.stdout)


def test_score_hand_says_no_b5_note_for_a_wildcard_the_table_said_only_the_run_takes(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_DB", str(tmp_path / "ref.db"))
    assert ref("new-session", "--players", "Bill,Ben,Larry", "--wildcards", "2").exit_code == 0
    r = ref("score-hand", "--melded", "Larry=AS AH AC", "--melded", "Bill=2S 3S 4S", "--melded", "Ben=W=AS",
            "--held", "Bill=", "--held", "Ben=", "--held", "Larry=")
    assert r.exit_code == 0, r.stderr
    out = flat(r.stdout)
    assert "W=AS (Ben) 2S 3S 4S (Bill) [run, ace low, 10] said by the table (Ben's W=AS)" in out
    assert "Note:" not in out and "nothing was said" not in out


def test_night_names_a_meld_run_past_a_sideways_card_as_with_a_slash(tmp_path):
    """In ``ref night``, Larry's 5D 6D W 8D typed without '/' past Ben's 7D^: the reason is the
    one the '/' gets (Larry's meld runs past the 7D), named at the night's prompt, not Ben's
    7D^; fixed, the hand is recorded."""
    db = str(tmp_path / "ref.db")
    typed = ["cards", "7S 7H 7C", "", "7D^", "", "5D 6D W 8D", "", "", "",
             "Larry", "5D 6D W=4D", "8D", "", "quit"]
    r = ref_subprocess("--db", db, "night", "--wildcards", "2", input="\n".join(typed) + "\n",
                       env={"COLUMNS": "100"})
    assert r.returncode == 0, r.stderr
    err = flat(r.stderr)
    assert ("refused (B6): Larry's meld 5D 6D W 8D (the melded prompt) runs past the 7D laid sideways on a "
            "match Ben's 7D^ (the melded prompt) cuts the run off there: nothing may join the run past it, nor a "
            "WILDCARD stand for it; check the meld, and whether the 7D went on a match") in err
    assert "Ben's 7D^ (the melded prompt) cannot be" not in err
    assert "Fix which answer?" in err
    [hand] = [e for e in ref_json("history", "--db", db)["entries"] if e["kind"] == "hand"]
    assert hand["results"] == {"Bill": 21, "Ben": 7, "Larry": 15 - 8}
