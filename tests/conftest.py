"""Shared pytest configuration: the real-Servatrice fixtures for every test folder.

Fixtures (see ``tests/servatrice.py``): ``servatrice`` (session-wide server, relaxed flood limits),
``servatrice_strict`` (private server with Servatrice's shipped flood limits), ``servatrice_factory``
(start servers with any ``ServatriceConfig``), ``servatrice_binary``. Test modules that want the helper
classes import them with ``from servatrice import ServatriceConfig, FloodLimits`` (this folder is on
``sys.path``).
"""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS_DIR = str(Path(__file__).resolve().parent)
if _TESTS_DIR not in sys.path:
    sys.path.insert(0, _TESTS_DIR)

from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402
from mariadb_server import MariaDB, MariaDBUnavailable, find_schema  # noqa: E402
from servatrice import (  # noqa: E402
    find_servatrice_binary,
    servatrice,
    servatrice_binary,
    servatrice_factory,
    servatrice_strict,
    servatrice_version,
    shares_deck_lists,
)

__all__ = ["mariadb", "servatrice", "servatrice_binary", "servatrice_factory", "servatrice_strict"]


@pytest.fixture(scope="session")
def mariadb(tmp_path_factory: pytest.TempPathFactory, servatrice_binary: str) -> Iterator[MariaDB]:
    """A private MariaDB holding a Servatrice database (skips when MariaDB is not installed)."""
    try:
        database = MariaDB(tmp_path_factory.mktemp("mariadb"), find_schema(servatrice_binary))
        database.start()
    except MariaDBUnavailable as exc:
        pytest.skip(f"SQL-mode Servatrice tests need MariaDB: {exc}")
    yield database
    database.stop()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """``@pytest.mark.shared_deck_lists``: skipped against a Servatrice whose games cannot share deck lists
    (before 2.11), where the referee refuses such games (``tests/field/test_old_servers_field.py``)."""
    if item.get_closest_marker("shared_deck_lists") is None:
        return
    binary = find_servatrice_binary()
    if binary and not shares_deck_lists(binary):
        version = servatrice_version(binary).split(" ")[0]
        pytest.skip(f"Servatrice {version} does not share deck lists (2.11 and later do)")
