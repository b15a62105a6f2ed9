"""Un-card names typed without their quote marks (``Ach! Hans, Run!`` for ``"Ach! Hans, Run!"``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cards.errors import UnknownCard
from cockatrice_ext.cards.model import Card, CardDatabase, Face
from cockatrice_ext.cards.resolve import NameIndex
from cockatrice_ext.cli import main


def _db(*names: str) -> CardDatabase:
    db = CardDatabase()
    for name in names:
        db.add(Card(name=name, faces=(Face(name=name),)))
    return db


def test_a_name_matches_its_card_once_surrounding_quote_marks_are_ignored() -> None:
    index = NameIndex(_db('"Ach! Hans, Run!"', "Lightning Bolt"))
    assert index.find("Ach! Hans, Run!") is index.db.cards['"Ach! Hans, Run!"']
    assert index.find("ach! hans, run!") is index.db.cards['"Ach! Hans, Run!"']
    assert index.find("\u201cAch! Hans, Run!\u201d") is index.db.cards['"Ach! Hans, Run!"']
    assert index.find('"Lightning Bolt"') is index.db.cards["Lightning Bolt"]
    assert index.find("Ach Hans Run") is None


def test_a_suggestion_that_differs_only_by_quote_marks_shows_it() -> None:
    said = UnknownCard(name="Ach! Hans, Run!", line=1, suggestions=('"Ach! Hans, Run!"',)).describe()
    assert '"Ach! Hans, Run!" (with its quote marks)' in said


def test_the_built_in_cards_resolve_an_unquoted_un_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    block = tmp_path / "un.txt"
    block.write_text("1 Ach! Hans, Run!\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "text", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert '1 "Ach! Hans, Run!"' in result.output
