"""``cockatrice-ext stats``: reports over the referee's journal."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import click

DEFAULT_JOURNAL = "cockatrice-ext.sqlite3"


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


@click.group()
def stats() -> None:
    """Reports over the referee's journal."""


@stats.command("prices")
@click.option(
    "--journal",
    "journal_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_JOURNAL,
    show_default=True,
    help="The bot's SQLite journal.",
)
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
    from cockatrice_ext.journal import Journal
    from cockatrice_ext.reports.prices import journal_prices

    if not journal_path.exists():
        raise click.ClickException(f"no journal at {journal_path} (run the bot first, or pass --journal)")
    try:
        rows = list(journal_prices(Journal(journal_path)).values())
    except sqlite3.DatabaseError as exc:
        raise click.ClickException(f"{journal_path} is not a cockatrice-ext journal ({exc})") from None
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
