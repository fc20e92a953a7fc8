"""The seal of a record: one short code for the heads of all its games' chains.

An unkeyed chain proves only that the entries agree with each other: whoever can write the
file can delete the last hands, copy an older backup over it, or rebuild every hash. The seal
is what catches that, when it is kept off the machine (written down, photographed):
``ref end-session`` and ``ref verify`` print it, and ``ref verify --seal CODE`` checks that the
record still *contains* the state it sealed -- every game's chain then had the head it has now
or one that is still in the chain, followed by later entries.

One seal per record (not per game), so one code covers every game: a rollback of any game is
seen. The record's states are the prefixes of its log in the order entries were written (the
``entry`` row id, given out by one writer at a time); ``--seal`` replays them and looks for one
whose seal is the code.

A record that games were imported into holds games the seal did not cover (the record's own,
written before them) and its rows were renumbered, so the write order of the sealed record is
no longer the row ids. Then each group of games is replayed on its own, each game by its own
sequence (``seq``), the games interleaved by the time of their entries; a tie in time (one
second) is tried every way. A group is a run of games in the order they came into the record
(the games of one import arrive together), or any set of them in a record of a few games.
"""

from __future__ import annotations

from itertools import product

from rummyref.chain import seal


def current(rec) -> str:
    """The seal of the record as it is now."""
    heads = {}
    for name, seq, h in rec.sql(
        "SELECT g.name, e.seq, e.hash FROM entry e JOIN game g ON g.id = e.game_id "
        "WHERE e.seq = (SELECT MAX(e2.seq) FROM entry e2 WHERE e2.game_id = e.game_id)"
    ):
        heads[name] = (seq, h)
    return seal(heads)


def contains(rec, code: str) -> bool:
    """Was the record ever in the state sealed by ``code`` (canonical form), as far as its
    log shows? True when a prefix of the log, in write order, has that seal; or, for a record
    games were merged into, when the heads of some of its games once had it (see above)."""
    rows = [(gid, name, seq, h, at) for gid, name, seq, h, at in rec.sql(
        "SELECT g.id, g.name, e.seq, e.hash, e.created_at FROM entry e JOIN game g ON g.id = e.game_id "
        "ORDER BY e.id")]
    heads: dict[str, tuple[int, str]] = {}
    for _gid, name, seq, h, _at in rows:
        if name in heads and heads[name][0] > seq:
            continue  # rows renumbered out of order: a game's head only moves forward
        heads[name] = (seq, h)
        if seal(heads) == code:
            return True
    return _merged_contains(rows, code)


#: seals computed at most in the search of a merged record (a second or two at worst)
BUDGET = 100_000
#: a record of at most this many games has every set of them tried, not only runs
EVERY_SET = 8


def _merged_contains(rows: list[tuple], code: str) -> bool:
    games: dict[int, list[tuple[str, int, str, str]]] = {}
    for gid, name, seq, h, at in rows:
        games.setdefault(gid, []).append((name, seq, h, at))
    order = sorted(games)
    for log in games.values():
        log.sort(key=lambda e: e[1])
    groups: list[tuple[int, ...]] = []
    if len(order) <= EVERY_SET:
        groups = [tuple(g for i, g in enumerate(order) if mask >> i & 1) for mask in range(1, 1 << len(order))]
    else:
        groups = [tuple(order[i:j]) for i in range(len(order)) for j in range(i + 1, len(order) + 1)]
    budget = [BUDGET]
    return any(_group_contains([games[g] for g in group], code, budget) for group in groups)


def _group_contains(logs: list[list[tuple[str, int, str, str]]], code: str, budget: list[int]) -> bool:
    """Do the heads of these games (each log in its own order) ever have the seal ``code``,
    their entries interleaved by time, a tie in time tried every way?"""
    at = [0] * len(logs)  # entries of each game taken so far
    while True:
        waiting = [i for i in range(len(logs)) if at[i] < len(logs[i])]
        if not waiting:
            return False
        when = min(logs[i][at[i]][3] for i in waiting)
        # the entries of this second: each game's run of entries stamped ``when`` from where it is
        ends = list(at)
        for i in waiting:
            while ends[i] < len(logs[i]) and logs[i][ends[i]][3] == when:
                ends[i] += 1
        choices = [range(at[i], ends[i] + 1) for i in range(len(logs))]
        count = 1
        for c in choices:
            count *= len(c)
        if count > budget[0]:  # too many ways: the order of the rows (the import's) only
            for i in range(len(logs)):
                for k in range(at[i] + 1, ends[i] + 1):
                    at_now = [*at[:i], k, *at[i + 1:]]
                    budget[0] -= 1
                    if _sealed(logs, at_now) == code:
                        return True
                at[i] = ends[i]
            if budget[0] <= 0:
                return False
            continue
        budget[0] -= count
        if any(_sealed(logs, list(taken)) == code for taken in product(*choices)):
            return True
        if budget[0] <= 0:
            return False
        at = ends


def _sealed(logs: list[list[tuple[str, int, str, str]]], taken: list[int]) -> str:
    return seal({log[n - 1][0]: (log[n - 1][1], log[n - 1][2]) for log, n in zip(logs, taken) if n})
