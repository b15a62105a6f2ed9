"""Vortex end to end: the bot and scripted players in a real Servatrice game.

One game with a 21-card pool (so the shoe is empty once the packs are dealt): the opening draft (four
picks each, private pack lists, picks delivered to hands), refusals (out of turn, missing card,
spectator), basics, then three turns: a pack mulligan followed by a failed pick from the empty pack
(life lost, the turn ends), a normal pick with an empty shoe, and the pass step.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import FloodLimits
from cockatrice_ext.formats import vortex as rules
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice

POOL = """\
# A tiny Vortex pool: three spells and eighteen basics, exactly the three packs the deal needs.
1 Shock
1 Giant Growth
1 Grizzly Bears
9 Forest
9 Mountain
"""


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def choose_pick(engine: rules.VortexEngine, player: Any) -> int:
    """The scripted players' policy: the first spell in the pack, else the first card."""
    pack = engine.pack(player)
    for position, ref in enumerate(pack):
        if not engine.config.cards[ref.index].is_basic_land:
            return position
    return 0


def seed_for_mulligan(pool: Path) -> int:
    """A seed whose opening draft (with :func:`choose_pick`) leaves the first player a mulligan pack."""
    facts = load_block(str(pool), sections=None).facts
    for seed in range(500):
        engine = rules.VortexEngine(rules.VortexConfig(players=(1, 2), cards=facts), seed=seed)
        engine.apply(rules.StartGame(player=None))
        while engine.phase == "opening":
            player = engine.whose_turn
            engine.apply(rules.Pick(player=player, choice=choose_pick(engine, player)))
        basics = sum(1 for ref in engine.pack(1) if engine.config.cards[ref.index].is_basic_land)
        if basics >= 5:
            return seed
    raise AssertionError("no seed gives a mulligan pack")


def hand_names(player: Player, game_id: int, pid: int) -> list[str]:
    return [c.name for c in player.client.games[game_id].players[pid].zone("hand").cards]


async def start_bot(url: str, tmp_path: Path, user: str, **options: Any) -> Bot:
    """A bot refereeing Vortex in "Bot room" (relaxed flood limits, as the test server has). The tests' pools
    are sized for the deal, so every basic they list is shuffled in (``basics_per_player=False``)."""
    bot = Bot(
        BotOptions(
            url=url,
            user=user,
            rooms=("Bot room",),
            journal_path=tmp_path / "journal.sqlite3",
            formats=("vortex",),
            format_options={"vortex": VortexOptions(**{"basics_per_player": False, **options})},
            client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited()},
        )
    )
    await bot.start()
    return bot


async def open_vortex(bot: Bot, host: Player, room_id: int) -> tuple[int, VortexReferee]:
    """``!vortex new 2`` said by ``host``: the game's id and its referee."""
    await host.client.room_say(room_id, "!vortex new 2")
    line = await host.wait_line(lambda t: "Vortex game #" in t)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    referee = bot.games[game_id]
    assert isinstance(referee, VortexReferee)
    return game_id, referee


async def join_bot_room(url: str, *names: str) -> tuple[list[Player], int]:
    """Players connected under ``names`` and sitting in "Bot room" (closed by the caller); the room's id."""
    players = [await Player.connect(url, name) for name in names]
    room_id = await players[0].client.room_id_by_name("Bot room")
    for p in players:
        await p.client.join_room(room_id)
    return players, room_id


