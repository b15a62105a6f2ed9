"""Servatrice restarts under a running referee (shipped settings, auth none): a server without a database
numbers its games from 1 again, and a player who is back before the referee opens a game of their own that
gets the referee's old number. The referee, back later, must not sit down in it.

The referee reaches the server through a loopback gate the test holds shut while the player opens the
game, so the order is the one under test every time (players on Cockatrice's own protos).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest
from field_bot import BOT_NAME, ROOM, Referee
from field_players import FieldPlayer, Protos
from loopback_gate import Gate
from scenario import arrive, close_all, open_game, run, seat
from servatrice import ServatriceServer

pytestmark = pytest.mark.servatrice


def test_after_a_server_restart_the_referee_leaves_a_players_game_under_its_old_number_alone(
    protos: Protos, shipped_server: ServatriceServer, tmp_path: Path
) -> None:
    """amy and ben play an auction; Servatrice restarts. amy is back first and opens her own game, which the
    server numbers as the auction was. The referee, back after her, tells the room it lost the auction
    (``!resume``), does not join amy's game, and continues the auction in a new game when asked."""
    gate = Gate(shipped_server.tcp_port)
    bot = Referee(shipped_server, tmp_path, verbose=True)

    async def scenario() -> None:
        await gate.start()
        bot.server = SimpleNamespace(tcp_url=f"tcp://127.0.0.1:{gate.port}")  # type: ignore[assignment]
        bot.start()
        room_id, players = await arrive(protos, shipped_server, ["amy_rs", "ben_rs"])
        try:
            auction = await open_game(players[0], room_id, "!auction new 2", "Auction Magic game")
            await seat(players, room_id, auction)
            await players[0].line(r"Turn order", timeout=30)

            gate.open = False  # the referee cannot get back until the gate opens
            shipped_server.restart()  # every session and game is gone
            amy = await FieldPlayer.connect(protos, shipped_server.tcp_port, "amy_rs")
            players.append(amy)
            room_id = await amy.join_room(ROOM)
            mark = amy.mark()
            await amy.room(room_id, "Command_CreateGame", description="amy's own table", max_players=2)
            joined = await amy.wait_for(lambda r: r.kind == "Event_GameJoined", since=mark)
            theirs = int(joined.body.game_info.game_id)
            assert theirs == auction, "a server without a database numbers its games from 1 again"

            gate.open = True
            lost = rf"lost its seat .*auction game #{auction} \(.*!resume {auction}\b"
            await amy.line(lost, since=mark, timeout=60)
            await asyncio.sleep(1.0)  # a join by the referee would have reached amy's table by now
            assert BOT_NAME not in amy.games[theirs].names.values()
            assert "its number now belongs to another game" in bot.log_text()

            mark = amy.mark()
            await amy.room_say(room_id, f"!resume {auction}")
            line = await amy.line(rf"Game #{auction} continues as game #(\d+)", since=mark, timeout=30)
            assert not line.endswith(f"as game #{theirs}") and f"as game #{theirs}:" not in line
        finally:
            await close_all(players)
            bot.stop()
            await gate.close()

    run(scenario(), bot, timeout=180)
    assert "Traceback" not in bot.log_text()
