"""A draw cut short by a restart in place reaches its drawer, and face-down deals keep unseen copies.

No server: the referee's piles live in a stand-in that moves cards by position in hidden zones and by id on
tables, as Servatrice does, and shows the referee what Servatrice shows it (a face-down card on its own table
has no name, hidden zones only their sizes). A "kill" stops the first process after some of the draw's game
commands; a second process on the same journal sits in the same seat (a registered account keeps it).

Found last session: "Referee back." dealt only cards lying on the referee's table, so the drawn cards still
in its spares never reached their drawer, and the engine said they held them.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.board import OwnDeck
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.client.mirror import CardState, GameMirror
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.web.demo import REFEREE_SEAT, demo_bot, seat_game

GAME, ROOM = 7, 1
Chat = list[tuple[Any, str]]


class Killed(Exception):
    """The first process died here: nothing it would have sent next reaches the server."""


@dataclass
class Card:
    id: int
    name: str
    face_down: bool = False
    annotation: str = ""
    revealed: bool = False  # peeked at by the referee: it knows the name now


class Piles:
    """The server's zones (the truth) and what it shows the referee, written into the bot's game mirror."""

    def __init__(self, names: list[str], seats: list[int]) -> None:
        rng = random.Random(3)
        deck, sb = list(names), list(names)
        rng.shuffle(deck)
        rng.shuffle(sb)
        self.zones: dict[tuple[int, str], list[Card]] = {(REFEREE_SEAT, "deck"): [], (REFEREE_SEAT, "sb"): []}
        self.next_id = 1
        for zone, cards in (("deck", deck), ("sb", sb)):
            self.zones[REFEREE_SEAT, zone] = [self.card(name) for name in cards]
        for seat in [REFEREE_SEAT, *seats]:
            self.zones[seat, "table"] = []
        self.sent = 0
        self.kill_after: int | None = None  # game-command messages the first process gets out
        self.cut_message = False  # the last message is cut after its first command (the old two messages)
        self.mirror: GameMirror | None = None

    def card(self, name: str) -> Card:
        self.next_id += 1
        return Card(self.next_id, name)

    def size(self, seat: int, zone: str) -> int:
        return len(self.zones.get((seat, zone), []))

    def show(self) -> None:
        """What the referee sees: tables (a face-down card nameless unless peeked at), hidden zones' sizes."""
        assert self.mirror is not None
        for (seat, zone), cards in self.zones.items():
            shown = self.mirror.players[seat].zone(zone)
            shown.card_count = len(cards)
            if zone == "table":
                shown.cards = [
                    CardState(
                        c.id,
                        c.name if not c.face_down or c.revealed else "",
                        face_down=c.face_down,
                        annotation=c.annotation,
                    )
                    for c in cards
                ]

    def run(self, command: Any) -> None:
        if command.HasExtension(pb.Command_MoveCard.ext):
            self.move(command.Extensions[pb.Command_MoveCard.ext])
        elif command.HasExtension(pb.Command_SetCardAttr.ext):
            attr = command.Extensions[pb.Command_SetCardAttr.ext]
            for card in self.zones[REFEREE_SEAT, "table"]:
                if card.id == attr.card_id:
                    card.annotation = attr.attr_value
        elif command.HasExtension(pb.Command_RevealCards.ext):
            reveal = command.Extensions[pb.Command_RevealCards.ext]
            for card in self.zones[REFEREE_SEAT, reveal.zone_name]:
                if card.id in reveal.card_id:
                    card.revealed = True

    def move(self, move: Any) -> None:
        source = self.zones[REFEREE_SEAT, move.start_zone]
        target = self.zones.setdefault((move.target_player_id, move.target_zone), [])
        for item in move.cards_to_move.card:
            if move.start_zone == "table":
                card = next(c for c in source if c.id == item.card_id)
                source.remove(card)
            else:  # a hidden zone: by position
                card = source.pop(item.card_id)
            if move.target_zone == "table":
                card = Card(
                    self.card("").id, card.name, face_down=bool(item.face_down), annotation=card.annotation
                )
                target.append(card)
            elif move.x == -1:
                target.append(Card(card.id, card.name))
            else:
                target.insert(0, Card(card.id, card.name))


