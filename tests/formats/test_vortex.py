"""Tests of the Vortex engine: one scenario per seed rule, property tests, journal round trip."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.base import Action, RulesError, decode_action, encode_action, find_engine
from cockatrice_ext.formats.vortex import (
    BASIC_LAND_NAMES,
    ArrangeShoeTop,
    BasicsAdded,
    BasicsNeeded,
    CardPicked,
    CardToShoe,
    ChooseBasics,
    Draw,
    EndTurn,
    LifeLost,
    LookAtShoe,
    PackContents,
    PackMulligan,
    PackOverflow,
    PacksPassed,
    Pick,
    PickRequired,
    PutInPack,
    PutInShoe,
    ShoeTopRevealed,
    ShuffleShoe,
    StackCountered,
    StartGame,
    TurnEnded,
    TurnStarted,
    VortexConfig,
    VortexEngine,
)
from cockatrice_ext.journal import Journal, Table


def spell(i: int) -> CardFacts:
    return CardFacts(name=f"Spell {i}", mana_value=i % 6, types=("Creature",))


def basic(name: str) -> CardFacts:
    return CardFacts(name=name, supertypes=("Basic",), types=("Land",))


def pool(spells: int = 40, players: int = 2) -> tuple[CardFacts, ...]:
    return tuple(spell(i) for i in range(spells)) + tuple(basic(n) for n in BASIC_LAND_NAMES * players)


def new_engine(
    players: tuple[Any, ...] = (1, 2), cards: tuple[CardFacts, ...] | None = None, **kw: Any
) -> VortexEngine:
    seed = kw.pop("seed", 7)
    cfg = VortexConfig(players=players, cards=pool(players=len(players)) if cards is None else cards, **kw)
    return VortexEngine(cfg, seed=seed)


def to_play(engine: VortexEngine) -> None:
    """Start, run the opening draft picking the first card, choose basics."""
    engine.apply(StartGame(None))
    while engine.phase == "opening":
        engine.apply(Pick(engine.whose_turn, 0))
    for p in engine.config.players:
        engine.apply(ChooseBasics(p, ("Island", "Island", "Forest")))


def check_invariants(engine: VortexEngine) -> None:
    where = engine.card_locations()  # raises on a card in two places
    if engine.phase != "new":
        assert sorted(where) == list(range(len(engine.config.cards)))  # count conserved
    for st_ in engine.players.values():
        assert len(st_.pack) <= engine.config.pack_size
    for p in engine.config.players:
        for c in engine.players[p].owned:
            assert engine.owner_of(c) == p
        assert engine.players[p].picks >= 0


def assert_refused(engine: VortexEngine, action: Action, code: str) -> None:
    before = engine.snapshot()
    with pytest.raises(RulesError) as info:
        engine.apply(action)
    assert info.value.code == code
    assert engine.snapshot() == before


# -- setup -------------------------------------------------------------------------------------


def test_registered() -> None:
    assert find_engine("vortex") is VortexEngine


def test_start_deals_hidden_packs_and_passed_pack() -> None:
    engine = new_engine(players=(1, 2, 3))
    effects = engine.apply(StartGame(None))
    contents = [e for e in effects if isinstance(e, PackContents)]
    # one private pack per player, then the first opening turn's pick
    assert [(e.owner, e.visible_to) for e in contents[:3]] == [(1, 1), (2, 2), (3, 3)]
    assert all(engine.pack_size(p) == 7 for p in (1, 2, 3))
    assert engine.passed_size() == 7
    assert engine.shoe_size() == len(engine.config.cards) - 28
    started = next(e for e in effects if type(e).__name__ == "GameStarted")
    assert started.shoe_size == engine.shoe_size()  # the opening line and !state agree
    assert isinstance(effects[-1], PickRequired) and effects[-1].player == 1
    check_invariants(engine)


@pytest.mark.parametrize("players", [(1,), (1, 2, 3, 4, 5, 6), (1, 1)])
def test_player_count_two_to_five(players: tuple[int, ...]) -> None:
    assert_refused(new_engine(players=players), StartGame(None), "bad_player_count")


def test_start_twice_refused() -> None:
    engine = new_engine()
    engine.apply(StartGame(None))
    assert_refused(engine, StartGame(None), "already_started")


# -- opening draft -----------------------------------------------------------------------------


def test_opening_is_four_draft_turns_each_then_three_basics() -> None:
    engine = new_engine()
    engine.apply(StartGame(None))
    turns = 0
    while engine.phase == "opening":
        active = engine.whose_turn
        effects = engine.apply(Pick(active, 0))
        turns += 1
        assert any(isinstance(e, PacksPassed) and e.player == active for e in effects)
    assert turns == 8
    assert engine.phase == "basics"
    assert all(len(engine.players[p].owned) == 4 for p in (1, 2))
    assert_refused(engine, ChooseBasics(1, ("Island", "Island")), "bad_basics")
    assert_refused(engine, ChooseBasics(1, ("Island", "Island", "Wastes")), "bad_basics")
    assert engine.apply(ChooseBasics(1, ("island", "Swamp", "Swamp"))) == [
        BasicsAdded(1, ("Island", "Swamp", "Swamp"))
    ]
    assert_refused(engine, ChooseBasics(1, ("Island", "Swamp", "Swamp")), "already_chose")
    effects = engine.apply(ChooseBasics(2, ("Forest", "Forest", "Forest")))
    assert effects[-1] == TurnStarted(1, 1, "play")
    assert engine.phase == "play"


def test_opening_draft_passes_alternate_packs() -> None:
    engine = new_engine()
    engine.apply(StartGame(None))
    first_pack = list(engine.players[1].pack)
    passed = list(engine.passed)
    engine.apply(Pick(1, 0))
    # player 1 took the passed pack; their old pack (minus the pick) is now the passed pack
    assert engine.players[1].pack == passed
    assert engine.passed == first_pack[1:]


def test_basics_needed_effect_lists_choices() -> None:
    engine = new_engine()
    engine.apply(StartGame(None))
    effects: list[Any] = []
    while engine.phase == "opening":
        effects = engine.apply(Pick(engine.whose_turn, 0))
    assert effects[-1] == BasicsNeeded(3, BASIC_LAND_NAMES)


# -- drawing is drafting -------------------------------------------------------------------------


def test_draw_replenishes_to_seven_then_pick_by_name() -> None:
    engine = new_engine()
    to_play(engine)
    engine.players[1].pack = engine.players[1].pack[:3]  # simulate a small pack
    shoe_top = engine.shoe[:4]
    engine.apply(Draw(1, 1))
    assert engine.pack_size(1) == 7
    assert engine.players[1].pack[3:] == shoe_top
    name = engine.config.cards[shoe_top[0]].name
    effects = engine.apply(Pick(1, name.upper()))
    assert effects == [CardPicked(1, engine._ref(shoe_top[0]), visible_to=1)]
    assert shoe_top[0] in engine.players[1].owned


def test_draw_two_means_two_picks() -> None:
    engine = new_engine()
    to_play(engine)
    engine.apply(Draw(1, 2))
    assert engine.pending_pick(1)
    assert_refused(engine, EndTurn(1), "pick_pending")
    effects = engine.apply(Pick(1, 0))
    assert isinstance(effects[-1], PickRequired)
    engine.apply(Pick(1, 0))
    assert not engine.pending_pick(1)
    assert_refused(engine, Pick(1, 0), "no_pick_pending")


def test_empty_shoe_no_replenish() -> None:
    engine = new_engine()
    to_play(engine)
    engine.shoe = []
    engine.players[1].pack = engine.players[1].pack[:2]
    engine.exile += [c for c in range(len(engine.config.cards)) if c not in engine.card_locations()]
    engine.apply(Draw(1))
    assert engine.pack_size(1) == 2
    check_invariants(engine)


def test_pick_from_empty_pack_counters_ends_turn_and_costs_life() -> None:
    engine = new_engine()
    to_play(engine)
    engine.exile += engine.shoe + engine.players[1].pack
    engine.shoe, engine.players[1].pack = [], []
    passed = list(engine.passed)
    effects = engine.apply(Draw(1))
    assert StackCountered(1) in effects
    assert LifeLost(1, 1, "failed_pick") in effects
    assert TurnEnded(1, "failed_pick") in effects
    assert engine.whose_turn == 2
    assert engine.players[1].pack == passed  # pass step still happened
    assert engine.players[1].life_lost == 1
    check_invariants(engine)


def test_bad_pick_refused_without_change() -> None:
    engine = new_engine()
    engine.apply(StartGame(None))
    assert_refused(engine, Pick(1, 7), "no_such_card")
    assert_refused(engine, Pick(1, -1), "no_such_card")
    assert_refused(engine, Pick(1, "No Such Card"), "no_such_card")
    assert_refused(engine, Pick(2, 0), "no_pick_pending")
    assert_refused(engine, Pick(99, 0), "not_a_player")
    assert_refused(engine, Draw(1), "wrong_phase")


def test_a_pick_that_finds_nothing_says_the_pack_size() -> None:
    """The referee answers a bad pick with the numbers that may be picked (smoke test: "!pick 9" with a
    pack of 7 got only "your pack has no such card"), by number and by name alike."""
    engine = new_engine()
    engine.apply(StartGame(None))
    size = engine.pack_size(1)
    for choice in (size + 2, "No Such Card"):
        with pytest.raises(RulesError) as info:
            engine.apply(Pick(1, choice))
        assert info.value.code == "no_such_card" and info.value.details["pack_size"] == size


def test_actions_before_start_refused() -> None:
    engine = new_engine()
    assert_refused(engine, Draw(1), "not_started")
    assert_refused(engine, Pick(1, 0), "not_started")
    assert_refused(engine, ShuffleShoe(None), "not_started")


def test_draw_count_validated() -> None:
    engine = new_engine()
    to_play(engine)
    for bad in (0, -3, 1000, True):
        assert_refused(engine, Draw(1, bad), "bad_count")


# -- pass step and turns -------------------------------------------------------------------------


def test_end_turn_swaps_pack_with_passed_pack() -> None:
    engine = new_engine()
    to_play(engine)
    mine, passed = list(engine.players[1].pack), list(engine.passed)
    assert_refused(engine, EndTurn(2), "not_your_turn")
    effects = engine.apply(EndTurn(1))
    assert engine.players[1].pack == passed and engine.passed == mine
    assert effects[-1] == TurnStarted(2, 2, "play")
    # the referee (None) may end the turn too
    engine.apply(EndTurn(None))
    assert engine.whose_turn == 1


# -- mulligan ----------------------------------------------------------------------------------


def land_heavy_engine() -> VortexEngine:
    cards = tuple(basic(n) for n in BASIC_LAND_NAMES * 4) + tuple(spell(i) for i in range(30))
    engine = new_engine(cards=cards)
    to_play(engine)
    return engine


def five_basics_in_pack(engine: VortexEngine, player: Any) -> list[int]:
    """Arrange ``player``'s pack to hold five basics from the shoe (every card stays in one place)."""
    lands = [i for i, c in enumerate(engine.config.cards) if c.is_basic_land]
    where = engine.card_locations()
    wanted = [c for c in lands if where[c] == "shoe"][:5]
    for c in wanted:
        engine.shoe.remove(c)
    engine.shoe += engine.players[player].pack
    engine.players[player].pack = wanted
    return wanted


