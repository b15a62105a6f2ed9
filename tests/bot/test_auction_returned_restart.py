"""A card given back onto the referee's table, waiting for ``!top`` / ``!bottom``, outlives a restart.

Found last session: the card waited in the referee's memory only; back in its seat after a stop, the referee
no longer knew the face-down card on its table (nameless to it), so the card was never put into the block,
``!top`` answered "drop a card on the referee's table first", and the rules still had its player hold it.

No server: the piles stand-in of :mod:`test_auction_draw_restart` (hidden zones by position, tables by id,
a face-down card nameless to the referee until it peeks).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from bot.test_auction_draw_restart import (
    GAME,
    ROOM,
    Card,
    Chat,
    Piles,
    PilesClient,
    back_in_place,
    chat_bot,
)

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.web.demo import REFEREE_SEAT, demo_bot, seat_game


async def give_back(referee: AuctionReferee, piles: Piles, seat: int, *, face_down: bool) -> int:
    """The player in ``seat`` drags their newest card onto the referee's table (as Servatrice moves it and
    tells the referee: a face-down card's name is not in the event); the card's new id."""
    card = piles.zones[seat, "table"].pop()
    moved = Card(piles.card("").id, card.name, face_down=face_down)
    piles.zones[REFEREE_SEAT, "table"].append(moved)
    piles.show()
    message = SimpleNamespace(
        start_player_id=seat,
        start_zone="table",
        card_id=card.id,
        new_card_id=moved.id,
        target_player_id=REFEREE_SEAT,
        target_zone="table",
        card_name="" if face_down else card.name,
        face_down=face_down,
    )
    event = SimpleNamespace(message=message, player_id=seat, context_name=None, is_own=False)
    event = SimpleNamespace(**vars(event), name="Event_MoveCard")
    await referee.on_game_event(event)  # type: ignore[arg-type]
    return moved.id


async def drawn_and_given_back(journal: Path, piles: Piles, *, face_down: bool) -> tuple[Any, str]:
    """The first player draws a card and gives it back; the process stops before anyone says ``!top``."""
    block = load_block("auction-sample")
    bot, _ = chat_bot(journal, piles)
    referee = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), block)
    bot.adopt_game(referee)
    await referee.start_engine()
    engine = referee.engine
    first = engine.players[0]
    referee.apply(rules.BeginTurn(player=None, active=first))
    await referee.draw_cards(first, 1)
    (index,) = engine.hand[first]
    seat = referee.seat_of(first)
    assert seat is not None
    await give_back(referee, piles, seat, face_down=face_down)
    assert len(referee.returned) == 1
    await bot.chat.flush(timeout=5)
    bot.journal.close()
    forget_peeks(piles)
    return first, block.game_names[index]


def forget_peeks(piles: Piles) -> None:
    """A new connection: the game's state names no face-down card, whoever peeked at it before."""
    for cards in piles.zones.values():
        for card in cards:
            card.revealed = False


@pytest.mark.parametrize("face_down", [True, False])
def test_a_card_given_back_is_still_known_after_a_restart_in_place(tmp_path: Path, face_down: bool) -> None:
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    piles = Piles(list(block.game_names), [1, 2])

    async def run() -> tuple[Any, str, AuctionReferee, Chat]:
        giver, name = await drawn_and_given_back(journal, piles, face_down=face_down)
        resumed, chat = await back_in_place(journal, piles)
        mark = len(chat)
        seat = resumed.seat_of(giver)
        command = SimpleNamespace(player_id=seat, sender=resumed.player_name(giver))
        async with resumed._lock:
            mine = [r for r in resumed.returned if r.player == giver]
            assert mine, "the referee still knows the card it was given"
            await resumed.place_returned(mine[-1], "top")
        await resumed.bot.chat.flush(timeout=5)
        assert command.sender
        return giver, name, resumed, chat[mark:]

    giver, name, resumed, said = asyncio.run(run())
    engine = resumed.engine
    assert engine.ref(engine.block[0]).name == name, "the card is on top of the block"
    assert all(engine.ref(i).name != name for i in engine.hand[giver])
    assert piles.zones[REFEREE_SEAT, "table"] == [], "nothing is left on the referee's table"
    assert piles.zones[REFEREE_SEAT, "deck"][0].name == name, "it is the deck's top card"
    assert piles.size(REFEREE_SEAT, "deck") == len(engine.block)
    public = " | ".join(text for (kind, _), text in said if kind != "user")
    assert f"puts {'a face-down card' if face_down else name} on the top of the block" in public, public
    if face_down:
        assert name not in public, public


