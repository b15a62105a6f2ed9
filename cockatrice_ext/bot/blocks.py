"""Load a block (bundled name or file) into what a referee needs: engine facts and a deck to sit with.

The engines know cards as :class:`~cockatrice_ext.cards.model.CardFacts`, one per physical card;
Cockatrice knows them by the names in the ``.cod`` the bot loads. Both come from the same resolved
block, in the same order, so ``game_names[i]`` is how Cockatrice spells engine card ``i``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cockatrice_ext.cards.model import CardDatabase, CardFacts
from cockatrice_ext.decks.model import Deck

LOGGER = logging.getLogger(__name__)


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


def load_block(
    spec: str, db: CardDatabase | None = None, *, sections: tuple[str, ...] | None = None
) -> LoadedBlock:
    """Resolve block ``spec`` (a file path or a bundled block name) against ``db``.

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
    from cockatrice_ext.exporters import from_resolved
    from cockatrice_ext.exporters.cockatrice import write_cod
    from cockatrice_ext.exporters.model import NON_LIBRARY_SECTIONS, display_name

    path = Path(spec)
    if path.is_file():
        deck = read_block_list(path)
        name = path.stem
    else:
        deck = blocks.open_block(spec)
        name = spec
    for warning in deck.read_warnings:
        LOGGER.warning("%s", warning)
    cards = db if db is not None else cards_for_list(deck)
    resolved = resolve_deck(deck, cards, source=str(spec))
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
