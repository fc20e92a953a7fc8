"""Players' names: the one matcher, and the checks a new name must pass.

A name is typed at a real table, on keyboards set to other languages, pasted from chats.
Three promises follow (issue 13, and the table notation):

- **the same name is always found**: a typed name is stripped and put in Unicode NFC form,
  then compared case-insensitively, so ``José`` typed with a combining accent (NFD) is the
  ``José`` on the roster; a near miss gets a "did you mean";
- **two players never look the same**: when a roster is created, a name holding an invisible
  character (zero-width space or joiner, a byte-order mark, a bidi override ...), a control
  character or one of ref's own separators (``=`` ``,`` ``/`` ``|``) is refused, and so is a
  roster where two names differ only by case, by such characters or by look-alike letters
  (a Cyrillic ``а`` for a Latin ``a``). Look-alikes are found by a *skeleton*: NFKD, casefold,
  then the common Cyrillic and Greek homoglyphs mapped to the Latin letter they imitate;
- **``>NAME`` always means the player**: the table notation reads a kind word (``run``,
  ``set`` ...) or a card (``AS``, ``10h``, ``W``) after ``>`` before a name, so a name
  joining a roster may not be one (:func:`check_newcomers`).

Errors name the name and the character, as ``U+200B ZERO WIDTH SPACE``. Rosters stored
before these checks are still matched (both sides are normalised the same way), and a name
already on a roster is never checked again.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from rummyref.cards import KIND_WORDS, parse_card
from rummyref.errors import RuleRefusal, UnreadableCard, UnreadableInput

NEWCOMER_WORD = "GEDDOWWWT!!"  #: the house's word for a newcomer to a closed roster (A1)
SEPARATORS = "=,/|"  #: ref's own syntax: NAME=CARDS, A,B,C, melds split by / or |
NAME_MAX = 100  #: characters of a new player's or game's name (a table reads it in every line)
NOTATION_MARKS = "><^"  #: the table notation's marks (AD>Larry, AD^): a new name may not hold them
NEAR_MISS = 0.6  #: difflib's similarity from which a typed name earns a "did you mean"

#: Characters that print as nothing (or as a blank) though their category is a letter or a
#: mark: Hangul fillers, the braille blank, the combining grapheme joiner, variation selectors.
#: Format characters (category Cf: zero-width space/joiners, BOM, bidi controls U+202A-202E
#: and U+2066-2069, soft hyphen ...) are refused by category.
_BLANK_LOOKING = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0") | frozenset(
    chr(c) for c in range(0xFE00, 0xFE10)
)
_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_CONTROL_NAMES = {0x00: "NULL", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED", 0x0D: "CARRIAGE RETURN",
                  0x1B: "ESCAPE", 0x7F: "DELETE"}  # fmt: skip
_UNNAMED = {"Cc": "CONTROL CHARACTER", "Co": "PRIVATE USE CHARACTER", "Cs": "SURROGATE", "Cn": "UNASSIGNED"}

#: Cyrillic and Greek letters (case folded, accents apart) that look like a Latin letter in
#: common fonts, most of them as capitals (Cyrillic Н is Latin H, Greek Ρ is Latin P).
_HOMOGLYPHS = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "з": "3", "і": "i", "ј": "j", "к": "k",
        "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
        "һ": "h", "ӏ": "l", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "ь": "b",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ϲ": "c", "ϳ": "j",
    }
)  # fmt: skip


# -- normalising and comparing -------------------------------------------------------------


def normalise(typed: str) -> str:
    """A name as typed, stripped of surrounding spaces and in NFC form (how it is stored)."""
    return unicodedata.normalize("NFC", typed.strip())


def _key(name: str) -> str:
    """What an exact match compares: Unicode's canonical caseless form, NFD(casefold(NFD))."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", name.strip()).casefold())


def alphabetical(name: str) -> tuple[str, str, str]:
    """A key that puts names in alphabetical order as players read it: by their letters without
    accents and case (``Émile`` beside ``Emil``, before ``Zoe``), then with them, then as typed
    (a total order: two names never tie)."""
    letters = "".join(ch for ch in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(ch))
    return letters, _key(name), name


def skeleton(name: str) -> str:
    """What a name looks like: compatibility caseless (NFKD, casefold), no invisible
    characters, Cyrillic and Greek look-alikes read as Latin, runs of spaces as one. Two names
    with the same skeleton cannot be told apart at a glance."""
    text = unicodedata.normalize("NFKD", _key(name))
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not _invisible(ch)).translate(_HOMOGLYPHS)
    return " ".join(unicodedata.normalize("NFC", text).split())


