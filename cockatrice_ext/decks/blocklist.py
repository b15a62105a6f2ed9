"""The block-list text format: a forgiving, documented ``N Name`` list with sections.

A block list is what people type or paste: an auction block, a cube, a pool, a deck. Every line is
one of:

* blank: ignored (a blank line never changes the section; that is the plain-text *deck* reader's
  Cockatrice rule, see :mod:`cockatrice_ext.decks.readers`, not this one), except after the cards of a
  ``Commander`` or ``Companion`` section, which hold one or two cards: the cards after it are ``main`` again,
  as deck sites export a commander deck (:class:`CommandSections`);
* a comment: starts with ``#`` (but not ``##``), ``//`` or ``;``. One that is exactly a section's word
  (``// Sideboard``, ``//Main``, ``# Maybeboard``, ``// Commander``, ``// Sideboard (3)``: Deckstats' headers)
  is that section's header, never the deck's name nor a comment. Comment lines before the first card
  become the deck's ``comments``; ``# Name: X`` (or ``// Name: X``) names the deck; without one, a first
  line ``// X`` does, as the header of Cockatrice's plain text (``--to text`` reads back named). A ``#``
  preceded by a space ends a card line early (``4 Shock  # cheap removal``); no real card name contains ``#``;
* a section header, which puts the following cards in that section:
  ``Main``/``Deck``/``Mainboard``/``Main deck``/``Decklist`` (-> ``main``), ``Sideboard``/``Side``
  (-> ``side``, also ``Sideboard: 15``), ``Commander``/``Companion``/``Maybeboard``/``Tokens`` (lower-cased),
  and any named section: ``[Removal]``, ``## Creatures``, ``Creatures (12):``, and a deck site's group
  heading with its count (``Creatures (16)``, ``Lands (24)``, as MTGGoldfish shows them). Cards before
  any header are in ``main``;
* a card: ``[SB:] [N|Nx|N x] [[SET] or [SET:NUM] or [SET#NUM]] Name [(SET) [NUM]] [*F*]``, or
  MTGGoldfish's exact versions ``N Name [<variant>] [SET]`` (an upper-case code; a numeric variant is
  the collector number, others are warned about: the card data does not tell frames apart). Without a
  count the count is 1. ``SB:`` puts the card in ``side`` whatever the current section; TappedOut's
  ``*CMDR*`` and Deckstats' ``#!Commander`` tag (``1 Fire // Ice #!Commander``; other ``#`` tags are
  comments) put a main card in ``commander``. Commas, apostrophes and hyphens are part of names (``Jaya
  Ballard, Task Mage``); ``Fire//Ice``, ``Fire / Ice``, ``Fire || Ice`` (Cockatrice's importer reads
  ``||`` too) and ``Fire // Ice`` are all written ``Fire // Ice``; typographic ``’`` becomes ``'``. A
  name that starts with digits needs an explicit count (``1 1996 World Champion``). A line with no count in
  front may end with one, as hand-written lists put it (``Lightning Bolt x4``, ``*4``, ``×4``; no deck
  format writes it): read so unless the card data knows the whole name (``DeckEntry.whole_name``). A single
  ``|`` is Forge's ``Name|SET`` when what follows is written as Forge writes a set code (capitals:
  ``Shock|M10``; or an art index follows: ``Island|M19|3``; or the card data knows a set so coded:
  ``Shock|m10``), else the
  two halves of a split card (``Fire|Ice``); a code that is also a word (ICE, Ice Age's) is read as the
  card data knows it, with a warning only when it knows both readings or neither (the resolver's
  ``_settle_doubts``). ``1x Name`` (no space) and ``1 x Name`` count 1 ``Name``, but with a space
  ``1 X Walker`` may be a designer's ``X Walker``: the resolver reads ``X Walker`` when the card data knows
  it or does not know ``Walker``, else ``Walker`` (``2 x Lightning Bolt``; Cockatrice itself reads no
  spaced ``x``).

Leniency: the reader accepts every spelling above, but never guesses: a line that is not blank, a
comment or a header must be a valid card line, otherwise :class:`DeckFormatError` names the file and
line (count 0 or above :data:`MAX_COUNT`, a count with no name, a name over :data:`MAX_NAME_LENGTH`
characters, XML pasted into a text list, an empty ``[]`` header). Control characters (and unassigned or
private-use ones) in names are refused for every such line at once, each naming its characters.
Invisible format characters that copy and paste leave in names (zero-width spaces and joiners, a
byte-order mark, a soft hyphen: Unicode's ``Cf``) are removed, with one warning per list naming its lines
(logged as ``cockatrice_ext.decks.blocklist``, which the command line and the bot show); so is a byte-order
mark starting a line past the first (where two files were joined), the file's own staying unsaid.
Names are *not* checked against card data here; that is :func:`cockatrice_ext.cards.resolve`'s job.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path
from typing import NamedTuple

from cockatrice_ext.decks.errors import DeckFormatError, line_place
from cockatrice_ext.decks.model import MAYBE, Deck, DeckEntry

MAX_COUNT = 999
MAX_LIST_CARDS = 100_000
"""Cards a list may hold in all (a cube of a thousand, a whole collection fit): more is refused before
anything is written (10,000 lines of ``999 Lightning Bolt`` made a 162 MB Forge cube)."""
MAX_NAME_LENGTH = 200
MAX_LINE_LENGTH = 1000
"""A card or header line is never longer (a name, a count, a set, a site's tags); a longer one is refused
before any pattern reads it, so that a garbled file cannot make the readers' patterns run for minutes."""
MAX_TEXT_BYTES = 16 * 1024 * 1024
MAX_LINES_SAID = 25
"""A list's refused or cleaned lines are named up to this many; a count stands for the rest."""


_COUNT = re.compile(r"^(\d{1,30})(?:\s*[xX*])?\s+(\S.*)$|^(\d{1,30})[xX*](\S.*)$")  # too big: said
_SPACED_X = re.compile(r"^\d{1,30}\s+([xX])\s+\S")  # "1 X Walker": a count marker, or a name's first word?
_BRACKET_COUNT = re.compile(r"^[\(\[](\d{1,9})[\)\]]\s*(\S.*)$|^[xX](\d{1,3})\s+(\S.*)$")  # (4) [4] x4
# A hand-written list's count after the name: "Lightning Bolt x4", "*4", "×4" (read with no count in front).
_COUNT_AFTER = re.compile(r"^(\S.*?)\s+[xX×*]\s?(\d{1,9})$")
# XMage's [SET:NUM] and Deckstats' [SET#NUM] before the name.
_PREFIX_SET = re.compile(r"^\[([A-Za-z0-9]{1,8})(?:[:#]([A-Za-z0-9★\-]{1,12}))?\]\s*(\S.*)$")
# MTGGoldfish's exact card versions: "Thoughtseize <timeshifted> [TSR]"; an upper-case code only, so that
# Archidekt's categories ("[Removal]") stay categories.
_GOLDFISH_SET = re.compile(r"^(.*?\S)(?:\s+<([^<>]{1,40})>)?\s+\[([A-Z0-9]{2,6})\]$")
_SUFFIX_SET = re.compile(
    r"^(.*?\S)\s+\(([A-Za-z0-9]{2,8})\)(?:\s+(?:([A-Za-z0-9]{2,8})-)?([A-Za-z0-9★\-]{1,12}))?$"
)
_FOIL = re.compile(r"(?:\s+\*[A-Za-z]{1,8}\*)+$")  # Moxfield's *F* (foil), *E* (etched), *A*...
_CARET_TAGS = re.compile(r"\s+\^[^^]*\^$")  # Archidekt's ^Have,#37d67a^
_CATEGORIES = re.compile(r"\s+\[([^\]\[]*)\]$")  # Archidekt's [Removal{noDeck}{noPrice},Burn]
_FORGE_PIPE = re.compile(r"^(.+?)\|([A-Za-z0-9]{2,8})(\|\d+)?$")  # Forge's Name|SET|ART (art, not number)
_CATEGORY_SECTIONS = {
    "maybeboard": MAYBE,
    "sideboard": "side",
    "commander": "commander",
    "considering": MAYBE,
}
_COMMANDER_MARK = "CMDR"  # TappedOut's *CMDR*: this card is the commander
COMMAND_SECTIONS = ("commander", "companion")
"""Sections that hold one or two cards: a blank line after their cards goes back to the main deck."""
COMMAND_SECTION_MOST = 2
"""Cards a commander or companion section holds at most; a blank line ending a bigger one is said."""
_COMMENT_SECTIONS = frozenset({"main", "side", "commander", "companion", MAYBE})
"""Sections a comment line naming exactly one of them opens (``// Sideboard``, ``# Maybeboard``)."""
_SPLIT = re.compile(r"\s*(?:/{1,2}|\|\|)\s*")  # Fire/Ice, Fire // Ice, Fire || Ice (Cockatrice reads ||)
_SPACES = re.compile(r"\s+")
SIDEBOARD_PREFIX = re.compile(r"^sb:\s*", re.IGNORECASE)
_INLINE_COMMENT = re.compile(r"\s#.*$")
_COMMANDER_TAG = re.compile(r"(?:^|\s)#!commander\b", re.IGNORECASE)  # Deckstats' commander marker

_MAIN_HEADER = re.compile(
    r"^(?:main|main\s*deck|deck|deck\s*list|mainboard|main\s*board)\s*:?\s*(?:\(?\d+\)?)?$", re.I
)
_SIDE_HEADER = re.compile(r"^(?:sideboard|side\s*board|side)\s*:?\s*(?:\(?\d+\)?)?(?:\s*cards?)?$", re.I)
_KNOWN_HEADER = re.compile(r"^(commander|companion|maybeboard|tokens)\s*:?\s*(?:\(?\d+\)?)?$", re.I)
_BRACKET_HEADER = re.compile(r"^\[([^\[\]]*)\]$")
_HASH_HEADER = re.compile(r"^##+\s*(.*?)\s*#*$")
# A deck site's group heading with its card count: MTGGoldfish's "Creatures (16)", "Sideboard (15)".
_GROUP_HEADER = re.compile(
    r"^(?:creatures?|spells?|instants?|sorcer(?:y|ies)|artifacts?|enchantments?|planeswalkers?|lands?"
    r"|battles?|other|sideboard|side\s*board|deck|main\s*deck|mainboard|commander|companion|maybeboard"
    r"|tokens?)\s*\(\d{1,4}\)$",
    re.I,
)
_COLON_HEADER = re.compile(r"^([A-Za-z][\w '&/-]{0,60}?)\s*(?:\(\d+\))?\s*:$")
_TRAILING_COUNT = re.compile(r"\s*\(\d+\)$")
_NAME_COMMENT = re.compile(r"^name\s*[:=]\s*(.+)$", re.I)
# Cockatrice's annotated plain text: "// 60 Maindeck", "// 15 Sideboard", "// 3 Tokens" before each zone, and
# "// 24 Land" before each card type (the last word of a type line: a custom card's may be another word).
_ZONE_TOTAL = re.compile(r"^\d{1,6}\s+(maindeck|sideboard|tokens)$", re.I)
_TYPE_TOTAL = re.compile(
    r"^\d{1,6}\s+(?:creature|land|instant|sorcery|artifact|enchantment|planeswalker|battle|plane|phenomenon"
    r"|scheme|conspiracy|vanguard|dungeon|emblem|token|kindred|tribal|unknown)$",
    re.I,
)


def canonical_section(title: str) -> str:
    """``main``/``side`` for their many spellings, known zones lower-cased, else the title as written."""
    title = _SPACES.sub(" ", title).strip().rstrip(":").strip()
    title = _TRAILING_COUNT.sub("", title) or title
    if _MAIN_HEADER.match(title):
        return "main"
    if _SIDE_HEADER.match(title):
        return "side"
    known = _KNOWN_HEADER.match(title)
    if known:
        return known.group(1).lower()
    return title


class NameCharactersError(ValueError):
    """A card line whose name holds characters no card name has (control, unassigned, private-use ones);
    ``characters`` are their ``U+XXXX`` codes, for a list to say every such line at once."""

    def __init__(self, message: str, characters: tuple[str, ...]) -> None:
        super().__init__(message)
        self.characters = characters


def code_point(ch: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: a character as a message names it (the code alone when unnamed)."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X}"


def invisible_characters(text: str) -> list[str]:
    """The invisible format characters (Unicode ``Cf``: zero-width spaces and joiners, byte-order marks, soft
    hyphens, direction marks) in ``text``, each once, in order."""
    if text.isascii():
        return []
    return list(dict.fromkeys(ch for ch in text if unicodedata.category(ch) == "Cf"))


_WORD_BREAKS = frozenset("\u200b\u2063")
"""Invisible characters that break words (a zero-width space, an invisible separator): where one stands
between a small letter and a capital (``Llanowar\u200bElves``), web pages used it for the space."""


def without_invisible(text: str) -> str:
    """``text`` without its invisible format characters (:func:`invisible_characters`): copy and paste leave
    them in names, where they are no part of the name but make it unknown. A word break between a small
    letter and a capital (:data:`_WORD_BREAKS`) is read as the space it stands for; inside a word
    (``Counter\u200bspell``) it is removed like the others."""
    if text.isascii():
        return text
    kept: list[str] = []
    broken = False
    for ch in text:
        if unicodedata.category(ch) == "Cf":
            broken = broken or ch in _WORD_BREAKS
            continue
        if broken and kept and kept[-1].islower() and ch.isupper():
            kept.append(" ")
        broken = False
        kept.append(ch)
    return "".join(kept)


def normalize_name(raw: str) -> str:
    """The name as a card list should spell it: single spaces, ``'`` apostrophes, `` // `` between halves,
    no invisible format characters."""
    name = without_invisible(raw).replace("’", "'").replace("‘", "'")
    name = _SPACES.sub(" ", name).strip()
    if "/" in name or "||" in name:
        name = _SPLIT.sub(" // ", name).strip()
    return name


_REFUSED_KINDS = {
    "Cc": "control",
    "Cf": "invisible",
    "Cs": "surrogate",
    "Co": "private-use",
    "Cn": "unassigned",
}


def refused_characters(name: str) -> list[str]:
    """The characters of ``name`` no card name holds (control, invisible, surrogate, private-use, unassigned),
    each once, in order."""
    if name.isascii() and name.isprintable():
        return []
    return list(dict.fromkeys(ch for ch in name if unicodedata.category(ch) in _REFUSED_KINDS))


def _characters_problem(refused: list[str]) -> str:
    """What a name holding the ``refused`` characters is told: which characters, of what kind."""
    kinds = " or ".join(dict.fromkeys(_REFUSED_KINDS[unicodedata.category(ch)] for ch in refused))
    if len(refused) == 1:
        what = f"{'an' if kinds[0] in 'aeiou' else 'a'} {kinds} character"
    else:
        what = f"{kinds} characters"
    return f"card name contains {what} ({', '.join(code_point(ch) for ch in refused)})"


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be a card name, or None if it can (names come here through
    :func:`normalize_name`, which removes invisible format characters)."""
    if not name:
        return "card line has no name"
    if len(name) > MAX_NAME_LENGTH:
        return f"card name longer than {MAX_NAME_LENGTH} characters"
    refused = refused_characters(name)
    if refused:
        return _characters_problem(refused)
    if name.startswith("<"):
        return "this looks like XML, not a card line (a .cod or .dek deck: read it as cod or dek)"
    if not any(ch.isalnum() for ch in name) and name.strip("_"):  # "_____" is a real card
        return f"not a card name: {name!r}"
    return None


def category_section(categories: str) -> str:
    """The section Archidekt's comma-separated categories name (``Maybeboard{noDeck}{noPrice},Ramp``: the
    first of Maybeboard, Considering, Sideboard, Commander), or ``""`` when none does."""
    for category in categories.split(","):
        name = re.sub(r"\{[^}]*\}", "", category).strip().lower()
        if name in _CATEGORY_SECTIONS:
            return _CATEGORY_SECTIONS[name]
    return ""


def strip_markers(text: str) -> tuple[str, str]:
    """A pasted card line without the deck sites' markers, and the section its markers name.

    Moxfield's ``*F*``/``*E*``, Archidekt's ``^tags^`` and ``[Category{noDeck},...]`` (Maybeboard,
    Sideboard, Commander name a section; ``""`` otherwise) are dropped: Cockatrice has no use for them.
    TappedOut's ``*CMDR*`` names the commander section.
    """
    text = _CARET_TAGS.sub("", text.strip())
    section = ""
    categories = _CATEGORIES.search(text)
    if categories:
        text = text[: categories.start()]
        section = category_section(categories.group(1))
    text = text.rstrip()
    markers = _FOIL.search(text)
    if markers:
        if not section and any(
            m.upper() == _COMMANDER_MARK for m in re.findall(r"\*(\w+)\*", markers.group())
        ):
            section = "commander"
        text = text[: markers.start()]
    return text, section


class CardLine(NamedTuple):
    """One card line read (:func:`parse_card_line`): its count, name and the printing it pins; ``x_name`` the
    name when the ``x`` after a spaced count is the name's first word (``1 X Walker``: ``X Walker``, the
    other reading of count 1 ``Walker``), for the resolver to choose by the card data; ``doubt`` what the
    reader was unsure of, for a warning naming the line, and ``other`` the reading it did not take
    (``(name, set_code)``: ``Fire|Ice`` read as the split card has ``("Fire", "ICE")``), for the resolver to
    keep the warning only when the card data knows both readings or neither."""

    count: int
    name: str
    set_code: str
    collector_number: str
    x_name: str = ""
    doubt: str = ""
    other: tuple[str, ...] = ()
    x_doubt: str = ""  # the doubt as said of the line's reading with ``x_name`` (``X Fire|Ice``)
    x_other: tuple[str, ...] = ()  # the reading not taken, with the ``x`` ((``X Fire``, ``ICE``))
    whole_name: str = ""  # the name with the count written after it (``Robot x2``), read as count and name


def parse_card_text(text: str) -> tuple[int, str, str, str]:
    """Split one card line (no ``SB:``) into ``(count, name, set_code, collector_number)``
    (:func:`parse_card_line` without its other reading and doubts)."""
    return parse_card_line(text)[:4]


def parse_card_line(text: str) -> CardLine:
    """Read one card line (no ``SB:``).

    ``1x Name`` (no space) and ``1 x Name`` count 1 of ``Name``; with a space, ``1 X Walker`` is also
    count 1 of ``X Walker`` (a designer's card), given as ``x_name`` for the resolver to choose: ``X Walker``
    when the card data knows it or does not know ``Walker``, else ``Walker`` (``2 x Lightning Bolt``).

    Raises ValueError with a human message when the line is not a card (:class:`NameCharactersError` when
    its name holds characters no name has). Invisible format characters are removed first, so that one
    between the count and the name (``1\u200b Shock``) hides nothing.
    """
    if len(text) > MAX_LINE_LENGTH and len(text.strip()) > MAX_LINE_LENGTH:
        raise ValueError(f"line longer than {MAX_LINE_LENGTH} characters: not a card line")
    # names are written with single spaces anyway (normalize_name)
    text = " ".join(without_invisible(text).split())
    variant = goldfish_set = ""
    goldfish = _GOLDFISH_SET.match(text)
    if goldfish:
        text, variant, goldfish_set = goldfish.group(1), goldfish.group(2) or "", goldfish.group(3)
    text = strip_markers(text)[0]
    original = text
    count = 1
    counted = True  # a count in front of the name
    spaced_x = _SPACED_X.match(text)
    match = _COUNT.match(text)
    if match:
        digits, rest = (
            (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        )
        count, text = int(digits), rest
    else:
        bracketed = _BRACKET_COUNT.match(text)
        counted = bracketed is not None
        if bracketed:
            digits, rest = bracketed.group(1) or bracketed.group(3), bracketed.group(2) or bracketed.group(4)
            count, text = int(digits), rest
        elif text.isdigit():
            raise ValueError(f"count {text} with no card name")
    if count <= 0:
        raise ValueError(f"count must be positive, got {count}")
    if count > MAX_COUNT:
        raise ValueError(
            f"count {count} is above {MAX_COUNT}; a name that starts with digits needs a count first "
            f"(write '1 {original}')"
        )
    x_doubt, x_other = _pinned(f"{spaced_x.group(1)} {text}")[3:] if spaced_x else ("", ())
    whole_name = ""  # the name with the count written after it, when one is
    after = None if counted else _COUNT_AFTER.match(text)
    if after and 0 < int(after.group(2)) <= MAX_COUNT:  # 'Fire|Ice x4': the count ends the line
        whole_name, text, count = normalize_name(_pinned(text)[0]), after.group(1), int(after.group(2))
    text, set_code, number, doubt, other = _pinned(text)
    if goldfish_set and not set_code:
        set_code, number = goldfish_set, variant if variant.isdigit() else ""
    name = normalize_name(text)
    problem = check_name(name)
    if problem:
        refused = tuple(f"U+{ord(ch):04X}" for ch in refused_characters(name))
        raise NameCharactersError(problem, refused) if refused else ValueError(problem)
    x_name = f"{spaced_x.group(1)} {name}" if spaced_x and len(name) < MAX_NAME_LENGTH - 1 else ""
    other_reading = (normalize_name(other[0]), other[1]) if other else ()
    x_other_reading = (normalize_name(x_other[0]), x_other[1]) if x_other and x_name else ()
    x_doubt = x_doubt if x_name else ""
    after = None if counted or whole_name else _COUNT_AFTER.match(name)
    if after and 0 < int(after.group(2)) <= MAX_COUNT:  # 'Lightning Bolt x4 (M10) 146': before the pin
        name, count, whole_name = after.group(1), int(after.group(2)), name
    return CardLine(
        count, name, set_code, number, x_name, doubt, other_reading, x_doubt, x_other_reading, whole_name
    )


class LineWarning(str):
    """A reader's warning about one line (``line``, its first when it names several): said in the order of
    the lines, with the resolver's (:func:`~cockatrice_ext.decks.resolve_list.resolve_list`)."""

    line: int = 0


def line_warning(source: str, lines: int | list[int], text: str) -> LineWarning:
    """``SOURCE:N: TEXT`` (``SOURCE:2: lines 2, 5 and 9: TEXT``:
    :func:`~cockatrice_ext.decks.errors.line_place`, the one form of every warning about a line), a
    :class:`LineWarning` of its (first) line."""
    named = lines if isinstance(lines, list) else [lines]
    said = LineWarning(f"{line_place(source, named)}: {text}")
    said.line = named[0]
    return said


class ReadingDoubt(LineWarning):
    """A reader's warning that one line reads two ways (``Fire|Ice``: the split card, or ``Fire`` of set ICE);
    the line's entry keeps the other reading (``DeckEntry.other_reading``), and the resolver
    (:func:`~cockatrice_ext.decks.resolve_list.resolve_list`) drops this warning when the card data knows
    one reading only: then there is no doubt to say. ``with_x`` is the warning as said of the line's
    reading whose name starts with the spaced ``x`` after its count (``1 X Fire|Ice``: ``X Fire|Ice``), which
    the resolver says instead when it reads the name so (``DeckEntry.x_name``)."""

    with_x: LineWarning | None = None


def card_entry(text: str, line: int, deck: Deck, source: str) -> DeckEntry:
    """The entry of card line ``text`` (no ``SB:``) on ``line`` (:func:`parse_card_line`), its doubt added to
    ``deck``'s warnings (a :class:`ReadingDoubt`). Raises as :func:`parse_card_line`."""
    card = parse_card_line(text)
    if card.doubt:
        doubt = ReadingDoubt(line_warning(source, line, card.doubt))
        doubt.line = line
        if card.x_doubt:
            doubt.with_x = line_warning(source, line, card.x_doubt)
        deck.read_warnings.append(doubt)
    return DeckEntry(
        name=card.name,
        count=card.count,
        set_code=card.set_code,
        collector_number=card.collector_number,
        line=line,
        x_name=card.x_name,
        other_reading=card.other if card.doubt else (),
        x_other_reading=card.x_other if card.x_doubt else (),
        whole_name=card.whole_name,
    )


class VariantWarning(LineWarning):
    """A reader's warning about an MTGGoldfish card version the card data cannot tell apart
    (``<borderless>``: frames and treatments are not in it). ``line`` is its line and ``head`` the words
    before ``; ...`` where :func:`~cockatrice_ext.decks.resolve_list.resolve_list` says which printing that
    line resolved to."""

    head: str = ""
    code: str = ""
    start: str = ""  # the words before what is used instead


def variant_warning(text: str, source: str, line: int) -> VariantWarning | None:
    """The warning for a card line ``text`` naming an MTGGoldfish version that is not a collector number
    (``4 Bonecrusher Giant <borderless> [ELD]``; ``<271>`` pins number 271), or None."""
    if "<" not in text or len(text) > MAX_LINE_LENGTH:
        return None
    goldfish = _GOLDFISH_SET.match(" ".join(text.split()))
    variant = goldfish.group(2) if goldfish else None
    if goldfish is None or not variant or variant.isdigit():
        return None
    code = goldfish.group(3)
    start = (
        f"{line_place(source, line)}: version <{variant}> is not known (the card data does not tell frames"
        " and treatments apart)"
    )
    head = f"{start}: the first {code} printing is used"
    said = VariantWarning(f"{head}; a collector number pins another (<NUMBER> [{code}])")
    said.line, said.head, said.code, said.start = line, head, code, start
    return said


@functools.lru_cache(maxsize=1)
def _known_set_codes() -> frozenset[str]:
    """Every real set's code, upper-case (the shipped card data's sets; none when it cannot be read)."""
    from cockatrice_ext.cards.errors import CardDataError
    from cockatrice_ext.cards.store import shipped_store

    try:
        return frozenset(code.upper() for code in shipped_store().sets)
    except (CardDataError, OSError):
        return frozenset()


def _piped_set(piped: re.Match[str]) -> tuple[bool, str]:
    """Whether Forge's ``Name|X`` pins set ``X`` (else ``Name // X``, a split card's halves: ``Fire|Ice``),
    and the doubt to warn about. ``X`` is a set when an art index follows (``Island|M19|3``) or when it is
    written as Forge writes set codes, in capitals (``Shock|M10``); a word written as names are
    (``Fire|Ice``) is a split card's second half; other spellings (``Shock|m10``) are a set when the card
    data knows one so coded. Either reading of a code that is both a set's and a word is a doubt, which the
    resolver says only when the card data does not settle it (``DeckEntry.other_reading``)."""
    name, code = piped.group(1), piped.group(2)
    known = code.upper() in _known_set_codes()
    if piped.group(3) or code.isupper():
        return True, ""
    word = code[:1].isupper() and code[1:].islower()
    if known and not word:
        return True, (
            f"{name}|{code} read as Forge's set {code.upper()}; a split card is written {name} // {code}"
        )
    if known:
        return False, (
            f"{name}|{code} read as the split card {name} // {code}; Forge's set {code.upper()} is written"
            f" {name}|{code.upper()}"
        )
    return False, ""


def _pinned(text: str) -> tuple[str, str, str, str, tuple[str, ...]]:
    """``text`` (a card line without its count) split into the name's text, the set code and the collector
    number it pins: Forge's ``Name|SET`` (:func:`_piped_set`: ``Fire|Ice`` is a split card),
    ``[SET:NUM] Name`` and ``Name (SET) NUM``; ``""`` for none; what was read in doubt, or ``""``; and with a
    doubt, the reading not taken (``(name's text, set code)``), else ``()``."""
    set_code = number = doubt = ""
    other: tuple[str, ...] = ()
    piped = None if "||" in text else _FORGE_PIPE.match(text)  # Fire||Ice: two halves, not Forge's Fire|ICE
    if piped:
        is_set, doubt = _piped_set(piped)
        name, code = piped.group(1), piped.group(2)
        if is_set:
            text, set_code = name, code.upper()
            other = (f"{name} // {code}", "")
        else:
            text = f"{name} // {code}"
            other = (name, code.upper())
        other = other if doubt else ()
    prefix = _PREFIX_SET.match(text)
    if prefix:
        set_code, number, text = prefix.group(1).upper(), prefix.group(2) or "", prefix.group(3)
    suffix = _SUFFIX_SET.match(text)
    if suffix:
        # ``(PLST) XLN-65``: the inner code names the original printing, as Cockatrice reads it
        text, set_code, number = (
            suffix.group(1),
            (suffix.group(3) or suffix.group(2)).upper(),
            suffix.group(4) or "",
        )
    return text, set_code, number, doubt, other


_QUOTE_MARKS = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb"


def _unquoted(text: str) -> str:
    """``text`` without the quote marks around it (``"Lightning Bolt"``, a phone's ``“Shock”``)."""
    while len(text) > 1 and text[0] in _QUOTE_MARKS and text[-1] in _QUOTE_MARKS:
        text = text[1:-1].strip()
    return text


def split_pin(typed: str) -> tuple[str, str, str]:
    """A card name as a person types it alone (``cards lookup``), read as a list's card line is, without a
    count: ``(name, set_code, collector_number)``. Invisible characters, quote marks around it or around
    the name, a deck site's markers and the printing it pins (``Lightning Bolt (M10) 146``, ``[M10:146]
    Lightning Bolt``, ``Lightning Bolt|M10``, ``Thoughtseize <timeshifted> [TSR]``) are taken off; the
    name is not checked (the caller looks it up as typed first: some real names hold parentheses)."""
    if len(typed) > MAX_LINE_LENGTH:
        return typed, "", ""
    text = _unquoted(" ".join(without_invisible(typed).split()))
    goldfish = _GOLDFISH_SET.match(text)
    variant = goldfish_set = ""
    if goldfish:
        text, variant, goldfish_set = goldfish.group(1), goldfish.group(2) or "", goldfish.group(3)
    text, set_code, number, _, _ = _pinned(strip_markers(text)[0])
    if goldfish_set and not set_code:
        set_code, number = goldfish_set, variant if variant.isdigit() else ""
    return normalize_name(_unquoted(text)), set_code, number


def section_header(line: str) -> str | None:
    """The section a header line opens (``""`` for an empty ``[]``), or None if the line is not a header."""
    if len(line) > MAX_LINE_LENGTH:
        return None
    bracket = _BRACKET_HEADER.match(line)
    if bracket:
        return canonical_section(bracket.group(1)) if bracket.group(1).strip() else ""
    hashes = _HASH_HEADER.match(line)
    if hashes:
        return canonical_section(hashes.group(1)) if hashes.group(1) else ""
    if _MAIN_HEADER.match(line):
        return "main"
    if _SIDE_HEADER.match(line):
        return "side"
    known = _KNOWN_HEADER.match(line)
    if known:
        return known.group(1).lower()
    if _GROUP_HEADER.match(line):
        return canonical_section(line)
    colon = _COLON_HEADER.match(line)
    if colon:
        return canonical_section(colon.group(1))
    return None


def comment_section(line: str) -> str | None:
    """The section a comment-style header opens (``// Sideboard``, ``//Main``, ``# Maybeboard``, ``//
    Commander``, ``// Sideboard (3)``: Deckstats' and other tools' headers, which Cockatrice's plain text
    skips; Cockatrice's annotated zone totals ``// 15 Sideboard``, ``// 60 Maindeck``, ``// 3 Tokens``), or
    None: the comment must be exactly a section's word, optionally with a count."""
    if line.startswith("##") or not line.startswith(("//", "#")):
        return None
    text = line.lstrip("/#").strip()
    if line.startswith("//") and (zone := _ZONE_TOTAL.match(text)):
        return {"maindeck": "main", "sideboard": "side"}.get(zone.group(1).lower(), "tokens")
    if not text[:1].isalpha():
        return None
    header = section_header(text)
    return header if header in _COMMENT_SECTIONS else None


def is_type_total(line: str) -> bool:
    """Whether ``line`` is one of the card-type totals Cockatrice's annotated plain text writes (``// 4
    Creature``, ``// 2 Instant``): its own count of the cards below, no comment of the user's."""
    return line.startswith("//") and bool(_TYPE_TOTAL.match(line[2:].strip()))


def _comment_text(line: str) -> str | None:
    """The text of a comment line, or None if the line is not a comment."""
    if line.startswith("##"):
        return None
    for marker in ("#", "//", ";"):
        if line.startswith(marker):
            return line[len(marker) :].strip()
    return None


def without_comment(line: str, section: str) -> tuple[str, str]:
    """A card ``line`` without the comment a ``#`` after a space starts (``4 Shock  # cheap removal``; no
    real card name holds ``#``), and the section the line's card goes to, read in ``section``: Deckstats'
    ``#!Commander`` tag puts a ``main`` card in ``commander``. Every text reader reads ``#`` so."""
    inline = _INLINE_COMMENT.search(line)
    if inline is None:
        return line, section
    if section == "main" and _COMMANDER_TAG.search(inline.group()):
        section = "commander"  # Deckstats' #!Commander: this card is the commander
    return line[: inline.start()].rstrip(), section


def note_invisible(cleaned: dict[int, list[str]], line: int, text: str) -> None:
    """Note in ``cleaned`` the invisible characters of card line ``line`` (``text`` as read), which the reader
    removes: :func:`cleaned_lines_warning` says them once for the list."""
    if hidden := invisible_characters(text):
        cleaned.setdefault(line, []).extend(ch for ch in hidden if ch not in cleaned.get(line, ()))


def note_joined(cleaned: dict[int, list[str]], line: int, raw: str) -> None:
    """Note in ``cleaned`` a byte-order mark starting line ``line`` (``raw``) past the first: where two files
    were joined (line 1's is the file's own). Said whatever the line holds, a card, a comment, a header or
    nothing, as every text reader removes it so (:func:`cleaned_lines_warning`)."""
    if line > 1 and raw.strip().startswith("\ufeff"):
        note_invisible(cleaned, line, "\ufeff")


def parse_block_list(text: str, source: str = "<text>") -> Deck:
    """Parse block-list ``text`` into a :class:`Deck`; ``source`` names the file in error messages."""
    if len(text) > MAX_TEXT_BYTES:
        raise DeckFormatError(f"block list larger than {MAX_TEXT_BYTES} bytes", source=source)
    deck = Deck(name=Path(source).stem if not source.startswith("<") else "")  # "<stdin>" names no file
    section = "main"
    comments: list[str] = []
    seen_card = False
    named_by: str | None = None  # how the deck was named: "name" (# Name: X), "header" (a first // line)
    cleaned: dict[int, list[str]] = {}  # line -> the invisible characters removed from it
    refused: list[tuple[int, str]] = []  # (line, why) for lines read as no card: said all at once
    characters_only = True  # every line refused for characters no name has
    command = CommandSections(deck, source)
    for number, raw in enumerate(text_lines(text), start=1):
        line = raw.strip().lstrip("\ufeff")
        # a byte-order mark starting a line past the first is where two files were joined (line 1's is the
        # file's own): removed as the line is read, and said, whatever the line is (a card line's with its
        # other invisible characters)
        joined = "\ufeff" if number > 1 and raw.strip().startswith("\ufeff") else ""
        note_joined(cleaned, number, raw)
        if not line:
            section = command.blank(section)
            continue
        header = comment_section(line)
        if header is not None:
            section = command.header(header)
            continue
        comment = _comment_text(line)
        if comment is None and (hidden := invisible_characters(joined + line)):
            line = " ".join(without_invisible(line).split())  # a comment keeps its own (an emoji's joiners)
            comment = _comment_text(line)
            if comment is None and line:
                cleaned[number] = hidden
        if not line:
            continue
        if comment is not None:
            if is_type_total(line):
                continue  # Cockatrice's own count of a card type's cards: not the user's comment
            if not seen_card:
                named = _NAME_COMMENT.match(comment)
                if named:
                    if named_by == "header":  # the first line was a comment after all
                        comments.insert(0, deck.name)
                    deck.name, named_by = named.group(1).strip(), "name"
                elif named_by is None and not comments and comment and line.startswith("//"):
                    deck.name, named_by = comment, "header"
                else:
                    comments.append(comment)
            continue
        named = _NAME_COMMENT.match(line) if not seen_card and named_by != "name" else None
        if named:  # 'Name: X' before the first card names the deck, as '# Name: X' does (no card has ':')
            if named_by == "header":  # the first line was a comment after all
                comments.insert(0, deck.name)
            deck.name, named_by = named.group(1).strip(), "name"
            continue
        header = section_header(line)
        if header is not None:
            if not header:
                refused.append((number, "empty section header"))
                characters_only = False
            section = command.header(header) if header else section
            continue
        if len(line) > MAX_LINE_LENGTH:
            refused.append((number, f"line longer than {MAX_LINE_LENGTH} characters: not a card line"))
            characters_only = False
            continue
        line = " ".join(line.split())  # one space between words: no pattern below meets a long run
        target = section
        sideboard = SIDEBOARD_PREFIX.match(line)
        if sideboard:
            target, line = "side", line[sideboard.end() :]
        line, target = without_comment(line, target)
        category = strip_markers(line)[1]
        if category and target == "main":
            target = category  # Archidekt's Maybeboard / Sideboard / Commander categories
        try:
            entry = card_entry(line, number, deck, source)
        except ValueError as exc:  # every such line is said at once, as unknown names are
            refused.append((number, str(exc)))
            characters_only = characters_only and isinstance(exc, NameCharactersError)
            continue
        if variant := variant_warning(line, source, number):
            deck.read_warnings.append(variant)
        command.card(target, entry.count, number)
        deck.section(target).append(entry)
        seen_card = True
    if refused:
        raise _refused_lines(refused, source, characters_only)
    if cleaned:
        deck.read_warnings.append(cleaned_lines_warning(cleaned, source))
    deck.comments = "\n".join(comments).strip()
    return deck


class CommandSections:
    """Where a blank line after a commander or companion section goes: back to the main deck, as deck sites
    export a commander deck (``Commander`` or ``COMMANDER:``, one or two cards, a blank line, the deck with no
    header of its own). A reader tells it each section header, blank line and card; when the section so
    ended held more than :data:`COMMAND_SECTION_MOST` cards (a list meaning more of them, perhaps), the card
    after the blank line is named in a warning of ``deck``'s."""

    def __init__(self, deck: Deck, source: str) -> None:
        self.deck = deck
        self.source = source
        self.cards = 0  # cards in the current section since its header
        self.ended: tuple[str, int] | None = None  # the section a blank line ended, and its cards

    def header(self, section: str) -> str:
        """A header opens ``section``: returned, for the reader to read into."""
        self.deck.section(section)
        self.cards, self.ended = 0, None
        return section

    def blank(self, section: str) -> str:
        """A blank line in ``section``: the section to read on in."""
        if section in COMMAND_SECTIONS and self.cards:
            self.ended, self.cards = (section, self.cards), 0
            return "main"
        return section

    def card(self, section: str, count: int, line: int) -> None:
        """``count`` copies of a card on ``line`` read into ``section``."""
        ended, self.ended = self.ended, None
        self.cards += count
        if ended is not None and ended[1] > COMMAND_SECTION_MOST and section == "main":
            name, held = ended
            self.deck.read_warnings.append(
                line_warning(
                    self.source,
                    line,
                    f"read as a main card: the blank line before it ends the {name} section ({held} cards;"
                    f" a {name} section holds one or two); a {name.capitalize()} header before it keeps it"
                    " there",
                )
            )


def cleaned_lines_warning(cleaned: dict[int, list[str]], source: str) -> str:
    """The one warning of a list whose lines held invisible characters, now removed: those of its card names,
    and a byte-order mark starting a line past the first, whatever the line (:func:`note_joined`)."""
    lines = sorted(cleaned)
    characters = dict.fromkeys(ch for line in lines for ch in cleaned[line])
    named = ", ".join(code_point(ch) for ch in characters)
    notes = []
    if "\ufeff" in characters:
        notes.append("a byte-order mark starting a line is where two files were joined")
    if any(ch != "\ufeff" for ch in characters):
        notes.append("a zero-width space before a capital read as a space")
    return (
        f"{line_place(source, lines)}: removed invisible characters ({named}) that copy and paste"
        f" left in the list ({'; '.join(notes)})"
    )


def _refused_lines(refused: list[tuple[int, str]], source: str, characters_only: bool) -> DeckFormatError:
    """One error for every line read as no card (a count of 0, a name holding control characters: all of
    them, so that one run names every line to fix, as unknown names are): one line says where it is, more
    are listed each at its place, ``FILE:LINE`` as every warning says it (:func:`line_place`, so an editor
    jumps to each; :data:`MAX_LINES_SAID` of them, a count for the rest). ``characters_only``: every line
    was refused for the characters of its name, and the heading says so."""
    if len(refused) == 1:
        line, why = refused[0]
        return DeckFormatError(why, source=source, line=line)
    said = [f"  {line_place(source, line)}: {why}" for line, why in refused[:MAX_LINES_SAID]]
    if len(refused) > MAX_LINES_SAID:
        said.append(f"  ... and {len(refused) - MAX_LINES_SAID} more")
    head = "card lines hold characters no card name has" if characters_only else "lines are not card lines"
    message = "\n".join([f"{len(refused)} {head}:", *said])
    return DeckFormatError(message, source=source, line=refused[0][0])  # the heading points at the first


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


def utf16_as_utf8(data: bytes) -> bytes:
    """``data`` as UTF-8 when it is UTF-16 with a byte-order mark (Windows Notepad's "Unicode", Windows
    PowerShell 5's ``>``), as Cockatrice reads such a file; any other bytes unchanged. An XML declaration's
    encoding is made to say UTF-8 too."""
    if not data.startswith(_UTF16_BOMS):
        return data
    try:
        text = data.decode("utf-16")
    except UnicodeDecodeError:
        return data  # not UTF-16 after all: the UTF-8 check says what is wrong
    text = _XML_DECLARATION.sub('<?xml version="1.0" encoding="UTF-8"?>', text, count=1)
    return text.encode("utf-8")


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """The lines of ``text``, split only at ``\n``, ``\r\n`` and ``\r``, as Cockatrice, Forge and editors
    count them: :meth:`str.splitlines` also splits at characters pasted text may hold inside a line (U+2028,
    U+2029, U+0085, vertical tab, form feed, U+001C-U+001E), which would make ``# cut:\u2028Shock`` a card
    and put every later line number off. A final line break ends the last line (no empty line after it)."""
    lines = _LINE_BREAK.split(text)
    if lines and not lines[-1]:
        lines.pop()
    return lines


def one_line_break(data: bytes) -> bytes:
    """``data`` with ``\r\r\n`` read as the one line break it was (a CRLF file converted to CRLF again, by
    a download or a version control system, gets a carriage return more per line): else every line would
    be followed by a blank one, and the blank line that starts a sideboard would be lost among them."""
    return data.replace(b"\r\r\n", b"\n") if b"\r\r\n" in data else data


_COMPRESSED = (
    (b"\x1f\x8b", "gzip"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"Rar!\x1a\x07", "rar"),
)
_BZIP2 = re.compile(rb"BZh[1-9]1AY&SY")
# Control characters no text list holds (tab, line breaks and form feeds are text): a file with them is data.
_BINARY = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def compression_of(data: bytes) -> str:
    """The kind of compressed file ``data`` starts as (``gzip``, ``zip``, ...), or ``""`` for none."""
    if _BZIP2.match(data[:10]):
        return "bzip2"
    return next((kind for magic, kind in _COMPRESSED if data.startswith(magic)), "")


def gunzip_list(data: bytes, source: str) -> bytes:
    """A gzip-compressed list's text, inflated to at most :data:`MAX_TEXT_BYTES` + 1 bytes (the caller's
    size check says the rest), so that a small bomb never takes more memory than a plain list may."""
    import zlib

    inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    try:
        text = inflater.decompress(data, MAX_TEXT_BYTES + 1)
    except zlib.error as exc:
        raise DeckFormatError(f"a damaged gzip file ({exc})", source=source) from None
    if not inflater.eof and len(text) <= MAX_TEXT_BYTES:
        raise DeckFormatError("a gzip file cut short (the download stopped?)", source=source)
    return text


_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # the old Office files' container (.xls, .doc)
_OPEN_DOCUMENT = re.compile(rb"mimetypeapplication/vnd\.oasis\.opendocument\.(spreadsheet|text)")
_OFFICE_PARTS = ((b"xl/workbook.xml", "spreadsheet"), (b"xl/", "spreadsheet"), (b"word/document.xml", "text"))
_SAVE_AS = {
    "spreadsheet": "save it as CSV (UTF-8) (File > Save As, or Download as CSV) and give that",
    "text": "save it as plain text (.txt, UTF-8) and give that",
}


def document_kind(data: bytes) -> str:
    """What a word processor's or spreadsheet's file ``data`` is, as a sentence saying how to make a list of
    it (``an Excel workbook: save it as CSV (UTF-8) ...``), or ``""`` for other bytes: such files are
    compressed or binary, or RTF, whose markup would be read as card names."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"{\\rtf"):
        return (
            "an RTF document (TextEdit, WordPad), not plain text: save it as plain text (TextEdit: Format >"
            " Make Plain Text; .txt, UTF-8) and give that"
        )
    if data.startswith(_OLE2):
        return "an old Microsoft Office file (.xls or .doc): " + (
            "save it as CSV (UTF-8) or as plain text (.txt) and give that"
        )
    if compression_of(data) != "zip":
        return ""
    opened = _OPEN_DOCUMENT.search(data[:200])
    if opened:
        kind = opened.group(1).decode()
        what = (
            "an OpenDocument spreadsheet (.ods)" if kind == "spreadsheet" else "an OpenDocument text (.odt)"
        )
        return f"{what}: {_SAVE_AS[kind]}"
    for part, kind in _OFFICE_PARTS:
        if part in data:
            what = "an Excel workbook (.xlsx)" if kind == "spreadsheet" else "a Word document (.docx)"
            return f"{what}: {_SAVE_AS[kind]}"
    return ""


def decode_text(data: bytes, source: str) -> str:
    """``data`` as text: UTF-8 (a BOM tolerated) or UTF-16 with a BOM; else one error naming the line, or
    naming the kind of a compressed file (whose bytes are not a list's); a document or spreadsheet (RTF,
    .xlsx, .ods, .docx: :func:`document_kind`) is refused saying how to save it as a list."""
    data = one_line_break(utf16_as_utf8(data))
    document = document_kind(data)
    if document:
        raise DeckFormatError(f"this is {document}", source=source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        kind = compression_of(data)
    if kind:
        article = "an" if kind == "xz" else "a"  # "an ex-zed"
        raise DeckFormatError(
            f"{article} {kind}-compressed file, not a list: decompress it and give the list", source=source
        )
    raise DeckFormatError("not UTF-8 text (save it as UTF-8)", source=source, line=line)


def as_utf8(data: bytes, source: str) -> tuple[bytes, bool]:
    """``data`` as UTF-8 bytes, and whether it was read as Windows-1252: a text list that is neither UTF-8 nor
    UTF-16 with a BOM is what Windows editors save as "ANSI". Every byte but five is a character there, so
    such a text must also hold no control characters: binary data is refused, a compressed file named
    (:func:`decode_text`'s errors)."""
    data = utf16_as_utf8(data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return data, False
    if compression_of(data) or document_kind(data):
        decode_text(data, source)  # raises, naming the kind
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        text = "\x00"  # a byte Windows-1252 does not have: not text in that encoding either
    if _BINARY.search(text):
        raise DeckFormatError("not text (binary data): give a list saved as text", source=source)
    return text.encode("utf-8"), True


def read_block_list(path: str | Path) -> Deck:
    """Read a block-list file (UTF-8, BOM tolerated, or UTF-16 with a BOM)."""
    file = Path(path)
    data = file.read_bytes()
    if len(data) > MAX_TEXT_BYTES:
        raise DeckFormatError(f"block list larger than {MAX_TEXT_BYTES} bytes", source=str(file))
    return parse_block_list(decode_text(data, str(file)), source=str(file))


def _section_title(section: str) -> str:
    return {"main": "Main", "side": "Sideboard"}.get(section, section)


def format_block_list(deck: Deck, *, header: str = "") -> str:
    """Write ``deck`` in the block-list format (the inverse of :func:`parse_block_list`).

    ``header`` (and the deck's comments) become ``#`` comment lines at the top.
    """
    lines: list[str] = []
    if deck.name:
        lines.append(f"# Name: {deck.name}")
    for text in (header, deck.comments):
        for comment in text_lines(text):
            lines.append(f"# {comment}".rstrip())
    sections = [(name, entries) for name, entries in deck.sections.items() if entries]
    needs_headers = any(name != "main" for name, _ in sections)
    for name, entries in sections:
        if needs_headers:
            if lines:
                lines.append("")
            lines.append(f"[{_section_title(name)}]")
        for entry in entries:
            suffix = ""
            if entry.set_code:
                suffix = f" ({entry.set_code})" + (
                    f" {entry.collector_number}" if entry.collector_number else ""
                )
            lines.append(f"{entry.count} {entry.name}{suffix}")
    return "\n".join(lines) + "\n"
