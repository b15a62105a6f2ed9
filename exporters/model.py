"""What every writer reads: a deck whose names are resolved to :class:`Card` objects.

A block list or deck is parsed into a :class:`~cockatrice_ext.decks.model.Deck` (names as the
user wrote them) and resolved against a :class:`~cockatrice_ext.cards.model.CardDatabase`.
:func:`build_export_deck` turns the pair into an :class:`ExportDeck`: each entry carries the
oracle :class:`Card` and the printing it should be written with, so the writers never look
anything up and stay pure.

Each consumer spells multi-face cards differently (Cockatrice keeps ``Fire // Ice`` whole but
wants ``Delver of Secrets`` alone; MTGO writes ``Fire/Ice``); :func:`display_name` is the one
place that knows the table.
"""

from __future__ import annotations

import difflib
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from cockatrice_ext.cards.model import Card, CardDatabase, CardSet, Printing
from cockatrice_ext.cards.mtgjson import variant_base_name
from cockatrice_ext.decks.model import VARIANT_SECTIONS

if TYPE_CHECKING:
    from cockatrice_ext.cards.resolve import ResolvedDeck
    from cockatrice_ext.cards.store import CardStore
    from cockatrice_ext.decks.model import Deck

# MTGJSON layouts whose faces are one card named "A // B" in Cockatrice (Oracle merges them).
COMBINED_LAYOUTS = frozenset({"split", "aftermath", "adventure", "prepare"})
# Layouts Forge (and MTGO/Arena) spell "A // B": only true split cards (Forge AlternateMode:Split).
SPLIT_LAYOUTS = frozenset({"split", "aftermath"})
# Layouts whose faces Cockatrice stores as separate cards linked by related attach="transform".
SEPARATE_FACE_LAYOUTS = frozenset(
    {"transform", "modal_dfc", "flip", "meld", "double_faced_token", "reversible_card", "battle"}
)

TARGETS = ("cockatrice", "forge", "mtgo", "arena")
# Sections that are not part of the library; any other section name is a category of ``main``.
NON_LIBRARY_SECTIONS = frozenset(
    {"side", "tokens", "maybeboard", "commander", "companion", *VARIANT_SECTIONS}
)


def front_name(card: Card) -> str:
    """The front face's name (``Delver of Secrets`` for ``Delver of Secrets // Insectile Aberration``)."""
    if card.faces:
        return card.faces[0].name
    return card.name.split(" // ", 1)[0]


def official_store() -> CardStore | None:
    """The built-in data of every real card and token, or None when it cannot be read."""
    from cockatrice_ext.cards.errors import CardDataError
    from cockatrice_ext.cards.store import shipped_store

    try:
        return shipped_store()
    except CardDataError:
        return None


def real_set(code: str) -> CardSet | None:
    """The real set whose code is ``code`` (any case), or None: Forge ships an edition for each."""
    store = official_store()
    return store.sets.get(code.strip().upper()) if store is not None else None


def known_sets(sets: Mapping[str, CardSet] = {}) -> dict[str, CardSet]:
    """The real sets by code, overlaid by ``sets`` (a deck's own, custom ones included)."""
    store = official_store()
    return {**(store.sets if store is not None else {}), **sets}


def official_set_codes() -> set[str]:
    """Codes of the real sets."""
    store = official_store()
    return set(store.sets) if store is not None else set()


_SELF_REFERENCE = re.compile(
    r"\bthis (?:land|creature|artifact|enchantment|planeswalker|permanent|spell|card|token|battle|"
    r"aura|equipment|vehicle|saga|class|case|room|siege)\b"
)


def _rules_words(card: Card) -> str:
    """A card's rules text to compare across sources and Oracle updates: no reminder text, case,
    punctuation or spacing; its own name and "this land" (creature, ...) alike; "enters the battlefield"
    as today's "enters"."""
    text = " ".join(face.oracle_text for face in card.faces)
    text = re.sub(r"\([^)]*\)", " ", text).casefold()
    for name in sorted({card.name, *(face.name for face in card.faces)}, key=len, reverse=True):
        if name.strip():
            text = text.replace(name.casefold(), " ~ ")
    text = _SELF_REFERENCE.sub(" ~ ", text)
    text = re.sub(r"\benters the battlefield\b", "enters", text)
    return " ".join(re.sub(r"[^\w{}/+~-]+", " ", text).split())