def describe(ch: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: a character as a person can look it up."""
    name = unicodedata.name(ch, "") or _CONTROL_NAMES.get(ord(ch)) or _UNNAMED[unicodedata.category(ch)]
    return f"U+{ord(ch):04X} {name}"


def _invisible(ch: str) -> bool:
    return ch in _BLANK_LOOKING or unicodedata.category(ch) in ("Cf", "Cc")


# -- matching a typed name against a roster ------------------------------------------------


def find(typed: str, roster: Sequence[str]) -> str | None:
    """The roster's spelling of ``typed`` (case and NFC/NFD do not matter), or None. A long
    name may be typed as ref shows it (:func:`shown`, ``…`` or ``...`` in the middle): the shown
    forms of a roster differ (:func:`check_shown`), so it names one player."""
    wanted = _key(typed)
    found = next((n for n in roster if _key(n) == wanted), None)
    if found is None and ("…" in typed or "..." in typed):
        wanted = _key(typed.replace("...", "…"))
        alike = [n for n in roster if n != _cut(n, among=roster) and _key(_cut(n, among=roster)) == wanted]
        if not alike and "..." in typed:  # as a terminal that cannot show "…" shows it
            alike = [n for n in roster
                     if n != _cut(n, among=roster, ellipsis="...")
                     and _key(_cut(n, among=roster, ellipsis="...")) == _key(typed)]
        if len(alike) == 1:
            return alike[0]
    return found


def suggest(typed: str, roster: Sequence[str]) -> str | None:
    """The roster name ``typed`` most likely meant: one that looks the same (a look-alike
    letter, an invisible character), else the closest spelling; None if nothing is close."""
    look = skeleton(typed)
    same = [n for n in roster if skeleton(n) == look]
    if same:
        return same[0]
    keys = {_key(n): n for n in roster}
    close = difflib.get_close_matches(_key(typed), list(keys), n=1, cutoff=NEAR_MISS)
    return keys[close[0]] if close else None


def resolve_name(name: str, roster: Sequence[str], game: str, closed: bool = True, *,
                 given: Iterable[str] = (), new_table: str = "") -> str:
    """A name typed for a game -> the roster's spelling. A1: a name not on the roster is
    refused (exit 4); a near miss gets a "did you mean", a newcomer the house's own word.

    ``given``: every name given beside it in the same command (``--players A,B,C``, the
    ``--points`` of one hand). A "did you mean" never names a player already named there: a
    name beside the whole roster is a newcomer, not a slip. ``new_table``: the command that
    starts a game at another table (``ref new-session --game NEW-NAME --players ...``), for a
    game whose roster is not closed that is asked for another table: every game keeps the
    table it started with."""
    found = find(name, roster)
    if found is not None:
        return found
    typed = shown(normalise(name))  # a name typed too long for a line, shown as a long name is
    named = {n for n in (find(g, roster) for g in given) if n is not None}
    near = suggest(name, [n for n in roster if n not in named])
    roster_text = ", ".join(roster)
    players = f"the players of {game} are {roster_text}"
    if near:
        raise RuleRefusal(
            f"{quoted(normalise(name))} is not on the roster of {game} ({roster_text}); {_did_you_mean(normalise(name), near)}",
            rule="A1" if closed else None,
            hint=players,
        )
    if not closed:
        raise RuleRefusal(
            f"{typed} is not a player of {game} ({roster_text})",
            hint=keeps_its_table(game, new_table) if new_table else players,
        )
    raise RuleRefusal(
        f"{NEWCOMER_WORD} {typed} is not on the roster of {game} ({roster_text}): no new players may join",
        rule="A1",
        hint="A1: the roster was fixed when the game began; a new game may have a new roster: "
             + (new_table or "ref new-session --game NEW-NAME --players ..."),
    )


def keeps_its_table(game: str, new_table: str) -> str:
    """The hint when a game whose roster is not closed is asked for another table: it keeps the
    table it started with (nobody joins, nobody sits out); another table is a new game."""
    return f"game {game} keeps the table it started with; a new table starts a new game: {new_table}"


def at_table(name: str, players: Sequence[str], what: str = "player") -> str:
    """A name typed for one table (a Simple Rummy session, a dispute's players) -> its
    spelling at the table; a name not there is unreadable input (exit 3), with a suggestion.
    ``what`` says what the name was given for (``hand``, ``--caller`` ...)."""
    found = find(name, players)
    if found is not None:
        return found
    near = suggest(name, players)
    maybe = f"{_did_you_mean(normalise(name), near)} " if near else ""
    raise UnreadableInput(
        f"{quoted(normalise(name))} ({what}) is not at this table",
        hint=f"{maybe}players at this table: {', '.join(players)}",
    )


def _did_you_mean(typed: str, near: str) -> str:
    """``did you mean Ann?``, saying which character is odd when the two look the same."""
    odd = _odd_character(typed) if skeleton(typed) == skeleton(near) else None
    return f"did you mean {near}?" + (f" ({quoted(typed)} holds {describe(odd)})" if odd else "")


def _odd_character(*texts: str) -> str | None:
    """The first character that is invisible, a look-alike or a compatibility form."""
    return next((ch for text in texts for ch in text if skeleton(ch) != _key(ch)), None)


# -- checking new names --------------------------------------------------------------------


def check_name(name: str) -> str:
    """A new player's name, normalised (:func:`normalise`), or a refusal naming the character
    that makes it unusable: one of ref's separators, an invisible, control or unassigned
    character, or a blank other than the plain space."""
    text = normalise(name)
    if not text:
        raise UnreadableInput(f"{name!r} is not a usable player name: it is empty", hint=_NAME_HINT)
    for ch in text:
        why = _refused(ch)
        if why:
            raise UnreadableInput(
                f"player name {clip(text, NAME_MAX)!r} contains {describe(ch)}, {why}", hint=_NAME_HINT
            )
    return text


_NAME_HINT = "a name is letters, digits, spaces and punctuation other than = , / |; e.g. Ann"


def _refused(ch: str) -> str:
    if ch in SEPARATORS:
        return "which ref reads as a separator"
    category = unicodedata.category(ch)
    if category in _REFUSED_CATEGORIES:
        return _REFUSED_CATEGORIES[category]
    if ch in _BLANK_LOOKING:
        return "an invisible character"
    if category == "Zs" and ch != " ":
        return "a space other than the plain space"
    return ""


def check_roster(names: Iterable[str]) -> tuple[str, ...]:
    """The names of a new roster (or table), each checked by :func:`check_name` and
    normalised; refused when two of them differ only by case, invisible characters or
    look-alike letters (the same :func:`skeleton`)."""
    checked = tuple(check_name(n) for n in names)
    seen: dict[str, str] = {}
    for name in checked:
        look = skeleton(name)
        if look in seen:
            raise UnreadableInput(_twice(name, seen[look]), hint="every player needs a name that looks different")
        seen[look] = name
    check_shown(checked)
    meet(checked)
    return checked


def check_shown(new: Iterable[str], roster: Iterable[str] = ()) -> None:
    """Names joining a roster (``roster``: the names already on it) refused (exit 3) when two
    of them would show the same where a line has no room for a whole name (:func:`shown`):
    a long name is shown by its head and tail, so two names differing only in the middle
    could not be told apart in a table."""
    seen = {skeleton(_cut(n)): n for n in roster}
    for name in new:
        look = skeleton(_cut(name))
        first = seen.get(look)
        if first is not None and first != name:
            raise UnreadableInput(
                f"{_apart(name, first)!r} and {_apart(first, name)!r} would both be shown as "
                f"{shown(name)!r}: a name over {NAME_SHOWN} columns is shown by its start and its end",
                hint="spell one of them so that its start or its end differs, e.g. a shorter name")
        seen[look] = name


def _twice(name: str, first: str) -> str:
    if _key(name) == _key(first):
        return f"{name!r} is named twice (as {first!r} already): names must differ by more than case"
    odd = _odd_character(first, name)
    which = f", by {describe(odd)}" if odd else ""
    return f"{name!r} is named twice: it looks the same as {first!r}{which}"


# -- names the table notation would read as something else ---------------------------------


def reads_as(name: str) -> str | None:
    """What ``AD>NAME`` reads ``name`` as when it is not a player: ``the kind of meld (run)``,
    ``the card AS``, ``a WILDCARD``; None when it reads as a name. The table notation (SPEC
    §7, ``table.py``'s ``_target``) reads the text after ``>`` as a kind word first
    (:data:`rummyref.cards.KIND_WORDS`, case-insensitively), then as a card in any spelling
    the card parser takes (``as``, ``10h``, ``h10``, ``T♥``, ``W``, ``joker``, ``*``), and
    only then as a player's name."""
    text = normalise(name)
    word = text.casefold()
    if word in KIND_WORDS:
        return f"the kind of meld ({KIND_WORDS[word]})"
    try:
        card = parse_card(text)
    except UnreadableCard:
        return None
    return "a WILDCARD" if card.is_wild else f"the card {card}"


def clip(text: str, most: int = 24) -> str:
    """A long text cut for a message that fits a line: its first characters and an ellipsis,
    ``most`` terminal cells in all (a CJK character takes two)."""
    return text if _head(text, most) == text else _head(text, most - 1) + "…"


def _head(text: str, cells: int) -> str:
    """The longest start of ``text`` that takes at most ``cells`` terminal cells."""
    from rich.cells import cell_len

    end = used = 0
    while end < len(text):
        ch = text[end]  # a control character (kept by an older ref) is written as one cell, at least
        used += cell_len(ch) or (1 if unicodedata.category(ch) == "Cc" else 0)
        if used > cells:
            break
        end += 1
    return text[:end]


def _tail(text: str, cells: int) -> str:
    return _head(text[::-1], cells)[::-1]


NAME_SHOWN = 30  #: terminal cells of a name where a line or a table has no room for more (see :func:`shown`)


def _as_typed(text: str) -> str:
    return text


#: how the terminal writes a text: itself, or on one that cannot show UTF-8 its ASCII form
#: (``Jos\\xe9``, ``...``), set by the CLI (:func:`write_with`)
_WRITTEN: list[Callable[[str], str]] = [_as_typed]


def write_with(written: Callable[[str], str]) -> None:
    """Name the function giving a text as the terminal writes it: a long name is then cut to
    :data:`NAME_SHOWN` cells in that form (:func:`shown`), so that a line keeps its width."""
    _WRITTEN[0] = written


def shown(name: str, most: int = NAME_SHOWN, among: Iterable[str] = ()) -> str:
    """A player's (or a game's) name as a line of text or a table shows it: a name wider than
    ``most`` terminal cells (up to :data:`NAME_MAX` characters are allowed) keeps its head and
    its tail around an ellipsis (``Worthington-Fitzge…ery-Senior``), so that the line fits 80
    columns and two names differing at their end still differ; ``--json`` keeps the whole name.
    ``among``: the other names shown beside it (a roster); where one of them would show the
    same, more of each is shown until they differ (a roster stored before
    :func:`check_roster` refused such names). On a terminal that cannot show UTF-8
    (:func:`write_with`) the name is cut as that terminal writes it (``Jos\\xe9``, around
    ``...``), still ``most`` cells in all."""
    written = _WRITTEN[0]
    if written is _as_typed:
        return _cut(name, most, among)
    return _cut(written(name), most, [written(o) for o in among], written("…"))


def quoted(typed: str, most: int = NAME_SHOWN) -> str:
    """A name as typed, quoted in a message (``'Lary' is not on the roster``) as Python writes
    a text: each character that cannot be shown on a line escaped once (``'Bill\\udcff'`` for
    bytes that were not UTF-8, ``'A\\u200bnn'``), then cut as :func:`shown` cuts a long name
    (the quotes kept). Quoting :func:`shown`'s form instead would escape its escapes again."""
    return shown(repr(typed), most + 2)


def _cut(name: str, most: int = NAME_SHOWN, among: Iterable[str] = (), ellipsis: str = "…") -> str:
    """:func:`shown`'s cut, with ``ellipsis`` in the middle (``...`` where ``…`` cannot be
    shown); ref's own matching of a typed name (:func:`find`, :func:`check_shown`) uses it."""
    from rich.cells import cell_len

    others = [o for o in among if o != name]
    if line_breaker(name):  # kept by 0.1, which took any name: escaped, never sent to the terminal
        name = printable(name, most=NAME_MAX * 8)
    cut = cell_len(ellipsis)
    while True:
        if cell_len(name) <= most:
            return name
        tail = (most - cut) // 2
        text = _head(name, most - cut - tail) + ellipsis + _tail(name, tail)
        if all(_cut(o, most, ellipsis=ellipsis) != text for o in others):
            return text
        most += 4


#: every name met by this run (:func:`meet`), with its shown form (a short name's is itself)
_MET: dict[str, str] = {}
_LONG: list[re.Pattern[str]] = []  #: the pattern finding the long names met, once one is met
_WHOLE: list[str] = []  #: the shown forms holding a blank, longest first


def meet(roster: Iterable[str]) -> None:
    """The names of a roster this run has read or made (a game's players, a table, a dispute's
    players): from now on, every line of text ref shows (a message, an error, a question, a
    wrapped paragraph: :func:`in_text`) writes each of them that is wider than
    :data:`NAME_SHOWN` cells in its shown form, told apart from the rest of ``roster``, and
    a line is never broken inside a name (:func:`kept_whole`)."""
    roster = list(roster)
    new = [name for name in dict.fromkeys(roster) if name not in _MET]
    for name in new:
        _MET[name] = shown(name, among=roster)
    if any(_MET[name] != name for name in new):
        long = sorted((n for n, form in _MET.items() if form != n), key=len, reverse=True)
        _LONG[:] = [re.compile("|".join(map(re.escape, long)))]
    if any(" " in _MET[name] for name in new):
        _WHOLE[:] = sorted({form for form in _MET.values() if " " in form}, key=len, reverse=True)


def meet_text(*texts: str) -> None:
    """Texts read from the record that are not a roster's names (a game's name, its rule set's):
    from now on each one holding a character that would break a line or reach the terminal
    (:func:`line_breaker`; a record edited outside ref) is written escaped (:func:`escaped`)
    in every line of text ref shows (:func:`in_text`). Any other text is shown as it is, whole."""
    new = [t for t in texts if t and t not in _MET and line_breaker(t)]
    for text in new:
        _MET[text] = escaped(text)
    if new:
        long = sorted((n for n, form in _MET.items() if form != n), key=len, reverse=True)
        _LONG[:] = [re.compile("|".join(map(re.escape, long)))]


def in_text(text: str) -> str:
    """``text`` as a line of ref's shows it: each long name met (:func:`meet`) in its shown
    form (:func:`shown`), so that a line names a player the one way a table does and is never
    folded in the middle of a name. The longest name is looked for first (a name may hold
    another). ``--json`` and exported data never pass through here: they keep whole names."""
    return _LONG[0].sub(lambda m: _MET[m.group()], text) if _LONG else text


def kept_whole() -> list[str]:
    """The shown forms of the names met that hold a blank (``Cy [the kid]``), longest first:
    a line of text is broken at a blank, never inside one of these (:func:`rummyref.wrap.fill`)."""
    return _WHOLE


def _apart(name: str, other: str, most: int = 60) -> str:
    """``name`` for a message that must tell it from ``other``: whole if short enough, else
    cut around where the two first differ."""
    from rich.cells import cell_len

    if cell_len(name) <= most:
        return name
    at = next((i for i, (a, b) in enumerate(zip(name, other)) if a != b), min(len(name), len(other)))
    start = max(0, at - most // 2)
    text = ("…" if start else "") + name[start:]
    return clip(text, most)


def check_game_name(name: str) -> None:
    """A new game's name: at most :data:`NAME_MAX` characters, and no character a player's name
    may not hold either (a control, invisible or unassigned character, a blank other than the
    plain space: it would break every line that names the game, or hide in it); ref's
    separators are no separators in ``--game``, so they are allowed. A game already recorded
    under such a name, by an older ref, is still found, exported and imported."""
    text = name.strip()
    if len(text) > NAME_MAX:
        raise UnreadableInput(f"--game {clip(text)!r} is {len(text):,} characters; at most "
                              f"{NAME_MAX}", hint="a shorter name, e.g. --game friday")
    odd = refused_character(text)
    if odd:
        raise UnreadableInput(f"game name {clip(text)!r} contains {odd}",
                              hint="a game's name is letters, digits, spaces and punctuation; e.g. --game friday")


def refused_character(text: str) -> str | None:
    """The first character of ``text`` a game's name may not hold (a control, invisible or
    unassigned character, a blank other than the plain space), described with why
    (``U+200B ZERO WIDTH SPACE, an invisible character``), or None. ref's separators are
    allowed: such a text is never read back as a roster. A rule set's ``[words]`` are checked so.
    """
    for ch in text:
        why = "" if ch in SEPARATORS else _refused(ch)
        if why:
            return f"{describe(ch)}, {why}"
    return None


def check_newcomers(names: Iterable[str], roster: Iterable[str] = ()) -> None:
    """Names about to join a roster (a new game's, or a newcomer seated beside ``roster``,
    the names already on it): refused (exit 3) when ``>NAME`` would not reach the player
    (:func:`reads_as`), or when one would be shown as another is (:func:`check_shown`). Only
    new names are checked: a name already on a roster, stored by an older ref, stays usable."""
    names = list(names)
    check_shown(names, roster)
    for name in names:
        if len(normalise(name)) > NAME_MAX:
            raise UnreadableInput(f"{clip(name)!r} cannot be a name: {len(normalise(name)):,} characters, "
                                  f"at most {NAME_MAX}", hint="a shorter spelling, e.g. the first name")
        mark = next((c for c in normalise(name) if c in NOTATION_MARKS), None)
        if mark is not None:
            raise UnreadableInput(
                f"{name!r} cannot be a name: {mark!r} is the table's own mark (AD>NAME, AD^)",
                hint=f"spell the name without {mark!r}",
            )
        what = reads_as(name)
        if what is not None:
            card = "KS" if what == "the card AD" else "AD"
            raise UnreadableInput(
                f"{name!r} cannot be a name: {card}>{name} would read as {what}",
                hint=f"spell the name another way, e.g. {name}a or {name}-2",
            )


# -- a correction's reason -----------------------------------------------------------------

REASON_MAX = 500  #: characters of a correction's reason (B7): a sentence or two, shown in the history

#: What a new reason may not hold: characters that would break a line of the history or reach
#: the terminal as a command (controls, line and paragraph separators, lone surrogates), and
#: the bidi controls that reorder what follows them. Other invisible characters (a zero-width
#: joiner in an emoji) do no harm in a sentence.
_REASON_REFUSED = {"Cc": "a control character", "Cs": "a lone surrogate", "Zl": "a line separator",
                   "Zp": "a paragraph separator"}
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_reason(typed: str, example: str = '--reason "Bill counted short"') -> str:
    """A new correction's reason (B7), stripped: refused (exit 3) when blank, longer than
    :data:`REASON_MAX` characters, or holding a character that would break the history's lines
    or reach the terminal (naming it, as :func:`check_name` does). ``example``: how to give
    one where it was asked (an option, a prompt)."""
    text = typed.strip() if typed else ""
    if not text:
        raise UnreadableInput("a correction needs a reason", hint=f"say what was wrong, e.g. {example}")
    if len(text) > REASON_MAX:
        raise UnreadableInput(f"the reason is {len(text):,} characters; at most {REASON_MAX}",
                              hint=f"say what was wrong in a sentence or two, e.g. {example}")
    for ch in text:
        why = _REASON_REFUSED.get(unicodedata.category(ch)) or ("a bidi control" if ch in _BIDI else "")
        if why:
            raise UnreadableInput(f"the reason {clip(text)!r} contains {describe(ch)}, {why}",
                                  hint=f"a reason is one line of text, e.g. {example}")
    return text


def line_breaker(text: str) -> str | None:
    """The first character of ``text`` that would break a printed line or reach the terminal
    as a command (as :func:`check_reason` refuses them), described, or None."""
    for ch in text:
        why = _REASON_REFUSED.get(unicodedata.category(ch)) or ("a bidi control" if ch in _BIDI else "")
        if why:
            return f"{describe(ch)}, {why}"
    return None


def printable(text: str, most: int = REASON_MAX) -> str:
    """A stored text (a reason kept by an older ref) as it can be shown on one line: each
    character a new reason may not hold written as its escape (``\\n``, ``\\x1b``,
    ``\\u202e``), and a text longer than ``most`` characters cut, saying how long it is."""
    shown = "".join(ch.encode("unicode_escape").decode("ascii")
                    if unicodedata.category(ch) in _REASON_REFUSED or ch in _BIDI else ch for ch in text)
    if len(text) > most:
        return f"{shown[:most]}… ({len(text):,} characters, whole in --json)"
    return shown


def escaped(text: str) -> str:
    """A text read from the record (a name, a game's name, a value) as a message or a cell
    shows it: :func:`printable`'s escapes (``Ann\\x1b[31mRED``), never cut. A record edited
    outside ref may hold anything; what ref prints of it never retitles, recolours or
    rewrites the terminal, nor breaks a line."""
    return printable(text, most=len(text))

