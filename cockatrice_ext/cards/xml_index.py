"""A first load of a big Cockatrice card file that builds only the cards asked for.

Turning all 25,000 ``<card>`` elements of a ``cards.xml`` into card objects (and writing them to
the parsed-file cache) is what made a first look-up take seconds. Instead, the file is parsed
once, streamed by lxml (so it is checked to be well formed without keeping its tree), and an
index is kept: every card and face name, and the byte range of each ``<card>`` element in the
source. A look-up then parses only the ranges of the cards it needs, with the same reader as a
full load (:mod:`cockatrice_ext.cards.cockatrice_xml`).

The index is a store file (:mod:`cockatrice_ext.cards.store`'s layout, its own format name)
under the parsed-file cache. It is trusted only for the very bytes it was built from: the
source's seal (SHA-256, see :func:`_seal`) is checked on every open, the ranges are then read
from that same open file while its size and modification time are unchanged, and each range
must parse to one ``<card>`` of the indexed name; anything else means a full parse. A front and
back ``<card>`` the full reader joins into one two-faced card (:func:`join_double_faced`) are one
card of the index too, found by either face's name. Files the index cannot describe exactly
(another encoding than UTF-8, namespaces, a DTD, ``<card`` inside comments or text, cards outside
the one ``<cards>``) are left to the full reader.
"""

from __future__ import annotations

import bisect
import gc
import hashlib
import io
import itertools
import json
import os
import re
import sys
import threading
import weakref
import zlib
from array import array
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

from lxml import etree

from cockatrice_ext.cards.cache import blobs_digest
from cockatrice_ext.cards.cockatrice_xml import (
    PARSER_SETTINGS,
    ROOT_TAG,
    FaceLinks,
    _card_of,
    _check_card,
    _joined,
    _RawCard,
    _read_card,
    _read_set,
    double_faced_pairs,
    nameless_card_warning,
    prop_may_warn,
    raw_is_token,
    version_warning,
)
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import Card, CardDatabase, CardSet
from cockatrice_ext.cards.store import SAID, CardStore, index_text, new_store_file

FORMAT = "cockatrice-ext-xml-index"
VERSION = "6"  # 5: set priorities kept; 6: what the full reader says of the cards kept
# A card's start tag, or markup inside which "<card" is not one (skipped when scanning), or a DTD.
_MARKUP = re.compile(rb"<(?:(card[\s>])|!--.*?-->|!\[CDATA\[.*?\]\]>|\?.*?\?>|(!DOCTYPE))", re.DOTALL)
# Where a type's text could say "Token": the word itself, or a character reference that could spell it.
_TOKEN_HINTS = (re.compile(rb"Token"), re.compile(rb"&#"))
_UTF8_DECLARATION = re.compile(rb"""^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*encoding=["'](?:utf-8|UTF-8)["']""")
_NO_DECLARED_ENCODING = re.compile(rb"""^(?:\xef\xbb\xbf)?\s*(?:<\?xml(?![^>]*encoding)[^>]*\?>|<[^?])""")
# Every tag the index reads, in any namespace: a namespaced one (the full reader takes it as the plain
# tag) leaves the file to the full reader. Namespace declarations alone (tokens.xml's xsi) are harmless.
_FACT_TAGS = tuple(
    f"{{*}}{tag}" for tag in ("card", "cards", "sets", "name", "token", "related", "reverse-related")
)
# Where a card's check (cockatrice_xml._check_card) could find something to say: a <text> holding markup
# (its first "<" after the start tag opens something), and a type line or pt (its start tag's attributes,
# its text, and what follows the text when that is no end tag: a comment, CDATA, a child). Each pattern
# starts with a literal (much the faster search); a prefixed tag (<x:pt>) is matched from its colon. Not an
# empty element (<pt/>): nothing to say, and its match would run on into the next element.
_TEXT_WITH_MARKUP = (
    re.compile(rb"<text(?:\s[^>]*)?(?<!/)>[^<]*<(?!/)"),
    re.compile(rb":text(?:\s[^>]*)?(?<!/)>[^<]*<(?!/)"),
)
_CHECKED_PROP = re.compile(rb"<(type|maintype|pt)(\s[^>]*)?(?<!/)>([^<]*)(<(?!/))?")
_PREFIXED_PROP = re.compile(rb":(type|maintype|pt)(\s[^>]*)?(?<!/)>([^<]*)(<(?!/))?")
_FEW_ODD_PROPS = 16  # odd type lines and pts looked for one by one; more: one pass over every prop
_XML_REFERENCE = re.compile(r"&(?:#([0-9]+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));")
_NAMED_REFERENCES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
# The lines libxml2 numbers in the node itself (an unsigned short, 65535 meaning "past it": look elsewhere).
_SHORT_LINES = 65534
_HASH_CHUNK = 1 << 20  # bytes read at a time when a source is hashed from its file
_NUMBERS = "q"  # byte offsets and element numbers: signed 64-bit, little-endian in the file


