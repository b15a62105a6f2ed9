"""MTGO ``.dek`` (XML) writer.

``<Deck>`` with one ``<Cards Quantity= Sideboard= Name=>`` per card. ``CatID`` is MTGO's own
catalogue id; the card data carries none, so it is left out and MTGO/XMage match by name
(XMage ignores CatID anyway). Split cards are written ``Fire/Ice``, other multi-face cards by
their front face (docs/deck-and-card-formats.md §4.1). Cockatrice cannot read this format.

Alchemy cards (rebalanced for MTG Arena only, ``A-Alrund, God of the Cosmos``) are written as the list
names them, the deck's count kept as the list has it; MTGO has none of them, and :func:`alchemy_cards`
names each for the command to say so, with the card it rebalances.
"""

from __future__ import annotations

import re

from cockatrice_ext.cards.resolve import is_rebalanced

from .model import ExportDeck, ExportEntry, display_name
from .xmlutil import attr

_ALCHEMY_PREFIX = re.compile(r"(^|/)A-")

_HEADER = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
    "  <NetDeckID>0</NetDeckID>\n"
    "  <PreconstructedDeckID>0</PreconstructedDeckID>\n"
)


def _totals(entries: list[ExportEntry]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for entry in entries:
        if entry.count > 0:
            name = display_name(entry.card, "mtgo")
            totals[name] = totals.get(name, 0) + entry.count
    return totals


def write_mtgo_dek(deck: ExportDeck) -> bytes:
    """An MTGO ``.dek`` deck: main deck then sideboard, counts summed per name."""
    out = [_HEADER]
    for sideboard, entries in (("false", deck.main), ("true", deck.side)):
        for name, count in _totals(entries).items():
            out.append(
                f'  <Cards Quantity="{count}" Sideboard="{sideboard}" Name="{attr(name)}" Annotation="0" />\n'
            )
    out.append("</Deck>\n")
    return "".join(out).encode("utf-8")


def alchemy_cards(deck: ExportDeck) -> list[tuple[str, str]]:
    """Each Alchemy card of ``deck`` (:func:`~cockatrice_ext.cards.resolve.is_rebalanced`) once, as the
    ``.dek`` names it, with the name of the card it rebalances (``A-Alrund, God of the Cosmos``,
    ``Alrund, God of the Cosmos``): MTGO does not have it."""
    found: dict[str, str] = {}
    for name, entries in deck.sections.items():
        for entry in entries:
            if name != "tokens" and entry.count > 0 and is_rebalanced(entry.card):
                written = display_name(entry.card, "mtgo")
                found.setdefault(written, _ALCHEMY_PREFIX.sub(r"\1", written))
    return list(found.items())
