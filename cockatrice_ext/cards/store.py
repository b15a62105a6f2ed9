"""Every real card, offline, read lazily: the shipped ``cockatrice_ext/data/allcards.sqlite3``.

Theory of operation
-------------------
The file is a small SQLite database (opened read-only, never written at run time) holding

* ``meta``: format, version and where the data came from;
* ``sets``: every set's code, name, type and release date;
* ``blobs``: ``index`` (zlib'd lines ``folded-name TAB card-number TAB name``, one per card name
  and face name, plus ``=NAME`` for a name that folds like another's), ``chunk:N`` (zlib'd cards
  ``N*CHUNK .. N*CHUNK+CHUNK-1``, one compact JSON object per line, in
  :func:`cockatrice_ext.cards.embedded.card_to_json`'s form), ``tokens`` (the numbers of the token
  cards, one per line), ``art`` (the numbers of the art-series cards, MTGJSON's ``art_series``: their
  names are never offered as "did you mean", :meth:`CardStore.name_hints`; a file without it has none
  marked) and, when the source had any,
  ``reverse-related`` (zlib'd JSON of the links to creators the file does not hold, as a
  ``tokens.xml`` has).

The same format serves :mod:`cockatrice_ext.cards.cache` (parsed big sources, kept whole).

Looking a name up reads the index once (a few milliseconds) and then only the chunks of the cards
asked for, so a 200-card block costs a fraction of a second while every one of MTGJSON's cards and
tokens is known. Printings keep their set, collector number, rarity and Scryfall id (the id
Cockatrice's own database calls ``uuid``); MTGJSON's own uuids and multiverse ids are left out to
keep the file small.
"""

from __future__ import annotations

import bisect
import json
import sqlite3
import threading
import zlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from cockatrice_ext.cards import jsonio
from cockatrice_ext.cards.embedded import card_from_json, card_to_json
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import Card, CardDatabase, CardSet
from cockatrice_ext.cards.resolve import fold_name

FORMAT = "cockatrice-ext-allcards"
VERSION = 1
CHUNK = 128
SAID = "said"
"""A cache's blob: what reading its source said of the cards (a JSON list, each line without the source's
name in front), said again by every load through the cache (:meth:`CardStore.said`)."""
EXACT = "="  # index key prefix of a name another name folds to: the exact spelling finds it
ART_BLOB = "art"
"""The blob listing the art-series cards' numbers."""
ART_SERIES = "art_series"
STORE_FILE = Path(__file__).resolve().parent.parent / "data" / "allcards.sqlite3"


