"""The referee's game slots are everyone's: Servatrice lets one account create 5 games per room (its shipped
``max_games_per_user``), and a game counts until it closes.

Seen in a hostile test: one user said ``!auction new 2`` five times and joined none; the five empty games
stayed open (for good: they closed only when someone joined and left each), and every other user was told
"the referee's earlier games still have players in them", which was false. Now a game nobody sits down in
closes after a while (the room told once), one user waits for one game at a time, and at the limit the
refusal says what holds the slots, and an old game nobody joined makes room for another user's.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from bot_players import Player, room_players, start_room_bot, still_on_server, wait_until
from servatrice import ServatriceConfig, ServatriceServer

from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.bot.words import duration_words
from cockatrice_ext.journal import Journal

OPENED = re.compile(r"Auction Magic game #(\d+)")


@pytest.fixture(scope="module")
def shipped_limit(
    tmp_path_factory: pytest.TempPathFactory, servatrice_binary: str
) -> Iterator[ServatriceServer]:
    """One server for the module, with Servatrice's shipped limit of 5 games per account and room (each test
    has its own referee account, so each has its own 5 slots)."""
    server = ServatriceServer(
        servatrice_binary, tmp_path_factory.mktemp("servatrice"), ServatriceConfig(max_games_per_user=5)
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def run(coroutine: Any, timeout: float = 150.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def start_bot(server: ServatriceServer, tmp_path: Path, user: str, **options: Any) -> Bot:
    """A referee that paces itself by the shipped flood limits (the server it meets has them)."""
    return await start_room_bot(server, tmp_path, user, relaxed=False, **options)


arrive = room_players


def answers(name: str) -> re.Pattern[str]:
    """A room line answering ``name``'s request: the game announced as asked by them, or a line addressed to
    them. Another player's announcement still on its way to ``name`` when they ask is no answer to them."""
    who = re.escape(name)
    return re.compile(rf"{OPENED.pattern}.*, asked by {who}\b|^{who}: ")


async def ask(player: Player, room_id: int, command: str = "!auction new 2") -> str:
    """Say ``command`` in the room; the referee's answer to this player (a new game, or why not)."""
    answer = answers(player.name)
    since = player.mark()
    await player.client.room_say(room_id, command)
    return await player.wait_line(lambda t: answer.search(t) is not None, since=since, timeout=30)


def opened_game(answer: str) -> int:
    match = OPENED.search(answer)
    assert match, answer
    return int(match.group(1))


@pytest.mark.servatrice
def test_a_game_nobody_joins_is_closed_and_the_room_told_once(
    shipped_limit: ServatriceServer, tmp_path: Path
) -> None:
    """alice asks for a game and never joins it: after the unjoined timeout the referee leaves it, the
    server closes it, the room hears one line, and alice may ask again. bob's older game, where alice sits
    (someone other than the user who asked for it), is kept."""

    async def scenario() -> None:
        bot = await start_bot(shipped_limit, tmp_path, "referee_gs1", unjoined_timeout=3.0)
        room_id, (alice, bob) = await arrive(shipped_limit, "alice_gs1", "bob_gs1")
        try:
            kept = opened_game(await ask(bob, room_id))
            await alice.sit(room_id, kept)
            since = alice.mark()
            empty = opened_game(await ask(alice, room_id))
            closed = f"game #{empty} closed: nobody joined in 3 seconds."
            await alice.wait_line(lambda t: t == closed, since=since, timeout=30)
            assert empty not in bot.games and empty not in bot.client.games
            assert not await still_on_server(alice, room_id, empty)
            assert kept in bot.games and bot.games[kept].waiting_for_players  # alice sits there: not closed
            assert await still_on_server(bob, room_id, kept)
            again = opened_game(await ask(alice, room_id))  # her waiting game is gone: she may ask again
            assert again not in (kept, empty)
            await wait_until(lambda: again not in bot.games, timeout=30, what="the second empty game closed")
            assert [t for _, t in alice.heard].count(closed) == 1, alice.heard
        finally:
            for player in (alice, bob):
                await player.close()
            await bot.close()

    run(scenario())


