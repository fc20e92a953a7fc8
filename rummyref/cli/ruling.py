"""``ref ruling "TEXT"``: the rule a player means, found from the words used at the table.

Needs no database: the rulebooks are data files, read (and indexed) on first use.
"""

from __future__ import annotations

import textwrap
from typing import Annotated, Any

import typer

from rummyref.cli.common import JsonOption, RulesetOption, out, print_json
from rummyref.errors import NotFound

EXAMPLES = """
Examples:

  ref ruling "pizza's here"

  ref ruling "we both slapped the rummy card" --json

  ref ruling "who deals first" --ruleset simple-rummy

  ref ruling B7
"""


def register(app: typer.Typer) -> None:
    app.command("ruling", help="Find the rule a player means, from free text (typos and slang welcome)." + EXAMPLES)(
        ruling
    )


def ruling(
    text: Annotated[str, typer.Argument(metavar="TEXT", help="The question, in the table's own words, or a rule id.")],
    ruleset: RulesetOption = None,
    as_json: JsonOption = False,
) -> None:
    """Find the rule a player means, from free text."""
    from rummyref.rulebook.book import build_index, resolve_related, search

    hits = search(text, ruleset=ruleset)
    if not hits:
        raise NotFound(
            f"no rule matches {text!r}",
            hint="try rephrasing it the way you would say it at the table, e.g. "
            '"can I take my discard back", or give a rule id such as B7 or S12',
        )
    books = build_index().books
    if as_json:
        print_json({"query": text, "ruleset": ruleset, "rules": [_hit_json(h, books) for h in hits]})
        return
    best = hits[0]
    rule = best.rule
    out.print(f"{rule.id} ({rule.rulebook}) {rule.title}", markup=False, style="bold")
    _para(rule.statement)
    if rule.verdict:
        _para("Verdict: " + rule.verdict)
    related = resolve_related(rule, books)
    if related:
        _para("Related: " + "; ".join(f"{_label(r, rule.rulebook)} {r.title}" for r in related))
    _para("Enforced by: " + ", ".join(rule.enforced_by))
    if len(hits) > 1:
        out.print("\nSee also:" if best.exact else "\nAlso possible:", markup=False)
        for h in hits[1:]:
            score = "" if best.exact else f"  [score {h.score:g}]"
            out.print(f"  {h.rule.id:<4}({h.rule.rulebook}) {h.rule.title}{score}", markup=False, soft_wrap=True)


def _label(rule: Any, home: str) -> str:
    return rule.id if rule.rulebook == home else f"{rule.rulebook}:{rule.id}"


def _para(text: str) -> None:
    width = max(40, min(out.width, 100))
    out.print(textwrap.fill(text, width=width), markup=False)


def _hit_json(hit: Any, books: Any) -> dict[str, Any]:
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
    }
