"""What ``ref import`` accepts: every value of the file checked, as strictly as the CLI checks
what is typed, before a single row is written anywhere (exit 3, naming the JSON path).

- the file: at most :data:`MAX_BYTES`, refused before it is read whole; UTF-8; JSON nested at
  most :data:`MAX_DEPTH` deep (counted before parsing, so no parser ever recurses past it);
- the envelope: only the keys ``ref export`` writes, each of its type;
- every cell, by its column's declared type (a whole number within 64 bits, never 1.5 or
  ``true``; a text; NULL only where the column allows it), then by what it means: points,
  openings, totals, hand and night numbers within :mod:`rummyref.bounds`; names as the CLI
  takes them; times as ISO dates; hashes as SHA-256 hex; the rule-set text parsed by the
  rule-set loader itself; the game's and each session's options against what ``ref`` writes
  (checked by the game's kind). A table or column of a later schema gets
  the checks of its declared type.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from rummyref import bounds
from rummyref.bounds import Bound
from rummyref.errors import NotFound, RummyrefError, UnreadableInput

MAX_BYTES = 16 * 1024 * 1024  #: the largest export ``ref import`` reads (16 MiB)
MAX_DEPTH = 8  #: an export is 5 deep (document, tables, table, rows, row); JSON texts inside cells too
TEXT_MAX = 1_000_000  #: characters of one cell (the rule-set text, a ruling's facts)
NAME_MAX = 1000  #: characters of a player's or game's name
ENVELOPE = {"format", "version", "schema_version", "ref_version", "exported_at", "chains", "tables"}
_HEX64 = re.compile(r"[0-9a-f]{64}")
#: a JSON string; one with no closing quote (a file cut short inside a text) runs to the end
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def bad(where: str, path: str, what: str, hint: str | None = None) -> UnreadableInput:
    return UnreadableInput(f"{where}: {path}: {what}", hint=hint or "the file was changed after ref export "
                                                                   "wrote it, or not written by it; nothing was imported")


# -- the file ---------------------------------------------------------------------------------


def read_text(path: Path) -> str:
    """The file's text; a file over :data:`MAX_BYTES` is refused before it is read."""
    where = str(path)
    try:
        with open(path, "rb") as fh:
            if path.is_file() and path.stat().st_size > MAX_BYTES:
                size = path.stat().st_size
                raise UnreadableInput(f"{where} is {size / 2**20:,.1f} MiB; ref import reads at most "
                                      f"{MAX_BYTES // 2**20} MiB", hint="export one game at a time: ref export --game G")
            data = fh.read(MAX_BYTES + 1)  # a pipe or device tells no size: read one byte past the limit
    except FileNotFoundError:
        raise NotFound(f"there is no file {where}") from None
    except IsADirectoryError:
        raise UnreadableInput(f"{where} is a folder", hint="give the JSON file written by ref export") from None
    except OSError as exc:
        raise UnreadableInput(f"cannot read {where}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise UnreadableInput(f"{where} is more than {MAX_BYTES // 2**20} MiB; ref import reads at most that",
                              hint="export one game at a time: ref export --game G")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableInput(f"{where} is not UTF-8 text (byte {exc.start})",
                              hint="ref import reads files written by ref export --format json") from None


def depth(text: str) -> int:
    """How deep the JSON ``text`` nests (strings skipped), counted without parsing it. A string
    left open (a file cut short inside a text) runs to the end: the brackets of the text it
    holds (a ruling's facts) are no nesting, and the parser then says where the JSON stops."""
    deepest = level = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        level += 1 if bracket in "[{" else -1
        deepest = max(deepest, level)
    return deepest


def parse_json(text: str, where: str, path: str = "$") -> Any:
    """JSON no deeper than :data:`MAX_DEPTH`, with no constant a strict parser refuses
    (NaN, Infinity) and no number too long to be one of ours."""
    if depth(text) > MAX_DEPTH:
        raise bad(where, path, f"JSON nested deeper than {MAX_DEPTH} levels; an export is never that deep")

    def constant(name: str) -> Any:
        raise bad(where, path, f"{name} is not a number JSON allows")

    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > 60:  # no conversion of a 4,000-digit number; the cell check names the rest
            raise bad(where, path, f"the number {digits[:12]}... ({len(digits)} digits) does not fit in 64 bits")
        return int(digits)

    if path == "$" and not text.strip():
        raise UnreadableInput(f"{where} is empty{' (only blanks)' if text else ''}: it holds no JSON",
                              hint="ref import reads files written by ref export --format json")
    try:
        return json.loads(text, parse_constant=constant, parse_int=integer)
    except json.JSONDecodeError as exc:
        if path == "$" and text.strip() and (exc.msg.startswith("Unterminated string")
                                             or exc.pos >= len(text.rstrip())):
            raise UnreadableInput(f"{where} ends in the middle of its JSON ({exc.msg}, line {exc.lineno}): "
                                  "the file was cut short", hint="a copy stopped halfway? copy the whole file, "
                                  "or export the record again; nothing was imported") from None
        raise UnreadableInput(f"{where}: {path} is not JSON ({exc.msg}, line {exc.lineno})",
                              hint="ref import reads files written by ref export --format json") from None
    except RecursionError:  # pragma: no cover - depth() refused it first
        raise bad(where, path, "JSON nested too deeply") from None


# -- the envelope -----------------------------------------------------------------------------


def check_envelope(doc: Any, where: str, fmt: str, version: int, latest: int, root: str) -> None:
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise UnreadableInput(f"{where} is not a ref export (no \"format\": \"{fmt}\")", hint="ref export writes one")
    if doc.get("version") != version or isinstance(doc.get("version"), bool):
        raise UnreadableInput(f"{where} is export format version {doc.get('version')!r}; this ref reads version "
                              f"{version}", hint="use the ref that wrote it, or a newer ref")
    unknown = sorted(set(doc) - ENVELOPE)
    if unknown:
        raise bad(where, f"$.{unknown[0]}", "unknown key; an export has " + ", ".join(sorted(ENVELOPE)))
    sv = doc.get("schema_version")
    if not isinstance(sv, int) or isinstance(sv, bool) or not 1 <= sv:
        raise UnreadableInput(f"{where}: schema_version {sv!r} is not a schema version")
    if sv > latest:
        raise UnreadableInput(f"{where} comes from schema version {sv}, newer than this ref understands ({latest})",
                              hint="upgrade rummyref to import it")
    for key in ("ref_version", "exported_at"):
        if key in doc and not (isinstance(doc[key], str) and len(doc[key]) <= NAME_MAX):
            raise bad(where, f"$.{key}", "expected a short text")
    tables = doc.get("tables")
    if not isinstance(tables, dict) or root not in tables:
        raise UnreadableInput(f"{where} has no tables (or no {root} table)")
    for name, t in tables.items():
        ok = isinstance(t, dict) and set(t) == {"columns", "rows"} and isinstance(t.get("columns"), list)
        ok = ok and isinstance(t.get("rows"), list) and all(isinstance(c, str) for c in t["columns"])
        ok = ok and all(isinstance(r, list) and len(r) == len(t["columns"]) for r in t["rows"])
        if not ok:
            raise UnreadableInput(f"{where}: table {name!r} is malformed (columns, and rows of that many plain values)",
                                  hint=f"$.tables.{name} must be {{\"columns\": [...], \"rows\": [[...], ...]}}")
        if len(set(t["columns"])) != len(t["columns"]):
            raise bad(where, f"$.tables.{name}.columns", "a column is named twice")
    chains = doc.get("chains", {})
    if not isinstance(chains, dict):
        raise UnreadableInput(f"{where}: \"chains\" is malformed")
    for game, c in chains.items():
        at = f"$.chains.{game}"
        if not isinstance(c, dict) or set(c) != {"entries", "head"}:
            raise bad(where, at, "expected {\"entries\": N, \"head\": HASH}")
        if not _whole(c["entries"]) or not 0 <= c["entries"] <= bounds.INT64_MAX:
            raise bad(where, f"{at}.entries", f"{c['entries']!r} is not a count of entries")
        if c["head"] is not None and not (isinstance(c["head"], str) and _HEX64.fullmatch(c["head"])):
            raise bad(where, f"{at}.head", "expected a SHA-256 hash (64 hex digits)")


# -- the cells --------------------------------------------------------------------------------


Check = Callable[[Any], str | None]  #: a value -> None if good, else what is wrong


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def within(bound: Bound) -> Check:
    def check(v: Any) -> str | None:
        return None if bound.lo <= v <= bound.hi else f"{v} is out of range ({bound.describe()}): {bound.why}"
    return check


def one_of(*values: int) -> Check:
    return lambda v: None if v in values else f"{v} is not one of {', '.join(map(str, values))}"


def game_name(v: str) -> str | None:
    """A name as a ref could have stored it: a text, not blank. A control character is not
    refused here: a new name may not hold one, but an older ref took it (a game's name, a
    player's before the name checks), and the honest export of its record must import. A name is
    stated in its game's header entry, so one changed in the file fails the chain's check."""
    if not v.strip():
        return "a name must not be blank"
    if len(v) > NAME_MAX:
        return f"a name of {len(v):,} characters; at most {NAME_MAX:,}"
    return None


def name_text(v: str) -> str | None:
    """A player's name as ``--players`` takes it: also no blank at either end (the roster is
    typed as A,B,C and each name trimmed) and no comma."""
    if v != v.strip() or "," in v:
        return f"{v[:40]!r} is not a player's name (a blank at an end, or a comma)"
    return game_name(v)


def timestamp(v: str) -> str | None:
    try:
        datetime.fromisoformat(v)
    except ValueError:
        return f"{v[:40]!r} is not an ISO date and time"
    return None


def sha256(v: str) -> str | None:
    return None if _HEX64.fullmatch(v) else f"{v[:70]!r} is not a SHA-256 hash (64 hex digits)"


def short_text(v: str) -> str | None:
    return None if len(v) <= NAME_MAX else f"a text of {len(v):,} characters; at most {NAME_MAX:,}"


#: What each known column means, beyond its declared type. ``(table, column)``.
MEANING: dict[tuple[str, str], Check] = {
    ("game", "name"): game_name,
    ("game", "ruleset"): game_name,
    ("game", "target"): within(bounds.TARGET),
    ("game", "wildcards"): within(bounds.WILDCARDS),
    ("game", "created_at"): timestamp,
    ("game", "finished_at"): timestamp,
    ("game", "winner"): name_text,
    ("player", "name"): name_text,
    ("player", "seat"): within(bounds.Bound(1, 1000, "", "a seat at the table")),
    ("player", "opening"): within(bounds.OPENING),
    ("session", "number"): within(bounds.NIGHT_NUMBER),
    ("session", "opened_at"): timestamp,
    ("session", "closed_at"): timestamp,
    ("entry", "seq"): within(bounds.ROW_ID),
    ("entry", "kind"): short_text,
    ("entry", "hand"): within(bounds.HAND_NUMBER),
    ("entry", "hand_in_session"): within(bounds.HAND_NUMBER),
    ("entry", "dealer"): name_text,
    ("entry", "target_seq"): within(bounds.ROW_ID),
    ("entry", "created_at"): timestamp,
    ("entry", "prev_hash"): sha256,
    ("entry", "hash"): sha256,
    ("result", "points"): within(bounds.HAND_POINTS),
    ("result", "count"): within(bounds.UNMELDED_COUNT),
    ("result", "won"): one_of(0, 1),
    ("result", "current"): one_of(0, 1),
    ("player_total", "points"): within(bounds.TOTAL),
    ("player_total", "hands"): within(bounds.HANDS_PLAYED),
    ("player_total", "best"): within(bounds.HAND_POINTS),
    ("player_total", "worst"): within(bounds.HAND_POINTS),
    ("player_total", "nights_won"): within(bounds.HANDS_PLAYED),
    ("session_total", "points"): within(bounds.TOTAL),
    ("session_total", "hands"): within(bounds.HANDS_PLAYED),
    ("game_total", "hands"): within(bounds.HANDS_PLAYED),
    ("game_total", "entries"): within(bounds.HANDS_PLAYED),
    ("game_total", "head_hash"): sha256,
}
#: Columns holding JSON text (an object), parsed with the same depth limit as the file.
JSON_COLUMNS = {("game", "options"), ("session", "options"), ("entry", "facts")}
GAME_OPTIONS = {"closed_roster": bool, "full_rounds": bool, "method": str, "status": dict, "variations": list}
SESSION_OPTIONS = {"closed_as"}  #: the ledger's own; the rest belongs to the game's kind


def check_rows(doc: dict[str, Any], where: str, schema: dict[str, list[tuple[str, str, bool]]]) -> None:
    """Every cell of every table, against ``schema``: table -> ``[(column, TYPE, nullable)]``
    of the file's own schema version (the scratch database's)."""
    for name, part in doc["tables"].items():
        columns = {c: (t, nullable) for c, t, nullable in schema.get(name, [])}
        for i, row in enumerate(part["rows"]):
            for column, value in zip(part["columns"], row):
                at = f"$.tables.{name}.rows[{i}] ({column})"
                typ, nullable = columns.get(column, ("", True))
                wrong = _cell(name, column, typ, nullable, value, where, at)
                if wrong:
                    raise bad(where, at, wrong)
    _check_games(doc, where)


def _cell(table: str, column: str, typ: str, nullable: bool, v: Any, where: str, at: str) -> str | None:
    if v is None:
        return None if nullable else "must not be null"
    if isinstance(v, float):
        return f"{v!r} is not a whole number" if "INT" in typ else f"{v!r}: expected a text"
    if "INT" in typ:
        if not _whole(v):
            return f"{v!r} is not a whole number"
        if not bounds.INT64_MIN <= v <= bounds.INT64_MAX:
            return f"{v} does not fit in 64 bits"
    elif "CHAR" in typ or "TEXT" in typ or "CLOB" in typ:
        if not isinstance(v, str):
            return f"{v!r}: expected a text"
        if len(v) > TEXT_MAX or "\x00" in v:
            return "a text too long, or holding a NUL character"
    elif not isinstance(v, (str, int)) or isinstance(v, bool):  # a column of no declared type
        return f"{v!r} is not a plain value"
    if (table, column) in JSON_COLUMNS:
        value = parse_json(v, where, at)
        if not isinstance(value, dict):
            return "expected a JSON object"
        if (table, column) == ("game", "options"):
            return _game_options(value)
    meaning = MEANING.get((table, column))
    return meaning(v) if meaning else None


def _game_options(options: dict[str, Any]) -> str | None:
    for key, value in options.items():
        if key not in GAME_OPTIONS:
            return f"unknown option {key!r} (options are {', '.join(GAME_OPTIONS)})"
        if not isinstance(value, GAME_OPTIONS[key]):
            return f"option {key} must be {GAME_OPTIONS[key].__name__}"
    return None


def _check_games(doc: dict[str, Any], where: str) -> None:
    """What spans rows: each game's rule-set text (parsed and validated by the loader), its
    roster (a name once, whatever its case), each session's options (checked by the game's kind:
    a table of players is rebuilt under the game's rule set, which re-validates it)."""
    from rummyref.games.registry import kind_for
    from rummyref.rules.ruleset import check_text, parse_ruleset

    games, rulesets = _table(doc, "game"), {}
    for i, g in enumerate(games):
        at = f"$.tables.game.rows[{i}] (ruleset_text)"
        if "ruleset_text" not in g:
            continue
        try:
            raw = tomllib.loads(g["ruleset_text"])
            check_text(raw, f"the rule set of game {g.get('name')}")
            rulesets[g.get("id")] = parse_ruleset(raw, f"the rule set of game {g.get('name')}")
        except tomllib.TOMLDecodeError as exc:
            raise bad(where, at, f"not a rule set (TOML: {exc})") from None
        except RecursionError:
            raise bad(where, at, "not a rule set (nested too deeply)") from None
        except RummyrefError as exc:
            raise bad(where, at, exc.message) from None
        method = json.loads(g.get("options") or "{}").get("method")
        if method is not None and method != rulesets[g.get("id")].method:
            raise bad(where, f"$.tables.game.rows[{i}] (options)", f"method {method!r} is not its rule set's")
    seen: dict[Any, set[str]] = {}
    for i, p in enumerate(_table(doc, "player")):
        names = seen.setdefault(p.get("game_id"), set())
        if str(p.get("name", "")).casefold() in names:
            raise bad(where, f"$.tables.player.rows[{i}] (name)", f"{p.get('name')!r} is on that game's roster twice")
        names.add(str(p.get("name", "")).casefold())
    for i, s in enumerate(_table(doc, "session")):
        at = f"$.tables.session.rows[{i}] (options)"
        options = json.loads(s.get("options") or "{}")
        if not isinstance(options, dict):
            raise bad(where, at, "not a table of options")
        if options.get("closed_as", "abandoned") != "abandoned":
            raise bad(where, at, f"closed_as {options['closed_as']!r} (only 'abandoned')")
        options = {k: v for k, v in options.items() if k not in SESSION_OPTIONS}
        if not options:
            continue
        rs = rulesets.get(s.get("game_id"))
        if rs is None:
            raise bad(where, at, "a session's options with no game's rule set to check them against")
        try:
            kind_for(rs).check_session_options(rs, options)
        except RummyrefError as exc:
            raise bad(where, at, exc.message) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise bad(where, at, f"not a session of this game ({type(exc).__name__}: {exc})") from None


def _table(doc: dict[str, Any], name: str) -> list[dict[str, Any]]:
    part = doc["tables"].get(name) or {"columns": [], "rows": []}
    return [dict(zip(part["columns"], row)) for row in part["rows"]]
