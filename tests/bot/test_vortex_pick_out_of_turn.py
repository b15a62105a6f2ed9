"""A private ``!pick N`` from a player who has no pick to make is answered by the rules ("you have no pick to
make now: it is ann's pick"), however many private lines to them still wait for the chat budget: the field
tester's ben, typing ``!pick 1`` out of turn two or three times, was told "your new list is still on its way"
the second and third times, and waited for a list that was never coming."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.referee import NUMBERS_UNREAD, Context
from cockatrice_ext.bot.vortex import VortexReferee
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import vortex as rules


def picking(players: dict[int, str]) -> tuple[VortexReferee, list[Any]]:
    """A referee of a started game (ann, seat 1, picks first), whose chat still holds lines for everyone;
    the actions it would apply are recorded instead."""
    cards = tuple(CardFacts(name=f"Card {n}") for n in range(40))
    engine = rules.VortexEngine(rules.VortexConfig(players=tuple(players), cards=cards), seed=1)
    engine.apply(rules.StartGame(player=None))
    applied: list[Any] = []
    referee = VortexReferee.__new__(VortexReferee)
    referee.__dict__.update(table=SimpleNamespace(engine=engine))
    by_name = {name: seat for seat, name in players.items()}
    referee.sender = lambda ctx: by_name[ctx.sender]  # type: ignore[method-assign]

    async def act(ctx: Context, make: Any) -> None:
        applied.append(make(referee.sender(ctx)))

    referee.act = act  # type: ignore[method-assign]
    return referee, applied


def busy_chat_context(sender: str) -> Context:
    """A private command from ``sender`` while a line to them still waits for the chat budget."""
    chat = SimpleNamespace(pending=lambda destination: 1)
    bot = SimpleNamespace(main=None, sessions=[SimpleNamespace(chat=chat)])
    return Context(bot, "private", sender)  # type: ignore[arg-type]


def test_a_pick_out_of_turn_goes_to_the_rules_not_to_the_unread_list_check() -> None:
    referee, applied = picking({1: "ann", 2: "ben"})
    assert referee.engine.pending_pick(1) and not referee.engine.pending_pick(2)
    asyncio.run(referee.pick(busy_chat_context("ben"), "1"))
    assert [(a.player, a.choice) for a in applied] == [(2, 0)]  # the rules refuse it, saying whose pick


def test_the_picker_s_number_still_waits_for_the_list_on_its_way() -> None:
    referee, applied = picking({1: "ann", 2: "ben"})
    with pytest.raises(NotAllowed, match="still on its way"):
        asyncio.run(referee.pick(busy_chat_context("ann"), "1"))
    assert not applied
    assert NUMBERS_UNREAD.startswith("your new list is still on its way")
