"""The exact meld engine (pure): melds, the solver and its dynamic programme."""
