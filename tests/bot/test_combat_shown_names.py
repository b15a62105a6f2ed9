"""A Combat game names a flip card as the card in Cockatrice does (no server needed): in the player's hand
and draws, in the table's lines, and in the judge's layout.

The engine knows a flip card by both halves ("Akki Lavarunner // Tok-Tok, Volcano Born"); the deck file,
and so the card in the player's library, says "Akki Lavarunner". The private hand list and draw lines use
the latter (the deck check records it: ``DeckVerdict.shown``)."""

from __future__ import annotations

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import board_of, card_places, check_cod, render_effects, table_moves
from cockatrice_ext.bot.combat_table import Place
from cockatrice_ext.bot.combat_view import hand_listing, private_messages
from cockatrice_ext.client.mirror import CardState, PlayerState
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import CardRef
from cockatrice_ext.protocol import messages as pb

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


# -- public lines and the judge's layout (seen: "bob reveals: Akki Lavarunner // Tok-Tok, Volcano Born (1)",
# and a judge's table never took the flip card out of the hand: the layout looked for the engine's name among
# the cards the game mirror names as Cockatrice does) -------------------------------------------------------


def placed_flip(engine: rules.CombatEngine) -> int:
    """alice's flip card (mana value 4: as if summoned, put straight into slot 1; the game is still at setup,
    so the layout has it face down): the index of the card."""
    flip = next(
        i for i, card in enumerate(engine.config.cards) if card.name == FLIP and engine.config.owners[i] == 0
    )
    seat = engine.seats[0]
    for zone in (seat.draw_pile, seat.hand, seat.used):
        if flip in zone:
            zone.remove(flip)
    seat.creatures[0] = flip
    return flip


def test_public_lines_name_a_flip_card_as_on_the_card() -> None:
    engine, names = flip_engine()
    flip = placed_flip(engine)
    shown = lambda name: names.get(name, name)  # noqa: E731
    player = {1: "alice", 2: "bob"}.__getitem__
    first = CardRef(0, engine.config.cards[0].name)
    revealed = [  # both players' reveals, as the setup's end has them
        rules.CreaturesRevealed(2, (None, first, None, None, None)),
        rules.CreaturesRevealed(1, (CardRef(flip, FLIP), None, None, None, None)),
    ]
    assert render_effects(revealed, engine, player, shown) == [
        f"Creatures revealed: bob: {shown(first.name)} (2); alice: {ON_CARD} (1)."
    ]
    left = [rules.CardLeftPlay(1, CardRef(flip, FLIP), "used")]
    assert render_effects(left, engine, player, shown) == [f"{ON_CARD} leaves play to alice's used pile."]
    other = CardRef(0, engine.config.cards[0].name)
    declared = rules.FightDeclared(player=2, slot=0, attacker=other, defender=CardRef(flip, FLIP))
    (line,) = render_effects([declared], engine, player, shown)
    assert f"fights {ON_CARD} in slot 1" in line and "Tok-Tok" not in line, line
    fought = rules.FightResolved(
        2,
        0,
        other,
        CardRef(flip, FLIP),
        dies=(CardRef(flip, FLIP),),
        reason="rules_text",
        reason_cards=(CardRef(flip, FLIP),),
    )
    (line,) = render_effects([fought], engine, player, shown)
    assert f"rules text of alice's {ON_CARD}" in line and f"!dies {ON_CARD})" in line, line
    assert "Tok-Tok" not in line, line


def test_the_judge_lays_out_a_flip_card_by_the_name_cockatrice_gives_it() -> None:
    """The game mirror names the card "Akki Lavarunner" (Cockatrice's card database names a flip card by its
    front face): placed face down in slot 1, the judge moves it there."""
    engine, names = flip_engine()
    flip = placed_flip(engine)
    shown = lambda name: names.get(name, name)  # noqa: E731
    state = PlayerState(player_id=7)
    state.zone("hand").put(CardState(500, name=ON_CARD), -1)
    places = card_places(engine, 1, shown)
    assert (ON_CARD, Place("table", True, 0, 0)) in places
    assert all("Tok-Tok" not in name for name, _ in places)
    ((command,),) = [table_moves(places, state)]
    move = command.Extensions[pb.Command_MoveCard.ext]
    assert move.start_zone == "hand" and move.target_zone == "table" and move.x == 0
    assert [card.card_id for card in move.cards_to_move.card] == [500]
    assert board_of(engine, 1, shown)["face down"] == [ON_CARD]
    assert flip in engine.seats[0].creatures
