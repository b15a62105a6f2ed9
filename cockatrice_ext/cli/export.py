"""``cockatrice-ext export BLOCK --to FORMAT -o PATH``: a block list to a deck or card file.

BLOCK is a file (block list, any deck format the deck readers know, a CubeCobra export, or a
Cockatrice card XML whose cards are exported as they are), the name of a bundled block
(``auction-sample``), or ``-`` for standard input. ``--from FORMAT`` names the input's format;
by default it is detected (:func:`cockatrice_ext.decks.readers.detect_format`), and a sideboard
made only by a blank line is announced.
Names are resolved against ``--card-source`` (default: the embedded cards plus the bundled
custom sets) and a custom set ``BLOCK.xml`` beside a list file, as ``block check`` resolves them
(:func:`resolve_list`). A target with no sideboard (a cube, a card file) never takes the cards after a
blank line for one. Every unknown name is reported at once, with its line and suggestions, and
nothing is written (exit code 2). Output is rendered fully before an atomic write.

The import path stays light: no network client, no lxml unless the input is XML.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cockatrice_ext.cli.cards import CardSources, card_source_option, say_on_stderr
from cockatrice_ext.decks.readers import FORMAT_ALIASES, FORMATS
from cockatrice_ext.decks.resolve_list import STDIN_LABEL, STDIN_NAME
from cockatrice_ext.exporters import (
    EXPORT_FORMATS,
    cards_written,
    kept_edit_warning,
    kept_edits,
    left_out,
    moved_to_side,
    section_counts,
)
from cockatrice_ext.exporters.forge import draft_note

if TYPE_CHECKING:
    from cockatrice_ext.cards.model import Card, CardDatabase, CardSet
    from cockatrice_ext.cards.resolve import ResolvedDeck
    from cockatrice_ext.decks.model import Deck
    from cockatrice_ext.exporters import ExportDeck

LOGGER = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])

# What to do with the output, shown after writing (stderr).
NEXT_STEPS = {
    "cockatrice-xml": "Cockatrice: Card Database > Add custom sets/cards, pick the file, enable its set(s) "
    "when asked. A card whose name already exists in Cockatrice only gains a printing.",
    "forge-cube": "Forge: copy cube/ and draft/ into Forge's res folder (the draft names the cube).",
    "forge-custom": "Forge: copy {folders} into <Forge user dir>/custom/, restart Forge.",
    "mtgo": "MTGO matches cards by name (no CatIDs); Cockatrice cannot read .dek files, use cod or text.",
}

EXIT_BAD_INPUT = 2
"""Unknown cards, an unreadable or empty block, options that cannot work: the same for every command."""
EXIT_CANNOT_WRITE = 1
"""The input was fine but the output could not be written."""
_BLOCK_SUFFIXES = (".txt", ".xml")


def _next_step(
    fmt: str,
    target: Path,
    written: list[Path],
    not_written: Collection[str] = (),
    lone_tokens: Collection[str] = (),
) -> str:
    """What to do with the output; for a Forge custom folder, the folders written, or, when no custom card
    was written (nothing is: :func:`~cockatrice_ext.exporters.forge_edition.forge_custom_cards`), that
    there is nothing for Forge's custom folder and why: Forge has every real card, the custom ones were
    ``not_written`` (:func:`forge_unwritable_cards`), and the block's tokens Forge does not have
    (``lone_tokens``) are scripted only with a custom card that makes them."""
    if fmt != "forge-custom":
        return NEXT_STEPS[fmt]
    parts = [Path(file).relative_to(target).parts for file in written]
    folders = sorted({part[0] for part in parts if len(part) > 1})  # a file at the top is not copied
    if "cards" not in folders:
        real = "Forge has every real card of the block (a Forge deck or cube of it needs no custom folder)"
        if lone_tokens:
            shown = ", ".join(list(lone_tokens)[:10]) + (
                f" and {len(lone_tokens) - 10} more" if len(lone_tokens) > 10 else ""
            )
            real += (
                f"; its tokens Forge does not have ({shown}) are written only with a custom card that makes"
                " them (a Forge card script names the tokens it makes), and none is written"
            )
        if not not_written:
            return f"Nothing for Forge's custom folder: {real}."
        return (
            f"Nothing for Forge's custom folder: no custom card was written ({'; '.join(not_written)}: the"
            f" warnings say why; give each a name of its own); {real}."
        )
    return NEXT_STEPS[fmt].format(folders=", ".join(f"{folder}/" for folder in folders))


def _blocks_folder() -> Path:
    import cockatrice_ext.blocks as blocks

    return Path(blocks.__file__).resolve().parent


def bundled_blocks() -> dict[str, Path]:
    """Bundled block names -> files (``auction-sample``); a block list wins over a same-named XML."""
    found: dict[str, Path] = {}
    for suffix in _BLOCK_SUFFIXES:
        for path in sorted(_blocks_folder().glob(f"*{suffix}")):
            if path.is_file():
                found.setdefault(path.stem, path)
    return found


def find_block(block: str) -> Path:
    """The file ``block`` names: an existing path first, else a bundled block (``auction-sample``,
    ``auction-custom.xml``)."""
    path = Path(block).expanduser()
    if path.is_file():
        return path
    if path.is_dir():
        raise click.BadParameter(f"{block} is a folder: give the list or deck file in it", param_hint="BLOCK")
    if path.exists():
        raise click.BadParameter(
            f"{block} is not a regular file (a device, pipe or socket): give a list file, or - to read"
            " standard input",
            param_hint="BLOCK",
        )
    if not path.parent.parts:
        bundled = bundled_blocks()
        if block in bundled:
            return bundled[block]
        exact = _blocks_folder() / block
        if block.endswith(_BLOCK_SUFFIXES) and exact.is_file():
            return exact
    if path.is_symlink():  # exists() follows the link: a link to nothing is no "no such file"
        raise click.BadParameter(_broken_link(path, block), param_hint="BLOCK")
    known = ", ".join(sorted(bundled_blocks())) or "none"
    like = _names_like(path, list(bundled_blocks()) if not path.parent.parts else [])
    meant = f"did you mean {' or '.join(like)}? " if like else ""
    raise click.BadParameter(
        f"no such file, and no bundled block named {block!r} ({meant}bundled: {known})", param_hint="BLOCK"
    )


def _broken_link(path: Path, block: str) -> str:
    """What to say of ``block``, a symbolic link whose target does not exist (or a loop of links): where
    it points, as written in the link and, when that is relative or leads on through other links, the
    path it comes to."""
    import os

    try:
        target = os.readlink(path)
    except OSError:
        return f"{block} is a broken link"
    try:
        final = str(path.resolve())
    except (OSError, RuntimeError):  # a loop of links
        return f"{block} is a broken link: it points to {target!r}, a loop of links"
    ends = f" ({final})" if final != target else ""
    return f"{block} is a broken link: it points to {target!r}{ends}, which does not exist"


def _names_like(path: Path, bundled: list[str]) -> list[str]:
    """Files beside where ``path`` points, and ``bundled`` block names, spelled like it (``myblok`` ->
    ``myblock.txt``: a typo, or the suffix left out), as the user would type them; three at most."""
    import difflib
    import itertools

    try:
        files = [entry for entry in itertools.islice(path.parent.iterdir(), 5000) if entry.is_file()]
    except OSError:
        files = []
    # a list (.txt) before the files made of it (myblock.cod) when both are spelled alike
    names = sorted((entry.name for entry in files), key=lambda name: (not name.endswith(".txt"), name))
    typed = path.name.casefold()
    by_key: dict[str, str] = {}
    for name in [*names, *bundled]:
        by_key.setdefault(name.casefold(), name)
        by_key.setdefault(Path(name).stem.casefold(), name)
    close = difflib.get_close_matches(typed, list(by_key), n=6, cutoff=0.8)
    found = list(dict.fromkeys(by_key[key] for key in close))[:3]
    return [name if name in bundled else str(path.parent / name) for name in found]


STDIN = "-"
"""The input path that means standard input (``export - --to cod -o deck.cod``)."""
FROM_CHOICES = ("auto", *FORMATS, *sorted(FORMAT_ALIASES))


def from_option(func: F) -> F:
    """Add ``--from FORMAT`` (the reader of the input list; ``auto`` detects it) to a command."""
    return click.option(  # type: ignore[return-value]
        "--from",
        "from_format",
        type=click.Choice(FROM_CHOICES, case_sensitive=False),
        default="auto",
        show_default=True,
        help="Format of the input list: blocklist (also Moxfield, Archidekt, Forge 'Name|SET' lines), "
        "arena (mtga), mtggoldfish (mtgo: a blank line before the sideboard), text (Cockatrice's rules), "
        "cubecobra (its card-name list), cubecobra-csv, cod, dek, forge, xmage; auto detects it and "
        "reads plain text as a block list unless it is clearly a deck.",
    )(func)


def load_input(
    block: str, from_format: str = "auto", *, sideboard: bool = True
) -> tuple[Deck | CardDatabase, str]:
    """Read the list ``block`` names (a file, a bundled block, ``-`` for standard input) with
    :func:`read_list` (``sideboard``: see there); returns it and the name messages give the input.

    Raises :class:`DeckFormatError` (unreadable list, input over the size cap), :class:`CardDataError`
    (a bad card database) or :class:`OSError`.
    """
    from cockatrice_ext.decks.blocklist import MAX_TEXT_BYTES
    from cockatrice_ext.decks.errors import DeckFormatError
    from cockatrice_ext.decks.resolve_list import read_list_file

    if block != STDIN:
        path = find_block(block)
        return read_list_file(path, from_format, sideboard=sideboard, say=say_on_stderr), str(path)
    data = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise DeckFormatError(f"input larger than {MAX_TEXT_BYTES} bytes", source=STDIN_LABEL)
    return read_list(data, STDIN_LABEL, from_format, sideboard=sideboard), STDIN_LABEL


def read_list(
    data: bytes, source: str, from_format: str = "auto", *, sideboard: bool = True
) -> Deck | CardDatabase:
    """The block list or deck in ``data`` as :func:`cockatrice_ext.decks.resolve_list.read_list` reads it,
    its notes said on stderr."""
    from cockatrice_ext.decks import resolve_list as lists

    return lists.read_list(data, source, from_format, sideboard=sideboard, say=say_on_stderr)


def resolve_list(
    deck: Deck, card_source: CardSources | None, source: str, *, beside: Path | None = None
) -> tuple[ResolvedDeck, CardDatabase]:
    """Resolve ``deck`` as ``export``, ``block check`` and the bot all do
    (:func:`cockatrice_ext.decks.resolve_list.resolve_list`: ``card_source``, the custom set beside the list
    file ``beside``, every pinned printing); what it says goes to stderr, card data that does not load is a
    :class:`~cockatrice_ext.cli.cards.CardDataProblem`. Returns the resolved deck and its card data."""
    from cockatrice_ext.cards.errors import CardDataError
    from cockatrice_ext.cli.cards import CardDataProblem, check_card_sources, progress_bar
    from cockatrice_ext.decks import resolve_list as lists
    from cockatrice_ext.exporters.model import cockatrice_token_name

    check_card_sources(card_source)
    try:
        return lists.resolve_list(
            deck,
            card_source,
            source,
            beside=beside,
            say=say_on_stderr,
            token_spelling=cockatrice_token_name,  # how a .cod we write spells it
            progress_bar=progress_bar,
        )
    except CardDataError as exc:
        raise CardDataProblem(str(exc)) from exc


def _resolve(deck: Deck, card_source: CardSources | None, source: str, beside: Path | None) -> ExportDeck:
    """:func:`resolve_list`, as the writers take it."""
    from cockatrice_ext.exporters import from_resolved

    resolved, db = resolve_list(deck, card_source, source, beside=beside)
    return from_resolved(resolved, db)


def build(
    loaded: Deck | CardDatabase,
    source: str,
    card_source: CardSources | None,
    beside: Path | None = None,
    fmt: str = "",
) -> ExportDeck:
    """Resolve what :func:`read_list` read into an :class:`ExportDeck` (raises the resolver's errors);
    ``beside``: the list file, whose custom set beside it is read too; ``fmt``: the format it is exported
    to, whose warnings about cards named like real ones say what that output does (:func:`_namesake_effect`).

    Card tags (CubeCobra's) have no place in any output format: they are announced as left out, once the
    list resolved (an error is the only thing said about a list that does not).
    """
    from cockatrice_ext.cards.model import CardDatabase
    from cockatrice_ext.exporters import deck_from_cards

    if isinstance(loaded, CardDatabase):
        stem = STDIN_NAME if source == STDIN_LABEL else Path(source).stem
        name = next(iter(loaded.sets.values())).name if len(loaded.sets) == 1 else stem
        cards = deck_from_cards(name or stem, loaded.cards.values(), loaded.sets)
        _warn_real_namesakes(cards, fmt)
        return cards
    resolved = _resolve(loaded, card_source, source, beside)  # first: a list that fails is not warned about
    _warn_real_namesakes(resolved, fmt)
    tagged = [entry for _, entry in loaded.entries() if entry.tags]
    if tagged:
        tags = sorted({tag for entry in tagged for tag in entry.tags})
        shown = ", ".join(tags[:8]) + (f" and {len(tags) - 8} more" if len(tags) > 8 else "")
        cards = f"{len(tagged)} card" + ("s" if len(tagged) != 1 else "")
        click.echo(
            f"warning: card tags ({shown}; on {cards}) not written: no output format holds a card's own tags",
            err=True,
        )
    return resolved


def _real_namesakes(deck: ExportDeck) -> list[Card]:
    """A designer's cards (printed in no real set only) named like a real card whose rules differ."""
    from cockatrice_ext.exporters.model import official_set_codes, real_namesake

    official = official_set_codes()
    return [
        card
        for card in deck.unique_cards()
        if not (card.printings and {p.set_code for p in card.printings} <= official)
        and real_namesake(card) is not None
    ]


def _namesake_effect(fmt: str, name: str) -> str:
    """What ``fmt``'s output does with a designer's card named like the real ``name``: a custom folder
    leaves it out (a script would replace the real card: :func:`forge_unwritable_cards`), a deck or cube
    names it, so it plays the real card; a card file says nothing more than Cockatrice's part."""
    if fmt == "forge-custom":
        return (
            "; in Forge yours would replace the real one in every deck, so forge-custom does not write it (no"
            " script, no edition line)"
        )
    if not fmt or EXPORT_FORMATS[fmt].is_card_file:
        return ""
    deck = "cube" if fmt == "forge-cube" else "deck"
    return f"; this {fmt} export names it, so the {deck} will play the real {name} (the real one's rules)"


def _warn_real_namesakes(deck: ExportDeck, fmt: str = "") -> None:
    """Name each of :func:`_real_namesakes`: Cockatrice keeps the first card of a name it loads, so it
    would show the real one; and what the ``fmt`` output does with it (:func:`_namesake_effect`)."""
    for card in _real_namesakes(deck):
        kind = "token" if card.is_token else "card"
        click.echo(
            f"warning: your {kind} {card.name!r} has the name of a real {kind} with other rules:"
            f" Cockatrice would show the real one (it keeps the first {kind} of a name)"
            + ("" if card.is_token else _namesake_effect(fmt, card.name))
            + "; give yours a name of its own",
            err=True,
        )


KEYWORDS_ONLY_LISTED = 5
"""Up to this many keywords-only cards get a warning each; more share one line."""


def _warn_keywords_only(deck: ExportDeck) -> list[str]:
    """Say which Forge scripts hold only their card's keywords (no A:, T:, SVar: lines): Forge would load
    them as cards that do nothing else. Returns their names."""
    from cockatrice_ext.exporters.forge_edition import keywords_only_cards

    names = keywords_only_cards(deck)
    by_hand = "script {} other rules text by hand (A:, T:, SVar: lines)"
    if len(names) > KEYWORDS_ONLY_LISTED:
        click.echo(
            f"warning: {len(names)} cards have only their keywords scripted: {'; '.join(names)};"
            f" {by_hand.format('their')}",
            err=True,
        )
    else:
        for name in names:
            click.echo(f"warning: {name}: only its keywords are scripted; {by_hand.format('its')}", err=True)
    return names


UNKNOWN_TO = {"mtgo": "MTGO", "arena": "MTG Arena"}
"""Formats read by programs that know only real cards, by the program's name."""


def _custom_names(deck: ExportDeck, target: str) -> list[str]:
    """The deck's (main and side) cards that are not real (custom cards), as ``target`` spells them. A
    designer's namesake of a real card is not one of them: a program has a card of that name and plays it,
    as :func:`_warn_real_namesakes` has said."""
    from cockatrice_ext.exporters.model import display_name, is_real_card

    namesakes = {card.name for card in _real_namesakes(deck)}
    entries = [entry for entry in deck.main + deck.side if entry.count > 0]
    return list(
        dict.fromkeys(
            display_name(e.card, target)
            for e in entries
            if not is_real_card(e.card) and e.card.name not in namesakes
        )
    )


def _some(names: list[str]) -> str:
    """``A, B and 3 more``: ten names at most, a count for the rest."""
    return ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")


def _warn_unknown_to(deck: ExportDeck, fmt: str) -> None:
    """Name the deck's custom cards (:func:`_custom_names`): MTGO and Arena match cards by name among their
    own and do not have these."""
    custom = _custom_names(deck, "mtgo" if fmt == "mtgo" else "arena")
    if custom:
        cards = "card is" if len(custom) == 1 else f"{len(custom)} cards are"
        click.echo(
            f"warning: {UNKNOWN_TO[fmt]} does not have {_some(custom)}: the {cards} not in the real card data"
            " (custom), so it cannot load them",
            err=True,
        )


_COCKATRICE_NEEDS = (
    "Cockatrice loads {them} only with your custom set: add its card file (export --to cockatrice-xml makes"
    " one) with Card Database > Add custom sets/cards"
)
_FORGE_NEEDS = (
    "Forge plays {them} only with {scripts}: export the list --to forge-custom too and copy that into"
    " Forge's custom folder (without it Forge shows {them} as unsupported cards)"
)
CUSTOM_CARDS_NEED = {
    "cod": _COCKATRICE_NEEDS,
    "text": _COCKATRICE_NEEDS,
    "forge": _FORGE_NEEDS,
    "forge-cube": _FORGE_NEEDS,
}
"""What a deck or cube of ``fmt`` holding custom cards needs besides itself (:func:`_note_custom`)."""


def _note_custom(deck: ExportDeck, fmt: str) -> None:
    """Say which of the deck's cards are the designer's own (:func:`_custom_names`) and what the program
    reading a ``fmt`` deck needs to load them (:data:`CUSTOM_CARDS_NEED`): the deck names them, and
    without the designer's card file or scripts they are unknown there."""
    need = CUSTOM_CARDS_NEED.get(fmt)
    custom = _custom_names(deck, "forge" if fmt.startswith("forge") else "cockatrice") if need else []
    if need and custom:
        them = "it" if len(custom) == 1 else "them"
        own = "is your own card" if len(custom) == 1 else f"are your own cards ({len(custom)})"
        scripts = "its card script" if len(custom) == 1 else "their card scripts"
        click.echo(f"note: {_some(custom)} {own}: {need.format(them=them, scripts=scripts)}", err=True)


ARENA_REVERTED = "September 2026"
"""When MTG Arena reverted its rebalanced (Alchemy ``A-``) cards to their originals (Forge issue #11875):
an Arena import may no longer know an ``A-`` name."""


def _warn_alchemy(deck: ExportDeck, fmt: str = "mtgo") -> None:
    """Name each Alchemy card of an MTGO or Arena deck: rebalanced for MTG Arena only, MTGO does not have
    it, and Arena reverted its rebalanced cards to their originals (:data:`ARENA_REVERTED`), so its import
    may not know it either. It is written as the list names it (the deck is the player's; nothing is
    dropped or swapped for another card's rules unsaid), and the warning names the card it rebalances,
    which a player writes instead."""
    from cockatrice_ext.exporters.mtgo import alchemy_cards

    for written, original in alchemy_cards(deck):
        if fmt == "arena":
            click.echo(
                f"warning: {written} is an Alchemy card (rebalanced for MTG Arena), written as the list names"
                f" it; Arena reverted its rebalanced cards to their originals in {ARENA_REVERTED}, so its"
                f" import may not know it: if Arena refuses it, list the card it rebalances, {original}",
                err=True,
            )
            continue
        click.echo(
            f"warning: MTGO does not have {written}: an Alchemy card (rebalanced for MTG Arena only), written"
            f" as the list names it, which MTGO will not load; for MTGO, list the card it rebalances,"
            f" {original}",
            err=True,
        )


def _refused_scripts(deck: ExportDeck) -> dict[str, str]:
    """``cards/<file>`` -> what Forge does with a script of that name: the scripts of the cards forge-custom
    does not write (:func:`forge_unwritable_cards`), which an earlier export may have left in the folder."""
    from cockatrice_ext.exporters.forge_edition import forge_real_namesake, forge_unwritable_cards
    from cockatrice_ext.exporters.forge_scripts import script_file_name
    from cockatrice_ext.exporters.model import display_name

    skipped = forge_unwritable_cards(deck)
    out: dict[str, str] = {}
    for card in deck.unique_cards():
        name = display_name(card, "forge")
        if card.is_token or name not in skipped:
            continue
        real = forge_real_namesake(card)
        does = (
            f"Forge loads in place of the real {real}, in every deck"
            if real is not None
            else f"Forge misreads ({skipped[name]})"
        )
        out.setdefault(f"cards/{script_file_name(name)}", f"it is a script of {name!r}, which {does}")
    return out


def _warn_left_over(target: Path, written: list[Path], refused: Mapping[str, str] | None = None) -> None:
    """Name the files in the custom folder's ``cards/``, ``tokens/`` and ``editions/`` that this export did
    not write (a card no longer in the block, an earlier edition): Forge loads them all. They are the
    user's to delete (a file edited since the last export is kept, not stale: :func:`export` names it). A
    script of a card forge-custom does not write (``refused``: :func:`_refused_scripts`, relative path ->
    what Forge does with it) is named alone, with what it does: it is no card gone from the block."""
    kept = set(written)
    refused = refused or {}
    stale = [
        file.relative_to(target).as_posix()
        for folder in ("cards", "tokens", "editions")
        for file in sorted((target / folder).glob("*.txt"))
        if file not in kept
    ]
    for file in stale:
        if file in refused:
            click.echo(
                f"warning: {target / file} was not written by this export: {refused[file]}"
                " (forge-custom no longer writes it); delete it",
                err=True,
            )
    stale = [file for file in stale if file not in refused]
    if len(stale) > KEYWORDS_ONLY_LISTED:
        click.echo(
            f"warning: {len(stale)} files in {target} were not written by this export: {', '.join(stale)};"
            " Forge loads them too: delete the ones no longer in the block",
            err=True,
        )
        return
    for file in stale:
        click.echo(
            f"warning: {target / file} was not written by this export: Forge loads it too; delete it if its"
            " card is no longer in the block",
            err=True,
        )


CARD_FILE_SUFFIX = ".cards.xml"
"""The default output of ``--to cockatrice-xml``: ``myblock.cards.xml``, never the ``myblock.xml`` that
export and block check read beside ``myblock.txt`` as its custom set (the list's own card file, read back
as the designer's set, would stand in for the card data at every later export)."""


def default_output(path: Path | None, fmt: str, name: str | None = None, folder: Path | None = None) -> Path:
    """``auction-sample.cod`` for a file format, ``auction-sample-forge-cube/`` for a folder of files: after
    ``name`` (``--name``) when given, so that a Forge deck's file is its name, else the input ``path``.

    Never the input file itself: ``my-list.txt --to text`` gives ``my-list.text.txt``. A card file is
    ``my-list.cards.xml`` (:data:`CARD_FILE_SUFFIX`), never ``my-list.xml``: that name is the designer's
    custom set, read with the list (:func:`~cockatrice_ext.decks.resolve_list.custom_set_beside`). A Forge
    deck's file is the one Forge itself gives a deck of that name
    (:func:`~cockatrice_ext.exporters.forge.forge_deck_file_stem`: ``Blue/White`` is ``Blue_White.dck``),
    where Forge can name it so; always one file name in the output's folder: ``folder`` (an ``-o`` that is
    a folder), else the current one.
    """
    from cockatrice_ext.exporters.forge import forge_deck_file_stem, safe_file_stem

    stem = ""
    if name and fmt == "forge":
        stem = forge_deck_file_stem(name)
    if name and not stem:
        stem = safe_file_stem(name, "")
    if not stem:
        if path is None:
            raise ValueError("no input file and no name to name the output after")
        stem = safe_file_stem(path.stem, "list")  # never hidden: '.block.txt' gives 'block.cod'
    export_format = EXPORT_FORMATS[fmt]
    here = folder or Path()
    if export_format.is_bundle:
        return here / f"{stem}-{fmt}"
    out = here / (stem + (CARD_FILE_SUFFIX if fmt == "cockatrice-xml" else export_format.suffix))
    if path is not None and out.resolve() == path.resolve():
        out = here / f"{stem}.{fmt}{export_format.suffix}"
    return out


def _output_folder(output_text: str | None, fmt: str) -> Path | None:
    """The folder an ``-o`` names for a one-file format, which then gets the file named as without ``-o``
    (``cp x dir/``), or None: a path ending in ``/`` (made when missing, as a file's folder is), or a folder
    that exists, unless it is named as the file would be (``folder.cod``: a folder where the file goes,
    refused as such)."""
    if output_text is None or output_text == "-" or EXPORT_FORMATS[fmt].is_bundle:
        return None
    output = Path(output_text)
    if output_text.endswith(("/", os.sep)):
        if os.path.exists(output) and not _is_folder(output):
            raise click.BadParameter(f"{output_text} names a folder, but {output} is a file", param_hint="-o")
        return output
    named_as_file = output.name.lower().endswith(EXPORT_FORMATS[fmt].suffix.lower())
    return output if not named_as_file and _is_folder(output) else None


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder (through links); a path that cannot be one (a name too long) is not."""
    try:
        return path.is_dir()
    except OSError:
        return False


def _is_custom_set_name(target: Path, path: Path) -> bool:
    """Whether ``target`` is where the custom set beside the list ``path`` is read from (``myblock.xml``
    beside ``myblock.txt``)."""
    try:
        return path.suffix.lower() != ".xml" and target.resolve() == path.with_suffix(".xml").resolve()
    except (OSError, ValueError):
        return False


def _check_target(
    target: Path, path: Path | None, fmt: str, named_by: str, card_source: CardSources | None = None
) -> None:
    """Refuse (``click.BadParameter`` naming ``named_by``, what named it) an output ``target`` that is a file
    the export reads (the input file ``path``, a ``card_source`` file or a file in a card-source folder, the
    custom set beside the list) or that cannot be written safely (a folder for a one-file format, a dangling
    link): a designer's own card file was replaced by the export of a one-card list."""
    from cockatrice_ext.fsutil import UnsafeOutput, writable_folder, writable_target

    if path is not None and target.resolve() == path.resolve():
        raise click.BadParameter(f"refusing to overwrite the input file {path}", param_hint="-o")
    if read := _read_by_the_export(target, path, card_source):
        instead = f" (without -o it is {default_output(path, fmt).name})" if path is not None else ""
        raise click.BadParameter(
            f"refusing to overwrite {read}, which this export reads: write elsewhere{instead}",
            param_hint=named_by,
        )
    bundle = EXPORT_FORMATS[fmt].is_bundle
    try:
        (writable_folder if bundle else writable_target)(target)
    except UnsafeOutput as exc:
        writes = "a folder of files" if bundle else "one file"
        raise click.BadParameter(f"{exc} ({fmt} writes {writes})", param_hint=named_by) from None


CUSTOM_SETS = "customsets"
"""The folder of Cockatrice's data folder whose every ``*.xml`` (below it too) Cockatrice loads as custom
sets at each start or reload (``paths/customSets``; Cockatrice makes it at start when missing)."""
CUSTOM_SETS_STEP = (
    "Cockatrice: the file is in its custom sets folder ({folder}): Card Database > Reload card database (or"
    " restart Cockatrice), then enable its set(s) when asked; do not add it again with Add custom sets/cards,"
    " which copies it in a second time. A card whose name already exists in Cockatrice only gains a printing."
)
COCKATRICE_DATA_FOLDERS = (
    "Linux ~/.local/share/Cockatrice/Cockatrice, Windows %LOCALAPPDATA%\\Cockatrice\\Cockatrice, macOS"
    " ~/Library/Application Support/Cockatrice/Cockatrice"
)
"""Where Cockatrice keeps its data folder, which holds ``customsets``, on each system."""


def _custom_sets_target(target: Path, named_by: str) -> tuple[Path, bool] | None:
    """For a card file written into a Cockatrice ``customsets`` folder (:data:`CUSTOM_SETS`; the nearest
    folder of that name above ``target``), that folder and whether the export makes it; None for a file
    written elsewhere. A missing ``customsets`` is made, as Cockatrice makes it, when the data folder it
    belongs in is there; when that is missing too the path is mistyped or Cockatrice never started there,
    and a tree of folders Cockatrice never reads is not made: refused (``click.BadParameter`` naming
    ``named_by``), saying what to do."""
    try:
        place = target.absolute()
        folder = next((p for p in place.parents if p.name.casefold() == CUSTOM_SETS), None)
        if folder is None:
            return None
        if folder.is_dir():
            return folder, False
        data = folder.parent
        if data.is_dir():
            return folder, True
    except OSError:
        return None
    raise click.BadParameter(
        f"{folder} does not exist, nor the Cockatrice data folder it belongs in, {data}: nothing written."
        " Cockatrice makes its customsets folder in its data folder when it starts"
        f" ({COCKATRICE_DATA_FOLDERS}): check the path (or start Cockatrice once), or write the file"
        " elsewhere and add it with Card Database > Add custom sets/cards",
        param_hint=named_by,
    )


def _read_by_the_export(target: Path, path: Path | None, card_source: CardSources | None) -> str:
    """What ``target`` is among the files the export reads besides the list (a card source named with
    ``--card-source``, a file already inside a card-source folder, the custom set beside the list), or
    ``""``. A new file in a card-source folder is no loss (a custom set written into Cockatrice's own
    ``customsets`` while reading that folder)."""
    from cockatrice_ext.decks.resolve_list import custom_set_beside

    try:
        found = target.resolve()
        for text in card_source.sources if card_source is not None else ():
            source = Path(text).expanduser()
            if not source.exists():  # a keyword (mtgjson, scryfall...) or a missing file: reported elsewhere
                continue
            source = source.resolve()
            if found == source:
                return f"the card source {text}"
            if source.is_dir() and source in found.parents and found.is_file():  # read with the folder
                return f"{target} in the card-source folder {text}"
        beside = custom_set_beside(path, card_source) if path is not None else None
        if beside is not None and found == beside.resolve():
            return f"the custom set beside the list, {beside.name}"
    except (OSError, ValueError):
        return ""
    return ""


def _names_itself(name: str, path: Path) -> bool:
    """Whether a list read from ``path`` gave its deck the ``name`` itself (Arena's ``About`` / ``Name``, a
    ``# Name:`` line, a .cod's ``deckname``) rather than taking its file's (``list.txt.gz``: ``list``)."""
    stems = {path.stem, Path(path.stem).stem if path.suffix.lower() == ".gz" else path.stem}
    return bool(name) and name not in stems


def _name_after_file(deck: ExportDeck, target: Path, *, chosen: bool) -> None:
    """Keep a Forge deck in Constructed: Forge reads the ``.dck`` files of its decks folder and moves one
    out of it (one folder up, as the file its ``Name=`` makes) at its next start when its file is not the
    one Forge itself gives that name (:func:`~cockatrice_ext.exporters.forge.forge_deck_file_stem`).

    A file Forge can keep a deck in (``uw.dck``) names the deck: a name that does not match becomes the
    file's, with a warning when the name was ``chosen`` (``--name``, or the list's own, as Arena's ``About``
    / ``Name`` gives it). A path Forge can never keep a deck in (``a|b.dck``: no name makes that file;
    ``uw.txt``: not a ``.dck``) is moved or ignored whatever the name inside, so a chosen name is kept
    inside the file, and the warning says where the file went, why Forge will not keep it there and the
    file name that would keep it (the one the kept name makes)."""
    from cockatrice_ext.exporters.forge import forge_deck_file_refusal, forge_deck_file_stem, safe_file_stem

    stem = target.stem
    wanted = forge_deck_file_stem(deck.name) if deck.name else ""
    keeps = target.suffix == ".dck" and forge_deck_file_stem(stem) == stem
    if keeps and wanted == stem:
        return
    if not keeps:
        if not (chosen and wanted):
            deck.name = safe_file_stem(stem, "deck")
            wanted = forge_deck_file_stem(deck.name) or deck.name
        if target.suffix != ".dck":
            why, keep = "Forge reads decks only from .dck files", "to play it in Forge"
        else:
            why = (
                "no deck name gives that file name, so at its next start Forge moves it out of its decks"
                f" folder (and Constructed), one folder up, as {wanted + '.dck'!r}"
            )
            keep = "to keep it in Constructed"
        click.echo(
            f"warning: wrote {target} as -o asks, with the deck named {deck.name!r} inside; {why}: {keep},"
            f" name the file {wanted + '.dck'!r} in Forge's decks folder",
            err=True,
        )
        return
    if chosen and wanted:
        click.echo(
            f"warning: Forge names a deck after its file: {stem}; to call it {deck.name}, write it as"
            f" {wanted + '.dck'!r} (Forge moves a .dck named otherwise than its file out of Constructed)",
            err=True,
        )
    elif chosen:
        click.echo(
            f"warning: the deck is named {stem!r} after its file, {target.name}: Forge names a deck after its"
            f" file, and {deck.name!r} makes none the export writes ({forge_deck_file_refusal(deck.name)});"
            " to keep that name, give the deck one Forge can make a file name of",
            err=True,
        )
    deck.name = stem


def _refuse_real_edition(code: str) -> None:
    """Refuse, before the list is read, a ``--set-code`` no Forge edition may take
    (:func:`forge_code_refusal`): one Forge reserves (``USER``, ``???``) or a real set's would replace
    Forge's own edition, and one that is not letters, digits, ``-`` and ``_`` breaks Forge's lines."""
    from cockatrice_ext.exporters.forge_edition import forge_code_refusal

    refusal = forge_code_refusal(code)
    if refusal is not None:
        click.echo(
            f"error: --set-code {refusal} (or leave --set-code out for your own set's code or one made from"
            " the block's name); nothing written.",
            err=True,
        )
        sys.exit(EXIT_BAD_INPUT)


def _warn_forge(deck: ExportDeck, fmt: str, edition: CardSet | None) -> list[str]:
    """Say what Forge would get wrong: in a deck or cube, the lines of names it misreads
    (:func:`forge_misread_names`); in a custom folder, what :func:`forge_edition_notes` says of the
    edition's code, and each card not written (:func:`forge_unwritable_cards`) but the namesakes already
    named as the list was read (:func:`_warn_real_namesakes`). Returns the names of the cards not written."""
    from cockatrice_ext.exporters.forge import forge_misread_names
    from cockatrice_ext.exporters.forge_edition import (
        forge_custom_cards,
        forge_edition_notes,
        forge_unwritable_cards,
    )
    from cockatrice_ext.exporters.model import display_name

    if fmt in ("forge", "forge-cube"):
        odd = forge_misread_names(deck)
        if odd:
            click.echo(
                f"warning: Forge would misread the {'deck' if fmt == 'forge' else 'cube'} lines of"
                f" {'; '.join(repr(name) for name in odd)} (a trailing + means foil, | starts a set code);"
                f" give {'it' if len(odd) == 1 else 'each'} a name of its own",
                err=True,
            )
        return []
    if fmt != "forge-custom":
        return []
    if forge_custom_cards(deck):  # else no edition is written: its code is nothing to say
        for note in forge_edition_notes(deck, edition):
            click.echo(f"warning: {note}", err=True)
    skipped = forge_unwritable_cards(deck)
    said = {display_name(card, "forge") for card in _real_namesakes(deck)}
    for name, why in skipped.items():
        if name not in said:
            click.echo(
                f"warning: {name!r} not written for Forge (no script, no edition line): {why}; give it a name"
                " of its own",
                err=True,
            )
    return list(skipped)


def _forge_custom_cards(deck: ExportDeck) -> list[str]:
    """The custom cards forge-custom writes
    (:func:`~cockatrice_ext.exporters.forge_edition.forge_custom_cards`): none, and nothing is written, not
    even the folder."""
    from cockatrice_ext.exporters.forge_edition import forge_custom_cards

    return forge_custom_cards(deck)


def _custom_tokens(deck: ExportDeck) -> list[str]:
    """The names of ``deck``'s tokens Forge does not have (the designer's own), as Forge would name them."""
    from cockatrice_ext.exporters.forge_edition import forge_has_card
    from cockatrice_ext.exporters.model import display_name

    return [
        display_name(card, "forge")
        for card in deck.unique_cards()
        if card.is_token and not forge_has_card(card)
    ]


def _write_stdout(rendered: str | bytes) -> None:
    """``-o -``: the one file on standard output; a stream that cannot take it is one error line."""
    stream = sys.stdout.buffer
    try:
        stream.write(rendered.encode("utf-8") if isinstance(rendered, str) else rendered)
        stream.flush()
    except OSError as exc:
        with contextlib.suppress(OSError, ValueError):  # nothing left for Python to flush at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        click.echo(f"error: cannot write to standard output: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_CANNOT_WRITE)


def has_sideboard(fmt: str) -> bool:
    """Whether ``fmt`` writes a deck with a sideboard: a cube or a card file has none, so a blank line in
    its list is never taken for one."""
    export_format = EXPORT_FORMATS[fmt]
    return "side" in export_format.sections and not export_format.is_card_file


def _format_help() -> str:
    return "; ".join(f"{name}: {f.description}" for name, f in EXPORT_FORMATS.items())


@click.command("export")
@click.argument("block")
@click.option(
    "--to",
    "fmt",
    required=True,
    type=click.Choice(list(EXPORT_FORMATS), case_sensitive=False),
    help="Output format. " + _format_help(),
)
@click.option(
    "-o",
    "--output",
    "output_text",
    type=click.Path(),
    default=None,
    help="Output file (a folder for forge-cube/forge-custom); - writes a one-file format to standard"
    " output. A folder for a one-file format (one that exists, or a path ending in /) gets the file named"
    " as without -o (Forge's decks folder: the deck's own file name). An existing path must otherwise be a"
    " regular file (a link's target is replaced; a link into a missing folder is refused). Default:"
    " derived from --name, else from the block name.",
)
@card_source_option
@from_option
@click.option(
    "--name",
    "deck_name",
    default=None,
    help="Deck/cube name to write, and the default output's (default: the block's name, 'stdin' for standard"
    " input; a Forge deck is named after its file, which Forge requires to keep it in Constructed).",
)
@click.option(
    "--set-code",
    default=None,
    metavar="CODE",
    help="cockatrice-xml/forge-custom: put every card in this custom set (code), e.g. MYBLK1. Its long name"
    " is --set-name's, else your own set's long name, else the list's name; its release date is the"
    " input's set of that code's, else $SOURCE_DATE_EPOCH's day, else the newest of the cards'"
    " printings (forge-custom: the designer's own cards only; 2000-01-01 for custom cards without one)."
    " forge-custom refuses USER and ??? (Forge's own editions) and a real set's code (Forge's edition"
    " would be replaced), and warns about a code of fewer than six characters the card data does not"
    " know (it may be a newer real set). Without it, forge-custom takes the custom set all your own"
    " cards are in (real cards, basic lands among them, aside: the edition lists none), else makes a"
    " code from the block's name (X and five hex digits), the same at every export.",
)
@click.option(
    "--set-name",
    default=None,
    help="Long name of the custom set given with --set-code (default: your own set's long name, else the"
    " list's name).",
)
@click.option(
    "--players", type=click.IntRange(2, 16), default=None, help="forge-cube: drafters (default: fit)."
)
@click.option("--packs", type=click.IntRange(1, 10), default=None, help="forge-cube: packs each (default 3).")
@click.option(
    "--pack-size", type=click.IntRange(1, 30), default=None, help="forge-cube: cards a pack (default 15)."
)
@click.option(
    "--no-printings",
    is_flag=True,
    help="cod/text: leave out set codes, collector numbers and ids, for clients older than Cockatrice 2.9"
    " (a .cod with a format, banner card or tags still has those).",
)
def export(
    block: str,
    fmt: str,
    output_text: str | None,
    card_source: CardSources | None,
    from_format: str,
    deck_name: str | None,
    set_code: str | None,
    set_name: str | None,
    players: int | None,
    packs: int | None,
    pack_size: int | None,
    no_printings: bool,
) -> None:
    """Convert BLOCK to a deck or card file.

    \b
    Example: cockatrice-ext export myblock.txt --to cod -o myblock.cod
    A list has one card a line, the count first (1 if none):
      4 Lightning Bolt
      1 Fire // Ice (MH2) 290      (set code and collector number pin a printing)
      Sideboard                    (the lines below it are the sideboard)
      2 Duress

    XMage decks (.dck) are read (--from xmage) but not written: XMage imports a .cod or text export.

    BLOCK is a block list, a deck file (.cod, .dck, .dek, Arena, MTGO, MTGGoldfish or plain text), a
    CubeCobra export (card names or CSV), a Cockatrice card database XML (its cards are exported as
    they are, with layout, side and color identity added where it has none, and colors, costs and
    rarities spelled as Cockatrice's Oracle writes them), a bundled block name such as
    auction-sample, or - for standard input. Unknown card names are all listed, with line numbers and
    suggestions; then nothing is written and the exit code is 2.

    forge-custom writes only the designer's own cards (Forge has every real one): with none to write it
    writes nothing, not even an edition, and says so, with exit code 0: a block of real cards needs no
    custom folder, and custom cards it refuses (named like a real card, a name Forge misreads) are warnings,
    as when only some are refused.

    A Cockatrice custom set named like the list and beside it (myblock.xml beside myblock.txt) is
    read with it, over the other card data, and said on stderr, as block check reads it; cockatrice-xml
    writes myblock.cards.xml by default, never that name, so its output is not read back as the
    designer's set (an -o giving that name is said). For a cube or card
    file (forge-cube, forge-custom, cockatrice-xml) a blank line never starts a sideboard; a Sideboard
    header does, and a cube leaves that sideboard out, saying so.
    """
    from cockatrice_ext.cards.errors import CardDataError, UnknownCardsError
    from cockatrice_ext.decks.errors import DeckFormatError
    from cockatrice_ext.exporters import export as write_export

    fmt = fmt.lower()
    path = find_block(block) if block != STDIN else None
    if set_code and fmt not in ("cockatrice-xml", "forge-custom"):
        raise click.BadParameter("applies to cockatrice-xml and forge-custom only", param_hint="--set-code")
    if set_name and not set_code:
        raise click.BadParameter("names the set of --set-code; give that too", param_hint="--set-name")
    if set_code and fmt == "forge-custom":
        _refuse_real_edition(set_code)
    if no_printings and fmt not in ("cod", "text"):
        raise click.BadParameter("applies to cod and text only", param_hint="--no-printings")
    draft = {"num_players": players, "num_packs": packs, "booster_size": pack_size}
    if fmt != "forge-cube" and any(v is not None for v in draft.values()):
        raise click.BadParameter("applies to forge-cube only", param_hint="--players/--packs/--pack-size")
    output = Path(output_text) if output_text is not None else None
    to_stdout = output == Path("-")
    if to_stdout and EXPORT_FORMATS[fmt].is_bundle:
        raise click.BadParameter(f"{fmt} writes a folder of files, not one stream", param_hint="-o -")
    into = _output_folder(output_text, fmt)
    if into is not None:
        output = None
    if output is not None:
        target = output
    elif path is not None or deck_name:
        try:
            target = default_output(path, fmt, deck_name, into)
        except ValueError:  # standard input, and a --name of characters no file name holds
            raise click.BadParameter(
                f"{deck_name!r} leaves nothing a file name can hold; give -o PATH (or -o - for standard"
                " output), or a --name with letters or digits",
                param_hint="--name",
            ) from None
    elif into is not None:
        raise click.BadParameter(
            f"reading standard input into the folder {into}: give --name to name the file, or -o FILE",
            param_hint="-o",
        )
    else:
        raise click.BadParameter(
            "reading standard input: give -o PATH (or -o - for standard output), or --name"
        )
    if not to_stdout:
        named_by = (
            "-o"
            if output is not None or into is not None
            else "--name"
            if deck_name
            else "BLOCK (the output is named after it)"
        )
        _check_target(target, path, fmt, named_by, card_source)
    custom_sets = _custom_sets_target(target, named_by) if fmt == "cockatrice-xml" and not to_stdout else None
    source = STDIN_LABEL if path is None else str(path)
    try:
        loaded, source = load_input(block, from_format, sideboard=has_sideboard(fmt))
        deck = build(loaded, source, card_source, path, fmt)
    except UnknownCardsError as exc:
        click.echo(f"error: {exc}", err=True)
        click.echo("nothing written.", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except (DeckFormatError, CardDataError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except OSError as exc:
        click.echo(f"error: cannot read {source}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    shown = Path(source).name if path is not None else source
    if deck.count() == 0:
        click.echo(f"error: {shown} lists no cards; nothing written.", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if deck_name:
        deck.name = deck_name
    # the list's own name: not a card file's set name, nor a bundled block's (called by the name typed)
    from cockatrice_ext.decks.model import Deck

    given_list = path is not None and path == Path(block).expanduser() and isinstance(loaded, Deck)
    own_name = given_list and path is not None and not deck_name and _names_itself(deck.name, path)
    if fmt == "forge" and own_name and output is None:  # a Forge deck's file is its name: the list's own
        target = default_output(path, fmt, deck.name, into)
        named_by = f"the list's own name, {deck.name!r} (-o names the file otherwise)"
        _check_target(target, path, fmt, named_by, card_source)
    if fmt == "forge" and not to_stdout:
        _name_after_file(deck, target, chosen=bool(deck_name) or own_name)
    options: dict[str, object] = {"printings": False} if no_printings else {}
    if fmt == "forge-cube":
        options.update(draft)
    edition: CardSet | None = None
    if set_code:
        from cockatrice_ext.cards.model import CardSet

        custom = deck.sets.get(set_code) or CardSet(
            code=set_code, name=set_name or set_code, set_type="Custom"
        )
        if set_name:
            custom = CardSet(
                code=custom.code, name=set_name, set_type=custom.set_type, release_date=custom.release_date
            )
        options["custom_set" if fmt == "cockatrice-xml" else "edition"] = custom
        edition = custom
    if fmt in UNKNOWN_TO:
        _warn_unknown_to(deck, fmt)
    _note_custom(deck, fmt)
    if fmt in ("mtgo", "arena"):
        _warn_alchemy(deck, fmt)
    for dropped in left_out(deck, fmt):
        click.echo(f"warning: {dropped} not written: {fmt} has no place for it", err=True)
    if not cards_written(deck, fmt):  # an empty deck is no output: refused as a list of no cards is
        click.echo(f"error: {shown}: {fmt} has no place for any of its cards; nothing written.", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for moved in moved_to_side(deck, fmt):
        click.echo(f"note: {moved} written in the sideboard: {fmt} has no command zone", err=True)
    if to_stdout:
        from cockatrice_ext.exporters import render

        rendered = render(deck, fmt, **options)  # type: ignore[arg-type]
        _warn_forge(deck, fmt, edition)
        _write_stdout(rendered)
        return
    nothing = fmt == "forge-custom" and not _forge_custom_cards(deck)  # nothing for Forge's custom folder
    try:
        written = [] if nothing else write_export(deck, fmt, target, **options)
    except ValueError as exc:  # e.g. a draft the cube cannot fill
        from cockatrice_ext.exporters.forge import DraftTooBig

        fix = ""
        if isinstance(exc, DraftTooBig):
            fix = f" ({exc.remedy()})"
        click.echo(f"error: {exc}; nothing written{fix}.", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except OSError as exc:
        click.echo(f"error: cannot write {target}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_CANNOT_WRITE)
    not_written = _warn_forge(deck, fmt, edition)  # said once the files are: a refusal is said alone
    unscripted = _warn_keywords_only(deck) if fmt == "forge-custom" else []
    if fmt == "forge-custom":
        kept = kept_edits(written)
        for edited, offered in kept:
            click.echo(f"warning: {kept_edit_warning(edited, offered)}", err=True)
        _warn_left_over(target, [*written, *(edited for edited, _ in kept)], _refused_scripts(deck))
    if fmt == "forge-cube" and (note := draft_note(deck, players, packs, pack_size)):
        click.echo(f"note: {note}", err=True)
    counts = section_counts(deck)
    distinct = len(deck.unique_cards())
    click.echo(
        f"{shown}: {counts} ({distinct} distinct card{'' if distinct == 1 else 's'}) -> {fmt}", err=True
    )
    for file in written:
        click.echo(str(file))
    if fmt == "cockatrice-xml" and path is not None and _is_custom_set_name(target, path):
        click.echo(
            f"note: {target.name} is named like {path.name} and beside it: export and block check read it"
            f" with the list as the designer's custom set, over the card data (without -o the output is"
            f" {default_output(path, fmt).name})",
            err=True,
        )
    if custom_sets is not None and written:
        folder, made = custom_sets
        if made:
            click.echo(
                f"note: made {folder}, Cockatrice's custom sets folder (it was missing from its data folder,"
                f" {folder.parent})",
                err=True,
            )
        click.echo(CUSTOM_SETS_STEP.format(folder=folder), err=True)
    elif fmt in NEXT_STEPS:
        lone = _custom_tokens(deck) if fmt == "forge-custom" and not written else []
        step = _next_step(fmt, target, written, not_written, lone)
        if unscripted:
            step += " Until their rules are scripted, the cards warned about do nothing but their keywords."
        click.echo(step, err=True)
