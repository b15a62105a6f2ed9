"""The compact card file shipped in ``cockatrice_ext/data/`` and its (de)serialiser.

A gzip'd JSON document, written with sorted keys, no whitespace and a zero gzip timestamp so
the same cards always give the same bytes. Fields equal to their default are left out, which
keeps the file small and loading cheap (no lxml, no MTGJSON at run time).
"""

from __future__ import annotations

import gzip
import io
import json
from dataclasses import fields
from typing import Any

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.jsonio import DECOMPRESSION_ERRORS, DecompressionBudget
from cockatrice_ext.cards.model import Card, CardDatabase, CardRelation, CardSet, Face, Printing

FORMAT = "cockatrice-ext-cards"
VERSION = 1
GZIP_OS_UNIX = b"\x03"
"""The gzip header's operating-system byte this file is always written with."""

_FACE_DEFAULTS = {f.name: f.default for f in fields(Face)}
_RELATION_DEFAULTS = {f.name: f.default for f in fields(CardRelation)}  # name: none, always written


def _compact(obj: Any, defaults: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, default in defaults.items():
        value = getattr(obj, name)
        if value != default:
            out[name] = list(value) if isinstance(value, tuple) else value
    return out


_PRINTING_ROW = ("set_code", "collector_number", "rarity", "uuid", "scryfall_id", "multiverse_id")


def card_to_json(card: Card) -> dict[str, Any]:
    """A card as a compact JSON object; printings are positional rows (cheap to load)."""
    out: dict[str, Any] = {"name": card.name, "faces": [_compact(f, _FACE_DEFAULTS) for f in card.faces]}
    if card.layout != "normal":
        out["layout"] = card.layout
    if card.color_identity:
        out["color_identity"] = list(card.color_identity)
    if card.printings:
        out["printings"] = [[getattr(p, k) for k in _PRINTING_ROW] for p in card.printings]
        if any(p.pic_url for p in card.printings):  # spoiler and custom cards' images
            out["pic_urls"] = [p.pic_url for p in card.printings]
        if any(p.back_pic_url or p.back_collector_number or p.back_multiverse_id for p in card.printings):
            # a DFC's back face where it differs: [number, picture], then its multiverse id when given
            out["backs"] = [_back_row(p) for p in card.printings]
    if card.is_token:
        out["is_token"] = True
    if card.related:
        out["related"] = list(card.related)
    if card.relations:  # the links a Cockatrice file gave, with their attributes
        out["relations"] = [_compact(r, _RELATION_DEFAULTS) for r in card.relations]
    return out


def _back_row(p: Printing) -> list[str]:
    """A printing's back face in ``backs``: number and picture, then the multiverse id if it has one."""
    row = [p.back_collector_number, p.back_pic_url]
    return [*row, p.back_multiverse_id] if p.back_multiverse_id else row


def card_from_json(obj: dict[str, Any], set_info: dict[str, tuple[str, str]]) -> Card:
    """Inverse of :func:`card_to_json`; ``set_info`` maps set code to (name, release date)."""
    faces = tuple(
        Face(**{k: tuple(v) if isinstance(v, list) else v for k, v in f.items() if k in _FACE_DEFAULTS})
        for f in obj.get("faces", ())
    )
    no_set = ("", "")
    rows = obj.get("printings", ())
    pic_urls = obj.get("pic_urls") or [""] * len(rows)
    # a DFC's back: its number, picture and (when given) multiverse id
    backs = [(*row, "", "", "")[:3] for row in obj.get("backs") or [()] * len(rows)]
    printings = tuple(
        Printing(
            code, number, rarity, uuid, scryfall_id, multiverse_id, *set_info.get(code, no_set), pic_url,
            back_pic_url=back_pic_url, back_collector_number=back_number, back_multiverse_id=back_muid,
        )
        for (code, number, rarity, uuid, scryfall_id, multiverse_id), pic_url, (back_number, back_pic_url,
             back_muid) in zip(rows, pic_urls, backs, strict=False)
    )  # fmt: skip
    return Card(
        name=obj["name"],
        layout=obj.get("layout", "normal"),
        faces=faces,
        color_identity=tuple(obj.get("color_identity", ())),
        printings=printings,
        is_token=bool(obj.get("is_token", False)),
        related=tuple(obj.get("related", ())),
        relations=tuple(
            CardRelation(**{k: v for k, v in r.items() if k in _RELATION_DEFAULTS})
            for r in obj.get("relations", ())
        ),
    )


def encode_database(db: CardDatabase, *, meta: dict[str, Any] | None = None) -> bytes:
    """The reproducible gzip'd JSON bytes for ``db`` (cards sorted by name)."""
    used_sets = {p.set_code for c in db.cards.values() for p in c.printings}
    document = {
        "format": FORMAT,
        "version": VERSION,
        "meta": meta or {},
        "sets": [
            [s.code, s.name, s.set_type, s.release_date]
            for code, s in sorted(db.sets.items())
            if code in used_sets
        ],
        "cards": [card_to_json(db.cards[name]) for name in sorted(db.cards)],
    }
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    packed = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
    # The header's OS byte (not covered by any checksum) is 3 before Python 3.13 and 255 from it on:
    # one value, so every Python builds the same bytes.
    return packed[:9] + GZIP_OS_UNIX + packed[10:]


def decode_database(data: bytes, *, source: str = "<embedded cards>") -> tuple[CardDatabase, dict[str, Any]]:
    """Read bytes written by :func:`encode_database`; returns the database and its ``meta``."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
            document = json.loads(DecompressionBudget(source).read(unpacked))
        if document.get("format") != FORMAT or document.get("version") != VERSION:
            raise CardDataError(f"not a {FORMAT} v{VERSION} file", source=source)
        sets = {
            row[0]: CardSet(code=row[0], name=row[1], set_type=row[2], release_date=row[3])
            for row in document["sets"]
        }
        db = CardDatabase(source=source, sets=sets)
        set_info = {code: (s.name, s.release_date) for code, s in sets.items()}
        for obj in document["cards"]:
            card = card_from_json(obj, set_info)
            db.cards[card.name] = card
    except CardDataError:
        raise
    except (*DECOMPRESSION_ERRORS, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise CardDataError(f"corrupt card file: {exc}", source=source) from exc
    return db, dict(document.get("meta") or {})
