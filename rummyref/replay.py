"""Everything a user sees, recomputed from a game's hash-chained log alone.

``ref verify`` checks each entry's hash, then folds the entries with :func:`replay` and compares
every stored row and cache with the fold: the game row, the roster, the nights, each result
row, the totals, the nights won, whether the game is over and who won. A fact that is in no
entry cannot be trusted, so every such fact has an entry that states it:

- ``header`` (seq 1 of a game): the game row as created and its roster;
- ``session-open`` / ``session-close``: a night's number, dates and options, and the players
  seated for the first time (Simple Rummy's roster grows);
- ``adopt``: a record made before the header was chained (0.1) states its header and nights
  *as found* when it was upgraded; what it states is proven from that moment on, not before.

Pure: the store hands in plain values (:class:`ChainEntry`); nothing here knows a database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummyref.chain import EntryKind


@dataclass(frozen=True)
class ChainEntry:
    """One entry as its hash covers it (names, not row ids)."""

    seq: int
    kind: str
    night: int | None
    hand: int | None
    facts: Mapping[str, Any]
    created_at: str
    results: Mapping[str, int]
    hash: str = ""


@dataclass(frozen=True)
class Header:
    name: str
    ruleset: str
    ruleset_text: str
    target: int | None
    wildcards: int
    options: Mapping[str, Any]
    created_at: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ruleset": self.ruleset, "ruleset_text": self.ruleset_text,
                "target": self.target, "wildcards": self.wildcards, "options": dict(self.options),
                "created_at": self.created_at}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Header:
        return cls(d["name"], d["ruleset"], d["ruleset_text"], d["target"], d["wildcards"],
                   dict(d["options"]), d["created_at"])


@dataclass(frozen=True)
class Seat:
    name: str
    seat: int
    opening: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "seat": self.seat, "opening": self.opening}


@dataclass(frozen=True)
class Night:
    number: int
    opened_at: str
    closed_at: str | None
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Result:
    points: int
    count: int | None
    won: int | None
    current: bool


@dataclass(frozen=True)
class PlayerTotal:
    points: int
    hands: int
    best: int | None
    worst: int | None
    nights_won: int


@dataclass(frozen=True)
class Replayed:
    header: Header | None
    players: dict[str, Seat]
    nights: dict[int, Night]
    finished_at: str | None
    winner: str | None
    results: dict[tuple[int, str], Result]  #: (seq, player) -> the result row
    player_totals: dict[str, PlayerTotal]
    night_totals: dict[tuple[int, str], tuple[int, int]]  #: (night, player) -> (points, hands)
    hands: int  #: hands with a result in force
    entries: int
    head: str
    problems: tuple[str, ...] = field(default=())  #: what the log itself gets wrong


# -- what the writers put in the bookkeeping entries -------------------------------------------


def header_facts(header: Header, players: Sequence[Seat]) -> dict[str, Any]:
    return {"game": header.to_json(), "players": [p.to_json() for p in players]}


def session_open_facts(number: int, opened_at: str, options: Mapping[str, Any],
                       seated: Sequence[Seat]) -> dict[str, Any]:
    return {"session": number, "opened_at": opened_at, "options": dict(options),
            "seated": [p.to_json() for p in seated]}


def session_close_facts(number: int, closed_at: str, abandoned: bool = False) -> dict[str, Any]:
    """A session closed; ``abandoned``: it was opened by mistake, no hand counted, and it does not
    count as a session (SPEC §8)."""
    facts: dict[str, Any] = {"session": number, "closed_at": closed_at}
    if abandoned:
        facts["abandoned"] = True
    return facts


def adopt_facts(header: Header, players: Sequence[Seat], nights: Sequence[Night]) -> dict[str, Any]:
    return {**header_facts(header, players),
            "nights": [{"session": n.number, "opened_at": n.opened_at, "closed_at": n.closed_at,
                        "options": dict(n.options)} for n in nights],
            "proves": "the header and nights as found when the record was upgraded (0.1 -> 0.2)"}


# -- the fold ----------------------------------------------------------------------------------


def replay(entries: Sequence[ChainEntry], genesis: str) -> Replayed:
    """Fold a game's entries (in seq order, hashes already checked) into every row a user sees."""
    problems: list[str] = []
    header, players, nights = _roster_and_nights(entries, problems)
    in_force: dict[int, ChainEntry] = {}  #: hand -> the entry that decides it
    sums = {n: p.opening for n, p in players.items()}  #: each total, kept up to date entry by entry
    finished: str | None = None
    winner: str | None = None
    for e in entries:
        if e.hand is None or not _kind(e).scores:
            continue
        before = in_force.get(e.hand)
        if before is not None and before.kind != EntryKind.VOID:
            for n, v in before.results.items():
                sums[n] = sums.get(n, 0) - v
        in_force[e.hand] = e
        if e.kind != EntryKind.VOID:
            for n, v in e.results.items():
                sums[n] = sums.get(n, 0) + v
        stated = e.facts.get("status")
        if stated is not None:  # the kind decided the game's status and the entry states it
            over, who = bool(stated.get("over")), stated.get("winner")
        elif header is None or header.target is None:
            continue
        else:  # an entry written before statuses were chained (0.1): its writer's rule, frozen
            over, who = _legacy_outcome(_in_seat_order(players, sums), header.target)
        if over and finished is None:
            finished, winner = e.created_at, who
        elif over and winner != who:
            winner = who
        elif not over and finished is not None:
            finished, winner = None, None
    results = _results(entries, in_force)
    totals, night_totals, hands = _totals_of(players, nights, in_force)
    return Replayed(header, players, nights, finished, winner, results, totals, night_totals, hands,
                    len(entries), entries[-1].hash if entries else genesis, tuple(problems))


