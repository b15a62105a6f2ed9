"""AutoBattler cube engine: shop drafting, mini-games, poison, the Ghost, pairings, options, invariants."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.autobattler import (
    AbandonReplay,
    AutoBattlerConfig,
    AutoBattlerEngine,
    BasicsPlayed,
    BuyPermanentBasic,
    CarouselPick,
    EndDraft,
    PermanentBasicBought,
    PlayWithBasics,
    ReportTreasures,
    Roll,
    Swap,
    d20_pairings,
)
from cockatrice_ext.formats.base import Action, RulesError
from cockatrice_ext.formats.league import ReportResult, StandIn, Start
from cockatrice_ext.journal import Journal, Table

FOUR = ("ann", "bob", "cat", "dan")
EIGHT = (*FOUR, "eve", "fay", "gus", "hal")
CUBE = tuple(CardFacts(name=f"Cube Card {i}", colors=("WUBRG"[i % 5],)) for i in range(260))


def make_engine(players: tuple[str, ...] = FOUR, seed: int = 3, **options: object) -> AutoBattlerEngine:
    config = AutoBattlerConfig(players=players, cards=CUBE, **options)  # type: ignore[arg-type]
    return AutoBattlerEngine(config, seed=seed)


def all_cards_once(engine: AutoBattlerEngine) -> bool:
    everything = [c for cards in engine.locations().values() for c in cards]
    return sorted(everything) == list(range(len(engine.config.cards)))


def refused(engine: AutoBattlerEngine, action: Action, code: str) -> None:
    before = copy.deepcopy(engine.snapshot())
    with pytest.raises(RulesError) as err:
        engine.apply(action)
    assert err.value.code == code
    assert engine.snapshot() == before


def end_draft(engine: AutoBattlerEngine) -> None:
    for player in engine.active():
        if player not in engine.done:
            engine.apply(EndDraft(player))


def play_round(engine: AutoBattlerEngine, winners: dict[str, str] | None = None) -> None:
    """Report every open match; ``winners[p]`` names the winner (or "draw") of p's match."""
    for match in engine.league.current_matches():
        if match.decided:
            continue
        a, b = match.players
        winner = (winners or {}).get(a) or (winners or {}).get(b) or a
        if winner == "draw":
            engine.apply(ReportResult(None, draw=True, match_of=a))
        else:
            engine.apply(ReportResult(None, winner=winner))


def opponents(engine: AutoBattlerEngine) -> dict[str, str]:
    result = {}
    for match in engine.league.current_matches():
        if len(match.players) == 2:
            a, b = match.players
            result[a], result[b] = b, a
    return result


# -- setup and the draft phase -------------------------------------------------------------


def test_config_needs_four_or_eight_players() -> None:
    with pytest.raises(ValueError):
        make_engine(players=("a", "b", "c"))
    make_engine(players=EIGHT)


def test_start_deals_six_cards_a_treasure_a_card_and_a_shop() -> None:
    engine = make_engine()
    refused(engine, Swap("ann", 0, 0), "wrong_phase")
    refused(engine, Start("ann"), "referee_only")
    engine.apply(Start(None))
    assert engine.phase == "draft" and engine.energy == 3
    for player in FOUR:
        assert len(engine.pool(player)) == 7
        assert engine.treasures[player] == 1
        assert len(engine.shop(player)) == 5
    assert all_cards_once(engine)
    refused(engine, Start(None), "wrong_phase")


def test_swap_roll_and_end_of_draft_return_cards_to_cube() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    shop, pool = engine.shop("ann"), engine.pool("ann")
    engine.apply(Swap("ann", CUBE[shop[2]].name, pool[0]))
    assert shop[2] in engine.pool("ann") and pool[0] in engine.shop("ann")
    assert len(engine.shop("ann")) == 5 and len(engine.pool("ann")) == 7
    refused(engine, Swap("ann", pool[1], pool[1]), "not_in_shop")
    refused(engine, Swap("ann", engine.shop("ann")[0], engine.shop("bob")[0]), "card_not_found")
    refused(engine, Swap("zed", 0, 0), "not_a_member")
    old = engine.shop("ann")
    engine.apply(Roll("ann"))
    assert engine.treasures["ann"] == 0 and set(old) <= set(engine.discard)
    assert not set(old) & set(engine.shop("ann"))
    refused(engine, Roll("ann"), "no_treasure")
    assert all_cards_once(engine)
    engine.apply(EndDraft("ann"))
    refused(engine, Swap("ann", engine.shop("ann")[0], engine.pool("ann")[0]), "already_done")
    refused(engine, EndDraft("ann"), "already_done")
    cube_before = len(engine.cube)
    end_draft(engine)
    assert engine.phase == "play"
    assert len(engine.cube) == cube_before + 4 * 5 + 5  # four shops and the rolled-away shop
    assert not engine.discard and all(not engine.shop(p) for p in FOUR)
    assert all_cards_once(engine)


