"""Helpers shared by the client tests: run a coroutine with a hard timeout, collect events."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from cockatrice_ext.client import AnyClientEvent, Client

T = TypeVar("T")

TEST_DECK = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<cockatrice_deck version="1"><deckname>test</deckname><comments/>'
    '<zone name="main"><card number="20" name="Forest"/><card number="20" name="Llanowar Elves"/></zone>'
    '<zone name="side"><card number="2" name="Naturalize"/></zone></cockatrice_deck>'
)


def run(coroutine: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
    """Run ``coroutine`` on a fresh loop, failing (not hanging) after ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


class Recorder:
    """Listener that records every event and lets a test wait for one matching a predicate."""

    def __init__(self, client: Client) -> None:
        self.events: list[AnyClientEvent] = []
        self._changed = asyncio.Condition()
        client.add_listener(self._on_event)

    async def _on_event(self, event: AnyClientEvent) -> None:
        async with self._changed:
            self.events.append(event)
            self._changed.notify_all()

    async def wait_for(
        self, predicate: Callable[[AnyClientEvent], bool], timeout: float = 10.0, *, what: str = "event"
    ) -> AnyClientEvent:
        """Return the first recorded event (past or future) matching ``predicate``."""

        async def waiter() -> AnyClientEvent:
            async with self._changed:
                while True:
                    for event in self.events:
                        if predicate(event):
                            return event
                    await self._changed.wait()

        try:
            return await asyncio.wait_for(waiter(), timeout)
        except TimeoutError:
            names = [getattr(e, "name", type(e).__name__) for e in self.events[-20:]]
            raise AssertionError(f"no {what} within {timeout}s; last events: {names}") from None

    def named(self, name: str) -> list[Any]:
        return [e for e in self.events if getattr(e, "name", None) == name]


async def wait_until(
    condition: Callable[[], bool], timeout: float = 10.0, *, what: str = "condition"
) -> None:
    """Poll ``condition`` until true (for state kept by the client, e.g. mirrors)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"{what} not reached within {timeout}s")
        await asyncio.sleep(0.02)
