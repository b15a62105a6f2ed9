"""Read Forge card scripts (``cardsfolder/a/abrade.txt``): one card per file, faces split by ALTERNATE.

Only the card's face data is read (``Name``, ``ManaCost``, ``Types``, ``PT``, ``Loyalty``,
``Defense``, ``Colors``, ``Oracle``); ability scripts (``A:``, ``T:``, ``SVar:``...) are ignored.
A folder (searched recursively) or a ``.zip`` of scripts (Forge ships ``cardsfolder.zip``) gives
a whole database.
"""

from __future__ import annotations

import logging
import zipfile
from pathlib import Path

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.jsonio import DECOMPRESSION_ERRORS, DecompressionBudget
from cockatrice_ext.cards.model import Card, CardDatabase, Face
from cockatrice_ext.cards.text import (
    colors_from_cost,
    colors_of,
    forge_mana_cost,
    join_type_line,
    mana_value_of,
    split_pt,
    split_type_line,
)
from cockatrice_ext.decks.blocklist import text_lines

LOGGER = logging.getLogger(__name__)

_LAYOUTS = {
    "split": "split",
    "doublefaced": "transform",
    "modal": "modal_dfc",
    "adventure": "adventure",
    "flip": "flip",
    "meld": "meld",
}
MAX_SCRIPT_BYTES = 1 << 20


def _face_of(fields: dict[str, str], label: str, line: int, side: str) -> Face:
    name = fields.get("Name", "").strip()
    if not name:
        raise CardDataError("card face without a Name: line", source=label, line=line)
    cost = forge_mana_cost(fields.get("ManaCost", ""))
    supers, types, subs = split_type_line(fields.get("Types", ""))
    power, toughness = split_pt(fields.get("PT", ""))
    colors = colors_of(fields["Colors"]) if "Colors" in fields else colors_from_cost(cost)
    return Face(
        name=name,
        mana_cost=cost,
        mana_value=mana_value_of(cost),
        colors=colors,
        supertypes=supers,
        types=types,
        subtypes=subs,
        type_line=join_type_line(supers, types, subs),
        oracle_text=fields.get("Oracle", "").replace("\\n", "\n").strip(),
        power=power,
        toughness=toughness,
        loyalty=fields.get("Loyalty") or None,
        defense=fields.get("Defense") or None,
        side=side,
    )


def parse_forge_script(data: bytes | str, *, source: str = "<forge script>") -> Card:
    """Parse one Forge card script into a :class:`Card` (no printings: Forge keeps those elsewhere)."""
    if isinstance(data, bytes):
        if len(data) > MAX_SCRIPT_BYTES:
            raise CardDataError("file too large for a card script", source=source)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CardDataError(f"not UTF-8 (byte {exc.start})", source=source) from exc
    else:
        text = data
    faces: list[Face] = []
    fields: dict[str, str] = {}
    face_line = 1
    layout = "normal"
    for number, raw_line in enumerate(text_lines(text), start=1):
        line = raw_line.strip()
        if line == "ALTERNATE":
            faces.append(_face_of(fields, source, face_line, "abcdefgh"[min(len(faces), 7)]))
            fields, face_line = {}, number + 1
            continue
        if not line or line.startswith("#") or ":" not in line:
            continue
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "AlternateMode":
            layout = _LAYOUTS.get(value.strip().lower(), value.strip().lower() or "normal")
        elif (
            key in ("Name", "ManaCost", "Types", "PT", "Loyalty", "Defense", "Colors", "Oracle")
            and key not in fields
        ):
            fields[key] = value
    faces.append(_face_of(fields, source, face_line, "abcdefgh"[min(len(faces), 7)]))
    if len(faces) > 1 and layout == "normal":
        layout = "transform"
    is_token = "Token" in faces[0].types
    # Forge names a split/DFC card by its faces; MTGJSON and Scryfall do the same ("A // B")
    joined = len(faces) > 1 and layout != "flip"
    name = " // ".join(f.name for f in faces) if joined else faces[0].name
    return Card(
        name=name,
        layout="token" if is_token and layout == "normal" else layout,
        faces=tuple(faces),
        color_identity=tuple(c for c in "WUBRG" if any(c in f.colors for f in faces)),
        is_token=is_token,
    )


def read_forge_script(path: str | Path) -> Card:
    """Read one Forge card script file."""
    label = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SCRIPT_BYTES + 1)
    except OSError as exc:
        raise CardDataError(f"cannot read: {exc.strerror or exc}", source=label) from exc
    return parse_forge_script(data, source=label)


FORGE_ZIP = "cardsfolder.zip"
"""The archive Forge ships its scripts in, inside ``res/cardsfolder``."""


def read_forge_cards(path: str | Path) -> CardDatabase:
    """Read a Forge card folder (every script below it, then its ``cardsfolder.zip`` for the cards they do
    not define), a ``.zip`` of scripts, or one script.

    In a folder, a ``.txt`` that is not a card script (no ``Name:`` first) and hidden folders are skipped;
    a folder with no script at all is an error, not an empty card database.
    """
    root = Path(path)
    db = CardDatabase(source=str(root))
    if root.is_dir():
        for script in sorted(root.rglob("*.txt")):  # first: a card's first definition wins
            hidden = any(part.startswith(".") for part in script.relative_to(root).parts[:-1])
            if not hidden and looks_like_forge_script(_head(script)):
                db.add(read_forge_script(script))
        for folder in (".", "cardsfolder", "res/cardsfolder"):  # the folder itself, Forge's res, its install
            if (root / folder / FORGE_ZIP).is_file():
                db.merge(_read_forge_zip(root / folder / FORGE_ZIP))
                break
        if not db.cards:
            raise CardDataError(
                "no card data in this folder: no Cockatrice card XML, no Forge card scripts (.txt files"
                f" starting with 'Name:') and no {FORGE_ZIP}",
                source=str(root),
            )
    elif zipfile.is_zipfile(root):
        db = _read_forge_zip(root)
    else:
        db.add(read_forge_script(root))
    return db


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(64)
    except OSError:
        return b""


def _read_forge_zip(archive_path: Path) -> CardDatabase:
    """Every script of a zip; a member past its size is skipped, and the members together may decompress
    to no more than any compressed card source (:class:`DecompressionBudget`: entries that share their
    compressed bytes would otherwise add up to a bomb)."""
    db = CardDatabase(source=str(archive_path))
    budget = DecompressionBudget(str(archive_path))
    try:
        with zipfile.ZipFile(archive_path) as archive:
            for info in sorted(archive.infolist(), key=lambda i: i.filename):
                if info.filename.endswith(".txt") and info.file_size <= MAX_SCRIPT_BYTES:
                    data = budget.read(archive.open(info), MAX_SCRIPT_BYTES + 1)
                    db.add(parse_forge_script(data, source=f"{archive_path}:{info.filename}"))
    except (zipfile.BadZipFile, *DECOMPRESSION_ERRORS) as exc:
        raise CardDataError(f"bad zip: {exc}", source=str(archive_path)) from exc
    return db


def looks_like_forge_script(head: bytes) -> bool:
    """Whether the first bytes look like a Forge card script."""
    return head.lstrip(b"\xef\xbb\xbf").lstrip().startswith(b"Name:")
