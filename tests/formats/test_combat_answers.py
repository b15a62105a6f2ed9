"""The defender's answer before a fight (seed 004: "The defending player may also reveal any number of spell
cards; however, these may only be instants. Resolve these spells in last-in-first-out order").

Seen in the field: the active player's ``!resolve`` settled the fight at once, so a defender holding an
instant face down never had the chance to cast it. Now the attacker's ``ResolveFight`` ends the attacker's
reveals; a defender with a face-down spell (a public fact) then casts instants and resolves the fight, or the
referee resolves it for them.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.formats.combat import (
    BeginCombat,
    CastSpell,
    CombatConfig,
    CombatEngine,
    CombatReady,
    DeclareFight,
    DefenderToAnswer,
    EndCombat,
    Equip,
    FightResolved,
    PlaceSpell,
    ResolveFight,
    SpellCast,
    SpellsResolved,
    StartGame,
)
from cockatrice_ext.journal import Journal, Table
from tests.formats.test_combat import (
    A,
    B,
    assert_refused,
    check_invariants,
    deck,
    give,
    idx,
    new_engine,
    random_action,
    to_play,
)


def fight_with_spells(a_spells: tuple[str, ...], b_spells: tuple[str, ...]) -> CombatEngine:
    """Round 1, A's turn: a creature each in slot 1, the named spells set face down (slots 0..), both
    ready, A's fight in slot 0 declared."""
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0",), b_setup=("B Creature 0",))
    give(engine, *a_spells, *b_spells)
    engine.apply(BeginCombat(A))
    for player, names in ((A, a_spells), (B, b_spells)):
        for slot, name in enumerate(names):
            engine.apply(PlaceSpell(player, name, slot))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    engine.apply(DeclareFight(A, 0))
    return engine


def test_a_defender_with_a_face_down_spell_answers_before_the_fight_resolves() -> None:
    """A's ``ResolveFight`` hands the fight to B, who casts an instant (only instants) and resolves it:
    every spell resolves last in, first out, B's instant first, then the fight, A's."""
    engine = fight_with_spells(("A Sorcery 1",), ("B Bolt 1", "B Sorcery 1"))
    engine.apply(CastSpell(A, 0))
    assert engine.answering_player() is None
    assert_refused(engine, ResolveFight(B), "active_player_first")  # A reveals first
    assert engine.apply(ResolveFight(A)) == [DefenderToAnswer(B, 0)]
    assert engine.answering_player() == B and engine.fight_slot == 0
    give(engine, "A Bolt 1")
    for refused, code in (
        (CastSpell(A, 1), "defender_answering"),  # A is done revealing for this fight
        (ResolveFight(A), "defender_answering"),
        (EndCombat(A), "fight_pending"),
        (DeclareFight(A, 1), "fight_pending"),
        (Equip(A, 0, 0), "fight_pending"),
        (CastSpell(B, 1), "defender_instants_only"),
    ):
        assert_refused(engine, refused, code)
    cast = engine.apply(CastSpell(B, 0))
    assert [type(e) for e in cast] == [SpellCast] and engine.answering_player() == B
    effects = engine.apply(ResolveFight(B))
    (resolved,) = [e for e in effects if isinstance(e, SpellsResolved)]
    assert [ref.name for ref in resolved.cards] == ["B Bolt 1", "A Sorcery 1"]
    (fight,) = [e for e in effects if isinstance(e, FightResolved)]
    assert fight.player == A and fight.slot == 0  # the fight is the attacker's, whoever resolved it
    assert engine.answering_player() is None and engine.fight_slot is None and engine.fought == [0]
    assert idx(engine, "B Sorcery 1") in engine.seats[1].spells  # still face down, for a later turn
    check_invariants(engine)


def test_a_defender_without_a_face_down_spell_is_not_waited_for() -> None:
    """Nothing face down on B's side (public): A's ``ResolveFight`` resolves the fight at once, as before;
    so it does once B has cast every card B set."""
    engine = fight_with_spells(("A Bolt 1",), ())
    engine.apply(CastSpell(A, 0))
    effects = engine.apply(ResolveFight(A))
    assert any(isinstance(e, FightResolved) for e in effects) and engine.fight_slot is None

    engine = fight_with_spells((), ("B Bolt 1",))
    engine.apply(CastSpell(B, 0))  # the defender may cast before the attacker is done, as before
    effects = engine.apply(ResolveFight(A))
    assert not any(isinstance(e, DefenderToAnswer) for e in effects)
    assert any(isinstance(e, FightResolved) for e in effects)


