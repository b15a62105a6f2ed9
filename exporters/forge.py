"""Forge writers: decks (``.dck``), cubes (``.dck`` + ``.draft``), card scripts and editions.

Forge facts (docs/deck-and-card-formats.md §3): a deck is ``[metadata]`` ``Name=`` then
``[Main]`` / ``[Sideboard]`` sections of ``N Name|SET`` lines; only split cards are spelled
``A // B``, other multi-face cards by their front face. A cube is a deck under ``res/cube`` and
a ``res/draft/*.draft`` whose ``DeckFile:`` must equal the cube's ``Name=`` (otherwise Forge
silently drafts from its whole card pool). Custom cards are scripts under ``custom/cards`` and
an edition file under ``custom/editions`` listing them with collector numbers and rarities.

Multi-file formats return a *bundle*: ``{relative path: bytes}``, written together by
:func:`cockatrice_ext.exporters.export`.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import replace

from cockatrice_ext.cards.model import Card, CardSet, Face

from .model import (
    COMBINED_LAYOUTS,
    VARIANT_SECTIONS,
    ExportDeck,
    ExportEntry,
    display_name,
    is_real_card,
    known_sets,
    official_set_codes,
    official_store,
    real_set,
    release_date_for,
    usual_rarity,
)

_FORBIDDEN_IN_NAME = re.compile(r"[\x00-\x1f\x7f]")
# A collector number as Forge's edition reader takes one (CardEdition): anything else is read as part of
# the name, and a [tokens] line whose name is no token script stops Forge ("wrong token name").
_FORGE_NUMBER = re.compile(r"[^\s\x00-\x1f\x7f]?[0-9A-Z-]+[^\s\x00-\x1f\x7f]?[A-Z]*")
_FORGE_RARITY = {"common": "C", "uncommon": "U", "rare": "R", "mythic": "M", "special": "S", "bonus": "S"}
_ALTERNATE_MODES = {
    "split": "Split",
    "aftermath": "Split",
    "transform": "DoubleFaced",
    "modal_dfc": "Modal",
    "flip": "Flip",
    "meld": "Meld",
    "adventure": "Adventure",
    "prepare": "Prepare",
}
_COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
# Keywords Forge implements from a bare ``K:`` line; written when a whole oracle line is a list of them.
_SIMPLE_KEYWORDS = (
    "Flying",
    "First Strike",
    "Double Strike",
    "Deathtouch",
    "Defender",
    "Haste",
    "Hexproof",
    "Indestructible",
    "Lifelink",
    "Menace",
    "Reach",
    "Shroud",
    "Trample",
    "Vigilance",
    "Flash",
    "Fear",
    "Intimidate",
    "Skulk",
    "Prowess",
    "Wither",
    "Infect",
)
_KEYWORD_BY_LOWER = {k.lower(): k for k in _SIMPLE_KEYWORDS}
# How Forge's token scripts spell a token's colours (res/tokenscripts: wu_, ub_, rw_, gw_, gu_, all_ ...).
_TOKEN_COLORS = {
    frozenset(letters): letters.lower()
    for letters in (
        *"WUBRG",
        *("WU", "UB", "BR", "RG", "GW", "WB", "UR", "BG", "RW", "GU"),
        *("WUB", "UBR", "BRG", "RGW", "GWU", "WBG", "URW", "BGU", "RWB", "GUR"),
        *("WUBR", "UBRG", "BRGW", "RGWU", "GWUB"),
    )
} | {frozenset("WUBRG"): "all", frozenset(): "c"}


def _line_value(value: str) -> str:
    """A value safe on one ``key=value`` / ``Key:value`` line."""
    return " ".join(_FORBIDDEN_IN_NAME.sub(" ", value).split())


def _card_request(entry: ExportEntry) -> str:
    """``Name``, ``Name|SET``, or ``Name|SET|N`` when the card has several arts in the set (Forge's art
    index, counted in collector-number order)."""
    from cockatrice_ext.cards.resolve import printings_in_set

    name = _line_value(display_name(entry.card, "forge"))
    p = entry.printing
    if p is None or not p.set_code or "|" in p.set_code:
        return name
    request = f"{name}|{_line_value(p.set_code.upper())}"
    arts = printings_in_set(entry.card, p.set_code)
    return f"{request}|{arts.index(p) + 1}" if len(arts) > 1 and p in arts else request


def _section_lines(entries: list[ExportEntry], *, one_per_line: bool = False) -> list[str]:
    totals: dict[str, int] = {}
    for entry in entries:
        if entry.count > 0:
            key = _card_request(entry)
            totals[key] = totals.get(key, 0) + entry.count
    lines: list[str] = []
    for request, count in totals.items():
        if one_per_line:
            lines.extend(f"1 {request}" for _ in range(count))
        else:
            lines.append(f"{count} {request}")
    return lines


def forge_misread_names(deck: ExportDeck) -> list[str]:
    """The names of ``deck``'s cards whose lines in a Forge deck or cube Forge would misread: a name
    ending in ``+`` is read as a foil of another name, ``|`` as the start of a set code
    (:func:`forge_unreadable_name`). The writers write them as they are; the caller says so."""
    names = dict.fromkeys(display_name(card, "forge") for card in deck.unique_cards())
    return [name for name in names if name.rstrip().endswith("+") or "|" in name]


def _metadata(deck: ExportDeck, fallback_name: str = "Unnamed deck") -> list[str]:
    """``[metadata]``: ``Name=``, then ``Comment=`` and ``Tags=`` (comma-separated) when there are any."""
    lines = ["[metadata]", f"Name={_line_value(deck.name) or fallback_name}"]
    if deck.comments.strip():
        lines.append(f"Comment={_line_value(deck.comments)}")
    tags = [_line_value(tag.replace(",", " ")) for tag in deck.tags]
    if any(tags):
        lines.append("Tags=" + ",".join(tag for tag in tags if tag))
    return lines


def write_forge_dck(deck: ExportDeck) -> str:
    """A Forge deck (``.dck``): ``[Main]``, ``[Sideboard]``, ``[Commander]`` and the variant sections
    (``[Planes]``, ``[Schemes]``, ...) of ``N Name|SET`` lines.

    A companion goes to the sideboard: Forge takes a deck's companion from there, and a second
    ``[Commander]`` card would make it a partner commander.
    """
    lines = _metadata(deck)
    lines.append("[Main]")
    lines.extend(_section_lines(deck.main))
    variants = [(VARIANT_SECTIONS[name], entries) for name, entries in deck.variant_sections.items()]
    for header, entries in (
        ("Sideboard", deck.sections.get("side", []) + deck.sections.get("companion", [])),
        ("Commander", deck.sections.get("commander", [])),
        *variants,
    ):
        section = _section_lines(entries)
        if section:
            lines.append(f"[{header}]")
            lines.extend(section)
    return "\n".join(lines) + "\n"


# Names Windows reserves for devices, with or without an extension (``CON.dck``, ``com1.draft``).
_WINDOWS_RESERVED = frozenset(
    {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)), *(f"LPT{n}" for n in range(1, 10))}
    | {"COM\u00b9", "COM\u00b2", "COM\u00b3", "LPT\u00b9", "LPT\u00b2", "LPT\u00b3"}
)


def windows_safe(stem: str) -> str:
    """``stem`` as a name Windows can hold: no trailing dots or spaces (Windows drops them, so two names
    would be one file), and a device name (``CON``, ``nul``, ``COM1``, also before an extension:
    ``con.txt``) followed by ``_`` (``con_.txt``)."""
    stem = stem.rstrip(" .")
    head, dot, rest = stem.partition(".")
    if head.rstrip(" ").upper() in _WINDOWS_RESERVED:
        return f"{head.rstrip(' ')}_{dot}{rest}"
    return stem


def safe_file_stem(name: str, fallback: str = "unnamed") -> str:
    """A file name stem that is safe on every OS (Windows' device names too: :func:`windows_safe`) and
    cannot climb out of its folder."""
    stem = re.sub(r'[<>:"/\\|?*\x00-\x1f\x7f]', "", name).strip().strip(".")
    return windows_safe(stem[:120]) or fallback


class DraftTooBig(ValueError):
    """The draft asked for (or the smallest one) needs more cards than the cube holds."""


def draft_size(
    cube_size: int, players: int | None = None, packs: int | None = None, pack_size: int | None = None
) -> tuple[int, int, int]:
    """``(players, packs, pack_size)`` whose draft fits a cube of ``cube_size`` cards.

    Forge deals every pack from the cube and throws "cardpool has been depleted" when it runs out,
    so what is not given is chosen to fit: 3 packs of 15 for up to 8 players, fewer players (at
    least 2), then smaller packs (at least 5 cards), then fewer packs.

    Raises:
        DraftTooBig: the numbers given (or the cube) cannot make a draft.
    """
    given_packs = packs
    packs = packs or 3
    size = pack_size or 15
    if players is None:
        players = max(2, min(8, cube_size // (packs * size)))
    if pack_size is None and players * packs * size > cube_size:
        size = max(5, cube_size // (players * packs))
    if given_packs is None and players * packs * size > cube_size:
        packs = max(1, cube_size // (players * size))
    need = players * packs * size
    if min(players, packs, size) < 1 or need > cube_size:
        raise DraftTooBig(
            f"a draft of {players} players x {packs} packs x {size} cards needs {need} cards;"
            f" the cube has {cube_size}"
        )
    return players, packs, size


USUAL_DRAFT = (8, 3, 15)
"""Forge's usual draft: 8 players, 3 packs, 15 cards a pack."""


def draft_note(
    deck: ExportDeck, players: int | None = None, packs: int | None = None, pack_size: int | None = None
) -> str:
    """What :func:`write_forge_cube` made smaller than Forge's usual draft (:data:`USUAL_DRAFT`) to fit the
    cube, of what was not given (``players``, ``packs``, ``pack_size``), as one line; ``""`` when nothing.
    Said because the ``.draft`` shows it only as numbers (``Booster: 5 Any``, ``NumPacks: 1``)."""
    cube = sum(entry.count for entry in deck.main)
    try:
        chosen = draft_size(cube, players, packs, pack_size)
    except DraftTooBig:
        return ""  # refused: the error says it
    given = (players, packs, pack_size)
    if all(g is not None or c >= usual for g, c, usual in zip(given, chosen, USUAL_DRAFT, strict=True)):
        return ""
    n_players, n_packs, size = chosen
    return (
        f"the cube's {cube} cards make a draft of {n_players} players x {n_packs}"
        f" pack{'s' if n_packs != 1 else ''} of {size} cards, smaller than Forge's usual"
        f" {' x '.join(map(str, USUAL_DRAFT))} (every pack is dealt from the cube);"
        " --players, --packs and --pack-size choose"
    )


def write_forge_cube(
    deck: ExportDeck,
    *,
    num_players: int | None = None,
    num_packs: int | None = None,
    booster_size: int | None = None,
) -> dict[str, bytes]:
    """A Forge cube: ``cube/<Name>.dck`` plus ``draft/<Name>.draft`` whose ``DeckFile`` matches.

    Copy both folders into Forge's ``res`` folder. ``Singleton`` is set when no card appears
    twice. Every copy gets its own line, as in Forge's bundled cubes. The draft is sized to the
    cube (:func:`draft_size`).
    """
    num_players, num_packs, booster_size = draft_size(
        sum(entry.count for entry in deck.main), num_players, num_packs, booster_size
    )
    name = _line_value(deck.name) or "Custom Cube"
    stem = safe_file_stem(name, "cube")
    lines = _metadata(deck, name)
    lines.append("[Main]")
    lines.extend(_section_lines(deck.main, one_per_line=True))
    counts: dict[str, int] = {}
    for entry in deck.main:
        counts[entry.card.name] = counts.get(entry.card.name, 0) + entry.count
    singleton = all(c <= 1 for c in counts.values())
    draft = [f"Name:{name}", f"DeckFile:{name}"]
    if singleton:
        draft.append("Singleton:True")
    draft += ["", f"Booster: {booster_size} Any", f"NumPacks: {num_packs}", f"NumPlayers: {num_players}"]
    return {
        f"cube/{stem}.dck": ("\n".join(lines) + "\n").encode("utf-8"),
        f"draft/{stem}.draft": ("\n".join(draft) + "\n").encode("utf-8"),
    }


# --------------------------------------------------------------------------------------------
# card scripts and editions (custom cards)
# --------------------------------------------------------------------------------------------
def forge_mana_cost(cost: str) -> str:
    """``{2}{W/U}{X}`` -> ``2 W/U X``; an empty cost is ``no cost``."""
    symbols = re.findall(r"\{([^}]*)\}", cost)
    return " ".join(symbols) if symbols else "no cost"


def script_file_name(name: str) -> str:
    """Forge's script naming: ``Mikaeus, the Lunarch`` -> ``mikaeus_the_lunarch.txt`` (a card named like a
    Windows device, ``Con``, gets ``con_.txt``: :func:`windows_safe`)."""
    return windows_safe(_stem(name)) + ".txt"


def _stem(name: str) -> str:
    """A name as a Forge file name stem (``Marit Lage`` -> ``marit_lage``)."""
    ascii_name = unicodedata.normalize("NFKD", name.replace("Æ", "Ae").replace("æ", "ae"))
    ascii_name = ascii_name.encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "_", ascii_name.replace("'", "")).strip("_") or "card"


