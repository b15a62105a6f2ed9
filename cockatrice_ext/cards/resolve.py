"""Card-name resolution: from what a player typed to a :class:`Card` (and maybe a printing).

Rules, in order of preference:

1. the exact name (``"Fire // Ice"``, ``"Angel Token "`` with Cockatrice's trailing spaces);
2. the same name folded: case, diacritics and ligatures (``Æther`` = ``AEther`` = ``aether``),
   curly quotes, spacing around ``//`` (``Fire//Ice``, ``Fire / Ice``);
3. one half of a split/aftermath/adventure card (``Fire`` -> ``Fire // Ice``), or the front
   face of a double-faced card (``Delver of Secrets``);
4. the back face of a double-faced/flip/meld card (``Insectile Aberration``), with a warning
   because decks list such cards by their front face.

An art-series card (MTGJSON layout ``art_series``: a collectible picture, no card to play) is never
suggested, nor matched by a name alone: its whole name (``Lightning Bolt // Lightning Bolt``, as some sites
write a card whose two faces share a name) means the real card its faces name, as does a line pinned to an
art set (``Lightning Bolt (ASTX) 76``: the real card, with a warning; as a token it would leave the deck).

Commas belong to names (``Jaya Ballard, Task Mage``), nothing splits on them. A set code and
collector number pick the printing; a pin that matches no printing gives a warning, never a
failure (a number the card does not have in the set it names keeps that set's printing, the warning
naming its number there; an Alchemy card's ``A-40`` is its ``40`` too). Unknown names get typo
suggestions from a trigram shortlist ranked with difflib, which stays fast on 30k names.

:func:`resolve_deck` resolves a whole :class:`~cockatrice_ext.decks.model.Deck` and raises one
:class:`UnknownCardsError` listing every unknown name with its line and suggestions.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace

from cockatrice_ext.cards.errors import UnknownCard, UnknownCardsError
from cockatrice_ext.cards.model import Card, CardDatabase, Printing
from cockatrice_ext.cards.mtgjson import SAME_NAME_VARIANT_SETS
from cockatrice_ext.decks.model import Deck, DeckEntry

__all__ = [
    "Match",
    "NameIndex",
    "ResolvedDeck",
    "ResolvedEntry",
    "UnknownCard",
    "UnknownCardsError",
    "fold_name",
    "quote_variants",
    "resolve_deck",
    "resolve_name",
    "shown_name",
    "simple_name",
]

HALF_LAYOUTS = frozenset({"split", "aftermath", "adventure", "prepare"})
BACK_FACE_LAYOUTS = frozenset(
    {"transform", "modal_dfc", "meld", "flip", "reversible_card", "double_faced_token", "art_series"}
)
_TRANSLATE = str.maketrans(
    {
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "’": "'",
        "‘": "'",
        "`": "'",
        "“": '"',
        "”": '"',
        "ß": "ss",
        "\u2010": "-",
        "\u2011": "-",
    }
)
_SLASHES = re.compile(r"\s*/{1,2}\s*")
_SPACES = re.compile(r"\s+")

# priorities: lower wins
_EXACT, _FULL, _HALF, _BACK = 0, 1, 2, 3


def fold_name(name: str) -> str:
    """The comparison key of a card name: no case, accents, ligatures or odd spacing."""
    if name.isascii():  # nothing to decompose: the common case, kept fast for 100k-name indexes
        if "/" not in name and "  " not in name and name.isprintable() and name == name.strip():
            return name.replace("`", "'").lower()  # nothing to respace either
        text = name.replace("`", "'")
    else:
        text = unicodedata.normalize("NFKD", name.translate(_TRANSLATE))
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _SLASHES.sub(" // ", text)
    return _SPACES.sub(" ", text).strip().casefold()


_NOT_SIMPLE = re.compile(r"[^a-z0-9]")


def simple_name(name: str, *, whole: bool = False) -> str:
    """A name's "simple name", as Cockatrice's card database matches a deck's names
    (``CardInfo::simplifyName``): lower case, nothing from ``//`` on (unless ``whole``: then ``//`` is
    punctuation too), ``æ`` as ``ae``, accents and every character but ``a-z`` and ``0-9`` removed (``Gaeas
    Cradle``, ``Sol-Ring``, ``Birds of Paradise.`` match ``Gaea's Cradle``, ``Sol Ring``, ``Birds of
    Paradise``)."""
    text = name.lower().replace("æ", "ae")
    text = text if whole else text.split("//", 1)[0]
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
    return _NOT_SIMPLE.sub("", text)


def shown_name(name: str) -> str:
    """``name`` as said to a person: as it is when plain, else quoted, with how many trailing spaces it has
    (``'Pest Token ' (1 trailing space)``). Cockatrice's token file tells tokens apart by trailing spaces
    (``Soldier Token``, ``Soldier Token  ``), so a file gets the name exact; a person must see them, and a
    list of names joined by ``, `` or ``; `` must not make a trailing space look like part of the separator.
    """
    if name.isprintable() and name == name.strip() and "  " not in name:
        return name
    trailing = len(name) - len(name.rstrip(" "))
    note = f" ({trailing} trailing space{'' if trailing == 1 else 's'})" if trailing else ""
    return f"{name!r}{note}"


def deck_line_name(card: Card) -> str:
    """The name a deck line carries for ``card``: a double-faced, flip or meld card's front face
    (``Valki, God of Lies``, as Cockatrice and Forge list a modal DFC), a split, aftermath or adventure
    card's whole name (``Fire // Ice``), else its name."""
    if " // " not in card.name or card.layout in HALF_LAYOUTS:
        return card.name
    return card.faces[0].name if card.faces else card.name.split(" // ", 1)[0]


