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
    servatrice,
    servatrice_binary,
    servatrice_factory,
    servatrice_strict,
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
