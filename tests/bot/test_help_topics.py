"""What the help and the typo answers say, decided by the grammar alone (no server).

Seen by a tester who followed the project's words literally: ``!cancel`` in Auction game chat was answered
"did you mean !concede?" (and ``!concede`` concedes at once); ``!help bid`` in game chat was an unknown
``!help``; a hidden alias (``!augments``) was suggested; ``!<format> rules`` as the room's help prints it got
nothing; the README's parameter names (``!bid N``) were not the help's (``!bid AMOUNT``); Vortex's
``!basics`` during the opening draft said only "not now (the game is in its opening phase)".
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot import auction, combat, league_referee, league_rooms, vortex
from cockatrice_ext.bot.commands import CommandSet, closest, unknown_reply
from cockatrice_ext.bot.referee import (
    Context,
    GameReferee,
    LobbyReferee,
    asked_help,
    describe_command,
    reply_unknown,
)
from cockatrice_ext.formats.base import RulesError

README = Path(__file__).resolve().parents[2] / "README.md"
GAMES = (auction.AuctionReferee, vortex.VortexReferee, combat.CombatReferee)
ROOMS = (auction.AuctionRoom, vortex.VortexRoom, combat.CombatRoom, league_rooms.MarketRoom, LobbyReferee)


def bare(cls: type) -> Any:
    """An instance of a referee class with its commands and nothing else (no bot, no server)."""
    referee = cls.__new__(cls)
    referee.commands = CommandSet(referee)
    referee.finished, referee.closed = "", False  # a game going on, for the game referees
    return referee


def bot_with_rooms() -> Any:
    rooms = [bare(cls) for cls in ROOMS]
    bot = SimpleNamespace(room_referees=rooms, main=None, chat=SimpleNamespace(queued=lambda *_: False))
    for room in rooms:
        room.bot = bot
        if isinstance(room, league_rooms.MarketRoom):
            room.leagues, room.lobbies = [], {}  # no league running from this room, nobody in its lobby
    return bot


def answers(bot: Any, scope: str, text: str, referees: list[Any]) -> list[str]:
    heard: list[str] = []

    async def hook(line: Any) -> None:
        heard.append(str(line))

    ctx = Context(bot, scope, "ada")
    ctx.reply_hook = hook
    asyncio.run(reply_unknown(ctx, text, referees))
    return heard


def handled(referee: Any, bot: Any, scope: str, text: str) -> list[str]:
    """What ``referee`` answers ada's ``text`` said in ``scope`` with (it must take the line)."""
    heard: list[str] = []

    async def hook(line: Any) -> None:
        heard.append(str(line))

    ctx = Context(bot, scope, "ada")
    ctx.reply_hook = hook
    assert asyncio.run(referee.handle_command(ctx, text))
    return heard


def test_a_command_that_cannot_be_undone_is_never_offered_for_a_typo() -> None:
    """Every format's game commands: no typo, however close, is answered with one that cannot be undone."""
    finals = {"concede", "drop", "mulligan"}
    for cls in GAMES:
        commands = bare(cls).commands
        offered = commands.suggestable("game")
        assert not finals & set(offered), (cls.__name__, offered)
        for spec in commands.listing("game"):
            if spec.final:
                for typo in (spec.name[:-1], spec.name + "s", "cancel"):
                    assert closest(typo, offered) != spec.name, (cls.__name__, typo)
    assert "pass" not in bare(combat.CombatReferee).commands.suggestable("game")  # Combat's !pass ends a turn
    # Auction's !pass sells the lot to the last bidder when it is the last pass: seen offered for !packs
    assert "pass" not in bare(auction.AuctionReferee).commands.suggestable("game")
    said = answers(
        SimpleNamespace(room_referees=[], main=None), "game", "!cancel", [bare(auction.AuctionReferee)]
    )
    assert said and "concede" not in said[0], said


def test_a_room_command_in_game_chat_or_privately_says_where_it_goes() -> None:
    bot = bot_with_rooms()
    for cls in GAMES:
        said = answers(bot, "game", "!cancel", [bare(cls)])
        assert said == ["ada: !cancel is a room command: say it in the room."], (cls.__name__, said)
    private = answers(bot, "private", "!games", [bare(league_referee.LeagueReferee)])
    assert private == ["ada: !games is a room command: say it in the room."]
    assert answers(bot, "room", "!gmaes", bot.room_referees) == [
        "ada: unknown command !gmaes; did you mean !games? !help lists the commands"
    ]


