"""The rulebooks are data: every SPEC rule id is there, every reference resolves, bad files are refused."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from rummyref.errors import NotFound, RulesetError
from rummyref.rulebook.book import (
    check_references,
    load_rulebook,
    load_rulebooks,
    normalise,
    parse_rulebook,
    resolve_related,
    stem,
    terms,
)
from rummyref.rules.resources import data_dir

SPEC_IDS = {
    "rummy-2m": [f"A{i}" for i in range(1, 8)] + [f"B{i}" for i in range(1, 12)],
    "simple-rummy": [f"S{i}" for i in range(1, 18)] + [f"V{i}" for i in range(1, 8)],
}


@pytest.mark.parametrize("book", sorted(SPEC_IDS))
def test_every_spec_id_is_present_exactly(book):
    assert list(load_rulebook(book).ids) == SPEC_IDS[book]


def test_every_cross_reference_resolves():
    books = load_rulebooks()
    for book in books.values():
        for rule in book.rules:
            assert rule.related, f"{rule.ref} has no related rules"
            resolved = resolve_related(rule, books)
            assert len(resolved) == len(rule.related)
            assert rule.id not in [r.id for r in resolved if r.rulebook == rule.rulebook]


def test_every_rule_is_complete_and_names_a_real_command():
    commands = {"ruling", "dispute", "new-session", "end-session", "score-hand", "standings", "amend", "void",
                "count", "first-dealer", "history"}  # fmt: skip
    for book in load_rulebooks().values():
        for rule in book.rules:
            assert rule.title and rule.statement and rule.aliases
            for cmd in rule.enforced_by:
                assert cmd.startswith("ref ") and cmd.split()[1] in commands, (rule.ref, cmd)


def test_every_statement_and_verdict_is_a_finished_sentence():
    """What ref ruling shows of a rule ends as a sentence ends: S9's verdict once stopped at a
    colon, mid-sentence ("... than were dealt (S1):")."""
    unfinished = [(rule.ref, field, text[-40:])
                  for book in load_rulebooks().values() for rule in book.rules
                  for field, text in (("statement", rule.statement), ("verdict", rule.verdict))
                  if text and not re.search(r"[^\s:;,][.!?]$", text.rstrip())]
    assert not unfinished


def test_s9_states_the_hand_size_of_the_player_who_went_out():
    sr = load_rulebook("simple-rummy")
    assert sr.rule("S9").verdict.endswith(
        "The player who went out holds one card more than were dealt (S1): the card just drawn. A winning hand of "
        "any other size is refused; under V4 or V6 only a smaller one is.")
    assert sr.rule("S1").enforced_by == ("ref new-session", "ref score-hand", "ref amend")


def test_spec_decisions_are_stated_in_the_rulebook():
    r2m = load_rulebook("rummy-2m")
    sr = load_rulebook("simple-rummy")
    assert "first to touch" in r2m.rule("B8").verdict and "table" in r2m.rule("B8").verdict
    assert "B11" in r2m.rule("B8").verdict and "B8" in r2m.rule("B11").verdict
    assert "exactly equal" in r2m.rule("A7").verdict and "hand by hand" in r2m.rule("A7").verdict
    assert "latest in turn order" in sr.rule("S12").verdict
    assert "WILDCARD counts 0" in sr.rule("S13").verdict
    assert "500 Rum" in next(g.meaning for g in r2m.glossary if g.term == "scoring")
    assert "1 at the low end" in r2m.rule("B5").verdict


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"[.!?\n]", text) if len(s.split()) >= 6]


def test_statements_do_not_copy_the_source_documents():
    """No run of 8 words from the seed documents appears in a rule's statement or verdict.

    The seeds are fingerprinted (hashes of every 8-word run) in tests/fixtures/seed_shingles.txt
    by tests/fixtures/make_seed_shingles.py, so the check runs anywhere without their text."""
    from fixtures.make_seed_shingles import shingles

    source = set((Path(__file__).resolve().parents[1] / "fixtures" / "seed_shingles.txt").read_text().split())
    assert len(source) > 1000
    for book in load_rulebooks().values():
        for rule in book.rules:
            copied = shingles(rule.statement + " " + rule.verdict) & source
            assert not copied, f"{rule.ref} copies a run of 8 words from the source documents"


# -- loading errors name the file and the field --------------------------------------------------


def _raw(book: str = "rummy-2m") -> dict:
    return tomllib.loads((data_dir() / "rulebooks" / f"{book}.toml").read_text())


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda r: r["rules"][0].pop("title"), "rules[0] (A1).title"),
        (lambda r: r["rules"][1].update(id="X"), "rules[1].id"),
        (lambda r: r["rules"][2].update(id="A1"), "rules[2].id"),
        (lambda r: r["rules"][3].update(aliases="slang"), "rules[3] (A4).aliases"),
        (lambda r: r["rules"][4].update(related=["Z9"]), "rules (A5).related"),
        (lambda r: r["rules"][5].update(colour="red"), "rules[5] (A6).colour"),
        (lambda r: r["rules"][6].update(prior=5), "rules[6] (A7).prior"),
        (lambda r: r["rules"][7].update(names="pause"), "rules[7] (B1).names"),
        (lambda r: r.update(synonyms=["x"]), "synonyms"),
        (lambda r: r.update(rules=[]), "rules"),
    ],
)
def test_a_broken_rulebook_is_refused_with_file_and_field(mutate, field):
    raw = _raw()
    mutate(raw)
    with pytest.raises(RulesetError) as info:
        parse_rulebook(raw, "house.toml")
    assert str(info.value).startswith("house.toml: ")
    assert field in str(info.value)


def test_a_cross_book_reference_to_nothing_is_refused():
    raw = _raw()
    raw["rules"][0]["related"] = ["simple-rummy:S99"]
    books = {"rummy-2m": parse_rulebook(raw, "house.toml"), "simple-rummy": load_rulebook("simple-rummy")}
    with pytest.raises(RulesetError, match=r"house.toml: rules \(A1\).related: 'simple-rummy:S99'"):
        check_references(books)


def test_unknown_rulebook_and_rule():
    with pytest.raises(NotFound):
        load_rulebook("poker")
    with pytest.raises(NotFound, match="no rule 'B99'"):
        load_rulebook("rummy-2m").rule("B99")


def test_rulebook_dataclasses_are_frozen():
    rule = load_rulebook("rummy-2m").rule("B7")
    with pytest.raises(AttributeError):
        rule.title = "x"  # type: ignore[misc]


# -- the text pipeline ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b",
    [("slapped", "slap"), ("dealing", "deal"), ("dealer", "deal"), ("touches", "touch"), ("matches", "match"),
     ("wildcards", "wildcard"), ("sits", "sitting"), ("tied", "tie"), ("goes", "go"), ("players", "people"),
     ("shuffled", "shuffle"), ("playable", "play"), ("sevens", "7"), ("7s", "7")],
)  # fmt: skip
def test_stemming_joins_word_forms(a, b):
    assert stem(normalise(a)) == stem(normalise(b))


def test_normalise_and_terms():
    assert normalise("Pete's") == "pete"
    assert normalise("2,000,000") == "2000000"
    assert normalise("♥5 Café") == " heart 5 cafe"
    assert terms("Can I take my discard back?") == ["tak", "discard", "back"]


def test_a_row_of_ranks_is_one_term_and_its_a_is_an_ace():
    assert terms("is Q K A valid") == ["q", "k", "ace", "#ranks", "valid"]
    assert "#ranks" not in terms("laid down 7 7 7 7")
    assert "#ranks" not in terms("a card")
