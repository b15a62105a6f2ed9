"""What a Cockatrice card database says and the reader keeps, so that exporting it gives it back: set
priorities, ``<cipt>``, Cockatrice's mana cost spellings (braceless hybrids), rarities as spelled; and a
field-by-field round trip of Magic-Spoiler's real spoiler.xml through ``export --to cockatrice-xml``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.model import COLORS, Face
from cockatrice_ext.cards.text import normalise_rarity
from cockatrice_ext.cards.xml_index import XmlIndexStore, build_index
from cockatrice_ext.cli import main

SPOILER = "spoiler-magic-spoiler.xml"


def _db(cards: str, sets: str = "", version: str = "4") -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="{version}">'
        f"<sets>{sets}</sets><cards>{cards}</cards></cockatrice_carddatabase>"
    ).encode()


def _set(code: str, priority: str | None) -> str:
    given = "" if priority is None else f"<priority>{priority}</priority>"
    return f"<set><name>{code}</name><longname>{code} long</longname><settype>Custom</settype>{given}</set>"


@pytest.mark.parametrize("version", ["3", "4"])
def test_a_set_keeps_its_priority_as_cockatrice_reads_it(version: str) -> None:
    """0 (Fallback) is a priority, not an absent one; text Cockatrice's toShort refuses is its 0; no
    ``<priority>`` leaves None, for the writer to rank the set by its type."""
    given = {"ZER": "0", "PRI": "10", "LOW": " 100 ", "BAD": "ten", "BIG": "70000", "NEG": "-5", "NON": None}
    sets = "".join(_set(code, priority) for code, priority in given.items())
    db = read_cockatrice_xml(_db("", sets, version))
    got = {code: db.sets[code].priority for code in given}
    assert got == {"ZER": 0, "PRI": 10, "LOW": 100, "BAD": 0, "BIG": 0, "NEG": -5, "NON": None}


def _card(name: str, extra: str = "", cost: str = "") -> str:
    props = "<type>Land</type>" + (f"<manacost>{cost}</manacost>" if cost else "")
    return f"<card><name>{name}</name><text>t</text><prop>{props}</prop><set>CUS</set>{extra}</card>"


def test_each_card_keeps_what_its_cipt_said() -> None:
    """Cockatrice reads ``<cipt>`` as tapped only when its text is exactly ``1``; a card without one said
    untapped (False), whatever its text says; both faces of an ``A // B`` card share the flag."""
    cards = (
        _card("Tapped", "<cipt>1</cipt>"),
        _card("Untapped", "<cipt>0</cipt>"),
        _card("Silent"),  # enters tapped by its text, but the file gave no <cipt>
        _card("Spaced", "<cipt> 1 </cipt>"),
        _card("Left // Right", "<cipt>1</cipt>").replace("<type>Land</type>", "<type>Land // Land</type>"),
    )
    db = read_cockatrice_xml(
        _db("".join(cards).replace("<text>t</text>", "<text>Silent enters tapped.</text>"))
    )
    got = {name: [face.cipt for face in card.faces] for name, card in db.cards.items()}
    assert got == {
        "Tapped": [True],
        "Untapped": [False],
        "Silent": [False],
        "Spaced": [False],
        "Left // Right": [True, True],
    }
    assert Face("Plains", cipt=True) == Face("Plains")  # the same face, whichever file described it


@pytest.mark.parametrize(
    ("written", "braced", "mana_value"),
    [
        ("1B/GB/G", "{1}{B/G}{B/G}", 3),  # Magic-Spoiler: no braces at all (Bebop & Rocksteady)
        ("4W/BW/B", "{4}{W/B}{W/B}", 6),
        ("G/W", "{G/W}", 1),
        ("2{W/U}", "{2}{W/U}", 3),  # Oracle: braces kept around slashed symbols only
        ("1{B/G}{B/G}", "{1}{B/G}{B/G}", 3),
        ("2/W2/W2/W", "{2/W}{2/W}{2/W}", 6),  # Spectral Procession
        ("12/W", "{1}{2/W}", 3),  # a digit before a slash belongs to the pair
        ("W/P", "{W/P}", 1),  # phyrexian
        ("1G/U/P", "{1}{G/U/P}", 2),  # phyrexian hybrid
        ("{W/P}{W/P}", "{W/P}{W/P}", 2),
        ("XWU", "{X}{W}{U}", 2),
        ("XXR", "{X}{X}{R}", 1),
        ("10", "{10}", 10),  # numbers over 9 stay one symbol
        ("15", "{15}", 15),
        ("2C", "{2}{C}", 3),
        ("1SS", "{1}{S}{S}", 3),  # snow
        ("HW", "{HW}", 0.5),  # half mana
        ("{2}{w}", "{2}{W}", 3),  # already braced
    ],
)
def test_cockatrice_mana_costs_read_symbol_by_symbol(written: str, braced: str, mana_value: float) -> None:
    db = read_cockatrice_xml(_db(_card("Costly", cost=written).replace("Land", "Sorcery")))
    card = db.cards["Costly"]
    assert card.mana_cost == braced
    assert card.mana_value == mana_value  # no <cmc>: counted from the cost


def test_a_split_card_takes_each_halfs_colours_from_its_braceless_hybrid_cost() -> None:
    card = _card("Odds // Ends", cost="U/RU/R // 3RW").replace("Land", "Instant // Instant")
    odds, ends = read_cockatrice_xml(_db(card)).cards["Odds // Ends"].faces
    assert (odds.mana_cost, odds.colors) == ("{U/R}{U/R}", ("U", "R"))
    assert (ends.mana_cost, ends.colors) == ("{3}{R}{W}", ("W", "R"))


