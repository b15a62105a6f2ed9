"""``bot run`` on a Servatrice whose games cannot share deck lists: the operator hears what is lost."""

from __future__ import annotations

from cockatrice_ext.cli.bot import ALL_FORMATS, unshared_deck_lists_warning
from cockatrice_ext.client.client import ServerInfo

OLD = ServerInfo("Rooster Ranges", "2.10.3 ()", 14)


def test_an_old_server_is_named_with_what_each_format_loses() -> None:
    warning = unshared_deck_lists_warning(OLD, ALL_FORMATS)
    assert warning.startswith("Rooster Ranges runs Servatrice 2.10.3, whose games do not share deck lists")
    assert "Magic Combat Rules games cannot be refereed" in warning
    assert "league games start with their decks unchecked" in warning
    only_combat = unshared_deck_lists_warning(OLD, ("auction", "combat"))
    assert "Combat" in only_combat and "league" not in only_combat


def test_formats_that_need_no_deck_lists_and_current_servers_are_not_warned() -> None:
    assert unshared_deck_lists_warning(OLD, ("auction", "vortex")) == ""
    assert unshared_deck_lists_warning(ServerInfo("new", "3.0.2 ()", 14), ALL_FORMATS) == ""
    assert unshared_deck_lists_warning(None, ALL_FORMATS) == ""
