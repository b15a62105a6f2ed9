"""The XML index answers exactly as a full parse would, and is trusted only for the bytes it indexed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards import cache
from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.model import Card
from cockatrice_ext.cards.store import CardStore, write_store
from cockatrice_ext.cards.xml_index import IndexMismatch, XmlIndexStore, build_index
from tests.shared_paths import COCKATRICE_FILES


def answers(store: CardStore) -> dict[str, object]:
    """Every index key -> the card it finds (by value), plus tokens and links."""
    found = {key: store.card(number) for key, number in store.index.items()}
    return {
        "found": found,
        "tokens": sorted(store.token_cards().cards),
        "reverse": store.reverse_related(),
        "hints": store.name_hints(),
    }


def both(source: Path, tmp_path: Path) -> tuple[CardStore, XmlIndexStore]:
    full = read_cockatrice_xml(source)
    write_store(full, tmp_path / "parsed.sqlite3", meta={}, compact=False, level=1)
    assert build_index(source, tmp_path / "index.sqlite3", {}), "the file should be indexable"
    return CardStore(tmp_path / "parsed.sqlite3"), XmlIndexStore(
        tmp_path / "index.sqlite3", source, label="x"
    )


@pytest.mark.parametrize("name", ["tokens-magic-token.xml", "spoiler-magic-spoiler.xml"])
def test_real_files_answer_as_a_full_parse(tmp_path: Path, name: str) -> None:
    source = COCKATRICE_FILES / name
    if not source.is_file():
        pytest.skip(f"{source} not found (the shared folder beside the checkout)")
    parsed, index = both(source, tmp_path)
    assert answers(index) == answers(parsed)
    some = sorted(parsed.index)[:: max(1, len(parsed.index) // 40)]
    assert index.cards_for(some).cards == parsed.cards_for(some).cards


CARD_V4 = """<card><name>{name}</name><text>{text}</text>{token}
  <prop><type>{type}</type><manacost>1</manacost><cmc>1</cmc></prop>
  <set rarity="common"{num}>{set}</set>{extra}
</card>"""
CARD_V3 = """<card><name>{name}</name><text>{text}</text>{token}<type>{type}</type><manacost>1</manacost>
<set{num}>{set}</set>{extra}</card>"""
HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="{version}"><sets><set><name>TST</name><longname>Test</longname></set>
</sets><cards>{pre}{cards}</cards></cockatrice_carddatabase>
"""

names = st.sampled_from(
    [
        "Angel",
        "Angel ",
        "Angel Token",
        "Fire // Ice",
        "Fire",
        "Æther Vial",
        "Lim-Dûl",
        "A & B",
        "Zyx",
        "Zy<!---->x",
    ]
)
cards = st.tuples(
    names,
    st.sampled_from(
        ["", "Flying.", "<![CDATA[a <card> in text]]>", "x &amp; y", "Create a Token.", "a<!-- c -->b"]
    ),
    st.sampled_from(["", "<token>1</token>", "<token>0</token>", "<token>1</token><token>0</token>"]),
    st.sampled_from(
        [
            "Creature — Angel",
            "Token Creature — Angel",
            "Instant // Sorcery",
            "Emblem",
            "&#84;oken Artifact",  # says Token only once parsed
            "To<!-- -->ken Creature",
            "To<![CDATA[ken]]> Creature",
        ]
    ),
    st.sampled_from(["TST", "NEW", ""]),
    st.sampled_from(["", ' num="7"', ' picURL="https://x/y.jpg"']),
    st.sampled_from(
        [
            "",
            "<related>Angel</related>",
            "<reverse-related>Zyx</reverse-related>",
            "<!-- c -->",
            "<type>Token Creature</type>",  # a second type after the first: the last wins
            "<prop><type>Token Creature</type></prop>",
        ]
    ),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    deck=st.lists(cards, min_size=1, max_size=8),
    version=st.sampled_from(["3", "4"]),
    pre=st.sampled_from(["", "<!-- <card><name>Ghost</name></card> -->", "<?pi <card> ?>"]),
    separator=st.sampled_from(["", "\n", "\n  <!-- between -->\n"]),
)
def test_generated_files_answer_as_a_full_parse(
    tmp_path: Path, deck: list[tuple[str, ...]], version: str, pre: str, separator: str
) -> None:
    """Duplicates, split names, folded-alike names, tokens by flag or type, v3 and v4, comments, CDATA,
    text a comment splits, a type that says Token only once parsed."""
    template = CARD_V3 if version == "3" else CARD_V4
    body = separator.join(
        template.format(name=n, text=t, token=k, type=ty, set=s, num=num, extra=e)
        for n, t, k, ty, s, num, e in deck
    )
    source = tmp_path / "cards.xml"
    source.write_text(HEAD.format(version=version, pre=pre, cards=body), encoding="utf-8")
    try:
        full = read_cockatrice_xml(source)
    except CardDataError:
        assert not build_index(source, tmp_path / "index.sqlite3", {})
        return
    write_store(full, tmp_path / "parsed.sqlite3", meta={}, compact=False, level=1)
    assert build_index(source, tmp_path / "index.sqlite3", {})  # comments, CDATA and PIs are skipped
    index = XmlIndexStore(tmp_path / "index.sqlite3", source, label="x")
    assert answers(index) == answers(CardStore(tmp_path / "parsed.sqlite3"))


