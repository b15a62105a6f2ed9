"""Read Cockatrice card databases (cards.xml, tokens.xml, spoiler.xml, customsets), v4 and v3.

The file is streamed with :func:`lxml.etree.iterparse`; each ``<card>`` and ``<set>`` is turned
into a model object when its end tag is seen and then freed, so memory stays flat on a 30 MB
cards.xml. Children are read by name, never by position: Cockatrice itself accepts any order
(its own test fixtures break the XSD order). The parser never resolves entities, loads a DTD
or touches the network.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import logging
import re
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

from lxml import etree

from cockatrice_ext.cards.errors import CardDataError, Warn, routed_warning, xml_syntax_message
from cockatrice_ext.cards.jsonio import DECOMPRESSION_ERRORS, open_binary
from cockatrice_ext.cards.model import COLORS, Card, CardDatabase, CardRelation, CardSet, Face, Printing
from cockatrice_ext.cards.text import (
    CARD_TYPES,
    SUPERTYPES,
    cockatrice_cost,
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
# Between the halves of a split card's text: Oracle's "\n\n---\n\n", or single newlines (hand-made files).
_SPLIT_TEXT = re.compile(r"[ \t]*\n(?:[ \t]*\n)?---[ \t]*\n(?:[ \t]*\n)?")
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
# Layouts a pair of <card>s linked by attach="transform" may name for the card they make together.
_JOINED_LAYOUTS = frozenset(
    {"transform", "modal_dfc", "flip", "reversible_card", "double_faced_token", "battle"}
)
# What Cockatrice reads as a set's <priority> (QString::toShort): anything else is 0, its Fallback.
_PRIORITY = re.compile(r"[+-]?[0-9]+")
# The words a type line may have before its dash: Magic's card types and supertypes, and the few odd
# ones real cards print (Theros's Hero cards, Alpha's Summon, Unhinged's Eaturecray). Compared folded.
_TYPE_WORDS = tuple(sorted(CARD_TYPES | SUPERTYPES | {"Hero", "Summon", "Eaturecray"}))
_TYPE_WORDS_FOLDED = frozenset(word.casefold() for word in _TYPE_WORDS)
# A rules-text line that gives a card devoid (colourless whatever its cost says).
_DEVOID = re.compile(r"^\s*devoid\b", re.IGNORECASE | re.MULTILINE)
# libxml2's error for an entity nothing defines (there is no DTD, and entities are never expanded): said
# where it is and as what it is (:func:`_syntax_error`).
_UNDECLARED_ENTITY = "ERR_UNDECLARED_ENTITY"
_ENTITY_REASON = re.compile(r"^Entity '([^']*)' not defined$")


def _log_warning(message: str) -> None:
    LOGGER.warning("%s", message)


@dataclass
class _RawCard:
    """What one ``<card>`` element says, before it becomes a :class:`Card`."""

    name: str = ""
    text: str = ""
    props: dict[str, str] = field(default_factory=dict)
    sets: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    related: list[str] = field(default_factory=list)
    reverse_related: list[str] = field(default_factory=list)
    relations: list[CardRelation] = field(default_factory=list)  # both kinds, in file order
    colors: list[str] = field(default_factory=list)
    token: bool = False
    cipt: bool = False  # its <cipt> said 1, as Cockatrice reads it (the text exactly "1")
    markup_line: int | None = None  # the line of its <text> when that held markup (flattened)


def _local(tag: object) -> str:
    if type(tag) is not str:
        return ""  # comments, processing instructions
    return tag if tag[:1] != "{" else tag.rsplit("}", 1)[-1]


def _text(elem: etree._Element) -> str:
    return elem.text or ""


def _flat_text(elem: etree._Element) -> str:
    """The text of an element holding markup (HTML pasted into ``<text>``): every word kept in order, a
    ``<br/>`` as a line break, other tags dropped (their text inline). Cockatrice's own files have plain
    text only; nothing else a tag says is rules text."""
    for br in elem.iter("{*}br"):
        br.text = "\n" + (br.text or "")  # itertext reads it where the tag was, before the tag's tail
    return "".join(elem.itertext())


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
            if len(child):
                raw.text = _flat_text(child)
                raw.markup_line = child.sourceline
            else:
                raw.text = child.text or ""
        elif tag == "related" or tag == "reverse-related":
            target = (child.text or "").strip("\r\n\t")
            reverse = tag == "reverse-related"
            (raw.reverse_related if reverse else raw.related).append(target)
            if target:
                raw.relations.append(_relation(child, target, reverse))
        elif tag in ("color", "colors"):
            raw.colors.append((child.text or "").strip())
        elif tag == "token":
            raw.token = (child.text or "").strip() not in ("", "0")
        elif tag in _EXTRA_PROPS:
            if tag == "cipt":
                raw.cipt = child.text == "1"
            props[tag] = (child.text or "").strip()
    return raw


def _relation(elem: etree._Element, name: str, reverse: bool) -> CardRelation:
    """A ``<related>``/``<reverse-related>`` element with its attributes (Cockatrice reads the flags by
    presence, and any ``attach`` but ``transform`` as attaching: an empty one is kept as ``attach``)."""
    attrs = elem.attrib
    attach = attrs.get("attach")
    return CardRelation(
        name=name,
        reverse=reverse,
        count=attrs.get("count", ""),
        attach=(attach or "attach") if attach is not None else "",
        exclude="exclude" in attrs,
        persistent="persistent" in attrs,
        facedown="facedown" in attrs,
    )


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


def _cost_colors(cost: str, oracle: str) -> tuple[str, ...]:
    """The colours of a card whose file gives none (no ``<colors>``): its cost's (a hybrid symbol both its
    colours, a Phyrexian one its colour), none for a devoid card."""
    return () if _DEVOID.search(oracle) else colors_from_cost(cost)


def _faces_of(raw: _RawCard) -> tuple[Face, ...]:
    """One face per ``A // B`` part when the props split the same way, else one face.

    Without ``<colors>`` a card has its cost's colours. The faces after the first of a double-faced card
    (a layout of :data:`_JOINED_LAYOUTS`) written as one ``A // B`` card are back faces, as the built-in
    data has real ones; an MDFC's back has its own cost's colours (a land back none), another back face
    without a cost the card's (a colour indicator: Insectile Aberration).
    """
    props = raw.props
    names = _face_names(raw)
    texts = _SPLIT_TEXT.split(raw.text)
    layout = props.get("layout", "")

    def part(key: str, index: int) -> str:
        return _face_prop(props, names, key, index)

    colors_prop = props.get("colors", "") or "".join(raw.colors)
    colors_given = "colors" in props or bool(raw.colors)
    faces: list[Face] = []
    for index, face_name in enumerate(names):
        type_line = _face_type_line(props, names, index)
        supers, types, subs = split_type_line(type_line)
        cost = cockatrice_cost(part("manacost", index))
        cmc_text = part("cmc", index) if len(names) == 1 or " // " in props.get("cmc", "") else ""
        try:
            mana_value = float(cmc_text) if cmc_text else mana_value_of(cost)
        except ValueError:
            mana_value = mana_value_of(cost)
        power, toughness = split_pt(part("pt", index))
        oracle = texts[index] if len(texts) == len(names) else (raw.text if index == 0 else "")
        back = index > 0 and layout in _JOINED_LAYOUTS
        if len(names) == 1:
            colors = colors_of(colors_prop) if colors_given else _cost_colors(cost, oracle)
        elif back and layout == "modal_dfc":
            colors = _cost_colors(cost, oracle)
        else:
            colors = colors_from_cost(cost) or colors_of(colors_prop)
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
                oracle_text=oracle,
                power=power,
                toughness=toughness,
                loyalty=part("loyalty", index) or None,
                defense=part("defense", index) or None,
                side="b" if back or props.get("side") == "back" else "a",
                cipt=raw.cipt,  # Cockatrice's card-wide flag: every face of an A // B card
                tablerow=_table_row(props.get("tablerow", "")),
            )
        )
    return tuple(faces)


def _table_row(text: str) -> int | None:
    """A ``<tablerow>``'s row (0-3, as Cockatrice's table has four), or None for anything else."""
    text = text.strip()
    return int(text) if text in ("0", "1", "2", "3") else None


def _printing(code: str, attrs: dict[str, str], props: dict[str, str]) -> Printing:
    """One ``<set>`` printing; its rarity normalised (``Mythic Rare`` -> ``mythic``, as Oracle spells it and
    every reader of rarities compares)."""
    return Printing(
        set_code=code,
        collector_number=attrs.get("num", ""),
        rarity=normalise_rarity(attrs.get("rarity", "")),
        scryfall_id=attrs.get("uuid", ""),
        multiverse_id=attrs.get("muid", "") or props.get("muid", ""),
        pic_url=attrs.get("picurl", ""),
    )


def _card_of(raw: _RawCard) -> Card:
    printings = tuple(_printing(code, attrs, raw.props) for code, attrs in raw.sets if code)
    layout = raw.props.get("layout") or ("split" if " // " in raw.name else "normal")
    faces = _faces_of(raw)
    is_token = raw_is_token(raw)
    return Card(
        name=raw.name,
        layout="token" if is_token and layout == "normal" else layout,
        faces=faces,
        # without <coloridentity>: every face's colours (an MDFC's back may have others than its front)
        color_identity=colors_of(raw.props.get("coloridentity", ""))
        or tuple(c for c in COLORS if any(c in face.colors for face in faces)),
        printings=printings,
        is_token=is_token,
        related=tuple(dict.fromkeys(n for n in raw.related if n)),
        relations=tuple(raw.relations),
    )


@dataclass(frozen=True)
class FaceLinks:
    """What decides whether a ``<card>`` is the front or the back of a two-faced card
    (:func:`double_faced_pairs`), as its first definition in the file says it."""

    name: str
    links: tuple[str, ...]  # the cards it links to with related attach="transform", in file order
    back: bool  # its side says back
    face: bool  # it could be one face: one face, not a token, not meld (the built-in data keeps meld apart)

    @classmethod
    def of_card(cls, card: Card) -> FaceLinks:
        links = tuple(r.name for r in card.relations if r.attach == "transform" and not r.reverse)
        face = len(card.faces) == 1 and " // " not in card.name and card.layout != "meld"
        return cls(card.name, links, card.front.side == "b", face and not card.is_token)

    @classmethod
    def of_raw(cls, raw: _RawCard) -> FaceLinks:
        """As :meth:`of_card` of the card ``raw`` makes, without making it."""
        links = tuple(r.name for r in raw.relations if r.attach == "transform" and not r.reverse)
        face = " // " not in raw.name and raw.props.get("layout") != "meld" and not raw_is_token(raw)
        return cls(raw.name, links, raw.props.get("side") == "back", face)


def double_faced_pairs(
    fronts: Iterable[FaceLinks],
    find: Callable[[str], FaceLinks | None],
    said_front: Container[str],
    names: Container[str],
) -> dict[str, str]:
    """Front name -> back name of each pair of ``<card>``s that makes one two-faced card.

    ``fronts`` are the cards that link to another with attach="transform", in file order (a card taken as
    a back is no front); ``find`` gives any card by name; ``said_front`` names the cards whose ``side``
    prop said front; ``names`` are every card's. A front's side is not back; its back is the first card it
    links to that is still free and either says back, or says no side and links with attach="transform"
    to nothing but the front; no card may be called ``Front // Back`` already.
    """
    pairs: dict[str, str] = {}
    taken: set[str] = set()
    for card in fronts:
        if card.name in taken or card.back or not card.face:
            continue
        for name in card.links:
            if name in taken or name == card.name or f"{card.name} // {name}" in names:
                continue
            back = find(name)
            if back is None or not back.face:
                continue
            if back.back or (back.name not in said_front and all(n == card.name for n in back.links)):
                pairs[card.name] = back.name
                taken.update((card.name, back.name))
                break
    return pairs


def _joined_printings(front: Card, back: Card) -> tuple[Printing, ...]:
    """The front's printings, each with the back face's own picture, number and multiverse id of the same
    printing (same set and number, else the same set: a custom set numbers the faces 10a and 10b); a
    printing only the back has comes last, its picture and multiverse id kept for the back.

    A real transform card's sides share one collector number (MTGJSON gives both sides the same
    ``number``; Cockatrice's Oracle writes each face's own) but not their multiverse id (Oracle writes each
    face's own ``muid``), so a back face that gives no number or multiverse id of its own shares its front's.
    """
    backs = list(back.printings)

    def take(match: Callable[[Printing], bool]) -> Printing | None:
        found = next((b for b in backs if match(b)), None)
        if found is not None:
            backs.remove(found)
        return found

    out: list[Printing] = []
    for p in front.printings:
        other = take(lambda b, p=p: (b.set_code, b.collector_number) == (p.set_code, p.collector_number))
        other = other or take(lambda b, p=p: b.set_code == p.set_code)
        if other is not None:
            number = other.collector_number if other.collector_number != p.collector_number else ""
            picture = other.pic_url if other.pic_url != p.pic_url else ""
            muid = other.multiverse_id if other.multiverse_id != p.multiverse_id else ""
            p = replace(p, back_pic_url=picture, back_collector_number=number, back_multiverse_id=muid)
        out.append(p)
    out.extend(
        replace(p, pic_url="", back_pic_url=p.pic_url, multiverse_id="", back_multiverse_id=p.multiverse_id)
        for p in backs
    )
    return tuple(out)


def _joined(front: Card, back: Card) -> Card:
    """One card made of a front and back ``<card>``, shaped as the built-in data shapes real DFCs."""
    layout = next((x for x in (front.layout, back.layout) if x in _JOINED_LAYOUTS), "transform")
    identity = set(front.color_identity) | set(back.color_identity)
    own = (front.name, back.name)
    return Card(
        name=f"{front.name} // {back.name}",
        layout=layout,
        faces=(replace(front.front, side="a"), replace(back.front, side="b")),
        color_identity=tuple(c for c in COLORS if c in identity),
        printings=_joined_printings(front, back),
        related=tuple(dict.fromkeys(n for n in front.related + back.related if n not in own)),
        relations=tuple(replace(r, face=r.face or front.name) for r in front.relations)
        + tuple(replace(r, face=r.face or back.name) for r in back.relations),
    )


def join_double_faced(db: CardDatabase, said_front: Container[str] = frozenset()) -> None:
    """Make each front and back ``<card>`` pair linked by ``related attach="transform"`` one card with two
    faces (``Front // Back``, layout transform unless the file names another double-faced layout), as the
    built-in data has real ones: every writer then treats a custom DFC as it treats Delver of Secrets.

    The front is the card whose side is not back and that links to the other; ``said_front`` names the
    cards whose ``side`` prop said front (never a back). Tokens (Day and Night) and meld cards stay apart.
    The joined card takes the front's place in file order.
    """
    cards = db.cards

    def find(name: str) -> FaceLinks | None:
        card = cards.get(name)
        return None if card is None else FaceLinks.of_card(card)

    fronts = (FaceLinks.of_card(card) for card in cards.values() if card.relations)
    pairs = double_faced_pairs(fronts, find, said_front, cards)
    joined = {front: _joined(cards[front], cards[back]) for front, back in pairs.items()}
    taken = {*pairs, *pairs.values()}
    if joined:
        db.cards = {
            joined[name].name if name in joined else name: joined.get(name, card)
            for name, card in db.cards.items()
            if name not in taken or name in joined
        }


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
        priority=_priority(fields["priority"]) if "priority" in fields else None,
    )


def _priority(text: str) -> int:
    """A ``<priority>`` as Cockatrice reads it: a whole number that fits a short, else 0 (Fallback)."""
    if _PRIORITY.fullmatch(text) is None:
        return 0
    value = int(text)
    return value if -(1 << 15) <= value < (1 << 15) else 0


def read_cockatrice_xml(
    source: str | Path | bytes | IO[bytes], *, name: str = "", warn: Warn | None = None
) -> CardDatabase:
    """Read one Cockatrice card-database file (v4 or v3) into a :class:`CardDatabase`.

    ``source`` is a path, the file's bytes, or a binary stream; ``name`` labels errors when
    the source is not a path. Raises :class:`CardDataError` naming the file, line and column
    on malformed XML or when the root is not ``<cockatrice_carddatabase>``. ``reverse-related``
    links are recorded in ``db.reverse_related`` and applied to the cards present (call
    :meth:`CardDatabase.link_reverse_related` again after merging other files). Every link is also
    kept, with its attributes, in ``Card.relations``; a front and back ``<card>`` linked by
    ``attach="transform"`` become one two-faced card (:func:`join_double_faced`).

    What a hand-made file gets wrong but can still be read is told to ``warn`` (default: what
    :func:`warnings_to` gave, else this module's logger), one ``file:line: what`` each: a nameless card
    skipped, markup in a ``<text>`` flattened, a second card of a name that says otherwise than the first
    (the first kept), a type-line word that is no card type (the closest said).
    """
    label = name or (str(source) if isinstance(source, (str, Path)) else "<cards xml>")
    db = CardDatabase(source=label)
    try:
        with contextlib.ExitStack() as opened:  # a file given by path is closed even when its XML is bad
            stream: IO[bytes]
            if isinstance(source, bytes):
                stream = io.BytesIO(source)
            elif isinstance(source, (str, Path)):  # a .xml.gz or .xml.xz too, within the decompression cap
                stream = opened.enter_context(open_binary(source))
            else:
                stream = source
            said_front = _parse_into(db, stream, label, warn or routed_warning() or _log_warning)
    except CardDataError:
        raise
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(exc, label, None) from exc
    except DECOMPRESSION_ERRORS as exc:  # a missing file, or a damaged .gz / .xz
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise CardDataError(f"cannot read: {reason}", source=label) from exc
    except (etree.LxmlError, ValueError, UnicodeError, OverflowError, RecursionError) as exc:
        raise CardDataError(f"malformed XML: {exc}", source=label) from exc
    join_double_faced(db, said_front)
    db.link_reverse_related()
    return db


def _syntax_error(exc: etree.XMLSyntaxError, label: str, log: etree._ListErrorLog | None) -> CardDataError:
    """``exc`` said as ``file:line:column: malformed XML: why``. iterparse may raise a summary at no
    position (``no element found`` at 0:0) after libxml2 stopped at the real fault: then the first fatal
    error of the parser's own ``log`` (the exception's is the thread's, with earlier files' errors in it)
    is said, where it was. An entity (``&brand;``: there is no DTD, entities are never expanded) is named
    as one."""
    line, column = exc.position if exc.position else (None, None)
    reason = xml_syntax_message(exc)
    fatal = next(iter(log.filter_from_fatals()), None) if log is not None else None
    if fatal is not None and (not line or fatal.type_name == _UNDECLARED_ENTITY):
        line, column = fatal.line, fatal.column
        reason = xml_syntax_message(_Message(fatal.message))
    entity = _ENTITY_REASON.match(reason)
    if entity:
        reason = (
            f"entity &{entity.group(1)}; is not defined (entities are never expanded: write the character"
            " itself, or &amp; for an ampersand)"
        )
    return CardDataError(f"malformed XML: {reason}", source=label, line=line or None, column=column)


@dataclass(frozen=True)
class _Message:
    """An error log entry's message, as :func:`xml_syntax_message` reads an error."""

    msg: str


def _odd_type_words(type_line: str) -> list[tuple[str, str]]:
    """The words of ``type_line`` that are no card type, each with the closest type (``""``: none close):
    those before its dash (``Artifact Creture — Golem``); and in a line with no dash and no type at all
    (``Artifcat``, which reads as a subtype alone), those that look like a misspelt type (Magic-Token's
    ``Counter`` or ``State`` do not)."""
    _supers, types, subs = split_type_line(type_line)
    odd: list[tuple[str, str]] = []
    for word in types:
        if word.casefold() not in _TYPE_WORDS_FOLDED:
            closest = difflib.get_close_matches(word.capitalize(), _TYPE_WORDS, n=1, cutoff=0.6)
            odd.append((word, closest[0] if closest else ""))
    rest = [word for word in subs if word not in SUPERTYPES]  # without a dash, a supertype is among them
    if not types and not any(word.casefold() in _TYPE_WORDS_FOLDED for word in rest):
        for word in rest:
            closest = difflib.get_close_matches(word.capitalize(), _TYPE_WORDS, n=1, cutoff=0.8)
            if closest:
                odd.append((word, closest[0]))
    return odd


def _type_words_warning(card: Card) -> str:
    """What a card's type lines say that is no card type (``Artifact Creture``, or ``Artifcat`` alone), with
    the closest type; empty when every word is one (:func:`_odd_type_words`)."""
    said: dict[str, str] = {}
    for face in card.faces:
        for word, closest in _odd_type_words(face.type_line):
            hint = f" (did you mean {closest!r}?)" if closest else ""
            said.setdefault(word, f"{word!r} is not a card type{hint}")
    if not said:
        return ""
    return f"{card.name!r}: {'; '.join(said.values())}; read as written"


def _half_pt_warnings(card: Card) -> list[str]:
    """What each face of ``card`` whose ``pt`` gives a power without a toughness (``2/``, ``2``) or a
    toughness without a power (``/3``) is written as: no real card has one alone and Forge's ``PT:`` needs
    both, so every writer gives the missing one 0 (``2/0``), Cockatrice and Forge alike, and it is said here
    rather than let the two programs show different cards."""
    said: list[str] = []
    for face in card.faces:
        if (face.power is None) == (face.toughness is None):
            continue
        if face.toughness is None:
            given = f"power {face.power} without a toughness"
        else:
            given = f"toughness {face.toughness} without a power"
        written = f"{face.power or 0}/{face.toughness or 0}"
        said.append(
            f"{face.name!r}: its pt gives a {given}; written as {written} for Cockatrice and Forge alike"
            " (give both, as 2/2)"
        )
    return said


def prop_may_warn(key: str, value: str) -> bool:
    """Whether a ``<card>`` whose prop ``key`` (``type``, ``maintype`` or ``pt``, v3 or v4) reads ``value``
    could be warned about by :func:`_check_card`: a type line (the value, or one of its ``A // B`` pieces, as
    a face takes it) with a word that is no card type, or a ``pt`` given by half. Never false where the check
    would warn, so the XML index (:mod:`cockatrice_ext.cards.xml_index`) checks only such cards and says what
    a full read says."""
    value = value.strip()
    lines = {value, *value.split(" // ")}
    if key == "pt":
        return any((power is None) != (toughness is None) for power, toughness in map(split_pt, lines))
    return any(_odd_type_words(line) for line in lines)


def nameless_card_warning(label: str, line: int | None) -> str:
    """What a ``<card>`` without a name (skipped) on ``line`` of ``label`` is said as."""
    return f"{label}:{line}: card without a name skipped"


def version_warning(label: str, version: str) -> str:
    """What a card database whose root gives a ``version`` other than 3 or 4 is said as."""
    return f"{label}: card database version {version!r}, reading as v4"


def _check_card(
    db: CardDatabase,
    card: Card,
    raw: _RawCard,
    first_lines: dict[str, int | None],
    label: str,
    line: int | None,
    warn: Warn,
) -> None:
    """Tell ``warn`` what a hand-made ``<card>`` (on ``line`` of file ``label``) gets wrong but is read
    anyway: markup in its text, a word of its type line that is no card type, a ``pt`` given by half
    (:func:`_half_pt_warnings`), a name an earlier card has with other rules (the first is kept:
    :meth:`CardDatabase.add`). The one place a card file's ``<card>`` is checked: every reader of one (a card
    source, the custom set beside a list, a card file given as the list) says the same."""
    where = f"{label}:{line}"
    if raw.markup_line is not None:
        warn(
            f"{label}:{raw.markup_line}: {card.name!r}: markup in its <text> flattened"
            " (tags dropped, their words kept, <br/> as a line break)"
        )
    typo = _type_words_warning(card)
    if typo:
        warn(f"{where}: {typo}")
    old = db.cards.get(card.name)
    if old is None:
        first_lines[card.name] = line
        for said in _half_pt_warnings(card):  # a second card of the name: the first's faces are kept
            warn(f"{where}: {said}")
    elif old.faces != card.faces:
        first = first_lines.get(card.name)
        on = f" on line {first}" if first else ""
        warn(
            f"{where}: a second card named {card.name!r} says otherwise than the first{on}: the first is"
            " kept, this one's printings are added to it"
        )


def _events(events: etree.iterparse, label: str) -> Iterator[tuple[str, etree._Element]]:
    """The events of ``events``; a syntax error said where the parser found it (:func:`_syntax_error`)."""
    iterator = iter(events)
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            return
        except etree.XMLSyntaxError as exc:
            raise _syntax_error(exc, label, events.error_log) from exc
        yield item


def _parse_into(db: CardDatabase, stream: IO[bytes], label: str, warn: Warn) -> set[str]:
    """Read the cards and sets of ``stream`` into ``db``; return the names of the cards whose side prop
    says front (what :func:`join_double_faced` needs to know of the file). What can be read but looks
    wrong is told to ``warn`` (:func:`read_cockatrice_xml`)."""
    # Only the end of each <card> and of the <sets> list produce events (much cheaper than every
    # element, and than the many <set> printings inside cards); "{*}" accepts them with or without
    # a namespace. The root is checked at the first event (its start tag has been read by then).
    events = etree.iterparse(
        stream, events=("end",), tag=(f"{{*}}{ROOT_TAG}", "{*}card", "{*}sets"), **PARSER_SETTINGS
    )
    root_seen = False
    said_front: set[str] = set()
    first_lines: dict[str, int | None] = {}  # each card name's first <card>
    for _event, elem in _events(events, label):
        if not root_seen:
            root = elem.getroottree().getroot()
            if _local(root.tag) != ROOT_TAG:
                raise CardDataError(
                    f"not a Cockatrice card database (root element <{_local(root.tag) or '?'}>, "
                    f"expected <{ROOT_TAG}>)",
                    source=label,
                    line=root.sourceline,
                )
            docinfo = root.getroottree().docinfo
            if docinfo.internalDTD is not None or docinfo.doctype:  # entities are never expanded: refuse
                raise CardDataError("XML with a DOCTYPE is not accepted", source=label, line=root.sourceline)
            root_seen = True
            version = root.get("version", "4")
            if version not in ("3", "4"):
                warn(version_warning(label, version))
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
                warn(nameless_card_warning(label, elem.sourceline))
            else:
                card = _card_of(raw)
                _check_card(db, card, raw, first_lines, label, elem.sourceline, warn)
                db.add(card)
                if raw.props.get("side") == "front":
                    said_front.add(raw.name)
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
    return said_front
