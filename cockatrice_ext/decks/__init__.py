"""Decks, block lists and the readers of deck formats."""
