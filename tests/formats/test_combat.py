"""Tests of the Magic Combat Rules engine: deck check, one scenario per rule, properties, journal."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.base import Action, RulesError, decode_action, encode_action, find_engine
from cockatrice_ext.formats.combat import (
    AbilityActivated,
    ActivateAbility,
    AdjustLife,
    AdjustPoints,
    BeginCombat,
    CardLeftPlay,
    CastSpell,
    CombatConfig,
    CombatEngine,
    CombatReady,
    CreaturesRevealed,
    DeckProblem,
    DeclareFight,
    DefenderToAnswer,
    Discard,
    DiscardToHandSize,
    Draw,
    DrawPileReshuffled,
    EnchantmentReplaced,
    EndCombat,
    Equip,
    GameOver,
    LeavePlay,
    PlaceFaceDown,
    PlaceSpell,
    PointsScored,
    ResolveFight,
    SetupDone,
    SpellsResolved,
    StartGame,
    Summon,
    TurnStarted,
    check_deck,
)
from cockatrice_ext.journal import Journal, Table

A, B = 101, 202


def deck(prefix: str) -> list[CardFacts]:
    """A legal 40-card singleton deck without lands or planeswalkers."""
    cards: list[CardFacts] = []
    for i, mv in enumerate((1, 1, 2, 2, 2, 3, 3, 3, 4, 5, 7, 8)):
        cards.append(CardFacts(f"{prefix} Creature {i}", mv, types=("Creature",), power="2", toughness="2"))
    cards += [CardFacts(f"{prefix} Bolt {mv}", mv, types=("Instant",)) for mv in range(1, 9)]
    cards += [CardFacts(f"{prefix} Sorcery {mv}", mv, types=("Sorcery",)) for mv in range(1, 7)]
    cards += [CardFacts(f"{prefix} Anthem {mv}", mv, types=("Enchantment",)) for mv in range(1, 6)]
    cards += [
        CardFacts(f"{prefix} Aura {mv}", mv, types=("Enchantment",), subtypes=("Aura",)) for mv in range(1, 6)
    ]
    cards += [
        CardFacts(f"{prefix} Sword {mv}", mv, types=("Artifact",), subtypes=("Equipment",))
        for mv in range(1, 5)
    ]
    assert len(cards) == 40
    return cards


def new_engine(seed: int = 5, **options: Any) -> CombatEngine:
    return CombatEngine(CombatConfig.from_decks((A, B), (deck("A"), deck("B")), **options), seed=seed)


def idx(engine: CombatEngine, name: str) -> int:
    return next(i for i, c in enumerate(engine.config.cards) if c.name == name)


def give(engine: CombatEngine, *names: str) -> None:
    """Move named cards from their owner's draw pile or used pile into their hand (test setup)."""
    for name in names:
        card = idx(engine, name)
        seat = engine.seats[engine.config.owners[card]]
        if card in seat.hand:
            continue
        (seat.draw_pile if card in seat.draw_pile else seat.used).remove(card)
        seat.hand.append(card)


def to_play(engine: CombatEngine, a_setup: tuple[str, ...] = (), b_setup: tuple[str, ...] = ()) -> None:
    """Start; place the named creatures in slots 0.. for each player; finish setup."""
    engine.apply(StartGame(None))
    for player, names in ((A, a_setup), (B, b_setup)):
        give(engine, *names)
        for slot, name in enumerate(names):
            engine.apply(PlaceFaceDown(player, name, slot))
    engine.apply(SetupDone(A))
    engine.apply(SetupDone(B))


def to_fights(engine: CombatEngine, active: int = A) -> None:
    engine.apply(BeginCombat(active))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))


def end_turn(engine: CombatEngine, player: int) -> list[Any]:
    """End combat, then discard the first cards of the hand down to the hand size at cleanup."""
    effects = engine.apply(EndCombat(player))
    while engine.step == "cleanup":
        effects += engine.apply(Discard(player, engine.seats[engine.active].hand[0]))
    return effects