_QUOTES = "\"'\u201c\u201d\u2018\u2019"


def quote_variants(name: str) -> list[str]:
    """``name`` with its surrounding quote marks, or without the ones it has: Un-cards are named in quotes
    (``"Ach! Hans, Run!"``), which lists often leave out."""
    bare = name.strip()
    if len(bare) > 1 and bare[0] in _QUOTES and bare[-1] in _QUOTES:
        return [bare[1:-1].strip()]
    return [f'"{bare}"'] if bare else []


@dataclass(frozen=True)
class Match:
    """A resolved name: the card, the pinned printing (or ``None``), and any warnings."""

    card: Card
    printing: Printing | None = None
    warnings: tuple[str, ...] = ()


class NameIndex:
    """Lookup tables over one :class:`CardDatabase`; build once, resolve many names."""

    def __init__(self, db: CardDatabase) -> None:
        self.db = db
        self._folded: dict[str, tuple[int, str]] = {}  # key -> (priority, card name)
        self._art: dict[str, list[str]] = {}  # an art card's folded name or face name -> art cards so named
        for name, card in db.cards.items():
            if _is_art(card):  # never a name's match nor a suggestion: kept aside (:meth:`_art_card`)
                for key in dict.fromkeys(fold_name(n) for n in (name, *(face.name for face in card.faces))):
                    self._art.setdefault(key, []).append(name)
                continue
            self._put(fold_name(name), _FULL, name, card)
            if len(card.faces) > 1:
                priority = _BACK if card.layout in BACK_FACE_LAYOUTS else _HALF
                for index, face in enumerate(card.faces):
                    self._put(fold_name(face.name), _HALF if index == 0 else priority, name, card)
            elif card.faces and card.faces[0].name != name:  # a token Cockatrice renames: "Germ"
                self._put(fold_name(card.faces[0].name), _HALF, name, card)
        self._grams: dict[str, list[int]] | None = None
        self._keys: list[str] = []
        self._simple: dict[str, dict[str, str]] | None = None  # simple name -> folded front name -> a name

    def _put(self, key: str, priority: int, name: str, card: Card) -> None:
        if not key:
            return
        old = self._folded.get(key)
        if old is None:
            self._folded[key] = (priority, name)
            return
        old_priority, old_name = old
        old_card = self.db.cards[old_name]
        # real cards over tokens; then lower priority; then the shorter (untrailed) name
        new_key = (card.is_token, priority, len(name))
        if new_key < (old_card.is_token, old_priority, len(old_name)):
            self._folded[key] = (priority, name)

    def find(self, name: str) -> Card | None:
        """The card ``name`` means, or ``None`` (no printing, no warnings)."""
        match = self.resolve(name)
        return match.card if match else None

    def resolve(
        self, name: str, set_code: str = "", collector_number: str = "", art_index: int = 0
    ) -> Match | None:
        """Resolve ``name`` (and optionally pin a printing; ``art_index``: Forge's, see
        :func:`pick_printing`); ``None`` when nothing matches."""
        warnings: list[str] = []
        card = self.db.cards.get(name)
        if card is None or _is_art(card):
            hit = self._folded.get(fold_name(name)) or self._meld_pair(name)
            for variant in quote_variants(name) if hit is None else ():
                hit = self._folded.get(fold_name(variant))
            if hit is None:
                card = self._art_card(name, set_code)
                if card is None:
                    return None
            else:
                priority, card_name = hit
                card = self.db.cards[card_name]
                if priority == _BACK:
                    warnings.append(f"{name!r} is the back face of {card.name!r}; using the whole card")
        if set_code and pick_printing(card, set_code) is None and self._pinned_art(name, set_code):
            # Lightning Bolt (ASTX) 76: a picture, no card to play (as a token it would leave the deck)
            warnings.append(
                f"{set_code.upper()} prints {name!r} only as an art card, which is not played: using"
                f" {card.name!r} without that printing"
            )
            return Match(card=card, printing=None, warnings=tuple(warnings))
        printing = None
        if set_code or collector_number:
            printing = pick_printing(card, set_code, collector_number, art_index)
            if printing is None and (variant := self._set_variant(card, set_code, collector_number)):
                card, printing = (
                    variant  # Very Cryptic Command (UST) 49d: the card "Very Cryptic Command (d)"
                )
            if printing is None and art_index > 0 and not collector_number and set_code:
                printing, said = _first_art_instead(card, set_code, art_index)
                if printing is not None:
                    warnings.append(said)
            if printing is None:
                art = f"art {art_index}" if art_index and not collector_number else ""
                pin = " ".join(
                    x for x in (f"({set_code.upper()})" if set_code else "", collector_number, art) if x
                )
                printing, why = _in_set_instead(card, set_code, collector_number)
                warnings.append(f"{card.name!r} has no printing {pin}{why}")
        return Match(card=card, printing=printing, warnings=tuple(warnings))

    def _set_variant(self, card: Card, set_code: str, number: str) -> tuple[Card, Printing] | None:
        """The Un-set variant a pinned line names by its printing (``Very Cryptic Command (UST) 49d``: the
        card ``Very Cryptic Command (d)``, as Cockatrice names it: :func:`unset_variant_entry`), with that
        printing; None for any other pin."""
        letter = number[-1:].lower()
        if set_code.upper() not in SAME_NAME_VARIANT_SETS or not letter.isalpha():
            return None
        variant = self.db.cards.get(f"{card.name} ({letter})")
        printing = pick_printing(variant, set_code, number) if variant is not None else None
        return (variant, printing) if variant is not None and printing is not None else None

    def _pinned_art(self, name: str, set_code: str) -> Card | None:
        """The art-series card called ``name`` (its whole name or a face's) printed in ``set_code``, or
        ``None`` (a line pinned to an art set means the real card: :meth:`resolve` says so)."""
        for art_name in self._art.get(fold_name(name), ()):
            art = self.db.cards[art_name]
            if pick_printing(art, set_code) is not None:
                return art
        return None

    def _art_card(self, name: str, set_code: str) -> Card | None:
        """What ``name``, no real card's name, means when an art-series card is so named: the real card its
        faces name, for its whole name (``Lightning Bolt // Lightning Bolt``) or a line pinned to its set
        (``Beholder (AAFR)``: ``Baleful Beholder``); else nothing (a face's name alone, ``Beholder``, names
        no card). An art card itself is never a deck's card: a picture, no card to play."""
        key = fold_name(name)
        for art_name in self._art.get(key, ()):
            pinned = bool(set_code) and pick_printing(self.db.cards[art_name], set_code) is not None
            if fold_name(art_name) != key and not pinned:
                continue
            for face in self.db.cards[art_name].faces:
                hit = self._folded.get(fold_name(face.name))
                if hit is not None:
                    return self.db.cards[hit[1]]
        return None

    def _meld_pair(self, name: str) -> tuple[int, str] | None:
        """``Bruna, the Fading Light // Brisela, Voice of Nightmares`` (MTGJSON's name of a meld card, both
        faces) is the meld card its front names, when the back is what it melds into."""
        front, sep, back = name.partition(" // ")
        hit = self._folded.get(fold_name(front)) if sep else None
        if hit is None:
            return None
        card = self.db.cards[hit[1]]
        if card.layout != "meld" or is_meld_result(card):
            return None
        backs = {fold_name(related) for related in card.related}
        return (_FULL, card.name) if fold_name(back) in backs else None

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        """Up to ``limit`` card names close to ``name`` (best first)."""
        key = fold_name(name)
        if not key:
            return []
        if self._grams is None:
            self._build_grams()
        assert self._grams is not None
        counts: Counter[int] = Counter()
        for gram in _trigrams(key):
            for index in self._grams.get(gram, ()):
                counts[index] += 1
        shortlist = [self._keys[i] for i, _ in counts.most_common(400)]
        if not shortlist:
            shortlist = [k for k in self._keys if k[:1] == key[:1]]
        close = difflib.get_close_matches(key, shortlist, n=limit * 2, cutoff=0.6)
        # also offer names that start with what was typed ("jaya ballard" -> "Jaya Ballard, Task Mage")
        close += [k for k in shortlist if k.startswith(key) and k not in close][:limit]
        names: list[str] = self.simple_matches(name)  # Gaeas Cradle: Gaea's Cradle first
        for k in close:
            hit = self._folded.get(k)
            if hit and is_meld_result(self.db.cards[hit[1]]):
                continue  # no list may hold it: never offered
            if hit is None and k in self._art:
                continue  # an art card's name (Insectile Aberration // Insectile Aberration): no card to play
            card_name = self.db.cards[hit[1]].name if hit else self.db.name_hints[k]
            if card_name not in names:
                names.append(card_name)
        lines = dict.fromkeys(self._deck_line_name(n) for n in names)  # Valki's front, offered once
        return list(lines)[:limit]

    def _deck_line_name(self, name: str) -> str:
        """The name a deck line carries for the card suggested as ``name`` (:func:`deck_line_name`): a
        modal DFC's front face (``Valki, God of Lies``), not MTGJSON's whole name. A card only hinted at
        (``name_hints``, not loaded) is read from the shipped cards for its layout; one unknown there keeps
        its name."""
        if " // " not in name:
            return name
        card = self.db.cards.get(name)
        if card is None:
            card = _stored_card(name)
        return name if card is None else deck_line_name(card)

    def simple_matches(self, name: str) -> list[str]:
        """The names of the cards whose simple name (:func:`simple_name`, Cockatrice's) is ``name``'s, one a
        card (a card's name and its faces' count once), among the cards loaded and every name the card data
        offers as "did you mean" (``name_hints``, which may be cards not loaded yet); none for a name with
        no letter or digit. ``name`` is taken whole: what follows a ``//`` in it is no less part of it
        (Cockatrice drops it: ``Lightning Bolt|Mir`` would be Lightning Bolt, where this project says the
        doubt), while a card's name matches by its front (``Fire.`` is ``Fire // Ice``) or whole."""
        key = simple_name(name, whole=True)
        if not key:
            return []
        if self._simple is None:
            self._build_simple()
        assert self._simple is not None
        return list(self._simple.get(key, {}).values())

    def _build_simple(self) -> None:
        names: list[str] = list(self.db.name_hints.values())
        for card_name, card in self.db.cards.items():
            if not _is_art(card):
                names += [card_name, *(face.name for face in card.faces)]
        simple: dict[str, dict[str, str]] = {}
        for typed in names:
            front = fold_name(typed.split(" // ", 1)[0])
            hit = self._folded.get(fold_name(typed))
            card = hit[1] if hit is not None else front  # a hint not loaded: its front names its card
            for key in {simple_name(typed), simple_name(typed, whole=True)}:
                simple.setdefault(key, {}).setdefault(fold_name(card.split(" // ", 1)[0]), typed)
        self._simple = simple

    def _build_grams(self) -> None:
        self._keys = sorted(set(self._folded) | set(self.db.name_hints))
        grams: dict[str, list[int]] = {}
        for index, key in enumerate(self._keys):
            for gram in _trigrams(key):
                grams.setdefault(gram, []).append(index)
        self._grams = grams


