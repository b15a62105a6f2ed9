"""Vortex as players meet it: Servatrice's shipped flood limits, auth none, players pacing themselves.

Each test plays through what issue 12 saw go wrong and checks what the players' own clients received,
and in which order: pack listings against pick prompts, the note on a face-down pick, what someone who
sits down in a finished game is told, an abandoned game leaving the room's list.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import connect_default
from test_vortex_bot import POOL, bot_line, choose_pick

from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


def run(coroutine: Any, timeout: float = 240.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def strict_bot(url: str, tmp_path: Path, user: str, **extra: Any) -> Bot:
    """An in-process Vortex bot pacing itself under the shipped limits (the client's defaults)."""
    pool = tmp_path / "pool.txt"
    pool.write_text(POOL)
    options = BotOptions(
        url=url,
        user=user,
        rooms=("Bot room",),
        journal_path=tmp_path / "journal.sqlite3",
        formats=("vortex",),
        format_options={"vortex": VortexOptions(block=str(pool), seed=3, **extra)},
        client_options={"reconnect": False},
    )
    bot = Bot(options)
    await bot.start()
    return bot


class Arrivals:
    """Everything one player received, in arrival order: ("game", text), ("private", text), ("reveal", "")."""

    def __init__(self, player: Player) -> None:
        self.log: list[tuple[str, str]] = []
        player.client.add_listener(self._on_event)

    async def _on_event(self, event: Any) -> None:
        if getattr(event, "is_own", True) or getattr(event, "is_replay", False):
            return
        if event.name == "Event_GameSay":
            self.log.append(("game", event.message.message))
        elif event.name == "Event_UserMessage":
            self.log.append(("private", event.message.message))
        elif event.name == "Event_RevealCards":
            self.log.append(("reveal", ""))

    def position(self, kind: str, needle: str, occurrence: int) -> int | None:
        """Where the ``occurrence``-th (1-based) arrival of ``kind`` containing ``needle`` is."""
        seen = 0
        for index, (got, text) in enumerate(self.log):
            if got == kind and needle in text:
                seen += 1
                if seen == occurrence:
                    return index
        return None


async def seat_two(bot: Bot, url: str, names: list[str]) -> tuple[int, int, dict[int, Player]]:
    """Two players open a Vortex game and sit in it (what they receive is logged from the start)."""
    players = [Player(await connect_default(url, name)) for name in names]
    for player in players:
        player.arrivals = Arrivals(player)  # type: ignore[attr-defined]
    room_id = await players[0].client.room_id_by_name("Bot room")
    for player in players:
        await player.client.join_room(room_id)
    mark = players[0].mark()
    await players[0].client.room_say(room_id, "!vortex new 2")
    line = await bot_line(players[0], r"Vortex game #\d+", mark)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    by_id = {await p.sit(room_id, game_id): p for p in players}
    return room_id, game_id, by_id


def test_packs_come_before_prompts_and_picks_say_where_to_go(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """The whole opening draft at player speed, without judge rights: every picker has their pack
    (revealed and listed privately) before the public prompt to pick; every pick lands face down on
    the picker's table in a column of its own, with a note saying to drag it into their hand."""

    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path, "vortex_f", judge=False)
        _, game_id, by_id = await seat_two(bot, servatrice_strict.ws_url, ["alice_vf", "bob_vf"])
        arrivals = {pid: player.arrivals for pid, player in by_id.items()}  # type: ignore[attr-defined]
        referee = bot.games[game_id]
        assert isinstance(referee, VortexReferee)
        try:
            await wait_until(
                lambda: referee.table is not None and referee.engine.whose_turn is not None,
                timeout=30,
                what="the draft",
            )
            engine = referee.engine
            assert not referee.is_judge
            picks = dict.fromkeys(by_id, 0)
            for _ in range(8):
                pid = int(engine.whose_turn)  # type: ignore[arg-type]
                player, log = by_id[pid], arrivals[pid]
                picks[pid] += 1
                prompt = f"{player.name} to pick from"
                await wait_until(
                    lambda log=log, prompt=prompt, n=picks[pid]: log.position("game", prompt, n) is not None,
                    timeout=30,
                    what=f"prompt {picks[pid]} for {player.name}",
                )
                at = log.position("game", prompt, picks[pid])
                listed = log.position("private", "Your pack:", picks[pid])
                revealed = log.position("reveal", "", picks[pid])
                assert listed is not None and listed < at, (player.name, log.log)  # type: ignore[operator]
                assert revealed is not None and revealed < at, (player.name, log.log)  # type: ignore[operator]
                await player.say(game_id, f"!pick {choose_pick(engine, pid) + 1}")
                table = player.client.games[game_id].players[pid].zone("table")
                await wait_until(
                    lambda table=table, n=picks[pid]: len(table.cards) == n, what="the pick on the table"
                )
            for pid, player in by_id.items():
                table = player.client.games[game_id].players[pid].zone("table").cards
                await wait_until(
                    lambda table=table: all("drag it into your hand" in c.annotation for c in table),
                    what="the notes on the picks",
                )
                assert all(c.face_down and not c.name for c in table)
                notes = [c.annotation for c in table]
                assert all(n.startswith(f"Owner: {player.name}\nFace down: drag it") for n in notes), notes
                columns = [c.x // 3 for c in table]
                assert len(set(columns)) == len(columns), columns  # none hides another
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())


def test_finished_and_abandoned_games(servatrice_strict: ServatriceServer, tmp_path: Path) -> None:
    """A game that Cockatrice stopped is finished: whoever sits down in it is told it will not start
    and to say !vortex new in the room. A game every player left is closed at once and leaves the
    room's list; its journal says it was abandoned."""
    url = servatrice_strict.ws_url

    async def room_games(player: Player, room_id: int) -> int:
        return next(r.game_count for r in await player.client.list_rooms() if r.room_id == room_id)

    async def scenario() -> None:
        bot = await strict_bot(url, tmp_path, "vortex_g")
        room_id, game_id, by_id = await seat_two(bot, url, ["ann_vg", "ben_vg"])
        referee = bot.games[game_id]
        carol = Player(await connect_default(url, "cat_vg"))
        players = [*by_id.values(), carol]
        try:
            await wait_until(lambda: referee.table is not None, timeout=30, what="the draft")
            ann, ben = by_id.values()
            await ben.client.leave_game(game_id)
            await ann.client.game_command(game_id, commands.concede())
            await wait_until(lambda: bool(referee.finished), timeout=15, what="the game finished")
            assert bot.journal.closed_reason(referee.table_key) == referee.finished
            await carol.client.join_room(room_id)
            await carol.sit(room_id, game_id)
            told = await carol.wait_private(lambda t: "is over" in t, timeout=15)
            assert f"Vortex game #{game_id} is over" in told and "!vortex new in the room" in told

            # Everyone leaves: the referee leaves too, and the game is gone from the room.
            for player in (ann, carol):
                await player.client.leave_game(game_id)
            await wait_until(lambda: game_id not in bot.games, timeout=15, what="the referee gone")

            # A game abandoned in its draft: closed at once, with the reason journaled.
            _, second, seated = await seat_two(bot, url, ["dan_vg", "eve_vg"])
            players += list(seated.values())
            abandoned = bot.games[second]
            await wait_until(lambda: abandoned.table is not None, timeout=30, what="the second draft")
            for player in seated.values():
                await player.client.leave_game(second)
            await wait_until(lambda: second not in bot.games, timeout=15, what="the abandoned game left")
            reason = bot.journal.closed_reason(abandoned.table_key)
            assert reason is not None and reason.startswith("abandoned"), reason
            deadline = asyncio.get_running_loop().time() + 15
            while await room_games(carol, room_id) and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.2)
            assert await room_games(carol, room_id) == 0
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario())
