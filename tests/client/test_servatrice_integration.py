"""The client against a real Servatrice on loopback (skipped without a binary; see tests/servatrice.py)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from client_helpers import TEST_DECK, Recorder, run, wait_until
from servatrice import FloodLimits as ServerFloodLimits
from servatrice import ServatriceConfig, ServatriceFactory, ServatriceServer

from cockatrice_ext.client import (
    ChatFlood,
    Client,
    ClientEvent,
    ContextError,
    Disconnected,
    FloodLimits,
    InvalidCommand,
    Reconnected,
    backoff,
    connect,
)
from cockatrice_ext.protocol import commands
from cockatrice_ext.protocol import messages as pb

pytestmark = pytest.mark.servatrice

TRANSPORTS = ["tcp", "ws"]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_login_rooms_and_name_collision(servatrice: ServatriceServer, transport: str) -> None:
    async def scenario() -> None:
        url = servatrice.url(transport)
        async with (
            await connect(url, f"dup_{transport}") as first,
            await connect(url, f"dup_{transport}", name_wait=0) as second,  # takes the offered name at once
        ):
            assert first.user_name == f"dup_{transport}"
            assert second.user_name != first.user_name and second.user_name.startswith(f"dup_{transport}")
            assert first.server is not None and first.server.protocol_version == 14
            rooms = await first.list_rooms()
            assert [room.name for room in rooms] == servatrice.room_names
            info = await first.join_room(rooms[0].room_id)
            assert [gt.description for gt in info.gametype_list] == ["Auction", "Vortex"]
            assert await first.ping() >= 0

    run(scenario())


def test_two_clients_chat_in_room_and_private(servatrice: ServatriceServer) -> None:
    async def scenario() -> None:
        async with (
            await connect(servatrice.tcp_url, "chat_alice") as alice,
            await connect(servatrice.ws_url, "chat_bob") as bob,
        ):
            alice_events, bob_events = Recorder(alice), Recorder(bob)
            room_id = await alice.room_id_by_name("Second room")
            await alice.join_room(room_id)
            await alice.room_say(room_id, "before bob came")
            await bob.join_room(room_id)
            # Bob sees the history replayed (marked) and the welcome message.
            replay = await bob_events.wait_for(
                lambda e: isinstance(e, ClientEvent) and e.name == "Event_RoomSay" and e.is_replay,
                what="replay",
            )
            assert isinstance(replay, ClientEvent)
            await bob.room_say(room_id, "hello\nalice")
            heard = await alice_events.wait_for(
                lambda e: (
                    isinstance(e, ClientEvent)
                    and e.name == "Event_RoomSay"
                    and not e.is_replay
                    and e.message.name == "chat_bob"
                ),  # type: ignore[attr-defined]
                what="bob's line",
            )
            assert isinstance(heard, ClientEvent) and not heard.is_own
            assert heard.message.message == "hello alice"  # type: ignore[attr-defined]
            own = await bob_events.wait_for(
                lambda e: isinstance(e, ClientEvent) and e.name == "Event_RoomSay" and e.is_own,
                what="own echo",
            )
            assert own.room_id == room_id  # type: ignore[union-attr]

            await alice.send_message("chat_bob", "psst")
            private = await bob_events.wait_for(
                lambda e: isinstance(e, ClientEvent) and e.name == "Event_UserMessage", what="private message"
            )
            assert private.message.sender_name == "chat_alice"  # type: ignore[union-attr]
            echo = await alice_events.wait_for(
                lambda e: isinstance(e, ClientEvent) and e.name == "Event_UserMessage", what="echo"
            )
            assert echo.is_own  # type: ignore[union-attr]

    run(scenario())


def _find_card(client: Client, game_id: int, player_id: int, zone: str, name: str) -> Any:
    mirror = client.games[game_id]
    player = mirror.players.get(player_id)
    if player is None or zone not in player.zones:
        return None
    return next((card for card in player.zones[zone].cards if card.name == name), None)


def test_game_flow(servatrice: ServatriceServer) -> None:
    """Create, join, decks, start, move a card to the opponent's table, counters, reveal to one player."""

    async def scenario() -> None:
        async with (
            await connect(servatrice.ws_url, "game_host") as host,
            await connect(servatrice.tcp_url, "game_guest") as guest,
        ):
            host_events, guest_events = Recorder(host), Recorder(guest)
            room_id = 0
            await host.join_room(room_id)
            await guest.join_room(room_id)
            game_id = await host.create_game(
                room_id, description="flow test", max_players=2, share_decklists=True, game_type_ids=[0]
            )
            host_game = host.games[game_id]
            assert host_game.local_player_id >= 0 and host_game.game_types == {0: "Auction"}
            guest_game = await guest.join_game(room_id, game_id)
            host_pid, guest_pid = host_game.local_player_id, guest_game.local_player_id
            await wait_until(lambda: guest_pid in host_game.players, what="host sees guest")
            assert host_game.players[guest_pid].name == "game_guest"

            for client in (host, guest):
                response = await client.select_deck(game_id, TEST_DECK)
                assert response.payload is not None  # Response_DeckDownload
            await wait_until(
                lambda: guest_game.players[host_pid].deck_list.startswith("<?xml"), what="shared decklist"
            )
            await wait_until(lambda: bool(host_game.players[guest_pid].deck_hash), what="guest deck hash")
            for client in (host, guest):
                await client.ready_start(game_id)
            await wait_until(lambda: host_game.started and guest_game.started, what="game start")
            assert host_game.active_player_id in (host_pid, guest_pid)
            assert host_game.players[host_pid].zones["deck"].card_count == 40

            # Draw a card, then drop it onto the guest's table: it gets a new id there.
            await host.game_command(game_id, commands.draw_cards(2))
            await wait_until(lambda: len(host_game.players[host_pid].zones["hand"].cards) == 2, what="draw")
            card = host_game.players[host_pid].zones["hand"].cards[0]
            await host.game_command(
                game_id,
                commands.move_card(
                    "hand", [card.id], target_player_id=guest_pid, target_zone="table", x=0, y=0
                ),
            )
            await wait_until(
                lambda: _find_card(guest, game_id, guest_pid, "table", card.name), what="card moved"
            )
            moved = _find_card(guest, game_id, guest_pid, "table", card.name)
            assert _find_card(host, game_id, guest_pid, "table", card.name).id == moved.id
            assert len(host_game.players[host_pid].zones["hand"].cards) == 1
            # Into another player's hand is not allowed for a non-judge.
            other = host_game.players[host_pid].zones["hand"].cards[0]
            with pytest.raises(ContextError):
                await host.game_command(
                    game_id,
                    commands.move_card("hand", [other.id], target_player_id=guest_pid, target_zone="hand"),
                )

            # Counters on our own player.
            await host.game_command(game_id, commands.create_counter("gold", value=3))
            await wait_until(lambda: guest_game.players[host_pid].counter_value("gold") == 3, what="counter")
            gold_id = next(c.id for c in host_game.players[host_pid].counters.values() if c.name == "gold")
            await host.game_command(game_id, commands.inc_counter(gold_id, 2))
            await wait_until(lambda: guest_game.players[host_pid].counter_value("gold") == 5, what="inc")
            assert host_game.players[host_pid].counter_value("gold") == 5

            # Reveal our remaining hand card to the guest only.
            await host.game_command(game_id, commands.reveal_cards("hand", [other.id], player_id=guest_pid))
            reveal = await guest_events.wait_for(
                lambda e: isinstance(e, ClientEvent) and e.name == "Event_RevealCards", what="reveal"
            )
            assert [c.name for c in reveal.message.cards] == [other.name]  # type: ignore[union-attr]
            assert guest_game.revealed and guest_game.revealed[-1][2][0].name == other.name

            # Game chat: own echo marked, ping noise filtered.
            await guest.game_say(game_id, "gg")
            said = await host_events.wait_for(
                lambda e: isinstance(e, ClientEvent) and e.name == "Event_GameSay", what="game say"
            )
            assert said.player_id == guest_pid and not said.is_own  # type: ignore[union-attr]
            assert not any(
                isinstance(e, ClientEvent) and e.context_name == "Context_PingChanged"
                for e in host_events.events
            )
            await guest.leave_game(game_id)
            assert game_id not in guest.games
            await wait_until(lambda: guest_pid not in host_game.players, what="guest left")

    run(scenario(), timeout=90)


