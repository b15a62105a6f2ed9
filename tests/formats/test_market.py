"""Market Draft engine: setup counts, pack making, the initial draft, rounds, the market and invariants."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import COLORS, CardFacts
from cockatrice_ext.formats.base import Action, RulesError
from cockatrice_ext.formats.league import BYE_RESULTS, Pick, ReportResult, StandIn, Start
from cockatrice_ext.formats.market import (
    Buy,
    MarketConfig,
    MarketDraftEngine,
    Pass,
    color_class,
    pack_tier,
    required_counts,
    shortfall,
)
from cockatrice_ext.journal import Journal, Table

PLAYERS = ("ann", "bob", "cat", "dan")


def balanced_cards(n: int, r: int, extra: int = 0) -> tuple[CardFacts, ...]:
    """A pool with exactly the color mix the packs need (plus ``extra`` commons)."""
    cards: list[CardFacts] = []

    def add(count: int, rarity: str, colors: tuple[str, ...]) -> None:
        for _ in range(count):
            cards.append(CardFacts(name=f"{rarity[0]}{len(cards)}", colors=colors, rarity=rarity))

    for color in COLORS:
        add(6 * n + r * n, "common", (color,))
        add(r, "uncommon", (color,))
    add(6 * n + 2 * r * n + extra, "common", ())
    add(9 * n + r * n, "common", ("W", "U"))
    add(2 * r, "uncommon", ())
    add(r, "uncommon", ("B", "R"))
    add(3 * r, "rare", ("G",))
    add(2 * r, "mythic", ("R", "G"))
    return tuple(cards)


def make_engine(n: int = 4, r: int = 3, seed: int = 7, **options: object) -> MarketDraftEngine:
    config = MarketConfig(players=PLAYERS[:n], rounds=r, cards=balanced_cards(n, r, extra=5), **options)  # type: ignore[arg-type]
    return MarketDraftEngine(config, seed=seed)


def all_cards_once(engine: MarketDraftEngine) -> bool:
    everything = [c for cards in engine.locations().values() for c in cards]
    return sorted(everything) == list(range(len(engine.config.cards)))


def finish_draft(engine: MarketDraftEngine) -> None:
    while engine.phase == "draft":
        for seat in engine.config.players:
            pack = engine.draft.pending(seat)
            if pack:
                engine.apply(Pick(seat, pack[0]))


def refused(engine: MarketDraftEngine, action: Action, code: str) -> None:
    before = copy.deepcopy(engine.snapshot())
    with pytest.raises(RulesError) as err:
        engine.apply(action)
    assert err.value.code == code
    assert engine.snapshot() == before


# -- setup ---------------------------------------------------------------------------


def test_required_counts_follow_the_seed() -> None:
    assert required_counts(4, 5) == {"common": 45 * 4 + 8 * 5 * 4, "uncommon": 40, "rare": 25}


def test_shortfall_names_each_rarity() -> None:
    cards = balanced_cards(2, 2)
    short = tuple(c for c in cards if c.rarity != "mythic")[:-3]
    missing = shortfall(short, 2, 2)
    assert missing == {"rare": {"needed": 10, "have": 6}} or "rare" in missing
    with pytest.raises(RulesError) as err:
        MarketDraftEngine(MarketConfig(players=("a", "b"), rounds=2, cards=short), seed=1)
    assert err.value.code == "not_enough_cards"
    assert err.value.details["shortfall"]["rare"]["needed"] == 10
    assert isinstance(err.value, ValueError)


def test_packs_are_color_balanced() -> None:
    engine = make_engine()
    cards = engine.config.cards
    starters = [pack for packs in engine.draft.unopened for pack in packs]
    assert len(starters) == 3 * 4
    for pack in starters:
        classes = Counter(color_class(cards[c]) for c in pack)
        assert len(pack) == 15
        assert all(classes[c] == 2 for c in COLORS)
        assert classes["C"] == 2 and classes["M"] == 3
        assert {cards[c].rarity for c in pack} == {"common"}
    for pack in [p for packs in engine.boosters.values() for p in packs] + engine.uncommon_packs:
        classes = Counter(color_class(cards[c]) for c in pack)
        assert len(pack) == 8 and all(classes[c] == 1 for c in COLORS)
        assert classes["C"] + classes["M"] == 3
    for pack in engine.rare_packs:
        assert len(pack) == 5 and {cards[c].rarity for c in pack} <= {"rare", "mythic"}
    assert len(engine.boosters["ann"]) == 3 and len(engine.uncommon_packs) == 3
    assert all_cards_once(engine)


def test_unbalanced_pool_still_makes_full_packs() -> None:
    cards = tuple(CardFacts(name=f"x{i}", colors=("G",), rarity="common") for i in range(45 * 2 + 8 * 2))
    cards += tuple(CardFacts(name=f"u{i}", rarity="uncommon") for i in range(8))
    cards += tuple(CardFacts(name=f"r{i}", rarity="rare") for i in range(5))
    engine = MarketDraftEngine(MarketConfig(players=("a", "b"), rounds=1, cards=cards), seed=3)
    assert all(len(p) == 15 for packs in engine.draft.unopened for p in packs)
    engine2 = MarketDraftEngine(
        MarketConfig(players=("a", "b"), rounds=1, cards=cards, color_balanced=False), seed=3
    )
    assert all(len(p) == 8 for p in engine2.uncommon_packs)


def test_same_seed_same_packs() -> None:
    assert make_engine(seed=5).snapshot() == make_engine(seed=5).snapshot()
    assert make_engine(seed=5).snapshot() != make_engine(seed=6).snapshot()


# -- initial draft ---------------------------------------------------------------------


def test_start_then_draft_three_starters_each() -> None:
    engine = make_engine()
    refused(engine, Pick("ann", 0), "wrong_phase")
    refused(engine, Start("ann"), "referee_only")
    effects = engine.apply(Start(None))
    assert len(effects) == 4 and engine.phase == "draft"
    pack = engine.draft.pending("ann")
    name = engine.config.cards[pack[3]].name
    engine.apply(Pick("ann", name))
    assert engine.pool("ann") == [pack[3]]
    assert engine.draft.queues["bob"][-1] == [c for c in pack if c != pack[3]]
    refused(engine, Pick("zed", 0), "not_a_member")
    refused(engine, Pick("ann", 0), "no_pack")
    refused(engine, Pick("bob", 10**6), "card_not_found")
    finish_draft(engine)
    assert engine.phase == "play"
    assert all(len(engine.pool(p)) == 45 for p in PLAYERS)
    assert engine.league.round == 1 and len(engine.league.current_matches()) == 2
    assert all_cards_once(engine)


def test_check_deck_needs_forty_from_the_pool_plus_basics() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    finish_draft(engine)
    pool_names = [engine.config.cards[c].name for c in engine.pool("ann")]
    assert engine.check_deck("ann", pool_names[:23] + ["Forest"] * 17) == []
    problems = engine.check_deck("ann", pool_names[:20])
    assert [(p.code, p.expected, p.actual) for p in problems] == [("deck_too_small", 40, 20)]
    other = engine.config.cards[engine.pool("bob")[0]].name
    problems = engine.check_deck("ann", [*pool_names[:39], other])
    assert [(p.code, p.name) for p in problems] == [("not_in_pool", other)]
    with pytest.raises(RulesError):
        engine.check_deck("zed", [])


# -- rounds and market -----------------------------------------------------------------


def to_market(engine: MarketDraftEngine, winners: dict[str, str] | None = None) -> None:
    """Report results for the current round (first-listed player wins unless ``winners`` says)."""
    for match in engine.league.current_matches():
        if match.decided:
            continue
        winner = (winners or {}).get(match.players[0], match.players[0])
        if winner == "draw":
            engine.apply(ReportResult(None, draw=True, match_of=match.players[0]))
        else:
            engine.apply(ReportResult(None, winner=winner))


def test_results_deal_boosters_and_open_market_losers_first() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    finish_draft(engine)
    refused(engine, Pass("ann"), "wrong_phase")
    matches = engine.league.current_matches()
    first, second = matches
    engine.apply(ReportResult(first.players[0], winner=first.players[0]))
    assert engine.phase == "play"
    engine.apply(ReportResult(first.players[1], winner=first.players[0]))
    effects = engine.apply(ReportResult(None, draw=True, match_of=second.players[0]))
    assert engine.phase == "market"
    assert all(len(engine.pool(p)) == 53 for p in PLAYERS)
    assert len(engine.market) == 13  # 8 uncommons + 5 rares, no old rares yet
    assert engine.order[0] == first.players[1]  # the loser
    assert set(engine.order[1:3]) == set(second.players)  # draws
    assert engine.order[3] == first.players[0]  # the winner
    assert type(effects[-1]).__name__ == "MarketTurn"
    assert all_cards_once(engine)


@pytest.mark.parametrize(("limit", "size"), [(0, 18), (3, 16), (1, 14)])
def test_the_old_rare_market_can_be_capped_for_the_16_card_market(limit: int, size: int) -> None:
    """Definitions: "Market (16 cards)"; with every rare left over the market grows to 18. A cap on the old
    rare market (chosen at random from the rares left) holds it at the write-up's 16."""
    engine = make_engine(old_rare_limit=limit)
    engine.apply(Start(None))
    finish_draft(engine)
    to_market(engine)
    rares = [c for c in engine.market if pack_tier(engine.config.cards[c]) == "rare"]
    assert len(engine.market) == 13
    while engine.phase == "market":
        engine.apply(Pass(engine.whose_turn()))
    assert set(engine.old_rares) <= set(rares) and len(engine.old_rares) == (limit or 5)
    assert all_cards_once(engine)
    to_market(engine)
    assert len(engine.market) == size


