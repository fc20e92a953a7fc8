"""Gin Rummy tests (a package, so that ``reference`` here is not ``tests/reference.py``)."""
