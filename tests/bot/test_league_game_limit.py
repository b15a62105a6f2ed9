"""League games and Servatrice's limit of games per account (``max_games_per_user``).

Seen in the field (8-player AutoBattler, shipped settings): the referee left each league game as soon as
its result was recorded, so it was no longer the game's host, and the game (its players still in it, as a
real client stays until the tab is closed) counted against the referee's account until its last player
left. Once five such games existed, no league game could be opened: its players were told only that "the
referee could not open your game", and it was never tried again. Now a finished league game lingers with
the referee as its host; when the limit is hit the bot closes it (its players told, then kicked) and opens
the new game; a game the server still refuses waits, and the league tries again.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceConfig
from test_market_e2e import league_in_round_one, private, start_bot, tell

from cockatrice_ext.bot import league_games, league_pairings
from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.formats import league as core
from tests.bot.test_league_stand_in import market_desk

SERVER_SAYS = (
    "no new game: this server limits how many games one account creates per room, and the referee's earlier"
    " games still have players in them"
)


@pytest.mark.servatrice
def test_a_finished_league_game_is_closed_to_make_room_for_the_next_round(
    servatrice_factory: Any, tmp_path: Path
) -> None:
    """The referee's account may hold two games; one is taken by another game of its own. Round 1's game
    ends with both players still in it: the referee stays (it says the game is over); round 2's game needs
    the slot, so the referee tells the old game it closes, kicks its players, and round 2's game opens."""
    server = servatrice_factory.start(ServatriceConfig(max_games_per_user=2))

    async def scenario() -> None:
        bot = await start_bot(server.ws_url, tmp_path / "journal.sqlite3")
        names = ("alice_mr", "bob_mr")
        players = {name: await Player.connect(server.ws_url, name) for name in names}
        alice, bob = players.values()
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            await bot.client.create_game(room_id, description="another game", max_players=2)
            room_id, league = await league_in_round_one(bot, players)
            game_id = next(iter(league.games))
            for player in players.values():
                await player.client.join_game(room_id, game_id)
            mark = alice.mark()
            await tell(alice, "!result win")
            await tell(bob, "!result loss")
            await alice.wait_line(lambda t: "This game is over: please leave it" in t, since=mark)
            assert game_id not in league.games  # the league is done with it...
            assert bot.games[game_id].finished and game_id in bot.client.games  # ...the referee stays
            engine = league.engine
            await wait_until(lambda: engine.phase == "market", what="market open")
            while engine.phase == "market":  # both pass: round 2 starts
                turn = engine.whose_turn()
                assert turn is not None
                await tell(players[turn], "!pass")
                await wait_until(
                    lambda turn=turn: engine.phase != "market" or engine.whose_turn() != turn, what="pass"
                )
            note = await private(alice, r"Round 2: your game vs bob_mr is #\d+")
            new_id = int(re.search(r"is #(\d+)", note).group(1))  # type: ignore[union-attr]
            assert new_id != game_id and list(league.games) == [new_id]
            await alice.wait_line(lambda t: t == league_games.CLOSED_FOR_ROOM, since=mark)
            await wait_until(lambda: game_id not in bot.games, what="old game left")
            assert not [t for _, t in alice.private if "could not open" in t or "cannot open" in t]
        finally:
            for player in players.values():
                await player.close()
            await bot.close()

    asyncio.run(asyncio.wait_for(scenario(), 120))


# -- a pairing whose game the server refuses waits, and is tried again ------------------------------------


class _OpenedGame:
    """What LeagueGame.create returns once the server lets the game open (no server here)."""

    watching = False

    def __init__(self, game_id: int, round_no: int, players: tuple[str, ...]) -> None:
        self.game_id, self.round_no, self.players = game_id, round_no, players


def test_a_game_the_server_refuses_waits_and_opens_when_a_slot_is_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    desk, bot = market_desk()
    tries: list[tuple[str, ...]] = []
    refuse = [True]

    async def create(
        cls: Any, bot_: Any, league: LeagueReferee, round_no: int, players: tuple[str, ...]
    ) -> Any:
        tries.append(players)
        if refuse[0]:
            raise NotAllowed(SERVER_SAYS + ". Leave finished games (they close when empty)")
        return _OpenedGame(41, round_no, players)

    monkeypatch.setattr(LeagueGame, "create", classmethod(create))
    effects = draft_through(desk)
    bot.said.clear()
    asyncio.run(desk.perform(effects))  # round 1 starts: its game cannot open
    assert tries == [("al", "bo")]
    told = [line for line in bot.said if line.startswith(("al: ", "bo: "))]
    assert len([t for t in told if SERVER_SAYS in t and "opens it as soon as the server lets it" in t]) == 2
    assert not any("could not open your game" in line for line in bot.said)
    room = [line for line in bot.said if not line.startswith(("al: ", "bo: "))]
    assert len([line for line in room if "will not open more games" in line]) == 1
    assert any("round 1 al vs bo waits for a free game slot" in line for line in desk.cut_games())
    status = [line for line in league_status(desk, bot, "al") if "waits for a free game slot" in line]
    assert status, "status does not say the game waits"
    assert bot.journal.table_meta(desk.key)["waiting"] == [[1, "al", "bo"]]

    now = time.monotonic()
    bot.said.clear()
    asyncio.run(desk.open_waiting_games(now))  # too soon after the last try: no command to the server
    assert len(tries) == 1
    asyncio.run(
        desk.open_waiting_games(now + league_pairings.WAIT_RETRY + 1)
    )  # refused again: nobody told again
    assert len(tries) == 2 and bot.said == []
    refuse[0] = False
    asyncio.run(desk.open_waiting_games(now + 2 * league_pairings.WAIT_RETRY + 2))
    assert len(tries) == 3 and list(desk.games) == [41]
    assert any(
        line.startswith("al: A game slot is free: Round 1: your game vs bo is #41") for line in bot.said
    )
    assert any(
        line.startswith("bo: A game slot is free: Round 1: your game vs al is #41") for line in bot.said
    )
    assert not desk.waiting and bot.journal.table_meta(desk.key)["waiting"] == []
    assert desk.cut_games() == []


def draft_through(desk: LeagueReferee) -> list[Any]:
    """Both players pick the first card of each pack until the draft is over; the last pick's effects."""
    engine = desk.engine
    effects: list[Any] = []
    while engine.phase == "draft":
        for player in ("al", "bo"):
            if engine.pack(player):
                effects = desk.table.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    return effects


def league_status(desk: LeagueReferee, bot: Any, sender: str) -> list[str]:
    from tests.bot.test_league_bot import say

    return say(desk, bot, sender, "!status")


def test_a_waiting_pairing_decided_by_both_results_needs_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    desk, bot = market_desk()

    async def create(
        cls: Any, bot_: Any, league: LeagueReferee, round_no: int, players: tuple[str, ...]
    ) -> Any:
        raise NotAllowed(SERVER_SAYS)

    monkeypatch.setattr(LeagueGame, "create", classmethod(create))
    effects = draft_through(desk)
    asyncio.run(desk.perform(effects))
    assert desk.waiting
    from tests.bot.test_league_bot import say

    say(desk, bot, "al", "!result win")
    say(desk, bot, "bo", "!result loss")
    assert not desk.waiting and desk.cut_games() == []
