"""Chart pages of the web view: the ``stats prices`` report and the journal's charts as SVG.

* ``/prices``: every card's auction prices (the ``stats prices`` report), each card linking to
* ``/prices/CARD``: its figures, its picture (Scryfall's, when the viewer is online; its name when not)
  and its price at each sale (``/prices/CARD/chart.svg``); CARD is read as chat reads a card name (any
  case, a phone's ``’``, accents, one face, a unique start), and one that could be several cards, or
  looks like a typo of some, gets a 404 page linking to them;
* ``/game/N/gold.svg``: every player's gold over the running Auction game N;
* ``/league/N/standings.svg``: a league's points (Market Draft) or poison (AutoBattler) by round.

The journal is read on the bot's loop (its connection belongs there); the SVG is drawn by matplotlib in a
worker thread (:func:`cockatrice_ext.reports.journal_charts.prepare_chart`), so a chart never holds up
a bid. The journal only holds what was public when it happened (prices, gold, results, poison); no chart
shows a hidden card. These pages are not live: they read the journal when asked.
"""

from __future__ import annotations

import asyncio
import html
import string
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING
from urllib.parse import quote

from aiohttp import web

from cockatrice_ext.reports.history import either, named_card
from cockatrice_ext.reports.journal_charts import NoChart, prepare_chart
from cockatrice_ext.reports.prices import CardPrices, format_price, journal_prices
from cockatrice_ext.web.views import game_title, league_title

if TYPE_CHECKING:
    from cockatrice_ext.web.server import WebView

SVG_HEADERS = {
    # matplotlib's SVG styles its shapes inline; nothing else may load or run.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
}
SCRYFALL_IMAGE = "https://api.scryfall.com/cards/named?format=image&version=normal&exact="
"""Scryfall answers a card's name with its picture (a redirect to cards.scryfall.io)."""
CARD_PAGE_HEADERS = {
    # The card's picture comes from Scryfall when the viewer is online; offline, its name stands in.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' https://api.scryfall.com "
    "https://cards.scryfall.io; frame-ancestors 'none'",
}
MAX_CARD_NAME = 150
"""No card name is longer (the longest real one is about 140 characters)."""
COLUMNS = ("Card", "Offered", "Sold", "Median", "Mean", "Min", "Max", "Games")


def _cells(row: CardPrices) -> list[str]:
    return [
        str(row.offered),
        str(row.sold),
        *(format_price(v) for v in (row.median, row.mean, row.low, row.high)),
        str(len(row.games)),
    ]


def card_url(name: str) -> str:
    return "/prices/" + quote(name, safe="")


def prices_body(rows: list[CardPrices]) -> str:
    """The report's table, most expensive first (HTML; every name escaped)."""
    if not rows:
        return "<p>No auctions recorded yet.</p>"
    head = "".join(f"<th>{c}</th>" for c in COLUMNS)
    lines = []
    for row in sorted(rows, key=lambda r: (-(r.median or 0), r.name)):
        link = f'<a href="{html.escape(card_url(row.name))}"><bdi>{html.escape(row.name)}</bdi></a>'
        lines.append("<tr><td>" + link + "</td>" + "".join(f"<td>{c}</td>" for c in _cells(row)) + "</tr>")
    body = "".join(lines)
    named = 'id="prices" aria-label="Auction prices"'
    table = f"<table {named}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    # Named as its table; in the tab order (this page has no script to tell whether it scrolls): a keyboard
    # scrolls it on a narrow screen.
    return f'<div class="scroll" role="region" tabindex="0" aria-label="Auction prices">{table}</div>'


def card_body(row: CardPrices) -> str:
    """One card's figures and its price chart (HTML)."""
    figures = "".join(f"<span>{c}: <b>{v}</b></span>" for c, v in zip(COLUMNS[1:], _cells(row), strict=True))
    chart = html.escape(card_url(row.name) + "/chart.svg")
    alt = html.escape(f"{row.name}: price at each sale")
    picture = f'<img id="chart" src="{chart}" alt="{alt}">' if row.sold else "<p>Never sold.</p>"
    image = html.escape(SCRYFALL_IMAGE + quote(row.name, safe=""))
    card = f'<img id="card-image" class="card" src="{image}" alt="{html.escape(row.name)}">'
    back = '<p><a href="/prices">All cards</a></p>'
    return f'<p class="facts">{figures}</p><div class="charted">{card}{picture}</div>{back}'


