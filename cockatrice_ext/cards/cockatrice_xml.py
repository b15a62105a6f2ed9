"""Read Cockatrice card databases (cards.xml, tokens.xml, spoiler.xml, customsets), v4 and v3.

The file is streamed with :func:`lxml.etree.iterparse`; each ``<card>`` and ``<set>`` is turned
into a model object when its end tag is seen and then freed, so memory stays flat on a 30 MB
cards.xml. Children are read by name, never by position: Cockatrice itself accepts any order
(its own test fixtures break the XSD order). The parser never resolves entities, loads a DTD
or touches the network.
"""

from __future__ import annotations

import contextlib
import io
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from lxml import etree

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import Card, CardDatabase, CardSet, Face, Printing
from cockatrice_ext.cards.text import (
    braced_mana_cost,
    colors_from_cost,
    colors_of,
    mana_value_of,
    normalise_rarity,
    split_pt,
    split_type_line,
)

LOGGER = logging.getLogger(__name__)

ROOT_TAG = "cockatrice_carddatabase"
# v3 puts these straight under <card>; v4 under <prop>.
_V3_PROPS = frozenset({"manacost", "cmc", "type", "pt", "loyalty", "maintype"})
_SPLIT_TEXT = "\n\n---\n\n"
_PRINTING_KEYS = {"muId": "muid", "uuId": "uuid", "picURL": "picurl"}
# How every Cockatrice XML is parsed (the full reader and the index alike, so both see the same text):
# no entities expanded, no DTD or network, comments and processing instructions dropped (text around
# a comment joins up).
PARSER_SETTINGS: dict[str, bool] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "huge_tree": False,
    "remove_comments": True,
    "remove_pis": True,
}


@dataclass
class _RawCard:
    """What one ``<card>`` element says, before it becomes a :class:`Card`."""

    name: str = ""
    text: str = ""
    props: dict[str, str] = field(default_factory=dict)
    sets: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    related: list[str] = field(default_factory=list)
    reverse_related: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    token: bool = False


def _local(tag: object) -> str:
    if type(tag) is not str:
        return ""  # comments, processing instructions
    return tag if tag[:1] != "{" else tag.rsplit("}", 1)[-1]


def _text(elem: etree._Element) -> str:
    return elem.text or ""


_SHARED_BY_FACES = frozenset({"type", "maintype"})
_EXTRA_PROPS = frozenset(_V3_PROPS) | {"tablerow", "cipt", "upsidedown", "landscapeOrientation"}


def _read_card(elem: etree._Element) -> _RawCard:
    # The hottest loop of a 30k-card load: tag and text are read inline, once per child.
    raw = _RawCard()
    props = raw.props
    for child in elem:
        tag = child.tag
        if type(tag) is not str:
            continue  # comments, processing instructions
        if tag[0] == "{":
            tag = tag.rsplit("}", 1)[-1]
        if tag == "prop":
            for prop in child:
                key = prop.tag
                if type(key) is str:
                    props[key if key[0] != "{" else key.rsplit("}", 1)[-1]] = (prop.text or "").strip()
        elif tag == "set":
            attrs = {_PRINTING_KEYS.get(k, k): v for k, v in child.attrib.items() if type(k) is str}
            raw.sets.append(((child.text or "").strip(), attrs))
        elif tag == "name":
            raw.name = (child.text or "").strip("\r\n\t")
        elif tag == "text":
            raw.text = child.text or ""
        elif tag == "related":
            raw.related.append((child.text or "").strip("\r\n\t"))
        elif tag == "reverse-related":
            raw.reverse_related.append((child.text or "").strip("\r\n\t"))
        elif tag in ("color", "colors"):
            raw.colors.append((child.text or "").strip())
        elif tag == "token":
            raw.token = (child.text or "").strip() not in ("", "0")
        elif tag in _EXTRA_PROPS:
            props[tag] = (child.text or "").strip()
    return raw


def _face_names(raw: _RawCard) -> list[str]:
    return raw.name.split(" // ") if " // " in raw.name else [raw.name]