FACE_V4 = """<card><name>{name}</name><text>Flying</text>
  <prop><type>{type}</type>{side}{layout}</prop>
  <set rarity="rare" num="{num}"{pic}>TST</set>{links}
</card>"""
faces = st.tuples(  # weighted towards fronts and backs that pair up
    st.sampled_from(["Day", "Night", "Dawn", "Day", "Night", "Dawn", "Day // Night"]),
    st.sampled_from(["Creature — Human", "Creature — Human", "Creature — Human", "Token Creature — Human"]),
    st.sampled_from(["", "", "<side>front</side>", "<side>back</side>"]),
    st.sampled_from(
        ["", "<layout>transform</layout>", "<layout>meld</layout>", "<layout>modal_dfc</layout>"]
    ),
    st.sampled_from(["1", "1a", "1b"]),
    st.sampled_from(["", ' picURL="https://x/a.png"', ' picURL="https://x/b.png"']),
    st.lists(
        st.sampled_from(
            [
                '<related attach="transform">Day</related>',
                '<related attach="transform">Night</related>',
                '<related attach="transform">Dawn</related>',
                '<related attach="trans&#102;orm">Night</related>',  # says transform only once parsed
                '<related count="2">Night</related>',
                '<reverse-related attach="transform">Day</reverse-related>',
                "<reverse-related>Night</reverse-related>",
                "<reverse-related>Dawn</reverse-related>",
            ]
        ),
        max_size=3,
    ).map("".join),
)


def _as_read(card: Card) -> tuple[object, ...]:
    """What a reader gives of a card, the links and back faces' numbers and pictures with it."""
    printings = [
        (p.set_code, p.collector_number, p.pic_url, p.back_pic_url, p.back_collector_number)
        for p in card.printings
    ]
    return card.name, card.layout, card.faces, card.related, card.relations, printings


@st.composite
def double_faced_decks(draw: st.DrawFn) -> list[tuple[str, ...]]:
    """A front Day and its back Night (sides said or not, the back linking back or elsewhere), among other
    cards that may take them, in any order."""
    front_side = draw(st.sampled_from(["", "<side>front</side>"]))
    back_side = draw(st.sampled_from(["", "<side>back</side>", "<side>front</side>"]))
    back_link = draw(
        st.sampled_from(["", '<related attach="transform">Day</related>', "<related>Dawn</related>"])
    )
    pair = [
        ("Day", "Creature — Human", front_side, "<layout>transform</layout>", "1a", "", ""),
        ("Night", "Creature — Human", back_side, "", "1b", ' picURL="https://x/b.png"', back_link),
    ]
    pair[0] = (*pair[0][:-1], '<related attach="transform">Night</related>')
    return draw(st.permutations(pair + draw(st.lists(faces, max_size=4))))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    deck=st.one_of(st.lists(faces, min_size=1, max_size=6), double_faced_decks()),
    filler=st.sampled_from([0, 1]),
)
def test_double_faced_cards_are_joined_as_a_full_parse_joins_them(
    tmp_path: Path, deck: list[tuple[str, ...]], filler: int
) -> None:
    """Fronts and backs linked by attach="transform" (either way, spelled with a character reference, one
    back named by two fronts, a back that says front, tokens, meld, a card named "Day // Night" already),
    faces numbered 1a and 1b: the index and the parsed cache have the full reader's cards, links and back
    faces."""
    body = "".join(
        FACE_V4.format(name=n, type=ty, side=si, layout=la, num=num, pic=pic, links=links)
        for n, ty, si, la, num, pic, links in deck
    )
    body += "<card><name>Other</name><text>x</text></card>" * filler
    source = tmp_path / "cards.xml"
    source.write_text(HEAD.format(version="4", pre="", cards=body), encoding="utf-8")
    full = read_cockatrice_xml(source)
    write_store(full, tmp_path / "parsed.sqlite3", meta={}, compact=False, level=1)
    assert build_index(source, tmp_path / "index.sqlite3", {})
    index = XmlIndexStore(tmp_path / "index.sqlite3", source, label="x")
    assert answers(index) == answers(CardStore(tmp_path / "parsed.sqlite3"))
    expected = [_as_read(full.cards[name]) for name in sorted(full.cards)]  # numbered by name, as the cache
    assert [_as_read(index.card(number)) for number in range(len(full.cards))] == expected
    with pytest.raises(IndexMismatch):
        index.card(len(full.cards))
    parsed = CardStore(tmp_path / "parsed.sqlite3")  # the parsed cache keeps the links and backs too
    assert [_as_read(parsed.card(number)) for number in range(len(full.cards))] == expected


