"""After a dropped connection the client sends no container again: none runs twice on the server.

The question (a bid, a pick or a card move happening twice after a reconnect): ``Client._teardown`` fails
every container still waiting and every one sent but not answered with ``ConnectionLost`` and forgets
them; the new connection starts its command ids afresh and sends only what is given to it after the
reconnect (its login, its rooms and games joined again). The only container the client itself sends again
is one the server refused as flood on the live connection (Servatrice ran none of it). What the drop
failed is never silently lost either: its caller hears ``ConnectionLost``, whose ``sent`` says whether the
container had left (the server may have run it) or never did.
"""

from __future__ import annotations

import asyncio
import itertools

import pytest
from client_helpers import run, wait_until
from fake_servatrice import FakeServatrice

from cockatrice_ext.client import Reconnected, connect
from cockatrice_ext.client.errors import ConnectionLost
from cockatrice_ext.client.flood import FloodLimits
from cockatrice_ext.protocol import commands
from cockatrice_ext.protocol import messages as pb

GAME = 5


def test_a_container_the_drop_cut_off_is_never_sent_again() -> None:
    """The server drops the connection as the first of two counted game commands arrives (the second waits
    for the game-command budget). After the reconnect the server has had the first exactly once and the
    second never; both callers heard ``ConnectionLost``: the first as sent, the second as never sent."""
    dropped = False

    async def drop_at_the_first_token(container: pb.CommandContainer) -> None:  # type: ignore[name-defined]
        nonlocal dropped
        if not dropped and any(w.HasExtension(pb.Command_CreateToken.ext) for w in container.game_command):
            dropped = True
            raise ConnectionResetError("the link dropped")  # the server's side closes: no answer

    async def scenario() -> None:
        async with FakeServatrice(on_container=drop_at_the_first_token) as server:
            client = await connect(
                server.url,
                "bot",
                keepalive=0.05,
                command_timeout=3.0,
                connect_timeout=3.0,
                reconnect_delays=lambda: itertools.repeat(0.05),
                flood_limits=FloodLimits(game_commands=1),
            )
            events = []
            client.add_listener(lambda event: asyncio.sleep(0, events.append(event)))
            try:
                first = asyncio.create_task(client.call(commands.create_token("First"), game_id=GAME))
                await asyncio.sleep(0)
                second = asyncio.create_task(client.call(commands.create_token("Second"), game_id=GAME))
                for task, was_sent in ((first, True), (second, False)):
                    with pytest.raises(ConnectionLost) as lost:
                        await asyncio.wait_for(task, 10)
                    assert lost.value.sent is was_sent, (task, lost.value)
                await wait_until(
                    lambda: any(isinstance(e, Reconnected) for e in events), what="the reconnect"
                )
                await client.ping()  # the new connection carries commands: anything queued would be out
                await wait_until(lambda: len(server.commands_named("Command_Ping")) >= 5, what="pings")
                names = [token.card_name for token in server.commands_named("Command_CreateToken")]
                assert names == ["First"], names
                assert server.connections == 2
            finally:
                await client.close()

    run(scenario(), timeout=30)
