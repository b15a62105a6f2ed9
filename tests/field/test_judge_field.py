"""A referee account with the server's judge level (SQL auth, the shipped security settings): Magic Combat
Rules games are created from a judge's spectator seat, which Servatrice's per-user game limit does not
count. The referee takes back a ready given while the game cannot start, puts the round and points on a
Score card on each player's own table, lays each placed creature face down on its owner's table and turns
it face up at the reveal, and after ``kill -9`` watches the same game again and carries on in place.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import pytest
from field_bot import BOT_NAME, JUDGE_PASSWORD, Referee, judge_server
from field_players import FieldPlayer, Protos
from hidden_cards import block_names
from mariadb_server import MariaDB
from scenario import (
    COMBAT_DECK,
    arrive,
    close_all,
    combat_cod,
    deck_cod,
    open_game,
    participant,
    place_face_down,
    run,
)
from servatrice import ServatriceFactory

pytestmark = pytest.mark.servatrice


def own_score_card(player: FieldPlayer, game_id: int) -> tuple[str, str] | None:
    """(number, note) of the "Score" token on ``player``'s own table, as their client built it from the
    events (the referee creates and updates it acting as them)."""
    me = player.games[game_id].my_id
    card_id, number, note = None, "", ""
    for item in player.received:
        if item.game_id != game_id or item.player_id != me:
            continue
        if item.kind == "Event_CreateToken" and item.body.card_name == "Score":
            card_id, number, note = item.body.card_id, item.body.pt, item.body.annotation
        elif item.kind == "Event_SetCardAttr" and item.body.card_id == card_id:
            if item.body.attribute == 5:  # AttrPT
                number = item.body.attr_value
            elif item.body.attribute == 6:  # AttrAnnotation
                note = item.body.attr_value
    return None if card_id is None else (number, note)


def table_of(player: FieldPlayer, game_id: int, seat: int, since: Any) -> list[tuple[str, bool]]:
    """(name, face down) of each card but the score card on ``seat``'s table, as ``player``'s client was
    told from ``since`` (a mark after the game started) on; a face-down card's name is "" unless known."""
    table: dict[int, tuple[str, bool]] = {}
    for item in player.received[since.index :]:
        body = item.body
        if item.game_id != game_id:
            continue
        if item.kind == "Event_MoveCard":
            if body.start_player_id == seat and body.start_zone == "table" and body.target_zone:
                table.pop(body.card_id, None)
            if body.target_player_id == seat and body.target_zone == "table":
                card_id = body.new_card_id if body.new_card_id >= 0 else body.card_id
                table[card_id] = (body.card_name, body.face_down)
        elif item.kind == "Event_FlipCard" and item.player_id == seat and body.card_id in table:
            table[body.card_id] = (body.card_name or table[body.card_id][0], body.face_down)
    return sorted(table.values())


def view_seat(player: FieldPlayer, game_id: int, name: str) -> int:
    return next(pid for pid, seat_name in player.games[game_id].names.items() if seat_name == name)


def ready_taken_back(player: FieldPlayer, game_id: int, since: Any) -> bool:
    """Whether the server told ``player`` that their ready was taken back (a judge acting as them)."""
    me = player.games[game_id].my_id
    return any(
        item.kind == "Event_PlayerPropertiesChanged"
        and item.game_id == game_id
        and item.player_id == me
        and item.body.player_properties.HasField("ready_start")
        and not item.body.player_properties.ready_start
        for item in player.received[since.index :]
    )