def check_invariants(engine: CombatEngine) -> None:
    where = engine.card_locations()
    if engine.phase != "new":
        assert sorted(where) == list(range(len(engine.config.cards)))
    for seat, s in enumerate(engine.seats):
        for zone in (s.draw_pile, s.hand, s.used):
            assert all(engine.config.owners[c] == seat for c in zone)
        assert len(s.creatures) == engine.config.creature_slots
        assert sum(1 for c in s.spells if c is not None) <= engine.config.spell_slots
        assert s.points >= 0
        for c in s.creatures:
            assert c is None or engine.config.cards[c].is_creature
    assert 0 <= engine.round <= engine.config.rounds
    if engine.answering:  # only a pending fight waits for its defender
        assert engine.step == "fights" and engine.fight_slot is not None
        assert engine.answering_player() == engine.config.players[1 - engine.active]
    if engine.step == "cleanup":  # the turn waits for a discard only while the hand is too big
        assert engine.hand_size(engine.whose_turn) > engine.config.max_hand_size
    enchantments = [s.enchantment for s in engine.seats if s.enchantment is not None]
    assert len(enchantments) <= (1 if engine.config.shared_enchantment else len(engine.seats))
    in_play = {c for s in engine.seats for c in s.creatures if c is not None}
    assert set(engine.unsure) <= in_play  # the creatures the engine cannot vouch for are in play
    for card, slot in engine.settled_deaths.items():  # a settled fight's dead lie in their owner's used pile
        assert card in engine.seats[engine.config.owners[card]].used
        assert 0 <= slot < engine.config.creature_slots


def assert_refused(engine: CombatEngine, action: Action, code: str) -> None:
    before = engine.snapshot()
    with pytest.raises(RulesError) as info:
        engine.apply(action)
    assert info.value.code == code, info.value
    assert engine.snapshot() == before


# -- deck construction -------------------------------------------------------------------------


def test_registered() -> None:
    assert find_engine("combat") is CombatEngine


def test_legal_deck_has_no_problems() -> None:
    assert check_deck(deck("A")) == []


def test_check_deck_names_each_offending_card() -> None:
    cards = deck("A")[:36]
    cards.append(cards[0])  # a second copy
    cards.append(CardFacts("Forest", supertypes=("Basic",), types=("Land",)))
    cards.append(CardFacts("Jace", 4, types=("Planeswalker",)))
    problems = check_deck(cards)
    assert DeckProblem("deck_size", None, 39) in problems
    assert DeckProblem("not_singleton", "A Creature 0", 2) in problems
    assert DeckProblem("land", "Forest", 1) in problems
    assert DeckProblem("planeswalker", "Jace", 1) in problems
    assert len(problems) == 4


def test_illegal_deck_refuses_start() -> None:
    bad = [*deck("B")[:-1], CardFacts("Island", supertypes=("Basic",), types=("Land",))]
    engine = CombatEngine(CombatConfig.from_decks((A, B), (deck("A"), bad)), seed=1)
    assert_refused(engine, StartGame(None), "illegal_deck")
    with pytest.raises(RulesError) as info:
        engine.apply(StartGame(None))
    assert info.value.details["player"] == B
    assert info.value.details["problems"] == [{"code": "land", "card": "Island", "count": 1}]


def test_start_needs_two_players_and_owners() -> None:
    cfg = CombatConfig.from_decks((A, B), (deck("A"), deck("B")))
    three = CombatEngine(CombatConfig(players=(A, B, 3), cards=cfg.cards, owners=cfg.owners), seed=1)
    assert_refused(three, StartGame(None), "bad_player_count")
    no_owners = CombatEngine(CombatConfig(players=(A, B), cards=cfg.cards), seed=1)
    assert_refused(no_owners, StartGame(None), "bad_config")
    assert_refused(new_engine(), Draw(A), "not_started")


# -- setup -------------------------------------------------------------------------------------


def test_setup_deals_seven_and_places_face_down() -> None:
    engine = new_engine()
    engine.apply(StartGame(None))
    assert engine.hand_size(A) == 7 and engine.hand_size(B) == 7
    give(engine, "A Creature 0", "A Creature 8", "A Bolt 1", "A Creature 1")
    assert_refused(engine, PlaceFaceDown(A, "A Bolt 1", 0), "not_a_creature")
    assert_refused(engine, PlaceFaceDown(A, "A Creature 8", 0), "mana_value_too_high")
    assert_refused(engine, PlaceFaceDown(A, "A Creature 0", 5), "bad_slot")
    effects = engine.apply(PlaceFaceDown(A, "A Creature 0", 2))
    assert effects[0].visible_to == A
    assert_refused(engine, PlaceFaceDown(A, "A Creature 1", 2), "slot_occupied")
    assert_refused(engine, Summon(A, "A Creature 1", 0), "wrong_step")
    engine.apply(SetupDone(A))
    assert_refused(engine, PlaceFaceDown(A, "A Creature 1", 3), "already_done")
    assert_refused(engine, SetupDone(A), "already_done")
    hand_before = engine.hand_size(A)
    effects = engine.apply(SetupDone(B))
    revealed = [e for e in effects if isinstance(e, CreaturesRevealed)]
    assert revealed[0].player == A and revealed[0].slots[2] is not None and revealed[0].slots[0] is None
    assert TurnStarted(A, 1, 1) in effects
    # the active player draws three at the draw step (7 + 10 x 3 = 37 cards of 40 over the game)
    assert engine.hand_size(A) == hand_before + 3 and engine.hand_size(B) == 7
    assert engine.round == 1 and engine.spell_cap() == 1


