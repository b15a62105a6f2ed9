"""A player knocked out takes no more poison: the Ghost, who plays on, lost a mini-game and went from 10 to
15 poison (a draw too), though poison is what the living fight over. The rule is in every new league's
config (``dead_take_no_poison``); a league journaled before it replays as it was played."""

from __future__ import annotations

import json

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.autobattler import (
    AutoBattlerConfig,
    AutoBattlerEngine,
    EndDraft,
    PoisonChanged,
)
from cockatrice_ext.formats.base import Effect
from cockatrice_ext.formats.league import ReportResult, Start
from cockatrice_ext.journal import Journal, Table

FOUR = ("ann", "bob", "cid", "dee")
CUBE = tuple(CardFacts(name=f"Cube Card {i}", colors=("WUBRG"[i % 5],)) for i in range(260))


def league(*, rule: bool) -> tuple[AutoBattlerEngine, Table, Journal]:
    """A four-player league journaled from its start, five poison a loss (two losses knock out)."""
    config = AutoBattlerConfig(players=FOUR, cards=CUBE, flat_poison=5, dead_take_no_poison=rule)
    engine = AutoBattlerEngine(config, seed=11)
    journal = Journal(":memory:")
    table = Table.create(journal, "auto:1", engine)
    table.apply(Start(None))
    return engine, table, journal


def draft_over(engine: AutoBattlerEngine, table: Table) -> None:
    for player in engine.active():
        if player not in engine.done:
            table.apply(EndDraft(player))


def mini_game(engine: AutoBattlerEngine, table: Table, *, ann: str = "loses") -> list[Effect]:
    """One mini-game: ann loses (or draws) hers; in the other match the one with less poison loses, so
    that nobody but ann is knocked out."""
    draft_over(engine, table)
    effects: list[Effect] = []
    for match in engine.league.current_matches():
        if match.decided or len(match.players) != 2:
            continue
        a, b = match.players
        if "ann" in match.players and ann == "draws":
            effects += table.apply(ReportResult(None, draw=True, match_of="ann"))
            continue
        loser = "ann" if "ann" in match.players else min((a, b), key=lambda p: (engine.poison[p], p))
        effects += table.apply(ReportResult(None, winner=b if loser == a else a))
    return effects


def ghost_of_ann(engine: AutoBattlerEngine, table: Table) -> None:
    mini_game(engine, table)
    mini_game(engine, table)
    assert engine.dead == ["ann"] and engine.ghosts == {0: "ann"}, (engine.dead, engine.poison)
    assert engine.poison["ann"] == 10 and "ann" in engine.active()


def poison_given(effects: list[Effect]) -> dict[str, int]:
    return {e.player: e.delta for e in effects if isinstance(e, PoisonChanged)}


def test_the_ghost_takes_no_poison_for_a_loss_or_a_draw() -> None:
    engine, table, journal = league(rule=True)
    ghost_of_ann(engine, table)
    effects = mini_game(engine, table)  # the Ghost loses
    assert "ann" not in poison_given(effects) and engine.poison["ann"] == 10
    effects = mini_game(engine, table, ann="draws")  # a draw is a loss for both: for the living one
    opponent = engine.last_opponent["ann"]
    assert poison_given(effects).get(opponent) == 5 and "ann" not in poison_given(effects), effects
    assert engine.poison["ann"] == 10
    assert next(r for r in engine.standings() if r["player"] == "ann")["poison"] == 10
    assert journal.restore("auto:1").snapshot() == engine.snapshot()


def test_a_league_journaled_before_the_rule_replays_as_it_was_played() -> None:
    """Its config has no ``dead_take_no_poison``: the Ghost's loss added poison then, and does on replay."""
    assert AutoBattlerConfig().dead_take_no_poison is False
    engine, table, journal = league(rule=False)
    ghost_of_ann(engine, table)
    effects = mini_game(engine, table)
    assert poison_given(effects)["ann"] == 5 and engine.poison["ann"] == 15  # as the old code played it
    database = journal._db
    (stored,) = database.execute("SELECT config FROM tables WHERE key='auto:1'").fetchone()
    config = json.loads(stored)
    assert config.pop("dead_take_no_poison") is False
    database.execute("UPDATE tables SET config=? WHERE key='auto:1'", (json.dumps(config),))
    restored = journal.restore("auto:1")  # each action checked against its recorded effects
    assert restored.snapshot() == engine.snapshot() and restored.poison["ann"] == 15
    assert restored.config.dead_take_no_poison is False


def test_a_league_with_the_rule_keeps_it_through_the_journal() -> None:
    engine, table, journal = league(rule=True)
    ghost_of_ann(engine, table)
    mini_game(engine, table)
    restored = journal.restore("auto:1")
    assert restored.config.dead_take_no_poison is True
    assert restored.snapshot() == engine.snapshot() and restored.poison["ann"] == 10
