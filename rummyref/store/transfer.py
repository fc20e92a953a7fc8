"""``ref export`` and ``ref import``: the whole record as one versioned JSON document.

Generic over the schema: every table of the record (except ``meta``) is written with its column
names and its rows *as stored* (the ``facts`` JSON text byte for byte, hashes, timestamps), so a
table added by a later migration travels without a change here. Rows are tied together by the
declared foreign keys: they decide the order of the tables, which rows belong to a game
(``--game``), and how row ids are renumbered when the rows land in another database.

Import never trusts the file: it is loaded first into a scratch database created at the
file's schema version, its logs compared with the file's own ``chains`` (entries and head
hash, at the file's schema: before the upgrade appends entries of its own), upgraded by the
ordinary migrations, and checked like ``ref verify`` (hash chains, cached totals, foreign keys). Only then are its rows copied into the record, in
one ``BEGIN IMMEDIATE`` transaction that is verified again before it commits.
"""

from __future__ import annotations

import csv
import io
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import text

from rummyref import __version__
from rummyref.errors import (
    IntegrityError,
    NotFound,
    StorageError,
    UnreadableInput,
    WriteConflict,
)
from rummyref.names import escaped
from rummyref.store import dialect, import_checks
from rummyref.store.clock import stamp

FORMAT = "rummyref-export"
VERSION = 1  #: the version of the export format (not of the schema)
SKIPPED = ("meta",)  #: per-database bookkeeping, never exported
ROOT = "game"  #: the table whose rows are "games": a game and every row hanging from it travel together


# -- the shape of the schema, read from the database itself ----------------------------------


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    own_id: str | None  #: the INTEGER PRIMARY KEY renumbered on import (None: no own id)
    keys: tuple[str, ...]  #: primary key columns (for a stable order)
    fks: tuple[tuple[str, str, str], ...]  #: (column, parent table, parent column)


def schema(conn) -> list[Table]:
    """The record's tables, parents before children."""
    names = [n for n in dialect.table_names(conn) if n not in SKIPPED]
    tables = {n: _table(conn, n) for n in names}
    ordered: list[Table] = []
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...] = ()) -> None:
        if name in done or name in path or name not in tables:
            return
        for _, parent, _ in tables[name].fks:
            if parent != name:
                visit(parent, path + (name,))
        done.add(name)
        ordered.append(tables[name])

    for n in names:
        visit(n)
    return ordered


def _table(conn, name: str) -> Table:
    info = dialect.columns(conn, name)
    fks = dialect.foreign_keys(conn, name)
    keys = dialect.primary_key(conn, name)
    fk_cols = {c for c, _, _ in fks}
    own = None
    if len(keys) == 1 and keys[0] not in fk_cols:
        own = keys[0] if dict(info)[keys[0]] == "INTEGER" else None
    return Table(name, tuple(c for c, _ in info), own, keys, fks)


def _rows(conn, t: Table) -> list[tuple]:
    cols = ", ".join(f'"{c}"' for c in t.columns)
    order = ", ".join(f'"{k}"' for k in t.keys) or "rowid"
    return [tuple(r) for r in conn.exec_driver_sql(f'SELECT {cols} FROM "{t.name}" ORDER BY {order}')]


def _game_rows(tables: list[Table], data: dict[str, list[tuple]], roots: set[int]) -> dict[str, set[int]]:
    """Row indexes belonging to the given ROOT rows: every row hanging from them through foreign
    keys (children, their children...), then the parents those rows point at."""
    idx = {t.name: {c: i for i, c in enumerate(t.columns)} for t in tables}
    keep: dict[str, set[int]] = {t.name: set() for t in tables}
    keep[ROOT] = set(roots)

    def values(table: str, col: str) -> set:
        return {data[table][i][idx[table][col]] for i in keep[table]}

    changed = True
    while changed:  # downwards: children of kept rows
        changed = False
        for t in tables:
            for col, parent, pcol in t.fks:
                if parent not in keep or parent == t.name:
                    continue
                wanted = values(parent, pcol)
                new = {i for i, r in enumerate(data[t.name]) if r[idx[t.name][col]] in wanted} - keep[t.name]
                if new:
                    keep[t.name] |= new
                    changed = True
    changed = True
    while changed:  # upwards: parents of kept rows (never their other children)
        changed = False
        for t in tables:
            for col, parent, pcol in t.fks:
                if parent not in keep:
                    continue
                wanted = values(t.name, col)
                new = {i for i, r in enumerate(data[parent]) if r[idx[parent][pcol]] in wanted} - keep[parent]
                if new:
                    keep[parent] |= new
                    changed = True
    return keep


