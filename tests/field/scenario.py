"""Shared steps of the field scenarios: a table of field players around the bot's game."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import quoteattr

from field_bot import BOT_NAME, ROOM, Referee
from field_players import EMPTY_DECK, FieldPlayer, Protos
from hidden_cards import block_names
from servatrice import ServatriceServer
from shared_paths import ROOT

COMBAT_DECK = ROOT / "blocks" / "combat-deck.txt"


def run(coroutine: Any, bot: Referee, timeout: float = 240.0) -> Any:
    """Run a scenario; on failure print the end of the bot's log (its side of the story)."""
    try:
        return asyncio.run(asyncio.wait_for(coroutine, timeout))
    except BaseException:
        print(bot.log_text()[-4000:])
        raise


async def arrive(
    protos: Protos, server: ServatriceServer, names: list[str], password: str = ""
) -> tuple[int, list[FieldPlayer]]:
    """Log the players in (registered ones with ``password``), join the bot's room, and wait until the bot
    is there too."""
    players = [await FieldPlayer.connect(protos, server.tcp_port, name, password) for name in names]
    room_id = 0
    for player in players:
        room_id = await player.join_room(ROOM)
    await players[0].wait_member(room_id, BOT_NAME)
    return room_id, players


async def open_game(host: FieldPlayer, room_id: int, command: str, announced: str) -> int:
    """Ask the bot for a game in room chat; returns the game id it announces (``announced #N``)."""
    mark = host.mark()
    await host.room_say(room_id, command)
    line = await host.line(rf"{announced} #\d+", since=mark, timeout=30)
    return int(re.search(rf"{announced} #(\d+)", line).group(1))  # type: ignore[union-attr]


@dataclass
class Table:
    """Players seated in one game, by seat."""

    game_id: int
    seats: dict[int, FieldPlayer]

    @property
    def any(self) -> FieldPlayer:
        return next(iter(self.seats.values()))

    def active(self) -> FieldPlayer:
        return self.seats[self.any.games[self.game_id].active]  # type: ignore[index]

    def others(self, player: FieldPlayer) -> list[FieldPlayer]:
        return [p for p in self.seats.values() if p is not player]

    async def wait_active(self, timeout: float = 30.0) -> FieldPlayer:
        """The human whose turn it is (the bot passes its own turns)."""
        game = self.any.games[self.game_id]
        deadline = asyncio.get_running_loop().time() + timeout
        while game.active not in self.seats:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no player's turn in game {self.game_id} (active: {game.active})")
            await asyncio.sleep(0.05)
        return self.seats[game.active]  # type: ignore[index]


async def seat(players: list[FieldPlayer], room_id: int, game_id: int, deck: str = EMPTY_DECK) -> Table:
    return Table(game_id, {await player.sit(room_id, game_id, deck): player for player in players})


async def place_face_down(player: FieldPlayer, game_id: int, command: str, slot_kind: str) -> bool:
    """``!place N 1`` / ``!set N 1`` with the first hand number the referee accepts (refusals about hidden
    cards come privately, the table reading "NAME: refused"; others, "NAME: that slot is taken", in the
    game); False when none of the seven fits."""
    for number in range(1, 8):
        mark = player.mark()
        await player.say(game_id, f"{command} {number} 1")
        done = rf"{player.name} places a card face down in {slot_kind} 1"
        line = await player.line(rf"{done}|(^| \| ){player.name}: ", since=mark)  # the answer to them
        if "places a card" in line:
            return True
    return False


def participant(player: FieldPlayer, game_id: int, name: str) -> Any:
    """The latest properties the server sent ``player`` about ``name``'s place in a game (None: never
    there): ``spectator``, ``judge``..."""
    found = None
    for item in player.received:
        if item.game_id != game_id:
            continue
        if item.kind == "Event_GameStateChanged":
            for seat in item.body.player_list:
                if seat.properties.user_info.name == name:
                    found = seat.properties
        elif item.kind == "Event_Join" and item.body.player_properties.user_info.name == name:
            found = item.body.player_properties
    return found


async def close_all(players: list[FieldPlayer]) -> None:
    for player in players:
        await player.close()


def deck_cod(name: str, counts: dict[str, int]) -> str:
    """A Cockatrice ``.cod`` whose main deck holds ``counts`` (what the deck editor saves)."""
    cards = "".join(
        f'<card number="{count}" name={quoteattr(card)}/>' for card, count in sorted(counts.items())
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">'
        f'<deckname>{name}</deckname><comments/><zone name="main">{cards}</zone></cockatrice_deck>'
    )


def combat_cod() -> str:
    """The shipped legal Magic Combat Rules deck as a Cockatrice ``.cod``."""
    return deck_cod("combat", dict.fromkeys(block_names(COMBAT_DECK), 1))
