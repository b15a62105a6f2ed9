"""MTGO ``.dek`` (XML) writer.

``<Deck>`` with one ``<Cards Quantity= Sideboard= Name=>`` per card. ``CatID`` is MTGO's own
catalogue id; the card data carries none, so it is left out and MTGO/XMage match by name
(XMage ignores CatID anyway). Split cards are written ``Fire/Ice``, other multi-face cards by
their front face (docs/deck-and-card-formats.md §4.1). Cockatrice cannot read this format.
"""

from __future__ import annotations

from .model import ExportDeck, ExportEntry, display_name
from .xmlutil import attr

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