class PilesClient:
    """The demo client with :class:`Piles` behind its game commands."""

    def __init__(self, inner: Any, piles: Piles) -> None:
        self.inner = inner
        self.piles = piles

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def game_commands(self, game_id: int, commands: list[Any], **_: Any) -> None:
        piles = self.piles
        if piles.kill_after is not None and piles.sent >= piles.kill_after:
            raise Killed
        piles.sent += 1
        cut = piles.cut_message and piles.kill_after is not None and piles.sent == piles.kill_after
        for command in commands[:1] if cut else commands:
            piles.run(command)
        piles.show()
        if cut:
            raise Killed

    async def game_command(self, game_id: int, command: Any, **_: Any) -> Any:
        dump = command.Extensions[pb.Command_DumpZone.ext]
        cards = self.piles.zones.get((dump.player_id, dump.zone_name), [])
        zone = SimpleNamespace(card_list=[SimpleNamespace(name=c.name) for c in cards])
        return SimpleNamespace(payload=SimpleNamespace(zone_info=zone))


def chat_bot(journal: Path, piles: Piles, names: tuple[str, ...] = ("alice", "bobby")) -> tuple[Bot, Chat]:
    chat: Chat = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    bot = demo_bot(journal, send)
    piles.mirror = seat_game(bot, GAME, list(names))
    piles.show()
    bot.client = PilesClient(bot.client, piles)  # type: ignore[assignment]
    return bot, chat


async def draw_cut_short(
    journal: Path,
    piles: Piles,
    count: int,
    kill_after: int,
    *,
    cut: bool = False,
    names: tuple[str, ...] = ("alice", "bobby"),
) -> tuple[Any, list[str]]:
    """A game whose first player draws ``count`` cards, the process killed after ``kill_after`` game-command
    messages of the draw (``cut``: the last of them only half sent); the drawer and the names they drew."""
    block = load_block("auction-sample")
    bot, _ = chat_bot(journal, piles, names)
    referee = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), block)
    bot.adopt_game(referee)
    await referee.start_engine()
    engine = referee.engine
    first = engine.players[0]
    referee.apply(rules.BeginTurn(player=None, active=first))
    piles.sent, piles.kill_after, piles.cut_message = 0, kill_after, cut
    with contextlib.suppress(Killed):
        await referee.draw_cards(first, count)  # as !draw does
    drawn = [block.game_names[i] for i in engine.hand[first]]
    bot.journal.close()
    return first, drawn


async def back_in_place(
    journal: Path, piles: Piles, names: tuple[str, ...] = ("alice", "bobby"), left: str = ""
) -> tuple[AuctionReferee, Chat]:
    """The second process: the same seat, the journal as it was, and the referee back; the player called
    ``left`` left the game while it was away (their seat and zones are gone, as Servatrice removes them)."""
    piles.kill_after = None
    restarted, chat = chat_bot(journal, piles, names)
    if left:
        seat = next(s.player_id for s in piles.mirror.players.values() if s.name == left)  # type: ignore[union-attr]
        del piles.mirror.players[seat]  # type: ignore[union-attr]
        for zone in [zone for zone in piles.zones if zone[0] == seat]:
            del piles.zones[zone]
    key = f"{restarted.server_key}:game:{GAME}"
    resumed = await AuctionReferee.resume(restarted, GAME, ROOM, key)
    restarted.adopt_game(resumed)
    await resumed.on_reconnected()
    await restarted.chat.flush(timeout=5)
    return resumed, chat