@pytest.mark.parametrize(("bye", "points"), [("win", 2), ("draw", 1), ("loss", 0)])
def test_what_a_bye_is_worth_is_an_option(bye: str, points: int) -> None:
    """The write-up is silent on byes (odd player counts): a win by default, or a draw or a loss, for the
    standings and for the buying order (losers, then draws, then winners)."""
    engine = make_engine(n=3, bye_result=bye)
    engine.apply(Start(None))
    finish_draft(engine)
    (resting,) = [m.players[0] for m in engine.league.current_matches() if len(m.players) == 1]
    (game,) = [m for m in engine.league.current_matches() if len(m.players) == 2]
    to_market(engine)
    assert engine.league.points(resting) == points
    place = engine.order.index
    if bye == "win":
        assert place(game.loser()) < place(resting)
    elif bye == "draw":
        assert place(game.loser()) < place(resting) < place(game.winner)
    else:
        assert place(resting) < place(game.winner)
    with pytest.raises(RulesError) as bad:
        make_engine(n=3, bye_result="nap")
    assert bad.value.code == "bad_config"


def market_open() -> tuple[MarketDraftEngine, str, int]:
    """A league at its first market: the engine, who buys first and the first uncommon on offer."""
    engine = make_engine()
    engine.apply(Start(None))
    finish_draft(engine)
    to_market(engine)
    buyer = engine.whose_turn()
    assert buyer is not None
    uncommon = next(c for c in engine.market if engine.config.cards[c].rarity == "uncommon")
    return engine, buyer, uncommon


