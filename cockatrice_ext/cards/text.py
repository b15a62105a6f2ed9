"""Small parsers shared by the card readers: type lines, mana costs, colours.

Every source spells these a little differently (MTGJSON ``{2}{W/U}``, Cockatrice ``2{W/U}``,
Forge ``2 WU``); these helpers bring them to one form: brace-delimited mana costs, WUBRG
colour tuples and (supertypes, types, subtypes) split from a type line.
"""

from __future__ import annotations

import functools
import re

from cockatrice_ext.cards.model import COLORS

SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host"})
CARD_TYPES = frozenset(
    {
        "Artifact",
        "Battle",
        "Conspiracy",
        "Creature",
        "Dungeon",
        "Emblem",
        "Enchantment",
        "Instant",
        "Kindred",
        "Land",
        "Phenomenon",
        "Plane",
        "Planeswalker",
        "Scheme",
        "Sorcery",
        "Token",
        "Tribal",
        "Vanguard",
        "Card",
    }
)
# Cockatrice's "maintype" priority (what the deck editor groups by).
MAIN_TYPE_ORDER = ("Planeswalker", "Creature", "Land", "Sorcery", "Instant", "Artifact", "Enchantment")

_DASH_RE = re.compile(r"\s+[—–-]{1,2}\s+|\s*—\s*")
_SYMBOL_RE = re.compile(r"\{([^{}]*)\}")
_COLOR_SET = frozenset(COLORS)
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