def test_check_deck() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    names = [CUBE[c].name for c in engine.pool("ann")]
    assert engine.check_deck("ann", names[:3], (), ["Forest", "Island", "Island"], 1) == []
    codes = [p.code for p in engine.check_deck("ann", names[:4], ["X"], ["Forest", "Lightning Bolt"], 2)]
    assert codes == [
        "wrong_hand_size",
        "library_not_empty",
        "wrong_land_count",
        "not_basic_land",
        "too_many_treasures",
    ]
    other = CUBE[engine.pool("bob")[0]].name
    assert [p.code for p in engine.check_deck("ann", [*names[:2], other], (), ["Plains"] * 3)] == [
        "not_in_pool"
    ]


# -- mini-games and poison -------------------------------------------------------------------


def test_first_minigame_and_poison_by_energy() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    matches = engine.league.current_matches()
    assert len(matches) == 2
    setups = [m for m in matches]
    assert all(len(m.players) == 2 for m in setups)
    refused(
        engine, ReportResult(None, winner=matches[0].players[0], by_concession=True), "concession_not_allowed"
    )
    a, b = matches[0].players
    engine.apply(ReportResult(None, winner=a))
    assert engine.poison[b] == 1 and engine.poison[a] == 0
    c, d = matches[1].players
    engine.apply(ReportResult(None, draw=True, match_of=c))  # a draw is a loss for both
    assert engine.poison[c] == 1 and engine.poison[d] == 1
    assert engine.phase == "draft" and engine.games_played == 1
    assert engine.last_opponent[a] == b and engine.last_opponent[c] == d


def test_energy_rises_every_three_games_and_changes_draft_and_poison() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    poison_seen = []
    for game in range(9):
        end_draft(engine)
        loser_before = dict(engine.poison)
        play_round(engine)
        gained = max(engine.poison[p] - loser_before[p] for p in FOUR)
        poison_seen.append(gained)
        assert engine.energy == 3 + (game + 1) // 3
    assert poison_seen == [1, 1, 1, 1, 1, 1, 2, 2, 2]
    # energy 6: two treasures and no random card: pools stay at 15
    assert engine.energy == 6
    assert all(len(engine.pool(p)) == 15 for p in engine.active())


def test_treasures_are_capped_at_five() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    engine.treasures["ann"] = 7
    end_draft(engine)
    assert engine.treasures["ann"] == 5  # the excess is discarded at deckbuilding
    refused(engine, ReportTreasures("ann", "bob", 3), "referee_only")
    refused(engine, ReportTreasures(None, "ann", -1), "malformed")
    engine.apply(ReportTreasures(None, "ann", 9))
    assert engine.treasures["ann"] == 5
    engine.apply(ReportTreasures("ann", "", 2))
    assert engine.treasures["ann"] == 2


def test_play_or_draw_chooser_has_more_poison() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    engine.poison.update({"ann": 3, "bob": 1, "cat": 2, "dan": 0})
    engine.last_opponent = {"ann": "bob", "bob": "ann", "cat": "dan", "dan": "cat"}
    effects = []
    for player in FOUR:
        effects += engine.apply(EndDraft(player))
    setups = [e for e in effects if type(e).__name__ == "MatchSetup"]
    assert len(setups) == 2
    for setup in setups:
        a, b = setup.players  # type: ignore[attr-defined]
        assert setup.chooser == (a if engine.poison[a] > engine.poison[b] else b)  # type: ignore[attr-defined]
        assert setup.first == "" and setup.hand_size == 3 and setup.starting_life == 10  # type: ignore[attr-defined]


