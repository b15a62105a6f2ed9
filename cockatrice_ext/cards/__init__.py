"""Card data: one model, many sources, name resolution, the embedded default.

The public API, importable from here (loaded lazily, so ``import cockatrice_ext.cards.model``
stays cheap for the engines):

* :func:`load_cards` (any source, chosen by content), :func:`load_default_cards` (embedded data
  plus ``blocks/*.xml`` custom sets), :func:`load_cards_covering`;
* :func:`resolve_deck` -> :class:`ResolvedDeck`, :func:`resolve_name`, :class:`NameIndex`;
* :class:`CardDataError` (bad input data) and :class:`UnknownCardsError` (unknown names);
* the model: :class:`Card`, :class:`Face`, :class:`Printing`, :class:`CardFacts`, :class:`CardDatabase`.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "load_cards": "sources",
    "load_default_cards": "sources",
    "load_cards_covering": "sources",
    "resolve_deck": "resolve",
    "resolve_name": "resolve",
    "NameIndex": "resolve",
    "ResolvedDeck": "resolve",
    "ResolvedEntry": "resolve",
    "Match": "resolve",
    "CardDataError": "errors",
    "UnknownCardsError": "errors",
    "UnknownCard": "errors",
    "Card": "model",
    "Face": "model",
    "Printing": "model",
    "CardFacts": "model",
    "CardDatabase": "model",
    "CardSet": "model",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
