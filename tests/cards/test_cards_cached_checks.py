"""A big card file read through the cache says what a fresh read says of its cards, on every run.

A Cockatrice card file of a megabyte or more is read through the parsed-file cache: indexed on a first
look-up by name (``cards/xml_index.py``), else parsed and kept. Both used to answer without the checks the
full reader runs on each ``<card>`` (``cockatrice_xml._check_card``: a ``pt`` given by half, a type-line
word that is no card type, markup in a ``<text>``, a second card of a name saying otherwise; a nameless
card; an odd root version), so a bad card passed silently from the second run on (the index: from the
first). Now a cache keeps what its read said, and every load through it says it again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards import cache
from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.errors import CardDataError, warnings_to
from cockatrice_ext.cards.sources import load_cards
from cockatrice_ext.cards.xml_index import XmlIndexStore, build_index

FILLER = (
    "<card><name>Filler {n}</name><text>{text}</text><prop><type>Creature — Elf</type><maintype>Creature"
    '</maintype><manacost>G</manacost><cmc>1</cmc><pt>1/1</pt></prop><set rarity="common" num="{n}">BIG'
    "</set></card>"
)
BAD = """<card>
  <name>Halfmade Golem</name>
  <text>Vigilance</text>
  <prop><type>Artifact Creture — Golem</type><maintype>Creature</maintype><manacost>2</manacost>
    <cmc>2</cmc><pt>2/</pt></prop>
  <set rarity="common" num="9001">BIG</set>
</card>
<card>
  <name>Pasted Sprite</name>
  <text>Flying<br/>When it dies, <i>draw a card</i>.</text>
  <prop><type>Creature — Faerie</type><maintype>Creature</maintype><manacost>U</manacost><cmc>1</cmc>
    <pt>1/1</pt></prop>
  <set rarity="common" num="9002">BIG</set>
</card>
<card>
  <name>Filler 3</name>
  <text>Something else</text>
  <prop><type>Sorcery</type><maintype>Sorcery</maintype><manacost>G</manacost><cmc>1</cmc></prop>
  <set rarity="common" num="9003">BIG</set>
</card>
<card><text>nameless</text></card>"""


def big_custom_set(tmp_path: Path, filler: int = 2600) -> Path:
    """A designer's card file past the cache's threshold, a few bad cards among many good ones."""
    cards = "\n".join(FILLER.format(n=n, text="x" * 400) for n in range(filler))
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="4">\n'
        "<sets><set><name>BIG</name><longname>Big</longname><settype>Custom</settype></set></sets>\n"
        f"<cards>\n{cards}\n{BAD}\n</cards>\n</cockatrice_carddatabase>\n"
    )
    source = tmp_path / "big-set.xml"
    source.write_text(text, encoding="utf-8")
    assert source.stat().st_size >= cache.MIN_CACHED_BYTES
    return source


def fresh_read(source: Path) -> list[str]:
    said: list[str] = []
    read_cockatrice_xml(source, warn=said.append)
    return said


def loaded(source: Path, names: list[str]) -> tuple[list[str], object]:
    said: list[str] = []
    with warnings_to(said.append):
        db = load_cards(source, names=names)
    return said, db


@pytest.mark.parametrize("names", [["Halfmade Golem", "Filler 7"], []], ids=["look-up", "every card"])
def test_every_run_through_the_cache_says_what_a_fresh_read_says(tmp_path: Path, names: list[str]) -> None:
    """Three runs (the first builds the index or the parsed cache, the others use it): each says the half
    pt, the type typo, the markup, the second card of a name and the nameless card, at the fresh read's
    lines, and the cards are the same."""
    source = big_custom_set(tmp_path)
    expected = fresh_read(source)
    assert len(expected) == 5, expected
    assert any("its pt gives a power 2 without a toughness" in line for line in expected)
    for run in range(3):
        said, db = loaded(source, names)
        assert said == expected, f"run {run}"
        assert db.cards["Halfmade Golem"].faces[0].power == "2"
    assert cache.open_cached(source) is not None  # the runs after the first did go through the cache


def test_a_look_up_after_a_load_of_every_card_says_it_too(tmp_path: Path) -> None:
    """The parsed cache (written by a load of every card) answers a later look-up by name: said alike."""
    source = big_custom_set(tmp_path)
    expected = fresh_read(source)
    assert loaded(source, [])[0] == expected
    assert loaded(source, ["Filler 1"])[0] == expected


def test_the_file_is_named_as_this_run_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache is the file's, whatever it is called: a run naming it otherwise hears that name."""
    source = big_custom_set(tmp_path)
    assert loaded(source, ["Filler 1"])[0] == fresh_read(source)
    monkeypatch.chdir(tmp_path)
    relative = Path(source.name)
    said = loaded(relative, ["Filler 1"])[0]
    assert said == fresh_read(relative)
    assert said[0].startswith("big-set.xml:")


