"""Field tests: the bot as a user starts it, players built on Cockatrice's own protos, shipped limits.

Fixtures: ``protos`` (the upstream ``.proto`` files compiled now, or a skip saying why), ``shipped_server``
(a Servatrice with the settings of ``servatrice.ini.example``: flood limits and 5 games per user, auth
none), and ``referee`` (a factory for ``cockatrice-ext bot run`` subprocesses, killed at the end).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from field_bot import SHIPPED, Referee  # noqa: E402
from field_players import Protos, compile_protos  # noqa: E402
from servatrice import ServatriceFactory, ServatriceServer  # noqa: E402
from shared_paths import UPSTREAM_PROTOS  # noqa: E402


@pytest.fixture(scope="session")
def protos(tmp_path_factory: pytest.TempPathFactory) -> Protos:
    """Cockatrice's protos compiled at test time into a private folder."""
    pytest.importorskip("grpc_tools.protoc", reason="grpcio-tools (a test dependency) is not installed")
    if not UPSTREAM_PROTOS.is_dir():
        pytest.skip(
            "Cockatrice's .proto files not found: set COCKATRICE_SRC (an extracted Cockatrice source"
            " tree) or COCKATRICE_PROTO_DIR"
        )
    return compile_protos(UPSTREAM_PROTOS, tmp_path_factory.mktemp("upstream_pb"))


@pytest.fixture
def shipped_server(protos: Protos, servatrice_factory: ServatriceFactory) -> ServatriceServer:
    """A private Servatrice with its shipped security settings."""
    return servatrice_factory.start(SHIPPED)


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Callable[..., Referee]]:
    """Start bots with ``referee(server, *args, verbose=False)``; every one started is stopped after the
    test."""
    started: list[Referee] = []

    def start(server: ServatriceServer, *extra: str, verbose: bool = False) -> Referee:
        bot = Referee(server, tmp_path, *extra, verbose=verbose)
        bot.start()
        started.append(bot)
        return bot

    yield start
    for bot in started:
        bot.stop()
