"""Auction Magic end to end: the bot and scripted players in a real Servatrice game.

Covers, in one game: the room command, seating, gold counters, over-bid and spectator refusals,
no-bid rounds, a noncreature chain ending with a creature, ``!look`` + ``!order``, a card given
back to the block, end-of-turn income.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import FloodLimits
from cockatrice_ext.client.errors import ContextError
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice

BLOCK = """\
# A small test block: creatures and noncreatures, with duplicates.
2 Grizzly Bears
2 Chimney Imp
1 Pacifism
1 Lightning Bolt
1 Dead Weight
1 Giant Growth
1 Serra Angel
1 Augury Owl
1 Shock
1 Naturalize
"""


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def start_bot(url: str, journal: Path, block: Path, *, user: str = "referee", **extra: Any) -> Bot:
    reconnect = extra.pop("reconnect", False)
    options = BotOptions(
        url=url,
        user=user,
        password=extra.pop("password", None),
        rooms=("Bot room",),
        journal_path=journal,
        formats=("auction",),
        format_options={"auction": AuctionOptions(block=str(block), seed=7, **extra)},
        # The test server runs with relaxed flood limits, and the bot is told so.
        client_options={"reconnect": reconnect, "flood_limits": FloodLimits.unlimited()},
    )
    bot = Bot(options)
    await bot.start()
    return bot


async def open_game(bot: Bot, host: Player, room_id: int, command: str = "!auction new 2") -> int:
    since = host.mark()
    await host.client.room_say(room_id, command)
    # Only the game asked for by the host (another player's announcement may still be on its way to us).
    line = await host.wait_line(
        lambda t: "Auction Magic game #" in t and f"asked by {host.name}" in t, since=since
    )
    match = re.search(r"#(\d+)", line)
    assert match, line
    return int(match.group(1))


def referee_of(bot: Bot, game_id: int) -> AuctionReferee:
    referee = bot.games[game_id]
    assert isinstance(referee, AuctionReferee)
    return referee


@dataclass
class SqlAuctionSite:
    """A Servatrice in SQL mode (:func:`sql_auction_site`) where the referee account ``referee_SUFFIX`` and
    the players ``alice_SUFFIX`` and ``bobby_SUFFIX`` are registered (password ``secret``): the referee keeps
    its seat when its process dies, so a new process on the same journal resumes in place."""

    server: ServatriceServer
    suffix: str
    journal: Path
    block: Path

    async def start_bot(self) -> Bot:
        """A referee process on the site's journal and block (again after a restart)."""
        return await start_bot(
            self.server.ws_url, self.journal, self.block, user=f"referee_{self.suffix}", password="secret"
        )

    async def seated_game(
        self, bot: Bot, command: str = "!auction new 2"
    ) -> tuple[Player, Player, int, AuctionReferee, dict[int, Player]]:
        """alice (WebSocket) and bob (TCP) join the bot's room; alice asks for a game with ``command``; both
        sit; returns them, the game, its referee and the players by seat once the first turn is on."""
        alice = await Player.connect(self.server.ws_url, f"alice_{self.suffix}", "secret")
        bob = await Player.connect(self.server.tcp_url, f"bobby_{self.suffix}", "secret")
        room_id = await alice.client.room_id_by_name("Bot room")
        for p in (alice, bob):
            await p.client.join_room(room_id)
        game_id = await open_game(bot, alice, room_id, command)
        referee = referee_of(bot, game_id)
        by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
        await wait_until(lambda: referee.table is not None and referee.engine.active is not None)
        return alice, bob, game_id, referee, by_id


async def active_asks_to_draw(
    referee: AuctionReferee, by_id: dict[int, Player], game_id: int, count: int
) -> tuple[int, Player, Player, int]:
    """The active player says ``!draw COUNT`` once, before the turn's auction: the referee asks first (a free
    card otherwise), and the same words again draw. Returns their seat, them, the other player, and the mark
    taken before they spoke."""
    drawer_id = int(referee.engine.active)  # type: ignore[arg-type]
    drawer = by_id[drawer_id]
    other = next(player for player in by_id.values() if player is not drawer)
    mark = drawer.mark()
    await drawer.say(game_id, f"!draw {count}")
    await bot_line(drawer, r"say !draw again", mark)
    return drawer_id, drawer, other, mark


