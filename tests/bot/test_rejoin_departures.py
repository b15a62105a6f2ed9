"""A referee whose own connection dropped and came back takes nobody for gone from its own missing view.

Seen in the operator's smoke test (a registered bot's connection frozen through a relay, then back): the
bot rejoined, then journaled ``RemovePlayer reason=left`` for every Vortex player in turn (an auction:
``DeclareLoss reason=left``) and closed the game, while the players had been there all along. After a
reconnect the client starts the game's mirror anew from ``Event_GameJoined`` (no seats) and fills it with
the ``Event_GameStateChanged`` that follows; the ``Event_PlayerPropertiesChanged`` the server sends when
our seat is connected again was handled in between, and every engine player without a seat was "left".

Also: a restart (seat kept) right after a journaled ``!keep`` whose card move never ran left the card on
the referee's table for good; the referee now finishes that move when it is back.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import ClientEvent, Disconnected, Reconnected
from cockatrice_ext.client.mirror import CardState, GameMirror
from cockatrice_ext.formats import auction as auction_rules
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.web.demo import REFEREE_NAME, REFEREE_SEAT, demo_bot, seat_game

GAME, ROOM = 7, 1
Chat = list[tuple[Any, str]]


def chat_bot(journal: Path) -> tuple[Bot, Chat]:
    chat: Chat = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    return demo_bot(journal, send), chat


def joined_again(bot: Bot) -> None:
    """What the client does with ``Event_GameJoined`` on a rejoin: the game's mirror starts anew, no seats
    yet (its ``Event_GameStateChanged`` follows)."""
    bot.client.games[GAME] = GameMirror(
        game_id=GAME, room_id=ROOM, local_player_id=REFEREE_SEAT, started=True
    )


def our_seat_connected(player_id: int = REFEREE_SEAT) -> ClientEvent:
    """The ``Event_PlayerPropertiesChanged`` (``Context_ConnectionStateChanged``) of a seat connected again:
    the server sends ours before the login's answer, so it is handled while the mirror is being rebuilt."""
    message = pb.Event_PlayerPropertiesChanged()
    message.player_properties.ping_seconds = 0
    return ClientEvent(
        "game",
        message,
        room_id=ROOM,
        game_id=GAME,
        player_id=player_id,
        context=pb.Context_ConnectionStateChanged(),
    )


def leave(player_id: int) -> ClientEvent:
    message = pb.Event_Leave(reason=pb.Event_Leave.USER_LEFT)
    return ClientEvent("game", message, room_id=ROOM, game_id=GAME, player_id=player_id)


async def reconnect(bot: Bot, players: list[str], *, during: list[ClientEvent] | None = None) -> None:
    """The connection drops and comes back with the events in the racy order: our seat's connection event
    and a stray leave handled while the game's mirror has no seats, then the state (``players`` seated),
    then the event again, then ``Reconnected``."""
    await bot.on_event(Disconnected("no data from the server for 16.0s", True))
    joined_again(bot)
    for event in during or [our_seat_connected()]:
        await bot.on_event(event)
    seat_game(bot, GAME, players)
    await bot.on_event(our_seat_connected())
    await bot.on_event(Reconnected(1, REFEREE_NAME, (ROOM,), (GAME,), ()))
    await bot.chat.flush(timeout=5)


def actions(bot: Bot) -> list[str]:
    return [str(entry.action["type"]) for entry in bot.journal.entries(f"{bot.server_key}:game:{GAME}")]


async def vortex_game(journal: Path, players: list[str]) -> tuple[Bot, VortexReferee, Chat]:
    bot, chat = chat_bot(journal)
    seat_game(bot, GAME, players)
    referee = VortexReferee(
        bot, GAME, ROOM, VortexOptions(seats=len(players), seed=5), load_block("vortex-pool")
    )
    await started(bot, referee, chat)
    return bot, referee, chat


async def started(bot: Bot, referee: Any, chat: Chat) -> None:
    """``referee``'s game adopted and its engine started, what it said at the start forgotten."""
    bot.adopt_game(referee)
    await referee.start_engine()
    await bot.chat.flush(timeout=5)
    chat.clear()


