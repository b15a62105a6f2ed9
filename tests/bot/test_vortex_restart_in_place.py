"""A Vortex referee taken up in place by a new process (a registered account keeps its seat) asks every
pending pick again: the old process may have died with the picker's pack listing and the table's prompt
still waiting for the chat budget (tight under the shipped flood limits). A reconnect of the same process
says only where the game stands (what it had queued still leaves)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from cockatrice_ext.bot.vortex import VortexReferee
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import vortex as rules


class Seated(VortexReferee):
    me = 0  # type: ignore[assignment]  # our seat, without a server


def referee_back(*, taken_up: bool) -> tuple[VortexReferee, list[str], list[tuple[str, str]]]:
    """A referee of a game whose first opening pick (ann's) is pending, back in its seat: public lines said
    and private lines told are recorded."""
    cards = tuple(CardFacts(name=f"Card {n}") for n in range(40))
    engine = rules.VortexEngine(rules.VortexConfig(players=(1, 2), cards=cards), seed=1)
    engine.apply(rules.StartGame(player=None))
    said: list[str] = []
    told: list[tuple[str, str]] = []

    async def say(text: str) -> None:
        said.append(text)

    async def tell(name: str, text: str) -> None:
        told.append((name, text))

    async def yes(*_: Any) -> bool:
        return True

    async def no(*_: Any) -> bool:
        return False

    async def nothing(*_: Any) -> None:
        return None

    referee = Seated.__new__(Seated)
    referee.__dict__.update(
        table=SimpleNamespace(engine=engine),
        engine_names={1: "ann", 2: "ben"},
        game_id=4,
        live=True,
        finished=None,
        options=SimpleNamespace(pick_timeout=0),
        _lock=asyncio.Lock(),
        _live=None,
        _listed={},
        taken_up=taken_up,
    )
    for name, stub in {
        "say": say,
        "tell": tell,
        "until_seats_known": yes,
        "read_own_deck": yes,
        "settle_away": no,
        "follow_engine_turn": nothing,
    }.items():
        setattr(referee, name, stub)
    return referee, said, told


def test_a_new_process_back_in_its_seat_lists_the_pending_pack_and_names_the_picker() -> None:
    referee, said, told = referee_back(taken_up=True)
    asyncio.run(referee.on_reconnected())
    assert said[0].startswith("Referee back. ")
    assert said[1:] == ["ann to pick from 7."]
    assert [name for name, _ in told] == ["ann"] and told[0][1].startswith("Your pack: 1. Card ")
    said.clear()
    told.clear()
    asyncio.run(referee.on_reconnected())  # a later reconnect of the same process: asked once is enough
    assert len(said) == 1 and not told


def test_a_reconnect_of_the_same_process_does_not_list_the_pack_again() -> None:
    referee, said, told = referee_back(taken_up=False)
    asyncio.run(referee.on_reconnected())
    assert len(said) == 1 and said[0].startswith("Referee back. ")
    assert not told