def test_mulligan_exiles_pack_and_replenishes_to_five_this_turn() -> None:
    engine = land_heavy_engine()
    wanted = five_basics_in_pack(engine, 1)
    assert_refused(engine, PackMulligan(2), "not_your_turn")
    effects = engine.apply(PackMulligan(1))
    assert engine.pack_size(1) == 0
    assert set(wanted) <= set(engine.exile)
    assert any(type(e).__name__ == "PackRevealed" for e in effects)
    assert_refused(engine, PackMulligan(1), "already_mulliganed")
    engine.apply(Draw(1))
    assert engine.pack_size(1) == 5
    engine.apply(Pick(1, 0))
    engine.apply(EndTurn(1))
    assert engine.players[1].replenish_to == 7
    check_invariants(engine)


def test_mulligan_needs_five_basics_and_upkeep() -> None:
    engine = new_engine()
    to_play(engine)
    engine.players[1].pack = [c for c in engine.players[1].pack if not engine.config.cards[c].is_basic_land]
    engine.shoe += [c for c in range(len(engine.config.cards)) if c not in engine.card_locations()]
    assert_refused(engine, PackMulligan(1), "not_enough_basics")
    engine.apply(Draw(1))
    engine.apply(Pick(1, 0))
    assert_refused(engine, PackMulligan(1), "mulligan_too_late")


