"""``stats chart prices CARD`` reads CARD as chat reads a card name, over the cards the journal's auctions
offered: any case, a phone's ``’``, no accents, a unique start; several cards or a typo are said."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cli import main
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.journal import Journal, Table
from cockatrice_ext.reports.history import card_sales
from cockatrice_ext.reports.journal_charts import NoChart

SOLD = ("Lightning Bolt", "Lightning Blast", "Jötun Grunt", "Lim-Dûl's Vault", "Chimney Imp")


def sell_all(journal: Journal, key: str, names: tuple[str, ...] = SOLD) -> None:
    """One Auction game in which each card of ``names`` is a lot the bidder to act buys for 1 gold."""
    cards = tuple(CardFacts(name=name, mana_value=1, types=("Instant",)) for name in names)
    config = rules.AuctionConfig(players=(1, 2), cards=cards, shuffle_block=False)
    table = Table.create(journal, key, rules.AuctionEngine(config, seed=1), meta={"format": "auction"})
    engine: rules.AuctionEngine = table.engine  # type: ignore[assignment]
    table.apply(rules.BeginTurn(player=None, active=1))
    table.apply(rules.StartAuctionStep(player=None))
    for _ in names:
        lot = engine.current_lot()
        assert lot is not None
        table.apply(rules.Bid(engine.whose_bid(), amount=1))
        while (now := engine.current_lot()) is not None and now["lot_no"] == lot["lot_no"]:
            table.apply(rules.Pass(engine.whose_bid()))
        for player in engine.players:
            if engine.pending_choice(player):
                table.apply(rules.Keep(player))


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    journal = Journal(tmp_path / "j.sqlite3")
    sell_all(journal, "g1")
    return journal


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("Jotun Grunt", "Jötun Grunt"),  # no accent
        ("lim-dul\u2019s vault", "Lim-Dûl's Vault"),  # a phone's apostrophe, no accent
        ("chimney", "Chimney Imp"),  # a unique start
        ("\u201cLightning Bolt\u201d", "Lightning Bolt"),  # quote marks
        ("Lightning Bolt", "Lightning Bolt"),  # whole, though "Lightning" starts two
    ],
)
def test_a_card_is_named_as_chat_names_it(journal: Journal, typed: str, card: str) -> None:
    assert [sale.price for sale in card_sales(journal, typed)] == [1.0]
    assert card_sales(journal, typed) == card_sales(journal, card)


def test_a_start_of_two_cards_names_both(journal: Journal) -> None:
    with pytest.raises(NoChart) as info:
        card_sales(journal, "lightning")
    assert (
        str(info.value)
        == "'lightning' could be 'Lightning Bolt' or 'Lightning Blast', each offered at auction"
    )


def test_a_typo_is_offered_the_card_and_an_unknown_name_has_no_sales(journal: Journal) -> None:
    with pytest.raises(NoChart, match="did you mean 'Chimney Imp'"):
        card_sales(journal, "Chimny Imp")
    assert card_sales(journal, "Counterspell") == []


def test_stats_chart_prices_names_the_card_or_the_candidates(journal: Journal, tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal.close()
    out = tmp_path / "grunt.svg"
    args = ["stats", "chart", "prices", "--journal", str(path), "-o", str(out)]
    result = CliRunner().invoke(main, [*args, "jotun grunt"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"<?xml")
    result = CliRunner().invoke(main, [*args, "Lightning"])
    assert result.exit_code != 0
    assert "could be 'Lightning Bolt' or 'Lightning Blast'" in result.stderr
