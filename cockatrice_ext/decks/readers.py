"""Readers for the deck formats people paste or save, behind one entry point, :func:`read_deck`.

Formats (names used by ``format=``):

* ``cod``: Cockatrice ``.cod`` XML (``<cockatrice_deck>``, ``<zone name=..>``, ``<card number name
  [setShortName collectorNumber]>``, ``<playmatCard>``, ``<sideboard_plan>``); the zones Cockatrice plays
  (``main``, ``side``; ``tokens`` for its token menu, names compared exactly, as it does) and the ones the
  deck keeps outside its library (a maybeboard, a commander, Forge's variants) are read, with a warning for
  a zone Cockatrice does not play; another zone (``wishboard``, ``Main``) is left out, said with its count;
  sideboard plans and the playmat card are kept in the deck (the .cod writer writes them back; the export
  says when its target has no place for them); other unknown elements are ignored.
* ``dek``: MTGO ``.dek`` XML (``<Deck>`` with ``<Cards Quantity Name Sideboard>``; a ``Sideboard`` neither
  true nor false is main, said).
* ``forge``: Forge ``.dck`` (``[metadata]`` or the old ``[general]`` ``Name=``, ``[Main]``, ``[Sideboard]``,
  ``N Name|SET|art``; section names and keys case-insensitive; ``#``/``;`` comments; a quest's ``[shop]``
  skipped; a section Forge does not read is left out, said with its count, or, when it is one of the deck's
  sections outside its library (``[Companion]``, ``[Maybeboard]``), read as that and said).
* ``xmage``: XMage ``.dck`` (``N [SET:NUM] Name``, ``SB: N [SET:NUM] Name``; ``NAME:``/``AUTHOR:``/``LAYOUT``
  lines); a number with no set (``[:12]``) is dropped with a warning, as the CSV reader drops one.
* ``arena``: MTG Arena text (``Deck``/``Sideboard``/``Commander``/``Companion`` headers, ``N Name (SET) NUM``;
  without a ``Sideboard`` header a blank line after the main deck starts the sideboard, and one after a
  commander or companion the main deck, or the sideboard when the main deck came before it, as Arena
  exports ``Deck``, ``Commander``, then the sideboard; ``// Sideboard`` comment headers; ``*CMDR*`` and
  ``#!Commander`` mark the commander; a ``#`` after a space starts a comment).
* ``mtggoldfish``: what MTGGoldfish downloads and shows: MTGO text (``N Name`` lines, a blank line, the
  sideboard), its Arena text, and its group headings with counts (``Creatures (16)``, ``Sideboard (15)``);
  the same reader as ``arena``, whose rules cover all three.
* ``cubecobra``: CubeCobra's "Card Names (.txt)": one card name per line, taken whole (``1996 World
  Champion`` is a name, not a count), ``# mainboard`` / ``# maybeboard`` opening the boards.
* ``cubecobra-csv`` (also ``csv``, ``manabox``, ``deckbox``): a CSV table of cards, CubeCobra's
  "Comma-Separated (.csv)" and the CSV exports of Moxfield, Deckbox and ManaBox: a header row naming the
  columns (``name``, ``Count`` / ``Quantity``, ``Set``, ``Collector Number``, ``maybeboard``, ``tags``, ...;
  any case, any order, extra columns ignored; separated by commas, semicolons or tabs), then one row per
  card: the count column gives its copies, the set (a code, or Deckbox's full set name) and number pin the
  printing (a number with no set is dropped, with a warning), ``maybeboard`` true puts the card in the
  maybeboard, Archidekt's ``Categories`` name its commander, sideboard and maybeboard, ``tags``
  (comma-separated) become the entry's tags.
* ``text``: Cockatrice/MTGO plain text, with Cockatrice's rules: leading comment lines give the deck
  name and comments; ``SB:`` lines (if any) are the sideboard, else a ``Sideboard`` line splits, else a
  single blank line splits main and side (several blank-separated blocks are all main); Magic
  Workstation's ``// NAME :`` names the deck (``CREATOR``, ``FORMAT``: comments); the totals Cockatrice's
  annotated text writes (``// 4 Creature``) are no comments, and its ``// 15 Sideboard`` splits too;
  commanders as the block-list reader marks them (``// Commander``, ``*CMDR*``, ``#!Commander``).
* ``blocklist``: this project's block-list format (:mod:`cockatrice_ext.decks.blocklist`), which also reads
  what Moxfield and Archidekt export (their markers and categories).

:func:`sniff_format` guesses a format from the bytes; :func:`detect_format` is the command line's
policy on top of it (a list is a block list unless it is clearly something else), and
:data:`FORMAT_ALIASES` are the site names ``--from`` also accepts.

Every text reader splits lines only at ``\n``, ``\r\n`` and ``\r``
(:func:`~cockatrice_ext.decks.blocklist.text_lines`), as Cockatrice and Forge count them. The text readers
read card lines as the block-list reader does
(:func:`~cockatrice_ext.decks.blocklist.parse_card_line`), and remove the invisible characters copy and
paste leave in them with one warning naming their lines. Every reader raises :class:`DeckFormatError`
naming the source and line; XML is parsed with lxml without
entity expansion, DTD loading or network access. A saved web page (HTML) is refused as one by
:func:`read_deck`, saying to give the deck site's export instead.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cockatrice_ext.cards.errors import xml_syntax_message
from cockatrice_ext.decks.blocklist import (
    COMMAND_SECTIONS,
    MAX_TEXT_BYTES,
    SIDEBOARD_PREFIX,
    CommandSections,
    canonical_section,
    card_entry,
    category_section,
    check_name,
    cleaned_lines_warning,
    comment_section,
    decode_text,
    is_type_total,
    line_warning,
    normalize_name,
    note_invisible,
    note_joined,
    one_line_break,
    parse_block_list,
    section_header,
    strip_markers,
    text_lines,
    utf16_as_utf8,
    variant_warning,
    without_comment,
    without_invisible,
)
from cockatrice_ext.decks.errors import DeckFormatError, line_place
from cockatrice_ext.decks.model import MAYBE, VARIANT_SECTIONS, Deck, DeckEntry

if TYPE_CHECKING:
    from lxml import etree

FORMATS = (
    "cod",
    "dek",
    "forge",
    "xmage",
    "arena",
    "mtggoldfish",
    "text",
    "blocklist",
    "cubecobra",
    "cubecobra-csv",
)
FORMAT_ALIASES = {
    "mtga": "arena",
    "mtgo": "mtggoldfish",
    "moxfield": "blocklist",
    "archidekt": "blocklist",
    "csv": "cubecobra-csv",
    "manabox": "cubecobra-csv",
    "deckbox": "cubecobra-csv",
}
"""Deck sites and programs named by the format whose reader reads what they export."""
DECK_SUFFIXES = (".cod", ".dek", ".dck", ".txt", ".dec", ".mwdeck", ".deck", ".csv")
COCKATRICE_TEXT_SUFFIXES = (".dec", ".mwdeck")
"""Plain-text decks the command line reads with Cockatrice's own rules (``text``), not as block lists."""
MTGO_MIN_MAIN = 40
MTGO_MAX_SIDE = 15