# -- the shoe takes every other library effect ------------------------------------------------------


def test_put_owned_card_on_top_and_bottom_of_shoe() -> None:
    engine = new_engine()
    to_play(engine)
    card = engine.players[1].owned[0]
    effects = engine.apply(PutInShoe(1, card, "top"))
    assert effects == [CardToShoe(engine._ref(card), "owned:1", "top", engine.shoe_size(), visible_to=1)]
    assert engine.shoe[0] == card and engine.owner_of(card) is None
    assert_refused(engine, PutInShoe(1, card, "top"), "card_not_available")
    other = engine.players[2].owned[0]
    engine.apply(PutInShoe(None, engine.config.cards[other].name, "bottom"))
    assert engine.shoe[-1] == other
    assert_refused(engine, PutInShoe(1, engine.players[1].owned[0], "middle"), "bad_position")
    check_invariants(engine)


def test_look_at_shoe_is_private_and_arrange() -> None:
    engine = new_engine()
    to_play(engine)
    top3 = engine.shoe[:3]
    (effect,) = engine.apply(LookAtShoe(2, 3))
    assert effect == ShoeTopRevealed(tuple(engine._ref(c) for c in top3), visible_to=2)
    assert_refused(engine, ArrangeShoeTop(2, top=(top3[0],), bottom=(99,)), "bad_arrangement")
    engine.apply(ArrangeShoeTop(2, top=(top3[2], top3[0]), bottom=(top3[1],)))
    assert engine.shoe[:2] == [top3[2], top3[0]] and engine.shoe[-1] == top3[1]
    assert_refused(engine, LookAtShoe(2, 0), "bad_count")


