"""A first load of a big Cockatrice card file that builds only the cards asked for.

Turning all 25,000 ``<card>`` elements of a ``cards.xml`` into card objects (and writing them to
the parsed-file cache) is what made a first look-up take seconds. Instead, the file is parsed
once by lxml (checking it is well formed), and an index is kept: every card and face name, and
the byte range of each ``<card>`` element in the source. A look-up then parses only the ranges
of the cards it needs, with the same reader as a full load (:mod:`cockatrice_ext.cards.cockatrice_xml`).

The index is a store file (:mod:`cockatrice_ext.cards.store`'s layout, its own format name)
under the parsed-file cache. It is trusted only for the very bytes it was built from: the
source's SHA-256 is checked on every open, and each range must parse to one ``<card>`` of the
indexed name; anything else means a full parse. Files the index cannot describe exactly
(another encoding than UTF-8, namespaces, ``<card`` inside comments or text) are left to the
full reader.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

from lxml import etree

from cockatrice_ext.cards.cockatrice_xml import ROOT_TAG, _card_of, _read_card, _read_set
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import Card, CardDatabase, CardSet
from cockatrice_ext.cards.store import CardStore, index_text, new_store_file
from cockatrice_ext.cards.text import split_type_line

FORMAT = "cockatrice-ext-xml-index"
_TYPE_PATHS = ("prop/type", "type", "prop/maintype", "maintype")  # v4, then v3, as the full reader looks
# A card's start tag, or markup inside which "<card" is not one (skipped when scanning).
_CARD_START_OR_OPAQUE = re.compile(rb"<card[\s>]|<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>", re.DOTALL)
_UTF8_DECLARATION = re.compile(rb"""^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*encoding=["'](?:utf-8|UTF-8)["']""")
_NO_DECLARED_ENCODING = re.compile(rb"""^(?:\xef\xbb\xbf)?\s*(?:<\?xml(?![^>]*encoding)[^>]*\?>|<[^?])""")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_pis=True,
        collect_ids=False,  # no xml:id table to build: nothing here looks cards up by id
    )


class IndexMismatch(CardDataError):
    """The source does not say what the index says: read it whole instead."""


def _is_token(elem: etree._Element, name: str) -> bool:
    """Whether the full reader would call this card a token (its <token> flag or its first type)."""
    if (elem.findtext("token") or "").strip() not in ("", "0"):
        return True
    type_line = ""
    for path in _TYPE_PATHS:
        type_line = (elem.findtext(path) or "").strip()
        if type_line:
            break
    pieces = type_line.split(" // ")
    if " // " in name and len(pieces) == len(name.split(" // ")):
        type_line = pieces[0]
    return "Token" in split_type_line(type_line)[1]


@dataclass
class _Facts:
    """What one pass over the tree says of its cards (keyed by <card> element)."""

    card_count: int = 0
    names: dict[etree._Element, str] = field(default_factory=dict)
    flagged: set[etree._Element] = field(default_factory=set)  # <token>1</token>
    typed: set[etree._Element] = field(default_factory=set)  # a type that may say Token
    links: list[tuple[etree._Element, str]] = field(default_factory=list)  # reverse-related


def _card_facts(root: etree._Element) -> _Facts:
    # One pass over the few tags that matter, in C, instead of reading every card's children.
    facts = _Facts()
    for elem in root.iter("card", "name", "token", "type", "maintype", "reverse-related"):
        tag = elem.tag
        if tag == "card":
            facts.card_count += 1
            continue
        parent = elem.getparent()
        text = elem.text or ""
        if tag in ("type", "maintype"):
            if "Token" in text and parent is not None:
                card = parent.getparent() if parent.tag == "prop" else parent
                if card is not None:
                    facts.typed.add(card)
        elif parent is None or parent.tag != "card":
            continue  # a set's <name>
        elif tag == "name":
            facts.names[parent] = text.strip("\r\n\t")  # the last <name> wins, as in the full reader
        elif tag == "token":
            if text.strip() not in ("", "0"):
                facts.flagged.add(parent)
        else:
            facts.links.append((parent, text.strip("\r\n\t")))
    return facts