def test_reconnect_after_server_restart(servatrice_factory: ServatriceFactory) -> None:
    server = servatrice_factory.start()

    async def scenario() -> None:
        client = await connect(
            server.ws_url,
            "phoenix",
            keepalive=0.5,
            dead_after=5,
            reconnect_delays=lambda: backoff(initial_delay=0.2, max_delay=1.0, jitter=0.0),
        )
        async with client:
            events = Recorder(client)
            await client.join_room(1)
            game_id = await client.create_game(1, description="doomed", max_players=2)
            pending = asyncio.ensure_future(client.call(commands.ping()))
            server.restart()  # blocks the loop briefly; start() must run in a long-lived thread (see harness)
            back = await events.wait_for(lambda e: isinstance(e, Reconnected), timeout=30, what="reconnect")
            assert isinstance(back, Reconnected)
            assert back.rooms == (1,) and back.lost_games == (game_id,)
            assert game_id not in client.games
            assert client.joined_rooms == {1}
            await client.room_say(1, "back again")
            # The ping sent before the restart either completed or failed cleanly.
            try:
                await pending
            except Exception as exc:
                assert type(exc).__name__ == "ConnectionLost"

    run(scenario(), timeout=60)


def test_a_name_in_use_is_waited_for_and_taken_when_free(servatrice: ServatriceServer) -> None:
    """Servatrice offers ``NAME_1`` to an unregistered login whose name is in use; the client logs out of
    it and tries again until the name is free (within ``name_wait``)."""

    async def scenario() -> None:
        squatter = await connect(servatrice.tcp_url, "held_name", reconnect=False)
        quick = lambda: backoff(initial_delay=0.2, max_delay=0.5, jitter=0.0)  # noqa: E731
        waiting = asyncio.ensure_future(
            connect(servatrice.tcp_url, "held_name", name_wait=30, reconnect_delays=quick)
        )
        await asyncio.sleep(1.5)  # several offers of held_name_N refused meanwhile
        assert not waiting.done()
        await squatter.close()
        async with await asyncio.wait_for(waiting, 20) as client:
            assert client.user_name == "held_name" and not client.name_taken

        # A name that stays in use is taken as offered once name_wait has run out.
        async with (
            await connect(servatrice.tcp_url, "kept_name") as holder,
            await connect(servatrice.tcp_url, "kept_name", name_wait=1.0, reconnect_delays=quick) as late,
        ):
            assert holder.user_name == "kept_name"
            assert late.user_name.startswith("kept_name_") and late.name_taken

    run(scenario(), timeout=60)


