"""Rule sets are data: TOML files validated into a frozen :class:`RuleSet`.

Built-in rule sets live in ``data/rulesets/NAME.toml``. ``load_ruleset`` takes a
built-in name or a path to a house's own file; a broken file is refused with its
path and the bad field.
"""

from __future__ import annotations

import builtins
import math
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from rummyref.bounds import HAND_POINTS_MAX, TARGET, WILDCARDS_MAX
from rummyref.cards import Rank, Suit
from rummyref.errors import NotFound, RulesetError, and_list
from rummyref.rules.datafiles import locate, parse_toml, read_text, shown_path
from rummyref.rules.resources import data_dir


class Method(StrEnum):
    """How a rule set scores: the key that finds the game kind (``rummyref.games.registry``)."""

    MELDED_MINUS_HELD = "melded-minus-held"  #: a long game to a target (Rummy 2,000,000, 500 Rum)
    LOW_COUNT = "low-count"  #: one hand a game, lowest count wins, matches (Simple Rummy)
    GIN = "gin"  #: two players, knock or gin, deadwood and lay-offs, a game to 100 (Gin Rummy)


class GoingOut(StrEnum):
    """How many cards a player may keep unmelded when going out."""

    AT_MOST_ONE = "at-most-one"
    ALL = "all"  #: every card melded (V1 Major)
    EXACTLY_ONE = "exactly-one"  #: exactly one card left out (V1 Minor)


GOING_OUT_MODES = tuple(m.value for m in GoingOut)
SCORING_METHODS = tuple(m.value for m in Method)
_RANK_KEYS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13}  # fmt: skip


@dataclass(frozen=True)
class DealRange:
    players_min: int
    players_max: int
    cards_min: int
    cards_max: int
    default: int


@dataclass(frozen=True)
class Variation:
    name: str
    rule: str
    title: str
    going_out: str | None = None
    excludes: tuple[str, ...] = ()
    low_count_ending: bool = True
    wildcards_min: int | None = None
    wildcards_max: int | None = None
    sequences_to_go_out: int = 0
    natural_sequences_to_go_out: int = 0
    four_sevens_wins: bool = False


@dataclass(frozen=True)
class FirstDealerOrder:
    """How turned-up cards rank when choosing the first dealer (Simple Rummy S3).

    ``ranks`` and ``suits`` run from the highest to the lowest."""

    rule: str
    ranks: tuple[Rank, ...]
    suits: tuple[Suit, ...]


@dataclass(frozen=True)
class HouseRules:
    """A house's own rules on top of the game (Rummy 2,000,000's A-rules), as data.

    They belong to the house's roster: a rule set with an open roster plays without them, so a
    copy of ``rummy-2m.toml`` made for an open 500 Rum table shows no seating dibs, no Rummy
    Night wording and cites no A-rule."""

    session_word: str = "session"  #: what a sitting is called ("Rummy Night")
    session_short: str = "session"  #: ... in a running sentence ("the night may end")
    rules: tuple[str, ...] = ()  #: the rule ids ref cites (A1, A3, A4, A7 ...)
    seating_dibs: bool = False  #: A2: the standings give the seats
    weekly: bool = False  #: A5: a gap of over a week is flagged


NO_HOUSE = HouseRules()