def _stored_card(name: str) -> Card | None:
    """The shipped cards' card called ``name`` (its layout tells a suggestion's deck-line name), or
    ``None`` when it is not there or the shipped data cannot be read."""
    from cockatrice_ext.cards.errors import CardDataError
    from cockatrice_ext.cards.store import shipped_store

    try:
        card = shipped_store().find(name)
    except CardDataError:
        return None
    return card if card is not None and fold_name(card.name) == fold_name(name) else None


def _is_art(card: Card) -> bool:
    """Whether ``card`` is an art-series card: a collectible picture, no card to play."""
    return card.layout == "art_series"


def _trigrams(key: str) -> set[str]:
    padded = f"  {key} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def pick_printing(
    card: Card, set_code: str = "", collector_number: str = "", art_index: int = 0
) -> Printing | None:
    """The printing of ``card`` in ``set_code`` (case-insensitive) with ``collector_number``, if any.

    With only a set code, the first printing in that set, or with ``art_index`` (Forge's ``Name|SET|N``,
    1-based) the Nth of the set's printings of the card in collector-number order, as Forge counts the
    arts of an edition; with only a number, the first printing with that number. An Alchemy card's ``A-40``
    is also its number ``40`` (:func:`is_rebalanced`).
    """
    wanted_set = set_code.strip().upper()
    wanted_number = collector_number.strip().lstrip("0") or collector_number.strip()
    if wanted_set and art_index > 0 and not wanted_number:
        arts = printings_in_set(card, wanted_set)
        return arts[art_index - 1] if art_index <= len(arts) else None
    rebalanced = bool(wanted_number) and is_rebalanced(card)
    for printing in card.printings:
        if wanted_set and printing.set_code.upper() != wanted_set:
            continue
        if wanted_number and not _same_number(printing.collector_number, wanted_number, rebalanced):
            continue
        return printing
    return None