@pytest.mark.parametrize("names", [["Filler 1"], []], ids=["look-up", "every card"])
def test_without_a_receiver_the_lines_go_to_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, names: list[str]
) -> None:
    """As a fresh read does: the XML reader's log, on the first run (indexed, or parsed and kept) and on the
    cached one."""
    source = big_custom_set(tmp_path)
    for _ in range(2):
        caplog.clear()
        with caplog.at_level("WARNING"):
            load_cards(source, names=names)
        said = [r for r in caplog.records if "its pt gives" in r.getMessage()]
        assert len(said) == 1 and said[0].name == "cockatrice_ext.cards.cockatrice_xml"


def test_a_file_far_past_65535_lines_is_said_at_the_lines_a_fresh_read_gives(tmp_path: Path) -> None:
    """libxml2 numbers lines past 65534 from a node's first child; the index's lines are the same."""
    cards = "\n".join(
        f"<card>\n<name>Filler {n}</name>\n<text>x</text>\n<prop><type>Instant</type></prop>\n</card>"
        for n in range(14000)
    )
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="4">\n'
        f"<cards>\n{cards}\n{BAD}\n</cards>\n</cockatrice_carddatabase>\n"
    )
    source = tmp_path / "long.xml"
    source.write_text(text, encoding="utf-8")
    assert text.count("\n") > 70000
    expected = fresh_read(source)
    assert build_index(source, tmp_path / "index.sqlite3", {})
    index = XmlIndexStore(tmp_path / "index.sqlite3", source, label="x")
    assert index.said(str(source)) == expected


CARD = """<card>{name}<text>{text}</text>{props}{token}
  <set rarity="common">TST</set></card>"""
V4_PROPS = "<prop><type>{type}</type><maintype>{maintype}</maintype>{pt}</prop>"
V3_PROPS = "<type>{type}</type><maintype>{maintype}</maintype>{pt}"
checked_cards = st.tuples(
    st.sampled_from(
        ["<name>Golem</name>", "<name>Golem</name>", "<name>Fire // Ice</name>", "<name>Elf</name>", ""]
    ),
    st.sampled_from(
        [
            "Plain text.",
            "Flying<br/>Vigilance",
            "a<!-- c -->b",
            "<![CDATA[a <b> c]]>",
            "a &amp; <i>b</i>",
            "",
        ]
    ),
    st.sampled_from([V4_PROPS, V3_PROPS]),
    st.sampled_from(
        [
            "Creature — Golem",
            "Artifact Creture — Golem",
            "Instant // Sorcery",
            "Instant // Sorcry",
            "Creature &#8212; Elf",
            "Crea&#116;ure — Elf",
            "Creatur&#101;s — Elf",
            "Enchantment<!-- x --> Creature",
            "Legendary Creture",
            "Artifcat",
            "Counter",
            "Summon Specter",
            "",
        ]
    ),
    st.sampled_from(["", "Creature", "Creture"]),
    st.sampled_from(
        [
            "",
            "<pt>2/2</pt>",
            "<pt>2/</pt>",
            "<pt>/3</pt>",
            "<pt>2</pt>",
            "<pt>1/1 // 2/</pt>",
            "<pt/>",
            "<pt> 2 / 2 </pt>",
            "<pt>2<!-- x -->/</pt>",
            '<pt a="x">3</pt>',
        ]
    ),
    st.sampled_from(["", "<token>1</token>"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    deck=st.lists(checked_cards, min_size=1, max_size=8),
    version=st.sampled_from(["4", "3", "5"]),
    separator=st.sampled_from(["", "\n", "\n\n  "]),
)
def test_generated_files_say_through_the_index_what_a_full_read_says(
    tmp_path: Path, deck: list[tuple[str, ...]], version: str, separator: str
) -> None:
    """Half pts, typos in a type or maintype (of one face of two), markup, comments, CDATA, references,
    duplicates, nameless cards, v3 and v4, an odd version: the index keeps exactly the full read's lines."""
    body = separator.join(
        CARD.format(
            name=name,
            text=text,
            props=props.format(type=type_line, maintype=maintype, pt=pt),
            token=token,
        )
        for name, text, props, type_line, maintype, pt, token in deck
    )
    source = tmp_path / "cards.xml"
    source.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="{version}">'
        f"<cards>{separator}{body}{separator}</cards></cockatrice_carddatabase>\n",
        encoding="utf-8",
    )
    try:
        expected = fresh_read(source)
    except CardDataError:
        return
    if not build_index(source, tmp_path / "index.sqlite3", {}):
        return  # left to the full reader (which then says it)
    index = XmlIndexStore(tmp_path / "index.sqlite3", source, label="x")
    assert index.said(str(source)) == expected
