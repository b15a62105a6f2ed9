"""The league lobby's room commands, with and without the web view: who hears what when players join,
leave and start (``!autobattler join|leave|status|start`` through the room referee, a real :class:`Bot`
whose chat goes to a list). The pages themselves are tested in ``tests/web/test_league_pages.py``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom, Lobby, MarketRoom
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.web.demo import demo_bot

ROOM = 1
PLAYERS = ("al", "bo", "cy", "di")


class Pages:
    """The web view's side of ``bot.league_pages`` as the lobby uses it: links, changes and revocations."""

    def __init__(self) -> None:
        self.tokens: dict[tuple[str, str], int] = {}
        self.issued = 0
        self.changed_keys: list[str] = []

    def link(self, league: Any, player: str) -> str | None:
        if (league.page_key, player) in self.tokens:
            return None
        self.issued += 1
        self.tokens[(league.page_key, player)] = self.issued
        return f"http://web.example/league/x/private/token{self.issued}"

    def changed(self, league: Any) -> None:
        self.changed_keys.append(league.page_key)

    def revoke(self, league: Any, player: str) -> None:
        del self.tokens[(league.page_key, player)]


Chat = list[tuple[tuple[str, Any], str]]


Body = Callable[[Bot, AutoBattlerRoom, Chat], Awaitable[None]]


def run_room(tmp_path: Path, body: Body, pages: Any) -> None:
    async def run() -> None:
        chat: Chat = []

        async def send(destination: tuple[str, Any], message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(tmp_path / "journal.sqlite3", send)
        bot.league_pages = pages
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=3))
        bot.room_referees.append(room)
        try:
            await body(bot, room, chat)
        finally:
            bot.chat.close()

    asyncio.run(run())


async def say(bot: Bot, room: AutoBattlerRoom, user: str, text: str) -> None:
    assert await room.handle_command(Context(bot, "room", user, room_id=ROOM), text)
    await bot.chat.flush(timeout=5)


def lines(chat: Chat, kind: str) -> list[str]:
    return [f"{name}: {message}" if kind == "user" else message for (k, name), message in chat if k == kind]


def test_without_the_web_view_every_join_and_leave_is_answered_in_the_room(tmp_path: Path) -> None:
    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "bo", "!autobattler leave")
        assert lines(chat, "room") == [
            "al joins the AutoBattler league (1: 3 more needed; who is in: !autobattler status).",
            "bo joins the AutoBattler league (2: 2 more needed).",
            "cy joins the AutoBattler league (3: 1 more needed).",
            "di joins the AutoBattler league (4: enough to start).",
            "bo leaves the AutoBattler lobby (3 waiting).",
        ]
        assert lines(chat, "user") == []

    run_room(tmp_path, body, None)


def test_a_join_answer_says_the_count_and_what_it_means(tmp_path: Path) -> None:
    """Past four, an AutoBattler join says that it plays with 4 or 8 (not 5-7); a Market Draft join says
    when two are enough and when the lobby is full. No answer lists who joined (``status`` does)."""

    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in (*PLAYERS, "ed", "fy", "gu", "hal"):
            await say(bot, room, user, "!autobattler join")
        assert lines(chat, "room")[4:] == [
            "ed joins the AutoBattler league (5: 3 more needed: it plays with 4 or 8).",
            "fy joins the AutoBattler league (6: 2 more needed: it plays with 4 or 8).",
            "gu joins the AutoBattler league (7: 1 more needed: it plays with 4 or 8).",
            "hal joins the AutoBattler league (8: full, enough to start).",
        ]
        await say(bot, room, "al", "!autobattler status")
        assert lines(chat, "room")[-1] == "AutoBattler: lobby 8 (al, bo, cy, di, ed, fy, gu, hal)"
        market = MarketRoom(bot, LeagueOptions(format="market"))
        for user in ("ivy", "jo", "kim", "lu", "mo", "ned", "oz", "pia"):
            assert await market.handle_command(Context(bot, "room", user, room_id=ROOM + 1), "!market join")
            await bot.chat.flush(timeout=5)
        assert [m for m in lines(chat, "room") if "Market Draft" in m][::3] == [
            "ivy joins the Market Draft league (1: 1 more needed; who is in: !market status).",
            "lu joins the Market Draft league (4: enough to start).",
            "oz joins the Market Draft league (7: enough to start).",
        ]
        assert lines(chat, "room")[-1] == "pia joins the Market Draft league (8: full, enough to start)."

    run_room(tmp_path, body, None)


