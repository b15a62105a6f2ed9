"""The web tests' reader of the pages' server-sent-events streams."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp


async def events(session: aiohttp.ClientSession, url: str) -> AsyncIterator[tuple[str, Any]]:
    """(event name, JSON data) from a server-sent-events stream (its keepalives left out)."""
    async with session.get(url) as response:
        assert response.status == 200, await response.text()
        assert response.headers["Content-Type"].startswith("text/event-stream")
        name = ""
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[len("event: ") :]
            elif line.startswith("data: ") and name != "keepalive":  # the idle stream's sign of life
                yield name, json.loads(line[len("data: ") :])
