"""The runtime's start and restart paths: a game whose record no longer replays (no server needed), and a
command said while the bot starts."""

from __future__ import annotations

import asyncio
import dataclasses
import tempfile
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from hypothesis import given, settings
from hypothesis import strategies as st
from servatrice import ServatriceServer

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.commands import command
from cockatrice_ext.bot.referee import Context, Referee
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import FloodLimits, Reconnected
from cockatrice_ext.journal import Journal, open_database
from cockatrice_ext.web.demo import demo_bot, seat_game

GAME, ROOM = 12, 1


async def vortex_games(
    journal: Path, *game_ids: int
) -> tuple[Bot, list[VortexReferee], list[tuple[Any, str]]]:
    """A bot without a server refereeing a started Vortex game for each of ``game_ids``, and the list its
    chat goes to from now on (what it said so far is left out)."""
    chat: list[tuple[Any, str]] = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    bot = demo_bot(journal, send)
    pool = load_block("vortex-pool", sections=None)
    referees = []
    for game_id in game_ids:
        seat_game(bot, game_id, ["alice", "bob"])
        referee = VortexReferee(bot, game_id, ROOM, VortexOptions(seed=5), pool)
        bot.adopt_game(referee)
        await referee.start_engine()
        referees.append(referee)
    await bot.chat.flush(timeout=5)
    chat.clear()
    return bot, referees, chat


def test_a_reseated_game_whose_record_no_longer_replays_is_announced_and_the_bot_goes_on(
    tmp_path: Path,
) -> None:
    """A registered account is re-seated after a restart; if the game's journal replays differently under
    this version's rules, the room is told and the bot carries on (the error used to stop the bot)."""

    async def run() -> list[tuple[Any, str]]:
        journal_path = tmp_path / "journal.sqlite3"
        bot, (referee,), chat = await vortex_games(journal_path, GAME)
        bot.forget_game(GAME)  # as after a restart: the journal is all that is left
        database = open_database(str(journal_path))
        database.execute("UPDATE actions SET effects='[]' WHERE table_key=? AND seq=1", (referee.table_key,))
        database.close()
        await bot.resume_game(GAME, ROOM)
        await bot.chat.flush(timeout=5)
        assert GAME not in bot.games
        return chat

    chat = asyncio.run(run())
    ((destination, line),) = chat
    assert destination == ("room", ROOM)
    assert line.startswith(f"game #{GAME}'s record cannot be replayed (")
    assert "action 1" in line and "replays differently" in line
    assert line.endswith("it is kept, and nothing was changed")


def test_a_command_that_hits_a_fault_of_the_referee_is_still_answered() -> None:
    """A fault in a command's code (a bug, not a refusal) used to leave the player without a word: only the
    bot's log knew. The player is told; the operator's log has the traceback."""

    class Faulty(Referee):
        @command(scopes=("room",))
        async def boom(self, ctx: Context) -> None:
            """Fails."""
            raise RuntimeError("a fault")

    async def run() -> list[str]:
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
        said: list[str] = []

        async def collect(text: str) -> None:
            said.append(text)

        handled = await Faulty(bot).handle_command(
            Context(bot, "room", "alice", room_id=1, reply_hook=collect), "!boom"
        )
        assert handled
        return said

    assert asyncio.run(run()) == [
        "alice: that did not go through (a fault of the referee's own, written to its log); nothing changed"
    ]


def test_a_reseated_game_whose_resumption_fails_is_announced_and_the_bot_goes_on(tmp_path: Path) -> None:
    """A fault while resuming a game (here its record lacks the options an older version did not write)
    used to stop the bot's start, and so every restart after it: the room is told and the bot goes on."""

    async def run() -> list[tuple[Any, str]]:
        bot, (referee,), chat = await vortex_games(tmp_path / "journal.sqlite3", GAME)
        bot.forget_game(GAME)
        meta = bot.journal.table_meta(referee.table_key)
        del meta["options"]
        bot.journal.set_table_meta(referee.table_key, meta)
        await bot.resume_game(GAME, ROOM)
        await bot.chat.flush(timeout=5)
        assert GAME not in bot.games
        return chat

    chat = asyncio.run(run())
    assert chat == [
        (
            ("room", ROOM),
            f"The referee could not take up game #{GAME} again (a fault of its own, written to its log); its"
            " record is kept, and nothing was changed.",
        )
    ]


