"""``/prices/CARD`` reads CARD as chat reads a card name (a phone's ``’``, no accents, a unique start);
one that could be several cards, or looks like a typo of some, gets a 404 page linking to them."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import quote

import aiohttp
from reports.test_chart_names import sell_all

from cockatrice_ext.web.demo import demo_bot
from cockatrice_ext.web.server import WebOptions, WebView


def serve(tmp_path: Path, body: Callable[[str, aiohttp.ClientSession], Awaitable[None]]) -> None:
    """A web view over a journal in which one Auction game sold the test cards."""

    async def run() -> None:
        async def chat(_destination: object, _message: str) -> None:
            return None

        bot = demo_bot(tmp_path / "journal.sqlite3", chat)
        sell_all(bot.journal, "g1")
        web = WebView(bot, WebOptions(port=0, requests_per_second=1000.0, request_burst=1000))
        await web.start()
        session = aiohttp.ClientSession()
        try:
            await asyncio.wait_for(body(f"http://127.0.0.1:{web.port}", session), 60)
        finally:
            await session.close()
            await web.stop()
            bot.chat.close()

    asyncio.run(run())


def test_card_pages_take_names_as_chat_does(tmp_path: Path) -> None:
    async def body(base: str, session: aiohttp.ClientSession) -> None:
        for typed, card in (
            ("jotun grunt", "Jötun Grunt"),
            ("Lim-Dul\u2019s Vault", "Lim-Dûl's Vault"),
            ("chimney", "Chimney Imp"),
        ):
            async with session.get(f"{base}/prices/{quote(typed, safe='')}") as response:
                page = await response.text()
                assert response.status == 200, typed
                assert f"{html.escape(card)}: auction prices" in page
                chart = html.escape(f"/prices/{quote(card, safe='')}/chart.svg")
                assert f'src="{chart}"' in page
            async with session.get(f"{base}/prices/{quote(typed, safe='')}/chart.svg") as response:
                assert response.status == 200 and response.content_type == "image/svg+xml", typed

    serve(tmp_path, body)


def test_several_cards_or_a_typo_get_a_404_page_linking_to_them(tmp_path: Path) -> None:
    async def body(base: str, session: aiohttp.ClientSession) -> None:
        async with session.get(f"{base}/prices/lightning") as response:
            page = await response.text()
            assert response.status == 404 and response.content_type == "text/html"
            assert "could be any of these cards" in page
            for card in ("Lightning Bolt", "Lightning Blast"):
                assert f'<a href="/prices/{quote(card, safe="")}"><bdi>{card}</bdi></a>' in page
        async with session.get(f"{base}/prices/lightning/chart.svg") as response:
            assert response.status == 404
            text = await response.text()
            said = "'lightning' could be 'Lightning Bolt' or 'Lightning Blast', each offered at auction"
            assert text == f"error: {said}"
        async with session.get(f"{base}/prices/{quote('Chimny Imp')}") as response:
            page = await response.text()
            assert response.status == 404 and "Did you mean" in page
            assert '<a href="/prices/Chimney%20Imp"><bdi>Chimney Imp</bdi></a>' in page
        async with session.get(f"{base}/prices/{quote('<b>lightning')}") as response:  # escaped as text
            page = await response.text()
            assert response.status == 404 and "<b>" not in page
        async with session.get(f"{base}/prices/No%20Such%20Card") as response:
            assert response.status == 404 and (await response.text()).startswith("error: ")

    serve(tmp_path, body)