def test_after_a_silent_drop_the_client_waits_for_its_old_session_to_go(
    servatrice_factory: ServatriceFactory,
) -> None:
    """The network goes silent under an unregistered client: it gives the connection up and reconnects
    while the server still holds its old session (until its inactivity timeout). The client waits for
    that session to go and comes back under its own name, not as ``NAME_1`` beside its own ghost."""
    from loopback_gate import Gate

    server = servatrice_factory.start(ServatriceConfig(max_player_inactivity_time=4))

    async def scenario() -> None:
        gate = Gate(server.tcp_port)
        await gate.start()
        client = await connect(
            f"tcp://127.0.0.1:{gate.port}",
            "ghost_owner",
            keepalive=0.3,
            dead_after=1.5,
            reconnect_delays=lambda: backoff(initial_delay=0.3, max_delay=1.0, jitter=0.0),
        )
        try:
            events = Recorder(client)
            await client.join_room(1)
            gate.freeze()
            back = await events.wait_for(lambda e: isinstance(e, Reconnected), timeout=40, what="reconnect")
            assert isinstance(back, Reconnected)
            assert back.user_name == client.user_name == "ghost_owner"
            assert back.rooms == (1,)
        finally:
            await client.close()
            await gate.close()

    run(scenario(), timeout=60)


