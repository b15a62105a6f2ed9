"""File writers: Cockatrice, Forge, MTGO, Arena, text.

Every writer is a pure function of an :class:`ExportDeck` (a deck whose names are resolved to
cards) returning the file's bytes or text, or a *bundle* ``{relative path: bytes}`` for
formats made of several files. :data:`EXPORT_FORMATS` names them; :func:`export` renders one
completely in memory and only then writes it atomically, so a failure never leaves a
half-written file behind.

>>> from cockatrice_ext.exporters import EXPORT_FORMATS, export
>>> sorted(EXPORT_FORMATS)[:3]
['arena', 'cockatrice-xml', 'cod']
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cockatrice_ext.cards.model import Card
from cockatrice_ext.decks.model import MAYBE
from cockatrice_ext.fsutil import atomic_write_files

from .arena import write_arena
from .cockatrice import write_card_database, write_cockatrice_xml, write_cod, write_text
from .forge import write_forge_cube, write_forge_dck
from .forge_edition import write_forge_custom_set
from .model import (
    ExportDeck,
    ExportEntry,
    build_export_deck,
    deck_from_cards,
    display_name,
    from_resolved,
)
from .mtgo import write_mtgo_dek

if TYPE_CHECKING:
    from cockatrice_ext.cards.resolve import ResolvedDeck

Rendered = bytes | str | dict[str, bytes]
DECK_ITEMS = frozenset({"maybeboard", "tags", "banner card", "format", "playmat card", "sideboard plans"})
"""What a deck may carry besides its cards' sections (a .cod holds them all)."""


ALL_SECTIONS = frozenset({"side", "commander", "companion", "tokens", "variants"})
"""The sections besides the library a format may write (``variants``: Forge's :data:`VARIANT_SECTIONS`);
a card file writes every card whatever its section."""
DECK_SECTIONS = frozenset({"side", "commander", "companion"})
"""The sections a plain deck format writes: the sideboard, commanders and companions with it."""


@dataclass(frozen=True)
class ExportFormat:
    """One entry of :data:`EXPORT_FORMATS`.

    ``suffix`` is the default file suffix, or ``""`` for a bundle written into a folder. ``keeps`` names
    the deck-level items (of :data:`DECK_ITEMS`) the format can hold, ``sections`` the sections besides the
    library it writes (of :data:`ALL_SECTIONS`); the others are announced by :func:`left_out`.
    """

    name: str
    writer: Callable[..., Rendered]
    suffix: str
    description: str
    keeps: frozenset[str] = frozenset()
    sections: frozenset[str] = DECK_SECTIONS
    is_card_file: bool = False
    """A file of cards (every card once, whatever its section), not a deck."""
    keeps_edits: bool = False
    """A folder the user edits in place (Forge scripts to finish by hand): a file edited since the last
    export is kept and the new version written beside it (:func:`export`)."""
    command_zone: bool = False
    """Commanders have a place of their own (Forge's [Commander], Arena's Commander); other decks put them in
    the sideboard."""

    @property
    def is_bundle(self) -> bool:
        return not self.suffix


EXPORT_FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat(
            "cod",
            write_cod,
            ".cod",
            "Cockatrice deck (.cod) with main, side and tokens zones",
            DECK_ITEMS,
            DECK_SECTIONS | {"tokens", "variants"},
        ),
        ExportFormat(
            "cockatrice-xml",
            write_cockatrice_xml,
            ".xml",
            "Cockatrice card database v4 (put it in the customsets folder)",
            sections=ALL_SECTIONS,
            is_card_file=True,
        ),
        ExportFormat("text", write_text, ".txt", "Plain text, Cockatrice clipboard style"),
        ExportFormat(
            "forge",
            write_forge_dck,
            ".dck",
            "Forge deck (.dck)",
            frozenset({"tags"}),
            DECK_SECTIONS | {"variants"},
            command_zone=True,
        ),
        ExportFormat(
            "forge-cube",
            write_forge_cube,
            "",
            "Forge cube: cube/<Name>.dck + draft/<Name>.draft",
            frozenset({"tags"}),
            frozenset(),
        ),
        ExportFormat(
            "forge-custom",
            write_forge_custom_set,
            "",
            "Forge custom cards: cards/*.txt scripts + editions/<Set>.txt (into Forge's custom folder);"
            " a file edited by hand since the last export is kept, the new version written beside it as"
            " NAME.txt.new",
            sections=ALL_SECTIONS,
            is_card_file=True,
            keeps_edits=True,
        ),
        ExportFormat("mtgo", write_mtgo_dek, ".dek", "MTGO deck (.dek XML, matched by name)"),
        ExportFormat(
            "arena",
            write_arena,
            ".arena.txt",
            "MTG Arena import text (Brawl's Commander and Companion too)",
            command_zone=True,
        ),
    )
}


