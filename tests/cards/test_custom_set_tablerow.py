"""A designer's custom set says where its cards sit: its ``<tablerow>`` is kept through a conversion.

Seen by a block designer: a custom set (as Cockatrice's own test set) putting its creatures in row 0 came
out of ``export --to cockatrice-xml`` with row 2 (the creature row): the reader dropped the value and the
writer judged by the types. A value that is no row of Cockatrice's table is judged by the types.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree

from cockatrice_ext.cli import main

CUSTOM_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="3">
  <cards>
    <card>
      <name>Perched Finch</name>
      <set>FNC</set>
      <color>W</color>
      <manacost>W</manacost>
      <cmc>1</cmc>
      <type>Creature - Bird</type>
      <pt>1/1</pt>
      <tablerow>{row}</tablerow>
      <text>Flying</text>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


@pytest.mark.parametrize(("given", "written"), [("0", "0"), ("3", "3"), ("7", "2"), ("x", "2")])
def test_a_custom_sets_table_row_is_kept_and_a_bad_one_judged_by_type(
    tmp_path: Path, given: str, written: str
) -> None:
    source = tmp_path / "finches.xml"
    source.write_text(CUSTOM_SET.format(row=given), encoding="utf-8")
    out = tmp_path / "out.xml"
    result = CliRunner().invoke(main, ["export", str(source), "--to", "cockatrice-xml", "-o", str(out)])
    assert result.exit_code == 0, result.output
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    cards = etree.parse(str(out), parser).getroot().iter("{*}card", "card")
    rows = {
        card.findtext("{*}name") or card.findtext("name"): card.findtext(".//{*}tablerow") for card in cards
    }
    assert rows == {"Perched Finch": written}, rows