def test_a_hidden_alias_is_never_suggested() -> None:
    """``!augments`` (an alias of ``!augment``) is in no help: a typo near it gets the command's own name."""
    league = bare(league_referee.LeagueReferee)
    assert "augments" not in league.commands.suggestable("private")
    said = answers(SimpleNamespace(room_referees=[], main=None), "private", "!augmentz", [league])
    assert said == ["ada: unknown command !augmentz; did you mean !augment? !help lists the commands"], said
    assert unknown_reply("gmes", league.commands.suggestable("private"), "private").count("augments") == 0


@pytest.mark.parametrize("cls", GAMES, ids=lambda cls: cls.__name__)
def test_help_name_answers_every_game_command_with_its_usage_and_line(cls: type) -> None:
    referee = bare(cls)
    for spec in referee.commands.listing("game"):
        for asked in (f"!help {spec.name}", f"!help !{spec.name.upper()} please"):
            topic = asked_help(asked)
            described = describe_command(topic or "", "game", [referee])
            assert described and described.startswith(spec.usage) and len(described) > len(spec.usage) + 5, (
                asked,
                described,
            )


def test_game_chat_help_for_the_commands_players_could_not_learn() -> None:
    """``!lot``, ``!top``, ``!stop``, ``!order`` (Auction), ``!bounce`` (Combat): each says what it does;
    words naming no command get the list; a room command says where it goes."""
    bot = bot_with_rooms()
    seen: dict[str, list[str]] = {}
    for cls, asked in (
        (auction.AuctionReferee, ("lot", "top", "stop", "order", "cancel", "me")),
        (combat.CombatReferee, ("bounce",)),
    ):
        referee = bare(cls)
        referee.bot = bot
        referee.game_id = 7
        said: list[str] = []

        async def say(line: Any, said: list[str] = said) -> None:
            said.append(str(line))

        referee.say = say
        for topic in asked:
            said.clear()
            asyncio.run(GameReferee.say_help(referee, asked_help(f"!help {topic}") or ""))
            seen[topic] = list(said)
    assert seen["lot"] == [
        "!lot COUNT: Put the top COUNT cards of the block up for auction together (card effects, 90X.8)."
    ]
    assert seen["top"] == ["!top: Put the card you gave back on top of the block."]
    assert seen["stop"][0].startswith("!stop: Vote to end this turn's auction step")
    assert seen["order"][0].startswith("!order N... [bottom N...]: put your !look cards back by number")
    assert seen["bounce"] == [
        "!bounce CARD...: A permanent returns to its owner's hand: !bounce CARD is yours; !bounce PLAYER SLOT"
        " (their creature in that slot) or !bounce PLAYER CARD names another's."
    ]
    assert seen["cancel"][0].endswith("(!cancel is a room command: say it in the room)")
    assert seen["me"][0].startswith("Commands: !auction | !bid AMOUNT") and seen["me"][-1].endswith(
        "!help NAME: what one does"
    )


def test_the_format_placeholder_of_the_room_help_is_answered() -> None:
    bot = bot_with_rooms()
    lobby = next(room for room in bot.room_referees if isinstance(room, LobbyReferee))
    assert handled(lobby, bot, "room", "!<format> rules") == [
        "ada: !<format> rules means one of: !auction rules, !vortex rules, !combat rules, !market rules"
        " (each lists its options)."
    ]


def test_the_readme_names_parameters_as_the_help_prints_them() -> None:
    """Every game command's usage as ``!help`` prints it is in the README, word for word."""
    text = README.read_text(encoding="utf-8")
    missing = [
        (cls.__name__, spec.usage)
        for cls in GAMES
        for spec in bare(cls).commands.listing("game")
        if f"`{spec.usage}`" not in text and f"`{spec.usage}`/" not in text
    ]
    assert not missing, missing
    for old in ("`!bid N`", "`!look N`", "`!lot N`", "`!mana COLOR [N]`", "[SACRIFICES]", "`!pool [cod]`"):
        assert old not in text, old
    assert "`!pool [FORM]`" in text


