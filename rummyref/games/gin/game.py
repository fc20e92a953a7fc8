"""A game of Gin Rummy to its target: a pure fold over the hands (rules G10-G12).

Each hand scores for one player (its winner) or nobody (a dead hand). The game ends at the
end of the hand that brings a player's total to the target or past it; only one player scores
in a hand, so there is never a tie. The final scores then add, for each player, the box bonus
per hand won (G11), and for the winner the game bonus (G10); when the loser won no hand (a
shutout, G12) the winner's final score is multiplied by the rule set's shutout multiplier.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from rummyref.errors import RuleRefusal, UnreadableInput, plural
from rummyref.games.gin.engine import HandResult, Side, gin_rules
from rummyref.rules.ruleset import RuleSet

SEATS = (0, 1)


@dataclass(frozen=True)
class HandScore:
    """One hand as the game sees it: the seat (0 or 1) that scored, or None for a dead hand."""

    winner: int | None
    points: int

    @classmethod
    def of(cls, result: HandResult, knocker: int) -> HandScore:
        """A settled hand, with the knocker sitting at seat ``knocker``."""
        if result.winner is None:
            return cls(None, 0)
        return cls(knocker if result.winner is Side.KNOCKER else 1 - knocker, result.points)


@dataclass(frozen=True)
class GameScore:
    """The game so far. ``final`` (with the bonuses) and ``winner`` are set once it is over."""

    totals: tuple[int, int] = (0, 0)
    boxes: tuple[int, int] = (0, 0)  #: hands won
    hands: int = 0  #: hands played, dead ones included
    winner: int | None = None
    final: tuple[int, int] | None = None
    shutout: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def margin(self) -> int:
        """What the game is worth: the winner's final score less the loser's (0 while open)."""
        if self.final is None or self.winner is None:
            return 0
        return self.final[self.winner] - self.final[1 - self.winner]


def add(game: GameScore, hand: HandScore, rules: RuleSet) -> GameScore:
    """The game after one more hand. Refused: a hand after the game is over."""
    gin = gin_rules(rules)
    target = rules.target or 0  # the rule set's parser requires it for Gin
    if game.over:
        raise RuleRefusal(
            f"the game is over: seat {game.winner} reached {target} after {plural(game.hands, 'hand')}",
            rule="G10",
            hint="start a new game",
        )
    if hand.winner is None:
        if hand.points:
            raise UnreadableInput(f"a dead hand scores nothing, not {hand.points}")
        return replace(game, hands=game.hands + 1)
    if hand.winner not in SEATS or hand.points < 0:  # 0: a house's bonus of 0 on an even knock (G8)
        raise UnreadableInput(f"a hand is won by seat 0 or 1 for 0 points or more, not seat {hand.winner} "
                              f"for {hand.points}")
    w = hand.winner
    totals = tuple(t + hand.points * (i == w) for i, t in zip(SEATS, game.totals))
    boxes = tuple(b + (i == w) for i, b in zip(SEATS, game.boxes))
    game = GameScore((totals[0], totals[1]), (boxes[0], boxes[1]), game.hands + 1)
    if totals[w] < target:
        return game
    final = [t + gin.box_bonus * b for t, b in zip(totals, boxes)]
    final[w] += gin.game_bonus
    shutout = boxes[1 - w] == 0
    if shutout:
        final[w] *= gin.shutout_multiplier
    return replace(game, winner=w, final=(final[0], final[1]), shutout=shutout)


def play(hands: Iterable[HandScore], rules: RuleSet) -> GameScore:
    """The game after these hands, in order."""
    game = GameScore()
    for hand in hands:
        game = add(game, hand, rules)
    return game
