"""Card names as players type them in chat: one rule for every command that takes a card name.

A player names a card among those the command can mean (their hand, their pack, the market, the cards they
bought); :func:`match_names` picks it as the deck tooling resolves lists (:func:`~.resolve.fold_name`) and
forgives what phones and clients add, in tiers, the first tier that matches anything winning:

1. the whole name, folded: case, accents and ligatures, curly quotes (a phone's ``’``), spacing (a
   non-breaking space, a trailing space), invisible characters, quote marks around the name, and a set code
   and number after it (``Lightning Bolt (M10) 146``, as a deck site writes it);
2. one face of a split or double-faced card (``Fire``, ``Delver of Secrets``, ``Insectile Aberration``:
   Cockatrice shows a double-faced card by its front face);
3. the start of the name or of a face, three characters or more (``Goblin`` for ``Goblin Assault``).

Every name matching at the winning tier is returned, so the caller refuses two or more with the candidates
(privately when they are hidden from others). Names with commas (``Mikaeus, the Lunarch``) are kept whole by
:func:`split_names`, which splits a typed list on commas only where a part alone is no card.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence

from cockatrice_ext.cards.resolve import fold_name

__all__ = [
    "MIN_PREFIX",
    "closest_names",
    "match_names",
    "split_names",
    "split_pair",
    "typed_key",
    "typed_names",
]

MIN_PREFIX = 3
"""The fewest folded characters a typed start of a name must have to name a card (tier 3)."""

_PIN = re.compile(r"\s*[\(\[]\s*[A-Za-z0-9]{2,6}\s*[\)\]](?:\s*#?[0-9A-Za-z\u2605-]{1,8})?\s*$")
_QUOTES = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb"
_FACES = re.compile(r"\s*/{1,2}\s*")
_COMMA = re.compile(r"\s*,\s*")

_WHOLE, _FACE, _PREFIX = 1, 2, 3


def _visible(text: str) -> str:
    """``text`` without invisible format characters (zero-width spaces and joiners, a byte-order mark, a soft
    hyphen), which copy and paste and some keyboards leave in."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def typed_key(text: str) -> str:
    """The comparison key of a typed card name: :func:`~.resolve.fold_name` of it without invisible
    characters, surrounding quote marks or a trailing set code and number."""
    bare = " ".join(_visible(text).split())
    while len(bare) > 1 and bare[0] in _QUOTES and bare[-1] in _QUOTES:
        bare = bare[1:-1].strip()
    unpinned = _PIN.sub("", bare)
    return _fold(unpinned or bare)


def _fold(name: str) -> str:
    """:func:`~.resolve.fold_name`, with one space after each comma (``Mikaeus,the Lunarch``)."""
    return _COMMA.sub(", ", fold_name(name)).strip()


def _faces(key: str) -> list[str]:
    """The folded faces of a folded name (``fire // ice`` -> ``fire``, ``ice``); one face: none."""
    faces = [face.strip() for face in _FACES.split(key) if face.strip()]
    return faces if len(faces) > 1 else []


def _tier(key: str, name: str) -> int:
    """How ``key`` (a :func:`typed_key`) names ``name``: a tier, or 0 for not at all."""
    full = typed_key(name)  # the same rule both ways: an Un-card's name has quote marks
    if key == full:
        return _WHOLE
    faces = _faces(full)
    if key in faces:
        return _FACE
    if len(key) >= MIN_PREFIX and (full.startswith(key) or any(face.startswith(key) for face in faces)):
        return _PREFIX
    return 0


def _ranked(typed: str, names: Iterable[str]) -> tuple[int, list[str]]:
    key = typed_key(typed)
    best, found = 0, list[str]()
    if not key:
        return 0, found
    for name in dict.fromkeys(names):
        tier = _tier(key, name)
        if not tier or (best and tier > best):
            continue
        if tier < best or not best:
            best, found = tier, []
        found.append(name)
    return best, found


def match_names(typed: str, names: Iterable[str]) -> list[str]:
    """The names among ``names`` (in their order, each once) that ``typed`` designates at the best tier
    that matches any: one is the card, two or more are the candidates to offer, none is no card."""
    return _ranked(typed, names)[1]


def typed_names(typed: str, names: Sequence[str]) -> list[str]:
    """:func:`match_names`, after the rule the engines had before it (the first name equal to ``typed`` in any
    case): an action a journal recorded under that rule names the same card when it is replayed."""
    wanted = typed.strip().casefold()
    exact = next((name for name in names if name.casefold() == wanted), None)
    return [exact] if exact is not None else match_names(typed, names)


def closest_names(typed: str, names: Iterable[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` of ``names`` that look like a typo of ``typed``, closest first (for a refusal)."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(typed_key(name), name)
    close = difflib.get_close_matches(typed_key(typed), list(by_key), n=limit, cutoff=0.7)
    return [by_key[key] for key in close]


def split_names(text: str, names: Iterable[str], separator: str = ",") -> list[str]:
    """``text`` split on ``separator`` into the names a player listed, keeping together the parts that make
    one of ``names`` whole or one face (``Mikaeus, the Lunarch, Shock`` -> ``Mikaeus, the Lunarch``,
    ``Shock``); a part that makes no card stays as typed, for the caller to refuse."""
    known = list(dict.fromkeys(names))
    parts = text.split(separator)
    found: list[str] = []
    start = 0
    while start < len(parts):
        end = start + 1
        for longer in range(len(parts), start + 1, -1):
            joined = separator.join(parts[start:longer])
            if _ranked(joined, known)[0] in (_WHOLE, _FACE):
                end = longer
                break
        piece = separator.join(parts[start:end]).strip()
        if piece:
            found.append(piece)
        start = end
    return found


def split_pair(
    text: str, separator: str, left: Iterable[str], right: Iterable[str]
) -> tuple[str, str] | None:
    """``text`` split once on ``separator`` (a word such as `` for ``, matched in any case) into two names,
    at the place where both sides name a card best (``Back for More for Shock``: ``Back for More`` and
    ``Shock``); None without the separator. Ties go to the first place."""
    lefts, rights = list(dict.fromkeys(left)), list(dict.fromkeys(right))
    places = [m.start() for m in re.finditer(re.escape(separator), text, re.IGNORECASE)]
    if not places:
        return None
    best: tuple[int, int] | None = None
    chosen = places[0]
    for place in places:
        before, after = text[:place], text[place + len(separator) :]
        tiers = (_ranked(before, lefts)[0] or 9, _ranked(after, rights)[0] or 9)
        score = (max(tiers), sum(tiers))
        if best is None or score < best:
            best, chosen = score, place
    return text[:chosen].strip(), text[chosen + len(separator) :].strip()