# -- export -------------------------------------------------------------------------------


def export_record(conn, game: str | None = None) -> dict[str, Any]:
    """The record (or one game of it) as an export document."""
    from rummyref.store.engine import schema_version

    tables = schema(conn)
    data = {t.name: _rows(conn, t) for t in tables}
    by_name = {t.name: t for t in tables}
    if game is not None:
        root = by_name[ROOT]
        name_col = root.columns.index("name")
        roots = {i for i, r in enumerate(data[ROOT]) if r[name_col] == game}
        if not roots:
            names = [r[name_col] for r in data[ROOT]]
            raise NotFound(f"no game named {game!r}", hint=f"games: {', '.join(names)}" if names else "the record is empty")
        keep = _game_rows(tables, data, roots)
        data = {n: [r for i, r in enumerate(rows) if i in keep[n]] for n, rows in data.items()}
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema_version": schema_version(conn),
        "ref_version": __version__,
        "exported_at": stamp(),
        "chains": chains(conn, game),
        "tables": {t.name: {"columns": list(t.columns), "rows": [list(r) for r in data[t.name]]} for t in tables},
    }


def chains(conn, game: str | None = None) -> dict[str, dict[str, Any]]:
    """Each game's log: how many entries and the hash at its head."""
    rows = conn.exec_driver_sql(
        "SELECT g.name, COUNT(e.id), (SELECT e2.hash FROM entry e2 WHERE e2.game_id = g.id ORDER BY e2.seq DESC LIMIT 1) "
        "FROM game g LEFT JOIN entry e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id"
    )
    return {n: {"entries": int(c), "head": h} for n, c, h in rows if game is None or n == game}


