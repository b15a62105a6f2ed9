"""A designer's block list read and resolved one way, for ``export``, ``block check`` and the bot alike.

:func:`read_list` turns a list's bytes into a :class:`~cockatrice_ext.decks.model.Deck` (any deck format,
detected; gzip inflated; text that is not UTF-8 read as Windows-1252); :func:`resolve_list` resolves it
against :func:`list_card_data`: the card sources asked for (:class:`CardSources`, ``--card-source``), the
custom set beside the list file (:func:`custom_set_beside`), Un-card names without their quote marks, every
pinned printing. :func:`read_block` does both for a block file, as the bot loads one.

No I/O but reading the files: what the reader and resolver have to say (``note: ...``, ``warning: ...``
lines) goes to a ``say`` callback, in the order it is found, so a line said before an error is said before
it. The command line prints them on stderr; the bot, in its log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import Card, CardDatabase

if TYPE_CHECKING:
    from cockatrice_ext.cards.resolve import NameIndex, ResolvedDeck
    from cockatrice_ext.decks.model import Deck, DeckEntry

LOGGER = logging.getLogger(__name__)

Say = Callable[[str], None]
"""Takes one line to tell the user: ``note: ...`` or ``warning: ...``."""
ProgressBar = Callable[[int, str], AbstractContextManager[Callable[[int], None]]]
"""Given a load's size in bytes and a label, a context whose value is told each chunk of bytes read (the
caller's to show, or not for a small one)."""
TokenSpelling = Callable[[Card], str]
"""How an output spells a token (``Goblin Token``): a list's token line that differs is warned about."""

STDIN_LABEL = "<stdin>"
"""The ``source`` of a list read from standard input."""
STDIN_NAME = "stdin"
"""The name of a list read from standard input that names itself nowhere: its deck's, its report's."""
WINDOWS_1252 = "Windows-1252"
"""How a list that is not UTF-8 is read (what Windows editors save as "ANSI")."""


def _log(line: str) -> None:
    LOGGER.warning("%s", line)


@dataclass(frozen=True)
class CardSources:
    """What ``--card-source`` (repeated) and ``--no-default-cards`` asked for."""

    sources: tuple[str, ...]
    with_default: bool = True


class CustomSetError(CardDataError):
    """The custom set beside a list does not load: the list's fault, not the card sources'."""


def card_data(
    card_source: str | CardSources | None,
    need: Iterable[str] = (),
    *,
    progress_bar: ProgressBar | None = None,
) -> CardDatabase:
    """The card data ``card_source`` names (``None``: the default; a :class:`CardSources`: stacked over the
    default), sure to hold what it has of ``need``, the names the caller will resolve. A name ``A // B``
    also needs ``A`` (MTGJSON names a meld card with the card it melds into), a name without its quote marks
    the quoted one (``"Ach! Hans, Run!"``: :func:`~cockatrice_ext.cards.resolve.quote_variants`).

    Raises:
        CardDataError: a source that does not load.
        ValueError: a :class:`CardSources` with no source and the default left out.
    """
    from cockatrice_ext.cards import sources
    from cockatrice_ext.cards.resolve import quote_variants

    need = list(need)
    need += [name.split(" // ", 1)[0] for name in need if " // " in name]
    need += [variant for name in need for variant in quote_variants(name)]
    if isinstance(card_source, CardSources):
        if not card_source.sources and not card_source.with_default:
            raise ValueError("no card data: the default cards left out and no card source given")
        return sources.load_stacked(card_source.sources, need, with_default=card_source.with_default)
    size = _safe_size(card_source) if progress_bar is not None else 0
    if progress_bar is None or not size:
        return sources.load_cards_covering(need, card_source) if need else sources.load_cards(card_source)
    with progress_bar(size, f"Loading {card_source or sources.default_source()}") as update:
        if need:
            return sources.load_cards_covering(need, card_source, progress=update)
        return sources.load_cards(card_source, progress=update)


def _safe_size(path: str | None) -> int:
    from cockatrice_ext.cards import sources

    try:
        return sources.source_size(path if path is not None else sources.default_source())
    except OSError:
        return 0


