"""The shared chat-command grammar: parsing, conversion and refusals."""

from __future__ import annotations

import shlex
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.commands import (
    MAX_COMMAND_LENGTH,
    BadArgument,
    CommandError,
    CommandSet,
    Range,
    Rest,
    command,
    parse_invocation,
    split_args,
)


class Sample:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    @command(aliases=("b",))
    async def bid(self, ctx: object, amount: Annotated[int, Range(1, 999)]) -> None:
        """Bid AMOUNT gold on the current lot."""
        self.calls.append(("bid", amount))

    @command(scopes=("game", "private"))
    async def pick(self, ctx: object, card: Rest) -> None:
        """Pick a card by number or name."""
        self.calls.append(("pick", card))

    @command()
    async def look(self, ctx: object, count: int, who: str | None = None) -> None:
        """Look at the top COUNT cards."""
        self.calls.append(("look", count, who))


def test_parse_invocation() -> None:
    assert parse_invocation("hello") is None
    assert parse_invocation("!") is None
    inv = parse_invocation("  !BID 4 ")
    assert inv is not None and (inv.name, inv.args) == ("bid", "4")
    with pytest.raises(BadArgument):
        parse_invocation("!x " + "a" * MAX_COMMAND_LENGTH)


@given(st.text(alphabet=st.characters(blacklist_characters="\"'\\"), max_size=60))
def test_split_args_without_quotes_splits_as_the_lexer_does(text: str) -> None:
    """The fast path for text without quotes or escapes gives exactly the lexer's words."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    assert split_args(text) == list(lexer)


def test_split_args_keeps_apostrophes() -> None:
    assert split_args("Gorgon's Head") == ["Gorgon's", "Head"]
    assert split_args('"Fire // Ice" 2') == ["Fire // Ice", "2"]


async def run(sample: Sample, line: str, scope: str = "game") -> bool:
    commands = CommandSet(sample)
    inv = parse_invocation(line)
    assert inv is not None
    return await commands.invoke(None, inv, scope)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("!bid 4", ("bid", 4)),
        ("!b 999", ("bid", 999)),
        ("!pick Jaya Ballard, Task Mage", ("pick", "Jaya Ballard, Task Mage")),
        ("!look 3", ("look", 3, None)),
        ("!look 3 bob", ("look", 3, "bob")),
    ],
)
def test_conversion(line: str, expected: tuple[Any, ...]) -> None:
    import asyncio

    sample = Sample()
    assert asyncio.run(run(sample, line))
    assert sample.calls == [expected]


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("!bid", "missing AMOUNT"),
        ("!bid x", "whole number"),
        ("!bid 0", "between 1 and 999"),
        ("!bid 4 5", "too many"),
        ("!pick", "missing CARD"),
    ],
)
def test_bad_arguments_explain_usage(line: str, fragment: str) -> None:
    import asyncio

    with pytest.raises(BadArgument, match=fragment):
        asyncio.run(run(Sample(), line))


def test_scope_filters_commands() -> None:
    import asyncio

    assert not asyncio.run(run(Sample(), "!bid 3", scope="private"))
    assert asyncio.run(run(Sample(), "!pick 2", scope="private"))
    listing = [spec.name for spec in CommandSet(Sample()).listing("game")]
    assert listing == ["bid", "look", "pick"]
    assert CommandSet(Sample()).find("bid", "game").usage == "!bid AMOUNT"  # type: ignore[union-attr]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_fuzz_never_raises_anything_but_command_errors(text: str) -> None:
    import asyncio

    try:
        inv = parse_invocation("!" + text)
        if inv is not None:
            asyncio.run(CommandSet(Sample()).invoke(None, inv, "game"))
    except CommandError:
        pass


def test_unknown_command_suggests_the_closest_one() -> None:
    from cockatrice_ext.bot.commands import unknown_command_reason

    assert "did you mean !bid?" in unknown_command_reason("bidd", ["bid", "pass", "help"])
    reason = unknown_command_reason("xyzzy", ["bid", "pass", "help"])
    assert "did you mean" not in reason and "!help lists the commands" in reason


def test_a_command_with_its_own_usage_names_its_arguments_as_players_know_them() -> None:
    """Seen in the field: "missing CARD_SLOT; usage: !place CARD_SLOT..." and "SPELL_SLOT must be between
    1 and 5", where the README and the prompts say !place N SLOT."""
    from cockatrice_ext.bot.combat import CombatReferee
    from cockatrice_ext.bot.commands import CommandSet

    referee = object.__new__(CombatReferee)  # the declared commands only: nothing runs
    specs = {spec.name: spec for spec in CommandSet(referee).listing("game")}
    assert specs["place"].usage == "!place N SLOT" and specs["set"].usage == "!set N SLOT"
    with pytest.raises(BadArgument) as missing:
        specs["place"].convert("")
    assert str(missing.value) == "usage: !place N SLOT"
    with pytest.raises(BadArgument) as outside:
        specs["cast"].convert("9")
    assert str(outside.value) == "spell slot must be between 1 and 5"


