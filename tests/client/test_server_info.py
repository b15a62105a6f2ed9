"""What the client reads from the server's own words: whose games can share deck lists."""

from __future__ import annotations

import pytest

from cockatrice_ext.client.client import ServerInfo


@pytest.mark.parametrize(
    ("version", "shares"),
    [
        ("2.10.3 ()", False),  # the last 2.x release: a deck list reaches its owner only
        ("2.9.0 (2023-09-14)", False),
        ("2.8.0", False),
        ("2.11.0-beta.25", True),  # share_decklists_on_load came in the 2.11 betas that became 3.0
        ("3.0.2 ()", True),
        ("3.1.0 ()", True),
        ("10.0.0", True),
        ("", True),  # a version that does not read is taken for a current server
        ("custom build", True),
    ],
)
def test_which_servers_share_deck_lists(version: str, shares: bool) -> None:
    assert ServerInfo("server", version, 14).shares_deck_lists is shares
