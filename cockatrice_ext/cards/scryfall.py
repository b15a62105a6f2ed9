"""Scryfall card objects: the bulk-data files (streamed) and the ``/cards/collection`` API.

The API client is polite by construction: one request at a time, at least ``min_interval``
seconds apart (Scryfall asks for 50-100 ms), a User-Agent naming cockatrice-ext, batches of 75
identifiers (the endpoint's limit), and an on-disk JSON cache so a name is fetched once.
Base URL, session, clock and sleep are injectable so tests run against a loopback server.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cockatrice_ext import __version__ as _VERSION
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.jsonio import iter_json_array, load_json, open_binary
from cockatrice_ext.cards.model import Card, CardDatabase, CardSet, Face, Printing
from cockatrice_ext.cards.mtgjson import creates_token
from cockatrice_ext.cards.text import colors_of, mana_value_of, normalise_rarity, split_type_line

LOGGER = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.scryfall.com"
USER_AGENT = f"cockatrice-ext/{_VERSION} (+https://github.com/cockatrice-ext)"
BATCH_SIZE = 75
_NOT_FOUND = "__not_found__"


def _face(obj: dict[str, Any], parent: dict[str, Any], side: str) -> Face:
    type_line = str(obj.get("type_line") or "")
    supers, types, subs = split_type_line(type_line)
    cost = str(obj.get("mana_cost") or "")
    cmc = obj.get("cmc") if "cmc" in obj else (parent.get("cmc") if side == "a" else None)
    return Face(
        name=str(obj.get("name") or ""),
        mana_cost=cost,
        mana_value=float(cmc) if isinstance(cmc, (int, float)) else mana_value_of(cost),
        colors=colors_of(obj.get("colors") if "colors" in obj else parent.get("colors") or []),
        supertypes=supers,
        types=types,
        subtypes=subs,
        type_line=type_line,
        oracle_text=str(obj.get("oracle_text") or ""),
        power=obj.get("power"),
        toughness=obj.get("toughness"),
        loyalty=obj.get("loyalty"),
        defense=obj.get("defense"),
        side=side,
    )


def card_from_scryfall(obj: dict[str, Any], *, source: str = "") -> Card:
    """One Scryfall card object (with or without ``card_faces``) as a :class:`Card`."""
    if not isinstance(obj, dict) or not obj.get("name"):
        raise CardDataError("not a Scryfall card object (no name)", source=source)
    try:
        return _card_from_scryfall(obj)
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        raise CardDataError(f"unexpected Scryfall card object: {exc}", source=source) from exc


def _card_from_scryfall(obj: dict[str, Any]) -> Card:
    raw_faces = obj.get("card_faces") or [obj]
    faces = tuple(_face(f, obj, "abcdefgh"[i]) for i, f in enumerate(raw_faces[:8]) if isinstance(f, dict))
    multiverse = obj.get("multiverse_ids") or []
    printing = Printing(
        set_code=str(obj.get("set") or "").upper(),
        collector_number=str(obj.get("collector_number") or ""),
        rarity=normalise_rarity(str(obj.get("rarity") or "")),
        scryfall_id=str(obj.get("id") or ""),
        multiverse_id=str(multiverse[0]) if multiverse else "",
        set_name=str(obj.get("set_name") or ""),
        release_date=str(obj.get("released_at") or ""),
        # a double-faced card's ids are the front's, then the back's (Oracle writes each face its own)
        back_multiverse_id=str(multiverse[1]) if len(faces) > 1 and len(multiverse) > 1 else "",
    )
    layout = str(obj.get("layout") or "normal")
    is_token = layout in ("token", "double_faced_token") or "Token" in (faces[0].types if faces else ())
    related = [
        str(part.get("name"))
        for part in obj.get("all_parts") or ()
        if isinstance(part, dict) and part.get("component") == "token" and part.get("name") != obj.get("name")
    ]
    if is_token or layout == "dungeon":
        # a token's all_parts also names the tokens made alongside it, or by its makers: only what it creates
        related = [name for name in related if creates_token([f.oracle_text for f in faces], name)]
    return Card(
        name=str(obj["name"]),
        layout=layout,
        faces=faces,
        color_identity=colors_of(obj.get("color_identity") or []),
        printings=(printing,) if printing.set_code else (),
        is_token=is_token,
        related=tuple(dict.fromkeys(related)),
    )


def _add(db: CardDatabase, card: Card) -> None:
    db.add(card)
    for printing in card.printings:
        if printing.set_code not in db.sets:
            db.sets[printing.set_code] = CardSet(
                code=printing.set_code, name=printing.set_name, release_date=printing.release_date
            )


def read_scryfall_bulk(path: str | Path, progress: Callable[[int], None] | None = None) -> CardDatabase:
    """Read a Scryfall bulk-data file (a JSON array of card objects; plain, .gz or .xz), streamed."""
    label = str(path)
    db = CardDatabase(source=label)
    with open_binary(path, progress) as handle:
        for index, obj in enumerate(iter_json_array(handle, label)):
            if not isinstance(obj, dict) or obj.get("object", "card") != "card" or not obj.get("name"):
                raise CardDataError(f"item {index} is not a Scryfall card object", source=label)
            _add(db, card_from_scryfall(obj, source=f"{label} item {index}"))
    return db


def _cache_key(identifier: dict[str, str]) -> str:
    return "|".join(f"{k}={v.casefold()}" for k, v in sorted(identifier.items()))


class ScryfallClient:
    """Fetch cards from the Scryfall API by name (or set + number), politely and with a cache."""

    def __init__(
        self,
        *,
        base_url: str = DEFAULT_BASE_URL,
        cache_path: str | Path | None = None,
        min_interval: float = 0.1,
        session: Any = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        timeout: float = 30.0,
    ) -> None:
        import requests  # only the API client pays for requests

        self.base_url = base_url.rstrip("/")
        self.cache_path = Path(cache_path) if cache_path else None
        self.min_interval = max(min_interval, 0.1)
        self.session = session or requests.Session()
        self.session.headers.update({"User-Agent": USER_AGENT, "Accept": "application/json;q=0.9,*/*;q=0.8"})
        self._clock = clock
        self._sleep = sleep
        self._last_request: float | None = None
        self.timeout = timeout
        self.requests_made = 0
        self._cache: dict[str, Any] = self._load_cache()

    def _load_cache(self) -> dict[str, Any]:
        if self.cache_path is None or not self.cache_path.exists():
            return {}
        try:
            data = load_json(self.cache_path)
        except CardDataError as exc:
            LOGGER.warning("ignoring unreadable Scryfall cache: %s", exc)
            return {}
        return data if isinstance(data, dict) else {}

    def _save_cache(self) -> None:
        if self.cache_path is None:
            return
        import json

        from cockatrice_ext.fsutil import atomic_write_text

        atomic_write_text(self.cache_path, json.dumps(self._cache, sort_keys=True, ensure_ascii=False))

    def _wait_turn(self) -> None:
        if self._last_request is not None:
            wait = self.min_interval - (self._clock() - self._last_request)
            if wait > 0:
                self._sleep(wait)
        self._last_request = self._clock()

    def _post_collection(self, identifiers: list[dict[str, str]]) -> dict[str, Any]:
        url = f"{self.base_url}/cards/collection"
        for attempt in range(3):
            self._wait_turn()
            self.requests_made += 1
            try:
                response = self.session.post(url, json={"identifiers": identifiers}, timeout=self.timeout)
            except Exception as exc:  # requests' exceptions, without importing them at module level
                raise CardDataError(
                    f"cannot reach Scryfall ({type(exc).__name__}); for offline work leave out"
                    " --card-source scryfall (the built-in data holds every real card up to about April"
                    " 2022) or give a downloaded file",
                    source=url,
                ) from exc
            if response.status_code == 429 and attempt < 2:
                retry_after = response.headers.get("Retry-After", "1")
                try:
                    delay = min(float(retry_after), 60.0)
                except ValueError:
                    delay = 1.0
                LOGGER.warning("Scryfall asked us to slow down; waiting %.1f s", delay)
                self._sleep(delay)
                continue
            if response.status_code != 200:
                detail = ""
                try:
                    detail = str(response.json().get("details", ""))
                except ValueError:
                    detail = response.text[:200]
                raise CardDataError(f"HTTP {response.status_code}: {detail}".rstrip(": "), source=url)
            try:
                body = response.json()
            except ValueError as exc:
                raise CardDataError("malformed JSON in response", source=url) from exc
            if not isinstance(body, dict):
                raise CardDataError("unexpected response (not a JSON object)", source=url)
            return body
        raise CardDataError("rate limited (HTTP 429) three times", source=url)

    def fetch(self, identifiers: Iterable[dict[str, str] | str]) -> tuple[list[Card], list[dict[str, str]]]:
        """Fetch cards for ``identifiers`` (names, or dicts like ``{"set": "m19", "collector_number": "1"}``).

        Returns ``(cards, not_found)``. Cached answers (including "not found") are reused.
        """
        wanted = [{"name": i} if isinstance(i, str) else dict(i) for i in identifiers]
        missing = [
            i for i in dict((_cache_key(i), i) for i in wanted).values() if _cache_key(i) not in self._cache
        ]
        for start in range(0, len(missing), BATCH_SIZE):
            batch = missing[start : start + BATCH_SIZE]
            body = self._post_collection(batch)
            found = [obj for obj in body.get("data") or () if isinstance(obj, dict)]
            by_name = {str(o.get("name", "")).casefold(): o for o in found}
            by_face = {
                str(f.get("name", "")).casefold(): o
                for o in found
                for f in o.get("card_faces") or ()
                if isinstance(f, dict)
            }
            by_print = {
                (str(o.get("set", "")).casefold(), str(o.get("collector_number", ""))): o for o in found
            }
            for ident in batch:
                key = _cache_key(ident)
                if "name" in ident:
                    obj = by_name.get(ident["name"].casefold()) or by_face.get(ident["name"].casefold())
                else:
                    obj = by_print.get((ident.get("set", "").casefold(), ident.get("collector_number", "")))
                self._cache[key] = obj if obj is not None else _NOT_FOUND
            self._save_cache()
        cards: list[Card] = []
        not_found: list[dict[str, str]] = []
        for ident in wanted:
            cached = self._cache.get(_cache_key(ident), _NOT_FOUND)
            if cached == _NOT_FOUND:
                not_found.append(ident)
            else:
                cards.append(card_from_scryfall(cached))
        return cards, not_found

    def cached_cards(self) -> list[Card]:
        """Every card in the on-disk cache."""
        return [card_from_scryfall(obj) for obj in self._cache.values() if isinstance(obj, dict)]

    def database(self, names: Iterable[str]) -> CardDatabase:
        """The named cards plus everything cached before (unknown names are logged and left out)."""
        cards, not_found = self.fetch(list(names))
        cards = cards + self.cached_cards()
        db = CardDatabase(source=self.base_url)
        for card in cards:
            _add(db, card)
        for ident in not_found:
            LOGGER.warning("Scryfall does not know %s", ident)
        return db
