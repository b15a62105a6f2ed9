"""Vortex in words (no server), as smoke test 2 found them wrong: `!pick` after the end answered in engine
jargon ("not now (the game is in its over phase)"), and `!life` was an unknown command though life is the
one thing a player who loses must act on (concede in Cockatrice)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot.commands import CommandSet
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.vortex import VortexReferee
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import vortex as rules
from cockatrice_ext.formats.base import RulesError

NAMES = {1: "vera", 2: "walt", 3: "xena"}
POOL = tuple(
    CardFacts(f"Bear {n}", mana_value=2, colors=("G",), types=("Creature",), power="2", toughness="2")
    for n in range(60)
)


def engine_of(players: tuple[int, ...] = (1, 2, 3)) -> rules.VortexEngine:
    engine = rules.VortexEngine(rules.VortexConfig(players=players, cards=POOL), seed=5)
    engine.apply(rules.StartGame(player=None))
    return engine


def referee_for(engine: rules.VortexEngine) -> VortexReferee:
    """A referee of ``engine`` without a server: enough for its refusals and its chat-only commands."""
    referee = VortexReferee.__new__(VortexReferee)
    referee.engine_names = dict(NAMES)
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.commands = CommandSet(referee)
    return referee


def answers(referee: VortexReferee, text: str, sender: str = "vera") -> list[str]:
    """What the referee answers ``sender``'s game-chat line with (a line it does not take: none)."""
    replies: list[str] = []

    async def reply(line: str) -> None:
        replies.append(line)

    ctx = Context(bot=None, scope="game", sender=sender, reply_hook=reply)  # type: ignore[arg-type]
    return replies if asyncio.run(referee.handle_command(ctx, text)) else []


def refusal(engine: rules.VortexEngine, action: Any) -> str:
    with pytest.raises(RulesError) as info:
        engine.apply(action)
    return referee_for(engine).explain(info.value)


def test_a_pick_after_the_end_says_the_game_is_over_and_who_won() -> None:
    """Seen: `!pick 1` after "Game over: vera wins, the last player in." got "vera: not now (the game is in
    its over phase)"."""
    engine = engine_of()
    engine.apply(rules.RemovePlayer(player=None, target=2, reason="left"))
    engine.apply(rules.RemovePlayer(player=None, target=3, reason="conceded"))
    assert engine.phase == "over" and engine.winner == 1
    assert refusal(engine, rules.Pick(player=1, choice=0)) == "the game is over (vera won)"
    assert (
        refusal(engine, rules.ChooseBasics(player=1, names=("Forest",) * 3)) == "the game is over (vera won)"
    )
    assert refusal(engine, rules.Pick(player=3, choice=0)).startswith("you are out of this game")
    assert answers(referee_for(engine), "!state") == [
        "Game over: vera won, the last player in; packs vera 7; passed 7; shoe 46; out: walt, xena."
    ]


def test_wrong_phase_before_the_end_says_when_it_works() -> None:
    """Was "not now (the game is in its opening phase)": players were not told when !basics works."""
    engine = engine_of()
    assert refusal(engine, rules.ChooseBasics(player=1, names=("Forest",) * 3)) == (
        "not yet: !basics works after the opening draft (the referee says when)"
    )


@pytest.mark.parametrize("said", ["!life -20", "!life", "!LIFE 0"])
def test_life_says_it_is_on_the_cockatrice_counter_and_to_concede_on_losing(said: str) -> None:
    """Seen: `!life -20` got "unknown command !life", and a life counter at 0 did nothing: losing is the
    players' (the README's Vortex part), so the answer says where life is kept and to concede."""
    referee = referee_for(engine_of())
    (line,) = answers(referee, said, sender="walt")
    assert line.startswith("walt: life is on your Cockatrice life counter")
    assert "concede in Cockatrice" in line
    assert referee.commands.find("life", "game") is not None
    assert any(help_line.startswith("!life - ") for help_line in referee.help_lines("game"))


def test_a_refused_pack_mulligan_does_not_count_the_hidden_pack_s_basics() -> None:
    """Seed 001: packs are hidden ("may count those cards", not look at them). Seen in a three-player game:
    "nora: a pack mulligan needs 5 basic lands in your pack (you have 0)" told every player how many basic
    lands nora's pack held."""
    text = referee_for(engine_of()).explain(RulesError("not_enough_basics", needed=5, basics=0))
    assert text == "a pack mulligan needs 5 basic lands in your pack"