def custom_set_beside(path: Path, card_source: CardSources | None = None) -> Path | None:
    """The Cockatrice custom set ``BLOCK.xml`` beside the list file ``path`` (``myblock.xml`` beside
    ``myblock.txt``, as the bundled blocks ship theirs), or ``None``: none there, an XML that is not card
    data, the list itself, a file the card sources name, or a bundled block's set that the default cards
    already hold."""
    from cockatrice_ext.cards import sources

    xml = path.with_suffix(".xml")
    try:
        if xml == path or not xml.is_file():
            return None
        if not sources.is_card_database_xml(xml):
            return None
        found = xml.resolve()
    except OSError:
        return None
    named = card_source.sources if card_source is not None else ()
    if any(Path(text).expanduser().resolve() == found for text in named):
        return None
    with_default = card_source is None or card_source.with_default
    held = with_default and sources.default_source() in sources.DEFAULT_KEYWORDS  # the bundled sets too
    if held and found in {bundled.resolve() for bundled in sources.custom_set_files()}:
        return None
    return xml


def list_card_data(
    deck: Deck,
    card_source: CardSources | None,
    *,
    beside: Path | None = None,
    say: Say = _log,
    progress_bar: ProgressBar | None = None,
) -> CardDatabase:
    """The card data ``deck`` resolves against: ``card_source`` (or the default) for the list's names; the
    custom set beside the list file ``beside`` (:func:`custom_set_beside`), which wins as a last card
    source would, and is said; and with the default cards, what the list pins that they lack
    (:func:`_add_pinned`).

    Raises:
        CustomSetError: the custom set beside the list does not load.
        CardDataError: a card source that does not load.
    """
    from cockatrice_ext.cards.resolve import NameIndex, lookup_names

    names = lookup_names(deck) + [entry.x_name for _, entry in deck.entries() if entry.x_name]
    names += [entry.other_reading[0] for _, entry in deck.entries() if entry.other_reading]
    names += [entry.x_other_reading[0] for _, entry in deck.entries() if entry.x_other_reading]
    custom = custom_set_beside(beside, card_source) if beside is not None else None
    if custom is None:
        db = card_data(card_source, names, progress_bar=progress_bar)
    else:
        assert beside is not None
        sibling = _load_sibling(custom)
        say(f"note: custom cards read from {custom.name}, the card set beside {beside.name}")
        index = NameIndex(sibling)
        need = [name for name in names if index.find(name) is None]
        base = card_data(card_source, need, progress_bar=progress_bar)
        db = CardDatabase(source=f"{base.source} + {custom}" if base.source else str(custom))
        db.merge(sibling)  # the first definition of a name wins: the custom set's
        db.merge(base)
        db.name_hints.update(base.name_hints)
        _keep_token_names(db, base)
        db.link_reverse_related()
    if card_source is None:
        db = _add_pinned(deck, db, say)
    return db


def _keep_token_names(db: CardDatabase, base: CardDatabase) -> None:
    """Give each token of ``db`` that replaced one of ``base`` by name (a custom set's ``Treasure Token``,
    written by Cockatrice's rules with no other name) the name its face has in ``base`` (``Treasure``), so
    that a list's ``1 Treasure`` resolves as it does without the custom set: the same card name, now the
    custom set's card. A token whose face the custom set names otherwise keeps that name."""
    for name, card in db.cards.items():
        before = base.cards.get(name)
        if before is None or before is card or not (card.is_token and before.is_token):
            continue
        if len(card.faces) != 1 or len(before.faces) != 1 or card.faces[0].name != name:
            continue
        if before.faces[0].name != name:
            db.cards[name] = replace(card, faces=(replace(card.faces[0], name=before.faces[0].name),))


def _load_sibling(path: Path) -> CardDatabase:
    from cockatrice_ext.cards.sources import load_cards

    try:
        return load_cards(str(path))
    except CardDataError as exc:
        raise CustomSetError(f"{exc} (the custom set beside the list, read with it)") from exc


