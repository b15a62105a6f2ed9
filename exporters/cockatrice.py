"""Cockatrice writers: ``.cod`` decks, card-database XML (format v4) and clipboard text.

Formats as Cockatrice reads them (docs/deck-and-card-formats.md §1-2):

* ``.cod``: ``<cockatrice_deck version="1">`` with ``deckname``, ``comments`` and ``zone``
  elements (``main``, ``side``, ``tokens``); each ``<card number= name=>`` optionally pinned by
  ``setShortName`` / ``collectorNumber`` / ``uuid`` (the Scryfall id Cockatrice's database uses). A deck
  read from a .cod keeps its ``<playmatCard>`` (after the banner card) and ``<sideboard_plan>`` elements
  (after the zones), where Cockatrice writes them.
* card database v4: ``<sets>`` (always with ``<priority>``, the parser leaves it uninitialised
  otherwise) and ``<cards>``. Split, aftermath, adventure and prepare cards are one card named
  ``A // B``; transform, modal and flip cards are one card per face linked with
  ``related attach="transform"``; tokens carry ``token=1`` and ``reverse-related`` to their makers.
  Links a card database gave a card (``Card.relations``) are written back as they were, with every
  attribute, on the face that held them; the links derived from the card data are added unless the
  card already has them.
* clipboard text: ``N Name (SET) NUM`` lines, a blank line, then the sideboard.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace

from cockatrice_ext.cards.model import COLORS, Card, CardRelation, CardSet, Face, Printing
from cockatrice_ext.cards.mtgjson import creates_token

from .model import (
    COMBINED_LAYOUTS,
    ExportDeck,
    ExportEntry,
    SideboardPlan,
    display_name,
    helper_names,
    is_meld_result,
    meld_results,
    official_store,
    release_date_for,
    usual_rarity,
    with_long_name,
)
from .xmlutil import attr, clean, element, text

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
MAINTYPE_PRIORITY = ("Planeswalker", "Creature", "Land", "Sorcery", "Instant", "Artifact", "Enchantment")
# Cockatrice CardSet::Priority: lower sorts first and is the preferred printing.
PRIORITY_PRIMARY, PRIORITY_SECONDARY, PRIORITY_REPRINT, PRIORITY_OTHER = 10, 20, 30, 40
_SET_TYPE_PRIORITY = {
    "core": PRIORITY_PRIMARY,
    "expansion": PRIORITY_PRIMARY,
    "custom": PRIORITY_PRIMARY,
    "commander": PRIORITY_SECONDARY,
    "draft_innovation": PRIORITY_SECONDARY,
    "masters": PRIORITY_REPRINT,
    "duel_deck": PRIORITY_REPRINT,
    "from_the_vault": PRIORITY_REPRINT,
    "premium_deck": PRIORITY_REPRINT,
    "starter": PRIORITY_REPRINT,
    "box": PRIORITY_REPRINT,
}
FALLBACK_SET = CardSet(code="CUSTOM", name="Custom cards", set_type="Custom")
_NUMBER_FOR_CLIPBOARD = re.compile(r"\d+[^\w\s]*")
_SET_FOR_CLIPBOARD = re.compile(r"\w{3,}")


# --------------------------------------------------------------------------------------------
# .cod
# --------------------------------------------------------------------------------------------
def _merged(entries: Iterable[ExportEntry], target: str) -> list[tuple[str, int, Printing | None]]:
    """Sum counts of entries that render to the same name and printing, keeping first order."""
    totals: dict[tuple[str, str, str], list] = {}
    for entry in entries:
        if entry.count <= 0:
            continue
        name = display_name(entry.card, target)
        p = entry.printing
        key = (name, p.set_code if p else "", p.collector_number if p else "")
        if key in totals:
            totals[key][1] += entry.count
        else:
            totals[key] = [name, entry.count, p]
    return [(name, count, p) for name, count, p in totals.values()]


PLAYMAT_ATTRIBUTES = ("providerId", "marginPctL", "marginPctR", "verticalOffset", "zoom")
"""The ``<playmatCard>`` attributes Cockatrice reads, in the order it writes them (others it drops)."""


def _playmat_card(deck: ExportDeck) -> str:
    """The deck's ``<playmatCard>`` line, or ``""`` when it has none: Cockatrice writes one when the card
    has a name or a provider id. Each attribute it reads is written as read (it checks and bounds the
    numbers itself when it loads them); lxml escapes them."""
    attributes = deck.playmat_attributes
    present = {key: attributes[key] for key in PLAYMAT_ATTRIBUTES if key in attributes}
    if not deck.playmat_card and not present.get("providerId"):
        return ""
    from lxml import etree  # only for a deck that has one: the .cod export path stays light

    playmat = etree.Element("playmatCard")
    for key, value in present.items():
        playmat.set(key, clean(value))
    playmat.text = clean(deck.playmat_card)
    return f"    {etree.tostring(playmat, encoding='unicode')}\n"


def _banner_card(deck: ExportDeck) -> str:
    """The deck's ``<bannerCard>`` line, or ``""`` when it has neither a name nor a provider id. The provider
    id (which printing's art Cockatrice shows) is written as Cockatrice writes it, the element's
    ``providerId`` attribute, only when the deck has one: a deck without it is written as before."""
    if not deck.banner_card and not deck.banner_provider_id:
        return ""
    provider = f' providerId="{attr(deck.banner_provider_id)}"' if deck.banner_provider_id else ""
    return f"    <bannerCard{provider}>{text(deck.banner_card)}</bannerCard>\n"


def _sideboard_plan(plan: SideboardPlan) -> str:
    """A ``<sideboard_plan>`` as Cockatrice writes one: its ``name``, then each move's ``card_name``,
    ``start_zone`` and ``target_zone``, all text (lxml escapes it; a card name is never looked up)."""
    from lxml import etree  # only for a deck that has plans: the .cod export path stays light

    written = etree.Element("sideboard_plan")
    etree.SubElement(written, "name").text = clean(plan.name)
    for move in plan.moves:
        moved = etree.SubElement(written, "move_card_to_zone")
        etree.SubElement(moved, "card_name").text = clean(move.card_name)
        etree.SubElement(moved, "start_zone").text = clean(move.start_zone)
        etree.SubElement(moved, "target_zone").text = clean(move.target_zone)
    etree.indent(written, space="    ", level=1)
    return f"    {etree.tostring(written, encoding='unicode')}\n"


def write_cod(deck: ExportDeck, *, printings: bool = True) -> bytes:
    """A Cockatrice ``.cod`` deck.

    ``printings`` adds ``setShortName``/``collectorNumber``/``uuid`` (read by Cockatrice since
    2.9; older clients ignore them). Without it the file validates against the strict
    ``deck.xsd`` shipped with Cockatrice, which predates those attributes. A playmat card and sideboard
    plans (a .cod's, :attr:`ExportDeck.playmat_card`, :attr:`ExportDeck.sideboard_plans`) are written where
    Cockatrice writes them: after the banner card, and after the zones in the deck's order.
    """
    out = [XML_DECLARATION, '<cockatrice_deck version="1">\n']
    out.append(f"    <deckname>{text(deck.name)}</deckname>\n")
    if deck.format:
        out.append(f"    <format>{text(deck.format)}</format>\n")
    out.append(_banner_card(deck))
    out.append(_playmat_card(deck))
    out.append(f"    <comments>{text(deck.comments)}</comments>\n")
    if deck.tags:
        out.append(
            "    <tags>\n" + "".join(f"        <tag>{text(t)}</tag>\n" for t in deck.tags) + "    </tags>\n"
        )
    zones = [("main", deck.main), ("side", deck.side), ("tokens", deck.tokens)]
    # kept by Cockatrice and shown in its deck editor, not used in game
    zones.append(("maybeboard", deck.sections.get("maybeboard", [])))
    zones.extend(deck.variant_sections.items())
    for zone, entries in zones:
        rows = _merged(entries, "cockatrice")
        if not rows:
            continue
        out.append(f'    <zone name="{zone}">\n')
        for name, count, p in rows:
            extra = ""
            if printings and p is not None:
                if p.set_code:
                    extra += f' setShortName="{attr(p.set_code.upper())}"'
                if p.collector_number:
                    extra += f' collectorNumber="{attr(p.collector_number)}"'
                if p.scryfall_id:
                    extra += f' uuid="{attr(p.scryfall_id)}"'
            out.append(f'        <card number="{count}" name="{attr(name)}"{extra}/>\n')
        out.append("    </zone>\n")
    out.extend(_sideboard_plan(plan) for plan in deck.sideboard_plans)
    out.append("</cockatrice_deck>\n")
    return "".join(out).encode("utf-8")


# --------------------------------------------------------------------------------------------
# clipboard / plain text
# --------------------------------------------------------------------------------------------
def _text_line(name: str, count: int, p: Printing | None) -> str:
    line = f"{count} {name}"
    if (
        p is not None
        and _SET_FOR_CLIPBOARD.fullmatch(p.set_code)
        and _NUMBER_FOR_CLIPBOARD.fullmatch(p.collector_number)
    ):
        line += f" ({p.set_code.upper()}) {p.collector_number}"
    return line


def write_text(deck: ExportDeck, *, printings: bool = True) -> str:
    """Plain text that Cockatrice's clipboard import (and most deck sites) read back exactly.

    A ``// name`` header and ``// comments`` precede a blank line; the sideboard follows the
    main deck after a blank line and a ``Sideboard`` header line (``SB:`` prefixes when the main
    deck is empty), which Cockatrice, Arena and MTGO text and our block lists all read as the
    sideboard whatever the deck's size (a blank line alone is a sideboard only to some). A name
    that reads as a section header (``// Sideboard``) is written ``// Name: X``. A set code is
    written only together with a collector number, as Cockatrice's parser requires.
    """
    from cockatrice_ext.decks.blocklist import comment_section

    lines: list[str] = []
    header = [deck.name] if deck.name.strip() else []
    header += [c for c in deck.comments.splitlines() if c.strip()]
    for i, h in enumerate(header):
        line = "// " + " ".join(h.split())
        if i == 0 and deck.name.strip() and comment_section(line) is not None:
            line = "// Name: " + " ".join(h.split())
        lines.append(line)
    if header:
        lines.append("")
    main = [_text_line(n, c, p if printings else None) for n, c, p in _merged(deck.main, "cockatrice")]
    side = [_text_line(n, c, p if printings else None) for n, c, p in _merged(deck.side, "cockatrice")]
    lines.extend(main)
    if side:
        if main:
            lines.extend(["", "Sideboard"])
            lines.extend(side)
        else:
            lines.extend("SB: " + s for s in side)
    return "\n".join(_one_line(s) for s in lines) + "\n"


def _one_line(value: str) -> str:
    return " ".join(value.split()) if ("\n" in value or "\r" in value) else value


# --------------------------------------------------------------------------------------------
# card database XML v4
# --------------------------------------------------------------------------------------------
def mana_cost_text(cost: str) -> str:
    """``{2}{W/U}{X}`` -> ``2{W/U}X``: single symbols lose their braces, hybrid/phyrexian keep them."""
    out: list[str] = []
    for symbol in re.findall(r"\{([^}]*)\}", cost):
        out.append(symbol if "/" not in symbol else "{" + symbol + "}")
    return "".join(out) if out or not cost else cost


def maintype(types: Iterable[str]) -> str:
    """Cockatrice's main type: the first of Planeswalker, Creature, Land, ... else the first type."""
    present = list(types)
    for t in MAINTYPE_PRIORITY:
        if t in present:
            return t
    return present[0] if present else ""


_ROW_BY_MAINTYPE = {"Land": 0, "Creature": 2, "Sorcery": 3, "Instant": 3}


def tablerow(types: Iterable[str]) -> int:
    """Where the card sits on the table, by its main type as Oracle decides it (:func:`maintype`): 0 a
    land, 2 a creature, 3 an instant or sorcery, 1 the rest. So a land creature (Dryad Arbor) sits with
    the creatures, an artifact land with the lands, a planeswalker creature in row 1."""
    return _ROW_BY_MAINTYPE.get(maintype(types), 1)


def _face_tablerow(face: Face) -> int:
    """The ``<tablerow>`` a card database gave ``face`` (``Face.tablerow``, when the card reader keeps it: a
    designer's custom set says where its cards sit), else :func:`tablerow`."""
    given = getattr(face, "tablerow", None)
    if isinstance(given, int) and not isinstance(given, bool) and 0 <= given <= 3:
        return given
    return tablerow(face.types)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _colors(letters: Iterable[str]) -> str:
    got = set(letters)
    return "".join(c for c in COLORS if c in got)


def _type_line(face: Face) -> str:
    if face.type_line:
        return face.type_line
    left = " ".join((*face.supertypes, *face.types))
    return f"{left} — {' '.join(face.subtypes)}" if face.subtypes else left


_ENTERS_TAPPED = re.compile(r"(?:\bThis \w+|\bit|\x00) enters(?: the battlefield)? tapped(?!\s+unless)")


def _cipt(name: str, oracle: str) -> bool:
    """Does the card say it (by name, "it" or "This <type>") enters tapped, without an "unless"?"""
    if " tapped" not in oracle or "enters" not in oracle:
        return False
    text_ = oracle.replace(name, "\x00")
    short = name.split(",")[0]
    if short != name:
        text_ = text_.replace(short, "\x00")
    return _ENTERS_TAPPED.search(text_) is not None


def _face_cipt(face: Face, *, landscape: bool) -> bool:
    """The ``<cipt>`` a card database gave ``face`` (``Face.cipt``, true or false, when the card reader
    keeps it: a Cockatrice card file exported as it is says what its file said), else Oracle's rule: the
    rules text says it enters tapped (:func:`_cipt`), or the card lies sideways (``landscape``: split
    cards, planes and battles come into play turned)."""
    given = getattr(face, "cipt", None)
    return given if isinstance(given, bool) else (_cipt(face.name, face.oracle_text) or landscape)


def _pt(face: Face) -> str:
    """``P/T``; a power or toughness given alone (a custom card's ``2/``) gets 0 for the other, as its Forge
    script's ``PT:`` must (``2/0``), so both programs show one card (the card reader says so:
    :func:`~cockatrice_ext.cards.cockatrice_xml._check_card`)."""
    if face.power is None and face.toughness is None:
        return ""
    return f"{face.power or 0}/{face.toughness or 0}"


def _joined(values: list[str]) -> str:
    """Oracle's rule for merged faces: one value if the faces agree, else ``a // b``."""
    present = [v for v in values if v]
    if not present:
        return ""
    if all(v == present[0] for v in present):
        return present[0]
    return " // ".join(present)


def _face_props(
    card: Card, face: Face, *, layout: str, side: str, cmc: float, colors: str, maintype_: str
) -> list[tuple[str, str]]:
    props = [
        ("layout", layout),
        ("side", side),
        ("type", _type_line(face)),
        ("maintype", maintype_),
        ("manacost", mana_cost_text(face.mana_cost)),
        ("cmc", _number(cmc)),
        ("colors", colors),
        ("coloridentity", _colors(card.color_identity)),
        ("pt", _pt(face)),
        ("loyalty", face.loyalty or ""),
        ("defense", face.defense or ""),
    ]
    return props


class _CardRecord:
    """One ``<card>`` to write (a merged card, a single face, or a token)."""

    __slots__ = (
        "cipt",
        "explicit",
        "is_token",
        "landscape",
        "name",
        "printings",
        "props",
        "related",
        "reverse",
        "tablerow",
        "text",
        "upsidedown",
    )

    def __init__(
        self, name: str, text_: str, props: list[tuple[str, str]], printings: list[Printing]
    ) -> None:
        self.name = name
        self.text = text_
        self.props = props
        self.printings = printings
        self.related: list[tuple[str, str]] = []  # derived: (name, attach)
        self.reverse: list[str] = []  # derived: makers of this token
        self.explicit: list[CardRelation] = []  # as a card database gave them, written first
        self.is_token = False
        self.tablerow = 1
        self.cipt = False
        self.upsidedown = False
        self.landscape = False


def _records_for(card: Card, printings: list[Printing]) -> list[_CardRecord]:
    """Cockatrice's view of one oracle card: one record, or one per face for DFC-like layouts."""
    faces = card.faces or (Face(name=card.name),)
    layout = card.layout or "normal"
    if card.is_token and layout == "normal":
        layout = "token"
    if len(faces) == 1:
        face = faces[0]
        main_type = maintype(face.types)
        props = _face_props(
            card,
            face,
            layout=layout,
            side="back" if face.side == "b" else "front",  # a melded result is a back face
            cmc=face.mana_value,
            colors=_colors(card.colors),
            maintype_=main_type,
        )
        rec = _CardRecord(display_name(card, "cockatrice"), face.oracle_text, props, printings)
        rec.tablerow = _face_tablerow(face)
        rec.landscape = main_type == "Battle" or layout in ("split", "planar")
        rec.cipt = _face_cipt(face, landscape=rec.landscape)
        rec.is_token = card.is_token
        rec.explicit = list(card.relations)
        return [rec]
    if layout in COMBINED_LAYOUTS:
        name = display_name(card, "cockatrice")
        oracle = "\n\n---\n\n".join(f.oracle_text for f in faces) if len(faces) > 1 else faces[0].oracle_text
        first = faces[0]
        props = [
            ("layout", layout),
            ("side", "front"),
            ("type", _joined([_type_line(f) for f in faces])),
            ("maintype", maintype(first.types)),
            ("manacost", _joined([mana_cost_text(f.mana_cost) for f in faces])),
            ("cmc", _number(card.mana_value)),
            ("colors", _colors(card.colors)),
            ("coloridentity", _colors(card.color_identity)),
            ("pt", _joined([_pt(f) for f in faces])),
            ("loyalty", _joined([f.loyalty or "" for f in faces])),
            ("defense", _joined([f.defense or "" for f in faces])),
        ]
        rec = _CardRecord(name, oracle, props, printings)
        rec.tablerow = _face_tablerow(first)
        rec.landscape = props[3][1] == "Battle" or layout in ("split", "planar")
        rec.cipt = _face_cipt(first, landscape=rec.landscape)
        rec.is_token = card.is_token
        rec.explicit = list(card.relations)
        return [rec]
    records: list[_CardRecord] = []
    names = [f.name for f in faces]  # as the card data spells them (display_name)
    for index, face in enumerate(faces):
        side = "back" if face.side == "b" else "front"
        props = _face_props(
            card,
            face,
            layout=layout,
            side=side,
            cmc=face.mana_value,
            colors=_colors(face.colors),
            maintype_=maintype(face.types),
        )
        rec = _CardRecord(names[index], face.oracle_text, props, _face_printings(printings, index))
        rec.related = [(other, "transform") for other in names if other != names[index]]
        rec.tablerow = _face_tablerow(face)
        rec.upsidedown = layout == "flip" and index > 0
        rec.landscape = maintype(face.types) == "Battle"
        rec.cipt = _face_cipt(face, landscape=rec.landscape)
        rec.is_token = card.is_token
        records.append(rec)
    by_face = {face.name: rec for face, rec in zip(faces, records, strict=True)}
    by_face.update((rec.name, rec) for rec in records)
    for relation in card.relations:  # each on the <card> that held it; the front when unknown
        by_face.get(relation.face, records[0]).explicit.append(relation)
    return records


def _face_printings(printings: list[Printing], index: int) -> list[Printing]:
    """A back face's printings show its own picture, number and multiverse id when it has them (a custom
    DFC's back numbered 10b; Insectile Aberration's own muid, as Oracle writes it); else the front's number
    and id, as a real DFC's faces share their number, but never the front's picture (the back would show
    the front: without a ``picURL`` Cockatrice finds the back's image itself)."""
    if index == 0:
        return printings
    if not any(
        p.back_pic_url or p.back_collector_number or p.back_multiverse_id or p.pic_url for p in printings
    ):
        return printings
    return [
        replace(
            p,
            pic_url=p.back_pic_url,
            collector_number=p.back_collector_number or p.collector_number,
            multiverse_id=p.back_multiverse_id or p.multiverse_id,
        )
        for p in printings
    ]


def _set_priority(card_set: CardSet) -> int:
    """The ``<priority>`` a card database gave the set (``CardSet.priority``, when the card reader keeps
    it: 0, Cockatrice's Fallback, stays 0), else one by its type, as Oracle ranks sets."""
    given = getattr(card_set, "priority", None)
    if isinstance(given, int) and not isinstance(given, bool):
        return given
    return _SET_TYPE_PRIORITY.get(card_set.set_type.lower(), PRIORITY_OTHER)


def _write_printing(p: Printing, code: str) -> str:
    attrs = ""
    if p.multiverse_id:
        attrs += f' muid="{attr(p.multiverse_id)}"'
    if p.scryfall_id:
        attrs += f' uuid="{attr(p.scryfall_id)}"'
    if p.collector_number:
        attrs += f' num="{attr(p.collector_number)}"'
    if p.rarity:
        attrs += f' rarity="{attr(p.rarity)}"'
    if p.pic_url:  # a spoiler's or custom card's picture: Cockatrice has no other source for it
        attrs += f' picURL="{attr(p.pic_url)}"'
    return f"            <set{attrs}>{text(code)}</set>\n"


def _write_relation(relation: CardRelation) -> str:
    """A link as the card database gave it: every attribute Cockatrice reads (the flags by presence)."""
    attrs = ""
    if relation.count:
        attrs += f' count="{attr(relation.count)}"'
    if relation.attach:
        attrs += f' attach="{attr(relation.attach)}"'
    for flag in ("exclude", "persistent", "facedown"):
        if getattr(relation, flag):
            attrs += f' {flag}="{flag}"'
    tag = "reverse-related" if relation.reverse else "related"
    return f"            <{tag}{attrs}>{text(relation.name)}</{tag}>\n"


def _write_record(rec: _CardRecord, out: list[str]) -> None:
    out.append("        <card>\n")
    out.append(f"            <name>{text(rec.name)}</name>\n")
    out.append(element("text", rec.text, "            "))
    props = [(k, v) for k, v in rec.props if v]
    if props:
        out.append("            <prop>\n")
        for key, value in props:
            out.append(f"                <{key}>{text(value)}</{key}>\n")
        out.append("            </prop>\n")
    for p in rec.printings:
        out.append(_write_printing(p, p.set_code))
    for relation in rec.explicit:
        out.append(_write_relation(relation))
    for name, attach in rec.related:
        at = f' attach="{attach}"' if attach else ""
        out.append(f"            <related{at}>{text(name)}</related>\n")
    for name in rec.reverse:
        out.append(f"            <reverse-related>{text(name)}</reverse-related>\n")
    if rec.is_token:
        out.append("            <token>1</token>\n")
    out.append(f"            <tablerow>{rec.tablerow}</tablerow>\n")
    if rec.cipt:
        out.append("            <cipt>1</cipt>\n")
    if rec.upsidedown:
        out.append("            <upsidedown>1</upsidedown>\n")
    if rec.landscape:
        out.append("            <landscapeOrientation>1</landscapeOrientation>\n")
    out.append("        </card>\n")


def write_card_database(
    cards: Iterable[Card],
    sets: Mapping[str, CardSet] | None = None,
    *,
    custom_set: CardSet | None = None,
    info: Mapping[str, str] | None = None,
) -> bytes:
    """A Cockatrice card database (v4) holding ``cards``.

    Without ``custom_set`` every card keeps all its printings and each set it uses is
    described from ``sets`` (a block's own database, or a complete ``cards.xml``). With
    ``custom_set`` every card gets exactly one printing in that set, numbered by position when
    it has no number there (a custom set for cards not in the official database; note that a
    card whose name already exists in the user's database only adds a printing).
    ``info`` fills the optional ``<info>`` header (author, createdAt, sourceUrl, sourceVersion).
    """
    with _no_gc_pauses():
        return _write_card_database(cards, sets or {}, custom_set, info)


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Pause the cyclic GC while building a large document.

    Writing ~30k cards allocates millions of short-lived acyclic strings; with a card
    database of a few hundred MB alive, each collector pass rescans it (measured: +40% time).
    Reference counting still frees everything; the previous GC state is restored.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _write_card_database(
    cards: Iterable[Card],
    sets: Mapping[str, CardSet],
    custom_set: CardSet | None,
    info: Mapping[str, str] | None,
) -> bytes:
    records: dict[str, _CardRecord] = {}
    token_records: dict[str, _CardRecord] = {}  # by the token card's own name (what Card.related uses)
    makers: dict[str, list[str]] = {}
    wanted_relations: list[tuple[_CardRecord, tuple[str, ...]]] = []
    renamed: dict[str, str] = {}  # a card's or face's name -> the <card> name written for it, if another
    first_of: dict[str, str] = {}  # a back face's <card> name -> its front's
    used_sets: dict[str, CardSet] = {}
    cards = list(cards)
    helpers = helper_names(cards)  # Foretell, The Monarch: no token a card makes
    known = {card.name: card for card in cards}
    for index, card in enumerate(cards, start=1):
        printings = _printings_for(card, index, custom_set, sets)
        for p in printings:
            if p.set_code not in used_sets:
                used_sets[p.set_code] = sets.get(p.set_code) or _set_from_printing(p, custom_set)
        card_records = []
        for rec in _records_for(card, printings):
            old = records.get(rec.name)
            if old is None:
                records[rec.name] = rec
                card_records.append(rec)
            else:  # same name twice (Cockatrice would merge them): keep one card with every printing
                have = {(p.set_code, p.collector_number) for p in old.printings}
                old.printings.extend(p for p in rec.printings if (p.set_code, p.collector_number) not in have)
        if not card_records:
            continue
        _note_renames(card, card_records, renamed)
        first_of.update((rec.name, card_records[0].name) for rec in card_records[1:])
        if card.is_token:
            token_records.setdefault(card.name, card_records[0])
        made = tuple(name for name in card.related if name not in helpers)
        if card.layout == "meld":
            made, melds_into = _meld_links(card, made, known)
            card_records[0].related.extend((name, "transform") for name in melds_into)
        for related in made:
            for maker in _making_records(card, card_records, related, known):
                wanted_relations.append((maker, (related,)))
                makers.setdefault(related, []).append(maker.name)
    given = _Given(records.values(), renamed, first_of)
    for rec in records.values():  # the faces' transform links, unless the relations link the faces already
        rec.related = [(name, attach) for name, attach in rec.related if (rec.name, name) not in given.exact]
    for rec, related in wanted_relations:
        for name in related:
            if name in token_records:
                continue  # the token names its maker instead (reverse-related)
            if name == rec.name or any(name == r for r, _ in rec.related) or given.links(rec.name, name):
                continue
            rec.related.append((name, ""))
    for name, rec in token_records.items():
        made_by = (m for m in makers.get(name, ()) if m != rec.name and not given.links(m, rec.name))
        rec.reverse = list(dict.fromkeys(made_by))

    out = [XML_DECLARATION, '<cockatrice_carddatabase version="4">\n']
    if info:
        out.append("    <info>\n")
        for key in ("author", "createdAt", "sourceUrl", "sourceVersion"):
            if info.get(key):
                out.append(f"        <{key}>{text(info[key])}</{key}>\n")
        out.append("    </info>\n")
    out.append("    <sets>\n")
    for code in sorted(used_sets):
        card_set = used_sets[code]
        out.append("        <set>\n")
        out.append(f"            <name>{text(code)}</name>\n")
        out.append(element("longname", card_set.name or code, "            "))
        out.append(element("settype", card_set.set_type or "Custom", "            "))
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", card_set.release_date or ""):
            out.append(f"            <releasedate>{card_set.release_date}</releasedate>\n")
        out.append(f"            <priority>{_set_priority(card_set)}</priority>\n")
        out.append("        </set>\n")
    out.append("    </sets>\n    <cards>\n")
    for rec in records.values():
        _write_record(rec, out)
    out.append("    </cards>\n</cockatrice_carddatabase>\n")
    return "".join(out).encode("utf-8")


def _making_records(
    card: Card, card_records: list[_CardRecord], made: str, known: Mapping[str, Card]
) -> list[_CardRecord]:
    """The ``<card>``s of ``card`` that make ``made``: Cockatrice's ``tokens.xml`` relates a token to the
    face whose text makes it (Arlinn, Embraced by the Moon's emblem to that back face, a card of its own
    there). MTGJSON links the whole card, so the faces' texts tell: an emblem comes from the faces that
    mention an emblem, another token from those that create it (:func:`creates_token`; else in an ability
    the face grants), those naming its power and toughness first (Garruk Relentless's 2/2 Wolf, the
    Veil-Cursed's 1/1 one). One record, or no face's text tells: the front."""
    faces = card.faces
    if len(card_records) < 2 or len(card_records) != len(faces):
        return card_records[:1]
    pairs = list(zip(faces, card_records, strict=True))
    token = known.get(made)
    plain = made.strip()
    if (token is not None and "Emblem" in token.front.types) or plain.endswith(" Emblem"):
        return [rec for face, rec in pairs if "emblem" in face.oracle_text.lower()] or card_records[:1]
    words = {plain, plain.removesuffix(" Token")}
    if token is not None:
        words.update(face.name.strip() for face in token.faces)
    words.discard("")
    making = [(face, rec) for face, rec in pairs if any(creates_token([face.oracle_text], w) for w in words)]
    if not making:  # an ability the face gives makes it (Dorothea's Retribution's "create a 4/4 Spirit")
        said = [re.compile(r"(?i:\bcreate)[^.]*\b" + re.escape(w) + r"\b") for w in words]
        making = [(face, rec) for face, rec in pairs if any(w.search(face.oracle_text) for w in said)]
    body = token.front if token is not None else None
    if len(making) > 1 and body is not None and body.power is not None and body.toughness is not None:
        pt = re.compile(r"(?i:\bcreate)[^.]*\b" + re.escape(f"{body.power}/{body.toughness}") + r"(?![\d/])")
        making = [(face, rec) for face, rec in making if pt.search(face.oracle_text)] or making
    return [rec for _, rec in making] or card_records[:1]


def _meld_links(
    card: Card, names: Iterable[str], known: Mapping[str, Card]
) -> tuple[tuple[str, ...], list[str]]:
    """Split the names meld card ``card`` links to into those it makes (tokens) and the card it melds into,
    which Cockatrice's Oracle links with ``attach="transform"`` (so the client offers to turn the card
    into it). Oracle links neither the halves of a pair to each other nor the melded card back to its
    halves: those links are left out. A name not among ``known`` is looked up among the real cards."""
    store = None
    made: list[str] = []
    melds_into: list[str] = []
    for name in names:
        other = known.get(name)
        if other is None:
            store = store or official_store()
            other = store.find(name) if store is not None else None
            other = other if other is not None and other.name == name else None
        if other is None or other.layout != "meld":
            made.append(name)
        elif is_meld_result(other) and not is_meld_result(card):
            melds_into.append(name)
    return tuple(made), melds_into


def _note_renames(card: Card, card_records: list[_CardRecord], renamed: dict[str, str]) -> None:
    """Record the names the output spells differently (a token ``Goblin`` -> ``Goblin Token``, a DFC by
    its faces), so that links naming them follow."""
    if card.name != card_records[0].name:
        renamed.setdefault(card.name, card_records[0].name)
    if len(card_records) == len(card.faces) > 1:
        for face, rec in zip(card.faces, card_records, strict=True):
            if face.name != rec.name:
                renamed.setdefault(face.name, rec.name)


class _Given:
    """The links the cards' own relations state (their names first follow ``renamed``), so that a link
    derived from the card data is not written again: Cockatrice would list it twice."""

    def __init__(
        self, records: Iterable[_CardRecord], renamed: Mapping[str, str], first_of: Mapping[str, str]
    ) -> None:
        self.renamed = renamed
        self.first_of = first_of
        self.exact: set[tuple[str, str]] = set()  # (maker <card>, made name)
        self.by_card: set[tuple[str, str]] = set()  # the same, each face named by its front
        for rec in records:
            if not rec.explicit:
                continue
            own = rec.explicit
            rec.explicit = [replace(r, name=renamed[r.name]) if r.name in renamed else r for r in own]
            for r in rec.explicit:
                maker, made = (r.name, rec.name) if r.reverse else (rec.name, r.name)
                self.exact.add((maker, made))
                self.by_card.add((first_of.get(maker, maker), first_of.get(made, made)))

    def links(self, maker: str, made: str) -> bool:
        """Whether some face of ``maker`` links to some face of ``made`` (named as Card.related names)."""
        made = self.renamed.get(made, made)
        return (self.first_of.get(maker, maker), self.first_of.get(made, made)) in self.by_card


def _printings_for(
    card: Card, index: int, custom_set: CardSet | None, sets: Mapping[str, CardSet]
) -> list[Printing]:
    if custom_set is not None:
        code = custom_set.code
        mine = [p for p in card.printings if p.set_code == code]
        if mine:
            return mine[:1]
        base = card.printings[0] if card.printings else None
        return [
            Printing(
                set_code=code,
                collector_number=str(index),
                rarity=usual_rarity(card, sets) or ("token" if card.is_token else "common"),
                scryfall_id=base.scryfall_id if base else "",
                pic_url=base.pic_url if base else "",
            )
        ]
    if card.printings:
        seen: dict[tuple[str, str, str], Printing] = {}
        for p in card.printings:  # two arts in one set without numbers differ by picture
            seen.setdefault((p.set_code, p.collector_number, p.pic_url), p)
        return list(seen.values())
    return [Printing(set_code=FALLBACK_SET.code, collector_number=str(index))]


def _set_from_printing(p: Printing, custom_set: CardSet | None) -> CardSet:
    if custom_set is not None and p.set_code == custom_set.code:
        return custom_set
    if p.set_code == FALLBACK_SET.code:
        return FALLBACK_SET
    return CardSet(code=p.set_code, name=p.set_name or p.set_code, set_type="", release_date=p.release_date)


def write_cockatrice_xml(deck: ExportDeck, *, custom_set: CardSet | None = None) -> bytes:
    """The card database for every card of ``deck`` (a block's own database or a custom set), and the
    cards its meld cards meld into (:func:`~.model.meld_results`: the melded card is a card of its own in
    Cockatrice, which the halves turn into). A custom set without a release date gets one the input
    fixes (:func:`~.model.release_date_for`)."""
    cards = deck.unique_cards()
    cards += meld_results(cards, {card.name: card for card in deck.melded}.get)  # Brisela beside Bruna
    if custom_set is not None:
        custom_set = with_long_name(custom_set, deck)  # <longname> the set's name, <name> its code
    if custom_set is not None and not custom_set.release_date:
        custom_set = replace(custom_set, release_date=release_date_for(custom_set, cards, deck.sets))
    return write_card_database(cards, deck.sets, custom_set=custom_set)
