"""Small runtime defects testers found: what the log and the operator's line say, and a game's settings.

* A banned referee's last line doubled its words: "the server banned RefereeBot (banned (BANNED: Spamming the
  main room))"; the ban's end, when the server sends one, is said once.
* A lost seat was logged "(the room is told)" when the room's line was refused (the referee was not in the
  room: ``RespNotInRoom``).
* League games share both players' deck lists with every spectator: ``open_game`` can keep spectators out.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from bot_players import room_players, start_room_bot
from servatrice import ServatriceServer
from test_game_departures_e2e import started_game
from test_room_commands import run

from cockatrice_ext.bot.runtime import ended_sentence
from cockatrice_ext.client.errors import ClientError


def test_a_ban_s_sentence_says_the_server_s_reason_once() -> None:
    said = "banned (BANNED: Spamming the main room)"
    assert ended_sentence("BANNED", "RefereeBot", said) == (
        "the server banned RefereeBot (Spamming the main room); this one stops"
    )
    assert ended_sentence("BANNED", "RefereeBot", said, until="2026-11-28 20:49 UTC") == (
        "the server banned RefereeBot until 2026-11-28 20:49 UTC (Spamming the main room); this one stops"
    )
    with_end = "banned until 2026-11-28 20:49 UTC (BANNED: Spamming the main room)"
    assert ended_sentence("BANNED", "RefereeBot", with_end, until="2026-11-28 20:49 UTC", helper=True) == (
        "the server banned RefereeBot until 2026-11-28 20:49 UTC (Spamming the main room); this helper"
        " session stops, the main session goes on"
    )
    assert ended_sentence("BANNED", "RefereeBot", "BANNED") == "the server banned RefereeBot; this one stops"
    assert ended_sentence("BANNED", "RefereeBot", "banned") == "the server banned RefereeBot; this one stops"
    assert ended_sentence("USERNAMEINVALID", "x", "Bad name") == (
        "the server no longer accepts the user name x (Bad name); this one stops"
    )


@pytest.mark.servatrice
def test_a_lost_seat_whose_room_is_not_joined_is_not_logged_as_told(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The referee is out of the game's room when its seat there is found lost: the log says the room is not
    told (and why), never "(the room is told)"."""
    caplog.set_level(logging.INFO, logger="cockatrice_ext")

    async def scenario() -> None:
        bot = await start_room_bot(servatrice, tmp_path, "referee_rs1")
        room_id, (ann, ben) = await room_players(servatrice, "ann_rs1", "ben_rs1")
        try:
            game_id, _ = await started_game(bot, room_id, ann, ben)
            await bot.client.leave_room(room_id)
            await bot._retire_lost(game_id)  # as after a reconnect that found the seat gone
            await bot.chat.flush()
        finally:
            for player in (ann, ben):
                await player.close()
            await bot.close()

    run(scenario())
    lost = [r.getMessage() for r in caplog.records if "lost the seat" in r.getMessage()]
    assert lost and not any("(the room is told)" in message for message in lost), lost
    assert any("not told" in message for message in lost), lost


@pytest.mark.servatrice
def test_a_game_opened_without_spectators_refuses_them(servatrice: ServatriceServer, tmp_path: Path) -> None:
    """``open_game(spectators_allowed=False)``: the server refuses a spectator; a player still sits down.
    The default still lets spectators watch."""

    async def scenario() -> None:
        bot = await start_room_bot(servatrice, tmp_path, "referee_rs2")
        room_id, (ann, cat) = await room_players(servatrice, "ann_rs2", "cat_rs2")
        try:
            closed = await bot.open_game(
                room_id, description="league game", seats=2, type_hint="auction", spectators_allowed=False
            )
            with pytest.raises(ClientError):
                await cat.client.join_game(room_id, closed, spectator=True)
            await ann.client.join_game(room_id, closed)
            open_ = await bot.open_game(room_id, description="open game", seats=2, type_hint="auction")
            await cat.client.join_game(room_id, open_, spectator=True)
        finally:
            for player in (ann, cat):
                await player.close()
            await bot.close()

    run(scenario())


def test_a_refusal_after_a_reconnect_stops_the_bot_with_the_first_login_s_sentence() -> None:
    """The client's own final stops (a changed password, a room gone) end the bot with the sentence a first
    login would have said, not "closed for good"."""
    import asyncio
    import types

    from cockatrice_ext.bot.runtime import Bot
    from cockatrice_ext.client import LOGIN_REFUSED, Disconnected
    from cockatrice_ext.client.errors import LoginFailed
    from cockatrice_ext.protocol import messages as pb

    bot = object.__new__(Bot)
    bot.client = types.SimpleNamespace(user_name="RefereeBot")  # type: ignore[assignment]
    bot.main = None
    ended: list[str] = []
    bot.end = ended.append  # type: ignore[method-assign]
    refused = LoginFailed(pb.Response.RespWrongPassword, user="RefereeBot")
    event = Disconnected(f"login refused: {refused}", False, final=LOGIN_REFUSED, error=refused)
    asyncio.run(bot._closed_for_good(event))
    (sentence,) = ended
    assert sentence.startswith("after a reconnect the server refused to log RefereeBot in (")
    assert str(refused) in sentence and sentence.endswith("; this one stops")
