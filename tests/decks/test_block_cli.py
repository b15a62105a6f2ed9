"""``cockatrice-ext block list`` and ``block check`` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.blocks import list_blocks
from cockatrice_ext.cli import main
from cockatrice_ext.decks.model import Deck


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_block_list_shows_every_bundled_block() -> None:
    code, out, _ = run("block", "list")
    assert code == 0
    for name in list_blocks():
        assert name in out
    assert "199  Auction Magic sample block" in out


def test_check_bundled_auction_block() -> None:
    code, out, _ = run("block", "check", "auction-sample")
    assert code == 0
    assert out.startswith("Block auction-sample: 199 cards")
    assert "creatures   104" in out
    assert "Ordeal of Thassa" in out  # draws two cards: warned by name
    assert "mana-value curve" in out


def test_check_json_and_strict(tmp_path: Path) -> None:
    code, out, _ = run("block", "check", "auction-sample", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["total"] == 199 and data["creatures"] == 104
    assert "Wild Guess" in data["draw_more_than_one"]
    assert {w["code"] for w in data["warnings"]} >= {"draw", "board-stall"}
    assert sum(data["curve"].values()) == 199 - data["lands"]
    code, _, _ = run("block", "check", "auction-sample", "--strict")
    assert code == 1
    clean = tmp_path / "clean.txt"
    clean.write_text("5 Grizzly Bears\n1 Murder\n4 Wild Guess\n", encoding="utf-8")
    code, out, _ = run("block", "check", str(clean), "--strict")
    assert code == 1 and "Wild Guess" in out
    clean.write_text("11 Grizzly Bears\n3 Murder\n6 Shock\n", encoding="utf-8")
    code, out, _ = run("block", "check", str(clean), "--strict")
    assert (code, "No guideline warnings." in out) == (1, False)  # 30% removal is too much
    clean.write_text("11 Grizzly Bears\n3 Murder\n6 Giant Growth\n", encoding="utf-8")
    code, out, _ = run("block", "check", str(clean), "--strict")
    assert code == 0 and "No guideline warnings." in out


def test_every_bundled_block_is_read_whole() -> None:
    from cockatrice_ext.blocks import block_path, open_block
    from cockatrice_ext.cli.block import read_block

    for name in list_blocks():
        assert read_block(block_path(name)).count() == open_block(name).count()
    # blank lines do not start a sideboard in a block, even in Arena-looking text
    assert read_block_text("4 Opt (XLN) 65\n\n2 Shock (M19) 156\n").count("main") == 6


def read_block_text(text: str) -> Deck:
    import tempfile

    from cockatrice_ext.cli.block import read_block

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pasted.txt"
        path.write_text(text, encoding="utf-8")
        return read_block(path)


def test_unknown_names_listed_once_with_lines_exit_2(tmp_path: Path) -> None:
    block = tmp_path / "typos.txt"
    block.write_text("# my block\n4 Lightning Blot\n1 Serra Angel\n2 Grizzly Bars\n", encoding="utf-8")
    code, out, err = run("block", "check", str(block))
    assert code == 2
    assert out == ""
    assert "2 unknown card name(s)" in err
    assert f"  {block}:2: unknown card 'Lightning Blot'" in err and "Lightning Bolt" in err
    assert f"  {block}:4: unknown card 'Grizzly Bars'" in err and "Grizzly Bears" in err


def test_bad_inputs_exit_2(tmp_path: Path) -> None:
    code, _, err = run("block", "check", "no-such-block")
    assert code == 2 and "auction-sample" in err
    broken = tmp_path / "broken.txt"
    broken.write_text("1 Opt\n0 Shock\n", encoding="utf-8")
    code, _, err = run("block", "check", str(broken))
    assert code == 2 and f"{broken}:2: count must be positive" in err


def test_custom_set_next_to_the_block_is_loaded(tmp_path: Path) -> None:
    bundled = Path(__file__).resolve().parents[2] / "blocks" / "auction-custom.xml"
    (tmp_path / "mine.xml").write_bytes(bundled.read_bytes().replace(b"Packaged Gnome", b"Boxed Gnome"))
    (tmp_path / "mine.txt").write_text("1 Boxed Gnome\n1 Resell\n", encoding="utf-8")
    code, out, err = run("block", "check", str(tmp_path / "mine.txt"))
    assert code == 0, err
    assert "2 cards" in out and "Resell" in out


CARD_XML = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>TST</name><longname>Test</longname><settype>Custom</settype><priority>10</priority></set></sets>
  <cards>
    <card><name>Test Bear</name><text></text>
      <prop><type>Creature — Bear</type><maintype>Creature</maintype><manacost>1G</manacost><cmc>2</cmc>
      <colors>G</colors><pt>2/2</pt></prop><set rarity="common" num="1">TST</set><tablerow>2</tablerow></card>
    <card><name>Test Wall</name><text>Defender</text>
      <prop><type>Creature — Wall</type><maintype>Creature</maintype><manacost>1W</manacost><cmc>2</cmc>
      <colors>W</colors><pt>0/5</pt></prop><set rarity="common" num="2">TST</set><tablerow>2</tablerow></card>
    <card><name>Test Kill</name><text>Destroy target creature.</text>
      <prop><type>Instant</type><maintype>Instant</maintype><manacost>1B</manacost><cmc>2</cmc>
      <colors>B</colors></prop><set rarity="common" num="3">TST</set><tablerow>3</tablerow></card>
  </cards>
</cockatrice_carddatabase>
"""


def test_card_source_option(tmp_path: Path) -> None:
    source = tmp_path / "cards.xml"
    source.write_text(CARD_XML, encoding="utf-8")
    block = tmp_path / "tiny.txt"
    block.write_text("5 Test Bear\n1 Test Wall\n2 Test Kill\n", encoding="utf-8")
    code, out, err = run("block", "check", str(block), "--card-source", str(source), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["total"], data["creatures"], data["removal"]) == (8, 6, ["Test Kill"])
    assert data["board_stall"] == {"Test Wall": "defender"}
    assert data["curve"] == {"2": 8}
