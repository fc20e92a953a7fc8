"""Rulebooks as data, and the small retrieval engine behind ``ref ruling``.

Each rulebook is ``data/rulebooks/NAME.toml``: rules (id, title, statement in the
product's own words, verdict, aliases, typical questions, related rules, the
command that enforces it), a glossary and a slang table (``[synonyms]``).
:func:`load_rulebook` validates a file into frozen dataclasses; a broken file is
refused naming the file and the field.

:func:`search` finds the rule a player means from free text:

1. *exact id* — ``B7``, ``rule a4``, ``#s12``, ``simple-rummy:S7``;
2. otherwise *BM25F* over the fields of every rule (title, aliases, questions,
   statement, verdict, id) with per-field weights, on normalised, lightly stemmed
   tokens plus adjacent-word bigrams. The query is widened by the rulebooks' slang
   table (weighted lower) and typos are repaired by fuzzy matching against the
   vocabulary (Damerau-Levenshtein distance: one slip in a short word, two in a long one).

Nothing here touches the database; the index is built lazily, once per process.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, Literal

from rummyref.errors import NotFound, RulesetError
from rummyref.rulebook.numbers import OPTIONAL, PLACEHOLDER, PlaceholderError, fields, fill
from rummyref.rules.datafiles import locate, read_toml
from rummyref.rules.resources import data_dir

BUILTIN_RULEBOOKS = ("rummy-2m", "simple-rummy", "rummy-500", "gin")
#: searched when a question names no game (the house game and Simple Rummy); the others by --ruleset
DEFAULT_SEARCH = ("rummy-2m", "simple-rummy")
_ID_RE = re.compile(r"^[A-Z]\d{1,2}$")

# -- the data model ------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    id: str
    rulebook: str
    section: str
    title: str
    statement: str
    verdict: str
    aliases: tuple[str, ...]
    questions: tuple[str, ...]
    related: tuple[str, ...]  #: "B11" (same book) or "simple-rummy:S7"
    enforced_by: tuple[str, ...]
    prior: float = 1.0  #: a multiplier on search scores (optional variations ask for less)
    names: tuple[str, ...] = ()  #: what a table calls the variation ("go out", "major")
    #: title, statement and verdict as written, with their placeholders (``{gin.knock_limit}``:
    #: rummyref.rulebook.numbers); the fields above are filled with the rulebook's own numbers
    written: tuple[str, str, str] = field(default=("", "", ""), compare=False)
    #: every rule set number the rule states, with the rulebook's own value: its placeholders'
    #: and those its ``numbers`` key lists (stated in words no placeholder carries)
    own_numbers: tuple[tuple[str, int | None], ...] = field(default=(), compare=False)

    def under(self, numbers: Mapping[str, int]) -> tuple[Rule, list[tuple[str, int | None, int | None]]]:
        """This rule with the numbers of a rule set in force (``RuleSet.numbers()``), and the
        numbers it states that the rule set changes: (field, the rule set's value or None where
        it sets none, the rulebook's value). A number the rule set leaves unset stays the
        rulebook's."""
        changed = [(f, numbers.get(f), v) for f, v in self.own_numbers if numbers.get(f) != v]
        if not changed:
            return self, []
        # a number the rule set leaves unset is never the rulebook's: its sentences are left out
        merged = {f: numbers.get(f) for f, _ in self.own_numbers}
        title, statement, verdict = (fill(t, merged, lenient=True) for t in self.written)
        if not title:  # a title is one phrase: the number the rule set leaves unset is said to be none
            title = PLACEHOLDER.sub(lambda m: "none" if merged.get(m.group("field")) is None else m.group(0),
                                    self.written[0])
            title = fill(title, merged, lenient=True)
        return replace(self, title=title, statement=statement, verdict=verdict), changed

    @property
    def ref(self) -> str:
        return f"{self.rulebook}:{self.id}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ruleset": self.rulebook,
            "section": self.section,
            "title": self.title,
            "statement": self.statement,
            "verdict": self.verdict,
            "related": list(self.related),
            "enforced_by": list(self.enforced_by),
        }


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    meaning: str


@dataclass(frozen=True)
class Rulebook:
    name: str
    title: str
    intro: str
    rules: tuple[Rule, ...]
    glossary: tuple[GlossaryEntry, ...]
    synonyms: tuple[tuple[str, tuple[str, ...]], ...]
    keywords: tuple[str, ...] = ()  #: names players use for the game itself
    source: str = field(default="", compare=False)

    def rule(self, rule_id: str) -> Rule:
        wanted = rule_id.strip().upper()
        for r in self.rules:
            if r.id == wanted:
                return r
        raise NotFound(
            f"{self.name} has no rule {rule_id!r}",
            hint=f"its rules are {', '.join(r.id for r in self.rules)}",
        )

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.rules)


def rulebook_path(name: str) -> Path:
    return data_dir() / "rulebooks" / f"{name}.toml"


TABLE_SLANG = "table-slang"  #: data/rulebooks/table-slang.toml: slang every rulebook shares


@cache
def table_slang() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The shared slang table (what players say -> the words the rules use)."""
    path = rulebook_path(TABLE_SLANG)
    raw = read_toml(path, "slang table")
    syn_raw = raw.get("synonyms", {})
    if not isinstance(syn_raw, dict):
        raise RulesetError(f"{path}: synonyms: expected a table of word = [words]")
    return tuple((k, _texts(syn_raw, k, "synonyms.", str(path), required=True)) for k in syn_raw)


def load_rulebook(name_or_path: str | Path) -> Rulebook:
    """A built-in rulebook by name (``rummy-2m``), or a rulebook file by path."""
    return _load_rulebook(str(name_or_path))


@cache
def _load_rulebook(spec: str) -> Rulebook:
    path = locate("rulebook", spec, BUILTIN_RULEBOOKS)
    return parse_rulebook(read_toml(path, "rulebook"), str(path))


def own_numbers(name: Any) -> dict[str, int]:
    """A rulebook's own numbers: those of the built-in rule set of its name (``gin``'s rulebook
    states ``data/rulesets/gin.toml``'s numbers); none for any other name."""
    from rummyref.rules.ruleset import BUILTIN, load_ruleset

    return load_ruleset(name).numbers() if name in BUILTIN else {}