def test_both_players_draw_when_configured() -> None:
    """The literal reading of "each player draws three cards" is an option."""
    engine = new_engine(both_players_draw=True)
    to_play(engine)
    assert engine.hand_size(A) == 10 and engine.hand_size(B) == 10


def test_cleanup_discards_down_to_seven_before_the_turn_passes() -> None:
    """Issue 9 bug 2: "Clean: as normal" caps the active player's hand at seven."""
    engine = new_engine()
    to_play(engine)
    to_fights(engine, A)
    effects = engine.apply(EndCombat(A))
    assert DiscardToHandSize(A, 3, 7) in effects and engine.whose_turn == A and engine.step == "cleanup"
    assert_refused(engine, BeginCombat(B), "not_your_turn")
    assert_refused(engine, Summon(A, engine.seats[0].hand[0], 0), "wrong_step")
    engine.apply(Discard(A, engine.seats[0].hand[0]))
    engine.apply(Discard(A, engine.seats[0].hand[0]))
    effects = engine.apply(Discard(A, engine.seats[0].hand[0]))
    assert engine.hand_size(A) == 7 and engine.whose_turn == B
    assert any(isinstance(e, TurnStarted) and e.player == B for e in effects)
    check_invariants(engine)


def test_only_the_active_player_discards_at_cleanup_whatever_the_card() -> None:
    """Nobody else acts in the cleanup step (no priority there): the other player's discard is refused as
    not theirs before any card is looked at, so the refusal is the same for a card in their hand, one in
    the active player's hand and a name that is no card; nothing changes."""
    engine = new_engine()
    to_play(engine)
    to_fights(engine, A)
    engine.apply(EndCombat(A))
    assert engine.step == "cleanup"
    for card in (engine.seats[1].hand[0], engine.seats[0].hand[0], "Blorp the Unreal"):
        assert_refused(engine, Discard(B, card), "not_your_cleanup")
    with pytest.raises(RulesError) as info:
        engine.apply(Discard(B, engine.seats[1].hand[0]))
    assert info.value.details == {"active_player": A, "hand_size": 7}
    engine.apply(Discard(A, engine.seats[0].hand[0]))  # the active player's goes on as before
    assert engine.step == "cleanup"


def test_a_discard_outside_cleanup_is_anyone_s_and_a_card_not_in_hand_is_named_as_such() -> None:
    """Card effects make either player discard at other times; a card that is not in the discarding
    player's hand is refused saying where it was looked for."""
    engine = new_engine()
    to_play(engine)
    theirs = engine.seats[0].hand[0]
    for card in (theirs, engine.config.cards[theirs].name, "Blorp the Unreal"):
        with pytest.raises(RulesError) as info:
            engine.apply(Discard(B, card))
        assert info.value.code in ("no_such_card", "card_not_available")
        assert info.value.details["where"] == "hand"
    engine.apply(Discard(B, engine.seats[1].hand[0]))
    assert engine.hand_size(B) == 6


def test_a_hand_of_seven_or_less_has_no_cleanup_and_the_size_is_an_option() -> None:
    engine = new_engine(max_hand_size=10)
    to_play(engine)
    to_fights(engine, A)
    effects = engine.apply(EndCombat(A))
    assert not any(isinstance(e, DiscardToHandSize) for e in effects) and engine.whose_turn == B


