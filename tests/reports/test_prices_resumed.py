"""A resumed game carries its predecessor's record: its sales are counted once.

Seen in the field: game #2 continued as #3 by ``!resume``; ``stats prices`` said the card was offered twice,
sold twice, in two games.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cli import main
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.journal import Journal, Table
from cockatrice_ext.reports.history import card_sales
from cockatrice_ext.reports.prices import journal_prices

SERVER = "tcp://127.0.0.1:48110"
CREATURE = CardFacts(name="Chimney Imp", mana_value=5, types=("Creature",), power="2", toughness="2")
SPELL = CardFacts(name="Orcish Oriflamme", mana_value=4, types=("Enchantment",))


def play_one_game(journal: Journal, key: str, *, price: int, seed: int) -> None:
    """Player 1 and 2: Orcish Oriflamme unsold, then Chimney Imp sold to player 1 at ``price``."""
    config = rules.AuctionConfig(players=(1, 2), cards=(SPELL, CREATURE, SPELL), shuffle_block=False)
    table = Table.create(journal, key, rules.AuctionEngine(config, seed=seed), meta={"format": "auction"})
    for action in (
        rules.BeginTurn(player=None, active=1),
        rules.StartAuctionStep(player=None),
        rules.Pass(player=1),
        rules.Pass(player=2),
        rules.Bid(player=1, amount=price),
        rules.Pass(player=2),
        rules.Keep(player=1),
    ):
        table.apply(action)


def resumed_twice(path: Path) -> Journal:
    """Game 2 sells Chimney Imp at 3, is resumed as game 3, which is resumed as game 4; game 9 is another
    game, selling it at 5."""
    journal = Journal(path)
    play_one_game(journal, f"{SERVER}:game:2", price=3, seed=1)
    for old, new in ((2, 3), (3, 4)):
        journal.copy_table(f"{SERVER}:game:{old}", f"{SERVER}:game:{new}", meta={"format": "auction"})
        journal.close_table(f"{SERVER}:game:{old}", f"resumed as game {new}")
    play_one_game(journal, f"{SERVER}:game:9", price=5, seed=2)
    return journal


def test_a_sale_before_a_resume_is_counted_once(tmp_path: Path) -> None:
    journal = resumed_twice(tmp_path / "j.sqlite3")
    imp = journal_prices(journal)["Chimney Imp"]
    assert (imp.offered, imp.sold, imp.prices) == (2, 2, [3.0, 5.0])
    assert imp.games == {f"{SERVER}:game:2", f"{SERVER}:game:9"}  # where it was sold
    assert journal_prices(journal)["Orcish Oriflamme"].unsold == 2
    assert [sale.price for sale in card_sales(journal, "Chimney Imp")] == [3.0, 5.0]
    journal.close()


def test_stats_prices_counts_a_resumed_game_once(tmp_path: Path) -> None:
    resumed_twice(tmp_path / "j.sqlite3").close()
    result = CliRunner().invoke(main, ["stats", "prices", "--journal", str(tmp_path / "j.sqlite3"), "--json"])
    assert result.exit_code == 0, result.output
    (imp,) = [row for row in json.loads(result.output) if row["name"] == "Chimney Imp"]
    assert (imp["offered"], imp["sold"], imp["games"]) == (2, 2, 2)