def test_after_a_reconnect_one_lost_games_fault_does_not_keep_the_others_unannounced(tmp_path: Path) -> None:
    """Back from a lost connection without two of its seats: the first game's handling fails (it used to
    end the whole reconnect handling, so the second was never announced and kept games never re-read)."""

    async def run() -> list[tuple[Any, str]]:
        bot, referees, chat = await vortex_games(tmp_path / "journal.sqlite3", GAME, GAME + 1)

        async def broken(**_: Any) -> None:
            raise RuntimeError("a fault in one game")

        referees[0].on_seat_lost = broken  # type: ignore[method-assign]
        for game_id in (GAME, GAME + 1):
            bot.client.games.pop(game_id)  # as the client does with the games it reports lost
        await bot.on_event(Reconnected(1, bot.client.user_name, (ROOM,), (), (GAME, GAME + 1)))
        await bot.chat.flush(timeout=5)
        assert not bot.games
        return chat

    chat = asyncio.run(run())
    ((destination, line),) = chat
    assert destination == ("room", ROOM)
    assert f"game #{GAME + 1}" in line and f"!resume {GAME + 1}" in line


def test_a_game_lost_before_it_started_is_announced_without_a_resume(tmp_path: Path) -> None:
    """Its players never all sat (no record to continue): the room hears the game is gone and to ask for a
    new one (the lost-game line used to read a record that does not exist and fail)."""

    async def run() -> list[tuple[Any, str]]:
        chat: list[tuple[Any, str]] = []

        async def send(destination: Any, message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(tmp_path / "journal.sqlite3", send)
        seat_game(bot, GAME, ["alice"])
        pool = load_block("vortex-pool", sections=None)
        bot.adopt_game(VortexReferee(bot, GAME, ROOM, VortexOptions(seed=5), pool))
        bot.client.games.pop(GAME)  # as the client does with a game it reports lost
        await bot.on_event(Reconnected(1, bot.client.user_name, (ROOM,), (), (GAME,)))
        await bot.chat.flush(timeout=5)
        assert not bot.games
        return chat

    ((destination, line),) = asyncio.run(run())
    assert destination == ("room", ROOM)
    assert f"game #{GAME}" in line and "!resume" not in line
    assert "before the game started (its connection dropped, or it or the server restarted)" in line


def combat_bot(servatrice: ServatriceServer, user: str, folder: Path) -> BotOptions:
    """A Combat referee in the test server's bot room, its journal in ``folder``."""
    return BotOptions(
        url=servatrice.ws_url,
        user=user,
        rooms=("Bot room",),
        journal_path=folder / "journal.sqlite3",
        formats=("combat",),
        client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited()},
    )