async def host_of_one_game(
    server: ServatriceServer, name: str, description: str, *, reconnect_after: float
) -> tuple[Client, Recorder, int]:
    """A client in room 1 with a game of its own, reconnecting ``reconnect_after`` seconds after a drop."""
    client = await connect(
        server.ws_url,
        name,
        reconnect_delays=lambda: backoff(initial_delay=reconnect_after, max_delay=3.0, jitter=0.0),
    )
    events = Recorder(client)
    await client.join_room(1)
    return client, events, await client.create_game(1, description=description, max_players=3)


def test_after_a_server_restart_a_strangers_game_under_our_old_number_is_not_joined(
    servatrice_factory: ServatriceFactory,
) -> None:
    """A restarted server numbers games from 1 again: a player who is back first opens game 1, and our
    client, reconnecting later, must not sit down in it as if it were the game it had."""
    server = servatrice_factory.start()

    async def scenario() -> None:
        client, events, ours = await host_of_one_game(server, "slow_back", "our table", reconnect_after=3.0)
        async with client:
            server.restart()
            async with await connect(server.ws_url, "quick_back") as stranger:
                await stranger.join_room(1)
                theirs = await stranger.create_game(1, description="their table", max_players=3)
                assert theirs == ours, "a server without a database numbers its games from 1 again"
                back = await events.wait_for(lambda e: isinstance(e, Reconnected), timeout=30, what="back")
                assert isinstance(back, Reconnected)
                assert back.lost_games == (ours,) and back.games == ()
                assert ours not in client.games
                await asyncio.sleep(0.5)  # a join would show in the stranger's game by now
                assert [p.name for p in stranger.games[theirs].players.values()] == ["quick_back"]

    run(scenario(), timeout=60)


def test_a_game_of_ours_opened_under_the_old_number_while_rejoining_keeps_its_seat(
    servatrice_factory: ServatriceFactory,
) -> None:
    """The old game is reported lost; the new game opened meanwhile under its number is not dropped."""
    server = servatrice_factory.start()

    async def scenario() -> None:
        client, events, old = await host_of_one_game(
            server, "quick_host", "before the restart", reconnect_after=0.2
        )
        async with client:
            join_room = client.join_room

            async def join_room_then_open_a_game(room_id: int) -> Any:
                info = await join_room(room_id)
                client.join_room = join_room  # type: ignore[method-assign]
                await client.create_game(room_id, description="after the restart", max_players=2)
                return info

            client.join_room = join_room_then_open_a_game  # type: ignore[method-assign]
            server.restart()
            back = await events.wait_for(lambda e: isinstance(e, Reconnected), timeout=30, what="back")
            assert isinstance(back, Reconnected)
            assert back.lost_games == (old,)
            assert client.games[old].description == "after the restart"
            await client.game_say(old, "still seated")  # the new game's seat is ours

    run(scenario(), timeout=60)


def test_reconnect_rejoins_game_after_connection_drop(servatrice: ServatriceServer) -> None:
    async def scenario() -> None:
        async with (
            await connect(servatrice.tcp_url, "drop_host") as host,
            await connect(
                servatrice.tcp_url,
                "drop_guest",
                reconnect_delays=lambda: backoff(initial_delay=0.1, max_delay=0.5, jitter=0.0),
            ) as guest,
        ):
            guest_events = Recorder(guest)
            await host.join_room(0)
            await guest.join_room(0)
            game_id = await host.create_game(0, description="drop test", max_players=3)
            await guest.join_game(0, game_id, spectator=True)
            # Cut the guest's socket under its feet.
            assert guest._transport is not None
            await guest._transport.close()
            back = await guest_events.wait_for(
                lambda e: isinstance(e, Reconnected), timeout=20, what="reconnect"
            )
            assert back.games == (game_id,) and back.lost_games == ()  # type: ignore[union-attr]
            mirror = guest.games[game_id]
            assert mirror.spectator
            await wait_until(lambda: host.games[game_id].players.get(mirror.local_player_id) is not None)

    run(scenario())