def test_an_overpaying_trade_in_names_the_cards_it_does_not_need() -> None:
    """For the warning before an overpaying trade-in: which paid cards could stay while the rest pays."""
    engine, buyer, uncommon = market_open()
    cards = engine.config.cards
    colors = set(cards[uncommon].colors)
    commons = [
        c for c in engine.pool(buyer) if cards[c].rarity == "common" and not colors & set(cards[c].colors)
    ]
    commons = commons[:12]  # worth 1 each toward this uncommon (no shared colour)
    assert len(commons) == 12 and engine.cost(uncommon) == 10
    assert engine.unneeded(Buy(buyer, uncommon, tuple(commons[:10]))) == ()
    assert engine.unneeded(Buy(buyer, uncommon, tuple(commons))) == tuple(commons)
    assert engine.unneeded(Buy(buyer, uncommon, tuple(commons[:3]))) == ()  # refused anyway: not enough
    assert engine.unneeded(Buy(buyer, "No Such Card", tuple(commons))) == ()
    before = engine.snapshot()
    engine.unneeded(Buy(buyer, uncommon, tuple(commons)))
    assert engine.snapshot() == before


def test_buying_pays_with_worth_and_color_bonus() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    finish_draft(engine)
    to_market(engine)
    cards = engine.config.cards
    buyer = engine.whose_turn()
    assert buyer is not None
    refused(engine, Pass(next(p for p in PLAYERS if p != buyer)), "not_your_turn")
    rare = next(c for c in engine.market if cards[c].rarity == "rare")  # green
    greens = [c for c in engine.pool(buyer) if cards[c].colors == ("G",)]
    plain = [c for c in engine.pool(buyer) if "G" not in cards[c].colors]
    assert engine.worth(greens[0], rare) == 2 and engine.worth(plain[0], rare) == 1
    pay = [*greens[:5], *plain[:10]]  # 5 * 2 + 10 * 1 = 20
    refused(engine, Buy(buyer, rare, tuple(pay[:-1])), "not_enough_worth")  # 19
    foreign = engine.pool(next(p for p in PLAYERS if p != buyer))[0]
    refused(engine, Buy(buyer, rare, (foreign, *pay[:-1])), "card_not_found")  # not the buyer's card
    refused(engine, Buy(buyer, 10**6, tuple(pay)), "not_in_market")
    refused(engine, Buy(buyer, rare, (pay[0], pay[0], *pay[2:])), "card_not_found")  # same card twice
    refused(engine, Buy(buyer, rare, [*pay]), "malformed")  # type: ignore[arg-type]
    effects = engine.apply(Buy(buyer, rare, tuple(pay)))
    assert (effects[0].worth, effects[0].cost) == (20, 20)  # type: ignore[attr-defined]
    assert rare in engine.pool(buyer) and not set(pay) & set(engine.pool(buyer))
    assert set(pay) <= set(engine.discard) and rare not in engine.market
    assert engine.whose_turn() == engine.order[1]
    assert all_cards_once(engine)


