"""The field tests' player page (``tests/field/league_steps.py`` ``PrivatePage``) against a real league web
view (the referee of ``test_league_pages``, no Servatrice): it follows its live stream as a browser's
``EventSource`` does, for as long as the test keeps it open.

aiohttp ends any request after five minutes by default; a page stood for by such a request stopped showing
changes after five minutes, silently. Here that default is shortened (the page must set its own bounds), as
are the web view's keepalive interval and the page's idle bound; every wait is generous, nothing is timed.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from test_league_pages import League, autobattler

from cockatrice_ext.web import server

_FIELD = str(Path(__file__).resolve().parent.parent / "field")
if _FIELD not in sys.path:
    sys.path.append(_FIELD)  # after the web tests' own helpers
import league_steps  # noqa: E402
from league_steps import PrivatePage  # noqa: E402

SHORT = 0.3
"""A bound shortened for the test (seconds); the waits below are many times longer."""


def shop(s: League, user: str) -> list[str]:
    return s.names(s.engine.shop(user))


async def roll_until_shown(s: League, page: PrivatePage, user: str) -> None:
    """``user`` rolls their shop (through the league's own command path, not the page); the page shows the
    new shop without a reload."""
    status, _ = await s.act(user, "roll")
    assert status == 200
    now = shop(s, user)
    await page.wait(lambda desk: [card["name"] for card in desk["shop"]] == now, timeout=10)


def test_the_page_follows_its_stream_past_aiohttps_default_total_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page open longer than aiohttp's default total timeout (shortened here) still shows each change."""

    async def body(s: League) -> None:
        short = aiohttp.ClientTimeout(total=SHORT, sock_connect=30)
        monkeypatch.setattr(aiohttp.client, "DEFAULT_TIMEOUT", short)  # for sessions made from now on
        page = await PrivatePage.open(s.links["ann"])
        try:
            await page.wait(lambda desk: desk["player"] == "ann" and desk["drafting"])
            await asyncio.sleep(10 * SHORT)  # well past the default's end of every request
            await roll_until_shown(s, page, "ann")
            await asyncio.sleep(10 * SHORT)
            await roll_until_shown(s, page, "ann")
        finally:
            await page.close()

    autobattler(tmp_path, body)


def test_a_stream_gone_silent_is_taken_for_lost_and_opened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream that brings nothing, not even the keepalive line the web view writes on an idle stream, for
    longer than the page's idle bound (shortened here, the keepalives stopped) is opened again."""
    monkeypatch.setattr(league_steps, "RECONNECT_SECONDS", SHORT)
    monkeypatch.setattr(server, "KEEPALIVE_SECONDS", 3600.0)  # a web view that has gone quiet
    idle = aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=SHORT)
    monkeypatch.setattr(league_steps, "STREAM_TIMEOUT", idle, raising=False)

    async def body(s: League) -> None:
        page = await PrivatePage.open(s.links["ben"])
        try:
            await page.wait(lambda desk: desk["player"] == "ben")
            await until(lambda: page.connections >= 3, "the silent stream opened again, twice")
            await roll_until_shown(s, page, "ben")
            assert page.refused is None
        finally:
            await page.close()

    autobattler(tmp_path, body)


def test_a_stream_the_server_cuts_is_opened_again_and_shows_the_league_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server closes the page's stream (as its stall check does) and the league changes meanwhile: the
    page connects again and shows the league as it is now."""
    monkeypatch.setattr(league_steps, "RECONNECT_SECONDS", SHORT)

    async def body(s: League) -> None:
        page = await PrivatePage.open(s.links["cat"])
        try:
            await page.wait(lambda desk: desk["player"] == "cat")
            channel = ("league", page_number(s, "cat"), "cat")
            await until(lambda: bool(s.web.channels.get(channel)), "the page's stream open")
            for subscriber in s.web.channels[channel]:
                assert subscriber.transport is not None
                subscriber.transport.abort()  # what the web view's stall check does to a stream
            opened = page.connections
            status, _ = await s.act("cat", "roll")  # a change while the page is cut off
            assert status == 200
            now = shop(s, "cat")
            await page.wait(lambda desk: [card["name"] for card in desk["shop"]] == now, timeout=10)
            assert page.connections > opened and page.refused is None
        finally:
            await page.close()

    autobattler(tmp_path, body)


def page_number(s: League, user: str) -> int:
    """The web view's number of the league in ``user``'s link."""
    return int(s.links[user].split("/league/", 1)[1].split("/", 1)[0])


async def until(condition: Callable[[], bool], what: str) -> None:
    """Once ``condition`` holds (gives up after 10 s, saying ``what`` never came)."""
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")