def test_vortex_says_when_basics_work_and_how_picks_are_said() -> None:
    referee = bare(vortex.VortexReferee)
    early = RulesError("wrong_phase", phase="opening", needed=["basics"])
    assert vortex.VortexReferee.explain(referee, early) == (
        "not yet: !basics works after the opening draft (the referee says when)"
    )
    assert "In game chat: !pick N (a name there tells the table your card)" in vortex.LISTING_HOW
    assert "!pick N only" not in vortex.LISTING_HOW
    assert referee.commands.find("pick", "game").usage == "!pick N|NAME"
    assert re.search(r"pick 1-7, or a card's name", vortex.no_such_pick(7))


def test_private_commands_while_a_league_runs_are_told_where_they_go() -> None:
    """With a league running (its private commands known), a seated Auction player's private ``!bid 3`` got
    "unknown command !bid" and ``!games`` a hidden alias; now: the game's chat, the room."""
    from cockatrice_ext.bot.runtime import Bot

    bot = Bot.__new__(Bot)
    bot.told_pointers = {}
    rooms = bot_with_rooms()
    game = bare(auction.AuctionReferee)
    game.game_id = 7
    game.is_at_table = lambda name: name == "ada"  # type: ignore[method-assign]
    game.is_seated_player = lambda name: name == "ada"  # type: ignore[method-assign]
    bot.room_referees = rooms.room_referees
    league = bare(league_referee.LeagueReferee)
    league.is_member = lambda name: False  # a running league ada and bea are not in
    bot.private_referees = [league]
    bot.all_games = lambda: {7: game}  # type: ignore[method-assign]
    told: list[str] = []

    async def tell(user: str, line: Any) -> None:
        told.append(f"{user}> {line}")

    bot.tell = tell  # type: ignore[method-assign]
    for line in ("!bid 3", "!games", "!help bid", "!help games", "!help pool"):
        asyncio.run(bot.answer_private("ada", line))
    assert told == [
        "ada> Game commands go in the game's own chat (#7), not by private message; !help there.",
        "ada> ada: !games is a room command: say it in the room.",
        "ada> !bid AMOUNT: Bid AMOUNT gold on the card up for auction. (say it in game #7's chat)",
        "ada> !games: List the games and leagues this bot referees, and the games it lost and can resume."
        " (!games is a room command: say it in the room)",
        "ada> !pool [FORM]: Your pool: a deck list to paste into the deck editor"
        " (!pool cod: a .cod file's text).",
    ], told
    told.clear()
    over = bare(auction.AuctionReferee)  # seen: a game that had ended still named, minutes later
    over.game_id, over.finished = 3, "game over (cal wins)"
    for referee in (over, game):
        referee.is_at_table = referee.is_seated_player = lambda name: name == "cal"  # type: ignore[method-assign]
    bot.all_games = lambda: {3: over, 7: game}  # type: ignore[method-assign]
    asyncio.run(bot.answer_private("cal", "!bid 3"))
    assert told == ["cal> Game commands go in the game's own chat (#7), not by private message; !help there."]
    told.clear()
    bot.all_games = lambda: {}  # type: ignore[method-assign]
    asyncio.run(bot.answer_private("bea", "!help"))
    asyncio.run(bot.answer_private("bea", "!augmentz"))
    assert "augments" not in " ".join(told), told


def test_help_name_gives_the_whole_first_paragraph_however_the_docstring_wraps() -> None:
    """Seen: `!help auction` cut mid-sentence ("create an Auction Magic (or Commander Auction)"): only the
    docstring's first line was taken."""
    from cockatrice_ext.bot.auction import AuctionRoom
    from cockatrice_ext.bot.commands import CommandSet

    described = CommandSet(AuctionRoom.__new__(AuctionRoom)).described("auction", "room")
    assert described is not None and described.endswith("!auction rules lists the options.")
    assert "\n" not in described and "  " not in described


def test_a_room_command_said_with_its_words_in_a_game_says_where_it_goes() -> None:
    """Seen: `!auction new 2` in an Auction game's chat got "too many arguments; usage: !auction" (the game's
    own !auction starts the auction step)."""
    bot = bot_with_rooms()
    referee = bare(auction.AuctionReferee)
    referee.bot = bot
    assert handled(referee, bot, "game", "!auction new 2") == [
        "ada: too many arguments; usage: !auction (!auction new is a room command: say it in the room)"
    ]