@functools.lru_cache(maxsize=8192)
def split_type_line(type_line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``"Legendary Creature — Human Cleric"`` -> (("Legendary",), ("Creature",), ("Human", "Cleric")).

    Without a dash (Forge ``Types:``), words after the last card type are subtypes.
    """
    parts = _DASH_RE.split(type_line, maxsplit=1)
    left = parts[0]
    words = left.split()
    supers = tuple(w for w in words if w in SUPERTYPES)
    if len(parts) > 1:
        types = tuple(w for w in words if w not in SUPERTYPES)
        subs = tuple(parts[1].split())
        return supers, types, subs
    last_type = max((i for i, w in enumerate(words) if w in CARD_TYPES), default=-1)
    types = tuple(w for w in words[: last_type + 1] if w not in SUPERTYPES)
    subs = tuple(words[last_type + 1 :])
    return supers, types, subs


def join_type_line(supertypes: tuple[str, ...], types: tuple[str, ...], subtypes: tuple[str, ...]) -> str:
    """The printed type line, with an em dash before the subtypes."""
    left = " ".join((*supertypes, *types))
    return f"{left} — {' '.join(subtypes)}" if subtypes else left


def main_type(types: tuple[str, ...]) -> str:
    """Cockatrice's ``maintype``: the highest-priority card type, else the first one."""
    for candidate in MAIN_TYPE_ORDER:
        if candidate in types:
            return candidate
    return next((t for t in types if t != "Token"), types[0] if types else "")


# One symbol of a Cockatrice <manacost>. Oracle keeps braces only around symbols with a slash (``2{W/U}``,
# ``{W/P}``), Magic-Spoiler writes none at all (``1B/GB/G``); either way numbers run on (``10``) and other
# letters stand alone (``XWC``, ``S``). A digit just before a slash belongs to the pair (``12/W``: 1, 2/W).
_COST_SYMBOL = re.compile(
    r"\{(?P<braced>[^{}]*)(?:\}|(?=\{)|$)"  # as written; an unclosed one ends where the next starts
    r"|(?P<pair>[0-9A-Z](?:/[0-9A-Z])+)"  # hybrid B/G, 2/W, phyrexian W/P and G/U/P, without braces
    r"|(?P<half>H[WUBRG])"  # half mana (Unhinged): HW
    r"|(?P<number>[0-9]+?(?=[0-9]/)|[0-9]+)"
    r"|(?P<other>\S)",
    re.IGNORECASE | re.ASCII,
)


@functools.lru_cache(maxsize=8192)
def cockatrice_cost(cost: str) -> str:
    """A Cockatrice ``<manacost>`` in braces, symbol by symbol: ``2{W/U}`` (Oracle), ``1B/GB/G``
    (Magic-Spoiler, no braces at all) -> ``{1}{B/G}{B/G}``; ``2/W2/W2/W`` -> ``{2/W}{2/W}{2/W}``; ``W/P`` ->
    ``{W/P}``; ``12XC`` -> ``{12}{X}{C}``; a brace cost (``{2}{W}``) stays as it is, upper-cased."""
    out: list[str] = []
    for match in _COST_SYMBOL.finditer(cost):
        symbol = match.group("braced")
        symbol = match.group(0) if symbol is None else symbol.strip()
        if symbol:
            out.append("{" + symbol.upper() + "}")
    return "".join(out)


def forge_mana_cost(cost: str) -> str:
    """Forge ``ManaCost:2 W U`` / ``1 WU`` / ``no cost`` -> ``{2}{W}{U}`` / ``{1}{W/U}`` / ``""``."""
    cost = cost.strip()
    if not cost or cost.lower() == "no cost":
        return ""
    out: list[str] = []
    for shard in cost.split():
        shard = shard.upper()
        if (shard.isascii() and shard.isdigit()) or len(shard) == 1 or "/" in shard:
            out.append("{" + shard + "}")
        else:
            out.append("{" + "/".join(shard) + "}")
    return "".join(out)


def cockatrice_mana_cost(braced: str) -> str:
    """Brace cost to Cockatrice's short form: ``{X}{W}`` -> ``XW``, ``{2}{W/U}`` -> ``2{W/U}``."""
    return "".join(
        sym if "/" in sym else sym[1:-1] for sym in (m.group(0) for m in _SYMBOL_RE.finditer(braced))
    )


@functools.lru_cache(maxsize=8192)
def mana_value_of(braced: str) -> float:
    """Mana value of a brace cost (X counts 0, ``{2/W}`` counts 2, hybrid counts 1, ``{H...}`` 0.5)."""
    total = 0.0
    for match in _SYMBOL_RE.finditer(braced):
        sym = match.group(1).upper()
        if sym.isascii() and sym.isdigit():
            total += int(sym)
        elif sym in {"X", "Y", "Z"}:
            continue
        elif "/" in sym:
            first = sym.split("/", 1)[0]
            total += int(first) if (first.isascii() and first.isdigit()) else 1
        elif sym.startswith("H"):
            total += 0.5
        elif sym:
            total += 1
    return total


def colors_of(value: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """Colour letters in WUBRG order from a string (``"WU"``, ``"W, U"``...) or a list of them."""
    if isinstance(value, str):
        return _colors_of_text(value)
    return _colors_of(value)


@functools.lru_cache(maxsize=1024)
def _colors_of_text(value: str) -> tuple[str, ...]:
    return _colors_of(value)


def _colors_of(value: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """Colour letters in WUBRG order from ``"WU"``, ``["U", "W"]`` or Forge words ``"white,blue"``."""
    if not value:
        return ()
    if not isinstance(value, str) and all(item in _COLOR_SET for item in value):
        return tuple(c for c in COLORS if c in value)  # the common MTGJSON/Scryfall case
    letters: set[str] = set()
    items = [value] if isinstance(value, str) else list(value)
    for item in items:
        low = item.strip().lower()
        words = [w for w in re.split(r"[\s,]+", low) if w]
        if words and all(w in _COLOR_WORDS for w in words):
            letters.update(_COLOR_WORDS[w] for w in words)
        else:
            letters.update(ch for ch in item.upper() if ch in COLORS)
    return tuple(c for c in COLORS if c in letters)


@functools.lru_cache(maxsize=8192)
def colors_from_cost(braced: str) -> tuple[str, ...]:
    """The colours a mana cost implies (for sources without a colour field)."""
    return colors_of(
        "".join(m.group(1) for m in _SYMBOL_RE.finditer(braced)).replace("P", "").replace("X", "")
    )


@functools.lru_cache(maxsize=8192)
def split_pt(pt: str) -> tuple[str | None, str | None]:
    """Cockatrice ``pt``: ``"3/3"``, ``"3"`` (power only) or ``"/3"`` -> (power, toughness)."""
    pt = pt.strip()
    if not pt:
        return None, None
    if "/" not in pt:
        return pt, None
    power, toughness = pt.split("/", 1)
    return power.strip() or None, toughness.strip() or None


@functools.lru_cache(maxsize=64)
def normalise_rarity(rarity: str) -> str:
    """``"Mythic Rare"`` -> ``"mythic"``, ``"C"`` -> ``"common"``; unknown values lower-cased."""
    low = rarity.strip().lower()
    short = {"c": "common", "u": "uncommon", "r": "rare", "m": "mythic", "s": "special", "l": "common"}
    if low in short:
        return short[low]
    if low.startswith("mythic"):
        return "mythic"
    return low.replace("basic land", "common")
