"""Every real card, offline, read lazily: the shipped ``cockatrice_ext/data/allcards.sqlite3``.

Theory of operation
-------------------
The file is a small SQLite database (opened read-only, never written at run time) holding

* ``meta``: format, version and where the data came from;
* ``sets``: every set's code, name, type and release date;
* ``blobs``: ``index`` (zlib'd lines ``folded-name TAB card-number TAB name``, one per card name
  and face name) and ``chunk:N`` (zlib'd cards ``N*CHUNK .. N*CHUNK+CHUNK-1``, one compact JSON object per
  line, in :func:`cockatrice_ext.cards.embedded.card_to_json`'s form).

Looking a name up reads the index once (a few milliseconds) and then only the chunks of the cards
asked for, so a 200-card block costs a fraction of a second while every one of MTGJSON's cards and
tokens is known. Printings keep their set, collector number, rarity and Scryfall id (the id
Cockatrice's own database calls ``uuid``); MTGJSON's own uuids and multiverse ids are left out to
keep the file small.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from cockatrice_ext.cards.embedded import card_from_json, card_to_json
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import Card, CardDatabase, CardSet
from cockatrice_ext.cards.resolve import fold_name

FORMAT = "cockatrice-ext-allcards"
VERSION = 1
CHUNK = 128
STORE_FILE = Path(__file__).resolve().parent.parent / "data" / "allcards.sqlite3"


class CardStore:
    """Read-only, lazy access to the shipped file of every card."""

    def __init__(self, path: Path = STORE_FILE) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
            meta = dict(self._db.execute("SELECT key, value FROM meta"))
        except sqlite3.Error as exc:
            raise CardDataError(f"shipped card data unreadable: {exc}", source=str(path)) from exc
        if meta.get("format") != FORMAT or meta.get("version") != str(VERSION):
            raise CardDataError(f"not a {FORMAT} v{VERSION} file", source=str(path))
        self.meta = meta
        self._index: dict[str, int] | None = None
        self._spelled: dict[str, str] = {}
        self._chunks: dict[int, list[bytes]] = {}
        self._sets: dict[str, CardSet] | None = None
        self._set_info: dict[str, tuple[str, str]] | None = None

    # -- reading ---------------------------------------------------------------------------------
    def _blob(self, key: str) -> bytes:
        row = self._db.execute("SELECT data FROM blobs WHERE key=?", (key,)).fetchone()
        if row is None:
            raise CardDataError(f"shipped card data lacks {key}", source=str(self.path))
        try:
            return zlib.decompress(row[0])
        except zlib.error as exc:
            raise CardDataError(f"shipped card data corrupt ({key}): {exc}", source=str(self.path)) from exc

    @property
    def index(self) -> dict[str, int]:
        """Folded card and face name -> card number."""
        if self._index is None:
            index: dict[str, int] = {}
            for line in self._blob("index").decode("utf-8").splitlines():
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
                for code, name, set_type, date in self._db.execute("SELECT code, name, type, date FROM sets")
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
        number = self.index.get(fold_name(name))
        return None if number is None else self.card(number)

    def cards_for(self, names: list[str]) -> CardDatabase:
        """The cards behind ``names`` (unknown ones skipped) plus the tokens and meld results they name."""
        db = CardDatabase(source="every real card (shipped)")
        wanted = [self.find(name) for name in names]
        for card in wanted:
            if card is not None:
                db.cards[card.name] = card
        for card in [c for c in wanted if c is not None]:
            for related in card.related:
                extra = self.find(related)
                if extra is not None:
                    db.cards.setdefault(extra.name, extra)
        used = {p.set_code for c in db.cards.values() for p in c.printings}
        db.sets = {code: s for code, s in self.sets.items() if code in used}
        return db

    def all_cards(self) -> CardDatabase:
        """Every card (reads the whole file: for bulk checks, not for single look-ups)."""
        db = CardDatabase(source="every real card (shipped)", sets=dict(self.sets))
        for number in sorted(set(self.index.values())):
            card = self.card(number)
            db.cards[card.name] = card
        return db

    def name_hints(self) -> dict[str, str]:
        """Folded name -> the name as printed, for every card and face (for "did you mean")."""
        _ = self.index
        return dict(self._spelled)


@lru_cache(maxsize=1)
def shipped_store() -> CardStore:
    """The store shipped with the package (opened once per process)."""
    return CardStore()


def write_store(db: CardDatabase, path: Path, *, meta: dict[str, str]) -> None:
    """Write every card of ``db`` as a store file (reproducible: same cards, same bytes)."""
    if path.exists():
        path.unlink()
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA page_size=4096")
        con.execute("PRAGMA journal_mode=OFF")
        con.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
        con.execute(
            "CREATE TABLE sets(code TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL,"
            " date TEXT NOT NULL) WITHOUT ROWID"
        )
        con.execute("CREATE TABLE blobs(key TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID")
        con.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            sorted({**meta, "format": FORMAT, "version": str(VERSION)}.items()),
        )
        used = {p.set_code for c in db.cards.values() for p in c.printings}
        con.executemany(
            "INSERT INTO sets VALUES (?, ?, ?, ?)",
            [(s.code, s.name, s.set_type, s.release_date) for c, s in sorted(db.sets.items()) if c in used],
        )
        names = sorted(db.cards)
        index: dict[str, tuple[tuple[bool, bool], int, str]] = {}
        for number, name in enumerate(names):
            card = db.cards[name]
            for is_face, spelled in [(False, name)] + [(True, face.name) for face in card.faces]:
                key = fold_name(spelled)
                rank = (card.is_token, is_face)  # real cards first, then whole names before faces
                old = index.get(key)
                if key and (old is None or rank < old[0]):
                    index[key] = (rank, number, spelled)
        lines = "\n".join(f"{key}\t{n}\t{spelled}" for key, (_, n, spelled) in sorted(index.items()))
        rows = [("index", zlib.compress(lines.encode("utf-8"), 9))]
        for start in range(0, len(names), CHUNK):
            chunk = [_compact_json(db.cards[name]) for name in names[start : start + CHUNK]]
            rows.append((f"chunk:{start // CHUNK}", zlib.compress("\n".join(chunk).encode("utf-8"), 9)))
        con.executemany("INSERT INTO blobs VALUES (?, ?)", rows)
        con.commit()
        con.execute("VACUUM")
    finally:
        con.close()


def _compact_json(card: Card) -> str:
    obj = card_to_json(card)
    for printing in obj.get("printings", ()):
        printing[3] = ""  # MTGJSON uuid: not used by Cockatrice or Forge
        printing[5] = ""  # multiverse id
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