def test_a_vortex_referee_back_from_a_dropped_connection_takes_nobody_for_gone(tmp_path: Path) -> None:
    async def run() -> tuple[list[str], VortexReferee, Chat]:
        bot, referee, chat = await vortex_game(tmp_path / "j.sqlite3", ["alice", "bobby", "carla"])
        await reconnect(bot, ["alice", "bobby", "carla"], during=[our_seat_connected(), leave(REFEREE_SEAT)])
        return actions(bot), referee, chat

    journaled, referee, chat = asyncio.run(run())
    assert "RemovePlayer" not in journaled
    assert not referee.finished and not referee.closed
    assert len(referee.engine.in_game) == 3
    said = " | ".join(text for _, text in chat)
    assert "Referee back." in said and "out (" not in said


def test_a_vortex_player_gone_while_the_referee_was_away_is_settled_once_with_a_line(
    tmp_path: Path,
) -> None:
    async def run() -> tuple[list[str], VortexReferee, Chat]:
        bot, referee, chat = await vortex_game(tmp_path / "j.sqlite3", ["alice", "bobby", "carla"])
        await reconnect(bot, ["alice", "carla"])  # bobby left while the referee's connection was gone
        return actions(bot), referee, chat

    journaled, referee, chat = asyncio.run(run())
    assert journaled.count("RemovePlayer") == 1
    assert [referee.player_name(p) for p in referee.engine.out] == ["bobby"]
    assert not referee.finished
    said = " | ".join(text for _, text in chat)
    assert "While the referee was away: bobby left the game." in said
    assert "Referee back." in said


async def auction_game(journal: Path, bot: Bot | None = None) -> tuple[Bot, AuctionReferee, Chat]:
    chat: Chat = []
    if bot is None:
        bot, chat = chat_bot(journal)
    seat_game(bot, GAME, ["alice", "bobby"])
    referee = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), load_block("auction-sample"))
    await started(bot, referee, chat)
    return bot, referee, chat


def test_an_auction_referee_back_from_a_dropped_connection_takes_nobody_for_gone(tmp_path: Path) -> None:
    async def run() -> tuple[list[str], AuctionReferee, Chat]:
        bot, referee, chat = await auction_game(tmp_path / "j.sqlite3")
        await reconnect(bot, ["alice", "bobby"], during=[our_seat_connected(), leave(REFEREE_SEAT)])
        return actions(bot), referee, chat

    journaled, referee, chat = asyncio.run(run())
    assert "DeclareLoss" not in journaled and "Concede" not in journaled
    assert not referee.engine.is_over() and not referee.finished and not referee.closed
    said = " | ".join(text for _, text in chat)
    assert "Referee back." in said and "left the game" not in said


class MovingClient:
    """The demo client, except that card moves between tables show in the game's mirror (a new id on the
    target table, as the server gives it) and are recorded."""

    def __init__(self, client: Any) -> None:
        self.inner = client
        self.moves: list[tuple[int, str, int, str]] = []  # (card id, its name, target seat, target zone)
        self.face_down: list[bool] = []  # whether each move left its card face down
        self._next_id = 1000

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def game_commands(self, game_id: int, commands: list[Any], **_: Any) -> None:
        mirror = self.inner.games[game_id]
        for wrapper in commands:
            move = wrapper.Extensions[pb.Command_MoveCard.ext]
            if not wrapper.HasExtension(pb.Command_MoveCard.ext) or move.start_zone != "table":
                continue
            source = mirror.players[mirror.local_player_id].zone("table")
            for item in move.cards_to_move.card:
                card = source.find(item.card_id)
                if card is None:
                    continue
                source.cards.remove(card)
                self.moves.append((item.card_id, card.name, move.target_player_id, move.target_zone))
                self.face_down.append(item.face_down)
                self._next_id += 1
                target = mirror.players[move.target_player_id].zone(move.target_zone)
                target.cards.append(CardState(self._next_id, card.name))


