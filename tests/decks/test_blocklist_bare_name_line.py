"""``Name: X`` before the first card names the list, as ``# Name: X`` does.

Seen as a designer: a list starting ``Name: Odd Spacing Block`` (the ``#`` left out) stopped the export with
"unknown card 'Name: Odd Spacing Block'". No card name holds ``Name:``; after a card the line is still read
as a card line (and refused as an unknown one), so nothing else changes.
"""

from __future__ import annotations

import pytest

from cockatrice_ext.decks.blocklist import parse_block_list


@pytest.mark.parametrize(
    "first", ["Name: Odd Spacing Block", "name = Odd Spacing Block", "NAME:Odd Spacing Block"]
)
def test_a_bare_name_line_names_the_list(first: str) -> None:
    deck = parse_block_list(f"{first}\n4 Lightning Bolt\n")
    assert deck.name == "Odd Spacing Block"
    assert [(entry.count, entry.name) for entry in deck.main] == [(4, "Lightning Bolt")]


def test_a_first_comment_line_then_a_bare_name_line_keeps_the_comment() -> None:
    deck = parse_block_list("// my notes\nName: Crows\n4 Lightning Bolt\n")
    assert deck.name == "Crows" and deck.comments == "my notes"


def test_a_name_line_after_a_card_is_a_card_line() -> None:
    deck = parse_block_list("4 Lightning Bolt\nName: Crows\n")
    assert [entry.name for entry in deck.main] == ["Lightning Bolt", "Name: Crows"]
