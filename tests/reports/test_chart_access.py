"""Charts readable without colour and without sight: each line its own marker and line style (WCAG 1.4.1),
and the SVG's own text alternative, a ``<title>`` and a ``<desc>`` saying each line's last value (1.1.1)."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from cockatrice_ext.reports import charts

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def parsed(svg: bytes) -> ElementTree.Element:
    return ElementTree.fromstring(re.sub(rb"<!DOCTYPE[^>]*>", b"", svg))


def looks(svg: bytes) -> list[tuple[str, str]]:
    """Each data line's (dashes, marker): its path's stroke-dasharray ("solid" when none) and the marker
    shape its points use."""
    root = parsed(svg)
    shapes = {path.get("id"): path.get("d") for path in root.iter(f"{SVG}path") if path.get("id")}
    found = []
    for group in root.iter(f"{SVG}g"):
        if not group.get("id", "").startswith("series-"):
            continue
        line = group.find(f"{SVG}path")
        assert line is not None
        dashes = re.search(r"stroke-dasharray: ([^;]+)", line.get("style", ""))
        use = next(group.iter(f"{SVG}use"))
        found.append((dashes.group(1) if dashes else "solid", shapes[use.get(XLINK, "").lstrip("#")]))
    return found


def test_each_line_has_its_own_marker_and_line_style() -> None:
    for size in (2, 4, 8):
        series = {f"p{n}": [(0.0, float(n)), (1.0, float(n + 1))] for n in range(size)}
        drawn = looks(charts.gold_chart("g", series))
        assert len(drawn) == size
        assert len({marker for _, marker in drawn}) == size, drawn  # a shape each, up to eight
        assert len({dashes for dashes, _ in drawn}) == min(size, 4), drawn
        assert len(set(drawn)) == size


def test_the_svg_has_a_title_and_a_description_of_each_line() -> None:
    series = {"alice": [(0.0, 10.0), (3.0, 7.0)], "b <&> $x$": [(0.0, 10.0), (2.0, 12.5)]}
    svg = charts.gold_chart("game #4", series)
    root = parsed(svg)
    assert root[0].tag == f"{SVG}title" and root[0].text == "Gold over game #4"
    assert root[1].tag == f"{SVG}desc"
    desc = root[1].text or ""
    assert "alice (solid line, circles): 7 at the end" in desc, desc
    assert "b <&> $x$ (dashed line, squares): 12.5 at the end" in desc, desc
    standings = parsed(charts.standings_chart("L", "points", {"ann": [(1.0, 3.0)], "ben": [(1.0, 0.0)]}))
    assert standings[0].text == "L: points by round"
    assert "ann (solid line, circles): 3" in (standings[1].text or "")
    empty = parsed(charts.standings_chart("L", "points", {"ann": []}))
    assert empty[1].text == "Nothing recorded yet."