def sql_auction_site(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path, suffix: str, *, judge: bool = False
) -> SqlAuctionSite:
    """A private Servatrice in SQL mode with the accounts of :class:`SqlAuctionSite` (the referee a judge
    with ``judge``), and :data:`BLOCK` as the block."""
    from mariadb_server import sql_config

    mariadb.add_user(f"referee_{suffix}", "secret", level="judge" if judge else "user")
    for name in ("alice", "bobby"):
        mariadb.add_user(f"{name}_{suffix}", "secret", level="user")
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    server = servatrice_factory.start(sql_config(mariadb))
    return SqlAuctionSite(server, suffix, tmp_path / "journal.sqlite3", block)


async def seated_pair(
    servatrice: ServatriceServer,
    tmp_path: Path,
    block_text: str,
    suffix: str,
    *,
    user: str = "referee",
    password: str | None = None,
) -> tuple[Bot, list[Player], int, AuctionReferee, dict[int, Player]]:
    """A bot refereeing a block, two players (``alice_SUFFIX``, ``bob_SUFFIX``) seated in its game (closed
    by the caller); with ``password``, every account logs in with it (registered accounts)."""
    block = tmp_path / f"{suffix}.txt"
    block.write_text(block_text)
    journal = tmp_path / f"{suffix}.sqlite3"
    bot = await start_bot(servatrice.ws_url, journal, block, user=user, password=password)
    players = [
        await Player.connect(servatrice.ws_url, f"{name}_{suffix}", password) for name in ("alice", "bob")
    ]
    room_id = await players[0].client.room_id_by_name("Bot room")
    for p in players:
        await p.client.join_room(room_id)
    game_id = await open_game(bot, players[0], room_id)
    referee = referee_of(bot, game_id)
    by_id = {await p.sit(room_id, game_id): p for p in players}
    await wait_until(lambda: referee.table is not None and referee.engine.active is not None)
    return bot, players, game_id, referee, by_id


async def close_all(bot: Bot, players: list[Player]) -> None:
    for p in players:
        await p.close()
    await bot.close()


def gold_card(seat: Any) -> str | None:
    """The number on the Gold card of a seat's table (the referee's note of their gold, as a judge)."""
    return next((card.pt for card in seat.zone("table").cards if card.name == "Gold"), None)


def lot_note_seen(player: Player, game_id: int, bot_pid: int) -> str:
    """The note on the lot card(s) on the referee's table, as this player's client sees it."""
    cards = player.client.games[game_id].players[bot_pid].zone("table").cards
    return "\n".join(c.annotation for c in cards if c.annotation.startswith("Auction "))


async def wait_note(player: Player, game_id: int, bot_pid: int, pattern: str, timeout: float = 10.0) -> str:
    """Wait until the lot card's note matches ``pattern`` (a bid's acknowledgement: no chat needed)."""
    await wait_until(
        lambda: re.search(pattern, lot_note_seen(player, game_id, bot_pid)) is not None,
        timeout=timeout,
        what=f"lot note {pattern!r} (seen: {lot_note_seen(player, game_id, bot_pid)!r})",
    )
    return lot_note_seen(player, game_id, bot_pid)