def _body(card: Card) -> list[tuple[object, ...]]:
    """What a card is besides its rules text, face by face: mana cost, types, power and toughness."""
    return [
        (face.mana_cost.upper(), {*face.supertypes, *face.types, *face.subtypes}, face.power, face.toughness)
        for face in card.faces
    ]


def _same_body(mine: Card, real: Card) -> bool:
    """Whether ``mine`` has ``real``'s costs, types and power/toughness (a part ``mine`` leaves blank, as
    hand-made card files may, is not held against it)."""
    if len(mine.faces) != len(real.faces):
        return False
    for own, theirs in zip(_body(mine), _body(real), strict=True):
        if any(value and value != other for value, other in zip(own, theirs, strict=True)):
            return False
    return True


def real_namesake(card: Card) -> Card | None:
    """The real card or token ``card``'s name belongs to, when ``card`` is another one (a designer's card
    named like a real one: other types, cost, power/toughness or rules): Cockatrice and Forge would show
    the real one. Oracle's rewordings ("As this land enters" for "As Blood Crypt enters the
    battlefield"), reminder text and punctuation are no difference."""
    store = official_store()
    real = store.find(card.name) if store is not None else None
    if real is None or real.name != card.name or real.is_token != card.is_token:
        return None
    if card.faces and not card.is_token and not _same_body(card, real):
        return real  # tokens of one name come in many bodies (Spirit Token): their text tells them apart
    mine, theirs = _rules_words(card), _rules_words(real)
    if mine == theirs:
        return None
    if _figures(mine) == _figures(theirs) and difflib.SequenceMatcher(None, mine, theirs).ratio() >= 0.8:
        return None  # the same card, perhaps worded by another source
    return real  # other words, or the same words with other numbers: 4 damage is not Lightning Bolt's 3


_NUMBER_WORDS = frozenset(
    {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twenty", "x"}
)
_FIGURE = re.compile(r"\{[^}]*\}|[+-]?\d+(?:/[+-]?\d+)?|[+-]x(?:/[+-]x)?|\b[a-z]+\b")


def _figures(words: str) -> list[str]:
    """The numbers and symbols of normalised rules text (:func:`_rules_words`), in order: what no
    rewording changes (damage, counters, costs, P/T changes), so that a card that differs only there is
    not taken for the real one however alike the rest reads."""
    return [f for f in _FIGURE.findall(words) if not f.isalpha() or f in _NUMBER_WORDS]


def is_real_card(card: Card) -> bool:
    """Whether ``card`` is an official card or token (the built-in data of every real card and token has
    it: same name, same kind, same rules): Forge has a working script for it."""
    store = official_store()
    real = store.find(card.name) if store is not None else None
    same = real is not None and real.name == card.name and real.is_token == card.is_token
    return same and real_namesake(card) is None


# Set types whose rarities say little about a card (a promo's "rare" Duress): their printings count only
# when the card has no other. Booster sets (expansion, core, masters...) come first.
_PROMO_SET_TYPES = frozenset(
    {"promo", "memorabilia", "box", "masterpiece", "from_the_vault", "spellbook", "arsenal", "token"}
    | {"vanguard"}
)
_BOOSTER_SET_TYPES = frozenset({"expansion", "core", "masters", "draft_innovation", "funny", "starter"})


def usual_rarity(card: Card, sets: Mapping[str, CardSet]) -> str:
    """The rarity ``card``'s printings have most, booster sets' first (``sets`` describes them, the real
    ones known too): promo, memorabilia and special rarities count only when it has no other; a tie goes
    to the earliest set's. ``""`` for a card with none."""
    known = known_sets(sets)

    def rank(printing: Printing) -> tuple[int, bool]:
        kind = known[printing.set_code].set_type if printing.set_code in known else ""
        tier = 2 if kind in _PROMO_SET_TYPES else 0 if not kind or kind in _BOOSTER_SET_TYPES else 1
        return tier, printing.rarity.lower() in ("special", "bonus")

    def released(printing: Printing) -> str:
        return (known[printing.set_code].release_date if printing.set_code in known else "") or "9999"

    rated = [p for p in card.printings if p.rarity]
    if not rated:
        return ""
    best = min(map(rank, rated))
    chosen = [p for p in rated if rank(p) == best]
    counts = Counter(p.rarity.lower() for p in chosen)
    top = max(counts.values())
    return min((p for p in chosen if counts[p.rarity.lower()] == top), key=released).rarity


CUSTOM_SET_DATE = "2000-01-01"
"""The release date of a custom set whose cards carry none (:func:`release_date_for`)."""


def release_date_for(card_set: CardSet, cards: Iterable[Card], sets: Mapping[str, CardSet]) -> str:
    """A release date for ``card_set`` that the input fixes, so an export is the same on any day: its own;
    else ``$SOURCE_DATE_EPOCH``'s day (reproducible builds); else the newest release date (``sets``, the
    real ones known too) of the printings ``cards`` hold; else :data:`CUSTOM_SET_DATE`."""
    if _is_date(card_set.release_date):
        return card_set.release_date
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), tz=UTC).date().isoformat()
    known = known_sets(sets)
    dates = [known[p.set_code].release_date for card in cards for p in card.printings if p.set_code in known]
    return max(filter(_is_date, dates), default=CUSTOM_SET_DATE)