def load_rulebooks() -> dict[str, Rulebook]:
    """Every built-in rulebook, by name, with cross-references checked."""
    books = {name: load_rulebook(name) for name in BUILTIN_RULEBOOKS}
    check_references(books)
    return books


def _text(table: Mapping[str, Any], key: str, where: str, source: str, required: bool = True) -> str:
    v = table.get(key, None if required else "")
    if not isinstance(v, str) or (required and not v.strip()):
        raise RulesetError(f"{source}: {where}{key}: expected a non-empty text, got {v!r}")
    return " ".join(v.split())


def _texts(table: Mapping[str, Any], key: str, where: str, source: str, required: bool = False) -> tuple[str, ...]:
    v = table.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v) or (required and not v):
        raise RulesetError(f"{source}: {where}{key}: expected a list of texts, got {v!r}")
    return tuple(" ".join(x.split()) for x in v)


def parse_rulebook(raw: Mapping[str, Any], source: str = "<data>", numbers: Mapping[str, int] | None = None) -> Rulebook:
    """Validate a rulebook's parsed TOML into a :class:`Rulebook`; ``numbers`` (a rule set's
    ``numbers()``; by default :func:`own_numbers`) fill the placeholders of its rules' texts
    (rummyref.rulebook.numbers)."""
    if raw.get("format", 1) != 1:
        raise RulesetError(f"{source}: format: expected 1, got {raw.get('format')!r}")
    name = _text(raw, "rulebook", "", source)
    if numbers is None:
        numbers = own_numbers(name)
    rules_raw = raw.get("rules")
    if not isinstance(rules_raw, list) or not rules_raw:
        raise RulesetError(f"{source}: rules: expected a list of [[rules]] tables")
    rules: list[Rule] = []
    seen: set[str] = set()
    for i, item in enumerate(rules_raw):
        where = f"rules[{i}]."
        if not isinstance(item, dict):
            raise RulesetError(f"{source}: rules[{i}]: expected a table")
        rid = _text(item, "id", where, source).upper()
        if not _ID_RE.match(rid):
            raise RulesetError(f"{source}: {where}id: expected a letter and a number like B7, got {rid!r}")
        if rid in seen:
            raise RulesetError(f"{source}: {where}id: rule {rid} appears twice")
        seen.add(rid)
        where = f"rules[{i}] ({rid})."
        unknown = set(item) - _RULE_KEYS
        if unknown:
            raise RulesetError(f"{source}: {where}{sorted(unknown)[0]}: unknown field; fields are {', '.join(sorted(_RULE_KEYS))}")
        written = (_text(item, "title", where, source), _text(item, "statement", where, source),
                   _text(item, "verdict", where, source, required=False))
        filled, stated = _fill_numbers(written, _texts(item, "numbers", where, source), numbers, where, source)
        rules.append(
            Rule(
                id=rid,
                rulebook=name,
                section=_text(item, "section", where, source, required=False),
                title=filled[0],
                statement=filled[1],
                verdict=filled[2],
                aliases=_texts(item, "aliases", where, source, required=True),
                questions=_texts(item, "questions", where, source),
                related=_texts(item, "related", where, source),
                enforced_by=_texts(item, "enforced_by", where, source, required=True),
                prior=_prior(item, where, source),
                names=_texts(item, "names", where, source),
                written=written,
                own_numbers=stated,
            )
        )
    glossary = []
    for i, g in enumerate(raw.get("glossary", [])):
        if not isinstance(g, dict):
            raise RulesetError(f"{source}: glossary[{i}]: expected a table")
        glossary.append(GlossaryEntry(_text(g, "term", f"glossary[{i}].", source), _text(g, "meaning", f"glossary[{i}].", source)))
    syn_raw = raw.get("synonyms", {})
    if not isinstance(syn_raw, dict):
        raise RulesetError(f"{source}: synonyms: expected a table of word = [words]")
    synonyms = tuple((k, _texts(syn_raw, k, "synonyms.", source, required=True)) for k in syn_raw)
    book = Rulebook(
        name=name,
        title=_text(raw, "title", "", source),
        intro=_text(raw, "intro", "", source, required=False),
        rules=tuple(rules),
        glossary=tuple(glossary),
        synonyms=synonyms,
        keywords=_texts(raw, "keywords", "", source),
        source=source,
    )
    for rule in book.rules:  # same-book references can be checked at once
        for target in rule.related:
            if ":" not in target and target.upper() not in seen:
                raise RulesetError(f"{source}: rules ({rule.id}).related: no rule {target!r} in {name}")
    return book


_RULE_KEYS = {"id", "section", "title", "statement", "verdict", "aliases", "questions", "related", "enforced_by", "prior",
              "names", "numbers"}


def _fill_numbers(written: tuple[str, str, str], listed: tuple[str, ...], numbers: Mapping[str, int], where: str,
                  source: str) -> tuple[tuple[str, str, str], tuple[tuple[str, int | None], ...]]:
    """A rule's texts filled with the rulebook's own numbers, and every number the rule states
    (its placeholders', then those its ``numbers`` key lists) with its value; a placeholder or a
    listed field naming no number of the rulebook's rule set is refused, naming it."""
    filled = []
    for key, text in zip(("title", "statement", "verdict"), written):
        try:
            filled.append(fill(text, numbers))
        except PlaceholderError as exc:
            raise RulesetError(f"{source}: {where}{key}: {exc}",
                               hint="a placeholder names a number of the rule set of the rulebook's name") from None
    stated = [f for t in written for f in fields(t)]
    for f in listed:
        if f not in numbers and f not in OPTIONAL:
            raise RulesetError(f"{source}: {where}numbers: {f!r} names no number of the rule set")
        stated.append(f)
    return (filled[0], filled[1], filled[2]), tuple((f, numbers.get(f)) for f in dict.fromkeys(stated))


def _prior(item: Mapping[str, Any], where: str, source: str) -> float:
    v = item.get("prior", 1.0)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 2:
        raise RulesetError(f"{source}: {where}prior: expected a number above 0 and at most 2, got {v!r}")
    return float(v)


