"""``cockatrice-ext bot``: run the referee bot in Servatrice rooms."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cockatrice_ext.cli.cards import CardSources, card_source_option
from cockatrice_ext.formats import options as game_options

if TYPE_CHECKING:
    from cockatrice_ext.bot.blocks import BlockReading
    from cockatrice_ext.client.client import ServerInfo
    from cockatrice_ext.journal import Journal

ALL_FORMATS = ("auction", "vortex", "combat", "market", "autobattler")

LOGGER = logging.getLogger(__name__)


class GameOptionValue(click.ParamType):
    """A flag that stands for one game option (``--bid-timeout`` is ``--option auction.timer``): read by
    that option's own grammar, so one range and one message; ``min``/``max`` are its bounds."""

    def __init__(self, format_name: str, option_name: str) -> None:
        self.option = next(o for o in game_options.options_of(format_name) if o.name == option_name)
        self.word = f"{format_name}.{option_name}"
        self.name = self.word
        self.min, self.max = self.option.low, self.option.high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return self.option.parse(str(value))
        except game_options.OptionError as exc:
            self.fail(str(exc), param, ctx)

    def same_as(self, placeholder: str) -> str:
        """``the same as --option auction.timer=SECONDS (10-3600|off)``, for help texts."""
        return f"the same as --option {self.word}={placeholder} ({self.option.allowed()})"


BID_TIMEOUT = GameOptionValue("auction", "timer")
STARTING_GOLD = GameOptionValue("auction", "gold")


@click.group()
def bot() -> None:
    """Run the referee/banker bot."""


