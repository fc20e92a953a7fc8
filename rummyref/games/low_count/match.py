"""Matches (Simple Rummy S17): a pure fold over the winners of games.

The winner of a game plays first in the next one; after a tie game or a game nobody won,
the same player plays first again: the one who played first in it (a fact of that game, so a
correction of an earlier game does not move it). The first player to win ``match_wins`` games (the rule
set's data: 2) takes the match, and the next match begins at once; matches won are kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rummyref.errors import UnreadableInput
from rummyref.names import shown
from rummyref.rules.ruleset import RuleSet

S17 = "S17"


@dataclass(frozen=True)
class MatchRecord:
    """A finished match."""

    number: int
    winner: str
    game_wins: tuple[tuple[str, int], ...]
    games: int

    @property
    def score(self) -> str:
        return _score(dict(self.game_wins))

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            "score": self.score,
            "game_wins": dict(self.game_wins),
            "games": self.games,
        }


@dataclass(frozen=True)
class MatchState:
    """Where a series of matches stands. Build with :meth:`start`, advance with :meth:`after`."""

    players: tuple[str, ...]
    match_wins: int  #: game wins that take a match
    first_player: str  #: who plays first in the next game
    number: int = 1  #: the match in progress
    games: int = 0  #: games played in the match in progress
    game_wins: tuple[tuple[str, int], ...] = ()  #: in the match in progress, seating order
    matches_won: tuple[tuple[str, int], ...] = ()  #: over all matches, seating order
    finished: tuple[MatchRecord, ...] = ()
    last_game_winner: str | None = None
    just_won: MatchRecord | None = None  #: the match the last game decided, if any

    @classmethod
    def start(cls, players: Sequence[str], first_player: str, match_wins: int | RuleSet) -> MatchState:
        if isinstance(match_wins, RuleSet):
            if match_wins.match_wins is None:
                raise UnreadableInput(f"rule set {match_wins.name!r} does not play matches")
            match_wins = match_wins.match_wins
        players = tuple(players)
        if first_player not in players:
            raise UnreadableInput(f"{first_player!r} is not among the players {', '.join(players)}")
        zero = tuple((p, 0) for p in players)
        return cls(players, match_wins, first_player, game_wins=zero, matches_won=zero)

    def seat(self, players: Sequence[str]) -> MatchState:
        """The same state with any new players added (no wins yet), e.g. when a later
        session's table has a newcomer."""
        new = tuple(p for p in players if p not in self.players)
        if not new:
            return self
        zero = tuple((p, 0) for p in new)
        return replace(
            self,
            players=self.players + new,
            game_wins=self.game_wins + zero,
            matches_won=self.matches_won + zero,
        )

    def after(self, winner: Any, played_first: str | None = None) -> MatchState:
        """The state after one more game. ``winner`` is a name, None (tie / no winner) or
        anything with a ``winner`` attribute (a :class:`~rummyref.games.low_count.adjudicate.GameResult`).
        ``played_first``: who played first in that game, as recorded; after a game nobody won
        the same player plays first again (S17), whoever the state had expected."""
        if winner is not None and not isinstance(winner, str):
            winner = winner.winner
        if winner is None:
            first = played_first if played_first in self.players else self.first_player
            return replace(self, games=self.games + 1, first_player=first, last_game_winner=None, just_won=None)
        if winner not in self.players:
            raise UnreadableInput(f"{winner!r} is not among the players {', '.join(self.players)}")
        wins = _bump(self.game_wins, winner)
        games = self.games + 1
        if dict(wins)[winner] < self.match_wins:
            return replace(
                self, games=games, game_wins=wins, first_player=winner, last_game_winner=winner, just_won=None
            )
        record = MatchRecord(self.number, winner, wins, games)
        return replace(
            self,
            number=self.number + 1,
            games=0,
            game_wins=tuple((p, 0) for p, _ in self.game_wins),  # the next match: the same table
            matches_won=_bump(self.matches_won, winner),
            finished=self.finished + (record,),
            first_player=winner,
            last_game_winner=winner,
            just_won=record,
        )

    @property
    def score(self) -> str:
        return _score(dict(self.game_wins))

    def summary(self, word: str = "game") -> str:
        """The match so far; ``word``: the rule set's word for a game (``[words] hand``)."""
        wins = ", ".join(f"{shown(p)} {n}" for p, n in self.game_wins)
        text = f"match {self.number}: {word} wins {wins} (first to {self.match_wins} takes the match)"
        if self.just_won:
            text = (
                f"{shown(self.just_won.winner)} wins match {self.just_won.number}, {self.just_won.score} ({S17}); "
                + text
            )
        return f"{text}; {shown(self.first_player)} plays first next ({S17})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "games": self.games,
            "game_wins": dict(self.game_wins),
            "score": self.score,
            "match_wins": self.match_wins,
            "first_player": self.first_player,
            "last_game_winner": self.last_game_winner,
            "just_won": None if self.just_won is None else self.just_won.to_dict(),
            "matches_won": dict(self.matches_won),
            "finished": [m.to_dict() for m in self.finished],
            "rule": S17,
        }


def fold_matches(
    players: Sequence[str], first_player: str, match_wins: int | RuleSet, winners: Iterable[Any]
) -> MatchState:
    """The match state after every game in order (``winners``: names, None, or game results)."""
    state = MatchState.start(players, first_player, match_wins)
    for w in winners:
        state = state.after(w)
    return state


def _bump(pairs: tuple[tuple[str, int], ...], name: str) -> tuple[tuple[str, int], ...]:
    return tuple((p, n + (p == name)) for p, n in pairs)


def _score(wins: dict[str, int]) -> str:
    """Game wins from the most to the fewest, e.g. ``2-1-0``."""
    return "-".join(str(n) for n in sorted(wins.values(), reverse=True))