def _add_pinned(deck: Deck, db: CardDatabase, say: Say) -> CardDatabase:
    """``db`` with what the list pins that the compact built-in cards lack, from every real card and token,
    the shipped store: a pinned printing (``4 Mountain (TMP)``, a Forge ``Mountain|TMP``), every printing of
    a card pinned by Forge's art index (``Island|M19|3`` counts the set's every printing), the art-series card
    of a card pinned to a set it lacks (``Lightning Bolt (ASTX) 76``: ``Lightning Bolt // Lightning Bolt``,
    as MTGJSON names an art card, matched only so pinned), an Un-set variant pinned by its printing
    (``Very Cryptic Command (UST) 49d``: ``Very Cryptic Command (d)``), and a token the
    tokens zone names exactly (Magic-Token's ``Goblin Token `` with its trailing space is another token than
    ``Goblin Token``). A card keeps its default printing, so nothing unpinned changes."""
    from cockatrice_ext.cards.mtgjson import SAME_NAME_VARIANT_SETS
    from cockatrice_ext.cards.resolve import NameIndex, pick_printing

    index = NameIndex(db)
    lacking = {entry.name for entry in deck.sections.get("tokens", []) if entry.name not in db.cards}
    for _, entry in deck.entries():
        pins = [(entry.name, entry.set_code, entry.collector_number, entry.art_index)]
        for other in (entry.other_reading, entry.x_other_reading):
            if other and other[1]:  # Fire|Ice's other reading, Fire of set ICE
                pins.append((other[0], other[1], "", 0))
        for name, code, number, art in pins:
            card = index.find(name) if code or number else None
            pinned = card and pick_printing(card, code, number, art)
            if card is not None and (pinned is None or art):  # arts count every printing in the set
                lacking.add(card.name)
            if card is not None and code and pinned is None:  # maybe its art card's set (ASTX), named so
                lacking.add(f"{card.name} // {card.name}")
                if code.upper() in SAME_NAME_VARIANT_SETS and number[-1:].isalpha():  # UST 49d: its own card
                    lacking.add(f"{card.name} ({number[-1].lower()})")
    return with_every_printing(db, lacking, say)


def with_every_printing(db: CardDatabase, names: Iterable[str], say: Say = _log) -> CardDatabase:
    """``db`` (not changed: the default cards are shared) plus the shipped store's cards ``names``: every
    printing of a real card, where the compact built-in cards keep a few. Only over the default cards:
    ``$COCKATRICE_EXT_CARDS`` names the user's own cards, theirs to complete."""
    from cockatrice_ext.cards.sources import DEFAULT_KEYWORDS, default_source
    from cockatrice_ext.cards.store import shipped_store

    wanted = sorted(set(names))
    if not wanted or default_source() not in DEFAULT_KEYWORDS:
        return db
    try:
        extra = shipped_store().cards_for(wanted)
    except CardDataError as exc:
        say(f"warning: printings not looked up in the shipped card data: {exc}")
        return db
    merged = CardDatabase(source=db.source)
    merged.merge(db)
    merged.merge(extra)
    merged.source = db.source
    merged.name_hints.update(db.name_hints)
    merged.link_reverse_related()
    return merged


def _is_card_xml(data: bytes) -> bool:
    """Whether ``data`` is a Cockatrice card database, by its root element (past comments, in UTF-16 too)."""
    from cockatrice_ext.cards.sources import CARD_DATABASE_ROOT, XML_SNIFF_BYTES, xml_root

    return xml_root(data[:XML_SNIFF_BYTES]) == CARD_DATABASE_ROOT


def _read_card_xml(source: Path | bytes, say: Say, *, name: str = "") -> CardDatabase:
    """The Cockatrice card database given as the list itself, what it gets wrong said to ``say`` as
    ``warning:`` lines (:func:`~cockatrice_ext.cards.errors.warnings_to`), as a card source's are."""
    from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
    from cockatrice_ext.cards.errors import warnings_to

    with warnings_to(lambda message: say(f"warning: {message}")):
        return read_cockatrice_xml(source, name=name)


def read_list_file(
    path: Path, from_format: str = "auto", *, sideboard: bool = True, say: Say = _log
) -> Deck | CardDatabase:
    """The list in file ``path`` as :func:`read_list` reads it; a Cockatrice card database, detected, is
    streamed (card files may be big). Raises ``DeckFormatError`` (also for a file over the size cap),
    ``CardDataError`` or ``OSError``."""
    from cockatrice_ext.decks.blocklist import MAX_TEXT_BYTES
    from cockatrice_ext.decks.errors import DeckFormatError

    source = str(path)
    if from_format.lower() == "auto":
        from cockatrice_ext.cards.sources import is_card_database_xml

        if is_card_database_xml(path):
            return _read_card_xml(path, say)
    with path.open("rb") as handle:
        data = handle.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise DeckFormatError(f"input larger than {MAX_TEXT_BYTES} bytes", source=source)
    return read_list(data, source, from_format, sideboard=sideboard, say=say)


