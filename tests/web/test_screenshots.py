"""``scripts/web_screenshots.py`` draws every page into PNGs (needs Debian's chromium and chromium-driver)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "web_screenshots.py"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_the_script_draws_every_page(tmp_path: Path) -> None:
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        pytest.skip("the screenshots need Debian's chromium and chromium-driver (apt-get install them)")
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    pages = {"games", "auction", "vortex", "combat", "vortex-private", "combat-private"}
    pages |= {"league", "autobattler-private", "market-private", "prices", "price-chart"}
    assert {p.stem for p in tmp_path.glob("*.png")} == pages
    for page in pages:
        data = (tmp_path / f"{page}.png").read_bytes()
        assert data.startswith(PNG_MAGIC) and 5_000 < len(data) < 300_000, page
