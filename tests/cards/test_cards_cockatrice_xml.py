"""Cockatrice card-database XML reader: real fixtures, v3 and v4, any child order, safety, fuzz."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import CardDatabase
from cockatrice_ext.cards.sources import load_cards


def test_cockatrice_fixtures_load_like_cockatrice(examples: Path) -> None:
    # Cockatrice's carddatabase_test expects 9 cards and 5 sets from cards.xml + tokens.xml + customset1 (v3)
    db = CardDatabase()
    for name in ("cockatrice_test_cards.xml", "cockatrice_test_tokens.xml", "cockatrice_test_customset1.xml"):
        db.merge(read_cockatrice_xml(examples / name))
    assert len(db) == 9
    assert set(db.sets) == {"CAT", "DOG", "WHO", "Not a Card", "BRD"}
    cat = db.cards["Cat"]
    assert cat.mana_cost == "{2}{G}"
    assert cat.mana_value == 2
    assert (cat.power, cat.toughness) == ("3", "3")
    assert cat.types == ("Creature",) and cat.subtypes == ("Cat",)
    assert cat.printings[0].multiverse_id == "111"
    assert db.cards["Kitten"].is_token
    doctor = db.cards["Doctor"]
    assert doctor.subtypes == ("Human", "Time", "Lord", "Doctor")
    # type comes only from maintype when no type line is given
    assert db.cards["Truth"].types == ("Instant",)


def test_v3_custom_set(examples: Path) -> None:
    db = read_cockatrice_xml(examples / "cockatrice_test_customset1.xml")
    crow = db.cards["Crow"]
    assert crow.colors == ("B",)
    assert crow.mana_cost == "{1}{B}"
    assert crow.printings[0].set_code == "BRD"
    assert crow.printings[0].multiverse_id == "334"  # v3 muId attribute


def test_real_tokens_file_links_reverse_related(shared_cockatrice: Path) -> None:
    db = read_cockatrice_xml(shared_cockatrice / "tokens-magic-token.xml")
    assert len(db) > 900
    creature = db.cards["A Mysterious Creature"]
    assert creature.is_token is False or creature.types == ("Creature",)
    assert {p.set_code for p in creature.printings} >= {"ACR", "MKM"}
    assert "A Mysterious Creature" in db.reverse_related["Alley Assailant"]
    # once the creator is known, the link lands on it
    db.merge(
        read_cockatrice_xml(b"""<cockatrice_carddatabase version="4"><cards>
        <card><name>Alley Assailant</name><set>MKM</set><prop><type>Creature</type></prop></card>
        </cards></cockatrice_carddatabase>""")
    )
    db.link_reverse_related()
    assert "A Mysterious Creature" in db.cards["Alley Assailant"].related


def test_real_spoiler_file(shared_cockatrice: Path) -> None:
    db = read_cockatrice_xml(shared_cockatrice / "spoiler-magic-spoiler.xml")
    donatello = db.cards["Donatello, Rad Scientist"]
    assert donatello.mana_cost == "{5}{U}" and donatello.supertypes == ("Legendary",)
    assert donatello.printings[0].rarity == "mythic"
    assert db.sets["TMT~"].name == "Teenage Mutant Ninja Turtles (Spoiler)"


def test_children_in_any_order_and_split_cards() -> None:
    xml = b"""<?xml version="1.0" encoding="UTF-8"?>
    <cockatrice_carddatabase version="4">
      <cards>
        <card>
          <tablerow>3</tablerow>
          <set rarity="uncommon" num="128" uuid="f98f4538">APC</set>
          <prop><manacost>1R // 1U</manacost><type>Instant // Instant</type><cmc>4</cmc>
                <colors>UR</colors><layout>split</layout></prop>
          <text>Fire deals 2 damage to any target.\n\n---\n\nTap target permanent.</text>
          <name>Fire // Ice</name>
        </card>
      </cards>
      <sets><set><priority>10</priority><name>APC</name><longname>Apocalypse</longname></set></sets>
    </cockatrice_carddatabase>"""
    db = read_cockatrice_xml(xml)
    card = db.cards["Fire // Ice"]
    assert [f.name for f in card.faces] == ["Fire", "Ice"]
    assert [f.mana_cost for f in card.faces] == ["{1}{R}", "{1}{U}"]
    assert card.faces[1].oracle_text.startswith("Tap target")
    assert card.printings[0].scryfall_id == "f98f4538" and card.printings[0].collector_number == "128"
    assert db.sets["APC"].name == "Apocalypse"


def test_same_name_merges_printings_first_definition_wins() -> None:
    def doc(text: str, code: str) -> bytes:
        return (
            f"<cockatrice_carddatabase version='4'><cards><card><name>Bear</name><text>{text}</text>"
            f"<set>{code}</set></card></cards></cockatrice_carddatabase>"
        ).encode()

    db = read_cockatrice_xml(doc("first", "AAA"))
    db.merge(read_cockatrice_xml(doc("second", "BBB")))
    assert db.cards["Bear"].oracle_text == "first"
    assert [p.set_code for p in db.cards["Bear"].printings] == ["AAA", "BBB"]


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"<cockatrice_carddatabase version='4'><cards><card><name>X</name></cards>", 1),
        (b"<?xml version='1.0'?>\n<cockatrice_carddatabase version='4'>\n<cards>\n</prop>", 4),
    ],
)
def test_malformed_xml_names_file_and_line(data: bytes, line: int) -> None:
    with pytest.raises(CardDataError) as info:
        read_cockatrice_xml(data, name="custom.xml")
    assert info.value.source == "custom.xml"
    assert info.value.line == line
    assert str(info.value).startswith(f"custom.xml:{line}")


def test_wrong_root_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "deck.xml"
    path.write_text("<cockatrice_deck version='1'><deckname/></cockatrice_deck>")
    with pytest.raises(CardDataError, match="not a Cockatrice card database"):
        read_cockatrice_xml(path)
    with pytest.raises(CardDataError, match=r"cannot (read|open): No such file"):
        read_cockatrice_xml(tmp_path / "missing.xml")


def test_a_dtd_is_refused_and_entities_never_expanded(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    xml = f"""<?xml version="1.0"?>
<!DOCTYPE cockatrice_carddatabase [
  <!ENTITY lol "lollollollollollollol">
  <!ENTITY xxe SYSTEM "file://{secret}">
]>
<cockatrice_carddatabase version="4"><cards>
  <card><name>Bomb</name><text>&lol;&lol;&xxe;</text><set>BOM</set></card>
