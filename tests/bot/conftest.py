"""Bot tests: scripted-player helpers on ``sys.path`` and a MariaDB fixture for SQL-mode Servatrice."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from mariadb_server import MariaDB, MariaDBUnavailable, find_schema  # noqa: E402


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
