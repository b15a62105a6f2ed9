"""A Vortex game rebuilt by ``!resume`` seats only its players still in the game.

Found in the field (shipped settings, three players, one conceded mid-draft, the referee restarted): the out
player, invited with the others by the room line, sat down first and took a seat the rebuilt game keeps for
a player still in; that player then found the game full and the game never went on.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from cockatrice_ext.bot.vortex import VortexReferee
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import vortex as rules
from cockatrice_ext.protocol import messages as pb

ME = 0


class Seated(VortexReferee):
    me = ME  # type: ignore[assignment]  # our seat, without a server


def rebuilt_referee() -> tuple[VortexReferee, list[tuple[str, str]], list[Any]]:
    """A rebuilt game's referee (game 12 continuing game 5) whose engine has ann and ben in, cat out."""
    cards = tuple(CardFacts(name=f"Card {n}") for n in range(40))
    engine = rules.VortexEngine(rules.VortexConfig(players=(1, 2, 3), cards=cards), seed=1)
    engine.apply(rules.StartGame(player=None))
    engine.apply(rules.RemovePlayer(player=None, target=3, reason="conceded"))
    told: list[tuple[str, str]] = []
    ran: list[Any] = []

    async def tell(name: str, text: str) -> None:
        told.append((name, text))

    async def run(*commands: Any) -> None:
        ran.extend(commands)

    referee = Seated.__new__(Seated)
    referee.__dict__.update(
        table=SimpleNamespace(engine=engine),
        engine_names={1: "ann", 2: "ben", 3: "cat"},
        game_id=12,
        continues=5,
        live=False,
    )
    referee.tell = tell  # type: ignore[method-assign]
    referee.run = run  # type: ignore[method-assign]
    return referee, told, ran


def joined(name: str, player_id: int, *, spectator: bool = False) -> Any:
    props = SimpleNamespace(user_info=SimpleNamespace(name=name), player_id=player_id, spectator=spectator)
    return SimpleNamespace(name="Event_Join", message=SimpleNamespace(player_properties=props))


def kicked(ran: list[Any]) -> list[int]:
    return [c.Extensions[pb.Command_KickFromGame.ext].player_id for c in ran]


def test_a_player_out_of_the_game_is_turned_away_from_its_rebuilt_game() -> None:
    referee, told, ran = rebuilt_referee()
    asyncio.run(referee.turn_away(joined("cat", 4)))
    assert kicked(ran) == [4]
    assert told and told[0][0] == "cat"
    assert "Game #12 continues game #5; you are out of it" in told[0][1], told


def test_players_still_in_spectators_and_the_referee_may_sit() -> None:
    referee, told, ran = rebuilt_referee()
    for event in (joined("ann", 4), joined("ben", 5), joined("cat", 6, spectator=True), joined("x", ME)):
        asyncio.run(referee.turn_away(event))
    assert not ran and not told


def test_a_stranger_is_turned_away_without_being_called_out() -> None:
    referee, told, ran = rebuilt_referee()
    asyncio.run(referee.turn_away(joined("dan", 7)))
    assert kicked(ran) == [7]
    assert "only its players still in can sit" in told[0][1] and "you are out" not in told[0][1]


def test_a_player_out_of_the_game_cannot_continue_it(tmp_path: Any) -> None:
    """Seen in a review: ``!resume`` was taken from any player the journal named, one who had conceded too,
    who then became the rebuilt game's requester. A player still in may continue it; one out is told why;
    anyone else (a friend asking for them) may, as before."""
    from dataclasses import asdict

    from cockatrice_ext.bot.commands import NotAllowed
    from cockatrice_ext.bot.vortex import VortexOptions
    from cockatrice_ext.journal import Journal, Table

    journal = Journal(str(tmp_path / "journal.sqlite3"))
    try:
        cards = tuple(CardFacts(name=f"Card {n}") for n in range(40))
        engine = rules.VortexEngine(rules.VortexConfig(players=(1, 2, 3), cards=cards), seed=1)
        meta = {"options": asdict(VortexOptions(seats=3)), "names": {"1": "ann", "2": "ben", "3": "cat"}}
        table = Table.create(journal, "s:game:5", engine, meta=meta)
        table.apply(rules.StartGame(player=None))
        table.apply(rules.RemovePlayer(player=None, target=3, reason="conceded"))
        bot: Any = SimpleNamespace(journal=journal)
        for asker in ("ann", "dan", ""):
            _, _, replayed, names = VortexReferee.journaled_game(
                bot, "s:game:5", VortexOptions, rules.VortexEngine, asker
            )
            assert names == {1: "ann", 2: "ben", 3: "cat"} and list(replayed.in_game) == [1, 2]
        try:
            VortexReferee.journaled_game(bot, "s:game:5", VortexOptions, rules.VortexEngine, "cat")
        except NotAllowed as exc:
            assert str(exc) == "you are out of that game: only its players still in can continue it"
        else:
            raise AssertionError("cat, out of the game, was let continue it")
    finally:
        journal.close()
