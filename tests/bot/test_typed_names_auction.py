"""Card and player names as players type them in Auction chat commands, without a server: the real referee
and engine, from the chat line through the command's conversion and the engine to the line each player
reads (the sinks that need a game keep what they would show instead)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee, render_view
from cockatrice_ext.bot.blocks import LoadedBlock, load_block
from cockatrice_ext.bot.commands import CommandSet
from cockatrice_ext.bot.missed import MissedLines
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.client.mirror import GameMirror, PlayerState
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.base import Effect

GAME = 7
ALICE, ZOE, REFEREE = 1, 2, 3
NAMES = {ALICE: "alice", ZOE: "zoë_fx"}


class Chat:
    """The bot's chat scheduler as a list: (destination, line)."""

    def __init__(self) -> None:
        self.lines: list[tuple[tuple[str, Any], str]] = []

    def say(self, destination: tuple[str, Any], text: Any, **_: Any) -> None:
        self.lines.append((destination, text() if callable(text) else text))


class Kept(AuctionReferee):
    """The real referee; the effects it would show on the table are kept."""

    performed: list[Effect]

    async def perform(self, effects: list[Effect], *, returned_card_id: int | None = None) -> None:
        self.performed.extend(effects)


def block_of(tmp_path: Path, text: str) -> LoadedBlock:
    path = tmp_path / "block.txt"
    path.write_text(text)
    return load_block(str(path))


def referee_for(block: LoadedBlock, *, commander: bool = False) -> Kept:
    """A referee of a two-player game of ``block`` (in the block's order), alice and zoë_fx seated."""
    config = am.AuctionConfig(
        players=(ALICE, ZOE), cards=block.facts, shuffle_block=False, commander=commander
    )
    engine = am.AuctionEngine(config, seed=1)
    seats = {pid: PlayerState(pid, name=name) for pid, name in {**NAMES, REFEREE: "referee"}.items()}
    mirror = GameMirror(game_id=GAME, local_player_id=REFEREE, players=seats)
    referee = Kept.__new__(Kept)
    referee.bot = SimpleNamespace(  # type: ignore[assignment]
        client=SimpleNamespace(games={GAME: mirror}),
        chat=Chat(),
        gone_for_good=False,
        fleet=None,
        main=None,
        view_listeners=[],
        all_games=lambda: {GAME: referee},
    )
    referee.game_id = GAME
    referee.table = SimpleNamespace(  # type: ignore[assignment]
        engine=engine, apply=lambda action, action_id=None: engine.apply(action)
    )
    referee.engine_names = dict(NAMES)
    referee.block = block
    referee.options = AuctionOptions(commander=commander)
    referee.commands = CommandSet(referee)
    referee.closed = False
    referee.missed = MissedLines()
    referee.seat_names = {}
    referee.performed = []
    return referee


def said(referee: Kept, player: int, text: str) -> list[tuple[tuple[str, Any], str]]:
    """What the bot says (where, what) when ``player`` says ``text`` in the game's chat."""
    chat: Chat = referee.bot.chat  # type: ignore[assignment]
    before = len(chat.lines)

    async def scenario() -> None:
        referee._lock = asyncio.Lock()
        ctx = Context(referee.bot, "game", NAMES[player], player_id=player, game_id=GAME)
        ctx.reply_hook = referee.say
        assert await referee.handle_command(ctx, text)

    asyncio.run(scenario())
    return chat.lines[before:]


def drawn(referee: Kept, count: int) -> None:
    """alice's turn; she draws the block's first ``count`` cards (into her hand, hidden from zoë_fx)."""
    referee.engine.apply(am.BeginTurn(None, active=ALICE))
    referee.engine.apply(am.Draw(ALICE, count=count))


def opened_lot(referee: Kept) -> list[str]:
    """The names on the lot the last command opened."""
    opened = [e for e in referee.performed if isinstance(e, am.LotOpened)]
    assert opened, referee.performed
    return [ref.name for ref in opened[-1].cards]


COMMAS = "1 Mikaeus, the Lunarch\n1 Jaya Ballard, Task Mage\n1 Shock\n1 Grizzly Bears\n1 Grizzled Outrider\n"


