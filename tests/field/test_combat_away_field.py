"""Magic Combat Rules in the field: a registered player's connection drops mid-game, the game changes their
hand while they are away (their turn's draw, their creature bounced back by the other player), and when they
log in again (Servatrice seats them again) they get exactly one hand list, and it is their hand as it is then.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable

import pytest
from field_bot import BOT_NAME, JUDGE_PASSWORD, SHIPPED, Referee
from field_players import FieldPlayer, Protos
from mariadb_server import MariaDB
from scenario import arrive, close_all, open_game, place_at_setup, run, seat_for_combat, to_the_fights
from servatrice import ServatriceFactory

pytestmark = pytest.mark.servatrice

PLAYER_PASSWORD = "field-secret"
HAND_LIST = re.compile(r"Your hand: (\d+\. .*?\D)\.(?: |$)")
"""A hand list's numbered cards (a card name ends in a letter; a number's period is followed by a name)."""
QUIET_SECONDS = 8.0
"""How long the returning player listens after their first hand list for a second one (the shipped chat
budget lets a queued message wait about one 10 s window)."""


def hand_names(listing: str) -> list[str]:
    """The names of a hand list's ``1. A; 2. B``, in order."""
    return re.findall(r"\d+\. ([^;]+)(?:; |$)", listing)


def hand_lists(player: FieldPlayer, since: object = None) -> list[str]:
    """Every hand list the referee told ``player`` privately (a message may hold one after other lines)."""
    return [
        match.group(1)
        for _, text in player.private_from(BOT_NAME, since)  # type: ignore[arg-type]
        for match in HAND_LIST.finditer(text)
    ]


def cockatrice_hand(player: FieldPlayer, game_id: int) -> list[str]:
    """The names in ``player``'s own hand zone as the server last gave the whole game state (a rejoin)."""
    for item in reversed(player.received):
        if item.kind == "Event_GameStateChanged" and item.game_id == game_id and item.body.player_list:
            for seat in item.body.player_list:
                if seat.properties.player_id != player.games[game_id].my_id:
                    continue
                for zone in seat.zone_list:
                    if zone.name == "hand" and len(zone.card_list):
                        return [card.name for card in zone.card_list]
    return []


def creature_of(revealed: str, name: str) -> str:
    """The first creature the setup's reveal line names for ``name`` ("" for none)."""
    part = next(part for part in revealed.split(" | ") if part.startswith("Creatures revealed: "))
    theirs = re.search(rf"{name}: ([^;]*?)(?:;|\.$)", part)
    if theirs is None or theirs.group(1) == "no creatures":
        return ""
    return re.sub(r" \(\d\)$", "", theirs.group(1).split(", ")[0])


async def pass_turn(active: FieldPlayer, other: FieldPlayer, game_id: int) -> None:
    """In the fights: ``!pass``, discard down to seven at cleanup (the first hand numbers), and wait until
    the other player's turn starts."""
    mark = active.mark()
    await active.say(game_id, "!pass")
    done = await active.line(rf"Cleanup: {active.name} discards (\d+)|Round \d+, ", since=mark)
    if match := re.search(rf"Cleanup: {active.name} discards (\d+)", done):
        await active.say(game_id, "!discard " + " ".join(str(n) for n in range(1, int(match[1]) + 1)))
    await active.line(rf"Round \d+, {other.name}'s turn", since=mark, timeout=20)


async def combat_and_pass(active: FieldPlayer, other: FieldPlayer, game_id: int) -> None:
    """A turn with nothing set and no fight: ``!combat``, both ``!ready``, then :func:`pass_turn`."""
    await to_the_fights(active, [other, active], game_id)
    await pass_turn(active, other, game_id)