def _named_token(card: Card) -> bool:
    """Whether a token has a name of its own (Forge's ``gold``, ``marit_lage``), not only its types'."""
    front = card.front
    own = card.name.strip().removesuffix(" Token")
    return "Legendary" in front.supertypes or not front.subtypes or own != " ".join(front.subtypes)


def _token_number(value: str | None) -> str:
    return value if value is not None and value.isdigit() else "x"  # X, *, 1+*: Forge writes x


def forge_token_script_name(card: Card, maker: str = "") -> str:
    """The name Forge's own token scripts would give ``card`` (a token), without ``.txt``.

    Forge names a token script (and lists the token in an edition's ``[tokens]``) by what the token is
    (its ``TokenDb``): a token with a name of its own by that name (``gold``, ``marit_lage``); any other
    ``colors_power_toughness_types_subtypes_keywords`` (``w_1_1_spirit_flying``, ``c_1_1_a_servo``,
    ``rw_1_1_goblin_soldier``, ``b_2_2_e_zombie``, ``c_a_treasure_sac``). A token that does more than its
    keywords adds what it is (Forge's ``g_x_x_ooze_gutter_grime``): here ``maker``, the card that makes it,
    so that it never takes the name of Forge's own token of that kind.
    """
    face = card.front
    if _named_token(card):
        return _stem(card.name.strip())
    parts = [_TOKEN_COLORS.get(frozenset(face.colors), "c")]
    if face.power is not None or face.toughness is not None or "Creature" in face.types:
        parts += [_token_number(face.power), _token_number(face.toughness)]
    parts += [t[0].lower() for t in face.types if t not in ("Creature", "Token")]
    parts += [_stem(subtype) for subtype in face.subtypes]
    parts += [_stem(line.removeprefix("K:")) for line in _keyword_lines(face.oracle_text)]
    if maker and _more_than_keywords(face.oracle_text):
        parts.append(_stem(maker))
    return windows_safe("_".join(part for part in parts if part))


