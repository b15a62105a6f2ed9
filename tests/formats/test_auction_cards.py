"""The proposed auction cards the referee runs (seed 000): Gilded Idol, Packaged Gnome, Raise the
Stakes, High Bid, Stake your Claim. A scenario per card, then random play and journal replay with them."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.auction import (
    AuctionConfig,
    AuctionEngine,
    AuctionFromBlock,
    AuctionOwnCards,
    BeginTurn,
    Bid,
    Cast,
    Concede,
    Draw,
    EndTurn,
    Keep,
    Pass,
    StakeClaim,
    StartAuctionStep,
    UseGildedIdol,
)
from tests.formats.test_auction import (
    BLOCK,
    STEPS,
    creature,
    journal_replay,
    make,
    of_type,
    play,
    random_action,
    random_run,
    refused,
    spell,
    started,
)


def artifact(name: str) -> CardFacts:
    return CardFacts(name=name, types=("Artifact",))


def sorcery(name: str) -> CardFacts:
    return CardFacts(name=name, types=("Sorcery",))


IDOL = artifact("Gilded Idol")
GNOME = creature("Packaged Gnome")
STAKES = sorcery("Deadly Stakes")
FIERY = sorcery("Fiery Bid")
CLAIM = CardFacts(name="Blood Claim", types=("Instant",))


def holding(engine: AuctionEngine, player: Any, card: int) -> None:
    """Give ``player`` block card ``card`` (top of the block) by a draw in a turn of their own."""
    assert engine.block[0] == card
    play(engine, BeginTurn(None, active=player), Draw(player, count=1), EndTurn(None))


# ---------------------------------------------------------------------------
# Gilded Idol
# ---------------------------------------------------------------------------


def test_gilded_idol_buys_the_revealed_card_for_nothing_and_goes_to_exile() -> None:
    engine = make([IDOL, creature("Dragon"), creature("Bear")])
    holding(engine, 2, 0)
    gold = engine.gold(2)
    started(engine, active=1)
    effects = play(engine, UseGildedIdol(2))
    assert of_type(effects, am.IdolExiled) == [am.IdolExiled(2, am.CardRef(0, "Gilded Idol"), 1)]
    sold = of_type(effects, am.LotSold)[0]
    assert (sold.winner, sold.price, sold.bids, sold.cards) == (2, 0, (), (am.CardRef(1, "Dragon"),))
    assert engine.gold(2) == gold and engine.pending[2] == [1] and engine.exiled[2] == [0]
    assert engine.phase == "main"  # a creature was bought: the auction step is over
    refused(engine, UseGildedIdol(2), "no_lot")


def test_gilded_idol_only_before_its_holder_bids_and_only_once() -> None:
    """Seed 000's card: "before you bid on it": the holder's own bid ends the chance, another player's does
    not. Seen: refused once the active player had bid ("a bid was placed on this lot")."""
    engine = make([IDOL, creature("Dragon"), creature("Bear"), creature("Elf")])
    holding(engine, 2, 0)
    started(engine, active=1)
    refused(engine, UseGildedIdol(1), "missing_card")
    play(engine, Bid(1, amount=1), Bid(2, amount=2), Bid(1, amount=3))
    refused(engine, UseGildedIdol(2), "already_bid")  # the holder bid on this lot
    play(engine, Pass(2), EndTurn(None), BeginTurn(None, active=1), StartAuctionStep(None))
    play(engine, Bid(1, amount=1))  # another player's bid
    effects = play(engine, UseGildedIdol(2, card="Gilded Idol"))
    sold = of_type(effects, am.LotSold)[0]
    assert (sold.winner, sold.price, sold.cards) == (2, 0, (am.CardRef(2, "Bear"),))
    play(engine, EndTurn(None), BeginTurn(None, active=2), StartAuctionStep(None))
    refused(engine, UseGildedIdol(2), "missing_card")


def test_gilded_idol_must_name_a_gilded_idol_and_not_a_players_own_sale() -> None:
    engine = make([IDOL, creature("Bear"), creature("Dragon"), creature("Elf")], players=(1, 2, 3))
    holding(engine, 2, 0)
    holding(engine, 1, 1)
    play(engine, BeginTurn(None, active=1), AuctionOwnCards(1, cards=("Bear",)))
    refused(engine, UseGildedIdol(2), "not_revealed_lot")  # the lot is up, but not from the block
    play(engine, Pass(2), Pass(3), EndTurn(None), BeginTurn(None, active=1), Draw(2, count=1))
    play(engine, StartAuctionStep(None))
    refused(engine, UseGildedIdol(2, card="Dragon"), "wrong_card")


# ---------------------------------------------------------------------------
# Packaged Gnome
# ---------------------------------------------------------------------------


def test_packaged_gnome_brings_two_more_cards_into_its_lot_and_one_price_buys_all() -> None:
    engine = make([GNOME, spell("Opt"), creature("Bear"), creature("Elf")])
    effects = started(engine)
    opened = of_type(effects, am.LotOpened)[0]
    assert [c.name for c in opened.cards] == ["Packaged Gnome", "Opt", "Bear"]
    package = of_type(effects, am.PackageRevealed)[0]
    assert package.package.name == "Packaged Gnome" and [c.name for c in package.cards] == ["Opt", "Bear"]
    effects = play(engine, Bid(1, amount=4), Pass(2))
    sold = of_type(effects, am.LotSold)[0]
    assert [c.index for c in sold.cards] == [0, 1, 2] and sold.price == 4
    assert engine.pending[1] == [0, 1, 2] and engine.gold(1) == 6 and engine.block == [3]


def test_unsold_package_goes_to_the_bottom_whole_and_a_block_lot_reveals_it_too() -> None:
    engine = make([GNOME, spell("Opt"), creature("Bear"), creature("Elf"), creature("Ox")])
    started(engine)
    effects = play(engine, Pass(1), Pass(2))
    assert of_type(effects, am.LotUnsold)[0].destination == "bottom"
    assert engine.lot is not None and [engine.ref(i).name for i in engine.lot.cards] == ["Elf"]
    play(engine, Bid(1, amount=1), Pass(2), Keep(1), EndTurn(None), BeginTurn(None, active=2))
    play(engine, Draw(2, count=1))  # Ox; the block is now the gnome's lot at the bottom
    effects = play(engine, AuctionFromBlock(2, count=1))
    assert [c.name for c in of_type(effects, am.LotOpened)[0].cards] == ["Packaged Gnome", "Opt", "Bear"]


def test_a_gnome_at_the_end_of_the_block_brings_what_is_left() -> None:
    engine = make([GNOME, spell("Opt")])
    effects = started(engine)
    assert [c.name for c in of_type(effects, am.PackageRevealed)[0].cards] == ["Opt"]
    assert engine.block == []


# ---------------------------------------------------------------------------
# Raise the Stakes
# ---------------------------------------------------------------------------


def test_raise_the_stakes_goes_to_the_next_card_bid_on_and_prompts_its_buyer() -> None:
    engine = make([STAKES, spell("Opt"), creature("Bear"), creature("Elf")])
    started(engine)
    effects = play(engine, Bid(1, amount=2), Pass(2))
    assert of_type(effects, am.StakesRaised) == [am.StakesRaised(1, am.CardRef(0, "Deadly Stakes"), 1)]
    effects = play(engine, Keep(1))  # a noncreature: the follow-up lot opens (Opt)
    effects = play(engine, Pass(1), Pass(2))  # nobody bids on Opt: the stakes wait
    assert not of_type(effects, am.StakesTriggered) and engine.stakes == 1
    effects = play(engine, Pass(1), Bid(2, amount=1))  # Bear: the first bid carries the stakes
    assert of_type(effects, am.StakesAttached) == [am.StakesAttached(3, 1)] and engine.stakes == 0
    effects = play(engine, Pass(1))
    assert of_type(effects, am.StakesTriggered) == [am.StakesTriggered(2, 3, 1, am.STAKES_LIFE)]


def test_raised_stakes_end_with_the_turn() -> None:
    engine = make([STAKES, creature("Bear"), creature("Elf")])
    started(engine)
    play(engine, Bid(1, amount=2), Pass(2), Keep(1))
    play(engine, EndTurn(None))
    assert engine.stakes == 0
    effects = play(engine, BeginTurn(None, active=2), StartAuctionStep(None), Bid(2, amount=1), Pass(1))
    assert not of_type(effects, am.StakesAttached) and not of_type(effects, am.StakesTriggered)


# ---------------------------------------------------------------------------
# High Bid
# ---------------------------------------------------------------------------


def test_high_bid_applies_when_bought_for_five_or_more_and_cast_at_once() -> None:
    engine = make([FIERY, creature("Bear"), FIERY, creature("Elf")])
    started(engine)
    play(engine, Bid(1, amount=5), Pass(2))
    effects = play(engine, Cast(1))
    assert of_type(effects, am.HighBidCast) == [am.HighBidCast(1, am.CardRef(0, "Fiery Bid"), 5)]
    play(engine, Pass(1), Pass(2), EndTurn(None), BeginTurn(None, active=2), StartAuctionStep(None))
    play(engine, Bid(2, amount=4), Pass(1))  # the second Fiery Bid, for 4
    assert not of_type(play(engine, Cast(2)), am.HighBidCast)


def test_high_bid_does_not_apply_to_a_kept_card() -> None:
    engine = make([FIERY, creature("Bear")])
    started(engine)
    play(engine, Bid(1, amount=6), Pass(2))
    assert not of_type(play(engine, Keep(1)), am.HighBidCast) and engine.paid == {}


# ---------------------------------------------------------------------------
# Stake your Claim
# ---------------------------------------------------------------------------


def test_stake_your_claim_returns_to_hand_when_its_caster_next_wins() -> None:
    engine = make([CLAIM, creature("Bear"), creature("Elf")])
    holding(engine, 1, 0)
    play(engine, BeginTurn(None, active=1))
    effects = play(engine, StakeClaim(1))
    assert of_type(effects, am.ClaimStaked) == [am.ClaimStaked(1, am.CardRef(0, "Blood Claim"))]
    assert engine.played[1] == [0] and engine.hand[1] == []
    refused(engine, StakeClaim(1), "already_claimed")
    effects = play(engine, StartAuctionStep(None), Bid(1, amount=1), Pass(2))
    assert of_type(effects, am.ClaimReturned) == [am.ClaimReturned(1, am.CardRef(0, "Blood Claim"), 1)]
    assert engine.hand[1] == [0] and engine.claims[1] == []


def test_stake_your_claim_must_come_before_the_reveal_and_ends_with_the_turn() -> None:
    engine = make([CLAIM, creature("Bear"), creature("Elf"), creature("Ox")])
    holding(engine, 1, 0)
    started(engine, active=1)
    refused(engine, StakeClaim(1), "auction_in_progress")
    play(engine, Pass(1), Bid(2, amount=1), Pass(1))
    play(engine, StakeClaim(1))  # after the reveal of this turn's card: waits for a later win this turn
    play(engine, EndTurn(None), BeginTurn(None, active=2), StartAuctionStep(None))
    effects = play(engine, Pass(2), Bid(1, amount=1), Pass(2))
    assert not of_type(effects, am.ClaimReturned) and engine.played[1] == [0]
    refused(engine, StakeClaim(2), "missing_card")


def test_a_claim_needs_a_stake_your_claim_card() -> None:
    engine = make([creature("Bear"), creature("Elf")])
    holding(engine, 1, 0)
    play(engine, BeginTurn(None, active=1))
    refused(engine, StakeClaim(1, card="Bear"), "wrong_card")


# ---------------------------------------------------------------------------
# Invariants and replay with the proposed cards in the block
# ---------------------------------------------------------------------------

CARDS_BLOCK = (*BLOCK, IDOL, IDOL, GNOME, GNOME, STAKES, STAKES, FIERY, CLAIM, CLAIM)


def card_action(engine: AuctionEngine, rnd: random.Random) -> Any:
    """Random play, a third of the time one of the proposed cards' actions."""
    if rnd.randrange(3):
        return random_action(engine, rnd)
    someone = rnd.choice(list(engine.players))
    if rnd.random() < 0.5:
        return UseGildedIdol(someone, card=rnd.choice([None, "Gilded Idol", "Bear", 3]))
    return StakeClaim(someone, card=rnd.choice([None, "Blood Claim", 2]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 4), seed=st.integers(0, 2**16))
def test_random_play_with_the_proposed_cards_keeps_cards_and_gold(data: Any, players: int, seed: int) -> None:
    engine = AuctionEngine(AuctionConfig(players=tuple(range(1, players + 1)), cards=CARDS_BLOCK), seed=seed)
    random_run(engine, data.draw(STEPS), card_action)
    assert engine.stakes >= 0 and set(engine.paid) <= {i for p in engine.players for i in engine.pending[p]}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_journal_replay_with_the_proposed_cards_is_deterministic(data: Any, seed: int) -> None:
    engine = AuctionEngine(AuctionConfig(players=(1, 2, 3), cards=CARDS_BLOCK), seed=seed)
    journal_replay(engine, data.draw(STEPS), card_action)


def test_a_buyer_leaving_keeps_nothing_paid_for() -> None:
    engine = make([FIERY, creature("Bear"), creature("Elf")], players=(1, 2, 3))
    started(engine)
    play(engine, Bid(1, amount=5), Pass(2), Pass(3))
    play(engine, Concede(1))
    assert engine.paid == {}
