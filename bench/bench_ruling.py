"""How well does ``ref ruling`` find the rule meant, next to a plain BM25 over the same rulebooks?

Four question sets: the tuning set (tests/rulebook/test_ruling_search.py: QUESTIONS and
LATER and TABLE_TALK, which the aliases and the scorer were tuned on), table talk 1
(tests/rulebook/heldout_table_talk.toml: held out until rulings3, tuning data since) and two
files of held-out table talk (heldout2_table_talk.toml and heldout3_table_talk.toml, never
tuned against; a question there may name two rules that both answer). ``--misses`` lists
the misses of the sets tuned on only. For each, top-1 and top-3
accuracy of

- ``ref``: :func:`rummyref.rulebook.book.search` as the command uses it;
- ``bm25``: Okapi BM25 (k1 1.2, b 0.75) over one document per rule (title, statement,
  verdict, aliases, typical questions run together), lower-cased words without stop words,
  no stemming, no slang table, no typo repair.

Both search the same rulebooks for a question (its ``ruleset``, else the default pair).

    python bench/bench_ruling.py [--misses]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("RUMMYREF_CACHE", "off")

from rummyref.rulebook.book import DEFAULT_SEARCH, STOPWORDS, load_rulebooks, search  # noqa: E402

Question = tuple[str, "str | tuple[str, ...]", "str | None"]
_WORD = re.compile(r"[a-z0-9]+")


def heldout(name: str = "heldout_table_talk.toml") -> list[Question]:
    raw = tomllib.loads((ROOT / "tests" / "rulebook" / name).read_text())
    return [(q["text"], q["rule"] if isinstance(q["rule"], str) else tuple(q["rule"]), q.get("ruleset")) for q in raw["q"]]


def tuning() -> list[Question]:
    from rulebook.test_ruling_search import LATER, QUESTIONS, TABLE_TALK

    return list(QUESTIONS) + list(LATER) + list(TABLE_TALK)


class PlainBM25:
    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.docs: dict[str, list[tuple[str, Counter, int]]] = {}
        for name, book in load_rulebooks().items():
            rows = []
            for r in book.rules:
                words = self.words(" ".join([r.title, r.statement, r.verdict, *r.aliases, *r.questions]))
                rows.append((r.id, Counter(words), len(words)))
            self.docs[name] = rows

    @staticmethod
    def words(text: str) -> list[str]:
        return [w for w in _WORD.findall(text.lower().replace("'", "")) if w not in STOPWORDS]

    def search(self, text: str, names: tuple[str, ...], limit: int = 3) -> list[str]:
        docs = [d for n in names for d in self.docs[n]]
        n = len(docs)
        avg = sum(d[2] for d in docs) / n
        df: Counter = Counter()
        for _, tf, _ in docs:
            df.update(tf.keys())
        scored = []
        for rid, tf, length in docs:
            s = 0.0
            for w in set(self.words(text)):
                if tf[w]:
                    idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                    s += idf * tf[w] * (self.k1 + 1) / (tf[w] + self.k1 * (1 - self.b + self.b * length / avg))
            if s > 0:
                scored.append((-s, rid))
        return [rid for _, rid in sorted(scored)[:limit]]


def measure(questions: list[Question], rank) -> tuple[float, float, list[tuple[str, object, list[str]]]]:
    top1 = top3 = 0
    misses = []
    for text, want, ruleset in questions:
        got = rank(text, ruleset)
        wanted = {want} if isinstance(want, str) else set(want)
        top1 += bool(got) and got[0] in wanted
        top3 += bool(wanted & set(got))
        if not got or got[0] not in wanted:
            misses.append((text, want, got))
    return top1 / len(questions), top3 / len(questions), misses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--misses", action="store_true", help="list the top-1 misses of ref's search on the sets tuned on")
    args = ap.parse_args()
    bm25 = PlainBM25()

    def ref_rank(text: str, ruleset: str | None) -> list[str]:
        return [h.rule.id for h in search(text, ruleset=ruleset, limit=3)]

    def bm25_rank(text: str, ruleset: str | None) -> list[str]:
        return bm25.search(text, (ruleset,) if ruleset else DEFAULT_SEARCH)

    print(f"{'question set':<24}{'n':>5}  {'ref top-1':>9} {'top-3':>6}  {'bm25 top-1':>10} {'top-3':>6}")
    sets = (("tuning (tuned on)", tuning()), ("table talk 1 (tuned on)", heldout()),
            ("held-out table talk 2", heldout("heldout2_table_talk.toml")),
            ("held-out table talk 3", heldout("heldout3_table_talk.toml")))
    for label, questions in sets:
        started = time.perf_counter()
        r1, r3, misses = measure(questions, ref_rank)
        elapsed = time.perf_counter() - started
        b1, b3, _ = measure(questions, bm25_rank)
        print(f"{label:<24}{len(questions):>5}  {r1:>9.1%} {r3:>6.1%}  {b1:>10.1%} {b3:>6.1%}"
              f"   ({elapsed / len(questions) * 1000:.1f} ms a question)")
        if args.misses and "tuned on" in label:  # a held-out file's misses are never listed
            for text, want, got in misses:
                print(f"    miss: {text!r} wants {want}, got {got}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
