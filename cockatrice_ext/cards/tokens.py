"""Tokens, emblems and dungeons named as Cockatrice names them (Magic-Token's ``tokens.xml``).

MTGJSON names a token by its card name ("Germ", "Arlinn Kord Emblem"); Cockatrice's token
database names the same printing "Phyrexian Germ Token" or "Arlinn, Embraced by the Moon Emblem",
and tells same-named tokens apart with trailing spaces ("Soldier Token", "Soldier Token "). No
suffix rule reproduces that, so :func:`apply_cockatrice_token_names` matches data:

1. each token printing whose Scryfall id is a printing of ``tokens.xml`` takes that entry's name;
2. a printing without such a match joins the name most of its card's printings took;
3. a token none of whose printings match takes the ``NAME Token`` or ``SUBTYPES Token`` of
   ``tokens.xml`` (trailing spaces and all) that has the same colours, power/toughness and rules
   text (reminder text aside), else the one without trailing spaces if it has the same colours and
   power/toughness; else it keeps its MTGJSON name (art cards, ads and the like, which Cockatrice does
   not list).

A card here is one body: MTGJSON gives one name to different tokens (its "Spirit": white fliers,
blue fliers, white-black fliers, colourless 1/1s, ...), and :mod:`cockatrice_ext.cards.mtgjson`
makes that one token per body, the rarer bodies' names padded with spaces. So step 2 never puts a
printing under another body's name, and the cards that make a token link to its own body.

Each token named as ``tokens.xml`` names it takes that token's faces (its body as Cockatrice shows
it): Lingering Souls makes "Spirit Token", the white 1/1 flier, whatever body MTGJSON listed first
under "Spirit". The name most of a card's printings took keeps MTGJSON's face names, so "Germ"
still finds "Phyrexian Germ Token", and keeps MTGJSON's faces where ``tokens.xml`` has another number
of faces ("Dinosaur // Treasure" is "Dinosaur Token"). A token ``tokens.xml`` does not list keeps
its printings' MTGJSON body.

Links follow: a card that made "Germ" makes "Phyrexian Germ Token", plus every ``reverse-related``
link of ``tokens.xml`` whose creator is known. What a split token makes stays with the names whose
text creates it: of MTGJSON's one "Fish", only "Fish Token" (Reef Worm's) makes "Whale Token".

Not every card of ``tokens.xml`` is a token some card makes: reminder and helper cards (Foretell, The
Monarch, Poison Counter, Morph, Copy) keep a game's state on the table. :func:`is_helper_card` tells
them apart, so writers list as made only tokens, emblems and dungeons (:func:`tokens_made`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from cockatrice_ext.cards.model import Card, CardDatabase, Face, Printing
from cockatrice_ext.cards.mtgjson import creates_token

# What a card makes outside the deck: tokens are permanents (their type line says which), an emblem or a
# dungeon goes to the command zone. Anything else tokens.xml holds is a helper card: a state (Foretell,
# The Monarch, Day), a counter (Poison Counter, Energy Reserve), a companion's place, a bare "Token"
# stand-in (Copy) or MTGJSON's "Card" type for all of those.
MADE_TYPES = frozenset(
    {"Creature", "Artifact", "Enchantment", "Land", "Planeswalker", "Battle", "Emblem", "Dungeon"}
)


def is_helper_card(card: Card) -> bool:
    """Whether ``card`` is a token database's reminder or helper card, which no card creates as a token:
    no token, emblem or dungeon type (Foretell, The Monarch, Poison Counter, Copy), or a reminder card
    laid over a face-down card (Morph, Manifest). A token without any type line is kept as a token."""
    if not card.is_token:
        return False
    front = card.front
    kinds = set(front.types) | set(front.type_line.split("\u2014", 1)[0].split())
    if "Token" not in kinds and "reminder card" in front.oracle_text:
        return True
    return bool(kinds) and not kinds & MADE_TYPES


def tokens_made(card: Card, find: Callable[[str], Card | None]) -> list[Card]:
    """The tokens, emblems and dungeons ``card`` makes: its ``related`` names that ``find`` gives as
    tokens, helper cards (:func:`is_helper_card`) left out."""
    made = (find(name) for name in card.related)
    return [token for token in made if token is not None and token.is_token and not is_helper_card(token)]


def apply_cockatrice_token_names(db: CardDatabase, reference: CardDatabase) -> dict[str, str]:
    """Rename ``db``'s tokens in place to ``reference``'s (a ``tokens.xml``) names; return old -> new name."""
    by_scryfall_id = {p.scryfall_id: card.name for card in reference.cards.values() for p in card.printings
                      if p.scryfall_id}  # fmt: skip
    renamed: dict[str, str] = {}
    variants: dict[str, list[str]] = {}  # old name -> every name it was split into
    tokens = [c for c in db.cards.values() if c.is_token]
    # those tokens.xml lists first: a token named by its look then adds its printings, not its body, to one
    tokens.sort(key=lambda c: not any(p.scryfall_id in by_scryfall_id for p in c.printings))
    for card in tokens:
        groups = _printings_by_name(card, by_scryfall_id, reference)
        if list(groups) == [card.name]:
            continue
        del db.cards[card.name]
        primary = next(iter(groups))
        renamed[card.name] = primary
        variants[card.name] = list(groups)
        for name, printings in groups.items():
            faces = _faces(card, reference.cards.get(name), primary=name == primary)
            related = card.related
            if len(groups) > 1:  # what one merged printing makes (Fish: a Whale), only the one saying so
                related = tuple(r for r in related if creates_token([f.oracle_text for f in faces], r))
            db.add(replace(card, name=name, faces=faces, printings=printings, related=related))
    for name, card in list(db.cards.items()):
        if any(r in renamed for r in card.related):
            said = set(reference.reverse_related.get(name, ()))
            made = (_renamed_made(r, said, variants, renamed) for r in card.related)
            db.cards[name] = replace(card, related=tuple(dict.fromkeys(n for names in made for n in names)))
    for creator, made in reference.reverse_related.items():
        card = db.cards.get(creator)
        if card is not None:
            extra = tuple(n for n in dict.fromkeys(made) if n in db.cards and n not in card.related)
            db.cards[creator] = replace(card, related=card.related + extra)
    return renamed


def _faces(card: Card, listed: Card | None, *, primary: bool) -> tuple[Face, ...]:
    """The faces of one of the tokens ``card`` becomes: those of ``tokens.xml``'s token of that name
    (``listed``), on the ``primary`` name under MTGJSON's face names (so "Germ" finds "Phyrexian Germ
    Token"); ``card``'s own (its printings' body) if ``tokens.xml`` has no such token, or if on the
    primary name it has another number of faces (MTGJSON's "Dinosaur // Treasure" is Cockatrice's
    "Dinosaur Token": the card keeps both faces)."""
    if listed is None or not listed.faces:
        return card.faces
    if not primary:
        return listed.faces
    if len(listed.faces) != len(card.faces):
        return card.faces
    return tuple(replace(face, name=own.name) for face, own in zip(listed.faces, card.faces, strict=True))


def _renamed_made(
    made: str, said: set[str], variants: dict[str, list[str]], renamed: dict[str, str]
) -> list[str]:
    """What a card that made token ``made`` makes once it is split into ``variants``: the variants
    ``tokens.xml`` says the card makes (``said``; Exotic Pets, the second Fish only), else the name most
    printings took."""
    if made not in renamed:
        return [made]
    return [name for name in variants[made] if name in said] or [renamed[made]]


def _printings_by_name(
    card: Card, by_scryfall_id: dict[str, str], reference: CardDatabase
) -> dict[str, tuple[Printing, ...]]:
    """The Cockatrice name of each of ``card``'s printings, grouped; the name most printings take first."""
    named = [(by_scryfall_id.get(p.scryfall_id), p) for p in card.printings]
    counts = Counter(name for name, _ in named if name)
    if not counts:
        return {_derived_name(card, reference): card.printings}
    primary = min(counts, key=lambda n: (-counts[n], len(n), n))
    groups: dict[str, list[Printing]] = {primary: []}
    for name, printing in named:
        groups.setdefault(name or primary, []).append(printing)
    return {name: tuple(printings) for name, printings in groups.items()}


def _derived_name(card: Card, reference: CardDatabase) -> str:
    """The ``NAME Token`` or ``SUBTYPES Token`` of ``reference`` (any of its trailing-space variants) that
    looks the same, text included; else the unpadded one of the same colours and power/toughness; else
    the name."""
    front = card.front
    candidates = (f"{card.name.rstrip()} Token", f"{' '.join(front.subtypes)} Token")
    look = (card.colors, front.power, front.toughness)
    text = _rules_text(card)
    for name, match in reference.cards.items():
        same = name.rstrip() in candidates and (match.colors, match.power, match.toughness) == look
        if same and _rules_text(match) == text:
            return name
    for candidate in candidates:
        match = reference.cards.get(candidate)
        if match is not None and (match.colors, match.power, match.toughness) == look:
            return candidate
    return card.name


_REMINDER = re.compile(r"\s*\([^()]*\)")


def _rules_text(card: Card) -> str:
    """``card``'s rules text to compare: reminder text, quote and letter case left aside."""
    text = _REMINDER.sub("", card.oracle_text).replace("\u2019", "'")
    return " ".join(text.split()).casefold()