def test_auction_game_end_to_end(servatrice: ServatriceServer, tmp_path: Path) -> None:
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", block)
        alice = await Player.connect(servatrice.ws_url, "alice_a")
        bob = await Player.connect(servatrice.ws_url, "bob_a")
        carol = await Player.connect(servatrice.ws_url, "carol_a")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob, carol):
                await p.client.join_room(room_id)
            game_id = await open_game(bot, alice, room_id)
            referee = referee_of(bot, game_id)
            by_id: dict[int, Player] = {}
            by_id[await alice.sit(room_id, game_id)] = alice
            by_id[await bob.sit(room_id, game_id)] = bob
            await carol.sit(room_id, game_id, spectator=True)

            await bot_line(alice, r"Turn order", 0)
            await wait_until(lambda: referee.table is not None and referee.engine.active is not None)
            engine = referee.engine
            assert set(engine.players) == set(by_id)
            assert len(engine.block) == 12

            bot_pid = referee.me
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            other = bob if active is alice else alice
            mark = active.mark()
            await active.phase(game_id, 2)  # draw step: the auction step replaces it
            await bot_line(active, rf"Auction 1: .* {active.name} to bid\.", mark)
            # Without judge rights everyone's gold is on the lot card's note (no counters on the bot).
            await wait_note(
                other, game_id, bot_pid, rf"To bid: {active.name}.*\nGold: .*alice_a 10, bob_a 10"
            )
            assert not alice.client.games[game_id].players[bot_pid].counters.keys() - set(range(8))

            # Refusals: over-bid, spectator, out of turn; nothing changes.
            before = engine.snapshot()
            mark = active.mark()
            await active.say(game_id, "!bid 50")
            await bot_line(active, r"you have only 10 gold", mark)
            await carol.say(game_id, "!bid 1")
            await bot_line(active, r"carol_a: spectators can watch but not play", mark)
            await other.say(game_id, "!bid 1")
            await bot_line(active, r"it is .* bid, not yours", mark)
            await other.say(game_id, "!bid banana")
            await bot_line(active, r"must be a whole number", mark)
            assert engine.snapshot() == before

            # No-bid rounds until a noncreature is up, then buy it: another auction follows (rule 5).
            lots_seen = 1
            while True:
                lot = engine.current_lot()
                assert lot is not None
                card = engine.config.cards[lot["cards"][0]["index"]]
                first = by_id[int(engine.whose_bid())]  # type: ignore[arg-type]
                second = bob if first is alice else alice
                mark = active.mark()
                if card.is_creature:
                    await first.say(game_id, "!pass")
                    await wait_note(active, game_id, bot_pid, rf"To bid: {second.name}")
                    await second.say(game_id, "!pass")
                    await bot_line(active, r"No bids: .* goes to the bottom", mark)
                    lots_seen += 1
                    await bot_line(active, rf"Auction {lots_seen}:", mark)
                    continue
                break
            # A noncreature: the first bidder buys it for 2.
            buyer = first
            await buyer.say(game_id, "!bid 2")
            await wait_note(active, game_id, bot_pid, rf"High bid: 2 by {buyer.name}\nTo bid: {second.name}")
            await second.say(game_id, "!pass")
            await bot_line(
                active, rf"Sold: {re.escape(card.name)} to {buyer.name} for 2 \(8 gold left\)", mark
            )
            await bot_line(active, r"!cast or !keep", mark)
            await buyer.say(game_id, "!keep")
            await bot_line(active, rf"{buyer.name} keeps {re.escape(card.name)}", mark)
            # Without judge rights the buyer is told exactly what to drag where, once.
            await bot_line(
                active, rf"{buyer.name}: drag {re.escape(card.name)} from your table to your hand", mark
            )
            lots_seen += 1
            await bot_line(active, rf"Auction {lots_seen}:", mark)  # the chain goes on
            # The kept card lies on the buyer's table (seat mode) for them to pick up.
            buyer_pid = next(pid for pid, p in by_id.items() if p is buyer)
            await wait_until(
                lambda: any(
                    c.name == card.name
                    for c in buyer.client.games[game_id].players[buyer_pid].zone("table").cards
                ),
                what="kept card on the buyer's table",
            )
            mark = buyer.mark()
            await buyer.say(game_id, "!gold")
            await bot_line(buyer, rf"Gold: .*{buyer.name} 8", mark)

            # Keep buying until a creature is bought: the auction step ends.
            while engine.phase == "auction":
                lot = engine.current_lot()
                if lot is None:  # a pending cast/keep choice
                    pending = next(p for p in engine.players if engine.pending_choice(p))
                    await by_id[int(pending)].say(game_id, "!cast")  # type: ignore[arg-type]
                    await wait_until(lambda: not any(engine.pending_choice(p) for p in engine.players))
                    continue
                bidder = by_id[int(engine.whose_bid())]  # type: ignore[arg-type]
                nxt = bob if bidder is alice else alice
                mark = active.mark()
                await bidder.say(game_id, "!bid 1")
                await wait_note(active, game_id, bot_pid, rf"High bid: 1 by {bidder.name}")
                await nxt.say(game_id, "!pass")
                await bot_line(active, r"Sold: ", mark)
                await wait_until(lambda: engine.current_lot() is None, what="lot closed")
            pending_players = [p for p in engine.players if engine.pending_choice(p)]
            for pid in pending_players:
                await by_id[int(pid)].say(game_id, "!cast")  # type: ignore[arg-type]
            await wait_until(
                lambda: not any(engine.pending_choice(p) for p in engine.players), what="choices"
            )
            assert engine.phase == "main"

            # !look 3 is private to the active player; !order rearranges exactly those cards.
            top_before = list(engine.block[:3])
            mark = active.mark()
            await active.say(game_id, "!look 3")
            listing = await active.wait_private(lambda t: t.startswith("Top of the block:"))
            for n, index in enumerate(top_before, start=1):
                assert f"{n}. {engine.config.cards[index].name}" in listing
            assert not any("Top of the block" in text for _, text in other.private)
            # Listed, never revealed as cards: a reveal's card ids would follow those cards into whoever
            # draws them face down later, even after a shuffle.
            for player in (active, other):
                assert not player.client.games[game_id].revealed, player.name
            await active.say(game_id, "!order 3 1 bottom 2")
            await bot_line(active, r"reorders the top of the block \(1 to the bottom\)", mark)
            assert engine.block[:2] == [top_before[2], top_before[0]]
            assert engine.block[-1] == top_before[1]

            # The buyer gives the kept card back by dropping it on the referee's table; !bottom places it.
            mirror = buyer.client.games[game_id]
            kept = next(c for c in mirror.players[buyer_pid].zone("table").cards if c.name == card.name)
            deck_before = len(referee.own_deck.names)
            mark = active.mark()
            await buyer.client.game_command(
                game_id,
                commands.move_card(
                    "table", [kept.id], target_player_id=bot_pid, target_zone="table", x=3, y=0
                ),
            )
            await bot_line(active, rf"gives back {re.escape(card.name)}", mark)
            await buyer.say(game_id, "!bottom")
            await bot_line(active, rf"puts {re.escape(card.name)} on the bottom of the block", mark)
            assert engine.config.cards[engine.block[-1]].name == card.name
            await wait_until(lambda: len(referee.own_deck.names) == deck_before + 1)
            await wait_until(
                lambda: (
                    bob.client.games[game_id].players[bot_pid].zone("deck").card_count == len(engine.block)
                ),
                what="physical block matches the engine's",
            )

            # End of turn: everyone gains 3 gold.
            gold_before = {p: engine.gold(p) for p in engine.players}
            mark = active.mark()
            await active.next_turn(game_id)
            await bot_line(active, r"Income \+3", mark)
            await wait_until(lambda: engine.active is not None and by_id.get(int(engine.active)) is other)  # type: ignore[arg-type]
            assert all(engine.gold(p) == gold_before[p] + 3 for p in engine.players)
            assert isinstance(engine, rules.AuctionEngine)
        finally:
            for p in (alice, bob, carol):
                await p.close()
            await bot.close()

    run(scenario(), timeout=180)


