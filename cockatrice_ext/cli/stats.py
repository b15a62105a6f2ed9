"""``cockatrice-ext stats``: reports over the referee's journal."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from cockatrice_ext.journal import Journal

DEFAULT_JOURNAL = "cockatrice-ext.sqlite3"


class BadJournal(click.ClickException):
    """No journal there, not a journal, or no such game or league in it: bad input, exit code 2."""

    exit_code = 2


def _open_journal(journal_path: Path) -> Journal:
    from cockatrice_ext.journal import Journal

    if not journal_path.exists():
        raise BadJournal(f"no journal at {journal_path} (run the bot first, or pass --journal)")
    try:
        journal = Journal(journal_path)
    except sqlite3.DatabaseError as exc:
        raise BadJournal(f"{journal_path} is not a cockatrice-ext journal ({exc})") from None
    return journal


def _write_chart(out: Path, svg: bytes) -> None:
    from cockatrice_ext.fsutil import UnsafeOutput, atomic_write_bytes

    try:
        atomic_write_bytes(out, svg)
    except UnsafeOutput as exc:
        raise BadJournal(str(exc)) from None
    click.echo(f"wrote {out}")


JOURNAL_OPTION = click.option(
    "--journal",
    "journal_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_JOURNAL,
    show_default=True,
    help="The bot's SQLite journal.",
)
OUT_OPTION = click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The SVG file to write (replaced atomically).",
)


@click.group()
def stats() -> None:
    """Reports over the referee's journal."""


@stats.command("prices")
@JOURNAL_OPTION
@click.option("--card", "card_filter", help="Only cards whose name contains this text.")
@click.option(
    "--sort",
    type=click.Choice(["median", "name", "offered", "mean"]),
    default="median",
    show_default=True,
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def prices(journal_path: Path, card_filter: str | None, sort: str, as_json: bool) -> None:
    """Per-card auction prices across every game in the journal."""
    from cockatrice_ext.reports.prices import format_price as _fmt
    from cockatrice_ext.reports.prices import journal_prices

    journal = _open_journal(journal_path)
    try:
        rows = list(journal_prices(journal).values())
    except sqlite3.DatabaseError as exc:
        raise BadJournal(f"{journal_path} is not a cockatrice-ext journal ({exc})") from None
    if card_filter:
        rows = [r for r in rows if card_filter.casefold() in r.name.casefold()]
    key = {
        "name": lambda r: r.name.casefold(),
        "offered": lambda r: (-r.offered, r.name),
        "median": lambda r: (-(r.median or 0), r.name),
        "mean": lambda r: (-(r.mean or 0), r.name),
    }[sort]
    rows.sort(key=key)  # type: ignore[arg-type]
    if as_json:
        payload = [
            {
                "name": r.name,
                "offered": r.offered,
                "sold": r.sold,
                "unsold": r.unsold,
                "games": len(r.games),
                "median": r.median,
                "mean": r.mean,
                "min": r.low,
                "max": r.high,
                "prices": r.prices,
            }
            for r in rows
        ]
        click.echo(json.dumps(payload, indent=2))
        return
    if not rows:
        click.echo("no auctions recorded yet")
        return
    width = max(len(r.name) for r in rows)
    click.echo(f"{'card':<{width}}  offered  sold  median  mean   min  max  games")
    for r in rows:
        click.echo(
            f"{r.name:<{width}}  {r.offered:>7}  {r.sold:>4}  {_fmt(r.median):>6}  {_fmt(r.mean):>4}"
            f"  {_fmt(r.low):>4}  {_fmt(r.high):>3}  {len(r.games):>5}"
        )


@stats.group("chart")
def chart() -> None:
    """Charts (SVG) from the journal: a card's prices, gold over a game, a league's standings."""


CHART_COMMANDS = (
    ("prices", "CARD", "CARD's auction price at each sale, oldest game first."),
    (
        "gold",
        "GAME",
        "Every player's gold over the Auction game GAME (its journal key; see `stats chart tables`).",
    ),
    (
        "standings",
        "LEAGUE",
        "Points (Market Draft) or poison (AutoBattler) per player by round of LEAGUE (its key).",
    ),
)


def _chart_command(kind: str, metavar: str, help_text: str) -> None:
    """Add ``stats chart KIND SUBJECT --out FILE`` (all three differ only in what they chart)."""

    @chart.command(kind, help=help_text)
    @click.argument("subject", metavar=metavar)
    @JOURNAL_OPTION
    @OUT_OPTION
    def command(subject: str, journal_path: Path, out: Path) -> None:
        from cockatrice_ext.reports.journal_charts import NoChart, prepare_chart

        try:
            draw = prepare_chart(_open_journal(journal_path), kind, subject)
        except NoChart as exc:
            raise BadJournal(f"{exc} in {journal_path}") from None
        _write_chart(out, draw())


for _kind, _metavar, _help in CHART_COMMANDS:
    _chart_command(_kind, _metavar, _help)


@chart.command("tables")
@JOURNAL_OPTION
def chart_tables(journal_path: Path) -> None:
    """The journal's games and leagues that have charts (their keys, engine and state)."""
    from cockatrice_ext.reports.history import chartable_tables

    for key, engine, closed in chartable_tables(_open_journal(journal_path)):
        click.echo(f"{key}  {engine}  {'closed' if closed else 'open'}")