@dataclass(frozen=True)
class GinRules:
    """The numbers of Gin Rummy (the ``[gin]`` table): bonuses, limits, the game's end."""

    knock_limit: int  #: the most deadwood a player may knock with
    undercut_bonus: int
    gin_bonus: int
    big_gin_bonus: int
    box_bonus: int  #: per hand won, added when the game ends
    game_bonus: int
    shutout_multiplier: int  #: the winner's final score is multiplied when the loser won no hand
    #: the house's G9, informational: ref never sees the stock (the table says a hand is dead)
    dead_hand_stock: int
    oklahoma_ace_limit: int  #: Oklahoma: the knock limit when the first upcard is an ace


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    rulebook: str
    values: tuple[int, ...]  #: index 1..13 by rank; index 0 unused (what a card is worth: rules/values.py)
    ace_low_run_value: int
    aces_high: bool
    wild_min: int
    wild_max: int
    wild_default: int
    wild_unmelded: int
    wild_melded: str | int  #: "represented" or a fixed value
    method: Method
    target: int | None
    match_wins: int | None
    going_out: GoingOut
    players_min: int
    players_max: int
    default_players: tuple[str, ...]
    closed_roster: bool
    full_rounds: bool
    deal: tuple[DealRange, ...]
    variations: tuple[Variation, ...] = ()
    first_dealer: FirstDealerOrder | None = None
    house: HouseRules = NO_HOUSE
    hand_word: str = "hand"  #: what one recorded unit is called (Simple Rummy: a "game")
    group_word: str = "group"  #: the rule set's word for a meld of one rank ("match" in 500 Rum)
    sequence_word: str = "sequence"  #: ... for a meld in suit ("run" in 500 Rum and Gin)
    gin: GinRules | None = None  #: only for ``scoring.method = "gin"``
    source: str = field(default="", compare=False)  #: the file read (or where a record keeps it)
    #: the file's text as it was read and checked (its byte-order mark read past): what a new
    #: game keeps (empty for a rule set a record keeps: see :meth:`kept_text`)
    text: str = field(default="", compare=False)
    #: the rule cited when the table says a WILDCARD stands for a card no meld has a place for
    wild_rule: str | None = None
    #: the rule cited when the game is over (its end, a finished game's refusals): ``scoring.rule``,
    #: 500 Rum's R3; a citation, not a rule, so a game kept before it was read plays the same rules
    over_rule: str | None = field(default=None, compare=False)

    # -- the rule set's own words ([words]): every message takes them from here ------------------
    # ref's records and JSON keep its fixed names (a meld's kind ``sequence``/``group``, a
    # note ``run, ace low``); these turn them into the table's words only where a person reads.

    def kept_text(self) -> str:
        """The text a new game of this rule set keeps: the file as it was read and checked
        (an edit made since is not kept unchecked), else the file read again."""
        return self.text or Path(self.source).read_text(encoding="utf-8")

    def meld_word(self, kind: str) -> str:
        """The rule set's own word for a meld kind: ``sequence`` (or ref's ``run``) is the
        ``sequence`` word, ``group`` (or ``match``) the ``group`` word; anything else (a meld
        of ``WILDCARDs`` alone) as it is."""
        if kind in ("sequence", "run"):
            return self.sequence_word
        if kind in ("group", "match"):
            return self.group_word
        return kind

    def meld_words(self, kind: str) -> str:
        """The plural of :meth:`meld_word` (``runs``, ``matches``)."""
        return plural_word(self.meld_word(kind))

    def meld_note(self, note: str) -> str:
        """A kept meld note (``run, ace low``, ``match``) in the rule set's words
        (``straight, ace low``): its first word is the meld's kind."""
        head, sep, rest = note.partition(",")
        return self.meld_word(head) + sep + rest

    @property
    def hand_words(self) -> str:
        """The hand word in the plural (``hands``, ``games``, a house's ``deals``)."""
        return plural_word(self.hand_word)

    def hands(self, count: int) -> str:
        """``1 hand``, ``2 hands``: a count of recorded hands in the rule set's word."""
        return f"{count:,} " + (self.hand_word if count == 1 else self.hand_words)

    @property
    def hand_title(self) -> str:
        """The hand word at the start of a sentence (``Hand``, ``Game``, a house's ``Deal``)."""
        return self.hand_word[:1].upper() + self.hand_word[1:]

    def cite(self, rule: str) -> str | None:
        """``rule`` when this rule set's house rules include it, else None (no citation)."""
        return rule if rule in self.house.rules else None

    def game_rule(self, rule: str) -> str | None:
        """``rule`` when the rulebook this rule set is answered from has it (``ref ruling RULE``
        finds it there), else None: a rule of another game's rulebook (Rummy 2,000,000's B5 and
        B6 for 500 Rum) is neither applied nor cited."""
        from rummyref.rulebook.book import rule_ids_of

        return rule if rule in rule_ids_of(self) else None

    @property
    def again(self) -> str:
        """What ``ref new-session --game NAME`` (or ``ref night``) needs to start another game of
        this rule set: nothing for the default one (:data:`DEFAULT`), `` --ruleset NAME`` for
        another built-in (500 Rum's ``--ruleset rummy-500``), `` --ruleset FILE`` for a house's
        own file (ref keeps its text, not where the file was), also where the house's file
        keeps a built-in's name but plays other numbers (its title, or any number it sets):
        the built-in's name would start a game of the built-in's rules."""
        builtin = self.name in BUILTIN and self.is_builtin()
        if builtin and self.name == DEFAULT:
            return ""
        return f" --ruleset {self.name if builtin else 'FILE'}"

    def is_builtin(self) -> bool:
        """Whether this rule set plays as the built-in of its name: the same title and every
        number the same (a house's copy under a built-in's name, one value changed, does not)."""
        if self.name not in BUILTIN:
            return False
        builtin = load_ruleset(self.name)
        return self.title == builtin.title and self.method == builtin.method and self.numbers() == builtin.numbers()

    @property
    def session_word(self) -> str:
        """What a sitting is called before its number (``session 2``, ``Rummy Night 2``): the
        house's ``[house] session_word`` (``session`` without one)."""
        return self.house.session_word

    @property
    def session_short(self) -> str:
        """What a sitting is called in a running sentence (``this session``, ``the night``)."""
        return self.house.session_short

    @property
    def session_title(self) -> str:
        """The session word at the start of a sentence (``Session``, ``Rummy Night``)."""
        return self.session_word[:1].upper() + self.session_word[1:]

    def sessions(self, count: int) -> str:
        """``1 session``, ``2 sessions``, ``3 Rummy Nights``: a count of sittings."""
        return f"{count:,} " + (self.session_word if count == 1 else plural_word(self.session_word))

    @property
    def wild_limit(self) -> int:
        """The most WILDCARDs any table of this rule set may use (base or any variation)."""
        return max([self.wild_max] + [v.wildcards_max or 0 for v in self.variations])

    def variation(self, name: str) -> Variation:
        for v in self.variations:
            if v.name == name:
                return v
        valid = ", ".join(v.name for v in self.variations) or "none"
        raise NotFound(f"{self.name} has no variation {name!r}", hint=f"variations: {valid}")

    def numbers(self) -> dict[str, int]:
        """Every number this rule set's file sets, by its field's name in the file
        (``gin.knock_limit``, ``cards.values.A``, ``scoring.target``): what a rulebook's
        ``{gin.knock_limit}`` stands for when ``ref ruling`` answers from this rule set (a number
        the file leaves unset is absent). ``deal.N`` is the cards dealt to each of N players by
        default (``deal.N.min``, ``deal.N.max`` their range); ``variations.NAME.wildcards.min``
        and ``.max`` a variation's WILDCARDs."""
        n = {f"cards.values.{key}": self.values[rank] for key, rank in _RANK_KEYS.items()}
        n["cards.ace_low_run_value"] = self.ace_low_run_value
        n.update({"wildcards.min": self.wild_min, "wildcards.max": self.wild_max,
                  "wildcards.default": self.wild_default, "wildcards.unmelded": self.wild_unmelded,
                  "players.min": self.players_min, "players.max": self.players_max})
        if isinstance(self.wild_melded, int):
            n["wildcards.melded"] = self.wild_melded
        for key, value in (("scoring.target", self.target), ("scoring.match_wins", self.match_wins)):
            if value is not None:
                n[key] = value
        for d in self.deal:
            for players in range(d.players_min, d.players_max + 1):
                n.update({f"deal.{players}": d.default, f"deal.{players}.min": d.cards_min,
                          f"deal.{players}.max": d.cards_max})
        for v in self.variations:
            for key, value in (("min", v.wildcards_min), ("max", v.wildcards_max)):
                if value is not None:
                    n[f"variations.{v.name}.wildcards.{key}"] = value
        if self.gin is not None:
            g = self.gin
            n.update({"gin.knock_limit": g.knock_limit, "gin.undercut_bonus": g.undercut_bonus,
                      "gin.gin_bonus": g.gin_bonus, "gin.big_gin_bonus": g.big_gin_bonus,
                      "gin.box_bonus": g.box_bonus, "gin.game_bonus": g.game_bonus,
                      "gin.shutout_multiplier": g.shutout_multiplier, "gin.dead_hand_stock": g.dead_hand_stock,
                      "gin.oklahoma.ace_limit": g.oklahoma_ace_limit})
        return n

    def deal_for(self, players: int) -> DealRange | None:
        for d in self.deal:
            if d.players_min <= players <= d.players_max:
                return d
        return None


