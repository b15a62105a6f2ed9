"""Scryfall: bulk files (streamed) and the /cards/collection client against a loopback server."""

from __future__ import annotations

import contextlib
import gzip
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.jsonio import iter_json_array
from cockatrice_ext.cards.scryfall import (
    BATCH_SIZE,
    USER_AGENT,
    ScryfallClient,
    card_from_scryfall,
    read_scryfall_bulk,
)
from cockatrice_ext.cards.sources import load_cards

# Shaped like Scryfall's documented card objects (fields trimmed).
BOLT = {
    "object": "card",
    "id": "77c6fa74-5543-42ac-9ead-0e890b188e99",
    "name": "Lightning Bolt",
    "layout": "normal",
    "mana_cost": "{R}",
    "cmc": 1.0,
    "type_line": "Instant",
    "oracle_text": "Lightning Bolt deals 3 damage to any target.",
    "colors": ["R"],
    "color_identity": ["R"],
    "set": "m11",
    "set_name": "Magic 2011",
    "collector_number": "149",
    "rarity": "common",
    "released_at": "2010-07-16",
    "multiverse_ids": [205913],
}
DELVER = {
    "object": "card",
    "id": "11bf83bb-c95b-4b4f-9a56-ce7a1816307a",
    "name": "Delver of Secrets // Insectile Aberration",
    "layout": "transform",
    "cmc": 1.0,
    "type_line": "Creature — Human Wizard // Creature — Human Insect",
    "color_identity": ["U"],
    "set": "isd",
    "collector_number": "51",
    "rarity": "common",
    "card_faces": [
        {
            "name": "Delver of Secrets",
            "mana_cost": "{U}",
            "type_line": "Creature — Human Wizard",
            "oracle_text": "At the beginning of your upkeep, ...",
            "colors": ["U"],
            "power": "1",
            "toughness": "1",
        },
        {
            "name": "Insectile Aberration",
            "mana_cost": "",
            "type_line": "Creature — Human Insect",
            "oracle_text": "Flying",
            "colors": ["U"],
            "power": "3",
            "toughness": "2",
        },
    ],
}
PROCESSION = {
    "object": "card",
    "id": "a1d6e0b6-0b9c-4fa6-8b9c-000000000001",
    "name": "Spectral Procession",
    "layout": "normal",
    "mana_cost": "{2/W}{2/W}{2/W}",
    "cmc": 6.0,
    "type_line": "Sorcery",
    "colors": ["W"],
    "set": "shm",
    "collector_number": "14",
    "rarity": "uncommon",
    "all_parts": [
        {"object": "related_card", "component": "combo_piece", "name": "Spectral Procession"},
        {"object": "related_card", "component": "token", "name": "Spirit"},
    ],
}
CARDS = {c["name"]: c for c in (BOLT, DELVER, PROCESSION)}


def test_bulk_file_streamed(tmp_path: Path) -> None:
    path = tmp_path / "default-cards.json.gz"
    # Scryfall's own layout: one object per line inside the array
    text = "[\n" + ",\n".join(json.dumps(c) for c in CARDS.values()) + "\n]\n"
    path.write_bytes(gzip.compress(text.encode()))
    db = load_cards(path)
    assert set(db.cards) == set(CARDS)
    delver = db.cards["Delver of Secrets // Insectile Aberration"]
    assert [f.name for f in delver.faces] == ["Delver of Secrets", "Insectile Aberration"]
    assert delver.faces[1].side == "b" and delver.faces[0].mana_value == 1.0
    bolt = db.cards["Lightning Bolt"].printings[0]
    assert (bolt.set_code, bolt.collector_number, bolt.multiverse_id) == ("M11", "149", "205913")
    assert db.cards["Spectral Procession"].related == ("Spirit",)
    assert db.sets["M11"].name == "Magic 2011"


def test_bulk_malformed_names_line(tmp_path: Path) -> None:
    path = tmp_path / "bulk.json"
    path.write_text("[\n" + json.dumps(BOLT) + ',\n{"name": oops}\n]')
    with pytest.raises(CardDataError) as info:
        read_scryfall_bulk(path)
    assert info.value.line == 3