def render(deck: ExportDeck | ResolvedDeck | Iterable[Card], fmt: str, **options: Any) -> Rendered:
    """Run the writer for ``fmt`` on ``deck`` (a resolved deck or plain cards); return its output."""
    try:
        export_format = EXPORT_FORMATS[fmt]
    except KeyError:
        choices = ", ".join(sorted(EXPORT_FORMATS))
        raise ValueError(f"unknown export format {fmt!r}; choose from {choices}") from None
    if not isinstance(deck, ExportDeck):
        if hasattr(deck, "deck") and hasattr(deck, "sections"):  # the card layer's ResolvedDeck
            deck = from_resolved(deck)
        else:
            deck = deck_from_cards("", deck)
    return export_format.writer(deck, **options)


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def left_out(deck: ExportDeck, fmt: str) -> list[str]:
    """What writing ``deck`` as ``fmt`` leaves out, one phrase each: deck-level items and sections it has
    no place for. Of the tokens, only those the list names (it has a line for them) are said: the tokens
    the cards make are added for Cockatrice's token menu and are no loss elsewhere."""
    export_format = EXPORT_FORMATS[fmt]
    maybe = deck.count(MAYBE)
    present = {
        "maybeboard": f"maybeboard ({_cards(maybe)})" if maybe else "",
        "tags": f"tags ({', '.join(deck.tags)})" if deck.tags else "",
        "banner card": _banner_phrase(deck),
        "format": f"format ({deck.format})" if deck.format else "",
        "playmat card": _playmat_phrase(deck),
        "sideboard plans": _plans_phrase(deck),
    }
    phrases = [phrase for item, phrase in present.items() if phrase and item not in export_format.keeps]
    listed_tokens = sum(e.count for e in deck.sections.get("tokens", []) if e.line > 0)
    sections = {
        "side": [("sideboard", deck.count("side"))],
        "commander": [("commander", deck.count("commander"))],
        "companion": [("companion", deck.count("companion"))],
        "tokens": [("tokens", listed_tokens)],
        "variants": [(name, deck.count(name)) for name in deck.variant_sections],
    }
    for kind, counted in sections.items():
        if kind not in export_format.sections:
            phrases += [f"{name} ({_cards(count)})" for name, count in counted if count]
    return phrases


def _banner_phrase(deck: ExportDeck) -> str:
    """``banner card (Sol Ring)`` when the deck has one, ``banner card (provider id '...')`` when it has only
    a provider id (as a .cod may), else ``""``."""
    if deck.banner_card:
        return f"banner card ({deck.banner_card})"
    return f"banner card (provider id {deck.banner_provider_id!r})" if deck.banner_provider_id else ""


def _playmat_phrase(deck: ExportDeck) -> str:
    """``playmat card ('Forest')`` when the deck has one (a name or a provider id, as Cockatrice writes one),
    else ``""``."""
    provider = deck.playmat_attributes.get("providerId", "")
    if deck.playmat_card:
        return f"playmat card ({deck.playmat_card!r})"
    return f"playmat card (provider id {provider!r})" if provider else ""


def _plans_phrase(deck: ExportDeck) -> str:
    """``sideboard plans ('vs Aggro', 'vs Control')`` naming the deck's plans, else ``""``."""
    plans = deck.sideboard_plans
    if not plans:
        return ""
    names = ", ".join(repr(plan.name) for plan in plans)
    return f"sideboard plan{'s' if len(plans) != 1 else ''} ({names})"


