"""The Auction game page and its gold chart for screen-reader and colour-blind players, in a real browser
(headless Chromium through the system chromedriver), served by the real web view in front of a real Auction
referee (no Servatrice: :mod:`cockatrice_ext.web.demo` stands in).

* The lot's note, when a bid changes it, is said through the page's one live region (once per change).
* The gold chart has a text alternative (``<title>``, ``<desc>`` with each player's last gold) and tells its
  lines apart without colour (a marker and a line style each); the page gives the figures as text.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_page_behaviour import until

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.formats import auction as am
from cockatrice_ext.web.demo import demo_bot, seat_game
from cockatrice_ext.web.server import WebOptions, WebView

GAME = 1
PLAYERS = ["alice", "bob", "carol"]


class AuctionServed:
    """An Auction game and its web view in an event loop of their own thread (Selenium blocks the test's)."""

    def __init__(self, tmp_path: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.referee: AuctionReferee
        self.web: WebView
        self.run(self._start(tmp_path))

    def run(self, coroutine: Any, timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _start(self, tmp_path: Path) -> None:
        async def chat(_destination: object, _message: str) -> None:
            return None

        self.bot = demo_bot(tmp_path / "journal.sqlite3", chat)
        self.web = WebView(self.bot, WebOptions(port=0, requests_per_second=1000.0, request_burst=1000))
        await self.web.start()
        seat_game(self.bot, GAME, PLAYERS)
        options = AuctionOptions(seats=len(PLAYERS), seed=7)
        self.referee = AuctionReferee(self.bot, GAME, 1, options, load_block("auction-sample"))
        self.bot.adopt_game(self.referee)
        await self.referee.start_engine()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web.port}/game/{GAME}"

    def apply(self, *actions: Any) -> None:
        """The actions, applied on the referee's loop (as chat commands would be)."""

        async def body() -> None:
            for action in actions:
                self.referee.apply(action)
            await asyncio.sleep(0.05)  # the web view's flush

        self.run(body())

    def close(self) -> None:
        async def stop() -> None:
            await self.web.stop()
            self.bot.chat.close()

        self.run(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def game(tmp_path: Path) -> Iterator[AuctionServed]:
    served = AuctionServed(tmp_path)
    yield served
    served.close()


LOG = """
window.region = document.getElementById('announce');
window.said = [];
new MutationObserver(() => { if (region.textContent) said.push(region.textContent); })
  .observe(region, {childList: true, characterData: true, subtree: true});
"""
LOT = "return [...document.getElementById('lot').textContent.split('\\n')].join(' ')"


def test_a_bid_that_changes_the_lot_s_note_is_said_once(browser: Any, game: AuctionServed) -> None:
    """The lot opens, then a bid: each new note is said through the live region, once."""
    browser.get(game.url)
    until(browser, "return document.getElementById('lot')", "the lot")
    browser.execute_script(LOG)
    engine = game.referee.engine
    game.apply(am.BeginTurn(None, active=engine.players[0]), am.StartAuctionStep(None))
    until(
        browser, "return window.said.includes(arguments[0])", "the open lot said", browser.execute_script(LOT)
    )
    game.apply(am.Bid(engine.whose_bid(), amount=2))
    note = browser.execute_script(LOT)
    until(browser, "return window.said.includes(arguments[0])", "the bid said", note)
    game.apply(am.Pass(engine.whose_bid()))  # the note changes again (who is to bid)
    until(browser, "return window.said.length >= 3", "the pass said")
    assert browser.execute_script("return window.said.filter((s) => s === arguments[0]).length", note) == 1


CHART = """
const svg = document.documentElement;
const title = svg.querySelector(':scope > title');
const desc = svg.querySelector(':scope > desc');
const series = [...svg.querySelectorAll('g[id^="series-"]')].map((g) => {
  const line = g.querySelector('path');
  const use = g.querySelector('use');
  const marker = use ? use.getAttribute('xlink:href') || use.getAttribute('href') : null;
  return [getComputedStyle(line).strokeDasharray, marker];
});
return [svg.tagName, title && title.textContent, desc && desc.textContent, series];
"""


def test_the_gold_chart_has_a_text_alternative_and_tells_lines_apart_without_colour(
    browser: Any, game: AuctionServed
) -> None:
    """The game's gold chart, opened in the browser: a title and a description naming each player's gold at
    the end; each player's line has its own marker and its own dashes. The game page says the figures."""
    engine = game.referee.engine
    game.apply(am.BeginTurn(None, active=engine.players[0]), am.StartAuctionStep(None))
    game.apply(am.Bid(engine.whose_bid(), amount=2))
    browser.get(game.url)
    until(browser, "return document.getElementById('gold-figures')", "the figures")
    figures = browser.find_element("id", "gold-figures").text
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#gold tbody tr')]"
        ".map((tr) => [...tr.cells].map((c) => c.textContent))"
    )
    gold = {name: amount for name, amount in rows}
    assert sorted(gold) == sorted(PLAYERS)
    for name, amount in gold.items():
        assert f"{name} {amount}" in figures, figures
    browser.get(game.url + "/gold.svg")
    tag, title, desc, series = browser.execute_script(CHART)
    assert tag == "svg" and title == f"Gold over Auction Magic game #{GAME}"
    for name, amount in gold.items():  # each line's look and its last value
        assert re.search(rf"{name} \([a-z -]+ line, [a-z ]+\): {amount} at the end", desc), desc
    assert len(series) == len(PLAYERS)
    dashes = [dash for dash, _ in series]
    markers = [marker for _, marker in series]
    assert len(set(dashes)) == len(PLAYERS), dashes
    assert None not in markers and len(set(markers)) == len(PLAYERS), markers