def plural_word(word: str) -> str:
    """A word of the rule set in the plural: ``hand`` -> ``hands``, ``match`` -> ``matches``."""
    return word + ("es" if word.endswith(("s", "sh", "ch", "x", "z")) else "s")


BUILTIN = ("rummy-2m", "simple-rummy", "rummy-500", "gin")
DEFAULT = "rummy-2m"  #: the rule set of a game created with no --ruleset


def builtin_path(name: str) -> Path:
    return data_dir() / "rulesets" / f"{name}.toml"


def load_ruleset(name_or_path: str | Path = "rummy-2m") -> RuleSet:
    """A built-in rule set by name, or a house's own TOML file by path."""
    return _load(str(name_or_path))


@cache
def _load(spec: str) -> RuleSet:
    path = builtin_path(spec) if spec in BUILTIN else locate("rule set", spec, BUILTIN)
    text = read_text(path, "rule set")
    raw = parse_toml(text, path)
    shown = shown_path(path)  # messages name the file as it can be shown (escaped, cut)
    check_text(raw, shown)
    rs = parse_ruleset(raw, shown, strict=spec not in BUILTIN)
    return replace(rs, source=str(path), text=text)


def check_text(raw: Any, source: str, at: str = "") -> None:
    """Every text of a rule set file (its name, title, the table's words...) prints on one line
    and sends the terminal no command: a control character, a line separator or a bidi control
    is refused (exit 3), naming the field and the character. Checked where a file comes in (a
    house's file, an import), not in the text a record already keeps."""
    from rummyref.names import line_breaker

    items = raw.items() if isinstance(raw, dict) else enumerate(raw) if isinstance(raw, list) else ()
    for key, value in items:
        where = f"{at}[{key}]" if isinstance(key, int) else f"{at}.{key}" if at else str(key)
        if isinstance(value, str):
            odd = line_breaker(value)
            if odd:
                raise RulesetError(f"{source}: {where}: contains {odd}",
                                   hint="a rule set's texts are printed as they are: one line, no controls")
        else:
            check_text(value, source, where)


