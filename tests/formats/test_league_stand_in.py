"""The referee's move for an away or idle league member (``StandIn``): Market Draft and the AutoBattler cube.

A league of an evening must not wait for ever for a drafter whose connection died: the engine makes the
format's default move (a pick at random, a pass, the end of a draft, a carousel pick), from its own seeded
generator, so that the journal replays it.
"""

from __future__ import annotations

import copy

import pytest

from cockatrice_ext.formats.autobattler import ChooseAugment, EndDraft
from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.formats.league import Pick, Picked, ReportResult, StandIn, Start, StoodIn
from cockatrice_ext.formats.market import MarketTurn, Passed
from cockatrice_ext.journal import Journal, Table
from tests.formats import test_autobattler as ab_tests
from tests.formats import test_autobattler_augments as augment_tests
from tests.formats import test_market as market_tests


def refused(engine: object, action: StandIn, code: str) -> None:
    before = copy.deepcopy(engine.snapshot())  # type: ignore[attr-defined]
    with pytest.raises(RulesError) as err:
        engine.apply(action)  # type: ignore[attr-defined]
    assert err.value.code == code
    assert engine.snapshot() == before  # type: ignore[attr-defined]


def test_market_draft_picks_at_random_from_the_pack_in_front_of_the_away_drafter() -> None:
    engine = market_tests.make_engine()
    refused(engine, StandIn(None, target="ann"), "not_waiting")  # the draft has not begun
    engine.apply(Start(None))
    drafter = engine.config.players[0]
    pack = engine.pack(drafter)
    token = engine.waiting_for()[drafter]
    assert set(engine.waiting_for()) == set(engine.config.players)  # everyone holds a pack
    effects = engine.apply(StandIn(None, target=drafter))
    assert effects[0] == StoodIn(drafter, "pick", "away")
    (picked,) = [e for e in effects if isinstance(e, Picked)]
    assert picked.player == drafter and picked.card in pack
    assert engine.pool(drafter) == [picked.card]
    assert engine.waiting_for().get(drafter) != token  # the next pack is a new decision
    assert market_tests.all_cards_once(engine)


def test_market_stand_in_is_the_referees_alone_and_only_for_whom_the_league_waits() -> None:
    engine = market_tests.make_engine()
    engine.apply(Start(None))
    drafter = engine.config.players[0]
    refused(engine, StandIn(drafter, target=drafter), "referee_only")  # a player cannot stand in
    refused(engine, StandIn(None, target="zed"), "not_a_member")
    refused(engine, StandIn(None, target=drafter, reason="bored"), "malformed")
    assert engine.apply(StandIn(None, target=drafter, reason="time"))[0] == StoodIn(drafter, "pick", "time")
    drafter = engine.config.players[1]
    engine.apply(Pick(drafter, engine.pack(drafter)[0]))
    if not engine.pack(drafter):  # their next pack is not there yet: nothing to pick for them
        refused(engine, StandIn(None, target=drafter), "not_waiting")


def test_market_draft_finishes_with_stand_ins_alone_and_the_round_starts() -> None:
    engine = market_tests.make_engine(n=3, r=1)
    engine.apply(Start(None))
    while engine.phase == "draft":
        engine.apply(StandIn(None, target=next(iter(engine.waiting_for()))))
    assert engine.phase == "play"
    assert all(len(engine.pool(p)) == 45 for p in engine.config.players)  # three starters of 15 each
    assert market_tests.all_cards_once(engine)
    assert engine.waiting_for() == {}  # games are not moves the referee makes


def test_market_turn_of_an_away_buyer_is_passed() -> None:
    engine = market_tests.make_engine()
    engine.apply(Start(None))
    market_tests.finish_draft(engine)
    market_tests.to_market(engine)
    buyer = engine.whose_turn()
    assert buyer is not None
    token = engine.waiting_for()[buyer]
    effects = engine.apply(StandIn(None, target=buyer))
    assert effects[:2] == [StoodIn(buyer, "pass", "away"), Passed(buyer)]
    assert isinstance(effects[2], MarketTurn) and engine.whose_turn() != buyer
    refused(engine, StandIn(None, target=buyer), "not_waiting")  # not their turn now
    while engine.whose_turn() != buyer:
        who = engine.whose_turn()
        assert who is not None
        engine.apply(StandIn(None, target=who))
        if engine.phase != "market":
            break
    if engine.phase == "market":  # their turn again: a new decision, a new token
        assert engine.waiting_for()[buyer] != token


