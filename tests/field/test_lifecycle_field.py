"""The referee's life as players meet it under the shipped settings: ``kill -9`` and a restart, seven games
asked for in a row, a player spamming commands, a bidder disconnecting mid-lot (and, registered, coming
back).
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import signal
import subprocess
import time
from collections.abc import Callable

import pytest
from auction_steps import open_first_lot, standing_bid
from field_bot import BOT_NAME, SHIPPED, Referee
from field_players import FieldPlayer, Mark, Protos
from mariadb_server import MariaDB
from scenario import arrive, close_all, combat_cod, open_game, run, seat
from servatrice import ServatriceFactory, ServatriceServer

pytestmark = pytest.mark.servatrice


def bot_seat(player: FieldPlayer, game_id: int) -> int:
    return next(pid for pid, name in player.games[game_id].names.items() if name == BOT_NAME)


async def assert_over(player: FieldPlayer, room_id: int, game_id: int) -> None:
    """The room's ``!games`` lists the game as over, or no longer lists it."""
    mark = player.mark()
    await player.room_say(room_id, "!games")
    listing = await player.line(r"Refereeing|No refereed games", since=mark)
    entry = next((part for part in listing.split("; ") if re.search(rf"#{game_id}\b", part)), None)
    assert entry is None or " over (" in entry, listing  # games in one state share an entry: "#2, #5 …"


async def kill_9_and_restart(bot: Referee, watcher: FieldPlayer) -> float:
    """``kill -9`` the referee, wait until the server has dropped it, start it again; returns when."""
    bot.kill9()
    await watcher.wait_user(BOT_NAME, present=False)
    restarted = time.monotonic()
    bot.start()
    return restarted


def sql_shipped_server(factory: ServatriceFactory, mariadb: MariaDB, *names: str) -> ServatriceServer:
    """A Servatrice in SQL mode with the shipped settings; ``names`` are registered (password
    ``field-secret``)."""
    for name in names:
        mariadb.add_user(name, "field-secret")
    return factory.start(
        dataclasses.replace(
            SHIPPED, sql_ini=mariadb.servatrice_ini(), env=tuple(mariadb.servatrice_env().items())
        )
    )