def check_references(books: Mapping[str, Rulebook]) -> None:
    """Every ``related`` entry names a rule that exists (``book:ID`` across rulebooks)."""
    for book in books.values():
        for rule in book.rules:
            for target in rule.related:
                other, _, rid = target.rpartition(":")
                target_book = books.get(other or book.name)
                if target_book is None or rid.upper() not in target_book.ids:
                    raise RulesetError(
                        f"{book.source}: rules ({rule.id}).related: {target!r} names no known rule"
                    )


def resolve_related(rule: Rule, books: Mapping[str, Rulebook]) -> list[Rule]:
    out = []
    for target in rule.related:
        other, _, rid = target.rpartition(":")
        book = books.get(other or rule.rulebook)
        if book is not None and rid.upper() in book.ids:
            out.append(book.rule(rid))
    return out


# -- text processing -----------------------------------------------------------------------

STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for from with without into onto off up out as is are was
    were be been being am do does did doing have has had having i me my mine we us our you your he him his
    she her they them their it its this that these those there here what which who whom whose when where
    why how can could should would will shall may might must just so too very than then not no yes ok okay
    hey guys lol please about any some all one again also still only ever even really actually well
    whats whos hes shes thats theres im ive id dont doesnt didnt cant wont isnt arent wasnt yeah right
    gotta gonna wanna let lets havent hasnt hadnt weve youre theyre wouldnt shouldnt couldnt
    happen happens happened mean means meant thing things stuff exactly allowed need needs someone somebody anyone anybody
    guy person""".split()
)
# Words that carry meaning at a card table even though they look like stopwords.
_KEEP = frozenset({"all", "out", "up", "off", "first", "last", "one", "back", "same", "both", "no", "only"})
STOPWORDS = STOPWORDS - _KEEP
#: "right" is a side after these words ("the one on the dealer's right"), a filler elsewhere ("ok, right?")
_SIDE_BEFORE = frozenset({"the", "my", "your", "his", "her", "their", "dealer", "shuffler"})


def _is_stop(tokens: list[str], i: int) -> bool:
    """Is ``tokens[i]`` a stopword where it stands? ``right`` after ``the``/``my``/``dealer``
    is a side of the table; ``all`` in ``at all`` only stresses a negation ("no jokers at all");
    ``once`` is a time only in ``at once`` ("once the cards are dealt" says when, not what)."""
    word = tokens[i]
    if word == "right":
        return not (i and tokens[i - 1] in _SIDE_BEFORE)
    if word == "all" and i and tokens[i - 1] == "at":
        return True
    if word == "once" and not (i and tokens[i - 1] == "at"):
        return True  # "once the cards are dealt" only says when; "at once" is a time
    return word in STOPWORDS

_SYMBOLS = {"♠": " spade ", "♤": " spade ", "♥": " heart ", "♡": " heart ", "♦": " diamond ",
            "♢": " diamond ", "♣": " club ", "♧": " club ", "&": " and ", "!": " "}  # fmt: skip
_APOS_S = re.compile(r"(\w)['’]s\b")
_DIGIT_COMMA = re.compile(r"(?<=\d)[,.](?=\d{3}\b)")
_TOKEN = re.compile(r"[a-z0-9]+")


def normalise(text: str) -> str:
    """Lower case, accents and card symbols spelt out, ``2,000,000`` -> ``2000000``, ``Pete's`` -> ``Pete``."""
    if not text.isascii():
        for sym, word in _SYMBOLS.items():
            text = text.replace(sym, word)
        text = text.replace("’", "'")
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.lower().replace("!", " ").replace("&", " and ")
    text = _APOS_S.sub(r"\1", text).replace("'", "")
    if "," in text or "." in text:
        while _DIGIT_COMMA.search(text):
            text = _DIGIT_COMMA.sub("", text)
    return text


#: texting shorthand and spoken spellings -> the written word ("tonite", "ppl", "2nd")
SHORTHAND = {
    "ppl": "people", "tonite": "tonight", "thru": "through", "u": "you", "ur": "your", "r": "are",
    "w": "with", "b4": "before", "gf": "girlfriend", "bf": "boyfriend", "pls": "please", "plz": "please",
    "cuz": "because", "bc": "because", "wat": "what", "lemme": "let", "gimme": "give", "outta": "out",
    "1st": "first", "2nd": "second", "3rd": "third", "ya": "you", "yall": "you", "em": "them",
    "nite": "night", "thx": "thanks", "noone": "nobody", "4th": "fourth", "5th": "fifth", "6th": "sixth",
}  # fmt: skip


#: two words the table says for one the rules use ("no one went out": nobody did)
PAIRS = {("no", "one"): "nobody"}


def tokenise(text: str) -> list[str]:
    tokens = [SHORTHAND.get(t, t) for t in _TOKEN.findall(normalise(text))]
    if len(tokens) < 2 or not any((a, b) in PAIRS for a, b in zip(tokens, tokens[1:])):
        return tokens
    out: list[str] = []
    for t in tokens:
        if out and (out[-1], t) in PAIRS:
            out[-1] = PAIRS[out[-1], t]
        else:
            out.append(t)
    return out


_VOWELS = set("aeiouy")


IRREGULAR = {
    "going": "go", "goes": "go", "went": "go", "does": "do", "did": "do", "said": "say", "took": "take",
    "taken": "take", "threw": "throw", "thrown": "throw", "dealt": "deal", "laid": "lay", "won": "win",
    "sat": "sit", "sitting": "sit", "tied": "tie", "ties": "tie", "tying": "tie", "hitting": "hit",
    "got": "get", "gotten": "get", "drew": "draw", "drawn": "draw", "ran": "run", "running": "run",
    "putting": "put", "cutting": "cut", "chose": "choose", "chosen": "choose", "held": "hold", "used": "use",
    "people": "player", "players": "player", "player": "player", "everybody": "everyone",
}  # fmt: skip
NUMBER_WORDS = {
    "zero": "0", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "thirteen": "13", "sevens": "7", "eights": "8", "threes": "3", "fours": "4", "twos": "2",
    "fives": "5", "sixes": "6", "nines": "9", "tens": "10",
}  # fmt: skip


