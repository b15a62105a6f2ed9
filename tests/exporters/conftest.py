"""Makes ``export_samples`` (this folder's shared sample cards) importable under --import-mode=importlib;
the command-line runner a designer's session gets (a test file may give its own)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A command-line runner as a designer has it: the shipped card data, no ``SOURCE_DATE_EPOCH``."""
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    return CliRunner()
