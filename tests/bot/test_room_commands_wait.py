"""A room command that waits holds up nobody else.

Seen in a read-only trace: the client hands the bot one event at a time, and room commands were run right
there. A game request at the server's game limit waits for a slot it frees (up to ``SLOT_WAIT``, 20 s: the
old game's last lines and the leave wait behind a busy referee's flood budgets), and for that whole time
every game's bids and every other user's room command waited behind it. Now each user's room commands run
in order in a task of their own; a game being opened still gets its first events (they wait for its
referee, not the other way round).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, room_players, start_room_bot, wait_until
from servatrice import ServatriceConfig, ServatriceServer
from test_game_slots import ask, opened_game

SLOTS = 2


@pytest.fixture(scope="module")
def two_slots(tmp_path_factory: pytest.TempPathFactory, servatrice_binary: str) -> Iterator[ServatriceServer]:
    """A server that lets an account create two games per room (the shipped limit is five)."""
    server = ServatriceServer(
        servatrice_binary, tmp_path_factory.mktemp("servatrice"), ServatriceConfig(max_games_per_user=SLOTS)
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def run(coroutine: Any, timeout: float = 180.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def heard(player: Player, needle: str, since: int) -> int:
    """Wait for a line of the bot containing ``needle`` (game, room or private); its index in the log."""
    await player.wait_line(lambda text: needle in text, since=since, timeout=40)
    return next(i for i, (_, text) in enumerate(player.heard) if i >= since and needle in text)


@pytest.mark.servatrice
def test_a_request_waiting_for_a_slot_holds_up_no_game_and_no_other_user(
    two_slots: ServatriceServer, tmp_path: Path
) -> None:
    """Both slots are taken: hog's empty game and alice and bob's auction. victim asks for a game; closing
    hog's game to make room is slow (held here until the test lets it go, as a busy referee's flood budget
    holds it). Meanwhile alice's ``!state`` in her game and carol's ``!games`` in the room are answered, and
    both before victim hears how their request ended. Then the slot frees and victim gets a game."""

    async def scenario() -> None:
        bot = await start_room_bot(
            two_slots, tmp_path, "referee_rcw", relaxed=False, unjoined_yield_after=3600.0
        )
        room_id, players = await room_players(two_slots, "hog_rcw", "alice_rcw", "bob_rcw", "victim_rcw")
        hog, alice, bob, victim = players
        carol = await Player.connect(two_slots.ws_url, "carol_rcw")
        await carol.client.join_room(room_id)
        let_go = asyncio.Event()
        try:
            unjoined = opened_game(await ask(hog, room_id))
            playing = opened_game(await ask(alice, room_id))
            for player in (alice, bob):
                await player.sit(room_id, playing)
            await wait_until(
                lambda: bot.games[playing].table is not None, timeout=30, what="the auction started"
            )

            make_room = bot.make_room

            async def slow_make_room(*args: Any, **kwargs: Any) -> Any:
                await let_go.wait()  # the old game's last lines and leave, held by the flood budgets
                return await make_room(*args, **kwargs)

            bot.make_room = slow_make_room  # type: ignore[method-assign]
            bot.options.unjoined_yield_after = 0.0  # hog's game has waited long enough to give way

            since = victim.mark()
            await victim.client.room_say(room_id, "!auction new 2")
            await wait_until(
                lambda: any("opens as soon as a slot is free" in text for _, text in victim.private),
                timeout=40,
                what="victim told privately that the request waits for a slot",
            )

            mark_alice, mark_carol = alice.mark(), carol.mark()
            await alice.say(playing, "!state")
            await carol.client.room_say(room_id, "!games")
            state_at = await heard(alice, "gold", mark_alice)
            games_at = await heard(carol, f"#{playing}", mark_carol)
            assert not let_go.is_set()
            ended = [text for _, text in victim.heard[since:] if "victim_rcw" in text or "asked by" in text]
            assert not ended, f"victim's request ended before the others were answered: {ended}"
            assert state_at >= mark_alice and games_at >= mark_carol

            let_go.set()
            answer = await victim.wait_line(
                lambda t: "asked by victim_rcw" in t or t.startswith("victim_rcw: "), since=since, timeout=40
            )
            got = opened_game(answer)
            assert got not in (unjoined, playing) and got in bot.games
            assert playing in bot.games and not bot.games[playing].finished
        finally:
            let_go.set()
            for player in (*players, carol):
                await player.close()
            await bot.close()

    run(scenario())