@pytest.mark.servatrice
def test_one_user_waits_for_one_game_at_a_time(shipped_limit: ServatriceServer, tmp_path: Path) -> None:
    """alice's second request while her first game waits is refused with which game waits; bob still gets
    a game; once alice's game has started she may ask for another."""

    async def scenario() -> None:
        bot = await start_bot(shipped_limit, tmp_path, "referee_gs2")
        room_id, (alice, bob) = await arrive(shipped_limit, "alice_gs2", "bob_gs2")
        try:
            first = opened_game(await ask(alice, room_id))
            refused = await ask(alice, room_id, "!auction new 3")
            assert refused.startswith(f"alice_gs2: your auction game #{first} still waits for players"), (
                refused
            )
            assert "nobody has joined it, so it closes in about 5 minutes" in refused, refused
            assert "It must fill or close before you ask for another" in refused, refused
            assert len(bot.games) == 1
            opened_game(await ask(bob, room_id))  # another user is not held back by alice's game

            await alice.sit(room_id, first)
            refused = await ask(alice, room_id)
            assert f"#{first} still waits for players (1 seated): leave it to close it" in refused, refused
            await bob.sit(room_id, first)
            await wait_until(
                lambda: not bot.games[first].waiting_for_players, timeout=30, what="game started"
            )
            assert opened_game(await ask(alice, room_id)) != first
        finally:
            for player in (alice, bob):
                await player.close()
            await bot.close()

    run(scenario())


@pytest.mark.servatrice
def test_at_the_limit_the_refusal_is_true_and_an_unjoined_game_makes_room(
    shipped_limit: ServatriceServer, tmp_path: Path
) -> None:
    """The smoke test's steps: one user (allowed five waiting games here) takes the five slots with empty
    games. Another user is told which games wait with nobody joined and when they close, not that they
    "still have players in them". Once the oldest has waited long enough, it is closed to make room (the
    room told) and the other user gets a game; the hog's other games stay."""

    async def scenario() -> None:
        bot = await start_bot(
            shipped_limit, tmp_path, "referee_gs3", max_waiting_per_user=5, unjoined_yield_after=3600.0
        )
        room_id, (hog, victim) = await arrive(shipped_limit, "hog_gs3", "victim_gs3")
        try:
            hogged = [opened_game(await ask(hog, room_id)) for _ in range(5)]
            refused = await ask(victim, room_id)
            listed = ", ".join(f"#{game_id}" for game_id in hogged)
            assert refused.startswith("victim_gs3: no new game (game limit): "), refused
            waits = rf"{listed} wait for players \(#{hogged[0]} closes in \d minutes if empty\)"
            assert re.search(waits, refused), refused
            assert "still have players" not in refused, refused
            assert f"ask again in {duration_words(3600.0)}" in refused, refused
            assert len(refused) <= 300, refused

            bot.options.unjoined_yield_after = 0.0  # the hog's games have now waited long enough
            since = victim.mark()
            answer = await ask(victim, room_id)
            got = opened_game(answer)
            given_up = await victim.wait_line(lambda t: "closed to make room" in t, since=since)
            assert given_up.startswith(
                f"game #{hogged[0]} closed to make room for a new game: nobody joined"
            ), given_up
            assert got not in hogged and got in bot.games
            assert sorted(bot.games) == sorted([*hogged[1:], got])
            assert not await still_on_server(victim, room_id, hogged[0])

            # The hog's own empty games never make room for the hog: the hog joined the victim's, so none can.
            await hog.sit(room_id, got)
            await wait_until(lambda: bool(bot.games[got].humans()), timeout=30, what="the hog seated")
            refused = await ask(hog, room_id)
            assert f", #{got} wait for players" in refused, refused
            assert refused.endswith("Join one or ask again when one closes")  # remedy: the log
            assert sorted(bot.games) == sorted([*hogged[1:], got])
        finally:
            for player in (hog, victim):
                await player.close()
            await bot.close()

    run(scenario(), timeout=240)


