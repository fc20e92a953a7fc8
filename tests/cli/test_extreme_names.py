"""Names nobody reads whole (audit K): every read command over records with extreme names
(100 characters, two long names differing only at their end, rich markup, CJK) prints lines
that fit 80 terminal cells, with the players still told apart; two names that would be shown
alike are refused when the roster is made."""

from __future__ import annotations

import pytest
from cli_helpers import ref_subprocess
from rich.cells import cell_len

from rummyref.errors import UnreadableInput
from rummyref.names import NAME_SHOWN, check_newcomers, check_roster, shown

SENIOR = "Worthington-Fitzgerald-Smythe-Montgomery-Senior"
JUNIOR = "Worthington-Fitzgerald-Smythe-Montgomery-Junior"
LONG = "L" + "o" * 98 + "x"
GAME = "G" + "a" * 98 + "z"
ROSTERS = {
    "long": (SENIOR, JUNIOR, LONG),
    "markup": ("[DJ] Mike", "Bob [2]", "Cy [the kid]"),
    "cjk": ("山田太郎山田太郎山田太郎山田太郎山田太郎", "鈴木", "佐藤"),
}
READS = (["standings"], ["history"], ["history", "-s", "1"], ["stats"], ["chart"])


def _fits(r, *args: str) -> str:
    assert r.returncode == 0, r.stderr
    wide = [line for line in (r.stdout + r.stderr).splitlines() if cell_len(line) > 80]
    assert not wide, f"ref {' '.join(args)}: {wide}"
    return r.stdout


@pytest.fixture(scope="module", params=sorted(ROSTERS))
def records(request, tmp_path_factory):
    """Both kinds of game recorded under one roster: (env of the long game, of Simple Rummy, roster)."""
    names = ROSTERS[request.param]
    a, b, c = names
    base = tmp_path_factory.mktemp(request.param)
    envs = []
    for kind in ("long", "simple"):
        env = {"COLUMNS": "80", "RUMMYREF_NOW": "2026-01-02T19:30", "RUMMYREF_INTERACTIVE": "0",
               "RUMMYREF_DB": str(base / f"{kind}.db")}
        run = lambda *args, env=env: _fits(ref_subprocess(*args, env=env), *args)  # noqa: E731
        if kind == "long":
            run("new-session", "--game", GAME, "--players", ",".join(names), "--opening", f"{a}=-1000000000")
            run("score-hand", "--points", f"{a}=50", "--points", f"{b}=0", "--points", f"{c}=-5")
            run("score-hand", "--melded", f"{b}=KH KD KC", "--out", b, "--held", f"{a}=2C", "--held", f"{c}=3D")
            run("score-hand", "--points", f"{a}=5", "--points", f"{b}=0", "--points", f"{c}=-5")
        else:
            run("new-session", "--game", GAME, "-r", "simple-rummy", "--players", ",".join(names), "--cards", "7")
            hands = ("AS 2S 3S 4S 5S 6S 7S", "KH KD KC QS JD 9C 8H", "2H 3D 5C 9S 10D JH QC")
            run("score-hand", *(x for n, h in zip(names, hands) for x in ("--hand", f"{n}={h}")))
            run("amend", "1", "--reason", " ".join(["word"] * 90),
                *(x for n, h in zip(names, hands) for x in ("--hand", f"{n}={h}")))
        run("end-session")
        envs.append(env)
    return envs[0], envs[1], names


@pytest.mark.parametrize("kind", [0, 1], ids=["rummy-2m", "simple-rummy"])
@pytest.mark.parametrize("args", READS, ids=" ".join)
def test_every_read_command_fits_80_cells_and_tells_the_players_apart(records, kind, args):
    env, names = records[kind], records[2]
    out = _fits(ref_subprocess(*args, env=env), *args)
    if args[0] in ("standings", "stats"):
        for name in names:  # each player's shown form, literal (no markup eaten), on a line of its own
            assert shown(name) in out, (name, out)
    if args[0] == "standings" and kind == 0:
        assert "-1,000,000,000" in out  # a number is never cut


