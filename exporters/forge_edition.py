"""Forge's ``custom`` folder for a designer's set: card and token scripts plus an edition file
(``custom/editions``) listing the cards with collector numbers and rarities.

What Forge would misread is never written: a designer's card named like a real one would replace it
(:func:`forge_real_namesake`), names Forge's line readers cannot read back (:func:`forge_unreadable_name`),
edition codes Forge reserves or a real set has (:func:`forge_code_refusal`; a short code that may be a newer
set is warned of: :func:`forge_code_risk`). A card Forge has already is no custom card
(:func:`forge_has_card`), and with no custom card left nothing is written (:func:`forge_custom_cards`).
The top of the three Forge modules: it uses :mod:`.forge_scripts` for the scripts and :mod:`.forge` for
the edition's file name.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from cockatrice_ext.cards.model import Card, CardSet

from .forge import safe_file_stem
from .forge_scripts import (
    _aftermath_half,
    _line_value,
    _token_script,
    _unscripted,
    forge_token_script_name,
    script_file_name,
    write_forge_script,
)
from .model import (
    ExportDeck,
    display_name,
    is_real_card,
    known_sets,
    official_set_codes,
    official_store,
    real_set,
    release_date_for,
    usual_rarity,
    with_long_name,
)

# A collector number as Forge's edition reader takes one (CardEdition): anything else is read as part of
# the name, and a [tokens] line whose name is no token script stops Forge ("wrong token name").
_FORGE_NUMBER = re.compile(r"[^\s\x00-\x1f\x7f]?[0-9A-Z-]+[^\s\x00-\x1f\x7f]?[A-Z]*")
_FORGE_RARITY = {"common": "C", "uncommon": "U", "rare": "R", "mythic": "M", "special": "S", "bonus": "S"}


def _numbers(cards: list[Card], edition: CardSet) -> list[str]:
    """A collector number for each of ``cards``, unique across the list: the card's own number in
    ``edition`` when Forge can read it as one and no card before took it, else its place in the list when
    free, else the lowest free number (two custom sets both have a card 1; Forge keys an edition's cards
    by number)."""
    own: list[str] = []
    for card in cards:
        printing = next((p for p in card.printings if p.set_code == edition.code), None)
        number = printing.collector_number if printing else ""
        own.append(number if _FORGE_NUMBER.fullmatch(number) else "")
    taken: set[str] = set()
    kept: list[str] = []
    for number in own:
        kept.append(number if number and number not in taken else "")
        taken.add(number)
    numbers: list[str] = []
    for place, number in enumerate(kept, start=1):
        if not number:
            number = next(str(n) for n in itertools.chain([place], itertools.count(1)) if str(n) not in taken)
            taken.add(number)
        numbers.append(number)
    return numbers


def _rarity_name(card: Card, edition: CardSet, sets: Mapping[str, CardSet]) -> str:
    """The card's rarity in ``edition``, else its usual one (:func:`~.model.usual_rarity`)."""
    own = next((p.rarity for p in card.printings if p.set_code == edition.code and p.rarity), "")
    return own or usual_rarity(card, sets) or "common"


def _is_basic_land(card: Card) -> bool:
    """A basic land (Forge's rarity ``L``, whatever rarity its printings have)."""
    front = card.front
    return "Basic" in front.supertypes and "Land" in front.types


