"""AutoBattler standings: players knocked out in the same mini-game had no tie-break (their order was their
seats' reversed). Ours: fewer poison when knocked out first; the same poison: tied, one shared place. The
record behind it is derived as the actions replay, so journals of running leagues replay unchanged."""

from __future__ import annotations

from cockatrice_ext.formats.autobattler import AutoBattlerEngine, EndDraft
from cockatrice_ext.formats.league import ReportResult, Start
from cockatrice_ext.journal import Journal, Table
from tests.formats.test_autobattler import FOUR, make_engine


def first_knockout(engine: AutoBattlerEngine, extra: dict[str, int] | None = None) -> list[str]:
    """Every loss is lethal (flat 10 poison): the first mini-game's two losers (each match's second player,
    with ``extra`` poison before it) are knocked out together; returned in seat order."""
    engine.apply(Start(None))
    for player in engine.active():
        engine.apply(EndDraft(player))
    losers = sorted((m.players[1] for m in engine.league.current_matches()), key=FOUR.index)
    for player, poison in (extra or {}).items():
        engine.poison[player] = poison
    for match in engine.league.current_matches():
        engine.apply(ReportResult(None, winner=match.players[0]))
    assert sorted(engine.dead) == sorted(losers) and not engine.ghosts
    return losers


def places(engine: AutoBattlerEngine) -> list[tuple[str, int]]:
    return [(row["player"], row["place"]) for row in engine.standings()]


def test_knocked_out_together_with_the_same_poison_is_a_tie() -> None:
    engine = make_engine(flat_poison=10)
    early, late = first_knockout(engine)
    assert places(engine)[2:] == [(late, 3), (early, 3)]  # last eliminated first, one shared place


def test_knocked_out_together_fewer_poison_ranks_higher() -> None:
    _, late = first_knockout(make_engine(flat_poison=10))  # the same seed pairs the same losers again
    engine = make_engine(flat_poison=10)
    early, late = first_knockout(engine, extra={late: 4})
    assert engine.poison[early] == 10 and engine.poison[late] == 14
    assert places(engine)[2:] == [(early, 3), (late, 4)]  # the seats' reversed order said late, then early


def test_knocked_out_later_ranks_higher_whatever_the_poison() -> None:
    engine = make_engine(flat_poison=10)
    first_knockout(engine)
    for player in engine.active():
        engine.apply(EndDraft(player))
    (final,) = engine.league.current_matches()
    winner, loser = final.players
    engine.apply(ReportResult(None, winner=winner))
    assert engine.champion == winner
    rows = engine.standings()
    assert [r["player"] for r in rows[:2]] == [winner, loser] and [r["place"] for r in rows] == [1, 2, 3, 3]


def test_the_tie_break_replays_from_the_journal() -> None:
    journal = Journal(":memory:")
    engine = make_engine(flat_poison=10)
    table = Table.create(journal, "t:league:0:autobattler:1", engine)
    table.apply(Start(None))
    for player in list(engine.active()):
        table.apply(EndDraft(player))
    for match in engine.league.current_matches():
        table.apply(ReportResult(None, winner=match.players[0]))
    restored = Table.restore(journal, table.key).engine
    assert restored.knocked_out == engine.knocked_out and restored.standings() == engine.standings()


def test_dead_set_without_a_record_keep_their_elimination_order_untied() -> None:
    engine = make_engine()
    engine.dead[:] = ["dan", "bob", "cat"]
    engine.champion = "ann"
    assert places(engine) == [("ann", 1), ("cat", 2), ("bob", 3), ("dan", 4)]