def test_flat_poison_option() -> None:
    engine = make_engine(flat_poison=2)
    engine.apply(Start(None))
    end_draft(engine)
    loser = engine.league.current_matches()[0].players[1]
    play_round(engine)
    assert engine.poison[loser] == 2


# -- pairings -----------------------------------------------------------------------------


def test_d20_rematch_rate_is_ten_percent() -> None:
    rng = random.Random(12345)
    last = {"ann": "bob", "bob": "ann", "cat": "dan", "dan": "cat"}
    counts: Counter[str] = Counter()
    for _ in range(2000):
        pairs = d20_pairings(FOUR, last, rng)
        opponent = {a: b for a, b in pairs} | {b: a for a, b in pairs}
        counts[opponent["ann"]] += 1
        assert sorted(p for pair in pairs for p in pair) == sorted(FOUR)
    assert abs(counts["bob"] / 2000 - 0.10) < 0.10 * 0.3
    assert abs(counts["cat"] / 2000 - 0.45) < 0.45 * 0.1
    assert abs(counts["dan"] / 2000 - 0.45) < 0.45 * 0.1


def test_first_pairing_is_uniform() -> None:
    rng = random.Random(99)
    counts: Counter[str] = Counter()
    for _ in range(1500):
        pairs = d20_pairings(FOUR, {}, rng)
        counts[next(b if a == "ann" else a for a, b in pairs if "ann" in (a, b))] += 1
    assert all(abs(counts[p] / 1500 - 1 / 3) < 0.05 for p in ("bob", "cat", "dan"))


# -- the Ghost and the final two ------------------------------------------------------------


def test_first_death_makes_a_ghost_who_keeps_playing() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    opp = opponents(engine)
    engine.poison["ann"] = 9
    play_round(engine, {"ann": opp["ann"]})
    assert engine.dead == ["ann"] and engine.ghosts == {0: "ann"}
    assert "ann" in engine.active() and engine.phase == "draft"
    end_draft(engine)
    assert len(engine.league.current_matches()) == 2


def test_ghost_cannot_decide_the_winner() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    opp = opponents(engine)
    engine.poison["ann"] = 9
    play_round(engine, {"ann": opp["ann"]})
    assert engine.ghosts == {0: "ann"}
    end_draft(engine)
    opp = opponents(engine)
    victim = opp["ann"]  # plays the Ghost
    others = [p for p in FOUR if p not in ("ann", victim)]
    for p in (victim, *others):
        engine.poison[p] = 9
    # the Ghost beats its opponent, and one of the other two loses: only one would be left
    play_round(engine, {"ann": "ann", others[0]: others[0]})
    assert victim not in engine.dead and engine.poison[victim] == 9
    assert others[1] in engine.dead
    assert sorted(engine.alive(0)) == sorted([victim, others[0]])
    assert engine.ghosts == {}  # two are dead: only the final two play
    end_draft(engine)
    (match,) = engine.league.current_matches()
    assert sorted(match.players) == sorted([victim, others[0]])


def test_final_two_random_play_draw_and_winner() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    opp = opponents(engine)
    first, second = engine.league.current_matches()
    engine.poison[first.players[1]] = 9
    engine.poison[second.players[1]] = 9
    play_round(engine)
    assert len(engine.dead) == 2 and not engine.ghosts
    effects = []
    for p in engine.active():
        effects += engine.apply(EndDraft(p))
    setup = next(e for e in effects if type(e).__name__ == "MatchSetup")
    assert setup.chooser == "" and setup.first in setup.players  # type: ignore[attr-defined]
    a, b = setup.players  # type: ignore[attr-defined]
    engine.poison[b] = 9
    effects = engine.apply(ReportResult(None, winner=a))
    assert engine.is_over() and engine.champion == a
    assert engine.standings()[0]["player"] == a
    assert opp  # pairings existed


def test_draw_that_kills_two_live_players_is_replayed() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    first, second = engine.league.current_matches()
    a, b = first.players
    engine.poison[a] = engine.poison[b] = 9
    engine.apply(ReportResult(None, draw=True, match_of=a))
    assert engine.poison[a] == 9 and engine.replays == [(a, b)]
    engine.apply(ReportResult(None, winner=second.players[0]))
    # the replay starts at once, no drafting in between
    assert engine.phase == "play" and engine.replay_round
    (replay,) = engine.league.current_matches()
    assert replay.players == (a, b)
    engine.apply(ReportResult(None, draw=True, match_of=a))  # drawn again
    (replay2,) = engine.league.current_matches()
    assert replay2.players == (a, b)
    engine.apply(ReportResult(None, winner=b))
    assert a in engine.dead and b not in engine.dead and engine.phase == "draft"
    assert engine.games_played == 1


