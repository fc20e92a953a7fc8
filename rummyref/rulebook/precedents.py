"""Precedents: disputes settled during a session (a Rummy Night), as the record keeps them (the
pure part).

A ruling is kept as an entry of kind ``ruling`` in the game's hash-chained log. Its facts are
the dispute's ``to_dict()`` (which carries its ``key``) plus ``at``: where the table was when
it was ruled (the night, the hand in progress = the next hand to be recorded, and that hand's
number within the night). A ruling entry carries no hand number of its own, no results and
no points: it never changes a total or the count of hands. Where it was is said in the words
of the game's rule set (Rummy 2,000,000: night and hand; Simple Rummy: session and game).

Nothing here reads or writes a database.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummyref.rules.ruleset import RuleSet

KIND = "ruling"  #: the entry kind in the log
_ENDS_CITING = re.compile(r"\s*\(([A-Z]\d{1,2}(?:, [A-Z]\d{1,2})*)\)$")  #: "... (B3)", "... (B5, B6)"
#: end-night's refusal before stop 46, its names joined by commas ("still to deal: Ben, Larry.")
_STILL_TO_DEAL = re.compile(r"^(Refused(?: \([A-Z]\d{1,2}\))?: the round is not over; still to deal: )(.+, .+)\.$")


def ruling_facts(ruling: Mapping[str, Any], night: int, hand: int, hand_in_night: int) -> dict[str, Any]:
    """The facts of a ruling entry: the dispute's ``to_dict()`` and where the table was."""
    if "key" not in ruling:
        raise ValueError("a ruling to record needs its key")
    return {**dict(ruling), "at": {"night": night, "hand": hand, "hand_in_night": hand_in_night}}


#: what a ruling before stop 45 cited for the table's own decision (no rule: the step now cites none)
NO_RULE_CITED = "table"


@dataclass(frozen=True)
class Precedent:
    """A ruling kept in the record."""

    game: str
    entry: int  #: its place in the game's log (seq)
    when: str  #: ISO time it was recorded
    night: int | None
    hand: int | None  #: the game's hand in progress (the next hand to be recorded)
    hand_in_night: int | None
    ruling: Mapping[str, Any]  #: the dispute's to_dict()
    session_word: str = "session"  #: the game's word for a sitting, in a sentence ("night")
    hand_word: str = "hand"  #: the game's word for one recorded unit (Simple Rummy: "game")

    @property
    def kind(self) -> str:
        return str(self.ruling.get("kind", "?"))

    @property
    def key(self) -> str:
        return str(self.ruling.get("key", ""))

    @property
    def outcome(self) -> str:
        return str(self.ruling.get("outcome", ""))

    @property
    def verdict(self) -> str:
        """As ruled, in today's words: an end-night refusal kept before stop 46 names who still
        deals in prose, as it is ruled now ("Ben and Larry", not "Ben, Larry"), so that the same
        ruling is not flagged as ruled differently."""
        verdict = str(self.ruling.get("verdict", ""))
        old = _STILL_TO_DEAL.match(verdict) if self.kind == "end-night" and " and " not in verdict else None
        if old:
            from rummyref.errors import and_list

            return f"{old.group(1)}{and_list(old.group(2).split(', '))}."
        return verdict

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules cited. A table's decision, which no rule makes, was cited as "table" before
        stop 45; such a precedent reads as one citing the rules alone."""
        return tuple(r for r in self.ruling.get("rules", ()) if r and r != NO_RULE_CITED)

    @property
    def summary(self) -> str:
        return facts_summary(self.kind, self.ruling.get("facts", {}), self.session_word, self.hand_word)

    def where(self) -> str:
        """``night 3, hand 7 (2nd of the night)``; in Simple Rummy ``session 1, game 2 (2nd of
        the session)``."""
        night, hand = self.session_word, self.hand_word
        parts = [f"{night} {self.night}" if self.night is not None else f"no {night}"]
        if self.hand is not None:
            parts.append(f"{hand} {self.hand}" + (f" ({_ordinal(self.hand_in_night)} of the {night})" if self.hand_in_night else ""))
        return ", ".join(parts)

    def cited(self) -> str:
        """The verdict and the rules that decided it, each rule cited once: ``Ben wins the Rummy!
        card (B8, B11)``. A verdict that ends by citing a rule itself ("... discarded (B3).")
        has that citation merged into the ruling's: ``... discarded (B3, B8)``."""
        verdict, rules = self.verdict.rstrip("."), list(self.rules)
        own = _ENDS_CITING.search(verdict)
        if own:
            verdict = verdict[: own.start()]
            rules += [r for r in own.group(1).split(", ") if r not in rules]
        return f"{verdict} ({', '.join(rules)})" if rules else verdict

    def line(self, game: str | None = None) -> str:
        """``night 3, hand 7 (1st of the night): Ben wins the Rummy! card (B8, B11)``."""
        from rummyref.names import shown

        other = f"game {shown(self.game)}, " if game is not None and game != self.game else ""
        return f"{other}{self.where()}: {self.cited()}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "entry": self.entry,
            "when": self.when,
            "night": self.night,
            "hand": self.hand,
            "hand_in_night": self.hand_in_night,
            "kind": self.kind,
            "outcome": self.outcome,
            "verdict": self.verdict,
            "rules": list(self.rules),
            "summary": self.summary,
            "key": self.key,
            "ruling": dict(self.ruling),
        }