@pytest.mark.parametrize(
    ("kill_after", "cut"),
    [
        (0, False),  # the draw journaled, nothing moved
        (1, False),  # the first card face down on the referee's table
        (2, False),  # ... and labelled for its drawer
        (3, False),  # the first card with its drawer
        (4, False),  # the second card on its way
        (7, False),  # two with their drawer, the third on its way
        (4, True),  # the second spare out, its deck card not yet burned (two messages, as before)
    ],
)
def test_a_draw_cut_short_by_a_restart_in_place_reaches_its_drawer(
    tmp_path: Path, kill_after: int, cut: bool
) -> None:
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    piles = Piles(list(block.game_names), [1, 2])

    async def run() -> tuple[Any, list[str], AuctionReferee, Chat]:
        drawer, drawn = await draw_cut_short(journal, piles, 3, kill_after, cut=cut)
        resumed, chat = await back_in_place(journal, piles)
        return drawer, drawn, resumed, chat

    drawer, drawn, resumed, chat = asyncio.run(run())
    engine = resumed.engine
    seat = resumed.seat_of(drawer)
    assert seat is not None
    on_their_table = piles.zones[seat, "table"]
    assert sorted(c.name for c in on_their_table) == sorted(drawn), "every drawn card reached its drawer"
    assert all(c.face_down for c in on_their_table)
    assert piles.zones[REFEREE_SEAT, "table"] == [], "nothing is left on the referee's table"
    assert piles.size(REFEREE_SEAT, "deck") == len(engine.block), "the deck counts the block again"
    assert piles.size(REFEREE_SEAT, "sb") == len(block.game_names), "the spares are whole"
    public = " | ".join(text for (kind, _), text in chat if kind != "user")
    assert "Referee back." in public
    assert not any(name in public for name in drawn), public
    drawer_name = resumed.player_name(drawer)
    told = " | ".join(text for (kind, who), text in chat if kind == "user" and who == drawer_name)
    if kill_after < 7 or cut:
        assert "which you drew, " in told, told


def test_a_completed_draw_is_not_dealt_again_after_a_restart(tmp_path: Path) -> None:
    """The draw's moves all done (the process killed later): back in place, nothing more is dealt."""
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    piles = Piles(list(block.game_names), [1, 2])

    async def run() -> tuple[Any, list[str], AuctionReferee]:
        drawer, drawn = await draw_cut_short(journal, piles, 3, 9)  # the three cards' nine messages went out
        resumed, _ = await back_in_place(journal, piles)
        return drawer, drawn, resumed

    drawer, drawn, resumed = asyncio.run(run())
    seat = resumed.seat_of(drawer)
    assert sorted(c.name for c in piles.zones[seat, "table"]) == sorted(drawn)  # type: ignore[index]
    assert piles.size(REFEREE_SEAT, "deck") == len(resumed.engine.block)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize(
    "kill_after",
    [
        0,  # the draw journaled, nothing moved
        1,  # the first card face down on the referee's table, on its way
        4,  # the first card with its drawer (gone with them), the second on its way
    ],
)
def test_a_draw_cut_short_whose_drawer_left_meanwhile_leaves_the_game_with_them(
    tmp_path: Path, players: int, kill_after: int
) -> None:
    """The drawer left while the referee was away mid-draw: back in place, the drawn cards still in the
    referee's piles left the game with them (800.4a), so its deck counts the block again, nothing drawn is
    left on its table, and no drawn card is named. Before, a departure that ended the game returned before
    the draw was looked at, and one that did not (three players) was journaled first, so the draw was no
    longer the journal's last action: either way the deck kept the cards (199 against a block of 196)."""
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    names = ("alice", "bobby", "carol")[:players]
    piles = Piles(list(block.game_names), list(range(1, players + 1)))

    async def run() -> tuple[Any, list[str], AuctionReferee, Chat]:
        drawer, drawn = await draw_cut_short(journal, piles, 3, kill_after, names=names)
        resumed, chat = await back_in_place(journal, piles, names, left="alice")
        return drawer, drawn, resumed, chat

    drawer, drawn, resumed, chat = asyncio.run(run())
    engine = resumed.engine
    assert resumed.player_name(drawer) == "alice"
    assert drawer not in engine.living()
    assert engine.is_over() is (players == 2)
    assert piles.size(REFEREE_SEAT, "deck") == len(engine.block), "the deck counts the block"
    assert piles.zones[REFEREE_SEAT, "table"] == [], "no drawn card is left on the referee's table"
    assert piles.size(REFEREE_SEAT, "rfg") == 0, "nothing is exiled (face up, it would name a drawn card)"
    everything = " | ".join(text for _, text in chat)
    assert "While the referee was away: alice left the game" in everything
    assert everything.count("alice left the game.") == 1, everything  # seen twice with three players
    assert not any(name in everything for name in drawn), everything
    meta = resumed.bot.journal.table_meta(resumed.table_key)
    assert "dealing" not in meta, "settled: a later restart finds nothing to finish"