def test_abandoned_replay_puts_both_at_nine() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    first, second = engine.league.current_matches()
    a, b = first.players
    engine.poison[a] = engine.poison[b] = 9
    engine.apply(ReportResult(None, draw=True, match_of=a))
    engine.apply(ReportResult(None, winner=second.players[0]))
    refused(engine, AbandonReplay(a, match_of=a), "referee_only")
    refused(engine, AbandonReplay(None, match_of=second.players[0]), "no_replay")
    engine.apply(AbandonReplay(None, match_of=a))
    assert engine.poison[a] == engine.poison[b] == 9 and not engine.dead
    assert engine.phase == "draft"


def test_eight_players_two_groups_and_a_final() -> None:
    engine = make_engine(players=EIGHT, seed=5)
    engine.apply(Start(None))
    end_draft(engine)
    for match in engine.league.current_matches():
        assert engine.group_of(match.players[0]) == engine.group_of(match.players[1])
    rnd = random.Random(1)
    guard = 0
    while engine.phase != "final" and guard < 200:
        guard += 1
        if engine.phase == "draft":
            end_draft(engine)
        else:
            play_round(engine, {m.players[0]: rnd.choice(m.players) for m in engine.league.current_matches()})
    assert engine.phase == "final"
    (final,) = engine.league.current_matches()
    assert sorted(final.players) == sorted(engine.group_winners.values())
    engine.apply(ReportResult(None, draw=True, match_of=final.players[0]))
    assert engine.phase == "final"  # a drawn final is replayed
    engine.apply(ReportResult(None, winner=final.players[1]))
    assert engine.is_over() and engine.champion == final.players[1]
    assert all_cards_once(engine)


# -- options ----------------------------------------------------------------------------------


def test_interest_and_streak_options() -> None:
    engine = make_engine(interest_threshold=3, streak_length=1)
    engine.apply(Start(None))
    engine.treasures["ann"] = 4
    end_draft(engine)
    opp = opponents(engine)
    play_round(engine, {"ann": "ann"})
    # ann keeps 4 (no report), +1 interest, +1 streak, then +1 for the new draft phase
    assert engine.treasures["ann"] == 4 + 1 + 1 + 1
    assert engine.treasures[opp["ann"]] == 1 + 1  # no streak, no interest; +1 draft


def test_carousel_option() -> None:
    engine = make_engine(carousel=True)
    engine.apply(Start(None))
    assert all(len(engine.pool(p)) == 6 for p in FOUR)  # no random card with the carousel
    for _ in range(3):
        end_draft(engine)
        play_round(engine)
    assert engine.phase == "carousel" and len(engine.carousel) == 12
    order = engine.carousel_order
    assert order[:4] == list(reversed(order[4:8])) and order[:4] == order[8:]
    picker = engine.whose_carousel_pick()
    other = next(p for p in FOUR if p != picker)
    refused(engine, CarouselPick(other, engine.carousel[0]), "not_your_pick")
    refused(engine, CarouselPick(picker, 10**6), "not_in_carousel")
    while engine.phase == "carousel":
        who = engine.whose_carousel_pick()
        assert who is not None
        engine.apply(CarouselPick(who, engine.carousel[0]))
    assert engine.phase == "draft"
    assert all(len(engine.pool(p)) == 9 for p in FOUR)
    assert all_cards_once(engine)


