"""A SQLite store copied into PostgreSQL holds the same records and takes new ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.cli.views import show_json
from simwright.errors import StoreError
from simwright.store import Store
from simwright.store.copy import copy_store
from simwright.store.records import ArtifactRecord, EventRecord, StepOutcome


def _one_run(store: Store, run_id: str) -> None:
    store.create_run(run_id, "p", request="r", params_json="{}", workdir="/w", version="0")
    sid = store.begin_step(
        run_id, seq=1, attempt=1, name="S", step_json="{}", inputs_hash="h", workdir="/w/s"
    )
    store.finish_step(
        run_id,
        StepOutcome(
            step_id=sid,
            status="completed",
            wall_s=0.1,
            artifacts=(ArtifactRecord("a.txt", "0" * 64, 1, "text"),),
            events=(EventRecord("note", "x"),),
            run_status="completed",
        ),
    )


def test_sqlite_to_postgresql_keeps_every_record(tmp_path: Path, pg_server) -> None:
    source = Store.at(tmp_path / "db.sqlite")
    for i in range(3):
        _one_run(source, f"r{i}")
    target = Store(pg_server.new_database())
    report = copy_store(source, target)
    assert report.rows["runs"] == 3 and report.rows["steps"] == 3 and report.total >= 12
    for i in range(3):
        assert show_json(target, target.get_run(f"r{i}")) == show_json(
            source, source.get_run(f"r{i}")
        )
    _one_run(target, "after")  # sequences moved past the copied ids
    assert len(target.steps("after")) == 1
    with pytest.raises(StoreError, match="not empty"):
        copy_store(source, target)
    source.close()
    target.close()