_XMAGE_CARD = re.compile(r"^(?:(SB):\s*)?(\d{1,9})\s+\[([A-Za-z0-9_]*):([^\]]*)\]\s*(.+)$", re.IGNORECASE)
_XMAGE_META = re.compile(r"^(?:NAME|AUTHOR|LAYOUT\b)", re.IGNORECASE)
_ARENA_FIRST_LINES = ("deck", "commander", "companion", "about")
_ARENA_SET = re.compile(r"\(([A-Za-z0-9]{2,8})\)\s+[A-Za-z0-9★\-]+\s*$")
_SIDEBOARD_LINE = re.compile(r"^sideboard\b", re.IGNORECASE)
_DECK_HEADER = re.compile(r"^((main)?deck(list)?|mainboard)\b", re.IGNORECASE)
_CARD_START = re.compile(r"^\s*[\w\[\(\{]")
_MWS_FIELD = re.compile(r"^//\s*(NAME|CREATOR|FORMAT)\s*:\s*(.*)$", re.IGNORECASE)
_MWS_BANNER = "deck file for magic workstation"
_HTML_START = re.compile(
    rb"(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]", re.I | re.S
)
"""A saved web page's start (``<!DOCTYPE html>``, ``<html>``): a deck site's page, not its export."""
_FORMAT_WORDS = {
    "forge": "a Forge .dck deck",
    "xmage": "an XMage .dck deck",
    "arena": "MTG Arena text",
    "mtggoldfish": "MTGO text",
    "text": "plain text",
    "blocklist": "a block list (text)",
    "cubecobra": "a CubeCobra card-name list",
    "cubecobra-csv": "a CSV table of cards",
}
"""How an error names a format :func:`sniff_format` found (``not an MTGO .dek file: it looks like ...``)."""
_FORGE_SECTION = re.compile(r"^\[([^\]]*)\]$")
_FORGE_COUNT = re.compile(r"^(\d{1,9})\s+(.+)$")
_FORGE_SECTIONS = {
    "main": "main",
    "sideboard": "side",
    "commander": "commander",
    "companion": "companion",
    "tokens": "tokens",
    MAYBE: MAYBE,
    **{key: key for key in VARIANT_SECTIONS},
}
"""Forge's deck sections (case-insensitive) by the deck section each is read as; a ``[Companion]``,
``[Tokens]`` or ``[Maybeboard]`` (ours or a hand-written one, no Forge section) is read as that section,
outside the library."""
_FORGE_OWN_SECTIONS = frozenset({"main", "sideboard", "commander", *VARIANT_SECTIONS})
"""The sections Forge reads (``DeckSection``): read without a word."""
_FORGE_METADATA = frozenset({"metadata", "general"})
"""The header section: ``[metadata]``, or ``[general]`` in old Forge decks (Forge still reads it so)."""
_FORGE_IGNORED = frozenset({"shop"})
"""Sections of other Forge files a deck may hold, no cards (a quest deck's ``[shop]``)."""
_COD_OWN_ZONES = frozenset({"main", "side", "tokens", MAYBE, *VARIANT_SECTIONS})
"""The .cod zones the .cod writer writes: read back without a word."""
_MTGO_LINE = re.compile(r"^(\d{1,3})[xX]?\s+\S")
_CUBECOBRA_BOARD = re.compile(r"^#\s*(mainboard|maybeboard)\s*$", re.IGNORECASE)
_CSV_NAME_COLUMN = "name"
_CUBECOBRA_COLUMNS = frozenset(  # the columns that tell CubeCobra's CSV from other tables
    {"cmc", "type", "set", "collector number", "rarity", "color category", "maybeboard", "tags", "mtgo id"}
)
_TRUE = frozenset({"true", "yes", "1", "maybeboard"})
_CSV_DELIMITERS = (",", ";", "\t")
_CSV_COUNT_COLUMNS = ("count", "quantity", "qty", "amount", "anzahl", "menge", "quantité")
"""Columns giving a row's number of copies, the first one present used (Moxfield/Deckbox ``Count``, ManaBox
``Quantity``, a German or French spreadsheet's ``Anzahl``, ``Quantité``)."""
_CSV_SET_COLUMNS = ("set", "set code", "edition code")
"""Columns holding a row's set code (CubeCobra's ``Set``, ManaBox's ``Set code``, Archidekt's and Deckbox's
``Edition Code``), the first one present used."""
_CSV_SET_NAME_COLUMNS = ("edition", "set name", "edition name")
"""Columns holding the set's name (Deckbox's ``Edition``: ``Core Set 2021``) or, in Moxfield's ``Edition``,
its code: read when no set code column gives one."""
_CSV_OTHER_COLUMNS = frozenset(
    {"set code", "edition", "edition code", "edition name", "set name", "foil", "condition", "language"}
)
"""Columns of the collection exports (Moxfield, Deckbox, ManaBox, Archidekt) that tell their tables from other
text."""
_SET_CODE = re.compile(r"[A-Za-z0-9]{2,6}")

# ----------------------------------------------------------------------------------------------------
# helpers


def _entry(text: str, *, deck: Deck, source: str, line: int) -> DeckEntry:
    """The entry of card line ``text`` (:func:`~cockatrice_ext.decks.blocklist.card_entry`: its doubts are
    ``deck``'s warnings); a line that is no card raises :class:`DeckFormatError` naming it."""
    try:
        return card_entry(text, line, deck, source)
    except ValueError as exc:
        raise DeckFormatError(str(exc), source=source, line=line) from None


def _end_of_list(deck: Deck, cleaned: dict[int, list[str]], source: str) -> None:
    """What a text reader says once it read its list: the invisible characters removed from its card
    lines (one warning naming them, as the block-list reader's)."""
    if cleaned:
        deck.read_warnings.append(cleaned_lines_warning(cleaned, source))


def _read_line(raw: str) -> str:
    """A line of a text list as a reader reads it: stripped, and a byte-order mark starting it
    removed (a file's own is before line 1; one further down, where two files were joined, is no part of
    the line either: :func:`_hidden_text` keeps it for the warning)."""
    return raw.strip().lstrip("\ufeff")


def _hidden_text(raw: str, number: int, card: str) -> str:
    """The text of line ``number`` (``raw``) whose invisible characters the reader removes: its card text
    ``card`` (without a comment), after the byte-order mark starting it past line 1 (where two files were
    joined; line 1's is the file's own)."""
    joined = number > 1 and raw.strip().startswith("\ufeff")
    return "\ufeff" + card if joined else card


def _checked_name(raw: str, *, source: str, line: int) -> str:
    name = normalize_name(raw)
    problem = check_name(name)
    if problem:
        raise DeckFormatError(problem, source=source, line=line)
    return name


def _count(raw: str | None, *, source: str, line: int, what: str = "count") -> int:
    text = (raw or "").strip()
    if not text.isdigit() or len(text) > 9:
        raise DeckFormatError(
            f"{what} must be a positive whole number, got {raw!r}", source=source, line=line
        )
    value = int(text)
    if not 0 < value <= 999:
        raise DeckFormatError(f"{what} must be between 1 and 999, got {value}", source=source, line=line)
    return value


