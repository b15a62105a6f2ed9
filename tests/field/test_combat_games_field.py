"""Whole Magic Combat Rules games in the field, at the shipped limits, played as people in the real client
play them: setup by hand number, a fight a turn where both have a creature across, spells set by number
(and once by name, as the write-up's players would: refused privately), typos, a spectator asking
``!score``, cleanups; ten rounds to the end, or a concession. Then what a player would find wrong: a hidden
card named by the referee where another reader could see it, a game that does not end, or ends wrongly."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from field_bot import BOT_NAME, JUDGE_PASSWORD, Referee, judge_server
from field_players import FieldPlayer, Protos
from hidden_cards import Secret, find_leaks, hand_secrets, private_secrets, turned_up_for_all
from scenario import (
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
from test_combat_field import DECK, discard, public_from

pytestmark = pytest.mark.servatrice

ROUNDS = 3
"""A short game (``!combat new rounds=3``): the shipped chat budget makes each turn take about a minute."""
TURN_LINE = re.compile(r"Round (\d+), (\S+)'s turn")


def hand_of(listing: str) -> list[str]:
    """Names of the last ``Your hand: 1. A; 2. B.`` list in a message."""
    found = re.findall(r"Your hand: (\d+\. .*?\D)\.(?: |$)", listing)
    return re.findall(r"\d+\. ([^;]+)(?:; |$)", found[-1]) if found else []


async def own_hand(player: FieldPlayer, game_id: int) -> list[str]:
    mark = player.mark()
    await player.say(game_id, "!hand")
    return hand_of(await player.line(r"Your hand: ", since=mark, kind="Event_UserMessage"))


async def fight_if_both_stand(
    active: FieldPlayer, defender: FieldPlayer, watcher: FieldPlayer, game_id: int
) -> None:
    """:func:`fight` in slot 1 unless a creature there died in an earlier fight (the referee says so)."""
    mark = watcher.mark()
    await active.say(game_id, "!fight 1")
    line = await watcher.line(rf"fights .* in slot 1|{active.name}: ", since=mark)
    if "fights" not in line:
        return
    await resolve_fight(active, defender, watcher, game_id, mark)


@pytest.mark.shared_deck_lists
@pytest.mark.parametrize("ending", ["rounds", "concession"])
def test_whole_combat_games_as_players_play_them(
    protos: Protos,
    servatrice_factory: ServatriceFactory,
    referee: Callable[..., Referee],
    request: pytest.FixtureRequest,
    ending: str,
) -> None:
    server = judge_server(servatrice_factory, request.getfixturevalue("mariadb"))
    bot = referee(server, "--password", JUDGE_PASSWORD)

    async def scenario() -> None:
        names = (
            ["lorenzo_cg", "miranda_cg", "norbert_cg"]
            if ending == "rounds"
            else ["otto_cg", "petra_cg", "quinn_cg"]
        )
        room_id, everyone = await arrive(protos, server, names)
        *players, spectator = everyone
        by_name = {p.name: p for p in players}
        watcher = players[0]
        problems: list[str] = []
        try:
            started = time.monotonic()
            game_id = await open_game(
                watcher, room_id, f"!combat new rounds={ROUNDS}", "Magic Combat Rules game"
            )
            mark = watcher.mark()
            await seat_for_combat(players, room_id, game_id, mark, ready_again=True)
            await spectator.watch(room_id, game_id)
            await watcher.line(r"Magic Combat Rules, \d+ rounds", since=mark, timeout=30)
            placed = await place_at_setup(players, game_id)
            turns = 0
            while True:
                line = await watcher.line(r"Round \d+, \S+'s turn|Game over", since=mark, timeout=60)
                if "Game over" in line and not TURN_LINE.search(line.split("Game over")[-1]):
                    break
                _, name = TURN_LINE.findall(line)[-1]
                active = by_name[name]
                defender = next(p for p in players if p is not active)
                turns += 1
                mark = watcher.mark()
                if turns == 2:  # a typo, and a spectator asking the score
                    await active.say(game_id, "!cmbat")
                    typo = await watcher.line(r"!combat", since=mark)
                    if "did you mean" not in typo.lower() and "!combat" not in typo:
                        problems.append(f"typo answer: {typo}")
                    smark = spectator.mark()
                    await spectator.say(game_id, "!score")
                    score = await spectator.line(r"Round \d+/|Points: ", since=smark)
                    if "Points: " not in score:  # a spectator's answer is its first sentence: the points
                        problems.append(f"spectator score: {score}")
                if ending == "concession" and turns == 4:
                    await defender.game(game_id, "Command_Concede")
                    over = await active.line(r"Game over|game over", since=active.mark(), timeout=30)
                    if defender.name not in over or "conceded" not in over:
                        problems.append(f"concession line: {over}")
                    break
                await active.say(game_id, "!combat")
                await watcher.line(r"Combat: set up to 3 spells", since=mark)
                for player in players:
                    if turns == 3 and player is active:  # by name, as the write-up's players would
                        hand = await own_hand(player, game_id)
                        spell = next((n for n in hand if n not in creature_names()), None)
                        if spell:
                            pmark = player.mark()
                            await player.say(game_id, f"!set {spell} 1")
                            said = await player.line(rf"{player.name}: |places a card face down", since=pmark)
                            if "places a card" not in said and "privately" not in said:
                                problems.append(f"set by name: {said}")
                    if turns <= 2:  # each player's first combat (a slot once used stays taken)
                        await place_face_down(player, game_id, "!set", "spell slot")
                    await player.say(game_id, "!ready")
                await watcher.line(rf"Fights: {active.name}", since=mark, timeout=30)
                if all(placed.values()):
                    await fight_if_both_stand(active, defender, watcher, game_id)
                mark = watcher.mark()
                await active.say(game_id, "!pass")
                end = await watcher.line(
                    rf"Cleanup: {active.name} discards \d+|Round \d+, |Game over", since=mark, timeout=30
                )
                if match := re.search(rf"Cleanup: {active.name} discards (\d+)", end):
                    await discard(active, game_id, int(match.group(1)))
                if turns > 2 * ROUNDS + 2:
                    problems.append(f"more than {2 * ROUNDS} turns")
                    break
            mark = watcher.mark()
            await watcher.say(game_id, "!score")
            final = await watcher.line(r"over|Over", since=mark, timeout=30)
            if ending == "rounds" and not re.search(rf"after round {ROUNDS}", final):
                problems.append(f"final score: {final}")
            if ending == "rounds" and turns != 2 * ROUNDS:
                problems.append(f"{turns} turns played")
        finally:
            await close_all(everyone)
            for reader in (watcher, spectator):  # the transcript, printed when the test fails
                print(f"--- {reader.name} ---")
                for item, who, text in reader.chat():
                    print(f"{item.kind[6:]} {who}: {text}")

        reveals = public_from(everyone)
        for name, at in turned_up_for_all(everyone, set(DECK)).items():
            reveals[name] = min(at, reveals.get(name, at))
        secrets = [
            Secret(s.name, s.holders, started, reveals.get(s.name, float("inf")))
            for s in private_secrets(players, BOT_NAME, set(DECK)) + hand_secrets(players, set(DECK))
        ]
        leaks = [
            leak
            for leak in find_leaks(everyone, secrets)
            if not re.match(r"^!(set|place|discard|cast|summon|hand)\b", leak.text)  # a player's own typing
        ]
        assert not problems and not leaks, "\n".join(problems + [str(leak) for leak in leaks])

    run(scenario(), bot, timeout=900)


def creature_names() -> set[str]:
    """The shipped deck's creatures (its ``## Creatures`` section)."""
    from scenario import COMBAT_DECK

    names, inside = set(), False
    for line in COMBAT_DECK.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line.startswith("## Creatures")
        elif inside and (match := re.match(r"\d+ (.+)$", line.strip())):
            names.add(match.group(1))
    return names
