"""``ref count``: the best melding of a hand, its count, and whether it can go out."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Optional

import typer

from rummyref.cli.common import (
    DbOption,
    GameOption,
    JsonOption,
    RulesetOption,
    db_choice,
    game_ruleset,
    out,
    print_json,
    record_file,
    say,
)


def count_command(
    cards: Annotated[
        Optional[list[str]],
        typer.Argument(metavar="CARDS...", help='The hand, e.g. 2H 3H 4H 4S 4D or "7S, 7H, W".', show_default=False),
    ] = None,
    ruleset: RulesetOption = None,
    game: GameOption = None,
    db: DbOption = None,
    json_: JsonOption = False,
    jsonl: Annotated[
        bool,
        typer.Option("--jsonl", help="Read one hand per line from stdin; write one JSON object per line."),
    ] = False,
) -> None:
    """Count a hand: the best melding, the unmelded cards, the count, and whether it can go out.

    By the rule set of the game being played (the one with a night open, else the one played
    last), or --ruleset's; with no record, Rummy 2,000,000's. With several games open, --game
    or --ruleset must say which."""
    from rummyref.cards import parse_cards
    from rummyref.games.registry import count_verdict
    from rummyref.melding.count import count_hand

    rules = _rules(ruleset, game, db_choice(db))
    if jsonl:
        if cards:
            raise typer.BadParameter("with --jsonl the hands come on stdin", param_hint="CARDS")
        _count_lines(rules)
        return
    hand = parse_cards(" ".join(cards)) if cards else []
    if not hand:  # no argument, or only blank ones ("", " ,"): no cards at all is a usage error
        raise typer.BadParameter("give the hand's cards (or --jsonl)", param_hint="CARDS")
    report = count_hand(hand, rules, count_verdict(rules))
    _split_unused(" ".join(cards or []))
    if json_:
        print_json(report.to_dict())
    else:
        _show(report, rules)


def _rules(ruleset: str | None, game: str | None, db: str | None):
    """``--ruleset``'s rule set; else the one kept with the game being played (as ``ref ruling``
    finds it, without loading the store for a SQLite record); else Rummy 2,000,000's. With
    several games open and none named, refused (SPEC §8), as ``standings`` is."""
    from rummyref.errors import NotFound, RummyrefError, SeveralOpen
    from rummyref.rules.ruleset import load_ruleset

    if ruleset is not None:
        return load_ruleset(ruleset)
    exists, path = record_file(db)
    if not exists:
        if game is not None:
            raise NotFound(f"there is no record, so no game {game!r}", hint="check --db / $RUMMYREF_DB")
        return load_ruleset(DEFAULT_RULESET)
    try:
        return game_ruleset(db, path, game)[1]
    except NotFound as exc:
        if game is not None:
            if game in exc.message or repr(game) in exc.message:  # said already (a name not UTF-8: escaped)
                raise
            raise NotFound(f"there is no game {game!r} ({exc.message})", hint=exc.hint) from None
        return load_ruleset(DEFAULT_RULESET)  # no game recorded yet
    except SeveralOpen as exc:  # SPEC §8: refused as every command is, naming them and --game
        raise SeveralOpen(exc.message, hint=f"{exc.hint} (or a rule set with --ruleset)", games=exc.games) from None
    except RummyrefError as exc:
        if game is not None:
            raise
        from rummyref.cli.common import err

        err.print(f"counted by {DEFAULT_RULESET}'s rules: {exc.message} (--game or --ruleset picks one)", markup=False)
        return load_ruleset(DEFAULT_RULESET)


DEFAULT_RULESET = "rummy-2m"  #: with no game to go by


def _count_lines(rules) -> None:
    """One JSON object per input line; a line that cannot be counted gives {"error": ...}."""
    from rummyref.cards import parse_cards
    from rummyref.errors import RummyrefError
    from rummyref.games.registry import count_verdict
    from rummyref.melding.count import count_hand

    verdict = count_verdict(rules)
    split: tuple[int, str] | None = None  # the first line stating a split, and its mark
    for number, line in enumerate(sys.stdin, start=1):
        if split is None and _split(line):
            split = number, _split(line)
        try:
            obj = count_hand(parse_cards(line), rules, verdict).to_dict()
        except RummyrefError as exc:
            obj = {"error": exc.message, "line": number}
            if exc.hint:
                obj["hint"] = exc.hint
        sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    if split is not None:
        _split_unused(split[1], f" (first on line {split[0]})")


def _split(text: str) -> str:
    """The separator a hand was split with (``/`` or ``|``), or ""."""
    return next((c for c in "/|" if c in text), "")


def _split_unused(text: str, where: str = "") -> None:
    """A hand typed with ``/`` or ``|`` between melds: ``ref count`` finds the best melding
    itself, so the split stated is not used, and stderr says so (the count is the same)."""
    mark = _split(text)
    if mark:
        say(f"ref count arranges the hand itself: the {mark!r} between cards was not used{where}; "
            "the best melding is shown")


def _show(report, rules) -> None:
    from rummyref.cards import format_cards
    from rummyref.melding.count import meld_text

    best = report.best
    out.print(f"hand      {format_cards(report.cards, pretty=True) or '(empty)'}  [{report.ruleset}]", markup=False)
    words = [rules.meld_word(m.kind.value) for m in best.melds]  # the rule set's own words
    width = max((len(w) for w in words), default=0)
    for meld, word in zip(best.melds, words):
        out.print(f"meld      {word:<{width}}  {meld_text(meld)}", markup=False)
    out.print(f"unmelded  {format_cards(best.unmelded, pretty=True) or '(none)'}", markup=False)
    out.print(f"count     {best.count}", markup=False)
    go = report.going_out
    verdict = "yes" if go.ok else "no"
    out.print(f"go out    {verdict} ({go.mode}): {go.reason}", markup=False)
    if report.going_out_differs():  # the verdict is of another melding than the one shown above
        for meld in go.arrangement.melds:
            out.print(f"  melding {rules.meld_word(meld.kind.value)}  {meld_text(meld)}", markup=False)
        out.print(f"  leaving {format_cards(go.arrangement.unmelded, pretty=True) or '(none)'}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("count", help="Count a hand: best melding, unmelded cards, count, can it go out." + EXAMPLES)(
        count_command
    )


EXAMPLES = """

Examples:

\b
  ref count 7S 8S 9S KH KD KC 2D

\b
  ref count "QD QH W 4C 5C" --ruleset simple-rummy --json

\b
  printf '2H 3H 4H\\nAS AD\\n' | ref count --jsonl
"""