def read_list(
    data: bytes, source: str, from_format: str = "auto", *, sideboard: bool = True, say: Say = _log
) -> Deck | CardDatabase:
    """The block list or deck in ``data`` (``source`` names it), read as ``from_format`` or as detected;
    with ``auto``, a Cockatrice card database gives its cards. A gzip file is read inflated (capped); text
    that is not UTF-8 is read as Windows-1252 (``deck.encoding``, said by :func:`resolve_list` once the list
    resolved). A detected sideboard that only a blank line made (MTGO / MTGGoldfish or Arena text) is
    announced, with the option that reads it whole; without ``sideboard`` (a cube, a card file, a block:
    nothing has a sideboard there) it is never made: those cards are main cards, as block lists separate
    their colours with blank lines."""
    from cockatrice_ext.decks.blocklist import (
        MAX_LIST_CARDS,
        MAX_TEXT_BYTES,
        as_utf8,
        compression_of,
        gunzip_list,
        one_line_break,
    )
    from cockatrice_ext.decks.errors import DeckFormatError
    from cockatrice_ext.decks.readers import (
        blank_line_sideboard,
        canonical_format,
        detect_format,
        has_sideboard_marks,
        read_deck,
        utf16_as_utf8,
    )

    name = "" if source == STDIN_LABEL else source
    if compression_of(data) == "gzip":
        data = gunzip_list(data, source)
        name = name[:-3] if name.lower().endswith(".gz") else name  # list.txt.gz: named and read as list.txt
        if len(data) > MAX_TEXT_BYTES:
            raise DeckFormatError(
                f"input larger than {MAX_TEXT_BYTES} bytes once decompressed", source=source
            )
    data = one_line_break(utf16_as_utf8(data))
    auto = from_format.lower() == "auto"
    if auto and _is_card_xml(data):
        return _read_card_xml(data, say, name=source)
    windows = False
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):  # XML says its own encoding
        data, windows = as_utf8(data, source)
    chosen = detect_format(data, name) if auto else canonical_format(from_format)
    deck = read_deck(data, format=chosen, source=source)
    if windows:
        deck.encoding = WINDOWS_1252  # said once the list resolved (resolve_list): an error is said alone
    if deck.count() > MAX_LIST_CARDS:
        total = f"{deck.count():,} cards in all"
        raise DeckFormatError(f"{total}; a list holds at most {MAX_LIST_CARDS:,}", source=source)
    if not deck.name:
        deck.name = Path(name).stem if name else STDIN_NAME
    if not auto:
        return deck
    text = data.decode("utf-8", errors="replace")
    guessed = chosen in ("arena", "mtggoldfish", "text") and deck.count("side") > 0
    guessed = guessed and not has_sideboard_marks(text)  # only a blank line made it
    if not sideboard:
        if guessed:
            deck.section("main").extend(deck.sections.pop("side"))  # a blank line between colours
        return deck
    if guessed:
        kind = {"arena": "Arena text", "mtggoldfish": "an MTGO / MTGGoldfish deck"}.get(chosen, "a deck")
        say(
            f"note: {source} read as {kind}: {_after_blank(deck.count('side'), 'its sideboard')}"
            " (--from blocklist reads them as main cards)"
        )
    elif chosen == "blocklist" and (kept := blank_line_sideboard(text)):
        say(
            f"note: {source} read as a block list: {_after_blank(kept, 'main cards')}"
            " (--from text reads them as a sideboard)"
        )
    return deck


def _after_blank(count: int, what: str) -> str:
    """``the N cards after the blank line are WHAT`` (``the card ... is a main card`` for one), in the
    notes of :func:`read_list`; ``what`` is ``main cards`` or ``its sideboard``."""
    if count == 1:
        return f"the card after the blank line is {'a main card' if what == 'main cards' else what}"
    return f"the {count} cards after the blank line are {what}"


