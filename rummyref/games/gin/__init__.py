"""Gin Rummy: a hand settled from the cards (``engine``) and a game to 100 (``game``)."""