def write_forge_edition(
    cards: list[Card],
    edition: CardSet,
    tokens: list[tuple[Card, str]] | None = None,
    sets: Mapping[str, CardSet] | None = None,
) -> str:
    """A Forge edition file listing ``cards`` as ``num rarity Name`` lines of set ``edition``, and
    ``tokens`` (each with its script's name) as ``num script`` lines of ``[tokens]``, where Forge looks
    up the tokens of an edition's cards by script name. Numbers are unique (:func:`_numbers`); ``sets``
    describes the sets of the cards' printings (the real ones are known), for their rarity
    (:func:`_rarity_name`; a basic land's is Forge's ``L``) and the edition's date
    (:func:`edition_date`)."""
    known = known_sets(sets)
    day = edition_date(edition, [*cards, *(token for token, _ in tokens or [])], known)
    lines = ["[metadata]", f"Code={_line_value(edition.code)}", f"Date={day}"]
    lines.append(f"Name={_line_value(edition.name or edition.code)}")
    lines.append("Type=Other")
    lines += ["", "[cards]"]
    for card, number in zip(cards, _numbers(cards, edition), strict=True):
        if card.is_token:
            rarity = "T"
        elif _is_basic_land(card):
            rarity = "L"
        else:
            rarity = _FORGE_RARITY.get(_rarity_name(card, edition, known).lower(), "C")
        name = _line_value(display_name(card, "forge"))
        lines.append(f"{number} {rarity} {name}")
    if tokens:
        lines += ["", "[tokens]"]
        numbers = _numbers([token for token, _ in tokens], edition)
        for (_, script), number in zip(tokens, numbers, strict=True):
            lines.append(f"{number} {script}")
    return "\n".join(lines) + "\n"


def forge_has_card(card: Card) -> bool:
    """Whether Forge has ``card`` already, so forge-custom neither scripts nor lists it: a real card
    (:func:`~.model.is_real_card`), or one with a real card's name in other capitals (``LIGHTNING BOLT``)
    that is that card (:func:`~.model.real_namesake` finds no difference once it is spelled as the real
    one): Forge's card names ignore case, so a deck naming it plays the real card."""
    if is_real_card(card):
        return True
    store = official_store()
    real = store.find(card.name) if store is not None and not card.is_token else None
    if real is None or real.is_token or real.name.casefold() != card.name.casefold():
        return False
    if len(card.faces) > len(real.faces):
        return False
    real_faces = {face.name.casefold(): face.name for face in real.faces}
    faces = tuple(replace(face, name=real_faces.get(face.name.casefold(), face.name)) for face in card.faces)
    return is_real_card(replace(card, name=real.name, faces=faces))


def forge_real_namesake(card: Card) -> str | None:
    """The real card whose place a script of ``card`` would take in Forge, or None.

    Forge reads custom scripts after its own into one map keyed by card name, ignoring case
    (``StaticData``: ``regularCards.put(cardName, card)``), so a designer's card named like a real one (a
    4-damage ``Lightning Bolt``, or ``lightning bolt``) would replace the real card in every deck. A card
    Forge has already (:func:`forge_has_card`) and tokens (Forge keys token scripts by
    file name) are no such card."""
    if card.is_token or forge_has_card(card):
        return None
    store = official_store()
    name = display_name(card, "forge")
    real = store.find(name) if store is not None else None
    if real is None or real.is_token:
        return None
    keys = {real.name.casefold(), display_name(real, "forge").casefold()}
    return display_name(real, "forge") if name.casefold() in keys else None


def forge_unreadable_name(name: str) -> str | None:
    """Why Forge's line readers cannot read ``name`` back, or None: a trailing ``+`` is read as foil
    (``CardRequest.fromString``), ``|`` separates a request's set, and an edition line's name stops at
    ``@`` (the artist) or ``$`` (its parameters)."""
    if name.rstrip().endswith("+"):
        return "Forge reads a name's trailing + as foil"
    if "|" in name:
        return "Forge reads | in a card line as the start of its set code"
    if "@" in name or "$" in name:
        return "Forge's edition lines end a name at @ or $"
    return None


def forge_unwritable_cards(deck: ExportDeck) -> dict[str, str]:
    """The designer's cards :func:`write_forge_custom_set` does not write (no script, no edition line),
    each with why: named like a real card (:func:`forge_real_namesake`: Forge would play it in place of
    the real one everywhere) or a name Forge cannot read back (:func:`forge_unreadable_name`). The cure
    for both is a name of the card's own."""
    out: dict[str, str] = {}
    for card in deck.unique_cards():
        if forge_has_card(card) or card.is_token:  # a token goes by its script's name, always readable
            continue
        name = display_name(card, "forge")
        real = forge_real_namesake(card)
        if real is not None:
            out[name] = f"a script would replace the real {real} in every Forge deck"
        elif (why := forge_unreadable_name(name)) is not None:
            out[name] = why
    return out


