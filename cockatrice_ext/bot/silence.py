"""Whether a player's silence is real: a timer that acts for a player who said nothing (the bid timer's pass,
the pick timer's random pick) asks first.

A link that stalls for a few seconds (Wi-Fi, a NAT, a laptop lid) holds the lines the players sent in time
somewhere between the server and the referee; a timer that fired then sold lots over bids sent in time, and
the journal kept the sale. So before it acts a timer has the client catch up with the server
(:meth:`~cockatrice_ext.client.Client.caught_up`: what the server had for us is heard first). While the
connection is down, the referee is rejoining, or catching up itself took so long that the link had stalled,
the timer does not act: it starts again, and the player gets their whole time once the referee hears again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from cockatrice_ext.client.errors import ClientError

LOGGER = logging.getLogger(__name__)

STALLED = 2.0
"""Seconds: catching up longer than this means the link stalled just now (a loopback or a continent away
answers in well under a second); a player may have been speaking into it."""
CATCH_UP_TIMEOUT = 10.0
"""Seconds to wait for the server's answer before taking the link for stalled."""


TOLD_WAIT = 60.0
"""Seconds a timer waits at most for the lines announcing the player's turn to leave the chat queue."""


async def told(referee: Any, *users: str) -> None:
    """Wait until the lines queued for the game's chat, and for ``users`` privately, have left (at most
    :data:`TOLD_WAIT` s): a timer for a player runs from when they can read that it is their turn. Under the
    shipped flood limits a game's lines may wait ten seconds and more for the chat budget; a pick timer that
    started when the pick fell due picked at random 0.1 s after the player read "to pick from 7"."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TOLD_WAIT
    bot = referee.bot
    waits = [(bot.chat, ("game", referee.game_id))]
    waits += [(bot.conversation_with(user).chat, ("user", user)) for user in users]
    for chat, destination in waits:
        await chat.flush(destination, timeout=max(0.0, deadline - loop.time()))


def may_speak(referee: Any) -> bool:
    """Whether a timer's warning ("5 s left") can reach the game now (else it is not said: it would be stale
    by the time the connection is back)."""
    client = referee.bot.client
    return not referee.closed and not referee.rejoining and client is not None and client.connected


async def link_heard(client: Any, what: str) -> bool:
    """Whether ``client`` is connected and everything the server had for it was heard within
    :data:`STALLED` seconds (``what`` names the game or league in the log)."""
    if client is None or not client.connected:
        return False
    try:
        took = await client.caught_up(timeout=CATCH_UP_TIMEOUT)
    except (ClientError, TimeoutError) as exc:
        LOGGER.info("%s: no word from the server (%s): the timer starts again", what, exc)
        return False
    if took > STALLED:
        LOGGER.info("%s: the server answered in %.1f s; the timer starts again", what, took)
        return False
    return bool(client.connected)


async def silence_is_heard(referee: Any) -> bool:
    """Whether a timer of ``referee``'s game may act now for a player who said nothing: connected, not
    rejoining, and everything the server had for us heard within :data:`STALLED` seconds and handled by the
    game (its :class:`~cockatrice_ext.bot.serial.SerialWork` has run it). The caller checks
    the game again under its lock afterwards (a line heard meanwhile may have changed it or re-armed the
    timer), and starts the timer again when this is False."""
    if not may_speak(referee):
        return False
    if not await link_heard(referee.bot.client, f"game {referee.game_id}"):
        return False
    work = getattr(referee, "work", None)
    if work is not None:  # heard means handled: the game's own queue has run what the client handed it
        await work.caught_up()
    return may_speak(referee)
