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
from bot_players import Player, bot_line, wait_until
from killable_bot import CHAT_BOUND, BotProcess
from servatrice import ServatriceServer
from test_auction_e2e import connect_default
from test_vortex_bot import POOL, choose_pick

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
        format_options={"vortex": VortexOptions(block=str(pool), seed=3, basics_per_player=False, **extra)},
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
    # Under the shipped limits a room answer may wait one budget window (11 s) behind the game's lines; the
    # announcement naming who asked is theirs (another's may still be on its way to them).
    asked = rf"Vortex game #(\d+) .*, asked by {re.escape(players[0].name)}\b"
    line = await bot_line(players[0], asked, mark, timeout=30)
    game_id = int(re.search(asked, line).group(1))  # type: ignore[union-attr]
    by_id = {await p.sit(room_id, game_id): p for p in players}
    return room_id, game_id, by_id


def test_packs_come_before_prompts_and_picks_say_where_to_go(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """The whole opening draft at player speed, without judge rights: every picker has their pack (listed
    privately, never revealed as cards: their ids would follow them) before the public prompt to pick; every
    pick lands face down on the picker's table in a column of its own, with a note saying to drag it into
    their hand. After the bot loses its seat, ``!resume`` puts the picks back the same way in a new game, and
    play goes on."""

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
                assert listed is not None and listed < at, (player.name, log.log)  # type: ignore[operator]
                assert log.position("reveal", "", 1) is None, (player.name, log.log)  # listed, never revealed
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
                assert all(
                    n.startswith(f"Owner: {player.name} (from the referee)\nFace down: drag it")
                    for n in notes
                ), notes
                columns = [c.x // 3 for c in table]
                assert len(set(columns)) == len(columns), columns  # none hides another

            # The seat goes with the connection (auth none); a new bot on the same journal rebuilds the
            # game on !resume, still without judge rights: the picks come back the same way, by name.
            await bot.close()
            alice = next(p for p in by_id.values() if p.name == "alice_vf")
            mirror = alice.client.games[game_id]
            await wait_until(lambda: referee.me not in mirror.players, timeout=30, what="the bot's seat gone")
            mark = alice.mark()
            bot = Bot(bot.options)
            await bot.start()
            await bot_line(alice, rf"lost its seat .*!resume {game_id}", mark, timeout=CHAT_BOUND)
            await alice.client.room_say(referee.room_id, f"!resume {game_id}")
            line = await bot_line(alice, rf"Game #{game_id} continues as game #\d+", mark, timeout=CHAT_BOUND)
            new_game = int(re.search(r"as game #(\d+)", line).group(1))  # type: ignore[union-attr]
            seats = {
                player.name: await player.sit(referee.room_id, new_game)
                for player in reversed(by_id.values())
            }
            await bot_line(alice, rf"Game #{game_id} continues here: Phase basics", mark, timeout=CHAT_BOUND)
            for player in by_id.values():
                table = player.client.games[new_game].players[seats[player.name]].zone("table")
                await wait_until(
                    lambda t=table: (
                        len(t.cards) == 4
                        and all(c.face_down and "drag it into your hand" in c.annotation for c in t.cards)
                    ),
                    timeout=CHAT_BOUND,
                    what=f"{player.name}'s picks back on their table",
                )
            for player in by_id.values():
                await player.say(new_game, "!basics")
            await bot_line(alice, r"Turn 1: \w+", mark, timeout=CHAT_BOUND)
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
            await wait_until(lambda: bool(referee.finished), timeout=60, what="the game finished")
            assert bot.journal.closed_reason(referee.table_key) == referee.finished
            await carol.client.join_room(room_id)
            await carol.sit(room_id, game_id)
            told = await carol.wait_private(lambda t: "is over" in t, timeout=60)
            assert f"Vortex game #{game_id} is over" in told and "!vortex new in the room" in told

            # Everyone leaves: the referee leaves too, and the game is gone from the room.
            for player in (ann, carol):
                await player.client.leave_game(game_id)
            await wait_until(lambda: game_id not in bot.games, timeout=60, what="the referee gone")

            # A game abandoned in its draft: closed at once, with the reason journaled.
            _, second, seated = await seat_two(bot, url, ["dan_vg", "eve_vg"])
            players += list(seated.values())
            abandoned = bot.games[second]
            await wait_until(lambda: abandoned.table is not None, timeout=30, what="the second draft")
            # Both at once: one leaving first while the other stays would end the game (the other wins).
            await asyncio.gather(*(player.client.leave_game(second) for player in seated.values()))
            await wait_until(lambda: second not in bot.games, timeout=60, what="the abandoned game left")
            reason = bot.journal.closed_reason(abandoned.table_key)
            assert reason is not None and reason.startswith("abandoned"), reason
            deadline = asyncio.get_running_loop().time() + 60
            while await room_games(carol, room_id) and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.2)
            assert await room_games(carol, room_id) == 0
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario())


