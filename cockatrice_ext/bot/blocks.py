"""Load a block (bundled name or file) into what a referee needs: engine facts and a deck to sit with.

The engines know cards as :class:`~cockatrice_ext.cards.model.CardFacts`, one per physical card;
Cockatrice knows them by the names in the ``.cod`` the bot loads. Both come from the same resolved
block, in the same order, so ``game_names[i]`` is how Cockatrice spells engine card ``i``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from cockatrice_ext.cards.model import CardDatabase, CardFacts
from cockatrice_ext.decks.resolve_list import CardSources, Say

if TYPE_CHECKING:
    from cockatrice_ext.cards.resolve import ResolvedDeck

LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoadedBlock:
    """A block ready for a referee.

    ``cod`` is the block's library sections as an exported deck (what ``export`` writes: a deck a player
    may load, such as Combat's legal deck); ``""`` for a block not read from a list. The bot's own pile is
    never that text: it is written from :attr:`pile_names` in a secret order (:func:`pile_cod`).
    """

    name: str
    facts: tuple[CardFacts, ...]
    game_names: tuple[str, ...]
    cod: str = ""
    pile: tuple[str, ...] | None = None
    """The names of the cards the bot's pile holds, one per copy, when not the whole block (``None``): a game
    ``!resume`` rebuilds holds only the cards its journal still places in the game."""

    def __len__(self) -> int:
        return len(self.facts)

    @property
    def pile_names(self) -> tuple[str, ...]:
        """The names the bot's pile (its deck, and an Auction game's spares) is written from."""
        return self.game_names if self.pile is None else self.pile

    def only(self, indices: tuple[int, ...]) -> LoadedBlock:
        """The block's cards at ``indices`` (a game's share of a pool); ``cod`` is the whole block's, so a
        part has none."""
        return LoadedBlock(
            name=self.name,
            facts=tuple(self.facts[i] for i in indices),
            game_names=tuple(self.game_names[i] for i in indices),
        )


def pile_cod(deck_name: str, game_names: list[str] | tuple[str, ...], *, spares: bool = False) -> str:
    """A ``.cod`` for the bot's own pile, holding exactly ``game_names``, one ``<card>`` per copy in a secret
    random order; with ``spares``, a second copy of them in the sideboard, in another secret order.

    Servatrice numbers a deck's cards in the order the ``.cod`` lists them and keeps those ids when it
    shuffles, and every player sees the id of each card the bot moves face down. In a fixed order (the
    block's, a public list) an id names the card: a Vortex pick, a private Auction draw. The referee finds
    each card by name afterwards, so only the multiset of names matters to it. The spares are cards whose
    ids nobody has seen with a name: Auction deals its face-down cards from them (see its module).
    """
    import secrets

    from cockatrice_ext.exporters.xmlutil import attr, text

    def zone(name: str) -> str:
        order = list(game_names)
        secrets.SystemRandom().shuffle(order)
        rows = "".join(f'        <card number="1" name="{attr(card)}"/>\n' for card in order)
        return f'    <zone name="{name}">\n{rows}    </zone>\n'

    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n'
        f"    <deckname>{text(deck_name)}</deckname>\n    <comments/>\n"
        f"{zone('main')}{zone('side') if spares else ''}</cockatrice_deck>\n"
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


class CardSourceProblem(ValueError):
    """Card data of the operator's card sources (``--card-source``) that does not load, found as a block is
    read: said as that option's fault, not the block's."""


def _log(line: str) -> None:
    LOGGER.warning("%s", line)


@dataclass(frozen=True)
class BlockReading:
    """How the bot reads its blocks (:func:`read_block`): as ``export`` and ``block check`` read a list
    (:func:`cockatrice_ext.decks.resolve_list.read_block`), over ``card_source`` (``--card-source``; ``None``
    for the default cards), what they say going to ``say``.

    ``own`` are the only files it opens (``bot run``'s ``--auction-block``): any other name is a bundled
    block's, so a block named in room chat never opens a file of its sender's choice, nor says whether one
    exists. ``None`` (an in-process harness, a script) opens any file named."""

    card_source: CardSources | None = None
    own: tuple[str, ...] | None = None
    say: Say = _log


_reading: BlockReading | None = None
"""What :func:`lists_read_by` installed (``None``: nothing, blocks read over the default cards, not kept)."""
_read: dict[str, tuple[tuple[object, ...], ResolvedDeck]] = {}


@contextmanager
def lists_read_by(reading: BlockReading) -> Iterator[None]:
    """While the block is open, :func:`load_block` reads blocks as ``reading`` says when its caller does
    not say otherwise: ``bot run`` gives it the operator's ``--card-source`` and ``--auction-block``, so the
    games it opens (whose code calls ``load_block(spec)``) read blocks as the operator asked. A block read
    is kept until its file or the custom set beside it changes, so what the reader says is said once per
    version of the block."""
    global _reading
    previous = _reading
    _reading = reading
    _read.clear()
    try:
        yield
    finally:
        _reading = previous
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


def block_file(spec: str, own: tuple[str, ...] | None = None) -> Path:
    """The file of block ``spec``: the file it names when ``own`` is ``None`` or holds it, else the bundled
    block of that name.

    Raises:
        KeyError: no such bundled block (naming them).
        ValueError: ``spec`` names a folder or something else than a regular file.
    """
    from cockatrice_ext import blocks

    path = Path(spec).expanduser()
    if (own is not None and spec not in own) or not path.exists():
        return blocks.block_path(spec)
    if path.is_dir():
        raise ValueError(f"{spec} is a folder: give the list or deck file in it")
    if not path.is_file():
        raise ValueError(f"{spec} is not a regular file (a device, pipe or socket): give a list file")
    return path


def read_block(spec: str, reading: BlockReading | None = None) -> ResolvedDeck:
    """Block ``spec`` (a file, else a bundled block's name: :func:`block_file`) read and resolved as
    ``reading`` says (``None``: as :func:`lists_read_by` set, else the default cards, any file).

    Raises:
        KeyError: no such block.
        CardSourceProblem: card data of ``reading.card_source`` that does not load.
        LookupError, ValueError, OSError: a block that does not load (unknown names, an unreadable list, the
            custom set beside it broken).
    """
    from cockatrice_ext.cards.errors import CardDataError
    from cockatrice_ext.decks import resolve_list as lists
    from cockatrice_ext.exporters.model import cockatrice_token_name

    reading = reading or _reading or BlockReading()
    path = block_file(spec, reading.own)
    try:
        return lists.read_block(
            path,
            reading.card_source,
            source=spec,
            say=reading.say,
            token_spelling=cockatrice_token_name,  # as the pile's .cod spells it
        )
    except lists.CustomSetError:
        raise  # the block's fault: a ValueError
    except CardDataError as exc:
        raise CardSourceProblem(str(exc)) from None


def _read_kept(spec: str, reading: BlockReading) -> ResolvedDeck:
    """:func:`read_block` as :func:`lists_read_by` installed ``reading``, kept while the block's files are
    unchanged (until the reading is removed)."""
    stamp = _stamp(spec)  # before reading: a change while it is read is read next time
    kept = _read.get(spec)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    resolved = read_block(spec, reading)
    _read[spec] = (stamp, resolved)
    return resolved


def load_block(
    spec: str, *, sections: tuple[str, ...] | None = None, reading: BlockReading | None = None
) -> LoadedBlock:
    """Block ``spec`` (a file path or a bundled block name) read and resolved as ``reading`` says (``None``:
    as :func:`lists_read_by` set, else over the default cards): :func:`read_block`, the one reader
    ``export`` and ``block check`` share.

    Only the named sections become physical cards (a block list's sideboard is not shuffled in);
    ``sections=None`` takes every library section (block lists group cards under ``## Heading`` sections).
    The chosen sections all go into the ``.cod``'s main zone, the bot's deck.

    Raises:
        KeyError: no such bundled block and no such file.
        cockatrice_ext.cards.resolve.UnknownCardsError: names that do not resolve, all listed.
        CardSourceProblem: the card sources do not load.
    """
    installed = _reading if reading is None else None
    chosen = reading or installed or BlockReading()
    name = block_file(spec, chosen.own).stem
    resolved = _read_kept(spec, installed) if installed is not None else read_block(spec, chosen)
    return _loaded(name, resolved, sections)


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
