"""Shared fixtures: an isolated simwright home with a real SQLite store, and a
temporary PostgreSQL server for the tests that need one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import postgres
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


@pytest.fixture(scope="session")
def pg_server() -> Iterator[postgres.Server]:
    """A temporary PostgreSQL cluster for the session (skipped when it cannot start)."""
    reason = postgres.why_unavailable()
    if reason is not None:
        pytest.skip(reason)
    with postgres.running_server() as server:
        yield server
