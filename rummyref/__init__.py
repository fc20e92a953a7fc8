"""rummyref: the scorekeeper and referee for rummy played with a real deck."""

__version__ = "0.1.0"