def test_vortex_game_end_to_end(servatrice: ServatriceServer, tmp_path: Path) -> None:
    pool = tmp_path / "pool.txt"
    pool.write_text(POOL)
    seed = seed_for_mulligan(pool)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_ref", block=str(pool), seed=seed)
        alice = await Player.connect(servatrice.ws_url, "alice_v")
        bob = await Player.connect(servatrice.ws_url, "bob_v")
        carol = await Player.connect(servatrice.ws_url, "carol_v")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob, carol):
                await p.client.join_room(room_id)
            game_id, referee = await open_vortex(bot, alice, room_id)
            by_id: dict[int, Player] = {}
            by_id[await alice.sit(room_id, game_id)] = alice
            by_id[await bob.sit(room_id, game_id)] = bob
            pid_of = {p.name: pid for pid, p in by_id.items()}
            await carol.sit(room_id, game_id, spectator=True)

            await bot_line(alice, r"Opening turn 1: alice_v drafts", 0)
            engine = referee.engine
            assert engine.config.players == tuple(sorted(by_id))
            assert engine.shoe_size() == 0 and engine.passed_size() == 7
            assert referee.is_judge, "the relaxed test server lets the bot create its game as a judge"

            # The first picker got their pack privately, numbered; the other player did not.
            listing = await alice.wait_private(lambda t: t.startswith("Your pack:"))
            for n, ref in enumerate(engine.pack(pid_of["alice_v"]), start=1):
                assert f"{n}. {ref.name}" in listing
            assert not any(t.startswith("Your pack:") for _, t in bob.private)
            # ...listed, never revealed as cards (Command_RevealCards): a reveal hands its reader the cards'
            # ids, which Servatrice shows again when a pick is dealt face down to another player.
            for watcher in (alice, bob, carol):
                assert not watcher.client.games[game_id].revealed, watcher.name

            # Refusals: out of turn, a missing card, a spectator, a bad number. Nothing changes.
            before = engine.snapshot()
            mark = alice.mark()
            await bob.say(game_id, "!pick 1")
            await bot_line(alice, r"bob_v: you have no pick to make now", mark)
            await alice.say(game_id, "!pick 9")
            await bot_line(alice, r"alice_v: your pack has no card 9: pick 1-7, or a card's name", mark)
            await alice.say(game_id, "!pick Black Lotus")
            await bot_line(alice, r"alice_v: your pack has no such card: pick 1-7, or a card's name", mark)
            await alice.say(game_id, "!pick 0")
            await bot_line(alice, r"alice_v: pack numbers start at 1", mark)
            await carol.say(game_id, "!pick 1")
            await bot_line(alice, r"carol_v: spectators can watch but not play", mark)
            assert engine.snapshot() == before

            # The opening draft: four picks each, alternately; by number and by name.
            picked: dict[int, list[str]] = {pid: [] for pid in by_id}
            for turn in range(8):
                pid = int(engine.whose_turn)  # type: ignore[arg-type]
                player = by_id[pid]
                position = choose_pick(engine, pid)
                name = engine.pack(pid)[position].name
                mark = alice.mark()
                choice = str(position + 1) if turn % 2 == 0 else name
                await player.say(game_id, f"!pick {choice}")
                await bot_line(alice, rf"{player.name} picks a card", mark)
                picked[pid].append(name)
                await wait_until(lambda n=turn: engine.opening_turns_done == n + 1, what="pick applied")
            await bot_line(alice, r"Opening draft done", 0)
            for pid, names in picked.items():
                await wait_until(
                    lambda pid=pid, names=names: (
                        sorted(hand_names(by_id[pid], game_id, pid)) == sorted(names)
                    ),
                    what=f"{by_id[pid].name}'s picks in hand",
                )
            # The picks are in hand, where their owner reads them: no chat message names them.
            assert not any(t.startswith("You picked") for _, t in alice.private + bob.private)
            # Nobody else sees the picked cards' names.
            alice_pid, bob_pid = pid_of["alice_v"], pid_of["bob_v"]
            assert all(not c.name for c in alice.client.games[game_id].players[bob_pid].zone("hand").cards)

            # Basics: chosen by name, or the referee's default.
            mark = alice.mark()
            await alice.say(game_id, "!basics Forest Forest Lotus")
            await bot_line(alice, r"alice_v: name exactly 3 basic lands \(Lotus: not a basic", mark)
            await alice.say(game_id, "!basics Forest Forest Mountain")
            await bot_line(alice, r"alice_v takes Forest, Forest, Mountain as basic lands", mark)
            await bob.say(game_id, "!basics")
            await bot_line(alice, r"bob_v takes .* as basic lands", mark)
            await bot_line(alice, r"Turn 1: alice_v", mark)
            await wait_until(
                lambda: (
                    sorted(hand_names(alice, game_id, alice_pid))
                    == sorted(picked[alice_pid] + ["Forest", "Forest", "Mountain"])
                ),
                what="basics in alice's hand",
            )
            await wait_until(
                lambda: alice.client.games[game_id].active_player_id == alice_pid, what="alice active"
            )

            # Turn 1 (alice): pack mulligan at upkeep, then a draw from an empty pack and an empty shoe.
            mark = alice.mark()
            await bob.say(game_id, "!mulligan")
            await bot_line(alice, r"bob_v: it is alice_v's turn", mark)
            await alice.phase(game_id, 1)
            await alice.say(game_id, "!mulligan")
            await bot_line(alice, r"alice_v mulligans their pack: .*It is exiled", mark)
            await bot_line(alice, r"alice_v replenishes to 5 this turn", mark)
            await alice.say(game_id, "!mulligan")
            await bot_line(alice, r"alice_v: you already did a pack mulligan this turn", mark)
            await wait_until(
                lambda: (
                    alice.client.games[game_id].players[referee.me].zone("rfg").card_count == 5
                    or len(alice.client.games[game_id].players[referee.me].zone("rfg").cards) == 5
                ),
                what="mulliganed pack in exile",
            )
            await alice.phase(game_id, 2)
            await bot_line(alice, r"alice_v starts and skips the first draw", mark)
            await alice.say(game_id, "!draw")
            await bot_line(alice, r"alice_v has nothing to pick: the stack is countered", mark)
            await bot_line(alice, r"alice_v loses 1 life", mark)
            await bot_line(alice, r"Turn 2: bob_v", mark)
            await wait_until(
                lambda: alice.client.games[game_id].players[alice_pid].counter_value("life") == 19,
                what="alice's life counter",
            )
            assert engine.pack_size(alice_pid) == 4 and engine.passed_size() == 0

            # Turn 2 (bob): the Cockatrice turn followed; the draw step is a pick from a pack the empty
            # shoe cannot replenish.
            await wait_until(lambda: bob.client.games[game_id].active_player_id == bob_pid, what="bob active")
            mark = alice.mark()
            await bob.phase(game_id, 2)
            await bot_line(alice, r"bob_v to pick from 4", mark)
            assert not any("replenishes" in t for _, t in alice.heard[mark:])
            bob_hand = len(hand_names(bob, game_id, bob_pid))
            await bob.say(game_id, "!pick 1")
            await bot_line(alice, r"bob_v picks a card", mark)
            await wait_until(
                lambda: len(hand_names(bob, game_id, bob_pid)) == bob_hand + 1, what="bob's pick"
            )
            await bob.next_turn(game_id)
            await bot_line(alice, r"bob_v passes: takes the passed pack \(0\), leaves 3", mark)
            await bot_line(alice, r"Turn 3: alice_v", mark)

            # Turn 3 (alice): a normal pick; anyone may count the packs.
            await wait_until(
                lambda: alice.client.games[game_id].active_player_id == alice_pid, what="alice again"
            )
            mark = alice.mark()
            await alice.phase(game_id, 2)
            await bot_line(alice, r"alice_v to pick from 4", mark)
            await alice.say(game_id, "!pick 1")
            await bot_line(alice, r"alice_v picks a card", mark)
            await carol.say(game_id, "!packs")
            await bot_line(alice, r"Packs alice_v 3, bob_v 0; passed 3; shoe 0", mark)
            assert engine.whose_turn == alice_pid and engine.turn == 3
        finally:
            for p in (alice, bob, carol):
                await p.close()
            await bot.close()

    run(scenario(), timeout=180)


