"""Room chat is a public place: the referee answers what is meant for it, and only the referee asked.

Seen with a referee in a busy room (about 25 people, shipped flood limits) next to a second referee of this
project: every ``!word`` meant for someone else (``!lfg``, ``!roll 1d20``, ``!GG``) got "unknown command"
from each bot, ``!games please`` got "too many arguments", real answers waited up to 50 s behind that noise;
a line naming one bot (``RefereeBot: !games``) got no answer at all; one ``!auction new 2`` opened two
games, and ``!cancel 2`` for the other bot's game got "the referee has no game #2". Against a real Servatrice.
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, start_room_bot, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.bot import commands
from cockatrice_ext.client import ClientEvent, FloodLimits

OPENED = re.compile(r"Auction Magic game #(\d+) is open for 2 players")
NOISE = ["!lfg", "!roll 1d20", "!wow", "!1", "!GG", "!afk 5", "!ＧＧ", "!ok", "!price Lightning Bolt"]


def run(coroutine: Any, timeout: float = 150.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


start_bot = start_room_bot


class RoomEar(Player):
    """A player who also keeps who said each room line (the server's sender name)."""

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        self.room: list[tuple[str, str]] = []
        client.add_listener(self._on_room)

    async def _on_room(self, event: Any) -> None:
        if isinstance(event, ClientEvent) and event.name == "Event_RoomSay" and not event.is_replay:
            self.room.append((str(event.message.name), str(event.message.message)))  # type: ignore[attr-defined]

    def said_by(self, sender: str, since: int = 0) -> list[str]:
        return [text for name, text in self.room[since:] if name == sender]

    async def until(self, sender: str, pattern: str, since: int, timeout: float = 30.0) -> str:
        """The first room line of ``sender`` since ``since`` matching ``pattern``."""
        found: list[str] = []

        def heard() -> bool:
            found[:] = [t for t in self.said_by(sender, since) if re.search(pattern, t)]
            return bool(found)

        await wait_until(
            heard, timeout=timeout, what=f"{sender} saying {pattern!r}: {self.room[since:][-6:]}"
        )
        return found[0]

    async def count(self, sender: str, words: str, times: int, since: int, timeout: float = 30.0) -> None:
        """Wait until ``sender``'s room lines since ``since`` say ``words`` ``times`` times."""
        await wait_until(
            lambda: " | ".join(self.said_by(sender, since)).count(words) >= times,
            timeout=timeout,
            what=f"{sender} saying {words!r} {times} times: {self.room[since:][-6:]}",
        )


async def arrive(server: ServatriceServer, *names: str) -> tuple[int, list[RoomEar]]:
    from cockatrice_ext.client import connect

    players = [
        RoomEar(
            await connect(server.ws_url, name, None, reconnect=False, flood_limits=FloodLimits.unlimited())
        )
        for name in names
    ]
    room_id = await players[0].client.room_id_by_name("Bot room")
    for player in players:
        await player.client.join_room(room_id)
    return room_id, players


# -- the grammar: the scope decides ----------------------------------------------------------------------


def test_an_unknown_word_is_answered_in_room_chat_only_when_it_misspells_a_command() -> None:
    known = ["auction", "cancel", "games", "help", "resume"]
    for word in ("lfg", "roll", "wow", "1", "gg", "afk", "ok", "price"):
        assert commands.unknown_reply(word, known, "room") is None, word
        assert commands.unknown_reply(word, known, "game") is not None, word  # players there talk to the bot
        assert commands.unknown_reply(word, known, "private") is not None, word
    assert "did you mean !games?" in (commands.unknown_reply("gmaes", known, "room") or "")


def test_a_command_line_may_name_the_bot_it_is_for() -> None:
    for line in ("RefereeBot: !games", "RefereeBot, !games", "@RefereeBot !games", "!games @RefereeBot"):
        assert commands.split_address(line) == ("RefereeBot", "!games"), line
    assert commands.split_address("@RefereeBot: !auction new 2") == ("RefereeBot", "!auction new 2")
    assert commands.split_address("!games @RefereeBot.") == ("RefereeBot", "!games")
    for line in ("ok, thanks", "!games", "lol @RefereeBot", "@RefereeBot hi"):
        assert commands.split_address(line) == (None, line), line


# -- against a real server -----------------------------------------------------------------------------


@pytest.mark.servatrice
def test_room_chatter_gets_no_answer_and_extra_words_are_ignored(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """bo's words for the room's people get nothing from the referee; a typo of a command gets the
    suggestion; ``!games please`` lists the games, ``!help me with my deck`` gives the room's help, and
    ``!help cancel`` the usage of !cancel. In game chat an unknown command is still answered."""

    async def scenario() -> dict[str, Any]:
        bot = await start_bot(servatrice, tmp_path, "referee_rn1")
        room_id, (ann, bo) = await arrive(servatrice, "ann_rn1", "bo_rn1")
        try:
            since = len(ann.room)
            for line in NOISE:
                await bo.client.room_say(room_id, line)
            await bo.client.room_say(room_id, "!gmaes")
            await ann.client.room_say(room_id, "!games please")
            await ann.client.room_say(room_id, "!help me with my deck")
            await ann.client.room_say(room_id, "!help cancel")
            await ann.until("referee_rn1", r"!cancel \[GAME\]: ", since)  # the last answer: all came before
            said = ann.said_by("referee_rn1", since)
            mark = ann.mark()
            await ann.client.room_say(room_id, "!auction new 2")
            game_id = int(OPENED.search(await ann.until("referee_rn1", OPENED.pattern, since))[1])  # type: ignore[index]
            await ann.sit(room_id, game_id)
            await ann.say(game_id, "!lfg")
            in_game = await ann.wait_line(lambda t: "unknown command !lfg" in t, since=mark, timeout=30)
            return {"said": said, "in_game": in_game}
        finally:
            for player in (ann, bo):
                await player.close()
            await bot.close()

    seen = run(scenario())
    text = " | ".join(seen["said"])
    assert "unknown command" not in text.replace("unknown command !gmaes", ""), text
    assert "too many arguments" not in text, text
    assert "bo_rn1: unknown command !gmaes; did you mean !games?" in text
    assert "No refereed games right now." in text
    assert "Room commands: " in text
    assert "ann_rn1: unknown command !lfg" in seen["in_game"]


@pytest.mark.servatrice
def test_a_command_addressed_to_one_referee_is_answered_by_that_one_alone(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Two referees in one room: each line naming one of them, as players write names (any case, an @, a
    comma or colon, or at the end), is answered by that one; the other stays silent. A line naming someone
    else is answered by neither."""

    async def scenario() -> list[tuple[str, str]]:
        ref = await start_bot(servatrice, tmp_path / "a", "RefereeBot_ra")
        house = await start_bot(servatrice, tmp_path / "b", "AuctionHouse_ra")
        room_id, (ann,) = await arrive(servatrice, "ann_ra")
        try:
            since = len(ann.room)
            for line in (
                "RefereeBot_ra: !games",
                "auctionhouse_ra, !help",  # (two !games in a row while one answer waits get one answer)
                "@RefereeBot_ra !help",
                "!games @AuctionHouse_ra",
                "ann_ra: !games",
                "@somebody !help",
            ):
                await ann.client.room_say(room_id, line)
            await ann.client.room_say(room_id, "@AuctionHouse_ra !help")
            await ann.client.room_say(room_id, "RefereeBot_ra: !help")
            await ann.count("AuctionHouse_ra", "Room commands", 2, since)
            await ann.count("RefereeBot_ra", "Room commands", 2, since)
            await ref.chat.flush()
            await house.chat.flush()
            return ann.room[since:]
        finally:
            await ann.close()
            await ref.close()
            await house.close()

    room = run(scenario())
    ref_said = [text for name, text in room if name == "RefereeBot_ra"]
    house_said = [text for name, text in room if name == "AuctionHouse_ra"]
    assert " | ".join(ref_said).count("No refereed games") == 1, ref_said
    assert " | ".join(ref_said).count("Room commands") == 2, ref_said
    assert " | ".join(house_said).count("No refereed games") == 1, house_said
    assert " | ".join(house_said).count("Room commands") == 2, house_said


def _cancel_answers(room: list[tuple[str, str]], sender: str) -> str:
    return " | ".join(text for name, text in room if name == sender)


@pytest.mark.servatrice
def test_a_second_referee_is_noticed_and_each_game_number_is_answered_by_its_own_referee(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """RefereeBot opens a game on ann's addressed request; AuctionHouse notices a second referee (one warning
    for its operator, one line for the room on how to ask one of them). ``!cancel N`` of RefereeBot's game
    is answered by RefereeBot alone; a number no game in the room has gets today's answer from both."""

    async def scenario() -> dict[str, Any]:
        ref = await start_bot(servatrice, tmp_path / "a", "RefereeBot_rb")
        house = await start_bot(servatrice, tmp_path / "b", "AuctionHouse_rb")
        room_id, (ann,) = await arrive(servatrice, "ann_rb")
        try:
            since = len(ann.room)
            await ann.client.room_say(room_id, "RefereeBot_rb: !auction new 2")
            game_id = int(OPENED.search(await ann.until("RefereeBot_rb", OPENED.pattern, since))[1])  # type: ignore[index]
            hint = await ann.until("AuctionHouse_rb", "Two referees are in this room", since)
            mark = len(ann.room)
            await ann.client.room_say(room_id, f"!cancel {game_id}")
            await ann.client.room_say(room_id, "!cancel 987")
            await ann.until("RefereeBot_rb", "no game #987", mark)
            await ann.until("AuctionHouse_rb", "no game #987", mark)
            await ref.chat.flush()
            await house.chat.flush()
            return {"game": game_id, "hint": hint, "room": ann.room[mark:], "games": dict(ref.games)}
        finally:
            await ann.close()
            await ref.close()
            await house.close()

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.bot.runtime"):
        seen = run(scenario())
    game_id = seen["game"]
    assert "(AuctionHouse_rb and RefereeBot_rb)" in seen["hint"]
    assert "AuctionHouse_rb: !auction new 2" in seen["hint"]
    warnings = [r.getMessage() for r in caplog.records if "another referee, RefereeBot_rb" in r.getMessage()]
    assert len(warnings) == 1 and "--room-commands addressed" in warnings[0], warnings
    ref_said, house_said = (
        _cancel_answers(seen["room"], "RefereeBot_rb"),
        _cancel_answers(seen["room"], "AuctionHouse_rb"),
    )
    assert f"game #{game_id} closed: ann_rb cancelled it." in ref_said
    assert not re.search(rf"#{game_id}\b", house_said), house_said
    assert "ann_rb: the referee has no game #987" in house_said


@pytest.mark.servatrice
def test_a_referee_already_set_to_addressed_commands_is_not_told_to_set_it(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Seen in the field: AuctionHouse, started with ``--room-commands addressed``, still warned its operator
    to run one of the referees with ``--room-commands addressed``. It says at info level what it does; the
    room still hears once how to ask one referee."""

    async def scenario() -> str:
        ref = await start_bot(servatrice, tmp_path / "a", "RefereeBot_re")
        house = await start_bot(servatrice, tmp_path / "b", "AuctionHouse_re", room_commands="addressed")
        room_id, (ann,) = await arrive(servatrice, "ann_re")
        try:
            since = len(ann.room)
            await ann.client.room_say(room_id, "!auction new 2")
            await ann.until("RefereeBot_re", OPENED.pattern, since)
            return await ann.until("AuctionHouse_re", "Two referees are in this room", since)
        finally:
            await ann.close()
            await ref.close()
            await house.close()

    with caplog.at_level(logging.INFO, logger="cockatrice_ext.bot.runtime"):
        hint = run(scenario())
    assert "AuctionHouse_re: !auction new 2" in hint
    noticed = [r for r in caplog.records if "another referee, RefereeBot_re" in r.getMessage()]
    assert [r.levelno for r in noticed] == [logging.INFO], [(r.levelname, r.getMessage()) for r in noticed]
    assert "answers only room commands that start with its name" in noticed[0].getMessage()


@pytest.mark.servatrice
def test_a_look_alike_referee_causes_a_warning_and_a_hint_and_silences_nothing_of_ours(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Referee8ot, a plain user, opens a game described as this project's referees describe theirs: the bot
    warns once and tells the room once; its own answers (``!games``, ``!cancel`` of its own game) go on; a
    ``!cancel`` of Referee8ot's game is not its to answer."""

    async def scenario() -> dict[str, Any]:
        bot = await start_bot(servatrice, tmp_path, "RefereeBot_rc")
        room_id, (ann, fake) = await arrive(servatrice, "ann_rc", "Referee8ot_rc")
        try:
            since = len(ann.room)
            fake_game = await fake.client.create_game(
                room_id, description="Auction Magic, 2 players, refereed (asked by ann_rc)", max_players=3
            )
            hint = await ann.until("RefereeBot_rc", "Two referees are in this room", since)
            await fake.client.create_game(room_id, description="Vortex, 3 players, refereed", max_players=4)
            await ann.client.room_say(room_id, "!auction new 2")
            game_id = int(OPENED.search(await ann.until("RefereeBot_rc", OPENED.pattern, since))[1])  # type: ignore[index]
            mark = len(ann.room)
            await ann.client.room_say(room_id, f"!cancel {fake_game}")
            await ann.client.room_say(room_id, "!games")  # worded as it leaves: heard before the cancel
            await ann.until("RefereeBot_rc", "Refereeing: #", mark)
            await ann.client.room_say(room_id, f"!cancel {game_id}")
            await ann.until("RefereeBot_rc", f"game #{game_id} closed", mark)
            return {"hint": hint, "room": ann.room[since:], "after": ann.room[mark:], "fake": fake_game}
        finally:
            await ann.close()
            await fake.close()
            await bot.close()

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.bot.runtime"):
        seen = run(scenario())
    said = _cancel_answers(seen["room"], "RefereeBot_rc")
    assert said.count("Two referees are in this room") == 1, said
    assert [r for r in caplog.records if "another referee, Referee8ot_rc" in r.getMessage()]
    after = _cancel_answers(seen["after"], "RefereeBot_rc")
    assert "Refereeing: #" in after
    assert not re.search(rf"#{seen['fake']}\b", after), after


@pytest.mark.servatrice
def test_a_bot_set_to_addressed_room_commands_answers_only_lines_that_name_it(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """With ``room_commands="addressed"`` (``bot run --room-commands addressed``) a plain ``!games`` gets
    nothing; ``RefereeBot: !games`` is answered, and its help says how to ask it."""

    async def scenario() -> list[tuple[str, str]]:
        bot = await start_bot(servatrice, tmp_path, "RefereeBot_rd", room_commands="addressed")
        room_id, (ann,) = await arrive(servatrice, "ann_rd")
        try:
            since = len(ann.room)
            await ann.client.room_say(room_id, "!games")
            await ann.client.room_say(room_id, "!gmaes")
            await ann.client.room_say(room_id, "RefereeBot_rd: !games")
            await ann.client.room_say(room_id, "RefereeBot_rd: !help")
            await ann.until("RefereeBot_rd", "Room commands", since)
            return ann.room[since:]
        finally:
            await ann.close()
            await bot.close()

    room = run(scenario())
    said = [text for name, text in room if name == "RefereeBot_rd"]
    joined = " | ".join(said)
    assert joined.count("No refereed games") == 1, said
    assert "gmaes" not in joined
    assert "start room commands here with my name, as in RefereeBot_rd: !games" in joined.lower().replace(
        "refereebot_rd", "RefereeBot_rd"
    )