def one_card_file(tmp_path: Path) -> tuple[Path, str]:
    """A cards.xml of one card, Alpha ("One."), and its text."""
    plain = CARD_V4.format(name="Alpha", text="One.", token="", type="Instant", set="TST", num="", extra="")
    text = HEAD.format(version="4", pre="", cards=plain)
    source = tmp_path / "cards.xml"
    source.write_text(text, encoding="utf-8")
    return source, text


def test_an_index_is_trusted_only_for_the_bytes_it_indexed(tmp_path: Path) -> None:
    """Same size, same modification time, other bytes: the index is not used (its SHA-256 differs)."""
    source, text = one_card_file(tmp_path)
    assert (
        cache.load_cached(source, ["Alpha"], read_cockatrice_xml).cards["Alpha"].faces[0].oracle_text
        == "One."
    )
    assert cache.index_file(source).is_file()
    stat = source.stat()
    source.write_text(text.replace("One.", "Two."), encoding="utf-8")
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert cache.open_cached(source) is None
    again = cache.load_cached(source, ["Alpha"], read_cockatrice_xml)
    assert again.cards["Alpha"].faces[0].oracle_text == "Two."


def test_files_it_cannot_describe_are_read_whole(tmp_path: Path) -> None:
    """A namespace, another encoding, a DTD, a prefixed card: no index, and the full reader's answer."""
    plain = CARD_V4.format(name="Alpha", text="One.", token="", type="Instant", set="TST", num="", extra="")
    spaced = HEAD.format(version="4", pre="", cards=plain).replace(
        "<cockatrice_carddatabase ", '<cockatrice_carddatabase xmlns="urn:x" '
    )
    latin = HEAD.format(version="4", pre="", cards=plain.replace("Alpha", "Álpha")).replace(
        "UTF-8", "ISO-8859-1"
    )
    with_dtd = HEAD.format(version="4", pre="", cards=plain).replace(
        "<cockatrice_carddatabase ",
        '<!DOCTYPE cockatrice_carddatabase [<!ENTITY e "<card>">]>\n<cockatrice_carddatabase ',
    )
    prefixed = HEAD.format(version="4", pre="", cards=plain.replace("<card>", '<x:card xmlns:x="urn:x">'))
    prefixed = prefixed.replace("</card>", "</x:card>")  # the full reader takes any namespace's <card>
    cases = [(spaced, "utf-8"), (latin, "latin-1"), (with_dtd, "utf-8"), (prefixed, "utf-8")]
    for number, (text, encoding) in enumerate(cases):
        source = tmp_path / f"{number}.xml"
        source.write_bytes(text.encode(encoding))
        assert not build_index(source, tmp_path / "index.sqlite3", {})
        if "DOCTYPE" in text:  # refused by the full reader too (nothing in a DTD is ever expanded)
            with pytest.raises(CardDataError, match="DOCTYPE"):
                cache.load_cached(source, ["Alpha", "Álpha"], read_cockatrice_xml)
            continue
        db = cache.load_cached(source, ["Alpha", "Álpha"], read_cockatrice_xml)
        whole = read_cockatrice_xml(source)
        assert {n: c.faces for n, c in db.cards.items()} == {n: c.faces for n, c in whole.cards.items()}
    broken = tmp_path / "broken.xml"
    broken.write_text(HEAD.format(version="4", pre="", cards=plain)[:-40], encoding="utf-8")
    with pytest.raises(CardDataError, match="malformed XML"):
        cache.load_cached(broken, ["Alpha"], read_cockatrice_xml)