def resolve_list(
    deck: Deck,
    card_source: CardSources | None,
    source: str,
    *,
    beside: Path | None = None,
    say: Say = _log,
    token_spelling: TokenSpelling | None = None,
    progress_bar: ProgressBar | None = None,
) -> tuple[ResolvedDeck, CardDatabase]:
    """Resolve ``deck`` against the card data of :func:`list_card_data` (``beside``: the list file, whose
    custom set beside it is read too); the resolver's warnings, the text's encoding when it was not UTF-8
    and the reader's warnings are said once it resolved, those about one line in line order. A pin in one
    of Arena's own set codes is read as the card data's (:data:`ARENA_SET_CODES`, a note). A token line
    spelled otherwise than the card data names it (``Goblin Token``) is read as that token, with a warning
    when ``token_spelling`` spells it otherwise than the line. Returns the resolved deck and its card data.

    Raises:
        UnknownCardsError: every name that does not resolve (with, after them, why an accent or an invisible
            character may be the cause).
        CustomSetError: the custom set beside the list does not load.
        CardDataError: a card source that does not load.
    """
    from cockatrice_ext.cards.errors import warnings_to
    from cockatrice_ext.cards.resolve import NameIndex, UnknownCardsError, resolve_deck
    from cockatrice_ext.decks.blocklist import VariantWarning

    with warnings_to(lambda message: say(f"warning: {message}")):  # a designer's card files, as the rest
        db = list_card_data(deck, card_source, beside=beside, say=say, progress_bar=progress_bar)
    index = NameIndex(db)
    _x_names(deck, index)
    _settle_doubts(deck, index)
    _arena_set_codes(deck, index, source, say)
    _untoken_names(deck, db, say, token_spelling, source)
    db, index = _simple_names(deck, db, index, source, say)
    read_as = f"{source} is not UTF-8: read as {deck.encoding}" if deck.encoding else ""
    try:
        resolved = resolve_deck(deck, index, source=source)
    except UnknownCardsError as exc:
        said = [f"  ({read_as}; save it as UTF-8 if its accents are wrong)"] if read_as else []
        said += [  # invisible characters removed (a card version not known changes no name)
            f"  ({warning})" for warning in deck.read_warnings if not isinstance(warning, VariantWarning)
        ]
        if beside is not None:  # a designer's card file beside the list under another name than its own
            said += _card_files_nearby(beside, card_source, [u.name for u in exc.unknown if not u.reason])
        if said:  # an accent read wrongly, an invisible character, may be why a name is unknown
            exc.args = ("\n".join([str(exc), *said]),)
        raise
    if read_as:
        say(f"warning: {read_as} (check its accented names; save it as UTF-8 to be sure)")
    for warning in _in_line_order(deck, resolved, source):
        say(f"warning: {warning}")
    return resolved, db


NEARBY_FILES = 8
"""Card files in a list's folder looked into for its unknown names, at most (:func:`_card_files_nearby`)."""
NEARBY_BYTES = 8 * 1024 * 1024
"""A card file in a list's folder bigger than this is not read for a hint (a whole ``cards.xml``)."""


def _card_files_nearby(beside: Path, card_source: CardSources | None, names: list[str]) -> list[str]:
    """A line for each Cockatrice card file in the folder of the list file ``beside``, not read with it, that
    holds some of the unknown ``names``: a designer's set saved under another name than the list's
    (``myset.xml`` beside ``myblock.txt``) is read only as ``myblock.xml`` or given as a card source. Only a
    few small files are looked into (:data:`NEARBY_FILES`, :data:`NEARBY_BYTES`), and what they get wrong
    is not said here (they are not the list's card data)."""
    from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
    from cockatrice_ext.cards.resolve import NameIndex
    from cockatrice_ext.cards.sources import is_card_database_xml

    if not names:
        return []
    named = card_source.sources if card_source is not None else ()
    try:
        read = {Path(text).expanduser().resolve() for text in named}
        read.add(beside.with_suffix(".xml").resolve())
        found = sorted(path for path in beside.parent.glob("*.xml") if path.resolve() not in read)
    except OSError:
        return []
    said: list[str] = []
    for path in found[:NEARBY_FILES]:
        try:
            if not path.is_file() or path.stat().st_size > NEARBY_BYTES or not is_card_database_xml(path):
                continue
            index = NameIndex(read_cockatrice_xml(path, warn=lambda _line: None))
        except (CardDataError, OSError):
            continue
        held = [name for name in names if index.find(name) is not None]
        if held:
            these = "this card" if len(names) == 1 else f"{len(held)} of these cards"
            said.append(
                f"  ({path.name}, in the list's folder, holds {these} but is not read with the list: give"
                f" --card-source {_typed_path(path)}, or name it {beside.stem}.xml to be read with"
                f" {beside.name})"
            )
    return said


