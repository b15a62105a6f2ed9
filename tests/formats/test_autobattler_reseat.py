"""AutoBattler with eight players (seed 003, "How Many Players Does this Work For?"): either two isolated
groups of four whose winners play a final, or "Re-seat players whenever hand sizes increase"."""

from __future__ import annotations

import random

from formats.test_autobattler import (  # the tests folder is on sys.path (conftest.py)
    EIGHT,
    FOUR,
    assert_journal_replays,
    check_invariants,
    end_draft,
    make_engine,
    play_randomly,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats.autobattler import AutoBattlerEngine, PlayersReseated
from cockatrice_ext.formats.base import Action, Effect
from cockatrice_ext.formats.league import ReportResult, Start


def play_minigame(engine: AutoBattlerEngine, rnd: random.Random) -> list[Effect]:
    """Finish the draft and report a random winner for every match of the mini-game."""
    end_draft(engine)
    effects: list[Effect] = []
    while engine.phase == "play":
        match = next(m for m in engine.league.current_matches() if not m.decided)
        effects += engine.apply(ReportResult(None, winner=rnd.choice(match.players)))
    return effects


def test_players_change_tables_when_the_hand_size_grows_and_only_then() -> None:
    engine = make_engine(players=EIGHT, seed=11, reseat_on_energy=True)
    engine.apply(Start(None))
    rnd = random.Random(2)
    first = [list(g) for g in engine.groups]
    for _ in range(2):
        assert not [e for e in play_minigame(engine, rnd) if isinstance(e, PlayersReseated)]
        assert engine.groups == first
    engine.poison[first[0][0]] = 10  # dead before the third mini-game ends: they keep their seat
    (reseated,) = [e for e in play_minigame(engine, rnd) if isinstance(e, PlayersReseated)]
    assert engine.energy == 4 and [list(g) for g in reseated.groups] == engine.groups
    assert sorted(p for g in engine.groups for p in g) == sorted(EIGHT)
    assert sorted(map(sorted, engine.groups)) != sorted(map(sorted, first))
    for group, old in zip(engine.groups, first, strict=True):
        assert len(group) == 4
        assert [p for p in group if p in engine.dead] == [p for p in old if p in engine.dead]
    assert first[0][0] in engine.groups[0]
    end_draft(engine)
    for match in engine.league.current_matches():  # the next pairings are made at the new tables
        assert engine.group_of(match.players[0]) == engine.group_of(match.players[-1])


def test_isolated_groups_keep_their_tables_and_four_players_are_never_reseated() -> None:
    rnd = random.Random(4)
    isolated = make_engine(players=EIGHT, seed=11)
    four = make_engine(players=FOUR, seed=11, reseat_on_energy=True)
    for engine in (isolated, four):
        engine.apply(Start(None))
        first = [list(g) for g in engine.groups]
        for _ in range(6):
            assert not [e for e in play_minigame(engine, rnd) if isinstance(e, PlayersReseated)]
        assert engine.groups == first


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_with_reseating_keeps_the_tables_whole(seed: int) -> None:
    """Tables stay four seats each, every player sits at exactly one, a table never loses a dead player or
    gains one, and only an undecided league is reseated."""
    engine = make_engine(players=EIGHT, seed=seed, reseat_on_energy=True)

    def apply(action: Action) -> list[Effect]:
        dead_at = {p: engine.group_of(p) for p in engine.dead}
        effects = engine.apply(action)
        assert sorted(p for g in engine.groups for p in g) == sorted(EIGHT)
        assert all(len(g) == 4 for g in engine.groups)
        assert all(engine.group_of(p) == g for p, g in dead_at.items())
        if any(isinstance(e, PlayersReseated) for e in effects):
            assert not engine.group_winners
        check_invariants(engine)
        return effects

    play_randomly(engine, seed, 3000, apply=apply)


def test_journal_round_trip_with_reseating() -> None:
    engine = make_engine(players=EIGHT, seed=23, reseat_on_energy=True)
    assert_journal_replays(engine, 23, 3000)
    assert engine.energy > 3