def test_a_rarity_is_normalised() -> None:
    """Every reader of rarities compares ``mythic`` (Oracle's spelling, which Cockatrice's filters match)."""
    printings = (
        '<set rarity="Mythic Rare">AAA</set><set rarity="common">BBB</set><set rarity="Rare">CCC</set>'
    )
    db = read_cockatrice_xml(_db(_card("Rated").replace("<set>CUS</set>", printings)))
    got = [(p.set_code, p.rarity) for p in db.cards["Rated"].printings]
    assert got == [("AAA", "mythic"), ("BBB", "common"), ("CCC", "rare")]


# -- the real spoiler file, exported and read again ---------------------------------------------------------

# Props the export adds where the file has none (the help: layout, side, colour identity).
_ADDED_PROPS = frozenset({"layout", "side", "coloridentity"})


def _sets(root: etree._Element) -> dict[str, dict[str, str]]:
    listed = root.find("sets")
    listed = [] if listed is None else listed.findall("set")
    return {s.findtext("name", ""): {child.tag: (child.text or "") for child in s} for s in listed}


def _cards(root: etree._Element) -> dict[str, dict[str, object]]:
    """Each card by name, as Cockatrice merges a name given twice: the first ``<card>``'s fields, every
    ``<card>``'s printings."""
    out: dict[str, dict[str, object]] = {}
    listed = root.find("cards")
    for card in [] if listed is None else listed:
        fields: dict[str, object] = {}
        printings: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        links: list[tuple[str, str, tuple[tuple[str, str], ...]]] = []
        for child in card:
            if child.tag == "prop":
                fields.update({f"prop {p.tag}": p.text or "" for p in child})
            elif child.tag == "set":
                printings.append((child.text or "", tuple(sorted(child.attrib.items()))))
            elif child.tag in ("related", "reverse-related"):
                links.append((child.tag, child.text or "", tuple(sorted(child.attrib.items()))))
            else:
                fields[child.tag] = child.text or ""
        name = str(fields["name"])
        if name in out:
            out[name]["printings"] = sorted([*out[name]["printings"], *printings])  # type: ignore[misc]
            continue
        out[name] = {**fields, "printings": sorted(printings), "links": sorted(links)}
    return out


def _parse(path: Path) -> etree._Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    return etree.parse(str(path), parser).getroot()


def _same_colours(before: str, after: str) -> bool:
    return sorted(before) == sorted(after) and after == "".join(c for c in COLORS if c in after)


def _spelled_otherwise(key: str, before: object, after: object) -> bool:
    """What the writer spells its own way: a hybrid cost in
    Oracle's form (``1B/GB/G`` -> ``1{B/G}{B/G}``, the form Cockatrice's client parses), a rarity
    lower-cased (``Mythic Rare`` -> ``mythic``, as Oracle writes it and Cockatrice's rarity filters match)."""
    if key == "prop manacost":  # braces around each slashed pair, as Oracle writes it, and nothing else
        return re.sub(r"[0-9A-Z](?:/[0-9A-Z])+", lambda m: "{" + m.group(0) + "}", str(before)) == after
    if key == "printings":
        assert isinstance(before, list)
        lowered = [
            (code, tuple((k, normalise_rarity(v) if k == "rarity" else v) for k, v in attrs))
            for code, attrs in before
        ]
        return lowered == after
    return False


def test_the_spoiler_file_exported_as_cockatrice_xml_comes_back_field_by_field(
    shared_cockatrice: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    source = shared_cockatrice / SPOILER
    out = tmp_path / "round-trip.xml"
    result = CliRunner().invoke(main, ["export", str(source), "--to", "cockatrice-xml", "-o", str(out)])
    assert result.exit_code == 0, result.output
    before_root, after_root = _parse(source), _parse(out)

    assert _sets(after_root) == _sets(before_root)  # TMC~ keeps <priority>0</priority>
    before, after = _cards(before_root), _cards(after_root)
    assert list(after) == list(before)

    unexplained: list[str] = []
    writer_spelling: list[str] = []
    for name, fields in before.items():
        again = after[name]
        for key in sorted(set(fields) | set(again)):
            old, new = fields.get(key), again.get(key)
            if old == new:
                continue
            if old is None and key.removeprefix("prop ") in _ADDED_PROPS:
                continue
            if key == "prop colors" and _same_colours(str(old), str(new)):
                continue
            where = f"{name}: {key} {old!r} -> {new!r}"
            (writer_spelling if _spelled_otherwise(key, old, new) else unexplained).append(where)
    assert unexplained == []  # no <cipt> added, no {/} in a cost, every field else as the file gave it
    assert "cipt" not in "".join(writer_spelling)


def test_a_file_looked_up_through_its_index_keeps_priorities_and_cipt(tmp_path: Path) -> None:
    """A big card file looked up by name is indexed, not converted: its sets come from the index."""
    source = tmp_path / "custom.xml"
    sets = _set("ZER", "0") + _set("NON", None)
    cards = _card("Tapped", "<cipt>1</cipt>") + _card("Other").replace("CUS", "NON")
    source.write_bytes(_db(cards.replace("<set>CUS</set>", "<set>ZER</set>"), sets))
    assert build_index(source, tmp_path / "index.sqlite3", {})
    index = XmlIndexStore(tmp_path / "index.sqlite3", source, label="x")
    db = index.cards_for(["Tapped", "Other"])
    assert {code: s.priority for code, s in db.sets.items()} == {"ZER": 0, "NON": None}
    assert [db.cards[name].front.cipt for name in ("Tapped", "Other")] == [True, False]
