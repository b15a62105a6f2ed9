"""The ``cockatrice-ext`` command line: a thin click layer over the library.

Sub-command groups live in their own modules and are imported only when used, so that
``cockatrice-ext export`` does not pay for the network client and ``bot`` does not pay for lxml.
Each module exposes one click command or group named in ``SUBCOMMANDS``.
"""

from __future__ import annotations

import importlib
import logging
import sys
from typing import Any

import click

from cockatrice_ext import __version__

# name -> (module, attribute, one-line help shown by --help without importing the module)
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "export": ("cockatrice_ext.cli.export", "export", "Convert a block list to a deck or card file."),
    "cards": ("cockatrice_ext.cli.cards", "cards", "Look up cards in the card data."),
    "block": (
        "cockatrice_ext.cli.block",
        "block",
        "List the bundled blocks; check a block against the auction guidelines.",
    ),
    "server": ("cockatrice_ext.cli.server", "server", "Talk to a Servatrice: info, rooms, watch."),
    "bot": ("cockatrice_ext.cli.bot", "bot", "Run the referee bot in a Servatrice room."),
    "stats": ("cockatrice_ext.cli.stats", "stats", "Reports over the referee's journal."),
}


REQUIRED_PACKAGES = {
    "aiohttp": "aiohttp",
    "google": "protobuf",
    "lxml": "lxml",
    "matplotlib": "matplotlib",
    "requests": "requests",
    "websockets": "websockets",
}
"""Top-level import name -> the distribution in pyproject's dependencies that provides it."""


def missing_package(exc: ModuleNotFoundError) -> str | None:
    """The required distribution whose absence ``exc`` reports, or None when it is something else."""
    top = (exc.name or "").split(".")[0]
    return REQUIRED_PACKAGES.get(top)


_NO_ARGS_IS_HELP: type[Exception] = getattr(click.exceptions, "NoArgsIsHelpError", ())  # type: ignore[assignment]
"""Click 8.2+ raises it for a command group given alone (8.1 printed the help itself)."""


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(SUBCOMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in SUBCOMMANDS:
            module_name, attr, _ = SUBCOMMANDS[cmd_name]
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name == module_name:
                    return None
                raise
            command: click.Command = getattr(module, attr)
            return command
        return super().get_command(ctx, cmd_name)

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Every refusal reads the same, ``error: ...`` on stderr (click's own say ``Error:``)."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except ModuleNotFoundError as exc:
            package = missing_package(exc)
            if package is None:
                raise
            click.echo(
                f"error: the package {package} is not installed ({exc.name} cannot be imported); "
                "install cockatrice-ext with its dependencies: pip install cockatrice-ext",
                err=True,
            )
            sys.exit(1)
        except click.ClickException as exc:
            if isinstance(exc, _NO_ARGS_IS_HELP) and exc.ctx is not None:
                click.echo(exc.ctx.get_help())  # a command group alone: its help, once, not an error
                sys.exit(0)
            if isinstance(exc, click.UsageError) and exc.ctx is not None:
                click.echo(exc.ctx.get_usage(), err=True)
                hint = f"Try '{exc.ctx.command_path} {exc.ctx.help_option_names[0]}' for help.\n"
                click.echo(hint, err=True)
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name][2]) for name in sorted(SUBCOMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup)
@click.option("-v", "--verbose", count=True, help="Log more (-v info, -vv debug).")
@click.version_option(version=__version__, package_name="cockatrice-ext")
def main(verbose: int) -> None:
    """Referee bot and deck tooling for Magic variant formats on Cockatrice and Forge."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def run(*args: Any) -> None:  # pragma: no cover - convenience for python -m
    main(*args)