@dataclass(frozen=True)
class NoSuchCard:
    """An address naming no one card of the journal's: the ``candidates`` it could be (two or more), or
    the ``closest`` names it looks like a typo of."""

    name: str
    candidates: list[str]
    closest: list[str]

    @property
    def offered(self) -> list[str]:
        """The cards to offer instead (none: a bare 404)."""
        return self.candidates or self.closest

    def sentence(self) -> str:
        """The refusal as one line of text."""
        if self.candidates:
            return f"{self.name!r} could be {either(self.candidates)}, each offered at auction"
        return f"no auction of {self.name!r} recorded (did you mean {either(self.closest)}?)"


def not_found_body(missing: NoSuchCard) -> str:
    """The 404 page of a card address that names several cards, or none but looks like a typo of some: the
    cards it could mean, each linking to its page (HTML; every name escaped)."""
    links = ", ".join(
        f'<a href="{html.escape(card_url(name))}"><bdi>{html.escape(name)}</bdi></a>'
        for name in missing.offered
    )
    typed = f"<bdi>{html.escape(missing.name)}</bdi>"
    if missing.candidates:
        said = f"<p>{typed} could be any of these cards offered at auction: {links}.</p>"
    else:
        said = f"<p>No auction of {typed} recorded. Did you mean: {links}?</p>"
    return f'<div id="candidates">{said}</div><p><a href="/prices">All cards</a></p>'


class ChartPages:
    """The report and chart routes of one web view."""

    def __init__(self, view: WebView) -> None:
        self.view = view
        text = resources.files("cockatrice_ext.web").joinpath("templates", "report.html").read_text("utf-8")
        self._page = string.Template(text)

    def routes(self) -> list[web.RouteDef]:
        """The report's pages and the charts (see the module docstring)."""
        return [
            web.get("/prices", self._prices),
            web.get("/prices/{card}", self._card),
            web.get("/prices/{card}/chart.svg", self._card_chart),
            web.get(r"/game/{game:\d{1,9}}/gold.svg", self._gold),
            web.get(r"/league/{league:\d{1,9}}/standings.svg", self._standings),
        ]

    def _html(self, title: str, body: str) -> web.Response:
        page = self._page.substitute(title=html.escape(title), body=body)
        return web.Response(text=page, content_type="text/html")

    def _card_prices(self, request: web.Request) -> CardPrices | NoSuchCard:
        """The card the address names, as chat reads a card name (:func:`named_card`), or what to say."""
        name = request.match_info["card"]
        if len(name) > MAX_CARD_NAME:
            raise web.HTTPNotFound()
        rows = {row.name: row for row in journal_prices(self.view.bot.journal).values()}
        found, closest = named_card(name, rows)
        if len(found) == 1:
            return rows[found[0]]
        return NoSuchCard(name, candidates=found, closest=closest)

    async def _prices(self, request: web.Request) -> web.Response:
        rows = list(journal_prices(self.view.bot.journal).values())
        return self._html("Auction prices", prices_body(rows))

    async def _card(self, request: web.Request) -> web.Response:
        row = self._card_prices(request)
        if isinstance(row, NoSuchCard):
            if not row.offered:
                raise web.HTTPNotFound()
            response = self._html(f"{row.name}: auction prices", not_found_body(row))
            response.set_status(404)
            return response
        response = self._html(f"{row.name}: auction prices", card_body(row))
        response.headers.update(CARD_PAGE_HEADERS)
        return response

    async def _card_chart(self, request: web.Request) -> web.Response:
        row = self._card_prices(request)
        if isinstance(row, NoSuchCard):
            if not row.offered:
                raise web.HTTPNotFound()
            return web.Response(status=404, text=f"error: {row.sentence()}")
        return await self._chart("prices", row.name)

    async def _gold(self, request: web.Request) -> web.Response:
        referee = self.view._live(int(request.match_info["game"]))
        if referee is None or referee.format_name != "auction" or referee.table is None:
            raise web.HTTPNotFound()
        return await self._chart("gold", referee.table.key, game_title(referee))

    async def _standings(self, request: web.Request) -> web.Response:
        number, league = self.view.boards.league(request)
        return await self._chart("standings", league.key, league_title(league, number))

    async def _chart(self, kind: str, subject: str, title: str = "") -> web.Response:
        try:
            draw = prepare_chart(self.view.bot.journal, kind, subject, title)
        except NoChart:
            raise web.HTTPNotFound() from None
        svg = await asyncio.get_running_loop().run_in_executor(None, draw)
        return web.Response(body=svg, content_type="image/svg+xml", headers=SVG_HEADERS)
