"""Servatrice's idle-client kick, on a SQL-mode server where it applies to registered users.

Pings do not reset the server's idle timer; the client's periodic harmless room command does. A client
that never refreshes is warned and dropped: the control that shows the server really kicks.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from mariadb_server import sql_config

from cockatrice_ext.client import Disconnected, FloodLimits, connect

pytestmark = pytest.mark.servatrice

IDLE_TIMEOUT = 6  # server ticks (seconds)


def test_idle_refresh_keeps_a_quiet_bot_connected(servatrice_factory: Any, mariadb: Any) -> None:
    mariadb.add_user("quiet_bot", "secret")
    mariadb.add_user("idle_user", "secret")
    server = servatrice_factory.start(sql_config(mariadb, idle_client_timeout=IDLE_TIMEOUT))

    async def scenario() -> None:
        options: dict[str, Any] = {
            "flood_limits": FloodLimits.unlimited(),
            "reconnect": False,
            "keepalive": 1.0,
        }
        refreshing = await connect(server.ws_url, "quiet_bot", "secret", idle_refresh=2.0, **options)
        control = await connect(server.ws_url, "idle_user", "secret", idle_refresh=3600.0, **options)
        dropped = asyncio.Event()

        async def on_event(event: object) -> None:
            if isinstance(event, Disconnected):
                dropped.set()

        control.add_listener(on_event)
        try:
            for client in (refreshing, control):
                await client.join_room(await client.room_id_by_name("Bot room"))
            await asyncio.wait_for(dropped.wait(), IDLE_TIMEOUT * 3)  # the control is kicked...
            assert refreshing.connected  # ...the refreshing client is not
            await asyncio.sleep(2)
            assert refreshing.connected
            assert await refreshing.ping() >= 0
        finally:
            await refreshing.close()
            await control.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))
