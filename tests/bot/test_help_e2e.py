"""What players are told when they follow the help literally, against a real Servatrice.

Seen by a tester who did exactly what the README, ``!help`` and the refusals said, with the Auction and
league formats installed: ``!cancel`` (a documented room command) in Auction game chat got "did you mean
!concede?", and ``!concede`` concedes at once; ``!help bid`` in game chat got "unknown command !help; did you
mean !help?"; a seated player's private ``!bid 3`` got "unknown command !bid" instead of where it goes; a
private ``!games`` suggested a hidden league alias; ``!<format> rules`` as the room's help prints it got
nothing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from bot_players import start_room_bot
from servatrice import ServatriceServer
from test_room_commands import OPENED, arrive, run

from cockatrice_ext.bot.runtime import Bot


async def start_bot(server: ServatriceServer, tmp_path: Path, user: str) -> Bot:
    """A referee as the README starts it with a league format beside Auction (private commands exist)."""
    return await start_room_bot(server, tmp_path, user, formats=("auction", "market"))


@pytest.mark.servatrice
def test_help_followed_literally_in_game_privately_and_in_the_room(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    async def scenario() -> dict[str, Any]:
        bot = await start_bot(servatrice, tmp_path, "referee_hl1")
        room_id, (ann, bo) = await arrive(servatrice, "ann_hl1", "bo_hl1")
        try:
            since = len(ann.room)
            await ann.client.room_say(room_id, "!<format> rules")
            rules = await ann.until("referee_hl1", r"means one of", since)
            await ann.client.room_say(room_id, "!auction new 2")
            game_id = int(OPENED.search(await ann.until("referee_hl1", OPENED.pattern, since))[1])  # type: ignore[index]
            await ann.sit(room_id, game_id)
            await bo.sit(room_id, game_id)
            await bo.wait_line(lambda t: "Turn order" in t, timeout=30)
            mark = ann.mark()
            asked = [
                "!cancel",
                "!help bid",
                "!help !stop",
                "!help lot",
                "!help top",
                "!help cancel",
                "!help me",
            ]
            for line in asked:
                await ann.say(game_id, line)
            await ann.wait_line(lambda t: t.startswith("Commands:"), since=mark, timeout=30)
            game = [text for _, text in ann.heard[mark:]]
            referee = bot.client.user_name
            for line in ("!bid 3", "!games", "!help bid", "!help games", "!help me"):
                await bo.client.send_message(referee, line)
                await asyncio.sleep(0)
            try:
                await bo.wait_private(lambda t: t.count("Game commands go in") == 2, timeout=30)
            except TimeoutError:
                raise AssertionError(f"no answer to !help me; heard privately: {bo.private}") from None
            private = [line for sender, text in bo.private if sender == referee for line in text.split(" | ")]
            return {"rules": rules, "game": game, "private": private, "game_id": game_id}
        finally:
            for player in (ann, bo):
                await player.close()
            await bot.close()

    seen = run(scenario())
    game_id = seen["game_id"]
    assert seen["rules"] == (
        "ann_hl1: !<format> rules means one of: !auction rules, !market rules (each lists its options)."
    )
    game = " | ".join(seen["game"])  # the referee merges lines waiting together with " | "
    assert "did you mean" not in game and "conceded" not in game, game
    assert "ann_hl1: !cancel is a room command: say it in the room." in game
    assert "!bid AMOUNT: Bid AMOUNT gold on the card up for auction." in game
    assert (
        "!stop: Vote to end this turn's auction step while its card is unbid (everyone must agree)." in game
    )
    assert "!lot COUNT: Put the top COUNT cards of the block up for auction together" in game
    assert "!top: Put the card you gave back on top of the block." in game
    assert "!cancel or !cancel 12. (!cancel is a room command: say it in the room)" in game
    assert "Commands: !auction | !bid AMOUNT" in game and game.endswith("!help NAME: what one does")
    private = seen["private"]
    text = " | ".join(private)
    assert (
        f"Game commands go in the game's own chat (#{game_id}), not by private message; !help there."
        in private
    )
    assert "bo_hl1: !games is a room command: say it in the room." in private, text
    assert (
        f"!bid AMOUNT: Bid AMOUNT gold on the card up for auction. (say it in game #{game_id}'s chat)"
        in private
    )
    assert any(t.startswith("!games: List the games") and "room command" in t for t in private), text
    assert "augments" not in text and "unknown command !bid" not in text, text
    assert (
        private.count(
            f"Game commands go in the game's own chat (#{game_id}), not by private message; !help there."
        )
        == 2
    )
