"""One entry point for every card source: :func:`load_cards` picks the reader from the content.

Sources: a Cockatrice card-database XML (v3/v4), an MTGJSON file (AllPrintings, per-set,
AtomicCards; plain/.gz/.xz), a Scryfall bulk file, a Forge card script / folder / zip, a
Cockatrice data folder, our embedded card file, and the keywords ``default`` (the embedded
cards plus the custom cards of ``blocks/*.xml``) and ``cockatrice`` (the user's own Cockatrice
installation, found by :mod:`cockatrice_ext.cards.discover`).

The keyword ``scryfall`` asks the Scryfall API for the names a command needs (through
:func:`load_cards_covering`; polite, cached on disk under :func:`cache_dir`); on its own it
gives the cards cached so far.

Without a source, :func:`default_source` answers ``$COCKATRICE_EXT_CARDS`` if set, else
``default``: the variable replaces the built-in cards everywhere, also as the bottom layer under
``--card-source`` (:func:`load_stacked`), and ``--no-default-cards`` leaves it out too. The
default is the compact file of the shipped blocks' cards over the lazily read store of every real
card (:mod:`cockatrice_ext.cards.store`); :func:`load_cards_covering` falls back to a discovered
Cockatrice installation when some names are still missing.

Big files (a ``cards.xml``, MTGJSON, Scryfall bulk) are parsed once and kept in a cache
(:mod:`cockatrice_ext.cards.cache`); when the caller says which names it needs, a cached file
gives only their cards.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cockatrice_ext.cards.errors import CardDataError, routed_warning
from cockatrice_ext.cards.model import CardDatabase

if TYPE_CHECKING:
    from cockatrice_ext.cards.scryfall import ScryfallClient

LOGGER = logging.getLogger(__name__)

ENV_VAR = "COCKATRICE_EXT_CARDS"
DEFAULT_KEYWORDS = frozenset({"default", "embedded", "builtin"})
COCKATRICE_KEYWORDS = frozenset({"cockatrice", "auto"})
SCRYFALL_KEYWORD = "scryfall"
SCRYFALL_URL_ENV = "COCKATRICE_EXT_SCRYFALL_URL"
CACHE_DIR_ENV = "COCKATRICE_EXT_CACHE"
DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "cards.json.gz"

Progress = Callable[[int], None]
_default_cache: CardDatabase | None = None


def _warn(message: str) -> None:
    """Say what a card source gets wrong where :func:`~cockatrice_ext.cards.errors.warnings_to` sends it
    (a command's ``warning:`` lines, as the card readers' own), else to the log."""
    warn = routed_warning()
    if warn is not None:
        warn(message)
    else:
        LOGGER.warning("%s", message)


def blocks_dir() -> Path:
    """The folder of the shipped block lists and custom sets (``cockatrice_ext.blocks``)."""
    import cockatrice_ext.blocks as blocks

    return Path(blocks.__file__).resolve().parent


def custom_set_files(folder: Path | None = None) -> list[Path]:
    """The Cockatrice custom-set XML files shipped with the block lists, sorted."""
    folder = folder or blocks_dir()
    return sorted(p for p in folder.glob("*.xml") if p.is_file())


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes (to know whether the embedded copy of a custom set is current)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read_shipped(path: Path, label: str) -> tuple[CardDatabase, dict[str, Any]]:
    """Decode one of the card files shipped in ``cockatrice_ext/data``.

    Raises:
        CardDataError: the file is missing or corrupt.
    """
    from cockatrice_ext.cards.embedded import decode_database

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CardDataError(f"embedded card data missing: {exc.strerror or exc}", source=str(path)) from exc
    return decode_database(data, source=label)


def load_default_cards(*, refresh: bool = False) -> CardDatabase:
    """The embedded card database plus the custom cards of ``blocks/*.xml``.

    Custom sets already folded into the embedded file at build time (same SHA-256) are not
    parsed again, so the usual call reads one small gzip'd JSON and never imports lxml. The
    result is cached per process; treat it as read-only.
    """
    global _default_cache
    if _default_cache is not None and not refresh:
        return _default_cache
    db, meta = _read_shipped(DATA_FILE, "default")
    embedded_customs: dict[str, str] = meta.get("custom_sets", {})
    for path in custom_set_files():
        if embedded_customs.get(path.name) == file_digest(path):
            continue
        from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml

        LOGGER.info("merging custom set %s (changed since the embedded card file was built)", path)
        db.merge(read_cockatrice_xml(path))
    db.link_reverse_related()
    _default_cache = db
    return db


_oracle_cache: CardDatabase | None = None


def load_rules_cards() -> CardDatabase:
    """Every real card (the shipped store) plus the default database's custom cards.

    For checks of decks players bring (any real card), offline. Cached; treat it as read-only.

    Raises:
        CardDataError: the shipped files are missing or corrupt.
    """
    global _oracle_cache
    if _oracle_cache is not None:
        return _oracle_cache
    from cockatrice_ext.cards.store import shipped_store

    rules = CardDatabase()
    rules.merge(load_default_cards())  # the custom cards of the bundled blocks win
    rules.merge(shipped_store().all_cards())
    _oracle_cache = rules
    return rules


def default_source() -> str:
    """``$COCKATRICE_EXT_CARDS`` when set, else ``"default"``."""
    return os.environ.get(ENV_VAR, "").strip() or "default"


def source_size(source: str | Path) -> int:
    """Bytes :func:`load_cards` will read for ``source`` (0 for the embedded default), for progress bars."""
    text = str(source)
    if text in DEFAULT_KEYWORDS or text == SCRYFALL_KEYWORD:
        return 0
    files = _expand(text)
    return sum(p.stat().st_size for p in files if p.is_file())


def _no_cockatrice_found(source: str) -> str:
    """What to say when ``source`` (``cockatrice``) found no card database: the places looked in (as
    ``cards where`` lists them) and how to name the file instead."""
    if source not in COCKATRICE_KEYWORDS:
        return "no Cockatrice card database found in the usual places"
    from cockatrice_ext.cards.discover import cockatrice_data_dirs

    places = ", ".join(str(folder) for folder in cockatrice_data_dirs())
    return (
        f"no Cockatrice card database found; looked in: {places}. Give the path to Cockatrice's cards.xml"
        " (or its data folder) with --card-source PATH"
    )


def _expand(source: str) -> list[Path]:
    """The files behind a keyword or folder source."""
    if source in COCKATRICE_KEYWORDS:
        from cockatrice_ext.cards.discover import discover_cockatrice_files

        return discover_cockatrice_files()
    path = Path(source).expanduser()
    if path.is_dir():
        return cockatrice_folder_files(path) or [path]  # no XML at all: a folder of Forge scripts
    return [path]


def cockatrice_folder_files(folder: Path) -> list[Path]:
    """The card files of a folder, in the order Cockatrice loads them.

    A Cockatrice data folder (it has ``cards.xml``, or ``settings/paths.ini`` names one) gives
    ``cards.xml``, ``tokens.xml``, ``spoiler.xml``, then every ``*.xml`` under ``customsets/``
    (:func:`cockatrice_ext.cards.discover.cockatrice_card_files`); any other folder gives its XML files
    collected the same way as ``customsets/`` (sorted by path, hidden ones skipped).
    """
    from cockatrice_ext.cards.discover import cockatrice_card_files, xml_files_below

    files = cockatrice_card_files(folder)
    if files:
        return files
    if (folder / "customsets").is_dir():
        _warn(
            f"{folder}: no cards.xml, so Cockatrice itself would load nothing from it; reading its XML files"
        )
    return xml_files_below(folder)


CARD_DATABASE_ROOT = "cockatrice_carddatabase"
XML_SNIFF_BYTES = 1 << 20
"""How far into a file :func:`xml_root_of` looks for the first element (past licence comments)."""
_XML_NAME = re.compile(r"<([A-Za-z_\u00c0-\uffff][\w.\-:\u00b7\u00c0-\uffff]*)")
_DOCTYPE_END = re.compile(r"\[.*?\]\s*>|>", re.DOTALL)
_UTF16 = (
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
    (b"<\x00", "utf-16-le"),
    (b"\x00<", "utf-16-be"),
)


def _xml_text(head: bytes) -> str:
    """The start of an XML file as text: UTF-16 by its byte-order mark (or its first ``<``), else UTF-8
    (a BOM dropped); a character cut at the end is left out."""
    for mark, encoding in _UTF16:
        if head.startswith(mark):
            body = head[len(mark) :] if mark.startswith((b"\xff", b"\xfe")) else head
            return body[: len(body) // 2 * 2].decode(encoding, errors="ignore").removeprefix("\ufeff")
    return head.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="ignore")


def xml_root(head: bytes) -> str | None:
    """The name (without prefix) of the first element of the XML document ``head`` starts, as an XML parser
    finds it: past whitespace, the declaration, processing instructions, comments and a DOCTYPE. ``""``
    when ``head`` is no XML (text before any element), ``None`` when ``head`` ends before the first element.

    A scan, not a parse: it never expands an entity, loads a DTD or touches the network, so it is safe on
    any bytes (Cockatrice reads a card file to its first start element the same way)."""
    text = _xml_text(head)
    at, end = 0, len(text)
    while True:
        while at < end and text[at] in " \t\r\n":
            at += 1
        if at >= end:
            return None
        if text.startswith("<?", at):
            close = text.find("?>", at + 2)
        elif text.startswith("<!--", at):
            close = text.find("-->", at + 4)
            close = close + 1 if close >= 0 else close
        elif text.startswith("<!", at):
            found = _DOCTYPE_END.search(text, at)
            close = found.end() - 2 if found else -1
        else:
            name = _XML_NAME.match(text, at)
            if name:
                return name.group(1).rpartition(":")[2]
            return None if end - at < 2 and text[at] == "<" else ""
        if close < 0:
            return None
        at = close + 2


def xml_root_of(path: str | Path, limit: int = XML_SNIFF_BYTES) -> str:
    """The first element's name of the file ``path`` (:func:`xml_root`; gzip and xz read inflated), looking
    at most ``limit`` bytes in; ``""`` for a file that is not XML or whose first element lies further.

    Raises :class:`OSError` or :class:`CardDataError` (a damaged compressed file) when it cannot be read."""
    from cockatrice_ext.cards.jsonio import DECOMPRESSION_ERRORS, open_binary

    head = b""
    try:
        with open_binary(path) as handle:
            while len(head) < limit:
                chunk = handle.read(min(64 * 1024 if head else 4096, limit - len(head)))
                head += chunk
                root = xml_root(head)
                if root is not None:
                    return root
                if not chunk:
                    break
    except DECOMPRESSION_ERRORS as exc:
        raise CardDataError(f"cannot read: {exc}", source=str(path)) from exc
    return ""


def is_card_database_xml(path: str | Path) -> bool:
    """Whether ``path`` is a Cockatrice card database by its root element (``<cockatrice_carddatabase>``),
    whatever comes before it (a long licence comment) and in UTF-8 or UTF-16 with a byte-order mark, as
    Cockatrice reads it. The one test of a card database's content, for the custom set beside a list,
    ``--card-source``, the files of a data folder and a bot's block; unreadable files are not one."""
    try:
        return xml_root_of(path) == CARD_DATABASE_ROOT
    except (OSError, CardDataError):
        return False


def _is_card_database(path: Path) -> bool:
    """Whether Cockatrice would parse ``path`` as a card database (an ``.xml`` name, the right root)."""
    return path.suffix.lower() == ".xml" and is_card_database_xml(path)


def sniff(path: Path) -> str:
    """What kind of card file ``path`` is: ``xml``, ``mtgjson``, ``scryfall``, ``forge``, ``embedded``."""
    import zipfile

    from cockatrice_ext.cards.jsonio import peek

    if path.is_dir():
        return "forge"
    if not path.exists():
        raise CardDataError("no such file or folder", source=str(path))
    if path.suffix.lower() == ".zip" and zipfile.is_zipfile(path):
        return "forge"
    head = peek(path)
    stripped = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if stripped.startswith(b"<") or xml_root_of(path):  # UTF-16 too
        return "xml"
    if stripped.startswith(b'{"cards":['):
        return "embedded"
    if stripped.startswith(b"{"):
        return "mtgjson"
    if stripped.startswith(b"["):
        return "scryfall"
    if stripped.startswith(b"Name:"):
        return "forge"
    raise CardDataError(
        "unrecognised card data (expected Cockatrice XML, MTGJSON, Scryfall JSON or a Forge script)",
        source=str(path),
    )


def with_cockatrice_token_names(db: CardDatabase) -> CardDatabase:
    """``db`` (MTGJSON or Scryfall) with its tokens named as Cockatrice (and the shipped store) names them.

    The shipped store's tokens carry Magic-Token's names and Scryfall ids, so they are the reference
    (:mod:`cockatrice_ext.cards.tokens`); without a readable store the names stay as they are.
    """
    from cockatrice_ext.cards.store import shipped_store
    from cockatrice_ext.cards.tokens import apply_cockatrice_token_names

    try:
        reference = shipped_store().token_cards()
    except CardDataError as exc:
        _warn(f"tokens keep their names: {exc}")
        return db
    apply_cockatrice_token_names(db, reference)
    return db


def read_file(path: Path, progress: Progress | None = None) -> CardDatabase:
    """Read one card file of any supported kind."""
    kind = sniff(path)
    if kind == "xml":
        from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml

        if progress is None:
            return read_cockatrice_xml(path)
        from cockatrice_ext.cards.jsonio import open_binary

        with open_binary(path, progress) as handle:
            return read_cockatrice_xml(handle, name=str(path))
    if kind == "mtgjson":
        from cockatrice_ext.cards.mtgjson import read_mtgjson

        return with_cockatrice_token_names(read_mtgjson(path, progress))
    if kind == "scryfall":
        from cockatrice_ext.cards.scryfall import read_scryfall_bulk

        return with_cockatrice_token_names(read_scryfall_bulk(path, progress))
    if kind == "embedded":
        from cockatrice_ext.cards.embedded import decode_database

        return decode_database(path.read_bytes(), source=str(path))[0]
    from cockatrice_ext.cards.forge import read_forge_cards

    return with_forge_tokens(read_forge_cards(path), path)


FORGE_TOKEN_FOLDERS = frozenset({"tokens", "tokenscripts"})
"""The folders Forge reads token scripts from (``custom/tokens``, ``res/tokenscripts``): Forge knows a
token by its folder, not by its script (whose ``Types:`` has no ``Token``: Forge would read the word as a
creature type)."""


def _forge_token_scripts(path: Path) -> list[Path]:
    """The scripts below ``path`` (a Forge folder, or one script) that lie in a token folder."""
    if path.is_file():
        return [path] if path.parent.name.lower() in FORGE_TOKEN_FOLDERS else []
    if not path.is_dir():
        return []
    if path.name.lower() in FORGE_TOKEN_FOLDERS:
        return sorted(path.rglob("*.txt"))
    return sorted(
        script
        for script in path.rglob("*.txt")
        if any(part.lower() in FORGE_TOKEN_FOLDERS for part in script.relative_to(path).parts[:-1])
    )


def with_forge_tokens(db: CardDatabase, path: Path) -> CardDatabase:
    """``db`` (read from the Forge folder or script ``path``) with the cards of the scripts in a token folder
    as tokens: forge-custom's own ``tokens/`` (and Forge's ``res/tokenscripts``) read back as the tokens
    they are, not as cards a deck could hold."""
    from dataclasses import replace

    from cockatrice_ext.cards.forge import looks_like_forge_script, read_forge_script

    for script in _forge_token_scripts(path):
        try:
            with script.open("rb") as handle:
                if not looks_like_forge_script(handle.read(64)):
                    continue
            token = read_forge_script(script)
        except (OSError, CardDataError):
            continue
        card = db.cards.get(token.name)
        if card is None or card.is_token or card.faces != token.faces:
            continue  # a card of that name elsewhere in the folder came first: it stays a card
        layout = "token" if card.layout == "normal" else card.layout
        db.cards[token.name] = replace(card, is_token=True, layout=layout)
    return db


CACHED_KINDS = frozenset({"xml", "mtgjson", "scryfall"})


def read_layer_file(path: Path, names: Iterable[str] = (), progress: Progress | None = None) -> CardDatabase:
    """One card file, through the parsed-file cache (:mod:`cockatrice_ext.cards.cache`) when it is big.

    With ``names``, a valid cache yields only the cards behind them (and every name, for suggestions).
    """
    from cockatrice_ext.cards import cache

    try:
        big = path.is_file() and path.stat().st_size >= cache.MIN_CACHED_BYTES
    except OSError:
        big = False
    if not big or sniff(path) not in CACHED_KINDS:
        return read_file(path, progress)
    return cache.load_cached(path, list(names), lambda one: read_file(one, progress))


def load_cards(
    source: str | Path | None = None, *, names: Iterable[str] = (), progress: Progress | None = None
) -> CardDatabase:
    """Load a card database from ``source`` (see module doc); ``None`` means :func:`default_source`.

    Several files (a Cockatrice folder: cards.xml, tokens.xml, spoiler.xml, customsets) are
    merged in Cockatrice's order: the first definition of a name wins, later files add
    printings. A folder's files that are not card databases, or that fail to parse, are skipped
    with a warning, as Cockatrice skips them; its ``cards.xml`` failing is an error (Cockatrice then
    loads nothing). Unlike Cockatrice, a file with an XML error gives none of its cards (Cockatrice
    keeps those before the error). Big files go through the parsed-file cache; with ``names``
    (those the caller will resolve) a cached file gives only their cards. Raises
    :class:`CardDataError` naming the file on any unreadable input.
    """
    text = str(source) if source is not None else default_source()
    if text in DEFAULT_KEYWORDS:
        return load_default_cards()
    if text == SCRYFALL_KEYWORD:
        return scryfall_client().database(())
    files = _expand(text)
    if not files:
        raise CardDataError(_no_cockatrice_found(text), source=text)
    folder = len(files) > 1 or files[0] != Path(text).expanduser()
    main = files[0] if folder and files[0].name.lower() == "cards.xml" else None  # Cockatrice needs it
    if folder:
        files = _card_databases_of_folder(text, files, main)
    db = CardDatabase()
    wanted = list(names)
    for path in files:
        try:
            layer = read_layer_file(path, wanted, progress)
        except CardDataError as exc:
            if not folder or path == main:
                raise
            _warn(f"{exc}; file skipped (Cockatrice logs it and goes on)")
            continue
        db.merge(layer)
        db.name_hints.update(layer.name_hints)
    db.link_reverse_related()
    if len(files) == 1:
        db.source = str(files[0])
    return db


def _card_databases_of_folder(source: str, files: list[Path], main: Path | None) -> list[Path]:
    """``files`` without those Cockatrice would not parse as a card database (each skipped with a warning,
    as Cockatrice logs and skips them); a ``main`` cards.xml it cannot parse is an error, as Cockatrice
    then loads nothing."""
    kept: list[Path] = []
    for path in files:
        if _is_card_database(path):
            kept.append(path)
        elif path == main:
            raise CardDataError(
                "not a Cockatrice card database; Cockatrice would load nothing", source=str(path)
            )
        else:
            _warn(f"{path}: not a Cockatrice card database, skipped (Cockatrice skips it too)")
    if not kept:
        raise CardDataError("no Cockatrice card database in it", source=source)
    return kept


def load_cards_covering(
    names: Iterable[str], source: str | Path | None = None, *, progress: Progress | None = None
) -> CardDatabase:
    """Load ``source``; if it is the default and some ``names`` are missing, add the user's Cockatrice cards.

    This keeps the common case (shipped block lists) fast while a home-made list with cards
    outside the embedded set still works on a machine with Cockatrice installed.
    """
    text = str(source) if source is not None else default_source()
    names = list(names)
    if text == SCRYFALL_KEYWORD:
        return scryfall_client().database(names)
    db = load_cards(text, names=names, progress=progress)
    if text not in DEFAULT_KEYWORDS:
        return db
    from cockatrice_ext.cards.resolve import NameIndex

    index = NameIndex(db)
    missing = [name for name in names if index.find(name) is None]
    if not missing:
        return db
    from cockatrice_ext.cards.store import shipped_store

    store = shipped_store()
    merged = CardDatabase(source="default")
    merged.merge(db)
    merged.merge(store.cards_for(missing))  # every real card, offline
    merged.link_reverse_related()
    index = NameIndex(merged)
    if all(index.find(name) is not None for name in missing):
        return merged
    from cockatrice_ext.cards.discover import discover_cockatrice_files

    if discover_cockatrice_files():
        LOGGER.info("some cards are not in the shipped data; adding your Cockatrice card database")
        merged.merge(load_cards("cockatrice", progress=progress))
        merged.link_reverse_related()
    merged.name_hints = store.name_hints()  # "did you mean" among every real card
    return merged


def cache_dir() -> Path:
    """Where cockatrice-ext caches downloaded card data (``$COCKATRICE_EXT_CACHE`` overrides)."""
    override = os.environ.get(CACHE_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "cockatrice-ext"


def scryfall_client() -> ScryfallClient:
    """The Scryfall API client behind ``--card-source scryfall`` (on-disk cache in :func:`cache_dir`)."""
    from cockatrice_ext.cards.scryfall import DEFAULT_BASE_URL, ScryfallClient

    base_url = os.environ.get(SCRYFALL_URL_ENV, "").strip() or DEFAULT_BASE_URL
    return ScryfallClient(base_url=base_url, cache_path=cache_dir() / "scryfall-cards.json")


def load_stacked(
    sources: Iterable[str],
    names: Iterable[str] = (),
    *,
    with_default: bool = True,
    progress: Progress | None = None,
) -> CardDatabase:
    """Several sources merged in order, later ones winning, on top of the default (unless left out).

    ``names`` are the card names the caller will resolve (Scryfall fetches them; the default adds
    the real cards the given sources lack).
    """
    from cockatrice_ext.cards.resolve import NameIndex

    wanted = list(names)
    layers = [
        load_cards_covering(wanted, text)
        if text == SCRYFALL_KEYWORD
        else load_cards(text, names=wanted, progress=progress)
        for text in sources
    ]
    merged = CardDatabase(
        source=" + ".join(db.source or text for db, text in zip(layers, sources, strict=False))
    )
    for layer in reversed(layers):  # the first definition of a name wins: the last source goes first
        merged.merge(layer)
        merged.name_hints.update(layer.name_hints)
    merged.link_reverse_related()
    index = NameIndex(merged)
    missing = [name for name in wanted if index.find(name) is None]
    if with_default:
        # the default adds what the given sources lack: names, the tokens their cards make
        lacking = missing + sorted(
            {r for card in merged.cards.values() for r in card.related} - set(merged.cards)
        )
        if lacking or not wanted:
            bottom = default_source()  # the built-in cards, or what $COCKATRICE_EXT_CARDS puts in their place
            default = load_cards_covering(lacking, bottom) if lacking else load_cards(bottom)
            merged.merge(default)
            merged.name_hints.update(default.name_hints)
            index = NameIndex(merged)
            missing = [name for name in missing if index.find(name) is None]
    if missing:  # suggestions may come from every name of the cached sources, not only the loaded ones
        merged.name_hints.update(
            _cached_name_hints([*sources, default_source()] if with_default else sources)
        )
    merged.link_reverse_related()
    return merged


def _cached_name_hints(sources: Iterable[str]) -> dict[str, str]:
    """Folded name -> name of every card in the parsed-file caches of ``sources`` (for "did you mean")."""
    from cockatrice_ext.cards.cache import open_cached

    hints: dict[str, str] = {}
    for text in sources:
        if text in DEFAULT_KEYWORDS or text == SCRYFALL_KEYWORD:
            continue
        for path in _expand(text):
            store = open_cached(path) if path.is_file() else None
            if store is not None:
                hints.update(store.name_hints())
    return hints