def _ok(results: list[Any]) -> int:
    return sum(1 for r in results if not isinstance(r, BaseException))


def test_flood_burst_paced_by_scheduler(servatrice_factory: ServatriceFactory) -> None:
    """30 chat lines and 60 counted game commands: flooded without pacing, all delivered with it.

    The server uses Servatrice's default budgets (10 messages / 1000 characters / 20 game commands per
    window) over a 2 s window so that the test stays short; the client is told the same window.
    """
    limits = ServerFloodLimits(2, 10, 1000, 2, 20)
    server = servatrice_factory.start(ServatriceConfig(flood=limits))
    client_limits = FloodLimits(chat_interval=2, command_interval=2)

    async def burst(client: Client, room_id: int, game_id: int) -> list[Any]:
        chat = [client.room_say(room_id, f"line {i:02d} " + "x" * 20) for i in range(30)]
        rolls = [client.game_command(game_id, commands.roll_die(6)) for _ in range(60)]
        return list(await asyncio.gather(*chat, *rolls, return_exceptions=True))

    async def scenario() -> None:
        async with (
            await connect(server.ws_url, "flooder", flood_limits=FloodLimits.unlimited()) as reckless,
            await connect(server.ws_url, "paced", flood_limits=client_limits) as paced,
            await connect(server.ws_url, "listener") as listener,
        ):
            heard = Recorder(listener)
            await listener.join_room(0)
            for client in (reckless, paced):
                await client.join_room(0)
            reckless_game = await reckless.create_game(0, description="flood", max_players=2)
            results = await burst(reckless, 0, reckless_game)
            assert any(isinstance(r, ChatFlood) for r in results), "the burst should trip the server's limits"

            paced_game = await paced.create_game(0, description="paced", max_players=2)
            paced_events = Recorder(paced)
            results = await burst(paced, 0, paced_game)
            failures = [r for r in results if isinstance(r, BaseException)]
            assert failures == []
            await wait_until(
                lambda: len([e for e in paced_events.named("Event_RollDie")]) == 60, what="all 60 rolls"
            )
            await heard.wait_for(
                lambda e: (
                    isinstance(e, ClientEvent)
                    and e.name == "Event_RoomSay"
                    and e.message.message.startswith("line 29")
                ),  # type: ignore[attr-defined]
                what="last paced line",
            )
            lines = [
                e.message.message
                for e in heard.named("Event_RoomSay")
                if e.message.name == "paced"  # type: ignore[attr-defined]
            ]
            assert [line[:7] for line in lines] == [f"line {i:02d}" for i in range(30)]

    run(scenario(), timeout=60)


async def solo_game(client: Client, description: str) -> tuple[int, Any]:
    """Join room 0, create a one-seat game, load the test deck and start it: its id and mirror."""
    await client.join_room(0)
    game_id = await client.create_game(0, description=description, max_players=1)
    await client.select_deck(game_id, TEST_DECK)
    await client.ready_start(game_id)
    mirror = client.games[game_id]
    await wait_until(lambda: mirror.started, what="solo game start")
    return game_id, mirror


def test_default_limits_never_flood(servatrice_strict: ServatriceServer) -> None:
    """With Servatrice's shipped limits and our default FloodLimits, a burst is paced, never refused."""

    async def scenario() -> None:
        async with await connect(servatrice_strict.tcp_url, "polite") as client:
            game_id, mirror = await solo_game(client, "polite")
            chat = [client.room_say(0, f"polite {i}") for i in range(12)]
            says = [client.game_say(game_id, f"say {i}") for i in range(3)]
            rolls = [client.game_command(game_id, commands.roll_die(20)) for _ in range(16)]
            free = [client.game_command(game_id, commands.inc_counter(0, 1)) for _ in range(30)]
            results = await asyncio.gather(*chat, *says, *rolls, *free, return_exceptions=True)
            assert [r for r in results if isinstance(r, BaseException)] == []
            await wait_until(lambda: mirror.players[mirror.local_player_id].counter_value("life") == 50)

    run(scenario(), timeout=60)


