"""Which card a player gives back counts as the referee's, by server id (no server: the moves as events).

A card is the referee's when it dealt it (its id followed as it moves: a new id when it changes hands or goes
face down), never because of its name: a token named like a bought card was taken for it (security test).
After a restart the referee cannot see the hands: a card from a hand passes unless it is a token made since.
"""

from __future__ import annotations

from pathlib import Path

from test_typed_names_auction import ALICE, GAME, REFEREE, ZOE, block_of, referee_for

from cockatrice_ext.client import ClientEvent
from cockatrice_ext.protocol.pb import game_events_pb2


def moved(
    seat: int,
    card_id: int,
    new_id: int,
    *,
    zone: str = "table",
    to: int = REFEREE,
    target_zone: str = "table",
) -> ClientEvent:
    message = game_events_pb2.Event_MoveCard(
        card_id=card_id,
        card_name="Thrummingbird",
        start_player_id=seat,
        start_zone=zone,
        target_player_id=to,
        target_zone=target_zone,
        new_card_id=new_id,
    )
    return ClientEvent(kind="game", message=message, game_id=GAME, player_id=seat)


def made(seat: int, card_id: int) -> ClientEvent:
    message = game_events_pb2.Event_CreateToken(zone_name="table", card_id=card_id, card_name="Thrummingbird")
    return ClientEvent(kind="game", message=message, game_id=GAME, player_id=seat)


def test_a_dealt_card_is_followed_by_id_and_nothing_else_counts(tmp_path: Path) -> None:
    referee = referee_for(block_of(tmp_path, "1 Thrummingbird\n1 Shock\n"))
    referee.dealt, referee.made, referee.unseen_hands = {}, {}, set()
    referee.note_dealt(ALICE, 40)
    assert not referee.dealt_card(moved(ALICE, 41, 9))  # another card of alice's (a token, her own deck)
    assert not referee.dealt_card(moved(ZOE, 40, 9))  # zoë_fx's card 40 is another card
    referee.follow_move(moved(ALICE, 40, 40, to=ALICE, target_zone="hand"))  # into her hand: same id
    referee.follow_move(moved(ALICE, 40, 12, zone="hand", to=ZOE))  # onto zoë_fx's table: a new id
    assert not referee.dealt_card(moved(ALICE, 40, 9, zone="hand"))
    assert referee.dealt_card(moved(ZOE, 12, 9))


def test_after_a_restart_a_hand_card_passes_but_a_token_made_since_does_not(tmp_path: Path) -> None:
    referee = referee_for(block_of(tmp_path, "1 Thrummingbird\n1 Shock\n"))
    referee.dealt, referee.made, referee.unseen_hands = {}, {}, {ALICE}
    assert referee.dealt_card(moved(ALICE, 7, 20, zone="hand"))  # a hand card the referee could not see
    assert not referee.dealt_card(moved(ALICE, 8, 21))  # from her table: its id was seen, and not dealt
    referee.made.setdefault(ALICE, set()).add(made(ALICE, 30).message.card_id)
    referee.follow_move(moved(ALICE, 30, 30, to=ALICE, target_zone="hand"))  # a token kept, then given
    assert not referee.dealt_card(moved(ALICE, 30, 22, zone="hand"))