def export_csv(conn, game: str | None = None) -> str:
    """Per-hand scores for a spreadsheet: an ``opening`` line per game, then one line per hand
    (its record in force). Each player's column adds up to the player's total."""
    games = conn.exec_driver_sql("SELECT id, name FROM game ORDER BY id").fetchall()
    if game is not None:
        games = [g for g in games if g[1] == game]
        if not games:
            raise NotFound(f"no game named {game!r}")
    players: list[str] = []
    lines: list[dict[str, Any]] = []
    rosters = {gid: conn.execute(text("SELECT name, opening FROM player WHERE game_id = :g ORDER BY seat"),
                                 {"g": gid}).fetchall() for gid, _ in games}
    seen: dict[str, int] = {}
    for roster in rosters.values():
        for n, _ in roster:
            seen[n] = seen.get(n, 0) + 1
    for gid, gname in games:
        def column(name: str, gname: str = gname) -> str:  # a name in two games: a column per game
            return f"{gname}: {name}" if seen.get(name, 0) > 1 else name

        roster = rosters[gid]
        players += [column(n) for n, _ in roster if column(n) not in players]
        lines.append({"game": gname, "status": "opening", **{column(n): o for n, o in roster}})
        effective = conn.execute(text(
            "SELECT e.id, e.hand, e.kind, s.number, e.hand_in_session, e.dealer, e.created_at FROM entry e "
            "LEFT JOIN session s ON s.id = e.session_id WHERE e.game_id = :g AND e.hand IS NOT NULL AND e.seq = "
            "(SELECT MAX(e2.seq) FROM entry e2 WHERE e2.game_id = e.game_id AND e2.hand = e.hand) ORDER BY e.hand"),
            {"g": gid},
        ).fetchall()
        for eid, hand, kind, night, his, dealer, created in effective:
            points = {column(n): v for n, v in conn.execute(text(
                "SELECT p.name, r.points FROM result r JOIN player p ON p.id = r.player_id "
                "WHERE r.entry_id = :e AND r.current = 1 ORDER BY p.seat"), {"e": eid},
            ).fetchall()}
            status = {"hand": "hand", "amend": "amended", "void": "void"}.get(kind, kind)
            lines.append({"game": gname, "night": night, "hand": hand, "hand_in_night": his, "dealer": dealer,
                          "status": status, "recorded_at": created, **points})
    buf = io.StringIO()
    head = ["game", "night", "hand", "hand_in_night", "dealer", "status", "recorded_at", *players]
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([csv_cell(h) for h in head])
    writer.writerows([csv_cell(line.get(h)) for h in head] for line in lines)
    return buf.getvalue()


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  #: what a spreadsheet may run as a formula (OWASP)


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as text, never runs: a text beginning like a formula gets
    a leading ``'`` (OWASP's advice for CSV injection). Numbers are written as numbers, so a
    negative score stays a number a spreadsheet can add up; only a name or other text that
    begins with ``-`` is escaped. A control character in a text (a name edited outside ref)
    is written as its escape (``\\x1b``), as every line ref prints writes it."""
    if value is None:
        return ""
    if isinstance(value, str):  # a control character read from the record: escaped, as ref prints it
        return "'" + escaped(value) if value.startswith(FORMULA_START) else escaped(value)
    return value


# -- import -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    games: tuple[str, ...]
    rows: int  #: rows written
    entries: int


def read_document(path: Path) -> dict[str, Any]:
    """The export in ``path``, its envelope checked (its cells are checked by :func:`_scratch`)."""
    from rummyref.store.migrations import LATEST

    where = str(path)
    doc = import_checks.parse_json(import_checks.read_text(path), where)
    import_checks.check_envelope(doc, where, FORMAT, VERSION, LATEST, ROOT)
    return doc


def _scratch(doc: dict[str, Any], folder: Path, where: str) -> Path:
    """Load the document into a new database at its schema version, upgrade it, verify it."""
    from sqlalchemy.exc import DBAPIError

    from rummyref.store.engine import make_engine, migrate

    path = folder / "scratch.db"
    engine = make_engine(str(path))
    try:
        migrate(engine, upto=doc["schema_version"])
        with engine.begin() as conn:
            tables = schema(conn)
            known = {t.name: t for t in tables}
            unknown = set(doc["tables"]) - set(known)
            if unknown:
                raise UnreadableInput(f"{where}: tables {sorted(unknown)} are not in schema version {doc['schema_version']}")
            for t in tables:
                part = doc["tables"].get(t.name)
                extra = set(part["columns"]) - set(t.columns) if part else set()
                if extra:
                    raise UnreadableInput(f"{where}: table {t.name} has columns {sorted(extra)} unknown to schema version {doc['schema_version']}")
            import_checks.check_rows(doc, where, {t.name: _declared(conn, t.name) for t in tables})
            for t in tables:
                part = doc["tables"].pop(t.name, None)  # each table's rows are freed once inserted
                if part is None:
                    continue
                cols = ", ".join(f'"{c}"' for c in part["columns"])
                marks = ", ".join("?" for _ in part["columns"])
                try:
                    for row in part["rows"]:
                        conn.exec_driver_sql(f'INSERT INTO "{t.name}" ({cols}) VALUES ({marks})', tuple(row))
                except DBAPIError as exc:
                    raise IntegrityError(f"{where}: a row of table {t.name} does not fit: {exc.orig}",
                                         hint="the file was changed after ref export wrote it; nothing was imported") from None
            bad = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if bad:
                raise IntegrityError(f"{where}: rows of table {bad[0][0]} point at rows of {bad[0][2]} that are not in the file",
                                     hint="the file was changed after ref export wrote it; nothing was imported")
            # the file's own count and head of each log, at the file's own schema: before the
            # upgrade below, which appends entries of its own (v3: one ``adopt`` per game)
            _same_chains(chains(conn), doc.get("chains") or {}, where)
        migrate(engine)
    finally:
        engine.dispose()
    _verify(str(path), where)
    return path


def _declared(conn, table: str) -> list[tuple[str, str, bool]]:
    """``(column, TYPE, nullable)`` of a table of the scratch database (always SQLite)."""
    return [(r[1], (r[2] or "").upper(), not (r[3] or r[5]))
            for r in conn.exec_driver_sql(f'PRAGMA table_info("{table}")')]


def _same_chains(have: dict, expected: dict, where: str) -> None:
    """The logs loaded from the file are the ones its ``chains`` states (entries, head)."""
    for name, want in expected.items():
        got = have.get(name)
        if got == want:
            continue
        if got is None:
            raise IntegrityError(f"{where}: its chains name game {name!r}, which its tables do not hold",
                                 hint="the game was renamed or removed in the file (a game's name is part of its "
                                      "hash chain); nothing was imported")
        raise IntegrityError(f"{where}: game {name!r} has {_log(got)} in the file's tables, but its chains state "
                             f"{_log(want)}", hint="entries were removed or changed in the file; nothing was imported")
    for name in have if expected else ():  # (an export of schema 1 states no chains)
        if name not in expected:
            raise IntegrityError(f"{where}: game {name!r} is in its tables, but its chains do not state its log",
                                 hint="the game was renamed or added in the file; nothing was imported")


def _log(state: Any) -> str:
    """``12 entries ending 576f2a9c1b3e…``: a log as its chain states it."""
    if not isinstance(state, dict):
        return "no log"
    head = str(state.get("head") or "")
    return f"{state.get('entries')} entries ending {head[:12]}{'…' if len(head) > 12 else ''}"


def _verify(db: str, where: str) -> None:
    """The upgraded scratch database passes ``ref verify`` (every hash recomputed, the
    entries the upgrade appended included)."""
    from rummyref.store import views
    from rummyref.store.record import reading

    with reading(db) as rec:
        report = views.verify(rec)
    if not report.ok:
        p = report.problems[0]
        raise IntegrityError(f"{where} does not verify: {p.game}, {p.where}: {p.what}",
                             hint="the file was changed after ref export wrote it; nothing was imported")


def import_record(db: str | None, path: Path) -> Imported:
    """Copy a verified export into the record; all or nothing."""
    doc = read_document(path)
    with tempfile.TemporaryDirectory(prefix="ref-import-") as folder:
        scratch = _scratch(doc, Path(folder), str(path))
        from rummyref.store.engine import make_engine

        engine = make_engine(str(scratch))
        try:
            with engine.connect() as src:
                tables = schema(src)
                data = {t.name: _rows(src, t) for t in tables}
                src_chains = _entry_hashes(src)
                src.rollback()
        finally:
            engine.dispose()
    return _merge(db, tables, data, src_chains, str(path))


def _entry_hashes(conn) -> dict[str, list[tuple[str, str]]]:
    """Each game's log: (hash, kind) of every entry, in order."""
    out: dict[str, list[tuple[str, str]]] = {}
    for name, h, kind in conn.exec_driver_sql(
        "SELECT g.name, e.hash, e.kind FROM game g JOIN entry e ON e.game_id = g.id ORDER BY g.id, e.seq"
    ):
        out.setdefault(name, []).append((h, kind))
    return out


