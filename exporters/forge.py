"""Forge decks (``.dck``), cubes (``.dck`` + ``.draft``) and safe file names.

Forge facts (docs/deck-and-card-formats.md §3): a deck is ``[metadata]`` ``Name=`` then
``[Main]`` / ``[Sideboard]`` sections of ``N Name|SET`` lines; only split cards are spelled
``A // B``, other multi-face cards by their front face. A cube is a deck under ``res/cube`` and
a ``res/draft/*.draft`` whose ``DeckFile:`` must equal the cube's ``Name=`` (otherwise Forge
silently drafts from its whole card pool), sized to the cube (:func:`draft_size`: Forge deals
every pack from it). Custom cards are elsewhere: their scripts in :mod:`.forge_scripts`, the
``custom`` folder and its edition in :mod:`.forge_edition` (which imports this module's
:func:`safe_file_stem`; this module imports only :mod:`.forge_scripts`).

Multi-file formats return a *bundle*: ``{relative path: bytes}``, written together by
:func:`cockatrice_ext.exporters.export`.
"""

from __future__ import annotations

import re

from cockatrice_ext.cards.model import Card
from cockatrice_ext.cards.mtgjson import SAME_NAME_VARIANT_SETS, variant_base_name

from .forge_scripts import _line_value, windows_safe
from .model import VARIANT_SECTIONS, ExportDeck, ExportEntry, display_name


def _card_request(entry: ExportEntry) -> str:
    """``Name``, ``Name|SET``, or ``Name|SET|N`` when the card has several arts in the set (Forge's art
    index, counted in collector-number order). An Un-set variant (``Very Cryptic Command (d)``, UST 49d) is
    one art of Forge's card of the printed name, its letter's (``Very Cryptic Command|UST|4``), whether
    or not the line pinned it: another art is another card."""
    from cockatrice_ext.cards.resolve import printings_in_set

    name = _line_value(display_name(entry.card, "forge"))
    variant = _variant_art(entry.card)
    if variant:
        return f"{name}|{variant}"
    p = entry.printing
    if p is None or not p.set_code or "|" in p.set_code:
        return name
    request = f"{name}|{_line_value(p.set_code.upper())}"
    arts = printings_in_set(entry.card, p.set_code)
    return f"{request}|{arts.index(p) + 1}" if len(arts) > 1 and p in arts else request


def _variant_art(card: Card) -> str:
    """``SET|N`` for an Un-set variant (:func:`~cockatrice_ext.cards.mtgjson.variant_base_name`): its
    printing in that set and the art its name's letter stands for (``(d)``, 49d: 4); else empty."""
    if variant_base_name(card.name, card.printings) == card.name:
        return ""
    letter = card.name[-2].lower()
    for p in card.printings:
        if p.set_code.upper() in SAME_NAME_VARIANT_SETS and p.collector_number[-1:].lower() == letter:
            return f"{p.set_code.upper()}|{ord(letter) - ord('a') + 1}"
    return ""


def _section_lines(entries: list[ExportEntry], *, one_per_line: bool = False) -> list[str]:
    totals: dict[str, int] = {}
    for entry in entries:
        if entry.count > 0:
            key = _card_request(entry)
            totals[key] = totals.get(key, 0) + entry.count
    lines: list[str] = []
    for request, count in totals.items():
        if one_per_line:
            lines.extend(f"1 {request}" for _ in range(count))
        else:
            lines.append(f"{count} {request}")
    return lines


def forge_misread_names(deck: ExportDeck) -> list[str]:
    """The names of ``deck``'s cards whose lines in a Forge deck or cube Forge would misread: a name
    ending in ``+`` is read as a foil of another name, ``|`` as the start of a set code
    (:func:`~.forge_edition.forge_unreadable_name`). The writers write them as they are; the caller says
    so."""
    names = dict.fromkeys(display_name(card, "forge") for card in deck.unique_cards())
    return [name for name in names if name.rstrip().endswith("+") or "|" in name]


def _metadata(deck: ExportDeck, fallback_name: str = "Unnamed deck") -> list[str]:
    """``[metadata]``: ``Name=``, then ``Comment=`` and ``Tags=`` (comma-separated) when there are any."""
    lines = ["[metadata]", f"Name={_line_value(deck.name) or fallback_name}"]
    if deck.comments.strip():
        lines.append(f"Comment={_line_value(deck.comments)}")
    tags = [_line_value(tag.replace(",", " ")) for tag in deck.tags]
    if any(tags):
        lines.append("Tags=" + ",".join(tag for tag in tags if tag))
    return lines


def write_forge_dck(deck: ExportDeck) -> str:
    """A Forge deck (``.dck``): ``[Main]``, ``[Sideboard]``, ``[Commander]`` and the variant sections
    (``[Planes]``, ``[Schemes]``, ...) of ``N Name|SET`` lines.

    A companion goes to the sideboard: Forge takes a deck's companion from there, and a second
    ``[Commander]`` card would make it a partner commander.
    """
    lines = _metadata(deck)
    lines.append("[Main]")
    lines.extend(_section_lines(deck.main))
    variants = [(VARIANT_SECTIONS[name], entries) for name, entries in deck.variant_sections.items()]
    for header, entries in (
        ("Sideboard", deck.sections.get("side", []) + deck.sections.get("companion", [])),
        ("Commander", deck.sections.get("commander", [])),
        *variants,
    ):
        section = _section_lines(entries)
        if section:
            lines.append(f"[{header}]")
            lines.extend(section)
    return "\n".join(lines) + "\n"


