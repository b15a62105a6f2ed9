"""``bot run --judge``: the bot asks for a judge seat in every game; a server that allows creating games as
judge grants it, and the players then see their gold on a Gold card on their own table."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer

pytestmark = pytest.mark.servatrice


async def seat_two_and_look(url: str, referee: str) -> tuple[bool, dict[str, dict[str, str]]]:
    """Two players ask for an auction game and sit; whether the referee's seat is a judge's, and the
    numbers of the note cards on each player's own table (as the first player's client sees them)."""

    players = [await Player.connect(url, name) for name in ("judge_ann", "judge_ben")]
    try:
        room_id = await players[0].client.room_id_by_name("Bot room")
        for player in players:
            await player.client.join_room(room_id)
        since = players[0].mark()
        await players[0].client.room_say(room_id, "!auction new 2")
        opened = await players[0].wait_line(lambda t: "Auction Magic game #" in t, since=since, timeout=20)
        found = re.search(r"#(\d+)", opened)
        assert found is not None, opened
        game_id = int(found.group(1))
        for player in players:
            await player.sit(room_id, game_id)
        mirror = players[0].client.games[game_id]

        def counters() -> dict[str, dict[str, str]]:
            return {
                seat.name: {c.name: c.pt for c in seat.zone("table").cards}
                for seat in mirror.players.values()
                if seat.name in ("judge_ann", "judge_ben")
            }

        bot_seat = next(seat for seat in mirror.players.values() if seat.name == referee)
        if bot_seat.judge:
            await wait_until(lambda: all("Gold" in c for c in counters().values()), timeout=20)
        else:
            await asyncio.sleep(1.0)  # time for counters that must not come
        return bot_seat.judge, counters()
    finally:
        for player in players:
            await player.close()


@pytest.mark.parametrize("flag", [True, False])
def test_judge_seat_when_asked_and_allowed(servatrice: ServatriceServer, tmp_path: Path, flag: bool) -> None:
    from bot_process import bot_process

    extra = ("--format", "auction", *(["--judge"] if flag else []))
    with bot_process(servatrice.ws_url, "judge_referee", tmp_path / "journal.sqlite3", *extra):
        judge, counters = asyncio.run(
            asyncio.wait_for(seat_two_and_look(servatrice.ws_url, "judge_referee"), 60)
        )
    assert judge is flag
    if flag:
        assert {name: own.get("Gold") for name, own in counters.items()} == {
            "judge_ann": "10",
            "judge_ben": "10",
        }
    else:
        assert all("Gold" not in own for own in counters.values()), counters
