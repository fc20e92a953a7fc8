"""What a card is worth under a rule set: the one place that says so.

Every number comes from the rule set's data file (SPEC §5); this module only says which
number applies where. A card is worth one thing in a player's hand and possibly another on
the table:

- **held** (left unmelded when the hand ends): a natural card counts its rank's value
  (``[cards] values``); a WILDCARD counts ``[wildcards] unmelded`` (Rummy 2,000,000's
  penalty, 15; Simple Rummy's S13 count, 0). The sum of the held values is both Rummy
  2,000,000's debit and Simple Rummy's low count (S13: J 11, Q 12, K 13 in its file);
- **melded**: a card counts the card it is, or for a WILDCARD the card it stands for, with
  one exception for aces: an ace at the low end of a run (A-2-3) counts
  ``ace_low_run_value`` (1 in both built-in rule sets), anywhere else its value (15 in
  Rummy 2,000,000). A rule set may instead give melded WILDCARDs a fixed value
  (``[wildcards] melded = N``);
- a WILDCARD in an **all-WILDCARD meld** stands for no card, so it counts what a WILDCARD
  is worth on its own, the ``unmelded`` value, whatever ``melded`` says. This is how
  scoring has valued such melds since 0.1; disputes now agree with it.

Scoring (``games/long/scoring.py``), the disputes, the meld engine and ``ref count`` all ask
here, so a card can never be worth two things at once.
"""

from __future__ import annotations

from collections.abc import Iterable

from rummyref.cards import Card, Rank
from rummyref.melding.melds import Meld
from rummyref.rules.ruleset import RuleSet


def held(card: Card, ruleset: RuleSet) -> int:
    """What ``card`` counts when it is left unmelded at the end of a hand."""
    if card.rank is None:
        return ruleset.wild_unmelded
    return ruleset.values[card.rank]


def held_total(cards: Iterable[Card], ruleset: RuleSet) -> int:
    """The count of the cards left unmelded: Rummy 2,000,000's debit, Simple Rummy's S13."""
    return sum(held(c, ruleset) for c in cards)


def wild_penalty(cards: Iterable[Card], ruleset: RuleSet) -> int:
    """The part of :func:`held_total` due to WILDCARDs (shown apart on a score sheet)."""
    return sum(ruleset.wild_unmelded for c in cards if c.is_wild)


def natural_values(ruleset: RuleSet) -> tuple[int, ...]:
    """A natural card's held value by rank (index 0 unused): the costs the meld engine's
    search minimises. The same numbers as :func:`held`, as a table for its inner loops."""
    return ruleset.values


def in_meld(meld: Meld, ruleset: RuleSet) -> tuple[int, ...]:
    """The value of each card of ``meld`` where it sits, in the order of ``meld.cards``."""
    return tuple(_melded(card, rep, meld.ace_low, ruleset) for card, rep in zip(meld.cards, meld.represents))


def meld_value(meld: Meld, ruleset: RuleSet) -> int:
    """What a melded meld is worth: the sum of :func:`in_meld`."""
    return sum(in_meld(meld, ruleset))


def _melded(card: Card, rep: Card | None, ace_low: bool, ruleset: RuleSet) -> int:
    if card.rank is not None:
        rank = card.rank
    elif rep is None or rep.rank is None:  # an all-WILDCARD meld: the WILDCARD's own value
        return ruleset.wild_unmelded
    elif isinstance(ruleset.wild_melded, int):
        return ruleset.wild_melded
    else:
        rank = rep.rank
    if rank is Rank.ACE and ace_low:
        return ruleset.ace_low_run_value
    return ruleset.values[rank]
