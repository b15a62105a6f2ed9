"""A compressed card source may decompress to at most ``MAX_DECOMPRESSED_BYTES`` (every reader, one cap):
a small file made to expand without end (a decompression bomb) is one ``error:`` line naming the file and
the limit, not all of the machine's memory. The limit is lowered here so that the bombs stay small."""

from __future__ import annotations

import gzip
import io
import json
import lzma
import zipfile
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cards import jsonio
from cockatrice_ext.cards.embedded import decode_database
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.forge import read_forge_cards
from cockatrice_ext.cards.jsonio import load_json
from cockatrice_ext.cards.mtgjson import read_mtgjson
from cockatrice_ext.cards.scryfall import read_scryfall_bulk
from cockatrice_ext.cards.sources import load_cards
from cockatrice_ext.cards.store import FORMAT, VERSION, CardStore, new_store_file
from cockatrice_ext.cli import main

LIMIT = 1 << 20
"""The cap in these tests: 1 MiB."""
OVER = LIMIT * 3
"""How far each bomb expands: past the cap, but quick to build."""


@pytest.fixture(autouse=True)
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        jsonio, "MAX_DECOMPRESSED_BYTES", LIMIT, raising=False
    )  # raising: the old code lacks it


def mtgjson_bomb() -> bytes:
    """An MTGJSON document padded with whitespace: valid, and bigger than the cap."""
    return b'{"meta": {"version": "5.2.0"}, "data": {' + b" " * OVER + b"}}"


def refused_for_size(error: pytest.ExceptionInfo[CardDataError], path: Path) -> None:
    message = str(error.value)
    assert message.startswith(f"{path}: decompresses to more than 1 MiB"), message
    assert "\n" not in message


@pytest.mark.parametrize("compress", [gzip.compress, lzma.compress], ids=["gz", "xz"])
def test_a_json_bomb_is_refused_at_the_cap(tmp_path: Path, compress: object) -> None:
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(compress(mtgjson_bomb()))  # type: ignore[operator]
    assert bomb.stat().st_size < 100_000
    with pytest.raises(CardDataError) as refused:
        load_json(bomb)
    refused_for_size(refused, bomb)
    with pytest.raises(CardDataError) as refused:
        load_cards(bomb)
    refused_for_size(refused, bomb)


def test_the_same_document_plain_is_not_capped(tmp_path: Path) -> None:
    """Only decompression is capped: a plain file's size is what its user sees."""
    plain = tmp_path / "big.json"
    plain.write_bytes(mtgjson_bomb())
    assert load_json(plain)["data"] == {}


def test_a_streamed_scryfall_bomb_is_refused(tmp_path: Path) -> None:
    """The Scryfall reader streams, but a bomb would still take all the time it runs: the same cap."""
    card = {"object": "card", "name": "Island", "layout": "normal", "type_line": "Basic Land — Island"}
    bomb = tmp_path / "default-cards.json.gz"
    bomb.write_bytes(gzip.compress(b"[" + json.dumps(card).encode() + b"," + b" " * OVER + b"]"))
    with pytest.raises(CardDataError) as refused:
        read_scryfall_bulk(bomb)
    refused_for_size(refused, bomb)


def test_an_embedded_card_file_bomb_is_refused(tmp_path: Path) -> None:
    bomb = tmp_path / "cards.json.gz"
    bomb.write_bytes(gzip.compress(b'{"cards":[' + b" " * OVER + b"]}"))
    with pytest.raises(CardDataError) as refused:
        decode_database(bomb.read_bytes(), source=str(bomb))
    refused_for_size(refused, bomb)
    with pytest.raises(CardDataError) as refused:
        load_cards(bomb)
    refused_for_size(refused, bomb)


def test_a_forge_zip_whose_scripts_add_up_past_the_cap_is_refused(tmp_path: Path) -> None:
    """Each script is under the per-script size, and they are few; together they are past the cap."""
    archive = tmp_path / "cardsfolder.zip"
    padding = "# " + "x" * (512 * 1024) + "\n"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for number in range(4):
            out.writestr(f"c/card{number}.txt", f"Name:Card {number}\nTypes:Land\n{padding}")
    with pytest.raises(CardDataError) as refused:
        read_forge_cards(archive)
    refused_for_size(refused, archive)


