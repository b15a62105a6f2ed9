"""MTG Arena deck text writer.

``Commander`` and ``Companion`` sections (Brawl, Historic Brawl) when the deck has them, then the
``Deck`` header, ``N Name (SET) NUM`` lines, a blank line, ``Sideboard`` and its lines, in the order
Arena's own export writes them (docs/deck-and-card-formats.md §4.2). Arena needs set and number to
pick a printing; a card without both is written by name alone, which Arena resolves to a default
printing. (Cockatrice reads those two headers as card names: its own formats are cod and text.)

An Alchemy card (rebalanced for Arena: ``A-Alrund, God of the Cosmos``, numbered ``A-40`` in KHM by
MTGJSON and Scryfall) is written as Arena numbers it, ``(KHM) 40``: Arena keeps a rebalanced card under its
original's set and number, the ``A-`` in its name only, and its import reads a number as letters and
digits (:func:`arena_number`).
"""

from __future__ import annotations

import re

from cockatrice_ext.cards.model import Card

from .model import ExportDeck, ExportEntry, display_name

_ARENA_SET_RENAMES = {"DOM": "DAR", "CON": "CONF"}
_SAFE = re.compile(r"[\x00-\x1f\x7f]")


def arena_number(card: Card, number: str) -> str:
    """Printed number ``number`` of ``card`` as Arena writes it: an Alchemy card's ``A-40`` is ``40``
    (:func:`~cockatrice_ext.cards.resolve.is_rebalanced`: its name says ``A-``, and reads back so); any
    other number as it is (runs of spaces made one)."""
    from cockatrice_ext.cards.resolve import is_rebalanced

    number = " ".join(number.split())
    if number[:2].upper() == "A-" and len(number) > 2 and is_rebalanced(card):
        return number[2:]
    return number


def _lines(entries: list[ExportEntry]) -> list[str]:
    totals: dict[str, int] = {}
    for entry in entries:
        if entry.count <= 0:
            continue
        name = " ".join(_SAFE.sub(" ", display_name(entry.card, "arena")).split())
        p = entry.printing
        key = name
        if p is not None and p.set_code and p.collector_number:
            code = p.set_code.upper()
            number = arena_number(entry.card, p.collector_number)
            key = f"{name} ({_ARENA_SET_RENAMES.get(code, code)}) {number}"
        totals[key] = totals.get(key, 0) + entry.count
    return [f"{count} {key}" for key, count in totals.items()]


def write_arena(deck: ExportDeck) -> str:
    """Arena import text for ``deck``: its commanders and companion in Arena's own sections, each
    followed by a blank line, before the ``Deck``."""
    lines: list[str] = []
    for header, section in (("Commander", "commander"), ("Companion", "companion")):
        entries = _lines(deck.sections.get(section, []))
        if entries:
            lines += [header, *entries, ""]
    lines += ["Deck", *_lines(deck.main)]
    side = _lines(deck.sections.get("side", []))
    if side:
        lines += ["", "Sideboard", *side]
    return "\n".join(lines) + "\n"
