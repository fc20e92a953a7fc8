"""Disputes settled from the facts: pure functions that return a reasoned verdict.

Each function takes the facts a table can state (who called, who touched; a card
and the melds on the table; a card taken and a hand; ...) and returns a frozen
:class:`DisputeResult`: the verdict, the chain of rules that led there (each step
citing a rule id and saying what it decided), the normalised facts, and details.

``DisputeResult.key`` is a stable text (the kind plus the normalised facts) so that
a store can record a ruling and find "the same dispute" again; ``to_dict()`` is the
JSON-ready form. Nothing here reads or writes a database.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rummyref import names as player_names
from rummyref.cards import Card, check_deck, check_holders, format_cards, parse_card, parse_melds, read_cards_of
from rummyref.errors import NotFound, RuleRefusal, UnreadableCard, UnreadableInput, and_list
from rummyref.games.seating import has_seating, seat
from rummyref.melding.melds import HIGH_ACE, Meld, MeldKind, meld_options, run_seats
from rummyref.rules import values as card_values
from rummyref.rules.ruleset import RuleSet, load_ruleset

# -- the result ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One link of the reasoning: the rule cited and what it decided."""

    rule: str
    decided: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "decided": self.decided}


class Dispute(StrEnum):
    """The disputes ``ref dispute`` settles."""

    CLAIM = "claim"
    DESIGNATE = "designate"
    PICKUP = "pickup"
    DISCARD = "discard"
    END_NIGHT = "end-night"


class Outcome(StrEnum):
    """How a dispute came out (the ``outcome`` of its JSON)."""

    AWARDED = "awarded"
    NO_CLAIM = "no-claim"
    JUDGED = "judged"
    JUDGE_DECIDES = "judge-decides"
    TABLE_DECIDED = "table-decided"
    TABLE_DECIDES = "table-decides"
    NO_MELD = "no-meld"
    ONE_WAY = "one-way"
    PLAYER_SAYS = "player-says"  #: places of one kind at different values: the player says which
    RUN = "run"
    MATCH = "match"
    LEGAL = "legal"
    ILLEGAL = "illegal"
    ALLOWED = "allowed"
    REFUSED = "refused"


@dataclass(frozen=True)
class DisputeResult:
    kind: Dispute
    outcome: Outcome
    verdict: str  #: one sentence for the table
    chain: tuple[Step, ...]
    facts: Mapping[str, Any]  #: the normalised facts (what ``key`` is made of)
    details: Mapping[str, Any] = field(default_factory=dict)
    ruleset: str = "rummy-2m"
    #: the ruling settled something at the table (a claim, a card's meld, a pick-up, a discard),
    #: rather than answering a question (may we stop? where could this card go?): only a
    #: settling ruling is worth keeping as a precedent, unless the table asks to keep it
    settled: bool = True

    @property
    def allowed(self) -> bool | None:
        return {"legal": True, "allowed": True, "illegal": False, "refused": False}.get(self.outcome)

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules cited, in order (a step with no rule states what the rule set lacks)."""
        return tuple(dict.fromkeys(s.rule for s in self.chain if s.rule))

    @property
    def pending(self) -> bool:
        """The ruling still waits for a judge or for the table: it settled nothing yet."""
        return self.outcome in (Outcome.JUDGE_DECIDES, Outcome.TABLE_DECIDES, Outcome.PLAYER_SAYS)

    @property
    def why_not_settled(self) -> str:
        """Why an unsettled ruling is not kept by default (the CLI's ``Not recorded (...)``)."""
        if self.outcome is Outcome.PLAYER_SAYS:
            return "it waits for the player to say where the card goes and settled nothing yet"
        if self.pending:
            return "it waits for a judgment and settled nothing yet"
        return "it answered a question and settled nothing"

    @property
    def key(self) -> str:
        """``kind|{facts as canonical JSON}``: equal for the same dispute, whatever the wording."""
        return f"{self.kind}|{json.dumps(self.facts, sort_keys=True, separators=(',', ':'))}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "ruleset": self.ruleset,
            "outcome": self.outcome,
            "verdict": self.verdict,
            "chain": [s.to_dict() for s in self.chain],
            "rules": list(self.rules),
            "facts": dict(self.facts),
            "details": dict(self.details),
            "key": self.key,
            "settled": self.settled,
        }


# -- the rule set's own rules ----------------------------------------------------------------

#: The rules each dispute applies. They are rules of Rummy 2,000,000's rulebook: a rule set
#: whose rulebook lacks them (Simple Rummy, Gin, 500 Rum) has no such dispute. ``end-night``
#: is not here: every rule set answers whether a session may end (see :func:`end_night_ruling`).
RULES: dict[Dispute, tuple[str, ...]] = {
    Dispute.CLAIM: ("B8", "B11"),
    Dispute.DESIGNATE: ("B5", "B6"),
    Dispute.PICKUP: ("B4",),
    Dispute.DISCARD: ("B3", "B4", "B8"),
}

#: what each dispute is about, for the refusal
_ABOUT = {
    Dispute.CLAIM: "who wins a Rummy! card",
    Dispute.DESIGNATE: "whether a card counts for the run or the match",  # Rummy 2,000,000's words: its rules
    Dispute.PICKUP: "the use of a card taken from the Rummy Line",
    Dispute.DISCARD: "how a turn may end",
}


def rule_ids(ruleset: RuleSet) -> tuple[str, ...]:
    """The rule ids of the rule set's rulebook."""
    from rummyref.rulebook.book import load_rulebook

    return load_rulebook(ruleset.rulebook).ids


def disputes_of(ruleset: RuleSet) -> tuple[Dispute, ...]:
    """The disputes the rule set's rules settle (``end-night`` always: it asks the game kind)."""
    have = rule_ids(ruleset)
    return tuple(d for d in Dispute if all(r in have for r in RULES.get(d, ())))


def check_rules(dispute: Dispute, ruleset: RuleSet) -> None:
    """Refuse (exit 5) a dispute whose rules the rule set does not have: it is never answered
    with another rule set's rules."""
    wanted = RULES.get(dispute, ())
    have = rule_ids(ruleset)
    if all(r in have for r in wanted):
        return
    one = len(wanted) == 1
    raise NotFound(
        f"the {dispute} dispute settles {_ABOUT[dispute]} by Rummy 2,000,000's {'rule' if one else 'rules'} "
        f"{and_list(list(wanted))}; {ruleset.title} ({ruleset.name}) has no such {'rule' if one else 'rules'}",
        hint=f'ask {ruleset.title}\'s own rules with ref ruling --ruleset {ruleset.name} "...", '
        "or settle it by Rummy 2,000,000's rules with --ruleset rummy-2m",
    )


# -- names and orders ----------------------------------------------------------------------

Order = tuple[frozenset[str], ...]  #: who did something, in order; a set = at the same moment


def _groups(text: str | None) -> list[list[str]]:
    """An order's groups of names as typed: ``"Larry, Ben=Bill"`` -> ``[["Larry"], ["Ben", "Bill"]]``."""
    chunks = [chunk for chunk in re.split(r"[,;>]", text or "") if chunk.strip()]
    return [[n.strip() for n in chunk.split("=") if n.strip()] for chunk in chunks]


def order_names(*texts: str | None) -> tuple[str, ...]:
    """The names typed in orders (``--called``, ``--touched`` ...), as typed: they tell which
    game a dispute means when several are open (SPEC §8)."""
    return tuple(name for text in texts for group in _groups(text) for name in group)


_ORDER_HINT = 'list the players in order, e.g. "Bill,Ben"; join players who acted together with =, e.g. "Bill=Ben"'


def check_order(text: str | None, what: str) -> None:
    """Refuse an order with an empty place (exit 3), naming the option and the column: ``",Bill"``
    (nobody before the comma), ``"Bill==Ben"``, ``"Bill="``. An order left empty is no order."""
    if not text or not text.strip():
        return
    last = 0  #: where the place being read starts: after the last separator
    for sep in re.finditer(r"[,;>=]|$", text):
        if not text[last: sep.start()].strip():
            where = (f"before the {text[sep.start()]!r} at column {sep.start() + 1}" if sep.start() < len(text) else
                     f"after the {text[last - 1]!r} at column {last}")
            raise UnreadableInput(f"{what} {text!r}: no name {where}", hint=_ORDER_HINT)
        last = sep.end()


