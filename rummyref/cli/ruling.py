"""``ref ruling "TEXT"``: the rule a player means, found from the words used at the table.

It answers from the game being played: with a record, the rule set of the game other
commands would choose (the one with a night open, else the one played last); ``--ruleset``
names another; with no record at all, both default rulebooks. The database layer is
loaded only when a record file exists (or a server database is named): without one the
rulebooks are data files, read (and indexed) on first use.

An answer it is not sure of says so and offers the next two; a question with no match,
or an unsure answer, is written to the local miss log (``rummyref.rulebook.misses``).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace
from typing import Annotated, Any, NoReturn

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
)
from rummyref.errors import NotFound, RummyrefError, SeveralOpen, StorageError, and_list
from rummyref.names import clip

EXAMPLES = """

Examples:

\b
  ref ruling "pizza's here"

\b
  ref ruling "we both slapped the rummy card" --json

\b
  ref ruling "how many cards do we each get" --ruleset simple-rummy

\b
  ref ruling B7
"""

WIDTH = 80  #: the most any line of the answer takes


def register(app: typer.Typer) -> None:
    app.command("ruling", help="Find the rule a player means, from free text (typos and slang welcome)." + EXAMPLES)(
        ruling
    )


@dataclass(frozen=True)
class Scope:
    """Which rulebooks answer, and why (said in the answer)."""

    books: tuple[str, ...]
    #: "ruleset" (--ruleset), "game" (the game being played), "open" (the games open, when
    #: several are), "default" (no game known), "fallback" (the game's own rulebook had nothing),
    #: "house-rules" (the game's own rulebook only guessed, the house rules were sure: the books
    #: are the house rules', then the game's own)
    source: str
    why: str  #: the words said after "From BOOKS:"
    game: str | None = None
    #: the game's variations (rule id -> in play at its table), in the rulebook ``home``; none
    #: known where the kind keeps none, or several games answer
    variations: tuple[tuple[str, bool], ...] = ()
    home: str | None = None
    plays: str = ""  #: the variations in play, in words ("no variation", "Sequences Rummy (V3)")
    #: the rule sets in force, each with whose it is ("game 'gin'", "rule set 'hg'"): their
    #: numbers fill the rules answered from their rulebooks (none: the rulebooks' own numbers)
    rulesets: tuple[tuple[str, Any], ...] = ()

    def numbers_for(self, rule: Any) -> tuple[Any, str | None, list[tuple[str, int | None, int | None]]]:
        """``rule`` with the numbers of the rule set in force it is answered from, a line naming
        the numbers that rule set changes from the rulebook's (None: it changes none), and those
        numbers (field, the rule set's value, the rulebook's). Where several games open answer
        from its rulebook and their numbers differ: the rulebook's numbers, and a line saying so."""
        from rummyref.rulebook.book import rulebooks_of
        from rummyref.rulebook.numbers import shown_value

        found = [(whose, rule.under(rs.numbers())) for whose, rs in self.rulesets if rule.rulebook in rulebooks_of(rs)]
        if not found:
            return rule, None, []
        if any(changed != found[0][1][1] for _, (_, changed) in found):
            return rule, "Numbers: the games open play different numbers here; --game picks one.", []
        whose, (filled, changed) = found[0]
        if not changed:
            return filled, None, []
        sets = and_list([f"{field} = {shown_value(field, value)}" for field, value, _ in changed])
        own = and_list([shown_value(field, value) for field, _, value in changed])
        return filled, f"Numbers: {whose} sets {sets}, where the rulebook says {own}.", changed

    def in_play(self, rule: Any) -> bool | None:
        """Whether ``rule`` is a variation in play at the game's table (None: not a variation
        of the game's rule set, or nothing is known)."""
        return dict(self.variations).get(rule.id) if rule.rulebook == self.home else None