def test_six_treasures_buy_a_permanent_basic_land() -> None:
    """Fun Ways to Spend Money: "Pay 6 treasures to permanently add an additional basic land"."""
    engine = make_engine(permanent_basic_cost=6)
    engine.apply(Start(None))
    refused(engine, BuyPermanentBasic("ann"), "not_enough_treasures")
    engine.treasures["ann"] = 7
    effects = engine.apply(BuyPermanentBasic("ann"))
    assert engine.treasures["ann"] == 1 and PermanentBasicBought("ann", 4) in effects
    hand = [engine.config.cards[c].name for c in engine.pool("ann")[:3]]
    assert engine.check_deck("ann", hand, (), ["Forest"] * 4, 0) == []
    assert [p.code for p in engine.check_deck("ann", hand, (), ["Forest"] * 3, 0)] == ["wrong_land_count"]
    assert (
        engine.check_deck(
            "bob", [engine.config.cards[c].name for c in engine.pool("bob")[:3]], (), ["Forest"] * 3
        )
        == []
    )
    end_draft(engine)
    refused(engine, BuyPermanentBasic("ann"), "wrong_phase")
    plain = make_engine()
    plain.apply(Start(None))
    plain.treasures["ann"] = 7
    refused(plain, BuyPermanentBasic("ann"), "feature_disabled")


def test_changing_basic_lands_costs_a_treasure_when_the_league_says_so() -> None:
    """Changing Basic Lands: "pay a treasure if you would like to change your basic lands from what they
    were during your last mini-game"."""
    engine = make_engine(basics_change_fee=1)
    engine.apply(Start(None))
    end_draft(engine)  # everyone has the draft phase's treasure
    hand = [engine.config.cards[c].name for c in engine.pool("ann")[:3]]
    forests, islands = ("Forest",) * 3, ("Island", "Forest", "Forest")
    assert engine.check_deck("ann", hand, (), forests, 1) == []  # the first mini-game: no earlier basics
    refused(engine, PlayWithBasics("ann", "ann", forests), "referee_only")
    effects = engine.apply(PlayWithBasics(None, "ann", forests))
    assert BasicsPlayed("ann", ("forest", "forest", "forest"), 0) in effects and engine.treasures["ann"] == 1
    refused(engine, PlayWithBasics(None, "ann", islands), "already_declared")  # once per mini-game
    play_round(engine)
    end_draft(engine)
    treasures = engine.treasures["ann"]
    hand = [engine.config.cards[c].name for c in engine.pool("ann")[:3]]
    assert engine.check_deck("ann", hand, (), ("forest", "FOREST", "Forest"), treasures) == []
    problems = engine.check_deck("ann", hand, (), islands, treasures)
    assert [p.code for p in problems] == ["too_many_treasures"]  # one of them pays for the change
    assert engine.check_deck("ann", hand, (), islands, treasures - 1) == []
    effects = engine.apply(PlayWithBasics(None, "ann", islands))
    assert (
        engine.treasures["ann"] == treasures - 1
        and BasicsPlayed("ann", ("forest", "forest", "island"), 1) in effects
    )
    engine.treasures["bob"] = 0
    bob_hand = [engine.config.cards[c].name for c in engine.pool("bob")[:3]]
    engine.basics["bob"] = ("forest", "forest", "forest")
    assert [p.code for p in engine.check_deck("bob", bob_hand, (), islands, 0)] == ["basics_fee_unpaid"]


def finish_carousel(engine: AutoBattlerEngine) -> None:
    """Every pick takes the first carousel card (and, when putting back, gives the first pool card)."""
    while engine.phase == "carousel":
        who = engine.whose_carousel_pick()
        assert who is not None
        give = engine.pool(who)[0] if engine.config.carousel_put_back else None
        engine.apply(CarouselPick(who, engine.carousel[0], put_back=give))


def pool_sizes_per_draft_phase(engine: AutoBattlerEngine, phases: int) -> list[int]:
    """ann's pool size at each of the first ``phases`` draft phases (nobody dies: lethal poison is high)."""
    engine.apply(Start(None))
    sizes = []
    for _ in range(phases):
        finish_carousel(engine)
        assert engine.phase == "draft"
        sizes.append(len(engine.pool("ann")))
        end_draft(engine)
        play_round(engine)
    return sizes


def test_the_carousel_does_not_change_pool_sizes() -> None:
    """Issue 9 bug 5: pools reach the seed's static 15 and stay there, with or without the carousel."""
    plain = pool_sizes_per_draft_phase(make_engine(lethal_poison=1000), 18)
    assert plain == [7, 8, 9, 10, 11, 12, 13, 14, 15] + [15] * 9
    dropped = pool_sizes_per_draft_phase(make_engine(lethal_poison=1000, carousel=True), 18)
    assert dropped == [6, 6, 6, 9, 9, 9, 12, 12, 12] + [15] * 9  # three carousels stand for the 9 cards
    put_back = pool_sizes_per_draft_phase(
        make_engine(lethal_poison=1000, carousel=True, carousel_put_back=True), 18
    )
    assert put_back == plain


