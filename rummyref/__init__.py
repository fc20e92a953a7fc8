"""rummyref: the scorekeeper and referee for rummy played with a real deck."""

__version__ = "0.2.0"