def _face_prop(props: dict[str, str], names: list[str], key: str, index: int) -> str:
    """Face ``index``'s share of a prop: its ``A // B`` piece when the prop splits as the name does."""
    value = props.get(key, "")
    pieces = value.split(" // ")
    if len(pieces) == len(names):
        return pieces[index]
    if key in _SHARED_BY_FACES:
        return value  # Cockatrice writes one type for split cards whose halves share it
    return value if index == 0 else ""


def _face_type_line(props: dict[str, str], names: list[str], index: int) -> str:
    return _face_prop(props, names, "type", index) or _face_prop(props, names, "maintype", index)


def raw_is_token(raw: _RawCard) -> bool:
    """Whether the card is a token: its ``<token>`` flag, else "Token" among its first face's types."""
    return raw.token or "Token" in split_type_line(_face_type_line(raw.props, _face_names(raw), 0))[1]


def _faces_of(raw: _RawCard) -> tuple[Face, ...]:
    """One face per ``A // B`` part when the props split the same way, else one face."""
    props = raw.props
    names = _face_names(raw)
    texts = raw.text.split(_SPLIT_TEXT)

    def part(key: str, index: int) -> str:
        return _face_prop(props, names, key, index)

    colors_prop = props.get("colors", "") or "".join(raw.colors)
    faces: list[Face] = []
    for index, face_name in enumerate(names):
        type_line = _face_type_line(props, names, index)
        supers, types, subs = split_type_line(type_line)
        cost = braced_mana_cost(part("manacost", index))
        cmc_text = part("cmc", index) if len(names) == 1 or " // " in props.get("cmc", "") else ""
        try:
            mana_value = float(cmc_text) if cmc_text else mana_value_of(cost)
        except ValueError:
            mana_value = mana_value_of(cost)
        power, toughness = split_pt(part("pt", index))
        colors = (
            colors_of(colors_prop) if len(names) == 1 else colors_from_cost(cost) or colors_of(colors_prop)
        )
        faces.append(
            Face(
                name=face_name,
                mana_cost=cost,
                mana_value=mana_value,
                colors=colors,
                supertypes=supers,
                types=types,
                subtypes=subs,
                type_line=type_line,
                oracle_text=texts[index] if len(texts) == len(names) else (raw.text if index == 0 else ""),
                power=power,
                toughness=toughness,
                loyalty=part("loyalty", index) or None,
                defense=part("defense", index) or None,
                side="b" if props.get("side") == "back" else "a",
            )
        )
    return tuple(faces)


def _card_of(raw: _RawCard) -> Card:
    printings = tuple(
        Printing(
            set_code=code,
            collector_number=attrs.get("num", ""),
            rarity=normalise_rarity(attrs.get("rarity", "")),
            scryfall_id=attrs.get("uuid", ""),
            multiverse_id=attrs.get("muid", "") or raw.props.get("muid", ""),
            pic_url=attrs.get("picurl", ""),
        )
        for code, attrs in raw.sets
        if code
    )
    layout = raw.props.get("layout") or ("split" if " // " in raw.name else "normal")
    faces = _faces_of(raw)
    is_token = raw_is_token(raw)
    return Card(
        name=raw.name,
        layout="token" if is_token and layout == "normal" else layout,
        faces=faces,
        color_identity=colors_of(raw.props.get("coloridentity", "")) or faces[0].colors,
        printings=printings,
        is_token=is_token,
        related=tuple(dict.fromkeys(n for n in raw.related if n)),
    )


def _read_set(elem: etree._Element) -> CardSet | None:
    fields = {_local(child.tag): _text(child).strip() for child in elem}
    code = fields.get("name", "")
    if not code:
        return None
    return CardSet(
        code=code,
        name=fields.get("longname", ""),
        set_type=fields.get("settype", ""),
        release_date=fields.get("releasedate", ""),
    )