@pytest.mark.servatrice
def test_sitting_alone_in_ones_own_game_does_not_keep_it_open(
    shipped_limit: ServatriceServer, tmp_path: Path
) -> None:
    """Seen in a hostile test: alice asks for a game and sits in it alone; nobody else joins. It still counts
    as unjoined: at the timeout she is kicked, the game closes on the server and the room hears why. bob's
    game, where carol joined him, is kept."""

    async def scenario() -> None:
        bot = await start_bot(shipped_limit, tmp_path, "referee_gs4", unjoined_timeout=3600.0)
        room_id, (alice, bob, carol) = await arrive(shipped_limit, "alice_gs4", "bob_gs4", "carol_gs4")
        try:
            alone = opened_game(await ask(alice, room_id))
            await alice.sit(room_id, alone)
            kept = opened_game(await ask(bob, room_id, "!auction new 3"))
            for player in (bob, carol):
                await player.sit(room_id, kept)
            seated = {alone: 1, kept: 2}
            await wait_until(
                lambda: all(len(bot.games[game].humans()) == count for game, count in seated.items()),
                timeout=30,
                what="the referee sees who sits where",
            )
            since = bob.mark()
            for game_id in (alone, kept):  # the timeout passed (called here: no waiting in a test)
                await bot.close_if_unjoined(game_id)
            closed = await bob.wait_line(lambda t: f"game #{alone} closed" in t, since=since, timeout=30)
            assert closed == f"game #{alone} closed: nobody joined in {duration_words(3600.0)}.", closed
            assert alone not in bot.games and alone not in bot.client.games
            await wait_until(lambda: alice.client.games[alone].kicked, timeout=30, what="alice kicked")
            assert not await still_on_server(bob, room_id, alone)
            assert kept in bot.games and bot.games[kept].waiting_for_players  # carol joined bob: kept
            again = opened_game(await ask(alice, room_id))  # her game is gone: she may ask again
            assert again not in (alone, kept)
        finally:
            for player in (alice, bob, carol):
                await player.close()
            await bot.close()

    run(scenario())


@pytest.mark.servatrice
def test_accounts_sitting_in_their_own_games_give_way_at_the_limit(
    shipped_limit: ServatriceServer, tmp_path: Path
) -> None:
    """The smoke test's steps: five accounts each ask for a game and sit in it alone, taking the five slots.
    Another user is told they wait with nobody joined; once the oldest has waited long enough it is closed
    to make room (its requester kicked, the room told) and the other user gets a game."""

    async def scenario() -> None:
        bot = await start_bot(shipped_limit, tmp_path, "referee_gs5", unjoined_yield_after=3600.0)
        names = [f"holder{index}_gs5" for index in range(5)]
        room_id, (*holders, victim) = await arrive(shipped_limit, *names, "victim_gs5")
        try:
            held = []
            for holder in holders:
                held.append(opened_game(await ask(holder, room_id)))
                await holder.sit(room_id, held[-1])
            await wait_until(
                lambda: all(len(bot.games[game].humans()) == 1 for game in held), timeout=30, what="seated"
            )
            refused = await ask(victim, room_id)
            assert f"{', '.join(f'#{game_id}' for game_id in held)} wait for players" in refused, refused
            assert f"ask again in {duration_words(3600.0)}" in refused, refused

            bot.options.unjoined_yield_after = 0.0  # the holders' games have now waited long enough
            since = victim.mark()
            got = opened_game(await ask(victim, room_id))
            given_up = await victim.wait_line(lambda t: "closed to make room" in t, since=since)
            assert given_up.startswith(
                f"game #{held[0]} closed to make room for a new game: nobody joined"
            ), given_up
            assert sorted(bot.games) == sorted([*held[1:], got])
            await wait_until(lambda: holders[0].client.games[held[0]].kicked, timeout=30, what="kicked")
            assert not await still_on_server(victim, room_id, held[0])
        finally:
            for player in (*holders, victim):
                await player.close()
            await bot.close()

    run(scenario(), timeout=240)


def test_durations_read_as_players_say_them() -> None:
    assert duration_words(3.0) == "3 seconds"
    assert duration_words(0.2) == "1 second"
    assert duration_words(59.0) == "59 seconds"
    assert duration_words(60.0) == "1 minute"
    assert duration_words(300.0) == "5 minutes"
    assert duration_words(250.0) == "4 minutes"


# -- without a server: who counts as the requester, and a continued game's record -------------------------