def forge_custom_cards(deck: ExportDeck) -> list[str]:
    """The names of the cards (not tokens) :func:`write_forge_custom_set` scripts and lists: the designer's
    own, neither a card Forge has (:func:`forge_has_card`) nor one it leaves out
    (:func:`forge_unwritable_cards`). None: the custom folder gets nothing."""
    left_out = set(forge_unwritable_cards(deck))
    cards = [card for card in deck.unique_cards() if not card.is_token and not forge_has_card(card)]
    return [name for card in cards if (name := display_name(card, "forge")) not in left_out]


def keywords_only_cards(deck: ExportDeck) -> list[str]:
    """The names of the cards and tokens :func:`write_forge_custom_set` scripts whose rules text says more
    than their script (triggered, activated and spell abilities): Forge plays them as bodies that do
    nothing, so the user must script the rest by hand. Cards it does not write
    (:func:`forge_unwritable_cards`) are not among them, nor tokens when no card is written (nothing is:
    :func:`forge_custom_cards`)."""
    left_out = set(forge_unwritable_cards(deck))
    if not forge_custom_cards(deck):
        return []
    return [
        display_name(card, "forge")
        for card in deck.unique_cards()
        if not forge_has_card(card)
        and display_name(card, "forge") not in left_out
        and any(
            _unscripted(face, aftermath=_aftermath_half(card, index)) for index, face in enumerate(card.faces)
        )
    ]


def write_forge_custom_set(deck: ExportDeck, *, edition: CardSet | None = None) -> dict[str, bytes]:
    """Scripts for the custom cards of ``deck`` and an edition listing them, laid out like Forge's
    ``custom`` folder.

    Copy ``cards/``, ``tokens/`` and ``editions/`` into ``<Forge user dir>/custom/``. Real cards are
    neither scripted nor listed: Forge's own scripts and editions have them (listed under the custom
    code, with its date, Forge would pick that picture-less printing for them in decks that name no set),
    and no draft or booster reads the edition (a cube's draft deals from the cube). Custom tokens get
    scripts under ``tokens/`` named as Forge names its own (:func:`~.forge_scripts.forge_token_script_name`)
    and are listed by those names in the edition's ``[tokens]`` (real ones neither: Forge has them). Cards
    Forge would take for a real one or cannot read (:func:`forge_unwritable_cards`) are left out, and
    the caller says so, as what :func:`forge_edition_notes` says about the edition's code. The edition
    defaults to the custom set all the cards are printed in, else one whose
    code is unique to the block (:func:`_main_set`). With no custom card to write (a block of real cards,
    or every custom card left out) nothing is written (``{}``: :func:`forge_custom_cards`): no edition
    with an empty ``[cards]``, no token script that no card of the folder makes.

    Raises:
        ValueError: ``edition``'s code is one Forge reserves or a real set's (:func:`forge_code_refusal`).
    """
    cards = deck.unique_cards()
    if edition is None:
        edition = _main_set(deck)
    else:
        refusal = forge_code_refusal(edition.code)
        if refusal is not None:
            raise ValueError(refusal)
    edition = with_long_name(edition, deck)  # Name= is the set's name, Code= its code
    skipped = forge_unwritable_cards(deck)
    bundle: dict[str, bytes] = {}
    tokens: list[tuple[Card, str]] = []
    listed: list[Card] = []
    for card in cards:
        if forge_has_card(card):
            continue  # Forge has its own, working script; ours would replace it
        if not card.is_token and display_name(card, "forge") in skipped:
            continue
        if card.is_token:  # what the token does beyond keywords is named after its maker, else the set
            maker = next((c for c in cards if card.name in c.related and c is not card), None)
            named = display_name(maker, "forge") if maker is not None else edition.code
            path = f"tokens/{forge_token_script_name(card, named)}.txt"
        else:
            path = f"cards/{script_file_name(display_name(card, 'forge'))}"
            listed.append(card)
        if path in bundle:  # two names folding to one file: keep both, distinguishably
            path = path[:-4] + f"_{len(bundle)}.txt"
        if card.is_token:
            tokens.append((card, path[len("tokens/") : -len(".txt")]))
        bundle[path] = (_token_script(card) if card.is_token else write_forge_script(card)).encode("utf-8")
    if not listed:  # no custom card: no edition with an empty [cards], no token that no card makes
        return {}
    edition_stem = safe_file_stem(edition.name or edition.code, edition.code or "custom")
    edition_file = write_forge_edition(listed, edition, tokens, deck.sets)
    bundle[f"editions/{edition_stem}.txt"] = edition_file.encode("utf-8")
    return bundle