def section_counts(deck: ExportDeck) -> str:
    """Each section's count, as the input has it (``main 40, side 15, tokens 3``), then the tokens the
    cards make that the list does not name (``and 9 tokens its cards make``): added for Cockatrice's token
    menu, they are counted apart, so that the count of listed tokens is the one :func:`left_out` says a
    format leaves out."""
    parts: list[str] = []
    for name, entries in deck.sections.items():
        listed = sum(e.count for e in entries if name != "tokens" or e.line > 0)
        if name != "tokens" or listed:
            parts.append(f"{name} {listed}")
    made = sum(e.count for e in deck.sections.get("tokens", []) if e.line <= 0)
    if made:
        parts.append(f"and {made} token{'s' if made != 1 else ''} its cards make")
    return ", ".join(parts)


def cards_written(deck: ExportDeck, fmt: str) -> int:
    """How many of ``deck``'s cards writing it as ``fmt`` puts in the file: a card file holds every card; a
    deck its library and the sections it has a place for (:func:`left_out` names the others)."""
    export_format = EXPORT_FORMATS[fmt]
    if export_format.is_card_file:
        return deck.count()
    by_kind = {
        "side": deck.count("side"),
        "commander": deck.count("commander"),
        "companion": deck.count("companion"),
        "tokens": deck.count("tokens"),
        "variants": sum(e.count for entries in deck.variant_sections.values() for e in entries),
    }
    kept = sum(count for kind, count in by_kind.items() if kind in export_format.sections)
    return sum(e.count for e in deck.main) + kept


def moved_to_side(deck: ExportDeck, fmt: str) -> list[str]:
    """Commanders ``fmt`` writes in the sideboard for want of a command zone, as peer tools do (Forge has
    its [Commander], Arena its Commander section; a companion belongs in the sideboard anyway), as a
    phrase."""
    count = deck.count("commander")
    export_format = EXPORT_FORMATS[fmt]
    commanders_written = "commander" in export_format.sections  # else left_out says they are not
    if not count or not commanders_written or export_format.command_zone or export_format.is_card_file:
        return []
    return [f"commander ({_cards(count)})"]


def export(
    deck: ExportDeck | ResolvedDeck | Iterable[Card], fmt: str, path: str | Path, **options: Any
) -> list[Path]:
    """Render ``deck`` as ``fmt`` and write it atomically to ``path``; return the files written.

    For bundle formats ``path`` is a folder and each file lands under it. Everything is rendered
    before the first byte is written. A format that :attr:`~ExportFormat.keeps_edits` never replaces a
    file the user edited (:func:`keep_edits`): its new version is written as ``NAME.new``
    (:data:`NEW_SUFFIX`; :func:`kept_edits` pairs them up from the files returned), and a manifest of what
    was written (:data:`MANIFEST`, not among the files returned: no file for the user) goes with them.
    """
    rendered = render(deck, fmt, **options)
    target = Path(path)
    if isinstance(rendered, Mapping):
        if EXPORT_FORMATS[fmt].keeps_edits:
            rendered = keep_edits(target, rendered)
        files = {target / rel: data for rel, data in rendered.items()}
        for file in files:
            if target.resolve() not in file.resolve().parents:
                raise ValueError(f"refusing to write outside {target}: {file}")
    else:
        files = {target: rendered.encode("utf-8") if isinstance(rendered, str) else rendered}
    atomic_write_files(files)  # all together or not at all
    return [file for file in files if file.name != MANIFEST or file.parent != target]  # bookkeeping


