"""Read MTGJSON v5 files: AllPrintings, one set (``M19.json``) and AtomicCards; plain, .gz or .xz.

MTGJSON lists one entry per face per printing; entries sharing ``name`` (``"Fire // Ice"``)
are one :class:`Card`. Tokens (set ``tokens`` lists) become token cards, and their
``reverseRelated`` names link the creators to them (``Card.related``: what a card makes). A real
card always wins a name clash with a token. Sets are consumed (popped) as they are read so the
decoded JSON is freed progressively.

MTGJSON 5.2's ``reverseRelated`` on a token also names the *tokens* it is linked to, both ways:
Treasure lists Goblin Shaman (which makes Treasure) and both dungeons that make Treasure, while
Lost Mine of Phandelver lists Goblin and Treasure (which it makes) and the other dungeons. So a
link from one token (or dungeon) to another counts only when the named one's own text creates it
(:func:`creates_token`), as Cockatrice's ``tokens.xml`` has them; a real card named is a maker.

MTGJSON also gives one name to tokens that are different cards: its "Spirit" is a white 1/1 flier
(Lingering Souls'), a blue one, a white-black one, a colourless 1/1 and more. Merged by name they
would share whichever body came first, so a token name whose printings have different bodies
(colours, types, power/toughness, text) becomes one token per body, told apart as Cockatrice's
``tokens.xml`` tells them: the body most printings have keeps the name, the others take trailing
spaces ("Spirit ", "Spirit  "), and a card's link goes to the body its ``reverseRelated`` entry has.
:mod:`cockatrice_ext.cards.tokens` then gives each the name ``tokens.xml`` has for its printings.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.jsonio import load_json
from cockatrice_ext.cards.model import Card, CardDatabase, CardSet, Face, Printing
from cockatrice_ext.cards.text import colors_of, normalise_rarity

LOGGER = logging.getLogger(__name__)


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


_QUOTED = re.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d')  # abilities a created token gets


def creates_token(texts: Iterable[str], token: str) -> bool:
    """Whether one of ``texts`` creates ``token`` ("create ... Treasure token"), quoted abilities aside."""
    pattern = re.compile(r"(?i:\bcreate)[^.]*\b" + re.escape(token.strip()) + r"\b")
    return any(pattern.search(_QUOTED.sub("", text)) for text in texts)


def face_from_mtgjson(entry: dict[str, Any]) -> Face:
    """One MTGJSON card/token entry as a :class:`Face`."""
    mana_value = entry.get("faceManaValue", entry.get("manaValue", entry.get("convertedManaCost", 0)))
    return Face(
        name=str(entry.get("faceName") or entry.get("name") or ""),
        mana_cost=str(entry.get("manaCost") or ""),
        mana_value=float(mana_value or 0),
        colors=colors_of(entry.get("colors") or []),
        supertypes=tuple(entry.get("supertypes") or ()),
        types=tuple(entry.get("types") or ()),
        subtypes=tuple(entry.get("subtypes") or ()),
        type_line=str(entry.get("type") or ""),
        oracle_text=str(entry.get("text") or ""),
        power=_str_or_none(entry.get("power")),
        toughness=_str_or_none(entry.get("toughness")),
        loyalty=_str_or_none(entry.get("loyalty")),
        defense=_str_or_none(entry.get("defense")),
        side=str(entry.get("side") or "a"),
    )


SAME_NAME_VARIANT_SETS = frozenset({"UST"})
"""Sets whose same-named cards are different cards (Unstable's six Very Cryptic Commands): Cockatrice's
Oracle keeps these apart, and only these (its list of such sets is the same)."""

_VARIANT_SUFFIX = re.compile(r"^(.+) \(([^\W\d_])\)$")


def unset_variant_entry(entry: dict[str, Any], seen: set[str]) -> dict[str, Any]:
    """``entry`` named as Cockatrice's Oracle names it within a set of :data:`SAME_NAME_VARIANT_SETS`
    (``seen``: the names of that set's cards before it, MTGJSON's order; ``entry``'s is added): a normal
    card whose name came before and whose collector number ends in a letter is a variant of its own,
    ``Very Cryptic Command (d)`` for 49d; the first keeps the plain name. Tokens are not counted, as
    Oracle skips them."""
    layout = str(entry.get("layout") or "")
    if layout == "token":
        return entry
    name = str(entry.get("faceName") or entry.get("name") or "")
    number = str(entry.get("number") or "")
    variant = name in seen and layout == "normal" and number[-1:].isalpha()
    seen.add(name)
    if not variant:
        return entry
    return {**entry, "name": f"{entry.get('name')} ({number[-1].lower()})", "faceName": None}


def variant_base_name(name: str, printings: Iterable[Printing]) -> str:
    """The printed name of an Un-set variant named as :func:`unset_variant_entry` names it (``Very Cryptic
    Command`` for ``Very Cryptic Command (d)``, printed as UST 49d), for programs that name it so (Forge,
    MTGO, Arena); any other name as it is. A designer's ``Fox (b)`` is no variant: no such printing."""
    match = _VARIANT_SUFFIX.match(name)
    if match is None:
        return name
    letter = match[2]
    for printing in printings:
        number = printing.collector_number
        if printing.set_code.upper() in SAME_NAME_VARIANT_SETS and number[-1:].lower() == letter:
            return match[1]
    return name


@dataclass
class _Pending:
    """A card being assembled from several MTGJSON entries."""

    name: str
    layout: str
    color_identity: tuple[str, ...]
    is_token: bool
    faces: dict[str, Face] = field(default_factory=dict)
    printings: dict[tuple[str, str], Printing] = field(default_factory=dict)
    related: list[str] = field(default_factory=list)
    back_muids: dict[tuple[str, str], str] = field(default_factory=dict)  # a printing's back face's own
    bodies: dict[tuple[str, str], dict[str, Face]] = field(default_factory=dict)  # a token printing's faces

    def finished_printings(self, keys: Iterable[tuple[str, str]] | None = None) -> list[Printing]:
        """The printings (those of ``keys`` if given), each with its back face's own multiverse id where
        it differs from the front's."""
        return [
            replace(p, back_multiverse_id=muid)
            if (muid := self.back_muids.get(key, "")) and muid != p.multiverse_id
            else p
            for key in (self.printings if keys is None else keys)
            if (p := self.printings.get(key)) is not None
        ]

    def variants(self) -> list[tuple[tuple[Face, ...], list[tuple[str, str]]]]:
        """A token's bodies (told apart by the front face), each with the keys of its printings: the body
        most printings have first (the oldest printing breaks a tie). One body, or none recorded
        (AtomicCards): the faces, every key."""
        groups: dict[Face, list[tuple[str, str]]] = {}
        for key in self.printings:
            faces = self.bodies.get(key)
            if faces:  # (an art card may list both faces as side "b")
                groups.setdefault(replace(faces[min(faces)], side="a"), []).append(key)
        if len(groups) < 2:
            return [(_ordered_faces(self.faces), list(self.printings))]
        ranked = sorted(groups.values(), key=lambda keys: (-len(keys), min(map(self._order, keys))))
        ranked[0].extend(key for key in self.printings if not self.bodies.get(key))
        return [(_ordered_faces(max((self.bodies[k] for k in keys), key=len)), keys) for keys in ranked]

    def _order(self, key: tuple[str, str]) -> tuple[str, str, str]:
        printing = self.printings[key]
        return (*_printing_order(printing), printing.collector_number)


def _ordered_faces(faces: dict[str, Face]) -> tuple[Face, ...]:
    """Faces by side (``a`` first); one face as it is."""
    return tuple(faces.values()) if len(faces) == 1 else tuple(faces[s] for s in sorted(faces))


def _printing_order(printing: Printing) -> tuple[str, str]:
    """Oldest first, so ``Card.printings[0]`` is the original printing (and its rarity)."""
    return (printing.release_date, printing.set_code)


class MtgjsonBuilder:
    """Accumulates MTGJSON entries set by set and produces a :class:`CardDatabase`."""

    def __init__(self, source: str = "") -> None:
        self.source = source
        self.cards: dict[str, _Pending] = {}
        self.tokens: dict[str, _Pending] = {}
        self.sets: dict[str, CardSet] = {}
        # named in a token's reverseRelated -> that token's name and printing (code, number)
        self.makes: dict[str, list[tuple[str, tuple[str, str]]]] = {}
        self.token_names: dict[tuple[str, tuple[str, str]], str] = {}  # (name, printing) -> its body's name
        self.variant_of: dict[str, str] = {}  # an Un-set variant's name (Sly Spy (b)) -> the plain name

    def add_set(self, code: str, set_data: dict[str, Any]) -> None:
        """Add one MTGJSON set object (``cards`` and ``tokens`` lists)."""
        card_set = CardSet(
            code=code,
            name=str(set_data.get("name") or ""),
            set_type=str(set_data.get("type") or ""),
            release_date=str(set_data.get("releaseDate") or ""),
        )
        self.sets.setdefault(code, card_set)
        seen: set[str] | None = set() if code in SAME_NAME_VARIANT_SETS else None
        for entry in set_data.get("cards") or ():
            if isinstance(entry, dict):
                if seen is not None:
                    plain = entry.get("name")
                    entry = unset_variant_entry(entry, seen)
                    if entry.get("name") != plain:
                        self.variant_of[str(entry.get("name"))] = str(plain)
                self._add_entry(entry, card_set, token=entry.get("layout") == "token")
        for entry in set_data.get("tokens") or ():
            if isinstance(entry, dict):
                key = self._add_entry(entry, card_set, token=True)
                name = str(entry.get("name") or "")
                for creator in entry.get("reverseRelated") or ():
                    self.makes.setdefault(str(creator), []).append((name, key))

    def add_atomic(self, name: str, faces: list[dict[str, Any]]) -> None:
        """Add one AtomicCards entry (a list of faces, no printings)."""
        for entry in faces:
            if isinstance(entry, dict):
                merged = {"name": name, **entry}
                self._add_entry(merged, None, token=entry.get("layout") == "token")
                pending = (self.tokens if entry.get("layout") == "token" else self.cards).get(name)
                if pending is not None:
                    for code in entry.get("printings") or ():
                        key = (str(code), "")
                        pending.printings.setdefault(key, Printing(set_code=str(code)))

    def _add_entry(self, entry: dict[str, Any], card_set: CardSet | None, *, token: bool) -> tuple[str, str]:
        """Add one entry; return its printing's key (set code, collector number)."""
        name = str(entry.get("name") or "")
        if not name:
            return ("", "")
        table = self.tokens if token else self.cards
        pending = table.get(name)
        if pending is None:
            pending = _Pending(
                name=name,
                layout=str(entry.get("layout") or "normal"),
                color_identity=colors_of(entry.get("colorIdentity") or []),
                is_token=token,
            )
            table[name] = pending
        side = str(entry.get("side") or "a")
        face = face_from_mtgjson(entry) if token or side not in pending.faces else None
        if face is not None:
            pending.faces.setdefault(side, face)
        if card_set is None:
            return ("", "")
        number = str(entry.get("number") or "")
        code = str(entry.get("setCode") or card_set.code)
        if code != card_set.code and code not in self.sets:
            self.sets[code] = CardSet(
                code=code,
                name=f"{card_set.name} Tokens",
                set_type="token",
                release_date=card_set.release_date,
            )
        key = (code, number)
        if face is not None and token:
            pending.bodies.setdefault(key, {}).setdefault(side, face)
        identifiers = entry.get("identifiers") or {}
        if side == "b":  # Oracle gives a double-faced card's back face its own multiverse id
            pending.back_muids.setdefault(key, str(identifiers.get("multiverseId") or ""))
        if key in pending.printings and side != "a":
            return key
        pending.printings[key] = Printing(  # positional: this runs ~60k times for AllPrintings
            code,
            number,
            normalise_rarity(str(entry.get("rarity") or ("token" if token else ""))),
            str(entry.get("uuid") or ""),
            str(identifiers.get("scryfallId") or ""),
            str(identifiers.get("multiverseId") or ""),
            self.sets[code].name,
            card_set.release_date,
        )
        return key

    def _tokens_made(self, creator: str, faces: tuple[Face, ...]) -> tuple[str, ...]:
        """What ``creator`` makes: a real card, every token naming it (the body of the printing that names
        it); a token (of ``faces``), only what its text creates."""
        plain = self.variant_of.get(creator, creator)
        made = dict.fromkeys(
            self.token_names.get(link, link[0]) for link in self.makes.get(plain.rstrip(), ())
        )
        made.pop("", None)
        if plain in self._variant_families():
            return self._variant_share(creator, plain, tuple(made))
        if creator in self.cards or creator.rstrip() not in self.tokens:
            return tuple(made)
        return tuple(t for t in made if creates_token([f.oracle_text for f in faces], t))

    def _variant_families(self) -> set[str]:
        """The plain names that have Un-set variants (:func:`unset_variant_entry`)."""
        return set(self.variant_of.values())

    def _variant_share(self, creator: str, plain: str, made: tuple[str, ...]) -> tuple[str, ...]:
        """Of the tokens MTGJSON links to the plain name of an Un-set family (it names no variant), those
        ``creator``'s text creates (Very Cryptic Command (f)'s Rogue); one no card of the family creates
        stays with the plain-named card."""
        family = [plain, *(name for name, of in self.variant_of.items() if of == plain)]

        def texts(name: str) -> list[str]:
            pending = self.cards.get(name)
            return [face.oracle_text for face in pending.faces.values()] if pending else []

        out: list[str] = []
        for token in made:
            makers = [name for name in family if creates_token(texts(name), token)]
            if creator in makers or (not makers and creator == plain):
                out.append(token)
        return tuple(out)

    def _entries(self) -> Iterable[tuple[_Pending, str, tuple[Face, ...], list[tuple[str, str]] | None]]:
        """Each card to build: its pending entry, name, faces and printing keys (None: all). A token name
        of several bodies is one token per body (the most printed first), the others' names padded with
        spaces; ``token_names`` records each printing's, for the links of the cards that make it."""
        for pending in self.cards.values():
            yield pending, pending.name, _ordered_faces(pending.faces), None
        split = {pending.name: pending.variants() for pending in self.tokens.values()}
        for name, variants in split.items():
            if len(variants) > 1:
                for i, (_, keys) in enumerate(variants):
                    self.token_names.update(((name, key), name + " " * i) for key in keys)
        for pending in self.tokens.values():
            for i, (faces, keys) in enumerate(split[pending.name]):
                yield pending, pending.name + " " * i, faces, keys

    def build(self) -> CardDatabase:
        """The finished database: real cards first, tokens where their name is free."""
        db = CardDatabase(source=self.source)
        db.sets = dict(sorted(self.sets.items()))
        meld_fronts: dict[str, list[str]] = {}  # melded card -> the two cards that meld into it
        entries = list(self._entries())  # every token body named before any card links to one
        for pending, name, faces, keys in entries:
            namesake = db.cards.get(pending.name)  # a real card's name: no token of it
            if name in db.cards or (namesake is not None and not namesake.is_token):
                continue
            identity = pending.color_identity
            if keys is not None and len(keys) < len(pending.printings):  # one of several bodies: its colours
                identity = colors_of([c for face in faces for c in face.colors])
            printings = pending.finished_printings(keys)
            if len(printings) > 1:
                printings.sort(key=_printing_order)
            related = self._tokens_made(name, faces)
            if pending.layout == "meld" and len(faces) == 1 and " // " in name:
                # MTGJSON names a meld front "Front // Melded"; Cockatrice and Scryfall call it
                # "Front", a card of its own that melds into the other (a card of its own too).
                name, _, melded = name.partition(" // ")
                related = (*related, melded)
                meld_fronts.setdefault(melded, []).append(name)
                if name in db.cards:
                    continue
            db.cards[name] = Card(
                name=name,
                layout=pending.layout,
                faces=faces,
                color_identity=identity,
                printings=tuple(printings),
                is_token=pending.is_token,
                related=related,
            )
        for melded, fronts in meld_fronts.items():
            result = db.cards.get(melded)
            if result is not None:
                db.cards[melded] = replace(result, related=tuple(dict.fromkeys((*result.related, *fronts))))
        return db


def read_mtgjson_data(document: Any, *, source: str = "") -> CardDatabase:
    """Build a database from decoded MTGJSON (AllPrintings, a set file or AtomicCards)."""
    if not isinstance(document, dict) or not isinstance(document.get("data"), dict):
        raise CardDataError("not an MTGJSON file (no top-level 'data' object)", source=source)
    try:
        return _read_data(document["data"], source)
    except CardDataError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        raise CardDataError(f"unexpected MTGJSON structure: {exc}", source=source) from exc


def _read_data(data: dict[str, Any], source: str) -> CardDatabase:
    builder = MtgjsonBuilder(source=source)
    if isinstance(data.get("cards"), list):  # one set
        builder.add_set(str(data.get("code") or "?"), data)
        return builder.build()
    for key in list(data):
        value = data.pop(key)  # free as we go
        if isinstance(value, dict) and "cards" in value:
            builder.add_set(str(value.get("code") or key), value)
        elif isinstance(value, list):
            builder.add_atomic(str(key), value)
        else:
            raise CardDataError(f"unexpected MTGJSON entry {key!r}", source=source)
    return builder.build()


def read_mtgjson(path: str | Path, progress: Callable[[int], None] | None = None) -> CardDatabase:
    """Read an MTGJSON file (plain, .gz or .xz): AllPrintings, a per-set file or AtomicCards."""
    label = str(path)
    document = load_json(path, progress)
    db = read_mtgjson_data(document, source=label)
    LOGGER.info("%s: %d cards in %d sets", label, len(db), len(db.sets))
    return db
