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
whose seal is the code. Import renumbers the rows, so a seal of a record imported elsewhere
matches only the state after the whole import.
"""

from __future__ import annotations

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
    log shows? True when a prefix of the log, in write order, has that seal."""
    heads: dict[str, tuple[int, str]] = {}
    for name, seq, h in rec.sql("SELECT g.name, e.seq, e.hash FROM entry e JOIN game g ON g.id = e.game_id ORDER BY e.id"):
        if name in heads and heads[name][0] > seq:
            continue  # rows renumbered out of order: a game's head only moves forward
        heads[name] = (seq, h)
        if seal(heads) == code:
            return True
    return False
