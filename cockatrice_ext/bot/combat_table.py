"""Where Magic Combat Rules cards lie on a Cockatrice table, and the judge's moves that put them there.

The engine's places (:func:`card_places`: creatures and face-down spells under their slot's column,
permanents beside the score card, used cards in the graveyard) become game commands run as each player by a
judge (:func:`table_moves`, auras and equipment attached: :func:`attach_moves`), judged from the game mirror;
without judge rights a player is told what to take from their library (:func:`board_instructions`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from cockatrice_ext.bot.board import GRID_POINTS_PER_CARD
from cockatrice_ext.bot.combat_view import same_name
from cockatrice_ext.client.mirror import CardState, PlayerState
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.protocol import commands as pc


@dataclass(frozen=True)
class Place:
    """Where a card lies in Cockatrice: its zone (``hand``, ``table`` or ``grave``) and, on the table,
    its face and grid point."""

    zone: str
    face_down: bool = False
    x: int = 0
    y: int = 0


HAND_END = -1
"""A move's x that puts the card at the right end of the hand, where the engine adds it to its list."""


CREATURE_ROW, SPELL_ROW, PERMANENT_ROW = 0, 1, 2
"""Table rows: creatures and face-down spells under their slot's column (slot 1 leftmost); other
permanents and spells being cast in the third row, beside the score card."""


def card_places(
    engine: rules.CombatEngine, player: Any, shown: Callable[[str], str] = same_name
) -> list[tuple[str, Place]]:
    """(name, place) of each of ``player``'s cards that left their library, where the engine says it is;
    creatures are face down until the setup's reveal, spells in slots until cast. Named by ``shown``: the
    name the card has in Cockatrice, which the game mirror reads (a flip card by its front face)."""
    index = engine.config.players.index(player)
    seat = engine.seats[index]

    def name(card: int) -> str:
        return shown(engine.config.cards[card].name)

    def row(cards: Iterable[int | None], y: int, face_down: bool, first: int = 0) -> list[tuple[str, Place]]:
        return [
            (name(card), Place("table", face_down, GRID_POINTS_PER_CARD * column, y))
            for column, card in enumerate(cards, start=first)
            if card is not None
        ]

    permanents = [
        card
        for card in (
            seat.enchantment,
            seat.equipment,
            *(aura for aura, _, _ in seat.auras),
            *(card for owner, card, _, _ in engine.stack if owner == index),
        )
        if card is not None
    ]
    return [
        *((name(card), Place("hand")) for card in seat.hand),
        *row(seat.creatures, CREATURE_ROW, engine.phase == "setup"),
        *row(seat.spells, SPELL_ROW, True),
        *row(permanents, PERMANENT_ROW, False, first=1),
        *((name(card), Place("grave")) for card in seat.used),
    ]


def board_of(
    engine: rules.CombatEngine, player: Any, shown: Callable[[str], str] = same_name
) -> dict[str, list[str]]:
    """Where ``player``'s cards are, by Cockatrice zone: ``hand``, ``table`` (face up), ``face down``
    (spells in their slots, and creatures before the reveal), ``grave`` (the used pile); named by
    ``shown``."""
    board: dict[str, list[str]] = {"hand": [], "table": [], "face down": [], "grave": []}
    for name, place in card_places(engine, player, shown):
        board["face down" if place.face_down else place.zone].append(name)
    return board


def table_moves(places: Iterable[tuple[str, Place]], player: PlayerState) -> list[Any]:
    """The game commands that, run as ``player`` (by a judge), put their cards where ``places`` says,
    judged from what the game mirror shows of their hand, table and graveyard: a move into the right zone
    (face down where the place is), or a flip. Cards still in the library and cards whose name the mirror
    does not know are left alone: draws come from the library separately, and a card nobody can name
    cannot be told apart."""
    seen: dict[str, list[tuple[str, CardState]]] = {}
    for zone in ("hand", "table", "grave"):
        found = player.zones.get(zone)
        for card in found.cards if found is not None else []:
            if card.name:
                seen.setdefault(card.name, []).append((zone, card))
    leaving: list[Any] = []  # sent first, so that a card taking a slot never lands on the one it replaces
    arriving: list[Any] = []
    for name, place in places:
        copies = seen.get(name)
        if not copies:
            continue
        zone, card = next((copy for copy in copies if copy[0] == place.zone), copies[0])
        copies.remove((zone, card))
        on_table = place.zone == "table"
        if zone != place.zone:
            (arriving if on_table else leaving).append(
                pc.move_card(
                    zone,
                    [card.id],
                    target_player_id=player.player_id,
                    target_zone=place.zone,
                    x=place.x if on_table else HAND_END if place.zone == "hand" else 0,
                    y=place.y if on_table else 0,
                    face_down=place.face_down if on_table else None,
                )
            )
        elif on_table and card.face_down != place.face_down:
            arriving.append(pc.flip_card("table", card.id, face_down=place.face_down))
    return leaving + arriving