@pytest.mark.parametrize("both_draw", [False, True])
def test_used_cards_come_back_over_a_whole_game_in_either_reading(both_draw: bool) -> None:
    """With cleanup, hands stay small and the used-card reshuffle happens (it never did before)."""
    engine = new_engine(both_players_draw=both_draw)
    to_play(engine)
    effects: list[Any] = []
    while not engine.is_over():
        player = engine.whose_turn
        assert all(engine.hand_size(p) <= 7 + 3 * (1 + both_draw) for p in (A, B))
        to_fights(engine, player)
        effects += end_turn(engine, player)
        check_invariants(engine)
    assert any(isinstance(e, DrawPileReshuffled) for e in effects) == both_draw


# -- summoning ---------------------------------------------------------------------------------


def test_summon_rules() -> None:
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0", "A Creature 1", "A Creature 2"))
    give(engine, "A Creature 5", "A Creature 8", "A Creature 11", "A Bolt 1")
    assert_refused(engine, Summon(B, "B Creature 0", 3), "not_your_turn")
    assert_refused(engine, Summon(A, "A Bolt 1", 3), "not_a_creature")
    assert_refused(engine, Summon(A, "A Creature 5", 0), "slot_occupied")
    engine.apply(Summon(A, "A Creature 5", 3))  # mana value 3: no sacrifice
    assert_refused(engine, Summon(A, "A Creature 8", 4), "wrong_sacrifices")  # 4 needs one
    assert_refused(engine, Summon(A, "A Creature 8", 4, (4,)), "slot_empty")
    effects = engine.apply(Summon(A, "A Creature 8", 0, (0,)))  # may reuse the sacrificed slot
    assert CardLeftPlay(A, engine._ref(idx(engine, "A Creature 0")), "used") in effects
    assert engine.seats[0].creatures[0] == idx(engine, "A Creature 8")
    assert_refused(engine, Summon(A, "A Creature 11", 4, (1,)), "wrong_sacrifices")  # 8 needs two
    assert_refused(engine, Summon(A, "A Creature 11", 4, (1, 1)), "wrong_sacrifices")
    engine.apply(Summon(A, "A Creature 11", 4, (1, 2)))
    assert engine.seats[0].creatures == [
        idx(engine, "A Creature 8"),
        None,
        None,
        idx(engine, "A Creature 5"),
        idx(engine, "A Creature 11"),
    ]
    engine.apply(BeginCombat(A))
    give(engine, "A Creature 3")
    assert_refused(engine, Summon(A, "A Creature 3", 1), "wrong_step")  # first main phase only
    check_invariants(engine)


# -- combat, spells and scoring ------------------------------------------------------------------


def test_combat_spell_placement_and_ability() -> None:
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0",), b_setup=("B Creature 0",))
    give(engine, "A Bolt 1", "A Bolt 2", "A Bolt 3", "A Bolt 4", "A Creature 1")
    assert_refused(engine, PlaceSpell(A, "A Bolt 1", 0), "wrong_step")
    engine.apply(BeginCombat(A))
    assert_refused(engine, PlaceSpell(A, "A Creature 1", 0), "not_a_spell")
    for slot, name in enumerate(("A Bolt 1", "A Bolt 2", "A Bolt 3")):
        engine.apply(PlaceSpell(A, name, slot))
    assert_refused(engine, PlaceSpell(A, "A Bolt 4", 3), "spell_limit")
    assert_refused(engine, ActivateAbility(A, 0, 2), "cost_above_round")
    assert_refused(engine, ActivateAbility(A, 1, 1), "slot_empty")
    assert engine.apply(ActivateAbility(A, 0, 1)) == [
        AbilityActivated(A, 0, engine._ref(idx(engine, "A Creature 0")), 1)
    ]
    assert_refused(engine, ActivateAbility(A, 0, 0), "ability_used")
    engine.apply(CombatReady(A))
    assert_refused(engine, PlaceSpell(A, "A Bolt 4", 3), "already_done")
    assert_refused(engine, DeclareFight(A, 0), "wrong_step")  # waiting for B
    engine.apply(CombatReady(B))
    check_invariants(engine)