class _Reader:
    """Typed access to a TOML table that names the file and field on any error."""

    def __init__(self, data: Any, source: str, prefix: str = "") -> None:
        if not isinstance(data, dict):
            raise RulesetError(f"{source}: {prefix or 'the file'}: expected a table")
        self.data, self.source, self.prefix = data, source, prefix
        self.asked: set[builtins.str] = set()  #: the keys read (the others are unknown to ref)
        self.children: list[_Reader] = []

    def unknown(self) -> list[builtins.str]:
        """The keys of this table, and of the tables read from it, that nothing read: a house's
        typo (``targett``) or a table ref does not have (``[oops]``), each with its place."""
        out = [self._where(k) for k in self.data if k not in self.asked]
        for child in self.children:
            out += child.unknown()
        return out

    def _where(self, key: builtins.str) -> builtins.str:
        return f"{self.prefix}.{key}" if self.prefix else key

    def fail(self, key: builtins.str, expected: str) -> RulesetError:
        self.asked.add(key)
        got = as_toml(self.data[key]) if key in self.data else "'<missing>'"
        return RulesetError(f"{self.source}: {self._where(key)}: expected {expected}, got {got}")

    def table(self, key: builtins.str, required: bool = True) -> _Reader:
        self.asked.add(key)
        if key not in self.data and not required:
            return _Reader({}, self.source, self._where(key))
        if not isinstance(self.data.get(key), dict):
            raise self.fail(key, "a table")
        known = next((c for c in self.children if c.prefix == self._where(key)), None)
        if known is not None:  # read again (``words``): one reader, so what it read adds up
            return known
        child = _Reader(self.data[key], self.source, self._where(key))
        self.children.append(child)
        return child

    def int(self, key: builtins.str, default: Any = ..., low: builtins.int | None = 0, high: builtins.int | None = None):
        self.asked.add(key)
        v = self.data.get(key, default)
        if v is ... or v is None and default is ...:
            raise self.fail(key, "an integer")
        if v is None:
            return None
        if not isinstance(v, int) or isinstance(v, bool) or (low is not None and v < low) or (
            high is not None and v > high
        ):
            bounds = f" from {low}" if low is not None else ""
            bounds += f" to {high}" if high is not None else ""
            raise self.fail(key, f"an integer{bounds}")
        return v

    def str(self, key: builtins.str, default: Any = ..., choices: tuple[builtins.str, ...] | None = None) -> builtins.str:
        self.asked.add(key)
        v = self.data.get(key, default)
        if not isinstance(v, str) or not v or (choices and v not in choices):
            raise self.fail(key, f"one of {', '.join(choices)}" if choices else "a text")
        return v

    def bool(self, key: builtins.str, default: Any = ...) -> builtins.bool:
        self.asked.add(key)
        v = self.data.get(key, default)
        if not isinstance(v, bool):
            raise self.fail(key, "true or false")
        return v

    def strs(self, key: builtins.str, default: Any = ...) -> tuple[builtins.str, ...]:
        self.asked.add(key)
        v = self.data.get(key, default)
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            raise self.fail(key, "a list of texts")
        return tuple(v)

    def pair(self, key: builtins.str, low: builtins.int = 0) -> tuple[builtins.int, builtins.int]:
        self.asked.add(key)
        v = self.data.get(key)
        if (
            not isinstance(v, list)
            or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= low for x in v)
            or v[0] > v[1]
        ):
            raise self.fail(key, f"[min, max] with {low} <= min <= max")
        return v[0], v[1]

    def list_of_tables(self, key: builtins.str) -> list[_Reader]:
        self.asked.add(key)
        v = self.data.get(key, [])
        if not isinstance(v, list):
            raise self.fail(key, "a list of tables")
        items = [_Reader(item, self.source, f"{self._where(key)}[{i}]") for i, item in enumerate(v)]
        self.children += items
        return items


