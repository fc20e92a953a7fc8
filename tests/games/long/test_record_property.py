"""Property: whatever sequence of hands, corrections and night ends is recorded, the cached
totals equal what the log says, the chain verifies, and the standings add up."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rummyref.errors import RummyrefError
from rummyref.games.long.scoring import PointsFacts
from rummyref.store.record import reading, writing
from rummyref.store.standings import read_standings
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
    return PointsFacts(tuple(zip(NAMES, pts)))


@settings(max_examples=30, deadline=None)
@given(ops)
def test_cached_totals_always_equal_the_log(sequence):
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "p.db")
        with writing(db, create=True) as rec:
            rec.new_session(None, None, None, {}, None)
        model: dict[int, list[int] | None] = {}  # hand -> points in force (None: voided)
        for op in sequence:
            try:
                with writing(db) as rec:
                    g = rec.game_row(None)
                    if op[0] == "hand":
                        model[rec.record_hand(g, facts(op[1])).hand] = op[1]
                    elif op[0] == "amend":
                        rec.amend(g, op[1], facts(op[2]), "property")
                        model[op[1]] = op[2]
                    elif op[0] == "void":
                        rec.void(g, op[1], "property")
                        model[op[1]] = None
                    else:
                        rec.close_night(g)
                        rec.new_session(None, None, None, {}, None)
            except RummyrefError:
                pass  # refused (A4 mid-round, no such hand, already voided): nothing written
        with reading(db) as rec:
            report = verify(rec)
        assert report.ok, report.problems
        st_ = read_standings(db, None)
        live = [p for p in model.values() if p is not None]
        assert {p.name: p.total for p in st_.players} == {n: sum(p[i] for p in live) for i, n in enumerate(NAMES)}
        assert st_.hands == len(live)
        assert {p.name: p.best for p in st_.players} == {
            n: max((p[i] for p in live), default=None) for i, n in enumerate(NAMES)
        }