MAX_STEM_BYTES = 240
"""A file name stem's most UTF-8 bytes: file systems hold names of 255 bytes, and a suffix (``.dck``,
``.arena.txt``, ``-forge-custom``) comes after the stem."""


_UNSAFE_IN_FILE_NAMES = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]')
_DOTS_AND_SPACES_AT_ENDS = re.compile(r"^[\s.]+|[\s.]+$")


def safe_file_stem(name: str, fallback: str = "unnamed") -> str:
    """The one rule for a file name stem made from a name: safe on every OS (Windows' device names too:
    :func:`~.forge_scripts.windows_safe`), never climbing out of its folder, never hidden (no leading dot:
    ``../../evil`` is ``evil``), and fitting a file name with its suffix: at most :data:`MAX_STEM_BYTES`
    UTF-8 bytes, cut between characters. :func:`forge_deck_file_stem` keeps Forge's own name only where
    this rule would keep it too."""
    stem = _DOTS_AND_SPACES_AT_ENDS.sub("", _UNSAFE_IN_FILE_NAMES.sub("", name))
    stem = stem.encode("utf-8")[:MAX_STEM_BYTES].decode("utf-8", errors="ignore")
    return windows_safe(stem) or fallback


_FORGE_DROPS_FROM_FILE_NAMES = re.compile(r'[/:*?"<>|]')
"""What Forge leaves out of a deck's file name (``DeckBase.getBestFileName``); a backslash it keeps."""


def forge_deck_file_stem(name: str) -> str:
    """The file name, without ``.dck``, Forge itself gives a deck named ``name``, or ``""`` when that file
    name is none to write.

    Forge keys a Constructed deck by its file: it reads ``Name=`` trimmed, with each ``/`` made ``_`` (the
    ``DeckBase`` constructor), and expects the file ``getBestFileName() + ".dck"``: that name less
    ``/:*?"<>|``; a ``.dck`` named otherwise is moved out of the decks folder at its next start
    (``DeckStorage.adjustFileLocation``). So ``../../evil`` is ``.._.._evil`` (one file name, in the output
    folder) and ``Deck v1.2.`` keeps its dot (``Deck v1.2..dck``). ``""`` where :func:`safe_file_stem`, the
    one rule for file names, would not keep Forge's file name (its dots at the end aside, followed by
    ``.dck``): empty or only dots, starting with a dot (``../../evil``: Forge's ``.._.._evil.dck`` is a
    hidden file on Unix, out of sight in a file browser), a backslash (a folder on Windows), a Windows
    device name (``CON.dck``), too long (:data:`MAX_STEM_BYTES`). The caller then names the file with
    :func:`safe_file_stem` and the deck after its file."""
    return "" if forge_deck_file_refusal(name) else _forge_file_stem(name)


def _forge_file_stem(name: str) -> str:
    """The file name, without ``.dck``, Forge gives a deck named ``name`` (``DeckBase.getBestFileName``)."""
    return _FORGE_DROPS_FROM_FILE_NAMES.sub("", _line_value(name).replace("/", "_"))


def forge_deck_file_refusal(name: str) -> str:
    """Why the export writes no file under the name Forge gives a deck named ``name``, in a few words
    (``""`` when it does: :func:`forge_deck_file_stem`)."""
    stem = _forge_file_stem(name)
    if not stem.strip(". "):
        return "it leaves no file name"
    if safe_file_stem(stem, "") == stem.rstrip(". "):
        return ""
    if stem.startswith("."):
        return f"Forge's file for it, {stem + '.dck'!r}, would be hidden"
    if "\\" in stem:
        return "a backslash is a folder on Windows"
    if len(stem.encode("utf-8")) > MAX_STEM_BYTES:
        return "it is too long for a file name"
    return "Windows keeps its file name for a device"


class DraftTooBig(ValueError):
    """The draft asked for (or the smallest one) needs more cards than the cube holds: ``players`` x ``packs``
    x ``size`` cards of a cube of ``cube``."""

    def __init__(self, players: int, packs: int, size: int, cube: int) -> None:
        super().__init__(
            f"a draft of {players} players x {packs} pack{'s' if packs != 1 else ''} of {size} cards needs"
            f" {players * packs * size} cards; the cube has {cube}"
        )
        self.players, self.packs, self.size, self.cube = players, packs, size, cube

    def remedy(self) -> str:
        """What would make a draft of the cube, in the command line's options: only changes that can be made
        (no fewer than 2 players or 1 pack), the largest pack size that fits named."""
        fits = self.cube // (self.players * self.packs) if self.players and self.packs else 0
        ways = [f"--pack-size {fits}"] if 0 < fits < self.size else []
        ways += ["fewer --players"] if self.players > 2 else []
        ways += ["fewer --packs"] if self.packs > 1 else []
        if not ways:
            return "give the cube more cards"
        tried = ways[0] if len(ways) == 1 else f"{', '.join(ways[:-1])} or {ways[-1]}"
        return f"try {tried}, or give the cube more cards"