@bot.command("run")
@click.argument("url")
@click.option("--user", required=True, help="The bot's account name on the server.")
@click.option(
    "--password",
    envvar="COCKATRICE_PASSWORD",
    default=None,
    help="Account password (or COCKATRICE_PASSWORD). Registered accounts keep their seats across restarts.",
)
@click.option(
    "--room", "rooms", multiple=True, help="Room name or id to sit in (repeatable; default: the first room)."
)
@click.option(
    "--extra-user",
    "extra_users",
    multiple=True,
    metavar="NAME",
    help="Another account (same password) that opens and referees games and carries private conversations,"
    " with its own flood budget; repeatable. Mind the server's max_users_per_address (4 by default).",
)
@click.option(
    "--journal",
    "journal_spec",
    metavar="PATH|URL",
    default="cockatrice-ext.sqlite3",
    show_default=True,
    help="Journal of every accepted action, so a restarted bot resumes its games: an SQLite file (the"
    " default is in the current folder: start the bot from the same folder, or give the path), or"
    " postgresql://USER@HOST:PORT/DB (needs the postgres extra) for one database several bots share: bots"
    " on one PostgreSQL journal form a fleet (one answers each room, games go to the least loaded, a dead"
    " bot's games are taken over within seconds; give each its own --user).",
)
@click.option(
    "--format",
    "formats",
    type=click.Choice(ALL_FORMATS),
    multiple=True,
    help="Formats to offer (repeatable; default: all).",
)
@click.option("--auction-block", default="auction-sample", show_default=True, help="Default auction block.")
@click.option(
    "--bid-timeout",
    type=BID_TIMEOUT,
    default=None,
    metavar="SECONDS",
    help=f"Seconds per bid (default: no timer); {BID_TIMEOUT.same_as('SECONDS')}.",
)
@click.option(
    "--auction-starting-gold",
    type=STARTING_GOLD,
    default=None,
    metavar="GOLD",
    help=f"Gold each auction player starts with (default 10); {STARTING_GOLD.same_as('GOLD')}.",
)
@click.option(
    "--auction-seed",
    type=int,
    default=None,
    help="Fixed block shuffle for reproducible auction games (default: a fresh random seed per game).",
)
@click.option(
    "--option",
    "game_option_words",
    multiple=True,
    metavar="FORMAT.KEY=VALUE",
    help="A game option's default for the room, e.g. auction.timer=60 or autobattler.carousel (repeatable;"
    " players may still choose otherwise). 'cockatrice-ext bot options' lists them.",
)
@card_source_option
@click.option(
    "--judge",
    is_flag=True,
    help="Ask for a judge seat in every game, not only with a judge account: servers that allow creating"
    " games as judge grant it to anyone (others give a plain seat). As judge the bot moves cards into"
    " hands itself and keeps each player's gold on a Gold card on their own table.",
)
@click.option(
    "--relaxed-flood",
    is_flag=True,
    help="The server has flood protection off or relaxed: do not pace chat and game commands (a refusal"
    " as flood all the same makes the bot pace by the shipped limits).",
)
@click.option(
    "--name-wait",
    type=click.FloatRange(0),
    default=30.0,
    show_default=True,
    metavar="SECONDS",
    help="An unregistered name still in use (the bot's own dropped session, until the server's inactivity"
    " timeout, 15 s in Servatrice's shipped settings): log in again for this long before taking the name"
    " the server offers (NAME_1), which the rooms are then told. Raise it on a server with a longer timeout.",
)
@click.option(
    "--waiting-games",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    metavar="N",
    help="Games one player may have asked for that still wait for players, at once (the server lets the"
    " referee's account create only a few games per room, for everyone). A game nobody sits down in is"
    " closed after 5 minutes.",
)
@click.option(
    "--room-commands",
    type=click.Choice(["all", "addressed"]),
    default="all",
    show_default=True,
    help="Which room commands to answer: all, or only those addressed to this bot by its name"
    " ('RefereeBot: !games', '@RefereeBot !help', '!games @RefereeBot'), for a room another referee shares"
    " (else both answer every command, and one !auction new opens two games). Game chat and private"
    " messages are answered as always.",
)
@click.option(
    "--web",
    "web_address",
    metavar="HOST:PORT",
    default=None,
    help="Also serve the live web view (boards, private pages) on HOST:PORT (a bare PORT binds 127.0.0.1).",
)
@click.option(
    "--web-url",
    metavar="URL",
    default=None,
    help="The web view's public address, used in the links sent to players (default: http://HOST:PORT).",
)
def run(
    url: str,
    user: str,
    password: str | None,
    rooms: tuple[str, ...],
    extra_users: tuple[str, ...],
    journal_spec: str,
    formats: tuple[str, ...],
    auction_block: str,
    bid_timeout: int | None,
    auction_starting_gold: int | None,
    auction_seed: int | None,
    game_option_words: tuple[str, ...],
    card_source: CardSources | None,
    judge: bool,
    relaxed_flood: bool,
    name_wait: float,
    waiting_games: int,
    room_commands: str,
    web_address: str | None,
    web_url: str | None,
) -> None:
    """Connect to URL (tcp://host:4747 or ws://host:4748/servatrice) and referee games until Ctrl-C.

    Players ask for a game in room chat, e.g. "!auction new 2"; "!help" lists the commands. Every block the
    bot loads (--auction-block, a pool) is read as 'block check' and 'export' read it: with --card-source
    and the custom set beside the list.
    """
    from cockatrice_ext.bot.auction import AuctionOptions
    from cockatrice_ext.bot.combat import CombatOptions
    from cockatrice_ext.bot.league_options import LeagueOptions
    from cockatrice_ext.bot.runtime import Bot, BotOptions, SessionEnded
    from cockatrice_ext.bot.vortex import VortexOptions
    from cockatrice_ext.client import ClientError, FloodLimits, ServerAddress
    from cockatrice_ext.journal import JournalError

    try:
        ServerAddress.parse(url)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="URL") from None
    client_options: dict[str, object] = {"name_wait": name_wait}
    if relaxed_flood:
        client_options["flood_limits"] = FloodLimits.unlimited()
    combat_source = _combat_card_source(card_source, formats or ALL_FORMATS)
    options = BotOptions(
        url=url,
        user=user,
        password=password,
        rooms=rooms,
        extra_users=extra_users,
        max_waiting_per_user=waiting_games,
        room_commands=room_commands,
        formats=formats or ALL_FORMATS,
        client_options=client_options,
        format_options=_with_game_options(
            {
                "auction": AuctionOptions(block=auction_block, seed=auction_seed, judge=judge),
                "vortex": VortexOptions(),  # asks for a judge seat anyway: a pick goes straight to hand
                "combat": CombatOptions(card_source=combat_source, judge=judge),
                "market": LeagueOptions(format="market"),
                "autobattler": LeagueOptions(format="autobattler"),
            },
            game_option_words,
            {
                "--bid-timeout": (BID_TIMEOUT, bid_timeout),
                "--auction-starting-gold": (STARTING_GOLD, auction_starting_gold),
            },
        ),
    )
    from cockatrice_ext.bot.blocks import lists_read_by

    with lists_read_by(block_reading(card_source, (auction_block,))):  # every block, as block check reads it
        _check_card_data(options.formats, auction_block, combat_source)
        web_options = _web_options(web_address, web_url)
        journal = _open_journal(journal_spec)
        if warning := newer_journal_warning(journal):
            click.echo(f"warning: {warning}", err=True)
        warn_of_other_servers(journal, url)
        referee = Bot(options, journal=journal)

        async def main() -> None:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(signum, referee.stop)
            web_view = await _start_web(referee, web_options) if web_options is not None else None

            def ready() -> None:
                click.echo(
                    f"referee {referee.client.user_name} is in {len(referee.room_ids)} room(s); Ctrl-C stops"
                )
                if warning := unshared_deck_lists_warning(referee.client.server, options.formats):
                    click.echo(f"warning: {warning}", err=True)

            try:
                await referee.run_forever(on_ready=ready, on_stop=click.echo)
            finally:
                if web_view is not None:
                    await web_view.stop()

        try:
            asyncio.run(main())
        except (SessionEnded, JournalError) as exc:  # the bot may not (or no longer) act: one line says why
            raise click.ClickException(str(exc)) from None
        except (OSError, ClientError) as exc:
            from cockatrice_ext.cli.server import error_text

            raise click.ClickException(f"cannot run the bot on {url}: {error_text(exc)}") from exc


