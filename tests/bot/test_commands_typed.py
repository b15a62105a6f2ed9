"""Commands as players type them (the smoke test's findings): a space after ``!``, a non-breaking space or a
tab after the name, an invisible character before the line and a full-width ``！`` were no command at all and
got no answer; and the one rendering of an engine refusal that suggests cards (which one, did you mean),
private when it names a card hidden from others."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, ClassVar

import pytest

from cockatrice_ext.bot.commands import CommandSet, Range, Rest, command, parse_invocation
from cockatrice_ext.bot.referee import Context, Referee
from cockatrice_ext.formats.base import RulesError


@pytest.mark.parametrize(
    "line",
    [
        "! pick 1",
        "!pick\u00a01",
        "!pick\t1",
        "\u200b!pick 1",
        "\uff01pick 1",
        "\ufeff!pick\u202f1 ",
        "!pick\u200b 1",
        "\u3000\uff01 pick\u30001",
    ],
)
def test_a_command_however_typed_is_a_command(line: str) -> None:
    invocation = parse_invocation(line)
    assert invocation is not None and (invocation.name, invocation.args) == ("pick", "1")


@pytest.mark.parametrize("line", ["!", "! ", "\u200b!", "hello !pick 1", "!!", "\uff01"])
def test_lines_that_are_no_command_stay_none(line: str) -> None:
    assert parse_invocation(line) is None


def test_rest_keeps_quote_marks_and_white_space_is_one_kind() -> None:
    invocation = parse_invocation('!sell\u00a0"Mikaeus, the Lunarch",\tShock')
    assert invocation is not None
    assert invocation.args == '"Mikaeus, the Lunarch", Shock'


class Game(Referee):
    """A referee with the commands of the smoke test, answering through ``ctx.reply``."""

    refusals: ClassVar[dict[str, str]] = {
        "missing_card": "no such card here",
        "ambiguous_card": "which one? name it exactly",
    }

    def __init__(self, hand: tuple[str, ...] = ()) -> None:
        self.commands = CommandSet(self)
        self.hand = hand
        self.picked: list[Any] = []

    @command(scopes=("game", "private"))
    async def pick(self, ctx: Context, number: Annotated[int, Range(1, 15)]) -> None:
        """Pick card NUMBER of your pack."""
        self.picked.append(number)

    @command()
    async def sell(self, ctx: Context, cards: Rest) -> None:
        """Sell cards."""
        raise RulesError("missing_card", card=cards, candidates=["Shock", "Shivan Dragon"])

    @command()
    async def keep(self, ctx: Context, card: Rest) -> None:
        """Keep a card."""
        raise RulesError("missing_card", card=card, closest=["Serra Angel"])

    def hidden_card_names(self, ctx: Context) -> tuple[str, ...]:
        return self.hand


def answers(referee: Game, line: str) -> list[tuple[str, str]]:
    """(where, what) the referee answers ``alice``'s game-chat ``line`` with."""
    said: list[tuple[str, str]] = []

    async def reply(text: str) -> None:
        said.append(("game", text))

    class Bot:
        async def tell(self, user: str, text: str) -> None:
            said.append((f"user {user}", text))

    ctx = Context(Bot(), "game", "alice", reply_hook=reply)  # type: ignore[arg-type]
    asyncio.run(referee.handle_command(ctx, line))
    return said


@pytest.mark.parametrize("line", ["! pick 1", "!pick\u00a01", "!pick\t1", "\u200b!pick 1", "\uff01pick 1"])
def test_such_a_command_is_run(line: str) -> None:
    referee = Game()
    assert answers(referee, line) == []
    assert referee.picked == [1]


def test_which_one_and_did_you_mean_in_public_for_public_cards() -> None:
    assert answers(Game(), "!sell Sh") == [("game", "alice: which one: Shock or Shivan Dragon?")]
    assert answers(Game(), "!keep Sera Angel") == [
        ("game", "alice: no such card here; did you mean Serra Angel?")
    ]


def test_a_refusal_naming_a_hidden_card_goes_to_the_player_alone() -> None:
    assert answers(Game(hand=("Shivan Dragon",)), "!sell Sh") == [
        ("user alice", "Refused: which one: Shock or Shivan Dragon?"),
        ("game", "alice: refused (the reason was sent to you privately)."),
    ]
    assert answers(Game(hand=("Serra Angel",)), "!keep Sera Angel") == [
        ("user alice", "Refused: no such card here; did you mean Serra Angel?"),
        ("game", "alice: refused (the reason was sent to you privately)."),
    ]


def test_the_rendering_is_one_function_every_format_calls() -> None:
    from cockatrice_ext.bot.words import Refusal, card_choice, render_refusal

    error = RulesError(
        "no_such_card", card="Delver", candidates=["Delver of Secrets // Insectile Aberration"] * 2
    )
    assert card_choice(error.details) == ""  # copies of one card are one card
    front = {"Delver of Secrets // Insectile Aberration": "Delver of Secrets"}
    shown = lambda name: front.get(name, name)  # noqa: E731
    two = RulesError("missing_card", candidates=["Delver of Secrets // Insectile Aberration", "Fire // Ice"])
    assert render_refusal("no such card", two, shown=shown) == Refusal(
        "which one: Delver of Secrets or Fire // Ice?"
    )
    typo = RulesError("no_such_card", closest=["Fire // Ice", "Delver of Secrets // Insectile Aberration"])
    assert render_refusal("not in your pack.", typo, hidden=("Delver of Secrets",), shown=shown) == Refusal(
        "not in your pack; did you mean Fire // Ice or Delver of Secrets?", private=True
    )
    assert render_refusal("no such card", typo, hidden=None).private  # a format that does not say: private
    assert render_refusal("no such card", RulesError("missing_card"), hidden=None) == Refusal("no such card")


@pytest.mark.parametrize("line", ["!help", "! help", "\uff01help", "!help\u200b", "\u200b!commands"])
def test_help_in_a_game_however_typed(line: str) -> None:
    from cockatrice_ext.bot.referee import asked_help

    assert asked_help(line) == ""  # a bare !help; "!help bid" asks about !bid (tests/bot/test_help_topics.py)
    assert asked_help("!help bid") == "bid" and asked_help("help") is None
