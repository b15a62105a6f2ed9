"""Combat lines that read changing state, as players get them when the chat budget holds them (no server; a
real :class:`~cockatrice_ext.bot.chat.ChatScheduler` whose budget the test holds and lets go).

* ``!score`` (``!state``) was rendered when it was said: under the shipped budget the answer waited
  seconds while a fight scored, and the player read the old score. It is drawn as it leaves now, through
  the game chat's answer hook (which takes a renderer, for every format).
* The setup's reveal was two lines ("alice reveals: ...", "zoe reveals: ..."): one line now, naming the
  same creatures in the same slots.
* A hand list for a player whose connection was gone was kept as it read then and given back on their
  return, after the game had changed their hand (a draw): they get the hand as it is when they are back.
"""

from __future__ import annotations

import asyncio
from typing import Any

from test_combat_answers_words import ALICE, NAMES, ZOE, engine_for, set_up
from test_combat_held_lines import GAME, SEATS, held_referee, let_go

from cockatrice_ext.bot import combat as bot_combat
from cockatrice_ext.bot.combat import DeckVerdict, hand_message, render_effects
from cockatrice_ext.bot.combat_view import revealed_lines
from cockatrice_ext.bot.words import MAX_CHAT_LINE
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import CardRef


def chatting_referee(engine: rules.CombatEngine) -> tuple[Any, list[tuple[Any, str]], dict[str, bool]]:
    """:func:`held_referee` that also takes game-chat lines (``on_chat``), as the runtime hands them."""
    referee, sent, budget = held_referee(engine)
    referee.bot.chat_load = lambda: 0.0
    return referee, sent, budget


def parts(sent: list[tuple[Any, str]], destination: Any) -> list[str]:
    return [part for where, message in sent if where == destination for part in message.split(" | ")]


# -- !score drawn as it leaves -------------------------------------------------------------------------------


def test_a_score_answer_held_by_the_budget_reads_the_score_as_it_is_when_it_leaves(
    verdict: DeckVerdict,
) -> None:
    """alice asks ``!score`` in the fights; her answer waits for the budget while her creature kills zoe's
    and scores at the end of combat. The answer she reads gives her point and her cleanup, not the old 0."""
    engine = engine_for(verdict)
    referee, sent, budget = chatting_referee(engine)

    async def scenario() -> None:
        await referee.on_chat(SEATS[ALICE], "!score")
        await referee.perform(engine.apply(rules.DeclareFight(player=ALICE, slot=0)))
        await referee.perform(engine.apply(rules.ResolveFight(player=ALICE)))
        await referee.perform(engine.apply(rules.EndCombat(player=ALICE)))
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    assert engine.seats[0].points == 1  # the fight scored meanwhile
    (score,) = [part for part in parts(sent, ("game", GAME)) if "Points:" in part]
    assert score == referee.score_line(), score
    assert "Points: alice 1, zoe 0." in score and "(cleanup)" in score, score


def test_state_asked_twice_while_waiting_is_answered_once(verdict: DeckVerdict) -> None:
    """An answer the same as one still waiting is not queued again: drawn as it leaves, the later one
    stands (both would read the same)."""
    engine = engine_for(verdict)
    referee, sent, budget = chatting_referee(engine)

    async def scenario() -> None:
        await referee.on_chat(SEATS[ALICE], "!state")
        await referee.on_chat(SEATS[ZOE], "!score")
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    assert [part for part in parts(sent, ("game", GAME)) if "Points:" in part] == [referee.score_line()]


def test_a_finished_game_s_state_answer_still_says_it_is_over(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict)
    referee, sent, budget = chatting_referee(engine)
    referee.finished = "game over: zoe conceded"

    async def scenario() -> None:
        await referee.on_chat(SEATS[ZOE], "!state")
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    (answer,) = [part for part in parts(sent, ("game", GAME)) if "Points:" in part]
    assert answer.startswith("The game is over (zoe conceded). Round 1/10"), answer


# -- the setup's reveal: one line ----------------------------------------------------------------------------


def test_the_setup_reveal_is_one_line_naming_both_players_creatures(verdict: DeckVerdict) -> None:
    """Seen: "alice reveals: Centaur Courser (1)." then "zoe reveals: Elvish Warrior (1).", two lines."""
    engine = set_up(verdict)
    courser = CardRef(engine.seats[0].creatures[0], "Centaur Courser")
    warrior = CardRef(engine.seats[1].creatures[0], "Elvish Warrior")
    revealed = [
        rules.CreaturesRevealed(ALICE, (courser, None, warrior, None, None)),
        rules.CreaturesRevealed(ZOE, (None, None, None, None, None)),
    ]
    lines = render_effects(revealed, engine, NAMES.__getitem__)
    assert lines == ["Creatures revealed: alice: Centaur Courser (1), Elvish Warrior (3); zoe: no creatures."]