def _with_game_options(
    defaults: dict[str, Any],
    words: tuple[str, ...],
    flags: dict[str, tuple[GameOptionValue, Any]] | None = None,
) -> dict[str, Any]:
    """Each format's room defaults with the ``--option FORMAT.key=value`` words and the dedicated ``flags``
    (flag -> its option and value, ``None`` when not given) applied; bad ones exit 2."""
    by_format: dict[str, list[str]] = {}
    try:
        for text in words:
            format_name, word = game_options.parse_operator_option(text)
            by_format.setdefault(format_name, []).append(word)
        chosen = {name: game_options.parse(name, by_format.get(name, [])) for name in defaults}
    except game_options.OptionError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None
    for flag, (option_type, value) in (flags or {}).items():
        if value is None:
            continue
        format_name, key = option_type.word.split(".")
        if key in chosen[format_name]:
            raise click.UsageError(f"{flag} is the same as --option {option_type.word}: give one of them")
        chosen[format_name][key] = value
    return {name: game_options.apply(name, table, chosen[name]) for name, table in defaults.items()}


def unshared_deck_lists_warning(server: ServerInfo | None, formats: tuple[str, ...]) -> str:
    """What the operator should know of a server whose games cannot share deck lists, for ``formats``."""
    if server is None or server.shares_deck_lists:
        return ""
    lost = []
    if "combat" in formats:
        lost.append("Magic Combat Rules games cannot be refereed")
    if {"market", "autobattler"} & set(formats):
        lost.append("league games start with their decks unchecked")
    if not lost:
        return ""
    return (
        f"{server.name} runs Servatrice {server.version_number}, whose games do not share deck lists"
        f" (2.11 and later do): {' and '.join(lost)} there"
    )