def _typed_path(path: Path) -> str:
    """``path`` as a user would type it in the folder they work in (relative when below it), quoted for a
    shell when it needs to be."""
    import shlex

    try:
        shown = str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        shown = str(path)
    return shlex.quote(shown)


def _x_names(deck: Deck, index: NameIndex) -> None:
    """Read each line whose count a spaced ``x`` follows (``1 X Walker``: ``x_name``) as the card data has
    it: ``X Walker`` when it knows that name (a designer's card) or does not know ``Walker`` (then said
    unknown as written), else ``Walker`` (``2 x Lightning Bolt``). A line also read in doubt (``1 X
    Fire|Ice``: a split card, or a card of set ICE) has both forms weighed on each side: with the ``x``
    when the card data knows either ``X Fire // Ice`` or ``X Fire``, or neither ``Fire // Ice`` nor
    ``Fire``; the doubt then goes on with that side's two forms and its own words
    (:func:`_settle_doubts`)."""
    from cockatrice_ext.decks.blocklist import ReadingDoubt

    def knows(*names: str) -> bool:
        return any(index.find(name) is not None for name in names if name)

    for entries in deck.sections.values():
        for i, entry in enumerate(entries):
            if not entry.x_name:
                continue
            with_x = knows(entry.x_name, *entry.x_other_reading[:1])
            known = with_x or not knows(entry.name, *entry.other_reading[:1])
            if not known:
                entries[i] = replace(entry, x_name="", x_other_reading=())
                continue
            entries[i] = replace(
                entry, name=entry.x_name, x_name="", other_reading=entry.x_other_reading, x_other_reading=()
            )
            for at, warning in enumerate(deck.read_warnings):  # the doubt, said of the name with its x
                if isinstance(warning, ReadingDoubt) and warning.line == entry.line:
                    if warning.with_x is None:
                        del deck.read_warnings[at]
                    else:
                        said = ReadingDoubt(warning.with_x)
                        said.line = warning.line
                        deck.read_warnings[at] = said
                    break


def _known(index: NameIndex, entry: DeckEntry) -> bool:
    """Whether the resolver reads ``entry`` as a card the card data knows (by its name, its whole name with
    a count after it, or its name with the parenthesis read as a set code: ``resolve_deck``'s tries)."""
    if index.find(entry.name) is not None:
        return True
    if entry.whole_name and index.find(entry.whole_name) is not None:
        return True
    with_parenthesis = f"{entry.name} ({entry.set_code})"  # "Hazmat Suit (Used)" read as a set
    return bool(entry.set_code and not entry.collector_number and index.find(with_parenthesis))


def _simple_names(
    deck: Deck, db: CardDatabase, index: NameIndex, source: str, say: Say
) -> tuple[CardDatabase, NameIndex]:
    """Read each name the card data does not know as the one card whose simple name (Cockatrice's: case,
    spaces and punctuation ignored, :func:`~cockatrice_ext.cards.resolve.simple_name`) is the same
    (``Gaeas Cradle``, ``Sol-Ring``, ``Birds of Paradise.``, ``Kongming, Sleeping Dragon``), as Cockatrice
    matches a deck's names, with a warning at its line naming the card taken; a name that so matches
    several cards, or none, stays unknown (the resolver's error suggests them). Returns the card data and
    its index, with those cards loaded when the card data only offered them as "did you mean"."""
    from cockatrice_ext.cards.resolve import NameIndex
    from cockatrice_ext.decks.blocklist import line_warning

    taken: list[tuple[list[DeckEntry], int, str]] = []  # (section's entries, index, the name matched)
    for entries in deck.sections.values():
        for i, entry in enumerate(entries):
            if _known(index, entry):
                continue
            matches = index.simple_matches(entry.name)
            if len(matches) == 1:
                taken.append((entries, i, matches[0]))
    if not taken:
        return db, index
    lacking = [name for _, _, name in taken if index.find(name) is None]
    if lacking:
        db = with_every_printing(db, lacking, say)
        index = NameIndex(db)
    for entries, i, name in taken:
        entry = entries[i]
        card = index.find(name)
        if card is None:
            continue  # offered by a card source whose cards are not loaded: said unknown, suggested
        entries[i] = replace(entry, name=card.name, whole_name="")
        deck.read_warnings.append(
            line_warning(
                source,
                entry.line,
                f"{entry.name!r} read as {card.name!r}, the one card whose name it is without case, spaces"
                " and punctuation (as Cockatrice matches a deck's names)",
            )
        )
    return db, index