@cache
def stem(word: str) -> str:
    """A light, consistent suffix stripper (plurals, -ing, -ed, -er, -able, final -e).

    Number words become digits (``sevens`` -> ``7``), a few irregular forms their base."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    w = NUMBER_WORDS.get(word, word)
    if w[:-1].isdigit() and w.endswith("s"):
        return w[:-1]  # "7s"
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("able") and len(w) >= 8:
        w = w[:-4]
    elif w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "i"  # "newbies" ~ "newbie", "parties" ~ "party" (both end in i)
    elif w.endswith(("sses", "ches", "shes", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix, minimum in (("ing", 6), ("ed", 5), ("er", 6)):
        if w.endswith(suffix) and len(w) >= minimum and _VOWELS & set(w[: -len(suffix)]):
            w = w[: -len(suffix)]
            if len(w) >= 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    elif w.endswith("y") and len(w) > 3 and w[-2] not in _VOWELS:
        w = w[:-1] + "i"
    return w


RANK_WORDS = frozenset("a 2 3 4 5 6 7 8 9 10 j q k ace king queen jack".split())
RANKS_TERM = "#ranks"  #: stands for "three or more different ranks in a row" (K A 2, 8-7-6-5)


def terms(text: str) -> list[str]:
    """Content terms: tokens without stopwords, stemmed; a row of three or more card ranks
    (``K A 2``) also gives :data:`RANKS_TERM`, and its ``A`` reads as an ace."""
    tokens = tokenise(text)
    out = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and tokens[j] in RANK_WORDS:
            j += 1
        if j - i >= 3 and len(set(tokens[i:j])) > 1:
            out += [stem("ace") if t == "a" else stem(t) for t in tokens[i:j]] + [RANKS_TERM]
            i = j
            continue
        if not _is_stop(tokens, i):
            out.append(stem(tokens[i]))
        i += 1
    return out


WINDOW = 3  #: word pairs up to this far apart count as a phrase ("take my discard back")


def pairs(seq: list[str]) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(seq)) for j in range(i + 1, min(i + WINDOW, len(seq)))]


def pair_terms(a: str, b: str) -> list[str]:
    """The pair, plus the pair with any number standing as ``#`` ("11 players" ~ "ten players")."""
    if a == b:
        return []
    out = [pair_term(a, b)]
    small_a, small_b = a.isdigit() and len(a) <= 2, b.isdigit() and len(b) <= 2
    if small_a != small_b:
        out.append(pair_term("#" if small_a else a, "#" if small_b else b))
    return out


def _with_bigrams(seq: list[str]) -> list[str]:
    return seq + [t for i, j in pairs(seq) for t in pair_terms(seq[i], seq[j])]


def pair_term(a: str, b: str) -> str:
    """A word pair as one term, order ignored ("turn order" = "order of my turn")."""
    return f"{a}_{b}" if a < b else f"{b}_{a}"


# -- the index -----------------------------------------------------------------------------

FIELD_WEIGHTS = {"id": 6.0, "title": 3.0, "aliases": 2.5, "questions": 1.0, "statement": 1.0, "verdict": 0.5}
FIELD_B = {"id": 0.0, "title": 0.5, "aliases": 0.3, "questions": 0.3, "statement": 0.75, "verdict": 0.75}
K1 = 1.2
SYNONYM_WEIGHT = 0.7
PHRASE_SYNONYM_WEIGHT = 0.8  #: a slang phrase of two words or more ("park it", "got left") is less ambiguous
BIGRAM_WEIGHT = 0.8
SLANG_WEIGHT = 0.9  #: the expansion of slang the rulebooks never use (the word itself matches nothing)
NUMBER_WEIGHT = 0.6  #: a bare number is ambiguous (a rank, a value, a count of players)
BOOK_BOOST = 0.25  #: per name of a rulebook found in the question (at most two)
PHRASING_WEIGHT = 4.0  #: the weight of the best whole-phrasing match (:func:`_best_phrasing`)
MIN_SCORE = 3.0  #: below this the best rule is not considered a match


@dataclass
class _Doc:
    rule: Rule
    fields: dict[str, Counter]
    lengths: dict[str, int]


@dataclass
class Index:
    books: dict[str, Rulebook]
    docs: list[_Doc]
    avg_len: dict[str, float]
    df: Counter
    surface: dict[str, str]  #: every known surface word -> its stem, for typo repair
    synonyms: dict[tuple[str, ...], tuple[str, ...]]  #: stemmed phrase -> stemmed expansion terms
    max_phrase: int
    #: each rule's phrasings (its title, each alias, each typical question) taken whole:
    #: term -> [(doc, phrasing)] holding it, and each phrasing's idf norm, by doc
    phrase_postings: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    phrase_norms: list[list[float]] = field(default_factory=list)
    _fuzzy_cache: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    #: the stems the rulebooks use in a rule's own words (title, aliases, statement, verdict)
    #: and in slang: a capitalised word outside them is a name (:func:`_names`)
    rule_words: frozenset[str] = frozenset()

    def idf(self, term: str, n: int) -> float:
        df = self.df.get(term, 0)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))


def _rule_fields(rule: Rule, book: Rulebook) -> dict[str, list[str]]:
    return {
        "id": [rule.id.lower()],
        "title": _with_bigrams(terms(rule.title)),
        "aliases": [t for a in rule.aliases for t in _with_bigrams(terms(a))],
        "questions": [t for q in rule.questions for t in _with_bigrams(terms(q))],
        "statement": _with_bigrams(terms(rule.statement)),
        "verdict": _with_bigrams(terms(rule.verdict)),
    }


def build_index(names: tuple[str, ...] = DEFAULT_SEARCH) -> Index:
    """The search index over the named rulebooks (built once per process, and kept in
    the user's cache folder between runs; see :func:`_cached_index`)."""
    return _cached_index(tuple(names))


INDEX_FORMAT = 1