def test_a_member_out_of_the_room_a_while_leaves_the_lobby(tmp_path: Path, monkeypatch: Any) -> None:
    """A player who logs off (Servatrice takes them out of the room) used to stay in the lobby for good: a
    league then started with a drafter who was gone, and nobody else could clear them. Out of the room for
    LOBBY_GRACE seconds, they leave it at the lobby's next command, the room is told and their page's link
    dies; one back in the room in time keeps their place (a dropped connection)."""
    from cockatrice_ext.bot import league_away
    from cockatrice_ext.client import ClientEvent
    from cockatrice_ext.protocol.pb import room_events_pb2

    def left(user: str) -> ClientEvent:
        return ClientEvent(kind="room", message=room_events_pb2.Event_LeaveRoom(name=user), room_id=ROOM)

    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_referees[:] = [room]
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        bot.client.room_users[ROOM] = {"al", "bo", "di"}
        await bot.on_event(left("cy"))
        await say(bot, room, "al", "!autobattler status")  # within the grace: still waiting for cy
        assert room.lobbies[ROOM].members == ["al", "bo", "cy", "di"]
        monkeypatch.setattr(league_away, "LOBBY_GRACE", 0.0)  # one place: every part reads it there
        await bot.on_event(left("bo"))
        bot.client.room_users[ROOM].add("bo")  # bo came back: keeps the place
        await say(bot, room, "al", "!autobattler start")  # three are not enough: refused, not started
        assert room.lobbies[ROOM].members == ["al", "bo", "di"]
        room_text = " | ".join(lines(chat, "room"))  # lines queued together leave as one message
        assert "cy has been out of the room a while: out of the AutoBattler lobby (3 waiting)." in room_text
        assert room_text.endswith("AutoBattler needs 4 or 8 players; 3 joined")
        assert [player for _page, player in bot.league_pages.tokens] == ["al", "bo", "di"]

    run_room(tmp_path, body, Pages())


def test_with_the_web_view_a_join_is_answered_privately_with_the_link(tmp_path: Path) -> None:
    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        pages = bot.league_pages
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        assert lines(chat, "room") == ["al opened a lobby for AutoBattler: !autobattler join"]
        assert lines(chat, "user") == [
            f"{user}: Your AutoBattler page: http://web.example/league/x/private/token{n}"
            for n, user in enumerate(PLAYERS, start=1)
        ]
        lobby = room.lobbies[ROOM]
        assert isinstance(lobby, Lobby) and lobby.members == list(PLAYERS)
        assert pages.changed_keys == [lobby.page_key] * 4  # each join redraws the members' pages
        await say(bot, room, "bo", "!autobattler leave")
        assert ("bo" not in lobby.members) and (lobby.page_key, "bo") not in pages.tokens
        left = "bo: You left the AutoBattler lobby; your page's link no longer works."
        assert lines(chat, "user")[-1] == left
        await say(bot, room, "al", "!autobattler status")
        assert lines(chat, "room")[-1] == "AutoBattler: lobby 3 (al, cy, di)"
        for user in ("al", "cy", "di"):
            await say(bot, room, user, "!autobattler leave")
        assert lobby.over and ROOM not in room.lobbies and not pages.tokens
        await say(bot, room, "cy", "!autobattler join")  # a new lobby, under a new key
        assert room.lobbies[ROOM].page_key != lobby.page_key
        assert lines(chat, "room")[-1] == "cy opened a lobby for AutoBattler: !autobattler join"

    run_room(tmp_path, body, Pages())


def test_the_league_keeps_its_lobbys_pages_and_who_watches_them(tmp_path: Path) -> None:
    """At the start the league takes the lobby's page key (the joiners' links stay valid) and its watching
    players, who get no private message; the others (no page open, nothing played from chat yet) get one
    line pointing to the page; no second link."""

    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        lobby = room.lobbies[ROOM]
        lobby.page_players |= {"al", "bo"}  # as the web view marks open pages
        before = len(chat)
        await say(bot, room, "cy", "!autobattler start")
        (league,) = room.leagues
        assert league.page_key == lobby.page_key and league.page_players == {"al", "bo"}
        assert ROOM not in room.lobbies
        after = chat[before:]
        (start,) = [m for (kind, _), m in after if kind == "room"]
        assert start.startswith("AutoBattler league #1 starts")
        told = {name for (kind, name), _ in after if kind == "user"}
        assert told == {"cy", "di"}
        assert not any("/private/" in m for _, m in after)
        assert len(after) == 3  # the room's line and two private lines

    run_room(tmp_path, body, Pages())


