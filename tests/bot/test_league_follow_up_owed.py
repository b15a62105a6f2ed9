"""A command by number is refused while a list it points into is owed to its player, queued or still held
back in a follow-up. An eight-player AutoBattler league on Servatrice's shipped limits: each player's first
line lists the shop and ``!swap SHOP POOL``, but their pool comes in the follow-up, which is queued only once
that first line has left. A ``!swap 1 1`` typed as the first line arrived, before the follow-up was queued,
was accepted ("You took Moat Piranhas and gave Demon's Horn"): it numbered a pool never listed to them.

Runs the league referee against a chat scheduler with the shipped flood limits on a simulated clock, as
``test_league_stale_views`` does; the players type the moment their first line is handed to the server."""

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
FIRST_LINE = "Your shop: 1. "


class _QuickPlayers(FakeClient):
    """A server whose players type a command the moment their draft phase's first line is handed to it."""

    def __init__(self) -> None:
        super().__init__()
        self.commands: dict[str, Callable[[], str]] = {}
        self.type_it: Callable[[str, str], Awaitable[None]] | None = None
        self.typed: list[asyncio.Task[None]] = []

    async def send_message(self, user: str, message: str) -> None:
        if message.startswith(FIRST_LINE) and user in self.commands and self.type_it is not None:
            typing = self.type_it(user, self.commands.pop(user)())  # they type as it reaches them
            self.typed.append(asyncio.get_running_loop().create_task(typing))  # type: ignore[arg-type]
        await super().send_message(user, message)


def test_a_swap_by_number_before_the_pool_s_follow_up_is_queued_is_refused() -> None:
    """``b`` types ``!swap 1 1`` as their first line (the shop alone) reaches them, before the follow-up
    listing their pool is queued: refused with why, nothing swapped. ``c`` names both cards at the same
    moment: a name means the same card in any list, so that swap goes through."""

    async def scenario() -> tuple[dict[str, list[str]], dict[str, bool], bool, bool]:
        bot = _SlowChat(Journal(":memory:"))
        server = _QuickPlayers()
        bot.server, bot.chat = server, client_scheduler(server)  # type: ignore[assignment]
        engine = fresh_autobattler(FOUR)
        league = chat_league(bot, engine, "autobattler")
        answers: dict[str, list[str]] = {"b": [], "c": []}
        owed: dict[str, bool] = {}

        async def type_it(user: str, command: str) -> None:
            async def answer(line: str) -> None:
                answers[user].append(line)

            owed[user] = not any(
                user == d[1] and "Your pool: 1. " in m for _, d, m in server.tries
            ) and not bot.chat.pending(("user", user))  # the pool is neither sent nor queued: held back
            ctx = Context(bot, "private", user, reply_hook=answer)  # type: ignore[arg-type]
            assert await league.handle_command(ctx, command)

        cards = engine.config.cards
        seen: dict[str, list[int]] = {}

        def by_number() -> str:
            seen["b"] = list(engine.pool("b"))
            return "!swap 1 1"

        def by_name() -> str:
            seen["c"] = list(engine.pool("c"))
            return f"!swap {cards[engine.shop('c')[0]].name} for {cards[engine.pool('c')[0]].name}"

        server.type_it = type_it
        server.commands.update({"b": by_number, "c": by_name})
        await league.perform(league.table.apply(core.Start(player=None)))
        while len(server.typed) < 2 or not all(t.done() for t in server.typed):
            await asyncio.sleep(0.01)
        for task in server.typed:
            task.result()
        swapped_b = list(engine.pool("b")) != seen["b"]
        swapped_c = list(engine.pool("c")) != seen["c"]
        await drained(bot, league)
        return answers, owed, swapped_b, swapped_c

    answers, owed, swapped_b, swapped_c = run_simulated(scenario)
    assert owed == {"b": True, "c": True}, owed  # each typed while their pool was held back
    assert not swapped_b and any(NUMBERS_UNREAD in line for line in answers["b"]), answers
    assert swapped_c and not any(NUMBERS_UNREAD in line for line in answers["c"]), answers
