"""How a fight, a combat and a game end early at a Combat table (no server).

* A defender who cast every card they had face down waited for ``!resolve`` or the 90 s clock; now the cast
  resolves the fight, and the clock is gone.
* A concession (or a leave) was never told to the engine: ``!score`` and the journal went on reading "in
  play" after the game-over line. Now the engine records who went and why, and every word agrees.
* Cockatrice's "next turn" ends nothing (anyone may press it, and Servatrice does not say who: a defender's
  press ended the attacker's combat): the turn goes back and the table reads, once per wait, what the turn,
  fight or combat waits for.
* A defender's ``!cast`` just after the clock resolved their fight says why there is nothing to answer.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from test_combat_answers_words import ALICE, NAMES, ZOE, engine_for
from test_combat_recheck_words import Timed, asked_to_answer

from cockatrice_ext.bot import combat as bot_combat
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee, DeckVerdict, fight_wait, turn_kept_line
from cockatrice_ext.client.mirror import PlayerState
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import RulesError

# -- the defender's last face-down card ----------------------------------------------------------------


def test_the_answer_clock_stops_when_the_defender_casts_the_last_face_down_card(
    verdict: DeckVerdict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock armed by the ask is cancelled by the cast, and no new one starts: nothing waits for zoe."""
    engine = asked_to_answer(verdict, "Giant Growth")
    started: list[int] = []

    async def told(*_: Any) -> None:  # the lines asking zoe are never read: the clock never runs out
        started.append(len(engine.stack))
        await asyncio.Event().wait()

    monkeypatch.setattr(bot_combat, "told", told)
    referee = Timed.__new__(Timed)
    referee.engine_names, referee.shown_names, referee.public = dict(NAMES), {}, []
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.closed = referee.finished = False
    referee.game_id, referee._answer_key, referee._answer_timer = 1, None, None

    async def scenario() -> None:
        referee.arm_answer_timer()  # zoe asked
        await asyncio.sleep(0)
        asked = referee._answer_timer
        assert asked is not None and started == [0]
        referee.public += bot_combat.render_effects(
            engine.apply(rules.CastSpell(player=ZOE, spell_slot=0)), engine, NAMES.__getitem__
        )
        referee.arm_answer_timer()  # as ``perform`` does after every action
        await asyncio.sleep(0)
        assert asked.cancelled() and referee._answer_timer is None and referee._answer_key is None

    asyncio.run(scenario())
    assert referee.public[:2] == ["zoe casts Giant Growth.", "Resolving: Giant Growth."]
    assert engine.answering_player() is None and engine.fought == [0] and started == [0]


# -- a player who goes -------------------------------------------------------------------------------------


class Ending(CombatReferee):
    """A referee without a server: a game mirror of its own, its chat and finish kept."""

    mirror = None  # type: ignore[assignment]
    seats_known = True  # type: ignore[assignment]
    public: list[str]
    finished_with: list[str]

    def apply(self, action: Any) -> list[Any]:
        return self.engine.apply(action)

    async def say(self, text: Any, **_: Any) -> None:
        self.public.append(str(text))

    async def finish(self, reason: str, *, linger: float | None = None) -> None:
        self.finished_with.append(reason)
        self.finished = self.finished or reason


def ending(
    engine: rules.CombatEngine, *, started: bool = True, kind: type[Ending] = Ending, **conceded: bool
) -> Ending:
    """``alice`` (seat 11) and ``zoe`` (seat 12) seated, each conceded as ``conceded`` says; ``kind`` is the
    referee's class (an :class:`Ending`)."""
    players = {
        11: PlayerState(11, name="alice", conceded=conceded.get("alice", False)),
        12: PlayerState(12, name="zoe", conceded=conceded.get("zoe", False)),
    }
    mirror = SimpleNamespace(started=started, players=players, local_player_id=99)
    bot = SimpleNamespace(server_key="test", client=SimpleNamespace(games={1: mirror}))
    referee = kind(bot, 1, 1, CombatOptions())  # type: ignore[arg-type]
    referee.mirror = mirror  # type: ignore[assignment]
    referee.engine_names = dict(NAMES)
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.public, referee.finished_with = [], []
    referee.live = True
    return referee