def with_long_name(card_set: CardSet, deck: ExportDeck) -> CardSet:
    """``card_set`` (a custom set or edition the export puts ``deck``'s cards in) with a long name that is
    no code: its own when it has one; else the designer's set's (the custom set, no real one, with a long
    name that the most of ``deck``'s cards are printed in); else the deck's (the list's) name; else the code
    stays the only name. ``--set-code`` alone gave the set its code as its long name (Cockatrice's set list
    and Forge's edition name then showed ``XMYBLK``)."""
    from dataclasses import replace

    own = " ".join(card_set.name.split())
    if own and own.casefold() != card_set.code.strip().casefold():
        return card_set
    official = official_set_codes()
    counts = Counter(code for card in deck.unique_cards() for code in {p.set_code for p in card.printings})
    named = [
        found
        for code, _ in counts.most_common()
        if code not in official
        and (found := deck.sets.get(code)) is not None
        and found.name.strip()
        and found.name.strip().casefold() != code.casefold()
    ]
    name = named[0].name.strip() if named else deck.name.strip()
    return replace(card_set, name=name) if name else card_set


def _is_date(value: str) -> bool:
    return re.fullmatch(r"\d{4}-\d{2}-\d{2}", value or "") is not None


def cockatrice_token_name(card: Card) -> str:
    """Magic-Token's spelling of a token: a generic token named by its creature types (MTGJSON's
    ``Goblin``) is ``Goblin Token``; every other name is kept as it is, because the card data already names
    tokens as Magic-Token does (:mod:`cockatrice_ext.cards.tokens`): ``Phyrexian Germ Token``, same-named
    tokens told apart by trailing spaces (``Insect Token ``), named tokens (``Wasp``, ``Marit Lage``),
    emblems, dungeons and helper cards (``On an Adventure``, ``The Monarch``)."""
    name = card.name
    front = card.front
    generic = "Legendary" not in front.supertypes and name == " ".join(front.subtypes)
    if generic and card.printings and not {p.set_code for p in card.printings} <= official_set_codes():
        return name  # a designer's token, in their own set: its own name, not Magic-Token's real one
    return f"{name} Token" if generic else name