def parse_order(text: str | None, roster: Sequence[str], what: str) -> Order:
    """``"Ben,Bill"`` (Ben then Bill) or ``"Ben=Bill"`` (together) or ``"Larry, Ben=Bill"``.
    An empty place (``",Bill"``, ``"Bill==Ben"``) is refused (:func:`check_order`)."""
    check_order(text, what)
    order: list[frozenset[str]] = []
    seen: set[str] = set()
    for group in _groups(text):
        names = [player_names.at_table(n, roster, what) for n in group]
        for n in names:
            if n in seen:
                raise UnreadableInput(f"{what}: {n} is listed twice", hint="list each player once, in order; = joins players who acted together")
            seen.add(n)
        order.append(frozenset(names))
    return tuple(order)


def _rank(order: Order) -> dict[str, int]:
    return {name: i for i, group in enumerate(order) for name in group}


def _order_text(order: Order, roster: Sequence[str]) -> list[list[str]]:
    return [[p for p in roster if p in group] for group in order]




# -- B8 / B11: a Rummy! claim ----------------------------------------------------------------


def claim_ruling(
    players: Sequence[str],
    called: Order,
    touched: Order,
    completed: Order = (),
    judge_says: str | None = None,
    table_decides: str | None = None,
    ruleset: RuleSet | None = None,
) -> DisputeResult:
    """Who wins a Rummy! card, by the house's chain (SPEC §3, rules B8 and B11).

    ``called``/``touched``: who called "Rummy!" / touched the card, in order (a set =
    at the same moment). ``completed``: the order in which claimants finished both,
    needed only when it cannot be worked out from the two orders; facts that cannot all be
    true (a completion order the two orders rule out, a player completing who has no claim),
    and a judgment given where there is nothing to judge, are refused (exit 3)."""
    ruleset = ruleset or load_ruleset("rummy-2m")
    check_rules(Dispute.CLAIM, ruleset)
    result = _claim(players, called, touched, completed, judge_says, table_decides)
    return replace(result, ruleset=ruleset.name)


def _claim(
    players: Sequence[str],
    called: Order,
    touched: Order,
    completed: Order,
    judge_says: str | None,
    table_decides: str | None,
) -> DisputeResult:
    roster = list(players)
    if len(roster) < 2:
        raise UnreadableInput("a claim needs at least two players at the table", hint="give --players A,B,C")
    judge_says = player_names.at_table(judge_says, roster, "--judge-says") if judge_says else None
    table_decides = player_names.at_table(table_decides, roster, "--table-decides") if table_decides else None
    c_rank, t_rank = _rank(called), _rank(touched)
    claimants = [p for p in roster if p in c_rank or p in t_rank]
    full = [p for p in claimants if p in c_rank and p in t_rank]
    facts = {
        "players": roster,
        "called": _order_text(called, roster),
        "touched": _order_text(touched, roster),
        "completed": _order_text(completed, roster),
        "judge_says": judge_says,
        "table_decides": table_decides,
    }
    chain: list[Step] = []
    if not claimants:
        raise UnreadableInput("nobody called or touched: there is no claim to settle", hint="give --called and --touched")
    half = [p for p in claimants if p not in full]
    _check_completed(completed, full, c_rank, t_rank, roster)
    for p in half:
        did = "called but did not touch the card" if p in c_rank else "touched the card but did not call"
        chain.append(Step("B11", f"{p} {did}: no claim (a claim needs both the call and the touch)"))
    if not full:
        _no_tie(judge_says, table_decides, "nobody both called and touched, so nobody has a claim")
        return DisputeResult(Dispute("claim"), Outcome("no-claim"), "Nobody both called and touched: the card is not claimed.", tuple(chain), facts)
    if len(full) == 1:
        winner = full[0]
        _no_tie(judge_says, table_decides, f"{winner} is the only player who both called and touched")
        chain.append(Step("B8", f"{winner} is the only player who both called and touched: {winner} wins the card"))
        return _claim_won(winner, chain, facts)

    first, together_winner, later = _first_completers(full, c_rank, t_rank, completed)
    if len(first) == 1:
        winner = first[0]
        _no_tie(judge_says, table_decides, f"{winner} completed the call and the touch first (B8)")
        chain.append(Step("B8", f"{winner} completed the call and the touch first: {winner} wins the card"))
        return _claim_won(winner, chain, facts)
    if together_winner is not None:
        winner = together_winner
        _no_tie(judge_says, table_decides, f"{winner} touched first, which decides it (B8, B11)")
        chain.append(
            Step(
                "B8",
                f"{and_list(first)} called at the same moment; {winner} touched first, so either {winner} "
                f"completed both first (B8) or they completed together and the first touch decides (B11)",
            )
        )
        chain.append(Step("B11", f"either way the first touch wins: {winner} wins the card"))
        return _claim_won(winner, chain, facts)

    tied = list(first)
    if later:  # called with the others, touched after them
        chain.append(Step("B8", f"{and_list(tied + later)} called at the same moment and {and_list(tied)} touched "
                                f"first, so either {and_list(tied)} completed both first, together (B8), or all "
                                "completed together and the first touch decides (B11): either way a tie between "
                                f"{and_list(tied)}"))
    else:
        chain.append(Step("B8", f"{and_list(tied)} completed the call and the touch at the same moment: a tie"))
    earliest = min(t_rank[p] for p in tied)
    first_touch = [p for p in tied if t_rank[p] == earliest]
    if len(first_touch) == 1:
        winner = first_touch[0]
        _no_tie(judge_says, table_decides, f"on a tie the first touch wins, and {winner} touched first (B11)")
        chain.append(Step("B11", f"on a tie the first touch wins: {winner} touched first and wins the card"))
        return _claim_won(winner, chain, facts)
    chain.append(Step("B11", f"{and_list(first_touch)} also touched at the same moment: B11 cannot separate them"))
    judges = [p for p in roster if p not in full]  # only calling, or only touching, is no claim: such a player may judge
    if not judges:
        if judge_says:
            raise UnreadableInput(
                f"--judge-says {judge_says}: nobody can judge this tie, because every player claims (B8)",
                hint=f"the rules are silent and the table decides: record its decision with --table-decides "
                f"({and_list(first_touch)})",
            )
        chain.append(
            Step(
                "B8",
                "every player is claiming, so there is no third player to judge; the rules are silent and the table decides",
            )
        )
        if table_decides:
            winner = _among(table_decides, first_touch, "--table-decides")
            chain.append(Step("", f"the table decided for {winner}; the decision is recorded"))  # no rule decides it
            return _claim_won(winner, chain, facts, outcome="table-decided")
        return DisputeResult(
            Dispute("claim"),
            Outcome("table-decides"),
            f"The rules are silent: every player claims, so the table must decide between {and_list(first_touch)}.",
            tuple(chain),
            facts,
            {"tied": first_touch},
            settled=False,  # the table has yet to decide
        )
    if table_decides:
        raise UnreadableInput(
            f"--table-decides {table_decides}: the table decides only when every player claims; "
            f"{and_list(judges)}, with no claim, judges this tie (B8)",
            hint=f"record the judgment with --judge-says ({and_list(first_touch)})",
        )
    if judge_says:
        winner = _among(judge_says, first_touch, "--judge-says")
        judge = and_list(judges)
        chain.append(Step("B8", f"{judge}, with no claim, judged the tie for {winner}; the judgment is recorded"))
        return _claim_won(winner, chain, facts, outcome="judged", extra={"judge": judges})
    chain.append(Step("B8", f"the tie goes to the judgment of {and_list(judges)}, who {'has' if len(judges) == 1 else 'have'} no claim"))
    return DisputeResult(
        Dispute("claim"),
        Outcome("judge-decides"),
        f"A true tie between {and_list(first_touch)}: {and_list(judges)} must judge it (record it with --judge-says).",
        tuple(chain),
        facts,
        {"tied": first_touch, "judge": judges},
        settled=False,  # the judge has yet to judge
    )


