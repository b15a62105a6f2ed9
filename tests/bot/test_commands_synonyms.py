"""The one suggestion rule (``closest``) reads the words players use for a command before spelling. Found by a
tester who learned each format from the chat alone: ``!fold`` got "did you mean !gold?" (meant !pass),
``!take`` got !state (meant !keep), ``!play`` got !place (meant !summon), ``!raise`` and ``!decline`` got
nothing."""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

import pytest

from cockatrice_ext.bot.commands import (
    SYNONYMS,
    BadArgument,
    CommandSet,
    closest,
    command,
    parse_invocation,
    unknown_reply,
)


@pytest.mark.parametrize(
    ("word", "known", "expected"),
    [
        ("fold", ["bid", "gold", "help", "pass"], "pass"),  # spelling alone: gold
        ("FOLD", ["bid", "gold", "help", "pass"], "pass"),
        ("take", ["help", "keep", "state"], "keep"),  # spelling alone: state
        ("play", ["help", "place", "ready", "summon"], "summon"),  # spelling alone: place
        ("draft", ["draw", "help", "pick"], "pick"),  # spelling alone: draw
        ("raise", ["bid", "help", "pass"], "bid"),
        ("decline", ["bid", "help", "pass"], "pass"),
        ("skip", ["help", "pass"], "pass"),
        ("no", ["help", "pass"], "pass"),
        ("raise5", ["bid", "help"], "bid"),  # a glued number does not hide the word
        ("take", ["help", "pick", "state"], "pick"),  # the next meaning the scope has
        ("commands", ["auction", "cancel", "games", "help", "resume"], "help"),
        ("start", ["commander", "new", "rules"], "new"),  # a sub-command: !auction start
        ("options", ["new", "rules"], "rules"),
    ],
)
def test_a_synonym_of_a_known_command_is_suggested_before_spelling(
    word: str, known: list[str], expected: str
) -> None:
    assert closest(word, known) == expected


def test_a_synonym_names_only_commands_the_scope_has_and_spelling_still_works() -> None:
    assert closest("raise", ["gold", "help"]) is None
    assert closest("decline", ["help", "keep"]) is None
    # a word said on purpose is not a typo: without its command, its spelling's neighbours mislead
    assert closest("fold", ["gold", "help"]) is None
    assert closest("draft", ["draw", "help"]) is None
    assert closest("start", ["help", "state"]) is None
    assert closest("bidd", ["bid", "help", "pass"]) == "bid"
    assert closest("pas", ["bid", "help", "pass"]) == "pass"
    assert closest("start", ["join", "new", "start"]) == "start"  # a known word is itself
    assert closest("xyzzy", ["bid", "help", "pass"]) is None


def test_a_synonym_hit_is_a_close_match_where_only_close_matches_are_answered() -> None:
    room = ["auction", "cancel", "games", "help", "resume"]
    assert unknown_reply("commands", room, "room") == (
        "unknown command !commands; did you mean !help? !help lists the commands"
    )
    assert unknown_reply("skip", room, "room") is None  # !pass is no room command: meant for someone else
    assert unknown_reply("lfg", room, "room") is None
    assert unknown_reply("fold", ["bid", "gold", "help", "pass"], "game") == (
        "unknown command !fold; did you mean !pass? !help lists the commands"
    )


def commands_of(module: str, name: str) -> CommandSet:
    """The declared commands of a referee class (nothing runs)."""
    cls = getattr(importlib.import_module(f"cockatrice_ext.bot.{module}"), name)
    return CommandSet(object.__new__(cls))


def suggested(module: str, name: str, scope: str, word: str) -> str | None:
    """What ``!word`` is answered with by that referee in ``scope``, as the bot builds the list."""
    known = sorted(set(commands_of(module, name).suggestable(scope)) | {"help"})
    return closest(word, known)


