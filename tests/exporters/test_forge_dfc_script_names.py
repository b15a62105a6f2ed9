"""A designer's two-faced card's Forge script is named after its front face (``moonlit_trapper.txt``), where
Forge's own cardsfolder names one after both faces (``delver_of_secrets_insectile_aberration.txt``). Forge
loads either: it keys a card by its script's ``Name:`` lines, not by the file's name (``CardStorageReader``
reads every ``.txt`` below ``custom/cards``; ``StaticData`` puts each by ``CardRules.getName()``). So the
script must say the faces as Forge's real one does, whatever the file is called."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import shared_paths
from click.testing import CliRunner

from cockatrice_ext.cards.forge import read_forge_cards
from cockatrice_ext.cli import main

REAL_DELVER = shared_paths.EXAMPLES / "forge_card_delver_of_secrets_insectile_aberration.txt"

TRANSFORM_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>MNL</name><longname>Moonlit</longname><settype>Custom</settype>
    <releasedate>2026-01-01</releasedate></set></sets>
  <cards>
    <card>
      <name>Moonlit Trapper</name>
      <text>Reach</text>
      <prop><layout>transform</layout><side>front</side><type>Creature — Human</type>
        <maintype>Creature</maintype><manacost>1G</manacost><cmc>2</cmc><colors>G</colors><pt>1/3</pt></prop>
      <related attach="transform">Moonlit Beast</related>
      <set rarity="common" num="1">MNL</set>
    </card>
    <card>
      <name>Moonlit Beast</name>
      <text>Trample</text>
      <prop><layout>transform</layout><side>back</side><type>Creature — Wolf</type>
        <maintype>Creature</maintype><cmc>2</cmc><colors>G</colors><pt>4/4</pt></prop>
      <set rarity="common" num="1">MNL</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def _faces(script: str) -> list[str]:
    return [line[len("Name:") :] for line in script.splitlines() if line.startswith("Name:")]


def test_a_two_faced_cards_script_is_named_after_its_front_and_names_both_faces(
    runner: CliRunner, tmp_path: Path
) -> None:
    (tmp_path / "moon.xml").write_text(TRANSFORM_SET, encoding="utf-8")
    block = tmp_path / "moon.txt"
    block.write_text("1 Moonlit Trapper\n", encoding="utf-8")
    out = tmp_path / "custom"
    result = runner.invoke(main, ["export", str(block), "--to", "forge-custom", "-o", str(out)])
    assert result.exit_code == 0, result.output
    script = out / "cards" / "moonlit_trapper.txt"
    text = script.read_text(encoding="utf-8")
    assert _faces(text) == ["Moonlit Trapper", "Moonlit Beast"]
    assert "AlternateMode:DoubleFaced" in text
    # read back as Forge keys it: by the script's names, the file's own name aside
    assert "Moonlit Trapper // Moonlit Beast" in read_forge_cards(out / "cards").cards


@pytest.mark.skipif(not REAL_DELVER.is_file(), reason="shared Forge example absent")
def test_forges_own_two_faced_script_says_its_faces_as_ours_does(tmp_path: Path) -> None:
    """Forge's real Delver of Secrets script, named after both faces, reads as the same card under our
    front-face name: the file's name carries nothing a reader keys by."""
    text = REAL_DELVER.read_text(encoding="utf-8")
    assert _faces(text) == ["Delver of Secrets", "Insectile Aberration"]
    read = {}
    for stem in ("delver_of_secrets_insectile_aberration", "delver_of_secrets"):
        folder = tmp_path / stem
        folder.mkdir()
        shutil.copy(REAL_DELVER, folder / f"{stem}.txt")
        read[stem] = read_forge_cards(folder).cards["Delver of Secrets // Insectile Aberration"]
    assert read["delver_of_secrets"].faces == read["delver_of_secrets_insectile_aberration"].faces
