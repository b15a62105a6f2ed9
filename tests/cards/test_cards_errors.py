"""Error texts of the card-data layer: a malformed file says where once, and what is wrong in words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.errors import CardDataError, xml_syntax_message


def _syntax_error(data: bytes) -> etree.XMLSyntaxError:
    with pytest.raises(etree.XMLSyntaxError) as info:
        etree.fromstring(data, etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True))
    return info.value


def test_a_malformed_card_database_names_its_position_once() -> None:
    data = (
        b'<?xml version="1.0"?>\n<cockatrice_carddatabase version="4">'
        b"<cards><card><name>X</name>\n<text>oops</card>"
    )
    with pytest.raises(CardDataError) as info:
        read_cockatrice_xml(data, name="cards.xml")
    assert str(info.value) == "cards.xml:3:18: malformed XML: <text> opened on line 3 is closed by </card>"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"<a>&foo;</a>", "Entity 'foo' not defined"),
        (b"", "Document is empty"),
        (b"<a></a><b/>", "Extra content at the end of the document"),
    ],
)
def test_other_syntax_errors_keep_libxml_words_without_the_position(data: bytes, reason: str) -> None:
    assert xml_syntax_message(_syntax_error(data)) == reason


@given(st.binary(max_size=64))
def test_any_bytes_give_a_reason_without_a_trailing_position(data: bytes) -> None:
    try:
        etree.fromstring(
            b"<a>" + data, etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True)
        )
    except etree.XMLSyntaxError as error:
        reason = xml_syntax_message(error)
        assert reason and ", column " not in reason
