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
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import CardDatabase
from cockatrice_ext.cards.store import CardStore, write_store

LOGGER = logging.getLogger(__name__)

CACHE_VERSION = "1"
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


def _blobs_digest(con: sqlite3.Connection) -> str:
    digest = hashlib.sha256()
    for key, data in con.execute("SELECT key, data FROM blobs ORDER BY key"):
        if not isinstance(key, str) or not isinstance(data, bytes):
            raise ValueError("malformed blob row")
        digest.update(key.encode("utf-8") + b"\0" + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def open_cached(source: Path) -> CardStore | None:
    """The valid cache of ``source``, or ``None`` (missing, stale or corrupt)."""
    path = cache_file(source)
    if not path.is_file():
        return None
    try:
        store = CardStore(path, label=str(source))
        wanted = _identity(source)
        if any(store.meta.get(k) != v for k, v in wanted.items()):
            return None
        if store.meta.get("blobs_sha256") != _blobs_digest(store._db):
            LOGGER.warning("card cache %s is corrupt; rebuilding it", path)
            return None
        return store
    except (CardDataError, sqlite3.Error, OSError, ValueError):
        return None


def write_cache(source: Path, db: CardDatabase) -> None:
    """Keep ``db`` (parsed from ``source``) for the next run; atomic, and silent if it cannot be written."""
    target = cache_file(source)
    scratch = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_store(db, scratch, meta=_identity(source), compact=False, level=1)
        con = sqlite3.connect(scratch)
        try:
            con.execute("INSERT INTO meta VALUES ('blobs_sha256', ?)", (_blobs_digest(con),))
            con.commit()
        finally:
            con.close()
        os.replace(scratch, target)
    except (OSError, sqlite3.Error) as exc:
        LOGGER.info("could not cache %s: %s", source, exc)
        with contextlib.suppress(OSError):
            scratch.unlink()


def load_cached(source: Path, names: list[str], parse: Callable[[Path], CardDatabase]) -> CardDatabase:
    """``source``'s cards: from the cache when valid (only those behind ``names``, if any), else parsed."""
    store = open_cached(source)
    if store is None:
        db = parse(source)
        write_cache(source, db)
        store = open_cached(source) if names else None  # the same cards a later run gets, and fewer to merge
        if store is None:
            return db
    if not names:
        return store.all_cards()
    return store.cards_for(names)