def draft_size(
    cube_size: int, players: int | None = None, packs: int | None = None, pack_size: int | None = None
) -> tuple[int, int, int]:
    """``(players, packs, pack_size)`` whose draft fits a cube of ``cube_size`` cards.

    Forge deals every pack from the cube and throws "cardpool has been depleted" when it runs out,
    so what is not given is chosen to fit: 3 packs of 15 for up to 8 players, fewer players (at
    least 2), then smaller packs (at least 5 cards), then fewer packs.

    Raises:
        DraftTooBig: the numbers given (or the cube) cannot make a draft.
    """
    given_packs = packs
    packs = packs or 3
    size = pack_size or 15
    if players is None:
        players = max(2, min(8, cube_size // (packs * size)))
    if pack_size is None and players * packs * size > cube_size:
        size = max(5, cube_size // (players * packs))
    if given_packs is None and players * packs * size > cube_size:
        packs = max(1, cube_size // (players * size))
    need = players * packs * size
    if min(players, packs, size) < 1 or need > cube_size:
        raise DraftTooBig(players, packs, size, cube_size)
    return players, packs, size


USUAL_DRAFT = (8, 3, 15)
"""Forge's usual draft: 8 players, 3 packs, 15 cards a pack."""


def draft_note(
    deck: ExportDeck, players: int | None = None, packs: int | None = None, pack_size: int | None = None
) -> str:
    """What :func:`write_forge_cube` made smaller than Forge's usual draft (:data:`USUAL_DRAFT`) to fit the
    cube, of what was not given (``players``, ``packs``, ``pack_size``), as one line; ``""`` when nothing.
    Said because the ``.draft`` shows it only as numbers (``Booster: 5 Any``, ``NumPacks: 1``)."""
    cube = sum(entry.count for entry in deck.main)
    try:
        chosen = draft_size(cube, players, packs, pack_size)
    except DraftTooBig:
        return ""  # refused: the error says it
    given = (players, packs, pack_size)
    if all(g is not None or c >= usual for g, c, usual in zip(given, chosen, USUAL_DRAFT, strict=True)):
        return ""
    n_players, n_packs, size = chosen
    return (
        f"the cube's {cube} cards make a draft of {n_players} players x {n_packs}"
        f" pack{'s' if n_packs != 1 else ''} of {size} cards, smaller than Forge's usual"
        f" {' x '.join(map(str, USUAL_DRAFT))} (every pack is dealt from the cube);"
        " --players, --packs and --pack-size choose"
    )


def write_forge_cube(
    deck: ExportDeck,
    *,
    num_players: int | None = None,
    num_packs: int | None = None,
    booster_size: int | None = None,
) -> dict[str, bytes]:
    """A Forge cube: ``cube/<Name>.dck`` plus ``draft/<Name>.draft`` whose ``DeckFile`` matches.

    Copy both folders into Forge's ``res`` folder. ``Singleton`` is set when no card appears
    twice. Every copy gets its own line, as in Forge's bundled cubes. The draft is sized to the
    cube (:func:`draft_size`). The cube's name is written as Forge keys it, each ``/`` a ``_`` (the
    ``DeckBase`` constructor): a ``DeckFile:`` still holding the ``/`` would match no cube, and Forge would
    draft its whole card pool.
    """
    num_players, num_packs, booster_size = draft_size(
        sum(entry.count for entry in deck.main), num_players, num_packs, booster_size
    )
    name = _line_value(deck.name).replace("/", "_") or "Custom Cube"
    stem = safe_file_stem(name, "cube")
    lines = _metadata(deck, name)
    lines[1] = f"Name={name}"  # as Forge keys it, and the draft names it
    lines.append("[Main]")
    lines.extend(_section_lines(deck.main, one_per_line=True))
    counts: dict[str, int] = {}
    for entry in deck.main:
        counts[entry.card.name] = counts.get(entry.card.name, 0) + entry.count
    singleton = all(c <= 1 for c in counts.values())
    draft = [f"Name:{name}", f"DeckFile:{name}"]
    if singleton:
        draft.append("Singleton:True")
    draft += ["", f"Booster: {booster_size} Any", f"NumPacks: {num_packs}", f"NumPlayers: {num_players}"]
    return {
        f"cube/{stem}.dck": ("\n".join(lines) + "\n").encode("utf-8"),
        f"draft/{stem}.draft": ("\n".join(draft) + "\n").encode("utf-8"),
    }


__all__ = [
    "USUAL_DRAFT",
    "DraftTooBig",
    "draft_note",
    "draft_size",
    "forge_deck_file_refusal",
    "forge_deck_file_stem",
    "forge_misread_names",
    "safe_file_stem",
    "write_forge_cube",
    "write_forge_dck",
]