@cache
def _cached_index(names: tuple[str, ...]) -> Index:
    """Build the index, or read it back from ``$RUMMYREF_CACHE`` (default: the user cache
    folder). The cache file's name is a checksum of the rulebook files, the built-in rule set
    files that fill their numbers in, this module's source (and that of the modules filling
    them) and the index format, so any change to the data or the engine rebuilds it.
    ``RUMMYREF_CACHE=off`` disables it; a cache that cannot be read or written is ignored.

    Reading the cache takes about a third of the time of parsing the TOML and building
    the index (measured in bench/bench_startup.py). The checksums are zlib's CRC-32 and
    Adler-32 (64 bits together): zlib is loaded already, hashlib's OpenSSL is not."""
    import os
    import pickle
    import zlib

    where = os.environ.get("RUMMYREF_CACHE", "")
    if where.lower() in ("off", "0", "no", "none"):
        return _build_index(names)
    try:
        head = f"{INDEX_FORMAT}|{names}".encode()
        crc, adler = zlib.crc32(head), zlib.adler32(head)
        for source in _index_sources():
            data = source.read_bytes()
            crc, adler = zlib.crc32(data, crc), zlib.adler32(data, adler)
        folder = Path(where) if where else _user_cache_dir()
        books = "+".join(names)  #: one index per set of rulebooks searched (a game's own, the default pair)
        path = folder / f"ruling-index-{books}-{crc:08x}{adler:08x}.pickle"
        if path.is_file():
            index = pickle.loads(path.read_bytes())
            if isinstance(index, Index):
                return index
    except Exception:  # noqa: BLE001 - the cache is only an optimisation
        path = None
    index = _build_index(names)
    if path is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, path)
            for old in folder.glob(f"ruling-index-{books}-*.pickle"):
                if old != path:
                    old.unlink(missing_ok=True)
        except OSError:
            pass
    return index


def _index_sources() -> tuple[Path, ...]:
    """What an index is made from: this module, the rulebook files, and what fills their
    numbers in (rummyref.rulebook.numbers, the rule set loader and the built-in rule set files
    of the rulebooks' names), found without importing the loader."""
    here = Path(__file__).parent
    return (Path(__file__), here / "numbers.py", here.parent / "rules" / "ruleset.py",
            *(rulebook_path(name) for name in (*BUILTIN_RULEBOOKS, TABLE_SLANG)),
            *(data_dir() / "rulesets" / f"{name}.toml" for name in BUILTIN_RULEBOOKS))


def _user_cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("rummyref", appauthor=False))


def _build_index(names: tuple[str, ...]) -> Index:
    books = {n: load_rulebook(n) for n in BUILTIN_RULEBOOKS}
    check_references(books)
    docs: list[_Doc] = []
    totals: Counter = Counter()
    df: Counter = Counter()
    surface: dict[str, str] = {}
    synonyms: dict[tuple[str, ...], tuple[str, ...]] = {}
    for name in names:
        book = books[name]
        for rule in book.rules:
            fields = {f: Counter(toks) for f, toks in _rule_fields(rule, book).items()}
            lengths = {f: sum(c.values()) for f, c in fields.items()}
            totals.update(lengths)
            df.update(set().union(*fields.values()))
            docs.append(_Doc(rule, fields, lengths))
            for text in (rule.title, rule.statement, rule.verdict, *rule.aliases, *rule.questions):
                for tok in tokenise(text):
                    if tok not in STOPWORDS and len(tok) >= 3:
                        surface.setdefault(tok, stem(tok))
    for phrase, expansion in (*table_slang(), *(pair for name in names for pair in books[name].synonyms)):
        key = tuple(stem(t) for t in tokenise(phrase))
        if not key:
            continue
        merged = dict.fromkeys(synonyms.get(key, ()) + tuple(t for e in expansion for t in terms(e)))
        synonyms[key] = tuple(merged)
        for tok in tokenise(phrase):
            if tok not in STOPWORDS and len(tok) >= 3:
                surface.setdefault(tok, stem(tok))
    n = max(len(docs), 1)
    avg = {f: totals[f] / n or 1.0 for f in FIELD_WEIGHTS}
    index = Index(books, docs, avg, df, surface, synonyms, max((len(k) for k in synonyms), default=1))
    index.rule_words = frozenset(
        {t for doc in docs for f, c in doc.fields.items() if f != "questions" for t in c}
        | {t for key, expansion in synonyms.items() for t in (*key, *expansion)}
    )
    for d, doc in enumerate(docs):
        norms: list[float] = []
        for text in (doc.rule.title, *doc.rule.aliases, *doc.rule.questions):
            phrasing = set(_with_bigrams(terms(text)))
            if phrasing:
                for term in phrasing:
                    index.phrase_postings.setdefault(term, []).append((d, len(norms)))
                norms.append(math.sqrt(sum(index.idf(t, n) ** 2 for t in phrasing)))
        index.phrase_norms.append(norms)
    return index


# -- the query -----------------------------------------------------------------------------


def edit_distance(a: str, b: str, limit: int) -> int:
    """Damerau-Levenshtein distance (adjacent transpositions count 1), or ``limit + 1`` once over."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def _repair(index: Index, token: str) -> list[tuple[str, float]]:
    """Known stems one or two slips away from an unknown word, with a similarity weight.

    A slip is an inserted, missing, wrong or swapped letter; words of up to 6 letters
    may have one, longer words two. The first letter must match (or be swapped with
    the second): people rarely mistype it, and this keeps names like "Steve" from
    turning into "seven"."""
    if token in index._fuzzy_cache:
        return index._fuzzy_cache[token]
    found: list[tuple[str, float]] = []
    if len(token) >= 3 and token.isalpha():
        limit = 1 if len(token) <= 6 else 2
        best: dict[str, float] = {}
        for word, stemmed in index.surface.items():
            if word[0] != token[0] and not (len(token) > 1 and word[:2] == token[1::-1]):
                continue
            d = edit_distance(token, word, limit)
            if d <= limit:
                sim = 1 - d / max(len(token), len(word))
                if sim > best.get(stemmed, 0.0):
                    best[stemmed] = sim
        found = sorted(best.items(), key=lambda kv: -kv[1])[:2]
    index._fuzzy_cache[token] = found
    return found


_STOP_BY_LETTERS = {"".join(sorted(w)): w for w in STOPWORDS if len(w) >= 3}


def _mistyped_stopword(token: str) -> bool:
    """``teh``, ``waht``: two letters of a little word swapped."""
    key = "".join(sorted(token))
    return key in _STOP_BY_LETTERS and edit_distance(token, _STOP_BY_LETTERS[key], 1) <= 1


def _query_tokens(text: str) -> list[str]:
    """The question's words without stopwords; rows of ranks as in :func:`terms` (unstemmed)."""
    tokens = tokenise(text)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and tokens[j] in RANK_WORDS:
            j += 1
        if j - i >= 3 and len(set(tokens[i:j])) > 1:
            out += ["ace" if t == "a" else t for t in tokens[i:j]] + [RANKS_TERM]
            i = j
            continue
        if not _is_stop(tokens, i):
            out.append(tokens[i])
        i += 1
    return out


