"""An on-disk cache of parsed big card files (Cockatrice ``cards.xml``/``tokens.xml``, MTGJSON, Scryfall).

Parsing a 32k-card ``cards.xml`` takes seconds; the cache keeps the parsed cards in the shipped
store's format (:mod:`cockatrice_ext.cards.store`: a folded-name index plus zlib'd chunks), so a
repeated run reads only the index and the cards it asks for.

One cache file per source path, under ``cache_dir()/parsed/``. It is used only when its ``meta``
names the same format version, resolved path, size and modification time as the source, and the
SHA-256 of its blobs matches the one recorded: anything else (a changed source, a truncated or
tampered cache, a file that is not SQLite) is ignored and the cache rebuilt. Failing to write the
cache (read-only disk) only costs the next run a parse.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

from cockatrice_ext.cards.errors import CardDataError, Warn, routed_warning, warnings_to
from cockatrice_ext.cards.model import CardDatabase
from cockatrice_ext.cards.store import SAID, CardStore, write_store

LOGGER = logging.getLogger(__name__)

CACHE_VERSION = "7"  # 2: links and back faces kept; 3: back faces' multiverse ids; 4: cipt, hybrid costs;
# 5: what the source's read said of its cards kept (store.SAID), said again on every load; 6: art-series
# cards marked (store.ART_BLOB), never offered as "did you mean"; 7: a card file's <tablerow> kept
# (Face.tablerow)
MIN_CACHED_BYTES = 1024 * 1024  # smaller files parse faster than a cache opens


def cache_file(source: Path) -> Path:
    """Where the parsed copy of ``source`` lives."""
    from cockatrice_ext.cards.sources import cache_dir

    digest = hashlib.sha256(str(source.resolve()).encode("utf-8")).hexdigest()[:32]
    return cache_dir() / "parsed" / f"{digest}.sqlite3"


def _identity(source: Path) -> dict[str, str]:
    stat = source.stat()
    return {
        "cache_version": CACHE_VERSION,
        "source_path": str(source.resolve()),
        "source_size": str(stat.st_size),
        "source_mtime_ns": str(stat.st_mtime_ns),
    }


def blobs_digest(rows: Iterable[tuple[object, object]]) -> str:
    """The seal of a store file: SHA-256 over its ``blobs`` rows (key, data), given in key order."""
    digest = hashlib.sha256()
    for key, data in rows:
        if not isinstance(key, str) or not isinstance(data, bytes):
            raise ValueError("malformed blob row")
        digest.update(key.encode("utf-8") + b"\0" + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def _blobs_digest(con: sqlite3.Connection) -> str:
    return blobs_digest(con.execute("SELECT key, data FROM blobs ORDER BY key"))


def index_file(source: Path) -> Path:
    """Where the byte-range index of a Cockatrice XML ``source`` lives (see ``xml_index``)."""
    return cache_file(source).with_suffix(".xml-index.sqlite3")


def open_cached(source: Path) -> CardStore | None:
    """The valid cache of ``source`` (its parsed cards, else its XML index), or ``None``."""
    return _open_parsed(source) or _open_index(source)


def _seal(path: Path) -> None:
    """Record the digest of ``path``'s blobs, so a damaged or altered cache is never trusted."""
    con = sqlite3.connect(path)
    try:
        con.execute("INSERT INTO meta VALUES ('blobs_sha256', ?)", (_blobs_digest(con),))
        con.commit()
    finally:
        con.close()


def _open_parsed(source: Path) -> CardStore | None:
    return _open_checked(source, cache_file(source), lambda path: CardStore(path, label=str(source)))


def _open_index(source: Path) -> CardStore | None:
    from cockatrice_ext.cards.xml_index import XmlIndexStore

    return _open_checked(
        source, index_file(source), lambda path: XmlIndexStore(path, source, label=str(source))
    )


def _open_checked(source: Path, path: Path, opener: Callable[[Path], CardStore]) -> CardStore | None:
    """The store at ``path`` if it was made from ``source`` as it is now and its blobs are intact."""
    if not path.is_file():
        return None
    try:
        store = opener(path)
        if any(store.meta.get(k) != v for k, v in _identity(source).items()):
            return None
        if store.meta.get("blobs_sha256") != _blobs_digest(store._db):
            LOGGER.warning("card cache %s is corrupt; rebuilding it", path)
            return None
        return store
    except (CardDataError, sqlite3.Error, OSError, ValueError):
        return None


