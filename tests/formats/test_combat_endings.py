"""How a fight and a game end early in Magic Combat Rules (engine only).

* A defender who casts the last card they had face down has nothing left to answer with (their empty spell
  slots are public): that cast resolves the fight at once, as their own ``ResolveFight`` would. Seen: such a
  defender still waited for ``!resolve`` or the 90 s clock.
* A player who concedes or leaves ends the game (two play): ``RemovePlayer`` records who and why, and the
  other player wins. Seen: the engine never heard of a concession, so its state and the journal went on
  reading "in play" after Cockatrice's game was over.

Games journaled before either rule replay unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cockatrice_ext.formats.combat import (
    CastSpell,
    CombatConfig,
    CombatEngine,
    DeclareFight,
    DefenderToAnswer,
    FightResolved,
    GameOver,
    PlaceFaceDown,
    PlaceSpell,
    RemovePlayer,
    ResolveFight,
    SetupDone,
    SpellCast,
    SpellsResolved,
    StartGame,
)
from cockatrice_ext.journal import Journal, Table
from tests.formats.test_combat import A, B, assert_refused, check_invariants, deck, new_engine, to_fights
from tests.formats.test_combat_answers import fight_with_spells

# -- the defender's last face-down card ----------------------------------------------------------------


def test_the_defender_s_last_cast_resolves_the_fight() -> None:
    engine = fight_with_spells(("A Sorcery 1",), ("B Bolt 1",))
    engine.apply(CastSpell(A, 0))
    assert engine.apply(ResolveFight(A)) == [DefenderToAnswer(B, 0)]
    effects = engine.apply(CastSpell(B, 0))
    assert [type(e) for e in effects][:2] == [SpellCast, SpellsResolved]
    (resolved,) = [e for e in effects if isinstance(e, SpellsResolved)]
    assert [ref.name for ref in resolved.cards] == ["B Bolt 1", "A Sorcery 1"]  # last in, first out
    (fight,) = [e for e in effects if isinstance(e, FightResolved)]
    assert fight.player == A and fight.slot == 0
    assert engine.answering_player() is None and engine.fight_slot is None and engine.fought == [0]
    assert_refused(engine, ResolveFight(B), "no_fight_pending")  # nothing is left to resolve
    check_invariants(engine)


def test_a_cast_that_leaves_a_card_face_down_still_waits() -> None:
    """B still has a card face down (even one B cannot cast now): the fight waits for B's ``ResolveFight``."""
    engine = fight_with_spells((), ("B Bolt 1", "B Sorcery 1"))
    engine.apply(ResolveFight(A))
    assert [type(e) for e in engine.apply(CastSpell(B, 0))] == [SpellCast]
    assert engine.answering_player() == B and engine.fight_slot == 0


def test_the_attacker_s_casts_never_resolve_the_fight() -> None:
    """The rule is the defender's: the attacker casting their last face-down card waits for their own
    ``ResolveFight`` as before (they may still fight, the defender may still answer)."""
    engine = fight_with_spells(("A Bolt 1",), ("B Bolt 1",))
    assert [type(e) for e in engine.apply(CastSpell(A, 0))] == [SpellCast]
    assert engine.fight_slot == 0 and engine.answering_player() is None


def _actions_for_an_answer(trial: CombatEngine) -> list[Any]:
    """Start, a creature each, B's one instant castable in round 1 set face down, A's fight declared and
    resolved by A, B's cast of it; [] when the opening hands (of ``trial``, a fresh copy) do not allow it."""
    trial.apply(StartGame(None))
    cards = trial.config.cards

    def first(seat: int, fits: Any) -> int | None:
        return next((c for c in trial.seats[seat].hand if fits(cards[c])), None)

    mine = first(0, lambda c: c.is_creature and c.mana_value <= 3)
    theirs = first(1, lambda c: c.is_creature and c.mana_value <= 3)
    instant = first(1, lambda c: "Instant" in c.types and c.mana_value <= 1)
    if mine is None or theirs is None or instant is None:
        return []
    from cockatrice_ext.formats.combat import BeginCombat, CombatReady

    return [
        StartGame(None),
        PlaceFaceDown(A, mine, 0),
        PlaceFaceDown(B, theirs, 0),
        SetupDone(A),
        SetupDone(B),
        BeginCombat(A),
        PlaceSpell(B, instant, 0),
        CombatReady(A),
        CombatReady(B),
        DeclareFight(A, 0),
        ResolveFight(A),
        CastSpell(B, 0),
    ]