@pytest.mark.parametrize(
    "held",
    [("B Sorcery 1",), ("B Bolt 2",), ("B Sorcery 1", "B Bolt 3")],
    ids=["sorcery", "above-cap", "both"],
)
def test_a_defender_who_can_cast_nothing_is_asked_all_the_same(held: tuple[str, ...]) -> None:
    """The write-up keeps face-down cards hidden: waiting only for a defender with a castable instant would
    tell the attacker that they hold one. B (nothing castable in round 1) is asked exactly as a B holding
    an instant is; ``castable_spells`` (private) says that nothing of B's can be cast now."""
    engine = fight_with_spells((), held)
    assert engine.apply(ResolveFight(A)) == [DefenderToAnswer(B, 0)]
    assert engine.answering_player() == B and engine.castable_spells(B) == []
    effects = engine.apply(ResolveFight(B))
    assert any(isinstance(e, FightResolved) for e in effects)
    assert all(idx(engine, name) in engine.seats[1].spells for name in held)  # still face down
    check_invariants(engine)


def test_castable_spells_follow_the_cap_and_the_defender_s_instants_only() -> None:
    """B's castable face-down spells, by slot: instants within the round's cap; A (active) may also cast a
    sorcery within it."""
    engine = fight_with_spells(("A Sorcery 1", "A Bolt 2"), ("B Sorcery 1", "B Bolt 1", "B Bolt 2"))
    assert engine.castable_spells(B) == [1]
    assert engine.castable_spells(A) == [0]
    engine.apply(ResolveFight(A))
    engine.apply(CastSpell(B, 1))
    assert engine.castable_spells(B) == []  # what is left: a sorcery and an instant above the cap


def test_the_referee_resolves_for_a_defender_who_does_not_answer() -> None:
    """The referee's ``ResolveFight`` (``player=None``: its timer) answers for the defender, only while the
    fight waits for them."""
    engine = fight_with_spells((), ("B Bolt 1",))
    assert_refused(engine, ResolveFight(None), "not_a_player")  # not for the attacker
    engine.apply(ResolveFight(A))
    effects = engine.apply(ResolveFight(None))
    (fight,) = [e for e in effects if isinstance(e, FightResolved)]
    assert fight.player == A and engine.answering_player() is None
    assert idx(engine, "B Bolt 1") in engine.seats[1].spells  # not cast: it stays set
    assert_refused(engine, ResolveFight(None), "not_a_player")  # nothing waits for a defender now


def test_the_wait_ends_with_the_turn_s_fights_and_the_next_fight_asks_again() -> None:
    """Each fight gives the defender a turn to answer while they have a face-down spell."""
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0", "A Creature 1"), b_setup=("B Creature 0", "B Creature 1"))
    give(engine, "B Bolt 1", "B Bolt 2")
    engine.apply(BeginCombat(A))
    engine.apply(PlaceSpell(B, "B Bolt 1", 0))
    engine.apply(PlaceSpell(B, "B Bolt 2", 1))  # above round 1's cap: never castable now, still face down
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    for slot in (0, 1):
        engine.apply(DeclareFight(A, slot))
        assert engine.apply(ResolveFight(A)) == [DefenderToAnswer(B, slot)]
        engine.apply(ResolveFight(B))
    engine.apply(EndCombat(A))
    assert engine.answering_player() is None


def test_an_old_journal_without_the_rule_replays_as_it_was_played() -> None:
    """A game journaled before the rule: its config has no ``defender_answers``, and the attacker's
    ``ResolveFight`` settled the fight though the defender had a spell face down. It replays so; new games
    (``from_decks``) have the rule."""
    assert CombatConfig().defender_answers is False
    assert CombatConfig.from_decks((A, B), (deck("A"), deck("B"))).defender_answers is True
    journal = Journal(":memory:")
    engine = old_game_with_a_fight()
    table = Table.create(journal, "old", engine)
    for action in fight_actions(engine, new_engine(seed=engine.seed, defender_answers=False)):
        table.apply(action)
    assert engine.fought == [0] and engine.seats[1].spells[0] is not None  # settled, B never asked
    database = journal._db
    (stored,) = database.execute("SELECT config FROM tables WHERE key='old'").fetchone()
    config = json.loads(stored)
    assert config.pop("defender_answers") is False
    database.execute("UPDATE tables SET config=? WHERE key='old'", (json.dumps(config),))
    assert journal.restore("old").snapshot() == engine.snapshot()