def test_fight_reveals_respect_round_cap_defender_instants_and_lifo() -> None:
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0",), b_setup=("B Creature 0",))
    give(engine, "A Bolt 1", "A Sorcery 1", "A Bolt 2")
    give(engine, "B Bolt 1", "B Sorcery 1")
    engine.apply(BeginCombat(A))
    engine.apply(PlaceSpell(A, "A Bolt 1", 0))
    engine.apply(PlaceSpell(A, "A Sorcery 1", 1))
    engine.apply(PlaceSpell(A, "A Bolt 2", 2))
    engine.apply(PlaceSpell(B, "B Bolt 1", 0))
    engine.apply(PlaceSpell(B, "B Sorcery 1", 1))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    assert_refused(engine, CastSpell(A, 0), "no_fight_pending")
    assert_refused(engine, DeclareFight(A, 1), "slot_empty")
    assert_refused(engine, DeclareFight(B, 0), "not_your_turn")
    engine.apply(DeclareFight(A, 0))
    assert_refused(engine, DeclareFight(A, 0), "fight_pending")
    assert_refused(engine, CastSpell(A, 2), "spell_above_round")  # round 1, mana value 2
    assert_refused(engine, CastSpell(B, 1), "defender_instants_only")
    engine.apply(CastSpell(A, 1))
    engine.apply(CastSpell(B, 0))
    engine.apply(CastSpell(A, 0))
    assert_refused(engine, EndCombat(A), "fight_pending")
    assert_refused(engine, ResolveFight(B), "active_player_first")
    # B still has a card face down (the sorcery): the fight waits for B's answer
    assert engine.apply(ResolveFight(A)) == [DefenderToAnswer(B, 0)]
    effects = engine.apply(ResolveFight(B))
    (resolved,) = [e for e in effects if isinstance(e, SpellsResolved)]
    assert [c.name for c in resolved.cards] == ["A Bolt 1", "B Bolt 1", "A Sorcery 1"]
    assert idx(engine, "B Bolt 1") in engine.seats[1].used
    assert_refused(engine, DeclareFight(A, 0), "already_fought")
    check_invariants(engine)


def test_unblocked_creatures_score_at_end_of_combat() -> None:
    engine = new_engine()
    to_play(
        engine,
        a_setup=("A Creature 0", "A Creature 1", "A Creature 2"),
        b_setup=("B Creature 0",),
    )
    to_fights(engine)
    engine.apply(DeclareFight(A, 0))
    engine.apply(ResolveFight(A))
    engine.apply(LeavePlay(None, "B Creature 0"))  # the defender died in the fight
    assert_refused(engine, DeclareFight(A, 1), "no_opponent_across")
    effects = end_turn(engine, A)
    assert effects[0] == PointsScored(A, (0, 1, 2), 3, 3)
    assert engine.points(A) == 3 and engine.whose_turn == B and engine.round == 1
    board = engine.scoreboard()
    assert board["points"] == [[A, 3], [B, 0]] and board["spell_cap"] == 1
    # B has no creature: nothing scores
    to_fights(engine, active=B)
    effects = end_turn(engine, B)
    assert effects[0] == PointsScored(B, (), 0, 0)
    assert engine.round == 2 and engine.whose_turn == A and engine.spell_cap() == 2


def test_enchantment_replaces_the_one_in_play() -> None:
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0",), b_setup=("B Creature 0",))
    give(engine, "A Anthem 1", "B Bolt 1")
    to_fights(engine)
    end_turn(engine, A)
    give(engine, "B Anthem 1")
    engine.apply(BeginCombat(B))
    engine.apply(PlaceSpell(B, "B Anthem 1", 0))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    engine.apply(DeclareFight(B, 0))
    engine.apply(CastSpell(B, 0))
    effects = engine.apply(ResolveFight(B))
    assert EnchantmentReplaced(B, engine._ref(idx(engine, "B Anthem 1")), None, None) in effects
    end_turn(engine, B)
    # round 2: A's enchantment discards B's (one in play at the table)
    engine.apply(BeginCombat(A))
    engine.apply(PlaceSpell(A, "A Anthem 1", 0))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    engine.apply(DeclareFight(A, 0))
    engine.apply(CastSpell(A, 0))
    effects = engine.apply(ResolveFight(A))
    old = engine._ref(idx(engine, "B Anthem 1"))
    assert EnchantmentReplaced(A, engine._ref(idx(engine, "A Anthem 1")), old, B) in effects
    assert idx(engine, "B Anthem 1") in engine.seats[1].used
    assert engine.seats[1].enchantment is None
    check_invariants(engine)