def _index(source: Path) -> CardStore | None:
    """Index a Cockatrice XML ``source`` (atomically, beside the cache) and open it; None if it cannot be."""
    from cockatrice_ext.cards.xml_index import XmlIndexStore, build_index

    target = index_file(source)
    scratch = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        indexed = build_index(source, scratch, _identity(source))  # sealed as it is written
        if indexed is None:
            return None
        os.replace(scratch, target)
        return XmlIndexStore(target, source, label=str(source), source_bytes=indexed)
    except (OSError, sqlite3.Error, CardDataError) as exc:
        LOGGER.info("could not index %s: %s", source, exc)
        return None
    finally:
        with contextlib.suppress(OSError):
            scratch.unlink()


def write_cache(source: Path, db: CardDatabase, said: Iterable[str] = ()) -> None:
    """Keep ``db`` (parsed from ``source``) for the next run, with what its read ``said`` of the cards (each
    line without the source's name in front: :data:`store.SAID`); atomic, and silent if it cannot be
    written."""
    target = cache_file(source)
    scratch = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_store(db, scratch, meta=_identity(source), compact=False, level=1)
        lines = list(said)
        if lines:
            _add_blob(scratch, SAID, json.dumps(lines, ensure_ascii=False).encode("utf-8"))
        _seal(scratch)
        os.replace(scratch, target)
    except (OSError, sqlite3.Error) as exc:
        LOGGER.info("could not cache %s: %s", source, exc)
        with contextlib.suppress(OSError):
            scratch.unlink()


def _add_blob(path: Path, key: str, data: bytes) -> None:
    """Add blob ``key`` to the store file at ``path`` (before it is sealed)."""
    con = sqlite3.connect(path)
    try:
        con.execute("INSERT INTO blobs VALUES (?, ?)", (key, zlib.compress(data, 1)))
        con.commit()
    finally:
        con.close()


def _card_file_warn() -> Warn:
    """Where a read of a card file says its warnings now: what :func:`warnings_to` gave, else the XML
    reader's log."""
    warn = routed_warning()
    if warn is None:
        from cockatrice_ext.cards.cockatrice_xml import _log_warning

        warn = _log_warning
    return warn


def _parse_keeping_said(
    source: Path, parse: Callable[[Path], CardDatabase]
) -> tuple[CardDatabase, list[str]]:
    """``parse(source)``, what it says passed on as ever, and kept: each line without the source's name in
    front (one naming it otherwise is kept as ``: line``), as :meth:`CardStore.said` gives it back."""
    said: list[str] = []
    label = str(source)
    outer = routed_warning()

    def keep(line: str) -> None:
        said.append(line[len(label) :] if line.startswith(f"{label}:") else f": {line}")
        if outer is not None:
            outer(line)
        else:  # the XML reader's log, imported only when something is said
            from cockatrice_ext.cards.cockatrice_xml import _log_warning

            _log_warning(line)

    with warnings_to(keep):
        db = parse(source)
    return db, said


def load_cached(source: Path, names: list[str], parse: Callable[[Path], CardDatabase]) -> CardDatabase:
    """``source``'s cards: from the cache when valid (only those behind ``names``, if any), else parsed.

    A first load that asks for some names of a Cockatrice XML file indexes it rather than parsing
    every card (:mod:`cockatrice_ext.cards.xml_index`); a load of every card keeps them all. Either way
    what a full read of the file says of its cards (a ``pt`` given by half, a type-line typo: see
    ``cockatrice_xml._check_card``) is said, on every load: a cache keeps it (:meth:`CardStore.said`).
    """
    from cockatrice_ext.cards.xml_index import IndexMismatch

    store = open_cached(source)
    if store is None and names and is_cockatrice_xml(source):
        store = _index(source)
    if store is not None:
        try:
            found = store.cards_for(names) if names else store.all_cards()
            said = store.said(str(source))
        except IndexMismatch as exc:
            LOGGER.warning("%s; reading the whole file", exc)
            with contextlib.suppress(OSError):
                index_file(source).unlink()
        else:
            if said:
                warn = _card_file_warn()
                for line in said:
                    warn(line)
            return found
    db, said = _parse_keeping_said(source, parse)
    write_cache(source, db, said)
    store = open_cached(source) if names else None  # the same cards a later run gets, and fewer to merge
    if store is None:
        return db
    return store.cards_for(names)


def is_cockatrice_xml(source: Path) -> bool:
    """Whether ``source`` is a Cockatrice card database (by :func:`sources.is_card_database_xml`)."""
    from cockatrice_ext.cards.sources import is_card_database_xml

    return is_card_database_xml(source)
