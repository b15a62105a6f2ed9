"""The web view served by aiohttp in front of a real referee (no Servatrice: a mirror stands in for it).

A real :class:`Bot` and :class:`VortexReferee` with a journal on disk; the connection is a stand-in
(:mod:`cockatrice_ext.web.demo`: seats the referee 0, alice 1, bob 2, the spectator carol 3). Chat
goes to a list.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from servatrice import free_port
from sse_events import events

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee, check_cod
from cockatrice_ext.bot.combat_view import hand_listing
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import Reconnected
from cockatrice_ext.formats import vortex as rules
from cockatrice_ext.web.demo import demo_bot, seat_game
from cockatrice_ext.web.server import RateLimiter, WebOptions, WebView, redact

GAME = 7
LINK = re.compile(r"(http://127\.0\.0\.1:\d+)/game/(\d+)/private/([A-Za-z0-9_-]+)")


@dataclass
class Setup:
    bot: Bot
    referee: VortexReferee
    web: WebView
    session: aiohttp.ClientSession
    chat: list[tuple[Any, str]] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)  # user name -> the private page's URL

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web.port}"

    @property
    def engine(self) -> rules.VortexEngine:
        return self.referee.engine


async def make_setup(
    tmp_path: Path, players: tuple[str, str] = ("alice", "bob"), port: int = 0, **limits: Any
) -> Setup:
    chat: list[tuple[Any, str]] = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    bot = demo_bot(tmp_path / "journal.sqlite3", send)
    seat_game(bot, GAME, list(players), spectators=("carol",))
    web = WebView(bot, WebOptions(port=port, **limits))
    await web.start()
    referee = VortexReferee(bot, GAME, 1, VortexOptions(seed=5), load_block("vortex-pool", sections=None))
    bot.adopt_game(referee)
    await referee.start_engine()  # as when the Cockatrice game starts: seats 1 and 2 play
    setup = Setup(bot, referee, web, aiohttp.ClientSession(), chat)
    await settle(bot)
    for destination, message in chat:
        match = LINK.search(message)
        if destination[0] == "user" and match:
            setup.links[destination[1]] = match.group(0)
    return setup


async def settle(bot: Bot) -> None:
    """Let the web view's flush run, then every queued chat line go out."""
    await asyncio.sleep(0.05)
    await bot.chat.flush(timeout=5)


def scenario(tmp_path: Path, body: Callable[[Setup], Awaitable[None]], **options: Any) -> None:
    async def run() -> None:
        setup = await make_setup(tmp_path, **options)
        try:
            await asyncio.wait_for(body(setup), 30)
        finally:
            await setup.session.close()
            await setup.web.stop()
            setup.bot.chat.close()

    asyncio.run(run())


def pack_names(view: Any) -> list[str]:
    return [card["name"] for card in view["private"]["pack"]]


