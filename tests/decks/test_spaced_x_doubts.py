"""``1 X Fire|Ice``: a spaced ``x`` after the count (a count marker, or a designer's name's first word) and a
single ``|`` (a split card's halves, or Forge's set) on one line. Each side, with the ``x`` and without,
has both its ``|`` forms weighed, and the doubt is said as the other forms are: only when the card data
knows both forms of the side read, or neither, and then in that side's own words. (The ``x`` side used to
drop its other form and keep the reader's warning, naming the card without its ``x``; the plain side was
chosen by its split-card form alone.)"""

from __future__ import annotations

from pathlib import Path

from cockatrice_ext.decks.resolve_list import read_block

SET_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>{code}</name><longname>A designer's set</longname><settype>Custom</settype></set></sets>
  <cards>{cards}
  </cards>
</cockatrice_carddatabase>
"""
SPLIT = """
    <card>
      <name>{name}</name>
      <text>Deal X damage.

---

Tap target permanent.</text>
      <prop><layout>split</layout><side>front</side><type>Instant // Instant</type>
        <maintype>Instant</maintype><manacost>XR // 1U</manacost><cmc>3</cmc></prop>
      <set rarity="common" num="1">{code}</set>
    </card>"""
PLAIN = """
    <card>
      <name>{name}</name>
      <text>Deal 1 damage to any target.</text>
      <prop><layout>normal</layout><side>front</side><type>Instant</type><maintype>Instant</maintype>
        <manacost>R</manacost><cmc>1</cmc></prop>
      <set rarity="common" num="2">{code}</set>
    </card>"""


def _read(folder: Path, text: str, code: str = "ICE", *cards: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The block ``text`` read and resolved with the designer's ``cards`` (set ``code``) beside it: its cards
    with their set, and the warnings said."""
    path = folder / "xblock.txt"
    path.write_text(text, encoding="utf-8")
    if cards:
        (folder / "xblock.xml").write_text(SET_HEAD.format(code=code, cards="".join(cards)), encoding="utf-8")
    said: list[str] = []
    resolved = read_block(path, say=said.append)
    read = [(e.card.name, e.printing.set_code if e.printing else "") for _, e in resolved.entries()]
    return read, [line for line in said if line.startswith("warning:")]


def test_the_designers_split_card_with_its_x_is_read_without_a_doubt(tmp_path: Path) -> None:
    """The card data knows ``X Fire // Ice`` and no ``X Fire`` of a set ICE: nothing to doubt (it used to say
    "Fire|Ice read as the split card Fire // Ice", of a card it did not read). The card data also knows the
    real ``Fire // Ice``: the ``x`` side wins as a known ``X Walker`` always did."""
    read, warnings = _read(tmp_path, "1 X Fire|Ice\n", "XFI", SPLIT.format(name="X Fire // Ice", code="XFI"))
    assert read == [("X Fire // Ice", "")]  # no set pinned
    assert warnings == []


def test_the_designers_card_of_set_ice_with_its_x_is_read_so(tmp_path: Path) -> None:
    """``X Walker`` of the designer's set ICE: ``1 X Walker|Ice`` is that card (it used to be read as the
    unknown split card ``X Walker // Ice``)."""
    read, warnings = _read(tmp_path, "1 X Walker|Ice\n", "ICE", PLAIN.format(name="X Walker", code="ICE"))
    assert read == [("X Walker", "ICE")]
    assert warnings == []


def test_both_forms_with_the_x_known_is_a_doubt_said_in_the_x_readings_words(tmp_path: Path) -> None:
    designer = (SPLIT.format(name="X Fire // Ice", code="ICE"), PLAIN.format(name="X Fire", code="ICE"))
    read, warnings = _read(tmp_path, "4 Shock\n1 X Fire|Ice\n", "ICE", *designer)
    assert read == [("Shock", ""), ("X Fire // Ice", "")]
    (doubt,) = warnings
    assert ":2: X Fire|Ice read as the split card X Fire // Ice; Forge's set ICE is written X Fire|ICE" in (
        doubt
    )


def test_both_forms_without_the_x_known_is_a_doubt_said_as_before(tmp_path: Path) -> None:
    """A designer's ``Fire`` of a set coded ICE, and the real ``Fire // Ice``: the line's ``x`` is a count
    marker (neither ``X Fire`` form is known), and the doubt between the plain forms is said."""
    read, warnings = _read(tmp_path, "1 X Fire|Ice\n", "ICE", PLAIN.format(name="Fire", code="ICE"))
    assert read == [("Fire // Ice", "")]
    (doubt,) = warnings
    assert ":1: Fire|Ice read as the split card Fire // Ice; Forge's set ICE is written Fire|ICE" in doubt


def test_the_real_split_card_behind_a_count_marker_is_read_silently(tmp_path: Path) -> None:
    for line in ("1 X Fire|Ice\n", "2 x Fire|Ice\n", "1 X Fire|ice\n"):
        read, warnings = _read(tmp_path, line)
        assert [name for name, _ in read] == ["Fire // Ice"], line
        assert warnings == [], line