def test_resume_after_kill_rebuilds_the_draft(servatrice_strict: ServatriceServer, tmp_path: Path) -> None:
    """``kill -9`` under auth none mid-draft, the bot started as the README says: the restarted bot
    names the lost game in the room once it is back there; ``!resume`` opens a new game where the players
    sit in the other order (new seat ids), every pick is back in its picker's hand, the packs and the shoe
    are as they were, the pending pick is asked again (its pack listed first) and the draft goes on."""
    url = servatrice_strict.ws_url

    async def packs_line(player: Player, game_id: int) -> str:
        """What ``!packs`` answers (pack sizes by name, the passed pack, the shoe)."""
        mark = player.mark()
        await player.say(game_id, "!packs")
        line = await bot_line(player, r"Packs [^|]*", mark, timeout=CHAT_BOUND)
        return re.search(r"Packs [^|]*", line).group(0).strip()  # type: ignore[union-attr]

    def hand(player: Player, game_id: int) -> list[str]:
        mirror = player.client.games[game_id]
        return sorted(c.name for c in mirror.players[mirror.local_player_id].zone("hand").cards)

    async def scenario() -> None:
        bot = BotProcess(url, "referee_vk", tmp_path / "journal.sqlite3", "vortex")
        alice = Player(await connect_default(url, "alice_vk"))
        bob = Player(await connect_default(url, "bob_vk"))
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for player in (alice, bob):
                await player.client.join_room(room_id)
            mark = alice.mark()
            old_game = await bot.open_game(alice, room_id, "!vortex new 2", "Vortex")
            for player in (alice, bob):
                await player.sit(room_id, old_game)
            await bot_line(alice, r"Opening turn 1: alice_vk drafts", mark, timeout=CHAT_BOUND)
            for picker, turn in ((alice, 1), (bob, 2), (alice, 3)):
                await bot_line(alice, rf"{picker.name} to pick from", mark, timeout=CHAT_BOUND)
                mark = alice.mark()  # the next prompt comes with this pick's line
                await picker.say(old_game, "!pick 1")
                await wait_until(
                    lambda p=picker, t=turn: len(hand(p, old_game)) == (t + 1) // 2,
                    timeout=CHAT_BOUND,
                    what="pick",
                )
            await bot_line(alice, r"bob_vk to pick from", mark, timeout=CHAT_BOUND)
            picked = {"alice_vk": hand(alice, old_game), "bob_vk": hand(bob, old_game)}
            packs_before = await packs_line(alice, old_game)

            await bot.kill_and_restart(alice, old_game)
            mark = alice.mark()
            told = len(bob.private)
            new_game = await bot.resume(bob, room_id, old_game)
            bob_seat = await bob.sit(room_id, new_game)  # the other order: new seat ids
            alice_seat = await alice.sit(room_id, new_game)
            assert (alice_seat, bob_seat) != (
                alice.client.games[old_game].local_player_id,
                bob.client.games[old_game].local_player_id,
            )
            await bot_line(
                alice,
                rf"Game #{old_game} continues here: Phase opening; bob_vk's turn",
                mark,
                timeout=CHAT_BOUND,
            )
            for player in (alice, bob):
                await wait_until(
                    lambda p=player: hand(p, new_game) == picked[p.name],
                    timeout=15,
                    what="picks back in hand",
                )
            await wait_until(
                lambda: any(t.startswith("Your pack: 1. ") for _, t in bob.private[told:]),
                timeout=CHAT_BOUND,
                what="bob's pack listed again",
            )
            await bot_line(alice, r"bob_vk to pick from", mark, timeout=CHAT_BOUND)
            assert await packs_line(alice, new_game) == packs_before
            await bob.say(new_game, "!pick 1")
            await bot_line(alice, r"bob_vk picks a card", mark, timeout=CHAT_BOUND)
            await wait_until(lambda: len(hand(bob, new_game)) == 2, what="bob's new pick in hand")
        finally:
            for player in (alice, bob):
                await player.close()
            bot.stop()

    run(scenario(), timeout=300)