def _xml_root(data: bytes, source: str) -> etree._Element:
    from lxml import etree  # imported here: text formats never pay for lxml

    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False, huge_tree=False
    )
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError as exc:
        line = exc.position[0] if exc.position else 0
        raise DeckFormatError(f"malformed XML: {xml_syntax_message(exc)}", source=source, line=line) from None
    if root is None:
        raise DeckFormatError("empty XML document", source=source)
    tree = root.getroottree()
    if tree.docinfo.internalDTD is not None or tree.docinfo.doctype:
        raise DeckFormatError("XML with a DOCTYPE is not accepted", source=source)
    return root


def _local(tag: Any) -> str:
    """The local name of an element tag (comments and processing instructions have none)."""
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2]


# ----------------------------------------------------------------------------------------------------
# XML formats


def _no_xml(data: bytes, source: str, what: str) -> None:
    """Refuse ``data`` given as the XML file ``what`` (``an MTGO .dek file``) when it is no XML at all (its
    first character is not ``<``), saying what format it looks like, rather than an XML parser's words."""
    head = utf16_as_utf8(data)[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head or head.startswith(b"<"):
        return
    looks = detect_format(data)
    raise DeckFormatError(
        f"not {what} (XML): it looks like {_FORMAT_WORDS.get(looks, looks)}; give it with --from {looks},"
        " or without --from to have it detected",
        source=source,
    )


def read_cod(data: bytes, source: str = "<text>") -> Deck:
    """Read a Cockatrice ``.cod`` deck."""
    _no_xml(data, source, "a Cockatrice .cod file")
    root = _xml_root(data, source)
    if _local(root.tag) != "cockatrice_deck":
        raise DeckFormatError(f"root element is <{_local(root.tag)}>, not <cockatrice_deck>", source=source)
    deck = Deck()
    refused: list[DeckFormatError] = []  # every card element that cannot be read, said at once
    for element in root:
        tag = _local(element.tag)
        if tag == "deckname":
            deck.name = (element.text or "").strip()
        elif tag == "comments":
            deck.comments = (element.text or "").strip()
        elif tag == "format":
            deck.format = (element.text or "").strip()
        elif tag == "bannerCard":
            deck.banner_card = (element.text or "").strip()
            deck.banner_provider_id = str(element.get("providerId") or "")
        elif tag == "playmatCard":
            deck.playmat_card = (element.text or "").strip()
            deck.playmat_attributes = {str(key): str(value) for key, value in element.attrib.items()}
        elif tag == "sideboard_plan":
            deck.sideboard_plans.append(_sideboard_plan(element))
        elif tag == "tags":
            deck.tags = [t for t in ((c.text or "").strip() for c in element if _local(c.tag) == "tag") if t]
        elif tag == "zone":
            zone = (element.get("name") or "").strip()
            if not zone:
                raise DeckFormatError("<zone> without a name", source=source, line=element.sourceline or 0)
            section = _cod_zone(zone)
            if section is None:
                _left_out_zone(deck, element, zone, source)
                continue
            entries = deck.section(section)
            if zone not in _COD_OWN_ZONES and any(_local(card.tag) == "card" for card in element):
                deck.read_warnings.append(_zone_read_as(element, zone, section, source))
            for card in element:
                if _local(card.tag) != "card":
                    continue
                line = card.sourceline or 0
                raw = card.get("name") or ""
                try:
                    name = _checked_name(raw, source=source, line=line)
                    count = _count(card.get("number"), source=source, line=line, what="number")
                except DeckFormatError as exc:
                    refused.append(exc)
                    continue
                if raw.rstrip(" ") == name:  # Magic-Token tells same-named tokens apart by trailing spaces
                    name = raw
                entries.append(
                    DeckEntry(
                        name=name,
                        count=count,
                        set_code=(card.get("setShortName") or "").strip().upper(),
                        collector_number=(card.get("collectorNumber") or "").strip(),
                        line=line,
                    )
                )
    if refused:
        raise _refused_cards(refused, source)
    return deck


MAX_REFUSED_SAID = 25
"""A .cod's refused card elements listed at most; a count stands for the rest."""


def _refused_cards(refused: list[DeckFormatError], source: str) -> DeckFormatError:
    """One error for every ``<card>`` of a .cod that cannot be read (a number ``4x``, ``0`` or ``-3``, a name
    no card has): all of them, so that one run names every line to fix, as unknown names are; one is said as
    itself, more each at its ``FILE:LINE`` (:func:`~cockatrice_ext.decks.errors.line_place`, so an editor
    jumps to each) under a heading pointing at the first."""
    if len(refused) == 1:
        return refused[0]
    said = [f"  {line_place(source, error.line)}: {error.message}" for error in refused[:MAX_REFUSED_SAID]]
    if len(refused) > MAX_REFUSED_SAID:
        said.append(f"  ... and {len(refused) - MAX_REFUSED_SAID} more")
    message = "\n".join([f"{len(refused)} card entries cannot be read:", *said])
    return DeckFormatError(message, source=source, line=refused[0].line)


def _sideboard_plan(element: etree._Element) -> dict[str, Any]:
    """A ``<sideboard_plan>`` as plain values (:attr:`~cockatrice_ext.decks.model.Deck.sideboard_plans`): its
    ``name`` and each ``move_card_to_zone``'s ``card_name``, ``start_zone`` and ``target_zone``."""

    def child_text(parent: etree._Element, name: str) -> str:
        found = next((c for c in parent if _local(c.tag) == name), None)
        return (found.text or "").strip() if found is not None else ""

    moves = [
        {key: child_text(move, key) for key in ("card_name", "start_zone", "target_zone")}
        for move in element
        if _local(move.tag) == "move_card_to_zone"
    ]
    return {"name": child_text(element, "name"), "moves": moves}


def _cod_zone(zone: str) -> str | None:
    """The section a .cod zone is: ``main``, ``side`` and ``tokens`` as named (Cockatrice's zones; it compares
    names exactly); a maybeboard under any of its names; commander, companion and Forge's variant sections
    (``planes``) by their lower-case name; ``None`` for any other zone (``wishboard``, ``Main``): Cockatrice
    keeps it in the file but never plays it, and every writer would put a section of another name in the
    library (a block list's category), so its cards are left out (:func:`_left_out_zone` says so)."""
    if zone in ("main", "side", "tokens"):
        return zone
    key = zone.lower()
    if key in ("maybe", "maybeboard", "considering"):
        return MAYBE
    if key in ("commander", "companion") or key in VARIANT_SECTIONS:
        return key
    return None


def _cards_phrase(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _lenient_count(raw: str | None) -> int:
    """A count in a part of a file that is left out: its number when it is one, else 0 (never an error: the
    cards are not read)."""
    text = (raw or "").strip()
    return int(text) if text.isdigit() and len(text) <= 9 else 0


def _zone_read_as(element: etree._Element, zone: str, section: str, source: str) -> str:
    """The warning of a .cod zone Cockatrice does not play, read as a section of the deck outside its library
    (``maybe`` as the maybeboard, ``Commander`` as the commander)."""
    count = sum(_lenient_count(c.get("number")) for c in element if _local(c.tag) == "card")
    return line_warning(
        source,
        element.sourceline or 0,
        f"zone {zone!r} ({_cards_phrase(count)}) is no zone Cockatrice plays (it plays 'main' and 'side'):"
        f" read as the deck's {section}, not as main-deck cards",
    )


def _left_out_zone(deck: Deck, element: etree._Element, zone: str, source: str) -> None:
    """Say that the cards of .cod zone ``zone`` (``element``), no zone Cockatrice plays nor one of the deck's
    sections (:func:`_cod_zone`), are left out; an empty zone loses nothing and is not said."""
    count = sum(_lenient_count(c.get("number")) for c in element if _local(c.tag) == "card")
    if not count:
        return
    played = {"main": "main", "side": "side", "tokens": "tokens"}.get(zone.lower())
    hint = (
        f"; Cockatrice compares zone names exactly, rename it {played!r} to use them"
        if played
        else ", and no output has a place for it"
    )
    deck.read_warnings.append(
        line_warning(
            source,
            element.sourceline or 0,
            f"zone {zone!r} ({_cards_phrase(count)}) left out: Cockatrice keeps it in the file but plays only"
            f" the zones 'main' and 'side' (and 'tokens' in its token menu){hint}",
        )
    )


def read_dek(data: bytes, source: str = "<text>") -> Deck:
    """Read an MTGO ``.dek`` XML deck. A ``Sideboard`` neither ``true`` nor ``false`` is read as ``false``
    (the main deck), with a warning naming those lines."""
    _no_xml(data, source, "an MTGO .dek file")
    root = _xml_root(data, source)
    if _local(root.tag) != "Deck":
        raise DeckFormatError(f"root element is <{_local(root.tag)}>, not <Deck>", source=source)
    deck = Deck()
    deck.section("main")
    odd_sideboard: dict[str, list[int]] = {}  # a Sideboard value neither true nor false -> its lines
    for card in root:
        if _local(card.tag) != "Cards":
            continue
        line = card.sourceline or 0
        said = (card.get("Sideboard") or "false").strip()
        side = said.lower() == "true"
        if said.lower() not in ("true", "false"):
            odd_sideboard.setdefault(said, []).append(line)
        deck.section("side" if side else "main").append(
            DeckEntry(
                name=_checked_name(card.get("Name") or "", source=source, line=line),
                count=_count(card.get("Quantity"), source=source, line=line, what="Quantity"),
                line=line,
            )
        )
    for value, lines in odd_sideboard.items():
        deck.read_warnings.append(
            line_warning(
                source, lines, f"Sideboard={value!r} is neither 'true' nor 'false': read as main-deck cards"
            )
        )
    return deck


# ----------------------------------------------------------------------------------------------------
# text formats


def read_forge(text: str, source: str = "<text>") -> Deck:
    """Read a Forge ``.dck`` deck (cards before any section header count as ``main``)."""
    deck = Deck()
    section: str | None = "main"
    in_metadata = False
    unknown = ""  # the title of the section Forge does not read that the lines are in, else ""
    left_out: dict[str, tuple[int, int]] = {}  # such a section's title -> (its header's line, its cards)
    read_as: dict[str, list[Any]] = {}  # a section Forge does not read, read as one of the deck's -> said
    not_forges = ""  # the deck's section a section Forge does not read is read as ([Companion]), else ""
    cleaned: dict[int, list[str]] = {}  # line -> the invisible characters removed from it
    for number, raw in enumerate(text_lines(text), start=1):
        line = _read_line(raw)
        note_joined(cleaned, number, raw)
        if not line or line[0] in "#;":
            continue
        header = _FORGE_SECTION.match(line)
        if header:
            title = header.group(1).strip()
            key = title.lower()
            in_metadata = key in _FORGE_METADATA
            section = _FORGE_SECTIONS.get(key)
            unknown = "" if in_metadata or key in _FORGE_IGNORED or section is not None else title
            if unknown:
                left_out.setdefault(unknown, (number, 0))
            if section is not None:
                deck.section(section)
            not_forges = section if section is not None and key not in _FORGE_OWN_SECTIONS else ""
            if not_forges:
                read_as.setdefault(title, [number, section, 0])
            continue
        if unknown:  # Forge skips the section: its cards are counted, to say they are left out
            if "=" in line:
                continue  # a key=value setting, no card (no card's name holds "=")
            counted = _FORGE_COUNT.match(line)
            at, cards = left_out[unknown]
            left_out[unknown] = (at, cards + (_lenient_count(counted.group(1)) if counted else 1))
            continue
        if in_metadata:
            key, sep, value = line.partition("=")
            if sep and key.strip().lower() == "name":
                deck.name = value.strip()
            elif sep and key.strip().lower() in ("comment", "description") and not deck.comments:
                deck.comments = value.strip()
            continue
        if section is None:
            continue
        count = 1
        counted = _FORGE_COUNT.match(line)
        if counted:
            count = _count(counted.group(1), source=source, line=number)
            line = counted.group(2)
        name, *extra = line.split("|")
        name = name.strip().removesuffix("+").strip()
        note_invisible(cleaned, number, _hidden_text(raw, number, name))
        set_code = extra[0].strip().upper() if extra and extra[0].strip() != "???" else ""
        collector = ""
        art_index = 0
        for position, part in enumerate(extra[1:]):
            part = part.strip()
            if part.startswith("[") and part.endswith("]"):
                collector = part[1:-1]
            elif position == 0 and part.isdigit() and len(part) <= 3:  # Name|SET|artIndex
                art_index = int(part)
        deck.section(section).append(
            DeckEntry(
                name=_checked_name(name, source=source, line=number),
                count=count,
                set_code=set_code,
                collector_number=collector,
                line=number,
                art_index=art_index if set_code else 0,
            )
        )
        if not_forges:
            read_as[title][2] += count
    _end_of_list(deck, cleaned, source)
    for title, (at, section_read, cards) in read_as.items():
        if cards:
            deck.read_warnings.append(
                line_warning(
                    source,
                    at,
                    f"section [{title}] ({_cards_phrase(cards)}) is no section Forge reads: read as the"
                    f" deck's {section_read}, not as main-deck cards",
                )
            )
    for title, (at, cards) in left_out.items():
        if cards:
            deck.read_warnings.append(
                line_warning(
                    source,
                    at,
                    f"section [{title}] ({_cards_phrase(cards)}) left out: Forge reads no such section (only"
                    " [Main], [Sideboard], [Commander] and its variant sections such as [Planes]), and no"
                    " output has a place for it",
                )
            )
    return deck


def read_xmage(text: str, source: str = "<text>") -> Deck:
    """Read an XMage ``.dck`` deck (``N [SET:NUM] Name``; plain ``N Name`` lines are accepted too)."""
    deck = Deck()
    deck.section("main")
    cleaned: dict[int, list[str]] = {}  # line -> the invisible characters removed from it
    unpinned: list[int] = []  # lines whose collector number was dropped for want of a set
    for number, raw in enumerate(text_lines(text), start=1):
        line = _read_line(raw)
        note_joined(cleaned, number, raw)
        if not line or line.startswith(("#", "//")):
            continue
        if _XMAGE_META.match(line):
            if line.upper().startswith("NAME:"):
                deck.name = line[5:].strip()
            continue
        note_invisible(cleaned, number, _hidden_text(raw, number, line))
        match = _XMAGE_CARD.match(line)
        if match:
            side, count, set_code, collector, name = match.groups()
            collector = collector.strip()
            if collector and not set_code:  # [:12]: a number in no set would pin any set's number 12
                unpinned.append(number)
                collector = ""
            deck.section("side" if side else "main").append(
                DeckEntry(
                    name=_checked_name(name, source=source, line=number),
                    count=_count(count, source=source, line=number),
                    set_code=set_code.upper(),
                    collector_number=collector,
                    line=number,
                )
            )
            continue
        side_match = SIDEBOARD_PREFIX.match(line)
        target = "side" if side_match else "main"
        rest = line[side_match.end() :] if side_match else line
        deck.section(target).append(_entry(rest, deck=deck, source=source, line=number))
    _end_of_list(deck, cleaned, source)
    deck.read_warnings.extend(_unpinned_numbers({"": unpinned} if unpinned else {}, source, "line"))
    return deck


def read_arena(text: str, source: str = "<text>") -> Deck:
    """Read MTG Arena, MTGO or MTGGoldfish text (``N Name [(SET) NUM]`` lines under optional headers).

    Headers are the block list's (``Deck``, ``Sideboard``, ``Commander``, ``Companion``, ``Creatures (16)``);
    with no ``Sideboard`` header, the first blank line after main-deck cards starts the sideboard.
    """
    deck = Deck()
    lines = text_lines(text)
    has_side_header = has_sideboard_header(text)
    section = "main"
    blank_after_cards = False
    in_about = False
    command = CommandSections(deck, source)
    cleaned: dict[int, list[str]] = {}  # line -> the invisible characters removed from it
    for number, raw in enumerate(lines, start=1):
        line = _read_line(raw)
        note_joined(cleaned, number, raw)
        if not line:
            blank_after_cards = bool(deck.sections.get(section)) and section == "main"
            if section in COMMAND_SECTIONS and deck.sections.get("main") and not has_side_header:
                # Arena's shape: Deck, then Commander or Companion, then the sideboard's cards
                blank_after_cards = True
            section = command.blank(section)  # a commander's or companion's blank line: the deck follows
            in_about = False
            continue
        commented = comment_section(line)
        if commented is not None:  # "// Sideboard", "# Commander"
            section = command.header(commented)
            blank_after_cards = False
            continue
        if line.startswith(("#", "//")):
            continue
        lowered = line.lower()
        if lowered == "about":
            in_about = True
            continue
        if in_about:
            if lowered.startswith("name "):
                deck.name = line[5:].strip()
            continue
        header = None if line[:1].isdigit() else section_header(line)
        if header is not None:
            if not header:
                raise DeckFormatError("empty section header", source=source, line=number)
            section = command.header(header)
            blank_after_cards = False
            continue
        if blank_after_cards and not has_side_header and section == "main":
            section = "side"
        blank_after_cards = False
        line, target = without_comment(line, section)
        note_invisible(cleaned, number, _hidden_text(raw, number, line))
        entry = _entry(line, deck=deck, source=source, line=number)
        if variant := variant_warning(line, source, number):
            deck.read_warnings.append(variant)
        target = _marked_section(line, target)
        command.card(target, entry.count, number)
        deck.section(target).append(entry)
    deck.section("main")
    _companion_once(deck)
    _end_of_list(deck, cleaned, source)
    return deck


def _companion_once(deck: Deck) -> None:
    """Arena exports the companion twice, under ``Companion`` and in the sideboard (where the game keeps
    it): the sideboard's copy is dropped, so writers that put the companion in the sideboard have one."""
    side = deck.sections.get("side", [])
    for companion in deck.sections.get("companion", []):
        key = companion.name.casefold()
        same = next((i for i, e in enumerate(side) if e.name.casefold() == key), None)
        if same is None:
            continue
        left = side[same].count - companion.count
        if left > 0:
            side[same] = dataclasses.replace(side[same], count=left)
        else:
            del side[same]


def _marked_section(line: str, section: str) -> str:
    """The section of a card ``line`` read in ``section``: the commander's when TappedOut's ``*CMDR*`` marks
    it in the main deck, else ``section``."""
    marked = strip_markers(line)[1] if "*" in line else ""
    return "commander" if marked == "commander" and section == "main" else section


def has_sideboard_header(text: str) -> bool:
    """Whether a line of ``text`` is a sideboard header (``Sideboard``, ``Sideboard (15)``, ``[Sideboard]``,
    ``// Sideboard``); without one, Arena and MTGO text take the cards after the first blank line as the
    sideboard."""
    return any(
        section_header(line.strip()) == "side" or comment_section(line.strip()) == "side"
        for line in text_lines(text)
    )


def has_sideboard_marks(text: str) -> bool:
    """Whether ``text`` says where its sideboard is (a sideboard header, or ``SB:`` lines), rather than
    leaving it to a blank line."""
    marked = any(SIDEBOARD_PREFIX.match(line.strip()) for line in text_lines(text))
    return has_sideboard_header(text) or marked


def read_cubecobra(text: str, source: str = "<text>") -> Deck:
    """Read CubeCobra's card-name list: every line a whole card name (count 1); ``# mainboard`` and
    ``# maybeboard`` open the boards, other ``#`` lines are comments."""
    deck = Deck()
    section = "main"
    cleaned: dict[int, list[str]] = {}  # line -> the invisible characters removed from it
    for number, raw in enumerate(text_lines(text), start=1):
        line = _read_line(raw)
        note_joined(cleaned, number, raw)
        if not line:
            continue
        if line.startswith("#"):
            board = _CUBECOBRA_BOARD.match(line)
            if board:
                section = canonical_section(board.group(1))
                deck.section(section)
            continue  # any other "#" line is a comment
        note_invisible(cleaned, number, _hidden_text(raw, number, line))
        deck.section(section).append(
            DeckEntry(name=_checked_name(line, source=source, line=number), line=number)
        )
    deck.section("main")
    _end_of_list(deck, cleaned, source)
    return deck


def _csv_columns(header: list[str]) -> dict[str, int]:
    """Lower-cased column name -> index (the first of equal names)."""
    columns: dict[str, int] = {}
    for index, title in enumerate(header):
        columns.setdefault(title.strip().lstrip("\ufeff").lower(), index)
    return columns


def _csv_delimiter(first_line: str) -> str | None:
    """The delimiter of a CSV table whose header is ``first_line``: a comma, a semicolon (what Excel writes
    where the decimal mark is a comma: German, French) or a tab, the one whose split names a ``name``
    column; ``None`` when none does."""
    for delimiter in _CSV_DELIMITERS:
        if delimiter not in first_line:
            continue
        try:
            header = next(csv.reader([first_line], delimiter=delimiter), [])
        except csv.Error:
            continue
        if _CSV_NAME_COLUMN in _csv_columns(header):
            return delimiter
    return None


def _csv_count_column(columns: dict[str, int]) -> str | None:
    """The column holding each row's number of copies (``Count``, ``Quantity``, ``Qty``, ``Amount``;
    Moxfield's and Deckbox's ``Tradelist Count`` is not one), or ``None``: each row is one card."""
    return next((name for name in _CSV_COUNT_COLUMNS if name in columns), None)


@functools.lru_cache(maxsize=1)
def set_codes_by_name() -> dict[str, str]:
    """Every real set's code by its full name, case-folded (``core set 2021`` -> ``M21``), and by its code
    (``m21`` -> ``M21``): the shipped card data's sets (empty when it cannot be read)."""
    from cockatrice_ext.cards.errors import CardDataError
    from cockatrice_ext.cards.store import shipped_store

    try:
        sets = shipped_store().sets
    except CardDataError:
        return {}
    codes = {code.casefold(): code.upper() for code in sets}
    names = {card_set.name.casefold(): code.upper() for code, card_set in sets.items() if card_set.name}
    return {**codes, **names}  # no set is named as another's code; a name wins


def _csv_set_code(row_set: str, edition: str) -> str:
    """The set code a row pins: its set code cell (``Set``, ``Set code``, ``Edition Code``), else its
    ``Edition`` (or ``Set name``) cell: a set's full name as the card data names it (Deckbox's ``Core Set
    2021`` -> ``M21``, any case), else a code (Moxfield's ``m10``); ``""`` for a name no set has."""
    if row_set:
        return row_set.upper()
    known = set_codes_by_name().get(edition.casefold()) if edition else None
    if known:
        return known
    return edition.upper() if _SET_CODE.fullmatch(edition) else ""


def _unpinned_numbers(unpinned: dict[str, list[int]], source: str, where: str = "row") -> list[str]:
    """The warnings of a list whose collector numbers were dropped for want of a set: one per set name no
    set has (``""``: the ``where``, a table's row or XMage's line, named no set), naming its lines (each a
    :class:`~cockatrice_ext.decks.blocklist.LineWarning` of its first line)."""
    said: list[str] = []
    for edition, lines in unpinned.items():
        why = f"no set is named {edition!r} in the card data" if edition else f"the {where} names no set"
        numbers = "collector number" if len(lines) == 1 else "collector numbers"
        pin = (
            "a set code column, such as 'Set Code' or 'Edition Code', pins the printing"
            if where == "row"
            else "[SET:NUMBER] pins the printing"
        )
        dropped = f"{numbers} dropped ({why}); the card's usual printing is used ({pin})"
        said.append(line_warning(source, lines, dropped))
    return said


def read_cubecobra_csv(text: str, source: str = "<text>") -> Deck:
    """Read a CSV table of cards: CubeCobra's export, and the collection and deck exports of Moxfield,
    Deckbox, ManaBox and spreadsheets. A header row names the columns (any case, any order, extra columns
    ignored; comma-, semicolon- or tab-separated): ``name``; a count column (``Count``, ``Quantity``,
    ``Qty``, ``Amount``: each row that many copies, a positive whole number, else an error naming the
    line; without one, one copy a row); the set (``Set``, ``Set code``, ``Edition Code``, else ``Edition``
    or ``Set name``: a set's full name as the card data has it, or a code) and ``Collector Number`` (or
    ``Card Number``) pin the printing, a number whose set is not known being dropped with one warning per
    set name naming its lines (alone, it would pin the first printing so numbered in any set);
    ``maybeboard`` true puts the card in the maybeboard, Archidekt's ``Categories`` (``Commander``,
    ``Sideboard``, ``Maybeboard``) in that section; ``tags`` (comma-separated) become the entry's tags."""
    deck = Deck()
    deck.section("main")
    first = next((line for line in text_lines(text) if line.strip()), "")
    delimiter = _csv_delimiter(first) or ","
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)  # quoted notes hold line breaks
    try:
        header = next(rows, None)
        while header is not None and not any(value.strip() for value in header):
            header = next(rows, None)
        if header is None:
            raise DeckFormatError("empty CSV file", source=source)
        columns = _csv_columns(header)
        if _CSV_NAME_COLUMN not in columns:
            shown = delimiter.join(header)[:200]
            raise DeckFormatError(
                f"CSV header has no {_CSV_NAME_COLUMN!r} column (got: {shown}); the columns are read"
                " separated by commas, semicolons or tabs",
                source=source,
                line=rows.line_num,
            )
        count_column = _csv_count_column(columns)
        set_column = next((name for name in _CSV_SET_COLUMNS if name in columns), None)
        set_name_column = next((name for name in _CSV_SET_NAME_COLUMNS if name in columns), None)
        unpinned: dict[str, list[int]] = {}  # set name -> lines whose number was dropped for want of a set

        def cell(row: list[str], column: str | None) -> str:
            index = columns.get(column) if column is not None else None
            return row[index].strip() if index is not None and index < len(row) else ""

        for row in rows:
            number = rows.line_num
            if not any(value.strip() for value in row):
                continue
            name = _checked_name(cell(row, _CSV_NAME_COLUMN), source=source, line=number)
            count = 1
            if count_column is not None:
                raw = cell(row, count_column)
                count = _count(raw, source=source, line=number, what=f"{header[columns[count_column]]!r}")
            maybe = cell(row, "maybeboard").lower() in _TRUE
            section = MAYBE if maybe else category_section(cell(row, "categories")) or "main"
            tags = tuple(dict.fromkeys(t.strip() for t in cell(row, "tags").split(",") if t.strip()))
            edition = cell(row, set_name_column)
            set_code = _csv_set_code(cell(row, set_column), edition)
            collector = cell(row, "collector number") or cell(row, "card number")
            if collector and not set_code:  # a number in no set would pin the first printing so numbered
                unpinned.setdefault(edition, []).append(number)
                collector = ""
            deck.section(section).append(
                DeckEntry(
                    name=name,
                    count=count,
                    set_code=set_code,
                    collector_number=collector,
                    line=number,
                    tags=tags,
                )
            )
    except csv.Error as exc:
        raise DeckFormatError(f"malformed CSV: {exc}", source=source, line=rows.line_num) from None
    deck.read_warnings.extend(_unpinned_numbers(unpinned, source))
    return deck


def read_text(text: str, source: str = "<text>") -> Deck:
    """Read Cockatrice/MTGO plain text with Cockatrice's header, ``SB:`` and blank-line rules.

    As the block-list reader reads them, a ``// Commander`` or ``// Companion`` comment opens that section,
    whose cards a blank line ends (the deck follows; its block is not counted by the blank-line rule),
    TappedOut's ``*CMDR*`` and Deckstats' ``#!Commander`` mark a main card as the commander, and a ``#``
    after a space starts a comment."""
    deck = Deck()
    lines = text_lines(text)
    first_card = next((i for i, line in enumerate(lines) if _CARD_START.match(line)), len(lines))
    deck_start = 0
    for i in range(first_card - 1, -1, -1):
        if not lines[i].strip():
            deck_start = i + 1
            break
    header = [line.strip() for line in lines[:deck_start] if line.strip() and not _annotation(line.strip())]
    header_text = [re.sub(r"^[^\w\[\(\{]*", "", line) for line in header]
    if header_text:
        deck.name = header_text[0]
        deck.comments = "\n".join(header_text[1:])
    _mws_header(deck, lines[:first_card])
    body = list(enumerate(lines, start=1))[deck_start:]
    uses_sb = any(SIDEBOARD_PREFIX.match(line.strip()) for _, line in body)
    side_header = (  # "// 15 Sideboard": Cockatrice's annotated text (which also writes SB:)
        None
        if uses_sb
        else next(
            (
                n
                for n, line in body
                if _SIDEBOARD_LINE.match(line.strip()) or comment_section(line.strip()) == "side"
            ),
            None,
        )
    )
    # Blank-line split: only if exactly two non-empty blocks, a commander's or companion's not counted.
    blocks: list[list[int]] = []
    current: list[int] = []
    for n, line in body:
        if line.strip():
            current.append(n)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    opening = {n: _command_header(line) for n, line in body}
    blocks = [block for block in blocks if opening[block[0]] is None]
    split_at = blocks[1][0] if not uses_sb and side_header is None and len(blocks) == 2 else None
    deck.section("main")
    first_nonempty = True
    section = "main"  # or the commander or companion section a "// Commander" line opened
    command = CommandSections(deck, source)
    cleaned: dict[int, list[str]] = {}  # line -> the invisible characters removed from it
    for n, raw in enumerate(lines, start=1):  # the header's lines too: a name, a comment
        note_joined(cleaned, n, raw)
    for n, raw in body:
        line = _read_line(raw)
        if not line:
            section = command.blank(section)  # a commander's blank line: the deck (or sideboard) follows
            continue
        if first_nonempty and _DECK_HEADER.match(line):
            first_nonempty = False
            continue
        first_nonempty = False
        if n == side_header:
            continue
        if opening[n] is not None:
            section = command.header(opening[n])
            continue
        # non-card lines (comments) are skipped as Cockatrice does; a card after a zero-width space is read
        if not _CARD_START.match(without_invisible(line)) and not SIDEBOARD_PREFIX.match(line):
            continue
        target = "main"
        sideboard = SIDEBOARD_PREFIX.match(line)
        if sideboard:
            target, line = "side", line[sideboard.end() :]
        elif section in COMMAND_SECTIONS:
            target = section
        elif (side_header is not None and n > side_header) or (split_at is not None and n >= split_at):
            target = "side"
        line, target = without_comment(line, target)
        note_invisible(cleaned, n, _hidden_text(raw, n, line))
        entry = _entry(line, deck=deck, source=source, line=n)
        target = _marked_section(line, target)
        command.card(target, entry.count, n)
        deck.section(target).append(entry)
    _end_of_list(deck, cleaned, source)
    return deck


def _command_header(line: str) -> str | None:
    """The commander or companion section a comment line opens (``// Commander``, ``# Companion``: the
    block-list reader's :func:`~cockatrice_ext.decks.blocklist.comment_section`), or None."""
    section = comment_section(_read_line(line))
    return section if section in COMMAND_SECTIONS else None


def _annotation(line: str) -> bool:
    """Whether ``line`` is one of the totals Cockatrice's annotated plain text writes (``// 60 Maindeck``,
    ``// 15 Sideboard``, ``// 24 Land``): not a name or comment of the user's."""
    return is_type_total(line) or (comment_section(line) is not None and line.lstrip("/ ")[:1].isdigit())


def _mws_header(deck: Deck, leading: list[str]) -> None:
    """Magic Workstation's header (``// NAME : Burn``, ``// CREATOR : me``, ``// FORMAT : Modern``, among the
    comment lines before the first card, blank line or not): the ``NAME`` names ``deck``, the other fields
    and comment lines are its comments (without the line saying the file is Magic Workstation's)."""
    fields = [_MWS_FIELD.match(line.strip()) for line in leading]
    if not any(fields):
        return
    comments: list[str] = []
    for line, field in zip(leading, fields, strict=True):
        if field is None:
            text = re.sub(r"^[^\w\[\(\{]*", "", line.strip())
            if text and not text.lower().startswith(_MWS_BANNER):
                comments.append(text)
        elif field.group(1).upper() == "NAME":
            deck.name = field.group(2).strip() or deck.name
        elif field.group(2).strip():
            comments.append(f"{field.group(1).capitalize()}: {field.group(2).strip()}")
    deck.comments = "\n".join(comments)


# ----------------------------------------------------------------------------------------------------
# sniffing and the entry point


def _looks_like_csv_header(line: str) -> bool:
    """A CSV header (comma-, semicolon- or tab-separated) naming a ``name`` column and a count column, or at
    least two of the other columns card tables have (CubeCobra's, the collection exports')."""
    delimiter = _csv_delimiter(line)
    if delimiter is None:
        return False
    columns = set(_csv_columns(next(csv.reader([line], delimiter=delimiter), [])))
    if _csv_count_column({column: 0 for column in columns}) is not None:
        return True
    return len(columns & (_CUBECOBRA_COLUMNS | _CSV_OTHER_COLUMNS)) >= 2


def sniff_format(data: bytes, filename: str = "") -> str:
    """Guess the format of ``data`` (file ``filename`` if known); one of :data:`FORMATS`."""
    data = one_line_break(utf16_as_utf8(data))
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    suffix = Path(filename).suffix.lower()
    if head.startswith(b"<"):
        if b"cockatrice_deck" in head:
            return "cod"
        if re.search(rb"<Deck[\s>]", head):
            return "dek"
        return "cod" if suffix == ".cod" else "dek" if suffix == ".dek" else "cod"
    if suffix == ".cod":
        return "cod"
    text = data.decode("utf-8", errors="replace")
    lines = [line.strip() for line in text_lines(text) if line.strip()]
    lowered = [line.lower() for line in lines]
    if lines and (suffix == ".csv" or _looks_like_csv_header(lines[0].lstrip("\ufeff"))):
        return "cubecobra-csv"
    if any(line in ("[metadata]", "[main]", "[sideboard]", "[commander]") for line in lowered):
        return "forge"
    card_lines = [line for line in lines if line[:1].isdigit() or line.lower().startswith("sb:")]
    if card_lines and sum(bool(_XMAGE_CARD.match(line)) for line in card_lines) * 2 > len(card_lines):
        return "xmage"
    if suffix == ".dck":
        return "forge" if any("|" in line for line in lines) else "xmage"
    if lowered and lowered[0].lstrip("\ufeff") in _ARENA_FIRST_LINES:
        return "arena"
    if any(_CUBECOBRA_BOARD.match(line) for line in lines):
        return "cubecobra"
    if any(line.startswith("#") or (line.startswith("[") and line.endswith("]")) for line in lines):
        return "blocklist"
    if card_lines and sum(bool(_ARENA_SET.search(line)) for line in card_lines) * 2 > len(card_lines):
        return "arena"
    return "text"


def _card_blocks(text: str) -> list[list[str]]:
    """The blank-line separated blocks of ``text``'s non-empty lines, without a leading block made only of
    ``//`` comment lines (the ``// name`` header Cockatrice-style text, ours included, starts with)."""
    blocks: list[list[str]] = [[]]
    for raw in text_lines(text):
        line = raw.strip().lstrip("\ufeff")
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    blocks = [block for block in blocks if block]
    if blocks and all(line.startswith("//") for line in blocks[0]):
        blocks = blocks[1:]
    return blocks


def _counted_totals(text: str) -> list[int] | None:
    """Card totals of :func:`_card_blocks` when every line of every block is a counted card line."""
    totals = []
    for block in _card_blocks(text):
        counts = [_MTGO_LINE.match(line) for line in block]
        if not all(counts):
            return None
        totals.append(sum(int(match.group(1)) for match in counts if match))
    return totals


def _mtgo_deck_shape(text: str) -> bool:
    """Whether ``text`` is an MTGO / MTGGoldfish deck: counted lines only (after an optional ``//`` header),
    a main deck of at least :data:`MTGO_MIN_MAIN` cards, one blank line, a sideboard of at most
    :data:`MTGO_MAX_SIDE`."""
    totals = _counted_totals(text)
    return (
        totals is not None
        and len(totals) == 2
        and totals[0] >= MTGO_MIN_MAIN
        and 1 <= totals[1] <= MTGO_MAX_SIDE
    )


def blank_line_sideboard(text: str) -> int:
    """Cards after the one blank line of a counted list that is not read as a deck (:func:`detect_format`
    reads it as a block list, its cards all main): what ``--from text`` would read as a sideboard, else 0."""
    totals = _counted_totals(text)
    if totals is None or len(totals) != 2 or _mtgo_deck_shape(text):
        return 0
    return totals[1]


def detect_format(data: bytes, filename: str = "") -> str:
    """The reader the command line uses for ``data`` when no format is chosen (see :func:`sniff_format`).

    A list is a block list unless it is clearly something else, so a blank line never moves cards out
    of a block: plain text becomes ``mtggoldfish`` only in the shape of an MTGO / MTGGoldfish deck
    (:func:`_mtgo_deck_shape`, the cards after the blank line being its sideboard; ``text`` when a ``//``
    header precedes it, as in Cockatrice-style text and ours, so that the header names the deck), ``text``
    (Cockatrice's rules) for ``.dec`` / ``.mwDeck`` files, and Arena text only when it starts with an Arena
    header.
    """
    chosen = sniff_format(data, filename)
    if chosen not in ("text", "arena"):
        return chosen
    text = one_line_break(utf16_as_utf8(data)).decode("utf-8", errors="replace")
    first = next((line.strip().lstrip("\ufeff").lower() for line in text_lines(text) if line.strip()), "")
    if chosen == "arena" and first in _ARENA_FIRST_LINES:
        return "arena"
    if chosen == "text" and Path(filename).suffix.lower() in COCKATRICE_TEXT_SUFFIXES:
        return "text"
    if not _mtgo_deck_shape(text):
        return "blocklist"
    return "text" if first.startswith("//") else "mtggoldfish"  # text: Cockatrice's rules take the header


def canonical_format(name: str) -> str:
    """The reader's name for a format or one of its :data:`FORMAT_ALIASES` (``mtga`` -> ``arena``)."""
    lowered = name.strip().lower()
    return FORMAT_ALIASES.get(lowered, lowered)


def read_deck(
    path_or_text: str | Path | bytes, format: str | None = None, *, source: str | None = None
) -> Deck:
    """Read a deck from a file path, raw bytes or pasted text, sniffing the format unless ``format`` is given.

    A :class:`~pathlib.Path`, or a one-line ``str`` naming an existing file, is read as a file; any
    other ``str`` is the deck text itself. ``source`` overrides the name used in error messages.
    """
    filename = ""
    if isinstance(path_or_text, Path) or (
        isinstance(path_or_text, str)
        and "\n" not in path_or_text
        and len(path_or_text) < 4096
        and Path(path_or_text).is_file()
    ):
        file = Path(path_or_text)
        filename = str(file)
        if file.stat().st_size > MAX_TEXT_BYTES:
            raise DeckFormatError(f"file larger than {MAX_TEXT_BYTES} bytes", source=filename)
        data = file.read_bytes()
    elif isinstance(path_or_text, bytes):
        data = path_or_text
    elif "\n" not in path_or_text and path_or_text.strip().lower().endswith(DECK_SUFFIXES):
        named = Path(path_or_text.strip())
        if named.is_symlink():
            raise DeckFormatError(
                f"a broken link: it points to {str(named.readlink())!r}, which does not exist",
                source=str(named),
            )
        raise DeckFormatError("no such file", source=path_or_text.strip())
    else:
        data = path_or_text.encode("utf-8")
    where = source or filename or "<text>"
    data = one_line_break(utf16_as_utf8(data))
    if len(data) > MAX_TEXT_BYTES:
        raise DeckFormatError(f"deck larger than {MAX_TEXT_BYTES} bytes", source=where)
    if _HTML_START.match(data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")):
        raise DeckFormatError(
            "a saved web page (HTML), not a deck list: save the deck site's export instead (its Export or"
            " Download: Arena or MTGO text, or CSV) and give that file, or paste the deck's text",
            source=where,
        )
    chosen = canonical_format(format) if format else sniff_format(data, filename)
    if chosen not in FORMATS:
        raise DeckFormatError(
            f"unknown deck format {format!r}; choose one of {', '.join(FORMATS)}", source=where
        )
    if chosen == "cod":
        deck = read_cod(data, where)
    elif chosen == "dek":
        deck = read_dek(data, where)
    else:
        text = decode_text(data, where)
        reader = {
            "forge": read_forge,
            "xmage": read_xmage,
            "arena": read_arena,
            "mtggoldfish": read_arena,
            "text": read_text,
            "blocklist": parse_block_list,
            "cubecobra": read_cubecobra,
            "cubecobra-csv": read_cubecobra_csv,
        }[chosen]
        deck = reader(text, where)
    if not deck.name and filename:
        deck.name = Path(filename).stem
    return deck


__all__ = [
    "FORMATS",
    "FORMAT_ALIASES",
    "DeckFormatError",
    "canonical_format",
    "canonical_section",
    "detect_format",
    "has_sideboard_header",
    "has_sideboard_marks",
    "read_arena",
    "read_cod",
    "read_cubecobra",
    "read_cubecobra_csv",
    "read_deck",
    "read_dek",
    "read_forge",
    "read_text",
    "read_xmage",
    "sniff_format",
    "utf16_as_utf8",
]
