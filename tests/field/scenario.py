"""Shared steps of the field scenarios: a table of field players around the bot's game."""

from __future__ import annotations

import asyncio
import contextlib
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


async def seat_for_combat(
    players: list[FieldPlayer], room_id: int, game_id: int, since: Any, *, ready_again: bool
) -> Table:
    """Seat ``players`` in a Combat game with the shipped deck. ``ready_again``: the referee watches from a
    judge's seat and takes back a ready given before both decks were checked, so the players press ready
    again (at most ten times) until the server starts the game (``since``: the mark before the seating)."""
    table = await seat(players, room_id, game_id, deck=combat_cod())
    if ready_again:
        for _ in range(10):
            for player in players:
                await player.game(game_id, "Command_ReadyStart", check=False, ready=True)
            with contextlib.suppress(AssertionError):
                await players[0].wait_started(game_id, since=since, timeout=3)
                break
    return table


async def place_at_setup(players: list[FieldPlayer], game_id: int) -> dict[str, bool]:
    """Combat's setup: each player, once their opening hand has come, places the first creature of their
    hand the referee accepts in slot 1 (:func:`place_face_down`) and says ``!ready``. Returns, by name,
    whether one was placed (the setup allows none)."""
    placed: dict[str, bool] = {}
    for player in players:
        await player.line(r"^Your opening hand: 1\. ", kind="Event_UserMessage")
        placed[player.name] = await place_face_down(player, game_id, "!place", "creature slot")
        await player.say(game_id, "!ready")
    return placed


async def resolve_fight(
    active: FieldPlayer, defender: FieldPlayer, watcher: FieldPlayer, game_id: int, since: Any
) -> None:
    """The declared fight in slot 1 resolves: the attacker says ``!resolve``; a defender asked to answer
    (they have a spell face down) resolves without casting. ``since``: ``watcher``'s mark before the
    ``!resolve`` (or the fight's declaration)."""
    await active.say(game_id, "!resolve")
    asked = rf"{defender.name}: !cast an instant \(SPELL-SLOT\) or !resolve"
    line = await watcher.line(rf"Fight in slot 1 done|{asked}", since=since, timeout=20)
    if re.search(asked, line) and "Fight in slot 1 done" not in line:
        await defender.say(game_id, "!resolve")
        await watcher.line(r"Fight in slot 1 done", since=since, timeout=20)


async def to_the_fights(active: FieldPlayer, readying: list[FieldPlayer], game_id: int) -> Any:
    """``!combat`` by the active player, ``!ready`` from ``readying`` in that order (nothing set), and the
    fights open. Returns ``active``'s mark from before the ``!combat``."""
    mark = active.mark()
    await active.say(game_id, "!combat")
    await active.line(r"Combat: set up to 3 spells", since=mark)
    for player in readying:
        await player.say(game_id, "!ready")
    await active.line(rf"Fights: {active.name}", since=mark, timeout=20)
    return mark
