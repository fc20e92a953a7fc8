"""The long game to a target (Rummy 2,000,000 and its house variants)."""
