"""Headless Chromium for the browser tests, from the OS packages (``chromium``, ``chromium-driver``)."""

from __future__ import annotations

import shutil
from typing import Any

import pytest


def open_chromium(window_size: str) -> Any:
    """A Selenium driver of headless Chromium with a window of ``window_size`` ("W,H"); skips the test,
    saying why, when selenium, chromium or chromedriver is missing."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (test extras)")
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if chromium is None or chromedriver is None:
        pytest.skip("browser tests need Debian's chromium and chromium-driver (apt-get install them)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={window_size}")
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