def test_market_stand_ins_replay_from_the_journal() -> None:
    journal = Journal(":memory:")
    engine = market_tests.make_engine(n=3, r=2, seed=11)
    table = Table.create(journal, "market-1", engine)
    table.apply(Start(None))
    while not engine.is_over():
        if engine.phase == "play":
            for match in engine.league.current_matches():
                if not match.decided:
                    table.apply(ReportResult(None, winner=match.players[0]))
            continue
        table.apply(StandIn(None, target=sorted(engine.waiting_for())[0]))
    assert journal.restore("market-1").snapshot() == engine.snapshot()


def test_same_seed_same_stand_in_picks() -> None:
    picks = []
    for _ in range(2):
        engine = market_tests.make_engine(seed=5)
        engine.apply(Start(None))
        picks.append([engine.apply(StandIn(None, target=p))[1] for p in engine.config.players])
    assert picks[0] == picks[1]


def test_autobattler_stand_in_ends_the_away_players_draft_with_their_pool_as_it_is() -> None:
    engine = ab_tests.make_engine()
    refused(engine, StandIn(None, target="ann"), "not_waiting")
    engine.apply(Start(None))
    away = engine.active()[0]
    pool = engine.pool(away)
    assert engine.waiting_for()[away] == ("done", 0)
    effects = engine.apply(StandIn(None, target=away))
    assert effects[0] == StoodIn(away, "done", "away")
    assert away in engine.done and engine.pool(away) == pool
    refused(engine, StandIn(None, target=away), "not_waiting")  # done already
    for player in engine.active():
        if player not in engine.done:
            engine.apply(EndDraft(player))
    assert engine.phase == "play" and engine.waiting_for() == {}


def test_autobattler_stand_in_keeps_an_augment_at_random_before_ending_the_draft() -> None:
    engine = augment_tests.make_engine()
    engine.apply(Start(None))
    ab_tests.end_draft(engine)
    match = engine.league.current_matches()[0]
    winner, loser = match.players
    engine.poison[loser] = 5
    engine.apply(ReportResult(None, winner=winner))
    augment_tests.play_round(engine)
    pack = engine.augment_packs[loser]
    effects = engine.apply(StandIn(None, target=loser))
    assert effects[0] == StoodIn(loser, "done", "away")
    assert engine.augments[loser][0] in pack and loser not in engine.augment_packs
    assert loser in engine.done
    assert augment_tests.all_augments_once(engine)
    refused(engine, StandIn(None, target=loser), "not_waiting")
    with pytest.raises(RulesError):
        engine.apply(ChooseAugment(loser, pack[0]))


@pytest.mark.parametrize("put_back", [False, True])
def test_autobattler_carousel_pick_of_an_away_player(put_back: bool) -> None:
    engine = ab_tests.make_engine(carousel=True, carousel_put_back=put_back)
    engine.apply(Start(None))
    for _ in range(3):
        ab_tests.end_draft(engine)
        ab_tests.play_round(engine)
    assert engine.phase == "carousel"
    picker = engine.whose_carousel_pick()
    assert picker is not None
    other = next(p for p in engine.active() if p != picker)
    refused(engine, StandIn(None, target=other), "not_waiting")
    carousel, pool = list(engine.carousel), engine.pool(picker)
    effects = engine.apply(StandIn(None, target=picker))
    assert effects[0] == StoodIn(picker, "carousel", "away")
    gained = set(engine.pool(picker)) - set(pool)
    assert len(gained) == 1 and gained <= set(carousel)
    assert len(engine.pool(picker)) == len(pool) + (0 if put_back else 1)
    while engine.phase == "carousel":
        who = engine.whose_carousel_pick()
        assert who is not None
        engine.apply(StandIn(None, target=who))
    assert engine.phase == "draft" and ab_tests.all_cards_once(engine)
