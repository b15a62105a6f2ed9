"""Vortex picks by private message, in a real Servatrice game (smoke test: hidden picks leaked).

Seen against a real server: the pack listing said "In game chat: !pick N or !pick NAME" and a private
``!pick`` was refused ("Game commands go in the game's own chat"), so ``!pick Legion's Judgment`` told the
table the card the referee then hid as "picks a card", and every failed name showed a card of the hidden
pack. Now a seated Vortex player picks (and sees their pack, the pack counts and the help) by private
message, found by the server's sender name; with two Vortex games they add the game's number (``#N``); a
name said in game chat is still taken, but a refusal naming cards of the pack goes to the picker alone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.runtime import split_game_suffix
from cockatrice_ext.bot.vortex import VortexReferee
from cockatrice_ext.formats import vortex as rules
from tests.bot.test_vortex_bot import hand_names, join_bot_room, run, start_bot

pytestmark = pytest.mark.servatrice

GOBLINS = ("Goblin Guide", "Goblin Piker", "Goblin Bushwhacker")
POOL = """\
# 21 cards: the three packs the deal needs; three Goblins, so a pack may hold two.
1 Goblin Guide
1 Goblin Piker
1 Goblin Bushwhacker
1 Shock
1 Giant Growth
1 Grizzly Bears
8 Forest
7 Mountain
"""


def goblin_seed(pool: Path) -> int:
    """A seed whose first picker's pack holds Goblin Guide and another Goblin (``!pick Goblin`` fits two)."""
    facts = load_block(str(pool), sections=None).facts
    for seed in range(500):
        engine = rules.VortexEngine(rules.VortexConfig(players=(1, 2), cards=facts), seed=seed)
        engine.apply(rules.StartGame(player=None))
        names = [ref.name for ref in engine.pack(engine.whose_turn)]
        if "Goblin Guide" in names and sum(name in GOBLINS for name in names) >= 2:
            return seed
    raise AssertionError("no seed gives two Goblins to the first picker")


async def open_game(bot_players: list[Player], room_id: int, referee_of: dict[int, VortexReferee]) -> int:
    """``!vortex new 2`` said by the first player, both seated: the game's number."""
    host = bot_players[0]
    mark = host.mark()
    await host.client.room_say(room_id, "!vortex new 2")
    line = await bot_line(host, r"Vortex game #\d+ is open", mark)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    for player in bot_players:
        await player.sit(room_id, game_id)
    referee = referee_of[game_id]
    await wait_until(lambda: referee.table is not None and referee.engine.phase == "opening", what="draft")
    return game_id


def said_by_bot(player: Player, since: int = 0) -> list[str]:
    return [text for _, text in player.heard[since:]]


async def private_after(player: Player, since: int, pattern: str) -> str:
    """The first private message ``player`` got after their ``since`` first ones that matches ``pattern``."""
    await wait_until(
        lambda: any(re.search(pattern, text) for _, text in player.private[since:]), what=pattern
    )
    return next(text for _, text in player.private[since:] if re.search(pattern, text))