def test_sell_keeps_a_name_with_commas_whole(tmp_path: Path) -> None:
    """Seen: `!sell Mikaeus, the Lunarch` and `!sell "Mikaeus, the Lunarch"` answered "no such card here"."""
    block = block_of(tmp_path, COMMAS)
    for text in ("!sell Mikaeus, the Lunarch", '!sell "Mikaeus, the Lunarch"', "!sell mikaeus,the lunarch"):
        referee = referee_for(block)
        drawn(referee, 3)
        assert said(referee, ALICE, text) == []
        assert opened_lot(referee) == ["Mikaeus, the Lunarch"]
    referee = referee_for(block)
    drawn(referee, 3)
    assert said(referee, ALICE, "!sell Jaya Ballard, Task Mage, Mikaeus, the Lunarch, Shock") == []
    assert opened_lot(referee) == ["Jaya Ballard, Task Mage", "Mikaeus, the Lunarch", "Shock"]


def test_a_refusal_suggesting_hand_cards_goes_to_the_player_alone(tmp_path: Path) -> None:
    referee = referee_for(block_of(tmp_path, COMMAS))
    drawn(referee, 5)
    lines = said(referee, ALICE, "!sell Griz")
    assert lines == [
        (("user", "alice"), "Refused: which one: Grizzly Bears or Grizzled Outrider?"),
        (("game", GAME), "alice: refused (the reason was sent to you privately)."),
    ]
    lines = said(referee, ALICE, "!sell Grizly Bears")
    assert lines[0] == (("user", "alice"), "Refused: no such card here; did you mean Grizzly Bears?")
    assert not [text for where, text in lines if where[0] == "game" and "Grizzly" in text]
    assert referee.engine.lot is None


def test_a_refusal_suggesting_public_cards_is_said_in_the_game(tmp_path: Path) -> None:
    """Cards bought and waiting for !cast or !keep were auctioned in the open: the question is public."""
    referee = referee_for(block_of(tmp_path, "1 Grizzly Bears\n1 Grizzled Outrider\n1 Shock\n"))
    engine = referee.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=2))
    engine.apply(am.Bid(ALICE, amount=1))
    engine.apply(am.Pass(ZOE))
    assert said(referee, ALICE, "!keep griz") == [
        (("game", GAME), "alice: which one: Grizzly Bears or Grizzled Outrider?")
    ]


DOUBLE_FACED = "3 Delver of Secrets\n3 Valki, God of Lies\n3 Fire // Ice\n"


def test_sold_and_kept_double_faced_cards_are_named_as_cockatrice_shows_them(tmp_path: Path) -> None:
    """Seen: the card moved was "Delver of Secrets" but the bot said "Sold: Delver of Secrets // Insectile
    Aberration ... drag Delver of Secrets // Insectile Aberration from your table"."""
    referee = referee_for(block_of(tmp_path, DOUBLE_FACED))
    engine = referee.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    view = render_view(
        engine.apply(am.AuctionFromBlock(ALICE, count=7)),
        engine,
        NAMES.__getitem__,
        judge=False,
        card_names=referee.block.game_names,
    )
    assert view.chat[0].startswith(
        "Auction 1: Delver of Secrets (creature 1/1), Delver of Secrets (creature 1/1)"
    )
    assert "Valki, God of Lies (creature 2/1)" in view.chat[0] and "Fire // Ice (instant)" in view.chat[0]
    assert view.lot_note.startswith(
        "Auction 1: Delver of Secrets, Delver of Secrets, Delver of Secrets, Valki"
    )
    engine.apply(am.Bid(ALICE, amount=1))
    view = render_view(
        engine.apply(am.Pass(ZOE)),
        engine,
        NAMES.__getitem__,
        judge=False,
        card_names=referee.block.game_names,
    )
    assert view.chat[0].startswith(
        "Sold: Delver of Secrets, Delver of Secrets, Delver of Secrets, Valki, God"
    )
    (asked,) = [line for line in view.chat if line.startswith("alice: !cast or !keep each of ")]
    assert asked.startswith("alice: !cast or !keep each of Delver of Secrets, Delver of Secrets, "), asked
    for typed, kept in (
        ("Delver of Secrets", "Delver of Secrets"),
        ("Fire", "Fire // Ice"),
        ("Tibalt, Cosmic Impostor", "Valki, God of Lies"),
    ):
        effects = engine.apply(am.Keep(ALICE, card=typed))
        view = render_view(
            effects, engine, NAMES.__getitem__, judge=False, card_names=referee.block.game_names
        )
        assert view.chat == [f"alice keeps {kept}.", f"alice: drag {kept} from your table to your hand."]
    assert "Insectile" not in referee.status_line() and "Tibalt" not in referee.status_line()
    assert (
        "!cast or !keep for Delver of Secrets, Delver of Secrets, Valki, God of Lies,"
        in referee.status_line()
    )