def _first_art_instead(card: Card, set_code: str, art_index: int) -> tuple[Printing | None, str]:
    """For Forge's ``Island|M19|9``, an art index past the arts ``card`` has in ``set_code``: the set's first
    art, and the warning naming the index and how many arts the set has (the set is kept, as for a mistyped
    collector number, not some other set's default printing); ``None`` when the card is not in the set."""
    arts = printings_in_set(card, set_code)
    if not arts:
        return None, ""
    code = set_code.strip().upper()
    first = arts[0]
    count = f"{len(arts)} art{'' if len(arts) == 1 else 's'}"
    number = f" {first.collector_number}" if first.collector_number else ""
    return first, (
        f"{card.name!r} has no art {art_index} in {code} (it has {count} there); using its first,"
        f" ({code}){number}"
    )


def _in_set_instead(card: Card, set_code: str, collector_number: str) -> tuple[Printing | None, str]:
    """For a pin naming a set ``card`` is in but a number it does not have there (``Arcane Signet (C21)
    236``, which is 234 in C21): its first printing in that set, and the end of the warning saying the
    number it has there (the right set, a mistyped number: the set is kept, not some other set's default
    printing). Else ``None`` and the default printing's words."""
    arts = printings_in_set(card, set_code) if set_code and collector_number else []
    if not arts:
        return None, "; using the default printing"
    code = set_code.strip().upper()
    numbers = list(dict.fromkeys(p.collector_number for p in arts if p.collector_number))
    chosen = arts[0]
    number = chosen.collector_number
    if not numbers:
        said = f"it has no number in {code}"
    elif len(numbers) == 1:
        said = f"its number in {code} is {numbers[0]}"
    else:
        said = f"its numbers in {code} are {', '.join(numbers[:8])}" + (", ..." if len(numbers) > 8 else "")
    return chosen, f": {said}, not {collector_number.strip()}; using ({code}) {number}".rstrip()


