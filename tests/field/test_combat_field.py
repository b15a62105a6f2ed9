"""Magic Combat Rules in the field: the face-down setup by hand number, a few turns of combat (the first with
a fight, which waits for the defender's answer when they have a spell face down), then the hidden-card scan
(hands and face-down cards are private until revealed, summoned or cast)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from field_bot import BOT_NAME, JUDGE_PASSWORD, SHIPPED, Referee, judge_server
from field_players import FieldPlayer, Protos
from hidden_cards import Secret, block_names, find_leaks, hand_secrets, private_secrets, turned_up_for_all
from scenario import (
    COMBAT_DECK,
    arrive,
    close_all,
    open_game,
    place_at_setup,
    place_face_down,
    resolve_fight,
    run,
    seat_for_combat,
)
from servatrice import ServatriceFactory

pytestmark = pytest.mark.servatrice

DECK = sorted(block_names(COMBAT_DECK))
REVEALS = re.compile(
    r"reveal(?:s|ed): (.*)|summons (.*) in slot|casts (.*?)(?: on |\.$)|Resolving: (.*)|'s (.*) enters"
    r"|discards (\D.*)\.$|^!discard (.*)"
)
"""Lines that show a card by the rules (a player's own ``!discard CARD`` puts it in a public graveyard)."""


def public_from(readers: list[FieldPlayer]) -> dict[str, float]:
    """When a card was shown by the rules: turned face up, summoned, cast, resolved or discarded."""
    reveals: dict[str, float] = {}
    for reader in readers:
        for item, _, text in reader.chat():
            for match in (m for part in text.split(" | ") for m in REVEALS.finditer(part)):
                shown = " ".join(group for group in match.groups() if group)
                for name in DECK:
                    if name in shown:
                        reveals[name] = min(item.at, reveals.get(name, item.at))
    return reveals


async def discard(player: FieldPlayer, game_id: int, count: int) -> None:
    """Cleanup: discard the last ``count`` cards of the hand the referee lists privately."""
    mark = player.mark()
    await player.say(game_id, "!hand")
    listing = await player.line(r"^Your hand: ", since=mark, kind="Event_UserMessage")
    names = re.findall(r"\d+\. ([^;]+?)(?:;|\.$)", listing)
    for name in names[-count:]:
        await player.say(game_id, f"!discard {name}")
        await player.line(rf"{player.name} discards {re.escape(name)}", since=mark)


async def fight(active: FieldPlayer, defender: FieldPlayer, watcher: FieldPlayer, game_id: int) -> None:
    """The creatures in slot 1 fight: the attacker casts nothing and resolves; a defender with a spell face
    down (set this combat, if any fitted) is asked to answer, and resolves without casting."""
    mark = watcher.mark()
    await active.say(game_id, "!fight 1")
    await watcher.line(
        rf"{active.name}'s .* fights .* in slot 1\. {active.name}: !cast SPELL-SLOT", since=mark
    )
    mark = watcher.mark()
    await resolve_fight(active, defender, watcher, game_id, mark)


@pytest.mark.shared_deck_lists
@pytest.mark.parametrize("account", ["none", "judge"])
def test_combat_setup_and_rounds_hide_hands(
    protos: Protos,
    servatrice_factory: ServatriceFactory,
    referee: Callable[..., Referee],
    request: pytest.FixtureRequest,
    account: str,
) -> None:
    """Two legal decks, a face-down creature each, two turns of combat with face-down spells set where the
    mana value allows; nobody is shown a card of the other's hand or a face-down card before the rules
    reveal it (refusals about hidden cards included). With a judge account the referee also moves every
    card itself (draws into hands, placed and set cards face down onto the table, flips at the reveal),
    and those moves are scanned too."""
    if account == "judge":
        server = judge_server(servatrice_factory, request.getfixturevalue("mariadb"))
        bot = referee(server, "--password", JUDGE_PASSWORD)
    else:
        server = servatrice_factory.start(SHIPPED)
        bot = referee(server)

    async def scenario() -> None:
        names = ["cy_fc", "dee_fc", "eva_fc"] if account == "none" else ["cyril_fc", "deedee_fc", "evan_fc"]
        room_id, everyone = await arrive(protos, server, names)  # SQL mode: names of six or more
        *players, spectator = everyone
        by_name = {p.name: p for p in players}
        watcher = players[0]
        try:
            started = time.monotonic()
            game_id = await open_game(watcher, room_id, "!combat new", "Magic Combat Rules game")
            mark = watcher.mark()
            await seat_for_combat(players, room_id, game_id, mark, ready_again=account == "judge")
            if account == "judge":  # the referee watches from a judge's spectator seat: spectators are let in
                await spectator.watch(room_id, game_id)
            else:  # kept out: a spectator receives both shared deck lists, which name face-down cards by id
                refused = await spectator.room(
                    room_id, "Command_JoinGame", check=False, game_id=game_id, spectator=True
                )
                assert refused.response_code == spectator.pb.Response.RespSpectatorsNotAllowed
            await watcher.line(r"Magic Combat Rules, \d+ rounds", since=mark, timeout=30)
            # One creature if the opening hand has one of mana value 3 or less (setup allows none).
            placed = await place_at_setup(players, game_id)
            for turn in range(2):
                line = await watcher.line(r"Round \d+, \S+'s turn", since=mark, timeout=30)
                active = by_name[re.findall(r"Round \d+, (\S+)'s turn", line)[-1]]
                mark = watcher.mark()
                await active.say(game_id, "!combat")
                await watcher.line(r"Combat: set up to 3 spells", since=mark)
                for player in players:
                    await place_face_down(player, game_id, "!set", "spell slot")
                    await player.say(game_id, "!ready")
                await watcher.line(rf"Fights: {active.name}", since=mark, timeout=20)
                if turn == 0 and all(placed.values()):
                    defender = next(p for p in players if p is not active)
                    await fight(active, defender, watcher, game_id)
                mark = watcher.mark()
                await active.say(game_id, "!pass")
                cleanup = await watcher.line(rf"Cleanup: {active.name} discards \d+|Round \d+, ", since=mark)
                if match := re.search(rf"Cleanup: {active.name} discards (\d+)", cleanup):
                    await discard(active, game_id, int(match.group(1)))
        finally:
            await close_all(everyone)

        said = [
            part
            for item, _, text in watcher.chat()
            if item.kind == "Event_GameSay"
            for part in text.split(" | ")
        ]
        revealed = [part for part in said if re.match(r"Creatures revealed: |\S+ reveals: ", part)]
        assert len(revealed) == 1 and revealed[0].startswith("Creatures revealed: "), revealed  # one line
        reveals = public_from(everyone)  # a reveal line is public from the first reader who got it
        if account == "judge":  # it turns cards up itself at the reveal: the line may wait for the budget
            for name, at in turned_up_for_all(everyone, set(DECK)).items():
                reveals[name] = min(at, reveals.get(name, at))
        secrets = [
            Secret(s.name, s.holders, started, reveals.get(s.name, float("inf")))
            for s in private_secrets(players, BOT_NAME, set(DECK)) + hand_secrets(players, set(DECK))
        ]
        leaks = find_leaks(everyone, secrets)
        assert not leaks, "\n".join(map(str, leaks))

    run(scenario(), bot)
