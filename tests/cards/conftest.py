"""Fixtures for the card-data tests: real files from ../shared (tests/shared_paths.py), MTGJSON extracts."""

from __future__ import annotations

import gzip
import json
import lzma
from pathlib import Path
from typing import Any

import pytest
from shared_paths import ALL_PRINTINGS as ALLPRINTINGS
from shared_paths import COCKATRICE_FILES as COCKATRICE
from shared_paths import EXAMPLES

EXTRACT_SETS = ("APC", "ISD", "M19", "ELD", "TSP", "ZEN")


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} not available")
    return path


@pytest.fixture(scope="session")
def examples() -> Path:
    return _need(EXAMPLES)


@pytest.fixture(scope="session")
def shared_cockatrice() -> Path:
    return _need(COCKATRICE)


@pytest.fixture(scope="session")
def mtgjson_extract(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real MTGJSON data cut down to a few sets, in every file shape the reader accepts.

    Keys: ``allprintings_xz`` / ``allprintings_gz`` / ``allprintings_json`` (AllPrintings shape),
    ``set_M19`` (a per-set file), ``atomic`` (AtomicCards shape built from the same entries).
    """
    _need(ALLPRINTINGS)
    with lzma.open(ALLPRINTINGS) as handle:
        full = json.load(handle)
    meta = full["meta"]
    data = {code: full["data"][code] for code in EXTRACT_SETS}
    del full
    out = tmp_path_factory.mktemp("mtgjson")
    document = json.dumps({"meta": meta, "data": data}).encode()
    paths = {
        "allprintings_json": out / "AllPrintings.json",
        "allprintings_gz": out / "AllPrintings.json.gz",
        "allprintings_xz": out / "AllPrintings.json.xz",
        "set_M19": out / "M19.json",
        "atomic": out / "AtomicCards.json",
    }
    paths["allprintings_json"].write_bytes(document)
    paths["allprintings_gz"].write_bytes(gzip.compress(document, compresslevel=1, mtime=0))
    paths["allprintings_xz"].write_bytes(lzma.compress(document, preset=0))
    paths["set_M19"].write_text(json.dumps({"meta": meta, "data": data["M19"]}))
    atomic: dict[str, list[dict[str, Any]]] = {}
    drop = {"number", "setCode", "uuid", "rarity", "identifiers", "artist", "availability", "borderColor"}
    for set_data in data.values():
        for entry in set_data["cards"]:
            faces = atomic.setdefault(entry["name"], [])
            face = {k: v for k, v in entry.items() if k not in drop and k != "name"}
            face["printings"] = [set_data["code"]]
            if not any(f.get("side") == face.get("side") for f in faces):
                faces.append(face)
    paths["atomic"].write_text(json.dumps({"meta": meta, "data": atomic}))
    return paths


@pytest.fixture(autouse=True)
def own_card_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Every test caches parsed card files in a folder of its own, never in the user's cache."""
    folder = tmp_path / "card-cache"
    monkeypatch.setenv("COCKATRICE_EXT_CACHE", str(folder))
    return folder