def test_iter_json_array_across_small_chunks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import cockatrice_ext.cards.jsonio as jsonio

    monkeypatch.setattr(jsonio, "_CHUNK", 7)
    items = [{"a": i, "s": "x" * i} for i in range(30)] + [12345678, "tail"]
    path = tmp_path / "a.json"
    path.write_text(json.dumps(items))
    with open(path, "rb") as handle:
        assert list(iter_json_array(handle, "a.json")) == items


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_iter_json_array(data: bytes) -> None:
    import io

    with contextlib.suppress(CardDataError):
        list(iter_json_array(io.BytesIO(data), "fuzz"))


class _Handler(BaseHTTPRequestHandler):
    """A tiny stand-in for POST /cards/collection."""

    server: Any

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length))
        self.server.requests.append(
            {"path": self.path, "body": body, "agent": self.headers.get("User-Agent")}
        )
        if self.server.fail_with:
            status = self.server.fail_with.pop(0)
            payload = json.dumps({"object": "error", "status": status, "details": "boom"}).encode()
            self.send_response(status)
            if status == 429:
                self.send_header("Retry-After", "0")
        else:
            found, missing = [], []
            for ident in body["identifiers"]:
                card = CARDS.get(ident.get("name", ""))
                if card is None:
                    card = next(
                        (
                            c
                            for c in CARDS.values()
                            if any(f["name"] == ident.get("name") for f in c.get("card_faces", ()))
                        ),
                        None,
                    )
                if card is None and ident.get("name", "").startswith("Filler "):
                    card = {**BOLT, "name": ident["name"]}
                (found if card else missing).append(card or ident)
            payload = json.dumps({"object": "list", "data": found, "not_found": missing}).encode()
            self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


@pytest.fixture()
def fake_scryfall() -> Iterator[Any]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.requests = []  # type: ignore[attr-defined]
    server.fail_with = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


class _FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def _client(server: Any, tmp_path: Path, fake: _FakeTime) -> ScryfallClient:
    host, port = server.server_address
    return ScryfallClient(
        base_url=f"http://{host}:{port}",
        cache_path=tmp_path / "scryfall-cache.json",
        clock=fake.clock,
        sleep=fake.sleep,
    )


def test_collection_batches_of_75_and_user_agent(fake_scryfall: Any, tmp_path: Path) -> None:
    fake = _FakeTime()
    client = _client(fake_scryfall, tmp_path, fake)
    names = [f"Filler {i}" for i in range(160)] + ["Lightning Bolt", "Insectile Aberration", "No Such Card"]
    cards, not_found = client.fetch(names)
    assert [len(r["body"]["identifiers"]) for r in fake_scryfall.requests] == [BATCH_SIZE, BATCH_SIZE, 13]
    assert all(r["path"] == "/cards/collection" for r in fake_scryfall.requests)
    assert all(r["agent"] == USER_AGENT and "cockatrice-ext" in r["agent"] for r in fake_scryfall.requests)
    assert len(cards) == 162
    assert not_found == [{"name": "No Such Card"}]
    assert "Delver of Secrets // Insectile Aberration" in {c.name for c in cards}


def test_rate_limit_waits_between_requests(fake_scryfall: Any, tmp_path: Path) -> None:
    fake = _FakeTime()
    client = _client(fake_scryfall, tmp_path, fake)
    client.fetch([f"Filler {i}" for i in range(200)])  # 3 requests back to back on a frozen clock
    assert len(fake_scryfall.requests) == 3
    assert len(fake.slept) == 2 and all(s >= 0.1 for s in fake.slept)
    fake.now += 5  # long after: no wait needed
    client.fetch(["Filler 999"])
    assert len(fake.slept) == 2


def test_cache_hit_avoids_requests_and_survives_restart(fake_scryfall: Any, tmp_path: Path) -> None:
    fake = _FakeTime()
    client = _client(fake_scryfall, tmp_path, fake)
    client.fetch(["Lightning Bolt", "No Such Card"])
    assert len(fake_scryfall.requests) == 1
    again = _client(fake_scryfall, tmp_path, fake)
    cards, not_found = again.fetch(["lightning bolt", "Lightning Bolt", "No Such Card"])
    assert len(fake_scryfall.requests) == 1  # all answered from the on-disk cache
    assert [c.name for c in cards] == ["Lightning Bolt", "Lightning Bolt"]
    assert not_found == [{"name": "No Such Card"}]
    db = again.database(["Spectral Procession"])
    assert "Spectral Procession" in db and len(fake_scryfall.requests) == 2


