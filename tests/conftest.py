"""Shared fixtures: an isolated simwright home with a real SQLite store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from simwright.settings import Settings
from simwright.store import Store


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings rooted in a temporary home."""
    return Settings(home=tmp_path / "home", threads=1)


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    """A real SQLite store in the temporary home."""
    s = Store.at(settings.home / "simwright.db")
    yield s
    s.close()