def display_name(card: Card, target: str) -> str:
    """How ``target`` (one of :data:`TARGETS`) spells ``card`` in a deck file.

    Every target matches a name as its card data spells it, so the letters are the card data's: Cockatrice
    looks a ``.cod``'s name up exactly among the ``<name>``s it loaded, which are MTGJSON's for real cards
    (Oracle's ``Æ`` -> ``AE`` finds none: MTGJSON spells them ``Aether``) and the designer's own for a custom
    set's (``Ærgeist``, ``Urza’s``: Cockatrice changes no name it reads from a card file); Forge matches the
    ``Name:`` of a script, which forge-custom writes as the card data spells it. An Un-set variant
    Cockatrice names ``Very Cryptic Command (d)`` is ``Very Cryptic Command`` to the others (its printing
    tells which)."""
    multi = " // " in card.name
    if target == "cockatrice":
        if card.is_token and not multi:
            return cockatrice_token_name(card)
        if not multi or card.layout in COMBINED_LAYOUTS:
            return card.name
        return front_name(card)
    if target == "forge" or target == "arena":
        if not multi:
            return variant_base_name(card.name, card.printings)  # Very Cryptic Command (d): as printed
        if card.layout in SPLIT_LAYOUTS:
            return card.name
        return front_name(card)
    if target == "mtgo":
        if not multi:
            return variant_base_name(card.name, card.printings)
        if card.layout in SPLIT_LAYOUTS:
            return "/".join(part.strip() for part in card.name.split(" // "))
        return front_name(card)
    raise ValueError(f"unknown target {target!r}; expected one of {', '.join(TARGETS)}")


@dataclass(frozen=True)
class ExportEntry:
    """``count`` copies of ``card``, to be written with ``printing`` when one is known; ``line`` is where the
    input listed it (0: not listed, a token the deck's cards make)."""

    card: Card
    count: int = 1
    printing: Printing | None = None
    line: int = 0


@dataclass(frozen=True)
class SideboardMove:
    """One move of a Cockatrice sideboard plan: ``card_name`` from zone ``start_zone`` to ``target_zone``, as
    the .cod said them (text, never looked up)."""

    card_name: str = ""
    start_zone: str = ""
    target_zone: str = ""


@dataclass(frozen=True)
class SideboardPlan:
    """A Cockatrice ``<sideboard_plan>``: its ``name`` (``""`` is Cockatrice's current plan) and its moves."""

    name: str = ""
    moves: tuple[SideboardMove, ...] = ()


@dataclass
class ExportDeck:
    """A resolved deck: named sections of :class:`ExportEntry` plus the sets its printings use.

    ``main`` and ``side`` are the sections every format knows; ``tokens`` (Cockatrice's token
    zone) holds token cards; other section names are kept and folded into ``main`` by writers
    that have no place for them.
    """

    name: str = ""
    comments: str = ""
    sections: dict[str, list[ExportEntry]] = field(default_factory=dict)
    sets: dict[str, CardSet] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    banner_card: str = ""
    banner_provider_id: str = ""
    """The banner card's provider id (a .cod's ``<bannerCard providerId>``), as read; ``""``: none."""
    format: str = ""
    playmat_card: str = ""
    """The card whose art is the player's playmat (a .cod's ``<playmatCard>``), as read."""
    playmat_attributes: dict[str, str] = field(default_factory=dict)
    """The ``<playmatCard>``'s attributes as read (``providerId``, ``zoom``, ...; strings, unchecked)."""
    sideboard_plans: list[SideboardPlan] = field(default_factory=list)
    """A .cod's sideboard plans, in the file's order."""
    melded: list[Card] = field(default_factory=list)
    """The cards the deck's meld cards meld into (:func:`meld_results`), from the card data: no part of
    the deck, but a card database writes them beside their halves."""

    def section(self, name: str) -> list[ExportEntry]:
        return self.sections.setdefault(name, [])

    @property
    def main(self) -> list[ExportEntry]:
        """Every entry that belongs in the library: ``main`` plus category sections (``[Removal]``)."""
        out: list[ExportEntry] = []
        for name, entries in self.sections.items():
            if name not in NON_LIBRARY_SECTIONS:
                out.extend(entries)
        return out

    @property
    def side(self) -> list[ExportEntry]:
        """The sideboard, plus commanders/companions for formats without a command zone (as peer tools do)."""
        out = list(self.sections.get("side", []))
        for name in ("commander", "companion"):
            out.extend(self.sections.get(name, []))
        return out

    @property
    def tokens(self) -> list[ExportEntry]:
        return list(self.sections.get("tokens", []))

    @property
    def variant_sections(self) -> dict[str, list[ExportEntry]]:
        """Forge's sections outside the library that the deck has (:data:`VARIANT_SECTIONS`), in order."""
        return {name: cards for name, cards in self.sections.items() if name in VARIANT_SECTIONS and cards}

    def count(self, section: str | None = None) -> int:
        if section is not None:
            return sum(e.count for e in self.sections.get(section, []))
        return sum(e.count for entries in self.sections.values() for e in entries)

    def unique_cards(self) -> list[Card]:
        """Each distinct card once, in order of first appearance."""
        seen: dict[str, Card] = {}
        for entries in self.sections.values():
            for entry in entries:
                seen.setdefault(entry.card.name, entry.card)
        return list(seen.values())


