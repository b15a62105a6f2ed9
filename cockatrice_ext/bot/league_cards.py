"""The cards of a league: its block and augments, each player's loaded deck checked against their pool
(the format's deck rules), and pools written out as deck lists."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from cockatrice_ext.bot.blocks import LoadedBlock, load_block
from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cards.typed import match_names, typed_key
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats.base import Engine

MAX_DECK_CARDS = 1000
"""Loaded decks are read up to this many cards (untrusted input; no league deck comes close)."""


PROBLEMS: dict[str, str] = {
    "deck_too_small": "{actual} cards, at least {expected} needed",
    "not_in_pool": "{name} x{expected} but you own {actual}",
    "wrong_hand_size": "{actual} hand cards, exactly {expected} needed (the energy)",
    "library_not_empty": "the library must be empty",
    "wrong_land_count": "{actual} basic lands, exactly {expected} needed",
    "not_basic_land": "{name} is not a basic land",
    "too_many_treasures": "{actual} treasures, at most {expected}",
    "basics_fee_unpaid": "other basic lands than last game cost {expected} treasure(s); you have {actual}",
    "unreadable": "the deck could not be read",
    "no_deck": "no deck loaded",
}


def _block_sections(spec: str) -> tuple[str, ...]:
    """Every library section of a block (blocks group their cards under headers)."""
    from cockatrice_ext import blocks
    from cockatrice_ext.decks.blocklist import read_block_list
    from cockatrice_ext.exporters.model import NON_LIBRARY_SECTIONS

    path = Path(spec)
    deck = read_block_list(path) if path.is_file() else blocks.open_block(spec)
    sections = tuple(s for s, e in deck.sections.items() if e and s not in NON_LIBRARY_SECTIONS)
    return sections or ("main",)


def load_league_block(spec: str) -> LoadedBlock:
    """Load a block for a league.

    Raises:
        BadArgument: no such block, or it does not load.
    """
    try:
        return load_block(spec, sections=_block_sections(spec))
    except KeyError:
        raise BadArgument(f"no block called {spec!r}") from None
    except (LookupError, ValueError, OSError) as exc:
        raise BadArgument(f"block {spec!r} does not load: {str(exc)[:120]}") from None


def default_augments() -> tuple[CardFacts, ...]:
    """The engine's curated augments as cards (from the shipped card data), each card's rarity its
    curated power level."""
    from cockatrice_ext.cards.store import shipped_store

    store = shipped_store()
    facts = []
    for name, rarity in ab.DEFAULT_AUGMENTS:
        card = store.find(name)
        if card is None:
            raise LookupError(f"augment {name!r} is not in the card data")
        facts.append(replace(card.facts(), rarity=rarity))
    return tuple(facts)


def deck_names(cod_text: str) -> tuple[list[str], list[str]] | None:
    """(main, side) card names of a .cod deck, one entry per copy; ``None`` if it cannot be read."""
    from cockatrice_ext.decks.errors import DeckFormatError
    from cockatrice_ext.decks.readers import read_cod

    try:
        deck = read_cod(cod_text.encode("utf-8"), source="loaded deck")
    except (DeckFormatError, ValueError):
        return None
    main: list[str] = []
    side: list[str] = []
    for section, entries in deck.sections.items():
        target = side if section in ("side", "tokens", "maybeboard") else main
        for entry in entries:
            room = MAX_DECK_CARDS - len(main) - len(side)
            target.extend([entry.name] * max(0, min(entry.count, room)))
    return main, side


def canonical_names(names: Iterable[str], facts: Sequence[CardFacts], game_names: Sequence[str]) -> list[str]:
    """Translate Cockatrice spellings back to the engine's card names (others are kept as written).

    A deck's name is the card's when it names it whole or by one face, as players type names
    (:func:`~cockatrice_ext.cards.typed.match_names`: a phone's apostrophe, a dropped accent, ``Fire`` for
    ``Fire // Ice``); the start of a name is no card here (a ``Forest`` is no ``Forest Bear``)."""
    engine_name = {n: f.name for f, n in zip(facts, game_names, strict=False)}
    engine_name.update({f.name: f.name for f in facts})
    table = {n.casefold(): name for n, name in engine_name.items()}
    known = list(engine_name)
    out: list[str] = []
    for typed in names:
        typed = typed.strip()
        exact = table.get(typed.casefold())
        if exact is not None:
            out.append(exact)
            continue
        found = {engine_name[n] for n in match_names(typed, known) if _whole_or_face(typed, n)}
        out.append(found.pop() if len(found) == 1 else typed)
    return out


def _whole_or_face(typed: str, name: str) -> bool:
    """Whether ``typed`` names ``name`` whole or one of its faces (folded as typed names are), not by a
    start of it."""
    key, full = typed_key(typed), typed_key(name)
    return key == full or key in (face.strip() for face in re.split(r"\s*/{1,2}\s*", full))


def check_loaded_deck(
    engine: Engine[Any], player: str, cod_text: str, block: LoadedBlock
) -> list[core.DeckProblem]:
    """The deck rules of the league's format applied to a loaded .cod (empty when legal).

    Market: the main deck (sideboard ignored). AutoBattler: main-deck basic lands are the three lands,
    cards named Treasure are treasures, every other main-deck card is the starting hand; the library is
    empty by construction (the whole deck is hand and lands).
    """
    if not cod_text.strip():
        return [core.DeckProblem("no_deck")]
    read = deck_names(cod_text)
    if read is None:
        return [core.DeckProblem("unreadable")]
    main = canonical_names(read[0], block.facts, block.game_names)
    if isinstance(engine, mk.MarketDraftEngine):
        return engine.check_deck(player, main)
    assert isinstance(engine, ab.AutoBattlerEngine)
    basics = {n.casefold() for n in engine.config.basic_land_names}
    lands = [n for n in main if n.casefold() in basics]
    treasures = sum(1 for n in main if n.casefold() in ("treasure", "treasure token"))
    hand = [
        n for n in main if n.casefold() not in basics and n.casefold() not in ("treasure", "treasure token")
    ]
    return engine.check_deck(player, hand, (), lands, treasures)


def describe_problems(problems: Sequence[core.DeckProblem]) -> str:
    """One line naming every problem of a deck."""
    parts = []
    for problem in problems:
        template = PROBLEMS.get(problem.code, problem.code.replace("_", " "))
        parts.append(template.format(**asdict(problem)))
    return "; ".join(parts)


def deck_verdict(problems: Sequence[core.DeckProblem]) -> tuple[str, str]:
    """A deck's verdict as said in the game, naming no card, and in full for its player alone (``""`` when
    that would say no more): "X x2 but you own 1" tells what a pool holds, and pools are private."""
    if not problems:
        return "deck OK", ""
    unnamed = [problem for problem in problems if not problem.name]
    at_fault = len(problems) - len(unnamed)
    public = describe_problems(unnamed)
    if not at_fault:
        return f"deck not legal: {public}", ""
    public = "; ".join(filter(None, [public, f"{at_fault} card(s) not allowed"]))
    return f"deck not legal: {public}", f"deck not legal: {describe_problems(problems)}"


def pool_list(game_names: Sequence[str]) -> str:
    """A deck list (one ``N Name`` line per card) Cockatrice's deck editor accepts from the clipboard."""
    counts = Counter(game_names)
    return "\n".join(f"{count} {name}" for name, count in sorted(counts.items()))


def pool_cod(name: str, game_names: Sequence[str]) -> str:
    """The pool as a Cockatrice .cod (through the exporters; tokens the cards make are listed too)."""
    from cockatrice_ext.bot.blocks import default_cards
    from cockatrice_ext.decks.model import Deck, DeckEntry
    from cockatrice_ext.exporters.cockatrice import write_cod
    from cockatrice_ext.exporters.model import build_export_deck

    deck = Deck(name=name, comments="League pool from the cockatrice-ext referee")
    counts = Counter(game_names)
    deck.sections["main"] = [DeckEntry(n, c) for n, c in sorted(counts.items())]
    export = build_export_deck(deck, default_cards(), source="pool")
    return write_cod(export, printings=False).decode("utf-8")