def test_a_command_said_while_the_bot_starts_is_answered_once_it_has(
    servatrice: ServatriceServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot joins its rooms before it installs its formats and restores its tables; a room command
    said in between (a player who saw it arrive) used to be dropped without a word. It is held and
    answered once the bot has started."""
    from cockatrice_ext.bot import combat

    async def run() -> str:
        alice = await Player.connect(servatrice.ws_url, "alice_st")
        room_id = await alice.client.room_id_by_name("Bot room")
        await alice.client.join_room(room_id)
        installed = combat.INSTALLERS["combat"]

        async def install_slowly(bot: Bot) -> None:
            await alice.client.room_say(room_id, "!combat new")
            await asyncio.sleep(1.0)  # the line reaches the bot while it installs
            await installed(bot)

        monkeypatch.setitem(combat.INSTALLERS, "combat", install_slowly)
        bot = Bot(combat_bot(servatrice, "starter_st", tmp_path))
        try:
            await bot.start()
            return await alice.wait_line(lambda t: "Magic Combat Rules game #" in t, timeout=10)
        finally:
            await alice.close()
            await bot.close()

    assert "is open for 2 players" in asyncio.run(run())


def test_messages_kept_for_an_offline_player_survive_a_restart_of_the_bot(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """The bot tells zed_kp where his game is while he is offline, and is stopped; started again on the same
    journal, it sends that when he logs in (and then forgets it)."""
    options = combat_bot(servatrice, "keeper_kp", tmp_path)

    async def run() -> tuple[str, int]:
        bot = Bot(options)
        await bot.start()
        try:
            await bot.tell("zed_kp", "Round 1: your game vs amy_kp is #4.")
            await wait_until(lambda: bot.chat.held("zed_kp"), timeout=10, what="the message kept for zed_kp")
        finally:
            await bot.close()
        bot = Bot(options)
        await bot.start()
        zed = await Player.connect(servatrice.ws_url, "zed_kp")
        try:
            text = await zed.wait_private(lambda t: "your game vs amy_kp" in t, timeout=10)
            await bot.chat.flush(timeout=5)
            return text, len(bot.journal.notes(f"{bot.server_key}{Bot.HELD_KEY}"))
        finally:
            await zed.close()
            await bot.close()

    text, notes_left = asyncio.run(asyncio.wait_for(run(), 60))
    assert text == "While you were away: Round 1: your game vs amy_kp is #4."
    assert notes_left == 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(garbage=st.dictionaries(st.sampled_from(["session", "user", "messages", "x"]), JSON, max_size=4))
def test_kept_messages_from_the_journal_are_given_back_and_unreadable_notes_dropped(
    garbage: dict[str, Any],
) -> None:
    """At start, each kept-messages note goes back to its session (one no longer run: the main one, the
    note recorded again under its name); a note that cannot be read (whatever a damaged journal holds) is
    dropped with a warning, never stops the bot."""

    async def scenario() -> tuple[Bot, dict[str, Any]]:
        async def send(destination: Any, message: str) -> None:
            pass

        bot = demo_bot(Path(folder) / "journal.sqlite3", send)
        bot.chat = ChatScheduler(send, lambda _d, _m: 0.0, on_held=bot._record_held)
        prefix = f"{bot.server_key}{Bot.HELD_KEY}"
        bot.journal.put_note(
            f"{prefix}gone_bot\nzed", {"session": "gone_bot", "user": "zed", "messages": [["#4", False]]}
        )
        bot.journal.put_note(f"{prefix}odd", garbage)
        try:
            bot.restore_held()
            return bot, bot.journal.notes(prefix)
        finally:
            bot.journal.close()

    with tempfile.TemporaryDirectory() as folder:  # one journal per example
        bot, notes = asyncio.run(scenario())
    assert bot.chat.held("zed") == ["#4"]
    assert notes[f"{bot.server_key}{Bot.HELD_KEY}{bot.client.user_name}\nzed"]["messages"] == [["#4", False]]
    assert f"{bot.server_key}{Bot.HELD_KEY}gone_bot\nzed" not in notes


def test_a_referee_whose_name_stays_in_use_tells_the_room_its_name(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Someone holds the referee's unregistered name: once the client's ``name_wait`` has run out the
    referee takes the name the server offers (``NAME_1``) and says so in the room, once, so that players
    write to it and not to whoever has the usual name; room commands are answered as usual. (The journal has
    run before: with a brand-new one, a holder in the room is taken for another copy of the bot, which
    ``test_operator_second_copy.py`` covers.)"""
    options = combat_bot(servatrice, "held_referee", tmp_path)
    options = dataclasses.replace(options, client_options={**options.client_options, "name_wait": 0.5})
    earlier = Journal(str(options.journal_path))  # an earlier run's journal, holding a record
    earlier.put_note("earlier-run", {"kept": True})
    earlier.close()

    async def run() -> tuple[str, str, list[str]]:
        squatter = await Player.connect(servatrice.ws_url, "held_referee")
        room_id = await squatter.client.room_id_by_name("Bot room")
        await squatter.client.join_room(room_id)
        bot = Bot(options)
        try:
            await bot.start()
            told = await squatter.wait_line(lambda t: "The referee is held_referee_1" in t, timeout=20)
            mark = squatter.mark()
            await squatter.client.room_say(room_id, "!combat new")
            opened = await squatter.wait_line(lambda t: "Magic Combat Rules game #" in t, since=mark)
            return told, opened, [t for _, t in squatter.heard if "The referee is" in t]
        finally:
            await squatter.close()
            await bot.close()

    told, opened, all_told = asyncio.run(run())
    assert "the name held_referee is in use" in told and "Write to held_referee_1" in told
    assert "is open for 2 players" in opened
    assert len(all_told) == 1


def test_a_closed_game_is_forgotten_even_when_its_referee_fails_on_the_news() -> None:
    """A referee that raised on Event_GameClosed kept its game in ``Bot.games`` for good (listed by !games,
    its lease never given back); the game is forgotten whatever the referee does, and the fault logged."""
    from cockatrice_ext.client import ClientEvent
    from cockatrice_ext.protocol.pb import game_events_pb2

    class Failing:
        closed = False
        table_key = "t"

        async def on_event(self, event: Any) -> None:
            raise RuntimeError("a fault on the news")

        def views_changed(self) -> None:
            pass

    async def run() -> dict[int, Any]:
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
        bot.games[5] = Failing()  # type: ignore[assignment]
        await bot.on_event(ClientEvent(kind="game", message=game_events_pb2.Event_GameClosed(), game_id=5))
        return bot.games

    assert asyncio.run(run()) == {}


def test_no_chat_command_hides_a_method_the_runtime_calls() -> None:
    """A command is declared by a method; named like a referee's own method it replaces it: a league game's
    ``!status`` hid ``GameReferee.status()``, so ``!games`` and the web view's front page failed while any
    league game was open ("status() missing 1 required positional argument: 'ctx'")."""
    import inspect

    from cockatrice_ext.bot import auction, combat, league_games, league_referee, league_rooms, vortex
    from cockatrice_ext.bot.referee import GameReferee

    bases = (GameReferee, Referee)
    hidden = sorted(
        {  # the commands of each referee and of each mixin it is made of (Auction's, a league's parts)
            f"{part.__name__}.{attr}"
            for module in (auction, combat, league_games, league_referee, league_rooms, vortex)
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, Referee)
            for part in cls.__mro__
            if part not in bases and not any(issubclass(base, part) for base in bases)
            for attr, value in vars(part).items()
            if hasattr(value, "__command__")
            and any(attr in vars(base) for base in bases if issubclass(cls, base))
        }
    )
    assert hidden == []
    spec = league_games.LeagueGame.pairing_status.__command__  # type: ignore[attr-defined]
    assert spec["name"] == "status" and spec["aliases"] == ("state",)