def test_aura_attaches_and_leaves_with_its_creature() -> None:
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0",), b_setup=("B Creature 0",))
    give(engine, "A Aura 1")
    engine.apply(BeginCombat(A))
    engine.apply(PlaceSpell(A, "A Aura 1", 4))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    engine.apply(DeclareFight(A, 0))
    assert_refused(engine, CastSpell(A, 4), "needs_target")
    assert_refused(engine, CastSpell(A, 4, B, 3), "slot_empty")
    engine.apply(CastSpell(A, 4, B, 0))
    engine.apply(ResolveFight(A))
    assert engine.seats[0].auras == [(idx(engine, "A Aura 1"), 1, 0)]
    effects = engine.apply(LeavePlay(B, "B Creature 0", "hand"))
    assert CardLeftPlay(A, engine._ref(idx(engine, "A Aura 1")), "used") in effects
    assert idx(engine, "B Creature 0") in engine.seats[1].hand
    check_invariants(engine)


def equipment_game(round_to_reach: int) -> CombatEngine:
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0",), b_setup=("B Creature 0",))
    while engine.round < round_to_reach:
        to_fights(engine, engine.whose_turn)
        end_turn(engine, engine.whose_turn)
    return engine


def cast_equipment(engine: CombatEngine, name: str) -> None:
    give(engine, name)
    engine.apply(BeginCombat(A))
    engine.apply(PlaceSpell(A, name, 0))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    engine.apply(DeclareFight(A, 0))
    engine.apply(CastSpell(A, 0))
    engine.apply(ResolveFight(A))


def test_equip_same_turn_only_if_mana_value_plus_cost_within_round() -> None:
    engine = equipment_game(3)
    assert_refused(engine, Equip(A, 0, 1), "no_equipment")
    cast_equipment(engine, "A Sword 2")
    assert_refused(engine, Equip(A, 0, 2), "equip_not_yet")  # 2 + 2 > 3
    engine.apply(Equip(A, 0, 1))  # 2 + 1 <= 3
    assert engine.seats[0].equipped_slot == 0
    # a second equipment is refused while the first is in play
    give(engine, "A Sword 1")
    end_turn(engine, A)
    to_fights(engine, B)
    end_turn(engine, B)
    # round 4: the too-expensive equip from before is now allowed (a later turn)
    engine.apply(Equip(A, 0, 5))
    engine.apply(BeginCombat(A))
    engine.apply(PlaceSpell(A, "A Sword 1", 1))
    engine.apply(CombatReady(A))
    engine.apply(CombatReady(B))
    engine.apply(DeclareFight(A, 0))
    assert_refused(engine, CastSpell(A, 1), "equipment_limit")
    check_invariants(engine)


# -- life, draws, the end -----------------------------------------------------------------------


def test_life_is_tracked_but_never_ends_the_game() -> None:
    engine = new_engine()
    to_play(engine)
    engine.apply(AdjustLife(B, A, -25))
    assert engine.life(A) == -5 and not engine.is_over()
    assert_refused(engine, AdjustLife(A, 999, -1), "not_a_player")
    assert_refused(engine, AdjustLife(A, A, True), "bad_amount")


def test_cannot_draw_makes_both_shuffle_used_cards_back() -> None:
    engine = new_engine()
    to_play(engine)
    a = engine.seats[0]
    a.used += a.draw_pile
    a.draw_pile = []
    b_used_before = list(engine.seats[1].hand[:2])
    for card in b_used_before:
        engine.apply(Discard(B, card))
    effects = engine.apply(Draw(A, 2))
    reshuffle = [e for e in effects if isinstance(e, DrawPileReshuffled)]
    assert len(reshuffle) == 1
    assert engine.seats[1].used == [] and set(b_used_before) <= set(engine.seats[1].draw_pile)
    assert engine.hand_size(A) == 12
    check_invariants(engine)


def test_ten_rounds_then_game_over_with_winner_or_tie() -> None:
    engine = new_engine()
    to_play(engine, a_setup=("A Creature 0",))
    effects: list[Any] = []
    while not engine.is_over():
        player = engine.whose_turn
        to_fights(engine, player)
        effects = end_turn(engine, player)
    assert effects[-1] == GameOver(A, (10, 0))
    assert engine.round == 10
    assert_refused(engine, Draw(A), "game_over")

    tie = new_engine()
    to_play(tie)
    while not tie.is_over():
        player = tie.whose_turn
        to_fights(tie, player)
        effects = end_turn(tie, player)
    assert effects[-1] == GameOver(None, (0, 0))


