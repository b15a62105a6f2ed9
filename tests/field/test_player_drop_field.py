"""An unregistered player's dropped connection in the field: the game pauses, it does not end.

Servatrice keeps a registered player's seat when the connection drops; an unregistered player's seat goes at
once (``Event_Leave``, reason ``USER_DISCONNECTED``) and a started game seats nobody new. Seen in the field
(auth none, the shipped settings): a phone's network blip cost the game: "Game over: adrop_one wins
(adrop_two left the game)", and the player back a few seconds later could neither sit again nor ``!resume``.
Now the game is paused: the table and the room hear how to go on, the player hears it privately when
back, and ``!resume GAME`` continues it in a new game with the same state.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from field_bot import ROOM, SHIPPED, Referee
from field_players import FieldPlayer, Protos
from scenario import arrive, close_all, open_game, run, seat
from servatrice import ServatriceFactory

pytestmark = pytest.mark.servatrice


def test_an_unregistered_players_dropped_connection_pauses_the_auction_and_resume_continues_it(
    protos: Protos, servatrice_factory: ServatriceFactory, referee: Callable[..., Referee]
) -> None:
    server = servatrice_factory.start(SHIPPED)
    bot = referee(server, "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, ["ann_pd", "ben_pd"])
        ann, ben = players
        try:
            game_id = await open_game(ann, room_id, "!auction new 2", "Auction Magic game")
            await seat(players, room_id, game_id)
            await ann.line(r"Turn order", timeout=30)
            mark = ann.mark()
            await ann.say(game_id, "!state")
            before = await ann.line(r"gold", since=mark, timeout=30)

            mark = ann.mark()
            await ben.close()  # the connection drops: the server takes the unregistered seat away
            paused = await ann.line(rf"ben_pd's connection dropped .*game #{game_id} is paused", since=mark)
            assert f"!resume {game_id}" in paused
            await ann.line(rf"game #{game_id} .*paused.*!resume {game_id}", since=mark, kind="Event_RoomSay")
            heard = " ".join(text for _, _, text in ann.chat(mark))
            assert "Game over" not in heard and "wins" not in heard, heard
            mark = ann.mark()
            await ann.room_say(room_id, "!games")
            await ann.line(rf"Paused, a player's connection dropped .*: #{game_id}\b", since=mark, timeout=30)

            ben = await FieldPlayer.connect(protos, server.tcp_port, "ben_pd")
            players.append(ben)
            await ben.join_room(ROOM)
            told = await ben.line(rf"say !resume {game_id}", timeout=30, kind="Event_UserMessage")
            assert "connection dropped" in told

            mark = ann.mark()
            await ben.room_say(room_id, f"!resume {game_id}")
            line = await ann.line(rf"Game #{game_id} continues as game #(\d+)", since=mark, timeout=30)
            new_id = int(re.search(r"as game #(\d+)", line).group(1))  # type: ignore[union-attr]
            assert new_id != game_id
            await seat([ann, ben], room_id, new_id)
            await ann.wait_started(new_id, timeout=30)
            mark = ann.mark()
            await ann.say(new_id, "!state")
            after = await ann.line(r"gold", since=mark, timeout=30)
            gold = re.compile(r"\w+_pd \d+")
            assert gold.findall(after) == gold.findall(before), (before, after)
        finally:
            await close_all(players)

    run(scenario(), bot, timeout=200)
    assert "Traceback" not in bot.log_text()
