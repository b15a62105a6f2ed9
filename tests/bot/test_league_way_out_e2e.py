"""A member of a running Market Draft league, on a real Servatrice: the room's answers name the league and
the way out, a private ``!leave confirm`` takes them out for good (their game is forfeited, the referee makes
their market turns, a restart keeps it), and they may then join another league. See
``test_league_way_out.py`` for the field report."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import ServatriceServer
from test_market_e2e import league_in_round_one, league_of, private, start_bot, tell

pytestmark = pytest.mark.servatrice

IN_LEAGUE = (
    "alice_mr: you are in Market Draft league #1 (round 1 is being played); one league at a time. Its"
    " commands work by private message to me (!help there); you can join another once it ends, or after"
    " leaving it for good (!leave by private message)."
)


async def room_piece(player: Player, pattern: str, since: int) -> str:
    """The piece of a room line ``player`` heard since ``since`` that matches ``pattern`` from its start (the
    referee's lines waiting together leave as one message, joined by " | ")."""
    line = await bot_line(player, rf"(^|\| ){pattern}", since)
    return next(piece for piece in line.split(" | ") if re.match(pattern, piece))


def test_a_member_leaves_a_running_league_for_good_and_may_join_another(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite3"

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, journal)
        players = {name: await Player.connect(servatrice.ws_url, name) for name in ("alice_mr", "bob_mr")}
        alice, bob = players.values()
        try:
            room_id, league = await league_in_round_one(bot, players)
            (game_id,) = league.games
            for command in ("!market start", "!market join"):
                mark = alice.mark()
                await alice.client.room_say(room_id, command)
                assert await room_piece(alice, r"alice_mr: you are", mark) == IN_LEAGUE
            mark = alice.mark()
            await alice.client.room_say(room_id, "!market leave")
            assert await room_piece(alice, r"alice_mr: you are not in the lobby", mark) == (
                "alice_mr: you are not in the lobby but in Market Draft league #1 (round 1 is being played):"
                " to leave it for good, send me !leave by private message (the referee then makes your moves"
                " and your games are lost by forfeit)."
            )

            await tell(alice, "!leave")
            await private(
                alice, r"(^|\| )Leaving Market Draft league #1 cannot be undone: .* send !leave confirm\."
            )
            assert not league.left and not league.engine.league.match_of("bob_mr").decided
            mark = alice.mark()
            await tell(alice, "!leave confirm")
            await private(
                alice, r"(^|\| )You left Market Draft league #1: the referee makes your moves from now on"
            )
            await private(
                bob, r"alice_mr left Market Draft league #1: the referee makes their moves from now on"
            )
            await private(
                bob, r"alice_mr left the league: you win your round 1 game by forfeit; no need to play"
            )
            await room_piece(
                alice, r"alice_mr left the league: bob_mr wins their round 1 game by forfeit\.", mark
            )
            match = league.engine.league.match_of("bob_mr", 1)
            assert match is not None and match.decided and match.winner == "bob_mr"
            await wait_until(lambda: game_id not in league.games, what="the forfeited game closed")
            await bot.close()

            bot = await start_bot(servatrice.ws_url, journal)  # a restart keeps who left
            league = league_of(bot)
            assert league.left == {"alice_mr"}
            engine = league.engine
            assert engine.phase == "market"
            while engine.phase == "market":  # the referee makes alice's turns; bob passes his
                turn = engine.whose_turn()
                if turn == "bob_mr":
                    await tell(bob, "!pass")
                await wait_until(
                    lambda turn=turn: engine.phase != "market" or engine.whose_turn() != turn,
                    timeout=30,
                    what=f"{turn}'s market turn",
                )
            await wait_until(lambda: league.over, timeout=30, what="round 2 forfeited: the league over")
            assert engine.league.match_of("bob_mr", 2).winner == "bob_mr" and not league.games
            assert not [t for _, t in alice.private if "Round 2: your game" in t or "turn to buy" in t]
            mark = alice.mark()
            await alice.client.room_say(room_id, "!market join")
            await room_piece(alice, r"alice_mr joins the Market Draft league \(1: 1 more needed;", mark)
        finally:
            for player in players.values():
                await player.close()
            await bot.close()

    asyncio.run(asyncio.wait_for(scenario(), 150))
