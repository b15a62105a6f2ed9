"""What a screen-reader, keyboard-only or colour-blind player meets on the league pages, in a real browser
(headless Chromium through the system chromedriver), served by the real web view in front of a real Market
Draft league referee (the demo bot of ``test_league_pages``, no Servatrice).

* One polite live region (``#announce``), in the page from its load and never redrawn, says what arrives: a
  new pack, a pick's answer, the player's turn to buy, why the page stopped; not again while it is unchanged,
  nor at every arrow key.
* After a pick the focus is on something that does not act (the pack's heading or the answer), never on
  another card's Pick nor on the page's body; a Pick pressed just as a new pack arrives is ignored.
* Every table is named by its section heading; its box is a named, focusable region only when it scrolls.
* Nobody to buy is said in words.
* A lobby's page says who joined, and at the start the player's first shop (an AutoBattler room).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from test_league_pages import Room, serving, settle
from test_page_behaviour import FAST, LONG, Served, market_turns, phone, until

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom

LOG = """
window.region = document.getElementById('announce');
window.said = [];
new MutationObserver(() => { if (region.textContent) said.push(region.textContent); })
  .observe(region, {childList: true, characterData: true, subtree: true});
window.posts = 0;
const sent = window.fetch;
window.fetch = (...args) => { posts += 1; return sent(...args); };
"""
"""Keeps every announcement (``said``) and counts the page's requests (``posts``)."""
SAID = "return window.said.join(' | ')"
FOCUSED = "const a = document.activeElement; return a ? a.id || a.tagName : null"


def open_page(browser: Any, url: str, ready: str, what: str) -> None:
    browser.get(url)
    until(browser, ready, what)
    browser.execute_script(LOG)


def said(browser: Any) -> list[str]:
    return list(browser.execute_script("return window.said"))


def pack_size(one: Served, user: str) -> int:
    return len(one.s.engine.pack(user))


def pick_on_page(one: Served, user: str) -> None:
    """``user`` picks their first card through the chat path (not their page)."""
    status, answer = one.run(one.s.act(user, "pick", "1"))
    assert status == 200, answer


