"""A .cod's sideboard plans and playmat card: the .cod writer keeps them, where and as Cockatrice writes
them (DeckList::write: ``<playmatCard>`` after the banner card, ``<sideboard_plan>`` after the zones);
a target with no place for them says so once, and a .cod written again says nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from export_samples import load_schema, parse_xml, schema_path
from lxml import etree

from cockatrice_ext.cli import main
from cockatrice_ext.decks.readers import read_cod
from cockatrice_ext.exporters import ExportDeck, ExportEntry, left_out, write_cod

# Two plans and a playmat; values that need escaping (quotes, markup, an encoded newline) and a move whose
# "card name" is markup, which is only text. The playmat's attributes are not in Cockatrice's order.
PLANS_COD = b"""<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>Plans &amp; mats</deckname>
    <playmatCard zoom="1.5000" providerId="id&quot;&lt;&amp;&#10;x" marginPctR="0.0700"
        verticalOffset="0.3300" marginPctL="0.1000">Lightning Bolt</playmatCard>
    <comments>two plans</comments>
    <zone name="main">
        <card number="4" name="Lightning Bolt"/>
        <card number="2" name="Shock"/>
    </zone>
    <zone name="side">
        <card number="2" name="Duress"/>
    </zone>
    <sideboard_plan>
        <name>vs Burn &amp; "friends"</name>
        <move_card_to_zone>
            <card_name>Duress</card_name>
            <start_zone>side</start_zone>
            <target_zone>main</target_zone>
        </move_card_to_zone>
        <move_card_to_zone>
            <card_name>&lt;zone name="main"&gt;&amp;amp;</card_name>
            <start_zone>main</start_zone>
            <target_zone>side</target_zone>
        </move_card_to_zone>
    </sideboard_plan>
    <sideboard_plan>
        <name>vs Control</name>
        <move_card_to_zone>
            <card_name>Shock</card_name>
            <start_zone>main</start_zone>
            <target_zone>side</target_zone>
        </move_card_to_zone>
    </sideboard_plan>
</cockatrice_deck>
"""

PLAYMAT_ORDER = ["providerId", "marginPctL", "marginPctR", "verticalOffset", "zoom"]
"""The order Cockatrice writes the playmat's attributes in."""


@pytest.fixture
def plans_cod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    path = tmp_path / "in.cod"
    path.write_bytes(PLANS_COD)
    return path