def _settle_doubts(deck: Deck, index: NameIndex) -> None:
    """Read each line the reader read in doubt (``Fire|Ice``: the split card, or ``Fire`` of set ICE;
    ``DeckEntry.other_reading``) as the card data has it: when it knows one reading only, that one, and the
    reader's warning (:class:`~cockatrice_ext.decks.blocklist.ReadingDoubt`) is dropped: there was no real
    doubt. When it knows both readings, or neither, the reader's reading stays and its warning is said."""
    from cockatrice_ext.decks.blocklist import ReadingDoubt

    settled: set[int] = set()
    for entries in deck.sections.values():
        for i, entry in enumerate(entries):
            if not entry.other_reading:
                continue
            name, code = entry.other_reading
            taken, other = _reads(index, entry.name, entry.set_code), _reads(index, name, code)
            if taken != other:
                settled.add(entry.line)
                if other:
                    entry = replace(entry, name=name, set_code=code, collector_number="", art_index=0)
            entries[i] = replace(entry, other_reading=())
    if settled:
        deck.read_warnings[:] = [
            warning
            for warning in deck.read_warnings
            if not (isinstance(warning, ReadingDoubt) and warning.line in settled)
        ]


def _reads(index: NameIndex, name: str, set_code: str) -> bool:
    """Whether the card data knows the card ``name`` (and with ``set_code``, a printing of it in that set)."""
    from cockatrice_ext.cards.resolve import pick_printing

    card = index.find(name)
    return card is not None and (not set_code or pick_printing(card, set_code) is not None)


def _in_line_order(deck: Deck, resolved: ResolvedDeck, source: str = "") -> list[str]:
    """The reader's and the resolver's warnings, the resolver's pointing at ``source``'s line as the
    reader's do (:func:`~cockatrice_ext.decks.errors.line_place`: ``list.txt:12: ...``), those about one
    line (a :class:`~cockatrice_ext.decks.blocklist.LineWarning`: a card version not known, a blank line
    ending a commander section, a number dropped, a doubt) in the order of their lines (a maybeboard's line
    6 before the main deck's line 10, though its section is resolved after), after the reader's about the
    whole list (invisible characters removed from several lines)."""
    from cockatrice_ext.decks.blocklist import LineWarning
    from cockatrice_ext.decks.errors import line_place

    whole = [w for w in deck.read_warnings if not isinstance(w, LineWarning)]
    by_line: list[tuple[int, int, str]] = [
        (w.line, 0, _printing_used(w, resolved)) for w in deck.read_warnings if isinstance(w, LineWarning)
    ]
    for _, item in resolved.entries():
        line = item.entry.line
        where = line_place(source, line)
        by_line += [(line, 1, f"{where}: {w}" if where else w) for w in item.warnings]
    return whole + [warning for _, _, warning in sorted(by_line, key=lambda said: said[:2])]


def _printing_used(warning: str, resolved: ResolvedDeck) -> str:
    """A reader's ``warning``, saying for one about a card version it could not pin
    (:class:`~cockatrice_ext.decks.blocklist.VariantWarning`) which printing its line resolved to."""
    from cockatrice_ext.decks.blocklist import VariantWarning

    if not isinstance(warning, VariantWarning):
        return warning
    for entries in resolved.sections.values():
        for item in entries:
            printing = item.printing
            if item.entry.line != warning.line:
                continue
            if printing is None or printing.set_code.upper() != warning.code:
                return warning.start  # not in that set at all: the resolver's warning says what is used
            number = f" {printing.collector_number}" if printing.collector_number else ""
            used = f"({printing.set_code.upper()}){number}"
            return f"{warning.head}, {used}{warning[len(warning.head) :]}"
    return warning


