"""Vortex: a player leaves the game (concedes or leaves the Cockatrice game) -> ``RemovePlayer``.

Out of the turn order for good, their pack to the bottom of the shoe (no card lost), the last player left
wins. Field bug: a three-player game froze for good once one player conceded (the engine kept them in the
turn order, so the bot could never bring Cockatrice's turn in line with the engine's).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats.base import Action, decode_action, encode_action
from cockatrice_ext.formats.vortex import (
    ChooseBasics,
    DrawStep,
    EndTurn,
    GameOver,
    Pick,
    PlayerOut,
    RemovePlayer,
    StartGame,
    TurnEnded,
    TurnStarted,
    VortexEngine,
)
from cockatrice_ext.journal import Journal, Table
from tests.formats.test_vortex import (
    assert_refused,
    check_invariants,
    new_engine,
    play_random,
    pool,
    random_action,
    to_play,
)

THREE = (1, 2, 3)


def three_in_play() -> VortexEngine:
    engine = new_engine(players=THREE, cards=pool(40, 3))
    to_play(engine)
    return engine


def test_a_player_who_is_not_active_leaves_the_turn_order_and_their_pack_goes_to_the_shoe_bottom() -> None:
    engine = three_in_play()
    engine.apply(EndTurn(1))  # turn 2: player 2 active
    shoe_before = list(engine.shoe)
    pack = sorted(engine.players[3].pack)
    effects = engine.apply(RemovePlayer(None, target=3, reason="conceded"))
    assert effects == [PlayerOut(3, "conceded", len(pack), len(engine.shoe), (1, 2))]
    assert engine.shoe[: len(shoe_before)] == shoe_before  # the known top is untouched
    assert sorted(engine.shoe[len(shoe_before) :]) == pack
    assert engine.in_game == (1, 2) and engine.whose_turn == 2
    check_invariants(engine)
    effects = engine.apply(EndTurn(2))
    assert TurnStarted(1, 3, "play") in effects  # player 3 is skipped
    assert_refused(engine, Pick(3, 0), "player_out")


def test_the_active_player_leaving_ends_their_turn_without_a_pass_step() -> None:
    engine = three_in_play()
    engine.apply(EndTurn(1))
    engine.apply(DrawStep(None))  # player 2 has a pick to make
    passed = list(engine.passed)
    effects = engine.apply(RemovePlayer(None, target=2, reason="left"))
    assert TurnEnded(2, "player_out") in effects
    assert effects[-1] == TurnStarted(3, 3, "play")
    assert engine.passed == passed and engine.whose_turn == 3
    assert not engine.players[2].pick_pending
    check_invariants(engine)


def test_the_last_player_left_wins_and_the_game_is_over() -> None:
    engine = three_in_play()
    engine.apply(RemovePlayer(None, target=1, reason="conceded"))
    effects = engine.apply(RemovePlayer(None, target=3, reason="left"))
    assert effects[-1] == GameOver(2, "left")
    assert engine.phase == "over" and engine.winner == 2 and engine.whose_turn is None
    check_invariants(engine)
    assert_refused(engine, EndTurn(2), "wrong_phase")
    assert_refused(engine, RemovePlayer(None, target=2), "wrong_phase")


def test_leaving_in_the_opening_draft_the_others_finish_their_opening_turns() -> None:
    engine = new_engine(players=THREE, cards=pool(40, 3))
    engine.apply(StartGame(None))
    engine.apply(Pick(1, 0))  # player 2 is drafting now
    engine.apply(RemovePlayer(None, target=2, reason="conceded"))
    assert engine.whose_turn == 3 and engine.pending_pick(3)
    while engine.phase == "opening":
        assert engine.whose_turn in (1, 3)
        engine.apply(Pick(engine.whose_turn, 0))
        check_invariants(engine)
    assert engine.phase == "basics"
    assert [len(engine.players[p].owned) for p in THREE] == [4, 0, 4]
    engine.apply(ChooseBasics(3, ("Forest",) * 3))
    engine.apply(ChooseBasics(1, ("Forest",) * 3))
    assert engine.phase == "play" and engine.whose_turn == 1


def opening_numbers(effects: list[object]) -> list[int]:
    return [e.turn for e in effects if isinstance(e, TurnStarted) and e.phase == "opening"]


def test_the_opening_turn_after_the_active_player_left_gets_the_next_number() -> None:
    """Field bug: "Opening turn 5" was said twice (the engine numbered the turns finished, and the turn of a
    player who left mid-turn never finished). The numbers follow the turns players get."""
    engine = new_engine(players=THREE, cards=pool(40, 3), number_opening_turns_given=True)
    said = opening_numbers(engine.apply(StartGame(None)))
    for _ in range(4):  # turns 1-4: players 1, 2, 3, 1
        said += opening_numbers(engine.apply(Pick(engine.whose_turn, 0)))
    assert said == [1, 2, 3, 4, 5] and engine.whose_turn == 2  # opening turn 5 is player 2's
    said += opening_numbers(engine.apply(RemovePlayer(None, target=2, reason="left")))
    while engine.phase == "opening":
        said += opening_numbers(engine.apply(Pick(engine.whose_turn, 0)))
    assert said == list(range(1, len(said) + 1))  # 1, 2, ... each once: 6 after the departure
    assert engine.snapshot()["opening_turns_begun"] == len(said)


def test_a_game_journaled_before_the_numbering_replays_as_it_was_played() -> None:
    """Without the config flag (a journal from before it), the turn after the departure keeps the number
    the old rules said, so the recorded effects still match."""
    engine = new_engine(players=THREE, cards=pool(40, 3))
    engine.apply(StartGame(None))
    for _ in range(4):
        engine.apply(Pick(engine.whose_turn, 0))
    assert opening_numbers(engine.apply(RemovePlayer(None, target=2, reason="left"))) == [5]


def test_leaving_while_basics_are_chosen_lets_play_begin_with_the_first_player_still_in() -> None:
    engine = new_engine(players=THREE, cards=pool(40, 3))
    engine.apply(StartGame(None))
    while engine.phase == "opening":
        engine.apply(Pick(engine.whose_turn, 0))
    engine.apply(ChooseBasics(2, ("Island",) * 3))
    engine.apply(ChooseBasics(3, ("Island",) * 3))
    effects = engine.apply(RemovePlayer(None, target=1, reason="left"))
    assert effects[-1] == TurnStarted(2, 1, "play")
    assert engine.phase == "play" and engine.whose_turn == 2


def test_refusals() -> None:
    engine = new_engine(players=THREE, cards=pool(40, 3))
    assert_refused(engine, RemovePlayer(None, target=1), "not_started")
    engine.apply(StartGame(None))
    assert_refused(engine, RemovePlayer(1, target=2), "referee_only")
    assert_refused(engine, RemovePlayer(None, target=9), "not_a_player")
    engine.apply(RemovePlayer(None, target=2))
    assert_refused(engine, RemovePlayer(None, target=2), "player_out")


def test_remove_player_json_round_trip() -> None:
    action = RemovePlayer(None, target=3, reason="conceded")
    assert decode_action(VortexEngine, encode_action(action)) == action


def random_action_with_departures(rng: random.Random, engine: VortexEngine) -> Action:
    """As :func:`test_vortex.random_action`, with now and then a player (or a stranger) leaving."""
    if rng.random() < 0.04:
        who = rng.choice([None, None, None, 1])
        return RemovePlayer(who, target=rng.choice([*engine.config.players, 99]))
    return random_action(rng, engine)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), spells=st.integers(0, 60))
def test_random_play_with_departures_keeps_invariants(seed: int, players: int, spells: int) -> None:
    """Cards are conserved, no card is in two places, only players still in act or are active."""
    engine = new_engine(players=tuple(range(1, players + 1)), cards=pool(spells, players))
    play_random(engine, seed, 150, choose=random_action_with_departures)
    assert engine.whose_turn is None or engine.whose_turn in engine.in_game
    for gone in engine.out:
        assert engine.players[gone].pack == [] and not engine.players[gone].pick_pending
    assert (engine.phase == "over") == (len(engine.in_game) == 1)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_journal_round_trip_with_departures(seed: int) -> None:
    """A restart replays departures exactly (the pack's order in the shoe comes from the seeded rng)."""
    journal = Journal(":memory:")
    engine = new_engine(players=(10, 20, 30), cards=pool(25, 3))
    table = Table.create(journal, "vortex-1", engine)
    play_random(engine, seed, 150, table=table, choose=random_action_with_departures)
    assert journal.restore("vortex-1").snapshot() == engine.snapshot()


@pytest.mark.parametrize("gone", [1, 2])
def test_two_players_one_leaves_the_other_wins(gone: int) -> None:
    engine = new_engine()
    to_play(engine)
    effects = engine.apply(RemovePlayer(None, target=gone, reason="conceded"))
    assert effects[-1] == GameOver(3 - gone, "conceded")