def test_on_a_server_stricter_than_the_shipped_game_command_budget_nothing_is_lost(
    servatrice_factory: ServatriceFactory, caplog: Any
) -> None:
    """An administrator lowered the game-command budget to 4 per window; the client assumes the shipped
    20. Once the server refuses a counted command, it refuses every game command (even the free ones:
    a card move, a counter step, a note) until its window empties. The client lowers its pace, says so
    in the log, and sends each refused command again, in the order they were given: every die is rolled
    and every counter step lands, none lost and none out of order."""
    server = servatrice_factory.start(ServatriceConfig(flood=ServerFloodLimits(2, 10, 1000, 2, 4)))

    async def scenario() -> tuple[list[str], int, int]:
        async with await connect(
            server.tcp_url, "strict_cmds", flood_limits=FloodLimits(chat_interval=2, command_interval=2)
        ) as client:
            game_id, mirror = await solo_game(client, "strict")
            life = mirror.players[mirror.local_player_id].counter_value("life")
            events = Recorder(client)
            given = []
            for _ in range(8):  # a counted command, then a free one, eight times
                given.append(client.game_command(game_id, commands.roll_die(6)))
                given.append(client.game_command(game_id, commands.inc_counter(0, 1)))
            results = await asyncio.gather(*given, return_exceptions=True)
            failures = [r for r in results if isinstance(r, BaseException)]
            assert failures == []
            await wait_until(
                lambda: mirror.players[mirror.local_player_id].counter_value("life") == life + 8,
                what="eight counter steps",
            )
            kinds = [
                e.name
                for e in events.events
                if getattr(e, "name", "") in ("Event_RollDie", "Event_SetCounter")
            ]
            return kinds, client.flood.limits.game_commands, life

    with caplog.at_level(logging.WARNING):
        kinds, limit, _ = run(scenario(), timeout=90)
    assert kinds == ["Event_RollDie", "Event_SetCounter"] * 8
    assert limit < 20
    assert any("refused" in r.getMessage() and "as flood" in r.getMessage() for r in caplog.records)


def test_idle_refresh_is_harmless(servatrice_factory: ServatriceFactory) -> None:
    """The idle-timer refresh (an empty room command) is answered RespInvalidCommand and changes nothing.

    Servatrice without a database gives users an empty ``privlevel``, which exempts them from the idle
    kick, so the kick itself can only be observed on an sql-auth server; here we check the refresh is
    sent periodically and is harmless.
    """
    server = servatrice_factory.start(ServatriceConfig(idle_client_timeout=4))

    async def scenario() -> None:
        async with await connect(server.tcp_url, "busy_bot", keepalive=0.2, idle_refresh=0.5) as busy:
            events = Recorder(busy)
            await busy.join_room(0)
            with pytest.raises(InvalidCommand):
                await busy.call(pb.RoomCommand(), room_id=0)
            await asyncio.sleep(2.0)  # several refreshes go out
            assert busy.connected and busy.joined_rooms == {0}
            assert not any(isinstance(e, Disconnected) for e in events.events)
            await busy.room_say(0, "still here")

    run(scenario(), timeout=30)


def test_events_iterator(servatrice: ServatriceServer) -> None:
    async def scenario() -> None:
        async with (
            await connect(servatrice.ws_url, "iter_a") as a,
            await connect(servatrice.ws_url, "iter_b") as b,
        ):
            await a.join_room(1)
            await b.join_room(1)

            async def first_line() -> ClientEvent:
                async for event in b.events():
                    if (
                        isinstance(event, ClientEvent)
                        and event.name == "Event_RoomSay"
                        and not event.is_replay
                    ):
                        return event
                raise AssertionError("iterator ended")

            waiter = asyncio.ensure_future(first_line())
            await asyncio.sleep(0.1)
            await a.room_say(1, "iterated")
            event = await asyncio.wait_for(waiter, 10)
            assert event.message.message == "iterated"  # type: ignore[attr-defined]

    run(scenario())