def attachments(
    engine: rules.CombatEngine, shown: Callable[[str], str] = same_name
) -> list[tuple[Any, str, Any, int]]:
    """(owner, card name, holder, slot): each aura on the creature it enchants (either player's) and each
    equipment on the creature it equips, as the engine has them; named by ``shown``."""
    players, cards = engine.config.players, engine.config.cards
    found = []
    for index, seat in enumerate(engine.seats):
        for aura, enchanted, slot in seat.auras:
            found.append((players[index], shown(cards[aura].name), players[enchanted], slot))
        if seat.equipment is not None and seat.equipped_slot is not None:
            equipment = shown(cards[seat.equipment].name)
            found.append((players[index], equipment, players[index], seat.equipped_slot))
    return found


def attach_moves(
    wanted: Iterable[tuple[Any, str, Any, int]], tables: dict[Any, PlayerState]
) -> dict[int, list[Any]]:
    """The ``Command_AttachCard`` each owner's seat must run (as a judge acting as them) so that every
    aura and equipment lies attached to its creature in the real client, judged from the game mirror:
    the creature is the face-up card under its slot's column in the holder's first row. A card already
    attached where it belongs is left alone; one the mirror cannot find (not laid out yet) waits for the
    next layout."""
    targets: list[tuple[PlayerState, str, tuple[int, str, int]]] = []
    for owner, name, holder, slot in wanted:
        mine, theirs = tables.get(owner), tables.get(holder)
        if mine is None or theirs is None:
            continue
        creature = next(
            (
                card
                for card in theirs.zone("table").cards
                if card.y == CREATURE_ROW and card.x == GRID_POINTS_PER_CARD * slot and not card.face_down
            ),
            None,
        )
        if creature is not None:
            targets.append((mine, name, (theirs.player_id, "table", creature.id)))

    def cards_named(mine: PlayerState, name: str) -> list[CardState]:
        table = mine.zone("table").cards
        return [
            c for c in table if c.name == name and not c.face_down and (mine.player_id, c.id) not in taken
        ]

    taken: set[tuple[int, int]] = set()  # (player, card id): each player numbers their own cards
    waiting = []
    for mine, name, target in targets:  # first the attachments already in place: they stay
        named = cards_named(mine, name)
        there = [c for c in named if (c.attach_player_id, c.attach_zone, c.attach_card_id) == target]
        if there:
            taken.add((mine.player_id, there[0].id))
        else:
            waiting.append((mine, name, target))
    commands: dict[int, list[Any]] = {}
    for mine, name, (player_id, zone, card_id) in waiting:  # then a free card (unattached ones first)
        free = sorted(cards_named(mine, name), key=lambda c: c.attach_card_id >= 0)
        if free:
            taken.add((mine.player_id, free[0].id))
            commands.setdefault(mine.player_id, []).append(
                pc.attach_card(
                    "table", free[0].id, target_player_id=player_id, target_zone=zone, target_card_id=card_id
                )
            )
    return commands


def board_instructions(board: dict[str, list[str]]) -> str:
    """What a player without a judge's help takes from their library, and where it goes."""
    places = {
        "hand": "into your hand",
        "table": "onto the battlefield",
        "face down": "face down onto the battlefield",
        "grave": "into your graveyard",
    }
    parts = [f"{places[zone]}: {', '.join(cards)}" for zone, cards in board.items() if cards]
    return "From your library put " + "; ".join(parts) + "." if parts else "Your library holds every card."
