"""MTG Arena deck text writer.

``Deck`` header, ``N Name (SET) NUM`` lines, a blank line, ``Sideboard`` and its lines
(docs/deck-and-card-formats.md §4.2). Arena needs set and number to pick a printing; a card
without both is written by name alone, which Arena resolves to a default printing. No
``Commander``/``Companion`` sections are written (Cockatrice would read them as card names).
"""

from __future__ import annotations

import re

from .model import ExportDeck, ExportEntry, display_name

_ARENA_SET_RENAMES = {"DOM": "DAR", "CON": "CONF"}
_SAFE = re.compile(r"[\x00-\x1f\x7f]")


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
            key = f"{name} ({_ARENA_SET_RENAMES.get(code, code)}) {' '.join(p.collector_number.split())}"
        totals[key] = totals.get(key, 0) + entry.count
    return [f"{count} {key}" for key, count in totals.items()]


def write_arena(deck: ExportDeck) -> str:
    """Arena import text for ``deck``."""
    lines = ["Deck", *_lines(deck.main)]
    side = _lines(deck.side)
    if side:
        lines += ["", "Sideboard", *side]
    return "\n".join(lines) + "\n"