def build_export_deck(
    deck: Deck, db: CardDatabase, *, source: str = "", with_tokens: bool = True
) -> ExportDeck:
    """Resolve ``deck`` against ``db`` (:func:`cockatrice_ext.cards.resolve.resolve_deck`) for export.

    Raises :class:`~cockatrice_ext.cards.errors.UnknownCardsError` listing *every* unknown name
    with its line and suggestions.
    """
    from cockatrice_ext.cards.resolve import resolve_deck

    return from_resolved(resolve_deck(deck, db, source=source), db if with_tokens else None)


def from_resolved(resolved: ResolvedDeck, db: CardDatabase | None = None) -> ExportDeck:
    """An :class:`ExportDeck` from the card layer's :class:`ResolvedDeck`.

    Entries keep the printing their line pinned (``None`` otherwise, so writers let the target
    program choose). With ``db``, the tokens the deck's cards make (``Card.related`` names that
    are tokens in ``db``) are added to a ``tokens`` section, once each, for Cockatrice's token
    menu; ``db`` also describes the sets the cards are printed in.
    """
    deck = resolved.deck
    out = ExportDeck(
        name=deck.name,
        comments=deck.comments,
        tags=list(deck.tags),
        banner_card=deck.banner_card,
        banner_provider_id=deck.banner_provider_id,
        format=deck.format,
        playmat_card=deck.playmat_card,
        playmat_attributes={str(key): str(value) for key, value in deck.playmat_attributes.items()},
        sideboard_plans=sideboard_plans(deck.sideboard_plans),
    )
    for section, entries in resolved.sections.items():
        if entries:
            out.sections[section] = [
                ExportEntry(card=e.card, count=e.count, printing=e.printing, line=e.entry.line)
                for e in entries
            ]
    if db is not None:
        _add_related_tokens(out, db)
        out.melded = meld_results(out.unique_cards(), db.cards.get)
        used = {e.printing.set_code for entries in out.sections.values() for e in entries if e.printing}
        used |= {p.set_code for card in out.unique_cards() for p in card.printings}
        out.sets = {code: db.sets[code] for code in sorted(used) if code in db.sets}
    return out


def sideboard_plans(plans: Iterable[object]) -> list[SideboardPlan]:
    """:class:`SideboardPlan` objects from a deck's plain ones
    (:attr:`~cockatrice_ext.decks.model.Deck.sideboard_plans`, ``{"name", "moves": [{"card_name",
    "start_zone", "target_zone"}]}``), in order; every value is taken as text, a missing one as ``""``, and
    what is no mapping is no plan or move."""

    def text_of(values: Mapping[object, object], key: str) -> str:
        value = values.get(key)
        return "" if value is None else str(value)

    out: list[SideboardPlan] = []
    for plan in plans:
        if not isinstance(plan, Mapping):
            continue
        raw_moves = plan.get("moves")
        moves = tuple(
            SideboardMove(*(text_of(move, key) for key in ("card_name", "start_zone", "target_zone")))
            for move in (raw_moves if isinstance(raw_moves, list | tuple) else ())
            if isinstance(move, Mapping)
        )
        out.append(SideboardPlan(name=text_of(plan, "name"), moves=moves))
    return out