def test_shuffle_shoe_keeps_cards() -> None:
    engine = new_engine()
    to_play(engine)
    before = sorted(engine.shoe)
    engine.apply(ShuffleShoe(1))
    assert sorted(engine.shoe) == before


# -- state-based: pack over seven -------------------------------------------------------------


@pytest.mark.parametrize("destination", ["graveyard", "shoe_bottom", "exile"])
def test_pack_over_seven_loses_random_card(destination: str) -> None:
    engine = new_engine(overflow_to=destination)
    to_play(engine)
    assert engine.pack_size(1) <= 7
    engine.apply(Draw(1))  # replenish to 7
    engine.apply(Pick(1, 0))
    engine.apply(Draw(1))
    engine.apply(Pick(1, 0))
    owned = engine.players[1].owned[0]
    engine.apply(PutInPack(1, owned))
    assert engine.pack_size(1) == 7
    owned2 = engine.players[1].owned[0]
    effects = engine.apply(PutInPack(1, owned2))
    overflow = [e for e in effects if isinstance(e, PackOverflow)]
    assert len(overflow) == 1 and overflow[0].destination == destination
    assert engine.pack_size(1) == 7
    lost = overflow[0].card.index
    if destination == "graveyard":
        assert lost in engine.players[1].graveyard
    elif destination == "exile":
        assert lost in engine.exile
    else:
        assert engine.shoe[-1] == lost
    check_invariants(engine)


def test_bad_overflow_config_refuses_start() -> None:
    assert_refused(new_engine(overflow_to="moon"), StartGame(None), "bad_config")


# -- property tests ---------------------------------------------------------------------------------


def random_action(rng: random.Random, engine: VortexEngine) -> Action:
    players = list(engine.config.players)
    who = rng.choice([*players, None, "stranger"])
    any_card: int | str = rng.choice([rng.randrange(-2, len(engine.config.cards) + 2), "Spell 3", "Forest"])
    pending = [p for p in players if engine.players[p].pick_pending]
    roll = rng.random()
    if pending and roll < 0.6:
        p = rng.choice(pending)
        return Pick(p, rng.choice([0, rng.randrange(-1, 9), "Forest"]))
    if engine.phase == "basics" and roll < 0.9:
        return ChooseBasics(who, tuple(rng.choice([*BASIC_LAND_NAMES, "Wastes"]) for _ in range(3)))
    return rng.choice(
        [
            StartGame(None),
            Draw(who, rng.choice([1, 1, 2, 0])),
            EndTurn(rng.choice([engine.whose_turn, who])),
            PackMulligan(who),
            PutInShoe(who, any_card, rng.choice(["top", "bottom"])),
            ShuffleShoe(who),
            LookAtShoe(who, rng.randrange(0, 5)),
            ArrangeShoeTop(who, top=tuple(engine.shoe[:1]), bottom=tuple(engine.shoe[1:2])),
            PutInPack(who, any_card),
        ]
    )