def _export(source: Path, fmt: str, out: Path) -> str:
    result = CliRunner().invoke(main, ["export", str(source), "--to", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return result.stderr


def _strict(data: bytes) -> etree._Element:
    """``data`` parsed with no entities, DTD or network; it must declare no entities itself."""
    root = parse_xml(data)
    assert root.getroottree().docinfo.internalDTD is None
    assert b"<!ENTITY" not in data and b"<!DOCTYPE" not in data
    return root


def _plans(root: etree._Element) -> list[tuple[str | None, list[tuple[str | None, ...]]]]:
    """Each ``<sideboard_plan>``'s name and moves, as the XML holds them."""
    return [
        (
            plan.findtext("name"),
            [
                (move.findtext("card_name"), move.findtext("start_zone"), move.findtext("target_zone"))
                for move in plan.findall("move_card_to_zone")
            ],
        )
        for plan in root.findall("sideboard_plan")
    ]


def test_cod_to_cod_keeps_plans_and_playmat_as_cockatrice_writes_them(
    plans_cod: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.cod"
    said = _export(plans_cod, "cod", out)
    assert "warning" not in said and "plan" not in said and "playmat" not in said
    before, after = _strict(plans_cod.read_bytes()), _strict(out.read_bytes())

    assert _plans(after) == _plans(before)
    assert [name for name, _ in _plans(after)] == ['vs Burn & "friends"', "vs Control"]
    assert _plans(after)[0][1][1][0] == '<zone name="main">&amp;'  # a move's card name is text
    (old_mat,), (new_mat,) = before.findall("playmatCard"), after.findall("playmatCard")
    assert (new_mat.text, dict(new_mat.attrib)) == (old_mat.text, dict(old_mat.attrib))
    assert new_mat.get("providerId") == 'id"<&\nx'
    assert list(new_mat.attrib) == PLAYMAT_ORDER

    # where Cockatrice writes them: the playmat just before the comments, the plans after every zone
    tags = [child.tag for child in after]
    assert tags.index("playmatCard") == tags.index("comments") - 1
    assert tags[-2:] == ["sideboard_plan", "sideboard_plan"]
    assert max(i for i, tag in enumerate(tags) if tag == "zone") < tags.index("sideboard_plan")
    assert len(after.findall("zone/card")) == 3  # the cards are all there too

    again = read_cod(out.read_bytes(), "out.cod")
    assert again.read_warnings == []
    assert again.sideboard_plans == read_cod(PLANS_COD, "in.cod").sideboard_plans


def test_written_plans_and_playmat_validate_as_far_as_the_xsd_knows_them(
    plans_cod: Path, tmp_path: Path
) -> None:
    """Cockatrice's shared ``deck.xsd`` predates ``<playmatCard>`` and ``<sideboard_plan>`` (it declares
    neither, nor ``format``/``bannerCard``/``tags``): the rest of the file must validate; an element the
    XSD declares is validated with it."""
    out = tmp_path / "out.cod"
    _export(plans_cod, "cod", out)
    schema = load_schema("deck.xsd", cod_printing_attributes=True)
    xsd = parse_xml(schema_path("deck.xsd").read_bytes())
    declared = {e.get("name") for e in xsd.iter("{http://www.w3.org/2001/XMLSchema}element")}
    root = _strict(out.read_bytes())
    unknown = [child for child in root if child.tag in {"playmatCard", "sideboard_plan"} - declared]
    assert len(root.findall("playmatCard")) == 1 and len(root.findall("sideboard_plan")) == 2
    for child in unknown:
        root.remove(child)
    assert schema.validate(root), schema.error_log


@pytest.mark.parametrize(
    ("fmt", "suffix"), [("forge", ".dck"), ("mtgo", ".dek"), ("arena", ".arena.txt"), ("text", ".txt")]
)
def test_a_target_without_a_place_says_once_what_it_leaves_out(
    plans_cod: Path, tmp_path: Path, fmt: str, suffix: str
) -> None:
    said = _export(plans_cod, fmt, tmp_path / f"out{suffix}").splitlines()
    plans = [line for line in said if "sideboard plan" in line]
    playmats = [line for line in said if "playmat" in line]
    assert plans == [
        f"""warning: sideboard plans ('vs Burn & "friends"', 'vs Control') not written: {fmt} has no place"""
        " for it"
    ]
    assert playmats == [f"warning: playmat card ('Lightning Bolt') not written: {fmt} has no place for it"]


def _deck(**items: object) -> ExportDeck:
    from export_samples import ALL_CARDS

    bolt = next(card for card in ALL_CARDS if not card.is_token)
    return ExportDeck(name="d", sections={"main": [ExportEntry(card=bolt, count=1)]}, **items)  # type: ignore[arg-type]


def test_cod_writer_writes_untrusted_text_safely_and_cockatrice_reads_it_back() -> None:
    from cockatrice_ext.exporters.model import SideboardMove, SideboardPlan

    deck = _deck(
        playmat_card="Mat\x01 <b>&",
        playmat_attributes={"zoom": "2\t\r", "providerId": "p", "bogus": "never written"},
        sideboard_plans=[
            # "" is Cockatrice's current plan
            SideboardPlan("", (SideboardMove("A\x00\rB", "side", "main"),)),
            SideboardPlan("no moves"),
        ],
    )
    data = write_cod(deck)
    root = _strict(data)
    (mat,) = root.findall("playmatCard")
    assert (mat.text, dict(mat.attrib)) == ("Mat <b>&", {"providerId": "p", "zoom": "2\t\r"})
    assert _plans(root) == [("", [("A\rB", "side", "main")]), ("no moves", [])]
    assert read_cod(data, "w.cod").playmat_card == "Mat <b>&"


def test_a_playmat_with_only_a_provider_id_is_written_as_cockatrice_does() -> None:
    data = write_cod(_deck(playmat_attributes={"providerId": "abc"}))
    (mat,) = _strict(data).findall("playmatCard")
    assert (mat.text, dict(mat.attrib)) == (None, {"providerId": "abc"})
    assert left_out(_deck(playmat_attributes={"providerId": "abc"}), "forge") == [
        "playmat card (provider id 'abc')"
    ]
    # a playmat with neither name nor provider id shows nothing: not written, the file as without one
    assert write_cod(_deck(playmat_attributes={"zoom": "1"})) == write_cod(_deck())
    assert write_cod(_deck()) == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n    <deckname>d</deckname>\n'
        b'    <comments></comments>\n    <zone name="main">\n'
        + b'        <card number="1" name="%s"/>\n' % _deck().main[0].card.name.encode()
        + b"    </zone>\n</cockatrice_deck>\n"
    )


def test_plain_plans_of_a_deck_are_taken_as_text() -> None:
    from cockatrice_ext.exporters.model import SideboardMove, SideboardPlan, sideboard_plans

    plans = sideboard_plans(
        [
            {"name": 7, "moves": [{"card_name": "X", "start_zone": None}, "junk"]},
            "no plan",
            {"moves": "not a list"},
        ]
    )
    assert plans == [SideboardPlan("7", (SideboardMove("X", "", ""),)), SideboardPlan("", ())]