def test_a_restart_after_a_journaled_keep_finishes_the_card_move(tmp_path: Path) -> None:
    """The buyer's ``!keep`` was journaled (gold spent) and the process killed before the card left the
    referee's table: back in its seat, the referee moves the card to the buyer and says so once."""
    journal = tmp_path / "j.sqlite3"

    async def run() -> tuple[MovingClient, str, Chat, AuctionReferee]:
        bot, referee, _ = await auction_game(journal)
        engine = referee.engine
        first = engine.players[0]
        referee.apply(auction_rules.BeginTurn(player=None, active=first))
        referee.apply(auction_rules.StartAuctionStep(player=None))
        lot = engine.lot
        assert lot is not None
        name = referee.block.game_names[lot.cards[0]]
        bidder = lot.whose_bid()
        other = next(p for p in engine.players if p != bidder)
        referee.apply(auction_rules.Bid(player=bidder, amount=1))
        referee.apply(auction_rules.Pass(player=other))
        referee.apply(auction_rules.Keep(player=bidder))  # journaled; killed before perform moved the card
        assert engine.hand[bidder]
        buyer = referee.player_name(bidder)
        bot.journal.close()

        restarted, chat = chat_bot(journal)
        mirror = seat_game(restarted, GAME, ["alice", "bobby"])
        mirror.players[REFEREE_SEAT].zone("table").cards.append(CardState(55, name))  # still on our table
        client = MovingClient(restarted.client)
        restarted.client = client  # type: ignore[assignment]
        key = f"{restarted.server_key}:game:{GAME}"
        resumed = await AuctionReferee.resume(restarted, GAME, ROOM, key)
        restarted.adopt_game(resumed)
        await resumed.on_reconnected()
        await restarted.chat.flush(timeout=5)
        assert mirror.players[REFEREE_SEAT].zone("table").find(55) is None
        seat = resumed.seat_of(bidder)
        assert seat is not None
        assert client.moves == [(55, name, seat, "table")]
        return client, f"{name}, {buyer}'s, is now on their table (drag it into your hand).", chat, resumed

    _, line, chat, _ = asyncio.run(run())
    said = [text for _, text in chat]
    assert len([text for text in said if line in text]) == 1
    assert any(text.startswith("Referee back.") for text in said)


def test_a_restart_after_a_journaled_draw_deals_the_card_on_face_down_and_names_it_privately(
    tmp_path: Path,
) -> None:
    """A draw was journaled and the process killed while the card lay face down on the referee's table: back
    in its seat, the referee moves it on face down and tells its name to the drawer alone (it was moved
    face up and named to the whole table: found by the card-id re-check)."""
    journal = tmp_path / "j.sqlite3"

    async def run() -> tuple[MovingClient, str, str, Chat]:
        bot, referee, _ = await auction_game(journal)
        engine = referee.engine
        first = engine.players[0]
        referee.apply(auction_rules.BeginTurn(player=None, active=first))
        referee.apply(auction_rules.Draw(player=first, count=1))  # journaled; killed before the card moved on
        (index,) = engine.hand[first]
        name, drawer = referee.block.game_names[index], referee.player_name(first)
        bot.journal.close()

        restarted, chat = chat_bot(journal)
        mirror = seat_game(restarted, GAME, ["alice", "bobby"])
        mirror.players[REFEREE_SEAT].zone("table").cards.append(CardState(56, name, face_down=True))
        client = MovingClient(restarted.client)
        restarted.client = client  # type: ignore[assignment]
        resumed = await AuctionReferee.resume(restarted, GAME, ROOM, f"{restarted.server_key}:game:{GAME}")
        restarted.adopt_game(resumed)
        await resumed.on_reconnected()
        await restarted.chat.flush(timeout=5)
        seat = resumed.seat_of(first)
        assert client.moves == [(56, name, seat, "table")] and client.face_down == [True]
        return client, name, drawer, chat

    _, name, drawer, chat = asyncio.run(run())
    assert [text for (kind, _), text in chat if kind != "user" and name in text] == []
    told = [text for (kind, who), text in chat if kind == "user" and who == drawer]
    assert f"{name}, which you drew, is now on your table (drag it into your hand)." in told


