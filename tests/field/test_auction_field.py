"""Auction Magic in the field: ``bot run`` as the README starts it, Cockatrice-proto players, shipped limits.

A whole game (lots with bids, a sale with !keep, stop votes, a look at the top of the block, the other
player's turn, a concession) and then the hidden-card scan over everything each player received.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from auction_steps import UNIVERSE, auction_step, lot_reveals
from field_bot import BOT_NAME, SHIPPED, Referee
from field_players import FieldPlayer, Mark, Protos
from hidden_cards import CardNames, Secret, find_id_links, find_leaks, private_secrets
from scenario import Table, arrive, close_all, open_game, run, seat
from servatrice import FloodLimits as ServerFloodLimits
from servatrice import ServatriceFactory, ServatriceServer

pytestmark = pytest.mark.servatrice
BLOCK_NAMES = CardNames(UNIVERSE)


STRICTER = dataclasses.replace(SHIPPED, flood=ServerFloodLimits(10, 5, 500, 10, 4))
"""A server whose administrator halved the shipped chat budget (5 messages, 500 characters per 10 s) and
cut the game-command budget to 4 per 10 s (chat in a game counts there too)."""


@pytest.mark.parametrize("limits", ["shipped", "stricter"])
def test_auction_game_hides_what_it_must(
    protos: Protos,
    servatrice_factory: ServatriceFactory,
    referee: Callable[..., Referee],
    limits: str,
) -> None:
    """Two players, two turns, a concession; nobody is ever shown a card hidden from them, and the
    public lines name players, never ids. The buyer of the last lot concedes in Cockatrice: the cards they
    bought stay with them and the server stays up (seen: the referee's note named the card's holder as its
    owner, so Servatrice moved each such card to the table it lay on as it walked that table, and a
    concession with six bought cards crashed the whole server). On a server stricter than the shipped
    limits (the bot assumes the shipped ones) the game goes the same way: a line or card move the server
    refuses as flood is sent again (every kept card reaches its buyer), and the bot's log says it paces more
    slowly, never that something was dropped or given up."""
    server = servatrice_factory.start(SHIPPED if limits == "shipped" else STRICTER)
    bot = referee(server, "--auction-seed", "7")

    async def scenario() -> None:
        room_id, everyone = await arrive(protos, server, ["alice_fa", "bob_fa", "carol_fa"])
        *players, spectator = everyone
        try:
            started = time.monotonic()
            game_id = await open_game(players[0], room_id, "!auction new 2", "Auction Magic game")
            table = await seat(players, room_id, game_id)
            await spectator.watch(room_id, game_id)
            await players[0].line(r"Turn order", timeout=30)
            active = await table.wait_active()
            other = table.others(active)[0]

            mark = active.mark()
            await active.say(game_id, "!look 3")
            await active.line(r"^Top of the block: ", since=mark, kind="Event_UserMessage")
            await auction_step(active, other, game_id)
            await active.game(game_id, "Command_NextTurn")
            await table.wait_active()
            assert table.active() is other
            conceder = await auction_step(other, active, game_id)  # they hold the card they bought
            winner = table.others(conceder)[0]

            mark = winner.mark()
            await conceder.game(game_id, "Command_Concede")
            await winner.line(rf"Game over: {winner.name} wins", since=mark)
            await asyncio.sleep(1.0)  # what the server does at the concession is on its way
            assert server.running, f"the concession took the server down:\n{server.log_tail()}"
            seat_id = conceder.games[game_id].my_id
            returned = [  # Servatrice moves the cards a note's "Owner:" line names a player for
                item.body
                for item in winner.received[mark.index :]
                if item.kind == "Event_MoveCard"
                and item.player_id == seat_id
                and item.body.start_zone == "table"
            ]
            assert not returned, f"the concession moved the buyer's cards: {returned}"
        finally:
            await close_all(everyone)

        reveals = lot_reveals(players)
        secrets = [
            Secret(s.name, s.holders, started, reveals.get(s.name, float("inf")))
            for s in private_secrets(players, BOT_NAME, UNIVERSE)
        ]
        assert len({s.name for s in secrets}) >= 2, "the look told the active player some cards"
        leaks = find_leaks(everyone, secrets)
        assert not leaks, "\n".join(map(str, leaks))
        public = [text for p in players for item, who, text in p.chat() if item.kind != "Event_UserMessage"]
        assert not [line for line in public if re.search(r"\bplayer \d", line)], public

    run(scenario(), bot)
    log = bot.log.read_text(errors="replace")
    assert "dropped" not in log and "given up" not in log and "Traceback" not in log, log
    assert ("as flood" in log) == (limits == "stricter"), log


async def two_player_game(players: list[FieldPlayer], room_id: int) -> tuple[int, Table]:
    """``!auction new 2`` by the first player; both seated, once the turn order is said."""
    game_id = await open_game(players[0], room_id, "!auction new 2", "Auction Magic game")
    table = await seat(players, room_id, game_id)
    await players[0].line(r"Turn order", timeout=30)
    return game_id, table


async def draw_after_the_ask(drawer: FieldPlayer, game_id: int, count: int) -> tuple[float, Mark]:
    """``!draw COUNT`` twice (before the turn's auction the referee asks first: a free card otherwise; said
    again, it draws), until the drawer has the cards, and a moment for what else is said or moved about
    it; when it began (monotonic) and the drawer's mark then."""
    mark = drawer.mark()
    drawn_at = time.monotonic()
    await drawer.say(game_id, f"!draw {count}")
    await drawer.say(game_id, f"!draw {count}")
    await drawer.wait_for(lambda _: len(drawn_names(drawer, game_id, mark)) >= count, since=mark, timeout=60)
    await asyncio.sleep(3)  # the moves and lines about the draw still on their way to the others
    return drawn_at, mark