def _rules_lines(oracle: str) -> list[str]:
    """The lines of rules text as Forge's scripts say them: reminder text (in parentheses) left out, no
    empty lines. The one stripping used both to decide what is scripted (:func:`_unscripted`) and to
    write it (:func:`_keyword_lines`, :func:`_attachment_lines`), so they never disagree."""
    lines = oracle.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [words for line in lines if (words := " ".join(re.sub(r"\([^)]*\)", " ", line).split()))]


def _more_than_keywords(oracle: str) -> bool:
    """Whether rules text says more than a list of simple keywords (reminder text aside)."""
    return any(not _keyword_lines(words) for words in _rules_lines(oracle))


def _enchant_line(words: str) -> str | None:
    """Forge's target restriction for an Aura's ``Enchant ...`` line (reminder text aside), or None."""
    head, _, what = words.partition(" ")
    return _ENCHANTABLE.get(what.strip().lower()) if head.lower() == "enchant" else None


def _unscripted(face: Face, *, aftermath: bool = False) -> bool:
    """Whether ``face`` has rules text its script leaves out: anything but simple keywords, an Aura's
    ``Enchant ...`` line, an ``Equip`` cost (:func:`_attachment_lines`) and an aftermath half's
    ``Aftermath``, reminder text aside."""
    for words in _rules_lines(face.oracle_text):
        if _keyword_lines(words):
            continue
        if "Aura" in face.subtypes and _enchant_line(words) is not None:
            continue
        if "Equipment" in face.subtypes and _EQUIP.match(words):
            continue
        if aftermath and words.lower() == "aftermath":
            continue
        return True
    return False