def build_index(source: Path, target: Path, identity: dict[str, str]) -> bool:
    """Index ``source`` into ``target``; False when the file is not one the index can describe.

    The cyclic garbage collector is paused meanwhile: the pass makes tens of thousands of element
    proxies that hold no cycles, and collecting over them cost a fifth of the time.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _build_index(source, target, identity)
    finally:
        if paused:
            gc.enable()


def _build_index(source: Path, target: Path, identity: dict[str, str]) -> bool:
    data = source.read_bytes()
    if not (_UTF8_DECLARATION.match(data) or _NO_DECLARED_ENCODING.match(data)):
        return False
    try:
        root = etree.fromstring(data, _parser())
    except (etree.LxmlError, ValueError):
        return False  # the full reader reports the error with its line and column
    if root.tag != ROOT_TAG or root.nsmap.get(None):
        return False
    cards_parent = root.find("cards")
    elements = list(cards_parent.iterchildren("card")) if cards_parent is not None else []
    starts = [m.start() for m in _CARD_START_OR_OPAQUE.finditer(data) if m.group().startswith(b"<card")]
    facts = _card_facts(root)
    if not (len(starts) == len(elements) == facts.card_count):
        return False  # "<card" somewhere else (a comment, text): byte ranges would be wrong
    end_of_cards = data.rfind(b"</cards>")
    if not starts or end_of_cards < starts[-1]:
        return False
    groups: dict[str, list[tuple[int, int]]] = {}
    token_names: set[str] = set()
    for elem, start, end in zip(elements, starts, [*starts[1:], end_of_cards], strict=True):
        name = facts.names.get(elem, "")
        if not name:
            continue
        if name not in groups and (elem in facts.flagged or (elem in facts.typed and _is_token(elem, name))):
            token_names.add(name)
        groups.setdefault(name, []).append((start, end))
    reverse: dict[str, list[str]] = {}
    for elem, creator in facts.links:
        if creator and facts.names.get(elem):
            reverse.setdefault(creator, []).append(facts.names[elem])
    sets = [s for s in (_read_set(e) for e in root.iterfind("sets/set")) if s is not None]
    names = sorted(groups)  # numbered as the parsed cache numbers them, so ties in the index break alike
    # Links to creators in this file are applied when the creator is read (as a full load does);
    # links to creators elsewhere are kept for the layers above.
    inside = {creator: made for creator, made in reverse.items() if creator in groups}
    reverse = {creator: made for creator, made in reverse.items() if creator not in groups}
    text = index_text(
        (number, name, name.split(" // ") if " // " in name else [name], name in token_names)
        for number, name in enumerate(names)
    )
    tokens = [str(number) for number, name in enumerate(names) if name in token_names]
    # One line a card: its name, then the byte ranges of its <card> elements ("start-end start-end").
    ranges = "\n".join(f"{name}\t{' '.join(f'{a}-{b}' for a, b in groups[name])}" for name in names)
    meta = {**identity, "format": FORMAT, "version": "1", "source_sha256": hashlib.sha256(data).hexdigest()}
    rows = [("index", text), ("ranges", ranges)]
    if tokens:
        rows.append(("tokens", "\n".join(tokens)))
    if reverse:
        rows.append(("reverse-related", json.dumps(reverse, sort_keys=True, ensure_ascii=False)))
    if inside:
        rows.append(("links", json.dumps(inside, sort_keys=True, ensure_ascii=False)))
    first = {s.code: s for s in reversed(sets)}  # the first definition of a code wins
    con = new_store_file(target, meta, first.values())
    try:
        con.executemany(
            "INSERT INTO blobs VALUES (?, ?)", [(k, zlib.compress(v.encode("utf-8"), 1)) for k, v in rows]
        )
        con.commit()
    finally:
        con.close()
    return True


class XmlIndexStore(CardStore):
    """A :class:`CardStore` whose cards are parsed, when asked for, from their ranges in the source."""

    store_format = FORMAT

    def __init__(self, path: Path, source: Path, *, label: str) -> None:
        super().__init__(path, label=label)
        data = source.read_bytes()
        if hashlib.sha256(data).hexdigest() != self.meta.get("source_sha256"):
            raise IndexMismatch("the file changed since it was indexed", source=str(source))
        self._source_bytes = data
        self._ranges = self._blob("ranges").decode("utf-8").split("\n")
        has_links = self._db.execute("SELECT 1 FROM blobs WHERE key='links'").fetchone()
        self._links: dict[str, list[str]] = json.loads(self._blob("links")) if has_links else {}

    def card(self, number: int) -> Card:
        """Card ``number``: its ``<card>`` elements parsed from the source (printings merged)."""
        try:
            name, spans = self._ranges[number].rsplit("\t", 1)
            ranges = [tuple(int(n) for n in span.split("-", 1)) for span in spans.split(" ")]
        except (IndexError, ValueError) as exc:
            raise IndexMismatch(f"no card {number} in the index", source=self.label) from exc
        merged: Card | None = None
        for start, end in ranges:
            try:
                elem = etree.fromstring(self._source_bytes[start:end], _parser())
            except (etree.LxmlError, ValueError) as exc:
                raise IndexMismatch(f"card at byte {start} unreadable: {exc}", source=self.label) from exc
            if elem.tag != "card":
                raise IndexMismatch(f"no <card> at byte {start}", source=self.label)
            card = _card_of(_read_card(elem))
            if merged is None:
                merged = card
            elif card.name == merged.name:
                have = {(p.set_code, p.collector_number, p.pic_url) for p in merged.printings}
                extra = tuple(
                    p for p in card.printings if (p.set_code, p.collector_number, p.pic_url) not in have
                )
                merged = replace(merged, printings=merged.printings + extra)
        if merged is None or merged.name != name:
            raise IndexMismatch(f"card {number} is not the indexed one", source=self.label)
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