def _add_related_tokens(deck: ExportDeck, db: CardDatabase) -> None:
    """The tokens the deck's cards make, and the tokens those make (a venture card's dungeon makes Goblins
    and Treasure), each once, after the tokens the deck lists; helper cards (Foretell, The Monarch) are
    no tokens a card makes (:func:`~cockatrice_ext.cards.tokens.tokens_made`)."""
    from cockatrice_ext.cards.tokens import tokens_made

    have = {e.card.name for e in deck.sections.get("tokens", [])}
    extra: list[ExportEntry] = []
    makers = deck.unique_cards()
    for card in makers:  # grows with each token found, so theirs come too
        for token in tokens_made(card, db.cards.get):
            if token.name not in have:
                have.add(token.name)
                extra.append(ExportEntry(card=token, count=1, printing=None))
                makers.append(token)
    if extra:
        deck.section("tokens").extend(extra)


def is_meld_result(card: Card) -> bool:
    """Whether ``card`` is what two meld cards meld into (Brisela, Voice of Nightmares): a back face."""
    return card.layout == "meld" and bool(card.faces) and all(face.side == "b" for face in card.faces)


def meld_results(cards: Iterable[Card], lookup: Callable[[str], Card | None] | None = None) -> list[Card]:
    """The cards ``cards``' meld cards meld into that ``cards`` lack, once each: looked up with
    ``lookup`` (a card database's), else among the real cards."""
    cards = list(cards)
    have = {card.name for card in cards}
    store = None
    found: list[Card] = []
    for card in cards:
        if card.layout != "meld" or is_meld_result(card):
            continue
        for name in card.related:
            if name in have:
                continue
            result = lookup(name) if lookup is not None else None
            if result is None:
                store = store or official_store()
                result = store.find(name) if store is not None else None
            if result is not None and result.name == name and is_meld_result(result):
                have.add(name)
                found.append(result)
    return found


def helper_names(cards: Iterable[Card]) -> set[str]:
    """The names ``cards`` link to (``Card.related``) that are helper cards (Foretell, The Monarch), not
    tokens they make (:func:`~cockatrice_ext.cards.tokens.is_helper_card`): the card of that name among
    ``cards``, else the real one."""
    from cockatrice_ext.cards.tokens import is_helper_card

    known = {card.name: card for card in cards}
    linked = {name for card in known.values() for name in card.related}
    store = official_store() if linked - known.keys() else None
    helpers: set[str] = set()
    for name in linked:
        card = known.get(name) or (store.find(name) if store is not None else None)
        if card is not None and card.name == name and is_helper_card(card):
            helpers.add(name)
    return helpers


def deck_from_cards(
    name: str, cards: Iterable[Card], sets: Mapping[str, CardSet] | None = None
) -> ExportDeck:
    """An :class:`ExportDeck` holding one copy of each card (a card list, a custom set). Each entry's
    ``line`` is its card's place among ``cards``: every card, its tokens too, is listed, not derived, so a
    format with no place for tokens names them as left out."""
    out = ExportDeck(name=name)
    main = out.section("main")
    tokens: list[ExportEntry] = []
    for place, card in enumerate(cards, start=1):
        printing = card.printings[0] if card.printings else None
        entry = ExportEntry(card=card, count=1, printing=printing, line=place)
        (tokens if card.is_token else main).append(entry)
    if tokens:
        out.sections["tokens"] = tokens
    out.sets = dict(sets or {})
    return out


__all__ = [
    "COMBINED_LAYOUTS",
    "CUSTOM_SET_DATE",
    "NON_LIBRARY_SECTIONS",
    "SEPARATE_FACE_LAYOUTS",
    "SPLIT_LAYOUTS",
    "TARGETS",
    "VARIANT_SECTIONS",
    "ExportDeck",
    "ExportEntry",
    "SideboardMove",
    "SideboardPlan",
    "build_export_deck",
    "cockatrice_token_name",
    "deck_from_cards",
    "display_name",
    "from_resolved",
    "front_name",
    "helper_names",
    "is_meld_result",
    "is_real_card",
    "known_sets",
    "meld_results",
    "official_set_codes",
    "official_store",
    "real_namesake",
    "real_set",
    "release_date_for",
    "sideboard_plans",
    "usual_rarity",
    "with_long_name",
]