def test_a_setup_reveal_too_long_for_one_line_is_one_line_per_player() -> None:
    """Ten long names do not fit one chat line: each player's reveal is a line of its own then, whole."""
    long_names = [CardRef(n, f"The Extraordinarily Long Named Creature Number {n}") for n in range(10)]
    revealed = [
        rules.CreaturesRevealed(ALICE, tuple(long_names[:5])),
        rules.CreaturesRevealed(ZOE, tuple(long_names[5:])),
    ]
    lines = revealed_lines(revealed, NAMES.__getitem__)
    assert len(lines) == 2 and all(len(line) <= MAX_CHAT_LINE for line in lines), lines
    assert lines[0].startswith("alice reveals: The Extraordinarily Long Named Creature Number 0 (1), ")
    assert lines[1].endswith("Number 9 (5).")


# -- a hand list for a player who is away --------------------------------------------------------------------


def test_a_hand_list_kept_for_a_player_who_is_away_is_the_hand_as_it_is_when_they_are_back(
    verdict: DeckVerdict,
) -> None:
    """alice discards (her new hand list is queued behind the budget), her connection goes (the server says
    she left: what waits for her is kept), and a draw changes her hand meanwhile. Back, she gets one hand
    list, as her hand is then, never the kept one whose numbers point at other cards."""
    engine = set_up(verdict)
    referee, sent, budget = held_referee(engine)
    chat = referee.bot.chat

    async def scenario() -> None:
        await referee.perform(engine.apply(rules.Discard(player=ALICE, card=engine.seats[0].hand[0])))
        chat.user_left("alice")
        await referee.perform(engine.apply(rules.Discard(player=ALICE, card=engine.seats[0].hand[0])))
        engine.apply(rules.Draw(player=ALICE, count=2))  # the hand changed while she was away
        budget["held"] = False
        chat.user_back("alice")
        await let_go(referee, budget, ("user", "alice"), ("game", GAME))

    asyncio.run(scenario())
    lists = [part for part in parts(sent, ("user", "alice")) if "Your hand:" in part]
    assert len(lists) == 1, lists
    assert lists[0].endswith(hand_message(engine, ALICE)), lists
    assert lists[0].startswith(f"Game #{GAME}"), lists  # said with no command before it: which game


def test_nothing_kept_for_a_player_who_is_away_is_given_back_once_the_game_is_over(
    verdict: DeckVerdict,
) -> None:
    engine = set_up(verdict)
    referee, sent, budget = held_referee(engine)
    chat = referee.bot.chat

    async def scenario() -> None:
        chat.user_left("zoe")
        await referee.perform(engine.apply(rules.Discard(player=ZOE, card=engine.seats[1].hand[0])))
        referee.finished = "game over: zoe left"
        budget["held"] = False
        chat.user_back("zoe")
        await let_go(referee, budget, ("user", "zoe"), ("game", GAME))

    asyncio.run(scenario())
    assert not [part for part in parts(sent, ("user", "zoe")) if "Your hand:" in part]


def test_a_hand_list_to_a_player_who_is_there_reads_as_before(verdict: DeckVerdict) -> None:
    engine = set_up(verdict)
    referee, sent, budget = held_referee(engine)

    async def scenario() -> None:
        await referee.perform(engine.apply(rules.Discard(player=ALICE, card=engine.seats[0].hand[0])))
        await let_go(referee, budget, ("user", "alice"), ("game", GAME))

    asyncio.run(scenario())
    assert parts(sent, ("user", "alice")) == [hand_message(engine, ALICE)]


def test_a_hand_list_to_a_player_in_several_games_says_which_and_keeps_its_topic(
    verdict: DeckVerdict,
) -> None:
    """The game's mark (``#1: ``) goes inside the tagged line: sent, it names the game; kept for a player who
    is away, it is still this game's topic, told by the recap when they are back."""
    engine = set_up(verdict)
    referee, sent, budget = held_referee(engine)
    referee.game_mark = lambda user: f"#{GAME}: "  # type: ignore[method-assign]
    chat = referee.bot.chat

    async def scenario() -> None:
        tell = bot_combat.CombatReferee.tell
        await tell(referee, "alice", referee.kept_as_recap(referee.hand_list_later(ALICE)))
        chat.user_left("zoe")
        await tell(referee, "zoe", referee.kept_as_recap(referee.hand_list_later(ZOE)))
        assert chat.holds("zoe") and not chat.held("zoe")  # the topic alone is kept
        await let_go(referee, budget, ("user", "alice"))

    asyncio.run(scenario())
    assert parts(sent, ("user", "alice")) == [f"#{GAME}: {hand_message(engine, ALICE)}"]
    assert referee.recap("zoe") == f"Game #{GAME}: {hand_message(engine, ZOE)}"
