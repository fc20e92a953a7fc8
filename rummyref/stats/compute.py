"""Statistics of a game, computed from its record in force (after amends and voids).

Pure functions over plain values: the store reads each hand in force into a :class:`HandLine`
(points, low counts and wins, who went out, Rummy! claims) and each session into a
:class:`NightLine`; :func:`compute_stats` does the rest. Every kind of game goes through the
same code, told how to judge by the :class:`StatsStyle` its kind gives: a hand's winners are the
players the record marks as winners, else the best score of the hand; a session is judged on
points, or on games won where the kind counts low.
"""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from typing import Any

from rummyref.record import Game, SessionInfo, tenths
from rummyref.rules.resources import data_dir


@dataclass(frozen=True)
class StatsStyle:
    """How a kind of game is judged in the statistics (given by the kind, never guessed)."""

    counts: bool = False  #: hands are judged by a low count and a recorded winner (the lower the better)
    unit: str = "hand"  #: what one recorded unit is called
    session: str = "night"  #: what a sitting is called in a sentence
    sessions_title: str = "Rummy Nights"  #: ... in a heading
    #: the match state after every game in force (every session of the game, with the kind's data
    #: about it, and the hands in order) -> an object with ``matches_won``, or None
    matches: Callable[[Sequence[SessionInfo], Sequence[HandLine]], Any] | None = None
    #: which tables ``ref stats`` shows: ``points`` (Rummy 2,000,000: nights won, Rummy! claims),
    #: ``counts`` (Simple Rummy: games and matches won), ``gin`` (one game to a target, hand by
    #: hand: hands won, went out; no night is won and nothing is claimed). The figures are the same.
    layout: str = "points"
    #: a hand's winners are the ones the record marks, and none when it marks none (Gin: a dead
    #: hand is won by nobody), never the best score of the hand
    recorded_winners: bool = False
    #: a session is won (by its points, or its games won); False (Gin: the game is won, not a
    #: session): ``nights_won``, the night streaks, ``average_per_night`` and ``head_to_head`` are null
    sessions_won: bool = True
    #: a hand's worst score means something; False (Gin: a hand lost always scores 0): ``worst_hand`` is null
    #: and ``best_hand`` is the best of the hands the player won (null when none was)
    worst_hand: bool = True


POINTS_STYLE = StatsStyle()


@dataclass(frozen=True)
class HandLine:
    """One hand in force (its latest amendment; voided hands are left out)."""

    hand: int
    night: int
    date: str  #: the date of its Rummy Night (local date the night was opened, as in the standings)
    points: tuple[tuple[str, int], ...]
    counts: tuple[tuple[str, int], ...] = ()  #: Simple Rummy: each player's count (S13)
    winners: tuple[str, ...] = ()  #: players the record marks as winners (Simple Rummy, Gin)
    out: str | None = None  #: who went out (Gin: who knocked, went gin or big gin)
    claims: tuple[str, ...] = ()  #: who won a card by a Rummy! claim (one name per claim)
    dropped: tuple[str, ...] = ()  #: Simple Rummy: who dropped out of the game (S14)


@dataclass(frozen=True)
class NightLine:
    number: int
    date: str
    closed: bool


@dataclass(frozen=True)
class StatsInput:
    game: Game
    method: str  #: the rule set's scoring method (shown in the JSON)
    style: StatsStyle
    milestones: tuple[int, ...]
    nights: tuple[NightLine, ...]
    hands: tuple[HandLine, ...]  #: in hand order
    #: every session of the game, played or not, with the kind's data about it (Simple Rummy:
    #: its table, so that a match ends where the players change, as in the standings)
    sessions: tuple[SessionInfo, ...] = ()
    voided: int = 0  #: hands recorded and voided since (B7): in force nowhere, counted only here


# -- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandRef:
    value: int  #: points (or a Simple Rummy count)
    hand: int
    night: int


@dataclass(frozen=True)
class PlayerStats:
    name: str
    hands: int
    points: int  #: won at the table (opening balance excluded)
    average_per_hand: float | None
    nights_played: int
    average_per_night: float | None  #: None: no session is won (StatsStyle.sessions_won)
    best_hand: HandRef | None  #: most points (Simple Rummy: lowest count; Gin: of the hands won, None if none)
    worst_hand: HandRef | None  #: None also where no worst hand means anything (StatsStyle.worst_hand)
    hands_won: int  #: best score of the hand, ties included (Simple Rummy: games won)
    go_outs: int
    claims_won: int
    nights_won: int | None  #: None (and the night streaks): no session is won (StatsStyle.sessions_won)
    longest_night_streak: int | None
    current_night_streak: int | None
    longest_hand_streak: int
    current_hand_streak: int
    games_won: int | None = None  #: Simple Rummy
    games_played: int | None = None  #: Simple Rummy: games played to the end (= hands; drops excluded)
    games_dropped: int | None = None  #: Simple Rummy: games the player dropped out of (S14)
    matches_won: int | None = None  #: Simple Rummy (S17)
    average_count: float | None = None  #: Simple Rummy


