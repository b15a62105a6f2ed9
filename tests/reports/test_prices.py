"""``stats prices``: per-card prices folded from journaled auction games."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cli import main
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.journal import Journal, Table
from cockatrice_ext.reports.prices import journal_prices

CREATURE = CardFacts(name="Chimney Imp", mana_value=5, types=("Creature",), power="2", toughness="2")
SPELL = CardFacts(name="Orcish Oriflamme", mana_value=4, types=("Enchantment",))


def play_one_game(journal: Journal, key: str, *, price: int, seed: int) -> None:
    """Alice (1) and Bob (2): one unsold lot if the spell comes first, then sales at ``price``."""
    config = rules.AuctionConfig(players=(1, 2), cards=(SPELL, CREATURE, SPELL), shuffle_block=False)
    table = Table.create(journal, key, rules.AuctionEngine(config, seed=seed), meta={"format": "auction"})
    table.apply(rules.BeginTurn(player=None, active=1))
    table.apply(rules.StartAuctionStep(player=None))
    # Lot 1: Orcish Oriflamme, nobody bids -> bottom.
    table.apply(rules.Pass(player=1))
    table.apply(rules.Pass(player=2))
    # Lot 2: Chimney Imp, Alice buys at ``price``.
    table.apply(rules.Bid(player=1, amount=price))
    table.apply(rules.Pass(player=2))
    table.apply(rules.Keep(player=1))


def test_prices_fold_sales_and_unsold_lots(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    play_one_game(journal, "g1", price=3, seed=1)
    play_one_game(journal, "g2", price=5, seed=2)
    prices = journal_prices(journal)
    imp = prices["Chimney Imp"]
    assert imp.prices == [3.0, 5.0] and imp.median == 4 and imp.offered == 2 and len(imp.games) == 2
    oriflamme = prices["Orcish Oriflamme"]
    assert oriflamme.sold == 0 and oriflamme.unsold == 2 and oriflamme.median is None


def test_stats_prices_cli(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    play_one_game(journal, "g1", price=2, seed=1)
    journal.close()
    runner = CliRunner()
    result = runner.invoke(main, ["stats", "prices", "--journal", str(path)])
    assert result.exit_code == 0, result.output
    assert "Chimney Imp" in result.output and "Orcish Oriflamme" in result.output
    result = runner.invoke(main, ["stats", "prices", "--journal", str(path), "--json", "--card", "imp"])
    rows = json.loads(result.output)
    assert [r["name"] for r in rows] == ["Chimney Imp"] and rows[0]["prices"] == [2.0]
    typed = runner.invoke(
        main, ["stats", "prices", "--journal", str(path), "--json", "--card", "\u201cCHIMNEY\u00a0imp\u201d"]
    )
    assert [r["name"] for r in json.loads(typed.output)] == ["Chimney Imp"]  # as a phone types it
    missing = runner.invoke(main, ["stats", "prices", "--journal", str(tmp_path / "none.sqlite3")])
    assert missing.exit_code != 0 and "no journal" in missing.output
