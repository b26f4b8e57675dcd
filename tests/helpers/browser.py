"""Headless Chromium for the dashboard's browser tests, through Python Playwright.

The system's ``/usr/bin/chromium`` (Debian package ``chromium``) is driven through
``executable_path``: Playwright's own browser downloads are never used. Tests skip,
saying why, when the package or Playwright is missing. Screenshots go to
``test-artifacts/dashboard/`` at the top of the repository (ignored by git).
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from helpers.paths import REPO

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = REPO / "test-artifacts" / "dashboard"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Headless flags of docs ENVIRONMENT: no sandbox (root in CI), no network chatter."""


def skip_without_browser() -> None:
    """Skip the calling test when Chromium or Playwright is not installed."""
    if importlib.util.find_spec("playwright") is None:
        pytest.skip("python playwright is not installed (pip install playwright; dev extra)")
    if not Path(CHROMIUM).is_file() and shutil.which("chromium") is None:
        pytest.skip("chromium is not installed (apt-get install chromium; make system-packages)")


@contextmanager
def browser_page(width: int = 1366, height: int = 900) -> Iterator[Any]:
    """A fresh page of a headless Chromium with a laptop-sized window."""
    skip_without_browser()
    # lazy: playwright is an optional test dependency, checked just above
    from playwright.sync_api import sync_playwright

    executable = CHROMIUM if Path(CHROMIUM).is_file() else str(shutil.which("chromium"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height})
            context.set_default_timeout(60_000)
            yield context.new_page()
        finally:
            browser.close()


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot as ``test-artifacts/dashboard/NAME.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
