"""Chart pages: the ``stats prices`` report as pages and the journal's charts as SVG, served by aiohttp in
front of a real Auction referee (no Servatrice: :mod:`cockatrice_ext.web.demo` stands in)."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Awaitable, Callable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import aiohttp
from hypothesis import given
from hypothesis import strategies as st
from reports.test_charts import svg_lines, svg_texts

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.formats import auction as am
from cockatrice_ext.reports.prices import CardPrices
from cockatrice_ext.web.charts import card_body, prices_body
from cockatrice_ext.web.demo import demo_bot, seat_game
from cockatrice_ext.web.server import WebOptions, WebView

GAME = 1


def sell_one_lot(referee: AuctionReferee, price: int) -> list[str]:
    """The first bidder buys the first lot at ``price``; the others pass. Returns the lot's card names."""
    engine = referee.engine
    referee.apply(am.BeginTurn(None, active=engine.players[0]))
    referee.apply(am.StartAuctionStep(None))
    lot = engine.current_lot()
    assert lot is not None
    names = [card["name"] for card in lot["cards"]]
    referee.apply(am.Bid(engine.whose_bid(), amount=price))
    while engine.current_lot() is not None and engine.current_lot()["lot_no"] == lot["lot_no"]:
        referee.apply(am.Pass(engine.whose_bid()))
    for player in engine.players:
        if engine.pending_choice(player):
            referee.apply(am.Keep(player))
    return names


def serve(
    tmp_path: Path, body: Callable[[str, AuctionReferee, aiohttp.ClientSession], Awaitable[None]]
) -> None:
    async def run() -> None:
        async def chat(_destination: object, _message: str) -> None:
            return None

        bot = demo_bot(tmp_path / "journal.sqlite3", chat)
        web = WebView(bot, WebOptions(port=0, requests_per_second=1000.0, request_burst=1000))
        await web.start()
        seat_game(bot, GAME, ["alice", "bob"])
        referee = AuctionReferee(bot, GAME, 1, AuctionOptions(seats=2, seed=7), load_block("auction-sample"))
        bot.adopt_game(referee)
        await referee.start_engine()
        session = aiohttp.ClientSession()
        try:
            await asyncio.wait_for(body(f"http://127.0.0.1:{web.port}", referee, session), 60)
        finally:
            await session.close()
            await web.stop()
            bot.chat.close()

    asyncio.run(run())


def test_prices_pages_and_charts(tmp_path: Path) -> None:
    async def body(base: str, referee: AuctionReferee, session: aiohttp.ClientSession) -> None:
        async with session.get(base + "/prices") as response:
            assert response.status == 200 and "No auctions recorded yet" in await response.text()
        [card, *_] = sell_one_lot(referee, price=3)
        async with session.get(base + "/prices") as response:
            page = await response.text()
            assert f'href="/prices/{quote(card, safe="")}"' in page
        async with session.get(f"{base}/prices/{quote(card.upper(), safe='')}") as response:  # any case
            page = await response.text()
            assert response.status == 200 and 'id="chart"' in page and f"{card}: auction prices" in page
            image = "https://api.scryfall.com/cards/named?format=image&amp;version=normal&amp;exact="
            assert f'src="{image}{quote(card, safe="")}" alt="{html.escape(card)}"' in page  # offline: name
            assert "img-src 'self' https://api.scryfall.com" in response.headers["Content-Security-Policy"]
        async with session.get(f"{base}/prices/{quote(card, safe='')}/chart.svg") as response:
            assert response.status == 200 and response.content_type == "image/svg+xml"
            assert "style-src 'unsafe-inline'" in response.headers["Content-Security-Policy"]
            assert response.headers["X-Content-Type-Options"] == "nosniff"  # the other headers stay
            svg = await response.read()
            assert f"{card}: auction prices" in svg_texts(svg) and svg_lines(svg) == 1
        async with session.get(f"{base}/game/{GAME}/gold.svg") as response:
            assert response.status == 200
            svg = await response.read()
            assert {"alice", "bob"} <= set(svg_texts(svg)) and svg_lines(svg) == 2
            assert f"Gold over Auction Magic game #{GAME}" in svg_texts(svg)  # named as the pages name it
        for missing in ("/prices/No%20Such%20Card", "/prices/No%20Such%20Card/chart.svg", "/game/2/gold.svg"):
            async with session.get(base + missing) as response:
                assert response.status == 404, missing
                assert (await response.text()).startswith("error: ")

    serve(tmp_path, body)


def test_report_pages_escape_names() -> None:
    row = CardPrices("<script>&", prices=[2.0], games={"g"})
    for page in (prices_body([row]), card_body(row)):
        assert "<script>" not in page and "&lt;script&gt;&amp;" in page
    assert "/prices/%3Cscript%3E%26" in prices_body([row])


@given(st.text(min_size=1, max_size=40))
def test_any_name_is_text_on_the_report_pages(name: str) -> None:
    """Whatever a journal holds as a card name, the pages show it as text: their markup is their own."""
    row = CardPrices(name, prices=[1.0], games={"g"})
    report, card = Fragment(prices_body([row])), Fragment(card_body(row))
    assert name in report.texts and card.alts == [name, f"{name}: price at each sale"]
    assert report.tags | card.tags <= {
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "a",
        "p",
        "span",
        "b",
        "div",
        "img",
        "bdi",
    }


class Fragment(HTMLParser):
    """The tags, texts and image descriptions of a page fragment, as a browser reads them."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.texts: list[str] = []
        self.alts: list[str | None] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag == "img":
            self.alts.append(dict(attrs).get("alt"))

    def handle_data(self, data: str) -> None:
        self.texts.append(data)
