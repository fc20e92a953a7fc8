"""How long does ``ref standings`` take on a 25-year history?

Builds two real databases with the real schema (migrations) and a real hash chain, entry for
entry what ``ref`` writes (the game's header, each night's opening and closing, each hand as the
kind adjudicates it; see :func:`build`), so that ``ref verify`` passes on them:
- a synthetic 25-year history: 40,000 hands, three players, one Rummy Night a week;
- a short one: 30 hands;
then times ``python -m rummyref standings`` on each (a real subprocess, median of N runs)
side by side with ``python -c "import sqlmodel, typer, rich"``, and prints a table.

Targets (issue 3): 40,000 hands <= 1.3 x the import baseline, and <= 10% over 30 hands.

    python bench/bench_standings.py [--runs 15] [--hands 40000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rummyref.errors import RuleRefusal  # noqa: E402

PLAYERS = ("Bill", "Ben", "Larry")


def build(path: Path, hands: int, seed: int = 2000000, start: datetime | None = None, per_night: int = 30) -> float:
    """A history of ``hands`` hands (points form) of a rummy-2m game, bulk-inserted in one
    transaction: entry for entry what ``ref`` writes (the header, each night's opening and
    closing, each hand as the game's kind adjudicates it, hashed by the store's own
    functions), one Rummy Night a week of ``per_night`` hands, the first on ``start`` (default:
    so that the last is a week ago). A last night that stops mid-round (A4) is left open."""
    from rummyref.chain import GENESIS, EntryKind
    from rummyref.games.base import SessionRequest
    from rummyref.games.long.scoring import PointsFacts
    from rummyref.games.registry import kind_for
    from rummyref.record import Context, Game, Player, Position, SessionInfo
    from rummyref.rules.ruleset import load_ruleset
    from rummyref.store.engine import make_engine, migrate
    from rummyref.store.header import close_body, header_body, open_body
    from rummyref.store.migrations import rebuild_aggregates
    from rummyref.store.models import PlayerRow, SessionRow
    from rummyref.store.record import chained_body, chained_entry, game_row

    started = time.perf_counter()
    path.unlink(missing_ok=True)
    engine = make_engine(str(path))
    migrate(engine)
    rng = random.Random(seed)
    per_night = min(per_night, hands)
    nights = (hands + per_night - 1) // per_night
    if start is None:
        start = datetime.now(UTC) - timedelta(weeks=nights)

    def at(night: int, minutes: int = 0) -> str:
        return (start + timedelta(weeks=night - 1, minutes=minutes)).isoformat(timespec="seconds")

    rs = load_ruleset("rummy-2m")
    kind = kind_for(rs)
    plan = kind.open_session(None, rs, SessionRequest(players=PLAYERS))  # ref new-session -p Bill,Ben,Larry
    assert plan.header is not None
    g = game_row(plan.header, at(1))
    g.id = 1
    players = [PlayerRow(id=i, game_id=1, name=n, seat=i, opening=o) for i, (n, o) in enumerate(plan.header.players, 1)]
    ids = {p.name: p.id for p in players}
    game = Game(g.name, g.ruleset, g.target, g.wildcards, tuple(Player(p.name, p.seat, p.opening) for p in players),
                g.created_at, closed_roster=bool(plan.header.options.get("closed_roster", True)),
                options=plan.header.options)
    totals = {p.name: p.opening for p in players}
    entries: list[tuple] = []
    results: list[tuple] = []
    sessions: list[tuple] = []
    infos: list[SessionInfo] = []
    head = GENESIS

    def chain(s: SessionRow | None, kind_: str, body: dict, created: str, hand=None, his=None, dealer=None,
              points: dict[str, int] | None = None) -> int:
        nonlocal head
        seq = len(entries) + 1
        facts, digest = chained_entry(g.name, s.number if s else None, seq, head, kind_, hand, his, dealer, body,
                                      None, None, created, points or {})
        entries.append((seq, 1, seq, kind_, s.id if s else None, hand, his, dealer, facts, None, None, created,
                        head, digest))
        head = digest
        return seq

    def ctx(s: SessionRow | None, log: tuple = (), night_points: dict[str, int] | None = None) -> Context:
        """What ``ref`` reads before a write in the open night ``s`` (None: none is open), as
        :meth:`Record.context` reads it."""
        now_open = (SessionInfo(s.number, s.opened_at, None, json.loads(s.options or "{}")),) if s else ()
        return Context(game, rs, Position(g.name, hand + 1, s.number if s else None, len(entries), last_hand_seq),
                       tuple(totals.items()), (*infos, *now_open), len(log), None,
                       tuple((night_points or {}).items()), status, len(log), log, dealt_before)

    chain(None, EntryKind.HEADER.value, header_body(g, players), g.created_at)
    status = None
    hand = last_hand_seq = 0
    dealt_before = None
    for night in range(1, nights + 1):
        s = SessionRow(id=night, game_id=1, number=night, opened_at=at(night), options="{}")

        # ref new-session: the kind decides what the night holds
        opened = plan if night == 1 else kind.open_session(ctx(None), rs, SessionRequest())
        s.options = json.dumps(dict(opened.options), ensure_ascii=False)
        chain(s, EntryKind.SESSION_OPEN.value, open_body(s), s.opened_at)
        log: tuple = ()
        night_points = dict.fromkeys(totals, 0)
        for his in range(1, min(per_night, hands - hand) + 1):
            facts = PointsFacts(tuple((p, rng.randint(-40, 90)) for p in PLAYERS))
            draft = kind.adjudicate(ctx(s, log, night_points), facts).draft  # ref score-hand --points ...
            points = draft.points()
            hand += 1
            seq = last_hand_seq = chain(s, draft.kind.value, chained_body(draft), at(night, 7 * his), draft.hand,
                        draft.hand_in_session, draft.dealer, points)
            results += [(seq, ids[r.name], r.points, r.count, None if r.won is None else int(r.won))
                        for r in draft.results]
            for n, v in points.items():
                totals[n] += v
                night_points[n] += v
            log += (("hand", draft.dealer or ""),)
            status = draft.status
            if status is not None and status.over:
                raise SystemExit(f"the game ended at hand {hand} (A7): build fewer hands")
        dealt_before = log[-1][1] if log else dealt_before
        try:
            kind.close_session(ctx(s, log, night_points))  # ref end-session: refused mid-round (A4)
        except RuleRefusal:
            closed = None
        else:
            s.closed_at = closed = at(night, 4 * 60)
            chain(s, EntryKind.SESSION_CLOSE.value, close_body(s), closed)
        sessions.append((night, 1, night, s.opened_at, closed, s.options))
        infos.append(SessionInfo(night, s.opened_at, closed, json.loads(s.options)))
    with engine.begin() as conn:
        raw = conn.connection.driver_connection
        raw.execute("INSERT INTO game (id, name, ruleset, ruleset_text, target, wildcards, options, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (g.id, g.name, g.ruleset, g.ruleset_text, g.target, g.wildcards, g.options, g.created_at))
        raw.executemany("INSERT INTO player (id, game_id, name, seat, opening) VALUES (?, ?, ?, ?, ?)",
                        [(p.id, p.game_id, p.name, p.seat, p.opening) for p in players])
        raw.executemany("INSERT INTO session VALUES (?, ?, ?, ?, ?, ?)", sessions)
        raw.executemany("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", entries)
        raw.executemany("INSERT INTO result (entry_id, player_id, points, count, won) VALUES (?, ?, ?, ?, ?)",
                        results)
        rebuild_aggregates(conn)
    engine.dispose()
    return time.perf_counter() - started


def timed(cmd: list[str], runs: int, env: dict) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--hands", type=int, default=40_000)
    ap.add_argument("--keep", type=Path, help="keep the databases in this folder")
    args = ap.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        run(args, args.keep)
    else:
        with tempfile.TemporaryDirectory(prefix="rummyref-bench-") as tmp:
            run(args, Path(tmp))


def run(args: argparse.Namespace, folder: Path) -> None:
    big, small = folder / "history-25y.db", folder / "history-30.db"
    t_big = build(big, args.hands)
    t_small = build(small, 30)
    print(f"built {args.hands:,} hands in {t_big:.1f} s ({big}), 30 hands in {t_small:.2f} s")
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    py = sys.executable
    cases = [
        ('python -c "import sqlmodel, typer, rich"', [py, "-c", "import sqlmodel, typer, rich"]),
        ("ref standings (30 hands)", [py, "-m", "rummyref", "standings", "--db", str(small)]),
        (f"ref standings ({args.hands:,} hands)", [py, "-m", "rummyref", "standings", "--db", str(big)]),
        (f"ref standings --json ({args.hands:,} hands)", [py, "-m", "rummyref", "standings", "--json", "--db", str(big)]),
    ]
    # interleave the runs so that machine noise hits every case alike
    samples: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(args.runs):
        for name, cmd in cases:
            samples[name].append(timed(cmd, 1, env))
    med = {name: statistics.median(v) for name, v in samples.items()}
    base = med[cases[0][0]]
    short = med[cases[1][0]]
    print(f"\nmedian of {args.runs} runs each (seconds)")
    print(f"{'command':<42} {'median':>8} {'x import':>9} {'vs 30 hands':>12}")
    for name, _ in cases:
        print(f"{name:<42} {med[name]:8.3f} {med[name] / base:9.2f} {100 * (med[name] / short - 1):+11.1f}%")
    long_ = med[cases[2][0]]
    ok1, ok2 = long_ <= 1.3 * base, long_ <= 1.1 * short
    print(f"\ntarget <= 1.3 x import baseline: {'met' if ok1 else 'MISSED'} ({long_ / base:.2f}x)")
    print(f"target <= 10% over 30 hands:     {'met' if ok2 else 'MISSED'} ({100 * (long_ / short - 1):+.1f}%)")
    t = time.perf_counter()
    r = subprocess.run([py, "-m", "rummyref", "verify", "--db", str(big)], capture_output=True, text=True, env=env)
    print(f"\n(for information) ref verify on {args.hands:,} hands: {time.perf_counter() - t:.2f} s, exit {r.returncode}")


if __name__ == "__main__":
    main()
