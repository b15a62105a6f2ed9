"""The Market Draft league in the field without the web view: every private view (packs, pool, market,
whose turn) goes by private chat message, under the shipped flood limits of one bot account. That budget
sets the pace: the two-player draft alone is some 23,000 characters of packs and confirmations, over four
minutes at 1,000 characters per 10 s, so the whole scenario takes about seven."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Callable

import pytest
from field_bot import BOT_NAME, Referee
from field_players import FieldPlayer, Mark, Protos
from league_steps import (
    MARKET_POOL,
    PRIVATE,
    assert_no_leaks,
    deck_taken,
    draft_in_chat,
    everyone_passes_the_market,
    form_league,
    market_reveals,
    named_in_public,
    pool_list,
)
from scenario import arrive, close_all, deck_cod, run
from servatrice import ServatriceServer

pytestmark = pytest.mark.servatrice
PICKS = 45
"""Three common starter packs of 15 each (seed 002, Initial Draft)."""
PACK_SIZES = list(range(15, 0, -1)) * 3
"""What a player of a two-player ring holds at each pick: their own pack, then the one passed to them."""
LISTED = re.compile(r"(\d+)\. (.+?) \((common|uncommon|rare|mythic), (\d+)\)")
"""A market card as a chat listing names it: ``N. Name (rarity, cost)``."""


def built_deck(pool: dict[str, int]) -> dict[str, int]:
    """A 40-card deck as a player builds one: 23 cards of the pool and 17 free basic lands."""
    cards = sorted(name for name, count in pool.items() for _ in range(count))[:23]
    return dict(Counter(cards) + Counter({"Forest": 9, "Mountain": 8}))


async def game_of_the_round(player: FieldPlayer, round_no: int, since: Mark) -> tuple[str, int]:
    """The opponent and game number the bot tells ``player`` privately for round ``round_no``."""
    told = await player.line(
        rf"Round {round_no}: your game vs \S+ is #\d+", since=since, kind=PRIVATE, timeout=120
    )
    opponent, game_id = re.search(r"vs (\S+) is #(\d+)", told).groups()  # type: ignore[union-attr]
    return opponent, int(game_id)


async def buy_the_cheapest(player: FieldPlayer, since: Mark) -> str:
    """A chat buyer's turn: read the market the bot listed privately, ask ``!market`` for the pool's
    numbers, trade in the first ten pool cards for the cheapest card (an uncommon, cost 10: ten commons are
    worth at least that) and, warned that this overpays, say the same ``!buy`` again. Returns the card."""
    listing = await player.line(r"(?:^| \| )Market: 1\. ", since=since, kind=PRIVATE, timeout=60)
    market = [(int(n), name, int(cost)) for n, name, _, cost in LISTED.findall(listing)]
    assert [n for n, _, _ in market] == list(range(1, len(market) + 1)), listing
    number, wanted, cost = min(market, key=lambda card: card[2])
    assert cost == 10, market
    mark = player.mark()
    await player.tell(BOT_NAME, "!market")
    size = PICKS + 8  # the draft and the round's common booster

    def pool_numbers() -> list[int]:
        text = " ".join(text for _, text in player.private_from(BOT_NAME, mark))
        listed = text.split("Your pool: ", 1)[1] if "Your pool: " in text else ""
        return [int(n) for n in re.findall(r"(?:^|[;|] )(\d+)\. ", listed)]

    await player.wait_for(lambda _: pool_numbers()[-1:] == [size], since=mark, timeout=60)
    assert pool_numbers() == list(range(1, size + 1))
    buy = f"!buy {number} with {', '.join(map(str, range(1, 11)))}"
    await player.tell(BOT_NAME, buy)
    bought = rf"{player.name} buys {re.escape(wanted)} \(worth \d+, cost \d+\), trading in"
    done = rf"{bought}|That overpays"
    if "That overpays" in await player.line(done, since=mark, timeout=60):
        await player.tell(BOT_NAME, buy)
    await player.line(bought, since=mark, timeout=60)
    return wanted


def test_a_chat_only_market_league_goes_from_the_draft_to_the_next_round(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Two players, ``!market start 2``, no web view: each drafts all 45 picks from the packs the bot lists
    by private message (by number and by name), every pick confirmed; each builds 40 cards from the pool list
    the bot sends and plays round 1's game; the loser concedes, buys from the market they were told
    privately and both pass; round 2's games are announced. Nothing private is named in room or game chat
    nor reaches the other player, no command is refused, and the server refuses none of the bot's lines."""
    bot = referee(shipped_server, verbose=True)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["mia_fc", "ned_fc"])
        winner, loser = players
        try:
            started = time.monotonic()
            marks = [player.mark() for player in players]
            starts = r"Market Draft league #\d+ starts: (mia_fc, ned_fc|ned_fc, mia_fc) .*2 rounds"
            await form_league(players, room_id, "market", starts, "2")
            drafts = await asyncio.gather(
                *(draft_in_chat(p, PICKS, m) for p, m in zip(players, marks, strict=True))
            )
            for player, draft in zip(players, drafts, strict=True):
                assert [size for size, _ in draft] == PACK_SIZES, (player.name, draft)
            await winner.line(r"The draft is over", since=marks[0], timeout=60)

            games = {}
            for player, mark, draft in zip(players, marks, drafts, strict=True):
                await player.line(r"Draft over\. Your pool as a deck list", since=mark, kind=PRIVATE)
                opponent, game_id = await game_of_the_round(player, 1, mark)
                assert opponent == next(p.name for p in players if p is not player)
                games[player.name] = game_id
                pool = await pool_list(player, mark, timeout=120)
                assert pool == Counter(card for _, card in draft), (pool, draft)
                await player.sit(room_id, game_id, deck_cod(f"{player.name} deck", built_deck(pool)))
            game_id = games[winner.name]
            assert games[loser.name] == game_id
            for player in players:
                await winner.line(rf"{player.name}: {deck_taken()}", since=marks[0], timeout=60)
            await winner.wait_started(game_id, since=marks[0], timeout=60)

            mark = loser.mark()
            await loser.game(game_id, "Command_Concede")
            await loser.line(rf"Round 1: {winner.name} beats {loser.name}", since=mark, timeout=60)
            await loser.line(rf"Buying order: {loser.name}, {winner.name}", since=mark, timeout=60)
            await loser.line(r"Your turn to buy", since=mark, kind=PRIVATE, timeout=60)
            before_buy = {player.name: player.mark() for player in players}
            bought = await buy_the_cheapest(loser, mark)
            await everyone_passes_the_market([winner, loser], before_buy)
            await loser.line(r"Market closed", since=mark, timeout=60)
            next_games = {(await game_of_the_round(p, 2, before_buy[p.name]))[1] for p in players}
            assert len(next_games) == 1 and game_id not in next_games, next_games
            changed = await loser.line(
                r"Your pool: \d+ cards now", since=before_buy[loser.name], kind=PRIVATE, timeout=120
            )  # listed whole once: now what changed
            assert bought in changed, changed
            pool = await pool_list(loser, before_buy[loser.name], timeout=120, ask=True)
            assert pool[bought] == 1 and sum(pool.values()) == PICKS + 8 + 1 - 10, pool

            mark = winner.mark()
            await winner.tell(BOT_NAME, "!standings")
            standings = rf"Round 2 of 2: 1\. {winner.name} 2 \(1-0-0\), 2\. {loser.name} 0 \(0-0-1\)"
            await winner.line(standings, since=mark, kind=PRIVATE, timeout=60)
        finally:
            await close_all(players)
        for player in players:
            refusal = re.compile(rf"(?:^| \| ){re.escape(player.name)}: ")
            refused = [text for _, text in player.private_from(BOT_NAME) if refusal.search(text)]
            assert not refused, refused
        reveals = market_reveals(players)
        said = {
            name: line for name, line in named_in_public(players, MARKET_POOL).items() if name not in reveals
        }
        assert not said, f"named in public chat: {said}"
        assert_no_leaks(players, MARKET_POOL, started, reveals)

    run(scenario(), bot, timeout=720)
    log = bot.log_text()
    refused = [
        line for line in log.splitlines() if "ChatFlood" in line or re.search(r"chat to .* failed", line)
    ]
    assert not refused, refused
    assert "Traceback" not in log