def precedent_from(game: str, seq: int, created_at: str, night: int | None, facts: Mapping[str, Any],
                   ruleset: RuleSet) -> Precedent:
    """A ruling entry's facts back into a :class:`Precedent`, told in the words of ``ruleset``
    (the rule set kept with its game, whichever rule set ruled)."""
    at = facts.get("at") or {}
    ruling = {k: v for k, v in facts.items() if k != "at"}
    return Precedent(game, seq, created_at, at.get("night", night), at.get("hand"), at.get("hand_in_night"), ruling,
                     ruleset.session_short, ruleset.hand_word)


def local_time(stamp: str) -> str:
    """``2026-11-29 21:40`` in the local time zone (the record keeps UTC)."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# -- a one-line summary of a dispute's facts ------------------------------------------------------


def _order(order: Any) -> str:
    return ", ".join("=".join(group) for group in order or ()) or "nobody"


def _table(table: Any) -> str:
    return " / ".join(table) if table else "nothing"


def facts_summary(kind: str, facts: Mapping[str, Any], session_word: str = "session", hand_word: str = "hand") -> str:
    """What the table said, in one line (for ``ref rulings``), in the game's words."""
    if kind == "claim":
        parts = [f"called {_order(facts.get('called'))}", f"touched {_order(facts.get('touched'))}"]
        if facts.get("completed"):
            parts.append(f"completed {_order(facts['completed'])}")
        if facts.get("judge_says"):
            parts.append(f"judge says {facts['judge_says']}")
        if facts.get("table_decides"):
            parts.append(f"table decides {facts['table_decides']}")
        return "; ".join(parts)
    if kind == "designate":
        said = f"designated {facts['designated']}" if facts.get("designated") else "nothing designated"
        return f"{facts.get('card')} with {_table(facts.get('table'))} on the table; {said}"
    if kind == "pickup":
        on_table = f"; table {_table(facts.get('table'))}" if facts.get("table") else ""
        return f"took {facts.get('card')}; hand {facts.get('hand') or '-'}{on_table}"
    if kind == "discard":
        parts = [f"took {facts['took']}" if facts.get("took") else "took nothing from the Rummy Line",
                 f"discarded {facts['discarded']}" if facts.get("discarded") else "no discard"]  # fmt: skip
        if facts.get("going_out"):
            parts.append("going out")
        if facts.get("table"):
            parts.append(f"table {_table(facts['table'])}")
        return "; ".join(parts)
    if kind == "end-night":
        n = facts.get("hands_in_session")
        when = "tonight" if session_word == "night" else f"this {session_word}"
        in_force = " in force" if "dealt" in facts else ""
        roster = ", ".join(facts.get("roster") or ())
        # a game that keeps no deal order (Gin, G15) has no first dealer: its players are named
        no_order = "first_dealer" in facts and facts["first_dealer"] is None
        who = f", players {roster}" if no_order and roster else "" if no_order else f", deal order {roster}"
        text = f"{n} {hand_word}{'s' if n != 1 else ''}{in_force} {when}{who}"
        if facts.get("owed"):  # read from the record after a void: the deals owed are facts too
            text += f"; voided, dealt again: {', '.join(facts['owed'])}"
        return text + ("; game over" if facts.get("game_over") else "")
    return json.dumps(dict(facts), sort_keys=True, ensure_ascii=False)
