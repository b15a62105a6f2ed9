"""Web tests: their shared helpers on ``sys.path`` (``from sse_events import events``) and the browser."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from browsers import open_chromium  # noqa: E402 (found through the path above)


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium from the OS packages, 1000x900 (skips, saying why, when they are not installed);
    a test file that needs another size defines its own."""
    driver = open_chromium("1000,900")
    yield driver
    driver.quit()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Starts a Market Draft league of the given members with its web view (``test_page_behaviour.Served``),
    closed at the end of the test."""
    from test_page_behaviour import Served

    started: list[Served] = []

    def start(*members: str) -> Served:
        started.append(Served(tmp_path, members))
        return started[-1]

    yield start
    for one in started:
        one.close()
