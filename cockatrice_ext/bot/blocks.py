"""Load a block (bundled name or file) into what a referee needs: engine facts and a deck to sit with.

The engines know cards as :class:`~cockatrice_ext.cards.model.CardFacts`, one per physical card;
Cockatrice knows them by the names in the ``.cod`` the bot loads. Both come from the same resolved
block, in the same order, so ``game_names[i]`` is how Cockatrice spells engine card ``i``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from cockatrice_ext.cards.model import CardDatabase, CardFacts
from cockatrice_ext.decks.model import Deck

if TYPE_CHECKING:
    from cockatrice_ext.cards.resolve import ResolvedDeck

LOGGER = logging.getLogger(__name__)

ListReader = Callable[[str], "ResolvedDeck"]
"""Reads and resolves a block (a file path or a bundled block's name), raising ``KeyError`` for no such block
and ``LookupError``/``ValueError``/``OSError`` for one that does not load."""

_reader: ListReader | None = None
_read: dict[str, tuple[tuple[object, ...], ResolvedDeck]] = {}


@dataclass(frozen=True)
class LoadedBlock:
    """A block ready for a referee."""

    name: str
    facts: tuple[CardFacts, ...]
    game_names: tuple[str, ...]
    cod: str

    def __len__(self) -> int:
        return len(self.facts)

    def only(self, indices: tuple[int, ...]) -> LoadedBlock:
        """The block's cards at ``indices`` (a game's share of a pool); ``cod`` is the whole block's, so a
        part has none: the bot's pile is written from ``game_names`` (:func:`pile_cod`)."""
        return LoadedBlock(
            name=self.name,
            facts=tuple(self.facts[i] for i in indices),
            game_names=tuple(self.game_names[i] for i in indices),
            cod="",
        )


def pile_cod(deck_name: str, game_names: list[str] | tuple[str, ...]) -> str:
    """A ``.cod`` for the bot's own pile, holding exactly ``game_names``, one ``<card>`` per copy in a secret
    random order.

    Servatrice numbers a deck's cards in the order the ``.cod`` lists them and keeps those ids when it
    shuffles, and every player sees the id of each card the bot moves face down. In a fixed order (the
    block's, a public list) an id names the card: a Vortex pick, a private Auction draw. The referee finds
    each card by name afterwards, so only the multiset of names matters to it.
    """
    import secrets

    from cockatrice_ext.exporters.xmlutil import attr, text

    order = list(game_names)
    secrets.SystemRandom().shuffle(order)
    rows = "".join(f'        <card number="1" name="{attr(name)}"/>\n' for name in order)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n'
        f"    <deckname>{text(deck_name)}</deckname>\n    <comments/>\n"
        f'    <zone name="main">\n{rows}    </zone>\n</cockatrice_deck>\n'
    )


def chat_block_name(name: str, operator_default: str = "") -> str:
    """A block named in chat: a bundled block or the operator's configured one, never a file path.

    Room chat comes from anyone; it must not make the bot open files of its choosing.

    Raises:
        ValueError: anything else, with the bundled names in the message.
    """
    from cockatrice_ext import blocks

    bundled = blocks.list_blocks()
    if name in bundled or (operator_default and name == operator_default):
        return name
    raise ValueError(f"no block called {name[:40]!r}; bundled blocks: {', '.join(bundled)}")


@lru_cache(maxsize=1)
def default_cards() -> CardDatabase:
    """The embedded card database plus the bundled custom sets (cached: it is read-only)."""
    from cockatrice_ext.cards.sources import load_default_cards

    return load_default_cards()


def cards_for_list(deck: Deck) -> CardDatabase:
    """The card data a block list resolves against, as ``export`` and ``block check`` read it: the embedded
    cards (cached), plus every real card the list names that they lack, from the shipped card store
    (:func:`~cockatrice_ext.cards.sources.load_cards_covering`): an operator's own block of real cards."""
    from cockatrice_ext.cards.resolve import NameIndex, lookup_names
    from cockatrice_ext.cards.sources import load_cards_covering

    cards = default_cards()
    names = lookup_names(deck)
    index = NameIndex(cards)
    if all(index.find(name) is not None for name in names):
        return cards
    return load_cards_covering(names)


