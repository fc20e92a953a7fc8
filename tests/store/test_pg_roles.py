"""PostgreSQL with an application role that is not the owner (issue 13; the setup of
docs/operations/data-promises.md, whose SQL this test runs as written). Runs in the PostgreSQL
pass only (``RUMMYREF_TEST_PG``; ``.ci/run`` starts a server)."""

from __future__ import annotations

import re
from pathlib import Path

import chain_record
import pytest
from cli_helpers import ref, ref_json
from dbtest import PG_URL, pg_conninfo, with_schema

pytestmark = pytest.mark.needs_pg
DOC = Path(__file__).resolve().parents[2] / "docs" / "operations" / "data-promises.md"


def grants(schema: str, app: str) -> str:
    """The documented GRANTs, for this test's schema and role."""
    blocks = re.findall(r"```sql\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    sql = next(b for b in blocks if "GRANT" in b)
    return sql.replace("SCHEMA public", f"SCHEMA {schema}").replace("ref_app", app)


def as_role(role: str, schema: str) -> str:
    return with_schema(re.sub(r"//[^@/]*@", f"//{role}@", pg_conninfo(PG_URL)), schema)  # type: ignore[arg-type]


@pytest.fixture
def roles(record, _pg_admin):
    schema = record.schema
    owner, app = f"{schema}_owner", f"{schema}_app"
    for r in (owner, app):
        _pg_admin.execute(f"CREATE ROLE {r} LOGIN")
    _pg_admin.execute(f"ALTER SCHEMA {schema} OWNER TO {owner}")
    yield schema, owner, app
    _pg_admin.execute(f"ALTER SCHEMA {schema} OWNER TO CURRENT_USER")
    for r in (owner, app):
        _pg_admin.execute(f"REASSIGN OWNED BY {r} TO CURRENT_USER")
        _pg_admin.execute(f"DROP OWNED BY {r}")
        _pg_admin.execute(f"DROP ROLE {r}")


def _connect(url: str):
    import psycopg

    return psycopg.connect(url, autocommit=True)


REFUSED = (
    "UPDATE entry SET reason = 'x'",
    "DELETE FROM entry",
    "TRUNCATE entry",
    "ALTER TABLE entry DISABLE TRIGGER ALL",
    "DROP TRIGGER entry_append_only_update ON entry",
    "UPDATE player SET opening = 5",
    "UPDATE game SET target = 1",
    "UPDATE session SET options = '{}'",
    "DELETE FROM result",
    "INSERT INTO meta (key, value) VALUES ('x', 'y')",
    "CREATE TABLE sneaky (id INTEGER)",
)


def test_the_app_role_records_everything_and_cannot_undo_the_log(roles):
    import psycopg

    schema, owner, app = roles
    owner_url, app_url = as_role(owner, schema), as_role(app, schema)
    assert ref_json("upgrade", "--db", owner_url)["schema_version"] >= 3
    with _connect(owner_url) as con:
        con.execute(grants(schema, app))
    chain_record.build(app_url)  # both game kinds, amends, voids, a ruling, a finished game
    assert ref("verify", "--db", app_url).exit_code == 0
    with _connect(app_url) as con:
        for sql in REFUSED:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                con.execute(sql)
    assert ref("verify", "--db", app_url).exit_code == 0
    with _connect(owner_url) as con:  # only the owner can do this; verify sees it
        con.execute("ALTER TABLE entry DISABLE TRIGGER entry_append_only_update")
    r = ref("verify", "--db", app_url)
    assert r.exit_code == 8 and "entry_append_only_update is missing or disabled" in r.stdout


def test_the_app_role_cannot_upgrade_the_schema(roles):
    schema, owner, app = roles
    r = ref("new-session", "--db", as_role(app, schema))  # an empty schema: the app may not create tables
    assert r.exit_code == 6 and "Traceback" not in r.stderr
    err = " ".join(r.stderr.split())  # no USAGE: the schema is not there for the app role
    assert "no schema" in err and "the owner must run ref upgrade first" in err
    assert "LINE 1" not in r.stderr and "^" not in r.stderr
    with _connect(as_role(owner, schema)) as con:
        con.execute(f"GRANT USAGE ON SCHEMA {schema} TO {app}")
    r = ref("new-session", "--db", as_role(app, schema))
    assert r.exit_code == 6 and "Traceback" not in r.stderr
    err = " ".join(r.stderr.split())
    assert "permission denied for schema" in err and "run ref upgrade as the owner first" in err
    assert "LINE 1" not in r.stderr and "^" not in r.stderr
