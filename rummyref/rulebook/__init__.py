"""Rulebooks as data, and the lookup behind ref ruling."""
