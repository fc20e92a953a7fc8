"""The record: SQLModel over a real SQLite file (imported only inside CLI command functions).

- ``location``: where the database lives (``--db``, ``$RUMMYREF_DB``, the user data dir);
- ``engine``: the engine, per-connection pragmas, ``BEGIN IMMEDIATE`` writes, migrations;
- ``migrations``: the ordered list of schema steps (v1, v2, ...);
- ``models``: the SQLModel tables of the latest schema;
- ``record``: the operations (games, nights, hands, corrections) inside one transaction;
- ``views``: the read side (standings, history) and ``verify``.
"""
