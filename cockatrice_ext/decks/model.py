"""Decks and block lists: named sections of counted card entries.

A block list, a cube, a pool and a deck are all a :class:`Deck`: ``main`` and ``side`` are
the sections Cockatrice and Forge know; any other section name is kept (Forge ``[Commander]``,
a block list's ``# Removal`` header, Cockatrice's ``tokens`` zone). :data:`MAYBE` is the one name
every reader uses for a maybeboard (Moxfield, Archidekt, Cockatrice's ``maybe`` zone), so that
writers can keep it or say they left it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAYBE = "maybeboard"
"""Section name of a maybeboard / considering list, whatever the source called it."""

VARIANT_SECTIONS = {
    "avatar": "Avatar",
    "planes": "Planes",
    "schemes": "Schemes",
    "conspiracy": "Conspiracy",
    "dungeon": "Dungeon",
    "attractions": "Attractions",
    "contraptions": "Contraptions",
}
"""Sections of cards played outside the library (Vanguard, Planechase, Archenemy, ...; Forge's section
names), by the lower-case name readers give them, with Forge's spelling."""


@dataclass(frozen=True)
class DeckEntry:
    """``count`` copies of the card named ``name`` (as written), optionally pinned to a printing.

    ``tags`` are the card's own labels where the source has them (CubeCobra's tags column); no output
    format holds them, so writers announce them as left out.
    """

    name: str
    count: int = 1
    set_code: str = ""
    collector_number: str = ""
    line: int = 0  # 1-based source line, for error messages
    tags: tuple[str, ...] = ()
    art_index: int = 0  # Forge's ``Name|SET|N``: the Nth art of the card in that set (0: not given)
    x_name: str = ""
    """The line's other reading when a spaced ``x`` follows its count (``1 X Walker``: ``X Walker``, where
    ``name`` is ``Walker``): the resolver keeps the one the card data knows (``resolve_list``)."""
    other_reading: tuple[str, ...] = ()
    """The line's other reading ``(name, set_code)`` when the reader was in doubt between two (``Fire|Ice``:
    the split card ``Fire // Ice``, or ``Fire`` of set ICE): the resolver takes the one the card data knows,
    and says the doubt only when it knows both or neither (``resolve_list``)."""
    x_other_reading: tuple[str, ...] = ()
    """``other_reading`` of the line read with ``x_name`` (``1 X Fire|Ice``: ``X Fire`` of set ICE, where
    ``x_name`` is the split card ``X Fire // Ice``): the resolver weighs both of a reading's forms."""
    whole_name: str = ""
    """The line's name with the count a hand-written list puts after it (``Lightning Bolt x4``, ``*4``,
    ``×4``; ``name`` is ``Lightning Bolt``, ``count`` 4): the resolver reads it as one card of that whole
    name when the card data knows one (a designer's ``Robot x2``; ``cards.resolve.resolve_deck``)."""


@dataclass
class Deck:
    """A named, ordered collection of sections."""

    name: str = ""
    comments: str = ""
    sections: dict[str, list[DeckEntry]] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)  # Cockatrice <tags>, Forge Tags=
    banner_card: str = ""  # Cockatrice <bannerCard>: the card shown for the deck
    banner_provider_id: str = ""
    """The ``<bannerCard>``'s ``providerId`` attribute as written (which printing's art Cockatrice shows;
    a string, unchecked), for a .cod writer to write back; ``""`` when the file has none or an empty one."""
    format: str = ""  # Cockatrice <format> (e.g. "commander"); may be empty
    encoding: str = ""  # the text's encoding when not UTF-8 ("Windows-1252"), for the command line to say
    playmat_card: str = ""  # Cockatrice <playmatCard>: the card whose art is the player's playmat
    playmat_attributes: dict[str, str] = field(default_factory=dict)
    """The ``<playmatCard>`` attributes as written (``providerId``, ``marginPctL``, ``marginPctR``,
    ``verticalOffset``, ``zoom``; strings, unchecked), for a .cod writer to write back."""
    sideboard_plans: list[dict[str, Any]] = field(default_factory=list)
    """Cockatrice ``<sideboard_plan>`` elements as read, in order, plain values: ``{"name": str, "moves":
    [{"card_name": str, "start_zone": str, "target_zone": str}, ...]}`` (a move's missing element is
    ``""``)."""
    read_warnings: list[str] = field(default_factory=list)  # what the reader changed, for the user to hear

    def section(self, name: str) -> list[DeckEntry]:
        return self.sections.setdefault(name, [])

    @property
    def main(self) -> list[DeckEntry]:
        return self.section("main")

    @property
    def side(self) -> list[DeckEntry]:
        return self.section("side")

    def count(self, section: str | None = None) -> int:
        """Total cards, in one section or all."""
        if section is not None:
            return sum(e.count for e in self.sections.get(section, []))
        return sum(e.count for entries in self.sections.values() for e in entries)

    def entries(self) -> list[tuple[str, DeckEntry]]:
        """Every ``(section, entry)`` in order."""
        return [(s, e) for s, entries in self.sections.items() for e in entries]
