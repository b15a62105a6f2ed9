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

from servatrice import (  # noqa: E402
    servatrice,
    servatrice_binary,
    servatrice_factory,
    servatrice_strict,
)

__all__ = ["servatrice", "servatrice_binary", "servatrice_factory", "servatrice_strict"]