def _no_tie(judge_says: str | None, table_decides: str | None, because: str) -> None:
    """--judge-says and --table-decides record the end of a true tie: given where there is no
    tie, they would be ignored, so they are refused (exit 3)."""
    given = [f"{o} {v}" for o, v in (("--judge-says", judge_says), ("--table-decides", table_decides)) if v]
    if given:
        what = "judge or decide" if len(given) == 2 else "judge" if judge_says else "decide"
        raise UnreadableInput(
            f"{' and '.join(given)}: there is no tie to {what}: {because}",
            hint="leave it out; --judge-says and --table-decides only record who won a true tie (B8)",
        )


def _check_completed(completed: Order, full: list[str], c: dict[str, int], t: dict[str, int],
                     roster: Sequence[str]) -> None:
    """--completed must agree with the two orders: a player completes by calling and touching,
    so only a claimant can complete, and whoever called and touched no later than another
    completed no later (refused, exit 3, naming the facts that cannot all be true). It may
    name only some claimants: each pair it names must agree."""
    if not completed:
        return
    order = _rank(completed)
    strays = [p for p in roster if p in order and p not in full]
    if strays:
        why = "; ".join(
            f"{p} " + ("neither called nor touched" if p not in c and p not in t
                       else "called but did not touch" if p in c else "touched but did not call")
            for p in strays
        )
        raise UnreadableInput(
            f"--completed lists {and_list(strays)}, who {'has' if len(strays) == 1 else 'have'} no claim ({why}): "
            "only a player who both called and touched completes both",
            hint="list in --completed only the players who both called and touched",
        )
    for p in full:
        for q in full:
            # a player --completed leaves out is placed by the two orders alone (_completion_order)
            if p == q or p not in order or q not in order or c[p] > c[q] or t[p] > t[q]:
                continue
            # p called and touched no later than q: p completed no later than q
            if c[p] == c[q] and t[p] == t[q]:
                if order[p] != order[q]:
                    first, later = (p, q) if order[p] < order[q] else (q, p)
                    raise UnreadableInput(
                        f"--completed puts {first} before {later}, but --called and --touched say {p} and {q} "
                        "called at the same moment and touched at the same moment: they completed both together",
                        hint=f'write them together ("{p}={q}"), or leave --completed out',
                    )
            elif order[q] < order[p] or (order[q] == order[p] and c[p] < c[q] and t[p] < t[q]):
                # (called together, or touched together: they may have completed together)
                did = _did_first(p, q, c, t)
                said = (f"together with {p}, but by --called and --touched {did}: {p} completed both first"
                        if order[q] == order[p] else
                        f"before {p}, but by --called and --touched {did}: {q} cannot have completed both first")
                raise UnreadableInput(
                    f"--completed puts {q} {said}",
                    hint="a player completes by calling and touching: correct the orders, or leave --completed "
                    "out (it is needed only when the orders cross)",
                )


def _did_first(p: str, q: str, c: dict[str, int], t: dict[str, int]) -> str:
    """``Bill called and touched before Ben`` (or at the same moment for one of the two)."""
    if c[p] < c[q] and t[p] < t[q]:
        return f"{p} called and touched before {q}"
    if c[p] == c[q]:
        return f"{p} and {q} called at the same moment and {p} touched first"
    return f"{p} called first and {p} and {q} touched at the same moment"


def _among(name: str, tied: list[str], what: str) -> str:
    if name not in tied:
        raise UnreadableInput(f"{what}: {name} is not one of the tied claimants", hint=f"name one of {and_list(tied)}")
    return name


def _claim_won(winner: str, chain: list[Step], facts: Mapping[str, Any], outcome: str = "awarded", extra: Mapping[str, Any] | None = None) -> DisputeResult:
    return DisputeResult(Dispute.CLAIM, Outcome(outcome), f"{winner} wins the Rummy! card.", tuple(chain), facts, {"winner": winner, **(extra or {})})


def _completion_order(
    full: list[str], c: dict[str, int], t: dict[str, int], completed: Order
) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """What the facts tell of the order in which the claimants completed both actions:
    pairs (p, q) where p surely completed no later than q, and pairs where p surely
    completed first. A player who called and touched no later than another completed no
    later (first, if both were strictly earlier); --completed, which may name only some
    claimants, orders those it names; the rest follows by chaining the two."""
    order = _rank(completed)

    def stated(p: str, q: str) -> bool:
        return p in order and q in order

    no_later = {(p, q) for p in full for q in full
                if (c[p] <= c[q] and t[p] <= t[q]) or (stated(p, q) and order[p] <= order[q])}
    first = {(p, q) for p in full for q in full
             if (c[p] < c[q] and t[p] < t[q]) or (stated(p, q) and order[p] < order[q])}
    grown = True
    while grown:  # a handful of claimants: chain until nothing new follows
        grown = False
        for p in full:
            for k in full:
                if (p, k) not in no_later:
                    continue
                for q in full:
                    if (k, q) not in no_later:
                        continue
                    if (p, q) not in no_later:
                        no_later.add((p, q))
                        grown = True
                    if ((p, k) in first or (k, q) in first) and (p, q) not in first:
                        first.add((p, q))
                        grown = True
    return no_later, first


def _first_completers(
    full: list[str], c: dict[str, int], t: dict[str, int], completed: Order
) -> tuple[list[str], str | None, list[str]]:
    """The claimants who completed both actions first (several = at the same moment).

    The second value is set when the claimants called together and one touched first:
    that player wins whether he completed first (B8) or they completed together (B11).
    The third names the claimants who called with the first ones and touched after them:
    they may have completed with them, and the first touch decides between them."""
    no_later, first = _completion_order(full, c, t, completed)
    front = [p for p in full if not any((q, p) in first for q in full if q != p)]
    if len(front) == 1 or all((p, front[0]) in no_later and (front[0], p) in no_later for p in front):
        return front, None, []
    if all(c[p] == c[front[0]] for p in front):
        earliest = min(t[p] for p in front)
        first_touch = [p for p in front if t[p] == earliest]
        if len(first_touch) == 1:
            return front, first_touch[0], []
        # several touched first, together: they completed first together (B8), or every
        # claimant completed together and the first touch leaves the same players (B11)
        return first_touch, None, [p for p in front if p not in first_touch]
    given = _rank(completed)
    examples = _completed_examples(full, c, t, given)
    said = " or ".join(f'"{text}" ({note})' for text, note in examples)
    if completed:
        missing = [p for p in front if p not in given]
        raise UnreadableInput(
            f"--completed does not place {and_list(missing)}: the orders alone cannot tell who completed both "
            f"the call and the touch first among {and_list(front)}",
            hint=f"place {and_list(missing)} in --completed too"
            + (f", e.g. --completed {said}" if said else ", in the order the claimants completed both"),
        )
    raise UnreadableInput(
        f"cannot tell who completed both the call and the touch first among {and_list(front)}",
        hint=f"say it with --completed, e.g. --completed {said}",
    )


def _agrees(whole: dict[str, int], part: dict[str, int]) -> bool:
    """A full completion order keeps every pair a partial one states, as stated."""
    return all((whole[p] < whole[q]) == (part[p] < part[q]) and (whole[p] == whole[q]) == (part[p] == part[q])
               for p in part for q in part if p in whole and q in whole)