def test_a_drawer_who_leaves_mid_draw_takes_the_rest_out_of_the_game_unnamed(tmp_path: Path) -> None:
    """The referee is there: the drawer's seat goes after the first of three drawn cards reached them (the
    server removes their zones). The other two, dealt face down on their way, go into the referee's
    sideboard (outside the game), not face up into its exile, where everyone read the names the drawer
    drew; the deck counts the block."""
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    piles = Piles(list(block.game_names), [1, 2, 3])

    async def run() -> tuple[list[str], AuctionReferee]:
        bot, _ = chat_bot(journal, piles, ("alice", "bobby", "carol"))
        referee = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), block)
        bot.adopt_game(referee)
        await referee.start_engine()
        engine = referee.engine
        drawer = engine.players[0]
        referee.apply(rules.BeginTurn(player=None, active=drawer))
        seat = referee.seat_of(drawer)
        assert seat is not None
        client = bot.client
        sent = client.game_commands

        async def leaves_after_the_first(game_id: int, commands: list[Any], **kwargs: Any) -> None:
            await sent(game_id, commands, **kwargs)
            if piles.size(seat, "table") == 1 and seat in piles.mirror.players:  # type: ignore[union-attr]
                del piles.mirror.players[seat]  # type: ignore[union-attr]
                for zone in [zone for zone in piles.zones if zone[0] == seat]:
                    del piles.zones[zone]

        client.game_commands = leaves_after_the_first  # type: ignore[method-assign]
        await referee.draw_cards(drawer, 3)
        return [block.game_names[i] for i in engine.hand[drawer]], referee

    drawn, referee = asyncio.run(run())
    assert len(drawn) == 3
    assert piles.size(REFEREE_SEAT, "rfg") == 0, [c.name for c in piles.zones[REFEREE_SEAT, "rfg"]]
    assert piles.zones[REFEREE_SEAT, "table"] == []
    assert piles.size(REFEREE_SEAT, "deck") == len(referee.engine.block), "the deck counts the block"
    assert piles.size(REFEREE_SEAT, "sb") == len(block.game_names) + 2, "the two on their way are outside"


# ---------------------------------------------------------------------------------------------
# Face-down deals keep unseen copies for as long as the spares design can
# ---------------------------------------------------------------------------------------------


class Seated(AuctionReferee):
    me = REFEREE_SEAT  # type: ignore[assignment]  # our seat, without a server


def piles_referee(deck: list[tuple[str, bool]], sb: list[str], names: list[str]) -> tuple[Seated, list[Any]]:
    """A referee whose deck (name, seen) and spares are given, its card moves recorded, no server."""
    moved: list[Any] = []

    async def run(*commands: Any) -> None:
        moved.extend(commands)

    async def new_card(*_: Any, **__: Any) -> int:
        return 900 + len(moved)

    referee = Seated.__new__(Seated)
    referee.__dict__.update(
        own_deck=OwnDeck(),
        own_sb=OwnDeck(),
        on_table={},
        _notes={},
        spares_read=True,
        block=SimpleNamespace(game_names=tuple(names)),
        game_id=GAME,
    )
    referee.run = run  # type: ignore[method-assign]
    referee.wait_new_card = new_card  # type: ignore[method-assign]
    referee.table_ids = lambda *_: set()  # type: ignore[method-assign]
    referee.free_x = lambda *_: 0  # type: ignore[method-assign]
    referee.own_deck.load([n for n, _ in deck], [seen for _, seen in deck])
    referee.own_sb.load(sb)
    return referee, moved


def moved_from(command: Any) -> tuple[str, int]:
    move = command.Extensions[pb.Command_MoveCard.ext]
    return move.start_zone, move.cards_to_move.card[0].card_id


