"""Eight processes write to one store at once, on SQLite and on PostgreSQL: every run
is recorded whole, none twice, and the new database is migrated once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import paths
from simwright.store import Store
from simwright.store.migrate import current_revision, head_revision

WRITERS = 8
RUNS_EACH = 15


@pytest.fixture(params=["sqlite", "postgresql"])
def new_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a database nobody has opened yet."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db.sqlite'}"
    return str(request.getfixturevalue("pg_server").new_database())


@pytest.mark.slow
def test_eight_concurrent_writers_on_a_new_database(new_url: str) -> None:
    script = paths.TESTS / "helpers" / "store_writer.py"
    env_path = f"{paths.REPO / 'src'}"
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), new_url, str(w), str(RUNS_EACH)],
            stderr=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
        )
        for w in range(WRITERS)
    ]
    errors = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * WRITERS, "\n".join(errors)
    store = Store(new_url)
    runs = store.list_runs(limit=10_000)
    assert len(runs) == WRITERS * RUNS_EACH
    assert {r.status for r in runs} == {"completed"}
    assert current_revision(store.engine) == head_revision()
    for r in runs[::RUNS_EACH]:
        assert [s.status for s in store.steps(r.id)] == ["completed"]
        assert len(store.artifacts(r.id)) == 1
        assert [e.kind for e in store.events(r.id)].count("note") == 1
    store.close()