@pytest.mark.shared_deck_lists
@pytest.mark.parametrize("account", ["judge", "player"])
def test_a_player_back_from_a_dropped_connection_gets_one_true_hand_list(
    protos: Protos,
    servatrice_factory: ServatriceFactory,
    mariadb: MariaDB,
    referee: Callable[..., Referee],
    account: str,
) -> None:
    """SQL auth, every account registered (Servatrice seats only a registered player again). The player who
    is not active drops during the other's fights; the other ends the turn (discarding at cleanup), the
    dropped player's turn starts (they draw three while away) and the other bounces the dropped player's
    creature back to its owner's hand. Back, the player gets one hand list, naming the drawn cards and the
    bounced creature, and it reads as ``!hand`` then does (with judge rights, as their Cockatrice hand)."""
    names = ["harold_ca", "imogen_ca"] if account == "judge" else ["jasper_ca", "kirsten_ca"]
    mariadb.add_user(BOT_NAME, JUDGE_PASSWORD, level="judge" if account == "judge" else "user")
    for name in names:
        mariadb.add_user(name, PLAYER_PASSWORD)
    server = servatrice_factory.start(
        dataclasses.replace(
            SHIPPED, sql_ini=mariadb.servatrice_ini(), env=tuple(mariadb.servatrice_env().items())
        )
    )
    bot = referee(server, "--password", JUDGE_PASSWORD)

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, names, PLAYER_PASSWORD)
        by_name = {p.name: p for p in players}
        watcher = players[0]
        try:
            game_id = await open_game(watcher, room_id, "!combat new", "Magic Combat Rules game")
            mark = watcher.mark()
            await seat_for_combat(players, room_id, game_id, mark, ready_again=account == "judge")
            await watcher.line(r"Magic Combat Rules, \d+ rounds", since=mark, timeout=30)
            await place_at_setup(players, game_id)
            revealed = await watcher.line(r"Creatures revealed: ", since=mark, timeout=30)
            line = await watcher.line(r"Round \d+, \S+'s turn", since=mark, timeout=30)
            active = by_name[re.findall(r"Round \d+, (\S+)'s turn", line)[-1]]
            placed = {p.name: creature_of(revealed, p.name) for p in players}
            if placed[active.name] and not any(placed[p.name] for p in players if p is not active):
                # the creature to bounce is the active player's: their turn first, then the other's
                other = next(p for p in players if p is not active)
                await combat_and_pass(active, other, game_id)
                active = other
            away = next(p for p in players if p is not active)
            creature = placed[away.name]

            mark = await to_the_fights(active, [away, active], game_id)

            away_id = away.games[game_id].my_id
            await away.close()
            await active.wait_for(
                lambda item: (
                    item.kind == "Event_PlayerPropertiesChanged"
                    and item.player_id == away_id
                    and item.body.player_properties.ping_seconds == -1
                ),
                since=mark,
            )
            mark = active.mark()
            await pass_turn(active, away, game_id)
            # both play the shipped deck: the away player's creature is named with its player
            bounced = bool(creature)
            if bounced:  # the other player reports a bounce spell's effect on the away player's creature
                await active.say(game_id, f"!bounce {away.name} {creature}")
                await active.line(rf"{re.escape(creature)} leaves play to {away.name}'s hand", since=mark)
            await asyncio.sleep(2)

            back = await FieldPlayer.connect(protos, server.tcp_port, away.name, PLAYER_PASSWORD)
            players[players.index(away)] = back
            await back.line(r"Your hand: ", kind="Event_UserMessage", timeout=30)
            await asyncio.sleep(QUIET_SECONDS)
            told = hand_lists(back)
            assert len(told) == 1, told  # exactly one hand list on their return
            assert game_id in back.games and back.games[game_id].my_id == away_id  # the same seat

            listed = hand_names(told[0])
            if bounced:
                assert creature in listed, (creature, told)
            drawn = [text for _, text in back.private_from(BOT_NAME) if re.search(r"You draw: ", text)]
            for text in drawn:  # without judge rights the draw is named privately (kept while away)
                for name in re.search(r"You draw: (.*?)\.(?: |$)", text).group(1).split(", "):  # type: ignore[union-attr]
                    assert name in listed, (name, told)
            if account == "judge":  # the referee moved the draw into the hand itself: the hand it shows
                shown = cockatrice_hand(back, game_id)
                assert sorted(shown) == sorted(listed), (told, shown)

            mark = back.mark()
            await back.say(game_id, "!hand")
            now = await back.line(r"Your hand: ", since=mark, kind="Event_UserMessage")
            assert hand_lists(back, mark) == told, (now, told)  # true when it came, and nothing changed
        finally:
            await close_all(players)

    run(scenario(), bot)