</cards></cockatrice_carddatabase>""".encode()
    with pytest.raises(CardDataError, match="XML with a DOCTYPE is not accepted"):
        read_cockatrice_xml(xml)  # refused: an entity left unexpanded silently cut a name short


def test_load_cards_picks_the_xml_reader_by_content(examples: Path, tmp_path: Path) -> None:
    copy = tmp_path / "whatever.dat"
    copy.write_bytes((examples / "cockatrice_test_cards.xml").read_bytes())
    assert "Cat" in load_cards(copy)


_TEMPLATE = (
    "<cockatrice_carddatabase version='{v}'><sets><set><name>{s}</name></set></sets><cards>"
    "<card><name>{n}</name><text>{t}</text><prop><type>{ty}</type><manacost>{m}</manacost>"
    "<cmc>{c}</cmc><pt>{pt}</pt><colors>{col}</colors></prop><set num='{num}'>{s}</set>"
    "<related count='{c}'>{n}</related><reverse-related>{t}</reverse-related><token>{c}</token></card>"
    "</cards></cockatrice_carddatabase>"
)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=2000))
def test_fuzz_arbitrary_bytes_only_raise_card_data_error(data: bytes) -> None:
    with contextlib.suppress(CardDataError):
        read_cockatrice_xml(data)


@settings(max_examples=150, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            k: st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20)
            for k in ("v", "s", "n", "t", "ty", "m", "c", "pt", "col", "num")
        }
    ),
    st.integers(min_value=0, max_value=400),
    st.binary(max_size=8),
)
def test_fuzz_mutated_card_databases(fields: dict[str, str], cut: int, junk: bytes) -> None:
    escaped = {
        k: v.replace("&", "&amp;").replace("<", "&lt;").replace("'", "&apos;") for k, v in fields.items()
    }
    doc = _TEMPLATE.format(**escaped).encode("utf-8", "surrogatepass")
    for candidate in (doc, doc[:cut] + junk + doc[cut:]):
        try:
            db = read_cockatrice_xml(candidate)
        except CardDataError:
            continue
        for card in db.cards.values():
            assert card.name
            assert isinstance(card.mana_value, float)


@pytest.mark.parametrize("suffix", [".xml.gz", ".xml.xz"])
def test_a_compressed_card_file_reads_like_the_plain_one(examples: Path, tmp_path: Path, suffix: str) -> None:
    """Seen in review: a ``cards.xml.gz`` given by path was read raw (as malformed XML) unless a progress bar
    was shown; it reads as its plain file, through the one decompression budget, and a damaged one is one
    card-data error."""
    import gzip
    import lzma

    plain = (examples / "cockatrice_test_cards.xml").read_bytes()
    packed = tmp_path / f"cards{suffix}"
    packed.write_bytes(gzip.compress(plain) if suffix.endswith("gz") else lzma.compress(plain))
    assert set(read_cockatrice_xml(packed).cards) == set(read_cockatrice_xml(plain).cards)
    assert "Cat" in load_cards(packed).cards
    broken = tmp_path / f"broken{suffix}"
    broken.write_bytes(packed.read_bytes()[: len(packed.read_bytes()) // 2])
    with pytest.raises(CardDataError, match=r"cannot read"):
        read_cockatrice_xml(broken)
