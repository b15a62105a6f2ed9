"""``cockatrice-ext block``: list the bundled blocks and check a block against the auction guidelines.

``block check BLOCK`` reads BLOCK (a file, the name of a bundled block, or ``-`` for standard input;
its format detected or named with ``--from``, as ``export`` reads it; a blank line never starts a
sideboard: a block has none), resolves every name as ``export`` does
(:func:`cockatrice_ext.cli.export.resolve_list`: ``--card-source``, default the embedded cards plus the
bundled custom sets, and a custom set ``BLOCK.xml`` beside a block file), and prints what
:func:`cockatrice_ext.decks.guidelines.analyze_block` measured. Unknown names: one error listing every
one with its line and suggestions, exit code 2. Guideline warnings exit 0 unless ``--strict`` (then 1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cockatrice_ext.cli.cards import CardSources, card_source_option
from cockatrice_ext.cli.export import EXIT_BAD_INPUT, STDIN, STDIN_NAME, from_option

if TYPE_CHECKING:
    from cockatrice_ext.decks.guidelines import BlockReport
    from cockatrice_ext.decks.model import Deck


EXIT_WARNINGS = 1
# Sections of a block list that are not part of the block itself.
NOT_IN_BLOCK = frozenset({"side", "tokens", "maybeboard"})


def find_block_file(block: str) -> Path:
    """An existing file ``block``, else the bundled block of that name (the rule ``export`` follows)."""
    from cockatrice_ext.cli.export import find_block

    return find_block(block)


def read_block(path: Path | str, from_format: str = "auto") -> Deck:
    """Read a block: a file, or ``-`` for standard input, as ``from_format`` or as the command line
    detects it (:func:`cockatrice_ext.decks.readers.detect_format`), a blank line never starting a
    sideboard (a block has none: the cards after it are the block's). A Cockatrice card database is
    refused: it is card data, not a block."""
    from cockatrice_ext.cli.export import load_input
    from cockatrice_ext.decks.errors import DeckFormatError
    from cockatrice_ext.decks.model import Deck

    loaded, source = load_input(str(path), from_format, sideboard=False)
    if not isinstance(loaded, Deck):
        raise DeckFormatError(
            "a Cockatrice card database, not a block list (give it as --card-source)", source=source
        )
    return loaded


def check_block(path: Path | None, card_source: CardSources | None, from_format: str = "auto") -> BlockReport:
    """Read, resolve and measure the block in ``path`` (None: standard input); raises the readers' and
    resolver's errors."""
    from cockatrice_ext.cli.export import STDIN_LABEL, resolve_list
    from cockatrice_ext.decks.guidelines import analyze_block

    source = STDIN_LABEL if path is None else str(path)
    deck = read_block(path or STDIN, from_format)
    if deck.count() == 0:
        from cockatrice_ext.decks.errors import DeckFormatError

        raise DeckFormatError("the block lists no cards", source=source)
    resolved, _ = resolve_list(deck, card_source, source, beside=path)
    return analyze_block(
        (entry.card, entry.count) for section, entry in resolved.entries() if section not in NOT_IN_BLOCK
    )


def _bar(count: int, scale: float) -> str:
    return "#" * max(1 if count else 0, round(count * scale))


def render_report(name: str, report: BlockReport) -> str:
    """The human-readable report ``block check`` prints."""
    from cockatrice_ext.decks.guidelines import CREATURE_SHARE, REMOVAL_TARGET

    low, high = CREATURE_SHARE
    lines = [
        f"Block {name}: {report.total} cards ({report.lands} lands)",
        f"  creatures  {report.creatures:4d}  {report.creature_share:6.1%}  (guideline {low:.0%}-{high:.0%})",
        f"  removal    {report.removal_count:4d}  {report.removal_share:6.1%}  (about {REMOVAL_TARGET:.0%})",
        f"  draws 2+   {len(report.draw):4d}",
        f"  stallers   {len(report.stall):4d}",
        "  mana-value curve (nonland):",
    ]
    curve: dict[str, int] = {}
    for value, count in report.curve.items():
        key = f"{value}" if value < 7 else "7+"
        curve[key] = curve.get(key, 0) + count
    scale = 40 / max(curve.values()) if curve and max(curve.values()) > 40 else 1.0
    for key, count in curve.items():
        lines.append(f"    {key:>2}: {count:4d} {_bar(count, scale)}")
    if report.removal:
        lines.append(f"  removal cards: {'; '.join(report.removal)}")
    if report.warnings:
        lines.append("Warnings:")
        for warning in report.warnings:
            lines.append(f"  - {warning.message}")
            if warning.cards and warning.code != "removal-high":
                lines.append(f"      {'; '.join(warning.cards)}")
    else:
        lines.append("No guideline warnings.")
    return "\n".join(lines)


def report_json(name: str, report: BlockReport) -> dict[str, Any]:
    """The report as JSON-friendly data (``block check --json``)."""
    return {
        "block": name,
        "total": report.total,
        "creatures": report.creatures,
        "creature_share": round(report.creature_share, 4),
        "lands": report.lands,
        "removal": list(report.removal),
        "removal_count": report.removal_count,
        "removal_share": round(report.removal_share, 4),
        "draw_more_than_one": list(report.draw),
        "board_stall": report.stall,
        "curve": {str(k): v for k, v in report.curve.items()},
        "warnings": [{"code": w.code, "message": w.message, "cards": list(w.cards)} for w in report.warnings],
    }


@click.group()
def block() -> None:
    """Bundled block lists, and the auction block-building guidelines."""


@block.command("list")
def list_command() -> None:
    """Show the bundled blocks: name, card count and what each one is."""
    from cockatrice_ext.blocks import custom_cards_path, list_blocks, open_block

    for name in list_blocks():
        deck = open_block(name)
        extra = " (+ custom cards)" if custom_cards_path(name) else ""
        click.echo(f"{name:18s} {deck.count():4d}  {deck.name}{extra}")


@block.command("check")
@click.argument("block_name", metavar="BLOCK")
@card_source_option
@from_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--strict", is_flag=True, help="Exit with code 1 when a guideline is missed.")
def check_command(
    block_name: str, card_source: CardSources | None, from_format: str, as_json: bool, strict: bool
) -> None:
    """Measure BLOCK (a file, a bundled block name, or - for standard input) against the Auction Magic
    building guidelines.

    A Cockatrice custom set named like the list and beside it (myblock.xml beside myblock.txt) is
    read with it, over the other card data, and said on stderr, as export reads it. A blank line never
    starts a sideboard: the cards after it are the block's.
    """
    from cockatrice_ext.cards.errors import CardDataError, UnknownCardsError
    from cockatrice_ext.decks.errors import DeckFormatError

    path = None if block_name == STDIN else find_block_file(block_name)
    try:
        report = check_block(path, card_source, from_format)
    except UnknownCardsError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(EXIT_BAD_INPUT) from None
    except (DeckFormatError, CardDataError) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(EXIT_BAD_INPUT) from None
    except OSError as exc:
        click.echo(f"error: cannot read {block_name}: {exc.strerror or exc}", err=True)
        raise SystemExit(EXIT_BAD_INPUT) from None
    name = path.stem if path is not None else STDIN_NAME
    if as_json:
        click.echo(json.dumps(report_json(name, report), indent=2, ensure_ascii=False))
    else:
        click.echo(render_report(name, report))
    if strict and report.warnings:
        raise SystemExit(EXIT_WARNINGS)