def test_a_file_the_full_reader_rejects_is_not_indexed(tmp_path: Path) -> None:
    """Two cards with the same xml:id: the full reader calls the file malformed, so no index answers."""
    cards = "".join(
        CARD_V4.format(name=name, text="", token="", type="Instant", set="TST", num="", extra="").replace(
            "<card>", '<card xml:id="same">'
        )
        for name in ("Alpha", "Beta")
    )
    source = tmp_path / "cards.xml"
    source.write_text(HEAD.format(version="4", pre="", cards=cards), encoding="utf-8")
    with pytest.raises(CardDataError, match="malformed XML"):
        read_cockatrice_xml(source)
    assert not build_index(source, tmp_path / "index.sqlite3", {})
    with pytest.raises(CardDataError, match="malformed XML"):
        cache.load_cached(source, ["Alpha"], read_cockatrice_xml)


SNIPPETS = [
    "<",
    ">",
    "</card>",
    "<card>",
    "<card/>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<?pi x?>",
    "&#84;",
    "&amp;",
    "&bogus;",
    ' xmlns="urn:x"',
    '<x:name xmlns:x="urn:x">Q</x:name>',
    "<name>Second</name>",
    "<token>1</token>",
    "<type>Token Creature</type>",
    "<reverse-related>Alpha</reverse-related>",
    '<!DOCTYPE cockatrice_carddatabase [<!ENTITY e "<card>">]>',
    ' xml:id="i"',
    "</cards><cards>",
    "\u00e9",
    "\t",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    edits=st.lists(
        st.tuples(
            st.floats(0, 1),
            st.booleans(),
            st.sampled_from(SNIPPETS),
            st.sampled_from([0, 0, 0, 1, 5, 12]),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_a_damaged_file_is_indexed_only_when_the_full_reader_reads_it_alike(
    tmp_path: Path, edits: list[tuple[float, bool, str, int]]
) -> None:
    """Snippets of markup put into a good file (before a tag, or anywhere), or characters cut out: whatever
    the index accepts, the full reader reads too, and the index answers as it does."""
    cards = "\n".join(
        CARD_V4.format(name=n, text=t, token="", type=ty, set="TST", num="", extra=e)
        for n, t, ty, e in [
            ("Alpha", "One <!-- c --> more.", "Instant", ""),
            ("Beta", "Two.", "Token Creature — Angel", "<reverse-related>Alpha</reverse-related>"),
            ("Gamma // Delta", "Three.", "Instant // Sorcery", "<related>Beta</related>"),
        ]
    )
    text = HEAD.format(version="4", pre="", cards=cards)
    for where, before_a_tag, snippet, cut in edits:
        places = [at for at, char in enumerate(text) if char == "<"] if before_a_tag else range(len(text))
        at = places[int(where * (len(places) - 1))]
        text = text[:at] + snippet + text[at + cut :]
    source = tmp_path / "cards.xml"
    source.write_text(text, encoding="utf-8")
    index_path = tmp_path / "index.sqlite3"
    try:
        full = read_cockatrice_xml(source)
    except CardDataError:
        assert not build_index(source, index_path, {})
        return
    if not build_index(source, index_path, {}):
        return  # left to the full reader
    write_store(full, tmp_path / "parsed.sqlite3", meta={}, compact=False, level=1)
    index = XmlIndexStore(index_path, source, label="x")
    try:
        found = answers(index)
    except CardDataError:
        return  # a range the index cannot read: a look-up then reads the file whole (see load_cached)
    assert found == answers(CardStore(tmp_path / "parsed.sqlite3"))


def test_a_file_changed_after_it_was_hashed_is_not_read_from(tmp_path: Path) -> None:
    """The ranges are read from the file hashed when the index was opened, and only while it is unchanged."""
    source, text = one_card_file(tmp_path)
    assert build_index(source, tmp_path / "index.sqlite3", {})
    store = XmlIndexStore(tmp_path / "index.sqlite3", source, label="x")  # hashed now
    assert store.card(store.index["alpha"]).faces[0].oracle_text == "One."
    stat = source.stat()
    source.write_text(text.replace("One.", "Two."), encoding="utf-8")  # in place, same size
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    with pytest.raises(IndexMismatch, match="changed while it was read"):
        store.card(store.index["alpha"])


def test_without_pread_the_file_is_sealed_and_read_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where os.pread is missing (Windows), the halves are hashed one after the other: the same seal."""
    source, _ = one_card_file(tmp_path)
    assert build_index(source, tmp_path / "index.sqlite3", {})
    monkeypatch.delattr(os, "pread")
    store = XmlIndexStore(tmp_path / "index.sqlite3", source, label="x")
    assert store.card(store.index["alpha"]).faces[0].oracle_text == "One."