ARENA_SET_CODES = {"DAR": "DOM", "CONF": "CON"}
"""MTG Arena's own codes for sets the card data (MTGJSON, Scryfall, Cockatrice) codes otherwise: Dominaria is
``DAR`` in Arena (and MTGO: MTGJSON's ``mtgoCode``), ``DOM`` in the card data; Conflux is ``CONF`` in Arena
(``CON`` is a reserved file name on Windows). The Arena writer maps them back (``exporters/arena.py``)."""


def _arena_set_codes(deck: Deck, index: NameIndex, source: str, say: Say) -> None:
    """Read a pin in one of Arena's own set codes (:data:`ARENA_SET_CODES`: ``4 Llanowar Elves (DAR) 168``)
    as the card data's code for that set, when the card has no printing under Arena's code but one under
    the other; a note names the lines so read."""
    from cockatrice_ext.cards.resolve import pick_printing
    from cockatrice_ext.decks.errors import line_place

    read: dict[tuple[str, str], list[int]] = {}
    for entries in deck.sections.values():
        for i, entry in enumerate(entries):
            code = ARENA_SET_CODES.get(entry.set_code.upper())
            card = index.find(entry.name) if code else None
            if card is None or code is None or pick_printing(card, entry.set_code):
                continue
            if pick_printing(card, code, entry.collector_number) or pick_printing(card, code):
                entries[i] = replace(entry, set_code=code)
                read.setdefault((entry.set_code.upper(), code), []).append(entry.line)
    for (arena, code), lines in read.items():
        where = line_place(source, sorted(lines))
        say(f"note: {where}: ({arena}) is MTG Arena's code for the set the card data calls {code}")


def _untoken_names(
    deck: Deck, db: CardDatabase, say: Say, spelling: TokenSpelling | None, source: str = ""
) -> None:
    """Map Cockatrice token spellings in a ``tokens`` zone (``Goblin Token``, ``Boo (Token)``, trailing
    spaces) to the card data's token names (``Goblin``), so a .cod we wrote reads back; a spelling the
    card data lacks is warned about at its line of ``source``."""
    from cockatrice_ext.decks.errors import line_place

    entries = deck.sections.get("tokens")
    if not entries:
        return
    for i, entry in enumerate(entries):
        if entry.name in db.cards:
            continue
        trimmed = entry.name.rstrip()
        bare = next((trimmed[: -len(s)] for s in (" (Token)", " Token") if trimmed.endswith(s)), trimmed)
        token = next((t for t in map(db.cards.get, (trimmed, bare)) if t is not None and t.is_token), None)
        if token is None:
            continue
        entries[i] = replace(entry, name=token.name)
        spelt = spelling(token) if spelling is not None else entry.name
        if spelt != entry.name:  # a variant the card data lacks
            where = line_place(source, entry.line)
            say(
                f"warning: {where + ': ' if where else ''}token {entry.name!r} is not in the card data;"
                f" written as {spelt!r}"
            )


def read_block(
    path: Path,
    card_source: CardSources | None = None,
    *,
    source: str = "",
    say: Say = _log,
    token_spelling: TokenSpelling | None = None,
) -> ResolvedDeck:
    """The block in file ``path`` read and resolved as ``block check`` and ``export`` read one: any list
    format, detected; no sideboard (the cards after a blank line are the block's); ``card_source`` and the
    custom set beside it (:func:`resolve_list`; ``source`` names the block in its messages, default the
    path). A Cockatrice card database is refused: it is card data, not a block.

    Raises:
        DeckFormatError: an unreadable list, or a card database.
        UnknownCardsError: names that do not resolve.
        CustomSetError, CardDataError: card data that does not load (the custom set beside it, a source).
        OSError: the file cannot be read.
    """
    from cockatrice_ext.decks.errors import DeckFormatError
    from cockatrice_ext.decks.model import Deck

    loaded = read_list_file(path, sideboard=False, say=say)
    if not isinstance(loaded, Deck):
        raise DeckFormatError(
            "a Cockatrice card database, not a block list (give it as --card-source)", source=str(path)
        )
    resolved, _ = resolve_list(
        loaded, card_source, source or str(path), beside=path, say=say, token_spelling=token_spelling
    )
    return resolved