def test_games_says_over_once() -> None:
    """Seen in the field: ``!games`` said "#2 auction: over (game over (conceded))"."""
    from types import SimpleNamespace

    from cockatrice_ext.bot.referee import GameReferee

    def status(finished: str) -> str:
        return GameReferee.status(SimpleNamespace(finished=finished, table=None))  # type: ignore[arg-type]

    assert status("game over (conceded)") == "over (conceded)"
    assert status("abandoned: every player left") == "over (abandoned: every player left)"
    assert status("game over") == "over"
    assert status("game over: cat out; ann wins") == "over (cat out; ann wins)"


def test_a_user_who_logs_off_has_their_waiting_lines_kept_not_tried() -> None:
    """The server's Event_UserLeft (the main session follows logins): every session keeps what waits for
    that user at once, instead of spending a message of its budget on each to learn they are gone."""
    from cockatrice_ext.client import ClientEvent
    from cockatrice_ext.protocol.pb import session_events_pb2

    async def run() -> list[str]:
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
        left: list[str] = []
        bot.chat.user_left = left.append  # type: ignore[method-assign]
        gone = session_events_pb2.Event_UserLeft(name="walt")
        await bot.on_event(ClientEvent(kind="session", message=gone))
        await bot.on_event(ClientEvent(kind="session", message=gone, is_replay=True))  # history: not news
        return left

    assert asyncio.run(run()) == ["walt"]