def _aftermath_half(card: Card, index: int) -> bool:
    """Whether face ``index`` of ``card`` is an aftermath card's second half (cast from the graveyard)."""
    return card.layout == "aftermath" and index == 1


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


def _implied_colors(face: Face) -> set[str]:
    return {c for c in "WUBRG" if c in face.mana_cost.upper()}


def _keyword_lines(oracle: str) -> list[str]:
    """``K:`` lines for oracle lines that are nothing but simple keywords (``Flying, vigilance``), reminder
    text aside (:func:`_rules_lines`)."""
    out: list[str] = []
    for line in _rules_lines(oracle):
        parts = [p.strip().lower() for p in line.split(",")]
        if parts and all(p in _KEYWORD_BY_LOWER for p in parts):
            out.extend(f"K:{_KEYWORD_BY_LOWER[p]}" for p in parts)
    return out


_ENCHANTABLE = {  # an Aura's "Enchant ..." line -> Forge's target restriction
    "creature": "Creature",
    "land": "Land",
    "artifact": "Artifact",
    "enchantment": "Enchantment",
    "permanent": "Permanent",
    "planeswalker": "Planeswalker",
    "creature you control": "Creature.YouCtrl",
    "creature an opponent controls": "Creature.OppCtrl",
    "creature you don't control": "Creature.YouDontCtrl",
    "land you control": "Land.YouCtrl",
    "nonland permanent": "Permanent.nonLand",
    "player": "Player",
    # several kinds, as Forge's scripts list them (akki_war_paint.txt: K:Enchant:Artifact,Creature:...)
    "artifact or creature": "Artifact,Creature",
    "artifact or enchantment": "Artifact,Enchantment",
    "creature or enchantment": "Creature,Enchantment",
    "creature or land": "Creature,Land",
    "creature or planeswalker": "Creature,Planeswalker",
    "creature or vehicle": "Creature,Vehicle",
    "artifact, creature, or planeswalker": "Artifact,Creature,Planeswalker",
    "creature, land, or planeswalker": "Creature,Land,Planeswalker",
    "artifact or creature you control": "Artifact.YouCtrl,Creature.YouCtrl",
    "creature or planeswalker you control": "Creature.YouCtrl,Planeswalker.YouCtrl",
    "creature or planeswalker an opponent controls": "Creature.OppCtrl,Planeswalker.OppCtrl",
}
_EQUIP = re.compile(r"^Equip ((?:\{[^}]*\})+)$", re.IGNORECASE)
# What an Aura does to what it enchants, read from its text (reminder text aside), for Forge's AI
# (SVar:AttachAILogic): Curse puts it on an opponent's permanent, Pump on one of its own.
_CURSE_TEXT = re.compile(
    r"\benchanted \w+ (?:gets -|can't(?! be blocked)|cannot(?! be blocked)|doesn't|does not|loses"
    r"|has defender)|\benchanted \w+'s controller (?:loses|sacrifices|discards)"
    r"|\benchanted player (?:loses|discards|sacrifices)",
    re.IGNORECASE,
)
_PUMP_TEXT = re.compile(
    r"\benchanted (?:creature|permanent|artifact|land) (?:gets \+|has |gains |can't be blocked)",
    re.IGNORECASE,
)