def test_only_room_commands_that_open_a_game_per_request_name_its_requester() -> None:
    """The requester is the room message's sender, and only for commands that open one game per request (a
    format's ``new``, ``!resume``): a league's games are its pairings', whoever said the command that
    started it."""
    from cockatrice_ext.bot import auction, combat, league_rooms, vortex
    from cockatrice_ext.bot.referee import GAME_REQUESTER, Context, LobbyReferee, Referee

    assert all(
        room.opens_games_on_request for room in (auction.AuctionRoom, vortex.VortexRoom, combat.CombatRoom)
    )
    assert LobbyReferee.opens_games_on_request and not league_rooms.LeagueRoom.opens_games_on_request

    seen: list[tuple[str, str]] = []

    class Room(Referee):
        def __init__(self, bot: Bot, name: str, opens: bool) -> None:
            super().__init__(bot)
            self.name, self.opens_games_on_request = name, opens  # type: ignore[misc]

        async def handle_command(self, ctx: Context, text: str) -> bool:
            seen.append((self.name, GAME_REQUESTER.get()))
            return self.name == "format"

    async def scenario() -> None:
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
        bot.room_referees = [Room(bot, "league", False), Room(bot, "format", True)]
        await bot.answer_room_command(Context(bot, "room", "alice", room_id=1), "!vortex new 2 bob")
        assert GAME_REQUESTER.get() == ""

    asyncio.run(scenario())
    assert seen == [("league", ""), ("format", "alice")]


def test_a_continued_game_nobody_joins_keeps_its_record() -> None:
    """A game opened by ``!resume`` continues a lost game's record: closed because nobody joined, it keeps
    that record open (so ``!resume`` works again) and the room is told so; a new game has no record."""
    from journal_toys import CounterConfig, CounterEngine

    from cockatrice_ext.bot.referee import GameReferee
    from cockatrice_ext.journal import Table

    said: list[tuple[int, str]] = []

    class Chat:
        def drop(self, destination: Any) -> None:
            pass

        async def flush(self, destination: Any = None, timeout: float | None = None) -> None:
            pass

    async def scenario() -> None:
        journal = Journal(":memory:")
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=journal)
        bot.client, bot.chat = SimpleNamespace(games={}), Chat()  # type: ignore[assignment]

        async def room_say(room_id: int, text: Any) -> None:
            said.append((room_id, text))

        bot.room_say = room_say  # type: ignore[method-assign]
        continued, new = GameReferee(bot, 7, 3), GameReferee(bot, 8, 3)
        for referee in (continued, new):
            bot.adopt_game(referee)
        continued.table = Table.create(journal, continued.table_key, CounterEngine(CounterConfig(), seed=1))
        await bot.give_up_unjoined(continued, "game #7 closed: nobody joined in 5 minutes")
        await bot.give_up_unjoined(new, "game #8 closed: nobody joined in 5 minutes")
        assert journal.closed_reason(continued.table_key) is None
        assert bot.games == {} and "7" in bot.lost_games()

    asyncio.run(scenario())
    assert said == [
        (3, "game #7 closed: nobody joined in 5 minutes; its record is kept: say !resume 7 to continue it."),
        (3, "game #8 closed: nobody joined in 5 minutes."),
    ]


def test_a_game_number_given_again_gets_its_own_unjoined_timer() -> None:
    """A server that restarted numbers games from 1 again: the new game #1's timer replaces the old one's, so
    the old game's timeout never closes the new game early; leaving a game stops its timer."""

    async def scenario() -> None:
        bot = Bot(
            BotOptions(url="ws://127.0.0.1:1/none", user="referee", unjoined_timeout=60.0),
            journal=Journal(":memory:"),
        )
        bot.note_opened(1, 3, "alice")
        old_timer = bot._unjoined_timers[1]
        bot.note_opened(1, 3, "bob")
        assert old_timer.cancelled() and not bot._unjoined_timers[1].cancelled()
        assert bot.opened[1].requester == "bob"
        new_timer = bot._unjoined_timers[1]
        bot.forget_game(1)
        assert new_timer.cancelled() and bot.opened == {} and bot._unjoined_timers == {}

    asyncio.run(scenario())