def _parser() -> etree.XMLParser:
    return etree.XMLParser(**PARSER_SETTINGS, collect_ids=False)  # nothing here looks cards up by id


class IndexMismatch(CardDataError):
    """The source does not say what the index says: read it whole instead."""


def _numbers_blob(values: list[int]) -> bytes:
    numbers = array(_NUMBERS, values)
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers.tobytes()


def _numbers(blob: bytes) -> array[int]:
    numbers = array(_NUMBERS)
    numbers.frombytes(blob)
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


def _seal(first_half: bytes, second_half: bytes) -> str:
    """The source's seal: SHA-256 over the SHA-256 digests of its two halves (cut at ``size // 2``).

    As strong as one SHA-256 of the file, and a file's halves can be hashed on both cores at once.
    """
    return hashlib.sha256(first_half + second_half).hexdigest()


def _bytes_seal(data: bytes) -> str:
    view = memoryview(data)
    middle = len(data) // 2
    return _seal(hashlib.sha256(view[:middle]).digest(), hashlib.sha256(view[middle:]).digest())


def _file_seal(handle: BinaryIO, size: int) -> str:
    """The seal of the first ``size`` bytes of an open file (as :func:`_bytes_seal` of them), read a chunk
    at a time; with ``os.pread``, the second half on another thread (hashing lets go of the GIL)."""
    middle = size // 2
    if not hasattr(os, "pread"):  # one position in the file: one half after the other
        return _seal(_hash_span(handle, 0, middle), _hash_span(handle, middle, size))
    second: list[bytes | OSError] = []

    def hash_second_half() -> None:
        try:
            second.append(_hash_span(handle, middle, size))
        except OSError as exc:  # raised here, in the caller's thread
            second.append(exc)

    worker = threading.Thread(target=hash_second_half)
    worker.start()
    try:
        first = _hash_span(handle, 0, middle)
    finally:
        worker.join()
    if isinstance(second[0], OSError):
        raise second[0]
    return _seal(first, second[0])


def _hash_span(handle: BinaryIO, start: int, end: int) -> bytes:
    """SHA-256 of the file's bytes ``start:end`` (a shorter file gives the digest of what is there)."""
    digest = hashlib.sha256()
    while start < end:
        chunk = _read_at(handle, start, min(_HASH_CHUNK, end - start))
        if not chunk:
            break
        digest.update(chunk)
        start += len(chunk)
    return digest.digest()


def _read_at(handle: BinaryIO, offset: int, size: int) -> bytes:
    """Up to ``size`` bytes of the file at ``offset`` (``os.pread`` leaves its position alone for others)."""
    if hasattr(os, "pread"):
        return os.pread(handle.fileno(), size, offset)
    handle.seek(offset)
    return handle.read(size)


@dataclass
class _Facts:
    """What one streaming parse says of a file's ``<card>`` elements (numbered in document order)."""

    names: list[str] = field(default_factory=list)  # "" for a card without a name
    tokens: set[int] = field(default_factory=set)  # the cards the full reader calls tokens
    links: list[tuple[int, str]] = field(default_factory=list)  # (card, creator) of each reverse-related
    sets: list[CardSet] = field(default_factory=list)
    read: dict[int, _RawCard] = field(default_factory=dict)  # the cards linking to another face, as read
    version: str = "4"  # the root's version attribute, as the full reader reads it


