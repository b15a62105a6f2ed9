"""A Combat player's hand and draws name a flip card as the card in Cockatrice does (no server needed).

The engine knows a flip card by both halves ("Akki Lavarunner // Tok-Tok, Volcano Born"); the deck file,
and so the card in the player's library, says "Akki Lavarunner". The private hand list and draw lines use
the latter (the deck check records it: ``DeckVerdict.shown``)."""

from __future__ import annotations

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import check_cod, hand_listing, private_messages
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import CardRef

FLIP = "Akki Lavarunner // Tok-Tok, Volcano Born"
ON_CARD = "Akki Lavarunner"


def flip_engine() -> tuple[rules.CombatEngine, dict[str, str]]:
    """A started game of two copies of the bundled deck with a flip card in place of its first card, and
    the names on the cards the deck check recorded."""
    cod = load_block("combat-deck", sections=None).cod
    first = check_cod(cod).facts[0].name  # type: ignore[index]
    verdict = check_cod(cod.replace(f'name="{first}"', f'name="{ON_CARD}"', 1))
    assert verdict.facts is not None, verdict.reason
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (verdict.facts, verdict.facts)), seed=1)
    engine.apply(rules.StartGame(player=None))
    return engine, verdict.shown


def test_the_deck_check_records_the_name_on_the_card() -> None:
    _, shown = flip_engine()
    assert shown == {FLIP: ON_CARD}


def test_the_hand_list_and_a_draw_name_a_flip_card_as_on_the_card() -> None:
    engine, shown = flip_engine()
    flip = next(
        i for i, card in enumerate(engine.config.cards) if card.name == FLIP and engine.config.owners[i] == 0
    )
    seat = engine.seats[0]
    for zone in (seat.draw_pile, seat.hand, seat.used):
        if flip in zone:
            zone.remove(flip)
    seat.hand.append(flip)
    listing = hand_listing(engine, 1, lambda name: shown.get(name, name))
    assert f"{len(seat.hand)}. {ON_CARD}" in listing and "Tok-Tok" not in listing, listing
    assert FLIP in hand_listing(engine, 1)  # without the names on the cards: the engine's

    engine.phase = "play"  # a later draw, not the opening hand
    drawn = rules.CardsDrawn(player=1, cards=(CardRef(flip, FLIP),), visible_to=1)
    messages = private_messages([drawn], engine, shown=lambda name: shown.get(name, name))
    assert messages == [(1, f"You draw: {ON_CARD}.")], messages