def test_buy_by_names() -> None:
    engine, buyer, uncommon = market_open()
    cards = engine.config.cards
    commons = [cards[c].name for c in engine.pool(buyer) if cards[c].rarity == "common"][:10]
    engine.apply(Buy(buyer, cards[uncommon].name.upper(), tuple(commons)))
    assert uncommon in engine.pool(buyer)


def test_market_closes_after_everyone_passes_in_a_row() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    finish_draft(engine)
    to_market(engine)
    cards = engine.config.cards
    rares = [c for c in engine.market if cards[c].rarity in ("rare", "mythic")]
    for _ in range(3):
        engine.apply(Pass(engine.whose_turn()))
    buyer = engine.whose_turn()
    assert buyer is not None
    uncommon = next(c for c in engine.market if cards[c].rarity == "uncommon")
    commons = [c for c in engine.pool(buyer) if cards[c].rarity == "common"][:10]
    engine.apply(Buy(buyer, uncommon, tuple(commons)))  # resets the passes
    for _ in range(3):
        engine.apply(Pass(engine.whose_turn()))
    assert engine.phase == "market"
    effects = engine.apply(Pass(engine.whose_turn()))
    assert engine.phase == "play" and engine.league.round == 2
    assert sorted(engine.old_rares) == sorted(rares)
    closed = next(e for e in effects if type(e).__name__ == "MarketClosed")
    assert all(cards[c].rarity == "uncommon" for c in closed.discarded)
    # second market: the old rares are there, and get discarded at the end
    to_market(engine)
    assert set(rares) <= set(engine.market) and len(engine.market) == 18
    for _ in range(4):
        engine.apply(Pass(engine.whose_turn()))
    assert set(rares) <= set(engine.discard)
    assert all_cards_once(engine)


def test_league_ends_after_last_round_with_scores() -> None:
    engine = make_engine(n=2, r=2)
    engine.apply(Start(None))
    finish_draft(engine)
    to_market(engine, {"ann": "ann", "bob": "ann"})
    while engine.phase == "market":
        engine.apply(Pass(engine.whose_turn()))
    to_market(engine, {"ann": "draw", "bob": "draw"})
    assert engine.is_over()
    standings = engine.league.standings()
    assert [(r["player"], r["points"]) for r in standings] == [("ann", 3), ("bob", 1)]
    refused(engine, Pass("ann"), "wrong_phase")
    assert all_cards_once(engine)


def test_variant_costs_and_mythic_worth() -> None:
    engine = make_engine(rare_cost=15, mythic_cost=25, mythic_worth=20, uncommon_cost=6)
    cards = engine.config.cards
    mythic = next(i for i, c in enumerate(cards) if c.rarity == "mythic")
    rare = next(i for i, c in enumerate(cards) if c.rarity == "rare")
    uncommon = next(i for i, c in enumerate(cards) if c.rarity == "uncommon")
    assert engine.cost(mythic) == 25 and engine.cost(rare) == 15 and engine.cost(uncommon) == 6
    assert engine.worth(mythic, rare) == 20 + 4  # shares green


# -- random play ----------------------------------------------------------------------