def test_a_concession_ends_the_game_in_the_engine_and_every_word_agrees(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict)
    referee = ending(engine, alice=True)
    assert asyncio.run(referee.settle_departure()) is True
    assert (
        engine.is_over() and engine.winner == ZOE and engine.out == ALICE and engine.out_reason == "conceded"
    )
    assert referee.public == ["Game over: alice conceded; zoe wins."]
    assert referee.finished_with == ["game over: alice conceded; zoe wins"]
    assert referee.status() == "over (alice conceded; zoe wins)"  # !games
    assert referee.score_line().startswith("The game is over: alice conceded; zoe wins. Points:")
    assert referee.explain(RulesError("game_over")) == "the game is over: alice conceded; zoe wins"
    assert asyncio.run(referee.settle_departure()) is False  # once


def test_a_player_who_left_ends_the_game(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict)
    referee = ending(engine)
    del referee.mirror.players[12]  # zoe's seat is gone
    assert asyncio.run(referee.settle_departure()) is True
    assert engine.winner == ALICE and engine.out == ZOE and engine.out_reason == "left"
    assert referee.public == ["Game over: zoe left; alice wins."]


def test_a_game_cockatrice_stopped_at_a_concession_records_it(verdict: DeckVerdict) -> None:
    """Watching, Cockatrice stops the game at a concession (then says who conceded): the stop is read with
    ``stopped``; without it a stopped game records nothing, and nobody who went records nothing."""
    engine = engine_for(verdict)
    assert asyncio.run(ending(engine, started=False, zoe=True).settle_departure()) is False
    assert asyncio.run(ending(engine, started=False).settle_departure(stopped=True)) is False
    assert not engine.is_over()
    referee = ending(engine, started=False, zoe=True)
    assert asyncio.run(referee.settle_departure(stopped=True)) is True
    assert engine.winner == ALICE and referee.finished_with == ["game over: zoe conceded; alice wins"]


def test_a_player_who_went_while_the_referee_was_away_ends_the_game_when_it_is_back(
    verdict: DeckVerdict,
) -> None:
    engine = engine_for(verdict)
    referee = ending(engine, zoe=True)
    referee._lock = asyncio.Lock()
    asyncio.run(referee.on_reconnected())
    assert referee.public == [
        "While the referee was away: zoe conceded.",
        "Game over: zoe conceded; alice wins.",
    ]
    assert engine.winner == ALICE and engine.out == ZOE


# -- Cockatrice's "next turn" during the fights ----------------------------------------------------------


class Passing(Ending):
    """An :class:`Ending` whose turn keeping is recorded, not sent."""

    reminded: list[tuple[Any, ...]]

    async def follow_engine_turn(self) -> None:
        return None

    def remind_turn_later(self, target: Any) -> None:
        self.reminded.append((target, *fight_wait(self.engine)))

    async def perform(self, effects: list[Any]) -> None:
        self.public += bot_combat.render_effects(effects, self.engine, self.player_name)


def passing(engine: rules.CombatEngine) -> Passing:
    referee = ending(engine, kind=Passing)
    assert isinstance(referee, Passing)
    referee.reminded = []
    return referee


def test_next_turn_with_no_fight_pending_does_not_end_combat(verdict: DeckVerdict) -> None:
    """A press may be the defender's (Servatrice does not say whose): it ended the attacker's combat, with
    fights still to make (a field tester, four times in ten games). Only ``!pass`` ends it."""
    engine = engine_for(verdict)
    referee = passing(engine)
    before = engine.snapshot()
    asyncio.run(referee.on_active_player(12))  # Cockatrice gave zoe the turn during alice's fights
    assert engine.snapshot() == before and engine.step == "fights" and engine.whose_turn == ALICE
    assert referee.public == [] and referee.reminded == [(ALICE,)]


