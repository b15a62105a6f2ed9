"""Servatrice restarted with another room list under a running bot: "Bot room" has another number now.

An administrator added a room before "Bot room", so the server numbers it 1 where it was 0 (and the new
room is 0). The bot keeps everything by room id (its rooms, chat destinations, referees); its client goes on
calling "Bot room" by the id it had, so the bot answers ``!games`` in "Bot room" and says nothing in the
other rooms, the one that took the old number included; a game lost in the restart, whose record names the
room it was played in by that id, is resumed there with ``!resume``.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import RoomConfig, ServatriceConfig, ServatriceFactory
from test_auction_e2e import BLOCK, open_game, run, start_bot

from cockatrice_ext.client import Reconnected

pytestmark = pytest.mark.servatrice

BOT_ROOM = RoomConfig("Bot room", game_types=("Auction", "Vortex"))
SECOND_ROOM = RoomConfig("Second room")
TRADING_ROOM = RoomConfig("Trading room")


async def player_in(url: str, name: str, room: str) -> tuple[Player, int]:
    """A player connected to ``url`` and sitting in ``room``; its id of the room (the server's number)."""
    player = await Player.connect(url, name)
    room_id = await player.client.room_id_by_name(room)
    await player.client.join_room(room_id)
    return player, room_id


def test_a_bot_whose_room_is_renumbered_by_a_restart_still_answers_there(
    servatrice_factory: ServatriceFactory, tmp_path: Path
) -> None:
    server = servatrice_factory.start(ServatriceConfig(rooms=(BOT_ROOM, SECOND_ROOM)))
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)

    async def scenario() -> None:
        bot = await start_bot(server.ws_url, tmp_path / "journal.sqlite3", block, reconnect=True)
        players: list[Player] = []
        try:
            alice, room_id = await player_in(server.ws_url, "alice_rn", "Bot room")
            bob, _ = await player_in(server.ws_url, "bob_rn", "Bot room")
            players += [alice, bob]
            assert room_id == 0
            first = await open_game(bot, alice, room_id)
            for player in (alice, bob):
                await player.sit(room_id, first)
            await wait_until(lambda: bot.games[first].table is not None, what="the auction under way")

            back: list[Reconnected] = []

            async def on_back(event: object) -> None:
                if isinstance(event, Reconnected):
                    back.append(event)

            bot.client.add_listener(on_back)
            server.config = dataclasses.replace(server.config, rooms=(TRADING_ROOM, BOT_ROOM, SECOND_ROOM))
            server.restart()  # every session and game is gone; "Bot room" is number 1 now
            await wait_until(lambda: bool(back), timeout=60, what="the bot back in its room")
            assert back[0].renumbered == ((0, 1),)  # the restart did renumber the bot's room
            assert back[0].lost_games == (first,)
            for player in (alice, bob):  # their sessions ended with the server
                await player.close()
            alice, room_id = await player_in(server.ws_url, "alice_rn", "Bot room")
            bob, _ = await player_in(server.ws_url, "bob_rn", "Bot room")
            trader, trading_id = await player_in(server.ws_url, "trader_rn", "Trading room")
            second, second_id = await player_in(server.ws_url, "second_rn", "Second room")
            players += [alice, bob, trader, second]
            assert (room_id, trading_id, second_id) == (1, 0, 2)

            mark = alice.mark()
            await alice.client.room_say(room_id, "!games")
            await bot_line(alice, rf"Lost in a restart \(say !resume GAME\): #{first}\b", mark, timeout=30)
            # The lost game's record names the room it was played in: "Bot room", whatever its number.
            mark = alice.mark()
            await alice.client.room_say(room_id, f"!resume {first}")
            line = await bot_line(alice, rf"Game #{first}\S* continues as game #\d+", mark, timeout=30)
            again = int(re.search(r"as game #(\d+)", line).group(1))  # type: ignore[union-attr]
            for player in (alice, bob):  # the new game is in "Bot room" (joined by the server's number)
                await player.sit(room_id, again)
            await wait_until(lambda: bot.games[again].table is not None, what="the resumed game under way")
            for watcher in (trader, second):  # everything the server had for them before now, heard
                await watcher.client.caught_up()
                assert watcher.heard == [], watcher.heard
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario(), timeout=150)