def _card_facts(data: bytes, maybe_tokens: set[int]) -> _Facts | None:
    """Parse ``data`` (all of it: it must be well formed) for what the index needs; None if it cannot say.

    Streamed: each ``<card>`` is read when its end tag is seen and then freed, so no tree of the
    whole file is built (building and freeing it cost more than the parse). Only the few tags that
    matter produce events; the state kept between them belongs to the card being read, since a
    ``<card>`` anywhere but directly in the one ``<cards>`` under the root stops the index. Cards
    not flagged as tokens are read whole, by the full reader's rule, only if they are among
    ``maybe_tokens`` (numbered in document order); cards that link to another face (``related
    attach="transform"``) are read whole and kept.
    """
    facts = _Facts()
    events = etree.iterparse(io.BytesIO(data), tag=_FACT_TAGS, **PARSER_SETTINGS)
    name, flagged, linked, containers = "", False, False, 0
    for _event, elem in events:
        tag = elem.tag
        if tag == "card":
            parent = elem.getparent()
            if parent is None or parent.tag != "cards":
                return None
            number = len(facts.names)
            raw = _read_card(elem) if linked or (not flagged and number in maybe_tokens) else None
            if flagged or (number in maybe_tokens and raw is not None and raw_is_token(raw)):
                facts.tokens.add(number)
            if raw is not None and linked:
                facts.read[number] = raw
            facts.names.append(name)
            name, flagged, linked = "", False, False
            elem.clear()
            while elem.getprevious() is not None:
                del parent[0]
        elif tag in ("cards", "sets"):
            parent = elem.getparent()
            if tag == "sets":
                if parent is not None and parent.tag == ROOT_TAG:  # where the full reader reads sets
                    sets = (_read_set(child) for child in elem.iterchildren("{*}set"))
                    facts.sets.extend(s for s in sets if s is not None)
            elif parent is None or parent.getparent() is not None:
                return None  # a <cards> not under the root
            else:
                containers += 1
            elem.clear()
        elif tag[0] == "{":
            return None  # a namespaced tag the byte scan would not see as the parse does
        else:
            parent = elem.getparent()
            if parent is None or parent.tag != "card":
                continue  # a set's <name>
            text = elem.text or ""
            if tag == "name":
                name = text.strip("\r\n\t")  # the last <name> wins, as in the full reader
            elif tag == "token":
                flagged = text.strip() not in ("", "0")  # the last <token> wins, as in the full reader
            elif tag == "related":
                linked = linked or elem.get("attach") == "transform"  # as the full reader reads it
            else:
                facts.links.append((len(facts.names), text.strip("\r\n\t")))
    root = events.root
    if root is None or root.tag != ROOT_TAG or containers > 1 or (facts.names and not containers):
        return None
    facts.version = root.get("version", "4")
    return facts