def test_a_press_that_gives_the_turn_to_the_referees_seat_is_answered_too(verdict: DeckVerdict) -> None:
    """The player seated before the referee pressed: the turn lands on the referee's own seat, and that
    press was passed on without a word."""
    engine = engine_for(verdict)
    referee = passing(engine)
    asyncio.run(referee.on_active_player(referee.me))
    assert referee.reminded == [(ALICE,)] and engine.step == "fights"


@pytest.mark.parametrize("answering", [False, True], ids=["attacker-to-resolve", "defender-to-answer"])
def test_next_turn_during_a_fight_never_ends_it(verdict: DeckVerdict, answering: bool) -> None:
    engine = engine_for(verdict, zoe_sets="Giant Growth")
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    if answering:
        engine.apply(rules.ResolveFight(player=ALICE))
    referee = passing(engine)
    before = engine.snapshot()
    asyncio.run(referee.on_active_player(12))
    assert engine.snapshot() == before  # the fight and the turn go on
    assert referee.public == [] and referee.reminded == [(ALICE, 0, answering)]


def test_the_line_says_what_the_fight_waits_for(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict, zoe_sets="Giant Growth")
    name = NAMES.__getitem__
    assert turn_kept_line(engine, ALICE, name) == (
        "It is still alice's turn: alice, !fight SLOT, or !pass to end combat (passing the turn in Cockatrice"
        " does not: anyone can press it)."
    )
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    assert turn_kept_line(engine, ALICE, name) == (
        "It is still alice's turn: the fight in slot 1 waits for alice's !cast or !resolve."
    )
    first = fight_wait(engine)
    engine.apply(rules.ResolveFight(player=ALICE))
    assert fight_wait(engine) != first  # a new wait: said once more
    assert turn_kept_line(engine, ALICE, name) == (
        "It is still alice's turn: the fight in slot 1 waits for zoe's answer (!cast an instant or !resolve;"
        f" it resolves by itself within {bot_combat.ANSWER_SECONDS:g} s)."
    )


def test_a_defenders_answer_just_after_the_clock_says_it_came_too_late(verdict: DeckVerdict) -> None:
    """A race tester: after "zoe did not answer in 90 s: the referee resolves...", zoe's late ``!cast 1`` read
    "no fight is declared". The answer now says the clock resolved it; another player's reads as before."""
    engine = engine_for(verdict)
    referee = CombatReferee.__new__(CombatReferee)
    referee.engine_names, referee.shown_names = dict(NAMES), {}
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]

    async def answers() -> list[str]:
        referee._answered_for = (ZOE, 0, asyncio.get_running_loop().time())
        said = []
        for sender in ("zoe", "alice"):
            ctx = SimpleNamespace(sender=sender, scope="game")
            said.append(referee.refusal(RulesError("no_fight_pending"), ctx).text)  # type: ignore[arg-type]
        return said

    late, other = asyncio.run(answers())
    seconds = bot_combat.ANSWER_SECONDS
    assert late == f"too late: the fight in slot 1 was resolved when your {seconds:g} s to answer ran out"
    assert other == "no fight is declared"


def test_the_reminder_is_said_once_per_step(verdict: DeckVerdict) -> None:
    """A re-check tester: a press in the main step used up the turn's one reminder, so the fights step's, the
    one saying ``!pass`` ends combat, was never said. One per step now (and per fight wait)."""
    engine = engine_for(verdict)  # alice's fights, no fight pending
    referee = CombatReferee.__new__(CombatReferee)
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee._turn_told, referee._reminders = set(), set()
    said: list[tuple[Any, ...]] = []

    async def remind(key: tuple[Any, ...]) -> None:
        said.append(key)

    referee._remind_turn = remind  # type: ignore[method-assign]

    async def presses() -> None:
        step = engine.step
        engine.step = "main"  # an earlier press this turn, in the main step
        referee.remind_turn_later(ALICE)
        referee.remind_turn_later(ALICE)
        engine.step = step
        referee.remind_turn_later(ALICE)
        referee.remind_turn_later(ALICE)
        await asyncio.sleep(0)

    asyncio.run(presses())
    assert [key[2] for key in said] == ["main", "fights"], said
