"""A number glued to a known command (``!bid3``, a slow or motor-impaired typist's missed space) is read as
the command with that number, where the scope knows the command and it takes arguments; found in the field:
``!bid3`` was answered "unknown command !bid3; did you mean !bid?"."""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Annotated, Any, Literal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.commands import (
    CommandError,
    CommandSet,
    Range,
    Rest,
    command,
    parse_invocation,
)
from cockatrice_ext.bot.referee import Context, Referee


class Table:
    """Commands of every parameter kind, in several scopes."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    @command(aliases=("b",))
    async def bid(self, ctx: object, amount: Annotated[int, Range(1, 999)]) -> None:
        """Bid AMOUNT gold."""
        self.calls.append(("bid", amount))

    @command(scopes=("game", "private"))
    async def pick(self, ctx: object, card: Rest) -> None:
        """Pick a card by number or name."""
        self.calls.append(("pick", card))

    @command()
    async def look(self, ctx: object, count: int, who: str | None = None) -> None:
        """Look at the top COUNT cards."""
        self.calls.append(("look", count, who))

    @command(name="pass")
    async def pass_(self, ctx: object) -> None:
        """Pass."""
        self.calls.append(("pass",))

    @command()
    async def top(self, ctx: object, count: int) -> None:
        """The top COUNT cards."""
        self.calls.append(("top", count))

    @command(name="top5")
    async def top_five(self, ctx: object) -> None:
        """A command whose own name ends in a digit."""
        self.calls.append(("top5",))

    @command(scopes=("room",))
    async def table(self, ctx: object, what: Literal["new", "rules"], args: Rest | None = None) -> None:
        """!table new|rules: a sub-command."""
        self.calls.append(("table", what, args))

    @command(scopes=("room",))
    async def cancel(self, ctx: object, game: str | None = None) -> None:
        """Close your waiting game."""
        self.calls.append(("cancel", game))


def run(line: str, scope: str = "game") -> tuple[bool, list[tuple[Any, ...]]]:
    """Whether ``line`` ran a command of :class:`Table` in ``scope``, and the calls it made."""
    table = Table()
    invocation = parse_invocation(line)
    assert invocation is not None
    ran = asyncio.run(CommandSet(table).invoke(None, invocation, scope))
    return ran, table.calls


@pytest.mark.parametrize(
    ("line", "scope", "expected"),
    [
        ("!bid3", "game", ("bid", 3)),
        ("!BID12", "game", ("bid", 12)),
        ("!b7", "game", ("bid", 7)),  # an alias too
        ("!bid\uff13", "game", ("bid", 3)),  # a full-width digit is a digit
        ("!look3 bob", "game", ("look", 3, "bob")),
        ("!pick2", "private", ("pick", "2")),
        ("!pick1 Serra Angel", "game", ("pick", "1 Serra Angel")),
        ("!cancel12", "room", ("cancel", "12")),
    ],
)
def test_a_number_glued_to_a_known_command_is_its_first_argument(
    line: str, scope: str, expected: tuple[Any, ...]
) -> None:
    assert run(line, scope) == (True, [expected])


@pytest.mark.parametrize(
    ("line", "scope"),
    [
        ("!pass3", "game"),  # takes no arguments: a typo, answered as one
        ("!table3", "room"),  # a sub-command is a word, never a number
        ("!bid3", "private"),  # bid is no private command
        ("!bid3", "room"),
        ("!zzz3", "game"),
        ("!3", "game"),
        ("!bid-3", "game"),
    ],
)
def test_only_a_command_the_scope_knows_and_that_takes_arguments_is_read_so(line: str, scope: str) -> None:
    assert run(line, scope) == (False, [])


def test_a_name_of_its_own_wins_and_the_number_is_checked_as_any_argument() -> None:
    assert run("!top5") == (True, [("top5",)])
    assert run("!top6") == (True, [("top", 6)])
    with pytest.raises(CommandError, match="between 1 and 999"):
        run("!bid0")
    with pytest.raises(CommandError, match="too many arguments; usage: !bid AMOUNT"):
        run("!bid3 4")


def test_find_and_help_read_the_glued_form_as_the_command() -> None:
    """Referees route a line by ``find`` before they run it: the glued form must reach the same command."""
    commands = CommandSet(Table())
    spec = commands.find("bid3", "game")
    assert spec is not None and spec.name == "bid"
    assert commands.find("bid3", "private") is None and commands.find("pass3", "game") is None
    assert commands.described("b3", "game") == "!bid AMOUNT: Bid AMOUNT gold."


class Game(Referee):
    """A referee whose ``!pick`` is a bounded number, answering through ``ctx.reply``."""

    def __init__(self) -> None:
        self.commands = CommandSet(self)
        self.picked: list[int] = []

    @command(scopes=("game", "private"))
    async def pick(self, ctx: Context, number: Annotated[int, Range(1, 15)]) -> None:
        """Pick card NUMBER of your pack."""
        self.picked.append(number)


def test_a_referee_runs_the_glued_form_as_the_spaced_one() -> None:
    said: list[str] = []

    async def reply(text: str) -> None:
        said.append(text)

    referee = Game()
    ctx = Context(None, "game", "alice", reply_hook=reply)  # type: ignore[arg-type]
    assert asyncio.run(referee.handle_command(ctx, "!pick3"))
    assert asyncio.run(referee.handle_command(ctx, "!pick99"))
    assert referee.picked == [3]
    assert said == ["alice: NUMBER must be between 1 and 15"]


def outcome(line: str, scope: str) -> tuple[bool, list[tuple[Any, ...]], str]:
    """What ``line`` does: whether it ran, the calls, the refusal's reason ("" if none)."""
    try:
        ran, calls = run(line, scope)
    except CommandError as exc:
        return True, [], exc.reason
    return ran, calls, ""


NAMES_WITH_ARGUMENTS = [
    ("bid", "game"),
    ("b", "game"),
    ("look", "game"),
    ("pick", "private"),
    ("top", "game"),
]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(NAMES_WITH_ARGUMENTS),
    st.integers(min_value=0, max_value=10**15),
    st.text(max_size=40),
)
def test_fuzz_the_glued_form_does_what_the_spaced_form_does(
    named: tuple[str, str], number: int, rest: str
) -> None:
    name, scope = named
    # The words after the number as both forms read them: white space or an invisible character between the
    # number and them is one separator for the glued form, kept as typed by the spaced one's Rest.
    assume(not rest[:1].isspace() and unicodedata.category(rest[:1] or "x") != "Cf")
    assert outcome(f"!{name}{number} {rest}", scope) == outcome(f"!{name} {number} {rest}", scope)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["bid", "b", "look", "pick", "pass", "table", "cancel", "top", "top5", "zz"]),
    st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=30),
    st.text(max_size=60),
    st.sampled_from(["game", "room", "private"]),
)
def test_fuzz_glued_lines_never_raise_anything_but_command_errors(
    name: str, digits: str, rest: str, scope: str
) -> None:
    try:
        invocation = parse_invocation(f"!{name}{digits}{rest}")
        if invocation is not None:
            asyncio.run(CommandSet(Table()).invoke(None, invocation, scope))
    except CommandError:
        pass
