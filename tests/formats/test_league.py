"""The league core: card references, round robin, results by referee or agreement, the ring draft."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.formats.league import (
    Draft,
    League,
    Pick,
    ReportResult,
    resolve_card,
    round_robin_pairings,
)

CARDS = (
    *(CardFacts(name=f"Card {i}", rarity="common") for i in range(30)),
    CardFacts(name="Lightning Bolt", colors=("R",), rarity="common"),
)


def make_league(members: tuple[str, ...] = ("ann", "bob", "cat", "dan")) -> League:
    return League(members, CARDS)


def test_resolve_card_by_index_and_name() -> None:
    assert resolve_card(CARDS, 3, [1, 3]) == 3
    assert resolve_card(CARDS, "  lightning BOLT ", [30, 2]) == 30
    with pytest.raises(RulesError) as err:
        resolve_card(CARDS, 4, [1, 3])
    assert err.value.code == "card_not_found"
    with pytest.raises(RulesError) as err:
        resolve_card(CARDS, 2.5, [1, 3])
    assert err.value.code == "malformed"
    with pytest.raises(RulesError):
        resolve_card(CARDS, True, [1])


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8])
def test_round_robin_meets_everyone_once(count: int) -> None:
    members = [f"p{i}" for i in range(count)]
    rounds = count - 1 if count % 2 == 0 else count
    met: set[frozenset[str]] = set()
    for r in range(rounds):
        pairs = round_robin_pairings(members, r)
        seen = [p for pair in pairs for p in pair]
        assert sorted(seen) == sorted(members)
        for pair in pairs:
            if len(pair) == 2:
                key = frozenset(pair)
                assert key not in met
                met.add(key)
    assert len(met) == count * (count - 1) // 2


def test_player_claims_need_agreement() -> None:
    league = make_league()
    league.start_round([("ann", "bob"), ("cat", "dan")])
    match, effects = league.report(ReportResult("ann", winner="ann"))
    assert not match.decided and len(effects) == 1
    match, _ = league.report(ReportResult("bob", winner="bob"))  # disagreement: not decided
    assert not match.decided
    match, _ = league.report(ReportResult("bob", winner="ann"))
    assert match.decided and match.winner == "ann" and match.loser() == "bob"
    with pytest.raises(RulesError) as err:
        league.report(ReportResult("ann", winner="ann"))
    assert err.value.code == "result_already_recorded"
    assert not league.round_done()
    league.report(ReportResult(None, draw=True, match_of="cat"))
    assert league.round_done()
    assert league.points("ann") == 2 and league.points("cat") == 1 and league.points("bob") == 0
    assert [r["player"] for r in league.standings()][:1] == ["ann"]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (ReportResult("zed", winner="ann"), "not_a_member"),
        (ReportResult("ann", winner="cat"), "not_in_match"),
        (ReportResult("ann"), "malformed"),
        (ReportResult("ann", winner="ann", draw=True), "malformed"),
        (ReportResult(None, draw=True), "not_a_member"),
        (ReportResult(None, winner="ann", match_of="cat"), "no_such_match"),
        (ReportResult(7, winner="ann"), "not_a_member"),
    ],
)
def test_bad_reports_change_nothing(action: ReportResult, code: str) -> None:
    league = make_league()
    league.start_round([("ann", "bob"), ("cat", "dan")])
    before = league.snapshot()
    with pytest.raises(RulesError) as err:
        league.report(action)
    assert err.value.code == code
    assert league.snapshot() == before


def test_concession_can_be_refused_and_byes_win() -> None:
    league = League(("ann", "bob", "cat"), CARDS, allow_concession=False)
    with pytest.raises(RulesError) as err:
        league.report(ReportResult(None, winner="ann"))
    assert err.value.code == "no_round"
    league.start_round(round_robin_pairings(league.members, 0))
    bye = [m for m in league.current_matches() if len(m.players) == 1]
    assert len(bye) == 1 and bye[0].decided
    paired = next(m for m in league.current_matches() if len(m.players) == 2)
    with pytest.raises(RulesError) as err:
        league.report(ReportResult(None, winner=paired.players[0], by_concession=True))
    assert err.value.code == "concession_not_allowed"
    with pytest.raises(RulesError) as err:
        league.report(ReportResult(bye[0].players[0], winner=bye[0].players[0]))
    assert err.value.code == "not_paired"


def test_missing_from_pool_counts_copies() -> None:
    league = make_league()
    league.pools["ann"] = [30, 1]
    problems = league.missing_from_pool(
        "ann", ["Lightning Bolt", "lightning bolt", "Card 1", "Island"], ["Island"]
    )
    assert [(p.code, p.name, p.expected, p.actual) for p in problems] == [
        ("not_in_pool", "Lightning Bolt", 2, 1)
    ]


def test_ring_draft_passes_packs_and_conserves_cards() -> None:
    league = League(("ann", "bob"), CARDS)
    packs = [[[0, 1, 2], [3, 4, 5]], [[6, 7], [8, 9]]]
    draft = Draft("t", league, ("ann", "bob"), packs)
    effects = draft.open_next()
    assert draft.pending("ann") == [0, 1, 2]
    assert len(effects) == 2
    draft.pick(Pick("ann", "card 1"))
    assert league.pools["ann"] == [1]
    assert draft.queues["bob"] == [[3, 4, 5], [0, 2]]
    with pytest.raises(RulesError) as err:
        draft.pick(Pick("ann", 0))
    assert err.value.code == "no_pack"
    with pytest.raises(RulesError) as err:
        draft.pick(Pick("bob", 0))  # not in the pack at the head of bob's queue
    assert err.value.code == "card_not_found"
    draft.pick(Pick("bob", 5))
    draft.pick(Pick("bob", 2))
    assert draft.pending("ann") == [3, 4]
    while not draft.finished:
        for seat in draft.seats:
            pack = draft.pending(seat)
            if pack:
                draft.pick(Pick(seat, pack[0]))
    all_cards = sorted(league.pools["ann"] + league.pools["bob"])
    assert all_cards == list(range(10))
    assert len(league.pools["ann"]) == len(league.pools["bob"]) == 5


@settings(max_examples=40, deadline=None)
@given(
    seats=st.integers(min_value=2, max_value=5),
    pack_size=st.integers(min_value=1, max_value=5),
    rounds=st.integers(min_value=1, max_value=3),
    choices=st.lists(st.integers(min_value=0, max_value=100), min_size=200, max_size=200),
)
def test_draft_random_order_conserves_cards(
    seats: int, pack_size: int, rounds: int, choices: list[int]
) -> None:
    names = tuple(f"s{i}" for i in range(seats))
    cards = tuple(CardFacts(name=f"c{i}") for i in range(seats * pack_size * rounds))
    league = League(names, cards)
    it = iter(range(len(cards)))
    packs = [[[next(it) for _ in range(pack_size)] for _ in names] for _ in range(rounds)]
    draft = Draft("h", league, names, packs)
    draft.open_next()
    steps = 0
    for choice in choices * 3:
        if draft.finished:
            break
        seat = names[choice % seats]
        pack = draft.pending(seat)
        if not pack:
            before = copy.deepcopy((draft.snapshot(), league.snapshot()))
            with pytest.raises(RulesError):
                draft.pick(Pick(seat, 0))
            assert (draft.snapshot(), league.snapshot()) == before
            continue
        draft.pick(Pick(seat, pack[choice % len(pack)]))
        steps += 1
        owned = [c for p in league.pools.values() for c in p]
        assert sorted(owned + draft.cards_held()) == list(range(len(cards)))
    if draft.finished:
        assert all(len(p) == pack_size * rounds for p in league.pools.values())
