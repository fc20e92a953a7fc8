"""The thin CLI: each command parses, calls the core or the store, and renders.

Command modules must not import the store (sqlmodel) at module level: commands
that need no database must not pay for it (see tests/test_imports.py).
"""