def test_a_card_put_back_but_not_moved_before_a_stop_goes_into_the_deck(tmp_path: Path) -> None:
    """``!top`` journaled, the stop before the card's move: back in its seat, the referee moves it."""
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    piles = Piles(list(block.game_names), [1, 2])

    async def run() -> AuctionReferee:
        giver, name = await drawn_and_given_back(journal, piles, face_down=True)
        bot, _ = chat_bot(journal, piles)  # a process that journals the !top and stops before the move
        key = f"{bot.server_key}:game:{GAME}"
        referee = await AuctionReferee.resume(bot, GAME, ROOM, key)
        referee.apply(rules.ReturnToBlock(player=giver, card=name, position="top", face_down=True))
        bot.journal.close()
        forget_peeks(piles)
        resumed, _ = await back_in_place(journal, piles)
        return resumed

    resumed = asyncio.run(run())
    assert piles.zones[REFEREE_SEAT, "table"] == [], "nothing is left on the referee's table"
    assert piles.size(REFEREE_SEAT, "deck") == len(resumed.engine.block)
    assert resumed.returned == []


NEW_GAME = 8


def test_a_card_given_back_waits_again_in_the_game_resume_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat lost instead (``!resume``): the new game's referee puts the card on its own table, face down,
    to wait for ``!top`` / ``!bottom`` again, rather than dealing it back to the player who gave it."""
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    old_piles = Piles(list(block.game_names), [1, 2])
    made: dict[str, Any] = {}

    async def create(cls: Any, bot: Any, room_id: int, options: Any, pile_block: Any, **_: Any) -> Any:
        piles = Piles(list(pile_block.pile_names), [1, 2])
        piles.mirror = seat_game(bot, NEW_GAME, ["alice", "bobby"])
        piles.show()
        bot.client = PilesClient(bot.client, piles)
        referee = cls(bot, NEW_GAME, room_id, options, pile_block)
        bot.adopt_game(referee)
        made["piles"] = piles
        return referee

    monkeypatch.setattr(AuctionReferee, "create", classmethod(create))

    async def run() -> tuple[Any, str, AuctionReferee, Chat, list[Card]]:
        giver, name = await drawn_and_given_back(journal, old_piles, face_down=True)
        chat: Chat = []

        async def send(destination: Any, message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(journal, send)
        key = f"{bot.server_key}:game:{GAME}"
        rebuilt = await AuctionReferee.rebuild(bot, ROOM, key, "alice")
        await rebuilt.restore_board()
        await bot.chat.flush(timeout=5)
        before = list(made["piles"].zones[REFEREE_SEAT, "table"])
        async with rebuilt._lock:
            for waiting in list(rebuilt.returned):
                await rebuilt.place_returned(waiting, "top")
        return giver, name, rebuilt, chat, before

    waits: list[Any] = []
    original = AuctionReferee.place_returned

    async def place_returned(self: AuctionReferee, pending: Any, position: str) -> None:
        waits.append(pending)
        await original(self, pending, position)

    monkeypatch.setattr(AuctionReferee, "place_returned", place_returned)
    giver, name, rebuilt, chat, before = asyncio.run(run())
    piles: Piles = made["piles"]
    assert len(waits) == 1 and waits[0].player == giver and waits[0].name == name and waits[0].face_down
    (on_ours,) = before
    assert on_ours.face_down and on_ours.id == waits[0].card_id and on_ours.name == name
    seat = rebuilt.seat_of(giver)
    assert all(c.name != name for c in piles.zones[seat, "table"]), "not dealt back to its giver"
    public = " | ".join(text for (kind, _), text in chat if kind != "user")
    assert "gave back a face-down card: it waits on the referee's table" in public, public
    assert name not in public, public
    engine = rebuilt.engine
    assert engine.ref(engine.block[0]).name == name, "!top put it on top of the block"
    assert piles.zones[REFEREE_SEAT, "table"] == []
    assert piles.size(REFEREE_SEAT, "deck") == len(engine.block)


@pytest.mark.servatrice
def test_a_face_down_card_given_back_survives_a_restart_on_a_real_server(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path
) -> None:
    """SQL mode (a registered referee keeps its seat when its process dies): alice gives back the card she
    drew, face down; the referee's process dies before anyone says ``!top``; the new process, which sees that
    card nameless on its table, still takes ``!top`` for it, and it goes on top of the block unnamed."""
    from bot_players import bot_line, wait_until
    from test_auction_e2e import active_asks_to_draw, referee_of, sql_auction_site

    from cockatrice_ext.protocol import commands

    site = sql_auction_site(servatrice_factory, mariadb, tmp_path, "gb")

    async def scenario() -> None:
        bot = await site.start_bot()
        alice, bob, game_id, referee, by_id = await site.seated_game(bot)
        try:
            giver_id, giver, other, mark = await active_asks_to_draw(referee, by_id, game_id, 1)
            await giver.say(game_id, "!draw 1")
            told = await giver.wait_private(lambda t: t.startswith("You drew"))
            drawn = told.removeprefix("You drew ").split(":")[0]
            table = giver.client.games[game_id].players[giver_id].zone("table")
            await wait_until(lambda: any(c.face_down for c in table.cards), what="the drawn card, face down")
            card = next(c for c in table.cards if c.face_down)
            move = commands.move_card(
                "table", [card.id], target_player_id=referee.me, target_zone="table", x=6, y=0, face_down=True
            )
            await giver.client.game_command(game_id, move)
            await bot_line(giver, rf"{giver.name} gives back a face-down card: !top or !bottom", mark)
            await bot.client.close()  # killed: the connection drops without leaving, nothing more is sent
            bot.journal.close()

            mark = giver.mark()
            bot = await site.start_bot()
            await bot_line(giver, r"Referee back\.", mark, timeout=30)
            await giver.say(game_id, "!top")
            await bot_line(giver, rf"{giver.name} puts a face-down card on the top of the block\.", mark)
            engine = referee_of(bot, game_id).engine
            assert engine.config.cards[engine.block[0]].name == drawn
            ours = other.client.games[game_id].players[referee.me].zone("table")
            await wait_until(lambda: not ours.cards, what="the card gone from the referee's table")
            heard = [text for _, text in other.heard]
            assert not [text for text in heard if drawn in text], heard
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    asyncio.run(asyncio.wait_for(scenario(), 180))


def test_a_card_given_back_at_once_is_known_as_dealt(tmp_path: Path) -> None:
    """The drawer gives the card back the moment it lands, before the referee's look at their table found it
    there (seen on a real server: "the referee takes back only a card it dealt you"): the referee's own move
    event still says which card it dealt."""
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    piles = Piles(list(block.game_names), [1, 2])
    handed: list[tuple[int, int, int]] = []  # (id on our table, new id, seat)
    move = piles.move

    def recorded(command: Any) -> None:
        before = {c.id for c in piles.zones[REFEREE_SEAT, "table"]}
        move(command)
        seat = command.target_player_id
        if command.start_zone == "table" and seat != REFEREE_SEAT and command.target_zone == "table":
            (old,) = before - {c.id for c in piles.zones[REFEREE_SEAT, "table"]}
            handed.append((old, piles.zones[seat, "table"][-1].id, seat))

    piles.move = recorded  # type: ignore[method-assign]

    async def run() -> AuctionReferee:
        bot, _ = chat_bot(journal, piles)
        referee = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), block)
        bot.adopt_game(referee)
        await referee.start_engine()
        first = referee.engine.players[0]
        referee.apply(rules.BeginTurn(player=None, active=first))
        seat = referee.seat_of(first)
        missed = referee.wait_new_card

        async def looks_too_late(player: int, *args: Any, **kwargs: Any) -> int | None:
            if player == seat:
                return None  # the card came and went between two looks
            return await missed(player, *args, **kwargs)

        referee.wait_new_card = looks_too_late  # type: ignore[method-assign]
        await referee.draw_cards(first, 1)
        ((old, new, to),) = handed
        message = SimpleNamespace(
            start_player_id=REFEREE_SEAT,
            start_zone="table",
            card_id=old,
            new_card_id=new,
            target_player_id=to,
            target_zone="table",
            card_name="",
            face_down=True,
        )
        own = SimpleNamespace(
            message=message, player_id=REFEREE_SEAT, context_name=None, is_own=True, name="Event_MoveCard"
        )
        await referee.on_game_event(own)  # type: ignore[arg-type]
        await give_back(referee, piles, to, face_down=True)
        await bot.chat.flush(timeout=5)
        return referee

    referee = asyncio.run(run())
    assert len(referee.returned) == 1, "the referee took the card back: it had dealt it"