@pytest.mark.shared_deck_lists
def test_a_judge_referee_watches_combat_games_beyond_the_game_limit(
    protos: Protos, servatrice_factory: ServatriceFactory, mariadb: MariaDB, referee: Callable[..., Referee]
) -> None:
    """Seven games in a row under a limit of five, all created; in the last one an illegal deck's ready
    is taken back with the reason, and a game started by an illegal deck loaded and readied at once is
    stopped; then both legal decks start it with the bot a judging spectator; the score is on each
    player's own score card, turns follow the rules, and a ``kill -9`` later the bot watches it again."""
    server = judge_server(servatrice_factory, mariadb)
    bot = referee(server, "--password", JUDGE_PASSWORD, "--waiting-games", "7")  # one player asks for 7
    legal = combat_cod()
    short = deck_cod("short", dict.fromkeys(sorted(block_names(COMBAT_DECK))[:39], 1))

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, ["cyril_fj", "deedee_fj"])
        cy, dee = players
        try:
            games = [await open_game(cy, room_id, "!combat new", "Magic Combat Rules game") for _ in range(7)]
            assert len(set(games)) == 7, games
            game_id = games[-1]

            mark_cy, mark_dee = cy.mark(), dee.mark()
            await cy.sit(room_id, game_id, short)  # 39 cards: not legal
            await cy.line(r"^The game cannot start yet: .*40", since=mark_cy, kind="Event_UserMessage")
            await cy.wait_for(lambda _: ready_taken_back(cy, game_id, mark_cy), since=mark_cy)
            referee_seat = participant(cy, game_id, BOT_NAME)
            assert referee_seat is not None and referee_seat.spectator and referee_seat.judge

            await dee.sit(room_id, game_id, legal)
            await dee.line(
                r"^The game starts when both players are ready .* waiting for cyril_fj's legal deck",
                since=mark_dee,
                kind="Event_UserMessage",
            )
            await dee.wait_for(lambda _: ready_taken_back(dee, game_id, mark_dee), since=mark_dee)
            assert not any(
                item.kind == "Event_GameStateChanged" and item.body.game_started
                for item in cy.received[mark_cy.index :]
            ), "the game started with an illegal deck"

            # Both decks legal, deedee ready; cyril swaps in the short deck and readies in the same breath:
            # the server starts the game before the referee hears of the deck, so the referee stops it.
            mark = cy.mark()
            await cy.game(game_id, "Command_DeckSelect", deck=legal)
            await cy.line(r"^cyril_fj: deck legal \(40 cards\)", since=mark)
            await dee.game(game_id, "Command_ReadyStart", ready=True)
            await asyncio.gather(
                cy.game(game_id, "Command_DeckSelect", deck=short),
                cy.game(game_id, "Command_ReadyStart", ready=True),
            )
            await cy.wait_started(game_id, since=mark)
            # (said after "illegal deck", in the same message when both wait for the chat budget together)
            stopped = r"(^| \| )cyril_fj's deck is not legal, but the game started .*press ready again"
            await cy.line(stopped, since=mark)
            await cy.wait_for(
                lambda item: item.kind == "Event_GameStateChanged" and not item.body.game_started, since=mark
            )
            assert not [t for _, _, t in cy.chat(mark) if "Game over" in t or "wins" in t]

            started = {player.name: player.mark() for player in players}
            placed: dict[str, bool] = {}
            await cy.game(game_id, "Command_DeckSelect", deck=legal)
            await cy.line(r"^cyril_fj: deck legal \(40 cards\)", since=started[cy.name])
            await cy.game(game_id, "Command_ReadyStart", ready=True)
            await dee.game(game_id, "Command_ReadyStart", ready=True)
            await cy.wait_started(game_id, since=started[cy.name])
            for player in players:
                told = await player.line(
                    r"^Your opening hand:", since=started[player.name], kind="Event_UserMessage", timeout=30
                )
                assert "It is in your hand." in told, told  # moved there by the judge, acting as them
                await player.wait_for(lambda _, p=player: own_score_card(p, game_id) is not None, timeout=30)
                number, note = own_score_card(player, game_id) or ("", "")
                assert number == "0" and re.fullmatch(
                    r"Setup, then 10 rounds\. Points: \w+ 0, \w+ 0", note
                ), note
                # A dealt hand may hold no creature of mana value 3 or less (about one in twelve): the
                # player then places none, as the rules allow.
                placed[player.name] = await place_face_down(player, game_id, "!place", "creature slot")
                # The judge lays the placed creature on its owner's table, face down, unnamed to the
                # opponent.
                seat = view_seat(player, game_id, player.name)
                opponent = next(p for p in players if p is not player)
                down = [True] * placed[player.name]
                await player.wait_for(
                    lambda _, p=player, s=seat, d=down: (
                        [face_down for _, face_down in table_of(p, game_id, s, started[p.name])] == d
                    )
                )
                await opponent.wait_for(
                    lambda _, o=opponent, s=seat, d=down: (
                        table_of(o, game_id, s, started[o.name]) == [("", True)] * len(d)
                    )
                )
                await player.say(game_id, "!ready")
            line = await cy.line(r"Round 1, \S+'s turn", since=started[cy.name], timeout=30)
            first = next(p for p in players if f"Round 1, {p.name}'s turn" in line)
            for viewer in players:  # revealed: each creature face up, and both clients name it alike
                for owner in players:
                    seat = view_seat(viewer, game_id, owner.name)
                    await viewer.wait_for(
                        lambda _, v=viewer, s=seat, n=placed[owner.name]: (
                            [
                                bool(name) and not down
                                for name, down in table_of(v, game_id, s, started[v.name])
                            ]
                            == [True] * n
                        )
                    )
            assert table_of(cy, game_id, view_seat(cy, game_id, dee.name), started[cy.name]) == table_of(
                dee, game_id, view_seat(dee, game_id, dee.name), started[dee.name]
            )
            view = cy.games[game_id]  # the bot passes Cockatrice's turn to the engine's player for them
            await cy.wait_for(lambda _: view.active == view_seat(cy, game_id, first.name), timeout=10)
            for player in players:
                await player.wait_for(
                    lambda _, p=player: (own_score_card(p, game_id) or ("", ""))[1].startswith("Round 1/10."),
                    timeout=10,
                )

            mark = dee.mark()
            bot.kill9()
            await dee.wait_user(BOT_NAME, present=False)
            bot.start()
            await dee.line(r"^Referee back\. Round", since=mark, timeout=30)
            back = participant(dee, game_id, BOT_NAME)
            assert back is not None and back.spectator and back.judge
            assert not [text for _, _, text in dee.chat(mark) if "!resume" in text]
            await dee.say(game_id, "!score")
            await dee.line(r"Points: (cyril_fj 0, deedee_fj 0|deedee_fj 0, cyril_fj 0)", since=mark)
        finally:
            await close_all(players)

    run(scenario(), bot)
    assert "Traceback" not in bot.log_text()