def test_a_face_up_lot_spends_a_seen_copy_and_the_next_draw_of_that_name_stays_unseen() -> None:
    """Shock (one copy) drawn from the spares, given back to the bottom, then up as a lot: the lot took the
    deck's unseen Shock, and once it came back unsold, a second draw of Shock could only deal a card whose
    id everyone had seen with its name (the fallback's INFO line)."""
    names = ["Shock", "Opt", "Duress"]
    referee, moved = piles_referee(
        [("Opt", False), ("Shock", False), ("Duress", False)], ["Shock", "Opt"], names
    )

    async def run() -> None:
        await referee.deal_face_down("Shock")  # drawn: the spare goes, the deck's top card is burned
        card_id = await referee.wait_new_card()
        await referee.table_to_own_deck(card_id, "Shock", top=False)  # given back, seen
        moved.clear()
        await referee.to_my_table(0)  # Shock up for auction, face up
        assert moved_from(moved[0]) == ("deck", len(referee.own_deck.names))  # the seen copy, at the bottom
        await referee.my_table_to_deck(0, top=False)  # unsold
        moved.clear()
        await referee.deal_face_down("Shock")  # drawn again

    asyncio.run(run())
    assert referee.own_deck.took_seen is False, "the second draw of Shock dealt a card everyone had seen"


def test_the_burn_moves_an_unseen_card_of_a_put_back_name_into_the_spares_first() -> None:
    """After a restart in place every deck card of a name put back counts as seen: an unseen Shock left in
    the deck is lost for face-down deals then, while in the spares it stays one."""
    names = ["Opt", "Shock", "Duress"]
    referee, moved = piles_referee([("Opt", False), ("Shock", False), ("Shock", True)], ["Duress"], names)
    referee.put_back_names = frozenset({"Shock"})
    asyncio.run(referee.deal_face_down("Duress"))  # a draw: the deck's burn goes to the spares
    assert referee.own_sb.names == ["Shock"] and referee.own_sb.seen == [False]
    # The restart in place: the deck is read again, its Shocks counted as seen; the spares as unseen.
    referee.own_deck.load(referee.own_deck.names, [n == "Shock" for n in referee.own_deck.names])
    referee.own_sb.load(referee.own_sb.names)
    moved.clear()
    asyncio.run(referee.deal_face_down("Shock"))
    assert moved_from(moved[0]) == ("sb", 0), "the unseen Shock is dealt from the spares"
    assert referee.own_sb.took_seen is False


# ---------------------------------------------------------------------------------------------
# The same on a real Servatrice: a registered referee keeps its seat when its process dies
# ---------------------------------------------------------------------------------------------


