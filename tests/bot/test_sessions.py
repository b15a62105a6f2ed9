"""Several sessions, one bot: games spread over accounts, each with its own flood budget; the game
lifecycle (a finished or abandoned game is left, the server's per-account game limit is explained)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import FloodLimits, ServatriceConfig, ServatriceFactory, ServatriceServer

from cockatrice_ext.bot.auction import AuctionOptions
from cockatrice_ext.bot.runtime import Bot, BotOptions

pytestmark = pytest.mark.servatrice

BLOCK = "2 Grizzly Bears\n2 Chimney Imp\n1 Pacifism\n1 Lightning Bolt\n1 Giant Growth\n1 Serra Angel\n"


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def start_bot(url: str, tmp_path: Path, **options: Any) -> Bot:
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    bot = Bot(
        BotOptions(
            url=url,
            user="referee",
            rooms=("Bot room",),
            journal_path=tmp_path / "journal.sqlite3",
            formats=("auction",),
            format_options={"auction": AuctionOptions(block=str(block), seed=7)},
            client_options={"reconnect": False},  # shipped flood limits: the bot paces itself
            **options,
        )
    )
    await bot.start()
    return bot


async def ask_game(player: Player, room_id: int) -> str:
    """``!auction new 2`` said by ``player``: the referee's answer to them, the game announced as asked by
    them or a line addressed to them (another's announcement may still be on its way to them)."""
    who = re.escape(player.name)
    answer = re.compile(rf"Auction Magic game #\d+ .*, asked by {who}\b|^{who}: ")
    since = player.mark()
    await player.client.room_say(room_id, "!auction new 2")
    # Six announcements spend the room's 1,000 characters per 10 s: an answer may wait a window.
    return await player.wait_line(lambda t: answer.search(t) is not None, since=since, timeout=25)


def test_new_games_spread_over_the_sessions(servatrice_strict: ServatriceServer, tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = await start_bot(
            servatrice_strict.ws_url, tmp_path, extra_users=("referee_2",), max_waiting_per_user=6
        )
        alice = await Player.connect(servatrice_strict.ws_url, "alice_s")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            await alice.client.join_room(room_id)
            answers = [await ask_game(alice, room_id) for _ in range(3)]
            ids = [int(m.group(1)) for m in (re.search(r"#(\d+)", a) for a in answers) if m]
            assert len(ids) == 3, answers
            owner = {gid: session.options.user for session in bot.sessions for gid in session.games}
            # The main session answers the room: it counts a game more, so the helper opens the first two.
            assert [owner[gid] for gid in ids] == ["referee_2", "referee_2", "referee"], owner
            since = alice.mark()
            await alice.client.room_say(room_id, "!games")
            listing = await alice.wait_line(lambda t: t.startswith("Refereeing"), since=since)
            assert all(f"#{gid}" in listing for gid in ids), listing
        finally:
            await alice.close()
            await bot.close()

    run(scenario())


def test_the_sixth_game_is_explained_and_abandoned_games_are_left(
    servatrice_factory: ServatriceFactory, tmp_path: Path
) -> None:
    """Servatrice's shipped max_games_per_user is 5: the sixth request gets a reason, not silence. A game
    whose only player left before its start waits for players again (its unjoined clock closes it; a player
    leaving to choose another deck must find it there); ``!cancel`` closes it at once and frees the slot."""
    server = servatrice_factory.start(
        ServatriceConfig(flood=FloodLimits.servatrice_defaults(), max_games_per_user=5)
    )

    async def scenario() -> None:
        bot = await start_bot(server.ws_url, tmp_path, max_waiting_per_user=6)  # one player asks for six
        alice = await Player.connect(server.ws_url, "alice_l")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            await alice.client.join_room(room_id)
            lines = [await ask_game(alice, room_id) for _ in range(6)]
            assert all("Auction Magic game #" in line for line in lines[:5]), lines
            assert "no new game" in lines[5] and "game limit" in lines[5], lines[5]

            # A player sits in one game, then leaves: the game waits for players again; !cancel closes it.
            game_id = int(re.search(r"#(\d+)", lines[0]).group(1))  # type: ignore[union-attr]
            await alice.sit(room_id, game_id)
            await asyncio.sleep(0.5)
            await alice.client.leave_game(game_id)
            await bot.client.caught_up()
            assert bot.all_games()[game_id].waiting_for_players
            await alice.client.room_say(room_id, f"!cancel {game_id}")
            await wait_until(lambda: game_id not in bot.all_games(), what="the bot leaves the cancelled game")
            assert not bot.journal.has_table(f"{bot.server_key}:game:{game_id}")  # it never started
            again = await ask_game(alice, room_id)
            assert "Auction Magic game #" in again, again
        finally:
            await alice.close()
            await bot.close()

    run(scenario(), timeout=180)


def test_private_conversations_spread_over_the_sessions(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """Four joins spend the main session's chat window; the league's first private messages then come
    mostly from the helper session, each player hearing from one sender, and a player answering the helper
    is answered by it (shipped limits)."""
    from cockatrice_ext.bot.league_options import LeagueOptions

    names = ("ann_sp", "ben_sp", "cat_sp", "dan_sp")

    async def scenario() -> None:
        bot = Bot(
            BotOptions(
                url=servatrice_strict.ws_url,
                user="referee",
                rooms=("Bot room",),
                journal_path=tmp_path / "journal.sqlite3",
                formats=("autobattler",),
                format_options={"autobattler": LeagueOptions(format="autobattler", seed=5)},
                client_options={"reconnect": False},
                extra_users=("referee_2",),
            )
        )
        await bot.start()
        players = [await Player.connect(servatrice_strict.ws_url, name) for name in names]
        try:
            room_id = await players[0].client.room_id_by_name("Bot room")
            for player in players:
                await player.client.join_room(room_id)
                await player.client.room_say(room_id, "!autobattler join")
                await players[0].wait_line(lambda t, n=player.name: t.startswith(f"{n} joins"), timeout=25)
            await players[-1].client.room_say(room_id, "!autobattler start")
            for player in players:
                await player.wait_private(lambda t: t.startswith("Your shop: 1. "), timeout=25)
            senders = {player.name: {sender for sender, _ in player.private} for player in players}
            assert all(len(found) == 1 for found in senders.values()), f"one sender each: {senders}"
            by_helper = [p for p in players if senders[p.name] == {"referee_2"}]
            assert len(by_helper) >= 2, f"the busy main session kept the conversations: {senders}"
            ann = by_helper[0]

            async def answer_from(account: str) -> str:
                count = len(ann.private)
                await ann.client.send_message(account, "!swap 9 1")

                def refusals() -> list[str]:
                    return [s for s, t in ann.private[count:] if "there is no card 9 in your shop" in t]

                await wait_until(lambda: bool(refusals()), timeout=15)
                return refusals()[0]

            assert await answer_from("referee_2") == "referee_2"
            assert await answer_from("referee") == "referee"  # the main account answers what it is sent
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario())


def test_a_games_private_lines_come_from_the_session_that_referees_it(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """Seen in the second smoke test: private lines went through the session holding the player's
    conversation, not the game's, so a listing left after the public prompt that pointed to it. A game's
    private answer now comes from its own session, whoever the player talked to before."""
    from test_auction_e2e import connect_default, open_game

    async def scenario() -> None:
        bot = await start_bot(servatrice_strict.ws_url, tmp_path, extra_users=("referee_2",))
        players = [Player(await connect_default(servatrice_strict.ws_url, n)) for n in ("alice_p", "bob_p")]
        try:
            room_id = await players[0].client.room_id_by_name("Bot room")
            for player in players:
                await player.client.join_room(room_id)
            game_id = await open_game(bot, players[0], room_id)
            by_id = {await p.sit(room_id, game_id): p for p in players}
            session = next(s for s in bot.sessions if game_id in s.games)
            assert session is not bot  # a helper referees it: the main session answers the room
            referee = session.games[game_id]
            await wait_until(lambda: referee.table is not None and referee.engine.active is not None)  # type: ignore[attr-defined]
            active = by_id[int(referee.engine.active)]  # type: ignore[attr-defined]
            bot.conversations[active.name] = bot  # they had talked to the main session before
            await active.say(game_id, "!look 1")
            listing = await active.wait_private(lambda t: t.startswith("Top of the block"))
            senders = [sender for sender, text in active.private if text == listing]
            assert senders == ["referee_2"], senders
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario())