def _attach_ai_logic(face: Face) -> str | None:
    """``Curse`` for an Aura whose text only harms what it enchants (Pacifism), ``Pump`` for one whose text
    only helps (Rancor), None when the text says neither or both: Forge's AI then judges by itself."""
    text = " ".join(_rules_lines(face.oracle_text))
    curse = "Curse" in face.subtypes or bool(_CURSE_TEXT.search(text))
    pump = bool(_PUMP_TEXT.search(text))
    if curse == pump:
        return None
    return "Curse" if curse else "Pump"


def _attachment_lines(face: Face) -> list[str]:
    """What makes an Aura castable onto its target and an Equipment able to equip in Forge, as Forge's
    current scripts have them: ``K:Enchant:Valid`` (Forge makes the Aura's spell from it; ``:description``
    after a restriction that is no one plain type: ``Creature.YouCtrl``, ``Creature,Planeswalker``) with
    ``SVar:AttachAILogic`` when the text says which way the Aura works (:func:`_attach_ai_logic`), and
    ``K:Equip:COST``. Reminder text aside (:func:`_rules_lines`). What the Aura or Equipment then does is
    not scripted (the oracle text shows it)."""
    out: list[str] = []
    for words in _rules_lines(face.oracle_text):
        valid = _enchant_line(words) if "Aura" in face.subtypes else None
        if valid is not None:
            what = words.split(" ", 1)[1].strip().lower()
            out.append(f"K:Enchant:{valid}" + ("" if valid.isalpha() else f":{what}"))
            logic = _attach_ai_logic(face)
            if logic is not None:
                out.append(f"SVar:AttachAILogic:{logic}")
        equip = _EQUIP.match(words) if "Equipment" in face.subtypes else None
        if equip is not None:
            out.append(f"K:Equip:{forge_mana_cost(equip.group(1))}")
    return out


