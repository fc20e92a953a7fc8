"""Low-count games of one hand each, played as matches (Simple Rummy)."""