def _continues(there: list[tuple[str, str]], theirs: list[tuple[str, str]]) -> bool:
    """Whether the file's log of a game is the record's followed by later entries (a newer
    export of the same game): the record's head is in the file's chain."""
    return bool(there) and len(theirs) > len(there) and theirs[:len(there)] == there


def _held(there: list[tuple[str, str]], theirs: list[tuple[str, str]]) -> bool:
    """Whether the record's log of a game already holds the file's: the same entries from the
    first, the record's log perhaps gone on since. An ``adopt`` entry at the file's end was
    made when its 0.1 records were upgraded for this import (it carries the hour of the
    import), so the log before it is what is compared."""
    while theirs and theirs[-1][1] == "adopt":
        theirs = theirs[:-1]
    return bool(theirs) and there[:len(theirs)] == theirs


def _merge(db, tables: list[Table], data: dict[str, list[tuple]], src_chains: dict, where: str) -> Imported:
    from sqlalchemy.exc import DBAPIError

    from rummyref.store import views
    from rummyref.store.record import Written, writing

    root = next(t for t in tables if t.name == ROOT)
    name_col = root.columns.index("name")
    names = [r[name_col] for r in data[ROOT]]
    in_games = _game_rows(tables, data, set(range(len(data[ROOT]))))
    with writing(db, create=True) as rec:
        conn = rec.s.connection()
        there = _entry_hashes(conn)
        existing = {r[0] for r in conn.exec_driver_sql("SELECT name FROM game")}
        clash = [n for n in names if n in existing]
        if clash:
            same = [n for n in clash if there.get(n, []) == src_chains.get(n, [])]
            held = [n for n in clash if n in same or _held(there.get(n, []), src_chains.get(n, []))]
            if len(same) == len(clash):
                raise WriteConflict(f"{where} is already in the record (game {', '.join(same)}, same log); nothing was written",
                                    hint="importing the same export twice would count every hand twice")
            if len(held) == len(clash):
                raise WriteConflict(f"{where} is already in the record (game {', '.join(held)}: the record's log "
                                    "holds the file's, and may have gone on since); nothing was written",
                                    hint="importing the same history twice would count every hand twice")
            differ = [n for n in clash if n not in same]
            ahead = [n for n in differ if n not in held and _continues(there.get(n, []), src_chains.get(n, []))]
            if ahead and len(ahead) + len(held) == len(clash):
                n = ahead[0]
                have, more = len(there.get(n, [])), len(src_chains.get(n, [])) - len(there.get(n, []))
                others = f" (and {', '.join(ahead[1:])} likewise)" if len(ahead) > 1 else ""
                raise WriteConflict(
                    f"{where} continues game {n}{others}: the record already holds {have:,} entries of this "
                    f"game, and the file the same {have:,} followed by {more:,} more; ref import does not "
                    "add entries to a game already in a record; nothing was written",
                    hint="to carry on from the file, import it into a new database (--db NEW) and use that "
                         "record from now on (ref backup this one first); or record the later hands here",
                )
            raise WriteConflict(
                f"{where} contradicts the record: game {', '.join(differ)} exists here with a different log; nothing was written",
                hint="import it into another database (--db PATH): a game's name is part of its hash chain, "
                     "so it cannot be renamed in the file",
            )
        target = {t.name: t for t in schema(conn)}
        missing = [t.name for t in tables if t.name not in target]
        if missing:
            raise StorageError(f"this record has no table {', '.join(missing)}: it is older than {where}",
                               hint="upgrade rummyref; nothing was written")
        ids: dict[str, dict[Any, Any]] = {t.name: {} for t in tables}
        written = 0
        for t in tables:
            mine = target[t.name]
            for i, row in enumerate(data[t.name]):
                values = dict(zip(t.columns, row))
                for col, parent, _pcol in t.fks:
                    if values.get(col) is not None and ids.get(parent) and values[col] in ids[parent]:
                        values[col] = ids[parent][values[col]]
                old = values.pop(t.own_id) if t.own_id else None
                values = {c: v for c, v in values.items() if c in mine.columns}
                if i not in in_games[t.name]:  # a row of no game (shared): reuse an identical one
                    same = dialect.find_same(conn, t.name, values, t.own_id)
                    if same is not None:
                        if t.own_id:
                            ids[t.name][old] = same
                        continue
                try:
                    new_id = dialect.insert(conn, t.name, values, t.own_id)
                except DBAPIError as exc:
                    raise WriteConflict(f"{where}: a row of table {t.name} contradicts the record ({exc.orig}); nothing was written") from None
                written += 1
                if t.own_id:
                    ids[t.name][old] = new_id
        if not written and not data.get("game"):
            raise UnreadableInput(f"{where} holds no game: there is nothing to import; nothing was written",
                                  hint="it was exported from a record with no game in it")
        if not written:
            raise WriteConflict(f"everything in {where} is already in the record; nothing was written")
        report = views.verify(rec)
        if not report.ok:
            p = report.problems[0]
            raise IntegrityError(f"after the import the record would not verify ({p.game}, {p.where}: {p.what}); nothing was written")
        rec.wrote += [Written(name, "import") for name in names]  # what stands if a Ctrl-C follows the commit
    return Imported(tuple(names), written, sum(len(v) for v in src_chains.values()))
