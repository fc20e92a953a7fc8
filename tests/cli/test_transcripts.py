"""Every console transcript of the README and of docs/ is real output: each page's commands run,
in order, in a fresh home folder, and print what the page shows (dates, times and durations
aside). After an intended change of an output: ``python tests/transcripts.py --write``.

The checker itself is tested too, on pages made up here: a stale output is caught and
``--write`` mends it, the settings comments act, a block typed at a pseudo-terminal is driven
answer by answer, and broken pages are refused with the line."""

from __future__ import annotations

from pathlib import Path

import pytest
import transcripts
from transcripts import (
    ROOT,
    PageError,
    Screen,
    check,
    comparable,
    main,
    pages,
    read_page,
    results,
)

PAGES = [p for p in pages() if read_page(p).blocks]


@pytest.mark.slow
@pytest.mark.sqlite_only("each page runs in its own home folder, on SQLite files")
@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_transcript_prints_what_the_page_shows(path):
    stale = [f"$ {r.command.text}\n{r.diff()}" for r in results(read_page(path)) if r.stale]
    assert not stale, (f"{path.relative_to(ROOT)} is stale (python tests/transcripts.py --write):\n\n"
                       + "\n\n".join(stale))


def test_the_manual_has_the_transcripts_it_promises():
    """A night by commands (cards and points, a refused early end, a ruling) and a night at the
    night shell's prompts, driven through a pseudo-terminal."""
    by_page = {p.relative_to(ROOT).as_posix(): read_page(p) for p in PAGES}
    commands = [c.text for b in by_page["docs/guide/one-command-per-hand.md"].blocks for c in b.commands]
    kinds = [c.split()[1] for c in commands]
    assert commands[0] == "ref new-session" and "ref standings" in commands
    assert kinds.count("score-hand") >= 3 and "ruling" in kinds and kinds.count("end-session") >= 2
    assert any("--points" in c for c in commands) and any("--melded" in c for c in commands)
    night = [b for b in by_page["docs/guide/a-night.md"].blocks if b.answers is not None]
    assert len(night) == 1 and night[0].commands[0].text == "ref night"
    assert {"end", "points", "? pizza's here"} <= set(night[0].answers)
    assert any(a.startswith("! claim") for a in night[0].answers)


# -- the checker on made-up pages ---------------------------------------------------------------


def page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return path


COUNT_PAGE = """# A page

```sh
ref count AS   # not run
```

```console
$ ref count 2H 3H 4H 4S 4D
hand      2♥ 3♥ 4♥ 4♠ 4♦  [rummy-2m]
meld      group  4♠ 4♥ 4♦
unmelded  2♥ 3♥
count     6
go out    no (at-most-one): at least 2 cards stay unmelded (fewest: 2H 3H)

$ ref count 7S 7S
```
"""


def test_a_stale_output_is_caught_and_write_mends_it(tmp_path, capsys):
    path = page(tmp_path, COUNT_PAGE)
    assert check([path], write=False) == 1
    said = capsys.readouterr().out
    assert "-count     6\n+count     5" in said and "+[exit 3]" in said
    assert check([path], write=True) == 0
    text = path.read_text(encoding="utf-8")
    assert "count     5\n" in text and "count     6" not in text
    assert "$ ref count 7S 7S\nerror: the 7S appears twice" in text and text.count("[exit 3]") == 1
    assert "```sh\nref count AS   # not run\n```" in text  # the rest of the page untouched
    assert check([path], write=False) == 0
    assert check([path], write=True) == 0 and path.read_text(encoding="utf-8") == text


def test_settings_comments_set_the_clock_and_start_a_fresh_record(tmp_path):
    path = page(tmp_path, """
<!-- transcript: RUMMYREF_NOW=2026-11-19T19:30 -->
```console
$ ref new-session --players Ann,Bob >/dev/null

$ ref standings | tail -n 1
```
<!-- transcript: fresh -->
```console
$ ref standings; echo "exit $?"
```
""")
    done = list(results(read_page(path)))
    assert [r.actual for r in done[:1]] == [""]
    assert done[1].actual == "  night 1 (2026-11-19, 0 hands): winner (night in progress); Ann 0, Bob 0"
    assert done[2].actual.startswith("error: there is no record at /home/bill/.local/share/rummyref/")
    assert done[2].actual.endswith("exit 5")


def test_a_block_with_answers_is_typed_at_a_terminal(tmp_path):
    path = page(tmp_path, """
<!-- transcript: answers
points
x
y
^U5
-7
maybe
drop
^D
-->

```console
$ ref night --players Ann,Bob
```
""")
    [done] = list(results(read_page(path)))
    lines = done.actual.split("\n")
    assert "night> points" in lines and "Bob's points this hand: -7" in lines
    # a rejected answer is offered back: what is typed next is added to it, ^U clears it
    asked = [line for line in lines if line.startswith("Ann's points this hand:")]
    assert [a.rsplit(": ", 1)[1] for a in asked] == ["x", "xy", "5"]
    # but not at "Record it?", whose Enter is yes: the wrong answer is not on the line again
    confirm = [line for line in lines if line.startswith("Record it?")]
    assert [c.rsplit(": ", 1)[1] for c in confirm] == ["maybe", "drop"]
    assert not any(line.startswith("Recorded") for line in lines)
    # ^D at the next prompt: the shell ends, and its last words come after that prompt
    last_prompt = len(lines) - 1 - lines[::-1].index("night>")
    assert last_prompt > lines.index(confirm[-1]) and "still open" in " ".join(lines[last_prompt:])