@dataclass(frozen=True)
class HeadToHead:
    player: str
    opponent: str
    won: int  #: closed nights where player's night score beat the opponent's
    lost: int
    level: int


@dataclass(frozen=True)
class MilestoneHit:
    name: str
    hand: int | None  #: None: already there with the opening balance
    night: int | None
    date: str | None
    total: int


@dataclass(frozen=True)
class Milestone:
    threshold: int
    is_target: bool
    hits: tuple[MilestoneHit, ...]  #: in the order reached

    @property
    def first(self) -> str | None:
        return self.hits[0].name if self.hits else None


@dataclass(frozen=True)
class Stats:
    game: str
    ruleset: str
    method: str
    target: int | None
    hands: int
    voided: int  #: hands recorded, then voided (B7): none of the figures counts them
    nights: int
    closed_nights: int
    night_score: str  #: "points" or "games won": what decides a night
    players: tuple[PlayerStats, ...]
    head_to_head: tuple[HeadToHead, ...] | None  #: None: no session is won (StatsStyle.sessions_won)
    milestones: tuple[Milestone, ...]
    style: StatsStyle = field(default=POINTS_STYLE, compare=False)  #: for the words; not in the JSON

    def to_json(self) -> dict:
        data = asdict(replace(self, style=POINTS_STYLE))
        data.pop("style")
        for m, src in zip(data["milestones"], self.milestones):
            m["first"] = src.first
        return data


# -- data -----------------------------------------------------------------------------------


@cache
def _milestone_table() -> dict:
    with open(data_dir() / "stats.toml", "rb") as fh:
        return tomllib.load(fh).get("milestones", {})


def milestones_for(ruleset: str, target: int | None) -> tuple[int, ...]:
    """The totals worth remembering for a game (data/stats.toml), below its target, then the target."""
    if target is None:
        return ()
    table = _milestone_table()
    chosen = table.get(ruleset, table.get("default", []))
    return tuple(sorted({int(v) for v in chosen if 0 < int(v) < target})) + (target,)


# -- computation ----------------------------------------------------------------------------


def hand_winners(h: HandLine, low: bool = False) -> tuple[str, ...]:
    """Who won the hand: in a low-count game (Simple Rummy) and in Gin (``low``: the style's
    ``recorded_winners``) the winner the record names (none after a tie game or a dead hand);
    otherwise the best score of the hand (equal best scores all win)."""
    if low or h.winners:
        return h.winners
    if not h.points:
        return ()
    best = max(p for _, p in h.points)
    return tuple(n for n, p in h.points if p == best)


def _night_scores(inp: StatsInput) -> dict[int, dict[str, int]]:
    """Each night's score per player who played it: points, or games won (Simple Rummy)."""
    scores: dict[int, dict[str, int]] = defaultdict(dict)
    low = inp.style.counts
    for h in inp.hands:
        night = scores[h.night]
        won = set(h.winners)
        for name, pts in h.points:
            night[name] = night.get(name, 0) + ((name in won) if low else pts)
    return scores


def _night_winners(score: dict[str, int], low: bool) -> tuple[str, ...]:
    if not score:
        return ()
    best = max(score.values())
    if low and best <= 0:
        return ()
    return tuple(n for n, v in score.items() if v == best)


def _streaks(won_in_order: Sequence[bool]) -> tuple[int, int]:
    longest = run = 0
    for won in won_in_order:
        run = run + 1 if won else 0
        longest = max(longest, run)
    return longest, run


@dataclass
class _Tally:
    """One player's running figures while the hands are read (internal, mutable)."""

    hands: int = 0
    points: int = 0
    nights: set = field(default_factory=set)
    best: HandRef | None = None
    worst: HandRef | None = None
    go_outs: int = 0
    claims: int = 0
    count_sum: int = 0
    counts: int = 0
    dropped: int = 0

    def add(self, h: HandLine, pts: int, value: int | None, low: bool, dropped: bool = False) -> None:
        self.nights.add(h.night)
        if dropped:
            self.dropped += 1  # S14: dealt in, but not played out: not a game played, no count to judge
            return
        self.hands += 1
        self.points += pts
        if value is None:
            return
        if low:
            self.count_sum += value
            self.counts += 1
        sign = -1 if low else 1  # Simple Rummy: the lower the count, the better
        if self.best is None or sign * value > sign * self.best.value:
            self.best = HandRef(value, h.hand, h.night)
        if self.worst is None or sign * value < sign * self.worst.value:
            self.worst = HandRef(value, h.hand, h.night)


