"""The pure domain core: cards, melds, the solver, rule sets, scoring, sessions, rulebooks.

Nothing here imports the CLI or the database layer.
"""