def test_put_back_carousel_exchanges_a_pool_card_for_each_pick() -> None:
    engine = make_engine(carousel=True, carousel_put_back=True)
    engine.apply(Start(None))
    for _ in range(3):
        end_draft(engine)
        play_round(engine)
    assert engine.phase == "carousel"
    picker = engine.whose_carousel_pick()
    assert picker is not None
    taken, given = engine.carousel[0], engine.pool(picker)[0]
    refused(engine, CarouselPick(picker, taken), "put_back_needed")
    refused(engine, CarouselPick(picker, taken, put_back=engine.carousel[1]), "not_in_pool")
    effects = engine.apply(CarouselPick(picker, taken, put_back=given))
    assert taken in engine.pool(picker) and given not in engine.pool(picker) and given in engine.carousel
    assert any(getattr(e, "put_back", None) == given for e in effects)
    assert all_cards_once(engine)
    plain = make_engine(carousel=True)
    plain.apply(Start(None))
    for _ in range(3):
        end_draft(plain)
        play_round(plain)
    who = plain.whose_carousel_pick()
    assert who is not None
    refused(plain, CarouselPick(who, plain.carousel[0], put_back=plain.pool(who)[0]), "no_put_back")


# -- random play --------------------------------------------------------------------------------


def random_action(engine: AutoBattlerEngine, rnd: random.Random) -> Action:
    players = list(engine.config.players)
    if rnd.random() < 0.1:
        return rnd.choice(
            [
                Swap(rnd.choice([*players, "zed"]), rnd.randrange(300), rnd.randrange(300)),
                Roll(rnd.choice(players)),
                EndDraft(rnd.choice(players)),
                CarouselPick(rnd.choice(players), rnd.randrange(300)),
                ReportResult(rnd.choice(players), winner=rnd.choice(players)),
                ReportResult(None, winner=rnd.choice(players), by_concession=True),
                ReportTreasures(rnd.choice([None, *players]), rnd.choice(players), rnd.randrange(-1, 9)),
                AbandonReplay(None, match_of=rnd.choice(players)),
                Start(None),
            ]
        )
    if engine.phase == "setup":
        return Start(None)
    if engine.phase == "carousel":
        who = engine.whose_carousel_pick()
        assert who is not None
        if rnd.random() < 0.1:  # the referee picks for an away player
            return StandIn(None, target=who)
        give = rnd.choice(engine.pool(who)) if engine.config.carousel_put_back else None
        return CarouselPick(who, rnd.choice(engine.carousel), put_back=give)
    if engine.phase == "draft":
        player = rnd.choice([p for p in engine.active() if p not in engine.done])
        roll = rnd.random()
        if roll < 0.4 and engine.shop(player):
            return Swap(player, rnd.choice(engine.shop(player)), rnd.choice(engine.pool(player)))
        if roll < 0.55:
            return Roll(player)
        if roll < 0.6:
            return BuyPermanentBasic(player)
        if roll < 0.65:  # the referee ends an away player's draft
            return StandIn(None, target=player)
        return EndDraft(player)
    match = rnd.choice([m for m in engine.league.current_matches() if not m.decided])
    roll = rnd.random()
    if roll < 0.1:
        lands = tuple(rnd.choice(["Forest", "Island", "Swamp"]) for _ in range(3))
        return PlayWithBasics(None, rnd.choice(match.players), lands)
    if roll < 0.15:
        return ReportTreasures(None, rnd.choice(match.players), rnd.randrange(0, 8))
    if roll < 0.3:
        return ReportResult(None, draw=True, match_of=match.players[0])
    if roll < 0.4:
        who = rnd.choice(match.players)
        return ReportResult(who, winner=rnd.choice(match.players))
    return ReportResult(None, winner=rnd.choice(match.players))


def check_invariants(engine: AutoBattlerEngine) -> None:
    assert all_cards_once(engine)
    assert all(t >= 0 for t in engine.treasures.values())
    assert all(p >= 0 for p in engine.poison.values())
    for group in range(len(engine.groups)):
        if group not in engine.group_winners:
            assert len(engine.alive(group)) >= 2
        assert len(engine.active(group)) in (0, 2, 4)


