"""Market numbers move after each buy: the buyer must always read the numbers their ``!buy`` is read against.

Seen in the field: the room listed "1. Portable Hole; 2. Wingspan Mentor; 3. Bloodtithe Collector...", cat
bought #1, and dan's ``!buy 2`` (meaning Wingspan Mentor, the room's #2) bought Bloodtithe Collector: the
market had shifted and dan was never shown it again. Now each buyer's turn prompt lists the market as it
is then, and the overpay warning names the card being bought.
"""

from __future__ import annotations

import re

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Table
from tests.bot.test_league_bot import _ChattyBot, block_of, market_in_market_phase, say


def desk() -> tuple[LeagueReferee, _ChattyBot, mk.MarketDraftEngine]:
    from cockatrice_ext.journal import Journal

    engine = market_in_market_phase()
    bot = _ChattyBot(Journal(":memory:"))
    table = Table.create(bot.journal, "ws://test:league:0:market:1", engine)
    return LeagueReferee(bot, 0, LeagueOptions(format="market"), block_of(engine), table), bot, engine  # type: ignore[arg-type]


def paying(engine: mk.MarketDraftEngine, buyer: str, card: int) -> list[int]:
    """Pool numbers that pay ``card`` exactly enough (the first cards that add up to its cost)."""
    pool, paid, worth = engine.pool(buyer), [], 0
    for number, owned in enumerate(pool, start=1):
        if worth >= engine.cost(card):
            break
        paid.append(number)
        worth += engine.worth(owned, card)
    return paid


def test_the_next_buyer_is_told_the_market_as_it_is_after_a_buy() -> None:
    league, bot, engine = desk()
    first = engine.whose_turn()
    assert first is not None
    second = next(p for p in ("al", "bo") if p != first)
    card = engine.market[0]
    text = f"!buy 1 with {', '.join(map(str, paying(engine, first, card)))}"
    said = say(league, bot, first, text)
    if any("overpays" in line for line in said):
        said = say(league, bot, first, text)
    assert card in engine.pool(first)
    prompt = next(line for line in said if line.startswith(f"{second}: Your turn to buy"))
    listed = re.search(r"The market now: (.*?)\. !buy N with", prompt)
    assert listed is not None, prompt
    numbers = dict(re.findall(r"(\d+)\. (.+?) \((?:common|uncommon|rare|mythic), \d+\)", listed.group(1)))
    assert numbers["2"] == engine.config.cards[engine.market[1]].name  # what !buy 2 now buys
    assert "pool numbers" in prompt
    wanted = engine.market[1]
    text = f"!buy 2 with {', '.join(map(str, paying(engine, second, wanted)))}"
    said = say(league, bot, second, text)
    if any("overpays" in line for line in said):
        said = say(league, bot, second, text)
    assert wanted in engine.pool(second) and engine.config.cards[wanted].name == numbers["2"]


def test_the_overpay_warning_names_the_card_being_bought() -> None:
    league, bot, engine = desk()
    buyer = engine.whose_turn()
    assert buyer is not None
    card = engine.market[0]
    everything = ", ".join(str(n) for n in range(1, len(engine.pool(buyer)) + 1))
    said = say(league, bot, buyer, f"!buy 1 with {everything}")
    warning = next(line for line in said if "overpays" in line)
    assert warning.startswith(f"That overpays for {engine.config.cards[card].name}: "), warning


def test_a_pairing_the_server_refuses_during_a_shutdown_is_not_blamed_on_the_game_limit() -> None:
    """The room's line says why games wait: a shutdown the server announced is not its game limit."""
    import asyncio

    from cockatrice_ext.bot.league_pairings import WaitingGame

    for shutdown_due, expected, not_said in (
        (None, "limit of games", "shutdown"),
        (99.0, "shutdown", "limit"),
    ):
        league, bot, _ = desk()
        bot.client.shutdown_due = shutdown_due
        reason = "the server shuts down in 2 minutes" if shutdown_due else "too many games"
        asyncio.run(league.game_waits((1, ("al", "bo")), WaitingGame(reason=reason, tried=0.0)))
        (room,) = [line for line in bot.said if "will not open more games" in line]
        assert expected in room and not_said not in room, room