def _face_script(face: Face, *, aftermath: bool = False) -> list[str]:
    lines = [f"Name:{_line_value(face.name)}", f"ManaCost:{forge_mana_cost(face.mana_cost)}"]
    colors = [c for c in "WUBRG" if c in face.colors]
    if set(colors) != _implied_colors(face):  # a devoid card's cost has colors, the card none
        lines.append("Colors:" + (",".join(_COLOR_WORDS[c] for c in colors) or "colorless"))
    # Forge marks tokens by folder, not type: a "Token" word would be read as a creature type
    types = [t for t in (*face.supertypes, *face.types, *face.subtypes) if t != "Token"]
    if types:
        lines.append("Types:" + " ".join(_line_value(t) for t in types))
    if face.power is not None or face.toughness is not None:
        lines.append(f"PT:{face.power or 0}/{face.toughness or 0}")
    if face.loyalty:
        lines.append(f"Loyalty:{_line_value(face.loyalty)}")
    if face.defense:
        lines.append(f"Defense:{_line_value(face.defense)}")
    if aftermath:  # Forge's aftermath halves (Dusk // Dawn's Dawn): cast only from the graveyard
        lines.append("K:Aftermath")
    lines.extend(_keyword_lines(face.oracle_text))
    lines.extend(_attachment_lines(face))
    oracle = face.oracle_text.replace("\r\n", "\n").replace("\r", "\n")
    lines.append("Oracle:" + _FORBIDDEN_IN_NAME.sub(" ", oracle.replace("\n", "\\n")))
    return lines


def write_forge_script(card: Card) -> str:
    """A Forge card script for ``card``: names, cost, types, P/T, simple keywords and oracle text.

    Abilities beyond simple keywords are not scripted: Forge shows the oracle text and plays
    the card as its body (good enough for auction/cube play with a human referee).
    """
    faces = card.faces or (Face(name=card.name),)
    blocks: list[list[str]] = []
    for index, face in enumerate(faces):
        lines = _face_script(face, aftermath=_aftermath_half(card, index))
        if index == 0 and len(faces) > 1:
            mode = _ALTERNATE_MODES.get(card.layout, "DoubleFaced")
            lines.insert(len(lines) - 1, f"AlternateMode:{mode}")
        blocks.append(lines)
    return "\n\nALTERNATE\n\n".join("\n".join(b) for b in blocks) + "\n"


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


def _token_script(card: Card) -> str:
    """A token's script, named as Forge names its own: ``Spirit Token`` for a token named by its types."""
    if _named_token(card) or card.name.strip().endswith(" Token") or not card.faces:
        return write_forge_script(card)
    face = card.faces[0]
    return write_forge_script(replace(card, faces=(replace(face, name=f"{card.name.strip()} Token"),)))


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


def write_forge_custom_set(deck: ExportDeck, *, edition: CardSet | None = None) -> dict[str, bytes]:
    """Scripts for the custom cards of ``deck`` and an edition listing them, laid out like Forge's
    ``custom`` folder.

    Copy ``cards/``, ``tokens/`` and ``editions/`` into ``<Forge user dir>/custom/``. Real cards are
    neither scripted nor listed: Forge's own scripts and editions have them (listed under the custom
    code, with its date, Forge would pick that picture-less printing for them in decks that name no set),
    and no draft or booster reads the edition (a cube's draft deals from the cube). Custom tokens get
    scripts under ``tokens/`` named as Forge names its own (:func:`forge_token_script_name`) and are
    listed by those names in the edition's ``[tokens]`` (real ones neither: Forge has them). Cards
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
    """The codes of the custom sets (no real set's) every card of ``deck`` is printed in, sorted."""
    common: set[str] | None = None
    for card in deck.unique_cards():
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
    """The custom set every card is printed in, else an edition whose code is unique to the block.

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
    "COMBINED_LAYOUTS",
    "FORGE_RESERVED_CODES",
    "SAFE_CODE_LENGTH",
    "USUAL_DRAFT",
    "DraftTooBig",
    "block_set_code",
    "draft_note",
    "draft_size",
    "edition_date",
    "forge_code_refusal",
    "forge_code_risk",
    "forge_custom_cards",
    "forge_edition_notes",
    "forge_has_card",
    "forge_mana_cost",
    "forge_misread_names",
    "forge_real_namesake",
    "forge_token_script_name",
    "forge_unreadable_name",
    "forge_unwritable_cards",
    "is_real_card",
    "keywords_only_cards",
    "real_set",
    "safe_file_stem",
    "script_file_name",
    "windows_safe",
    "write_forge_cube",
    "write_forge_custom_set",
    "write_forge_dck",
    "write_forge_edition",
    "write_forge_script",
]
