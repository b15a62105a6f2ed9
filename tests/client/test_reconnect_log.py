"""What an operator reads at the default log level when the connection drops and comes back.

Seen in the operator's smoke test: after "connection ... lost" and several "reconnect attempt N failed"
warnings, nothing at WARNING said the bot was back; and "could not rejoin game 1: Command_JoinGame failed
with RespGameFull (10)" for an unregistered account did not say that its seat was lost (the real reason).
"""

from __future__ import annotations

import logging

import pytest
from client_helpers import run, wait_until
from fake_servatrice import FakeServatrice

from cockatrice_ext.client import client as client_module
from cockatrice_ext.client import connect
from cockatrice_ext.client.errors import CommandFailed

RESP_GAME_FULL = 10


def test_a_reconnect_is_said_once_at_warning(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="cockatrice_ext.client")

    async def scenario() -> None:
        async with FakeServatrice() as server:
            client = await connect(
                server.url,
                "bot",
                connect_timeout=3.0,
                command_timeout=3.0,
                reconnect_delays=lambda: iter([0.05] * 20),
            )
            try:
                for writer in list(server._writers):  # the server drops the connection
                    writer.close()
                await wait_until(lambda: len(server.logins) >= 2, what="a second login")
                await client.wait_connected(5)
                await wait_until(
                    lambda: any("reconnected" in r.getMessage() for r in caplog.records), what="the line"
                )
            finally:
                await client.close()

    run(scenario(), timeout=20)
    back = [r for r in caplog.records if r.getMessage().startswith("reconnected to ")]
    assert len(back) == 1 and back[0].levelno == logging.WARNING
    assert "'bot'" in back[0].getMessage()


def test_a_full_game_on_rejoin_is_said_as_the_seat_lost() -> None:
    seat = client_module._Seat(room_id=1, spectator=False, judge=False, password=None)
    error = CommandFailed(RESP_GAME_FULL, command="Command_JoinGame")
    said = client_module._rejoin_refused(error, seat)
    assert said.startswith("our seat was lost while the connection was down")
    assert "unregistered account's seat" in said and "RespGameFull" in said