def test_the_shown_form_keeps_head_and_tail_by_terminal_cells():
    assert shown("Ann") == "Ann"
    assert shown(SENIOR) != shown(JUNIOR)
    assert shown(SENIOR).startswith("Worthington-Fit") and shown(SENIOR).endswith("Senior")
    assert cell_len(shown(SENIOR)) == NAME_SHOWN
    cjk = "山" * 40
    assert cell_len(shown(cjk)) <= NAME_SHOWN and "…" in shown(cjk)
    # an older roster holding names shown alike: more of each is shown, until they differ
    a, b = "A" * 20 + "x" + "B" * 20, "A" * 20 + "y" + "B" * 20
    assert shown(a) == shown(b) and shown(a, among=[a, b]) != shown(b, among=[a, b])


def test_a_roster_whose_names_would_be_shown_alike_is_refused():
    a, b = "A" * 20 + "x" + "B" * 20, "A" * 20 + "y" + "B" * 20
    with pytest.raises(UnreadableInput, match="would both be shown as"):
        check_roster([a, b, "Cy"])
    with pytest.raises(UnreadableInput, match="would both be shown as"):
        check_newcomers([b], roster=[a, "Cy"])
    assert check_roster([SENIOR, JUNIOR]) == (SENIOR, JUNIOR)


def test_new_session_refuses_names_shown_alike_and_writes_nothing(tmp_path):
    a, b = "A" * 20 + "x" + "B" * 20, "A" * 20 + "y" + "B" * 20
    db = tmp_path / "r.db"
    r = ref_subprocess("new-session", "--players", f"{a},{b},Cy", env={"RUMMYREF_DB": str(db), "COLUMNS": "80"})
    assert r.returncode == 3 and "would both be shown as" in r.stderr
    assert all(cell_len(line) <= 80 for line in r.stderr.splitlines()), r.stderr
    assert not db.exists()


def test_markup_in_a_name_is_shown_as_typed(tmp_path):
    env = {"RUMMYREF_DB": str(tmp_path / "r.db"), "COLUMNS": "80", "RUMMYREF_NOW": "2026-01-02T19:30"}
    assert ref_subprocess("new-session", "--players", "[DJ] Mike,Bob [2],Cy [the kid]", env=env).returncode == 0
    r = ref_subprocess("score-hand", "--points", "[DJ] Mike=5", "--points", "Bob [2]=0", "--points",
                       "Cy [the kid]=3", env=env)
    assert "Cy [the kid]" in r.stdout and "Bob [2]" in r.stdout


def test_prose_names_a_long_name_by_its_shown_form_and_json_keeps_it_whole(tmp_path):
    """new-session's dibs and deal order, standings' footer, history's header and the refusal of
    a long name not on the roster: each names the player by the one shown form, whole on its
    line (rich never folds it); ``--json`` keeps the whole name."""
    import json

    env = {"RUMMYREF_DB": str(tmp_path / "r.db"), "COLUMNS": "80", "RUMMYREF_NOW": "2026-01-02T19:30"}
    name = "Bartholomew" * 9
    form = shown(name)
    r = _fits(ref_subprocess("new-session", "--players", f"{name},Bill,Ben", env=env))
    assert f"Deal order (A3): {form}, Bill, Ben." in r and f"{form} deals first." in r
    assert f"  1. {form} (0): first pick" in r
    for args, line in ((["standings"], f"Seating dibs (A2): {form} first pick;"),
                       (["standings"], f"Rummy Night 1 is open: {form} deals the next hand (A3)."),
                       (["history"], f"{form}, Bill, Ben")):
        assert line in _fits(ref_subprocess(*args, env=env), *args)
    stranger = "Zebedee" * 14
    r = ref_subprocess("score-hand", "--points", f"{stranger}=5", "--points", "Bill=0", "--points", "Ben=0", env=env)
    assert r.returncode == 4 and f"GEDDOWWWT!! {shown(stranger)} is not on the roster" in r.stderr
    assert all(cell_len(line) <= 80 for line in r.stderr.splitlines()) and stranger not in r.stderr
    data = json.loads(ref_subprocess("standings", "--json", env=env).stdout)
    assert name in json.dumps(data, ensure_ascii=False) and form not in json.dumps(data, ensure_ascii=False)


