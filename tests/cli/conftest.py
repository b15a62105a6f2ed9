"""The command line as a user runs it: no card data named by the environment, only what the command says."""

from __future__ import annotations

import pytest
from click.testing import CliRunner


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A click runner with ``COCKATRICE_EXT_CARDS`` unset, so the bundled data or ``--cards`` decide."""
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    return CliRunner()