def block_reading(card_source: CardSources | None, own: tuple[str, ...] = ()) -> BlockReading:
    """How ``bot run`` reads every block (:class:`cockatrice_ext.bot.blocks.BlockReading`): as ``block
    check`` and ``export`` read a list (the one reader,
    :func:`cockatrice_ext.decks.resolve_list.read_block`: ``card_source`` as ``--card-source`` stacks, the
    custom set beside the list, Un-card names without their quote marks, Windows-1252 text with a warning,
    no sideboard), so an operator's block the commands accept is the bot's block; their notes and warnings
    go to stderr, the bot's log.

    Files are read only for the operator's own blocks ``own`` (``--auction-block``); any other name is a
    bundled block's: a block named in room chat (``!vortex new 2 POOL``) never opens a file of its sender's
    choice, nor says whether one exists."""
    from cockatrice_ext.bot.blocks import BlockReading
    from cockatrice_ext.cli.cards import say_on_stderr

    return BlockReading(card_source=card_source, own=own, say=say_on_stderr)


def _combat_card_source(card_source: CardSources | None, formats: tuple[str, ...]) -> str:
    """The card data Combat's deck checks read (:func:`cockatrice_ext.bot.combat.card_database`: one source,
    read alone; ``""`` for every real card): the one ``--card-source``. Several are refused when Combat is
    offered: its deck checks read only one."""
    if card_source is not None and not card_source.sources:
        raise click.UsageError("--no-default-cards needs at least one --card-source")
    if card_source is None or "combat" not in formats:
        return ""
    if len(card_source.sources) > 1:
        raise click.BadParameter(
            "Magic Combat Rules deck checks read one card source: give one --card-source, or leave combat"
            " out (--format)",
            param_hint="--card-source",
        )
    (source,) = card_source.sources
    if card_source.with_default:
        click.echo(
            f"warning: Magic Combat Rules deck checks read {source} alone, not over the built-in cards"
            " (blocks read it over them)",
            err=True,
        )
    return source


def _check_card_data(formats: tuple[str, ...], auction_block: str, card_source: str) -> None:
    """Load the auction block (as every block is read: :func:`block_reading`) and the card data for Combat's
    deck checks now, as a game would, so a bad one is refused at start, not at every ``!auction new`` or
    ``!combat new``. The default card data (every real card, about a second to load) is left for the first
    game."""
    if "auction" in formats:
        from cockatrice_ext.bot.blocks import CardSourceProblem, load_block

        try:
            load_block(auction_block)
        except CardSourceProblem as exc:
            raise click.BadParameter(_one_line(exc), param_hint="--card-source") from None
        except (LookupError, ValueError, OSError) as exc:
            raise click.BadParameter(_one_line(exc), param_hint="--auction-block") from None
    if "combat" not in formats:
        return
    from cockatrice_ext.cards.sources import ENV_VAR

    from_env = os.environ.get(ENV_VAR, "").strip()
    if not (card_source or from_env):
        return
    from cockatrice_ext.bot.combat import card_database
    from cockatrice_ext.cards.errors import CardDataError

    try:
        card_database(card_source)
    except (CardDataError, OSError) as exc:
        if card_source:
            raise click.BadParameter(_one_line(exc), param_hint="--card-source") from None
        raise click.ClickException(f"the card data in {ENV_VAR} does not load: {_one_line(exc)}") from None


def _one_line(exc: BaseException) -> str:
    """An error's message on one line (a block's unknown cards listed after its first line)."""
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return " ".join(lines) or type(exc).__name__


@bot.command("options")
@click.argument("format_name", metavar="[FORMAT]", required=False, type=click.Choice(ALL_FORMATS))
def options_command(format_name: str | None) -> None:
    """List the game options of every format (or of FORMAT): what players may choose when they create a
    game or league, and what --option sets as a room's default."""
    from cockatrice_ext.formats import options as game_options

    for name in (format_name,) if format_name else ALL_FORMATS:
        click.echo(f"{name}:")
        for line in game_options.help_lines(name):
            click.echo(f"  {line}")


def _web_options(address: str | None, public_url: str | None) -> Any:
    """The web view's options from ``--web``/``--web-url`` (None without ``--web``); bad values exit 2."""
    if address is None:
        if public_url is not None:
            raise click.BadParameter("--web-url needs --web HOST:PORT", param_hint="--web-url")
        return None
    from cockatrice_ext.web.address import check_public_url, parse_listen
    from cockatrice_ext.web.server import WebOptions

    try:
        host, port = parse_listen(address)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--web") from None
    try:
        url = check_public_url(public_url) if public_url is not None else ""
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--web-url") from None
    return WebOptions(host=host, port=port, public_url=url)


