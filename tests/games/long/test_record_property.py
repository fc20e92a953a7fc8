"""Property: whatever sequence of hands, corrections and night ends is recorded, the cached
totals equal what the log says, the chain verifies, and the standings add up."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref import play
from rummyref.errors import RummyrefError
from rummyref.games.base import SessionRequest
from rummyref.games.long.standings import from_summary
from rummyref.store.record import reading
from rummyref.store.standings import read_summary
from rummyref.store.views import verify

NAMES = ("Bill", "Ben", "Larry")
points = st.lists(st.integers(-60, 120), min_size=3, max_size=3)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("hand"), points),
        st.tuples(st.just("amend"), st.integers(1, 12), points),
        st.tuples(st.just("void"), st.integers(1, 12)),
        st.tuples(st.just("end")),
    ),
    min_size=1,
    max_size=20,
)


def facts(pts):
    return {"points": [f"{n}={p}" for n, p in zip(NAMES, pts)]}


@settings(max_examples=30, deadline=None)
@given(ops)
def test_cached_totals_always_equal_the_log(sequence):
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "p.db")
        play.open_session(db, SessionRequest())
        model: dict[int, list[int] | None] = {}  # hand -> points in force (None: voided)
        for op in sequence:
            try:
                if op[0] == "hand":
                    model[play.record_hand(db, None, facts(op[1]), None).shown.hand] = op[1]
                elif op[0] == "amend":
                    play.correct(db, None, op[1], facts(op[2]), "property", None, "amend")
                    model[op[1]] = op[2]
                elif op[0] == "void":
                    play.correct(db, None, op[1], None, "property", None, "void")
                    model[op[1]] = None
                else:
                    play.close_session(db, None)
                    play.open_session(db, SessionRequest())
            except RummyrefError:
                pass  # refused (A4 mid-round, no such hand, already voided): nothing written
        with reading(db) as rec:
            report = verify(rec)
        assert report.ok, report.problems
        st_ = from_summary(read_summary(db, None))
        live = [p for p in model.values() if p is not None]
        assert {p.name: p.total for p in st_.players} == {n: sum(p[i] for p in live) for i, n in enumerate(NAMES)}
        assert st_.hands == len(live)
        assert {p.name: p.best for p in st_.players} == {
            n: max((p[i] for p in live), default=None) for i, n in enumerate(NAMES)
        }