def is_rebalanced(card: Card) -> bool:
    """Whether ``card`` is an Alchemy card, rebalanced for MTG Arena only: named ``A-`` and numbered ``A-``
    (``A-Alrund, God of the Cosmos``, KHM ``A-40``), as MTGJSON and Scryfall name and number them."""
    return card.name.startswith("A-") and any(
        p.collector_number.upper().startswith("A-") for p in card.printings
    )


def _same_number(have: str, wanted: str, rebalanced: bool) -> bool:
    """Whether printed number ``have`` is the ``wanted`` one (leading zeros, capitals aside); an Alchemy
    card's ``A-40`` is its number ``40`` too (lists from Arena write it so, the ``A-`` in the name)."""
    have = have.lstrip("0") or have
    if have.casefold() == wanted.casefold():
        return True
    if rebalanced and have.upper().startswith("A-") and not wanted.upper().startswith("A-"):
        bare = have[2:].lstrip("0") or have[2:]
        return bare.casefold() == wanted.casefold()
    return False


def printings_in_set(card: Card, set_code: str) -> list[Printing]:
    """``card``'s printings in ``set_code`` in collector-number order (``9`` before ``10``, ``12a`` after
    ``12``): the order of Forge's art indexes."""

    def order(printing: Printing) -> tuple[int, str]:
        digits = re.match(r"\d+", printing.collector_number)
        return (int(digits.group()) if digits else 1 << 30, printing.collector_number)

    wanted = set_code.upper()
    return sorted((p for p in card.printings if p.set_code.upper() == wanted), key=order)