_WORD = re.compile(r"[^\W\d_]+")
#: what a name in a question stands for: a person the rules do not know, so someone from outside
#: the table's players ("can Steve play": another player), weighed as slang is
NAME_TERMS = {"anoth": 0.7, "player": 0.7}  # as slang weighs (SYNONYM_WEIGHT)


def _names(index: Index, text: str) -> set[str]:
    """The words of a question that are people's names: written with a capital (``Steve``,
    ``Mike``) where a sentence does not start, or first when no rule word is near it, and not
    a word the rulebooks use (``Larry``, ``Pete``, ``Ace``, ``Gin`` are theirs). A name says
    who, not what: it is not matched against the rules, nor read as a typo (``Mike`` is not
    ``make``); it stands for another player (:data:`NAME_TERMS`)."""
    found: set[str] = set()
    start = True
    for m in _WORD.finditer(text):
        word = m.group()
        first, start = start, text[m.end() : m.end() + 1] in (".", "?", "!")
        if len(word) < 2 or not word.istitle() or (m.start() and text[m.start() - 1] == "'"):
            continue
        toks = tokenise(word)
        if len(toks) != 1:
            continue
        tok = toks[0]
        if tok in STOPWORDS or tok in RANK_WORDS or tok in SHORTHAND or tok in NUMBER_WORDS:
            continue
        if stem(tok) in index.rule_words or (first and _repair(index, tok)):
            continue
        found.add(tok)
    return found


@dataclass(frozen=True)
class QueryTerms:
    weights: Mapping[str, float]
    repaired: Mapping[str, str]  #: typo -> the word it was read as


def analyse(index: Index, text: str) -> QueryTerms:
    """The weighted terms of a question: its own words (typos repaired), bigrams, slang expansions."""
    known = set(index.df)
    syn_heads = {t for k in index.synonyms for t in k}  # slang words are known words too
    weights: dict[str, float] = {}
    repaired: dict[str, str] = {}

    def add(term: str, w: float) -> None:
        if w > weights.get(term, 0.0):
            weights[term] = w

    content: list[tuple[str, float]] = []
    names = _names(index, text)
    tokens = _query_tokens(text)
    # a name says who: alongside a word of the rules, one name is someone the rules do not know,
    # another player ("can Steve play"); two are players at the table talking of each other ("Ann
    # went out, does Bob count his cards"), and say no more than "she" and "he"; with no word of
    # the rules ("the capital of Mongolia") a name says nothing about cards at all
    person = list(NAME_TERMS.items()) if len(names) == 1 and any(
        t not in names and stem(t) in index.rule_words for t in tokens) else []
    for tok in tokens:
        if tok in names:
            content += person
            continue
        if tok == RANKS_TERM:
            content.append((tok, 1.0))
            continue
        s = stem(tok)
        if not tok.isalpha():
            content.append((s, NUMBER_WEIGHT if s.isdigit() and len(s) <= 2 else 1.0))
            continue
        if s in known or s in syn_heads:
            content.append((s, 1.0))
            continue
        if tok.endswith("in") and tok + "g" in index.surface:  # "dealin", "sittin"
            content.append((index.surface[tok + "g"], 1.0))
            continue
        if _mistyped_stopword(tok):
            continue
        fixes = _repair(index, tok)
        if fixes:
            best, sim = fixes[0]
            repaired[tok] = best
            content.append((best, 0.9 * sim))
        else:
            content.append((s, 1.0))
    seq = [t for t, _ in content]
    for t, w in content:
        add(t, w)
    for i, j in pairs(seq):
        for term in pair_terms(seq[i], seq[j]):
            add(term, BIGRAM_WEIGHT * min(content[i][1], content[j][1]))
    # a word the rules never use pairs with its neighbours as the one-word slang it stands
    # for: "2 hands tonight" is also "hands ... night" (a rule word pairs only as itself)
    for i, j in pairs(seq):
        for a, b in ((i, j), (j, i)):
            for e in () if seq[a] in known else index.synonyms.get((seq[a],), ()):
                for term in pair_terms(e, seq[b]):
                    add(term, BIGRAM_WEIGHT * SYNONYM_WEIGHT * min(content[a][1], content[b][1]))
    # slang: longest phrases first; words inside a matched phrase are not expanded again;
    # expansions weigh less than the player's own words
    everything = [stem(t) for t in tokenise(text)]
    used = [False] * len(everything)
    for size in range(min(index.max_phrase, len(everything)), 0, -1):
        for i in range(len(everything) - size + 1):
            if any(used[i : i + size]):
                continue
            phrase = tuple(everything[i : i + size])
            expansion = index.synonyms.get(phrase)
            if expansion:
                # slang the rules never use ("toss", "brb") stands for its expansion alone
                foreign = not known.intersection(phrase)
                for exp in expansion:
                    add(exp, SLANG_WEIGHT if foreign else PHRASE_SYNONYM_WEIGHT if size > 1 else SYNONYM_WEIGHT)
                if foreign:
                    for word in phrase:
                        weights.pop(word, None)
                if size > 1:
                    used[i : i + size] = [True] * size
    _card_talk(tokenise(text), add)
    return QueryTerms(weights, repaired)


_RANK_PLURALS = frozenset(
    "aces twos threes fours fives sixes sevens eights nines tens jacks queens kings 2s 3s 4s 5s 6s 7s 8s 9s 10s".split()
)
_COUNT_AFTER = frozenset({"left", "point", "points", "pts"})
#: "match" is the house rules' word for a set of one rank, but Simple Rummy's for a series of
#: games, so a rank in the plural ("the sevens") stands for a "group" fully and a "match" less
MATCH_WEIGHT = 0.45