def test_bot_restarted_mid_auction_loses_nothing(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path
) -> None:
    """SQL mode: the bot is a registered judge; killed mid-auction, a new process resumes the same lot."""
    site = sql_auction_site(servatrice_factory, mariadb, tmp_path, "r", judge=True)

    async def scenario() -> None:
        bot = await site.start_bot()
        alice, bob, game_id, referee, by_id = await site.seated_game(bot, "!auction new 2 timer=10")
        try:
            assert referee.is_judge, f"a registered judge account referees as judge: {bot.client.user_info}"
            engine = referee.engine
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            mark = active.mark()
            await active.phase(game_id, 2)
            await bot_line(active, r"Auction 1: ", mark)
            first = by_id[int(engine.whose_bid())]  # type: ignore[arg-type]
            second = bob if first is alice else alice
            await first.say(game_id, "!bid 3")
            await wait_note(active, game_id, referee.me, rf"High bid: 3 by {first.name}")
            lot_card = engine.current_lot()["cards"][0]["name"]  # type: ignore[index]
            snapshot = engine.snapshot()

            # Kill the bot: its connection drops without leaving the game.
            await bot.client.close()
            bot.journal.close()
            await asyncio.sleep(0.5)
            mark = active.mark()
            await second.say(game_id, "!pass")  # nobody answers while the referee is away
            await asyncio.sleep(0.5)

            # A new bot process with the same journal is re-seated and resumes the open lot.
            bot = await site.start_bot()
            assert game_id in bot.games
            referee = referee_of(bot, game_id)
            engine = referee.engine
            assert engine.snapshot() == snapshot
            await bot_line(active, rf"Referee back\. .*auction 1: {re.escape(lot_card)}, high bid 3", mark)
            await bot_line(active, rf"{second.name}: 5 s left to bid", mark)  # the bid timer runs again
            await second.say(game_id, "!pass")
            await bot_line(active, rf"Sold: {re.escape(lot_card)} to {first.name} for 3", mark)
            if engine.pending_choice(next(p for p, pl in by_id.items() if pl is first)):
                await first.say(game_id, "!keep")
                await bot_line(active, rf"{first.name} keeps {re.escape(lot_card)}", mark)
                # As a judge the referee puts kept cards straight into the buyer's hand.
                first_pid = next(p for p, pl in by_id.items() if pl is first)
                await wait_until(
                    lambda: first.client.games[game_id].players[first_pid].zone("hand").card_count >= 1,
                    what="kept card in hand",
                )
            assert engine.gold(next(p for p, pl in by_id.items() if pl is first)) == 7
            # As a judge the referee keeps each player's gold on a Gold card on their own table.
            for pid, player in by_id.items():
                await wait_until(
                    lambda pid=pid, player=player: (
                        gold_card(player.client.games[game_id].players[pid]) == str(engine.gold(pid))
                    ),
                    what=f"{player.name}'s Gold card",
                )
            # !mana as a judge: the Gold card goes down and the buyer's own R counter up, acting as them.
            first_pid = next(p for p, pl in by_id.items() if pl is first)
            first_seat = first.client.games[game_id].players[first_pid]
            red_before = first_seat.counter_value("r") or 0
            await first.say(game_id, "!mana R 2")
            await wait_until(
                lambda: first_seat.counter_value("r") == red_before + 2 and gold_card(first_seat) == "5",
                what="the mana counter and the Gold card after !mana R 2",
            )
            # !sell as a judge: the referee moves the sold card from the seller's hand into the winner's.
            assert engine.lot is not None and not engine.lot.bids
            await first.say(game_id, "!stop")
            await second.say(game_id, "!stop")
            await wait_until(lambda: engine.phase == "main", what="the auction step stopped")
            second_pid = next(p for p, pl in by_id.items() if pl is second)
            second_hand = second.client.games[game_id].players[second_pid].zone("hand")
            mark = second.mark()
            await first.say(game_id, f"!sell {lot_card}")
            await bot_line(second, rf"Auction \d+: {re.escape(lot_card)} .*{second.name} to bid", mark)
            # The seller's card stays with them: the lot's note is on the referee's "Auction lot" token.
            bot_table = second.client.games[game_id].players[referee.me].zone("table")
            await wait_note(second, game_id, referee.me, rf"Auction \d+: {re.escape(lot_card)}\nNo bid yet")
            assert [c.name for c in bot_table.cards if c.annotation.startswith("Auction ")] == ["Auction lot"]
            await second.say(game_id, "!bid 1")
            await bot_line(second, rf"Sold: {re.escape(lot_card)} to {second.name} for 1", mark)
            await wait_until(lambda: all(c.name != "Auction lot" for c in bot_table.cards), what="token gone")
            await wait_until(
                lambda: [c.name for c in second_hand.cards] == [lot_card],
                what="the sold card in the winner's hand",
            )
            assert not any("drag" in text for _, text in second.heard[mark:])
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=180)


