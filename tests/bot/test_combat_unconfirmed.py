"""A fight the referee cannot settle names who would die by printed power and toughness and asks the owners
to confirm with ``!dies``. Noted last session: nobody confirmed, the game went on, and the same creatures'
next fight said "would die" again; nothing had told the table what the referee was waiting for. Now, once
the game moves on (the next fight, the combat's end, a new turn) with such a death unconfirmed, the referee
says once which creature, whose, and the command that confirms it."""

from __future__ import annotations

import asyncio

from test_combat_held_lines import GAME, held_referee, let_go
from test_combat_wording import ALICE, ZOE, game

from cockatrice_ext.bot.combat import DeckVerdict
from cockatrice_ext.formats import combat as rules

REMINDER = (
    "Not confirmed yet: alice's Youthful Knight (slot 1) would have died by printed power/toughness and is"
    " still in play. If it died, alice says !dies Youthful Knight; if it lived, nothing to do."
)


def game_lines(sent: list[tuple[object, str]]) -> list[str]:
    return [part for where, message in sent if where == ("game", GAME) for part in message.split(" | ")]


def test_an_unconfirmed_death_is_said_once_when_the_game_moves_on(verdict: DeckVerdict) -> None:
    engine = game(verdict, "Youthful Knight", "Elvish Warrior")  # the Knight's text: not settled
    referee, sent, budget = held_referee(engine)

    async def scenario() -> None:
        await referee.perform(engine.apply(rules.DeclareFight(player=ALICE, slot=0)))
        await referee.perform(engine.apply(rules.ResolveFight(player=ALICE)))
        await referee.perform(engine.apply(rules.EndCombat(player=ALICE)))  # nobody confirmed
        while engine.whose_turn == ALICE:  # a cleanup, if any
            await referee.perform(engine.apply(rules.Discard(player=ALICE, card=engine.seats[0].hand[0])))
        await referee.perform(engine.apply(rules.BeginCombat(player=ZOE)))
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    lines = game_lines(sent)
    assert lines.count(REMINDER) == 1, lines
    fought = next(i for i, line in enumerate(lines) if line.startswith("Fight in slot 1 done"))
    assert "would die" in lines[fought]
    scored = next(i for i, line in enumerate(lines) if line.startswith("alice scores"))
    assert fought < lines.index(REMINDER) < scored  # said as the combat ends, before its score


def test_a_confirmed_death_is_not_reminded(verdict: DeckVerdict) -> None:
    engine = game(verdict, "Youthful Knight", "Elvish Warrior")
    referee, sent, budget = held_referee(engine)

    async def scenario() -> None:
        await referee.perform(engine.apply(rules.DeclareFight(player=ALICE, slot=0)))
        await referee.perform(engine.apply(rules.ResolveFight(player=ALICE)))
        await referee.perform(engine.apply(rules.LeavePlay(player=ALICE, card="Youthful Knight")))
        await referee.perform(engine.apply(rules.EndCombat(player=ALICE)))
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    assert not [line for line in game_lines(sent) if line.startswith("Not confirmed yet")]


def test_each_owner_is_named_with_their_command(verdict: DeckVerdict) -> None:
    from cockatrice_ext.bot.combat_view import unconfirmed_line

    engine = game(verdict, "Grizzly Bears", "Silvercoat Lion")  # both in slot 1
    bears, lion = engine.seats[0].creatures[0], engine.seats[1].creatures[0]
    assert bears is not None and lion is not None
    line = unconfirmed_line([(bears, 0), (lion, 0)], engine, {ALICE: "alice", ZOE: "zoe"}.__getitem__)
    assert line == (
        "Not confirmed yet: alice's Grizzly Bears (slot 1) and zoe's Silvercoat Lion (slot 1) would have died"
        " by printed power/toughness and are still in play. Each that died, its owner says !dies CARD (alice:"
        " !dies Grizzly Bears; zoe: !dies Silvercoat Lion); one that lived needs no word."
    )