async def _start_web(referee: Any, options: Any) -> Any:
    """Serve the web view from the bot's own event loop (one clear error if the address is taken)."""
    from cockatrice_ext.web.server import WebView

    web_view = WebView(referee, options)
    try:
        await web_view.start()
    except OSError as exc:
        raise click.ClickException(
            f"cannot serve the web view on {options.host}:{options.port}: {exc}"
        ) from None
    click.echo(f"web view: {web_view.base_url}/")
    return web_view


def newer_journal_warning(journal: Journal) -> str:
    """What to tell the operator when a newer cockatrice-ext has written the journal (a rollback): this one
    goes on, but tables whose rules changed since may not replay. "" when none has."""
    from cockatrice_ext import __version__

    newer = journal.written_by_newer
    if not newer:
        return ""
    written = "last written" if journal.last_written_by == newer else "written"
    return (
        f"this journal was {written} by cockatrice-ext {newer}, newer than this {__version__}:"
        " tables whose rules changed may not replay; upgrade"
    )


def warn_of_other_servers(journal: Journal, url: str) -> None:
    """One WARNING when the journal holds open games or leagues of another server address than ``url``:
    a table's key starts with the address the bot was started with, so another spelling of the same
    server (``ws://localhost:4748/servatrice`` for ``tcp://127.0.0.1:4747``) resumes none of them."""
    from cockatrice_ext.journal import journal_location

    others: dict[str, list[str]] = {}
    for key in journal.open_tables():
        for kind, mark in (("game", ":game:"), ("league", ":league:")):
            server, found, rest = key.partition(mark)
            if found and server != url:
                others.setdefault(server, []).append(f"{kind} #{rest.rsplit(':', 1)[-1]}")
                break
    if not others:
        return
    listed = "; ".join(
        f"{server} ({', '.join(tables[:8])}{', ...' if len(tables) > 8 else ''})"
        for server, tables in sorted(others.items())
    )
    LOGGER.warning(
        "the journal %s holds open games or leagues of another server address than %s: %s. They are"
        " resumed only by a bot started with their address: if it is the same server, start the bot with"
        " that URL instead",
        journal_location(journal.path),
        url,
        listed,
    )


def _open_journal(spec: str) -> Journal:
    """The journal ``--journal`` names; one error line when it cannot be opened."""
    import sqlite3

    from cockatrice_ext.journal import POSTGRES_SCHEMES, Journal, JournalError

    if not spec.startswith(POSTGRES_SCHEMES) and Path(spec).exists() and not Path(spec).is_file():
        raise click.BadParameter(f"{spec} is not a regular file", param_hint="--journal")
    folder = Path(spec).parent
    if not spec.startswith(POSTGRES_SCHEMES) and not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise click.ClickException(f"cannot open the journal {spec}: the folder {folder} {what}")
    try:
        return Journal(spec)
    except JournalError as exc:
        raise click.ClickException(str(exc)) from None
    except sqlite3.Error as exc:
        read_only = "" if spec.startswith(POSTGRES_SCHEMES) else _read_only(Path(spec))
        if read_only:
            raise click.ClickException(
                f"the journal {spec} cannot be written: {read_only} ({exc}); the bot records every move"
                " there: give it a writable journal (--journal)"
            ) from None
        raise click.ClickException(f"cannot open the journal {spec}: {exc}") from None


def _read_only(path: Path) -> str:
    """Why an SQLite journal at ``path`` cannot be written, if it cannot: the file, or its folder (SQLite
    writes its log beside it), is read-only (a read-only mount, an immutable file or folder, permissions)."""
    if path.exists() and not os.access(path, os.W_OK):
        return "it is read-only"
    folder = path.parent
    if folder.is_dir() and not os.access(folder, os.W_OK):
        return f"its folder {folder} is read-only (SQLite keeps its log beside it)"
    return ""
