"""Forge card scripts for custom cards: what one card's ``custom/cards/*.txt`` (or a token's
``custom/tokens/*.txt``) says, and the file names Forge gives them.

A script holds names, cost, colours, types, P/T, loyalty, defense, simple keywords (``K:Flying``), what makes
an Aura castable and an Equipment equip (``K:Enchant:...``, ``K:Equip:...``) and the oracle text; other
abilities are left to the user (:func:`~.forge_edition.keywords_only_cards` names the cards). Reminder
text is stripped in one place (:func:`_rules_lines`), so what is scripted and what is said to be
unscripted never disagree. Token scripts are named as Forge names its own (:func:`forge_token_script_name`).

The lowest of the three Forge modules (it imports neither :mod:`.forge` nor :mod:`.forge_edition`), so it
also holds what all three share: a value safe on one script or file line (``_line_value``) and a name
Windows can hold (:func:`windows_safe`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from cockatrice_ext.cards.model import Card, Face

_FORBIDDEN_IN_NAME = re.compile(r"[\x00-\x1f\x7f]")
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


def forge_mana_cost(cost: str) -> str:
    """``{2}{W/U}{X}`` -> ``2 W/U X``; an empty cost is ``no cost``."""
    symbols = re.findall(r"\{([^}]*)\}", cost)
    return " ".join(symbols) if symbols else "no cost"


def script_file_name(name: str) -> str:
    """Forge's script naming: ``Mikaeus, the Lunarch`` -> ``mikaeus_the_lunarch.txt`` (a card named like a
    Windows device, ``Con``, gets ``con_.txt``: :func:`windows_safe`).

    A two-faced card is given the name Forge decks use, its front face's (``delver_of_secrets.txt``), where
    Forge's own ``res/cardsfolder`` names the file after every face
    (``delver_of_secrets_insectile_aberration.txt``). Forge loads both: it reads every ``.txt`` under
    ``custom/cards`` and keys a card by its script's ``Name:`` lines, never by the file's name (only token
    scripts are keyed by file name: :func:`forge_token_script_name`); its lazy look-up by name (switched off
    in Forge's current loader) tries the front face's file name first, then any file starting with it.
    """
    return windows_safe(_stem(name)) + ".txt"


# Latin letters with no decomposition into a base letter and accents: Forge's script names (its
# oracleScript.py transliterates names to ASCII) spell them as these letters (Sjøstrand -> sjostrand).
_TRANSLITERATED = str.maketrans(
    {
        **{"Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe", "ß": "ss", "ẞ": "SS"},
        **{"Þ": "Th", "þ": "th", "Ð": "D", "ð": "d", "Đ": "D", "đ": "d", "Ł": "L", "ł": "l"},
        **{"Ħ": "H", "ħ": "h", "ı": "i", "Ŋ": "NG", "ŋ": "ng", "ĸ": "q", "ſ": "s", "Ŧ": "T", "ŧ": "t"},
        **{"ƒ": "f", "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"'},
    }
)


def _stem(name: str) -> str:
    """A name as Forge names a script (``Marit Lage`` -> ``marit_lage``): every letter in ASCII, as Forge's
    own scripts spell it (``Lim-Dûl's Vault`` -> ``lim_duls_vault``, ``Jötun Grunt`` -> ``jotun_grunt``,
    ``Æther Vial`` -> ``aether_vial``, ``Sjøstrand`` -> ``sjostrand``: a letter with no accent to drop is
    transliterated, never dropped), apostrophes and quotes left out, other characters an ``_``."""
    ascii_name = unicodedata.normalize("NFKD", name.translate(_TRANSLITERATED))
    ascii_name = ascii_name.encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "_", re.sub(r"[\'\"]", "", ascii_name)).strip("_") or "card"


_TOKEN_WORD = re.compile(r"\s*(?:\(token\)|token)\s*$", re.IGNORECASE)


def _undecorated(name: str) -> str:
    """A token's name without what card data adds to tell tokens from cards: Magic-Token's (Cockatrice's)
    trailing `` Token`` (``Giant Token``), `` (Token)`` (``Ajani's Pridemate (Token)``) and the trailing
    spaces that tell same-named tokens apart. Forge's token scripts never carry them
    (``ajanis_pridemate.txt``: ``Name:Ajani's Pridemate``)."""
    name = name.strip()
    return _TOKEN_WORD.sub("", name).strip() or name


def _token_own_name(card: Card) -> str:
    """``card``'s (a token's) name, undecorated (:func:`_undecorated`)."""
    return _undecorated(card.name)


def _named_token(card: Card) -> bool:
    """Whether a token has a name of its own (Forge's ``gold``, ``marit_lage``), not only its types'."""
    front = card.front
    own = _token_own_name(card)
    return "Legendary" in front.supertypes or not front.subtypes or own != " ".join(front.subtypes)


def forge_token_name(card: Card) -> str:
    """The ``Name:`` Forge's token scripts give ``card`` (a token), one rule for every token: a token named
    by its types is ``TYPES Token`` (``Name:Zombie Token``, ``Name:Giant Token``), one with a name of its
    own is that name alone (``Name:Avacyn``, ``Name:Glimmer Sprite``), however the card data decorates
    either (``Giant``, ``Giant Token``; ``Glimmer Sprite Token``, ``Glimmer Sprite (Token)``)."""
    own = _token_own_name(card)
    return own if _named_token(card) else f"{own} Token"


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
        return _stem(_token_own_name(card))
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


def _token_script(card: Card) -> str:
    """A token's script, named as Forge names its own (:func:`forge_token_name`)."""
    if not card.faces:
        return write_forge_script(card)
    if _named_token(card):  # each face by its own name (a two-faced token's faces keep theirs)
        faces = tuple(replace(face, name=_undecorated(face.name)) for face in card.faces)
    else:
        faces = (replace(card.faces[0], name=forge_token_name(card)), *card.faces[1:])
    return write_forge_script(replace(card, faces=faces))


__all__ = [
    "forge_mana_cost",
    "forge_token_name",
    "forge_token_script_name",
    "script_file_name",
    "windows_safe",
    "write_forge_script",
]
