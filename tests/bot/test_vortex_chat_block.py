"""A pool named in ``!vortex new`` is a bundled block or the operator's, never a file the room chooses."""

from __future__ import annotations

import asyncio
import types
from pathlib import Path

import pytest

from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.bot.vortex import VortexOptions, VortexRoom


def test_a_file_named_in_room_chat_is_refused_without_reading_it(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("4 Grizzly Bears\nsecret-token-1234\n")
    room = VortexRoom(object())  # type: ignore[arg-type]
    ctx = types.SimpleNamespace(room_id=7, sender="mallory")
    with pytest.raises(BadArgument) as refused:
        asyncio.run(room.vortex(ctx, "new", f"2 {secret}"))  # type: ignore[arg-type]
    assert "no block called" in str(refused.value)
    assert "secret-token" not in str(refused.value) and "Grizzly" not in str(refused.value)


def test_the_operators_own_pool_may_be_named(tmp_path: Path) -> None:
    pool = tmp_path / "pool.txt"
    pool.write_text("1 No Such Card Anywhere\n")
    room = VortexRoom(object(), VortexOptions(block=str(pool)))  # type: ignore[arg-type]
    ctx = types.SimpleNamespace(room_id=7, sender="al")
    with pytest.raises(BadArgument, match="does not load"):  # named, so read (here it does not resolve)
        asyncio.run(room.vortex(ctx, "new", f"2 {pool}"))  # type: ignore[arg-type]
