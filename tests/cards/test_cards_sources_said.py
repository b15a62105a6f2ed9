"""What the card sources say goes where the command's other card warnings go (``warning:`` lines through
``cards/errors.warnings_to``), and a Forge folder's token scripts read back as tokens."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from cockatrice_ext.cards.errors import warnings_to
from cockatrice_ext.cards.sources import load_cards

CARD_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>ZZT</name><longname>Token Test</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>Gavel Golem</name>
      <text>Whenever you win an auction, create a 1/1 white Bidder creature token with flying.</text>
      <prop><layout>normal</layout><side>front</side><type>Artifact Creature — Golem</type>
        <maintype>Creature</maintype><manacost>3</manacost><cmc>3</cmc><pt>2/2</pt></prop>
      <set rarity="uncommon" num="1">ZZT</set>
      <related>Bidder</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Bidder</name>
      <text>Flying</text>
      <prop><type>Token Creature — Bidder</type><maintype>Creature</maintype><colors>W</colors><pt>1/1</pt>
        <cmc>0</cmc></prop>
      <set>ZZT</set>
      <token>1</token>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Gold Servo</name>
      <text></text>
      <prop><type>Token Artifact Creature — Servo</type><maintype>Creature</maintype><pt>1/1</pt>
        <cmc>0</cmc></prop>
      <set>ZZT</set>
      <reverse-related>Gavel Golem</reverse-related>
      <token>1</token>
      <tablerow>2</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def test_a_folder_source_says_its_skipped_file_as_a_warning_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder's file that is no card database is skipped with a warning; within ``warnings_to`` it is
    said there (a command's ``warning:`` line), not logged (a timestamped log line)."""
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "a.xml").write_text(CARD_SET, encoding="utf-8")
    (folder / "notes.xml").write_text("<?xml version='1.0'?><notes>mine</notes>", encoding="utf-8")
    said: list[str] = []
    with caplog.at_level(logging.WARNING), warnings_to(said.append):
        db = load_cards(str(folder))
    assert "Gavel Golem" in db.cards
    skipped = f"{folder / 'notes.xml'}: not a Cockatrice card database, skipped (Cockatrice skips it too)"
    assert said == [skipped]
    assert not [r for r in caplog.records if r.name == "cockatrice_ext.cards.sources"]


def test_a_folder_without_cards_xml_is_said_as_a_warning_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "data"
    (folder / "customsets").mkdir(parents=True)
    (folder / "customsets" / "a.xml").write_text(CARD_SET, encoding="utf-8")
    said: list[str] = []
    with caplog.at_level(logging.WARNING), warnings_to(said.append):
        load_cards(str(folder))
    assert any("no cards.xml, so Cockatrice itself would load nothing" in line for line in said), said
    assert not [r for r in caplog.records if r.name == "cockatrice_ext.cards.sources"]


def test_without_warnings_to_the_log_still_has_it(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "a.xml").write_text(CARD_SET, encoding="utf-8")
    (folder / "notes.xml").write_text("<notes/>", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        load_cards(str(folder))
    assert any("not a Cockatrice card database" in r.getMessage() for r in caplog.records)


def _forge_custom_folder(tmp_path: Path) -> Path:
    """forge-custom's output for the set above, written out as a user copies it."""
    from cockatrice_ext.exporters import deck_from_cards, write_forge_custom_set

    source = tmp_path / "set.xml"
    source.write_text(CARD_SET, encoding="utf-8")
    db = load_cards(str(source))
    bundle = write_forge_custom_set(deck_from_cards("Token Test", db.cards.values(), db.sets))
    folder = tmp_path / "custom"
    for relative, data in bundle.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_bytes(data)
    assert (folder / "tokens").is_dir()
    return folder


def test_forge_custom_tokens_read_back_as_tokens(tmp_path: Path) -> None:
    """forge-custom writes tokens under ``tokens/`` without a Token type word (Forge knows a token by its
    folder): read back with ``--card-source``, they are tokens again, and the cards stay cards."""
    folder = _forge_custom_folder(tmp_path)
    db = load_cards(str(folder))
    tokens = sorted(name for name, card in db.cards.items() if card.is_token)
    assert tokens == ["Bidder Token", "Gold Servo"]
    assert all(db.cards[name].layout == "token" for name in tokens)
    assert not db.cards["Gavel Golem"].is_token
    alone = load_cards(str(folder / "tokens"))  # the token folder itself
    assert all(card.is_token for card in alone.cards.values()) and len(alone.cards) == 2
    one = load_cards(str(folder / "tokens" / "gold_servo.txt"))  # one token script
    assert one.cards["Gold Servo"].is_token


def test_a_card_script_outside_a_token_folder_stays_a_card(tmp_path: Path) -> None:
    folder = tmp_path / "mine" / "cards"
    folder.mkdir(parents=True)
    (folder / "bidder.txt").write_text("Name:Bidder\nManaCost:W\nTypes:Creature Bidder\nPT:1/1\nOracle:\n")
    assert not load_cards(str(folder.parent)).cards["Bidder"].is_token