def play_randomly(engine: AutoBattlerEngine, seed: int, steps: int, apply: object = None) -> None:
    rnd = random.Random(seed)
    do = apply or engine.apply
    for _ in range(steps):
        if engine.is_over():
            break
        action = random_action(engine, rnd)
        before = engine.snapshot()  # a fresh structure: nothing in it is shared with the engine
        try:
            do(action)  # type: ignore[operator]
        except RulesError:
            assert engine.snapshot() == before
            continue
        check_invariants(engine)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), eight=st.booleans(), carousel=st.booleans(), flat=st.sampled_from([0, 2])
)
def test_random_play_keeps_invariants(seed: int, eight: bool, carousel: bool, flat: int) -> None:
    engine = make_engine(
        players=EIGHT if eight else FOUR,
        seed=seed,
        carousel=carousel,
        flat_poison=flat,
        interest_threshold=3,
        streak_length=3,
        permanent_basic_cost=6,
        basics_change_fee=1,
    )
    play_randomly(engine, seed, 800)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), eight=st.booleans(), put_back=st.booleans())
def test_random_play_with_the_carousel_keeps_pool_sizes(seed: int, eight: bool, put_back: bool) -> None:
    """The carousel never changes pool sizes: a put-back pick leaves the picker's pool as it was, a plain
    pick only hands out withheld random cards, and no pool outgrows the seed's static 15."""
    players = EIGHT if eight else FOUR
    engine = make_engine(players=players, seed=seed, carousel=True, carousel_put_back=put_back)
    static = engine.config.starting_cards + (engine.config.high_energy - engine.config.starting_energy) * 3

    def apply(action: Action) -> list[object]:
        before = {p: len(engine.pool(p)) for p in engine.config.players}
        effects = engine.apply(action)
        if isinstance(action, CarouselPick) and put_back and engine.phase == "carousel":
            assert {p: len(engine.pool(p)) for p in engine.config.players} == before
        live_sizes = {len(engine.pool(p)) for p in engine.active()}
        assert len(live_sizes) <= 1 or engine.phase == "carousel", (live_sizes, engine.phase)
        assert all(len(engine.pool(p)) <= static for p in engine.config.players)
        return effects

    play_randomly(engine, seed, 1500, apply=apply)


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 400),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(EIGHT),
    st.lists(st.integers(-2, 300), max_size=3).map(tuple),
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(AutoBattlerEngine.action_types),
    values=st.lists(JUNK, min_size=4, max_size=4),
    warmup=st.integers(0, 60),
)
def test_malformed_actions_are_refused_cleanly(kind: type[Action], values: list[object], warmup: int) -> None:
    engine = make_engine(seed=warmup)
    play_randomly(engine, warmup, warmup)
    fields = [f.name for f in kind.__dataclass_fields__.values()]
    action = kind(**dict(zip(fields, values, strict=False)))
    before = copy.deepcopy(engine.snapshot())
    try:
        engine.apply(action)
    except RulesError:
        assert engine.snapshot() == before
    else:
        check_invariants(engine)


def test_random_league_ends_with_a_champion() -> None:
    engine = make_engine(seed=8)
    play_randomly(engine, 8, 20000)
    assert engine.is_over() and engine.champion
    assert engine.standings()[0]["player"] == engine.champion


def assert_journal_replays(
    engine: AutoBattlerEngine, seed: int, steps: int, rewrite: Callable[[Action], Action] = lambda a: a
) -> None:
    """Play ``engine`` at random through a journal (``rewrite`` turns some random actions into others), then
    check that replaying the journal rebuilds the same state, and that the state is plain JSON."""
    journal = Journal(":memory:")
    table = Table.create(journal, "auto-1", engine)
    play_randomly(engine, seed, steps, apply=lambda action: table.apply(rewrite(action)))
    restored = journal.restore("auto-1")
    assert restored.snapshot() == engine.snapshot()
    assert json.loads(json.dumps(engine.snapshot())) == engine.snapshot()


@pytest.mark.parametrize("put_back", [False, True])
def test_journal_round_trip(put_back: bool) -> None:
    engine = make_engine(seed=17, carousel=True, carousel_put_back=put_back, interest_threshold=2)
    assert_journal_replays(engine, 17, 1500)
