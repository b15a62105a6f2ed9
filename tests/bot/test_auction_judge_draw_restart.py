"""A judge's draw cut short by a restart in place: the cards it already delivered end in the drawer's hand.

With judge rights the referee lays each drawn card face down on its drawer's table, then moves them all into
the hand in one judge command. Found last session: a stop between the two left the delivered cards face down
on the drawer's table, while the referee, back in its seat, dealt only the cards still in its piles into the
hand and said nothing of the others (the rules put every drawn card in the hand, rule 7).

No server: the piles stand-in of :mod:`test_auction_draw_restart`, with a judge command that moves cards
from a player's table into their hand as Servatrice does (a hand clears a card's note).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from bot.test_auction_draw_restart import (
    Card,
    Chat,
    Killed,
    Piles,
    PilesClient,
    back_in_place,
    draw_cut_short,
)

from cockatrice_ext.bot import auction as bot_auction
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.web.demo import REFEREE_SEAT


class JudgePilesClient(PilesClient):
    """:class:`PilesClient` whose judge commands move a player's own table cards into their hand."""

    async def judge_commands(self, game_id: int, seat: int, commands: list[Any], **_: Any) -> None:
        piles = self.piles
        if piles.kill_after is not None and piles.sent >= piles.kill_after:
            raise Killed
        piles.sent += 1
        for command in commands:
            if not command.HasExtension(pb.Command_MoveCard.ext):
                continue  # the Gold card and mana counters: not followed here
            move = command.Extensions[pb.Command_MoveCard.ext]
            source = piles.zones[seat, move.start_zone]
            target = piles.zones.setdefault((move.target_player_id, move.target_zone), [])
            for item in move.cards_to_move.card:
                card = next(c for c in source if c.id == item.card_id)
                source.remove(card)
                target.append(Card(piles.card("").id, card.name))  # in a hand: no note, no face
        piles.show()


@pytest.fixture
def judge_piles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot made by the stand-in sits as a judge and sends its judge commands to the piles."""
    original = bot_auction.AuctionReferee.is_judge
    monkeypatch.setattr(bot_auction.AuctionReferee, "is_judge", property(lambda self: True))
    monkeypatch.setattr("bot.test_auction_draw_restart.PilesClient", JudgePilesClient)
    assert original is not None


@pytest.mark.parametrize(
    "kill_after",
    [
        3,  # the first card on its drawer's table, the other two still in the spares
        5,  # the first on the table, the second face down on the referee's table, labelled
        9,  # all three on the drawer's table, the judge's move into the hand never sent
    ],
)
def test_a_judge_s_draw_cut_short_ends_in_the_drawer_s_hand(
    tmp_path: Path, judge_piles: None, kill_after: int
) -> None:
    journal = tmp_path / "j.sqlite3"
    block = load_block("auction-sample")
    piles = Piles(list(block.game_names), [1, 2])

    async def run() -> tuple[Any, list[str], Any, Chat]:
        drawer, drawn = await draw_cut_short(journal, piles, 3, kill_after)
        resumed, chat = await back_in_place(journal, piles)
        return drawer, drawn, resumed, chat

    drawer, drawn, resumed, chat = asyncio.run(run())
    seat = resumed.seat_of(drawer)
    assert seat is not None
    assert piles.zones[seat, "table"] == [], "no drawn card is left on the drawer's table"
    assert sorted(c.name for c in piles.zones[seat, "hand"]) == sorted(drawn), "every drawn card is in hand"
    assert piles.zones[REFEREE_SEAT, "table"] == [], "nothing is left on the referee's table"
    assert piles.size(REFEREE_SEAT, "deck") == len(resumed.engine.block)
    public = " | ".join(text for (kind, _), text in chat if kind != "user")
    assert not any(name in public for name in drawn), public
    told = [text for (kind, who), text in chat if kind == "user" and who == resumed.player_name(drawer)]
    assert len(told) == 1, told
    assert all(name in told[0] for name in drawn) and "in your hand" in told[0], told


@pytest.mark.servatrice
def test_a_judge_s_draw_cut_short_ends_in_the_hand_on_a_real_server(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path
) -> None:
    """SQL mode, the referee a registered judge (it keeps its seat when its process dies): the connection and
    journal end as the second of three drawn cards is dealt, the first face down on its drawer's table; a new
    process on the same journal moves all three into the drawer's hand and tells them so once."""
    from bot_players import wait_until
    from test_auction_e2e import active_asks_to_draw, referee_of, sql_auction_site

    site = sql_auction_site(servatrice_factory, mariadb, tmp_path, "dj", judge=True)

    async def scenario() -> None:
        bot = await site.start_bot()
        alice, bob, game_id, referee, by_id = await site.seated_game(bot)
        try:
            assert referee.is_judge
            drawer_id, drawer, other, _ = await active_asks_to_draw(referee, by_id, game_id, 3)

            handed = 0
            stopped = asyncio.Event()
            original = referee.hand_over

            async def dies_at_the_second(*args: Any, **kwargs: Any) -> Any:
                nonlocal handed
                handed += 1
                if handed == 2:  # killed: the connection drops without leaving, nothing more is sent
                    await bot.client.close()
                    bot.journal.close()
                    stopped.set()
                    await asyncio.Event().wait()
                return await original(*args, **kwargs)

            referee.hand_over = dies_at_the_second  # type: ignore[method-assign]
            await drawer.say(game_id, "!draw 3")
            await asyncio.wait_for(stopped.wait(), 30)
            seen = other.client.games[game_id].players[drawer_id]

            def face_down() -> int:  # the drawer's table also holds their Gold card
                return sum(1 for card in seen.zone("table").cards if card.face_down)

            await wait_until(lambda: face_down() == 1, what="the first drawn card on its drawer's table")
            assert seen.zone("hand").card_count == 0

            bot = await site.start_bot()
            told = await drawer.wait_private(
                lambda t: "which you drew, are now in your hand" in t, timeout=30
            )
            await wait_until(lambda: seen.zone("hand").card_count == 3, timeout=30, what="three in hand")
            await wait_until(lambda: face_down() == 0, timeout=30, what="none left on the table")
            engine = referee_of(bot, game_id).engine
            assert len(engine.hand[drawer_id]) == 3
            assert all(engine.ref(i).name in told for i in engine.hand[drawer_id]), told
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    asyncio.run(asyncio.wait_for(scenario(), 180))
