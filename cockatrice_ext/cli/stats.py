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


def _open_journal(spec: str) -> Journal:
    """The journal ``--journal`` names (an SQLite file that exists, or the bot's PostgreSQL URL), opened
    for reading only: a report writes nothing, so it works on a copy on read-only media and next to a
    running bot alike. A journal older than this program is upgraded first where it can be written."""
    from cockatrice_ext.journal import POSTGRES_SCHEMES, Journal, JournalError, JournalOutdated

    if not spec.startswith(POSTGRES_SCHEMES) and not Path(spec).exists():
        raise BadJournal(f"no journal at {spec} (run the bot first, or pass --journal)")
    try:
        try:
            return Journal(spec, read_only=True)
        except JournalOutdated as outdated:
            try:
                return Journal(spec)
            except (JournalError, sqlite3.OperationalError):
                raise BadJournal(str(outdated)) from None
    except JournalError as exc:
        raise BadJournal(str(exc)) from None
    except sqlite3.DatabaseError as exc:
        raise BadJournal(f"{spec} is not a cockatrice-ext journal ({exc})") from None


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
    metavar="PATH|URL",
    default=DEFAULT_JOURNAL,
    show_default=True,
    help="The bot's journal, as given to 'bot run --journal': an SQLite file or a postgresql:// URL.",
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
def prices(journal_path: str, card_filter: str | None, sort: str, as_json: bool) -> None:
    """Per-card auction prices across every game in the journal."""
    from cockatrice_ext.reports.prices import format_price as _fmt
    from cockatrice_ext.reports.prices import journal_prices

    journal = _open_journal(journal_path)
    try:
        rows = list(journal_prices(journal).values())
    except sqlite3.DatabaseError as exc:
        raise BadJournal(f"{journal_path} is not a cockatrice-ext journal ({exc})") from None
    if card_filter:  # as players type names (a phone's apostrophe, no accents), anywhere in the name
        from cockatrice_ext.cards.resolve import fold_name
        from cockatrice_ext.cards.typed import typed_key

        wanted = typed_key(card_filter)
        rows = [r for r in rows if wanted in fold_name(r.name)]
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
        "Every player's gold over the Auction game GAME (its number, or its journal key when several"
        " servers' games share the journal; `stats chart tables` lists them).",
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
    def command(subject: str, journal_path: str, out: Path) -> None:
        from cockatrice_ext.reports.journal_charts import NoChart, prepare_chart

        journal = _open_journal(journal_path)
        if kind != "prices":
            subject = _table_key(journal, subject)
        try:
            draw = prepare_chart(journal, kind, subject)
        except NoChart as exc:
            hint = "" if kind == "prices" else " (`stats chart tables` lists its games and leagues)"
            raise BadJournal(f"{exc} in {journal_path}{hint}") from None
        _write_chart(out, draw())


def _table_key(journal: Journal, subject: str) -> str:
    """The journal key ``subject`` names: the key itself, or the number it ends with (``2``, ``#2``) when
    one game or league of the journal has it; several are listed, to choose by key."""
    from cockatrice_ext.reports.history import chartable_tables

    keys = [key for key, _engine, _closed in chartable_tables(journal)]
    if subject in keys:
        return subject
    number = subject.removeprefix("#")
    ending = [key for key in keys if key.rsplit(":", 1)[-1] == number]
    if len(ending) > 1:
        raise BadJournal(f"{subject} names several tables; give one of their keys: {', '.join(ending)}")
    return ending[0] if ending else subject


for _kind, _metavar, _help in CHART_COMMANDS:
    _chart_command(_kind, _metavar, _help)


@chart.command("tables")
@JOURNAL_OPTION
def chart_tables(journal_path: str) -> None:
    """The journal's games and leagues that have charts (their keys, engine and state, and what the charts
    call them)."""
    from cockatrice_ext.reports.history import chartable_tables, table_title

    journal = _open_journal(journal_path)
    tables = chartable_tables(journal)
    if not tables:
        click.echo(f"nothing recorded yet: no Auction game or league with a move in {journal_path}")
    for key, engine, closed in tables:
        title = table_title(journal, key, engine)
        click.echo(f"{key}  {engine}  {'closed' if closed else 'open'}  {title}")