class Lobby:
    @command(scopes=("room",))
    async def table(
        self, ctx: object, what: Literal["new", "join", "rules"], args: Rest | None = None
    ) -> None:
        """!table new|join [PLAYERS]: open a table or join one; !table rules lists the options."""

    @command(scopes=("room",))
    async def kick(self, ctx: object, who: str) -> None:
        """!kick NAME: no sub-command."""

    @command(scopes=("room",))
    async def seat(self, ctx: object, number: int, side: Literal["left", "right"]) -> None:
        """Take seat NUMBER on one side."""


def test_a_sub_command_typo_is_answered_as_an_unknown_command_is() -> None:
    """A first parameter typed ``Literal[...]`` is a sub-command: any case, given in lower case; another
    word is answered as an unknown command is. A later ``Literal`` is a plain choice."""
    specs = {spec.name: spec for spec in CommandSet(Lobby()).listing("room")}
    assert specs["table"].subcommands == ("new", "join", "rules")
    assert specs["kick"].subcommands == ()
    assert specs["table"].convert("NEW 3") == ["new", "3"]
    assert specs["seat"].usage == "!seat NUMBER left|right"
    assert specs["seat"].convert("2 Right") == [2, "right"]
    with pytest.raises(BadArgument, match=r"^side must be one of left, right$"):
        specs["seat"].convert("2 up")
    with pytest.raises(BadArgument) as typo:
        specs["table"].convert("nwe 3")
    assert str(typo.value) == (
        "unknown command !table nwe; did you mean !table new? usage: !table new|join [PLAYERS] | rules"
    )
    with pytest.raises(BadArgument) as far:
        specs["table"].convert("zzz")
    reason = str(far.value)
    assert "did you mean" not in reason and "usage: !table new|join [PLAYERS] | rules" in reason


@pytest.mark.parametrize(
    ("module", "room", "line", "suggested"),
    [
        ("auction", "AuctionRoom", "!auction nwe 3", "!auction new"),
        ("vortex", "VortexRoom", "!vortex nwe 3 picktimer=30", "!vortex new"),
        ("combat", "CombatRoom", "!combat nw", "!combat new"),
        ("league_rooms", "MarketRoom", "!market jion", "!market join"),
    ],
)
def test_room_sub_command_typos_get_did_you_mean(module: str, room: str, line: str, suggested: str) -> None:
    """Smoke test: "!auction nwe 3" in room chat got only the usage line, while an unknown command in game
    gets "did you mean". Answered by the grammar, before the handler runs (no game is created)."""
    import asyncio
    import importlib
    from types import SimpleNamespace

    referee = getattr(importlib.import_module(f"cockatrice_ext.bot.{module}"), room)(SimpleNamespace())
    heard: list[str] = []

    async def reply(text: str) -> None:
        heard.append(text)

    ctx = SimpleNamespace(sender="nina", scope="room", reply=reply, room_id=1)
    assert asyncio.run(referee.handle_command(ctx, line))
    command_word, typo = line.split()[:2]
    assert len(heard) == 1 and heard[0].startswith(f"nina: unknown command {command_word} {typo}; ")
    assert f"did you mean {suggested}? usage: {command_word} " in heard[0] and "| rules" in heard[0]


def test_commands_and_sub_commands_share_one_suggestion_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    from cockatrice_ext.bot import commands

    monkeypatch.setattr(commands, "closest", lambda word, known: "chosen")
    assert "did you mean !chosen?" in commands.unknown_command_reason("x", ["y"])
    spec = CommandSet(Lobby()).find("table", "room")
    assert spec is not None
    with pytest.raises(BadArgument, match=r"did you mean !table chosen\?"):
        spec.convert("x")