def test_a_forge_zip_under_the_cap_still_loads(tmp_path: Path) -> None:
    archive = tmp_path / "cardsfolder.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for number in range(4):
            out.writestr(f"c/card{number}.txt", f"Name:Card {number}\nTypes:Land\n")
    assert sorted(read_forge_cards(archive).cards) == [f"Card {n}" for n in range(4)]


@pytest.mark.parametrize("kind", ["allprintings_gz", "allprintings_xz"])
def test_real_mtgjson_loads_up_to_exactly_the_cap(
    mtgjson_extract: dict[str, Path], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """Real card data (a few sets of the shared AllPrintings) loads when it fits the cap to the byte."""
    size = mtgjson_extract["allprintings_json"].stat().st_size
    monkeypatch.setattr(jsonio, "MAX_DECOMPRESSED_BYTES", size, raising=False)
    assert "Jaya Ballard, Task Mage" in read_mtgjson(mtgjson_extract[kind])
    monkeypatch.setattr(jsonio, "MAX_DECOMPRESSED_BYTES", size - 1, raising=False)
    with pytest.raises(CardDataError, match="decompresses to more than"):
        read_mtgjson(mtgjson_extract[kind])


def test_a_damaged_gzip_file_is_a_card_data_error(tmp_path: Path) -> None:
    """zlib's own error used to escape as a traceback."""
    damaged = bytearray(gzip.compress(b'{"a": 1}' * 1000))
    damaged[20:30] = b"\xff" * 10
    path = tmp_path / "damaged.json.gz"
    path.write_bytes(bytes(damaged))
    with pytest.raises(CardDataError, match=f"^{path}: cannot read JSON: "):
        load_json(path)


def test_the_command_line_says_one_error_line(tmp_path: Path) -> None:
    """The smoke test's steps: ``export deck.txt --card-source bomb.json.gz --to text -o -``."""
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(mtgjson_bomb()))
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Island\n")
    result = CliRunner().invoke(
        main, ["export", str(deck), "--card-source", str(bomb), "--to", "text", "-o", "-"]
    )
    assert result.exit_code == 2, result.output  # bad input, as for any unreadable card source
    assert "Traceback" not in result.output and isinstance(result.exception, (SystemExit, type(None)))
    (line,) = [line for line in result.output.splitlines() if line.strip()]
    assert line.startswith(f"error: {bomb}: decompresses to more than 1 MiB"), line


def test_the_budget_counts_across_streams() -> None:
    """One budget for one source: what each member gave adds up."""
    budget = jsonio.DecompressionBudget("archive.zip")
    assert budget.read(io.BytesIO(b"x" * LIMIT), LIMIT) == b"x" * LIMIT
    with pytest.raises(CardDataError, match=r"^archive\.zip: decompresses to more than 1 MiB"):
        budget.read(io.BytesIO(b"y"))


def test_a_card_store_blob_inflating_past_the_cap_is_refused(tmp_path: Path) -> None:
    """A store or cache file (the user's cache folder is theirs to damage) whose index inflates past the cap
    is an error naming the file, not all of the machine's memory."""
    path = tmp_path / "cache.sqlite3"
    con = new_store_file(path, {"format": FORMAT, "version": str(VERSION)}, [])
    con.execute("INSERT INTO blobs VALUES ('index', ?)", (zlib.compress(b"a\t0\tA\n" * (OVER // 6), 9),))
    con.commit()
    con.close()
    store = CardStore(path)
    with pytest.raises(CardDataError, match="index") as caught:
        _ = store.index
    assert caught.value.source == str(path)


def test_a_card_store_blob_within_the_cap_is_read(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    con = new_store_file(path, {"format": FORMAT, "version": str(VERSION)}, [])
    con.execute("INSERT INTO blobs VALUES ('index', ?)", (zlib.compress(b"a\t0\tA"),))
    con.commit()
    con.close()
    assert CardStore(path).index == {"a": 0}