def test_keep_by_one_face_through_the_chat_command(tmp_path: Path) -> None:
    referee = referee_for(block_of(tmp_path, DOUBLE_FACED))
    engine = referee.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=9))
    engine.apply(am.Bid(ALICE, amount=1))
    engine.apply(am.Pass(ZOE))
    for typed in ("Delver of Secrets", "Fire", "Insectile Aberration", "Valki, God of Lies"):
        assert said(referee, ALICE, f"!keep {typed}") == []
    kept = [e.card.name for e in referee.performed if isinstance(e, am.CardKept)]
    assert kept == [
        "Delver of Secrets // Insectile Aberration",
        "Fire // Ice",
        "Delver of Secrets // Insectile Aberration",
        "Valki, God of Lies // Tibalt, Cosmic Impostor",
    ]


LEGENDS = "1 Mikaeus, the Lunarch\n1 Jaya Ballard, Task Mage\n1 Grizzly Bears\n1 Grizzled Outrider\n"


def commander_game(tmp_path: Path) -> Kept:
    referee = referee_for(block_of(tmp_path, LEGENDS), commander=True)
    engine = referee.engine
    engine.apply(am.StartPregame(None))
    while engine.phase == "pregame":  # nobody bids: each commander goes free to its first bidder
        engine.apply(am.Pass(engine.whose_bid()))
    assert set(engine.commanders) == {ALICE, ZOE}
    return referee


def test_cdamage_names_the_owner_as_players_type_it(tmp_path: Path) -> None:
    """Seen: `!cdamage 2 zoe_fx` and `!cdamage 2 @zoë_fx` (player zoë_fx) refused with a line naming
    nobody."""
    for typed in ("zoe_fx", "@zoë_fx", "ZOË_FX", "@Zoe_fx"):
        referee = commander_game(tmp_path)
        assert said(referee, ALICE, f"!cdamage 2 {typed}") == []
        taken = [e for e in referee.performed if isinstance(e, am.CommanderDamageTaken)]
        assert [(e.player, e.total) for e in taken] == [(ALICE, 2)], typed


def test_cdamage_for_an_unknown_owner_names_the_players(tmp_path: Path) -> None:
    referee = commander_game(tmp_path)
    lines = said(referee, ALICE, "!cdamage 2 bob")
    assert lines == [
        (
            ("game", GAME),
            "alice: no player 'bob' has a commander here; name whose commander hit you: !cdamage AMOUNT OWNER"
            " (alice or zoë_fx)",
        )
    ]
    assert not referee.performed


def test_cdamage_from_your_own_commander_is_recorded(tmp_path: Path) -> None:
    """90Y.7 counts damage from any one commander: an opponent who took yours (Mark of Mutiny, in the
    bundled block) can hit you with it. Seen: `!cdamage 5 alice` from alice refused as "no player 'alice'
    has a commander here"."""
    referee = commander_game(tmp_path)
    assert said(referee, ZOE, "!cdamage 3") == []  # no owner named: the other player's commander
    assert referee.engine.commander_damage[ZOE] == {referee.engine.commanders[ALICE]: 3}
    referee.performed.clear()
    assert said(referee, ALICE, "!cdamage 5 alice") == []
    assert said(referee, ALICE, "!cdamage 16 alice") == []
    taken = [e for e in referee.performed if isinstance(e, am.CommanderDamageTaken)]
    own = referee.engine.commanders[ALICE]
    assert [(e.player, e.total, e.commander.index) for e in taken] == [(ALICE, 5, own), (ALICE, 21, own)]
    assert any(isinstance(e, am.PlayerLost) and e.player == ALICE for e in referee.performed)


def test_player_names_fold_as_card_names_do() -> None:
    from cockatrice_ext.bot.words import player_key, players_named

    assert player_key("@Zoë_FX") == player_key("zoe_fx") == player_key('"zoë_fx"') == "zoe_fx"
    named = {1: "zoë_fx", 2: "zoltan", 3: "al"}.__getitem__
    assert players_named("zoe_fx", [1, 2, 3], named) == [1]
    assert players_named("zo", [1, 2, 3], named) == []  # too short a start
    assert players_named("zol", [1, 2, 3], named) == [2]
    assert players_named("al", [1, 2, 3], named) == [3]  # a whole name, however short