def test_each_player_gets_one_link_with_a_long_token(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        assert set(s.links) == {"alice", "bob"}
        tokens = [LINK.search(url).group(3) for url in s.links.values()]  # type: ignore[union-attr]
        assert len(set(tokens)) == 2 and all(len(t) >= 32 for t in tokens)  # 24 random bytes, base64
        s.referee.apply(rules.Pick(player=1, choice=0))  # more changes send no second link
        await settle(s.bot)
        assert sum(1 for d, m in s.chat if d[0] == "user" and "/private/" in m) == 2

    scenario(tmp_path, body)


def test_private_page_shows_that_players_pack_and_no_other_token_opens_it(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        for name, pid in (("alice", 1), ("bob", 2)):
            async with s.session.get(s.links[name]) as page:
                html = await page.text()
                assert page.status == 200 and name in html
                assert s.links[name].rsplit("/", 1)[1] not in html  # the page never prints its token
                assert page.headers["Referrer-Policy"] == "no-referrer"
            async for kind, view in events(s.session, s.links[name] + "/events"):
                assert kind == "view"
                assert pack_names(view) == [ref.name for ref in s.engine.pack(pid)]
                assert view["private"]["player"] == name
                break
        alice_token = s.links["alice"].rsplit("/", 1)[1]
        refused = [
            f"{s.base}/game/{GAME + 1}/private/{alice_token}",  # another game
            f"{s.base}/game/{GAME}/private/{alice_token[:-1]}",  # a token one character short
            f"{s.base}/game/{GAME}/private/{alice_token}x",
            f"{s.base}/game/{GAME}/private/{'A' * 500}",
        ]
        for url in refused:
            for suffix in ("", "/events"):
                async with s.session.get(url + suffix) as response:
                    text = await response.text()
                    assert response.status == 404, url
                    assert text.startswith("error: ") and alice_token[:20] not in text

    scenario(tmp_path, body)


def test_a_pick_from_the_page_is_the_chat_command_journaled(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        journal = s.bot.journal
        before = list(journal.entries(s.referee.table_key))
        alice_pack = [ref.name for ref in s.engine.pack(1)]
        stream = events(s.session, s.links["alice"] + "/events")
        _, first = await anext(stream)
        assert pack_names(first) == alice_pack and first["private"]["to_pick"] is True

        # Out of turn: bob's page gets the same refusal chat would give; nothing is journaled.
        async with s.session.post(s.links["bob"] + "/pick", data={"choice": "1"}) as response:
            assert response.status == 200
            assert (await response.json())["replies"] == [
                "bob: you have no pick to make now: it is alice's pick"
            ]
        assert list(journal.entries(s.referee.table_key)) == before

        async with s.session.post(s.links["alice"] + "/pick", data={"choice": "2"}) as response:
            assert response.status == 200 and (await response.json())["replies"] == []
        entries = list(journal.entries(s.referee.table_key))
        assert entries[len(before)].action == {"type": "Pick", "player": 1, "choice": 1}
        _, after = await anext(stream)  # the page updates itself: the picked card left the pack
        assert pack_names(after) == [ref.name for ref in s.engine.pack(1)]
        assert after["private"]["to_pick"] is False
        await settle(s.bot)
        assert ((("game", GAME), "alice picks a card.")) in [(d, m.split(" | ")[0]) for d, m in s.chat]
        assert any(d == ("user", "alice") and f"You picked {alice_pack[1]}." in m for d, m in s.chat)
        await stream.aclose()

    scenario(tmp_path, body)


def test_a_pick_on_a_pack_that_changed_since_the_page_drew_it_is_refused(tmp_path: Path) -> None:
    """The page sends ``seen`` (the pack it drew) with its pick: a pack changed since (a timer's pick, a
    pick from chat) refuses the click (409, nothing journaled) instead of picking the card now at that
    number; the pack as drawn is picked."""

    async def body(s: Setup) -> None:
        journal = s.bot.journal
        stream = events(s.session, s.links["alice"] + "/events")
        _, first = await anext(stream)
        seen = first["private"]["seen"]
        assert seen.startswith("pack=")
        before = list(journal.entries(s.referee.table_key))
        stale = "pack=" + "0" * 12  # the pack as another view had it
        pick = s.links["alice"] + "/pick"
        async with s.session.post(pick, data={"choice": "2", "seen": stale}) as response:
            assert response.status == 409
            assert await response.text() == "your pack changed: check your choice and press Pick again"
        assert list(journal.entries(s.referee.table_key)) == before
        async with s.session.post(pick, data={"choice": "2", "seen": seen}) as response:
            assert response.status == 200 and (await response.json())["replies"] == []
        assert list(journal.entries(s.referee.table_key))[len(before)].action["choice"] == 1
        await stream.aclose()

    scenario(tmp_path, body)


def test_links_expire_when_the_game_ends(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        stream = events(s.session, s.links["alice"] + "/events")
        await anext(stream)
        await s.referee.finish("game over (test)", linger=60)
        kind, _ = await anext(stream)
        assert kind == "expired"
        for name in ("alice", "bob"):
            async with s.session.get(s.links[name]) as page:
                assert page.status == 404
            async with s.session.post(s.links[name] + "/pick", data={"choice": "1"}) as response:
                assert response.status == 404
        async with s.session.get(f"{s.base}/game/{GAME}") as page:  # the public board stays
            assert page.status == 200
        await stream.aclose()

    scenario(tmp_path, body)


def test_public_pages_list_the_game_and_never_show_a_pack(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        async for kind, view in events(s.session, f"{s.base}/events"):
            assert kind == "view"
            assert view["games"] == [
                {
                    "game": GAME,
                    "format": "vortex",
                    "title": "Vortex",
                    "status": "in progress",
                    "players": ["alice", "bob"],
                }
            ]
            break
        stream = events(s.session, f"{s.base}/game/{GAME}/events")
        _, view = await anext(stream)
        assert view["board"]["packs"][0] == {"player": "alice", "size": 7, "to_pick": True}
        hidden = {ref.name for p in (1, 2) for ref in s.engine.pack(p)}
        assert not any(name in json.dumps(view) for name in hidden)
        s.referee.apply(rules.Pick(player=1, choice=0))  # a pick from chat updates the board too
        _, view = await anext(stream)
        assert view["board"]["packs"][0] == {
            "player": "alice",
            "size": s.engine.pack_size(1),
            "to_pick": False,
        }
        async with s.session.get(f"{s.base}/game/{GAME + 1}") as page:
            assert page.status == 404 and (await page.text()).startswith("error: ")
        await stream.aclose()

    scenario(tmp_path, body)


def test_a_public_page_that_is_gone_speaks_to_a_spectator_and_a_private_one_to_its_player(
    tmp_path: Path,
) -> None:
    """Field test: a league game's public ``/game/N``, reloaded once its result was in (the referee leaves at
    once), answered "a private link expires when its game or league ends": words for a player with a link.
    A public page that is not there says what a spectator needs; only a private page speaks of links."""

    async def body(s: Setup) -> None:
        game = "error: no such game now: the referee leaves a game once it is over; / lists its games"
        league = "error: no such league: / lists the referee's leagues"
        private = "error: no such page (a private link expires when its game or league ends)"
        expected = {
            f"/game/{GAME + 1}": game,
            f"/game/{GAME + 1}/events": game,
            "/league/9": league,
            "/league/9/events": league,
            "/nowhere": "error: no such page",
            f"/game/{GAME}/private/{'x' * 32}": private,
            f"/game/{GAME + 1}/private/{'x' * 32}/events": private,
            f"/league/9/private/{'x' * 32}": private,
        }
        for path, text in expected.items():
            async with s.session.get(s.base + path) as page:
                assert (page.status, await page.text()) == (404, text), path

    scenario(tmp_path, body)


def test_requests_are_size_and_rate_limited(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        async with s.session.post(s.links["alice"] + "/pick", data={"choice": "1" * 5000}) as response:
            assert response.status == 413 and await response.text() == "error: request too large"
        async with s.session.post(s.links["alice"] + "/pick", data={"choice": "x" * 200}) as response:
            assert response.status == 400
        statuses = []
        for _ in range(8):
            async with s.session.get(f"{s.base}/") as page:
                statuses.append(page.status)
        assert 429 in statuses and statuses[0] == 200

    scenario(tmp_path, body, request_burst=5, requests_per_second=0.5)


def test_actions_per_token_and_streams_per_client_are_capped(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        statuses = []
        for _ in range(4):
            async with s.session.post(s.links["bob"] + "/pick", data={"choice": "1"}) as response:
                statuses.append(response.status)
        assert statuses == [200, 200, 429, 429]
        first = events(s.session, f"{s.base}/events")
        await anext(first)
        second = events(s.session, f"{s.base}/events")
        await anext(second)
        async with s.session.get(f"{s.base}/events") as response:
            assert response.status == 429
        await first.aclose()
        await second.aclose()

    scenario(tmp_path, body, action_burst=2, actions_per_second=0.01, max_streams_per_client=2)


def test_the_access_log_never_holds_a_token(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def body(s: Setup) -> None:
        with caplog.at_level(logging.INFO, logger="aiohttp.access"):
            async with s.session.get(s.links["alice"]) as page:
                assert page.status == 200
            async with s.session.get(s.links["alice"] + "zz") as page:
                assert page.status == 404
        token = s.links["alice"].rsplit("/", 1)[1]
        lines = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
        assert len(lines) == 2 and all("/private/…" in line for line in lines)
        assert not any(token[:12] in line for line in lines)

    scenario(tmp_path, body)


def test_redact_and_rate_limiter() -> None:
    assert redact("/game/3/private/abc_DEF-1/events") == "/game/3/private/…/events"
    now = [0.0]
    limiter = RateLimiter(rate=1.0, burst=2, clock=lambda: now[0])
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]
    assert limiter.allow("b")  # another client has its own budget
    now[0] = 1.0
    assert limiter.allow("a") and not limiter.allow("a")


def test_bad_bodies_and_lines_are_refused_without_quoting_a_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body(s: Setup) -> None:
        token = s.links["alice"].rsplit("/", 1)[1]
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        async with s.session.post(
            s.links["alice"] + "/pick", data=b"choice=\xff\xfe", headers=form
        ) as response:
            assert response.status == 400 and await response.text() == "error: bad request"
        async with s.session.post(s.links["alice"] + "/pick", json={"choice": 1}) as response:
            assert response.status == 400
        with caplog.at_level(logging.DEBUG, logger="aiohttp.server"):
            async with s.session.get(s.links["alice"] + "/" + "x" * 9000) as response:
                assert response.status == 400  # aiohttp's parser: the line is too long
        logged = "\n".join(record.getMessage() for record in caplog.records)
        assert "/private/…" in logged and token[:12] not in logged

    scenario(tmp_path, body)


def test_names_are_text_not_markup(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        async with s.session.get(s.links["<i>eve</i>"]) as page:
            html = await page.text()
        assert "&lt;i&gt;eve&lt;/i&gt;" in html and "<i>" not in html
        async with s.session.get(f"{s.base}/static/app.js") as script:
            code = await script.text()
        assert "textContent" in code and "innerHTML" not in code  # the pages never parse names as HTML

    scenario(tmp_path, body, players=("<i>eve</i>", "bob"))


def test_combat_players_get_their_hand_and_no_pick(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        seat_game(s.bot, GAME + 1, ["fay", "gus"])
        combat = CombatReferee(s.bot, GAME + 1, 1, CombatOptions(seed=5))
        verdict = check_cod(load_block("combat-deck", sections=None).cod)
        combat.decks = {1: verdict, 2: verdict}
        s.bot.adopt_game(combat)
        await combat.start_engine()
        await settle(s.bot)
        links = {d[1]: LINK.search(m).group(0) for d, m in s.chat if d[0] == "user" and LINK.search(m)}
        assert {"fay", "gus"} <= set(links)
        async for _, view in events(s.session, links["fay"] + "/events"):
            listed = "; ".join(f"{c['number']}. {c['name']}" for c in view["private"]["hand"])
            assert listed == hand_listing(combat.engine, 1)
            break
        async with s.session.post(links["fay"] + "/pick", data={"choice": "1"}) as response:
            assert response.status == 404

    scenario(tmp_path, body)


def test_after_a_restart_a_resumed_game_s_links_open_it_and_a_lost_game_s_do_not(tmp_path: Path) -> None:
    """The bot restarts on the same journal, re-seated in game 7 (a registered account keeps its seat) and
    not in a second game: alice's and bob's links of game 7 open their packs (nobody is sent a new one),
    and a pick from the page is journaled; the lost game's link is refused and forgotten, and its page says
    how to continue the game (it said "a private link expires when its game or league ends")."""
    links: dict[str, str] = {}

    async def run() -> None:
        port = free_port()  # the same address before and after the restart, as an operator runs it
        first = await make_setup(tmp_path, port=port)
        links.update(first.links)
        other = VortexReferee(
            first.bot, GAME + 1, 1, VortexOptions(seed=6), load_block("vortex-pool", sections=None)
        )
        seat_game(first.bot, GAME + 1, ["alice", "bob"])
        first.bot.adopt_game(other)
        await other.start_engine()
        await settle(first.bot)
        lost = next(
            LINK.search(m).group(0)  # type: ignore[union-attr]
            for (kind, name), m in first.chat
            if kind == "user" and name == "alice" and f"/game/{GAME + 1}/" in m
        )
        await first.session.close()
        await first.web.stop()
        first.bot.chat.close()

        chat: list[tuple[Any, str]] = []

        async def send(destination: Any, message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(tmp_path / "journal.sqlite3", send, ready=False)
        seat_game(bot, GAME, ["alice", "bob"])
        web = WebView(bot, WebOptions(port=port))
        await web.start()
        try:
            async with aiohttp.ClientSession() as session:
                await bot.resume_game(GAME, 1)
                bot.mark_ready()
                referee = bot.games[GAME]
                assert isinstance(referee, VortexReferee)
                for name, seat in (("alice", 1), ("bob", 2)):
                    async for kind, view in events(session, links[name] + "/events"):
                        assert kind == "view" and pack_names(view) == [
                            ref.name for ref in referee.engine.pack(seat)
                        ]
                        break
                to_pick = next(
                    name for name, seat in (("alice", 1), ("bob", 2)) if referee.engine.pending_pick(seat)
                )
                async with session.post(links[to_pick] + "/pick", data={"choice": "1"}) as response:
                    assert response.status == 200 and (await response.json())["replies"] == []
                async with session.get(lost) as page:  # its page says what happened and what to do
                    assert page.status == 404
                    assert await page.text() == (
                        f"error: game #{GAME + 1} was lost in a restart of the referee; its players continue"
                        f" it with !resume {GAME + 1} in the room (new links come then)"
                    )
                await settle(bot)
                assert not [m for (kind, _), m in chat if kind == "user" and "/private/" in m]
                kept = bot.journal.notes(f"{bot.server_key}:web:token:").values()
                assert sorted(note["number"] for note in kept) == [GAME, GAME]
        finally:
            await web.stop()
            bot.chat.close()

    asyncio.run(run())


def test_a_number_a_restarted_server_gives_again_gets_new_links_and_the_old_ones_open_nothing(
    tmp_path: Path,
) -> None:
    """Game 7 is lost in a server restart; the restarted server gives number 7 to a new game where bob sits
    in alice's old seat. Both are sent new links (bob's opens his pack); alice's old link opens nothing and
    her open page ends (it used to show seat 1 of the new game: bob's pack)."""

    async def body(s: Setup) -> None:
        old_alice = s.links["alice"]
        stream = events(s.session, old_alice + "/events")
        assert (await anext(stream))[0] == "view"
        s.bot.client.games.pop(GAME)  # as the client does with a game it reports lost
        await s.bot.on_event(Reconnected(1, s.bot.client.user_name, (1,), (), (GAME,)))
        await settle(s.bot)
        seen = len(s.chat)
        seat_game(s.bot, GAME, ["bob", "alice"])
        await s.bot.number_given_again(GAME)  # as when the bot opens it: the old record moves aside
        pool = load_block("vortex-pool", sections=None)
        referee = VortexReferee(s.bot, GAME, 1, VortexOptions(seed=9), pool)
        s.bot.adopt_game(referee)
        await referee.start_engine()
        await settle(s.bot)
        new = {d[1]: LINK.search(m).group(0) for d, m in s.chat[seen:] if d[0] == "user" and LINK.search(m)}  # type: ignore[union-attr]
        assert set(new) == {"alice", "bob"} and old_alice not in new.values()
        async for kind, view in events(s.session, new["bob"] + "/events"):
            assert kind == "view" and pack_names(view) == [ref.name for ref in referee.engine.pack(1)]
            break
        for suffix in ("", "/events"):
            async with s.session.get(old_alice + suffix) as response:
                assert response.status == 404
        async for kind, _ in stream:
            assert kind != "view", "the old page must not show the new game"
            break

    scenario(tmp_path, body)