def test_adjust_points_is_referee_only() -> None:
    engine = new_engine()
    to_play(engine)
    assert_refused(engine, AdjustPoints(A, A, 1), "not_a_player")
    assert_refused(engine, AdjustPoints(None, A, -1), "bad_amount")
    engine.apply(AdjustPoints(None, B, 2))
    assert engine.points(B) == 2


# -- property tests -----------------------------------------------------------------------------


def noise_action(rng: random.Random, engine: CombatEngine) -> Action:
    """Any action with random (often illegal) arguments."""
    who = rng.choice([A, B, A, B, None, 7])
    active = engine.whose_turn or rng.choice([A, B])
    seat = engine.seats[0 if who == A else 1]
    hand_card: int | str = (
        rng.choice(seat.hand) if seat.hand and rng.random() < 0.8 else rng.randrange(-1, 82)
    )
    slot = rng.randrange(-1, 6)
    if engine.phase == "setup":
        return rng.choice([PlaceFaceDown(who, hand_card, slot), SetupDone(who)])
    in_play = [c for s in engine.seats for c in s.creatures if c is not None]
    choices: list[Action] = [
        Summon(active, hand_card, slot, tuple(rng.sample(range(5), rng.choice([0, 0, 1, 2])))),
        BeginCombat(active),
        PlaceSpell(who, hand_card, slot),
        ActivateAbility(who, slot, rng.randrange(0, 4)),
        CombatReady(who),
        DeclareFight(active, slot),
        CastSpell(who, rng.randrange(0, 5), rng.choice([A, B, None]), rng.randrange(0, 5)),
        ResolveFight(active),
        EndCombat(active),
        Equip(active, slot, rng.randrange(0, 4)),
        Discard(who, hand_card),
        Draw(who, rng.randrange(0, 6)),
        AdjustLife(who, rng.choice([A, B]), rng.randrange(-5, 5)),
        StartGame(None),
    ]
    if in_play:
        choices.append(LeavePlay(who, rng.choice(in_play), rng.choice(["used", "hand", "exile"])))
    return rng.choice(choices)


def random_action(rng: random.Random, engine: CombatEngine) -> Action:
    """Mostly plausible play for the current step, sometimes noise."""
    if rng.random() < 0.25:
        return noise_action(rng, engine)
    cards = engine.config.cards
    player = rng.choice([A, B])
    me = engine.seats[0 if player == A else 1]
    empty = [i for i, c in enumerate(me.creatures) if c is None] or [0]
    full = [i for i, c in enumerate(me.creatures) if c is not None]
    creatures_in_hand = [c for c in me.hand if cards[c].is_creature]
    spells_in_hand = [c for c in me.hand if not cards[c].is_creature]
    if engine.phase == "setup":
        small = [c for c in creatures_in_hand if cards[c].mana_value <= 3]
        if small and rng.random() < 0.7:
            return PlaceFaceDown(player, rng.choice(small), rng.choice(empty))
        return SetupDone(player)
    active = engine.whose_turn
    act = engine.seats[engine.active]
    act_full = [i for i, c in enumerate(act.creatures) if c is not None]
    if rng.random() < 0.05:
        in_play = [c for s in engine.seats for c in s.creatures if c is not None]
        if in_play:
            return LeavePlay(None, rng.choice(in_play), rng.choice(["used", "hand"]))
    if engine.step == "main":
        hand = [c for c in act.hand if cards[c].is_creature]
        if hand and rng.random() < 0.6:
            card = rng.choice(hand)
            need = 2 if cards[card].mana_value >= 8 else 1 if cards[card].mana_value >= 4 else 0
            sacs = tuple(rng.sample(act_full, need)) if len(act_full) >= need else ()
            open_slots = [i for i, c in enumerate(act.creatures) if c is None] + list(sacs)
            return Summon(active, card, rng.choice(open_slots or [0]), sacs)
        if act.equipment is not None and act_full and rng.random() < 0.3:
            return Equip(active, rng.choice(act_full), rng.randrange(0, 3))
        return BeginCombat(active)
    if engine.step == "combat":
        free = [i for i, c in enumerate(me.spells) if c is None]
        roll = rng.random()
        if spells_in_hand and free and roll < 0.5:
            return PlaceSpell(player, rng.choice(spells_in_hand), rng.choice(free))
        if full and roll < 0.6:
            return ActivateAbility(player, rng.choice(full), rng.randrange(0, 3))
        return CombatReady(player)
    if engine.step == "fights":
        if (defender := engine.answering_player()) is not None:  # the defender's instants, then resolve
            theirs = engine.seats[1 - engine.active]
            set_slots = [i for i, c in enumerate(theirs.spells) if c is not None]
            if set_slots and rng.random() < 0.4:
                return CastSpell(defender, rng.choice(set_slots))
            return ResolveFight(rng.choice([defender, defender, None]))
        if engine.fight_slot is not None:
            spell_slots = [i for i, c in enumerate(me.spells) if c is not None]
            if spell_slots and rng.random() < 0.6:
                target = rng.choice([A, B])
                return CastSpell(player, rng.choice(spell_slots), target, rng.randrange(0, 5))
            return ResolveFight(active)
        other = engine.seats[1 - engine.active]
        fights = [i for i in act_full if other.creatures[i] is not None and i not in engine.fought]
        if fights and rng.random() < 0.8:
            return DeclareFight(active, rng.choice(fights))
        return EndCombat(active)
    if engine.step == "cleanup" and rng.random() < 0.8:
        return Discard(active, rng.choice(act.hand))
    return noise_action(rng, engine)


