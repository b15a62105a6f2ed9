"""A player can act on the first message they get. A four-player AutoBattler league on Servatrice's shipped
limits (field): each player's first message was the shop alone, ending "!swap SHOP POOL, !roll, !done", and
their pool came 11-44 s later in a follow-up of ~700 characters (four of them took three chat windows); a
``!swap 1 1`` typed meanwhile was refused, and the refusal queued behind that follow-up, tacked onto its end.
The first view now lists the shop and the numbered pool at once, and nothing follows it.

Runs the league referee against a chat scheduler with the shipped flood limits on a simulated clock (as
``test_league_stale_views`` does); the players type the moment their first message is handed to the server,
and read what the server was handed, in its order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from cockatrice_ext.bot.chat import client_scheduler
from cockatrice_ext.bot.referee import NUMBERS_UNREAD, Context
from cockatrice_ext.formats import league as core
from cockatrice_ext.journal import Journal
from tests.bot.test_chat_budget import FakeClient, run_simulated
from tests.bot.test_league_bot import fresh_autobattler
from tests.bot.test_league_stale_views import _SlowChat, chat_league, drained

FOUR = ("a", "b", "c", "d")


class _QuickPlayers(FakeClient):
    """A server whose players type a command the moment their first private message is handed to it."""

    def __init__(self) -> None:
        super().__init__()
        self.commands: dict[str, Callable[[], str]] = {}
        self.type_it: Callable[[str, str], Awaitable[None]] | None = None
        self.typed: list[asyncio.Task[None]] = []

    async def send_message(self, user: str, message: str) -> None:
        if user in self.commands and self.type_it is not None:
            typing = self.type_it(user, self.commands.pop(user)())  # they type as it reaches them
            self.typed.append(asyncio.get_running_loop().create_task(typing))  # type: ignore[arg-type]
        await super().send_message(user, message)


def test_each_player_s_first_message_holds_what_a_swap_numbers_and_the_swap_is_taken() -> None:
    """Every player types ``!swap 1 1`` (``d`` by names) as their first message reaches them: it listed
    their shop and their numbered pool, so each swap is taken (no refusal, nothing owed), and the pool is
    not listed to them a second time before the swap's answer."""

    async def scenario() -> tuple[dict[str, list[str]], dict[str, tuple[str, str]]]:
        bot = _SlowChat(Journal(":memory:"))
        server = _QuickPlayers()
        bot.server, bot.chat = server, client_scheduler(server)  # type: ignore[assignment]
        engine = fresh_autobattler(FOUR)
        league = chat_league(bot, engine, "autobattler")
        cards = engine.config.cards
        seen: dict[str, tuple[str, str]] = {}  # the first shop and pool cards when they typed

        async def type_it(user: str, command: str) -> None:
            ctx = Context(bot, "private", user)  # type: ignore[arg-type]  # answered in chat, in its order
            assert await league.handle_command(ctx, command)

        def typed(user: str) -> Callable[[], str]:
            def command() -> str:
                seen[user] = (cards[engine.shop(user)[0]].name, cards[engine.pool(user)[0]].name)
                if user == "d":
                    return f"!swap {cards[engine.shop('d')[0]].name} for {cards[engine.pool('d')[0]].name}"
                return "!swap 1 1"

            return command

        server.type_it = type_it
        server.commands.update({user: typed(user) for user in FOUR})
        await league.perform(league.table.apply(core.Start(player=None)))
        while len(server.typed) < len(FOUR) or not all(t.done() for t in server.typed):
            await asyncio.sleep(0.01)
        for task in server.typed:
            task.result()
        await drained(bot, league)
        told = {user: [m for _, d, m in server.tries if d == ("user", user)] for user in FOUR}
        return told, seen

    told, seen = run_simulated(scenario)
    for user in FOUR:
        first, *rest = told[user]
        shop, pool = seen[user]
        assert first.startswith(f"Your shop: 1. {shop};") and f"Your pool: 1. {pool};" in first, first
        assert "!swap SHOP POOL" in first, first
        answer = next(i for i, m in enumerate(rest) if f"You took {shop} and gave {pool}." in m)  # taken
        assert not any(NUMBERS_UNREAD in m for m in told[user]), told[user]
        assert not any("Your pool: 1. " in m for m in rest[:answer]), rest  # not listed twice
        assert not any("Your first cards" in m for m in told[user]), told[user]  # the pool says them
