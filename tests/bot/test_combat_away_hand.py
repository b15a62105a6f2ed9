"""A Combat player whose connection drops: the hand list they get when they are back (no server; a real
:class:`~cockatrice_ext.bot.chat.ChatScheduler`, the runtime's part of a connection change left out).

Seen in the field (tests/field/test_combat_away_field.py): the player who was away came back to no hand list
at all when nothing about their hand had been queued for them before the drop, though their turn's draw and
a creature bounced back had changed it meanwhile (neither sends a list). Now the drop queues their hand list
as the game's recap topic: back, they get one list, their hand as it is then.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from test_combat_answers_words import ZOE, set_up
from test_combat_held_lines import GAME, SEATS, held_referee, let_go

from cockatrice_ext.bot.combat import DeckVerdict, hand_message
from cockatrice_ext.bot.referee import GameReferee
from cockatrice_ext.formats import combat as rules


async def runtime_part_left_out(self: GameReferee, event: object) -> None:
    """:meth:`GameReferee.on_connection_changed` (the missed lines, the absence line): not tested here."""


def away_and_back(
    verdict: DeckVerdict, monkeypatch: pytest.MonkeyPatch, meanwhile: list[object], *, login_heard: bool
) -> tuple[rules.CombatEngine, list[str]]:
    """zoe's connection drops (the server says she logged off too); ``meanwhile`` is applied to the game;
    she is back (her login heard, with ``login_heard``; then her seat's connection back). Returns the engine
    and every private message she got."""
    monkeypatch.setattr(GameReferee, "on_connection_changed", runtime_part_left_out)
    engine = set_up(verdict)
    referee, sent, budget = held_referee(engine)
    chat = referee.bot.chat
    seat = referee.mirror.players[SEATS[ZOE]]
    event = SimpleNamespace(player_id=SEATS[ZOE])

    async def scenario() -> None:
        chat.user_left("zoe")
        seat.ping_seconds = -1
        await referee.on_connection_changed(event)
        for action in meanwhile:
            engine.apply(action)
        budget["held"] = False
        if login_heard:
            chat.user_back("zoe")  # her login
        seat.ping_seconds = 0
        await referee.on_connection_changed(event)  # her seat's connection back
        await let_go(referee, budget, ("user", "zoe"))

    asyncio.run(scenario())
    return engine, [message for where, message in sent if where == ("user", "zoe")]


def test_a_player_back_from_a_dropped_connection_gets_one_hand_list_as_it_is_then(
    verdict: DeckVerdict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """zoe's connection drops (the server says she logged off too); her hand changes while she is away (a
    draw, her creature bounced back); back, she gets exactly one hand list, true then."""
    meanwhile = [
        rules.Draw(player=ZOE, count=2),
        rules.LeavePlay(player=ZOE, card="Elvish Warrior", to="hand"),
    ]
    engine, to_zoe = away_and_back(verdict, monkeypatch, meanwhile, login_heard=True)
    lists = [part for message in to_zoe for part in message.split(" | ") if "Your hand:" in part]
    assert lists == [f"Game #{GAME}: {hand_message(engine, ZOE)}"], to_zoe
    assert "Elvish Warrior" in lists[0]


def test_a_player_back_whose_login_was_not_heard_gets_their_hand_when_their_seat_is_back(
    verdict: DeckVerdict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's word that her seat's connection is back says zoe is online: what was kept goes then."""
    engine, to_zoe = away_and_back(verdict, monkeypatch, [rules.Draw(player=ZOE, count=1)], login_heard=False)
    assert to_zoe == [f"Game #{GAME}: {hand_message(engine, ZOE)}"], to_zoe