FORGE_RESERVED_CODES = {
    "USER": "Forge's own edition for custom cards that no edition lists",
    "???": "Forge's code for an unknown edition",
}
"""Edition codes Forge gives its own editions (``CardEdition.Collection.append``, ``UNKNOWN_CODE``): a
custom edition under one replaces Forge's (the code is a case-insensitive key)."""
_FORGE_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
SAFE_CODE_LENGTH = 6
"""Wizards' set codes have 3 to 5 letters and digits (the few 6-character ones, ``PMPS06``..., are old
and in the card data): an edition code this long cannot be a set newer than the data."""


def forge_code_refusal(code: str) -> str | None:
    """Why ``code`` cannot be a custom Forge edition's code, or None: Forge's own (``USER``, ``???``:
    :data:`FORGE_RESERVED_CODES`), a real set's in the card data (Forge has that edition: the custom one
    would replace it, the code being a case-insensitive key), or not letters, digits, ``-`` and ``_``
    (``|`` splits a deck's card line, spaces a file name)."""
    upper = code.strip().upper()
    if upper in FORGE_RESERVED_CODES:
        return (
            f"{upper} is reserved by Forge ({FORGE_RESERVED_CODES[upper]}): an edition under it would"
            " replace Forge's; choose another code"
        )
    real = real_set(code)
    if real is not None:
        return (
            f"{upper} is a real set ({real.name}): Forge has its own edition under that code; choose another"
        )
    if not _FORGE_CODE.fullmatch(code):
        return f"{code!r} cannot be a Forge edition code: use letters, digits, - and _"
    return None


def _newest_real_set() -> str:
    """The release date of the newest set in the card data (``""`` when unknown)."""
    store = official_store()
    return max((s.release_date for s in store.sets.values() if s.release_date), default="") if store else ""


def forge_code_risk(code: str) -> str | None:
    """A warning when ``code`` could be a real set newer than the card data (shorter than
    :data:`SAFE_CODE_LENGTH` and not in it): if Forge has such an edition, the custom one replaces it in
    Forge (and Forge's cards of that set lose their printing). None for a longer code."""
    if len(code.strip()) >= SAFE_CODE_LENGTH or real_set(code) is not None:
        return None
    newest = _newest_real_set()
    since = f" (the card data's sets end in {newest[:7]})" if newest else ""
    return (
        f"edition code {code.upper()} is no set of the card data, but Wizards may have used it since{since}:"
        f" if Forge has an edition {code.upper()}, yours replaces it. A code of {SAFE_CODE_LENGTH} or more"
        " letters and digits cannot be one: give --set-code such a code (leaving it out makes one from the"
        " block's name)"
    )