def play_random(engine: CombatEngine, seed: int, steps: int, table: Table | None = None) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        action = StartGame(None) if engine.phase == "new" else random_action(rng, engine)
        before = engine.snapshot()
        try:
            (table.apply if table is not None else engine.apply)(action)
        except RulesError:
            assert engine.snapshot() == before
        check_invariants(engine)


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    both_draw=st.booleans(),
    shared=st.booleans(),
    hand=st.sampled_from([3, 7, 40]),
)
def test_random_play_keeps_invariants(seed: int, both_draw: bool, shared: bool, hand: int) -> None:
    engine = new_engine(
        seed=seed % 1000, both_players_draw=both_draw, shared_enchantment=shared, max_hand_size=hand
    )
    play_random(engine, seed, 300)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), cap=st.integers(0, 8))
def test_setup_choices_are_exactly_the_placeable_cards(seed: int, cap: int) -> None:
    """What the opening-hand prompt offers (``setup_choices``) is what ``PlaceFaceDown`` accepts."""
    engine = new_engine(seed=seed % 1000, setup_max_mana_value=cap)
    engine.apply(StartGame(None))
    for player in (A, B):
        hand = list(engine.seats[engine.config.players.index(player)].hand)
        choices = engine.setup_choices(player)
        for position, card in enumerate(hand):
            trial = copy.deepcopy(engine)
            try:
                trial.apply(PlaceFaceDown(player, card, 0))
            except RulesError as error:
                assert position not in choices and error.code in ("not_a_creature", "mana_value_too_high")
            else:
                assert position in choices


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_journal_round_trip(seed: int) -> None:
    journal = Journal(":memory:")
    engine = new_engine(seed=seed % 97)
    table = Table.create(journal, "combat-1", engine)
    play_random(engine, seed, 300, table=table)
    assert journal.restore("combat-1").snapshot() == engine.snapshot()


def test_actions_json_round_trip() -> None:
    for action in (
        Summon(A, "A Creature 8", 0, (0,)),
        CastSpell(B, 3, A, 2),
        CastSpell(A, 1),
        LeavePlay(None, 12, "hand"),
        AdjustLife(A, B, -3),
    ):
        assert decode_action(CombatEngine, encode_action(action)) == action


def test_shipped_combat_deck_is_legal_with_real_card_data() -> None:
    """Integration: blocks/combat-deck.txt resolved against the embedded card data passes check_deck."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    data, block = root / "cockatrice_ext" / "data" / "cards.json.gz", root / "blocks" / "combat-deck.txt"
    if not data.exists() or not block.exists():
        pytest.skip("embedded card data or the sample combat deck is not available")
    embedded = pytest.importorskip("cockatrice_ext.cards.embedded")
    blocklist = pytest.importorskip("cockatrice_ext.decks.blocklist")
    db, _ = embedded.decode_database(data.read_bytes())
    entries = [e for _, e in blocklist.read_block_list(block).entries()]
    cards = [db.cards[e.name].facts() for e in entries for _ in range(e.count)]
    assert check_deck(cards) == []
    engine = CombatEngine(CombatConfig.from_decks(("alice", "bob"), (cards, cards)), seed=3)
    engine.apply(StartGame(None))
    assert engine.hand_size("alice") == 7
