"""The store tests run on both backends: SQLite and a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from simwright.settings import Settings
from simwright.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Store]:
    """A real store on each backend: SQLite in the temporary home, or a new database on
    the session's PostgreSQL server."""
    if request.param == "sqlite":
        s = Store.at(settings.home / "simwright.db")
    else:
        s = Store(request.getfixturevalue("pg_server").new_database())
    yield s
    s.close()