def _card_talk(tokens: list[str], add: Callable[[str, float], None]) -> None:
    """How a table talks about cards: a rank in the plural is a set of that rank ("on the
    sevens", "three 8s"), and a small number before ``left``/``points`` is a count ("we
    both have 7 left"), not a card."""
    for i, tok in enumerate(tokens):
        if tok in _RANK_PLURALS:
            add("group", SYNONYM_WEIGHT)
            add("match", MATCH_WEIGHT)
        elif tok.isdigit() and len(tok) <= 2 and i + 1 < len(tokens) and tokens[i + 1] in _COUNT_AFTER:
            add("count", SYNONYM_WEIGHT)


@dataclass(frozen=True)
class Hit:
    rule: Rule
    score: float
    exact: bool = False

    @property
    def ruleset(self) -> str:
        return self.rule.rulebook


_EXACT_RE = re.compile(
    r"^\s*(?:(?P<book>rummy-2m|simple-rummy|rummy-500|gin)\s*[:/ ]\s*)?(?:(?:rule|ruling|number|no\.?|nr\.?)\s*)?#?\s*"
    r"(?P<letter>[abvsgr])\s*-?\s*(?P<num>\d{1,2})\s*[?.!]*\s*$",
    re.IGNORECASE,
)


def rule_id_named(text: str) -> tuple[str | None, str] | None:
    """The rulebook (or None) and rule id a question made of a rule id names
    (``B7``, ``rule a4``, ``simple-rummy:S7``), or None for any other question."""
    m = _EXACT_RE.match(text)
    if not m:
        return None
    return (m.group("book").lower() if m.group("book") else None), f"{m.group('letter').upper()}{int(m.group('num'))}"


def _exact(index: Index, text: str, names: tuple[str, ...]) -> Rule | None | Literal[False]:
    """The rule a rule id names in the rulebooks searched; False for a rule id that names
    none of them (``B12``, ``rummy-2m:S7``): an id is never read as words ("2m", "7")."""
    named = rule_id_named(text)
    if named is None:
        return None
    book, rid = named
    for name in [book] if book else names:
        if name in names and rid in index.books[name].ids:
            return index.books[name].rule(rid)
    return False


def rulebooks_of(ruleset: Any) -> tuple[str, ...]:
    """The rulebooks a rule set (:class:`~rummyref.rules.ruleset.RuleSet`) is answered from:
    the one it names, else those of the built-in rule sets scored the same way: a house rule
    set file naming no rulebook ref has (its ``rulebook`` defaults to its own name) is
    answered as the games it scores like (a house Gin file from Gin's rules, not Rummy
    2,000,000's). Read from the shipped rule set files, so no game's kind is named here."""
    if ruleset.rulebook in BUILTIN_RULEBOOKS:
        return (ruleset.rulebook,)
    return _scored_alike().get(ruleset.method, DEFAULT_SEARCH)


def rule_ids_of(ruleset: Any) -> frozenset[str]:
    """Every rule id of the rulebooks the rule set is answered from (:func:`rulebooks_of`)."""
    return _ids_of(rulebooks_of(ruleset))


@cache
def _ids_of(books: tuple[str, ...]) -> frozenset[str]:
    return frozenset(rid for name in books for rid in load_rulebook(name).ids)


@cache
def _scored_alike() -> dict[Any, tuple[str, ...]]:
    """Each scoring method -> the rulebooks of the built-in rule sets scored that way."""
    from rummyref.rules.ruleset import BUILTIN, load_ruleset

    out: dict[Any, tuple[str, ...]] = {}
    for name in BUILTIN:
        rs = load_ruleset(name)
        if rs.rulebook in BUILTIN_RULEBOOKS and rs.rulebook not in out.get(rs.method, ()):
            out[rs.method] = out.get(rs.method, ()) + (rs.rulebook,)
    return out


def resolve_rulebook(ruleset: str | None) -> tuple[str, ...]:
    """The rulebooks to search: the default ones, a named one, or the one a rule set file
    points at (a file naming a rulebook ref does not have: :func:`rulebooks_of`)."""
    if ruleset is None:
        return DEFAULT_SEARCH
    if ruleset in BUILTIN_RULEBOOKS:
        return (ruleset,)
    from rummyref.rules.ruleset import load_ruleset

    return rulebooks_of(load_ruleset(ruleset))


def search(text: str, ruleset: str | None = None, limit: int = 3) -> list[Hit]:
    """The rules a player most likely means, best first (empty: nothing matches)."""
    return search_books(text, resolve_rulebook(ruleset), limit)


#: an answer is unsure when the runner-up scores at least this share of the best...
UNSURE_RATIO = 0.85
#: ...or the best scores under this (a weak match: one shared word, a repaired typo). The best
#: answers scoring 4-7 were right about as often as the unsure ones (14 of 16 over the tuning
#: and held-out sets, 87.5%, against 97% for the answers scoring more), so they are unsure too
SURE_SCORE = 7.0


def unsure(hits: list[Hit]) -> bool:
    """Is the best hit a guess? (Calibrated on the tuning questions: the answers it calls
    sure are right far more often than the ones it calls unsure; see the tests.)"""
    if not hits or hits[0].exact:
        return not hits
    best = hits[0].score
    return best < SURE_SCORE or (len(hits) > 1 and hits[1].score >= UNSURE_RATIO * best)


#: the house rules (Rummy 2,000,000's rulebook): where a game's own rulebook only guesses, a sure
#: rule of theirs that holds at any table answers instead (:func:`house_answers`)
HOUSE_RULEBOOK = DEFAULT_SEARCH[0]
#: the commands that apply a rule at any game's table: a ruling alone (the table's conduct: B1 no
#: pausing, B2 Pete's, A6 spectators, B10), and the record every game keeps (B7: a card laid is a
#: card played, so ref amend and ref void never edit a hand silently). A house rule any other
#: command enforces (new-session, score-hand, end-session, standings, a dispute) is one of the
#: house game's own play: its deal order, its scoring, its Rummy Line, its nights
ANY_TABLE = frozenset({"ref ruling", "ref amend", "ref void"})