def test_a_long_name_may_be_typed_as_ref_shows_it(tmp_path):
    """What ref prints can be typed back: the shown form of a long name (with ``…`` or
    ``...``, in any case) names that player, in score-hand's facts and in --out; a shown form
    no player has is still refused."""
    import json

    env = {"RUMMYREF_DB": str(tmp_path / "r.db"), "COLUMNS": "80", "RUMMYREF_NOW": "2026-01-02T19:30"}
    name = "Bartholomew" * 9
    form = shown(name)
    assert ref_subprocess("new-session", "--players", f"{name},Bill,Ben", env=env).returncode == 0
    r = ref_subprocess("score-hand", "--melded", "Bill=AS 2S 3S", "--held", "Bill=", "--held",
                       f"{form.replace('…', '...').lower()}=KS", "--held", "Ben=", env=env)
    assert r.returncode == 0, r.stderr
    r = ref_subprocess("score-hand", "--out", form, "--melded", f"{form}=4H 5H 6H", "--held", "Bill=2C",
                       "--held", "Ben=3C", env=env)
    assert r.returncode == 0, r.stderr
    totals = {p["name"]: p["total"] for p in json.loads(ref_subprocess("standings", "--json", env=env).stdout)["players"]}
    assert totals == {name: -10 + 15, "Bill": 6 - 2, "Ben": -3}
    r = ref_subprocess("score-hand", "--points", "Barth…omew=5", "--points", "Bill=0", "--points", "Ben=0", env=env)
    assert r.returncode == 4 and "not on the roster" in r.stderr


def test_a_long_name_as_ref_shows_it_and_a_name_with_spaces_say_whose_meld_after_the_arrow(tmp_path):
    """Audit, stop 36: ``7C>Worthington-Fit…tgomery-Senior`` was refused ("did you mean" the
    same text), and a name with spaces could not be written after ``>`` at all, while the hint
    offered both. The shown form names the player there too, and the words of a spaced name
    after ``>`` are read as that name."""
    import json

    env = {"RUMMYREF_DB": str(tmp_path / "r.db"), "COLUMNS": "80", "RUMMYREF_NOW": "2026-01-02T19:30"}
    assert ref_subprocess("new-session", "--players", f"{SENIOR},Mary Ann,{JUNIOR}", env=env).returncode == 0
    senior = shown(SENIOR, among=(SENIOR, JUNIOR))
    r = ref_subprocess("score-hand", "--melded", f"{SENIOR}=7S 7H 7D", "--held", f"{SENIOR}=",
                       "--melded", f"Mary Ann=7C>{senior.replace('…', '...')} 8S 9S 10S", "--held", "Mary Ann=",
                       "--melded", f"{JUNIOR}=9C 10C JC", "--held", f"{JUNIOR}=2H", "--json", env=env)
    assert r.returncode == 0, r.stderr
    laid = json.loads(r.stdout)["score"]["arrangement"]
    match = next(m for m in laid if m["kind"] == "group")
    assert [(c["card"], c["by"]) for c in match["laid"]][-1] == ("7C", "Mary Ann")
    assert match["designated"] is True
    r = ref_subprocess("score-hand", "--melded", f"{SENIOR}=2D 3D 4D", "--held", f"{SENIOR}=",
                       "--melded", "Mary Ann=KS KH KD", "--held", "Mary Ann=",
                       "--melded", f"{JUNIOR}=KC>mary ann 5D>{senior}", "--held", f"{JUNIOR}=", "--json", env=env)
    assert r.returncode == 0, r.stderr
    by = {c["card"]: (c["by"], tuple(d["card"] for d in m["laid"])) for m in json.loads(r.stdout)["score"]["arrangement"]
          for c in m["laid"]}
    assert by["KC"] == (JUNIOR, ("KS", "KH", "KD", "KC")) and by["5D"] == (JUNIOR, ("2D", "3D", "4D", "5D"))
    # a name no player has is still refused, the players listed as ref shows them
    r = ref_subprocess("score-hand", "--melded", f"{SENIOR}=2D 3D 4D", "--held", f"{SENIOR}=",
                       "--melded", "Mary Ann=", "--held", "Mary Ann=", "--melded", f"{JUNIOR}=5D>Mary Jo",
                       "--held", f"{JUNIOR}=", env=env)
    assert r.returncode == 3 and "'Mary' is not run, match, a card or a player" in " ".join(r.stderr.split())
    assert senior in r.stderr.replace("\n", " ") and SENIOR not in r.stderr