def test_a_vortex_player_picks_by_private_message_and_the_table_never_reads_the_pack(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    pool = tmp_path / "pool.txt"
    pool.write_text(POOL)
    seed = goblin_seed(pool)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_ref_pp", block=str(pool), seed=seed)
        (ann, ben, cat), room_id = await join_bot_room(servatrice.ws_url, "ann_pp", "ben_pp", "cat_pp")
        try:
            game_id = await open_game([ann, ben], room_id, bot.games)  # type: ignore[arg-type]
            referee = bot.games[game_id]
            assert isinstance(referee, VortexReferee)
            await cat.client.join_game(room_id, game_id, spectator=True)
            engine = referee.engine
            seat = {p.name: pid for pid, p in referee.mirror.players.items() if p.name}
            picker = ann if engine.whose_turn == seat["ann_pp"] else ben
            other = ben if picker is ann else ann
            pack = [ref.name for ref in engine.pack(seat[picker.name])]

            # The listing and the first prompt say to pick privately (by number or name).
            listing = await picker.wait_private(lambda t: t.startswith("Your pack:"))
            assert "privately: !pick N or !pick NAME" in listing, listing
            prompt = await bot_line(other, rf"{picker.name} to pick from 7", 0)
            assert "privately" in prompt, prompt

            # A private !pick of the player without a pick: refused privately, not "game chat only".
            mark = other.mark()
            await other.client.send_message(bot.client.user_name, "!pick 1")
            refusal = await other.wait_private(lambda t: "no pick to make" in t or "Game commands" in t)
            assert refusal == f"{other.name}: you have no pick to make now: it is {picker.name}'s pick", (
                refusal
            )

            # A typo by private message: the suggestion (a card of the pack) comes privately.
            await picker.client.send_message(bot.client.user_name, "!pick Goblin Gide")
            hint = await picker.wait_private(lambda t: "did you mean" in t or "no such card" in t)
            assert "did you mean Goblin Guide?" in hint, hint

            # A name said in game chat that fits two cards of the pack: taken as said (the name is out),
            # but which cards it fits goes to the picker alone; the table reads no card of the pack.
            await picker.say(game_id, "!pick Goblin")
            which = await picker.wait_private(lambda t: "which one" in t)
            assert "Goblin Guide" in which and re.search(r"Goblin (Piker|Bushwhacker)", which), which
            await bot_line(other, rf"{picker.name}: refused", mark)
            assert engine.opening_turns_done == 0

            # The pick itself, privately by name: the table reads only that a card was picked.
            await picker.client.send_message(bot.client.user_name, "!pick goblin guide")
            await bot_line(other, rf"{picker.name} picks a card", mark)
            await wait_until(lambda: engine.opening_turns_done == 1, what="the private pick")
            await wait_until(
                lambda: "Goblin Guide" in hand_names(picker, game_id, seat[picker.name]), what="in hand"
            )
            for watcher in (other, cat):
                table_heard = " ".join(said_by_bot(watcher))
                for name in {*pack, *GOBLINS} - {"Forest", "Mountain"}:
                    assert name not in table_heard, (name, watcher.name, table_heard)

            # The other player's pack, the counts and the help, all by private message.
            since = len(picker.private)
            await picker.client.send_message(bot.client.user_name, "!pack")
            own = await private_after(picker, since, r"Your pack:")
            assert all(ref.name in own for ref in engine.pack(seat[picker.name]))
            await other.client.send_message(bot.client.user_name, "!packs")
            await other.wait_private(lambda t: "Packs " in t)
            await other.client.send_message(bot.client.user_name, "!help")
            helped = await other.wait_private(lambda t: "by private message" in t)
            assert "!pick N #GAME" in helped and "!pick" in helped, helped

            # A spectator is no player: their private !pick goes nowhere, and they are told so directly.
            await cat.client.send_message(bot.client.user_name, "!pick 1")
            await cat.wait_private(lambda t: "Spectators can watch but not play" in t)
            assert engine.opening_turns_done == 1
        finally:
            for player in (ann, ben, cat):
                await player.close()
            await bot.close()

    run(scenario(), timeout=180)


def test_a_player_of_two_vortex_games_names_the_game_of_a_private_pick(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    pool = tmp_path / "pool.txt"
    pool.write_text(POOL)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_ref_two", block=str(pool), seed=3)
        (ann, ben, cat), room_id = await join_bot_room(servatrice.ws_url, "ann_two", "ben_two", "cat_two")
        try:
            first = await open_game([ann, ben], room_id, bot.games)  # type: ignore[arg-type]
            second = await open_game([ann, cat], room_id, bot.games)  # type: ignore[arg-type]
            me = bot.client.user_name
            await ann.client.send_message(me, "!pick 1")
            asked = await ann.wait_private(lambda t: "add its number" in t or "Game commands" in t)
            assert f"!pick 1 #{first} or !pick 1 #{second}" in asked, asked  # both: no game guessed for her

            for game in (first, second):  # in two games, each private line names its game
                await ann.client.send_message(me, f"!pack #{game}")
                await ann.wait_private(lambda t, g=game: t.startswith(f"#{g}: ") and "pack" in t.lower())

            await ann.client.send_message(me, "!pick 1 #99999")
            await ann.wait_private(lambda t: "not playing in game #99999" in t)

            referees = {gid: bot.games[gid] for gid in (first, second)}
            seats = {gid: r.private_seat("ann_two") for gid, r in referees.items()}  # type: ignore[attr-defined]
            mine = [gid for gid, r in referees.items() if r.engine.whose_turn == seats[gid]]  # type: ignore[attr-defined]
            assert mine, "ann sits first in both games: she picks first"
            game_id = mine[-1]
            engine = referees[game_id].engine  # type: ignore[attr-defined]
            await ann.client.send_message(me, f"!pick 1 #{game_id}")
            await wait_until(lambda: engine.opening_turns_done == 1, what="the pick in the named game")
            others = [gid for gid in (first, second) if gid != game_id]
            assert all(referees[gid].engine.opening_turns_done == 0 for gid in others)  # type: ignore[attr-defined]
        finally:
            for player in (ann, ben, cat):
                await player.close()
            await bot.close()

    run(scenario(), timeout=180)


def test_a_private_game_command_names_its_game_by_a_trailing_number() -> None:
    assert split_game_suffix("!pick 3 #12") == ("!pick 3", 12)
    assert split_game_suffix("!pick Legion's Judgment  #7 ") == ("!pick Legion's Judgment", 7)
    assert split_game_suffix("!pack #12") == ("!pack", 12)
    assert split_game_suffix("!pick 3") == ("!pick 3", None)
    assert split_game_suffix("!pick #3") == ("!pick", 3)  # a pack number unless #3 is a game of theirs
