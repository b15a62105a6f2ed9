"""Magic Combat Rules deck checks: is a loaded ``.cod`` a legal Combat deck, and the bundled legal deck.

The seed's deck construction (40 cards exactly, singleton, no lands, no planeswalkers) is
:func:`cockatrice_ext.formats.combat.check_deck`; this module reads a player's shared deck list against the
card data (:func:`card_database`), says in one line why it is refused (:func:`describe_problems`), and
offers the bundled legal deck to paste into Cockatrice (:func:`bundled_deck_text`, ``!deck``).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.cards.model import CardDatabase, CardFacts
from cockatrice_ext.formats import combat as rules

LOGGER = logging.getLogger(__name__)


DECK_OFFER = "No legal deck? !deck sends you one (40 cards) to paste into Cockatrice's deck editor."
"""Said with a deck refusal: a newcomer with an ordinary 60-card deck learns that a legal one ships."""


DECK_BLOCK = "combat-deck"
"""The bundled legal deck (``blocks/combat-deck.txt``; also ``cockatrice-ext export combat-deck``)."""


PROBLEM_LABELS = {
    "not_singleton": "more than one copy",
    "land": "lands",
    "planeswalker": "planeswalkers",
}


@dataclass(frozen=True)
class DeckVerdict:
    """The result of checking one loaded deck: ``facts`` when legal, else a one-line ``reason``; ``texts``:
    what each card's rules text can do in a fight (:func:`rules.fight_text_kind`), card by card; ``shown``:
    engine card name -> the name on the card in Cockatrice, where they differ (a flip or double-faced card
    by its front face, as the deck file names it and the player's library shows it)."""

    facts: tuple[CardFacts, ...] | None
    reason: str
    texts: tuple[str, ...] = ()
    shown: dict[str, str] = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        return self.facts is not None


@lru_cache(maxsize=4)
def card_database(source: str = "") -> CardDatabase:
    """The card database deck checks use (cached: read-only).

    ``""`` means ``$COCKATRICE_EXT_CARDS`` if set, else the shipped rules facts of every real card
    (players may bring any card) plus the default database.

    Raises:
        cockatrice_ext.cards.errors.CardDataError: the source does not read.
    """
    from cockatrice_ext.cards.sources import ENV_VAR, load_cards, load_rules_cards

    if not source and not os.environ.get(ENV_VAR, "").strip():
        return load_rules_cards()
    return load_cards(source or None)


def check_cod(
    cod_text: str, *, deck_size: int = rules.DECK_SIZE, db: CardDatabase | None = None
) -> DeckVerdict:
    """Check a loaded ``.cod`` deck (untrusted text) against the deck rules; never raises."""
    from cockatrice_ext.cards.resolve import UnknownCardsError, resolve_deck
    from cockatrice_ext.decks.errors import DeckFormatError
    from cockatrice_ext.decks.readers import read_cod
    from cockatrice_ext.exporters.model import display_name

    if not cod_text.strip():
        return DeckVerdict(None, "no deck list was shared; load your deck again")
    try:
        deck = read_cod(cod_text.encode("utf-8"), source="deck")
    except (DeckFormatError, ValueError) as exc:
        return DeckVerdict(None, f"the deck file does not read ({str(exc)[:120]})")
    deck.sections = {name: entries for name, entries in deck.sections.items() if name == "main"}
    try:
        resolved = resolve_deck(deck, db if db is not None else card_database(), source="deck")
    except UnknownCardsError as exc:
        names = ", ".join(sorted({u.name for u in exc.unknown}))
        return DeckVerdict(None, f"unknown cards: {names[:200]}")
    facts: list[CardFacts] = []
    texts: list[str] = []
    shown: dict[str, str] = {}
    for entry in resolved.main:
        card_facts = entry.card.facts(entry.printing)
        facts.extend([card_facts] * entry.count)
        if (on_card := display_name(entry.card, "cockatrice")) != card_facts.name:
            shown[card_facts.name] = on_card
        kind = rules.fight_text_kind(card_facts, [face.oracle_text for face in entry.card.faces])
        texts.extend([kind] * entry.count)
    problems = rules.check_deck(facts, deck_size=deck_size)
    if not problems:
        return DeckVerdict(tuple(facts), f"deck legal ({len(facts)} cards)", tuple(texts), shown)
    return DeckVerdict(None, describe_problems(problems, deck_size))


COPIES_SHOWN = 2
"""How many names with extra copies a refused deck's reason lists before "and N more": the list comes last
and a 60-card deck has a dozen, which cut the line before its other reasons (seen: "lands" lost)."""


def describe_problems(problems: Iterable[rules.DeckProblem], deck_size: int = rules.DECK_SIZE) -> str:
    """``41 cards (must be exactly 40); lands: Forest; more than one copy: Shock x2``: the short reasons
    first (the count, lands, planeswalkers), the copies last and at most :data:`COPIES_SHOWN` of them
    (``A x4, B x4 and 12 more``), so a chat line keeps every reason."""
    parts: list[str] = []
    grouped: dict[str, list[str]] = {}
    for problem in problems:
        if problem.code == "deck_size":
            parts.append(f"{problem.count} cards (must be exactly {deck_size})")
        elif problem.card is not None:
            label = problem.card + (f" x{problem.count}" if problem.code == "not_singleton" else "")
            grouped.setdefault(problem.code, []).append(label)
    for code in ("land", "planeswalker", "not_singleton"):
        names = grouped.get(code, [])
        listed = ", ".join(names)
        if code == "not_singleton" and len(names) > COPIES_SHOWN + 1:
            listed = f"{', '.join(names[:COPIES_SHOWN])} and {len(names) - COPIES_SHOWN} more"
        if names:
            parts.append(f"{PROBLEM_LABELS[code]}: {listed}")
    return "illegal deck: " + "; ".join(parts)


DECK_HOWTO = (
    "a legal deck (40 cards) was sent to you privately: copy it, then in Cockatrice's deck editor File, Load"
    " deck from clipboard; save it and load it here."
)


@lru_cache(maxsize=1)
def bundled_deck_text() -> str:
    """The bundled legal deck as ``1 Card`` lines (what Cockatrice's "Load deck from clipboard" reads), by
    the names Cockatrice gives the cards.

    Raises:
        Exception: the bundled list or its card data does not load (the caller says so).
    """
    from cockatrice_ext.bot.blocks import load_block

    counts = Counter(load_block(DECK_BLOCK, sections=None).game_names)
    return "\n".join(f"{count} {name}" for name, count in counts.items())


async def bundled_deck_listing() -> str:
    """:func:`bundled_deck_text`, read off the event loop (the game's ``!deck`` and the room's alike).

    Raises:
        NotAllowed: the bundled list or the card data does not load here (logged once per ask).
    """
    try:
        return await asyncio.to_thread(bundled_deck_text)
    except Exception as exc:  # the bundled list or the card data does not load here: say so
        LOGGER.warning("the bundled Combat deck does not load: %s", exc)
        raise NotAllowed("the referee cannot read its bundled deck here; ask its operator") from None