def compute_stats(inp: StatsInput) -> Stats:
    game = inp.game
    low = inp.style.counts
    roster = game.roster
    nights_scores = _night_scores(inp)
    closed = [n for n in inp.nights if n.closed and nights_scores.get(n.number)]
    night_won = {n.number: set(_night_winners(nights_scores[n.number], low)) for n in closed}
    winners_by_hand = [set(hand_winners(h, low or inp.style.recorded_winners)) for h in inp.hands]
    matches = inp.style.matches(inp.sessions, inp.hands) if inp.style.matches else None

    per: dict[str, _Tally] = {n: _Tally() for n in roster}
    for h, winners in zip(inp.hands, winners_by_hand):
        counts = dict(h.counts)
        for name, pts in h.points:
            value = counts.get(name) if low else pts
            if not inp.style.worst_hand and name not in winners:
                value = None  # Gin: a hand lost scores 0, which is nobody's best hand (null if none won)
            per.setdefault(name, _Tally()).add(h, pts, value, low, low and name in h.dropped)
        if h.out in per:
            per[h.out].go_outs += 1
        for name in h.claims:
            if name in per:
                per[name].claims += 1

    at_table = [{n for n, _ in h.points} for h in inp.hands]
    players = []
    for name, p in per.items():
        played_hands = [name in w for w, t in zip(winners_by_hand, at_table) if name in t]
        hands_won = sum(played_hands)
        played_nights = [name in night_won[n.number] for n in closed if name in nights_scores[n.number]]
        longest_h, current_h = _streaks(played_hands)
        longest_n, current_n = _streaks(played_nights)
        nights_played = len(p.nights)
        won = inp.style.sessions_won
        players.append(
            PlayerStats(
                name=name,
                hands=p.hands,
                points=p.points,
                average_per_hand=tenths(p.points, p.hands) if p.hands and not low else None,
                nights_played=nights_played,
                average_per_night=tenths(p.points, nights_played) if nights_played and not low and won else None,
                best_hand=p.best,
                worst_hand=p.worst if inp.style.worst_hand else None,
                hands_won=hands_won,
                go_outs=p.go_outs,
                claims_won=p.claims,
                nights_won=sum(played_nights) if won else None,
                longest_night_streak=longest_n if won else None,
                current_night_streak=current_n if won else None,
                longest_hand_streak=longest_h,
                current_hand_streak=current_h,
                games_won=hands_won if low else None,
                games_played=p.hands if low else None,
                games_dropped=p.dropped if low else None,
                matches_won=dict(matches.matches_won).get(name, 0) if matches else None,
                average_count=tenths(p.count_sum, p.counts) if low and p.counts else None,
            )
        )
    return Stats(
        game=game.name,
        ruleset=game.ruleset,
        method=inp.method,
        target=game.target,
        hands=len(inp.hands),
        voided=inp.voided,
        nights=len(inp.nights),
        closed_nights=sum(1 for n in inp.nights if n.closed),  # the nights closed (a night abandoned is none)
        night_score="games won" if low else "points",
        style=inp.style,
        players=tuple(players),
        head_to_head=(_head_to_head(list(per), [nights_scores[n.number] for n in closed])
                      if inp.style.sessions_won else None),
        milestones=_milestones(inp),
    )


def _head_to_head(names: Sequence[str], nights: Sequence[dict[str, int]]) -> tuple[HeadToHead, ...]:
    out = []
    for a in names:
        for b in names:
            if a == b:
                continue
            both = [s for s in nights if a in s and b in s]
            won = sum(1 for s in both if s[a] > s[b])
            lost = sum(1 for s in both if s[a] < s[b])
            out.append(HeadToHead(a, b, won, lost, len(both) - won - lost))
    return tuple(out)


def _milestones(inp: StatsInput) -> tuple[Milestone, ...]:
    if not inp.milestones:
        return ()
    totals = {p.name: p.opening for p in inp.game.players}
    hits: dict[int, list[MilestoneHit]] = {t: [] for t in inp.milestones}
    reached: set[tuple[int, str]] = set()
    # there with the opening balance: the greatest opening first, equal ones by seat
    for name, total in sorted(totals.items(), key=lambda nt: -nt[1]):
        for t in inp.milestones:
            if total >= t:
                hits[t].append(MilestoneHit(name, None, None, None, total))
                reached.add((t, name))
    lowest_open = min(inp.milestones)
    for h in inp.hands:
        for name, pts in h.points:
            totals[name] = totals.get(name, 0) + pts
        # players passing a mark in the same hand: the greatest total after that hand first (as A7
        # decides the game when several pass the target in one hand), equal totals by seat
        passed = sorted(((totals[n], n) for n, _ in h.points), key=lambda tn: -tn[0])
        for total, name in passed:
            if total < lowest_open:
                continue
            for t in inp.milestones:
                if total >= t and (t, name) not in reached:
                    reached.add((t, name))
                    hits[t].append(MilestoneHit(name, h.hand, h.night, h.date, total))
    target = inp.game.target
    return tuple(Milestone(t, t == target, tuple(hits[t])) for t in inp.milestones)