def house_answers(own: list[Hit], house: list[Hit]) -> bool:
    """Does the house rules' answer ``house`` replace the game's own answer ``own``? Only when the
    game's own rulebooks guess (:func:`unsure`) and the house rules do not: their best rule is
    sure among theirs, and sure against the game's own too (the own best scores under
    :data:`UNSURE_RATIO` of it: the same test as within one rulebook), and it is a rule that holds
    at any table (:data:`ANY_TABLE`). So "can I take back my discard" at a Simple Rummy table is
    B7, not a guess at V4; "who deals next" stays S17, never Bill, Ben and Larry (A3); and
    "the deck ran out" at a Gin table stays G9, never B9 (the house game's end of the stock).

    Measured over the question tables of tests/rulebook (tuning and held-out, 877 questions), each
    asked at a Simple Rummy and a Gin table: none of the 462 of those two games changes at its own
    game's table; at the other table the house rules answer 105, 103 of them with the rule the
    question was written for (test_ruling_search.py). Without the any-table condition 10 of the
    462 went to the house game's own play, 7 of them answered right before (S3 to A3's deal
    order, G10 to A7's end of the game)."""
    if not own or not house or not unsure(own) or unsure(house) or unsure([house[0], *own]):
        return False
    return set(house[0].rule.enforced_by) <= ANY_TABLE


def search_books(text: str, names: tuple[str, ...], limit: int = 3) -> list[Hit]:
    """:func:`search` over the named built-in rulebooks."""
    index = build_index(names)
    exact = _exact(index, text, names)
    if exact is False:
        return []
    if exact is not None:
        related = [r for r in resolve_related(exact, index.books) if r.rulebook in names]
        return [Hit(exact, 100.0, exact=True)] + [Hit(r, 0.0) for r in related[: limit - 1]]
    named_rules = _rules_named(index, text)
    text, named = _game_named(index, text, names)
    query = analyse(index, text)
    n = len(index.docs)
    own_words = {t for t, w in query.weights.items() if w >= 0.7 and "_" not in t}
    boost = {
        name: 1 + BOOK_BOOST * min(2, 2 * (name in named) + sum(set(terms(k)) <= own_words for k in index.books[name].keywords))
        for name in names
    }
    phrasing = _best_phrasings(index, query.weights, n)
    scored: list[Hit] = []
    for d, doc in enumerate(index.docs):
        total = 0.0
        for term, qw in query.weights.items():
            tf = 0.0
            for f, weight in FIELD_WEIGHTS.items():
                c = doc.fields[f].get(term)
                if c:
                    norm = 1 - FIELD_B[f] + FIELD_B[f] * doc.lengths[f] / index.avg_len[f]
                    tf += weight * c / norm
            if tf:
                total += qw * index.idf(term, n) * tf * (K1 + 1) / (tf + K1)
        if total > 0:
            total += PHRASING_WEIGHT * phrasing.get(d, 0.0)
            total *= doc.rule.prior * boost[doc.rule.rulebook] * (NAMED_BOOST if d in named_rules else 1.0)
            scored.append(Hit(doc.rule, round(total, 3)))
    scored.sort(key=lambda h: (-h.score, h.rule.rulebook, h.rule.id))
    if not scored or scored[0].score < MIN_SCORE:
        return []
    return scored[:limit]


#: a variation named as the one being played ("in go out", "minor variation", "under major")
_NAMING_BEFORE = frozenset(stem(w) for w in ("in", "under", "playing", "play", "with", "using"))
_NAMING_AFTER = frozenset(stem(w) for w in ("variation", "version", "rule", "rules", "game"))
NAMED_BOOST = 2.0  #: a rule named that way: "go out" in "in go out" is the variation, not going out


def _rules_named(index: Index, text: str) -> set[int]:
    """The docs whose ``names`` the question uses as the name of what is being played."""
    words = [stem(t) for t in tokenise(text)]
    found: set[int] = set()
    for d, doc in enumerate(index.docs):
        for name in doc.rule.names:
            key = [stem(t) for t in tokenise(name)]
            size = len(key)
            for i in range(len(words) - size + 1):
                if words[i : i + size] == key and (
                    (i and words[i - 1] in _NAMING_BEFORE)
                    or (i + size < len(words) and words[i + size] in _NAMING_AFTER)
                ):
                    found.add(d)
    return found


_GAME_NOUNS = frozenset({"game", "games", "night", "nights"})


def _game_named(index: Index, text: str, names: tuple[str, ...]) -> tuple[str, set[str]]:
    """A rulebook's name used to name the game ("our two million game", "in the simple rummy
    game") says which game, not which rule: those words leave the question (so "two million"
    does not pull the rule about the 2,000,000 target) and the rulebook gets the full boost."""
    tokens = tokenise(text)
    named: set[str] = set()
    for name in names:
        for keyword in index.books[name].keywords:
            key = tokenise(keyword)
            size = len(key)
            i = 0
            while key and i + size < len(tokens):
                if tokens[i : i + size] == key and tokens[i + size] in _GAME_NOUNS:
                    del tokens[i : i + size + 1]
                    named.add(name)
                else:
                    i += 1
    return (" ".join(tokens), named) if named else (text, named)


def _best_phrasings(index: Index, weights: Mapping[str, float], n: int) -> dict[int, float]:
    """How closely the question matches one of each rule's phrasings (its title, an alias, a
    typical question) taken whole, by doc: the best cosine between the idf-weighted terms of
    the question and of one phrasing. BM25F over the fields sees the aliases as one bag of
    words; this rewards a question that says what one alias says ("the final one and bail"
    against "final hand"), more than one sharing a word with each of ten aliases."""
    shared: dict[tuple[int, int], float] = {}
    norm2 = 0.0
    for term, w in weights.items():
        idf = index.idf(term, n)
        norm2 += (w * idf) ** 2
        for key in index.phrase_postings.get(term, ()):
            shared[key] = shared.get(key, 0.0) + w * idf * idf
    best: dict[int, float] = {}
    if norm2:
        query_norm = math.sqrt(norm2)
        for (d, p), dot in shared.items():
            cos = dot / (query_norm * index.phrase_norms[d][p])
            if cos > best.get(d, 0.0):
                best[d] = cos
    return best


def explain(text: str, ruleset: str | None = None) -> QueryTerms:
    """The weighted terms ``search`` used for a question (for debugging a miss)."""
    return analyse(build_index(resolve_rulebook(ruleset)), text)


def all_rules(books: Iterable[Rulebook]) -> list[Rule]:
    return [r for b in books for r in b.rules]
