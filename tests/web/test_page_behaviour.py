"""The league pages' behaviour in a real browser (headless Chromium through the system chromedriver), served
by the real web view in front of a real Market Draft league referee (the demo bot of ``test_league_pages``,
no Servatrice): what a player on a phone, on a keyboard or with a screen reader meets.

* A choice (the market card to buy, the pool cards to trade in) follows the cards when another player's buy
  renumbers the market; and the web view refuses an action whose numbers point into lists that changed
  since the page drew them ("the market changed: ...").
* Choosing with the keyboard, and a live update, keep the keyboard focus on the same control.
* The stream's keepalive reaches the page; a stream gone silent is taken for lost and opened again.
* A button pressed while offline says so beside it and keeps the choice.
* Names are isolated (right-to-left text cannot reorder the line); a 320 px phone does not scroll sideways
  and keeps the live status in view; buttons and checkboxes are large enough to tap and named by their card.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from test_league_pages import LINK, ROOM, League, serving, settle

from cockatrice_ext.bot.league_cards import load_league_block
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import league as core
from cockatrice_ext.web import server

WAIT = 20.0
"""Generous upper bound for anything the page should show (the tests assert that it shows, not when)."""
FAST = {
    "actions_per_second": 1000.0,
    "requests_per_second": 1000.0,
    "action_burst": 1000,
    "request_burst": 1000,
}
EVIL = "evil\u202egnp.exe"
LONG = "Asmoranomardicadaistinaculdacar" + "xxxx"  # 35 characters, no space


class Served:
    """A league and its web view running in an event loop of their own thread, while Selenium blocks the
    test's thread."""

    def __init__(self, tmp_path: Path, members: tuple[str, ...]) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.stack = contextlib.AsyncExitStack()
        self.s: League = self.run(self._start(tmp_path, members))

    def run(self, coroutine: Any, timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _start(self, tmp_path: Path, members: tuple[str, ...]) -> League:
        bot, web, chat = await self.stack.enter_async_context(serving(tmp_path, **FAST))
        session = await self.stack.enter_async_context(aiohttp.ClientSession())
        options = LeagueOptions(format="market", rounds=2, seed=5)
        league = await LeagueReferee.create(
            bot, ROOM, options, load_league_block(options.block_name), list(members)
        )
        await league.begin()
        s = League(bot, league, web, session, chat)
        await settle(bot)
        for (kind, name), message in chat:
            if kind == "user" and (match := LINK.search(message)):
                s.links[name] = match.group(0)
        return s

    async def _to_market(self) -> None:
        s = self.s
        while s.engine.phase == "draft":
            for user in s.engine.league.members:
                if s.engine.pack(user):
                    status, answer = await s.act(user, "pick", "1")
                    assert status == 200, answer
        winner = s.engine.league.members[0]
        await s.league.perform(s.league.table.apply(core.ReportResult(player=None, winner=winner)))
        await settle(s.bot)
        assert s.engine.phase == "market"

    def to_market(self) -> None:
        self.run(self._to_market())

    async def _buy(self, user: str, target: int) -> list[str]:
        """``user`` buys market card ``target`` (1-based) with the pool cards worth the most toward it,
        through their page's action (no ``seen``: as a script or an older page sends it)."""
        s = self.s
        desk = (await s.view(user))["private"]
        cost = desk["market"][target - 1]["cost"]
        paying, total = [], 0
        for card in sorted(desk["pool"], key=lambda c: -c["worth"][target - 1]):
            if total >= cost:
                break
            paying.append(card["number"])
            total += card["worth"][target - 1]
        args = f"{target} with {', '.join(map(str, paying))}"
        status, answer = await s.act(user, "buy", args)
        assert status == 200, answer
        if answer["replies"][0].startswith("That overpays"):  # the same !buy again goes through
            status, answer = await s.act(user, "buy", args)
        assert answer["replies"][0].startswith("You bought"), answer
        return list(answer["replies"])

    def buy(self, user: str, target: int) -> list[str]:
        return self.run(self._buy(user, target))

    def close(self) -> None:
        self.run(self.stack.aclose())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def until(browser: Any, script: str, what: str, *args: Any) -> Any:
    """The script's value once it is truthy (gives up after ``WAIT`` seconds, saying ``what`` never came)."""
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(browser, WAIT).until(lambda d: d.execute_script(script, *args))
    except Exception as exc:  # a timeout: say what was awaited and what the page shows
        body = browser.execute_script("return document.body.innerText")
        raise AssertionError(f"the page never showed {what}; it shows:\n{body}") from exc


CHECKED = (
    "return [...document.querySelectorAll(arguments[0] + ' input:checked')]"
    ".map(i => i.closest('li').dataset.name)"
)
ACTIVE = "const a = document.activeElement; return a && a.dataset ? a.dataset.focus || a.tagName : null"


def market_turns(one: Served) -> tuple[str, str]:
    """(who buys now, the other member)."""
    buyer = one.s.engine.whose_turn()
    other = next(m for m in one.s.engine.league.members if m != buyer)
    return buyer, other


def test_a_choice_follows_its_cards_when_another_buy_renumbers_the_market(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Ned chooses market card 2 and three pool cards; Mia buys market card 1, so the market is numbered
    again: Ned's page still chooses the card he chose (not whatever is now number 2), with the same pool."""
    one = served("ned", "mia")
    one.to_market()
    mia, ned = market_turns(one)
    browser.get(one.s.links[ned])
    until(browser, "return document.querySelectorAll('#market input').length >= 3", "the market")
    before = browser.execute_script(
        "return [...document.querySelectorAll('#market li')].map(li => li.dataset.name)"
    )
    for css in (
        "#market li:nth-child(2) input",
        "#pool li:nth-child(1) input",
        "#pool li:nth-child(2) input",
    ):
        browser.find_element("css selector", css).click()
    assert browser.execute_script(CHECKED, "#market") == [before[1]]
    pool = browser.execute_script(CHECKED, "#pool")
    assert len(pool) == 2
    one.buy(mia, 1)
    until(
        browser,
        "return document.querySelector('#market li').dataset.name !== arguments[0]",
        "the market after Mia's buy",
        before[0],
    )
    assert browser.execute_script(CHECKED, "#market") == [before[1]], "the choice moved to another card"
    assert browser.execute_script(CHECKED, "#pool") == pool
    assert before[1] in browser.find_element("id", "worth").text


def test_a_chosen_card_another_player_bought_is_unchosen_with_a_note(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Ned chooses market card 1 and Mia buys it: Ned's page chooses nothing in the market (not the card now
    numbered 1) and says which card went."""
    one = served("ned", "mia")
    one.to_market()
    mia, ned = market_turns(one)
    browser.get(one.s.links[ned])
    until(browser, "return document.querySelectorAll('#market input').length >= 3", "the market")
    first = browser.execute_script("return document.querySelector('#market li').dataset.name")
    browser.find_element("css selector", "#market li:nth-child(1) input").click()
    one.buy(mia, 1)
    until(
        browser, "return document.querySelector('#market li').dataset.name !== arguments[0]", "the buy", first
    )
    assert browser.execute_script(CHECKED, "#market") == []
    note = browser.find_element("id", "choice-note").text
    assert first.split(" (")[0] in note and "no longer in the market" in note, note
    assert browser.find_element("id", "worth").text.startswith("Choose a market card")


def test_a_button_waiting_for_its_answer_is_busy_and_not_sent_twice(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Pass pressed twice while its first request waits for the referee: the button says it is busy, keeps
    the focus, and the command runs once; its answer is shown beside it."""
    one = served("ned", "mia")
    one.to_market()
    buyer, _ = market_turns(one)
    web = one.s.web
    release = asyncio.Event()
    runs: list[str] = []
    run = web.run_league_command

    async def held(grant: Any, league: Any, text: str) -> list[str]:
        runs.append(text)
        await release.wait()
        return await run(grant, league, text)

    web.run_league_command = held  # type: ignore[method-assign]
    try:
        browser.get(one.s.links[buyer])
        until(
            browser,
            "return document.getElementById('pass') && !document.getElementById('pass').disabled",
            "Pass",
        )
        browser.find_element("id", "pass").click()
        until(
            browser, "return document.getElementById('pass').getAttribute('aria-disabled') === 'true'", "busy"
        )
        browser.find_element("id", "pass").click()  # a second press while the first waits
        assert browser.execute_script(ACTIVE) == "pass"
        one.run(asyncio.sleep(0.2))  # the second press had its chance to reach the referee
        one.loop.call_soon_threadsafe(release.set)
        until(browser, "return document.getElementById('messages').textContent", "the answer")
        assert runs == ["!pass"]
        assert browser.execute_script(
            "const m = document.getElementById('messages');"
            "return m.previousElementSibling === document.getElementById('pass').closest('.actions')"
        )
    finally:
        one.loop.call_soon_threadsafe(release.set)  # never left waiting


def test_an_action_on_lists_that_changed_since_the_page_drew_them_is_refused(
    served: Callable[..., Served],
) -> None:
    """The page sends the version of the lists it drew (``seen``); a buy whose market was renumbered since is
    refused, saying so, and nothing changes; the same buy on what the page shows now goes to the rules."""
    one = served("ned", "mia")
    one.to_market()
    mia, ned = market_turns(one)

    async def body() -> None:
        s = one.s
        stale = (await s.view(ned))["private"]
        await one._buy(mia, 1)
        assert s.engine.whose_turn() == ned
        pool = list(s.engine.pool(ned))
        form = {"command": "buy", "args": "1 with 1", "seen": stale["seen"]}
        async with s.session.post(s.links[ned] + "/act", data=form) as response:
            assert response.status == 409
            assert await response.text() == "the market changed: check your choice and press Buy again"
        assert s.engine.pool(ned) == pool and s.engine.whose_turn() == ned
        fresh = (await s.view(ned))["private"]
        form["seen"] = fresh["seen"]
        async with s.session.post(s.links[ned] + "/act", data=form) as response:
            assert response.status == 200  # the rules answer it (bought, or why not)
            assert (await response.json())["replies"]
        pass_form = {"command": "pass", "args": "", "seen": stale["seen"]}  # no number: nothing to be stale
        async with s.session.post(s.links[mia] + "/act", data=pass_form) as response:
            assert response.status == 200

    one.run(body())


def test_choosing_with_the_keyboard_and_live_updates_keep_the_focus(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Space on a market radio and on a pool checkbox chooses it and the focus stays there (it used to go to
    the page's top); another player's buy redraws the page and the focus stays on the same card's control."""
    from selenium.webdriver.common.keys import Keys

    one = served("ned", "mia")
    one.to_market()
    mia, ned = market_turns(one)
    browser.get(one.s.links[ned])
    until(browser, "return document.querySelectorAll('#pool input').length >= 3", "the pool")
    radio = browser.find_element("css selector", "#market li:nth-child(2) input")
    browser.execute_script("arguments[0].focus()", radio)
    radio.send_keys(Keys.SPACE)
    market_key = browser.execute_script(ACTIVE)
    assert market_key and market_key.startswith("market:"), market_key
    assert browser.execute_script("return document.activeElement.checked")
    box = browser.find_element("css selector", "#pool li:nth-child(3) input")
    browser.execute_script("arguments[0].focus()", box)
    box.send_keys(Keys.SPACE)
    pool_key = browser.execute_script(ACTIVE)
    assert pool_key and pool_key.startswith("pool:"), pool_key
    browser.switch_to.active_element.send_keys(Keys.TAB)  # on to the next pool card, not from the top
    assert browser.execute_script(ACTIVE) == browser.execute_script(
        "return document.querySelector('#pool li:nth-child(4) input').dataset.focus"
    )
    browser.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)
    assert browser.execute_script(ACTIVE) == pool_key
    first = browser.execute_script("return document.querySelector('#market li').dataset.name")
    one.buy(mia, 1)  # a live update while Ned's focus is on his pool
    until(
        browser, "return document.querySelector('#market li').dataset.name !== arguments[0]", "the buy", first
    )
    assert browser.execute_script(ACTIVE) == pool_key
    assert browser.execute_script("return document.activeElement.checked")


def test_the_keepalive_reaches_the_page_and_a_silent_stream_is_opened_again(
    browser: Any, served: Callable[..., Served], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the web view's keepalive every second (shortened), the page hears it and stays live; when its
    stream goes silent without being closed (a phone that slept), the page says it is reconnecting and opens
    its stream again."""
    monkeypatch.setattr(server, "KEEPALIVE_SECONDS", 1.0)
    one = served("ned", "mia")
    browser.get(one.s.links["ned"])
    until(browser, "return document.getElementById('status').textContent === 'live'", "the live stream")
    browser.execute_script(
        "window.statuses = [];"
        "new MutationObserver(() => statuses.push(document.getElementById('status').textContent))"
        ".observe(document.getElementById('status'), {childList: true, characterData: true, subtree: true});"
    )
    time.sleep(5 * server.KEEPALIVE_SECONDS)  # twice the page's bound: only the keepalives tell it alive
    assert "reconnecting…" not in browser.execute_script("return statuses"), "the keepalives went unheard"
    monkeypatch.setattr(server, "KEEPALIVE_SECONDS", 3600.0)  # the stream goes silent, still open
    until(browser, "return statuses.includes('reconnecting…')", "that it is reconnecting")
    until(browser, "return statuses[statuses.length - 1] === 'live'", "a new stream's view, without a reload")


def test_a_button_pressed_offline_says_so_beside_it_and_keeps_the_choice(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Offline, Buy cannot reach the referee: the page says so next to the button (not an uncaught error in
    the console) and the market card and pool cards stay chosen, to press again once back online."""
    one = served("ned", "mia")
    one.to_market()
    buyer, _ = market_turns(one)
    browser.get(one.s.links[buyer])
    until(browser, "return document.querySelectorAll('#pool input').length >= 3", "the pool")
    browser.find_element("css selector", "#market li:nth-child(1) input").click()
    for n in range(len(browser.find_elements("css selector", "#pool input"))):
        browser.find_element("css selector", f"#pool li:nth-child({n + 1}) input").click()  # enough to pay
        if browser.find_element("id", "buy").is_enabled():
            break
    chosen = (browser.execute_script(CHECKED, "#market"), browser.execute_script(CHECKED, "#pool"))
    conditions = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    try:
        browser.find_element("id", "buy").click()
        until(browser, "return document.getElementById('messages').textContent.includes('Not sent')", "why")
        assert browser.execute_script(
            "const m = document.getElementById('messages');"
            "return m.previousElementSibling === document.getElementById('buy').closest('.actions')"
        ), "the answer is not beside the button pressed"
        assert (
            browser.execute_script(CHECKED, "#market"),
            browser.execute_script(CHECKED, "#pool"),
        ) == chosen
        assert one.s.engine.whose_turn() == buyer
    finally:
        conditions["offline"] = False
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)


ISOLATED = """
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const bad = [];
let found = 0;
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (!node.data.includes(arguments[0])) continue;
  found += 1;
  const parent = node.parentElement;
  if (node.data !== arguments[0] || getComputedStyle(parent).unicodeBidi !== 'isolate') bad.push(node.data);
}
return [found, bad];
"""

WIDE = """
const status = document.getElementById('status');
const box = status ? status.getBoundingClientRect() : {left: 0, right: 0};
return {page: document.documentElement.scrollWidth, view: innerWidth, statusRight: box.right,
        statusLeft: box.left};
"""


def phone(browser: Any) -> None:
    """A 320 px touch screen."""
    metrics = {"width": 320, "height": 700, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def test_names_are_isolated_and_a_narrow_phone_neither_scrolls_sideways_nor_loses_the_status(
    browser: Any, served: Callable[..., Served]
) -> None:
    """A right-to-left override in a name stays inside the name, everywhere the private page and the public
    board show it; on a 320 px phone neither page is wider than the screen (a 35-character name, the board's
    five columns), and the live status stays on screen."""
    one = served(EVIL, LONG)
    phone(browser)
    pages = {"private": one.s.links[EVIL], "board": one.s.links[EVIL].split("/private/")[0]}
    for page, url in pages.items():
        browser.get(url)
        until(browser, "return document.getElementById('status').textContent === 'live'", f"the {page} page")
        found, bad = browser.execute_script(ISOLATED, EVIL)
        assert found >= 2 and not bad, (page, found, bad)
        size = browser.execute_script(WIDE)
        assert size["page"] <= size["view"], (page, size)
        assert size["statusLeft"] >= 0 and size["statusRight"] <= size["view"], (page, size)


CONTRAST = """
function rgb(text) { return text.match(/[0-9.]+/g).slice(0, 3).map(Number); }
function lum(c) {
  const [r, g, b] = c.map((v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const status = document.getElementById('status');
const a = lum(rgb(getComputedStyle(status).color));
const b = lum(rgb(getComputedStyle(document.body).backgroundColor));
return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
"""


def test_on_a_touch_screen_controls_are_large_named_by_their_card_and_the_status_is_announced(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Touch screen: every Pick button at least 44 px high, each named with its card; in the market the
    radios and checkboxes' rows at least 44 px, the radio group labelled; the connection status is a live
    region, its grey text at least 4.5:1 against the page."""
    one = served("ned", "mia")
    phone(browser)
    browser.get(one.s.links["ned"])
    until(browser, "return document.querySelectorAll('#pack button').length >= 2", "the pack")
    picks = browser.execute_script(
        "return [...document.querySelectorAll('#pack li')].map(li => [li.dataset.name,"
        " li.querySelector('button').getAttribute('aria-label'),"
        " li.querySelector('button').getBoundingClientRect().height])"
    )
    for name, label, height in picks:
        assert label == f"Pick {name}" and height >= 44, (name, label, height)
    assert (
        browser.execute_script("return document.getElementById('status').getAttribute('aria-live')")
        == "polite"
    )
    assert browser.execute_script(CONTRAST) >= 4.5
    browser.execute_script("document.getElementById('status').className = 'status live'")
    assert browser.execute_script(CONTRAST) >= 4.5
    one.to_market()
    until(browser, "return document.querySelectorAll('#pool input').length >= 3", "the market")
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#market label, #pool label')]"
        ".map(l => l.getBoundingClientRect().height)"
    )
    assert rows and min(rows) >= 44, rows
    group = browser.execute_script(
        "const m = document.getElementById('market');"
        "const by = m.getAttribute('aria-labelledby');"
        "return [m.getAttribute('role'), by && document.getElementById(by).textContent]"
    )
    assert group == ["radiogroup", "The market"]


STANDINGS_ROWS = (
    "return [...document.querySelectorAll('#standings tbody tr')]"
    ".map(tr => [...tr.cells].map(td => td.textContent))"
)


def test_a_member_who_left_the_league_is_marked_left_in_the_standings_of_the_board_and_the_pages(
    browser: Any, served: Callable[..., Served]
) -> None:
    """Kim leaves the league (``!leave confirm``): ``!standings`` marks her "(left)", and so do the public
    board's standings and Ned's page, as they show while open (the same rows as chat)."""
    one = served("ned", "mia", "kim")
    board = one.s.links["ned"].split("/private/")[0]
    browser.get(board)
    until(browser, "return document.querySelectorAll('#standings tbody tr').length === 3", "the standings")
    assert not [row for row in browser.execute_script(STANDINGS_ROWS) if "(left)" in row[1]]

    async def leave() -> None:
        ctx = Context(one.s.bot, "private", "kim", reply_hook=lambda line: asyncio.sleep(0))
        assert await one.s.league.handle_command(ctx, "!leave confirm")
        await settle(one.s.bot)

    one.run(leave())
    rows = until(
        browser,
        STANDINGS_ROWS + ".filter(row => row[1].includes('(left)'))",
        "Kim marked as left on the board",
    )
    assert [row[1] for row in rows] == ["kim (left)"], rows
    browser.get(one.s.links["ned"])
    rows = until(
        browser,
        STANDINGS_ROWS + ".filter(row => row[0].includes('(left)'))",
        "Kim marked as left on Ned's page",
    )
    assert [row[0] for row in rows] == ["kim (left)"], rows