def test_http_error_is_a_card_data_error(fake_scryfall: Any, tmp_path: Path) -> None:
    fake = _FakeTime()
    client = _client(fake_scryfall, tmp_path, fake)
    fake_scryfall.fail_with = [500]
    with pytest.raises(CardDataError, match="HTTP 500"):
        client.fetch(["Lightning Bolt"])
    fake_scryfall.fail_with = [429]
    cards, _ = client.fetch(["Lightning Bolt"])  # retried after Retry-After
    assert [c.name for c in cards] == ["Lightning Bolt"]


def test_unreachable_server_is_a_card_data_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = ScryfallClient(base_url=f"http://127.0.0.1:{port}", timeout=2)
    with pytest.raises(CardDataError, match=r"cannot reach Scryfall.* up to about April 2022"):
        client.fetch(["Lightning Bolt"])


def test_card_source_scryfall_fetches_what_a_command_needs(
    fake_scryfall: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from cockatrice_ext.cards import sources
    from cockatrice_ext.cli import main

    host, port = fake_scryfall.server_address
    monkeypatch.setenv(sources.SCRYFALL_URL_ENV, f"http://{host}:{port}")
    monkeypatch.setenv(sources.CACHE_DIR_ENV, str(tmp_path / "cache"))
    result = CliRunner().invoke(
        main, ["cards", "lookup", "Insectile Aberration", "--card-source", "scryfall"]
    )
    assert result.exit_code == 0, result.output
    assert "Delver of Secrets  {U}" in result.output
    assert (tmp_path / "cache" / "scryfall-cards.json").is_file()
    # later, without the network: the cache answers
    fake_scryfall.fail_with = [500, 500, 500]
    db = sources.load_cards("scryfall")
    assert "Delver of Secrets // Insectile Aberration" in db
    assert len(fake_scryfall.requests) == 1


def test_a_token_makes_only_what_its_text_creates() -> None:
    """Scryfall's ``all_parts`` on a token also names the tokens it is made beside or made by (Treasure
    lists Goblin Shaman, a dungeon another dungeon): a token or dungeon makes only what its own text
    creates, while a card makes every token it lists."""

    def parts(*names: str) -> list[dict[str, str]]:
        return [{"object": "related_card", "component": "token", "name": name} for name in names]

    treasure = {
        "name": "Treasure",
        "layout": "token",
        "type_line": "Token Artifact — Treasure",
        "oracle_text": "{T}, Sacrifice this artifact: Add one mana of any color.",
        "all_parts": parts("Treasure", "Goblin Shaman"),
    }
    shaman = {
        "name": "Goblin Shaman",
        "layout": "token",
        "type_line": "Token Creature — Goblin Shaman",
        "oracle_text": "Whenever this creature attacks, create a Treasure token.",
        "all_parts": parts("Goblin Shaman", "Treasure"),
    }
    mine = {
        "name": "Lost Mine of Phandelver",
        "layout": "token",
        "type_line": "Dungeon",
        "oracle_text": "Cave Entrance — Scry 1.\nGoblin Lair — Create a 1/1 red Goblin creature token.\n"
        "Storeroom — Put a +1/+1 counter on target creature.\nDark Pool — Each opponent loses 1 life and "
        "you gain 1 life.\nFungi Cavern — Target creature gets -4/-0 until your next turn.\nTemple of "
        "Dumathoin — Draw a card.",
        "all_parts": parts("Goblin", "Treasure", "Tomb of Annihilation"),
    }
    assert card_from_scryfall(treasure).related == ()
    assert card_from_scryfall(shaman).related == ("Treasure",)
    assert card_from_scryfall(mine).related == ("Goblin",)
    assert card_from_scryfall(PROCESSION).related == ("Spirit",)  # a card: every token it lists
