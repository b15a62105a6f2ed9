"""Nothing dropped silently: what a format can hold survives a round trip; what it cannot is announced."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from export_samples import load_schema, parse_xml
from shared_paths import COCKATRICE_FILES

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cli import main
from cockatrice_ext.decks.readers import read_cod, read_dek

TAGGED_COD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>Tagged</deckname>'
    "<format>commander</format><bannerCard>Duress</bannerCard><comments>c</comments>"
    "<tags><tag>auction</tag><tag>budget</tag></tags>"
    '<zone name="main"><card number="4" name="Duress"/><card number="2" name="Lightning Bolt"/></zone>'
    '<zone name="maybeboard"><card number="3" name="Counterspell"/></zone>'
    "</cockatrice_deck>"
)


@pytest.fixture
def tagged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    cod = tmp_path / "tagged.cod"
    cod.write_text(TAGGED_COD)
    return cod


def _export(source: Path, fmt: str, out: Path) -> str:
    result = CliRunner().invoke(main, ["export", str(source), "--to", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_cod_keeps_tags_banner_format_and_maybeboard(tagged: Path, tmp_path: Path) -> None:
    out = tmp_path / "again.cod"
    output = _export(tagged, "cod", out)
    assert "warning" not in output
    before, after = read_cod(tagged.read_bytes()), read_cod(out.read_bytes())
    assert (after.tags, after.banner_card, after.format) == (["auction", "budget"], "Duress", "commander")
    assert [(e.name, e.count) for e in after.sections["maybeboard"]] == [("Counterspell", 3)]
    assert after.count("main") == before.count("main") == 6
    assert after.count("side") == 0  # the maybeboard is not folded into another zone


def test_mtgo_says_what_it_leaves_out(tagged: Path, tmp_path: Path) -> None:
    out = tmp_path / "deck.dek"
    output = _export(tagged, "mtgo", out)
    warnings = [line for line in output.splitlines() if line.startswith("warning:")]
    assert any("maybeboard (3 cards)" in w for w in warnings)
    assert any("tags (auction, budget)" in w for w in warnings)
    assert any("banner card (Duress)" in w for w in warnings)
    assert any("format (commander)" in w for w in warnings)
    assert read_dek(out.read_bytes()).count() == 6  # main only: the maybeboard is not smuggled in


def test_forge_keeps_tags_and_announces_the_rest(tagged: Path, tmp_path: Path) -> None:
    out = tmp_path / "Tagged.dck"
    output = _export(tagged, "forge", out)
    assert "\nTags=auction,budget\n" in out.read_text()
    assert "tags (" not in output and "maybeboard (3 cards)" in output and "banner card (Duress)" in output


def test_spoiler_cards_keep_their_pictures(tmp_path: Path) -> None:
    spoiler = COCKATRICE_FILES / "spoiler-magic-spoiler.xml"
    if not spoiler.is_file():
        pytest.skip("../shared/cockatrice/spoiler-magic-spoiler.xml is absent")
    out = tmp_path / "spoiler.xml"
    _export(spoiler, "cockatrice-xml", out)
    schema = load_schema("cards-v4.xsd")
    assert schema.validate(parse_xml(out.read_bytes())), schema.error_log

    def pictures(path: Path) -> dict[str, set[str]]:
        cards = read_cockatrice_xml(path).cards.values()
        return {card.name: {p.pic_url for p in card.printings if p.pic_url} for card in cards}

    before, after = pictures(spoiler), pictures(out)
    assert any(before.values()) and before == after