def drawn_names(drawer: FieldPlayer, game_id: int, since: Mark) -> set[str]:
    """Block cards that reached the drawer after ``since`` through what only they should read: a card moved
    onto their own area, a reveal, a private message."""
    seat_id = drawer.games[game_id].my_id
    names: set[str] = set()
    for item in drawer.received[since.index :]:
        mine = item.kind == "Event_MoveCard" and item.body.target_player_id == seat_id
        if mine or item.kind in ("Event_RevealCards", "Event_UserMessage"):
            names |= {name for text in item.strings for name in BLOCK_NAMES.find(text)}
    return names


async def draw_read_by_its_drawer_only(
    protos: Protos, server: ServatriceServer, names: list[str], count: int
) -> None:
    """Two players seated; the first to play draws ``count`` (a card effect, after the ask): they get that
    many cards, and the other player never reads their names."""
    room_id, players = await arrive(protos, server, names)
    try:
        game_id, table = await two_player_game(players, room_id)
        drawer = await table.wait_active()
        drawn_at, mark = await draw_after_the_ask(drawer, game_id, count)
    finally:
        await close_all(players)
    drawn = drawn_names(drawer, game_id, mark)
    assert len(drawn) == count, drawn
    secrets = [Secret(name, frozenset({drawer.name}), drawn_at) for name in drawn]
    leaks = find_leaks(table.others(drawer), secrets)
    assert not leaks, "\n".join(map(str, leaks))