def test_a_restart_keeps_who_waits_in_the_lobby(tmp_path: Path) -> None:
    """Joins and leaves are written to the journal before they are answered; a new bot on the same journal
    opens the lobby again, says so in the room, gives each member a new page link (the old ones died with
    the process) and starts the league from it; once started, no lobby is kept."""

    async def before(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in PLAYERS[:3]:
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "bo", "!autobattler leave")

    async def after(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_ids.append(ROOM)
        await room.restore_lobbies()
        await bot.chat.flush(timeout=5)
        assert room.lobbies[ROOM].members == ["al", "cy"]
        assert lines(chat, "room") == [
            "The AutoBattler lobby is still open after the referee's restart: al, cy (2 joined)."
            " !autobattler join, !autobattler start."
        ]
        assert lines(chat, "user") == [
            f"{user}: Your AutoBattler page: http://web.example/league/x/private/token{n}"
            for n, user in enumerate(["al", "cy"], start=1)
        ]
        for user in ("bo", "di"):
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "di", "!autobattler start")
        (league,) = room.leagues
        assert league.engine.league.members == ["al", "cy", "bo", "di"]

    async def later(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_ids.append(ROOM)
        await room.restore_lobbies()
        assert not room.lobbies and not chat

    run_room(tmp_path, before, Pages())
    run_room(tmp_path, after, Pages())
    run_room(tmp_path, later, None)


def test_a_kept_lobby_of_another_room_or_format_stays_where_it_is(tmp_path: Path) -> None:
    """A bot that is not in the lobby's room, or referees another format, leaves the note alone."""

    async def before(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        await say(bot, room, "al", "!autobattler join")

    async def elsewhere(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        await room.restore_lobbies()  # not in room 1
        market = MarketRoom(bot, LeagueOptions(format="market"))
        bot.room_ids.append(ROOM)
        await market.restore_lobbies()  # room 1, but the lobby is AutoBattler's
        assert not room.lobbies and not market.lobbies and not chat
        assert list(bot.journal.notes()) == [room.lobby_note(ROOM)]

    run_room(tmp_path, before, None)
    run_room(tmp_path, elsewhere, None)


def test_a_private_command_from_a_lobby_member_says_the_league_has_not_started(tmp_path: Path) -> None:
    """Everyone writing to the referee privately outside a league heard "Join a league in the room first",
    a lobby member too: they are told their league has not started."""

    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_referees[:] = [room]
        await say(bot, room, "al", "!autobattler join")
        await bot.answer_private("al", "!status")
        await bot.answer_private("zed", "!status")
        await bot.chat.flush(timeout=5)
        assert lines(chat, "user") == [
            "al: You are in the AutoBattler lobby: its commands work here once the league starts.",
            "zed: Join a league in the room first: by private message the referee takes a league's commands"
            " (and a Vortex player's picks); game commands go in the game's own chat. !help in the room lists"
            " the room commands.",
        ]

    run_room(tmp_path, body, None)


def test_a_restart_keeps_only_the_lobby_members_still_in_the_room(tmp_path: Path) -> None:
    """Who left the room while the referee was away (no leave event reached it) is not in the lobby it
    opens again: the room's user list at the join says who is there."""

    async def before(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in PLAYERS[:3]:
            await say(bot, room, user, "!autobattler join")

    async def after(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_ids.append(ROOM)
        bot.client.room_users[ROOM] = {"al", "cy", "someone else"}
        await room.restore_lobbies()
        await bot.chat.flush(timeout=5)
        assert room.lobbies[ROOM].members == ["al", "cy"]
        assert lines(chat, "room")[0].startswith(
            "The AutoBattler lobby is still open after the referee's restart: al, cy (2 joined)."
        )

    run_room(tmp_path, before, None)
    run_room(tmp_path, after, None)


def test_a_market_league_start_says_when_its_markets_come(tmp_path: Path) -> None:
    """Markets come between a Market Draft league's games: a one-round league has none, which its players
    found out only at its end."""

    async def run() -> list[str]:
        chat: Chat = []

        async def send(destination: tuple[str, Any], message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(tmp_path / "journal.sqlite3", send)
        room = MarketRoom(bot, LeagueOptions(format="market", seed=3))
        bot.room_referees.append(room)
        try:
            for user in ("al", "bo"):
                assert await room.handle_command(Context(bot, "room", user, room_id=ROOM), "!market join")
            assert await room.handle_command(Context(bot, "room", "al", room_id=ROOM), "!market start 1")
            await bot.chat.flush(timeout=5)
        finally:
            bot.chat.close()
        return lines(chat, "room")

    said = " | ".join(asyncio.run(run()))
    assert "Market Draft league #" in said and ", 1 round, no market)" in said, said