@pytest.mark.parametrize(
    ("module", "name", "scope", "word", "expected"),
    [
        ("auction", "AuctionReferee", "game", "raise", "bid"),
        ("auction", "AuctionReferee", "game", "take", "keep"),
        ("auction", "AuctionReferee", "game", "play", "cast"),
        ("auction", "AuctionReferee", "game", "money", "gold"),
        ("vortex", "VortexReferee", "game", "take", "pick"),
        ("vortex", "VortexReferee", "game", "options", "rules"),
        ("combat", "CombatReferee", "game", "attack", "fight"),
        ("league_referee", "LeagueReferee", "private", "decline", "pass"),
        ("league_referee", "LeagueReferee", "private", "purchase", "buy"),
        ("league_referee", "LeagueReferee", "private", "reroll", "roll"),
        ("league_referee", "LeagueReferee", "private", "finish", "done"),
    ],
)
def test_each_format_answers_the_words_players_use(
    module: str, name: str, scope: str, word: str, expected: str
) -> None:
    assert suggested(module, name, scope, word) == expected


def test_a_command_that_cannot_be_undone_is_never_a_synonym_s_answer() -> None:
    """Combat's !pass ends the turn and is never suggested (``final``): ``!fold`` there suggests no !pass."""
    assert commands_of("combat", "CombatReferee").find("pass", "game") is not None
    assert suggested("combat", "CombatReferee", "game", "fold") != "pass"
    assert suggested("combat", "CombatReferee", "game", "skip") is None


@pytest.mark.parametrize("typed", ["packs", "basics", "pas", "fold", "decline"])
def test_auctions_pass_is_never_a_typos_answer(typed: str) -> None:
    """Seen in the field: an Auction player's ``!packs`` and ``!basics`` (Vortex's words) were answered "did
    you mean !pass?"; in a two-player auction ``!pass`` sells the lot, which cannot be undone."""
    assert commands_of("auction", "AuctionReferee").find("pass", "game") is not None
    assert suggested("auction", "AuctionReferee", "game", typed) != "pass"


@pytest.mark.parametrize(
    ("module", "name", "scope", "word"),
    [
        ("auction", "AuctionReferee", "game", "draft"),  # spelling alone: !draw
        ("auction", "AuctionReferee", "game", "select"),  # spelling alone: !sell
        ("auction", "AuctionReferee", "game", "start"),  # spelling alone: !state
        ("combat", "CombatReferee", "game", "bet"),  # spelling alone: !set
        ("combat", "CombatReferee", "game", "create"),  # spelling alone: !cast
        ("vortex", "VortexReferee", "game", "attack"),  # spelling alone: !pack
    ],
)
def test_a_synonym_whose_command_the_scope_lacks_is_not_answered_by_spelling(
    module: str, name: str, scope: str, word: str
) -> None:
    assert suggested(module, name, scope, word) is None


def test_a_room_sub_command_synonym_gets_did_you_mean() -> None:
    spec = commands_of("auction", "AuctionRoom").find("auction", "room")
    assert spec is not None
    with pytest.raises(
        BadArgument, match=r"^unknown command !auction start; did you mean !auction new\? usage"
    ):
        spec.convert("start 2")


class Bids:
    def __init__(self) -> None:
        self.calls: list[Any] = []

    @command()
    async def bid(self, ctx: object, amount: int) -> None:
        """Bid AMOUNT."""
        self.calls.append(amount)


def test_a_synonym_is_only_suggested_never_run() -> None:
    table = Bids()
    for line in ("!raise 3", "!raise3"):
        invocation = parse_invocation(line)
        assert invocation is not None
        assert not asyncio.run(CommandSet(table).invoke(None, invocation, "game"))
    assert table.calls == []


def test_every_synonym_means_commands_a_referee_has() -> None:
    """A target no referee offers would never be suggested: the table names real commands or sub-commands."""
    referees = [
        ("auction", "AuctionReferee"),
        ("auction", "AuctionRoom"),
        ("vortex", "VortexReferee"),
        ("vortex", "VortexRoom"),
        ("combat", "CombatReferee"),
        ("combat", "CombatRoom"),
        ("league_referee", "LeagueReferee"),
        ("league_rooms", "MarketRoom"),
        ("league_rooms", "AutoBattlerRoom"),
        ("referee", "LobbyReferee"),
    ]
    offered: set[str] = set()
    for module, name in referees:
        commands = commands_of(module, name)
        for scope in ("game", "room", "private"):
            for spec in commands.listing(scope):
                offered |= {spec.name, *spec.subcommands}
    assert {target for targets in SYNONYMS.values() for target in targets} <= offered