def test_a_drawn_card_is_read_by_its_drawer_only(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """``!draw 1`` (a card effect): the drawn card goes to its drawer's hand; the other player never reads
    its name."""
    bot = referee(shipped_server, "--auction-seed", "7")
    run(draw_read_by_its_drawer_only(protos, shipped_server, ["cal_fw", "dru_fw"], 1), bot)


def test_a_look_does_not_tell_what_the_next_player_draws(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """The active player looks at the top three cards (``!look 3``), then passes the turn; the next player
    draws three (a card effect: asked first, then drawn). The looker knew those names but must not learn
    that the other drew them: a look shown as cards (a reveal) paired their ids with their names, and the
    draw deals them face down with their ids (found by a tester who decoded card ids)."""
    bot = referee(shipped_server, "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["eli_fl", "fay_fl"])
        try:
            game_id, table = await two_player_game(players, room_id)
            looker = await table.wait_active()
            drawer = table.others(looker)[0]
            mark = looker.mark()
            await looker.say(game_id, "!look 3")
            await looker.line(r"^Top of the block: ", since=mark, kind="Event_UserMessage")
            await looker.game(game_id, "Command_NextTurn")
            assert await table.wait_active() is drawer
            drawn_at, mark = await draw_after_the_ask(drawer, game_id, 3)
        finally:
            await close_all(players)
        drawn = drawn_names(drawer, game_id, mark)
        secrets = [Secret(name, frozenset({drawer.name}), drawn_at) for name in drawn]
        links = find_id_links([looker], secrets)
        assert not links, "\n".join(map(str, links))

    run(scenario(), bot)


SMALL_BLOCK = [
    "Accorder Paladin",
    "Adaptive Snapjaw",
    "Agoraphobia",
    "Ainok Bond-Kin",
    "Alms Beast",
    "Ancient Ooze",
    "Curse of Chains",
    "Dead Weight",
]
"""Eight cards of the sample block, one each: small enough to draw whole."""


def test_an_unsold_lot_drawn_later_is_not_known_by_its_card_id(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee], tmp_path: Path
) -> None:
    """A lot goes unsold (its turn ends) and to the bottom of the block; the next player shuffles the block
    and draws it all. The first player saw the lot face up, and with it its card id: dealt face down from
    the bot's deck again it would keep that id, and its draw would name it (found by a tester who decoded
    card ids). The referee deals new cards instead, whose ids nobody has seen with a name."""
    block = tmp_path / "small-block.txt"
    block.write_text("".join(f"1 {name}\n" for name in SMALL_BLOCK), encoding="utf-8")
    bot = referee(shipped_server, "--auction-block", str(block), "--auction-seed", "7")

    async def scenario() -> tuple[str, set[str], list[str]]:
        room_id, players = await arrive(protos, shipped_server, ["gus_fu", "hal_fu"])
        try:
            game_id, table = await two_player_game(players, room_id)
            seer = await table.wait_active()
            drawer = table.others(seer)[0]
            mark = seer.mark()
            await seer.phase(game_id, 2)
            opening = await seer.line(r"Auction \d+: .* to bid\.", since=mark)
            lot = next(name for name in SMALL_BLOCK if name in opening)
            await seer.game(game_id, "Command_NextTurn")
            await seer.line(rf"The turn ended during auction \d+: {lot} goes to the bottom", since=mark)
            assert await table.wait_active() is drawer
            shuffled = drawer.mark()
            await drawer.say(game_id, "!shuffle")
            await drawer.line(r"The block is shuffled \(8 cards\)", since=shuffled)
            drawn_at, mark = await draw_after_the_ask(drawer, game_id, 8)
        finally:
            await close_all(players)
        drawn = drawn_names(drawer, game_id, mark)
        secrets = [Secret(name, frozenset({drawer.name}), drawn_at) for name in drawn]
        return lot, drawn, [str(link) for link in find_id_links([seer], secrets)]

    lot, drawn, links = run(scenario(), bot)
    assert lot in drawn, (lot, drawn)  # the unsold lot was among the cards drawn face down
    assert not links, "\n".join(links)


def test_a_player_who_loses_by_drawing_hands_the_turn_on_and_state_says_so(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee], tmp_path: Path
) -> None:
    """Three players; the first to play draws past the eight-card block (a card effect) and loses, the game
    going on. Their turn is over: the referee passes it in Cockatrice (they still sit there), the next player
    in turn order has the turn, and ``!state`` names that turn, not the lost player's (seen: "Turn 1 (alice)"
    after alice had lost, and her turn held by nobody who could play it)."""
    block = tmp_path / "small-block.txt"
    block.write_text("".join(f"1 {name}\n" for name in SMALL_BLOCK), encoding="utf-8")
    bot = referee(shipped_server, "--auction-block", str(block), "--auction-seed", "7")

    async def scenario() -> tuple[str, str, str, list[str]]:
        room_id, players = await arrive(protos, shipped_server, ["ida_fd", "jon_fd", "kim_fd"])
        try:
            game_id = await open_game(players[0], room_id, "!auction new 3", "Auction Magic game")
            table = await seat(players, room_id, game_id)
            opening = await players[0].line(r"Turn order", timeout=30)
            order = re.search(r"Turn order ([^.]+)\.", opening).group(1).split(", ")  # type: ignore[union-attr]
            loser = await table.wait_active()
            following = order[(order.index(loser.name) + 1) % len(order)]
            watcher = next(p for p in table.others(loser) if p.name != following)
            mark, asking = watcher.mark(), loser.mark()
            await loser.say(game_id, "!draw 9")  # asked first (a free card otherwise), then drawn
            await loser.line(r"say !draw again", since=asking)
            await loser.say(game_id, "!draw 9")
            await watcher.line(rf"{loser.name} lost by drawing from the empty block\.", since=mark)
            deadline = asyncio.get_running_loop().time() + 30
            while table.active() is loser:  # the referee hands the lost player's turn on
                assert asyncio.get_running_loop().time() < deadline, "the lost player kept the turn"
                await asyncio.sleep(0.05)
            now = table.active().name
            asked = watcher.mark()
            await watcher.say(game_id, "!state")
            heard = await watcher.line(r"(^| \| )Turn \d+\b", since=asked)  # lines merge into one message
            state = next(part for part in heard.split(" | ") if part.startswith("Turn "))
            said = [text for _, _, text in watcher.chat(mark)]
        finally:
            await close_all(players)
        return following, now, state, said

    following, now, state, said = run(scenario(), bot)
    assert now == following, (now, following)
    assert state.startswith(f"Turn 2 ({following});"), state
    assert sum(" lost" in line for line in said) == 1, said
