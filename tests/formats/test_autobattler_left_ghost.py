"""A member who left the AutoBattler league (``!leave confirm``: their games are forfeits) was still named
"the Ghost and keeps playing" when they died first. The seed's Ghost "continues to play as normal": a member
who left cannot be it, so the group has none (and its three living players take turns sitting out)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats.autobattler import (
    AutoBattlerEngine,
    EndDraft,
    GhostNamed,
    LeaveLeague,
    MemberLeft,
)
from cockatrice_ext.formats.base import Effect, RulesError
from cockatrice_ext.formats.league import ReportResult, Start
from cockatrice_ext.journal import Journal, Table
from tests.formats.test_autobattler import (
    EIGHT,
    FOUR,
    end_draft,
    make_engine,
    opponents,
    play_round,
    random_action,
    refused,
)


def test_a_member_who_left_and_dies_first_is_not_the_ghost() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    assert engine.apply(LeaveLeague(None, target="ann")) == [MemberLeft("ann", False)]
    end_draft(engine)
    opp = opponents(engine)
    engine.poison["ann"] = 9
    effects = []
    for match in engine.league.current_matches():  # ann's game is lost by forfeit, the other is played
        effects += engine.apply(
            ReportResult(None, winner=opp["ann"] if "ann" in match.players else match.players[0])
        )
    assert engine.dead == ["ann"]
    assert not any(isinstance(e, GhostNamed) for e in effects), effects
    assert engine.ghosts == {} and "ann" not in engine.active()
    end_draft(engine)
    matches = engine.league.current_matches()
    games = [m for m in matches if len(m.players) == 2]
    (sits_out,) = [m for m in matches if len(m.players) == 1]
    assert len(games) == 1 and sits_out.decided and "ann" not in {p for m in matches for p in m.players}
    assert sorted(engine.playing) == sorted(games[0].players)


def test_a_ghost_who_leaves_plays_no_more_and_the_draft_does_not_wait_for_them() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    opp = opponents(engine)
    engine.poison["ann"] = 9
    play_round(engine, {"ann": opp["ann"]})
    assert engine.ghosts == {0: "ann"} and engine.phase == "draft"
    for player in ("bob", "cat", "dan"):
        engine.apply(EndDraft(player))
    assert engine.phase == "draft" and list(engine.waiting_for()) == ["ann"]
    effects = engine.apply(LeaveLeague(None, target="ann"))
    assert effects[0] == MemberLeft("ann", True)
    assert engine.phase == "play" and "ann" not in engine.active()
    assert "ann" not in engine.playing


def test_leaving_is_the_referees_and_only_for_members() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    refused(engine, LeaveLeague("ann", target="ann"), "referee_only")
    refused(engine, LeaveLeague(None, target="zed"), "not_a_member")
    engine.apply(LeaveLeague(None, target="bob"))
    assert engine.apply(LeaveLeague(None, target="bob")) == []  # said twice: nothing new


def test_leaving_is_journaled_and_replays() -> None:
    journal = Journal(":memory:")
    table = Table.create(journal, "t:ab", make_engine())
    table.apply(Start(None))
    table.apply(LeaveLeague(None, target="cat"))
    restored = Table.restore(journal, "t:ab")
    assert restored.engine.left == ["cat"] and restored.engine.snapshot() == table.engine.snapshot()


def _ghost_named(effects: list[Effect]) -> list[str]:
    return [e.player for e in effects if isinstance(e, GhostNamed)]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), eight=st.booleans(), leave_chance=st.sampled_from([0.01, 0.03]))
def test_nobody_who_left_is_ever_the_ghost(seed: int, eight: bool, leave_chance: float) -> None:
    """Random leagues where members leave at random moments (the referee then forfeits their games, as
    the bot does): a member who left is never named the Ghost, never drafts or plays as one, and every card
    stays in one place; the league still ends with a champion or keeps going."""
    engine = make_engine(players=EIGHT if eight else FOUR, seed=seed)
    rnd = random.Random(seed)
    for _ in range(1500):
        if engine.is_over():
            break
        if engine.phase != "setup" and rnd.random() < leave_chance:
            action = LeaveLeague(None, target=rnd.choice(engine.config.players))
        elif engine.phase == "play" and rnd.random() < 0.5:
            forfeit = next(
                (
                    m
                    for m in engine.league.current_matches()
                    if not m.decided and len(m.players) == 2 and any(p in engine.left for p in m.players)
                ),
                None,
            )
            if forfeit is None:
                action = random_action(engine, rnd)
            elif all(p in engine.left for p in forfeit.players):
                action = ReportResult(None, draw=True, match_of=forfeit.players[0])
            else:
                winner = next(p for p in forfeit.players if p not in engine.left)
                action = ReportResult(None, winner=winner)
        else:
            action = random_action(engine, rnd)
        left_before = set(engine.left)
        try:
            effects = engine.apply(action)
        except RulesError:
            continue
        assert not set(_ghost_named(effects)) & left_before, (effects, left_before)
        assert not any(engine.is_ghost(p) for p in engine.left)
        for group in range(len(engine.groups)):
            assert not set(engine.active(group)) & (set(engine.left) & set(engine.dead))
        check_invariants_allowing_a_sit_out(engine)


def check_invariants_allowing_a_sit_out(engine: AutoBattlerEngine) -> None:
    """:func:`~tests.formats.test_autobattler.check_invariants`, where a group whose first dead left plays
    with three."""
    everything = sorted(c for cards in engine.locations().values() for c in cards)
    assert everything == list(range(len(engine.config.cards)))
    assert all(t >= 0 for t in engine.treasures.values()) and all(p >= 0 for p in engine.poison.values())
    for group in range(len(engine.groups)):
        if group not in engine.group_winners:
            assert len(engine.alive(group)) >= 2
        active = engine.active(group)
        assert len(active) in (0, 2, 3, 4)
        if len(active) == 3:
            dead = [p for p in engine.groups[group] if p in engine.dead]
            assert len(dead) == 1 and dead[0] in engine.left