class CardStore:
    """Read-only, lazy access to the shipped file of every card."""

    store_format = FORMAT  # a subclass keeping its cards elsewhere names its own

    def __init__(self, path: Path = STORE_FILE, *, label: str = "every real card (shipped)") -> None:
        self.path = path
        self.label = label
        # One read-only connection shared by every thread (the bot's loop writes decks, its workers load
        # cards), its queries one at a time (:meth:`_rows`).
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False
            )
            meta = dict(self._rows("SELECT key, value FROM meta"))
        except sqlite3.Error as exc:
            raise CardDataError(f"shipped card data unreadable: {exc}", source=str(path)) from exc
        if meta.get("format") != self.store_format or meta.get("version") != str(VERSION):
            raise CardDataError(f"not a {self.store_format} v{VERSION} file", source=str(path))
        self.meta = meta
        self._index: dict[str, int] | None = None
        self._index_lines: list[str] | None = None
        self._spelled: dict[str, str] = {}
        self._chunks: dict[int, list[bytes]] = {}
        self._sets: dict[str, CardSet] | None = None
        self._set_info: dict[str, tuple[str, str]] | None = None

    # -- reading ---------------------------------------------------------------------------------
    def _rows(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """Every row of one query, from any thread."""
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def _blob(self, key: str) -> bytes:
        row = next(iter(self._rows("SELECT data FROM blobs WHERE key=?", (key,))), None)
        if row is None:
            raise CardDataError(f"shipped card data lacks {key}", source=str(self.path))
        try:
            # Capped like every compressed card source: a cache file is the user's to damage.
            inflater = zlib.decompressobj()
            data = inflater.decompress(row[0], jsonio.MAX_DECOMPRESSED_BYTES)
            if inflater.unconsumed_tail:
                raise zlib.error(f"inflates to more than {jsonio.MAX_DECOMPRESSED_BYTES} bytes")
            return data + inflater.flush()
        except zlib.error as exc:
            raise CardDataError(f"shipped card data corrupt ({key}): {exc}", source=str(self.path)) from exc

    @property
    def _lines(self) -> list[str]:
        """The index's lines, sorted by key (read once; a look-up bisects them, no dict built)."""
        if self._index_lines is None:
            self._index_lines = self._blob("index").decode("utf-8").split("\n")
        return self._index_lines

    def _number(self, key: str) -> int | None:
        lines = self._lines
        at = bisect.bisect_left(lines, key + "\t")
        if at < len(lines) and lines[at].startswith(key + "\t"):
            return int(lines[at].split("\t", 2)[1])
        return None

    @property
    def index(self) -> dict[str, int]:
        """Folded card and face name -> card number."""
        if self._index is None:
            index: dict[str, int] = {}
            for line in self._lines:
                key, number, spelled = line.split("\t", 2)
                index[key] = int(number)
                self._spelled[key] = spelled
            self._index = index
        return self._index

    @property
    def sets(self) -> dict[str, CardSet]:
        if self._sets is None:
            self._sets = {
                code: CardSet(code=code, name=name, set_type=set_type, release_date=date)
                for code, name, set_type, date in self._rows("SELECT code, name, type, date FROM sets")
            }
        return self._sets

    def card(self, number: int) -> Card:
        """Card ``number`` (as the index gives it)."""
        chunk = self._chunks.get(number // CHUNK)
        if chunk is None:
            chunk = self._blob(f"chunk:{number // CHUNK}").split(b"\n")
            self._chunks[number // CHUNK] = chunk
        try:
            obj: dict[str, Any] = json.loads(chunk[number % CHUNK])
        except (IndexError, ValueError) as exc:
            raise CardDataError(f"shipped card data corrupt (card {number})", source=str(self.path)) from exc
        if self._set_info is None:
            self._set_info = {code: (s.name, s.release_date) for code, s in self.sets.items()}
        return card_from_json(obj, self._set_info)

    def find(self, name: str) -> Card | None:
        """The card called ``name`` (card or face name, any case or accents), or None."""
        number = self._number(EXACT + name)
        if number is None:
            number = self._number(fold_name(name))
        return None if number is None else self.card(number)

    def cards_for(self, names: list[str]) -> CardDatabase:
        """The cards behind ``names`` (unknown ones skipped), the tokens and meld results they name, and
        the tokens those tokens make (a dungeon's Goblin)."""
        db = CardDatabase(source=self.label, reverse_related=self.reverse_related())
        wanted = [card for card in map(self.find, names) if card is not None]
        for card in wanted:
            db.cards[card.name] = card
        for card in wanted:  # grows as tokens are found: first the cards' own, in order
            for related in card.related:
                extra = self.find(related)
                if extra is not None and extra.name not in db.cards:
                    db.cards[extra.name] = extra
                    if extra.is_token:
                        wanted.append(extra)
        used = {p.set_code for c in db.cards.values() for p in c.printings}
        db.sets = {code: s for code, s in self.sets.items() if code in used}
        return db

    def all_cards(self) -> CardDatabase:
        """Every card (reads the whole file: for bulk checks, not for single look-ups)."""
        db = CardDatabase(source=self.label, sets=dict(self.sets), reverse_related=self.reverse_related())
        for number in sorted(set(self.index.values())):
            card = self.card(number)
            db.cards[card.name] = card
        return db

    def token_cards(self) -> CardDatabase:
        """Every token, emblem and dungeon of the file (reads only those cards)."""
        db = CardDatabase(source=self.label)
        row = next(iter(self._rows("SELECT 1 FROM blobs WHERE key='tokens'")), None)
        for line in self._blob("tokens").decode("ascii").split("\n") if row else ():
            card = self.card(int(line))
            db.cards[card.name] = card
        return db

    def reverse_related(self) -> dict[str, list[str]]:
        """Links to creators outside this file (creator -> names it makes), as the source had them."""
        row = next(iter(self._rows("SELECT 1 FROM blobs WHERE key='reverse-related'")), None)
        if row is None:
            return {}
        links: dict[str, list[str]] = json.loads(self._blob("reverse-related"))
        return links

    def said(self, label: str) -> list[str]:
        """What reading the source said of its cards (kept by a cache made from it, :data:`SAID`), each with
        ``label``, the source as named now, in front: a load through the cache says what a full read says."""
        row = next(iter(self._rows("SELECT 1 FROM blobs WHERE key=?", (SAID,))), None)
        if row is None:
            return []
        try:
            kept = json.loads(self._blob(SAID))
        except ValueError as exc:
            raise CardDataError(f"card cache corrupt ({SAID}): {exc}", source=str(self.path)) from exc
        return [label + line for line in kept if isinstance(line, str)] if isinstance(kept, list) else []

    def name_hints(self) -> dict[str, str]:
        """Folded name -> the name as printed, for every card and face (for "did you mean"), but an
        art-series card's (``Insectile Aberration // Insectile Aberration``: a picture, no card to play;
        offered, it looks like the name typed twice)."""
        index = self.index
        art = self.art_numbers()
        return {
            key: name
            for key, name in self._spelled.items()
            if not key.startswith(EXACT) and index[key] not in art
        }

    def art_numbers(self) -> frozenset[int]:
        """The numbers of the art-series cards (the ``art`` blob; none in a file written without it)."""
        row = next(iter(self._rows("SELECT 1 FROM blobs WHERE key=?", (ART_BLOB,))), None)
        if row is None:
            return frozenset()
        return frozenset(int(line) for line in self._blob(ART_BLOB).decode("ascii").split("\n") if line)


@lru_cache(maxsize=1)
def shipped_store() -> CardStore:
    """The store shipped with the package (opened once per process)."""
    return CardStore()


def new_store_file(path: Path, meta: dict[str, str], sets: Iterable[CardSet]) -> sqlite3.Connection:
    """A fresh store file at ``path`` with its tables, ``meta`` and ``sets``; the caller adds the blobs."""
    if path.exists():
        path.unlink()
    con = sqlite3.connect(path)
    con.execute("PRAGMA page_size=4096")
    con.execute("PRAGMA journal_mode=OFF")
    con.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
    con.execute(
        "CREATE TABLE sets(code TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL,"
        " date TEXT NOT NULL) WITHOUT ROWID"
    )
    con.execute("CREATE TABLE blobs(key TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID")
    con.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
    con.executemany(
        "INSERT INTO sets VALUES (?, ?, ?, ?)", [(s.code, s.name, s.set_type, s.release_date) for s in sets]
    )
    return con


def write_store(
    db: CardDatabase, path: Path, *, meta: dict[str, str], compact: bool = True, level: int = 9
) -> None:
    """Write every card of ``db`` as a store file (reproducible: same cards, same bytes).

    ``compact`` leaves out MTGJSON uuids and multiverse ids (the shipped file); a cache keeps them and,
    written while the user waits, takes a faster zlib ``level``.
    """
    used = {p.set_code for c in db.cards.values() for p in c.printings}
    sets = [s for code, s in sorted(db.sets.items()) if code in used]
    con = new_store_file(path, {**meta, "format": FORMAT, "version": str(VERSION)}, sets)
    try:
        names = sorted(db.cards)
        lines = index_text(
            (number, name, [face.name for face in db.cards[name].faces], db.cards[name].is_token)
            for number, name in enumerate(names)
        )
        rows = [("index", zlib.compress(lines.encode("utf-8"), level))]
        for start in range(0, len(names), CHUNK):
            chunk = [_card_json(db.cards[name], compact) for name in names[start : start + CHUNK]]
            rows.append((f"chunk:{start // CHUNK}", zlib.compress("\n".join(chunk).encode("utf-8"), level)))
        tokens = [str(number) for number, name in enumerate(names) if db.cards[name].is_token]
        if tokens:
            rows.append(("tokens", zlib.compress("\n".join(tokens).encode("ascii"), level)))
        art = [str(number) for number, name in enumerate(names) if db.cards[name].layout == ART_SERIES]
        if art:
            rows.append((ART_BLOB, zlib.compress("\n".join(art).encode("ascii"), level)))
        if db.reverse_related:
            links = json.dumps(db.reverse_related, sort_keys=True, ensure_ascii=False).encode("utf-8")
            rows.append(("reverse-related", zlib.compress(links, level)))
        con.executemany("INSERT INTO blobs VALUES (?, ?)", rows)
        con.commit()
        con.execute("VACUUM")
    finally:
        con.close()


def index_text(entries: Iterable[tuple[int, str, list[str], bool]]) -> str:
    """The ``index`` blob's text for cards given as (number, name, face names, is token).

    Each folded card or face name points at one card: real cards before tokens, whole names before
    faces; a name that folds like a better-ranked one gets an exact (``=NAME``) line of its own.
    """
    index: dict[str, tuple[int, int, str]] = {}  # key -> (rank, number, spelled): the lowest rank wins
    folded: dict[str, str] = {}
    numbered: list[tuple[int, str]] = []
    for number, name, face_names, is_token in entries:
        numbered.append((number, name))
        rank = 2 if is_token else 0  # real cards first, then whole names before faces (rank + 1)
        for spelled in (name, *face_names):
            key = folded.get(spelled)
            if key is None:  # a face named as its card (most cards) is folded once
                key = folded[spelled] = fold_name(spelled)
            if key and "\t" not in spelled and "\n" not in spelled:  # else it cannot be a line of the index
                old = index.get(key)
                if old is None or rank < old[0]:
                    index[key] = (rank, number, spelled)
            rank |= 1
    for number, name in numbered:  # names that fold alike ("Angel Token", "Angel Token ")
        winner = index.get(folded[name])
        if (winner is None or winner[2] != name) and "\t" not in name and "\n" not in name:
            index[EXACT + name] = (0, number, name)
    return "\n".join(sorted(f"{key}\t{n}\t{spelled}" for key, (_, n, spelled) in index.items()))


def _card_json(card: Card, compact: bool) -> str:
    obj = card_to_json(card)
    for printing in obj.get("printings", ()) if compact else ():
        printing[3] = ""  # MTGJSON uuid: not used by Cockatrice or Forge
        printing[5] = ""  # multiverse id
    if compact and "backs" in obj:  # the back faces' multiverse ids go too
        backs = [row[:2] for row in obj["backs"]]
        if any(any(row) for row in backs):
            obj["backs"] = backs
        else:
            del obj["backs"]
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
