"""Which formats the bot can run, and how each installs itself in a room or resumes a game.

``INSTALLERS[name](bot)`` adds the format's room (and private-message) commands to a running
:class:`~cockatrice_ext.bot.runtime.Bot`. ``RESUMERS[name](bot, game_id, room_id, table_key)``
rebuilds a game referee from the journal when the bot is re-seated after a restart.
``REBUILDERS[name](bot, room_id, table_key, requested_by)`` opens a *new* game from a journaled one
whose seat the bot lost (unregistered accounts lose their seat when they disconnect): ``!resume``.
Modules are imported lazily so one format's failure cannot stop the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cockatrice_ext.bot.runtime import Bot, GameReferee

Installer = Callable[["Bot"], Awaitable[None]]
Resumer = Callable[["Bot", int, int, str], Awaitable["GameReferee"]]
Rebuilder = Callable[["Bot", int, str, str], Awaitable["GameReferee"]]

MODULES = {
    "auction": "cockatrice_ext.bot.auction",
    "vortex": "cockatrice_ext.bot.vortex",
    "combat": "cockatrice_ext.bot.combat",
    "market": "cockatrice_ext.bot.league",
    "autobattler": "cockatrice_ext.bot.league",
}


class _Lazy(dict[str, Any]):
    """A mapping that imports a format's bot module on first lookup."""

    def __init__(self, attribute: str) -> None:
        super().__init__()
        self.attribute = attribute

    def get(self, key: str, default: Any = None) -> Any:
        module_name = MODULES.get(key)
        if module_name is None:
            return default
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return default
            raise
        table = getattr(module, self.attribute, {})
        return table.get(key, default)

    def __getitem__(self, key: str) -> Any:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None


INSTALLERS: dict[str, Installer] = _Lazy("INSTALLERS")
RESUMERS: dict[str, Resumer] = _Lazy("RESUMERS")
REBUILDERS: dict[str, Rebuilder] = _Lazy("REBUILDERS")