def as_toml(value: Any, most: int = 60) -> str:
    """A value of a file as TOML writes it (``true``, ``"often"``, ``[1, 2]``, ``1.0``), for a
    message that quotes what the file says; a long one cut to its start and its end."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = '"' + "".join(_toml_char(ch) for ch in value) + '"'
    elif isinstance(value, float):
        text = "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    elif isinstance(value, list):
        text = "[" + ", ".join(as_toml(v, most) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k} = {as_toml(v, most)}" for k, v in value.items()) + "}"
    elif hasattr(value, "isoformat"):
        text = value.isoformat()
    else:
        text = str(value)
    if len(text) <= most:
        return text
    half = (most - 3) // 2
    return f"{text[:half]}...{text[-half:]} ({len(text):,} characters)"


def _toml_char(ch: str) -> str:
    """A character of a TOML basic string as a message writes it: a quote or a backslash
    escaped, and one that would not show or would reach the terminal (a control, an invisible,
    bidi or unassigned character, a line separator) as its ``\\uXXXX`` escape."""
    import unicodedata

    if ch in '"\\':
        return "\\" + ch
    if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        return f"\\u{ord(ch):04X}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08X}"
    return ch


def parse_ruleset(raw: dict[str, Any], source: str = "<data>", strict: bool = False) -> RuleSet:
    """Validate a rule set's parsed TOML into a :class:`RuleSet`. ``strict`` (a file coming in,
    not a rule set a record already keeps): a key ref does not read is refused, naming it,
    rather than ignored (a house's ``targett = 300`` would leave its target unapplied)."""
    if not raw:
        raise RulesetError(f"{source}: the file is empty (or holds only comments): a rule set "
                           f"says format = 1, its name and its tables",
                           hint="copy a built-in file and change it (docs/reference/ruleset-format.md)")
    top = _Reader(raw, source)
    top.asked.add("format")
    form = raw.get("format", 1)
    if type(form) is not int or form != 1:  # 1.0 and true are no more format 1 than 2 is
        raise top.fail("format", "1 (the only rule set format this ref reads)")
    name = top.str("name")
    cards = top.table("cards")
    values_table = cards.table("values")
    values = [0] * 14
    for key, rank in _RANK_KEYS.items():
        values[rank] = values_table.int(key, low=0)
    unknown = set(values_table.data) - set(_RANK_KEYS)
    if unknown:
        raise RulesetError(
            f"{source}: cards.values: unknown rank {sorted(unknown)[0]!r}; ranks are A 2-10 J Q K"
        )
    wild = top.table("wildcards")
    wild_min = wild.int("min", 0, high=WILDCARDS_MAX)
    wild_max = wild.int("max", high=WILDCARDS_MAX)
    if wild_min > wild_max:  # the min the house raised, not the max it left
        raise wild.fail("min", f"an integer from 0 to wildcards.max ({wild_max})")
    wild_default = wild.int("default", wild_min, low=wild_min, high=wild_max)
    wild.asked.add("melded")
    melded = wild.data.get("melded", "represented")
    if melded != "represented" and not (isinstance(melded, int) and not isinstance(melded, bool) and melded >= 0):
        raise wild.fail("melded", '"represented" or an integer >= 0')
    scoring = top.table("scoring")
    method = Method(scoring.str("method", choices=SCORING_METHODS))
    players = top.table("players")
    pmin = players.int("min", low=1)
    pmax = players.int("max", low=pmin)
    deal = []
    for d in top.list_of_tables("deal"):
        lo, hi = d.pair("players", low=1)
        cmin, cmax = d.pair("cards", low=0)
        deal.append(DealRange(lo, hi, cmin, cmax, d.int("default", cmin, low=cmin, high=cmax)))
    variations = []
    for v in top.list_of_tables("variations"):
        wc = v.table("wildcards", required=False)
        vmin = wc.int("min", None, high=WILDCARDS_MAX)
        vmax = wc.int("max", None, high=WILDCARDS_MAX)
        if vmin is not None and vmax is not None and vmin > vmax:
            raise wc.fail("min", f"an integer from 0 to {wc.prefix}.max ({vmax})")
        variations.append(
            Variation(
                name=v.str("name"),
                rule=v.str("rule"),
                title=v.str("title"),
                going_out=v.str("going_out", choices=GOING_OUT_MODES) if "going_out" in v.data else None,
                excludes=v.strs("excludes", []),
                low_count_ending=v.bool("low_count_ending", True),
                wildcards_min=vmin,
                wildcards_max=vmax,
                sequences_to_go_out=v.int("sequences_to_go_out", 0),
                natural_sequences_to_go_out=v.int("natural_sequences_to_go_out", 0),
                four_sevens_wins=v.bool("four_sevens_wins", False),
            )
        )
    names = [var.name for var in variations]
    for i, var in enumerate(variations):
        for other in var.excludes:
            if other not in names:
                raise RulesetError(f"{source}: variations[{i}].excludes: unknown variation {other!r}")
    rs = RuleSet(
        name=name,
        title=top.str("title", name),
        rulebook=top.str("rulebook", name),
        values=tuple(values),
        ace_low_run_value=cards.int("ace_low_run_value", values[1]),
        aces_high=cards.bool("aces_high"),
        wild_min=wild_min,
        wild_max=wild_max,
        wild_default=wild_default,
        wild_unmelded=wild.int("unmelded", low=0),
        wild_melded=melded,
        wild_rule=wild.str("rule") if "rule" in wild.data else None,
        method=method,
        target=scoring.int("target", None, low=TARGET.lo, high=TARGET.hi),
        over_rule=scoring.str("rule") if "rule" in scoring.data else None,
        match_wins=scoring.int("match_wins", None, low=1),
        going_out=GoingOut(scoring.str("going_out", "at-most-one", choices=GOING_OUT_MODES)),
        players_min=pmin,
        players_max=pmax,
        default_players=players.strs("default", []),
        closed_roster=players.bool("closed_roster", False),
        full_rounds=players.bool("full_rounds", False),
        deal=tuple(deal),
        variations=tuple(variations),
        first_dealer=_first_dealer(top),
        house=_house(top, players.bool("closed_roster", False), top.str("rulebook", name), strict),
        # a low-count game is a single hand, so the table calls the unit a game
        hand_word=top.table("words", required=False).str("hand", "game" if method == Method.LOW_COUNT else "hand"),
        group_word=top.table("words", required=False).str("group", "group"),
        sequence_word=top.table("words", required=False).str("sequence", "sequence"),
        gin=_gin(top, method, strict),
        source=source,
    )
    top.table("words", required=False)
    unread = top.unknown()
    if strict and unread:
        raise RulesetError(f"{source}: {unread[0]}: ref reads no such field"
                           + (f" (and {len(unread) - 1:,} more)" if len(unread) > 1 else ""),
                           hint="check its spelling against docs/reference/ruleset-format.md; a field ref does not "
                                "read would change nothing")
    if strict:  # a file coming in; a rule set a record keeps is read as it was accepted
        _complete(rs, top, scoring)
    worth = deck_worth(rs)
    if worth > HAND_POINTS_MAX:
        raise RulesetError(f"{source}: the whole deck is worth {worth:,} points (cards.values and wildcards); "
                           f"a rule set's deck may be worth at most {HAND_POINTS_MAX:,}, the most one hand can score")
    return rs


def _complete(rs: RuleSet, top: _Reader, scoring: _Reader) -> None:
    """What a file coming in must say for its game to be played at all (exit 3, naming the
    field): a long game's target, a deal for every number of players it seats (Gin's, which
    deals by it, at least one), a low-count game's match."""
    _own_kind_name(rs, top)
    if rs.method == Method.MELDED_MINUS_HELD and rs.target is None:
        raise scoring.fail("target", "an integer: the total that ends a long game")
    if rs.method == Method.LOW_COUNT and rs.match_wins is None:
        raise scoring.fail("match_wins", "an integer from 1: the game wins that take a match")
    if rs.method == Method.GIN and not rs.deal:
        raise top.fail("deal", "a [[deal]] table: the cards dealt to each number of players")
    _no_twice(rs, top)
    _own_kind_rulebook(rs, top)
    _words(rs, top)
    for n in range(rs.players_min, rs.players_max + 1) if rs.deal else ():
        if not any(d.players_min <= n <= d.players_max for d in rs.deal):
            raise RulesetError(f"{top.source}: deal: no [[deal]] entry for {n} players (players.min "
                               f"{rs.players_min} to players.max {rs.players_max})",
                               hint="give each number of players a [[deal]] line")


def _no_twice(rs: RuleSet, top: _Reader) -> None:
    """A variation named twice, or a number of players two ``[[deal]]`` lines cover: one of
    the two would silently never apply (``--variation`` takes the first of the name, a deal
    the first line for its players); refused naming the second."""
    names: dict[str, int] = {}
    for i, v in enumerate(rs.variations):
        if v.name in names:
            raise RulesetError(f"{top.source}: variations[{i}].name: {as_toml(v.name)} is also variations"
                               f"[{names[v.name]}].name; --variation would only ever take the first",
                               hint="give each [[variations]] a name of its own")
        names[v.name] = i
    for i, d in enumerate(rs.deal):
        for j, e in enumerate(rs.deal[:i]):
            lo, hi = max(d.players_min, e.players_min), min(d.players_max, e.players_max)
            if lo <= hi:
                both = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
                raise RulesetError(
                    f"{top.source}: deal[{i}].players: [{d.players_min}, {d.players_max}] covers {both}, "
                    f"as deal[{j}].players [{e.players_min}, {e.players_max}] does; only the first would apply",
                    hint="give each number of players one [[deal]] line")


def _own_kind_rulebook(rs: RuleSet, top: _Reader) -> None:
    """A ``rulebook`` ref has must be of a game scored as this file's: 500 Rum's rulings
    answered from Gin's rulebook would state Gin's rules and numbers this file has none of
    (exit 3, naming ``rulebook``). A rulebook ref does not have is answered as the games
    scored alike (:func:`rummyref.rulebook.book.rulebooks_of`)."""
    if rs.rulebook not in BUILTIN:  # the built-in rulebooks are those of the built-in rule sets
        return
    book = _load(rs.rulebook)
    if book.method == rs.method:
        return
    same = [n for n in BUILTIN if _load(n).method == rs.method]
    raise RulesetError(
        f"{top.source}: rulebook: {as_toml(rs.rulebook)} is the rulebook of {book.title}, a {book.method} game, "
        f"and this file's scoring.method is {rs.method}: its rules and numbers are not this game's",
        hint=f"name the rulebook of a {rs.method} game ({and_list(same, 'or')}), or leave rulebook out")


#: the kind of meld each word of ``[words]`` names, as ref's table notation and --as read them
_WORD_KINDS = {"group": "match", "sequence": "run"}


def _words(rs: RuleSet, top: _Reader) -> None:
    """The ``[words]`` a file coming in gives: each printed in every message and taken by
    ``--as``, so a word holding an invisible or unassigned character (``ma\u200btch`` shows as
    ``match``), a group word that is the sequence word, a word that is ref's own word for the
    other kind (``group = "run"``: ``--as run`` would mean the house's group), or a word that
    reads as a card (``AD>7S``) is refused (exit 3), naming the field."""
    from rummyref.names import reads_as, refused_character

    words = top.table("words", required=False)
    given = {"hand": rs.hand_word, "group": rs.group_word, "sequence": rs.sequence_word}
    for key, word in given.items():
        if key not in words.data:
            continue
        odd = refused_character(word)
        if odd:
            raise RulesetError(f"{top.source}: words.{key}: {as_toml(word)} contains {odd}",
                               hint="a word is printed in every message: letters, digits, spaces, punctuation")
        if key == "hand":
            continue
        kind, other = _WORD_KINDS[key], "sequence" if key == "group" else "group"
        if word.casefold() == given[other].casefold():
            raise RulesetError(f"{top.source}: words.{key}: {as_toml(word)} is also words.{other}: "
                               "the two kinds of meld would read the same",
                               hint="give the group and the sequence words of their own")
        what = reads_as(word)
        if what is not None and what != f"the kind of meld ({kind})":
            said = f"ref's own word for a {other}" if what.startswith("the kind of meld") else what
            raise RulesetError(f"{top.source}: words.{key}: {as_toml(word)} reads as {said}",
                               hint=f"the table notation and --as read run and match (and sequence, "
                                    f"seq, group, set) as ref's kinds, and a card as a card: give "
                                    f"the {key} another word")


def _own_kind_name(rs: RuleSet, top: _Reader) -> None:
    """A house's file may take a built-in's name only for a game of the built-in's kind (a copy
    of rummy-2m with one value changed, still named rummy-2m): a game is recorded and reported
    under its rule set's name, so a long game named ``gin`` would pass for a game of Gin."""
    if rs.name not in BUILTIN:
        return
    builtin = _load(rs.name)  # a built-in is read as shipped (not strict): no loop back here
    if builtin.method == rs.method:
        return
    same = [n for n in BUILTIN if _load(n).method == rs.method]
    other = [n for n in BUILTIN if n not in same]
    raise RulesetError(
        f"{top.source}: name: {rs.name!r} is the built-in {builtin.title}'s name, a "
        f"{builtin.method} game, and this file's scoring.method is {rs.method}",
        hint=f"a {rs.method} rule set takes a name of its own, or the name of a built-in of its kind "
             f"({and_list(same, 'or')}), never {and_list(other, 'or')}")


def deck_worth(rs: RuleSet) -> int:
    """The most one hand can score under ``rs``: every card of the deck (each ace at its
    higher value) and the most WILDCARDs, each at the highest value it can take. A hand
    credits the cards on the table and debits the cards held, two parts of one deck, so its
    score (or a low count) never passes this; bounding it bounds every hand ever recorded."""
    ace = max(rs.values[1], rs.ace_low_run_value)
    wild = max(rs.values) if rs.wild_melded == "represented" else int(rs.wild_melded)
    return 4 * (sum(rs.values[2:]) + ace) + rs.wild_limit * max(wild, rs.wild_unmelded, ace)


#: What a rule set file written before ``[house]`` existed (rummyref 0.1, and the copies
#: houses made of it) meant: its games keep the house rules they were played under.
LEGACY_HOUSE = {"rummy-2m": HouseRules("Rummy Night", "night", ("A1", "A2", "A3", "A4", "A5", "A7"), True, True)}


def _house(top: _Reader, closed_roster: bool, rulebook: str, strict: bool = False) -> HouseRules:
    """The optional ``[house]`` table; it applies only to a closed roster (see :class:`HouseRules`).
    A file coming in (``strict``) has it checked whatever its roster, and refused with an open
    roster, which reads none of it: a house's ``weekly = true`` would silently not apply. A
    rule set a record keeps is read as it was accepted (an open roster's table ignored)."""
    if not closed_roster and not strict:
        top.asked.add("house")  # kept by a record before such a table was refused: ignored
        return NO_HOUSE
    if "house" not in top.data:
        return LEGACY_HOUSE.get(rulebook, NO_HOUSE) if closed_roster else NO_HOUSE
    h = top.table("house")
    rules = HouseRules(
        session_word=h.str("session_word", "session"),
        session_short=h.str("session_short", h.str("session_word", "session")),
        rules=h.strs("rules", []),
        seating_dibs=h.bool("seating_dibs", False),
        weekly=h.bool("weekly", False),
    )
    if not closed_roster:
        raise RulesetError(f"{top.source}: house: only a rule set with players.closed_roster = true "
                           "reads this table; with an open roster none of it applies",
                           hint="set closed_roster = true under [players] for the house's rules, "
                                "or delete the [house] table")
    return rules


def _first_dealer(top: _Reader) -> FirstDealerOrder | None:
    """The optional ``[first_dealer]`` table: ``rank_order`` and ``suit_order``, highest first."""
    if "first_dealer" not in top.data:
        return None
    fd = top.table("first_dealer")
    ranks = fd.strs("rank_order")
    if sorted(ranks, key=str) != sorted(_RANK_KEYS, key=str):
        raise fd.fail("rank_order", "each rank A 2-10 J Q K exactly once")
    suits = fd.strs("suit_order")
    letters = {s.value: s for s in Suit}
    if sorted(suits) != sorted(letters):
        raise fd.fail("suit_order", "each suit S H D C exactly once")
    return FirstDealerOrder(
        rule=fd.str("rule"),
        ranks=tuple(Rank(_RANK_KEYS[r]) for r in ranks),
        suits=tuple(letters[x] for x in suits),
    )


def _gin(top: _Reader, method: str, strict: bool = False) -> GinRules | None:
    """The ``[gin]`` table: required by ``scoring.method = "gin"`` and refused elsewhere."""
    if method != "gin":
        if "gin" in top.data:
            raise RulesetError(f'{top.source}: gin: only a rule set with scoring.method = "gin" has this table')
        return None
    top.table("scoring").int("target", low=1)  # a game of Gin is played to a target
    gin = top.table("gin")
    oklahoma = gin.table("oklahoma")
    # each bounded (a file coming in) so that a hand, and a game's final score, stay within what
    # a record holds; a rule set a record already keeps is read as it was accepted
    def at_most(n: int) -> int | None:
        return n if strict else None

    return GinRules(
        knock_limit=gin.int("knock_limit", high=at_most(GIN_SMALL_MAX)),
        undercut_bonus=gin.int("undercut_bonus", high=at_most(GIN_BONUS_MAX)),
        gin_bonus=gin.int("gin_bonus", high=at_most(GIN_BONUS_MAX)),
        big_gin_bonus=gin.int("big_gin_bonus", high=at_most(GIN_BONUS_MAX)),
        box_bonus=gin.int("box_bonus", high=at_most(GIN_BONUS_MAX)),
        game_bonus=gin.int("game_bonus", high=at_most(GIN_GAME_BONUS_MAX)),
        shutout_multiplier=gin.int("shutout_multiplier", low=1, high=at_most(GIN_MULTIPLIER_MAX)),
        dead_hand_stock=gin.int("dead_hand_stock", high=at_most(52)),
        oklahoma_ace_limit=oklahoma.int("ace_limit", high=at_most(GIN_SMALL_MAX)),
    )


GIN_SMALL_MAX = 100  #: a knock limit, an ace limit (more than any ten cards' deadwood)
GIN_BONUS_MAX = 1_000  #: gin, big gin, undercut, a box: a hand stays far within a hand's limit
GIN_GAME_BONUS_MAX = 10_000
GIN_MULTIPLIER_MAX = 10
