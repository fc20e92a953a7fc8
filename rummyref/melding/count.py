"""``ref count``'s result: the best melding of a hand, its count, and whether it goes out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummyref.cards import Card, check_deck
from rummyref.melding.melds import Meld
from rummyref.melding.solver import GoOut, Solution, best_melding, go_out_check
from rummyref.rules.ruleset import RuleSet


@dataclass(frozen=True)
class CountReport:
    cards: tuple[Card, ...]
    ruleset: str
    best: Solution  #: the best melding (lowest count)
    going_out: GoOut  #: the rule set's default going-out check

    @property
    def count(self) -> int:
        return self.best.count

    def to_dict(self) -> dict[str, Any]:
        melds = self.best.melds
        return {
            "cards": [str(c) for c in self.cards],
            "ruleset": self.ruleset,
            "count": self.best.count,
            "melds": [[str(c) for c in m.cards] for m in melds],
            "meld_kinds": [m.kind.value for m in melds],
            "represents": [[None if r is None else str(r) for r in m.represents] for m in melds],
            "unmelded": [str(c) for c in self.best.unmelded],
            "can_go_out": self.going_out.ok,
            "going_out_mode": self.going_out.mode,
            "going_out_reason": self.going_out.reason,
            **self._going_out_melding(),
        }

    def going_out_differs(self) -> bool:
        """Does the going-out check's arrangement (fewest cards unmelded) meld the hand
        otherwise than the best melding (lowest count) shown?"""
        go = self.going_out.arrangement
        return go is not None and sorted(map(str, go.unmelded)) != sorted(map(str, self.best.unmelded))

    def _going_out_melding(self) -> dict[str, Any]:
        """The arrangement the going-out verdict is of, where it is not the best melding."""
        go = self.going_out.arrangement
        if go is None or not self.going_out_differs():
            return {}
        return {"going_out_melds": [[str(c) for c in m.cards] for m in go.melds],
                "going_out_represents": [[None if r is None else str(r) for r in m.represents] for m in go.melds],
                "going_out_unmelded": [str(c) for c in go.unmelded]}


def meld_text(meld: Meld, pretty: bool = True) -> str:
    """``7♠ 8♠ W(=9♠)``: the cards, with what each WILDCARD stands for."""
    parts = []
    for card, rep in zip(meld.cards, meld.represents):
        shown = card.pretty() if pretty else str(card)
        if card.is_wild and rep is not None:
            shown = f"W(={rep.pretty() if pretty else rep})"
        parts.append(shown)
    return " ".join(parts)


#: A game's own answer to "can this hand end it?" (Gin: gin or a knock), given the best melding.
Verdict = Callable[[Sequence[Card], Solution, RuleSet], GoOut]


def count_hand(cards: Sequence[Card], ruleset: RuleSet, verdict: Verdict | None = None) -> CountReport:
    """Check the hand is one deck's cards (at most the rule set's largest WILDCARD count),
    then find its best melding and whether it goes out: by ``verdict``, the game kind's own
    (:func:`rummyref.games.registry.count_verdict`), else the rule set's going-out check."""
    check_deck(cards, ruleset.wild_limit, where="in the hand")
    best = best_melding(cards, ruleset)
    going_out = (verdict(cards, best, ruleset) if verdict is not None
                 else go_out_check(cards, ruleset, mode=ruleset.going_out))
    return CountReport(cards=tuple(cards), ruleset=ruleset.name, best=best, going_out=going_out)