def test_vortex_without_judge_rights(servatrice: ServatriceServer, tmp_path: Path) -> None:
    """Without judge rights: picks face down on the picker's table, basics given on the table, life told."""
    pool = tmp_path / "pool.txt"
    pool.write_text(POOL)
    seed = seed_for_mulligan(pool)

    async def scenario() -> None:
        bot = await start_bot(
            servatrice.ws_url, tmp_path, "vortex_plain", block=str(pool), seed=seed, judge=False
        )
        (alice, bob), room_id = await join_bot_room(servatrice.ws_url, "alice_w", "bob_w")
        try:
            game_id, referee = await open_vortex(bot, alice, room_id)
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            alice_pid = next(pid for pid, p in by_id.items() if p is alice)
            await bot_line(alice, r"Opening turn 1: alice_w drafts", 0)
            engine = referee.engine
            assert not referee.is_judge

            mark = alice.mark()
            await alice.say(game_id, "!help")
            await bot_line(alice, r"Commands: .*!pick N\|NAME", mark)
            for turn in range(8):
                pid = int(engine.whose_turn)  # type: ignore[arg-type]
                await by_id[pid].say(game_id, f"!pick {choose_pick(engine, pid) + 1}")
                await wait_until(lambda n=turn: engine.opening_turns_done == n + 1, what="pick applied")
            # Each player's four picks lie face down on their own table; nobody sees their names.
            for pid in by_id:
                await wait_until(
                    lambda pid=pid: len(alice.client.games[game_id].players[pid].zone("table").cards) == 4,
                    what="picks on the table",
                )
                cards = alice.client.games[game_id].players[pid].zone("table").cards
                assert all(c.face_down and not c.name for c in cards)
            await alice.wait_private(lambda t: t.startswith("You picked"))

            mark = alice.mark()
            await alice.say(game_id, "!basics Mountain Mountain Mountain")
            await bot_line(alice, r"alice_w: your basic lands are on your table", mark)
            await wait_until(
                lambda: (
                    [
                        c.name for c in alice.client.games[game_id].players[alice_pid].zone("table").cards
                    ].count("Mountain")
                    == 3
                ),
                what="basics on alice's table",
            )
            await bob.say(game_id, "!basics")
            await bot_line(alice, r"Turn 1: alice_w", mark)
            await wait_until(
                lambda: alice.client.games[game_id].active_player_id == alice_pid, what="alice active"
            )
            await alice.phase(game_id, 1)
            await alice.say(game_id, "!mulligan")
            await bot_line(alice, r"alice_w mulligans their pack", mark)
            await alice.say(game_id, "!draw")
            await bot_line(alice, r"alice_w: lower your life by 1", mark)
            await bot_line(alice, r"Turn 2: bob_w", mark)
            assert alice.client.games[game_id].players[alice_pid].counter_value("life") == 20
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_a_draw_step_reached_while_the_last_turn_waits_for_its_pick_is_a_pick(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Seen in the field: alice drew (a pick to make) and pressed Next turn; Cockatrice made bob active and
    bob went to his draw step while the referee still waited for alice's pick. Once she picks, bob's turn
    starts in the engine and his draw step is a pick (it was ignored: "you have no pick to make now")."""
    pool = tmp_path / "pool.txt"
    pool.write_text("4 Shock\n4 Giant Growth\n4 Grizzly Bears\n20 Forest\n20 Mountain\n")

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_ref_w", block=str(pool), seed=1)
        (alice, bob), room_id = await join_bot_room(servatrice.ws_url, "alice_w", "bob_w")
        try:
            game_id, referee = await open_vortex(bot, alice, room_id)
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            await bot_line(alice, r"Opening turn 1", 0)
            engine = referee.engine
            await draft_and_basics(game_id, referee, by_id)
            first = int(engine.whose_turn)  # type: ignore[arg-type]
            second = next(pid for pid in by_id if pid != first)
            mover, other = by_id[first], by_id[second]
            await wait_until(
                lambda: mover.client.games[game_id].active_player_id == first, what="first player active"
            )
            mark = alice.mark()
            await mover.phase(game_id, 3)  # past the first turn's skipped draw
            await mover.say(game_id, "!draw")
            await bot_line(alice, rf"{mover.name} to pick from", mark)
            await mover.next_turn(game_id)  # before picking
            await bot_line(alice, rf"{mover.name}: pick first", mark)
            await wait_until(
                lambda: other.client.games[game_id].active_player_id == second, what="Cockatrice moved on"
            )
            await other.phase(game_id, 2)  # the next player's draw step, while the pick is owed
            await mover.say(game_id, "!pick 1")
            await bot_line(alice, rf"Turn 2: {other.name}", mark)
            await bot_line(alice, rf"{other.name} to pick from", mark)
            assert engine.pending_pick(second)
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=180)


THREE_POOL = "4 Shock\n4 Giant Growth\n4 Grizzly Bears\n20 Forest\n20 Mountain\n"


async def open_three(
    bot: Bot, url: str, names: tuple[str, str, str]
) -> tuple[int, VortexReferee, dict[str, Player], dict[str, int]]:
    """``!vortex new 3`` and three players seated in it: the game, its referee, players and seats by name."""
    players, room_id = await join_bot_room(url, *names)
    await players[0].client.room_say(room_id, "!vortex new 3")
    line = await players[0].wait_line(lambda t: "Vortex game #" in t)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    referee = bot.games[game_id]
    assert isinstance(referee, VortexReferee)
    seats = {p.name: await p.sit(room_id, game_id) for p in players}
    await wait_until(lambda: referee.table is not None and referee.engine.phase != "new", what="the draft")
    return game_id, referee, {p.name: p for p in players}, seats


async def draft_and_basics(game_id: int, referee: VortexReferee, by_seat: dict[int, Player]) -> None:
    """The whole opening draft (the scripted pick policy), then everyone takes the referee's basics."""
    engine = referee.engine
    while engine.phase == "opening":
        pid = int(engine.whose_turn)  # type: ignore[arg-type]
        done = engine.opening_turns_done
        await by_seat[pid].say(game_id, f"!pick {choose_pick(engine, pid) + 1}")
        await wait_until(lambda d=done: engine.opening_turns_done == d + 1, what="opening pick")
    watcher = next(iter(by_seat.values()))
    mark = watcher.mark()
    for player in by_seat.values():
        await player.say(game_id, "!basics")
    await bot_line(watcher, r"Turn 1: ", mark)
    assert engine.phase == "play"


async def take_turn(game_id: int, player: Player, seat: int, watcher: Player, mark: int) -> None:
    """``player``'s turn: wait until Cockatrice makes them active, draw step (a pick), pick, next turn."""
    await wait_until(lambda: player.client.games[game_id].active_player_id == seat, what=f"{player.name}")
    await player.phase(game_id, 2)
    await bot_line(watcher, rf"{player.name} to pick from", mark)
    await player.say(game_id, "!pick 1")
    await bot_line(watcher, rf"{player.name} picks a card", mark)
    await player.next_turn(game_id)


def test_a_conceding_player_is_out_and_the_game_goes_on_for_the_others(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Field bug: in a three-player game cat conceded on ben's turn; the game froze for good (cat stayed in
    the turn order, the bot passed the Cockatrice turn looking for cat, then gave up). Now cat is out at
    once (one line), ``!packs``/``!state``/``!games`` tell the truth, play goes on for ann and ben, and
    when ben concedes too ann wins and the game is finished. Also: a ``!pack`` answer is not sent again
    as the automatic listing at the player's next pick (the same text, the same pick count)."""
    pool = tmp_path / "pool.txt"
    pool.write_text(THREE_POOL)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_ref_c", block=str(pool), seed=5)
        game_id, referee, by_name, seats = await open_three(
            bot, servatrice.ws_url, ("ann_c", "ben_c", "cat_c")
        )
        ann, ben, cat = by_name.values()
        by_seat = {seats[name]: player for name, player in by_name.items()}
        try:
            engine = referee.engine
            assert engine.config.players == tuple(seats.values())
            # Defect 2: ann's !pack answer, then her next opening pick: one listing, not two.
            await bot_line(ann, r"ann_c to pick from", 0)
            await ann.say(game_id, "!pick 1")
            await wait_until(lambda: engine.opening_turns_done == 1, what="ann's first pick")
            await ann.say(game_id, "!pack")
            listing = "Your pack: " + "; ".join(
                f"{n}. {ref.name}" for n, ref in enumerate(engine.pack(seats["ann_c"]), start=1)
            )
            await ann.wait_private(lambda t: listing in t)
            for picker in (ben, cat):
                await picker.say(game_id, f"!pick {choose_pick(engine, seats[picker.name]) + 1}")
                await wait_until(lambda p=picker: engine.players[seats[p.name]].picks == 1, what="pick")
            await bot_line(ann, r"Opening turn 4: ann_c drafts.*ann_c to pick from", 0)
            assert sum(text.count(listing) for _, text in ann.private) == 1, ann.private

            await draft_and_basics(game_id, referee, by_seat)
            mark = ann.mark()
            await take_turn(game_id, ann, seats["ann_c"], ann, mark)
            await bot_line(ann, r"Turn 2: ben_c", mark)
            await wait_until(lambda: ann.client.games[game_id].active_player_id == seats["ben_c"], what="ben")

            mark = ann.mark()
            await cat.client.game_command(game_id, commands.concede())
            await bot_line(
                ann, r"cat_c is out \(conceded\): their pack of \d+ goes to the bottom of the shoe", mark
            )
            assert seats["cat_c"] not in engine.in_game and engine.whose_turn == seats["ben_c"]
            assert "cat_c out" in referee.status()
            await ann.say(game_id, "!packs")
            packs = await bot_line(ann, r"Packs ann_c \d+, ben_c \d+; passed \d+; shoe \d+; out: cat_c", mark)
            assert "cat_c 7" not in packs

            await take_turn(game_id, ben, seats["ben_c"], ann, mark)
            await bot_line(ann, r"Turn 3: ann_c", mark)
            await wait_until(lambda: ann.client.games[game_id].active_player_id == seats["ann_c"], what="ann")
            await ann.say(game_id, "!state")
            await bot_line(ann, r"Phase play; ann_c's turn", mark)
            await ann.phase(game_id, 2)
            await bot_line(ann, r"ann_c to pick from", mark)
            assert not any("out of step" in text for _, text in ann.heard)

            await ben.client.game_command(game_id, commands.concede())
            await bot_line(ann, r"Game over: ann_c wins", mark)
            await wait_until(lambda: bool(referee.finished), what="the game finished")
            assert "ann_c wins" in str(bot.journal.closed_reason(referee.table_key))
        finally:
            for p in by_name.values():
                await p.close()
            await bot.close()

    run(scenario(), timeout=240)


@pytest.mark.parametrize("how", ["concede", "leave", "unconcede"])
def test_the_active_player_going_ends_their_turn_and_the_next_player_plays(
    servatrice: ServatriceServer, tmp_path: Path, how: str
) -> None:
    """ben goes (concedes, or leaves the game) on his own turn with a pick owed: he is out, his turn ends
    without a pass step, and Cockatrice and the referee agree that cat plays next (her draw is a pick).
    Seen in the field: ben unconceding at once (he stays out) sent the full game state, whose placeholder
    active player (seat 0) the referee took for the real one, so cat's draw step gave her no pick."""
    pool = tmp_path / "pool.txt"
    pool.write_text(THREE_POOL)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, f"vortex_ref_{how}", block=str(pool), seed=5)
        names = (f"ann_{how}", f"ben_{how}", f"cat_{how}")
        game_id, referee, by_name, seats = await open_three(bot, servatrice.ws_url, names)
        ann, ben, cat = by_name.values()
        try:
            engine = referee.engine
            await draft_and_basics(game_id, referee, {seats[n]: p for n, p in by_name.items()})
            mark = ann.mark()
            await take_turn(game_id, ann, seats[ann.name], ann, mark)
            await bot_line(ann, rf"Turn 2: {ben.name}", mark)
            await wait_until(
                lambda: ann.client.games[game_id].active_player_id == seats[ben.name], what="ben"
            )
            await ben.phase(game_id, 2)
            await bot_line(ann, rf"{ben.name} to pick from", mark)
            passed = engine.passed_size()

            mark = ann.mark()
            if how == "leave":
                await ben.client.leave_game(game_id)
            else:
                await ben.client.game_command(game_id, commands.concede())
            why = "left the game" if how == "leave" else "conceded"
            await bot_line(ann, rf"{ben.name} is out \({why}\)", mark)
            if how == "unconcede":
                await ben.client.game_command(game_id, commands.unconcede())
                await bot_line(ann, rf"{ben.name}: you stay out of this Vortex game", mark)
            await bot_line(ann, rf"Turn 3: {cat.name}", mark)
            await wait_until(
                lambda: ann.client.games[game_id].active_player_id == seats[cat.name], what="cat"
            )
            assert engine.whose_turn == seats[cat.name] and engine.passed_size() == passed
            await cat.phase(game_id, 2)
            await bot_line(ann, rf"{cat.name} to pick from", mark)
            await ann.say(game_id, "!state")
            await bot_line(ann, rf"Phase play; {cat.name}'s turn", mark)
            assert not any("pick first" in t or "out of step" in t for _, t in ann.heard[mark:])
            assert ann.client.games[game_id].active_player_id == seats[cat.name]
        finally:
            for p in by_name.values():
                await p.close()
            await bot.close()

    run(scenario(), timeout=240)