def _completed_examples(full: list[str], c: dict[str, int], t: dict[str, int],
                        given: dict[str, int]) -> list[tuple[str, str]]:
    """Up to two --completed orders of these claimants that the calls and touches allow, as
    typed, each with who it puts first: the order of the calls and the order of the touches
    (ties broken by the other; both always agree with the facts), else the first two places
    together, if the facts allow that too; only those that keep the pairs ``given`` (a
    --completed naming some claimants) orders."""
    def order_by(key: Callable[[str], tuple[int, int]]) -> Order:
        groups: dict[tuple[int, int], list[str]] = {}
        for p in sorted(full, key=key):
            groups.setdefault(key(p), []).append(p)
        return tuple(frozenset(g) for g in groups.values())

    candidates = [order_by(lambda p: (c[p], t[p])), order_by(lambda p: (t[p], c[p]))]
    if candidates[0] == candidates[1] and len(candidates[0]) > 1:
        candidates[1] = (candidates[0][0] | candidates[0][1], *candidates[0][2:])
    examples: list[tuple[str, str]] = []
    for order in dict.fromkeys(candidates):
        try:
            _check_completed(order, full, c, t, full)
        except UnreadableInput:
            continue
        if not _agrees(_rank(order), given):
            continue
        groups = _order_text(order, full)
        note = (f"{groups[0][0]} first" if len(groups[0]) == 1
                else f"{and_list(groups[0])} together" + (" first" if len(groups) > 1 else ""))
        examples.append((",".join("=".join(g) for g in groups), note))
    return examples


# -- B4 and B5 take only real melds (SPEC §8) ----------------------------------------------------


def check_table(table: Sequence[Sequence[Card]], ruleset: RuleSet) -> None:
    """Every dispute reads the table's melds the same way: each must be a valid meld (exit 3)."""
    for i, m in enumerate(table, 1):
        if not meld_options(list(m), ruleset.aces_high):
            raise UnreadableInput(
                f"table meld {i} ({format_cards(m)}) is not a valid meld",
                hint=f"a {ruleset.meld_word('run')} is 3+ cards in suit order, a {ruleset.meld_word('match')} 3+ cards "
                     "of one rank; give each meld with its own --table",
            )


# -- B5 / B6: run or match -------------------------------------------------------------------


def _value_in(meld: Meld, card: Card, ruleset: RuleSet, base: Sequence[Card] = ()) -> tuple[Card, int]:
    """The card the new card stands for in the meld, and its value there."""
    # the new card is the meld's only copy of a natural card; a WILDCARD in a run is the one at
    # the place the table meld ``base`` left free (below it or above it), in a match the one
    # the meld had to add (the last one)
    i = max(j for j, c in enumerate(meld.cards) if c == card)
    if card.is_wild and meld.kind is MeldKind.SEQUENCE:
        laid = _places(meld)
        for m in meld_options(list(base), ruleset.aces_high):
            if m.kind is MeldKind.SEQUENCE and not (_places(m) - laid):
                (_, pos), = (laid - _places(m)).elements()
                i = pos - meld.low
                break
    rep = meld.represents[i]
    assert rep is not None  # join_options never offers an all-WILDCARD meld
    return rep, card_values.in_meld(meld, ruleset)[i]


@dataclass(frozen=True)
class JoinOption:
    meld: tuple[Card, ...]  #: the table meld as given
    kind: str  #: "run" or "match"
    result: Meld  #: the meld with the card added
    stands_for: Card
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "meld": format_cards(self.meld),
            "kind": self.kind,
            "becomes": self.result.describe(),
            "stands_for": str(self.stands_for),
            "value": self.value,
        }


def _places(meld: Meld) -> Counter[tuple[Card, int]]:
    """Where each card of a run lies (its position: 1 an ace low, 14 an ace high)."""
    return Counter((c, meld.low + i) for i, c in enumerate(meld.cards))


def keeps_table(base: Sequence[Card], result: Meld, aces_high: bool) -> bool:
    """Does ``result`` leave every card of the table meld ``base`` where it was laid? A card
    another player laid is never moved: the table's AD at the low end of a run stays there (it
    does not become the ace high of the same run), nor is its WILDCARD seated elsewhere. A
    match has no places; a table meld that reads two ways keeps either."""
    if result.kind is not MeldKind.SEQUENCE:
        return True
    laid = _places(result)
    return any(not (_places(m) - laid) for m in meld_options(list(base), aces_high) if m.kind is MeldKind.SEQUENCE)


def join_options(card: Card, table: Sequence[Sequence[Card]], ruleset: RuleSet) -> list[JoinOption]:
    """Every table meld the card can join, and as what (runs first: B5's default); one entry per
    place, and none that moves a card of the table (:func:`keeps_table`)."""
    options: list[JoinOption] = []
    seen: set[tuple[tuple[Card, ...], str, Card, int]] = set()
    for meld_cards in table:
        # a WILDCARD may join a run at either end (W=AC below 2C 3C 4C): every place its ends
        # allow, the low end first, as score-hand accepts them said
        readings = [r for m in meld_options(list(meld_cards) + [card], ruleset.aces_high)
                    for r in (*(run_seats(m, ruleset.aces_high) if card.is_wild else ()), m)]
        for result in readings:
            if result.kind is MeldKind.WILD or not keeps_table(meld_cards, result, ruleset.aces_high):
                continue
            kind = "run" if result.kind is MeldKind.SEQUENCE else "match"
            rep, value = _value_in(result, card, ruleset, meld_cards)
            if (tuple(meld_cards), kind, rep, value) in seen:  # (an ace low and high: two places)
                continue
            seen.add((tuple(meld_cards), kind, rep, value))
            options.append(JoinOption(tuple(meld_cards), kind, result, rep, value))
    options.sort(key=lambda o: o.kind != "run")
    return options


