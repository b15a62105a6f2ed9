"""Games the account is seated in again after a restart that nothing in the journal claims.

Seen in the field: restarted with another spelling of the server's address (``ws://localhost:P2/servatrice``
for ``tcp://127.0.0.1:P``), or from another folder without ``--journal`` (a new journal), the referee closed
the running games it was seated in and kicked their players ("This game is over and closes now"): it took a
game no journal table claimed for a finished one. Such a game is now left as it is, with a warning naming it;
only a game the journal knows is over is closed.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from journal_toys import CounterConfig, CounterEngine

from cockatrice_ext.bot.league import CLOSED_AFTER_RESTART, leave_unclaimed_games
from cockatrice_ext.client.mirror import GameMirror, PlayerState
from cockatrice_ext.journal import Journal, Table

URL = "ws://localhost:48981/servatrice"
PLAYED_WITH = "tcp://127.0.0.1:48980"


@dataclass
class FakeChat:
    said: list[tuple[Any, str]] = field(default_factory=list)

    def say(self, destination: Any, text: str) -> None:
        self.said.append((destination, text))

    async def flush(self, destination: Any, timeout: float) -> None:
        return None

    def drop(self, destination: Any) -> None:
        return None


@dataclass
class FakeClient:
    games: dict[int, GameMirror]
    commands: list[tuple[int, list[Any]]] = field(default_factory=list)
    left: list[int] = field(default_factory=list)

    async def game_commands(self, game_id: int, commands: list[Any]) -> None:
        self.commands.append((game_id, commands))

    async def leave_game(self, game_id: int) -> None:
        self.left.append(game_id)
        self.games.pop(game_id)


class FakeBot:
    """What :func:`leave_unclaimed_games` reads of a bot: its journal, server key, games and chat."""

    GAME_KEY = ":game:"

    def __init__(self, journal: Journal, games: dict[int, GameMirror]) -> None:
        self.journal = journal
        self.server_key = URL
        self.client = FakeClient(games)
        self.chat = FakeChat()

    def all_games(self) -> dict[int, Any]:
        return {}


def hosted_game(game_id: int) -> GameMirror:
    """A game the referee hosts (player 0) with two players in it."""
    players = {0: PlayerState(0, "RefereeBot"), 1: PlayerState(1, "alice"), 2: PlayerState(2, "bob")}
    return GameMirror(
        game_id, room_id=1, local_player_id=0, host_id=0, description="Auction", players=players
    )


def journal_with_game(path: Path, key: str, *, closed: bool = False) -> Journal:
    journal = Journal(path)
    Table.create(journal, key, CounterEngine(CounterConfig(), seed=1))
    if closed:
        journal.close_table(key, "game over")
    return journal


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_a_game_of_another_server_address_is_left_as_it_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The journal holds game 4 open under the address it was played with; this run's address is another
    spelling: the game is left without a word to its players or a kick, and the log says so."""
    journal = journal_with_game(tmp_path / "journal.sqlite3", f"{PLAYED_WITH}:game:4")
    bot = FakeBot(journal, {4: hosted_game(4)})
    with caplog.at_level(logging.INFO):
        asyncio.run(leave_unclaimed_games(bot))  # type: ignore[arg-type]
    assert bot.client.left == [4]
    assert bot.client.commands == [] and bot.chat.said == []  # nobody kicked, nothing said
    (warning,) = [w for w in warnings_of(caplog) if "game 4" in w]
    assert "without closing it" in warning and URL in warning
    journal.close()


def test_a_new_journal_while_seated_in_games_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Started from another folder without --journal: the journal is new; the warning names its absolute
    path."""
    path = tmp_path / "elsewhere" / "cockatrice-ext.sqlite3"
    path.parent.mkdir()
    journal = Journal(path)
    assert getattr(journal, "new", False), "a journal this process created is not known as new"
    bot = FakeBot(journal, {7: hosted_game(7), 9: hosted_game(9)})
    with caplog.at_level(logging.INFO):
        asyncio.run(leave_unclaimed_games(bot))  # type: ignore[arg-type]
    assert bot.client.commands == [] and bot.chat.said == []
    (named,) = [w for w in warnings_of(caplog) if "is new" in w]
    assert str(path.absolute()) in named and "#7, #9" in named
    journal.close()
    assert not Journal(path).new  # opened again: not new any more


def test_a_game_whose_own_table_is_closed_is_still_closed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The journal says game 5 of this server is over (it lingered as host): it is closed as before."""
    journal = journal_with_game(tmp_path / "journal.sqlite3", f"{URL}:game:5", closed=True)
    bot = FakeBot(journal, {5: hosted_game(5)})
    with caplog.at_level(logging.INFO):
        asyncio.run(leave_unclaimed_games(bot))  # type: ignore[arg-type]
    assert bot.chat.said == [(("game", 5), CLOSED_AFTER_RESTART)]
    ((game_id, kicks),) = bot.client.commands
    assert game_id == 5 and len(kicks) == 2
    assert bot.client.left == [5]
    assert not [w for w in warnings_of(caplog) if "game 5" in w]
    journal.close()


def test_a_played_out_league_game_the_league_lists_as_over_is_closed(tmp_path: Path) -> None:
    """A league game whose result is in lingers with the referee as its host; its league's record lists it
    as over, so a restart closes it (it would count against the account's games on the server)."""
    journal = Journal(tmp_path / "journal.sqlite3")
    key = f"{URL}:league:1:market:2"
    Table.create(journal, key, CounterEngine(CounterConfig(), seed=1), meta={"kind": "league", "over": [6]})
    bot = FakeBot(journal, {6: hosted_game(6), 8: hosted_game(8)})
    asyncio.run(leave_unclaimed_games(bot))  # type: ignore[arg-type]
    assert bot.chat.said == [(("game", 6), CLOSED_AFTER_RESTART)]
    assert [game_id for game_id, _kicks in bot.client.commands] == [6]
    assert sorted(bot.client.left) == [6, 8]
    journal.close()