def shown_suggestions(index: NameIndex, name: str) -> tuple[str, ...]:
    """``name``'s suggestions (:meth:`NameIndex.suggest`) as an error says them (:func:`shown_name`: a
    token's trailing spaces quoted and counted): :class:`UnknownCard` keeps them only to be said."""
    return tuple(shown_name(suggestion) for suggestion in index.suggest(name))


def resolve_name(
    db: CardDatabase | NameIndex, name: str, set_code: str = "", collector_number: str = ""
) -> Match:
    """Resolve one name or raise :class:`UnknownCardsError` (with suggestions)."""
    index = db if isinstance(db, NameIndex) else NameIndex(db)
    match = index.resolve(name, set_code, collector_number)
    if match is None:
        raise UnknownCardsError([UnknownCard(name=name, suggestions=shown_suggestions(index, name))])
    return match


@dataclass(frozen=True)
class ResolvedEntry:
    """One deck line resolved: ``count`` copies of ``card``, in ``printing`` if the line pinned one."""

    card: Card
    printing: Printing | None
    count: int
    entry: DeckEntry
    warnings: tuple[str, ...] = ()

    def __iter__(self):  # type: ignore[no-untyped-def]
        """Unpack as ``card, printing, count``."""
        return iter((self.card, self.printing, self.count))


@dataclass
class ResolvedDeck:
    """A deck whose every line is a known card; sections keep the deck's order and names."""

    deck: Deck
    sections: dict[str, list[ResolvedEntry]] = field(default_factory=dict)
    source: str = ""
    """The list's name (its file), where :attr:`warnings` point."""

    @property
    def main(self) -> list[ResolvedEntry]:
        return self.sections.get("main", [])

    @property
    def side(self) -> list[ResolvedEntry]:
        return self.sections.get("side", [])

    @property
    def warnings(self) -> list[str]:
        """Every warning, prefixed with where it points (:func:`~cockatrice_ext.decks.errors.line_place`:
        ``list.txt:5``, ``line 5`` without a source)."""
        from cockatrice_ext.decks.errors import line_place

        out = []
        for _, resolved in self.entries():
            where = line_place(self.source, resolved.entry.line) if resolved.entry.line else ""
            for warning in resolved.warnings:
                out.append(f"{where}: {warning}" if where else warning)
        return out

    def entries(self) -> list[tuple[str, ResolvedEntry]]:
        """Every ``(section, resolved entry)`` in order."""
        return [(s, e) for s, entries in self.sections.items() for e in entries]

    def count(self, section: str | None = None) -> int:
        """Total cards in one section or all."""
        if section is not None:
            return sum(e.count for e in self.sections.get(section, []))
        return sum(e.count for _, e in self.entries())

    def cards(self) -> list[Card]:
        """Each distinct card once, in first-seen order."""
        seen: dict[str, Card] = {}
        for _, e in self.entries():
            seen.setdefault(e.card.name, e.card)
        return list(seen.values())

    def tokens(self, db: CardDatabase) -> list[Card]:
        """The tokens (and other related cards) the deck's cards make that ``db`` knows, each once."""
        out: dict[str, Card] = {}
        for card in self.cards():
            for related in card.related:
                other = db.cards.get(related)
                if other is not None and related not in out:
                    out[related] = other
        return list(out.values())


LIBRARY_SECTIONS = frozenset({"main", "side"})
"""Sections Cockatrice turns into game cards (library, sideboard): no token belongs there."""
TOKENS_SECTION = "tokens"