MANIFEST = ".cockatrice-ext-manifest.json"
"""The file, in a folder written by a format that keeps edits, naming each file written there with the
SHA-256 of the versions this tool wrote for it. A dot file: Forge loads only ``*.txt`` files and no file
at the folder's top."""
NEW_SUFFIX = ".new"
"""Added to a file's name for the export's version of a file the user edited: Forge does not load it."""
_MANIFEST_VERSION = 1
_MANIFEST_MAX_BYTES = 8 << 20  # the folder is the user's: a huge or hostile file is no manifest


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_manifest(folder: Path) -> dict[str, list[str]]:
    """What :data:`MANIFEST` in ``folder`` says this tool wrote: relative path -> digests. An absent,
    unreadable or malformed manifest says nothing (every file that differs is then kept)."""
    try:
        with (folder / MANIFEST).open("rb") as handle:
            data = handle.read(_MANIFEST_MAX_BYTES + 1)
        parsed = json.loads(data) if len(data) <= _MANIFEST_MAX_BYTES else None
    except (OSError, ValueError, RecursionError):  # RecursionError: nested a million deep
        return {}
    files = parsed.get("files") if isinstance(parsed, dict) else None
    if not isinstance(files, dict):
        return {}
    return {
        rel: [d for d in digests if isinstance(d, str)]
        for rel, digests in files.items()
        if isinstance(rel, str) and isinstance(digests, list)
    }


def keep_edits(folder: Path, bundle: Mapping[str, bytes]) -> dict[str, bytes]:
    """``bundle`` (relative path -> bytes) as it may be written into ``folder`` without losing an edit, and
    the manifest of it (:data:`MANIFEST`).

    A file already there whose bytes are neither the new ones nor a version this tool wrote for it (the
    manifest's digests) was edited by hand (or made by someone else): it is kept, and the new version
    goes to ``PATH.new`` (:data:`NEW_SUFFIX`) instead. Any other file is replaced as usual. The manifest
    records, for each path, the digest of the version now written there and of the one offered beside
    it, so a file left as it is or replaced by the offered version is replaced next time.
    """
    written = read_manifest(folder)
    out: dict[str, bytes] = {}
    manifest: dict[str, list[str]] = {}
    for rel, data in bundle.items():
        new = _digest(data)
        try:
            old = (folder / rel).read_bytes() if (folder / rel).is_file() else None
        except OSError:
            old = None  # unreadable: the write says why
        if old is None or old == data or _digest(old) in written.get(rel, []):
            out[rel] = data
            manifest[rel] = [new]
        else:  # edited since the last export: kept as it is
            out[rel + NEW_SUFFIX] = data
            manifest[rel] = list(dict.fromkeys([*written.get(rel, [])[:1], new]))
    document = {"version": _MANIFEST_VERSION, "written_by": "cockatrice-ext", "files": manifest}
    out[MANIFEST] = (json.dumps(document, indent=1, sort_keys=True) + "\n").encode("utf-8")
    return out


def kept_edits(written: Iterable[Path]) -> list[tuple[Path, Path]]:
    """``(kept file, new version)`` for each file :func:`export` kept because it was edited, from the files
    it wrote (each new version is the kept file's name plus :data:`NEW_SUFFIX`)."""
    return [
        (file.with_name(file.name[: -len(NEW_SUFFIX)]), file)
        for file in written
        if file.name.endswith(NEW_SUFFIX)
    ]


def kept_edit_warning(kept: Path, new: Path) -> str:
    """The line that tells the user :func:`export` kept their edited ``kept`` and wrote ``new`` beside it."""
    return (
        f"{kept} was edited since the last export: kept as it is; this export's version is {new.name}"
        f" beside it (Forge does not load it): to take it, replace {kept.name} with it"
    )


__all__ = [
    "ALL_SECTIONS",
    "DECK_ITEMS",
    "DECK_SECTIONS",
    "EXPORT_FORMATS",
    "MANIFEST",
    "NEW_SUFFIX",
    "ExportDeck",
    "ExportEntry",
    "ExportFormat",
    "build_export_deck",
    "cards_written",
    "deck_from_cards",
    "display_name",
    "export",
    "from_resolved",
    "keep_edits",
    "kept_edit_warning",
    "kept_edits",
    "left_out",
    "moved_to_side",
    "read_manifest",
    "render",
    "section_counts",
    "write_arena",
    "write_card_database",
    "write_cockatrice_xml",
    "write_cod",
    "write_forge_cube",
    "write_forge_custom_set",
    "write_forge_dck",
    "write_mtgo_dek",
    "write_text",
]