def test_resume_after_a_server_restart_that_gives_the_number_again_continues_the_game(tmp_path: Path) -> None:
    """A server without a database counts games from 1 after a restart: ``!resume 1`` as the room was told
    opened game 1 again, which moved the old record to ``1@1`` in the middle of the command; the player read
    "game #1's record cannot be replayed (no table 'demo://...:game:1')", then "say !resume 1@1", and the
    new empty game stayed open. The record is now resolved before the new game is created."""

    async def run() -> tuple[int, dict[str, str], list[str], Chat]:
        bot, referee, chat = await vortex_game(tmp_path / "j.sqlite3", ["alice", "bobby"])
        game_id = referee.game_id
        bot.forget_game(game_id, keep_lease=True)  # the server restarted: the seat is gone
        del bot.client.games[game_id]
        assert list(bot.lost_games()) == [str(game_id)]
        opened: list[int] = []

        async def open_again(room_id: int, **_: Any) -> int:
            opened.append(game_id)  # the restarted server numbers the new game as the old one
            seat_game(bot, game_id, [])
            return game_id

        async def nothing(*_: Any, **__: Any) -> None:
            return None

        bot._open_game = open_again  # type: ignore[method-assign]
        bot.client.select_deck = nothing  # type: ignore[attr-defined]
        bot.client.ready_start = nothing  # type: ignore[attr-defined]
        resumed = await bot.rebuild_game(ROOM, str(game_id), "alice")
        await bot.chat.flush(timeout=5)
        key = f"{bot.server_key}:game:{game_id}"
        meta = bot.journal.table_meta(resumed.table_key)
        return (
            resumed.game_id,
            {"key": resumed.table_key, "from": str(meta.get("rebuilt_from"))},
            [str(bot.journal.closed_reason(f"{key}@1"))],
            chat,
        )

    new_id, tables, closed, chat = asyncio.run(run())
    assert new_id == GAME
    assert tables["key"].endswith(f":game:{GAME}") and tables["from"].endswith(f":game:{GAME}@1")
    assert closed == [f"resumed as game {GAME}"]
    assert not [text for _, text in chat if "numbered again" in text or "record" in text]


def test_a_resume_that_fails_after_opening_its_game_leaves_no_game_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new game was opened, then the record could not be continued: the player hears why (without the
    journal's table key), the opened game is left, and the record keeps its number for another try."""
    from cockatrice_ext.journal import JournalError

    async def run() -> tuple[str, list[int], list[str], bool]:
        bot, referee, _ = await vortex_game(tmp_path / "j.sqlite3", ["alice", "bobby"])
        game_id = referee.game_id
        bot.forget_game(game_id, keep_lease=True)
        del bot.client.games[game_id]
        new_id = game_id + 1
        left: list[int] = []

        async def open_new(room_id: int, **_: Any) -> int:
            seat_game(bot, new_id, [])
            return new_id

        async def nothing(*_: Any, **__: Any) -> None:
            return None

        async def leave_game(gid: int) -> None:
            left.append(gid)

        def broken(self: Any, key: str, meta: Any, names: Any) -> None:
            raise JournalError(f"table {key!r}: damaged", key=key, public="damaged")

        monkeypatch.setattr(VortexReferee, "continue_table", broken)
        bot._open_game = open_new  # type: ignore[method-assign]
        bot.client.select_deck = nothing  # type: ignore[attr-defined]
        bot.client.ready_start = nothing  # type: ignore[attr-defined]
        bot.client.leave_game = leave_game  # type: ignore[attr-defined]
        with pytest.raises(NotAllowed) as refused:
            await bot.rebuild_game(ROOM, str(game_id), "alice")
        return (
            str(refused.value),
            left,
            list(bot.lost_games()),
            bot.unreplayable_games(),
            new_id in bot.all_games(),
        )

    said, left, lost, unreplayable, still_refereed = asyncio.run(run())
    assert "damaged" in said and "game:" not in said and "demo://" not in said
    assert left == [GAME + 1] and not still_refereed
    # Its record is kept, no longer offered as lost (a !resume would fail again): !games names it as a record
    # this version cannot replay.
    assert lost == [] and list(unreplayable) == [str(GAME)] and "damaged" in unreplayable[str(GAME)]