def is_meld_result(card: Card) -> bool:
    """Whether ``card`` is what two meld cards become (Brisela, Voice of Nightmares): no deck holds it."""
    return card.layout == "meld" and len(card.faces) == 1 and card.faces[0].side == "b"


def melds_into(db: CardDatabase, melded: str) -> list[str]:
    """The meld cards that become ``melded`` (those in ``db``)."""
    return [
        c.name for c in db.cards.values() if c.layout == "meld" and melded in c.related and c.name != melded
    ]


def _with_parenthesis(entry: DeckEntry) -> str:
    """The name with the parenthesis a list reader took for a set code (``Hazmat Suit (Used)``)."""
    return f"{entry.name} ({entry.set_code})"


def lookup_names(deck: Deck) -> list[str]:
    """The names to load card data for, to resolve ``deck``: each entry's, and for one whose set code came
    from a parenthesis the name with it (:func:`resolve_deck` tries both)."""
    names = [entry.name for _, entry in deck.entries()]
    names += [_with_parenthesis(e) for _, e in deck.entries() if e.set_code and not e.collector_number]
    names += [entry.whole_name for _, entry in deck.entries() if entry.whole_name]  # 'Robot x2', one name?
    return names


def resolve_deck(deck: Deck, db: CardDatabase | NameIndex, *, source: str = "") -> ResolvedDeck:
    """Resolve every entry of ``deck`` against ``db``.

    Returns a :class:`ResolvedDeck` with, per section, ``ResolvedEntry(card, printing, count,
    entry, warnings)`` in deck order (``printing`` is ``None`` unless the line named a set). A line whose
    count followed its name (``Robot x2``: ``DeckEntry.whole_name``) is one card of that whole name when the
    card data knows it (a name that ends so is never broken; no real card's does), else the count. A token
    listed in main or side goes to the ``tokens`` section with a warning (Cockatrice keeps tokens in
    the deck's tokens zone, never in a library).
    Raises one :class:`UnknownCardsError` listing every unknown name with its line number and
    suggestions; ``source`` (the file name) prefixes its message.
    """
    index = db if isinstance(db, NameIndex) else NameIndex(db)
    resolved = ResolvedDeck(deck=deck, source=source)
    unknown: list[UnknownCard] = []
    suggested: dict[str, tuple[str, ...]] = {}  # each name's, found once: the error says a name once

    def suggestions(name: str) -> tuple[str, ...]:
        """``name``'s suggestions, for the first names said only (:attr:`UnknownCardsError.SHOWN`)."""
        if name not in suggested:
            shown = len(suggested) < UnknownCardsError.SHOWN
            suggested[name] = shown_suggestions(index, name) if shown else ()
        return suggested[name]

    for section, entries in deck.sections.items():
        out = resolved.sections.setdefault(section, [])
        for entry in entries:
            if entry.whole_name and index.find(entry.whole_name) is not None:  # a designer's 'Robot x2'
                entry = replace(entry, name=entry.whole_name, count=1, whole_name="")
            match = index.resolve(entry.name, entry.set_code, entry.collector_number, entry.art_index)
            if match is None and entry.set_code and not entry.collector_number:
                match = index.resolve(_with_parenthesis(entry))  # "Hazmat Suit (Used)" read as a set
            if match is None:
                unknown.append(
                    UnknownCard(
                        name=entry.name, line=entry.line, section=section, suggestions=suggestions(entry.name)
                    )
                )
                continue
            if is_meld_result(match.card):
                unknown.append(
                    UnknownCard(
                        name=entry.name,
                        line=entry.line,
                        section=section,
                        suggestions=tuple(melds_into(index.db, match.card.name)),
                        reason="is the melded back face of two cards, not a card of its own; list them",
                    )
                )
                continue
            warnings = match.warnings
            target = out
            if match.card.is_token and section in LIBRARY_SECTIONS:
                warnings += (f"{match.card.name!r} is a token: moved from {section} to tokens",)
                target = resolved.sections.setdefault(TOKENS_SECTION, [])
            target.append(ResolvedEntry(match.card, match.printing, entry.count, entry, warnings))
    if unknown:
        raise UnknownCardsError(unknown, source=source)
    return resolved