def test_too_few_answers_is_an_error_not_a_hang(tmp_path):
    path = page(tmp_path, "<!-- transcript: answers\npoints\n-->\n```console\n$ ref night\n```\n")
    with pytest.raises(PageError, match="still asks after the 1 answers"):
        list(results(read_page(path)))


def test_an_answer_that_is_not_taken_is_an_error_not_a_hang(tmp_path, monkeypatch):
    """^D on a line holding an answer offered back deletes nothing and ends nothing: the
    checker says which prompt is stuck instead of waiting for ever."""
    monkeypatch.setattr(transcripts, "STUCK", 3)
    path = page(tmp_path, "<!-- transcript: answers\npoints\nten\n^D\n-->\n```console\n$ ref night\n```\n")
    with pytest.raises(PageError, match="the answer typed at \"Bill's points this hand: ten\" was not taken"):
        list(results(read_page(path)))


@pytest.mark.parametrize(("text", "error"), [
    ("```console\nref count AS\n```\n", "must begin with a '\\$ ' command line"),
    ("```console\n$ ref count AS \\\n```\n", "ends with '\\\\' but nothing follows"),
    ("```console\n$ ref count AS\n", "not closed"),
    ("<!-- transcript: answers\n\n-->\n```text\nx\n```\n", "belong to a ```console block"),
    ("<!-- transcript: answers\n\n-->\n```console\n$ ref count AS\n\n$ ref count KS\n```\n", "holds one command"),
    ("<!-- transcript: answers\n", "not closed by a '-->' line"),
    ("<!-- transcript: tomorrow -->\n", "neither 'fresh' nor NAME=VALUE"),
])
def test_a_broken_page_is_refused_with_its_line(tmp_path, text, error):
    with pytest.raises(PageError, match=error):
        read_page(page(tmp_path, text))


def test_a_broken_page_does_not_stop_the_others(tmp_path, capsys):
    """An output line that would read as a command is refused (the page would change meaning),
    and the next page is still written."""
    odd = tmp_path / "odd.md"
    odd.write_text("```console\n$ printf '$ ref void 1\\n'\n```\n", encoding="utf-8")
    fine = tmp_path / "fine.md"
    fine.write_text("```console\n$ echo hello\n```\n", encoding="utf-8")
    assert check([odd, fine], write=True) == 2
    assert "would be read as a command or end the block: '$ ref void 1'" in capsys.readouterr().err
    assert odd.read_text(encoding="utf-8") == "```console\n$ printf '$ ref void 1\\n'\n```\n"
    assert fine.read_text(encoding="utf-8") == "```console\n$ echo hello\nhello\n```\n"


def test_the_command_line(tmp_path, capsys):
    assert main(["--wirte"]) == 2 and "unknown option --wirte" in capsys.readouterr().err
    assert main([str(tmp_path / "none.md")]) == 2 and "no such page" in capsys.readouterr().err
    assert main([str(page(tmp_path, "```console\n$ echo hi\nhi\n```\n"))]) == 0


def test_a_fence_in_a_sentence_is_not_a_block(tmp_path):
    path = page(tmp_path, "- ```` ```console ```` marks a transcript.\n  ```` ```sh ```` does not.\n")
    assert read_page(path).steps == ()


@pytest.mark.parametrize(("shown", "actual", "same"), [
    ("Last Rummy Night: 2026-11-12 (0 days ago)", "Last Rummy Night: 2027-01-02 (11 days ago)", True),
    ("entry 2, 2026-11-27 20:30, night 1", "entry 2, 2026-12-04 19:05, night 1", True),
    ("wrote it in 0.37 s (12 ms a hand)", "wrote it in 1.2 s (40 ms a hand)", True),
    ("Bill  108", "Bill  107", False),
    ("laid down the four 7s", "laid down the four 8s", False),
    ("night 1", "night 2", False),
])
def test_only_dates_times_and_durations_are_ignored(shown, actual, same):
    assert (comparable(shown) == comparable(actual)) is same


def test_the_screen_applies_readline_redrawing():
    screen = Screen()
    # what readline echoes in a pseudo-terminal: an answer offered back, Ctrl-U, a new answer
    screen.feed("P: 7S 7H 7X" + "\b" * 8 + " " * 8 + "\b" * 8 + "7S 7H 7D\r\n")
    screen.feed("next\x1b[K line\r\nover\rOV\r\n\x07P: ")
    assert screen.lines == ["P: 7S 7H 7D", "next line", "OVer"]
    assert screen.partial() == "P:" and screen.text().endswith("OVer\nP:")
