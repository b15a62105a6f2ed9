"""Charts as SVG, drawn by matplotlib (Agg backend, no display): data in, bytes out, nothing else.

matplotlib is imported on the first chart, not with this module, so the bot and the command line start
no slower. The SVG keeps its text as text (player and card names are searchable and scale cleanly), and
carries no date, so the same data gives the same bytes. Each data line is the SVG group ``series-N`` (N
the line's place in the series given). No pyplot, no display: figures are rendered by the SVG backend
alone.

Colour is never the only difference between lines (WCAG 1.4.1): each series has its own marker and line
style (``STYLES``), shown in the legend beside its name. The SVG opens with a ``<title>`` (the chart's title)
and a ``<desc>`` saying each line's look and its last value, its text alternative (WCAG 1.1.1).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from cockatrice_ext.reports.history import Sale, Series

_DRAWING = threading.Lock()
"""matplotlib's global state (rc parameters, font cache) is not thread-safe; the web view draws in threads."""

METRIC_LABELS = {"points": "Points", "poison": "Poison"}

MARKERS = (("o", "circles"), ("s", "squares"), ("^", "triangles"), ("D", "diamonds"), ("v", "down triangles"),
           ("P", "pluses"), ("X", "crosses"), ("*", "stars"))  # fmt: skip
LINE_STYLES = (
    ("-", "solid"),
    ((0, (6, 3)), "dashed"),
    ((0, (1, 2)), "dotted"),
    ((0, (6, 2, 1, 2)), "dash-dot"),
)
STYLES = [
    (marker, marker_name, line, line_name)
    for (marker, marker_name), (line, line_name) in zip(
        MARKERS, [LINE_STYLES[n % len(LINE_STYLES)] for n in range(len(MARKERS))], strict=True
    )
]
"""Each line's look by its place: a marker and a line style, the pair different for each of the first eight
(then repeated; the legend still names each line)."""


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _described(svg: bytes, title: str, desc: str) -> bytes:
    """``svg`` with a ``<title>`` and a ``<desc>`` as the root element's first children (escaped text)."""
    start = svg.index(b"<svg")
    end = svg.index(b">", start) + 1
    alternative = f"\n <title>{escape(title)}</title>\n <desc>{escape(desc)}</desc>"
    return svg[:end] + alternative.encode("utf-8") + svg[end:]


def _figure(title: str, xlabel: str, ylabel: str) -> tuple[Any, Any]:
    from matplotlib.figure import Figure  # lazy: see the module docstring

    figure = Figure(figsize=(7.5, 4.0), dpi=100, layout="constrained")
    axes = figure.add_subplot()
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, alpha=0.3)
    return figure, axes


def _integer_axes(axes: Any, xs: Sequence[float]) -> None:
    """Whole-number ticks on x (sales, actions, rounds); y from 0 (gold, points and poison are never
    negative); a single x value gets room on both sides."""
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylim(bottom=0)
    if xs and min(xs) == max(xs):
        axes.set_xlim(xs[0] - 1, xs[0] + 1)


def _svg(figure: Any) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def _lines(
    title: str, xlabel: str, ylabel: str, series: Mapping[str, Sequence[tuple[float, float]]], *, steps: bool
) -> bytes:
    import matplotlib

    # Names are user text: a "$" in one must not start matplotlib's math mode.
    settings = {"svg.fonttype": "none", "svg.hashsalt": "cockatrice-ext", "text.parse_math": False}
    with _DRAWING, matplotlib.rc_context(settings):
        figure, axes = _figure(title, xlabel, ylabel)
        said: list[str] = []
        for number, (label, points) in enumerate(series.items()):
            if not points:
                continue
            xs, ys = zip(*points, strict=True)
            marker, marker_name, line, line_name = STYLES[number % len(STYLES)]
            style: dict[str, Any] = {
                "label": label,
                "marker": marker,
                "linestyle": line,
                "gid": f"series-{number}",
            }
            if steps:
                axes.step(xs, ys, where="post", markersize=5, **style)
            else:
                axes.plot(xs, ys, markersize=6, **style)
            said.append(f"{label} ({line_name} line, {marker_name}): {_number(ys[-1])} at the end")
        if said:
            axes.legend(loc="best", fontsize="small", handlelength=3.5)
            desc = f"{ylabel} by {xlabel}. " + "; ".join(said) + "."
        else:
            axes.text(0.5, 0.5, "nothing recorded yet", ha="center", va="center", transform=axes.transAxes)
            desc = "Nothing recorded yet."
        _integer_axes(axes, [x for points in series.values() for x, _ in points])
        return _described(_svg(figure), title, desc)


def price_chart(card: str, sales: Sequence[Sale]) -> bytes:
    """A card's price at each sale, in game order (a lot's price shared between its cards)."""
    points = [(float(number), sale.price) for number, sale in enumerate(sales, start=1)]
    return _lines(f"{card}: auction prices", "sale (oldest game first)", "gold", {card: points}, steps=False)


def gold_chart(game: str, series: Series) -> bytes:
    """Every player's gold over one Auction game (a step per journaled action that changed it)."""
    return _lines(f"Gold over {game}", "journaled action", "gold", series, steps=True)


def standings_chart(league: str, metric: str, series: Series) -> bytes:
    """A league's points (Market Draft) or poison (AutoBattler) per player after each round."""
    label = METRIC_LABELS.get(metric, metric)
    return _lines(f"{league}: {label.lower()} by round", "round", label, series, steps=False)
