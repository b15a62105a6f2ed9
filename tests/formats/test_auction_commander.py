"""90Y.6: a player auctions their commander from the command zone; the winner's commander is exchanged for it
when it is in the command zone, else the plain 90X.6 sale stands."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.auction import (
    AuctionConfig,
    AuctionEngine,
    AuctionOwnCards,
    BeginTurn,
    Bid,
    CastCommander,
    CommanderToCommandZone,
    Draw,
    EndTurn,
    Pass,
    StartPregame,
)
from tests.formats.test_auction import (
    STEPS,
    commander_block,
    creature,
    journal_replay,
    legend,
    make,
    of_type,
    play,
    random_action,
    random_run,
    refused,
)


def with_commanders(players: tuple[int, ...] = (1, 2)) -> AuctionEngine:
    """A Commander Auction game after the pregame: 1 commands Ayula (1), 2 Baral (3), 3 Cho (4)."""
    engine = make(commander_block(), players=players, commander=True)
    play(engine, StartPregame(None), Bid(1, amount=1), *[Pass(p) for p in players[1:]])
    while engine.phase == "pregame":
        play(engine, Pass(engine.whose_bid()))
    return engine


def test_commanders_exchange_when_the_winners_commander_is_in_the_command_zone() -> None:
    engine = with_commanders()
    assert engine.commanders == {1: 1, 2: 3}
    play(engine, BeginTurn(None, active=1))
    opened = play(engine, AuctionOwnCards(1, cards=("Ayula",)))
    lot = of_type(opened, am.LotOpened)[0]
    assert (lot.kind, lot.seller, lot.bidders) == ("owned", 1, (2,)) and engine.command[1] == []
    effects = play(engine, Bid(2, amount=4))
    sold = of_type(effects, am.LotSold)[0]
    assert (sold.winner, sold.price, sold.seller, sold.destination) == (2, 4, 1, "command")
    assert of_type(effects, am.CommandersExchanged) == [
        am.CommandersExchanged(3, 1, 2, am.CardRef(1, "Ayula"), am.CardRef(3, "Baral"))
    ]
    assert engine.commanders == {1: 3, 2: 1} and engine.command == {1: [3], 2: [1]}
    assert engine.owner[1] == 2 and engine.owner[3] == 1
    assert (engine.gold(1), engine.gold(2)) == (9 + 4, 10 - 4)
    play(engine, CastCommander(1), CastCommander(2))
    assert engine.played == {1: [3], 2: [1]}


def test_no_exchange_when_the_winners_commander_is_out_the_card_is_simply_sold() -> None:
    engine = with_commanders()
    play(engine, BeginTurn(None, active=2), CastCommander(2), EndTurn(None), BeginTurn(None, active=1))
    effects = play(engine, AuctionOwnCards(1, cards=("Ayula",)), Bid(2, amount=2))
    assert of_type(effects, am.CommanderExchangeFailed) == [
        am.CommanderExchangeFailed(3, 1, 2, am.CardRef(1, "Ayula"))
    ]
    assert of_type(effects, am.LotSold)[0].destination == "hand"
    assert engine.hand[2] == [1] and engine.commanders == {2: 3} and engine.played[2] == [3]
    refused(engine, CastCommander(1), "not_a_commander")
    refused(engine, CommanderToCommandZone(1), "not_a_commander")


def test_an_unsold_commander_goes_back_to_the_command_zone_and_stays_its_owners() -> None:
    engine = with_commanders((1, 2, 3))
    play(engine, BeginTurn(None, active=1))
    effects = play(engine, AuctionOwnCards(1, cards=(1,)), Pass(2), Pass(3))
    assert of_type(effects, am.LotUnsold)[0].destination == "returned"
    assert engine.command[1] == [1] and engine.commanders[1] == 1


def test_only_a_commander_in_the_command_zone_alone_and_only_in_commander_games() -> None:
    engine = with_commanders()
    play(engine, BeginTurn(None, active=1))
    refused(engine, AuctionOwnCards(2, cards=("Ayula",)), "missing_card")  # someone else's commander
    play(engine, AuctionOwnCards(1, cards=("Ayula",)), Pass(2))
    play(engine, Draw(1, count=1))
    refused(engine, AuctionOwnCards(1, cards=("Ayula", engine.hand[1][0])), "commander_alone")
    plain = make([legend("Ayula"), creature("Bear")])
    play(plain, BeginTurn(None, active=1))
    refused(plain, AuctionOwnCards(1, cards=("Ayula",)), "missing_card")


def commander_action(engine: AuctionEngine, rnd: random.Random) -> Any:
    """Random play (from the pregame on), often selling, casting or bringing home a commander."""
    if engine.phase == "pregame" and engine.lot is None:
        return StartPregame(None)
    if rnd.randrange(3):
        return random_action(engine, rnd)
    someone = rnd.choice(list(engine.players))
    choice = rnd.randrange(3)
    if choice == 0 and someone in engine.commanders:
        return AuctionOwnCards(someone, cards=(engine.commanders[someone],))
    if choice == 1:
        return CastCommander(someone)
    return CommanderToCommandZone(someone)


def check_commanders(engine: AuctionEngine) -> None:
    """No card commands for two players, and a command zone holds only its player's commander, owned by them
    (a commander card elsewhere may be anyone's: it keeps its designation when it changes zones)."""
    assert len(set(engine.commanders.values())) == len(engine.commanders)
    for player, cards in engine.command.items():
        assert len(cards) <= 1
        for index in cards:
            assert engine.commanders.get(player) == index and engine.owner[index] == player


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_random_commander_sales_keep_cards_gold_and_commanders(data: Any, seed: int) -> None:
    engine = AuctionEngine(
        AuctionConfig(players=(1, 2, 3), cards=tuple(commander_block()), commander=True), seed=seed
    )

    def choose(live: AuctionEngine, rnd: random.Random) -> Any:
        check_commanders(live)
        return commander_action(live, rnd)

    random_run(engine, data.draw(STEPS), choose)
    check_commanders(engine)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_journal_replay_of_commander_sales_is_deterministic(data: Any, seed: int) -> None:
    engine = AuctionEngine(
        AuctionConfig(players=(1, 2, 3), cards=tuple(commander_block()), commander=True), seed=seed
    )
    journal_replay(engine, data.draw(STEPS), commander_action)