@pytest.mark.servatrice
@pytest.mark.parametrize("on_its_way", [False, True])
def test_a_draw_cut_short_reaches_its_drawer_on_a_real_server(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path, on_its_way: bool
) -> None:
    """SQL mode (a registered account keeps its seat): the referee's connection and journal end after the
    first of three drawn cards reached its drawer (``on_its_way``: with the second face down on the
    referee's table, nameless to it after the restart); a new process on the same journal deals the rest."""
    from bot_players import bot_line, wait_until
    from test_auction_e2e import active_asks_to_draw, referee_of, sql_auction_site

    site = sql_auction_site(servatrice_factory, mariadb, tmp_path, "dk")

    async def scenario() -> None:
        bot = await site.start_bot()
        alice, bob, game_id, referee, by_id = await site.seated_game(bot)
        try:
            drawer_id, drawer, other, mark = await active_asks_to_draw(referee, by_id, game_id, 3)

            handed = 0
            stopped = asyncio.Event()
            step = "deal_face_down" if on_its_way else "hand_over"
            original = getattr(referee, step)

            async def dies_at_the_second(*args: Any, **kwargs: Any) -> Any:
                nonlocal handed
                handed += 1
                if handed == 2 and on_its_way:
                    await original(*args, **kwargs)  # the second card face down on the referee's table
                if handed == 2:  # killed: the connection drops without leaving, nothing more is sent
                    await bot.client.close()
                    bot.journal.close()
                    stopped.set()
                    await asyncio.Event().wait()
                return await original(*args, **kwargs)

            setattr(referee, step, dies_at_the_second)
            await drawer.say(game_id, "!draw 3")
            await asyncio.wait_for(stopped.wait(), 30)
            seen = other.client.games[game_id].players[drawer_id].zone("table")
            await wait_until(lambda: len(seen.cards) == 1, what="the first drawn card on its drawer's table")
            ours = other.client.games[game_id].players[referee.me].zone("table")
            on_ours = 1 if on_its_way else 0
            await wait_until(
                lambda: len([c for c in ours.cards if c.face_down]) == on_ours, what="on its way"
            )

            mark = other.mark()
            bot = await site.start_bot()
            await bot_line(other, r"Referee back\.", mark, timeout=30)
            await wait_until(lambda: len(seen.cards) == 3, timeout=30, what="all three drawn cards")
            assert [c.name for c in seen.cards] == ["", "", ""], "face down: the other player reads no name"
            told = await drawer.wait_private(
                lambda t: "which you drew, are now on your table" in t, timeout=30
            )
            assert told.endswith("(drag them into your hand)."), told
            engine = referee_of(bot, game_id).engine
            assert len(engine.hand[drawer_id]) == 3
            await wait_until(lambda: not any(c.face_down for c in ours.cards), what="none left on its way")
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    asyncio.run(asyncio.wait_for(scenario(), 180))


@pytest.mark.servatrice
def test_a_draw_whose_drawer_left_while_the_referee_was_away_leaves_the_game_on_a_real_server(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path
) -> None:
    """SQL mode: the referee's process dies after the first of three drawn cards reached its drawer (the
    second face down on the referee's table, on its way); the drawer leaves the game meanwhile. Back in its
    seat, the referee's deck as the other player counts it is the block again, and nothing drawn is left on
    the referee's table (before: the deck kept the two cards the drawer never got)."""
    from bot_players import bot_line, wait_until
    from test_auction_e2e import active_asks_to_draw, referee_of, sql_auction_site

    site = sql_auction_site(servatrice_factory, mariadb, tmp_path, "dl")

    async def scenario() -> None:
        bot = await site.start_bot()
        alice, bob, game_id, referee, by_id = await site.seated_game(bot)
        try:
            drawer_id, drawer, other, mark = await active_asks_to_draw(referee, by_id, game_id, 3)

            handed = 0
            stopped = asyncio.Event()
            original = referee.deal_face_down

            async def dies_at_the_second(*args: Any, **kwargs: Any) -> Any:
                nonlocal handed
                handed += 1
                if handed == 2:  # the second card face down on our table, then killed
                    await original(*args, **kwargs)
                    await bot.client.close()
                    bot.journal.close()
                    stopped.set()
                    await asyncio.Event().wait()
                return await original(*args, **kwargs)

            referee.deal_face_down = dies_at_the_second  # type: ignore[method-assign]
            await drawer.say(game_id, "!draw 3")
            await asyncio.wait_for(stopped.wait(), 30)
            ours = other.client.games[game_id].players[referee.me]
            await wait_until(
                lambda: len([c for c in ours.zone("table").cards if c.face_down]) == 1, what="on its way"
            )
            await drawer.client.leave_game(game_id)
            await wait_until(
                lambda: drawer_id not in other.client.games[game_id].players, what="the drawer gone"
            )

            mark = other.mark()
            bot = await site.start_bot()
            await bot_line(other, r"While the referee was away: \S+ left the game", mark, timeout=30)
            engine = referee_of(bot, game_id).engine
            await wait_until(
                lambda: ours.zone("deck").card_count == len(engine.block),
                timeout=15,
                what=f"the deck counting the block ({ours.zone('deck').card_count} vs {len(engine.block)})",
            )
            assert not ours.zone("table").cards, "nothing drawn is left on the referee's table"
            assert not ours.zone("rfg").cards, "nothing exiled"
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    asyncio.run(asyncio.wait_for(scenario(), 180))