def _designer_codes(deck: ExportDeck) -> list[str]:
    """The codes of the custom sets (no real set's) every card the edition lists is printed in, sorted.

    Only the designer's own cards count (:func:`forge_custom_cards`: no token, no card Forge has): the
    edition lists no other, so a real card of the block (the basic lands almost every block holds, a real
    card played beside the designer's) is in no custom set and must not keep the designer's code from the
    edition, which would then get one made from the block's name (``X`` and hex digits) and the block's
    name instead of the designer's set's. With no card of the designer's, every card counts."""
    listed = set(forge_custom_cards(deck))
    cards = [
        card for card in deck.unique_cards() if display_name(card, "forge") in listed and not card.is_token
    ]
    common: set[str] | None = None
    for card in cards or deck.unique_cards():
        codes = {p.set_code for p in card.printings}
        common = codes if common is None else common & codes
    return sorted((common or set()) - official_set_codes())


def forge_edition_notes(deck: ExportDeck, edition: CardSet | None = None) -> list[str]:
    """What to tell the user about the code of the edition ``write_forge_custom_set(deck,
    edition=edition)`` writes: each of the designer's set codes Forge cannot take
    (:func:`forge_code_refusal`: the edition gets another code), then a code that may be a set newer than
    the card data (:func:`forge_code_risk`). An ``edition`` whose code is refused is the caller's to refuse
    first (the writer raises)."""
    notes = []
    if edition is None:
        for code in _designer_codes(deck):
            refusal = forge_code_refusal(code)
            if refusal is not None:
                notes.append(f"{refusal}; the Forge edition gets another code")
        edition = _main_set(deck)
    risk = forge_code_risk(edition.code)
    return [*notes, risk] if risk is not None else notes


def _main_set(deck: ExportDeck) -> CardSet:
    """The custom set every card of the designer's is printed in (:func:`_designer_codes`: real cards,
    basic lands among them, do not count), else an edition whose code is unique to the block.

    A real set is never reused (an edition with a real code would collide with Forge's own), nor a code
    Forge reserves or cannot use (:func:`forge_code_refusal`: the block's own code then, said by
    :func:`forge_edition_notes`). The
    unique code is ``X`` and a short hash of the block's name (the custom set's name): it stays the same
    when the list is edited, so Forge decks that pin it keep working, and two blocks get two codes
    (:func:`block_set_code`).
    """
    custom = _designer_codes(deck)
    usable = [code for code in custom if forge_code_refusal(code) is None]
    if usable:
        return deck.sets.get(usable[0]) or CardSet(code=usable[0], name=usable[0])
    if custom:  # the designer's set under a code of the block's own: its name, date and type kept
        own = deck.sets.get(custom[0]) or CardSet(code=custom[0], name=custom[0])
        return replace(own, code=block_set_code(own.name or deck.name or "Custom cards"), name=own.name)
    name = deck.name or "Custom cards"
    return CardSet(code=block_set_code(name), name=name)


def block_set_code(name: str) -> str:
    """``X`` and five hex digits of the SHA-256 of ``name`` (case and spacing aside), never a real set's
    code: the same name always gives the same code, whatever the block holds."""
    key = " ".join(name.split()).casefold()
    official = official_set_codes()
    salted = key
    while True:
        code = "X" + hashlib.sha256(salted.encode("utf-8")).hexdigest()[:5].upper()
        if code not in official:
            return code
        salted += "\n"


def edition_date(
    edition: CardSet, cards: Iterable[Card] = (), sets: Mapping[str, CardSet] | None = None
) -> str:
    """Forge needs ``Date=`` (it fails to start without one): one the input fixes
    (:func:`~cockatrice_ext.exporters.model.release_date_for`), so an export is reproducible any day."""
    return release_date_for(edition, cards, sets or {})


__all__ = [
    "FORGE_RESERVED_CODES",
    "SAFE_CODE_LENGTH",
    "block_set_code",
    "edition_date",
    "forge_code_refusal",
    "forge_code_risk",
    "forge_custom_cards",
    "forge_edition_notes",
    "forge_has_card",
    "forge_real_namesake",
    "forge_unreadable_name",
    "forge_unwritable_cards",
    "keywords_only_cards",
    "write_forge_custom_set",
    "write_forge_edition",
]
