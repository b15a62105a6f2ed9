"""Decks, block lists and the readers of deck formats.

* :mod:`~cockatrice_ext.decks.model`: :class:`Deck` / :class:`DeckEntry`;
* :mod:`~cockatrice_ext.decks.blocklist`: the block-list text format (``parse_block_list``,
  ``read_block_list``, ``format_block_list``);
* :mod:`~cockatrice_ext.decks.readers`: ``read_deck(path_or_text, format=None)`` for .cod, .dek, Forge and
  XMage .dck, Arena, MTGO / MTGGoldfish and plain text, CubeCobra's name list and CSV (imported lazily:
  it needs lxml);
* :mod:`~cockatrice_ext.decks.guidelines`: the auction block-building guidelines, measured.

Every reader raises :class:`DeckFormatError` naming the file and line.
"""

from __future__ import annotations

from typing import Any

from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.model import Deck, DeckEntry

__all__ = [
    "Deck",
    "DeckEntry",
    "DeckFormatError",
    "format_block_list",
    "parse_block_list",
    "read_block_list",
    "read_deck",
]


_BLOCK_LIST_NAMES = ("format_block_list", "parse_block_list", "read_block_list")


def __getattr__(name: str) -> Any:
    """The readers and the block-list format, imported when first asked for (a card look-up needs neither)."""
    if name == "read_deck":
        from cockatrice_ext.decks.readers import read_deck

        return read_deck
    if name in _BLOCK_LIST_NAMES:
        from cockatrice_ext.decks import blocklist

        return getattr(blocklist, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