def press_first_pick(browser: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    first = browser.find_element("css selector", "#pack li:first-child button")
    browser.execute_script("arguments[0].focus()", first)
    first.send_keys(Keys.ENTER)


def test_the_live_region_is_there_from_the_load_and_says_a_new_pack_and_the_pick_s_answer(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Mia picks, then Ned picks on his page: Mia's pack comes to him. The live region, present before any
    view and the same node all along, says the new pack's size and his pick's answer; nobody buys in the
    draft, said in words."""
    one = served("ned", "mia")
    browser.get(one.s.links["ned"])
    region = browser.execute_script(
        "const r = document.getElementById('announce');"
        "return r && [r.getAttribute('aria-live'), document.getElementById('view').contains(r)]"
    )
    assert region == ["polite", False]
    until(browser, "return document.querySelectorAll('#pack button').length >= 2", "the pack")
    browser.execute_script(LOG)
    assert browser.find_element("id", "turn").text == "nobody now"
    pick_on_page(one, "mia")
    press_first_pick(browser)
    until(browser, "return document.getElementById('messages').textContent", "the answer")
    one.run(settle(one.s.bot))
    size = pack_size(one, "ned")
    assert size > 0
    until(
        browser,
        "return window.said.join(' ').includes(arguments[0])",
        "the new pack",
        f"New pack: {size} cards",
    )
    answer = browser.find_element("id", "messages").text
    until(browser, "return window.said.join(' ').includes(arguments[0])", "the answer said", answer)
    assert browser.execute_script("return document.getElementById('announce') === window.region")


def test_after_a_pick_the_focus_acts_on_nothing_and_a_bounced_enter_picks_nothing(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Ned presses Enter on a Pick and the next pack comes at once: the focus is on the pack's heading or
    the answer, not on a Pick of the new pack, so a second Enter sends nothing."""
    from selenium.webdriver.common.keys import Keys

    one = served("ned", "mia")
    pick_on_page(one, "mia")  # Mia's pack waits for Ned
    open_page(
        browser, one.s.links["ned"], "return document.querySelectorAll('#pack button').length", "the pack"
    )
    press_first_pick(browser)
    until(browser, "return document.getElementById('messages').textContent", "the answer")
    one.run(settle(one.s.bot))
    size = pack_size(one, "ned")
    until(
        browser, "return document.querySelectorAll('#pack li').length === arguments[0]", "the next pack", size
    )
    assert browser.execute_script(FOCUSED) in ("pack-heading", "messages")
    before = browser.execute_script("return window.posts")
    browser.switch_to.active_element.send_keys(Keys.ENTER)  # the key bounces
    assert browser.execute_script("return window.posts") == before
    one.run(settle(one.s.bot))
    assert pack_size(one, "ned") == size


def test_a_pick_with_no_next_pack_leaves_the_focus_on_the_answer_not_the_body(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Ned picks first: no pack comes after his, the list goes; the focus is on the answer."""
    one = served("ned", "mia")
    open_page(
        browser, one.s.links["ned"], "return document.querySelectorAll('#pack button').length", "the pack"
    )
    press_first_pick(browser)
    until(browser, "return document.getElementById('messages').textContent", "the answer")
    until(browser, "return !document.getElementById('pack')", "the pack gone")
    assert browser.execute_script(FOCUSED) == "messages"


CLICK_WHEN_A_PACK_COMES = """
window.clicked = 0;
new MutationObserver(() => {
  const button = document.querySelector('#pack li button');
  if (button && !window.clicked) { window.clicked += 1; button.click(); }
}).observe(document.getElementById('view'), {childList: true, subtree: true});
"""


def test_a_pick_pressed_as_a_new_pack_arrives_is_ignored_and_a_later_one_picks(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Ned waits with no pack; Mia picks, her pack comes to Ned and a Pick is pressed the moment it is drawn:
    nothing is sent. Pressed again after a moment, it picks."""
    one = served("ned", "mia")
    pick_on_page(one, "ned")
    open_page(browser, one.s.links["ned"], "return document.getElementById('pool-heading')", "the pool")
    assert browser.execute_script("return document.querySelectorAll('#pack button').length") == 0
    browser.execute_script(CLICK_WHEN_A_PACK_COMES)
    pick_on_page(one, "mia")
    until(browser, "return window.clicked", "the new pack (and its press)")
    assert browser.execute_script("return window.posts") == 0
    one.run(settle(one.s.bot))
    pool = len(one.s.engine.pool("ned"))
    time.sleep(1.5)  # longer than the page's guard
    browser.find_element("css selector", "#pack li:first-child button").click()
    until(browser, "return document.getElementById('messages').textContent", "the answer")
    one.run(settle(one.s.bot))
    assert browser.execute_script("return window.posts") == 1
    assert len(one.s.engine.pool("ned")) == pool + 1


def test_your_turn_to_buy_is_said_once_and_arrow_keys_say_nothing(
    browser: Any, served: Callable[..., Served]
) -> None:
    """In the market, Mia buys: Ned's page says it is his turn to buy (and its title asks for his move);
    moving through the market with the arrow keys announces nothing, and nothing is said twice."""
    from selenium.webdriver.common.keys import Keys

    one = served("ned", "mia")
    one.to_market()
    mia, ned = market_turns(one)
    open_page(
        browser, one.s.links[ned], "return document.querySelectorAll('#market input').length >= 3", "market"
    )
    assert not browser.execute_script("return document.title.startsWith('(Your move)')")
    one.buy(mia, 1)
    until(browser, "return window.said.join(' ').includes('Your turn to buy.')", "that it is Ned's turn")
    assert browser.execute_script("return document.title.startsWith('(Your move)')")
    count = len(said(browser))
    radio = browser.find_element("css selector", "#market li:first-child input")
    browser.execute_script("arguments[0].focus()", radio)
    for _ in range(3):
        browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert browser.execute_script("return document.activeElement.name") == "market"
    browser.execute_script("return new Promise((done) => setTimeout(done, 300))")  # announcements' turn
    assert len(said(browser)) == count, said(browser)
    assert said(browser).count("Your turn to buy.") == 1


def test_the_reason_the_page_stopped_is_announced(browser: Any, served: Callable[..., Served]) -> None:
    """The web view stops: the page's notice is said through the live region too."""
    one = served("ned", "mia")
    open_page(
        browser, one.s.links["ned"], "return document.querySelectorAll('#pack button').length", "the pack"
    )
    one.run(one.s.web.stop())
    until(browser, "return document.getElementById('stopped')", "the notice")
    until(browser, "return window.said.join(' ').includes(\"The referee's web view has stopped\")", "it said")


AX_TABLES = """
const boxes = [...document.querySelectorAll('.scroll')].map((box) => ({
  table: box.querySelector('table').id,
  scrolls: box.scrollWidth > box.clientWidth,
  tabindex: box.getAttribute('tabindex'),
  role: box.getAttribute('role'),
}));
return boxes;
"""


HEADINGS = (
    "return [...document.querySelectorAll('.scroll')].map((box) => box.previousElementSibling.textContent)"
)
"""The text of the heading above each table, as a sighted player finds the table's section."""


def ax_names(browser: Any, role: str) -> list[str]:
    """The accessible names of every node of ``role`` in Chromium's accessibility tree."""
    tree = browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    return [
        (node.get("name") or {}).get("value", "")
        for node in tree["nodes"]
        if (node.get("role") or {}).get("value") == role and not node.get("ignored")
    ]


def test_tables_are_named_by_their_headings_and_a_box_is_a_stop_only_when_it_scrolls(
    browser: Any, served: Callable[..., Served]
) -> None:
    """The league's board: each table is named by its heading (not left unnamed, not by its columns); wide,
    no table box is a tab stop; on a 320 px phone the standings' box scrolls and is a focusable region named
    Standings."""
    one = served("ned", LONG)
    board = one.s.links["ned"].split("/private/")[0]
    browser.execute_cdp_cmd("Accessibility.enable", {})
    browser.get(board)
    until(browser, "return document.getElementById('standings')", "the standings")
    headings = browser.execute_script(HEADINGS)
    assert "Standings" in headings and len(headings) == 2, headings
    assert sorted(ax_names(browser, "table")) == sorted(headings)
    assert all(box["tabindex"] is None and box["role"] is None for box in browser.execute_script(AX_TABLES))
    assert not [name for name in ax_names(browser, "region") if ", " in name]
    assert browser.find_element("id", "turn").text == "nobody now"
    phone(browser)
    browser.get(board)
    until(browser, "return document.getElementById('standings')", "the standings")
    boxes = browser.execute_script(AX_TABLES)
    assert any(box["scrolls"] for box in boxes), boxes
    for box in boxes:
        assert (box["tabindex"] == "0" and box["role"] == "region") == box["scrolls"], box
    assert "Standings" in ax_names(browser, "region")
    assert sorted(ax_names(browser, "table")) == sorted(headings)


class LobbyServed(Served):
    """An AutoBattler room with its web view, no league yet (players join it: :meth:`join`), on the event
    loop of its own thread as :class:`Served`; ``s`` is the room."""

    def __init__(self, tmp_path: Path) -> None:
        super().__init__(tmp_path, ())

    async def _start(self, tmp_path: Path, members: tuple[str, ...]) -> Room:  # type: ignore[override]
        bot, web, chat = await self.stack.enter_async_context(serving(tmp_path, **FAST))
        session = await self.stack.enter_async_context(aiohttp.ClientSession())
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=11))
        bot.room_referees.append(room)
        return Room(bot, web, room, session, chat)

    def join(self, user: str) -> str:
        return self.run(self.s.join(user))


@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[LobbyServed]:
    one = LobbyServed(tmp_path)
    yield one
    one.close()


def test_a_lobby_page_says_who_joined_and_at_the_start_the_first_shop(
    browser: Any, lobby: LobbyServed
) -> None:
    """ann's lobby page is open: ben's and cat's joins are said with how many are needed (the page's first
    view is not: it is read as a page); at the start the same page says her first shop, and what it says
    never names another player's cards."""
    link = lobby.join("ann")
    open_page(browser, link, "return document.getElementById('roster')", "the lobby")
    for user in ("ben", "cat"):
        lobby.join(user)
    until(browser, "return window.said.join(' | ').includes('cat joined')", "cat's join said")
    assert said(browser) == ["ben joined: 2 of 4 or 8 needed.", "cat joined: 3 of 4 or 8 needed."]
    lobby.join("dan")
    lobby.run(lobby.s.say("dan", "!autobattler start"))
    league = lobby.s.league()
    shop = league.engine.shop("ann")
    until(browser, "return window.said.join(' | ').includes('New shop')", "the first shop said")
    assert said(browser)[-1] == f"New shop: {len(shop)} cards."
    others = {league.card_name(c) for user in ("ben", "cat", "dan") for c in league.engine.shop(user)}
    others -= {league.card_name(c) for c in shop}
    assert not [name for name in others if name in " ".join(said(browser))]