def build_index(source: Path, target: Path, identity: dict[str, str]) -> bytes | None:
    """Index ``source`` into ``target`` (sealed: see :mod:`cockatrice_ext.cards.cache`).

    Returns the source's bytes the index describes, or None when the file is not one it can
    describe (the full reader then reads it, and reports any error with its line and column).
    The cyclic garbage collector is paused meanwhile: the parse makes tens of thousands of
    element proxies that hold no cycles, and collecting over them cost a fifth of the time.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _build_index(source, target, identity)
    finally:
        if paused:
            gc.enable()


def _card_starts(data: bytes) -> tuple[list[int], set[int]] | None:
    """Byte offset of every ``<card>`` start tag (comments, CDATA and PIs skipped), and the cards
    whose type could say "Token"; None with a DTD.

    A type's text says "Token" only if its bytes do, or a character reference or a comment, CDATA
    section or PI (the parse drops or unwraps them, joining the text around) could make it.
    """
    starts: list[int] = []
    hints: list[int] = []
    for match in _MARKUP.finditer(data):
        if match.lastindex == 1:
            starts.append(match.start())
        elif match.lastindex == 2:
            return None  # entity values could hold "<card": a DTD is left to the full reader
        else:
            hints.append(match.start())
    for hint in _TOKEN_HINTS:
        hints += (match.start() for match in hint.finditer(data))
    return starts, {bisect.bisect_right(starts, at) - 1 for at in hints}


def _card_element(element: bytes, start: int, label: str = "") -> etree._Element:
    """The ``<card>`` element whose bytes (from byte ``start`` of the source) are ``element``, parsed alone
    (its ``sourceline`` counts from the element's first line)."""
    try:
        elem = etree.fromstring(element, _parser())
    except (etree.LxmlError, ValueError) as exc:
        raise IndexMismatch(f"card at byte {start} unreadable: {exc}", source=label) from exc
    if elem.tag != "card":
        raise IndexMismatch(f"no <card> at byte {start}", source=label)
    return elem


def _parse_element(element: bytes, start: int, label: str = "") -> _RawCard:
    """The ``<card>`` whose bytes (from byte ``start`` of the source) are ``element``, read as the full
    reader reads it."""
    return _read_card(_card_element(element, start, label))


def _unescaped(text: bytes) -> str | None:
    """A prop's text as the parse reads it (UTF-8, character and predefined entity references replaced);
    None when it holds another ``&`` or cannot be decoded (its card is then checked, to be sure)."""
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "&" not in decoded:
        return decoded
    if "&" in _XML_REFERENCE.sub("", decoded):
        return None

    def character(match: re.Match[str]) -> str:
        named = match.group(3)
        if named:
            return _NAMED_REFERENCES[named]
        return chr(int(match.group(1)) if match.group(1) else int(match.group(2), 16))

    try:
        return _XML_REFERENCE.sub(character, decoded)
    except (ValueError, OverflowError):
        return None


def _prop_may_warn(tag: bytes, attributes: bytes, text: bytes, inside: bytes) -> bool:
    """Whether a prop element found by :data:`_CHECKED_PROP` (its groups, ``b""`` where one is absent) could
    be warned about (see :func:`prop_may_warn`), or its bytes do not say plainly what the parse reads:
    attributes with quotes, which could hold a ``>``; a comment, CDATA or child inside; an ``&`` other than a
    plain reference."""
    if inside or b'"' in attributes or b"'" in attributes:
        return True
    value = _unescaped(text)
    return value is None or prop_may_warn(tag.decode("ascii"), value)


def _cards_to_check(data: bytes, starts: list[int]) -> set[int]:
    """The cards (numbered in document order) whose text, type line or pt the full reader's check could
    warn about: a ``<text>`` with markup, a type line or pt :func:`prop_may_warn` of, and any such element
    whose bytes do not say plainly what the parse reads (attributes with quotes, which could hold a ``>``;
    a comment, CDATA or child inside). A superset: each is read and checked as the full reader does."""
    flagged = [match.start() for pattern in _TEXT_WITH_MARKUP for match in pattern.finditer(data)]
    for opening, pattern in ((b"<", _CHECKED_PROP), (b":", _PREFIXED_PROP)):
        # A file repeats its type lines and pts: each one found is judged once, and only the few that may
        # warn are looked for again (by their bytes: any place they are is checked, a superset).
        odd = {found for found in set(pattern.findall(data)) if _prop_may_warn(*found)}
        if len(odd) > _FEW_ODD_PROPS:
            flagged += (match.start() for match in pattern.finditer(data) if match.groups(b"") in odd)
            continue
        for tag, attributes, text, inside in odd:
            written = b"%s%s%s>%s%s" % (opening, tag, attributes, text, inside)
            at = data.find(written)
            while at >= 0:
                flagged.append(at)
                at = data.find(written, at + 1)
    cards = {bisect.bisect_right(starts, at) - 1 for at in flagged}
    cards.discard(-1)  # before the first card: a set's, or the header's
    return cards


def _what_cards_say(data: bytes, bounds: list[int], facts: _Facts, groups: dict[str, list[int]]) -> list[str]:
    """What the full reader says of the file (its root's version, a nameless card, :func:`_check_card`), in
    its order, each without the file's name in front (``:LINE: what``, ``: what``): kept with the index, so
    that a look-up through it says what a full read says, on every run.

    Only the cards something could be said of are read: those :func:`_cards_to_check` finds, the nameless,
    and every ``<card>`` of a name given more than once (a second one may say otherwise than the first).
    Element ``e`` spans ``bounds[e:e + 2]``; its line is the parse's, counted from the file's start.
    """
    said: list[str] = []
    if facts.version not in ("3", "4"):
        said.append(version_warning("", facts.version))
    checked = _cards_to_check(data, bounds[:-1])
    checked.update(number for number, name in enumerate(facts.names) if not name)
    checked.update(number for numbers in groups.values() if len(numbers) > 1 for number in numbers)
    earlier = CardDatabase()  # the cards checked so far, added as the full reader adds them
    first_lines: dict[str, int | None] = {}
    lines_before = counted_to = padded = 0
    for number in sorted(checked):
        start, end = bounds[number], bounds[number + 1]
        lines_before += data.count(b"\n", counted_to, start)
        counted_to = start
        element = data[start:end]
        offset = lines_before
        if lines_before + element.count(b"\n") >= _SHORT_LINES:
            # libxml2 keeps a line past 65534 outside the node (the element's then taken from its first
            # child): parsed below as many line breaks as the file has before it, it is numbered alike.
            padded += lines_before
            if padded > len(data):
                raise IndexMismatch("too many cards to check far into the file: read whole")
            element, offset = b"\n" * lines_before + element, 0
        elem = _card_element(element, start)
        line = elem.sourceline + offset if elem.sourceline is not None else None
        raw = _read_card(elem)
        if not raw.name:
            said.append(nameless_card_warning("", line))
            continue
        if raw.markup_line is not None:
            raw.markup_line += offset
        card = _card_of(raw)
        _check_card(earlier, card, raw, first_lines, "", line, said.append)
        earlier.add(card)
    return said


def _double_faced(
    data: bytes, bounds: list[int], names: list[str], groups: dict[str, list[int]], raws: dict[int, _RawCard]
) -> dict[str, tuple[str, str]]:
    """The front and back ``<card>``s the full reader joins into one two-faced card, as ``{"Front // Back":
    (front, back)}``: :func:`double_faced_pairs` of the cards that could take part, those that link to
    another with ``related attach="transform"`` (``raws``: element number -> the element, as the streaming
    parse read it) and the cards they link to (read here: element ``e`` spans ``bounds[e:e + 2]``).

    Every other card has no such link, so it is neither a front nor, named by none, a back: the pairs, and
    which front takes a back two of them name, are those of the whole file.
    """
    hinted = list(raws)

    def read(name: str) -> list[_RawCard]:
        """Every element of card ``name``, parsed (once)."""
        for number in groups.get(name, ()):
            if number not in raws:
                start = bounds[number]
                raws[number] = _parse_element(data[start : bounds[number + 1]], start)
        return [raws[number] for number in groups.get(name, ())]

    fronts = sorted(
        {names[e] for e in hinted if 0 <= e < len(names) and names[e]}, key=lambda n: groups[n][0]
    )
    facts: dict[str, FaceLinks] = {}
    said_front: set[str] = set()
    links = dict.fromkeys(link for front in fronts for link in FaceLinks.of_raw(read(front)[0]).links)
    for name in [*fronts, *links]:
        elements = read(name)
        if elements and name not in facts:  # a card is its first definition (later ones add printings)
            facts[name] = FaceLinks.of_raw(elements[0])
            said_front.update(raw.name for raw in elements if raw.props.get("side") == "front")
    pairs = double_faced_pairs((facts[name] for name in fronts), facts.get, said_front, groups)
    return {f"{front} // {back}": (front, back) for front, back in pairs.items()}


def _face_owners(groups: dict[str, list[int]]) -> dict[str, str]:
    """Face name -> the card of several faces holding it, the first in the file (as
    :meth:`CardDatabase.link_reverse_related` finds the card a link to a face lands on)."""
    owners: dict[str, str] = {}
    for name in sorted(groups, key=lambda n: groups[n][0]):
        if " // " in name:
            for face in name.split(" // "):
                owners.setdefault(face, name)
    return owners


def _build_index(source: Path, target: Path, identity: dict[str, str]) -> bytes | None:
    data = source.read_bytes()
    if not (_UTF8_DECLARATION.match(data) or _NO_DECLARED_ENCODING.match(data)):
        return None
    digest: list[str] = []  # hashed on the other core meanwhile (hashlib lets go of the GIL)
    hasher = threading.Thread(target=lambda: digest.append(_bytes_seal(data)))
    hasher.start()
    try:
        scanned = _card_starts(data)
        facts = _card_facts(data, scanned[1]) if scanned else None
    except (etree.LxmlError, ValueError):
        scanned = facts = None
    finally:
        hasher.join()
    if scanned is None or facts is None:
        return None
    starts = scanned[0]
    end_of_cards = data.rfind(b"</cards>")
    if len(starts) != len(facts.names) or (starts and end_of_cards < starts[-1]):
        return None  # "<card" somewhere else (a comment, text): byte ranges would be wrong
    groups: dict[str, list[int]] = {}  # name -> its <card> elements, in document order
    token_names: set[str] = set()
    for number, name in enumerate(facts.names):
        if not name:
            continue
        group = groups.get(name)
        if group is None:
            group = groups[name] = []
            if number in facts.tokens:  # the first definition of a name is the card
                token_names.add(name)
        group.append(number)
    try:
        said = _what_cards_say(data, [*starts, end_of_cards], facts, groups)
        pairs = _double_faced(data, [*starts, end_of_cards], facts.names, groups, facts.read)
    except IndexMismatch:
        return None
    for whole, (front, back) in pairs.items():  # the front's elements first, then the back's
        groups[whole] = groups.pop(front) + groups.pop(back)
    reverse: dict[str, list[str]] = {}
    for number, creator in facts.links:
        if creator and facts.names[number]:
            reverse.setdefault(creator, []).append(facts.names[number])
    names = sorted(groups)  # numbered as the parsed cache numbers them, so ties in the index break alike
    # Links to creators in this file (a card, or a face of one) are applied when the creator is read (as a
    # full load does); links to creators elsewhere are kept for the layers above.
    owners = _face_owners(groups)
    inside: dict[str, list[str]] = {}
    for creator, made in list(reverse.items()):
        holder = creator if creator in groups else owners.get(creator)
        if holder is not None:
            inside.setdefault(holder, []).extend(made)
            del reverse[creator]
    texts = {  # a face named as its card adds nothing to the index, so only split names list faces
        "index": index_text(
            (number, name, name.split(" // ") if " // " in name else (), name in token_names)
            for number, name in enumerate(names)
        ),
        "names": "\0".join(names),  # no name holds NUL: XML cannot carry one
    }
    if token_names:
        texts["tokens"] = "\n".join(str(n) for n, name in enumerate(names) if name in token_names)
    if reverse:
        texts["reverse-related"] = json.dumps(reverse, sort_keys=True, ensure_ascii=False)
    if inside:
        texts["links"] = json.dumps(inside, sort_keys=True, ensure_ascii=False)
    if pairs:
        texts["pairs"] = json.dumps(pairs, sort_keys=True, ensure_ascii=False)
    if said:
        texts[SAID] = json.dumps(said, ensure_ascii=False)
    first = {s.code: s for s in reversed(facts.sets)}  # the first definition of a code wins
    priorities = {code: s.priority for code, s in first.items() if s.priority is not None}
    if priorities:  # the store's sets table has no place for a <priority>
        texts["priorities"] = json.dumps(priorities, sort_keys=True, ensure_ascii=False)
    # Card n's <card> elements are elements[firsts[n]:firsts[n + 1]]; element e spans starts[e:e + 2].
    grouped = [groups[name] for name in names]
    blobs = {key: value.encode("utf-8") for key, value in texts.items()}
    blobs["starts"] = _numbers_blob([*starts, end_of_cards])
    blobs["elements"] = _numbers_blob(list(itertools.chain.from_iterable(grouped)))
    blobs["firsts"] = _numbers_blob(list(itertools.accumulate(map(len, grouped), initial=0)))
    # Stored, not compressed (zlib level 0 keeps the store's format): inflating them again on every
    # look-up cost more than reading them.
    rows = [(key, zlib.compress(value, 0)) for key, value in sorted(blobs.items())]
    meta = {**identity, "format": FORMAT, "version": "1", "index_version": VERSION}
    meta |= {"source_seal": digest[0], "blobs_sha256": blobs_digest(rows)}
    con = new_store_file(target, meta, first.values())
    try:
        con.executemany("INSERT INTO blobs VALUES (?, ?)", rows)
        con.commit()
    finally:
        con.close()
    return data


def _is_priority(value: object) -> bool:
    """Whether ``value`` (from the index's ``priorities``) is a set priority: a whole number, never a flag."""
    return type(value) is int


class XmlIndexStore(CardStore):
    """A :class:`CardStore` whose cards are parsed, when asked for, from their ranges in the source."""

    store_format = FORMAT

    def __init__(self, path: Path, source: Path, *, label: str, source_bytes: bytes | None = None) -> None:
        """Open the index at ``path`` of ``source``, checking the source's seal (SHA-256) against it.

        ``source_bytes`` are the bytes :func:`build_index` has just indexed into ``path`` (returned
        by it): not read and hashed again. Otherwise the file is hashed as it is read, a chunk at a
        time (no copy of it in memory), and kept open: the ranges a look-up needs are read from that
        very file, and only while its size and modification time are still those it was hashed with.
        """
        super().__init__(path, label=label)
        if self.meta.get("index_version") != VERSION:
            raise IndexMismatch(f"not a v{VERSION} index", source=str(path))
        self._source_bytes = source_bytes
        self._handle: BinaryIO | None = None
        if source_bytes is None:
            handle = source.open("rb")
            weakref.finalize(self, handle.close)
            self._hashed = os.fstat(handle.fileno())
            if _file_seal(handle, self._hashed.st_size) != self.meta.get("source_seal"):
                handle.close()
                raise IndexMismatch("the file changed since it was indexed", source=str(source))
            self._handle = handle
        self._starts = _numbers(self._blob("starts"))
        self._elements = _numbers(self._blob("elements"))
        self._firsts = _numbers(self._blob("firsts"))
        self._names: list[str] | None = None
        self._links: dict[str, list[str]] = self._json("links")
        self._pairs: dict[str, list[str]] = self._json("pairs")  # "Front // Back" -> [front, back]

    @property
    def sets(self) -> dict[str, CardSet]:
        """The sets of ``<sets>``, each with the ``<priority>`` the file gave it (in a blob of its own)."""
        if self._sets is None:
            given = self._json("priorities")
            self._sets = {
                code: replace(s, priority=given[code]) if _is_priority(given.get(code)) else s
                for code, s in super().sets.items()
            }
        return self._sets

    def _json(self, key: str) -> dict[str, Any]:
        """The JSON blob ``key``, or nothing when the index has none."""
        row = next(iter(self._rows("SELECT 1 FROM blobs WHERE key=?", (key,))), None)
        return json.loads(self._blob(key)) if row else {}

    def _ranges(self, number: int) -> tuple[str, list[tuple[int, int]]]:
        """Card ``number``'s name and the byte ranges of its ``<card>`` elements."""
        if self._names is None:
            self._names = self._blob("names").decode("utf-8").split("\0")
        starts = self._starts
        try:
            elements = self._elements[self._firsts[number] : self._firsts[number + 1]]
            if number < 0 or not elements or not all(0 <= e < len(starts) - 1 for e in elements):
                raise IndexError(number)
            return self._names[number], [(starts[e], starts[e + 1]) for e in elements]
        except IndexError as exc:
            raise IndexMismatch(f"no card {number} in the index", source=self.label) from exc

    def _read(self, start: int, end: int) -> bytes:
        """The source's bytes ``start:end``: those indexed, or those of the file hashed when opened."""
        if self._source_bytes is not None:
            return self._source_bytes[start:end]
        assert self._handle is not None  # opened with the store when no bytes were given
        data = _read_at(self._handle, start, end - start)
        now = os.fstat(self._handle.fileno())
        if (now.st_size, now.st_mtime_ns) != (self._hashed.st_size, self._hashed.st_mtime_ns):
            raise IndexMismatch("the file changed while it was read", source=self.label)
        return data

    def card(self, number: int) -> Card:
        """Card ``number``: its ``<card>`` elements parsed from the source (printings merged), a front and
        back joined into one two-faced card as the full reader joins them."""
        name, ranges = self._ranges(number)
        faces = self._pairs.get(name) or [name]
        read = CardDatabase()  # adds as the full reader does: the first definition, then new printings
        for start, end in ranges:  # a front's elements come before its back's
            card = _card_of(_parse_element(self._read(start, end), start, self.label))
            if card.name not in faces:
                raise IndexMismatch(f"card at byte {start} is not the indexed one", source=self.label)
            read.add(card)
        if list(read.cards) != faces:
            raise IndexMismatch(f"card {number} is not the indexed one", source=self.label)
        merged = read.cards[name] if len(faces) == 1 else _joined(*(read.cards[face] for face in faces))
        if self._set_info is None:
            self._set_info = {code: (s.name, s.release_date) for code, s in self.sets.items()}
        printings = tuple(  # set names and dates from <sets>, as the parsed cache gives them
            replace(
                p,
                set_name=self._set_info.get(p.set_code, ("", ""))[0],
                release_date=self._set_info.get(p.set_code, ("", ""))[1],
            )
            for p in merged.printings
        )
        merged = replace(merged, printings=printings)
        made = self._links.get(name)
        if made:
            one = CardDatabase(cards={name: merged}, reverse_related={name: list(made)})
            one.link_reverse_related()
            merged = one.cards[name]
        return merged

    def cards_for(self, names: list[str]) -> CardDatabase:
        db = super().cards_for(names)
        for card in db.cards.values():  # what the full reader adds for printings of unlisted sets
            for printing in card.printings:
                db.sets.setdefault(printing.set_code, CardSet(code=printing.set_code))
        return db


__all__ = ["FORMAT", "IndexMismatch", "XmlIndexStore", "build_index"]