def ruling(
    text: Annotated[str, typer.Argument(metavar="TEXT", help="The question, in the table's own words, or a rule id.")],
    ruleset: RulesetOption = None,
    game: GameOption = None,
    db: DbOption = None,
    no_log: Annotated[
        bool, typer.Option("--no-log", help="Do not write a miss (no match, or an unsure answer) to the local log.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Find the rule a player means, from free text."""
    if not text.strip():  # a script's ref ruling "$Q" with Q unset: refused as any value given empty
        from rummyref.errors import UnreadableInput

        raise UnreadableInput("the question is empty",
                              hint='ask in the table\'s own words (ref ruling "who deals first") or give a rule id (ref ruling B7)')
    answer(text, choose_scope(ruleset, game, db_choice(db)), as_json=as_json, log=not no_log, ruleset=ruleset)


# -- which rulebooks answer ----------------------------------------------------------------


def choose_scope(ruleset: str | None, game: str | None, db: str | None) -> Scope:
    """``--ruleset``; else the game being played (as other commands choose it); else the
    default pair. A record that cannot say which game (several open, unreadable) falls back
    to the default pair, said in the answer; a ``--game`` that names no game is an error."""
    from rummyref.rulebook.book import BUILTIN_RULEBOOKS, DEFAULT_SEARCH, resolve_rulebook, rulebooks_of

    if ruleset is not None:
        from rummyref.rules.ruleset import load_ruleset

        books = resolve_rulebook(ruleset)
        rules = load_ruleset(ruleset)
        return Scope(books, "ruleset", "as --ruleset asked", rulesets=((f"the rule set {rules.name!r} (--ruleset)", rules),))
    exists, path = record_file(db)
    if not exists:
        if game is not None:
            raise NotFound(f"there is no record, so no game {game!r}", hint="check --db / $RUMMYREF_DB")
        return Scope(DEFAULT_SEARCH, "default", "no game is recorded yet (--ruleset picks one)")
    try:
        name, rules, is_open, in_play = game_ruleset(db, path, game)
    except RummyrefError as exc:
        if game is not None:
            raise
        if isinstance(exc, NotFound):  # a server record (or a file) with no game in it yet
            return Scope(DEFAULT_SEARCH, "default", "no game is recorded yet (--ruleset picks one)")
        if isinstance(exc, SeveralOpen):  # the rule sets of the games open, each game's own first
            found: list[str] = []
            kept: list[tuple[str, Any]] = []
            for open_game in exc.games:
                kept.append((f"the rule set of game {open_game!r}", game_ruleset(db, path, open_game)[1]))
                found += [b for b in rulebooks_of(kept[-1][1]) if b not in found]
            return Scope(tuple(found), "open", f"the rule sets of the games open ({and_list(list(exc.games))}; "
                         "--game picks one)", rulesets=tuple(kept))
        if isinstance(exc, StorageError) and path is not None:  # a file that is no record (exit 6 elsewhere)
            from rummyref.store.location import short

            return Scope(DEFAULT_SEARCH, "default", f"{short(str(path))} is no record ref can read (--ruleset picks one)")
        return Scope(DEFAULT_SEARCH, "default", "the record names no game (--ruleset picks one)")
    state = "open now" if is_open else "played last"
    books = rulebooks_of(rules)
    variations: tuple[tuple[str, bool], ...] = ()
    plays = ""
    if in_play is not None and rules.variations:
        from rummyref.games.in_play import rules_off

        off = rules_off(rules, in_play)
        variations = tuple((v.rule, v.rule not in off) for v in rules.variations)
        chosen = [f"{v.title} ({v.rule})" for v in rules.variations if v.name in in_play]
        plays = and_list(chosen) if chosen else "no variation"
    if rules.rulebook not in BUILTIN_RULEBOOKS:  # a house file: the rules of games scored as it is
        return Scope(books, "game", f"game {name!r} ({state}) plays {rules.name!r}, scored like "
                     f"{and_list(books, 'or')} (ref has no rulebook {rules.rulebook!r})", name,
                     variations, books[0], plays, ((f"the rule set of game {name!r}", rules),))
    return Scope(books, "game", f"the rule set of game {name!r} ({state})", name, variations, books[0], plays,
                 ((f"the rule set of game {name!r}", rules),))


# -- the answer ------------------------------------------------------------------------------


def answer(text: str, scope: Scope, *, as_json: bool = False, log: bool = True, ruleset: str | None = None) -> None:
    """Search ``scope``'s rulebooks (the game's own first: with no match there, the default
    pair too; with only a guess there, the house rules too), then print the answer; a miss
    goes to the log."""
    from rummyref.rulebook.book import (
        DEFAULT_SEARCH,
        HOUSE_RULEBOOK,
        build_index,
        house_answers,
        search_books,
        unsure,
    )

    hits = search_books(text, scope.books)
    searched, others = scope.books, tuple[str, ...]()
    whose = f"game {scope.game!r}" if scope.source == "game" else "the games open"
    if not hits and scope.source in ("game", "open"):
        others = tuple(b for b in DEFAULT_SEARCH if b not in scope.books)
        hits = search_books(text, others) if others else []
        if hits:
            scope = Scope(others, "fallback", f"nothing in {and_list(scope.books, 'or')} ({whose}) matches",
                          scope.game)
    elif unsure(hits) and scope.source in ("game", "open") and HOUSE_RULEBOOK not in scope.books:
        # the game's own rulebook only guesses: a sure rule of the house rules answers instead,
        # the game's own guesses offered under it (rummyref.rulebook.book.house_answers)
        others = (HOUSE_RULEBOOK,)
        house = search_books(text, others)
        if house_answers(hits, house):
            own = and_list(scope.books)
            has = "has" if len(scope.books) == 1 else "have"
            hits = house[:1] + hits[:2]
            scope = replace(scope, books=others + scope.books, source="house-rules",
                            why=f"{own} ({whose}) {has} no rule for it; {'its' if has == 'has' else 'their'} "
                                'nearest guesses are under "Or maybe"')
    searched += others
    sure = bool(hits) and (scope.source == "house-rules" or not unsure(hits))
    if log and not sure:
        from rummyref.rulebook.misses import log_miss

        log_miss(text, "unsure" if hits else "no-match", searched, [h.rule.id for h in hits])
    if not hits:
        _miss(text, scope, others)
    books = build_index(scope.books).books  # every built-in rulebook, whichever were searched
    written = {h.rule.ref: h.rule for h in hits}  # as the rulebook writes them (for --json's numbers)
    hits = [replace(h, rule=scope.numbers_for(h.rule)[0]) for h in hits]  # the numbers in force
    if as_json:
        print_json({
            "query": text,
            "ruleset": ruleset,
            "answered_from": {"rulebooks": list(scope.books), "source": scope.source, "game": scope.game},
            "sure": sure,
            "rules": [_hit_json(h, scope) | _numbers_json(scope.numbers_for(written[h.rule.ref])[2]) for h in hits],
        })  # fmt: skip
        return
    best = hits[0]
    rule = best.rule
    numbers = scope.numbers_for(rule)[1]
    if not sure:
        out.print("Not sure; maybe:", markup=False, style="bold")
    _para(f"{rule.id} ({rule.rulebook}) {rule.title}", style="bold", indent=len(rule.id) + 1)
    in_play = scope.in_play(rule)
    if in_play is not None:  # a variation of the game's rule set: whether its table plays it, first
        _para(f"{'In' if in_play else 'Not in'} play at this table: game {scope.game!r} plays {scope.plays}.")
    _para(rule.statement)
    if rule.verdict:
        _para("Verdict: " + rule.verdict)
    if numbers:
        _para(numbers)
    from rummyref.rulebook.book import resolve_related

    related = [scope.numbers_for(r)[0] for r in resolve_related(rule, books)]
    if related:
        _para("Related: " + "; ".join(f"{_label(r, rule.rulebook)} {r.title}" for r in related))
    _para("Enforced by: " + ", ".join(rule.enforced_by))
    if len(hits) > 1:
        head = "See also:" if best.exact else "Also possible:" if sure and scope.source != "house-rules" else "Or maybe:"
        out.print("\n" + head, markup=False)
        for h in hits[1:]:
            on = scope.in_play(h.rule)
            said = "" if on is None else " (in play)" if on else " (not in play)"
            _para(f"  {h.rule.id:<4}({h.rule.rulebook}) {h.rule.title}{said}", indent=10)
    out.print()
    if scope.source == "house-rules":  # the house rules answered: the rest are the game's own guesses
        _para(f"From {scope.books[0]}, the house rules: {scope.why}.")
    else:
        _para(f"From {' and '.join(scope.books)}: {scope.why}.")


def _miss(text: str, scope: Scope, others: tuple[str, ...]) -> NoReturn:
    """Nothing matched: say so, naming every rulebook searched and why those (the game's own,
    then the others; ``--ruleset``'s; the default pair), and the rules there for a rule id."""
    from rummyref.rulebook.book import build_index, rule_id_named

    searched = scope.books + others
    said = (f"searched {and_list(scope.books)}{', ' if scope.source == 'ruleset' else ': '}{scope.why}"
            + (f"; then {and_list(others)}" if others else ""))
    books = build_index(scope.books).books  # every built-in rulebook, whichever were searched
    named = rule_id_named(text)
    if named is not None:  # a rule id that names no rule searched: say which rules there are
        book, rid = named
        if book is not None and rid in books[book].ids:
            raise NotFound(f"{book}:{rid} is not in {and_list(searched, 'or')}", hint=f"{said}. --ruleset {book} asks it")
        where = [book] if book is not None else list(searched)
        raise NotFound(
            f"{and_list(where, 'or')} {'has' if len(where) == 1 else 'have'} no rule {rid}",
            hint="; ".join(f"{b}'s rules are {_id_ranges(books[b].ids)}" for b in where),
        )
    examples = and_list([books[b].ids[len(books[b].ids) // 2] for b in searched], "or")
    phrase = _phrase_answered(scope.books)
    elsewhere = _elsewhere(text, searched)
    raise NotFound(
        f"no rule of {and_list(searched, 'or')} matches {clip(text, 60)!r}"
        + (f" ({len(text):,} characters)" if clip(text, 60) != text else ""),
        hint=f"{said}. {elsewhere}Try rephrasing it the way you would say it at the table"
        + (f', e.g. "{phrase}",' if phrase else ",") + f" or give a rule id such as {examples}",
    )


def _phrase_answered(names: tuple[str, ...]) -> str | None:
    """A question the rulebooks ``names`` answer, from their own data: a rule's typical question
    (else an alias of three words or more), the rule's middle one first, taken only if asking it
    of those rulebooks gives that rule, surely. None when no phrasing does."""
    from rummyref.rulebook.book import load_rulebook, search_books, tokenise, unsure

    book = load_rulebook(names[0])
    middle = len(book.rules) // 2
    for rule in book.rules[middle:] + book.rules[:middle]:
        for phrase in (*rule.questions, *(a for a in rule.aliases if len(tokenise(a)) >= 3)):
            hits = search_books(phrase, names)
            if hits and hits[0].rule.ref == rule.ref and not unsure(hits):
                return phrase
    return None


def _elsewhere(text: str, searched: tuple[str, ...]) -> str:
    """``gin has it: G8 Knock points and the undercut (--ruleset gin asks it). ``: the rule each
    built-in rulebook not searched answers surely (none: an empty text)."""
    from rummyref.rulebook.book import BUILTIN_RULEBOOKS, search_books, unsure

    found = [(b, hits[0].rule) for b in BUILTIN_RULEBOOKS if b not in searched for hits in [search_books(text, (b,))]
             if not unsure(hits)]
    return "".join(f"{b} has it: {r.id} {r.title} (--ruleset {b} asks it). " for b, r in found)


def _id_ranges(ids: tuple[str, ...]) -> str:
    """``A1-A7, B1-B11``: a rulebook's rule ids, letter by letter."""
    by_letter: dict[str, list[int]] = {}
    for rid in ids:
        by_letter.setdefault(rid[0], []).append(int(rid[1:]))
    return ", ".join(f"{k}{min(v)}-{k}{max(v)}" if len(v) > 1 else f"{k}{v[0]}" for k, v in by_letter.items())


def _label(rule: Any, home: str) -> str:
    return rule.id if rule.rulebook == home else f"{rule.rulebook}:{rule.id}"


def _para(text: str, style: str | None = None, indent: int = 0) -> None:
    width = max(40, min(out.width, WIDTH))
    out.print(textwrap.fill(text, width=width, subsequent_indent=" " * indent), markup=False, style=style)


def _hit_json(hit: Any, scope: Scope) -> dict[str, Any]:
    rule = hit.rule
    return {
        "id": rule.id,
        "ruleset": rule.rulebook,
        "title": rule.title,
        "score": hit.score,
        "match": "id" if hit.exact else "text",
        "statement": rule.statement,
        "verdict": rule.verdict,
        "related": list(rule.related),
        "enforced_by": list(rule.enforced_by),
        "in_play": scope.in_play(rule),
    }


def _numbers_json(changed: list[tuple[str, int | None, int | None]]) -> dict[str, Any]:
    """``numbers``: the numbers the rule states that the rule set in force changes, each with
    the rulebook's (the key is there only when it changes some)."""
    return {"numbers": [{"field": f, "value": v, "rulebook": own} for f, v, own in changed]} if changed else {}
