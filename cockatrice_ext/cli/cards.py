"""``cockatrice-ext cards``: look cards up; plus the ``--card-source`` option every command shares.

``card_source_option`` and :func:`open_card_source` are the one way a command gets card data (for a
list, :func:`cockatrice_ext.decks.resolve_list.list_card_data`, which ``export``, ``block check`` and the
bot share):
no option means ``$COCKATRICE_EXT_CARDS`` or else the embedded cards (every real card, fast);
``--card-source`` takes a file or folder of any supported kind, ``cockatrice`` (your own Cockatrice
install), ``scryfall`` or ``default``; it may repeat: sources merge in order, later ones winning, on
top of the built-in cards (``--no-default-cards`` leaves those out).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cockatrice_ext.cards.errors import CardDataError, UnknownCardsError, latin_letters
from cockatrice_ext.cards.model import Card, CardDatabase
from cockatrice_ext.decks.resolve_list import CardSources

if TYPE_CHECKING:
    from cockatrice_ext.cards.resolve import Match, NameIndex

F = TypeVar("F", bound=Callable[..., Any])

PROGRESS_THRESHOLD = 4 * 1024 * 1024  # show a progress bar for sources bigger than this
CARD_SOURCE_HELP = (
    "Card data: a Cockatrice cards.xml/custom set, MTGJSON (AllPrintings, set or AtomicCards; .xz/.gz ok), "
    "Scryfall bulk JSON, Forge card scripts (file/folder/zip), a Cockatrice data folder, 'cockatrice' "
    "(your Cockatrice install), 'scryfall' (ask the Scryfall API, cached) or 'default'. "
    "Repeatable: sources merge in order, later ones winning, on top of the built-in cards. "
    "Default: $COCKATRICE_EXT_CARDS, else the built-in cards (every real card up to 2022-04)."
)


class CardDataProblem(click.ClickException):
    """Card data that cannot be used (missing, unreadable, malformed): bad input, exit code 2, as an
    unreadable list is; 1 is kept for output that cannot be written."""

    exit_code = 2


def say_on_stderr(line: str) -> None:
    """Say a reader's or resolver's line (``note: ...``, ``warning: ...``) on stderr, where every command
    says them."""
    click.echo(line, err=True)


@contextmanager
def progress_bar(size: int, label: str) -> Iterator[Callable[[int], None]]:
    """A click progress bar on stderr for a card source of ``size`` bytes, none for a source under
    :data:`PROGRESS_THRESHOLD` (:data:`cockatrice_ext.decks.resolve_list.ProgressBar`)."""
    if size < PROGRESS_THRESHOLD:
        yield lambda _: None
        return
    with click.progressbar(length=size, label=label, file=sys.stderr, show_eta=True) as bar:
        yield bar.update


def card_source_option(func: F) -> F:
    """Add ``--card-source PATH`` (repeatable) and ``--no-default-cards`` to a command; the command gets
    one parameter ``card_source``: ``None`` when neither was given, else a :class:`CardSources`."""

    @functools.wraps(func)
    def wrapper(*args: Any, card_source: tuple[str, ...], no_default_cards: bool, **kwargs: Any) -> Any:
        spec = (
            CardSources(tuple(card_source), not no_default_cards) if card_source or no_default_cards else None
        )
        return func(*args, card_source=spec, **kwargs)

    wrapper = click.option(
        "--no-default-cards",
        is_flag=True,
        help="Use only the --card-source files, not the built-in cards under them.",
    )(wrapper)
    return click.option(  # type: ignore[return-value]
        "--card-source", "card_source", metavar="PATH", multiple=True, help=CARD_SOURCE_HELP
    )(wrapper)


def check_card_sources(card_source: str | CardSources | None) -> None:
    """Refuse ``--no-default-cards`` without a ``--card-source``: nothing would be left to read."""
    if isinstance(card_source, CardSources) and not card_source.sources and not card_source.with_default:
        raise click.UsageError("--no-default-cards needs at least one --card-source")


def open_card_source(
    path: str | CardSources | None, progress: bool = True, *, need: Iterable[str] = ()
) -> CardDatabase:
    """Load the card data a command asked for (:func:`cockatrice_ext.decks.resolve_list.card_data`); a
    click progress bar (on stderr) for long loads.

    ``need`` are names the caller will resolve: with no explicit source, if the built-in cards
    miss some of them and Cockatrice is installed, the user's Cockatrice cards are added.
    Errors become :class:`CardDataProblem` naming the file and position.
    """
    from cockatrice_ext.decks.resolve_list import card_data

    check_card_sources(path)
    try:
        return card_data(path, need, progress_bar=progress_bar if progress else None)
    except CardDataError as exc:
        raise CardDataProblem(str(exc)) from exc


def with_every_printing(db: CardDatabase, names: Iterable[str]) -> CardDatabase:
    """``db`` plus every printing of the real cards ``names``
    (:func:`cockatrice_ext.decks.resolve_list.with_every_printing`), a failed look-up said on stderr."""
    from cockatrice_ext.decks.resolve_list import with_every_printing as completed

    return completed(db, names, say_on_stderr)


@click.group()
def cards() -> None:
    """Look up cards in the card data."""


def format_card(
    card: Card, *, max_printings: int = 12, find: Callable[[str], Card | None] | None = None
) -> str:
    """A card as readable text: name, cost, type line, P/T or loyalty, text per face; what it makes
    (tokens found by ``find``, helper cards such as Foretell left out) and what it melds with; printings.
    Names are said as :func:`~cockatrice_ext.cards.resolve.shown_name` says them (a token's trailing spaces
    quoted and counted)."""
    from cockatrice_ext.cards.resolve import shown_name

    lines: list[str] = []
    for face in card.faces or ():
        name = face.name if len(card.faces) > 1 else card.name  # a renamed token shows its own name
        head = shown_name(name) + (f"  {face.mana_cost}" if face.mana_cost else "")
        lines.append(head)
        stats = ""
        if face.power is not None or face.toughness is not None:
            stats = f"  {face.power or ''}/{face.toughness or ''}"
        elif face.loyalty:
            stats = f"  Loyalty {face.loyalty}"
        elif face.defense:
            stats = f"  Defense {face.defense}"
        if face.type_line or stats:
            lines.append(f"{face.type_line}{stats}")
        if face.oracle_text:
            lines.append(face.oracle_text)
        lines.append("")
    extra = []
    if len(card.faces) > 1:  # the faces are shown, not the name a list needs (Fire // Ice, the front)
        from cockatrice_ext.exporters.model import display_name

        extra.append(f"In a deck list: {display_name(card, 'cockatrice')}")
    if card.layout not in ("normal", "token"):
        extra.append(f"Layout: {card.layout}")
    if card.is_token:
        extra.append("Token")
    made, melds = _related_by_kind(card, find)
    if made:
        extra.append("Makes: " + "; ".join(map(shown_name, made)))
    if melds:
        extra.append("Melds: " + "; ".join(map(shown_name, melds)))
    lines.extend(extra)
    if card.printings:
        shown = [
            " ".join(x for x in (p.set_code, p.collector_number, f"({p.rarity})" if p.rarity else "") if x)
            for p in card.printings[:max_printings]
        ]
        more = len(card.printings) - len(shown)
        lines.append("Printings: " + ", ".join(shown) + (f" and {more} more" if more > 0 else ""))
    return "\n".join(lines).rstrip()


def _related_by_kind(card: Card, find: Callable[[str], Card | None] | None) -> tuple[list[str], list[str]]:
    """``card``'s related names split into what it makes and the cards it melds with (a meld's partner and
    result); helper cards such as Foretell, which no card makes, left out. Names stay exact: a token
    database may hold two that differ only by a trailing space."""
    from cockatrice_ext.cards.tokens import is_helper_card

    made: list[str] = []
    melds: list[str] = []
    for name in card.related:
        other = find(name) if find is not None else None
        if other is not None and is_helper_card(other):
            continue
        meld = card.layout == "meld" or (other is not None and other.layout == "meld")
        (melds if meld else made).append(name)
    return made, melds


@cards.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--set", "set_code", default="", help="Set code of the printing wanted.")
@click.option("--number", "collector_number", default="", help="Collector number of the printing wanted.")
@click.option("--all-printings", is_flag=True, help="List every printing.")
@card_source_option
def lookup(
    name: tuple[str, ...],
    set_code: str,
    collector_number: str,
    all_printings: bool,
    card_source: CardSources | None,
) -> None:
    """Show each card NAME (quote names with spaces; exit code 2 and suggestions if one is unknown). A NAME
    is read as a list's line is, pasted whole: ``"4 Lightning Bolt (M10) 146"`` (a count, ``4x``, ``SB:``
    and a deck site's ``*F*`` or ``[Category]`` are passed over) shows that printing (--set and --number
    win over it)."""
    from cockatrice_ext.cards.resolve import NameIndex, shown_name

    wanted = list(name)
    pinned = [_read_as_line(one) for one in wanted]
    from cockatrice_ext.cards.errors import warnings_to

    with warnings_to(lambda message: click.echo(f"warning: {message}", err=True)):
        db = open_card_source(card_source, need=wanted + [bare for bare, _, _ in pinned])
    index = NameIndex(db)
    options = (set_code, collector_number)

    def find(position: int) -> Match | None:
        return _lookup(index, wanted[position], pinned[position], options)

    if card_source is None:  # every printing, as export pins them: the compact built-in cards keep a few
        found = [match.card.name for match in map(find, range(len(wanted))) if match is not None]
        complete = with_every_printing(db, found)
        if complete is not db:
            db, index = complete, NameIndex(complete)
    unknown = False
    for position, one in enumerate(wanted):
        match = find(position)
        if match is None:
            unknown = True
            suggestions = index.suggest(pinned[position][0] or one)
            hint = f" Did you mean: {'; '.join(map(shown_name, suggestions))}?" if suggestions else ""
            if not suggestions and not latin_letters(one):
                hint = " It is not an English name: names are matched in English only."
            click.echo(f"error: unknown card {one!r} in {db.source or 'the card data'}.{hint}", err=True)
            continue
        for warning in match.warnings:
            click.echo(f"warning: {warning}", err=True)
        card = match.card
        if position:
            click.echo("")
        click.echo(
            format_card(card, max_printings=len(card.printings) if all_printings else 12, find=db.cards.get)
        )
        if match.printing is not None:
            p = match.printing
            click.echo(f"Selected printing: {p.set_code} {p.collector_number} {p.rarity}".rstrip())
    if unknown:
        click.echo(UnknownCardsError.HINT.strip(), err=True)
        sys.exit(2)


def _read_as_line(typed: str) -> tuple[str, str, str]:
    """``typed`` read as a list's card line: ``(name, set_code, collector_number)``, as
    :func:`~cockatrice_ext.decks.blocklist.split_pin` reads a name (quote marks, markers, the printing it
    pins), past a count as :func:`~cockatrice_ext.decks.blocklist.parse_card_text` reads one (``4 Opt (ELD)
    59``, ``4x Opt``, ``SB: 2 Duress``; one card is shown, however many a list holds). A name that starts
    with digits (``1996 World Champion``) is looked up as typed first (:func:`_lookup`)."""
    from cockatrice_ext.decks.blocklist import SIDEBOARD_PREFIX, parse_card_text, split_pin

    bare, set_code, number = split_pin(SIDEBOARD_PREFIX.sub("", typed.strip()))
    try:
        _, name, line_set, line_number = parse_card_text(bare)
    except ValueError:
        return bare, set_code, number
    return (name, set_code, number) if set_code or number else (name, line_set, line_number)


def _lookup(
    index: NameIndex, typed: str, pinned: tuple[str, str, str], options: tuple[str, str]
) -> Match | None:
    """The card ``typed`` names: as typed (a real name may hold parentheses), else read as a list's line
    (:func:`~cockatrice_ext.decks.blocklist.split_pin`: ``pinned``), the printing ``options`` (--set,
    --number) name winning over the one the line pins."""
    match = index.resolve(typed, *options)
    bare, set_code, number = pinned
    if match is not None or not bare or (bare, set_code, number) == (typed, "", ""):
        return match
    return index.resolve(bare, *(options if any(options) else (set_code, number)))


@cards.command()
def where() -> None:
    """Show which card data is used without --card-source, and any Cockatrice install found."""
    from cockatrice_ext.cards import sources
    from cockatrice_ext.cards.discover import cockatrice_data_dirs, discover_cockatrice_files

    click.echo(f"Default card source: {sources.default_source()}")
    click.echo(f"Built-in card file: {sources.DATA_FILE}")
    files = discover_cockatrice_files()
    if files:
        click.echo("Cockatrice card files (use --card-source cockatrice):")
        for path in files:
            click.echo(f"  {path}")
    else:
        click.echo("No Cockatrice installation found; looked in:")
        for folder in cockatrice_data_dirs():
            click.echo(f"  {folder}")