def _old_config_replays(field: str, play: Any, options: dict[str, Any]) -> None:
    """Journal a game played with ``options`` (the rules before ``field``), strip ``field`` from its stored
    config as an older version wrote it, and check that it replays to the same state."""
    for seed in range(300):
        actions = play(new_engine(seed=seed, **options))
        if actions:
            break
    else:
        raise AssertionError("no suitable seed")
    journal = Journal(":memory:")
    engine = new_engine(seed=seed, **options)
    table = Table.create(journal, "old", engine)
    for action in actions:
        table.apply(action)
    database = journal._db
    (stored,) = database.execute("SELECT config FROM tables WHERE key='old'").fetchone()
    config = json.loads(stored)
    assert config.pop(field) is options.get(field, True)
    database.execute("UPDATE tables SET config=? WHERE key='old'", (json.dumps(config),))
    assert journal.restore("old").snapshot() == engine.snapshot()


def test_an_old_game_s_last_cast_waited_for_the_defender_and_replays_so() -> None:
    """A game journaled before the rule: B's last cast left the fight waiting, B's ``ResolveFight`` then
    resolved it. Its config lacks ``answer_ends_with_last_spell``, which reads False: it replays so."""
    assert CombatConfig().answer_ends_with_last_spell is False
    assert CombatConfig.from_decks((A, B), (deck("A"), deck("B"))).answer_ends_with_last_spell is True

    def play(trial: CombatEngine) -> list[Any]:
        actions = _actions_for_an_answer(trial)
        return [*actions, ResolveFight(B)] if actions else []

    _old_config_replays("answer_ends_with_last_spell", play, {"answer_ends_with_last_spell": False})


def test_a_new_game_s_last_cast_replays() -> None:
    def play(trial: CombatEngine) -> list[Any]:
        return _actions_for_an_answer(trial)

    journal = Journal(":memory:")
    for seed in range(300):
        actions = play(new_engine(seed=seed))
        if actions:
            break
    engine = new_engine(seed=seed)
    table = Table.create(journal, "new", engine)
    for action in actions:
        table.apply(action)
    assert engine.fought == [0] and engine.answering_player() is None
    assert journal.restore("new").snapshot() == engine.snapshot()


# -- a player who goes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", ["conceded", "left"])
def test_a_player_who_goes_ends_the_game_and_the_other_wins(reason: str) -> None:
    engine = fight_with_spells((), ("B Bolt 1",))
    engine.apply(ResolveFight(A))  # even while a fight waits for B's answer
    engine.seats[0].points = 3
    (over,) = engine.apply(RemovePlayer(None, target=A, reason=reason))
    assert over == GameOver(B, (3, 0), out=A, reason=reason)
    assert engine.is_over() and engine.winner == B and engine.out == A and engine.out_reason == reason
    assert engine.answering_player() is None and engine.whose_turn is None
    snapshot = engine.snapshot()
    assert snapshot["out"] == A and snapshot["out_reason"] == reason and snapshot["winner"] == B
    assert_refused(engine, ResolveFight(B), "game_over")
    check_invariants(engine)


def test_only_the_referee_removes_a_player_and_only_for_a_reason_it_knows() -> None:
    engine = new_engine()
    engine.apply(StartGame(None))  # at setup too
    assert_refused(engine, RemovePlayer(A, target=A), "not_a_player")
    assert_refused(engine, RemovePlayer(None, target=999), "not_a_player")
    assert_refused(engine, RemovePlayer(None, target=A, reason="bored"), "bad_reason")
    engine.apply(RemovePlayer(None, target=B))
    assert engine.winner == A and engine.out_reason == "conceded"


def test_a_concession_is_journaled_and_replays() -> None:
    journal = Journal(":memory:")
    engine = new_engine()
    table = Table.create(journal, "gone", engine)
    table.apply(StartGame(None))
    table.apply(RemovePlayer(None, target=A, reason="left"))
    restored = journal.restore("gone")
    assert isinstance(restored, CombatEngine)
    assert restored.is_over() and restored.winner == B and restored.out == A and restored.out_reason == "left"
    assert restored.snapshot() == engine.snapshot()


def test_a_game_over_after_the_last_round_carries_no_player_who_went() -> None:
    """The effect gained fields with defaults (a journal's old ``GameOver``, winner and points only, still
    reads as it was): a game that ends after its rounds names nobody who went."""
    from cockatrice_ext.formats.combat import EndCombat
    from tests.formats.test_combat import end_turn, to_play

    engine = new_engine(rounds=1)
    to_play(engine)
    to_fights(engine, A)
    end_turn(engine, A)
    to_fights(engine, B)
    (over,) = [e for e in engine.apply(EndCombat(B)) if isinstance(e, GameOver)]
    assert over.out is None and over.reason == ""
    assert engine.is_over() and engine.out is None and engine.out_reason == ""