@pytest.mark.parametrize("topic", ["auction", "vortex", "combat", "market", "autobattler"])
def test_a_formats_room_help_says_what_the_format_is_first(topic: str) -> None:
    """Seen: a newcomer's `!help auction` in the room gave the usage only; what Auction Magic is was said
    nowhere. The format's pitch comes first, then the usage, within one line."""
    from cockatrice_ext.formats.options import pitch

    bot = bot_with_rooms()
    autobattler = bare(league_rooms.AutoBattlerRoom)
    autobattler.bot, autobattler.leagues, autobattler.lobbies = bot, [], {}
    bot.room_referees.append(autobattler)
    lobby = next(room for room in bot.room_referees if isinstance(room, LobbyReferee))
    said = pitch(topic)
    assert said is not None
    heard = handled(lobby, bot, "room", f"!help {topic}")
    assert len(heard) == 1 and heard[0].startswith(said + " "), heard
    assert f"!{topic}" in heard[0][len(said) :], heard


@pytest.mark.parametrize("topic", ["auction", "vortex", "combat", "market", "autobattler"])
def test_a_formats_room_rules_say_what_the_format_is_first(topic: str) -> None:
    """Seen: a newcomer's `!auction rules` in the room read "boards=on|off[off] timer=..." alone."""
    from cockatrice_ext.bot.auction import AuctionOptions
    from cockatrice_ext.bot.combat import CombatOptions
    from cockatrice_ext.bot.league_options import LeagueOptions
    from cockatrice_ext.bot.vortex import VortexOptions
    from cockatrice_ext.formats.options import pitch

    bot = bot_with_rooms()
    autobattler = bare(league_rooms.AutoBattlerRoom)
    autobattler.bot, autobattler.leagues, autobattler.lobbies = bot, [], {}
    room = next(r for r in [*bot.room_referees, autobattler] if topic in r.commands.specs)
    defaults = {"auction": AuctionOptions, "vortex": VortexOptions, "combat": CombatOptions}
    room.defaults = defaults.get(topic, LeagueOptions)()
    bot.server_key = "test"  # a league room keys its lobby by the server
    heard: list[str] = []

    async def hook(line: Any) -> None:
        heard.append(str(line))

    ctx = Context(bot, "room", "ada", room_id=1)
    ctx.reply_hook = hook
    assert asyncio.run(room.handle_command(ctx, f"!{topic} rules"))
    assert heard and heard[0].startswith(f"{pitch(topic)}"), heard
    assert "Options: " in " ".join(heard), heard


def test_the_same_pointer_is_not_repeated_to_a_fast_typist() -> None:
    """Seen: a newcomer's `!pick 1` and `!pik 1` in the same second heard "You are in the Market Draft
    lobby..." twice. The same "where your command goes" line reaches a user once per 30 s; another line, or
    the same one later, is told."""
    from cockatrice_ext.bot.runtime import SAME_POINTER_SECONDS, Bot

    bot = Bot.__new__(Bot)
    bot.told_pointers = {}
    rooms = bot_with_rooms()
    game = bare(auction.AuctionReferee)
    game.game_id = 7
    game.is_at_table = lambda name: name == "ada"  # type: ignore[method-assign]
    game.is_seated_player = lambda name: name == "ada"  # type: ignore[method-assign]
    bot.room_referees = rooms.room_referees
    bot.private_referees = []
    bot.all_games = lambda: {7: game}  # type: ignore[method-assign]
    told: list[str] = []

    async def tell(user: str, line: Any) -> None:
        told.append(f"{user}> {line}")

    bot.tell = tell  # type: ignore[method-assign]
    for line in ("!bid 3", "!bid 4", "!pass"):
        asyncio.run(bot.answer_private("ada", line))
    assert told == [
        "ada> Game commands go in the game's own chat (#7), not by private message; !help there."
    ], told
    assert bot.told_lately("ada", "x", now=0.0) is False
    assert bot.told_lately("ada", "x", now=SAME_POINTER_SECONDS - 1) is True
    assert bot.told_lately("ada", "x", now=2 * SAME_POINTER_SECONDS) is False
    assert bot.told_lately("ada", "y", now=2 * SAME_POINTER_SECONDS + 1) is False