def test_kill_9_and_restart_under_auth_none(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """The room hears of the lost game within 5 s of the restart; ``!resume`` rebuilds it with the open lot
    and its standing bid, and the sale completes in the new game."""
    bot = referee(shipped_server, "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["alice_fk", "bob_fk"])
        try:
            old_game, first, second = await standing_bid(players, room_id)
            mark = second.mark()
            restarted = await kill_9_and_restart(bot, second)
            await second.line(rf"lost its seat .*!resume {old_game}\b", since=mark, timeout=10)
            assert time.monotonic() - restarted < 5.0, "the room hears of the lost game within 5 s"

            await second.room_say(room_id, f"!resume {old_game}")
            line = await second.line(rf"Game #{old_game} continues as game #\d+", since=mark, timeout=20)
            new_game = int(re.search(r"as game #(\d+)", line).group(1))  # type: ignore[union-attr]
            await seat(players, room_id, new_game)
            await second.note(rf"High bid: 1 by {first.name}\nTo bid: {second.name}", since=mark, timeout=30)
            await second.say(new_game, "!pass")
            await second.line(rf"Sold: .* to {first.name} for 1", since=mark)
        finally:
            await close_all(players)

    run(scenario(), bot)


def test_kill_9_and_restart_under_sql_auth(
    protos: Protos, servatrice_factory: ServatriceFactory, mariadb: MariaDB, referee: Callable[..., Referee]
) -> None:
    """A registered referee keeps its seat through ``kill -9``: restarted, it takes the same game back where
    it was (the standing bid holds, the sale completes there) and announces no lost game."""
    server = sql_shipped_server(servatrice_factory, mariadb, BOT_NAME)
    bot = referee(server, "--password", "field-secret", "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, ["alice_fq", "bob_fq"])
        try:
            game_id, first, second = await standing_bid(players, room_id)
            mark = second.mark()
            await kill_9_and_restart(bot, second)
            await second.wait_user(BOT_NAME)
            await asyncio.sleep(2)  # the referee reads the game back
            await second.say(game_id, "!pass")
            await second.line(rf"Sold: .* to {first.name} for 1", since=mark, timeout=20)
            assert not [text for _, _, text in second.chat(mark) if "lost its seat" in text]
        finally:
            await close_all(players)

    run(scenario(), bot)


def test_seven_games_in_a_row_are_all_answered(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Servatrice's shipped max_games_per_user is 5: the sixth and seventh requests are answered too, with
    the reason, never met with silence (the operator lets one player wait for seven games here)."""
    bot = referee(shipped_server, "--waiting-games", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["host_f7"])
        host = players[0]
        try:
            answers: list[str] = []
            for _ in range(7):
                mark = host.mark()
                await host.room_say(room_id, "!auction new 2")
                answers.append(
                    await host.line(r"Auction Magic game #\d+|no new game|cannot", since=mark, timeout=20)
                )
            opened = [a for a in answers if re.search(r"Auction Magic game #\d+", a)]
            assert len(opened) == 5, answers
            assert all("game limit" in a for a in answers[5:]), answers[5:]
        finally:
            await close_all(players)

    run(scenario(), bot)


def test_a_spammer_does_not_delay_another_users_help(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """One player sends ten game commands at once; another user's room ``!help`` is answered within 2 s."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["spam_fs", "mate_fs", "asker_fs"])
        spammer, mate, asker = players
        try:
            game_id = await open_game(spammer, room_id, "!auction new 2", "Auction Magic game")
            await seat([spammer, mate], room_id, game_id)
            await spammer.line(r"Turn order", timeout=30)
            await asyncio.sleep(11)  # a fresh flood window for everyone
            mark = asker.mark()
            await asyncio.gather(*(spammer.say(game_id, "!gold") for _ in range(10)))
            asked = time.monotonic()
            await asker.room_say(room_id, "!help")
            help_line = await asker.wait_for(
                lambda r: (
                    asker.said(r) is not None and r.kind == "Event_RoomSay" and "!auction" in r.body.message
                ),
                since=mark,
                timeout=20,
            )
            delay = help_line.at - asked
            assert delay < 2.0, f"room !help answered after {delay:.1f} s"
        finally:
            await close_all(players)

    run(scenario(), bot)


def test_a_bidder_disconnecting_mid_lot(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Three players; the high bidder's client drops mid-lot. The others are told by name (no id, no
    "conceded"), the lot goes on without them, and ``!state`` no longer lists them."""
    bot = referee(shipped_server, "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["ann_fd", "ben_fd", "cid_fd"])
        try:
            game_id = await open_game(players[0], room_id, "!auction new 3", "Auction Magic game")
            first, *_ = await open_first_lot(players, room_id, game_id)
            mark = first.mark()
            await first.say(game_id, "!bid 1")
            note = await first.note(rf"High bid: 1 by {first.name}\nTo bid: ", since=mark)
            second = next(p for p in players if f"To bid: {p.name}" in note)
            third = next(p for p in players if p not in (first, second))
            mark = third.mark()
            await second.say(game_id, "!bid 2")
            await third.note(rf"High bid: 2 by {second.name}", since=mark)
            left = third.mark()
            await second.close()
            await third.line(rf"{second.name} left the game", since=left, timeout=20)
            # The lot's note without them (it may come before or after the chat line: chat waits its turn).
            await third.note(rf"^Auction \d+: (?![\s\S]*{second.name})", since=left, timeout=20)
            said = " ".join(text for _, _, text in third.chat(mark))
            assert "conceded" not in said and not re.search(r"\bplayer \d", said), said
            mark = third.mark()
            await third.say(game_id, "!state")
            state = await third.line(r"gold", since=mark)
            assert second.name not in state and first.name in state, state
        finally:
            await close_all(players)

    run(scenario(), bot)


def test_a_registered_bidder_back_from_a_dropped_connection_hears_what_was_said(
    protos: Protos, servatrice_factory: ServatriceFactory, mariadb: MariaDB, referee: Callable[..., Referee]
) -> None:
    """SQL auth: the high bidder's client drops mid-lot and the server keeps their seat; the lot is sold to
    them meanwhile. Logging in again puts them back in the game, and the referee tells them privately what
    the game's chat said while they were away (the server does not repeat it)."""
    server = sql_shipped_server(servatrice_factory, mariadb, BOT_NAME, "ann_fr", "ben_fr")
    bot = referee(server, "--password", "field-secret", "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, ["ann_fr", "ben_fr"], "field-secret")
        try:
            game_id, first, second = await standing_bid(players, room_id)
            first_id = first.games[game_id].my_id
            mark = second.mark()
            await first.close()
            await second.wait_for(
                lambda item: (
                    item.kind == "Event_PlayerPropertiesChanged"
                    and item.player_id == first_id
                    and item.body.player_properties.ping_seconds == -1
                ),
                since=mark,
            )
            await second.say(game_id, "!pass")
            sold = await second.line(rf"Sold: .* to {first.name} for 1", since=mark)
            assert not [text for _, _, text in second.chat(mark) if "left the game" in text]

            back = await FieldPlayer.connect(protos, server.tcp_port, first.name, "field-secret")
            players[players.index(first)] = back
            recap = await back.line(
                rf"^Game #{game_id} while you were away: ", kind="Event_UserMessage", timeout=20
            )
            assert sold in recap, recap
            assert game_id in back.games and back.games[game_id].my_id == first_id  # the same seat
            assert not [text for _, _, text in second.chat(mark) if "while you were away" in text]
        finally:
            await close_all(players)

    run(scenario(), bot)


def test_the_other_bidder_disconnecting_pauses_a_two_player_game(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Two unregistered players; one drops mid-lot (the server gives the seat away). The one left is told by
    name (no id, no "conceded", no winner: a dropped connection is no loss), and the room's ``!games`` lists
    the game as paused, not in progress (``!resume`` continues it: tests/field/test_player_drop_field.py)."""
    bot = referee(shipped_server, "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["dot_fe", "eve_fe"])
        try:
            game_id, first, second = await standing_bid(players, room_id)
            mark = second.mark()
            await first.close()
            await second.line(rf"{first.name}'s connection dropped .*game #{game_id} is paused", since=mark)
            await asyncio.sleep(3)
            said = " ".join(text for _, _, text in second.chat(mark))
            assert "conceded" not in said and "wins" not in said, said
            assert not re.search(r"\bplayer \d", said), said
            mark = second.mark()
            await second.room_say(room_id, "!games")
            listing = await second.line(r"Refereeing", since=mark)
            assert re.search(rf"^Refereeing no game right now\. Paused, .*#{game_id}\b", listing), listing
        finally:
            await close_all(players)

    run(scenario(), bot)


@pytest.mark.parametrize(
    ("command", "announced", "started"),
    [
        ("!auction new 2", "Auction Magic game", r"Turn order"),
        ("!vortex new 2", "Vortex game", r"Opening turn 1"),
        pytest.param(
            "!combat new",
            "Magic Combat Rules game",
            r"Magic Combat Rules, \d+ rounds",
            marks=pytest.mark.shared_deck_lists,
        ),
    ],
)
def test_a_concession_ends_a_two_player_game(
    protos: Protos,
    shipped_server: ServatriceServer,
    referee: Callable[..., Referee],
    command: str,
    announced: str,
    started: str,
) -> None:
    """One of two players concedes in Cockatrice: the game is over, and the room's ``!games`` says so (or no
    longer lists it) instead of "in progress"."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["kim_fo", "lou_fo"])
        conceder, stayer = players
        try:
            game_id = await open_game(stayer, room_id, command, announced)
            await seat(players, room_id, game_id, deck=combat_cod())
            await stayer.line(started, timeout=30)
            await conceder.game(game_id, "Command_Concede")
            await asyncio.sleep(3)
            await assert_over(stayer, room_id, game_id)
        finally:
            await close_all(players)

    run(scenario(), bot)


STOPPED_GAMES = 11
MANY_GAMES = dataclasses.replace(SHIPPED, max_games_per_user=STOPPED_GAMES + 1)
"""The shipped flood limits (10 chat messages and 1000 characters per 10 s per connection), on a server
whose administrator lets the referee's account hold more than five games."""
DOCKER_STOP_GRACE = 10.0
"""``docker stop``'s default: SIGTERM, then SIGKILL 10 s later (systemd waits 90 s)."""


def told_of_stop(player: FieldPlayer, game_id: int, since: Mark) -> tuple[bool, bool, bool]:
    """Where ``player`` was told the referee stopped: in ``game_id``'s chat, on a card on its table whose
    annotation says so, in a room line naming the game (the server's ids: the game's events; the room line
    names ``#N``)."""
    noted = any(
        item.kind == "Event_CreateToken"
        and item.game_id == game_id
        and "The referee is stopping" in item.body.annotation
        for item in player.received[since.index :]
    )
    in_chat = in_room = False
    for item, sender, text in player.chat(since):
        if sender != BOT_NAME or "The referee is stopping" not in text:
            continue
        if item.kind == "Event_GameSay" and item.game_id == game_id:
            in_chat = True
        elif item.kind == "Event_RoomSay" and re.search(rf"#{game_id}\b", text):
            in_room = True
    return in_chat, noted, in_room


def test_a_stop_tells_every_game_while_the_referee_is_busy(
    protos: Protos, servatrice_factory: ServatriceFactory, referee: Callable[..., Referee]
) -> None:
    """Eleven started Auction games on one account, every game's chat busy (each table just asked
    ``!help``) when the operator stops the referee as ``docker stop`` does (SIGTERM, then SIGKILL
    10 s later). Every game's players are told the referee stopped and what becomes of their game: in
    their game's chat, on a note card on the referee's table, or in the room line naming their game.
    Before, the stop queued one chat line per game behind what waited and waited 3 s: with the chat busy,
    no game was told."""
    server = servatrice_factory.start(MANY_GAMES)
    bot = referee(server, "--auction-seed", "7", "--waiting-games", str(STOPPED_GAMES), verbose=True)

    async def scenario() -> None:
        names = [f"s{n}{side}_st" for n in range(STOPPED_GAMES) for side in "ab"]
        room_id, everyone = await arrive(protos, server, names)
        pairs = [everyone[n : n + 2] for n in range(0, len(everyone), 2)]
        try:
            games: list[int] = []
            for host, _ in pairs:
                mark = host.mark()
                await host.room_say(room_id, "!auction new 2")
                line = await host.line(rf"game #\d+ is open .* asked by {host.name}", since=mark, timeout=60)
                games.append(int(re.search(r"#(\d+)", line).group(1)))  # type: ignore[union-attr]
            for pair, game_id in zip(pairs, games, strict=True):
                await seat(pair, room_id, game_id)
            for host, _ in pairs:
                await host.line(r"Turn order", timeout=90)
            marks = [host.mark() for host, _ in pairs]
            await asyncio.gather(*(host.say(g, "!help") for (host, _), g in zip(pairs, games, strict=True)))
            await asyncio.sleep(0.5)  # the referee has the questions: its game chat is busy
            assert bot.process is not None
            stopped_at = time.monotonic()
            bot.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(bot.process.wait, DOCKER_STOP_GRACE)
            except subprocess.TimeoutExpired:
                bot.process.kill()  # docker's SIGKILL
                await asyncio.to_thread(bot.process.wait, 10)
            took = time.monotonic() - stopped_at
            await asyncio.sleep(1.0)  # what left before the end reaches the players
            heard = [
                told_of_stop(host, game_id, since)
                for (host, _), game_id, since in zip(pairs, games, marks, strict=True)
            ]
            chat, notes, room = (sum(told[n] for told in heard) for n in range(3))
            print(f"stop: {took:.1f} s; of {len(games)} games {chat} told in chat, {notes} by a note card,")
            print(f"{room} in the room line")
            untold = [g for g, told in zip(games, heard, strict=True) if not any(told)]
            assert not untold, f"games never told of the stop: {untold}"
        finally:
            await close_all(everyone)

    run(scenario(), bot, timeout=400)


def test_a_registered_referee_stopped_and_started_again_takes_its_stop_note_away(
    protos: Protos, servatrice_factory: ServatriceFactory, mariadb: MariaDB, referee: Callable[..., Referee]
) -> None:
    """SQL auth: a stop leaves the game's stop line on a note card on the referee's table (the chat budget
    may be spent); the referee keeps its seat, and once started again it takes the note away (it would say
    the referee stopped while it referees) and the sale goes on."""
    server = sql_shipped_server(servatrice_factory, mariadb, BOT_NAME)
    bot = referee(server, "--password", "field-secret", "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, ["ann_sn", "ben_sn"])
        try:
            game_id, first, second = await standing_bid(players, room_id)
            mark = second.mark()
            bot.stop()
            note = await second.wait_for(
                lambda item: (
                    item.kind == "Event_CreateToken"
                    and item.game_id == game_id
                    and "The referee is stopping" in item.body.annotation
                ),
                since=mark,
            )
            bot.start()
            await second.wait_for(
                lambda item: (
                    item.kind in ("Event_DestroyCard", "Event_MoveCard")
                    and item.game_id == game_id
                    and item.body.card_id == note.body.card_id
                ),
                since=mark,
                timeout=30,
            )
            await second.say(game_id, "!pass")
            await second.line(rf"Sold: .* to {first.name} for 1", since=mark, timeout=20)
        finally:
            await close_all(players)

    run(scenario(), bot)