def _legacy_outcome(totals: Sequence[tuple[str, int]], target: int) -> tuple[bool, str | None]:
    """How ref 0.1 decided the end of a game after each entry (kept as it was, for its records):
    over when a total reached the target and the greatest total is one player's alone."""
    if not totals or max(t for _, t in totals) < target:
        return False, None
    best = max(t for _, t in totals)
    leaders = [n for n, t in totals if t == best]
    return (True, leaders[0]) if len(leaders) == 1 else (False, None)


def _kind(e: ChainEntry) -> EntryKind:
    try:
        return EntryKind(e.kind)
    except ValueError:
        return EntryKind.RULING  # an unknown kind decides nothing (and its hash says whether it is genuine)


def _roster_and_nights(entries: Sequence[ChainEntry], problems: list[str]
                       ) -> tuple[Header | None, dict[str, Seat], dict[int, Night]]:
    header: Header | None = None
    players: dict[str, Seat] = {}
    nights: dict[int, Night] = {}
    for e in entries:
        kind, f = _kind(e), e.facts
        try:
            if kind in (EntryKind.HEADER, EntryKind.ADOPT):
                if header is not None:
                    problems.append(f"entry {e.seq} ({kind}) states the header a second time")
                    continue
                if kind is EntryKind.HEADER and e.seq != 1:
                    problems.append(f"entry {e.seq}: the header must be entry 1")
                header = Header.from_json(f["game"])
                players = {p["name"]: Seat(p["name"], p["seat"], p["opening"]) for p in f["players"]}
                if kind is EntryKind.ADOPT:
                    nights = {n["session"]: Night(n["session"], n["opened_at"], n["closed_at"], dict(n["options"]))
                              for n in f["nights"]}
            elif kind is EntryKind.SESSION_OPEN:
                if f["session"] in nights:
                    problems.append(f"entry {e.seq} opens night {f['session']} a second time")
                nights[f["session"]] = Night(f["session"], f["opened_at"], None, dict(f["options"]))
                for p in f["seated"]:
                    players[p["name"]] = Seat(p["name"], p["seat"], p["opening"])
            elif kind is EntryKind.SESSION_CLOSE:
                n = nights.get(f["session"])
                if n is None or n.closed_at is not None:
                    problems.append(f"entry {e.seq} closes night {f['session']}, which is not open")
                    continue
                options = {**n.options, "closed_as": "abandoned"} if f.get("abandoned") else n.options
                nights[n.number] = Night(n.number, n.opened_at, f["closed_at"], options)
        except (KeyError, TypeError, ValueError):
            problems.append(f"entry {e.seq} ({e.kind}): its facts are not those of a {e.kind} entry")
    if header is None:
        problems.append("no entry states the game's header (entry 1 should)")
    return header, players, nights


def _in_seat_order(players: Mapping[str, Seat], sums: Mapping[str, int]) -> list[tuple[str, int]]:
    return sorted(sums.items(), key=lambda kv: players[kv[0]].seat if kv[0] in players else 0)


def _results(entries: Sequence[ChainEntry], in_force: Mapping[int, ChainEntry]) -> dict[tuple[int, str], Result]:
    live = {e.seq for e in in_force.values() if e.kind != EntryKind.VOID}
    out: dict[tuple[int, str], Result] = {}
    for e in entries:
        columns = e.facts.get("columns")
        if isinstance(columns, Mapping):  # what the ledger's rows hold beyond the points, as chained
            for name, points in e.results.items():
                col = columns.get(name) or {}
                out[(e.seq, name)] = Result(points, col.get("count"), col.get("won"), e.seq in live)
            continue
        counts, winner, simple = _simple(e.facts)
        for name, points in e.results.items():
            out[(e.seq, name)] = Result(points, counts.get(name) if simple else None,
                                        int(name == winner) if simple else None, e.seq in live)
    return out


def _simple(facts: Mapping[str, Any]) -> tuple[dict[str, int | None], str | None, bool]:
    """Entries written before the columns were chained: a low-count game (0.1) keeps each
    player's count and the winner in its facts."""
    if facts.get("form") != "simple":
        return {}, None, False
    res = facts.get("result") or {}
    return {p["name"]: p["count"] for p in res.get("players", [])}, res.get("winner"), True


def _totals_of(players: Mapping[str, Seat], nights: Mapping[int, Night], in_force: Mapping[int, ChainEntry]
               ) -> tuple[dict[str, PlayerTotal], dict[tuple[int, str], tuple[int, int]], int]:
    scores: dict[str, list[int]] = {n: [] for n in players}
    per_night: dict[tuple[int, str], tuple[int, int]] = {(k, n): (0, 0) for k in nights for n in players}
    hands = 0
    for e in in_force.values():
        if e.kind == EntryKind.VOID or not e.results:
            continue
        hands += 1
        for name, v in e.results.items():
            scores.setdefault(name, []).append(v)
            if e.night is not None:
                pts, played = per_night.get((e.night, name), (0, 0))
                per_night[(e.night, name)] = (pts + v, played + 1)
    won = {n: 0 for n in players}
    for k, night in nights.items():
        row = {n: per_night.get((k, n), (0, 0)) for n in players}
        if night.closed_at is None or not row:
            continue
        best = max(p for p, _ in row.values())
        for n, (p, played) in row.items():
            if played > 0 and p == best:
                won[n] += 1
    totals = {n: PlayerTotal(sum(v), len(v), max(v, default=None), min(v, default=None), won.get(n, 0))
              for n, v in scores.items()}
    return totals, per_night, hands
