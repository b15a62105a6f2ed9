"""Games opened on a player's request: the announcement says who asked, and ``!cancel`` takes a waiting game
back.

Seen in a soak test: two players asked at once and both read "Auction Magic game #N is open..." with no
name, so each could join the other's game; and a player whose game nobody joined was locked out for up to
five minutes ("your auction game #38 still waits...") with no way to take it back. Against a real Servatrice.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, room_players, start_room_bot, still_on_server, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.bot.runtime import Bot

OPENED = re.compile(r"(Auction Magic|Vortex|Magic Combat Rules) game #(\d+) is open for (\d) players")


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def start_bot(server: ServatriceServer, tmp_path: Path, user: str) -> Bot:
    return await start_room_bot(server, tmp_path, user, formats=("auction", "vortex", "combat"))


arrive = room_players


async def answer(player: Player, room_id: int, command: str, expected: str = "") -> str:
    """Say ``command`` in the room; the referee's answer addressed to ``player`` (or the line containing
    ``expected``)."""
    since = player.mark()
    await player.client.room_say(room_id, command)
    return await player.wait_line(
        lambda t: (expected in t) if expected else t.startswith(f"{player.name}: "), since=since, timeout=30
    )


@pytest.mark.servatrice
def test_players_asking_at_once_each_read_their_own_name_in_their_games_announcement(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """ann, bo and cy ask for an Auction, a Vortex and a Combat game in the same moment: every announcement
    names the player it was opened for (the room command's sender, as the server named them), so each finds
    their own game."""

    async def scenario() -> dict[str, tuple[str, int, str]]:
        bot = await start_bot(servatrice, tmp_path, "referee_gr1")
        room_id, players = await arrive(servatrice, "ann_gr1", "bo_gr1", "cy_gr1")
        commands = ["!auction new 2", "!vortex new 2", "!combat new"]
        try:
            since = players[0].mark()
            await asyncio.gather(
                *(p.client.room_say(room_id, c) for p, c in zip(players, commands, strict=True))
            )
            await wait_until(
                lambda: len([t for _, t in players[0].heard[since:] if OPENED.search(t)]) == 3,
                timeout=30,
                what="three games announced",
            )
            lines = [t for _, t in players[0].heard[since:] if OPENED.search(t)]
            found = {}
            for line in lines:
                match = OPENED.search(line)
                assert match is not None
                game_id = int(match.group(2))
                found[bot.opened[game_id].requester] = (match.group(1), game_id, line)
            return found
        finally:
            for player in players:
                await player.close()
            await bot.close()

    found = run(scenario())
    assert {name: title for name, (title, _, _) in found.items()} == {
        "ann_gr1": "Auction Magic",
        "bo_gr1": "Vortex",
        "cy_gr1": "Magic Combat Rules",
    }
    for name, (_, game_id, line) in found.items():
        assert f"game #{game_id} is open for 2 players, asked by {name}" in line, line
        others = {"ann_gr1", "bo_gr1", "cy_gr1"} - {name}
        assert not any(other in line for other in others), line


@pytest.mark.servatrice
def test_cancel_closes_ones_own_waiting_game_and_refuses_everything_else_with_a_reason(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """ann's waiting game holds her next request back, and the refusal points to !cancel. bo cannot cancel
    it (not his), nor anything (he has none). ann, sitting alone in it, cancels it: it closes as an unjoined
    game does (she is kicked, the server closes it), the room hears one line, and she may ask again. Her next
    game, once bo sits in it, or once it is under way, is refused with the reason. !help lists !cancel."""

    async def scenario() -> dict[str, Any]:
        bot = await start_bot(servatrice, tmp_path, "referee_gr2")
        room_id, (ann, bo) = await arrive(servatrice, "ann_gr2", "bo_gr2")
        seen: dict[str, Any] = {}
        try:
            seen["help"] = await answer(ann, room_id, "!help", "Room commands:")
            first = int(OPENED.search(await answer(ann, room_id, "!auction new 2", "is open"))[2])  # type: ignore[index]
            seen["again"] = await answer(ann, room_id, "!auction new 2")
            seen["bo_none"] = await answer(bo, room_id, "!cancel")
            seen["bo_hers"] = await answer(bo, room_id, f"!cancel #{first}")
            seen["bad"] = await answer(ann, room_id, "!cancel twelve")
            await ann.sit(room_id, first)  # her own game, alone: it still counts as unjoined
            await wait_until(lambda: bool(bot.games[first].humans()), what="ann seated")
            mark = ann.mark()
            closed = f"game #{first} closed: ann_gr2 cancelled it."
            await ann.client.room_say(room_id, "!cancel")
            await ann.wait_line(lambda t: t == closed, since=mark, timeout=30)
            seen["closed_once"] = [t for _, t in ann.heard[mark:]].count(closed)
            seen["first_gone"] = first not in bot.games and first not in bot.opened
            seen["first_on_server"] = await still_on_server(bo, room_id, first)
            second = int(OPENED.search(await answer(ann, room_id, "!auction new 2", "is open"))[2])  # type: ignore[index]
            seen["second_is_new"] = second != first
            await bo.sit(room_id, second)
            await wait_until(lambda: bool(bot.games[second].humans()), what="bo seated")
            seen["joined"] = await answer(ann, room_id, f"!cancel {second}")
            await ann.sit(room_id, second)  # both ready: the game starts
            await wait_until(lambda: bot.games[second].table is not None, timeout=30, what="the game started")
            seen["started"] = await answer(ann, room_id, f"!cancel {second}")
            seen["second_kept"] = second in bot.games
            return seen
        finally:
            for player in (ann, bo):
                await player.close()
            await bot.close()

    seen = run(scenario())
    assert "!cancel" in seen["help"]
    assert "still waits for players" in seen["again"] and "!cancel closes it now" in seen["again"]
    assert seen["bo_none"] == "bo_gr2: you have no game waiting for players"
    assert "was not opened at your request" in seen["bo_hers"]
    assert seen["bad"].startswith("ann_gr2: usage: !cancel [GAME]")
    assert seen["closed_once"] == 1 and seen["first_gone"] and not seen["first_on_server"]
    assert seen["second_is_new"]
    assert "has players already: it is theirs now" in seen["joined"]  # ann had not sat down yet
    assert "is under way" in seen["started"] and seen["second_kept"]