def designate_ruling(card: Card, table: Sequence[Sequence[Card]], ruleset: RuleSet, designated: str | None = None) -> DisputeResult:
    """B5/B6: which melds the card may join, the default, what the choice changes."""
    check_rules(Dispute.DESIGNATE, ruleset)
    check_holders([("the card", [card]), ("the table", [c for m in table for c in m])], ruleset.wild_limit, None)
    check_table(table, ruleset)
    # the same facts however typed give the same ruling, word for word (a precedent compares
    # verdicts): each meld in its reading's order, the melds in the order of the facts' key
    table = sorted((tuple(meld_options(list(m), ruleset.aces_high)[0].cards) for m in table),
                   key=lambda m: format_cards(sorted(m, key=lambda c: c.sort_key())))
    options = join_options(card, table, ruleset)
    facts = {
        "card": str(card),
        "table": sorted(format_cards(sorted(m, key=lambda c: c.sort_key())) for m in table),
        "designated": designated,
        "ruleset": ruleset.name,
    }
    details: dict[str, Any] = {"options": [o.to_dict() for o in options]}
    chain: list[Step] = []
    kinds = {o.kind for o in options}
    w = ruleset.meld_word  # the rule set's own words for ref's "run" and "match" (kept as such in the JSON)
    if designated and designated not in kinds:
        raise RuleRefusal(
            f"{card} cannot count for a {w(designated)}: no {w(designated)} on the table takes it",
            rule="B5",
            hint=f"it can count for: {', '.join(sorted(w(k) for k in kinds))}" if kinds else "no meld on the table takes it",
        )
    if not options:
        chain.append(Step("B5", f"{card} joins no meld on the table, so there is nothing to designate"))
        return DisputeResult(Dispute("designate"), Outcome("no-meld"), f"{card} cannot be laid on any meld on the table.", tuple(chain), facts,
                             details, ruleset.name, settled=bool(table))
    listing = "; ".join(_joins(same, ruleset) for same in _by_meld(options))
    chain.append(Step("B5", f"{card} can join {listing}"))
    runs = [o for o in options if o.kind == "run"]
    if len(kinds) == 1:
        # where the score seats it, said nothing more: the meld this ruling names
        only = _score_reads(card, table, options, ruleset, designated) or options[0]
        if len({o.value for o in options}) > 1:  # B5 says run or match; which place is the player's
            return _player_says(card, options, chain, facts, details, ruleset, unsaid=only)
        if len({o.meld for o in options}) > 1:  # two melds of one kind: the player's word which
            chain.append(Step("B5", f"only a {w(only.kind)} takes it, and it is worth {_pts(only.value)} wherever "
                                    f"it goes: the place decides only which {w(only.kind)} grows"))
        else:
            chain.append(Step("B5", f"only a {w(only.kind)} takes it, so no designation is needed"))
        return DisputeResult(
            Dispute.DESIGNATE, Outcome.ONE_WAY, f"{card} counts for the {w(only.kind)} {format_cards(only.meld)}: {_pts(only.value)}.",
            tuple(chain), facts, details | {"counts_for": only.to_dict()}, ruleset.name,
        )
    # the run and the match named: where the score seats the card, as designated or not (B5:
    # not designated, it counts for a run)
    run = runs[0]
    match = next(o for o in options if o.kind == "match")
    if designated == "match":
        match = _score_reads(card, table, options, ruleset, "match") or match
    run = _score_reads(card, table, options, ruleset, designated and "run") or run
    chosen = run if designated in (None, "run") else match
    if chosen is run and len({o.value for o in runs}) > 1:  # the run it counts for: the player's word
        return _player_says(card, options, chain, facts, details, ruleset, "run", unsaid=run)
    if designated is None:
        chain.append(Step("B5", f"nothing was designated, so {card} counts for the {w('run')} {format_cards(run.meld)}"))
    else:
        chain.append(Step("B5", f"the player designated the {w(designated)}: {card} counts for {format_cards(chosen.meld)}"))
    run_values = sorted({o.value for o in runs})
    if len(run_values) > 1:
        in_runs = " or ".join(_pts(v) for v in run_values)
        chain.append(Step("B5", f"the choice changes the score: {in_runs} in a {w('run')}, {_pts(match.value)} in the "
                                f"{w('match')}"))
    elif run.value != match.value:
        chain.append(Step("B5", f"the choice changes the score: {_pts(run.value)} in the {w('run')}, {_pts(match.value)} "
                                f"in the {w('match')}"))
    else:
        chain.append(Step("B5", f"the value is the same either way ({_pts(run.value)}); the choice decides which meld grows"))
    # B6: laid sideways, the card cuts off the run ends it could have joined as the card it lies
    # as: a WILDCARD lies as the card it stands for in the match (W(=KC)^ on the kings cuts no
    # hearts run), and one standing for a card already on the table cuts nothing
    cut_runs = _distinct_places([o for o in runs if o.stands_for == match.stands_for
                                 and not (card.is_wild and any(match.stands_for in m for m in table))])
    end = _run_end(cut_runs[0]) if cut_runs else None
    if chosen is match and cut_runs:
        chain.append(Step("B6", f"laid on the {w('match')} it goes sideways: {_cut_off(cut_runs, ruleset)}, and "
                                "nothing more may be added there"))
    elif chosen is match:
        chain.append(Step("B6", f"laid on the {w('match')} it goes sideways as the {match.stands_for}: no {w('run')} "
                                f"on the table takes the {match.stands_for}, so no {w('run')} is cut off"))
    else:
        chain.append(Step("B6", f"not played on the {w('match')}, so nothing is laid sideways and the {w('run')} stays open"))
    details |= {"counts_for": chosen.to_dict(), "run_value": run.value, "match_value": match.value,
                "cuts_off": end if chosen is match else None}  # fmt: skip
    if chosen is match:
        details |= {"runs_cut_off": [{"run": format_cards(o.meld), "end": _run_end(o)} for o in cut_runs]}
    verdict = f"{card} counts for the {w(chosen.kind)} {format_cards(chosen.meld)}: {_pts(chosen.value)}"
    # one run cut off: the verdict as it always read (a precedent compares verdicts word for word)
    short = f"the {w('run')} is cut off at its {end} end" if len(cut_runs) == 1 else _cut_off(cut_runs, ruleset) if cut_runs else ""
    verdict += f"; {short} (B6)." if chosen is match and short else "."
    outcome = Outcome.RUN if chosen is run else Outcome.MATCH
    return DisputeResult(Dispute.DESIGNATE, outcome, verdict, tuple(chain), facts, details, ruleset.name)


def _score_reads(card: Card, table: Sequence[Sequence[Card]], options: Sequence[JoinOption], ruleset: RuleSet,
                 kind: str | None = None) -> JoinOption | None:
    """Where ``ref score-hand`` seats the card laid off on the table (``kind``: as the table
    said it, ``>run`` or ``>match``), asked of the scoring itself (one reading of the table,
    SPEC §7's fixed order: runs first, an ace low first, melds in suit order, the lower first);
    None where the rule set's kind of game has no such seating or the score refuses it."""
    if not has_seating(ruleset):
        return None
    found = seat(card, table, ruleset, kind)
    if found is None:
        return None
    meld = tuple(table[found.meld])
    said = "run" if found.result.kind is MeldKind.SEQUENCE else "match"
    for o in options:
        if o.meld == meld and o.kind == said and o.stands_for == found.stands_for and o.value == found.value:
            return o
    return JoinOption(meld, said, found.result, found.stands_for, found.value)


def _by_meld(options: Sequence[JoinOption]) -> list[list[JoinOption]]:
    """The options grouped by the table meld and kind they join, in order: one run is named once."""
    groups: dict[tuple[tuple[Card, ...], str], list[JoinOption]] = {}
    for o in options:
        groups.setdefault((o.meld, o.kind), []).append(o)
    return list(groups.values())


def _joins(same: Sequence[JoinOption], ruleset: RuleSet) -> str:
    """``the run 2D ... KD (as AD, 1 point at its low end; as AD, 15 points at its high end)``."""
    first = same[0]
    ways = "; ".join(f"as {o.stands_for}, {_pts(o.value)}" + (f" at its {_run_end(o)} end" if len(same) > 1 else "")
                     for o in same)
    return f"the {ruleset.meld_word(first.kind)} {format_cards(first.meld)} ({ways})"


def _distinct_places(runs: Sequence[JoinOption]) -> list[JoinOption]:
    """The runs a card could join, one per run and end (two readings of one place are one)."""
    seen: dict[tuple[tuple[Card, ...], str], JoinOption] = {}
    for o in runs:
        seen.setdefault((o.meld, _run_end(o)), o)
    return list(seen.values())


def _cut_off(runs: Sequence[JoinOption], ruleset: RuleSet) -> str:
    """B6's words for every run end a card laid sideways closes: ``the run 2D 3D 4D is cut off
    at its low end`` (each run the card could have joined, at the end where it would have)."""
    places, run = _distinct_places(runs), ruleset.meld_word("run")
    first, *more = places
    return and_list([f"the {run} {format_cards(first.meld)} is cut off at its {_run_end(first)} end"]
                    + [f"the {run} {format_cards(o.meld)} at its {_run_end(o)} end" for o in more])


def _player_says(card: Card, options: Sequence[JoinOption], chain: list[Step], facts: Mapping[str, Any],
                 details: dict[str, Any], ruleset: RuleSet, kind: str | None = None,
                 unsaid: JoinOption | None = None) -> DisputeResult:
    """A card that fits more than one place of the kind it counts for, at different values (an
    ace at the low end of one run, the high end of another): B5 lets the player say run or
    match, and where it goes is the player's word too; nothing said, the score takes the first
    place in ref's fixed order (SPEC §7): ``unsaid``, where the score seats it, which the
    ruling names."""
    places = [o for o in options if kind is None or o.kind == kind]
    kind = places[0].kind
    ways = "; ".join(f"{_pts(o.value)} {_place(o, ruleset)}" for o in places)
    first = unsaid or places[0]
    chain.append(Step("B5", f"it fits more than one {ruleset.meld_word(kind)} place, at different values: {ways}; "
                            "where it goes is the player's word"))
    chain.append(Step("B5", f"if the player says nothing, ref's score reads it as the engine does: "
                            f"{_place(first, ruleset)}, {_pts(first.value)}"))
    verdict = (f"{card} can count {_pts(min(o.value for o in places))} or {_pts(max(o.value for o in places))}: "
               f"the player says which {ruleset.meld_word(kind)} it joins ({ways}).")
    details |= {"counts_for": None, "places": [o.to_dict() for o in places], "unsaid": first.to_dict()}
    return DisputeResult(Dispute.DESIGNATE, Outcome.PLAYER_SAYS, verdict, tuple(chain), facts, details,
                         ruleset.name, settled=False)


