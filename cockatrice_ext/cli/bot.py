"""``cockatrice-ext bot``: run the referee bot in Servatrice rooms."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path

import click

from cockatrice_ext.formats.auction import MAX_STARTING_GOLD

ALL_FORMATS = ("auction", "vortex", "combat", "market", "autobattler")


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
@click.option("--room", "rooms", multiple=True, help="Room to sit in (repeatable; default: the first room).")
@click.option(
    "--extra-user",
    "extra_users",
    multiple=True,
    metavar="NAME",
    help="Another account (same password) that opens and referees games, with its own flood budget;"
    " repeatable. Mind the server's max_users_per_address (4 by default).",
)
@click.option(
    "--journal",
    "journal_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("cockatrice-ext.sqlite3"),
    show_default=True,
    help="SQLite journal: every accepted action, so a restarted bot resumes its games.",
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
    "--bid-timeout", type=float, default=0.0, show_default=True, help="Seconds per bid; 0 = no timer."
)
@click.option(
    "--auction-starting-gold",
    type=click.IntRange(0, MAX_STARTING_GOLD),
    default=10,
    show_default=True,
    help="Gold each auction player starts with.",
)
@click.option(
    "--auction-seed",
    type=int,
    default=None,
    help="Fixed block shuffle for reproducible auction games (default: a fresh random seed per game).",
)
@click.option(
    "--card-source",
    default="",
    help="Card data for checking the decks players load (default: every real card, shipped offline).",
)
@click.option(
    "--relaxed-flood",
    is_flag=True,
    help="The server has flood protection off or relaxed: do not pace chat and game commands.",
)
def run(
    url: str,
    user: str,
    password: str | None,
    rooms: tuple[str, ...],
    extra_users: tuple[str, ...],
    journal_path: Path,
    formats: tuple[str, ...],
    auction_block: str,
    bid_timeout: float,
    auction_starting_gold: int,
    auction_seed: int | None,
    card_source: str,
    relaxed_flood: bool,
) -> None:
    """Connect to URL (tcp://host:4747 or ws://host:4748/servatrice) and referee games until Ctrl-C.

    Players ask for a game in room chat, e.g. "!auction new 2"; "!help" lists the commands.
    """
    from cockatrice_ext.bot.auction import AuctionOptions
    from cockatrice_ext.bot.combat import CombatOptions
    from cockatrice_ext.bot.runtime import Bot, BotOptions
    from cockatrice_ext.client import ClientError, FloodLimits

    client_options: dict[str, object] = {}
    if relaxed_flood:
        client_options["flood_limits"] = FloodLimits.unlimited()
    options = BotOptions(
        url=url,
        user=user,
        password=password,
        rooms=rooms,
        extra_users=extra_users,
        journal_path=journal_path,
        formats=formats or ALL_FORMATS,
        client_options=client_options,
        format_options={
            "auction": AuctionOptions(
                block=auction_block,
                bid_timeout=bid_timeout,
                starting_gold=auction_starting_gold,
                seed=auction_seed,
            ),
            "combat": CombatOptions(card_source=card_source),
        },
    )
    referee = Bot(options)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(signum, referee.stop)
        await referee.run_forever(
            on_ready=lambda: click.echo(
                f"referee {referee.client.user_name} is in {len(referee.room_ids)} room(s); Ctrl-C stops"
            )
        )

    try:
        asyncio.run(main())
    except (OSError, ClientError) as exc:
        raise click.ClickException(f"cannot run the bot on {url}: {exc}") from exc