def old_game_with_a_fight() -> CombatEngine:
    """A game without the rule whose opening hands hold a creature of mana value 3 or less each and a
    spell for B (a fresh engine: nothing applied yet)."""
    for seed in range(200):
        engine = new_engine(seed=seed, defender_answers=False)
        if fight_actions(engine, new_engine(seed=seed, defender_answers=False)):
            return new_engine(seed=seed, defender_answers=False)
    raise AssertionError("no suitable seed")


def fight_actions(engine: CombatEngine, trial: CombatEngine) -> list[object]:
    """The actions of a start, a creature each, B's spell set face down and A's fight in slot 0 resolved by
    A, from the hands ``trial`` (a copy of ``engine``, same seed) deals; [] when the hands do not allow it."""
    from cockatrice_ext.formats.combat import PlaceFaceDown, SetupDone

    trial.apply(StartGame(None))
    cards = trial.config.cards

    def first(seat: int, creature: bool) -> int | None:
        hand = trial.seats[seat].hand
        fits = [
            c for c in hand if cards[c].is_creature == creature and (not creature or cards[c].mana_value <= 3)
        ]
        return fits[0] if fits else None

    mine, theirs, spell = first(0, True), first(1, True), first(1, False)
    if mine is None or theirs is None or spell is None:
        return []
    return [
        StartGame(None),
        PlaceFaceDown(A, mine, 0),
        PlaceFaceDown(B, theirs, 0),
        SetupDone(A),
        SetupDone(B),
        BeginCombat(A),
        PlaceSpell(B, spell, 0),
        CombatReady(A),
        CombatReady(B),
        DeclareFight(A, 0),
        ResolveFight(A),
    ]


def answers_in_random_play(seed: int, steps: int = 300) -> tuple[int, int]:
    """Random play checking the rule at every accepted ``ResolveFight``: the attacker's waits exactly when
    the defender has a face-down spell; a fight waiting for its defender resolves only by the defender's or
    the referee's; nobody but the defender casts meanwhile. (waits, fights resolved) seen."""
    engine = new_engine(seed=seed % 1000)
    rng = random.Random(seed)
    waits = fights = 0
    for _ in range(steps):
        action = StartGame(None) if engine.phase == "new" else random_action(rng, engine)
        before = engine.snapshot()
        waiting = engine.answering_player()
        defender = engine.config.players[1 - engine.active]
        face_down = engine.phase == "play" and engine.has_face_down_spells(defender)
        try:
            effects = engine.apply(action)
        except RulesError:
            assert engine.snapshot() == before
            check_invariants(engine)
            continue
        if isinstance(action, CastSpell) and waiting is not None:
            assert action.player == waiting
        if isinstance(action, ResolveFight):
            resolved = [e for e in effects if isinstance(e, FightResolved)]
            if waiting is None:
                assert action.player == engine.whose_turn
                assert (effects == [DefenderToAnswer(defender, before["fight_slot"])]) == face_down
                assert bool(resolved) != face_down
                waits += face_down
            else:
                assert action.player in (waiting, None) and resolved
            fights += bool(resolved)
            if resolved:
                assert resolved[0].player == engine.whose_turn or engine.is_over() or engine.step != "fights"
        check_invariants(engine)
    return waits, fights


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_play_waits_for_the_defender_exactly_when_they_have_a_face_down_spell(seed: int) -> None:
    answers_in_random_play(seed)


def test_random_play_does_wait_for_defenders() -> None:
    """The property above is not vacuous: over a few games defenders are waited for, and fights resolve."""
    totals = [answers_in_random_play(seed, 400) for seed in range(10)]
    waits, fights = (sum(column) for column in zip(*totals, strict=True))
    assert waits >= 3 and fights >= 5, (waits, fights)


@pytest.mark.parametrize("defender_answers", [True, False])
def test_the_defender_s_early_resolve_is_refused_without_changing_anything(defender_answers: bool) -> None:
    """Before the attacker is done, the defender's ``ResolveFight`` changes nothing: with the rule it says
    the attacker goes first; in an old game (no rule) it is not the defender's turn, as it always was."""
    engine = new_engine(defender_answers=defender_answers)
    to_play(engine, a_setup=("A Creature 0",), b_setup=("B Creature 0",))
    engine.apply(BeginCombat(A))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    engine.apply(DeclareFight(A, 0))
    assert_refused(engine, ResolveFight(B), "active_player_first" if defender_answers else "not_your_turn")
