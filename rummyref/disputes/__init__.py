"""Disputes computed from the facts given (B3, B4, B5, B8 ...)."""
