"""Vortex: the pick timer's random pick (AutoPick) and which pending pick holds the end of a turn back."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats.base import decode_action, encode_action
from cockatrice_ext.formats.vortex import (
    AutoPick,
    CardPicked,
    Draw,
    EndTurn,
    PackMulligan,
    Pick,
    PickTimedOut,
    StartGame,
    VortexEngine,
)
from cockatrice_ext.journal import Journal, Table
from tests.formats.test_vortex import (
    assert_refused,
    check_invariants,
    five_basics_in_pack,
    land_heavy_engine,
    new_engine,
    play_random,
    pool,
    random_action,
    to_play,
)


def test_the_timer_picks_a_random_card_of_the_idle_players_pack() -> None:
    engine = new_engine()
    to_play(engine)
    engine.apply(Draw(2, 1))
    pack = [ref.index for ref in engine.pack(2)]
    effects = engine.apply(AutoPick(None, target=2))
    assert effects[0] == PickTimedOut(2, 7)
    picked = next(e for e in effects if isinstance(e, CardPicked))
    assert picked.player == 2 and picked.visible_to == 2 and picked.card.index in pack
    assert not engine.pending_pick(2) and picked.card.index in engine.players[2].owned


def test_the_random_pick_follows_the_seed() -> None:
    chosen = set()
    for seed in range(12):
        engine = new_engine(seed=3)
        to_play(engine)
        engine.apply(Draw(1, 1))
        engine.rng.seed(seed)
        chosen.add(next(e for e in engine.apply(AutoPick(None, target=1)) if isinstance(e, CardPicked)).card)
    assert len(chosen) > 1  # random, not always the first card
    twins = [new_engine(seed=5), new_engine(seed=5)]
    for engine in twins:
        to_play(engine)
        engine.apply(Draw(1, 1))
    assert twins[0].apply(AutoPick(None, target=1)) == twins[1].apply(AutoPick(None, target=1))


def test_auto_pick_is_the_referees_and_needs_a_pending_pick() -> None:
    engine = new_engine()
    assert_refused(engine, AutoPick(None, target=1), "not_started")
    to_play(engine)
    assert_refused(engine, AutoPick(None, target=1), "no_pick_pending")
    engine.apply(Draw(1, 1))
    assert_refused(engine, AutoPick(2, target=1), "referee_only")
    assert_refused(engine, AutoPick(None, target=9), "not_a_player")


def test_the_timer_works_in_the_opening_draft_too() -> None:
    engine = new_engine()
    engine.apply(StartGame(None))
    first = engine.whose_turn
    effects = engine.apply(AutoPick(None, target=first))
    assert isinstance(effects[0], PickTimedOut) and engine.whose_turn != first


def test_another_players_pending_pick_does_not_hold_the_turn_back() -> None:
    engine = new_engine(players=(1, 2, 3), cards=pool(40, 3))
    to_play(engine)
    engine.apply(Draw(2, 2))  # "each player draws": bob picks twice, from his own pack
    bob_pack = [ref.index for ref in engine.pack(2)]
    engine.apply(EndTurn(None))
    assert engine.whose_turn == 2 and engine.pending_pick(2) and engine.players[2].pending_draws == 1
    assert [ref.index for ref in engine.pack(2)] == bob_pack  # the pass step did not touch it
    engine.apply(Pick(2, 0))
    assert engine.pending_pick(2)  # his second draw goes on
    engine.apply(Pick(2, 0))
    assert not engine.pending_pick(2)


def test_the_active_players_own_pick_still_comes_first() -> None:
    engine = new_engine()
    to_play(engine)
    engine.apply(Draw(1, 1))
    assert_refused(engine, EndTurn(None), "pick_pending")


def test_a_pending_pick_of_another_player_does_not_stop_a_pack_mulligan() -> None:
    engine = land_heavy_engine()
    five_basics_in_pack(engine, 1)
    engine.apply(Draw(2, 1))
    engine.apply(PackMulligan(1))
    assert engine.pending_pick(2) and engine.players[1].pack == []


def timed_action(rng: random.Random, engine: VortexEngine) -> Any:
    """Random play in which an idle picker's time often runs out."""
    pending = [p for p in engine.config.players if engine.players[p].pick_pending]
    if pending and rng.random() < 0.4:
        return AutoPick(None, target=rng.choice(pending))
    return random_action(rng, engine)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_timed_out_picks_keep_every_card_somewhere_once(seed: int, players: int) -> None:
    engine = new_engine(players=tuple(range(1, players + 1)), cards=pool(30, players))
    play_random(engine, seed, 150, choose=timed_action)
    check_invariants(engine)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_journal_replay_with_timed_out_picks(seed: int) -> None:
    journal = Journal(":memory:")
    engine = new_engine(players=(10, 20, 30), cards=pool(25, 3))
    table = Table.create(journal, "vortex-1", engine)
    play_random(engine, seed, 120, table=table, choose=timed_action)
    assert journal.restore("vortex-1").snapshot() == engine.snapshot()
    action = AutoPick(None, target=20)
    assert decode_action(VortexEngine, encode_action(action)) == action
