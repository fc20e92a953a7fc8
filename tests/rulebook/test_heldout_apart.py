"""The held-out table talk stays held out: no rulebook phrasing (an alias or a typical
question) is a near-copy of a held-out question asked of the same rule.

An alias that says what one held-out question says (``"who wins when nobody goes out"``
beside ``"nobody went out and the pile ran dry, who wins"``) would score that question by
memory, and the held-out figures would stop measuring how the search generalises.

*Near-copy*, in the search's own terms (:func:`rummyref.rulebook.book.terms`: stop words
dropped, stemmed): the phrasing and the question share at least three content terms and
their Dice overlap, ``2 |A & Q| / (|A| + |Q|)``, is at least 0.7. What a table calls the
thing itself is vocabulary, not a phrasing, and is left out of both sides first: the
rule's ``names`` ("three card draw", "four 7s") and card ranks ("K A 2"). Two-word names
of a situation ("ace high", "pile shuffle") share too little to count.
"""

from __future__ import annotations

from rulebook.test_ruling_search import heldout2, heldout3

from rummyref.rulebook.book import RANK_WORDS, RANKS_TERM, Rule, load_rulebooks, stem, terms

MIN_SHARED = 3
MAX_DICE = 0.7
_RANKS = {stem(w) for w in RANK_WORDS} | {RANKS_TERM, "ace"}


def vocabulary(rule: Rule) -> set[str]:
    """The terms that name the rule's thing rather than phrase a question about it."""
    return {t for name in rule.names for t in terms(name)} | _RANKS


def near_copy(phrasing: str, question: str, rule: Rule) -> bool:
    words = vocabulary(rule)
    a, q = set(terms(phrasing)) - words, set(terms(question)) - words
    shared = len(a & q)
    return shared >= MIN_SHARED and 2 * shared / (len(a) + len(q)) >= MAX_DICE


def near_copies() -> list[str]:
    held = [(text, {rule} if isinstance(rule, str) else set(rule)) for text, rule, _ in heldout2() + heldout3()]
    found = []
    for book in load_rulebooks().values():
        for rule in book.rules:
            for kind, phrasings in (("alias", rule.aliases), ("question", rule.questions)):
                for phrasing in phrasings:
                    found += [f"{rule.ref} {kind} {phrasing!r} ~ held out {text!r}"
                              for text, wanted in held if rule.id in wanted and near_copy(phrasing, text, rule)]
    return found


def test_the_measure_sees_a_near_copy_and_not_a_name():
    s10 = load_rulebooks()["simple-rummy"].rule("S10")
    assert near_copy("who wins when nobody goes out", "nobody went out and the pile ran dry, who wins", s10)
    assert near_copy("tie on low count", "tie on low count", s10)
    v4 = load_rulebooks()["simple-rummy"].rule("V4")
    assert not near_copy("three card draw", "three card draw how does that work", v4)  # the variation's name
    assert not near_copy("stock is gone", "nobody went out and the pile ran dry, who wins", s10)


def test_no_rulebook_phrasing_is_a_near_copy_of_a_held_out_question():
    assert near_copies() == []