def _place(o: JoinOption, ruleset: RuleSet) -> str:
    if o.kind == "run":
        return f"at the {_run_end(o)} end of {format_cards(o.meld)}"
    return f"in the {ruleset.meld_word('match')} {format_cards(o.meld)}"


def _pts(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _run_end(option: JoinOption) -> str:
    """Where the new card sits in the run: the low or the high end."""
    rank = option.stands_for.rank
    pos = 0 if rank is None else int(rank)
    if pos == 1 and option.result.ace_high:
        pos = HIGH_ACE
    return "low" if pos == option.result.low else "high"


# -- B4: a pick-up from the Rummy Line -----------------------------------------------------------

MAX_HAND_CARDS_TRIED = 12  #: relevant hand cards tried in combination (2^12 subsets)
MAX_OPTIONS = 40


@dataclass(frozen=True)
class PickupUse:
    how: str  #: "new meld" or "lay off"
    meld: Meld
    from_hand: tuple[Card, ...]
    on: tuple[Card, ...] = ()  #: the table meld laid off on
    value: int = 0  #: points of the taken card and hand cards put down

    def to_dict(self) -> dict[str, Any]:
        return {
            "how": self.how,
            "meld": self.meld.describe(),
            "from_hand": format_cards(self.from_hand),
            "on": format_cards(self.on) if self.on else None,
            "value": self.value,
        }

    def describe(self) -> str:
        if self.how == "lay off":
            return f"lay it off with {format_cards(self.from_hand)} on {format_cards(self.on)} -> {self.meld.describe()}"
        return f"new meld with {format_cards(self.from_hand)} -> {self.meld.describe()}"


def _relevant(card: Card, hand: Sequence[Card], base: Sequence[Card]) -> list[Card]:
    """Hand cards that could possibly share a meld with the card (and the base meld)."""
    naturals = [c for c in [card, *base] if not c.is_wild]
    if not naturals:
        return list(hand)
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    return [c for c in hand if c.is_wild or c.rank in ranks or (len(suits) == 1 and c.suit in suits)]


def _points(cards: Iterable[Card], meld: Meld, ruleset: RuleSet) -> int:
    """The value in ``meld`` of ``cards`` (the taken card and the hand cards put down)."""
    total = 0
    wanted = list(cards)
    for c, value in zip(meld.cards, card_values.in_meld(meld, ruleset)):
        if c in wanted:
            wanted.remove(c)
            total += value
    return total


def _touches_hand(card: Card, combo: Sequence[Card], meld: Meld) -> bool:
    """Is the card taken laid next to a card of the hand in this run, with no table card between
    them (B4: used *with* a hand card)? A hand card at the other end of the run is laid off on
    its own; the card taken would be played by itself. (A WILDCARD of the hand may be any W.)"""
    hand_at = {i for i, c in enumerate(meld.cards) if c in combo}
    return any(i - 1 in hand_at or i + 1 in hand_at for i, c in enumerate(meld.cards) if c == card)


def pickup_uses(card: Card, hand: Sequence[Card], table: Sequence[Sequence[Card]], ruleset: RuleSet,
                apart: list[PickupUse] | None = None) -> tuple[list[PickupUse], bool]:
    """Every legal use of the taken card with >= 1 hand card; and whether the search was capped.

    A run laid off on must hold the card taken next to a hand card (:func:`_touches_hand`); the
    readings refused for that alone are added to ``apart``, when given."""
    uses: list[PickupUse] = []
    capped = False
    seen: set[tuple[str, tuple[Card, ...], tuple[Card, ...], int]] = set()
    bases: list[tuple[str, tuple[Card, ...]]] = [("new meld", ())] + [("lay off", tuple(m)) for m in table]
    for how, base in bases:
        pool = _relevant(card, hand, base)
        if len(pool) > MAX_HAND_CARDS_TRIED:
            pool, capped = pool[:MAX_HAND_CARDS_TRIED], True
        smallest = 2 if how == "new meld" else 1
        for size in range(smallest, len(pool) + 1):
            for combo in itertools.combinations(pool, size):
                cards = [*base, card, *combo]
                if len(cards) > 13 + sum(c.is_wild for c in cards):
                    continue
                # one use per value: the same cards read another way for other points (an ace
                # at the high end of a run, not the low) is another use
                from_hand = tuple(sorted(combo, key=Card.sort_key))
                for meld in meld_options(cards, ruleset.aces_high):
                    if base and not keeps_table(base, meld, ruleset.aces_high):
                        continue  # a card another player laid is not moved
                    if base and meld.kind is MeldKind.SEQUENCE and not _touches_hand(card, combo, meld):
                        # a WILDCARD of the hand may be seated next to the card instead (one the
                        # table holds stays where it was laid)
                        seated = [] if any(c.is_wild for c in base) else [
                            m for m in run_seats(meld, ruleset.aces_high) if _touches_hand(card, combo, m)]
                        if not seated:
                            if apart is not None:
                                apart.append(PickupUse(how, meld, from_hand, base, _points([card, *combo], meld, ruleset)))
                            continue
                        meld = seated[0]
                    value = _points([card, *combo], meld, ruleset)
                    use = PickupUse(how, meld, from_hand, base, value)
                    key = (how, base, from_hand, value)
                    if key in seen:
                        continue
                    seen.add(key)
                    uses.append(use)
    uses.sort(key=lambda u: (-u.value, -len(u.from_hand), u.how != "new meld"))
    return uses, capped


def pickup_ruling(card: Card, hand: Sequence[Card], table: Sequence[Sequence[Card]], ruleset: RuleSet) -> DisputeResult:
    """B4: may the card taken from the Rummy Line be used with the taker's own cards?"""
    check_rules(Dispute.PICKUP, ruleset)
    check_holders([("the card taken", [card]), ("the hand", hand), ("the table", [c for m in table for c in m])],
                  ruleset.wild_limit, None)
    check_table(table, ruleset)
    apart: list[PickupUse] = []
    uses, capped = pickup_uses(card, hand, table, ruleset, apart)
    facts = {
        "card": str(card),
        "hand": format_cards(sorted(hand, key=Card.sort_key)),
        "table": sorted(format_cards(sorted(m, key=Card.sort_key)) for m in table),
        "ruleset": ruleset.name,
    }
    chain: list[Step] = []
    details: dict[str, Any] = {"uses": [u.to_dict() for u in uses[:MAX_OPTIONS]], "uses_found": len(uses), "capped": capped}
    if uses:
        best = uses[0]
        chain.append(Step("B4", f"{card} can be put down together with {format_cards(best.from_hand)} from the hand: {best.describe()}"))
        if len(uses) > 1:
            chain.append(Step("B4", f"{len(uses)} legal uses in all; best first by points put down"))
        if capped:
            chain.append(Step("B4", f"only the first {MAX_HAND_CARDS_TRIED} relevant hand cards were tried in "
                                    "combination: a better use with more of them is not ruled out"))
        return DisputeResult(Dispute("pickup"), Outcome("legal"), f"Legal: {card} can be used with the taker's own cards ({best.describe()}).", tuple(chain), facts, details, ruleset.name)
    alone = [tuple(m) for m in table
             if any(keeps_table(m, r, ruleset.aces_high) for r in meld_options([*m, card], ruleset.aces_high))]
    chain.append(Step("B4", f"no meld holds {card} together with at least one card of the hand"))
    if alone:
        chain.append(
            Step("B4", f"{card} could be laid on {format_cards(alone[0])} by itself, but a card taken from the Rummy Line may not be played alone")
        )
    if apart:
        other = min(apart, key=lambda u: (len(u.from_hand), format_cards(u.on)))
        chain.append(
            Step("B4", f"{format_cards(other.from_hand)} could be laid on {format_cards(other.on)} too, but not next "
                       f"to {card}: a card of the hand laid apart from it in the run does not use it")
        )
    if capped:
        chain.append(Step("B4", f"only the first {MAX_HAND_CARDS_TRIED} relevant hand cards were tried in combination"))
    return DisputeResult(Dispute("pickup"), Outcome("illegal"), f"Not legal: {card} cannot be used with any card of the taker's hand.", tuple(chain), facts, details, ruleset.name)


# -- B3: the last discard ------------------------------------------------------------------------


def check_discard_deck(took: Card | None, discarded: Card | None, table: Sequence[Sequence[Card]],
                       ruleset: RuleSet) -> None:
    """One deck across the facts of a discard, as the other disputes check theirs (exit 3): the
    card discarded is not on the table, no card is on the table twice, and no more WILDCARDs
    than the rule set's limit. The card taken may be on the table (B4: it is used at once) but
    is one card: taken and discarded, it was thrown straight back (B3's own question)."""
    on_table = [c for m in table for c in m]
    held = [discarded] if discarded is not None else []
    if took is not None and took != discarded and took not in on_table:
        held.append(took)  # still in the hand: it counts only towards the WILDCARDs
    check_deck(on_table, len(on_table), "in the table")  # twice on the table: said as the other disputes
    where = " and ".join(what for what, there in (("the discard", discarded), ("the table", table)) if there)
    check_deck([*held, *on_table], ruleset.wild_limit, where)


def discard_ruling(
    took: Card | None,
    discarded: Card | None,
    going_out: bool = False,
    table: Sequence[Sequence[Card]] = (),
    ruleset: RuleSet | None = None,
) -> DisputeResult:
    """B3 (and B4): may the turn, and the game, end with this discard?"""
    ruleset = ruleset or load_ruleset("rummy-2m")
    check_rules(Dispute.DISCARD, ruleset)
    check_discard_deck(took, discarded, table, ruleset)
    check_table(table, ruleset)
    facts = {
        "took": str(took) if took else None,
        "discarded": str(discarded) if discarded else None,
        "going_out": going_out,
        "table": sorted(format_cards(sorted(m, key=Card.sort_key)) for m in table),
    }
    chain: list[Step] = []
    if discarded is None:
        chain.append(Step("B3", "a turn ends only with a discard, even when every card in the hand could be melded"))
        # with no fact of a turn given, the rule was asked, not a turn ruled on: not kept by default
        asked = took is None and not going_out and not table
        return DisputeResult(Dispute("discard"), Outcome("illegal"), "Not allowed: the turn cannot end without a discard.", tuple(chain), facts, ruleset=ruleset.name, settled=not asked)
    if took is not None and took == discarded:
        if took.is_wild and ruleset.wild_limit > 1:  # two WILDCARDs are two cards: which one was thrown?
            return _same_wildcard(discard_ruling(took, discarded, going_out, table, replace(ruleset, wild_max=1)),
                                  ruleset.wild_limit)
        if going_out:
            chain.append(Step("B3", f"{took} was taken from the top of the Rummy Line and thrown straight back to end the game: not allowed"))
            return DisputeResult(Dispute("discard"), Outcome("illegal"), f"Not allowed: {took} may not be taken from the Rummy Line and discarded straight back to go out.", tuple(chain), facts, ruleset=ruleset.name)
        chain.append(Step("B4", f"{took} was taken from the Rummy Line, so it must be used with a card of the hand; discarding it straight back does not use it"))
        return DisputeResult(Dispute("discard"), Outcome("illegal"), f"Not allowed: {took}, taken from the Rummy Line, must be used, not discarded straight back.", tuple(chain), facts, ruleset=ruleset.name)
    if took is not None:
        chain.append(Step("B3", f"{took} was taken and a different card, {discarded}, is discarded: that is fine"))
    playable = _rummy_card_on(discarded, table, ruleset)
    details: dict[str, Any] = {}
    if playable and going_out:
        where = format_cards(playable[0])
        details["rummy_card_on"] = where
        chain.append(Step("B3", f"{discarded} could be played on {where}: it is a Rummy! card, and a Rummy! card "
                                "cannot be the discard that ends the hand"))
        chain.append(Step("B3", "it is discarded all the same, the turn ends, the hand goes on, and the player waits "
                                "for a card that can be discarded"))
        chain.append(Step("B8", f"meanwhile any player may claim {discarded} by calling \"Rummy!\" and touching it (B8, B11)"))
        verdict = (f"Not allowed to go out: {discarded} is a Rummy! card. Discard it, the hand goes on, "
                   "and wait for a card that can be discarded (B3).")
        return DisputeResult(Dispute("discard"), Outcome("illegal"), verdict, tuple(chain), facts, details, ruleset.name)
    chain.append(Step("B3", "the discard ends the turn" + (" and, as the last card, the hand" if going_out else "")))
    if playable:
        where = format_cards(playable[0])
        details["rummy_card_on"] = where
        chain.append(
            Step("B3", f"{discarded} could be played on {where}: it is a Rummy! card, and it must still be discarded, not held back")
        )
        chain.append(Step("B8", f"any player may claim {discarded} by calling \"Rummy!\" and touching it (B8, B11)"))
    verdict = f"Allowed: discarding {discarded} ends the turn" + (" and the hand." if going_out else ".")
    return DisputeResult(Dispute("discard"), Outcome("allowed"), verdict, tuple(chain), facts, details, ruleset.name)


def _rummy_card_on(card: Card, table: Sequence[Sequence[Card]], ruleset: RuleSet) -> list[tuple[Card, ...]]:
    """The table meld the card could be played on (B3: a Rummy! card), read as the score reads
    the table: only where ``ref score-hand`` would seat the card laid off there. The WILDCARDs
    of a meld as first laid keep it in one piece: a 9D cannot be played on 8D W 10D."""
    if has_seating(ruleset):
        found = seat(card, table, ruleset)
        return [] if found is None else [tuple(table[found.meld])]
    return [tuple(m) for m in table if any(keeps_table(m, r, ruleset.aces_high)
                                           for r in meld_options([*m, card], ruleset.aces_high))]


def _same_wildcard(same: DisputeResult, wildcards: int) -> DisputeResult:
    """``--took W --discarded W`` in a deck of several WILDCARDs: the facts do not say whether
    the WILDCARD discarded is the one taken. The ruling is the one for the same card, said as
    such, and settles nothing (another WILDCARD from the hand is another card: asked again with
    the facts of that discard, ``--took`` the card taken, it may be allowed)."""
    step = Step("B3", f"this deck holds {wildcards} WILDCARDs, and the facts do not say whether the W discarded is "
                      "the one taken: this ruling is for the same card; another W from the hand is a different card")
    verdict = f"If it is the same WILDCARD: {same.verdict[0].lower()}{same.verdict[1:]}"
    return replace(same, verdict=verdict, chain=(*same.chain, step), settled=False)


# -- A4: ending the night -----------------------------------------------------------------------


def end_night_ruling(
    roster: Sequence[str], hands_in_session: int, game_over: bool, first_dealer: str | None = None,
    ruleset: RuleSet | None = None, log: Sequence[tuple[str, str]] | None = None,
) -> DisputeResult:
    """May the session end now, or who still has to deal this round (in deal order)?

    Answered as ``ref end-session`` acts for the rule set's kind of game: a kind whose sessions
    end only after full rounds (Rummy 2,000,000: A4, with A7 the exception) refuses mid-round;
    any other (Simple Rummy, Gin, 500 Rum) may end after any hand. ``log``: the open session's
    hands and voids as recorded (from the record): who still has to deal is then worked out as
    ``end-session`` does, a voided hand's dealer dealing again (SPEC §8)."""
    from rummyref.games.base import deals_to_come
    from rummyref.games.registry import kind_for

    ruleset = ruleset or load_ruleset("rummy-2m")
    kind = kind_for(ruleset)
    roster = list(roster)
    _check_night_facts(roster, first_dealer, ruleset, kind.keeps_deal_order(ruleset), kind.full_rounds(ruleset))
    if hands_in_session < 0:
        raise UnreadableInput(f"hands in the session: {hands_in_session} is negative")
    start = roster.index(player_names.at_table(first_dealer, roster, "--first-dealer")) if first_dealer else 0
    # a game that keeps no deal order (Gin, G15) has no first dealer among its facts
    dealer = roster[start] if roster and kind.keeps_deal_order(ruleset) else None
    facts = {"roster": roster, "hands_in_session": hands_in_session, "game_over": game_over, "first_dealer": dealer,
             "ruleset": ruleset.name}  # fmt: skip
    session, a3, a4, a7 = ruleset.session_short, ruleset.cite("A3"), ruleset.cite("A4"), ruleset.cite("A7")
    chain: list[Step] = []

    def result(outcome: Outcome, verdict: str, details: Mapping[str, Any] | None = None) -> DisputeResult:
        return DisputeResult(Dispute.END_NIGHT, outcome, verdict, tuple(chain), facts, dict(details or {}), ruleset.name,
                             settled=False)  # "can we stop?" is a question answered  # fmt: skip

    if not kind.full_rounds(ruleset):
        word = kind.hand_word(ruleset)
        chain.append(Step("", f"no rule of {ruleset.title} asks for full rounds (that is Rummy 2,000,000's A4): "
                              f"ref end-session closes the {session} after any {word}"))  # fmt: skip
        return result(Outcome.ALLOWED, f"Allowed: {ruleset.title} has no full-round rule; the {session} may end "
                                       f"after any {word}.", {"full_rounds": False})  # fmt: skip
    if game_over:
        chain.append(Step(a7 or "", f"the game is over, so the {session} may end at once"))
        return result(Outcome.ALLOWED, f"Allowed: the game is over{f' ({a7})' if a7 else ''}, the {session} may end now.")
    if log is not None and any(step == "void" for step, _ in log):  # else the count says it all
        state = kind.session_deal(roster, log)
        # the facts this ruling rests on: the hands in force each player dealt and the deals
        # owed, not the hands dealt (a precedent's facts give the same verdict every time)
        facts.update(hands_in_session=sum(k for _, k in state.dealt),
                     dealt={p: k for p, k in state.dealt}, owed=list(state.owed))
        if not state.still_to_deal:
            said = ("no hand counts tonight: the night may close as abandoned" if state.abandoned else
                    f"{state.rounds} full round{'s' if state.rounds != 1 else ''} played")
            chain.append(Step(a4 or "", f"{said}: every player has dealt the same number of hands in force"))
            return result(Outcome.ALLOWED, f"Allowed: {said}.", {"rounds": state.rounds})
        still = list(state.still_to_deal)
        owed = f" (a voided hand is dealt again: {', '.join(state.owed)})" if state.owed else ""
        chain.append(Step(a3 or "", f"hands in force dealt: {', '.join(f'{p} {k}' for p, k in state.dealt)}{owed}"))
        chain.append(Step(a4 or "", f"the round is not finished: {deals_to_come(still)} still "
                                    f"{'has' if len(set(still)) == 1 else 'have'} to deal"))
        # joined in prose, as every list of names (a precedent kept before reads the same: precedents.py)
        return result(Outcome.REFUSED, f"Refused{f' ({a4})' if a4 else ''}: the round is not over; still to deal: "
                                       f"{deals_to_come(still)}.",
                      {"still_to_deal": still, "next_dealer": still[0], "rounds": state.rounds})  # fmt: skip
    n = len(roster)
    rounds, done = divmod(hands_in_session, n)
    if done == 0:
        said = "no hand has been played yet" if hands_in_session == 0 else f"{rounds} full round{'s' if rounds != 1 else ''} played"
        chain.append(Step(a4 or "", f"{said}: every player has dealt the same number of hands"))
        return result(Outcome.ALLOWED, f"Allowed: {said}.", {"rounds": rounds})
    still = [roster[(start + i) % n] for i in range(done, n)]
    chain.append(Step(a3 or "", f"deal order {', '.join(roster[start:] + roster[:start])}: {done} of {n} hands of this round dealt"))
    chain.append(Step(a4 or "", f"the round is not finished: {and_list(still)} still {'has' if len(still) == 1 else 'have'} to deal"))
    return result(Outcome.REFUSED, f"Refused{f' ({a4})' if a4 else ''}: the round is not over; still to deal: {and_list(still)}.",
                  {"still_to_deal": still, "next_dealer": still[0], "rounds": rounds})  # fmt: skip


def _check_night_facts(roster: list[str], first_dealer: str | None, ruleset: RuleSet, deal_order: bool,
                       full_rounds: bool) -> None:
    """The facts of a table the rule set can have, as ``ref new-session`` checks them (exit 3):
    a ``--first-dealer`` only where the game keeps a deal order (not Gin, G15); as many
    players as the rule set takes (Gin two, G1; Simple Rummy 2 to 10, S1; Rummy 2,000,000 2
    to 8). No players at all (none given, and the rule set names no default players) is
    refused only where the answer needs them: full rounds (A4) are counted in players."""
    title, low, high = ruleset.title, ruleset.players_min, ruleset.players_max
    if first_dealer and not deal_order:
        raise UnreadableInput(f"--first-dealer: not for {title}",
                              hint=f"{title} keeps no deal order: leave --first-dealer out")
    if not roster:
        if full_rounds:
            raise UnreadableInput(f"no players: {title} ({ruleset.name}) names no default players, and its "
                                  f"{ruleset.session_short} ends only after full rounds",
                                  hint="give the players in deal order: --players A,B,C")
        return
    if not low <= len(roster) <= high:
        takes = f"{low}" if low == high else f"{low} to {high}"
        raise UnreadableInput(f"--players: {title} is for {takes} players, not {len(roster)}",
                              hint=f"name {takes} players in deal order" if deal_order else f"name {takes} players")


# -- text helpers for the CLI ---------------------------------------------------------------------


def read_card(text: str, what: str) -> Card:
    """The one card of ``what`` (``CARD``, ``--took``...): an unreadable card is named "in
    ``what``", as score-hand names whose cards it is in."""
    cards = read_cards_of(text, f"in {what}")
    if len(cards) != 1:
        raise UnreadableInput(f"{what}: expected one card, got {len(cards)} ({text!r})", hint="e.g. 3D, 10h, ♠A or W")
    return cards[0]


def read_table(texts: Sequence[str]) -> list[list[Card]]:
    """Each text is one meld, or several separated by / or |. A meld with no card (``"/"``,
    ``"7S 8S 9S /"``) is refused (exit 3), naming ``--table`` and the column of its separator."""
    melds: list[list[Card]] = []
    for n, text in enumerate(texts, 1):
        check_groups(text, "--table", "meld")
        where = f"in --table {n}" if len(texts) > 1 else "in --table"  # which of several
        try:
            melds.extend(g for g in parse_melds(text) if g)
        except UnreadableCard as exc:
            raise UnreadableCard(exc.token, exc.position, exc.column, exc.hint or "", where) from None
    return melds


def check_groups(text: str, what: str, group: str) -> None:
    """Refuse a text of cards with an empty group: no card at all (``--hand ",,"``), or no card
    between two of its / or | separators, or before or after one (exit 3, naming the column)."""
    seps = [m.start() for m in re.finditer(r"[/|]", text)]
    bounds = [-1, *seps, len(text)]
    for a, b in itertools.pairwise(bounds):
        if re.search(r"[^\s,]", text[a + 1: b]):
            continue
        if not seps:
            raise UnreadableInput(f"{what} {text!r}: no card in it", hint=f"give the cards of the {group}, e.g. 7S 8S 9S")
        where = (f"before the {text[b]!r} at column {b + 1}" if b < len(text) else
                 f"after the {text[a]!r} at column {a + 1}")
        raise UnreadableInput(f"{what} {text!r}: no card {where}",
                              hint=f"give each {group}'s cards; separate {group}s with / (or repeat {what})")


__all__ = [
    "DisputeResult", "Step", "claim_ruling", "designate_ruling", "pickup_ruling", "discard_ruling",
    "end_night_ruling", "parse_order", "read_card", "read_table", "join_options", "pickup_uses", "parse_card",
    "check_table", "check_rules", "check_discard_deck", "RULES", "check_order", "check_groups",
]  # fmt: skip