def test_judge_spectator_acts_for_a_player(servatrice: ServatriceServer) -> None:
    """A bot created as judge + spectator runs commands as a player through Command_Judge."""

    async def scenario() -> None:
        async with (
            await connect(servatrice.ws_url, "judge_bot") as judge,
            await connect(servatrice.tcp_url, "judged_player") as player,
        ):
            player_events = Recorder(player)
            await judge.join_room(0)
            await player.join_room(0)
            game_id = await judge.create_game(
                0, description="judged", max_players=1, join_as_judge=True, join_as_spectator=True
            )
            judge_game = judge.games[game_id]
            assert judge_game.judge and judge_game.spectator
            player_game = await player.join_game(0, game_id)
            await player.select_deck(game_id, TEST_DECK)
            await player.ready_start(game_id)
            await wait_until(lambda: judge_game.started and player_game.started, what="start")
            pid = player_game.local_player_id
            await judge.judge_commands(
                game_id, pid, [commands.create_counter("poison", value=2), commands.draw_cards(3)]
            )
            forced = await player_events.wait_for(
                lambda e: isinstance(e, ClientEvent) and e.name == "Event_CreateCounter",
                what="judged counter",
            )
            assert forced.forced_by_judge is not None  # type: ignore[union-attr]
            await wait_until(lambda: player_game.players[pid].counter_value("poison") == 2, what="poison")
            await wait_until(lambda: player_game.players[pid].zones["hand"].card_count == 3, what="draw")
            await wait_until(lambda: judge_game.players[pid].zones["hand"].card_count == 3, what="judge view")

    run(scenario())


def test_the_client_knows_who_is_in_its_rooms(servatrice: ServatriceServer) -> None:
    """``room_users``: the join's user list, then the room's join and leave events (a league lobby keeps
    only members still in the room when the referee comes back)."""

    async def scenario() -> None:
        async with await connect(servatrice.ws_url, "rooms_watcher") as watcher:
            room_id = (await watcher.list_rooms())[0].room_id
            async with await connect(servatrice.ws_url, "rooms_early") as early:
                await early.join_room(room_id)
                await watcher.join_room(room_id)
                assert watcher.room_users[room_id] == {"rooms_watcher", "rooms_early"}
                async with await connect(servatrice.ws_url, "rooms_late") as late:
                    await late.join_room(room_id)
                    await wait_until(lambda: "rooms_late" in watcher.room_users[room_id])
                await wait_until(lambda: "rooms_late" not in watcher.room_users[room_id])
            await wait_until(lambda: watcher.room_users[room_id] == {"rooms_watcher"})
            await watcher.leave_room(room_id)
            assert room_id not in watcher.room_users

    run(scenario())


def test_caught_up_returns_after_what_others_said_before_it_was_handed_out(
    servatrice: ServatriceServer,
) -> None:
    """A bid timer about to act for a silent bidder asks ``caught_up`` first: lines another player said before
    it are heard before it returns, however slow the listeners (here each line takes 0.3 s to handle), so a
    bid that arrived in time is never overtaken by the timer's pass."""

    async def scenario() -> None:
        async with (
            await connect(servatrice.tcp_url, "caught_referee") as referee,
            await connect(servatrice.ws_url, "caught_bidder") as bidder,
        ):
            room_id = await referee.room_id_by_name("Second room")
            await referee.join_room(room_id)
            await bidder.join_room(room_id)
            handled: list[str] = []

            async def slow_listener(event: Any) -> None:
                if isinstance(event, ClientEvent) and event.name == "Event_RoomSay" and not event.is_replay:
                    await asyncio.sleep(0.3)
                    handled.append(str(event.message.message))  # type: ignore[attr-defined]

            referee.add_listener(slow_listener)
            for amount in (2, 3, 4):
                await bidder.room_say(room_id, f"!bid {amount}")
            await bidder.ping()  # the lines are at the server (and on their way to the referee)
            await referee.caught_up(timeout=10)
            assert handled == ["!bid 2", "!bid 3", "!bid 4"]  # not only read: handled

    run(scenario())