Chooser = Callable[[random.Random, VortexEngine], Action]


def play_random(
    engine: VortexEngine, seed: int, steps: int, table: Table | None = None, choose: Chooser = random_action
) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        action = rng.choice([StartGame(None)]) if engine.phase == "new" else choose(rng, engine)
        before = engine.snapshot()
        try:
            if table is not None:
                table.apply(action)
            else:
                engine.apply(action)
        except RulesError:
            assert engine.snapshot() == before
        check_invariants(engine)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), spells=st.integers(0, 60))
def test_random_play_keeps_invariants(seed: int, players: int, spells: int) -> None:
    engine = new_engine(players=tuple(range(1, players + 1)), cards=pool(spells, players))
    play_random(engine, seed, 150)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_hand_card_was_picked_by_its_owner(seed: int) -> None:
    engine = new_engine(players=("alice", "bob", "carol"), cards=pool(30, 3))
    rng = random.Random(seed)
    picked: Counter[tuple[str, int]] = Counter()
    for _ in range(200):
        action = StartGame(None) if engine.phase == "new" else random_action(rng, engine)
        try:
            effects = engine.apply(action)
        except RulesError:
            continue
        for e in effects:
            if isinstance(e, CardPicked):
                picked[(e.player, e.card.index)] += 1
    for p, st_ in engine.players.items():
        for c in st_.owned:
            assert picked[(p, c)] >= 1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_journal_round_trip(seed: int) -> None:
    journal = Journal(":memory:")
    engine = new_engine(players=(10, 20, 30), cards=pool(25, 3))
    table = Table.create(journal, "vortex-1", engine)
    play_random(engine, seed, 120, table=table)
    restored = journal.restore("vortex-1")
    assert restored.snapshot() == engine.snapshot()


def test_actions_json_round_trip() -> None:
    for action in (
        Pick(1, "Spell 3"),
        Pick("bob", 2),
        ChooseBasics(1, ("Island", "Forest", "Forest")),
        ArrangeShoeTop(None, top=(3, 4), bottom=(5,)),
        PutInShoe(2, 7, "bottom"),
    ):
        assert decode_action(VortexEngine, encode_action(action)) == action


def test_draw_step_skips_the_starting_players_first_draw_in_two_player_games() -> None:
    """Magic 103.8, applied by the engine's turn-based draw (``DrawStep``), not by the bot."""
    from cockatrice_ext.formats.vortex import DrawStep, FirstDrawSkipped

    engine = new_engine()
    to_play(engine)
    assert_refused(engine, DrawStep(player=1), "referee_only")
    first = engine.whose_turn
    assert engine.apply(DrawStep(player=None)) == [FirstDrawSkipped(first)]
    assert engine.apply(DrawStep(player=None)) == []  # once per turn
    three = new_engine(players=(1, 2, 3))
    to_play(three)
    effects = three.apply(DrawStep(player=None))
    assert (
        not any(isinstance(e, FirstDrawSkipped) for e in effects)
        and three.players[three.whose_turn].pick_pending
    )


def test_an_upkeep_draw_does_not_take_the_draw_step_away() -> None:
    """Issue 9 bug 1: a "draw a card" at upkeep is an extra pick; the draw step still draws one."""
    from cockatrice_ext.formats.vortex import DrawStep

    engine = new_engine()
    to_play(engine)
    engine.apply(EndTurn(engine.whose_turn))  # past the first turn, whose draw step is skipped
    active = engine.whose_turn
    engine.apply(Draw(active))
    engine.apply(Pick(active, 0))
    assert_refused(engine, PackMulligan(active), "mulligan_too_late")  # still: a card was drawn
    effects = engine.apply(DrawStep(player=None))
    assert any(isinstance(e, PickRequired) for e in effects)
    engine.apply(Pick(active, 0))
    assert engine.players[active].picks == 4 + 2
    assert engine.apply(DrawStep(player=None)) == []  # still once per turn