def random_action(engine: MarketDraftEngine, rnd: random.Random) -> Action:
    """A plausible action, legal most of the time."""
    players = list(engine.config.players)
    if rnd.random() < 0.1:  # noise
        return rnd.choice(
            [
                Pick(rnd.choice([*players, "zed"]), rnd.randrange(-2, len(engine.config.cards) + 2)),
                Buy(rnd.choice(players), rnd.randrange(len(engine.config.cards)), (0, 1)),
                Pass(rnd.choice(players)),
                ReportResult(rnd.choice(players), winner=rnd.choice(players)),
                Start(None),
            ]
        )
    if engine.phase == "setup":
        return Start(None)
    if engine.phase == "draft":
        seat = rnd.choice([s for s in players if engine.draft.pending(s)])
        if rnd.random() < 0.1:  # the referee picks for an away drafter
            return StandIn(None, target=seat)
        return Pick(seat, rnd.choice(engine.draft.pending(seat)))
    if engine.phase == "play":
        match = rnd.choice([m for m in engine.league.current_matches() if not m.decided])
        if rnd.random() < 0.2:
            return ReportResult(None, draw=True, match_of=match.players[0])
        return ReportResult(None, winner=rnd.choice(match.players))
    buyer = engine.whose_turn()
    assert buyer is not None
    if engine.market and rnd.random() < 0.5:
        card = rnd.choice(engine.market)
        pool = engine.pool(buyer)
        rnd.shuffle(pool)
        pay: list[int] = []
        while pool and sum(engine.worth(p, card) for p in pay) < engine.cost(card):
            pay.append(pool.pop())
        return Buy(buyer, card, tuple(pay))
    return StandIn(None, target=buyer) if rnd.random() < 0.1 else Pass(buyer)


def play_randomly(engine: MarketDraftEngine, seed: int, steps: int, apply: object = None) -> int:
    rnd = random.Random(seed)
    accepted = 0
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
        accepted += 1
        assert all_cards_once(engine)
    return accepted


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    bye=st.sampled_from(BYE_RESULTS),
    old_rares=st.sampled_from([0, 1, 3]),
)
def test_random_play_keeps_cards_conserved(seed: int, players: int, bye: str, old_rares: int) -> None:
    engine = make_engine(n=players, r=2, seed=seed, bye_result=bye, old_rare_limit=old_rares)
    play_randomly(engine, seed, 600)
    for player in engine.config.players:
        assert len(set(engine.pool(player))) == len(engine.pool(player))
    assert len(engine.old_rares) <= (old_rares or 5)
    standings = engine.league.standings()  # points always follow the records, byes included
    assert all(r["points"] == 2 * r["wins"] + r["draws"] for r in standings)


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 400),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(PLAYERS),
    st.lists(st.one_of(st.integers(-2, 400), st.text(max_size=5), st.none()), max_size=12).map(tuple),
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=100, deadline=None)
@given(
    kind=st.sampled_from(MarketDraftEngine.action_types),
    values=st.lists(JUNK, min_size=4, max_size=4),
    warmup=st.integers(0, 250),
)
def test_malformed_actions_are_refused_cleanly(kind: type[Action], values: list[object], warmup: int) -> None:
    engine = make_engine(n=2, r=1, seed=warmup)
    play_randomly(engine, warmup, warmup)
    fields = [f.name for f in kind.__dataclass_fields__.values()]
    action = kind(**dict(zip(fields, values, strict=False)))
    before = copy.deepcopy(engine.snapshot())
    try:
        engine.apply(action)
    except RulesError:
        assert engine.snapshot() == before
    else:
        assert all_cards_once(engine)


def test_full_random_league_finishes() -> None:
    engine = make_engine(n=4, r=3, seed=11)
    play_randomly(engine, 11, 5000)
    assert engine.is_over()
    assert (
        sum(r["points"] for r in engine.league.standings()) == 2 * 2 * 3
    )  # 2 points per match, 2 x 3 matches


def test_journal_round_trip() -> None:
    journal = Journal(":memory:")
    engine = make_engine(n=3, r=2, seed=21)
    table = Table.create(journal, "market-1", engine)
    play_randomly(engine, 21, 700, apply=table.apply)
    restored = journal.restore("market-1")
    assert restored.snapshot() == engine.snapshot()
    assert json.loads(json.dumps(engine.snapshot())) == engine.snapshot()