def test_three_players_and_the_bid_timer(servatrice: ServatriceServer, tmp_path: Path) -> None:
    """Free-for-all with three players; a silent bidder is warned, then passed for by the timer."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", block, bid_timeout=1.0)
        players = [await Player.connect(servatrice.ws_url, f"p{n}_timer") for n in range(3)]
        try:
            room_id = await players[0].client.room_id_by_name("Bot room")
            for p in players:
                await p.client.join_room(room_id)
            game_id = await open_game(bot, players[0], room_id, "!auction new 3")
            referee = referee_of(bot, game_id)
            by_id = {await p.sit(room_id, game_id): p for p in players}
            await wait_until(lambda: referee.table is not None and referee.engine.active is not None)
            engine = referee.engine
            assert len(engine.players) == 3
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            mark = active.mark()
            others = [p for p in players if p is not active]
            await others[0].say(game_id, "!auction")  # only the active player may start it
            await bot_line(active, rf"{others[0].name}: only the active player", mark)
            await active.say(game_id, "!auction")  # no draw step in Cockatrice: start it by hand
            await bot_line(active, r"Auction 1: ", mark)
            order = list(engine.current_lot()["bidders"])  # type: ignore[index]
            first, second, third = (by_id[int(p)] for p in order)
            await first.say(game_id, "!bid 2")
            await wait_note(
                active, game_id, referee.me, rf"High bid: 2 by {first.name}\nTo bid: {second.name}"
            )
            # The second bidder stays silent: a warning, then an automatic pass.
            await bot_line(active, rf"{second.name}: 0\.5 s left to bid", mark)
            await bot_line(active, rf"{second.name} ran out of time", mark)
            await wait_note(active, game_id, referee.me, rf"To bid: {third.name}")
            await third.say(game_id, "!pass")
            await bot_line(active, rf"Sold: .* to {first.name} for 2", mark)
        finally:
            for p in players:
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_auction_under_servatrice_default_flood_limits(
    servatrice_strict: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Servatrice's shipped flood limits: a brisk auction never draws a flood refusal, and every
    command is answered (the bot paces and merges its chat instead)."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)

    async def scenario() -> None:
        options = BotOptions(
            url=servatrice_strict.ws_url,
            user="strict_referee",
            rooms=("Bot room",),
            journal_path=tmp_path / "journal.sqlite3",
            formats=("auction",),
            format_options={"auction": AuctionOptions(block=str(block), seed=3, starting_gold=1000)},
            client_options={"reconnect": False},  # default FloodLimits: the server's shipped values
        )
        bot = Bot(options)
        await bot.start()
        floods: list[str] = []
        alice = Player(await connect_default(servatrice_strict.ws_url, "alice_s"))
        bob = Player(await connect_default(servatrice_strict.ws_url, "bob_s"))
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob):
                await p.client.join_room(room_id)
            game_id = await open_game(bot, alice, room_id)
            referee = referee_of(bot, game_id)
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            await wait_until(
                lambda: referee.table is not None and referee.engine.active is not None, timeout=30
            )
            engine = referee.engine
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            mark = active.mark()
            await active.phase(game_id, 2)
            await bot_line(active, r"Auction 1: ", mark)
            await bot.chat.flush()
            chat_before = bot.chat.sent_messages
            # Twenty-four rising bids in a row, each acknowledged (on the lot card) before the next.
            for amount in range(1, 25):
                bidder = by_id[int(engine.whose_bid())]  # type: ignore[arg-type]
                other = bob if bidder is alice else alice
                try:
                    await bidder.say(game_id, f"!bid {amount}")
                except Exception as exc:  # a refusal by the server would surface here
                    floods.append(repr(exc))
                    raise
                await wait_note(
                    bidder, game_id, referee.me, rf"High bid: {amount} by {bidder.name}\nTo bid: {other.name}"
                )
            assert engine.current_lot()["high_bid"] == 24  # type: ignore[index]
            assert not floods
            assert bot.chat.sent_messages == chat_before, "a bid's acknowledgement costs no chat message"
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    caplog.set_level(logging.INFO)
    run(scenario(), timeout=300)
    refused = [
        r.getMessage() for r in caplog.records if "Flood" in r.getMessage() or "flood" in r.getMessage()
    ]
    assert not [m for m in refused if "RespChatFlood" in m or "could not say" in m], refused


async def connect_default(url: str, name: str) -> Any:
    """A scripted player whose client paces itself like any Cockatrice user under default limits."""
    from cockatrice_ext.client import connect

    return await connect(url, name, reconnect=False)


def test_commander_auction_pregame(servatrice: ServatriceServer, tmp_path: Path) -> None:
    """90Y: commanders are auctioned before the first turn, life is 40, commander damage is tracked."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", block)
        alice = await Player.connect(servatrice.ws_url, "alice_cmd")
        bob = await Player.connect(servatrice.ws_url, "bob_cmd")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob):
                await p.client.join_room(room_id)
            await alice.client.room_say(room_id, "!auction commander 2 vortex-pool")
            await alice.wait_line(lambda t: "must have a different name" in t)  # 90Y.3: not singleton
            since = alice.mark()
            await alice.client.room_say(room_id, "!auction commander 2")
            line = await alice.wait_line(lambda t: "Commander Auction game #" in t, since=since)
            game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
            referee = referee_of(bot, game_id)
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            await wait_until(lambda: referee.table is not None and referee.engine.lot is not None, timeout=15)
            engine = referee.engine
            assert engine.phase == "pregame"
            lot = engine.current_lot()
            assert lot is not None and lot["kind"] == "commander"
            first = by_id[int(engine.whose_bid())]  # type: ignore[arg-type]
            second = bob if first is alice else alice
            mark = first.mark()
            await first.say(game_id, "!bid 2")
            await wait_note(second, game_id, referee.me, rf"High bid: 2 by {first.name}")
            await second.say(game_id, "!pass")
            await first.wait_line(lambda t: "as commander for 2" in t, since=mark)
            # The second commander lot has one bidder left; passing still gives it to them, free.
            await wait_until(lambda: engine.whose_bid() is not None)
            await second.say(game_id, "!pass")
            await first.wait_line(lambda t: "life totals are now 40" in t, since=mark)
            assert set(engine.commanders) == set(by_id)
            for pid, player in by_id.items():
                mirror = player.client.games[game_id]
                assert mirror.players[pid].counter_value("life") == 40
                name = engine.config.cards[engine.commanders[pid]].name
                await wait_until(
                    lambda m=mirror, p=pid, n=name: any(c.name == n for c in m.players[p].zone("table").cards)
                )
            # Then the first ordinary turn begins, and commander damage is recorded.
            await wait_until(lambda: engine.active is not None, timeout=15)
            victim = by_id[int(engine.active)]  # type: ignore[arg-type]
            mark = victim.mark()
            await victim.say(game_id, "!cdamage 5")
            await (bob if victim is alice else alice).wait_line(lambda t: "has taken 5 commander damage" in t)
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_a_bid_the_server_refuses_to_show_is_still_recorded_and_said_so(
    servatrice: ServatriceServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules took a bid, then the server refused a command that shows it (here the lot's note, made to
    fail as a refused command would): the bidder is told the bid was recorded, not "nothing changed", and
    the rules and the journal hold the bid."""

    async def scenario() -> None:
        bot, players, game_id, referee, by_id = await seated_pair(servatrice, tmp_path, BLOCK, "shown")
        try:
            active = by_id[int(referee.engine.active)]  # type: ignore[arg-type]
            mark = active.mark()
            await active.say(game_id, "!auction")
            await bot_line(active, r"Auction 1: ", mark)
            first = by_id[int(referee.engine.current_lot()["bidders"][0])]  # type: ignore[index]

            async def refused(card_id: int, note: str) -> None:
                raise ContextError(11, None, command="Command_SetCardAttr")

            monkeypatch.setattr(referee, "annotate", refused)
            await first.say(game_id, "!bid 3")
            said = await bot_line(active, rf"{first.name}: the referee recorded that", mark)
            assert "nothing changed" not in said, said
            lot = referee.engine.current_lot()
            assert lot is not None and lot["high_bid"] == 3 and by_id[int(lot["high_bidder"])] is first
            journaled = [entry.action for entry in bot.journal.entries(referee.table_key)]
            assert [a.get("amount") for a in journaled if "amount" in a] == [3], journaled
        finally:
            await close_all(bot, players)

    run(scenario(), timeout=120)


def test_a_game_command_sent_privately_is_pointed_to_the_games_chat(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """A seated player who writes !bid to the referee privately was told to join a league; they are told
    that game commands go in their game's chat, naming it."""

    async def scenario() -> None:
        bot, players, game_id, _referee, _by_id = await seated_pair(servatrice, tmp_path, BLOCK, "pm")
        try:
            alice = players[0]
            await alice.client.send_message(bot.client.user_name, "!bid 2")
            said = await alice.wait_private(lambda t: "game" in t)
            assert said == (
                f"Game commands go in the game's own chat (#{game_id}), not by private message; !help there."
            )
        finally:
            await close_all(bot, players)

    run(scenario())