def read_cockatrice_xml(source: str | Path | bytes | IO[bytes], *, name: str = "") -> CardDatabase:
    """Read one Cockatrice card-database file (v4 or v3) into a :class:`CardDatabase`.

    ``source`` is a path, the file's bytes, or a binary stream; ``name`` labels errors when
    the source is not a path. Raises :class:`CardDataError` naming the file, line and column
    on malformed XML or when the root is not ``<cockatrice_carddatabase>``. ``reverse-related``
    links are recorded in ``db.reverse_related`` and applied to the cards present (call
    :meth:`CardDatabase.link_reverse_related` again after merging other files).
    """
    label = name or (str(source) if isinstance(source, (str, Path)) else "<cards xml>")
    db = CardDatabase(source=label)
    try:
        with contextlib.ExitStack() as opened:  # a file given by path is closed even when its XML is bad
            stream: IO[bytes]
            if isinstance(source, bytes):
                stream = io.BytesIO(source)
            elif isinstance(source, (str, Path)):
                stream = opened.enter_context(open(source, "rb"))
            else:
                stream = source
            _parse_into(db, stream, label)
    except CardDataError:
        raise
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (None, None)
        raise CardDataError(f"malformed XML: {exc.msg}", source=label, line=line, column=column) from exc
    except OSError as exc:
        raise CardDataError(f"cannot read: {exc.strerror or exc}", source=label) from exc
    except (etree.LxmlError, ValueError, UnicodeError, OverflowError, RecursionError) as exc:
        raise CardDataError(f"malformed XML: {exc}", source=label) from exc
    db.link_reverse_related()
    return db


def _parse_into(db: CardDatabase, stream: IO[bytes], label: str) -> None:
    # Only the end of each <card> and of the <sets> list produce events (much cheaper than every
    # element, and than the many <set> printings inside cards); "{*}" accepts them with or without
    # a namespace. The root is checked at the first event (its start tag has been read by then).
    events = etree.iterparse(
        stream, events=("end",), tag=(f"{{*}}{ROOT_TAG}", "{*}card", "{*}sets"), **PARSER_SETTINGS
    )
    root_seen = False
    for _event, elem in events:
        if not root_seen:
            root = elem.getroottree().getroot()
            if _local(root.tag) != ROOT_TAG:
                raise CardDataError(
                    f"not a Cockatrice card database (root element <{_local(root.tag) or '?'}>, "
                    f"expected <{ROOT_TAG}>)",
                    source=label,
                    line=root.sourceline,
                )
            root_seen = True
            version = root.get("version", "4")
            if version not in ("3", "4"):
                LOGGER.warning("%s: card database version %r, reading as v4", label, version)
        parent = elem.getparent()
        if parent is None:
            continue
        tag = _local(elem.tag)
        container = _local(parent.tag)
        if tag == "sets" and container == ROOT_TAG:
            for child in elem:
                if _local(child.tag) == "set":
                    card_set = _read_set(child)
                    if card_set is not None:
                        db.sets.setdefault(card_set.code, card_set)
        elif tag == "card" and container == "cards":
            raw = _read_card(elem)
            if not raw.name:
                LOGGER.warning("%s:%s: card without a name skipped", label, elem.sourceline)
            else:
                db.add(_card_of(raw))
                for creator in raw.reverse_related:
                    if creator:
                        db.reverse_related.setdefault(creator, []).append(raw.name)
        else:
            continue
        elem.clear()
        while elem.getprevious() is not None:
            del parent[0]
    if not root_seen:
        root = events.root
        if root is None:
            raise CardDataError("empty file", source=label)
        raise CardDataError(
            f"not a Cockatrice card database (root element <{_local(root.tag) or '?'}>, "
            f"expected <{ROOT_TAG}>)",
            source=label,
            line=root.sourceline,
        )
    for card in db.cards.values():
        for printing in card.printings:
            db.sets.setdefault(printing.set_code, CardSet(code=printing.set_code))


def looks_like_cockatrice_xml(head: bytes) -> bool:
    """Whether the first bytes of a file look like a Cockatrice card database."""
    return ROOT_TAG.encode() in head