@contextmanager
def lists_read_by(reader: ListReader) -> Iterator[None]:
    """While the block is open, :func:`load_block` reads and resolves every block with ``reader``: ``bot run``
    gives it the command line's own (``block check``'s and ``export``'s: the operator's ``--card-source``,
    the custom set beside the list, Un-card names without their quote marks, Windows-1252 text with a
    warning), so the bot reads a block as those commands do. A block read is kept until its file or the
    custom set beside it changes, so what the reader says is said once per version of the block."""
    global _reader
    previous = _reader
    _reader = reader
    _read.clear()
    try:
        yield
    finally:
        _reader = previous
        _read.clear()


def _stamp(spec: str) -> tuple[object, ...]:
    """What says a block file (and the custom set beside it) changed: their times and sizes (``None`` for
    one that is not there: a bundled block's name never changes)."""
    path = Path(spec).expanduser()
    stamps: list[object] = []
    for file in (path, path.with_suffix(".xml")):
        try:
            stat = file.stat()
        except (OSError, ValueError):
            stamps.append(None)
        else:
            stamps.append((stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)


def _read_with(reader: ListReader, spec: str) -> ResolvedDeck:
    """``spec`` as ``reader`` resolves it, kept while its files are unchanged."""
    stamp = _stamp(spec)  # before reading: a change while it is read is read next time
    kept = _read.get(spec)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    resolved = reader(spec)
    _read[spec] = (stamp, resolved)
    return resolved


def load_block(
    spec: str, db: CardDatabase | None = None, *, sections: tuple[str, ...] | None = None
) -> LoadedBlock:
    """Resolve block ``spec`` (a file path or a bundled block name) against ``db``; without ``db``, as the
    reader :func:`lists_read_by` installed resolves it (``bot run``'s: the command line's), else against
    :func:`cards_for_list`.

    Only the named sections become physical cards (a block list's sideboard is not shuffled in);
    ``sections=None`` takes every library section (block lists group cards under ``## Heading`` sections).
    The chosen sections all go into the ``.cod``'s main zone, the bot's deck.

    Raises:
        KeyError: no such bundled block and no such file.
        cockatrice_ext.cards.resolve.UnknownCardsError: names that do not resolve, all listed.
    """
    from cockatrice_ext import blocks
    from cockatrice_ext.cards.resolve import resolve_deck
    from cockatrice_ext.decks.blocklist import read_block_list

    path = Path(spec)
    name = path.stem if path.is_file() else spec
    reader = _reader
    if db is None and reader is not None:
        return _loaded(name, _read_with(reader, spec), sections)
    deck = read_block_list(path) if path.is_file() else blocks.open_block(spec)
    for warning in deck.read_warnings:
        LOGGER.warning("%s", warning)
    cards = db if db is not None else cards_for_list(deck)
    return _loaded(name, resolve_deck(deck, cards, source=str(spec)), sections)


def _loaded(name: str, resolved: ResolvedDeck, sections: tuple[str, ...] | None) -> LoadedBlock:
    """The :class:`LoadedBlock` of the resolved block's ``sections`` (``None``: its library sections)."""
    from cockatrice_ext.exporters import from_resolved
    from cockatrice_ext.exporters.cockatrice import write_cod
    from cockatrice_ext.exporters.model import NON_LIBRARY_SECTIONS, display_name

    if sections is None:
        sections = tuple(s for s in resolved.sections if s not in NON_LIBRARY_SECTIONS)
    facts: list[CardFacts] = []
    game_names: list[str] = []
    for section in sections:
        for entry in resolved.sections.get(section, []):
            for _ in range(entry.count):
                facts.append(entry.card.facts(entry.printing))
                game_names.append(display_name(entry.card, "cockatrice"))
    export = from_resolved(resolved)
    export.sections = {"main": [e for s in sections for e in export.sections.get(s, [])]}
    cod = write_cod(export, printings=False).decode("utf-8")
    return LoadedBlock(name=name, facts=tuple(facts), game_names=tuple(game_names), cod=cod)
