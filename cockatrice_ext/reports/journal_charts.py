"""The journal's charts by name, for the command line (``stats chart``) and the web view alike.

:func:`prepare_chart` reads the journal at once and returns the drawing to do: the web view reads on
its event loop (the journal's connection belongs to it) and draws in a worker thread.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from cockatrice_ext.journal import Journal, JournalError
from cockatrice_ext.reports import charts
from cockatrice_ext.reports.history import card_sales, gold_series, standings_series, table_title
from cockatrice_ext.reports.prices import AUCTION_ENGINE

CHARTS = ("prices", "gold", "standings")
"""``prices`` CARD, ``gold`` GAME (an Auction game's journal key), ``standings`` LEAGUE (a league's key)."""


class NoChart(LookupError):
    """Nothing to chart: an unknown game or league, or a card never sold. The message says which."""


def prepare_chart(journal: Journal, kind: str, subject: str, title: str = "") -> Callable[[], bytes]:
    """Fold the journal for chart ``kind`` of ``subject``; the result draws the SVG when called.

    ``title`` names the game or league in the picture (default: its :func:`table_title`, never the raw
    journal key).

    Raises:
        NoChart: see the class.
    """
    if kind == "prices":
        sales = card_sales(journal, subject)
        if not sales:
            raise NoChart(f"{subject!r} was never sold at auction")
        return functools.partial(charts.price_chart, subject, sales)
    try:
        if kind == "gold":
            series = gold_series(journal, subject)
            return functools.partial(
                charts.gold_chart, title or table_title(journal, subject, AUCTION_ENGINE), series
            )
        if kind == "standings":
            metric, standings = standings_series(journal, subject)
            named = title or table_title(journal, subject)
            return functools.partial(charts.standings_chart, named, metric, standings)
    except JournalError as exc:
        raise NoChart(str(exc)) from None
    raise ValueError(f"no chart named {kind!r}")
